/*
 * fuzz_body.c -- libFuzzer harness for the JSON bodies of the HTTP API
 * (daemon/http/api_body.c): player registration, game creation, joining
 * and webhook registration.
 *
 * The first byte of an input chooses the reader, the rest is the body as
 * a client sends it.  Built by `make fuzz`, never by `make check`;
 * tests/fuzz-run.sh runs it for a bounded time.  Besides "does not crash,
 * does not read out of bounds, does not leak", it checks what each
 * reader promises (api_body.h) for every input:
 *
 *   - it takes the body or refuses it with a sentence, never both;
 *   - a player taken has a valid name, lang "en" or "fr", an address
 *     with one '@' or none, and a key that formats back to one that
 *     parses to the same bytes;
 *   - a game taken has 1 to STORE_MAX_SEATS seats, as many "players"
 *     items when it names them, and options that read back as an object;
 *   - a join taken names no seat below -1;
 *   - a webhook taken has a URL and its events fit, NUL-terminated.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api_body.h"
#include "reqsig.h"
#include "store.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
player(const char *body, size_t len)
{
	struct api_body_player p;
	unsigned char again[PROTO_PUBKEY_BYTES];
	char err[512] = "", text[128];

	if (api_body_player(body, len, &p, err, sizeof(err)) != 0) {
		if (err[0] == '\0' || p.root != NULL)
			abort();
		return;
	}
	if (!reqsig_valid_player(p.name) || (strcmp(p.lang, "en") != 0 &&
	    strcmp(p.lang, "fr") != 0) || (p.email[0] != '\0' &&
	    (strchr(p.email, '@') == NULL || strlen(p.email) >=
	    STORE_EMAIL_MAX)))
		abort();
	proto_pubkey_format(p.pubkey, text, sizeof(text));
	if (proto_pubkey_parse(text, again, err, sizeof(err)) != PROTO_OK ||
	    memcmp(again, p.pubkey, sizeof(again)) != 0)
		abort();
	api_body_free(&p.root, NULL);
}

static void
game(const char *body, size_t len)
{
	struct api_body_game g;
	char err[512] = "";
	json_t *o;

	if (api_body_game(body, len, &g, err, sizeof(err)) != 0) {
		if (err[0] == '\0' || g.root != NULL || g.options != NULL)
			abort();
		return;
	}
	if (g.ruleset == NULL || g.nseats < 1 || g.nseats > STORE_MAX_SEATS ||
	    (g.players != NULL && json_array_size(g.players) !=
	    (size_t)g.nseats))
		abort();
	if (g.options != NULL) {
		if ((o = json_loads(g.options, 0, NULL)) == NULL ||
		    !json_is_object(o))
			abort();
		json_decref(o);
	}
	api_body_free(&g.root, &g.options);
}

static void
join(const char *body, size_t len)
{
	char err[512] = "";
	int seat;

	if (api_body_join(body, len, &seat, err, sizeof(err)) != 0) {
		if (err[0] == '\0')
			abort();
		return;
	}
	if (seat < -1 || (len == 0 && seat != -1))
		abort();
}

static void
webhook(const char *body, size_t len)
{
	struct api_body_webhook w;
	char err[512] = "", events[256];

	memset(events, 'x', sizeof(events));
	if (api_body_webhook(body, len, &w, events, sizeof(events), err,
	    sizeof(err)) != 0) {
		if (err[0] == '\0' || w.root != NULL)
			abort();
		return;
	}
	if (w.url == NULL || memchr(events, '\0', sizeof(events)) == NULL)
		abort();
	api_body_free(&w.root, NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *body = (const char *)data + 1;

	if (size == 0)
		return 0;
	switch (data[0] % 4) {
	case 0: player(body, size - 1); break;
	case 1: game(body, size - 1); break;
	case 2: join(body, size - 1); break;
	default: webhook(body, size - 1); break;
	}
	return 0;
}
