/*
 * turnclock.c -- the turn clock (turnclock.h).
 */
#include <string.h>

#include "clock.h"
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

int64_t
turnclock_deadline(const struct policy *pol, const struct store_turn *turn,
    const struct store_seat *row)
{
	int64_t duration = turn->window ? pol->response_time : pol->turn_time;

	if (duration == 0)
		return 0;
	return policy_deadline(pol, turn->started, duration, row->away_from,
	    row->away_until);
}

/* The clock of gs's turn as it stands: the recorded one if it has seen
 * gs's entry, else a turn starting at that entry's time.  0 or -1. */
static int
current_turn(struct store *st, const struct gamestate *gs,
    struct store_turn *turn)
{
	struct store_entry e;
	int seats[STORE_MAX_SEATS], nact;
	unsigned waiting;

	if (store_turn_get(st, gs->game.id, turn) == STORE_OK &&
	    turn->last_seq == gs->seq)
		return 0;
	memset(turn, 0, sizeof(*turn));
	memset(&e, 0, sizeof(e));
	if (store_log_get(st, gs->game.id, gs->seq, &e) != STORE_OK) {
		store_entry_clear(&e);
		return -1;
	}
	turn->game_id = gs->game.id;
	turn->turn = turn->last_seq = gs->seq;
	turn->started = e.time;
	turn->window = turnclock_shape(gs, seats, &nact, &waiting);
	turn->waiting = waiting;
	store_entry_clear(&e);
	return 0;
}

void
engine_view_deadlines(struct store *st, const struct gamestate *gs,
    int64_t now, json_t *view)
{
	struct store_master master;
	struct store_turn turn;
	struct store_seat row;
	struct policy pol;
	json_t *list;
	char err[256], iso[32];
	int seats[STORE_MAX_SEATS], nact, i, over;
	int64_t deadline;

	(void)gamestate_seat_acts(gs, -1, &over);
	if (over)
		return;
	/* A paused game's clock does not run: no deadline to show. */
	if (store_master_get(st, gs->game.id, &master) == STORE_OK &&
	    master.paused_at != 0) {
		clock_format_iso(master.paused_at, iso, sizeof(iso));
		json_object_set_new(view, "paused_since", json_string(iso));
		return;
	}
	if (engine_policy_of(st, gs->game.id, gs->module, &pol, err,
	    sizeof(err)) != ENGINE_OK || current_turn(st, gs, &turn) != 0)
		return;
	turnclock_shape(gs, seats, &nact, &turn.waiting);
	list = json_array();
	for (i = 0; i < nact; i++) {
		if (store_seat_get(st, gs->game.id, seats[i], &row) != STORE_OK ||
		    row.status == STORE_SEAT_RESIGNED ||
		    (deadline = turnclock_deadline(&pol, &turn, &row)) == 0)
			continue;
		clock_format_iso(deadline, iso, sizeof(iso));
		json_array_append_new(list, json_pack("{s:i, s:s, s:b, s:b}",
		    "seat", seats[i], "deadline", iso, "late", now >= deadline,
		    "absent", row.status == STORE_SEAT_ABSENT));
	}
	if (json_array_size(list) > 0)
		json_object_set_new(view, "deadlines", list);
	else
		json_decref(list);
}
