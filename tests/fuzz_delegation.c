/*
 * fuzz_delegation.c -- libFuzzer harness for the delegation certificate
 * and revocation readers (daemon/common/delegation.c):
 * delegation_from_json() and delegation_revocation_from_json().
 *
 * The input is the JSON body as a client (POST /v1/delegations) or a
 * mail (docs/MAIL.md "Delegation") sends it.  Built by `make fuzz`, never
 * by `make check`; tests/fuzz-run.sh runs it for a bounded time, and
 * tests/fuzz-replay.sh once over its seeds.  Besides "does not crash,
 * does not read out of bounds, does not leak", it checks what the
 * readers promise (delegation.h) for every input:
 *
 *   - a refusal always says why (a sentence in err);
 *   - a certificate taken encodes (canonical bytes, an id of 16 hex
 *     digits), and writing it as JSON and reading it back gives the
 *     same certificate, the same canonical bytes and the same id;
 *   - its signature check answers OK or BAD_SIGNATURE, never MALFORMED;
 *   - the same holds for a revocation taken.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "delegation.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A key no input can know: a signature check must fail cleanly. */
static const unsigned char some_key[PROTO_PUBKEY_BYTES] = {
	0x29, 0xac, 0xba, 0xe1, 0x41, 0xbc, 0xca, 0xf0, 0xb2, 0x2e, 0x1a,
	0x94, 0xd3, 0x4d, 0x0b, 0xcf, 0x36, 0x1e, 0x52, 0x6d, 0x0b, 0xfe,
	0x12, 0xc8, 0x97, 0x94, 0xbc, 0x93, 0x22, 0x96, 0x6d, 0xd7
};

static void
certificate(const json_t *root)
{
	unsigned char bytes[DELEGATION_CANONICAL_MAX];
	unsigned char again_bytes[DELEGATION_CANONICAL_MAX];
	char err[512] = "", id[DELEGATION_ID_TEXT], again_id[DELEGATION_ID_TEXT];
	struct delegation d, again;
	enum proto_status vs;
	size_t len, again_len;
	json_t *out;

	if (delegation_from_json(root, &d, 0, err, sizeof(err)) != PROTO_OK) {
		if (err[0] == '\0')
			abort();
		return;
	}
	len = delegation_canonical(&d, bytes, sizeof(bytes));
	if (len == 0 || delegation_id(&d, id) != 0 || strlen(id) != 16 ||
	    !delegation_id_valid(id))
		abort();
	vs = delegation_verify(&d, some_key);
	if (vs != PROTO_OK && vs != PROTO_BAD_SIGNATURE)
		abort();
	if ((out = delegation_to_json(&d)) == NULL)
		abort();
	if (delegation_from_json(out, &again, 0, err, sizeof(err)) != PROTO_OK)
		abort();
	json_decref(out);
	again_len = delegation_canonical(&again, again_bytes,
	    sizeof(again_bytes));
	if (again_len != len || memcmp(bytes, again_bytes, len) != 0 ||
	    memcmp(d.signature, again.signature, sizeof(d.signature)) != 0 ||
	    delegation_id(&again, again_id) != 0 || strcmp(id, again_id) != 0)
		abort();
}

static void
revocation(const json_t *root)
{
	unsigned char bytes[DELEGATION_CANONICAL_MAX];
	unsigned char again_bytes[DELEGATION_CANONICAL_MAX];
	struct delegation_revocation r, again;
	enum proto_status vs;
	char err[512] = "";
	size_t len, again_len;
	json_t *out;

	if (delegation_revocation_from_json(root, &r, 0, err, sizeof(err)) !=
	    PROTO_OK) {
		if (err[0] == '\0')
			abort();
		return;
	}
	len = delegation_revocation_canonical(&r, bytes, sizeof(bytes));
	if (len == 0)
		abort();
	vs = delegation_revocation_verify(&r, some_key);
	if (vs != PROTO_OK && vs != PROTO_BAD_SIGNATURE)
		abort();
	if ((out = delegation_revocation_to_json(&r)) == NULL ||
	    delegation_revocation_from_json(out, &again, 0, err, sizeof(err)) !=
	    PROTO_OK)
		abort();
	json_decref(out);
	again_len = delegation_revocation_canonical(&again, again_bytes,
	    sizeof(again_bytes));
	if (again_len != len || memcmp(bytes, again_bytes, len) != 0 ||
	    memcmp(r.signature, again.signature, sizeof(r.signature)) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *root;

	if (sodium_init() < 0)
		abort();
	/* As the daemon reads a body: duplicate keys refused. */
	root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    NULL);
	/* A body that is not JSON reaches the readers as NULL. */
	certificate(root);
	revocation(root);
	json_decref(root);
	return 0;
}
