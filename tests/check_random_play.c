/*
 * check_random_play.c -- thousands of complete Star Trek: Missions games
 * for 2, 3 and 4 players, played through the real engine and store with
 * signed moves, checking after every move:
 *   - the 74 cards are conserved (hands + discard area + both decks);
 *   - every hand is valid (7 cards, 1 or 2 Missions) between turns;
 *   - no seat's view names a card that seat may not know: every card id
 *     in a seat's view is public (in the public view) or in its own hand,
 *     and the public view names no card of either deck;
 *   - every game ends;
 * and after each game that the audit passes and its replay from the seed
 * reproduces the final state hash.
 *
 * PBEM_RANDOM_GAMES sets the number of games per player count (default
 * 1000).  The choices come from a seeded generator: the run is the same
 * every time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "audit.h"
#include "testlib.h"

#define MAX_MOVES 500		/* a game that runs longer does not end */

static struct testenv env;
static long hand_checks;	/* positions where the hand rule was checked */

/* Card ids ("G01".."G50", "M01".."M24") named anywhere in text. */
static void
ids_in(const char *text, unsigned char seen[74])
{
	const char *p;
	int n;

	memset(seen, 0, 74);
	for (p = text; *p != '\0'; p++) {
		if ((p[0] != 'G' && p[0] != 'M') || p[1] < '0' || p[1] > '9' ||
		    p[2] < '0' || p[2] > '9' || p[3] != '"')
			continue;
		n = (p[1] - '0') * 10 + (p[2] - '0');
		if (p[0] == 'G' && n >= 1 && n <= 50)
			seen[n - 1] = 1;
		else if (p[0] == 'M' && n >= 1 && n <= 24)
			seen[50 + n - 1] = 1;
	}
}

static char *
view_text(const struct gamestate *gs, int viewer)
{
	json_t *v = gs->module->view(gs->state, viewer);
	char *text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(v);
	return text;
}

/* Add the ids of a JSON array of cards ({"id": ...}) to ids[]. */
static void
card_ids(const json_t *cards, unsigned char ids[74], int *count)
{
	unsigned char one[74];
	json_t *card;
	char *text;
	size_t i;
	int c;

	json_array_foreach(cards, i, card) {
		text = json_dumps(card, JSON_COMPACT | JSON_ENCODE_ANY);
		ids_in(text, one);
		free(text);
		for (c = 0; c < 74; c++)
			if (one[c]) {
				ids[c]++;
				(*count)++;
			}
	}
}

static void
check_invariants(const struct gamestate *gs)
{
	unsigned char all[74] = { 0 }, deck[74] = { 0 }, own[74] = { 0 };
	unsigned char pub[74], seen[74];
	json_t *full, *hands, *hand;
	char *text;
	int c, s, count = 0, missions, over, deckcount = 0, between_turns;
	size_t i;

	full = gs->module->view(gs->state, RULES_VIEW_FULL);
	over = json_is_true(json_object_get(full, "over"));
	/* Between two turns (not half-way through a two-message turn, not
	 * in Meddlesome Q's final draw) every hand is 7 cards. */
	between_turns = !over && strcmp(json_string_value(json_object_get(full,
	    "phase")), "turn") == 0;
	hand_checks += between_turns;
	hands = json_object_get(full, "hands");
	if (json_array_size(hands) != (size_t)gs->game.nseats)
		ck_abort_msg("the full view has %zu hands",
		    json_array_size(hands));
	card_ids(json_object_get(full, "discard"), all, &count);
	card_ids(json_object_get(full, "galaxy_order"), deck, &deckcount);
	card_ids(json_object_get(full, "mission_order"), deck, &deckcount);
	for (c = 0; c < 74; c++)
		all[c] += deck[c];
	count += deckcount;
	json_array_foreach(hands, i, hand) {
		card_ids(hand, all, &count);
		missions = 0;
		for (c = 0; c < (int)json_array_size(hand); c++)
			missions += json_is_true(json_object_get(
			    json_array_get(hand, (size_t)c), "mission"));
		if (between_turns && (json_array_size(hand) != 7 ||
		    missions < 1 || missions > 2))
			ck_abort_msg("seat %zu holds %zu cards, %d Missions",
			    i, json_array_size(hand), missions);
	}
	if (count != 74)
		ck_abort_msg("%d cards in play, not 74", count);
	/* (Plain tests in the loops: each ck_assert costs a message to the
	 * check runner, and these run millions of times.) */
	for (c = 0; c < 74; c++)
		if (all[c] != 1)
			ck_abort_msg("card %d appears %d times", c, all[c]);

	/* What the public view names is public; decks are never named. */
	text = view_text(gs, RULES_VIEW_PUBLIC);
	ids_in(text, pub);
	free(text);
	if (!over)
		for (c = 0; c < 74; c++)
			if (pub[c] && deck[c])
				ck_abort_msg("the public view names card %d "
				    "of a deck", c);
	for (s = 0; s < gs->game.nseats && !over; s++) {
		memset(own, 0, sizeof(own));
		count = 0;
		card_ids(json_array_get(hands, (size_t)s), own, &count);
		text = view_text(gs, s);
		ids_in(text, seen);
		if (strstr(text, "galaxy_order") != NULL)
			ck_abort_msg("seat %d sees the deck order", s);
		free(text);
		for (c = 0; c < 74; c++)
			if (seen[c] && !pub[c] && !own[c])
				ck_abort_msg("seat %d's view names card %d, "
				    "which is neither public nor in its hand",
				    s, c);
	}
	json_decref(full);
}

static void
play_game(int nseats, uint64_t seed)
{
	struct audit_report report;
	struct engine_reply reply;
	struct store_entry last;
	struct audit_log log;
	struct store_game row;
	struct gamestate gs;
	int64_t game = testenv_game(&env, "stmissions", nseats), seq;
	char err[512], move[512];
	json_t *moves;
	int seat, n;

	for (n = 0; ; n++) {
		ck_assert_msg(n < MAX_MOVES, "game %lld does not end",
		    (long long)game);
		ck_assert_msg(gamestate_load(env.st, game, -1, &gs, err,
		    sizeof(err)) == ENGINE_OK, "%s", err);
		check_invariants(&gs);
		seq = gs.seq + 1;
		if (gs.module->to_act(gs.state, &seat, 1) == 0) {
			json_t *end = gamestate_view(&gs, RULES_VIEW_PUBLIC);
			ck_assert_ptr_nonnull(json_object_get(end, "result"));
			ck_assert_ptr_nonnull(json_object_get(end, "seed"));
			json_decref(end);
			gamestate_clear(&gs);
			break;
		}
		moves = gs.module->legal_moves(gs.state, seat);
		ck_assert_uint_gt(json_array_size(moves), 0);
		snprintf(move, sizeof(move), "%s", json_string_value(
		    json_array_get(moves, test_random(&seed,
		    (uint32_t)json_array_size(moves)))));
		json_decref(moves);
		gamestate_clear(&gs);
		testenv_play(&env, game, seq, seat, move, &reply);
		ck_assert_msg(reply.status == ENGINE_OK, "game %lld seq %lld "
		    "\"%s\": %s", (long long)game, (long long)seq, move,
		    reply.message);
		engine_reply_clear(&reply);
	}

	ck_assert_int_eq(audit_load_store(env.st, game, &log, &row, err,
	    sizeof(err)), 0);
	ck_assert_msg(audit_run(&log, &report, NULL, NULL) == 0, "game %lld: "
	    "%s", (long long)game, report.reason);
	ck_assert_int_eq(report.replayed, 1);
	ck_assert_int_eq(store_log_last(env.st, game, &last), STORE_OK);
	ck_assert_mem_eq(report.final_state_hash, last.state_hash, 32);
	ck_assert_int_eq(row.status, STORE_GAME_OVER);
	store_entry_clear(&last);
	audit_log_clear(&log);
	store_game_clear(&row);
}

static int
games_per_count(void)
{
	const char *env_games = getenv("PBEM_RANDOM_GAMES");

	return env_games != NULL ? atoi(env_games) : 1000;
}

START_TEST(test_random_games)
{
	int nseats = 2 + _i, g, n = games_per_count();
	uint64_t seed = 0x9e3779b97f4a7c15ULL ^ (uint64_t)nseats;

	testenv_open(&env, 4);
	for (g = 0; g < n; g++)
		play_game(nseats, seed + (uint64_t)g * 2654435761ULL);
	ck_assert_int_gt(hand_checks, n);
	printf("random play: %d complete %d-player games through the store, "
	    "hands checked at %ld positions\n", n, nseats, hand_checks);
	testenv_close(&env);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("random_play");
	TCase *tc = tcase_create("stmissions");
	SRunner *sr;
	int failed;

	/* The real store, without waiting for the disk: durability is the
	 * store's own tests' concern, not this one's. */
	setenv("PBEM_STORE_SYNC", "off", 0);
	tcase_set_timeout(tc, 3000);
	tcase_add_loop_test(tc, test_random_games, 0, 3);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
