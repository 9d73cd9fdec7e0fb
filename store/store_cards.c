/*
 * store_cards.c -- card files (migration 15; docs/STORE.md,
 * docs/CARDFILES.md): store.h's store_card_file_* calls.
 *
 * A card file's bytes are kept once, keyed by the hex SHA-256 of the
 * bytes (computed by the core: the store does not hash), with the game
 * they are for and their size.  A row is never changed or deleted while
 * a game names it.  Statements are kept by address
 * (store_sqlite_prepare()), as in store_web.c.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

enum store_status
store_card_file_put(struct store *st, const char *hash, const char *game,
    const char *bytes, size_t len)
{
	enum store_status status;
	sqlite3_stmt *s;

	if (len < 1 || len > STORE_CARDS_MAX) {
		sq_err(st, "card file add: %zu bytes; a card file has 1 to %d",
		    len, STORE_CARDS_MAX);
		return STORE_ERROR;
	}
	/* ON CONFLICT, not OR IGNORE: that would also pass over a row the
	 * CHECK constraints refuse. */
	if ((s = store_sqlite_prepare(st, "INSERT INTO card_files "
	    "(hash, game, size, bytes, created) VALUES (?1, ?2, ?3, ?4, ?5) "
	    "ON CONFLICT (hash) DO NOTHING", "card file add")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, hash, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, game, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)len);
	sqlite3_bind_blob(s, 4, bytes, (int)len, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 5, sq_now());
	status = store_sqlite_step(st, s, "card file add");
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_card_file_get(struct store *st, const char *hash,
    char game[STORE_RULESET_MAX], char **bytes, size_t *len)
{
	enum store_status status;
	const unsigned char *name;
	const void *blob;
	sqlite3_stmt *s;
	int n;

	*bytes = NULL;
	*len = 0;
	if ((s = store_sqlite_prepare(st, "SELECT game, bytes FROM card_files "
	    "WHERE hash = ?1", "card file get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, hash, -1, SQLITE_TRANSIENT);
	status = store_sqlite_step(st, s, "card file get");
	if (status == STORE_OK) {
		name = sqlite3_column_text(s, 0);
		blob = sqlite3_column_blob(s, 1);
		n = sqlite3_column_bytes(s, 1);
		if (name == NULL || strlen((const char *)name) >=
		    STORE_RULESET_MAX || blob == NULL || n < 1 ||
		    n > STORE_CARDS_MAX) {
			store_sqlite_corrupt(st, "card_files", "a row is not "
			    "a game name and 1 to 4 MiB of bytes");
			status = STORE_ERROR;
		} else if ((*bytes = malloc((size_t)n + 1)) == NULL) {
			status = sq_nomem(st);
		} else {
			memcpy(*bytes, blob, (size_t)n);
			(*bytes)[n] = '\0';
			*len = (size_t)n;
			strcpy(game, (const char *)name);
		}
	}
	store_sqlite_done(st, s);
	return status;
}
