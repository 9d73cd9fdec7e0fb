/*
 * rng.h -- the deterministic random stream behind struct rules_rng, and
 * the per-game secret seed with its public commitment.
 *
 * Each game has a 32-byte secret seed.  Its commitment, BLAKE2b-256 of the
 * seed, is published when the game is created; the seed itself when the
 * game ends.  Every shuffle and die roll of a game comes from the stream
 * for one step: step 0 is setup, step n is the move with sequence number
 * n.  The stream for a step is ChaCha20 (IETF) keyed with
 * BLAKE2b-256(key = seed, message = "pbem-rng-v1" || u64be(step)), nonce
 * zero -- so anyone holding the revealed seed can re-run every draw
 * (docs/PROTOCOL.md, with test vectors).
 *
 * rules_rng_below() (rejection sampling) and rules_rng_shuffle()
 * (Fisher-Yates from the last index down), declared in rules.h, are
 * implemented in rng.c on this stream; PROTOCOL.md fixes how many words
 * each consumes.  The core calls sodium_init() once at start-up;
 * rng_seed_generate() also calls it (idempotent) and aborts if the system
 * has no random source.
 */
#ifndef PBEM_RNG_H
#define PBEM_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"

#define RNG_SEED_BYTES	32
#define RNG_HASH_BYTES	32

struct rules_rng {
	unsigned char	key[32];
	uint32_t	block;		/* next ChaCha20 block counter */
	unsigned char	buf[64];	/* current keystream block */
	size_t		used;		/* bytes of buf already consumed */
};

/* A fresh secret seed from the system's random source. */
void	rng_seed_generate(unsigned char seed[RNG_SEED_BYTES]);
/* The public commitment to a seed. */
void	rng_seed_commit(const unsigned char seed[RNG_SEED_BYTES],
	    unsigned char commitment[RNG_HASH_BYTES]);
/* Position rng at the start of the stream for step. */
void	rng_init(struct rules_rng *rng, const unsigned char seed[RNG_SEED_BYTES],
	    uint64_t step);
/* Position rng at the start of the bot's stream for step: the choice a
 * server-played seat makes for the entry of sequence number step draws
 * from BLAKE2b-256(key = seed, "pbem-bot-v1" || u64be(step)) instead,
 * so it never shares numbers with the move's own stream (docs/PROTOCOL.md,
 * docs/SERVER-BOTS.md). */
void	rng_init_bot(struct rules_rng *rng,
	    const unsigned char seed[RNG_SEED_BYTES], uint64_t step);
/* The next 32-bit word of the stream (little-endian bytes). */
uint32_t rng_next32(struct rules_rng *rng);

#endif /* PBEM_RNG_H */
