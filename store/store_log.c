/*
 * store_log.c -- the move log and state snapshots (tables log and
 * snapshots): store.h's store_log_*, store_entry_clear() and
 * store_snapshot_* calls, and the entries' one-line summaries (table
 * summaries: store_summary_*).
 *
 * The log is append-only: an entry is inserted once, and a second one at
 * the same (game, seq) fails with STORE_EXISTS (the schema's triggers
 * refuse UPDATE and DELETE).  Entries are read back whole and checked,
 * or, by store_log_head(), only the last one's seq and hash.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

#define LOG_SELECT							\
	"SELECT seq, game_id, kind, seat, text, signature, state_hash, "	\
	"prev_hash, hash, receipt, time, event_id FROM log"

const char *const sq_log_sql[ST_COUNT] = {
	[ST_LOG_APPEND] = "INSERT INTO log (game_id, seq, kind, seat, text, "
	    "signature, state_hash, prev_hash, hash, receipt, time, event_id) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
	    "(SELECT coalesce(max(event_id), 0) + 1 FROM log))",
	[ST_LOG_GET] = LOG_SELECT " WHERE game_id = ?1 AND seq = ?2",
	[ST_LOG_LAST] = LOG_SELECT " WHERE game_id = ?1 "
	    "ORDER BY seq DESC LIMIT 1",
	[ST_LOG_HEAD] = "SELECT seq, hash FROM log WHERE game_id = ?1 "
	    "ORDER BY seq DESC LIMIT 1",
	[ST_LOG_ALL] = LOG_SELECT " WHERE game_id = ?1 ORDER BY seq",
	[ST_LOG_RANGE] = LOG_SELECT " WHERE game_id = ?1 AND seq > ?2 "
	    "ORDER BY seq LIMIT ?3",
	[ST_LOG_SINCE] = LOG_SELECT " WHERE event_id > ?1 "
	    "ORDER BY event_id LIMIT ?2",
	[ST_LOG_KIND_AFTER] = LOG_SELECT " WHERE game_id = ?1 AND seq > ?2 "
	    "AND kind = ?3 ORDER BY seq",

	[ST_SNAP_PUT] = "INSERT INTO snapshots (game_id, seq, state) "
	    "VALUES (?1, ?2, ?3)",
	[ST_SNAP_LATEST] = "SELECT seq, state FROM snapshots "
	    "WHERE game_id = ?1 ORDER BY seq DESC LIMIT 1",
	[ST_SNAP_GET] = "SELECT seq, state FROM snapshots "
	    "WHERE game_id = ?1 AND seq = ?2",
	[ST_SNAP_BEFORE] = "SELECT seq, state FROM snapshots "
	    "WHERE game_id = ?1 AND seq <= ?2 ORDER BY seq DESC LIMIT 1",
	[ST_SNAP_ALL] = "SELECT seq, state FROM snapshots WHERE game_id = ?1 "
	    "ORDER BY seq",
	[ST_SNAP_DROP] = "DELETE FROM snapshots WHERE game_id = ?1 AND seq = ?2",

	[ST_SUMMARY_PUT] = "INSERT INTO summaries (game_id, seq, en, fr) "
	    "VALUES (?1, ?2, ?3, ?4)",
	[ST_SUMMARY_GET] = "SELECT en, fr FROM summaries "
	    "WHERE game_id = ?1 AND seq = ?2",
};

/* ---- The move log ------------------------------------------------------- */

enum store_status
store_log_append(struct store *st, const struct store_entry *e)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_LOG_APPEND)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, e->game_id);
	sq_bind_int64(st, s, 2, e->seq);
	sq_bind_int64(st, s, 3, e->kind);
	sq_bind_int64(st, s, 4, e->seat);
	sq_bind_text(st, s, 5, e->text);
	sq_bind_blob(st, s, 6, e->signature, sizeof(e->signature));
	sq_bind_blob(st, s, 7, e->state_hash, sizeof(e->state_hash));
	sq_bind_blob(st, s, 8, e->prev_hash, sizeof(e->prev_hash));
	sq_bind_blob(st, s, 9, e->hash, sizeof(e->hash));
	sq_bind_blob(st, s, 10, e->receipt, sizeof(e->receipt));
	sq_bind_int64(st, s, 11, e->time);
	status = sq_run(st, s, "log append");
	if (status == STORE_EXISTS)
		sq_err(st, "game %lld already has log entry %lld",
		    (long long)e->game_id, (long long)e->seq);
	return status;
}

static enum store_status
read_entry(struct store *st, sqlite3_stmt *s, struct store_entry *e)
{
	enum store_status	 status;

	memset(e, 0, sizeof(*e));
	e->seq = sqlite3_column_int64(s, 0);
	e->game_id = sqlite3_column_int64(s, 1);
	e->kind = sqlite3_column_int(s, 2);
	e->seat = sqlite3_column_int(s, 3);
	e->time = sqlite3_column_int64(s, 10);
	e->event_id = sqlite3_column_int64(s, 11);
	if ((status = sq_col_blob(st, s, 5, "log", e->signature,
	    sizeof(e->signature))) != STORE_OK ||
	    (status = sq_col_blob(st, s, 6, "log", e->state_hash,
	    sizeof(e->state_hash))) != STORE_OK ||
	    (status = sq_col_blob(st, s, 7, "log", e->prev_hash,
	    sizeof(e->prev_hash))) != STORE_OK ||
	    (status = sq_col_blob(st, s, 8, "log", e->hash,
	    sizeof(e->hash))) != STORE_OK ||
	    (status = sq_col_blob(st, s, 9, "log", e->receipt,
	    sizeof(e->receipt))) != STORE_OK ||
	    (status = sq_col_dup(st, s, 4, "log", &e->text)) != STORE_OK)
		return status;
	return STORE_OK;
}

static enum store_status
entry_read_one(struct store *st, sqlite3_stmt *s, struct store_entry *e,
    const char *what)
{
	enum store_status	 status;

	memset(e, 0, sizeof(*e));
	if ((status = sq_step(st, s, what)) == STORE_OK)
		status = read_entry(st, s, e);
	sq_finish(s);
	return status;
}

enum store_status
store_log_get(struct store *st, int64_t game_id, int64_t seq,
    struct store_entry *e)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	memset(e, 0, sizeof(*e));
	if ((s = sq_stmt(st, ST_LOG_GET)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, seq);
	status = entry_read_one(st, s, e, "log get");
	if (status == STORE_NOTFOUND)
		sq_err(st, "game %lld has no log entry %lld",
		    (long long)game_id, (long long)seq);
	return status;
}

enum store_status
store_log_last(struct store *st, int64_t game_id, struct store_entry *e)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	memset(e, 0, sizeof(*e));
	if ((s = sq_stmt(st, ST_LOG_LAST)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	status = entry_read_one(st, s, e, "log last");
	if (status == STORE_NOTFOUND)
		sq_err(st, "game %lld has no log entries",
		    (long long)game_id);
	return status;
}

enum store_status
store_log_head(struct store *st, int64_t game_id, int64_t *seq,
    unsigned char hash[STORE_HASH_BYTES])
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_LOG_HEAD)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	if ((status = sq_step(st, s, "log head")) == STORE_OK) {
		*seq = sqlite3_column_int64(s, 0);
		status = sq_col_blob(st, s, 1, "log", hash, STORE_HASH_BYTES);
	} else if (status == STORE_NOTFOUND)
		sq_err(st, "game %lld has no log entries",
		    (long long)game_id);
	sq_finish(s);
	return status;
}

void
store_entry_clear(struct store_entry *e)
{
	free(e->text);
	memset(e, 0, sizeof(*e));
}

/* Step a bound log query s, handing each entry to cb. */
static enum store_status
log_walk(struct store *st, sqlite3_stmt *s, store_entry_cb cb, void *arg)
{
	enum store_status	 status;
	struct store_entry	 e;
	int			 stop;

	while ((status = sq_step(st, s, "log foreach")) == STORE_OK) {
		if ((status = read_entry(st, s, &e)) != STORE_OK) {
			store_entry_clear(&e);
			break;
		}
		stop = cb(&e, arg);
		store_entry_clear(&e);
		if (stop)
			break;
	}
	sq_finish(s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_log_range(struct store *st, int64_t game_id, int64_t after, int limit,
    store_entry_cb cb, void *arg)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_LOG_RANGE)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, after);
	sq_bind_int64(st, s, 3, limit);
	return log_walk(st, s, cb, arg);
}

enum store_status
store_log_since(struct store *st, int64_t after_event, int limit,
    store_entry_cb cb, void *arg)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_LOG_SINCE)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, after_event);
	sq_bind_int64(st, s, 2, limit);
	return log_walk(st, s, cb, arg);
}

enum store_status
store_log_kind_after(struct store *st, int64_t game_id, int64_t after,
    int kind, store_entry_cb cb, void *arg)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_LOG_KIND_AFTER)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, after);
	sq_bind_int64(st, s, 3, kind);
	return log_walk(st, s, cb, arg);
}

enum store_status
store_log_foreach(struct store *st, int64_t game_id, store_entry_cb cb,
    void *arg)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_LOG_ALL)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	return log_walk(st, s, cb, arg);
}

/* ---- Snapshots ---------------------------------------------------------- */

enum store_status
store_snapshot_put(struct store *st, int64_t game_id, int64_t seq,
    const char *state)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_SNAP_PUT)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, seq);
	sq_bind_text(st, s, 3, state);
	status = sq_run(st, s, "snapshot put");
	if (status == STORE_EXISTS)
		sq_err(st, "game %lld already has a snapshot at %lld",
		    (long long)game_id, (long long)seq);
	return status;
}

static enum store_status
snapshot_read_one(struct store *st, sqlite3_stmt *s, int64_t *seq,
    char **state, const char *what)
{
	enum store_status	 status;

	*state = NULL;
	if ((status = sq_step(st, s, what)) == STORE_OK) {
		if (seq != NULL)
			*seq = sqlite3_column_int64(s, 0);
		status = sq_col_dup(st, s, 1, "snapshots", state);
	}
	sq_finish(s);
	return status;
}

enum store_status
store_snapshot_latest(struct store *st, int64_t game_id, int64_t *seq,
    char **state)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*state = NULL;
	if ((s = sq_stmt(st, ST_SNAP_LATEST)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	status = snapshot_read_one(st, s, seq, state, "snapshot latest");
	if (status == STORE_NOTFOUND)
		sq_err(st, "game %lld has no snapshot", (long long)game_id);
	return status;
}

enum store_status
store_snapshot_get(struct store *st, int64_t game_id, int64_t seq,
    char **state)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*state = NULL;
	if ((s = sq_stmt(st, ST_SNAP_GET)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, seq);
	status = snapshot_read_one(st, s, NULL, state, "snapshot get");
	if (status == STORE_NOTFOUND)
		sq_err(st, "game %lld has no snapshot at %lld",
		    (long long)game_id, (long long)seq);
	return status;
}

enum store_status
store_snapshot_before(struct store *st, int64_t game_id, int64_t seq,
    int64_t *found, char **state)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*state = NULL;
	if ((s = sq_stmt(st, ST_SNAP_BEFORE)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, seq);
	status = snapshot_read_one(st, s, found, state, "snapshot before");
	if (status == STORE_NOTFOUND)
		sq_err(st, "game %lld has no snapshot at or before %lld",
		    (long long)game_id, (long long)seq);
	return status;
}

enum store_status
store_snapshot_foreach(struct store *st, int64_t game_id,
    store_snapshot_cb cb, void *arg)
{
	enum store_status	 status;
	sqlite3_stmt		*s;
	char			*state;

	if ((s = sq_stmt(st, ST_SNAP_ALL)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	while ((status = sq_step(st, s, "snapshot foreach")) == STORE_OK) {
		if ((status = sq_col_dup(st, s, 1, "snapshots", &state)) !=
		    STORE_OK)
			break;
		if (cb(sqlite3_column_int64(s, 0), state, arg) != 0)
			break;
	}
	sq_finish(s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_snapshot_drop(struct store *st, int64_t game_id, int64_t seq)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_SNAP_DROP)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, seq);
	return sq_run(st, s, "snapshot drop");
}

/* ---- One-line summaries -------------------------------------------------- */

enum store_status
store_summary_put(struct store *st, int64_t game_id, int64_t seq,
    const char *en, const char *fr)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_SUMMARY_PUT)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, seq);
	sq_bind_text(st, s, 3, en);
	sq_bind_text(st, s, 4, fr);
	return sq_run(st, s, "summary put");
}

enum store_status
store_summary_get(struct store *st, int64_t game_id, int64_t seq, char **en,
    char **fr)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*en = *fr = NULL;
	if ((s = sq_stmt(st, ST_SUMMARY_GET)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, seq);
	if ((status = sq_step(st, s, "summary get")) == STORE_OK &&
	    (status = sq_col_dup(st, s, 0, "summaries", en)) == STORE_OK &&
	    (status = sq_col_dup(st, s, 1, "summaries", fr)) != STORE_OK) {
		free(*en);
		*en = NULL;
	}
	sq_finish(s);
	return status;
}
