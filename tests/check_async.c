/*
 * check_async.c -- asynchronous play through the real store, driven by a
 * clock the test controls (no sleeping): policies and deadline
 * arithmetic; reminders at the right times and never twice; each
 * missed-deadline outcome (wait, skip, default move, absent); vacation
 * stretching a deadline and its limits; a restart between a reminder and
 * its deadline; resignation in two- and three-seat games; replacement
 * (the old key refused, the new one accepted, the audit and an exported
 * bundle still verifying); calling a game off; press; observers; signed
 * commands; and response windows that ask every eligible seat alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sqlite3.h>

#include "audit.h"
#include "bundle.h"
#include "clock.h"
#include "schedule.h"
#include "testlib.h"

#define HOUR	3600
#define DAY	86400
/* Monday 2024-01-01 00:00 UTC. */
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

static void
teardown(void)
{
	testenv_close(&env);
	clock_set(NULL, NULL);
}

static int64_t
rows(const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	int64_t n = -1;

	ck_assert_int_eq(sqlite3_open(env.dbpath, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return n;
}

static int64_t
outbox(const char *event)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM outbox WHERE event = "
	    "'%s'", event);
	return rows(sql);
}

static void
set_policy(int64_t game, const char *json)
{
	testenv_set_policy(&env, game, json);
}

static struct schedule_stats
tick(int64_t now)
{
	fake_now = now;
	return testenv_tick(&env, now);
}

/* The first seat to act (-1 if over) and the next sequence number. */
static int
to_act(int64_t game, int64_t *next)
{
	return testenv_to_act(&env, game, next);
}

static void
audit_ok(int64_t game)
{
	struct audit_report report;
	struct audit_log log;
	struct store_game row;
	char err[512];

	ck_assert_int_eq(audit_load_store(env.st, game, &log, &row, err,
	    sizeof(err)), 0);
	ck_assert_msg(audit_run(&log, &report, NULL, NULL) == 0,
	    "audit: entry %lld: %s", (long long)report.bad_seq, report.reason);
	audit_log_clear(&log);
	store_game_clear(&row);
}

static int
entry_kind(int64_t game, int64_t seq)
{
	struct store_entry e;
	int kind;

	ck_assert_int_eq(store_log_get(env.st, game, seq, &e), STORE_OK);
	kind = e.kind;
	store_entry_clear(&e);
	return kind;
}

/* Play the first legal move for the seat to act, signed by player
 * signer (-1: the player with the seat's number). */
static enum engine_status
play_as(int64_t game, int signer)
{
	return testenv_play_first(&env, game, signer, fake_now);
}

static void
play_first(int64_t game)
{
	ck_assert_int_eq(play_as(game, -1), ENGINE_OK);
}

/* A signed command from player signer for seat, command number n,
 * answered in lang. */
static void
command_in(enum rules_lang lang, int signer, int64_t game, int64_t n,
    int seat, const char *text, struct engine_reply *reply)
{
	char block[4096];

	testenv_block(&env, signer, game, n, seat, text, block, sizeof(block));
	engine_handle(env.st, env.key, block, strlen(block), lang, fake_now,
	    reply);
}

/* The same answered in English. */
static void
command(int signer, int64_t game, int64_t n, int seat, const char *text,
    struct engine_reply *reply)
{
	command_in(RULES_LANG_EN, signer, game, n, seat, text, reply);
}

START_TEST(test_policy)
{
	const struct rules_module *tpl = rules_find("template");
	const struct rules_module *stm = rules_find("stmissions");
	struct policy p, before;
	char err[512], *text;

	policy_default(&p);
	ck_assert_int_eq(policy_parse("{\"turn_time\": \"3d\", \"reminders\":"
	    " [\"24h\", 600], \"missed\": \"skip\", \"weekends\": \"pause\"}",
	    tpl, &p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.turn_time, 3 * DAY);
	ck_assert_int_eq(p.reminders[1], 600);
	ck_assert_int_eq(p.missed, POLICY_MISSED_SKIP);
	before = p;
	ck_assert_int_eq(policy_parse("{\"missed\": \"skip\"}", stm, &p, err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "stmissions does not allow"));
	ck_assert_int_eq(policy_parse("{\"tempo\": 3}", tpl, &p, err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "unknown policy field \"tempo\""));
	ck_assert_int_eq(policy_parse("{\"reminders\": [\"4d\"]}", tpl, &p,
	    err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "not within the turn time"));
	ck_assert_int_eq(policy_parse("{\"grace\": \"3 weeks\"}", tpl, &p,
	    err, sizeof(err)), -1);
	ck_assert_int_eq(policy_parse("[1]", tpl, &p, err, sizeof(err)), -1);
	ck_assert_int_eq(memcmp(&p, &before, sizeof(p)), 0);
	ck_assert_int_eq(policy_set_field("press=false", tpl, &p, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(p.press, 0);
	ck_assert_int_eq(policy_set_field("reminders=12h,1h", tpl, &p, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(p.nreminders, 2);
	ck_assert_int_eq(policy_set_field("grace", tpl, &p, err, sizeof(err)),
	    -1);
	/* The canonical text reads back to the same policy. */
	text = policy_text(&p);
	policy_default(&before);
	ck_assert_int_eq(policy_parse(text, tpl, &before, err, sizeof(err)), 0);
	ck_assert_int_eq(memcmp(&p, &before, sizeof(p)), 0);
	free(text);
}
END_TEST

START_TEST(test_deadline_arithmetic)
{
	struct policy p;
	int64_t friday_noon = MONDAY + 4 * DAY + 12 * HOUR;

	policy_default(&p);
	ck_assert_int_eq(policy_deadline(&p, friday_noon, DAY, 0, 0),
	    friday_noon + DAY);
	p.weekends_pause = 1;
	/* Friday noon + 24 counted hours = Monday noon. */
	ck_assert_int_eq(policy_deadline(&p, friday_noon, DAY, 0, 0),
	    friday_noon + 3 * DAY);
	/* Starting on a Saturday: the clock starts on Monday. */
	ck_assert_int_eq(policy_deadline(&p, MONDAY + 5 * DAY + HOUR, HOUR,
	    0, 0), MONDAY + 7 * DAY + HOUR);
	p.weekends_pause = 0;
	/* A vacation inside the turn stretches it by its length... */
	ck_assert_int_eq(policy_deadline(&p, MONDAY, 2 * DAY, MONDAY + DAY,
	    MONDAY + 4 * DAY), MONDAY + 5 * DAY);
	/* ...one that ended before the turn does nothing. */
	ck_assert_int_eq(policy_deadline(&p, MONDAY + 9 * DAY, DAY, MONDAY,
	    MONDAY + DAY), MONDAY + 10 * DAY);
}
END_TEST

START_TEST(test_reminders_and_wait)
{
	int64_t game, t0 = fake_now;
	struct schedule_stats s;

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"48h\", \"reminders\": [\"24h\", "
	    "\"1h\"], \"missed\": \"wait\"}");
	s = tick(t0);
	ck_assert_int_eq(s.reminders, 0);
	s = tick(t0 + 24 * HOUR - 1);
	ck_assert_int_eq(s.reminders, 0);
	s = tick(t0 + 24 * HOUR);
	ck_assert_int_eq(s.reminders, 1);
	s = tick(t0 + 24 * HOUR + 5);
	ck_assert_int_eq(s.reminders, 0);		/* never twice */
	s = tick(t0 + 47 * HOUR);
	ck_assert_int_eq(s.reminders, 1);
	ck_assert_int_eq(outbox("reminder"), 2);
	s = tick(t0 + 48 * HOUR);
	ck_assert_int_eq(s.late, 1);
	ck_assert_int_eq(outbox("late"), 2);		/* both seats told */
	s = tick(t0 + 60 * HOUR);
	ck_assert_int_eq(s.late + s.reminders + s.auto_moves, 0);
	ck_assert_int_eq(to_act(game, NULL) >= 0, 1);	/* still waiting */

	/* A move starts a new turn and its own reminders. */
	play_first(game);
	s = tick(t0 + 60 * HOUR + 24 * HOUR);
	ck_assert_int_eq(s.reminders, 1);
	audit_ok(game);
}
END_TEST

/* A game with nothing due is passed over: judged once from its rows,
 * without loading its state, then not even read (its due time, migration
 * 15) until that time comes or something changes; one whose reminder,
 * deadline or resigned seat is due, whose turn the scheduler has not
 * seen, or whose policy changed, is looked at. */
START_TEST(test_quiet_games_passed_over)
{
	int64_t waiting, resigned, t0 = fake_now;
	struct schedule_stats s;
	char err[512];

	waiting = testenv_game(&env, "template", 2);
	set_policy(waiting, "{\"turn_time\": \"48h\", \"reminders\": "
	    "[\"24h\"]}");
	s = tick(t0);
	ck_assert_int_eq(s.games, 1);
	ck_assert_int_eq(s.quiet, 0);		/* its turn not yet seen */
	/* Looked at, it was judged from its rows when the pass ended:
	 * nothing due before the reminder, so it is not even read. */
	s = tick(t0 + HOUR);
	ck_assert_int_eq(s.games, 0);
	s = tick(t0 + 24 * HOUR - 1);
	ck_assert_int_eq(s.games, 0);
	s = tick(t0 + 24 * HOUR);		/* the reminder is due */
	ck_assert_int_eq(s.games, 1);
	ck_assert_int_eq(s.quiet, 0);
	ck_assert_int_eq(s.reminders, 1);
	/* A shorter turn set by the administrator is seen at once. */
	set_policy(waiting, "{\"turn_time\": \"2h\", \"reminders\": []}");
	play_first(waiting);
	s = tick(t0 + 25 * HOUR);
	ck_assert_int_eq(s.games, 1);
	ck_assert_int_eq(s.quiet, 1);
	set_policy(waiting, "{\"turn_time\": \"1h\", \"reminders\": [], "
	    "\"missed\": \"default\"}");
	s = tick(t0 + 25 * HOUR);
	ck_assert_int_eq(s.quiet, 0);
	ck_assert_int_eq(s.auto_moves, 1);

	/* A resigned seat's move is due whatever the policy. */
	resigned = testenv_game(&env, "template", 3);
	s = tick(t0 + 26 * HOUR);
	ck_assert_int_eq(s.games, 2);		/* the other's turn ends */
	ck_assert_int_eq(engine_resign(env.st, env.key, resigned,
	    to_act(resigned, NULL), 0, NULL, fake_now, RULES_LANG_EN, err,
	    sizeof(err)),
	    ENGINE_OK);
	s = tick(t0 + 26 * HOUR + 1);
	ck_assert_int_eq(s.games, 1);		/* only the resigned one */
	ck_assert_int_eq(s.auto_moves, 1);
	audit_ok(waiting);
	audit_ok(resigned);
}
END_TEST

START_TEST(test_missed_default_move)
{
	struct engine_reply reply;
	char block[4096];
	int64_t game, t0 = fake_now, next;
	struct schedule_stats s;
	int seat;

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"1d\", \"grace\": \"6h\", "
	    "\"missed\": \"default\"}");
	seat = to_act(game, &next);
	tick(t0);
	s = tick(t0 + DAY);
	ck_assert_int_eq(s.deadlines, 1);		/* grace runs */
	ck_assert_int_eq(s.auto_moves, 0);
	s = tick(t0 + DAY + 6 * HOUR);
	ck_assert_int_eq(s.auto_moves, 1);
	ck_assert_int_eq(entry_kind(game, next), STORE_ENTRY_AUTO);
	ck_assert_int_eq(outbox("auto_move"), 1);
	ck_assert_int_ne(to_act(game, NULL), seat);
	/* The late player's move for that number is now stale. */
	testenv_block(&env, seat, game, next, seat, "play 1", block,
	    sizeof(block));
	engine_submit(env.st, env.key, block, strlen(block), RULES_LANG_EN,
	    &reply);
	ck_assert_int_eq(reply.status, ENGINE_STALE_SEQ);
	engine_reply_clear(&reply);
	s = tick(t0 + DAY + 6 * HOUR + 1);
	ck_assert_int_eq(s.auto_moves, 0);		/* never twice */
	/* Let the scheduler play the whole game out. */
	for (t0 += 2 * DAY; to_act(game, NULL) >= 0; t0 += 2 * DAY)
		tick(t0);
	audit_ok(game);
}
END_TEST

START_TEST(test_missed_skip)
{
	int64_t game, t0 = fake_now, next;
	struct schedule_stats s;
	int seat;

	game = testenv_game(&env, "template", 3);
	set_policy(game, "{\"turn_time\": \"2h\", \"reminders\": [], "
	    "\"missed\": \"skip\"}");
	seat = to_act(game, &next);
	tick(t0);
	s = tick(t0 + 2 * HOUR);
	ck_assert_int_eq(s.skips, 1);
	ck_assert_int_eq(entry_kind(game, next), STORE_ENTRY_SKIP);
	ck_assert_int_eq(to_act(game, NULL), (seat + 1) % 3);
	ck_assert_int_eq(outbox("skipped"), 1);
	audit_ok(game);
}
END_TEST

START_TEST(test_absent_and_replace)
{
	struct engine_reply reply;
	char block[4096], err[512];
	int64_t game, t0 = fake_now, next, before;
	struct schedule_stats s;
	int seat;

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"1d\", \"missed\": \"absent\"}");
	seat = to_act(game, &next);
	tick(t0);
	s = tick(t0 + DAY);
	ck_assert_int_eq(s.absent, 1);
	ck_assert_int_eq(outbox("seat_offered"), 2);
	/* The absent seat's own player may not move... */
	testenv_block(&env, seat, game, next, seat, "play 1", block,
	    sizeof(block));
	before = testenv_rows(&env);
	engine_submit(env.st, env.key, block, strlen(block), RULES_LANG_EN,
	    &reply);
	ck_assert_int_eq(reply.status, ENGINE_REFUSED);
	ck_assert_ptr_nonnull(strstr(reply.message, "marked absent"));
	ck_assert_int_eq(testenv_rows(&env), before);
	engine_reply_clear(&reply);
	/* ...nothing more happens while the seat is offered... */
	s = tick(t0 + 5 * DAY);
	ck_assert_int_eq(s.absent + s.auto_moves, 0);
	/* ...and player 1 (who holds the other seat) cannot take it. */
	ck_assert_int_eq(engine_replace(env.st, env.key, game, seat,
	    env.player_id[1 - seat], fake_now, err, sizeof(err)),
	    ENGINE_BAD_REQUEST);
	ck_assert_ptr_nonnull(strstr(err, "one seat each"));
	/* Player 3 takes the seat. */
	ck_assert_int_eq(engine_replace(env.st, env.key, game, seat,
	    env.player_id[3], fake_now, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(entry_kind(game, next), STORE_ENTRY_REPLACE);
	next++;
	/* The old key no longer works for the seat; the new one does. */
	ck_assert_int_eq(play_as(game, seat), ENGINE_BAD_SIGNATURE);
	ck_assert_int_eq(play_as(game, 3), ENGINE_OK);
	audit_ok(game);
}
END_TEST

/* play_first signs with player == seat; after a replacement sign with the
 * new player's key. */
START_TEST(test_replacement_audit_and_bundle)
{
	char err[512];
	int64_t game, next;
	json_t *bundle;
	struct audit_log log;
	struct audit_report report;
	struct store_game row;
	int seat;

	game = testenv_game(&env, "template", 2);
	play_first(game);
	ck_assert_int_eq(engine_replace(env.st, env.key, game, 0,
	    env.player_id[2], fake_now, err, sizeof(err)), ENGINE_OK);
	/* Play the game out: seat 0 is now player 2. */
	while ((seat = to_act(game, &next)) >= 0)
		ck_assert_int_eq(play_as(game, seat == 0 ? 2 : seat),
		    ENGINE_OK);
	audit_ok(game);
	/* The exported bundle verifies offline, the key handed over
	 * included. */
	bundle = bundle_export(env.st, game, err, sizeof(err));
	ck_assert_ptr_nonnull(bundle);
	ck_assert_int_eq(bundle_read(bundle, &log, err, sizeof(err)), 0);
	ck_assert_msg(audit_run(&log, &report, NULL, NULL) == 0, "%s",
	    report.reason);
	ck_assert_int_eq(report.replayed, 1);
	audit_log_clear(&log);
	json_decref(bundle);
	/* Altering the recorded key is caught at that entry. */
	testenv_flip(&env, "log", "text", game, 2, 40);
	ck_assert_int_eq(audit_load_store(env.st, game, &log, &row, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(audit_run(&log, &report, NULL, NULL), -1);
	ck_assert_int_eq(report.bad_seq, 2);
	audit_log_clear(&log);
	store_game_clear(&row);
}
END_TEST

START_TEST(test_vacation)
{
	char err[512];
	int64_t game, t0 = fake_now, before;
	struct schedule_stats s;
	int seat;

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"2d\", \"reminders\": [\"1h\"], "
	    "\"missed\": \"default\", \"vacation_max\": \"5d\"}");
	seat = to_act(game, NULL);
	tick(t0);
	/* Away from day 1 to day 4: the deadline moves from 2d to 5d. */
	ck_assert_int_eq(engine_vacation(env.st, game, seat, 0, t0 + DAY,
	    t0 + 4 * DAY, t0, RULES_LANG_EN, err,
	    sizeof(err)), ENGINE_OK);
	before = testenv_rows(&env);
	ck_assert_int_eq(engine_vacation(env.st, game, seat, 0, t0 + 5 * DAY,
	    t0 + 6 * DAY, t0, RULES_LANG_EN, err,
	    sizeof(err)), ENGINE_REFUSED);
	ck_assert_ptr_nonnull(strstr(err, "one at a time"));
	ck_assert_int_eq(engine_vacation(env.st, game, 1 - seat, 0, t0,
	    t0 + 6 * DAY, t0, RULES_LANG_EN, err,
	    sizeof(err)), ENGINE_REFUSED);
	ck_assert_ptr_nonnull(strstr(err, "game allows 5 days"));
	ck_assert_int_eq(engine_vacation(env.st, game, 1 - seat, 0, t0 + DAY,
	    t0, t0, RULES_LANG_EN, err,
	    sizeof(err)), ENGINE_BAD_REQUEST);
	ck_assert_int_eq(testenv_rows(&env), before);
	s = tick(t0 + 2 * DAY);
	ck_assert_int_eq(s.auto_moves + s.reminders, 0);
	s = tick(t0 + 5 * DAY - HOUR);
	ck_assert_int_eq(s.reminders, 1);
	s = tick(t0 + 5 * DAY - 1);
	ck_assert_int_eq(s.auto_moves, 0);
	s = tick(t0 + 5 * DAY);
	ck_assert_int_eq(s.auto_moves, 1);
	/* 3 of the 5 days are used: 2 are left. */
	fake_now = t0 + 6 * DAY;
	ck_assert_int_eq(engine_vacation(env.st, game, seat, 0, fake_now,
	    fake_now + 3 * DAY, fake_now, RULES_LANG_EN, err,
	    sizeof(err)), ENGINE_REFUSED);
	ck_assert_int_eq(engine_vacation(env.st, game, seat, 0, fake_now,
	    fake_now + 2 * DAY, fake_now, RULES_LANG_EN, err,
	    sizeof(err)), ENGINE_OK);
}
END_TEST

START_TEST(test_restart_between_reminder_and_deadline)
{
	char err[512];
	int64_t game, t0 = fake_now;
	struct schedule_stats s;

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"1d\", \"reminders\": [\"2h\"], "
	    "\"missed\": \"default\"}");
	tick(t0);
	s = tick(t0 + 22 * HOUR);
	ck_assert_int_eq(s.reminders, 1);
	/* The daemon stops and starts again. */
	store_close(env.st);
	ck_assert_int_eq(store_open(env.dbpath, &env.st, err, sizeof(err)),
	    STORE_OK);
	s = tick(t0 + 23 * HOUR);
	ck_assert_int_eq(s.reminders + s.auto_moves, 0);
	s = tick(t0 + DAY);
	ck_assert_int_eq(s.auto_moves, 1);
	store_close(env.st);
	ck_assert_int_eq(store_open(env.dbpath, &env.st, err, sizeof(err)),
	    STORE_OK);
	s = tick(t0 + DAY);
	ck_assert_int_eq(s.auto_moves + s.reminders, 0);
	ck_assert_int_eq(outbox("reminder"), 1);
	ck_assert_int_eq(rows("SELECT count(*) FROM log WHERE kind = 2"), 1);
	audit_ok(game);
}
END_TEST

START_TEST(test_resign_two_seats)
{
	struct engine_reply reply;
	struct gamestate gs;
	char err[512], block[4096];
	int64_t game, next;
	json_t *view;
	int seat;

	game = testenv_game(&env, "template", 2);
	seat = to_act(game, &next);
	ck_assert_int_eq(engine_resign(env.st, env.key, game, 5, 0, NULL,
	    fake_now, RULES_LANG_EN, err,
	    sizeof(err)), ENGINE_BAD_SEAT);
	command(seat, game, 1, seat, "resign", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(entry_kind(game, next), STORE_ENTRY_RESIGN);
	ck_assert_int_eq(to_act(game, NULL), -1);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	ck_assert(json_is_true(json_object_get(view, "over")));
	ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(
	    json_object_get(view, "result"), "winners"), 0)), 1 - seat);
	ck_assert_ptr_nonnull(json_object_get(view, "seed"));
	json_decref(view);
	gamestate_clear(&gs);
	/* Nothing more: no move, no second resignation. */
	testenv_block(&env, 1 - seat, game, next + 1, 1 - seat, "play 1",
	    block, sizeof(block));
	engine_submit(env.st, env.key, block, strlen(block), RULES_LANG_EN,
	    &reply);
	ck_assert_int_eq(reply.status, ENGINE_GAME_OVER);
	engine_reply_clear(&reply);
	ck_assert_int_eq(engine_resign(env.st, env.key, game, 1 - seat, 0,
	    NULL, fake_now, RULES_LANG_EN, err,
	    sizeof(err)), ENGINE_GAME_OVER);
	audit_ok(game);
}
END_TEST

/* A seat that resigned is never among the winners, even when its default
 * moves scored best; if every winner resigned, the best of the others win. */
static void
check_resigned_never_win(int64_t game)
{
	struct gamestate gs;
	json_t *view, *winners, *scores, *w;
	unsigned all = 0;
	double best = -1e300;
	size_t i;
	char err[512];

	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_uint_eq(gs.resigned, 1u << 1);
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	winners = json_object_get(json_object_get(view, "result"), "winners");
	ck_assert_int_gt(json_array_size(winners), 0);
	json_array_foreach(winners, i, w) {
		ck_assert_int_ne(json_integer_value(w), 1);
		all |= 1u << json_integer_value(w);
	}
	json_decref(view);
	/* Pretend every winner resigned too: the best remaining score wins. */
	gs.resigned |= all;
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	scores = json_object_get(json_object_get(view, "result"), "scores");
	winners = json_object_get(json_object_get(view, "result"), "winners");
	for (i = 0; i < json_array_size(scores); i++)
		if ((gs.resigned & (1u << i)) == 0 &&
		    json_number_value(json_array_get(scores, i)) > best)
			best = json_number_value(json_array_get(scores, i));
	if (gs.resigned != (1u << gs.game.nseats) - 1) {
		ck_assert_int_gt(json_array_size(winners), 0);
		json_array_foreach(winners, i, w) {
			ck_assert((gs.resigned &
			    (1u << json_integer_value(w))) == 0);
			ck_assert(json_number_value(json_array_get(scores,
			    (size_t)json_integer_value(w))) == best);
		}
	}
	json_decref(view);
	gamestate_clear(&gs);
}

START_TEST(test_resign_three_seats_plays_on)
{
	char err[512];
	int64_t game, t = fake_now;
	int guard;

	game = testenv_game(&env, "template", 3);
	ck_assert_int_eq(engine_resign(env.st, env.key, game, 1, 0, NULL,
	    fake_now, RULES_LANG_EN, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_ge(to_act(game, NULL), 0);	/* the game goes on */
	for (guard = 0; to_act(game, NULL) >= 0 && guard < 100; guard++) {
		if (to_act(game, NULL) == 1)
			tick(++t);	/* the resigned seat's default move */
		else
			play_first(game);
	}
	ck_assert_int_eq(to_act(game, NULL), -1);
	ck_assert_int_ge(rows("SELECT count(*) FROM log WHERE kind = 2"), 1);
	audit_ok(game);
	check_resigned_never_win(game);
}
END_TEST

START_TEST(test_call_off)
{
	struct engine_reply reply;
	int64_t game, before;

	game = testenv_game(&env, "template", 2);
	command(0, game, 3, 0, "call off", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	ck_assert_ptr_nonnull(strstr(reply.message, "vote recorded"));
	engine_reply_clear(&reply);
	ck_assert_int_eq(outbox("call_off_vote"), 1);
	ck_assert_int_ge(to_act(game, NULL), 0);
	/* The same signed command again is refused and changes nothing. */
	before = testenv_rows(&env);
	command(0, game, 3, 0, "call off", &reply);
	ck_assert_int_eq(reply.status, ENGINE_STALE_SEQ);
	engine_reply_clear(&reply);
	ck_assert_int_eq(testenv_rows(&env), before);
	command(1, game, 1, 1, "annuler la partie", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	ck_assert_ptr_nonnull(strstr(reply.message, "called off"));
	engine_reply_clear(&reply);
	ck_assert_int_eq(to_act(game, NULL), -1);
	ck_assert_int_eq(entry_kind(game, 1), STORE_ENTRY_CALL_OFF);
	audit_ok(game);
}
END_TEST

/* Bug 13: a second vote is refused and announces nothing; a vote can be
 * taken back; the answer and the announcement give the tally. */
START_TEST(test_call_off_tally_and_withdraw)
{
	struct engine_reply reply;
	int64_t game;

	game = testenv_game(&env, "template", 3);
	command(0, game, 1, 0, "call off", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	ck_assert_msg(strstr(reply.message, "1 of 3 seats") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(outbox("call_off_vote"), 2);
	command(0, game, 2, 0, "call off", &reply);
	ck_assert_int_eq(reply.status, ENGINE_REFUSED);
	ck_assert_msg(strstr(reply.message, "already voted") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(outbox("call_off_vote"), 2);	/* no second notice */
	command(1, game, 1, 1, "call off", &reply);
	ck_assert_msg(strstr(reply.message, "2 of 3 seats") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	command(0, game, 3, 0, "keep playing", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	ck_assert_msg(strstr(reply.message, "1 of 3 seats") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(rows("SELECT count(*) FROM outbox WHERE event = "
	    "'call_off_vote' AND payload LIKE '%\"withdrawn\":true%'"), 2);
	command(2, game, 1, 2, "call off", &reply);	/* 2 of 3: goes on */
	engine_reply_clear(&reply);
	ck_assert_int_ge(to_act(game, NULL), 0);
	command(0, game, 4, 0, "continuer la partie", &reply);
	ck_assert_int_eq(reply.status, ENGINE_REFUSED);	/* no vote to take */
	engine_reply_clear(&reply);
	command(0, game, 4, 0, "call off", &reply);
	ck_assert_msg(strstr(reply.message, "called off") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(to_act(game, NULL), -1);
}
END_TEST

/* Bug 12: an absent seat has no say -- no vote, press, vacation or
 * resignation -- and does not win when its only opponent resigns. */
START_TEST(test_absent_seat_has_no_say)
{
	struct engine_reply reply;
	struct gamestate gs;
	char err[512];
	int64_t game, t0 = fake_now;
	json_t *view, *winners;
	int seat;
	static const char *const texts[] = { "call off", "press all: hi",
	    "vacation 2024-02-01 2024-02-03", "resign" };
	size_t i;

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"2h\", \"reminders\": [], "
	    "\"missed\": \"absent\"}");
	seat = to_act(game, NULL);
	(void)tick(t0);
	(void)tick(t0 + 2 * HOUR);
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		command(seat, game, (int64_t)i + 1, seat, texts[i], &reply);
		ck_assert_msg(reply.status == ENGINE_REFUSED, "%s: %s",
		    texts[i], reply.message);
		ck_assert_msg(strstr(reply.message, "absent") != NULL, "%s",
		    reply.message);
		engine_reply_clear(&reply);
	}
	command(1 - seat, game, 1, 1 - seat, "resign", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	winners = json_object_get(json_object_get(view, "result"), "winners");
	ck_assert(json_is_array(winners));
	ck_assert_int_eq(json_array_size(winners), 0);
	json_decref(view);
	gamestate_clear(&gs);
}
END_TEST

/* Item 4: a vacation starting absurdly far ahead is refused with the
 * bound; one can be cancelled, and its days go back to the allowance. */
START_TEST(test_vacation_bounds_and_cancel)
{
	struct engine_reply reply;
	int64_t game;

	game = testenv_game(&env, "template", 2);
	command(0, game, 1, 0, "vacation 2031-01-10 2031-01-12", &reply);
	ck_assert_int_eq(reply.status, ENGINE_BAD_REQUEST);
	ck_assert_msg(strstr(reply.message, "within 180 days") != NULL &&
	    strstr(reply.message, "2024-06-29") != NULL, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(rows("SELECT away_until FROM seats WHERE seat = 0"),
	    0);
	command(0, game, 1, 0, "vacation 2024-01-10 2024-01-20", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	command(0, game, 2, 0, "vacation 2024-01-22 2024-01-23", &reply);
	ck_assert_int_eq(reply.status, ENGINE_REFUSED);
	ck_assert_msg(strstr(reply.message, "until 2024-01-20") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	command(0, game, 2, 0, "vacances annuler", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(rows("SELECT away_used FROM seats WHERE seat = 0"),
	    0);
	command(0, game, 3, 0, "vacation cancel", &reply);
	ck_assert_int_eq(reply.status, ENGINE_REFUSED);
	engine_reply_clear(&reply);
	/* The whole allowance (14 days) is free again. */
	command(0, game, 3, 0, "vacation 2024-01-22 2024-02-04", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
}
END_TEST

/* Item 5: a game's master, with signed commands: extend the turn, change
 * the policy so it applies to the late turn, pause and resume the clock,
 * force the missed-deadline outcome now; nobody else's key will do, and
 * a command number serves once. */
START_TEST(test_game_master)
{
	struct engine_reply reply;
	struct schedule_stats s;
	struct gamestate gs;
	json_t *view;
	char err[512];
	int64_t game, t0 = fake_now, t, before;
	int seat;

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"wait\"}");
	command(2, game, 1, 0, "gm force", &reply);
	ck_assert_int_eq(reply.status, ENGINE_REFUSED);
	ck_assert_msg(strstr(reply.message, "no game master") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(engine_master_name(env.st, game, env.player_id[2],
	    err, sizeof(err)), ENGINE_OK);
	command(0, game, 1, 0, "gm extend 24h", &reply);
	ck_assert_int_eq(reply.status, ENGINE_BAD_SIGNATURE);
	engine_reply_clear(&reply);
	(void)tick(t0);
	command(2, game, 1, 0, "gm extend 24h", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	command(2, game, 1, 0, "gm extend 24h", &reply);
	ck_assert_int_eq(reply.status, ENGINE_STALE_SEQ);
	engine_reply_clear(&reply);
	s = tick(t0 + 24 * HOUR);
	ck_assert_int_eq(s.late, 0);			/* extended */
	s = tick(t0 + 48 * HOUR);
	ck_assert_int_eq(s.late, 1);
	seat = to_act(game, NULL);
	command(2, game, 2, 0, "mj politique missed=default", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	s = tick(t0 + 49 * HOUR);
	ck_assert_int_eq(s.auto_moves, 1);		/* the late turn */
	ck_assert_int_ne(to_act(game, NULL), seat);

	/* Paused: no clock runs; resumed: the turn gets the time back. */
	t = t0 + 49 * HOUR;
	command(2, game, 3, 0, "gm pause", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	s = tick(t + 10 * DAY);
	ck_assert_int_eq(s.auto_moves, 0);
	ck_assert_int_eq(s.reminders + s.deadlines + s.late, 0);
	/* A paused game takes no move, and says who paused it and when. */
	before = testenv_rows(&env);
	ck_assert_int_eq(play_as(game, -1), ENGINE_REFUSED);
	ck_assert_int_eq(testenv_rows(&env), before);
	ck_assert_int_eq(engine_master_paused(env.st, game, RULES_LANG_FR,
	    "Europe/Paris", err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_msg(strstr(err, "son maître du jeu, ") != NULL &&
	    strstr(err, "mercredi 3 janvier 2024, 11:00 (Europe/Paris)") !=
	    NULL && strstr(err, "mj reprendre") != NULL, "%s", err);
	ck_assert_int_eq(engine_master_paused(env.st, game, RULES_LANG_EN,
	    "", err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_msg(strstr(err, "paused it on Wednesday 3 January 2024, "
	    "10:00") != NULL && strstr(err, "resumes it") != NULL, "%s", err);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	view = json_object();
	engine_view_deadlines(env.st, &gs, t + 10 * DAY, view);
	ck_assert_ptr_null(json_object_get(view, "deadlines"));
	ck_assert_str_eq(json_string_value(json_object_get(view,
	    "paused_since")), "2024-01-03T10:00:00Z");
	json_decref(view);
	gamestate_clear(&gs);
	fake_now = t + 10 * DAY;
	command(2, game, 4, 0, "gm resume", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	view = json_object();
	engine_view_deadlines(env.st, &gs, t + 10 * DAY, view);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(
	    json_object_get(view, "deadlines"), 0), "deadline")),
	    "2024-01-14T10:00:00Z");		/* a day after resuming */
	json_decref(view);
	gamestate_clear(&gs);
	s = tick(t + 10 * DAY + 23 * HOUR);
	ck_assert_int_eq(s.auto_moves, 0);
	s = tick(t + 11 * DAY);
	ck_assert_int_eq(s.auto_moves, 1);

	/* Forced: the outcome now, once; the next turn has its own clock. */
	seat = to_act(game, NULL);
	fake_now = t + 11 * DAY + HOUR;
	command(2, game, 5, 0, "gm force", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_ne(to_act(game, NULL), seat);
	ck_assert_int_eq(rows("SELECT count(*) FROM log WHERE kind = 2"), 3);
	audit_ok(game);
}
END_TEST

/* A two-seat Ladder game under policy whose master is player 2. */
static int64_t
mastered_game(const char *policy)
{
	return testenv_mastered_game(&env, 2, policy, 2);
}

/* The master's signed command number n, text, done at fake_now. */
static void
master_does(int64_t game, int64_t n, const char *text)
{
	struct engine_reply reply;

	command(2, game, n, 0, text, &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s: %s", text,
	    reply.message);
	engine_reply_clear(&reply);
}

/* Late under wait at t0 + 24 h (each seat told), then extended by the
 * master at t0 + 30 h: the new deadline is t0 + 48 h. */
static void
late_then_extended(int64_t game, int64_t t0)
{
	struct schedule_stats s;

	(void)tick(t0);
	s = tick(t0 + 24 * HOUR);
	ck_assert_int_eq(s.late, 1);
	ck_assert_int_eq(outbox("late"), 2);
	fake_now = t0 + 30 * HOUR;
	master_does(game, 1, "gm extend 24h");
}

/* A turn late under wait that the master extends is announced late
 * again when its new deadline passes, once, with its repeats counted
 * from there. */
START_TEST(test_extend_late_again)
{
	struct schedule_stats s;
	int64_t game, t0 = fake_now;

	game = mastered_game("{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"wait\"}");
	late_then_extended(game, t0);
	s = tick(t0 + 47 * HOUR);
	ck_assert_int_eq(s.late, 0);
	s = tick(t0 + 48 * HOUR);
	ck_assert_int_eq(s.late, 1);			/* late again */
	ck_assert_int_eq(outbox("late"), 4);
	s = tick(t0 + 49 * HOUR);
	ck_assert_int_eq(s.late, 0);			/* once */
	ck_assert_int_eq(outbox("late"), 4);
}
END_TEST

/* A reminder already sent goes out again before the new deadline of a
 * turn the master extended, once. */
START_TEST(test_extend_reminds_again)
{
	struct schedule_stats s;
	int64_t game, t0 = fake_now;

	game = mastered_game("{\"turn_time\": \"24h\", \"reminders\": "
	    "[\"1h\"], \"missed\": \"wait\"}");
	(void)tick(t0);
	s = tick(t0 + 23 * HOUR);
	ck_assert_int_eq(s.reminders, 1);
	fake_now = t0 + 23 * HOUR + 1800;
	master_does(game, 1, "gm extend 24h");
	s = tick(t0 + 24 * HOUR);
	ck_assert_int_eq(s.reminders + s.late, 0);
	s = tick(t0 + 47 * HOUR);
	ck_assert_int_eq(s.reminders, 1);		/* before the new one */
	s = tick(t0 + 47 * HOUR + 1800);
	ck_assert_int_eq(s.reminders, 0);		/* once */
	ck_assert_int_eq(outbox("reminder"), 2);
}
END_TEST

/* Per-key rate limits charge a master's command to the master's key,
 * not to the key of the seat its block names. */
START_TEST(test_master_block_key)
{
	unsigned char key[STORE_KEY_BYTES];
	struct store_player master, seat0;
	struct proto_move m;
	int64_t game;

	game = mastered_game("{\"turn_time\": \"24h\"}");
	ck_assert_int_eq(store_player_get(env.st, env.player_id[2], &master),
	    STORE_OK);
	ck_assert_int_eq(store_player_get(env.st, env.player_id[0], &seat0),
	    STORE_OK);
	memset(&m, 0, sizeof(m));
	m.game_id = game;
	m.seat = 0;
	snprintf(m.text, sizeof(m.text), "gm pause");
	ck_assert_int_eq(engine_block_seat_key(env.st, &m, key), 0);
	ck_assert_int_eq(memcmp(key, master.pubkey, STORE_KEY_BYTES), 0);
	snprintf(m.text, sizeof(m.text), "press all: hi");
	ck_assert_int_eq(engine_block_seat_key(env.st, &m, key), 0);
	ck_assert_int_eq(memcmp(key, seat0.pubkey, STORE_KEY_BYTES), 0);
}
END_TEST

/* With late_every, the repeats of an extended late turn count from its
 * new deadline: none while the extension runs, the late notice once at
 * the new deadline, then one repeat to the late seat every late_every. */
START_TEST(test_extend_late_every)
{
	struct schedule_stats s;
	int64_t game, t0 = fake_now;

	game = mastered_game("{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"wait\", \"late_every\": \"12h\"}");
	late_then_extended(game, t0);
	s = tick(t0 + 36 * HOUR);			/* no repeat: extended */
	ck_assert_int_eq(s.late, 0);
	s = tick(t0 + 48 * HOUR);
	ck_assert_int_eq(s.late, 1);			/* late again, to all */
	ck_assert_int_eq(outbox("late"), 4);
	s = tick(t0 + 59 * HOUR);
	ck_assert_int_eq(s.late, 0);
	s = tick(t0 + 60 * HOUR);
	ck_assert_int_eq(s.late, 1);			/* the late seat only */
	ck_assert_int_eq(outbox("late"), 5);
	s = tick(t0 + 61 * HOUR);
	ck_assert_int_eq(s.late, 0);
	s = tick(t0 + 72 * HOUR);
	ck_assert_int_eq(s.late, 1);
	ck_assert_int_eq(outbox("late"), 6);
}
END_TEST

START_TEST(test_press)
{
	struct engine_reply reply;
	char err[512];
	int64_t game, id, before;
	json_t *list;

	game = testenv_game(&env, "template", 3);
	command(0, game, 1, 0, "press 1: meet me at the pile", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(outbox("press"), 1);
	command(2, game, 1, 2, "message tous : bonjour à tous", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(outbox("press"), 3);
	/* Seat 2 reads its own message only, not 0's to 1. */
	list = engine_press_list(env.st, game, 2);
	ck_assert_int_eq(json_array_size(list), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(
	    list, 0), "text")), "bonjour à tous");
	json_decref(list);
	list = engine_press_list(env.st, game, 1);
	ck_assert_int_eq(json_array_size(list), 2);
	json_decref(list);
	/* Refusals change nothing. */
	before = testenv_rows(&env) + rows("SELECT count(*) FROM press");
	command(0, game, 2, 0, "press 9: hello", &reply);
	ck_assert_int_eq(reply.status, ENGINE_SYNTAX);
	engine_reply_clear(&reply);
	command(0, game, 2, 0, "press 0: to myself", &reply);
	ck_assert_int_eq(reply.status, ENGINE_BAD_REQUEST);
	engine_reply_clear(&reply);
	command(1, game, 2, 0, "press all: forged", &reply);
	ck_assert_int_eq(reply.status, ENGINE_BAD_SIGNATURE);
	engine_reply_clear(&reply);
	set_policy(game, "{\"press\": false}");
	ck_assert_int_eq(engine_press(env.st, game, 0, 0, 0x2, "hi", fake_now,
	    &id, err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_ptr_nonnull(strstr(err, "disabled"));
	ck_assert_int_eq(testenv_rows(&env) + rows("SELECT count(*) FROM "
	    "press"), before);
}
END_TEST

START_TEST(test_commands)
{
	struct engine_reply reply;
	int64_t game;

	game = testenv_game(&env, "template", 2);
	command(0, game, 1, 0, "vacation 2024-01-10 2024-01-12", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	/* A day that does not exist is refused, not rolled into March. */
	command(0, game, 2, 0, "vacation 2025-02-31 2025-03-02", &reply);
	ck_assert_int_eq(reply.status, ENGINE_SYNTAX);
	engine_reply_clear(&reply);
	command(0, game, 2, 0, "vacances demain", &reply);
	ck_assert_int_eq(reply.status, ENGINE_SYNTAX);
	ck_assert_ptr_nonnull(strstr(reply.message, "YYYY-MM-DD"));
	engine_reply_clear(&reply);
	command(0, game, 2, 0, "resign now", &reply);
	ck_assert_int_eq(reply.status, ENGINE_SYNTAX);
	engine_reply_clear(&reply);
	ck_assert_int_eq(engine_is_command("Play 3"), 0);
	ck_assert_int_eq(engine_is_command("Vacances 2024-01-01 2024-01-02"),
	    1);
	ck_assert_int_eq(engine_is_command("pressure"), 0);
	/* engine_handle sends a move to the move path. */
	play_first(game);
	audit_ok(game);
}
END_TEST

/* Bugs 6, 7, 8: an unknown policy field is named as unknown whatever its
 * value; "Resign." and "call off!" are commands; a day that does not
 * exist is named in the answer. */
START_TEST(test_command_and_policy_words)
{
	const struct rules_module *tpl = rules_find("template");
	struct engine_reply reply;
	struct policy p;
	char err[512];
	int64_t game;

	policy_default(&p);
	ck_assert_int_eq(policy_set_field("tempo=fast", tpl, &p, err,
	    sizeof(err)), -1);
	ck_assert_msg(strstr(err, "unknown policy field \"tempo\"") != NULL,
	    "%s", err);
	ck_assert_int_eq(policy_set_field("late_every=12h", tpl, &p, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(p.late_every, 12 * HOUR);
	ck_assert_int_eq(policy_set_field("late_every=10m", tpl, &p, err,
	    sizeof(err)), -1);
	ck_assert_int_eq(engine_is_command("Resign."), 1);
	ck_assert_int_eq(engine_is_command("call off!"), 1);
	ck_assert_int_eq(engine_is_command("resigned"), 0);
	game = testenv_game(&env, "template", 3);
	command(0, game, 1, 0, "vacation 2027-02-30 2027-03-02", &reply);
	ck_assert_int_eq(reply.status, ENGINE_SYNTAX);
	ck_assert_msg(strstr(reply.message, "\"2027-02-30\" is not a date") !=
	    NULL, "%s", reply.message);
	engine_reply_clear(&reply);
	command(0, game, 1, 0, "Call off.", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	command(1, game, 1, 1, "Resign.", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(rows("SELECT count(*) FROM log WHERE kind = 4"), 1);
	ck_assert_int_eq(rows("SELECT count(*) FROM log WHERE kind = 1"), 0);
}
END_TEST

/* Every refusal a player or master reads exists in French: the policy's,
 * a used command number, press. */
START_TEST(test_refusals_in_french)
{
	const struct rules_module *tpl = rules_find("template");
	struct engine_reply reply;
	struct policy p;
	char err[512];
	int64_t game;

	policy_default(&p);
	ck_assert_int_eq(policy_set_field_in("tempo=fast", tpl, &p,
	    RULES_LANG_FR, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "champ de politique « tempo » inconnu") !=
	    NULL, "%s", err);
	ck_assert_int_eq(policy_set_field_in("grace=1y", tpl, &p,
	    RULES_LANG_FR, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "valeur incorrecte") != NULL, "%s", err);
	ck_assert_int_eq(policy_parse_in("[1]", tpl, &p, RULES_LANG_FR, err,
	    sizeof(err)), -1);
	ck_assert_msg(strstr(err, "une politique est un objet JSON") != NULL,
	    "%s", err);
	ck_assert_int_eq(policy_set_field_in("grace", tpl, &p, RULES_LANG_FR,
	    err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "écrivez CHAMP=VALEUR") != NULL, "%s", err);

	game = testenv_game(&env, "template", 3);
	command_in(RULES_LANG_FR, 0, game, 1, 0, "message 1 : bonjour", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	command_in(RULES_LANG_FR, 0, game, 1, 0, "message 2 : encore", &reply);
	ck_assert_int_eq(reply.status, ENGINE_STALE_SEQ);
	ck_assert_msg(strstr(reply.message, "le numéro de commande 1 du "
	    "siège 0 a déjà servi") != NULL, "%s", reply.message);
	engine_reply_clear(&reply);
	command_in(RULES_LANG_FR, 0, game, 2, 0, "message 0 : à moi", &reply);
	ck_assert_int_eq(reply.status, ENGINE_BAD_REQUEST);
	ck_assert_msg(strstr(reply.message, "nommez au moins un autre siège")
	    != NULL, "%s", reply.message);
	engine_reply_clear(&reply);
	set_policy(game, "{\"press\": false}");
	command_in(RULES_LANG_FR, 0, game, 2, 0, "message tous : coucou", &reply);
	ck_assert_int_eq(reply.status, ENGINE_REFUSED);
	ck_assert_msg(strstr(reply.message, "les messages entre joueurs sont "
	    "désactivés") != NULL, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(engine_master_name(env.st, game, env.player_id[3],
	    err, sizeof(err)), ENGINE_OK);
	command_in(RULES_LANG_FR, 3, game, 1, 0, "mj politique tempo=vite", &reply);
	ck_assert_int_eq(reply.status, ENGINE_BAD_REQUEST);
	ck_assert_msg(strstr(reply.message, "inconnu") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	command_in(RULES_LANG_FR, 3, game, 1, 0, "mj pause", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	command_in(RULES_LANG_FR, 3, game, 1, 0, "mj reprendre", &reply);
	ck_assert_int_eq(reply.status, ENGINE_STALE_SEQ);
	ck_assert_msg(strstr(reply.message, "du maître du jeu de la partie") !=
	    NULL, "%s", reply.message);
	engine_reply_clear(&reply);
}
END_TEST

/* What still works while a game is paused (docs/ASYNC.md): messages,
 * votes to call off and taking them back, vacations, time zones,
 * resigning, and the master's policy and resume; what does not: moves,
 * gm extend and gm force (refused in the reader's language, nothing
 * changed), and the server's own moves (a resigned seat's default
 * waits for the game to resume). */
START_TEST(test_paused_commands)
{
	struct engine_reply reply;
	struct schedule_stats s;
	char err[512];
	int64_t game, before, t0 = fake_now;
	int seat;

	game = testenv_game(&env, "template", 3);
	set_policy(game, "{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"wait\"}");
	ck_assert_int_eq(engine_master_name(env.st, game, env.player_id[3],
	    err, sizeof(err)), ENGINE_OK);
	(void)tick(t0);
	command(3, game, 1, 0, "gm pause", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	seat = to_act(game, NULL);

	before = testenv_rows(&env);
	ck_assert_int_eq(play_as(game, -1), ENGINE_REFUSED);
	command_in(RULES_LANG_FR, 3, game, 2, 0, "mj prolonger 24h", &reply);
	ck_assert_int_eq(reply.status, ENGINE_REFUSED);
	ck_assert_msg(strstr(reply.message, "est en pause") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	command(3, game, 2, 0, "gm force", &reply);
	ck_assert_int_eq(reply.status, ENGINE_REFUSED);
	ck_assert_msg(strstr(reply.message, "is paused") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(testenv_rows(&env), before);

	command(0, game, 1, 0, "press all: shall we wait?", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	command(1, game, 1, 1, "vacation 2024-01-10 2024-01-12", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	command(0, game, 2, 0, "call off", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	command(0, game, 3, 0, "keep playing", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	command(2, game, 1, 2, "timezone Europe/Paris", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	command(3, game, 2, 0, "gm policy missed=default", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);

	/* The seat to act resigns: the server plays for it only once the
	 * game runs again. */
	command(seat, game, seat == 0 ? 4 : 2, seat, "resign", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	s = tick(t0 + 3 * DAY);
	ck_assert_int_eq(s.auto_moves, 0);
	ck_assert_int_eq(to_act(game, NULL), seat);
	fake_now = t0 + 3 * DAY;
	command(3, game, 3, 0, "gm resume", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	s = tick(t0 + 3 * DAY + HOUR);
	ck_assert_int_eq(s.auto_moves, 1);
	ck_assert_int_ne(to_act(game, NULL), seat);
	audit_ok(game);
}
END_TEST

/* Bug 9: a pass by hand may not go back before the last one that fired
 * a timer, nor years ahead. */
START_TEST(test_tick_time_bounds)
{
	int64_t game, t0 = fake_now;
	char err[512];

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"48h\", \"reminders\": [\"24h\"]}");
	ck_assert_int_eq(schedule_check_time(env.st, t0, t0, err,
	    sizeof(err)), 0);
	(void)tick(t0 + 24 * HOUR);
	ck_assert_int_eq(outbox("reminder"), 1);
	ck_assert_int_eq(schedule_check_time(env.st, t0 + HOUR, t0, err,
	    sizeof(err)), -1);
	ck_assert_msg(strstr(err, "before the last pass") != NULL, "%s", err);
	ck_assert_msg(strstr(err, "2024-01-02T09:00:00Z") != NULL, "%s", err);
	ck_assert_int_eq(schedule_check_time(env.st, t0 + 1000LL * DAY, t0,
	    err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "days ahead") != NULL, "%s", err);
	ck_assert_int_eq(schedule_check_time(env.st, t0 + 30 * HOUR, t0, err,
	    sizeof(err)), 0);
}
END_TEST

/* Bug 10: after a gap between passes, no notice promises time that is
 * gone: only the newest reminder, and no grace notice once the grace
 * is over. */
START_TEST(test_gap_drops_stale_notices)
{
	int64_t game, t0 = fake_now;
	struct schedule_stats s;

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"48h\", \"reminders\": [\"24h\", "
	    "\"1h\"], \"grace\": \"6h\", \"missed\": \"default\"}");
	(void)tick(t0);
	s = tick(t0 + 47 * HOUR + 30 * 60);	/* past both reminders */
	ck_assert_int_eq(s.reminders, 1);
	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"48h\", \"reminders\": [], "
	    "\"grace\": \"6h\", \"missed\": \"default\"}");
	(void)tick(t0);
	s = tick(t0 + 60 * HOUR);		/* past the grace too */
	ck_assert_int_eq(s.deadlines, 0);
	ck_assert_int_eq(s.auto_moves, 1);
}
END_TEST

/* Bug 11 and late_every: a late turn under wait gets a late notice again
 * every late_every, and switching the policy to default then plays the
 * default move for the turn already late. */
START_TEST(test_wait_then_default)
{
	int64_t game, t0 = fake_now, next;
	struct schedule_stats s;
	int seat;

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"wait\", \"late_every\": \"12h\"}");
	seat = to_act(game, &next);
	(void)tick(t0);
	s = tick(t0 + 24 * HOUR);
	ck_assert_int_eq(s.late, 1);
	ck_assert_int_eq(outbox("late"), 2);
	s = tick(t0 + 30 * HOUR);
	ck_assert_int_eq(s.late, 0);
	s = tick(t0 + 36 * HOUR);
	ck_assert_int_eq(s.late, 1);			/* again, to the seat */
	ck_assert_int_eq(outbox("late"), 3);
	s = tick(t0 + 37 * HOUR);
	ck_assert_int_eq(s.late, 0);
	set_policy(game, "{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"default\"}");
	s = tick(t0 + 38 * HOUR);
	ck_assert_int_eq(s.auto_moves, 1);
	ck_assert_int_ne(to_act(game, NULL), seat);
	audit_ok(game);
}
END_TEST

/* Bug 17: a reminder 24 hours before the deadline counts the same
 * playing time as the deadline: with weekends paused, a turn from
 * Thursday 09:00 with 48 hours ends on Monday 09:00, and the reminder
 * goes when 24 counted hours are left, on Friday 09:00 -- not on Sunday
 * 09:00, in the paused weekend. */
START_TEST(test_reminder_in_playing_time)
{
	int64_t game, thursday = MONDAY + 3 * DAY + 9 * HOUR;
	struct schedule_stats s;

	fake_now = thursday;
	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"48h\", \"reminders\": [\"24h\"], "
	    "\"weekends\": \"pause\", \"missed\": \"wait\"}");
	(void)tick(thursday);
	s = tick(thursday + DAY - 1);
	ck_assert_int_eq(s.reminders, 0);
	s = tick(thursday + DAY);		/* Friday 09:00 */
	ck_assert_int_eq(s.reminders, 1);
	s = tick(thursday + 3 * DAY);		/* Sunday 09:00 */
	ck_assert_int_eq(s.reminders, 0);
	s = tick(thursday + 4 * DAY);		/* Monday 09:00: late */
	ck_assert_int_eq(s.late, 1);
}
END_TEST

/* In Parry, a strike asks every other seat alike, whoever holds a parry. */
START_TEST(test_response_window)
{
	struct engine_reply reply;
	struct gamestate gs;
	char err[512], move[32];
	int64_t game, t0 = fake_now, next;
	struct schedule_stats s;
	json_t *view;
	int seats[8], n, i, striker, round;

	for (round = 0; round < 6; round++) {
		game = testenv_game(&env, "respond", 3);
		set_policy(game, "{\"turn_time\": \"3d\", \"response_time\": "
		    "\"12h\", \"reminders\": [\"1h\"], \"missed\": \"wait\"}");
		striker = to_act(game, &next);
		ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
		    sizeof(err)), ENGINE_OK);
		ck_assert_int_eq(gs.module->default_move(gs.state, striker,
		    move, sizeof(move)), RULES_OK);
		gamestate_clear(&gs);
		testenv_play(&env, game, next, striker, move, &reply);
		if (strcmp(move, "pass") == 0) {
			engine_reply_clear(&reply);
			continue;
		}
		ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
		engine_reply_clear(&reply);
		ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
		    sizeof(err)), ENGINE_OK);
		n = gs.module->to_act(gs.state, seats, 8);
		ck_assert_int_eq(n, 2);
		for (i = 0; i < n; i++)
			ck_assert_int_ne(seats[i], striker);
		ck_assert_int_ne(gs.module->response_window(gs.state), 0);
		view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
		ck_assert_int_eq(json_array_size(json_object_get(view,
		    "to_act")), 2);
		json_decref(view);
		gamestate_clear(&gs);
		ck_assert_int_eq(rows("SELECT count(*) FROM outbox WHERE "
		    "event = 'your_turn'") >= 2, 1);
		/* One seat passes; the window keeps its clock. */
		fake_now = t0 + 6 * HOUR;
		testenv_play(&env, game, next + 1, seats[0], "pass", &reply);
		ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
		engine_reply_clear(&reply);
		s = tick(t0 + 11 * HOUR);
		ck_assert_int_eq(s.reminders, 1);
		s = tick(t0 + 12 * HOUR);
		ck_assert_int_eq(s.auto_moves, 1);	/* the window closes */
		ck_assert_int_eq(entry_kind(game, next + 2), STORE_ENTRY_AUTO);
		ck_assert_int_eq(to_act(game, NULL) != striker ||
		    to_act(game, NULL) == -1, 1);
		ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
		    sizeof(err)), ENGINE_OK);
		ck_assert_int_eq(gs.module->response_window(gs.state), 0);
		gamestate_clear(&gs);
		audit_ok(game);
		fake_now = t0;
	}
}
END_TEST

START_TEST(test_observers)
{
	char err[512];
	int64_t game;

	game = testenv_game(&env, "template", 2);
	ck_assert_int_eq(engine_observe(env.st, game, "watcher@example.org",
	    "fr", fake_now, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(engine_observe(env.st, game, "watcher@example.org",
	    "fr", fake_now, err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_int_eq(engine_observe(env.st, game, "not an address", "en",
	    fake_now, err, sizeof(err)), ENGINE_BAD_REQUEST);
	ck_assert_int_eq(engine_observe(env.st, 99, "w@example.org", "en",
	    fake_now, err, sizeof(err)), ENGINE_UNKNOWN_GAME);
	play_first(game);
	ck_assert_int_eq(outbox("observer_update"), 1);
	ck_assert_int_eq(rows("SELECT count(*) FROM outbox WHERE event = "
	    "'observer_update' AND payload LIKE '%\"viewer\":\"public\"%' AND "
	    "payload NOT LIKE '%hand%'"), 1);
	ck_assert_int_eq(engine_unobserve(env.st, game, "watcher@example.org",
	    err, sizeof(err)), ENGINE_OK);
	play_first(game);
	ck_assert_int_eq(outbox("observer_update"), 1);
}
END_TEST

/* A statement on a connection of its own (a trigger that injects a
 * failure, and its removal). */
static void
exec_sql(const char *sql)
{
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open(env.dbpath, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* The deadline engine_view_deadlines() gives the first seat to act. */
static void
deadline_is(int64_t game, const char *iso)
{
	struct gamestate gs;
	json_t *view;
	char err[512];

	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	view = json_object();
	engine_view_deadlines(env.st, &gs, fake_now, view);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(
	    json_object_get(view, "deadlines"), 0), "deadline")), iso);
	json_decref(view);
	gamestate_clear(&gs);
}

/* A 48-hour turn of a mastered game starting at t0, whose master
 * pauses it from 10 h to 20 h, and whose seat to act (*seat) declares a
 * vacation from away_from to away_until hours (at away_from: before or
 * during the pause).  The game, resumed at t0 + 20 h. */
static int64_t
vacation_and_pause(int64_t t0, int away_from, int away_until, int *seat)
{
	char err[512];
	int64_t game;

	game = mastered_game("{\"turn_time\": \"48h\", \"reminders\": [], "
	    "\"missed\": \"default\"}");
	*seat = to_act(game, NULL);
	(void)tick(t0);
	if (away_from >= 10) {
		fake_now = t0 + 10 * HOUR;
		master_does(game, 1, "gm pause");
	}
	fake_now = t0 + away_from * HOUR;
	ck_assert_int_eq(engine_vacation(env.st, game, *seat, 0, fake_now,
	    t0 + away_until * HOUR, fake_now, RULES_LANG_EN, err,
	    sizeof(err)), ENGINE_OK);
	if (away_from < 10) {
		fake_now = t0 + 10 * HOUR;
		master_does(game, 1, "gm pause");
	}
	fake_now = t0 + 20 * HOUR;
	master_does(game, 2, "gm resume");
	return game;
}

/* A vacation declared while the game is paused counts its overlap with
 * the pause once: 10 h played, paused from 10 h to 20 h, away from 12 h
 * to 36 h; the 38 h left run from the vacation's end (not 8 h later). */
START_TEST(test_vacation_in_pause_counts_once)
{
	struct schedule_stats s;
	int64_t game, t0 = fake_now;
	int seat;

	game = vacation_and_pause(t0, 12, 36, &seat);
	deadline_is(game, "2024-01-04T11:00:00Z");	/* t0 + 74 h */
	s = tick(t0 + 36 * HOUR);			/* the vacation ends */
	ck_assert_int_eq(s.auto_moves, 0);
	deadline_is(game, "2024-01-04T11:00:00Z");
	s = tick(t0 + 74 * HOUR - 1);
	ck_assert_int_eq(s.auto_moves, 0);
	s = tick(t0 + 74 * HOUR);
	ck_assert_int_eq(s.auto_moves, 1);
	ck_assert_int_ne(to_act(game, NULL), seat);
}
END_TEST

/* A vacation that began before a pause and runs through it counts once
 * too: 48-hour turn, away from 5 h to 30 h, paused from 10 h to 20 h:
 * 5 hours counted before the vacation, the 43 left from 30 h, deadline
 * at 73 h (it was 78 h: the pause's overlap given twice). */
START_TEST(test_vacation_across_pause_counts_once)
{
	struct schedule_stats s;
	int64_t game, t0 = fake_now;
	int seat;

	game = vacation_and_pause(t0, 5, 30, &seat);
	deadline_is(game, "2024-01-04T10:00:00Z");	/* t0 + 73 h */
	s = tick(t0 + 73 * HOUR - 1);
	ck_assert_int_eq(s.auto_moves, 0);
	s = tick(t0 + 73 * HOUR);
	ck_assert_int_eq(s.auto_moves, 1);
	ck_assert_int_ne(to_act(game, NULL), seat);
}
END_TEST

/* Ended inside the pause (away 5 h to 15 h, paused 10 h to 20 h): 5
 * hours before, 43 from 20 h, deadline at 63 h; and a vacation over
 * before the resume has nothing to cancel and gives nothing back. */
START_TEST(test_vacation_ending_in_pause)
{
	char err[512];
	int64_t game, t0 = fake_now, used;
	int seat;

	game = vacation_and_pause(t0, 5, 15, &seat);
	deadline_is(game, "2024-01-04T00:00:00Z");	/* t0 + 63 h */
	used = rows("SELECT sum(away_used) FROM seats");
	ck_assert_int_eq(engine_vacation_cancel(env.st, game, seat, 0,
	    fake_now, RULES_LANG_EN, err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_int_eq(rows("SELECT sum(away_used) FROM seats"), used);
	ck_assert_int_eq(used, 10 * HOUR);
}
END_TEST

/* The master's answer to a gm command is queued in the command's own
 * transaction: when it cannot be queued, the command does not stand
 * (its number stays free, the turn keeps its deadline). */
START_TEST(test_master_answer_in_transaction)
{
	struct engine_reply reply;
	int64_t game, t0 = fake_now;

	game = mastered_game("{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"wait\"}");
	(void)tick(t0);
	exec_sql("CREATE TRIGGER no_answer BEFORE INSERT ON outbox WHEN "
	    "NEW.event = 'master_notice' BEGIN SELECT RAISE(ABORT, "
	    "'injected'); END");
	command(2, game, 1, 0, "gm extend 24h", &reply);
	ck_assert_int_eq(reply.status, ENGINE_INTERNAL);
	engine_reply_clear(&reply);
	ck_assert_int_eq(outbox("clock_changed"), 0);
	deadline_is(game, "2024-01-02T09:00:00Z");
	exec_sql("DROP TRIGGER no_answer");
	master_does(game, 1, "gm extend 24h");		/* the same number */
	ck_assert_int_eq(outbox("master_notice"), 2);	/* named, answer */
	ck_assert_int_eq(outbox("clock_changed"), 2);
	deadline_is(game, "2024-01-03T09:00:00Z");
	ck_assert_int_eq(rows("SELECT count(*) FROM outbox WHERE event = "
	    "'master_notice' AND payload LIKE '%\"what\":\"answer\"%' AND "
	    "payload LIKE '%turn extended by 24h%'"), 1);
}
END_TEST

/* gm force: the master's answer comes after the forced move, at its
 * entry (the board it left); when the move cannot be written, the master
 * hears the error only, never "applied". */
START_TEST(test_force_answer_after_move)
{
	struct engine_reply reply;
	int64_t game, t0 = fake_now;

	game = mastered_game("{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"default\"}");
	(void)tick(t0);
	exec_sql("CREATE TRIGGER no_move BEFORE INSERT ON log BEGIN "
	    "SELECT RAISE(ABORT, 'injected'); END");
	fake_now = t0 + HOUR;
	command(2, game, 1, 0, "gm force", &reply);
	ck_assert_int_ne(reply.status, ENGINE_OK);
	engine_reply_clear(&reply);
	ck_assert_int_eq(rows("SELECT count(*) FROM outbox WHERE event = "
	    "'master_notice' AND payload LIKE '%\"what\":\"answer\"%'"), 0);
	exec_sql("DROP TRIGGER no_move");
	master_does(game, 2, "gm force");
	ck_assert_int_eq(rows("SELECT count(*) FROM outbox WHERE event = "
	    "'master_notice' AND payload LIKE '%\"what\":\"answer\"%'"), 1);
	/* At the forced entry (kind 2), the last. */
	ck_assert_int_eq(rows("SELECT o.seq = (SELECT max(seq) FROM log WHERE "
	    "game_id = o.game_id) AND o.seq = (SELECT seq FROM log WHERE "
	    "game_id = o.game_id AND kind = 2) FROM outbox o WHERE o.event = "
	    "'master_notice' AND o.payload LIKE '%\"what\":\"answer\"%'"),
	    1);
	audit_ok(game);
}
END_TEST

/* The text of entry seq of game (free it). */
static char *
entry_text(int64_t game, int64_t seq)
{
	struct store_entry e;
	char *text;

	ck_assert_int_eq(store_log_get(env.st, game, seq, &e), STORE_OK);
	text = strdup(e.text);
	store_entry_clear(&e);
	return text;
}

/* A turn skipped by gm force before its deadline is recorded as
 * "reason": "forced", one skipped at (or forced after) its deadline as
 * "missed_deadline"; the audit accepts both (docs/LOG.md). */
START_TEST(test_force_skip_reason)
{
	int64_t game, next, t0 = fake_now;
	char *text;

	game = mastered_game("{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"skip\"}");
	(void)tick(t0);
	fake_now = t0 + HOUR;
	master_does(game, 1, "gm force");		/* a day early */
	(void)to_act(game, &next);
	ck_assert_int_eq(entry_kind(game, next - 1), STORE_ENTRY_SKIP);
	text = entry_text(game, next - 1);
	ck_assert_msg(strstr(text, "\"reason\":\"forced\"") != NULL, "%s",
	    text);
	free(text);
	ck_assert_int_eq(rows("SELECT count(*) FROM outbox WHERE event = "
	    "'skipped' AND payload LIKE '%\"forced\":true%'"), 1);
	fake_now = t0 + 26 * HOUR;
	master_does(game, 2, "gm force");		/* past its deadline */
	(void)to_act(game, &next);
	text = entry_text(game, next - 1);
	ck_assert_msg(strstr(text, "\"reason\":\"missed_deadline\"") != NULL,
	    "%s", text);
	free(text);
	ck_assert_int_eq(rows("SELECT count(*) FROM outbox WHERE event = "
	    "'skipped' AND payload NOT LIKE '%\"forced\"%'"), 1);
	(void)tick(t0 + 50 * HOUR);			/* at its deadline */
	(void)to_act(game, &next);
	ck_assert_int_eq(entry_kind(game, next - 1), STORE_ENTRY_SKIP);
	text = entry_text(game, next - 1);
	ck_assert_msg(strstr(text, "\"reason\":\"missed_deadline\"") != NULL,
	    "%s", text);
	free(text);
	audit_ok(game);
}
END_TEST

/* The administrator's `pbemctl game policy' on a running game tells
 * every seat and the master, as the master's `gm policy' does, all
 * assignments or none. */
START_TEST(test_admin_policy_announced)
{
	const char *good[] = { "turn_time=48h", "missed=default" };
	const char *bad[] = { "turn_time=72h", "missed=never" };
	struct policy pol;
	char err[512];
	int64_t game, before, t0 = fake_now;

	game = mastered_game("{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"wait\"}");
	(void)tick(t0);
	before = testenv_rows(&env);
	ck_assert_int_eq(engine_policy_change(env.st, game, bad, 2, err,
	    sizeof(err)), ENGINE_BAD_REQUEST);
	ck_assert_ptr_nonnull(strstr(err, "missed"));
	ck_assert_int_eq(testenv_rows(&env), before);
	ck_assert_int_eq(engine_policy_change(env.st, game, good, 2, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(outbox("clock_changed"), 2);
	ck_assert_int_eq(rows("SELECT count(*) FROM outbox WHERE event = "
	    "'clock_changed' AND payload LIKE '%\"change\":\"turn_time=48h, "
	    "missed=default\"%' AND payload LIKE '%\"by_master\":false%' AND "
	    "payload LIKE '%\"deadline\":1704272400%'"), 2);
	ck_assert_int_eq(rows("SELECT count(*) FROM outbox WHERE event = "
	    "'master_notice' AND payload LIKE '%\"what\":\"clock\"%'"), 1);
	ck_assert_int_eq(engine_policy_get(env.st, game, &pol, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(pol.turn_time, 48 * HOUR);
	ck_assert_int_eq(pol.missed, POLICY_MISSED_DEFAULT);
}
END_TEST

/* "language fr" / "langue en": the seat's player reads in that language
 * from then on; an unknown language is refused and changes nothing. */
START_TEST(test_language_command)
{
	struct engine_reply reply;
	struct store_player p;
	int64_t game, before;

	game = testenv_game(&env, "template", 2);
	before = testenv_rows(&env);
	command(0, game, 1, 0, "language de", &reply);
	ck_assert_int_eq(reply.status, ENGINE_BAD_REQUEST);
	ck_assert_msg(strstr(reply.message, "\"de\" is not a language of this "
	    "server: en (English) or fr (French)") != NULL, "%s",
	    reply.message);
	engine_reply_clear(&reply);
	command(0, game, 1, 0, "language", &reply);
	ck_assert_int_eq(reply.status, ENGINE_SYNTAX);
	engine_reply_clear(&reply);
	ck_assert_int_eq(testenv_rows(&env), before);
	command(0, game, 1, 0, "Language fr", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	ck_assert_ptr_nonnull(strstr(reply.message, "désormais en français"));
	engine_reply_clear(&reply);
	ck_assert_int_eq(store_player_get(env.st, env.player_id[0], &p),
	    STORE_OK);
	ck_assert_str_eq(p.lang, "fr");
	command(0, game, 1, 0, "langue en", &reply);
	ck_assert_int_eq(reply.status, ENGINE_STALE_SEQ);	/* number used */
	engine_reply_clear(&reply);
	command(0, game, 2, 0, "langue en", &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	ck_assert_ptr_nonnull(strstr(reply.message, "now in English"));
	engine_reply_clear(&reply);
	ck_assert_int_eq(store_player_get(env.st, env.player_id[0], &p),
	    STORE_OK);
	ck_assert_str_eq(p.lang, "en");
}
END_TEST

static Suite *
async_suite(void)
{
	Suite *s = suite_create("async");
	TCase *tc = tcase_create("async");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_policy);
	tcase_add_test(tc, test_deadline_arithmetic);
	tcase_add_test(tc, test_reminders_and_wait);
	tcase_add_test(tc, test_quiet_games_passed_over);
	tcase_add_test(tc, test_missed_default_move);
	tcase_add_test(tc, test_missed_skip);
	tcase_add_test(tc, test_absent_and_replace);
	tcase_add_test(tc, test_replacement_audit_and_bundle);
	tcase_add_test(tc, test_vacation);
	tcase_add_test(tc, test_restart_between_reminder_and_deadline);
	tcase_add_test(tc, test_resign_two_seats);
	tcase_add_test(tc, test_resign_three_seats_plays_on);
	tcase_add_test(tc, test_call_off);
	tcase_add_test(tc, test_game_master);
	tcase_add_test(tc, test_extend_late_again);
	tcase_add_test(tc, test_vacation_bounds_and_cancel);
	tcase_add_test(tc, test_call_off_tally_and_withdraw);
	tcase_add_test(tc, test_absent_seat_has_no_say);
	tcase_add_test(tc, test_press);
	tcase_add_test(tc, test_commands);
	tcase_add_test(tc, test_command_and_policy_words);
	tcase_add_test(tc, test_refusals_in_french);
	tcase_add_test(tc, test_tick_time_bounds);
	tcase_add_test(tc, test_gap_drops_stale_notices);
	tcase_add_test(tc, test_wait_then_default);
	tcase_add_test(tc, test_reminder_in_playing_time);
	tcase_add_test(tc, test_response_window);
	tcase_add_test(tc, test_observers);
	tcase_add_test(tc, test_paused_commands);
	tcase_add_test(tc, test_extend_late_every);
	tcase_add_test(tc, test_extend_reminds_again);
	tcase_add_test(tc, test_master_block_key);
	tcase_add_test(tc, test_vacation_in_pause_counts_once);
	tcase_add_test(tc, test_vacation_across_pause_counts_once);
	tcase_add_test(tc, test_vacation_ending_in_pause);
	tcase_add_test(tc, test_master_answer_in_transaction);
	tcase_add_test(tc, test_force_answer_after_move);
	tcase_add_test(tc, test_force_skip_reason);
	tcase_add_test(tc, test_admin_policy_announced);
	tcase_add_test(tc, test_language_command);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(async_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
