/*
 * serverentry.c -- log entries the server writes and signs: automatic
 * moves, skipped turns, resignations, seat replacements and games called
 * off (docs/LOG.md, docs/ASYNC.md); and a game's policy as the engine
 * reads it.
 *
 * A server entry goes through the same chain as a player's move: the
 * next sequence number, the previous entry's hash, the state hash after
 * it, the snapshot, the outbox rows, the server's receipt -- in the
 * caller's transaction.  Only its signature differs: the server's key
 * signs an automatic move's canonical move encoding (docs/PROTOCOL.md)
 * exactly as a player would, and the record text of the other kinds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "engine.h"
#include "rng.h"
#include "schedule.h"
#include "webhook.h"

char *
engine_record_text(int64_t game_id, int64_t seq, const char *event,
    json_t *fields)
{
	char *text;

	if (fields == NULL)
		fields = json_object();
	json_object_set_new(fields, "format", json_string("pbem-event-v1"));
	json_object_set_new(fields, "event", json_string(event));
	json_object_set_new(fields, "game", json_integer(game_id));
	json_object_set_new(fields, "seq", json_integer(seq));
	text = json_dumps(fields, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_ENSURE_ASCII);
	json_decref(fields);
	return text;
}

/* Play text for seat on gs's state (an automatic move). */
static enum engine_status
play_auto(struct gamestate *gs, int seat, const char *text, int64_t seq,
    char *err, size_t errlen)
{
	char rerr[RULES_ERRLEN];
	struct rules_rng rng;
	json_t *move = NULL;

	if (gs->module->parse(gs->state, seat, text, RULES_LANG_EN, &move,
	    rerr, sizeof(rerr)) != RULES_OK ||
	    gs->module->check(gs->state, seat, move, RULES_LANG_EN, rerr,
	    sizeof(rerr)) != RULES_OK) {
		snprintf(err, errlen, "%s: the automatic move \"%s\" for seat "
		    "%d is refused by the rules: %s", gs->module->name, text,
		    seat, rerr);
		json_decref(move);
		return ENGINE_INTERNAL;
	}
	rng_init(&rng, gs->game.seed, (uint64_t)seq);
	gs->module->apply(gs->state, seat, move, &rng);
	json_decref(move);
	return ENGINE_OK;
}

static enum engine_status
play_skip(struct gamestate *gs, int seat, int64_t seq, char *err,
    size_t errlen)
{
	char rerr[RULES_ERRLEN];
	struct rules_rng rng;

	if (gs->module->api_version < 3 || gs->module->skip_check == NULL) {
		snprintf(err, errlen, "%s does not allow a turn to be skipped",
		    gs->module->name);
		return ENGINE_REFUSED;
	}
	if (gs->module->skip_check(gs->state, seat, RULES_LANG_EN, rerr,
	    sizeof(rerr)) != RULES_OK) {
		snprintf(err, errlen, "seat %d's turn cannot be skipped now: "
		    "%s", seat, rerr);
		return ENGINE_REFUSED;
	}
	rng_init(&rng, gs->game.seed, (uint64_t)seq);
	gs->module->skip_apply(gs->state, seat, &rng);
	return ENGINE_OK;
}

/* The server's signature for entry e. */
static int
sign_entry(const struct serverkey *key, struct store_entry *e)
{
	unsigned char buf[PROTO_CANONICAL_MAX];
	struct proto_move m;
	size_t len;

	if (e->kind != STORE_ENTRY_AUTO) {
		serverkey_sign(key, (const unsigned char *)e->text,
		    strlen(e->text), e->signature);
		return 0;
	}
	memset(&m, 0, sizeof(m));
	m.game_id = e->game_id;
	m.seq = e->seq;
	m.seat = e->seat;
	snprintf(m.text, sizeof(m.text), "%s", e->text);
	if ((len = proto_move_canonical(&m, buf, sizeof(buf))) == 0)
		return -1;
	serverkey_sign(key, buf, len, e->signature);
	return 0;
}

enum engine_status
engine_server_entry(struct store *st, const struct serverkey *key,
    struct gamestate *gs, int kind, int seat, const char *text,
    const char *mover_event, int ends_game, int64_t now, char *err,
    size_t errlen)
{
	struct store_entry e;
	int64_t seq = gs->seq + 1;
	enum engine_status es = ENGINE_OK;
	char clean[PROTO_MOVE_MAX + 1], perr[256], *state_text;
	json_t *saved;
	int over, one;

	if (kind == STORE_ENTRY_AUTO) {
		if (snprintf(clean, sizeof(clean), "%s", text) >=
		    (int)sizeof(clean) || proto_clean_text(clean, perr,
		    sizeof(perr)) != PROTO_OK) {
			snprintf(err, errlen, "automatic move text \"%s\" is "
			    "not a clean move text", text);
			return ENGINE_INTERNAL;
		}
		text = clean;
		es = play_auto(gs, seat, text, seq, err, errlen);
	} else if (kind == STORE_ENTRY_SKIP)
		es = play_skip(gs, seat, seq, err, errlen);
	if (es != ENGINE_OK)
		return es;

	saved = gs->module->save(gs->state);
	state_text = chain_state_text(saved);
	json_decref(saved);
	over = ends_game || gs->module->to_act(gs->state, &one, 1) == 0;

	memset(&e, 0, sizeof(e));
	e.game_id = gs->game.id;
	e.seq = seq;
	e.kind = kind;
	e.seat = seat;
	e.text = (char *)text;
	e.time = now;
	if (sign_entry(key, &e) != 0) {
		free(state_text);
		snprintf(err, errlen, "entry %lld cannot be encoded",
		    (long long)seq);
		return ENGINE_INTERNAL;
	}
	memcpy(e.prev_hash, gs->last_hash, STORE_HASH_BYTES);
	chain_state_hash(state_text, e.state_hash);
	chain_entry_hash(&e, e.hash);
	engine_sign_receipt(key, &e);

	if (store_log_append(st, &e) != STORE_OK ||
	    store_snapshot_put(st, e.game_id, seq, state_text) != STORE_OK ||
	    engine_queue_notifications(st, gs, seat, mover_event, seq,
	    over) != 0 ||
	    engine_queue_observers(st, e.game_id, seq, over ? "game_over" :
	    "update", now) != 0 ||
	    webhook_move(st, gs, seq, seat, over) != 0 ||	/* webhook.h */
	    (over && store_game_set_status(st, e.game_id, STORE_GAME_OVER) !=
	    STORE_OK)) {
		free(state_text);
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return ENGINE_INTERNAL;
	}
	free(state_text);
	gs->seq = seq;
	memcpy(gs->last_hash, e.hash, STORE_HASH_BYTES);
	if (over)
		gs->game.status = STORE_GAME_OVER;
	if (schedule_note_entry(st, gs, now) != 0) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return ENGINE_INTERNAL;
	}
	return ENGINE_OK;
}

/* ---- Policies ----------------------------------------------------------- */

enum engine_status
engine_policy_get(struct store *st, int64_t game_id, struct policy *p,
    char *err, size_t errlen)
{
	return engine_policy_of(st, game_id, NULL, p, err, errlen);
}

enum engine_status
engine_policy_of(struct store *st, int64_t game_id,
    const struct rules_module *m, struct policy *p, char *err,
    size_t errlen)
{
	struct store_game g;
	enum store_status rc;
	char *text = NULL, perr[512];
	int bad;

	policy_default(p);
	rc = store_policy_get(st, game_id, &text);
	if (rc == STORE_NOTFOUND)
		return ENGINE_OK;
	if (rc != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
	}
	if (m == NULL) {
		memset(&g, 0, sizeof(g));
		if (store_game_get(st, game_id, &g) != STORE_OK) {
			free(text);
			snprintf(err, errlen, "there is no game %lld",
			    (long long)game_id);
			return ENGINE_UNKNOWN_GAME;
		}
		m = rules_find(g.ruleset);
		store_game_clear(&g);
	}
	bad = policy_parse(text, m, p, perr, sizeof(perr)) != 0;
	free(text);
	if (bad) {
		snprintf(err, errlen, "game %lld: stored policy refused: %s",
		    (long long)game_id, perr);
		return ENGINE_INTERNAL;
	}
	return ENGINE_OK;
}

enum engine_status
engine_policy_set(struct store *st, int64_t game_id, const struct policy *p,
    char *err, size_t errlen)
{
	struct store_game g;
	char *text;
	enum store_status rc;

	memset(&g, 0, sizeof(g));
	if (store_game_get(st, game_id, &g) != STORE_OK) {
		snprintf(err, errlen, "there is no game %lld",
		    (long long)game_id);
		return ENGINE_UNKNOWN_GAME;
	}
	store_game_clear(&g);
	if ((text = policy_text(p)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return ENGINE_INTERNAL;
	}
	rc = store_policy_set(st, game_id, text);
	free(text);
	if (rc != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return ENGINE_INTERNAL;
	}
	return ENGINE_OK;
}
