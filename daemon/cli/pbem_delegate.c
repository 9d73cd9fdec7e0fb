/*
 * pbem_delegate.c -- `pbem delegate`: sign a delegation certificate that
 * lets a bot key act for the player (docs/PROTOCOL.md section 13,
 * docs/BOTS.md "Delegation") and send it to pbemd; list the player's
 * certificates in force; revoke one.  Each is a signed request made with
 * the player's own key (pbem_send()); -m prints, instead, the certificate
 * or revocation for a mail to the server.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "cli.h"
#include "clock.h"
#include "delegation.h"
#include "pbem.h"
#include "reqsig.h"

/* The bot's key: "ed25519:..." itself, or a file (BOT.key.pub) with it. */
static void
read_bot_key(const char *arg, unsigned char bot[PROTO_PUBKEY_BYTES])
{
	char err[512], *text;
	size_t len;

	if (proto_pubkey_parse(arg, bot, err, sizeof(err)) == PROTO_OK)
		return;
	if ((text = cli_read_file(arg, 4096, &len, err, sizeof(err))) == NULL)
		cli_fatal("-b %s: neither a public key (ed25519:...) nor a "
		    "readable file: %s", arg, err);
	text[strcspn(text, "\r\n")] = '\0';
	if (proto_pubkey_parse(text, bot, err, sizeof(err)) != PROTO_OK)
		cli_fatal("%s: %s", arg, err);
	free(text);
}

/* -e: "YYYY-MM-DD" (valid through that day, UTC) or an ISO 8601 time. */
static int64_t
read_expiry(const char *arg)
{
	int64_t t = clock_parse_date(arg);

	if (t >= 0)
		return t + 86400;
	if ((t = clock_parse_iso(arg)) >= 0)
		return t;
	cli_fatal("-e %s: give the last day as YYYY-MM-DD or a time as "
	    "YYYY-MM-DDTHH:MM:SSZ (UTC)", arg);
}

/* The options every form takes; 1 if the option was one of them. */
static int
common_option(int ch, struct pbem_request *rq)
{
	switch (ch) {
	case 'k': rq->keyfile = optarg; return 1;
	case 'p': rq->player = optarg; return 1;
	case 'u': rq->base = optarg; return 1;
	default: return 0;
	}
}

static void
request_defaults(struct pbem_request *rq)
{
	memset(rq, 0, sizeof(*rq));
	rq->keyfile = pbem_default_keyfile();
	rq->player = getenv("PBEM_PLAYER");
	rq->base = getenv("PBEM_URL");
	rq->version = REQSIG_V2_SHA256;
	rq->content_type = "Content-Type: application/json";
}

static int
delegate_list(int argc, char **argv)
{
	struct pbem_request rq;
	int ch;

	request_defaults(&rq);
	while ((ch = getopt(argc, argv, "+k:p:u:")) != -1)
		if (!common_option(ch, &rq))
			pbem_usage();
	if (rq.player == NULL || optind != argc)
		pbem_usage();
	rq.method = "GET";
	rq.target = "/v1/delegations";
	return pbem_send(&rq);
}

/* -m: the revocation signed with the player's key, between the lines a
 * mail to the server is read by (docs/MAIL.md "Delegation"). */
static int
print_revocation(const struct pbem_request *rq, const char *id)
{
	unsigned char sk[PROTO_SECKEY_BYTES];
	struct delegation_revocation rv;
	json_t *json;
	char *text;

	memset(&rv, 0, sizeof(rv));
	snprintf(rv.player, sizeof(rv.player), "%s", rq->player);
	snprintf(rv.id, sizeof(rv.id), "%s", id);
	pbem_load_secret(rq->keyfile, sk);
	if (delegation_revocation_sign(&rv, sk) != 0)
		cli_fatal("cannot sign this revocation: the player name must "
		    "be 1-63 letters, digits, '.', '-' or '_'");
	sodium_memzero(sk, sizeof(sk));
	json = delegation_revocation_to_json(&rv);
	text = json_dumps(json, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(json);
	if (text == NULL)
		cli_fatal("out of memory");
	printf("-----BEGIN PBEM REVOCATION-----\n%s\n"
	    "-----END PBEM REVOCATION-----\n", text);
	free(text);
	return 0;
}

static int
delegate_revoke(int argc, char **argv)
{
	struct pbem_request rq;
	char body[64];
	int ch, for_mail = 0;

	request_defaults(&rq);
	while ((ch = getopt(argc, argv, "+k:p:u:m")) != -1) {
		if (ch == 'm')
			for_mail = 1;
		else if (!common_option(ch, &rq))
			pbem_usage();
	}
	if (rq.player == NULL || optind + 1 != argc)
		pbem_usage();
	if (!delegation_id_valid(argv[optind]))
		cli_fatal("%s is not a certificate id (16 lower-case "
		    "hexadecimal digits; pbem delegate list shows them)",
		    argv[optind]);
	if (for_mail)
		return print_revocation(&rq, argv[optind]);
	snprintf(body, sizeof(body), "{\"id\": \"%s\"}", argv[optind]);
	rq.method = "POST";
	rq.target = "/v1/delegations/revoke";
	rq.body = body;
	rq.body_len = strlen(body);
	return pbem_send(&rq);
}

int
pbem_delegate(int argc, char **argv)
{
	unsigned char sk[PROTO_SECKEY_BYTES];
	struct pbem_request rq;
	struct delegation d;
	json_t *cert;
	char *body;
	int ch, have_bot = 0, print_only = 0, for_mail = 0, rc;

	if (argc > 1 && strcmp(argv[1], "list") == 0)
		return delegate_list(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "revoke") == 0)
		return delegate_revoke(argc - 1, argv + 1);
	request_defaults(&rq);
	memset(&d, 0, sizeof(d));
	d.scope = DELEGATION_MOVES;
	d.game = DELEGATION_ALL_GAMES;
	while ((ch = getopt(argc, argv, "+k:p:u:b:e:g:Vnm")) != -1) {
		if (common_option(ch, &rq))
			continue;
		switch (ch) {
		case 'b': read_bot_key(optarg, d.bot); have_bot = 1; break;
		case 'e': d.expires = read_expiry(optarg); break;
		case 'g': d.game = cli_number(optarg, 1, INT64_MAX, "-g game");
			break;
		case 'V': d.scope = DELEGATION_VIEWS; break;
		case 'n': print_only = 1; break;
		case 'm': print_only = for_mail = 1; break;
		default: pbem_usage();
		}
	}
	if (rq.player == NULL || !have_bot || d.expires == 0 || optind != argc)
		pbem_usage();
	snprintf(d.player, sizeof(d.player), "%s", rq.player);
	d.issued = (int64_t)time(NULL);
	if (d.expires <= d.issued)
		cli_fatal("-e: the certificate would expire before now");
	pbem_load_secret(rq.keyfile, sk);
	if (delegation_sign(&d, sk) != 0)
		cli_fatal("cannot sign this certificate: the player name must "
		    "be 1-63 letters, digits, '.', '-' or '_'");
	sodium_memzero(sk, sizeof(sk));
	cert = delegation_to_json(&d);
	body = json_dumps(cert, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(cert);
	if (body == NULL)
		cli_fatal("out of memory");
	if (print_only) {
		/* -m: between the lines a mail to the server is read by
		 * (docs/MAIL.md "Delegation"). */
		printf(for_mail ? "-----BEGIN PBEM DELEGATION-----\n%s\n"
		    "-----END PBEM DELEGATION-----\n" : "%s\n", body);
		free(body);
		return 0;
	}
	rq.method = "POST";
	rq.target = "/v1/delegations";
	rq.body = body;
	rq.body_len = strlen(body);
	rc = pbem_send(&rq);
	free(body);
	return rc;
}
