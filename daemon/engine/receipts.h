/*
 * receipts.h -- the server's receipts of a log verified on a second
 * thread while the audit walks the log (engine-internal; audit.c).
 *
 * A receipt is the server's signature over (game, seq, seat, entry
 * hash): checking it needs nothing from the entries before, so the
 * receipts of a whole log can be checked in any order beside the walk,
 * which must go in order (links, keys handed over by replacements, the
 * replay).  On a 2-core machine this takes one of the two Ed25519
 * verifications of every entry off the walk.  The walk still reports the
 * first fault in log order: it asks receipts_ok() for entry i when it
 * reaches it, waiting if the checker has not got there yet.
 */
#ifndef PBEM_RECEIPTS_H
#define PBEM_RECEIPTS_H

#include <stddef.h>

#include "store.h"

struct receipt_checker;

/* Start checking the receipts of entries[0..n) against server_pub
 * (32 bytes).  The entries must stay as they are until receipts_stop().
 * NULL if no thread can be started: then receipts_ok() checks inline. */
struct receipt_checker *receipts_start(const struct store_entry *entries,
	    size_t n, const unsigned char *server_pub);
/* Does entry i's receipt verify?  Waits for the checker if needed; with
 * c NULL, checks entries[i] here. */
int	receipts_ok(struct receipt_checker *c,
	    const struct store_entry *entries, size_t i,
	    const unsigned char *server_pub);
/* Stop the checker (where it is) and free it.  NULL is fine. */
void	receipts_stop(struct receipt_checker *c);

/* One receipt, checked on the calling thread. */
int	receipt_verifies(const struct store_entry *e,
	    const unsigned char *server_pub);

#endif /* PBEM_RECEIPTS_H */
