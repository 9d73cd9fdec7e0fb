/*
 * reqsig.c -- canonical bytes, signing, verifying and the Authorization
 * header of signed HTTP requests (see reqsig.h; docs/PROTOCOL.md).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "reqsig.h"

int
reqsig_valid_player(const char *name)
{
	size_t n = 0;

	for (; name[n] != '\0'; n++)
		if (!isalnum((unsigned char)name[n]) && name[n] != '.' &&
		    name[n] != '-' && name[n] != '_')
			return 0;
	return n >= 1 && n < REQSIG_PLAYER_MAX;
}

static int
valid_nonce(const char *nonce)
{
	size_t n = 0;

	for (; nonce[n] != '\0'; n++)
		if (!isalnum((unsigned char)nonce[n]) && nonce[n] != '-' &&
		    nonce[n] != '_')
			return 0;
	return n < REQSIG_NONCE_MAX;
}

static int
valid_method(const char *method)
{
	size_t n = 0;

	for (; method[n] != '\0'; n++)
		if (method[n] < 'A' || method[n] > 'Z')
			return 0;
	return n >= 1 && n < REQSIG_METHOD_MAX;
}

static int
valid_target(const char *target)
{
	size_t n = 0;

	if (target[0] != '/')
		return 0;
	for (; target[n] != '\0'; n++)
		if ((unsigned char)target[n] < 0x21 ||
		    (unsigned char)target[n] > 0x7e)
			return 0;
	return n < REQSIG_TARGET_MAX;
}

size_t
reqsig_canonical(int version, const char *player, const char *method,
    const char *target, int64_t time, const char *nonce, const void *body,
    size_t body_len, unsigned char *buf, size_t buflen)
{
	unsigned char hash[32];
	char hex[65];
	int n;

	if (!reqsig_valid_player(player) || !valid_method(method) ||
	    !valid_target(target) || !valid_nonce(nonce) || time < 0)
		return 0;
	if (version == REQSIG_V1_BLAKE2B)
		crypto_generichash(hash, sizeof(hash), body, body_len, NULL, 0);
	else if (version == REQSIG_V2_SHA256)
		crypto_hash_sha256(hash, body, body_len);
	else
		return 0;
	proto_hex(hash, sizeof(hash), hex);
	n = snprintf((char *)buf, buflen, "pbem-request-v%d\nplayer: %s\n"
	    "method: %s\ntarget: %s\ntime: %lld\nnonce: %s\nbody: %s\n",
	    version, player, method, target, (long long)time, nonce, hex);
	if (n < 0 || (size_t)n >= buflen)
		return 0;
	return (size_t)n;
}

int
reqsig_sign(int version, const char *player, const char *method,
    const char *target, int64_t time, const char *nonce, const void *body,
    size_t body_len, const unsigned char seckey[PROTO_SECKEY_BYTES],
    char *header, size_t headerlen)
{
	unsigned char buf[REQSIG_CANONICAL_MAX], sig[PROTO_SIG_BYTES];
	char b64[sodium_base64_ENCODED_LEN(PROTO_SIG_BYTES,
	    sodium_base64_VARIANT_ORIGINAL)];
	size_t len;
	int n;

	len = reqsig_canonical(version, player, method, target, time, nonce,
	    body, body_len, buf, sizeof(buf));
	if (len == 0)
		return -1;
	crypto_sign_detached(sig, NULL, buf, len, seckey);
	sodium_bin2base64(b64, sizeof(b64), sig, sizeof(sig),
	    sodium_base64_VARIANT_ORIGINAL);
	n = snprintf(header, headerlen, "%s player=%s, time=%lld, %s%s%s"
	    "%ssignature=%s", REQSIG_SCHEME, player, (long long)time,
	    *nonce != '\0' ? "nonce=" : "", nonce, *nonce != '\0' ? ", " : "",
	    version == REQSIG_V2_SHA256 ? "version=2, " : "", b64);
	return n < 0 || (size_t)n >= headerlen ? -1 : 0;
}

#define HEADER_FORM "expected: Authorization: PBEM-Ed25519 player=NAME, " \
	"time=UNIX-SECONDS, nonce=RANDOM (optional), version=2 (optional), " \
	"signature=BASE64 (docs/API.md)"

/* Copy at most 40 bytes of s, anything but printable ASCII as '?'. */
static void
quote(const char *s, size_t n, char *out, size_t outlen)
{
	size_t i;

	if (n > 40)
		n = 40;
	for (i = 0; i < n && i + 1 < outlen; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	out[i] = '\0';
}

static int
parse_time(const char *v, size_t n, int64_t *out)
{
	int64_t t = 0;
	size_t i;

	if (n == 0 || n > 18 || (v[0] == '0' && n > 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		t = t * 10 + (v[i] - '0');
	}
	*out = t;
	return 0;
}

enum proto_status
reqsig_parse_header(const char *value, struct reqsig *rs, char *err,
    size_t errlen)
{
	const char *p = value, *name, *v;
	size_t namelen, vlen, slen = strlen(REQSIG_SCHEME), bin_len;
	int seen_player = 0, seen_time = 0, seen_sig = 0, seen_nonce = 0;
	int seen_version = 0;
	char shown[48];
	const char *end;

	memset(rs, 0, sizeof(*rs));
	rs->version = REQSIG_V1_BLAKE2B;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncasecmp(p, REQSIG_SCHEME, slen) != 0 ||
	    (p[slen] != ' ' && p[slen] != '\t' && p[slen] != '\0')) {
		quote(p, strcspn(p, " \t"), shown, sizeof(shown));
		snprintf(err, errlen, "the Authorization scheme \"%s\" is not "
		    "understood; " HEADER_FORM, shown);
		return PROTO_MALFORMED;
	}
	p += slen;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		name = p;
		namelen = strcspn(p, "= \t,");
		if (namelen == 0 || p[namelen] != '=') {
			quote(name, strcspn(p, ","), shown, sizeof(shown));
			snprintf(err, errlen, "\"%s\" in the Authorization "
			    "header is not name=value; " HEADER_FORM, shown);
			return PROTO_MALFORMED;
		}
		v = p + namelen + 1;
		vlen = strcspn(v, ", \t");
		end = v + vlen;
		while (*end == ' ' || *end == '\t')
			end++;
		if (*end != ',' && *end != '\0') {
			snprintf(err, errlen, "parameters of the Authorization "
			    "header are separated by commas; " HEADER_FORM);
			return PROTO_MALFORMED;
		}
		if (namelen == 6 && strncasecmp(name, "player", 6) == 0) {
			if (seen_player++)
				goto twice;
			if (vlen == 0 || vlen >= sizeof(rs->player))
				goto bad_player;
			memcpy(rs->player, v, vlen);
			if (!reqsig_valid_player(rs->player))
				goto bad_player;
		} else if (namelen == 4 && strncasecmp(name, "time", 4) == 0) {
			if (seen_time++)
				goto twice;
			if (parse_time(v, vlen, &rs->time) != 0) {
				quote(v, vlen, shown, sizeof(shown));
				snprintf(err, errlen, "time=\"%s\" is not a "
				    "time in unix seconds (decimal digits)",
				    shown);
				return PROTO_MALFORMED;
			}
		} else if (namelen == 5 && strncasecmp(name, "nonce", 5) == 0) {
			if (seen_nonce++)
				goto twice;
			if (vlen == 0 || vlen >= sizeof(rs->nonce))
				goto bad_nonce;
			memcpy(rs->nonce, v, vlen);
			if (!valid_nonce(rs->nonce))
				goto bad_nonce;
		} else if (namelen == 7 &&
		    strncasecmp(name, "version", 7) == 0) {
			if (seen_version++)
				goto twice;
			if (vlen != 1 || (v[0] != '1' && v[0] != '2')) {
				quote(v, vlen, shown, sizeof(shown));
				snprintf(err, errlen, "version=\"%s\" is not a "
				    "version of the signed request: 1 (body "
				    "hash BLAKE2b-256, the default) or 2 (body "
				    "hash SHA-256)", shown);
				return PROTO_MALFORMED;
			}
			rs->version = v[0] - '0';
		} else if (namelen == 9 &&
		    strncasecmp(name, "signature", 9) == 0) {
			if (seen_sig++)
				goto twice;
			if (sodium_base642bin(rs->signature,
			    sizeof(rs->signature), v, vlen, NULL, &bin_len,
			    NULL, sodium_base64_VARIANT_ORIGINAL) != 0 ||
			    bin_len != sizeof(rs->signature)) {
				snprintf(err, errlen, "signature= is not the "
				    "base64 of a 64-byte Ed25519 signature "
				    "(88 characters ending in ==)");
				return PROTO_MALFORMED;
			}
		} else {
			quote(name, namelen, shown, sizeof(shown));
			snprintf(err, errlen, "unknown parameter \"%s\" in the "
			    "Authorization header; " HEADER_FORM, shown);
			return PROTO_MALFORMED;
		}
		p = *end == ',' ? end + 1 : end;
	}
	if (!seen_player || !seen_time || !seen_sig) {
		snprintf(err, errlen, "the Authorization header has no %s=; "
		    HEADER_FORM, !seen_player ? "player" : !seen_time ? "time" :
		    "signature");
		return PROTO_MALFORMED;
	}
	return PROTO_OK;

twice:
	quote(name, namelen, shown, sizeof(shown));
	snprintf(err, errlen, "%s= appears twice in the Authorization header",
	    shown);
	return PROTO_MALFORMED;
bad_nonce:
	quote(v, vlen, shown, sizeof(shown));
	snprintf(err, errlen, "nonce=\"%s\" is not a nonce (1-64 letters, "
	    "digits, '-' or '_')", shown);
	return PROTO_MALFORMED;
bad_player:
	quote(v, vlen, shown, sizeof(shown));
	snprintf(err, errlen, "player=\"%s\" is not a player name (1-63 "
	    "letters, digits, '.', '-' or '_')", shown);
	return PROTO_MALFORMED;
}

enum proto_status
reqsig_verify(const struct reqsig *rs, const char *method,
    const char *target, const void *body, size_t body_len,
    const unsigned char pubkey[PROTO_PUBKEY_BYTES])
{
	unsigned char buf[REQSIG_CANONICAL_MAX];
	size_t len;

	len = reqsig_canonical(rs->version, rs->player, method, target,
	    rs->time, rs->nonce, body, body_len, buf, sizeof(buf));
	if (len == 0)
		return PROTO_MALFORMED;
	if (crypto_sign_verify_detached(rs->signature, buf, len, pubkey) != 0)
		return PROTO_BAD_SIGNATURE;
	return PROTO_OK;
}
