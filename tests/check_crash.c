/*
 * check_crash.c -- pbemd killed with SIGKILL under load loses no
 * acknowledged move.
 *
 * Several client threads, each with its own libcurl handle and its own
 * games, post signed legal moves to the real pbemd and record every
 * receipt it answered (HTTP 200).  Once enough moves were acknowledged,
 * and while the clients are still posting, pbemd gets SIGKILL.  Then:
 *   - every acknowledged move is in the log, with the entry hash its
 *     receipt names, and the receipt's signature verifies with the
 *     server key;
 *   - a move that was in flight at the kill is either wholly there or
 *     wholly absent (the log ends at the move before it or at it);
 *   - `pbemctl audit` passes for every game;
 *   - pbemd starts again on the same database, and the next move of
 *     every running game is accepted at the right sequence number.
 * Each of these holds however the kill falls; only how many moves were
 * in flight at that moment varies from run to run.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <curl/curl.h>

#include "loadlib.h"

#define NCLIENTS	4
#define NGAMES		24		/* NCLIENTS divides it */
#define KILL_AFTER	240		/* acknowledged moves before SIGKILL */

struct ack {
	int64_t		game_id, seq;
	unsigned char	entry_hash[32];
	char		receipt[PROTO_ARMOUR_MAX];
};

struct answer {
	char	*text;
	size_t	 len;
};

struct client {
	pthread_t	 thread;
	struct loadenv	*env;
	int		 port;
	struct replica	*games[NGAMES / NCLIENTS];
	struct ack	*acks;
	int		 nacks, cap;
	int		 refused;	/* answers other than 200 while up */
};

static struct loadenv	 env;
static struct replica	 replicas[NGAMES];
static atomic_int	 acked;
static atomic_int	 running;	/* client threads still posting */

static size_t
collect(char *data, size_t size, size_t n, void *arg)
{
	struct answer *a = arg;
	char *grown = realloc(a->text, a->len + size * n + 1);

	if (grown == NULL)
		return 0;
	a->text = grown;
	memcpy(a->text + a->len, data, size * n);
	a->len += size * n;
	a->text[a->len] = '\0';
	return size * n;
}

/* POST block to the game's moves; the HTTP status (0: no answer) and
 * the body in *a. */
static long
post(CURL *curl, int port, int64_t game, const char *block,
    struct answer *a)
{
	char url[128];
	long status = 0;

	snprintf(url, sizeof(url), "http://127.0.0.1:%d/v1/games/%lld/moves",
	    port, (long long)game);
	a->len = 0;
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, block);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, a);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
	if (curl_easy_perform(curl) != CURLE_OK)
		return 0;
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	return status;
}

/* Keep a 200's receipt. */
static void
record(struct client *c, const char *body)
{
	json_t *j = json_loads(body, 0, NULL);
	struct ack *a;

	ck_assert_msg(j != NULL, "200 without JSON: %s", body);
	if (c->nacks == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->acks = realloc(c->acks, (size_t)c->cap * sizeof(*a));
		ck_assert_ptr_nonnull(c->acks);
	}
	a = &c->acks[c->nacks++];
	a->game_id = json_integer_value(json_object_get(j, "game"));
	a->seq = json_integer_value(json_object_get(j, "seq"));
	ck_assert_int_eq(proto_unhex(json_string_value(json_object_get(j,
	    "entry_hash")), a->entry_hash, 32), 0);
	snprintf(a->receipt, sizeof(a->receipt), "%s",
	    json_string_value(json_object_get(j, "receipt")));
	json_decref(j);
}

static void *
client_main(void *arg)
{
	struct client *c = arg;
	struct answer a = { NULL, 0 };
	char block[PROTO_ARMOUR_MAX];
	uint64_t rnd = 0x5eed + (uint64_t)(uintptr_t)c;
	int turn = 0, i, live;
	struct replica *r;
	CURL *curl = curl_easy_init();
	long status;

	ck_assert_ptr_nonnull(curl);
	for (;;) {
		for (live = 0, i = 0; i < NGAMES / NCLIENTS; i++) {
			r = c->games[(turn + i) % (NGAMES / NCLIENTS)];
			if (replica_next(c->env, r, &rnd, block,
			    sizeof(block)) == 0) {
				live = 1;
				turn += i + 1;
				break;
			}
		}
		if (!live)
			break;
		status = post(curl, c->port, r->gs.game.id, block, &a);
		if (status == 0)
			break;		/* pbemd is gone */
		if (status != 200) {
			c->refused++;
			fprintf(stderr, "HTTP %ld: %s\n", status, a.text);
			break;
		}
		record(c, a.text);
		replica_advance(r);
		atomic_fetch_add(&acked, 1);
	}
	free(a.text);
	curl_easy_cleanup(curl);
	atomic_fetch_sub(&running, 1);
	return NULL;
}

static void
run_clients(struct client *clients, int port)
{
	int i, k;

	atomic_store(&running, NCLIENTS);
	for (i = 0; i < NCLIENTS; i++) {
		clients[i].env = &env;
		clients[i].port = port;
		for (k = 0; k < NGAMES / NCLIENTS; k++)
			clients[i].games[k] = &replicas[i + k * NCLIENTS];
		ck_assert_int_eq(pthread_create(&clients[i].thread, NULL,
		    client_main, &clients[i]), 0);
	}
}

/* After the restart: the replica must match the log, which may or may
 * not hold the move that was in flight at the kill. */
static void
resync(struct store *st, struct replica *r)
{
	struct store_entry last;

	ck_assert_int_eq(store_log_last(st, r->gs.game.id, &last), STORE_OK);
	if (last.seq == r->seq) {
		/* The move in flight was committed, unacknowledged. */
		ck_assert_int_ge(r->seat, 0);
		ck_assert_str_eq(last.text, r->text);
		replica_advance(r);
	} else
		ck_assert_msg(last.seq == r->seq - 1, "game %lld: the log "
		    "ends at %lld, the replica at %lld",
		    (long long)r->gs.game.id, (long long)last.seq,
		    (long long)r->seq - 1);
	store_entry_clear(&last);
}

static void
audit_all(void)
{
	char cmd[1024];
	const char *build = getenv("top_builddir");

	snprintf(cmd, sizeof(cmd), "'%s/daemon/pbemctl' -d '%s' audit "
	    ">'%s/audit.txt' 2>&1", build ? build : ".", env.dbpath, env.dir);
	ck_assert_msg(system(cmd) == 0, "pbemctl audit failed; see %s/"
	    "audit.txt", env.dir);
}

START_TEST(test_sigkill_under_load)
{
	static const char *const opts[] = { NULL };
	struct client clients[NCLIENTS];
	struct proto_receipt rc;
	struct store_entry e;
	struct answer a = { NULL, 0 };
	char err[512], block[PROTO_ARMOUR_MAX];
	int i, k, total = 0, playing = 0, still;
	uint64_t rnd = 99;
	struct store *st;
	CURL *curl;

	loadenv_open(&env, 2);
	for (i = 0; i < NGAMES; i++)
		loadenv_game(&env, "stmissions", 2, &replicas[i]);
	ck_assert_int_eq(loadenv_start_pbemd(&env, 8, opts), 0);
	memset(clients, 0, sizeof(clients));
	run_clients(clients, env.port);
	while (atomic_load(&acked) < KILL_AFTER && atomic_load(&running) > 0)
		usleep(1000);
	/* Mid-load: the clients still have moves to post. */
	still = atomic_load(&running);
	ck_assert_msg(still == NCLIENTS, "only %d of %d clients were still "
	    "posting when pbemd was killed", still, NCLIENTS);
	ck_assert_int_eq(loadenv_stop_pbemd(&env, SIGKILL), -1);
	for (i = 0; i < NCLIENTS; i++) {
		pthread_join(clients[i].thread, NULL);
		ck_assert_int_eq(clients[i].refused, 0);
	}

	/* Every acknowledged move is there, as its receipt says. */
	ck_assert_int_eq(store_open(env.dbpath, &st, err, sizeof(err)),
	    STORE_OK);
	for (i = 0; i < NCLIENTS; i++)
		for (k = 0; k < clients[i].nacks; k++) {
			struct ack *ak = &clients[i].acks[k];

			ck_assert_int_eq(store_log_get(st, ak->game_id, ak->seq,
			    &e), STORE_OK);
			ck_assert_mem_eq(e.hash, ak->entry_hash, 32);
			ck_assert_int_eq(proto_receipt_find(ak->receipt,
			    strlen(ak->receipt), &rc, err, sizeof(err)),
			    PROTO_OK);
			ck_assert_int_eq(proto_receipt_verify(&rc,
			    env.server_pub), PROTO_OK);
			ck_assert_mem_eq(rc.entry_hash, e.hash, 32);
			ck_assert_mem_eq(rc.signature, e.receipt, 64);
			store_entry_clear(&e);
			total++;
		}
	ck_assert_int_ge(total, KILL_AFTER);
	for (i = 0; i < NGAMES; i++)
		resync(st, &replicas[i]);
	store_close(st);
	audit_all();

	/* The daemon comes back on the same file and the games go on. */
	env.port++;
	ck_assert_int_eq(loadenv_start_pbemd(&env, 2, opts), 0);
	ck_assert_ptr_nonnull(curl = curl_easy_init());
	for (i = 0; i < NGAMES; i++) {
		if (replica_next(&env, &replicas[i], &rnd, block,
		    sizeof(block)) != 0)
			continue;
		playing++;
		ck_assert_int_eq(post(curl, env.port, replicas[i].gs.game.id,
		    block, &a), 200);
		ck_assert_ptr_nonnull(strstr(a.text, "\"seq\""));
		record(&clients[0], a.text);
		ck_assert_int_eq(clients[0].acks[clients[0].nacks - 1].seq,
		    replicas[i].seq);
		replica_advance(&replicas[i]);
	}
	ck_assert_int_gt(playing, 0);
	curl_easy_cleanup(curl);
	free(a.text);
	ck_assert_int_eq(loadenv_stop_pbemd(&env, SIGTERM), 0);
	audit_all();

	for (i = 0; i < NCLIENTS; i++)
		free(clients[i].acks);
	for (i = 0; i < NGAMES; i++)
		replica_clear(&replicas[i]);
	loadenv_close(&env, 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("crash");
	TCase *tc = tcase_create("sigkill");
	SRunner *sr;
	int failed;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	tcase_add_test(tc, test_sigkill_under_load);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed == 0 ? 0 : 1;
}
