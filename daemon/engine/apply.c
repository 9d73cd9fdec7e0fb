/*
 * apply.c -- a checked move inside the write transaction (apply.h):
 * sequence -> parse -> check -> apply -> save + hash -> receipt ->
 * append + snapshot + outbox + status.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "clock.h"
#include "record.h"
#include "rng.h"

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

void
engine_refuse_lang(struct engine_reply *reply, enum engine_status status,
    enum rules_lang lang, const char *en, const char *fr, ...)
{
	va_list ap;

	reply->status = status;
	va_start(ap, fr);
	vsnprintf(reply->message, sizeof(reply->message),
	    lang == RULES_LANG_FR ? fr : en, ap);
	va_end(ap);
}

/* The seat's player moved: the bot no longer holds the seat. */
static int
take_seat_back(struct store *st, struct gamestate *gs, int seat, char *err,
    size_t errlen)
{
	struct store_seat row;

	if (store_seat_get(st, gs->game.id, seat, &row) != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return -1;
	}
	row.status = STORE_SEAT_PLAYING;
	if (store_seat_update(st, &row) != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return -1;
	}
	gs->game.seat_status[seat] = STORE_SEAT_PLAYING;
	return 0;
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

static void
refuse_seq(struct engine_reply *reply, const struct proto_move *m,
    int64_t next, enum rules_lang lang)
{
	if (m->seq < next)
		engine_refuse_lang(reply, ENGINE_STALE_SEQ, lang,
		    "stale sequence number %lld: move %lld of game %lld has "
		    "already been played; the next move is number %lld",
		    "numéro de coup périmé, %lld : le coup %lld de la partie "
		    "%lld a déjà été joué ; le prochain coup porte le numéro "
		    "%lld", (long long)m->seq,
		    (long long)m->seq, (long long)m->game_id, (long long)next);
	else
		engine_refuse_lang(reply, ENGINE_FUTURE_SEQ, lang,
		    "sequence number %lld is in the future: the next move of "
		    "game %lld is number %lld",
		    "le numéro de coup %lld est dans le futur : le prochain "
		    "coup de la partie %lld porte le numéro %lld",
		    (long long)m->seq, (long long)m->game_id,
		    (long long)next);
}

/* ENGINE_OK if gs's game is running; else the refusal, with times in
 * the zone of the seat's player p. */
static enum engine_status
paused(struct store *st, const struct gamestate *gs,
    const struct store_player *p, enum rules_lang lang,
    struct engine_reply *reply)
{
	return engine_master_paused(st, gs->game.id, lang, p->tz,
	    reply->message, sizeof(reply->message));
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
		reply->legal = gs->module->legal_moves(gs->state, m->seat);
		json_decref(move);
		return NULL;
	}
	rng_init(&rng, gs->game.seed, (uint64_t)m->seq);
	gs->module->apply(gs->state, m->seat, move, &rng);
	return move;
}

/* The move's signature, checked again under the write lock at the time
 * it is recorded, with the seat's player p read there: a bot's move (kind
 * STORE_ENTRY_DELEGATED) needs a certificate still in force (it may have
 * expired or been revoked since, delegate.c); any other needs the key it
 * was verified with to be still the seat's (it may have been replaced
 * since).  ENGINE_OK, or the refusal in reply. */
static enum engine_status
signature_holds(struct store *st, const struct store_player *p,
    const struct proto_move *m, int kind, const unsigned char *signer,
    int64_t now, enum rules_lang lang, struct engine_reply *reply)
{
	if (kind == STORE_ENTRY_DELEGATED) {
		if (engine_delegated_move(st, p, m, now))
			return ENGINE_OK;
		engine_refuse_lang(reply, ENGINE_BAD_SIGNATURE, lang,
		    "the certificate that let a bot move for seat %d expired "
		    "or was revoked before the move was recorded",
		    "le certificat qui permettait à un robot de jouer pour le "
		    "siège %d a expiré ou a été révoqué avant que le coup soit "
		    "enregistré", m->seat);
		return reply->status;
	}
	assert(signer != NULL);
	if (memcmp(signer, p->pubkey, STORE_KEY_BYTES) == 0)
		return ENGINE_OK;
	engine_refuse_lang(reply, ENGINE_BAD_SIGNATURE, lang,
	    "the key of seat %d (%s) was replaced after this move was "
	    "signed; the move is not recorded: sign it again with the "
	    "seat's current key",
	    "la clé du siège %d (%s) a été remplacée après la signature de "
	    "ce coup ; le coup n'est pas enregistré : signez-le de nouveau "
	    "avec la clé actuelle du siège", m->seat, p->name);
	return reply->status;
}

enum engine_status
apply_move(struct store *st, const struct serverkey *key,
    struct gamestate *gs, const struct proto_move *m, int kind,
    const unsigned char *signer, enum rules_lang lang,
    struct engine_reply *reply, int *gs_spoilt)
{
	struct store_player p;
	struct store_entry e;
	json_t *move;
	char err[1024];
	int64_t now;
	int over, seats[1];

	*gs_spoilt = 0;
	reply->next_seq = gs->seq + 1;
	/* Asynchronous play: a resigned or absent seat sends no moves.
	 * The status was read with the game, under the write lock, so a
	 * seat that resigned or was marked absent after the move was
	 * verified is refused too; engine_seat_may_move() says why. */
	if (gs->game.seat_status[m->seat] != STORE_SEAT_PLAYING &&
	    engine_seat_may_move(st, m->game_id, m->seat, lang,
	    reply->message, sizeof(reply->message)) != ENGINE_OK) {
		reply->status = ENGINE_REFUSED;
		return reply->status;
	}
	/* The seat's player, read under the write lock. */
	if (store_player_get(st, gs->game.seat_player[m->seat], &p) !=
	    STORE_OK) {
		engine_refuse(reply, ENGINE_INTERNAL, "seat %d: %s", m->seat,
		    store_errmsg(st));
		return reply->status;
	}
	/* A paused game takes no move: its master resumes it first. */
	if ((reply->status = paused(st, gs, &p, lang, reply)) != ENGINE_OK)
		return reply->status;
	if (m->seq != gs->seq + 1) {
		refuse_seq(reply, m, gs->seq + 1, lang);
		return reply->status;
	}
	if (gs->module->to_act(gs->state, seats, 1) == 0 ||
	    gs->game.status == STORE_GAME_OVER) {
		engine_refuse_lang(reply, ENGINE_GAME_OVER, lang,
		    "game %lld is over; no more moves are accepted",
		    "la partie %lld est finie ; plus aucun coup n'est "
		    "accepté", (long long)m->game_id);
		return reply->status;
	}
	now = clock_now();
	if (signature_holds(st, &p, m, kind, signer, now, lang, reply) !=
	    ENGINE_OK)
		return reply->status;
	if ((move = play(gs, m, lang, reply)) == NULL)
		return reply->status;
	json_decref(move);
	*gs_spoilt = 1;		/* until every row is written */
	/* A seat the "bot" policy held is its player's again
	 * (docs/ASYNC.md). */
	if (gs->game.seat_status[m->seat] == STORE_SEAT_BOT &&
	    take_seat_back(st, gs, m->seat, err, sizeof(err)) != 0) {
		engine_refuse(reply, ENGINE_INTERNAL, "%s", err);
		return reply->status;
	}

	over = gs->module->to_act(gs->state, seats, 1) == 0;
	memset(&e, 0, sizeof(e));
	e.game_id = m->game_id;
	e.seq = m->seq;
	e.kind = kind;
	e.seat = m->seat;
	e.text = (char *)m->text;
	e.time = now;	/* the time a delegation's expiry is checked at */
	memcpy(e.signature, m->signature, STORE_SIG_BYTES);
	switch (engine_append_entry(st, key, gs, &e, m->seat, "accepted",
	    over, err, sizeof(err))) {
	case STORE_OK:
		break;
	case STORE_EXISTS:
		refuse_seq(reply, m, m->seq + 1, lang);
		return reply->status;
	default:
		engine_refuse(reply, ENGINE_INTERNAL, "%s", err);
		return reply->status;
	}
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
}
