/*
 * check_random_play.c -- complete games of every registered rule module
 * (rules_all(): a new game is played here without a line written), for
 * every seat count it takes, played through the real engine and store
 * with signed moves, each move a random one of legal_moves(); for every
 * game:
 *   - every move the module lists as legal is accepted by the engine;
 *   - the game ends (within MAX_MOVES);
 *   - the end is public (result and seed in the view), the audit passes
 *     and its replay from the seed reproduces the final state hash;
 *   - every log entry has its one-line summaries (docs/API.md,
 *     "Summaries"), in English and French, one line each, naming the
 *     player who moved and those to play next (or the end of the game).
 *
 * Some games add checks of their own after every move (extras[]):
 *   - Star Trek: Missions: the 74 cards are conserved (hands + discard
 *     area + both decks); every hand is valid (7 cards, 1 or 2 Missions)
 *     between turns; no seat's view names a card that seat may not know:
 *     every card id in a seat's view is public (in the public view) or in
 *     its own hand, and the public view names no card of either deck;
 *     and no summary names a card hidden from the public once the entry
 *     was made, by name in either language or by id;
 *   - Enterprise vs Excelsior (also played in expert mode, variants[]):
 *     each player's 33 cards and the 40 travel cards are all accounted
 *     for, and no seat or spectator view holds the other seat's hand,
 *     reserve or deck, nor the travel deck's order.
 * (Hidden information in general, for every game: tests/check_nopeek.c.)
 *
 * PBEM_RANDOM_GAMES sets the number of games per module, seat count and
 * variant (default 1000), and PBEM_RANDOM_MOVES a budget of moves for
 * each of those runs (default 25000): a run stops after the game in which
 * its moves pass the budget, having played at least RANDOM_MIN_GAMES
 * (or PBEM_RANDOM_GAMES if fewer), so a game of long turns (Mission to
 * Planet Hexx at four seats plays over a thousand moves) costs no more
 * than a short one.  Each module's own test plays thousands of games in
 * memory besides.  The choices come from a seeded generator: the run is
 * the same every time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "audit.h"
#include "cards.h"
#include "testlib.h"

/* A game that runs longer does not end.  (Enterprise vs Excelsior turns
 * may pass or only shuffle cards, so a random game of it is long.) */
#define MAX_MOVES 5000

static struct testenv env;
static long hand_checks;	/* positions where the hand rule was checked */
static long summaries_checked;	/* log entries whose summaries were */


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
		testenv_stm_ids(text, one);
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
	testenv_stm_ids(text, pub);
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
		testenv_stm_ids(text, seen);
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

/* Does text name card c, by id or by its name in either language? */
static int
names_card(const char *text, int c)
{
	return strstr(text, stm_cards[c].id) != NULL ||
	    strstr(text, stm_cards[c].name_en) != NULL ||
	    strstr(text, stm_cards[c].name_fr) != NULL;
}

/* Blank out in text the names of the cards the public view shows (pub),
 * so that a hidden card whose name is part of a public card's name is
 * not taken for named. */
static void
blank_public(char *text, const unsigned char pub[74])
{
	const char *word;
	char *at;
	int c, k;

	for (c = 0; c < 74; c++)
		for (k = 0; k < 2 && pub[c]; k++) {
			word = k == 0 ? stm_cards[c].name_en :
			    stm_cards[c].name_fr;
			while ((at = strstr(text, word)) != NULL)
				memset(at, '#', strlen(word));
		}
}

/* The summaries of gs's newest entry (the state after it). */
static void
check_summary(struct gamestate *gs, const char *ruleset)
{
	const char *names[STORE_MAX_SEATS] = { NULL };
	unsigned char pub[74];
	struct store_entry e;
	struct engine_summary sum;
	char *text, *line[2];
	json_t *view, *act;
	size_t i;
	int l, c, over;

	ck_assert_int_eq(store_log_get(env.st, gs->game.id, gs->seq, &e),
	    STORE_OK);
	gamestate_seat_names(env.st, gs, names);
	view = gamestate_view(gs, RULES_VIEW_PUBLIC);
	over = json_is_true(json_object_get(view, "over"));
	/* What engine_summary_of() words for a reader, from the state it
	 * rebuilds (check_webhook and check_notices read it that way). */
	engine_summarize(env.st, gs, &e, over, &sum);
	line[0] = sum.en;
	line[1] = sum.fr;
	for (l = 0; l < 2; l++) {
		if (line[l][0] == '\0' || strchr(line[l], '\n') != NULL)
			ck_abort_msg("entry %lld: summary \"%s\" is not one "
			    "line", (long long)gs->seq, line[l]);
		if (e.seat >= 0 && strstr(line[l], names[e.seat]) == NULL)
			ck_abort_msg("entry %lld: summary \"%s\" does not name "
			    "%s, who moved", (long long)gs->seq, line[l],
			    names[e.seat]);
		json_array_foreach(json_object_get(view, "to_act"), i, act)
			if (!over && strstr(line[l], names[
			    json_integer_value(act)]) == NULL)
				ck_abort_msg("entry %lld: summary \"%s\" does "
				    "not name %s, to play", (long long)gs->seq,
				    line[l], names[json_integer_value(act)]);
		if (over && strstr(line[l], l == 0 ? "game over" :
		    "partie terminée") == NULL)
			ck_abort_msg("entry %lld: summary \"%s\" of the last "
			    "move does not say the game is over",
			    (long long)gs->seq, line[l]);
	}
	if (strcmp(ruleset, "stmissions") == 0 && !over) {
		text = view_text(gs, RULES_VIEW_PUBLIC);
		testenv_stm_ids(text, pub);
		free(text);
		/* Meddlesome Q's holder is public once its final draw
		 * begins (the view's q_seat). */
		if (json_integer_value(json_object_get(view, "q_seat")) >= 0 &&
		    json_is_integer(json_object_get(view, "q_seat")))
			pub[50 + 17] = 1;
		for (l = 0; l < 2; l++) {
			blank_public(line[l], pub);
			for (c = 0; c < 74; c++)
				if (!pub[c] && names_card(line[l], c))
					ck_abort_msg("entry %lld: summary "
					    "\"%s\" names card %s, hidden",
					    (long long)gs->seq, line[l],
					    stm_cards[c].id);
		}
	}
	summaries_checked++;
	json_decref(view);
	store_entry_clear(&e);
}

/* Enterprise vs Excelsior: counts from the public view, secrets from
 * the key names that hold them. */
static void
check_eve(const struct gamestate *gs)
{
	static const char *const secret[] = { "\"hand\"", "\"reserve\"",
	    "\"deck\"", "\"hand_cards\"", "\"reserve_cards\"",
	    "\"travel_deck\"" };
	json_t *pub = gs->module->view(gs->state, RULES_VIEW_PUBLIC), *seat;
	char *text;
	size_t i, k;
	int s, n;

	n = (int)json_array_size(json_object_get(pub, "row")) +
	    (int)json_integer_value(json_object_get(pub, "travel_deck_size")) +
	    (int)json_integer_value(json_object_get(pub, "travel_discard_size"));
	if (n != 40)
		ck_abort_msg("%d travel cards, not 40", n);
	json_array_foreach(json_object_get(pub, "seats"), i, seat) {
		n = 0;
		n += (int)json_integer_value(json_object_get(seat, "hand_size"));
		n += (int)json_integer_value(json_object_get(seat, "deck_size"));
		n += (int)json_integer_value(json_object_get(seat,
		    "reserve_size"));
		n += (int)json_integer_value(json_object_get(seat,
		    "discard_size"));
		n += (int)json_integer_value(json_object_get(seat,
		    "starfleet_cards"));
		if (n != 33)
			ck_abort_msg("seat %zu has %d cards, not 33", i, n);
	}
	text = json_dumps(pub, JSON_COMPACT);
	for (k = 0; k < sizeof(secret) / sizeof(secret[0]); k++)
		if (strstr(text, secret[k]) != NULL)
			ck_abort_msg("the public view holds %s", secret[k]);
	free(text);
	json_decref(pub);
	for (s = 0; s < 2; s++) {
		json_t *v = gs->module->view(gs->state, s);
		json_t *other = json_array_get(json_object_get(v, "seats"),
		    (size_t)(1 - s));

		text = json_dumps(other, JSON_COMPACT);
		for (k = 0; k < sizeof(secret) / sizeof(secret[0]); k++)
			if (strstr(text, secret[k]) != NULL)
				ck_abort_msg("seat %d sees the other seat's %s",
				    s, secret[k]);
		free(text);
		if (json_object_get(v, "travel_deck") != NULL)
			ck_abort_msg("seat %d sees the travel deck order", s);
		json_decref(v);
	}
}

/* The checks a game adds after every move. */
struct extra {
	const char	*ruleset;
	void		(*check)(const struct gamestate *gs);
};

static const struct extra extras[] = {
	{ "stmissions", check_invariants },
	{ "eve", check_eve },
};

/* Options other than the default a game is also played with. */
struct variant {
	const char	*ruleset;
	const char	*options;
};

static const struct variant variants[] = {
	{ "eve", "{\"mode\": \"expert\"}" },
};

static void
play_game_of(const char *ruleset, const char *options, int nseats,
    uint64_t seed)
{
	void (*extra)(const struct gamestate *) = NULL;
	size_t e;
	struct audit_report report;
	struct engine_reply reply;
	struct store_entry last;
	struct audit_log log;
	struct store_game row;
	struct gamestate gs;
	int64_t game = testenv_game_with(&env, ruleset, nseats, options), seq;
	char err[512], move[512];
	json_t *moves;
	int seat, n;

	for (e = 0; e < sizeof(extras) / sizeof(extras[0]); e++)
		if (strcmp(extras[e].ruleset, ruleset) == 0)
			extra = extras[e].check;
	for (n = 0; ; n++) {
		ck_assert_msg(n < MAX_MOVES, "%s game %lld does not end",
		    ruleset, (long long)game);
		ck_assert_msg(gamestate_load(env.st, game, -1, &gs, err,
		    sizeof(err)) == ENGINE_OK, "%s", err);
		if (extra != NULL)
			extra(&gs);
		check_summary(&gs, ruleset);
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

/* The fewest games a run plays, whatever its budget of moves. */
#define RANDOM_MIN_GAMES	20

static long
moves_per_count(void)
{
	const char *env_moves = getenv("PBEM_RANDOM_MOVES");

	return env_moves != NULL ? atol(env_moves) : 25000;
}

/* What one loop test plays: a module, a seat count, options. */
struct run {
	const struct rules_module	*m;
	int				 nseats;
	const char			*options;	/* NULL: default */
};

#define MAX_RUNS 256
static struct run runs[MAX_RUNS];

/* Every registered module at every seat count, then the variants. */
static int
list_runs(void)
{
	const struct rules_module *const *m;
	int n = 0, nseats;
	size_t v;

	for (m = rules_all(); *m != NULL; m++) {
		for (nseats = (*m)->min_seats; nseats <= (*m)->max_seats &&
		    n < MAX_RUNS; nseats++)
			runs[n++] = (struct run){ *m, nseats, NULL };
		for (v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
			if (strcmp(variants[v].ruleset, (*m)->name) == 0 &&
			    n < MAX_RUNS)
				runs[n++] = (struct run){ *m, (*m)->min_seats,
				    variants[v].options };
	}
	return n;
}

START_TEST(test_random_games)
{
	const struct run *r = &runs[_i];
	int g, n = games_per_count();
	long budget = moves_per_count();
	uint64_t seed = 0x9e3779b97f4a7c15ULL ^ (uint64_t)r->nseats ^
	    ((uint64_t)_i << 32);

	testenv_open(&env, r->m->max_seats);
	hand_checks = 0;
	summaries_checked = 0;
	for (g = 0; g < n; g++) {
		play_game_of(r->m->name, r->options, r->nseats,
		    seed + (uint64_t)g * 2654435761ULL);
		if (summaries_checked > budget && g + 1 >= RANDOM_MIN_GAMES)
			n = g + 1;	/* the budget is spent */
	}
	if (strcmp(r->m->name, "stmissions") == 0)
		ck_assert_int_gt(hand_checks, n);
	ck_assert_int_gt(summaries_checked, n);
	printf("random play: %d complete %d-seat games of %s%s%s through "
	    "the store, %ld summaries\n", n, r->nseats, r->m->name,
	    r->options ? " " : "", r->options ? r->options : "",
	    summaries_checked);
	testenv_close(&env);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("random_play");
	TCase *tc = tcase_create("random_play");
	SRunner *sr;
	int failed;

	/* The real store, without waiting for the disk: durability is the
	 * store's own tests' concern, not this one's. */
	setenv("PBEM_STORE_SYNC", "off", 0);
	tcase_set_timeout(tc, 3000);
	tcase_add_loop_test(tc, test_random_games, 0, list_runs());
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
