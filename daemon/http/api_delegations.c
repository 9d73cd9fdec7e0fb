/*
 * api_delegations.c -- delegation certificates over HTTP (see api.h;
 * docs/API.md "Delegation", docs/PROTOCOL.md section 13):
 *
 *   POST /v1/delegations          the certificate (JSON), signed request
 *                                 by the player it names
 *   GET  /v1/delegations          the signer's certificates in force
 *   POST /v1/delegations/revoke   {"id": "..."}, signed by the player
 *
 * Only the player's own key may send these: a bot's delegated signature
 * is accepted for its seat's view (api_seats.c), never here.
 */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "clock.h"
#include "engine.h"

static enum MHD_Result
refuse(struct api_request *req, enum engine_status es, const char *message)
{
	return api_send_error(req, api_engine_http_status(es),
	    engine_status_code(es), message, NULL);
}

enum MHD_Result
api_delegation_add(struct api_request *req)
{
	struct engine_delegation_result res;
	enum rules_lang lang = RULES_LANG_EN;
	enum MHD_Result rc = MHD_NO;
	enum engine_status es;
	struct store_player p;
	struct delegation d;
	struct store *st;
	json_t *root, *games;
	char err[1024], detail[512];
	size_t i;

	if (api_signed_json(req, &p, &lang, &root, &rc) != 0)
		return rc;
	if (delegation_from_json(root, &d, lang == RULES_LANG_FR, detail,
	    sizeof(detail)) != PROTO_OK) {
		json_decref(root);
		if (lang == RULES_LANG_FR)
			snprintf(err, sizeof(err), "le certificat de "
			    "délégation est mal formé (détail : %s)", detail);
		else
			snprintf(err, sizeof(err), "%s", detail);
		return api_send_error(req, MHD_HTTP_BAD_REQUEST, "bad_request",
		    err, NULL);
	}
	json_decref(root);
	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	es = engine_delegation_submit(st, req->d->key, &p, &d, clock_now(),
	    lang, &res, err, sizeof(err));
	if (es != ENGINE_OK)
		return refuse(req, es, err);
	games = json_array();
	for (i = 0; i < res.ngames; i++)
		json_array_append_new(games, json_integer(res.games[i]));
	return api_send_json(req, res.created ? MHD_HTTP_CREATED : MHD_HTTP_OK,
	    json_pack("{s:s, s:b, s:o, s:o}", "id", res.id, "created",
	    res.created, "recorded_in", games, "certificate",
	    delegation_to_json(&d)));
}

enum MHD_Result
api_delegation_list(struct api_request *req)
{
	struct store_delegation rows[STORE_DELEGATIONS_MAX];
	enum MHD_Result rc = MHD_NO;
	struct store_player p;
	struct delegation d;
	struct store *st;
	json_t *list, *one;
	size_t n, i;

	if (api_authenticate(req, &p, &rc) != 0)
		return rc;
	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (store_delegation_active(st, p.id, clock_now(), rows,
	    STORE_DELEGATIONS_MAX, &n) != STORE_OK)
		return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    "the certificates cannot be read now; try again", NULL);
	list = json_array();
	for (i = 0; i < n; i++) {
		memset(&d, 0, sizeof(d));
		snprintf(d.player, sizeof(d.player), "%s", p.name);
		memcpy(d.bot, rows[i].bot_key, sizeof(d.bot));
		d.game = rows[i].game_id;
		d.scope = rows[i].scope == DELEGATION_VIEWS ?
		    DELEGATION_VIEWS : DELEGATION_MOVES;
		d.issued = rows[i].issued;
		d.expires = rows[i].expires;
		memcpy(d.signature, rows[i].signature, sizeof(d.signature));
		one = delegation_to_json(&d);
		json_object_set_new(one, "id", json_string(rows[i].id));
		json_array_append_new(list, one);
	}
	return api_send_json(req, MHD_HTTP_OK, json_pack("{s:o}",
	    "delegations", list));
}

enum MHD_Result
api_delegation_revoke(struct api_request *req)
{
	enum rules_lang lang = RULES_LANG_EN;
	enum MHD_Result rc = MHD_NO;
	enum engine_status es;
	struct store_player p;
	struct store *st;
	const char *id;
	json_t *root;
	char err[1024];

	if (api_signed_json(req, &p, &lang, &root, &rc) != 0)
		return rc;
	id = json_string_value(json_object_get(root, "id"));
	if (id == NULL || strlen(id) != DELEGATION_ID_TEXT - 1 ||
	    strspn(id, "0123456789abcdef") != DELEGATION_ID_TEXT - 1) {
		json_decref(root);
		return api_send_error(req, MHD_HTTP_BAD_REQUEST, "bad_request",
		    lang == RULES_LANG_FR ? "le corps doit être {\"id\": "
		    "\"...\"} avec les 16 chiffres hexadécimaux du certificat" :
		    "the body must be {\"id\": \"...\"} with the certificate's "
		    "16 hexadecimal digits", NULL);
	}
	if ((st = api_store(req, &rc)) == NULL) {
		json_decref(root);
		return rc;
	}
	es = engine_delegation_revoke(st, req->d->key, &p, id, clock_now(),
	    lang, err, sizeof(err));
	if (es != ENGINE_OK) {
		json_decref(root);
		return refuse(req, es, err);
	}
	rc = api_send_json(req, MHD_HTTP_OK, json_pack("{s:s, s:b}", "id", id,
	    "revoked", 1));
	json_decref(root);
	return rc;
}
