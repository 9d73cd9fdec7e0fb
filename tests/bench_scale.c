/*
 * bench_scale.c -- does an operation cost the same with many games
 * stored as with few?  (issue 20, goal 2)
 *
 * Builds two databases through the engine (engine_create_game(): real
 * games, seeds, genesis entries and opening snapshots), a small one of
 * 1,000 games and a large one (PBEM_SCALE_GAMES, default 100,000), each
 * with one game in ten running and the others over, and one player per
 * ten games, each with an address.  Then, on each, times:
 *   - a scheduler pass (schedule_tick()) after a move in each of ten
 *     games, once the first pass has judged every running game;
 *   - a player's games: one page of 50 (store_game_page(), by player);
 *   - a mail lookup: the player of an address (store_player_find_email());
 *   - a list page: 50 running games after an id in the middle;
 *   - a retention pass (engine_outbox_prune(), which pbemd runs after
 *     every scheduler pass) with every outbox row delivered and none old
 *     enough to go: the rows it keeps must cost nothing;
 *   - a move: a signed move through engine_submit() (verify, apply,
 *     commit, receipt).
 * Each figure is the mean of many repetitions, in microseconds, with the
 * ratio large / small.  `make bench` builds it; it is never a timed test.
 *
 * Building: every running game, and the first CLONE_AFTER games, are
 * made through the engine (about 1 ms a game).  Past those, each game
 * that is over is a copy of one made through the engine (its games,
 * seats, genesis entry, snapshot and turn rows under a new id, with its
 * own two players), written with prepared statements, nine games to a
 * transaction: so 10^6 games (PBEM_SCALE_GAMES=1000000) build in minutes.
 * A copy's genesis record still names the game it was copied from, so
 * it would not pass an audit; nothing here audits, and the indexes and
 * rows the timed operations read are those of real games.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "engine.h"
#include "protocol.h"
#include "schedule.h"
#include "store_test.h"

#define GAMES_PER_PLAYER	10
#define RUNNING_EVERY		10	/* one game in ten runs */
#define PAGE			50
#define CLONE_AFTER		10000	/* later games over: copies */

struct scale {
	char		  dir[64];
	struct store	 *st;
	struct serverkey *key;
	int		  ngames, nplayers;
	int64_t		  first_game, last_game;
	unsigned char	(*sk)[64];	/* each player's secret key */
	int64_t		  now;
};

static double
seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
die(const char *what, const char *why)
{
	fprintf(stderr, "bench_scale: %s: %s\n", what, why);
	exit(1);
}

/* The statements that copy a game that is over under a new id. */
enum { COPY_GAME, COPY_SEATS, COPY_GENESIS, COPY_SNAPSHOTS, COPY_TURN,
	COPY_COUNT };

static const char *const copy_sql[COPY_COUNT] = {
	[COPY_GAME] = "INSERT INTO games (id, ruleset, ruleset_version, "
	    "options, nseats, seed, commitment, status, created, cards_hash) "
	    "SELECT ?1, ruleset, ruleset_version, options, nseats, seed, "
	    "commitment, status, created, cards_hash FROM games WHERE id = ?2",
	[COPY_SEATS] = "INSERT INTO seats (game_id, seat, player_id, status) "
	    "SELECT ?1, seat, CASE seat WHEN 0 THEN ?3 ELSE ?4 END, status "
	    "FROM seats WHERE game_id = ?2",
	[COPY_GENESIS] = "INSERT INTO log (game_id, seq, kind, seat, text, "
	    "signature, state_hash, prev_hash, hash, receipt, time, event_id) "
	    "SELECT ?1, seq, kind, seat, text, signature, state_hash, "
	    "prev_hash, hash, receipt, time, (SELECT max(event_id) + 1 FROM "
	    "log) FROM log WHERE game_id = ?2 AND seq = 0",
	[COPY_SNAPSHOTS] = "INSERT INTO snapshots (game_id, seq, state) "
	    "SELECT ?1, seq, state FROM snapshots WHERE game_id = ?2",
	[COPY_TURN] = "INSERT INTO turns (game_id, turn, last_seq, started, "
	    "window, waiting, due) SELECT ?1, turn, last_seq, started, window, "
	    "waiting, due FROM turns WHERE game_id = ?2",
};

/* Copy game from under the id to, seated by players a and b. */
static void
copy_game(sqlite3 *db, sqlite3_stmt **stmt, int64_t to, int64_t from,
    int64_t a, int64_t b)
{
	int i;

	for (i = 0; i < COPY_COUNT; i++) {
		sqlite3_bind_int64(stmt[i], 1, to);
		sqlite3_bind_int64(stmt[i], 2, from);
		if (i == COPY_SEATS) {
			sqlite3_bind_int64(stmt[i], 3, a);
			sqlite3_bind_int64(stmt[i], 4, b);
		}
		if (sqlite3_step(stmt[i]) != SQLITE_DONE)
			die("copy", sqlite3_errmsg(db));
		sqlite3_reset(stmt[i]);
	}
}

/* The players and games of one database. */
static void
build(struct scale *sc, int ngames)
{
	char path[128], err[1024], text[128];
	unsigned char pub[32];
	struct store_player p;
	int64_t seated[2], game, copies = 0;
	sqlite3_stmt *stmt[COPY_COUNT];
	sqlite3 *db;
	char *keypath;
	int i, g;

	snprintf(sc->dir, sizeof(sc->dir), "/tmp/pbem-scale-XXXXXX");
	if (mkdtemp(sc->dir) == NULL)
		die("mkdtemp", "failed");
	snprintf(path, sizeof(path), "%s/scale.db", sc->dir);
	if (store_open(path, &sc->st, err, sizeof(err)) != STORE_OK)
		die("store_open", err);
	keypath = serverkey_path_for(path);
	sc->key = serverkey_open(keypath, 1, err, sizeof(err));
	free(keypath);
	if (sc->key == NULL)
		die("server key", err);
	serverkey_public(sc->key, pub);
	proto_pubkey_format(pub, text, sizeof(text));
	store_meta_set(sc->st, "server_key", text);
	/* Only while building: the figures are taken with the store's
	 * own settings, set again below. */
	sqlite3_exec(store_test_db(sc->st), "PRAGMA synchronous = OFF", NULL,
	    NULL, NULL);

	sc->ngames = ngames;
	sc->nplayers = ngames / GAMES_PER_PLAYER;
	if ((sc->sk = calloc((size_t)sc->nplayers, sizeof(*sc->sk))) == NULL)
		die("calloc", "out of memory");
	for (i = 0; i < sc->nplayers; i++) {
		memset(&p, 0, sizeof(p));
		snprintf(p.name, sizeof(p.name), "player%d", i);
		snprintf(p.email, sizeof(p.email), "player%d@example.org", i);
		crypto_sign_keypair(p.pubkey, sc->sk[i]);
		if (store_player_add(sc->st, &p) != STORE_OK)
			die("player", store_errmsg(sc->st));
	}
	db = store_test_db(sc->st);
	for (i = 0; i < COPY_COUNT; i++)
		if (sqlite3_prepare_v2(db, copy_sql[i], -1, &stmt[i], NULL) !=
		    SQLITE_OK)
			die("prepare", sqlite3_errmsg(db));
	for (g = 0; g < ngames; g++) {
		seated[0] = 1 + g % sc->nplayers;
		seated[1] = 1 + (g + 1 + g / sc->nplayers) % sc->nplayers;
		if (seated[1] == seated[0])
			seated[1] = 1 + (seated[0] % sc->nplayers);
		if (g >= CLONE_AFTER && g % RUNNING_EVERY != 0) {
			/* Over: a copy of game g mod CLONE_AFTER (over too). */
			if (g % RUNNING_EVERY == 1 && sqlite3_exec(db, "BEGIN",
			    NULL, NULL, NULL) != SQLITE_OK)
				die("begin", sqlite3_errmsg(db));
			copy_game(db, stmt, sc->first_game + g, sc->first_game +
			    g % CLONE_AFTER, seated[0], seated[1]);
			copies++;
			if ((g % RUNNING_EVERY == RUNNING_EVERY - 1 ||
			    g == ngames - 1) && sqlite3_exec(db, "COMMIT",
			    NULL, NULL, NULL) != SQLITE_OK)
				die("commit", sqlite3_errmsg(db));
			sc->last_game = sc->first_game + g;
			continue;
		}
		if (engine_create_game(sc->st, sc->key, "stmissions", NULL,
		    seated, 2, &game, err, sizeof(err)) != ENGINE_OK)
			die("game", err);
		if (g > 0 && game != sc->first_game + g)
			die("game", "ids are not consecutive");
		if (g == 0)
			sc->first_game = game;
		sc->last_game = game;
		if (g % RUNNING_EVERY != 0 && store_game_set_status(sc->st,
		    game, STORE_GAME_OVER) != STORE_OK)
			die("status", store_errmsg(sc->st));
	}
	for (i = 0; i < COPY_COUNT; i++)
		sqlite3_finalize(stmt[i]);
	if (copies > 0)
		fprintf(stderr, "bench_scale: %lld of %d games over are copies\n",
		    (long long)copies, ngames);
	sqlite3_exec(db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
	sc->now = (int64_t)time(NULL);
}

static void
destroy(struct scale *sc)
{
	char cmd[128];

	serverkey_close(sc->key);
	store_close(sc->st);
	free(sc->sk);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sc->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_scale: could not remove %s\n", sc->dir);
}

/* The secret key of the player at seat of game. */
static const unsigned char *
seat_key(struct scale *sc, int64_t game, int seat)
{
	struct store_game g;
	int64_t player;

	if (store_game_get(sc->st, game, &g) != STORE_OK)
		die("game get", store_errmsg(sc->st));
	player = g.seat_player[seat];
	store_game_clear(&g);
	return sc->sk[player - 1];
}

/* One signed move in a running game (the one to act plays its first
 * legal move); its engine_submit() time in seconds. */
static double
one_move(struct scale *sc, int64_t game)
{
	struct engine_reply reply;
	struct gamestate gs;
	struct proto_move m;
	char err[512], block[4096];
	json_t *legal;
	double t0, spent;
	int seat;

	if (gamestate_load(sc->st, game, -1, &gs, err, sizeof(err)) !=
	    ENGINE_OK)
		die("load", err);
	if (gs.module->to_act(gs.state, &seat, 1) == 0) {
		gamestate_clear(&gs);
		return -1;
	}
	legal = gs.module->legal_moves(gs.state, seat);
	memset(&m, 0, sizeof(m));
	m.game_id = game;
	m.seq = gs.seq + 1;
	m.seat = seat;
	snprintf(m.text, sizeof(m.text), "%s",
	    json_string_value(json_array_get(legal, 0)));
	json_decref(legal);
	gamestate_clear(&gs);
	proto_move_sign(&m, seat_key(sc, game, seat));
	proto_move_armour(&m, block, sizeof(block));
	t0 = seconds();
	engine_submit(sc->st, sc->key, block, strlen(block), RULES_LANG_EN,
	    &reply);
	spent = seconds() - t0;
	if (reply.status != ENGINE_OK)
		die("move", reply.message);
	engine_reply_clear(&reply);
	return spent;
}

/* The running game number i (0, 1, ...), as build() made them. */
static int64_t
running_game(const struct scale *sc, int i)
{
	int n = sc->ngames / RUNNING_EVERY;

	return sc->first_game + (int64_t)(i % n) * RUNNING_EVERY;
}

static int
count_game(const struct store_game *g, void *arg)
{
	(void)g;
	(*(int *)arg)++;
	return 0;
}

struct figures {
	double	first_pass, pass, player_page, mail, list_page, retention,
		move;
};

static void
measure(struct scale *sc, struct figures *f)
{
	struct schedule_stats stats;
	struct store_game_query q;
	struct store_player p;
	char err[1024], email[64];
	double t0, moved;
	int i, rep, rows, nmoves;
	const int reps = 2000;

	/* The first pass judges every running game (each turn is new). */
	t0 = seconds();
	schedule_tick(sc->st, sc->key, sc->now, &stats, err, sizeof(err));
	f->first_pass = seconds() - t0;

	f->pass = 0;
	f->move = 0;
	nmoves = 0;
	for (rep = 0; rep < 20; rep++) {
		for (i = 0; i < 10; i++) {
			moved = one_move(sc, running_game(sc, rep * 10 + i));
			if (moved >= 0) {
				f->move += moved;
				nmoves++;
			}
		}
		sc->now += 60;
		t0 = seconds();
		if (schedule_tick(sc->st, sc->key, sc->now, &stats, err,
		    sizeof(err)) != 0)
			die("scheduler", err);
		f->pass += seconds() - t0;
	}
	f->pass /= 20;
	f->move /= nmoves > 0 ? nmoves : 1;

	t0 = seconds();
	for (rep = 0; rep < reps; rep++) {
		memset(&q, 0, sizeof(q));
		q.limit = PAGE;
		q.status = -1;
		q.player = 1 + (rep * 7919) % sc->nplayers;
		rows = 0;
		if (store_game_page(sc->st, &q, count_game, &rows) != STORE_OK)
			die("player page", store_errmsg(sc->st));
	}
	f->player_page = (seconds() - t0) / reps;

	t0 = seconds();
	for (rep = 0; rep < reps; rep++) {
		snprintf(email, sizeof(email), "Player%d@example.org",
		    (rep * 7919) % sc->nplayers);
		if (store_player_find_email(sc->st, email, &p) != STORE_OK)
			die("mail lookup", store_errmsg(sc->st));
	}
	f->mail = (seconds() - t0) / reps;

	t0 = seconds();
	for (rep = 0; rep < reps; rep++) {
		memset(&q, 0, sizeof(q));
		q.limit = PAGE;
		q.status = STORE_GAME_RUNNING;
		q.after = sc->first_game + (sc->last_game - sc->first_game) *
		    (rep % 100) / 100;
		rows = 0;
		if (store_game_page(sc->st, &q, count_game, &rows) != STORE_OK)
			die("list page", store_errmsg(sc->st));
	}
	f->list_page = (seconds() - t0) / reps;

	/* Every notice the games queued, delivered today: a week's
	 * retention keeps them all. */
	if (sqlite3_exec(store_test_db(sc->st), "UPDATE outbox SET status = 1",
	    NULL, NULL, NULL) != SQLITE_OK)
		die("outbox", sqlite3_errmsg(store_test_db(sc->st)));
	t0 = seconds();
	for (rep = 0; rep < reps; rep++)
		if (engine_outbox_prune(sc->st, sc->now - 7 * 86400) < 0)
			die("retention pass", store_errmsg(sc->st));
	f->retention = (seconds() - t0) / reps;
}

static void
row(const char *what, double small, double large)
{
	printf("  %-34s %10.1f %10.1f   %5.2fx\n", what, small * 1e6,
	    large * 1e6, small > 0 ? large / small : 0);
}

int
main(void)
{
	const char *env = getenv("PBEM_SCALE_GAMES");
	struct scale small, large;
	struct figures fs, fl;
	int nlarge = env != NULL ? atoi(env) : 100000;
	double t0;

	if (sodium_init() < 0)
		return 1;
	if (nlarge < 1000)
		nlarge = 1000;
	memset(&small, 0, sizeof(small));
	memset(&large, 0, sizeof(large));
	t0 = seconds();
	build(&small, 1000);
	measure(&small, &fs);
	destroy(&small);
	fprintf(stderr, "bench_scale: 1000 games built and measured in "
	    "%.1f s\n", seconds() - t0);
	t0 = seconds();
	build(&large, nlarge);
	fprintf(stderr, "bench_scale: %d games built in %.1f s\n", nlarge,
	    seconds() - t0);
	measure(&large, &fl);
	destroy(&large);

	printf("scale: 1,000 games (100 running, 100 players) against %d "
	    "(%d running, %d players); microseconds per operation\n",
	    nlarge, nlarge / RUNNING_EVERY, nlarge / GAMES_PER_PLAYER);
	printf("  %-34s %10s %10s   %s\n", "", "small", "large", "ratio");
	row("scheduler pass (10 games moved)", fs.pass, fl.pass);
	row("a player's games (page of 50)", fs.player_page, fl.player_page);
	row("mail lookup (address -> player)", fs.mail, fl.mail);
	row("list page (50 running games)", fs.list_page, fl.list_page);
	row("retention pass (nothing to remove)", fs.retention,
	    fl.retention);
	row("a move (engine_submit)", fs.move, fl.move);
	row("first pass (every running game)", fs.first_pass, fl.first_pass);
	return 0;
}
