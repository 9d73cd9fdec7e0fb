/*
 * bundle.c -- exporting a game's log, and reading it back (bundle.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "bundle.h"
#include "cardsets.h"
#include "protocol.h"

static json_t *
hex_string(const unsigned char *bytes, size_t n)
{
	char hex[2 * 64 + 1];

	proto_hex(bytes, n, hex);
	return json_string(hex);
}

static json_t *
entry_json(const struct store_entry *e)
{
	json_t *j;

	j = json_pack("{s:I, s:i, s:i, s:I, s:s, s:o, s:o, s:o, s:o, s:o}",
	    "seq", (json_int_t)e->seq, "kind", e->kind, "seat", e->seat,
	    "time", (json_int_t)e->time, "text", e->text ? e->text : "",
	    "signature", hex_string(e->signature, STORE_SIG_BYTES),
	    "state_hash", hex_string(e->state_hash, STORE_HASH_BYTES),
	    "prev_hash", hex_string(e->prev_hash, STORE_HASH_BYTES),
	    "hash", hex_string(e->hash, STORE_HASH_BYTES),
	    "receipt", hex_string(e->receipt, STORE_SIG_BYTES));
	/* Informative only (the kind, which the hash covers, decides). */
	if (j != NULL && audit_hosted_auth(e->kind) != NULL)
		json_object_set_new(j, "hosted", json_string(
		    audit_hosted_auth(e->kind)));
	return j;
}

/* A card game's card file, as the bundle carries it. */
static json_t *
cards_json(const struct store_game *row, const struct audit_log *log)
{
	char hash[STORE_CARDS_HASH_HEX + 1], *b64;
	size_t b64len;
	json_t *j;

	b64len = sodium_base64_ENCODED_LEN(log->cards_len,
	    sodium_base64_VARIANT_ORIGINAL);
	if ((b64 = malloc(b64len)) == NULL)
		return NULL;
	sodium_bin2base64(b64, b64len, (const unsigned char *)log->cards,
	    log->cards_len, sodium_base64_VARIANT_ORIGINAL);
	cardsets_hash(log->cards, log->cards_len, hash);
	j = json_pack("{s:s, s:s, s:I, s:s}", "game", row->ruleset,
	    "sha256", hash, "size", (json_int_t)log->cards_len,
	    "base64", b64);
	free(b64);
	return j;
}

/* Read the bundle's card file into log; 0 also when it has none. */
static int
read_cards(const json_t *bundle, struct audit_log *log, char *err,
    size_t errlen)
{
	const json_t *cards = json_object_get(bundle, "cards");
	const char *b64 = NULL, *end;
	json_int_t size = 0;
	size_t len;

	if (cards == NULL)
		return 0;
	if (json_unpack((json_t *)cards, "{s:I, s:s}", "size", &size,
	    "base64", &b64) != 0 || size < 1 || size > STORE_CARDS_MAX) {
		snprintf(err, errlen, "cards: a card file is {\"size\": 1 to "
		    "%d, \"base64\": its bytes}", STORE_CARDS_MAX);
		return -1;
	}
	if ((log->cards = malloc((size_t)size + 1)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (sodium_base642bin((unsigned char *)log->cards, (size_t)size,
	    b64, strlen(b64), NULL, &len, &end,
	    sodium_base64_VARIANT_ORIGINAL) != 0 || *end != '\0' ||
	    len != (size_t)size) {
		snprintf(err, errlen, "cards: base64 is not %lld bytes in "
		    "base64", (long long)size);
		return -1;
	}
	log->cards[len] = '\0';
	log->cards_len = len;
	return 0;
}

json_t *
bundle_export(struct store *st, int64_t game_id, char *err, size_t errlen)
{
	struct store_game row;
	struct audit_log log;
	json_t *bundle, *entries;
	char key[128];
	size_t i;

	if (audit_load_store(st, game_id, &log, &row, err, errlen) != 0)
		return NULL;
	entries = json_array();
	for (i = 0; i < log.nentries; i++)
		json_array_append_new(entries, entry_json(&log.entries[i]));
	proto_pubkey_format(log.server_pub, key, sizeof(key));
	bundle = json_pack("{s:s, s:s, s:I, s:o}", "format", "pbem-bundle-v1",
	    "server_key", key, "game", (json_int_t)game_id,
	    "entries", entries);
	if (row.status == STORE_GAME_OVER)
		json_object_set_new(bundle, "seed",
		    hex_string(row.seed, STORE_SEED_BYTES));
	if (log.cards != NULL)
		json_object_set_new(bundle, "cards", cards_json(&row, &log));
	audit_log_clear(&log);
	store_game_clear(&row);
	return bundle;
}

static int
get_hex(const json_t *obj, const char *name, unsigned char *out, size_t n)
{
	const char *text = json_string_value(json_object_get(obj, name));

	return text != NULL && strlen(text) == 2 * n &&
	    proto_unhex(text, out, n) == 0 ? 0 : -1;
}

static int
read_entry(const json_t *j, int64_t game_id, struct store_entry *e)
{
	json_int_t seq, time;
	const char *text;
	int kind, seat;

	if (json_unpack((json_t *)j, "{s:I, s:i, s:i, s:I, s:s}", "seq", &seq,
	    "kind", &kind, "seat", &seat, "time", &time, "text", &text) != 0)
		return -1;
	memset(e, 0, sizeof(*e));
	e->game_id = game_id;
	e->seq = seq;
	e->kind = kind;
	e->seat = seat;
	e->time = time;
	if (get_hex(j, "signature", e->signature, STORE_SIG_BYTES) != 0 ||
	    get_hex(j, "state_hash", e->state_hash, STORE_HASH_BYTES) != 0 ||
	    get_hex(j, "prev_hash", e->prev_hash, STORE_HASH_BYTES) != 0 ||
	    get_hex(j, "hash", e->hash, STORE_HASH_BYTES) != 0 ||
	    get_hex(j, "receipt", e->receipt, STORE_SIG_BYTES) != 0)
		return -1;
	return (e->text = strdup(text)) == NULL ? -1 : 0;
}

int
bundle_read(const json_t *bundle, struct audit_log *log, char *err,
    size_t errlen)
{
	const char *format = NULL, *key = NULL;
	json_t *entries, *seed;
	json_int_t game;
	char perr[256];
	size_t i;

	memset(log, 0, sizeof(*log));
	if (json_unpack((json_t *)bundle, "{s:s, s:s, s:I, s:o}", "format",
	    &format, "server_key", &key, "game", &game, "entries",
	    &entries) != 0 || strcmp(format, "pbem-bundle-v1") != 0 ||
	    !json_is_array(entries)) {
		snprintf(err, errlen, "not a pbem-bundle-v1 file (it needs "
		    "format, server_key, game and entries)");
		return -1;
	}
	if (proto_pubkey_parse(key, log->server_pub, perr, sizeof(perr)) !=
	    PROTO_OK) {
		snprintf(err, errlen, "server_key: %s", perr);
		return -1;
	}
	log->game_id = game;
	if ((seed = json_object_get(bundle, "seed")) != NULL) {
		if (get_hex(bundle, "seed", log->seed, STORE_SEED_BYTES) != 0) {
			snprintf(err, errlen, "seed is not 64 hex digits");
			return -1;
		}
		log->have_seed = 1;
	}
	if (read_cards(bundle, log, err, errlen) != 0) {
		audit_log_clear(log);
		return -1;
	}
	log->entries = calloc(json_array_size(entries) + 1,
	    sizeof(*log->entries));
	if (log->entries == NULL) {
		snprintf(err, errlen, "out of memory");
		audit_log_clear(log);
		return -1;
	}
	for (i = 0; i < json_array_size(entries); i++) {
		if (read_entry(json_array_get(entries, i), game,
		    &log->entries[i]) != 0) {
			snprintf(err, errlen, "entry %zu of the bundle is not "
			    "well formed", i);
			audit_log_clear(log);
			return -1;
		}
		log->nentries++;
	}
	return 0;
}
