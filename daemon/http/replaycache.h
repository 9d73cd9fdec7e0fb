/*
 * replaycache.h -- the signatures of signed requests seen recently, so
 * that a request sent twice is refused the second time.
 *
 * A signature is remembered until its request's time is older than the
 * widest validity window ever asked for (http_auth_window may change by
 * SIGHUP); after that the window refuses the request.  Forgetting raises
 * a floor, and a request signed before the floor is refused as too old
 * even if a window widened since would take it: nothing forgotten can
 * be played again.  The cache is in memory
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

#define REPLAYCACHE_TOO_OLD	2

/* Remember sig, of a request signed for time (unix seconds) and checked
 * against a window of `window' seconds.  Returns 0 if it was new, 1 if
 * it was already there (a replay), REPLAYCACHE_TOO_OLD if time is before
 * replaycache_floor() (it may have been forgotten: refuse it), -1 if out
 * of memory (the caller refuses the request: it cannot prove it is not a
 * replay).  Entries older than now minus the widest window seen are
 * dropped along the way. */
int	replaycache_check_and_add(struct replaycache *rc,
	    const unsigned char sig[64], int64_t time, int64_t window,
	    int64_t now);
/* The oldest request time the set still answers for (INT64_MIN until
 * the first sweep). */
int64_t	replaycache_floor(struct replaycache *rc);
/* Sweep now (tests; the set also sweeps by itself as it grows). */
void	replaycache_sweep(struct replaycache *rc, int64_t now);

/* How many signatures are remembered now (for tests and metrics). */
size_t	replaycache_size(struct replaycache *rc);

#endif /* PBEM_REPLAYCACHE_H */
