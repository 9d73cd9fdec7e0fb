/*
 * replaycache.c -- a hash set of recent request signatures with expiry
 * (see replaycache.h).  Chained buckets under one mutex; the expired
 * entries are swept whenever the set has grown by half since the last
 * sweep, so memory stays proportional to the requests of one window.
 *
 * A sweep forgets the signatures whose time is older than now minus the
 * widest window ever asked for, and raises the floor to that point: a
 * request older than the floor is refused (REPLAYCACHE_TOO_OLD) whatever
 * the window is now, because the set may no longer know it.  So a window
 * widened later (SIGHUP) cannot bring back a request already forgotten.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "replaycache.h"

#define NBUCKETS	4096

struct seen {
	struct seen	*next;
	int64_t		 time;		/* the request's signed time */
	unsigned char	 sig[64];
};

struct replaycache {
	pthread_mutex_t	 lock;
	struct seen	*bucket[NBUCKETS];
	size_t		 count;
	size_t		 sweep_at;	/* sweep when count reaches this */
	int64_t		 max_window;	/* the widest window asked for */
	int64_t		 floor;		/* times before it may be forgotten */
};

struct replaycache *
replaycache_new(void)
{
	struct replaycache *rc = calloc(1, sizeof(*rc));

	if (rc == NULL)
		return NULL;
	pthread_mutex_init(&rc->lock, NULL);
	rc->sweep_at = 1024;
	rc->floor = INT64_MIN;
	return rc;
}

void
replaycache_free(struct replaycache *rc)
{
	struct seen *s, *next;
	size_t i;

	if (rc == NULL)
		return;
	for (i = 0; i < NBUCKETS; i++)
		for (s = rc->bucket[i]; s != NULL; s = next) {
			next = s->next;
			free(s);
		}
	pthread_mutex_destroy(&rc->lock);
	free(rc);
}

/* Signatures are uniformly random bytes: the first four index well. */
static size_t
bucket_of(const unsigned char sig[64])
{
	return ((size_t)sig[0] | (size_t)sig[1] << 8 | (size_t)sig[2] << 16 |
	    (size_t)sig[3] << 24) % NBUCKETS;
}

static void
sweep(struct replaycache *rc, int64_t now)
{
	struct seen **pp, *s;
	int64_t cut = now - rc->max_window;
	size_t i;

	if (cut > rc->floor)
		rc->floor = cut;
	for (i = 0; i < NBUCKETS; i++)
		for (pp = &rc->bucket[i]; (s = *pp) != NULL;) {
			if (s->time < rc->floor) {
				*pp = s->next;
				free(s);
				rc->count--;
			} else
				pp = &s->next;
		}
	rc->sweep_at = rc->count + rc->count / 2 + 1024;
}

int
replaycache_check_and_add(struct replaycache *rc, const unsigned char sig[64],
    int64_t time, int64_t window, int64_t now)
{
	struct seen *s;
	size_t b = bucket_of(sig);
	int found = 0;

	pthread_mutex_lock(&rc->lock);
	if (window > rc->max_window)
		rc->max_window = window;
	if (time < rc->floor) {
		pthread_mutex_unlock(&rc->lock);
		return REPLAYCACHE_TOO_OLD;
	}
	for (s = rc->bucket[b]; s != NULL; s = s->next)
		if (memcmp(s->sig, sig, 64) == 0) {
			found = 1;
			break;
		}
	if (!found) {
		if (rc->count >= rc->sweep_at)
			sweep(rc, now);
		if ((s = malloc(sizeof(*s))) == NULL) {
			pthread_mutex_unlock(&rc->lock);
			return -1;
		}
		memcpy(s->sig, sig, 64);
		s->time = time;
		s->next = rc->bucket[b];
		rc->bucket[b] = s;
		rc->count++;
	}
	pthread_mutex_unlock(&rc->lock);
	return found;
}

size_t
replaycache_size(struct replaycache *rc)
{
	size_t n;

	pthread_mutex_lock(&rc->lock);
	n = rc->count;
	pthread_mutex_unlock(&rc->lock);
	return n;
}

int64_t
replaycache_floor(struct replaycache *rc)
{
	int64_t floor;

	pthread_mutex_lock(&rc->lock);
	floor = rc->floor;
	pthread_mutex_unlock(&rc->lock);
	return floor;
}

void
replaycache_sweep(struct replaycache *rc, int64_t now)
{
	pthread_mutex_lock(&rc->lock);
	sweep(rc, now);
	pthread_mutex_unlock(&rc->lock);
}
