/*
 * store_web.c -- the web page's sessions (migration 10; docs/STORE.md,
 * docs/WEB.md).
 *
 * A session binds the hash of a random token, which only the player's
 * browser holds (a cookie), to one player, game and seat until it
 * expires.  The token itself is never stored: a copy of the database
 * cannot sign anyone in.  Statements are kept by address
 * (store_sqlite_prepare()), as in store_hosted.c.
 */
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

enum store_status
store_web_session_add(struct store *st, const struct store_web_session *ws)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "INSERT INTO web_sessions "
	    "(token_hash, player_id, game_id, seat, created, expires) VALUES "
	    "(?1, ?2, ?3, ?4, ?5, ?6)", "web session add")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, ws->hash, STORE_HASH_BYTES, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, ws->player_id);
	sqlite3_bind_int64(s, 3, ws->game_id);
	sqlite3_bind_int(s, 4, ws->seat);
	sqlite3_bind_int64(s, 5, ws->created);
	sqlite3_bind_int64(s, 6, ws->expires);
	status = store_sqlite_step(st, s, "web session add");
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_web_session_get(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], struct store_web_session *ws)
{
	enum store_status status;
	sqlite3_stmt *s;

	memset(ws, 0, sizeof(*ws));
	if ((s = store_sqlite_prepare(st, "SELECT player_id, game_id, seat, "
	    "created, expires FROM web_sessions WHERE token_hash = ?1",
	    "web session get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, hash, STORE_HASH_BYTES, SQLITE_TRANSIENT);
	if ((status = store_sqlite_step(st, s, "web session get")) ==
	    STORE_OK) {
		memcpy(ws->hash, hash, STORE_HASH_BYTES);
		ws->player_id = sqlite3_column_int64(s, 0);
		ws->game_id = sqlite3_column_int64(s, 1);
		ws->seat = sqlite3_column_int(s, 2);
		ws->created = sqlite3_column_int64(s, 3);
		ws->expires = sqlite3_column_int64(s, 4);
	}
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_web_session_prune(struct store *st, int64_t before)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "DELETE FROM web_sessions WHERE "
	    "expires <= ?1", "web session prune")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, before);
	status = store_sqlite_step(st, s, "web session prune");
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}
