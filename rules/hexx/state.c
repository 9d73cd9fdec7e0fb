/*
 * state.c -- Mission to Planet Hexx!: the opening position, turns
 * passing, saving and loading, who acts and the result.
 *
 * The saved state names cards by their id in the game's card set; load
 * refuses any id the set lacks, any card found twice or missing, and
 * every number out of range, so a saved state is either a position the
 * rules could reach or refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexx.h"

#define SAVE_VERSION	1

int
hexx_hand_has(const struct hexx *g, int seat, int card)
{
	int i;

	for (i = 0; i < g->seat[seat].nhand; i++)
		if (g->seat[seat].hand[i] == card)
			return 1;
	return 0;
}

static void
start_turn(struct hexx *g)
{
	struct hexx_seat *s = &g->seat[g->current];

	g->actions = HEXX_ACTIONS - (s->mucus < HEXX_ACTIONS ? s->mucus :
	    HEXX_ACTIONS);
	s->mucus = 0;
	g->event_actions = g->move_actions = g->transmit_actions = 0;
}

/* The game runs out of rounds: most Mission cards, then most data. */
static void
score_at_limit(struct hexx *g)
{
	int s, best = -1, key;

	g->winner_mask = 0;
	for (s = 0; s < g->nseats; s++) {
		key = hexx_mission_count(g, s) * 1000 + g->seat[s].base;
		if (key > best) {
			best = key;
			g->winner_mask = 0;
		}
		if (key == best)
			g->winner_mask |= 1 << s;
	}
	g->phase = HEXX_PHASE_OVER;
}

/* The round is finished after a Mission was (ruleset 2, option
 * finish_round, seed line 407): of the finished Missions, the one with
 * the most data in its data base wins (the seed's example); ties share. */
static void
score_finished(struct hexx *g)
{
	int s, best = -1;

	g->winner_mask = 0;
	for (s = 0; s < g->nseats; s++) {
		if (hexx_mission_count(g, s) != HEXX_SLOTS)
			continue;
		if (g->seat[s].base > best) {
			best = g->seat[s].base;
			g->winner_mask = 0;
		}
		if (g->seat[s].base == best)
			g->winner_mask |= 1 << s;
	}
	g->phase = HEXX_PHASE_OVER;
}

int
hexx_bonus_seat(const struct hexx *g)
{
	int i, s;

	for (i = 1; i < g->nseats; i++) {
		s = (g->current + i) % g->nseats;
		if (g->bonus[s] > 0)
			return s;
	}
	return -1;
}

/* End the current turn: draw up to six (discards were chosen by the
 * move), lift this turn's forbids, pass to the next seat. */
void
hexx_end_turn(struct hexx *g, struct rules_rng *rng)
{
	struct hexx_seat *s = &g->seat[g->current];
	int i;

	if (s->nhand < HEXX_HAND)
		hexx_draw(g, g->current, HEXX_HAND - s->nhand, rng);
	if (s->no_move > 0)
		s->no_move--;
	if (s->no_transmit > 0)
		s->no_transmit--;
	for (i = 0; i < HEXX_SEATS_MAX; i++)
		g->shown[i].from = -1;	/* shown hands are hidden again */
	g->current = (g->current + 1) % g->nseats;
	if (g->current == g->first && g->finished) {
		score_finished(g);
		return;
	}
	if (g->current == g->first && ++g->round >= HEXX_ROUND_LIMIT) {
		score_at_limit(g);
		return;
	}
	g->phase = HEXX_PHASE_ACTIONS;
	start_turn(g);
}

/* Each seat rolls two dice; the highest total plays first, the tied
 * highest roll again (seed, MISE EN PLACE II). */
static int
first_player(int nseats, struct rules_rng *rng)
{
	int in[HEXX_SEATS_MAX], roll[HEXX_SEATS_MAX], s, best, n;

	for (s = 0; s < nseats; s++)
		in[s] = 1;
	for (;;) {
		best = 0;
		for (s = 0; s < nseats; s++) {
			roll[s] = 0;
			if (!in[s])
				continue;
			roll[s] = 2 + (int)rules_rng_below(rng, 6) +
			    (int)rules_rng_below(rng, 6);
			if (roll[s] > best)
				best = roll[s];
		}
		n = 0;
		for (s = 0; s < nseats; s++) {
			in[s] = in[s] && roll[s] == best;
			n += in[s];
		}
		if (n == 1)
			for (s = 0; s < nseats; s++)
				if (in[s])
					return s;
	}
}

/* The options of a game of version: ruleset 2 knows finish_round. */
static int
read_options(const json_t *options, int version, int *finish_round,
    char *err, size_t errlen)
{
	const char *key;
	const json_t *v;

	*finish_round = 0;
	if (options == NULL)
		return 0;
	json_object_foreach((json_t *)options, key, v) {
		if (version >= HEXX_RULESET && strcmp(key, "finish_round") == 0 &&
		    json_is_boolean(v)) {
			*finish_round = json_is_true(v);
			continue;
		}
		snprintf(err, errlen, version >= HEXX_RULESET ?
		    "Mission to Planet Hexx! has one option, finish_round "
		    "(true or false), not \"%s\"" : "Mission to Planet Hexx! "
		    "ruleset 1 has no options", key);
		return -1;
	}
	return 0;
}

void *
hexx_setup(const void *cards, int nseats, const json_t *options,
    struct rules_rng *rng, char *err, size_t errlen)
{
	return hexx_setup_version(HEXX_RULESET, cards, nseats, options, rng,
	    err, errlen);
}

/* The deal is the same under every version; the state keeps its
 * version, which decides the rules it plays by. */
void *
hexx_setup_version(int version, const void *cards, int nseats,
    const json_t *options, struct rules_rng *rng, char *err, size_t errlen)
{
	const struct hexx_cards *set = cards;
	int missions[HEXX_MISSIONS_MAX], i, s, finish_round;
	struct hexx *g;

	if (set == NULL) {
		snprintf(err, errlen, "Mission to Planet Hexx! needs its card "
		    "set");
		return NULL;
	}
	if (nseats < 2 || nseats > HEXX_SEATS_MAX) {
		snprintf(err, errlen, "Mission to Planet Hexx! is played by 2 "
		    "to 4 players, not %d", nseats);
		return NULL;
	}
	if (version < HEXX_RULESET_1 || version > HEXX_RULESET) {
		snprintf(err, errlen, "Mission to Planet Hexx! has no ruleset "
		    "version %d", version);
		return NULL;
	}
	if (read_options(options, version, &finish_round, err, errlen) != 0)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (g == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	g->cards = set;
	g->ruleset = version;
	g->finish_round = finish_round;
	for (s = 0; s < HEXX_SEATS_MAX; s++)
		g->shown[s].from = -1;
	g->nseats = nseats;
	g->last.seat = -1;
	g->last.card = g->last.shown = g->last.resolved = -1;
	g->pending.card = g->pending.with = g->pending.riposte_card = -1;
	for (s = 0; s < HEXX_SEATS_MAX; s++)
		g->pending.surprise[s] = -1;
	for (i = 0; i < set->nmissions; i++)
		missions[i] = i;
	rules_rng_shuffle(rng, missions, (size_t)set->nmissions);
	g->first = g->current = first_player(nseats, rng);
	g->tile[0].card = set->base;
	g->tile[1].card = set->colony;
	g->tile[1].q = 1;
	g->tile[1].data = set->card[set->colony].data;
	g->ntiles = 2;
	g->supply = HEXX_DATA_TOTAL - g->tile[1].data;
	for (i = 0; i < set->ncards; i++)
		if (set->card[i].start == 0)
			g->deck[g->ndeck++] = i;
	rules_rng_shuffle(rng, g->deck, (size_t)g->ndeck);
	for (s = 0; s < nseats; s++) {
		g->seat[s].mission = missions[s];
		g->seat[s].side = -1;
		g->seat[s].last_planet = -1;
		for (i = 0; i < HEXX_SLOTS; i++)
			g->seat[s].slot[i] = -1;
		hexx_draw(g, s, HEXX_HAND, rng);
	}
	g->phase = HEXX_PHASE_MISSION;
	return g;
}

void
hexx_destroy(void *state)
{
	free(state);
}

static json_t *
card_json(const struct hexx *g, int card)
{
	return card < 0 ? json_null() : json_string(g->cards->card[card].id);
}

static json_t *
cards_json(const struct hexx *g, const int *cards, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, card_json(g, cards[i]));
	return a;
}

/* What ruleset 2 adds to a saved state; a ruleset 1 state is saved as
 * it always was, so its recorded hashes still match. */
static void
save_ruleset2(const struct hexx *g, json_t *o)
{
	json_t *shown = json_array();
	int s;

	for (s = 0; s < g->nseats; s++)
		json_array_append_new(shown, g->shown[s].from < 0 ?
		    json_null() : json_pack("{s:i,s:o}", "from",
		    g->shown[s].from, "cards", cards_json(g, g->shown[s].cards,
		    g->shown[s].ncards)));
	json_object_set_new(o, "ruleset", json_integer(g->ruleset));
	json_object_set_new(o, "finish_round", json_integer(g->finish_round));
	json_object_set_new(o, "finished", json_integer(g->finished));
	json_object_set_new(o, "bonus", rules_json_ints(g->bonus, g->nseats));
	json_object_set_new(o, "shown", shown);
	json_object_set_new(json_object_get(o, "pending"), "nocollect",
	    json_integer(g->pending.nocollect));
}

json_t *
hexx_save(const void *state)
{
	const struct hexx *g = state;
	const struct hexx_pending *p = &g->pending;
	json_t *o, *tiles, *seats, *hands, *pend, *path, *answers, *surp;
	int i, s;

	tiles = json_array();
	for (i = 0; i < g->ntiles; i++)
		json_array_append_new(tiles, json_pack("{s:o,s:i,s:i,s:i,s:i}",
		    "card", card_json(g, g->tile[i].card), "q", g->tile[i].q,
		    "r", g->tile[i].r, "rot", g->tile[i].rot, "data",
		    g->tile[i].data));
	seats = json_array();
	hands = json_array();
	for (s = 0; s < g->nseats; s++) {
		const struct hexx_seat *st = &g->seat[s];

		json_array_append_new(seats, json_pack("{s:s,s:i,s:o,s:i,s:i,"
		    "s:i,s:o,s:i,s:i,s:i}", "mission",
		    g->cards->mission[st->mission].id, "side", st->side,
		    "slots", cards_json(g, st->slot, HEXX_SLOTS), "base",
		    st->base, "q", st->q, "r", st->r, "last_planet",
		    card_json(g, st->last_planet), "mucus", st->mucus,
		    "no_move", st->no_move, "no_transmit", st->no_transmit));
		json_array_append_new(hands, cards_json(g, st->hand,
		    st->nhand));
	}
	path = json_array();
	for (i = 0; i < p->npath; i++)
		json_array_append_new(path, json_pack("[i,i]", p->path[i][0],
		    p->path[i][1]));
	answers = rules_json_ints(p->answer, g->nseats);
	surp = cards_json(g, p->surprise, g->nseats);
	pend = json_pack("{s:i,s:o,s:o,s:i,s:i,s:o,s:o,s:o,s:i,s:i,s:o,s:o}",
	    "verb", p->verb, "card", card_json(g, p->card), "with",
	    card_json(g, p->with), "alt", p->alt, "blue", p->blue, "at",
	    p->has_at ? json_pack("[i,i]", p->q, p->r) : json_null(), "to",
	    p->has_to ? json_pack("[i,i]", p->tq, p->tr) : json_null(), "path",
	    path, "die_mod", p->die_mod, "cancelled", p->cancelled, "answers",
	    answers, "surprises", surp);
	json_object_set_new(pend, "riposte", json_integer(p->riposte));
	o = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:o,s:o,s:o,"
	    "s:o,s:o,s:o}", "version", SAVE_VERSION, "nseats", g->nseats,
	    "phase", g->phase, "current", g->current, "first", g->first,
	    "round", g->round, "actions", g->actions, "event_actions",
	    g->event_actions, "supply", g->supply, "winners", g->winner_mask,
	    "deck", cards_json(g, g->deck, g->ndeck), "discard",
	    cards_json(g, g->discard, g->ndiscard), "tiles", tiles, "seats",
	    seats, "hands", hands, "pending", pend);
	if (g->ruleset >= HEXX_RULESET)
		save_ruleset2(g, o);
	json_object_set_new(o, "move_actions", json_integer(g->move_actions));
	json_object_set_new(o, "transmit_actions",
	    json_integer(g->transmit_actions));
	json_object_set_new(o, "last", json_pack("{s:i,s:i,s:i,s:i,s:o,s:i,"
	    "s:i,s:i,s:i,s:o}", "resolved", g->last.resolved, "surprises",
	    g->last.surprises, "seat", g->last.seat, "verb", g->last.verb, "card",
	    card_json(g, g->last.card), "roll", g->last.roll, "steps",
	    g->last.steps, "collected", g->last.collected, "fizzled",
	    g->last.fizzled, "shown", card_json(g, g->last.shown)));
	return o;
}

/* ---- load ---- */

struct loader {
	const struct hexx_cards *set;
	int	seen[HEXX_CARDS_MAX];
	int	bad;
};

static int
get_int(const json_t *o, const char *key, int lo, int hi, int *out,
    struct loader *ld)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi) {
		ld->bad = 1;
		return -1;
	}
	*out = (int)json_integer_value(v);
	return 0;
}

/* An integer field added after the first saves: absent reads as 0. */
static void
get_new_int(const json_t *o, const char *key, int lo, int hi, int *out,
    struct loader *ld)
{
	if (json_object_get(o, key) == NULL)
		*out = 0;
	else
		get_int(o, key, lo, hi, out, ld);
}

/* A card id (or null when allow_null) to its index; each card may be
 * placed once only (counted when place is set). */
static int
get_card(const json_t *v, int allow_null, int place, struct loader *ld)
{
	int c;

	if (json_is_null(v) && allow_null)
		return -1;
	if (!json_is_string(v) ||
	    (c = hexx_card_find(ld->set, json_string_value(v))) < 0) {
		ld->bad = 1;
		return -1;
	}
	if (place && ld->seen[c]++ > 0)
		ld->bad = 1;
	return c;
}

static int
get_cards(const json_t *a, int *out, int max, struct loader *ld)
{
	size_t i;

	if (!json_is_array(a) || json_array_size(a) > (size_t)max) {
		ld->bad = 1;
		return 0;
	}
	for (i = 0; i < json_array_size(a); i++)
		out[i] = get_card(json_array_get(a, i), 0, 1, ld);
	return (int)json_array_size(a);
}

/* Cards a seat saw (a shown hand): ids, not counted as placed. */
static int
get_cards_seen(const json_t *a, int *out, struct loader *ld)
{
	size_t i;

	if (!json_is_array(a) || json_array_size(a) > HEXX_CARDS_MAX) {
		ld->bad = 1;
		return 0;
	}
	for (i = 0; i < json_array_size(a); i++)
		out[i] = get_card(json_array_get(a, i), 0, 0, ld);
	return (int)json_array_size(a);
}

static void
load_seat(struct hexx *g, int s, const json_t *o, const json_t *hand,
    struct loader *ld)
{
	struct hexx_seat *st = &g->seat[s];
	const json_t *mission = json_object_get(o, "mission");
	const json_t *slots = json_object_get(o, "slots");
	int i;

	st->mission = -1;
	for (i = 0; json_is_string(mission) && i < ld->set->nmissions; i++)
		if (strcmp(ld->set->mission[i].id,
		    json_string_value(mission)) == 0)
			st->mission = i;
	if (st->mission < 0 || !json_is_array(slots) ||
	    json_array_size(slots) != HEXX_SLOTS) {
		ld->bad = 1;
		return;
	}
	get_int(o, "side", -1, 1, &st->side, ld);
	for (i = 0; i < HEXX_SLOTS; i++) {
		st->slot[i] = get_card(json_array_get(slots, (size_t)i), 1, 1,
		    ld);
		if (st->slot[i] >= 0 && (st->side < 0 ||
		    ld->set->card[st->slot[i]].start))
			ld->bad = 1;
	}
	get_int(o, "base", 0, HEXX_DATA_TOTAL, &st->base, ld);
	get_int(o, "q", -HEXX_RADIUS, HEXX_RADIUS, &st->q, ld);
	get_int(o, "r", -HEXX_RADIUS, HEXX_RADIUS, &st->r, ld);
	st->last_planet = get_card(json_object_get(o, "last_planet"), 1, 0,
	    ld);
	get_int(o, "mucus", 0, HEXX_MUCUS_MAX, &st->mucus, ld);
	get_int(o, "no_move", 0, 100, &st->no_move, ld);
	get_int(o, "no_transmit", 0, 100, &st->no_transmit, ld);
	st->nhand = get_cards(hand, st->hand, HEXX_CARDS_MAX, ld);
}

static void
load_tiles(struct hexx *g, const json_t *tiles, struct loader *ld)
{
	size_t i;

	if (!json_is_array(tiles) || json_array_size(tiles) < 2 ||
	    json_array_size(tiles) > HEXX_CARDS_MAX) {
		ld->bad = 1;
		return;
	}
	for (i = 0; i < json_array_size(tiles) && !ld->bad; i++) {
		const json_t *t = json_array_get(tiles, i);
		struct hexx_tile *tile = &g->tile[i];

		tile->card = get_card(json_object_get(t, "card"), 0, 1, ld);
		get_int(t, "q", -HEXX_RADIUS, HEXX_RADIUS, &tile->q, ld);
		get_int(t, "r", -HEXX_RADIUS, HEXX_RADIUS, &tile->r, ld);
		get_int(t, "rot", 0, 5, &tile->rot, ld);
		get_int(t, "data", 0, HEXX_DATA_TOTAL, &tile->data, ld);
		if (ld->bad)
			return;
		if (!hexx_is_schema(&ld->set->card[tile->card]) ||
		    hexx_tile_at(g, tile->q, tile->r) >= 0)
			ld->bad = 1;
		g->ntiles = (int)i + 1;
	}
}

static void
load_pending(struct hexx *g, const json_t *p, struct loader *ld)
{
	struct hexx_pending *pd = &g->pending;
	const json_t *at = json_object_get(p, "at");
	const json_t *to = json_object_get(p, "to");
	const json_t *path = json_object_get(p, "path");
	const json_t *surp = json_object_get(p, "surprises");
	int n, s;
	size_t i;

	get_int(p, "verb", 0, HEXX_VERBS - 1, &pd->verb, ld);
	pd->card = get_card(json_object_get(p, "card"), 1, 1, ld);
	pd->with = get_card(json_object_get(p, "with"), 1, 1, ld);
	get_int(p, "alt", 0, 1, &pd->alt, ld);
	get_int(p, "blue", 0, 1, &pd->blue, ld);
	get_int(p, "die_mod", -20, 20, &pd->die_mod, ld);
	get_int(p, "cancelled", 0, 1, &pd->cancelled, ld);
	if (json_is_array(at) && json_array_size(at) == 2 &&
	    json_is_integer(json_array_get(at, 0)) &&
	    json_is_integer(json_array_get(at, 1))) {
		pd->has_at = 1;
		pd->q = (int)json_integer_value(json_array_get(at, 0));
		pd->r = (int)json_integer_value(json_array_get(at, 1));
		if (abs(pd->q) > HEXX_RADIUS || abs(pd->r) > HEXX_RADIUS)
			ld->bad = 1;
	} else if (!json_is_null(at))
		ld->bad = 1;
	if (json_is_array(to) && json_array_size(to) == 2 &&
	    json_is_integer(json_array_get(to, 0)) &&
	    json_is_integer(json_array_get(to, 1))) {
		pd->has_to = 1;
		pd->tq = (int)json_integer_value(json_array_get(to, 0));
		pd->tr = (int)json_integer_value(json_array_get(to, 1));
		if (abs(pd->tq) > HEXX_RADIUS || abs(pd->tr) > HEXX_RADIUS)
			ld->bad = 1;
	} else if (!json_is_null(to))
		ld->bad = 1;
	if (!json_is_array(path) || json_array_size(path) > HEXX_PATH_MAX) {
		ld->bad = 1;
		return;
	}
	for (i = 0; i < json_array_size(path); i++)
		if (rules_json_read_ints(json_array_get(path, i),
		    pd->path[i], 2, -HEXX_RADIUS, HEXX_RADIUS, &n) != 0 ||
		    n != 2)
			ld->bad = 1;
	pd->npath = (int)json_array_size(path);
	if (rules_json_read_ints(json_object_get(p, "answers"), pd->answer,
	    HEXX_SEATS_MAX, 0, 1, &n) != 0 || n != g->nseats ||
	    !json_is_array(surp) || json_array_size(surp) != (size_t)n) {
		ld->bad = 1;
		return;
	}
	get_new_int(p, "riposte", 0, 1, &pd->riposte, ld);
	pd->riposte_card = -1;	/* only set while a riposte resolves */
	if (pd->riposte && g->phase != HEXX_PHASE_WINDOW)
		ld->bad = 1;
	for (s = 0; s < g->nseats; s++) {
		pd->surprise[s] = get_card(json_array_get(surp, (size_t)s), 1,
		    0, ld);
		if (pd->surprise[s] >= 0 && (!pd->answer[s] ||
		    !ld->set->card[pd->surprise[s]].surprise ||
		    !hexx_hand_has(g, s, pd->surprise[s])))
			ld->bad = 1;
	}
}

static void
load_ruleset2(struct hexx *g, const json_t *saved, struct loader *ld)
{
	const json_t *shown = json_object_get(saved, "shown"), *sh;
	int n, s;

	get_int(saved, "finish_round", 0, 1, &g->finish_round, ld);
	get_int(saved, "finished", 0, g->finish_round, &g->finished, ld);
	get_int(json_object_get(saved, "pending"), "nocollect", 0, 1,
	    &g->pending.nocollect, ld);
	if (rules_json_read_ints(json_object_get(saved, "bonus"), g->bonus,
	    HEXX_SEATS_MAX, 0, 50, &n) != 0 || n != g->nseats ||
	    !json_is_array(shown) || json_array_size(shown) !=
	    (size_t)g->nseats) {
		ld->bad = 1;
		return;
	}
	for (s = 0; s < g->nseats; s++) {
		sh = json_array_get(shown, (size_t)s);
		if (json_is_null(sh))
			continue;
		get_int(sh, "from", 0, g->nseats - 1, &g->shown[s].from, ld);
		/* Cards seen, not placed: they are counted where they are. */
		g->shown[s].ncards = get_cards_seen(json_object_get(sh,
		    "cards"), g->shown[s].cards, ld);
	}
	if ((g->phase == HEXX_PHASE_BONUS) != (hexx_bonus_seat(g) >= 0) &&
	    g->phase != HEXX_PHASE_OVER)
		ld->bad = 1;
}

void *
hexx_load(const void *cards, const json_t *saved, char *err, size_t errlen)
{
	struct loader ld;
	struct hexx *g;
	const json_t *seats, *hands, *last;
	int v, s, i, total;

	memset(&ld, 0, sizeof(ld));
	ld.set = cards;
	if (ld.set == NULL || !json_is_object(saved)) {
		snprintf(err, errlen, "not a saved Mission to Planet Hexx! "
		    "state");
		return NULL;
	}
	g = calloc(1, sizeof(*g));
	if (g == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	g->cards = ld.set;
	for (s = 0; s < HEXX_SEATS_MAX; s++)
		g->shown[s].from = -1;
	get_int(saved, "version", SAVE_VERSION, SAVE_VERSION, &v, &ld);
	g->ruleset = HEXX_RULESET_1;	/* ruleset 1 states do not say */
	if (json_object_get(saved, "ruleset") != NULL)
		get_int(saved, "ruleset", HEXX_RULESET, HEXX_RULESET,
		    &g->ruleset, &ld);
	get_int(saved, "nseats", 2, HEXX_SEATS_MAX, &g->nseats, &ld);
	if (ld.bad)
		goto bad;
	get_int(saved, "phase", 0, g->ruleset >= HEXX_RULESET ?
	    HEXX_PHASE_BONUS : HEXX_PHASE_OVER, &g->phase, &ld);
	get_int(saved, "current", 0, g->nseats - 1, &g->current, &ld);
	get_int(saved, "first", 0, g->nseats - 1, &g->first, &ld);
	get_int(saved, "round", 0, HEXX_ROUND_LIMIT, &g->round, &ld);
	get_int(saved, "actions", 0, 50, &g->actions, &ld);
	get_int(saved, "event_actions", 0, 50, &g->event_actions, &ld);
	get_new_int(saved, "move_actions", 0, 50, &g->move_actions, &ld);
	get_new_int(saved, "transmit_actions", 0, 50, &g->transmit_actions,
	    &ld);
	get_int(saved, "supply", 0, HEXX_DATA_TOTAL, &g->supply, &ld);
	get_int(saved, "winners", 0, (1 << g->nseats) - 1, &g->winner_mask,
	    &ld);
	g->ndeck = get_cards(json_object_get(saved, "deck"), g->deck,
	    HEXX_CARDS_MAX, &ld);
	g->ndiscard = get_cards(json_object_get(saved, "discard"),
	    g->discard, HEXX_CARDS_MAX, &ld);
	load_tiles(g, json_object_get(saved, "tiles"), &ld);
	seats = json_object_get(saved, "seats");
	hands = json_object_get(saved, "hands");
	if (ld.bad || !json_is_array(seats) || !json_is_array(hands) ||
	    json_array_size(seats) != (size_t)g->nseats ||
	    json_array_size(hands) != (size_t)g->nseats)
		goto bad;
	for (s = 0; s < g->nseats && !ld.bad; s++) {
		load_seat(g, s, json_array_get(seats, (size_t)s),
		    json_array_get(hands, (size_t)s), &ld);
		if (!ld.bad && hexx_tile_at(g, g->seat[s].q, g->seat[s].r) < 0)
			ld.bad = 1;
	}
	if (ld.bad)
		goto bad;
	load_pending(g, json_object_get(saved, "pending"), &ld);
	if (g->ruleset >= HEXX_RULESET)
		load_ruleset2(g, saved, &ld);
	last = json_object_get(saved, "last");
	get_int(last, "seat", -1, g->nseats - 1, &g->last.seat, &ld);
	get_int(last, "verb", 0, HEXX_VERBS - 1, &g->last.verb, &ld);
	g->last.card = get_card(json_object_get(last, "card"), 1, 0, &ld);
	get_int(last, "roll", 0, 6, &g->last.roll, &ld);
	get_int(last, "steps", 0, HEXX_PATH_MAX, &g->last.steps, &ld);
	get_int(last, "collected", 0, HEXX_DATA_TOTAL, &g->last.collected,
	    &ld);
	get_int(last, "fizzled", 0, 1, &g->last.fizzled, &ld);
	g->last.shown = get_card(json_object_get(last, "shown"), 1, 0, &ld);
	get_int(last, "resolved", -1, HEXX_VERBS - 1, &g->last.resolved, &ld);
	get_int(last, "surprises", 0, HEXX_SEATS_MAX, &g->last.surprises,
	    &ld);
	/* Every card is somewhere exactly once; the data add up. */
	for (i = 0; i < ld.set->ncards && !ld.bad; i++)
		if (ld.seen[i] != 1)
			ld.bad = 1;
	total = g->supply;
	for (i = 0; i < g->ntiles; i++)
		total += g->tile[i].data;
	for (s = 0; s < g->nseats; s++)
		total += g->seat[s].base;
	if (ld.bad || total != HEXX_DATA_TOTAL ||
	    hexx_tile_at(g, 0, 0) < 0 || !hexx_connected_without(g, -1) ||
	    (g->phase == HEXX_PHASE_OVER) != (g->winner_mask != 0))
		goto bad;
	return g;
bad:
	snprintf(err, errlen, "saved Mission to Planet Hexx! state refused: "
	    "a field is missing, out of range or names a card twice");
	free(g);
	return NULL;
}

int
hexx_to_act(const void *state, int *seats, int max)
{
	const struct hexx *g = state;
	int s, n = 0;

	for (s = 0; s < g->nseats; s++) {
		int acts;

		switch (g->phase) {
		case HEXX_PHASE_MISSION:
			acts = g->seat[s].side < 0;
			break;
		case HEXX_PHASE_ACTIONS:
			acts = s == g->current;
			break;
		case HEXX_PHASE_WINDOW:
			acts = g->pending.riposte ? s == g->current :
			    s != g->current && !g->pending.answer[s];
			break;
		case HEXX_PHASE_BONUS:
			acts = s == hexx_bonus_seat(g);
			break;
		default:
			acts = 0;
		}
		if (acts) {
			if (n < max)
				seats[n] = s;
			n++;
		}
	}
	return n;
}

int
hexx_response_window(const void *state)
{
	const struct hexx *g = state;

	/* The Event actions a seat received in another's turn are a
	 * window of that seat's own: pass is its default. */
	return g->phase == HEXX_PHASE_WINDOW || g->phase == HEXX_PHASE_BONUS;
}

json_t *
hexx_result(const void *state)
{
	const struct hexx *g = state;
	json_t *scores, *winners, *breakdown;
	int s;

	if (g->phase != HEXX_PHASE_OVER)
		return NULL;
	scores = json_array();
	winners = json_array();
	breakdown = json_array();
	for (s = 0; s < g->nseats; s++) {
		json_array_append_new(scores,
		    json_integer(hexx_mission_count(g, s)));
		json_array_append_new(breakdown, json_pack("{s:i,s:i}",
		    "mission_cards", hexx_mission_count(g, s), "data",
		    g->seat[s].base));
		if (g->winner_mask & (1 << s))
			json_array_append_new(winners, json_integer(s));
	}
	return json_pack("{s:o,s:o,s:o}", "scores", scores, "winners",
	    winners, "breakdown", breakdown);
}

/* Entered from the mission phase once every side is chosen. */
void
hexx_begin_play(struct hexx *g)
{
	g->phase = HEXX_PHASE_ACTIONS;
	g->current = g->first;
	start_turn(g);
}
