/*
 * turnclock.h -- the turn clock: when the current turn of a game began
 * and which seats it waits for (table turns; docs/ASYNC.md).
 *
 * Every log entry notes the clock in its own transaction
 * (turnclock_note(), from record.c), so a turn's deadline runs from the
 * entry's own time rather than from the scheduler's next pass.  A
 * response window stays the same window while the seats it waits for
 * answer one by one: its clock keeps running.  Everything else that
 * changes the position starts a new turn.  The scheduler (schedule.c)
 * reads the clock and brings it up to date for games written before it
 * existed.
 */
#ifndef PBEM_TURNCLOCK_H
#define PBEM_TURNCLOCK_H

#include "engine.h"

/* Whether gs is in a response window; the seats it waits for, in
 * to_act() order (seats, *nact) and as bits (*waiting).  No seat is
 * waited for once the game is over. */
int	turnclock_shape(const struct gamestate *gs,
	    int seats[STORE_MAX_SEATS], int *nact, unsigned *waiting);
/* Bring the clock up to gs's last entry, written at time when (when < 0:
 * read it from the log); window and waiting as turnclock_shape() gave
 * them.  turn is the clock after it. */
enum store_status turnclock_update(struct store *st,
	    const struct gamestate *gs, int window, unsigned waiting,
	    int64_t when, struct store_turn *turn);
/* Note, in the transaction that appends a log entry at time when, that
 * gs (the state after it) starts a new turn or continues a response
 * window.  0, or -1 on a store error. */
int	turnclock_note(struct store *st, const struct gamestate *gs,
	    int64_t when);
/* A seat's deadline in the turn (or window) `turn', under pol: 0 when
 * the policy gives no time (no deadline). */
int64_t	turnclock_deadline(const struct policy *pol,
	    const struct store_turn *turn, const struct store_seat *row);

#endif /* PBEM_TURNCLOCK_H */
