/*
 * gamestate.c -- a game's row, module and state, loaded from the store,
 * and the views built on them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardsets.h"
#include "chain.h"
#include "engine.h"
#include "replay.h"

static const char *const status_codes[] = {
	[ENGINE_OK] = "ok",
	[ENGINE_NO_BLOCK] = "no_block",
	[ENGINE_MALFORMED] = "malformed_block",
	[ENGINE_UNKNOWN_GAME] = "unknown_game",
	[ENGINE_BAD_SEAT] = "bad_seat",
	[ENGINE_BAD_SIGNATURE] = "bad_signature",
	[ENGINE_STALE_SEQ] = "stale_sequence",
	[ENGINE_FUTURE_SEQ] = "future_sequence",
	[ENGINE_GAME_OVER] = "game_over",
	[ENGINE_NOT_YOUR_TURN] = "not_your_turn",
	[ENGINE_SYNTAX] = "move_not_understood",
	[ENGINE_ILLEGAL] = "illegal_move",
	[ENGINE_BAD_REQUEST] = "bad_request",
	[ENGINE_BUSY] = "busy",
	[ENGINE_INTERNAL] = "internal_error",
	[ENGINE_FORMING] = "game_forming",
	[ENGINE_NOT_FORMING] = "not_forming",
	[ENGINE_SEAT_TAKEN] = "seat_taken",
	[ENGINE_REFUSED] = "refused",
	[ENGINE_NOT_COMMAND] = "not_a_command",
};

const char *
engine_status_code(enum engine_status status)
{
	if ((unsigned)status >= sizeof(status_codes) / sizeof(status_codes[0]))
		return "internal_error";
	return status_codes[status];
}

void
engine_reply_clear(struct engine_reply *reply)
{
	json_decref(reply->forms);
	reply->forms = NULL;
	json_decref(reply->legal);
	reply->legal = NULL;
}

void
gamestate_clear(struct gamestate *gs)
{
	if (gs->module != NULL && gs->state != NULL)
		gs->module->destroy(gs->state);
	json_decref(gs->ended);
	store_game_clear(&gs->game);
	memset(gs, 0, sizeof(*gs));
}

const struct store_player *
gamestate_seat_player(struct store *st, struct gamestate *gs, int s)
{
	struct store_player *p = &gs->seat_players[s];

	if (p->id != 0 && p->id == gs->game.seat_player[s])
		return p;
	if (store_player_get(st, gs->game.seat_player[s], p) != STORE_OK) {
		memset(p, 0, sizeof(*p));
		return NULL;
	}
	memset(p->pubkey, 0, sizeof(p->pubkey));	/* may change: not kept */
	return p;
}

int
gamestate_seat_names(struct store *st, struct gamestate *gs,
    const char *names[STORE_MAX_SEATS])
{
	const struct store_player *p;
	int s;

	for (s = 0; s < gs->game.nseats && s < STORE_MAX_SEATS; s++) {
		p = gs->game.seat_player[s] != 0 ?
		    gamestate_seat_player(st, gs, s) : NULL;
		names[s] = p != NULL ? p->name : NULL;
	}
	return s;
}

json_t *
gamestate_names_of(const char *const names[STORE_MAX_SEATS], int nseats,
    const json_t *seats)
{
	json_t *out = json_array(), *v;
	json_int_t s;
	size_t i;

	json_array_foreach(seats, i, v) {
		s = json_integer_value(v);
		json_array_append_new(out, s >= 0 && s < nseats &&
		    names[s] != NULL ? json_string(names[s]) : json_null());
	}
	return out;
}

void
gamestate_view_names(struct store *st, struct gamestate *gs, json_t *view)
{
	const char *names[STORE_MAX_SEATS] = { NULL };
	json_t *all;
	int n, s;

	n = gamestate_seat_names(st, gs, names);
	all = json_array();
	for (s = 0; s < n; s++)
		json_array_append_new(all, names[s] != NULL ?
		    json_string(names[s]) : json_null());
	json_object_set_new(view, "seat_names", all);
	json_object_set_new(view, "to_act_names", gamestate_names_of(names, n,
	    json_object_get(view, "to_act")));
}

/* Seats that resigned (their default moves play on in games of three or
 * more, but they cannot win), from the seat statuses read with the game. */
static unsigned
resigned_seats(const struct store_game *g)
{
	unsigned resigned = 0;
	int i;

	for (i = 0; i < g->nseats && i < STORE_MAX_SEATS; i++)
		if (g->seat_status[i] == STORE_SEAT_RESIGNED)
			resigned |= 1u << i;
	return resigned;
}

void
gamestate_take_game(struct gamestate *gs, struct store_game *row)
{
	store_game_clear(&gs->game);
	gs->game = *row;
	memset(row, 0, sizeof(*row));
	gs->resigned = resigned_seats(&gs->game);
}

/* The module's state from the snapshot text after entry seq, into gs. */
static enum engine_status
load_snapshot(struct gamestate *gs, int64_t seq, const char *text,
    char *err, size_t errlen)
{
	char lerr[RULES_ERRLEN];
	json_error_t jerr;
	json_t *saved;

	if ((saved = json_loads(text, 0, &jerr)) == NULL) {
		snprintf(err, errlen, "game %lld: snapshot %lld is not JSON: %s",
		    (long long)gs->game.id, (long long)seq, jerr.text);
		return ENGINE_INTERNAL;
	}
	gs->state = rules_load_game(gs->module, gs->cards, saved, lerr,
	    sizeof(lerr));
	json_decref(saved);
	if (gs->state == NULL) {
		snprintf(err, errlen, "game %lld: snapshot %lld refused: %s",
		    (long long)gs->game.id, (long long)seq, lerr);
		return ENGINE_INTERNAL;
	}
	return ENGINE_OK;
}

struct replay_walk {
	struct gamestate	*gs;
	int64_t			 next;		/* the seq expected next */
	char			*err;
	size_t			 errlen;
	int			 failed;
};

static int
replay_one(const struct store_entry *e, void *arg)
{
	struct replay_walk *w = arg;

	if (e->seq != w->next) {
		snprintf(w->err, w->errlen, "entry %lld is missing from the "
		    "log", (long long)w->next);
		w->failed = 1;
		return 1;
	}
	if (replay_entry(w->gs->module, w->gs->state, w->gs->game.seed, e,
	    w->err, w->errlen) != 0) {
		w->failed = 1;
		return 1;
	}
	w->next++;
	return 0;
}

/* Bring gs's state, built from the snapshot after entry from, up to entry
 * gs->seq by replaying the entries in between; hash is then the state's
 * hash (chain.h). */
static enum engine_status
replay_since(struct store *st, struct gamestate *gs, int64_t from,
    unsigned char hash[STORE_HASH_BYTES], char *err, size_t errlen)
{
	struct replay_walk w;
	char why[RULES_ERRLEN + 128], *text;
	enum store_status rc;
	json_t *saved;

	memset(&w, 0, sizeof(w));
	w.gs = gs;
	w.next = from + 1;
	w.err = why;
	w.errlen = sizeof(why);
	rc = store_log_range(st, gs->game.id, from, (int)(gs->seq - from),
	    replay_one, &w);
	if (rc != STORE_OK) {
		snprintf(err, errlen, "game %lld: store: %s",
		    (long long)gs->game.id, store_errmsg(st));
		return rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
	}
	if (!w.failed && w.next != gs->seq + 1)
		snprintf(why, sizeof(why), "entry %lld is missing from the "
		    "log", (long long)w.next);
	if (w.failed || w.next != gs->seq + 1) {
		snprintf(err, errlen, "game %lld: rebuilding the state from "
		    "snapshot %lld: %s; run pbemctl audit %lld",
		    (long long)gs->game.id, (long long)from, why,
		    (long long)gs->game.id);
		return ENGINE_INTERNAL;
	}
	saved = gs->module->save(gs->state);
	text = chain_state_text(saved);
	json_decref(saved);
	if (text == NULL) {
		snprintf(err, errlen, "out of memory");
		return ENGINE_INTERNAL;
	}
	chain_state_hash(text, hash);
	free(text);
	return ENGINE_OK;
}

enum engine_status
gamestate_load(struct store *st, int64_t game_id, int64_t seq,
    struct gamestate *gs, char *err, size_t errlen)
{
	struct store_entry last;
	unsigned char hash[STORE_HASH_BYTES], state_hash[STORE_HASH_BYTES];
	char *text = NULL, lerr[RULES_ERRLEN];
	enum store_status rc;
	enum engine_status es;
	int64_t from;

	memset(gs, 0, sizeof(*gs));
	rc = store_game_get(st, game_id, &gs->game);
	if (rc == STORE_NOTFOUND) {
		snprintf(err, errlen, "there is no game %lld",
		    (long long)game_id);
		return ENGINE_UNKNOWN_GAME;
	}
	if (rc != STORE_OK)
		goto store_error;
	if (gs->game.status == STORE_GAME_FORMING) {
		snprintf(err, errlen, "game %lld has not started: it starts "
		    "when its last open seat is taken", (long long)game_id);
		gamestate_clear(gs);
		return ENGINE_FORMING;
	}
	gs->module = rules_find(gs->game.ruleset);
	if (gs->module == NULL ||
	    !rules_version_supported(gs->module, gs->game.ruleset_version)) {
		snprintf(err, errlen, "game %lld uses ruleset %s version %d, "
		    "which this build does not have", (long long)game_id,
		    gs->game.ruleset, gs->game.ruleset_version);
		gamestate_clear(gs);
		return ENGINE_INTERNAL;
	}
	if (cardsets_for_game(st, gs->module, gs->game.cards_hash, &gs->cards,
	    lerr, sizeof(lerr)) != 0) {
		snprintf(err, errlen, "game %lld: %s", (long long)game_id,
		    lerr);
		gamestate_clear(gs);
		return ENGINE_INTERNAL;
	}
	gs->resigned = resigned_seats(&gs->game);
	/* The newest state is the one after the last log entry; the
	 * snapshot must hash to what that entry recorded. */
	memset(&last, 0, sizeof(last));
	if (seq < 0)
		rc = store_log_last(st, game_id, &last);
	else
		rc = store_log_get(st, game_id, seq, &last);
	if (rc != STORE_OK)
		goto store_error;
	gs->seq = last.seq;
	memcpy(gs->last_hash, last.hash, STORE_HASH_BYTES);
	/* Asynchronous play: a game that ended outside its rules. */
	if (last.kind == STORE_ENTRY_CALL_OFF ||
	    last.kind == STORE_ENTRY_RESIGN) {
		gs->ended = json_loads(last.text, 0, NULL);
		if (gs->ended != NULL && last.kind == STORE_ENTRY_RESIGN &&
		    json_object_get(gs->ended, "winners") == NULL) {
			json_decref(gs->ended);
			gs->ended = NULL;
		}
	}
	memcpy(state_hash, last.state_hash, STORE_HASH_BYTES);
	store_entry_clear(&last);
	/* The snapshot after that entry, or else the newest one before it
	 * and the entries since, replayed (docs/STORE.md, "Snapshots"). */
	if ((rc = store_snapshot_before(st, game_id, gs->seq, &from,
	    &text)) != STORE_OK)
		goto store_error;
	if (from == gs->seq)
		chain_state_hash(text, hash);	/* the stored text itself */
	es = load_snapshot(gs, from, text, err, errlen);
	free(text);
	text = NULL;
	if (es == ENGINE_OK && from < gs->seq)
		es = replay_since(st, gs, from, hash, err, errlen);
	if (es != ENGINE_OK) {
		gamestate_clear(gs);
		return es;
	}
	/* Whichever way it came, the state must hash to what the entry
	 * recorded. */
	if (memcmp(hash, state_hash, STORE_HASH_BYTES) != 0) {
		snprintf(err, errlen, "game %lld: the state after entry %lld "
		    "(snapshot %lld%s) does not match the state hash in the "
		    "log; run pbemctl audit %lld", (long long)game_id,
		    (long long)gs->seq, (long long)from, from < gs->seq ?
		    " and the entries since" : "", (long long)game_id);
		gamestate_clear(gs);
		return ENGINE_INTERNAL;
	}
	return ENGINE_OK;

store_error:
	snprintf(err, errlen, "game %lld: store: %s", (long long)game_id,
	    store_errmsg(st));
	free(text);
	gamestate_clear(gs);
	return rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
}

/*
 * A seat that resigned cannot win: take it out of the module's winners.
 * If that leaves nobody, the winners are the seats still playing with the
 * best score, when the result has numeric scores (docs/ASYNC.md).
 */
static void
drop_resigned_winners(json_t *result, unsigned resigned)
{
	json_t *winners = json_object_get(result, "winners");
	json_t *scores = json_object_get(result, "scores");
	json_t *kept, *w;
	double best = 0, score;
	size_t i;
	int any = 0;

	if (!json_is_array(winners))
		return;
	kept = json_array();
	json_array_foreach(winners, i, w)
		if (!json_is_integer(w) || json_integer_value(w) < 0 ||
		    json_integer_value(w) >= 32 ||
		    (resigned & (1u << json_integer_value(w))) == 0)
			json_array_append(kept, w);
	if (json_array_size(kept) == 0 && json_is_array(scores)) {
		for (i = 0; i < json_array_size(scores) && i < 32; i++) {
			if ((resigned & (1u << i)) != 0 ||
			    !json_is_number(json_array_get(scores, i)))
				continue;
			score = json_number_value(json_array_get(scores, i));
			if (!any || score > best)
				best = score;
			any = 1;
		}
		for (i = 0; any && i < json_array_size(scores) && i < 32; i++)
			if ((resigned & (1u << i)) == 0 &&
			    json_is_number(json_array_get(scores, i)) &&
			    json_number_value(json_array_get(scores, i)) == best)
				json_array_append_new(kept, json_integer(
				    (json_int_t)i));
	}
	json_object_set_new(result, "winners", kept);
}

int
gamestate_seat_acts(const struct gamestate *gs, int seat, int *over)
{
	int seats[STORE_MAX_SEATS], nact, i, acting = 0;

	nact = gs->ended != NULL ? 0 : gs->module->to_act(gs->state, seats,
	    STORE_MAX_SEATS);
	for (i = 0; i < nact && i < STORE_MAX_SEATS; i++)
		acting |= seats[i] == seat;
	if (over != NULL)
		*over = nact == 0;
	if (seat < 0 || seat >= gs->game.nseats || seat >= STORE_MAX_SEATS)
		return 0;
	return acting && gs->game.seat_status[seat] == STORE_SEAT_PLAYING;
}

/* The seat's status for its own view, when it is not simply playing. */
static void
add_seat_status(json_t *view, const struct gamestate *gs, int viewer)
{
	if (viewer < 0 || viewer >= gs->game.nseats ||
	    viewer >= STORE_MAX_SEATS)
		return;
	if (gs->game.seat_status[viewer] == STORE_SEAT_RESIGNED)
		json_object_set_new(view, "seat_status",
		    json_string("resigned"));
	else if (gs->game.seat_status[viewer] == STORE_SEAT_ABSENT)
		json_object_set_new(view, "seat_status",
		    json_string("absent"));
}

json_t *
gamestate_view(const struct gamestate *gs, int viewer)
{
	json_t *view, *result;
	char hex[2 * STORE_HASH_BYTES + 1];

	view = gs->module->view(gs->state, viewer);
	json_object_set_new(view, "game_id", json_integer(gs->game.id));
	json_object_set_new(view, "ruleset", json_string(gs->game.ruleset));
	json_object_set_new(view, "next_seq", json_integer(gs->seq + 1));
	proto_hex(gs->game.commitment, STORE_HASH_BYTES, hex);
	json_object_set_new(view, "seed_commitment", json_string(hex));
	if (viewer >= 0)
		json_object_set_new(view, "seat", json_integer(viewer));
	add_seat_status(view, gs, viewer);
	result = gs->module->result(gs->state);
	if (result != NULL && gs->resigned != 0)
		drop_resigned_winners(result, gs->resigned);
	if (result == NULL && gs->ended != NULL) {
		/* Ended by resignation or agreement: nobody is to act, and
		 * the winners are the record's (none when called off). */
		json_t *winners = json_object_get(gs->ended, "winners");

		json_object_set_new(view, "to_act", json_array());
		json_object_set_new(view, "over", json_true());
		result = json_pack("{s:o, s:s}", "winners", winners != NULL ?
		    json_incref(winners) : json_array(), "ended",
		    json_string_value(json_object_get(gs->ended, "event")));
	}
	if (result != NULL) {
		json_object_set_new(view, "result", result);
		proto_hex(gs->game.seed, STORE_SEED_BYTES, hex);
		json_object_set_new(view, "seed", json_string(hex));
	}
	return view;
}
