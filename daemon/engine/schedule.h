/*
 * schedule.h -- the scheduler: reminders, deadlines and their outcomes,
 * response windows, resigned seats' moves (docs/ASYNC.md).
 *
 * What the scheduler promises:
 *   - Everything it needs is in the database: the game's policy, the
 *     turn clock (table turns), each seat's status and vacation, and the
 *     timers it has fired.  schedule_tick() at time `now' works out, for
 *     every running game, what is due and does it; a daemon restarted at
 *     any moment loses nothing.
 *   - Nothing fires twice: each reminder, deadline notice and outcome is
 *     recorded in table timers in the same transaction as its effect (an
 *     outbox row, a log entry, a seat row), and a timer already recorded
 *     is never acted on again.
 *   - A game with nothing due is passed over from its rows (turn clock,
 *     last log seq, policy, seats) without loading its state; a paused
 *     game (its master's pause) is passed over entirely.
 *   - It reads no clock: `now' is an argument, so tests drive it with
 *     any time they like and never sleep.  One tick is one pass; a tick
 *     at an earlier time than a previous one does nothing harmful (what
 *     fired stays fired).
 *   - A struct store is never shared between threads: pbemd's scheduler
 *     thread (daemon/server/scheduler.h) opens its own connection.
 */
#ifndef PBEM_SCHEDULE_H
#define PBEM_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "serverkey.h"
#include "store.h"

struct schedule_stats {
	int	games;		/* running games looked at */
	int	quiet;		/* of which nothing was due, judged from
				 * their rows without loading the state */
	int	reminders;	/* reminder rows queued */
	int	deadlines;	/* "deadline passed, grace runs" notices */
	int	auto_moves;	/* default moves played (AUTO entries) */
	int	skips;		/* turns skipped (SKIP entries) */
	int	bot_moves;	/* bots' moves played (BOT entries) */
	int	absent;		/* seats marked absent and offered */
	int	late;		/* "wait" outcomes: late notices */
	int	stalled;	/* seats the module had no default move for */
	int	failures;	/* games that could not be processed now */
};

/* One pass over every running game at time now.  Returns 0, or -1 if
 * some game failed (stats->failures; err holds the last reason). */
int	schedule_tick(struct store *st, const struct serverkey *key,
	    int64_t now, struct schedule_stats *stats, char *err,
	    size_t errlen);

/* The game master's "now": apply the missed-deadline outcome of game's
 * turn at once, to every seat it waits for, as if the deadline and any
 * grace had passed (under wait: the late notices).  For a seat whose
 * deadline had not passed (or that has none), every notice the outcome
 * queues, its entry's included, says "forced": true, and a skip records
 * "reason": "forced" (docs/ASYNC.md).  0, or -1 with err. */
int	schedule_force(struct store *st, const struct serverkey *key,
	    int64_t game_id, int64_t now, struct schedule_stats *stats,
	    char *err, size_t errlen);

/* How far ahead of the real clock a pass may be run by hand. */
#define SCHEDULE_AHEAD_MAX	(400LL * 86400)

/* Whether a pass by hand (pbemctl tick --at) may run at `at', given the
 * real time now: not before the latest timer any pass fired (time only
 * goes forward) and not more than SCHEDULE_AHEAD_MAX ahead of now.  0,
 * or -1 with the reason in err (English and French). */
int	schedule_check_time(struct store *st, int64_t at, int64_t now,
	    char *err, size_t errlen);

#endif /* PBEM_SCHEDULE_H */
