/*
 * api_moves.c -- POST /v1/games/{id}/moves: the signed move block, the
 * same one a mail carries (see api.h; docs/API.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "engine.h"

static unsigned int
http_status(enum engine_status es)
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

enum MHD_Result
api_move_post(struct api_request *req)
{
	int64_t game_id = req->params[0];
	struct engine_reply reply;
	struct proto_move m;
	struct store *st;
	enum MHD_Result rc;
	char hex[65], block[2048];

	/* The URL names a game: a block signed for another game is refused
	 * here rather than played in the game it names. */
	if (proto_move_find(req->body, req->body_len, &m, block,
	    sizeof(block)) == PROTO_OK && m.game_id != game_id) {
		snprintf(block, sizeof(block), "the signed block is for game "
		    "%lld; it was posted to game %lld", (long long)m.game_id,
		    (long long)game_id);
		return api_send_error(req, MHD_HTTP_BAD_REQUEST, "wrong_game",
		    block, NULL);
	}
	if ((st = daemon_store(req->d)) == NULL)
		return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "busy", "the database cannot be opened now; try again",
		    NULL);
	engine_submit(st, req->d->key, req->body, req->body_len,
	    RULES_LANG_EN, &reply);
	if (reply.status != ENGINE_OK) {
		rc = api_send_error(req, http_status(reply.status),
		    engine_status_code(reply.status), reply.message,
		    reply.forms);
		engine_reply_clear(&reply);
		return rc;
	}
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
