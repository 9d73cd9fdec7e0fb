/*
 * store_sqlite.h -- what store_sqlite.c lends the store's other files
 * (store_async.c).  Internal to store/: nothing outside it includes this
 * header.
 */
#ifndef PBEM_STORE_SQLITE_H
#define PBEM_STORE_SQLITE_H

#include <sqlite3.h>

#include "store.h"

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
/* One step of a statement from store_sqlite_prepare(), as the store's
 * own calls step theirs: STORE_OK with a row ready to read,
 * STORE_NOTFOUND when there are no (more) rows (with "what: no such row"
 * recorded, as every status but STORE_OK leaves a sentence), or the
 * mapped failure with SQLite's reason recorded (what: which call). */
enum store_status store_sqlite_step(struct store *st, sqlite3_stmt *s,
		    const char *what);
/* Column col of the current row as a malloc'd C string; a value that is
 * not text is a corrupt row of table. */
enum store_status store_sqlite_col_dup(struct store *st, sqlite3_stmt *s,
		    int col, const char *table, char **out);
/* Record SQLite's reason for a failed call (what: which call) and map
 * the result code to a store status (STORE_EXISTS, STORE_BUSY, ...). */
enum store_status store_sqlite_fail(struct store *st, int rc,
		    const char *what);
/* Record "what: no such row" and return STORE_NOTFOUND. */
enum store_status store_sqlite_missing(struct store *st, const char *what);
/* Record that a row read back is not what the schema promises. */
void		 store_sqlite_corrupt(struct store *st, const char *table,
		    const char *why);

#endif /* PBEM_STORE_SQLITE_H */
