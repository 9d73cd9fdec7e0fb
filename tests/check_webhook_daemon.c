/*
 * check_webhook_daemon.c -- webhooks end to end: the real pbemd on a
 * loopback port, a small HTTP receiver inside this test (libmicrohttpd)
 * that records every delivery and can be told to fail or to be slow, and
 * moves POSTed over HTTP with libcurl.
 *
 * It checks that each event arrives once and in order with a valid
 * signature; that registration over HTTP needs the admin token and
 * refuses bad input; that a receiver that always fails is retried with
 * waits between attempts, marked failing, and never stops moves or the
 * other receiver; that no body holds the seed before the game is over;
 * and that after a SIGKILL with deliveries pending, a restart delivers
 * every one of them, and the only repeats are deliveries acknowledged
 * just before the kill and not yet marked sent -- with the same id and
 * body.  Ports: 20000 + pid % 20000 and the next one.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <poll.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <check.h>
#include <curl/curl.h>
#include <microhttpd.h>
#include <sodium.h>
#include <sqlite3.h>

#include "store_test.h"
#include "testlib.h"
#include "webhook.h"
#include "webhook_chat.h"

#define MAX_DELIVERIES	4096
#define RX_OK		0
#define RX_FAIL		1	/* answer 500 */
#define RX_SLOW		2	/* wait 300 ms, then 200 */

struct delivery {
	int	 failing_path;		/* /fail, else /hook */
	char	 path[32];
	int64_t	 id;			/* X-Pbem-Delivery */
	char	 event[32];
	char	 timestamp[32];
	char	 signature[96];
	char	*body;
	double	 at;			/* arrival, monotonic seconds */
	int	 status;		/* what we answered */
};

static struct {
	pthread_mutex_t	 lock;
	struct delivery	 d[MAX_DELIVERIES];
	int		 n;
	int		 mode;		/* RX_* for /hook */
} rx = { .lock = PTHREAD_MUTEX_INITIALIZER };

static struct testenv env;
/* The receivers of this test are on 127.0.0.1, which pbemd is told to
 * allow (webhook_allow_hosts); so is the registration here. */
static const struct webhook_rules rules = { .allow_hosts = "127.0.0.1",
    .check_address = 1 };
static const char *pbemd_extra[8];	/* more -o options, NULL-ended */
static int rx_port, pbemd_port;
static pid_t pbemd_pid;
static char secret_hook[STORE_SECRET_MAX], secret_fail[STORE_SECRET_MAX];

static double
now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- The receiver -------------------------------------------------------- */

struct upload {
	char	*body;
	size_t	 len;
	double	 arrived;	/* when the request came */
};

static const char *
header(struct MHD_Connection *c, const char *name)
{
	const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);

	return v != NULL ? v : "";
}

static enum MHD_Result
rx_handle(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *data,
    size_t *size, void **con_cls)
{
	struct upload *u = *con_cls;
	struct MHD_Response *resp;
	struct delivery *d;
	enum MHD_Result rc;
	int status, mode;

	(void)cls;
	(void)method;
	(void)version;
	if (u == NULL) {
		*con_cls = u = calloc(1, sizeof(*u));
		u->arrived = now_mono();
		return MHD_YES;
	}
	if (*size > 0) {
		u->body = realloc(u->body, u->len + *size + 1);
		memcpy(u->body + u->len, data, *size);
		u->len += *size;
		u->body[u->len] = '\0';
		*size = 0;
		return MHD_YES;
	}
	pthread_mutex_lock(&rx.lock);
	mode = strcmp(url, "/fail") == 0 ? RX_FAIL : rx.mode;
	pthread_mutex_unlock(&rx.lock);
	if (mode == RX_SLOW)
		usleep(300 * 1000);
	status = mode == RX_FAIL ? 500 : 200;
	pthread_mutex_lock(&rx.lock);
	if (rx.n < MAX_DELIVERIES) {
		d = &rx.d[rx.n++];
		d->failing_path = strcmp(url, "/fail") == 0;
		snprintf(d->path, sizeof(d->path), "%s", url);
		d->id = strtoll(header(conn, "X-Pbem-Delivery"), NULL, 10);
		snprintf(d->event, sizeof(d->event), "%s",
		    header(conn, "X-Pbem-Event"));
		snprintf(d->timestamp, sizeof(d->timestamp), "%s",
		    header(conn, "X-Pbem-Timestamp"));
		snprintf(d->signature, sizeof(d->signature), "%s",
		    header(conn, "X-Pbem-Signature"));
		d->body = u->body != NULL ? strdup(u->body) : strdup("");
		d->at = u->arrived;
		d->status = status;
	}
	pthread_mutex_unlock(&rx.lock);
	free(u->body);
	free(u);
	*con_cls = NULL;
	resp = MHD_create_response_from_buffer(2, "ok",
	    MHD_RESPMEM_PERSISTENT);
	rc = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return rc;
}

static struct MHD_Daemon *
rx_start(void)
{
	struct sockaddr_in sin;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)rx_port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_THREAD_PER_CONNECTION, (uint16_t)rx_port, NULL, NULL,
	    rx_handle, NULL, MHD_OPTION_SOCK_ADDR, &sin, MHD_OPTION_END);
}

static void
rx_mode(int mode)
{
	pthread_mutex_lock(&rx.lock);
	rx.mode = mode;
	pthread_mutex_unlock(&rx.lock);
}

/* ---- HTTP client ----------------------------------------------------------- */

struct buf {
	char	*text;
	size_t	 len;
};

static size_t
collect(char *ptr, size_t size, size_t n, void *arg)
{
	struct buf *b = arg;

	b->text = realloc(b->text, b->len + size * n + 1);
	memcpy(b->text + b->len, ptr, size * n);
	b->len += size * n;
	b->text[b->len] = '\0';
	return size * n;
}

/* method path with body (or NULL) and token (or NULL); the status, and
 * the answer's body in *answer (malloc'd). */
static long
http(const char *method, const char *path, const char *body,
    const char *token, char **answer)
{
	struct curl_slist *headers = NULL;
	struct buf b = { NULL, 0 };
	char url[256], auth[256];
	long status = 0;
	CURL *c = curl_easy_init();

	snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", pbemd_port, path);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	if (body != NULL)
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	if (token != NULL) {
		snprintf(auth, sizeof(auth), "Authorization: Bearer %s", token);
		headers = curl_slist_append(headers, auth);
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	}
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 30L);
	if (curl_easy_perform(c) == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(c);
	curl_slist_free_all(headers);
	if (answer != NULL)
		*answer = b.text != NULL ? b.text : strdup("");
	else
		free(b.text);
	return status;
}

/* ---- pbemd ----------------------------------------------------------------- */

static void
pbemd_start(void)
{
	const char *builddir = getenv("top_builddir");
	const char *srcdir = getenv("top_srcdir");
	char prog[512], tpl[512], port[16], logpath[400];
	const char *argv[64];
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
		static const char *const fixed[] = { "pbemd", "-o",
		    "webhook_poll=1", "-o", "webhook_retry_base=1", "-o",
		    "webhook_retry_max=2", "-o", "webhook_failing_after=3",
		    "-o", "webhook_timeout=5", "-o",
		    "webhook_admin_token=s3cret-token", "-o",
		    "webhook_allow_hosts=127.0.0.1", NULL };

		for (i = 0; fixed[i] != NULL; i++)
			argv[n++] = fixed[i];
		for (i = 0; pbemd_extra[i] != NULL; i++) {
			argv[n++] = "-o";
			argv[n++] = pbemd_extra[i];
		}
		argv[n++] = "-d";
		argv[n++] = env.dbpath;
		argv[n++] = "-p";
		argv[n++] = port;
		argv[n++] = "-t";
		argv[n++] = tpl;
		argv[n] = NULL;
		execv(prog, (char *const *)argv);
		_exit(127);
	}
	for (until = now_mono() + 20; now_mono() < until; usleep(50000))
		if (http("GET", "/v1/health", NULL, NULL, NULL) == 200)
			return;
	ck_abort_msg("pbemd did not answer on port %d", pbemd_port);
}

static int
pbemd_signal(int sig)
{
	int status;

	kill(pbemd_pid, sig);
	ck_assert_int_eq(waitpid(pbemd_pid, &status, 0), pbemd_pid);
	pbemd_pid = 0;
	return status;
}

/* ---- Moves over HTTP ------------------------------------------------------ */

/* Play one legal move of game over HTTP; 0 once the game is over. */
static int
post_move(int64_t game)
{
	struct gamestate gs;
	char err[512], move[512], block[2048], path[64], *answer;
	json_t *moves;
	int seat;
	long status;

	ck_assert(gamestate_load(env.st, game, -1, &gs, err, sizeof(err)) ==
	    ENGINE_OK);
	if (gs.module->to_act(gs.state, &seat, 1) == 0) {
		gamestate_clear(&gs);
		return 0;
	}
	moves = gs.module->legal_moves(gs.state, seat);
	snprintf(move, sizeof(move), "%s", json_string_value(
	    json_array_get(moves, 0)));
	json_decref(moves);
	testenv_block(&env, seat, game, gs.seq + 1, seat, move, block,
	    sizeof(block));
	gamestate_clear(&gs);
	snprintf(path, sizeof(path), "/v1/games/%lld/moves", (long long)game);
	status = http("POST", path, block, NULL, &answer);
	ck_assert_msg(status == 200, "move refused (%ld): %s", status, answer);
	free(answer);
	return 1;
}

/* ---- Checking deliveries ---------------------------------------------------- */

/* 2xx deliveries of the /hook receiver with this id. */
static int
acks_of(int64_t id)
{
	int i, n = 0;

	for (i = 0; i < rx.n; i++)
		if (!rx.d[i].failing_path && rx.d[i].id == id &&
		    rx.d[i].status == 200)
			n++;
	return n;
}

static void
check_signature(const struct delivery *d, const char *secret)
{
	char want[WEBHOOK_SIGNATURE_LEN + 1];
	json_t *body;

	webhook_sign(secret, strtoll(d->timestamp, NULL, 10), d->body,
	    strlen(d->body), want);
	ck_assert_msg(strcmp(want, d->signature) == 0, "delivery %lld: bad "
	    "signature %s", (long long)d->id, d->signature);
	ck_assert_int_gt(strtoll(d->timestamp, NULL, 10), 1600000000);
	body = json_loads(d->body, 0, NULL);
	ck_assert_ptr_nonnull(body);
	ck_assert_int_eq(json_integer_value(json_object_get(body,
	    "delivery")), d->id);
	ck_assert_str_eq(json_string_value(json_object_get(body, "event")),
	    d->event);
	json_decref(body);
}

/* The game a delivery is about (a small number in this test). */
static int
game_of(const struct delivery *d)
{
	json_t *body = json_loads(d->body, 0, NULL);
	int game = (int)json_integer_value(json_object_get(body, "game"));

	json_decref(body);
	ck_assert_msg(game > 0 && game < 8, "delivery %lld: game %d",
	    (long long)d->id, game);
	return game;
}

/* The webhook's pending row count, from the store. */
static int64_t
pending_of(int64_t hook)
{
	struct store_webhook w;

	ck_assert_int_eq(store_webhook_get(env.st, hook, &w), STORE_OK);
	return w.pending;
}

static void
wait_until_delivered(int64_t hook)
{
	double until = now_mono() + 60;

	while (pending_of(hook) > 0) {
		ck_assert_msg(now_mono() < until, "webhook %lld still has %lld "
		    "pending deliveries", (long long)hook,
		    (long long)pending_of(hook));
		usleep(50000);
	}
}

/* Ids of the webhook's rows, in order, with whether each is sent. */
static int
rows_of(int64_t hook, int64_t *ids, int *sent, int max)
{
	sqlite3_stmt *s;
	int n = 0;

	ck_assert_int_eq(sqlite3_prepare_v2(store_test_db(env.st),
	    "SELECT id, status FROM outbox WHERE channel = 'webhook' AND "
	    "recipient = CAST(?1 AS TEXT) ORDER BY id", -1, &s, NULL),
	    SQLITE_OK);
	sqlite3_bind_int64(s, 1, hook);
	while (sqlite3_step(s) == SQLITE_ROW && n < max) {
		ids[n] = sqlite3_column_int64(s, 0);
		sent[n] = sqlite3_column_int(s, 1) == STORE_OUTBOX_SENT;
		n++;
	}
	sqlite3_finalize(s);
	return n;
}

START_TEST(test_webhooks_end_to_end)
{
	struct store_webhook failing, w;
	struct store_game g;
	struct MHD_Daemon *receiver;
	int64_t hook, ladder, missions, ids[512], killed_sent[512];
	int sent[512], nrows, nkilled, i, j, k, status, fail_attempts;
	char body[512], err[256], seedhex[65], seed_missions[65], *answer;
	char path[96];
	double kill_at, gap, prev_at;
	int64_t max_per_game[8];
	json_t *j_answer, *list, *next;
	int g_of;

	rx_port = 20000 + getpid() % 20000;
	if (rx_port > 65000)
		rx_port -= 30000;
	pbemd_port = rx_port + 1;
	ck_assert_ptr_nonnull(receiver = rx_start());

	/* A receiver that always fails, registered in the store. */
	snprintf(body, sizeof(body), "http://127.0.0.1:%d/fail", rx_port);
	ck_assert_int_eq(webhook_register(env.st, &rules, 0, 0, body, "", &failing, err,
	    sizeof(err)), 0);
	snprintf(secret_fail, sizeof(secret_fail), "%s", failing.secret);
	pbemd_start();

	/* Registration over HTTP: token needed, bad input refused. */
	snprintf(body, sizeof(body), "{\"url\": \"http://127.0.0.1:%d/hook\"}",
	    rx_port);
	ck_assert_int_eq(http("POST", "/v1/webhooks", body, NULL, &answer),
	    401);
	ck_assert_ptr_nonnull(strstr(answer, "\"unauthorized\""));
	free(answer);
	ck_assert_int_eq(http("POST", "/v1/webhooks", body, "wrong", &answer),
	    401);
	free(answer);
	ck_assert_int_eq(http("POST", "/v1/webhooks",
	    "{\"url\": \"ftp://x/\"}", "s3cret-token", &answer), 400);
	ck_assert_ptr_nonnull(strstr(answer, "must start with http://"));
	free(answer);
	ck_assert_int_eq(http("POST", "/v1/webhooks",
	    "{\"url\": \"http://x/\", \"events\": [\"moves\"]}",
	    "s3cret-token", &answer), 400);
	ck_assert_ptr_nonnull(strstr(answer, "unknown event"));
	free(answer);
	/* Internal hosts not on webhook_allow_hosts: refused, the
	 * administrator included. */
	ck_assert_int_eq(http("POST", "/v1/webhooks",
	    "{\"url\": \"http://localhost:1/\"}", "s3cret-token", &answer),
	    400);
	ck_assert_ptr_nonnull(strstr(answer, "may only go to public "
	    "addresses"));
	free(answer);
	ck_assert_int_eq(http("POST", "/v1/webhooks",
	    "{\"url\": \"http://10.0.0.1/\"}", "s3cret-token", &answer),
	    400);
	free(answer);
	ck_assert_int_eq(http("POST", "/v1/games/99/webhooks", body,
	    "s3cret-token", &answer), 404);
	ck_assert_ptr_nonnull(strstr(answer, "\"unknown_game\""));
	free(answer);
	ck_assert_int_eq(http("POST", "/v1/webhooks", body, "s3cret-token",
	    &answer), 201);
	j_answer = json_loads(answer, 0, NULL);
	free(answer);
	hook = json_integer_value(json_object_get(j_answer, "id"));
	snprintf(secret_hook, sizeof(secret_hook), "%s",
	    json_string_value(json_object_get(j_answer, "secret")));
	json_decref(j_answer);
	ck_assert_int_eq(hook, failing.id + 1);
	ck_assert(strncmp(secret_hook, "whsec_", 6) == 0);
	/* The list never shows a secret. */
	ck_assert_int_eq(http("GET", "/v1/webhooks", NULL, "s3cret-token",
	    &answer), 200);
	ck_assert_ptr_null(strstr(answer, secret_hook + 6));
	ck_assert_ptr_nonnull(strstr(answer, "/hook"));
	free(answer);
	/* The list is paged (issue 14, item 7): one by one, then none. */
	snprintf(path, sizeof(path), "/v1/webhooks?limit=1");
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(http("GET", path, NULL, "s3cret-token",
		    &answer), 200);
		j_answer = json_loads(answer, 0, NULL);
		free(answer);
		list = json_object_get(j_answer, "webhooks");
		next = json_object_get(j_answer, "next");
		if (i < 2) {
			ck_assert_uint_eq(json_array_size(list), 1);
			ck_assert_int_eq(json_integer_value(json_object_get(
			    json_array_get(list, 0), "id")), i == 0 ?
			    failing.id : hook);
			ck_assert_int_eq(json_integer_value(next), i == 0 ?
			    failing.id : hook);
			snprintf(path, sizeof(path), "/v1/webhooks?limit=1&"
			    "after=%lld", (long long)json_integer_value(next));
		} else {
			ck_assert_uint_eq(json_array_size(list), 0);
			ck_assert(json_is_null(next));
		}
		json_decref(j_answer);
	}
	ck_assert_int_eq(http("GET", "/v1/webhooks?limit=101", NULL,
	    "s3cret-token", &answer), 400);
	free(answer);

	/* Games created by another process (found by the poll), moves over
	 * HTTP (each commit wakes the sender). */
	ladder = testenv_game(&env, "template", 2);
	missions = testenv_game(&env, "stmissions", 2);
	while (post_move(ladder))
		;
	for (i = 0; i < 4; i++)
		ck_assert(post_move(missions));
	wait_until_delivered(hook);

	pthread_mutex_lock(&rx.lock);
	nrows = rows_of(hook, ids, sent, 512);
	ck_assert_int_ge(nrows, 2 + 6 + 1 + 4);
	for (i = 0; i < nrows; i++)
		ck_assert_msg(acks_of(ids[i]) == 1, "delivery %lld acknowledged "
		    "%d times", (long long)ids[i], acks_of(ids[i]));
	/* In order per game, signed, and nothing but these. */
	memset(max_per_game, 0, sizeof(max_per_game));
	ck_assert_int_eq(store_game_get(env.st, ladder, &g), STORE_OK);
	proto_hex(g.seed, STORE_SEED_BYTES, seedhex);
	store_game_clear(&g);
	ck_assert_int_eq(store_game_get(env.st, missions, &g), STORE_OK);
	proto_hex(g.seed, STORE_SEED_BYTES, seed_missions);
	store_game_clear(&g);
	for (i = 0, k = 0; i < rx.n; i++) {
		struct delivery *d = &rx.d[i];

		if (d->failing_path)
			continue;
		check_signature(d, secret_hook);
		g_of = game_of(d);
		ck_assert_int_gt(d->id, max_per_game[g_of]);
		max_per_game[g_of] = d->id;
		k++;
		/* The seed shows only once its game is over: in the last
		 * move's event and in game_over. */
		ck_assert_msg(strstr(d->body, seed_missions) == NULL, "the "
		    "seed of a running game, delivery %lld", (long long)d->id);
		if (strcmp(d->event, "game_over") == 0)
			ck_assert_ptr_nonnull(strstr(d->body, seedhex));
		else if (strstr(d->body, "\"game_over\":true") == NULL)
			ck_assert_msg(strstr(d->body, seedhex) == NULL, "the "
			    "seed before the end, delivery %lld",
			    (long long)d->id);
	}
	ck_assert_int_eq(k, nrows);
	pthread_mutex_unlock(&rx.lock);

	/* The failing receiver: retried, with waits, marked failing, and
	 * still only its first delivery (nothing overtakes it). */
	for (;;) {
		pthread_mutex_lock(&rx.lock);
		for (i = 0, fail_attempts = 0; i < rx.n; i++)
			fail_attempts += rx.d[i].failing_path;
		pthread_mutex_unlock(&rx.lock);
		if (fail_attempts >= 4)
			break;
		usleep(100000);
	}
	/* The receiver sees an attempt before pbemd records it. */
	for (kill_at = now_mono() + 20;; usleep(50000)) {
		ck_assert_int_eq(store_webhook_get(env.st, failing.id, &w),
		    STORE_OK);
		if (w.failures >= 3 || now_mono() > kill_at)
			break;
	}
	ck_assert_int_eq(w.state, STORE_WEBHOOK_FAILING);
	ck_assert_int_ge(w.failures, 3);
	ck_assert_str_eq(w.last_error, "HTTP 500");
	ck_assert_int_ge(w.pending, 2 + 6 + 1 + 4);
	pthread_mutex_lock(&rx.lock);
	for (i = 0; i < rx.n; i++) {
		struct delivery *d = &rx.d[i];
		int attempt = 1;

		if (!d->failing_path)
			continue;
		check_signature(d, secret_fail);
		/* Only the first event of each game: nothing overtakes. */
		ck_assert_str_eq(d->event, "game_created");
		prev_at = -1;
		for (j = 0; j < i; j++)
			if (rx.d[j].failing_path && rx.d[j].id == d->id) {
				attempt++;
				prev_at = rx.d[j].at;
			}
		/* From the third attempt the wait is 2 s, scheduled in
		 * whole seconds: at least 1 s since the attempt before. */
		gap = d->at - prev_at;
		if (attempt >= 3)
			ck_assert_msg(gap >= 0.99, "attempt %d of delivery "
			    "%lld came %.3fs after the one before", attempt,
			    (long long)d->id, gap);
	}
	pthread_mutex_unlock(&rx.lock);

	/* SIGKILL with deliveries pending; restart; every one delivered. */
	rx_mode(RX_SLOW);
	for (i = 0; i < 6; i++)
		ck_assert(post_move(missions));
	status = pbemd_signal(SIGKILL);
	kill_at = now_mono();
	ck_assert(WIFSIGNALED(status));
	ck_assert_int_gt(pending_of(hook), 0);
	nrows = rows_of(hook, ids, sent, 512);
	for (i = 0, nkilled = 0; i < nrows; i++)
		if (sent[i])
			killed_sent[nkilled++] = ids[i];
	usleep(400 * 1000);	/* let the last slow answer finish */
	rx_mode(RX_OK);
	pbemd_start();
	wait_until_delivered(hook);

	pthread_mutex_lock(&rx.lock);
	nrows = rows_of(hook, ids, sent, 512);
	for (i = 0; i < nrows; i++) {
		int acks = acks_of(ids[i]), marked = 0, before = 0;
		const char *first = NULL;

		ck_assert(sent[i]);
		for (j = 0; j < nkilled; j++)
			marked |= killed_sent[j] == ids[i];
		for (j = 0; j < rx.n; j++) {
			struct delivery *d = &rx.d[j];

			if (d->failing_path || d->id != ids[i] ||
			    d->status != 200)
				continue;
			check_signature(d, secret_hook);
			before += d->at < kill_at;
			if (first == NULL)
				first = d->body;
			else	/* a repeat is the same body */
				ck_assert_str_eq(d->body, first);
		}
		ck_assert_msg(acks >= 1, "delivery %lld lost", (long long)ids[i]);
		if (acks == 1)
			continue;
		/* Twice only if acknowledged before the kill, not marked
		 * sent by then, and sent again after the restart. */
		ck_assert_msg(acks == 2 && !marked && before == 1, "delivery "
		    "%lld acknowledged %d times (marked sent before the kill: "
		    "%d)", (long long)ids[i], acks, marked);
	}
	/* Order: every first acknowledgement comes after all earlier ids
	 * of its game. */
	memset(max_per_game, 0, sizeof(max_per_game));
	for (i = 0; i < rx.n; i++) {
		struct delivery *d = &rx.d[i];
		int seen_before = 0;

		if (d->failing_path || d->status != 200)
			continue;
		for (j = 0; j < i; j++)
			seen_before |= !rx.d[j].failing_path &&
			    rx.d[j].id == d->id && rx.d[j].status == 200;
		if (seen_before)
			continue;
		g_of = game_of(d);
		ck_assert_msg(d->id > max_per_game[g_of], "delivery %lld "
		    "after %lld", (long long)d->id,
		    (long long)max_per_game[g_of]);
		max_per_game[g_of] = d->id;
	}
	pthread_mutex_unlock(&rx.lock);

	/* Moves are still taken while one receiver fails. */
	ck_assert(post_move(missions));

	/* Removing: a global registration is not under a game's path; the
	 * failing one removed gives up its deliveries. */
	snprintf(body, sizeof(body), "/v1/games/%lld/webhooks/%lld",
	    (long long)missions, (long long)hook);
	ck_assert_int_eq(http("DELETE", body, NULL, "s3cret-token", &answer),
	    404);
	ck_assert_ptr_nonnull(strstr(answer, "\"not_found\""));
	free(answer);
	snprintf(body, sizeof(body), "/v1/webhooks/%lld",
	    (long long)failing.id);
	ck_assert_int_eq(http("DELETE", body, NULL, NULL, &answer), 401);
	free(answer);
	ck_assert_int_eq(store_webhook_get(env.st, failing.id, &w), STORE_OK);
	ck_assert_int_eq(http("DELETE", body, NULL, "s3cret-token", &answer),
	    200);
	free(answer);
	ck_assert_int_eq(store_webhook_get(env.st, failing.id, &w),
	    STORE_NOTFOUND);
	nrows = rows_of(failing.id, ids, sent, 512);
	ck_assert_int_gt(nrows, 0);
	for (i = 0; i < nrows; i++)
		ck_assert(!sent[i]);
	ck_assert_int_eq(http("DELETE", body, NULL, "s3cret-token", &answer),
	    404);
	free(answer);

	/* A clean stop. */
	status = pbemd_signal(SIGTERM);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	MHD_stop_daemon(receiver);
	for (i = 0; i < rx.n; i++)
		free(rx.d[i].body);
}
END_TEST


/* ---- Chat formats ------------------------------------------------------------ */

/* Register a webhook over HTTP with the administrator's token; its id. */
static int64_t
register_hook(const char *json)
{
	char *answer;
	json_t *j;
	int64_t id;

	ck_assert_int_eq(http("POST", "/v1/webhooks", json, "s3cret-token",
	    &answer), 201);
	j = json_loads(answer, 0, NULL);
	free(answer);
	id = json_integer_value(json_object_get(j, "id"));
	json_decref(j);
	return id;
}

/* The keys of object j, sorted and comma-separated, in out. */
static void
keys_of(json_t *j, char *out, size_t len)
{
	json_t *copy = json_deep_copy(j);
	char *text;
	const char *key;
	json_t *v;

	json_object_foreach(copy, key, v)
		json_object_set_new(copy, key, json_null());
	text = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS);
	snprintf(out, len, "%s", text);
	free(text);
	json_decref(copy);
}

/*
 * Slack, Discord and Mattermost registrations next to a pbem one, all
 * games: each chat delivery has exactly the keys its platform documents,
 * and is exactly the chat body of the signed pbem delivery of the same
 * event (so it carries nothing but that event's public summary, in the
 * registration's language, with the link to the public page).
 */
START_TEST(test_chat_formats)
{
	static const char *const paths[] = { "/slack", "/discord",
	    "/mattermost" };
	static const char *const formats[] = { "slack", "discord",
	    "mattermost" };
	static const char *const langs[] = { "fr", "en", "en" };
	static const char *const shapes[] = {
	    "{\"blocks\":null,\"text\":null}",
	    "{\"allowed_mentions\":null,\"content\":null,\"embeds\":null}",
	    "{\"text\":null,\"username\":null}" };
	char body[512], keys[256], *answer, *want;
	int64_t hooks[3], pbem, game, missions;
	int i, k, n, matched[3] = { 0 };
	struct MHD_Daemon *receiver;
	json_t *j;

	rx_port = 20000 + (getpid() + 11) % 20000;
	if (rx_port > 65000)
		rx_port -= 30000;
	pbemd_port = rx_port + 1;
	pbemd_extra[0] = "public_base_url=https://pbem.example/";
	ck_assert_ptr_nonnull(receiver = rx_start());
	pbemd_start();

	/* A bad format or language: refused in both languages. */
	snprintf(body, sizeof(body), "{\"url\": \"http://127.0.0.1:%d/x\", "
	    "\"format\": \"teams\"}", rx_port);
	ck_assert_int_eq(http("POST", "/v1/webhooks", body, "s3cret-token",
	    &answer), 400);
	ck_assert_ptr_nonnull(strstr(answer, "unknown webhook format"));
	ck_assert_ptr_nonnull(strstr(answer, "format de webhook"));
	free(answer);
	snprintf(body, sizeof(body), "{\"url\": \"http://127.0.0.1:%d/x\", "
	    "\"format\": \"slack\", \"lang\": 7}", rx_port);
	ck_assert_int_eq(http("POST", "/v1/webhooks", body, "s3cret-token",
	    &answer), 400);
	ck_assert_ptr_nonnull(strstr(answer, "sont des cha"));
	free(answer);

	snprintf(body, sizeof(body), "{\"url\": \"http://127.0.0.1:%d/hook\"}",
	    rx_port);
	pbem = register_hook(body);
	for (i = 0; i < 3; i++) {
		snprintf(body, sizeof(body), "{\"url\": \"http://127.0.0.1:%d"
		    "%s\", \"format\": \"%s\", \"lang\": \"%s\"}", rx_port,
		    paths[i], formats[i], langs[i]);
		hooks[i] = register_hook(body);
	}
	ck_assert_int_eq(http("GET", "/v1/webhooks", NULL, "s3cret-token",
	    &answer), 200);
	ck_assert_ptr_nonnull(strstr(answer, "\"format\": \"mattermost\""));
	ck_assert_ptr_nonnull(strstr(answer, "\"format\": \"pbem\""));
	free(answer);

	game = testenv_game(&env, "template", 2);
	missions = testenv_game(&env, "stmissions", 2);
	while (post_move(game))
		;
	for (i = 0; i < 6; i++)
		ck_assert(post_move(missions));
	wait_until_delivered(pbem);
	for (i = 0; i < 3; i++)
		wait_until_delivered(hooks[i]);

	pthread_mutex_lock(&rx.lock);
	for (n = 0; n < rx.n; n++) {
		struct delivery *d = &rx.d[n], *p = NULL;

		for (i = 0; i < 3 && strcmp(d->path, paths[i]) != 0; i++)
			;
		if (i == 3)
			continue;
		j = json_loads(d->body, 0, NULL);
		ck_assert_msg(j != NULL, "%s: not JSON: %s", d->path, d->body);
		keys_of(j, keys, sizeof(keys));
		ck_assert_str_eq(keys, shapes[i]);
		json_decref(j);
		/* The pbem delivery of the same event (its delivery id is
		 * its own row's, so match on the event, game and seq). */
		for (k = 0; k < rx.n && p == NULL; k++) {
			if (strcmp(rx.d[k].path, "/hook") != 0 ||
			    strcmp(rx.d[k].event, d->event) != 0)
				continue;
			want = webhook_chat_body(formats[i], langs[i],
			    rx.d[k].body, "https://pbem.example");
			if (want != NULL && strcmp(want, d->body) == 0)
				p = &rx.d[k];
			free(want);
		}
		ck_assert_msg(p != NULL, "%s: no pbem delivery gives %s",
		    d->path, d->body);
		ck_assert_ptr_nonnull(strstr(d->body, "https://pbem.example/"
		    "play/games/"));
		/* Nothing of the pbem body but its summary and game. */
		ck_assert_ptr_null(strstr(d->body, "\"view\""));
		ck_assert_ptr_null(strstr(d->body, "seed"));
		matched[i]++;
	}
	pthread_mutex_unlock(&rx.lock);
	/* game_created twice, the moves, one game_over, for each. */
	for (i = 0; i < 3; i++)
		ck_assert_int_ge(matched[i], 2 + 6 + 2);
	pbemd_signal(SIGTERM);
	MHD_stop_daemon(receiver);
}
END_TEST

/* ---- A receiver that never answers ---------------------------------------- */

/* A TCP listener on 127.0.0.1 that takes connections, reads what comes
 * and never answers.  It counts connections, the most open at once, and
 * those the other side (pbemd, at its timeout) closed. */
static struct {
	pthread_mutex_t	 lock;
	int		 fd, stop;
	int		 accepted, open, most_open, closed;
	pthread_t	 thread;
} hang = { .lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1 };

static void *
hang_run(void *arg)
{
	struct pollfd pfd[65];
	char buf[4096];
	int n = 1, i, c;

	(void)arg;
	pfd[0].fd = hang.fd;
	pfd[0].events = POLLIN;
	for (;;) {
		pthread_mutex_lock(&hang.lock);
		if (hang.stop) {
			pthread_mutex_unlock(&hang.lock);
			break;
		}
		pthread_mutex_unlock(&hang.lock);
		if (poll(pfd, (nfds_t)n, 100) <= 0)
			continue;
		if ((pfd[0].revents & POLLIN) && n < 65 &&
		    (c = accept(hang.fd, NULL, NULL)) >= 0) {
			pfd[n].fd = c;
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			n++;
			pthread_mutex_lock(&hang.lock);
			hang.accepted++;
			if (++hang.open > hang.most_open)
				hang.most_open = hang.open;
			pthread_mutex_unlock(&hang.lock);
		}
		for (i = 1; i < n; i++) {
			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (read(pfd[i].fd, buf, sizeof(buf)) > 0)
				continue;
			close(pfd[i].fd);
			pfd[i--] = pfd[--n];
			pthread_mutex_lock(&hang.lock);
			hang.open--;
			hang.closed++;
			pthread_mutex_unlock(&hang.lock);
		}
	}
	for (i = 1; i < n; i++)
		close(pfd[i].fd);
	return NULL;
}

static void
hang_start(int port)
{
	struct sockaddr_in sin;
	int one = 1;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_ge(hang.fd = socket(AF_INET, SOCK_STREAM, 0), 0);
	setsockopt(hang.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	ck_assert_int_eq(bind(hang.fd, (struct sockaddr *)&sin, sizeof(sin)),
	    0);
	ck_assert_int_eq(listen(hang.fd, 64), 0);
	ck_assert_int_eq(pthread_create(&hang.thread, NULL, hang_run, NULL),
	    0);
}

static void
hang_stop(void)
{
	pthread_mutex_lock(&hang.lock);
	hang.stop = 1;
	pthread_mutex_unlock(&hang.lock);
	pthread_join(hang.thread, NULL);
	close(hang.fd);
}

/* Deliveries of the normal receiver at path. */
static int
deliveries_to(const char *path)
{
	int i, n = 0;

	pthread_mutex_lock(&rx.lock);
	for (i = 0; i < rx.n; i++)
		n += strcmp(rx.d[i].path, path) == 0;
	pthread_mutex_unlock(&rx.lock);
	return n;
}

/*
 * Six registrations at a receiver that never answers (issue 14, item 5),
 * one normal receiver, and one whose name now resolves to loopback (DNS
 * rebinding: registered as if it had been public, at the hanging port).
 * The normal receiver gets each event while the hanging ones still hang
 * -- no hanging connection has been closed yet -- and no more than
 * webhook_per_host of them are ever open at once; the rebound one fails
 * at the socket, naming the loopback address, and is never connected.
 */
START_TEST(test_slow_receiver_and_rebinding)
{
	struct webhook_rules local = { .allow_hosts = "localhost",
	    .check_address = 1 };
	struct webhook_rules unchecked = { .check_address = 0 };
	struct store_webhook w, normal, rebound;
	struct MHD_Daemon *receiver;
	int64_t game;
	int hang_port, i, got, closed, most;
	char url[128], err[512];
	double until;

	rx_port = 20000 + getpid() % 20000;
	if (rx_port > 65000)
		rx_port -= 30000;
	pbemd_port = rx_port + 1;
	hang_port = rx_port + 2;
	ck_assert_ptr_nonnull(receiver = rx_start());
	hang_start(hang_port);

	snprintf(url, sizeof(url), "http://127.0.0.1:%d/never", hang_port);
	for (i = 0; i < 6; i++)
		ck_assert_msg(webhook_register(env.st, &rules, 0, 0, url, "",
		    &w, err, sizeof(err)) == 0, "%s", err);
	snprintf(url, sizeof(url), "http://localhost:%d/hook", rx_port);
	ck_assert_int_eq(webhook_register(env.st, &local, 0, 0, url, "",
	    &normal, err, sizeof(err)), 0);
	/* Registered as if localhost had been public then. */
	snprintf(url, sizeof(url), "http://localhost:%d/rebind", hang_port);
	ck_assert_int_eq(webhook_register(env.st, &unchecked, 0, 0, url, "",
	    &rebound, err, sizeof(err)), 0);

	/* localhost is allowed only at the normal receiver's port. */
	snprintf(url, sizeof(url), "webhook_allow_hosts=127.0.0.1, "
	    "localhost:%d", rx_port);
	pbemd_extra[0] = url;
	pbemd_extra[1] = "webhook_timeout=60";
	pbemd_extra[2] = "webhook_concurrency=4";
	pbemd_extra[3] = "webhook_per_host=2";
	pbemd_extra[4] = NULL;
	pbemd_start();

	/* A game (found by the poll), then a move: two events for each. */
	game = testenv_game(&env, "template", 2);
	for (until = now_mono() + 30; deliveries_to("/hook") < 1;
	    usleep(20000))
		ck_assert_msg(now_mono() < until, "game_created not delivered");
	ck_assert(post_move(game));
	for (;;) {
		got = deliveries_to("/hook");
		pthread_mutex_lock(&hang.lock);
		closed = hang.closed;
		most = hang.most_open;
		pthread_mutex_unlock(&hang.lock);
		if (got >= 2 || closed > 0)
			break;
		usleep(20000);
	}
	ck_assert_msg(got >= 2 && closed == 0, "the move reached the normal "
	    "receiver only after a hanging delivery ended (%d deliveries, %d "
	    "hanging connections closed)", got, closed);
	ck_assert_int_ge(most, 1);
	ck_assert_msg(most <= 2, "%d connections at once to one host", most);

	/* The rebound name: refused at the socket, never reached. */
	for (until = now_mono() + 30;; usleep(20000)) {
		ck_assert_int_eq(store_webhook_get(env.st, rebound.id, &w),
		    STORE_OK);
		if (w.failures > 0)
			break;
		ck_assert_msg(now_mono() < until, "the rebound webhook was "
		    "never tried");
	}
	ck_assert_msg(strstr(w.last_error, "refused to connect to") != NULL &&
	    strstr(w.last_error, "loopback") != NULL, "%s", w.last_error);
	pthread_mutex_lock(&hang.lock);
	ck_assert_int_le(hang.accepted, 6);	/* the six, never /rebind */
	pthread_mutex_unlock(&hang.lock);

	pbemd_signal(SIGTERM);
	hang_stop();
	MHD_stop_daemon(receiver);
	for (i = 0; i < rx.n; i++)
		free(rx.d[i].body);
}
END_TEST

static void
setup(void)
{
	testenv_open(&env, 2);
}

static void
teardown(void)
{
	if (pbemd_pid > 0) {
		kill(pbemd_pid, SIGKILL);
		waitpid(pbemd_pid, NULL, 0);
	}
	testenv_close(&env);
}

int
main(void)
{
	Suite *s = suite_create("webhook_daemon");
	TCase *tc = tcase_create("end_to_end");
	SRunner *sr;
	int failed;

	if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		return 1;
	signal(SIGPIPE, SIG_IGN);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_webhooks_end_to_end);
	tcase_add_test(tc, test_slow_receiver_and_rebinding);
	tcase_add_test(tc, test_chat_formats);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? 1 : 0;
}
