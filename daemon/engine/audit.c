/*
 * audit.c -- walking a game's log and re-checking everything (audit.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "audit.h"
#include "cardsets.h"
#include "chain.h"
#include "delegation.h"
#include "engine.h"
#include "protocol.h"
#include "replay.h"
#include "rng.h"
#include "verifier.h"

/* A certificate a kind 10 entry recorded, until a kind 11 entry revokes it
 * or a replacement (kind 5) changes the seat's key. */
#define AUDIT_DELEGATIONS_MAX	64
struct held {
	int			seat;
	char			id[DELEGATION_ID_TEXT];
	struct delegation	cert;
};

/* What the genesis record told us, the certificates in force, and the
 * workers checking the log's signatures (verifier.h). */
struct genesis {
	const struct rules_module *module;
	json_t		*options;
	int		 ruleset_version;	/* the game's, maybe older */
	int		 nseats;
	unsigned char	 keys[STORE_MAX_SEATS][32];
	unsigned char	 commitment[STORE_HASH_BYTES];
	/* A card game's: the hash the record names, and the set parsed
	 * from the log's card file (freed with cards_free()). */
	char		 cards_hash[STORE_CARDS_HASH_HEX + 1];
	void		*cards;
	/* The level of a seat created for a bot (its "bot" field), else
	 * RULES_BOT_NORMAL: the level the "bot" policy plays a seat at. */
	int		 bot_level[STORE_MAX_SEATS];
	struct held	 held[AUDIT_DELEGATIONS_MAX];
	size_t		 nheld;
	struct verifier	*verifier;	/* NULL: every check made here */
};

static int
fail(struct audit_report *r, int64_t seq, const char *fmt, ...)
{
	va_list ap;

	r->ok = 0;
	r->bad_seq = seq;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
	return -1;
}

/* Is entry e (at its place: e->seq is its index) signed by key, over its
 * canonical block (a move) or over its text (the genesis and server
 * records)?  The workers' answer when they checked it with that key
 * (verifier.h), else checked here. */
static int
signed_by(struct verifier *v, const struct store_entry *e,
    const unsigned char *key, int is_move)
{
	int ok = verifier_signature_ok(v, (size_t)e->seq, key);

	if (ok >= 0)
		return ok;
	if (is_move)
		return move_entry_verifies(e, key);
	return crypto_sign_verify_detached(e->signature,
	    (const unsigned char *)e->text, strlen(e->text), key) == 0;
}

/* Check the links, hash and receipt of entry i. */
static int
check_link(const struct audit_log *log, size_t i, struct verifier *v,
    struct audit_report *r)
{
	static const unsigned char zero[STORE_HASH_BYTES];
	const struct store_entry *e = &log->entries[i];
	const unsigned char *prev;
	unsigned char hash[STORE_HASH_BYTES];

	if (e->seq != (int64_t)i)
		return fail(r, (int64_t)i, "entry %zu has sequence number %lld"
		    " (entries must be numbered 0, 1, 2, ... without gaps)", i,
		    (long long)e->seq);
	if (e->game_id != log->game_id)
		return fail(r, e->seq, "entry %lld belongs to game %lld, not "
		    "game %lld", (long long)e->seq, (long long)e->game_id,
		    (long long)log->game_id);
	if ((i == 0) != (e->kind == STORE_ENTRY_GENESIS))
		return fail(r, e->seq, "entry %lld has kind %d; only entry 0 "
		    "is the genesis entry", (long long)e->seq, e->kind);
	prev = i == 0 ? zero : log->entries[i - 1].hash;
	if (memcmp(e->prev_hash, prev, STORE_HASH_BYTES) != 0)
		return fail(r, e->seq, "entry %lld does not link to the hash "
		    "of entry %lld", (long long)e->seq, (long long)e->seq - 1);
	chain_entry_hash(e, hash);
	if (memcmp(hash, e->hash, STORE_HASH_BYTES) != 0)
		return fail(r, e->seq, "entry %lld: its contents do not match "
		    "its hash (the entry was altered)", (long long)e->seq);
	if (!verifier_receipt_ok(v, log->entries, i, log->server_pub))
		return fail(r, e->seq, "entry %lld: the server's receipt "
		    "signature does not verify", (long long)e->seq);
	return 0;
}

/* A card game's record names its card file's hash; no other does. */
static int
read_genesis_cards(const json_t *root, struct genesis *gen,
    struct audit_report *r)
{
	const json_t *cards = json_object_get(root, "cards");
	const char *hash = json_string_value(cards);
	size_t i;

	if (!rules_has_cards(gen->module)) {
		if (cards != NULL)
			return fail(r, 0, "genesis entry: it names a card file, "
			    "and %s is not played with one", gen->module->name);
		return 0;
	}
	if (hash == NULL || strlen(hash) != STORE_CARDS_HASH_HEX)
		return fail(r, 0, "genesis entry: %s is played with a card "
		    "file, and the record names none (\"cards\": the SHA-256 "
		    "of the file in hex)", gen->module->name);
	for (i = 0; hash[i] != '\0'; i++)
		if (strchr("0123456789abcdef", hash[i]) == NULL)
			return fail(r, 0, "genesis entry: \"cards\" is not a "
			    "SHA-256 in lower-case hex");
	memcpy(gen->cards_hash, hash, sizeof(gen->cards_hash));
	return 0;
}

/* The log's card file must be the one the genesis names; parse it. */
static int
check_cards(const struct audit_log *log, struct genesis *gen,
    struct audit_report *r)
{
	char hash[STORE_CARDS_HASH_HEX + 1], err[RULES_ERRLEN], name[64];

	if (!rules_has_cards(gen->module))
		return 0;
	if (log->cards == NULL)
		return fail(r, 0, "genesis entry: the game is played with the "
		    "card file of SHA-256 %s, and the log carries no card file",
		    gen->cards_hash);
	cardsets_hash(log->cards, log->cards_len, hash);
	if (strcmp(hash, gen->cards_hash) != 0)
		return fail(r, 0, "the card file does not hash to the one the "
		    "genesis entry names: its SHA-256 is %s, the genesis names "
		    "%s (the card file was altered or replaced)", hash,
		    gen->cards_hash);
	snprintf(name, sizeof(name), "card file %.16s", hash);
	gen->cards = gen->module->cards_parse(log->cards, log->cards_len,
	    name, err, sizeof(err));
	if (gen->cards == NULL)
		return fail(r, 0, "the game's card file is refused by %s: %s",
		    gen->module->name, err);
	memcpy(r->cards_hash, hash, sizeof(r->cards_hash));
	return 0;
}

static int
read_genesis(const struct audit_log *log, struct genesis *gen,
    struct audit_report *r)
{
	const struct store_entry *e = &log->entries[0];
	unsigned char key[32];
	char perr[256];
	const char *ruleset = NULL, *commit = NULL, *server = NULL;
	json_t *root, *seats, *seat;
	json_int_t game = -1;
	int version = 0;
	size_t i;

	if (!signed_by(gen->verifier, e, log->server_pub, 0))
		return fail(r, 0, "genesis entry: the server's signature over "
		    "the game record does not verify");
	root = json_loads(e->text, 0, NULL);
	if (root == NULL || json_unpack(root, "{s:I, s:s, s:i, s:o, s:o, s:s,"
	    " s:s}", "game", &game, "ruleset", &ruleset, "ruleset_version",
	    &version, "options", &gen->options, "seats", &seats,
	    "commitment", &commit, "server_key", &server) != 0) {
		json_decref(root);
		return fail(r, 0, "genesis entry: the game record is not a "
		    "valid pbem-genesis-v1 record");
	}
	json_incref(gen->options);
	snprintf(r->ruleset, sizeof(r->ruleset), "%s", ruleset);
	gen->module = rules_find(ruleset);
	if (game != log->game_id || gen->module == NULL ||
	    !rules_version_supported(gen->module, version) ||
	    proto_unhex(commit, gen->commitment, STORE_HASH_BYTES) != 0 ||
	    proto_pubkey_parse(server, key, perr, sizeof(perr)) != PROTO_OK ||
	    memcmp(key, log->server_pub, 32) != 0 || !json_is_array(seats) ||
	    json_array_size(seats) < 1 ||
	    json_array_size(seats) > STORE_MAX_SEATS) {
		/* The message first: ruleset belongs to root. */
		fail(r, 0, "genesis entry: game id, ruleset %s version %d, "
		    "commitment, server key or seats do not check out",
		    ruleset, version);
		json_decref(root);
		return -1;
	}
	if (read_genesis_cards(root, gen, r) != 0) {
		json_decref(root);
		return -1;
	}
	gen->ruleset_version = version;
	gen->nseats = (int)json_array_size(seats);
	r->nseats = gen->nseats;
	json_array_foreach(seats, i, seat) {
		const char *ktext = json_string_value(json_object_get(seat,
		    "key"));
		const char *level = json_string_value(json_object_get(seat,
		    "bot"));

		gen->bot_level[i] = level != NULL ? rules_bot_level_of(
		    gen->module, level) : RULES_BOT_NORMAL;
		if (gen->bot_level[i] < 0) {
			json_decref(root);
			return fail(r, 0, "genesis entry: seat %zu has an "
			    "unknown bot level \"%s\"", i, level);
		}
		if (ktext == NULL || proto_pubkey_parse(ktext, gen->keys[i],
		    perr, sizeof(perr)) != PROTO_OK) {
			json_decref(root);
			return fail(r, 0, "genesis entry: seat %zu has no valid "
			    "key", i);
		}
	}
	json_decref(root);
	return 0;
}

/* The game row must say what the genesis record says. */
static int
check_row(const struct audit_log *log, const struct genesis *gen,
    struct audit_report *r)
{
	const struct store_game *g = log->row;
	json_t *opts;
	int same;

	if (g == NULL)
		return 0;
	opts = json_loads(g->options ? g->options : "{}", 0, NULL);
	same = opts != NULL && json_equal(opts, gen->options);
	json_decref(opts);
	if (!same || g->nseats != gen->nseats ||
	    strcmp(g->ruleset, gen->module->name) != 0 ||
	    strcmp(g->cards_hash, gen->cards_hash) != 0 ||
	    memcmp(g->commitment, gen->commitment, STORE_HASH_BYTES) != 0)
		return fail(r, 0, "game %lld: the games table disagrees with "
		    "the genesis record (ruleset, options, seats or "
		    "commitment or card file altered)", (long long)log->game_id);
	return 0;
}

/* A bot's move: signed by the bot key of a certificate for moves that an
 * earlier entry recorded for this seat, not revoked, and not expired at
 * the entry's time. */
static int
check_bot_signature(const struct store_entry *e, const struct genesis *gen,
    struct audit_report *r)
{
	size_t i, n;

	for (i = 0; i < gen->nheld; i++) {
		const struct held *h = &gen->held[i];

		if (h->seat == e->seat && h->cert.scope == DELEGATION_MOVES &&
		    e->time < h->cert.expires &&
		    move_entry_verifies(e, h->cert.bot)) {
			r->ndelegated++;
			n = strlen(r->delegated);
			if (n + 48 < sizeof(r->delegated))
				snprintf(r->delegated + n, sizeof(r->delegated)
				    - n, "%s%lld (seat %d, certificate %s)",
				    n > 0 ? ", " : "", (long long)e->seq,
				    e->seat, h->id);
			return 0;
		}
	}
	return fail(r, e->seq, "entry %lld: a bot's move for seat %d, but no "
	    "certificate for moves recorded before it, in force at its time "
	    "(%lld), has a bot key that verifies it", (long long)e->seq,
	    e->seat, (long long)e->time);
}

static int
check_move_signature(const struct store_entry *e, const struct genesis *gen,
    const unsigned char *server_pub, struct audit_report *r)
{
	if (e->seat < 0 || e->seat >= gen->nseats)
		return fail(r, e->seq, "entry %lld names seat %d; the game has "
		    "%d seats", (long long)e->seq, e->seat, gen->nseats);
	if (strlen(e->text) > PROTO_MOVE_MAX)
		return fail(r, e->seq, "entry %lld: move text too long",
		    (long long)e->seq);
	if (e->kind == STORE_ENTRY_DELEGATED)
		return check_bot_signature(e, gen, r);
	/* An automatic or a bot's move is signed the same way, by the
	 * server. */
	if (!signed_by(gen->verifier, e, e->kind == STORE_ENTRY_AUTO ||
	    e->kind == STORE_ENTRY_BOT ? server_pub : gen->keys[e->seat], 1))
		return fail(r, e->seq, "entry %lld: the %s's signature does "
		    "not verify with %s", (long long)e->seq,
		    e->kind == STORE_ENTRY_AUTO ? "automatic move" :
		    e->kind == STORE_ENTRY_BOT ? "bot's move" : "move",
		    e->kind == STORE_ENTRY_AUTO || e->kind == STORE_ENTRY_BOT ?
		    "the server's key" : "the seat's key");
	return 0;
}

/* Forget seat's certificate id (NULL: all of the seat's); how many. */
static size_t
drop_held(struct genesis *gen, int seat, const char *id)
{
	size_t i = 0, dropped = 0;

	while (i < gen->nheld) {
		if (gen->held[i].seat == seat && (id == NULL ||
		    strcmp(gen->held[i].id, id) == 0)) {
			gen->held[i] = gen->held[--gen->nheld];
			dropped++;
		} else
			i++;
	}
	return dropped;
}

/*
 * A delegation record (kind 10): the certificate it carries must be
 * signed by the seat's key, have the id the record gives, and cover
 * this game; it is then in force for the seat.  A revocation (kind 11)
 * names a certificate in force for the seat.  The chain an audit checks
 * is: the seat's key (genesis or replace) -> certificate -> bot move.
 */
static int
check_delegation(const struct store_entry *e, json_t *rec, int seat,
    struct genesis *gen, struct audit_report *r)
{
	const char *id = json_string_value(json_object_get(rec, "id"));
	char want[DELEGATION_ID_TEXT], err[256];
	struct held h;

	if (id == NULL || strlen(id) != DELEGATION_ID_TEXT - 1)
		return fail(r, e->seq, "entry %lld: the delegation record has "
		    "no certificate id", (long long)e->seq);
	if (e->kind == STORE_ENTRY_REVOCATION) {
		if (drop_held(gen, seat, id) == 0)
			return fail(r, e->seq, "entry %lld revokes certificate "
			    "%s, which is not in force for seat %d",
			    (long long)e->seq, id, seat);
		return 0;
	}
	memset(&h, 0, sizeof(h));
	if (delegation_from_json(json_object_get(rec, "certificate"), &h.cert,
	    0, err, sizeof(err)) != PROTO_OK)
		return fail(r, e->seq, "entry %lld: %s", (long long)e->seq,
		    err);
	if (delegation_verify(&h.cert, gen->keys[seat]) != PROTO_OK)
		return fail(r, e->seq, "entry %lld: the delegation certificate "
		    "is not signed by the key of seat %d", (long long)e->seq,
		    seat);
	if (delegation_id(&h.cert, want) != 0 || strcmp(want, id) != 0)
		return fail(r, e->seq, "entry %lld: the record names "
		    "certificate %s but the certificate's id is %s",
		    (long long)e->seq, id, want);
	if (h.cert.game != DELEGATION_ALL_GAMES && h.cert.game != e->game_id)
		return fail(r, e->seq, "entry %lld: the certificate is for game "
		    "%lld, not this one", (long long)e->seq,
		    (long long)h.cert.game);
	if (gen->nheld >= AUDIT_DELEGATIONS_MAX)
		return fail(r, e->seq, "entry %lld: more than %d certificates "
		    "in force in one game", (long long)e->seq,
		    AUDIT_DELEGATIONS_MAX);
	h.seat = seat;
	snprintf(h.id, sizeof(h.id), "%s", id);
	gen->held[gen->nheld++] = h;
	return 0;
}

/*
 * A record the server wrote and signed (skip, resign, replace, call
 * off; docs/LOG.md): its signature, its format, game and sequence
 * number.  A replacement hands the seat's key over for the entries
 * after it.  *ends is set when the entry ends the game.
 */
static int
check_record(const struct store_entry *e, struct genesis *gen,
    const unsigned char *server_pub, int *ends, struct audit_report *r)
{
	static const char *const events[] = {
		[STORE_ENTRY_SKIP] = "skip",
		[STORE_ENTRY_RESIGN] = "resign",
		[STORE_ENTRY_REPLACE] = "replace",
		[STORE_ENTRY_CALL_OFF] = "call_off",
		[STORE_ENTRY_DELEGATION] = "delegate",
		[STORE_ENTRY_REVOCATION] = "revoke_delegation",
	};
	const char *format = NULL, *event = NULL, *key;
	json_int_t game = -1, seq = -1;
	json_t *rec;
	char perr[256];
	int seat = -1, ok;

	if (!signed_by(gen->verifier, e, server_pub, 0))
		return fail(r, e->seq, "entry %lld: the server's signature over "
		    "the %s record does not verify", (long long)e->seq,
		    events[e->kind]);
	rec = json_loads(e->text, 0, NULL);
	ok = rec != NULL && json_unpack(rec, "{s:s, s:s, s:I, s:I}", "format",
	    &format, "event", &event, "game", &game, "seq", &seq) == 0 &&
	    strcmp(format, "pbem-event-v1") == 0 &&
	    strcmp(event, events[e->kind]) == 0 && game == e->game_id &&
	    seq == e->seq;
	if (ok && e->kind != STORE_ENTRY_CALL_OFF)
		ok = json_unpack(rec, "{s:i}", "seat", &seat) == 0 &&
		    seat == e->seat && seat >= 0 && seat < gen->nseats;
	if (ok && e->kind == STORE_ENTRY_REPLACE) {
		key = json_string_value(json_object_get(rec, "key"));
		ok = key != NULL && proto_pubkey_parse(key, gen->keys[seat],
		    perr, sizeof(perr)) == PROTO_OK;
		drop_held(gen, seat, NULL);
	}
	if (ok && (e->kind == STORE_ENTRY_DELEGATION ||
	    e->kind == STORE_ENTRY_REVOCATION)) {
		ok = check_delegation(e, rec, seat, gen, r) == 0;
		json_decref(rec);
		return ok ? 0 : -1;
	}
	*ends = e->kind == STORE_ENTRY_CALL_OFF ||
	    (e->kind == STORE_ENTRY_RESIGN && json_object_get(rec, "winners")
	    != NULL);
	json_decref(rec);
	if (!ok)
		return fail(r, e->seq, "entry %lld: the %s record is not a "
		    "valid pbem-event-v1 record for this game, entry and seat",
		    (long long)e->seq, events[e->kind]);
	return 0;
}

/* Compare the replayed state with the entry (and the stored snapshot). */
static int
check_state(const struct audit_log *log, size_t i, const void *state,
    const struct genesis *gen, struct audit_report *r)
{
	const struct store_entry *e = &log->entries[i];
	unsigned char hash[STORE_HASH_BYTES];
	json_t *saved = gen->module->save(state);
	char *text = chain_state_text(saved);
	int bad_snapshot;

	json_decref(saved);
	chain_state_hash(text, hash);
	bad_snapshot = log->snapshots != NULL && log->snapshots[i] != NULL &&
	    strcmp(log->snapshots[i], text) != 0;
	free(text);
	memcpy(r->final_state_hash, hash, STORE_HASH_BYTES);
	if (memcmp(hash, e->state_hash, STORE_HASH_BYTES) != 0)
		return fail(r, e->seq, "entry %lld: replaying from the seed "
		    "gives a different state than the log records",
		    (long long)e->seq);
	if (bad_snapshot)
		return fail(r, e->seq, "entry %lld: the stored snapshot differs"
		    " from the replayed state (the snapshot was altered)",
		    (long long)e->seq);
	return 0;
}

const char *
audit_hosted_auth(int kind)
{
	switch (kind) {
	case STORE_ENTRY_HOSTED_MAIL:
		return "mail reply token";
	case STORE_ENTRY_HOSTED_WEB:
		return "web session";
	default:
		return NULL;
	}
}

/* A move signed with a hosted key: counted and named in the report. */
static void
audit_note_hosted(struct audit_report *r, const struct store_entry *e)
{
	size_t n = strlen(r->hosted);

	r->nhosted++;
	if (n + 48 < sizeof(r->hosted))
		snprintf(r->hosted + n, sizeof(r->hosted) - n, "%s%lld (seat "
		    "%d, %s)", n > 0 ? ", " : "", (long long)e->seq, e->seat,
		    e->kind == STORE_ENTRY_HOSTED_MAIL ? "mail" : "web");
	else if (n + 5 < sizeof(r->hosted) && strcmp(r->hosted + n - 3,
	    "...") != 0)
		snprintf(r->hosted + n, sizeof(r->hosted) - n, ", ...");
}

/* Signatures and records of entry i > 0; *ends for a game-ending one. */
static int
check_entry(const struct audit_log *log, const struct store_entry *e,
    struct genesis *gen, int *ends, struct audit_report *r)
{
	*ends = 0;
	switch (e->kind) {
	case STORE_ENTRY_HOSTED_MAIL:
	case STORE_ENTRY_HOSTED_WEB:
		/* Signed by the seat's key like any move. */
		audit_note_hosted(r, e);
		return check_move_signature(e, gen, log->server_pub, r);
	case STORE_ENTRY_MOVE:
	case STORE_ENTRY_AUTO:
	case STORE_ENTRY_BOT:
	case STORE_ENTRY_DELEGATED:
		return check_move_signature(e, gen, log->server_pub, r);
	case STORE_ENTRY_SKIP:
	case STORE_ENTRY_RESIGN:
	case STORE_ENTRY_REPLACE:
	case STORE_ENTRY_CALL_OFF:
	case STORE_ENTRY_DELEGATION:
	case STORE_ENTRY_REVOCATION:
		return check_record(e, gen, log->server_pub, ends, r);
	default:
		return fail(r, e->seq, "entry %lld has unknown kind %d",
		    (long long)e->seq, e->kind);
	}
}

/* A bot's move must be the one the bot chooses from the seed: re-run it
 * on the state before the entry, from the bot stream of its step. */
static int
check_bot_choice(const struct audit_log *log, const struct store_entry *e,
    const struct genesis *gen, const void *state, struct audit_report *r)
{
	char text[PROTO_MOVE_MAX + 1];
	struct rules_rng rng;

	rng_init_bot(&rng, log->seed, (uint64_t)e->seq);
	if (rules_bot_move(gen->module, state, e->seat,
	    gen->bot_level[e->seat], &rng, text, sizeof(text)) != RULES_OK)
		return fail(r, e->seq, "entry %lld: the bot has no move for "
		    "seat %d here, yet the log records one", (long long)e->seq,
		    e->seat);
	if (strcmp(text, e->text) != 0)
		return fail(r, e->seq, "entry %lld: the bot's move \"%s\" is "
		    "not the one the bot chooses from the seed (\"%s\")",
		    (long long)e->seq, e->text, text);
	return 0;
}

static int
walk(const struct audit_log *log, struct genesis *gen,
    struct audit_report *r, audit_step_cb step, void *arg)
{
	char err[RULES_ERRLEN];
	struct rules_rng rng;
	void *state = NULL;
	size_t i;
	int rc = -1, ends = 0, ended = 0;

	/* The signatures on every core (verifier.h); NULL: here. */
	gen->verifier = verifier_start(log->entries, log->nentries,
	    log->server_pub);

	for (i = 0; i < log->nentries; i++) {
		const struct store_entry *e = &log->entries[i];

		if (check_link(log, i, gen->verifier, r) != 0)
			goto out;
		if (ended) {
			fail(r, e->seq, "entry %lld follows the entry that "
			    "ended the game", (long long)e->seq);
			goto out;
		}
		if (i == 0) {
			if (read_genesis(log, gen, r) != 0 ||
			    check_row(log, gen, r) != 0 ||
			    check_cards(log, gen, r) != 0)
				goto out;
		} else if (check_entry(log, e, gen, &ends, r) != 0)
			goto out;
		ended = ends;
		if (log->have_seed) {
			if (i == 0) {
				rng_init(&rng, log->seed, 0);
				state = rules_setup_game(gen->module,
				    gen->cards, gen->ruleset_version,
				    gen->nseats, gen->options, &rng, err,
				    sizeof(err));
				if (state == NULL) {
					fail(r, 0, "genesis entry: setup "
					    "refused: %s", err);
					goto out;
				}
			} else if ((e->kind == STORE_ENTRY_BOT &&
			    check_bot_choice(log, e, gen, state, r) != 0))
				goto out;
			else if (replay_entry(gen->module, state, log->seed,
			    e, err, sizeof(err)) != 0) {
				fail(r, e->seq, "%s", err);
				goto out;
			}
			if (check_state(log, i, state, gen, r) != 0)
				goto out;
			if (step != NULL)
				step(e, gen->module, state, arg);
		}
		r->checked = i + 1;
	}
	r->replayed = log->have_seed;
	rc = 0;
out:
	verifier_stop(gen->verifier);
	gen->verifier = NULL;
	if (state != NULL)
		gen->module->destroy(state);
	return rc;
}

int
audit_run(const struct audit_log *log, struct audit_report *r,
    audit_step_cb step, void *arg)
{
	struct genesis gen;
	unsigned char commit[STORE_HASH_BYTES];
	int rc;

	memset(r, 0, sizeof(*r));
	memset(&gen, 0, sizeof(gen));
	r->ok = 1;
	r->bad_seq = -1;
	if (log->nentries == 0)
		return fail(r, 0, "game %lld has no log entries",
		    (long long)log->game_id);
	rc = walk(log, &gen, r, step, arg);
	if (rc == 0 && log->have_seed) {
		rng_seed_commit(log->seed, commit);
		if (memcmp(commit, gen.commitment, STORE_HASH_BYTES) != 0)
			rc = fail(r, 0, "the seed does not match the "
			    "commitment published at creation");
	}
	json_decref(gen.options);
	if (gen.cards != NULL)
		gen.module->cards_free(gen.cards);	/* after the state */
	return rc;
}

/* ---- Loading from the store ------------------------------------------ */

struct collect {
	struct audit_log	*log;
	size_t			 cap;
	int			 failed;
};

static int
collect_entry(const struct store_entry *e, void *arg)
{
	struct collect *c = arg;
	struct audit_log *log = c->log;
	struct store_entry *copy;

	if (log->nentries == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct store_entry *grown = realloc(log->entries,
		    cap * sizeof(*grown));
		if (grown == NULL) {
			c->failed = 1;
			return 1;
		}
		log->entries = grown;
		c->cap = cap;
	}
	copy = &log->entries[log->nentries];
	*copy = *e;
	if ((copy->text = strdup(e->text ? e->text : "")) == NULL) {
		c->failed = 1;
		return 1;
	}
	log->nentries++;
	return 0;
}

/* A snapshot read with the others: kept at its entry's place. */
static int
collect_snapshot(int64_t seq, char *state, void *arg)
{
	struct audit_log *log = arg;

	if (seq >= 0 && (size_t)seq < log->nentries &&
	    log->snapshots[seq] == NULL)
		log->snapshots[seq] = state;
	else
		free(state);
	return 0;
}

int
audit_load_store(struct store *st, int64_t game_id, struct audit_log *log,
    struct store_game *row, char *err, size_t errlen)
{
	struct collect c;
	char *pub = NULL, perr[256];

	memset(log, 0, sizeof(*log));
	memset(&c, 0, sizeof(c));
	log->game_id = game_id;
	if (store_game_get(st, game_id, row) != STORE_OK) {
		snprintf(err, errlen, "there is no game %lld",
		    (long long)game_id);
		return -1;
	}
	log->row = row;
	memcpy(log->seed, row->seed, STORE_SEED_BYTES);
	log->have_seed = 1;
	if (store_meta_get(st, "server_key", &pub) != STORE_OK ||
	    proto_pubkey_parse(pub, log->server_pub, perr, sizeof(perr)) !=
	    PROTO_OK) {
		snprintf(err, errlen, "the database has no valid server_key");
		free(pub);
		return -1;
	}
	free(pub);
	if (row->cards_hash[0] != '\0') {
		char game[STORE_RULESET_MAX];

		if (store_card_file_get(st, row->cards_hash, game, &log->cards,
		    &log->cards_len) != STORE_OK) {
			snprintf(err, errlen, "game %lld: its card file %s: %s",
			    (long long)game_id, row->cards_hash,
			    store_errmsg(st));
			return -1;
		}
	}
	c.log = log;
	if (store_log_foreach(st, game_id, collect_entry, &c) != STORE_OK ||
	    c.failed) {
		snprintf(err, errlen, "reading the log of game %lld: %s",
		    (long long)game_id, store_errmsg(st));
		audit_log_clear(log);
		return -1;
	}
	log->snapshots = calloc(log->nentries + 1, sizeof(char *));
	if (log->snapshots == NULL) {
		snprintf(err, errlen, "out of memory");
		audit_log_clear(log);
		return -1;
	}
	if (store_snapshot_foreach(st, game_id, collect_snapshot, log) !=
	    STORE_OK) {
		snprintf(err, errlen, "reading the snapshots of game %lld: %s",
		    (long long)game_id, store_errmsg(st));
		audit_log_clear(log);
		return -1;
	}
	return 0;
}

void
audit_log_clear(struct audit_log *log)
{
	size_t i;

	for (i = 0; i < log->nentries; i++) {
		free(log->entries[i].text);
		if (log->snapshots != NULL)
			free(log->snapshots[i]);
	}
	free(log->entries);
	free(log->snapshots);
	free(log->cards);
	sodium_memzero(log->seed, sizeof(log->seed));
	memset(log, 0, sizeof(*log));
}
