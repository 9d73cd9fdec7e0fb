/*
 * api_moves.c -- POST /v1/games/{id}/moves: the signed move block, the
 * same one a mail carries (see api.h; docs/API.md).
 *
 * The per-key rate limit: the block names a game and a seat, whose
 * player's key is looked up (in the seats the engine keeps, only when
 * the limit is on).  A key with no token left is refused before any work; a token is
 * taken only once the engine has checked the block's signature, so a
 * forged block naming someone's seat never spends that player's tokens.
 * Requests for one key racing each other may pass the check together
 * and overshoot by at most the number of HTTP threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "http_limits.h"
#include "engine.h"
#include "metrics.h"

unsigned int
api_engine_http_status(enum engine_status es)
{
	switch (es) {
	case ENGINE_UNKNOWN_GAME:
		return MHD_HTTP_NOT_FOUND;
	case ENGINE_BAD_SIGNATURE:
		return MHD_HTTP_FORBIDDEN;
	case ENGINE_STALE_SEQ:
	case ENGINE_FUTURE_SEQ:
	case ENGINE_GAME_OVER:
	case ENGINE_NOT_YOUR_TURN:
	case ENGINE_REFUSED:
		return MHD_HTTP_CONFLICT;
	case ENGINE_SYNTAX:
	case ENGINE_ILLEGAL:
		return MHD_HTTP_UNPROCESSABLE_CONTENT;
	case ENGINE_BUSY:
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	case ENGINE_INTERNAL:
		return MHD_HTTP_INTERNAL_SERVER_ERROR;
	default:
		return MHD_HTTP_BAD_REQUEST;
	}
}

int
api_block_limit(struct api_request *req, struct store *st,
    const struct proto_move *m, unsigned char key[STORE_KEY_BYTES],
    int *keyed, const char *what, enum MHD_Result *answered)
{
	unsigned int retry;
	char limit[256], msg[512];

	*keyed = 0;
	if (config_int(req->d->cfg, "rate_per_key") <= 0 ||
	    engine_block_seat_key(st, m, key) != 0)
		return 0;
	*keyed = 1;
	if (ratelimit_check_key(req->d, key, &retry))
		return 0;
	limits_describe_key(req->d, limit, sizeof(limit));
	snprintf(msg, sizeof(msg), "too many %s signed with the key of seat %d: "
	    "the limit is %s; try again in %u s", what, m->seat, limit, retry);
	*answered = api_send_rate_limited(req, retry, msg);
	return -1;
}

void
api_block_charge(struct api_request *req, const unsigned char *key,
    int keyed, enum engine_status status)
{
	if (keyed && engine_signature_checked(status))
		ratelimit_charge_key(req->d, key);
}

static enum MHD_Result
refuse(struct api_request *req, unsigned int status, const char *code,
    const char *message, json_t *forms, json_t *legal)
{
	metrics_move_rejected(code);
	return api_send_refusal(req, status, code, message, forms, legal);
}

/* The language of the player in the block's seat (en when the game or
 * seat is unknown: the engine will say so), from the seats the engine
 * keeps for verifying moves (engine_seats_get()). */
enum rules_lang
api_seat_lang(struct store *st, const struct proto_move *m)
{
	struct engine_seats seats;

	if (engine_seats_get(st, m->game_id, &seats) != STORE_OK ||
	    m->seat < 0 || m->seat >= seats.nseats ||
	    seats.player[m->seat] == 0)
		return RULES_LANG_EN;
	return seats.lang[m->seat];
}

enum MHD_Result
api_move_post(struct api_request *req)
{
	int64_t game_id = req->params[0];
	unsigned char key[STORE_KEY_BYTES];
	enum rules_lang lang = RULES_LANG_EN;
	struct engine_reply reply;
	struct proto_move m;
	struct store *st;
	enum MHD_Result rc = MHD_NO;
	int found, keyed = 0, langq;
	char hex[65], block[2048];

	if ((langq = api_query_lang(req, &lang, &rc)) < 0)
		return rc;

	/* The URL names a game: a block signed for another game is refused
	 * here rather than played in the game it names. */
	found = proto_move_find(req->body, req->body_len, &m, block,
	    sizeof(block)) == PROTO_OK;
	if (found && m.game_id != game_id) {
		snprintf(block, sizeof(block), lang == RULES_LANG_FR ?
		    "le bloc signé est pour la partie %lld ; il a été envoyé "
		    "à la partie %lld" : "the signed block is for game "
		    "%lld; it was posted to game %lld", (long long)m.game_id,
		    (long long)game_id);
		return refuse(req, MHD_HTTP_BAD_REQUEST, "wrong_game", block,
		    NULL, NULL);
	}
	if ((st = daemon_store(req->d)) == NULL)
		return refuse(req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    "the database cannot be opened now; try again", NULL,
		    NULL);
	if (found && api_block_limit(req, st, &m, key, &keyed, "moves",
	    &rc) != 0) {
		metrics_move_rejected("rate_limited");
		return rc;
	}
	/* Without ?lang=, the language of the seat's player. */
	if (langq == 0 && found)
		lang = api_seat_lang(st, &m);
	engine_submit(st, req->d->key, req->body, req->body_len, lang,
	    &reply);
	api_block_charge(req, key, keyed, reply.status);
	if (reply.status != ENGINE_OK) {
		rc = refuse(req, api_engine_http_status(reply.status),
		    engine_status_code(reply.status), reply.message,
		    reply.forms, reply.legal);
		engine_reply_clear(&reply);
		return rc;
	}
	metrics_add(METRICS_MOVES_ACCEPTED, 1);
	proto_hex(reply.receipt.entry_hash, 32, hex);
	proto_receipt_armour(&reply.receipt, block, sizeof(block));
	rc = api_send_json(req, MHD_HTTP_OK, json_pack("{s:I, s:I, s:s, s:s, "
	    "s:I, s:b}", "game", (json_int_t)reply.receipt.game_id, "seq",
	    (json_int_t)reply.receipt.seq, "entry_hash", hex, "receipt",
	    block, "next_seq", (json_int_t)reply.next_seq, "game_over",
	    reply.game_over));
	engine_reply_clear(&reply);
	return rc;
}
