/*
 * pbem.c -- the player's command line: make a key pair, sign a move into
 * the armoured block to paste into a mail or POST over HTTP, verify a
 * game bundle offline, and sign an HTTP request to pbemd (`pbem request`:
 * print the Authorization header for curl, or send the request itself
 * with libcurl), and delegate to a bot key (pbem_delegate.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <sodium.h>

#include "audit.h"
#include "bundle.h"
#include "cli.h"
#include "pbem.h"
#include "protocol.h"
#include "reqsig.h"

static void
print_usage(FILE *out)
{
	fprintf(out,
"usage: pbem keygen [-o KEYFILE]      make a key pair (KEYFILE, KEYFILE.pub)\n"
"       pbem pubkey [-k KEYFILE]      print the public key to register\n"
"       pbem sign [-k KEYFILE] -g GAME -n SEQ -s SEAT MOVE...\n"
"                                     print the signed block for MOVE\n"
"       pbem verify BUNDLE            check an exported game offline\n"
"       pbem request [-k KEYFILE] -p PLAYER [-u URL] [-H] [-2] METHOD PATH [BODY-FILE]\n"
"                                     sign an HTTP request to pbemd and send it\n"
"                                     (-H: only print the Authorization header;\n"
"                                     -2: version 2, the SHA-256 body hash)\n"
"       pbem delegate [-k KEYFILE] -p PLAYER -b BOTKEY -e DATE [-g GAME] [-V]\n"
"                     [-u URL] [-n|-m]    let a bot key act for you (-n: print\n"
"                                     the signed certificate, do not send it;\n"
"                                     -m: print it to mail to the server)\n"
"       pbem delegate list|revoke [-k KEYFILE] -p PLAYER [-u URL] [ID]\n"
"       pbem delegate revoke -m [-k KEYFILE] -p PLAYER ID\n"
"                                     print the signed revocation to mail\n"
"KEYFILE defaults to $PBEM_KEY or ./pbem.key, PLAYER to $PBEM_PLAYER,\n"
"URL to $PBEM_URL or http://127.0.0.1:8080\n"
"       pbem --help | --version\n"
"Exit status: 0 done, 1 failed (a bad signature, a refused request),\n"
"64 usage error (pbem(1)).\n");
}

/* A usage error: the usage on stderr, exit EX_USAGE. */
void
pbem_usage(void)
{
	print_usage(stderr);
	exit(EX_USAGE);
}

const char *
pbem_default_keyfile(void)
{
	return getenv("PBEM_KEY") ? getenv("PBEM_KEY") : "pbem.key";
}

static void
write_file(const char *path, const char *text, mode_t mode)
{
	size_t len = strlen(text);
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
	if (fd == -1)
		cli_fatal("%s: %s%s", path, strerror(errno), errno == EEXIST ?
		    " (refusing to overwrite a key)" : "");
	if (write(fd, text, len) != (ssize_t)len || close(fd) != 0)
		cli_fatal("%s: write failed: %s", path, strerror(errno));
}

static int
cmd_keygen(int argc, char **argv)
{
	unsigned char pk[crypto_sign_PUBLICKEYBYTES];
	unsigned char sk[crypto_sign_SECRETKEYBYTES];
	char text[256], pubpath[4096];
	const char *path = pbem_default_keyfile();
	int ch;

	while ((ch = getopt(argc, argv, "o:")) != -1) {
		if (ch != 'o')
			pbem_usage();
		path = optarg;
	}
	if (optind != argc)
		pbem_usage();
	crypto_sign_keypair(pk, sk);
	proto_seckey_format(sk, text, sizeof(text) - 1);
	strcat(text, "\n");
	write_file(path, text, 0600);
	sodium_memzero(text, sizeof(text));
	sodium_memzero(sk, sizeof(sk));
	proto_pubkey_format(pk, text, sizeof(text) - 1);
	strcat(text, "\n");
	snprintf(pubpath, sizeof(pubpath), "%s.pub", path);
	write_file(pubpath, text, 0644);
	printf("secret key in %s (keep it), public key in %s:\n%s", path,
	    pubpath, text);
	return 0;
}

void
pbem_load_secret(const char *path, unsigned char sk[PROTO_SECKEY_BYTES])
{
	char err[512], *text;
	size_t len;

	if ((text = cli_read_file(path, 4096, &len, err, sizeof(err))) == NULL)
		cli_fatal("%s (make one with `pbem keygen`)", err);
	text[strcspn(text, "\r\n")] = '\0';
	if (proto_seckey_parse(text, sk, err, sizeof(err)) != PROTO_OK)
		cli_fatal("%s: %s", path, err);
	sodium_memzero(text, len);
	free(text);
}

static int
cmd_pubkey(int argc, char **argv)
{
	unsigned char sk[PROTO_SECKEY_BYTES], pk[PROTO_PUBKEY_BYTES];
	const char *path = pbem_default_keyfile();
	char text[128];
	int ch;

	while ((ch = getopt(argc, argv, "k:")) != -1) {
		if (ch != 'k')
			pbem_usage();
		path = optarg;
	}
	pbem_load_secret(path, sk);
	crypto_sign_ed25519_sk_to_pk(pk, sk);
	sodium_memzero(sk, sizeof(sk));
	proto_pubkey_format(pk, text, sizeof(text));
	printf("%s\n", text);
	return 0;
}

static int
cmd_sign(int argc, char **argv)
{
	unsigned char sk[PROTO_SECKEY_BYTES];
	const char *path = pbem_default_keyfile();
	struct proto_move m;
	char err[512], block[4096];
	int64_t game = -1, seq = -1, seat = -1;
	size_t used = 0;
	int ch, i;

	while ((ch = getopt(argc, argv, "+k:g:n:s:")) != -1) {
		switch (ch) {
		case 'k': path = optarg; break;
		case 'g': game = cli_number(optarg, 1, INT64_MAX, "-g game");
			break;
		case 'n': seq = cli_number(optarg, 1, INT64_MAX, "-n seq");
			break;
		case 's': seat = cli_number(optarg, 0, 7, "-s seat"); break;
		default: pbem_usage();
		}
	}
	if (game < 0 || seq < 0 || seat < 0 || optind == argc)
		pbem_usage();
	memset(&m, 0, sizeof(m));
	m.game_id = game;
	m.seq = seq;
	m.seat = (int)seat;
	for (i = optind; i < argc; i++) {
		size_t len = strlen(argv[i]);
		if (used + len + 2 > sizeof(m.text))
			cli_fatal("the move is longer than %d bytes",
			    PROTO_MOVE_MAX);
		if (used > 0)
			m.text[used++] = ' ';
		memcpy(m.text + used, argv[i], len);
		used += len;
	}
	m.text[used] = '\0';
	if (proto_clean_text(m.text, err, sizeof(err)) != PROTO_OK)
		cli_fatal("%s", err);
	pbem_load_secret(path, sk);
	proto_move_sign(&m, sk);
	sodium_memzero(sk, sizeof(sk));
	proto_move_armour(&m, block, sizeof(block));
	fputs(block, stdout);
	return 0;
}

static int
cmd_verify(int argc, char **argv)
{
	struct audit_report report;
	struct audit_log log;
	json_error_t jerr;
	json_t *bundle;
	char err[512];
	int rc;

	if (argc != 2)
		pbem_usage();
	cli_check_modules();
	bundle = json_load_file(argv[1], JSON_REJECT_DUPLICATES, &jerr);
	if (bundle == NULL)
		cli_fatal("%s: not JSON: %s (line %d)", argv[1], jerr.text,
		    jerr.line);
	if (bundle_read(bundle, &log, err, sizeof(err)) != 0)
		cli_fatal("%s: %s", argv[1], err);
	json_decref(bundle);
	rc = audit_run(&log, &report, NULL, NULL);
	if (rc != 0)
		printf("game %lld: FAILED at entry %lld: %s\n",
		    (long long)log.game_id, (long long)report.bad_seq,
		    report.reason);
	else if (report.replayed)
		printf("game %lld: ok, %zu entries; signatures, hashes, "
		    "receipts and a full replay from the revealed seed check "
		    "out\n", (long long)log.game_id, report.checked);
	else
		printf("game %lld: ok, %zu entries; signatures, hashes and "
		    "receipts check out (the seed is revealed when the game "
		    "ends; replay then)\n", (long long)log.game_id,
		    report.checked);
	if (rc == 0 && report.cards_hash[0] != '\0')
		printf("game %lld: played with the card file of sha256 %s, "
		    "which the genesis record names\n", (long long)log.game_id,
		    report.cards_hash);
	if (rc == 0 && report.nhosted > 0)
		printf("game %lld: %zu moves were signed with a key the server "
		    "holds for the player (hosted): %s\n",
		    (long long)log.game_id, report.nhosted, report.hosted);
	if (rc == 0 && report.ndelegated > 0)
		printf("game %lld: %zu moves were signed by a bot's key under "
		    "the player's delegation certificate: %s\n",
		    (long long)log.game_id, report.ndelegated,
		    report.delegated);
	audit_log_clear(&log);
	return rc == 0 ? 0 : 1;
}

/* libcurl's write callback: the answer's body to stdout. */
static size_t
write_out(char *data, size_t size, size_t n, void *arg)
{
	return fwrite(data, size, n, arg);
}

int
pbem_send(const struct pbem_request *rq)
{
	unsigned char sk[PROTO_SECKEY_BYTES], nonce_bytes[16];
	const char *base = rq->base != NULL ? rq->base : "http://127.0.0.1:8080";
	char header[REQSIG_HEADER_MAX], nonce[33], auth[400];
	struct curl_slist *headers = NULL;
	char *url;
	long status = 0;
	CURLcode cc;
	CURL *curl;

	randombytes_buf(nonce_bytes, sizeof(nonce_bytes));
	proto_hex(nonce_bytes, sizeof(nonce_bytes), nonce);
	pbem_load_secret(rq->keyfile, sk);
	if (reqsig_sign(rq->version, rq->player, rq->method, rq->target,
	    (int64_t)time(NULL), nonce, rq->body != NULL ? rq->body : "",
	    rq->body_len, sk, header, sizeof(header)) != 0)
		cli_fatal("cannot sign this request: the method must be "
		    "upper-case letters (GET, POST), the path must start with "
		    "/ and be sent as written (no spaces: %%-encode them), and "
		    "the player name 1-63 letters, digits, '.', '-' or '_'");
	sodium_memzero(sk, sizeof(sk));
	snprintf(auth, sizeof(auth), "Authorization: %s", header);
	if (rq->header_only) {
		printf("%s\n", auth);
		return 0;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0 ||
	    (curl = curl_easy_init()) == NULL)
		cli_fatal("libcurl cannot start");
	if ((url = malloc(strlen(base) + strlen(rq->target) + 1)) == NULL)
		cli_fatal("out of memory");
	strcpy(url, base);
	if (url[0] != '\0' && url[strlen(url) - 1] == '/')
		url[strlen(url) - 1] = '\0';
	strcat(url, rq->target);
	headers = curl_slist_append(headers, auth);
	if (rq->body != NULL)
		headers = curl_slist_append(headers, rq->content_type != NULL ?
		    rq->content_type : "Content-Type: application/octet-stream");
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, rq->method);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_out);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, stdout);
	/* The path is signed as written: libcurl must not rewrite it. */
	curl_easy_setopt(curl, CURLOPT_PATH_AS_IS, 1L);
	if (rq->body != NULL) {
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, rq->body);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)rq->body_len);
	}
	cc = curl_easy_perform(curl);
	if (cc == CURLE_OK)
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(headers);
	curl_easy_cleanup(curl);
	curl_global_cleanup();
	free(url);
	fflush(stdout);
	if (cc != CURLE_OK)
		cli_fatal("%s", curl_easy_strerror(cc));
	if (status < 200 || status > 299) {
		fprintf(stderr, "pbem: HTTP status %ld\n", status);
		return 1;
	}
	return 0;
}

static int
cmd_request(int argc, char **argv)
{
	struct pbem_request rq;
	char err[512], *body = NULL;
	int ch, rc;

	memset(&rq, 0, sizeof(rq));
	rq.keyfile = pbem_default_keyfile();
	rq.player = getenv("PBEM_PLAYER");
	rq.base = getenv("PBEM_URL");
	rq.version = REQSIG_V1_BLAKE2B;
	while ((ch = getopt(argc, argv, "+k:p:u:H2")) != -1) {
		switch (ch) {
		case 'k': rq.keyfile = optarg; break;
		case 'p': rq.player = optarg; break;
		case 'u': rq.base = optarg; break;
		case 'H': rq.header_only = 1; break;
		case '2': rq.version = REQSIG_V2_SHA256; break;
		default: pbem_usage();
		}
	}
	if (rq.player == NULL || argc - optind < 2 || argc - optind > 3)
		pbem_usage();
	rq.method = argv[optind];
	rq.target = argv[optind + 1];
	if (argc - optind == 3 && (body = cli_read_file(argv[optind + 2],
	    CLI_INPUT_MAX, &rq.body_len, err, sizeof(err))) == NULL)
		cli_fatal("%s", err);
	rq.body = body;
	rc = pbem_send(&rq);
	free(body);
	return rc;
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		pbem_usage();
	cli_help_or_version(argv[1], print_usage);
	if (sodium_init() < 0)
		cli_fatal("libsodium failed to initialise");
	argc--;
	argv++;
	if (strcmp(argv[0], "keygen") == 0)
		return cmd_keygen(argc, argv);
	if (strcmp(argv[0], "pubkey") == 0)
		return cmd_pubkey(argc, argv);
	if (strcmp(argv[0], "sign") == 0)
		return cmd_sign(argc, argv);
	if (strcmp(argv[0], "verify") == 0)
		return cmd_verify(argc, argv);
	if (strcmp(argv[0], "request") == 0)
		return cmd_request(argc, argv);
	if (strcmp(argv[0], "delegate") == 0)
		return pbem_delegate(argc, argv);
	fprintf(stderr, "pbem: unknown command \"%s\"\n", argv[0]);
	pbem_usage();
	return EX_USAGE;
}
