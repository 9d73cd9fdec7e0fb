/*
 * chain.h -- the hash chain of a game's log, and the state hash.
 *
 * Each log entry's hash covers the previous entry's hash and every field
 * of the entry as a typed, versioned binary record (docs/LOG.md gives the
 * exact bytes), so changing any byte of any stored entry -- move text,
 * signature, state hash, time -- changes that entry's hash and breaks the
 * link to the next one.  The server's receipt is its signature over the
 * entry hash.  The state hash binds a snapshot (the rule module's saved
 * state as compact JSON with sorted keys) to the entry after which it was
 * taken.
 */
#ifndef PBEM_CHAIN_H
#define PBEM_CHAIN_H

#include <jansson.h>

#include "store.h"

#define CHAIN_VERSION 1

/* The hash of e (prev_hash included; e->hash and e->receipt excluded). */
void	chain_entry_hash(const struct store_entry *e,
	    unsigned char hash[STORE_HASH_BYTES]);
/* The canonical text of a saved state (malloc'd), and its hash. */
char   *chain_state_text(const json_t *saved);
void	chain_state_hash(const char *state_text,
	    unsigned char hash[STORE_HASH_BYTES]);

#endif /* PBEM_CHAIN_H */
