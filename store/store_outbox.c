/*
 * store_outbox.c -- the outbox (table outbox): store.h's store_outbox_*
 * calls, the webhook channel's queue order among them.
 *
 * Due rows are read whole into an array and the query finished before
 * the first callback, so that a callback may mark the rows it gets.
 * A row is pending (status 0) until marked sent or failed for good; the
 * queries spell out "status = 0" so that the partial indexes apply.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

#define OUTBOX_SELECT							\
	"SELECT id, game_id, seq, channel, recipient, event, payload, "	\
	"status, attempts, next_attempt, last_error FROM outbox"

/* Row o is the oldest pending row of its (recipient, game) queue. */
#define WEBHOOK_HEAD							\
	"NOT EXISTS (SELECT 1 FROM outbox p WHERE p.status = 0 "	\
	"AND p.channel = 'webhook' AND p.recipient = o.recipient "	\
	"AND p.game_id IS o.game_id AND p.id < o.id)"
/* w, the registration of o (LEFT JOINed: a row whose registration is
 * gone is due, for the sender to give up), is not disabled. */
#define WEBHOOK_FROM							\
	" o LEFT JOIN webhooks w ON w.id = CAST(o.recipient AS INTEGER) "\
	"WHERE o.status = 0 AND o.channel = 'webhook' "			\
	"AND coalesce(w.state, 0) != 2 AND "

const char *const sq_outbox_sql[ST_COUNT] = {
	[ST_OUTBOX_ADD] = "INSERT INTO outbox (game_id, seq, channel, "
	    "recipient, event, payload, next_attempt, created) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	/* "status = 0" spelt out so that the partial index applies. */
	[ST_OUTBOX_DUE] = OUTBOX_SELECT " WHERE status = 0 "
	    "AND next_attempt <= ?1 ORDER BY id LIMIT ?2",
	[ST_OUTBOX_SENT] = "UPDATE outbox SET status = 1 "
	    "WHERE id = ?1 AND status = 0",
	[ST_OUTBOX_FAILED] = "UPDATE outbox SET attempts = attempts + 1, "
	    "next_attempt = ?2, last_error = ?3, status = ?4 "
	    "WHERE id = ?1 AND status = 0",
	[ST_OUTBOX_DEFER] = "UPDATE outbox SET next_attempt = ?2, "
	    "last_error = ?3 WHERE id = ?1 AND status = 0",
	[ST_OUTBOX_PENDING] = "SELECT count(*) FROM outbox WHERE status = 0",
	[ST_OUTBOX_PRUNE] = "DELETE FROM outbox WHERE id IN (SELECT id FROM "
	    "outbox WHERE status = 1 AND created < ?1 ORDER BY created LIMIT ?2)",
	/* Rows not yet delivered, each kind through its partial index
	 * (outbox_pending, outbox_failed): never the delivered rows. */
	[ST_OUTBOX_DEPTH] = "SELECT channel, 0, count(*) FROM outbox "
	    "WHERE status = 0 GROUP BY channel UNION ALL "
	    "SELECT channel, 2, count(*) FROM outbox WHERE status = 2 "
	    "GROUP BY channel",
	[ST_OUTBOX_DUE_CHANNEL] = OUTBOX_SELECT " WHERE status = 0 "
	    "AND next_attempt <= ?1 AND channel = ?3 ORDER BY id LIMIT ?2",
	/* The webhook queue.  "status = 0 AND channel = 'webhook'" spelt out
	 * so that the partial index webhook_queue applies. */
	[ST_WEBHOOK_DUE] = "SELECT o.id, o.game_id, o.seq, o.channel, "
	    "o.recipient, o.event, o.payload, o.status, o.attempts, "
	    "o.next_attempt, o.last_error FROM outbox" WEBHOOK_FROM
	    "o.next_attempt <= ?1 AND coalesce(w.retry_at, 0) <= ?1 AND "
	    WEBHOOK_HEAD " ORDER BY coalesce(w.failures, 0) > 0, o.id "
	    "LIMIT ?2",
	[ST_WEBHOOK_NEXT] = "SELECT min(max(o.next_attempt, "
	    "coalesce(w.retry_at, 0))) FROM outbox" WEBHOOK_FROM WEBHOOK_HEAD,
};

/*
 * A new row is always pending with no attempts, whatever o says;
 * o->game_id 0 means "about no game".
 */
enum store_status
store_outbox_add(struct store *st, struct store_outbox *o)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_OUTBOX_ADD)) == NULL)
		return STORE_ERROR;
	sq_bind_id(st, s, 1, o->game_id);
	sq_bind_int64(st, s, 2, o->seq);
	sq_bind_field(st, s, 3, o->channel, sizeof(o->channel));
	sq_bind_field(st, s, 4, o->recipient, sizeof(o->recipient));
	sq_bind_field(st, s, 5, o->event, sizeof(o->event));
	sq_bind_text(st, s, 6, o->payload);
	sq_bind_int64(st, s, 7, o->next_attempt);
	sq_bind_int64(st, s, 8, sq_now());
	if ((status = sq_run(st, s, "outbox add")) == STORE_OK)
		o->id = sq_last_id(st);
	return status;
}

static enum store_status
read_outbox(struct store *st, sqlite3_stmt *s, struct store_outbox *o)
{
	enum store_status	 status;

	memset(o, 0, sizeof(*o));
	o->id = sqlite3_column_int64(s, 0);
	o->status = sqlite3_column_int(s, 7);
	o->attempts = sqlite3_column_int(s, 8);
	o->next_attempt = sqlite3_column_int64(s, 9);
	if ((status = sq_col_id(st, s, 1, "outbox", &o->game_id)) != STORE_OK ||
	    (status = sq_col_id(st, s, 2, "outbox", &o->seq)) != STORE_OK ||
	    (status = sq_col_text(st, s, 3, "outbox", o->channel,
	    sizeof(o->channel))) != STORE_OK ||
	    (status = sq_col_text(st, s, 4, "outbox", o->recipient,
	    sizeof(o->recipient))) != STORE_OK ||
	    (status = sq_col_text(st, s, 5, "outbox", o->event,
	    sizeof(o->event))) != STORE_OK ||
	    (status = sq_col_text(st, s, 10, "outbox", o->last_error,
	    sizeof(o->last_error))) != STORE_OK ||
	    (status = sq_col_dup(st, s, 6, "outbox", &o->payload)) != STORE_OK)
		return status;
	return STORE_OK;
}

static void
outbox_free(struct store_outbox *rows, int n)
{
	int	 i;

	for (i = 0; i < n; i++)
		free(rows[i].payload);
	free(rows);
}

/* Read up to limit due rows of query id into a malloc'd array. */
static enum store_status
outbox_collect_by(struct store *st, enum stmt_id id, const char *channel,
    int64_t when, int limit, struct store_outbox **out, int *nout)
{
	enum store_status	 status;
	struct store_outbox	*rows = NULL, *grown;
	sqlite3_stmt		*s;
	int			 n = 0, cap = 0;

	*out = NULL;
	*nout = 0;
	if ((s = sq_stmt(st, id)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, when);
	sq_bind_int64(st, s, 2, limit);
	if (channel != NULL)
		sq_bind_text(st, s, 3, channel);
	while ((status = sq_step(st, s, "outbox due")) == STORE_OK) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			grown = reallocarray(rows, cap, sizeof(*rows));
			if (grown == NULL) {
				status = sq_nomem(st);
				break;
			}
			rows = grown;
		}
		if ((status = read_outbox(st, s, &rows[n])) != STORE_OK) {
			free(rows[n].payload);
			break;
		}
		n++;
	}
	sq_finish(s);
	if (status != STORE_NOTFOUND) {
		outbox_free(rows, n);
		return status;
	}
	*out = rows;
	*nout = n;
	return STORE_OK;
}

/*
 * The rows are read first and the query finished before the first
 * callback: delivery is slow (SMTP, webhooks), and a callback must be
 * free to call store_outbox_mark_sent() and friends on the rows it gets.
 */
enum store_status
store_outbox_due(struct store *st, int64_t when, int limit,
    store_outbox_cb cb, void *arg)
{
	return store_outbox_due_channel(st, NULL, when, limit, cb, arg);
}

/* The due rows of query id (bound as outbox_collect_by() binds them),
 * collected, then handed to cb one by one. */
static enum store_status
outbox_due_by(struct store *st, enum stmt_id id, const char *channel,
    int64_t when, int limit, store_outbox_cb cb, void *arg)
{
	enum store_status	 status;
	struct store_outbox	*rows;
	int			 i, n;

	if (limit <= 0)
		return STORE_OK;
	if ((status = outbox_collect_by(st, id, channel, when, limit, &rows,
	    &n)) != STORE_OK)
		return status;
	for (i = 0; i < n; i++)
		if (cb(&rows[i], arg) != 0)
			break;
	outbox_free(rows, n);
	return STORE_OK;
}

enum store_status
store_outbox_due_channel(struct store *st, const char *channel, int64_t when,
    int limit, store_outbox_cb cb, void *arg)
{
	return outbox_due_by(st, channel != NULL ? ST_OUTBOX_DUE_CHANNEL :
	    ST_OUTBOX_DUE, channel, when, limit, cb, arg);
}

enum store_status
store_outbox_mark_sent(struct store *st, int64_t id)
{
	sqlite3_stmt	*s;
	char		 msg[64];

	if ((s = sq_stmt(st, ST_OUTBOX_SENT)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	snprintf(msg, sizeof(msg), "no pending outbox row %lld",
	    (long long)id);
	return sq_update_one(st, s, "outbox sent", msg);
}

enum store_status
store_outbox_mark_failed(struct store *st, int64_t id, int64_t next_attempt,
    int permanent, const char *why)
{
	sqlite3_stmt	*s;
	char		 msg[64];

	if ((s = sq_stmt(st, ST_OUTBOX_FAILED)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	sq_bind_int64(st, s, 2, next_attempt);
	sq_bind_error(st, s, 3, why);
	sq_bind_int64(st, s, 4, permanent ? STORE_OUTBOX_FAILED :
	    STORE_OUTBOX_PENDING);
	snprintf(msg, sizeof(msg), "no pending outbox row %lld",
	    (long long)id);
	return sq_update_one(st, s, "outbox failed", msg);
}

enum store_status
store_outbox_defer(struct store *st, int64_t id, int64_t next_attempt,
    const char *why)
{
	sqlite3_stmt	*s;
	char		 msg[64];

	if ((s = sq_stmt(st, ST_OUTBOX_DEFER)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	sq_bind_int64(st, s, 2, next_attempt);
	sq_bind_error(st, s, 3, why);
	snprintf(msg, sizeof(msg), "no pending outbox row %lld",
	    (long long)id);
	return sq_update_one(st, s, "outbox defer", msg);
}

enum store_status
store_outbox_pending(struct store *st, int64_t *count)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*count = 0;
	if ((s = sq_stmt(st, ST_OUTBOX_PENDING)) == NULL)
		return STORE_ERROR;
	if ((status = sq_step(st, s, "outbox pending")) == STORE_OK)
		*count = sqlite3_column_int64(s, 0);
	sq_finish(s);
	return status;
}

struct depth_row {
	char	channel[16];
	int	status;
	int64_t	count;
};

/* The rows are read and the query finished before the first callback,
 * as for store_outbox_due(). */
enum store_status
store_outbox_depth(struct store *st, store_outbox_depth_cb cb, void *arg)
{
	enum store_status	 status;
	struct depth_row	*rows = NULL, *grown;
	const unsigned char	*channel;
	sqlite3_stmt		*s;
	int			 i, n = 0, cap = 0;

	if ((s = sq_stmt(st, ST_OUTBOX_DEPTH)) == NULL)
		return STORE_ERROR;
	while ((status = sq_step(st, s, "outbox depth")) == STORE_OK) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			if ((grown = reallocarray(rows, cap, sizeof(*rows))) ==
			    NULL) {
				status = sq_nomem(st);
				break;
			}
			rows = grown;
		}
		channel = sqlite3_column_text(s, 0);
		snprintf(rows[n].channel, sizeof(rows[n].channel), "%s",
		    channel != NULL ? (const char *)channel : "");
		rows[n].status = sqlite3_column_int(s, 1);
		rows[n].count = sqlite3_column_int64(s, 2);
		n++;
	}
	sq_finish(s);
	if (status == STORE_NOTFOUND) {
		status = STORE_OK;
		for (i = 0; i < n; i++)
			if (cb(rows[i].channel, rows[i].status, rows[i].count,
			    arg) != 0)
				break;
	}
	free(rows);
	return status;
}

/* ---- The webhook queue ------------------------------------------------ */

enum store_status
store_outbox_webhook_due(struct store *st, int64_t when, int limit,
    store_outbox_cb cb, void *arg)
{
	return outbox_due_by(st, ST_WEBHOOK_DUE, NULL, when, limit, cb, arg);
}

enum store_status
store_outbox_webhook_next(struct store *st, int64_t *when)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*when = 0;
	if ((s = sq_stmt(st, ST_WEBHOOK_NEXT)) == NULL)
		return STORE_ERROR;
	if ((status = sq_step(st, s, "webhook next")) == STORE_OK) {
		if (sqlite3_column_type(s, 0) == SQLITE_NULL)
			status = STORE_NOTFOUND;
		else
			*when = sqlite3_column_int64(s, 0);
	}
	sq_finish(s);
	return status;
}

enum store_status
store_outbox_prune(struct store *st, int64_t before, int limit, int *removed)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*removed = 0;
	if ((s = sq_stmt(st, ST_OUTBOX_PRUNE)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, before);
	sq_bind_int64(st, s, 2, limit);
	if ((status = sq_run(st, s, "outbox prune")) == STORE_OK)
		*removed = sq_changes(st);
	return status;
}

/* ---- The administrator's queue (pbemctl queue) --------------------------- */

enum store_status
store_outbox_queue(struct store *st, int64_t after, int limit,
    store_outbox_cb cb, void *arg)
{
	enum store_status	 status;
	struct store_outbox	 o;
	sqlite3_stmt		*s;

	if ((s = store_sqlite_prepare(st, OUTBOX_SELECT " WHERE (status = 0 "
	    "OR status = 2) AND id > ?1 ORDER BY id LIMIT ?2",
	    "outbox queue")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, after);
	sqlite3_bind_int(s, 2, limit);
	while ((status = sq_step(st, s, "outbox queue")) == STORE_OK) {
		if ((status = read_outbox(st, s, &o)) != STORE_OK) {
			free(o.payload);
			break;
		}
		status = cb(&o, arg) != 0 ? STORE_ERROR : STORE_OK;
		free(o.payload);
		if (status != STORE_OK) {
			sq_err(st, "outbox queue: stopped by the caller");
			break;
		}
	}
	store_sqlite_done(st, s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

/* Run an UPDATE or DELETE of row id that must match exactly one row. */
static enum store_status
queue_change(struct store *st, const char *sql, int64_t id, int64_t now,
    const char *what)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = store_sqlite_prepare(st, sql, what)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_bind_parameter_count(s) >= 2)
		sqlite3_bind_int64(s, 2, now);
	status = sq_step(st, s, what);
	store_sqlite_done(st, s);
	if (status == STORE_NOTFOUND)
		status = STORE_OK;
	if (status == STORE_OK && sq_changes(st) != 1) {
		sq_err(st, "outbox row %lld is not waiting (no such row, or "
		    "already delivered)", (long long)id);
		return STORE_NOTFOUND;
	}
	return status;
}

enum store_status
store_outbox_retry(struct store *st, int64_t id, int64_t now)
{
	return queue_change(st, "UPDATE outbox SET status = 0, attempts = 0, "
	    "next_attempt = ?2, last_error = '' WHERE id = ?1 AND "
	    "(status = 0 OR status = 2)", id, now, "outbox retry");
}

enum store_status
store_outbox_retry_all(struct store *st, int64_t now, int64_t *count)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*count = 0;
	if ((s = store_sqlite_prepare(st, "UPDATE outbox SET status = 0, "
	    "attempts = 0, next_attempt = ?1, last_error = '' WHERE "
	    "status = 0 OR status = 2", "outbox retry all")) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(s, 1, now);
	status = sq_step(st, s, "outbox retry all");
	store_sqlite_done(st, s);
	if (status == STORE_NOTFOUND)
		status = STORE_OK;
	if (status == STORE_OK)
		*count = sq_changes(st);
	return status;
}

enum store_status
store_outbox_drop(struct store *st, int64_t id)
{
	return queue_change(st, "DELETE FROM outbox WHERE id = ?1 AND "
	    "(status = 0 OR status = 2)", id, 0, "outbox drop");
}
