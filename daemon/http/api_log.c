/*
 * api_log.c -- GET /v1/games/{id}/log: a game's public log, paged (see
 * api.h; docs/API.md).
 *
 * The redaction rule: until the game is over, a move entry shows who
 * moved, when, and its place in the hash chain (seq, kind, seat, time,
 * prev_hash, hash, receipt), but not its text, signature or state hash.
 * The text could name a hidden card ("discard drawn", a card taken from
 * the hand); the signature too, since anyone can check a signature
 * against each legal move text in turn and so learn the text; the state
 * hash is left out with them.  Once the game is over every field is
 * shown, the same as an exported bundle's entries, so the pages together
 * with the revealed seed and the server key let anyone audit the game
 * offline (`pbem verify`).  The genesis entry is public from the start:
 * it holds only the ruleset, options, seats, their public keys and the
 * seed commitment.
 *
 * Every entry also carries "name", the name of its seat's player now
 * (null for the server's entries and open seats), and "summary", the
 * one line in English and French written with the entry (summary.c;
 * docs/API.md, "Summaries"), public from the start: it never names a
 * hidden card.  An entry logged before summaries were kept gets a plain
 * line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "protocol.h"

#define LOG_PAGE_DEFAULT	100
#define LOG_PAGE_MAX		500

static json_t *
hex_string(const unsigned char *bytes, size_t n)
{
	char hex[2 * 64 + 1];

	proto_hex(bytes, n, hex);
	return json_string(hex);
}

json_t *
api_log_entry(const struct store_entry *e, int reveal)
{
	json_t *j;

	j = json_pack("{s:I, s:i, s:i, s:I, s:o, s:o, s:o}", "seq",
	    (json_int_t)e->seq, "kind", e->kind, "seat", e->seat, "time",
	    (json_int_t)e->time,
	    "prev_hash", hex_string(e->prev_hash, STORE_HASH_BYTES),
	    "hash", hex_string(e->hash, STORE_HASH_BYTES),
	    "receipt", hex_string(e->receipt, STORE_SIG_BYTES));
	if (reveal || e->kind == STORE_ENTRY_GENESIS) {
		json_object_set_new(j, "text", json_string(e->text != NULL ?
		    e->text : ""));
		json_object_set_new(j, "signature", hex_string(e->signature,
		    STORE_SIG_BYTES));
		json_object_set_new(j, "state_hash", hex_string(e->state_hash,
		    STORE_HASH_BYTES));
		json_object_set_new(j, "redacted", json_false());
	} else {
		json_object_set_new(j, "text", json_null());
		json_object_set_new(j, "redacted", json_true());
	}
	return j;
}

const char *
api_seat_player(struct store *st, int64_t game_id, int seat,
    char name[STORE_NAME_MAX])
{
	struct store_player p;
	struct store_game g;
	int64_t id;

	if (seat < 0 || store_game_get(st, game_id, &g) != STORE_OK)
		return NULL;
	id = seat < g.nseats && seat < STORE_MAX_SEATS ? g.seat_player[seat] :
	    0;
	store_game_clear(&g);
	if (id == 0 || store_player_get(st, id, &p) != STORE_OK)
		return NULL;
	snprintf(name, STORE_NAME_MAX, "%s", p.name);
	return name;
}

/* The entry's summaries (engine_summary_read(), or _of() without r). */
static json_t *
entry_summary(struct store *st, struct engine_summary_reader *r,
    const struct store_entry *e, const char *name)
{
	struct engine_summary sum;

	if (r != NULL)
		engine_summary_read(st, r, e, name, &sum);
	else
		engine_summary_of(st, e, name, &sum);
	return engine_summary_json(&sum);
}

json_t *
api_event(struct store *st, struct engine_summary_reader *r,
    const struct store_entry *e, int reveal)
{
	char buf[STORE_NAME_MAX];
	const char *name = api_seat_player(st, e->game_id, e->seat, buf);
	json_t *j = api_log_entry(e, reveal);

	json_object_set_new(j, "name", name != NULL ? json_string(name) :
	    json_null());
	json_object_set_new(j, "summary", entry_summary(st, r, e, name));
	return j;
}

struct page {
	struct store	*st;
	struct engine_summary_reader reader;
	json_t		*entries;
	int		 reveal;
	int64_t		 last;
};

static int
add_entry(const struct store_entry *e, void *arg)
{
	struct page *pg = arg;

	json_array_append_new(pg->entries, api_event(pg->st, &pg->reader,
	    e, pg->reveal));
	pg->last = e->seq;
	return 0;
}

json_t *
api_log_entries(struct store *st, const struct store_game *g, int64_t after,
    int limit, int64_t *last)
{
	struct page pg;
	enum store_status status;

	memset(&pg, 0, sizeof(pg));
	pg.st = st;
	pg.entries = json_array();
	pg.reveal = g->status == STORE_GAME_OVER;
	pg.last = after;
	status = store_log_range(st, g->id, after, limit, add_entry, &pg);
	engine_summary_reader_clear(&pg.reader);
	if (status != STORE_OK) {
		log_warnx("http: log of game %lld: %s", (long long)g->id,
		    store_errmsg(st));
		json_decref(pg.entries);
		return NULL;
	}
	*last = pg.last;
	return pg.entries;
}

enum MHD_Result
api_game_log(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct store_game g;
	struct store *st;
	int64_t after, limit, last;
	char *server_key = NULL, hex[65];
	json_t *body, *entries;

	if (api_query_number(req, "after", -1, INT64_MAX, -1, &after, &rc) != 0 ||
	    api_query_number(req, "limit", 1, LOG_PAGE_MAX, LOG_PAGE_DEFAULT,
	    &limit, &rc) != 0)
		return rc;
	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (api_game_get(req, st, req->params[0], &g, &rc) != 0)
		return rc;
	if ((entries = api_log_entries(st, &g, after, (int)limit, &last)) ==
	    NULL) {
		store_game_clear(&g);
		return api_send_error(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "internal_error", "the log cannot be read", NULL);
	}
	body = json_pack("{s:I, s:s, s:o}", "game", (json_int_t)g.id,
	    "status", api_game_status_name(g.status), "entries", entries);
	/* A full page may have more after it; a short one is the end for
	 * now (a later move adds more: ask again with the same cursor). */
	json_object_set_new(body, "next_after", json_integer(last));
	json_object_set_new(body, "more", json_boolean(
	    (int64_t)json_array_size(entries) == limit));
	if (store_meta_get(st, "server_key", &server_key) == STORE_OK)
		json_object_set_new(body, "server_key",
		    json_string(server_key));
	free(server_key);
	proto_hex(g.commitment, STORE_HASH_BYTES, hex);
	json_object_set_new(body, "seed_commitment", json_string(hex));
	if (g.status == STORE_GAME_OVER) {
		proto_hex(g.seed, STORE_SEED_BYTES, hex);
		json_object_set_new(body, "seed", json_string(hex));
	}
	store_game_clear(&g);
	return api_send_json(req, MHD_HTTP_OK, body);
}
