/*
 * apply.h -- the part of a move's path that runs inside the write
 * transaction, shared by the two ways a move is written: one move in its
 * own transaction (submit.c, when no writer runs in the process) and many
 * moves in one transaction, each in its own savepoint (writer.c).
 *
 * apply_move() takes a move whose block, game, seat and signature were
 * already checked (submit.c), and the game's newest state, which the
 * caller loaded inside the same transaction or checked against the log's
 * last entry there.  It checks that the seat still plays (not resigned,
 * not absent: the status read with the game), the sequence number and
 * that the game runs, lets the rule module parse, check and apply the
 * move, and writes the log entry (with the server's receipt), the
 * snapshot, the outbox rows and the game's status.  It never commits nor rolls back: on a
 * refusal or a store error the caller undoes whatever was written since
 * it opened the transaction or savepoint.
 *
 * The receipt is signed here, before the commit, because it is a column
 * of the append-only log row; it reaches the client only through the
 * reply, which the caller hands out after its commit succeeded.
 */
#ifndef PBEM_APPLY_H
#define PBEM_APPLY_H

#include "engine.h"

/*
 * kind is the log entry's: STORE_ENTRY_MOVE, or STORE_ENTRY_HOSTED_MAIL /
 * STORE_ENTRY_HOSTED_WEB for a move signed with the seat's hosted key, or
 * STORE_ENTRY_DELEGATED for one signed by a bot key (checked again here,
 * at the time it is recorded, against the certificates in force).
 * signer is the key the move's signature was verified with (for the
 * other kinds; NULL for a delegated move): a move whose seat's key is no
 * longer that key -- replaced between the check and this transaction --
 * is refused as a bad signature.
 * Returns ENGINE_OK with every row written, reply's receipt, next_seq and
 * game_over set, and gs advanced to the new state (seq, last_hash);
 * otherwise the refusal or failure with its message in reply.
 * *gs_spoilt is set when gs no longer matches the store (the move was
 * applied to gs but its rows could not be written): the caller must
 * then drop gs rather than use it again.
 */
enum engine_status apply_move(struct store *st, const struct serverkey *key,
	    struct gamestate *gs, const struct proto_move *m, int kind,
	    const unsigned char *signer, enum rules_lang lang,
	    struct engine_reply *reply, int *gs_spoilt);

/* Set reply's status and message (printf-style). */
void	engine_refuse(struct engine_reply *reply, enum engine_status status,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same in the reader's language: en and fr are two formats that take
 * the same arguments in the same order (the compiler checks en's). */
void	engine_refuse_lang(struct engine_reply *reply,
	    enum engine_status status, enum rules_lang lang, const char *en,
	    const char *fr, ...) __attribute__((format(printf, 4, 6)));

#endif /* PBEM_APPLY_H */
