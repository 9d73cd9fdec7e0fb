/*
 * bot.c -- bot_move (rules.h, api_version 8) for Parry (docs/respond.md,
 * "Bots"), decided from the seat's own view and legal moves only:
 *
 *   - on its turn, strike with its lowest strike (or pass with none):
 *     the others' parries are drawn out by the small strikes, and the
 *     high ones come when fewer parries are left;
 *   - in a window, parry a strike worth PARRY_BOT_THRESHOLD or more when
 *     it holds a parry, else pass (a parry is spent on a strike that
 *     matters).
 */
#include <stdio.h>
#include <string.h>

#include "rules.h"

#define PARRY_BOT_THRESHOLD	4

extern const struct rules_module respond_module;
enum rules_status parry_bot_move(const void *state, int seat, int level,
    struct rules_rng *rng, char *out, size_t outlen);

/* The lowest N of the "strike N" texts of moves, or 0. */
static int
lowest_strike(const json_t *moves)
{
	size_t i;
	int card, low = 0;

	for (i = 0; i < json_array_size(moves); i++)
		if (sscanf(json_string_value(json_array_get(moves, i)),
		    "strike %d", &card) == 1 && (low == 0 || card < low))
			low = card;
	return low;
}

static int
has_move(const json_t *moves, const char *text)
{
	size_t i;

	for (i = 0; i < json_array_size(moves); i++)
		if (strcmp(json_string_value(json_array_get(moves, i)),
		    text) == 0)
			return 1;
	return 0;
}

enum rules_status
parry_bot_move(const void *state, int seat, int level,
    struct rules_rng *rng, char *out, size_t outlen)
{
	const struct rules_module *m = &respond_module;
	json_t *moves, *view, *window;
	int strike, n = -1;

	(void)rng;	/* the choice needs no chance */
	if (level != RULES_BOT_NORMAL)
		return RULES_BAD_OPTIONS;
	moves = m->legal_moves(state, seat);
	view = m->view(state, seat);
	window = json_object_get(view, "window");
	if (json_array_size(moves) == 0)
		n = -1;
	else if (window != NULL)
		n = snprintf(out, outlen, "%s", has_move(moves, "parry") &&
		    json_integer_value(json_object_get(window, "card")) >=
		    PARRY_BOT_THRESHOLD ? "parry" : "pass");
	else if ((strike = lowest_strike(moves)) > 0)
		n = snprintf(out, outlen, "strike %d", strike);
	else
		n = snprintf(out, outlen, "%s", json_string_value(
		    json_array_get(moves, 0)));
	json_decref(view);
	json_decref(moves);
	if (n < 0)
		return RULES_NOT_YOUR_TURN;
	return (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}
