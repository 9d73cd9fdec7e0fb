/*
 * store_webhooks.c -- webhook registrations (table webhooks): store.h's
 * store_webhook_* calls (docs/WEBHOOKS.md).
 *
 * A registration's deliveries are outbox rows with channel "webhook" and
 * the registration's id, in decimal, for recipient; store_outbox.c
 * orders them.  Here: adding, reading (with the count of pending rows),
 * removing (which gives up its pending rows in the same unit), and the
 * state kept from each delivery's outcome.
 */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

#define WEBHOOK_SELECT						\
	"SELECT w.id, w.game_id, w.url, w.secret, w.events, w.state, "	\
	"w.failures, w.last_error, w.last_success, w.created, "	\
	"w.player_id, w.retry_at, w.format, w.lang"
#define WEBHOOK_PENDING							\
	"(SELECT count(*) FROM outbox q WHERE q.status = 0 "		\
	"AND q.channel = 'webhook' AND q.recipient = CAST(w.id AS TEXT))"

const char *const sq_webhooks_sql[ST_COUNT] = {
	[ST_WEBHOOK_ADD] = "INSERT INTO webhooks (game_id, url, secret, "
	    "events, created, player_id, format, lang) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[ST_WEBHOOK_GET] = WEBHOOK_SELECT ", " WEBHOOK_PENDING
	    " FROM webhooks w WHERE w.id = ?1",
	[ST_WEBHOOK_ALL] = WEBHOOK_SELECT ", " WEBHOOK_PENDING
	    " FROM webhooks w ORDER BY w.id",
	[ST_WEBHOOK_FOR_GAME] = WEBHOOK_SELECT " FROM webhooks w "
	    "WHERE w.game_id IS NULL OR w.game_id = ?1 ORDER BY w.id",
	[ST_WEBHOOK_DELETE] = "DELETE FROM webhooks WHERE id = ?1",
	[ST_WEBHOOK_GIVE_UP] = "UPDATE outbox SET status = 2, "
	    "last_error = 'webhook removed' WHERE status = 0 "
	    "AND channel = 'webhook' AND recipient = CAST(?1 AS TEXT)",
	[ST_WEBHOOK_STATE] = "UPDATE webhooks SET state = ?2, "
	    "failures = CASE WHEN ?2 = 0 THEN 0 ELSE failures END "
	    "WHERE id = ?1",
	[ST_WEBHOOK_DELIVERED] = "UPDATE webhooks SET state = 0, "
	    "failures = 0, last_success = ?2, retry_at = 0 "
	    "WHERE id = ?1 AND state != 2",
	[ST_WEBHOOK_FAILED] = "UPDATE webhooks SET failures = failures + 1, "
	    "last_error = ?3, retry_at = max(retry_at, ?4), "
	    "state = CASE WHEN state = 0 AND "
	    "failures + 1 >= ?2 THEN 1 ELSE state END WHERE id = ?1 "
	    "RETURNING state",
	[ST_WEBHOOK_COUNT_GAME] = "SELECT count(*) FROM webhooks "
	    "WHERE game_id = ?1 AND player_id IS NOT NULL",
	[ST_WEBHOOK_COUNT_PLAYER] = "SELECT count(*) FROM webhooks "
	    "WHERE player_id = ?1",
	[ST_WEBHOOK_PAGE] = WEBHOOK_SELECT ", " WEBHOOK_PENDING
	    " FROM webhooks w WHERE w.id > ?1 "
	    "AND (?2 < 0 OR w.game_id = ?2) AND (?3 = 0 OR w.player_id = ?3) "
	    "ORDER BY w.id LIMIT ?4",
};

enum store_status
store_webhook_add(struct store *st, struct store_webhook *w)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_WEBHOOK_ADD)) == NULL)
		return STORE_ERROR;
	w->created = sq_now();
	sq_bind_id(st, s, 1, w->game_id);
	sq_bind_field(st, s, 2, w->url, sizeof(w->url));
	sq_bind_field(st, s, 3, w->secret, sizeof(w->secret));
	sq_bind_field(st, s, 4, w->events, sizeof(w->events));
	sq_bind_int64(st, s, 5, w->created);
	sq_bind_id(st, s, 6, w->player_id);
	if (w->format[0] == '\0')
		snprintf(w->format, sizeof(w->format), "pbem");
	if (w->lang[0] == '\0')
		snprintf(w->lang, sizeof(w->lang), "en");
	sq_bind_field(st, s, 7, w->format, sizeof(w->format));
	sq_bind_field(st, s, 8, w->lang, sizeof(w->lang));
	if ((status = sq_run(st, s, "webhook add")) != STORE_OK)
		return status;
	w->id = sq_last_id(st);
	w->state = STORE_WEBHOOK_ACTIVE;
	w->failures = 0;
	w->last_error[0] = '\0';
	w->last_success = 0;
	w->pending = 0;
	w->retry_at = 0;
	return STORE_OK;
}

static enum store_status
read_webhook(struct store *st, sqlite3_stmt *s, struct store_webhook *w)
{
	enum store_status	 status;

	memset(w, 0, sizeof(*w));
	w->id = sqlite3_column_int64(s, 0);
	w->state = sqlite3_column_int(s, 5);
	w->failures = sqlite3_column_int(s, 6);
	w->last_success = sqlite3_column_int64(s, 8);
	w->created = sqlite3_column_int64(s, 9);
	w->retry_at = sqlite3_column_int64(s, 11);
	w->pending = sqlite3_column_count(s) > 14 ?
	    sqlite3_column_int64(s, 14) : -1;
	if ((status = sq_col_id(st, s, 1, "webhooks", &w->game_id)) !=
	    STORE_OK ||
	    (status = sq_col_id(st, s, 10, "webhooks", &w->player_id)) !=
	    STORE_OK ||
	    (status = sq_col_text(st, s, 2, "webhooks", w->url,
	    sizeof(w->url))) != STORE_OK ||
	    (status = sq_col_text(st, s, 3, "webhooks", w->secret,
	    sizeof(w->secret))) != STORE_OK ||
	    (status = sq_col_text(st, s, 4, "webhooks", w->events,
	    sizeof(w->events))) != STORE_OK ||
	    (status = sq_col_text(st, s, 7, "webhooks", w->last_error,
	    sizeof(w->last_error))) != STORE_OK ||
	    (status = sq_col_text(st, s, 12, "webhooks", w->format,
	    sizeof(w->format))) != STORE_OK ||
	    (status = sq_col_text(st, s, 13, "webhooks", w->lang,
	    sizeof(w->lang))) != STORE_OK)
		return status;
	return STORE_OK;
}

enum store_status
store_webhook_get(struct store *st, int64_t id, struct store_webhook *w)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	memset(w, 0, sizeof(*w));
	if ((s = sq_stmt(st, ST_WEBHOOK_GET)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	if ((status = sq_step(st, s, "webhook get")) == STORE_OK)
		status = read_webhook(st, s, w);
	else if (status == STORE_NOTFOUND)
		sq_err(st, "no webhook %lld", (long long)id);
	sq_finish(s);
	return status;
}

/* Call cb for each registration s selects, until it returns non-zero;
 * s is finished. */
static enum store_status
walk(struct store *st, sqlite3_stmt *s, const char *what,
    store_webhook_cb cb, void *arg)
{
	enum store_status	 status;
	struct store_webhook	 w;

	while ((status = sq_step(st, s, what)) == STORE_OK) {
		if ((status = read_webhook(st, s, &w)) != STORE_OK)
			break;
		if (cb(&w, arg) != 0)
			break;
	}
	sq_finish(s);
	return status == STORE_NOTFOUND ? STORE_OK : status;
}

enum store_status
store_webhook_foreach(struct store *st, int64_t game_id,
    store_webhook_cb cb, void *arg)
{
	sqlite3_stmt *s;

	s = sq_stmt(st, game_id > 0 ? ST_WEBHOOK_FOR_GAME : ST_WEBHOOK_ALL);
	if (s == NULL)
		return STORE_ERROR;
	if (game_id > 0)
		sq_bind_int64(st, s, 1, game_id);
	return walk(st, s, "webhook foreach", cb, arg);
}

enum store_status
store_webhook_page(struct store *st, const struct store_webhook_query *q,
    store_webhook_cb cb, void *arg)
{
	sqlite3_stmt *s;

	if ((s = sq_stmt(st, ST_WEBHOOK_PAGE)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, q->after);
	sq_bind_int64(st, s, 2, q->game_id);
	sq_bind_int64(st, s, 3, q->player_id);
	sq_bind_int64(st, s, 4, q->limit);
	return walk(st, s, "webhook page", cb, arg);
}

enum store_status
store_webhook_remove(struct store *st, int64_t id)
{
	enum store_status	 status;
	sqlite3_stmt		*s;
	char			 msg[64];
	int			 own;

	if ((status = sq_op_begin(st, &own)) != STORE_OK)
		return status;
	if ((s = sq_stmt(st, ST_WEBHOOK_GIVE_UP)) == NULL)
		return sq_op_end(st, own, STORE_ERROR);
	sq_bind_int64(st, s, 1, id);
	if ((status = sq_run(st, s, "webhook give up")) != STORE_OK)
		return sq_op_end(st, own, status);
	if ((s = sq_stmt(st, ST_WEBHOOK_DELETE)) == NULL)
		return sq_op_end(st, own, STORE_ERROR);
	sq_bind_int64(st, s, 1, id);
	snprintf(msg, sizeof(msg), "no webhook %lld", (long long)id);
	return sq_op_end(st, own, sq_update_one(st, s, "webhook remove", msg));
}

enum store_status
store_webhook_set_state(struct store *st, int64_t id, int state)
{
	sqlite3_stmt	*s;
	char		 msg[64];

	if ((s = sq_stmt(st, ST_WEBHOOK_STATE)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	sq_bind_int64(st, s, 2, state);
	snprintf(msg, sizeof(msg), "no webhook %lld", (long long)id);
	return sq_update_one(st, s, "webhook state", msg);
}

/* A disabled registration stays disabled: NOTFOUND is then no error. */
enum store_status
store_webhook_delivered(struct store *st, int64_t id, int64_t when)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_WEBHOOK_DELIVERED)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	sq_bind_int64(st, s, 2, when);
	return sq_run(st, s, "webhook delivered");
}

enum store_status
store_webhook_failed(struct store *st, int64_t id, int failing_after,
    const char *why, int64_t retry_at, int *state)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if ((s = sq_stmt(st, ST_WEBHOOK_FAILED)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, id);
	sq_bind_int64(st, s, 2, failing_after);
	sq_bind_error(st, s, 3, why);
	sq_bind_int64(st, s, 4, retry_at);
	if ((status = sq_step(st, s, "webhook failed")) == STORE_OK)
		*state = sqlite3_column_int(s, 0);
	else if (status == STORE_NOTFOUND)
		sq_err(st, "no webhook %lld", (long long)id);
	sq_finish(s);
	return status;
}

enum store_status
store_webhook_count(struct store *st, int64_t game_id, int64_t player_id,
    int64_t *count)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	*count = 0;
	s = sq_stmt(st, game_id > 0 ? ST_WEBHOOK_COUNT_GAME :
	    ST_WEBHOOK_COUNT_PLAYER);
	if (s == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id > 0 ? game_id : player_id);
	if ((status = sq_step(st, s, "webhook count")) == STORE_OK)
		*count = sqlite3_column_int64(s, 0);
	sq_finish(s);
	return status;
}
