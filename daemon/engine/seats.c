/*
 * seats.c -- what happens to a seat outside the rules of the game:
 * resigning, being replaced, going on vacation, voting to call the game
 * off (engine.h, docs/ASYNC.md).
 *
 * Resignations, replacements and a game called off are log entries the
 * server signs (serverentry.c), so an audit sees them and knows, from a
 * replacement's record, which key signs the seat's moves after it.  A
 * vacation only moves deadlines, so it lives in the seat's row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine.h"
#include "gametx.h"
#include "refusal.h"

static enum engine_status
seat_row(struct store *st, int64_t game_id, int seat, struct store_seat *s,
    char *err, size_t errlen)
{
	if (store_seat_get(st, game_id, seat, s) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	return ENGINE_OK;
}

/* A player's signed command number must be new for the seat; it is
 * recorded in row (the caller writes row in its transaction). */
enum engine_status
seats_claim_command(struct store_seat *row, int64_t command_seq,
    enum rules_lang lang, char *err, size_t errlen)
{
	if (command_seq == 0)
		return ENGINE_OK;
	if (command_seq <= row->command_seq)
		return engine_refusal_in(err, errlen, ENGINE_STALE_SEQ, lang,
		    "command number %lld of seat %d has already been used; "
		    "sign the command again with a number above %lld",
		    "le numéro de commande %lld du siège %d a déjà servi ; "
		    "signez à nouveau la commande avec un numéro supérieur à "
		    "%lld", (long long)command_seq, row->seat,
		    (long long)row->command_seq);
	row->command_seq = command_seq;
	return ENGINE_OK;
}

/* engine_game_open() for a seat's own command: also read the seat's row and
 * claim command_seq in it.  On failure the transaction is over. */
static enum engine_status
open_seat(struct store *st, int64_t game_id, int seat, int64_t command_seq,
    struct gamestate *gs, struct store_seat *row, enum rules_lang lang,
    char *err, size_t errlen)
{
	enum engine_status es;

	if (seat < 0)
		seat = -2;	/* refused as no such seat (gametx.h) */
	if ((es = engine_game_open(st, game_id, seat, gs, lang, err, errlen)) !=
	    ENGINE_OK)
		return es;
	if ((es = seat_row(st, game_id, seat, row, err, errlen)) !=
	    ENGINE_OK || (es = seats_claim_command(row, command_seq, lang,
	    err, errlen)) != ENGINE_OK)
		return engine_game_finish(st, gs, es, err, errlen);
	/* An absent seat is offered to another player: until it is given
	 * back (pbemctl replace), its player has no say in the game. */
	if (row->status == STORE_SEAT_ABSENT)
		return engine_game_finish(st, gs, engine_refusal_in(err, errlen,
		    ENGINE_REFUSED,
		    lang, "seat %d of game %lld is marked absent after a "
		    "missed deadline and is offered to a replacement; ask the "
		    "game's administrator to give it back (pbemctl replace)",
		    "le siège %d de la partie %lld est marqué absent après un "
		    "délai manqué et proposé à un remplaçant ; demandez à "
		    "l'administrateur de la partie de vous le rendre "
		    "(pbemctl replace)", seat, (long long)game_id), err,
		    errlen);
	return ENGINE_OK;
}

static const char *
player_name(struct store *st, int64_t id, struct store_player *p)
{
	if (store_player_get(st, id, p) != STORE_OK)
		snprintf(p->name, sizeof(p->name), "?");
	return p->name;
}

enum engine_status
engine_seat_may_move(struct store *st, int64_t game_id, int seat,
    enum rules_lang lang, char *err, size_t errlen)
{
	struct store_seat s;

	if (store_seat_get(st, game_id, seat, &s) != STORE_OK)
		return ENGINE_OK;	/* the move path reports the seat */
	if (s.status == STORE_SEAT_RESIGNED)
		return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "seat %d resigned from game %lld and plays no more moves",
		    "le siège %d a abandonné la partie %lld et ne joue plus "
		    "aucun coup", seat, (long long)game_id);
	if (s.status == STORE_SEAT_ABSENT)
		return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "seat %d of game %lld is marked absent after a missed "
		    "deadline and is offered to a replacement; ask the game's "
		    "administrator to give it back (pbemctl replace)", "le "
		    "siège %d de la partie %lld est marqué absent après un "
		    "délai manqué et proposé à un remplaçant ; demandez à "
		    "l'administrateur de la partie de vous le rendre (pbemctl "
		    "replace)", seat, (long long)game_id);
	return ENGINE_OK;
}

enum engine_status
engine_resign(struct store *st, const struct serverkey *key, int64_t game_id,
    int seat, int64_t command_seq, json_t *signed_by, int64_t now,
    enum rules_lang lang, char *err, size_t errlen)
{
	struct gamestate gs;
	struct store_seat row, other;
	struct store_player p;
	enum engine_status es;
	json_t *fields, *remaining = json_array();
	char *text;
	int s, nleft = 0;

	if ((es = open_seat(st, game_id, seat, command_seq, &gs, &row, lang,
	    err, errlen)) != ENGINE_OK) {
		json_decref(remaining);
		json_decref(signed_by);
		return es;
	}
	if (row.status == STORE_SEAT_RESIGNED) {
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "seat %d has "
		    "already resigned from game %lld", "le siège %d a déjà "
		    "abandonné la partie %lld", seat, (long long)game_id);
		goto out;
	}
	for (s = 0; s < gs.game.nseats; s++) {
		if (s == seat)
			continue;
		if ((es = seat_row(st, game_id, s, &other, err, errlen)) !=
		    ENGINE_OK)
			goto out;
		if (other.status == STORE_SEAT_RESIGNED)
			continue;
		nleft++;
		/* An absent seat does not win by its opponents leaving. */
		if (other.status == STORE_SEAT_PLAYING)
			json_array_append_new(remaining, json_integer(s));
	}
	row.status = STORE_SEAT_RESIGNED;
	row.call_off = 0;
	fields = json_pack("{s:i, s:s, s:s}", "seat", seat, "player",
	    player_name(st, gs.game.seat_player[seat], &p), "by",
	    signed_by != NULL ? "player" : "administrator");
	if (signed_by != NULL)
		json_object_set(fields, "signed", signed_by);
	/* The last seat standing wins a game that ends this way. */
	if (nleft <= 1)
		json_object_set(fields, "winners", remaining);
	text = engine_record_text(game_id, gs.seq + 1, "resign", fields);
	if (store_seat_update(st, &row) != STORE_OK)
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	else
		es = engine_server_entry(st, key, &gs, STORE_ENTRY_RESIGN, seat,
		    text, "resigned", nleft <= 1, now, err, errlen);
	free(text);
out:
	json_decref(remaining);
	json_decref(signed_by);
	return engine_game_finish(st, &gs, es, err, errlen);
}

enum engine_status
engine_replace(struct store *st, const struct serverkey *key,
    int64_t game_id, int seat, int64_t player_id, int64_t now, char *err,
    size_t errlen)
{
	struct gamestate gs;
	struct store_seat row;
	struct store_player newp, oldp;
	enum engine_status es;
	char newkey[PROTO_KEY_TEXT_MAX], oldkey[PROTO_KEY_TEXT_MAX], *text;
	int s;

	if (seat < 0)
		seat = -2;
	if ((es = engine_game_open(st, game_id, seat, &gs, RULES_LANG_EN, err,
	    errlen)) != ENGINE_OK)
		return es;
	if (store_player_get(st, player_id, &newp) != STORE_OK) {
		es = engine_refusal(err, errlen, ENGINE_BAD_REQUEST,
		    "there is no player with id %lld", (long long)player_id);
		goto out;
	}
	for (s = 0; s < gs.game.nseats; s++)
		if (s != seat && gs.game.seat_player[s] == player_id) {
			es = engine_refusal(err, errlen, ENGINE_BAD_REQUEST,
			    "player "
			    "%s already holds seat %d of game %lld; one seat "
			    "each", newp.name, s, (long long)game_id);
			goto out;
		}
	if ((es = seat_row(st, game_id, seat, &row, err, errlen)) !=
	    ENGINE_OK)
		goto out;
	memset(&oldp, 0, sizeof(oldp));
	player_name(st, gs.game.seat_player[seat], &oldp);
	proto_pubkey_format(newp.pubkey, newkey, sizeof(newkey));
	proto_pubkey_format(oldp.pubkey, oldkey, sizeof(oldkey));
	text = engine_record_text(game_id, gs.seq + 1, "replace",
	    json_pack("{s:i, s:s, s:s, s:s, s:s}", "seat", seat, "player",
	    newp.name, "key", newkey, "previous_player", oldp.name,
	    "previous_key", oldkey));
	row.status = STORE_SEAT_PLAYING;
	row.away_from = row.away_until = 0;
	row.command_seq = 0;
	row.call_off = 0;
	if (store_game_set_seat(st, game_id, seat, player_id) != STORE_OK ||
	    store_seat_update(st, &row) != STORE_OK)
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	else {
		gs.game.seat_player[seat] = player_id;
		es = engine_server_entry(st, key, &gs, STORE_ENTRY_REPLACE,
		    seat, text, "seat_taken", 0, now, err, errlen);
	}
	free(text);
out:
	return engine_game_finish(st, &gs, es, err, errlen);
}

enum engine_status
engine_rekey(struct store *st, const struct serverkey *key, int64_t game_id,
    int seat, const unsigned char old_pubkey[STORE_KEY_BYTES], int64_t now,
    char *err, size_t errlen)
{
	struct gamestate gs;
	struct store_player p;
	enum engine_status es;
	char newkey[PROTO_KEY_TEXT_MAX], oldkey[PROTO_KEY_TEXT_MAX], *text;

	if ((es = engine_game_open(st, game_id, seat, &gs, RULES_LANG_EN, err,
	    errlen)) != ENGINE_OK)
		return es;
	if (seat < 0 || store_player_get(st, gs.game.seat_player[seat], &p) !=
	    STORE_OK) {
		es = engine_refusal(err, errlen, ENGINE_BAD_SEAT,
		    "seat %d of game "
		    "%lld has no player", seat, (long long)game_id);
		goto out;
	}
	proto_pubkey_format(p.pubkey, newkey, sizeof(newkey));
	proto_pubkey_format(old_pubkey, oldkey, sizeof(oldkey));
	text = engine_record_text(game_id, gs.seq + 1, "replace",
	    json_pack("{s:i, s:s, s:s, s:s, s:s}", "seat", seat, "player",
	    p.name, "key", newkey, "previous_player", p.name, "previous_key",
	    oldkey));
	es = engine_server_entry(st, key, &gs, STORE_ENTRY_REPLACE, seat,
	    text, NULL, 0, now, err, errlen);
	free(text);
out:
	return engine_game_finish(st, &gs, es, err, errlen);
}

/* Tell every seat (the one away too: its confirmation) about seat's
 * vacation [from, until), or that it was cancelled. */
static int
queue_vacation(struct store *st, const struct gamestate *gs, int seat,
    int64_t from, int64_t until, int cancelled, int64_t now)
{
	struct store_player p;
	int s;

	for (s = 0; s < gs->game.nseats; s++) {
		if (store_player_get(st, gs->game.seat_player[s], &p) !=
		    STORE_OK)
			continue;
		if (engine_outbox_mail(st, gs->game.id, gs->seq, p.email,
		    "vacation", json_pack("{s:I, s:I, s:i, s:s, s:i, s:I, "
		    "s:I, s:b}", "game", (json_int_t)gs->game.id, "seq",
		    (json_int_t)gs->seq, "seat", s, "event", "vacation",
		    "away_seat", seat, "from", (json_int_t)from, "until",
		    (json_int_t)until, "cancelled", cancelled), now) != 0)
			return -1;
	}
	return 0;
}

enum engine_status
engine_vacation(struct store *st, int64_t game_id, int seat,
    int64_t command_seq, int64_t from, int64_t until, int64_t now,
    enum rules_lang lang, char *err, size_t errlen)
{
	struct gamestate gs;
	struct store_seat row;
	struct policy pol;
	enum engine_status es;
	int64_t left;
	char latest[32];

	if ((es = open_seat(st, game_id, seat, command_seq, &gs, &row, lang,
	    err, errlen)) != ENGINE_OK)
		return es;
	if ((es = engine_policy_of(st, game_id, gs.module, &pol, err,
	    errlen)) != ENGINE_OK)
		goto out;
	if (from < now)
		from = now;	/* a vacation cannot start in the past */
	left = pol.vacation_max - row.away_used;
	clock_format_iso(now + ENGINE_VACATION_AHEAD_MAX, latest,
	    sizeof(latest));
	if (row.status == STORE_SEAT_RESIGNED)
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "seat %d "
		    "resigned from game %lld", "le siège %d a abandonné la "
		    "partie %lld", seat, (long long)game_id);
	else if (until <= from)
		es = engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "a "
		    "vacation must end after it starts (and after now)", "des "
		    "vacances doivent finir après leur début (et après "
		    "maintenant)");
	else if (from > now + ENGINE_VACATION_AHEAD_MAX)
		es = engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "a "
		    "vacation must start within %lld days from now (by %.10s); "
		    "check the year", "des vacances doivent commencer dans les "
		    "%lld jours (au plus tard le %.10s) ; vérifiez l'année",
		    ENGINE_VACATION_AHEAD_MAX / 86400, latest);
	else if (row.away_until > now) {
		clock_format_iso(row.away_until - 86400, latest,
		    sizeof(latest));
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "seat %d "
		    "already declared a vacation until %.10s (last day); one "
		    "at a time: cancel it first (\"vacation cancel\")", "le "
		    "siège %d a déjà déclaré des vacances jusqu'au %.10s "
		    "(dernier jour) ; une seule à la fois : annulez-les "
		    "d'abord (« vacances annuler »)", seat, latest);
	} else if (until - from > left)
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "a vacation "
		    "of %lld hours is longer than the %lld hours seat %d has "
		    "left in game %lld (the game allows %lld days)", "des "
		    "vacances de %lld heures dépassent les %lld heures qui "
		    "restent au siège %d dans la partie %lld (la partie en "
		    "permet %lld jours)",
		    (long long)((until - from + 3599) / 3600),
		    (long long)(left / 3600), seat, (long long)game_id,
		    (long long)(pol.vacation_max / 86400));
	if (es != ENGINE_OK)
		goto out;
	row.away_from = from;
	row.away_until = until;
	row.away_used += until - from;
	if (store_seat_update(st, &row) != STORE_OK ||
	    queue_vacation(st, &gs, seat, from, until, 0, now) != 0)
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
out:
	return engine_game_finish(st, &gs, es, err, errlen);
}

enum engine_status
engine_vacation_cancel(struct store *st, int64_t game_id, int seat,
    int64_t command_seq, int64_t now, enum rules_lang lang, char *err,
    size_t errlen)
{
	struct gamestate gs;
	struct store_seat row;
	enum engine_status es;
	int64_t from, until;

	if ((es = open_seat(st, game_id, seat, command_seq, &gs, &row, lang,
	    err, errlen)) != ENGINE_OK)
		return es;
	if (row.away_until <= now) {
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "seat %d has "
		    "no vacation now or ahead in game %lld to cancel", "le "
		    "siège %d n'a pas de vacances en cours ou à venir dans la "
		    "partie %lld à annuler", seat, (long long)game_id);
		goto out;
	}
	/* The days not taken go back to the seat's allowance. */
	from = row.away_from > now ? row.away_from : now;
	until = row.away_until;
	row.away_used -= until - from;
	if (row.away_used < 0)
		row.away_used = 0;
	if (row.away_from > now)
		row.away_from = row.away_until = 0;
	else
		row.away_until = now;
	if (store_seat_update(st, &row) != STORE_OK ||
	    queue_vacation(st, &gs, seat, from, until, 1, now) != 0)
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
out:
	return engine_game_finish(st, &gs, es, err, errlen);
}

/* Tell every other seat that seat proposes to call the game off (or
 * withdraws its vote), with the tally: votes of needed. */
static int
queue_vote(struct store *st, const struct gamestate *gs, int seat, int vote,
    int votes, int needed, int64_t now)
{
	struct store_player p;
	int s;

	for (s = 0; s < gs->game.nseats; s++) {
		if (s == seat || store_player_get(st, gs->game.seat_player[s],
		    &p) != STORE_OK)
			continue;
		if (engine_outbox_mail(st, gs->game.id, gs->seq, p.email,
		    "call_off_vote", json_pack("{s:I, s:I, s:i, s:i, s:s, "
		    "s:b, s:i, s:i}", "game", (json_int_t)gs->game.id, "seq",
		    (json_int_t)gs->seq, "seat", s, "voter", seat, "event",
		    "call_off_vote", "withdrawn", !vote, "votes", votes,
		    "needed", needed), now) != 0)
			return -1;
	}
	return 0;
}

enum engine_status
engine_call_off(struct store *st, const struct serverkey *key,
    int64_t game_id, int seat, int64_t command_seq, int vote, int64_t now,
    struct call_off_tally *tally, enum rules_lang lang, char *err,
    size_t errlen)
{
	struct gamestate gs;
	struct store_seat row, other;
	enum engine_status es;
	json_t *voters = json_array();
	char *text;
	int s, votes = 0, needed = 0;

	memset(tally, 0, sizeof(*tally));
	if ((es = open_seat(st, game_id, seat, command_seq, &gs, &row, lang,
	    err, errlen)) != ENGINE_OK) {
		json_decref(voters);
		return es;
	}
	if (row.status == STORE_SEAT_RESIGNED) {
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "seat %d "
		    "resigned from game %lld and has no vote", "le siège %d a "
		    "abandonné la partie %lld et ne vote pas", seat,
		    (long long)game_id);
		goto out;
	}
	if (row.call_off == vote) {
		es = vote ? engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "seat %d has already voted to call game %lld off; to take "
		    "the vote back, send \"keep playing\"", "le siège %d a "
		    "déjà voté pour annuler la partie %lld ; pour retirer le "
		    "vote, envoyez « continuer la partie »", seat,
		    (long long)game_id) : engine_refusal_in(err, errlen,
		    ENGINE_REFUSED, lang, "seat %d has not voted to call "
		    "game %lld off; there is no vote to take back", "le siège "
		    "%d n'a "
		    "pas voté pour annuler la partie %lld ; il n'y a pas de "
		    "vote à retirer", seat, (long long)game_id);
		goto out;
	}
	row.call_off = vote;
	if (store_seat_update(st, &row) != STORE_OK) {
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
		goto out;
	}
	/* The seats still playing decide; resigned and absent ones have
	 * no vote. */
	for (s = 0; s < gs.game.nseats; s++) {
		if ((es = seat_row(st, game_id, s, &other, err, errlen)) !=
		    ENGINE_OK)
			goto out;
		if (other.status != STORE_SEAT_PLAYING)
			continue;
		needed++;
		if (other.call_off) {
			json_array_append_new(voters, json_integer(s));
			votes++;
		}
	}
	tally->votes = votes;
	tally->needed = needed;
	if (votes < needed) {
		if (queue_vote(st, &gs, seat, vote, votes, needed, now) != 0)
			es = engine_refusal(err, errlen, ENGINE_INTERNAL,
			    "store: %s",
			    store_errmsg(st));
		goto out;
	}
	text = engine_record_text(game_id, gs.seq + 1, "call_off",
	    json_pack("{s:O}", "seats", voters));
	/* The game ends: every seat gets game_over, which says why. */
	es = engine_server_entry(st, key, &gs, STORE_ENTRY_CALL_OFF, -1, text,
	    NULL, 1, now, err, errlen);
	free(text);
	tally->ended = es == ENGINE_OK;
out:
	json_decref(voters);
	return engine_game_finish(st, &gs, es, err, errlen);
}
