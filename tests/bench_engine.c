/*
 * bench_engine.c -- how fast the path of a move is, end to end.
 *
 * Plays complete Star Trek: Missions games through engine_submit() on a
 * real database file (WAL, synchronous=NORMAL, as in production) and
 * times only engine_submit(): find the block, verify the Ed25519
 * signature, BEGIN IMMEDIATE, load and check the snapshot, parse, check,
 * apply, save, hash, append the log entry, the snapshot and the outbox
 * rows, COMMIT, sign the receipt.  Choosing and signing the moves (the
 * players' side) is not timed.  Then audits every game (chain, receipts,
 * signatures, replay from the seed) and reports replayed moves per
 * second and the CPU time per move of all the audit's threads (the
 * figure to read on a busy machine: on an idle one with C cores the
 * rate can reach about C / CPU time); then the same again with each
 * game's log read from the store first, as `pbemctl audit` does.  Last, the database's size per move at steady state: every
 * outbox row delivered and pruned (as pbemd does after outbox_keep_days),
 * the pages in use (page_count - freelist_count) times the page size,
 * divided by the moves.  Figures go to standard output; `make bench`
 * runs it.
 *
 * PBEM_BENCH_GAMES sets the number of games (default 300); with
 * PBEM_BENCH_KEEP set, the database is left in its directory (named on
 * standard error) for a look at where the bytes go (dbstat).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "audit.h"
#include "engine.h"
#include "protocol.h"
#include "store_test.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds of the whole process, every thread. */
static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Audit game: read its log from the store (timed when read_too), then
 * check it (timed); adds the seconds and CPU seconds, returns the moves. */
static int64_t
audit_game(struct store *st, int64_t game, int read_too, double *wall,
    double *cpu)
{
	struct audit_report report;
	struct audit_log log;
	struct store_game row;
	char err[1024];
	double t0 = now(), c0 = cpu_now();
	int64_t replayed;

	if (audit_load_store(st, game, &log, &row, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	if (!read_too) {
		t0 = now();
		c0 = cpu_now();
	}
	if (audit_run(&log, &report, NULL, NULL) != 0) {
		fprintf(stderr, "%s\n", report.reason);
		exit(1);
	}
	*wall += now() - t0;
	*cpu += cpu_now() - c0;
	replayed = (int64_t)log.nentries - 1;
	audit_log_clear(&log);
	store_game_clear(&row);
	return replayed;
}

static uint32_t
pick(uint64_t *s, uint32_t bound)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s % bound);
}

int
main(void)
{
	unsigned char sk[4][64], pub[32];
	char dir[] = "/tmp/pbem-bench-XXXXXX", path[256], err[1024], text[128];
	char block[4096], *keypath;
	int64_t players[4], game, first_game = 0, moves = 0, replayed = 0;
	double t_submit = 0, t_audit = 0, c_audit = 0, t_read = 0, c_read = 0;
	double t0;
	struct store_player p;
	struct serverkey *key;
	struct store *st;
	int ngames, g, i, seat;
	uint64_t rnd = 42;
	const char *env_games = getenv("PBEM_BENCH_GAMES");
	struct rusage ru;

	ngames = env_games ? atoi(env_games) : 300;
	if (sodium_init() < 0 || mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/bench.db", dir);
	if (store_open(path, &st, err, sizeof(err)) != STORE_OK)
		return fprintf(stderr, "%s\n", err), 1;
	keypath = serverkey_path_for(path);
	key = serverkey_open(keypath, 1, err, sizeof(err));
	free(keypath);
	serverkey_public(key, pub);
	proto_pubkey_format(pub, text, sizeof(text));
	store_meta_set(st, "server_key", text);
	for (i = 0; i < 4; i++) {
		memset(&p, 0, sizeof(p));
		snprintf(p.name, sizeof(p.name), "player%d", i);
		crypto_sign_keypair(p.pubkey, sk[i]);
		store_player_add(st, &p);
		players[i] = p.id;
	}

	for (g = 0; g < ngames; g++) {
		int nseats = 2 + g % 3;
		if (engine_create_game(st, key, "stmissions", NULL, players,
		    nseats, &game, err, sizeof(err)) != ENGINE_OK)
			return fprintf(stderr, "%s\n", err), 1;
		if (g == 0)
			first_game = game;
		for (;;) {
			struct engine_reply reply;
			struct gamestate gs;
			struct proto_move m;
			json_t *legal;

			if (gamestate_load(st, game, -1, &gs, err,
			    sizeof(err)) != ENGINE_OK)
				return fprintf(stderr, "%s\n", err), 1;
			if (gs.module->to_act(gs.state, &seat, 1) == 0) {
				gamestate_clear(&gs);
				break;
			}
			legal = gs.module->legal_moves(gs.state, seat);
			memset(&m, 0, sizeof(m));
			m.game_id = game;
			m.seq = gs.seq + 1;
			m.seat = seat;
			snprintf(m.text, sizeof(m.text), "%s", json_string_value(
			    json_array_get(legal, pick(&rnd,
			    (uint32_t)json_array_size(legal)))));
			json_decref(legal);
			gamestate_clear(&gs);
			proto_move_sign(&m, sk[seat]);
			proto_move_armour(&m, block, sizeof(block));

			t0 = now();
			engine_submit(st, key, block, strlen(block),
			    RULES_LANG_EN, &reply);
			t_submit += now() - t0;
			if (reply.status != ENGINE_OK)
				return fprintf(stderr, "%s\n", reply.message),
				    1;
			engine_reply_clear(&reply);
			moves++;
		}
		replayed += audit_game(st, game, 0, &t_audit, &c_audit);
	}
	for (g = 0; g < ngames; g++)
		audit_game(st, first_game + g, 1, &t_read, &c_read);
	getrusage(RUSAGE_SELF, &ru);
	printf("engine: %d games, %lld signed moves through the store "
	    "(WAL, synchronous=NORMAL)\n", ngames, (long long)moves);
	printf("  submit (verify + apply + commit + receipt): %.0f moves/s, "
	    "%.1f us/move\n", (double)moves / t_submit,
	    1e6 * t_submit / (double)moves);
	printf("  audit (chain + receipts + signatures + replay): %.0f "
	    "moves/s, %.1f us of CPU/move\n", (double)replayed / t_audit,
	    1e6 * c_audit / (double)replayed);
	printf("  audit with the log read from the store: %.0f moves/s, "
	    "%.1f us of CPU/move\n", (double)replayed / t_read,
	    1e6 * c_read / (double)replayed);
	printf("  peak RSS %ld KiB; %ld CPUs online\n", ru.ru_maxrss,
	    sysconf(_SC_NPROCESSORS_ONLN));
	{
		sqlite3 *db = store_test_db(st);
		sqlite3_stmt *q;
		int64_t pages = 0, freel = 0, psize = 0;

		sqlite3_exec(db, "UPDATE outbox SET status = 1", 0, 0, 0);
		if (engine_outbox_prune(st, INT64_MAX / 2) < 0)
			return fprintf(stderr, "%s\n", store_errmsg(st)), 1;
		sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", 0, 0, 0);
		if (sqlite3_prepare_v2(db, "SELECT (SELECT page_count FROM "
		    "pragma_page_count), (SELECT freelist_count FROM "
		    "pragma_freelist_count), (SELECT page_size FROM "
		    "pragma_page_size)", -1, &q, NULL) == SQLITE_OK &&
		    sqlite3_step(q) == SQLITE_ROW) {
			pages = sqlite3_column_int64(q, 0);
			freel = sqlite3_column_int64(q, 1);
			psize = sqlite3_column_int64(q, 2);
		}
		sqlite3_finalize(q);
		printf("  storage at steady state (outbox delivered and "
		    "pruned): %.0f bytes/move (%lld pages of %lld bytes in "
		    "use)\n", (double)((pages - freel) * psize) /
		    (double)moves, (long long)(pages - freel),
		    (long long)psize);
	}
	serverkey_close(key);
	store_close(st);
	if (getenv("PBEM_BENCH_KEEP") != NULL)
		return fprintf(stderr, "kept %s\n", dir), 0;
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	return system(path) == 0 ? 0 : 1;
}
