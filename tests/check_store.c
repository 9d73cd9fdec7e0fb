/*
 * check_store.c -- tests of the SQLite store (store/store.h).
 *
 * Every test works on its own file in one mkdtemp() directory, removed at
 * the end.  Tests that tamper with the file or need a second view of it
 * open it with plain sqlite3 beside the store.
 */
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include <check.h>
#include <sqlite3.h>

#include "store.h"
#include "store_test.h"

static char	tmpdir[256];	/* short: paths under it fit PATH_MAX */

/* ---- Helpers ------------------------------------------------------------ */

static void
db_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s.db", tmpdir, name);
}

static struct store *
open_store(const char *name)
{
	struct store	*st;
	char		 path[PATH_MAX], err[256];

	db_path(path, sizeof(path), name);
	ck_assert_msg(store_open(path, &st, err, sizeof(err)) == STORE_OK,
	    "open %s: %s", path, err);
	return st;
}

static sqlite3 *
raw_open(const char *name)
{
	sqlite3	*db;
	char	 path[PATH_MAX];

	db_path(path, sizeof(path), name);
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	return db;
}

static void
raw_exec(sqlite3 *db, const char *sql)
{
	char	*msg = NULL;

	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK,
	    "%s: %s", sql, msg ? msg : "?");
}

/* Run sql expecting failure; returns SQLite's message (static buffer). */
static const char *
raw_fails(sqlite3 *db, const char *sql)
{
	static char	 buf[256];
	char		*msg = NULL;

	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK,
	    "%s: unexpectedly succeeded", sql);
	snprintf(buf, sizeof(buf), "%s", msg ? msg : "");
	sqlite3_free(msg);
	return buf;
}

static int64_t
raw_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt	*s;
	int64_t		 v;

	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* The text answer of a query (static buffer). */
static const char *
raw_text(sqlite3 *db, const char *sql)
{
	static char	 buf[256];
	sqlite3_stmt	*s;

	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	snprintf(buf, sizeof(buf), "%s", sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return buf;
}

static void
key_fill(unsigned char key[STORE_KEY_BYTES], int byte)
{
	memset(key, byte, STORE_KEY_BYTES);
}

static int64_t
add_player(struct store *st, const char *name, int keybyte)
{
	struct store_player	 p;

	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "%s", name);
	snprintf(p.email, sizeof(p.email), "%s@example.org", name);
	snprintf(p.lang, sizeof(p.lang), "fr");
	key_fill(p.pubkey, keybyte);
	ck_assert_msg(store_player_add(st, &p) == STORE_OK, "%s",
	    store_errmsg(st));
	ck_assert_int_gt(p.id, 0);
	return p.id;
}

static void
game_fill(struct store_game *g, int nseats)
{
	int	 i;

	memset(g, 0, sizeof(*g));
	snprintf(g->ruleset, sizeof(g->ruleset), "stmissions");
	g->ruleset_version = 3;
	g->options = "{\"variant\":\"short\"}";
	g->nseats = nseats;
	for (i = 0; i < STORE_SEED_BYTES; i++)
		g->seed[i] = (unsigned char)i;
	memset(g->commitment, 0xc0, sizeof(g->commitment));
	g->status = STORE_GAME_RUNNING;
	g->created = 1700000000;
}

/*
 * A game of two seats held by two new players, whose names and keys
 * (0x80 and up) do not clash with those the tests make themselves.
 */
static int64_t
add_game(struct store *st)
{
	static int		 n;
	struct store_game	 g;
	char			 name[32];

	game_fill(&g, 2);
	snprintf(name, sizeof(name), "seat0-of-%d", n);
	g.seat_player[0] = add_player(st, name, 0x80 + 2 * n);
	snprintf(name, sizeof(name), "seat1-of-%d", n);
	g.seat_player[1] = add_player(st, name, 0x81 + 2 * n);
	n++;
	ck_assert_msg(store_game_add(st, &g) == STORE_OK, "%s",
	    store_errmsg(st));
	return g.id;
}

/* An entry whose every field is derived from (game, seq). */
static void
entry_fill(struct store_entry *e, int64_t game, int64_t seq, char *text)
{
	memset(e, 0, sizeof(*e));
	e->game_id = game;
	e->seq = seq;
	e->kind = seq == 0 ? STORE_ENTRY_GENESIS : STORE_ENTRY_MOVE;
	e->seat = seq == 0 ? -1 : (int)(seq % 2);
	e->text = text;
	memset(e->signature, (int)seq + 1, sizeof(e->signature));
	memset(e->state_hash, (int)seq + 2, sizeof(e->state_hash));
	memset(e->prev_hash, (int)seq + 3, sizeof(e->prev_hash));
	memset(e->hash, (int)seq + 4, sizeof(e->hash));
	memset(e->receipt, (int)seq + 5, sizeof(e->receipt));
	e->time = 1700000000 + seq;
}

static void
append(struct store *st, int64_t game, int64_t seq, char *text)
{
	struct store_entry	 e;

	entry_fill(&e, game, seq, text);
	ck_assert_msg(store_log_append(st, &e) == STORE_OK, "%s",
	    store_errmsg(st));
}

static void
entry_check(const struct store_entry *got, int64_t game, int64_t seq,
    const char *text)
{
	struct store_entry	 want;

	entry_fill(&want, game, seq, NULL);
	ck_assert_int_eq(got->game_id, game);
	ck_assert_int_eq(got->seq, seq);
	ck_assert_int_eq(got->kind, want.kind);
	ck_assert_int_eq(got->seat, want.seat);
	ck_assert_str_eq(got->text, text);
	ck_assert_mem_eq(got->signature, want.signature, STORE_SIG_BYTES);
	ck_assert_mem_eq(got->state_hash, want.state_hash, STORE_HASH_BYTES);
	ck_assert_mem_eq(got->prev_hash, want.prev_hash, STORE_HASH_BYTES);
	ck_assert_mem_eq(got->hash, want.hash, STORE_HASH_BYTES);
	ck_assert_mem_eq(got->receipt, want.receipt, STORE_SIG_BYTES);
	ck_assert_int_eq(got->time, want.time);
}

static int64_t
add_outbox(struct store *st, int64_t game, int64_t seq, const char *to,
    int64_t next_attempt)
{
	struct store_outbox	 o;

	memset(&o, 0, sizeof(o));
	o.game_id = game;
	o.seq = seq;
	snprintf(o.channel, sizeof(o.channel), "mail");
	snprintf(o.recipient, sizeof(o.recipient), "%s", to);
	snprintf(o.event, sizeof(o.event), "turn");
	o.payload = "{\"seat\":0}";
	o.next_attempt = next_attempt;
	ck_assert_msg(store_outbox_add(st, &o) == STORE_OK, "%s",
	    store_errmsg(st));
	ck_assert_int_gt(o.id, 0);
	return o.id;
}

/* ---- Opening and migrations --------------------------------------------- */

START_TEST(test_open_fresh)
{
	struct store	*st;
	sqlite3		*db;

	unsetenv("PBEM_STORE_SYNC");
	ck_assert_int_ge(store_schema_latest(), 2);
	st = open_store("fresh");
	ck_assert_int_eq(store_schema_version(st), store_schema_latest());

	/* The connection is set up as docs/STORE.md says. */
	db = store_test_db(st);
	ck_assert_int_eq(raw_int(db, "PRAGMA foreign_keys"), 1);
	ck_assert_int_eq(raw_int(db, "PRAGMA synchronous"), 1);	/* NORMAL */
	ck_assert_int_eq(raw_int(db, "PRAGMA busy_timeout"), 5000);
	ck_assert_str_eq(raw_text(db, "PRAGMA journal_mode"), "wal");
	ck_assert_int_eq(raw_int(db, "PRAGMA application_id"), 0x7062656d);
	store_close(st);

	st = open_store("fresh");
	ck_assert_int_eq(store_schema_version(st), store_schema_latest());
	store_close(st);
	store_close(NULL);
}
END_TEST

START_TEST(test_open_bad_path)
{
	struct store	*st = (struct store *)&st;
	char		 err[256] = "";

	ck_assert_int_eq(store_open("/nonexistent-pbem-dir/x.db", &st, err,
	    sizeof(err)), STORE_ERROR);
	ck_assert_ptr_null(st);
	ck_assert_str_ne(err, "");
}
END_TEST

START_TEST(test_open_not_a_database)
{
	struct store	*st;
	FILE		*f;
	char		 path[PATH_MAX], err[256] = "";
	int		 i;

	db_path(path, sizeof(path), "garbage");
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	for (i = 0; i < 512; i++)
		fputs("this is not sqlite ", f);
	fclose(f);
	ck_assert_int_eq(store_open(path, &st, err, sizeof(err)),
	    STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(err, "not a database"));
}
END_TEST

/* Another program's database is refused and left exactly as it was. */
START_TEST(test_open_foreign_database)
{
	struct store	*st;
	sqlite3		*db;
	char		 path[PATH_MAX], err[256] = "";

	db = raw_open("foreign");
	raw_exec(db, "CREATE TABLE accounts (id INTEGER, owner TEXT)");
	db_path(path, sizeof(path), "foreign");
	ck_assert_int_eq(store_open(path, &st, err, sizeof(err)),
	    STORE_ERROR);
	ck_assert_msg(strstr(err, "not a pbem database") != NULL, "%s", err);
	ck_assert_str_eq(raw_text(db, "PRAGMA journal_mode"), "delete");
	ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), 0);
	sqlite3_close(db);
}
END_TEST

/* A file left at version 1 by an older build keeps its data. */
START_TEST(test_migrate_from_v1)
{
	struct store_player	 p;
	struct store_game	 g;
	struct store_entry	 e;
	struct store		*st;
	sqlite3			*db;
	int64_t			 n;
	char			 path[PATH_MAX], err[256], *state;
	unsigned char		 key[STORE_KEY_BYTES];

	db_path(path, sizeof(path), "v1");
	ck_assert_msg(store_test_create_at(path, 1, err, sizeof(err)) ==
	    STORE_OK, "%s", err);

	db = raw_open("v1");
	ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), 1);
	/* Version 1 has no players.lang. */
	raw_fails(db, "SELECT lang FROM players");
	raw_exec(db,
	    "INSERT INTO players (id, name, email, created) "
	    "  VALUES (7, 'carol', 'carol@example.org', 1600000000);"
	    "INSERT INTO player_keys (player_id, pubkey, created) "
	    "  VALUES (7, zeroblob(32), 1600000000);"
	    "INSERT INTO games (id, ruleset, ruleset_version, options, "
	    "  nseats, seed, commitment, status, created) VALUES (3, "
	    "  'stmissions', 1, '{}', 1, zeroblob(32), zeroblob(32), 0, 1);"
	    "INSERT INTO seats VALUES (3, 0, 7);"
	    "INSERT INTO log VALUES (3, 0, 0, -1, 'genesis', zeroblob(64), "
	    "  zeroblob(32), zeroblob(32), zeroblob(32), zeroblob(64), 5);"
	    "INSERT INTO snapshots VALUES (3, 0, '{\"turn\":0}');"
	    "INSERT INTO outbox (game_id, seq, channel, recipient, event, "
	    "  payload, next_attempt, created) VALUES (3, 0, 'mail', "
	    "  'carol@example.org', 'turn', '{}', 0, 1);");
	sqlite3_close(db);

	ck_assert_msg(store_open(path, &st, err, sizeof(err)) == STORE_OK,
	    "%s", err);
	ck_assert_int_eq(store_schema_version(st), store_schema_latest());

	ck_assert_int_eq(store_player_get(st, 7, &p), STORE_OK);
	ck_assert_str_eq(p.name, "carol");
	ck_assert_str_eq(p.lang, "en");		/* the migration's default */
	key_fill(key, 0);
	ck_assert_mem_eq(p.pubkey, key, STORE_KEY_BYTES);

	ck_assert_int_eq(store_game_get(st, 3, &g), STORE_OK);
	ck_assert_int_eq(g.seat_player[0], 7);
	store_game_clear(&g);
	ck_assert_int_eq(store_log_last(st, 3, &e), STORE_OK);
	ck_assert_str_eq(e.text, "genesis");
	/* Migration 11 numbered the row already there. */
	ck_assert_int_eq(e.event_id, 1);
	store_entry_clear(&e);
	ck_assert_int_eq(store_snapshot_get(st, 3, 0, &state), STORE_OK);
	ck_assert_str_eq(state, "{\"turn\":0}");
	free(state);
	ck_assert_int_eq(store_outbox_pending(st, &n), STORE_OK);
	ck_assert_int_eq(n, 1);

	/* New rows work on the migrated file. */
	add_player(st, "dave", 9);
	store_close(st);
}
END_TEST

START_TEST(test_migrate_newer_refused)
{
	struct store	*st;
	sqlite3		*db;
	char		 path[PATH_MAX], err[256] = "", sql[64];

	st = open_store("newer");
	store_close(st);
	db = raw_open("newer");
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
	    store_schema_latest() + 1);
	raw_exec(db, sql);

	db_path(path, sizeof(path), "newer");
	ck_assert_int_eq(store_open(path, &st, err, sizeof(err)),
	    STORE_ERROR);
	ck_assert_ptr_null(st);
	ck_assert_msg(strstr(err, "newer") != NULL, "%s", err);
	ck_assert_int_eq(raw_int(db, "PRAGMA user_version"),
	    store_schema_latest() + 1);
	sqlite3_close(db);
}
END_TEST

START_TEST(test_migrate_bad_target)
{
	char	 path[PATH_MAX], err[256];

	db_path(path, sizeof(path), "target");
	ck_assert_int_eq(store_test_create_at(path, 0, err, sizeof(err)),
	    STORE_ERROR);
	ck_assert_int_eq(store_test_create_at(path,
	    store_schema_latest() + 1, err, sizeof(err)), STORE_ERROR);
}
END_TEST

START_TEST(test_sync_env)
{
	struct store	*st;
	char		 path[PATH_MAX], err[256] = "";

	setenv("PBEM_STORE_SYNC", "off", 1);
	st = open_store("sync");
	ck_assert_int_eq(raw_int(store_test_db(st), "PRAGMA synchronous"), 0);
	store_close(st);

	setenv("PBEM_STORE_SYNC", "sometimes", 1);
	db_path(path, sizeof(path), "sync");
	ck_assert_int_eq(store_open(path, &st, err, sizeof(err)),
	    STORE_ERROR);
	ck_assert_msg(strstr(err, "PBEM_STORE_SYNC") != NULL, "%s", err);
	unsetenv("PBEM_STORE_SYNC");
}
END_TEST

/* ---- Meta --------------------------------------------------------------- */

START_TEST(test_meta)
{
	struct store	*st = open_store("meta");
	char		*v = (char *)&v;

	ck_assert_int_eq(store_meta_get(st, "motd", &v), STORE_NOTFOUND);
	ck_assert_ptr_null(v);
	ck_assert_int_eq(store_meta_set(st, "motd", "hello"), STORE_OK);
	ck_assert_int_eq(store_meta_get(st, "motd", &v), STORE_OK);
	ck_assert_str_eq(v, "hello");
	free(v);
	ck_assert_int_eq(store_meta_set(st, "motd", "bonjour"), STORE_OK);
	ck_assert_int_eq(store_meta_get(st, "motd", &v), STORE_OK);
	ck_assert_str_eq(v, "bonjour");
	free(v);
	ck_assert_int_eq(store_meta_set(st, "motd", NULL), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "NOT NULL"));
	store_close(st);
}
END_TEST

/* ---- Players ------------------------------------------------------------ */

START_TEST(test_player_add_get_find)
{
	struct store_player	 p;
	struct store		*st = open_store("players");
	unsigned char		 key[STORE_KEY_BYTES];
	int64_t			 id;

	id = add_player(st, "alice", 0xa1);
	key_fill(key, 0xa1);

	ck_assert_int_eq(store_player_get(st, id, &p), STORE_OK);
	ck_assert_int_eq(p.id, id);
	ck_assert_str_eq(p.name, "alice");
	ck_assert_str_eq(p.email, "alice@example.org");
	ck_assert_str_eq(p.lang, "fr");
	ck_assert_mem_eq(p.pubkey, key, STORE_KEY_BYTES);

	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(store_player_find(st, "alice", &p), STORE_OK);
	ck_assert_int_eq(p.id, id);
	ck_assert_mem_eq(p.pubkey, key, STORE_KEY_BYTES);

	ck_assert_int_eq(store_player_find(st, "mallory", &p),
	    STORE_NOTFOUND);
	ck_assert_str_eq(store_errmsg(st), "no player named \"mallory\"");
	ck_assert_int_eq(store_player_get(st, id + 100, &p), STORE_NOTFOUND);
	store_close(st);
}
END_TEST

START_TEST(test_player_duplicates)
{
	struct store_player	 p;
	struct store		*st = open_store("dups");
	sqlite3			*db = store_test_db(st);

	add_player(st, "alice", 1);

	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "alice");
	key_fill(p.pubkey, 2);
	ck_assert_int_eq(store_player_add(st, &p), STORE_EXISTS);
	/* The same name is caught by either unique index on it. */
	ck_assert_msg(strstr(store_errmsg(st), "players.name") != NULL ||
	    strstr(store_errmsg(st), "players_name_folded") != NULL, "%s",
	    store_errmsg(st));

	/* A taken key: the player row written first is undone too. */
	snprintf(p.name, sizeof(p.name), "bob");
	key_fill(p.pubkey, 1);
	ck_assert_int_eq(store_player_add(st, &p), STORE_EXISTS);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "pubkey"));
	ck_assert_int_eq(store_player_find(st, "bob", &p), STORE_NOTFOUND);
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM players"), 1);
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM player_keys"), 1);
	store_close(st);
}
END_TEST

START_TEST(test_player_set_key)
{
	struct store_player	 p;
	struct store		*st = open_store("setkey");
	sqlite3			*db = store_test_db(st);
	unsigned char		 key[STORE_KEY_BYTES];
	int64_t			 alice, bob;

	alice = add_player(st, "alice", 1);
	bob = add_player(st, "bob", 2);

	key_fill(key, 3);
	ck_assert_int_eq(store_player_set_key(st, alice, key), STORE_OK);
	ck_assert_int_eq(store_player_get(st, alice, &p), STORE_OK);
	ck_assert_mem_eq(p.pubkey, key, STORE_KEY_BYTES);
	/* The old key is kept, revoked. */
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM player_keys "
	    "WHERE player_id = 1 AND revoked IS NOT NULL"), 1);
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM player_keys "
	    "WHERE player_id = 1 AND revoked IS NULL"), 1);

	/* A revoked key can never be used again, by anyone. */
	key_fill(key, 1);
	ck_assert_int_eq(store_player_set_key(st, bob, key), STORE_EXISTS);
	/* Nor can another player's key or the same key; nothing changes. */
	key_fill(key, 2);
	ck_assert_int_eq(store_player_set_key(st, alice, key), STORE_EXISTS);
	key_fill(key, 3);
	ck_assert_int_eq(store_player_set_key(st, alice, key), STORE_EXISTS);
	ck_assert_int_eq(store_player_get(st, alice, &p), STORE_OK);
	ck_assert_mem_eq(p.pubkey, key, STORE_KEY_BYTES);
	ck_assert_int_eq(store_player_get(st, bob, &p), STORE_OK);
	key_fill(key, 2);
	ck_assert_mem_eq(p.pubkey, key, STORE_KEY_BYTES);

	key_fill(key, 9);
	ck_assert_int_eq(store_player_set_key(st, 999, key), STORE_NOTFOUND);
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM player_keys"), 3);
	store_close(st);
}
END_TEST

/* Fixed-size fields are never read past; sizes are checked. */
START_TEST(test_player_fields_checked)
{
	struct store_player	 p;
	struct store		*st = open_store("fields");

	memset(&p, 'x', sizeof(p));		/* no NUL anywhere */
	key_fill(p.pubkey, 1);
	ck_assert_int_eq(store_player_add(st, &p), STORE_ERROR);

	memset(&p, 0, sizeof(p));		/* empty name */
	key_fill(p.pubkey, 1);
	ck_assert_int_eq(store_player_add(st, &p), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "name_size"));

	snprintf(p.name, sizeof(p.name), "erin");	/* lang left empty */
	ck_assert_int_eq(store_player_add(st, &p), STORE_OK);
	ck_assert_int_eq(store_player_get(st, p.id, &p), STORE_OK);
	ck_assert_str_eq(p.lang, "en");
	store_close(st);
}
END_TEST

static int
count_players(const struct store_player *p, void *arg)
{
	int64_t	*ids = arg;

	ids[++ids[0]] = p->id;
	return ids[0] == 2;		/* stop after two */
}

START_TEST(test_player_foreach)
{
	struct store	*st = open_store("pforeach");
	int64_t		 ids[8] = { 0 }, a, b;

	a = add_player(st, "a", 1);
	b = add_player(st, "b", 2);
	add_player(st, "c", 3);
	ck_assert_int_eq(store_player_foreach(st, count_players, ids),
	    STORE_OK);
	ck_assert_int_eq(ids[0], 2);
	ck_assert_int_eq(ids[1], a);
	ck_assert_int_eq(ids[2], b);
	store_close(st);
}
END_TEST

/* ---- Games -------------------------------------------------------------- */

START_TEST(test_game_add_get)
{
	struct store_game	 g, got;
	struct store		*st = open_store("games");
	int64_t			 alice, bob;

	alice = add_player(st, "alice", 1);
	bob = add_player(st, "bob", 2);
	game_fill(&g, 3);
	g.seat_player[0] = bob;
	g.seat_player[1] = 0;			/* open seat */
	g.seat_player[2] = alice;
	g.created = 0;
	ck_assert_int_eq(store_game_add(st, &g), STORE_OK);
	ck_assert_int_gt(g.id, 0);
	ck_assert_int_gt(g.created, 0);		/* "now" filled in */

	ck_assert_int_eq(store_game_get(st, g.id, &got), STORE_OK);
	ck_assert_int_eq(got.id, g.id);
	ck_assert_str_eq(got.ruleset, "stmissions");
	ck_assert_int_eq(got.ruleset_version, 3);
	ck_assert_str_eq(got.options, g.options);
	ck_assert_ptr_ne(got.options, g.options);
	ck_assert_int_eq(got.nseats, 3);
	ck_assert_int_eq(got.seat_player[0], bob);
	ck_assert_int_eq(got.seat_player[1], 0);
	ck_assert_int_eq(got.seat_player[2], alice);
	ck_assert_int_eq(got.seat_player[3], 0);
	ck_assert_mem_eq(got.seed, g.seed, STORE_SEED_BYTES);
	ck_assert_mem_eq(got.commitment, g.commitment, STORE_HASH_BYTES);
	ck_assert_int_eq(got.status, STORE_GAME_RUNNING);
	ck_assert_int_eq(got.created, g.created);
	store_game_clear(&got);
	ck_assert_ptr_null(got.options);
	ck_assert_int_eq(got.id, 0);

	ck_assert_int_eq(store_game_get(st, 999, &got), STORE_NOTFOUND);
	ck_assert_str_eq(store_errmsg(st), "no game 999");
	store_game_clear(&got);
	store_close(st);
}
END_TEST

/* Card files (migration 15): kept once by hash, read back byte for
 * byte, named by the game row; a game without one reads "". */
START_TEST(test_card_files)
{
	static const char hash[] = "0123456789abcdef0123456789abcdef"
	    "0123456789abcdef0123456789abcdef";
	static const char bytes[] = "cards:\n  - {id: 1}\n\0and after a NUL";
	struct store_game	 g, got;
	struct store		*st = open_store("cardfiles");
	sqlite3			*db = store_test_db(st);
	char			 game[STORE_RULESET_MAX], *back;
	size_t			 len;

	ck_assert_int_eq(store_card_file_put(st, hash, "respond", bytes,
	    sizeof(bytes)), STORE_OK);
	/* The same hash again is left as it is. */
	ck_assert_int_eq(store_card_file_put(st, hash, "respond", "x", 1),
	    STORE_OK);
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM card_files"), 1);
	ck_assert_int_eq(store_card_file_get(st, hash, game, &back, &len),
	    STORE_OK);
	ck_assert_str_eq(game, "respond");
	ck_assert_uint_eq(len, sizeof(bytes));
	ck_assert_mem_eq(back, bytes, sizeof(bytes));
	ck_assert_int_eq(back[len], '\0');
	free(back);
	ck_assert_int_eq(store_card_file_get(st, "ab", game, &back, &len),
	    STORE_NOTFOUND);
	ck_assert_ptr_null(back);
	/* The schema refuses what is not a hash, and an empty file. */
	ck_assert_int_eq(store_card_file_put(st, "not a hash", "respond",
	    bytes, 3), STORE_ERROR);
	ck_assert_int_eq(store_card_file_put(st, hash, "respond", bytes, 0),
	    STORE_ERROR);

	game_fill(&g, 2);
	ck_assert_int_eq(store_game_add(st, &g), STORE_OK);
	ck_assert_int_eq(store_game_get(st, g.id, &got), STORE_OK);
	ck_assert_str_eq(got.cards_hash, "");
	store_game_clear(&got);
	game_fill(&g, 2);
	memcpy(g.cards_hash, hash, sizeof(hash));
	ck_assert_int_eq(store_game_add(st, &g), STORE_OK);
	ck_assert_int_eq(store_game_get(st, g.id, &got), STORE_OK);
	ck_assert_str_eq(got.cards_hash, hash);
	store_game_clear(&got);
	/* A game may only name a file the store keeps. */
	game_fill(&g, 2);
	memset(g.cards_hash, 'f', STORE_CARDS_HASH_HEX);
	ck_assert_int_eq(store_game_add(st, &g), STORE_ERROR);
	store_close(st);
}
END_TEST

START_TEST(test_game_invalid)
{
	struct store_game	 g;
	struct store		*st = open_store("badgames");
	sqlite3			*db = store_test_db(st);

	game_fill(&g, 0);
	ck_assert_int_eq(store_game_add(st, &g), STORE_ERROR);
	game_fill(&g, STORE_MAX_SEATS + 1);
	ck_assert_int_eq(store_game_add(st, &g), STORE_ERROR);

	/* An unknown player: the game row is undone with the seat. */
	game_fill(&g, 2);
	g.seat_player[1] = 4242;
	ck_assert_int_eq(store_game_add(st, &g), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "FOREIGN KEY"));
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM games"), 0);

	game_fill(&g, 2);
	g.options = NULL;
	ck_assert_int_eq(store_game_add(st, &g), STORE_ERROR);
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM games"), 0);
	store_close(st);
}
END_TEST

START_TEST(test_game_status_and_seat)
{
	struct store_game	 g;
	struct store_seat	 seat;
	struct store		*st = open_store("gstatus");
	int64_t			 id, carol;

	id = add_game(st);
	carol = add_player(st, "carol", 3);

	ck_assert_int_eq(store_game_set_status(st, id, STORE_GAME_OVER),
	    STORE_OK);
	ck_assert_int_eq(store_game_set_status(st, 999, STORE_GAME_OVER),
	    STORE_NOTFOUND);

	ck_assert_int_eq(store_game_set_seat(st, id, 1, carol), STORE_OK);
	ck_assert_int_eq(store_game_set_seat(st, id, 0, 0), STORE_OK);
	ck_assert_int_eq(store_game_set_seat(st, id, 5, carol),
	    STORE_NOTFOUND);
	ck_assert_str_eq(store_errmsg(st), "game 1 has no seat 5");
	ck_assert_int_eq(store_game_set_seat(st, 999, 0, carol),
	    STORE_NOTFOUND);
	ck_assert_int_eq(store_game_set_seat(st, id, 0, 4242), STORE_ERROR);

	ck_assert_int_eq(store_game_get(st, id, &g), STORE_OK);
	ck_assert_int_eq(g.status, STORE_GAME_OVER);
	ck_assert_int_eq(g.seat_player[0], 0);
	ck_assert_int_eq(g.seat_player[1], carol);
	ck_assert_int_eq(g.seat_status[0], STORE_SEAT_PLAYING);
	ck_assert_int_eq(g.seat_status[1], STORE_SEAT_PLAYING);
	store_game_clear(&g);

	/* The seats' statuses come with the game. */
	ck_assert_int_eq(store_seat_get(st, id, 1, &seat), STORE_OK);
	seat.status = STORE_SEAT_RESIGNED;
	ck_assert_int_eq(store_seat_update(st, &seat), STORE_OK);
	ck_assert_int_eq(store_game_get(st, id, &g), STORE_OK);
	ck_assert_int_eq(g.seat_status[0], STORE_SEAT_PLAYING);
	ck_assert_int_eq(g.seat_status[1], STORE_SEAT_RESIGNED);
	store_game_clear(&g);

	/* A missing row is STORE_NOTFOUND with a sentence saying so. */
	ck_assert_int_eq(store_seat_get(st, 999, 0, &seat), STORE_NOTFOUND);
	ck_assert_str_eq(store_errmsg(st), "seat get: no such row");
	seat.game_id = 999;
	ck_assert_int_eq(store_seat_update(st, &seat), STORE_NOTFOUND);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "no such row"));
	store_close(st);
}
END_TEST

struct seen {
	int	 n;
	int	 stop_at;
	int64_t	 id[16];
	int64_t	 seat0[16];
};

static int
see_game(const struct store_game *g, void *arg)
{
	struct seen	*seen = arg;

	seen->id[seen->n] = g->id;
	seen->seat0[seen->n] = g->seat_player[0];
	return ++seen->n == seen->stop_at;
}

START_TEST(test_game_foreach)
{
	struct store_game	 g;
	struct store		*st = open_store("gforeach");
	struct seen		 seen;
	int64_t			 p;
	int			 i;

	p = add_player(st, "alice", 1);
	for (i = 0; i < 3; i++) {
		game_fill(&g, 1);
		g.seat_player[0] = p;
		ck_assert_int_eq(store_game_add(st, &g), STORE_OK);
	}
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(store_game_foreach(st, see_game, &seen), STORE_OK);
	ck_assert_int_eq(seen.n, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(seen.id[i], i + 1);
		ck_assert_int_eq(seen.seat0[i], p);
	}

	memset(&seen, 0, sizeof(seen));
	seen.stop_at = 2;
	ck_assert_int_eq(store_game_foreach(st, see_game, &seen), STORE_OK);
	ck_assert_int_eq(seen.n, 2);
	store_close(st);
}
END_TEST

/* ---- The log ------------------------------------------------------------ */

static int
see_entry(const struct store_entry *e, void *arg)
{
	struct seen	*seen = arg;

	seen->id[seen->n] = e->seq;
	return ++seen->n == seen->stop_at;
}

START_TEST(test_log_append_read)
{
	struct store_entry	 e;
	struct store		*st = open_store("log");
	struct seen		 seen;
	unsigned char		 head_hash[STORE_HASH_BYTES];
	int64_t			 game, other, head_seq;
	char			 text[32];
	int			 i;

	game = add_game(st);
	other = add_game(st);		/* ... of new players */
	ck_assert_int_eq(store_log_last(st, game, &e), STORE_NOTFOUND);
	store_entry_clear(&e);

	append(st, game, 0, "genesis");
	for (i = 1; i <= 5; i++) {
		snprintf(text, sizeof(text), "play %d", i);
		append(st, game, i, text);
	}
	append(st, other, 0, "other genesis");

	for (i = 0; i <= 5; i++) {
		ck_assert_int_eq(store_log_get(st, game, i, &e), STORE_OK);
		snprintf(text, sizeof(text), "play %d", i);
		entry_check(&e, game, i, i == 0 ? "genesis" : text);
		store_entry_clear(&e);
		ck_assert_ptr_null(e.text);
	}
	ck_assert_int_eq(store_log_get(st, game, 6, &e), STORE_NOTFOUND);
	ck_assert_int_eq(store_log_last(st, game, &e), STORE_OK);
	entry_check(&e, game, 5, "play 5");
	/* The head is the last entry's seq and hash, and only those. */
	ck_assert_int_eq(store_log_head(st, game, &head_seq, head_hash),
	    STORE_OK);
	ck_assert_int_eq(head_seq, 5);
	ck_assert_mem_eq(head_hash, e.hash, STORE_HASH_BYTES);
	ck_assert_int_eq(store_log_head(st, game + 100, &head_seq,
	    head_hash), STORE_NOTFOUND);
	store_entry_clear(&e);

	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(store_log_foreach(st, game, see_entry, &seen),
	    STORE_OK);
	ck_assert_int_eq(seen.n, 6);
	for (i = 0; i <= 5; i++)
		ck_assert_int_eq(seen.id[i], i);

	memset(&seen, 0, sizeof(seen));
	seen.stop_at = 3;
	ck_assert_int_eq(store_log_foreach(st, game, see_entry, &seen),
	    STORE_OK);
	ck_assert_int_eq(seen.n, 3);
	ck_assert_int_eq(seen.id[2], 2);
	store_close(st);
}
END_TEST

START_TEST(test_log_duplicate)
{
	struct store_entry	 e;
	struct store		*st = open_store("logdup");
	int64_t			 game;

	game = add_game(st);
	append(st, game, 0, "genesis");
	append(st, game, 1, "first");

	entry_fill(&e, game, 1, "second");
	memset(e.hash, 0xee, sizeof(e.hash));
	ck_assert_int_eq(store_log_append(st, &e), STORE_EXISTS);
	ck_assert_str_eq(store_errmsg(st),
	    "game 1 already has log entry 1");

	/* Inside a transaction: only the failed statement is undone. */
	ck_assert_int_eq(store_begin(st), STORE_OK);
	append(st, game, 2, "third");
	ck_assert_int_eq(store_log_append(st, &e), STORE_EXISTS);
	ck_assert_int_eq(store_commit(st), STORE_OK);

	ck_assert_int_eq(store_log_get(st, game, 1, &e), STORE_OK);
	entry_check(&e, game, 1, "first");
	store_entry_clear(&e);
	ck_assert_int_eq(store_log_last(st, game, &e), STORE_OK);
	ck_assert_int_eq(e.seq, 2);
	store_entry_clear(&e);

	entry_fill(&e, 999, 0, "no such game");
	ck_assert_int_eq(store_log_append(st, &e), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "FOREIGN KEY"));
	store_close(st);
}
END_TEST

/* Hand-written SQL cannot change the log either. */
START_TEST(test_log_triggers)
{
	struct store_entry	 e;
	struct store		*st = open_store("logtrig");
	sqlite3			*db;
	int64_t			 game;

	game = add_game(st);
	append(st, game, 0, "genesis");
	append(st, game, 1, "first");

	db = raw_open("logtrig");
	ck_assert_ptr_nonnull(strstr(raw_fails(db,
	    "UPDATE log SET text = 'forged' WHERE seq = 1"),
	    "append-only"));
	ck_assert_ptr_nonnull(strstr(raw_fails(db,
	    "DELETE FROM log WHERE seq = 1"), "append-only"));
	/* REPLACE deletes the old row: refused with recursive triggers. */
	raw_exec(db, "PRAGMA recursive_triggers = ON");
	ck_assert_ptr_nonnull(strstr(raw_fails(db,
	    "INSERT OR REPLACE INTO log SELECT game_id, seq, kind, seat, "
	    "'forged', signature, state_hash, prev_hash, hash, receipt, time, "
	    "event_id FROM log WHERE seq = 1"), "append-only"));
	sqlite3_close(db);

	ck_assert_int_eq(store_log_get(st, game, 1, &e), STORE_OK);
	entry_check(&e, game, 1, "first");
	store_entry_clear(&e);
	store_close(st);
}
END_TEST

struct reenter {
	struct store		*st;
	enum store_status	 inner;
	int			 calls;
};

static int
reenter_log(const struct store_entry *e, void *arg)
{
	struct reenter	*r = arg;

	r->calls++;
	r->inner = store_log_foreach(r->st, e->game_id, reenter_log, r);
	return 0;
}

/* A callback that re-enters its own loop is refused, not obeyed. */
START_TEST(test_log_foreach_reentry)
{
	struct store_entry	 e;
	struct reenter		 r;
	int64_t			 game;

	memset(&r, 0, sizeof(r));
	r.st = open_store("reenter");
	game = add_game(r.st);
	append(r.st, game, 0, "genesis");
	append(r.st, game, 1, "first");
	ck_assert_int_eq(store_log_foreach(r.st, game, reenter_log, &r),
	    STORE_OK);
	ck_assert_int_eq(r.calls, 2);
	ck_assert_int_eq(r.inner, STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(r.st), "re-entered"));
	/* Other calls from a callback are fine; the store still works. */
	ck_assert_int_eq(store_log_last(r.st, game, &e), STORE_OK);
	store_entry_clear(&e);
	store_close(r.st);
}
END_TEST

/* ---- Snapshots ---------------------------------------------------------- */

/* The one-line summaries of entries (schema 12): one pair per entry,
 * read back whole, refused when empty or over 1023 bytes. */
START_TEST(test_summaries)
{
	struct store	*st = open_store("summaries");
	int64_t		 game;
	char		*en = (char *)&en, *fr = (char *)&fr, big[1100];

	game = add_game(st);
	ck_assert_int_eq(store_summary_get(st, game, 1, &en, &fr),
	    STORE_NOTFOUND);
	ck_assert_ptr_null(en);
	ck_assert_ptr_null(fr);
	ck_assert_int_eq(store_summary_put(st, game, 1, "bruno drew a card "
	    "\xe2\x80\x94 alice to play, move 2", "bruno a pioch\xc3\xa9 "
	    "une carte \xe2\x80\x94 \xc3\xa0 alice de jouer, coup 2"),
	    STORE_OK);
	ck_assert_int_eq(store_summary_put(st, game, 1, "again", "encore"),
	    STORE_EXISTS);
	ck_assert_int_eq(store_summary_get(st, game, 1, &en, &fr), STORE_OK);
	ck_assert_str_eq(en, "bruno drew a card \xe2\x80\x94 alice to play, "
	    "move 2");
	ck_assert_str_eq(fr, "bruno a pioch\xc3\xa9 une carte \xe2\x80\x94 "
	    "\xc3\xa0 alice de jouer, coup 2");
	free(en);
	free(fr);
	ck_assert_int_ne(store_summary_put(st, game, 2, "", "vide"),
	    STORE_OK);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_ne(store_summary_put(st, game, 3, "long", big),
	    STORE_OK);
	big[1023] = '\0';
	ck_assert_int_eq(store_summary_put(st, game, 3, big, big), STORE_OK);
	store_close(st);
}
END_TEST

START_TEST(test_snapshots)
{
	struct store	*st = open_store("snap");
	int64_t		 game, seq = -1;
	char		*state = (char *)&state, big[2048];
	int		 i;

	game = add_game(st);
	ck_assert_int_eq(store_snapshot_latest(st, game, &seq, &state),
	    STORE_NOTFOUND);
	ck_assert_ptr_null(state);

	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (i = 0; i < 3; i++) {
		big[0] = (char)('0' + i);
		ck_assert_int_eq(store_snapshot_put(st, game, i, big),
		    STORE_OK);
	}
	ck_assert_int_eq(store_snapshot_put(st, game, 2, "{}"),
	    STORE_EXISTS);

	ck_assert_int_eq(store_snapshot_latest(st, game, &seq, &state),
	    STORE_OK);
	ck_assert_int_eq(seq, 2);
	ck_assert_str_eq(state, big);
	free(state);
	ck_assert_int_eq(store_snapshot_get(st, game, 1, &state), STORE_OK);
	ck_assert_int_eq(state[0], '1');
	ck_assert_int_eq(strlen(state), sizeof(big) - 1);
	free(state);
	ck_assert_int_eq(store_snapshot_get(st, game, 7, &state),
	    STORE_NOTFOUND);
	/* The newest at or before a seq; a dropped one is passed over. */
	ck_assert_int_eq(store_snapshot_before(st, game, 7, &seq, &state),
	    STORE_OK);
	ck_assert_int_eq(seq, 2);
	free(state);
	ck_assert_int_eq(store_snapshot_drop(st, game, 1), STORE_OK);
	ck_assert_int_eq(store_snapshot_drop(st, game, 1), STORE_OK);
	ck_assert_int_eq(store_snapshot_get(st, game, 1, &state),
	    STORE_NOTFOUND);
	ck_assert_int_eq(store_snapshot_before(st, game, 1, &seq, &state),
	    STORE_OK);
	ck_assert_int_eq(seq, 0);
	ck_assert_int_eq(state[0], '0');
	free(state);
	ck_assert_int_eq(store_snapshot_drop(st, game, 0), STORE_OK);
	ck_assert_int_eq(store_snapshot_before(st, game, 1, &seq, &state),
	    STORE_NOTFOUND);
	ck_assert_ptr_null(state);
	ck_assert_int_eq(store_snapshot_put(st, 999, 0, "{}"), STORE_ERROR);
	store_close(st);
}
END_TEST

/* ---- The outbox --------------------------------------------------------- */

struct due {
	struct store	*st;
	int		 n;
	int		 mark;		/* mark each row sent from the cb */
	int64_t		 id[16];
	int		 attempts[16];
	char		 error[16][256];
};

static int
see_due(const struct store_outbox *o, void *arg)
{
	struct due	*d = arg;

	ck_assert_str_eq(o->channel, "mail");
	ck_assert_str_eq(o->event, "turn");
	ck_assert_str_eq(o->payload, "{\"seat\":0}");
	ck_assert_int_eq(o->status, STORE_OUTBOX_PENDING);
	d->id[d->n] = o->id;
	d->attempts[d->n] = o->attempts;
	snprintf(d->error[d->n], sizeof(d->error[0]), "%s", o->last_error);
	d->n++;
	if (d->mark)
		ck_assert_int_eq(store_outbox_mark_sent(d->st, o->id),
		    STORE_OK);
	return 0;
}

static void
due(struct store *st, int64_t when, int limit, struct due *d)
{
	memset(d, 0, sizeof(*d));
	d->st = st;
	ck_assert_msg(store_outbox_due(st, when, limit, see_due, d) ==
	    STORE_OK, "%s", store_errmsg(st));
}

START_TEST(test_outbox)
{
	struct store	*st = open_store("outbox");
	sqlite3		*db = store_test_db(st);
	struct due	 d;
	int64_t		 game, id[5], n;
	char		 why[400];
	int		 removed;

	game = add_game(st);
	id[0] = add_outbox(st, game, 0, "a@example.org", 0);
	id[1] = add_outbox(st, game, 0, "b@example.org", 100);
	id[2] = add_outbox(st, game, 0, "c@example.org", 50);
	id[3] = add_outbox(st, 0, 0, "admin@example.org", 0); /* no game */
	id[4] = add_outbox(st, game, 1, "d@example.org", 200);
	ck_assert_int_eq(store_outbox_pending(st, &n), STORE_OK);
	ck_assert_int_eq(n, 5);

	/* Due at 100: every row but the last, oldest first. */
	due(st, 100, 10, &d);
	ck_assert_int_eq(d.n, 4);
	ck_assert_int_eq(d.id[0], id[0]);
	ck_assert_int_eq(d.id[1], id[1]);
	ck_assert_int_eq(d.id[2], id[2]);
	ck_assert_int_eq(d.id[3], id[3]);
	due(st, 100, 2, &d);
	ck_assert_int_eq(d.n, 2);
	ck_assert_int_eq(d.id[1], id[1]);
	due(st, 100, 0, &d);
	ck_assert_int_eq(d.n, 0);

	ck_assert_int_eq(store_outbox_mark_sent(st, id[0]), STORE_OK);
	ck_assert_int_eq(store_outbox_mark_sent(st, id[0]), STORE_NOTFOUND);
	ck_assert_int_eq(store_outbox_mark_sent(st, 999), STORE_NOTFOUND);

	/* A retry: later, with the reason kept. */
	ck_assert_int_eq(store_outbox_mark_failed(st, id[1], 300, 0,
	    "451 try later"), STORE_OK);
	/* A permanent failure; a long reason is cut on a UTF-8 boundary. */
	memset(why, 'x', sizeof(why));
	memcpy(why + 254, "\xc3\xa9", 2);		/* bytes 254-255 */
	why[sizeof(why) - 1] = '\0';
	ck_assert_int_eq(store_outbox_mark_failed(st, id[2], 300, 1, why),
	    STORE_OK);
	ck_assert_int_eq(store_outbox_mark_failed(st, id[2], 300, 1, "x"),
	    STORE_NOTFOUND);
	ck_assert_int_eq(raw_int(db, "SELECT length(CAST(last_error AS BLOB))"
	    " FROM outbox WHERE id = 3"), 254);
	ck_assert_int_eq(raw_int(db, "SELECT status FROM outbox WHERE id = 3"),
	    STORE_OUTBOX_FAILED);
	ck_assert_int_eq(raw_int(db, "SELECT attempts FROM outbox "
	    "WHERE id = 3"), 1);

	due(st, 100, 10, &d);
	ck_assert_int_eq(d.n, 1);
	ck_assert_int_eq(d.id[0], id[3]);
	ck_assert_int_eq(store_outbox_pending(st, &n), STORE_OK);
	ck_assert_int_eq(n, 3);

	/* At 300 the retry is due again, and a callback may mark rows. */
	due(st, 300, 10, &d);
	ck_assert_int_eq(d.n, 3);
	ck_assert_int_eq(d.id[0], id[1]);
	ck_assert_int_eq(d.attempts[0], 1);
	ck_assert_str_eq(d.error[0], "451 try later");
	memset(&d, 0, sizeof(d));
	d.st = st;
	d.mark = 1;
	ck_assert_int_eq(store_outbox_due(st, 300, 10, see_due, &d),
	    STORE_OK);
	ck_assert_int_eq(d.n, 3);
	ck_assert_int_eq(store_outbox_pending(st, &n), STORE_OK);
	ck_assert_int_eq(n, 0);

	/* Pruning removes delivered rows queued before the time given, in
	 * batches; the failed one stays. */
	ck_assert_int_eq(store_outbox_prune(st, 0, 10, &removed), STORE_OK);
	ck_assert_int_eq(removed, 0);
	ck_assert_int_eq(store_outbox_prune(st, INT64_MAX / 2, 3, &removed),
	    STORE_OK);
	ck_assert_int_eq(removed, 3);
	ck_assert_int_eq(store_outbox_prune(st, INT64_MAX / 2, 3, &removed),
	    STORE_OK);
	ck_assert_int_eq(removed, 1);
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM outbox"), 1);
	ck_assert_int_eq(raw_int(db, "SELECT status FROM outbox"),
	    STORE_OUTBOX_FAILED);
	store_close(st);
}
END_TEST

/* The due query walks the partial index: no scan, no sort. */
START_TEST(test_outbox_plan)
{
	struct store	*st = open_store("plan");
	sqlite3_stmt	*s;
	int		 found = 0;
	const char	*detail;

	ck_assert_int_eq(sqlite3_prepare_v2(store_test_db(st),
	    "EXPLAIN QUERY PLAN SELECT id FROM outbox WHERE status = 0 "
	    "AND next_attempt <= ?1 ORDER BY id LIMIT ?2", -1, &s, NULL),
	    SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		detail = (const char *)sqlite3_column_text(s, 3);
		if (strstr(detail, "outbox_pending") != NULL)
			found = 1;
		ck_assert_msg(strstr(detail, "TEMP B-TREE") == NULL, "%s",
		    detail);
	}
	sqlite3_finalize(s);
	ck_assert(found);
	store_close(st);
}
END_TEST

/* Whether the statement of st whose text starts with `start' was run and
 * stepped through no whole table or index (SQLite counts those steps). */
static int
ran_without_scan(struct store *st, const char *start)
{
	sqlite3		*db = store_test_db(st);
	sqlite3_stmt	*s;
	int		 found = 0;

	for (s = sqlite3_next_stmt(db, NULL); s != NULL;
	    s = sqlite3_next_stmt(db, s)) {
		if (strncmp(sqlite3_sql(s), start, strlen(start)) != 0)
			continue;
		found = 1;
		ck_assert_msg(sqlite3_stmt_status(s,
		    SQLITE_STMTSTATUS_FULLSCAN_STEP, 0) == 0,
		    "%s: %d scan steps", start, sqlite3_stmt_status(s,
		    SQLITE_STMTSTATUS_FULLSCAN_STEP, 0));
	}
	return found;
}

static int
count_depth(const char *channel, int status, int64_t count, void *arg)
{
	(void)channel;
	(void)status;
	*(int64_t *)arg += count;
	return 0;
}

/* The periodic outbox passes read no delivered row they keep: with every
 * row delivered and none old enough, neither the retention pass (after
 * every scheduler pass) nor the queue depth (every metrics scrape) steps
 * through a table; each used to scan the whole outbox. */
START_TEST(test_outbox_passes_read_no_kept_row)
{
	struct store	*st = open_store("pruneplan");
	sqlite3		*db = store_test_db(st);
	int64_t		 depth = 0;
	int		 i, removed;

	for (i = 0; i < 200; i++)
		add_outbox(st, 0, i, "x@example.org", 0);
	ck_assert_int_eq(sqlite3_exec(db, "UPDATE outbox SET status = 1, "
	    "created = 1000", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(store_outbox_prune(st, 500, 1000, &removed),
	    STORE_OK);
	ck_assert_int_eq(removed, 0);
	ck_assert(ran_without_scan(st, "DELETE FROM outbox WHERE id IN"));
	ck_assert_int_eq(store_outbox_depth(st, count_depth, &depth),
	    STORE_OK);
	ck_assert_int_eq(depth, 0);
	ck_assert(ran_without_scan(st, "SELECT channel, 0, count(*)"));
	ck_assert_int_eq(store_outbox_prune(st, 2000, 1000, &removed),
	    STORE_OK);
	ck_assert_int_eq(removed, 200);
	store_close(st);
}
END_TEST

/* ---- Transactions ------------------------------------------------------- */

START_TEST(test_txn_rollback)
{
	struct store_player	 p;
	struct store		*st = open_store("rollback");
	int64_t			 game;

	game = add_game(st);
	store_rollback(st);			/* none open: harmless */

	ck_assert_int_eq(store_begin(st), STORE_OK);
	ck_assert_int_eq(store_begin(st), STORE_ERROR);	/* no nesting */
	add_player(st, "carol", 3);
	append(st, game, 0, "genesis");
	ck_assert_int_eq(store_snapshot_put(st, game, 0, "{}"), STORE_OK);
	add_outbox(st, game, 0, "x@example.org", 0);
	store_rollback(st);
	store_rollback(st);

	ck_assert_int_eq(store_player_find(st, "carol", &p), STORE_NOTFOUND);
	ck_assert_int_eq(raw_int(store_test_db(st),
	    "SELECT (SELECT count(*) FROM log) + (SELECT count(*) FROM "
	    "snapshots) + (SELECT count(*) FROM outbox)"), 0);
	ck_assert_int_eq(store_commit(st), STORE_ERROR);	/* none open */

	ck_assert_int_eq(store_begin(st), STORE_OK);
	append(st, game, 0, "genesis");
	ck_assert_int_eq(store_commit(st), STORE_OK);
	store_close(st);

	st = open_store("rollback");
	ck_assert_int_eq(raw_int(store_test_db(st),
	    "SELECT count(*) FROM log"), 1);
	store_close(st);
}
END_TEST

/* A failed multi-row call inside a transaction undoes only itself. */
START_TEST(test_txn_savepoint)
{
	struct store_player	 p;
	struct store_game	 g;
	struct store		*st = open_store("savepoint");

	ck_assert_int_eq(store_begin(st), STORE_OK);
	add_player(st, "alice", 1);
	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "bob");
	key_fill(p.pubkey, 1);				/* alice's key */
	ck_assert_int_eq(store_player_add(st, &p), STORE_EXISTS);
	game_fill(&g, 1);
	g.seat_player[0] = 4242;			/* no such player */
	ck_assert_int_eq(store_game_add(st, &g), STORE_ERROR);
	ck_assert_int_eq(store_commit(st), STORE_OK);

	ck_assert_int_eq(store_player_find(st, "alice", &p), STORE_OK);
	ck_assert_int_eq(store_player_find(st, "bob", &p), STORE_NOTFOUND);
	ck_assert_int_eq(raw_int(store_test_db(st),
	    "SELECT count(*) FROM games"), 0);
	store_close(st);
}
END_TEST

START_TEST(test_txn_isolation)
{
	struct store_player	 p;
	struct store		*a = open_store("isolation");
	struct store		*b = open_store("isolation");

	ck_assert_int_eq(store_begin(a), STORE_OK);
	add_player(a, "alice", 1);
	/* WAL: b reads while a writes, and sees only what is committed. */
	ck_assert_int_eq(store_player_find(b, "alice", &p), STORE_NOTFOUND);
	ck_assert_int_eq(store_commit(a), STORE_OK);
	ck_assert_int_eq(store_player_find(b, "alice", &p), STORE_OK);
	store_close(a);
	store_close(b);
}
END_TEST

START_TEST(test_txn_busy)
{
	struct store_entry	 e;
	struct store		*a = open_store("busy");
	struct store		*b = open_store("busy");
	unsigned char		 key[STORE_KEY_BYTES];
	int64_t			 game;

	game = add_game(a);
	store_test_busy_timeout(b, 20);
	ck_assert_int_eq(store_begin(a), STORE_OK);
	append(a, game, 0, "genesis");
	ck_assert_int_eq(store_begin(b), STORE_BUSY);
	ck_assert_str_ne(store_errmsg(b), "");
	entry_fill(&e, game, 1, "b's move");
	ck_assert_int_eq(store_log_append(b, &e), STORE_BUSY);
	/* Multi-row calls take the lock up front too, and change nothing. */
	key_fill(key, 0x77);
	ck_assert_int_eq(store_player_set_key(b, 1, key), STORE_BUSY);
	ck_assert_int_eq(store_commit(a), STORE_OK);
	ck_assert_int_eq(raw_int(store_test_db(b),
	    "SELECT count(*) FROM player_keys"), 2);

	/* The same race, one step at a time: b comes second and loses. */
	ck_assert_int_eq(store_begin(a), STORE_OK);
	append(a, game, 1, "a's move");
	ck_assert_int_eq(store_begin(b), STORE_BUSY);
	ck_assert_int_eq(store_commit(a), STORE_OK);
	ck_assert_int_eq(store_begin(b), STORE_OK);
	ck_assert_int_eq(store_log_append(b, &e), STORE_EXISTS);
	store_rollback(b);
	ck_assert_int_eq(store_log_get(b, game, 1, &e), STORE_OK);
	ck_assert_str_eq(e.text, "a's move");
	store_entry_clear(&e);
	store_close(a);
	store_close(b);
}
END_TEST

#define RACE_ROUNDS	200

struct racer {
	struct store		*st;
	pthread_barrier_t	*start;
	int64_t			 game;
	char			 text[16];
	enum store_status	 result[RACE_ROUNDS];
};

/* No ck_assert here: results are checked on the main thread. */
static void *
race(void *arg)
{
	struct racer		*r = arg;
	struct store_entry	 e;
	enum store_status	 status;
	int			 i;

	for (i = 0; i < RACE_ROUNDS; i++) {
		entry_fill(&e, r->game, i + 1, r->text);
		pthread_barrier_wait(r->start);
		if ((status = store_begin(r->st)) == STORE_OK &&
		    (status = store_log_append(r->st, &e)) == STORE_OK)
			status = store_commit(r->st);
		if (status != STORE_OK)
			store_rollback(r->st);
		r->result[i] = status;
	}
	return NULL;
}

static int
count_by(const struct store_entry *e, void *arg)
{
	int	*n = arg;

	if (strcmp(e->text, "one") == 0)
		n[0]++;
	else if (strcmp(e->text, "two") == 0)
		n[1]++;
	return 0;
}

/* Two connections append the same (game, seq): exactly one wins. */
START_TEST(test_race_same_seq)
{
	struct racer		 r[2];
	pthread_barrier_t	 start;
	pthread_t		 t[2];
	struct store		*st;
	int64_t			 game;
	int			 i, n[2] = { 0, 0 };

	st = open_store("race");
	game = add_game(st);
	append(st, game, 0, "genesis");
	store_close(st);

	pthread_barrier_init(&start, NULL, 2);
	for (i = 0; i < 2; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].st = open_store("race");
		r[i].start = &start;
		r[i].game = game;
		snprintf(r[i].text, sizeof(r[i].text), i ? "two" : "one");
		ck_assert_int_eq(pthread_create(&t[i], NULL, race, &r[i]), 0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start);

	for (i = 0; i < RACE_ROUNDS; i++) {
		enum store_status a = r[0].result[i], b = r[1].result[i];

		ck_assert_msg((a == STORE_OK && b == STORE_EXISTS) ||
		    (a == STORE_EXISTS && b == STORE_OK),
		    "round %d: results %d and %d", i, a, b);
	}
	ck_assert_int_eq(store_log_foreach(r[0].st, game, count_by, n),
	    STORE_OK);
	ck_assert_int_eq(n[0] + n[1], RACE_ROUNDS);
	store_close(r[0].st);
	store_close(r[1].st);
}
END_TEST

/* ---- Tampered files ----------------------------------------------------- */

START_TEST(test_tamper_player)
{
	struct store_player	 p;
	struct store		*st = open_store("tplayer");
	sqlite3			*db;
	int64_t			 id, ids[8] = { 0 };

	id = add_player(st, "alice", 1);
	db = raw_open("tplayer");
	raw_exec(db, "PRAGMA ignore_check_constraints = ON;"
	    "UPDATE player_keys SET pubkey = x'0102'");
	ck_assert_int_eq(store_player_get(st, id, &p), STORE_ERROR);
	ck_assert_msg(strstr(store_errmsg(st), "corrupt row") != NULL, "%s",
	    store_errmsg(st));
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "pubkey"));
	ck_assert_int_eq(store_player_foreach(st, count_players, ids),
	    STORE_ERROR);

	raw_exec(db, "UPDATE player_keys SET pubkey = zeroblob(32);"
	    "UPDATE players SET name = replace(hex(zeroblob(100)), '0', 'n')");
	ck_assert_int_eq(store_player_get(st, id, &p), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "too long"));

	raw_exec(db, "UPDATE players SET name = 'alice';"
	    "DELETE FROM player_keys");
	ck_assert_int_eq(store_player_get(st, id, &p), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "corrupt row"));
	sqlite3_close(db);
	store_close(st);
}
END_TEST

START_TEST(test_tamper_log)
{
	struct store_entry	 e;
	struct store		*st = open_store("tlog");
	struct seen		 seen;
	sqlite3			*db;
	int64_t			 game;

	game = add_game(st);
	append(st, game, 0, "genesis");
	append(st, game, 1, "first");
	append(st, game, 2, "second");

	db = raw_open("tlog");
	raw_exec(db, "DROP TRIGGER log_no_update;"
	    "PRAGMA ignore_check_constraints = ON;"
	    "UPDATE log SET hash = x'00' WHERE seq = 1;"
	    "UPDATE log SET text = x'41' WHERE seq = 2");
	sqlite3_close(db);

	ck_assert_int_eq(store_log_get(st, game, 1, &e), STORE_ERROR);
	ck_assert_msg(strstr(store_errmsg(st),
	    "corrupt row in log (seq 1): column hash") != NULL, "%s",
	    store_errmsg(st));
	ck_assert_ptr_null(e.text);
	ck_assert_int_eq(store_log_get(st, game, 2, &e), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "is not text"));
	ck_assert_int_eq(store_log_last(st, game, &e), STORE_ERROR);

	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(store_log_foreach(st, game, see_entry, &seen),
	    STORE_ERROR);
	ck_assert_int_eq(seen.n, 1);		/* entry 0 was sound */
	store_close(st);
}
END_TEST

START_TEST(test_tamper_game)
{
	struct store_game	 g;
	struct store		*st = open_store("tgame");
	struct seen		 seen;
	sqlite3			*db;
	int64_t			 game;

	game = add_game(st);
	db = raw_open("tgame");
	raw_exec(db, "PRAGMA ignore_check_constraints = ON;"
	    "UPDATE seats SET seat = 200 WHERE seat = 1");
	ck_assert_int_eq(store_game_get(st, game, &g), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "seat"));
	ck_assert_ptr_null(g.options);
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(store_game_foreach(st, see_game, &seen),
	    STORE_ERROR);
	ck_assert_int_eq(seen.n, 0);

	raw_exec(db, "UPDATE seats SET seat = 1 WHERE seat = 200;"
	    "UPDATE games SET nseats = 1000");
	ck_assert_int_eq(store_game_get(st, game, &g), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "nseats"));

	raw_exec(db, "UPDATE games SET nseats = 2, seed = 'not a blob'");
	ck_assert_int_eq(store_game_get(st, game, &g), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "seed"));

	raw_exec(db, "UPDATE games SET seed = zeroblob(32);"
	    "UPDATE seats SET status = 9 WHERE seat = 1");
	ck_assert_int_eq(store_game_get(st, game, &g), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "seat status"));
	sqlite3_close(db);
	store_close(st);
}
END_TEST

START_TEST(test_tamper_outbox)
{
	struct store	*st = open_store("toutbox");
	struct due	 d;
	sqlite3		*db;

	add_outbox(st, 0, 0, "a@example.org", 0);
	add_outbox(st, 0, 0, "b@example.org", 0);
	db = raw_open("toutbox");
	raw_exec(db, "PRAGMA ignore_check_constraints = ON;"
	    "UPDATE outbox SET channel = 'a-channel-name-far-too-long' "
	    "WHERE id = 2");
	sqlite3_close(db);

	memset(&d, 0, sizeof(d));
	ck_assert_int_eq(store_outbox_due(st, 0, 10, see_due, &d),
	    STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(st), "channel"));
	ck_assert_int_eq(d.n, 0);	/* nothing half-delivered */
	store_close(st);
}
END_TEST

/* ---- The security review (issue 14) ------------------------------------ */

/* Started by hand with umask 022, the database and its -wal and -shm
 * files are still readable by their owner only. */
START_TEST(test_file_modes)
{
	struct store	*st;
	struct stat	 sb;
	char		 path[PATH_MAX], side[PATH_MAX + 8];
	mode_t		 old = umask(022);
	const char	*suffix[] = { "", "-wal", "-shm" };
	size_t		 i;

	st = open_store("modes");
	add_player(st, "alice", 1);		/* the WAL has content */
	db_path(path, sizeof(path), "modes");
	for (i = 0; i < 3; i++) {
		snprintf(side, sizeof(side), "%s%s", path, suffix[i]);
		ck_assert_msg(stat(side, &sb) == 0, "%s missing", side);
		ck_assert_msg((sb.st_mode & 0777) == 0600, "%s has mode %o",
		    side, (unsigned)(sb.st_mode & 0777));
	}
	store_close(st);
	umask(old);
}
END_TEST

/* One name per case-folded form: "Eve0" is refused beside "eve0", and
 * the refusal names the player it clashes with. */
START_TEST(test_names_folded)
{
	struct store_player	 p, other;
	struct store		*st = open_store("folded");

	add_player(st, "eve0", 1);
	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "Eve0");
	key_fill(p.pubkey, 2);
	ck_assert_int_eq(store_player_add(st, &p), STORE_EXISTS);
	ck_assert_int_eq(store_player_find(st, "Eve0", &other),
	    STORE_NOTFOUND);
	ck_assert_int_eq(store_player_find_folded(st, "EVE0", &other),
	    STORE_OK);
	ck_assert_str_eq(other.name, "eve0");
	/* The address index finds a player whatever the case. */
	ck_assert_int_eq(store_player_find_email(st, "EVE0@Example.ORG",
	    &other), STORE_OK);
	ck_assert_str_eq(other.name, "eve0");
	ck_assert_int_eq(store_player_find_email(st, "", &other),
	    STORE_NOTFOUND);
	store_close(st);
}
END_TEST

/* A file with such a pair from before schema 6 is refused, named, and
 * left at version 5 with its players; renaming one lets it open. */
START_TEST(test_migrate_names_folded_refused)
{
	struct store	*st;
	sqlite3		*db;
	char		 path[PATH_MAX], err[512] = "";

	db_path(path, sizeof(path), "clash");
	ck_assert_msg(store_test_create_at(path, 5, err, sizeof(err)) ==
	    STORE_OK, "%s", err);
	db = raw_open("clash");
	raw_exec(db, "INSERT INTO players (id, name, email, created) VALUES "
	    "(3, 'eve0', '', 1), (5, 'Eve0', '', 2), (6, 'bob', '', 3)");
	ck_assert_int_eq(store_open(path, &st, err, sizeof(err)),
	    STORE_ERROR);
	ck_assert_msg(strstr(err, "3 \"eve0\" and 5 \"Eve0\"") != NULL, "%s",
	    err);
	ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), 5);
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM players"), 3);
	raw_exec(db, "UPDATE players SET name = 'eve1' WHERE id = 5");
	sqlite3_close(db);
	ck_assert_msg(store_open(path, &st, err, sizeof(err)) == STORE_OK,
	    "%s", err);
	ck_assert_int_eq(store_schema_version(st), store_schema_latest());
	store_close(st);
}
END_TEST

struct walk {
	int64_t		 seen[64];
	int		 n;
};

static int
walk_game(const struct store_game *g, void *arg)
{
	struct walk *w = arg;

	ck_assert_int_lt(w->n, 64);
	w->seen[w->n++] = g->id;
	return 0;
}

/* Walk q page by page (limit 3): every id once, in order. */
static int
walk_pages(struct store *st, struct store_game_query *q, struct walk *all)
{
	struct walk page;
	int pages = 0, i;

	memset(all, 0, sizeof(*all));
	q->after = 0;
	q->limit = 3;
	do {
		memset(&page, 0, sizeof(page));
		ck_assert_int_eq(store_game_page(st, q, walk_game, &page),
		    STORE_OK);
		for (i = 0; i < page.n; i++) {
			if (all->n > 0)
				ck_assert_int_gt(page.seen[i],
				    all->seen[all->n - 1]);
			all->seen[all->n++] = page.seen[i];
		}
		if (page.n > 0)
			q->after = page.seen[page.n - 1];
		pages++;
	} while (page.n == q->limit);
	return pages;
}

/* Paging walks every game exactly once, with each filter; the forming
 * count reads a player's seats. */
START_TEST(test_game_pages)
{
	struct store_game_query	 q;
	struct store_game	 g;
	struct store		*st = open_store("pages");
	struct walk		 all;
	int64_t			 alice, ids[10], n;
	int			 i;

	alice = add_player(st, "alice", 1);
	for (i = 0; i < 10; i++) {
		game_fill(&g, 2);
		g.status = i % 2 == 0 ? STORE_GAME_FORMING : STORE_GAME_RUNNING;
		g.seat_player[0] = i % 3 == 0 ? alice : 0;
		g.seat_player[1] = 0;
		ck_assert_int_eq(store_game_add(st, &g), STORE_OK);
		ids[i] = g.id;
	}
	memset(&q, 0, sizeof(q));
	q.status = -1;
	ck_assert_int_eq(walk_pages(st, &q, &all), 4);	/* 3+3+3+1 */
	ck_assert_int_eq(all.n, 10);
	for (i = 0; i < 10; i++)
		ck_assert_int_eq(all.seen[i], ids[i]);
	q.status = STORE_GAME_FORMING;
	walk_pages(st, &q, &all);
	ck_assert_int_eq(all.n, 5);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(all.seen[i], ids[2 * i]);
	q.status = -1;
	q.player = alice;			/* games 0, 3, 6, 9 */
	walk_pages(st, &q, &all);
	ck_assert_int_eq(all.n, 4);
	ck_assert_int_eq(all.seen[3], ids[9]);
	q.status = STORE_GAME_FORMING;		/* 0 and 6 */
	walk_pages(st, &q, &all);
	ck_assert_int_eq(all.n, 2);
	ck_assert_int_eq(all.seen[1], ids[6]);
	q.player = 0;
	q.status = -1;
	q.ruleset = "nosuchgame";
	walk_pages(st, &q, &all);
	ck_assert_int_eq(all.n, 0);
	ck_assert_int_eq(store_game_forming_count(st, alice, &n), STORE_OK);
	ck_assert_int_eq(n, 2);
	store_close(st);
}
END_TEST

/* A row put off by a cap is still pending, its attempts uncounted, with
 * the reason shown; the send count refuses past max in one window. */
START_TEST(test_outbox_defer_and_send_rate)
{
	struct store	*st = open_store("defer");
	sqlite3		*db = store_test_db(st);
	int64_t		 id, end, count;
	int		 allowed, i;

	id = add_outbox(st, 0, 0, "a@example.org", 0);
	ck_assert_int_eq(store_outbox_defer(st, id, 5000, "deferred: cap"),
	    STORE_OK);
	ck_assert_int_eq(raw_int(db, "SELECT attempts FROM outbox"), 0);
	ck_assert_int_eq(raw_int(db, "SELECT status FROM outbox"), 0);
	ck_assert_int_eq(raw_int(db, "SELECT next_attempt FROM outbox"), 5000);
	ck_assert_str_eq(raw_text(db, "SELECT last_error FROM outbox"),
	    "deferred: cap");
	ck_assert_int_eq(store_outbox_pending(st, &count), STORE_OK);
	ck_assert_int_eq(count, 1);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(store_mail_send_take(st, "a@example.org",
		    1000 + i, 3600, 3, &allowed, &end), STORE_OK);
		ck_assert_int_eq(allowed, 1);
	}
	ck_assert_int_eq(store_mail_send_take(st, "a@example.org", 1010, 3600,
	    3, &allowed, &end), STORE_OK);
	ck_assert_int_eq(allowed, 0);
	ck_assert_int_eq(end, 4600);
	ck_assert_int_eq(store_mail_send_take(st, "a@example.org", 4600, 3600,
	    3, &allowed, &end), STORE_OK);
	ck_assert_int_eq(allowed, 1);
	store_close(st);
}
END_TEST

/* ---- Runner ------------------------------------------------------------- */

static Suite *
store_suite(void)
{
	Suite	*s = suite_create("store");
	TCase	*tc;

	tc = tcase_create("open");
	tcase_add_test(tc, test_open_fresh);
	tcase_add_test(tc, test_open_bad_path);
	tcase_add_test(tc, test_open_not_a_database);
	tcase_add_test(tc, test_open_foreign_database);
	tcase_add_test(tc, test_migrate_from_v1);
	tcase_add_test(tc, test_migrate_newer_refused);
	tcase_add_test(tc, test_migrate_bad_target);
	tcase_add_test(tc, test_sync_env);
	tcase_add_test(tc, test_file_modes);
	tcase_add_test(tc, test_migrate_names_folded_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("rows");
	tcase_add_test(tc, test_meta);
	tcase_add_test(tc, test_player_add_get_find);
	tcase_add_test(tc, test_player_duplicates);
	tcase_add_test(tc, test_player_set_key);
	tcase_add_test(tc, test_player_fields_checked);
	tcase_add_test(tc, test_player_foreach);
	tcase_add_test(tc, test_game_add_get);
	tcase_add_test(tc, test_game_invalid);
	tcase_add_test(tc, test_card_files);
	tcase_add_test(tc, test_game_status_and_seat);
	tcase_add_test(tc, test_game_foreach);
	tcase_add_test(tc, test_log_append_read);
	tcase_add_test(tc, test_log_duplicate);
	tcase_add_test(tc, test_log_triggers);
	tcase_add_test(tc, test_log_foreach_reentry);
	tcase_add_test(tc, test_snapshots);
	tcase_add_test(tc, test_summaries);
	tcase_add_test(tc, test_outbox);
	tcase_add_test(tc, test_outbox_plan);
	tcase_add_test(tc, test_outbox_passes_read_no_kept_row);
	tcase_add_test(tc, test_names_folded);
	tcase_add_test(tc, test_game_pages);
	tcase_add_test(tc, test_outbox_defer_and_send_rate);
	suite_add_tcase(s, tc);

	tc = tcase_create("transactions");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_txn_rollback);
	tcase_add_test(tc, test_txn_savepoint);
	tcase_add_test(tc, test_txn_isolation);
	tcase_add_test(tc, test_txn_busy);
	tcase_add_test(tc, test_race_same_seq);
	suite_add_tcase(s, tc);

	tc = tcase_create("tampering");
	tcase_add_test(tc, test_tamper_player);
	tcase_add_test(tc, test_tamper_log);
	tcase_add_test(tc, test_tamper_game);
	tcase_add_test(tc, test_tamper_outbox);
	suite_add_tcase(s, tc);
	return s;
}

/* Remove the test directory and every file the tests left in it. */
static void
remove_tmpdir(void)
{
	struct dirent	*de;
	DIR		*d;
	char		 path[PATH_MAX];

	if ((d = opendir(tmpdir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmpdir, de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(tmpdir);
}

int
main(void)
{
	SRunner		*sr;
	const char	*base = getenv("TMPDIR");
	int		 failed;

	if ((size_t)snprintf(tmpdir, sizeof(tmpdir), "%s/check_store.XXXXXX",
	    base && *base ? base : "/tmp") >= sizeof(tmpdir) ||
	    mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	sr = srunner_create(store_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	remove_tmpdir();
	return failed == 0 ? 0 : 1;
}
