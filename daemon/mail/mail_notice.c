/*
 * mail_notice.c -- the notices of asynchronous play: an outbox row of
 * event game_started, reminder, deadline, late, seat_offered, auto_move,
 * skipped, resigned, seat_taken, call_off_vote, press, vacation,
 * clock_changed, observer_* or master_notice -> its mail (mail.h; docs/MAIL.md, docs/ASYNC.md).
 *
 * Each notice is templates/LANG/mail/EVENT.txt.mustache.  It is given
 *   game_id, title, seq, next_seq, lang, and for a seat's row seat and
 *   player (the recipient's own seat and name);
 *   the few fields of its event (notice_kinds[] below says which);
 *   view: the recipient's own view of the game after entry seq, rendered
 *   by the game's template -- a seat's your_turn, waiting or game_over,
 *   an observer's spectator (the public view).
 * Nothing else about the game reaches a template, so a notice shows no
 * more than the view it carries.  A press mail carries no view: only the
 * sender's seat and name and the message as the press table holds it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "mail.h"
#include "templates.h"
#include "timetext.h"

struct notice {
	struct store			*st;
	const struct tpl_set		*tpl;
	const struct mail_settings	*set;
	const json_t			*pl;
	const char			*event;
	struct gamestate		 gs;
	int				 viewer;  /* seat, or RULES_VIEW_PUBLIC */
	const char			*lang;
	char				 zone[TIMETEXT_ZONE_MAX]; /* the
						   * reader's time zone */
	json_t				*data;	  /* the template's fields */
	char				*err;
	size_t				 errlen;
};

static int fill_deadline(struct notice *);
static int fill_entry(struct notice *);
static int fill_vote(struct notice *);
static int fill_press(struct notice *);
static int fill_vacation(struct notice *);
static int fill_observer(struct notice *);
static int fill_master(struct notice *);
static int fill_clock(struct notice *);
static int fill_nothing(struct notice *);

static int failed(struct notice *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static const struct notice_kind {
	const char	*event;
	int		 observer;	/* an observer's row: public view */
	int		 with_view;	/* `view' holds the recipient's view */
	int		 (*fill)(struct notice *);
} notice_kinds[] = {
	{ "game_started",		0, 1, fill_nothing },
	{ "reminder",			0, 1, fill_deadline },
	{ "deadline",			0, 1, fill_deadline },
	{ "late",			0, 1, fill_deadline },
	{ "seat_offered",		0, 1, fill_deadline },
	{ "auto_move",			0, 1, fill_entry },
	{ "skipped",			0, 1, fill_entry },
	{ "resigned",			0, 1, fill_entry },
	{ "seat_taken",			0, 1, fill_entry },
	{ "call_off_vote",		0, 0, fill_vote },
	{ "press",			0, 0, fill_press },
	{ "vacation",			0, 0, fill_vacation },
	{ "observer_update",		1, 1, fill_observer },
	{ "observer_game_over",		1, 1, fill_observer },
	{ "observer_seat_offered",	1, 1, fill_observer },
	{ "master_notice",		1, 1, fill_master },
	{ "clock_changed",		0, 1, fill_clock },
	{ NULL,				0, 0, NULL }
};

static int
failed(struct notice *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(n->err, n->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- Readable times ----------------------------------------------------- */

void
mail_notice_time(int64_t t, const char *lang, char *buf, size_t len)
{
	timetext_words(t, lang, NULL, buf, len);
}

void
mail_notice_duration(int64_t secs, const char *lang, char *buf, size_t len)
{
	static const struct { int64_t unit; const char *en, *fr; } units[] = {
		{ 86400, "day", "jour" }, { 3600, "hour", "heure" },
		{ 60, "minute", "minute" }, { 1, "second", "seconde" }
	};
	size_t used = 0, i;
	int64_t count;

	buf[0] = '\0';
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if ((count = secs / units[i].unit) == 0)
			continue;
		secs -= count * units[i].unit;
		used += (size_t)snprintf(buf + used, used < len ? len - used :
		    0, "%s%lld %s%s", used > 0 ? " " : "", (long long)count,
		    strcmp(lang, "fr") == 0 ? units[i].fr : units[i].en,
		    count > 1 ? "s" : "");
		if (used >= len)
			return;
	}
	if (used == 0)
		snprintf(buf, len, "0");
}

/* ---- Fields ------------------------------------------------------------- */

static void
set_string(json_t *data, const char *key, const char *value)
{
	json_object_set_new(data, key, json_string(value));
}

static void
set_time(struct notice *n, const char *key, int64_t t)
{
	char buf[128];

	timetext_words(t, n->lang, n->zone, buf, sizeof(buf));
	set_string(n->data, key, buf);
}

/* The moment t as KEY_text (in words) and KEY_iso (ISO 8601), both in
 * the reader's zone. */
static void
set_time_iso(struct notice *n, const char *key, int64_t t)
{
	char name[32], iso[64];

	snprintf(name, sizeof(name), "%s_text", key);
	set_time(n, name, t);
	timetext_iso(t, n->zone, iso, sizeof(iso));
	snprintf(name, sizeof(name), "%s_iso", key);
	set_string(n->data, name, iso);
}

/* The name of seat's player now, "?" if the store has none. */
static void
set_player(struct notice *n, const char *key, int seat)
{
	struct store_player p;

	if (seat < 0 || seat >= n->gs.game.nseats || store_player_get(n->st,
	    n->gs.game.seat_player[seat], &p) != STORE_OK)
		snprintf(p.name, sizeof(p.name), "?");
	set_string(n->data, key, p.name);
}

/* The game's policy outcome for a missed deadline, as booleans. */
static int
set_policy(struct notice *n, int window)
{
	struct policy pol;
	char dur[128];

	if (engine_policy_get(n->st, n->gs.game.id, &pol, n->err, n->errlen) !=
	    ENGINE_OK)
		return -1;
	if (window) {
		/* A response window always closes: the default answer. */
		json_object_set_new(n->data, "window", json_true());
		json_object_set_new(n->data, "missed_default", json_true());
		return 0;
	}
	json_object_set_new(n->data, pol.missed == POLICY_MISSED_WAIT ?
	    "missed_wait" : pol.missed == POLICY_MISSED_SKIP ? "missed_skip" :
	    pol.missed == POLICY_MISSED_DEFAULT ? "missed_default" :
	    pol.missed == POLICY_MISSED_BOT ? "missed_bot" : "missed_absent",
	    json_true());
	if (pol.grace > 0) {
		mail_notice_duration(pol.grace, n->lang, dur, sizeof(dur));
		set_string(n->data, "grace_text", dur);
	}
	return 0;
}

/* reminder, deadline, late, seat_offered: the scheduler's rows (with
 * `forced', set for every notice whose row says so). */
static int
fill_deadline(struct notice *n)
{
	const json_t *dl = json_object_get(n->pl, "deadline");
	const json_t *late = json_object_get(n->pl, "late_seat");
	int late_seat;

	if (!json_is_integer(dl) || !json_is_integer(late))
		return failed(n, "a %s row names no deadline and seat",
		    n->event);
	late_seat = (int)json_integer_value(late);
	/* deadline: the payload's time is the end of the grace period. */
	set_time(n, strcmp(n->event, "deadline") == 0 ? "grace_end_text" :
	    "deadline_text", json_integer_value(dl));
	json_object_set_new(n->data, "late_seat", json_integer(late_seat));
	set_player(n, "late_player", late_seat);
	json_object_set_new(n->data, "you", json_boolean(late_seat ==
	    n->viewer));
	if (n->set->admin[0] != '\0')
		set_string(n->data, "admin", n->set->admin);
	return set_policy(n, json_is_true(json_object_get(n->pl, "window")));
}

/* The record of a server entry (RESIGN, REPLACE, CALL_OFF), or NULL. */
static json_t *
entry_record(const struct store_entry *e)
{
	json_t *r;

	if (e->kind == STORE_ENTRY_AUTO || e->kind == STORE_ENTRY_BOT ||
	    e->kind == STORE_ENTRY_MOVE || e->kind == STORE_ENTRY_HOSTED_MAIL ||
	    e->kind == STORE_ENTRY_HOSTED_WEB ||
	    e->kind == STORE_ENTRY_DELEGATED)
		return NULL;
	r = json_loads(e->text, 0, NULL);
	if (r != NULL && !json_is_object(r)) {
		json_decref(r);
		r = NULL;
	}
	return r;
}

/* Seats of a JSON array in words, in lang: "seat 1", "seats 0 and 2",
 * "seats 0, 1 and 3" ("siège 1", "sièges 0 et 2"); and KEY_one. */
static void
set_seats_text(json_t *data, const char *key, const json_t *seats,
    const char *lang)
{
	char buf[160];
	size_t used, i, n = json_array_size(seats);
	int fr = strcmp(lang, "fr") == 0;

	used = (size_t)snprintf(buf, sizeof(buf), "%s", n > 1 ? (fr ?
	    "sièges " : "seats ") : (fr ? "siège " : "seat "));
	for (i = 0; i < n && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
		    "%s%lld", i == 0 ? "" : i + 1 < n ? ", " : fr ? " et " :
		    " and ", (long long)json_integer_value(
		    json_array_get(seats, i)));
	set_string(data, key, buf);
	/* key_one: a single seat (French: "au siège 1", "aux sièges"). */
	snprintf(buf, sizeof(buf), "%s_one", key);
	json_object_set_new(data, buf, json_boolean(n == 1));
}

/*
 * What entry e did, into data: kind_auto, kind_skip, kind_resign,
 * kind_replace or kind_call_off; its seat and player; you when it is
 * viewer's; forced when it is the outcome of a "gm force" before the
 * seat's deadline (forced: the row says so; a skip's record says it too).
 * An automatic move's text goes only to its own seat (it was the seat's
 * move; another seat learns what the module's view shows).
 */
static void
describe_entry(struct notice *n, const struct store_entry *e, int forced,
    json_t *data)
{
	json_t *rec = entry_record(e);
	struct store_seat row;
	const char *s;
	int same_player;

	json_object_set_new(data, e->kind == STORE_ENTRY_AUTO ||
	    e->kind == STORE_ENTRY_BOT ? "kind_auto" :
	    e->kind == STORE_ENTRY_SKIP ? "kind_skip" :
	    e->kind == STORE_ENTRY_RESIGN ? "kind_resign" :
	    e->kind == STORE_ENTRY_REPLACE ? "kind_replace" : "kind_call_off",
	    json_true());
	json_object_set_new(data, "entry_seat", json_integer(e->seat));
	json_object_set_new(data, "you", json_boolean(e->seat >= 0 &&
	    e->seat == n->viewer));
	if (forced || (e->kind == STORE_ENTRY_SKIP && rec != NULL &&
	    (s = json_string_value(json_object_get(rec, "reason"))) != NULL &&
	    strcmp(s, "forced") == 0))
		json_object_set_new(data, "forced", json_true());
	if ((e->kind == STORE_ENTRY_AUTO || e->kind == STORE_ENTRY_BOT) &&
	    e->seat == n->viewer)
		set_string(data, "move", e->text);
	if (e->kind == STORE_ENTRY_AUTO && store_seat_get(n->st,
	    n->gs.game.id, e->seat, &row) == STORE_OK &&
	    row.status == STORE_SEAT_RESIGNED)
		json_object_set_new(data, "resigned_seat", json_true());
	if (rec != NULL && (s = json_string_value(json_object_get(rec,
	    "player"))) != NULL)
		set_string(data, "entry_player", s);
	else {
		json_t *saved = n->data;

		n->data = data;
		set_player(n, "entry_player", e->seat);
		n->data = saved;
	}
	if (rec != NULL) {
		same_player = (s = json_string_value(json_object_get(rec,
		    "previous_player"))) != NULL && json_string_value(
		    json_object_get(rec, "player")) != NULL && strcmp(s,
		    json_string_value(json_object_get(rec, "player"))) == 0;
		/* The same player again: a new key, or the seat given back. */
		if (same_player && json_equal(json_object_get(rec, "key"),
		    json_object_get(rec, "previous_key")))
			json_object_set_new(data, "same_player", json_true());
		else if (same_player)
			json_object_set_new(data, "new_key", json_true());
		else if (s != NULL)
			set_string(data, "previous_player", s);
		if ((s = json_string_value(json_object_get(rec, "by"))) !=
		    NULL && strcmp(s, "administrator") == 0)
			json_object_set_new(data, "by_admin", json_true());
		if (json_is_array(json_object_get(rec, "seats")))
			set_seats_text(data, "voters_text",
			    json_object_get(rec, "seats"), n->lang);
	}
	json_decref(rec);
}

/* Load entry gs->seq; 1 if the server wrote it, 0 if not, -1. */
static int
server_entry(struct store *st, const struct gamestate *gs,
    struct store_entry *e, char *err, size_t errlen)
{
	memset(e, 0, sizeof(*e));
	if (store_log_get(st, gs->game.id, gs->seq, e) != STORE_OK) {
		snprintf(err, errlen, "game %lld has no entry %lld: %s",
		    (long long)gs->game.id, (long long)gs->seq,
		    store_errmsg(st));
		store_entry_clear(e);
		return -1;
	}
	if (e->kind == STORE_ENTRY_AUTO || e->kind == STORE_ENTRY_BOT ||
	    e->kind == STORE_ENTRY_SKIP || e->kind == STORE_ENTRY_RESIGN ||
	    e->kind == STORE_ENTRY_REPLACE || e->kind == STORE_ENTRY_CALL_OFF)
		return 1;
	store_entry_clear(e);
	return 0;
}

/* auto_move, skipped, resigned, seat_taken: the entry at
 * seq is the server's, about the recipient's seat (or the whole game). */
static int
fill_entry(struct notice *n)
{
	struct store_entry e;
	int rc;

	if ((rc = server_entry(n->st, &n->gs, &e, n->err, n->errlen)) <= 0)
		return rc < 0 ? -1 : failed(n, "entry of a %s row is not the "
		    "server's", n->event);
	describe_entry(n, &e, json_is_true(json_object_get(n->pl, "forced")),
	    n->data);
	store_entry_clear(&e);
	return 0;
}

/* call_off_vote: who proposes, and the recipient's next command number. */
static int
fill_vote(struct notice *n)
{
	const json_t *voter = json_object_get(n->pl, "voter");
	json_t *tally;
	struct store_seat row;

	if (!json_is_integer(voter))
		return failed(n, "a %s row names no voter", n->event);
	json_object_set_new(n->data, "voter", json_integer(
	    json_integer_value(voter)));
	set_player(n, "voter_player", (int)json_integer_value(voter));
	json_object_set_new(n->data, "withdrawn", json_boolean(json_is_true(
	    json_object_get(n->pl, "withdrawn"))));
	/* Rows queued before the tally was recorded have none: "?". */
	tally = json_object_get(n->pl, "votes");
	json_object_set_new(n->data, "votes", json_is_integer(tally) ?
	    json_incref(tally) : json_string("?"));
	tally = json_object_get(n->pl, "needed");
	json_object_set_new(n->data, "needed", json_is_integer(tally) ?
	    json_incref(tally) : json_string("?"));
	if (store_seat_get(n->st, n->gs.game.id, n->viewer, &row) != STORE_OK)
		return failed(n, "store: %s", store_errmsg(n->st));
	json_object_set_new(n->data, "command_next", json_integer(
	    row.command_seq + 1));
	return 0;
}

struct press_find {
	int64_t			 id;
	struct store_press	 found;
	char			*body;
};

static int
press_find(const struct store_press *p, void *arg)
{
	struct press_find *f = arg;

	if (p->id != f->id)
		return 0;
	f->found = *p;
	f->body = strdup(p->body != NULL ? p->body : "");
	return 1;
}

/* press: the message as recorded, to a seat it was sent to. */
static int
fill_press(struct notice *n)
{
	struct press_find f;
	struct store_seat row;
	json_t *to;
	int s, all = 1;

	memset(&f, 0, sizeof(f));
	f.id = json_integer_value(json_object_get(n->pl, "press"));
	if (f.id <= 0 || store_press_foreach(n->st, n->gs.game.id, press_find,
	    &f) != STORE_OK || f.body == NULL) {
		free(f.body);
		return failed(n, "press row: game %lld has no message %lld",
		    (long long)n->gs.game.id, (long long)f.id);
	}
	if (!(f.found.recipients & (1u << n->viewer))) {
		free(f.body);
		return failed(n, "press row: message %lld was not sent to "
		    "seat %d", (long long)f.id, n->viewer);
	}
	to = json_array();
	for (s = 0; s < n->gs.game.nseats; s++) {
		if (f.found.recipients & (1u << s))
			json_array_append_new(to, json_integer(s));
		else if (s != f.found.from_seat)
			all = 0;
	}
	json_object_set_new(n->data, "from_seat", json_integer(
	    f.found.from_seat));
	set_player(n, "from_player", f.found.from_seat);
	set_seats_text(n->data, "to_text", to, n->lang);
	json_decref(to);
	json_object_set_new(n->data, "to_all", json_boolean(all));
	set_time(n, "sent_text", f.found.created);
	set_string(n->data, "text", f.body);
	free(f.body);
	if (store_seat_get(n->st, n->gs.game.id, n->viewer, &row) != STORE_OK)
		return failed(n, "store: %s", store_errmsg(n->st));
	json_object_set_new(n->data, "command_next", json_integer(
	    row.command_seq + 1));
	return 0;
}

/* vacation: whose, from when until when, or cancelled; for the seat
 * away itself, how to cancel it (its next command number). */
static int
fill_vacation(struct notice *n)
{
	const json_t *away = json_object_get(n->pl, "away_seat");
	const json_t *from = json_object_get(n->pl, "from");
	const json_t *until = json_object_get(n->pl, "until");
	struct store_seat row;

	if (!json_is_integer(away) || !json_is_integer(from) ||
	    !json_is_integer(until))
		return failed(n, "a %s row names no seat and period", n->event);
	json_object_set_new(n->data, "away_seat", json_integer(
	    json_integer_value(away)));
	set_player(n, "away_player", (int)json_integer_value(away));
	json_object_set_new(n->data, "you", json_boolean(
	    json_integer_value(away) == n->viewer));
	json_object_set_new(n->data, "cancelled", json_boolean(json_is_true(
	    json_object_get(n->pl, "cancelled"))));
	set_time(n, "from_text", json_integer_value(from));
	set_time(n, "until_text", json_integer_value(until));
	if (store_seat_get(n->st, n->gs.game.id, n->viewer, &row) != STORE_OK)
		return failed(n, "store: %s", store_errmsg(n->st));
	json_object_set_new(n->data, "command_next", json_integer(
	    row.command_seq + 1));
	return 0;
}

/* observer_*: what a server entry did; for an offered seat, which. */
static int
fill_observer(struct notice *n)
{
	struct mustache_buf note;
	struct store_seat row;
	json_t *offered;
	int s;

	mustache_buf_init(&note);
	if (mail_notice_entry_note(n->st, n->tpl, &n->gs, n->viewer, n->lang,
	    json_is_true(json_object_get(n->pl, "forced")), &note, n->err,
	    n->errlen) != 0) {
		mustache_buf_free(&note);
		return -1;
	}
	if (note.data != NULL)
		set_string(n->data, "note", note.data);
	mustache_buf_free(&note);
	if (strcmp(n->event, "observer_seat_offered") != 0)
		return 0;
	offered = json_array();
	for (s = 0; s < n->gs.game.nseats; s++) {
		if (store_seat_get(n->st, n->gs.game.id, s, &row) != STORE_OK ||
		    row.status != STORE_SEAT_ABSENT)
			continue;
		json_array_append_new(offered, json_integer(s));
	}
	set_seats_text(n->data, "offered_text", offered, n->lang);
	json_decref(offered);
	if (n->set->admin[0] != '\0')
		set_string(n->data, "admin", n->set->admin);
	return 0;
}

/* master_notice: what the master hears of (mastermail.c): what_WHAT,
 * and for a missed deadline the seat and the deadline, for an answer
 * the command and what it did; for a server entry, what it did. */
static int
fill_master(struct notice *n)
{
	static const char *const whats[] = { "named", "game_started", "late",
	    "auto_move", "seat_offered", "game_over", "answer", "clock" };
	const char *what = json_string_value(json_object_get(n->pl, "what"));
	const json_t *late = json_object_get(n->pl, "late_seat");
	const json_t *dl = json_object_get(n->pl, "deadline");
	char key[32];
	size_t i;

	for (i = 0; what != NULL && i < sizeof(whats) / sizeof(whats[0]); i++)
		if (strcmp(what, whats[i]) == 0)
			break;
	if (what == NULL || i == sizeof(whats) / sizeof(whats[0]))
		return failed(n, "a master_notice row says no known \"what\"");
	snprintf(key, sizeof(key), "what_%s", what);
	json_object_set_new(n->data, key, json_true());
	if (strcmp(what, "clock") == 0)
		return fill_clock(n);	/* what the administrator did */
	if (json_is_integer(late)) {
		json_object_set_new(n->data, "late_seat", json_integer(
		    json_integer_value(late)));
		set_player(n, "late_player", (int)json_integer_value(late));
	}
	if (json_is_integer(dl))
		set_time(n, "deadline_text", json_integer_value(dl));
	if (json_is_string(json_object_get(n->pl, "command")))
		set_string(n->data, "command", json_string_value(
		    json_object_get(n->pl, "command")));
	if (json_is_string(json_object_get(n->pl, "answer")))
		set_string(n->data, "answer", json_string_value(
		    json_object_get(n->pl, "answer")));
	if (strcmp(what, "auto_move") == 0 || strcmp(what, "game_over") == 0)
		return fill_observer(n);	/* the entry's note */
	return 0;
}

/* clock_changed, and a master_notice "clock": what the master or the
 * administrator did to the game's clock or policy (action: extended,
 * resumed, paused, policy; rows queued before "action" say "what"), the
 * first seat to act and its deadline (in words and ISO 8601, in the
 * reader's zone), since when a paused game stands, the policy's change. */
static int
fill_clock(struct notice *n)
{
	static const char *const actions[] = { "extended", "resumed",
	    "paused", "policy" };
	const json_t *dl = json_object_get(n->pl, "deadline");
	const json_t *late = json_object_get(n->pl, "late_seat");
	const json_t *ext = json_object_get(n->pl, "extension");
	const json_t *since = json_object_get(n->pl, "since");
	const json_t *change = json_object_get(n->pl, "change");
	const json_t *changed = json_object_get(n->pl, "changed");
	const char *action = json_string_value(json_object_get(n->pl,
	    "action"));
	char buf[128], words[2048];
	size_t i;

	if (action == NULL && strcmp(n->event, "clock_changed") == 0)
		action = json_string_value(json_object_get(n->pl, "what"));
	for (i = 0; action != NULL && i < sizeof(actions) /
	    sizeof(actions[0]); i++)
		if (strcmp(action, actions[i]) == 0)
			break;
	if (!json_is_integer(dl) || !json_is_integer(late) || action == NULL ||
	    i == sizeof(actions) / sizeof(actions[0]))
		return failed(n, "a %s row names no known change, deadline and "
		    "seat", n->event);
	json_object_set_new(n->data, action, json_true());
	json_object_set_new(n->data, "by_master", json_boolean(json_is_true(
	    json_object_get(n->pl, "by_master"))));
	json_object_set_new(n->data, "still_paused", json_boolean(
	    json_is_true(json_object_get(n->pl, "paused"))));
	if (json_is_integer(ext) && json_integer_value(ext) > 0) {
		mail_notice_duration(json_integer_value(ext), n->lang, buf,
		    sizeof(buf));
		set_string(n->data, "extension_text", buf);
	}
	if (json_is_integer(since))
		set_time_iso(n, "since", json_integer_value(since));
	/* The new values in words; a row queued before they were kept
	 * says the change as the master wrote it. */
	if (json_object_size(changed) > 0) {
		mail_policy_change_words(changed, n->lang, words,
		    sizeof(words));
		set_string(n->data, "change", words);
	} else if (json_is_string(change))
		set_string(n->data, "change", json_string_value(change));
	if (json_integer_value(dl) > 0)
		set_time_iso(n, "deadline", json_integer_value(dl));
	json_object_set_new(n->data, "late_seat", json_integer(
	    json_integer_value(late)));
	set_player(n, "late_player", (int)json_integer_value(late));
	json_object_set_new(n->data, "you", json_boolean(
	    json_integer_value(late) == n->viewer));
	return 0;
}

static int
fill_nothing(struct notice *n)
{
	(void)n;
	return 0;
}

/* ---- The notices -------------------------------------------------------- */

int
mail_notice_entry_note(struct store *st, const struct tpl_set *tpl,
    const struct gamestate *gs, int viewer, const char *lang, int forced,
    struct mustache_buf *out, char *err, size_t errlen)
{
	struct notice n;
	struct store_entry e;
	int rc;

	if ((rc = server_entry(st, gs, &e, err, errlen)) <= 0)
		return rc;
	memset(&n, 0, sizeof(n));
	n.st = st;
	n.gs = *gs;		/* read only: not cleared here */
	n.viewer = viewer;
	n.lang = lang;
	n.err = err;
	n.errlen = errlen;
	n.data = json_object();
	describe_entry(&n, &e, forced, n.data);
	store_entry_clear(&e);
	rc = templates_render(tpl, lang, "mail", "entry", TPL_TEXT, n.data,
	    out, err, errlen);
	json_decref(n.data);
	return rc;
}

static const struct notice_kind *
kind_of(const char *event)
{
	const struct notice_kind *k;

	for (k = notice_kinds; k->event != NULL; k++)
		if (strcmp(k->event, event) == 0)
			return k;
	return NULL;
}

/* Game, seq and recipient (seat and language) of the row, into n. */
static enum mail_render_status
open_notice(struct notice *n, const struct notice_kind *k,
    const struct store_outbox *o)
{
	struct store_player p;
	enum mail_render_status rs;
	const char *lang = NULL, *zone;

	if (k->observer) {
		lang = json_string_value(json_object_get(n->pl, "lang"));
		if (!json_is_string(json_object_get(n->pl, "viewer")) ||
		    strcmp(json_string_value(json_object_get(n->pl, "viewer")),
		    "public") != 0) {
			snprintf(n->err, n->errlen, "outbox row %lld (%s): an "
			    "observer's row must name the public viewer",
			    (long long)o->id, n->event);
			return MAIL_RENDER_FAIL;
		}
	}
	if ((rs = mail_row_open(n->st, o, n->pl, !k->observer, &n->gs,
	    &n->viewer, &p, n->err, n->errlen)) != MAIL_RENDER_OK)
		return rs;
	if (k->observer) {
		n->viewer = RULES_VIEW_PUBLIC;
		n->lang = lang != NULL && strcmp(lang, "fr") == 0 ? "fr" : "en";
		/* A master's row records the master's time zone. */
		zone = json_string_value(json_object_get(n->pl, "zone"));
		if (zone != NULL && timetext_zone_known(zone))
			snprintf(n->zone, sizeof(n->zone), "%s", zone);
		return MAIL_RENDER_OK;
	}
	n->lang = strcmp(p.lang, "fr") == 0 ? "fr" : "en";
	snprintf(n->zone, sizeof(n->zone), "%s", p.tz);
	json_object_set_new(n->data, "seat", json_integer(n->viewer));
	set_string(n->data, "player", p.name);
	return MAIL_RENDER_OK;
}

enum mail_render_status
mail_notice_render(struct store *st, const struct tpl_set *tpl,
    const struct mail_settings *s, const struct store_outbox *o,
    const json_t *payload, const char *event, struct mail_out *out,
    char *err, size_t errlen)
{
	const struct notice_kind *k = kind_of(event);
	struct notice n;
	struct mustache_buf view, buf;
	enum mail_render_status rs;
	const char *title;

	if (k == NULL) {
		snprintf(err, errlen, "outbox row %lld: no notice for event "
		    "\"%s\"", (long long)o->id, event);
		return MAIL_RENDER_FAIL;
	}
	memset(&n, 0, sizeof(n));
	n.st = st;
	n.tpl = tpl;
	n.set = s;
	n.pl = payload;
	n.event = event;
	n.err = err;
	n.errlen = errlen;
	n.data = json_object();
	if ((rs = open_notice(&n, k, o)) != MAIL_RENDER_OK) {
		json_decref(n.data);
		return rs;
	}
	title = n.lang[0] == 'f' ? n.gs.module->title_fr :
	    n.gs.module->title_en;
	json_object_set_new(n.data, "game_id", json_integer(n.gs.game.id));
	json_object_set_new(n.data, "seq", json_integer(n.gs.seq));
	json_object_set_new(n.data, "next_seq", json_integer(n.gs.seq + 1));
	set_string(n.data, "title", title);
	set_string(n.data, "lang", n.lang);
	/* The outcome of a "gm force" before the deadline: nothing was
	 * missed, and the templates say what happened instead. */
	if (json_is_true(json_object_get(payload, "forced")))
		json_object_set_new(n.data, "forced", json_true());
	rs = MAIL_RENDER_FAIL;
	mustache_buf_init(&view);
	mustache_buf_init(&buf);
	if (k->fill(&n) != 0)
		goto out;
	if (k->with_view) {
		if (mail_view_body(n.st, tpl, &n.gs, n.viewer, n.lang,
		    n.zone, 0, mail_view_name(&n.gs, n.viewer), NULL, NULL,
		    &view, err, errlen) != 0)
			goto out;
		set_string(n.data, "view", view.data != NULL ? view.data : "");
	}
	if (templates_render(tpl, n.lang, "mail", event, TPL_TEXT, n.data,
	    &buf, err, errlen) != 0)
		goto out;
	out->body = buf.data != NULL ? buf.data : strdup("");
	buf.data = NULL;
	/* A forced late notice's subject says so (mail_render.c). */
	mail_set_headers(s, o, strcmp(event, "late") == 0 && json_is_true(
	    json_object_get(payload, "forced")) ? "late_forced" : event,
	    n.lang, title, n.gs.game.id, n.gs.seq, NULL, out);
	rs = MAIL_RENDER_OK;
out:
	if (rs != MAIL_RENDER_OK)
		mustache_buf_free(&buf);
	mustache_buf_free(&view);
	json_decref(n.data);
	gamestate_clear(&n.gs);
	return rs;
}
