/*
 * web_bots.c -- the seat page's "Bots" part (docs/WEB.md "Bots"): the
 * signed-in player lets a bot's key act for them with a delegation
 * certificate (docs/PROTOCOL.md section 13), and revokes one.
 *
 *   POST /play/games/N/bots         fields bot (the bot's public key),
 *                                   cover ("game": this game, or "all"),
 *                                   scope ("moves" or "views"), expires
 *                                   (YYYY-MM-DD, through that day UTC),
 *                                   and, for a key of one's own,
 *                                   certificate (the JSON play.js signed)
 *   POST /play/games/N/bots/revoke  field id
 *
 * Both are form POSTs of the seat page (web_form_session(): own page,
 * session, seat, CSRF).  A hosted player's certificate is made here and
 * signed with their hosted key; a player with a key of their own signs
 * it in the browser (play.js, WebCrypto Ed25519), and the server takes
 * it only if that key's signature verifies -- exactly as POST
 * /v1/delegations, through engine_delegation_submit().  Revoking takes
 * the session alone: it only takes power away, and the session is the
 * player's (signed in from their own mail).  Done: 303 to the seat page;
 * refused: the seat page with the reason in the player's language.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "refusal.h"
#include "web.h"

/* "YYYY-MM-DD" of t (UTC). */
static void
day_text(int64_t t, char out[16])
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(out, 16, "%Y-%m-%d", &tm);
}

void
web_bots_fill(struct store *st, const struct store_player *me, json_t *data)
{
	struct store_delegation rows[STORE_DELEGATIONS_MAX];
	char key[PROTO_KEY_TEXT_MAX], when[32], day[16];
	int64_t now = clock_now();
	json_t *list;
	size_t n = 0, i;

	list = json_array();
	if (store_delegation_active(st, me->id, now, rows,
	    STORE_DELEGATIONS_MAX, &n) != STORE_OK)
		n = 0;
	for (i = 0; i < n; i++) {
		proto_pubkey_format(rows[i].bot_key, key, sizeof(key));
		clock_format_iso(rows[i].expires, when, sizeof(when));
		json_array_append_new(list, json_pack("{s:s, s:s, s:b, s:I, "
		    "s:b, s:s}", "id", rows[i].id, "bot", key, "all",
		    rows[i].game_id == DELEGATION_ALL_GAMES, "game",
		    (json_int_t)rows[i].game_id, "may_move",
		    rows[i].scope == DELEGATION_MOVES, "expires", when));
	}
	json_object_set_new(data, "bots", list);
	json_object_set_new(data, "has_bots", json_boolean(n > 0));
	json_object_set_new(data, "bots_full",
	    json_boolean(n >= STORE_DELEGATIONS_MAX));
	json_object_set_new(data, "player", json_string(me->name));
	day_text(now, day);
	json_object_set_new(data, "bots_today", json_string(day));
	day_text(now + 30 * 86400, day);
	json_object_set_new(data, "bots_expiry", json_string(day));
}

/* The certificate of the form for hosted player me, signed with their
 * hosted key: ENGINE_OK, or a refusal in err. */
static enum engine_status
hosted_certificate(struct api_request *req, struct store *st,
    const struct store_player *me, int64_t game_id, enum rules_lang lang,
    struct delegation *d, char *err, size_t errlen)
{
	char bot[128], cover[8], scope[8], expires[16], detail[256];
	struct hosted_kek *kek;
	enum engine_status es;
	int64_t day;

	if (!web_form_field(req->body, "bot", bot, sizeof(bot)) ||
	    !web_form_field(req->body, "cover", cover, sizeof(cover)) ||
	    !web_form_field(req->body, "scope", scope, sizeof(scope)) ||
	    !web_form_field(req->body, "expires", expires, sizeof(expires)))
		return engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "the form was incomplete (the bot's key, the games, what "
		    "it may do and the last day are needed)", "le formulaire "
		    "était incomplet (il faut la clé du robot, les parties, ce "
		    "qu'il peut faire et le dernier jour)");
	memset(d, 0, sizeof(*d));
	snprintf(d->player, sizeof(d->player), "%s", me->name);
	/* Blanks around a pasted key are no part of it. */
	if (proto_pubkey_parse(bot + strspn(bot, " \t\r\n"), d->bot, detail,
	    sizeof(detail)) != PROTO_OK)
		return engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "the bot's key is not a public key: paste the line of the "
		    "bot's .pub file (ed25519: and 44 base64 characters)", "la "
		    "clé du robot n'est pas une clé publique : collez la ligne "
		    "du fichier .pub du robot (ed25519: et 44 caractères "
		    "base64)");
	d->game = strcmp(cover, "all") == 0 ? DELEGATION_ALL_GAMES : game_id;
	d->scope = strcmp(scope, "views") == 0 ? DELEGATION_VIEWS :
	    DELEGATION_MOVES;
	d->issued = clock_now();
	if ((day = clock_parse_date(expires)) < 0)
		return engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "the last day must be a date, YYYY-MM-DD", "le dernier "
		    "jour doit être une date, AAAA-MM-JJ");
	d->expires = day + 86400;
	if (d->expires <= d->issued)
		return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "the last day %s is over; choose today or a later day", "le "
		    "dernier jour %s est passé ; choisissez aujourd'hui ou un "
		    "jour suivant", expires);
	if ((kek = web_hosted_kek(req)) == NULL)
		return engine_refusal(err, errlen, ENGINE_BUSY, "%s", lang ==
		    RULES_LANG_FR ? "le serveur ne peut pas signer maintenant ; "
		    "réessayez" : "the server cannot sign now; try again");
	es = engine_hosted_sign_delegation(st, kek, me, d, err, errlen);
	hosted_kek_close(kek);
	return es;
}

/* The certificate play.js signed with the player's own key (field
 * "certificate", JSON): ENGINE_OK, or a refusal in err. */
static enum engine_status
browser_certificate(struct api_request *req, enum rules_lang lang,
    struct delegation *d, char *err, size_t errlen)
{
	char text[1024], detail[512];
	json_t *root;
	enum proto_status ps;

	if (!web_form_field(req->body, "certificate", text, sizeof(text)) ||
	    text[0] == '\0')
		return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "you play with a key of your own, so the server cannot sign "
		    "the certificate for you: load your key file in this page "
		    "(with script), or use pbem delegate", "vous jouez avec "
		    "votre propre clé, le serveur ne peut donc pas signer le "
		    "certificat pour vous : chargez votre fichier de clé dans "
		    "cette page (avec script), ou utilisez pbem delegate");
	root = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	ps = root != NULL ? delegation_from_json(root, d, lang ==
	    RULES_LANG_FR, detail, sizeof(detail)) : PROTO_MALFORMED;
	json_decref(root);
	if (ps != PROTO_OK)
		return engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "the signed certificate does not read (%s)", "le certificat "
		    "signé est illisible (%s)", root != NULL ? detail :
		    "not JSON");
	return ENGINE_OK;
}

enum MHD_Result
web_bots_post(struct api_request *req)
{
	struct engine_delegation_result res;
	struct store_web_session ws;
	struct store_player me;
	struct delegation d;
	enum engine_status es;
	enum rules_lang lang;
	enum MHD_Result rc = MHD_NO;
	struct store *st;
	char err[1024], path[64];

	if (web_form_session(req, req->params[0], &st, &ws, &me, &rc) != 0)
		return rc;
	lang = web_lang_of(me.lang);
	if (engine_player_hosted(st, &me))
		es = hosted_certificate(req, st, &me, ws.game_id, lang, &d, err,
		    sizeof(err));
	else
		es = browser_certificate(req, lang, &d, err, sizeof(err));
	if (es == ENGINE_OK)
		es = engine_delegation_submit(st, req->d->key, &me, &d,
		    clock_now(), lang, &res, err, sizeof(err));
	if (es != ENGINE_OK) {
		if (es == ENGINE_INTERNAL || es == ENGINE_BUSY)
			log_warnx("http: web bots: %s", err);
		return web_seat_answer_bots(req, &ws, web_session_cookie(req),
		    api_engine_http_status(es), err, 1);
	}
	log_info("http: web: %s delegated to a bot, certificate %s",
	    me.name, res.id);
	snprintf(path, sizeof(path), "/play/games/%lld#bots",
	    (long long)ws.game_id);
	return web_redirect(req, path);
}

enum MHD_Result
web_bots_revoke_post(struct api_request *req)
{
	struct store_web_session ws;
	struct store_player me;
	enum engine_status es;
	enum rules_lang lang;
	enum MHD_Result rc = MHD_NO;
	struct store *st;
	char id[DELEGATION_ID_TEXT + 8], err[1024], path[64];

	if (web_form_session(req, req->params[0], &st, &ws, &me, &rc) != 0)
		return rc;
	lang = web_lang_of(me.lang);
	if (!web_form_field(req->body, "id", id, sizeof(id)) ||
	    !delegation_id_valid(id))
		return web_seat_answer_bots(req, &ws, web_session_cookie(req),
		    MHD_HTTP_BAD_REQUEST, lang == RULES_LANG_FR ? "le "
		    "formulaire ne nomme pas de certificat (16 chiffres "
		    "hexadécimaux)" : "the form names no certificate (16 "
		    "hexadecimal digits)", 1);
	es = engine_delegation_revoke(st, req->d->key, &me, id, clock_now(),
	    lang, err, sizeof(err));
	if (es != ENGINE_OK)
		return web_seat_answer_bots(req, &ws, web_session_cookie(req),
		    api_engine_http_status(es), err, 1);
	log_info("http: web: %s revoked certificate %s", me.name, id);
	snprintf(path, sizeof(path), "/play/games/%lld#bots",
	    (long long)ws.game_id);
	return web_redirect(req, path);
}
