/*
 * ratelimit.c -- see ratelimit.h.
 *
 * A chained hash table keyed with SipHash (libsodium's crypto_shorthash)
 * under a random key, so that no client can choose names that pile into
 * one chain.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "ratelimit.h"

/* After a sweep that freed nothing, wait this long before the next. */
#define SWEEP_PAUSE	1.0

struct bucket {
	struct bucket	*next;
	size_t		 len;
	unsigned char	 name[RATELIMIT_NAME_MAX];
	double		 tokens;
	double		 last;		/* when tokens was computed */
};

struct ratelimit {
	pthread_mutex_t	 mutex;
	struct bucket	**chains;
	size_t		 nchains;	/* a power of two */
	size_t		 count, max;
	struct bucket	 overflow;	/* shared by names with no room */
	double		 next_sweep;
	unsigned char	 hash_key[crypto_shorthash_KEYBYTES];
};

struct ratelimit *
ratelimit_new(size_t max_names)
{
	struct ratelimit *rl;

	if (max_names == 0)
		max_names = 1;
	if ((rl = calloc(1, sizeof(*rl))) == NULL)
		return NULL;
	rl->max = max_names;
	for (rl->nchains = 16; rl->nchains < max_names / 2; rl->nchains *= 2)
		;
	if ((rl->chains = calloc(rl->nchains, sizeof(*rl->chains))) ==
	    NULL) {
		free(rl);
		return NULL;
	}
	pthread_mutex_init(&rl->mutex, NULL);
	randombytes_buf(rl->hash_key, sizeof(rl->hash_key));
	rl->overflow.tokens = -1;	/* filled on first use */
	return rl;
}

void
ratelimit_free(struct ratelimit *rl)
{
	struct bucket *b, *next;
	size_t i;

	if (rl == NULL)
		return;
	for (i = 0; i < rl->nchains; i++)
		for (b = rl->chains[i]; b != NULL; b = next) {
			next = b->next;
			free(b);
		}
	pthread_mutex_destroy(&rl->mutex);
	free(rl->chains);
	free(rl);
}

size_t
ratelimit_size(struct ratelimit *rl)
{
	size_t n;

	pthread_mutex_lock(&rl->mutex);
	n = rl->count;
	pthread_mutex_unlock(&rl->mutex);
	return n;
}

/* Bring b's tokens up to time now. */
static void
refill(struct bucket *b, double rate, double burst, double now)
{
	if (b->tokens < 0) {		/* a new bucket starts full */
		b->tokens = burst;
		b->last = now;
		return;
	}
	if (now > b->last) {
		b->tokens += (now - b->last) * rate;
		b->last = now;
	}
	if (b->tokens > burst)
		b->tokens = burst;
}

/* Drop every bucket that is full again; called with the mutex held. */
static void
sweep(struct ratelimit *rl, double rate, double burst, double now)
{
	struct bucket **link, *b;
	size_t i;

	for (i = 0; i < rl->nchains; i++) {
		link = &rl->chains[i];
		while ((b = *link) != NULL) {
			refill(b, rate, burst, now);
			if (b->tokens >= burst) {
				*link = b->next;
				free(b);
				rl->count--;
			} else
				link = &b->next;
		}
	}
}

/* The bucket for name, made if need be (or the overflow bucket); called
 * with the mutex held. */
static struct bucket *
find(struct ratelimit *rl, const unsigned char *name, size_t len,
    double rate, double burst, double now)
{
	unsigned char hash[crypto_shorthash_BYTES];
	struct bucket *b;
	uint64_t h;
	size_t i;

	crypto_shorthash(hash, name, len, rl->hash_key);
	memcpy(&h, hash, sizeof(h));
	i = (size_t)(h & (rl->nchains - 1));
	for (b = rl->chains[i]; b != NULL; b = b->next)
		if (b->len == len && memcmp(b->name, name, len) == 0)
			return b;
	if (rl->count >= rl->max && now >= rl->next_sweep) {
		sweep(rl, rate, burst, now);
		if (rl->count >= rl->max)
			rl->next_sweep = now + SWEEP_PAUSE;
	}
	if (rl->count >= rl->max || (b = calloc(1, sizeof(*b))) == NULL)
		return &rl->overflow;
	b->len = len;
	memcpy(b->name, name, len);
	b->tokens = -1;
	b->next = rl->chains[i];
	rl->chains[i] = b;
	rl->count++;
	return b;
}

static int
ask(struct ratelimit *rl, const void *name, size_t len, double rate,
    double burst, double now, double *wait, int take)
{
	struct bucket *b;
	int allowed;

	*wait = 0;
	if (rate <= 0)
		return 1;
	if (burst < 1)
		burst = 1;
	if (len > RATELIMIT_NAME_MAX)
		len = RATELIMIT_NAME_MAX;
	pthread_mutex_lock(&rl->mutex);
	b = find(rl, name, len, rate, burst, now);
	refill(b, rate, burst, now);
	if ((allowed = b->tokens >= 1)) {
		if (take)
			b->tokens -= 1;
	} else
		*wait = (1 - b->tokens) / rate;
	pthread_mutex_unlock(&rl->mutex);
	return allowed;
}

int
ratelimit_take(struct ratelimit *rl, const void *name, size_t len,
    double rate, double burst, double now, double *wait)
{
	return ask(rl, name, len, rate, burst, now, wait, 1);
}

int
ratelimit_peek(struct ratelimit *rl, const void *name, size_t len,
    double rate, double burst, double now, double *wait)
{
	return ask(rl, name, len, rate, burst, now, wait, 0);
}
