/*
 * store_hosted.c -- playing by plain replies (migration 9; docs/STORE.md,
 * docs/PLAYING.md): hosted keys (sealed bytes only), the confirmation of
 * players' addresses, reply and play tokens, and sign-ups.
 *
 * Statements are kept by address (store_sqlite_prepare()), as in
 * store_async.c.  Tokens and codes are stored as their BLAKE2b hashes
 * only: a copy of the database cannot play a move or confirm an address.
 */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

static enum store_status
run_once(struct store *st, sqlite3_stmt *s, const char *what)
{
	enum store_status status = store_sqlite_step(st, s, what);

	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

static int
changes(struct store *st)
{
	return sqlite3_changes(store_sqlite_db(st));
}

/* ---- Hosted keys -------------------------------------------------------- */

enum store_status
store_hosted_key_put(struct store *st, int64_t player_id,
    const unsigned char pubkey[STORE_KEY_BYTES],
    const unsigned char nonce[STORE_HOSTED_NONCE],
    const unsigned char sealed[STORE_HOSTED_SEALED])
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "INSERT INTO hosted_keys "
	    "(player_id, pubkey, nonce, sealed, created) VALUES (?1, ?2, ?3, "
	    "?4, ?5)", "hosted key put")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, player_id);
	sqlite3_bind_blob(s, 2, pubkey, STORE_KEY_BYTES, SQLITE_TRANSIENT);
	sqlite3_bind_blob(s, 3, nonce, STORE_HOSTED_NONCE, SQLITE_TRANSIENT);
	sqlite3_bind_blob(s, 4, sealed, STORE_HOSTED_SEALED, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 5, sq_now());
	return run_once(st, s, "hosted key put");
}

enum store_status
store_hosted_key_get(struct store *st, int64_t player_id,
    unsigned char pubkey[STORE_KEY_BYTES],
    unsigned char nonce[STORE_HOSTED_NONCE],
    unsigned char sealed[STORE_HOSTED_SEALED])
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "SELECT pubkey, nonce, sealed FROM "
	    "hosted_keys WHERE player_id = ?1", "hosted key get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, player_id);
	if ((status = store_sqlite_step(st, s, "hosted key get")) ==
	    STORE_OK &&
	    (status = sq_col_blob(st, s, 0, "hosted_keys", pubkey,
	    STORE_KEY_BYTES)) == STORE_OK &&
	    (status = sq_col_blob(st, s, 1, "hosted_keys", nonce,
	    STORE_HOSTED_NONCE)) == STORE_OK)
		status = sq_col_blob(st, s, 2, "hosted_keys", sealed,
		    STORE_HOSTED_SEALED);
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_hosted_key_delete(struct store *st, int64_t player_id)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "DELETE FROM hosted_keys WHERE "
	    "player_id = ?1", "hosted key delete")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, player_id);
	return run_once(st, s, "hosted key delete");
}

/* ---- Addresses ---------------------------------------------------------- */

enum store_status
store_player_confirm_email(struct store *st, int64_t player_id)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "UPDATE players SET email_pending "
	    "= 0 WHERE id = ?1", "confirm address")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, player_id);
	status = run_once(st, s, "confirm address");
	if (status == STORE_OK && changes(st) != 1)
		return store_sqlite_missing(st, "confirm address");
	return status;
}

enum store_status
store_email_pending(struct store *st, const char *email, int *pending)
{
	enum store_status status;
	sqlite3_stmt *s;

	*pending = 0;
	if ((s = store_sqlite_prepare(st, "SELECT count(*), "
	    "coalesce(min(email_pending), 0) FROM players WHERE email = ?1 "
	    "COLLATE NOCASE", "address pending")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, email, -1, SQLITE_TRANSIENT);
	if ((status = store_sqlite_step(st, s, "address pending")) ==
	    STORE_OK)
		*pending = sqlite3_column_int64(s, 0) > 0 &&
		    sqlite3_column_int(s, 1) != 0;
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_player_by_email(struct store *st, const char *email,
    struct store_player *p)
{
	enum store_status status;
	sqlite3_stmt *s;
	int64_t id = 0;

	if ((s = store_sqlite_prepare(st, "SELECT id FROM players WHERE "
	    "email = ?1 COLLATE NOCASE ORDER BY email_pending, id LIMIT 1",
	    "player by address")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(s, 1, email, -1, SQLITE_TRANSIENT);
	if ((status = store_sqlite_step(st, s, "player by address")) ==
	    STORE_OK)
		id = sqlite3_column_int64(s, 0);
	store_sqlite_done(st, s);
	if (status != STORE_OK)
		return status;
	return store_player_get(st, id, p);
}

/* ---- Tokens ------------------------------------------------------------- */

/* Insert t: ?1 hash, ?2 game, ?3 seat, ?4 player, ?5 `fifth' (the seq of
 * a reply token, the expiry of a play token), ?6 (if the SQL has it) now. */
static enum store_status
token_add(struct store *st, const char *sql, const char *what,
    const struct store_token *t, int64_t fifth)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, sql, what)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, t->hash, STORE_HASH_BYTES, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, t->game_id);
	sqlite3_bind_int(s, 3, t->seat);
	sqlite3_bind_int64(s, 4, t->player_id);
	sqlite3_bind_int64(s, 5, fifth);
	if (sqlite3_bind_parameter_count(s) >= 6)
		sqlite3_bind_int64(s, 6, sq_now());
	return run_once(st, s, what);
}

enum store_status
store_reply_token_add(struct store *st, const struct store_token *t)
{
	return token_add(st, "INSERT OR IGNORE INTO reply_tokens (token_hash, "
	    "game_id, seat, player_id, seq, created) VALUES (?1, ?2, ?3, ?4, "
	    "?5, ?6)", "reply token add", t, t->seq);
}

static enum store_status
token_get(struct store *st, const char *sql, const char *what,
    const unsigned char hash[STORE_HASH_BYTES], struct store_token *t)
{
	enum store_status status;
	sqlite3_stmt *s;

	memset(t, 0, sizeof(*t));
	if ((s = store_sqlite_prepare(st, sql, what)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, hash, STORE_HASH_BYTES, SQLITE_TRANSIENT);
	if ((status = store_sqlite_step(st, s, what)) == STORE_OK) {
		memcpy(t->hash, hash, STORE_HASH_BYTES);
		t->game_id = sqlite3_column_int64(s, 0);
		t->seat = sqlite3_column_int(s, 1);
		t->seq = sqlite3_column_int64(s, 2);
		t->player_id = sqlite3_column_int64(s, 3);
		t->expires = sqlite3_column_int64(s, 4);
		t->used = sqlite3_column_int64(s, 5);
	}
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_reply_token_get(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], struct store_token *t)
{
	return token_get(st, "SELECT game_id, seat, seq, player_id, 0, "
	    "coalesce(used, 0) FROM reply_tokens WHERE token_hash = ?1",
	    "reply token get", hash, t);
}

/* UPDATE ... WHERE used IS NULL: exactly one caller wins. */
static enum store_status
token_use(struct store *st, const char *sql, const char *what,
    const unsigned char hash[STORE_HASH_BYTES], int64_t when)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, sql, what)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, hash, STORE_HASH_BYTES, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, when);
	status = run_once(st, s, what);
	if (status == STORE_OK && changes(st) != 1) {
		sq_err(st, "%s: the token is unknown, expired or used", what);
		return STORE_EXISTS;
	}
	return status;
}

enum store_status
store_reply_token_use(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], int64_t when)
{
	return token_use(st, "UPDATE reply_tokens SET used = ?2 WHERE "
	    "token_hash = ?1 AND used IS NULL", "reply token use", hash, when);
}

enum store_status
store_play_token_add(struct store *st, const struct store_token *t)
{
	return token_add(st, "INSERT INTO play_tokens (token_hash, game_id, "
	    "seat, player_id, expires) VALUES (?1, ?2, ?3, ?4, ?5)",
	    "play token add", t, t->expires);
}

enum store_status
store_play_token_get(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], struct store_token *t)
{
	return token_get(st, "SELECT game_id, seat, 0, player_id, expires, "
	    "coalesce(used, 0) FROM play_tokens WHERE token_hash = ?1",
	    "play token get", hash, t);
}

enum store_status
store_play_token_use(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], int64_t when)
{
	return token_use(st, "UPDATE play_tokens SET used = ?2 WHERE "
	    "token_hash = ?1 AND used IS NULL AND expires > ?2",
	    "play token use", hash, when);
}

/* ---- Sign-ups ----------------------------------------------------------- */

enum store_status
store_signup_add(struct store *st, const struct store_signup *su)
{
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "INSERT INTO signups (code_hash, "
	    "email, name, lang, player_id, created, expires) VALUES (?1, ?2, "
	    "?3, ?4, ?5, ?6, ?7)", "sign-up add")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, su->code_hash, STORE_HASH_BYTES,
	    SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, su->email, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, su->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 4, su->lang, -1, SQLITE_TRANSIENT);
	if (su->player_id > 0)
		sqlite3_bind_int64(s, 5, su->player_id);
	else
		sqlite3_bind_null(s, 5);
	sqlite3_bind_int64(s, 6, su->created);
	sqlite3_bind_int64(s, 7, su->expires);
	return run_once(st, s, "sign-up add");
}

enum store_status
store_signup_get(struct store *st,
    const unsigned char code_hash[STORE_HASH_BYTES], struct store_signup *su)
{
	enum store_status status;
	sqlite3_stmt *s;

	memset(su, 0, sizeof(*su));
	if ((s = store_sqlite_prepare(st, "SELECT email, name, lang, "
	    "coalesce(player_id, 0), created, expires, coalesce(confirmed, 0) "
	    "FROM signups WHERE code_hash = ?1", "sign-up get")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, code_hash, STORE_HASH_BYTES, SQLITE_TRANSIENT);
	if ((status = store_sqlite_step(st, s, "sign-up get")) == STORE_OK &&
	    (status = sq_col_text(st, s, 0, "signups", su->email,
	    sizeof(su->email))) == STORE_OK &&
	    (status = sq_col_text(st, s, 1, "signups", su->name,
	    sizeof(su->name))) == STORE_OK &&
	    (status = sq_col_text(st, s, 2, "signups", su->lang,
	    sizeof(su->lang))) == STORE_OK) {
		memcpy(su->code_hash, code_hash, STORE_HASH_BYTES);
		su->player_id = sqlite3_column_int64(s, 3);
		su->created = sqlite3_column_int64(s, 4);
		su->expires = sqlite3_column_int64(s, 5);
		su->confirmed = sqlite3_column_int64(s, 6);
	}
	store_sqlite_done(st, s);
	return status;
}

enum store_status
store_signup_confirm(struct store *st,
    const unsigned char code_hash[STORE_HASH_BYTES], int64_t player_id,
    int64_t when)
{
	enum store_status status;
	sqlite3_stmt *s;

	if ((s = store_sqlite_prepare(st, "UPDATE signups SET confirmed = ?2, "
	    "player_id = coalesce(player_id, ?3) WHERE code_hash = ?1 AND "
	    "confirmed IS NULL", "sign-up confirm")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(s, 1, code_hash, STORE_HASH_BYTES, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, when);
	if (player_id > 0)
		sqlite3_bind_int64(s, 3, player_id);
	else
		sqlite3_bind_null(s, 3);
	status = run_once(st, s, "sign-up confirm");
	if (status == STORE_OK && changes(st) != 1) {
		sq_err(st, "sign-up confirm: already confirmed");
		return STORE_EXISTS;
	}
	return status;
}
