/*
 * delegate.c -- delegation certificates: a player's signed permission for
 * a bot key to act for them (engine.h; docs/PROTOCOL.md section 13,
 * docs/LOG.md kinds 10-12, docs/BOTS.md "Delegation").
 *
 * A certificate is checked (the player's signature, the cap, the game),
 * kept in the store, and recorded -- a server entry of kind 10 carrying
 * the whole certificate -- in the log of each running game it covers
 * where the player sits, so an audit can check a bot's move from the log
 * alone: player key -> certificate -> bot signature.  A bot's move or
 * seat-view request is accepted only under a certificate in force (not
 * revoked, not expired), recorded in that game, and still verifying with
 * the player's current key (a key change ends every certificate signed
 * with the old one).  A revocation is recorded (kind 11) in each game
 * that recorded the certificate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "engine.h"
#include "gametx.h"
#include "refusal.h"

/* The seat player_id holds in gs, or -1. */
static int
seat_of(const struct gamestate *gs, int64_t player_id)
{
	int s;

	for (s = 0; s < gs->game.nseats; s++)
		if (gs->game.seat_player[s] == player_id)
			return s;
	return -1;
}

/* A store row back into the certificate the player signed. */
static void
from_row(const struct store_delegation *row, const char *player,
    struct delegation *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->player, sizeof(d->player), "%s", player);
	memcpy(d->bot, row->bot_key, PROTO_PUBKEY_BYTES);
	d->game = row->game_id;
	d->scope = row->scope == DELEGATION_VIEWS ? DELEGATION_VIEWS :
	    DELEGATION_MOVES;
	d->issued = row->issued;
	d->expires = row->expires;
	memcpy(d->signature, row->signature, PROTO_SIG_BYTES);
}

/* Record certificate d (id) in game_id's log, unless it is there. */
static enum engine_status
record_in_game(struct store *st, const struct serverkey *key,
    const struct store_player *p, const struct delegation *d,
    const char *id, int64_t game_id, int64_t now, char *err, size_t errlen)
{
	struct gamestate gs;
	enum engine_status es;
	char *text;
	int seat;

	if (store_delegation_game_has(st, id, game_id) == STORE_OK)
		return ENGINE_OK;
	if ((es = engine_game_open(st, game_id, -1, &gs, RULES_LANG_EN, err,
	    errlen)) != ENGINE_OK)
		return es;
	if ((seat = seat_of(&gs, p->id)) < 0) {
		store_rollback(st);
		gamestate_clear(&gs);
		return ENGINE_BAD_SEAT;
	}
	text = engine_record_text(game_id, gs.seq + 1, "delegate",
	    json_pack("{s:i, s:s, s:s, s:o}", "seat", seat, "player", p->name,
	    "id", id, "certificate", delegation_to_json(d)));
	es = engine_server_entry(st, key, &gs, STORE_ENTRY_DELEGATION, seat,
	    text, NULL, 0, now, err, errlen);
	free(text);
	if (es == ENGINE_OK && store_delegation_game_add(st, id, game_id) !=
	    STORE_OK)
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	return engine_game_finish(st, &gs, es, err, errlen);
}

struct running {
	int64_t	games[ENGINE_DELEGATION_GAMES_MAX];
	size_t	n;
};

static int
collect_running(const struct store_game *g, void *arg)
{
	struct running *r = arg;

	if (r->n < ENGINE_DELEGATION_GAMES_MAX)
		r->games[r->n++] = g->id;
	return 0;
}

/* The running games the certificate covers, at most
 * ENGINE_DELEGATION_GAMES_MAX (the first ones by id). */
static enum store_status
covered_games(struct store *st, const struct store_player *p,
    const struct delegation *d, struct running *r)
{
	struct store_game_query q;

	memset(r, 0, sizeof(*r));
	if (d->game != DELEGATION_ALL_GAMES) {
		r->games[r->n++] = d->game;
		return STORE_OK;
	}
	memset(&q, 0, sizeof(q));
	q.limit = ENGINE_DELEGATION_GAMES_MAX;
	q.status = STORE_GAME_RUNNING;
	q.player = p->id;
	return store_game_page(st, &q, collect_running, r);
}

/* A certificate for one game: the game must exist, run, and seat p. */
static enum engine_status
check_one_game(struct store *st, const struct store_player *p,
    int64_t game_id, enum rules_lang lang, char *err, size_t errlen)
{
	struct store_game g;
	int s, seated = 0, running;

	if (store_game_get(st, game_id, &g) != STORE_OK)
		return engine_refusal_in(err, errlen, ENGINE_UNKNOWN_GAME, lang,
		    "there is no game %lld", "il n'y a pas de partie %lld",
		    (long long)game_id);
	for (s = 0; s < g.nseats; s++)
		seated |= g.seat_player[s] == p->id;
	running = g.status == STORE_GAME_RUNNING;
	store_game_clear(&g);
	if (!seated)
		return engine_refusal_in(err, errlen, ENGINE_BAD_SEAT, lang,
		    "%s has no seat in game %lld; a certificate for one game "
		    "is for a game you play", "%s n'a pas de siège dans la "
		    "partie %lld ; un certificat pour une partie vaut pour "
		    "une partie où vous jouez", p->name, (long long)game_id);
	if (!running)
		return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "game %lld is not running (it is forming or over); submit "
		    "the certificate once it runs", "la partie %lld n'est pas "
		    "en cours (elle se forme ou est terminée) ; envoyez le "
		    "certificat quand elle a commencé", (long long)game_id);
	return ENGINE_OK;
}

/* Checks before a new certificate is kept. */
static enum engine_status
check_new(struct store *st, const struct store_player *p,
    const struct delegation *d, int64_t now, enum rules_lang lang,
    char *err, size_t errlen)
{
	struct store_delegation rows[STORE_DELEGATIONS_MAX];
	size_t n;

	if (d->expires <= now)
		return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "the certificate expired at %lld (server time %lld); sign "
		    "one that expires later", "le certificat a expiré à %lld "
		    "(heure du serveur %lld) ; signez-en un qui expire plus "
		    "tard", (long long)d->expires, (long long)now);
	if (memcmp(d->bot, p->pubkey, PROTO_PUBKEY_BYTES) == 0)
		return engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "the bot key is your own key; a bot needs a key of its own "
		    "(pbem keygen)", "la clé du robot est votre propre clé ; "
		    "un robot a besoin de sa propre clé (pbem keygen)");
	if (store_delegation_active(st, p->id, now, rows,
	    STORE_DELEGATIONS_MAX, &n) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_BUSY, "store: %s",
		    store_errmsg(st));
	if (n >= STORE_DELEGATIONS_MAX)
		return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "%s already has %d certificates in force, the most allowed; "
		    "revoke one first (pbem delegate revoke ID)", "%s a déjà %d "
		    "certificats en vigueur, le maximum ; révoquez-en un "
		    "d'abord (pbem delegate revoke ID)", p->name,
		    STORE_DELEGATIONS_MAX);
	if (d->game != DELEGATION_ALL_GAMES)
		return check_one_game(st, p, d->game, lang, err, errlen);
	return ENGINE_OK;
}

enum engine_status
engine_delegation_submit(struct store *st, const struct serverkey *key,
    const struct store_player *p, const struct delegation *d, int64_t now,
    enum rules_lang lang, struct engine_delegation_result *res, char *err,
    size_t errlen)
{
	struct store_delegation row;
	struct running games;
	enum engine_status es;
	enum store_status sr;
	size_t i;

	memset(res, 0, sizeof(*res));
	if (strcasecmp(d->player, p->name) != 0)
		return engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "the certificate is for player %s; only %s can send it",
		    "le certificat est celui du joueur %s ; seul %s peut "
		    "l'envoyer", d->player, d->player);
	if (delegation_verify(d, p->pubkey) != PROTO_OK)
		return engine_refusal_in(err, errlen, ENGINE_BAD_SIGNATURE,
		    lang, "the certificate's signature does not match %s's key "
		    "for these fields (pbem delegate signs them)", "la "
		    "signature du certificat ne correspond pas à la clé de %s "
		    "pour ces champs (pbem delegate les signe)", p->name);
	if (delegation_id(d, res->id) != 0)
		return engine_refusal(err, errlen, ENGINE_BAD_REQUEST,
		    "the certificate cannot be encoded");
	sr = store_delegation_get(st, res->id, &row);
	if (sr == STORE_OK && row.revoked != 0)
		return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "certificate %s was revoked; sign a new one", "le "
		    "certificat %s a été révoqué ; signez-en un nouveau",
		    res->id);
	if (sr == STORE_NOTFOUND) {
		if ((es = check_new(st, p, d, now, lang, err, errlen)) !=
		    ENGINE_OK)
			return es;
		memset(&row, 0, sizeof(row));
		memcpy(row.id, res->id, sizeof(row.id));
		row.player_id = p->id;
		memcpy(row.bot_key, d->bot, STORE_KEY_BYTES);
		row.game_id = d->game;
		row.scope = d->scope;
		row.issued = d->issued;
		row.expires = d->expires;
		memcpy(row.signature, d->signature, STORE_SIG_BYTES);
		if (store_delegation_add(st, &row) != STORE_OK)
			return engine_refusal(err, errlen, ENGINE_BUSY,
			    "store: %s", store_errmsg(st));
		res->created = 1;
	} else if (sr != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_BUSY, "store: %s",
		    store_errmsg(st));
	else if (row.expires <= now)
		return check_new(st, p, d, now, lang, err, errlen);
	/* Sent again: recorded in the games that started since. */
	if (covered_games(st, p, d, &games) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_BUSY, "store: %s",
		    store_errmsg(st));
	for (i = 0; i < games.n; i++) {
		es = record_in_game(st, key, p, d, res->id, games.games[i],
		    now, err, errlen);
		if (es == ENGINE_OK)
			res->games[res->ngames++] = games.games[i];
		else if (es != ENGINE_GAME_OVER && es != ENGINE_BAD_SEAT)
			return es;
	}
	return ENGINE_OK;
}

enum engine_status
engine_delegation_revoke(struct store *st, const struct serverkey *key,
    const struct store_player *p, const char *id, int64_t now,
    enum rules_lang lang, char *err, size_t errlen)
{
	struct store_delegation row;
	struct gamestate gs;
	enum engine_status es;
	int64_t games[ENGINE_DELEGATION_GAMES_MAX];
	size_t n, i;
	char *text;
	int seat;

	if (store_delegation_get(st, id, &row) != STORE_OK ||
	    row.player_id != p->id)
		return engine_refusal_in(err, errlen, ENGINE_UNKNOWN_GAME, lang,
		    "%s has no certificate %s", "%s n'a pas de certificat %s",
		    p->name, id);
	if (row.revoked != 0)
		return ENGINE_OK;
	if (store_delegation_revoke(st, id, now) != STORE_OK ||
	    store_delegation_games(st, id, games, ENGINE_DELEGATION_GAMES_MAX,
	    &n) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_BUSY, "store: %s",
		    store_errmsg(st));
	for (i = 0; i < n; i++) {
		es = engine_game_open(st, games[i], -1, &gs, lang, err, errlen);
		if (es == ENGINE_GAME_OVER)
			continue;
		if (es != ENGINE_OK)
			return es;
		if ((seat = seat_of(&gs, p->id)) < 0) {
			store_rollback(st);
			gamestate_clear(&gs);
			continue;
		}
		text = engine_record_text(games[i], gs.seq + 1,
		    "revoke_delegation", json_pack("{s:i, s:s, s:s}", "seat",
		    seat, "player", p->name, "id", id));
		es = engine_server_entry(st, key, &gs, STORE_ENTRY_REVOCATION,
		    seat, text, NULL, 0, now, err, errlen);
		free(text);
		if ((es = engine_game_finish(st, &gs, es, err, errlen)) !=
		    ENGINE_OK)
			return es;
	}
	return ENGINE_OK;
}

/* The certificates of p in force at now that cover game_id with at least
 * `scope` (moves covers views) and are recorded in its log, still signed
 * by p's current key: into out (at most STORE_DELEGATIONS_MAX). */
static size_t
usable(struct store *st, const struct store_player *p, int64_t game_id,
    enum delegation_scope scope, int64_t now,
    struct store_delegation out[STORE_DELEGATIONS_MAX])
{
	struct store_delegation rows[STORE_DELEGATIONS_MAX];
	struct delegation d;
	size_t n, i, kept = 0;

	if (store_delegation_active(st, p->id, now, rows,
	    STORE_DELEGATIONS_MAX, &n) != STORE_OK)
		return 0;
	for (i = 0; i < n; i++) {
		if (rows[i].game_id != DELEGATION_ALL_GAMES &&
		    rows[i].game_id != game_id)
			continue;
		if (scope == DELEGATION_MOVES &&
		    rows[i].scope != DELEGATION_MOVES)
			continue;
		from_row(&rows[i], p->name, &d);
		if (delegation_verify(&d, p->pubkey) != PROTO_OK ||
		    store_delegation_game_has(st, rows[i].id, game_id) !=
		    STORE_OK)
			continue;
		out[kept++] = rows[i];
	}
	return kept;
}

int
engine_delegated_move(struct store *st, const struct store_player *p,
    const struct proto_move *m, int64_t now)
{
	struct store_delegation rows[STORE_DELEGATIONS_MAX];
	size_t n, i;

	n = usable(st, p, m->game_id, DELEGATION_MOVES, now, rows);
	for (i = 0; i < n; i++)
		if (proto_move_verify(m, rows[i].bot_key) == PROTO_OK)
			return 1;
	return 0;
}

int
engine_delegated_request(struct store *st, const struct store_player *p,
    int64_t game_id, const struct reqsig *rs, const char *method,
    const char *target, const void *body, size_t body_len, int64_t now)
{
	struct store_delegation rows[STORE_DELEGATIONS_MAX];
	size_t n, i;

	n = usable(st, p, game_id, DELEGATION_VIEWS, now, rows);
	for (i = 0; i < n; i++)
		if (reqsig_verify(rs, method, target, body, body_len,
		    rows[i].bot_key) == PROTO_OK)
			return 1;
	return 0;
}

int
engine_delegates_to(struct store *st, const struct store_player *p,
    const unsigned char bot[STORE_KEY_BYTES], int64_t now)
{
	struct store_delegation rows[STORE_DELEGATIONS_MAX];
	struct delegation d;
	size_t n, i;

	if (store_delegation_active(st, p->id, now, rows,
	    STORE_DELEGATIONS_MAX, &n) != STORE_OK)
		return 0;
	for (i = 0; i < n; i++) {
		if (memcmp(rows[i].bot_key, bot, STORE_KEY_BYTES) != 0)
			continue;
		from_row(&rows[i], p->name, &d);
		if (delegation_verify(&d, p->pubkey) == PROTO_OK)
			return 1;
	}
	return 0;
}

int
engine_delegation_game_started(struct store *st, const struct serverkey *key,
    int64_t game_id, int64_t now)
{
	struct store_delegation rows[STORE_DELEGATIONS_MAX];
	struct store_player p;
	struct store_game g;
	struct delegation d;
	char err[512];
	size_t n, i;
	int s, failed = 0;

	if (store_game_get(st, game_id, &g) != STORE_OK)
		return -1;
	for (s = 0; s < g.nseats; s++) {
		if (store_player_get(st, g.seat_player[s], &p) != STORE_OK ||
		    store_delegation_active(st, p.id, now, rows,
		    STORE_DELEGATIONS_MAX, &n) != STORE_OK)
			continue;
		for (i = 0; i < n; i++) {
			if (rows[i].game_id != DELEGATION_ALL_GAMES &&
			    rows[i].game_id != game_id)
				continue;
			from_row(&rows[i], p.name, &d);
			if (delegation_verify(&d, p.pubkey) == PROTO_OK &&
			    record_in_game(st, key, &p, &d, rows[i].id, game_id,
			    now, err, sizeof(err)) != ENGINE_OK)
				failed = -1;
		}
	}
	store_game_clear(&g);
	return failed;
}
