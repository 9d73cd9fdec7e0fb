/*
 * fuzz_moves.c -- libFuzzer harness for the move texts of every rule
 * module (rules/registry.c), and for their game options and the deadline
 * policy (daemon/engine/policy.c), the JSON a player sends with a game.
 *
 * One input chooses a module, a seat count, how many legal moves to play
 * first (so positions vary), and then a text tried by every seat in both
 * languages.  Besides "does not crash, does not read out of bounds", it
 * checks what every module promises (rules/rules.h):
 *
 *   - every text legal_moves() lists parses and checks for that seat;
 *   - a text that parses and checks applies, and the state after it
 *     saves, loads and saves again to the same JSON;
 *   - views and move forms are built for every seat in both languages;
 *   - options and policies either are refused with a reason or build a
 *     game (setup) and a policy that prints back to one it accepts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "policy.h"
#include "rng.h"
#include "rules.h"
#include "testcards.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const unsigned char seed[RNG_SEED_BYTES] =
    "pbem fuzz_moves seed, 32 bytes!";

/* The same state through save, load and save: must not change. */
static void *
round_trip(const struct rules_module *m, const void *state)
{
	char err[RULES_ERRLEN];
	json_t *a, *b;
	void *copy;

	a = m->save(state);
	if ((copy = testcards_load(m, a, err, sizeof(err))) == NULL)
		abort();
	b = m->save(copy);
	if (!json_equal(a, b))
		abort();
	json_decref(a);
	json_decref(b);
	return copy;
}

/* Play the legal move picked by choice for the first seat to act; 0 if
 * nobody may act. */
static int
play_legal(const struct rules_module *m, void *state, int64_t seq,
    unsigned choice)
{
	char err[RULES_ERRLEN];
	struct rules_rng rng;
	json_t *legal, *move = NULL;
	const char *text;
	int seat;

	if (m->to_act(state, &seat, 1) < 1)
		return 0;
	legal = m->legal_moves(state, seat);
	if (json_array_size(legal) == 0) {
		json_decref(legal);
		return 0;
	}
	text = json_string_value(json_array_get(legal,
	    choice % json_array_size(legal)));
	if (text == NULL || m->parse(state, seat, text, RULES_LANG_EN, &move,
	    err, sizeof(err)) != RULES_OK || m->check(state, seat, move,
	    RULES_LANG_EN, err, sizeof(err)) != RULES_OK)
		abort();		/* a listed move must be playable */
	rng_init(&rng, seed, (uint64_t)seq);
	m->apply(state, seat, move, &rng);
	json_decref(move);
	json_decref(legal);
	return 1;
}

/* Every seat tries text in both languages, on a copy each time. */
static void
try_text(const struct rules_module *m, const void *state, int nseats,
    const char *text)
{
	static const enum rules_lang langs[] = { RULES_LANG_EN, RULES_LANG_FR };
	char err[RULES_ERRLEN];
	struct rules_rng rng;
	json_t *move, *j;
	void *copy, *after;
	int seat, l;

	for (seat = 0; seat < nseats; seat++)
		for (l = 0; l < 2; l++) {
			move = NULL;
			if (m->parse(state, seat, text, langs[l], &move, err,
			    sizeof(err)) != RULES_OK ||
			    m->check(state, seat, move, langs[l], err,
			    sizeof(err)) != RULES_OK) {
				json_decref(move);
				continue;
			}
			copy = round_trip(m, state);
			rng_init(&rng, seed, 1000);
			m->apply(copy, seat, move, &rng);
			after = round_trip(m, copy);
			m->destroy(after);
			m->destroy(copy);
			json_decref(move);
		}
	for (seat = 0; seat < nseats; seat++) {
		json_decref(m->view(state, seat));
		for (l = 0; l < 2; l++)
			json_decref(m->move_forms(state, seat, langs[l]));
	}
	if ((j = m->result(state)) != NULL)
		json_decref(j);
}

/* The input as JSON options for every module and as a policy. */
static void
try_options(const char *text)
{
	const struct rules_module *const *all = rules_all();
	char err[512], *printed;
	struct rules_rng rng;
	struct policy p, again;
	json_t *opts;
	void *state;
	int i, n;

	opts = json_loads(text, 0, NULL);
	for (i = 0; all[i] != NULL; i++) {
		/* As the engine reads a policy: over the defaults. */
		policy_default(&p);
		policy_default(&again);
		if (policy_parse(text, all[i], &p, err, sizeof(err)) == 0) {
			if ((printed = policy_text(&p)) == NULL ||
			    policy_parse(printed, all[i], &again, err,
			    sizeof(err)) != 0)
				abort();
			free(printed);
		}
		if (!json_is_object(opts))
			continue;
		for (n = all[i]->min_seats; n <= all[i]->max_seats; n++) {
			rng_init(&rng, seed, 0);
			state = testcards_setup(all[i], n, opts, &rng, err,
			    sizeof(err));
			if (state != NULL)
				all[i]->destroy(state);
		}
	}
	json_decref(opts);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rules_module *const *all = rules_all();
	const struct rules_module *m;
	char err[RULES_ERRLEN], *text;
	struct rules_rng rng;
	json_t *opts;
	void *state;
	int nmod, nseats, i, moves;

	if (size < 4)
		return 0;
	for (nmod = 0; all[nmod] != NULL; nmod++)
		;
	m = all[data[0] % nmod];
	nseats = m->min_seats + data[1] % (m->max_seats - m->min_seats + 1);
	moves = data[2] % 24;
	if ((text = malloc(size - 3 + 1)) == NULL)
		return 0;
	memcpy(text, data + 3, size - 3);
	text[size - 3] = '\0';

	opts = json_object();
	rng_init(&rng, seed, 0);
	state = testcards_setup(m, nseats, opts, &rng, err, sizeof(err));
	json_decref(opts);
	if (state == NULL)
		abort();		/* the default options always set up */
	for (i = 0; i < moves; i++)
		if (!play_legal(m, state, i + 1, (unsigned)data[3 + i %
		    (size - 3)] * 7 + (unsigned)i))
			break;
	try_text(m, state, nseats, text);
	m->destroy(state);
	try_options(text);
	free(text);
	return 0;
}
