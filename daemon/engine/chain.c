/*
 * chain.c -- hashing log entries and states (see chain.h, docs/LOG.md).
 */
#include <stdint.h>
#include <string.h>

#include <sodium.h>

#include "chain.h"

static void
put_u64(crypto_generichash_state *h, uint64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 7; i >= 0; i--) {
		b[i] = (unsigned char)(v & 0xff);
		v >>= 8;
	}
	crypto_generichash_update(h, b, sizeof(b));
}

void
chain_entry_hash(const struct store_entry *e,
    unsigned char hash[STORE_HASH_BYTES])
{
	static const char domain[] = "pbem-log-v1";
	crypto_generichash_state h;
	size_t textlen = e->text ? strlen(e->text) : 0;

	crypto_generichash_init(&h, NULL, 0, STORE_HASH_BYTES);
	crypto_generichash_update(&h, (const unsigned char *)domain,
	    sizeof(domain));			/* with its NUL */
	crypto_generichash_update(&h, e->prev_hash, STORE_HASH_BYTES);
	put_u64(&h, (uint64_t)e->game_id);
	put_u64(&h, (uint64_t)e->seq);
	put_u64(&h, (uint64_t)e->kind);
	put_u64(&h, (uint64_t)(int64_t)e->seat);	/* -1 is all ones */
	put_u64(&h, (uint64_t)e->time);
	put_u64(&h, (uint64_t)textlen);
	crypto_generichash_update(&h, (const unsigned char *)e->text, textlen);
	crypto_generichash_update(&h, e->signature, STORE_SIG_BYTES);
	crypto_generichash_update(&h, e->state_hash, STORE_HASH_BYTES);
	crypto_generichash_final(&h, hash, STORE_HASH_BYTES);
}

char *
chain_state_text(const json_t *saved)
{
	return json_dumps(saved, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_ENSURE_ASCII);
}

void
chain_state_hash(const char *state_text, unsigned char hash[STORE_HASH_BYTES])
{
	static const char domain[] = "pbem-state-v1";
	crypto_generichash_state h;

	crypto_generichash_init(&h, NULL, 0, STORE_HASH_BYTES);
	crypto_generichash_update(&h, (const unsigned char *)domain,
	    sizeof(domain));
	crypto_generichash_update(&h, (const unsigned char *)state_text,
	    strlen(state_text));
	crypto_generichash_final(&h, hash, STORE_HASH_BYTES);
}
