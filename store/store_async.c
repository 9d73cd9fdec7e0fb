/*
 * store_async.c -- the asynchronous-play part of store.h: game policies,
 * seat status, the turn clock, fired timers, press and observers
 * (migration 3; docs/ASYNC.md, docs/STORE.md).
 *
 * Statements are prepared on first use and kept (store_sqlite_prepare()):
 * several run for every move (seat status, turn clock, observers).  As in
 * the store's other files, values are bound, never pasted into SQL,
 * statements are stepped with store_sqlite_step(), and what is read back
 * is checked before it is copied.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

/* Step a statement that returns no row; give it back. */
static enum store_status
run_once(struct store *st, sqlite3_stmt *s, const char *what)
{
	enum store_status status = store_sqlite_step(st, s, what);

	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

/* An UPDATE or DELETE that must touch exactly one row. */
static enum store_status
change_one(struct store *st, sqlite3_stmt *s, const char *what)
{
	enum store_status status = run_once(st, s, what);

	if (status == STORE_OK &&
	    sqlite3_changes(store_sqlite_db(st)) != 1)
		return store_sqlite_missing(st, what);
	return status;
}

/* ---- Policy ------------------------------------------------------------- */

enum store_status
store_policy_get(struct store *st, int64_t game_id, char **policy)
{
	sqlite3_stmt *s;
	enum store_status status;

	*policy = NULL;
	if ((s = store_sqlite_prepare(st,
	    "SELECT policy FROM game_policy WHERE game_id = "
	    "?1", "policy get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, game_id);
	if ((status = store_sqlite_step(st, s, "policy get")) == STORE_OK)
		status = sq_col_dup(st, s, 0, "game_policy", policy);
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_policy_set(struct store *st, int64_t game_id, const char *policy)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st,
	    "INSERT INTO game_policy (game_id, policy) "
	    "VALUES (?1, ?2) ON CONFLICT (game_id) DO UPDATE SET policy = "
	    "excluded.policy", "policy set")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, game_id);
	sqlite3_bind_text(s, 2, policy, -1, SQLITE_TRANSIENT);
	return run_once(st, s, "policy set");
}

/* ---- Seats -------------------------------------------------------------- */

enum store_status
store_seat_get(struct store *st, int64_t game_id, int seat,
    struct store_seat *out)
{
	sqlite3_stmt *s;
	enum store_status status;

	memset(out, 0, sizeof(*out));
	if ((s = store_sqlite_prepare(st,
	    "SELECT player_id, status, away_from, "
	    "away_until, away_used, command_seq, call_off FROM seats "
	    "WHERE game_id = ?1 AND seat = ?2", "seat get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, game_id);
	sqlite3_bind_int(s, 2, seat);
	if ((status = store_sqlite_step(st, s, "seat get")) == STORE_OK) {
		out->game_id = game_id;
		out->seat = seat;
		out->player_id = sqlite3_column_int64(s, 0);
		out->status = sqlite3_column_int(s, 1);
		out->away_from = sqlite3_column_int64(s, 2);
		out->away_until = sqlite3_column_int64(s, 3);
		out->away_used = sqlite3_column_int64(s, 4);
		out->command_seq = sqlite3_column_int64(s, 5);
		out->call_off = sqlite3_column_int(s, 6);
		if (out->status > STORE_SEAT_BOT) {
			store_sqlite_corrupt(st, "seats", "unknown status");
			status = STORE_ERROR;
		}
	}
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_seat_update(struct store *st, const struct store_seat *in)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st,
	    "UPDATE seats SET status = ?3, away_from = ?4, "
	    "away_until = ?5, away_used = ?6, command_seq = ?7, call_off = ?8 "
	    "WHERE game_id = ?1 AND seat = ?2", "seat update")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, in->game_id);
	sqlite3_bind_int(s, 2, in->seat);
	sqlite3_bind_int(s, 3, in->status);
	sqlite3_bind_int64(s, 4, in->away_from);
	sqlite3_bind_int64(s, 5, in->away_until);
	sqlite3_bind_int64(s, 6, in->away_used);
	sqlite3_bind_int64(s, 7, in->command_seq);
	sqlite3_bind_int(s, 8, in->call_off);
	return change_one(st, s, "seat update");
}

/* ---- The turn clock and fired timers ------------------------------------ */

enum store_status
store_turn_get(struct store *st, int64_t game_id, struct store_turn *t)
{
	sqlite3_stmt *s;
	enum store_status status;

	memset(t, 0, sizeof(*t));
	if ((s = store_sqlite_prepare(st,
	    "SELECT turn, last_seq, started, window, "
	    "waiting FROM turns WHERE game_id = ?1", "turn get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, game_id);
	if ((status = store_sqlite_step(st, s, "turn get")) == STORE_OK) {
		t->game_id = game_id;
		t->turn = sqlite3_column_int64(s, 0);
		t->last_seq = sqlite3_column_int64(s, 1);
		t->started = sqlite3_column_int64(s, 2);
		t->window = sqlite3_column_int(s, 3);
		t->waiting = (unsigned)sqlite3_column_int64(s, 4);
	}
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_turn_put(struct store *st, const struct store_turn *t)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st,
	    "INSERT INTO turns (game_id, turn, last_seq, "
	    "started, window, waiting) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
	    "ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, "
	    "last_seq = excluded.last_seq, started = excluded.started, "
	    "window = excluded.window, waiting = excluded.waiting, due = 0",
	    "turn put")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, t->game_id);
	sqlite3_bind_int64(s, 2, t->turn);
	sqlite3_bind_int64(s, 3, t->last_seq);
	sqlite3_bind_int64(s, 4, t->started);
	sqlite3_bind_int(s, 5, t->window);
	sqlite3_bind_int64(s, 6, (sqlite3_int64)t->waiting);
	return run_once(st, s, "turn put");
}

enum store_status
store_turn_due(struct store *st, int64_t now, int limit,
    int (*fn)(const struct store_due *d, void *arg), void *arg)
{
	struct store_due d;
	sqlite3_stmt *s;
	enum store_status status;

	if ((s = store_sqlite_prepare(st,
	    "SELECT t.game_id, g.status, g.ruleset FROM turns t "
	    "JOIN games g ON g.id = t.game_id WHERE t.due <= ?1 "
	    "ORDER BY t.due, t.game_id LIMIT ?2", "turn due")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int(s, 2, limit);
	while ((status = store_sqlite_step(st, s, "turn due")) == STORE_OK) {
		memset(&d, 0, sizeof(d));
		d.game_id = sqlite3_column_int64(s, 0);
		d.status = sqlite3_column_int(s, 1);
		snprintf(d.ruleset, sizeof(d.ruleset), "%s",
		    (const char *)sqlite3_column_text(s, 2));
		if (fn(&d, arg) != 0) {
			status = STORE_NOTFOUND;
			break;
		}
	}
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_turn_set_due(struct store *st, int64_t game_id, int64_t due)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st,
	    "UPDATE turns SET due = ?2 WHERE game_id = ?1",
	    "turn set due")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, game_id);
	sqlite3_bind_int64(s, 2, due);
	return run_once(st, s, "turn set due");
}

enum store_status
store_timer_fire(struct store *st, int64_t game_id, int64_t turn, int seat,
    const char *what, int64_t when)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st,
	    "INSERT INTO timers (game_id, turn, seat, what, "
	    "fired) VALUES (?1, ?2, ?3, ?4, ?5)", "timer fire")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, game_id);
	sqlite3_bind_int64(s, 2, turn);
	sqlite3_bind_int(s, 3, seat);
	sqlite3_bind_text(s, 4, what, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 5, when);
	return run_once(st, s, "timer fire");
}

enum store_status
store_timer_latest(struct store *st, int64_t *when)
{
	sqlite3_stmt *s;
	enum store_status status;

	*when = 0;
	if ((s = store_sqlite_prepare(st, "SELECT coalesce(max(fired), 0) "
	    "FROM timers", "timer latest")) == NULL)
		return STORE_ERROR;
	if ((status = store_sqlite_step(st, s, "timer latest")) == STORE_OK)
		*when = sqlite3_column_int64(s, 0);
	store_sqlite_done(st, s);
	return status;
}

/* ---- Game masters --------------------------------------------------------- */

enum store_status
store_master_get(struct store *st, int64_t game_id, struct store_master *m)
{
	sqlite3_stmt *s;
	enum store_status status;

	memset(m, 0, sizeof(*m));
	m->game_id = game_id;
	if ((s = store_sqlite_prepare(st, "SELECT coalesce(player_id, 0), "
	    "command_seq, paused_at, paused_by FROM game_masters WHERE game_id = ?1",
	    "master get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, game_id);
	if ((status = store_sqlite_step(st, s, "master get")) == STORE_OK) {
		m->player_id = sqlite3_column_int64(s, 0);
		m->command_seq = sqlite3_column_int64(s, 1);
		m->paused_at = sqlite3_column_int64(s, 2);
		m->paused_by = sqlite3_column_int64(s, 3);
	}
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_master_put(struct store *st, const struct store_master *m)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "INSERT INTO game_masters (game_id, "
	    "player_id, command_seq, paused_at, paused_by) VALUES (?1, "
	    "nullif(?2, 0), ?3, ?4, ?5) ON CONFLICT (game_id) DO UPDATE SET "
	    "player_id = excluded.player_id, command_seq = "
	    "excluded.command_seq, paused_at = excluded.paused_at, "
	    "paused_by = excluded.paused_by", "master put")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, m->game_id);
	sqlite3_bind_int64(s, 2, m->player_id);
	sqlite3_bind_int64(s, 3, m->command_seq);
	sqlite3_bind_int64(s, 4, m->paused_at);
	sqlite3_bind_int64(s, 5, m->paused_by);
	return run_once(st, s, "master put");
}

/* ---- Press -------------------------------------------------------------- */

enum store_status
store_press_add(struct store *st, struct store_press *p)
{
	sqlite3_stmt *s;
	enum store_status status;

	if ((s = store_sqlite_prepare(st,
	    "INSERT INTO press (game_id, from_seat, "
	    "recipients, body, created) VALUES (?1, ?2, ?3, ?4, ?5)",
	    "press add")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, p->game_id);
	sqlite3_bind_int(s, 2, p->from_seat);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)p->recipients);
	sqlite3_bind_text(s, 4, p->body, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 5, p->created);
	status = run_once(st, s, "press add");
	if (status == STORE_OK)
		p->id = sqlite3_last_insert_rowid(store_sqlite_db(st));
	return status;
}

enum store_status
store_press_foreach(struct store *st, int64_t game_id, store_press_cb cb,
    void *arg)
{
	struct store_press p;
	sqlite3_stmt *s;
	enum store_status status;
	int stop;

	if ((s = store_sqlite_prepare(st,
	    "SELECT id, from_seat, recipients, body, created "
	    "FROM press WHERE game_id = ?1 ORDER BY id", "press foreach")) ==
	    NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, game_id);
	while ((status = store_sqlite_step(st, s, "press foreach")) ==
	    STORE_OK) {
		memset(&p, 0, sizeof(p));
		p.id = sqlite3_column_int64(s, 0);
		p.game_id = game_id;
		p.from_seat = sqlite3_column_int(s, 1);
		p.recipients = (unsigned)sqlite3_column_int64(s, 2);
		p.created = sqlite3_column_int64(s, 4);
		if ((status = sq_col_dup(st, s, 3, "press",
		    &p.body)) != STORE_OK)
			break;
		stop = cb(&p, arg);
		free(p.body);
		if (stop)
			break;
	}
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

/* ---- Observers ---------------------------------------------------------- */

enum store_status
store_observer_add(struct store *st, const struct store_observer *o)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st,
	    "INSERT INTO observers (game_id, email, lang, "
	    "created) VALUES (?1, ?2, ?3, ?4)", "observer add")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, o->game_id);
	sqlite3_bind_text(s, 2, o->email, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, o->lang, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 4, o->created);
	return run_once(st, s, "observer add");
}

enum store_status
store_observer_remove(struct store *st, int64_t game_id, const char *email)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st,
	    "DELETE FROM observers WHERE game_id = ?1 AND "
	    "email = ?2", "observer remove")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, game_id);
	sqlite3_bind_text(s, 2, email, -1, SQLITE_TRANSIENT);
	return change_one(st, s, "observer remove");
}

enum store_status
store_observer_foreach(struct store *st, int64_t game_id,
    store_observer_cb cb, void *arg)
{
	struct store_observer *list = NULL, *grown;
	const unsigned char *email, *lang;
	sqlite3_stmt *s;
	enum store_status status;
	size_t n = 0, cap = 0, i;

	if ((s = store_sqlite_prepare(st,
	    "SELECT email, lang, created FROM observers "
	    "WHERE game_id = ?1 ORDER BY email", "observer foreach")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, game_id);
	while ((status = store_sqlite_step(st, s, "observer foreach")) ==
	    STORE_OK) {
		email = sqlite3_column_text(s, 0);
		lang = sqlite3_column_text(s, 1);
		if (email == NULL || lang == NULL ||
		    strlen((const char *)email) >= STORE_EMAIL_MAX ||
		    strlen((const char *)lang) >= 8) {
			store_sqlite_corrupt(st, "observers", "email or lang "
			    "missing or too long");
			status = STORE_ERROR;
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			if ((grown = realloc(list, cap * sizeof(*list))) ==
			    NULL) {
				store_sqlite_corrupt(st, "observers",
				    "out of memory");
				status = STORE_ERROR;
				break;
			}
			list = grown;
		}
		memset(&list[n], 0, sizeof(list[n]));
		list[n].game_id = game_id;
		snprintf(list[n].email, sizeof(list[n].email), "%s", email);
		snprintf(list[n].lang, sizeof(list[n].lang), "%s", lang);
		list[n].created = sqlite3_column_int64(s, 2);
		n++;
	}
	store_sqlite_done(st, s);
	if (status == STORE_NOTFOUND)
		status = STORE_OK;
	for (i = 0; status == STORE_OK && i < n; i++)
		if (cb(&list[i], arg) != 0)
			break;
	free(list);
	return status;
}
