/*
 * record.h -- the one place a log entry is made (engine-internal).
 *
 * Every entry after the genesis -- a player's move (apply.c) and every
 * entry the server writes (serverentry.c) -- goes through
 * engine_append_entry(), inside the caller's transaction: the chain
 * hashes (prev, state, entry; docs/LOG.md), the server's receipt, the
 * log row, the snapshot, the mail to each seat and to the observers, the
 * webhook rows, the turn clock and, when the game ends, its status.  The
 * genesis entry (create.c) is chained and signed with the same
 * engine_sign_receipt().  Nothing here commits or rolls back: on a
 * failure the caller undoes what was written since its transaction or
 * savepoint began.
 */
#ifndef PBEM_RECORD_H
#define PBEM_RECORD_H

#include "engine.h"

/*
 * Snapshots kept: one every ENGINE_SNAPSHOT_EVERY entries, the last entry
 * of a finished game, and the newest state of every game whose state is
 * not kept in memory by the writer (gs->kept), so that its next move
 * loads it directly; the state after any other entry is rebuilt from the
 * snapshot before it by replaying the entries between (gamestate_load();
 * docs/STORE.md, "Snapshots").  16 keeps about a sixteenth of a snapshot
 * per move while a rebuild replays at most 15 moves.  The writer's moves
 * skip the newest snapshot: a whole-state row written and deleted again
 * at the next move was the largest write of a move.
 */
#define ENGINE_SNAPSHOT_EVERY	16

/*
 * Append entry e after gs's last entry; gs->state is already the state
 * after e.  The caller fills e's game, seq (gs->seq + 1), kind, seat,
 * text, time and signature; this fills the hashes and the receipt.
 * mover and mover_event say who acted and what their mail says (-1 and
 * NULL: nobody); over marks the game over.
 * STORE_OK: every row written, gs->seq and gs->last_hash are e's and
 * gs->game.status is over if over.  STORE_EXISTS: e's seq was taken (a
 * racing move); nothing was written.  STORE_ERROR: a failure, its reason
 * in err; the caller must drop gs (its state no longer matches the
 * store) and undo what was written.
 */
enum store_status engine_append_entry(struct store *st,
	    const struct serverkey *key, struct gamestate *gs,
	    struct store_entry *e, int mover, const char *mover_event,
	    int over, char *err, size_t errlen);

#endif /* PBEM_RECORD_H */
