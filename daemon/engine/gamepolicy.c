/*
 * gamepolicy.c -- a game's deadline policy as the engine reads and sets
 * it (engine.h): the stored text, or the default when none is set
 * (policy.h holds the policy itself and its arithmetic; docs/ASYNC.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

enum engine_status
engine_policy_get(struct store *st, int64_t game_id, struct policy *p,
    char *err, size_t errlen)
{
	return engine_policy_of(st, game_id, NULL, p, err, errlen);
}

enum engine_status
engine_policy_of(struct store *st, int64_t game_id,
    const struct rules_module *m, struct policy *p, char *err,
    size_t errlen)
{
	struct store_game g;
	enum store_status rc;
	char *text = NULL, perr[512];
	int bad;

	policy_default(p);
	rc = store_policy_get(st, game_id, &text);
	if (rc == STORE_NOTFOUND)
		return ENGINE_OK;
	if (rc != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
	}
	if (m == NULL) {
		memset(&g, 0, sizeof(g));
		if (store_game_get(st, game_id, &g) != STORE_OK) {
			free(text);
			snprintf(err, errlen, "there is no game %lld",
			    (long long)game_id);
			return ENGINE_UNKNOWN_GAME;
		}
		m = rules_find(g.ruleset);
		store_game_clear(&g);
	}
	bad = policy_parse(text, m, p, perr, sizeof(perr)) != 0;
	free(text);
	if (bad) {
		snprintf(err, errlen, "game %lld: stored policy refused: %s",
		    (long long)game_id, perr);
		return ENGINE_INTERNAL;
	}
	return ENGINE_OK;
}

enum engine_status
engine_policy_set(struct store *st, int64_t game_id, const struct policy *p,
    char *err, size_t errlen)
{
	struct store_game g;
	char *text;
	enum store_status rc;

	memset(&g, 0, sizeof(g));
	if (store_game_get(st, game_id, &g) != STORE_OK) {
		snprintf(err, errlen, "there is no game %lld",
		    (long long)game_id);
		return ENGINE_UNKNOWN_GAME;
	}
	store_game_clear(&g);
	if ((text = policy_text(p)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return ENGINE_INTERNAL;
	}
	rc = store_policy_set(st, game_id, text);
	free(text);
	if (rc != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return ENGINE_INTERNAL;
	}
	return ENGINE_OK;
}
