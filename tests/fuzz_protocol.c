/*
 * fuzz_protocol.c -- libFuzzer harness for every parser in protocol.c.
 *
 * Not built by default; docs/PROTOCOL.md ("Fuzzing") says how to build
 * and run it.  Besides "does not crash, does not read out of bounds",
 * it checks properties that must hold for every input:
 *
 *   - a block that is found re-armours, and the armour is found again
 *     as exactly the same move or receipt;
 *   - cleaning text twice changes nothing the second time, and cleaned
 *     text can always be encoded;
 *   - a key that parses formats back to text that parses to the same key.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "protocol.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_move(const char *text, size_t len)
{
	struct proto_move	m, again;
	char			armour[PROTO_ARMOUR_MAX], err[256];
	size_t			n;

	if (proto_move_find(text, len, &m, err, sizeof(err)) != PROTO_OK)
		return;
	if ((n = proto_move_armour(&m, armour, sizeof(armour))) == 0)
		abort();
	if (proto_move_find(armour, n, &again, err, sizeof(err)) != PROTO_OK)
		abort();
	if (memcmp(&m, &again, sizeof(m)) != 0)
		abort();
}

static void
check_receipt(const char *text, size_t len)
{
	struct proto_receipt	r, again;
	char			armour[PROTO_ARMOUR_MAX], err[256];
	size_t			n;

	if (proto_receipt_find(text, len, &r, err, sizeof(err)) != PROTO_OK)
		return;
	if ((n = proto_receipt_armour(&r, armour, sizeof(armour))) == 0)
		abort();
	if (proto_receipt_find(armour, n, &again, err, sizeof(err)) !=
	    PROTO_OK)
		abort();
	if (memcmp(&r, &again, sizeof(r)) != 0)
		abort();
}

static void
check_clean(char *s)
{
	struct proto_move	m;
	unsigned char		buf[PROTO_CANONICAL_MAX];
	char			copy[PROTO_MOVE_MAX + 1];

	if (proto_clean_text(s, NULL, 0) != PROTO_OK)
		return;
	memcpy(copy, s, strlen(s) + 1);
	if (proto_clean_text(copy, NULL, 0) != PROTO_OK ||
	    strcmp(copy, s) != 0)
		abort();
	memset(&m, 0, sizeof(m));
	memcpy(m.text, s, strlen(s) + 1);
	if (proto_move_canonical(&m, buf, sizeof(buf)) == 0)
		abort();
}

static void
check_keys(const char *s)
{
	unsigned char	pk[PROTO_PUBKEY_BYTES], pk2[PROTO_PUBKEY_BYTES];
	unsigned char	sk[PROTO_SECKEY_BYTES], sk2[PROTO_SECKEY_BYTES];
	unsigned char	hash[PROTO_HASH_BYTES];
	char		text[PROTO_KEY_TEXT_MAX], err[256];

	if (proto_pubkey_parse(s, pk, err, sizeof(err)) == PROTO_OK) {
		if (proto_pubkey_format(pk, text, sizeof(text)) == 0 ||
		    proto_pubkey_parse(text, pk2, NULL, 0) != PROTO_OK ||
		    memcmp(pk, pk2, sizeof(pk)) != 0)
			abort();
	}
	if (proto_seckey_parse(s, sk, err, sizeof(err)) == PROTO_OK) {
		if (proto_seckey_format(sk, text, sizeof(text)) == 0 ||
		    proto_seckey_parse(text, sk2, NULL, 0) != PROTO_OK ||
		    memcmp(sk, sk2, sizeof(sk)) != 0)
			abort();
	}
	(void)proto_unhex(s, hash, sizeof(hash));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s;

	if (sodium_init() < 0)
		abort();
	/* The finders take a length: give them the bytes as they are, so
	 * that any read past the end is caught. */
	check_move((const char *)data, size);
	check_receipt((const char *)data, size);

	/* The rest take C strings. */
	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	check_keys(s);
	check_clean(s);
	free(s);
	return 0;
}
