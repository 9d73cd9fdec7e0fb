/*
 * check_http.c -- the HTTP API end to end: the real pbemd on a loopback
 * port in a temporary directory, driven with libcurl as a chat bot would.
 *
 * Players register over HTTP; one creates a game of Star Trek: Missions
 * with an open seat, the other joins it and the game starts; the whole
 * game is played through POST /moves, each move chosen among the legal
 * moves of the signed private view.  After every move: each seat's view
 * (JSON and text) holds no card hidden from that seat, and the public
 * view, the log and the events hold no hidden card at all -- "hidden"
 * being every card of the full view (pbemctl view --full) that the public
 * view does not show.  Also: every refusal of a signed request (unsigned,
 * malformed, unknown player, another player's key, a stale time, a time
 * before the daemon started, a replay), a seat view for the wrong player,
 * the long-poll woken by a move and timing out, waiting polls that do not
 * hold the only HTTP thread, the log's pages, and at the end the seed
 * revealed, matching its commitment, and the whole log checked offline
 * from its pages (the same audit as `pbem verify`).  A third server (one
 * HTTP thread) checks the stream of every game, GET /v1/events, and the
 * Server-Sent Events streams of both event routes, on raw sockets, and
 * requests signed with version 2 (SHA-256 body hash).
 *
 * Deterministic: moves are picked by a fixed rule; the only waits are the
 * long-poll's own (checked with a lower bound, never an upper one).
 */
#include <check.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <curl/curl.h>
#include <sodium.h>

#include "audit.h"
#include "bundle.h"
#include "delegation.h"
#include "reqsig.h"
#include "rng.h"
#include "testlib.h"

static struct testenv env;
static pid_t pbemd_pid;
static int pbemd_port;

struct player {
	const char	*name;
	unsigned char	 sk[64];
	unsigned char	 pk[32];
};
static struct player alice = { .name = "alice" }, bob = { .name = "bob" },
    carol = { .name = "carol" };

/* ---- HTTP client ----------------------------------------------------------- */

struct reply {
	long	 status;
	char	*body;
	size_t	 len;
	char	 www_auth[128];
	char	 allow[64];
	char	 cookie[256];	/* Set-Cookie's name=value */
};

static size_t
collect(char *data, size_t size, size_t n, void *arg)
{
	struct reply *r = arg;
	char *grown = realloc(r->body, r->len + size * n + 1);

	if (grown == NULL)
		return 0;
	r->body = grown;
	memcpy(r->body + r->len, data, size * n);
	r->len += size * n;
	r->body[r->len] = '\0';
	return size * n;
}

static size_t
header_seen(char *data, size_t size, size_t n, void *arg)
{
	struct reply *r = arg;
	size_t len = size * n, start, end;

	if (size * n > 18 && strncasecmp(data, "WWW-Authenticate:", 17) == 0)
		snprintf(r->www_auth, sizeof(r->www_auth), "%.*s",
		    (int)(size * n - 17), data + 17);
	/* The header's bytes end without a NUL. */
	if (len > 12 && strncasecmp(data, "Set-Cookie:", 11) == 0) {
		start = 11;
		while (start < len && data[start] == ' ')
			start++;
		end = start;
		while (end < len && data[end] != ';' && data[end] != '\r' &&
		    data[end] != '\n')
			end++;
		snprintf(r->cookie, sizeof(r->cookie), "%.*s",
		    (int)(end - start), data + start);
	}
	if (len > 7 && strncasecmp(data, "Allow:", 6) == 0) {
		start = 6;
		while (start < len && data[start] == ' ')
			start++;
		end = start;
		while (end < len && data[end] != '\r' && data[end] != '\n')
			end++;
		snprintf(r->allow, sizeof(r->allow), "%.*s",
		    (int)(end - start), data + start);
	}
	return size * n;
}

/* With PBEM_API_RECORD=FILE, one JSON line per answer appended to FILE:
 * {"method", "path" (the target without its query), "status",
 * "content_type", "allow", "body"}, for tests/openapi-check.py to check
 * against docs/openapi.yaml. */
static void
record_answer(const char *method, const char *target, CURL *c,
    const struct reply *r)
{
	const char *file = getenv("PBEM_API_RECORD");
	const char *type = NULL;
	json_t *line;
	FILE *out;

	if (file == NULL || file[0] == '\0' || r->status == 0)
		return;
	curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &type);
	line = json_pack("{s:s, s:s%, s:i, s:s, s:s, s:s}", "method", method,
	    "path", target, strcspn(target, "?"), "status", (int)r->status,
	    "content_type", type != NULL ? type : "", "allow", r->allow,
	    "body", r->body != NULL ? r->body : "");
	ck_assert_ptr_nonnull(line);
	out = fopen(file, "a");
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(json_dumpf(line, out, JSON_COMPACT), 0);
	fputc('\n', out);
	ck_assert_int_eq(fclose(out), 0);
	json_decref(line);
}

/* One request with one more header line ("Name: value") or NULL. */
static void
http_raw_header(const char *method, const char *target, const char *body,
    const char *header, struct reply *r)
{
	struct curl_slist *headers = NULL;
	char url[2300];
	CURL *c = curl_easy_init();

	memset(r, 0, sizeof(*r));
	ck_assert_ptr_nonnull(c);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", pbemd_port,
	    target);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L);
	if (body != NULL) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	}
	if (header != NULL) {
		headers = curl_slist_append(headers, header);
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	}
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, header_seen);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, r);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 60L);
	if (curl_easy_perform(c) == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	record_answer(method, target, c, r);
	curl_easy_cleanup(c);
	curl_slist_free_all(headers);
	if (r->body == NULL)
		r->body = strdup("");
}

/* One request; auth is the whole Authorization header value or NULL. */
static void
http_raw(const char *method, const char *target, const char *body,
    const char *auth, struct reply *r)
{
	char line[REQSIG_HEADER_MAX + 32];

	if (auth != NULL)
		snprintf(line, sizeof(line), "Authorization: %s", auth);
	http_raw_header(method, target, body, auth != NULL ? line : NULL, r);
}

/* The Authorization value for p signing this request at time t. */
static void
sign_as(const struct player *p, const char *method, const char *target,
    const char *body, int64_t t, char *auth, size_t authlen)
{
	unsigned char nb[12];
	char nonce[25];

	randombytes_buf(nb, sizeof(nb));
	proto_hex(nb, sizeof(nb), nonce);
	ck_assert_int_eq(reqsig_sign(REQSIG_V1_BLAKE2B, p->name, method,
	    target, t, nonce, body != NULL ? body : "",
	    body != NULL ? strlen(body) : 0, p->sk, auth, authlen), 0);
}

/* A request signed by p (NULL: unsigned) whose answer is JSON. */
static json_t *
http_json(const struct player *p, const char *method, const char *target,
    const char *body, long *status)
{
	char auth[REQSIG_HEADER_MAX];
	struct reply r;
	json_t *j;

	if (p != NULL)
		sign_as(p, method, target, body, (int64_t)time(NULL), auth,
		    sizeof(auth));
	http_raw(method, target, body, p != NULL ? auth : NULL, &r);
	j = json_loads(r.body, 0, NULL);
	ck_assert_msg(j != NULL, "%s %s: not JSON (status %ld): %.200s",
	    method, target, r.status, r.body);
	*status = r.status;
	free(r.body);
	return j;
}

static const char *
error_code(const json_t *j)
{
	const char *code = json_string_value(json_object_get(json_object_get(j,
	    "error"), "code"));

	return code != NULL ? code : "(none)";
}

static const char *
error_message(const json_t *j)
{
	const char *m = json_string_value(json_object_get(json_object_get(j,
	    "error"), "message"));

	return m != NULL ? m : "";
}

/* ---- pbemd ----------------------------------------------------------------- */

static double
now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The options of the pbemd under test (-o each); the first test's by
 * default, the limits test's set by its fixture. */
static const char *const api_options[] = {
	/* One HTTP thread: the long-poll test proves that waiting polls do
	 * not take it. */
	"http_threads=1", "http_events_max_wait=20", "http_auth_window=120",
	/* A whole game in a few seconds: the rate limits are off here
	 * (test_http_limits and tests/ops-test.sh test them). */
	"rate_per_key=0", "rate_per_address=0",
	/* One internal address the webhook test may use. */
	"webhook_allow_hosts=127.0.0.1:9", "webhook_max_per_game=2", NULL
};
static const char *const *pbemd_options = api_options;

static void
pbemd_start(void)
{
	const char *builddir = getenv("top_builddir");
	const char *srcdir = getenv("top_srcdir");
	char prog[512], tpl[512], port[16], logpath[400];
	const char *argv[64];
	struct reply r;
	double until;
	int fd, n = 0, i;

	snprintf(prog, sizeof(prog), "%s/daemon/pbemd", builddir ? builddir :
	    ".");
	snprintf(tpl, sizeof(tpl), "%s/templates", srcdir ? srcdir : ".");
	snprintf(port, sizeof(port), "%d", pbemd_port);
	snprintf(logpath, sizeof(logpath), "%s/pbemd.log", env.dir);
	pbemd_pid = fork();
	ck_assert_int_ne(pbemd_pid, -1);
	if (pbemd_pid == 0) {
		fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND, 0600);
		dup2(fd, 2);
		/* One HTTP thread: the long-poll test proves that waiting
		 * polls do not take it. */
		argv[n++] = "pbemd";
		argv[n++] = "-d";
		argv[n++] = env.dbpath;
		argv[n++] = "-p";
		argv[n++] = port;
		argv[n++] = "-t";
		argv[n++] = tpl;
		for (i = 0; pbemd_options[i] != NULL && n < 60; i++) {
			argv[n++] = "-o";
			argv[n++] = pbemd_options[i];
		}
		argv[n] = NULL;
		execv(prog, (char *const *)argv);
		_exit(127);
	}
	for (until = now_mono() + 20; now_mono() < until; usleep(50000)) {
		http_raw("GET", "/v1/health", NULL, NULL, &r);
		free(r.body);
		if (r.status == 200)
			return;
	}
	ck_abort_msg("pbemd did not answer on port %d", pbemd_port);
}

static void
pbemd_stop(void)
{
	int status;

	kill(pbemd_pid, SIGTERM);
	ck_assert_int_eq(waitpid(pbemd_pid, &status, 0), pbemd_pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "pbemd did not stop cleanly (status %d)", status);
	pbemd_pid = 0;
}

/* ---- Hidden cards ------------------------------------------------------------ */

/* Star Trek: Missions card ids: G01..G49, M01..M12 and so on. */
static int
is_card_id(const char *s)
{
	return s != NULL && (s[0] == 'G' || s[0] == 'M') && s[1] >= '0' &&
	    s[1] <= '9' && s[2] >= '0' && s[2] <= '9' && s[3] == '\0';
}

/* Every card id anywhere in j, as flags indexed by card (G: 0-99,
 * M: 100-199). */
static void
card_ids(const json_t *j, unsigned char seen[200])
{
	const char *key, *s;
	json_t *v;
	size_t i;

	if (json_is_string(j)) {
		s = json_string_value(j);
		if (is_card_id(s))
			seen[(s[0] == 'M' ? 100 : 0) + (s[1] - '0') * 10 +
			    (s[2] - '0')] = 1;
	} else if (json_is_object(j)) {
		json_object_foreach((json_t *)j, key, v)
			card_ids(v, seen);
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			card_ids(v, seen);
	}
}

static void
card_name(int c, char out[4])
{
	snprintf(out, 4, "%c%02d", c >= 100 ? 'M' : 'G', c % 100);
}

/* What the table knows now: hidden[c] = 1 for every card of the full
 * view that the public view does not show; owner[c] = the seat whose
 * hand (or drawn cards) holds it, or -1 (deck). */
struct secrets {
	unsigned char	hidden[200];
	int		owner[200];
	json_t		*public_view;
	int		nseats;
	int		over;
	int64_t		next_seq;
	int		to_act;		/* first seat to act, -1 if over */
};

static void
load_secrets(int64_t game, struct secrets *sec)
{
	unsigned char all[200] = { 0 }, pub[200] = { 0 }, mine[200];
	struct gamestate gs;
	json_t *full, *hands, *pending;
	char err[512];
	int s, c, seats[8];

	memset(sec, 0, sizeof(*sec));
	ck_assert_msg(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)) == ENGINE_OK, "%s", err);
	full = gamestate_view(&gs, RULES_VIEW_FULL);
	sec->public_view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	sec->nseats = gs.game.nseats;
	sec->next_seq = gs.seq + 1;
	sec->to_act = gs.module->to_act(gs.state, seats, 8) > 0 ? seats[0] :
	    -1;
	sec->over = sec->to_act < 0;
	card_ids(full, all);
	card_ids(sec->public_view, pub);
	for (c = 0; c < 200; c++) {
		sec->hidden[c] = all[c] && !pub[c];
		sec->owner[c] = -1;
	}
	hands = json_object_get(full, "hands");
	for (s = 0; s < sec->nseats; s++) {
		memset(mine, 0, sizeof(mine));
		card_ids(json_array_get(hands, s), mine);
		for (c = 0; c < 200; c++)
			if (mine[c])
				sec->owner[c] = s;
	}
	/* Cards drawn in a half-played turn: only their seat sees them. */
	pending = json_object_get(full, "pending");
	if (json_is_object(pending) && json_integer_value(json_object_get(
	    pending, "seat")) >= 0) {
		memset(mine, 0, sizeof(mine));
		card_ids(pending, mine);
		for (c = 0; c < 200; c++)
			if (mine[c] && sec->hidden[c] && sec->owner[c] < 0)
				sec->owner[c] = (int)json_integer_value(
				    json_object_get(pending, "seat"));
	}
	json_decref(full);
	gamestate_clear(&gs);
}

/* No card hidden from viewer (a seat, or -1 for everyone) in j. */
static void
assert_no_secret_json(const struct secrets *sec, int viewer, const json_t *j,
    const char *what)
{
	unsigned char seen[200] = { 0 };
	char id[4];
	int c;

	card_ids(j, seen);
	for (c = 0; c < 200; c++)
		if (seen[c] && sec->hidden[c] && (viewer < 0 ||
		    sec->owner[c] != viewer)) {
			card_name(c, id);
			ck_abort_msg("%s shows %s, a card hidden from %s%d",
			    what, id, viewer < 0 ? "the public" : "seat ",
			    viewer < 0 ? 0 : viewer);
		}
}

/* The same for text: no hidden id as a word. */
static void
assert_no_secret_text(const struct secrets *sec, int viewer, const char *text,
    const char *what)
{
	const char *p;
	char id[4];
	int c;

	for (c = 0; c < 200; c++) {
		if (!sec->hidden[c] || (viewer >= 0 && sec->owner[c] == viewer))
			continue;
		card_name(c, id);
		for (p = strstr(text, id); p != NULL; p = strstr(p + 1, id))
			ck_assert_msg((p > text && (p[-1] >= '0' &&
			    p[-1] <= '9')) || (p[3] >= '0' && p[3] <= '9'),
			    "%s shows %s, hidden from seat %d", what, id,
			    viewer);
	}
}

/* ---- Stages ------------------------------------------------------------------ */

/* The sign-up mail's link, as its owner would follow it: GET shows a
 * button and confirms nothing; its POST confirms; a second POST, or an
 * unknown code, is refused. */
static void
confirm_address(const char *name)
{
	char sql[400], err[256], path[400], code[ENGINE_CODE_LEN + 1], *nonce;
	struct store_player p;
	struct hosted_kek *kek;
	struct reply r;

	snprintf(sql, sizeof(sql), "INSERT OR REPLACE INTO meta (key, value) "
	    "SELECT 'nonce', json_extract(payload, '$.nonce') FROM outbox "
	    "WHERE event = 'signup' AND recipient = '%s@example.org'", name);
	ck_assert_int_eq(testenv_sql(&env, sql), 0);
	ck_assert_int_eq(store_meta_get(env.st, "nonce", &nonce), STORE_OK);
	snprintf(path, sizeof(path), "%s.kek", env.dbpath);
	ck_assert_ptr_nonnull(kek = hosted_kek_open(path, 0, err,
	    sizeof(err)));
	engine_signup_code(kek, nonce, code);
	hosted_kek_close(kek);
	free(nonce);
	ck_assert_int_eq(store_player_find(env.st, name, &p), STORE_OK);
	ck_assert_int_eq(p.email_pending, 1);
	snprintf(path, sizeof(path), "/confirm/%s", code);
	http_raw("GET", path, NULL, NULL, &r);
	ck_assert_int_eq(r.status, 200);
	ck_assert_ptr_nonnull(strstr(r.body, "<form method=\"post\""));
	free(r.body);
	ck_assert_int_eq(store_player_find(env.st, name, &p), STORE_OK);
	ck_assert_int_eq(p.email_pending, 1);
	http_raw("POST", path, "", NULL, &r);
	ck_assert_msg(r.status == 200, "%ld %s", r.status, r.body);
	ck_assert_ptr_nonnull(strstr(r.body, "confirmed"));
	free(r.body);
	ck_assert_int_eq(store_player_find(env.st, name, &p), STORE_OK);
	ck_assert_int_eq(p.email_pending, 0);
	http_raw("POST", path, "", NULL, &r);
	ck_assert_int_eq(r.status, 410);
	free(r.body);
	http_raw("POST", "/confirm/NOSUCHCODE", "", NULL, &r);
	ck_assert_int_eq(r.status, 404);
	free(r.body);
}

static void
register_player(struct player *p, const char *lang)
{
	char body[512], key[PROTO_KEY_TEXT_MAX];
	long status;
	json_t *j;

	crypto_sign_keypair(p->pk, p->sk);
	proto_pubkey_format(p->pk, key, sizeof(key));
	snprintf(body, sizeof(body), "{\"name\": \"%s\", \"key\": \"%s\", "
	    "\"email\": \"%s@example.org\", \"lang\": \"%s\"}", p->name, key,
	    p->name, lang);
	j = http_json(NULL, "POST", "/v1/players", body, &status);
	ck_assert_msg(status == 201, "register %s: %ld %s", p->name, status,
	    error_message(j));
	ck_assert_str_eq(json_string_value(json_object_get(j, "name")),
	    p->name);
	/* No game mail until the address is confirmed (docs/PLAYING.md). */
	ck_assert(json_is_false(json_object_get(j, "email_confirmed")));
	json_decref(j);
	confirm_address(p->name);
}

static void
check_registration_refusals(void)
{
	char body[512], key[PROTO_KEY_TEXT_MAX];
	long status;
	json_t *j;

	proto_pubkey_format(alice.pk, key, sizeof(key));
	snprintf(body, sizeof(body), "{\"name\": \"alice\", \"key\": \"%s\"}",
	    key);
	j = http_json(NULL, "POST", "/v1/players", body, &status);
	ck_assert_int_eq(status, 409);
	ck_assert_str_eq(error_code(j), "player_exists");
	json_decref(j);
	j = http_json(NULL, "POST", "/v1/players", "{\"name\": \"dave\", "
	    "\"key\": \"ed25519:nonsense\"}", &status);
	ck_assert_int_eq(status, 400);
	ck_assert_str_eq(error_code(j), "bad_request");
	json_decref(j);
	j = http_json(NULL, "POST", "/v1/players", "{\"name\": \"da ve\"}",
	    &status);
	ck_assert_int_eq(status, 400);
	json_decref(j);
	/* The name refused by itself (the body above lacks its key). */
	snprintf(body, sizeof(body), "{\"name\": \"da ve\", \"key\": "
	    "\"%s\"}", key);
	j = http_json(NULL, "POST", "/v1/players", body, &status);
	ck_assert_int_eq(status, 400);
	ck_assert_str_eq(error_message(j), "a player name is 1-63 letters, "
	    "digits, '.', '-' or '_'");
	json_decref(j);
	snprintf(body, sizeof(body), "{\"name\": \"%064d\", \"key\": "
	    "\"%s\"}", 0, key);
	j = http_json(NULL, "POST", "/v1/players", body, &status);
	ck_assert_int_eq(status, 400);
	ck_assert_str_eq(error_code(j), "bad_request");
	json_decref(j);
}

/* Each refusal of a signed request, with its code. */
static void
check_signing_refusals(void)
{
	const char *target = "/v1/players/me";
	char auth[REQSIG_HEADER_MAX], forged[REQSIG_HEADER_MAX];
	struct player impostor = alice;
	struct reply r;
	json_t *j;
	long status;

	/* Unsigned. */
	http_raw("GET", target, NULL, NULL, &r);
	ck_assert_int_eq(r.status, 401);
	ck_assert_ptr_nonnull(strstr(r.body, "auth_missing"));
	ck_assert_ptr_nonnull(strstr(r.www_auth, "PBEM-Ed25519"));
	free(r.body);
	/* Malformed. */
	http_raw("GET", target, NULL, "PBEM-Ed25519 player=alice, time=12x, "
	    "signature=AAAA", &r);
	ck_assert_int_eq(r.status, 401);
	ck_assert_ptr_nonnull(strstr(r.body, "auth_malformed"));
	free(r.body);
	http_raw("GET", target, NULL, "Basic YWxpY2U6cHc=", &r);
	ck_assert_int_eq(r.status, 401);
	ck_assert_ptr_nonnull(strstr(r.body, "auth_malformed"));
	free(r.body);
	/* Unknown player. */
	impostor.name = "mallory";
	sign_as(&impostor, "GET", target, NULL, (int64_t)time(NULL), auth,
	    sizeof(auth));
	http_raw("GET", target, NULL, auth, &r);
	ck_assert_int_eq(r.status, 401);
	ck_assert_ptr_nonnull(strstr(r.body, "unknown_player"));
	free(r.body);
	/* Alice's name with Bob's key. */
	impostor = bob;
	impostor.name = "alice";
	sign_as(&impostor, "GET", target, NULL, (int64_t)time(NULL), auth,
	    sizeof(auth));
	http_raw("GET", target, NULL, auth, &r);
	ck_assert_int_eq(r.status, 401);
	ck_assert_ptr_nonnull(strstr(r.body, "bad_signature"));
	free(r.body);
	/* Signed for another path. */
	sign_as(&alice, "GET", "/v1/games", NULL, (int64_t)time(NULL), auth,
	    sizeof(auth));
	http_raw("GET", target, NULL, auth, &r);
	ck_assert_int_eq(r.status, 401);
	ck_assert_ptr_nonnull(strstr(r.body, "bad_signature"));
	free(r.body);
	/* Stale: outside the window; the server says its time. */
	sign_as(&alice, "GET", target, NULL, (int64_t)time(NULL) - 1000, auth,
	    sizeof(auth));
	http_raw("GET", target, NULL, auth, &r);
	ck_assert_int_eq(r.status, 401);
	ck_assert_ptr_nonnull(strstr(r.body, "auth_expired"));
	ck_assert_ptr_nonnull(strstr(r.body, "server's time is"));
	free(r.body);
	/* Inside the window but before pbemd started (its replay cache
	 * cannot know what was seen before). */
	sign_as(&alice, "GET", target, NULL, (int64_t)time(NULL) - 100, auth,
	    sizeof(auth));
	http_raw("GET", target, NULL, auth, &r);
	ck_assert_int_eq(r.status, 401);
	ck_assert_msg(strstr(r.body, "before this server started") != NULL,
	    "%s", r.body);
	free(r.body);
	/* Good, then replayed. */
	sign_as(&alice, "GET", target, NULL, (int64_t)time(NULL), auth,
	    sizeof(auth));
	http_raw("GET", target, NULL, auth, &r);
	ck_assert_msg(r.status == 200, "%ld %s", r.status, r.body);
	ck_assert_ptr_nonnull(strstr(r.body, "\"alice\""));
	free(r.body);
	http_raw("GET", target, NULL, auth, &r);
	ck_assert_int_eq(r.status, 401);
	ck_assert_ptr_nonnull(strstr(r.body, "\"replayed\""));
	free(r.body);
	/* A body changed after signing. */
	sign_as(&alice, "POST", "/v1/games", "{\"ruleset\": \"stmissions\", "
	    "\"seats\": 2}", (int64_t)time(NULL), forged, sizeof(forged));
	http_raw("POST", "/v1/games", "{\"ruleset\": \"stmissions\", "
	    "\"seats\": 4}", forged, &r);
	ck_assert_int_eq(r.status, 401);
	ck_assert_ptr_nonnull(strstr(r.body, "bad_signature"));
	free(r.body);
	/* Options the module refuses: 400 with the module's reason. */
	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"seats\": 9}", &status);
	ck_assert_int_eq(status, 400);
	json_decref(j);
	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"seats\": 5}", &status);
	ck_assert_int_eq(status, 400);
	ck_assert_ptr_nonnull(strstr(error_message(j), "2 to 4 players"));
	json_decref(j);
	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"chess\", \"seats\": 2}", &status);
	ck_assert_int_eq(status, 400);
	ck_assert_ptr_nonnull(strstr(error_message(j), "unknown ruleset"));
	json_decref(j);
}

/* Alice creates a game with one open seat; Carol's wrong joins; Bob
 * joins and the game starts.  Returns the game id. */
static int64_t
form_game(void)
{
	struct store_master gm;
	struct store_player creator;
	char path[128];
	int64_t game;
	long status;
	json_t *j;

	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"seats\": 2}", &status);
	ck_assert_msg(status == 201, "create: %ld %s", status,
	    error_message(j));
	ck_assert_str_eq(json_string_value(json_object_get(j, "status")),
	    "forming");
	game = json_integer_value(json_object_get(j, "id"));
	ck_assert(json_is_null(json_array_get(json_object_get(j, "players"),
	    1)));
	json_decref(j);
	/* Its creator is the game's master (issue 21). */
	ck_assert_int_eq(store_master_get(env.st, game, &gm), STORE_OK);
	ck_assert_int_eq(store_player_find(env.st, "alice", &creator),
	    STORE_OK);
	ck_assert_int_eq(gm.player_id, creator.id);

	j = http_json(NULL, "GET", "/v1/games?status=forming", NULL, &status);
	ck_assert_int_eq(json_array_size(json_object_get(j, "games")), 1);
	json_decref(j);
	/* A forming game's public view is its summary, not an error. */
	snprintf(path, sizeof(path), "/v1/games/%lld", (long long)game);
	j = http_json(NULL, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_str_eq(json_string_value(json_object_get(j, "status")),
	    "forming");
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/games/%lld/seats/0",
	    (long long)game);
	j = http_json(&alice, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 409);
	ck_assert_str_eq(error_code(j), "game_forming");
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/games/%lld/text?lang=fr",
	    (long long)game);
	j = http_json(NULL, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 409);
	ck_assert_msg(strstr(error_message(j), "se forme encore") != NULL,
	    "%s", error_message(j));
	json_decref(j);

	snprintf(path, sizeof(path), "/v1/games/%lld/join", (long long)game);
	j = http_json(&alice, "POST", path, NULL, &status);
	ck_assert_int_eq(status, 409);		/* already seated */
	ck_assert_str_eq(error_code(j), "seat_taken");
	json_decref(j);
	j = http_json(&carol, "POST", path, "{\"seat\": 0}", &status);
	ck_assert_int_eq(status, 409);		/* alice's */
	ck_assert_str_eq(error_code(j), "seat_taken");
	json_decref(j);
	j = http_json(&carol, "POST", path, "{\"seat\": 1}", &status);
	ck_assert_int_eq(status, 200);
	ck_assert(json_is_true(json_object_get(j, "started")));
	json_decref(j);
	return game;
}

/* A three-seat game: join, leave, join again, start. */
static void
join_and_leave(void)
{
	char path[128];
	int64_t game;
	long status;
	json_t *j;

	j = http_json(&bob, "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"players\": [null, \"bob\", null]}", &status);
	ck_assert_int_eq(status, 201);
	game = json_integer_value(json_object_get(j, "id"));
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/games/%lld/join", (long long)game);
	j = http_json(&alice, "POST", path, "{\"seat\": 7}", &status);
	ck_assert_int_eq(status, 400);
	ck_assert_str_eq(error_code(j), "bad_seat");
	json_decref(j);
	j = http_json(&alice, "POST", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "seat")), 0);
	ck_assert(json_is_false(json_object_get(j, "started")));
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/games/%lld/leave", (long long)game);
	j = http_json(&alice, "POST", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	json_decref(j);
	j = http_json(&alice, "POST", path, NULL, &status);
	ck_assert_int_eq(status, 409);
	ck_assert_str_eq(error_code(j), "not_seated");
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/games/%lld/join", (long long)game);
	j = http_json(&carol, "POST", path, "{\"seat\": 2}", &status);
	ck_assert_int_eq(status, 200);
	json_decref(j);
	j = http_json(&alice, "POST", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert(json_is_true(json_object_get(j, "started")));
	ck_assert_str_eq(json_string_value(json_object_get(j, "status")),
	    "running");
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/games/%lld/leave", (long long)game);
	j = http_json(&alice, "POST", path, NULL, &status);
	ck_assert_int_eq(status, 409);
	ck_assert_str_eq(error_code(j), "not_forming");
	json_decref(j);
	j = http_json(NULL, "GET", "/v1/games?player=carol&status=running",
	    NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_int_eq(json_array_size(json_object_get(j, "games")), 2);
	json_decref(j);
}

/* ---- Long-poll ------------------------------------------------------------- */

struct poll {
	pthread_t	 thread;
	char		 target[128];
	json_t		*answer;
	double		 elapsed;
	volatile int	 done;
};

static void *
poll_main(void *arg)
{
	struct poll *p = arg;
	double start = now_mono();
	struct reply r;

	http_raw("GET", p->target, NULL, NULL, &r);
	p->answer = json_loads(r.body, 0, NULL);
	free(r.body);
	p->elapsed = now_mono() - start;
	p->done = 1;
	return NULL;
}

static void
poll_start(struct poll *p, int64_t game, int64_t after, int wait)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->target, sizeof(p->target),
	    "/v1/games/%lld/events?after=%lld&wait=%d", (long long)game,
	    (long long)after, wait);
	ck_assert_int_eq(pthread_create(&p->thread, NULL, poll_main, p), 0);
}

static void
poll_join(struct poll *p)
{
	pthread_join(p->thread, NULL);
	ck_assert_msg(p->answer != NULL, "%s: no JSON answer", p->target);
}

/* ---- Playing ----------------------------------------------------------------- */

static struct player *
player_of(int seat)
{
	return seat == 0 ? &alice : &carol;
}

/* Names (docs/API.md, "Names"): the view names each seat's player and
 * those to act. */
static void
assert_view_named(const json_t *view, const char *what)
{
	const json_t *names = json_object_get(view, "seat_names");
	const json_t *to_act = json_object_get(view, "to_act");
	const json_t *to_act_names = json_object_get(view, "to_act_names");
	size_t i;

	ck_assert_msg(json_array_size(names) == 2, "%s has no seat_names",
	    what);
	ck_assert_str_eq(json_string_value(json_array_get(names, 0)),
	    "alice");
	ck_assert_str_eq(json_string_value(json_array_get(names, 1)),
	    "carol");
	ck_assert_uint_eq(json_array_size(to_act_names),
	    json_array_size(to_act));
	for (i = 0; i < json_array_size(to_act); i++)
		ck_assert_str_eq(json_string_value(json_array_get(
		    to_act_names, i)), player_of((int)json_integer_value(
		    json_array_get(to_act, i)))->name);
}

/* Each event names its seat's player and carries one line in English
 * and in French ("Summaries") that names that player too. */
static void
assert_events_named(const json_t *events)
{
	const json_t *e, *sum;
	const char *en, *fr;
	size_t i;
	int seat;

	json_array_foreach(events, i, e) {
		seat = (int)json_integer_value(json_object_get(e, "seat"));
		sum = json_object_get(e, "summary");
		en = json_string_value(json_object_get(sum, "en"));
		fr = json_string_value(json_object_get(sum, "fr"));
		ck_assert_msg(en != NULL && fr != NULL && *en != '\0' &&
		    *fr != '\0' && strchr(en, '\n') == NULL &&
		    strchr(fr, '\n') == NULL, "event %zu has no summary", i);
		if (seat < 0) {
			ck_assert(json_is_null(json_object_get(e, "name")));
			continue;
		}
		ck_assert_str_eq(json_string_value(json_object_get(e, "name")),
		    player_of(seat)->name);
		ck_assert_msg(strstr(en, player_of(seat)->name) != NULL &&
		    strstr(fr, player_of(seat)->name) != NULL, "summaries "
		    "\"%s\" / \"%s\" do not name %s", en, fr,
		    player_of(seat)->name);
	}
}

/* The seat views (JSON and text) of every seat, checked against the
 * secrets; returns the acting seat's legal moves. */
static json_t *
check_views(int64_t game, const struct secrets *sec)
{
	char path[128], auth[REQSIG_HEADER_MAX], what[64];
	json_t *j, *legal = NULL;
	struct reply r;
	long status;
	int s;

	for (s = 0; s < sec->nseats; s++) {
		snprintf(path, sizeof(path), "/v1/games/%lld/seats/%d",
		    (long long)game, s);
		j = http_json(player_of(s), "GET", path, NULL, &status);
		ck_assert_msg(status == 200, "%s: %ld %s", path, status,
		    error_message(j));
		snprintf(what, sizeof(what), "seat %d's view", s);
		assert_no_secret_json(sec, s, j, what);
		assert_view_named(j, what);
		ck_assert_int_eq(json_integer_value(json_object_get(j,
		    "next_seq")), sec->next_seq);
		if (s == sec->to_act) {
			ck_assert(json_is_true(json_object_get(j,
			    "your_turn")));
			legal = json_incref(json_object_get(j, "legal_moves"));
			ck_assert(json_array_size(json_object_get(j,
			    "move_forms")) > 0);
			/* One label a move, checked for secrets above. */
			ck_assert_uint_eq(json_array_size(json_object_get(j,
			    "move_labels")), json_array_size(legal));
		}
		json_decref(j);
		/* The text rendering, every few moves (it is the same
		 * view through a template). */
		if (sec->next_seq % 5 == 1 || sec->over) {
			snprintf(path, sizeof(path), "/v1/games/%lld/seats/%d"
			    "?format=text&lang=%s", (long long)game, s,
			    s ? "fr" : "en");
			sign_as(player_of(s), "GET", path, NULL,
			    (int64_t)time(NULL), auth, sizeof(auth));
			http_raw("GET", path, NULL, auth, &r);
			ck_assert_msg(r.status == 200, "%s: %s", path, r.body);
			snprintf(what, sizeof(what), "seat %d's text", s);
			assert_no_secret_text(sec, s, r.body, what);
			free(r.body);
		}
	}
	return legal;
}

/* The redaction rule: until the end a move entry has no text, no
 * signature (a signature can be checked against each legal move text)
 * and no state hash; after the end it has all three. */
static void
assert_redacted(const json_t *page, const char *key, int over)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(page, key), i, e) {
		if (json_integer_value(json_object_get(e, "kind")) ==
		    STORE_ENTRY_GENESIS)
			continue;
		ck_assert_msg(json_is_true(json_object_get(e, "redacted")) ==
		    !over, "entry %lld: redacted is %s while the game is %s",
		    (long long)json_integer_value(json_object_get(e, "seq")),
		    over ? "true" : "false", over ? "over" : "running");
		ck_assert(json_is_string(json_object_get(e, "text")) == over);
		ck_assert((json_object_get(e, "signature") != NULL) == over);
		ck_assert((json_object_get(e, "state_hash") != NULL) == over);
	}
}

/* The public view, the last log page and the events, for everyone. */
static void
check_public(int64_t game, const struct secrets *sec)
{
	char path[128];
	long status;
	json_t *j;

	snprintf(path, sizeof(path), "/v1/games/%lld", (long long)game);
	j = http_json(NULL, "GET", path, NULL, &status);
	assert_no_secret_json(sec, -1, j, "the public view");
	assert_view_named(j, "the public view");
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/games/%lld/log?after=%lld",
	    (long long)game, (long long)(sec->next_seq > 4 ?
	    sec->next_seq - 4 : -1));
	j = http_json(NULL, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	assert_no_secret_json(sec, -1, j, "the log");
	assert_redacted(j, "entries", sec->over);
	assert_events_named(json_object_get(j, "entries"));
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/games/%lld/events?after=%lld",
	    (long long)game, (long long)sec->next_seq - 2);
	j = http_json(NULL, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	assert_no_secret_json(sec, -1, j, "the events");
	assert_redacted(j, "events", sec->over);
	assert_events_named(json_object_get(j, "events"));
	if (!sec->over)
		assert_view_named(j, "the events");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "next_seq")),
	    sec->next_seq);
	json_decref(j);
}

static void
post_move(int64_t game, int seat, int64_t seq, const char *text,
    int signer_seat, long want_status, const char *want_code)
{
	struct player *p = player_of(signer_seat);
	struct proto_move m;
	char block[PROTO_ARMOUR_MAX], path[64];
	long status;
	json_t *j;

	memset(&m, 0, sizeof(m));
	m.game_id = game;
	m.seq = seq;
	m.seat = seat;
	snprintf(m.text, sizeof(m.text), "%s", text);
	proto_move_sign(&m, p->sk);
	ck_assert(proto_move_armour(&m, block, sizeof(block)) > 0);
	snprintf(path, sizeof(path), "/v1/games/%lld/moves", (long long)game);
	j = http_json(NULL, "POST", path, block, &status);
	ck_assert_msg(status == want_status, "move %lld (%s): %ld %s",
	    (long long)seq, text, status, error_message(j));
	if (want_code != NULL)
		ck_assert_str_eq(error_code(j), want_code);
	json_decref(j);
}

/* A signed GET of target by p, expecting status and want in the error
 * message. */
static void
signed_refusal(const struct player *p, const char *target, long status,
    const char *want)
{
	json_t *j;
	long got;

	j = http_json(p, "GET", target, NULL, &got);
	ck_assert_msg(got == status, "%s: %ld", target, got);
	ck_assert_msg(strstr(error_message(j), want) != NULL, "%s by %s: %s",
	    target, p->name, error_message(j));
	json_decref(j);
}

/* The refusals of signed requests in the signer's language (seat's
 * player: alice English, carol French), or in ?lang=. */
static void
check_signed_refusal_lang(int64_t game, int seat)
{
	struct player *p = player_of(seat), impostor;
	int fr = strcmp(p->name, "carol") == 0;
	char path[96], want[160];

	snprintf(path, sizeof(path), "/v1/games/%lld/seats/%d",
	    (long long)game, 1 - seat);
	signed_refusal(p, path, 403, fr ? "n'est pas le vôtre" :
	    "is not yours");
	snprintf(path, sizeof(path), "/v1/games/%lld/seats/%d?lang=%s",
	    (long long)game, 1 - seat, fr ? "en" : "fr");
	signed_refusal(p, path, 403, fr ? "is not yours" :
	    "n'est pas le vôtre");
	signed_refusal(p, "/v1/games/999999/seats/0", 404, fr ?
	    "il n'y a pas de partie 999999" : "there is no game 999999");
	impostor = *player_of(1 - seat);
	impostor.name = p->name;
	snprintf(path, sizeof(path), "/v1/games/%lld/seats/%d",
	    (long long)game, seat);
	snprintf(want, sizeof(want), fr ? "la signature ne correspond pas à "
	    "la clé de %s" : "the signature does not match %s's key",
	    p->name);
	signed_refusal(&impostor, path, 401, want);
	snprintf(path, sizeof(path), "/v1/games/%lld/seats/%d?lang=fr",
	    (long long)game, seat);
	snprintf(want, sizeof(want), "la signature ne correspond pas à la clé "
	    "de %s", p->name);
	signed_refusal(&impostor, path, 401, want);
}

/*
 * Refusals in the player's language (issue 15, item 6) and the same
 * "legal_moves" in an error as in the seat view (item 10): a stale move
 * of seat's player (alice: English, carol: French), then with ?lang=;
 * an unknown lang on every route that reads it; JSON ends in a newline.
 */
static void
check_refusal_lang(int64_t game, int seat, int64_t next_seq, const char *text,
    const json_t *legal)
{
	static const char *const routes[] = { "/moves", "/text", "/seats/0",
		"", "/log" };
	static const char *const public[] = { "", "/text", "/seed", "/log",
		"/events" };
	struct player *p = player_of(seat);
	struct proto_move m;
	char block[PROTO_ARMOUR_MAX], path[96];
	const char *want_own, *want_en = "stale sequence number";
	const char *want_fr = "numéro de coup périmé";
	struct reply r;
	json_t *j, *err;
	size_t i;

	want_own = strcmp(p->name, "alice") == 0 ? want_en : want_fr;
	memset(&m, 0, sizeof(m));
	m.game_id = game;
	m.seq = next_seq - 1;
	m.seat = seat;
	snprintf(m.text, sizeof(m.text), "%s", text);
	proto_move_sign(&m, p->sk);
	ck_assert(proto_move_armour(&m, block, sizeof(block)) > 0);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/v1/games/%lld/moves%s",
		    (long long)game, i == 0 ? "" : i == 1 ? "?lang=fr" :
		    "?lang=en");
		http_raw("POST", path, block, NULL, &r);
		ck_assert_int_eq(r.status, 409);
		ck_assert_msg(r.len > 0 && r.body[r.len - 1] == '\n',
		    "%s: JSON without a final newline", path);
		j = json_loads(r.body, 0, NULL);
		ck_assert_ptr_nonnull(j);
		ck_assert_msg(strstr(error_message(j), i == 0 ? want_own :
		    i == 1 ? want_fr : want_en) != NULL, "%s: %s", path,
		    error_message(j));
		json_decref(j);
		free(r.body);
	}
	/* A move the rules refuse: legal_moves are the view's texts. */
	m.seq = next_seq;
	snprintf(m.text, sizeof(m.text), "draw galaxy, discard Picard Ier");
	proto_move_sign(&m, p->sk);
	ck_assert(proto_move_armour(&m, block, sizeof(block)) > 0);
	snprintf(path, sizeof(path), "/v1/games/%lld/moves", (long long)game);
	http_raw("POST", path, block, NULL, &r);
	j = json_loads(r.body, 0, NULL);
	ck_assert_msg(j != NULL && r.status == 422, "%ld %s", r.status, r.body);
	err = json_object_get(j, "error");
	ck_assert_msg(json_equal(json_object_get(err, "legal_moves"), legal),
	    "legal_moves differ from the seat view's: %s", r.body);
	ck_assert(json_array_size(json_object_get(err, "move_forms")) > 0);
	json_decref(j);
	free(r.body);
	/* Signed requests: refusals in ?lang=, else the signer's language
	 * -- a seat that is not the signer's, an unknown game, a bad
	 * signature (the signer's name with another player's key). */
	check_signed_refusal_lang(game, seat);
	/* An unknown game in ?lang= on the public routes too (the view,
	 * its text, the seed and the log). */
	for (i = 0; i < sizeof(public) / sizeof(public[0]); i++) {
		snprintf(path, sizeof(path), "/v1/games/999999%s?lang=fr",
		    public[i]);
		http_raw("GET", path, NULL, NULL, &r);
		ck_assert_msg(r.status == 404 && strstr(r.body, "il n'y a pas "
		    "de partie 999999") != NULL, "%s: %ld %s", path, r.status,
		    r.body);
		free(r.body);
	}
	/* An unknown language: the same 400 on every route. */
	for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		snprintf(path, sizeof(path), "/v1/games/%lld%s?lang=de",
		    (long long)game, routes[i]);
		http_raw(i == 0 ? "POST" : "GET", path, i == 0 ? block : NULL,
		    NULL, &r);
		ck_assert_msg(r.status == 400, "%s: %ld", path, r.status);
		ck_assert_msg(strstr(r.body, "lang=de: unknown language; lang "
		    "is en (English) or fr (French) / langue inconnue ; lang "
		    "vaut en (anglais) ou fr (français)") != NULL, "%s: %s",
		    path, r.body);
		free(r.body);
	}
	/* A method the path does not take: 405 naming the ones it does. */
	snprintf(path, sizeof(path), "/v1/games/%lld/webhooks",
	    (long long)game);
	http_raw("PUT", path, NULL, NULL, &r);
	ck_assert_int_eq(r.status, 405);
	ck_assert_str_eq(r.allow, "GET, POST");
	free(r.body);
}

/* Play the game to its end through the API; returns the moves played. */
static int
play(int64_t game)
{
	struct secrets sec;
	struct poll waiter;
	json_t *legal;
	const char *text;
	unsigned langs_checked = 0;
	int moves = 0;
	size_t n;

	for (;;) {
		load_secrets(game, &sec);
		legal = check_views(game, &sec);
		check_public(game, &sec);
		json_decref(sec.public_view);
		if (sec.over) {
			json_decref(legal);
			break;
		}
		n = json_array_size(legal);
		ck_assert_msg(n > 0, "seat %d has no legal move", sec.to_act);
		text = json_string_value(json_array_get(legal,
		    (size_t)moves * 7919 % n));
		if (moves >= 4 && !(langs_checked & (1u << sec.to_act))) {
			/* Once for each seat: alice's English, carol's
			 * French. */
			check_refusal_lang(game, sec.to_act, sec.next_seq,
			    text, legal);
			langs_checked |= 1u << sec.to_act;
		}
		if (moves == 3) {
			/* Another seat's key; then a long-poll woken by the
			 * move that follows. */
			post_move(game, sec.to_act, sec.next_seq, text,
			    1 - sec.to_act, 403, "bad_signature");
			poll_start(&waiter, game, sec.next_seq - 1, 15);
			usleep(200000);
		}
		post_move(game, sec.to_act, sec.next_seq, text, sec.to_act,
		    200, NULL);
		if (moves == 3) {
			poll_join(&waiter);
			ck_assert(json_is_false(json_object_get(waiter.answer,
			    "timed_out")));
			ck_assert_int_eq(json_integer_value(json_object_get(
			    json_array_get(json_object_get(waiter.answer,
			    "events"), 0), "seq")), sec.next_seq);
			ck_assert(json_is_true(json_object_get(
			    json_array_get(json_object_get(waiter.answer,
			    "events"), 0), "redacted")));
			json_decref(waiter.answer);
			/* The same block again: a stale sequence number. */
			post_move(game, sec.to_act, sec.next_seq, text,
			    sec.to_act, 409, "stale_sequence");
		}
		json_decref(legal);
		moves++;
		ck_assert_msg(moves < 1000, "the game does not end");
	}
	ck_assert_uint_eq(langs_checked, 3);
	return moves;
}

/* Waiting polls hold no HTTP thread (pbemd runs with one), and a poll
 * with nothing to report times out after its wait, saying so. */
static void
check_long_poll(int64_t game)
{
	struct poll polls[3], quick;
	struct reply r;
	long status;
	json_t *j;
	int i;

	for (i = 0; i < 3; i++)
		poll_start(&polls[i], game, 1000000, 6);
	usleep(300000);
	http_raw("GET", "/v1/health", NULL, NULL, &r);
	ck_assert_int_eq(r.status, 200);
	free(r.body);
	for (i = 0; i < 3; i++)
		ck_assert_msg(!polls[i].done, "a poll answered before its "
		    "wait was over");
	poll_start(&quick, game, 1000000, 1);
	poll_join(&quick);
	ck_assert(json_is_true(json_object_get(quick.answer, "timed_out")));
	ck_assert_int_eq(json_array_size(json_object_get(quick.answer,
	    "events")), 0);
	ck_assert_msg(quick.elapsed >= 0.9, "a 1-second poll came back after "
	    "%.2f s", quick.elapsed);
	json_decref(quick.answer);
	for (i = 0; i < 3; i++) {
		poll_join(&polls[i]);
		ck_assert(json_is_true(json_object_get(polls[i].answer,
		    "timed_out")));
		json_decref(polls[i].answer);
	}

	/* An unknown game is refused at once, waiting or not, as the log
	 * refuses it. */
	poll_start(&quick, 999999, -1, 5);
	poll_join(&quick);
	ck_assert_str_eq(error_code(quick.answer), "unknown_game");
	ck_assert_str_eq(error_message(quick.answer), "there is no game "
	    "999999");
	ck_assert_msg(quick.elapsed < 2, "a poll of an unknown game waited "
	    "%.2f s", quick.elapsed);
	json_decref(quick.answer);
	j = http_json(NULL, "GET", "/v1/games/999999/events?after=-1", NULL,
	    &status);
	ck_assert_int_eq(status, 404);
	ck_assert_str_eq(error_code(j), "unknown_game");
	json_decref(j);
	j = http_json(NULL, "GET", "/v1/games/999999/log", NULL, &status);
	ck_assert_int_eq(status, 404);
	ck_assert_str_eq(error_message(j), "there is no game 999999");
	json_decref(j);
}

/* After the end: every log page, then the offline audit of those pages
 * with the revealed seed; the seed matches the commitment. */
static void
check_end(int64_t game, int moves)
{
	unsigned char seed[32], commit[32], want[32];
	json_t *j, *entries = json_array(), *bundle, *e;
	struct audit_report report;
	struct audit_log log;
	char path[128], err[512];
	int64_t after = -1;
	int pages = 0;
	long status;
	size_t i;

	snprintf(path, sizeof(path), "/v1/games/%lld/seed", (long long)game);
	j = http_json(NULL, "GET", path, NULL, &status);
	ck_assert_int_eq(proto_unhex(json_string_value(json_object_get(j,
	    "seed")), seed, 32), 0);
	ck_assert_int_eq(proto_unhex(json_string_value(json_object_get(j,
	    "commitment")), want, 32), 0);
	rng_seed_commit(seed, commit);
	ck_assert_mem_eq(commit, want, 32);
	json_decref(j);

	for (;;) {
		snprintf(path, sizeof(path), "/v1/games/%lld/log?after=%lld&"
		    "limit=7", (long long)game, (long long)after);
		j = http_json(NULL, "GET", path, NULL, &status);
		ck_assert_int_eq(status, 200);
		json_array_foreach(json_object_get(j, "entries"), i, e) {
			ck_assert(json_is_false(json_object_get(e,
			    "redacted")));
			ck_assert_int_eq(json_integer_value(json_object_get(e,
			    "seq")), after + 1);
			json_array_append(entries, e);
			after++;
		}
		pages++;
		if (!json_is_true(json_object_get(j, "more"))) {
			bundle = json_pack("{s:s, s:O, s:I, s:o, s:O}",
			    "format", "pbem-bundle-v1", "server_key",
			    json_object_get(j, "server_key"), "game",
			    (json_int_t)game, "entries", entries, "seed",
			    json_object_get(j, "seed"));
			json_decref(j);
			break;
		}
		ck_assert_int_eq(json_integer_value(json_object_get(j,
		    "next_after")), after);
		json_decref(j);
	}
	ck_assert_int_eq(after, moves);
	ck_assert_int_eq(pages, (moves + 1) / 7 + 1);
	ck_assert_msg(bundle_read(bundle, &log, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_msg(audit_run(&log, &report, NULL, NULL) == 0,
	    "offline audit of the log pages: entry %lld: %s",
	    (long long)report.bad_seq, report.reason);
	ck_assert(report.replayed);
	audit_log_clear(&log);
	json_decref(bundle);
}

/* POST url to path as who: 400, the message holding why. */
static void
refused_webhook(const struct player *who, const char *path, const char *url,
    const char *why)
{
	char body[256];
	const char *msg;
	long status;
	json_t *j;

	snprintf(body, sizeof(body), "{\"url\": \"%s\"}", url);
	j = http_json(who, "POST", path, body, &status);
	ck_assert_int_eq(status, 400);
	msg = json_string_value(json_object_get(json_object_get(j, "error"),
	    "message"));
	ck_assert_msg(msg != NULL && strstr(msg, why) != NULL, "%s: %s", url,
	    msg);
	json_decref(j);
}

/* A game's players may manage their own webhooks in it with signed
 * requests; nobody else may, a player sees and removes only their own,
 * internal hosts are refused, and a game has a cap.  A signed request is
 * no key to the global ones. */
static void
check_game_webhooks(int64_t game)
{
	char path[128];
	int64_t id;
	long status;
	json_t *j;

	snprintf(path, sizeof(path), "/v1/games/%lld/webhooks",
	    (long long)game);
	j = http_json(&bob, "POST", path, "{\"url\": "
	    "\"http://127.0.0.1:9/hook\"}", &status);
	ck_assert_int_eq(status, 403);
	ck_assert_str_eq(error_code(j), "not_seated");
	json_decref(j);
	j = http_json(NULL, "POST", path, "{\"url\": "
	    "\"http://127.0.0.1:9/hook\"}", &status);
	ck_assert_int_eq(status, 403);		/* no admin token set */
	json_decref(j);
	j = http_json(&alice, "POST", path, "{\"url\": "
	    "\"ftp://127.0.0.1/hook\"}", &status);
	ck_assert_int_eq(status, 400);
	json_decref(j);
	/* Internal addresses (issue 14): a port scanner no more. */
	refused_webhook(&alice, path, "http://127.0.0.1:22/",
	    "public addresses");
	refused_webhook(&alice, path, "http://[::1]:9/", "public addresses");
	refused_webhook(&alice, path, "http://localhost:9/",
	    "public addresses");
	j = http_json(&alice, "POST", path, "{\"url\": "
	    "\"http://127.0.0.1:9/hook\", \"events\": [\"game_over\"]}",
	    &status);
	ck_assert_int_eq(status, 201);
	ck_assert_ptr_nonnull(json_string_value(json_object_get(j,
	    "secret")));
	/* events come back as a list, whichever form was sent. */
	ck_assert_int_eq(json_array_size(json_object_get(j, "events")), 1);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(j,
	    "events"), 0)), "game_over");
	id = json_integer_value(json_object_get(j, "id"));
	ck_assert_int_gt(id, 0);
	json_decref(j);
	/* carol, seated too, sees none of alice's; alice sees hers. */
	j = http_json(&carol, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_int_eq(json_array_size(json_object_get(j, "webhooks")), 0);
	json_decref(j);
	j = http_json(&alice, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_int_eq(json_array_size(json_object_get(j, "webhooks")), 1);
	ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(j,
	    "webhooks"), 0), "secret"));
	json_decref(j);
	j = http_json(&alice, "GET", "/v1/webhooks", NULL, &status);
	ck_assert_int_ne(status, 200);		/* the global list is admin's */
	json_decref(j);
	/* The cap of the game: two (webhook_max_per_game=2 here). */
	j = http_json(&carol, "POST", path, "{\"url\": "
	    "\"http://127.0.0.1:9/c\"}", &status);
	ck_assert_int_eq(status, 201);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(j,
	    "events"), 0)), "*");		/* every event */
	json_decref(j);
	refused_webhook(&carol, path, "http://127.0.0.1:9/c2",
	    "webhook_max_per_game");
	snprintf(path, sizeof(path), "/v1/games/%lld/webhooks/%lld",
	    (long long)game, (long long)id);
	j = http_json(&bob, "DELETE", path, NULL, &status);
	ck_assert_int_eq(status, 403);
	json_decref(j);
	j = http_json(&carol, "DELETE", path, NULL, &status);
	ck_assert_int_eq(status, 404);		/* alice's, not carol's */
	ck_assert_str_eq(error_code(j), "not_found");
	json_decref(j);
	j = http_json(&alice, "DELETE", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	json_decref(j);
}

/* The player's pages under /play/ (docs/WEB.md), each answer recorded
 * for openapi-test.sh: the static files, the public page, a sign-in link
 * (its page, then its POST setting the session cookie), the seat's page
 * with and without the cookie, a move form without its token, without
 * its move and from a player who keeps her own key, the bots forms
 * without their token, and a code that is none. */
static void
check_play_pages(int64_t game)
{
	char target[160], code[ENGINE_TOKEN_LEN + 1], cookie[300];
	char csrf[ENGINE_CSRF_LEN + 1], form[200];
	const char *field;
	struct store_player p;
	struct reply r;

	http_raw("GET", "/play/static/play.js", NULL, NULL, &r);
	ck_assert_int_eq(r.status, 200);
	free(r.body);
	http_raw("GET", "/play/static/play.css", NULL, NULL, &r);
	ck_assert_int_eq(r.status, 200);
	free(r.body);
	snprintf(target, sizeof(target), "/play/games/%lld/public?lang=fr",
	    (long long)game);
	http_raw("GET", target, NULL, NULL, &r);
	ck_assert_int_eq(r.status, 200);
	ck_assert_ptr_nonnull(strstr(r.body, "lang=\"fr\""));
	free(r.body);
	/* An unknown language on a page: a page in both languages, 400. */
	snprintf(target, sizeof(target), "/play/games/%lld/public?lang=xx",
	    (long long)game);
	http_raw("GET", target, NULL, NULL, &r);
	ck_assert_int_eq(r.status, 400);
	ck_assert_msg(strstr(r.body, "<html") != NULL && strstr(r.body,
	    "lang=en (English) or lang=fr (French)") != NULL && strstr(r.body,
	    "lang=en (anglais) ou lang=fr (français)") != NULL, "%s", r.body);
	ck_assert_ptr_null(strstr(r.body, "\"error\""));
	free(r.body);
	snprintf(target, sizeof(target), "/play/games/%lld", (long long)game);
	http_raw("GET", target, NULL, NULL, &r);
	ck_assert_msg(r.status == 401 || r.status == 303, "%ld", r.status);
	free(r.body);
	http_raw("GET", "/play/0123456789abcdef0123456789abcdef", NULL, NULL,
	    &r);
	/* The link's page signs nothing in: it shows its button even for
	 * a code that is none; the POST refuses it. */
	ck_assert_int_eq(r.status, 200);
	free(r.body);
	http_raw("POST", "/play/0123456789abcdef0123456789abcdef", "", NULL,
	    &r);
	ck_assert_msg(r.status == 404 || r.status == 410, "%ld", r.status);
	free(r.body);

	ck_assert_int_eq(store_player_find(env.st, "alice", &p), STORE_OK);
	ck_assert_int_eq(engine_play_token_issue(env.st, game, 0, p.id,
	    (int64_t)time(NULL) + 3600, code), STORE_OK);
	snprintf(target, sizeof(target), "/play/%s", code);
	http_raw("GET", target, NULL, NULL, &r);
	ck_assert_int_eq(r.status, 200);
	free(r.body);
	http_raw("POST", target, "", NULL, &r);
	ck_assert_int_eq(r.status, 303);
	ck_assert_msg(r.cookie[0] != '\0', "no session cookie");
	snprintf(cookie, sizeof(cookie), "Cookie: %s", r.cookie);
	free(r.body);
	snprintf(target, sizeof(target), "/play/games/%lld", (long long)game);
	http_raw_header("GET", target, NULL, cookie, &r);
	ck_assert_int_eq(r.status, 200);
	/* The page's forms carry the session's form token. */
	ck_assert_ptr_nonnull(field = strstr(r.body, "name=\"csrf\" value=\""));
	field += strlen("name=\"csrf\" value=\"");
	snprintf(csrf, sizeof(csrf), "%.*s", (int)strcspn(field, "\""),
	    field);
	free(r.body);
	snprintf(target, sizeof(target), "/play/games/%lld/move",
	    (long long)game);
	http_raw_header("POST", target, "move=x&seq=1", cookie, &r);
	ck_assert_int_eq(r.status, 403);		/* no form token */
	free(r.body);
	/* With the token: a form without its move is refused (400), and
	 * alice, who keeps her own key, is told to sign it herself (403). */
	snprintf(form, sizeof(form), "csrf=%s&seq=1", csrf);
	http_raw_header("POST", target, form, cookie, &r);
	ck_assert_msg(r.status == 400, "%ld %s", r.status, r.body);
	free(r.body);
	snprintf(form, sizeof(form), "csrf=%s&move=x&seq=1", csrf);
	http_raw_header("POST", target, form, cookie, &r);
	ck_assert_msg(r.status == 403, "%ld %s", r.status, r.body);
	ck_assert_ptr_null(strstr(r.body, "out of date"));
	free(r.body);
	/* The bots forms (docs/WEB.md "Bots"): without their token,
	 * refused and nothing kept (tests/web-bots-e2e.sh fills them). */
	snprintf(target, sizeof(target), "/play/games/%lld/bots",
	    (long long)game);
	http_raw_header("POST", target, "bot=x&cover=all&scope=moves&"
	    "expires=2099-01-01", cookie, &r);
	ck_assert_int_eq(r.status, 403);
	free(r.body);
	snprintf(target, sizeof(target), "/play/games/%lld/bots/revoke",
	    (long long)game);
	http_raw_header("POST", target, "id=0123456789abcdef", cookie, &r);
	ck_assert_int_eq(r.status, 403);
	free(r.body);
}

/* A game master's command over HTTP is answered in the master's
 * language (alice: English), whatever seat its block names (carol's
 * reads French). */
static void
check_master_command_lang(int64_t game)
{
	struct proto_move m;
	char block[PROTO_ARMOUR_MAX], path[64];
	long status;
	json_t *j;
	int seat;

	snprintf(path, sizeof(path), "/v1/games/%lld/commands",
	    (long long)game);
	for (seat = 0; seat < 2; seat++) {
		memset(&m, 0, sizeof(m));
		m.game_id = game;
		m.seq = 1;
		m.seat = seat;
		snprintf(m.text, sizeof(m.text), "gm resume");
		proto_move_sign(&m, alice.sk);
		ck_assert(proto_move_armour(&m, block, sizeof(block)) > 0);
		j = http_json(NULL, "POST", path, block, &status);
		ck_assert_msg(status >= 400 && strstr(error_message(j),
		    "is not paused") != NULL, "gm resume (seat %d): %ld %s",
		    seat, status, error_message(j));
		json_decref(j);
	}
}

/* alice's move block for seat 0 with sequence number 0 (always stale),
 * posted: the refusal's message into out. */
static void
stale_move_message(int64_t game, char *out, size_t outlen)
{
	struct proto_move m;
	char block[PROTO_ARMOUR_MAX], path[64];
	long status;
	json_t *j;

	memset(&m, 0, sizeof(m));
	m.game_id = game;
	m.seat = 0;
	snprintf(m.text, sizeof(m.text), "pass");
	proto_move_sign(&m, alice.sk);
	ck_assert(proto_move_armour(&m, block, sizeof(block)) > 0);
	snprintf(path, sizeof(path), "/v1/games/%lld/moves", (long long)game);
	j = http_json(NULL, "POST", path, block, &status);
	ck_assert_msg(status >= 400 && status < 500, "%ld", status);
	snprintf(out, outlen, "%s", error_message(j));
	json_decref(j);
}

/* alice's signed command text for seat 0, command number n: 200. */
static void
alice_command(int64_t game, int64_t n, const char *text)
{
	struct proto_move m;
	char block[PROTO_ARMOUR_MAX], path[64];
	long status;
	json_t *j;

	memset(&m, 0, sizeof(m));
	m.game_id = game;
	m.seq = n;
	m.seat = 0;
	snprintf(m.text, sizeof(m.text), "%s", text);
	proto_move_sign(&m, alice.sk);
	ck_assert(proto_move_armour(&m, block, sizeof(block)) > 0);
	snprintf(path, sizeof(path), "/v1/games/%lld/commands",
	    (long long)game);
	j = http_json(NULL, "POST", path, block, &status);
	ck_assert_msg(status == 200, "%s: %ld %s", text, status,
	    error_message(j));
	json_decref(j);
}

/* A player who changes language (the signed command "language fr") has
 * the next refusal of a move in the new language: the server's cache of
 * seats and keys does not keep the old one.  Back to English after. */
static void
check_language_change(int64_t game)
{
	struct store_player p;
	char before[512], after[512];
	int round;

	/* Several rounds: every HTTP thread has its store connection open
	 * (an opening also moves the caches' generation on) by the last. */
	for (round = 0; round < 8; round++) {
		stale_move_message(game, before, sizeof(before));
		ck_assert_msg(strstr(before, "stale sequence number") != NULL,
		    "round %d: %s", round, before);
		alice_command(game, 50 + 2 * round, "language fr");
		stale_move_message(game, after, sizeof(after));
		ck_assert_msg(strstr(after, "numéro de coup périmé") != NULL,
		    "round %d: %s", round, after);
		alice_command(game, 51 + 2 * round, "langue en");
		stale_move_message(game, after, sizeof(after));
		ck_assert_str_eq(after, before);
	}
	/* Changed by another process (as `pbemctl player lang' while pbemd
	 * runs): seen within pbemd's second of keeping seats unread. */
	ck_assert_int_eq(store_player_find(env.st, "alice", &p), STORE_OK);
	ck_assert_int_eq(store_player_set_lang(env.st, p.id, "fr"), STORE_OK);
	usleep(1100 * 1000);
	stale_move_message(game, after, sizeof(after));
	ck_assert_msg(strstr(after, "numéro de coup périmé") != NULL,
	    "changed by another process: %s", after);
	ck_assert_int_eq(store_player_set_lang(env.st, p.id, "en"), STORE_OK);
	usleep(1100 * 1000);
	stale_move_message(game, after, sizeof(after));
	ck_assert_str_eq(after, before);
}

START_TEST(test_http_api)
{
	char path[128];
	int64_t game;
	long status;
	json_t *j;
	int moves;

	register_player(&alice, "en");
	register_player(&bob, "fr");
	register_player(&carol, "fr");
	check_registration_refusals();
	check_signing_refusals();
	game = form_game();		/* alice and carol */
	join_and_leave();
	check_master_command_lang(game);

	/* A seat's view: unsigned, another player, the holder. */
	snprintf(path, sizeof(path), "/v1/games/%lld/seats/1",
	    (long long)game);
	j = http_json(NULL, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 401);
	json_decref(j);
	j = http_json(&bob, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 403);
	ck_assert_str_eq(error_code(j), "not_your_seat");
	json_decref(j);
	j = http_json(&alice, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 403);
	json_decref(j);

	check_game_webhooks(game);
	check_play_pages(game);
	check_language_change(game);
	moves = play(game);
	ck_assert_int_gt(moves, 5);
	check_long_poll(game);
	check_end(game, moves);
}
END_TEST

/* The value of the first `name="NAME" value="..."' of page into out. */
static void
form_value(const char *page, const char *name, char *out, size_t outlen)
{
	char pattern[64];
	const char *at;

	snprintf(pattern, sizeof(pattern), "name=\"%s\" value=\"", name);
	ck_assert_msg((at = strstr(page, pattern)) != NULL, "no %s field",
	    name);
	at += strlen(pattern);
	snprintf(out, outlen, "%.*s", (int)strcspn(at, "\""), at);
}

/* A move played from the web page by a player whose key the server
 * holds: 303 back to the seat page, and the move is in the log. */
START_TEST(test_http_web_move)
{
	char err[512], path[400], code[ENGINE_TOKEN_LEN + 1], cookie[300];
	char move[200], seq[32], csrf[ENGINE_CSRF_LEN + 1], form[600];
	const char *names[2] = { "hank", "hugo" };
	struct store_player p;
	struct hosted_kek *kek;
	struct reply r;
	int64_t players[2], game, next, after;
	char *escaped;
	int i, seat, started;
	CURL *c;

	snprintf(path, sizeof(path), "%s.kek", env.dbpath);
	ck_assert_ptr_nonnull(kek = hosted_kek_open(path, 1, err,
	    sizeof(err)));
	ck_assert_int_eq(store_begin(env.st), STORE_OK);
	for (i = 0; i < 2; i++) {
		memset(&p, 0, sizeof(p));
		snprintf(p.name, sizeof(p.name), "%s", names[i]);
		snprintf(p.email, sizeof(p.email), "%s@example.org",
		    names[i]);
		snprintf(p.lang, sizeof(p.lang), "en");
		ck_assert_int_eq(engine_hosted_player_add(env.st, kek, &p, err,
		    sizeof(err)), ENGINE_OK);
		players[i] = p.id;
	}
	ck_assert_int_eq(store_commit(env.st), STORE_OK);
	hosted_kek_close(kek);
	ck_assert_int_eq(engine_form_game(env.st, env.key, "template", NULL,
	    players, 2, &game, &started, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(started, 1);
	seat = testenv_to_act(&env, game, &next);
	ck_assert_int_ge(seat, 0);

	ck_assert_int_eq(engine_play_token_issue(env.st, game, seat,
	    players[seat], (int64_t)time(NULL) + 3600, code), STORE_OK);
	snprintf(path, sizeof(path), "/play/%s", code);
	http_raw("POST", path, "", NULL, &r);
	ck_assert_int_eq(r.status, 303);
	snprintf(cookie, sizeof(cookie), "Cookie: %s", r.cookie);
	free(r.body);
	snprintf(path, sizeof(path), "/play/games/%lld", (long long)game);
	http_raw_header("GET", path, NULL, cookie, &r);
	ck_assert_int_eq(r.status, 200);
	form_value(r.body, "move", move, sizeof(move));
	form_value(r.body, "seq", seq, sizeof(seq));
	form_value(r.body, "csrf", csrf, sizeof(csrf));
	free(r.body);
	ck_assert_ptr_nonnull(c = curl_easy_init());
	ck_assert_ptr_nonnull(escaped = curl_easy_escape(c, move, 0));
	snprintf(form, sizeof(form), "move=%s&seq=%s&csrf=%s", escaped, seq,
	    csrf);
	curl_free(escaped);
	curl_easy_cleanup(c);
	snprintf(path, sizeof(path), "/play/games/%lld/move", (long long)game);
	http_raw_header("POST", path, form, cookie, &r);
	ck_assert_msg(r.status == 303, "%ld %s", r.status, r.body);
	free(r.body);
	(void)testenv_to_act(&env, game, &after);
	ck_assert_int_eq(after, next + 1);
}
END_TEST

/* A game with a seat the server plays (docs/SERVER-BOTS.md): a player
 * seats a bot without anyone's consent, the game starts at once, and
 * the bot's made-up name is in the summary; a bad level is refused. */
START_TEST(test_http_bot_seats)
{
	long status;
	json_t *j;
	const char *bot;

	register_player(&alice, "en");
	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"template\", \"players\": [\"alice\", \"@bot:normal\"]}",
	    &status);
	ck_assert_msg(status == 201, "create: %ld %s", status,
	    error_message(j));
	ck_assert_str_eq(json_string_value(json_object_get(j, "status")),
	    "running");
	bot = json_string_value(json_array_get(json_object_get(j, "players"),
	    1));
	ck_assert_ptr_nonnull(bot);
	ck_assert_int_eq(strncmp(bot, "@bot-", 5), 0);
	json_decref(j);
	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"template\", \"players\": [\"alice\", \"@bot:genius\"]}",
	    &status);
	ck_assert_int_eq(status, 400);
	ck_assert_ptr_nonnull(strstr(error_message(j),
	    "the levels are random and normal"));
	json_decref(j);
}
END_TEST

/* ---- The security review (issue 14) ------------------------------------ */

static const char *const limit_options[] = {
	"http_threads=4", "rate_per_address=0", "rate_per_key=1",
	"rate_per_key_burst=6", "forming_games_per_player=2",
	"webhook_admin_token=sekrit", "http_request_timeout=2",
	"http_max_connections=16", "webhook_allow_hosts=127.0.0.1:9", NULL
};

/* An Authorization: Bearer request. */
static json_t *
http_bearer(const char *token, const char *method, const char *target,
    const char *body, long *status)
{
	char auth[128];
	struct reply r;
	json_t *j;

	snprintf(auth, sizeof(auth), "Bearer %s", token);
	http_raw(method, target, body, auth, &r);
	j = json_loads(r.body, 0, NULL);
	ck_assert_msg(j != NULL, "%s %s: not JSON (%ld)", method, target,
	    r.status);
	*status = r.status;
	free(r.body);
	return j;
}

static int
games_count(void)
{
	long status;
	json_t *j = http_json(NULL, "GET", "/v1/games?limit=100", NULL,
	    &status);
	int n;

	ck_assert_int_eq(status, 200);
	n = (int)json_array_size(json_object_get(j, "games"));
	json_decref(j);
	return n;
}

/* Register name with key (lang: the body's "lang", or NULL) at path:
 * refused as player_exists with exactly want. */
static void
refused_by_case(const char *path, const char *name, const char *key,
    const char *lang, const char *want)
{
	char body[512];
	long status;
	json_t *j;

	snprintf(body, sizeof(body), "{\"name\": \"%s\", \"key\": \"%s\"%s%s%s}",
	    name, key, lang != NULL ? ", \"lang\": \"" : "", lang != NULL ?
	    lang : "", lang != NULL ? "\"" : "");
	j = http_json(NULL, "POST", path, body, &status);
	ck_assert_int_eq(status, 409);
	ck_assert_str_eq(error_code(j), "player_exists");
	ck_assert_str_eq(error_message(j), want);
	json_decref(j);
}

/* Names equal but for case: the second is refused, naming the first, in
 * the language the player asks for (the body's lang, or ?lang=). */
static void
check_names_by_case(void)
{
	struct player eve = { .name = "eve0" }, Eve = { .name = "Eve0" };
	char key[PROTO_KEY_TEXT_MAX];

	register_player(&eve, "en");
	crypto_sign_keypair(Eve.pk, Eve.sk);
	proto_pubkey_format(Eve.pk, key, sizeof(key));
	refused_by_case("/v1/players", "Eve0", key, NULL, "the name Eve0 is "
	    "taken: player eve0 exists, and names that differ only by case "
	    "are the same name; choose another name");
	refused_by_case("/v1/players", "EVE0", key, "fr", "le nom EVE0 est "
	    "pris : le joueur eve0 existe, et deux noms qui ne diffèrent que "
	    "par les majuscules sont le même nom ; choisissez un autre nom");
	refused_by_case("/v1/players?lang=fr", "eVe0", key, NULL, "le nom eVe0 "
	    "est pris : le joueur eve0 existe, et deux noms qui ne diffèrent "
	    "que par les majuscules sont le même nom ; choisissez un autre "
	    "nom");
}

/* Nobody is seated without consent; the administrator may seat; the
 * forming cap refuses with its setting named.  Returns the running
 * game the administrator made (alice and bob). */
static int64_t
check_consent_and_cap(void)
{
	int64_t game;
	long status;
	json_t *j;
	int before = games_count();

	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"players\": [\"alice\", \"bob\"]}", &status);
	ck_assert_int_eq(status, 403);
	ck_assert_str_eq(error_code(j), "consent_required");
	ck_assert_ptr_nonnull(strstr(error_message(j), "seat 1: bob is "
	    "another player"));
	json_decref(j);
	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"players\": [null, null]}", &status);
	ck_assert_int_eq(status, 400);
	json_decref(j);
	ck_assert_int_eq(games_count(), before);	/* nothing made */
	j = http_bearer("wrong", "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"players\": [\"alice\", \"bob\"]}", &status);
	ck_assert_int_eq(status, 401);
	json_decref(j);
	j = http_bearer("sekrit", "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"players\": [\"alice\", \"bob\"]}", &status);
	ck_assert_msg(status == 201, "%ld %s", status, error_message(j));
	ck_assert(json_is_true(json_object_get(j, "started")));
	game = json_integer_value(json_object_get(j, "id"));
	json_decref(j);

	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"seats\": 2}", &status);
	ck_assert_int_eq(status, 201);
	json_decref(j);
	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"players\": [null, \"alice\"]}", &status);
	ck_assert_int_eq(status, 201);
	json_decref(j);
	j = http_json(&alice, "POST", "/v1/games", "{\"ruleset\": "
	    "\"stmissions\", \"seats\": 2}", &status);
	ck_assert_int_eq(status, 409);
	ck_assert_str_eq(error_code(j), "too_many_forming_games");
	ck_assert_ptr_nonnull(strstr(error_message(j),
	    "forming_games_per_player = 2"));
	json_decref(j);
	ck_assert_int_eq(games_count(), before + 3);
	return game;
}

/* GET /v1/games page by page (limit 1) lists every game exactly once,
 * in order, and ends with next = null; id= picks games; limit is
 * bounded. */
static void
check_paging(void)
{
	int64_t seen[16], after = 0, want;
	char target[128];
	long status;
	json_t *j, *next;
	int n = 0, total = games_count(), i;

	for (;;) {
		snprintf(target, sizeof(target), "/v1/games?limit=1&after=%lld",
		    (long long)after);
		j = http_json(NULL, "GET", target, NULL, &status);
		ck_assert_int_eq(status, 200);
		ck_assert_int_le(json_array_size(json_object_get(j, "games")),
		    1);
		if (json_array_size(json_object_get(j, "games")) == 1) {
			ck_assert_int_lt(n, 16);
			seen[n] = json_integer_value(json_object_get(
			    json_array_get(json_object_get(j, "games"), 0),
			    "id"));
			if (n > 0)
				ck_assert_int_gt(seen[n], seen[n - 1]);
			n++;
		}
		next = json_object_get(j, "next");
		if (json_is_null(next)) {
			json_decref(j);
			break;
		}
		after = json_integer_value(next);
		json_decref(j);
	}
	ck_assert_int_eq(n, total);
	snprintf(target, sizeof(target), "/v1/games?id=%lld,%lld,99999",
	    (long long)seen[n - 1], (long long)seen[0]);
	j = http_json(NULL, "GET", target, NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_int_eq(json_array_size(json_object_get(j, "games")), 2);
	want = json_integer_value(json_object_get(json_array_get(
	    json_object_get(j, "games"), 0), "id"));
	ck_assert_int_eq(want, seen[0]);
	ck_assert(json_is_null(json_object_get(j, "next")));
	json_decref(j);
	for (i = 0; i < 2; i++) {
		j = http_json(NULL, "GET", i == 0 ? "/v1/games?limit=101" :
		    "/v1/games?id=1,x", NULL, &status);
		ck_assert_int_eq(status, 400);
		json_decref(j);
	}
	j = http_json(&alice, "GET", "/v1/players/me?limit=1", NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_int_eq(json_array_size(json_object_get(j, "games")), 1);
	ck_assert(json_is_integer(json_object_get(j, "next")));
	json_decref(j);
}

/* Every signed route spends the key's tokens, commands (press) too. */
static void
check_key_limit_on_commands(int64_t game)
{
	struct proto_move m;
	char block[PROTO_ARMOUR_MAX], path[64];
	long status;
	json_t *j;
	int i;

	for (i = 0; i < 6; i++) {
		j = http_json(&bob, "GET", "/v1/players/me", NULL, &status);
		ck_assert_int_eq(status, 200);
		json_decref(j);
	}
	memset(&m, 0, sizeof(m));
	m.game_id = game;
	m.seq = 1;
	m.seat = 1;
	snprintf(m.text, sizeof(m.text), "press all: hello");
	proto_move_sign(&m, bob.sk);
	ck_assert(proto_move_armour(&m, block, sizeof(block)) > 0);
	snprintf(path, sizeof(path), "/v1/games/%lld/commands",
	    (long long)game);
	j = http_json(NULL, "POST", path, block, &status);
	ck_assert_msg(status == 429, "press with no token left: %ld %s",
	    status, error_message(j));
	/* bob plays in French: his refusal is French */
	ck_assert_msg(strstr(error_message(j), "trop de commandes signées "
	    "avec la clé du siège 1") != NULL && strstr(error_message(j),
	    "1 par minute pour les requêtes signées avec la clé d'un "
	    "joueur") != NULL, "%s", error_message(j));
	json_decref(j);
	/* the same refusal in English, when asked */
	snprintf(path, sizeof(path), "/v1/games/%lld/commands?lang=en",
	    (long long)game);
	j = http_json(NULL, "POST", path, block, &status);
	ck_assert_int_eq(status, 429);
	ck_assert_msg(strstr(error_message(j), "too many commands signed "
	    "with the key of seat 1") != NULL && strstr(error_message(j),
	    "a minute for the requests signed with one player's key") !=
	    NULL, "%s", error_message(j));
	json_decref(j);
}

/* A half-sent request from addr (127.0.0.x): the socket. */
static int
slow_client(const char *addr)
{
	struct sockaddr_in sin;
	const char *partial = "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ";
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_ge(fd, 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	ck_assert_int_eq(inet_pton(AF_INET, addr, &sin.sin_addr), 1);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	sin.sin_port = htons((uint16_t)pbemd_port);
	ck_assert_int_eq(inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr), 1);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	ck_assert_int_eq(write(fd, partial, strlen(partial)),
	    (ssize_t)strlen(partial));
	return fd;
}

/* Slow-loris: 16 half-sent requests from four addresses fill
 * http_max_connections; a new client is answered 503 (not dropped),
 * each slow connection is closed once http_request_timeout (2 s) has
 * passed -- it is seen closed within 20 s, whatever the machine's load
 * -- and the server answers again.  Bounded: 16 sockets, 20 s. */
static void
check_slow_loris(void)
{
	struct pollfd pfd;
	struct reply r;
	char addr[32], buf[256];
	double until;
	int fds[16], i, closed = 0, n;

	for (i = 0; i < 16; i++) {
		snprintf(addr, sizeof(addr), "127.0.0.%d", 2 + i / 4);
		fds[i] = slow_client(addr);
	}
	usleep(200 * 1000);	/* let pbemd accept them all */
	http_raw("GET", "/v1/health", NULL, NULL, &r);
	ck_assert_msg(r.status == 503, "a new client over the limit got %ld "
	    "(0: no answer)", r.status);
	ck_assert_ptr_nonnull(strstr(r.body, "http_max_connections"));
	free(r.body);
	until = now_mono() + 20;
	for (i = 0; i < 16; i++) {
		while (now_mono() < until) {
			pfd.fd = fds[i];
			pfd.events = POLLIN;
			if (poll(&pfd, 1, 200) > 0) {
				n = (int)read(fds[i], buf, sizeof(buf));
				if (n <= 0) {
					closed++;
					break;
				}
			}
		}
		close(fds[i]);
	}
	ck_assert_msg(closed == 16, "only %d of 16 slow connections were "
	    "closed", closed);
	/* pbemd counts a connection until libmicrohttpd has finished with
	 * it, a moment after the client sees it closed: the server must be
	 * answering again soon (within 10 s, whatever the load). */
	for (until = now_mono() + 10;; usleep(100 * 1000)) {
		http_raw("GET", "/v1/health", NULL, NULL, &r);
		if (r.status == 200 || now_mono() > until)
			break;
		free(r.body);
	}
	ck_assert_int_eq(r.status, 200);
	free(r.body);
}

/* The routes the other checks do not call, so that docs/openapi.yaml's
 * check (tests/openapi-test.sh) sees their answers too: the rulesets,
 * the metrics, and the administrator's global webhooks, whose "events"
 * sent as a comma string are listed as a list. */
static void
check_admin_routes(void)
{
	char path[64];
	struct reply r;
	long status;
	int64_t id;
	json_t *j, *events;

	j = http_json(NULL, "GET", "/v1/rulesets", NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_int_gt(json_array_size(json_object_get(j, "rulesets")), 0);
	json_decref(j);
	http_raw("GET", "/v1/metrics", NULL, NULL, &r);
	ck_assert_int_eq(r.status, 200);
	ck_assert_ptr_nonnull(strstr(r.body, "pbem_"));
	free(r.body);
	j = http_bearer("sekrit", "POST", "/v1/webhooks", "{\"url\": "
	    "\"http://127.0.0.1:9/all\", \"events\": \"move,game_over\"}",
	    &status);
	ck_assert_msg(status == 201, "%ld %s", status, error_message(j));
	events = json_object_get(j, "events");
	ck_assert_int_eq(json_array_size(events), 2);
	ck_assert_str_eq(json_string_value(json_array_get(events, 0)), "move");
	ck_assert_str_eq(json_string_value(json_array_get(events, 1)),
	    "game_over");
	ck_assert(json_is_null(json_object_get(j, "game")));
	id = json_integer_value(json_object_get(j, "id"));
	json_decref(j);
	j = http_bearer("sekrit", "GET", "/v1/webhooks", NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_int_ge(json_array_size(json_object_get(j, "webhooks")), 1);
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/webhooks/%lld", (long long)id);
	j = http_bearer("sekrit", "DELETE", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "deleted")), id);
	json_decref(j);
	j = http_bearer("sekrit", "DELETE", path, NULL, &status);
	ck_assert_int_eq(status, 404);
	json_decref(j);
}

START_TEST(test_http_limits)
{
	int64_t game;

	register_player(&alice, "en");
	register_player(&bob, "fr");
	check_names_by_case();
	game = check_consent_and_cap();
	check_paging();
	check_admin_routes();
	check_key_limit_on_commands(game);
	check_slow_loris();
}
END_TEST

/* ---- One stream for all games; Server-Sent Events (issue 13) ------------ */

static const char *const stream_options[] = {
	/* One HTTP thread: open streams must not hold it.  A 4-second idle
	 * timeout makes the keep-alive period 2 s; streams end after 6 s;
	 * 4 connections per address. */
	"http_threads=1", "http_timeout=4", "http_stream_max_seconds=6",
	"http_max_connections_per_address=4", "rate_per_key=0",
	"rate_per_address=0", "http_auth_window=120", NULL
};

/* A Server-Sent Events request for target from the address from
 * (127.0.0.x), HTTP/1.0 so that the body comes unchunked: the socket. */
static int
sse_open(const char *from, const char *target, const char *last_event_id)
{
	struct sockaddr_in sin;
	char request[512];
	int fd = socket(AF_INET, SOCK_STREAM, 0), n;

	ck_assert_int_ge(fd, 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	ck_assert_int_eq(inet_pton(AF_INET, from, &sin.sin_addr), 1);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	sin.sin_port = htons((uint16_t)pbemd_port);
	ck_assert_int_eq(inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr), 1);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	n = snprintf(request, sizeof(request), "GET %s HTTP/1.0\r\n"
	    "Host: x\r\nAccept: text/html, text/event-stream\r\n%s%s%s\r\n",
	    target, last_event_id != NULL ? "Last-Event-ID: " : "",
	    last_event_id != NULL ? last_event_id : "",
	    last_event_id != NULL ? "\r\n" : "");
	ck_assert_int_eq(write(fd, request, (size_t)n), n);
	return fd;
}

/* What a stream has sent so far. */
struct sse_read {
	char	text[65536];
	size_t	len;
	int	closed;
};

/* With PBEM_API_RECORD, the answer a stream read so far, as
 * record_answer() writes one: its status, Content-Type and body (the
 * frames; openapi-check.py checks those a blank line ends). */
static void
sse_record(const char *target, const struct sse_read *r)
{
	const char *file = getenv("PBEM_API_RECORD");
	const char *body, *type;
	char media[128] = "";
	json_t *line;
	FILE *out;
	int status;

	if (file == NULL || file[0] == '\0' || r->len < 12 ||
	    sscanf(r->text, "HTTP/1.%*c %d", &status) != 1 ||
	    (body = strstr(r->text, "\r\n\r\n")) == NULL)
		return;
	if ((type = strstr(r->text, "\r\nContent-Type: ")) != NULL &&
	    type < body)
		snprintf(media, sizeof(media), "%.*s", (int)strcspn(type + 16,
		    "\r"), type + 16);
	line = json_pack("{s:s, s:s%, s:i, s:s, s:s, s:s}", "method", "GET",
	    "path", target, strcspn(target, "?"), "status", status,
	    "content_type", media, "allow", "", "body", body + 4);
	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_nonnull(out = fopen(file, "a"));
	ck_assert_int_eq(json_dumpf(line, out, JSON_COMPACT), 0);
	fputc('\n', out);
	ck_assert_int_eq(fclose(out), 0);
	json_decref(line);
}

/* Read from fd into r until want appears after offset `from` (NULL:
 * until the server closes), for at most `seconds`.  1 if seen. */
static int
sse_until(int fd, struct sse_read *r, size_t from, const char *want,
    double seconds)
{
	struct pollfd pfd;
	double until = now_mono() + seconds;
	ssize_t n;

	for (;;) {
		r->text[r->len] = '\0';
		if (want != NULL && r->len >= from &&
		    strstr(r->text + from, want) != NULL)
			return 1;
		if (r->closed || now_mono() > until)
			return want == NULL && r->closed;
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(fd, r->text + r->len, sizeof(r->text) - 1 - r->len);
		if (n <= 0)
			r->closed = 1;
		else
			r->len += (size_t)n;
	}
}

/* The frame with id `id` in r (ck_assert'ed there): its event type and
 * its data, parsed. */
static json_t *
sse_frame(const struct sse_read *r, int64_t id, const char *type)
{
	char head[128];
	const char *at, *data, *end;
	json_t *j;

	snprintf(head, sizeof(head), "\n\nid: %lld\nevent: %s\ndata: {",
	    (long long)id, type);
	at = strstr(r->text, head);
	ck_assert_msg(at != NULL, "no frame \"%s\" in:\n%s", head + 2,
	    r->text);
	data = at + strlen(head) - 1;
	end = strstr(data, "\n\n");
	ck_assert_ptr_nonnull(end);
	/* One data line, then the blank line that ends the frame. */
	ck_assert_ptr_eq(memchr(data, '\n', (size_t)(end - data)), NULL);
	j = json_loadb(data, (size_t)(end - data), 0, NULL);
	ck_assert_ptr_nonnull(j);
	return j;
}

/* The first legal move of the seat to act in game, played. */
static void
play_one(int64_t game)
{
	struct secrets sec;
	json_t *legal;

	load_secrets(game, &sec);
	legal = check_views(game, &sec);
	json_decref(sec.public_view);
	post_move(game, sec.to_act, sec.next_seq,
	    json_string_value(json_array_get(legal, 0)), sec.to_act, 200,
	    NULL);
	json_decref(legal);
}

/* Version 2 of the request signature (SHA-256 body hash) is accepted,
 * and a version 2 signature read as version 1 is not. */
static void
check_request_v2(void)
{
	char auth[REQSIG_HEADER_MAX], *version;
	const char *body = "{\"ruleset\": \"nosuchgame\", \"seats\": 2}";
	struct reply r;
	json_t *j;

	ck_assert_int_eq(reqsig_sign(REQSIG_V2_SHA256, alice.name, "POST",
	    "/v1/games", time(NULL), "v2a", body, strlen(body), alice.sk, auth,
	    sizeof(auth)), 0);
	ck_assert_ptr_nonnull(strstr(auth, ", version=2, "));
	http_raw("POST", "/v1/games", body, auth, &r);
	/* Past the signature: the ruleset is what is refused. */
	ck_assert_msg(r.status == 400 && strstr(r.body, "unknown ruleset") !=
	    NULL, "%ld %s", r.status, r.body);
	free(r.body);
	ck_assert_int_eq(reqsig_sign(REQSIG_V2_SHA256, alice.name, "POST",
	    "/v1/games", time(NULL), "v2b", body, strlen(body), alice.sk, auth,
	    sizeof(auth)), 0);
	version = strstr(auth, "version=2, ");
	memmove(version, version + 11, strlen(version + 11) + 1);
	http_raw("POST", "/v1/games", body, auth, &r);
	ck_assert_int_eq(r.status, 401);
	j = json_loads(r.body, 0, NULL);
	ck_assert_str_eq(error_code(j), "bad_signature");
	json_decref(j);
	free(r.body);
}

START_TEST(test_http_stream)
{
	struct sse_read r, per_game, extra[4];
	struct poll waiter;
	int64_t game1, game2, first_id, second_id, id;
	json_t *j, *events, *e;
	char path[128], last[32];
	struct reply hr;
	size_t i, body;
	long status;
	int fd, fds[4], k;
	double start;

	register_player(&alice, "en");
	register_player(&bob, "fr");
	register_player(&carol, "fr");
	check_request_v2();
	game1 = form_game();
	game2 = form_game();
	play_one(game1);

	/* The long-poll over every game: genesis 1, genesis 2, the move in
	 * game 1, in commit order, with rising ids; no move text before the
	 * end. */
	j = http_json(NULL, "GET", "/v1/events?after=0", NULL, &status);
	ck_assert_int_eq(status, 200);
	events = json_object_get(j, "events");
	ck_assert_uint_eq(json_array_size(events), 3);
	json_array_foreach(events, i, e) {
		ck_assert_int_eq(json_integer_value(json_object_get(e,
		    "game")), (i == 1 ? game2 : game1));
		ck_assert_int_eq(json_integer_value(json_object_get(e,
		    "seq")), (i == 2 ? 1 : 0));
		if (i > 0)
			ck_assert_int_gt(json_integer_value(json_object_get(e,
			    "event_id")), json_integer_value(json_object_get(
			    json_array_get(events, i - 1), "event_id")));
		if (i == 2) {
			ck_assert(json_is_null(json_object_get(e, "text")));
			ck_assert(json_is_true(json_object_get(e,
			    "redacted")));
			ck_assert_ptr_null(json_object_get(e, "signature"));
		}
	}
	/* Each with its player's name and its summaries. */
	assert_events_named(events);
	first_id = json_integer_value(json_object_get(json_array_get(events,
	    0), "event_id"));
	second_id = json_integer_value(json_object_get(json_array_get(events,
	    1), "event_id"));
	id = json_integer_value(json_object_get(j, "next_after"));
	ck_assert_int_eq(id, json_integer_value(json_object_get(
	    json_array_get(events, 2), "event_id")));
	ck_assert(json_is_false(json_object_get(j, "timed_out")));
	json_decref(j);
	j = http_json(NULL, "GET", "/v1/events?after=-1", NULL, &status);
	ck_assert_int_eq(status, 400);
	json_decref(j);

	/* The stream, resumed after the first event: the framing exactly. */
	snprintf(last, sizeof(last), "%lld", (long long)first_id);
	memset(&r, 0, sizeof(r));
	fd = sse_open("127.0.0.1", "/v1/events", last);
	ck_assert(sse_until(fd, &r, 0, "\r\n\r\n", 10));
	ck_assert_msg(strncmp(r.text, "HTTP/1.0 200", 12) == 0 ||
	    strncmp(r.text, "HTTP/1.1 200", 12) == 0, "%s", r.text);
	ck_assert_ptr_nonnull(strstr(r.text,
	    "\r\nContent-Type: text/event-stream; charset=utf-8\r\n"));
	ck_assert_ptr_nonnull(strstr(r.text,
	    "\r\nCache-Control: no-cache\r\n"));
	body = (size_t)(strstr(r.text, "\r\n\r\n") - r.text) + 4;
	snprintf(path, sizeof(path), "\nid: %lld\n", (long long)id);
	ck_assert(sse_until(fd, &r, body, path, 10));
	ck_assert(sse_until(fd, &r, strstr(r.text + body, path) - r.text,
	    "}\n\n", 10));
	snprintf(path, sizeof(path), "retry: 3000\n\nid: %lld\n"
	    "event: genesis\ndata: {", (long long)second_id);
	ck_assert_msg(strncmp(r.text + body, path, strlen(path)) == 0,
	    "the stream begins:\n%s", r.text + body);
	e = sse_frame(&r, second_id, "genesis");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "game")),
	    game2);
	json_decref(e);
	e = sse_frame(&r, id, "move");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "game")),
	    game1);
	ck_assert(json_is_null(json_object_get(e, "text")));
	ck_assert_int_eq(json_integer_value(json_object_get(e, "event_id")),
	    id);
	json_decref(e);

	/* Open streams hold no thread: pbemd has one, and answers. */
	http_raw("GET", "/v1/health", NULL, NULL, &hr);
	ck_assert_int_eq(hr.status, 200);
	free(hr.body);

	/* The long-poll of every game waits, and a move in either game
	 * wakes it; with nothing new it times out, saying so. */
	memset(&waiter, 0, sizeof(waiter));
	snprintf(waiter.target, sizeof(waiter.target),
	    "/v1/events?after=%lld&wait=1", (long long)id);
	poll_main(&waiter);
	ck_assert(json_is_true(json_object_get(waiter.answer, "timed_out")));
	ck_assert_uint_eq(json_array_size(json_object_get(waiter.answer,
	    "events")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(waiter.answer,
	    "next_after")), id);
	ck_assert_msg(waiter.elapsed >= 0.9, "a 1-second poll came back after "
	    "%.2f s", waiter.elapsed);
	json_decref(waiter.answer);
	memset(&waiter, 0, sizeof(waiter));
	snprintf(waiter.target, sizeof(waiter.target),
	    "/v1/events?after=%lld&wait=15", (long long)id);
	ck_assert_int_eq(pthread_create(&waiter.thread, NULL, poll_main,
	    &waiter), 0);
	usleep(300000);
	ck_assert(!waiter.done);
	play_one(game1);
	poll_join(&waiter);
	ck_assert(json_is_false(json_object_get(waiter.answer, "timed_out")));
	e = json_array_get(json_object_get(waiter.answer, "events"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(e, "event_id")),
	    id + 1);
	ck_assert_int_eq(json_integer_value(json_object_get(e, "game")),
	    game1);
	ck_assert(json_is_null(json_object_get(e, "text")));
	json_decref(waiter.answer);
	id++;		/* the stream sees that move next */
	snprintf(path, sizeof(path), "\nid: %lld\nevent: move\n",
	    (long long)id);
	ck_assert(sse_until(fd, &r, body, path, 10));

	/* A move in game 2 arrives on the open stream at once; the game's
	 * own stream, resumed after its seq 0, has it with its seq as id. */
	snprintf(path, sizeof(path), "/v1/games/%lld/events",
	    (long long)game2);
	memset(&per_game, 0, sizeof(per_game));
	fds[0] = sse_open("127.0.0.1", path, "0");
	ck_assert(sse_until(fds[0], &per_game, 0, "retry: 3000\n\n", 10));
	play_one(game2);
	snprintf(path, sizeof(path), "\nid: %lld\nevent: move\n",
	    (long long)id + 1);
	ck_assert(sse_until(fd, &r, body, path, 10));
	ck_assert(sse_until(fd, &r, strstr(r.text + body, path) - r.text,
	    "}\n\n", 10));
	e = sse_frame(&r, id + 1, "move");
	ck_assert_int_eq(json_integer_value(json_object_get(e, "game")),
	    game2);
	ck_assert(json_is_true(json_object_get(e, "redacted")));
	json_decref(e);
	ck_assert(sse_until(fds[0], &per_game, 0, "\nid: 1\nevent: move\n",
	    10));
	ck_assert(sse_until(fds[0], &per_game, 0, "}\n\n", 10));
	e = sse_frame(&per_game, 1, "move");
	ck_assert(json_is_null(json_object_get(e, "text")));
	json_decref(e);
	snprintf(path, sizeof(path), "/v1/games/%lld/events",
	    (long long)game2);
	sse_record(path, &per_game);
	close(fds[0]);

	/* Nothing more: a keep-alive comment within the 2 s period (with
	 * room for a loaded machine), then the end after 6 s. */
	start = now_mono();
	ck_assert(sse_until(fd, &r, body, "\n: keep-alive\n\n", 10));
	ck_assert(sse_until(fd, &r, body, NULL, 20));
	ck_assert_msg(now_mono() - start > 1, "the stream ended at once");
	sse_record("/v1/events", &r);
	close(fd);

	/* A bad Last-Event-ID is refused, saying so. */
	memset(&r, 0, sizeof(r));
	fd = sse_open("127.0.0.1", "/v1/events", "seven");
	ck_assert(sse_until(fd, &r, 0, NULL, 10));
	ck_assert_msg(strncmp(r.text + 9, "400", 3) == 0, "%s", r.text);
	ck_assert_ptr_nonnull(strstr(r.text, "Last-Event-ID: seven"));
	sse_record("/v1/events", &r);
	close(fd);

	/* Bounded per client: four streams from one address, the fifth
	 * connection is closed unanswered; others are still served. */
	for (k = 0; k < 4; k++) {
		memset(&extra[k], 0, sizeof(extra[k]));
		fds[k] = sse_open("127.0.0.9", "/v1/events", NULL);
		ck_assert(sse_until(fds[k], &extra[k], 0, "retry: 3000\n\n",
		    10));
	}
	memset(&r, 0, sizeof(r));
	fd = sse_open("127.0.0.9", "/v1/events", NULL);
	ck_assert(sse_until(fd, &r, 0, NULL, 10));
	ck_assert_msg(r.len == 0, "a fifth stream from one address got:\n%s",
	    r.text);
	close(fd);
	http_raw("GET", "/v1/health", NULL, NULL, &hr);
	ck_assert_int_eq(hr.status, 200);
	free(hr.body);
	for (k = 0; k < 4; k++)
		close(fds[k]);
}
END_TEST

/* ---- Delegation (issue 13, item 5; docs/PROTOCOL.md section 13) -------- */

/* alice's certificate for bot's key, as the JSON body pbem delegate sends. */
static char *
certificate(const struct player *bot, int64_t game,
    enum delegation_scope scope, int64_t expires)
{
	struct delegation d;
	json_t *j;
	char *text;

	memset(&d, 0, sizeof(d));
	snprintf(d.player, sizeof(d.player), "alice");
	memcpy(d.bot, bot->pk, sizeof(d.bot));
	d.game = game;
	d.scope = scope;
	d.issued = (int64_t)time(NULL) - 1;
	d.expires = expires;
	ck_assert_int_eq(delegation_sign(&d, alice.sk), 0);
	j = delegation_to_json(&d);
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return text;
}

/* The bot's move for alice's seat: the first legal move its own view
 * (signed by the bot) gives, signed with the bot's key. */
static void
bot_move(const struct player *bot, int64_t game, long want_status)
{
	struct proto_move m;
	char path[128], block[PROTO_ARMOUR_MAX];
	long status;
	json_t *view, *j;

	snprintf(path, sizeof(path), "/v1/games/%lld/seats/0",
	    (long long)game);
	view = http_json(bot, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert(json_is_true(json_object_get(view, "your_turn")));
	memset(&m, 0, sizeof(m));
	m.game_id = game;
	m.seq = json_integer_value(json_object_get(view, "next_seq"));
	m.seat = 0;
	snprintf(m.text, sizeof(m.text), "%s", json_string_value(
	    json_array_get(json_object_get(view, "legal_moves"), 0)));
	json_decref(view);
	proto_move_sign(&m, bot->sk);
	ck_assert(proto_move_armour(&m, block, sizeof(block)) > 0);
	snprintf(path, sizeof(path), "/v1/games/%lld/moves", (long long)game);
	j = http_json(NULL, "POST", path, block, &status);
	ck_assert_msg(status == want_status, "bot move: %ld %s", status,
	    error_message(j));
	json_decref(j);
}

/* Seat 0 (alice) to act: carol plays until it is so. */
static void
until_alice_acts(int64_t game)
{
	struct secrets sec;
	struct gamestate gs;
	json_t *legal;
	char err[512];

	for (;;) {
		load_secrets(game, &sec);
		json_decref(sec.public_view);
		ck_assert(!sec.over);
		if (sec.to_act == 0)
			return;
		ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
		    sizeof(err)), ENGINE_OK);
		legal = gs.module->legal_moves(gs.state, sec.to_act);
		post_move(game, sec.to_act, sec.next_seq, json_string_value(
		    json_array_get(legal, 0)), sec.to_act, 200, NULL);
		json_decref(legal);
		gamestate_clear(&gs);
	}
}

/* Chat identities: carol (the chat bot here) asks a code for alice's
 * nick; alice returns it; carol learns who the nick is only while alice
 * delegates to carol's key. */
static void
check_chat_links(void)
{
	char body[128], *cert;
	const char *whois = "/v1/chat/whois?network=testnet&nick=Alice";
	long status;
	json_t *j;

	j = http_json(&carol, "POST", "/v1/chat/codes", "{\"network\": "
	    "\"testnet\", \"nick\": \"bad nick\"}", &status);
	ck_assert_int_eq(status, 400);
	json_decref(j);
	j = http_json(&carol, "POST", "/v1/chat/codes", "{\"network\": "
	    "\"testnet\", \"nick\": \"Alice\"}", &status);
	ck_assert_int_eq(status, 201);
	snprintf(body, sizeof(body), "{\"code\": \"%s\"}", json_string_value(
	    json_object_get(j, "code")));
	json_decref(j);
	j = http_json(&alice, "POST", "/v1/chat/links?lang=fr",
	    "{\"code\": \"zzzzzzzzzz\"}", &status);
	ck_assert_int_eq(status, 409);
	ck_assert_msg(strstr(error_message(j), "inconnu") != NULL, "%s",
	    error_message(j));
	json_decref(j);
	j = http_json(&alice, "POST", "/v1/chat/links", body, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_str_eq(json_string_value(json_object_get(j, "nick")),
	    "alice");
	json_decref(j);
	/* A code is used once. */
	j = http_json(&alice, "POST", "/v1/chat/links", body, &status);
	ck_assert_int_eq(status, 409);
	json_decref(j);
	/* Linked, but alice does not delegate to carol: nothing said. */
	j = http_json(&carol, "GET", whois, NULL, &status);
	ck_assert_int_eq(status, 404);
	ck_assert_str_eq(error_code(j), "not_linked");
	json_decref(j);
	cert = certificate(&carol, DELEGATION_ALL_GAMES, DELEGATION_VIEWS,
	    (int64_t)time(NULL) + 3600);
	j = http_json(&alice, "POST", "/v1/delegations", cert, &status);
	ck_assert_int_eq(status, 201);
	json_decref(j);
	free(cert);
	j = http_json(&carol, "GET", whois, NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_str_eq(json_string_value(json_object_get(j, "player")),
	    "alice");
	json_decref(j);
}

START_TEST(test_http_delegation)
{
	struct player bot = { .name = "alice" };	/* signs as alice */
	char path[128], *cert, id_views[DELEGATION_ID_TEXT], body[64];
	int64_t game, expires = (int64_t)time(NULL) + 86400;
	long status;
	json_t *j;

	register_player(&alice, "en");
	register_player(&carol, "fr");
	crypto_sign_keypair(bot.pk, bot.sk);
	game = form_game();		/* alice seat 0, carol seat 1 */
	snprintf(path, sizeof(path), "/v1/games/%lld/seats/0",
	    (long long)game);
	/* No certificate: the bot's signature is not alice's. */
	j = http_json(&bot, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 401);
	ck_assert_str_eq(error_code(j), "bad_signature");
	json_decref(j);

	/* A malformed certificate is refused, in French when asked. */
	j = http_json(&alice, "POST", "/v1/delegations?lang=fr", "{\"player\": "
	    "\"alice\"}", &status);
	ck_assert_int_eq(status, 400);
	ck_assert_msg(strstr(error_message(j), "mal formé") != NULL, "%s",
	    error_message(j));
	json_decref(j);
	/* Only alice may send alice's certificate. */
	cert = certificate(&bot, game, DELEGATION_VIEWS, expires);
	j = http_json(&carol, "POST", "/v1/delegations", cert, &status);
	ck_assert_int_eq(status, 400);
	json_decref(j);
	/* Views only: the bot reads alice's seat, not carol's, and cannot
	 * move nor use the delegation routes. */
	j = http_json(&alice, "POST", "/v1/delegations", cert, &status);
	ck_assert_msg(status == 201, "%ld %s", status, error_message(j));
	snprintf(id_views, sizeof(id_views), "%s", json_string_value(
	    json_object_get(j, "id")));
	ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(j,
	    "recorded_in"), 0)), game);
	json_decref(j);
	free(cert);
	j = http_json(&bot, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 200);
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/games/%lld/seats/1",
	    (long long)game);
	j = http_json(&bot, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 403);
	ck_assert_str_eq(error_code(j), "not_your_seat");
	json_decref(j);
	j = http_json(&bot, "GET", "/v1/delegations", NULL, &status);
	ck_assert_int_eq(status, 401);
	json_decref(j);
	until_alice_acts(game);
	bot_move(&bot, game, 403);

	/* Moves: the bot plays alice's turn. */
	cert = certificate(&bot, game, DELEGATION_MOVES, expires);
	j = http_json(&alice, "POST", "/v1/delegations", cert, &status);
	ck_assert_int_eq(status, 201);
	json_decref(j);
	free(cert);
	until_alice_acts(game);
	bot_move(&bot, game, 200);
	j = http_json(&alice, "GET", "/v1/delegations", NULL, &status);
	ck_assert_int_eq(status, 200);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "delegations")),
	    2);
	json_decref(j);

	/* Revoked, both: the bot can neither move nor read. */
	j = http_json(&alice, "GET", "/v1/delegations", NULL, &status);
	json_decref(j);
	snprintf(body, sizeof(body), "{\"id\": \"%s\"}", id_views);
	j = http_json(&alice, "POST", "/v1/delegations/revoke", body, &status);
	ck_assert_int_eq(status, 200);
	json_decref(j);
	j = http_json(&alice, "GET", "/v1/delegations", NULL, &status);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "delegations")),
	    1);
	snprintf(body, sizeof(body), "{\"id\": \"%s\"}", json_string_value(
	    json_object_get(json_array_get(json_object_get(j, "delegations"),
	    0), "id")));
	json_decref(j);
	j = http_json(&alice, "POST", "/v1/delegations/revoke", body, &status);
	ck_assert_int_eq(status, 200);
	json_decref(j);
	snprintf(path, sizeof(path), "/v1/games/%lld/seats/0",
	    (long long)game);
	j = http_json(&bot, "GET", path, NULL, &status);
	ck_assert_int_eq(status, 401);
	json_decref(j);
	j = http_json(&alice, "POST", "/v1/delegations/revoke", "{\"id\": "
	    "\"0000000000000000\"}", &status);
	ck_assert_int_eq(status, 404);
	json_decref(j);
	check_chat_links();
}
END_TEST

static void setup(void);

static void
setup_limits(void)
{
	pbemd_options = limit_options;
	setup();
}

static void
setup_stream(void)
{
	pbemd_options = stream_options;
	setup();
}

static void
setup(void)
{
	ck_assert_int_eq(sodium_init() < 0, 0);
	setenv("PBEM_STORE_SYNC", "off", 1);
	testenv_open(&env, 0);
	pbemd_port = 20000 + getpid() % 20000;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	pbemd_start();
}

static void
teardown(void)
{
	if (pbemd_pid > 0)
		pbemd_stop();
	testenv_close(&env);
	curl_global_cleanup();
}

static Suite *
http_suite(void)
{
	Suite *s = suite_create("http");
	TCase *tc = tcase_create("api");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_http_api);
	tcase_add_test(tc, test_http_bot_seats);
	tcase_add_test(tc, test_http_web_move);
	suite_add_tcase(s, tc);
	tc = tcase_create("delegation");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_http_delegation);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_checked_fixture(tc, setup_limits, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_http_limits);
	suite_add_tcase(s, tc);
	tc = tcase_create("stream");
	tcase_add_checked_fixture(tc, setup_stream, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_http_stream);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(http_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
