/*
 * present.c -- presentation fields for templates (see present.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botname.h"
#include "clock.h"
#include "drawing.h"
#include "present.h"
#include "timetext.h"
#include "xalloc.h"

/* Room for one seat as text: a player's name and "(siège N)". */
#define SEAT_TEXT_MAX	256
/* The width of K_lines: lines of at most 78 characters (the mail's, so
 * that mail_wrap() has nothing left to break) with an indent of up to 8. */
#define PRESENT_WRAP_WIDTH	70
/* The widest example move a text prints on one line: quoted, after an
 * indent of 6, within 78 characters (a move is never broken: it is
 * copied as it is). */
#define EXAMPLE_WIDTH	(78 - 6 - 2)
/* How many moves after a long one an example looks at for one that fits. */
#define EXAMPLE_SCAN	32

const char *
present_lang_code(enum rules_lang lang)
{
	return lang == RULES_LANG_FR ? "fr" : "en";
}

/* Characters in a UTF-8 string (continuation bytes not counted). */
static size_t
width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* The strings of an array joined with ", "; NULL if any item is not a
 * string. */
static json_t *
join_strings(const json_t *a, const char *sep)
{
	json_t	*out;
	char	*buf;
	size_t	 i, len = 1, at = 0;

	for (i = 0; i < json_array_size(a); i++) {
		if (!json_is_string(json_array_get(a, i)))
			return NULL;
		len += json_string_length(json_array_get(a, i)) + strlen(sep);
	}
	buf = xrealloc(NULL, len, 1);
	buf[0] = '\0';
	for (i = 0; i < json_array_size(a); i++) {
		if (i > 0) {
			memcpy(buf + at, sep, strlen(sep));
			at += strlen(sep);
		}
		memcpy(buf + at, json_string_value(json_array_get(a, i)),
		    json_string_length(json_array_get(a, i)));
		at += json_string_length(json_array_get(a, i));
	}
	buf[at] = '\0';
	out = json_string(buf);
	free(buf);
	return out;
}

/* KEY_lines: the string s broken into lines of at most
 * PRESENT_WRAP_WIDTH characters, so that an indent of up to 8 fits in a
 * 78-character mail line.  Nothing is set when s is not a string. */
static void
set_wrapped(json_t *obj, const char *key, const json_t *s)
{
	json_t	*lines;
	char	 k[300];

	if (!json_is_string(s) || strlen(key) > 200)
		return;
	lines = json_array();
	draw_wrap_lines(lines, json_string_value(s), PRESENT_WRAP_WIDTH);
	snprintf(k, sizeof(k), "%s_lines", key);
	json_object_set_new(obj, k, lines);
}

/* KEY_lines as set_wrapped(), and for a list item with a hanging indent
 * (a move form, an example) KEY_first_line (the first of them) and
 * KEY_more_lines (the others). */
static void
set_hanging(json_t *obj, const char *key, const json_t *s)
{
	json_t	*lines, *more;
	char	 k[300];
	size_t	 i;

	set_wrapped(obj, key, s);
	snprintf(k, sizeof(k), "%s_lines", key);
	if ((lines = json_object_get(obj, k)) == NULL)
		return;
	more = json_array();
	for (i = 1; i < json_array_size(lines); i++)
		json_array_append(more, json_array_get(lines, i));
	snprintf(k, sizeof(k), "%s_first_line", key);
	json_object_set_new(obj, k, json_string(json_array_size(lines) > 0 ?
	    json_string_value(json_array_get(lines, 0)) : ""));
	snprintf(k, sizeof(k), "%s_more_lines", key);
	json_object_set_new(obj, k, more);
}

/* K from K_en / K_fr, and K_text for arrays of strings; K_lines and
 * K_text_lines, the same wrapped for text templates. */
static void
localise(json_t *obj, const char *code)
{
	json_t		*add, *v, *text;
	const char	*key;
	char		 base[256], k[300];
	size_t		 len;

	add = json_object();
	json_object_foreach(obj, key, v) {
		len = strlen(key);
		if (len < 4 || len - 3 >= sizeof(base) || key[len - 3] != '_' ||
		    strcmp(key + len - 2, code) != 0)
			continue;
		memcpy(base, key, len - 3);
		base[len - 3] = '\0';
		json_object_set(add, base, v);
		if (json_is_string(v)) {
			set_wrapped(add, base, v);
		}
		if (json_is_array(v) && (text = join_strings(v, ", ")) != NULL) {
			snprintf(k, sizeof(k), "%s_text", base);
			set_wrapped(add, k, text);
			json_object_set_new(add, k, text);
		}
	}
	json_object_update(obj, add);
	json_decref(add);
}

/* K_names and K_names_lines for each array K of objects that all have a
 * string "name" (already localised): the names joined with ", ", and the
 * same wrapped -- a list of cards as text ("discard_names_lines"). */
static void
list_names(json_t *obj)
{
	json_t		*add, *v, *item, *names, *text;
	const char	*key;
	char		 k[300];
	size_t		 i;

	add = json_object();
	json_object_foreach(obj, key, v) {
		if (!json_is_array(v) || json_array_size(v) == 0 ||
		    strlen(key) > 200)
			continue;
		names = json_array();
		json_array_foreach(v, i, item)
			json_array_append(names, json_object_get(item, "name"));
		if (json_array_size(names) == json_array_size(v) &&
		    (text = join_strings(names, ", ")) != NULL) {
			snprintf(k, sizeof(k), "%s_names", key);
			set_wrapped(add, k, text);
			json_object_set_new(add, k, text);
		}
		json_decref(names);
	}
	json_object_update_missing(obj, add);
	json_decref(add);
}

/* A lowercase keyword such as "take" or "discard_galaxy"? */
static int
is_keyword(const json_t *v)
{
	const char	*s = json_string_value(v);
	size_t		 i;

	if (s == NULL || *s == '\0' || strlen(s) > 32)
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_' ||
		    (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

/* K_VALUE: true for each keyword field K (or keyword in an array K). */
static void
flag_keywords(json_t *obj)
{
	json_t		*add, *v, *item;
	const char	*key;
	char		 k[300];
	size_t		 i;

	add = json_object();
	json_object_foreach(obj, key, v) {
		if (strlen(key) > 200)
			continue;
		if (is_keyword(v)) {
			snprintf(k, sizeof(k), "%s_%s", key,
			    json_string_value(v));
			json_object_set_new(add, k, json_true());
		}
		json_array_foreach(v, i, item)
			if (is_keyword(item)) {
				snprintf(k, sizeof(k), "%s_%s", key,
				    json_string_value(item));
				json_object_set_new(add, k, json_true());
			}
	}
	json_object_update_missing(obj, add);
	json_decref(add);
}

/* K_padded on every object of an array of objects. */
static void
pad_columns(json_t *arr)
{
	json_t		*keys, *el, *v, *w;
	const char	*key;
	char		*buf, k[300];
	size_t		 i, n, wd;

	keys = json_object();		/* key -> widest value */
	json_array_foreach(arr, i, el) {
		if (!json_is_object(el)) {
			json_decref(keys);
			return;
		}
		json_object_foreach(el, key, v) {
			if (!json_is_string(v) || strlen(key) > 256)
				continue;
			wd = width(json_string_value(v));
			w = json_object_get(keys, key);
			if (w == NULL || (size_t)json_integer_value(w) < wd)
				json_object_set_new(keys, key,
				    json_integer((json_int_t)wd));
		}
	}
	json_array_foreach(arr, i, el) {
		json_object_foreach(keys, key, w) {
			v = json_object_get(el, key);
			if (!json_is_string(v))
				continue;
			wd = width(json_string_value(v));
			n = (size_t)json_integer_value(w) - wd;
			buf = xrealloc(NULL, json_string_length(v) + n + 1, 1);
			memcpy(buf, json_string_value(v), json_string_length(v));
			memset(buf + json_string_length(v), ' ', n);
			buf[json_string_length(v) + n] = '\0';
			snprintf(k, sizeof(k), "%s_padded", key);
			json_object_set_new(el, k, json_string(buf));
			free(buf);
		}
	}
	json_decref(keys);
}

static void
decorate(json_t *v, const char *code)
{
	const char	*key;
	json_t		*child;
	size_t		 i;

	if (json_is_object(v)) {
		json_object_foreach(v, key, child)
			decorate(child, code);
		localise(v, code);
		list_names(v);
		flag_keywords(v);
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, child)
			decorate(child, code);
		if (json_array_size(v) > 0)
			pad_columns(v);
	}
}

static int
in_array(const json_t *a, json_int_t n)
{
	size_t	 i;
	json_t	*v;

	json_array_foreach(a, i, v)
		if (json_is_integer(v) && json_integer_value(v) == n)
			return 1;
	return 0;
}

/* Whether the view's seat is one the "bot" policy holds: its player may
 * still take it back by moving (docs/ASYNC.md). */
static int
held_by_bot(const json_t *v)
{
	const char *status = json_string_value(json_object_get(v,
	    "seat_status"));

	return status != NULL && strcmp(status, "bot") == 0;
}

/* The name of seat n (a made-up bot's as "bot" / "robot"), or NULL when
 * info gives none. */
static const char *
seat_name(const struct present_info *info, json_int_t n)
{
	if (info->seat_names == NULL || n < 0 || n >= info->nseats)
		return NULL;
	return botname_display(info->seat_names[n],
	    info->lang == RULES_LANG_FR);
}

/* The seats of array a as text in info's language: "alice (seat 0),
 * bruno (seat 2)" with names, "seat 0, 2" (numbers only) without; a
 * seat with no name among named ones reads "seat 1". */
static json_t *
seats_text(const json_t *a, const struct present_info *info)
{
	const char	*word, *name;
	json_t		*strs, *v, *out;
	char		 num[SEAT_TEXT_MAX];
	size_t		 i;

	word = info->lang == RULES_LANG_FR ? "siège" : "seat";
	strs = json_array();
	json_array_foreach(a, i, v) {
		name = seat_name(info, json_integer_value(v));
		if (name != NULL)
			snprintf(num, sizeof(num), "%s (%s %" JSON_INTEGER_FORMAT
			    ")", name, word, json_integer_value(v));
		else if (info->seat_names != NULL || i == 0)
			snprintf(num, sizeof(num), "%s %" JSON_INTEGER_FORMAT,
			    word, json_integer_value(v));
		else
			snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
			    json_integer_value(v));
		json_array_append_new(strs, json_string(num));
	}
	out = join_strings(strs, ", ");
	json_decref(strs);
	return out;
}

/* For each integer field "seat" or "K_seat" of every object, at any
 * depth, the seat's name as "player" or "K_player" (null for a seat
 * with no name); nothing when info gives no names. */
static void
name_seats(json_t *v, const struct present_info *info)
{
	json_t		*add, *child;
	const char	*key, *name;
	char		 k[300];
	size_t		 i, len;

	if (json_is_array(v)) {
		json_array_foreach(v, i, child)
			name_seats(child, info);
		return;
	}
	if (!json_is_object(v))
		return;
	add = json_object();
	json_object_foreach(v, key, child) {
		name_seats(child, info);
		len = strlen(key);
		if (!json_is_integer(child) || len > 200 || (strcmp(key,
		    "seat") != 0 && (len < 5 || strcmp(key + len - 5,
		    "_seat") != 0)))
			continue;
		if (info->seat_names == NULL)
			continue;
		name = seat_name(info, json_integer_value(child));
		snprintf(k, sizeof(k), "%.*splayer", (int)(len - 4), key);
		json_object_set_new(add, k, name != NULL ? json_string(name) :
		    json_null());
	}
	json_object_update_missing(v, add);
	json_decref(add);
}

/* The text of moves[pick], translated by m when not NULL (into tr's
 * language, in said).  When scan is not 0 and it is wider than an
 * example line, the first that fits of the scan moves after it, then of
 * the scan before it; NULL when none does (or moves[pick] is not a
 * string). */
static const char *
example_text(const json_t *moves, size_t pick, size_t scan,
    const struct rules_module *m, const struct present_info *tr, int viewer,
    char *said, size_t saidlen)
{
	const char	*text;
	size_t		 k, at;

	/* pick, then the moves after it, then those before it */
	for (k = 0; k <= 2 * scan; k++) {
		at = k <= scan ? pick + k : pick - (k - scan);
		if (at >= json_array_size(moves) || (k > scan && k - scan > pick)
		    || !json_is_string(json_array_get(moves, at)))
			continue;
		text = json_string_value(json_array_get(moves, at));
		if (m != NULL && m->translate(tr->state, viewer, text,
		    tr->lang, said, saidlen) == RULES_OK)
			text = said;
		if (scan == 0 || width(text) <= EXAMPLE_WIDTH)
			return text;
	}
	return NULL;
}

/* Whether an item of list already has text as its "text". */
static int
has_text(const json_t *list, const char *text)
{
	const json_t	*item;
	size_t		 i;

	json_array_foreach(list, i, item)
		if (strcmp(json_string_value(json_object_get(item, "text")),
		    text) == 0)
			return 1;
	return 0;
}

/* [{"text", "sign"}] for each move text, signed by the viewer at the
 * view's next sequence number; tr, when not NULL, translates the texts
 * into its language (examples only: move forms are already in it).  For
 * examples (fits set), each pick prefers a move whose text fits an
 * example line: one of the moves up to the next pick. */
static json_t *
sign_lines(const json_t *view, const json_t *moves, int viewer, size_t max,
    const struct present_info *tr, int fits)
{
	const struct rules_module	*m;
	json_t				*out, *item;
	const char			*text;
	char				*line, said[1024], command[128];
	size_t				 i, n, pick, len, scan;

	/* Examples are translated when the module can (api_version 2). */
	m = tr != NULL && tr->state != NULL ? tr->module : NULL;
	if (m != NULL && (m->api_version < 2 || m->translate == NULL))
		m = NULL;
	out = json_array();
	n = json_array_size(moves);
	for (i = 0; i < n && i < max; i++) {
		/* spread the picks over the list: first, middle, last */
		pick = n <= max ? i : i * (n - 1) / (max - 1);
		scan = fits ? n / max : 0;
		text = example_text(moves, pick, scan < EXAMPLE_SCAN ? scan :
		    EXAMPLE_SCAN, m, tr, viewer, said, sizeof(said));
		if (text == NULL || has_text(out, text))
			continue;	/* none fits, or a nearby pick's */
		snprintf(command, sizeof(command), "pbem sign -g %"
		    JSON_INTEGER_FORMAT " -n %" JSON_INTEGER_FORMAT " -s %d",
		    json_integer_value(json_object_get(view, "game_id")),
		    json_integer_value(json_object_get(view, "next_seq")),
		    viewer);
		len = strlen(command) + strlen(text) + 4;
		line = xrealloc(NULL, len, 1);
		snprintf(line, len, "%s \"%s\"", command, text);
		item = json_pack("{s:s, s:s, s:s}", "text", text, "sign", line,
		    "command", command);
		set_hanging(item, "text", json_object_get(item, "text"));
		json_array_append_new(out, item);
		free(line);
	}
	return out;
}

static void
mark_seats(json_t *v, const struct present_info *info)
{
	json_t		*seats, *s, *to_act;
	json_int_t	 n;
	size_t		 i;

	seats = json_object_get(v, "seats");
	to_act = json_object_get(v, "to_act");
	json_array_foreach(seats, i, s) {
		if (!json_is_object(s) ||
		    !json_is_integer(json_object_get(s, "seat")))
			continue;
		n = json_integer_value(json_object_get(s, "seat"));
		json_object_set_new(s, "you", json_boolean(n == info->viewer));
		json_object_set_new(s, "to_act",
		    json_boolean(in_array(to_act, n)));
	}
}

/* players: [{"seat", "player"}] for each named seat. */
static void
add_players(json_t *v, const struct present_info *info)
{
	json_t	*players;
	int	 s;

	if (info->seat_names == NULL)
		return;
	players = json_array();
	for (s = 0; s < info->nseats; s++)
		if (info->seat_names[s] != NULL)
			json_array_append_new(players, json_pack("{s:i, s:s}",
			    "seat", s, "player", seat_name(info, s)));
	json_object_set_new(v, "players", players);
}

/* K_lines for each string field K of obj (a score breakdown's notes). */
static void
wrap_strings(json_t *obj)
{
	json_t		*add, *v;
	const char	*key;

	if (!json_is_object(obj))
		return;
	add = json_object();
	json_object_foreach(obj, key, v)
		if (json_is_string(v) && strlen(key) < 200)
			set_wrapped(add, key, v);
	json_object_update_missing(obj, add);
	json_decref(add);
}

/* standings and winners_text, from the (already localised) result.  A
 * game ended outside its rules (a resignation, a call-off) has winners
 * but no scores: one row per seat then, with "scored" false. */
static void
add_standings(json_t *v, const struct present_info *info)
{
	const char	*name;
	int		 viewer = info->viewer;
	json_t		*result, *scores, *winners, *hands, *bd, *st, *row;
	size_t		 i, nrows;

	result = json_object_get(v, "result");
	if (!json_is_object(result))
		return;
	scores = json_object_get(result, "scores");
	winners = json_object_get(result, "winners");
	json_object_set_new(v, "scored", json_boolean(json_is_array(scores)));
	if (json_is_array(winners)) {
		json_object_set_new(v, "winners_text",
		    seats_text(winners, info));
		set_wrapped(v, "winners_text",
		    json_object_get(v, "winners_text"));
	}
	nrows = json_is_array(scores) ? json_array_size(scores) :
	    (size_t)(info->nseats > 0 ? info->nseats : 0);
	hands = json_object_get(v, "hands");
	bd = json_object_get(result, "breakdown");
	st = json_array();
	for (i = 0; i < nrows; i++) {
		row = json_pack("{s:i, s:b, s:b, s:b}", "seat", (int)i,
		    "scored", json_is_array(scores),
		    "winner", in_array(winners, (json_int_t)i),
		    "you", (int)i == viewer);
		if (json_is_array(scores))
			json_object_set(row, "score", json_array_get(scores, i));
		if (json_array_get(hands, i) != NULL)
			json_object_set(row, "hand", json_array_get(hands, i));
		if (json_array_get(bd, i) != NULL) {
			wrap_strings(json_array_get(bd, i));
			json_object_set(row, "breakdown", json_array_get(bd, i));
		}
		if ((name = seat_name(info, (json_int_t)i)) != NULL)
			json_object_set_new(row, "player", json_string(name));
		json_array_append_new(st, row);
	}
	json_object_set_new(v, "standings", st);
}

/* Each of the view's deadlines (engine_view_deadlines()) in words and
 * ISO 8601 in the reader's language and zone ("text", "iso"), "you" on
 * the reader's own; "late_text": the late seats, if any; "paused_text":
 * since when the game is paused, if it is. */
static void
add_deadlines(json_t *v, const struct present_info *info)
{
	json_t *list = json_object_get(v, "deadlines"), *d, *late;
	const char *lang = present_lang_code(info->lang);
	char words[160], iso[64];
	int64_t t;
	size_t i;

	t = clock_parse_iso(json_string_value(json_object_get(v,
	    "paused_since")));
	if (t >= 0) {
		timetext_words(t, lang, info->zone, words, sizeof(words));
		json_object_set_new(v, "paused_text", json_string(words));
	}
	if (!json_is_array(list))
		return;
	late = json_array();
	json_array_foreach(list, i, d) {
		t = clock_parse_iso(json_string_value(json_object_get(d,
		    "deadline")));
		if (t < 0)
			continue;
		timetext_words(t, lang, info->zone, words, sizeof(words));
		timetext_iso(t, info->zone, iso, sizeof(iso));
		json_object_set_new(d, "text", json_string(words));
		json_object_set_new(d, "iso", json_string(iso));
		json_object_set_new(d, "you", json_boolean(
		    json_integer_value(json_object_get(d, "seat")) ==
		    info->viewer));
		if (json_is_true(json_object_get(d, "late")))
			json_array_append(late, json_object_get(d, "seat"));
	}
	if (json_array_size(late) > 0)
		json_object_set_new(v, "late_text", seats_text(late, info));
	json_decref(late);
}

json_t *
present_view(const json_t *view, const struct present_info *info)
{
	const struct rules_module	*m = info->module;
	json_t				*v, *to_act, *empty, *examples;
	int				 fr = info->lang == RULES_LANG_FR;

	v = json_deep_copy(view);
	if (v == NULL)
		abort();
	name_seats(v, info);
	decorate(v, present_lang_code(info->lang));
	json_object_set_new(v, "lang",
	    json_string(present_lang_code(info->lang)));
	if (m != NULL) {
		json_object_set_new(v, "title",
		    json_string(fr ? m->title_fr : m->title_en));
		json_object_set_new(v, "summary",
		    json_string(fr ? m->summary_fr : m->summary_en));
		set_wrapped(v, "summary", json_object_get(v, "summary"));
	}
	to_act = json_object_get(v, "to_act");
	json_object_set_new(v, "spectator", json_boolean(info->viewer < 0));
	if (info->hosted)
		json_object_set_new(v, "hosted", json_true());
	/* A resigned or absent seat plays no more (gamestate_seat_acts()). */
	json_object_set_new(v, "your_turn", json_boolean(info->viewer >= 0 &&
	    in_array(to_act, info->viewer) &&
	    (json_object_get(v, "seat_status") == NULL || held_by_bot(v))));
	json_object_set_new(v, "waiting_for", seats_text(to_act, info));
	set_wrapped(v, "waiting_for", json_object_get(v, "waiting_for"));
	mark_seats(v, info);
	add_players(v, info);
	empty = json_array();
	json_object_set_new(v, "forms", sign_lines(v, info->forms != NULL ?
	    info->forms : empty, info->viewer, 16, NULL, 0));
	examples = sign_lines(v, info->legal != NULL ? info->legal : empty,
	    info->viewer, 3, info, 1);
	/* What the examples' heading says: answer the mail, or sign. */
	if (json_array_size(examples) > 0)
		json_object_set_new(v, info->hosted ? "plain_examples" :
		    "sign_examples", json_true());
	json_object_set_new(v, "examples", examples);
	json_decref(empty);
	if (info->move != NULL)
		json_object_set_new(v, "move", json_string(info->move));
	if (info->move != NULL && info->move_is_command)
		json_object_set_new(v, "command", json_true());
	if (info->move != NULL)
		set_wrapped(v, "move", json_object_get(v, "move"));
	if (info->reason != NULL) {
		json_object_set_new(v, "reason", json_string(info->reason));
		set_wrapped(v, "reason", json_object_get(v, "reason"));
	}
	add_standings(v, info);
	add_deadlines(v, info);
	return v;
}
