/*
 * eve.c -- Enterprise vs Excelsior: the module table, setup and options,
 * who acts, check/apply and the result.
 *
 * The game (docs/eve.md): two ships race along their own route of a row
 * of travel cards, paying flight cards for the spaces ahead; the first to
 * the last space ends the stage and scores the distance to the other
 * ship, the player with more cards played to Starfleet scores 3; stages
 * repeat until someone has 12 points.  Expert mode adds ship tracks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eve.h"

/* The opening position of a game of rules version 1 .. EVE_RULES_VERSION:
 * the deal is the same for every version; the version is kept in the
 * state and chooses the rules (eve.h). */
static void *
eve_setup_version(int version, int nseats, const json_t *options,
    struct rules_rng *rng, char *err, size_t errlen)
{
	struct eve *g;
	const char *key;
	json_t *val;
	int mode = MODE_BASE, first = -1, s, i;

	if (nseats != EVE_SEATS) {
		snprintf(err, errlen, "Enterprise vs Excelsior is played by "
		    "exactly 2 players, not %d", nseats);
		return NULL;
	}
	json_object_foreach((json_t *)options, key, val) {
		if (strcmp(key, "mode") == 0) {
			const char *m = json_string_value(val);

			if (m != NULL && strcmp(m, "base") == 0)
				mode = MODE_BASE;
			else if (m != NULL && strcmp(m, "expert") == 0)
				mode = MODE_EXPERT;
			else {
				snprintf(err, errlen, "option \"mode\" must be "
				    "\"base\" or \"expert\"");
				return NULL;
			}
		} else if (strcmp(key, "first") == 0) {
			if (json_is_integer(val) && (json_integer_value(val) ==
			    0 || json_integer_value(val) == 1))
				first = (int)json_integer_value(val);
			else if (json_is_string(val) &&
			    strcmp(json_string_value(val), "random") == 0)
				first = -1;
			else {
				snprintf(err, errlen, "option \"first\" must be "
				    "0, 1 or \"random\"");
				return NULL;
			}
		} else {
			snprintf(err, errlen, "unknown option \"%s\"; the "
			    "options are \"mode\" (\"base\" or \"expert\") and "
			    "\"first\" (0, 1 or \"random\")", key);
			return NULL;
		}
	}
	if ((g = calloc(1, sizeof(*g))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	g->version = version;
	g->mode = mode;
	g->winner = -1;
	g->last_finisher = -1;
	for (s = 0; s < EVE_SEATS; s++)
		g->last[s].nsteps = -1;
	for (i = 0; i < EVE_TRAVEL; i++)
		g->tdeck[i] = i;
	g->ntdeck = EVE_TRAVEL;
	for (s = 0; s < EVE_SEATS; s++) {
		struct eve_player *pl = &g->p[s];

		for (i = 0; i < EVE_DECK; i++)
			pl->deck[i] = i;
		pl->ndeck = EVE_DECK;
		rules_rng_shuffle(rng, pl->deck, EVE_DECK);
		while (pl->nhand < EVE_HAND)
			pl->hand[pl->nhand++] = pl->deck[--pl->ndeck];
	}
	if (mode == MODE_EXPERT)
		eve_expert_init(g);
	if (first < 0)
		first = (int)rules_rng_below(rng, EVE_SEATS);
	eve_new_stage(g, first, rng);
	return g;
}

static void *
eve_setup(int nseats, const json_t *options, struct rules_rng *rng,
    char *err, size_t errlen)
{
	return eve_setup_version(EVE_RULES_VERSION, nseats, options, rng, err,
	    errlen);
}

static void
eve_destroy(void *state)
{
	free(state);
}

static int
eve_to_act(const void *state, int *seats, int max)
{
	const struct eve *g = state;

	if (g->over)
		return 0;
	if (max > 0)
		seats[0] = g->current;
	return 1;
}

static enum rules_status
eve_parse(const void *state, int seat, const char *text,
    enum rules_lang lang, json_t **move, char *err, size_t errlen)
{
	struct eve_step steps[EVE_MAXSTEPS];
	int n;

	(void)state;
	(void)seat;
	if (eve_parse_turn(text, steps, &n, lang, err, errlen) != 0)
		return RULES_SYNTAX;
	*move = eve_steps_json(steps, n);
	return RULES_OK;
}

/* translate (api_version 2): parse the turn, write its steps in lang. */
static enum rules_status
eve_translate(const void *state, int seat, const char *text,
    enum rules_lang lang, char *out, size_t outlen)
{
	struct eve_step steps[EVE_MAXSTEPS];
	char err[RULES_ERRLEN];
	int n;

	(void)state;
	(void)seat;
	if (eve_parse_turn(text, steps, &n, lang, err, sizeof(err)) != 0 ||
	    eve_steps_text(steps, n, lang, out, outlen) != 0)
		return RULES_SYNTAX;
	return RULES_OK;
}

static enum rules_status
eve_check(const void *state, int seat, const json_t *move,
    enum rules_lang lang, char *err, size_t errlen)
{
	struct eve_step steps[EVE_MAXSTEPS];
	struct eve copy = *(const struct eve *)state;
	int n;

	if (eve_steps_from_json(move, steps, &n) != 0) {
		eve_err(err, errlen, lang, "the move is not a list of steps",
		    "le coup n'est pas une liste d'étapes");
		return RULES_SYNTAX;
	}
	return eve_run_turn(&copy, seat, steps, n, NULL, lang, err, errlen);
}

static void
eve_apply(void *state, int seat, const json_t *move, struct rules_rng *rng)
{
	struct eve_step steps[EVE_MAXSTEPS];
	struct eve *g = state;
	char err[RULES_ERRLEN];
	int n;

	if (eve_steps_from_json(move, steps, &n) != 0 ||
	    eve_run_turn(g, seat, steps, n, rng, RULES_LANG_EN, err,
	    sizeof(err)) != RULES_OK)
		abort();	/* check() passed on this very state */
	/* What the other seat's views will say this seat did. */
	if (g->version >= 3) {
		g->last[seat].nsteps = n;
		memcpy(g->last[seat].steps, steps, (size_t)n *
		    sizeof(steps[0]));
	}
}

static json_t *
eve_result(const void *state)
{
	const struct eve *g = state;
	json_t *winners;

	if (!g->over)
		return NULL;
	winners = json_array();
	if (g->winner >= 0)
		json_array_append_new(winners, json_integer(g->winner));
	return json_pack("{s:[i,i], s:o, s:s}", "scores", g->p[0].score,
	    g->p[1].score, "winners", winners, "outcome",
	    g->winner >= 0 ? "winner" : "no winner");
}

/*
 * default_move (api_version 3; docs/eve.md, "Missed deadlines"): "pass",
 * the minimal turn, always legal for the seat to play while the game runs
 * (its hand is still refilled at the end of the turn).
 */
static enum rules_status
eve_default_move(const void *state, int seat, char *out, size_t outlen)
{
	const struct eve *g = state;
	int n;

	if (g->over || seat != g->current)
		return RULES_NOT_YOUR_TURN;
	n = snprintf(out, outlen, "pass");
	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}

/*
 * sample_illegal_move (api_version 5): the first of these texts that
 * parse() or check() refuses: four flights to nebulas in one turn (which
 * the rules and a hand of cards do not allow), else the discard of a
 * card that does not exist.  Both are the same for every state of the
 * seat's knowledge, so the choice reveals nothing.
 */
static enum rules_status
eve_sample_illegal_move(const void *state, int seat, char *out,
    size_t outlen)
{
	static const char *const tries[] = {
		"fly nebula; fly nebula; fly nebula; fly nebula",
		"discard Z99"
	};
	const struct eve *g = state;
	char err[RULES_ERRLEN];
	json_t *move;
	size_t i;
	int n, legal;

	if (g->over || seat != g->current)
		return RULES_NOT_YOUR_TURN;
	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		move = NULL;
		legal = eve_parse(state, seat, tries[i], RULES_LANG_EN, &move,
		    err, sizeof(err)) == RULES_OK && eve_check(state, seat,
		    move, RULES_LANG_EN, err, sizeof(err)) == RULES_OK;
		json_decref(move);
		if (!legal)
			break;
	}
	if (i == sizeof(tries) / sizeof(tries[0]))
		return RULES_ILLEGAL;
	n = snprintf(out, outlen, "%s", tries[i]);
	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}

const struct rules_module eve_module = {
	.api_version = RULES_API_VERSION,
	.name = "eve",
	.ruleset_version = EVE_RULES_VERSION,
	.title_en = "Enterprise vs Excelsior",
	.title_fr = "Enterprise contre Excelsior",
	.summary_en = "Race the Enterprise against the Excelsior along routes "
	    "of travel cards, flying with matching cards, jokers and Spock's "
	    "tricks; the first to 12 points over several stages wins.",
	.summary_fr = "Faites la course entre l'Enterprise et l'Excelsior sur "
	    "des itinéraires de cartes de voyage, avec des cartes de vol, des "
	    "jokers et les ruses de Spock ; le premier à 12 points après "
	    "plusieurs étapes gagne.",
	.min_seats = EVE_SEATS,
	.max_seats = EVE_SEATS,
	.setup = eve_setup,
	.oldest_ruleset_version = 1,
	.setup_version = eve_setup_version,
	.destroy = eve_destroy,
	.save = eve_save,
	.load = eve_load,
	.to_act = eve_to_act,
	.parse = eve_parse,
	.check = eve_check,
	.apply = eve_apply,
	.view = eve_view,
	.legal_moves = eve_legal_moves,
	.move_forms = eve_move_forms,
	.result = eve_result,
	.score_cards = NULL,
	.translate = eve_translate,
	.default_move = eve_default_move,
	.skip_check = NULL,
	.skip_apply = NULL,
	.response_window = NULL,
	.describe_last = eve_describe_last,
	.sample_illegal_move = eve_sample_illegal_move,
	.bot_move = eve_bot_move,
};
