/*
 * state.c -- save() and load().
 *
 * The saved state holds every field of struct eve, arrays in their
 * order (deck and pile tops last).  load() trusts nothing: every number
 * is range-checked, every card must be in exactly one place, and the
 * position must be one play could reach; anything else is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eve.h"

static json_t *
save_player(const struct eve_player *pl)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:i, s:i, s:o, s:b}",
	    "deck", rules_json_ints(pl->deck, pl->ndeck),
	    "hand", rules_json_ints(pl->hand, pl->nhand),
	    "reserve", rules_json_ints(pl->reserve, pl->nreserve),
	    "discard", rules_json_ints(pl->discard, pl->ndiscard),
	    "starfleet", rules_json_ints(pl->fleet, pl->nfleet),
	    "pos", pl->pos, "score", pl->score,
	    "tracks", rules_json_ints(pl->track, T_NTRACKS),
	    "destroyed", pl->destroyed);
}

/* Version 3's additions: each seat's last turn (its steps, as a move) and
 * how the last stage to end was scored. */
static void
save_v3(const struct eve *g, json_t *j)
{
	json_t *turns = json_array();
	const struct eve_stage_score *sc = &g->scored;
	int s;

	for (s = 0; s < EVE_SEATS; s++)
		json_array_append_new(turns, g->last[s].nsteps < 0 ?
		    json_null() : eve_steps_json(g->last[s].steps,
		    g->last[s].nsteps));
	json_object_set_new(j, "last_turns", turns);
	json_object_set_new(j, "stage_scored", sc->stage == 0 ? json_null() :
	    json_pack("{s:i, s:i, s:i, s:[i,i]}", "stage", sc->stage,
	    "finisher", sc->finisher, "distance", sc->distance, "starfleet",
	    sc->fleet[0], sc->fleet[1]));
}

json_t *
eve_save(const void *state)
{
	const struct eve *g = state;
	json_t *j;

	j = json_pack("{s:s, s:i, s:i, s:b, s:i, s:i, s:o, s:o, s:o, s:o, "
	    "s:i, s:[i,i], s:[o,o]}",
	    "mode", g->mode == MODE_EXPERT ? "expert" : "base",
	    "stage", g->stage, "current", g->current, "over", g->over,
	    "winner", g->winner, "last_finisher", g->last_finisher,
	    "row", rules_json_ints(g->row, g->nrow),
	    "flip", rules_json_ints(g->flip, g->nrow),
	    "travel_deck", rules_json_ints(g->tdeck, g->ntdeck),
	    "travel_discard", rules_json_ints(g->tdiscard, g->ntdiscard),
	    "starfleet", g->starfleet,
	    "klingon", g->kl_pos, g->kl_route,
	    "players", save_player(&g->p[0]), save_player(&g->p[1]));
	/* Version 1 states carry no key, so they save (and hash) as they
	 * always did. */
	if (j != NULL && g->version >= 2)
		json_object_set_new(j, "version", json_integer(g->version));
	if (j != NULL && g->version >= 3)
		save_v3(g, j);
	return j;
}

static int
read_int(const json_t *obj, const char *key, int lo, int hi, int *v)
{
	const json_t *x = json_object_get(obj, key);

	if (!json_is_integer(x) || json_integer_value(x) < lo ||
	    json_integer_value(x) > hi)
		return -1;
	*v = (int)json_integer_value(x);
	return 0;
}

static int
load_player(const json_t *j, struct eve_player *pl, int nrow)
{
	const json_t *b = json_object_get(j, "destroyed");
	int n;

	if (!json_is_object(j) || json_object_size(j) != 9 ||
	    !json_is_boolean(b) ||
	    rules_json_read_ints(json_object_get(j, "deck"), pl->deck,
	    EVE_DECK, 0, EVE_DECK - 1, &pl->ndeck) != 0 ||
	    rules_json_read_ints(json_object_get(j, "hand"), pl->hand,
	    EVE_HAND, 0, EVE_DECK - 1, &pl->nhand) != 0 ||
	    rules_json_read_ints(json_object_get(j, "reserve"), pl->reserve,
	    EVE_DECK, 0, EVE_DECK - 1, &pl->nreserve) != 0 ||
	    rules_json_read_ints(json_object_get(j, "discard"), pl->discard,
	    EVE_DECK, 0, EVE_DECK - 1, &pl->ndiscard) != 0 ||
	    rules_json_read_ints(json_object_get(j, "starfleet"), pl->fleet,
	    EVE_DECK, 0, EVE_DECK - 1, &pl->nfleet) != 0 ||
	    rules_json_read_ints(json_object_get(j, "tracks"), pl->track,
	    T_NTRACKS, 0, EVE_TRACK_MAX, &n) != 0 || n != T_NTRACKS ||
	    read_int(j, "pos", -1, nrow - 1, &pl->pos) != 0 ||
	    read_int(j, "score", 0, 99, &pl->score) != 0)
		return -1;
	pl->destroyed = json_is_true(b);
	return 0;
}

/* The inverse of save_v3(), range-checked; -1 on anything else.  A stage
 * scored is one before the current stage, or the current one once the
 * game is over (it ended the game). */
static int
load_v3(const json_t *saved, struct eve *g)
{
	const json_t *turns = json_object_get(saved, "last_turns");
	const json_t *sc = json_object_get(saved, "stage_scored"), *t;
	int s, n;

	if (!json_is_array(turns) || json_array_size(turns) != EVE_SEATS)
		return -1;
	for (s = 0; s < EVE_SEATS; s++) {
		t = json_array_get(turns, (size_t)s);
		g->last[s].nsteps = -1;
		if (!json_is_null(t) && (!json_is_object(t) ||
		    json_object_size(t) != 1 || eve_steps_from_json(t,
		    g->last[s].steps, &g->last[s].nsteps) != 0))
			return -1;
	}
	if (json_is_null(sc))
		return 0;
	if (!json_is_object(sc) || json_object_size(sc) != 4 ||
	    read_int(sc, "stage", 1, g->stage, &g->scored.stage) != 0 ||
	    (g->scored.stage == g->stage && !g->over) ||
	    read_int(sc, "finisher", 0, EVE_SEATS - 1,
	    &g->scored.finisher) != 0 ||
	    read_int(sc, "distance", 0, EVE_TRAVEL, &g->scored.distance) !=
	    0 || rules_json_read_ints(json_object_get(sc, "starfleet"),
	    g->scored.fleet, EVE_SEATS, 0, EVE_DECK, &n) != 0 ||
	    n != EVE_SEATS)
		return -1;
	return 0;
}

void *
eve_load(const json_t *saved, char *err, size_t errlen)
{
	struct eve g, *copy;
	const json_t *kl, *players, *over;
	const char *mode;
	int n, i, s, klv[2];

	memset(&g, 0, sizeof(g));
	mode = json_string_value(json_object_get(saved, "mode"));
	kl = json_object_get(saved, "klingon");
	players = json_object_get(saved, "players");
	over = json_object_get(saved, "over");
	g.version = 1;
	if (json_object_get(saved, "version") != NULL &&
	    read_int(saved, "version", 2, EVE_RULES_VERSION, &g.version) != 0)
		goto bad;
	if (!json_is_object(saved) ||
	    json_object_size(saved) != (size_t)(g.version >= 3 ? 16 :
	    g.version == 2 ? 14 : 13) ||
	    mode == NULL || !json_is_boolean(over))
		goto bad;
	if (strcmp(mode, "base") == 0)
		g.mode = MODE_BASE;
	else if (strcmp(mode, "expert") == 0)
		g.mode = MODE_EXPERT;
	else
		goto bad;
	g.over = json_is_true(over);
	if (read_int(saved, "stage", 1, 1000, &g.stage) != 0 ||
	    read_int(saved, "current", 0, 1, &g.current) != 0 ||
	    read_int(saved, "winner", -1, 1, &g.winner) != 0 ||
	    read_int(saved, "last_finisher", -1, 1, &g.last_finisher) != 0 ||
	    read_int(saved, "starfleet", 0, EVE_STARFLEET - 1,
	    &g.starfleet) != 0 ||
	    rules_json_read_ints(json_object_get(saved, "row"), g.row,
	    EVE_TRAVEL, 0, EVE_TRAVEL - 1, &g.nrow) != 0 ||
	    rules_json_read_ints(json_object_get(saved, "flip"), g.flip,
	    EVE_TRAVEL, 0, 1, &n) != 0 || n != g.nrow || g.nrow < 1 ||
	    rules_json_read_ints(json_object_get(saved, "travel_deck"),
	    g.tdeck, EVE_TRAVEL, 0, EVE_TRAVEL - 1, &g.ntdeck) != 0 ||
	    rules_json_read_ints(json_object_get(saved, "travel_discard"),
	    g.tdiscard, EVE_TRAVEL, 0, EVE_TRAVEL - 1, &g.ntdiscard) != 0)
		goto bad;
	if (rules_json_read_ints(kl, klv, 2, -1, EVE_TRAVEL, &n) != 0 ||
	    n != 2)
		goto bad;
	g.kl_pos = klv[0];
	g.kl_route = klv[1];
	if (g.kl_pos < -1 || g.kl_pos >= g.nrow || g.kl_route < 0 ||
	    g.kl_route > 1 || (g.kl_pos < 0 && g.kl_route != 0))
		goto bad;
	if (!json_is_array(players) || json_array_size(players) != 2)
		goto bad;
	for (s = 0; s < EVE_SEATS; s++)
		if (load_player(json_array_get(players, (size_t)s), &g.p[s],
		    g.nrow) != 0)
			goto bad;
	if (!eve_conserved(&g))
		goto bad;
	g.last[0].nsteps = g.last[1].nsteps = -1;
	if (g.version >= 3 && load_v3(saved, &g) != 0)
		goto bad;
	for (s = 0; s < EVE_SEATS; s++) {
		if (g.kl_pos >= 0 && g.kl_route == s && g.p[s].pos == g.kl_pos)
			goto bad;	/* a ship never shares the Klingon's space */
		if (!g.over && g.p[s].pos == g.nrow - 1)
			goto bad;	/* that stage would have ended */
		if (g.mode == MODE_BASE && (g.p[s].destroyed ||
		    g.p[s].track[0] + g.p[s].track[1] + g.p[s].track[2] +
		    g.p[s].track[3] != 0))
			goto bad;
		if (g.p[s].destroyed && !g.over)
			goto bad;
		if (g.mode == MODE_EXPERT &&
		    g.p[s].destroyed != (g.p[s].track[T_HULL] == 0))
			goto bad;
	}
	if (!g.over && g.winner != -1)
		goto bad;
	for (i = 0; i < EVE_SEATS; i++)
		if (!g.over && g.p[i].score >= EVE_WIN)
			goto bad;
	if ((copy = malloc(sizeof(*copy))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	*copy = g;
	return copy;
bad:
	snprintf(err, errlen, "saved Enterprise vs Excelsior state is not "
	    "valid");
	return NULL;
}
