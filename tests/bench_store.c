/*
 * bench_store.c -- committed transactions per second for the store's
 * per-move write pattern (docs/STORE.md, "Performance").
 *
 * Each transaction is what the engine writes for one accepted move:
 * BEGIN IMMEDIATE; one log entry; one ~2 KB snapshot; three outbox rows;
 * COMMIT.  Moves are spread over 100 games.  The figure that matters is
 * the synchronous=NORMAL one (the daemon's setting); FULL and OFF are
 * printed beside it for scale.
 *
 * usage: bench_store [transactions]	(default 20000 per setting)
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store.h"

#define NGAMES		100
#define SNAPSHOT_BYTES	2048

static char	tmpdir[256];

static void
die(const char *what, struct store *st)
{
	fprintf(stderr, "bench_store: %s: %s\n", what,
	    st ? store_errmsg(st) : "failed");
	exit(1);
}

static double
seconds(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
setup(struct store *st, int64_t games[NGAMES])
{
	struct store_player	 p;
	struct store_game	 g;
	struct store_entry	 e;
	int			 i;

	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "bench");
	memset(p.pubkey, 1, sizeof(p.pubkey));
	if (store_player_add(st, &p) != STORE_OK)
		die("player add", st);
	for (i = 0; i < NGAMES; i++) {
		memset(&g, 0, sizeof(g));
		snprintf(g.ruleset, sizeof(g.ruleset), "stmissions");
		g.options = "{}";
		g.nseats = 2;
		g.seat_player[0] = g.seat_player[1] = p.id;
		if (store_game_add(st, &g) != STORE_OK)
			die("game add", st);
		games[i] = g.id;
		memset(&e, 0, sizeof(e));
		e.game_id = g.id;
		e.seat = -1;
		e.text = "genesis";
		if (store_log_append(st, &e) != STORE_OK)
			die("genesis", st);
	}
}

/* One move's worth of writes, in one transaction. */
static void
move(struct store *st, int64_t game, int64_t seq, const char *snapshot)
{
	struct store_entry	 e;
	struct store_outbox	 o;
	int			 i;

	memset(&e, 0, sizeof(e));
	e.game_id = game;
	e.seq = seq;
	e.kind = STORE_ENTRY_MOVE;
	e.seat = (int)(seq % 2);
	e.text = "play 3 Enterprise on mission 2 ; jouer 3 Enterprise";
	memset(e.signature, 0x5a, sizeof(e.signature));
	memset(e.hash, (int)seq, sizeof(e.hash));
	e.time = 1700000000 + seq;

	memset(&o, 0, sizeof(o));
	o.game_id = game;
	o.seq = seq;
	snprintf(o.channel, sizeof(o.channel), "mail");
	snprintf(o.event, sizeof(o.event), "turn");
	o.payload = "{\"game\":1,\"seq\":2,\"view\":\"...\"}";

	if (store_begin(st) != STORE_OK)
		die("begin", st);
	if (store_log_append(st, &e) != STORE_OK)
		die("log append", st);
	if (store_snapshot_put(st, game, seq, snapshot) != STORE_OK)
		die("snapshot put", st);
	for (i = 0; i < 3; i++) {
		snprintf(o.recipient, sizeof(o.recipient),
		    "seat%d@example.org", i);
		if (store_outbox_add(st, &o) != STORE_OK)
			die("outbox add", st);
	}
	if (store_commit(st) != STORE_OK)
		die("commit", st);
}

static long long
file_size(const char *path)
{
	struct stat	 sb;

	return stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

static void
run(const char *sync, long n, const char *snapshot)
{
	struct store	*st;
	int64_t		 games[NGAMES];
	double		 t0, t;
	long		 i;
	char		 path[PATH_MAX], wal[PATH_MAX + 8], err[256];

	setenv("PBEM_STORE_SYNC", sync, 1);
	snprintf(path, sizeof(path), "%s/bench-%s.db", tmpdir, sync);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (store_open(path, &st, err, sizeof(err)) != STORE_OK) {
		fprintf(stderr, "bench_store: %s\n", err);
		exit(1);
	}
	setup(st, games);

	t0 = seconds();
	for (i = 0; i < n; i++)
		move(st, games[i % NGAMES], 1 + i / NGAMES, snapshot);
	t = seconds() - t0;

	printf("store commits, synchronous=%-6s %8.0f txn/s  "
	    "(%ld txns in %.3f s; db %lld KB, wal %lld KB)\n", sync,
	    (double)n / t, n, t, file_size(path) / 1024,
	    file_size(wal) / 1024);
	store_close(st);
	unlink(path);
	unlink(wal);
	snprintf(wal, sizeof(wal), "%s-shm", path);
	unlink(wal);
}

int
main(int argc, char *argv[])
{
	static const char pattern[] = "{\"hand\":[12,7,33],\"deck\":\"...\"}";
	const char	*base = getenv("TMPDIR");
	char		 snapshot[SNAPSHOT_BYTES + 1];
	long		 n = 20000;
	int		 i;

	if (argc > 1 && (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: bench_store [transactions]\n");
		return 2;
	}
	if ((size_t)snprintf(tmpdir, sizeof(tmpdir), "%s/bench_store.XXXXXX",
	    base && *base ? base : "/tmp") >= sizeof(tmpdir) ||
	    mkdtemp(tmpdir) == NULL) {
		perror("bench_store: mkdtemp");
		return 1;
	}
	/* A JSON-ish state of the size a card game's snapshot has. */
	for (i = 0; i < SNAPSHOT_BYTES; i++)
		snapshot[i] = pattern[i % (sizeof(pattern) - 1)];
	snapshot[SNAPSHOT_BYTES] = '\0';

	printf("each txn: BEGIN IMMEDIATE; log append; %d-byte snapshot; "
	    "3 outbox rows; COMMIT\n", SNAPSHOT_BYTES);
	run("normal", n, snapshot);
	run("full", n / 4, snapshot);
	run("off", n, snapshot);
	rmdir(tmpdir);
	return 0;
}
