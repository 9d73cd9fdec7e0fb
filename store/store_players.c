/*
 * store_players.c -- players and their keys (tables players and
 * player_keys): store.h's store_player_* calls.
 *
 * A player's keys are all kept: setting a new one revokes the active one,
 * so that old signatures stay checkable, and a player is read with the
 * one active key.
 */
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

#define PLAYER_SELECT							\
	"SELECT p.id, p.name, p.email, p.lang, k.pubkey, p.email_pending, "	\
	"p.tz, p.bot "	\
	"FROM players p "	\
	"LEFT JOIN player_keys k ON k.player_id = p.id AND k.revoked IS NULL"

const char *const sq_players_sql[ST_COUNT] = {
	[ST_PLAYER_ADD] = "INSERT INTO players (name, email, lang, created, "
	    "email_pending) VALUES (?1, ?2, ?3, ?4, ?5)",
	[ST_PLAYER_EXISTS] = "SELECT id FROM players WHERE id = ?1",
	[ST_PLAYER_GET] = PLAYER_SELECT " WHERE p.id = ?1",
	[ST_PLAYER_FIND] = PLAYER_SELECT " WHERE p.name = ?1",
	[ST_PLAYER_ALL] = PLAYER_SELECT " ORDER BY p.id",
	/* Through the index players_name_folded (migration 6). */
	[ST_PLAYER_FOLDED] = PLAYER_SELECT " WHERE lower(p.name) = lower(?1)",
	/* Through players_email; the oldest registration of the address. */
	[ST_PLAYER_EMAIL] = PLAYER_SELECT " WHERE p.email = ?1 COLLATE NOCASE "
	    "AND ?1 <> '' ORDER BY p.id LIMIT 1",
	[ST_PLAYER_SET_BOT] = "UPDATE players SET bot = ?2 WHERE id = ?1",
	[ST_KEY_ADD] = "INSERT INTO player_keys (player_id, pubkey, created) "
	    "VALUES (?1, ?2, ?3)",
	[ST_KEY_REVOKE] = "UPDATE player_keys SET revoked = ?2 "
	    "WHERE player_id = ?1 AND revoked IS NULL",
};

static enum store_status
read_player(struct store *st, sqlite3_stmt *s, struct store_player *p)
{
	enum store_status	 status;

	memset(p, 0, sizeof(*p));
	p->id = sqlite3_column_int64(s, 0);
	if ((status = sq_col_text(st, s, 1, "players", p->name,
	    sizeof(p->name))) != STORE_OK ||
	    (status = sq_col_text(st, s, 2, "players", p->email,
	    sizeof(p->email))) != STORE_OK ||
	    (status = sq_col_text(st, s, 3, "players", p->lang,
	    sizeof(p->lang))) != STORE_OK ||
	    (status = sq_col_blob(st, s, 4, "players", p->pubkey,
	    sizeof(p->pubkey))) != STORE_OK)
		return status;
	p->email_pending = sqlite3_column_int(s, 5) != 0;
	if (sqlite3_column_type(s, 7) != SQLITE_NULL &&
	    (status = sq_col_text(st, s, 7, "players", p->bot,
	    sizeof(p->bot))) != STORE_OK)
		return status;
	return sq_col_text(st, s, 6, "players", p->tz, sizeof(p->tz));
}

static enum store_status
key_insert(struct store *st, int64_t player_id,
    const unsigned char pubkey[STORE_KEY_BYTES])
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_KEY_ADD)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, player_id);
	sq_bind_blob(st, s, 2, pubkey, STORE_KEY_BYTES);
	sq_bind_int64(st, s, 3, sq_now());
	return sq_run(st, s, "player key");
}

static enum store_status
player_insert(struct store *st, struct store_player *p)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_PLAYER_ADD)) == NULL)
		return STORE_ERROR;
	sq_bind_field(st, s, 1, p->name, sizeof(p->name));
	sq_bind_field(st, s, 2, p->email, sizeof(p->email));
	/* A player who has not chosen gets English. */
	if (p->lang[0] == '\0')
		sq_bind_text(st, s, 3, "en");
	else
		sq_bind_field(st, s, 3, p->lang, sizeof(p->lang));
	sq_bind_int64(st, s, 4, sq_now());
	sq_bind_int64(st, s, 5, p->email_pending ? 1 : 0);
	if ((status = sq_run(st, s, "player add")) == STORE_OK)
		p->id = sq_last_id(st);
	return status;
}

enum store_status
store_player_add(struct store *st, struct store_player *p)
{
	enum store_status	 status;
	int			 own;

	if ((status = sq_op_begin(st, &own)) != STORE_OK)
		return status;
	if ((status = player_insert(st, p)) == STORE_OK)
		status = key_insert(st, p->id, p->pubkey);
	return sq_op_end(st, own, status);
}

static enum store_status
player_read_one(struct store *st, sqlite3_stmt *s, struct store_player *p,
    const char *what)
{
	enum store_status	 status;

	if ((status = sq_step(st, s, what)) == STORE_OK)
		status = read_player(st, s, p);
	sq_finish(s);
	return status;
}

enum store_status
store_player_get(struct store *st, int64_t id, struct store_player *p)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_PLAYER_GET)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	status = player_read_one(st, s, p, "player get");
	if (status == STORE_NOTFOUND)
		sq_err(st, "no player %lld", (long long)id);
	return status;
}

enum store_status
store_player_find(struct store *st, const char *name, struct store_player *p)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_PLAYER_FIND)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, name);
	status = player_read_one(st, s, p, "player find");
	if (status == STORE_NOTFOUND)
		sq_err(st, "no player named \"%s\"", name ? name : "(null)");
	return status;
}

enum store_status
store_player_find_folded(struct store *st, const char *name,
    struct store_player *p)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_PLAYER_FOLDED)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, name);
	status = player_read_one(st, s, p, "player find folded");
	if (status == STORE_NOTFOUND)
		sq_err(st, "no player named \"%s\" in any case",
		    name ? name : "(null)");
	return status;
}

enum store_status
store_player_find_email(struct store *st, const char *email,
    struct store_player *p)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_PLAYER_EMAIL)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, email);
	status = player_read_one(st, s, p, "player find email");
	if (status == STORE_NOTFOUND)
		sq_err(st, "no player with the address \"%s\"",
		    email ? email : "(null)");
	return status;
}

static enum store_status
player_exists(struct store *st, int64_t id)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_PLAYER_EXISTS)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	status = sq_step(st, s, "player key");
	sq_finish(s);
	if (status == STORE_NOTFOUND)
		sq_err(st, "no player %lld", (long long)id);
	return status;
}

/* The old key is kept, marked revoked, so old signatures stay checkable. */
enum store_status
store_player_set_key(struct store *st, int64_t id,
    const unsigned char pubkey[STORE_KEY_BYTES])
{
	enum store_status	 status;
	sqlite3_stmt		*s;
	int			 own;

	if ((status = sq_op_begin(st, &own)) != STORE_OK)
		return status;
	if ((status = player_exists(st, id)) == STORE_OK) {
		if ((s = sq_stmt(st, ST_KEY_REVOKE)) == NULL)
			status = STORE_ERROR;
		else {
			sq_bind_int64(st, s, 1, id);
			sq_bind_int64(st, s, 2, sq_now());
			status = sq_run(st, s, "revoke key");
		}
	}
	if (status == STORE_OK)
		status = key_insert(st, id, pubkey);
	if (status == STORE_OK)
		sq_seats_changed(st);
	return sq_op_end(st, own, status);
}

enum store_status
store_player_foreach(struct store *st, store_player_cb cb, void *arg)
{
	enum store_status	 status;
	struct store_player	 p;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_PLAYER_ALL)) == NULL)
		return STORE_ERROR;
	while ((status = sq_step(st, s, "player foreach")) == STORE_OK) {
		if ((status = read_player(st, s, &p)) != STORE_OK)
			break;
		if (cb(&p, arg) != 0)
			break;
	}
	sq_finish(s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

/* Set one text column of player id's row (sql binds ?1 the id, ?2 the
 * value); STORE_NOTFOUND when there is no such player. */
static enum store_status
player_set_text(struct store *st, int64_t id, const char *sql,
    const char *value, const char *what)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = store_sqlite_prepare(st, sql, what)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, value, -1, SQLITE_TRANSIENT);
	status = store_sqlite_step(st, s, what);
	store_sqlite_done(st, s);
	if (status == STORE_NOTFOUND && sqlite3_changes(
	    store_sqlite_db(st)) == 1)
		status = STORE_OK;	/* done: no row to read, one changed */
	return status;
}

enum store_status
store_player_set_tz(struct store *st, int64_t id, const char *tz)
{
	return player_set_text(st, id, "UPDATE players SET tz = ?2 WHERE "
	    "id = ?1", tz, "player time zone");
}

enum store_status
store_player_set_lang(struct store *st, int64_t id, const char *lang)
{
	enum store_status status;

	status = player_set_text(st, id, "UPDATE players SET lang = ?2 WHERE "
	    "id = ?1", lang, "player language");
	if (status == STORE_OK)
		sq_seats_changed(st);	/* the seat caches' languages */
	return status;
}

enum store_status
store_player_set_bot(struct store *st, int64_t id, const char *level)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_PLAYER_SET_BOT)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	sq_bind_text(st, s, 2, level);
	return sq_run(st, s, "player bot");
}
