/*
 * bench_stm_score.c -- how fast the Star Trek: Missions scorer is.
 *
 * Prints hands per second over many random dealt hands (5 Galaxy + 2
 * Mission cards), the time per hand of a fixed worst case (every choice
 * card at once in a 12-card hand), and the spread of times over random
 * hands that hold the choice cards: 12-card hands with all five (Borg
 * Cube, Unidentified Ship, Thought Maker, Mysterious Plague, Wesley
 * Crusher) and 9-card hands (the usual final hand after Meddlesome Q)
 * with the first four.  Each of those is timed as the best of a few
 * runs, to keep other load on the machine out of the figures.  Seeded:
 * the same hands on every run.  Not part of `make check`; run with
 * `make bench`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cards.h"
#include "score.h"

#define DEALT_HANDS	200000
#define WORST_REPEATS	2000
#define CHOICE_HANDS	2000
#define CHOICE_REPEATS	3

static uint64_t
next_random(uint64_t *state)
{
	uint64_t z;

	*state += 0x9e3779b97f4a7c15ULL;
	z = *state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
in_hand(const int *hand, int n, int card)
{
	int i;

	for (i = 0; i < n; i++)
		if (hand[i] == card)
			return 1;
	return 0;
}

static void
add_random(uint64_t *state, int *hand, int *n, int lo, int hi)
{
	int c;

	do
		c = lo + (int)(next_random(state) % (uint64_t)(hi - lo));
	while (in_hand(hand, *n, c));
	hand[(*n)++] = c;
}

/* Seconds for one scoring of the hand: the best of `repeats` runs. */
static double
time_hand(const int *hand, int n, int repeats)
{
	struct stm_hand_score s;
	double t0, t, best = 1e9;
	int r;

	for (r = 0; r < repeats; r++) {
		t0 = now();
		if (stm_score_hand(hand, n, &s) != 0)
			return -1;
		t = now() - t0;
		if (t < best)
			best = t;
	}
	return best;
}

static int
by_time(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Time CHOICE_HANDS random hands of `size` cards holding the first
 * `nfixed` of fixed[]; print the median, 99th percentile and slowest. */
static void
choice_hands(const char *what, const int *fixed, int nfixed, int size,
    uint64_t *state)
{
	static double t[CHOICE_HANDS];
	int hand[STM_HAND_MAX], slowest[STM_HAND_MAX];
	int i, k, n;
	double max = 0;

	for (k = 0; k < CHOICE_HANDS; k++) {
		n = 0;
		for (i = 0; i < nfixed; i++)
			hand[n++] = fixed[i];
		while (n < size)
			add_random(state, hand, &n, 0, STM_NCARDS);
		t[k] = time_hand(hand, n, CHOICE_REPEATS);
		if (t[k] > max) {
			max = t[k];
			for (i = 0; i < n; i++)
				slowest[i] = hand[i];
		}
	}
	qsort(t, CHOICE_HANDS, sizeof(t[0]), by_time);
	printf("%s (%d hands): median %.1f us, 99th percentile %.1f us, "
	    "slowest %.1f us:", what, CHOICE_HANDS, t[CHOICE_HANDS / 2] * 1e6,
	    t[CHOICE_HANDS * 99 / 100] * 1e6, max * 1e6);
	for (i = 0; i < size; i++)
		printf(" %s", stm_cards[slowest[i]].id);
	printf("\n");
}

int
main(void)
{
	static const int worst[] = {
		STM_C_BORG_CUBE, STM_C_UNIDENTIFIED_SHIP, STM_C_THOUGHT_MAKER,
		STM_C_MYSTERIOUS_PLAGUE, STM_C_WESLEY, STM_C_DEANNA_TROI,
		STM_C_DIPLOMATIC_CONFERENCE, STM_C_AWAY_TEAM, STM_C_TOMALAK,
		STM_C_ENGINE_ROOM, STM_C_PICARD, STM_C_KURN
	};
	static const int choosers[] = {
		STM_C_BORG_CUBE, STM_C_UNIDENTIFIED_SHIP, STM_C_THOUGHT_MAKER,
		STM_C_MYSTERIOUS_PLAGUE, STM_C_WESLEY
	};
	struct stm_hand_score s;
	uint64_t state = 1;
	int hand[STM_HAND_MAX];
	int k, n;
	long sum = 0;
	double t0, t;

	t0 = now();
	for (k = 0; k < DEALT_HANDS; k++) {
		n = 0;
		while (n < 5)
			add_random(&state, hand, &n, 0, STM_NGALAXY);
		while (n < 7)
			add_random(&state, hand, &n, STM_NGALAXY, STM_NCARDS);
		if (stm_score_hand(hand, n, &s) != 0)
			return 1;
		sum += s.total;
	}
	t = now() - t0;
	printf("random dealt 7-card hands: %d in %.3f s: %.0f hands/s "
	    "(mean total %.1f)\n", DEALT_HANDS, t, DEALT_HANDS / t,
	    (double)sum / DEALT_HANDS);

	if (stm_score_hand(worst, 12, &s) != 0)
		return 1;
	t0 = now();
	for (k = 0; k < WORST_REPEATS; k++)
		stm_score_hand(worst, 12, &s);
	t = (now() - t0) / WORST_REPEATS;
	printf("fixed worst case (Borg Cube, Unidentified Ship, Thought Maker,"
	    " Mysterious Plague, Wesley + 7): %.1f us per hand "
	    "(total %d)\n", t * 1e6, s.total);

	choice_hands("12-card hands with all five choice cards", choosers, 5,
	    12, &state);
	choice_hands("9-card hands with Borg Cube, the Ship, Thought Maker, "
	    "Plague", choosers, 4, 9, &state);
	return 0;
}
