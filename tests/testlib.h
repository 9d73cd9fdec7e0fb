/*
 * testlib.h -- helpers for the whole-system tests: a fresh database and
 * server key in a temporary directory, players with real Ed25519 keys,
 * signing and submitting moves, a seeded pseudo-random choice for random
 * play (tests must not depend on luck, so every run makes the same
 * choices), row counts to prove a refusal changed nothing, and a test
 * clock, policies and scheduler passes for asynchronous play.
 */
#ifndef PBEM_TESTLIB_H
#define PBEM_TESTLIB_H

#include <stdint.h>

#include "engine.h"
#include "schedule.h"

struct testenv {
	char			 dir[256];
	char			 dbpath[300];
	struct store		*st;
	struct serverkey	*key;
	unsigned char		 server_pub[32];
	int			 nplayers;
	int64_t			 player_id[8];
	unsigned char		 player_sk[8][64];
};

/* A fresh database with nplayers players named p0, p1, ... */
void	testenv_open(struct testenv *env, int nplayers);
void	testenv_close(struct testenv *env);
/* Create a game of ruleset for players 0..nseats-1 in order. */
int64_t	testenv_game(struct testenv *env, const char *ruleset, int nseats);
/* The same with options (JSON text). */
int64_t	testenv_game_with(struct testenv *env, const char *ruleset,
	    int nseats, const char *options);
/* Sign move text for (game, seq, seat) with player signer's key and
 * write the armoured block into out. */
void	testenv_block(struct testenv *env, int signer, int64_t game,
	    int64_t seq, int seat, const char *text, char *out, size_t outlen);
/* Sign with the seat's own player's key and submit. */
void	testenv_play(struct testenv *env, int64_t game, int64_t seq, int seat,
	    const char *text, struct engine_reply *reply);

/* The kind of log entry seq of game (asserts it exists). */
int	testenv_entry_kind(struct testenv *env, int64_t game, int64_t seq);

/* Rows in the database: log entries + snapshots + outbox + games. */
int64_t	testenv_rows(struct testenv *env);

/* Deterministic choice: a xorshift generator. */
uint32_t test_random(uint64_t *state, uint32_t bound);

/* Flip the lowest bit of byte offset of table.column in the row of
 * (game_id, seq), bypassing the store (tampering); keeps the value's
 * type.  Flipping twice restores it. */
void	testenv_flip(struct testenv *env, const char *table,
	    const char *column, int64_t game, int64_t seq, int offset);

/* Run an SQL statement on the raw file (tampering); returns sqlite rc. */
int	testenv_sql(struct testenv *env, const char *sql);

/*
 * Asynchronous play (check_async, check_notices).
 */
/* A clock for clock_set(): the int64_t arg points to. */
int64_t	testenv_clock(void *arg);
/* Set game's policy from JSON over the default; asserts it is accepted. */
void	testenv_set_policy(struct testenv *env, int64_t game,
	    const char *json);
/* A new Ladder (template) game of nseats under policy (JSON), whose
 * game master is player master. */
int64_t	testenv_mastered_game(struct testenv *env, int nseats,
	    const char *policy, int master);
/* One scheduler pass at now; asserts it succeeded. */
struct schedule_stats testenv_tick(struct testenv *env, int64_t now);
/* The first seat to act (-1 when the game is over); *next (if not NULL)
 * is the next sequence number. */
int	testenv_to_act(struct testenv *env, int64_t game, int64_t *next);
/* Play the first legal move of the seat to act, signed by player signer
 * (-1: the player with the seat's number), at time now. */
enum engine_status testenv_play_first(struct testenv *env, int64_t game,
	    int signer, int64_t now);

/* Star Trek: Missions card ids ("G01".."G50" -> 0..49, "M01".."M24" ->
 * 50..73) named as JSON strings ("G01") anywhere in text: seen[i] = 1. */
void	testenv_stm_ids(const char *text, unsigned char seen[74]);

#endif /* PBEM_TESTLIB_H */
