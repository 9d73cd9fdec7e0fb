/*
 * submit.c -- the path of a signed move: find -> verify -> (writer) ->
 * BEGIN -> load -> apply (apply.c) -> COMMIT -> receipt.
 *
 * Checks that need no lock (block syntax, game, seat, signature) run
 * first, on the caller's thread and its own store connection, so that
 * many callers verify signatures at once.  The rest runs under the write
 * lock: in the process's writer thread when one runs (writer.c: many
 * moves per transaction), else here in a transaction of its own.  The
 * sequence number is checked again under the lock, and the log's primary
 * key on (game, seq) is the final arbiter, so two racing submissions of
 * one number cannot both pass: the second gets "stale_sequence".  Any
 * refusal leaves the store as it was.
 */
#include <stdio.h>
#include <string.h>

#include "apply.h"
#include "clock.h"
#include "writer.h"

static enum engine_status
from_proto(enum proto_status ps)
{
	switch (ps) {
	case PROTO_NOT_FOUND:
		return ENGINE_NO_BLOCK;
	case PROTO_BAD_SIGNATURE:
		return ENGINE_BAD_SIGNATURE;
	default:
		return ENGINE_MALFORMED;
	}
}

/* What went wrong with the block itself, in French: the protocol's
 * message (English, exact) follows as the detail. */
static const char *
proto_status_fr(enum proto_status ps)
{
	switch (ps) {
	case PROTO_NOT_FOUND:
		return "aucun bloc signé (-----BEGIN PBEM MOVE-----) dans le "
		    "message";
	case PROTO_BAD_SIGNATURE:
		return "la signature du bloc est illisible";
	case PROTO_TOO_LONG:
		return "le bloc signé est trop long";
	case PROTO_VERSION_UNKNOWN:
		return "le bloc signé est d'une version inconnue";
	default:
		return "le bloc signé est mal formé";
	}
}

void
engine_block_message(enum proto_status ps, const char *detail,
    enum rules_lang lang, char *out, size_t outlen)
{
	if (lang == RULES_LANG_FR)
		snprintf(out, outlen, "%s (détail : %s)", proto_status_fr(ps),
		    detail);
	else
		snprintf(out, outlen, "%s", detail);
}

/* The game and seat m names, from seats: 0, or -1 with the refusal in
 * reply. */
static int
check_seat(struct store *st, enum store_status rc,
    const struct engine_seats *seats, const struct proto_move *m,
    enum rules_lang lang, struct engine_reply *reply)
{
	if (rc == STORE_NOTFOUND) {
		engine_refuse_lang(reply, ENGINE_UNKNOWN_GAME, lang,
		    "there is no game %lld", "il n'y a pas de partie %lld",
		    (long long)m->game_id);
		return -1;
	}
	if (rc != STORE_OK) {
		engine_refuse(reply, rc == STORE_BUSY ? ENGINE_BUSY :
		    ENGINE_INTERNAL, "store: %s", store_errmsg(st));
		return -1;
	}
	if (seats->status == STORE_GAME_FORMING) {
		engine_refuse_lang(reply, ENGINE_FORMING, lang,
		    "game %lld has not started: it starts when its last open "
		    "seat is taken", "la partie %lld n'a pas commencé : elle "
		    "commence quand sa dernière place libre est prise",
		    (long long)m->game_id);
		return -1;
	}
	if (m->seat < 0 || m->seat >= seats->nseats) {
		engine_refuse_lang(reply, ENGINE_BAD_SEAT, lang,
		    "game %lld has seats 0 to %d; there is no seat %d",
		    "la partie %lld a les sièges 0 à %d ; il n'y a pas de "
		    "siège %d", (long long)m->game_id, seats->nseats - 1,
		    m->seat);
		return -1;
	}
	if (seats->player[m->seat] == 0) {
		engine_refuse(reply, ENGINE_INTERNAL, "seat %d has no player",
		    m->seat);
		return -1;
	}
	return 0;
}

/*
 * Lock-free checks of the found block m: game, seat, key, signature.
 * *kind is STORE_ENTRY_MOVE for the seat's own signature (signer: the key
 * it verified with), STORE_ENTRY_DELEGATED for a bot key the seat's
 * player delegated moves to (delegate.c).  The seats come from the table
 * kept in memory (seatkeys.c); a signature its key does not verify is
 * checked again with the store's rows before it is refused.  A resigned
 * or absent seat, and a key replaced since, are refused under the write
 * lock (apply.c), where they cannot change before the move is written.
 */
static int
verify_block(struct store *st, const struct proto_move *m,
    enum rules_lang lang, int *kind, unsigned char signer[STORE_KEY_BYTES],
    struct engine_reply *reply)
{
	struct engine_seats seats;
	struct store_player p;
	enum store_status rc;
	int pass;

	reply->game_id = m->game_id;
	*kind = STORE_ENTRY_MOVE;
	/* The kept seats first; if their key does not verify, it may be one
	 * replaced by another process: the store's rows once more. */
	for (pass = 0; pass < 2; pass++) {
		rc = pass == 0 ? engine_seats_get(st, m->game_id, &seats) :
		    engine_seats_reload(st, m->game_id, &seats);
		if (check_seat(st, rc, &seats, m, lang, reply) != 0)
			return -1;
		if (proto_move_verify(m, seats.pubkey[m->seat]) == PROTO_OK) {
			memcpy(signer, seats.pubkey[m->seat], STORE_KEY_BYTES);
			return 0;
		}
		if (!seats.kept)	/* read from the store just now */
			break;
	}
	if (store_player_get(st, seats.player[m->seat], &p) != STORE_OK) {
		engine_refuse(reply, ENGINE_INTERNAL, "seat %d has no player",
		    m->seat);
		return -1;
	}
	if (engine_delegated_move(st, &p, m, clock_now())) {
		*kind = STORE_ENTRY_DELEGATED;
		return 0;
	}
	engine_refuse_lang(reply, ENGINE_BAD_SIGNATURE, lang,
	    "the signature does not match the key of seat %d (%s), nor "
	    "a bot key %s delegated moves to in this game, for this "
	    "game, sequence number and move text",
	    "la signature ne correspond pas à la clé du siège %d (%s) "
	    "ni à une clé de robot à qui %s a délégué ses coups dans "
	    "cette partie, pour cette partie, ce numéro de coup et ce "
	    "texte", m->seat, p.name, p.name);
	return -1;
}

/* One move in a transaction of its own (no writer in this process). */
static void
play_alone(struct store *st, const struct serverkey *key,
    const struct proto_move *m, int kind, const unsigned char *signer,
    enum rules_lang lang, struct engine_reply *reply)
{
	struct gamestate gs;
	enum engine_status es;
	char err[512];
	int spoilt;

	if (store_begin(st) != STORE_OK) {
		engine_refuse_lang(reply, ENGINE_BUSY, lang,
		    "the store is busy: %s; try again",
		    "la base est occupée : %s ; réessayez", store_errmsg(st));
		return;
	}
	es = gamestate_load(st, m->game_id, -1, &gs, err, sizeof(err));
	if (es != ENGINE_OK) {
		engine_refuse(reply, es, "%s", err);
		store_rollback(st);
		return;
	}
	if (apply_move(st, key, &gs, m, kind, signer, lang, reply,
	    &spoilt) != ENGINE_OK)
		store_rollback(st);
	else if (store_commit(st) != STORE_OK)
		engine_refuse(reply, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	gamestate_clear(&gs);
}

int
engine_move_check(struct store *st, const struct proto_move *m,
    enum rules_lang lang, struct engine_move *mv, struct engine_reply *reply)
{
	memset(reply, 0, sizeof(*reply));
	memset(mv, 0, sizeof(*mv));
	mv->m = *m;
	mv->lang = lang;
	return verify_block(st, &mv->m, lang, &mv->kind, mv->signer, reply);
}

int
engine_move_queue(const struct engine_move *mv, struct engine_reply *reply,
    void (*done)(void *), void *arg)
{
	return writer_queue(&mv->m, mv->kind, mv->signer, mv->lang, reply,
	    done, arg);
}

void
engine_move_write(struct store *st, const struct serverkey *key,
    const struct engine_move *mv, struct engine_reply *reply)
{
	engine_submit_move(st, key, &mv->m, mv->kind, mv->signer, mv->lang,
	    reply);
}

void
engine_submit(struct store *st, const struct serverkey *key,
    const char *text, size_t len, enum rules_lang lang,
    struct engine_reply *reply)
{
	struct engine_move mv;
	struct proto_move m;
	enum proto_status ps;
	char perr[512];

	memset(reply, 0, sizeof(*reply));
	ps = proto_move_find(text, len, &m, perr, sizeof(perr));
	if (ps != PROTO_OK) {
		reply->status = from_proto(ps);
		engine_block_message(ps, perr, lang, reply->message,
		    sizeof(reply->message));
		return;
	}
	if (engine_move_check(st, &m, lang, &mv, reply) != 0)
		return;
	engine_move_write(st, key, &mv, reply);
}

void
engine_submit_move(struct store *st, const struct serverkey *key,
    const struct proto_move *m, int kind, const unsigned char *signer,
    enum rules_lang lang, struct engine_reply *reply)
{
	/* The writer tells engine_committed() of what it commits. */
	if (writer_play(m, kind, signer, lang, reply) == 0)
		return;
	play_alone(st, key, m, kind, signer, lang, reply);
	/* The move is committed: work that must follow a commit. */
	if (reply->status == ENGINE_OK)
		engine_committed(m->game_id, m->seq);
}

int
engine_block_seat_key(struct store *st, const struct proto_move *m,
    unsigned char key[STORE_KEY_BYTES])
{
	struct engine_seats seats;
	struct store_master gm;
	struct store_player p;

	/* A master's command is signed with the master's key, whatever
	 * seat its block names: it spends the master's tokens. */
	if (engine_is_master_command(m->text)) {
		if (store_master_get(st, m->game_id, &gm) != STORE_OK ||
		    gm.player_id == 0 || store_player_get(st, gm.player_id,
		    &p) != STORE_OK)
			return -1;
		memcpy(key, p.pubkey, STORE_KEY_BYTES);
		return 0;
	}
	if (engine_seats_get(st, m->game_id, &seats) != STORE_OK ||
	    seats.status == STORE_GAME_FORMING || m->seat < 0 ||
	    m->seat >= seats.nseats || seats.player[m->seat] == 0)
		return -1;
	memcpy(key, seats.pubkey[m->seat], STORE_KEY_BYTES);
	return 0;
}

int
engine_signature_checked(enum engine_status status)
{
	switch (status) {
	case ENGINE_NO_BLOCK:
	case ENGINE_MALFORMED:
	case ENGINE_UNKNOWN_GAME:
	case ENGINE_BAD_SEAT:
	case ENGINE_BAD_SIGNATURE:
	case ENGINE_BUSY:
	case ENGINE_INTERNAL:
		return 0;
	default:
		return 1;
	}
}
