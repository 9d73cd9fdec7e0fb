/*
 * webhook_deliver.c -- pbemd's webhook delivery thread (notify.h).
 *
 * One thread with its own store connection and one libcurl multi handle
 * that keeps up to "webhook_concurrency" deliveries in flight.  Whenever a
 * slot is free it takes due rows that head their (registration, game)
 * queue -- so a later event never overtakes an earlier one of the same
 * game and receiver -- and starts them; each delivery is recorded as soon
 * as it ends, on its own: a 2xx answer marks the row sent; anything else
 * counts a failed attempt, schedules the row again after webhook_backoff()
 * and holds back the whole registration until then (retry_at), and a
 * registration that fails "webhook_failing_after" times in a row is
 * marked failing (and logged) but still retried.  Moves never wait for
 * any of this: they only queue rows.
 *
 * Isolation: a receiver that never answers holds its own slots until
 * "webhook_timeout", never anybody else's deliveries.  At most two
 * deliveries of one registration, and "webhook_per_host" to one host, are
 * in flight at once; registrations with failures in a row come after the
 * healthy ones and may hold at most half the slots; a failed registration
 * is not tried again before its back-off.
 *
 * Addresses (addrpolicy.h): unless "webhook_allow_hosts" names the URL's
 * host (as libcurl parses it), every address libcurl is about to connect
 * to is checked in the socket-opening callback, after resolution, and an
 * internal one is refused -- so a name that resolved to a public address
 * at registration and to 127.0.0.1 now (DNS rebinding) is never reached,
 * and the address checked is the address connected to.  No proxy from the
 * environment, no redirects (a 3xx is a failed attempt).
 *
 * Rows exist only once their move has committed, and a row is marked
 * sent only after its receiver said 2xx, so a crash loses nothing; a
 * crash between the 2xx and the mark sends that one row again, with the
 * same delivery id (at-least-once; docs/WEBHOOKS.md).
 *
 * Waking: store_set_commit_hook() calls committed() after every commit;
 * if that thread queued webhook rows, the delivery thread is signalled
 * (or woken out of curl_multi_poll()).  Otherwise it looks again when a
 * delivery ends, every second while deliveries are in flight, and when
 * idle at the earliest retry, or every "webhook_poll" seconds (rows queued
 * by another process, pbemctl).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sys/socket.h>

#include <curl/curl.h>
#include <sodium.h>

#include "addrpolicy.h"
#include "config.h"
#include "notify.h"
#include "threadname.h"
#include "webhook.h"
#include "webhook_chat.h"

#define PER_HOOK_MAX	2	/* deliveries of one registration at once */

/* One row being delivered. */
struct job {
	struct store_outbox	 row;		/* payload owned */
	struct store_webhook	 hook;
	char			*body;
	CURL			*easy;
	struct curl_slist	*headers;
	char			 host[256];	/* as libcurl reads the URL */
	int			 check;		/* refuse internal addresses */
	char			 refused[256];	/* why a connection was not
						   made, if it was refused */
	char			 error[CURL_ERROR_SIZE];
	CURLcode		 result;
	long			 http_status;
};

struct webhook_worker {
	struct daemon	*d;
	pthread_t	 thread;
	pthread_mutex_t	 lock;
	pthread_cond_t	 wake;
	int		 poked;		/* under lock */
	int		 stopping;	/* under lock */
	CURLM		*multi;		/* curl_multi_wakeup() from any thread */
	/* Settings, read once at start. */
	long		 timeout;
	int64_t		 retry_base, retry_max, poll;
	int		 failing_after, concurrency, per_host;
	char		*allow_hosts;
	char		*public_base_url;	/* links in chat formats */
	/* The deliveries in flight: the thread's own. */
	struct job	**jobs;
	int		 njobs;
};

static void
job_free(struct job *j)
{
	if (j == NULL)
		return;
	if (j->easy != NULL)
		curl_easy_cleanup(j->easy);
	curl_slist_free_all(j->headers);
	free(j->row.payload);
	free(j->body);
	sodium_memzero(j->hook.secret, sizeof(j->hook.secret));
	free(j);
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

static size_t
discard(char *ptr, size_t size, size_t n, void *arg)
{
	(void)ptr;
	(void)arg;
	return size * n;
}

/*
 * libcurl's CURLOPT_OPENSOCKETFUNCTION: called with each address it is
 * about to connect to, after resolution.  An internal address of a host
 * the allow-list does not name gets no socket, so no connection.
 */
static curl_socket_t
open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct job *j = arg;
	const char *what;
	char text[64];

	(void)purpose;
	if (j->check && (what = addrpolicy_internal(&a->addr)) != NULL) {
		addrpolicy_format(&a->addr, text, sizeof(text));
		snprintf(j->refused, sizeof(j->refused), "refused to connect "
		    "to %s (%s address): webhooks go to public addresses only, "
		    "and webhook_allow_hosts does not name %.80s", text, what,
		    j->host);
		return CURL_SOCKET_BAD;
	}
	return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
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

/* The URL's host and port as libcurl reads them (IPv6 brackets taken
 * off); -1 if it cannot read them. */
static int
url_host(const char *url, char *host, size_t hostlen, int *port)
{
	CURLU *u;
	char *h = NULL, *p = NULL;
	size_t n;
	int rc = -1;

	if ((u = curl_url()) == NULL)
		return -1;
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &h, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) ==
	    CURLUE_OK) {
		n = strlen(h);
		if (n >= 2 && h[0] == '[' && h[n - 1] == ']')
			snprintf(host, hostlen, "%.*s", (int)(n - 2), h + 1);
		else
			snprintf(host, hostlen, "%s", h);
		*port = atoi(p);
		rc = 0;
	}
	curl_free(h);
	curl_free(p);
	curl_url_cleanup(u);
	return rc;
}

/* Drop the '/'s that end a base URL, so that links join it with one. */
static void
strip_slashes(char *url)
{
	size_t n = strlen(url);

	while (n > 0 && url[n - 1] == '/')
		url[--n] = '\0';
}

/* For a chat format, replace j's body by the platform's (the signature
 * headers stay: they are harmless there).  0, or -1. */
static int
chat_body(const struct webhook_worker *w, struct job *j)
{
	char *chat;

	if (j->hook.format[0] == '\0' || strcmp(j->hook.format, "pbem") == 0)
		return 0;
	if ((chat = webhook_chat_body(j->hook.format, j->hook.lang, j->body,
	    w->public_base_url)) == NULL)
		return -1;
	free(j->body);
	j->body = chat;
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
	curl_easy_setopt(j->easy, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(j->easy, CURLOPT_PROXY, "");
	curl_easy_setopt(j->easy, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	curl_easy_setopt(j->easy, CURLOPT_OPENSOCKETDATA, j);
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

/* Record one outcome (inside the caller's transaction, if any). */
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
	if (j->refused[0] != '\0')
		snprintf(why, sizeof(why), "%s", j->refused);
	else if (j->result == CURLE_OK)
		snprintf(why, sizeof(why), "HTTP %ld", j->http_status);
	else
		snprintf(why, sizeof(why), "%s", j->error[0] != '\0' ?
		    j->error : curl_easy_strerror(j->result));
	delay = webhook_backoff(j->row.attempts + 1, w->retry_base,
	    w->retry_max, randombytes_random());
	if (store_outbox_mark_failed(st, j->row.id, now + delay, 0, why) !=
	    STORE_OK ||
	    store_webhook_failed(st, j->hook.id, w->failing_after, why,
	    now + webhook_backoff(j->hook.failures + 1, w->retry_base,
	    w->retry_max, randombytes_random()), &state) != STORE_OK) {
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

/* May row o (of registration hook, to host) start now, given what is in
 * flight? */
static int
may_start(const struct webhook_worker *w, const struct store_outbox *o,
    const struct store_webhook *hook, const char *host)
{
	int i, same_hook = 0, same_host = 0, suspects = 0;
	const struct job *j;

	for (i = 0; i < w->njobs; i++) {
		j = w->jobs[i];
		if (j->row.id == o->id)
			return 0;
		same_hook += j->hook.id == hook->id;
		same_host += strcasecmp(j->host, host) == 0;
		suspects += j->hook.failures > 0;
	}
	if (same_hook >= PER_HOOK_MAX || same_host >= w->per_host)
		return 0;
	/* Registrations with failures in a row share half the slots. */
	if (hook->failures > 0 && suspects >= (w->concurrency + 1) / 2)
		return 0;
	return 1;
}

struct refill {
	struct webhook_worker	*w;
	struct store		*st;
};

/* store_outbox_webhook_due() callback: start row o if it may start. */
static int
take_row(const struct store_outbox *o, void *arg)
{
	struct refill *r = arg;
	struct webhook_worker *w = r->w;
	struct store_webhook hook;
	struct job *j;
	char why[160], host[256], *end;
	long long id;
	int port;

	id = strtoll(o->recipient, &end, 10);
	if (*end != '\0' || id <= 0 ||
	    store_webhook_get(r->st, id, &hook) != STORE_OK) {
		snprintf(why, sizeof(why), "no webhook \"%.32s\"", o->recipient);
		give_up(r->st, o, why);
		return 0;
	}
	if (url_host(hook.url, host, sizeof(host), &port) != 0) {
		sodium_memzero(hook.secret, sizeof(hook.secret));
		give_up(r->st, o, "the webhook URL cannot be read");
		return 0;
	}
	if (!may_start(w, o, &hook, host)) {
		sodium_memzero(hook.secret, sizeof(hook.secret));
		return 0;
	}
	if ((j = calloc(1, sizeof(*j))) == NULL) {
		sodium_memzero(hook.secret, sizeof(hook.secret));
		return 1;
	}
	j->hook = hook;
	sodium_memzero(hook.secret, sizeof(hook.secret));
	j->row = *o;
	snprintf(j->host, sizeof(j->host), "%s", host);
	j->check = !addrpolicy_allowed(w->allow_hosts, host, port);
	if ((j->row.payload = strdup(o->payload)) == NULL ||
	    (j->body = webhook_body(o)) == NULL ||
	    chat_body(w, j) != 0) {
		job_free(j);
		give_up(r->st, o, "the queued payload is not readable");
		return 0;
	}
	if (job_prepare(w, j) != 0 ||
	    curl_multi_add_handle(w->multi, j->easy) != CURLM_OK) {
		job_free(j);
		return 1;		/* out of memory: try again later */
	}
	w->jobs[w->njobs++] = j;
	return w->njobs >= w->concurrency;
}

/* Start due rows while slots are free.  -1 on a store failure. */
static int
refill(struct webhook_worker *w, struct store *st)
{
	struct refill r = { w, st };
	int64_t now = (int64_t)time(NULL);
	int limit;

	if (w->njobs >= w->concurrency)
		return 0;
	/* Enough rows to fill the free slots past the ones in flight and
	 * those held back by the per-registration and per-host caps. */
	limit = w->njobs + 4 * (w->concurrency - w->njobs);
	if (store_outbox_webhook_due(st, now, limit, take_row, &r) !=
	    STORE_OK) {
		log_warnx("webhook: store: %s", store_errmsg(st));
		return -1;
	}
	return 0;
}

/* Record every delivery that ended; the number recorded. */
static int
reap(struct webhook_worker *w, struct store *st)
{
	struct job *j;
	CURLMsg *msg;
	int64_t now = (int64_t)time(NULL);
	int i, left, n = 0, own = 0;

	while ((msg = curl_multi_info_read(w->multi, &left)) != NULL) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE,
		    (char **)&j);
		j->result = msg->data.result;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE,
		    &j->http_status);
		/* The marks of what ended together in one transaction; if
		 * the lock cannot be had, each mark commits alone. */
		if (n++ == 0)
			own = store_begin(st) == STORE_OK;
		record(w, st, j, now);
		curl_multi_remove_handle(w->multi, j->easy);
		for (i = 0; i < w->njobs; i++)
			if (w->jobs[i] == j) {
				w->jobs[i] = w->jobs[--w->njobs];
				break;
			}
		job_free(j);
	}
	if (own && store_commit(st) != STORE_OK)
		log_warnx("webhook: store: %s (those deliveries will be sent "
		    "again)", store_errmsg(st));
	return n;
}

/* Give up the deliveries in flight without recording them: they stay
 * pending and are sent again (at-least-once). */
static void
abandon(struct webhook_worker *w)
{
	int i;

	for (i = 0; i < w->njobs; i++) {
		curl_multi_remove_handle(w->multi, w->jobs[i]->easy);
		job_free(w->jobs[i]);
	}
	w->njobs = 0;
}

/* How long to sleep when idle: until the earliest retry, at most the poll
 * time. */
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
	int64_t wake_at, look_at = 0, now;
	int poked, running, ended = 1;

	thread_name_set("pbem-webhooks");
	for (;;) {
		pthread_mutex_lock(&w->lock);
		poked = w->poked;
		w->poked = 0;
		if (w->stopping) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		pthread_mutex_unlock(&w->lock);

		now = (int64_t)time(NULL);
		st = daemon_store(w->d);
		if (st != NULL && (poked || ended || now >= look_at)) {
			look_at = now + 1;
			if (refill(w, st) != 0)
				look_at = now + 1;
		}
		if (w->njobs == 0) {
			wake_at = st == NULL ? now + 1 :
			    next_wake(w, st, (int64_t)time(NULL));
			pthread_mutex_lock(&w->lock);
			until.tv_sec = (time_t)wake_at;
			until.tv_nsec = 0;
			while (!w->poked && !w->stopping)
				if (pthread_cond_timedwait(&w->wake, &w->lock,
				    &until) == ETIMEDOUT)
					break;
			pthread_mutex_unlock(&w->lock);
			ended = 1;	/* look as soon as woken */
			continue;
		}
		if (curl_multi_perform(w->multi, &running) != CURLM_OK ||
		    curl_multi_poll(w->multi, NULL, 0, 1000, NULL) != CURLM_OK)
			log_warnx("webhook: libcurl's multi interface failed");
		if (curl_multi_perform(w->multi, &running) != CURLM_OK)
			running = 0;
		ended = st != NULL && reap(w, st) > 0;
	}
	abandon(w);
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
	curl_multi_wakeup(w->multi);
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
	w->concurrency = (int)config_int(d->cfg, "webhook_concurrency");
	w->per_host = (int)config_int(d->cfg, "webhook_per_host");
	w->allow_hosts = strdup(config_str(d->cfg, "webhook_allow_hosts"));
	w->public_base_url = strdup(config_str(d->cfg, "public_base_url"));
	if (w->public_base_url != NULL)
		strip_slashes(w->public_base_url);
	w->jobs = calloc((size_t)w->concurrency, sizeof(*w->jobs));
	w->multi = curl_multi_init();
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	if (w->allow_hosts == NULL || w->public_base_url == NULL ||
	    w->jobs == NULL || w->multi == NULL ||
	    pthread_create(&w->thread, NULL, run, w) != 0) {
		log_warnx("webhook: cannot start the delivery thread");
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
		if (w->multi != NULL)
			curl_multi_cleanup(w->multi);
		free(w->jobs);
		free(w->allow_hosts);
		free(w->public_base_url);
		free(w);
		return -1;
	}
	d->webhooks = w;
	store_set_commit_hook(committed, w);
	log_info("webhook: delivery thread started (timeout %lds, retries "
	    "%lld..%llds, failing after %d, %d at once, %d per host%s%s)",
	    w->timeout, (long long)w->retry_base, (long long)w->retry_max,
	    w->failing_after, w->concurrency, w->per_host,
	    w->allow_hosts[0] != '\0' ? ", internal hosts allowed: " : "",
	    w->allow_hosts);
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
	curl_multi_wakeup(w->multi);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	curl_multi_cleanup(w->multi);
	free(w->jobs);
	free(w->allow_hosts);
	free(w->public_base_url);
	free(w);
	d->webhooks = NULL;
	curl_global_cleanup();
}
