/*
 * webhook_deliver.c -- pbemd's webhook delivery thread (daemon.h).
 *
 * One thread with its own store connection.  Each round it takes the due
 * webhook rows that head their (registration, game) queue -- so a later
 * event never overtakes an earlier one of the same game and receiver --
 * POSTs them all at once with libcurl's multi interface (each with
 * "webhook_timeout"), then records every outcome in one transaction:
 * a 2xx answer marks the row sent; anything else counts a failed
 * attempt and schedules the row again after webhook_backoff(), and a
 * registration that fails "webhook_failing_after" times in a row is
 * marked failing (and logged) but still retried.  Moves never wait for
 * any of this: they only queue rows.
 *
 * Rows exist only once their move has committed, and a row is marked
 * sent only after its receiver said 2xx, so a crash loses nothing; a
 * crash between the 2xx and the mark sends that one row again, with the
 * same delivery id (at-least-once; docs/WEBHOOKS.md).
 *
 * Waking: store_set_commit_hook() calls webhook_committed() after every
 * commit; if that thread queued webhook rows, the delivery thread is
 * signalled.  Otherwise it sleeps until the earliest retry is due, or
 * "webhook_poll" seconds (rows queued by another process, pbemctl).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <sodium.h>

#include "config.h"
#include "notify.h"
#include "webhook.h"

#define BATCH_MAX	32	/* rows POSTed at once */

struct webhook_worker {
	struct daemon	*d;
	pthread_t	 thread;
	pthread_mutex_t	 lock;
	pthread_cond_t	 wake;
	int		 poked;		/* under lock */
	int		 stopping;	/* under lock */
	/* Settings, read once at start. */
	long		 timeout;
	int64_t		 retry_base, retry_max, poll;
	int		 failing_after;
};

/* One row being delivered. */
struct job {
	struct store_outbox	 row;		/* payload owned */
	struct store_webhook	 hook;
	char			*body;
	CURL			*easy;
	struct curl_slist	*headers;
	char			 error[CURL_ERROR_SIZE];
	CURLcode		 result;
	long			 http_status;
};

struct batch {
	struct store	*st;
	struct job	 jobs[BATCH_MAX];
	int		 n;
};

static void
job_clear(struct job *j)
{
	if (j->easy != NULL)
		curl_easy_cleanup(j->easy);
	curl_slist_free_all(j->headers);
	free(j->row.payload);
	free(j->body);
	sodium_memzero(j->hook.secret, sizeof(j->hook.secret));
	memset(j, 0, sizeof(*j));
}

/* A row that can never be delivered: give it up now, with the reason. */
static void
give_up(struct store *st, const struct store_outbox *o, const char *why)
{
	log_warnx("webhook: delivery %lld given up: %s", (long long)o->id,
	    why);
	if (store_outbox_mark_failed(st, o->id, o->next_attempt, 1, why) !=
	    STORE_OK)
		log_warnx("webhook: store: %s", store_errmsg(st));
}

/* store_outbox_webhook_due() callback: keep a copy of the row with its
 * registration and body. */
static int
take_row(const struct store_outbox *o, void *arg)
{
	struct batch *b = arg;
	struct job *j = &b->jobs[b->n];
	char why[160], *end;
	long long id;

	memset(j, 0, sizeof(*j));
	id = strtoll(o->recipient, &end, 10);
	if (*end != '\0' || id <= 0 ||
	    store_webhook_get(b->st, id, &j->hook) != STORE_OK) {
		snprintf(why, sizeof(why), "no webhook \"%.32s\"", o->recipient);
		give_up(b->st, o, why);
		return 0;
	}
	j->row = *o;
	if ((j->row.payload = strdup(o->payload)) == NULL ||
	    (j->body = webhook_body(o)) == NULL) {
		job_clear(j);
		give_up(b->st, o, "the queued payload is not readable");
		return 0;
	}
	b->n++;
	return b->n == BATCH_MAX;
}

static size_t
discard(char *ptr, size_t size, size_t n, void *arg)
{
	(void)ptr;
	(void)arg;
	return size * n;
}

static int
add_header(struct job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
add_header(struct job *j, const char *fmt, ...)
{
	struct curl_slist *l;
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if ((l = curl_slist_append(j->headers, line)) == NULL)
		return -1;
	j->headers = l;
	return 0;
}

/* Set up j's request; -1 if libcurl cannot (out of memory). */
static int
job_prepare(struct webhook_worker *w, struct job *j)
{
	char signature[WEBHOOK_SIGNATURE_LEN + 1];
	int64_t now = (int64_t)time(NULL);
	size_t len = strlen(j->body);

	webhook_sign(j->hook.secret, now, j->body, len, signature);
	if ((j->easy = curl_easy_init()) == NULL ||
	    add_header(j, "Content-Type: application/json") != 0 ||
	    add_header(j, "X-Pbem-Event: %s", j->row.event) != 0 ||
	    add_header(j, "X-Pbem-Delivery: %lld", (long long)j->row.id) !=
	    0 ||
	    add_header(j, "X-Pbem-Timestamp: %lld", (long long)now) != 0 ||
	    add_header(j, "X-Pbem-Signature: %s", signature) != 0 ||
	    add_header(j, "Expect:") != 0)
		return -1;
	curl_easy_setopt(j->easy, CURLOPT_URL, j->hook.url);
	curl_easy_setopt(j->easy, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(j->easy, CURLOPT_HTTPHEADER, j->headers);
	curl_easy_setopt(j->easy, CURLOPT_POSTFIELDS, j->body);
	curl_easy_setopt(j->easy, CURLOPT_POSTFIELDSIZE_LARGE,
	    (curl_off_t)len);
	curl_easy_setopt(j->easy, CURLOPT_USERAGENT, "pbemd/" PACKAGE_VERSION);
	curl_easy_setopt(j->easy, CURLOPT_TIMEOUT, w->timeout);
	curl_easy_setopt(j->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(j->easy, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(j->easy, CURLOPT_ERRORBUFFER, j->error);
	curl_easy_setopt(j->easy, CURLOPT_PRIVATE, j);
	return 0;
}

/* POST every job at once; each gets result and http_status. */
static void
send_all(struct webhook_worker *w, struct batch *b)
{
	CURLM *multi;
	CURLMsg *msg;
	struct job *j;
	int i, running = 0, left;

	if ((multi = curl_multi_init()) == NULL) {
		for (i = 0; i < b->n; i++)
			b->jobs[i].result = CURLE_OUT_OF_MEMORY;
		return;
	}
	for (i = 0; i < b->n; i++) {
		j = &b->jobs[i];
		if (job_prepare(w, j) != 0 ||
		    curl_multi_add_handle(multi, j->easy) != CURLM_OK)
			j->result = CURLE_OUT_OF_MEMORY;
		else
			j->result = CURLE_AGAIN;	/* in flight */
	}
	do {
		if (curl_multi_perform(multi, &running) != CURLM_OK)
			break;
		if (running > 0 && curl_multi_poll(multi, NULL, 0, 1000,
		    NULL) != CURLM_OK)
			break;
	} while (running > 0);
	while ((msg = curl_multi_info_read(multi, &left)) != NULL) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE,
		    (char **)&j);
		j->result = msg->data.result;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE,
		    &j->http_status);
	}
	for (i = 0; i < b->n; i++) {
		j = &b->jobs[i];
		if (j->result == CURLE_AGAIN)
			j->result = CURLE_OPERATION_TIMEDOUT;
		if (j->easy != NULL)
			curl_multi_remove_handle(multi, j->easy);
	}
	curl_multi_cleanup(multi);
}

/* Record one outcome (inside the batch's transaction). */
static void
record(struct webhook_worker *w, struct store *st, struct job *j,
    int64_t now)
{
	char why[256];
	int64_t delay;
	int state = j->hook.state;

	if (j->result == CURLE_OK && j->http_status >= 200 &&
	    j->http_status <= 299) {
		if (store_outbox_mark_sent(st, j->row.id) != STORE_OK ||
		    store_webhook_delivered(st, j->hook.id, now) != STORE_OK)
			log_warnx("webhook: store: %s", store_errmsg(st));
		else if (j->hook.state == STORE_WEBHOOK_FAILING)
			log_info("webhook %lld: %s answers again",
			    (long long)j->hook.id, j->hook.url);
		log_debug("webhook %lld: delivery %lld (%s) sent",
		    (long long)j->hook.id, (long long)j->row.id, j->row.event);
		return;
	}
	if (j->result == CURLE_OK)
		snprintf(why, sizeof(why), "HTTP %ld", j->http_status);
	else
		snprintf(why, sizeof(why), "%s", j->error[0] != '\0' ?
		    j->error : curl_easy_strerror(j->result));
	delay = webhook_backoff(j->row.attempts + 1, w->retry_base,
	    w->retry_max, randombytes_random());
	if (store_outbox_mark_failed(st, j->row.id, now + delay, 0, why) !=
	    STORE_OK ||
	    store_webhook_failed(st, j->hook.id, w->failing_after, why,
	    &state) != STORE_OK) {
		log_warnx("webhook: store: %s", store_errmsg(st));
		return;
	}
	log_info("webhook %lld: delivery %lld (%s) to %s failed (%s), "
	    "attempt %d; next in %llds", (long long)j->hook.id,
	    (long long)j->row.id, j->row.event, j->hook.url, why,
	    j->row.attempts + 1, (long long)delay);
	if (state == STORE_WEBHOOK_FAILING &&
	    j->hook.state != STORE_WEBHOOK_FAILING)
		log_warnx("webhook %lld: %s is failing: %d attempts in a row "
		    "failed, the last with %s; still retrying (pbemctl "
		    "webhook list)", (long long)j->hook.id, j->hook.url,
		    j->hook.failures + 1, why);
}

/* One round: the number of rows attempted, or -1 on a store failure. */
static int
deliver_batch(struct webhook_worker *w, struct store *st)
{
	struct batch *b;
	int64_t now = (int64_t)time(NULL);
	int i, n, own;

	if ((b = calloc(1, sizeof(*b))) == NULL)
		return -1;
	b->st = st;
	if (store_outbox_webhook_due(st, now, BATCH_MAX, take_row, b) !=
	    STORE_OK) {
		log_warnx("webhook: store: %s", store_errmsg(st));
		for (i = 0; i < b->n; i++)
			job_clear(&b->jobs[i]);
		free(b);
		return -1;
	}
	if ((n = b->n) > 0) {
		send_all(w, b);
		now = (int64_t)time(NULL);
		/* One transaction for the batch's marks: one commit, not
		 * two per row.  If the lock cannot be had, each mark
		 * commits alone. */
		own = store_begin(st) == STORE_OK;
		for (i = 0; i < n; i++)
			record(w, st, &b->jobs[i], now);
		if (own && store_commit(st) != STORE_OK)
			log_warnx("webhook: store: %s (the batch will be "
			    "sent again)", store_errmsg(st));
	}
	for (i = 0; i < b->n; i++)
		job_clear(&b->jobs[i]);
	free(b);
	return n;
}

/* How long to sleep: until the earliest retry, at most the poll time. */
static int64_t
next_wake(struct webhook_worker *w, struct store *st, int64_t now)
{
	int64_t when, limit = now + w->poll;

	if (store_outbox_webhook_next(st, &when) != STORE_OK)
		return limit;
	if (when <= now)
		return now + 1;		/* due but not taken: look again */
	return when < limit ? when : limit;
}

static void *
run(void *arg)
{
	struct webhook_worker *w = arg;
	struct store *st;
	struct timespec until;
	int64_t now, wake_at;
	int n;

	for (;;) {
		pthread_mutex_lock(&w->lock);
		w->poked = 0;
		if (w->stopping) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		pthread_mutex_unlock(&w->lock);

		now = (int64_t)time(NULL);
		if ((st = daemon_store(w->d)) == NULL)
			n = -1;
		else
			n = deliver_batch(w, st);
		if (n > 0)
			continue;
		wake_at = n < 0 || st == NULL ? now + 1 :
		    next_wake(w, st, (int64_t)time(NULL));

		pthread_mutex_lock(&w->lock);
		until.tv_sec = (time_t)wake_at;
		until.tv_nsec = 0;
		while (!w->poked && !w->stopping)
			if (pthread_cond_timedwait(&w->wake, &w->lock,
			    &until) == ETIMEDOUT)
				break;
		pthread_mutex_unlock(&w->lock);
	}
	return NULL;
}

/* store_set_commit_hook(): wake the thread if this commit queued rows. */
static void
committed(void *arg)
{
	struct webhook_worker *w = arg;

	if (!webhook_take_queued())
		return;
	pthread_mutex_lock(&w->lock);
	w->poked = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

int
webhook_start(struct daemon *d)
{
	struct webhook_worker *w;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
		log_warnx("webhook: libcurl failed to initialise");
		return -1;
	}
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return -1;
	w->d = d;
	w->timeout = (long)config_int(d->cfg, "webhook_timeout");
	w->retry_base = config_int(d->cfg, "webhook_retry_base");
	w->retry_max = config_int(d->cfg, "webhook_retry_max");
	w->failing_after = (int)config_int(d->cfg, "webhook_failing_after");
	w->poll = config_int(d->cfg, "webhook_poll");
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	if (pthread_create(&w->thread, NULL, run, w) != 0) {
		log_warnx("webhook: cannot start the delivery thread");
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
		free(w);
		return -1;
	}
	d->webhooks = w;
	store_set_commit_hook(committed, w);
	log_info("webhook: delivery thread started (timeout %lds, retries "
	    "%lld..%llds, failing after %d)", w->timeout,
	    (long long)w->retry_base, (long long)w->retry_max,
	    w->failing_after);
	return 0;
}

void
webhook_stop(struct daemon *d)
{
	struct webhook_worker *w = d->webhooks;

	if (w == NULL)
		return;
	store_set_commit_hook(NULL, NULL);
	pthread_mutex_lock(&w->lock);
	w->stopping = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
	d->webhooks = NULL;
	curl_global_cleanup();
}
