/*
 * check_ratelimit.c -- the token buckets of the rate limits
 * (daemon/common/ratelimit.h), with the clock passed in: no test sleeps.
 */
#include <stdio.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "ratelimit.h"

/* How many events in a row name may have at time now. */
static int
run_of(struct ratelimit *rl, const char *name, double rate, double burst,
    double now)
{
	double wait;
	int n = 0;

	while (n < 100000 && ratelimit_take(rl, name, strlen(name), rate,
	    burst, now, &wait))
		n++;
	return n;
}

START_TEST(burst_then_refused)
{
	struct ratelimit *rl = ratelimit_new(16);
	double wait;

	/* A new name starts with a full bucket: exactly burst events. */
	ck_assert_int_eq(run_of(rl, "a", 2, 5, 100.0), 5);
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 2, 5, 100.0, &wait), 0);
	/* One token comes back every 1/rate seconds. */
	ck_assert_double_eq_tol(wait, 0.5, 1e-9);
	ratelimit_free(rl);
}
END_TEST

START_TEST(refill_at_rate)
{
	struct ratelimit *rl = ratelimit_new(16);
	double wait;

	ck_assert_int_eq(run_of(rl, "a", 2, 5, 0.0), 5);
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 2, 5, 0.49, &wait), 0);
	ck_assert_double_eq_tol(wait, 0.01, 1e-9);
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 2, 5, 0.5, &wait), 1);
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 2, 5, 0.5, &wait), 0);
	/* After 1.5 s more: three tokens. */
	ck_assert_int_eq(run_of(rl, "a", 2, 5, 2.0), 3);
	/* A long quiet spell fills the bucket, never past burst. */
	ck_assert_int_eq(run_of(rl, "a", 2, 5, 1000.0), 5);
	ratelimit_free(rl);
}
END_TEST

START_TEST(names_apart)
{
	struct ratelimit *rl = ratelimit_new(16);
	unsigned char k1[32], k2[32];
	double wait;

	ck_assert_int_eq(run_of(rl, "a", 1, 3, 0.0), 3);
	ck_assert_int_eq(run_of(rl, "b", 1, 3, 0.0), 3);
	/* Binary names of full length (keys), differing in the last byte. */
	memset(k1, 7, sizeof(k1));
	memcpy(k2, k1, sizeof(k2));
	k2[31] = 8;
	ck_assert_int_eq(ratelimit_take(rl, k1, 32, 1, 1, 0.0, &wait), 1);
	ck_assert_int_eq(ratelimit_take(rl, k1, 32, 1, 1, 0.0, &wait), 0);
	ck_assert_int_eq(ratelimit_take(rl, k2, 32, 1, 1, 0.0, &wait), 1);
	ck_assert_uint_eq(ratelimit_size(rl), 4);
	ratelimit_free(rl);
}
END_TEST

START_TEST(peek_takes_nothing)
{
	struct ratelimit *rl = ratelimit_new(16);
	double wait;
	int i;

	for (i = 0; i < 10; i++)
		ck_assert_int_eq(ratelimit_peek(rl, "a", 1, 1, 2, 0.0, &wait),
		    1);
	ck_assert_int_eq(run_of(rl, "a", 1, 2, 0.0), 2);
	ck_assert_int_eq(ratelimit_peek(rl, "a", 1, 1, 2, 0.0, &wait), 0);
	ck_assert_double_eq_tol(wait, 1.0, 1e-9);
	ratelimit_free(rl);
}
END_TEST

START_TEST(zero_rate_is_off)
{
	struct ratelimit *rl = ratelimit_new(16);
	double wait = 5;

	ck_assert_int_eq(run_of(rl, "a", 0, 1, 0.0), 100000);
	ck_assert_double_eq(wait, 5);
	ck_assert_uint_eq(ratelimit_size(rl), 0);
	ratelimit_free(rl);
}
END_TEST

/* New settings apply at once: a smaller burst caps what is saved up, a
 * higher rate refills faster. */
START_TEST(settings_change)
{
	struct ratelimit *rl = ratelimit_new(16);

	ck_assert_int_eq(run_of(rl, "a", 1, 10, 0.0), 10);
	ck_assert_int_eq(run_of(rl, "a", 1, 3, 100.0), 3);
	ck_assert_int_eq(run_of(rl, "a", 100, 1000, 101.0), 100);
	ratelimit_free(rl);
}
END_TEST

/* A clock that goes back gives no tokens and breaks nothing. */
START_TEST(clock_backwards)
{
	struct ratelimit *rl = ratelimit_new(16);

	ck_assert_int_eq(run_of(rl, "a", 1, 2, 50.0), 2);
	ck_assert_int_eq(run_of(rl, "a", 1, 2, 10.0), 0);
	ck_assert_int_eq(run_of(rl, "a", 1, 2, 51.0), 1);
	ratelimit_free(rl);
}
END_TEST

/* A full table forgets quiet names; with none to forget, new names share
 * one overflow bucket, so a flood of names gets one name's worth. */
START_TEST(bounded_memory)
{
	struct ratelimit *rl = ratelimit_new(4);
	char name[16];
	double wait;
	int i, allowed = 0;

	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "busy%d", i);
		ck_assert_int_eq(run_of(rl, name, 1, 2, 0.0), 2);
	}
	ck_assert_uint_eq(ratelimit_size(rl), 4);
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "new%d", i);
		allowed += ratelimit_take(rl, name, strlen(name), 1, 2, 0.0,
		    &wait);
	}
	ck_assert_int_eq(allowed, 2);
	ck_assert_uint_eq(ratelimit_size(rl), 4);
	/* The old names are still remembered: still empty. */
	ck_assert_int_eq(run_of(rl, "busy0", 1, 2, 0.0), 0);
	/* Two seconds on, the old buckets are full again and can be
	 * forgotten; a new name then gets its own bucket. */
	ck_assert_int_eq(run_of(rl, "fresh", 1, 2, 2.0), 2);
	ck_assert_uint_eq(ratelimit_size(rl), 1);
	ratelimit_free(rl);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("ratelimit");
	TCase *tc = tcase_create("buckets");

	tcase_add_test(tc, burst_then_refused);
	tcase_add_test(tc, refill_at_rate);
	tcase_add_test(tc, names_apart);
	tcase_add_test(tc, peek_takes_nothing);
	tcase_add_test(tc, zero_rate_is_off);
	tcase_add_test(tc, settings_change);
	tcase_add_test(tc, clock_backwards);
	tcase_add_test(tc, bounded_memory);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	if (sodium_init() < 0)
		return 1;
	sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
