/*
 * rng.c -- the deterministic random stream (rng.h) and the two draws rule
 * modules make from it (rules.h): rules_rng_below and rules_rng_shuffle.
 *
 * docs/PROTOCOL.md ("The random stream") specifies every step, so that a
 * player holding the revealed seed can re-run each draw in another
 * language.  Nothing here may change without a new "pbem-rng-vN" label:
 * recorded games replay through it.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "rng.h"

static const char rng_label[] = "pbem-rng-v1";	/* 11 bytes, no NUL */
static const char bot_label[] = "pbem-bot-v1";	/* the bots' choices */

void
rng_seed_generate(unsigned char seed[RNG_SEED_BYTES])
{
	if (sodium_init() < 0)
		abort();	/* no random source: nothing safe to do */
	randombytes_buf(seed, RNG_SEED_BYTES);
}

void
rng_seed_commit(const unsigned char seed[RNG_SEED_BYTES],
    unsigned char commitment[RNG_HASH_BYTES])
{
	crypto_generichash(commitment, RNG_HASH_BYTES, seed, RNG_SEED_BYTES,
	    NULL, 0);
}

/* The stream keyed by BLAKE2b-256(key = seed, label || u64be(step)). */
static void
rng_init_label(struct rules_rng *rng, const unsigned char seed[RNG_SEED_BYTES],
    const char *label, uint64_t step)
{
	unsigned char	msg[32 + 8];
	size_t		i, n = strlen(label);

	memcpy(msg, label, n);
	for (i = 0; i < 8; i++)
		msg[n + i] = (unsigned char)(step >> (56 - 8 * i));
	memset(rng, 0, sizeof(*rng));
	crypto_generichash(rng->key, sizeof(rng->key), msg, n + 8,
	    seed, RNG_SEED_BYTES);
	rng->block = 0;
	rng->used = sizeof(rng->buf);	/* no block generated yet */
}

void
rng_init(struct rules_rng *rng, const unsigned char seed[RNG_SEED_BYTES],
    uint64_t step)
{
	rng_init_label(rng, seed, rng_label, step);
}

void
rng_init_bot(struct rules_rng *rng, const unsigned char seed[RNG_SEED_BYTES],
    uint64_t step)
{
	rng_init_label(rng, seed, bot_label, step);
}

/* The next 64 bytes of keystream: ChaCha20 block number rng->block. */
static void
rng_refill(struct rules_rng *rng)
{
	static const unsigned char nonce[crypto_stream_chacha20_ietf_NONCEBYTES];

	/* 2^32 - 1 blocks (256 GiB) per step; more would repeat the stream. */
	assert(rng->block != UINT32_MAX);
	memset(rng->buf, 0, sizeof(rng->buf));
	crypto_stream_chacha20_ietf_xor_ic(rng->buf, rng->buf,
	    sizeof(rng->buf), nonce, rng->block, rng->key);
	rng->block++;
	rng->used = 0;
}

uint32_t
rng_next32(struct rules_rng *rng)
{
	const unsigned char	*p;

	if (rng->used + 4 > sizeof(rng->buf))
		rng_refill(rng);
	p = rng->buf + rng->used;
	rng->used += 4;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * A uniform integer in [0, bound): draw words w until w < 2^32 - r, where
 * r = 2^32 mod bound, and answer w mod bound.  The accepted range holds
 * an exact multiple of bound values, so every answer is equally likely.
 * Each attempt consumes one word; bound = 1 still consumes one.
 */
uint32_t
rules_rng_below(struct rules_rng *rng, uint32_t bound)
{
	uint32_t	r, w;

	assert(bound >= 1);
	r = (uint32_t)(0 - bound) % bound;	/* 2^32 mod bound */
	do
		w = rng_next32(rng);
	while (w > UINT32_MAX - r);
	return w % bound;
}

/* Fisher-Yates from the last index down: for i = n-1 .. 1, swap items[i]
 * with items[below(i + 1)].  n - 1 draws; none for n < 2. */
void
rules_rng_shuffle(struct rules_rng *rng, int *items, size_t n)
{
	size_t		i;
	uint32_t	j;
	int		t;

	assert(n <= (size_t)UINT32_MAX);
	for (i = n; i > 1; i--) {
		j = rules_rng_below(rng, (uint32_t)i);
		t = items[i - 1];
		items[i - 1] = items[j];
		items[j] = t;
	}
}
