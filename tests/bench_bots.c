/*
 * bench_bots.c -- how well each game's "normal" bot plays (rules.h,
 * bot_move; docs/SERVER-BOTS.md): GAMES games of every registered module
 * at two seats, the normal bot against the random one (a uniformly random
 * legal move), the normal bot at seat 0 in even games and seat 1 in odd
 * ones.  Each game's seed is its number; both bots draw from the bot's
 * stream of the step (rng_init_bot), the moves from the move's own.  The
 * run checks what a bot must do (every text it chooses is accepted by
 * parse() and check(); every game ends within MAX_MOVES) and prints, per
 * game, the normal bot's wins, ties (a shared victory) and losses.
 *
 *   tests/bench_bots [GAMES [RULESET]]   (default 1000, every game)
 *
 * Exit status 1 if a bot chose a refused move or a game did not end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "rules.h"

#define MAX_MOVES	20000

struct tally {
	int	wins, ties, losses;
};

/* Play one game; the tally gets its outcome for the normal seat.  0, or
 * -1 with the reason printed. */
static int
play_game(const struct rules_module *m, const void *cards, int game,
    struct tally *t)
{
	unsigned char seed[RNG_SEED_BYTES];
	char text[2048], err[RULES_ERRLEN];
	struct rules_rng rng;
	json_t *opts = json_object(), *move, *result, *winners;
	void *state;
	int normal = game % 2, seats[8], nact, step, seat, won = 0, shared = 0;
	size_t i;

	memset(seed, 0, sizeof(seed));
	seed[0] = (unsigned char)game;
	seed[1] = (unsigned char)(game >> 8);
	memcpy(seed + 2, m->name, strlen(m->name) < 20 ? strlen(m->name) : 20);
	rng_init(&rng, seed, 0);
	state = rules_setup_game(m, cards, m->ruleset_version, 2, opts, &rng,
	    err, sizeof(err));
	json_decref(opts);
	if (state == NULL) {
		printf("%s: setup: %s\n", m->name, err);
		return -1;
	}
	for (step = 1; step <= MAX_MOVES; step++) {
		if ((nact = m->to_act(state, seats, 8)) == 0)
			break;
		seat = seats[0];
		rng_init_bot(&rng, seed, (uint64_t)step);
		if (rules_bot_move(m, state, seat, seat == normal ?
		    RULES_BOT_NORMAL : RULES_BOT_RANDOM, &rng, text,
		    sizeof(text)) != RULES_OK) {
			printf("%s game %d: no bot move for seat %d\n",
			    m->name, game, seat);
			m->destroy(state);
			return -1;
		}
		move = NULL;
		if (m->parse(state, seat, text, RULES_LANG_EN, &move, err,
		    sizeof(err)) != RULES_OK || m->check(state, seat, move,
		    RULES_LANG_EN, err, sizeof(err)) != RULES_OK) {
			printf("%s game %d: bot move \"%s\" refused: %s\n",
			    m->name, game, text, err);
			json_decref(move);
			m->destroy(state);
			return -1;
		}
		rng_init(&rng, seed, (uint64_t)step);
		m->apply(state, seat, move, &rng);
		json_decref(move);
	}
	if (step > MAX_MOVES) {
		printf("%s game %d: no end after %d moves\n", m->name, game,
		    MAX_MOVES);
		m->destroy(state);
		return -1;
	}
	result = m->result(state);
	winners = json_object_get(result, "winners");
	for (i = 0; i < json_array_size(winners); i++)
		if (json_integer_value(json_array_get(winners, i)) == normal)
			won = 1;
	shared = json_array_size(winners) > 1;
	if (won && !shared)
		t->wins++;
	else if (won)
		t->ties++;
	else
		t->losses++;
	json_decref(result);
	m->destroy(state);
	return 0;
}

/* The module's own card set (rules/GAME/cards.yaml) for a game whose
 * cards are data, else NULL; *failed is set when it cannot be read. */
static void *
own_cards(const struct rules_module *m, int *failed)
{
	char path[1024], err[RULES_ERRLEN] = "", *bytes;
	void *cards = NULL;
	long len;
	FILE *f;

	if (m->cards_parse == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s/rules/%s/cards.yaml", BENCH_SRCDIR,
	    m->name);
	if ((f = fopen(path, "rb")) == NULL || fseek(f, 0, SEEK_END) != 0 ||
	    (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    (bytes = malloc((size_t)len + 1)) == NULL) {
		printf("%s: cannot read %s\n", m->name, path);
		if (f != NULL)
			fclose(f);
		*failed = 1;
		return NULL;
	}
	if (fread(bytes, 1, (size_t)len, f) == (size_t)len)
		cards = m->cards_parse(bytes, (size_t)len, path, err,
		    sizeof(err));
	if (cards == NULL) {
		printf("%s: %s: %s\n", m->name, path, err);
		*failed = 1;
	}
	free(bytes);
	fclose(f);
	return cards;
}

int
main(int argc, char **argv)
{
	const struct rules_module *const *all = rules_all();
	int games = argc > 1 ? atoi(argv[1]) : 1000, g, failed = 0;
	size_t i;

	if (games <= 0) {
		fprintf(stderr, "usage: bench_bots [GAMES [RULESET]]\n");
		return 2;
	}
	printf("%-12s %6s %6s %6s %6s  %s\n", "game", "games", "wins", "ties",
	    "losses", "normal bot's win rate against the random one");
	for (i = 0; all[i] != NULL; i++) {
		struct tally t = { 0, 0, 0 };
		void *cards;

		if (all[i]->min_seats > 2 || all[i]->max_seats < 2 ||
		    (argc > 2 && strcmp(argv[2], all[i]->name) != 0))
			continue;
		cards = own_cards(all[i], &failed);
		for (g = 0; g < games; g++)
			if (play_game(all[i], cards, g, &t) != 0)
				failed = 1;
		if (cards != NULL)
			all[i]->cards_free(cards);
		printf("%-12s %6d %6d %6d %6d  %.1f%% (ties %.1f%%)\n",
		    all[i]->name, games, t.wins, t.ties, t.losses,
		    100.0 * t.wins / games, 100.0 * t.ties / games);
	}
	return failed;
}
