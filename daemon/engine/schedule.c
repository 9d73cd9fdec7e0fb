/*
 * schedule.c -- see schedule.h; the policies are in docs/ASYNC.md.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine.h"
#include "schedule.h"
#include "turnclock.h"

/* Entries one game may gain in one tick (resigned seats' moves, several
 * late seats of a window): a bound, so a broken module cannot spin. */
#define MAX_ENTRIES_PER_TICK	64

struct tick {
	struct store		*st;
	const struct serverkey	*key;
	int64_t			 now;
	struct schedule_stats	*stats;
	struct gamestate	 gs;
	struct policy		 pol;
	struct store_turn	 turn;
	int			 window;
	int			 force;		/* the deadline is now */
	char			*err;
	size_t			 errlen;
};

static int
fail(struct tick *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->err, t->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The payload of a deadline notice or a master's notice: fields, and
 * "forced": true when the outcome is a force before the deadline
 * (gs.forced, set by seat_timers()). */
static json_t *
marked(const struct tick *t, json_t *fields)
{
	if (fields != NULL && t->gs.forced)
		json_object_set_new(fields, "forced", json_true());
	return fields;
}

/* One outbox row to seat's player: event with the deadline. */
static int
notify_seat(struct tick *t, int seat, const char *event, int64_t deadline,
    int late_seat)
{
	struct store_player p;

	if (store_player_get(t->st, t->gs.game.seat_player[seat], &p) !=
	    STORE_OK)
		return fail(t, "store: %s", store_errmsg(t->st));
	if (p.bot[0] != '\0')
		return 0;	/* a bot reads no mail (bots.c) */
	if (engine_outbox_mail(t->st, t->gs.game.id, t->gs.seq, p.email,
	    event, marked(t, json_pack("{s:I, s:I, s:i, s:s, s:I, s:i, s:b}",
	    "game", (json_int_t)t->gs.game.id, "seq", (json_int_t)t->gs.seq,
	    "seat", seat, "event", event, "deadline", (json_int_t)deadline,
	    "late_seat", late_seat, "window", t->window)), t->now) != 0)
		return fail(t, "queueing %s for seat %d: %s", event, seat,
		    store_errmsg(t->st));
	return 0;
}

/* The same notice to every seat. */
static int
notify_all(struct tick *t, const char *event, int64_t deadline, int seat)
{
	int s;

	for (s = 0; s < t->gs.game.nseats; s++)
		if (notify_seat(t, s, event, deadline, seat) != 0)
			return -1;
	return 0;
}

/* Record timer `what' for seat; 1 if it is new (act on it), 0 if it had
 * fired already, -1 on error. */
static int
fire(struct tick *t, int seat, const char *what)
{
	switch (store_timer_fire(t->st, t->gs.game.id, t->turn.turn, seat,
	    what, t->now)) {
	case STORE_OK:
		return 1;
	case STORE_EXISTS:
		return 0;
	default:
		return fail(t, "store: %s", store_errmsg(t->st));
	}
}

/* Play the module's default move for seat (an AUTO entry).  1 if an
 * entry was written, 0 if the module has none now. */
static int
play_default(struct tick *t, int seat)
{
	const struct rules_module *m = t->gs.module;
	char move[PROTO_MOVE_MAX + 1];
	enum engine_status es;

	if (m->api_version < 3 || m->default_move == NULL ||
	    m->default_move(t->gs.state, seat, move, sizeof(move)) !=
	    RULES_OK) {
		t->stats->stalled++;	/* the seat keeps waiting */
		return 0;
	}
	es = engine_server_entry(t->st, t->key, &t->gs, STORE_ENTRY_AUTO, seat,
	    move, "auto_move", 0, t->now, t->err, t->errlen);
	if (es != ENGINE_OK)
		return -1;
	t->stats->auto_moves++;
	return 1;
}

/* The bot's move for seat at level (a BOT entry).  1 if an entry was
 * written, 0 if the bot has none now (the seat keeps waiting). */
static int
play_bot(struct tick *t, int seat, int level)
{
	char why[512];
	enum engine_status es;

	es = engine_bot_play(t->st, t->key, &t->gs, seat, level, t->now,
	    why, sizeof(why));
	if (es == ENGINE_REFUSED) {
		t->stats->stalled++;
		return 0;
	}
	if (es != ENGINE_OK) {
		snprintf(t->err, t->errlen, "%s", why);
		return -1;
	}
	t->stats->bot_moves++;
	return 1;
}

/* Hand seat to the bot (policy "bot"): the seat is marked held by the
 * bot, which plays this turn now and the seat's next ones at their
 * deadlines until its player moves again. */
static int
hand_to_bot(struct tick *t, struct store_seat *row)
{
	row->status = STORE_SEAT_BOT;
	if (store_seat_update(t->st, row) != STORE_OK)
		return fail(t, "store: %s", store_errmsg(t->st));
	t->gs.game.seat_status[row->seat] = STORE_SEAT_BOT;
	return play_bot(t, row->seat, RULES_BOT_NORMAL);
}

/* Skip seat's turn; the default move if the module refuses now. */
static int
skip_turn(struct tick *t, int seat)
{
	char *text;
	enum engine_status es;
	char why[RULES_ERRLEN];

	if (t->gs.module->api_version < 3 ||
	    t->gs.module->skip_check == NULL ||
	    t->gs.module->skip_check(t->gs.state, seat, RULES_LANG_EN, why,
	    sizeof(why)) != RULES_OK)
		return play_default(t, seat);	/* skip refused */
	/* The record says why the turn passed: a deadline missed, or the
	 * master's force before it (docs/LOG.md). */
	text = engine_record_text(t->gs.game.id, t->gs.seq + 1, "skip",
	    json_pack("{s:i, s:s}", "seat", seat, "reason", t->gs.forced ?
	    "forced" : "missed_deadline"));
	es = engine_server_entry(t->st, t->key, &t->gs, STORE_ENTRY_SKIP,
	    seat, text, "skipped", 0, t->now, t->err, t->errlen);
	free(text);
	if (es != ENGINE_OK)
		return -1;
	t->stats->skips++;
	return 1;
}

/* The game's master hears of a missed deadline too (mastermail.c). */
static int
tell_master(struct tick *t, const char *what, int seat, int64_t deadline)
{
	if (engine_queue_master(t->st, t->gs.game.id, t->gs.seq, what,
	    marked(t, json_pack("{s:i, s:I}", "late_seat", seat, "deadline",
	    (json_int_t)deadline)), t->now) != 0)
		return fail(t, "queueing the master's %s notice: %s", what,
		    store_errmsg(t->st));
	return 0;
}

/* The missed-deadline outcome for seat (its "outcome" timer is new). */
static int
outcome(struct tick *t, struct store_seat *row, int64_t deadline)
{
	int rc;

	if (t->window)
		return play_default(t, row->seat);	/* the window closes */
	switch (t->pol.missed) {
	case POLICY_MISSED_WAIT:
		t->stats->late++;
		if (notify_all(t, "late", deadline, row->seat) != 0)
			return -1;
		return tell_master(t, "late", row->seat, deadline);
	case POLICY_MISSED_SKIP:
	case POLICY_MISSED_DEFAULT:
		rc = t->pol.missed == POLICY_MISSED_SKIP ?
		    skip_turn(t, row->seat) : play_default(t, row->seat);
		/* The entry written is the server's move for the seat. */
		if (rc == 1 && tell_master(t, "auto_move", row->seat,
		    deadline) != 0)
			return -1;
		return rc;
	case POLICY_MISSED_BOT:
		return hand_to_bot(t, row);
	case POLICY_MISSED_ABSENT:
		row->status = STORE_SEAT_ABSENT;
		if (store_seat_update(t->st, row) != STORE_OK)
			return fail(t, "store: %s", store_errmsg(t->st));
		t->stats->absent++;
		if (notify_all(t, "seat_offered", deadline, row->seat) != 0 ||
		    engine_queue_observers(t->st, t->gs.game.id, t->gs.seq,
		    "seat_offered", t->gs.forced, t->now) != 0 ||
		    tell_master(t, "seat_offered", row->seat, deadline) != 0)
			return -1;
		return 0;
	}
	return 0;
}

/* The time a seat has for the turn (or window) `turn' under pol; 0: no
 * deadline. */
static int64_t
turn_duration(const struct policy *pol, const struct store_turn *turn)
{
	return turn->window ? pol->response_time : pol->turn_time;
}

/* When the reminder `before' seconds before the deadline is due: when
 * that much counted time is left (so a reminder never falls in a paused
 * weekend or a vacation the deadline skips); 0 if the turn is shorter. */
static int64_t
reminder_at(const struct policy *pol, const struct store_turn *turn,
    const struct store_seat *row, int64_t before)
{
	int64_t duration = turn_duration(pol, turn);

	if (duration <= before)
		return 0;
	return policy_deadline(pol, turn->started, duration - before,
	    row->away_from, row->away_until);
}

/* Whether reminder i is the latest of those due at now: after a gap
 * between passes only the newest goes out (an older one would tell of
 * more time than is left). */
static int
newest_reminder(const struct tick *t, const struct store_seat *row, int i,
    int64_t at)
{
	int64_t other;
	int j;

	for (j = 0; j < t->pol.nreminders; j++) {
		if (j == i)
			continue;
		other = reminder_at(&t->pol, &t->turn, row,
		    t->pol.reminders[j]);
		if (other > at && other <= t->now)
			return 0;
	}
	return 1;
}

/* Under wait, once the late notice went out: tell the late seat again
 * every late_every (only the newest repeat after a gap). */
static int
late_again(struct tick *t, int seat, int64_t deadline, int64_t end)
{
	char what[48];
	int64_t n;
	int rc;

	if (t->window || t->pol.missed != POLICY_MISSED_WAIT ||
	    t->pol.late_every <= 0 || t->now < end + t->pol.late_every)
		return 0;
	/* Named by its moment: a turn extended after it was late counts
	 * its repeats from its new deadline. */
	n = (t->now - end) / t->pol.late_every;
	snprintf(what, sizeof(what), "late:%lld:%lld",
	    (long long)t->pol.late_every,
	    (long long)(end + n * t->pol.late_every));
	if ((rc = fire(t, seat, what)) <= 0)
		return rc;
	t->stats->late++;
	return notify_seat(t, seat, "late", deadline, seat);
}

/* The timers of one seat that must act.  1 if a log entry was written. */
static int
seat_timers(struct tick *t, int seat)
{
	struct store_seat row;
	int64_t deadline, at, end;
	char what[48];
	int i, rc, level;

	t->gs.forced = 0;
	if (store_seat_get(t->st, t->gs.game.id, seat, &row) != STORE_OK)
		return fail(t, "store: %s", store_errmsg(t->st));
	if (row.status == STORE_SEAT_RESIGNED)
		return play_default(t, seat);
	if (row.status == STORE_SEAT_ABSENT)
		return 0;	/* waits for a replacement */
	/* A bot's seat plays at once; one the "bot" policy holds, when its
	 * time runs out (its player may still take it back before). */
	level = engine_seat_bot_level(t->st, &t->gs, seat);
	if (level >= 0 && row.status != STORE_SEAT_BOT)
		return play_bot(t, seat, level);
	if ((deadline = turnclock_deadline(&t->pol, &t->turn, &row)) == 0 &&
	    !t->force)
		return 0;
	/* The game master's "now", unless the deadline has passed already
	 * (its late notice, named by it, then goes out once).  Forced
	 * before it, the outcome's notices and entries say so: the seat
	 * missed nothing. */
	if (t->force && (deadline == 0 || deadline > t->now)) {
		deadline = t->now;
		t->gs.forced = 1;
	}
	if (level >= 0)
		return t->now >= deadline ? play_bot(t, seat, level) : 0;
	for (i = 0; i < t->pol.nreminders; i++) {
		at = reminder_at(&t->pol, &t->turn, &row, t->pol.reminders[i]);
		if (at <= t->turn.started || t->now < at || t->now >= deadline ||
		    !newest_reminder(t, &row, i, at))
			continue;
		/* Named by the deadline too: a turn whose deadline moved
		 * (extended, resumed, a new policy) is reminded again. */
		snprintf(what, sizeof(what), "reminder:%lld:%lld",
		    (long long)t->pol.reminders[i], (long long)deadline);
		if ((rc = fire(t, seat, what)) < 0)
			return -1;
		if (rc == 1) {
			if (notify_seat(t, seat, "reminder", deadline, seat))
				return -1;
			t->stats->reminders++;
		}
	}
	if (t->now < deadline)
		return 0;
	end = deadline + (t->window || t->force ? 0 : t->pol.grace);
	/* The grace notice only while the grace runs: after a gap between
	 * passes it would promise time that is gone. */
	if (end > deadline && t->now < end) {
		snprintf(what, sizeof(what), "deadline:%lld",
		    (long long)deadline);
		if ((rc = fire(t, seat, what)) < 0)
			return -1;
		if (rc == 1) {
			if (notify_seat(t, seat, "deadline", end, seat) != 0)
				return -1;
			t->stats->deadlines++;
		}
	}
	if (t->now < end)
		return 0;
	/* Waiting has its own timer, so that a policy changed from wait to
	 * another outcome applies to the turn already late; it is named by
	 * its deadline, so that a turn the master extended after it was
	 * late is announced late again when the new deadline passes. */
	if (!t->window && t->pol.missed == POLICY_MISSED_WAIT)
		snprintf(what, sizeof(what), "late:%lld", (long long)deadline);
	else
		snprintf(what, sizeof(what), "outcome");
	if ((rc = fire(t, seat, what)) < 0)
		return rc;
	if (rc == 0)
		return late_again(t, seat, deadline, end) < 0 ? -1 : 0;
	return outcome(t, &row, deadline);
}

/* One look at one game, in one transaction.  1 if a log entry was
 * written (look again), 0 if nothing more is due, -1 on failure. */
static int
tick_game(struct tick *t, int64_t game_id)
{
	int seats[STORE_MAX_SEATS], nact, i, rc = 0;
	int64_t loaded_seq;
	unsigned waiting;

	if (store_begin(t->st) != STORE_OK)
		return fail(t, "game %lld: the store is busy: %s",
		    (long long)game_id, store_errmsg(t->st));
	if (gamestate_load(t->st, game_id, -1, &t->gs, t->err, t->errlen) !=
	    ENGINE_OK) {
		store_rollback(t->st);
		return -1;
	}
	loaded_seq = t->gs.seq;
	t->window = turnclock_shape(&t->gs, seats, &nact, &waiting);
	if (nact == 0 || engine_policy_of(t->st, game_id, t->gs.module,
	    &t->pol, t->err, t->errlen) != ENGINE_OK) {
		rc = nact == 0 ? 0 : -1;
		goto rollback;
	}
	if (turnclock_update(t->st, &t->gs, t->window, waiting, -1, &t->turn) !=
	    STORE_OK) {
		rc = fail(t, "store: %s", store_errmsg(t->st));
		goto rollback;
	}
	for (i = 0; i < nact && rc == 0; i++)
		rc = seat_timers(t, seats[i]);
	if (rc < 0)
		goto rollback;
	if (store_commit(t->st) != STORE_OK) {
		rc = fail(t, "game %lld: commit: %s", (long long)game_id,
		    store_errmsg(t->st));
		goto rollback;
	}
	/* engine.h: wake the followers, and the scheduler for another
	 * pass, only when the log grew (a timer's notice alone is no
	 * event, and must not make the scheduler look again). */
	if (t->gs.seq != loaded_seq)
		engine_committed(game_id, t->gs.seq);
	gamestate_clear(&t->gs);
	return rc;
rollback:
	store_rollback(t->st);
	gamestate_clear(&t->gs);
	return rc;
}

/* Whether player_id is a bot (its seat is played at once). */
static int
seat_is_bot(struct store *st, int64_t player_id)
{
	struct store_player p;

	return player_id != 0 && store_player_get(st, player_id, &p) ==
	    STORE_OK && p.bot[0] != '\0';
}

/*
 * Whether game may have something due at now, judged from its rows alone
 * (turns, log, policy, seats) without loading and replaying its state --
 * most running games, most of the time, are only waiting for a move whose
 * first reminder is still ahead.  0 only when the turn clock has seen the
 * game's last entry and every seat it waits for is either absent or
 * playing and before its first reminder and its deadline; 1 otherwise, so
 * that when in doubt the game is looked at.  m: the game's module (NULL
 * if unknown: look).  When 0, *next is the earliest time something can
 * be due (STORE_DUE_NEVER: nothing until a change resets it).
 */
static int
maybe_due(struct store *st, int64_t game_id, const struct rules_module *m,
    int64_t now, int64_t *next)
{
	struct store_turn turn;
	struct store_entry last;
	struct store_seat row;
	struct policy pol;
	enum store_status rc;
	int64_t deadline, first, last_seq, at;
	char err[512];
	int seat, i;

	*next = STORE_DUE_NEVER;
	if (m == NULL || store_turn_get(st, game_id, &turn) != STORE_OK)
		return 1;
	rc = store_log_last(st, game_id, &last);
	last_seq = last.seq;
	store_entry_clear(&last);
	if (rc != STORE_OK || last_seq != turn.last_seq)
		return 1;
	if (turn.waiting == 0)
		return 0;
	if (engine_policy_of(st, game_id, m, &pol, err, sizeof(err)) !=
	    ENGINE_OK)
		return 1;
	for (seat = 0; seat < STORE_MAX_SEATS; seat++) {
		if ((turn.waiting & (1u << seat)) == 0)
			continue;
		if (store_seat_get(st, game_id, seat, &row) != STORE_OK ||
		    row.status == STORE_SEAT_RESIGNED ||
		    seat_is_bot(st, row.player_id))
			return 1;
		if (row.status == STORE_SEAT_ABSENT)
			continue;
		if ((deadline = turnclock_deadline(&pol, &turn, &row)) == 0)
			continue;
		first = deadline;
		for (i = 0; i < pol.nreminders; i++) {
			at = reminder_at(&pol, &turn, &row, pol.reminders[i]);
			if (at > turn.started && at < first)
				first = at;
		}
		if (now >= first)
			return 1;
		if (first < *next)
			*next = first;
	}
	return 0;
}

/* Games whose due time has come, read a batch at a time. */
#define DUE_BATCH	256

struct due_list {
	struct store_due	 v[DUE_BATCH];
	int			 tick[DUE_BATCH];	/* 1: to look at */
	size_t			 n;
};

static int
collect_due(const struct store_due *d, void *arg)
{
	struct due_list *list = arg;

	if (list->n < DUE_BATCH)
		list->v[list->n++] = *d;
	return list->n == DUE_BATCH;
}

/*
 * Set the due time of each game of the batch that has nothing due at now
 * (judged from its rows, maybe_due()) to when something can be, and mark
 * the others to be looked at; if after is set (the games were just looked
 * at), those are due at the next pass rather than again in this one.  In
 * one write transaction, so that a change committed meanwhile, which
 * sets due back to 0, is not overwritten.  0, or -1 with err.
 */
static int
judge_batch(struct store *st, struct due_list *list, int64_t now, int after,
    struct schedule_stats *stats, char *err, size_t errlen)
{
	struct store_master master;
	int64_t next;
	size_t i;
	int paused;

	if (store_begin(st) != STORE_OK) {
		snprintf(err, errlen, "the store is busy: %s",
		    store_errmsg(st));
		return -1;
	}
	for (i = 0; i < list->n; i++) {
		if (after && !list->tick[i])
			continue;	/* judged before, not looked at */
		list->tick[i] = 0;
		next = STORE_DUE_NEVER;
		if (list->v[i].status == STORE_GAME_RUNNING) {
			paused = store_master_get(st, list->v[i].game_id,
			    &master) == STORE_OK && master.paused_at != 0;
			if (!after)
				stats->games++;
			if (!paused && maybe_due(st, list->v[i].game_id,
			    rules_find(list->v[i].ruleset), now, &next)) {
				list->tick[i] = !after;
				next = now + 1;
			} else if (!after)
				stats->quiet++;	/* or paused: no clock runs */
		}
		if (store_turn_set_due(st, list->v[i].game_id, next) !=
		    STORE_OK) {
			snprintf(err, errlen, "store: %s", store_errmsg(st));
			store_rollback(st);
			return -1;
		}
	}
	if (store_commit(st) != STORE_OK) {
		snprintf(err, errlen, "commit: %s", store_errmsg(st));
		return -1;
	}
	return 0;
}

int
schedule_tick(struct store *st, const struct serverkey *key, int64_t now,
    struct schedule_stats *stats, char *err, size_t errlen)
{
	struct tick t;
	struct due_list *list;
	size_t i;
	int n, rc;

	memset(stats, 0, sizeof(*stats));
	if ((list = calloc(1, sizeof(*list))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Each batch leaves every game of it due after now (or looked at
	 * and due at the next pass), so the loop ends; a game changed
	 * meanwhile comes back, which is new work. */
	for (;;) {
		list->n = 0;
		if (store_turn_due(st, now, DUE_BATCH, collect_due, list) !=
		    STORE_OK) {
			snprintf(err, errlen, "listing due games: %s",
			    store_errmsg(st));
			stats->failures++;
			break;
		}
		if (list->n == 0)
			break;
		if (judge_batch(st, list, now, 0, stats, err, errlen) != 0) {
			stats->failures++;
			break;
		}
		for (i = 0; i < list->n; i++) {
			if (!list->tick[i])
				continue;
			memset(&t, 0, sizeof(t));
			t.st = st;
			t.key = key;
			t.now = now;
			t.stats = stats;
			t.err = err;
			t.errlen = errlen;
			rc = 0;
			for (n = 0; n < MAX_ENTRIES_PER_TICK; n++)
				if ((rc = tick_game(&t, list->v[i].game_id)) <=
				    0)
					break;
			if (rc < 0)
				stats->failures++;	/* err: the last */
		}
		/* What the games looked at have due next. */
		if (judge_batch(st, list, now, 1, stats, err, errlen) != 0) {
			stats->failures++;
			break;
		}
	}
	free(list);
	return stats->failures > 0 ? -1 : 0;
}

int
schedule_check_time(struct store *st, int64_t at, int64_t now, char *err,
    size_t errlen)
{
	int64_t latest;
	char when[32], last[32];

	if (store_timer_latest(st, &latest) != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return -1;
	}
	clock_format_iso(at, when, sizeof(when));
	clock_format_iso(latest, last, sizeof(last));
	if (at < latest) {
		snprintf(err, errlen, "%s is before the last pass that fired "
		    "a timer (%s): time only goes forward / %s est avant le "
		    "dernier passage qui a déclenché une échéance (%s)", when,
		    last, when, last);
		return -1;
	}
	if (at > now + SCHEDULE_AHEAD_MAX) {
		snprintf(err, errlen, "%s is more than %lld days ahead of now "
		    "/ %s est à plus de %lld jours dans le futur", when,
		    SCHEDULE_AHEAD_MAX / 86400, when,
		    SCHEDULE_AHEAD_MAX / 86400);
		return -1;
	}
	return 0;
}

int
schedule_force(struct store *st, const struct serverkey *key,
    int64_t game_id, int64_t now, struct schedule_stats *stats, char *err,
    size_t errlen)
{
	struct tick t;
	int n, rc;

	memset(stats, 0, sizeof(*stats));
	memset(&t, 0, sizeof(t));
	t.st = st;
	t.key = key;
	t.now = now;
	t.stats = stats;
	t.err = err;
	t.errlen = errlen;
	t.force = 1;
	rc = tick_game(&t, game_id);
	/* Only the turn late now is forced; what follows runs its clock. */
	t.force = 0;
	for (n = 1; rc > 0 && n < MAX_ENTRIES_PER_TICK; n++)
		rc = tick_game(&t, game_id);
	return rc < 0 ? -1 : 0;
}
