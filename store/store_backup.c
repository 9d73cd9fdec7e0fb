/*
 * store_backup.c -- the administrator's copies of the database: an online
 * backup while pbemd runs, a restore, and pruning the snapshots of
 * finished games (store.h, "Backup and restore"; docs/STORE.md).
 *
 * Both copies use SQLite's backup API rather than copying the file: a
 * file copy of a database in WAL mode misses what is still in the -wal
 * file, and may catch a page half written.  sqlite3_backup_step(-1) copies
 * every page in one read transaction, so the copy is the database as of
 * one commit, however many writers go on meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "migrations.h"
#include "store.h"
#include "store_sqlite.h"

/* Copy every page of from's main database into to's, in one step. */
static int
copy_pages(sqlite3 *to, sqlite3 *from, char *err, size_t errlen)
{
	sqlite3_backup *b;
	int rc;

	if ((b = sqlite3_backup_init(to, "main", from, "main")) == NULL) {
		snprintf(err, errlen, "backup: %s", sqlite3_errmsg(to));
		return -1;
	}
	rc = sqlite3_backup_step(b, -1);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "backup: %s", sqlite3_errstr(rc));
		return -1;
	}
	return 0;
}

enum store_status
store_backup(struct store *st, const char *dest, char *err, size_t errlen)
{
	char partial[4096];
	sqlite3 *to = NULL;
	int fd, rc;

	if (access(dest, F_OK) == 0) {
		snprintf(err, errlen, "%s: already exists; a backup never "
		    "overwrites a file", dest);
		return STORE_EXISTS;
	}
	if ((size_t)snprintf(partial, sizeof(partial), "%s.partial", dest) >=
	    sizeof(partial)) {
		snprintf(err, errlen, "%s: path too long", dest);
		return STORE_ERROR;
	}
	(void)unlink(partial);	/* left by a backup that was interrupted */
	if ((fd = open(partial, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) == -1) {
		snprintf(err, errlen, "%s: %s", partial, strerror(errno));
		return STORE_ERROR;
	}
	(void)fchmod(fd, 0600);
	close(fd);
	if ((rc = sqlite3_open_v2(partial, &to, SQLITE_OPEN_READWRITE,
	    NULL)) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", partial, sqlite3_errstr(rc));
		sqlite3_close(to);
		unlink(partial);
		return STORE_ERROR;
	}
	if (copy_pages(to, store_sqlite_db(st), err, errlen) != 0 ||
	    sqlite3_exec(to, "PRAGMA journal_mode = DELETE", NULL, NULL,
	    NULL) != SQLITE_OK) {
		if (err[0] == '\0')
			snprintf(err, errlen, "%s: %s", partial,
			    sqlite3_errmsg(to));
		sqlite3_close(to);
		unlink(partial);
		return STORE_ERROR;
	}
	sqlite3_close(to);
	if (rename(partial, dest) != 0) {
		snprintf(err, errlen, "%s: %s", dest, strerror(errno));
		unlink(partial);
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* Is the file at src whole and a pbem database this build knows? */
static int
check_backup(sqlite3 *src, const char *path, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	char why[512];
	int ok;

	if (sqlite3_prepare_v2(src, "PRAGMA integrity_check", -1, &s,
	    NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: not a database: %s", path,
		    sqlite3_errmsg(src));
		return -1;
	}
	ok = sqlite3_step(s) == SQLITE_ROW &&
	    strcmp((const char *)sqlite3_column_text(s, 0), "ok") == 0;
	if (!ok)
		snprintf(err, errlen, "%s: fails SQLite's integrity check: %s",
		    path, sqlite3_column_text(s, 0) != NULL ?
		    (const char *)sqlite3_column_text(s, 0) :
		    sqlite3_errmsg(src));
	sqlite3_finalize(s);
	if (!ok)
		return -1;
	if (migrations_check(src, why, sizeof(why)) != STORE_OK) {
		snprintf(err, errlen, "%s: %s", path, why);
		return -1;
	}
	return 0;
}

enum store_status
store_restore(const char *src, const char *dbpath, char *err, size_t errlen)
{
	sqlite3 *from = NULL, *to = NULL;
	int rc;

	err[0] = '\0';
	if ((rc = sqlite3_open_v2(src, &from, SQLITE_OPEN_READONLY,
	    NULL)) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", src, sqlite3_errstr(rc));
		sqlite3_close(from);
		return STORE_ERROR;
	}
	if (check_backup(from, src, err, errlen) != 0) {
		sqlite3_close(from);
		return STORE_ERROR;
	}
	if ((rc = sqlite3_open_v2(dbpath, &to, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL)) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", dbpath, sqlite3_errstr(rc));
		sqlite3_close(to);
		sqlite3_close(from);
		return STORE_ERROR;
	}
	sqlite3_busy_timeout(to, 5000);
	(void)chmod(dbpath, 0600);
	rc = copy_pages(to, from, err, errlen);
	sqlite3_close(from);
	sqlite3_close(to);
	return rc == 0 ? STORE_OK : STORE_ERROR;
}

enum store_status
store_snapshot_prune_ended(struct store *st, int64_t *removed)
{
	enum store_status status;
	sqlite3_stmt *s;

	*removed = 0;
	if ((s = store_sqlite_prepare(st, "DELETE FROM snapshots WHERE "
	    "game_id IN (SELECT id FROM games WHERE status = 1) "
	    "AND seq > (SELECT min(m.seq) FROM snapshots m "
	    "WHERE m.game_id = snapshots.game_id) "
	    "AND seq < (SELECT max(m.seq) FROM snapshots m "
	    "WHERE m.game_id = snapshots.game_id)",
	    "snapshot prune")) == NULL)
		return STORE_ERROR;
	status = sq_step(st, s, "snapshot prune");
	store_sqlite_done(st, s);
	if (status == STORE_NOTFOUND)
		status = STORE_OK;
	if (status == STORE_OK)
		*removed = sq_changes(st);
	return status;
}
