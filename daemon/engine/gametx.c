/*
 * gametx.c -- the write transaction of a seat or game-master command
 * (gametx.h).
 */
#include "gametx.h"
#include "refusal.h"

enum engine_status
engine_game_open(struct store *st, int64_t game_id, int seat,
    struct gamestate *gs, enum rules_lang lang, char *err, size_t errlen)
{
	enum engine_status es;
	int one;

	if (store_begin(st) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_BUSY,
		    "the store is busy: %s; try again", store_errmsg(st));
	es = gamestate_load(st, game_id, -1, gs, err, errlen);
	if (es != ENGINE_OK) {
		store_rollback(st);
		return es;
	}
	if (gs->game.status == STORE_GAME_OVER ||
	    gs->module->to_act(gs->state, &one, 1) == 0)
		es = engine_refusal_in(err, errlen, ENGINE_GAME_OVER, lang,
		    "game %lld is over", "la partie %lld est terminée",
		    (long long)game_id);
	else if (seat < -1 || seat >= gs->game.nseats)
		es = engine_refusal_in(err, errlen, ENGINE_BAD_SEAT, lang,
		    "game %lld has seats 0 to %d; there is no seat %d",
		    "la partie %lld a les sièges 0 à %d ; il n'y a pas de "
		    "siège %d",
		    (long long)game_id, gs->game.nseats - 1, seat);
	if (es != ENGINE_OK) {
		store_rollback(st);
		gamestate_clear(gs);
	}
	return es;
}

enum engine_status
engine_game_finish(struct store *st, struct gamestate *gs,
    enum engine_status es, char *err, size_t errlen)
{
	if (es == ENGINE_OK && store_commit(st) != STORE_OK)
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	if (es != ENGINE_OK)
		store_rollback(st);
	else
		engine_committed(gs->game.id, gs->seq);	/* engine.h */
	gamestate_clear(gs);
	return es;
}
