/*
 * testlib.c -- see testlib.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>
#include <sqlite3.h>

#include "cardsets.h"
#include "protocol.h"
#include "testlib.h"

void
testenv_open(struct testenv *env, int nplayers)
{
	struct store_player p;
	char err[512], *keypath, text[128];
	int i;

	memset(env, 0, sizeof(*env));
	ck_assert_int_ge(sodium_init(), 0);
	/* A card game's own set comes from the source tree
	 * (rules/GAME/cards.yaml), not from an installed copy. */
	cardsets_use_source_tree(getenv("top_srcdir") != NULL ?
	    getenv("top_srcdir") : ".");
	snprintf(env->dir, sizeof(env->dir), "/tmp/pbem-test-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(env->dir));
	snprintf(env->dbpath, sizeof(env->dbpath), "%s/pbem.db", env->dir);
	ck_assert_int_eq(store_open(env->dbpath, &env->st, err, sizeof(err)),
	    STORE_OK);
	keypath = serverkey_path_for(env->dbpath);
	env->key = serverkey_open(keypath, 1, err, sizeof(err));
	free(keypath);
	ck_assert_msg(env->key != NULL, "%s", err);
	serverkey_public(env->key, env->server_pub);
	proto_pubkey_format(env->server_pub, text, sizeof(text));
	ck_assert_int_eq(store_meta_set(env->st, "server_key", text), STORE_OK);
	env->nplayers = nplayers;
	for (i = 0; i < nplayers; i++) {
		memset(&p, 0, sizeof(p));
		snprintf(p.name, sizeof(p.name), "p%d", i);
		snprintf(p.email, sizeof(p.email), "p%d@example.org", i);
		snprintf(p.lang, sizeof(p.lang), "%s", i % 2 ? "fr" : "en");
		crypto_sign_keypair(p.pubkey, env->player_sk[i]);
		ck_assert_int_eq(store_player_add(env->st, &p), STORE_OK);
		env->player_id[i] = p.id;
	}
}

void
testenv_close(struct testenv *env)
{
	char cmd[400];

	serverkey_close(env->key);
	store_close(env->st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", env->dir);
	ck_assert_int_eq(system(cmd), 0);
}

int64_t
testenv_game_with(struct testenv *env, const char *ruleset, int nseats,
    const char *options)
{
	char err[1024];
	int64_t id;

	ck_assert_msg(engine_create_game(env->st, env->key, ruleset, options,
	    env->player_id, nseats, &id, err, sizeof(err)) == ENGINE_OK,
	    "create %s: %s", ruleset, err);
	return id;
}

int64_t
testenv_game(struct testenv *env, const char *ruleset, int nseats)
{
	return testenv_game_with(env, ruleset, nseats, NULL);
}

void
testenv_block(struct testenv *env, int signer, int64_t game, int64_t seq,
    int seat, const char *text, char *out, size_t outlen)
{
	struct proto_move m;
	char err[256];

	memset(&m, 0, sizeof(m));
	m.game_id = game;
	m.seq = seq;
	m.seat = seat;
	snprintf(m.text, sizeof(m.text), "%s", text);
	ck_assert_int_eq(proto_clean_text(m.text, err, sizeof(err)), PROTO_OK);
	proto_move_sign(&m, env->player_sk[signer]);
	ck_assert_uint_gt(proto_move_armour(&m, out, outlen), 0);
}

void
testenv_play(struct testenv *env, int64_t game, int64_t seq, int seat,
    const char *text, struct engine_reply *reply)
{
	char block[4096];

	testenv_block(env, seat, game, seq, seat, text, block, sizeof(block));
	engine_submit(env->st, env->key, block, strlen(block), RULES_LANG_EN,
	    reply);
}

static int64_t
count(sqlite3 *db, const char *table)
{
	char sql[128];
	sqlite3_stmt *stmt;
	int64_t n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL),
	    SQLITE_OK);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		n = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return n;
}

int64_t
testenv_rows(struct testenv *env)
{
	sqlite3 *db;
	int64_t n;

	ck_assert_int_eq(sqlite3_open(env->dbpath, &db), SQLITE_OK);
	n = count(db, "log") + count(db, "snapshots") + count(db, "outbox") +
	    count(db, "games");
	sqlite3_close(db);
	return n;
}

int
testenv_sql(struct testenv *env, const char *sql)
{
	sqlite3 *db;
	char *msg = NULL;
	int rc;

	ck_assert_int_eq(sqlite3_open(env->dbpath, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK)
		fprintf(stderr, "sql: %s: %s\n", sql, msg);
	sqlite3_free(msg);
	sqlite3_close(db);
	return rc;
}

uint32_t
test_random(uint64_t *state, uint32_t bound)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return (uint32_t)(x % bound);
}

void
testenv_flip(struct testenv *env, const char *table, const char *column,
    int64_t game, int64_t seq, int offset)
{
	sqlite3_stmt *stmt;
	unsigned char *bytes;
	char sql[512];
	sqlite3 *db;
	int type, len;

	ck_assert_int_eq(sqlite3_open(env->dbpath, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	/* An attacker with the file can drop the append-only triggers. */
	sqlite3_exec(db, "DROP TRIGGER IF EXISTS log_no_update", 0, 0, 0);
	snprintf(sql, sizeof(sql), "SELECT %s FROM %s WHERE game_id = ?1 AND "
	    "seq = ?2", column, table);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL),
	    SQLITE_OK);
	sqlite3_bind_int64(stmt, 1, game);
	sqlite3_bind_int64(stmt, 2, seq);
	ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
	type = sqlite3_column_type(stmt, 0);
	len = sqlite3_column_bytes(stmt, 0);
	ck_assert_int_lt(offset, len);
	bytes = malloc((size_t)len + 1);
	memcpy(bytes, type == SQLITE_TEXT ? sqlite3_column_text(stmt, 0) :
	    sqlite3_column_blob(stmt, 0), (size_t)len);
	sqlite3_finalize(stmt);
	bytes[offset] ^= 1;
	snprintf(sql, sizeof(sql), "UPDATE %s SET %s = ?3 WHERE game_id = ?1 "
	    "AND seq = ?2", table, column);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL),
	    SQLITE_OK);
	sqlite3_bind_int64(stmt, 1, game);
	sqlite3_bind_int64(stmt, 2, seq);
	if (type == SQLITE_TEXT)
		sqlite3_bind_text(stmt, 3, (char *)bytes, len, SQLITE_TRANSIENT);
	else
		sqlite3_bind_blob(stmt, 3, bytes, len, SQLITE_TRANSIENT);
	ck_assert_int_eq(sqlite3_step(stmt), SQLITE_DONE);
	sqlite3_finalize(stmt);
	free(bytes);
	sqlite3_close(db);
}

/* ---- Asynchronous play: a clock, a policy, the scheduler ----------------- */

int64_t
testenv_clock(void *arg)
{
	return *(const int64_t *)arg;
}

void
testenv_set_policy(struct testenv *env, int64_t game, const char *json)
{
	struct gamestate gs;
	struct policy p;
	char err[512];

	ck_assert_int_eq(gamestate_load(env->st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	policy_default(&p);
	ck_assert_msg(policy_parse(json, gs.module, &p, err, sizeof(err)) ==
	    0, "%s", err);
	gamestate_clear(&gs);
	ck_assert_int_eq(engine_policy_set(env->st, game, &p, err,
	    sizeof(err)), ENGINE_OK);
}

int64_t
testenv_mastered_game(struct testenv *env, int nseats, const char *policy,
    int master)
{
	char err[512];
	int64_t game;

	game = testenv_game(env, "template", nseats);
	testenv_set_policy(env, game, policy);
	ck_assert_msg(engine_master_name(env->st, game,
	    env->player_id[master], err, sizeof(err)) == ENGINE_OK, "%s", err);
	return game;
}

struct schedule_stats
testenv_tick(struct testenv *env, int64_t now)
{
	struct schedule_stats stats;
	char err[1024] = "";

	ck_assert_msg(schedule_tick(env->st, env->key, now, &stats, err,
	    sizeof(err)) == 0, "%s", err);
	return stats;
}

int
testenv_to_act(struct testenv *env, int64_t game, int64_t *next)
{
	struct gamestate gs;
	char err[512];
	int seat;

	ck_assert_int_eq(gamestate_load(env->st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	if (next != NULL)
		*next = gs.seq + 1;
	if (gs.game.status == STORE_GAME_OVER ||
	    gs.module->to_act(gs.state, &seat, 1) == 0)
		seat = -1;
	gamestate_clear(&gs);
	return seat;
}

enum engine_status
testenv_play_first(struct testenv *env, int64_t game, int signer,
    int64_t now)
{
	struct gamestate gs;
	struct engine_reply reply;
	char err[512], move[PROTO_MOVE_MAX + 1], block[4096];
	enum engine_status status;
	json_t *moves;
	int seat;

	ck_assert_int_eq(gamestate_load(env->st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_gt(gs.module->to_act(gs.state, &seat, 1), 0);
	moves = gs.module->legal_moves(gs.state, seat);
	ck_assert_msg((size_t)snprintf(move, sizeof(move), "%s",
	    json_string_value(json_array_get(moves, 0))) < sizeof(move),
	    "a legal move longer than a move text may be");
	json_decref(moves);
	testenv_block(env, signer < 0 ? seat : signer, game, gs.seq + 1, seat,
	    move, block, sizeof(block));
	engine_handle(env->st, env->key, block, strlen(block), RULES_LANG_EN,
	    now, &reply);
	status = reply.status;
	engine_reply_clear(&reply);
	gamestate_clear(&gs);
	return status;
}

void
testenv_stm_ids(const char *text, unsigned char seen[74])
{
	const char *p;
	int n;

	memset(seen, 0, 74);
	for (p = text; *p != '\0'; p++) {
		if ((p[0] != 'G' && p[0] != 'M') || p[1] < '0' || p[1] > '9' ||
		    p[2] < '0' || p[2] > '9' || p[3] != '"')
			continue;
		n = (p[1] - '0') * 10 + (p[2] - '0');
		if (p[0] == 'G' && n >= 1 && n <= 50)
			seen[n - 1] = 1;
		else if (p[0] == 'M' && n >= 1 && n <= 24)
			seen[50 + n - 1] = 1;
	}
}

int
testenv_entry_kind(struct testenv *env, int64_t game, int64_t seq)
{
	struct store_entry e;
	int kind;

	ck_assert_int_eq(store_log_get(env->st, game, seq, &e), STORE_OK);
	kind = e.kind;
	store_entry_clear(&e);
	return kind;
}
