/*
 * turnclock.c -- the turn clock (turnclock.h).
 */
#include <string.h>

#include "turnclock.h"

int
turnclock_shape(const struct gamestate *gs, int seats[STORE_MAX_SEATS],
    int *nact, unsigned *waiting)
{
	const struct rules_module *m = gs->module;
	int i;

	*waiting = 0;
	*nact = gs->game.status == STORE_GAME_OVER ? 0 :
	    m->to_act(gs->state, seats, STORE_MAX_SEATS);
	if (*nact > STORE_MAX_SEATS)
		*nact = STORE_MAX_SEATS;
	for (i = 0; i < *nact; i++)
		*waiting |= 1u << seats[i];
	return m->api_version >= 3 && m->response_window != NULL &&
	    m->response_window(gs->state) != 0;
}

enum store_status
turnclock_update(struct store *st, const struct gamestate *gs, int window,
    unsigned waiting, int64_t when, struct store_turn *turn)
{
	struct store_entry last;
	enum store_status rc;
	int found, continuing;

	rc = store_turn_get(st, gs->game.id, turn);
	if (rc != STORE_OK && rc != STORE_NOTFOUND)
		return rc;
	found = rc == STORE_OK;
	if (found && turn->last_seq == gs->seq)
		return STORE_OK;
	continuing = found && turn->window && window &&
	    (waiting & ~turn->waiting) == 0 && turn->last_seq < gs->seq;
	if (!continuing) {
		if (when < 0) {
			memset(&last, 0, sizeof(last));
			if ((rc = store_log_last(st, gs->game.id, &last)) !=
			    STORE_OK)
				return rc;
			when = last.time;
			store_entry_clear(&last);
		}
		turn->game_id = gs->game.id;
		turn->turn = gs->seq;
		turn->started = when;
	}
	turn->last_seq = gs->seq;
	turn->window = window;
	turn->waiting = waiting;
	return store_turn_put(st, turn);
}

int
turnclock_note(struct store *st, const struct gamestate *gs,
    int64_t when)
{
	struct store_turn turn;
	int seats[STORE_MAX_SEATS], nact, window;
	unsigned waiting;

	window = turnclock_shape(gs, seats, &nact, &waiting);
	return turnclock_update(st, gs, window, waiting, when, &turn) ==
	    STORE_OK ? 0 : -1;
}
