/*
 * serverentry.c -- log entries the server writes and signs: automatic
 * moves, skipped turns, resignations, seat replacements and games called
 * off (docs/LOG.md, docs/ASYNC.md).
 *
 * A server entry goes through the same chain as a player's move: the
 * next sequence number, the previous entry's hash, the state hash after
 * it, the snapshot, the outbox rows, the server's receipt -- in the
 * caller's transaction.  Only its signature differs: the server's key
 * signs an automatic move's canonical move encoding (docs/PROTOCOL.md)
 * exactly as a player would, and the record text of the other kinds.
 * The chaining and every row an entry brings are record.c's, shared with
 * the players' moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "record.h"
#include "rng.h"

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

	if (e->kind != STORE_ENTRY_AUTO && e->kind != STORE_ENTRY_BOT) {
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
	char clean[PROTO_MOVE_MAX + 1], perr[256];
	int over, one;

	if (kind == STORE_ENTRY_AUTO || kind == STORE_ENTRY_BOT) {
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

	over = ends_game || gs->module->to_act(gs->state, &one, 1) == 0;
	memset(&e, 0, sizeof(e));
	e.game_id = gs->game.id;
	e.seq = seq;
	e.kind = kind;
	e.seat = seat;
	e.text = (char *)text;
	e.time = now;
	if (sign_entry(key, &e) != 0) {
		snprintf(err, errlen, "entry %lld cannot be encoded",
		    (long long)seq);
		return ENGINE_INTERNAL;
	}
	switch (engine_append_entry(st, key, gs, &e, seat, mover_event, over,
	    err, errlen)) {
	case STORE_OK:
		return ENGINE_OK;
	case STORE_EXISTS:
		snprintf(err, errlen, "store: entry %lld of game %lld was "
		    "written meanwhile", (long long)seq, (long long)e.game_id);
		return ENGINE_INTERNAL;
	default:
		return ENGINE_INTERNAL;
	}
}
