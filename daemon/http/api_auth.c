/*
 * api_auth.c -- who signed this request (see api.h; docs/API.md "Signed
 * requests"; the bytes are reqsig.h's).
 *
 * Checks, in order, each refusal a 401 with its own code and nothing
 * changed: the header is there (auth_missing); it reads (auth_malformed);
 * the player exists and has a key (unknown_player); the time is inside
 * the window around the server's clock and not before the daemon started
 * (auth_expired; the message gives the server's time); the signature
 * verifies over this method, target, time and body (bad_signature); the
 * signature was not seen before (replayed).  The replay check comes last
 * so that only genuine signatures take room in the cache.
 *
 * Each refusal is in the language of ?lang=en|fr, else, once the signer
 * is known, of that player's setting, else English.  The detail of a
 * malformed header (reqsig.c) stays English, quoted after the French.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "api.h"
#include "engine.h"
#include "http_limits.h"
#include "replaycache.h"
#include "reqsig.h"

static enum MHD_Result
unauthorized(struct api_request *req, const char *code, const char *message)
{
	api_add_header(req, "WWW-Authenticate", REQSIG_SCHEME);
	return api_send_error(req, MHD_HTTP_UNAUTHORIZED, code, message, NULL);
}

/* 1 if the refusals are in French: ?lang=fr, or no valid ?lang= and
 * the signer (NULL while unknown) chose French. */
static int
in_french(struct api_request *req, const struct store_player *signer)
{
	const char *q = api_query(req, "lang");

	if (q != NULL && (strcmp(q, "fr") == 0 || strcmp(q, "en") == 0))
		return q[0] == 'f';
	return signer != NULL && strcmp(signer->lang, "fr") == 0;
}

/* ops: the per-key rate limit (limits.c), once the signature is good,
 * so a forged request spends none of the key's tokens. */
static int
limit_key(struct api_request *req, const struct store_player *player,
    enum MHD_Result *answered)
{
	unsigned int retry;
	char limit[256], msg[512];

	if (ratelimit_allow_key(req->d, player->pubkey, &retry))
		return 0;
	limits_describe_key(req->d, in_french(req, player) ? RULES_LANG_FR :
	    RULES_LANG_EN, limit, sizeof(limit));
	snprintf(msg, sizeof(msg), in_french(req, player) ? "trop de requêtes "
	    "signées avec la clé de %s : la limite est %s ; réessayez dans "
	    "%u s" : "too many signed requests with %s's key: the limit is "
	    "%s; try again in %u s", player->name, limit, retry);
	*answered = api_send_rate_limited(req, retry, msg);
	return -1;
}

/* Signed by the player's key, or -- for a request about a game, game_id
 * > 0 -- by a bot key the player delegated to in that game. */
static int
signed_by(struct api_request *req, const struct reqsig *rs, int64_t game_id,
    const struct store_player *player, struct store *st, int64_t now)
{
	if (reqsig_verify(rs, req->method, req->target, req->body,
	    req->body_len, player->pubkey) == PROTO_OK)
		return 1;
	return game_id > 0 && engine_delegated_request(st, player, game_id, rs,
	    req->method, req->target, req->body, req->body_len, now);
}

static int
authenticate(struct api_request *req, int64_t game_id,
    struct store_player *player, enum MHD_Result *answered)
{
	const char *value;
	struct reqsig rs;
	struct store *st;
	enum store_status sr;
	int64_t now, window;
	char err[512], detail[400];
	int fr = in_french(req, NULL);

	value = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_AUTHORIZATION);
	if (value == NULL) {
		*answered = unauthorized(req, "auth_missing", fr ? "cette "
		    "requête doit être signée : ajoutez l'en-tête "
		    "Authorization: PBEM-Ed25519 player=NOM, "
		    "time=SECONDES-UNIX, signature=BASE64 (`pbem request` le "
		    "fait ; docs/API.md)" : "this request "
		    "must be signed: add the header Authorization: "
		    "PBEM-Ed25519 player=NAME, time=UNIX-SECONDS, "
		    "signature=BASE64 (`pbem request` makes it; docs/API.md)");
		return -1;
	}
	if (reqsig_parse_header(value, &rs, detail, sizeof(detail)) !=
	    PROTO_OK) {
		if (fr)
			snprintf(err, sizeof(err), "l'en-tête Authorization "
			    "est mal formé (détail : %s)", detail);
		else
			snprintf(err, sizeof(err), "%s", detail);
		*answered = unauthorized(req, "auth_malformed", err);
		return -1;
	}
	if ((st = api_store(req, answered)) == NULL)
		return -1;
	sr = store_player_find(st, rs.player, player);
	if (sr == STORE_NOTFOUND) {
		snprintf(err, sizeof(err), fr ? "il n'y a pas de joueur nommé "
		    "%s ; inscrivez-vous avec POST /v1/players" : "there is no "
		    "player named %s; register with POST /v1/players",
		    rs.player);
		*answered = unauthorized(req, "unknown_player", err);
		return -1;
	}
	if (sr != STORE_OK) {
		log_warnx("http: %s", store_errmsg(st));
		*answered = api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "busy", fr ? "les joueurs ne peuvent pas être lus "
		    "maintenant ; réessayez" : "the players cannot be read "
		    "now; try again", NULL);
		return -1;
	}
	fr = in_french(req, player);
	now = (int64_t)time(NULL);
	window = config_int(req->d->cfg, "http_auth_window");
	if (rs.time < now - window || rs.time > now + window) {
		snprintf(err, sizeof(err), fr ? "la requête a été signée pour "
		    "l'heure %lld, mais celle du serveur est %lld ; une "
		    "signature vaut %lld secondes de part et d'autre "
		    "(vérifiez votre horloge)" : "the request was signed for "
		    "time %lld, but the server's time is %lld; a signature is "
		    "good for %lld seconds either side of it (check your "
		    "clock)", (long long)rs.time, (long long)now,
		    (long long)window);
		*answered = unauthorized(req, "auth_expired", err);
		return -1;
	}
	if (rs.time < req->d->started) {
		snprintf(err, sizeof(err), fr ? "la requête a été signée pour "
		    "l'heure %lld, avant le démarrage de ce serveur (%lld) ; "
		    "signez-la de nouveau avec l'heure actuelle (heure du "
		    "serveur %lld)" : "the request was signed for time %lld, "
		    "before this server started (%lld); sign it again with "
		    "the current time (server time %lld)",
		    (long long)rs.time, (long long)req->d->started,
		    (long long)now);
		*answered = unauthorized(req, "auth_expired", err);
		return -1;
	}
	if (!signed_by(req, &rs, game_id, player, st, now)) {
		snprintf(err, sizeof(err), fr ? "la signature ne correspond "
		    "pas à la clé de %s pour cette méthode, cette cible, "
		    "cette heure et ce corps ; signez exactement le chemin et "
		    "la requête envoyés (docs/PROTOCOL.md)" : "the signature "
		    "does not match %s's key for this method, target, time "
		    "and body; sign exactly the path and query you send "
		    "(docs/PROTOCOL.md)", player->name);
		*answered = unauthorized(req, "bad_signature", err);
		return -1;
	}
	switch (replaycache_check_and_add(req->d->replay, rs.signature,
	    rs.time, window, now)) {
	case 0:
		return limit_key(req, player, answered);
	case REPLAYCACHE_TOO_OLD:
		snprintf(err, sizeof(err), fr ? "la requête a été signée pour "
		    "l'heure %lld, avant %lld, l'heure la plus ancienne dont "
		    "ce serveur garde les requêtes (la fenêtre a été élargie "
		    "depuis) ; signez-la de nouveau avec l'heure actuelle "
		    "(heure du serveur %lld)" : "the request was signed for "
		    "time %lld, before %lld, the oldest time this server "
		    "still remembers requests from (the window was widened "
		    "since); sign it again with the current time (server "
		    "time %lld)", (long long)rs.time,
		    (long long)replaycache_floor(req->d->replay),
		    (long long)now);
		*answered = unauthorized(req, "auth_expired", err);
		return -1;
	case 1:
		*answered = unauthorized(req, "replayed", fr ? "cette requête "
		    "signée a déjà été reçue ; signez chaque requête à neuf "
		    "(une nouvelle heure donne une nouvelle signature)" :
		    "this signed request was already received; sign each "
		    "request afresh (a new time gives a new signature)");
		return -1;
	default:
		*answered = api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "busy", fr ? "mémoire épuisée ; réessayez" : "out of "
		    "memory; try again", NULL);
		return -1;
	}
}

int
api_authenticate(struct api_request *req, struct store_player *player,
    enum MHD_Result *answered)
{
	return authenticate(req, 0, player, answered);
}

int
api_authenticate_for_game(struct api_request *req, int64_t game_id,
    struct store_player *player, enum MHD_Result *answered)
{
	return authenticate(req, game_id, player, answered);
}

int
api_signed_json(struct api_request *req, struct store_player *player,
    enum rules_lang *lang, json_t **root, enum MHD_Result *answered)
{
	json_error_t jerr;
	char msg[512];
	int langq;

	*root = NULL;
	*lang = RULES_LANG_EN;
	if ((langq = api_query_lang(req, lang, answered)) < 0 ||
	    api_authenticate(req, player, answered) != 0)
		return -1;
	if (langq == 0)
		*lang = strcmp(player->lang, "fr") == 0 ? RULES_LANG_FR :
		    RULES_LANG_EN;
	if (strcmp(req->method, "GET") == 0)
		return 0;
	*root = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES,
	    &jerr);
	if (*root != NULL && json_is_object(*root))
		return 0;
	json_decref(*root);
	*root = NULL;
	snprintf(msg, sizeof(msg), *lang == RULES_LANG_FR ? "le corps n'est "
	    "pas un objet JSON (%s)" : "the body is not a JSON object (%s)",
	    jerr.text);
	*answered = api_send_error(req, MHD_HTTP_BAD_REQUEST, "bad_request",
	    msg, NULL);
	return -1;
}

int
api_admin_bearer(struct api_request *req)
{
	const char *token = config_str(req->d->cfg, "webhook_admin_token");
	const char *given;
	unsigned char want[32], got[32];

	given = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_AUTHORIZATION);
	if (given == NULL || strncmp(given, "Bearer ", 7) != 0)
		return -1;
	if (*token == '\0')
		return 0;
	/* Compare digests in constant time: the token's length and
	 * content stay secret. */
	crypto_generichash(want, sizeof(want), (const unsigned char *)token,
	    strlen(token), NULL, 0);
	crypto_generichash(got, sizeof(got), (const unsigned char *)given + 7,
	    strlen(given + 7), NULL, 0);
	return sodium_memcmp(want, got, sizeof(want)) == 0;
}
