/*
 * writer.h -- the process's one database writer: many moves per
 * transaction (group commit).
 *
 * Without a writer, each thread that submits a move opens its own
 * BEGIN IMMEDIATE transaction, and the threads queue on SQLite's write
 * lock, each paying a whole commit per move.  With a writer running,
 * engine_submit() still checks the block and the signature on the
 * caller's thread (in parallel), then hands the checked move to the
 * writer thread and waits for its answer (or, for an HTTP thread, goes on
 * serving other connections until the writer calls it back).  The writer
 * calls engine_committed() for each move it committed.  The writer takes every move
 * waiting (up to "batch") and writes them in ONE transaction, and the
 * moves handed over while it writes join that transaction (up to "batch"
 * in all) until none is waiting; each move is in its own savepoint: a move that is refused or fails is undone alone,
 * and the others stand.  When the commit succeeds every waiter gets its
 * receipt; when it fails every move of the batch gets "internal_error"
 * and nothing of the batch is stored.  A waiter is answered only after
 * the commit, so no receipt leaves for a move that is not stored.
 *
 * The writer keeps the newest state of up to "cache" games in memory
 * (a direct-mapped table: game id modulo the size), so a hot game's
 * snapshot is not read, hash-checked and parsed again for every move.
 * Before each move it reads the game's row and last log entry in the
 * transaction and uses the kept state only if that entry's sequence
 * number and hash are the ones the state was built on; otherwise (a move
 * written by another process, a cold game) it loads the state from the
 * store as gamestate_load() does, snapshot hash check included.
 *
 * Moves of one game are serialised: they are applied one after another
 * in the writer, in the order they arrived.
 *
 * One writer per process.  Start it before any thread that submits moves
 * and stop it after they have stopped (pbemd: after http_stop()).
 */
#ifndef PBEM_WRITER_H
#define PBEM_WRITER_H

#include "engine.h"

struct writer_stats {
	long long	moves;		/* moves handed to the writer */
	long long	batches;	/* transactions */
	long long	largest;	/* most moves in one transaction */
};

/* Start the writer on its own connection to dbpath, signing receipts
 * with key (which must outlive it).  batch >= 1 is the most moves per
 * transaction, cache >= 1 the number of game states kept.  0, or -1
 * with the reason in err. */
int	writer_start(const char *dbpath, const struct serverkey *key,
	    int batch, int cache, char *err, size_t errlen);
/* Write what is queued, stop the thread, free everything. */
void	writer_stop(void);
void	writer_get_stats(struct writer_stats *stats);

/* For engine_submit(): play the checked move m (a log entry of kind:
 * STORE_ENTRY_MOVE or a hosted kind, verified with signer: see
 * apply_move()) through the writer and wait for the answer in reply.
 * -1 when no writer runs (or it is stopping): the caller writes the move
 * itself. */
int	writer_play(const struct proto_move *m, int kind,
	    const unsigned char *signer, enum rules_lang lang,
	    struct engine_reply *reply);
/* The same without waiting: 0 when queued, and done(arg) is called on the
 * writer's thread once reply holds the answer (after the commit, and
 * after engine_committed()); m, signer and reply must live until then,
 * and done must not block.  -1 when no writer runs (or it is stopping, or
 * memory is short): the caller writes the move itself. */
int	writer_queue(const struct proto_move *m, int kind,
	    const unsigned char *signer, enum rules_lang lang,
	    struct engine_reply *reply, void (*done)(void *), void *arg);

#endif /* PBEM_WRITER_H */
