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
/* Record SQLite's reason for a failed call (what: which call) and map
 * the result code to a store status (STORE_EXISTS, STORE_BUSY, ...). */
enum store_status store_sqlite_fail(struct store *st, int rc,
		    const char *what);
/* Record that a row read back is not what the schema promises. */
void		 store_sqlite_corrupt(struct store *st, const char *table,
		    const char *why);

#endif /* PBEM_STORE_SQLITE_H */
