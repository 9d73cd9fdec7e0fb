/*
 * api_body.c -- the JSON bodies of the HTTP API, read and checked (see
 * api_body.h).  Duplicate keys are refused (JSON_REJECT_DUPLICATES): a
 * body means one thing, whichever parser reads it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_body.h"
#include "reqsig.h"
#include "store.h"
#include "webhook.h"

void
api_body_free(json_t **root, char **options)
{
	json_decref(*root);
	*root = NULL;
	if (options != NULL) {
		free(*options);
		*options = NULL;
	}
}

/* A plausible address: one '@' with text on both sides, no blanks or
 * control bytes, short enough for the store. */
static int
valid_email(const char *email)
{
	const char *at = strchr(email, '@');
	size_t n;

	for (n = 0; email[n] != '\0'; n++)
		if ((unsigned char)email[n] <= 0x20 || email[n] == 0x7f)
			return 0;
	return at != NULL && at != email && at[1] != '\0' &&
	    strchr(at + 1, '@') == NULL && n < STORE_EMAIL_MAX;
}

/* A refusal whose reason is in err already: nothing kept. */
static int
drop(json_t **root)
{
	json_decref(*root);
	*root = NULL;
	return -1;
}

/* Refuse with msg: nothing kept. */
static int
refuse(json_t **root, char *err, size_t errlen, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
	return drop(root);
}

int
api_body_player(const char *body, size_t len, struct api_body_player *out,
    char *err, size_t errlen)
{
	json_error_t jerr;
	char msg[512];

	memset(out, 0, sizeof(*out));
	out->email = "";
	out->lang = "en";
	out->root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	if (out->root == NULL || json_unpack_ex(out->root, &jerr, 0, "{s:s, "
	    "s?s, s?s, s:s !}", "name", &out->name, "email", &out->email,
	    "lang", &out->lang, "key", &out->key) != 0) {
		snprintf(msg, sizeof(msg), "the body must be a JSON object "
		    "{\"name\", \"key\", \"email\" (optional), \"lang\" "
		    "(optional: en or fr)}: %s", jerr.text);
		return refuse(&out->root, err, errlen, msg);
	}
	if (!reqsig_valid_player(out->name))
		return refuse(&out->root, err, errlen, "a player name is 1-63 "
		    "letters, digits, '.', '-' or '_'");
	if (*out->email != '\0' && !valid_email(out->email))
		return refuse(&out->root, err, errlen, "email is not an "
		    "address such as alice@example.org");
	if (strcmp(out->lang, "en") != 0 && strcmp(out->lang, "fr") != 0)
		return refuse(&out->root, err, errlen, "lang must be \"en\" or "
		    "\"fr\"");
	if (proto_pubkey_parse(out->key, out->pubkey, msg, sizeof(msg)) !=
	    PROTO_OK)
		return refuse(&out->root, err, errlen, msg);
	return 0;
}

int
api_body_game(const char *body, size_t len, struct api_body_game *out,
    char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *options = NULL, *names = NULL;
	char msg[512];
	int nseats = -1;

	memset(out, 0, sizeof(*out));
	out->root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	if (out->root == NULL || json_unpack_ex(out->root, &jerr, 0, "{s:s, "
	    "s?o, s?i, s?o !}", "ruleset", &out->ruleset, "options", &options,
	    "seats", &nseats, "players", &names) != 0) {
		snprintf(msg, sizeof(msg), "the body must be a JSON object "
		    "{\"ruleset\", \"seats\" or \"players\", \"options\" "
		    "(optional)}: %s", jerr.text);
		return refuse(&out->root, err, errlen, msg);
	}
	if (names != NULL && (!json_is_array(names) ||
	    json_array_size(names) < 1 ||
	    json_array_size(names) > STORE_MAX_SEATS ||
	    (nseats >= 0 && (size_t)nseats != json_array_size(names)))) {
		snprintf(msg, sizeof(msg), "players must be an array of 1 to "
		    "%d player names or nulls (open seats), one per seat%s",
		    STORE_MAX_SEATS, nseats >= 0 ? ", as many as seats" : "");
		return refuse(&out->root, err, errlen, msg);
	}
	if (names == NULL && (nseats < 1 || nseats > STORE_MAX_SEATS)) {
		snprintf(msg, sizeof(msg), "give \"seats\" (1 to %d; you take "
		    "seat 0, the others are open) or \"players\" (names or "
		    "nulls, one per seat)", STORE_MAX_SEATS);
		return refuse(&out->root, err, errlen, msg);
	}
	if (options != NULL && !json_is_object(options))
		return refuse(&out->root, err, errlen, "options must be a JSON "
		    "object");
	if (options != NULL && (out->options = json_dumps(options,
	    JSON_COMPACT | JSON_SORT_KEYS)) == NULL)
		return refuse(&out->root, err, errlen, "out of memory");
	out->players = names;
	out->nseats = names != NULL ? (int)json_array_size(names) : nseats;
	return 0;
}

int
api_body_join(const char *body, size_t len, int *seat, char *err,
    size_t errlen)
{
	json_error_t jerr;
	json_t *root;

	*seat = -1;
	if (len == 0)
		return 0;
	if ((root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr)) ==
	    NULL || json_unpack_ex(root, &jerr, 0, "{s?i !}", "seat", seat) !=
	    0 || *seat < -1) {
		snprintf(err, errlen, "the body is empty (take the first open "
		    "seat) or {\"seat\": N}: %s", root != NULL && *seat < -1 ?
		    "a seat is 0 or more" : jerr.text);
		json_decref(root);
		*seat = -1;
		return -1;
	}
	json_decref(root);
	return 0;
}

/* The "events" of a registration into events, comma-separated. */
static int
webhook_events(const json_t *ev, char *events, size_t eventslen, char *err,
    size_t errlen)
{
	const json_t *item;
	size_t i, used = 0, n;

	events[0] = '\0';
	if (ev == NULL || json_is_null(ev))
		return 0;
	if (json_is_string(ev)) {
		if (json_string_length(ev) >= eventslen) {
			snprintf(err, errlen, "\"events\" is too long");
			return -1;
		}
		snprintf(events, eventslen, "%s", json_string_value(ev));
		return 0;
	}
	if (!json_is_array(ev)) {
		snprintf(err, errlen, "\"events\" must be a list of event "
		    "names (%s)", WEBHOOK_EVENTS);
		return -1;
	}
	json_array_foreach(ev, i, item) {
		if (!json_is_string(item)) {
			snprintf(err, errlen, "\"events\" must be a list of "
			    "event names (%s)", WEBHOOK_EVENTS);
			return -1;
		}
		n = strlen(json_string_value(item));
		if (used + n + 2 > eventslen) {
			snprintf(err, errlen, "\"events\" is too long");
			return -1;
		}
		if (used > 0)
			events[used++] = ',';
		memcpy(events + used, json_string_value(item), n + 1);
		used += n;
	}
	return 0;
}

int
api_body_webhook(const char *body, size_t len, struct api_body_webhook *out,
    char *events, size_t eventslen, char *err, size_t errlen)
{
	json_error_t jerr;
	const char *key;
	json_t *value;

	memset(out, 0, sizeof(*out));
	events[0] = '\0';
	out->root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	if (out->root == NULL || !json_is_object(out->root)) {
		snprintf(err, errlen, "the body must be a JSON object such as "
		    "{\"url\": \"https://...\", \"events\": [\"move\"]}%s%s",
		    out->root == NULL ? ": " : "", out->root == NULL ?
		    jerr.text : "");
		return drop(&out->root);
	}
	json_object_foreach(out->root, key, value) {
		if (strcmp(key, "url") != 0 && strcmp(key, "events") != 0 &&
		    strcmp(key, "format") != 0 && strcmp(key, "lang") != 0) {
			snprintf(err, errlen, "unknown field \"%.40s\"; a "
			    "registration has \"url\", \"events\", "
			    "\"format\" and \"lang\"", key);
			return drop(&out->root);
		}
	}
	if ((out->url = json_string_value(json_object_get(out->root,
	    "url"))) == NULL) {
		return refuse(&out->root, err, errlen, "\"url\" (a string) is "
		    "missing");
	}
	out->format = json_string_value(json_object_get(out->root, "format"));
	out->lang = json_string_value(json_object_get(out->root, "lang"));
	if ((json_object_get(out->root, "format") != NULL &&
	    out->format == NULL) ||
	    (json_object_get(out->root, "lang") != NULL && out->lang == NULL))
		return refuse(&out->root, err, errlen, "\"format\" and "
		    "\"lang\" are strings / \"format\" et \"lang\" sont "
		    "des chaînes");
	if (webhook_events(json_object_get(out->root, "events"), events,
	    eventslen, err, errlen) != 0) {
		events[0] = '\0';
		return drop(&out->root);
	}
	return 0;
}
