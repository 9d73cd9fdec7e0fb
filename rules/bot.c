/*
 * bot.c -- the move a server-played seat chooses (rules.h,
 * rules_bot_move; docs/SERVER-BOTS.md): the module's own bot_move() for the
 * levels above random, else a uniformly random legal move.
 */
#include <stdio.h>
#include <string.h>

#include "rules.h"

static const char *const level_names[RULES_BOT_LEVELS] = {
	[RULES_BOT_RANDOM] = "random",
	[RULES_BOT_NORMAL] = "normal",
};

int
rules_bot_level(const char *name)
{
	int i;

	for (i = 0; i < RULES_BOT_LEVELS; i++)
		if (strcmp(name, level_names[i]) == 0)
			return i;
	return -1;
}

const char *const *
rules_module_bot_levels(const struct rules_module *m)
{
	return m->api_version >= 9 ? m->bot_levels : NULL;
}

int
rules_bot_level_of(const struct rules_module *m, const char *name)
{
	const char *const *own = rules_module_bot_levels(m);

	for (int i = 0; own != NULL && own[i] != NULL; i++)
		if (strcmp(name, own[i]) == 0)
			return RULES_BOT_NORMAL;
	return rules_bot_level(name);
}

const char *
rules_bot_level_name(int level)
{
	if (level < 0 || level >= RULES_BOT_LEVELS)
		return "normal";
	return level_names[level];
}

/* A uniformly random entry of legal_moves(), drawn from rng. */
static enum rules_status
random_move(const struct rules_module *m, const void *state, int seat,
    struct rules_rng *rng, char *out, size_t outlen)
{
	json_t *moves = m->legal_moves(state, seat);
	size_t n = json_array_size(moves);
	const char *text;
	int len;

	if (n == 0) {
		json_decref(moves);
		return RULES_NOT_YOUR_TURN;
	}
	text = json_string_value(json_array_get(moves,
	    rules_rng_below(rng, (uint32_t)n)));
	len = text == NULL ? -1 : snprintf(out, outlen, "%s", text);
	json_decref(moves);
	return len < 0 || (size_t)len >= outlen ? RULES_ILLEGAL : RULES_OK;
}

enum rules_status
rules_bot_move(const struct rules_module *m, const void *state, int seat,
    int level, struct rules_rng *rng, char *out, size_t outlen)
{
	if (level > RULES_BOT_RANDOM && m->api_version >= 8 &&
	    m->bot_move != NULL && m->bot_move(state, seat, level, rng, out,
	    outlen) == RULES_OK)
		return RULES_OK;
	return random_move(m, state, seat, rng, out, outlen);
}
