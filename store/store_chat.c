/*
 * store_chat.c -- chat identities: the codes bots ask for and the
 * confirmed (network, nick) -> player links (migration 18; store.h,
 * docs/API.md "Chat identities").  Statements are kept by address
 * (store_sqlite_prepare()), as in store_web.c.
 */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

enum store_status
store_chat_code_add(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], int64_t bot_id,
    const char *network, const char *nick, int64_t expires)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "INSERT INTO chat_codes (code_hash, "
	    "bot_id, network, nick, expires) VALUES (?1, ?2, ?3, ?4, ?5)",
	    "chat code add")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, hash, STORE_HASH_BYTES, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, bot_id);
	sqlite3_bind_text(s, 3, network, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 4, nick, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 5, expires);
	status = store_sqlite_step(st, s, "chat code add");
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_chat_code_prune(struct store *st, int64_t bot_id, int64_t now,
    int64_t *pending)
{
	enum store_status status;
	sqlite3_stmt *s;

	*pending = 0;
	if ((s = store_sqlite_prepare(st, "DELETE FROM chat_codes WHERE "
	    "expires <= ?1", "chat code prune")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, now);
	status = store_sqlite_step(st, s, "chat code prune");
	store_sqlite_done(st, s);
	if (status != STORE_OK && status != STORE_NOTFOUND)
		return status;
	if ((s = store_sqlite_prepare(st, "SELECT count(*) FROM chat_codes "
	    "WHERE bot_id = ?1", "chat code count")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, bot_id);
	if ((status = store_sqlite_step(st, s, "chat code count")) == STORE_OK)
		*pending = sqlite3_column_int64(s, 0);
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_chat_code_take(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], int64_t now, char *network,
    char *nick)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "SELECT network, nick FROM "
	    "chat_codes WHERE code_hash = ?1 AND expires > ?2",
	    "chat code get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, hash, STORE_HASH_BYTES, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, now);
	if ((status = store_sqlite_step(st, s, "chat code get")) == STORE_OK) {
		snprintf(network, 64, "%s", sqlite3_column_text(s, 0));
		snprintf(nick, 64, "%s", sqlite3_column_text(s, 1));
	}
	store_sqlite_done(st, s);
	if (status != STORE_OK)
		return status;
	if ((s = store_sqlite_prepare(st, "DELETE FROM chat_codes WHERE "
	    "code_hash = ?1", "chat code take")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, hash, STORE_HASH_BYTES, SQLITE_TRANSIENT);
	status = store_sqlite_step(st, s, "chat code take");
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_chat_link_set(struct store *st, const char *network, const char *nick,
    int64_t player_id, int64_t now)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "INSERT OR REPLACE INTO chat_links "
	    "(network, nick, player_id, linked) VALUES (?1, ?2, ?3, ?4)",
	    "chat link set")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, network, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, nick, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 3, player_id);
	sqlite3_bind_int64(s, 4, now);
	status = store_sqlite_step(st, s, "chat link set");
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_chat_link_get(struct store *st, const char *network, const char *nick,
    int64_t *player_id)
{
	enum store_status status;
	sqlite3_stmt *s;

	*player_id = 0;
	if ((s = store_sqlite_prepare(st, "SELECT player_id FROM chat_links "
	    "WHERE network = ?1 AND nick = ?2", "chat link get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, network, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, nick, -1, SQLITE_TRANSIENT);
	if ((status = store_sqlite_step(st, s, "chat link get")) == STORE_OK)
		*player_id = sqlite3_column_int64(s, 0);
	store_sqlite_done(st, s);
	return status;
}
