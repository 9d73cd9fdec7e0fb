/*
 * check_writer.c -- the batching writer (daemon/engine/writer.h) keeps every
 * promise of engine_submit(): racing submissions of one sequence number
 * have exactly one winner; a refused move in a batch is undone alone;
 * a game state kept in memory is never used once another writer has
 * moved the game on; and every game written through it audits clean.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>
#include <sodium.h>

#include "apply.h"
#include "audit.h"
#include "testlib.h"
#include "writer.h"

#define NTHREADS	8

static struct testenv env;

static void
setup(void)
{
	char err[256];

	testenv_open(&env, 4);
	ck_assert_msg(writer_start(env.dbpath, env.key, 64, 16, err,
	    sizeof(err)) == 0, "%s", err);
}

static void
teardown(void)
{
	writer_stop();
	testenv_close(&env);
}

/* Seat to act, next seq and legal move number pick (mod count) of a
 * game, read from env.st; -1 when over. */
static int
legal(int64_t game, int64_t *seq, int pick, char *move, size_t len)
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
	snprintf(move, len, "%s", json_string_value(json_array_get(moves,
	    (size_t)pick % json_array_size(moves))));
	json_decref(moves);
	gamestate_clear(&gs);
	return seat;
}

/* The public key of player n (testenv gives player n seat n): the second
 * half of its libsodium secret key. */
static const unsigned char *
seat_key(int n)
{
	return env.player_sk[n] + 32;
}

struct submitter {
	const char		*block;
	pthread_barrier_t	*start;
	enum engine_status	 status;
	struct proto_receipt	 receipt;
};

static void *
submit_one(void *arg)
{
	struct submitter *s = arg;
	struct engine_reply reply;
	struct store *st;
	char err[256];

	ck_assert_int_eq(store_open(env.dbpath, &st, err, sizeof(err)),
	    STORE_OK);
	pthread_barrier_wait(s->start);
	engine_submit(st, env.key, s->block, strlen(s->block), RULES_LANG_EN,
	    &reply);
	s->status = reply.status;
	s->receipt = reply.receipt;
	engine_reply_clear(&reply);
	store_close(st);
	return NULL;
}

static int
audit_ok(int64_t game)
{
	struct audit_report report;
	struct audit_log log;
	struct store_game row;
	char err[512];
	int rc;

	ck_assert_int_eq(audit_load_store(env.st, game, &log, &row, err,
	    sizeof(err)), 0);
	rc = audit_run(&log, &report, NULL, NULL);
	audit_log_clear(&log);
	store_game_clear(&row);
	return rc == 0;
}

/* Two threads post different moves under one sequence number, again and
 * again: each time one wins and the other is told the number is stale. */
START_TEST(test_race_through_writer)
{
	int64_t game = testenv_game(&env, "template", 2), seq;
	char blocks[2][4096], move[256];
	struct submitter s[2];
	pthread_barrier_t start;
	struct store_entry e;
	pthread_t t[2];
	int round, i, seat, wins, stale;

	pthread_barrier_init(&start, NULL, 2);
	for (round = 0; round < 20; round++) {
		for (i = 0; i < 2; i++) {
			if ((seat = legal(game, &seq, i, move,
			    sizeof(move))) < 0)
				break;
			testenv_block(&env, seat, game, seq, seat, move,
			    blocks[i], sizeof(blocks[i]));
			s[i].block = blocks[i];
			s[i].start = &start;
		}
		if (seat < 0)
			break;
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, submit_one, &s[i]);
		wins = stale = 0;
		for (i = 0; i < 2; i++) {
			pthread_join(t[i], NULL);
			wins += s[i].status == ENGINE_OK;
			stale += s[i].status == ENGINE_STALE_SEQ;
		}
		ck_assert_int_eq(wins, 1);
		ck_assert_int_eq(stale, 1);
		/* The winner's receipt is the stored entry's. */
		i = s[0].status == ENGINE_OK ? 0 : 1;
		ck_assert_int_eq(store_log_get(env.st, game, seq, &e),
		    STORE_OK);
		ck_assert_mem_eq(e.hash, s[i].receipt.entry_hash, 32);
		ck_assert_mem_eq(e.receipt, s[i].receipt.signature, 64);
		store_entry_clear(&e);
	}
	pthread_barrier_destroy(&start);
	ck_assert_int_gt(round, 0);
	ck_assert(audit_ok(game));
}
END_TEST

/* Many games at once, with a refused move in among the good ones: the
 * good ones all stand, the refused ones leave nothing. */
START_TEST(test_batch_refusal_undone_alone)
{
	int64_t games[NTHREADS], seq, before, logged;
	char blocks[2 * NTHREADS][4096], move[256];
	struct submitter s[2 * NTHREADS];
	pthread_barrier_t start;
	pthread_t t[2 * NTHREADS];
	struct gamestate gs;
	char err[512];
	int i, n, seat, round, ok, refused;

	for (i = 0; i < NTHREADS; i++)
		games[i] = testenv_game(&env, "stmissions", 2);
	pthread_barrier_init(&start, NULL, 2 * NTHREADS);
	for (round = 0; round < 10; round++) {
		before = testenv_rows(&env);
		for (n = 0, i = 0; i < NTHREADS; i++) {
			seat = legal(games[i], &seq, round, move, sizeof(move));
			ck_assert_int_ge(seat, 0);
			testenv_block(&env, seat, games[i], seq, seat, move,
			    blocks[n], sizeof(blocks[n]));
			n++;
			/* A future move and an unreadable one. */
			testenv_block(&env, seat, games[i], i % 2 ? seq + 2 :
			    seq, seat, i % 2 ? move : "fly to the moon",
			    blocks[n], sizeof(blocks[n]));
			n++;
		}
		for (i = 0; i < n; i++) {
			s[i].block = blocks[i];
			s[i].start = &start;
			pthread_create(&t[i], NULL, submit_one, &s[i]);
		}
		ok = refused = 0;
		for (i = 0; i < n; i++) {
			pthread_join(t[i], NULL);
			if (i % 2 == 0) {
				ck_assert_msg(s[i].status == ENGINE_OK,
				    "move %d refused: %s", i,
				    engine_status_code(s[i].status));
				ok++;
			} else {
				ck_assert_int_ne(s[i].status, ENGINE_OK);
				refused++;
			}
		}
		ck_assert_int_eq(ok, NTHREADS);
		ck_assert_int_eq(refused, NTHREADS);
		/* Each accepted move adds a log entry and two outbox rows,
		 * and no snapshot: the writer keeps the game's state, and
		 * entries 1-10 are no checkpoint (record.h); the refused ones
		 * add nothing. */
		logged = testenv_rows(&env) - before;
		ck_assert_int_eq(logged, NTHREADS * 3);
	}
	pthread_barrier_destroy(&start);
	for (i = 0; i < NTHREADS; i++) {
		ck_assert(audit_ok(games[i]));
		/* With no newest snapshot, a load replays from entry 0 and
		 * must still reach the log's state hash. */
		ck_assert_msg(gamestate_load(env.st, games[i], -1, &gs, err,
		    sizeof(err)) == ENGINE_OK, "%s", err);
		ck_assert_int_eq(gs.seq, 10);
		gamestate_clear(&gs);
	}
}
END_TEST

/* One move of game through the writer (which then keeps the game's
 * state), then the next move (legal move number pick) signed by its
 * seat: its block into block and m.  Returns the seat; *seq is the
 * next move's number. */
static int
play_then_sign(int64_t game, int pick, int64_t *seq, char block[4096],
    struct proto_move *m)
{
	struct engine_reply reply;
	char move[256], err[512];
	int seat;

	seat = legal(game, seq, 0, move, sizeof(move));
	testenv_play(&env, game, *seq, seat, move, &reply);
	ck_assert_int_eq(reply.status, ENGINE_OK);
	engine_reply_clear(&reply);
	seat = legal(game, seq, pick, move, sizeof(move));
	testenv_block(&env, seat, game, *seq, seat, move, block, 4096);
	ck_assert_int_eq(proto_move_find(block, strlen(block), m, err,
	    sizeof(err)), PROTO_OK);
	return seat;
}

/* Another writer (another process, in life) plays a move: the state the
 * writer kept is stale and must not be used. */
START_TEST(test_kept_state_checked_against_log)
{
	int64_t game = testenv_game(&env, "template", 2), seq;
	struct engine_reply reply;
	struct proto_move m;
	struct gamestate gs;
	char move[256], block[4096], err[512], *text = NULL;
	int seat, spoilt, i;

	/* One move through the writer (it now keeps the game's state),
	 * and the next one written behind its back. */
	seat = play_then_sign(game, 1, &seq, block, &m);
	memset(&reply, 0, sizeof(reply));
	ck_assert_int_eq(store_begin(env.st), STORE_OK);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(apply_move(env.st, env.key, &gs, &m, STORE_ENTRY_MOVE,
	    seat_key(seat), RULES_LANG_EN, &reply, &spoilt), ENGINE_OK);
	ck_assert_int_eq(store_commit(env.st), STORE_OK);
	gamestate_clear(&gs);
	engine_reply_clear(&reply);

	/* The real next move is accepted at the right number (a writer
	 * trusting what it kept would call it a future move). */
	seat = legal(game, &seq, 0, move, sizeof(move));
	testenv_play(&env, game, seq, seat, move, &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	ck_assert_int_eq(reply.receipt.seq, seq);
	engine_reply_clear(&reply);
	/* The move written behind its back, again: taken. */
	engine_submit(env.st, env.key, block, strlen(block), RULES_LANG_EN,
	    &reply);
	ck_assert_int_eq(reply.status, ENGINE_STALE_SEQ);
	engine_reply_clear(&reply);
	ck_assert(audit_ok(game));
	/* Snapshots: entry 2, written on a loaded state, had the game's
	 * newest; the writer, loading again for entry 3, removed it and
	 * wrote none (record.h).  Only the genesis checkpoint is left. */
	for (i = 1; i <= 3; i++) {
		ck_assert_int_eq(store_snapshot_get(env.st, game, i, &text),
		    STORE_NOTFOUND);
		free(text);
		text = NULL;
	}
	ck_assert_int_eq(store_snapshot_get(env.st, game, 0, &text), STORE_OK);
	free(text);
}
END_TEST

/* A seat marked absent after its move was verified (here: between the
 * writer's first use of the game and the move) is refused under the
 * write lock, and nothing of the move is stored. */
START_TEST(test_seat_status_checked_under_lock)
{
	int64_t game = testenv_game(&env, "template", 2), seq, before;
	struct engine_reply reply;
	struct store_seat row;
	struct proto_move m;
	struct gamestate gs;
	char block[4096], err[512];
	int seat, spoilt;

	/* The writer keeps the game's state. */
	seat = play_then_sign(game, 0, &seq, block, &m);
	ck_assert_int_eq(store_seat_get(env.st, game, seat, &row), STORE_OK);
	row.status = STORE_SEAT_ABSENT;
	ck_assert_int_eq(store_seat_update(env.st, &row), STORE_OK);
	before = testenv_rows(&env);

	/* Through the writer, whose kept state was built before. */
	memset(&reply, 0, sizeof(reply));
	ck_assert_int_eq(writer_play(&m, STORE_ENTRY_MOVE, seat_key(seat),
	    RULES_LANG_EN, &reply), 0);
	ck_assert_int_eq(reply.status, ENGINE_REFUSED);
	ck_assert_ptr_nonnull(strstr(reply.message, "marked absent"));
	engine_reply_clear(&reply);

	/* And on the direct path. */
	memset(&reply, 0, sizeof(reply));
	ck_assert_int_eq(store_begin(env.st), STORE_OK);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(apply_move(env.st, env.key, &gs, &m, STORE_ENTRY_MOVE,
	    seat_key(seat), RULES_LANG_EN, &reply, &spoilt), ENGINE_REFUSED);
	ck_assert_int_eq(spoilt, 0);
	store_rollback(env.st);
	gamestate_clear(&gs);
	ck_assert_ptr_nonnull(strstr(reply.message, "marked absent"));
	engine_reply_clear(&reply);
	ck_assert_int_eq(testenv_rows(&env), before);

	/* Back in play, the same move is accepted. */
	row.status = STORE_SEAT_PLAYING;
	ck_assert_int_eq(store_seat_update(env.st, &row), STORE_OK);
	memset(&reply, 0, sizeof(reply));
	ck_assert_int_eq(writer_play(&m, STORE_ENTRY_MOVE, seat_key(seat),
	    RULES_LANG_EN, &reply), 0);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert(audit_ok(game));
}
END_TEST

/* Give player n a new key pair: the store's (through the store, so the
 * kept seats are dropped; or behind the process's back with raw SQL, as
 * another process would) and the one testenv signs with. */
static void
new_key(int n, int behind_back)
{
	unsigned char pk[32];
	char sql[256], hex[65];

	crypto_sign_keypair(pk, env.player_sk[n]);
	if (!behind_back) {
		ck_assert_int_eq(store_player_set_key(env.st, env.player_id[n],
		    pk), STORE_OK);
		return;
	}
	sodium_bin2hex(hex, sizeof(hex), pk, sizeof(pk));
	snprintf(sql, sizeof(sql), "UPDATE player_keys SET pubkey = x'%s' "
	    "WHERE player_id = %lld AND revoked IS NULL", hex,
	    (long long)env.player_id[n]);
	ck_assert_int_eq(testenv_sql(&env, sql), 0);
}

/* Record player seat's new key in game's log (engine_rekey(), as pbemctl
 * does after store_player_set_key()), so that audits check with it. */
static void
rekey(int64_t game, int seat, const unsigned char *old_pubkey)
{
	char err[512];

	ck_assert_msg(engine_rekey(env.st, env.key, game, seat, old_pubkey,
	    (int64_t)time(NULL), err, sizeof(err)) == ENGINE_OK, "%s", err);
}

/* A move verified with the seat's key, whose key is then replaced before
 * the move is written: refused under the write lock, through the writer
 * and on the direct path, and nothing of it is stored. */
START_TEST(test_replaced_key_refused_under_lock)
{
	int64_t game = testenv_game(&env, "template", 2), seq, before;
	unsigned char old_key[32];
	struct engine_reply reply;
	struct proto_move m;
	struct gamestate gs;
	char move[256], block[4096], err[512];
	int seat, spoilt;

	/* A first move: the writer keeps the game's state, the engine its
	 * seats.  Then the next move's block, verified with the seat's key
	 * (as submit.c does) ... */
	seat = play_then_sign(game, 0, &seq, block, &m);
	memcpy(old_key, seat_key(seat), sizeof(old_key));
	ck_assert_int_eq(proto_move_verify(&m, old_key), PROTO_OK);
	/* ... then the key is replaced before the move is written. */
	new_key(seat, 0);
	before = testenv_rows(&env);

	memset(&reply, 0, sizeof(reply));
	ck_assert_int_eq(writer_play(&m, STORE_ENTRY_MOVE, old_key,
	    RULES_LANG_EN, &reply), 0);
	ck_assert_int_eq(reply.status, ENGINE_BAD_SIGNATURE);
	ck_assert_ptr_nonnull(strstr(reply.message, "was replaced after"));
	engine_reply_clear(&reply);

	memset(&reply, 0, sizeof(reply));
	ck_assert_int_eq(store_begin(env.st), STORE_OK);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(apply_move(env.st, env.key, &gs, &m, STORE_ENTRY_MOVE,
	    old_key, RULES_LANG_FR, &reply, &spoilt), ENGINE_BAD_SIGNATURE);
	store_rollback(env.st);
	gamestate_clear(&gs);
	ck_assert_ptr_nonnull(strstr(reply.message, "a été remplacée"));
	engine_reply_clear(&reply);
	ck_assert_int_eq(testenv_rows(&env), before);

	/* The whole path: the kept seats were dropped at the key's commit,
	 * so the old block fails its check at once (not under the lock). */
	engine_submit(env.st, env.key, block, strlen(block), RULES_LANG_EN,
	    &reply);
	ck_assert_int_eq(reply.status, ENGINE_BAD_SIGNATURE);
	ck_assert_ptr_nonnull(strstr(reply.message, "does not match"));
	engine_reply_clear(&reply);
	ck_assert_int_eq(testenv_rows(&env), before);

	/* The new key recorded in the log (as pbemctl does), then a move
	 * signed with it: accepted. */
	rekey(game, seat, old_key);
	seat = legal(game, &seq, 0, move, sizeof(move));
	testenv_play(&env, game, seq, seat, move, &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert(audit_ok(game));
}
END_TEST

/* The seats the engine keeps for verifying: read once, dropped when this
 * process replaces a key; a key replaced by another process leaves them
 * stale, and still no move gets in with the old key, and none is lost
 * with the new one. */
START_TEST(test_kept_seats)
{
	int64_t game = testenv_game(&env, "template", 2), seq, before;
	struct engine_seats seats;
	struct engine_reply reply;
	unsigned char old_sk[64];
	char move[256], block[4096];
	int seat;

	ck_assert_int_eq(engine_seats_get(env.st, game, &seats), STORE_OK);
	ck_assert_int_eq(engine_seats_get(env.st, game, &seats), STORE_OK);
	ck_assert_int_eq(seats.kept, 1);
	ck_assert_int_eq(seats.nseats, 2);
	ck_assert_int_eq(seats.player[1], env.player_id[1]);
	ck_assert_mem_eq(seats.pubkey[1], seat_key(1), 32);

	/* Through the store: dropped at the commit. */
	new_key(1, 0);
	ck_assert_int_eq(engine_seats_get(env.st, game, &seats), STORE_OK);
	ck_assert_int_eq(seats.kept, 0);
	ck_assert_mem_eq(seats.pubkey[1], seat_key(1), 32);

	/* Behind the process's back: the kept key is the old one. */
	seat = legal(game, &seq, 0, move, sizeof(move));
	memcpy(old_sk, env.player_sk[seat], sizeof(old_sk));
	new_key(seat, 1);
	ck_assert_int_eq(engine_seats_get(env.st, game, &seats), STORE_OK);
	ck_assert_int_eq(seats.kept, 1);
	ck_assert_mem_eq(seats.pubkey[seat], old_sk + 32, 32);
	/* The old key's move passes the kept key, and is refused under
	 * the lock. */
	memcpy(env.player_sk[7], old_sk, sizeof(old_sk));
	testenv_block(&env, 7, game, seq, seat, move, block, sizeof(block));
	before = testenv_rows(&env);
	engine_submit(env.st, env.key, block, strlen(block), RULES_LANG_EN,
	    &reply);
	ck_assert_int_eq(reply.status, ENGINE_BAD_SIGNATURE);
	ck_assert_ptr_nonnull(strstr(reply.message, "was replaced after"));
	engine_reply_clear(&reply);
	ck_assert_int_eq(testenv_rows(&env), before);
	/* The other process records the new key in the log; the kept
	 * key is still the old one. */
	rekey(game, seat, old_sk + 32);
	ck_assert_int_eq(engine_seats_get(env.st, game, &seats), STORE_OK);
	ck_assert_int_eq(seats.kept, 1);
	ck_assert_mem_eq(seats.pubkey[seat], old_sk + 32, 32);
	/* The new key's move fails the kept key, and is checked again
	 * against the store's: accepted. */
	seat = legal(game, &seq, 0, move, sizeof(move));
	testenv_play(&env, game, seq, seat, move, &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	ck_assert_int_eq(engine_seats_get(env.st, game, &seats), STORE_OK);
	ck_assert_mem_eq(seats.pubkey[seat], seat_key(seat), 32);
	ck_assert(audit_ok(game));
}
END_TEST

/* Whole games through the writer, with a cache smaller than the number
 * of games (slots are shared and evicted), audit clean. */
START_TEST(test_games_through_small_cache)
{
	int64_t games[40], seq;
	struct engine_reply reply;
	char move[256];
	int i, seat, live, pick = 0;

	for (i = 0; i < 40; i++)
		games[i] = testenv_game(&env, "template", 2 + i % 3);
	do {
		live = 0;
		for (i = 0; i < 40; i++) {
			if ((seat = legal(games[i], &seq, pick++, move,
			    sizeof(move))) < 0)
				continue;
			live++;
			testenv_play(&env, games[i], seq, seat, move, &reply);
			ck_assert_msg(reply.status == ENGINE_OK, "%s",
			    reply.message);
			engine_reply_clear(&reply);
		}
	} while (live > 0);
	for (i = 0; i < 40; i++)
		ck_assert(audit_ok(games[i]));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("writer");
	TCase *tc = tcase_create("writer");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_race_through_writer);
	tcase_add_test(tc, test_batch_refusal_undone_alone);
	tcase_add_test(tc, test_kept_state_checked_against_log);
	tcase_add_test(tc, test_seat_status_checked_under_lock);
	tcase_add_test(tc, test_games_through_small_cache);
	tcase_add_test(tc, test_replaced_key_refused_under_lock);
	tcase_add_test(tc, test_kept_seats);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
