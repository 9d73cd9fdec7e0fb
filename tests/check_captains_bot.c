/*
 * check_captains_bot.c -- Captain's Chair played alone (rules/captains/
 * solo*.c, cadet.c; docs/captains.md "The Bot", "Cadet training"): the
 * `solo:` part of card files and its refusals, each rule of the Bot
 * through a small card file (its AUTOMATED COMMAND rows, choices and
 * tie-breaks, its deck and SUPPLEMENT, its clean-up, its end of game),
 * cadet training's rules and score, then whole games of every level and
 * of cadet training played to the end with invariants (cards conserved,
 * resources never negative, save/load round trips, the same seed giving
 * the same game).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <jansson.h>

#include "rules.h"
#include "rng.h"
#include "captains.h"
#include "nopeek.h"
#include "solo.h"

static const struct rules_module *M = &captains_module;

static void
stream(struct rules_rng *rng, uint64_t seed, uint64_t step)
{
	unsigned char key[RNG_SEED_BYTES] = { 0 };

	for (int i = 0; i < 8; i++)
		key[i] = (unsigned char)(seed >> (8 * i));
	rng_init(rng, key, step);
}

/* A small set: captain Bex (seat 1) is the Bot. */
static const char small_yaml[] =
    "game: captains\n"
    "stardates:\n"
    "  - {glory: 3}\n"
    "cards:\n"
    "  - {id: cap-a, name: Captain Ada, suit: CAPTAIN, away_teams: 3,\n"
    "     traits: [HUMAN]}\n"
    "  - {id: cap-b, name: Captain Bex, suit: CAPTAIN, away_teams: 2}\n"
    "  - {id: filler-a, name: Filler A, suit: PERSON, pile: deck,\n"
    "     captain: cap-a, copies: 6}\n"
    "  - {id: b-person, name: Bot Person, suit: PERSON, pile: deck,\n"
    "     captain: cap-b, copies: 3}\n"
    "  - {id: b-ship, name: Bot Ship, suit: SHIP, pile: deck,\n"
    "     captain: cap-b, traits: [FAST], copies: 2}\n"
    "  - {id: b-wild, name: Bot Wild, suit: ALLY, pile: deck,\n"
    "     captain: cap-b, traits: [WILDCARD]}\n"
    "  - {id: b-ally, name: Bot Ally, suit: ALLY, pile: deck,\n"
    "     captain: cap-b}\n"
    "  - {id: b-odd, name: Bot Odd, suit: CARGO, pile: deck,\n"
    "     captain: cap-b, traits: [ODD]}\n"
    "  - {id: b-take, name: Bot Take, suit: CARGO, pile: deck,\n"
    "     captain: cap-b, traits: [GRAB]}\n"
    "  - {id: b-junk, name: Bot Junk, suit: DIRECTIVE, pile: deck,\n"
    "     captain: cap-b}\n"
    "  - {id: b-team, name: Bot Team, suit: ENCOUNTER, pile: deck,\n"
    "     captain: cap-b, copies: 2}\n"
    "  - {id: b-base, name: Bot Base, suit: LOCATION, pile: controlled,\n"
    "     captain: cap-b}\n"
    "  - {id: b-res, name: Bot Reserve, suit: ALLY, pile: reserve,\n"
    "     captain: cap-b}\n"
    "  - {id: b-dev, name: Bot Dev, suit: PERSON, pile: development,\n"
    "     captain: cap-b}\n"
    "  - {id: m-person, name: Market Person, suit: PERSON, copies: 2,\n"
    "     traits: [FOO], vp: 2}\n"
    "  - {id: m-cargo, name: Market Cargo, suit: CARGO, copies: 6,\n"
    "     vp: 1}\n"
    "  - {id: m-ship, name: Market Ship, suit: SHIP, copies: 6, vp: 1}\n"
    "  - {id: m-ally, name: Market Ally, suit: ALLY, copies: 2, vp: 0,\n"
    "     operations: [{kind: ENDGAME, effects: [{keyword: score}]}]}\n"
    "  - {id: inc, name: Trouble, suit: INCIDENT, copies: 4, vp: -1}\n"
    "  - {id: enc, name: Wonder, suit: ENCOUNTER, copies: 2}\n"
    "  - {id: l1, name: Loc One, suit: LOCATION, pile: location-start,\n"
    "     vp: 1}\n"
    "  - {id: l2, name: Loc Two, suit: LOCATION, pile: location-start,\n"
    "     vp: 3}\n"
    "  - {id: l3, name: Loc Three, suit: LOCATION, pile: location-start,\n"
    "     vp: 2, traits: [COLONY]}\n"
    "  - {id: l4, name: Loc Four, suit: LOCATION, pile: location-start}\n"
    "  - {id: l5, name: Loc Five, suit: LOCATION}\n"
    "solo:\n"
    "  cadet:\n"
    "    - {glory: 5, wipe_market: true, wipe_neutral: true}\n"
    "    - {glory: 5}\n"
    "  levels:\n"
    "    ensign: [{glory: 3, bot_actions: 1}, {glory: 3, bot_actions: 1}]\n"
    "    lieutenant: [{glory: 3, bot_actions: 2}, {glory: 3, bot_actions: 2}]\n"
    "    commander: [{glory: 3, bot_actions: 2}, {glory: 3, bot_actions: 3}]\n"
    "    captain: [{glory: 3, bot_actions: 3}, {glory: 3, bot_actions: 3}]\n"
    "    admiral: [{glory: 3, bot_actions: 4}, {glory: 3, bot_actions: 4}]\n"
    "  automated_command:\n"
    "    - captain: cap-b\n"
    "      traits:\n"
    "        - {trait: FAST, do: [glory 1, deploy, explore]}\n"
    "        - {trait: ODD, do: [\"gain FOO > SHIP / CARGO\"]}\n"
    "        - {trait: GRAB, do: [\"take ALLY\"]}\n"
    "      suits:\n"
    "        - {suit: PERSON, do: [promote, specialty lowest 2]}\n"
    "        - {suit: ALLY, do: [glory 2]}\n"
    "        - {suit: ENCOUNTER, do: [send_team]}\n"
    "        - {suit: LOCATION, do: [specialty highest 1]}\n"
    "        - {suit: DIRECTIVE, do: [junk]}\n"
    "        - {suit: INCIDENT, do: [log]}\n"
    "        - {suit: CARGO, do: [resolve_deck]}\n"
    "      suits_with_officer:\n"
    "        - {suit: PERSON, do: [glory 3]}\n"
    "        - {suit: ALLY, do: [dismiss_officer]}\n"
    "        - {suit: ENCOUNTER, do: [engage]}\n";

static struct cc_set *
small_set(void)
{
	char err[RULES_ERRLEN];
	struct cc_set *set = M->cards_parse(small_yaml, strlen(small_yaml),
	    "small.yaml", err, sizeof(err));

	ck_assert_msg(set != NULL, "%s", err);
	return set;
}

static struct cc_set *
project_set(void)
{
	FILE *f = fopen(CAPTAINS_CARDS, "rb");
	char *bytes, err[RULES_ERRLEN];
	struct cc_set *set;
	long n;

	ck_assert(f != NULL);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	bytes = malloc((size_t)n);
	ck_assert(fread(bytes, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	set = M->cards_parse(bytes, (size_t)n, "cards.yaml", err, sizeof(err));
	ck_assert_msg(set != NULL, "%s", err);
	free(bytes);
	return set;
}

/* A game made as the core makes it: options JSON text, nseats. */
static struct cc_state *
made(const struct cc_set *set, int nseats, const char *options,
    uint64_t seed, char *err)
{
	json_t *o = json_loads(options, 0, NULL);
	struct rules_rng rng;
	struct cc_state *s;

	ck_assert(o != NULL);
	stream(&rng, seed, 0);
	s = M->setup_cards(set, nseats, o, &rng, err, RULES_ERRLEN);
	json_decref(o);
	return s;
}

static struct cc_state *
against_bot(const struct cc_set *set, const char *level, uint64_t seed)
{
	char opts[128], err[RULES_ERRLEN];
	struct cc_state *s;

	snprintf(opts, sizeof(opts), "{\"bot_seats\": {\"1\": \"%s\"}}",
	    level);
	s = made(set, 2, opts, seed, err);
	ck_assert_msg(s != NULL, "%s", err);
	return s;
}

/* Play text for seat; its status, err filled on a refusal. */
static enum rules_status
play(struct cc_state *s, int seat, const char *text, char *err)
{
	struct rules_rng rng;
	enum rules_status rc;
	json_t *move;
	int total = cc_count_cards(s);

	if ((rc = M->parse(s, seat, text, RULES_LANG_EN, &move, err,
	    RULES_ERRLEN)) != RULES_OK)
		return rc;
	rc = M->check(s, seat, move, RULES_LANG_EN, err, RULES_ERRLEN);
	if (rc == RULES_OK) {
		stream(&rng, 77, (uint64_t)s->turn);
		M->apply(s, seat, move, &rng);
		ck_assert_int_eq(cc_count_cards(s), total);
	}
	json_decref(move);
	return rc;
}

static void
must(struct cc_state *s, int seat, const char *text)
{
	char err[RULES_ERRLEN];

	ck_assert_msg(play(s, seat, text, err) == RULES_OK, "%s: %s", text,
	    err);
}

/* Move one copy of id from wherever it lies onto pile (its top). */
static void
put(struct cc_state *s, const char *id, struct cc_pile *to)
{
	int card = cc_find_id(s->set, id);
	struct cc_pile *from[] = { &s->seat[1].deck, &s->seat[1].discard,
		&s->seat[1].reserve, &s->seat[0].deck, &s->seat[0].hand,
		&s->market[0], &s->market[1], &s->market[2], &s->market[3],
		&s->incident, &s->encounter, &s->box, &s->locations };

	ck_assert_msg(card >= 0, "no card %s", id);
	for (size_t i = 0; i < sizeof(from) / sizeof(from[0]); i++) {
		int at = pile_find(from[i], card);
		if (at >= 0) {
			pile_remove_at(from[i], at);
			pile_push(to, card);
			return;
		}
	}
	ck_abort_msg("%s is nowhere", id);
}

/* The Bot's deck made of exactly ids, the first drawn first; the rest
 * of its deck to its discard. */
static void
bot_deck(struct cc_state *s, const char *const *ids, int n)
{
	struct cc_seat *b = &s->seat[1];
	struct cc_pile chosen = { 0 };

	while (b->deck.n > 0)
		pile_push(&b->discard, pile_pop(&b->deck));
	for (int i = n - 1; i >= 0; i--)
		put(s, ids[i], &chosen);
	for (int i = 0; i < chosen.n; i++)
		pile_push(&b->deck, chosen.card[i]);
}

/* The person ends the turn; the Bot is to play. */
static void
to_bot(struct cc_state *s)
{
	must(s, 0, "end");
	ck_assert_int_eq(s->active, 1);
}

static int
offer_of(const struct cc_state *s, const char *id)
{
	for (int k = 0; k < CC_MARKET_SUITS; k++)
		if (s->offer[k] == cc_find_id(s->set, id))
			return k;
	return -1;
}

/* ---- the card file and the set-up ---- */

static void
refused_file(const char *solo, const char *part)
{
	char *yaml = malloc(strlen(small_yaml) + strlen(solo) + 1), *cut;
	char err[RULES_ERRLEN];
	void *set;

	strcpy(yaml, small_yaml);
	cut = strstr(yaml, "solo:\n");
	strcpy(cut, solo);
	set = M->cards_parse(yaml, strlen(yaml), "solo.yaml", err,
	    sizeof(err));
	ck_assert_msg(set == NULL, "accepted: %s", solo);
	ck_assert_msg(strstr(err, part) != NULL, "\"%s\" lacks \"%s\"", err,
	    part);
	free(yaml);
}

START_TEST(solo_file)
{
	struct cc_set *set = project_set();

	ck_assert_int_eq(set->solo.ncadet, 2);
	for (int l = 0; l < CC_LEVELS; l++)
		ck_assert_int_gt(set->solo.nlevel[l], 0);
	for (int c = 0; c < set->ncaptains; c++)
		ck_assert_ptr_nonnull(cc_automated_of(set, set->captain[c]));
	M->cards_free(set);
	refused_file("solo:\n  levels: {ensign: [{glory: 3}]}\n",
	    "field bot_actions");
	refused_file("solo:\n  levels: {ensign: [{glory: 3, bot_actions: 1}]}"
	    "\n", "field lieutenant: missing");
	refused_file("solo:\n  automated_command:\n    - captain: cap-b\n"
	    "      traits: [{trait: FAST, do: [teleport]}]\n",
	    "unknown Bot effect");
	refused_file("solo:\n  automated_command:\n    - captain: cap-b\n"
	    "      traits: [{trait: FAST, do: [\"gain PURPLE\"]}]\n",
	    "a card expression names suits");
	refused_file("solo:\n  automated_command:\n    - captain: filler-a\n",
	    "field captain: the id of a CAPTAIN");
	refused_file("solo:\n  cadet: []\n", "field cadet");
}
END_TEST

START_TEST(bot_setup)
{
	struct cc_set *set = small_set();
	char err[RULES_ERRLEN];
	struct cc_state *s = against_bot(set, "amiral", 3);
	const struct cc_seat *b = &s->seat[1];

	ck_assert_int_eq(s->mode, CC_MODE_BOT);
	ck_assert_int_eq(s->level, 4);
	ck_assert_int_eq(s->active, 0);		/* the person starts */
	ck_assert_int_eq(b->hand.n, 0);
	ck_assert_int_eq(b->zone[CC_Z_LOCATIONS].n, 0);
	/* its controlled location lies on top of the BOT deck */
	ck_assert_int_eq(b->deck.card[b->deck.n - 1],
	    cc_find_id(set, "b-base"));
	/* the SUPPLEMENT: its reserve on its developments */
	ck_assert_int_eq(b->reserve.n, 2);
	ck_assert_int_eq(b->reserve.card[1], cc_find_id(set, "b-res"));
	ck_assert_int_eq(b->reserve.card[0], cc_find_id(set, "b-dev"));
	ck_assert_int_eq(b->res[CC_GLORY] + b->res[CC_LATINUM] +
	    b->res[CC_DILITHIUM], 0);
	M->destroy(s);
	ck_assert(made(set, 2, "{\"bot_seats\": {\"1\": \"genius\"}}", 1,
	    err) == NULL);
	ck_assert_ptr_nonnull(strstr(err, "no level \"genius\""));
	ck_assert(made(set, 2, "{\"mode\": \"cadet\"}", 1, err) == NULL);
	ck_assert_ptr_nonnull(strstr(err, "one seat"));
	ck_assert(made(set, 2, "{\"speed\": 1}", 1, err) == NULL);
	ck_assert_ptr_nonnull(strstr(err, "unknown option \"speed\""));
	/* normal is the Commander; every seat a bot: the two-player game */
	s = against_bot(set, "normal", 3);
	ck_assert_int_eq(s->level, 2);
	M->destroy(s);
	s = made(set, 2, "{\"bot_seats\": {\"0\": \"normal\", \"1\": "
	    "\"normal\"}}", 3, err);
	ck_assert_int_eq(s->mode, CC_MODE_TWO);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* ---- the Bot's turn ---- */

START_TEST(bot_moves_and_refusals)
{
	struct cc_set *set = small_set();
	struct cc_state *s = against_bot(set, "ensign", 5);
	char err[RULES_ERRLEN], text[64];
	json_t *legal;

	ck_assert_int_ne(play(s, 0, "bot", err), RULES_OK);
	ck_assert_ptr_nonnull(strstr(err, "the Bot's seat only"));
	to_bot(s);
	legal = M->legal_moves(s, 1);
	ck_assert_int_eq(json_array_size(legal), 1);
	ck_assert_str_eq(json_string_value(json_array_get(legal, 0)), "bot");
	json_decref(legal);
	ck_assert_int_ne(play(s, 1, "end", err), RULES_OK);
	ck_assert_ptr_nonnull(strstr(err, "plays \"bot\" only"));
	ck_assert_int_eq(M->default_move(s, 1, text, sizeof(text)),
	    RULES_OK);
	ck_assert_str_eq(text, "bot");
	ck_assert_int_eq(M->bot_move(s, 1, RULES_BOT_NORMAL, NULL, text,
	    sizeof(text)), RULES_OK);
	ck_assert_str_eq(text, "bot");
	ck_assert_int_ne(M->bot_move(s, 0, RULES_BOT_NORMAL, NULL, text,
	    sizeof(text)), RULES_OK);
	must(s, 1, "robot");		/* French */
	ck_assert_int_eq(s->active, 0);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* Lines 716-724: TRAITS top to bottom, a WILDCARD takes the first row,
 * then the SUITS side that is up; lines 742-743: promoting flips it. */
START_TEST(bot_automated_command_rows)
{
	struct cc_set *set = small_set();
	struct cc_state *s = against_bot(set, "lieutenant", 5);
	const char *deck[] = { "b-wild", "b-person", "b-person", "b-ally" };
	struct cc_seat *b = &s->seat[1];

	bot_deck(s, deck, 4);
	to_bot(s);
	must(s, 1, "bot");	/* 2 actions: the wildcard, a person */
	ck_assert_int_eq(b->res[CC_GLORY], 1);	/* row 1: glory 1 */
	ck_assert_int_eq(b->zone[CC_Z_DUTY].n, 1);	/* promoted */
	/* the lowest track, research on a tie */
	ck_assert_int_eq(b->track[CC_RESEARCH], 2);
	ck_assert_ptr_nonnull(strstr(s->last_en, "resolved Bot Wild, Bot "
	    "Person"));
	ck_assert_ptr_nonnull(strstr(s->last_fr, "a résolu"));
	to_bot(s);
	must(s, 1, "bot");
	/* with an officer: a person is glory 3, an
				 * ally dismisses the officer */
	ck_assert_int_eq(b->res[CC_GLORY], 4);
	ck_assert_int_eq(b->zone[CC_Z_DUTY].n, 0);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* Lines 748-762: A > B / C, the most valuable, ties to the most tokens
 * then the leftmost; GAIN to the discard, TAKE onto the deck; the glory
 * on the card comes with it; never a market deck. */
START_TEST(bot_gains_and_takes)
{
	struct cc_set *set = small_set();
	struct cc_state *s = against_bot(set, "ensign", 5);
	const char *deck[] = { "b-odd" };
	struct cc_seat *b = &s->seat[1];
	int person = cc_find_id(set, "m-person"), k;

	/* FOO is on the person: the first group wins over SHIP / CARGO */
	bot_deck(s, deck, 1);
	to_bot(s);
	s->offer_glory[offer_of(s, "m-person")] = 2;
	must(s, 1, "bot");
	ck_assert_int_eq(b->discard.card[b->discard.n - 2], person);
	ck_assert_int_eq(b->res[CC_GLORY], 2);
	/* no FOO offered (the market deck is never looked at): SHIP /
	 * CARGO, the cargo worth more with your clean-up glory on it */
	while ((k = offer_of(s, "m-person")) >= 0) {
		pile_push(&s->box, s->offer[k]);
		s->offer[k] = -1;
	}
	put(s, "b-odd", &b->deck);
	to_bot(s);
	ck_assert_int_gt(s->offer_glory[offer_of(s, "m-cargo")], 0);
	must(s, 1, "bot");
	ck_assert_int_eq(b->discard.card[b->discard.n - 2],
	    cc_find_id(set, "m-cargo"));
	/* TAKE: onto the BOT deck */
	put(s, "b-take", &b->deck);
	to_bot(s);
	must(s, 1, "bot");
	ck_assert_int_eq(b->deck.card[b->deck.n - 1],
	    cc_find_id(set, "m-ally"));
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* Line 766 (junk the most valuable for you without tokens) and 4.3 (a
 * glory on the least valuable for you: fewest resources, leftmost). */
START_TEST(bot_junk_and_cleanup_glory)
{
	struct cc_set *set = small_set();
	struct cc_state *s = against_bot(set, "ensign", 5);
	const char *deck[] = { "b-junk" };
	int person = offer_of(s, "m-person"), ally = offer_of(s, "m-ally");

	/* values: person 2, cargo 1, ship 1, ally 0 + 5 (ENDGAME) = 5 */
	ck_assert_int_eq(cc_value(s, 1 - s->bot_seat, s->offer[ally], 0), 5);
	bot_deck(s, deck, 1);
	to_bot(s);
	ck_assert_int_eq(cc_bot_junk_offer(s), ally);
	s->offer_glory[ally] = 1;	/* tokens on it: not junked; the
					 * person has your glory: the cargo */
	ck_assert_int_gt(s->offer_glory[person], 0);
	ck_assert_int_eq(cc_bot_junk_offer(s), offer_of(s, "m-cargo"));
	s->offer_glory[ally] = 0;
	must(s, 1, "bot");
	ck_assert_int_eq(s->junk.card[s->junk.n - 1],
	    cc_find_id(set, "m-ally"));
	/* the cargo and the ship are worth 1, the new ally 5 -- the cargo,
	 * leftmost, took the clean-up glory */
	ck_assert_int_eq(s->offer_glory[offer_of(s, "m-cargo")], 1);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* Lines 690, 704, 710: the Bot ignores missions but values a card's
 * FOCUS icons at the multipliers of the seat it values the card for --
 * the person's own tracks when it judges what to junk. */
START_TEST(bot_values_focus)
{
	struct cc_set *set = small_set();
	struct cc_state *s = against_bot(set, "ensign", 5);
	int person_seat = 1 - s->bot_seat;
	int cargo = offer_of(s, "m-cargo"), ally = offer_of(s, "m-ally");
	int cargo_card = s->offer[cargo];
	struct cc_card *person_captain = &set->card[
	    s->seat[person_seat].zone[CC_Z_CAPTAIN].s[0].card];
	struct cc_card *bot_captain = &set->card[
	    s->seat[s->bot_seat].zone[CC_Z_CAPTAIN].s[0].card];

	/* two MILITARY icons on the cargo: worth 3 each at the person's
	 * level 4, nothing at the Bot's level 0 */
	set->card[cargo_card].focus[CC_MILITARY] = 2;
	memset(person_captain->multiplier, 0,
	    sizeof(person_captain->multiplier));
	memset(bot_captain->multiplier, 0, sizeof(bot_captain->multiplier));
	person_captain->multiplier[4] = 3;
	s->seat[person_seat].track[CC_MILITARY] = 4;
	s->seat[s->bot_seat].track[CC_MILITARY] = 0;
	ck_assert_int_eq(cc_value(s, person_seat, cargo_card, 0), 1 + 2 * 3);
	ck_assert_int_eq(cc_value(s, s->bot_seat, cargo_card, 0), 1);
	/* the cargo (7 for the person) now beats the ENDGAME ally (5) */
	ck_assert_int_eq(cc_value(s, person_seat, s->offer[ally], 0), 5);
	ck_assert_int_eq(cc_bot_junk_offer(s), cargo);
	/* at the Bot's multipliers the icons count for the Bot too */
	bot_captain->multiplier[2] = 5;
	s->seat[s->bot_seat].track[CC_MILITARY] = 2;
	ck_assert_int_eq(cc_value(s, s->bot_seat, cargo_card, 0), 1 + 2 * 5);
	/* no icons, no FOCUS value: the ally is junked again */
	set->card[cargo_card].focus[CC_MILITARY] = 0;
	ck_assert_int_eq(cc_bot_junk_offer(s), ally);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* The Neutral Zone made of a, b, c (the other locations to the deck). */
static void
neutral_is(struct cc_state *s, const char *a, const char *b, const char *c)
{
	const char *ids[CC_NEUTRAL] = { a, b, c };

	for (int k = 0; k < CC_NEUTRAL; k++) {
		if (s->neutral[k] >= 0)
			pile_push(&s->locations, s->neutral[k]);
		s->neutral[k] = -1;
	}
	for (int k = 0; k < CC_NEUTRAL; k++) {
		put(s, ids[k], &s->box);
		s->neutral[k] = pile_pop(&s->box);
	}
}

static int
trait_named(const struct cc_set *set, const char *name)
{
	for (int i = 0; i < set->ntraits; i++)
		if (strcmp(set->trait_name[i], name) == 0)
			return i;
	ck_abort_msg("no trait %s", name);
	return -1;
}

/* Lines 770-776 (away teams), 784-787 (ships), 2.1 (control). */
START_TEST(bot_neutral_zone)
{
	struct cc_set *set = small_set();
	struct cc_state *s = against_bot(set, "ensign", 5);
	struct cc_seat *b = &s->seat[1], *h = &s->seat[0];
	int total = cc_count_cards(s), from;

	neutral_is(s, "l1", "l2", "l3");	/* worth 1, 3, 2 */
	ck_assert_int_eq(cc_count_cards(s), total);
	/* no token anywhere: the most valuable; with a trait: one with it */
	ck_assert_int_eq(cc_bot_team_slot(s, -1, &from), 1);
	ck_assert_int_eq(from, -1);
	ck_assert_int_eq(cc_bot_team_slot(s, trait_named(set, "COLONY"),
	    &from), 2);
	/* where it has the most tokens */
	b->teams_at[0] = 1;
	ck_assert_int_eq(cc_bot_team_slot(s, -1, &from), 0);
	/* not where you have more ships than it */
	b->zone[CC_Z_FLEET].n = 0;
	h->zone[CC_Z_FLEET].n = 1;
	h->zone[CC_Z_FLEET].s[0] = (struct cc_slot){ .card = cc_find_id(set,
	    "m-ship"), .at = 0 };
	ck_assert_int_eq(cc_bot_team_slot(s, -1, &from), 1);
	h->zone[CC_Z_FLEET].n = 0;
	/* none left on its captain (2 teams): taken from the slot where it
	 * has the fewest tokens, the least valuable on a tie (Loc One), to
	 * where it has the most */
	b->teams_at[2] = 1;
	ck_assert_int_eq(cc_bot_team_slot(s, -1, &from), 2);
	ck_assert_int_eq(from, 0);
	b->teams_at[0] = b->teams_at[2] = 0;
	/* explore: the fewest tokens, the most valuable on a tie; engage:
	 * the most of yours */
	h->teams_at[1] = 2;
	ck_assert_int_eq(cc_bot_ship_slot(s, 1), 2);
	ck_assert_int_eq(cc_bot_ship_slot(s, 0), 1);
	/* control: a location it secured; no away team goes there */
	h->teams_at[1] = 0;
	b->teams_at[0] = 3;
	ck_assert_int_eq(cc_bot_control_slot(s), 0);
	ck_assert_int_eq(cc_bot_team_slot(s, -1, &from), 1);
	ck_assert_int_eq(from, 0);
	b->teams_at[0] = 2;
	h->teams_at[0] = 1;
	ck_assert_int_eq(cc_bot_control_slot(s), -1);	/* 2 more needed */
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* Line 677: an empty BOT deck takes its shuffled discard and the top of
 * the SUPPLEMENT on top; line 731: a LOCATION joins its table. */
START_TEST(bot_deck_cycle_and_locations)
{
	struct cc_set *set = small_set();
	struct cc_state *s = against_bot(set, "ensign", 5);
	struct cc_seat *b = &s->seat[1];

	/* its first card is Bot Base (a controlled location, on top) */
	to_bot(s);
	must(s, 1, "bot");
	ck_assert_int_eq(b->zone[CC_Z_LOCATIONS].n, 1);
	ck_assert_int_eq(b->track[CC_RESEARCH], 1);	/* highest: research
							 * on a tie */
	while (b->deck.n > 0)
		pile_push(&b->discard, pile_pop(&b->deck));
	to_bot(s);
	must(s, 1, "bot");
	/* the top of the SUPPLEMENT (Bot Reserve) was drawn first */
	ck_assert_int_eq(b->reserve.n, 1);
	ck_assert_int_eq(pile_find(&b->discard, cc_find_id(set, "b-res")) >= 0
	    || pile_find(&b->deck, cc_find_id(set, "b-res")) >= 0, 1);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* Lines 683-695: the BURN is the Bot's win; a tie is the Bot's. */
START_TEST(bot_end_of_game)
{
	struct cc_set *set = small_set();
	struct cc_state *s = against_bot(set, "ensign", 5);
	json_t *r;

	s->over = 1;
	s->burn = 1;
	r = M->result(s);
	ck_assert_int_eq(json_array_size(json_object_get(r, "winners")), 1);
	ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(r,
	    "winners"), 0)), 1);
	json_decref(r);
	s->burn = 0;
	s->seat[0].res[CC_GLORY] = 0;
	r = M->result(s);
	{
		int a = (int)json_integer_value(json_array_get(
		    json_object_get(r, "scores"), 0));
		int b = (int)json_integer_value(json_array_get(
		    json_object_get(r, "scores"), 1));
		json_t *w = json_object_get(r, "winners");
		ck_assert_int_eq(json_array_size(w), 1);
		ck_assert_int_eq(json_integer_value(json_array_get(w, 0)),
		    a > b ? 0 : 1);
	}
	json_decref(r);
	/* 5 VP an ENDGAME it owns anywhere; 1 VP for 2 dilithium/latinum */
	{
		json_t *bd = json_object();
		int before = cc_bot_score(s, 1, bd);
		json_decref(bd);
		put(s, "m-ally", &s->seat[1].deck);
		s->seat[1].res[CC_LATINUM] = 3;
		bd = json_object();
		ck_assert_int_eq(cc_bot_score(s, 1, bd), before + 5 + 1);
		json_decref(bd);
	}
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* ---- cadet training ---- */

START_TEST(cadet_rules)
{
	struct cc_set *set = small_set();
	char err[RULES_ERRLEN];
	struct cc_state *s = made(set, 1, "{}", 9, err);
	json_t *v, *r;
	int wiped, glory, turn = 0;

	ck_assert_msg(s != NULL, "%s", err);
	ck_assert_int_eq(s->mode, CC_MODE_CADET);
	ck_assert_int_eq(s->stardate_glory, 5);
	/* wipe names the offer clean-up wipes; glory from the STARDATE */
	wiped = s->offer[1];
	glory = s->glory_from_supply;
	ck_assert_int_ne(play(s, 0, "wipe Nothing", err), RULES_OK);
	must(s, 0, "wipe Market Cargo");
	ck_assert_int_ne(play(s, 0, "end Market Cargo", err), RULES_OK);
	ck_assert_ptr_nonnull(strstr(err, "is wiped at this clean-up"));
	must(s, 0, "end Market Ship");
	ck_assert_int_eq(s->junk.card[s->junk.n - 1], wiped);
	ck_assert_int_eq(s->stardate_glory, 4);
	ck_assert_int_eq(s->active, 0);
	ck_assert_int_eq(s->glory_from_supply, glory);
	/* a glory gained comes from the supply */
	cc_gain_glory(s, 0, 2);
	ck_assert_int_eq(s->stardate_glory, 4);
	ck_assert_int_eq(s->glory_from_supply, glory + 2);
	/* turns 2-5 empty the first STARDATE; turn 6 wipes the market;
	 * turn 10 empties the second; turn 11 is the last */
	for (turn = 2; !s->over; turn++) {
		int before = s->junk.n;
		must(s, 0, "end");
		if (turn == 6)
			ck_assert_int_ge(s->junk.n - before, 3);
		ck_assert_int_le(turn, 11);
	}
	ck_assert_int_eq(turn - 1, 11);
	v = M->view(s, 0);
	ck_assert_int_eq(json_array_size(json_object_get(v, "seats")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(v,
	    "solo"), "mode")), "cadet");
	json_decref(v);
	r = M->result(s);
	ck_assert_int_eq(json_array_size(json_object_get(r, "scores")), 1);
	ck_assert_int_eq(json_array_size(json_object_get(r, "winners")), 1);
	ck_assert_ptr_nonnull(json_object_get(r, "cadet"));
	json_decref(r);
	M->destroy(s);
	ck_assert_str_eq(cc_cadet_rank(69, RULES_LANG_EN), "");
	ck_assert_ptr_nonnull(strstr(cc_cadet_rank(70, RULES_LANG_FR),
	    "savez jouer"));
	ck_assert_ptr_nonnull(strstr(cc_cadet_rank(100, RULES_LANG_EN),
	    "master"));
	ck_assert_ptr_nonnull(strstr(cc_cadet_rank(120, RULES_LANG_EN),
	    "phenomenal"));
	/* a BURN loses */
	s = made(set, 1, "{\"mode\": \"cadet\"}", 9, err);
	s->over = s->burn = 1;
	r = M->result(s);
	ck_assert_int_eq(json_array_size(json_object_get(r, "winners")), 0);
	json_decref(r);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* Lines 327-333: the virtual opponent has 1 of everything. */
START_TEST(cadet_attacks)
{
	struct cc_set *set = small_set();
	char err[RULES_ERRLEN];
	struct cc_state *s = made(set, 1, "{}", 9, err);
	struct cc_ctx c = { s, NULL, RULES_LANG_EN, err, RULES_ERRLEN, 0 };
	struct cc_op op = { 0 };
	int glory = s->seat[0].res[CC_GLORY], inc = s->incident.n;

	op.attack = 1;
	op.neffects = 2;
	op.effect[0] = (struct cc_effect){ .keyword = KW_STEAL,
		.resource = CC_LATINUM, .amount = 3 };
	op.effect[1] = (struct cc_effect){ .keyword = KW_TAKE,
		.suits = 1 << CC_INCIDENT, .amount = 1 };
	cc_solo_attack(&c, &op);
	ck_assert_int_eq(s->seat[0].res[CC_LATINUM], 1);
	ck_assert_int_eq(s->seat[0].res[CC_GLORY], glory + 1);
	ck_assert_int_eq(s->incident.n, inc);
	M->destroy(s);
	M->cards_free(set);
}
END_TEST

/* ---- whole games ---- */

static void
round_trip(const struct cc_state *s)
{
	json_t *a = M->save(s), *b;
	char err[RULES_ERRLEN];
	struct cc_state *t = M->load_cards(s->set, a, err, sizeof(err));

	ck_assert_msg(t != NULL, "load: %s", err);
	b = M->save(t);
	ck_assert(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	M->destroy(t);
}

/* What the person (or anyone, public) reads of a position: the view,
 * the moves and their forms; NULL-free text to compare. */
static char *
what_seat_reads(const struct cc_state *s, int seat)
{
	json_t *all = json_pack("{s:o,s:o,s:o}", "view", M->view(s, seat),
	    "legal", M->legal_moves(s, seat), "forms", M->move_forms(s, seat,
	    RULES_LANG_EN));
	char *text = json_dumps(all, JSON_SORT_KEYS | JSON_COMPACT);

	json_decref(all);
	return text;
}

/* The Bot's deck, its SUPPLEMENT and every other hidden pile moved
 * about by the game's hider change nothing the person or the public
 * reads. */
static void
no_peek(const struct cc_state *s, int seat, struct rules_rng *rng)
{
	const struct nopeek_hider *h = nopeek_find("captains");
	struct nopeek_known known = { 0 };
	json_t *saved = M->save(s);
	char err[RULES_ERRLEN], *before, *after;
	struct cc_state *moved;

	h->note(saved, &known);
	h->hide(saved, seat, &known, rng);
	moved = M->load_cards(s->set, saved, err, sizeof(err));
	ck_assert_msg(moved != NULL, "%s", err);
	before = what_seat_reads(s, seat);
	after = what_seat_reads(moved, seat);
	ck_assert_msg(strcmp(before, after) == 0, "seat %d reads hidden "
	    "cards", seat);
	free(before);
	free(after);
	json_decref(saved);
	M->destroy(moved);
}

/* One whole game; its final position saved (for the determinism
 * check).  Picks from legal moves, ending a turn one time in five. */
static json_t *
whole_game(const struct cc_set *set, int nseats, const char *options,
    uint64_t seed, int total, int check_trips)
{
	char err[RULES_ERRLEN];
	struct cc_state *s = made(set, nseats, options, seed, err);
	struct rules_rng pick;
	json_t *end, *r;
	int seat, moves = 0;

	ck_assert_msg(s != NULL, "%s", err);
	stream(&pick, seed + 1000000, 0);
	while (M->to_act(s, &seat, 1) > 0) {
		json_t *legal = M->legal_moves(s, seat);
		size_t n = json_array_size(legal), plays = 0;
		const char *text;

		ck_assert_msg(n > 0, "seed %llu: seat %d has no move",
		    (unsigned long long)seed, seat);
		while (plays < n && strncmp(json_string_value(
		    json_array_get(legal, plays)), "end", 3) != 0)
			plays++;
		text = json_string_value(json_array_get(legal, plays > 0 &&
		    rules_rng_below(&pick, 5) != 0 ? rules_rng_below(&pick,
		    (uint32_t)plays) : rules_rng_below(&pick, (uint32_t)n)));
		ck_assert_msg(play(s, seat, text, err) == RULES_OK,
		    "seed %llu: %s: %s", (unsigned long long)seed, text, err);
		json_decref(legal);
		ck_assert_int_eq(cc_count_cards(s), total);
		for (int i = 0; i < 2; i++)
			for (int k = 0; k < CC_NRESOURCES; k++)
				ck_assert_int_ge(s->seat[i].res[k], 0);
		if (check_trips && moves % 5 == 0) {
			struct rules_rng hide;	/* not pick's: a replay
						 * without checks picks the
						 * same moves */
			stream(&hide, seed, (uint64_t)moves);
			round_trip(s);
			no_peek(s, 0, &hide);
			no_peek(s, RULES_VIEW_PUBLIC, &hide);
		}
		ck_assert_msg(++moves < 6000, "seed %llu never ends",
		    (unsigned long long)seed);
	}
	r = M->result(s);
	ck_assert(r != NULL);
	end = M->save(s);
	/* who won, for the figures (not part of the position) */
	json_object_set_new(end, "bot_won", json_integer(s->mode ==
	    CC_MODE_BOT && json_array_size(json_object_get(r, "winners")) ==
	    1 && json_integer_value(json_array_get(json_object_get(r,
	    "winners"), 0)) == s->bot_seat));
	json_decref(r);
	M->destroy(s);
	return end;
}

START_TEST(whole_games)
{
	static const char *const levels[CC_LEVELS] = { "ensign", "lieutenant",
		"commander", "captain", "admiral" };
	struct cc_set *set = project_set();
	const char *env = getenv("PBEM_RANDOM_GAMES");
	int games = env != NULL && atoi(env) > 0 ? atoi(env) : 400;
	int total = 0;

	for (int i = 0; i < set->ncards; i++)
		total += set->card[i].copies;
	for (int l = 0; l <= CC_LEVELS; l++) {
		char opts[96];
		int wins = 0, burns = 0;
		if (l < CC_LEVELS)
			snprintf(opts, sizeof(opts),
			    "{\"bot_seats\": {\"1\": \"%s\"}}", levels[l]);
		else
			snprintf(opts, sizeof(opts), "{\"mode\": \"cadet\"}");
		for (int g = 0; g < games; g++) {
			json_t *a = whole_game(set, l < CC_LEVELS ? 2 : 1, opts,
			    (uint64_t)(g + 1), total, g < 20);
			json_t *last = json_object_get(a, "state");
			burns += json_is_true(json_object_get(last, "burn"));
			wins += json_integer_value(json_object_get(a,
			    "bot_won")) > 0;
			if (g < 10) {	/* the same seed, the same game */
				json_t *b = whole_game(set, l < CC_LEVELS ? 2 :
				    1, opts, (uint64_t)(g + 1), total, 0);
				ck_assert(json_equal(a, b));
				json_decref(b);
			}
			json_decref(a);
		}
		printf("captains %s: %d games, %d ended by the BURN, the Bot "
		    "won %d (against random moves)\n", l < CC_LEVELS ?
		    levels[l] : "cadet", games, burns, wins);
	}
	M->cards_free(set);
}
END_TEST

static Suite *
bot_suite(void)
{
	Suite *s = suite_create("captains_bot");
	TCase *t = tcase_create("solo");

	tcase_set_timeout(t, 900);
	tcase_add_test(t, solo_file);
	tcase_add_test(t, bot_setup);
	tcase_add_test(t, bot_moves_and_refusals);
	tcase_add_test(t, bot_automated_command_rows);
	tcase_add_test(t, bot_gains_and_takes);
	tcase_add_test(t, bot_junk_and_cleanup_glory);
	tcase_add_test(t, bot_values_focus);
	tcase_add_test(t, bot_neutral_zone);
	tcase_add_test(t, bot_deck_cycle_and_locations);
	tcase_add_test(t, bot_end_of_game);
	tcase_add_test(t, cadet_rules);
	tcase_add_test(t, cadet_attacks);
	tcase_add_test(t, whole_games);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(bot_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
