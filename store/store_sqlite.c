/*
 * store_sqlite.c -- store.h on one SQLite file: the shared machinery.
 *
 * One connection per struct store.  This file opens it, prepares every
 * statement of every file's SQL table once and keeps it in st->stmt[],
 * and lends the other files (store_sqlite.h) what they need to use one:
 * a call binds its parameters (never pasting text into SQL), steps,
 * reads, and resets the statement before it returns.  It also holds
 * errors, transactions, meta and the test hooks.  The tables' own calls
 * are in store_players.c, store_games.c, store_log.c, store_outbox.c,
 * store_webhooks.c, store_mail.c and store_async.c; the schema and its
 * history live in migrations.c.
 *
 * Everything read back from the file is checked before it is copied into
 * a caller's fixed-size field: a value of the wrong type or size is
 * reported as STORE_ERROR "corrupt row ...", never trusted, because the
 * file is input like any other (tests tamper with it on purpose).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include <sqlite3.h>

#include "store.h"
#include "store_test.h"
#include "store_sqlite.h"
#include "migrations.h"

#define BUSY_TIMEOUT_MS	5000

const char *const sq_core_sql[ST_COUNT] = {
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
	[ST_SP_BEGIN] = "SAVEPOINT store_op",
	[ST_SP_RELEASE] = "RELEASE store_op",
	[ST_SP_ROLLBACK] = "ROLLBACK TO store_op",
	[ST_MOVE_MARK] = "SAVEPOINT caller_mark",
	[ST_MOVE_RELEASE] = "RELEASE caller_mark",
	[ST_MOVE_UNDO] = "ROLLBACK TO caller_mark",
	[ST_VERSION] = "PRAGMA user_version",

	[ST_META_SET] = "INSERT INTO meta (key, value) VALUES (?1, ?2) "
	    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
	[ST_META_GET] = "SELECT key, value FROM meta WHERE key = ?1",
};

/* store_async.c's statements, prepared on first use and kept, keyed by
 * their SQL text's address (store_sqlite_prepare()). */
#define KEPT_MAX	48

struct kept_stmt {
	const char	*sql;
	sqlite3_stmt	*s;
};

struct store {
	sqlite3		*db;
	sqlite3_stmt	*stmt[ST_COUNT];
	struct kept_stmt kept[KEPT_MAX];
	int		 nkept;
	int		 bind_rc;	/* first failed bind of this call */
	int		 seats_changed;	/* in the open transaction */
	char		 errmsg[512];
};

/* store_seats_generation(): bumped after a commit that changed a seat's
 * player or a player's key (sq_seats_changed()), and by every
 * store_open(): what a cache read from another database file holds must
 * not answer for this one. */
static atomic_uint_least64_t seats_generation;

int64_t
sq_now(void)
{
	return (int64_t)time(NULL);
}

/* ---- Errors ------------------------------------------------------------ */

void
sq_err(struct store *st, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(st->errmsg, sizeof(st->errmsg), fmt, ap);
	va_end(ap);
}

static enum store_status
status_of(int rc)
{
	switch (rc) {
	case SQLITE_CONSTRAINT_PRIMARYKEY:
	case SQLITE_CONSTRAINT_UNIQUE:
	case SQLITE_CONSTRAINT_ROWID:
		return STORE_EXISTS;
	}
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return STORE_BUSY;
	}
	return STORE_ERROR;
}

/* A failed step: remember SQLite's reason, say which status it maps to. */
enum store_status
sq_fail(struct store *st, int rc, const char *what)
{
	sq_err(st, "%s: %s", what, sqlite3_errmsg(st->db));
	return status_of(rc);
}

/*
 * A value read from the file that cannot be what the schema promises.
 * Column 0 of every row-reading statement is the row's key.  Reading it
 * as text may convert it, which is fine: the row is abandoned anyway.
 */
enum store_status
sq_corrupt(struct store *st, sqlite3_stmt *s, int col, const char *table,
    const char *why)
{
	const unsigned char	*key = sqlite3_column_text(s, 0);
	const char		*keycol = sqlite3_column_name(s, 0);
	const char		*column = sqlite3_column_name(s, col);

	sq_err(st, "corrupt row in %s (%s %s): column %s %s", table,
	    keycol ? keycol : "key", key ? (const char *)key : "NULL",
	    column ? column : "?", why);
	return STORE_ERROR;
}

enum store_status
sq_nomem(struct store *st)
{
	sq_err(st, "out of memory");
	return STORE_ERROR;
}

/* ---- Statements: get, bind, step, finish -------------------------------- */

/*
 * The cached statement, ready to bind.  A statement still running means a
 * callback re-entered the call that runs it (say store_log_foreach() from
 * its own callback); resetting it under the outer loop would corrupt that
 * loop, so refuse.
 */
sqlite3_stmt *
sq_stmt(struct store *st, enum stmt_id id)
{
	sqlite3_stmt	*s = st->stmt[id];

	if (sqlite3_stmt_busy(s)) {
		sq_err(st, "store re-entered from a callback while the same "
		    "query is running: %s", sqlite3_sql(s));
		return NULL;
	}
	st->bind_rc = SQLITE_OK;
	return s;
}

void
sq_bind_check(struct store *st, int rc)
{
	if (rc != SQLITE_OK && st->bind_rc == SQLITE_OK)
		st->bind_rc = rc;
}

void
sq_bind_int64(struct store *st, sqlite3_stmt *s, int i, int64_t v)
{
	sq_bind_check(st, sqlite3_bind_int64(s, i, v));
}

/* An id where 0 means "none": stored as NULL. */
void
sq_bind_id(struct store *st, sqlite3_stmt *s, int i, int64_t id)
{
	if (id == 0)
		sq_bind_check(st, sqlite3_bind_null(s, i));
	else
		sq_bind_check(st, sqlite3_bind_int64(s, i, id));
}

/* A C string; NULL binds NULL, which NOT NULL columns then refuse. */
void
sq_bind_text(struct store *st, sqlite3_stmt *s, int i, const char *v)
{
	sq_bind_check(st, sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC));
}

/*
 * A fixed-size char array from a caller's struct.  An array with no NUL
 * binds all `size' bytes, which the column's size CHECK then refuses:
 * never read past the array.
 */
void
sq_bind_field(struct store *st, sqlite3_stmt *s, int i, const char *v,
    size_t size)
{
	sq_bind_check(st, sqlite3_bind_text(s, i, v, (int)strnlen(v, size),
	    SQLITE_STATIC));
}

void
sq_bind_blob(struct store *st, sqlite3_stmt *s, int i, const void *v,
    size_t len)
{
	sq_bind_check(st, sqlite3_bind_blob(s, i, v, (int)len, SQLITE_STATIC));
}

/*
 * The length of why cut to fit last_error, backing off so as not to
 * split a UTF-8 sequence (why[n] must start a character).
 */
static int
error_len(const char *why)
{
	struct store_outbox	 o;
	size_t			 max = sizeof(o.last_error) - 1;
	size_t			 n = strnlen(why, max + 1);

	if (n <= max)
		return (int)n;
	n = max;
	while (n > 0 && ((unsigned char)why[n] & 0xc0) == 0x80)
		n--;
	return (int)n;
}

void
sq_bind_error(struct store *st, sqlite3_stmt *s, int i, const char *why)
{
	if (why == NULL)
		why = "";
	sq_bind_check(st, sqlite3_bind_text(s, i, why, error_len(why),
	    SQLITE_STATIC));
}

void
sq_finish(sqlite3_stmt *s)
{
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
}

/*
 * One step: STORE_OK with a row ready to read, STORE_NOTFOUND when there
 * are no (more) rows, or the mapped failure.  The statement is not reset.
 * A failed bind is reported (and forgotten) here, so that it cannot
 * leak into a loop that a callback's call interrupted.
 */
enum store_status
sq_step(struct store *st, sqlite3_stmt *s, const char *what)
{
	int	 rc;

	if ((rc = st->bind_rc) != SQLITE_OK) {
		st->bind_rc = SQLITE_OK;
		sq_err(st, "%s: binding a parameter: %s", what,
		    sqlite3_errstr(rc));
		return STORE_ERROR;
	}
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		return STORE_OK;
	if (rc == SQLITE_DONE)
		return STORE_NOTFOUND;
	return sq_fail(st, rc, what);
}

/* Run a statement that returns no rows, and reset it. */
enum store_status
sq_run(struct store *st, sqlite3_stmt *s, const char *what)
{
	enum store_status	 status;

	status = sq_step(st, s, what);
	sq_finish(s);
	if (status == STORE_NOTFOUND)
		return STORE_OK;
	return status;
}

enum store_status
sq_update_one(struct store *st, sqlite3_stmt *s, const char *what,
    const char *notfound)
{
	enum store_status	 status;

	if ((status = sq_run(st, s, what)) != STORE_OK)
		return status;
	if (sqlite3_changes(st->db) == 0) {
		sq_err(st, "%s", notfound);
		return STORE_NOTFOUND;
	}
	return STORE_OK;
}

int64_t
sq_last_id(struct store *st)
{
	return sqlite3_last_insert_rowid(st->db);
}

int
sq_changes(struct store *st)
{
	return sqlite3_changes(st->db);
}

static enum store_status
run_id(struct store *st, enum stmt_id id, const char *what)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, id)) == NULL)
		return STORE_ERROR;
	return sq_run(st, s, what);
}

/* ---- Reading columns ---------------------------------------------------- */

/* TEXT into a fixed-size buffer; refused, not truncated, if too long. */
enum store_status
sq_col_text(struct store *st, sqlite3_stmt *s, int col, const char *table,
    char *buf, size_t size)
{
	const unsigned char	*t;
	int			 n;

	if (sqlite3_column_type(s, col) != SQLITE_TEXT)
		return sq_corrupt(st, s, col, table, "is not text");
	if ((t = sqlite3_column_text(s, col)) == NULL)
		return sq_nomem(st);
	n = sqlite3_column_bytes(s, col);
	if (n < 0 || (size_t)n >= size)
		return sq_corrupt(st, s, col, table, "is too long");
	memcpy(buf, t, n);
	buf[n] = '\0';
	return STORE_OK;
}

/* TEXT into a malloc'd string. */
enum store_status
sq_col_dup(struct store *st, sqlite3_stmt *s, int col, const char *table,
    char **out)
{
	const unsigned char	*t;
	int			 n;

	*out = NULL;
	if (sqlite3_column_type(s, col) != SQLITE_TEXT)
		return sq_corrupt(st, s, col, table, "is not text");
	if ((t = sqlite3_column_text(s, col)) == NULL)
		return sq_nomem(st);
	n = sqlite3_column_bytes(s, col);
	if ((*out = malloc((size_t)n + 1)) == NULL)
		return sq_nomem(st);
	memcpy(*out, t, n);
	(*out)[n] = '\0';
	return STORE_OK;
}

/* A BLOB of exactly len bytes. */
enum store_status
sq_col_blob(struct store *st, sqlite3_stmt *s, int col, const char *table,
    unsigned char *buf, size_t len)
{
	const void	*b;

	if (sqlite3_column_type(s, col) != SQLITE_BLOB ||
	    (size_t)sqlite3_column_bytes(s, col) != len)
		return sq_corrupt(st, s, col, table, "has the wrong type or size");
	if ((b = sqlite3_column_blob(s, col)) == NULL)
		return sq_nomem(st);
	memcpy(buf, b, len);
	return STORE_OK;
}

/* An INTEGER that may be NULL (read as 0: "none"). */
enum store_status
sq_col_id(struct store *st, sqlite3_stmt *s, int col, const char *table,
    int64_t *out)
{
	switch (sqlite3_column_type(s, col)) {
	case SQLITE_NULL:
		*out = 0;
		return STORE_OK;
	case SQLITE_INTEGER:
		*out = sqlite3_column_int64(s, col);
		return STORE_OK;
	}
	return sq_corrupt(st, s, col, table, "is not an integer");
}

/* ---- Opening ------------------------------------------------------------ */

/* PBEM_STORE_SYNC=off trades durability for speed in test runs. */
static const char *
sync_pragma(char *err, size_t errlen)
{
	const char	*v = getenv("PBEM_STORE_SYNC");

	if (v == NULL || *v == '\0' || strcmp(v, "normal") == 0)
		return "PRAGMA synchronous = NORMAL";
	if (strcmp(v, "off") == 0)
		return "PRAGMA synchronous = OFF";
	if (strcmp(v, "full") == 0)
		return "PRAGMA synchronous = FULL";
	snprintf(err, errlen, "PBEM_STORE_SYNC must be off, normal or full, "
	    "not \"%s\"", v);
	return NULL;
}

static int
pragma(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", sql, sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* WAL lets readers run beside the writer; refuse to run without it. */
static int
set_wal(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	sqlite3_stmt	*s;
	const char	*mode;
	int		 ok;

	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &s,
	    NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_step(s) != SQLITE_ROW) {
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(db));
		sqlite3_finalize(s);
		return -1;
	}
	mode = (const char *)sqlite3_column_text(s, 0);
	/* "memory" is what an in-memory database answers; fine for tests. */
	ok = mode != NULL && (strcmp(mode, "wal") == 0 ||
	    strcmp(mode, "memory") == 0);
	if (!ok)
		snprintf(err, errlen, "%s: cannot use WAL mode (journal_mode "
		    "stays %s)", path, mode ? mode : "unknown");
	sqlite3_finalize(s);
	return ok ? 0 : -1;
}

/*
 * The file holds seeds, hands and webhook secrets: create it readable by
 * its owner only (0600, whatever the umask), before SQLite does with
 * 0644.  SQLite gives the -wal and -shm files the mode of the database
 * file, so they are 0600 too.  An existing file keeps its mode (the
 * administrator may have chosen one); docs/STORE.md says how to check.
 * Special names (":memory:", "" for a temporary file) are left alone.
 */
static int
db_create_private(const char *path, char *err, size_t errlen)
{
	int	 fd;

	if (path[0] == '\0' || strcmp(path, ":memory:") == 0 ||
	    strncmp(path, "file:", 5) == 0)
		return 0;
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) ==
	    -1) {
		if (errno == EEXIST)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* The umask may only take bits away; 0600 is what we want. */
	(void)fchmod(fd, 0600);
	close(fd);
	return 0;
}

/*
 * Once per process, before SQLite starts: no memory statistics (each
 * allocation would take a process-wide mutex; nothing reads them).  If
 * SQLite was already started by other code, it keeps its settings.
 */
static pthread_once_t sqlite_setup_once = PTHREAD_ONCE_INIT;

static void
sqlite_setup(void)
{
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/*
 * Open the file and set up the connection.  The file is checked before
 * anything is written to it, so a foreign or newer file is left as it was.
 */
static enum store_status
db_open(const char *path, sqlite3 **out, char *err, size_t errlen)
{
	enum store_status	 status;
	const char		*sync;
	sqlite3			*db;
	int			 rc;

	*out = NULL;
	if ((sync = sync_pragma(err, errlen)) == NULL)
		return STORE_ERROR;
	if (db_create_private(path, err, errlen) == -1)
		return STORE_ERROR;
	(void)pthread_once(&sqlite_setup_once, sqlite_setup);
	/* NOMUTEX: a connection is used by one thread at a time (a struct
	 * store is not shared), so it needs no lock of its own around every
	 * call; connections of different threads still share the file
	 * safely. */
	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path,
		    db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return STORE_ERROR;
	}
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);

	if ((status = migrations_check(db, err, errlen)) != STORE_OK) {
		sqlite3_close(db);
		return status;
	}
	if (set_wal(db, path, err, errlen) == -1 ||
	    pragma(db, sync, err, errlen) == -1 ||
	    pragma(db, "PRAGMA foreign_keys = ON", err, errlen) == -1 ||
	    pragma(db, "PRAGMA recursive_triggers = ON", err, errlen) == -1 ||
	    /* Sorters and statement journals stay in memory: as files,
	     * each one is a create and an unlink in /var/tmp (seen with
	     * strace under load; they are small). */
	    pragma(db, "PRAGMA temp_store = MEMORY", err, errlen) == -1) {
		sqlite3_close(db);
		return STORE_ERROR;
	}
	*out = db;
	return STORE_OK;
}

static void
stmts_finalize(struct store *st)
{
	int	 i;

	for (i = 0; i < ST_COUNT; i++) {
		sqlite3_finalize(st->stmt[i]);
		st->stmt[i] = NULL;
	}
}

/* Every file's SQL table (store_sqlite.h). */
static const char *const *const stmt_tables[] = {
	sq_core_sql, sq_players_sql, sq_games_sql, sq_log_sql, sq_outbox_sql,
	sq_webhooks_sql, sq_mail_sql,
};

/* The SQL of statement id: the one table that has it, or NULL when none
 * or several do (a slip in the tables, refused at open). */
static const char *
stmt_text(int id)
{
	const char	*sql = NULL;
	size_t		 i;

	for (i = 0; i < sizeof(stmt_tables) / sizeof(stmt_tables[0]); i++) {
		if (stmt_tables[i][id] == NULL)
			continue;
		if (sql != NULL)
			return NULL;
		sql = stmt_tables[i][id];
	}
	return sql;
}

/* Prepared once, kept for the life of the connection. */
static int
stmts_prepare(struct store *st, char *err, size_t errlen)
{
	const char	*sql;
	int		 i;

	for (i = 0; i < ST_COUNT; i++) {
		if ((sql = stmt_text(i)) == NULL) {
			snprintf(err, errlen, "statement %d: no SQL, or SQL "
			    "in two files", i);
			stmts_finalize(st);
			return -1;
		}
		if (sqlite3_prepare_v3(st->db, sql, -1,
		    SQLITE_PREPARE_PERSISTENT, &st->stmt[i], NULL) !=
		    SQLITE_OK) {
			snprintf(err, errlen, "preparing \"%s\": %s",
			    sql, sqlite3_errmsg(st->db));
			stmts_finalize(st);
			return -1;
		}
	}
	return 0;
}

enum store_status
store_open(const char *path, struct store **out, char *err, size_t errlen)
{
	enum store_status	 status;
	struct store		*st;
	sqlite3			*db;

	*out = NULL;
	if ((status = db_open(path, &db, err, errlen)) != STORE_OK)
		return status;
	if ((status = migrate(db, migrations_latest(), err, errlen)) !=
	    STORE_OK) {
		sqlite3_close(db);
		return status;
	}
	if ((st = calloc(1, sizeof(*st))) == NULL) {
		snprintf(err, errlen, "out of memory");
		sqlite3_close(db);
		return STORE_ERROR;
	}
	st->db = db;
	if (stmts_prepare(st, err, errlen) == -1) {
		sqlite3_close(db);
		free(st);
		return STORE_ERROR;
	}
	atomic_fetch_add(&seats_generation, 1);
	*out = st;
	return STORE_OK;
}

void
store_close(struct store *st)
{
	if (st == NULL)
		return;
	stmts_finalize(st);
	while (st->nkept > 0)
		sqlite3_finalize(st->kept[--st->nkept].s);
	/* Rolls back an open transaction; the last close checkpoints. */
	sqlite3_close_v2(st->db);
	free(st);
}

const char *
store_errmsg(struct store *st)
{
	return st->errmsg;
}

int
store_schema_latest(void)
{
	return migrations_latest();
}

int
store_schema_version(struct store *st)
{
	sqlite3_stmt	*s;
	int		 v = -1;

	if ((s = sq_stmt(st, ST_VERSION)) == NULL)
		return -1;
	if (sq_step(st, s, "schema version") == STORE_OK)
		v = sqlite3_column_int(s, 0);
	sq_finish(s);
	return v;
}

/* ---- Transactions ------------------------------------------------------- */

uint64_t
store_seats_generation(void)
{
	return atomic_load(&seats_generation);
}

void
sq_seats_changed(struct store *st)
{
	if (sqlite3_get_autocommit(st->db))	/* committed already */
		atomic_fetch_add(&seats_generation, 1);
	else
		st->seats_changed = 1;
}

/* store_set_commit_hook(): set once at start-up, read by every thread. */
static void	(*commit_hook)(void *);
static void	*commit_hook_arg;

void
store_set_commit_hook(void (*fn)(void *arg), void *arg)
{
	commit_hook = fn;
	commit_hook_arg = arg;
}

enum store_status
store_begin(struct store *st)
{
	return run_id(st, ST_BEGIN, "begin");
}

/*
 * A commit that fails is rolled back at once, so the write lock is never
 * left held and "all or nothing" stays true whatever the caller does next.
 */
enum store_status
store_commit(struct store *st)
{
	enum store_status	 status;

	if ((status = run_id(st, ST_COMMIT, "commit")) != STORE_OK) {
		store_rollback(st);
		return status;
	}
	if (st->seats_changed) {
		st->seats_changed = 0;
		atomic_fetch_add(&seats_generation, 1);
	}
	if (commit_hook != NULL)
		commit_hook(commit_hook_arg);
	return status;
}

/* Leaves store_errmsg() alone: the caller usually still wants it. */
void
store_rollback(struct store *st)
{
	sqlite3_stmt	*s = st->stmt[ST_ROLLBACK];

	st->seats_changed = 0;
	if (sqlite3_get_autocommit(st->db))
		return;
	sqlite3_step(s);
	sq_finish(s);
}

/* The caller's savepoints (store.h): a name of their own, so they nest
 * around the store's own store_op savepoints without meeting them. */
enum store_status
store_mark(struct store *st)
{
	return run_id(st, ST_MOVE_MARK, "savepoint");
}

enum store_status
store_mark_release(struct store *st)
{
	return run_id(st, ST_MOVE_RELEASE, "release savepoint");
}

int
store_in_transaction(struct store *st)
{
	return !sqlite3_get_autocommit(st->db);
}

/* Like sq_op_end(): after an error that already rolled back the whole
 * transaction these fail quietly, and the first error stands. */
void
store_mark_undo(struct store *st)
{
	sqlite3_stmt	*s;

	if (sqlite3_get_autocommit(st->db))
		return;
	s = st->stmt[ST_MOVE_UNDO];
	sqlite3_step(s);
	sq_finish(s);
	s = st->stmt[ST_MOVE_RELEASE];
	sqlite3_step(s);
	sq_finish(s);
}

/*
 * Calls that write more than one row make them one unit.  Inside the
 * caller's transaction that is a savepoint.  Outside one it is a
 * transaction of their own, and an IMMEDIATE one: a savepoint would
 * start a deferred transaction, and one that reads before it writes
 * (store_player_set_key) could then fail at once with SQLITE_BUSY
 * instead of waiting for the lock.  *own says which was opened.
 */
enum store_status
sq_op_begin(struct store *st, int *own)
{
	if ((*own = sqlite3_get_autocommit(st->db)) != 0)
		return store_begin(st);
	return run_id(st, ST_SP_BEGIN, "savepoint");
}

/* Keep the unit's writes, or undo all of them on failure. */
enum store_status
sq_op_end(struct store *st, int own, enum store_status status)
{
	sqlite3_stmt	*s;

	if (own) {
		if (status == STORE_OK)
			return store_commit(st);
		store_rollback(st);
		return status;
	}
	if (status == STORE_OK)
		return run_id(st, ST_SP_RELEASE, "release savepoint");
	/*
	 * Some errors (disk full, I/O) have already rolled back the whole
	 * transaction and the savepoint with it; then these fail quietly
	 * and the first error is the one to report.
	 */
	s = st->stmt[ST_SP_ROLLBACK];
	sqlite3_step(s);
	sq_finish(s);
	s = st->stmt[ST_SP_RELEASE];
	sqlite3_step(s);
	sq_finish(s);
	return status;
}

/*
 * A durability barrier: a PASSIVE checkpoint syncs the WAL before it
 * copies frames back, so every commit made so far survives a power cut.
 * Busy readers only stop the copy, not the sync, which is what matters.
 */
enum store_status
store_sync(struct store *st)
{
	int	 rc;

	rc = sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
	    NULL, NULL);
	if (rc != SQLITE_OK && (rc & 0xff) != SQLITE_BUSY)
		return sq_fail(st, rc, "sync");
	return STORE_OK;
}

/* ---- Meta --------------------------------------------------------------- */

enum store_status
store_meta_set(struct store *st, const char *key, const char *value)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_META_SET)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, key);
	sq_bind_text(st, s, 2, value);
	return sq_run(st, s, "meta set");
}

enum store_status
store_meta_get(struct store *st, const char *key, char **value)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*value = NULL;
	if ((s = sq_stmt(st, ST_META_GET)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, key);
	status = sq_step(st, s, "meta get");
	if (status == STORE_OK)
		status = sq_col_dup(st, s, 1, "meta", value);
	else if (status == STORE_NOTFOUND)
		sq_err(st, "no meta key \"%s\"", key ? key : "(null)");
	sq_finish(s);
	return status;
}

/* ---- Test hooks (store_test.h) ------------------------------------------ */

enum store_status
store_test_create_at(const char *path, int version, char *err, size_t errlen)
{
	enum store_status	 status;
	sqlite3			*db;

	if ((status = db_open(path, &db, err, errlen)) != STORE_OK)
		return status;
	status = migrate(db, version, err, errlen);
	sqlite3_close(db);
	return status;
}

sqlite3 *
store_test_db(struct store *st)
{
	return st->db;
}

void
store_test_busy_timeout(struct store *st, int ms)
{
	sqlite3_busy_timeout(st->db, ms);
}

/* ---- For store_async.c (store_sqlite.h) --------------------------------- */

sqlite3 *
store_sqlite_db(struct store *st)
{
	return st->db;
}

sqlite3_stmt *
store_sqlite_prepare(struct store *st, const char *sql, const char *what)
{
	sqlite3_stmt *s = NULL;
	int i, rc;

	st->bind_rc = SQLITE_OK;	/* as sq_stmt(): a fresh call */
	for (i = 0; i < st->nkept; i++)
		if (st->kept[i].sql == sql) {
			/* In use by a caller further up: a fresh one. */
			if (sqlite3_stmt_busy(st->kept[i].s))
				break;
			return st->kept[i].s;
		}
	rc = sqlite3_prepare_v3(st->db, sql, -1, i == st->nkept &&
	    st->nkept < KEPT_MAX ? SQLITE_PREPARE_PERSISTENT : 0, &s, NULL);
	if (rc != SQLITE_OK) {
		sq_fail(st, rc, what);
		return NULL;
	}
	if (i == st->nkept && st->nkept < KEPT_MAX) {
		st->kept[st->nkept].sql = sql;
		st->kept[st->nkept++].s = s;
	}
	return s;
}

void
store_sqlite_done(struct store *st, sqlite3_stmt *s)
{
	int i;

	for (i = 0; i < st->nkept; i++)
		if (st->kept[i].s == s) {
			sqlite3_reset(s);
			sqlite3_clear_bindings(s);
			return;
		}
	sqlite3_finalize(s);
}

enum store_status
store_sqlite_step(struct store *st, sqlite3_stmt *s, const char *what)
{
	enum store_status status = sq_step(st, s, what);

	return status == STORE_NOTFOUND ? store_sqlite_missing(st, what) :
	    status;
}

enum store_status
store_sqlite_missing(struct store *st, const char *what)
{
	sq_err(st, "%s: no such row", what);
	return STORE_NOTFOUND;
}

void
store_sqlite_corrupt(struct store *st, const char *table, const char *why)
{
	sq_err(st, "corrupt row in %s: %s", table, why);
}
