/*
 * sse.c -- Server-Sent Events streams of the event routes (see sse.h;
 * docs/API.md, "Events").
 *
 * The stream is a libmicrohttpd response from a content reader
 * (stream_read).  Each time libmicrohttpd wants bytes the reader sends
 * what is left of its frames; when there is nothing left it re-arms its
 * waiter (before reading, so a commit from then on is not missed), reads
 * the next page of events, and if there is none sends a keep-alive when
 * one is due, or else suspends the connection and returns 0 bytes:
 * libmicrohttpd calls it again when a commit or the timer resumes it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "events.h"
#include "sse.h"

/* A keep-alive comment at least this often (and at most every half of
 * http_timeout, libmicrohttpd's idle timeout). */
#define SSE_KEEPALIVE_MAX_SECONDS	15
/* How long a client should wait before it reconnects (the retry: line). */
#define SSE_RETRY_MS			3000

struct sse_stream {
	struct daemon	*d;
	struct evwait	*waiter;
	sse_fetch_fn	 fetch;
	int64_t		 game_id;
	int64_t		 cursor;	/* the last event's id sent */
	int64_t		 keepalive_ms;
	int64_t		 next_keepalive_ms;	/* CLOCK_MONOTONIC */
	int64_t		 end_ms;		/* CLOCK_MONOTONIC */
	int		 ending;	/* send what is left, then end */
	struct sse_text	 out;
};

static int64_t
monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
append(struct sse_text *t, const char *bytes, size_t n)
{
	char *grown;

	if ((grown = realloc(t->bytes, t->len + n + 1)) == NULL)
		return -1;
	t->bytes = grown;
	memcpy(t->bytes + t->len, bytes, n);
	t->len += n;
	t->bytes[t->len] = '\0';
	return 0;
}

int
sse_append_event(struct sse_text *t, int64_t id, const char *type,
    json_t *data)
{
	char head[128], *json;
	int n, rc;

	/* Compact JSON has no line break: jansson escapes them in strings. */
	if ((json = json_dumps(data, JSON_COMPACT | JSON_SORT_KEYS)) == NULL)
		return -1;
	n = snprintf(head, sizeof(head), "id: %lld\nevent: %s\ndata: ",
	    (long long)id, type);
	rc = n < 0 || (size_t)n >= sizeof(head) ? -1 :
	    append(t, head, (size_t)n);
	if (rc == 0)
		rc = append(t, json, strlen(json));
	if (rc == 0)
		rc = append(t, "\n\n", 2);
	free(json);
	return rc;
}

const char *
sse_event_type(int kind)
{
	static const char *const types[] = {
		[STORE_ENTRY_GENESIS] = "genesis",
		[STORE_ENTRY_MOVE] = "move",
		[STORE_ENTRY_AUTO] = "auto",
		[STORE_ENTRY_SKIP] = "skip",
		[STORE_ENTRY_RESIGN] = "resign",
		[STORE_ENTRY_REPLACE] = "replace",
		[STORE_ENTRY_CALL_OFF] = "call_off",
		[STORE_ENTRY_HOSTED_MAIL] = "move",
		[STORE_ENTRY_HOSTED_WEB] = "move",
		[STORE_ENTRY_BOT] = "bot",
		[STORE_ENTRY_DELEGATION] = "delegation",
		[STORE_ENTRY_REVOCATION] = "revocation",
		[STORE_ENTRY_DELEGATED] = "move",
	};

	if (kind < 0 || (size_t)kind >= sizeof(types) / sizeof(types[0]) ||
	    types[kind] == NULL)
		return "entry";
	return types[kind];
}

int
sse_wanted(struct api_request *req)
{
	const char *accept = MHD_lookup_connection_value(req->conn,
	    MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	const char *p;

	if (accept == NULL)
		return 0;
	/* One media range of the list, compared without its parameters. */
	for (p = accept; *p != '\0'; p += strcspn(p, ",")) {
		if (*p == ',')
			p++;
		p += strspn(p, " \t");
		if (strncasecmp(p, "text/event-stream", 17) == 0 &&
		    strchr(",; \t", p[17]) != NULL)
			return 1;
	}
	return 0;
}

int
sse_last_event_id(struct api_request *req, int64_t min, int64_t *cursor,
    enum MHD_Result *answered)
{
	const char *text = MHD_lookup_connection_value(req->conn,
	    MHD_HEADER_KIND, "Last-Event-ID");
	char msg[200], *end;
	long long n;

	if (text == NULL)
		return 0;
	n = strtoll(text, &end, 10);
	if (*text == '\0' || *end != '\0' || n < min || n == LLONG_MAX) {
		snprintf(msg, sizeof(msg), "Last-Event-ID: %.40s: expected "
		    "the id: of an event this stream sent (a whole number "
		    "from %lld)", text, (long long)min);
		*answered = api_send_error(req, MHD_HTTP_BAD_REQUEST,
		    "bad_request", msg, NULL);
		return -1;
	}
	*cursor = n;
	return 0;
}

/* Refill s->out: events, a keep-alive, or the end.  1 if there is
 * something to send or the stream ends, 0 if the connection was
 * suspended (nothing to send until resumed). */
static int
refill(struct sse_stream *s)
{
	struct evhub *hub = s->d->events;
	struct store *st;
	int64_t now, wait_ms;

	for (;;) {
		now = monotonic_ms();
		if (evhub_stopping(hub) || atomic_load(&s->d->stopping) ||
		    now >= s->end_ms) {
			s->ending = 1;
			return 1;
		}
		wait_ms = s->next_keepalive_ms - now;
		evhub_rearm(hub, s->waiter, wait_ms <= 0 ? 1 :
		    (wait_ms + 999) / 1000);
		if ((st = daemon_store(s->d)) == NULL ||
		    s->fetch(st, s->game_id, &s->cursor, &s->out) != 0) {
			s->ending = 1;
			return 1;
		}
		if (s->out.len > 0) {
			s->next_keepalive_ms = now + s->keepalive_ms;
			return 1;
		}
		if (now >= s->next_keepalive_ms) {
			s->next_keepalive_ms = now + s->keepalive_ms;
			if (append(&s->out, ": keep-alive\n\n", 14) != 0)
				s->ending = 1;
			return 1;
		}
		if (evhub_suspend(hub, s->waiter) == 0)
			return 0;
		/* Woken since the re-arm, or stopping: look again. */
	}
}

static ssize_t
stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct sse_stream *s = cls;
	size_t n;

	(void)pos;
	if (s->out.sent == s->out.len) {
		free(s->out.bytes);
		memset(&s->out, 0, sizeof(s->out));
		if (s->ending)
			return MHD_CONTENT_READER_END_OF_STREAM;
		if (refill(s) == 0)
			return 0;	/* suspended */
		if (s->out.len == 0)
			return MHD_CONTENT_READER_END_OF_STREAM;
	}
	n = s->out.len - s->out.sent;
	if (n > max)
		n = max;
	memcpy(buf, s->out.bytes + s->out.sent, n);
	s->out.sent += n;
	return (ssize_t)n;
}

static void
stream_free(void *cls)
{
	struct sse_stream *s = cls;

	evhub_forget(s->waiter);
	free(s->out.bytes);
	free(s);
}

enum MHD_Result
sse_start(struct api_request *req, int64_t game_id, int64_t cursor,
    sse_fetch_fn fetch)
{
	struct sse_stream *s;
	int64_t idle_seconds, keepalive, now = monotonic_ms();
	char retry[32];

	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (s->waiter = evhub_register(req->d->events, req->conn, game_id,
	    1)) == NULL) {
		free(s);
		return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    "out of memory; try again", NULL);
	}
	s->d = req->d;
	s->fetch = fetch;
	s->game_id = game_id;
	s->cursor = cursor;
	idle_seconds = config_int(req->d->cfg, "http_timeout");
	keepalive = idle_seconds / 2 < SSE_KEEPALIVE_MAX_SECONDS ?
	    idle_seconds / 2 : SSE_KEEPALIVE_MAX_SECONDS;
	s->keepalive_ms = (keepalive < 1 ? 1 : keepalive) * 1000;
	s->next_keepalive_ms = now + s->keepalive_ms;
	s->end_ms = now + config_int(req->d->cfg, "http_stream_max_seconds") *
	    1000;
	snprintf(retry, sizeof(retry), "retry: %d\n\n", SSE_RETRY_MS);
	if (append(&s->out, retry, strlen(retry)) != 0) {
		stream_free(s);
		return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    "out of memory; try again", NULL);
	}
	api_add_header(req, "Cache-Control", "no-cache");
	api_add_header(req, "X-Accel-Buffering", "no");
	return api_send_stream(req, "text/event-stream; charset=utf-8",
	    stream_read, s, stream_free);
}
