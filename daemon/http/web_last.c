/*
 * web_last.c -- the "Last moves" of the web pages (web_last.h;
 * docs/WEB.md).
 */
#include <stdlib.h>
#include <string.h>

#include "web_last.h"

/* Entries of the log looked at for the last moves, and moves shown. */
#define WEB_LAST_SCAN	12
#define WEB_LAST_MOVES	6

/*
 * A move text of seat as a page in lang shows it: rules_move_label()
 * with the present state -- the module's move_label() (api_version 11),
 * which names the cards by their names, else its translate() on a page
 * not in English.  The text the log holds is the one the player sent
 * (the legal move's English text from the page, or what a mail said).
 * When the module can do neither (a text the present state no longer
 * reads, such as a card named by a hand it has left), the text as it
 * is: legal_moves() writes English, and translate() may spell a default
 * out ("extend" becomes "extend keep").
 */
const char *
web_text_in_lang(const struct gamestate *gs, int seat, const char *text,
    enum rules_lang lang, char *out, size_t outlen)
{
	return rules_move_label(gs->module, gs->state, seat, text, lang, out,
	    outlen);
}

/* Another seat's move e as the log's one-line summary says it
 * (summary.c: worded from the public view, so no hidden card), in lang,
 * without its " — X to play, move N" tail, which was news only then:
 * {"summary"}.  name is the mover's, for the plain line of an entry
 * whose state cannot be rebuilt. */
static void
add_summary(struct store *st, const struct store_entry *e, const char *name,
    enum rules_lang lang, json_t *m)
{
	static const char dash[] = " \xe2\x80\x94 ";	/* " — " */
	struct engine_summary sum;
	char *line, *cut, *next;

	engine_summary_of(st, e, name, &sum);
	line = lang == RULES_LANG_FR ? sum.fr : sum.en;
	for (cut = NULL, next = line; (next = strstr(next, dash)) != NULL;
	    next += strlen(dash))
		cut = next;
	if (cut != NULL)
		*cut = '\0';
	if (*line != '\0')
		json_object_set_new(m, "summary", json_string(line));
}

/*
 * The last moves, newest first: [{"seq", "name", "text"?, "summary"?}].
 * Every seat sees who moved and the public summary of what they did; the
 * text only of the viewer's own moves, and of all once the game is
 * over -- as the public log, which withholds move texts until the end (docs/LOG.md) -- in the reader's language.  NULL if
 * there is none.
 */
json_t *
web_last_moves(struct store *st, const struct gamestate *gs, int viewer,
    const char *const *names, int over, enum rules_lang lang)
{
	char said[PROTO_MOVE_MAX + 1];
	struct store_entry e;
	json_t *out = json_array(), *m;
	int64_t seq;

	for (seq = gs->seq; seq > 0 && seq > gs->seq - WEB_LAST_SCAN &&
	    json_array_size(out) < WEB_LAST_MOVES; seq--) {
		memset(&e, 0, sizeof(e));
		if (store_log_get(st, gs->game.id, seq, &e) != STORE_OK)
			break;
		if ((e.kind == STORE_ENTRY_MOVE || e.kind == STORE_ENTRY_AUTO ||
		    e.kind == STORE_ENTRY_BOT || e.kind == STORE_ENTRY_DELEGATED ||
		    e.kind == STORE_ENTRY_HOSTED_MAIL ||
		    e.kind == STORE_ENTRY_HOSTED_WEB) && e.seat >= 0 &&
		    e.seat < gs->game.nseats) {
			m = json_pack("{s:I, s:s}", "seq", (json_int_t)seq,
			    "name", names[e.seat]);
			if ((over || e.seat == viewer) && e.text != NULL)
				json_object_set_new(m, "text",
				    json_string(web_text_in_lang(gs, e.seat,
				    e.text, lang, said, sizeof(said))));
			else
				add_summary(st, &e, names[e.seat], lang, m);
			json_array_append_new(out, m);
		}
		store_entry_clear(&e);
	}
	if (json_array_size(out) == 0) {
		json_decref(out);
		return NULL;
	}
	return out;
}

void
web_add_last_moves(json_t *data, json_t *moves)
{
	if (moves == NULL)
		return;
	json_object_set_new(data, "last_moves", moves);
	json_object_set_new(data, "has_last", json_true());
}
