/*
 * store_mail.c -- the mail gateway's bookkeeping (tables mail_seen,
 * mail_rate and mail_attempt): store.h's store_mail_* calls.
 *
 * mail_seen remembers every inbound Message-ID and its outcome, so that a
 * message fetched twice is handled once, and for a played move names the
 * log entry (store_mail_seen_move).  mail_rate counts the replies to one
 * address in the current window, in one statement so that two processes
 * counting at once cannot both take the last reply (docs/MAIL.md);
 * replies to verified and to unverified senders are counted apart.
 * mail_send_rate counts the same way the mails the sender sends to one
 * address (mail_send_per_hour), so that no address gets a flood.
 * mail_attempt holds the messages being processed now: a row that stays
 * is a message the process died on.
 */
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

const char *const sq_mail_sql[ST_COUNT] = {
	[ST_MAIL_SEEN_ADD] = "INSERT INTO mail_seen (message_id, received, "
	    "outcome, game_id, seq) VALUES (?1, ?2, ?3, ?4, ?5)",
	[ST_MAIL_SEEN_GET] = "SELECT message_id, outcome FROM mail_seen "
	    "WHERE message_id = ?1",
	[ST_MAIL_SEEN_MOVE] = "SELECT message_id FROM mail_seen "
	    "WHERE game_id = ?1 AND seq = ?2 LIMIT 1",
	/* One statement, so two processes counting at once cannot both
	 * take the last reply of a window. */
	[ST_MAIL_RATE] = "INSERT INTO mail_rate (address, sender_verified, "
	    "window_start, count) VALUES (?1, ?4, ?2, 1) "
	    "ON CONFLICT (address, sender_verified) DO UPDATE SET "
	    "count = CASE WHEN window_start <= ?2 - ?3 THEN 1 "
	    "ELSE count + 1 END, "
	    "window_start = CASE WHEN window_start <= ?2 - ?3 THEN ?2 "
	    "ELSE window_start END "
	    "RETURNING count",
	/* The same count for mails sent (mail_sender.c), with the window's
	 * start so that a row over the cap waits until the window ends. */
	[ST_MAIL_SEND_RATE] = "INSERT INTO mail_send_rate (address, "
	    "window_start, count) VALUES (?1, ?2, 1) "
	    "ON CONFLICT (address) DO UPDATE SET "
	    "count = CASE WHEN window_start <= ?2 - ?3 THEN 1 "
	    "ELSE count + 1 END, "
	    "window_start = CASE WHEN window_start <= ?2 - ?3 THEN ?2 "
	    "ELSE window_start END "
	    "RETURNING count, window_start",
	[ST_MAIL_ATTEMPT_BEGIN] = "INSERT INTO mail_attempt (content_hash, "
	    "started, pid) VALUES (?1, ?2, ?3)",
	[ST_MAIL_ATTEMPT_END] = "DELETE FROM mail_attempt "
	    "WHERE content_hash = ?1",
};

enum store_status
store_mail_seen_add(struct store *st, const char *message_id,
    int64_t game_id, int64_t seq, const char *outcome)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_MAIL_SEEN_ADD)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, message_id);
	sq_bind_int64(st, s, 2, sq_now());
	sq_bind_text(st, s, 3, outcome);
	sq_bind_id(st, s, 4, game_id);
	if (game_id == 0)
		sq_bind_check(st, sqlite3_bind_null(s, 5));
	else
		sq_bind_int64(st, s, 5, seq);
	return sq_run(st, s, "mail seen add");
}

enum store_status
store_mail_seen_get(struct store *st, const char *message_id,
    char *outcome, size_t outcomelen)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if (outcomelen > 0)
		outcome[0] = '\0';
	if ((s = sq_stmt(st, ST_MAIL_SEEN_GET)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, message_id);
	if ((status = sq_step(st, s, "mail seen get")) == STORE_OK)
		status = sq_col_text(st, s, 1, "mail_seen", outcome, outcomelen);
	sq_finish(s);
	return status;
}

enum store_status
store_mail_seen_move(struct store *st, int64_t game_id, int64_t seq,
    char *message_id, size_t idlen)
{
	enum store_status	 status;
	sqlite3_stmt		*s;

	if (idlen > 0)
		message_id[0] = '\0';
	if ((s = sq_stmt(st, ST_MAIL_SEEN_MOVE)) == NULL)
		return STORE_ERROR;
	sq_bind_int64(st, s, 1, game_id);
	sq_bind_int64(st, s, 2, seq);
	if ((status = sq_step(st, s, "mail seen move")) == STORE_OK)
		status = sq_col_text(st, s, 0, "mail_seen", message_id, idlen);
	sq_finish(s);
	return status;
}

enum store_status
store_mail_rate_take(struct store *st, const char *address, int verified,
    int64_t when, int64_t window, int max, int *allowed)
{
	enum store_status	 status;
	sqlite3_stmt		*s;
	int64_t			 count = 0;

	*allowed = 0;
	if ((s = sq_stmt(st, ST_MAIL_RATE)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, address);
	sq_bind_int64(st, s, 2, when);
	sq_bind_int64(st, s, 3, window);
	sq_bind_int64(st, s, 4, verified ? 1 : 0);
	if ((status = sq_step(st, s, "mail rate")) == STORE_OK)
		count = sqlite3_column_int64(s, 0);
	sq_finish(s);
	if (status == STORE_OK)
		*allowed = count <= max;
	return status;
}

enum store_status
store_mail_send_take(struct store *st, const char *address, int64_t when,
    int64_t window, int max, int *allowed, int64_t *window_end)
{
	enum store_status	 status;
	sqlite3_stmt		*s;
	int64_t			 count = 0, start = when;

	*allowed = 0;
	*window_end = when + window;
	if ((s = sq_stmt(st, ST_MAIL_SEND_RATE)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, address);
	sq_bind_int64(st, s, 2, when);
	sq_bind_int64(st, s, 3, window);
	if ((status = sq_step(st, s, "mail send rate")) == STORE_OK) {
		count = sqlite3_column_int64(s, 0);
		start = sqlite3_column_int64(s, 1);
	}
	sq_finish(s);
	if (status == STORE_OK) {
		*allowed = count <= max;
		*window_end = start + window;
	}
	return status;
}

enum store_status
store_mail_attempt_begin(struct store *st, const char *content_hash,
    int64_t pid)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_MAIL_ATTEMPT_BEGIN)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, content_hash);
	sq_bind_int64(st, s, 2, sq_now());
	sq_bind_int64(st, s, 3, pid);
	return sq_run(st, s, "mail attempt begin");
}

enum store_status
store_mail_attempt_end(struct store *st, const char *content_hash)
{
	sqlite3_stmt	*s;

	if ((s = sq_stmt(st, ST_MAIL_ATTEMPT_END)) == NULL)
		return STORE_ERROR;
	sq_bind_text(st, s, 1, content_hash);
	return sq_run(st, s, "mail attempt end");
}
