/*
 * hostedkey.c -- keys the server holds for players who have none of their
 * own (docs/PLAYING.md), and the moves signed with them.
 *
 * The key-encryption key (KEK) is 32 random bytes in a file of its own,
 * mode 0600, by default beside the database ("<database>.kek"), never in
 * the database.  Each hosted secret key is sealed with
 * XChaCha20-Poly1305 (libsodium's AEAD) under the KEK, with the player's
 * id and public key as associated data, so a sealed key copied to
 * another player's row does not open.  A secret key is unsealed only to
 * sign one move, in memory from sodium_malloc(), and wiped at once.
 *
 * The KEK also keys the derivation of reply tokens and sign-up codes
 * (tokens.c), so that the database holds only their hashes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "engine.h"
#include "secretfile.h"

struct hosted_kek {
	unsigned char	k[HOSTED_KEK_BYTES];
};

char *
hosted_kek_path_for(const char *dbpath)
{
	size_t n = strlen(dbpath) + 5;
	char *p = malloc(n);

	if (p != NULL)
		snprintf(p, n, "%s.kek", dbpath);
	return p;
}

static int
read_kek(const char *path, struct hosted_kek *kek, char *err, size_t errlen)
{
	unsigned char buf[HOSTED_KEK_BYTES + 1];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (secretfile_check_mode(fd, path, err, errlen) != 0) {
		close(fd);
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != HOSTED_KEK_BYTES) {
		snprintf(err, errlen, "%s: not a key-encryption key (%d bytes, "
		    "expected %d)", path, (int)n, HOSTED_KEK_BYTES);
		sodium_memzero(buf, sizeof(buf));
		return -1;
	}
	memcpy(kek->k, buf, HOSTED_KEK_BYTES);
	sodium_memzero(buf, sizeof(buf));
	return 0;
}

static int
create_kek(const char *path, struct hosted_kek *kek, char *err,
    size_t errlen)
{
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0) {
		if (errno == EEXIST)	/* another process made it first */
			return read_kek(path, kek, err, errlen);
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	randombytes_buf(kek->k, HOSTED_KEK_BYTES);
	if (write(fd, kek->k, HOSTED_KEK_BYTES) != HOSTED_KEK_BYTES ||
	    fsync(fd) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

struct hosted_kek *
hosted_kek_open(const char *path, int create, char *err, size_t errlen)
{
	struct hosted_kek *kek;
	int rc;

	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return NULL;
	}
	if ((kek = sodium_malloc(sizeof(*kek))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (create && access(path, F_OK) != 0)
		rc = create_kek(path, kek, err, errlen);
	else
		rc = read_kek(path, kek, err, errlen);
	if (rc != 0) {
		sodium_free(kek);
		return NULL;
	}
	return kek;
}

void
hosted_kek_close(struct hosted_kek *kek)
{
	if (kek != NULL)
		sodium_free(kek);
}

void
hosted_kek_derive(const struct hosted_kek *kek, const char *purpose,
    const unsigned char *msg, size_t len, unsigned char *out, size_t outlen)
{
	unsigned char sub[32];

	crypto_generichash(sub, sizeof(sub), (const unsigned char *)purpose,
	    strlen(purpose), kek->k, HOSTED_KEK_BYTES);
	crypto_generichash(out, outlen, msg, len, sub, sizeof(sub));
	sodium_memzero(sub, sizeof(sub));
}

/* The associated data of a sealed key: domain, player id, public key. */
static size_t
seal_ad(int64_t player_id, const unsigned char pk[STORE_KEY_BYTES],
    unsigned char ad[64])
{
	static const char dom[] = "pbem-hosted-key-v1";
	int i;

	memcpy(ad, dom, sizeof(dom));	/* with its NUL: 19 bytes */
	for (i = 0; i < 8; i++)
		ad[sizeof(dom) + i] = (unsigned char)((uint64_t)player_id >>
		    (56 - 8 * i));
	memcpy(ad + sizeof(dom) + 8, pk, STORE_KEY_BYTES);
	return sizeof(dom) + 8 + STORE_KEY_BYTES;
}

enum engine_status
engine_hosted_player_add(struct store *st, const struct hosted_kek *kek,
    struct store_player *p, char *err, size_t errlen)
{
	unsigned char *sk, nonce[STORE_HOSTED_NONCE],
	    sealed[STORE_HOSTED_SEALED], ad[64];
	unsigned long long clen;
	enum store_status rc;
	size_t adlen;

	if ((sk = sodium_malloc(crypto_sign_SECRETKEYBYTES)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return ENGINE_INTERNAL;
	}
	crypto_sign_keypair(p->pubkey, sk);
	if ((rc = store_player_add(st, p)) != STORE_OK) {
		sodium_free(sk);
		if (rc == STORE_EXISTS)
			engine_player_exists_reason(st, p, strcmp(p->lang,
			    "fr") == 0 ? RULES_LANG_FR : RULES_LANG_EN, err,
			    errlen);
		else
			snprintf(err, errlen, "%s", store_errmsg(st));
		return rc == STORE_EXISTS ? ENGINE_BAD_REQUEST :
		    rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
	}
	randombytes_buf(nonce, sizeof(nonce));
	adlen = seal_ad(p->id, p->pubkey, ad);
	crypto_aead_xchacha20poly1305_ietf_encrypt(sealed, &clen, sk,
	    crypto_sign_SECRETKEYBYTES, ad, adlen, NULL, nonce, kek->k);
	sodium_free(sk);
	if (clen != STORE_HOSTED_SEALED) {
		snprintf(err, errlen, "sealed key of %llu bytes", clen);
		return ENGINE_INTERNAL;
	}
	if ((rc = store_hosted_key_put(st, p->id, p->pubkey, nonce,
	    sealed)) != STORE_OK) {
		snprintf(err, errlen, "%s", store_errmsg(st));
		return rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
	}
	return ENGINE_OK;
}

int
engine_player_hosted(struct store *st, const struct store_player *p)
{
	unsigned char pk[STORE_KEY_BYTES], nonce[STORE_HOSTED_NONCE],
	    sealed[STORE_HOSTED_SEALED];

	return store_hosted_key_get(st, p->id, pk, nonce, sealed) ==
	    STORE_OK && sodium_memcmp(pk, p->pubkey, STORE_KEY_BYTES) == 0;
}

/* Sign the len bytes msg with the hosted key of player p (whose active
 * key it must be) into sig. */
static enum engine_status
hosted_sign_bytes(struct store *st, const struct hosted_kek *kek,
    const struct store_player *p, const unsigned char *msg, size_t len,
    unsigned char sig[PROTO_SIG_BYTES], char *err, size_t errlen)
{
	unsigned char pk[STORE_KEY_BYTES], nonce[STORE_HOSTED_NONCE],
	    sealed[STORE_HOSTED_SEALED], ad[64], *sk;
	unsigned long long plen;
	enum store_status rc;
	size_t adlen;

	rc = store_hosted_key_get(st, p->id, pk, nonce, sealed);
	if (rc == STORE_NOTFOUND || (rc == STORE_OK && sodium_memcmp(pk,
	    p->pubkey, STORE_KEY_BYTES) != 0)) {
		snprintf(err, errlen, "%s plays with a key of their own: the "
		    "server holds no key for them and cannot sign for them; "
		    "sign with `pbem sign` or `pbem delegate`", p->name);
		return ENGINE_REFUSED;
	}
	if (rc != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
	}
	if ((sk = sodium_malloc(crypto_sign_SECRETKEYBYTES)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return ENGINE_INTERNAL;
	}
	adlen = seal_ad(p->id, pk, ad);
	if (crypto_aead_xchacha20poly1305_ietf_decrypt(sk, &plen, NULL,
	    sealed, STORE_HOSTED_SEALED, ad, adlen, nonce, kek->k) != 0 ||
	    plen != crypto_sign_SECRETKEYBYTES) {
		sodium_free(sk);
		snprintf(err, errlen, "the hosted key of %s does not open with "
		    "this server's key-encryption key (hosted_key_file)",
		    p->name);
		return ENGINE_INTERNAL;
	}
	crypto_sign_detached(sig, NULL, msg, len, sk);
	sodium_free(sk);
	return ENGINE_OK;
}

/* Sign m with the hosted key of player p. */
static enum engine_status
hosted_sign(struct store *st, const struct hosted_kek *kek,
    const struct store_player *p, struct proto_move *m, char *err,
    size_t errlen)
{
	unsigned char msg[PROTO_CANONICAL_MAX];
	size_t n = proto_move_canonical(m, msg, sizeof(msg));

	return hosted_sign_bytes(st, kek, p, msg, n, m->signature, err,
	    errlen);
}

enum engine_status
engine_hosted_sign_delegation(struct store *st, const struct hosted_kek *kek,
    const struct store_player *p, struct delegation *d, char *err,
    size_t errlen)
{
	unsigned char msg[DELEGATION_CANONICAL_MAX];
	size_t n = delegation_canonical(d, msg, sizeof(msg));

	if (n == 0) {
		snprintf(err, errlen, "the certificate cannot be encoded");
		return ENGINE_BAD_REQUEST;
	}
	return hosted_sign_bytes(st, kek, p, msg, n, d->signature, err,
	    errlen);
}

void
engine_submit_hosted(struct store *st, const struct serverkey *key,
    const struct hosted_kek *kek, int64_t game_id, int64_t seq, int seat,
    const char *text, int kind, enum rules_lang lang,
    struct engine_reply *reply)
{
	struct store_player p;
	struct store_game g;
	struct proto_move m;
	enum store_status rc;
	enum engine_status es;
	char err[512];
	int64_t player;

	memset(reply, 0, sizeof(*reply));
	reply->game_id = game_id;
	if ((rc = store_game_get(st, game_id, &g)) != STORE_OK) {
		store_game_clear(&g);
		reply->status = rc == STORE_NOTFOUND ? ENGINE_UNKNOWN_GAME :
		    rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
		snprintf(reply->message, sizeof(reply->message), "game %lld: "
		    "%s", (long long)game_id, store_errmsg(st));
		return;
	}
	player = seat >= 0 && seat < g.nseats ? g.seat_player[seat] : 0;
	store_game_clear(&g);
	if (player == 0 || store_player_get(st, player, &p) != STORE_OK) {
		reply->status = ENGINE_BAD_SEAT;
		snprintf(reply->message, sizeof(reply->message), "game %lld "
		    "has no player in seat %d", (long long)game_id, seat);
		return;
	}
	memset(&m, 0, sizeof(m));
	m.game_id = game_id;
	m.seq = seq;
	m.seat = seat;
	snprintf(m.text, sizeof(m.text), "%s", text);
	if (strlen(text) > PROTO_MOVE_MAX || proto_clean_text(m.text, err,
	    sizeof(err)) != PROTO_OK) {
		reply->status = ENGINE_SYNTAX;
		snprintf(reply->message, sizeof(reply->message), "%s",
		    strlen(text) > PROTO_MOVE_MAX ? "the move is too long" :
		    err);
		return;
	}
	if ((es = hosted_sign(st, kek, &p, &m, err, sizeof(err))) !=
	    ENGINE_OK) {
		reply->status = es;
		snprintf(reply->message, sizeof(reply->message), "%s", err);
		return;
	}
	engine_submit_move(st, key, &m, kind, p.pubkey, lang, reply);
}
