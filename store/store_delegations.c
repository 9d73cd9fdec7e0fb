/*
 * store_delegations.c -- delegation certificates and the games whose log
 * records them (migration 18; store.h, docs/STORE.md).  Statements are
 * kept by address (store_sqlite_prepare()), as in store_web.c.
 */
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

enum store_status
store_delegation_add(struct store *st, const struct store_delegation *dl)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "INSERT INTO delegations (id, "
	    "player_id, bot_key, game_id, scope, issued, expires, signature, "
	    "revoked) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	    "delegation add")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, dl->id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, dl->player_id);
	sqlite3_bind_blob(s, 3, dl->bot_key, STORE_KEY_BYTES, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 4, dl->game_id);
	sqlite3_bind_int(s, 5, dl->scope);
	sqlite3_bind_int64(s, 6, dl->issued);
	sqlite3_bind_int64(s, 7, dl->expires);
	sqlite3_bind_blob(s, 8, dl->signature, STORE_SIG_BYTES,
	    SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 9, dl->revoked);
	status = store_sqlite_step(st, s, "delegation add");
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

#define DELEGATION_COLUMNS "id, player_id, bot_key, game_id, scope, " \
	"issued, expires, signature, revoked"

/* One row of DELEGATION_COLUMNS into dl. */
static void
read_row(sqlite3_stmt *s, struct store_delegation *dl)
{
	const unsigned char *id = sqlite3_column_text(s, 0);

	memset(dl, 0, sizeof(*dl));
	if (id != NULL)
		strncpy(dl->id, (const char *)id, sizeof(dl->id) - 1);
	dl->player_id = sqlite3_column_int64(s, 1);
	if (sqlite3_column_bytes(s, 2) == STORE_KEY_BYTES)
		memcpy(dl->bot_key, sqlite3_column_blob(s, 2),
		    STORE_KEY_BYTES);
	dl->game_id = sqlite3_column_int64(s, 3);
	dl->scope = sqlite3_column_int(s, 4);
	dl->issued = sqlite3_column_int64(s, 5);
	dl->expires = sqlite3_column_int64(s, 6);
	if (sqlite3_column_bytes(s, 7) == STORE_SIG_BYTES)
		memcpy(dl->signature, sqlite3_column_blob(s, 7),
		    STORE_SIG_BYTES);
	dl->revoked = sqlite3_column_int64(s, 8);
}

enum store_status
store_delegation_get(struct store *st, const char *id,
    struct store_delegation *dl)
{
	enum store_status status;
	sqlite3_stmt *s;

	memset(dl, 0, sizeof(*dl));
	if ((s = store_sqlite_prepare(st, "SELECT " DELEGATION_COLUMNS
	    " FROM delegations WHERE id = ?1", "delegation get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	if ((status = store_sqlite_step(st, s, "delegation get")) == STORE_OK)
		read_row(s, dl);
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_delegation_active(struct store *st, int64_t player_id, int64_t now,
    struct store_delegation *out, size_t max, size_t *n)
{
	enum store_status status = STORE_OK;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE;

	*n = 0;
	if ((s = store_sqlite_prepare(st, "SELECT " DELEGATION_COLUMNS
	    " FROM delegations WHERE player_id = ?1 AND revoked = 0 AND "
	    "expires > ?2 ORDER BY issued, id", "delegation active")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, player_id);
	sqlite3_bind_int64(s, 2, now);
	while (*n < max && (rc = sqlite3_step(s)) == SQLITE_ROW)
		read_row(s, &out[(*n)++]);
	if (*n < max && rc != SQLITE_DONE)
		status = store_sqlite_step(st, s, "delegation active");
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_delegation_revoke(struct store *st, const char *id, int64_t now)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "UPDATE delegations SET revoked = "
	    "?2 WHERE id = ?1 AND revoked = 0", "delegation revoke")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, now);
	status = store_sqlite_step(st, s, "delegation revoke");
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_delegation_game_add(struct store *st, const char *id, int64_t game_id)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "INSERT INTO delegation_games "
	    "(delegation_id, game_id) VALUES (?1, ?2)",
	    "delegation game add")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, game_id);
	status = store_sqlite_step(st, s, "delegation game add");
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_delegation_game_has(struct store *st, const char *id, int64_t game_id)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "SELECT 1 FROM delegation_games "
	    "WHERE delegation_id = ?1 AND game_id = ?2",
	    "delegation game has")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, game_id);
	status = store_sqlite_step(st, s, "delegation game has");
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_delegation_games(struct store *st, const char *id, int64_t *games,
    size_t max, size_t *n)
{
	enum store_status status = STORE_OK;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE;

	*n = 0;
	if ((s = store_sqlite_prepare(st, "SELECT game_id FROM "
	    "delegation_games WHERE delegation_id = ?1 ORDER BY game_id",
	    "delegation games")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	while (*n < max && (rc = sqlite3_step(s)) == SQLITE_ROW)
		games[(*n)++] = sqlite3_column_int64(s, 0);
	if (*n < max && rc != SQLITE_DONE)
		status = store_sqlite_step(st, s, "delegation games");
	store_sqlite_done(st, s);
	return status;
}
