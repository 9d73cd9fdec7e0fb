/*
 * api_body.h -- the JSON bodies the HTTP API takes, read and checked
 * apart from the store, the network and libmicrohttpd, so that one
 * libFuzzer harness (tests/fuzz_body.c) reaches every one of them.
 *
 * Each reader takes the body's bytes as sent (any bytes: not necessarily
 * JSON, UTF-8 or NUL-free) and either fills its result and returns 0, or
 * returns -1 with a sentence for the client in err (the handler answers
 * it as 400 bad_request) and leaves nothing to free.  What is checked
 * here is the body's shape and every value that can be judged without
 * the store; whether a named player exists, a ruleset takes the options
 * or a URL's host is public is the handler's (and the engine's) to say.
 *
 * The strings a result points to belong to its root; api_body_free()
 * releases them.
 */
#ifndef PBEM_API_BODY_H
#define PBEM_API_BODY_H

#include <stddef.h>

#include <jansson.h>

#include "protocol.h"

/* POST /v1/players: {"name", "key", "email"?, "lang"?}.  name is a valid
 * player name, email "" or a plausible address, lang "en" or "fr", and
 * pubkey the key parsed. */
struct api_body_player {
	json_t		*root;
	const char	*name;
	const char	*email;
	const char	*lang;
	const char	*key;			/* as sent */
	unsigned char	 pubkey[PROTO_PUBKEY_BYTES];
};

int	api_body_player(const char *body, size_t len,
	    struct api_body_player *out, char *err, size_t errlen);

/* POST /v1/games: {"ruleset", "seats"?, "players"?, "options"?}.
 * nseats is 1 to STORE_MAX_SEATS; players is NULL (seat 0 for the
 * creator, the others open) or an array of nseats items, each to be a
 * name or null (the handler looks the names up); options is NULL or the
 * options object as compact JSON with sorted keys (malloc'd, freed by
 * api_body_free). */
struct api_body_game {
	json_t		*root;
	const char	*ruleset;
	int		 nseats;
	json_t		*players;
	char		*options;
};

int	api_body_game(const char *body, size_t len, struct api_body_game *out,
	    char *err, size_t errlen);

/* POST /v1/games/{id}/join: empty (seat -1: the first open one) or
 * {"seat": N} with N >= 0. */
int	api_body_join(const char *body, size_t len, int *seat, char *err,
	    size_t errlen);

/* POST .../webhooks: {"url", "events"?}.  events is a string or a list
 * of strings, written into events as one comma-separated string ("":
 * every event) that fits eventslen; the names are the engine's to
 * check. */
struct api_body_webhook {
	json_t		*root;
	const char	*url;
	const char	*format;	/* NULL: "pbem" */
	const char	*lang;		/* NULL: "en" */
};

int	api_body_webhook(const char *body, size_t len,
	    struct api_body_webhook *out, char *events, size_t eventslen,
	    char *err, size_t errlen);

/* Release what a reader's result holds (root, options); safe on a
 * result a reader refused, and twice. */
void	api_body_free(json_t **root, char **options);

#endif
