/*
 * press.c -- messages between players ("press"; engine.h, docs/ASYNC.md).
 *
 * A message is recorded in the game (table press) and queued as one
 * outbox row per recipient in the same transaction.  The row holds what
 * the sender wrote, the sender's seat and the recipients -- nothing else
 * the server knows -- so delivering it can reveal nothing about the game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "refusal.h"

#define PRESS_MAX	1024

static json_t *
seat_list(unsigned mask, int nseats)
{
	json_t *a = json_array();
	int s;

	for (s = 0; s < nseats; s++)
		if (mask & (1u << s))
			json_array_append_new(a, json_integer(s));
	return a;
}

static int
queue_press(struct store *st, const struct store_game *g,
    const struct store_press *p, int64_t seq)
{
	struct store_player pl;
	int s;

	for (s = 0; s < g->nseats; s++) {
		if (!(p->recipients & (1u << s)))
			continue;
		if (store_player_get(st, g->seat_player[s], &pl) != STORE_OK)
			return -1;
		if (engine_outbox_mail(st, g->id, seq, pl.email, "press",
		    json_pack("{s:I, s:I, s:i, s:s, s:I, s:i, s:o, s:s}",
		    "game", (json_int_t)g->id, "seq", (json_int_t)seq,
		    "seat", s, "event", "press", "press", (json_int_t)p->id,
		    "from", p->from_seat, "to", seat_list(p->recipients,
		    g->nseats), "text", p->body), p->created) != 0)
			return -1;
	}
	return 0;
}

enum engine_status
engine_press(struct store *st, int64_t game_id, int from_seat,
    int64_t command_seq, unsigned recipients, const char *body, int64_t now,
    int64_t *press_id, char *err, size_t errlen)
{
	return engine_press_in(st, game_id, from_seat, command_seq,
	    recipients, body, now, RULES_LANG_EN, press_id, err, errlen);
}

enum engine_status
engine_press_in(struct store *st, int64_t game_id, int from_seat,
    int64_t command_seq, unsigned recipients, const char *body, int64_t now,
    enum rules_lang lang, int64_t *press_id, char *err, size_t errlen)
{
	struct store_game g;
	struct store_entry last;
	struct store_press p;
	struct policy pol;
	struct store_seat row;
	enum engine_status es;
	size_t len = body != NULL ? strlen(body) : 0;

	memset(&g, 0, sizeof(g));
	if (len == 0 || len > PRESS_MAX)
		return engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "a message must hold 1 to %d bytes, not %zu", "un message "
		    "doit tenir en 1 à %d octets, pas %zu", PRESS_MAX, len);
	if (store_begin(st) != STORE_OK)
		return engine_refusal_in(err, errlen, ENGINE_BUSY, lang,
		    "the store is busy: %s; try again", "la base est occupée "
		    ": %s ; réessayez", store_errmsg(st));
	es = ENGINE_OK;
	if (store_game_get(st, game_id, &g) != STORE_OK)
		es = engine_refusal_in(err, errlen, ENGINE_UNKNOWN_GAME, lang,
		    "there is no game %lld", "il n'y a pas de partie %lld",
		    (long long)game_id);
	else if (from_seat < 0 || from_seat >= g.nseats)
		es = engine_refusal_in(err, errlen, ENGINE_BAD_SEAT, lang,
		    "game %lld has seats 0 to %d; there is no seat %d",
		    "la partie %lld a les sièges 0 à %d ; il n'y a pas de "
		    "siège %d", (long long)game_id, g.nseats - 1, from_seat);
	else if ((es = engine_policy_of(st, game_id,
	    rules_find(g.ruleset), &pol, err, errlen)) != ENGINE_OK)
		;
	else if (!pol.press)
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "messages between players are disabled in game %lld",
		    "les messages entre joueurs sont désactivés dans la "
		    "partie %lld", (long long)game_id);
	else {
		recipients &= ~(1u << from_seat);
		recipients &= (1u << g.nseats) - 1;
		if (recipients == 0)
			es = engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST,
			    lang, "name at least one other seat (0 to %d) or "
			    "all", "nommez au moins un autre siège (0 à %d) ou "
			    "tous", g.nseats - 1);
	}
	if (es == ENGINE_OK) {
		if (store_seat_get(st, game_id, from_seat, &row) != STORE_OK)
			es = engine_refusal(err, errlen, ENGINE_INTERNAL,
			    "store: %s", store_errmsg(st));
		else if (row.status == STORE_SEAT_ABSENT)
			es = engine_refusal_in(err, errlen, ENGINE_REFUSED,
			    lang, "seat %d of game %lld is marked absent after "
			    "a missed deadline and sends no messages until it "
			    "is given back", "le siège %d de la partie %lld est "
			    "marqué absent après un délai manqué et n'envoie "
			    "aucun message tant qu'il ne lui est pas rendu",
			    from_seat, (long long)game_id);
		else if (command_seq > 0 && (es = seats_claim_command(&row,
		    command_seq, lang, err, errlen)) == ENGINE_OK &&
		    store_seat_update(st, &row) != STORE_OK)
			es = engine_refusal(err, errlen, ENGINE_INTERNAL,
			    "store: %s", store_errmsg(st));
	}
	if (es != ENGINE_OK)
		goto out;
	memset(&p, 0, sizeof(p));
	memset(&last, 0, sizeof(last));
	p.game_id = game_id;
	p.from_seat = from_seat;
	p.recipients = recipients;
	p.body = (char *)body;
	p.created = now;
	if (store_log_last(st, game_id, &last) != STORE_OK ||
	    store_press_add(st, &p) != STORE_OK ||
	    queue_press(st, &g, &p, last.seq) != 0 ||
	    store_commit(st) != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		es = ENGINE_INTERNAL;
	} else
		*press_id = p.id;
	store_entry_clear(&last);
out:
	if (es != ENGINE_OK)
		store_rollback(st);
	store_game_clear(&g);
	return es;
}

struct press_list {
	json_t	*out;
	int	 seat;
	int	 nseats;
};

static int
collect(const struct store_press *p, void *arg)
{
	struct press_list *pl = arg;

	if (p->from_seat != pl->seat && !(p->recipients & (1u << pl->seat)))
		return 0;
	json_array_append_new(pl->out, json_pack("{s:I, s:i, s:o, s:s, s:I}",
	    "id", (json_int_t)p->id, "from", p->from_seat, "to",
	    seat_list(p->recipients, pl->nseats), "text", p->body, "time",
	    (json_int_t)p->created));
	return 0;
}

json_t *
engine_press_list(struct store *st, int64_t game_id, int seat)
{
	struct press_list pl = { json_array(), seat, STORE_MAX_SEATS };

	if (store_press_foreach(st, game_id, collect, &pl) != STORE_OK) {
		json_decref(pl.out);
		return NULL;
	}
	return pl.out;
}
