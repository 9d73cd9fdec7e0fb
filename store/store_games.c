/*
 * store_games.c -- games and their seats (tables games and seats):
 * store.h's store_game_* calls.
 *
 * A game is written with all its seats as one unit, and read with them:
 * seat_player[] (0 for an open seat, NULL in the table) and seat_status[].
 * nseats, read first, bounds every seat index read after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

#define GAME_SELECT							\
	"SELECT id, ruleset, ruleset_version, options, nseats, seed, "	\
	"commitment, status, created, cards_hash FROM games"

const char *const sq_games_sql[ST_COUNT] = {
	[ST_GAME_ADD] = "INSERT INTO games (ruleset, ruleset_version, "
	    "options, nseats, seed, commitment, status, created, cards_hash) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	[ST_GAME_GET] = GAME_SELECT " WHERE id = ?1",
	[ST_GAME_ALL] = GAME_SELECT " ORDER BY id",
	[ST_GAME_STATUS] = "UPDATE games SET status = ?2 WHERE id = ?1",
	[ST_SEAT_ADD] = "INSERT INTO seats (game_id, seat, player_id) "
	    "VALUES (?1, ?2, ?3)",
	[ST_SEATS_GET] = "SELECT seat, player_id, status FROM seats "
	    "WHERE game_id = ?1",
	[ST_SEAT_SET] = "UPDATE seats SET player_id = ?3 "
	    "WHERE game_id = ?1 AND seat = ?2",
	/* Pages, by id after ?1, at most ?2 rows; ?3 a ruleset or NULL.
	 * A status through games_status, a player through seats_player
	 * (whose entries carry game_id): neither reads other games. */
	[ST_GAME_PAGE] = GAME_SELECT " WHERE id > ?1 AND (?3 IS NULL OR "
	    "ruleset = ?3) ORDER BY id LIMIT ?2",
	[ST_GAME_PAGE_STATUS] = GAME_SELECT " WHERE status = ?4 AND id > ?1 "
	    "AND (?3 IS NULL OR ruleset = ?3) ORDER BY id LIMIT ?2",
	[ST_GAME_PAGE_PLAYER] = GAME_SELECT " WHERE id IN (SELECT game_id "
	    "FROM seats WHERE player_id = ?5 AND game_id > ?1) "
	    "AND (?4 < 0 OR status = ?4) AND (?3 IS NULL OR ruleset = ?3) "
	    "ORDER BY id LIMIT ?2",
	[ST_GAME_FORMING_COUNT] = "SELECT count(DISTINCT s.game_id) FROM "
	    "seats s JOIN games g ON g.id = s.game_id "
	    "WHERE s.player_id = ?1 AND g.status = 2",
};

static enum store_status
game_insert(struct store *st, struct store_game *g)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_GAME_ADD)) == NULL)
		return STORE_ERROR;
	sq_bind_field(st, s, 1, g->ruleset, sizeof(g->ruleset));
	sq_bind_int64(st, s, 2, g->ruleset_version);
	sq_bind_text(st, s, 3, g->options);
	sq_bind_int64(st, s, 4, g->nseats);
	sq_bind_blob(st, s, 5, g->seed, sizeof(g->seed));
	sq_bind_blob(st, s, 6, g->commitment, sizeof(g->commitment));
	sq_bind_int64(st, s, 7, g->status);
	sq_bind_int64(st, s, 8, g->created);
	if (g->cards_hash[0] != '\0')
		sq_bind_text(st, s, 9, g->cards_hash);
	if ((status = sq_run(st, s, "game add")) == STORE_OK)
		g->id = sq_last_id(st);
	return status;
}

static enum store_status
seat_insert(struct store *st, int64_t game_id, int seat, int64_t player_id)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_SEAT_ADD)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, seat);
	sq_bind_id(st, s, 3, player_id);
	return sq_run(st, s, "game seat");
}

/*
 * seat_player[i] == 0 leaves seat i open.  A zero created means "now"
 * and is filled in.
 */
enum store_status
store_game_add(struct store *st, struct store_game *g)
{
	enum store_status	 status;
	int			 i, own;

	if (g->nseats < 1 || g->nseats > STORE_MAX_SEATS) {
		sq_err(st, "game add: %d seats; a game has 1 to %d",
		    g->nseats, STORE_MAX_SEATS);
		return STORE_ERROR;
	}
	if (g->created == 0)
		g->created = sq_now();
	if ((status = sq_op_begin(st, &own)) != STORE_OK)
		return status;
	status = game_insert(st, g);
	for (i = 0; i < g->nseats && status == STORE_OK; i++)
		status = seat_insert(st, g->id, i, g->seat_player[i]);
	return sq_op_end(st, own, status);
}

static enum store_status
read_game(struct store *st, sqlite3_stmt *s, struct store_game *g)
{
	enum store_status	 status;

	memset(g, 0, sizeof(*g));
	g->id = sqlite3_column_int64(s, 0);
	g->ruleset_version = sqlite3_column_int(s, 2);
	g->nseats = sqlite3_column_int(s, 4);
	g->status = sqlite3_column_int(s, 7);
	g->created = sqlite3_column_int64(s, 8);
	/* nseats bounds the seat_player[] index below. */
	if (g->nseats < 1 || g->nseats > STORE_MAX_SEATS)
		return sq_corrupt(st, s, 4, "games", "is out of range");
	if ((status = sq_col_text(st, s, 1, "games", g->ruleset,
	    sizeof(g->ruleset))) != STORE_OK ||
	    (status = sq_col_blob(st, s, 5, "games", g->seed,
	    sizeof(g->seed))) != STORE_OK ||
	    (status = sq_col_blob(st, s, 6, "games", g->commitment,
	    sizeof(g->commitment))) != STORE_OK ||
	    (status = sq_col_dup(st, s, 3, "games", &g->options)) != STORE_OK)
		return status;
	/* NULL: a game without cards ("" in the struct). */
	if (sqlite3_column_type(s, 9) != SQLITE_NULL &&
	    ((status = sq_col_text(st, s, 9, "games", g->cards_hash,
	    sizeof(g->cards_hash))) != STORE_OK ||
	    strlen(g->cards_hash) != STORE_CARDS_HASH_HEX))
		return status != STORE_OK ? status : sq_corrupt(st, s, 9,
		    "games", "is not a card file hash");
	return STORE_OK;
}

/* Fill g->seat_player[] and g->seat_status[] from the seats table. */
static enum store_status
read_seats(struct store *st, struct store_game *g)
{
	enum store_status	 status;
	sqlite3_stmt		*s;
	int64_t			 seat;

	if ((s = sq_stmt(st, ST_SEATS_GET)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, g->id);
	while ((status = sq_step(st, s, "game seats")) == STORE_OK) {
		seat = sqlite3_column_int64(s, 0);
		if (seat < 0 || seat >= g->nseats) {
			status = sq_corrupt(st, s, 0, "seats",
			    "is not a seat of this game");
			break;
		}
		if ((status = sq_col_id(st, s, 1, "seats",
		    &g->seat_player[seat])) != STORE_OK)
			break;
		g->seat_status[seat] = sqlite3_column_int(s, 2);
		if (g->seat_status[seat] < STORE_SEAT_PLAYING ||
		    g->seat_status[seat] > STORE_SEAT_BOT) {
			status = sq_corrupt(st, s, 2, "seats", "is not a seat "
			    "status");
			break;
		}
	}
	sq_finish(s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

static enum store_status
read_game_full(struct store *st, sqlite3_stmt *s, struct store_game *g)
{
	enum store_status	 status;

	if ((status = read_game(st, s, g)) == STORE_OK)
		status = read_seats(st, g);
	if (status != STORE_OK)
		store_game_clear(g);
	return status;
}

enum store_status
store_game_get(struct store *st, int64_t id, struct store_game *g)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	memset(g, 0, sizeof(*g));
	if ((s = sq_stmt(st, ST_GAME_GET)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	if ((status = sq_step(st, s, "game get")) == STORE_OK)
		status = read_game_full(st, s, g);
	else if (status == STORE_NOTFOUND)
		sq_err(st, "no game %lld", (long long)id);
	sq_finish(s);
	return status;
}

void
store_game_clear(struct store_game *g)
{
	free(g->options);
	memset(g, 0, sizeof(*g));
}

enum store_status
store_game_set_status(struct store *st, int64_t id, int status)
{
	sqlite3_stmt	*s;
	char		 msg[64];

	if ((s = sq_stmt(st, ST_GAME_STATUS)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	sq_bind_int64(st, s, 2, status);
	snprintf(msg, sizeof(msg), "no game %lld", (long long)id);
	return sq_update_one(st, s, "game status", msg);
}

/* player_id 0 opens the seat. */
enum store_status
store_game_set_seat(struct store *st, int64_t id, int seat,
    int64_t player_id)
{
	enum store_status status;
	sqlite3_stmt	*s;
	char		 msg[96];

	if ((s = sq_stmt(st, ST_SEAT_SET)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	sq_bind_int64(st, s, 2, seat);
	sq_bind_id(st, s, 3, player_id);
	snprintf(msg, sizeof(msg), "game %lld has no seat %d", (long long)id,
	    seat);
	if ((status = sq_update_one(st, s, "game set seat", msg)) == STORE_OK)
		sq_seats_changed(st);
	return status;
}

/* Call cb for each game row s steps to (bound already), then reset s. */
static enum store_status
games_walk(struct store *st, sqlite3_stmt *s, const char *what,
    store_game_cb cb, void *arg)
{
	enum store_status	 status;
	struct store_game	 g;
	int			 stop;

	while ((status = sq_step(st, s, what)) == STORE_OK) {
		if ((status = read_game_full(st, s, &g)) != STORE_OK)
			break;
		stop = cb(&g, arg);
		store_game_clear(&g);
		if (stop)
			break;
	}
	sq_finish(s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_game_foreach(struct store *st, store_game_cb cb, void *arg)
{
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_GAME_ALL)) == NULL)
		return STORE_ERROR;
	return games_walk(st, s, "game foreach", cb, arg);
}

enum store_status
store_game_page(struct store *st, const struct store_game_query *q,
    store_game_cb cb, void *arg)
{
	sqlite3_stmt		*s;
	int			 id;

	id = q->player > 0 ? ST_GAME_PAGE_PLAYER : q->status >= 0 ?
	    ST_GAME_PAGE_STATUS : ST_GAME_PAGE;
	if ((s = sq_stmt(st, id)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, q->after);
	sq_bind_int64(st, s, 2, q->limit);
	if (q->ruleset != NULL)
		sq_bind_text(st, s, 3, q->ruleset);
	else
		sq_bind_check(st, sqlite3_bind_null(s, 3));
	if (id != ST_GAME_PAGE)
		sq_bind_int64(st, s, 4, q->status);
	if (id == ST_GAME_PAGE_PLAYER)
		sq_bind_int64(st, s, 5, q->player);
	return games_walk(st, s, "game page", cb, arg);
}

enum store_status
store_game_forming_count(struct store *st, int64_t player_id, int64_t *count)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*count = 0;
	if ((s = sq_stmt(st, ST_GAME_FORMING_COUNT)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, player_id);
	if ((status = sq_step(st, s, "game forming count")) == STORE_OK)
		*count = sqlite3_column_int64(s, 0);
	sq_finish(s);
	return status;
}
