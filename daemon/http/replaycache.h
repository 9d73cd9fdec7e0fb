/*
 * replaycache.h -- the signatures of signed requests seen recently, so
 * that a request sent twice is refused the second time.
 *
 * A signature is remembered until the moment its request's time leaves
 * the validity window (its "expires"); after that the window itself
 * refuses the request, so it can be forgotten.  The cache is in memory
 * only: after a restart it is empty, which is why pbemd also refuses
 * request times earlier than its own start (docs/API.md, "Signed
 * requests").  Thread-safe: any HTTP thread may call it.
 */
#ifndef PBEM_REPLAYCACHE_H
#define PBEM_REPLAYCACHE_H

#include <stddef.h>
#include <stdint.h>

struct replaycache;

struct replaycache *replaycache_new(void);
void	replaycache_free(struct replaycache *rc);

/* Remember sig until expires (unix seconds).  Returns 0 if it was new,
 * 1 if it was already there (a replay), -1 if out of memory (the caller
 * refuses the request: it cannot prove it is not a replay).  Entries
 * whose expiry is before now are dropped along the way. */
int	replaycache_check_and_add(struct replaycache *rc,
	    const unsigned char sig[64], int64_t expires, int64_t now);

/* How many signatures are remembered now (for tests and metrics). */
size_t	replaycache_size(struct replaycache *rc);

#endif /* PBEM_REPLAYCACHE_H */
