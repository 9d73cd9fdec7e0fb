/*
 * record.c -- the one place a log entry is made (record.h): its chain
 * hashes, the server's receipt, and the rows every entry brings with it.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "record.h"
#include "turnclock.h"
#include "webhook.h"

void
engine_receipt_of(const struct store_entry *e, struct proto_receipt *r)
{
	memset(r, 0, sizeof(*r));
	r->game_id = e->game_id;
	r->seq = e->seq;
	r->seat = e->seat < 0 ? 0 : e->seat;
	memcpy(r->entry_hash, e->hash, STORE_HASH_BYTES);
	memcpy(r->signature, e->receipt, STORE_SIG_BYTES);
}

void
engine_sign_receipt(const struct serverkey *key, struct store_entry *e)
{
	struct proto_receipt r;
	unsigned char buf[PROTO_CANONICAL_MAX];
	size_t len;

	engine_receipt_of(e, &r);
	len = proto_receipt_canonical(&r, buf, sizeof(buf));
	assert(len > 0);
	serverkey_sign(key, buf, len, e->receipt);
}

/* A delegation's record or revocation changes nothing in the game: the
 * seats get no mail for it (observers, webhooks and events still see it,
 * with its summary). */
static int
quiet_entry(int kind)
{
	return kind == STORE_ENTRY_DELEGATION || kind == STORE_ENTRY_REVOCATION;
}

/* Does entry seq of gs's game get a snapshot row (record.h)? */
static int
snapshot_wanted(const struct gamestate *gs, int64_t seq, int over)
{
	return seq % ENGINE_SNAPSHOT_EVERY == 0 || over || !gs->kept;
}

enum store_status
engine_append_entry(struct store *st, const struct serverkey *key,
    struct gamestate *gs, struct store_entry *e, int mover,
    const char *mover_event, int over, char *err, size_t errlen)
{
	enum store_status rc;
	json_t *saved;
	char *state_text;

	saved = gs->module->save(gs->state);
	state_text = chain_state_text(saved);
	json_decref(saved);
	if (state_text == NULL) {
		snprintf(err, errlen, "out of memory");
		return STORE_ERROR;
	}
	memcpy(e->prev_hash, gs->last_hash, STORE_HASH_BYTES);
	chain_state_hash(state_text, e->state_hash);
	chain_entry_hash(e, e->hash);
	engine_sign_receipt(key, e);
	gs->seq = e->seq;	/* gs is now the state after entry e */
	if (over)
		gs->game.status = STORE_GAME_OVER;

	rc = store_log_append(st, e);
	if (rc == STORE_EXISTS) {
		free(state_text);
		return rc;
	}
	/*
	 * Every other row an entry adds in its own transaction is written
	 * here, each by one call into its module, which returns 0 or fails
	 * like the calls below.
	 */
	if (rc != STORE_OK ||
	    (snapshot_wanted(gs, e->seq, over) && store_snapshot_put(st,
	    e->game_id, e->seq, state_text) != STORE_OK) ||
	    ((e->seq - 1) % ENGINE_SNAPSHOT_EVERY != 0 &&
	    !gs->seq_unsnapshotted &&
	    store_snapshot_drop(st, e->game_id, e->seq - 1) != STORE_OK) ||
	    (!quiet_entry(e->kind) && engine_queue_notifications(st, gs,
	    mover, mover_event, e->seq, over) != 0) ||
	    engine_queue_observers(st, e->game_id, e->seq, over ? "game_over" :
	    "update", gs->forced, e->time) != 0 ||
	    (over && engine_queue_master(st, e->game_id, e->seq, "game_over",
	    gs->forced ? json_pack("{s:b}", "forced", 1) : NULL, e->time) !=
	    0) ||
	    turnclock_note(st, gs, e->time) != 0 ||
	    webhook_move(st, gs, e, over) != 0 ||
	    (over && store_game_set_status(st, e->game_id, STORE_GAME_OVER) !=
	    STORE_OK)) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		free(state_text);
		return STORE_ERROR;
	}
	free(state_text);
	memcpy(gs->last_hash, e->hash, STORE_HASH_BYTES);
	gs->seq_unsnapshotted = !snapshot_wanted(gs, e->seq, over);
	return STORE_OK;
}
