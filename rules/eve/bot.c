/*
 * bot.c -- bot_move (rules.h, api_version 8; docs/eve.md, "Bots"): the
 * "normal" bot tries every turn legal_moves() offers on a copy of the
 * state and plays the one that leaves it best placed, judged from what
 * the table sees:
 *
 *   a win                                    1,000,000
 *   each point of score ahead of the other       1,000
 *   each space its ship is ahead of the other       10
 *   each fresh card the turn draws into its hand     1
 *   a pass                                          -1
 *
 * (the last two so that a seat with nothing to fly sheds cards rather
 * than passing with a hand that never changes: two bots that both pass
 * would never end the game).  A turn moves the ships over
 * the public row only; the cards the copy draws afterwards (its own
 * refill, a new stage's row) are not looked at but for their number, so
 * the choice reveals nothing.
 * Ties keep the first turn listed (the furthest flight comes first).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eve.h"

#define BOT_WIN		1000000L
#define BOT_POINT	1000L
#define BOT_SPACE	10L

/* How well placed seat is in g, a copy of before after its turn. */
static long
standing(const struct eve *before, const struct eve *g, int seat)
{
	const struct eve_player *me = &g->p[seat], *other = &g->p[1 - seat];
	int drawn = before->p[seat].ndeck - me->ndeck;
	long v;

	if (g->over)
		return g->winner == seat ? BOT_WIN : -BOT_WIN;
	v = BOT_POINT * (me->score - other->score);
	v += BOT_SPACE * (me->pos - other->pos);
	return v + (drawn > 0 ? drawn : 0);
}

enum rules_status
eve_bot_move(const void *state, int seat, int level, struct rules_rng *rng,
    char *out, size_t outlen)
{
	const struct eve *g = state;
	const struct rules_module *m = &eve_module;
	char err[RULES_ERRLEN];
	const char *best_text = NULL;
	struct eve *copy;
	json_t *moves, *move;
	long value, best = 0;
	size_t i;
	int n;

	if (level != RULES_BOT_NORMAL)
		return RULES_BAD_OPTIONS;
	if (g->over || seat != g->current)
		return RULES_NOT_YOUR_TURN;
	if ((copy = malloc(sizeof(*copy))) == NULL)
		return RULES_ILLEGAL;
	moves = m->legal_moves(state, seat);
	for (i = 0; i < json_array_size(moves); i++) {
		const char *text = json_string_value(json_array_get(moves, i));

		move = NULL;
		if (m->parse(state, seat, text, RULES_LANG_EN, &move, err,
		    sizeof(err)) != RULES_OK || m->check(state, seat, move,
		    RULES_LANG_EN, err, sizeof(err)) != RULES_OK) {
			json_decref(move);
			continue;
		}
		*copy = *g;
		m->apply(copy, seat, move, rng);
		json_decref(move);
		value = standing(g, copy, seat) -
		    (strcmp(text, "pass") == 0 ? 1 : 0);
		if (best_text == NULL || value > best) {
			best = value;
			best_text = text;
		}
	}
	free(copy);
	n = best_text == NULL ? -1 : snprintf(out, outlen, "%s", best_text);
	json_decref(moves);
	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}
