/*
 * verifier.h -- the signatures of a log verified on every core while the
 * audit walks it (engine-internal; audit.c).
 *
 * Every entry carries two Ed25519 signatures: the server's receipt over
 * (game, seq, seat, entry hash), and the entry's own -- the seat's key
 * over a move, the server's over the genesis record, a server record or
 * an automatic or bot move.  Each takes about 48 us to check, two thirds
 * of an audit's work, and none needs the entries before it once the key
 * is known.  verifier_start() guesses each entry's key in one quick pass
 * (the genesis record's seat keys, handed over by replacement records,
 * the server's for its own) and worker threads, one per core, check both
 * signatures of every entry, in any order, while the walk goes on in log
 * order (links, keys, certificates, replay).
 *
 * The walk stays the judge: it asks for entry i's results when it gets
 * there, waiting if the workers are behind, and for the entry's own
 * signature it names the key it has established itself; when that is not
 * the key the workers used (an altered record, a delegated move, whose
 * key comes from a certificate) it checks the signature itself.  So the
 * audit's verdict and the first fault it reports are the same as a walk
 * that checks everything in order on one thread.
 */
#ifndef PBEM_VERIFIER_H
#define PBEM_VERIFIER_H

#include <stddef.h>

#include "store.h"

struct verifier;

/* Start checking entries[0..n) (server_pub: 32 bytes).  The entries
 * and the key must stay as they are until verifier_stop().  NULL if no
 * thread could be started: then the calls below check on the spot. */
struct verifier *verifier_start(const struct store_entry *entries,
	    size_t n, const unsigned char *server_pub);
/* Does entry i's receipt verify?  Waits for the workers if needed. */
int	verifier_receipt_ok(struct verifier *v,
	    const struct store_entry *entries, size_t i,
	    const unsigned char *server_pub);
/* Does entry i's own signature verify with key (32 bytes)?  1 or 0 when
 * the workers checked it with that very key; -1 when they did not (the
 * caller checks it itself). */
int	verifier_signature_ok(struct verifier *v, size_t i,
	    const unsigned char *key);
/* Stop the workers (where they are) and free v.  NULL is fine. */
void	verifier_stop(struct verifier *v);

/* One receipt, checked on the calling thread. */
int	receipt_verifies(const struct store_entry *e,
	    const unsigned char *server_pub);
/* The signature of a move entry (move, hosted, automatic, bot,
 * delegated) over its canonical block, checked with key. */
int	move_entry_verifies(const struct store_entry *e,
	    const unsigned char *key);

#endif /* PBEM_VERIFIER_H */
