/*
 * check_replaycache.c -- the set of signed requests already seen
 * (daemon/http/replaycache.h), with the clock passed in: no test sleeps.
 *
 * The regression of issue 14, item 9: with http_auth_window raised by
 * SIGHUP, a request captured before and forgotten by a sweep under the
 * old window must not be taken again.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "replaycache.h"

static void
sig_of(unsigned char sig[64], int n)
{
	memset(sig, 0, 64);
	memcpy(sig, &n, sizeof(n));
	sig[63] = (unsigned char)n;
}

START_TEST(replay_refused)
{
	struct replaycache *rc = replaycache_new();
	unsigned char sig[64];

	sig_of(sig, 1);
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1000, 120, 1000),
	    0);
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1000, 120, 1001),
	    1);
	ck_assert_uint_eq(replaycache_size(rc), 1);
	replaycache_free(rc);
}
END_TEST

/* Under a constant window, sweeping forgets only what the window
 * refuses anyway, and nothing inside the window is called too old. */
START_TEST(sweep_keeps_the_window)
{
	struct replaycache *rc = replaycache_new();
	unsigned char sig[64];

	sig_of(sig, 1);
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1000, 60, 1000), 0);
	sig_of(sig, 2);
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1050, 60, 1050), 0);
	replaycache_sweep(rc, 1100);		/* forgets time 1000 */
	ck_assert_uint_eq(replaycache_size(rc), 1);
	ck_assert_int_eq(replaycache_floor(rc), 1040);
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1050, 60, 1100), 1);
	sig_of(sig, 3);
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1040, 60, 1100), 0);
	replaycache_free(rc);
}
END_TEST

/* The window goes from 60 to 300 s after the request was forgotten: the
 * old request is still refused (as too old, not taken as new). */
START_TEST(widened_window_no_replay)
{
	struct replaycache *rc = replaycache_new();
	unsigned char sig[64];

	sig_of(sig, 7);
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1000, 60, 1000), 0);
	replaycache_sweep(rc, 1100);
	ck_assert_uint_eq(replaycache_size(rc), 0);
	/* At 1110 the window is 300: time 1000 is inside it. */
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1000, 300, 1110),
	    REPLAYCACHE_TOO_OLD);
	/* From now on the set keeps 300 s: a request taken under the wide
	 * window stays known after a sweep 200 s later. */
	sig_of(sig, 8);
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1110, 300, 1110),
	    0);
	replaycache_sweep(rc, 1310);
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1110, 300, 1310),
	    1);
	/* Narrowing again does not shrink what is kept. */
	replaycache_sweep(rc, 1400);
	ck_assert_int_eq(replaycache_check_and_add(rc, sig, 1110, 60, 1400),
	    1);
	replaycache_free(rc);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("replaycache");
	TCase *tc = tcase_create("replaycache");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, replay_refused);
	tcase_add_test(tc, sweep_keeps_the_window);
	tcase_add_test(tc, widened_window_no_replay);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
