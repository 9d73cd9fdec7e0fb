/*
 * store_test.h -- hooks for the store's own tests (tests/check_store.c)
 * and benchmark.  Not part of the store's contract: nothing else may
 * include this header, and these functions may change without notice.
 */
#ifndef PBEM_STORE_TEST_H
#define PBEM_STORE_TEST_H

#include <stddef.h>

#include <sqlite3.h>

#include "store.h"

/*
 * Create (or bring) the file at path to schema version `version' only,
 * as an older build would have left it, and close it again.
 */
enum store_status store_test_create_at(const char *path, int version,
    char *err, size_t errlen);

/* The store's own connection, for checking pragmas. */
sqlite3		*store_test_db(struct store *st);

/* Replace the 5 s busy timeout, so lock tests need not wait 5 s. */
void		 store_test_busy_timeout(struct store *st, int ms);

#endif /* PBEM_STORE_TEST_H */
