/*
 * migrations.h -- the store's schema history (internal to store/).
 *
 * The schema is the result of running numbered migrations 1..N in order.
 * PRAGMA user_version records the last one a file has had; each
 * migration runs in its own IMMEDIATE transaction together with the
 * update of user_version, so a file is always at exactly one version.
 *
 * migrate() is called by store_sqlite.c on a freshly opened connection
 * (pragmas set, no transaction open).  It refuses, without writing
 * anything, a file whose version is newer than this build knows and a
 * file that is some other program's database.  Nothing outside store/
 * includes this header.
 */
#ifndef PBEM_STORE_MIGRATIONS_H
#define PBEM_STORE_MIGRATIONS_H

#include <stddef.h>

#include <sqlite3.h>

#include "store.h"

/* The number of the last migration: the version a fresh file gets. */
int		migrations_latest(void);

/*
 * Bring db up to version target (1 <= target <= migrations_latest()).
 * A file already at or past target (but not past the latest) is left
 * alone.  On failure err holds a sentence saying what went wrong and the
 * file stays at the last version that committed.
 */
enum store_status migrate(sqlite3 *db, int target, char *err, size_t errlen);

/*
 * Read-only check made before the connection writes anything (even the
 * switch to WAL): refuses a file with a newer schema, or one that belongs
 * to another program.
 */
enum store_status migrations_check(sqlite3 *db, char *err, size_t errlen);

/* The file's PRAGMA user_version, or -1 if it cannot be read. */
int		migrations_version(sqlite3 *db);

#endif /* PBEM_STORE_MIGRATIONS_H */
