/*
 * check_hexx.c -- Mission to Planet Hexx! through its module table: the
 * project's card file and refusals of broken ones (file, line, card,
 * field), setup, the board (placement, borders with orientation, links,
 * paths), every effect of the vocabulary through a small card file made
 * for it, response windows asked of every other seat alike, refusals in
 * English and French, save/load, a differential no-peek check, and
 * thousands of random games for 2, 3 and 4 players with invariants
 * (cards conserved, data conserved, board connected and legal, every
 * game ends, exact replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <jansson.h>

#include "rules.h"
#include "rng.h"
#include "rulestest.h"
#include "hexx.h"
#include "nopeek.h"
#include "drawing.h"
#include "present.h"
#include "templates.h"
#include "mail.h"

extern const struct rules_module hexx_module;
extern const struct nopeek_hider hexx_nopeek;
static const struct rules_module *M = &hexx_module;

static struct hexx_cards *set;	/* rules/hexx/cards.yaml */

/* The empty options every game here is set up with: one object, kept
 * for the whole run. */
static json_t *
no_options(void)
{
	static json_t *options;

	if (options == NULL)
		options = json_object();
	return options;
}

static void
load_set(void)
{
	char err[RULES_ERRLEN], *bytes;
	size_t len;

	if (set != NULL)
		return;
	bytes = rulestest_slurp(HEXX_SRCDIR "/rules/hexx/cards.yaml", &len);
	set = M->cards_parse(bytes, len, "cards.yaml", err, sizeof(err));
	ck_assert_msg(set != NULL, "cards.yaml: %s", err);
	free(bytes);
}

static int
card(const char *id)
{
	int c = hexx_card_find(set, id);

	ck_assert_msg(c >= 0, "no card %s", id);
	return c;
}

/* A started game (sides chosen), seat 0 to play. */
static struct hexx *
game(int nseats, uint64_t seed)
{
	struct rules_rng rng;
	char err[RULES_ERRLEN];
	struct hexx *g;
	int s;

	load_set();
	rulestest_rng(&rng, seed, 0);
	g = M->setup_cards(set, nseats, no_options(), &rng, err, sizeof(err));
	ck_assert_msg(g != NULL, "setup: %s", err);
	for (s = 0; s < nseats; s++)
		g->seat[s].side = 0;
	hexx_begin_play(g);
	g->first = g->current = 0;
	g->actions = HEXX_ACTIONS;
	return g;
}

/* Put card into seat's hand, from wherever it is in the deck. */
static void
give(struct hexx *g, int seat, const char *id)
{
	int c = hexx_card_find(g->cards, id), i, s;

	ck_assert_msg(c >= 0, "no card %s", id);

	for (i = 0; i < g->ndeck; i++)
		if (g->deck[i] == c) {
			memmove(&g->deck[i], &g->deck[i + 1],
			    sizeof(int) * (size_t)(g->ndeck - i - 1));
			g->ndeck--;
			g->seat[seat].hand[g->seat[seat].nhand++] = c;
			return;
		}
	for (s = 0; s < g->nseats; s++)
		if (hexx_hand_take(g, s, c) == 0) {
			g->seat[seat].hand[g->seat[seat].nhand++] = c;
			return;
		}
	for (i = 0; i < g->ndiscard; i++)
		if (g->discard[i] == c) {
			memmove(&g->discard[i], &g->discard[i + 1],
			    sizeof(int) * (size_t)(g->ndiscard - i - 1));
			g->ndiscard--;
			g->seat[seat].hand[g->seat[seat].nhand++] = c;
			return;
		}
	ck_abort_msg("%s is neither in the deck nor a hand", id);
}

/* Place a schema from the deck onto the board directly. */
static void
put(struct hexx *g, const char *id, int q, int r, int rot)
{
	int c = hexx_card_find(g->cards, id), t;

	give(g, 0, id);
	hexx_hand_take(g, 0, c);
	t = g->ntiles++;
	g->tile[t].card = c;
	g->tile[t].q = q;
	g->tile[t].r = r;
	g->tile[t].rot = rot;
	g->tile[t].data = g->cards->card[c].data;
	g->supply -= g->cards->card[c].data;
}

static enum rules_status
play_lang(struct hexx *g, int seat, const char *text, enum rules_lang lang,
    char *err, uint64_t step)
{
	struct rules_rng rng;
	json_t *move;
	enum rules_status st;

	st = M->parse(g, seat, text, lang, &move, err, RULES_ERRLEN);
	if (st != RULES_OK)
		return st;
	st = M->check(g, seat, move, lang, err, RULES_ERRLEN);
	if (st == RULES_OK) {
		rulestest_rng(&rng, 99, step);
		M->apply(g, seat, move, &rng);
	}
	json_decref(move);
	return st;
}

static void
play(struct hexx *g, int seat, const char *text)
{
	char err[RULES_ERRLEN];
	enum rules_status st = play_lang(g, seat, text, RULES_LANG_EN, err, 7);

	ck_assert_msg(st == RULES_OK, "\"%s\" refused: %s", text, err);
}

static void
refused(struct hexx *g, int seat, const char *text, enum rules_lang lang,
    const char *want)
{
	char err[RULES_ERRLEN];
	json_t *before = M->save(g), *after;
	enum rules_status st = play_lang(g, seat, text, lang, err, 7);

	ck_assert_msg(st != RULES_OK, "\"%s\" accepted", text);
	ck_assert_msg(strstr(err, want) != NULL, "\"%s\": got \"%s\", want "
	    "\"%s\"", text, err, want);
	after = M->save(g);
	ck_assert(json_equal(before, after));
	json_decref(before);
	json_decref(after);
}

/* End seat's turn with its default move (discarding down to six). */
static void
end_turn(struct hexx *g, int seat)
{
	char text[256];

	if (g->current != seat)	/* the turn ended with its last action */
		return;
	ck_assert_int_eq(M->default_move(g, seat, text, sizeof(text)),
	    RULES_OK);
	ck_assert(strncmp(text, "end", 3) == 0);
	play(g, seat, text);
}

/* Every other seat passes the open window. */
static void
all_pass(struct hexx *g)
{
	int seats[HEXX_SEATS_MAX], n, i;

	ck_assert_int_eq(g->phase, HEXX_PHASE_WINDOW);
	n = M->to_act(g, seats, HEXX_SEATS_MAX);
	for (i = 0; i < n; i++)
		play(g, seats[i], "pass");
}

/* ---- the normal bot ---- */

/* Games of normal bots at every seat count: every move they choose is
 * accepted, choosing changes nothing, and every game ends. */
START_TEST(normal_bot)
{
	struct rules_rng rng;
	char err[RULES_ERRLEN], text[512];
	struct hexx *g;
	json_t *before, *after, *move;
	int nseats, game, step, seats[4];

	load_set();
	for (nseats = 2; nseats <= 4; nseats++)
		for (game = 0; game < 3; game++) {
			rulestest_rng(&rng, 500 + (uint64_t)game, 0);
			g = M->setup_cards(set, nseats, no_options(), &rng, err,
			    sizeof(err));
			ck_assert_msg(g != NULL, "setup: %s", err);
			for (step = 1; step < 5000 &&
			    M->to_act(g, seats, 4) > 0; step++) {
				before = M->save(g);
				rulestest_rng(&rng, 600 + (uint64_t)game, (uint64_t)step);
				ck_assert_int_eq(M->bot_move(g, seats[0],
				    RULES_BOT_NORMAL, &rng, text, sizeof(text)),
				    RULES_OK);
				after = M->save(g);
				ck_assert(json_equal(before, after));
				json_decref(before);
				json_decref(after);
				ck_assert_msg(M->parse(g, seats[0], text,
				    RULES_LANG_EN, &move, err, sizeof(err)) ==
				    RULES_OK && M->check(g, seats[0], move,
				    RULES_LANG_EN, err, sizeof(err)) == RULES_OK,
				    "bot move \"%s\" refused: %s", text, err);
				M->apply(g, seats[0], move, &rng);
				json_decref(move);
			}
			ck_assert_int_eq(g->phase, HEXX_PHASE_OVER);
			M->destroy(g);
		}
}
END_TEST

/* ---- the card file ---- */

START_TEST(project_set)
{
	int kinds[HEXX_KINDS] = { 0 }, lists[HEXX_LISTS] = { 0 };
	int ops[HEXX_OPS] = { 0 }, targets[HEXX_TARGETS] = { 0 };
	int i, l, f, surprises = 0, costs = 0, ors = 0, tcost = 0, links = 0;
	int borders = 0, fixed = 0;

	load_set();
	ck_assert_int_ge(set->nmissions, 4);
	ck_assert_str_eq(set->card[set->base].id, "space-base");
	ck_assert_int_eq(set->card[set->colony].data, 5);
	for (i = 0; i < set->ncards; i++) {
		const struct hexx_card *c = &set->card[i];

		kinds[c->kind]++;
		surprises += c->surprise;
		costs += c->cost_data > 0 || c->cost_actions > 0 ||
		    c->cost_discard >= 0;
		ors += c->on[HEXX_ON_OR].n > 0;
		tcost += c->transmit_cost >= 0 || c->transmit_as >= 0;
		links += c->nlinks > 0;
		borders += c->borders != 0;
		fixed += c->fixed;
		for (l = 0; l < HEXX_LISTS; l++) {
			lists[l] += c->on[l].n > 0;
			for (f = 0; f < c->on[l].n; f++) {
				ops[c->on[l].fx[f].step.op]++;
				targets[c->on[l].fx[f].step.target]++;
				if (c->on[l].fx[f].step.op == HEXX_OP_ROLL)
					ops[c->on[l].fx[f].then.op]++;
			}
		}
	}
	/* Every kind, icon list, effect and target is used. */
	for (i = 0; i < HEXX_KINDS; i++)
		ck_assert_msg(kinds[i] > 0, "no %s", hexx_kind_names[i]);
	for (i = 0; i < HEXX_LISTS; i++)
		ck_assert_msg(lists[i] > 0, "no %s list", hexx_list_names[i]);
	for (i = 0; i < HEXX_OPS; i++)
		ck_assert_msg(ops[i] > 0, "no %s effect", hexx_op_names[i]);
	for (i = 0; i < HEXX_TARGETS; i++)
		ck_assert_msg(targets[i] > 0, "no target %s",
		    hexx_target_names[i]);
	ck_assert(surprises > 0 && costs > 0 && ors > 0 && tcost > 0 &&
	    links > 0 && borders > 0 && fixed > 0);
	/* The cards the seed names. */
	ck_assert(set->card[card("dexatrani-minor")].links[0] ==
	    card("dexatrani-major"));
	ck_assert_int_eq(set->card[card("alpha-colony")].nlinks, 2);
	ck_assert(set->card[card("wormhole-alpha")].links[0] ==
	    card("wormhole-omega"));
	ck_assert_int_eq(set->card[card("miss-galaxy")].cost_data, 1);
	ck_assert_int_eq(set->card[card("space-daredevil")].cost_discard,
	    HEXX_OBJECT);
	ck_assert_int_eq(set->card[card("bag-of-space-rock")].transmit_cost,
	    1);
	ck_assert(set->card[card("critical-circuit")].surprise);
	ck_assert(set->card[card("robotic-union")].surprise);
	ck_assert_int_eq(set->card[card("mysterious-egg")].on[0].fx[0].step.op,
	    HEXX_OP_TRANSMIT);
}
END_TEST

static void
bad_file(const char *yaml, const char *want)
{
	char err[RULES_ERRLEN];
	void *cards = M->cards_parse(yaml, strlen(yaml), "t.yaml", err,
	    sizeof(err));

	ck_assert_msg(cards == NULL, "accepted: %s", yaml);
	ck_assert_msg(strstr(err, want) != NULL, "got \"%s\", want \"%s\"",
	    err, want);
}

START_TEST(file_refusals)
{
	bad_file("format: hexx-cards-9\nmissions: []\ncards: []\n",
	    "t.yaml:1: card -, field format: must be hexx-cards-1");
	bad_file("format: hexx-cards-1\nmissions: []\ncards: []\n",
	    "field missions: a list of 4 to 16 mission cards");
	bad_file("format: hexx-cards-1\nmissions:\n"
	    " - {id: a, sides: [1]}\n - {id: b}\n - {id: c}\n - {id: d}\n"
	    "cards: []\n",
	    "t.yaml:3: card a, field sides: a mission card has exactly two "
	    "sides");
	bad_file("format: hexx-cards-1\nmissions:\n"
	    " - id: a\n   sides:\n"
	    "   - {title: {en: A, fr: A}, conclusion: {en: x, fr: x},"
	    " icons: [alien, alien]}\n"
	    "   - {title: {en: A, fr: A}, conclusion: {en: x, fr: x},"
	    " icons: [alien, alien]}\n"
	    " - {id: b}\n - {id: c}\n - {id: d}\ncards: []\n",
	    "card a, field icons: a side shows exactly 6 card-type icons");
}
END_TEST

/* The project's file with one card replaced by text. */
static void
bad_card(const char *from, const char *to, const char *want)
{
	char *bytes, *at, *text;
	size_t len;

	bytes = rulestest_slurp(HEXX_SRCDIR "/rules/hexx/cards.yaml", &len);
	at = strstr(bytes, from);
	ck_assert_msg(at != NULL, "no \"%s\" in cards.yaml", from);
	text = malloc(len + strlen(to) + 1);
	memcpy(text, bytes, (size_t)(at - bytes));
	strcpy(text + (at - bytes), to);
	strcat(text, at + strlen(from));
	bad_file(text, want);
	free(text);
	free(bytes);
}

START_TEST(card_refusals)
{
	bad_card("    play: [{do: gain, n: 3}]",
	    "    play: [{do: teleport, n: 3}]",
	    "card miss-galaxy, field play: unknown effect \"teleport\"");
	bad_card("  - id: ember-moon\n    kind: planet",
	    "  - id: ember-moon\n    kind: moon",
	    "card ember-moon, field kind: must be one of planet, void");
	bad_card("    borders: [0, 1]", "    borders: [0, 7]",
	    "card crystal-world, field borders: an edge is 0 to 5");
	bad_card("    link: [dexatrani-major]", "    link: [nowhere]",
	    "card dexatrani-minor, field link: must name another schema");
	bad_card("    cost: {data: 1}", "    cost: {data: 1}\n    data: 3",
	    "card miss-galaxy, field kind: only schemas");
	bad_card("  - id: ocean-world", "  - id: dust-world",
	    "card dust-world, field id: used twice");
	bad_card("    surprise: true\n    name: {en: \"Robotic Union\"",
	    "    surprise: maybe\n    name: {en: \"Robotic Union\"",
	    "card robotic-union, field surprise: must be true or false");
	bad_card("    play: [{do: roll, at_least: 4, then: {do: actions, "
	    "n: 2}}]", "    play: [{do: roll, at_least: 4}]",
	    "card time-loop, field play: roll needs then:");
	/* Conditions and gained actions (docs/hexx-cards.md). */
	bad_card("    play: [{do: if_base, at_least: 6, then: {do: draw, "
	    "n: 2}}]", "    play: [{do: if_base, at_least: 6}]",
	    "card data-broker, field play: if_base needs then:");
	bad_card("    or: [{do: if_planet, at_least: 3, then: {do: collect, "
	    "n: 2}}]", "    or: [{do: if_planet, at_least: 3, then: "
	    "{do: if_base}}]",
	    "card data-broker, field or: then: may not roll, test or copy");
	bad_card("    play: [{do: move_action, n: 2}]",
	    "    play: [{do: move_action, n: 2, at_least: 3}]",
	    "card hyperdrive, field play: then: and at_least: belong to "
	    "roll, if_base and if_planet only");
	bad_card("    play: [{do: if_base, at_least: 6, then: {do: draw, "
	    "n: 2}}]", "    play: [{do: if_base, at_least: 151, then: "
	    "{do: draw, n: 2}}]", "card data-broker, field at_least:");
	/* The line is the one of the field. */
	bad_card("    text: {en: \"Starting data 3.\"",
	    "    colour: blue\n    text: {en: \"Starting data 3.\"",
	    "field colour: unknown field");
}
END_TEST

/* ---- setup ---- */

START_TEST(setup_rules)
{
	struct rules_rng rng;
	char err[RULES_ERRLEN];
	struct hexx *g;
	int n, s, seats[4];

	load_set();
	rulestest_rng(&rng, 1, 0);
	ck_assert(M->setup_cards(set, 1, no_options(), &rng, err,
	    sizeof(err)) == NULL);
	ck_assert(strstr(err, "2 to 4 players") != NULL);
	ck_assert(M->setup_cards(set, 5, no_options(), &rng, err,
	    sizeof(err)) == NULL);
	for (n = 2; n <= 4; n++) {
		rulestest_rng(&rng, (uint64_t)n, 0);
		g = M->setup_cards(set, n, no_options(), &rng, err,
		    sizeof(err));
		ck_assert(g != NULL);
		ck_assert_int_eq(g->ntiles, 2);
		ck_assert_int_eq(g->tile[1].data, 5);
		ck_assert_int_eq(M->to_act(g, seats, 4), n);
		for (s = 0; s < n; s++) {
			ck_assert_int_eq(g->seat[s].nhand, HEXX_HAND);
			ck_assert_int_eq(g->seat[s].q, 0);
			ck_assert_int_eq(g->seat[s].r, 0);
			play(g, s, s % 2 ? "face 2" : "side 1");
		}
		ck_assert_int_eq(g->phase, HEXX_PHASE_ACTIONS);
		ck_assert_int_eq(g->current, g->first);
		ck_assert_int_eq(g->actions, 3);
		M->destroy(g);
	}
}
END_TEST

/* ---- the board ---- */

START_TEST(placement)
{
	struct hexx *g = game(2, 3);

	give(g, 0, "ocean-world");
	give(g, 0, "open-space-1");
	give(g, 0, "crystal-world");
	/* Planets touch only voids: (1,-1) touches Delta Colony. */
	refused(g, 0, "schema ocean-world at 1,-1", RULES_LANG_EN,
	    "touching no other planet");
	refused(g, 0, "schema Monde océan en 1,-1", RULES_LANG_FR,
	    "ne touchant aucune autre planète");
	refused(g, 0, "schema open-space-1 at 5,5", RULES_LANG_EN,
	    "A void goes on a free hex next to the board");
	refused(g, 0, "schema open-space-1 at 0,0", RULES_LANG_EN,
	    "A void goes on a free hex");
	refused(g, 0, "schema crystal-world at -1,0 facing 2", RULES_LANG_EN,
	    "orientation is fixed");
	play(g, 0, "schema ocean-world at -1,0");
	ck_assert_int_eq(g->ntiles, 3);
	ck_assert_int_eq(g->tile[2].data, 3);
	play(g, 0, "schema Open Space I at 0,-1 facing 3");
	ck_assert_int_eq(g->tile[3].rot, 3);
	ck_assert_int_eq(g->actions, 1);
	M->destroy(g);
}
END_TEST

START_TEST(borders_and_links)
{
	struct hexx *g = game(2, 4);
	int belt;

	/* Asteroid belt: borders on local edges 0 and 3. */
	put(g, "asteroid-belt", -1, 0, 0);
	belt = g->ntiles - 1;
	ck_assert(hexx_border(g, belt, 0));	/* towards the base */
	ck_assert(!hexx_border(g, belt, 1));
	ck_assert(!hexx_step_ok(g, 0, belt));
	g->tile[belt].rot = 1;			/* turned: edges 1 and 4 */
	ck_assert(!hexx_border(g, belt, 0));
	ck_assert(hexx_border(g, belt, 1));
	ck_assert(hexx_step_ok(g, 0, belt));
	g->tile[belt].rot = 0;
	refused(g, 0, "move -1,0", RULES_LANG_EN, "a border stops the way");
	refused(g, 0, "deplacer -1,0", RULES_LANG_FR,
	    "une bordure barre le passage");
	/* Wormholes: one step between the twins. */
	put(g, "wormhole-alpha", 0, -1, 0);
	put(g, "open-space-2", 0, -2, 0);
	put(g, "open-space-3", 0, -3, 0);
	put(g, "wormhole-omega", 0, -4, 0);
	put(g, "open-space-4", 1, -5, 0);
	play(g, 0, "move 0,-1 0,-4 1,-5");
	all_pass(g);
	ck_assert_int_ge(g->last.roll, 1);
	ck_assert_int_eq(g->seat[0].q, g->last.roll >= 3 ? 1 : 0);
	/* Planets end a move; no flying through them. */
	g->seat[0].q = g->seat[0].r = 0;
	refused(g, 0, "move 1,0 2,0", RULES_LANG_EN,
	    "a planet ends a move");
	refused(g, 0, "move 4,4", RULES_LANG_EN, "there is no schema there");
	M->destroy(g);
}
END_TEST

START_TEST(landing_and_collection)
{
	struct hexx *g = game(2, 5);

	play(g, 0, "move 1,0");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].q, 1);
	ck_assert_int_eq(g->seat[0].base, 1);
	ck_assert_int_eq(g->tile[1].data, 4);
	ck_assert_int_eq(g->seat[0].last_planet, set->colony);
	/* Not twice in a row on the same planet. */
	play(g, 0, "move 0,0");
	all_pass(g);
	refused(g, 0, "move 1,0", RULES_LANG_EN,
	    "you may not land twice in a row on the same planet");
	M->destroy(g);
}
END_TEST

START_TEST(schema_icons)
{
	struct hexx *g = game(2, 6);
	int base;

	/* Blue, a choice: Dexatrani Minor collects 2 with "blue". */
	put(g, "dexatrani-minor", -1, 1, 0);
	play(g, 0, "move -1,1 blue");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, 2);
	/* Red: stopping on the relay station gains 1. */
	put(g, "relay-station", -1, 0, 0);
	base = g->seat[0].base;
	play(g, 0, "move -1,0");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, base + 1);
	/* Green: engaging on Beta Colony gains 1 (turn 2). */
	end_turn(g, 0);
	end_turn(g, 1);
	put(g, "beta-colony", -2, 0, 0);
	play(g, 0, "move -2,0");
	all_pass(g);
	base = g->seat[0].base;
	give(g, 0, "lucky-star");
	play(g, 0, "refresh lucky-star");
	ck_assert_int_eq(g->seat[0].base, base + 1);
	end_turn(g, 0);
	end_turn(g, 1);
	/* Orange: crossing the nebula by two different edges draws. */
	put(g, "nebula-drift", -1, -1, 0);
	put(g, "open-space-5", -1, -2, 0);
	g->seat[0].q = -1;
	g->seat[0].r = 0;
	while (g->seat[0].nhand > 0)
		hexx_to_discard(g, g->seat[0].hand[--g->seat[0].nhand]);
	play(g, 0, "move -1,-1 -1,-2");
	g->pending.die_mod = 5;
	all_pass(g);
	ck_assert_int_eq(g->seat[0].r, -2);
	ck_assert_int_eq(g->seat[0].nhand, 1);
	/* Enter: Ember Moon adds 2 to itself. */
	give(g, 0, "ember-moon");
	play(g, 0, "schema ember-moon at 0,-3");
	ck_assert_int_eq(g->tile[g->ntiles - 1].data, 3);
	M->destroy(g);
}
END_TEST

/* ---- events, surprises and every effect ---- */

START_TEST(event_effects)
{
	struct hexx *g = game(3, 8);
	int base, n;

	g->seat[0].base = 4;
	g->supply -= 4;
	give(g, 0, "miss-galaxy");
	play(g, 0, "event miss-galaxy");
	ck_assert_int_eq(g->seat[0].base, 3);	/* the cost, paid at once */
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, 6);
	/* OR: the second effect. */
	give(g, 0, "little-furry-things");
	n = g->seat[0].nhand;
	play(g, 0, "event Les petites choses velues ou");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].nhand, n - 1 + 2);
	/* Pay to play with a discard of a given kind. */
	give(g, 0, "space-daredevil");
	give(g, 0, "comet-shower");
	refused(g, 0, "event space-daredevil", RULES_LANG_EN,
	    "add \"with CARD\"");
	give(g, 0, "open-space-6");
	refused(g, 0, "event space-daredevil with open-space-6",
	    RULES_LANG_FR, "La carte à défausser doit être : Objet céleste");
	play(g, 0, "event space-daredevil with comet-shower");
	all_pass(g);
	ck_assert_int_eq(g->actions, 2);
	ck_assert_int_eq(g->discard[g->ndiscard - 1], card("space-daredevil"));
	/* Immediate transmission, wherever the ship is. */
	g->seat[0].q = 1;
	give(g, 0, "mysterious-egg");
	give(g, 0, "ocean-world");
	base = g->seat[0].base;
	play(g, 0, "event mysterious-egg with ocean-world");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, base - 2);
	ck_assert_int_eq(hexx_mission_count(g, 0), 1);
	M->destroy(g);
}
END_TEST

/* One event per effect of the vocabulary, checked on the state. */
START_TEST(every_effect)
{
	struct hexx *g = game(3, 9);
	int n, i;

	/* junk, show_top, draw */
	n = g->ndiscard;
	give(g, 0, "black-hole");
	play(g, 0, "event black-hole or");
	all_pass(g);
	ck_assert_int_eq(g->ndiscard, n + 3 + 1);
	give(g, 0, "derelict-probe");
	play(g, 0, "event derelict-probe");
	all_pass(g);
	ck_assert(g->last.shown >= 0);
	/* event_action: Fuel Flare gives two Event actions. */
	give(g, 0, "fuel-flare");
	play(g, 0, "event fuel-flare");
	all_pass(g);
	ck_assert_int_eq(g->actions, 0);
	ck_assert_int_eq(g->event_actions, 2);
	give(g, 0, "open-space-1");
	refused(g, 0, "schema open-space-1 at -1,0", RULES_LANG_EN,
	    "may only play Events");
	/* mucus on each opponent, discard_random on each opponent */
	give(g, 0, "big-boss-mucus");
	play(g, 0, "event big-boss-mucus");
	all_pass(g);
	ck_assert_int_eq(g->seat[1].mucus, 1);
	ck_assert_int_eq(g->seat[2].mucus, 1);
	n = g->seat[1].nhand;
	give(g, 0, "jelly-diplomats");
	play(g, 0, "event jelly-diplomats");
	all_pass(g);
	ck_assert_int_eq(g->seat[1].nhand, n - 1);
	end_turn(g, 0);
	/* Seat 1 starts with a Mucus counter: two actions. */
	ck_assert_int_eq(g->current, 1);
	ck_assert_int_eq(g->actions, 2);
	ck_assert_int_eq(g->seat[1].mucus, 0);
	/* no_move / no_transmit on the next player */
	give(g, 1, "traffic-jam");
	play(g, 1, "event traffic-jam");
	all_pass(g);
	give(g, 1, "cosmic-bureaucrat");
	play(g, 1, "event cosmic-bureaucrat");
	all_pass(g);
	ck_assert_int_eq(g->current, 2);
	refused(g, 2, "move 1,0", RULES_LANG_EN, "Movement is forbidden");
	give(g, 2, "ocean-world");
	refused(g, 2, "transmettre ocean-world", RULES_LANG_FR,
	    "La Transmission vous est interdite");
	/* planet_add / planet_remove / collect / return / all */
	give(g, 2, "comet-shower");
	play(g, 2, "event comet-shower");
	all_pass(g);
	ck_assert_int_eq(g->tile[1].data, 6);
	end_turn(g, 2);
	end_turn(g, 0);
	end_turn(g, 1);
	play(g, 2, "move 1,0");
	all_pass(g);
	give(g, 2, "data-crystal");
	play(g, 2, "event data-crystal");
	all_pass(g);
	ck_assert_int_eq(g->seat[2].base, 3);
	ck_assert_int_eq(g->tile[1].data, 3);
	give(g, 2, "bag-of-space-rock");
	play(g, 2, "event bag-of-space-rock");
	all_pass(g);
	ck_assert_int_eq(g->tile[1].data, 5);
	end_turn(g, 2);
	give(g, 0, "black-hole");
	play(g, 0, "event black-hole");
	all_pass(g);
	ck_assert_int_eq(g->tile[1].data, 3);
	give(g, 0, "emergency-recall");
	play(g, 0, "event emergency-recall");
	all_pass(g);
	for (i = 0; i < 3; i++)
		ck_assert(g->seat[i].q == 0 && g->seat[i].r == 0);
	/* spend on each opponent, with a data cost */
	g->seat[0].base = 1;
	g->seat[1].base = 3;
	g->supply -= 1 + 3;
	give(g, 0, "ion-cannon");
	play(g, 0, "event ion-cannon");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, 0);
	ck_assert_int_eq(g->seat[1].base, 1);
	ck_assert_int_eq(g->seat[2].base, 1);	/* it had 3 */
	/* delete, disintegrate and shift: disintegrate_and_delete */
	M->destroy(g);
}
END_TEST

START_TEST(disintegrate_and_delete)
{
	struct hexx *g = game(2, 10);
	int before;

	put(g, "open-space-1", -1, 0, 0);
	put(g, "open-space-2", -2, 0, 0);
	g->seat[1].q = -2;
	give(g, 0, "sabotage");
	refused(g, 0, "event sabotage", RULES_LANG_EN, "add \"at Q,R\"");
	refused(g, 0, "event sabotage at 0,0", RULES_LANG_EN,
	    "not a starting card");
	/* (-1,0) holds (-2,0) to the board: refused. */
	refused(g, 0, "event sabotage at -1,0", RULES_LANG_EN,
	    "the board stays in one piece");
	before = g->ntiles;
	play(g, 0, "event sabotage at -2,0");
	all_pass(g);
	ck_assert_int_eq(g->ntiles, before - 1);
	ck_assert(g->seat[1].q == 0 && g->seat[1].r == 0);
	/* Shift: the schema moves with the ship on it. */
	put(g, "open-space-3", -1, 1, 0);
	g->seat[1].q = -1;
	g->seat[1].r = 1;
	give(g, 0, "gravitational-drift");
	refused(g, 0, "event gravitational-drift at -1,1", RULES_LANG_EN,
	    "add \"to Q,R\"");
	refused(g, 0, "evenement gravitational-drift en -1,1 vers 5,5",
	    RULES_LANG_FR, "Ce schéma ne peut pas aller là");
	refused(g, 0, "event gravitational-drift at 0,0 to 0,1",
	    RULES_LANG_EN, "That schema cannot go there");
	play(g, 0, "event gravitational-drift at -1,1 to 0,1");
	all_pass(g);
	ck_assert_int_ge(hexx_tile_at(g, 0, 1), 0);
	ck_assert_int_lt(hexx_tile_at(g, -1, 1), 0);
	ck_assert(g->seat[1].q == 0 && g->seat[1].r == 1);
	/* Delete the last card of the next Mission. */
	g->seat[0].base = 2;
	g->supply -= 2;
	give(g, 1, "ocean-world");
	hexx_hand_take(g, 1, card("ocean-world"));
	g->seat[1].slot[2] = card("ocean-world");
	give(g, 0, "mutiny");
	play(g, 0, "event mutiny");
	all_pass(g);
	ck_assert_int_eq(hexx_mission_count(g, 1), 0);
	ck_assert_int_eq(g->discard[g->ndiscard - 2], card("ocean-world"));
	M->destroy(g);
}
END_TEST

START_TEST(surprises)
{
	struct hexx *g = game(3, 11);
	int seats[4], c;

	/* Every other seat is asked, holding a Surprise or not. */
	give(g, 1, "critical-circuit");
	play(g, 0, "move 1,0");
	ck_assert(M->response_window(g));
	ck_assert_int_eq(M->to_act(g, seats, 4), 2);
	ck_assert_int_eq(seats[0], 1);
	ck_assert_int_eq(seats[1], 2);
	refused(g, 1, "move 1,0", RULES_LANG_EN,
	    "answer with surprise CARD or pass");
	refused(g, 2, "surprise critical-circuit", RULES_LANG_EN,
	    "You do not hold Critical Circuit");
	give(g, 2, "lucky-star");
	refused(g, 2, "surprise lucky-star", RULES_LANG_FR,
	    "Cette carte n'est pas une Surprise");
	play(g, 1, "surprise critical-circuit");
	/* The answer stays hidden: the card is still in the hand. */
	ck_assert(hexx_hand_has(g, 1, card("critical-circuit")));
	play(g, 2, "pass");
	/* A Surprise answered: the seat playing may riposte (line 345). */
	ck_assert(M->response_window(g));
	ck_assert_int_eq(M->to_act(g, seats, 4), 1);
	ck_assert_int_eq(seats[0], 0);
	play(g, 0, "pass");
	ck_assert(!M->response_window(g));
	ck_assert_int_eq(g->seat[0].q, 0);	/* cancelled */
	ck_assert_int_eq(g->actions, 2);	/* still used */
	ck_assert(!hexx_hand_has(g, 1, card("critical-circuit")));
	/* A die modifier: the ship moves at most die - 3. */
	give(g, 1, "solar-wind");
	put(g, "open-space-1", -1, 0, 0);
	put(g, "open-space-2", -2, 0, 0);
	put(g, "open-space-3", -3, 0, 0);
	play(g, 0, "move -1,0 -2,0 -3,0");
	play(g, 1, "surprise solar-wind");
	play(g, 2, "pass");
	play(g, 0, "pass");
	ck_assert_int_le(g->last.steps, 3);
	ck_assert_int_eq(g->seat[0].q, -g->last.steps);
	/* Missu counters the other Surprises of the same window. */
	give(g, 1, "critical-circuit");
	give(g, 2, "nebulous-people-of-missu");
	give(g, 0, "lucky-star");
	play(g, 0, "refresh lucky-star");	/* the last action */
	M->destroy(g);
	g = game(3, 12);
	give(g, 1, "critical-circuit");
	give(g, 2, "nebulous-people-of-missu");
	play(g, 0, "move 1,0");
	play(g, 1, "surprise critical-circuit");
	play(g, 2, "surprise nebulous-people-of-missu");
	play(g, 0, "pass");
	ck_assert_int_eq(g->seat[0].q, 1);	/* not cancelled */
	/* Robotic Union copies the top event of the discard. */
	c = card("lucky-star");
	give(g, 0, "little-furry-things");
	play(g, 0, "event little-furry-things");
	give(g, 1, "robotic-union");
	play(g, 1, "surprise robotic-union");
	play(g, 2, "pass");
	play(g, 0, "pass");
	(void)c;
	ck_assert_int_ge(g->seat[1].base, 0);
	M->destroy(g);
}
END_TEST

/* Riposting with a Surprise to a Surprise in one's own turn (seed line
 * 345): the rulebook's example, Missu against Critical Circuit. */
START_TEST(riposte)
{
	struct hexx *g = game(3, 21);
	json_t *view;
	char text[256];
	int seats[4];

	give(g, 1, "critical-circuit");
	give(g, 0, "nebulous-people-of-missu");
	give(g, 0, "lucky-star");
	play(g, 0, "move 1,0");
	play(g, 1, "surprise critical-circuit");
	/* Until the last answer, the riposte is not open. */
	refused(g, 0, "surprise nebulous-people-of-missu", RULES_LANG_EN,
	    "It is not your turn");
	play(g, 2, "pass");
	ck_assert(g->pending.riposte);
	ck_assert_int_eq(M->to_act(g, seats, 4), 1);
	/* The Surprises answering are shown to everyone now. */
	view = M->view(g, 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(
	    json_array_get(json_object_get(json_object_get(view, "pending"),
	    "surprises"), 0), "card"), "id")), "critical-circuit");
	json_decref(view);
	ck_assert_int_eq(M->describe_last(g, 2, (const char *const[]){ "ann",
	    "bob", "cy" }, RULES_LANG_EN, text, sizeof(text)), RULES_OK);
	ck_assert_msg(strstr(text, "ann may riposte") != NULL, "%s", text);
	refused(g, 0, "move 1,0", RULES_LANG_EN, "riposte with surprise CARD");
	refused(g, 0, "surprise lucky-star", RULES_LANG_FR,
	    "Cette carte n'est pas une Surprise");
	refused(g, 1, "pass", RULES_LANG_EN, "It is not your turn");
	ck_assert_str_eq((M->default_move(g, 0, text, sizeof(text)),
	    text), "pass");
	play(g, 0, "surprise nebulous-people-of-missu");
	/* Critical Circuit is stopped: the ship moves; two actions used. */
	ck_assert(!M->response_window(g));
	ck_assert_int_eq(g->seat[0].q, 1);
	ck_assert_int_eq(g->actions, 1);
	ck_assert(!hexx_hand_has(g, 0, card("nebulous-people-of-missu")));
	ck_assert(!hexx_hand_has(g, 1, card("critical-circuit")));
	ck_assert_int_eq(g->last.surprises, 2);
	/* With no action left, no riposte is offered: the window closes. */
	give(g, 1, "critical-circuit");
	give(g, 0, "comet-shower");
	play(g, 0, "event comet-shower");
	play(g, 1, "surprise critical-circuit");
	play(g, 2, "pass");
	ck_assert(!M->response_window(g));
	ck_assert_int_eq(g->tile[1].data, 4);	/* cancelled: 5 - 1 */
	M->destroy(g);
}
END_TEST

/* Gained Movement and Transmission actions, and the conditions on a
 * data base and a planet ("X Données"). */
START_TEST(gained_actions_and_conditions)
{
	struct hexx *g = game(2, 22);

	/* Hyperdrive: two actions that may only be Movements. */
	g->actions = 1;
	give(g, 0, "hyperdrive");
	play(g, 0, "event hyperdrive");
	all_pass(g);
	ck_assert_int_eq(g->actions, 0);
	ck_assert_int_eq(g->move_actions, 2);
	give(g, 0, "open-space-1");
	refused(g, 0, "schema open-space-1 at -1,0", RULES_LANG_EN,
	    "may only play Movements");
	refused(g, 0, "schema open-space-1 at -1,0", RULES_LANG_FR,
	    "ne peuvent jouer que des Déplacements");
	play(g, 0, "move 1,0");
	all_pass(g);
	ck_assert_int_eq(g->move_actions, 1);
	ck_assert_int_eq(g->current, 0);	/* one left: the turn goes on */
	end_turn(g, 0);
	end_turn(g, 1);
	/* Priority Channel: a Transmission action of its own. */
	g->actions = 1;
	give(g, 0, "priority-channel");
	play(g, 0, "event priority-channel");
	all_pass(g);
	ck_assert_int_eq(g->transmit_actions, 1);
	give(g, 0, "duplicate");
	refused(g, 0, "refresh duplicate", RULES_LANG_EN,
	    "may only play Transmissions");
	g->seat[0].q = 0;
	g->seat[0].base += 3;
	g->supply -= 3;
	play(g, 0, "transmit duplicate");
	all_pass(g);
	ck_assert_int_eq(hexx_mission_count(g, 0), 1);
	ck_assert_int_eq(g->transmit_actions, 0);
	end_turn(g, 0);
	end_turn(g, 1);
	/* use_event_action: an Event action gained goes first. */
	g->actions = 2;
	g->event_actions = 1;
	give(g, 0, "overclocked-relay");
	play(g, 0, "event overclocked-relay");	/* uses the Event action */
	all_pass(g);
	ck_assert_int_eq(g->event_actions, 0);
	ck_assert_int_eq(g->actions, 1);
	give(g, 0, "overclocked-relay");
	play(g, 0, "event overclocked-relay");
	all_pass(g);
	ck_assert_int_eq(g->actions, 0);
	end_turn(g, 0);
	end_turn(g, 1);
	/* if_base: 6 data or more draws 2; fewer does nothing. */
	g->seat[0].base = 5;
	g->supply -= 5;
	give(g, 0, "data-broker");
	{
		int n = g->seat[0].nhand;

		play(g, 0, "event data-broker");
		all_pass(g);
		ck_assert_int_eq(g->seat[0].nhand, n - 1);
		give(g, 0, "data-broker");
		g->seat[0].base++;
		g->supply--;
		n = g->seat[0].nhand;
		play(g, 0, "event data-broker");
		all_pass(g);
		ck_assert_int_eq(g->seat[0].nhand, n - 1 + 2);
	}
	/* if_planet: the planet under the ship holds 3 or more. */
	g->actions = 2;
	g->seat[0].q = 1;
	g->tile[1].data = 2;
	g->supply += 3;
	give(g, 0, "data-broker");
	play(g, 0, "event data-broker or");
	all_pass(g);
	ck_assert_int_eq(g->tile[1].data, 2);
	g->tile[1].data = 3;
	g->supply--;
	give(g, 0, "data-broker");
	play(g, 0, "event data-broker or");
	all_pass(g);
	ck_assert_int_eq(g->tile[1].data, 1);
	M->destroy(g);
}
END_TEST

/* A card file of its own for the keywords this stop added: missions,
 * the two start cards and one card per keyword. */
#define SMALL_SIDE \
	"   - {title: {en: T, fr: T}, icons: [alien, alien, dilemma, " \
	"dilemma, object, object], conclusion: {en: x, fr: x}}\n"
#define SMALL_MISSION(id) " - id: " id "\n   sides:\n" SMALL_SIDE SMALL_SIDE
#define SMALL_CARD(id, kind, play) \
	" - {id: " id ", kind: " kind ", name: {en: " id ", fr: " id "}, " \
	"text: {en: t, fr: t}, play: " play "}\n"
static const char small_file[] =
    "format: hexx-cards-1\nmissions:\n"
    SMALL_MISSION("m1") SMALL_MISSION("m2") SMALL_MISSION("m3")
    SMALL_MISSION("m4")
    "cards:\n"
    " - {id: base, kind: void, start: base, name: {en: B, fr: B}, "
    "text: {en: t, fr: t}}\n"
    " - {id: colony, kind: planet, start: colony, data: 4, "
    "name: {en: C, fr: C}, text: {en: t, fr: t}}\n"
    SMALL_CARD("rich", "alien", "[{do: if_base, at_least: 2, then: "
    "{do: gain, n: 5}}]")
    SMALL_CARD("mine", "alien", "[{do: if_planet, at_least: 4, then: "
    "{do: collect, n: 3}}]")
    SMALL_CARD("warp", "dilemma", "[{do: move_action, n: 1}]")
    SMALL_CARD("beam", "dilemma", "[{do: transmit_action, n: 1}]")
    SMALL_CARD("drain", "object", "[{do: use_event_action, n: 2}]");

/* The event on top of the discard pile back into seat 0's hand. */
static void
again(struct hexx *g)
{
	ck_assert_int_gt(g->ndiscard, 0);
	g->seat[0].hand[g->seat[0].nhand++] = g->discard[--g->ndiscard];
}

/* A started two-seat game (sides chosen, seat 0 to play) of a small card
 * file, padded with blank voids up to the 30 cards four hands need; the
 * set is returned in *small for cards_free. */
static struct hexx *
small_game(const char *file, const json_t *options, struct hexx_cards **small)
{
	char err[RULES_ERRLEN], text[4096];
	struct rules_rng rng;
	struct hexx *g;
	int i, s;

	snprintf(text, sizeof(text), "%s", file);
	for (i = 0; i < 25; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
		    " - {id: v%d, kind: void, name: {en: v%d, fr: v%d}, "
		    "text: {en: t, fr: t}}\n", i, i, i);
	*small = M->cards_parse(text, strlen(text), "small.yaml", err,
	    sizeof(err));
	ck_assert_msg(*small != NULL, "small.yaml: %s", err);
	rulestest_rng(&rng, 31, 0);
	g = M->setup_cards(*small, 2, options, &rng, err, sizeof(err));
	ck_assert_msg(g != NULL, "setup: %s", err);
	for (s = 0; s < 2; s++)
		g->seat[s].side = 0;
	hexx_begin_play(g);
	g->first = g->current = 0;
	g->actions = HEXX_ACTIONS;
	return g;
}

START_TEST(small_card_file)
{
	struct hexx_cards *small;
	struct hexx *g = small_game(small_file, no_options(), &small);
	int i, s;

	/* Every card in seat 0's hand. */
	for (s = 0; s < 2; s++)
		g->seat[s].nhand = 0;
	g->ndeck = 0;
	for (i = 0; i < small->ncards; i++)
		if (!small->card[i].start)
			g->seat[0].hand[g->seat[0].nhand++] = i;
	/* if_base: 1 datum is not 2; then 2 is. */
	g->seat[0].base = 1;
	play(g, 0, "event rich");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, 1);
	again(g);
	g->seat[0].base = 2;
	play(g, 0, "event rich");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, 7);
	/* if_planet at a named hex: Delta Colony holds 4. */
	play(g, 0, "event mine at 1,0");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, 10);
	ck_assert_int_eq(g->tile[1].data, 1);
	/* move_action: the next action is a Movement of its own. */
	g->actions = 1;
	play(g, 0, "event warp");
	all_pass(g);
	ck_assert_int_eq(g->move_actions, 1);
	refused(g, 0, "event beam", RULES_LANG_EN,
	    "may only play Movements");
	play(g, 0, "move 1,0");
	all_pass(g);
	ck_assert_int_eq(hexx_actions_left(g), 0);
	ck_assert_int_eq(g->seat[0].base, 11);	/* landed, collected 1 */
	/* use_event_action takes Event actions and any actions, never a
	 * Transmission action. */
	g->actions = 1;
	g->event_actions = 1;
	play(g, 0, "event beam");		/* the Event action */
	all_pass(g);
	ck_assert_int_eq(g->transmit_actions, 1);
	play(g, 0, "event drain");		/* the last any action */
	all_pass(g);
	ck_assert_int_eq(g->actions, 0);
	ck_assert_int_eq(g->transmit_actions, 1);
	M->destroy(g);
	M->cards_free(small);
}
END_TEST

/* Ruleset 2 (docs/hexx.md): the seed passages built last, each through
 * a card of this file. */
static const char r2_file[] =
    "format: hexx-cards-1\nmissions:\n"
    SMALL_MISSION("m1") SMALL_MISSION("m2") SMALL_MISSION("m3")
    SMALL_MISSION("m4")
    "cards:\n"
    " - {id: base, kind: void, start: base, name: {en: B, fr: B}, "
    "text: {en: t, fr: t}}\n"
    " - {id: colony, kind: planet, start: colony, data: 4, "
    "name: {en: C, fr: C}, text: {en: t, fr: t}}\n"
    " - {id: bog, kind: planet, data: 3, name: {en: bog, fr: bog}, "
    "text: {en: t, fr: t}, collect: {may: false, effects: "
    "[{do: spend, n: 2}]}}\n"
    " - {id: rock, kind: planet, data: 2, name: {en: rock, fr: rock}, "
    "text: {en: t, fr: t}}\n"
    " - {id: sling, kind: object, surprise: true, name: {en: sling, "
    "fr: sling}, text: {en: t, fr: t}, play: [{do: land}]}\n"
    " - {id: union, kind: alien, surprise: true, name: {en: union, "
    "fr: union}, text: {en: t, fr: t}, play: [{do: copy}]}\n"
    SMALL_CARD("terra", "dilemma", "[{do: replace}]")
    SMALL_CARD("peek", "alien", "[{do: show_hand, target: next}]")
    SMALL_CARD("flare", "dilemma", "[{do: event_action, n: 2}]")
    SMALL_CARD("gift", "object", "[{do: gain, n: 1}]")
    SMALL_CARD("gift2", "object", "[{do: gain, n: 1}]");

/* Seed line 179: collecting is optional; not collecting is offered where
 * it matters (a mandatory collect option) and refused in ruleset 1. */
START_TEST(ruleset2_nocollect)
{
	struct hexx_cards *small;
	struct hexx *g = small_game(r2_file, no_options(), &small);
	json_t *legal;
	size_t i;
	int offered = 0;

	ck_assert_int_eq(g->ruleset, HEXX_RULESET);
	put(g, "bog", -1, 0, 0);
	g->seat[0].base = 3;
	legal = M->legal_moves(g, 0);
	for (i = 0; i < json_array_size(legal); i++)
		offered |= strcmp(json_string_value(json_array_get(legal, i)),
		    "move -1,0 nocollect") == 0;
	ck_assert(offered);
	json_decref(legal);
	put(g, "v0", 0, -1, 0);
	refused(g, 0, "move 0,-1 nocollect", RULES_LANG_EN,
	    "the path does not end on a planet");
	g->ruleset = HEXX_RULESET_1;
	refused(g, 0, "move -1,0 nocollect", RULES_LANG_EN,
	    "\"nocollect\" lands on a planet");
	g->ruleset = HEXX_RULESET;
	refused(g, 0, "déplacer 0,0 sans-collecte", RULES_LANG_FR, "Étape 1");
	play(g, 0, "déplacer -1,0 sans-collecte");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, 3);	/* bog's option not run */
	ck_assert_int_eq(g->tile[2].data, 3);
	ck_assert_int_eq(g->seat[0].last_planet, hexx_card_find(small, "bog"));
	/* Collecting runs the mandatory option: spend 2. */
	g->seat[0].last_planet = -1;
	g->seat[0].q = g->seat[0].r = 0;
	play(g, 0, "move -1,0");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, 1);
	M->destroy(g);
	M->cards_free(small);
}
END_TEST

/* Seed lines 341-343: an Event action received in another's turn (a
 * Surprise copying Fuel Flare) is played at once, in a window of that
 * seat's own, before the action answered resolves; ruleset 1 ignores
 * it.  Seed line 381: a hand shown to one seat only, until the turn
 * ends. */
START_TEST(ruleset2_bonus_events_and_shown_hand)
{
	struct hexx_cards *small;
	struct hexx *g;
	json_t *view, *shown, *saved;
	char out[64], err[RULES_ERRLEN];
	int seats[HEXX_SEATS_MAX], version;
	void *copy;

	for (version = HEXX_RULESET_1; version <= HEXX_RULESET; version++) {
		g = small_game(r2_file, no_options(), &small);
		g->ruleset = version;
		give(g, 0, "gift");
		give(g, 1, "union");
		give(g, 1, "peek");
		give(g, 1, "gift2");
		give(g, 1, "flare");
		hexx_hand_take(g, 1, hexx_card_find(small, "flare"));
		hexx_to_discard(g, hexx_card_find(small, "flare"));
		play(g, 0, "event gift");
		play(g, 1, "surprise union");
		play(g, 0, "pass");	/* no riposte */
		if (version == HEXX_RULESET_1) {
			/* Gained actions count only in one's own turn. */
			ck_assert_int_eq(g->phase, HEXX_PHASE_ACTIONS);
			ck_assert_int_eq(g->seat[0].base, 1);
			M->destroy(g);
			M->cards_free(small);
			continue;
		}
		ck_assert_int_eq(g->phase, HEXX_PHASE_BONUS);
		ck_assert_int_eq(g->bonus[1], 2);
		ck_assert_int_eq(g->seat[0].base, 0);	/* gift waits */
		ck_assert_int_eq(M->to_act(g, seats, HEXX_SEATS_MAX), 1);
		ck_assert_int_eq(seats[0], 1);
		ck_assert(M->response_window(g));
		ck_assert_int_eq(M->default_move(g, 1, out, sizeof(out)),
		    RULES_OK);
		ck_assert_str_eq(out, "pass");
		refused(g, 0, "end", RULES_LANG_EN, "It is not your turn");
		refused(g, 1, "refresh peek", RULES_LANG_FR,
		    "jouez-les maintenant avec événement CARTE");
		/* Saved and loaded in the middle of it. */
		saved = M->save(g);
		copy = M->load_cards(small, saved, err, sizeof(err));
		ck_assert_msg(copy != NULL, "%s", err);
		M->destroy(copy);
		json_decref(saved);
		play(g, 1, "event peek");
		ck_assert_int_eq(g->bonus[1], 1);
		ck_assert_int_eq(g->phase, HEXX_PHASE_BONUS);
		/* Seat 1 alone sees seat 0's hand. */
		view = M->view(g, 1);
		shown = json_object_get(view, "shown_hand");
		ck_assert_ptr_nonnull(shown);
		ck_assert_int_eq(json_integer_value(json_object_get(shown,
		    "seat")), 0);
		ck_assert_int_eq(json_array_size(json_object_get(shown,
		    "cards")), (size_t)g->seat[0].nhand);
		json_decref(view);
		view = M->view(g, 0);
		ck_assert_ptr_null(json_object_get(view, "shown_hand"));
		json_decref(view);
		view = M->view(g, RULES_VIEW_PUBLIC);
		ck_assert_ptr_null(json_object_get(view, "shown_hand"));
		json_decref(view);
		play(g, 1, "passer");
		/* Then seat 0's gift resolves, and its turn goes on. */
		ck_assert_int_eq(g->phase, HEXX_PHASE_ACTIONS);
		ck_assert_int_eq(g->bonus[1], 0);
		ck_assert_int_eq(g->seat[0].base, 1);
		ck_assert_int_eq(g->current, 0);
		end_turn(g, 0);
		view = M->view(g, 1);
		ck_assert_ptr_null(json_object_get(view, "shown_hand"));
		json_decref(view);
		M->destroy(g);
		M->cards_free(small);
	}
}
END_TEST

/* Seed lines 187-189: a Surprise moves its player's ship in another's
 * turn, and the landing collects. */
START_TEST(ruleset2_land_in_another_turn)
{
	struct hexx_cards *small;
	struct hexx *g = small_game(r2_file, no_options(), &small);

	put(g, "bog", -1, 0, 0);
	give(g, 0, "gift");
	give(g, 1, "sling");
	play(g, 0, "event gift");
	play(g, 1, "surprise sling");
	play(g, 0, "pass");	/* no riposte */
	/* Delta Colony (4 data) beats the bog (3): seat 1 lands there. */
	ck_assert_int_eq(g->seat[1].q, 1);
	ck_assert_int_eq(g->seat[1].r, 0);
	ck_assert_int_eq(g->seat[1].base, 1);
	ck_assert_int_eq(g->tile[1].data, 3);
	ck_assert_int_eq(g->seat[1].last_planet, small->colony);
	ck_assert_int_eq(g->seat[0].base, 1);
	M->destroy(g);
	M->cards_free(small);
}
END_TEST

/* Seed line 167: a schema replaced by a card; ships on it stay. */
START_TEST(ruleset2_replace)
{
	struct hexx_cards *small;
	struct hexx *g = small_game(r2_file, no_options(), &small);
	int total, i, s;

	put(g, "bog", -1, 0, 0);
	put(g, "v0", 2, 0, 0);
	g->seat[0].q = -1;
	give(g, 0, "terra");
	give(g, 0, "rock");
	give(g, 0, "v1");
	refused(g, 0, "event terra at -1,0", RULES_LANG_EN,
	    "needs a second card");
	refused(g, 0, "event terra at 0,0 with rock", RULES_LANG_EN,
	    "cannot be replaced");
	/* A planet may not replace a void next to a planet. */
	refused(g, 0, "événement terra en 2,0 avec rock", RULES_LANG_FR,
	    "ne peut pas être remplacé");
	play(g, 0, "event terra at -1,0 with rock");
	all_pass(g);
	ck_assert_int_eq(g->tile[2].card, hexx_card_find(small, "rock"));
	ck_assert_int_eq(g->tile[2].data, 2);
	ck_assert_int_eq(g->discard[g->ndiscard - 1],
	    hexx_card_find(small, "terra"));
	ck_assert_int_eq(g->discard[g->ndiscard - 2],
	    hexx_card_find(small, "bog"));
	ck_assert(!hexx_hand_has(g, 0, hexx_card_find(small, "rock")));
	ck_assert_int_eq(g->seat[0].q, -1);	/* the ship stayed */
	total = g->supply;
	for (i = 0; i < g->ntiles; i++)
		total += g->tile[i].data;
	for (s = 0; s < g->nseats; s++)
		total += g->seat[s].base;
	ck_assert_int_eq(total, HEXX_DATA_TOTAL);
	M->destroy(g);
	M->cards_free(small);
}
END_TEST

/* Seed line 407: with finish_round the round is finished; of several
 * finished Missions the most data wins, ties share. */
START_TEST(ruleset2_finish_round)
{
	struct hexx_cards *small;
	json_t *options = json_pack("{s:b}", "finish_round", 1), *bad;
	struct rules_rng rng;
	char err[RULES_ERRLEN];
	struct hexx *g;
	int i, tie;

	for (tie = 0; tie < 2; tie++) {
		g = small_game(r2_file, options, &small);
		ck_assert(g->finish_round);
		/* Seat 0's Mission full: the round goes on after it. */
		for (i = 0; i < HEXX_SLOTS; i++)
			g->seat[0].slot[i] = small->base;
		give(g, 0, "gift");
		play(g, 0, "event gift");
		all_pass(g);
		ck_assert(g->finished);
		ck_assert_int_eq(g->phase, HEXX_PHASE_ACTIONS);
		end_turn(g, 0);
		/* Seat 1 plays its turn of the round and finishes too. */
		ck_assert_int_eq(g->current, 1);
		ck_assert_int_eq(g->phase, HEXX_PHASE_ACTIONS);
		for (i = 0; i < HEXX_SLOTS; i++)
			g->seat[1].slot[i] = small->base;
		g->seat[1].base = tie ? g->seat[0].base : g->seat[0].base + 1;
		g->supply -= g->seat[1].base;
		end_turn(g, 1);
		ck_assert_int_eq(g->phase, HEXX_PHASE_OVER);
		ck_assert_int_eq(g->winner_mask, tie ? 3 : 2);
		M->destroy(g);
		M->cards_free(small);
	}
	/* The option's refusals. */
	load_set();
	bad = json_pack("{s:i}", "finish_round", 3);
	ck_assert_ptr_null(M->setup_cards(set, 2, bad, &rng, err,
	    sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "finish_round"));
	json_decref(bad);
	ck_assert_ptr_null(hexx_setup_version(HEXX_RULESET_1, set, 2, options,
	    &rng, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "ruleset 1 has no options"));
	json_decref(options);
}
END_TEST

/* A ruleset 1 game keeps its rules: the same deal, a saved state with
 * no ruleset 2 field (so its recorded hashes still match), loaded back
 * as ruleset 1.  tests/cli-test.sh verifies a recorded ruleset 1 game. */
START_TEST(ruleset1_kept)
{
	struct rules_rng rng;
	char err[RULES_ERRLEN];
	struct hexx *old, *now, *back;
	json_t *a, *b;

	load_set();
	ck_assert_int_eq(M->ruleset_version, HEXX_RULESET);
	ck_assert_int_eq(M->oldest_ruleset_version, HEXX_RULESET_1);
	rulestest_rng(&rng, 5, 0);
	old = rules_setup_game(M, set, HEXX_RULESET_1, 3, no_options(), &rng,
	    err, sizeof(err));
	ck_assert_msg(old != NULL, "%s", err);
	rulestest_rng(&rng, 5, 0);
	now = rules_setup_game(M, set, HEXX_RULESET, 3, no_options(), &rng,
	    err, sizeof(err));
	ck_assert_msg(now != NULL, "%s", err);
	a = M->save(old);
	b = M->save(now);
	ck_assert_ptr_null(json_object_get(a, "ruleset"));
	ck_assert_ptr_null(json_object_get(a, "bonus"));
	ck_assert_int_eq(json_integer_value(json_object_get(b, "ruleset")),
	    HEXX_RULESET);
	ck_assert(json_equal(json_object_get(a, "hands"),
	    json_object_get(b, "hands")));
	back = M->load_cards(set, a, err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	ck_assert_int_eq(back->ruleset, HEXX_RULESET_1);
	M->destroy(back);
	json_decref(a);
	json_decref(b);
	M->destroy(old);
	M->destroy(now);
}
END_TEST

START_TEST(copy_top_event)
{
	struct hexx *g = game(2, 13);

	give(g, 0, "comet-shower");
	play(g, 0, "event comet-shower");
	all_pass(g);
	ck_assert_int_eq(g->tile[1].data, 6);
	give(g, 0, "robotic-union");
	play(g, 0, "event robotic-union");	/* a Surprise in one's turn */
	all_pass(g);
	ck_assert_int_eq(g->tile[1].data, 7);
	ck_assert_int_eq(g->actions, 1);
	M->destroy(g);
}
END_TEST

START_TEST(transmission)
{
	struct hexx *g = game(2, 14);
	int slot;

	give(g, 0, "ocean-world");
	refused(g, 0, "transmit ocean-world", RULES_LANG_EN,
	    "Transmitting costs 3 data; you have 0");
	refused(g, 0, "transmettre ocean-world", RULES_LANG_FR,
	    "Transmettre coûte 3 Données ; vous en avez 0");
	g->seat[0].base = 5;
	g->supply -= 5;
	play(g, 0, "transmit ocean-world");
	all_pass(g);
	slot = -1;
	for (int i = 0; i < HEXX_SLOTS; i++)
		if (g->seat[0].slot[i] == card("ocean-world"))
			slot = i;
	ck_assert_int_ge(slot, 0);
	ck_assert_int_eq(set->mission[g->seat[0].mission].side[0].icon[slot],
	    HEXX_PLANET);
	ck_assert_int_eq(g->seat[0].base, 2);
	/* The optional transmission cost. */
	give(g, 0, "bag-of-space-rock");
	play(g, 0, "transmit bag-of-space-rock");
	all_pass(g);
	ck_assert_int_eq(g->seat[0].base, 1);
	/* From a planet: refused. */
	end_turn(g, 0);
	play(g, 1, "move 1,0");
	all_pass(g);
	give(g, 1, "dust-world");
	g->seat[1].base = 3;
	g->supply -= 3;
	refused(g, 1, "transmit dust-world", RULES_LANG_EN,
	    "You transmit only from an Interstellar Void");
	M->destroy(g);
}
END_TEST

START_TEST(winning)
{
	struct hexx *g = game(2, 15);
	const struct hexx_mission_side *side =
	    &set->mission[g->seat[0].mission].side[0];
	json_t *res;
	int i, c, used[HEXX_CARDS_MAX] = { 0 };

	/* Five edges filled by hand, the sixth transmitted. */
	for (i = 0; i < HEXX_SLOTS; i++) {
		for (c = 0; c < set->ncards; c++)
			if (!used[c] && !set->card[c].start &&
			    set->card[c].kind == side->icon[i] &&
			    set->card[c].transmit_as < 0)
				break;
		ck_assert(c < set->ncards);
		used[c] = 1;
		give(g, 0, set->card[c].id);
		if (i < HEXX_SLOTS - 1) {
			hexx_hand_take(g, 0, c);
			g->seat[0].slot[i] = c;
		}
	}
	g->seat[0].base = 3;
	g->supply -= 3;
	for (c = 0; c < set->ncards; c++)
		if (used[c] && hexx_hand_has(g, 0, c))
			break;
	{
		char text[128];

		snprintf(text, sizeof(text), "transmit %s", set->card[c].id);
		play(g, 0, text);
	}
	all_pass(g);
	ck_assert_int_eq(g->phase, HEXX_PHASE_OVER);
	res = M->result(g);
	ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(res,
	    "winners"), 0)), 0);
	ck_assert_int_eq(json_array_size(json_object_get(res, "winners")), 1);
	json_decref(res);
	res = M->view(g, RULES_VIEW_PUBLIC);
	{
		const char *end = json_string_value(json_object_get(
		    json_array_get(json_object_get(res, "seats"), 0),
		    "conclusion_en"));

		ck_assert(end != NULL && strchr(end, '{') == NULL);
		ck_assert(strstr(end, set->card[g->seat[0].slot[0]].name_en) !=
		    NULL);
	}
	json_decref(res);
	refused(g, 1, "end", RULES_LANG_EN, "The game is over");
	M->destroy(g);
}
END_TEST

START_TEST(words_and_refusals)
{
	struct hexx *g = game(2, 16);
	char out[256];
	json_t *forms, *parsed;

	refused(g, 0, "fly 1,0", RULES_LANG_EN, "\"fly\" is not understood");
	refused(g, 0, "voler 1,0", RULES_LANG_FR, "« voler » n'est pas compris");
	refused(g, 1, "end", RULES_LANG_EN, "It is not your turn");
	refused(g, 1, "fin", RULES_LANG_FR, "Ce n'est pas votre tour");
	refused(g, 0, "schema open-space-1", RULES_LANG_EN,
	    "Say where the schema goes");
	ck_assert_int_eq(M->sample_illegal_move(g, 0, out, sizeof(out)),
	    RULES_OK);
	refused(g, 0, out, RULES_LANG_EN, "You do not hold Space Base");
	refused(g, 0, out, RULES_LANG_FR, "Vous n'avez pas Base spatiale");
	ck_assert_int_eq(M->default_move(g, 0, out, sizeof(out)), RULES_OK);
	ck_assert_str_eq(out, "end");
	forms = M->move_forms(g, 0, RULES_LANG_FR);
	ck_assert(strstr(json_string_value(json_array_get(forms, 1)),
	    "déplacer") != NULL);
	json_decref(forms);
	ck_assert_int_eq(M->translate(g, 0, "event sabotage at -1,0 to 0,1 "
	    "with ocean-world", RULES_LANG_FR, out, sizeof(out)), RULES_OK);
	ck_assert_str_eq(out, "événement sabotage en -1,0 vers 0,1 avec "
	    "ocean-world");
	ck_assert_int_eq(M->translate(g, 0, "end discard a, b", RULES_LANG_FR,
	    out, sizeof(out)), RULES_OK);
	ck_assert_str_eq(out, "fin défausser a, b");
	/* A button's label names the cards, the id beside (rules API 11);
	 * a word that is no card ("a") stays as it is. */
	ck_assert_int_eq(M->move_label(g, 0, "event sabotage at -1,0 to 0,1 "
	    "with ocean-world", RULES_LANG_EN, out, sizeof(out)), RULES_OK);
	ck_assert_str_eq(out, "event Sabotage (sabotage) at -1,0 to 0,1 with "
	    "Ocean World (ocean-world)");
	ck_assert_int_eq(M->move_label(g, 0, "end discard sabotage, a",
	    RULES_LANG_FR, out, sizeof(out)), RULES_OK);
	ck_assert_str_eq(out, "fin défausser Sabotage (sabotage), a");
	ck_assert_int_ne(M->move_label(g, 0, "end discard sabotage, a",
	    RULES_LANG_FR, out, 12), RULES_OK);
	/* Players type with or without accents. */
	ck_assert_int_eq(M->parse(g, 0, "Événement sabotage en -1,0",
	    RULES_LANG_FR, &parsed, out, sizeof(out)), RULES_OK);
	json_decref(parsed);
	ck_assert_int_eq(M->parse(g, 0, "evenement sabotage en -1,0",
	    RULES_LANG_FR, &parsed, out, sizeof(out)), RULES_OK);
	json_decref(parsed);
	ck_assert_int_eq(M->parse(g, 0, "fin défausser ocean-world",
	    RULES_LANG_FR, &parsed, out, sizeof(out)), RULES_OK);
	json_decref(parsed);
	play(g, 0, "déplacer 1,0");
	ck_assert_int_eq(M->default_move(g, 1, out, sizeof(out)), RULES_OK);
	ck_assert_str_eq(out, "pass");
	{
		const char *names[] = { "ann", "bob" };

		ck_assert_int_eq(M->describe_last(g, 0, names, RULES_LANG_FR,
		    out, sizeof(out)), RULES_OK);
		ck_assert_str_eq(out, "ann annonce un Déplacement");
		play(g, 1, "passer");
		ck_assert_int_eq(M->describe_last(g, 1, names, RULES_LANG_EN,
		    out, sizeof(out)), RULES_OK);
		ck_assert(strncmp(out, "bob answered; 0 surprise(s); the die "
		    "shows", 40) == 0);
	}
	M->destroy(g);
}
END_TEST

START_TEST(load_refusals)
{
	struct hexx *g = game(3, 17);
	json_t *saved = M->save(g), *bad;
	char err[RULES_ERRLEN];
	void *back;

	back = M->load_cards(set, saved, err, sizeof(err));
	ck_assert(back != NULL);
	M->destroy(back);
	/* A card twice. */
	bad = json_deep_copy(saved);
	json_array_append_new(json_object_get(bad, "deck"),
	    json_string("ocean-world"));
	ck_assert(M->load_cards(set, bad, err, sizeof(err)) == NULL);
	json_decref(bad);
	/* A card the set does not have. */
	bad = json_deep_copy(saved);
	json_array_set_new(json_object_get(bad, "deck"), 0,
	    json_string("no-such-card"));
	ck_assert(M->load_cards(set, bad, err, sizeof(err)) == NULL);
	json_decref(bad);
	/* Data that do not add up. */
	bad = json_deep_copy(saved);
	json_object_set_new(bad, "supply", json_integer(3));
	ck_assert(M->load_cards(set, bad, err, sizeof(err)) == NULL);
	json_decref(bad);
	json_decref(saved);
	M->destroy(g);
}
END_TEST

/* ---- random play ---- */

static void
invariants(const struct hexx *g)
{
	json_t *saved = M->save(g);
	char err[RULES_ERRLEN];
	struct hexx *back;
	json_t *again;
	int i, d, t;

	/* load() checks every card is in one place and the data add up. */
	back = M->load_cards(set, saved, err, sizeof(err));
	ck_assert_msg(back != NULL, "reload: %s", err);
	again = M->save(back);
	ck_assert(json_equal(saved, again));
	json_decref(again);
	M->destroy(back);
	json_decref(saved);
	ck_assert(hexx_connected_without(g, -1));
	for (i = 0; i < g->ntiles; i++) {
		if (set->card[g->tile[i].card].kind != HEXX_PLANET)
			continue;
		for (d = 0; d < 6; d++) {
			t = hexx_tile_at(g, g->tile[i].q + hexx_dir[d][0],
			    g->tile[i].r + hexx_dir[d][1]);
			ck_assert(t < 0 ||
			    set->card[g->tile[t].card].kind != HEXX_PLANET ||
			    set->card[g->tile[t].card].start ||
			    set->card[g->tile[i].card].start);
		}
	}
}

/* One random game; returns the number of moves. */
static int
random_game(int nseats, uint64_t seed, int check_every)
{
	struct rules_rng rng, pick;
	char err[RULES_ERRLEN];
	struct hexx *g;
	int seats[4], n, step = 0, who;
	json_t *legal, *move;
	const char *text;

	load_set();
	rulestest_rng(&rng, seed, 0);
	g = M->setup_cards(set, nseats, no_options(), &rng, err, sizeof(err));
	ck_assert(g != NULL);
	rulestest_rng(&pick, seed ^ 0xabcdef, 1);
	while ((n = M->to_act(g, seats, 4)) > 0) {
		ck_assert_msg(step < 20000, "game %llu does not end",
		    (unsigned long long)seed);
		who = seats[rules_rng_below(&pick, (uint32_t)n)];
		legal = M->legal_moves(g, who);
		ck_assert(json_array_size(legal) > 0);
		/* Mostly act; end a turn one time in six. */
		text = json_string_value(json_array_get(legal,
		    rules_rng_below(&pick, (uint32_t)json_array_size(legal))));
		ck_assert_int_eq(M->parse(g, who, text, RULES_LANG_EN, &move,
		    err, sizeof(err)), RULES_OK);
		ck_assert_msg(M->check(g, who, move, RULES_LANG_EN, err,
		    sizeof(err)) == RULES_OK, "legal move \"%s\" refused: %s",
		    text, err);
		if (check_every) {
			/* The French example reads back to the same move. */
			char fr[512];
			json_t *again;

			ck_assert_int_eq(M->translate(g, who, text,
			    RULES_LANG_FR, fr, sizeof(fr)), RULES_OK);
			ck_assert_int_eq(M->parse(g, who, fr, RULES_LANG_FR,
			    &again, err, sizeof(err)), RULES_OK);
			ck_assert_msg(json_equal(move, again), "%s / %s", text,
			    fr);
			json_decref(again);
		}
		rulestest_rng(&rng, seed, (uint64_t)++step);
		M->apply(g, who, move, &rng);
		json_decref(move);
		json_decref(legal);
		if (check_every && step % check_every == 0)
			invariants(g);
	}
	invariants(g);
	move = M->result(g);
	ck_assert(move != NULL);
	ck_assert_int_ge(json_array_size(json_object_get(move, "winners")), 1);
	json_decref(move);
	M->destroy(g);
	return step;
}

/* How many of count random games to play: all, or PBEM_RANDOM_GAMES
 * when it is fewer (the sanitizer run and distcheck sample). */
static int
random_games(int count)
{
	const char *env = getenv("PBEM_RANDOM_GAMES");

	return env != NULL && atoi(env) > 0 && atoi(env) < count ? atoi(env) :
	    count;
}

START_TEST(random_two)
{
	int i;

	for (i = 0; i < random_games(400); i++)
		random_game(2, (uint64_t)(1000 + i), i < 50 ? 1 : 0);
}
END_TEST

START_TEST(random_three)
{
	int i;

	for (i = 0; i < random_games(300); i++)
		random_game(3, (uint64_t)(5000 + i), i < 30 ? 1 : 0);
}
END_TEST

START_TEST(random_four)
{
	int i;

	for (i = 0; i < random_games(300); i++)
		random_game(4, (uint64_t)(9000 + i), i < 30 ? 1 : 0);
}
END_TEST

/* ---- no peeking ---- */

static char *
answers(const struct hexx *g, int seat, const char *extra)
{
	json_t *all = json_array(), *v;
	char out[512], err[RULES_ERRLEN];
	json_t *move;
	char *s;
	size_t i;

	json_array_append_new(all, M->view(g, seat));
	json_array_append_new(all, M->legal_moves(g, seat));
	json_array_append_new(all, M->move_forms(g, seat, RULES_LANG_FR));
	if (M->default_move(g, seat, out, sizeof(out)) == RULES_OK)
		json_array_append_new(all, json_string(out));
	if (M->sample_illegal_move(g, seat, out, sizeof(out)) == RULES_OK)
		json_array_append_new(all, json_string(out));
	v = M->legal_moves(g, seat);
	json_array_append_new(v, json_string(extra));
	for (i = 0; i < json_array_size(v); i++) {
		const char *t = json_string_value(json_array_get(v, i));

		err[0] = '\0';
		if (M->parse(g, seat, t, RULES_LANG_FR, &move, err,
		    sizeof(err)) != RULES_OK) {
			json_array_append_new(all, json_string(err));
			continue;
		}
		M->check(g, seat, move, RULES_LANG_FR, err, sizeof(err));
		json_array_append_new(all, json_string(err));
		json_decref(move);
	}
	json_decref(v);
	s = json_dumps(all, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(all);
	return s;
}

START_TEST(no_peek)
{
	struct rules_rng rng, pick;
	char err[RULES_ERRLEN], text[256];
	struct nopeek_known known = { 0 };
	int game_no, seats[4], n, step, who, viewer, compared = 0;

	load_set();
	for (game_no = 0; game_no < 24; game_no++) {
		struct hexx *g;
		int nseats = 2 + game_no % 3;

		rulestest_rng(&rng, 77 + (uint64_t)game_no, 0);
		g = M->setup_cards(set, nseats, no_options(), &rng, err,
		    sizeof(err));
		rulestest_rng(&pick, 31 + (uint64_t)game_no, 0);
		known.n = 0;
		for (step = 0; (n = M->to_act(g, seats, 4)) > 0 && step < 300;
		    step++) {
			json_t *legal, *move, *saved, *hidden;
			struct hexx *other;
			char *a, *b;

			for (viewer = -1; viewer < nseats; viewer++) {
				if (rules_rng_below(&pick, 4) != 0)
					continue;
				saved = M->save(g);
				hexx_nopeek.note(saved, &known);
				hidden = json_deep_copy(saved);
				hexx_nopeek.hide(hidden, viewer, &known, &pick);
				other = M->load_cards(set, hidden, err,
				    sizeof(err));
				ck_assert_msg(other != NULL, "hidden: %s", err);
				hexx_nopeek.text(saved, viewer, &pick, text,
				    sizeof(text));
				a = answers(g, viewer, text);
				b = answers(other, viewer, text);
				if (strcmp(a, b) != 0) {
					size_t at = 0;

					while (a[at] == b[at])
						at++;
					at = at > 150 ? at - 150 : 0;
					ck_abort_msg("seat %d sees hidden cards:"
					    "\n%.300s\n%.300s", viewer, a + at,
					    b + at);
				}
				compared++;
				free(a);
				free(b);
				M->destroy(other);
				json_decref(saved);
				json_decref(hidden);
			}
			who = seats[rules_rng_below(&pick, (uint32_t)n)];
			legal = M->legal_moves(g, who);
			M->parse(g, who, json_string_value(json_array_get(legal,
			    rules_rng_below(&pick,
			    (uint32_t)json_array_size(legal)))), RULES_LANG_EN,
			    &move, err, sizeof(err));
			rulestest_rng(&rng, 77 + (uint64_t)game_no, (uint64_t)step + 1);
			M->apply(g, who, move, &rng);
			json_decref(move);
			json_decref(legal);
		}
		M->destroy(g);
	}
	ck_assert_int_gt(compared, 500);
}
END_TEST

START_TEST(board_picture)
{
	struct hexx *g = game(2, 18);
	json_t *v;
	const char *svg;

	put(g, "asteroid-belt", -1, 0, 0);
	v = M->view(g, 0);
	svg = json_string_value(json_object_get(v, "board_svg_en"));
	ck_assert(svg != NULL);
	ck_assert(strstr(svg, "<svg") == svg);
	ck_assert(strstr(svg, "Delta Colony") != NULL);
	ck_assert(strstr(svg, "stroke-dasharray") != NULL);	/* a border */
	ck_assert(strstr(json_string_value(json_object_get(v,
	    "board_svg_fr")), "Ceinture d&apos;") != NULL ||
	    strstr(json_string_value(json_object_get(v, "board_svg_fr")),
	    "Ceinture d'astéroïdes") != NULL);
	ck_assert_int_eq(json_array_size(json_object_get(v, "board")), 3);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(
	    json_array_get(json_object_get(v, "board"), 0), "neighbours"), 0)),
	    "1,0");
	ck_assert(json_object_get(v, "hand") != NULL);
	{
		/* The web page and the mail get the drawing and the hexes. */
		struct present_info info;
		const char *names[] = { "ann", "bob" };
		json_t *shown, *data = json_object();

		memset(&info, 0, sizeof(info));
		info.lang = RULES_LANG_FR;
		info.module = M;
		info.viewer = 0;
		shown = present_view(v, &info);
		draw_view_fill(data, shown, 2, names, 0);
		ck_assert(strstr(json_string_value(json_object_get(data,
		    "board_svg")), "Colonie Delta") != NULL);
		ck_assert_int_eq(json_array_size(json_object_get(data,
		    "hexes")), 3);
		ck_assert_str_eq(json_string_value(json_object_get(
		    json_array_get(json_object_get(data, "hexes"), 1), "name")),
		    "Colonie Delta");
		json_decref(shown);
		json_decref(data);
	}
	json_decref(v);
	v = M->view(g, RULES_VIEW_PUBLIC);
	ck_assert(json_object_get(v, "hand") == NULL);
	json_decref(v);
	M->destroy(g);
}
END_TEST

/* Columns (UTF-8 code points) of the line at s, up to its newline. */
static size_t
line_columns(const char *s)
{
	size_t n = 0;

	for (; *s != '\0' && *s != '\n'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Does the line at s (up to its newline) hold needle? */
static int
line_has(const char *s, const char *needle)
{
	const char *found = strstr(s, needle), *nl = strchr(s, '\n');

	return found != NULL && (nl == NULL || found < nl);
}

/* No line of text is wider than 80 columns, but the lines a player
 * copies whole ("pbem sign ..."), and in a text view (not yet wrapped
 * for mail, footer_too 1) the shared footer's seed commitment. */
static void
fits_80(const char *text, int footer_too)
{
	const char *line, *at;

	for (line = text; *line != '\0'; line = at + 1) {
		at = line;
		while (*at == ' ')
			at++;
		if (line_columns(line) > 80)
			ck_assert_msg(strncmp(at, "pbem sign ", 10) == 0 ||
			    (footer_too && (line_has(line, "Seed commitment") ||
			    line_has(line, "Engagement sur la graine"))),
			    "a line of %zu columns:\n%.*s", line_columns(line),
			    (int)line_columns(line) * 2, line);
		if ((at = strchr(line, '\n')) == NULL)
			break;
	}
}

/* Every template of the game, in both languages, for a seat and for
 * spectators, at positions of every phase: it renders, fills every
 * field, and the text form lists hexes with their neighbours. */
START_TEST(templates_render_all)
{
	static const char *const names[] = { "your_turn", "accepted",
		"rejected", "game_over", "help", "spectator", "waiting" };
	static const char *const players[] = { "ann", "bob", "cy" };
	struct tpl_set *tpl;
	struct rules_rng rng, pick;
	char err[RULES_ERRLEN];
	struct hexx *g;
	int step, seats[4], n, lang, viewer, k, phases = 0;
	json_t *legal, *move;

	tpl = templates_load(HEXX_SRCDIR "/templates", err, sizeof(err));
	ck_assert_msg(tpl != NULL, "templates: %s", err);
	load_set();
	rulestest_rng(&rng, 4242, 0);
	g = M->setup_cards(set, 3, no_options(), &rng, err, sizeof(err));
	rulestest_rng(&pick, 4243, 0);
	for (step = 0; (n = M->to_act(g, seats, 4)) > 0 || phases == 0;
	    step++) {
		if (step % 7 == 0 || n == 0)
			for (lang = 0; lang < 2; lang++)
				for (viewer = -1; viewer < 3; viewer += 2) {
					struct present_info info;
					json_t *view = M->view(g, viewer), *shown;
					json_t *forms = M->move_forms(g, viewer < 0 ?
					    0 : viewer, (enum rules_lang)lang);
					json_t *lm = M->legal_moves(g, viewer < 0 ?
					    0 : viewer);

					memset(&info, 0, sizeof(info));
					info.lang = (enum rules_lang)lang;
					info.module = M;
					info.viewer = viewer;
					info.forms = forms;
					info.legal = lm;
					info.state = g;
					info.move = "move 1,0";
					info.reason = "refused";
					info.seat_names = players;
					info.nseats = 3;
					json_object_set_new(view, "game_id",
					    json_integer(1));
					json_object_set_new(view, "next_seq",
					    json_integer(step + 1));
					shown = present_view(view, &info);
					for (k = 0; k < 7; k++) {
						struct mustache_buf out;
						char *wrapped;

						mustache_buf_init(&out);
						ck_assert_msg(templates_render(tpl,
						    lang ? "fr" : "en", "hexx",
						    names[k], TPL_TEXT, shown, &out,
						    err, sizeof(err)) == 0,
						    "%s: %s", names[k], err);
						mustache_buf_append(&out, "", 1);
						ck_assert(strstr(out.data, "{{") ==
						    NULL);
						ck_assert_msg(strstr(out.data, lang ?
						    "voisines : " : "next to: ") !=
						    NULL, "%s", out.data);
						fits_80(out.data, 1);
						wrapped = mail_wrap(out.data,
						    MAIL_WRAP_WIDTH);
						fits_80(wrapped, 0);
						free(wrapped);
						mustache_buf_free(&out);
					}
					json_decref(shown);
					json_decref(view);
					json_decref(forms);
					json_decref(lm);
				}
		if (n == 0) {
			phases = 1;
			break;
		}
		legal = M->legal_moves(g, seats[0]);
		M->parse(g, seats[0], json_string_value(json_array_get(legal,
		    rules_rng_below(&pick, (uint32_t)json_array_size(legal)))),
		    RULES_LANG_EN, &move, err, sizeof(err));
		rulestest_rng(&rng, 4242, (uint64_t)step + 1);
		M->apply(g, seats[0], move, &rng);
		json_decref(move);
		json_decref(legal);
	}
	M->destroy(g);
	templates_free(tpl);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hexx");
	TCase *tc = tcase_create("rules");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, project_set);
	tcase_add_test(tc, file_refusals);
	tcase_add_test(tc, card_refusals);
	tcase_add_test(tc, setup_rules);
	tcase_add_test(tc, placement);
	tcase_add_test(tc, borders_and_links);
	tcase_add_test(tc, landing_and_collection);
	tcase_add_test(tc, schema_icons);
	tcase_add_test(tc, event_effects);
	tcase_add_test(tc, every_effect);
	tcase_add_test(tc, disintegrate_and_delete);
	tcase_add_test(tc, surprises);
	tcase_add_test(tc, riposte);
	tcase_add_test(tc, normal_bot);
	tcase_add_test(tc, small_card_file);
	tcase_add_test(tc, gained_actions_and_conditions);
	tcase_add_test(tc, copy_top_event);
	tcase_add_test(tc, ruleset2_nocollect);
	tcase_add_test(tc, ruleset2_bonus_events_and_shown_hand);
	tcase_add_test(tc, ruleset2_land_in_another_turn);
	tcase_add_test(tc, ruleset2_replace);
	tcase_add_test(tc, ruleset2_finish_round);
	tcase_add_test(tc, ruleset1_kept);
	tcase_add_test(tc, transmission);
	tcase_add_test(tc, winning);
	tcase_add_test(tc, words_and_refusals);
	tcase_add_test(tc, load_refusals);
	tcase_add_test(tc, board_picture);
	tcase_add_test(tc, templates_render_all);
	suite_add_tcase(s, tc);
	tc = tcase_create("random");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, random_two);
	tcase_add_test(tc, random_three);
	tcase_add_test(tc, random_four);
	suite_add_tcase(s, tc);
	tc = tcase_create("nopeek");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, no_peek);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
