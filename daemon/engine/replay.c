/*
 * replay.c -- one log entry replayed onto a module's state (replay.h).
 */
#include <stdio.h>

#include "replay.h"
#include "rng.h"

static int
replay_move(const struct rules_module *m, void *state,
    const unsigned char seed[STORE_SEED_BYTES], const struct store_entry *e,
    char *err, size_t errlen)
{
	char rerr[RULES_ERRLEN];
	struct rules_rng rng;
	json_t *move = NULL;

	if (m->parse(state, e->seat, e->text, RULES_LANG_EN, &move, rerr,
	    sizeof(rerr)) != RULES_OK || m->check(state, e->seat, move,
	    RULES_LANG_EN, rerr, sizeof(rerr)) != RULES_OK) {
		json_decref(move);
		snprintf(err, errlen, "entry %lld: the rules refuse the move "
		    "\"%s\" on replay: %s", (long long)e->seq, e->text, rerr);
		return -1;
	}
	rng_init(&rng, seed, (uint64_t)e->seq);
	m->apply(state, e->seat, move, &rng);
	json_decref(move);
	return 0;
}

static int
replay_skip(const struct rules_module *m, void *state,
    const unsigned char seed[STORE_SEED_BYTES], const struct store_entry *e,
    char *err, size_t errlen)
{
	char rerr[RULES_ERRLEN];
	struct rules_rng rng;

	if (m->api_version < 3 || m->skip_check == NULL ||
	    m->skip_check(state, e->seat, RULES_LANG_EN, rerr,
	    sizeof(rerr)) != RULES_OK) {
		snprintf(err, errlen, "entry %lld: the rules refuse to skip "
		    "seat %d's turn on replay", (long long)e->seq, e->seat);
		return -1;
	}
	rng_init(&rng, seed, (uint64_t)e->seq);
	m->skip_apply(state, e->seat, &rng);
	return 0;
}

int
replay_entry(const struct rules_module *m, void *state,
    const unsigned char seed[STORE_SEED_BYTES], const struct store_entry *e,
    char *err, size_t errlen)
{
	switch (e->kind) {
	case STORE_ENTRY_MOVE:
	case STORE_ENTRY_HOSTED_MAIL:
	case STORE_ENTRY_HOSTED_WEB:
	case STORE_ENTRY_DELEGATED:
	case STORE_ENTRY_AUTO:
	case STORE_ENTRY_BOT:
		return replay_move(m, state, seed, e, err, errlen);
	case STORE_ENTRY_SKIP:
		return replay_skip(m, state, seed, e, err, errlen);
	case STORE_ENTRY_RESIGN:
	case STORE_ENTRY_REPLACE:
	case STORE_ENTRY_CALL_OFF:
	case STORE_ENTRY_DELEGATION:
	case STORE_ENTRY_REVOCATION:
		return 0;
	default:
		snprintf(err, errlen, "entry %lld has unknown kind %d",
		    (long long)e->seq, e->kind);
		return -1;
	}
}
