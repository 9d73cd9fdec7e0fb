/*
 * create.c -- creating a game: seed, commitment, setup, genesis entry.
 *
 * The genesis entry (seq 0) records what the game is: ruleset and its
 * version, options, each seat's player and public key, the seed
 * commitment and the server's key, as canonical JSON signed by the
 * server.  Audits take the seat keys from it, so a log carries everything
 * needed to check it.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "cardsets.h"
#include "chain.h"
#include "clock.h"
#include "engine.h"
#include "rng.h"
#include "webhook.h"

/* Parse the options text into a JSON object; "" or NULL is {}. */
static json_t *
parse_options(const char *options, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *obj;

	if (options == NULL || *options == '\0')
		return json_object();
	obj = json_loads(options, JSON_REJECT_DUPLICATES, &jerr);
	if (obj == NULL) {
		snprintf(err, errlen, "options are not valid JSON: %s "
		    "(line %d, column %d)", jerr.text, jerr.line, jerr.column);
		return NULL;
	}
	if (!json_is_object(obj)) {
		snprintf(err, errlen, "options must be a JSON object such as "
		    "{\"name\": value}");
		json_decref(obj);
		return NULL;
	}
	return obj;
}

/* The genesis record, canonical JSON (sorted keys, compact). */
static char *
genesis_text(const struct store_game *g, const json_t *options,
    const struct store_player *players, const unsigned char server_pub[32])
{
	char hex[2 * STORE_HASH_BYTES + 1], key[128];
	json_t *seats = json_array(), *record;
	char *text;
	int s;

	for (s = 0; s < g->nseats; s++) {
		json_t *seat;

		proto_pubkey_format(players[s].pubkey, key, sizeof(key));
		seat = json_pack("{s:i, s:s, s:s}", "seat", s, "player",
		    players[s].name, "key", key);
		/* A bot's seat says so, for audits to re-run its choices. */
		if (players[s].bot[0] != '\0')
			json_object_set_new(seat, "bot",
			    json_string(players[s].bot));
		json_array_append_new(seats, seat);
	}
	proto_hex(g->commitment, STORE_HASH_BYTES, hex);
	proto_pubkey_format(server_pub, key, sizeof(key));
	record = json_pack("{s:s, s:I, s:s, s:i, s:O, s:o, s:s, s:s, s:I}",
	    "format", "pbem-genesis-v1",
	    "game", (json_int_t)g->id,
	    "ruleset", g->ruleset,
	    "ruleset_version", g->ruleset_version,
	    "options", options,
	    "seats", seats,
	    "commitment", hex,
	    "server_key", key,
	    "created", (json_int_t)g->created);
	/* Only a card game's record names its card file, so every other
	 * game's genesis is byte for byte what it always was. */
	if (record != NULL && g->cards_hash[0] != '\0')
		json_object_set_new(record, "cards",
		    json_string(g->cards_hash));
	text = json_dumps(record, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(record);
	return text;
}

int
engine_bind_server_key(struct store *st, const struct serverkey *key,
    char *keytext, size_t keytextlen, char *err, size_t errlen)
{
	unsigned char pub[SERVERKEY_PUB_BYTES];
	char *old = NULL;
	int rc = 0;

	serverkey_public(key, pub);
	proto_pubkey_format(pub, keytext, keytextlen);
	if (store_meta_get(st, "server_key", &old) == STORE_OK) {
		if (strcmp(old, keytext) != 0) {
			snprintf(err, errlen, "the database belongs to server "
			    "key %s, not to this key (%s)", old, keytext);
			rc = -1;
		}
	} else if (store_meta_set(st, "server_key", keytext) != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		rc = -1;
	}
	free(old);
	return rc;
}

static enum engine_status
store_failure(struct store *st, char *err, size_t errlen)
{
	snprintf(err, errlen, "store: %s", store_errmsg(st));
	store_rollback(st);
	return ENGINE_INTERNAL;
}

/* Look the players up and check each seat has a distinct one; an id of 0
 * is an open seat (its player row is left zeroed). */
static enum engine_status
load_players(struct store *st, const int64_t *ids, int nseats,
    struct store_player *players, char *err, size_t errlen)
{
	int s, t;

	for (s = 0; s < nseats; s++) {
		memset(&players[s], 0, sizeof(players[s]));
		if (ids[s] == 0)
			continue;
		if (store_player_get(st, ids[s], &players[s]) != STORE_OK) {
			snprintf(err, errlen, "seat %d: no player with id %lld",
			    s, (long long)ids[s]);
			return ENGINE_BAD_REQUEST;
		}
		for (t = 0; t < s; t++)
			if (ids[t] == ids[s]) {
				snprintf(err, errlen, "player %s is given "
				    "seats %d and %d; one seat each",
				    players[s].name, t, s);
				return ENGINE_BAD_REQUEST;
			}
	}
	return ENGINE_OK;
}

/*
 * Start game g inside the caller's transaction: every seat has a player.
 * Sets the game up from its seed (step 0), appends the genesis entry and
 * the opening snapshot, and marks the game running.
 */
static enum engine_status
start_locked(struct store *st, const struct serverkey *key,
    struct store_game *g, const json_t *opts, char *err, size_t errlen)
{
	struct store_player seat_players[STORE_MAX_SEATS];
	const struct rules_module *m = rules_find(g->ruleset);
	struct store_entry e;
	struct engine_summary sum;
	struct gamestate opening;
	struct rules_rng rng;
	unsigned char server_pub[32];
	char *state_text = NULL, *gtext = NULL;
	enum engine_status rc;
	const void *cards;
	json_t *saved;
	void *state;
	int s;

	if (m == NULL) {
		snprintf(err, errlen, "unknown ruleset \"%s\"", g->ruleset);
		return ENGINE_INTERNAL;
	}
	for (s = 0; s < g->nseats; s++)
		if (g->seat_player[s] == 0) {
			snprintf(err, errlen, "seat %d is still open", s);
			return ENGINE_INTERNAL;
		}
	if ((rc = load_players(st, g->seat_player, g->nseats, seat_players,
	    err, errlen)) != ENGINE_OK)
		return rc;
	if (cardsets_for_game(st, m, g->cards_hash, &cards, err, errlen) != 0)
		return ENGINE_INTERNAL;
	rng_init(&rng, g->seed, 0);
	if ((state = rules_setup_game(m, cards, g->ruleset_version,
	    g->nseats, opts, &rng, err, errlen)) == NULL)
		return ENGINE_BAD_REQUEST;
	saved = m->save(state);
	state_text = chain_state_text(saved);
	json_decref(saved);

	serverkey_public(key, server_pub);
	memset(&e, 0, sizeof(e));
	e.game_id = g->id;
	e.seq = 0;
	e.kind = STORE_ENTRY_GENESIS;
	e.seat = -1;
	e.time = clock_now();
	g->created = e.time;
	gtext = genesis_text(g, opts, seat_players, server_pub);
	e.text = gtext;
	serverkey_sign(key, (const unsigned char *)gtext, strlen(gtext),
	    e.signature);
	chain_state_hash(state_text, e.state_hash);
	chain_entry_hash(&e, e.hash);
	engine_sign_receipt(key, &e);

	/* The opening mails: the seats to act are told it is their turn,
	 * the others that the game has begun (submit.c). */
	memset(&opening, 0, sizeof(opening));
	opening.game = *g;
	opening.module = m;
	opening.cards = cards;
	opening.state = state;
	rc = ENGINE_OK;
	engine_summarize(st, &opening, &e, 0, &sum);
	if (store_log_append(st, &e) != STORE_OK ||
	    store_snapshot_put(st, g->id, 0, state_text) != STORE_OK ||
	    store_game_set_status(st, g->id, STORE_GAME_RUNNING) != STORE_OK ||
	    engine_queue_opening(st, &opening) != 0 ||
	    webhook_game_created(st, g, &sum) != 0) {	/* webhook.h */
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		rc = ENGINE_INTERNAL;
	}
	sodium_memzero(&opening, sizeof(opening));	/* a copy of g */
	m->destroy(state);
	free(gtext);
	free(state_text);
	return rc;
}

/*
 * The card set a new game of m plays with: given (cards) or m's own
 * (read into *own), parsed into the cache.  NULL set and 0 for a game
 * without cards; -1 with err and *rc when it cannot be had.
 */
static int
choose_cards(const struct rules_module *m, const struct cardfile *cards,
    struct cardfile *own, const struct cardfile **chosen, const void **set,
    enum engine_status *rc, char *err, size_t errlen)
{
	*chosen = NULL;
	*set = NULL;
	if (!rules_has_cards(m)) {
		if (cards == NULL)
			return 0;
		snprintf(err, errlen, "%s is not played with a card file; "
		    "only card games take one", m->name);
		*rc = ENGINE_BAD_REQUEST;
		return -1;
	}
	if (cards == NULL) {
		if (cardfile_default(m, own, err, errlen) != 0) {
			*rc = ENGINE_INTERNAL;	/* the installation's fault */
			return -1;
		}
		cards = own;
	}
	if ((*set = cardsets_add(m, cards, err, errlen)) == NULL) {
		*rc = cards == own ? ENGINE_INTERNAL : ENGINE_BAD_REQUEST;
		return -1;
	}
	*chosen = cards;
	return 0;
}

/* Read every bot seat of bots (NULL: none) into specs; a bot seat must
 * be given no player. */
static enum engine_status
read_bot_seats(const char *const *bots, const int64_t *players, int nseats,
    struct engine_bot_spec *specs, char *err, size_t errlen)
{
	enum engine_status rc;
	int s;

	for (s = 0; bots != NULL && s < nseats; s++) {
		if (bots[s] == NULL)
			continue;
		if (players[s] != 0) {
			snprintf(err, errlen, "seat %d has both a player and a "
			    "bot", s);
			return ENGINE_BAD_REQUEST;
		}
		if ((rc = engine_bot_spec_read(bots[s], &specs[s], err,
		    errlen)) != ENGINE_OK)
			return rc;
	}
	return ENGINE_OK;
}

/* A module with levels of its own (rules.h, bot_levels) is told its bot
 * seats in the options: "bot_seats": {"SEAT": "LEVEL"}.  0, or -1 when
 * the creator wrote bot_seats. */
static int
add_bot_seats(const struct rules_module *m, const char *const *bots,
    const struct engine_bot_spec *specs, int nseats, json_t *opts,
    char *err, size_t errlen)
{
	json_t *seats;
	char key[16];

	if (json_object_get(opts, "bot_seats") != NULL) {
		snprintf(err, errlen, "the option bot_seats is the server's: "
		    "write the seats as @bot:LEVEL");
		return -1;
	}
	if (rules_module_bot_levels(m) == NULL || bots == NULL)
		return 0;
	seats = json_object();
	for (int s = 0; s < nseats; s++)
		if (bots[s] != NULL) {
			snprintf(key, sizeof(key), "%d", s);
			json_object_set_new(seats, key,
			    json_string(specs[s].level_name));
		}
	if (json_object_size(seats) > 0)
		json_object_set_new(opts, "bot_seats", seats);
	else
		json_decref(seats);
	return 0;
}

enum engine_status
engine_form_game(struct store *st, const struct serverkey *key,
    const char *ruleset, const char *options, const int64_t *players,
    int nseats, int64_t *game_id, int *started, char *err, size_t errlen)
{
	return engine_form_game_with(st, key, ruleset, options, NULL,
	    players, NULL, nseats, game_id, started, err, errlen);
}

enum engine_status
engine_form_game_with(struct store *st, const struct serverkey *key,
    const char *ruleset, const char *options, const struct cardfile *cards,
    const int64_t *players, const char *const *bots, int nseats,
    int64_t *game_id, int *started,
    char *err, size_t errlen)
{
	struct store_player seat_players[STORE_MAX_SEATS];
	struct engine_bot_spec specs[STORE_MAX_SEATS];
	const struct rules_module *m;
	const struct cardfile *chosen;
	struct cardfile own;
	struct store_game g;
	struct rules_rng rng;
	const void *set;
	json_t *opts;
	void *state;
	enum engine_status rc;
	int s, open = 0;

	*started = 0;
	memset(&own, 0, sizeof(own));
	if (nseats < 1 || nseats > STORE_MAX_SEATS) {
		snprintf(err, errlen, "a game has 1 to %d seats, not %d",
		    STORE_MAX_SEATS, nseats);
		return ENGINE_BAD_REQUEST;
	}
	if ((rc = read_bot_seats(bots, players, nseats, specs, err,
	    errlen)) != ENGINE_OK)
		return rc;
	if ((m = rules_find(ruleset)) == NULL) {
		snprintf(err, errlen, "unknown ruleset \"%s\"; see `pbemctl "
		    "rulesets` or GET /v1/rulesets for the list", ruleset);
		return ENGINE_BAD_REQUEST;
	}
	if (nseats < m->min_seats || nseats > m->max_seats) {
		snprintf(err, errlen, "%s is for %d to %d players, not %d",
		    m->name, m->min_seats, m->max_seats, nseats);
		return ENGINE_BAD_REQUEST;
	}
	for (s = 0; bots != NULL && s < nseats; s++)
		if (bots[s] != NULL && (rc = engine_bot_level_check(m,
		    &specs[s], err, errlen)) != ENGINE_OK)
			return rc;
	if (choose_cards(m, cards, &own, &chosen, &set, &rc, err, errlen) != 0)
		goto out_cards;
	if ((opts = parse_options(options, err, errlen)) == NULL ||
	    add_bot_seats(m, bots, specs, nseats, opts, err, errlen) != 0) {
		json_decref(opts);
		rc = ENGINE_BAD_REQUEST;
		goto out_cards;
	}
	if ((rc = load_players(st, players, nseats, seat_players, err,
	    errlen)) != ENGINE_OK) {
		json_decref(opts);
		goto out_cards;
	}

	memset(&g, 0, sizeof(g));
	snprintf(g.ruleset, sizeof(g.ruleset), "%s", m->name);
	g.ruleset_version = m->ruleset_version;
	if (chosen != NULL)
		memcpy(g.cards_hash, chosen->hash, sizeof(g.cards_hash));
	g.options = json_dumps(opts, JSON_COMPACT | JSON_SORT_KEYS);
	g.nseats = nseats;
	for (s = 0; s < nseats; s++) {
		g.seat_player[s] = players[s];
		open += players[s] == 0 && (bots == NULL || bots[s] == NULL);
	}
	rng_seed_generate(g.seed);
	rng_seed_commit(g.seed, g.commitment);
	g.status = STORE_GAME_FORMING;
	g.created = clock_now();

	/* The module judges the options now, so a game that could never
	 * start is refused before anyone joins it. */
	rng_init(&rng, g.seed, 0);
	if ((state = rules_setup_game(m, set, g.ruleset_version, nseats, opts,
	    &rng, err, errlen)) == NULL) {
		rc = ENGINE_BAD_REQUEST;
		goto out;
	}
	m->destroy(state);

	if (store_begin(st) != STORE_OK) {
		rc = store_failure(st, err, errlen);
		goto out;
	}
	/* The bots' players, in the game's transaction: a refused game
	 * leaves none behind. */
	for (s = 0; bots != NULL && s < nseats; s++)
		if (bots[s] != NULL && (rc = engine_bot_player_add(st,
		    &specs[s], &g.seat_player[s], err, errlen)) != ENGINE_OK) {
			store_rollback(st);
			goto out;
		}
	/* The card file first: the game row names it. */
	if ((chosen != NULL && store_card_file_put(st, chosen->hash, m->name,
	    chosen->bytes, chosen->len) != STORE_OK) ||
	    store_game_add(st, &g) != STORE_OK) {
		rc = store_failure(st, err, errlen);
		goto out;
	}
	if (open == 0 && (rc = start_locked(st, key, &g, opts, err,
	    errlen)) != ENGINE_OK) {
		store_rollback(st);
		goto out;
	}
	if (store_commit(st) != STORE_OK) {
		rc = store_failure(st, err, errlen);
		goto out;
	}
	*game_id = g.id;
	*started = open == 0;
	if (*started) {
		engine_committed(g.id, 0);
		/* Not recorded now: recorded when the player sends the
		 * certificate again (delegate.c). */
		(void)engine_delegation_game_started(st, key, g.id,
		    clock_now());
	}
	rc = ENGINE_OK;
out:
	sodium_memzero(g.seed, sizeof(g.seed));
	json_decref(opts);
	free(g.options);
out_cards:
	cardfile_clear(&own);
	return rc;
}

enum engine_status
engine_create_game(struct store *st, const struct serverkey *key,
    const char *ruleset, const char *options, const int64_t *players,
    int nseats, int64_t *game_id, char *err, size_t errlen)
{
	int s, started;

	for (s = 0; s < nseats; s++)
		if (players[s] == 0) {
			snprintf(err, errlen, "seat %d has no player", s);
			return ENGINE_BAD_REQUEST;
		}
	return engine_form_game(st, key, ruleset, options, players, nseats,
	    game_id, &started, err, errlen);
}

/* Under the write lock: the game, which must be forming. */
static enum engine_status
forming_game(struct store *st, int64_t game_id, struct store_game *g,
    char *err, size_t errlen)
{
	enum store_status rc = store_game_get(st, game_id, g);

	if (rc == STORE_NOTFOUND) {
		snprintf(err, errlen, "there is no game %lld",
		    (long long)game_id);
		return ENGINE_UNKNOWN_GAME;
	}
	if (rc != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
	}
	if (g->status != STORE_GAME_FORMING) {
		snprintf(err, errlen, "game %lld has %s; seats change only "
		    "while a game is forming", (long long)game_id,
		    g->status == STORE_GAME_OVER ? "ended" : "started");
		return ENGINE_NOT_FORMING;
	}
	return ENGINE_OK;
}

enum engine_status
engine_join_game(struct store *st, const struct serverkey *key,
    int64_t game_id, int seat, int64_t player_id, int *seat_taken,
    int *started, char *err, size_t errlen)
{
	struct store_game g;
	json_t *opts = NULL;
	enum engine_status rc;
	int s, open = 0;

	*started = 0;
	memset(&g, 0, sizeof(g));
	if (store_begin(st) != STORE_OK) {
		snprintf(err, errlen, "the store is busy: %s; try again",
		    store_errmsg(st));
		return ENGINE_BUSY;
	}
	if ((rc = forming_game(st, game_id, &g, err, errlen)) != ENGINE_OK)
		goto refuse;
	for (s = 0; s < g.nseats; s++)
		if (g.seat_player[s] == player_id) {
			snprintf(err, errlen, "you already hold seat %d of game "
			    "%lld", s, (long long)game_id);
			rc = ENGINE_SEAT_TAKEN;
			goto refuse;
		}
	if (seat < 0)
		for (s = 0; s < g.nseats && seat < 0; s++)
			if (g.seat_player[s] == 0)
				seat = s;
	if (seat < 0 || seat >= g.nseats) {
		if (seat < 0)
			snprintf(err, errlen, "game %lld has no open seat",
			    (long long)game_id);
		else
			snprintf(err, errlen, "game %lld has seats 0 to %d; "
			    "there is no seat %d", (long long)game_id,
			    g.nseats - 1, seat);
		rc = seat < 0 ? ENGINE_SEAT_TAKEN : ENGINE_BAD_SEAT;
		goto refuse;
	}
	if (g.seat_player[seat] != 0) {
		snprintf(err, errlen, "seat %d of game %lld is taken", seat,
		    (long long)game_id);
		rc = ENGINE_SEAT_TAKEN;
		goto refuse;
	}
	if (store_game_set_seat(st, game_id, seat, player_id) != STORE_OK) {
		rc = store_failure(st, err, errlen);
		goto out;
	}
	g.seat_player[seat] = player_id;
	for (s = 0; s < g.nseats; s++)
		open += g.seat_player[s] == 0;
	if (open == 0) {
		opts = parse_options(g.options, err, errlen);
		rc = opts == NULL ? ENGINE_INTERNAL : start_locked(st, key, &g,
		    opts, err, errlen);
		if (rc != ENGINE_OK)
			goto refuse;
	}
	if (store_commit(st) != STORE_OK) {
		rc = store_failure(st, err, errlen);
		goto out;
	}
	*seat_taken = seat;
	*started = open == 0;
	if (*started) {
		engine_committed(game_id, 0);
		(void)engine_delegation_game_started(st, key, game_id,
		    clock_now());
	}
	rc = ENGINE_OK;
	goto out;
refuse:
	store_rollback(st);
out:
	json_decref(opts);
	sodium_memzero(g.seed, sizeof(g.seed));
	store_game_clear(&g);
	return rc;
}

enum engine_status
engine_leave_game(struct store *st, int64_t game_id, int64_t player_id,
    int *seat_left, char *err, size_t errlen)
{
	struct store_game g;
	enum engine_status rc;
	int s, seat = -1;

	memset(&g, 0, sizeof(g));
	if (store_begin(st) != STORE_OK) {
		snprintf(err, errlen, "the store is busy: %s; try again",
		    store_errmsg(st));
		return ENGINE_BUSY;
	}
	if ((rc = forming_game(st, game_id, &g, err, errlen)) != ENGINE_OK)
		goto refuse;
	for (s = 0; s < g.nseats; s++)
		if (g.seat_player[s] == player_id)
			seat = s;
	if (seat < 0) {
		snprintf(err, errlen, "you hold no seat in game %lld",
		    (long long)game_id);
		rc = ENGINE_BAD_SEAT;
		goto refuse;
	}
	if (store_game_set_seat(st, game_id, seat, 0) != STORE_OK ||
	    store_commit(st) != STORE_OK) {
		rc = store_failure(st, err, errlen);
		goto out;
	}
	*seat_left = seat;
	rc = ENGINE_OK;
	goto out;
refuse:
	store_rollback(st);
out:
	sodium_memzero(g.seed, sizeof(g.seed));
	store_game_clear(&g);
	return rc;
}
