/*
 * check_engine.c -- the path of a move through the real store: every
 * refusal with its own code and message and nothing stored; racing
 * submissions; a whole game audited, exported and verified; and tampering
 * with any stored byte caught by the audit at that entry.
 *
 * These tests use the template game ("Ladder"), whose moves are simple;
 * tests/check_random_play.c plays the real games.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "audit.h"
#include "bundle.h"
#include "record.h"
#include "testlib.h"

static struct testenv env;

static void
setup(void)
{
	testenv_open(&env, 4);
}

static void
teardown(void)
{
	testenv_close(&env);
}

/* The seat to act and a legal move for it; -1 when the game is over. */
static int
next_move(int64_t game, int64_t *seq, char *move, size_t len, uint64_t *rnd)
{
	struct gamestate gs;
	json_t *moves;
	char err[512];
	int seat;

	ck_assert_msg(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)) == ENGINE_OK, "%s", err);
	*seq = gs.seq + 1;
	if (gs.module->to_act(gs.state, &seat, 1) == 0) {
		gamestate_clear(&gs);
		return -1;
	}
	moves = gs.module->legal_moves(gs.state, seat);
	ck_assert_uint_gt(json_array_size(moves), 0);
	snprintf(move, len, "%s", json_string_value(json_array_get(moves,
	    test_random(rnd, (uint32_t)json_array_size(moves)))));
	json_decref(moves);
	gamestate_clear(&gs);
	return seat;
}

static void
play_out(int64_t game, uint64_t seed)
{
	struct engine_reply reply;
	char move[256];
	int64_t seq;
	int seat;

	while ((seat = next_move(game, &seq, move, sizeof(move), &seed)) >= 0) {
		testenv_play(&env, game, seq, seat, move, &reply);
		ck_assert_msg(reply.status == ENGINE_OK, "%s: %s", move,
		    reply.message);
		engine_reply_clear(&reply);
	}
}

/* A three-seat Star Trek: Missions game played out, whose log holds
 * more than the given number of entries: its length depends on its random seed, so a
 * game that ends sooner is set aside and another one played. */
static int64_t
long_game(int64_t entries)
{
	unsigned char hash[STORE_HASH_BYTES];
	int64_t game, last = 0;
	int tries;

	for (tries = 0; tries < 20; tries++) {
		game = testenv_game(&env, "stmissions", 3);
		play_out(game, 5);
		ck_assert_int_eq(store_log_head(env.st, game, &last, hash),
		    STORE_OK);
		if (last > entries)
			return game;
	}
	ck_abort_msg("20 games of %lld entries or fewer", (long long)last);
	return -1;
}

/* Submit text; expect status, a message containing phrase, no change. */
static void
expect_refusal(const char *text, enum engine_status status,
    const char *phrase)
{
	struct engine_reply reply;
	int64_t before = testenv_rows(&env);

	engine_submit(env.st, env.key, text, strlen(text), RULES_LANG_EN,
	    &reply);
	ck_assert_msg(reply.status == status, "expected %s, got %s: %s",
	    engine_status_code(status), engine_status_code(reply.status),
	    reply.message);
	ck_assert_msg(strstr(reply.message, phrase) != NULL,
	    "message \"%s\" lacks \"%s\"", reply.message, phrase);
	ck_assert_int_eq(testenv_rows(&env), before);
	engine_reply_clear(&reply);
}

START_TEST(test_create_refusals)
{
	int64_t dup[2] = { env.player_id[0], env.player_id[0] }, id;
	int64_t before = testenv_rows(&env);
	char err[1024];

	ck_assert_int_eq(engine_create_game(env.st, env.key, "chess", NULL,
	    env.player_id, 2, &id, err, sizeof(err)), ENGINE_BAD_REQUEST);
	ck_assert_ptr_nonnull(strstr(err, "unknown ruleset \"chess\""));
	ck_assert_int_eq(engine_create_game(env.st, env.key, "template", NULL,
	    env.player_id, 1, &id, err, sizeof(err)), ENGINE_BAD_REQUEST);
	ck_assert_ptr_nonnull(strstr(err, "2 to 4 players, not 1"));
	ck_assert_int_eq(engine_create_game(env.st, env.key, "template", NULL,
	    dup, 2, &id, err, sizeof(err)), ENGINE_BAD_REQUEST);
	ck_assert_ptr_nonnull(strstr(err, "one seat each"));
	ck_assert_int_eq(engine_create_game(env.st, env.key, "template",
	    "{bad", env.player_id, 2, &id, err, sizeof(err)),
	    ENGINE_BAD_REQUEST);
	ck_assert_ptr_nonnull(strstr(err, "not valid JSON"));
	ck_assert_int_eq(engine_create_game(env.st, env.key, "template",
	    "{\"speed\": 3}", env.player_id, 2, &id, err, sizeof(err)),
	    ENGINE_BAD_REQUEST);
	ck_assert_ptr_nonnull(strstr(err, "speed"));
	ck_assert_int_eq(testenv_rows(&env), before);
}
END_TEST

START_TEST(test_submit_refusals)
{
	int64_t game = testenv_game(&env, "template", 2), other, seq;
	char block[4096], move[64], *p;
	struct engine_reply reply;
	uint64_t rnd = 7;
	int seat;

	other = testenv_game(&env, "template", 3);
	expect_refusal("hello, no block here", ENGINE_NO_BLOCK, "");
	expect_refusal("-----BEGIN PBEM MOVE-----\nVersion: 1\nGame: 1\n"
	    "-----END PBEM MOVE-----\n", ENGINE_MALFORMED, "Seq");

	seat = next_move(game, &seq, move, sizeof(move), &rnd);
	/* unknown game */
	testenv_block(&env, seat, 999, seq, seat, move, block, sizeof(block));
	expect_refusal(block, ENGINE_UNKNOWN_GAME, "no game 999");
	/* no such seat */
	testenv_block(&env, 3, game, seq, 3, move, block, sizeof(block));
	expect_refusal(block, ENGINE_BAD_SEAT, "no seat 3");
	/* wrong key: seat's move signed by another player */
	testenv_block(&env, 1 - seat, game, seq, seat, move, block,
	    sizeof(block));
	expect_refusal(block, ENGINE_BAD_SIGNATURE, "does not match the key");
	/* a move for another game: relabel a signed block */
	testenv_block(&env, seat, game, seq, seat, move, block, sizeof(block));
	p = strstr(block, "Game: ");
	ck_assert_ptr_nonnull(p);
	p[6] = (char)('0' + other);
	expect_refusal(block, ENGINE_BAD_SIGNATURE, "does not match the key");
	/* future and stale sequence numbers */
	testenv_block(&env, seat, game, seq + 5, seat, move, block,
	    sizeof(block));
	expect_refusal(block, ENGINE_FUTURE_SEQ, "in the future");
	/* out of turn */
	testenv_block(&env, 1 - seat, game, seq, 1 - seat, "play 1", block,
	    sizeof(block));
	expect_refusal(block, ENGINE_NOT_YOUR_TURN, "not your turn");
	/* not a move, and an illegal one, with the legal forms */
	testenv_block(&env, seat, game, seq, seat, "dance", block,
	    sizeof(block));
	expect_refusal(block, ENGINE_SYNTAX, "not understood");
	testenv_block(&env, seat, game, seq, seat, "play 99", block,
	    sizeof(block));
	expect_refusal(block, ENGINE_ILLEGAL, "do not hold");
	engine_submit(env.st, env.key, block, strlen(block), RULES_LANG_EN,
	    &reply);
	ck_assert_ptr_nonnull(reply.forms);
	ck_assert_str_eq(json_string_value(json_array_get(reply.forms, 0)),
	    "play <a card in your hand>");
	engine_reply_clear(&reply);

	/* accepted, then the same block again is stale */
	testenv_block(&env, seat, game, seq, seat, move, block, sizeof(block));
	engine_submit(env.st, env.key, block, strlen(block), RULES_LANG_EN,
	    &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	ck_assert_int_eq(proto_receipt_verify(&reply.receipt, env.server_pub),
	    PROTO_OK);
	ck_assert_int_eq(reply.next_seq, seq + 1);
	engine_reply_clear(&reply);
	expect_refusal(block, ENGINE_STALE_SEQ, "already been played");

	/* after the end, nothing more */
	play_out(game, 11);
	testenv_block(&env, 0, game, 7, 0, "play 1", block, sizeof(block));
	expect_refusal(block, ENGINE_GAME_OVER, "is over");
}
END_TEST

START_TEST(test_french_messages)
{
	int64_t game = testenv_game(&env, "template", 2), seq;
	struct engine_reply reply;
	char block[4096], move[64];
	uint64_t rnd = 3;
	int seat;

	seat = next_move(game, &seq, move, sizeof(move), &rnd);
	testenv_block(&env, seat, game, seq, seat, "jouer 99", block,
	    sizeof(block));
	engine_submit(env.st, env.key, block, strlen(block), RULES_LANG_FR,
	    &reply);
	ck_assert_int_eq(reply.status, ENGINE_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(reply.message, "vous n'avez pas"));
	ck_assert_str_eq(json_string_value(json_array_get(reply.forms, 0)),
	    "jouer <une carte de votre main>");
	engine_reply_clear(&reply);
}
END_TEST

/* Two connections race to play the same sequence number. */
struct racer {
	const char	*dbpath;
	const char	*block;
	struct serverkey *key;
	enum engine_status status;
};

static void *
race(void *arg)
{
	struct racer *r = arg;
	struct engine_reply reply;
	struct store *st;
	char err[256];

	ck_assert_int_eq(store_open(r->dbpath, &st, err, sizeof(err)),
	    STORE_OK);
	engine_submit(st, r->key, r->block, strlen(r->block), RULES_LANG_EN,
	    &reply);
	r->status = reply.status;
	engine_reply_clear(&reply);
	store_close(st);
	return NULL;
}

START_TEST(test_race_same_sequence)
{
	int64_t game = testenv_game(&env, "template", 2), seq;
	char blocks[2][4096], move[64];
	struct gamestate gs;
	struct racer r[2];
	pthread_t t[2];
	json_t *moves;
	char err[256];
	int seat, i, wins = 0, stale = 0;

	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	gs.module->to_act(gs.state, &seat, 1);
	seq = gs.seq + 1;
	moves = gs.module->legal_moves(gs.state, seat);
	for (i = 0; i < 2; i++) {
		snprintf(move, sizeof(move), "%s", json_string_value(
		    json_array_get(moves, (size_t)i)));
		testenv_block(&env, seat, game, seq, seat, move, blocks[i],
		    sizeof(blocks[i]));
		r[i].dbpath = env.dbpath;
		r[i].block = blocks[i];
		r[i].key = env.key;
	}
	json_decref(moves);
	gamestate_clear(&gs);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, race, &r[i]);
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		wins += r[i].status == ENGINE_OK;
		stale += r[i].status == ENGINE_STALE_SEQ;
	}
	ck_assert_int_eq(wins, 1);
	ck_assert_int_eq(stale, 1);
}
END_TEST

static int
audit_game(int64_t game, struct audit_report *report)
{
	struct audit_log log;
	struct store_game row;
	char err[512];
	int rc;

	ck_assert_msg(audit_load_store(env.st, game, &log, &row, err,
	    sizeof(err)) == 0, "%s", err);
	rc = audit_run(&log, report, NULL, NULL);
	audit_log_clear(&log);
	store_game_clear(&row);
	return rc;
}

/* Checks one mail row of the notifications test. */
static int
check_notification(const struct store_outbox *o, void *arg)
{
	int *seen = arg;
	json_t *pl;
	char *canonical;

	if (strcmp(o->channel, "mail") != 0 || o->seq == 0)
		return 0;
	pl = json_loads(o->payload, 0, NULL);
	ck_assert_msg(pl != NULL, "row %lld: %s", (long long)o->id,
	    o->payload);
	canonical = json_dumps(pl, JSON_COMPACT | JSON_SORT_KEYS);
	ck_assert_str_eq(o->payload, canonical);
	ck_assert_int_eq(json_integer_value(json_object_get(pl, "game")),
	    o->game_id);
	ck_assert_int_eq(json_integer_value(json_object_get(pl, "seq")),
	    o->seq);
	ck_assert_str_eq(json_string_value(json_object_get(pl, "event")),
	    o->event);
	ck_assert(json_is_integer(json_object_get(pl, "seat")));
	ck_assert(json_is_boolean(json_object_get(pl, "your_turn")));
	ck_assert_int_eq(json_object_size(pl), 5);
	free(canonical);
	json_decref(pl);
	(*seen)++;
	return 0;
}

/* A move's notification rows are printed without jansson (outbox.c):
 * each must be the very text jansson makes of the same object. */
START_TEST(test_notification_payloads)
{
	int64_t game = testenv_game(&env, "stmissions", 2);
	int seen = 0;

	play_out(game, 7);
	ck_assert_int_eq(store_outbox_due(env.st, INT64_MAX, 100000,
	    check_notification, &seen), STORE_OK);
	ck_assert_int_gt(seen, 10);
}
END_TEST

START_TEST(test_audit_export_verify)
{
	int64_t game = testenv_game(&env, "template", 3);
	struct audit_report report;
	struct store_entry last;
	struct audit_log log;
	json_t *bundle;
	char err[512];

	play_out(game, 5);
	ck_assert_msg(audit_game(game, &report) == 0, "%s", report.reason);
	ck_assert_int_eq(report.replayed, 1);
	ck_assert_uint_eq(report.checked, 10);	/* genesis + 9 moves */
	ck_assert_int_eq(store_log_last(env.st, game, &last), STORE_OK);
	ck_assert_mem_eq(report.final_state_hash, last.state_hash, 32);
	store_entry_clear(&last);

	bundle = bundle_export(env.st, game, err, sizeof(err));
	ck_assert_msg(bundle != NULL, "%s", err);
	ck_assert_ptr_nonnull(json_object_get(bundle, "seed"));
	ck_assert_int_eq(bundle_read(bundle, &log, err, sizeof(err)), 0);
	ck_assert_msg(audit_run(&log, &report, NULL, NULL) == 0, "%s",
	    report.reason);
	ck_assert_int_eq(report.replayed, 1);
	audit_log_clear(&log);

	/* An altered move text in the bundle is caught (a card number
	 * changed, so it differs from whatever was played). */
	{
		json_t *entry = json_array_get(json_object_get(bundle,
		    "entries"), 4);
		char text[64];

		snprintf(text, sizeof(text), "%s0", json_string_value(
		    json_object_get(entry, "text")));
		json_object_set_new(entry, "text", json_string(text));
	}
	ck_assert_int_eq(bundle_read(bundle, &log, err, sizeof(err)), 0);
	ck_assert_int_ne(audit_run(&log, &report, NULL, NULL), 0);
	ck_assert_int_eq(report.bad_seq, 4);
	audit_log_clear(&log);
	json_decref(bundle);
}
END_TEST

/* A running game's bundle has no seed and is checked without replay. */
START_TEST(test_bundle_running_game)
{
	int64_t game = testenv_game(&env, "template", 2);
	struct audit_report report;
	struct audit_log log;
	json_t *bundle;
	char err[512];

	bundle = bundle_export(env.st, game, err, sizeof(err));
	ck_assert_ptr_null(json_object_get(bundle, "seed"));
	ck_assert_int_eq(bundle_read(bundle, &log, err, sizeof(err)), 0);
	ck_assert_int_eq(audit_run(&log, &report, NULL, NULL), 0);
	ck_assert_int_eq(report.replayed, 0);
	audit_log_clear(&log);
	json_decref(bundle);
}
END_TEST

/*
 * Tampering: alter one byte of one column of one entry (or its snapshot)
 * with raw SQL, audit, expect the failure at that entry, put it back.
 */
static void
tamper(int64_t game, int64_t seq, const char *table, const char *column,
    int offset, int64_t expect_seq)
{
	struct audit_report report;

	testenv_flip(&env, table, column, game, seq, offset);
	ck_assert_msg(audit_game(game, &report) != 0,
	    "%s.%s of entry %lld byte %d altered but the audit passed",
	    table, column, (long long)seq, offset);
	ck_assert_msg(report.bad_seq == expect_seq, "altered %s.%s of entry "
	    "%lld; audit blamed entry %lld: %s", table, column,
	    (long long)seq, (long long)report.bad_seq, report.reason);
	testenv_flip(&env, table, column, game, seq, offset);
	ck_assert_msg(audit_game(game, &report) == 0, "%s", report.reason);
}

START_TEST(test_tampering)
{
	int64_t game = testenv_game(&env, "template", 2), seq, last;
	unsigned char hash[STORE_HASH_BYTES];
	int offset;

	play_out(game, 9);
	for (seq = 0; seq <= 6; seq++) {
		/* Every byte of the move text, signature and receipt. */
		if (seq > 0)
			for (offset = 0; offset < 6; offset++)
				tamper(game, seq, "log", "text", offset, seq);
		tamper(game, seq, "log", "signature", (int)(seq * 9) % 64, seq);
		tamper(game, seq, "log", "receipt", (int)(seq * 7) % 64, seq);
		tamper(game, seq, "log", "state_hash", (int)seq, seq);
		/* The snapshots kept: checkpoints and the newest (record.h). */
		if (seq % ENGINE_SNAPSHOT_EVERY == 0)
			tamper(game, seq, "snapshots", "state", 10 + (int)seq,
			    seq);
		/* A broken link is reported where it is found. */
		tamper(game, seq, "log", "prev_hash", 3, seq);
	}
	ck_assert_int_eq(store_log_head(env.st, game, &last, hash), STORE_OK);
	tamper(game, last, "snapshots", "state", 12, last);
	/* The genesis record itself. */
	tamper(game, 0, "log", "text", 20, 0);
}
END_TEST

/*
 * The signatures are checked by worker threads in any order (verifier.h),
 * yet the audit blames the first bad entry in log order: two faults in a
 * long log, the later one found first or not, in both orders.
 */
static void
two_faults(int64_t game, int64_t seq1, const char *col1, int64_t seq2,
    const char *col2)
{
	struct audit_report report;

	testenv_flip(&env, "log", col1, game, seq1, 5);
	testenv_flip(&env, "log", col2, game, seq2, 7);
	ck_assert_int_ne(audit_game(game, &report), 0);
	ck_assert_msg(report.bad_seq == (seq1 < seq2 ? seq1 : seq2), "%s of "
	    "%lld and %s of %lld altered; audit blamed %lld: %s", col1,
	    (long long)seq1, col2, (long long)seq2, (long long)report.bad_seq,
	    report.reason);
	testenv_flip(&env, "log", col1, game, seq1, 5);
	testenv_flip(&env, "log", col2, game, seq2, 7);
	ck_assert_msg(audit_game(game, &report) == 0, "%s", report.reason);
}

START_TEST(test_tampering_first_fault)
{
	int64_t game = long_game(2 * ENGINE_SNAPSHOT_EVERY), last;
	unsigned char hash[STORE_HASH_BYTES];

	ck_assert_int_eq(store_log_head(env.st, game, &last, hash), STORE_OK);
	/* Longer than two of a worker's chunks (16 entries, verifier.c). */
	ck_assert_int_gt(last, 2 * ENGINE_SNAPSHOT_EVERY);
	two_faults(game, last - 1, "signature", 20, "receipt");
	two_faults(game, last, "receipt", 1, "signature");
	two_faults(game, last / 2, "signature", last / 2 + 1, "receipt");
	two_faults(game, 0, "signature", last, "signature");
}
END_TEST

/* Snapshots are kept every ENGINE_SNAPSHOT_EVERY entries and for the
 * newest state; every other state is rebuilt by replaying the entries
 * since the snapshot before it, and must hash to what its entry says. */
START_TEST(test_snapshot_checkpoints)
{
	int64_t game = long_game(2 * ENGINE_SNAPSHOT_EVERY), seq, last;
	unsigned char hash[STORE_HASH_BYTES];
	struct gamestate gs;
	char err[1024], *text;
	int found;

	play_out(game, 5);
	ck_assert_int_eq(store_log_head(env.st, game, &last, hash), STORE_OK);
	/* Past the first checkpoint and the entries the flip below loads
	 * (a game's length depends on its random seed). */
	ck_assert_int_gt(last, ENGINE_SNAPSHOT_EVERY + 3);
	for (seq = 0; seq <= last; seq++) {
		found = store_snapshot_get(env.st, game, seq, &text) ==
		    STORE_OK;
		free(text);
		ck_assert_msg(found == (seq % ENGINE_SNAPSHOT_EVERY == 0 ||
		    seq == last), "snapshot %lld kept: %d", (long long)seq,
		    found);
		ck_assert_msg(gamestate_load(env.st, game, seq, &gs, err,
		    sizeof(err)) == ENGINE_OK, "state %lld: %s",
		    (long long)seq, err);
		ck_assert_int_eq(gs.seq, seq);
		gamestate_clear(&gs);
	}
	/* An altered checkpoint spoils every state rebuilt from it. */
	testenv_flip(&env, "snapshots", "state", game, ENGINE_SNAPSHOT_EVERY,
	    30);
	ck_assert_int_eq(gamestate_load(env.st, game,
	    ENGINE_SNAPSHOT_EVERY + 3, &gs, err, sizeof(err)), ENGINE_INTERNAL);
	ck_assert_msg(strstr(err, "does not match") != NULL ||
	    strstr(err, "snapshot") != NULL, "%s", err);
	testenv_flip(&env, "snapshots", "state", game, ENGINE_SNAPSHOT_EVERY,
	    30);
	ck_assert_int_eq(gamestate_load(env.st, game,
	    ENGINE_SNAPSHOT_EVERY + 3, &gs, err, sizeof(err)), ENGINE_OK);
	gamestate_clear(&gs);
}
END_TEST

/* The games row must agree with the genesis record. */
START_TEST(test_tampered_game_row)
{
	int64_t game = testenv_game(&env, "template", 2);
	struct audit_report report;
	char sql[256];

	play_out(game, 1);
	snprintf(sql, sizeof(sql), "UPDATE games SET options = '{\"x\":1}' "
	    "WHERE id = %lld", (long long)game);
	ck_assert_int_eq(testenv_sql(&env, sql), 0);
	ck_assert_int_ne(audit_game(game, &report), 0);
	ck_assert_int_eq(report.bad_seq, 0);
	ck_assert_ptr_nonnull(strstr(report.reason, "disagrees"));
}
END_TEST

static Suite *
engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_create_refusals);
	tcase_add_test(tc, test_submit_refusals);
	tcase_add_test(tc, test_french_messages);
	tcase_add_test(tc, test_race_same_sequence);
	tcase_add_test(tc, test_audit_export_verify);
	tcase_add_test(tc, test_notification_payloads);
	tcase_add_test(tc, test_bundle_running_game);
	tcase_add_test(tc, test_tampering);
	tcase_add_test(tc, test_tampering_first_fault);
	tcase_add_test(tc, test_snapshot_checkpoints);
	tcase_add_test(tc, test_tampered_game_row);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(engine_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
