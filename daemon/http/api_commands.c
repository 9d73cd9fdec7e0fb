/*
 * api_commands.c -- POST /v1/games/{id}/commands: a player's signed
 * command block (resign, vacation, press, call off; docs/ASYNC.md and
 * docs/PROTOCOL.md "Commands"), the same one a mail carries.  A command
 * spends a token of its seat's key like a move (api_block_limit()): press
 * mails every seat, so it must not be free.
 */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "clock.h"
#include "engine.h"

/* The language of game_id's master (en when it has none): a master's
 * command is answered in it, whatever seat its block names. */
static enum rules_lang
master_lang(struct store *st, int64_t game_id)
{
	struct store_master gm;
	struct store_player p;

	if (store_master_get(st, game_id, &gm) == STORE_OK &&
	    gm.player_id != 0 && store_player_get(st, gm.player_id, &p) ==
	    STORE_OK && strcmp(p.lang, "fr") == 0)
		return RULES_LANG_FR;
	return RULES_LANG_EN;
}

enum MHD_Result
api_command_post(struct api_request *req)
{
	int64_t game_id = req->params[0];
	enum rules_lang lang = RULES_LANG_EN;
	unsigned char key[STORE_KEY_BYTES];
	struct engine_reply reply;
	struct proto_move m;
	struct store *st;
	enum MHD_Result rc = MHD_NO;
	char msg[256];
	int found, keyed = 0, langq;

	if ((langq = api_query_lang(req, &lang, &rc)) < 0)
		return rc;
	found = proto_move_find(req->body, req->body_len, &m, msg,
	    sizeof(msg)) == PROTO_OK;
	if (found && m.game_id != game_id) {
		snprintf(msg, sizeof(msg), lang == RULES_LANG_FR ?
		    "le bloc signé est pour la partie %lld ; il a été envoyé "
		    "à la partie %lld" : "the signed block is for game %lld; "
		    "it was posted to game %lld", (long long)m.game_id,
		    (long long)game_id);
		return api_send_error(req, MHD_HTTP_BAD_REQUEST, "wrong_game",
		    msg, NULL);
	}
	if ((st = daemon_store(req->d)) == NULL)
		return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "busy", "the database cannot be opened now; try again",
		    NULL);
	if (langq == 0 && found)
		lang = engine_is_master_command(m.text) ? master_lang(st,
		    m.game_id) : api_seat_lang(st, &m);
	if (found && api_block_limit(req, st, &m, key, &keyed, 1, lang,
	    &rc) != 0)
		return rc;
	engine_command(st, req->d->key, req->body, req->body_len, lang,
	    clock_now(), &reply);
	api_block_charge(req, key, keyed, reply.status);
	if (reply.status != ENGINE_OK)
		rc = api_send_error(req, api_engine_http_status(reply.status),
		    engine_status_code(reply.status), reply.message, NULL);
	else
		rc = api_send_json(req, MHD_HTTP_OK, json_pack("{s:I, s:s}",
		    "game", (json_int_t)game_id, "message", reply.message));
	engine_reply_clear(&reply);
	return rc;
}
