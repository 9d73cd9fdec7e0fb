/*
 * ratelimit.h -- token buckets by name, with the clock passed in.
 *
 * A table holds one bucket per name (a client address, a player's key:
 * at most RATELIMIT_NAME_MAX bytes).  A bucket holds up to `burst`
 * tokens and gains `rate` tokens a second; each allowed event takes one.
 * A name seen for the first time starts with a full bucket.  The caller
 * passes rate and burst on every call, so new settings (SIGHUP) apply at
 * once, and the time `now` in seconds on any monotonic clock, so tests
 * need no sleeping.
 *
 * Memory is bounded: a table holds at most max_names buckets.  When it is
 * full, buckets that are full again (their name has been quiet long
 * enough to forget) are dropped; if none is, new names share one overflow
 * bucket until room is made, so a flood of new names gets one name's
 * worth of events rather than unbounded memory or unlimited events.
 *
 * All functions are safe to call from any thread (one mutex per table).
 */
#ifndef PBEM_RATELIMIT_H
#define PBEM_RATELIMIT_H

#include <stddef.h>

#define RATELIMIT_NAME_MAX	32

struct ratelimit;

/* A table of at most max_names buckets (at least 1); NULL if out of
 * memory. */
struct ratelimit	*ratelimit_new(size_t max_names);
void			 ratelimit_free(struct ratelimit *rl);

/*
 * May name have one more event at time now?  1: yes, and a token is
 * taken.  0: no; *wait is the number of seconds until a token is there.
 * rate <= 0 means no limit (always 1, nothing is kept).  A name longer
 * than RATELIMIT_NAME_MAX is cut there.
 */
int	ratelimit_take(struct ratelimit *rl, const void *name, size_t len,
	    double rate, double burst, double now, double *wait);
/* The same question without taking the token. */
int	ratelimit_peek(struct ratelimit *rl, const void *name, size_t len,
	    double rate, double burst, double now, double *wait);
/* Buckets held now (the overflow bucket not counted). */
size_t	ratelimit_size(struct ratelimit *rl);

#endif /* PBEM_RATELIMIT_H */
