/*
 * store_sqlite.h -- what store_sqlite.c lends the store's other files.
 * Internal to store/: nothing outside it includes this header.
 *
 * store.h is implemented by one file per group of tables (docs/STORE.md
 * has the map):
 *   store_sqlite.c    the connection, errors, statements, reading columns,
 *                     transactions, meta, test hooks
 *   store_players.c   players and their keys
 *   store_games.c     games and seats
 *   store_log.c       the move log and snapshots
 *   store_outbox.c    the outbox, including the webhook queue's order
 *   store_webhooks.c  webhook registrations
 *   store_mail.c      the mail gateway's bookkeeping
 *   store_async.c     asynchronous play (statements kept by address)
 *
 * Each of the first seven files keeps its SQL in a table of its own
 * (sq_*_sql[], indexed by enum stmt_id); store_open() prepares every
 * statement once and keeps it for the connection's life.  A call gets its
 * statement with sq_stmt(), binds with sq_bind_*(), steps with sq_step()
 * or sq_run(), reads with sq_col_*(), and sq_finish()es it before it
 * returns.  The first failed bind of a call is held and reported by the
 * next step, so binds need no checks of their own.
 */
#ifndef PBEM_STORE_SQLITE_H
#define PBEM_STORE_SQLITE_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "store.h"

/* ---- The kept statements, by the file that defines their SQL ----------- */

enum stmt_id {
	/* store_sqlite.c */
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_SP_BEGIN,
	ST_SP_RELEASE,
	ST_SP_ROLLBACK,
	ST_MOVE_MARK,
	ST_MOVE_RELEASE,
	ST_MOVE_UNDO,
	ST_VERSION,
	ST_META_SET,
	ST_META_GET,
	/* store_players.c */
	ST_PLAYER_ADD,
	ST_PLAYER_EXISTS,
	ST_PLAYER_GET,
	ST_PLAYER_FIND,
	ST_PLAYER_ALL,
	ST_PLAYER_FOLDED,
	ST_PLAYER_EMAIL,
	ST_PLAYER_SET_BOT,
	ST_KEY_ADD,
	ST_KEY_REVOKE,
	/* store_games.c */
	ST_GAME_ADD,
	ST_GAME_GET,
	ST_GAME_ALL,
	ST_GAME_STATUS,
	ST_SEAT_ADD,
	ST_SEATS_GET,
	ST_SEAT_SET,
	ST_GAME_PAGE,
	ST_GAME_PAGE_STATUS,
	ST_GAME_PAGE_PLAYER,
	ST_GAME_FORMING_COUNT,
	/* store_log.c */
	ST_LOG_APPEND,
	ST_LOG_GET,
	ST_LOG_LAST,
	ST_LOG_HEAD,
	ST_LOG_ALL,
	ST_LOG_RANGE,
	ST_LOG_SINCE,
	ST_LOG_KIND_AFTER,
	ST_SNAP_PUT,
	ST_SNAP_LATEST,
	ST_SNAP_GET,
	ST_SNAP_BEFORE,
	ST_SNAP_ALL,
	ST_SNAP_DROP,
	ST_SUMMARY_PUT,
	ST_SUMMARY_GET,
	/* store_outbox.c */
	ST_OUTBOX_ADD,
	ST_OUTBOX_DUE,
	ST_OUTBOX_SENT,
	ST_OUTBOX_FAILED,
	ST_OUTBOX_PENDING,
	ST_OUTBOX_DEPTH,
	ST_OUTBOX_DUE_CHANNEL,
	ST_OUTBOX_PRUNE,
	ST_OUTBOX_DEFER,
	ST_WEBHOOK_DUE,
	ST_WEBHOOK_NEXT,
	/* store_webhooks.c */
	ST_WEBHOOK_ADD,
	ST_WEBHOOK_GET,
	ST_WEBHOOK_ALL,
	ST_WEBHOOK_FOR_GAME,
	ST_WEBHOOK_DELETE,
	ST_WEBHOOK_GIVE_UP,
	ST_WEBHOOK_STATE,
	ST_WEBHOOK_DELIVERED,
	ST_WEBHOOK_FAILED,
	ST_WEBHOOK_COUNT_GAME,
	ST_WEBHOOK_COUNT_PLAYER,
	ST_WEBHOOK_PAGE,
	/* store_mail.c */
	ST_MAIL_SEEN_ADD,
	ST_MAIL_SEEN_GET,
	ST_MAIL_SEEN_MOVE,
	ST_MAIL_RATE,
	ST_MAIL_SEND_RATE,
	ST_MAIL_ATTEMPT_BEGIN,
	ST_MAIL_ATTEMPT_END,
	ST_COUNT
};

/* Each file's SQL by statement id, NULL for the other files' ids.
 * store_open() refuses to start unless every id has SQL in one table. */
extern const char *const sq_core_sql[ST_COUNT];
extern const char *const sq_players_sql[ST_COUNT];
extern const char *const sq_games_sql[ST_COUNT];
extern const char *const sq_log_sql[ST_COUNT];
extern const char *const sq_outbox_sql[ST_COUNT];
extern const char *const sq_webhooks_sql[ST_COUNT];
extern const char *const sq_mail_sql[ST_COUNT];

/* ---- Errors: each records the sentence store_errmsg() returns ---------- */

/* Record a printf-style sentence. */
void		 sq_err(struct store *st, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/* Record SQLite's reason for a failed call (what: which call) and map
 * the result code to a store status (STORE_EXISTS, STORE_BUSY, ...). */
enum store_status sq_fail(struct store *st, int rc, const char *what);
/* A value in column col of the current row of table that cannot be what
 * the schema promises: "corrupt row in table (key ...): column ... why",
 * and STORE_ERROR. */
enum store_status sq_corrupt(struct store *st, sqlite3_stmt *s, int col,
		    const char *table, const char *why);
/* Record "out of memory" and return STORE_ERROR. */
enum store_status sq_nomem(struct store *st);

/* ---- Statements: get, bind, step, finish ------------------------------- */

/* The kept statement id, ready to bind; NULL (with the reason recorded)
 * if it is still running, that is a callback re-entered its own call. */
sqlite3_stmt	*sq_stmt(struct store *st, enum stmt_id id);
/* Hold rc if it is the call's first failed bind (sq_step reports it). */
void		 sq_bind_check(struct store *st, int rc);
void		 sq_bind_int64(struct store *st, sqlite3_stmt *s, int i,
		    int64_t v);
/* An id where 0 means "none": bound as NULL. */
void		 sq_bind_id(struct store *st, sqlite3_stmt *s, int i,
		    int64_t id);
/* A C string; NULL binds NULL, which NOT NULL columns then refuse. */
void		 sq_bind_text(struct store *st, sqlite3_stmt *s, int i,
		    const char *v);
/* A fixed-size char array of a caller's struct, never read past size. */
void		 sq_bind_field(struct store *st, sqlite3_stmt *s, int i,
		    const char *v, size_t size);
void		 sq_bind_blob(struct store *st, sqlite3_stmt *s, int i,
		    const void *v, size_t len);
/* A failure's reason for a last_error column (NULL as ""), cut to fit
 * without splitting a UTF-8 sequence. */
void		 sq_bind_error(struct store *st, sqlite3_stmt *s, int i,
		    const char *why);
/* One step: STORE_OK with a row ready to read, STORE_NOTFOUND when there
 * are no (more) rows, or the mapped failure.  The statement is not reset. */
enum store_status sq_step(struct store *st, sqlite3_stmt *s,
		    const char *what);
/* Reset a statement and clear its bindings. */
void		 sq_finish(sqlite3_stmt *s);
/* Run a statement that returns no rows, and finish it. */
enum store_status sq_run(struct store *st, sqlite3_stmt *s, const char *what);
/* sq_run() an UPDATE of one row: STORE_NOTFOUND, with notfound recorded,
 * if it matched none. */
enum store_status sq_update_one(struct store *st, sqlite3_stmt *s,
		    const char *what, const char *notfound);
/* The rowid of the connection's last INSERT. */
int64_t		 sq_last_id(struct store *st);
/* Rows the last INSERT, UPDATE or DELETE of this connection changed. */
int		 sq_changes(struct store *st);
/* The time now, in seconds since the epoch. */
int64_t		 sq_now(void);

/* ---- Reading columns: each checks the value first (sq_corrupt) --------- */

/* TEXT into a fixed-size buffer; refused, not truncated, if too long. */
enum store_status sq_col_text(struct store *st, sqlite3_stmt *s, int col,
		    const char *table, char *buf, size_t size);
/* TEXT into a malloc'd string (*out NULL on failure). */
enum store_status sq_col_dup(struct store *st, sqlite3_stmt *s, int col,
		    const char *table, char **out);
/* A BLOB of exactly len bytes. */
enum store_status sq_col_blob(struct store *st, sqlite3_stmt *s, int col,
		    const char *table, unsigned char *buf, size_t len);
/* An INTEGER that may be NULL (read as 0: "none"). */
enum store_status sq_col_id(struct store *st, sqlite3_stmt *s, int col,
		    const char *table, int64_t *out);

/* ---- Units of several writes ------------------------------------------- */

/* Make the writes that follow one unit: a savepoint inside the caller's
 * transaction, an IMMEDIATE transaction of its own outside one (*own
 * says which).  Every sq_op_begin() that succeeds needs one sq_op_end(). */
enum store_status sq_op_begin(struct store *st, int *own);
/* Keep the unit's writes if status is STORE_OK, or undo all of them;
 * returns status, or the commit's failure. */
enum store_status sq_op_end(struct store *st, int own,
		    enum store_status status);

/* ---- For store_async.c: statements kept by their SQL's address --------- */

/* The store's one connection. */
sqlite3		*store_sqlite_db(struct store *st);
/* A prepared statement for sql, kept for the connection's life and
 * found again by sql's address (so sql must be a string literal or
 * otherwise never freed), or a fresh one if the kept one is still in
 * use.  NULL, with the reason recorded, if it cannot be prepared.  Give
 * it back with store_sqlite_done() (reset and unbound, or finalized if
 * it was not kept) -- never sqlite3_finalize(). */
sqlite3_stmt	*store_sqlite_prepare(struct store *st, const char *sql,
		    const char *what);
void		 store_sqlite_done(struct store *st, sqlite3_stmt *s);
/* One step of a statement from store_sqlite_prepare(), as sq_step() but
 * with "what: no such row" recorded for STORE_NOTFOUND (as every status
 * but STORE_OK leaves a sentence). */
enum store_status store_sqlite_step(struct store *st, sqlite3_stmt *s,
		    const char *what);
/* Record "what: no such row" and return STORE_NOTFOUND. */
enum store_status store_sqlite_missing(struct store *st, const char *what);
/* Record that a row read back is not what the schema promises. */
void		 store_sqlite_corrupt(struct store *st, const char *table,
		    const char *why);

/* A seat's player or a player's key was written by st: store_seats_generation()
 * moves on when that write is committed (at once outside a transaction). */
void	sq_seats_changed(struct store *st);

#endif /* PBEM_STORE_SQLITE_H */
