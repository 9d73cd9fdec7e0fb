/*
 * check_bots.c -- seats the server plays (docs/SERVER-BOTS.md), through
 * the real engine, store and scheduler:
 *   - bot-vs-bot games of every registered game at every seat count it
 *     takes, the levels mixed, played only by scheduler passes: every
 *     game ends; every entry after the genesis is a BOT entry of the seat
 *     to act; the genesis names each seat's bot level; no mail is
 *     queued for a bot; the audit (which replays from the seed and
 *     re-runs every bot choice) passes; a second pass after the end
 *     writes nothing;
 *   - at every position of normal-bot games of every game, the module's
 *     bot_move is legal, deterministic for one stream and pure;
 *   - a BOT entry whose text is a legal move but not the bot's choice is
 *     caught by the audit, by its sequence number;
 *   - the core's random bot for a module without bot_move, and
 *     rules_bot_move() falling back to it;
 *   - "@bot" seat forms: levels, names, and refusals that store nothing;
 *   - the missed-deadline policy "bot": the late seat's turn is played by
 *     the bot and the seat held (status bot, still "to act" for its
 *     player); the player's own move takes it back.
 * PBEM_BOT_GAMES sets the games per module and seat count (default 5).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sqlite3.h>

#include "audit.h"
#include "policy.h"
#include "clock.h"
#include "rng.h"
#include "schedule.h"
#include "testcards.h"
#include "testlib.h"

#define HOUR	3600
#define MONDAY	1704067200

static struct testenv env;
static int64_t fake_now;

static void
setup(void)
{
	fake_now = MONDAY + 9 * HOUR;
	clock_set(testenv_clock, &fake_now);
	testenv_open(&env, 4);
}

static struct schedule_stats
tick(int64_t now)
{
	fake_now = now;
	return testenv_tick(&env, now);
}

static void
teardown(void)
{
	testenv_close(&env);
	clock_set(NULL, NULL);
}

/* The mail rows queued for game (a bot reads no mail). */
static int64_t
mail_rows(int64_t game)
{
	char sql[128];
	sqlite3 *db;
	sqlite3_stmt *s;
	int64_t n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM outbox WHERE "
	    "channel = 'mail' AND game_id = %lld", (long long)game);
	ck_assert_int_eq(sqlite3_open(env.dbpath, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL),
	    SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return n;
}

/* The audit of game: 0 if it passes, else the bad entry's seq. */
static int64_t
audit_bad_seq(int64_t game, char *why, size_t whylen)
{
	struct audit_report report;
	struct audit_log log;
	struct store_game row;
	char err[512];
	int rc;

	ck_assert_int_eq(audit_load_store(env.st, game, &log, &row, err,
	    sizeof(err)), 0);
	rc = audit_run(&log, &report, NULL, NULL);
	snprintf(why, whylen, "%s", report.reason);
	audit_log_clear(&log);
	store_game_clear(&row);
	return rc == 0 ? 0 : report.bad_seq;
}

/* A game of ruleset whose seats are all bots (levels alternating). */
static int64_t
bot_game(const char *ruleset, int nseats, int first_level)
{
	const char *bots[8];
	int64_t players[8] = { 0 }, game = 0;
	char err[1024];
	int s, started = 0;

	for (s = 0; s < nseats; s++)
		bots[s] = (s + first_level) % 2 ? "@bot:normal" : "@bot:random";
	ck_assert_msg(engine_form_game_with(env.st, env.key, ruleset, NULL,
	    NULL, players, bots, nseats, &game, &started, err, sizeof(err)) ==
	    ENGINE_OK, "%s: %s", ruleset, err);
	ck_assert_int_eq(started, 1);
	return game;
}

/* One bot-versus-bot game of ruleset at n seats, played by scheduler
 * passes only: it ends; every entry is a BOT entry; the genesis names
 * each bot's level; the bots have no address; the audit passes; a pass after
 * the end plays nothing. */
static void
bot_vs_bot_game(const char *ruleset, int n, int g)
{
	int64_t game = bot_game(ruleset, n, g), seq, next = 0;
	struct schedule_stats st;
	struct store_entry e;
	struct store_player p;
	struct store_game row;
	char why[1024];

	/* A pass plays at most 64 entries a game; a game just looked at is
	 * due again at the next second (schedule.c, judge_batch). */
	for (seq = 0; seq < 2000 && testenv_to_act(&env, game, &next) >= 0;
	    seq++)
		tick(fake_now + 1);
	ck_assert_msg(testenv_to_act(&env, game, NULL) < 0, "%s, %d seats, "
	    "game %d: not over", ruleset, n, g);
	for (seq = 1; seq < next; seq++) {
		ck_assert_int_eq(store_log_get(env.st, game, seq, &e),
		    STORE_OK);
		ck_assert_int_eq(e.kind, STORE_ENTRY_BOT);
		store_entry_clear(&e);
	}
	ck_assert_int_eq(store_log_get(env.st, game, 0, &e), STORE_OK);
	/* levels alternate: one seat alone may be the random one */
	ck_assert_msg(strstr(e.text, "\"bot\":\"normal\"") != NULL ||
	    (n == 1 && strstr(e.text, "\"bot\":\"random\"") != NULL),
	    "%s, %d seats: the genesis names no bot's level: %.300s", ruleset,
	    n, e.text);
	store_entry_clear(&e);
	ck_assert_int_eq(store_game_get(env.st, game, &row), STORE_OK);
	ck_assert_int_eq(store_player_get(env.st, row.seat_player[0], &p),
	    STORE_OK);
	ck_assert_int_eq(p.email_pending, 1);
	ck_assert_str_eq(p.email, "");
	store_game_clear(&row);
	ck_assert_msg(audit_bad_seq(game, why, sizeof(why)) == 0,
	    "%s: audit: %s", ruleset, why);
	st = tick(fake_now);
	ck_assert_int_eq(st.bot_moves, 0);
	ck_assert_int_eq(mail_rows(game), 0);
}

START_TEST(bots_play_every_game_to_the_end)
{
	const struct rules_module *const *all = rules_all();
	const char *env_games = getenv("PBEM_BOT_GAMES");
	int games = env_games != NULL ? atoi(env_games) : 5, g, n, i;

	for (i = 0; all[i] != NULL; i++)
		for (n = all[i]->min_seats; n <= all[i]->max_seats && n <= 4;
		    n++)
			for (g = 0; g < games; g++)
				bot_vs_bot_game(all[i]->name, n, g);
}
END_TEST

/* One game of m at n seats, every seat the normal bot, from seed byte g:
 * at every position the bot's move is legal, the same for the same
 * stream, and leaves the state as it was; the game ends. */
static void
pure_legal_game(const struct rules_module *m, int n, int g)
{
	unsigned char seed[RNG_SEED_BYTES];
	char a[2048], b[2048], err[RULES_ERRLEN];
	struct rules_rng rng;
	json_t *opts = json_object(), *before, *after, *move;
	void *state;
	int step, seats[8];

	memset(seed, 0, sizeof(seed));
	seed[0] = (unsigned char)g;
	seed[1] = (unsigned char)n;
	rng_init(&rng, seed, 0);
	state = testcards_setup(m, n, opts, &rng, err, sizeof(err));
	ck_assert_ptr_nonnull(state);
	for (step = 1; step < 5000 && m->to_act(state, seats, 8) > 0;
	    step++) {
		before = m->save(state);
		rng_init_bot(&rng, seed, (uint64_t)step);
		ck_assert_int_eq(rules_bot_move(m, state, seats[0],
		    RULES_BOT_NORMAL, &rng, a, sizeof(a)), RULES_OK);
		rng_init_bot(&rng, seed, (uint64_t)step);
		ck_assert_int_eq(rules_bot_move(m, state, seats[0],
		    RULES_BOT_NORMAL, &rng, b, sizeof(b)), RULES_OK);
		ck_assert_str_eq(a, b);
		after = m->save(state);
		ck_assert_msg(json_equal(before, after), "%s: bot_move "
		    "changed the state", m->name);
		json_decref(before);
		json_decref(after);
		move = NULL;
		ck_assert_msg(m->parse(state, seats[0], a, RULES_LANG_EN,
		    &move, err, sizeof(err)) == RULES_OK && m->check(state,
		    seats[0], move, RULES_LANG_EN, err, sizeof(err)) ==
		    RULES_OK, "%s: \"%s\" refused: %s", m->name, a, err);
		rng_init(&rng, seed, (uint64_t)step);
		m->apply(state, seats[0], move, &rng);
		json_decref(move);
	}
	ck_assert_msg(m->to_act(state, seats, 8) == 0, "%s: no end",
	    m->name);
	m->destroy(state);
	json_decref(opts);
}

START_TEST(bots_are_pure_and_legal)
{
	const struct rules_module *const *all = rules_all();
	int i, n, g;

	for (i = 0; all[i] != NULL; i++)
		for (n = all[i]->min_seats; n <= all[i]->max_seats && n <= 4;
		    n++)
			for (g = 0; g < 10; g++)
				pure_legal_game(all[i], n, g);
}
END_TEST

START_TEST(a_move_the_bot_did_not_choose_is_caught)
{
	struct gamestate gs;
	json_t *moves;
	char err[1024], chosen[512], why[1024];
	const char *other = NULL;
	size_t i;
	int64_t game = bot_game("template", 2, 1);	/* seat 0 normal */
	int seat = testenv_to_act(&env, game, NULL);	/* drawn at setup */

	ck_assert_int_eq(store_begin(env.st), STORE_OK);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(engine_bot_choose(&gs, seat, seat == 0 ?
	    RULES_BOT_NORMAL : RULES_BOT_RANDOM, 1, chosen, sizeof(chosen)),
	    ENGINE_OK);
	moves = gs.module->legal_moves(gs.state, seat);
	for (i = 0; i < json_array_size(moves) && other == NULL; i++)
		if (strcmp(json_string_value(json_array_get(moves, i)),
		    chosen) != 0)
			other = json_string_value(json_array_get(moves, i));
	ck_assert_ptr_nonnull(other);
	/* Legal, signed by the server -- but not the bot's choice. */
	ck_assert_int_eq(engine_server_entry(env.st, env.key, &gs,
	    STORE_ENTRY_BOT, seat, other, "auto_move", 0, fake_now, err,
	    sizeof(err)), ENGINE_OK);
	json_decref(moves);
	ck_assert_int_eq(store_commit(env.st), STORE_OK);
	gamestate_clear(&gs);
	ck_assert_int_eq(audit_bad_seq(game, why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "not the one the bot chooses"));
}
END_TEST

START_TEST(the_random_bot_and_the_fallback)
{
	const struct rules_module *m = rules_find("template");
	struct rules_module bare = *m;
	unsigned char seed[RNG_SEED_BYTES] = { 1 };
	struct rules_rng rng, again;
	char a[64], b[64], err[512];
	json_t *opts = json_object(), *moves;
	void *state;
	size_t i;
	int found = 0;

	rng_init(&rng, seed, 0);
	state = m->setup(2, opts, &rng, err, sizeof(err));
	ck_assert_ptr_nonnull(state);
	/* Without bot_move, every level is the random bot. */
	bare.bot_move = NULL;
	rng_init_bot(&rng, seed, 1);
	rng_init_bot(&again, seed, 1);
	ck_assert_int_eq(rules_bot_move(&bare, state, 0, RULES_BOT_NORMAL,
	    &rng, a, sizeof(a)), RULES_OK);
	ck_assert_int_eq(rules_bot_move(m, state, 0, RULES_BOT_RANDOM,
	    &again, b, sizeof(b)), RULES_OK);
	ck_assert_str_eq(a, b);	/* the same stream, the same choice */
	moves = m->legal_moves(state, 0);
	for (i = 0; i < json_array_size(moves); i++)
		found |= strcmp(json_string_value(json_array_get(moves, i)),
		    a) == 0;
	ck_assert_int_eq(found, 1);
	json_decref(moves);
	/* The seat not to act has no move. */
	ck_assert_int_eq(rules_bot_move(m, state, 1, RULES_BOT_NORMAL, &rng,
	    a, sizeof(a)), RULES_NOT_YOUR_TURN);
	/* Levels by name. */
	ck_assert_int_eq(rules_bot_level("random"), RULES_BOT_RANDOM);
	ck_assert_int_eq(rules_bot_level("normal"), RULES_BOT_NORMAL);
	ck_assert_int_eq(rules_bot_level("genius"), -1);
	m->destroy(state);
	json_decref(opts);
}
END_TEST

START_TEST(bot_seat_forms)
{
	struct engine_bot_spec spec;
	char err[512];
	int64_t players[2] = { 0, 0 }, game = 0, before;
	const char *bots[2] = { "@bot:normal=alice_bot", "@bot" };
	int started;

	ck_assert_int_eq(engine_bot_spec_read("@bot", &spec, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(spec.level, RULES_BOT_NORMAL);
	ck_assert_str_eq(spec.name, "");
	ck_assert_int_eq(engine_bot_spec_read("@bot:random=Data", &spec, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(spec.level, RULES_BOT_RANDOM);
	ck_assert_str_eq(spec.name, "Data");
	/* A level is checked against the game: the core's, or its own. */
	ck_assert_int_eq(engine_bot_spec_read("@bot:clever", &spec, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(engine_bot_level_check(rules_find("template"), &spec,
	    err, sizeof(err)), ENGINE_BAD_REQUEST);
	ck_assert_ptr_nonnull(strstr(err, "niveaux sont random et normal"));
	ck_assert_int_eq(engine_bot_spec_read("@bot:Amiral", &spec, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_str_eq(spec.level_name, "amiral");
	ck_assert_int_eq(engine_bot_level_check(rules_find("captains"), &spec,
	    err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(engine_bot_spec_read("@bot:x1", &spec, err,
	    sizeof(err)), ENGINE_BAD_REQUEST);
	ck_assert_int_eq(engine_bot_spec_read("@bot=no way", &spec, err,
	    sizeof(err)), ENGINE_BAD_REQUEST);
	ck_assert_int_eq(engine_bot_spec_read("@botty", &spec, err,
	    sizeof(err)), ENGINE_BAD_REQUEST);
	/* A refused game stores no bot: a name taken, options refused. */
	before = testenv_rows(&env);
	bots[0] = "@bot:normal=p1";
	ck_assert_int_eq(engine_form_game_with(env.st, env.key, "template",
	    NULL, NULL, players, bots, 2, &game, &started, err, sizeof(err)),
	    ENGINE_BAD_REQUEST);
	ck_assert_int_eq(testenv_rows(&env), before);
	bots[0] = "@bot";
	ck_assert_int_eq(engine_form_game_with(env.st, env.key, "template",
	    "{\"nope\": 1}", NULL, players, bots, 2, &game, &started, err,
	    sizeof(err)), ENGINE_BAD_REQUEST);
	ck_assert_int_eq(testenv_rows(&env), before);
	/* A seat with both a player and a bot. */
	players[0] = env.player_id[0];
	ck_assert_int_eq(engine_form_game_with(env.st, env.key, "template",
	    NULL, NULL, players, bots, 2, &game, &started, err, sizeof(err)),
	    ENGINE_BAD_REQUEST);
	/* A person and a bot: the game starts at once. */
	bots[0] = NULL;
	ck_assert_int_eq(engine_form_game_with(env.st, env.key, "template",
	    NULL, NULL, players, bots, 2, &game, &started, err, sizeof(err)),
	    ENGINE_OK);
	ck_assert_int_eq(started, 1);
}
END_TEST

START_TEST(the_bot_policy_holds_a_seat_until_its_player_moves)
{
	int64_t game = testenv_game(&env, "template", 2), next;
	struct schedule_stats st;
	struct store_seat row;
	struct store_entry e;
	struct policy pol;
	char err[512];
	int late;

	policy_default(&pol);
	ck_assert_int_eq(policy_set_field("missed=bot", rules_find("template"),
	    &pol, err, sizeof(err)), 0);
	ck_assert_int_eq(pol.missed, POLICY_MISSED_BOT);
	testenv_set_policy(&env, game, "{\"turn_time\": \"1h\", "
	    "\"missed\": \"bot\", \"reminders\": []}");
	tick(fake_now);				/* the clock starts */
	late = testenv_to_act(&env, game, &next);	/* drawn at setup */
	st = tick(fake_now + 2 * HOUR);		/* it missed its deadline */
	ck_assert_int_eq(st.bot_moves, 1);
	ck_assert_int_eq(store_log_get(env.st, game, 1, &e), STORE_OK);
	ck_assert_int_eq(e.kind, STORE_ENTRY_BOT);
	ck_assert_int_eq(e.seat, late);
	store_entry_clear(&e);
	ck_assert_int_eq(store_seat_get(env.st, game, late, &row), STORE_OK);
	ck_assert_int_eq(row.status, STORE_SEAT_BOT);
	/* The other seat plays; the late seat's next turn is the bot's at
	 * its deadline, not at once. */
	ck_assert_int_eq(testenv_to_act(&env, game, &next), 1 - late);
	ck_assert_int_eq(testenv_play_first(&env, game, -1, fake_now),
	    ENGINE_OK);
	st = tick(fake_now);
	ck_assert_int_eq(st.bot_moves, 0);	/* its player may move */
	ck_assert_int_eq(testenv_to_act(&env, game, &next), late);
	/* The player moves: the seat is theirs again. */
	ck_assert_int_eq(testenv_play_first(&env, game, -1, fake_now),
	    ENGINE_OK);
	ck_assert_int_eq(store_seat_get(env.st, game, late, &row), STORE_OK);
	ck_assert_int_eq(row.status, STORE_SEAT_PLAYING);
}
END_TEST

static Suite *
bots_suite(void)
{
	Suite *s = suite_create("bots");
	TCase *tc = tcase_create("bots");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, bots_play_every_game_to_the_end);
	tcase_add_test(tc, bots_are_pure_and_legal);
	tcase_add_test(tc, a_move_the_bot_did_not_choose_is_caught);
	tcase_add_test(tc, the_random_bot_and_the_fallback);
	tcase_add_test(tc, bot_seat_forms);
	tcase_add_test(tc, the_bot_policy_holds_a_seat_until_its_player_moves);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(bots_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
