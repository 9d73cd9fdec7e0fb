/*
 * tokens.c -- the one-time tokens of playing by plain replies
 * (docs/PLAYING.md, docs/MAIL.md "Replies to play"):
 *
 *   reply token  in each your-turn mail to a hosted player (its
 *                Message-ID and a line of its body), bound to game,
 *                seat and the entry the mail is about; derived from the
 *                key-encryption key and the outbox row, so a retried
 *                mail carries the same token, and stored hashed;
 *   play token   the sign-in link of every your-turn mail
 *                (<public_base_url>/play/TOKEN): random, short-lived,
 *                single use, stored hashed, for the web page to come;
 *   sign-up code the code a new player confirms their address with,
 *                derived from the key-encryption key and a random public
 *                nonce (the outbox row holds the nonce, never the code).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "engine.h"

static void
put64(unsigned char *p, int64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)((uint64_t)v >> (56 - 8 * i));
}

void
engine_token_hash_in(const char *domain, const char *token,
    unsigned char hash[STORE_HASH_BYTES])
{
	crypto_generichash_state s;
	char norm[128];
	size_t i;

	/* Tokens and codes are matched whatever their case. */
	for (i = 0; token[i] != '\0' && i + 1 < sizeof(norm); i++)
		norm[i] = (char)tolower((unsigned char)token[i]);
	norm[i] = '\0';
	crypto_generichash_init(&s, NULL, 0, STORE_HASH_BYTES);
	crypto_generichash_update(&s, (const unsigned char *)domain,
	    strlen(domain) + 1);
	crypto_generichash_update(&s, (const unsigned char *)norm, i);
	crypto_generichash_final(&s, hash, STORE_HASH_BYTES);
}

void
engine_token_hash(const char *token, unsigned char hash[STORE_HASH_BYTES])
{
	engine_token_hash_in("pbem-token-v1", token, hash);
}

void
engine_reply_token(const struct hosted_kek *kek, int64_t game_id,
    int64_t seq, int seat, int64_t player_id, int64_t outbox_id,
    char out[ENGINE_TOKEN_LEN + 1])
{
	unsigned char msg[40], tok[ENGINE_TOKEN_LEN / 2];

	put64(msg, game_id);
	put64(msg + 8, seq);
	put64(msg + 16, seat);
	put64(msg + 24, player_id);
	put64(msg + 32, outbox_id);
	hosted_kek_derive(kek, "pbem-reply-token-v1", msg, sizeof(msg), tok,
	    sizeof(tok));
	proto_hex(tok, sizeof(tok), out);
}

enum store_status
engine_reply_token_issue(struct store *st, const struct hosted_kek *kek,
    int64_t game_id, int64_t seq, int seat, int64_t player_id,
    int64_t outbox_id, char out[ENGINE_TOKEN_LEN + 1])
{
	struct store_token t;

	memset(&t, 0, sizeof(t));
	engine_reply_token(kek, game_id, seq, seat, player_id, outbox_id, out);
	engine_token_hash(out, t.hash);
	t.game_id = game_id;
	t.seq = seq;
	t.seat = seat;
	t.player_id = player_id;
	return store_reply_token_add(st, &t);
}

enum store_status
engine_play_token_issue(struct store *st, int64_t game_id, int seat,
    int64_t player_id, int64_t expires, char out[ENGINE_TOKEN_LEN + 1])
{
	unsigned char raw[ENGINE_TOKEN_LEN / 2];
	struct store_token t;

	memset(&t, 0, sizeof(t));
	randombytes_buf(raw, sizeof(raw));
	proto_hex(raw, sizeof(raw), out);
	sodium_memzero(raw, sizeof(raw));
	engine_token_hash(out, t.hash);
	t.game_id = game_id;
	t.seat = seat;
	t.player_id = player_id;
	t.expires = expires;
	return store_play_token_add(st, &t);
}

void
engine_signup_code(const struct hosted_kek *kek, const char *nonce,
    char out[ENGINE_CODE_LEN + 1])
{
	/* 32 letters and digits, none that reads as another (0/O, 1/I). */
	static const char alpha[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
	unsigned char raw[ENGINE_CODE_LEN];
	size_t i;

	hosted_kek_derive(kek, "pbem-signup-code-v1",
	    (const unsigned char *)nonce, strlen(nonce), raw, sizeof(raw));
	for (i = 0; i < ENGINE_CODE_LEN; i++)
		out[i] = alpha[raw[i] & 31];
	out[ENGINE_CODE_LEN] = '\0';
}
