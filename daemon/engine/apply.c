/*
 * apply.c -- a checked move inside the write transaction (apply.h):
 * sequence -> parse -> check -> apply -> save + hash -> receipt ->
 * append + snapshot + outbox + status.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "chain.h"
#include "clock.h"
#include "rng.h"
#include "schedule.h"
#include "webhook.h"

void
engine_refuse(struct engine_reply *reply, enum engine_status status,
    const char *fmt, ...)
{
	va_list ap;

	reply->status = status;
	va_start(ap, fmt);
	vsnprintf(reply->message, sizeof(reply->message), fmt, ap);
	va_end(ap);
}

static enum engine_status
from_rules(enum rules_status rs)
{
	switch (rs) {
	case RULES_OK:
		return ENGINE_OK;
	case RULES_SYNTAX:
		return ENGINE_SYNTAX;
	case RULES_NOT_YOUR_TURN:
		return ENGINE_NOT_YOUR_TURN;
	case RULES_GAME_OVER:
		return ENGINE_GAME_OVER;
	default:
		return ENGINE_ILLEGAL;
	}
}

/* The outbox payload: which game, move and seat to render at delivery
 * (never the view itself, so no hidden card is stored in the outbox). */
static json_t *
notification_payload(int64_t game_id, int64_t seq, int seat,
    const char *event, int acting)
{
	return json_pack("{s:I, s:I, s:i, s:s, s:b}", "game",
	    (json_int_t)game_id, "seq", (json_int_t)seq, "seat", seat,
	    "event", event, "your_turn", acting);
}

/* One row per seat after entry seq: mover_event for seat mover (if not
 * NULL), "your turn" for the seats to act, idle_event for the others,
 * "game_over" for all once over. */
static int
queue_seats(struct store *st, const struct gamestate *gs, int mover,
    const char *mover_event, const char *idle_event, int64_t seq, int over)
{
	struct store_player p;
	int to_act[STORE_MAX_SEATS], nact, s, i, acting;
	const char *event;

	nact = gs->module->to_act(gs->state, to_act, STORE_MAX_SEATS);
	for (s = 0; s < gs->game.nseats; s++) {
		if (store_player_get(st, gs->game.seat_player[s], &p) !=
		    STORE_OK)
			return -1;
		acting = 0;
		for (i = 0; i < nact && i < STORE_MAX_SEATS; i++)
			if (to_act[i] == s)
				acting = 1;
		event = over ? "game_over" : s == mover && mover_event != NULL ?
		    mover_event : acting ? "your_turn" : idle_event;
		if (engine_outbox_mail(st, gs->game.id, seq, p.email, event,
		    notification_payload(gs->game.id, seq, s, event, acting),
		    clock_now()) != 0)
			return -1;
	}
	return 0;
}

/* Queue one notification per seat: the receipt for the mover, "your
 * turn" for the seats to act, an update for the others (engine.h). */
int
engine_queue_notifications(struct store *st, const struct gamestate *gs,
    int mover, const char *mover_event, int64_t seq, int over)
{
	return queue_seats(st, gs, mover, mover_event, "update", seq, over);
}

int
engine_queue_opening(struct store *st, const struct gamestate *gs)
{
	return queue_seats(st, gs, -1, NULL, "game_started", 0, 0);
}

static void
refuse_seq(struct engine_reply *reply, const struct proto_move *m,
    int64_t next)
{
	if (m->seq < next)
		engine_refuse(reply, ENGINE_STALE_SEQ, "stale sequence number "
		    "%lld: move %lld of game %lld has already been played; "
		    "the next move is number %lld", (long long)m->seq,
		    (long long)m->seq, (long long)m->game_id, (long long)next);
	else
		engine_refuse(reply, ENGINE_FUTURE_SEQ, "sequence number %lld "
		    "is in the future: the next move of game %lld is number "
		    "%lld", (long long)m->seq, (long long)m->game_id,
		    (long long)next);
}

/* Parse, check and apply to gs; NULL json on refusal (gs unchanged). */
static json_t *
play(struct gamestate *gs, const struct proto_move *m, enum rules_lang lang,
    struct engine_reply *reply)
{
	char rerr[RULES_ERRLEN];
	enum rules_status rs;
	json_t *move = NULL;
	struct rules_rng rng;

	rerr[0] = '\0';
	rs = gs->module->parse(gs->state, m->seat, m->text, lang, &move,
	    rerr, sizeof(rerr));
	if (rs == RULES_OK)
		rs = gs->module->check(gs->state, m->seat, move, lang, rerr,
		    sizeof(rerr));
	if (rs != RULES_OK) {
		engine_refuse(reply, from_rules(rs), "%s", rerr);
		reply->forms = gs->module->move_forms(gs->state, m->seat, lang);
		json_decref(move);
		return NULL;
	}
	rng_init(&rng, gs->game.seed, (uint64_t)m->seq);
	gs->module->apply(gs->state, m->seat, move, &rng);
	return move;
}

enum engine_status
apply_move(struct store *st, const struct serverkey *key,
    struct gamestate *gs, const struct proto_move *m, enum rules_lang lang,
    struct engine_reply *reply, int *gs_spoilt)
{
	struct store_entry e;
	json_t *move, *saved;
	char *state_text;
	int over, seats[1];

	*gs_spoilt = 0;
	reply->next_seq = gs->seq + 1;
	/* Asynchronous play: a resigned or absent seat sends no moves.
	 * The status was read with the game, under the write lock, so a
	 * seat that resigned or was marked absent after the move was
	 * verified is refused too; engine_seat_may_move() says why. */
	if (gs->game.seat_status[m->seat] != STORE_SEAT_PLAYING &&
	    engine_seat_may_move(st, m->game_id, m->seat, reply->message,
	    sizeof(reply->message)) != ENGINE_OK) {
		reply->status = ENGINE_REFUSED;
		return reply->status;
	}
	if (m->seq != gs->seq + 1) {
		refuse_seq(reply, m, gs->seq + 1);
		return reply->status;
	}
	if (gs->module->to_act(gs->state, seats, 1) == 0 ||
	    gs->game.status == STORE_GAME_OVER) {
		engine_refuse(reply, ENGINE_GAME_OVER, "game %lld is over; no "
		    "more moves are accepted", (long long)m->game_id);
		return reply->status;
	}
	if ((move = play(gs, m, lang, reply)) == NULL)
		return reply->status;
	json_decref(move);
	*gs_spoilt = 1;		/* until every row is written */

	saved = gs->module->save(gs->state);
	state_text = chain_state_text(saved);
	json_decref(saved);
	if (state_text == NULL) {
		engine_refuse(reply, ENGINE_INTERNAL, "out of memory");
		return reply->status;
	}
	over = gs->module->to_act(gs->state, seats, 1) == 0;

	memset(&e, 0, sizeof(e));
	e.game_id = m->game_id;
	e.seq = m->seq;
	e.kind = STORE_ENTRY_MOVE;
	e.seat = m->seat;
	e.text = (char *)m->text;
	e.time = clock_now();
	memcpy(e.signature, m->signature, STORE_SIG_BYTES);
	memcpy(e.prev_hash, gs->last_hash, STORE_HASH_BYTES);
	chain_state_hash(state_text, e.state_hash);
	chain_entry_hash(&e, e.hash);
	engine_sign_receipt(key, &e);
	gs->seq = m->seq;	/* gs is now the state after entry m->seq */

	switch (store_log_append(st, &e)) {
	case STORE_OK:
		break;
	case STORE_EXISTS:
		refuse_seq(reply, m, m->seq + 1);
		free(state_text);
		return reply->status;
	default:
		goto store_error;
	}
	if (store_snapshot_put(st, m->game_id, m->seq, state_text) !=
	    STORE_OK ||
	    engine_queue_notifications(st, gs, m->seat, "accepted", m->seq,
	    over) != 0 ||
	    engine_queue_observers(st, m->game_id, m->seq, over ? "game_over" :
	    "update", e.time) != 0 ||
	    schedule_note_entry(st, gs, e.time) != 0)
		goto store_error;
	/*
	 * Other rows a move adds in its own transaction are written here,
	 * each by one call into its module, which returns 0 or fails like
	 * the calls above (goto store_error).
	 */
	if (webhook_move(st, gs, m->seq, m->seat, over) != 0)	/* webhook.h */
		goto store_error;
	if (over && store_game_set_status(st, m->game_id, STORE_GAME_OVER) !=
	    STORE_OK)
		goto store_error;
	free(state_text);

	if (over)
		gs->game.status = STORE_GAME_OVER;
	memcpy(gs->last_hash, e.hash, STORE_HASH_BYTES);
	*gs_spoilt = 0;

	reply->status = ENGINE_OK;
	reply->game_over = over;
	reply->next_seq = m->seq + 1;
	reply->receipt.game_id = e.game_id;
	reply->receipt.seq = e.seq;
	reply->receipt.seat = e.seat;
	memcpy(reply->receipt.entry_hash, e.hash, STORE_HASH_BYTES);
	memcpy(reply->receipt.signature, e.receipt, STORE_SIG_BYTES);
	snprintf(reply->message, sizeof(reply->message), lang == RULES_LANG_FR
	    ? "coup %lld accepté" : "move %lld accepted", (long long)m->seq);
	return ENGINE_OK;

store_error:
	engine_refuse(reply, ENGINE_INTERNAL, "store: %s", store_errmsg(st));
	free(state_text);
	return reply->status;
}
