/*
 * api_chat.c -- chat identities over HTTP (see api.h; docs/API.md "Chat
 * identities"), each a request signed by its sender's own key:
 *
 *   POST /v1/chat/codes   {"network", "nick"}: a chat bot asks for a code
 *                         to send that nick privately
 *   POST /v1/chat/links   {"code"}: the player returns it; the (network,
 *                         nick) is theirs
 *   GET  /v1/chat/whois?network=N&nick=X   the bot asks who that is:
 *                         answered only if the player delegates to it
 */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "clock.h"
#include "engine.h"

static enum MHD_Result
refuse(struct api_request *req, enum engine_status es, const char *message)
{
	return api_send_error(req, es == ENGINE_UNKNOWN_GAME ?
	    MHD_HTTP_NOT_FOUND : api_engine_http_status(es), es ==
	    ENGINE_UNKNOWN_GAME ? "not_linked" : engine_status_code(es),
	    message, NULL);
}

static const char *
field(json_t *root, const char *name)
{
	const char *s = json_string_value(json_object_get(root, name));

	return s != NULL ? s : "";
}

enum MHD_Result
api_chat_code(struct api_request *req)
{
	char code[ENGINE_CHAT_CODE_LEN + 1], err[1024];
	enum MHD_Result rc = MHD_NO;
	enum rules_lang lang = RULES_LANG_EN;
	struct store_player bot;
	enum engine_status es;
	struct store *st;
	int64_t expires;
	json_t *root;

	if (api_signed_json(req, &bot, &lang, &root, &rc) != 0 ||
	    (st = api_store(req, &rc)) == NULL) {
		json_decref(root);
		return rc;
	}
	es = engine_chat_code(st, &bot, field(root, "network"), field(root,
	    "nick"), clock_now(), lang, code, &expires, err, sizeof(err));
	if (es != ENGINE_OK)
		rc = refuse(req, es, err);
	else
		rc = api_send_json(req, MHD_HTTP_CREATED, json_pack("{s:s, s:s,"
		    " s:s, s:I}", "network", field(root, "network"), "nick",
		    field(root, "nick"), "code", code, "expires",
		    (json_int_t)expires));
	json_decref(root);
	return rc;
}

enum MHD_Result
api_chat_link(struct api_request *req)
{
	char network[ENGINE_CHAT_NAME_MAX], nick[ENGINE_CHAT_NAME_MAX];
	char err[1024];
	enum MHD_Result rc = MHD_NO;
	enum rules_lang lang = RULES_LANG_EN;
	struct store_player p;
	enum engine_status es;
	struct store *st;
	json_t *root;

	if (api_signed_json(req, &p, &lang, &root, &rc) != 0 ||
	    (st = api_store(req, &rc)) == NULL) {
		json_decref(root);
		return rc;
	}
	es = engine_chat_link(st, &p, field(root, "code"), clock_now(), lang,
	    network, nick, err, sizeof(err));
	json_decref(root);
	if (es != ENGINE_OK)
		return refuse(req, es, err);
	return api_send_json(req, MHD_HTTP_OK, json_pack("{s:s, s:s, s:s}",
	    "network", network, "nick", nick, "player", p.name));
}

enum MHD_Result
api_chat_whois(struct api_request *req)
{
	const char *network = api_query(req, "network");
	const char *nick = api_query(req, "nick");
	enum MHD_Result rc = MHD_NO;
	enum rules_lang lang = RULES_LANG_EN;
	struct store_player bot, p;
	enum engine_status es;
	struct store *st;
	json_t *root;
	char err[1024];

	if (api_signed_json(req, &bot, &lang, &root, &rc) != 0 ||
	    (st = api_store(req, &rc)) == NULL) {
		json_decref(root);
		return rc;
	}
	es = engine_chat_whois(st, &bot, network != NULL ? network : "",
	    nick != NULL ? nick : "", clock_now(), lang, &p, err, sizeof(err));
	if (es != ENGINE_OK)
		return refuse(req, es, err);
	return api_send_json(req, MHD_HTTP_OK, json_pack("{s:s, s:s, s:s, "
	    "s:s}", "network", network, "nick", nick, "player", p.name,
	    "lang", p.lang));
}
