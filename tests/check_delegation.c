/*
 * check_delegation.c -- delegation certificates through the real store
 * and engine (docs/PROTOCOL.md section 13, docs/LOG.md kinds 10-12): a
 * certificate signed by the player is kept and recorded in the game's
 * log; a bot key's move is accepted under it as kind 12 and the audit
 * (and an exported bundle) checks the chain player key -> certificate ->
 * bot signature; a bot key with no certificate, a views-only certificate,
 * an expired or revoked one, one signed by someone else, one for another
 * game, and a certificate beyond the cap are all refused and change
 * nothing; a tampered certificate in the log fails the audit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "audit.h"
#include "bundle.h"
#include "clock.h"
#include "delegation.h"
#include "testlib.h"

#define DAY	86400
#define NOW	1704067200	/* 2024-01-01 00:00 UTC */
#define BOT	3		/* the bot's key: player 3's key pair */

static struct testenv env;
static int64_t fake_now;

static void
setup(void)
{
	fake_now = NOW;
	clock_set(testenv_clock, &fake_now);
	testenv_open(&env, 4);
}

static void
teardown(void)
{
	testenv_close(&env);
	clock_set(NULL, NULL);
}

/* A certificate from player `player` for signer `bot`'s key. */
static void
make_cert(struct delegation *d, int player, int bot, int64_t game,
    enum delegation_scope scope, int64_t expires)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->player, sizeof(d->player), "p%d", player);
	crypto_sign_ed25519_sk_to_pk(d->bot, env.player_sk[bot]);
	d->game = game;
	d->scope = scope;
	d->issued = fake_now;
	d->expires = expires;
	ck_assert_int_eq(delegation_sign(d, env.player_sk[player]), 0);
}

static enum engine_status
submit(int player, const struct delegation *d, char id[DELEGATION_ID_TEXT])
{
	struct engine_delegation_result res;
	struct store_player p;
	enum engine_status es;
	char err[1024];

	ck_assert_int_eq(store_player_get(env.st, env.player_id[player], &p),
	    STORE_OK);
	es = engine_delegation_submit(env.st, env.key, &p, d, fake_now,
	    RULES_LANG_EN, &res, err, sizeof(err));
	if (id != NULL)
		memcpy(id, res.id, DELEGATION_ID_TEXT);
	return es;
}

static void
audit_ok(int64_t game, size_t ndelegated)
{
	struct audit_report report;
	struct audit_log log;
	struct store_game row;
	char err[512];

	ck_assert_int_eq(audit_load_store(env.st, game, &log, &row, err,
	    sizeof(err)), 0);
	ck_assert_msg(audit_run(&log, &report, NULL, NULL) == 0,
	    "audit: entry %lld: %s", (long long)report.bad_seq, report.reason);
	ck_assert_uint_eq(report.ndelegated, ndelegated);
	audit_log_clear(&log);
	store_game_clear(&row);
}

/* Play the seat to act's first legal move signed by `signer`. */
static enum engine_status
play_as(int64_t game, int signer)
{
	return testenv_play_first(&env, game, signer, fake_now);
}

START_TEST(test_bot_plays_and_audit_checks_chain)
{
	struct delegation d;
	char id[DELEGATION_ID_TEXT], err[512];
	int64_t game, next, before;
	struct audit_log log;
	struct audit_report report;
	json_t *bundle;
	int seat, first, bot_moves = 0;

	game = testenv_game(&env, "template", 2);
	/* Without a certificate the bot's key is refused, nothing written. */
	first = testenv_to_act(&env, game, &next);
	ck_assert_int_ge(first, 0);
	before = testenv_rows(&env);
	ck_assert_int_eq(play_as(game, BOT), ENGINE_BAD_SIGNATURE);
	ck_assert_int_eq(testenv_rows(&env), before);

	make_cert(&d, first, BOT, DELEGATION_ALL_GAMES, DELEGATION_MOVES,
	    NOW + 30 * DAY);
	ck_assert_int_eq(submit(first, &d, id), ENGINE_OK);
	ck_assert_int_eq(testenv_entry_kind(&env, game, next), STORE_ENTRY_DELEGATION);
	/* Sent again: kept once, recorded once. */
	before = testenv_rows(&env);
	ck_assert_int_eq(submit(first, &d, NULL), ENGINE_OK);
	ck_assert_int_eq(testenv_rows(&env), before);

	/* The bot plays the first seat to the end; the other plays itself. */
	while ((seat = testenv_to_act(&env, game, &next)) >= 0) {
		ck_assert_int_eq(play_as(game, seat == first ? BOT : seat),
		    ENGINE_OK);
		if (seat == first) {
			ck_assert_int_eq(testenv_entry_kind(&env, game, next),
			    STORE_ENTRY_DELEGATED);
			bot_moves++;
		}
	}
	ck_assert_int_gt(bot_moves, 0);
	audit_ok(game, (size_t)bot_moves);

	/* The bundle verifies offline, the chain included. */
	bundle = bundle_export(env.st, game, err, sizeof(err));
	ck_assert_ptr_nonnull(bundle);
	ck_assert_int_eq(bundle_read(bundle, &log, err, sizeof(err)), 0);
	ck_assert_msg(audit_run(&log, &report, NULL, NULL) == 0, "%s",
	    report.reason);
	ck_assert_uint_eq(report.ndelegated, (size_t)bot_moves);
	audit_log_clear(&log);
	json_decref(bundle);

	/* A game started since: the certificate for all games is recorded
	 * in it at its start, and the bot plays there too. */
	game = testenv_game(&env, "template", 2);
	ck_assert_int_eq(testenv_entry_kind(&env, game, 1), STORE_ENTRY_DELEGATION);
	while ((seat = testenv_to_act(&env, game, &next)) >= 0)
		ck_assert_int_eq(play_as(game, seat == first ? BOT : seat),
		    ENGINE_OK);
	audit_ok(game, (size_t)bot_moves);
}
END_TEST

START_TEST(test_views_scope_expiry_and_revocation)
{
	struct delegation d;
	char id[DELEGATION_ID_TEXT], err[1024];
	struct store_player p;
	int64_t game, next, before;
	int me;

	game = testenv_game(&env, "template", 2);
	me = testenv_to_act(&env, game, &next);
	ck_assert_int_ge(me, 0);
	/* Views only: the bot may not move. */
	make_cert(&d, me, BOT, game, DELEGATION_VIEWS, NOW + DAY);
	ck_assert_int_eq(submit(me, &d, NULL), ENGINE_OK);
	before = testenv_rows(&env);
	ck_assert_int_eq(play_as(game, BOT), ENGINE_BAD_SIGNATURE);
	ck_assert_int_eq(testenv_rows(&env), before);

	/* Moves, for a day. */
	fake_now += 1;
	make_cert(&d, me, BOT, game, DELEGATION_MOVES, fake_now + DAY);
	ck_assert_int_eq(submit(me, &d, id), ENGINE_OK);
	ck_assert_int_eq(play_as(game, BOT), ENGINE_OK);
	ck_assert_int_eq(play_as(game, 1 - me), ENGINE_OK);
	/* Expired: checked at the move's time. */
	ck_assert_int_eq(testenv_to_act(&env, game, &next), me);
	fake_now += DAY;
	before = testenv_rows(&env);
	ck_assert_int_eq(play_as(game, BOT), ENGINE_BAD_SIGNATURE);
	ck_assert_int_eq(testenv_rows(&env), before);
	fake_now -= DAY;
	/* Revoked: refused at once, and recorded in the log. */
	ck_assert_int_eq(store_player_get(env.st, env.player_id[me], &p),
	    STORE_OK);
	ck_assert_int_eq(testenv_to_act(&env, game, &next), me);
	ck_assert_int_eq(engine_delegation_revoke(env.st, env.key, &p, id,
	    fake_now, RULES_LANG_EN, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(testenv_entry_kind(&env, game, next), STORE_ENTRY_REVOCATION);
	ck_assert_int_eq(play_as(game, BOT), ENGINE_BAD_SIGNATURE);
	/* A revoked certificate cannot be sent again. */
	ck_assert_int_eq(submit(me, &d, NULL), ENGINE_REFUSED);
	ck_assert_int_eq(play_as(game, me), ENGINE_OK);
	audit_ok(game, 1);
}
END_TEST

START_TEST(test_refusals)
{
	struct delegation d;
	int64_t game, before;
	int i;

	game = testenv_game(&env, "template", 2);
	before = testenv_rows(&env);
	/* Signed by someone else. */
	make_cert(&d, 0, BOT, game, DELEGATION_MOVES, NOW + DAY);
	ck_assert_int_eq(delegation_sign(&d, env.player_sk[1]), 0);
	ck_assert_int_eq(submit(0, &d, NULL), ENGINE_BAD_SIGNATURE);
	/* Sent by another player than the one it names. */
	make_cert(&d, 0, BOT, game, DELEGATION_MOVES, NOW + DAY);
	ck_assert_int_eq(submit(1, &d, NULL), ENGINE_BAD_REQUEST);
	/* Already expired. */
	fake_now = NOW - DAY;
	make_cert(&d, 0, BOT, game, DELEGATION_MOVES, NOW);
	fake_now = NOW;
	ck_assert_int_eq(submit(0, &d, NULL), ENGINE_REFUSED);
	/* The player's own key as the bot's. */
	make_cert(&d, 0, 0, game, DELEGATION_MOVES, NOW + DAY);
	ck_assert_int_eq(submit(0, &d, NULL), ENGINE_BAD_REQUEST);
	/* A game the player does not play, and one that does not exist. */
	make_cert(&d, 2, BOT, game, DELEGATION_MOVES, NOW + DAY);
	ck_assert_int_eq(submit(2, &d, NULL), ENGINE_BAD_SEAT);
	make_cert(&d, 0, BOT, 999, DELEGATION_MOVES, NOW + DAY);
	ck_assert_int_eq(submit(0, &d, NULL), ENGINE_UNKNOWN_GAME);
	ck_assert_int_eq(testenv_rows(&env), before);
	/* The cap: STORE_DELEGATIONS_MAX in force, then refused. */
	for (i = 0; i < STORE_DELEGATIONS_MAX; i++) {
		make_cert(&d, 0, BOT, game, DELEGATION_VIEWS, NOW + DAY + i);
		ck_assert_int_eq(submit(0, &d, NULL), ENGINE_OK);
	}
	make_cert(&d, 0, BOT, game, DELEGATION_VIEWS, NOW + 2 * DAY);
	before = testenv_rows(&env);
	ck_assert_int_eq(submit(0, &d, NULL), ENGINE_REFUSED);
	ck_assert_int_eq(testenv_rows(&env), before);
	audit_ok(game, 0);
}
END_TEST

START_TEST(test_tampered_certificate_fails_audit)
{
	struct audit_report report;
	struct audit_log log;
	struct store_game row;
	struct delegation d;
	char err[512];
	int64_t game, cert_seq;
	int me;

	game = testenv_game(&env, "template", 2);
	me = testenv_to_act(&env, game, &cert_seq);
	make_cert(&d, me, BOT, game, DELEGATION_MOVES, NOW + DAY);
	ck_assert_int_eq(submit(me, &d, NULL), ENGINE_OK);
	ck_assert_int_eq(play_as(game, BOT), ENGINE_OK);
	audit_ok(game, 1);
	/* A changed byte in the recorded certificate breaks the entry. */
	testenv_flip(&env, "log", "text", game, cert_seq, 60);
	ck_assert_int_eq(audit_load_store(env.st, game, &log, &row, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(audit_run(&log, &report, NULL, NULL), -1);
	ck_assert_int_eq(report.bad_seq, cert_seq);
	audit_log_clear(&log);
	store_game_clear(&row);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("delegation");
	TCase *tc = tcase_create("delegation");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_bot_plays_and_audit_checks_chain);
	tcase_add_test(tc, test_views_scope_expiry_and_revocation);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_tampered_certificate_fails_audit);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
