/*
 * check_captains.c -- Star Trek: Captain's Chair (rules/captains/): the
 * project's card file, card-file refusals, every keyword and operation
 * kind through a small card file made for it, refusals in English and
 * French, save/load round trips, a no-peek check with the game's hider,
 * and random play of whole games to both ends (STARDATE and BURN) with
 * invariants: cards conserved, resources never negative, glory
 * accounted for, every game ends.
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
#include "nopeek.h"
#include "captains.h"

static const struct rules_module *M = &captains_module;

static void round_trip(const struct cc_state *s);
static void no_peek(const struct cc_state *s, int seat,
    struct rules_rng *rng);

static void *
project_set(void)
{
	size_t len;
	char *bytes = rulestest_slurp(CAPTAINS_CARDS, &len), err[RULES_ERRLEN];
	void *set = M->cards_parse(bytes, len, "cards.yaml", err, sizeof(err));

	ck_assert_msg(set != NULL, "%s", err);
	free(bytes);
	return set;
}

/* The smallest legal set, then the cards of a test: its head, the
 * first captain (a test may give its own), the rest. */
#define BASE_HEAD \
    "game: captains\n" \
    "stardates:\n" \
    "  - {glory: 3}\n" \
    "  - {glory: 3, wipe_market: true, wipe_neutral: true}\n" \
    "cards:\n"
#define CAPTAIN_ADA_OPS \
    "       {kind: ACTIVATION, effects: [{keyword: send_team, amount: 3}]},\n" \
    "       {kind: ACTIVATION, effects: [{keyword: remove_team}]},\n" \
    "       {kind: ENDGAME, effects: [{keyword: score, amount: 5}]}]}\n"
#define CAPTAIN_ADA \
    "  - {id: cap-a, name: Captain Ada, suit: CAPTAIN, away_teams: 3,\n" \
    "     traits: [HUMAN], operations: [\n" CAPTAIN_ADA_OPS
#define BASE_REST \
    "  - {id: cap-b, name: Captain Bex, suit: CAPTAIN, away_teams: 3}\n" \
    "  - {id: filler-a, name: Filler A, suit: PERSON, pile: deck,\n" \
    "     captain: cap-a, copies: 6, operations: [{kind: PLAY, effects:\n" \
    "       [{keyword: gain, resource: dilithium}]}]}\n" \
    "  - {id: filler-b, name: Filler B, suit: PERSON, pile: deck,\n" \
    "     captain: cap-b, copies: 6, operations: [{kind: PLAY, effects:\n" \
    "       [{keyword: gain, resource: latinum}]}]}\n" \
    "  - {id: res-a, name: Reserve A, suit: CARGO, pile: reserve,\n" \
    "     captain: cap-a}\n" \
    "  - {id: dev-a, name: Dev A, suit: CARGO, pile: development,\n" \
    "     captain: cap-a, cost: {latinum: 2}}\n" \
    "  - {id: m-person, name: Market Person, suit: PERSON, copies: 2,\n" \
    "     traits: [FOO], cost: {latinum: 1}, vp: 2}\n" \
    "  - {id: m-cargo, name: Market Cargo, suit: CARGO, copies: 2}\n" \
    "  - {id: m-ship, name: Market Ship, suit: SHIP, copies: 2}\n" \
    "  - {id: m-ally, name: Market Ally, suit: ALLY, copies: 2}\n" \
    "  - {id: inc, name: Trouble, suit: INCIDENT, copies: 4, vp: -1}\n" \
    "  - {id: enc, name: Wonder, suit: ENCOUNTER, copies: 2}\n" \
    "  - {id: l1, name: Loc One, suit: LOCATION, pile: location-start,\n" \
    "     operations: [{kind: CONTROL, effects: [{keyword: gain,\n" \
    "       resource: latinum, amount: 4}]}]}\n" \
    "  - {id: l2, name: Loc Two, suit: LOCATION, pile: location-start}\n" \
    "  - {id: l3, name: Loc Three, suit: LOCATION, pile: location-start}\n" \
    "  - {id: l4, name: Loc Four, suit: LOCATION, pile: location-start}\n" \
    "  - {id: l5, name: Loc Five, suit: LOCATION}\n"
static const char base_yaml[] = BASE_HEAD CAPTAIN_ADA BASE_REST;
static const char base_rest[] = BASE_REST;

/* The base set with captain as its first captain, then cards. */
static struct cc_set *
set_with_captain(const char *captain, const char *cards)
{
	char *yaml = malloc(strlen(BASE_HEAD) + strlen(captain) +
	    sizeof(base_rest) + strlen(cards) + 1);
	char err[RULES_ERRLEN];
	struct cc_set *set;

	strcpy(yaml, BASE_HEAD);
	strcat(yaml, captain);
	strcat(yaml, base_rest);
	strcat(yaml, cards);
	set = M->cards_parse(yaml, strlen(yaml), "test.yaml", err,
	    sizeof(err));
	ck_assert_msg(set != NULL, "%s", err);
	free(yaml);
	return set;
}

static struct cc_set *
set_with(const char *cards)
{
	char *yaml = malloc(sizeof(base_yaml) + strlen(cards) + 1);
	char err[RULES_ERRLEN];
	struct cc_set *set;

	strcpy(yaml, base_yaml);
	strcat(yaml, cards);
	set = M->cards_parse(yaml, strlen(yaml), "test.yaml", err,
	    sizeof(err));
	ck_assert_msg(set != NULL, "%s", err);
	free(yaml);
	return set;
}

static struct cc_state *
start(const struct cc_set *set, uint64_t seed)
{
	struct rules_rng rng;
	json_t *opts = json_object();
	char err[RULES_ERRLEN];
	struct cc_state *s;

	rulestest_rng(&rng, seed, 0);
	s = M->setup_cards(set, 2, opts, &rng, err, sizeof(err));
	json_decref(opts);
	ck_assert_msg(s != NULL, "%s", err);
	return s;
}

/* Move one copy of card id, from wherever it lies, into seat's hand. */
static int
give(struct cc_state *s, int seat, const char *id)
{
	int card = cc_find_id(s->set, id);
	struct cc_pile *piles[] = { &s->seat[0].deck, &s->seat[1].deck,
		&s->seat[0].reserve, &s->seat[1].reserve,
		&s->seat[0].development, &s->seat[1].development,
		&s->market[0], &s->market[1], &s->market[2], &s->market[3],
		&s->incident, &s->encounter, &s->box, &s->seat[0].discard,
		&s->seat[1].discard, &s->seat[0].staging, &s->seat[1].staging,
		&s->seat[0].log, &s->seat[1].log };

	ck_assert_msg(card >= 0, "no card %s", id);
	for (size_t i = 0; i < sizeof(piles) / sizeof(piles[0]); i++) {
		int at = pile_find(piles[i], card);
		if (at >= 0) {
			pile_remove_at(piles[i], at);
			pile_push(&s->seat[seat].hand, card);
			return card;
		}
	}
	ck_abort_msg("%s is nowhere to give", id);
	return -1;
}

/* A turn of seat 0 with an empty hand (its cards back in its deck). */
static struct cc_state *
turn_of_a(const struct cc_set *set)
{
	struct cc_state *s = start(set, 7);

	s->active = 0;
	s->phase = CC_PH_CONTROL;
	while (s->seat[0].hand.n > 0)
		pile_push(&s->seat[0].deck, pile_pop(&s->seat[0].hand));
	return s;
}

static enum rules_status
run(struct cc_state *s, int seat, const char *text, enum rules_lang lang,
    char *err)
{
	json_t *move;
	enum rules_status rc;
	struct rules_rng rng;
	int total = cc_count_cards(s);

	rc = M->parse(s, seat, text, lang, &move, err, RULES_ERRLEN);
	if (rc != RULES_OK)
		return rc;
	rc = M->check(s, seat, move, lang, err, RULES_ERRLEN);
	if (rc == RULES_OK) {
		rulestest_rng(&rng, 99, (uint64_t)s->turn);
		M->apply(s, seat, move, &rng);
		ck_assert_int_eq(cc_count_cards(s), total);
	}
	json_decref(move);
	return rc;
}

static void
ok(struct cc_state *s, int seat, const char *text)
{
	char err[RULES_ERRLEN];

	ck_assert_msg(run(s, seat, text, RULES_LANG_EN, err) == RULES_OK,
	    "%s: %s", text, err);
}

static void
refused(struct cc_state *s, int seat, const char *text, enum rules_lang lang,
    const char *part)
{
	char err[RULES_ERRLEN];
	json_t *before = M->save(s), *after;

	ck_assert_msg(run(s, seat, text, lang, err) != RULES_OK,
	    "%s was accepted", text);
	ck_assert_msg(strstr(err, part) != NULL, "%s: \"%s\" lacks \"%s\"",
	    text, err, part);
	after = M->save(s);
	ck_assert_msg(json_equal(before, after), "a refusal changed the state");
	json_decref(before);
	json_decref(after);
}

/* ---- the card file ---- */

START_TEST(project_cards_read)
{
	struct cc_set *set = project_set();
	int used[KW_NKEYWORDS] = { 0 }, kinds[CC_NOPKINDS] = { 0 };
	int attack = 0, wildcard = 0;

	ck_assert_int_ge(set->ncaptains, 2);
	for (int i = 0; i < set->ncards; i++) {
		const struct cc_card *c = &set->card[i];
		wildcard |= c->wildcard;
		for (int o = 0; o < c->nops; o++) {
			kinds[c->op[o].kind]++;
			attack |= c->op[o].attack;
			for (int e = 0; e < c->op[o].neffects; e++)
				used[c->op[o].effect[e].keyword]++;
		}
	}
	for (int k = 0; k < KW_NKEYWORDS; k++)
		ck_assert_msg(used[k] > 0, "no card uses %s",
		    cc_keyword_name(k));
	for (int k = 0; k < CC_NOPKINDS; k++)
		ck_assert_msg(kinds[k] > 0, "no %s operation",
		    cc_opkind_name(k));
	ck_assert(attack);
	ck_assert(wildcard);
	M->cards_free(set);
}
END_TEST

static void
bad_file(const char *cards, const char *part)
{
	char *yaml = malloc(sizeof(base_yaml) + strlen(cards) + 1);
	char err[RULES_ERRLEN];
	void *set;

	strcpy(yaml, base_yaml);
	strcat(yaml, cards);
	set = M->cards_parse(yaml, strlen(yaml), "bad.yaml", err, sizeof(err));
	ck_assert_msg(set == NULL, "accepted: %s", cards);
	ck_assert_msg(strstr(err, part) != NULL, "\"%s\" lacks \"%s\"", err,
	    part);
	free(yaml);
}

START_TEST(card_file_refusals)
{
	bad_file("  - {id: x1, name: X, suit: PERSONNEL}\n",
	    "card x1, field suit: unknown value");
	bad_file("  - id: x2\n    name: X\n    suit: PERSON\n"
	    "    operations:\n      - kind: PLAY\n        effects:\n"
	    "          - {keyword: gain}\n",
	    "bad.yaml:42: card x2, field resource: gain needs");
	bad_file("  - {id: x3, name: X, suit: PERSON, operations: [{kind: "
	    "PLAY, effects: [{keyword: teleport}]}]}\n",
	    "card x3, field keyword: unknown value");
	bad_file("  - {id: x4, name: X, suit: PERSON, operations: [{kind: "
	    "REACTION, effects: [{keyword: draw}]}]}\n",
	    "card x4, field trigger");
	bad_file("  - {id: x5, name: X, suit: PERSON, operations: [{kind: "
	    "PLAY, effects: [{keyword: steal, resource: latinum}]}]}\n",
	    "steal is an ATTACK");
	bad_file("  - {id: m-ally, name: Again, suit: ALLY}\n",
	    "the id m-ally is already used");
	bad_file("  - {id: x6, name: X, suit: DIRECTIVE, pile: deck, "
	    "captain: nobody}\n", "card x6, field captain: no CAPTAIN");
	bad_file("  - {id: x7, name: X, suit: PERSON, copies: 200}\n",
	    "field copies: must be from 1 to 20");
	bad_file("  - {id: x8, name: X, suit: PERSON, operations: [{kind: "
	    "PLAY, effects: [{keyword: discard}, {keyword: junk}]}]}\n",
	    "at most one effect of an operation chooses a target");
}
END_TEST

/* Every cut of the project's file, and bytes changed at random, are
 * refused or read, never a crash (run under the sanitizers too). */
START_TEST(card_file_mangled)
{
	size_t len;
	char *bytes = rulestest_slurp(CAPTAINS_CARDS, &len), err[RULES_ERRLEN];
	struct rules_rng rng;

	rulestest_rng(&rng, 11, 0);
	for (size_t cut = 0; cut < len; cut += 61) {
		void *set = M->cards_parse(bytes, cut, "cut.yaml", err,
		    sizeof(err));
		M->cards_free(set);
	}
	for (int i = 0; i < 300; i++) {
		char *copy = malloc(len);
		void *set;
		memcpy(copy, bytes, len);
		for (int j = 0; j < 4; j++)
			copy[rules_rng_below(&rng, (uint32_t)len)] =
			    (char)rules_rng_below(&rng, 256);
		set = M->cards_parse(copy, len, "flip.yaml", err, sizeof(err));
		M->cards_free(set);
		free(copy);
	}
	free(bytes);
}
END_TEST

/* A saved position with a number changed loads or is refused, never a
 * crash; what loads saves back and plays on. */
START_TEST(saved_state_mangled)
{
	struct cc_set *set = project_set();
	struct cc_state *s = start(set, 21);
	json_t *saved = M->save(s);
	char *text = json_dumps(saved, JSON_COMPACT), err[RULES_ERRLEN];
	struct rules_rng rng;
	size_t len = strlen(text);

	rulestest_rng(&rng, 12, 0);
	for (int i = 0; i < 400; i++) {
		char *copy = strdup(text);
		size_t at = rules_rng_below(&rng, (uint32_t)len);
		json_t *j;
		if (copy[at] >= '0' && copy[at] <= '9')
			copy[at] = (char)('0' + rules_rng_below(&rng, 10));
		else if (copy[at] == '1' || copy[at] == ',')
			copy[at] = '-';
		j = json_loads(copy, 0, NULL);
		if (j != NULL) {
			struct cc_state *t = M->load_cards(set, j, err,
			    sizeof(err));
			if (t != NULL) {
				json_t *legal = M->legal_moves(t, t->active);
				json_decref(legal);
				json_decref(M->view(t, 0));
				M->destroy(t);
			}
			json_decref(j);
		}
		free(copy);
	}
	free(text);
	json_decref(saved);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* ---- keywords and operation kinds ---- */

static const char keyword_cards[] =
    "  - {id: t-res, name: T Res, suit: PERSON, pile: deck, captain: cap-a,\n"
    "     operations: [{kind: PLAY, effects: [{keyword: gain, resource:\n"
    "     latinum, amount: 2}, {keyword: gain, resource: glory},\n"
    "     {keyword: gain_action, amount: 2}]}]}\n"
    "  - {id: t-spend, name: T Spend, suit: PERSON, pile: deck,\n"
    "     captain: cap-a, operations: [{kind: PLAY, action: true,\n"
    "     effects: [{keyword: spend, resource: latinum, amount: 3}]}]}\n"
    "  - {id: t-draw, name: T Draw, suit: PERSON, pile: deck, captain: cap-a,\n"
    "     operations: [{kind: PLAY, effects: [{keyword: draw, amount: 2}]},\n"
    "     {kind: PLAY, effects: [{keyword: draw_from_discard}]}]}\n"
    "  - {id: t-disc, name: T Disc, suit: PERSON, pile: deck, captain: cap-a,\n"
    "     operations: [{kind: PLAY, effects: [{keyword: discard},\n"
    "     {keyword: gain, resource: dilithium, amount: 3}]},\n"
    "     {kind: PLAY, effects: [{keyword: destroy}]},\n"
    "     {kind: PLAY, effects: [{keyword: log}]},\n"
    "     {kind: PLAY, effects: [{keyword: log, self: true}]}]}\n"
    "  - {id: t-gain, name: T Gain, suit: PERSON, pile: deck, captain: cap-a,\n"
    "     operations: [{kind: PLAY, effects: [{keyword: gain_card, suit:\n"
    "     PERSON, pay: true}]}, {kind: PLAY, effects: [{keyword: junk}]},\n"
    "     {kind: PLAY, effects: [{keyword: scan_for, trait: FOO}]},\n"
    "     {kind: PLAY, effects: [{keyword: duplicate, suit: PERSON}]}]}\n"
    "  - {id: t-inc, name: T Inc, suit: PERSON, pile: deck, captain: cap-a,\n"
    "     operations: [{kind: PLAY, effects: [{keyword: take, suit:\n"
    "     INCIDENT}]}, {kind: PLAY, effects: [{keyword: return_incident}]},\n"
    "     {kind: PLAY, effects: [{keyword: take, suit: ENCOUNTER}]}]}\n"
    "  - {id: t-enl, name: T Enl, suit: PERSON, pile: deck, captain: cap-a,\n"
    "     operations: [{kind: PLAY, effects: [{keyword: enlist_reserve}]},\n"
    "     {kind: PLAY, effects: [{keyword: enlist_development}]},\n"
    "     {kind: PLAY, effects: [{keyword: find}]},\n"
    "     {kind: PLAY, action: true, effects: [{keyword: free_play}]}]}\n"
    "  - {id: t-off, name: T Officer, suit: PERSON, pile: deck,\n"
    "     captain: cap-a, skills: {research: 2}, operations: [\n"
    "     {kind: PLAY, effects: [{keyword: promote}]},\n"
    "     {kind: ACTIVATION, effects: [{keyword: specialty, track:\n"
    "     military, amount: 4}]},\n"
    "     {kind: REACTION, trigger: attacked, effects: [{keyword: gain,\n"
    "     resource: latinum, amount: 5}]}]}\n"
    "  - {id: t-ship, name: T Ship, suit: SHIP, pile: deck, captain: cap-a,\n"
    "     operations: [{kind: PLAY, effects: [{keyword: deploy}]},\n"
    "     {kind: ACTIVATION, effects: [{keyword: warp}]},\n"
    "     {kind: ACTIVATION, effects: [{keyword: beam}]},\n"
    "     {kind: CLEAN-UP, effects: [{keyword: gain, resource: dilithium}]}]}\n"
    "  - {id: t-table, name: T Table, suit: PERSON, pile: deck,\n"
    "     captain: cap-a, operations: [{kind: PLAY, effects: [{keyword:\n"
    "     exhaust}]}, {kind: PLAY, effects: [{keyword: refresh}]},\n"
    "     {kind: PLAY, effects: [{keyword: recall}]},\n"
    "     {kind: PLAY, effects: [{keyword: dismiss}]}]}\n"
    "  - {id: t-ctl, name: T Ctl, suit: PERSON, pile: deck, captain: cap-a,\n"
    "     operations: [{kind: PLAY, effects: [{keyword: take_control}]},\n"
    "     {kind: PLAY, effects: [{keyword: trigger_control}]},\n"
    "     {kind: PLAY, requires: {research: 3}, effects: [{keyword:\n"
    "     utilize}]}]}\n"
    "  - {id: t-att, name: T Attack, suit: PERSON, pile: deck,\n"
    "     captain: cap-a, operations: [{kind: PLAY, attack: true, effects:\n"
    "     [{keyword: steal, resource: latinum, amount: 3},\n"
    "     {keyword: discard, amount: 2}, {keyword: take, suit: INCIDENT}]}]}\n"
    "  - {id: t-home, name: T Home, suit: LOCATION, pile: controlled,\n"
    "     captain: cap-a, traits: [WILDCARD], operations: [\n"
    "     {kind: RESUPPLY, effects: [{keyword: gain, resource: latinum}]},\n"
    "     {kind: PASSIVE, trigger: gain_card, effects: [{keyword: gain,\n"
    "     resource: dilithium, amount: 2}]},\n"
    "     {kind: CONTROL, effects: [{keyword: gain, resource: dilithium,\n"
    "     amount: 7}]},\n"
    "     {kind: ENDGAME, effects: [{keyword: score, amount: 1,\n"
    "     per_suit: PERSON}]}]}\n"
    "  - {id: t-dup, name: T Dup, suit: PERSON, pile: deck, captain: cap-a,\n"
    "     operations: [{kind: PLAY, effects: [{keyword: duplicate, suit:\n"
    "     CARGO}]}]}\n"
    "  - {id: t-src, name: T Source, suit: CARGO, operations: [{kind: PLAY,\n"
    "     action: true, effects: [{keyword: gain, resource: latinum,\n"
    "     amount: 4}, {keyword: log, self: true}]}]}\n"
    "  - {id: t-spec, name: T Special, suit: CARGO, pile: deck,\n"
    "     captain: cap-a, vp: 1, operations: [{kind: SPECIAL, effects:\n"
    "     [{keyword: score, amount: 10}]}]}\n";

START_TEST(resources_actions_draw)
{
	struct cc_set *set = set_with(keyword_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	int lat = p->res[CC_LATINUM], sd = s->stardate_glory;

	give(s, 0, "t-res");
	ok(s, 0, "play T Res");
	ck_assert_int_eq(p->res[CC_LATINUM], lat + 2);
	ck_assert_int_eq(p->res[CC_GLORY], 1);
	ck_assert_int_eq(s->stardate_glory, sd - 1);
	ck_assert_int_eq(p->actions, 5);
	/* spend: 3 latinum, a glory making up for one */
	p->res[CC_LATINUM] = 2;
	give(s, 0, "t-spend");
	ok(s, 0, "play t-spend");
	ck_assert_int_eq(p->res[CC_LATINUM], 0);
	ck_assert_int_eq(p->res[CC_GLORY], 0);
	ck_assert_int_eq(p->actions, 4);
	give(s, 0, "t-spend");
	refused(s, 0, "play T Spend", RULES_LANG_EN, "you cannot pay 3 latinum");
	refused(s, 0, "jouer T Spend", RULES_LANG_FR,
	    "vous ne pouvez pas payer 3 latinum");
	/* draw 2, and the step after a draw must wait */
	give(s, 0, "t-draw");
	refused(s, 0, "play T Draw 1; play T Spend", RULES_LANG_EN,
	    "step 2: the step before brought cards you have not seen");
	ok(s, 0, "play T Draw 1");
	ck_assert_int_eq(p->hand.n, 3);
	/* draw from discard */
	pile_push(&p->discard, cc_find_id(set, "m-ally"));
	give(s, 0, "t-draw");
	ok(s, 0, "play T Draw 2 on Market Ally");
	ck_assert_int_ge(pile_find(&p->hand, cc_find_id(set, "m-ally")), 0);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(hand_keywords)
{
	struct cc_set *set = set_with(keyword_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	int ally = cc_find_id(set, "m-ally"), disc = cc_find_id(set, "t-disc");

	give(s, 0, "t-disc");
	refused(s, 0, "play T Disc", RULES_LANG_EN, "needs a target");
	refused(s, 0, "play T Disc on Market Ally", RULES_LANG_EN,
	    "Market Ally is not in your hand");
	refused(s, 0, "jouer T Disc sur Market Ally", RULES_LANG_FR,
	    "Market Ally n'est pas dans votre main");
	give(s, 0, "m-ally");
	ok(s, 0, "play T Disc 1 on Market Ally");
	ck_assert_int_ge(pile_find(&p->discard, ally), 0);
	ck_assert_int_eq(p->res[CC_DILITHIUM], 3);
	give(s, 0, "t-disc");
	give(s, 0, "m-cargo");
	ok(s, 0, "play T Disc 2 on Market Cargo");	/* destroy */
	ck_assert_int_ge(pile_find(&s->box, cc_find_id(set, "m-cargo")), 0);
	give(s, 0, "t-disc");
	give(s, 0, "m-ship");
	ok(s, 0, "play T Disc 3 on Market Ship");	/* log a card */
	ck_assert_int_ge(pile_find(&p->log, cc_find_id(set, "m-ship")), 0);
	give(s, 0, "t-disc");
	ok(s, 0, "play T Disc 4");			/* log this card */
	ck_assert_int_ge(pile_find(&p->log, disc), 0);
	ck_assert_int_lt(pile_find(&p->staging, disc), 0);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(market_keywords)
{
	struct cc_set *set = set_with(keyword_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	int person = cc_find_id(set, "m-person");
	int deck_before;

	/* gain the offer, paying its cost; the PASSIVE of T Home (on the
	 * table from the start) gives 2 dilithium on every gain */
	pile_push(&s->market[CC_PERSON], s->offer[CC_PERSON]);
	pile_remove_at(&s->market[CC_PERSON], pile_find(&s->market[CC_PERSON],
	    person));
	s->offer[CC_PERSON] = person;
	s->offer_glory[CC_PERSON] = 0;
	give(s, 0, "t-gain");
	refused(s, 0, "play T Gain 1 on Market Person", RULES_LANG_EN,
	    "the cost, 0 dilithium and 1 latinum");
	p->res[CC_LATINUM] = 1;
	p->res[CC_DILITHIUM] = 0;
	ok(s, 0, "play T Gain 1 on Market Person");
	ck_assert_int_ge(pile_find(&p->discard, person), 0);
	ck_assert_int_eq(p->res[CC_LATINUM], 0);
	ck_assert_int_eq(p->res[CC_DILITHIUM], 2);
	/* a gain from the deck top, unpaid */
	pile_push(&s->market[CC_PERSON], pile_pop(&p->discard));
	deck_before = s->market[CC_PERSON].n;
	give(s, 0, "t-gain");
	ok(s, 0, "play T Gain 1 on deck person");
	ck_assert_int_eq(s->market[CC_PERSON].n, deck_before - 1);
	/* junk an offer */
	give(s, 0, "t-gain");
	ok(s, 0, "play T Gain 2 on Market Cargo");
	ck_assert_int_ge(pile_find(&s->junk, cc_find_id(set, "m-cargo")), 0);
	/* scan for the trait FOO: finds the other Market Person */
	give(s, 0, "t-gain");
	ok(s, 0, "play T Gain 3");
	ck_assert_int_eq(p->discard.n > 0, 1);
	/* duplicate a market PERSON's PLAY (none: nothing happens) */
	give(s, 0, "t-gain");
	refused(s, 0, "play T Gain 4 on Market Ally", RULES_LANG_EN,
	    "is not a market offer this effect may take");
	/* duplicate: the offer's PLAY resolves for us, without its action
	 * and without "log this card"; the offer stays */
	{
		int src = cc_find_id(set, "t-src"), at;
		at = pile_find(&s->market[CC_CARGO], src);
		pile_remove_at(&s->market[CC_CARGO], at);
		pile_push(&s->market[CC_CARGO], s->offer[CC_CARGO]);
		s->offer[CC_CARGO] = src;
		p->res[CC_LATINUM] = 0;
		p->actions = 0;
		give(s, 0, "t-dup");
		ok(s, 0, "play T Dup on T Source");
		ck_assert_int_eq(p->res[CC_LATINUM], 4);
		ck_assert_int_eq(s->offer[CC_CARGO], src);
		ck_assert_int_lt(pile_find(&p->log, src), 0);
	}
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(incident_and_enlist_keywords)
{
	struct cc_set *set = set_with(keyword_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	int inc = cc_find_id(set, "inc"), n = s->incident.n;

	give(s, 0, "t-inc");
	ok(s, 0, "play T Inc 1");
	ck_assert_int_eq(s->incident.n, n - 1);
	ck_assert_int_ge(pile_find(&p->hand, inc), 0);
	give(s, 0, "t-inc");
	ok(s, 0, "play T Inc 2 on Trouble");
	ck_assert_int_eq(s->incident.card[0], inc);
	ck_assert_int_eq(s->incident.n, n);
	give(s, 0, "t-inc");
	ok(s, 0, "play T Inc 3");
	ck_assert_int_ge(pile_find(&p->hand, cc_find_id(set, "enc")), 0);
	/* enlist a reserve, a development (paid), find, free play */
	give(s, 0, "t-enl");
	n = p->deck.n;
	ok(s, 0, "play T Enl 1");
	ck_assert_int_eq(p->deck.n, n + 1);
	give(s, 0, "t-enl");
	refused(s, 0, "play T Enl 2 on Dev A", RULES_LANG_FR,
	    "le coût, 0 dilithium et 2 latinum");
	p->res[CC_LATINUM] = 2;
	ok(s, 0, "play T Enl 2 on Dev A");
	ck_assert_int_eq(p->deck.card[p->deck.n - 1], cc_find_id(set, "dev-a"));
	give(s, 0, "t-enl");
	ok(s, 0, "play T Enl 3 on Dev A");
	ck_assert_int_ge(pile_find(&p->hand, cc_find_id(set, "dev-a")), 0);
	give(s, 0, "t-enl");
	p->actions = 1;
	ok(s, 0, "play T Enl 4");
	ck_assert_int_eq(p->actions, 0);
	ck_assert_int_eq(p->free_plays, 1);
	give(s, 0, "t-spend");
	p->res[CC_LATINUM] = 3;
	ok(s, 0, "play T Spend");	/* the free play pays its action */
	ck_assert_int_eq(p->free_plays, 0);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(table_keywords)
{
	struct cc_set *set = set_with(keyword_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	int ship = cc_find_id(set, "t-ship"), off = cc_find_id(set, "t-off");
	char text[160];

	give(s, 0, "t-off");
	ok(s, 0, "play T Officer 1");
	ck_assert_int_eq(p->zone[CC_Z_DUTY].n, 1);
	ok(s, 0, "activate T Officer");
	ck_assert_int_eq(p->track[CC_MILITARY], 4);
	refused(s, 0, "activate T Officer", RULES_LANG_EN, "is exhausted");
	refused(s, 0, "activer T Officer", RULES_LANG_FR, "est épuisée");
	give(s, 0, "t-table");
	ok(s, 0, "play T Table 2 on T Officer");	/* refresh */
	ck_assert_int_eq(p->zone[CC_Z_DUTY].s[0].exhausted, 0);
	give(s, 0, "t-table");
	ok(s, 0, "play T Table 1 on T Officer");	/* exhaust */
	ck_assert_int_eq(p->zone[CC_Z_DUTY].s[0].exhausted, 1);
	/* deploy, warp, beam */
	give(s, 0, "t-ship");
	ok(s, 0, "play T Ship");
	ck_assert_int_eq(p->zone[CC_Z_FLEET].s[0].card, ship);
	snprintf(text, sizeof(text), "activate T Ship 1 on %s",
	    set->card[s->neutral[1]].name);
	ok(s, 0, text);
	ck_assert_int_eq(p->zone[CC_Z_FLEET].s[0].at, 1);
	ck_assert_int_eq(cc_ships_at(s, 0, 1), 1);
	p->zone[CC_Z_FLEET].s[0].exhausted = 0;
	give(s, 0, "m-cargo");
	ok(s, 0, "activate T Ship 2 on Market Cargo");
	ck_assert_int_eq(p->zone[CC_Z_FLEET].s[0].nbeam, 1);
	/* recall brings the ship and its beamed card back to the hand */
	give(s, 0, "t-table");
	ok(s, 0, "play T Table 3 on T Ship");
	ck_assert_int_ge(pile_find(&p->hand, ship), 0);
	ck_assert_int_ge(pile_find(&p->hand, cc_find_id(set, "m-cargo")), 0);
	/* dismiss the officer */
	give(s, 0, "t-table");
	ok(s, 0, "play T Table 4 on T Officer");
	ck_assert_int_ge(pile_find(&p->discard, off), 0);
	ck_assert_int_eq(p->zone[CC_Z_DUTY].n, 0);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(control_keywords)
{
	struct cc_set *set = set_with(keyword_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	char text[160];
	int loc = s->neutral[0], glory_b = s->seat[1].res[CC_GLORY];

	/* three away teams secure a location; the opponent's team there
	 * earns it a glory when control is taken */
	s->seat[1].teams_at[0] = 1;
	refused(s, 0, "control Loc Five", RULES_LANG_EN,
	    "is not in the Neutral Zone");
	snprintf(text, sizeof(text), "activate Captain Ada 1 on %s",
	    set->card[loc].name);
	ok(s, 0, text);
	ck_assert_int_eq(p->teams_at[0], 3);
	ck_assert_int_eq(cc_teams_free(s, 0), 0);
	s->phase = CC_PH_CONTROL;
	snprintf(text, sizeof(text), "control %s", set->card[loc].name);
	ok(s, 0, text);
	ck_assert_int_eq(s->seat[1].res[CC_GLORY], glory_b + 1);
	ck_assert_int_eq(p->zone[CC_Z_LOCATIONS].s[p->zone[CC_Z_LOCATIONS].n -
	    1].card, loc);
	ck_assert_int_eq(cc_teams_free(s, 0), 3);
	ck_assert_int_eq(s->seat[1].teams_at[0], 0);
	refused(s, 0, text, RULES_LANG_EN, "control comes once");
	/* trigger a controlled location's CONTROL operation again */
	give(s, 0, "t-ctl");
	p->res[CC_DILITHIUM] = 0;
	ok(s, 0, "play T Ctl 2 on T Home");
	ck_assert_int_eq(p->res[CC_DILITHIUM], 7);
	/* take_control during the action step needs a secured location */
	give(s, 0, "t-ctl");
	snprintf(text, sizeof(text), "play T Ctl 1 on %s",
	    set->card[s->neutral[2]].name);
	refused(s, 0, text, RULES_LANG_EN, "you have not secured");
	/* requires: research 3 */
	refused(s, 0, "play T Ctl 3", RULES_LANG_EN,
	    "requires 3 research; you have 0");
	p->track[CC_RESEARCH] = 3;
	ok(s, 0, "play T Ctl 3");
	ck_assert_int_eq(p->track[CC_RESEARCH], 3);	/* no skill in play */
	/* utilize counts the SKILL icons in play: T Officer on duty */
	give(s, 0, "t-off");
	ok(s, 0, "play T Officer 1");
	give(s, 0, "t-ctl");
	ok(s, 0, "play T Ctl 3");
	ck_assert_int_eq(p->track[CC_RESEARCH], 5);
	/* send three teams, take one back, send again, take control now */
	loc = s->neutral[2];
	p->zone[CC_Z_CAPTAIN].s[0].exhausted = 0;
	snprintf(text, sizeof(text), "activate Captain Ada 1 on %s",
	    set->card[loc].name);
	ok(s, 0, text);
	ck_assert_int_eq(p->teams_at[2], 3);
	p->zone[CC_Z_CAPTAIN].s[0].exhausted = 0;
	snprintf(text, sizeof(text), "activate Captain Ada 2 on %s",
	    set->card[loc].name);
	ok(s, 0, text);
	ck_assert_int_eq(p->teams_at[2], 2);
	p->teams_at[2] = 3;
	give(s, 0, "t-ctl");
	snprintf(text, sizeof(text), "play T Ctl 1 on %s", set->card[loc].name);
	ok(s, 0, text);
	ck_assert_int_eq(p->zone[CC_Z_LOCATIONS].s[p->zone[CC_Z_LOCATIONS].n -
	    1].card, loc);
	ck_assert_int_eq(p->teams_at[2], 0);
	/* every team out: they come from the other locations, the one with
	 * the fewest tokens first (line 255; line 776's choice) */
	p->teams_at[0] = 2;
	p->teams_at[1] = 1;
	p->zone[CC_Z_CAPTAIN].s[0].exhausted = 0;
	snprintf(text, sizeof(text), "activate Captain Ada 1 on %s",
	    set->card[s->neutral[2]].name);
	ok(s, 0, text);
	ck_assert_int_eq(p->teams_at[2], 3);
	ck_assert_int_eq(p->teams_at[0] + p->teams_at[1], 0);
	ck_assert_int_eq(cc_teams_free(s, 0), 0);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(attack_and_reaction)
{
	struct cc_set *set = set_with(keyword_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *b = &s->seat[1];
	int to_act, hand, inc = s->incident.n;
	char text[160];

	/* seat 1 has an officer with a REACTION on its table */
	b->zone[CC_Z_DUTY].s[0].card = give(s, 1, "t-off");
	pile_remove_at(&b->hand, pile_find(&b->hand, cc_find_id(set, "t-off")));
	b->zone[CC_Z_DUTY].n = 1;
	b->res[CC_LATINUM] = 1;
	give(s, 0, "t-att");
	refused(s, 0, "play T Attack; end", RULES_LANG_EN,
	    "step 2: your attack waits for your opponent's answer");
	ok(s, 0, "play T Attack");
	ck_assert_int_eq(M->response_window(s), 1);
	ck_assert_int_eq(M->to_act(s, &to_act, 1), 1);
	ck_assert_int_eq(to_act, 1);
	refused(s, 0, "end", RULES_LANG_EN, "your opponent is answering");
	refused(s, 1, "play Filler B", RULES_LANG_FR,
	    "l'attaque adverse attend votre réponse");
	hand = b->hand.n;
	snprintf(text, sizeof(text), "react T Officer; discard %s",
	    set->card[b->hand.card[0]].name);
	ok(s, 1, text);
	ck_assert_int_eq(M->response_window(s), 0);
	/* reaction: +5 latinum, then 3 stolen */
	ck_assert_int_eq(b->res[CC_LATINUM], 3);
	ck_assert_int_eq(s->seat[0].res[CC_LATINUM], 3);
	ck_assert_int_eq(b->hand.n, hand - 2 + 1);
	ck_assert_int_eq(s->incident.n, inc - 1);
	ck_assert_int_eq(b->zone[CC_Z_DUTY].s[0].exhausted, 1);
	/* the default answer is pass */
	give(s, 0, "t-att");
	ok(s, 0, "play T Attack");
	ck_assert(M->default_move(s, 1, text, sizeof(text)) == RULES_OK);
	ck_assert_str_eq(text, "pass");
	ok(s, 1, text);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(cleanup_resupply_and_score)
{
	struct cc_set *set = set_with(keyword_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	int dil, glory_on, lat;
	json_t *r;

	give(s, 0, "t-ship");
	ok(s, 0, "play T Ship");
	dil = p->res[CC_DILITHIUM];
	glory_on = s->offer_glory[CC_ALLY];
	ok(s, 0, "end Market Ally");
	ck_assert_int_eq(p->res[CC_DILITHIUM], dil + 1);	/* CLEAN-UP */
	ck_assert_int_eq(s->offer_glory[CC_ALLY], glory_on + 1);
	ck_assert_int_eq(p->hand.n, 5);
	ck_assert_int_eq(s->active, 1);
	lat = p->res[CC_LATINUM];
	ok(s, 1, "end");
	/* T Home (controlled from the start) gives a latinum at RESUPPLY */
	ck_assert_int_eq(s->active, 0);
	ck_assert_int_eq(p->res[CC_LATINUM], lat + 1);
	/* the end of the game by the STARDATE: each seat a last turn */
	s->stardate = set->nstardates - 1;
	s->stardate_glory = 1;
	ok(s, 0, "end");
	ck_assert_int_eq(s->final_turns, 1);
	ok(s, 1, "end");
	ck_assert(!s->over);
	ok(s, 0, "end");
	ck_assert(s->over);
	r = M->result(s);
	ck_assert_str_eq(json_string_value(json_object_get(r, "end")),
	    "stardate");
	/* ENDGAME: 5 (captain) + 1 per PERSON (T Home); SPECIAL: 10 */
	{
		json_t *b = json_object_get(json_array_get(json_object_get(r,
		    "breakdown"), 0), "score");
		int persons = 0;
		for (int i = 0; i < p->deck.n; i++)
			persons += set->card[p->deck.card[i]].suit == CC_PERSON;
		for (int i = 0; i < p->hand.n; i++)
			persons += set->card[p->hand.card[i]].suit == CC_PERSON;
		for (int i = 0; i < p->discard.n; i++)
			persons += set->card[p->discard.card[i]].suit ==
			    CC_PERSON;
		ck_assert_int_eq(json_integer_value(json_object_get(b,
		    "endgame")), 5 + persons);
		ck_assert_int_eq(json_integer_value(json_object_get(b,
		    "special")), 10);
	}
	json_decref(r);
	refused(s, 1, "end", RULES_LANG_EN, "the game is over");
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(burn_ends_at_once)
{
	struct cc_set *set = set_with(keyword_cards);
	struct cc_state *s = turn_of_a(set);
	json_t *r;

	while (s->incident.n > 1)
		pile_push(&s->box, pile_pop(&s->incident));
	give(s, 0, "t-inc");
	refused(s, 0, "play T Inc 1; end", RULES_LANG_EN,
	    "step 2: the game ended at the step before");
	ok(s, 0, "play T Inc 1");
	ck_assert(s->over && s->burn);
	r = M->result(s);
	ck_assert_str_eq(json_string_value(json_object_get(r, "end")), "burn");
	/* seat 0 now holds more incidents: seat 1 wins */
	ck_assert_int_eq(json_array_size(json_object_get(r, "winners")), 1);
	ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(r,
	    "winners"), 0)), 1);
	json_decref(r);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(cleanup_discard_and_to_deck)
{
	struct cc_set *set = set_with(keyword_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	int person = cc_find_id(set, "m-person"), ally = cc_find_id(set,
	    "m-ally"), cargo = cc_find_id(set, "m-cargo");

	/* GAIN onto the deck (line 187: deck or discard, the player's) */
	pile_push(&s->market[CC_PERSON], s->offer[CC_PERSON]);
	pile_remove_at(&s->market[CC_PERSON], pile_find(&s->market[CC_PERSON],
	    person));
	s->offer[CC_PERSON] = person;
	p->res[CC_LATINUM] = 1;
	give(s, 0, "t-gain");
	ok(s, 0, "jouer T Gain 1 sur Market Person vers pioche");
	ck_assert_int_eq(p->deck.card[p->deck.n - 1], person);
	ck_assert_int_lt(pile_find(&p->discard, person), 0);
	give(s, 0, "t-res");
	refused(s, 0, "play T Res to deck", RULES_LANG_EN,
	    "\"to deck\" places a gained card: this operation gains none");
	refused(s, 0, "jouer T Res vers pioche", RULES_LANG_FR,
	    "cette opération n'en gagne pas");
	/* 4.4: chosen hand cards are discarded with the staging area */
	give(s, 0, "m-ally");
	give(s, 0, "m-cargo");
	refused(s, 0, "end discard Market Ship", RULES_LANG_EN,
	    "you hold no Market Ship to discard at clean-up");
	refused(s, 0, "fin defausser Market Ally, Market Ally", RULES_LANG_FR,
	    "vous n'avez pas Market Ally à défausser au nettoyage");
	ok(s, 0, "end discard Market Ally, Market Cargo");
	ck_assert_int_ge(pile_find(&p->discard, ally), 0);
	ck_assert_int_ge(pile_find(&p->discard, cargo), 0);
	ck_assert_int_lt(pile_find(&p->hand, ally), 0);
	ck_assert_int_eq(p->hand.n, 5);
	ck_assert_int_eq(s->active, 1);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

static const char scan_cards[] =
    "  - {id: t-scan, name: T Scan, suit: PERSON, pile: deck,\n"
    "     captain: cap-a, operations: [{kind: PLAY, effects: [{keyword:\n"
    "     scan, amount: 2, suit: [PERSON, CARGO]}]}, {kind: PLAY, effects:\n"
    "     [{keyword: scan, amount: 5, suit: ALLY}]}]}\n"
    "  - {id: m-crate, name: Market Crate, suit: CARGO, copies: 3,\n"
    "     cost: {latinum: 1}}\n"
    "  - {id: t-junk, name: T Junk, suit: PERSON, pile: deck,\n"
    "     captain: cap-a, operations: [{kind: PLAY, effects: [{keyword:\n"
    "     gain_card, junk: true, suit: CARGO, pay: true}]}, {kind: PLAY,\n"
    "     effects: [{keyword: scan, junk: true, suit: PERSON}]}, {kind:\n"
    "     PLAY, effects: [{keyword: scan_for, junk: true, trait: FOO}]}]}\n";

/* Move one copy of id into the Junk (through seat 1's hand). */
static int
junk_it(struct cc_state *s, const char *id)
{
	int card = give(s, 1, id);

	pile_remove_at(&s->seat[1].hand, pile_find(&s->seat[1].hand, card));
	pile_push(&s->junk, card);
	return card;
}

START_TEST(junk_gains)
{
	struct cc_set *set = set_with(scan_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	int crate = junk_it(s, "m-crate"), person = junk_it(s, "m-person");

	/* GAIN from the Junk (line 199), paid, onto the deck */
	give(s, 0, "t-junk");
	refused(s, 0, "play T Junk 1 on Market Person", RULES_LANG_EN,
	    "Market Person is not a card of the Junk this effect may take");
	refused(s, 0, "play T Junk 1 on Market Crate", RULES_LANG_EN,
	    "the cost, 0 dilithium and 1 latinum");
	p->res[CC_LATINUM] = 1;
	ok(s, 0, "play T Junk 1 on Market Crate to deck");
	ck_assert_int_eq(p->deck.card[p->deck.n - 1], crate);
	ck_assert_int_lt(pile_find(&s->junk, crate), 0);
	/* SCAN the Junk: it is public, the pick is the step's target */
	give(s, 0, "t-junk");
	ok(s, 0, "jouer T Junk 2 sur Market Person");
	ck_assert_int_eq(p->discard.card[p->discard.n - 1], person);
	ck_assert_int_eq(s->scan_suit, -1);
	/* SCAN FOR a trait looks in the Junk first (line 551) */
	junk_it(s, "m-person");
	give(s, 0, "t-junk");
	ok(s, 0, "play T Junk 3");
	ck_assert_int_eq(s->junk.n, 0);
	ck_assert_int_eq(p->discard.card[p->discard.n - 1], person);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

static int
has_text(const json_t *list, const char *text)
{
	for (size_t i = 0; i < json_array_size(list); i++)
		if (strcmp(json_string_value(json_array_get(list, i)), text) ==
		    0)
			return 1;
	return 0;
}

START_TEST(scan_of_suit)
{
	struct cc_set *set = set_with(scan_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	struct rules_rng rng;
	int deck = s->market[CC_CARGO].n, seen, other, offer;
	char text[160];
	json_t *v, *legal;

	rulestest_rng(&rng, 77, 0);
	give(s, 0, "t-scan");
	refused(s, 0, "play T Scan 1", RULES_LANG_EN,
	    "name the deck to scan: \"on deck SUIT\"");
	refused(s, 0, "jouer T Scan 1 sur pioche allie", RULES_LANG_FR,
	    "cet effet ne scanne pas cette pioche");
	refused(s, 0, "play T Scan 1 on deck cargo; end", RULES_LANG_EN,
	    "step 2: the step before brought cards you have not seen");
	ok(s, 0, "play T Scan 1 on deck cargo");
	ck_assert_int_eq(s->scan.n, 2);
	ck_assert_int_eq(s->market[CC_CARGO].n, deck - 2);
	/* the scanning seat alone sees the cards */
	v = M->view(s, 0);
	ck_assert_int_eq(json_array_size(json_object_get(json_object_get(v,
	    "scan"), "cards")), 2);
	json_decref(v);
	v = M->view(s, 1);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(v,
	    "scan"), "count")), 2);
	ck_assert_ptr_null(json_object_get(json_object_get(v, "scan"),
	    "cards"));
	json_decref(v);
	no_peek(s, 0, &rng);
	no_peek(s, 1, &rng);
	no_peek(s, RULES_VIEW_PUBLIC, &rng);
	round_trip(s);
	/* nothing but the pick until it is made */
	refused(s, 0, "end", RULES_LANG_EN, "you scanned: first pick one card");
	refused(s, 0, "fin", RULES_LANG_FR, "vous avez scanné");
	refused(s, 0, "pick Market Ally", RULES_LANG_EN,
	    "Market Ally is neither a card you scanned nor the CARGO offer");
	seen = s->scan.card[1];
	other = s->scan.card[0];
	legal = M->legal_moves(s, 0);
	snprintf(text, sizeof(text), "pick %s to deck", set->card[seen].name);
	ck_assert_msg(has_text(legal, text), "%s not legal", text);
	json_decref(legal);
	legal = M->legal_moves(s, 1);
	ck_assert_int_eq(json_array_size(legal), 0);
	json_decref(legal);
	ck_assert(M->default_move(s, 0, text, sizeof(text)) == RULES_OK);
	ck_assert_msg(strncmp(text, "pick ", 5) == 0, "%s", text);
	snprintf(text, sizeof(text), "choisir %s vers pioche",
	    set->card[seen].name_fr);
	ok(s, 0, text);
	ck_assert_int_eq(p->deck.card[p->deck.n - 1], seen);
	ck_assert_int_eq(s->market[CC_CARGO].card[0], other);
	ck_assert_int_eq(s->market[CC_CARGO].n, deck - 1);
	ck_assert_int_eq(s->scan_suit, -1);
	ck_assert(strstr(s->last_en, "put a scanned card onto the deck") !=
	    NULL);
	/* one suit: no deck to name; the offer may be picked instead */
	give(s, 0, "t-scan");
	s->offer_glory[CC_ALLY] = 1;
	offer = s->offer[CC_ALLY];
	ok(s, 0, "play T Scan 2");
	ck_assert_int_eq(s->scan_suit, CC_ALLY);
	snprintf(text, sizeof(text), "pick %s", set->card[offer].name);
	ok(s, 0, text);
	ck_assert_int_eq(p->discard.card[p->discard.n - 1], offer);
	ck_assert_int_eq(p->res[CC_GLORY], 1);
	ck_assert_int_ge(s->offer[CC_ALLY], 0);	/* refilled */
	ck_assert_int_eq(s->scan.n, 0);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* ---- missions and FOCUS ---- */

/* Captain Ada with three missions and track multipliers of her own. */
static const char mission_captain[] =
    "  - id: cap-a\n"
    "    name: Captain Ada\n"
    "    suit: CAPTAIN\n"
    "    away_teams: 3\n"
    "    traits: [HUMAN]\n"
    "    multipliers: [{at: 2, times: 1}, {at: 4, times: 3}]\n"
    "    mission_vp: 4\n"
    "    missions:\n"
    "      - name: Hold Fast\n"
    "        name_fr: Tenir bon\n"
    "        goal: [{track: military, at_least: 4}]\n"
    "        reward: [{keyword: gain, resource: glory, amount: 2}]\n"
    "      - name: Away Mission\n"
    "        goal: [{cards: 2, trait: FOO, beamed: true},\n"
    "               {cards: 1, suit: SHIP}]\n"
    "        reward: [{keyword: draw}]\n"
    "      - name: Supply Run\n"
    "        goal: [{cards: 2, suit: CARGO, icon: military}]\n"
    "        reward: [{keyword: gain, resource: latinum, amount: 3}]\n"
    "    operations:\n"
    "      - {kind: ACTIVATION, effects: [{keyword: send_team, amount: 3}]}\n"
    "      - {kind: ACTIVATION, effects: [{keyword: remove_team}]}\n";

static const char mission_cards[] =
    "  - {id: t-off, name: T Officer, suit: PERSON, pile: deck,\n"
    "     captain: cap-a, operations: [\n"
    "     {kind: PLAY, effects: [{keyword: promote}]},\n"
    "     {kind: ACTIVATION, effects: [{keyword: specialty, track:\n"
    "     military, amount: 4}]}]}\n"
    "  - {id: t-ship, name: T Ship, suit: SHIP, pile: deck, captain: cap-a,\n"
    "     operations: [{kind: PLAY, effects: [{keyword: deploy}]},\n"
    "     {kind: ACTIVATION, effects: [{keyword: beam}]}]}\n"
    "  - {id: t-foo, name: T Foo, suit: PERSON, pile: deck, captain: cap-a,\n"
    "     traits: [FOO], copies: 2}\n"
    "  - {id: t-crate, name: T Crate, suit: CARGO, pile: deck,\n"
    "     captain: cap-a, copies: 2, focus: {military: 1}, operations:\n"
    "     [{kind: PLAY, effects: [{keyword: gain, resource: dilithium}]}]}\n"
    "  - {id: t-box, name: T Box, suit: CARGO, pile: deck, captain: cap-a,\n"
    "     traits: [ONGOING], operations: [{kind: PLAY, effects:\n"
    "     [{keyword: deploy}]}, {kind: ACTIVATION, effects: [{keyword:\n"
    "     gain, resource: latinum}]}]}\n"
    "  - {id: t-badge, name: T Badge, suit: STATUS, captain: cap-a,\n"
    "     focus: {research: 2}, operations: [{kind: ACTIVATION, effects:\n"
    "     [{keyword: gain, resource: dilithium, amount: 2}]}]}\n";

START_TEST(missions_complete)
{
	struct cc_set *set = set_with_captain(mission_captain, mission_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	int foo = cc_find_id(set, "t-foo"), hand;
	json_t *v, *m;

	/* the missions are public: the other seat sees them, undone */
	v = M->view(s, 1);
	m = json_object_get(json_array_get(json_object_get(v, "seats"), 0),
	    "missions");
	ck_assert_int_eq(json_array_size(m), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(m,
	    0), "name_fr")), "Tenir bon");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(m,
	    0), "goal_fr")), "militaire 4+");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(m,
	    1), "goal_en")), "2 FOO beamed in play, 1 SHIP in play");
	ck_assert(json_is_false(json_object_get(json_array_get(m, 0),
	    "done")));
	json_decref(v);
	/* a track goal: met by the step, completed at once */
	give(s, 0, "t-off");
	ok(s, 0, "play T Officer");
	ok(s, 0, "activate T Officer");
	ck_assert_int_eq(p->missions_done, 1);
	ck_assert_int_eq(p->res[CC_GLORY], 2);
	ck_assert_msg(strstr(s->last_en, "mission Hold Fast of Captain Ada "
	    "completed") != NULL, "%s", s->last_en);
	ck_assert_msg(strstr(s->last_fr, "Captain Ada : mission Tenir bon "
	    "accomplie") != NULL, "%s", s->last_fr);
	/* once a game: meeting it again gives nothing */
	p->zone[CC_Z_DUTY].s[0].exhausted = 0;
	ok(s, 0, "activate T Officer");
	ck_assert_int_eq(p->res[CC_GLORY], 2);
	/* beamed cards make up the goal, and are dismissed; the ship stays */
	give(s, 0, "t-ship");
	ok(s, 0, "play T Ship");
	give(s, 0, "t-foo");
	give(s, 0, "t-foo");
	ok(s, 0, "activate T Ship on T Foo");
	ck_assert_int_eq(p->missions_done, 1);
	p->zone[CC_Z_FLEET].s[0].exhausted = 0;
	hand = p->hand.n;
	ok(s, 0, "activate T Ship on T Foo");
	ck_assert_int_eq(p->missions_done, 3);
	ck_assert_int_eq(p->zone[CC_Z_FLEET].n, 1);
	ck_assert_int_eq(p->zone[CC_Z_FLEET].s[0].nbeam, 0);
	ck_assert_int_eq(p->discard.card[p->discard.n - 1], foo);
	ck_assert_int_eq(p->discard.card[p->discard.n - 2], foo);
	ck_assert_int_eq(p->hand.n, hand - 1 + 1);	/* the reward drew */
	/* cards in the staging area count, and stay; the second of two
	 * steps completes it (check on a copy and apply agree) */
	give(s, 0, "t-crate");
	give(s, 0, "t-crate");
	p->res[CC_LATINUM] = 0;
	ok(s, 0, "play T Crate");
	ck_assert_int_eq(p->missions_done, 3);
	ok(s, 0, "play T Crate");
	ck_assert_int_eq(p->missions_done, 7);
	ck_assert_int_eq(p->res[CC_LATINUM], 3);
	ck_assert_int_eq(p->staging.n, 2);
	v = M->view(s, 1);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(
	    json_object_get(v, "seats"), 0), "mission_tokens")), 3);
	json_decref(v);
	round_trip(s);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* One part of seat's final score breakdown ("focus", "missions"...). */
static int
score_part(const struct cc_state *s, int seat, const char *part)
{
	json_t *r = M->result(s);
	int n = (int)json_integer_value(json_object_get(json_object_get(
	    json_array_get(json_object_get(r, "breakdown"), (size_t)seat),
	    "score"), part));

	json_decref(r);
	return n;
}

START_TEST(focus_scoring)
{
	struct cc_set *set = set_with_captain(mission_captain, mission_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];

	/* two T Crates (FOCUS military) and T Badge (FOCUS research 2, on
	 * the table beside the captain from the start) */
	ck_assert_int_eq(p->zone[CC_Z_CAPTAIN].n, 2);
	ck_assert_int_eq(p->zone[CC_Z_CAPTAIN].s[1].card,
	    cc_find_id(set, "t-badge"));
	p->track[CC_MILITARY] = 4;	/* box "at 4": x3 */
	p->track[CC_RESEARCH] = 3;	/* box "at 2": x1 */
	ck_assert_int_eq(cc_focus_points(s, 0), 2 * 3 + 2 * 1);
	/* no mission completed: FOCUS is worth nothing */
	s->over = 1;
	ck_assert_int_eq(score_part(s, 0, "focus"), 0);
	ck_assert_int_eq(score_part(s, 0, "missions"), 0);
	p->missions_done = 4;
	ck_assert_int_eq(score_part(s, 0, "focus"), 8);
	ck_assert_int_eq(score_part(s, 0, "missions"), 1);
	/* the advanced side: 4 VP per completed mission */
	ck_assert_int_eq(score_part(s, 0, "mission_vp"), 4);
	/* below the first box a track is worth nothing */
	p->track[CC_MILITARY] = 1;
	p->track[CC_RESEARCH] = 0;
	ck_assert_int_eq(cc_focus_points(s, 0), 0);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(status_and_ongoing)
{
	struct cc_set *set = set_with_captain(mission_captain, mission_cards);
	struct cc_state *s = turn_of_a(set);
	struct cc_seat *p = &s->seat[0];
	json_t *v, *st;

	/* the STATUS card is in play beside the captain: activated like it */
	ok(s, 0, "activate T Badge");
	ck_assert_int_eq(p->res[CC_DILITHIUM], 2);
	refused(s, 0, "activate T Badge", RULES_LANG_EN, "is exhausted");
	v = M->view(s, 1);
	st = json_object_get(json_array_get(json_object_get(v, "seats"), 0),
	    "status");
	ck_assert_str_eq(json_string_value(json_object_get(st, "name_en")),
	    "T Badge");
	ck_assert(json_is_true(json_object_get(st, "exhausted")));
	ck_assert_str_eq(json_string_value(json_object_get(st, "focus_fr")),
	    "FOCUS recherche 2");
	json_decref(v);
	/* an ONGOING card deploys to the fleet, its operations at hand */
	give(s, 0, "t-box");
	ok(s, 0, "play T Box");
	ck_assert_int_eq(p->zone[CC_Z_FLEET].s[0].card,
	    cc_find_id(set, "t-box"));
	ok(s, 0, "activate T Box");
	ck_assert_int_eq(p->res[CC_LATINUM], 1);
	round_trip(s);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

START_TEST(mission_file_refusals)
{
	bad_file("  - {id: x1, name: X, suit: PERSON, missions: []}\n",
	    "card x1, field missions: only a CAPTAIN card");
	bad_file("  - {id: x2, name: X, suit: CAPTAIN, away_teams: 1,\n"
	    "     missions: [{name: M, goal: [{track: military, cards: 2}],\n"
	    "     reward: [{keyword: draw}]}]}\n",
	    "card x2, field goal: a condition is");
	bad_file("  - {id: x3, name: X, suit: CAPTAIN, away_teams: 1,\n"
	    "     missions: [{name: M, goal: [{cards: 2}],\n"
	    "     reward: [{keyword: discard}]}]}\n",
	    "card x3, field reward: discard cannot be a reward");
	bad_file("  - {id: x4, name: X, suit: CAPTAIN, away_teams: 1,\n"
	    "     missions: [{name: M, goal: [{cards: 2}]}]}\n",
	    "card x4, field reward: a list of 1 to 6 effects");
	bad_file("  - {id: x5, name: X, suit: CAPTAIN, away_teams: 1,\n"
	    "     multipliers: [{at: 5, times: 2}, {at: 3, times: 3}]}\n",
	    "card x5, field multipliers: each box needs times, and an at");
	bad_file("  - {id: x6, name: X, suit: CARGO, operations: [{kind: PLAY,"
	    " effects: [{keyword: deploy}]}]}\n",
	    "card x6, field operations: only a SHIP or an ONGOING card");
	bad_file("  - {id: x7, name: X, suit: CAPTAIN, away_teams: 1,\n"
	    "     missions: [{name: A, goal: [{cards: 1}], reward: [{keyword:"
	    " draw}]}, {name: B, goal: [{cards: 1}], reward: [{keyword: "
	    "draw}]},\n     {name: C, goal: [{cards: 1}], reward: [{keyword:"
	    " draw}]}, {name: D, goal: [{cards: 1}], reward: [{keyword: "
	    "draw}]}]}\n", "card x7, field missions: a list of at most 3");
	bad_file("  - {id: x8, name: X, suit: STATUS, captain: cap-a}\n"
	    "  - {id: x9, name: Y, suit: STATUS, captain: cap-a}\n",
	    "card x9, field captain: this captain has a STATUS card already");
	bad_file("  - {id: x10, name: X, suit: PERSON, focus: {military: 4}}\n",
	    "card x10, field military: must be from 0 to 3");
}
END_TEST

START_TEST(parse_refusals)
{
	struct cc_set *set = project_set();
	struct cc_state *s = start(set, 3);
	char err[RULES_ERRLEN];
	json_t *mv;

	ck_assert(M->parse(s, 0, "fly Ensign Talis", RULES_LANG_EN, &mv, err,
	    sizeof(err)) == RULES_SYNTAX);
	ck_assert(strstr(err, "\"fly\" is not a move word") != NULL);
	ck_assert(M->parse(s, 0, "voler Ensign Talis", RULES_LANG_FR, &mv,
	    err, sizeof(err)) == RULES_SYNTAX);
	ck_assert(strstr(err, "« voler » n'est pas un mot de coup") != NULL);
	ck_assert(M->parse(s, 0, "play Ensign Tails", RULES_LANG_EN, &mv, err,
	    sizeof(err)) == RULES_SYNTAX);
	ck_assert_msg(strstr(err, "did you mean \"ensign talis\"") != NULL,
	    "%s", err);
	ck_assert(M->parse(s, 0, "jouer Enseigne Talis ; fin", RULES_LANG_FR,
	    &mv, err, sizeof(err)) == RULES_OK);
	ck_assert_int_eq(json_array_size(json_object_get(mv, "steps")), 2);
	json_decref(mv);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* ---- save/load, no-peek, random play ---- */

static void
round_trip(const struct cc_state *s)
{
	json_t *a = M->save(s), *b;
	char err[RULES_ERRLEN];
	struct cc_state *t = M->load_cards(s->set, a, err, sizeof(err));

	ck_assert_msg(t != NULL, "load: %s", err);
	b = M->save(t);
	ck_assert(json_equal(a, b));
	json_decref(b);
	M->destroy(t);
	/* a card the set lacks, or a card too many, is refused */
	json_array_append_new(json_object_get(json_array_get(json_object_get(a,
	    "seats"), 0), "hand"), json_integer(1));
	ck_assert(M->load_cards(s->set, a, err, sizeof(err)) == NULL);
	json_decref(a);
}

static char *
answers(const struct cc_state *s, int seat)
{
	json_t *o = json_object();
	char text[256], err[RULES_ERRLEN], *dump;
	json_t *legal = M->legal_moves(s, seat);

	json_object_set_new(o, "view", M->view(s, seat));
	json_object_set_new(o, "forms", M->move_forms(s, seat, RULES_LANG_FR));
	json_object_set_new(o, "legal", legal);
	if (M->default_move(s, seat, text, sizeof(text)) == RULES_OK)
		json_object_set_new(o, "default", json_string(text));
	if (M->sample_illegal_move(s, seat, text, sizeof(text)) == RULES_OK)
		json_object_set_new(o, "sample", json_string(text));
	for (size_t i = 0; i < json_array_size(legal); i++) {
		const char *t = json_string_value(json_array_get(legal, i));
		snprintf(text, sizeof(text), "%s; end", t);
		(void)cc_check_text(s, seat, text, RULES_LANG_EN, err,
		    sizeof(err));
		json_object_set_new(o, text, json_string(err));
	}
	dump = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(o);
	return dump;
}

/* What seat sees is the same when what it cannot see is rearranged. */
static void
no_peek(const struct cc_state *s, int seat, struct rules_rng *rng)
{
	const struct nopeek_hider *h = nopeek_find("captains");
	struct nopeek_known k = { 0 };
	json_t *saved = M->save(s);
	char err[RULES_ERRLEN], *a, *b;
	struct cc_state *t;

	ck_assert(h != NULL);
	h->note(saved, &k);
	h->hide(saved, seat, &k, rng);
	t = M->load_cards(s->set, saved, err, sizeof(err));
	ck_assert_msg(t != NULL, "hidden state: %s", err);
	a = answers(s, seat);
	b = answers(t, seat);
	if (strcmp(a, b) != 0) {
		size_t i = 0;
		while (a[i] == b[i])
			i++;
		ck_abort_msg("seat %d sees hidden cards: ...%.300s\n...%.300s",
		    seat, a + (i > 100 ? i - 100 : 0), b + (i > 100 ? i - 100 : 0));
	}
	free(a);
	free(b);
	json_decref(saved);
	M->destroy(t);
}

static void
invariants(const struct cc_state *s, int total, int glory_total)
{
	int glory = s->stardate_glory;

	ck_assert_int_eq(cc_count_cards(s), total);
	for (int i = s->stardate + 1; i < s->set->nstardates; i++)
		glory += s->set->stardate[i].glory;
	for (int i = 0; i < 2; i++) {
		for (int r = 0; r < CC_NRESOURCES; r++)
			ck_assert_int_ge(s->seat[i].res[r], 0);
		ck_assert_int_ge(s->seat[i].actions, 0);
		glory += s->seat[i].res[CC_GLORY];
	}
	for (int k = 0; k < CC_MARKET_SUITS; k++)
		glory += s->offer_glory[k];
	ck_assert_int_eq(glory + s->glory_returned,
	    glory_total + s->glory_from_supply);
}

/* A random move; the turn ends one time in six when other moves
 * remain, so that turns are full and the INCIDENT deck can run out. */
static const char *
pick_move(const json_t *legal, struct rules_rng *pick)
{
	size_t n = json_array_size(legal), plays = 0;

	while (plays < n && strncmp(json_string_value(json_array_get(legal,
	    plays)), "end", 3) != 0)
		plays++;
	if (plays > 0 && rules_rng_below(pick, 6) != 0)
		return json_string_value(json_array_get(legal,
		    rules_rng_below(pick, (uint32_t)plays)));
	return json_string_value(json_array_get(legal,
	    rules_rng_below(pick, (uint32_t)n)));
}

START_TEST(random_games)
{
	struct cc_set *set = project_set();
	/* PBEM_CAPTAINS_GAMES: fewer games, for a sanitizer run by hand;
	 * PBEM_RANDOM_GAMES, when fewer than 2000, for the sampled runs of
	 * tests/run-all.sh (sanitizers, distcheck). */
	const char *env = getenv("PBEM_CAPTAINS_GAMES");
	const char *sample = getenv("PBEM_RANDOM_GAMES");
	int games = env != NULL ? atoi(env) : 2000;

	if (env == NULL && sample != NULL && atoi(sample) > 0 &&
	    atoi(sample) < games)
		games = atoi(sample);
	int ends[2] = { 0, 0 }, total = 0, glory_total = 0, missions = 0;
	int picks = 0;
	long turns = 0;

	for (int i = 0; i < set->ncards; i++)
		total += set->card[i].copies;
	for (int i = 0; i < set->nstardates; i++)
		glory_total += set->stardate[i].glory;
	for (int g = 0; g < games; g++) {
		struct cc_state *s = start(set, 1000 + (uint64_t)g);
		struct rules_rng pick;
		int moves = 0, seat;

		rulestest_rng(&pick, 5000 + (uint64_t)g, 0);
		while (M->to_act(s, &seat, 1) > 0) {
			json_t *legal = M->legal_moves(s, seat);
			size_t n = json_array_size(legal);
			const char *text;
			char err[RULES_ERRLEN];

			ck_assert_msg(n > 0, "game %d: seat %d has no move", g,
			    seat);
			text = pick_move(legal, &pick);
			picks += strncmp(text, "pick ", 5) == 0;
			ck_assert_msg(run(s, seat, text, RULES_LANG_EN, err) ==
			    RULES_OK, "game %d: %s: %s", g, text, err);
			json_decref(legal);
			invariants(s, total, glory_total);
			if (g < 40 && moves % 7 == 0) {
				round_trip(s);
				no_peek(s, 0, &pick);
				no_peek(s, 1, &pick);
				no_peek(s, RULES_VIEW_PUBLIC, &pick);
			}
			ck_assert_msg(++moves < 5000, "game %d never ends", g);
		}
		ends[s->burn]++;
		turns += s->turn;
		missions += cc_missions_done(s, 0) + cc_missions_done(s, 1);
		{
			json_t *r = M->result(s);
			ck_assert(r != NULL);
			ck_assert_int_ge(json_array_size(json_object_get(r,
			    "winners")), 1);
			json_decref(r);
		}
		M->destroy(s);
	}
	printf("captains: %d games, %d ended by the STARDATE, %d by the "
	    "BURN, %.1f turns a game, %d missions completed, %d scans "
	    "picked\n", games, ends[0], ends[1], (double)turns / games,
	    missions, picks);
	ck_assert_msg(games < 100 || missions > 0, "no mission completed");
	ck_assert_msg(games < 2000 || (ends[0] > 0 && ends[1] > 0),
	    "ends: %d by STARDATE, %d by BURN", ends[0], ends[1]);
	M->cards_free(set);
}
END_TEST

static Suite *
captains_suite(void)
{
	Suite *s = suite_create("captains");
	TCase *t = tcase_create("rules");

	tcase_set_timeout(t, 600);
	tcase_add_test(t, project_cards_read);
	tcase_add_test(t, card_file_refusals);
	tcase_add_test(t, card_file_mangled);
	tcase_add_test(t, saved_state_mangled);
	tcase_add_test(t, resources_actions_draw);
	tcase_add_test(t, hand_keywords);
	tcase_add_test(t, market_keywords);
	tcase_add_test(t, incident_and_enlist_keywords);
	tcase_add_test(t, table_keywords);
	tcase_add_test(t, control_keywords);
	tcase_add_test(t, attack_and_reaction);
	tcase_add_test(t, cleanup_resupply_and_score);
	tcase_add_test(t, burn_ends_at_once);
	tcase_add_test(t, cleanup_discard_and_to_deck);
	tcase_add_test(t, scan_of_suit);
	tcase_add_test(t, junk_gains);
	tcase_add_test(t, missions_complete);
	tcase_add_test(t, focus_scoring);
	tcase_add_test(t, status_and_ongoing);
	tcase_add_test(t, mission_file_refusals);
	tcase_add_test(t, parse_refusals);
	tcase_add_test(t, random_games);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(captains_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
