/*
 * metrics.c -- see metrics.h.  The names and their meaning are listed in
 * docs/API.md ("Metrics").
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "metrics.h"
#include "store.h"

static const struct {
	const char	*name;
	const char	*help;
} counters[METRICS_NCOUNTERS] = {
	[METRICS_MOVES_ACCEPTED] = { "pbem_moves_accepted_total",
	    "Moves played and stored." },
	[METRICS_RATE_LIMITED_ADDRESS] = {
	    "pbem_rate_limited_address_total",
	    "HTTP requests refused by the per-address rate limit." },
	[METRICS_RATE_LIMITED_KEY] = { "pbem_rate_limited_key_total",
	    "Signed requests refused by the per-key rate limit." },
	[METRICS_BODY_TOO_LARGE] = { "pbem_http_body_too_large_total",
	    "HTTP requests refused because their body was over "
	    "http_max_body." },
	[METRICS_RELOADS] = { "pbem_reloads_total",
	    "SIGHUP reloads that took effect." },
	[METRICS_RELOADS_REFUSED] = { "pbem_reloads_refused_total",
	    "SIGHUP reloads refused because the configuration file was "
	    "bad." },
};

/* The codes a move can be refused with (engine.h, api_moves.c); the
 * last slot counts any other. */
static const char *const reject_codes[] = {
	"no_block", "malformed_block", "unknown_game", "bad_seat",
	"bad_signature", "stale_sequence", "future_sequence", "game_over",
	"not_your_turn", "move_not_understood", "illegal_move", "busy",
	"internal_error", "wrong_game", "rate_limited", "other"
};
#define NREJECT	(sizeof(reject_codes) / sizeof(reject_codes[0]))

/* Request latency buckets, in seconds (the last, +Inf, is implied). */
static const double latency_bounds[] = {
	0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
	2.5, 5, 10
};
#define NBOUNDS	(sizeof(latency_bounds) / sizeof(latency_bounds[0]))

/* Route classes are learnt as requests come; the table is only appended
 * to (under route_mutex) and each slot is written before nroutes counts
 * it, so readers need no lock. */
#define MAX_ROUTES	64

struct route_stats {
	const char		*route;
	atomic_uint_fast64_t	 status[6];	/* [0] none, [1..5] 1xx..5xx */
	atomic_uint_fast64_t	 bucket[NBOUNDS + 1];	/* not cumulative */
	atomic_uint_fast64_t	 micros;	/* sum of latencies */
};

static atomic_uint_fast64_t counter_value[METRICS_NCOUNTERS];
static atomic_uint_fast64_t rejected[NREJECT];
static struct route_stats routes[MAX_ROUTES + 1];	/* + "other" */
static atomic_size_t nroutes;
static pthread_mutex_t route_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct timespec started;

void
metrics_init(void)
{
	clock_gettime(CLOCK_MONOTONIC, &started);
	routes[MAX_ROUTES].route = "other";
}

double
metrics_uptime(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - started.tv_sec) +
	    (double)(now.tv_nsec - started.tv_nsec) / 1e9;
}

void
metrics_add(enum metrics_counter counter, uint64_t n)
{
	atomic_fetch_add_explicit(&counter_value[counter], n,
	    memory_order_relaxed);
}

void
metrics_move_rejected(const char *code)
{
	size_t i;

	for (i = 0; i < NREJECT - 1; i++)
		if (strcmp(reject_codes[i], code) == 0)
			break;
	atomic_fetch_add_explicit(&rejected[i], 1, memory_order_relaxed);
}

/* The statistics slot of a route class, added on first sight. */
static struct route_stats *
route_slot(const char *route)
{
	size_t i, n = atomic_load_explicit(&nroutes, memory_order_acquire);

	for (i = 0; i < n; i++)
		if (routes[i].route == route ||
		    strcmp(routes[i].route, route) == 0)
			return &routes[i];
	pthread_mutex_lock(&route_mutex);
	n = atomic_load_explicit(&nroutes, memory_order_relaxed);
	for (i = 0; i < n; i++)
		if (strcmp(routes[i].route, route) == 0)
			break;
	if (i == n && n < MAX_ROUTES) {
		routes[n].route = route;
		atomic_store_explicit(&nroutes, n + 1, memory_order_release);
	}
	pthread_mutex_unlock(&route_mutex);
	return i < MAX_ROUTES ? &routes[i] : &routes[MAX_ROUTES];
}

void
metrics_http_request(const char *route, unsigned int status,
    double seconds)
{
	struct route_stats *r = route_slot(route);
	unsigned int class = status / 100;
	size_t b;

	if (class > 5)
		class = 0;
	atomic_fetch_add_explicit(&r->status[class], 1,
	    memory_order_relaxed);
	for (b = 0; b < NBOUNDS && seconds > latency_bounds[b]; b++)
		;
	atomic_fetch_add_explicit(&r->bucket[b], 1, memory_order_relaxed);
	if (seconds < 0)
		seconds = 0;
	atomic_fetch_add_explicit(&r->micros, (uint64_t)(seconds * 1e6),
	    memory_order_relaxed);
}

static uint64_t
load(atomic_uint_fast64_t *v)
{
	return atomic_load_explicit(v, memory_order_relaxed);
}

/* A label value with \, " and newlines escaped, as the format wants. */
static void
put_label(FILE *out, const char *value)
{
	for (; *value != '\0'; value++) {
		if (*value == '\\' || *value == '"')
			fputc('\\', out);
		if (*value == '\n')
			fputs("\\n", out);
		else
			fputc(*value, out);
	}
}

static void
write_http(FILE *out, struct route_stats *r)
{
	static const char *const classes[] = { "none", "1xx", "2xx", "3xx",
	    "4xx", "5xx" };
	uint64_t n, total = 0;
	size_t i;

	for (i = 0; i < 6; i++) {
		if ((n = load(&r->status[i])) == 0)
			continue;
		fputs("pbem_http_requests_total{route=\"", out);
		put_label(out, r->route);
		fprintf(out, "\",status=\"%s\"} %llu\n", classes[i],
		    (unsigned long long)n);
	}
	for (i = 0; i <= NBOUNDS; i++)
		total += load(&r->bucket[i]);
	if (total == 0)
		return;
	/* Buckets are kept apart and summed here: Prometheus wants each
	 * bucket to count every request at or under its bound. */
	n = 0;
	for (i = 0; i <= NBOUNDS; i++) {
		n += load(&r->bucket[i]);
		fputs("pbem_http_request_duration_seconds_bucket{route=\"",
		    out);
		put_label(out, r->route);
		if (i < NBOUNDS)
			fprintf(out, "\",le=\"%g\"} %llu\n", latency_bounds[i],
			    (unsigned long long)n);
		else
			fprintf(out, "\",le=\"+Inf\"} %llu\n",
			    (unsigned long long)n);
	}
	fputs("pbem_http_request_duration_seconds_sum{route=\"", out);
	put_label(out, r->route);
	fprintf(out, "\"} %.6f\n", (double)load(&r->micros) / 1e6);
	fputs("pbem_http_request_duration_seconds_count{route=\"", out);
	put_label(out, r->route);
	fprintf(out, "\"} %llu\n", (unsigned long long)n);
}

/* The outbox gauges: every channel pbem writes has both series, 0 when
 * empty, so a scrape never sees a series vanish when its queue drains;
 * a channel the store holds beyond those is listed too. */
#define DEPTH_MAX	16

struct depth {
	char	 channel[16];
	int64_t	 count[2];		/* pending, failed */
};

struct depths {
	struct depth	 row[DEPTH_MAX];
	size_t		 n;
};

static struct depth *
depth_of(struct depths *d, const char *channel)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->row[i].channel, channel) == 0)
			return &d->row[i];
	if (d->n == DEPTH_MAX)
		return NULL;
	memset(&d->row[d->n], 0, sizeof(d->row[d->n]));
	snprintf(d->row[d->n].channel, sizeof(d->row[d->n].channel), "%s",
	    channel);
	return &d->row[d->n++];
}

static int
add_depth(const char *channel, int status, int64_t count, void *arg)
{
	struct depth *row = depth_of(arg, channel);

	if (row != NULL)
		row->count[status == STORE_OUTBOX_FAILED ? 1 : 0] += count;
	return 0;
}

static int
write_depths(struct store *st, FILE *out)
{
	static const char *const status_name[2] = { "pending", "failed" };
	struct depths d;
	size_t i, k;

	memset(&d, 0, sizeof(d));
	depth_of(&d, "mail");
	depth_of(&d, "webhook");
	if (st == NULL || store_outbox_depth(st, add_depth, &d) != STORE_OK)
		return 0;
	for (i = 0; i < d.n; i++)
		for (k = 0; k < 2; k++) {
			fputs("pbem_outbox_rows{channel=\"", out);
			put_label(out, d.row[i].channel);
			fprintf(out, "\",status=\"%s\"} %lld\n", status_name[k],
			    (long long)d.row[i].count[k]);
		}
	return 1;
}

char *
metrics_text(struct store *st)
{
	char *text = NULL;
	size_t len, i, n;
	int up = 0;
	FILE *out;

	if ((out = open_memstream(&text, &len)) == NULL)
		return NULL;
	fprintf(out, "# HELP pbem_build_info The running version.\n"
	    "# TYPE pbem_build_info gauge\n"
	    "pbem_build_info{version=\"%s\"} 1\n", PACKAGE_VERSION);
	fprintf(out, "# HELP pbem_uptime_seconds Seconds since pbemd "
	    "started.\n# TYPE pbem_uptime_seconds gauge\n"
	    "pbem_uptime_seconds %.3f\n", metrics_uptime());
	for (i = 0; i < METRICS_NCOUNTERS; i++)
		fprintf(out, "# HELP %s %s\n# TYPE %s counter\n%s %llu\n",
		    counters[i].name, counters[i].help, counters[i].name,
		    counters[i].name,
		    (unsigned long long)load(&counter_value[i]));
	fputs("# HELP pbem_moves_rejected_total Moves refused, by error "
	    "code.\n# TYPE pbem_moves_rejected_total counter\n", out);
	for (i = 0; i < NREJECT; i++)
		fprintf(out, "pbem_moves_rejected_total{code=\"%s\"} %llu\n",
		    reject_codes[i], (unsigned long long)load(&rejected[i]));
	fputs("# HELP pbem_http_requests_total HTTP requests answered, by "
	    "route and status class.\n"
	    "# TYPE pbem_http_requests_total counter\n"
	    "# HELP pbem_http_request_duration_seconds Time from a "
	    "request's arrival to its answer being sent.\n"
	    "# TYPE pbem_http_request_duration_seconds histogram\n", out);
	n = atomic_load_explicit(&nroutes, memory_order_acquire);
	for (i = 0; i < n; i++)
		write_http(out, &routes[i]);
	write_http(out, &routes[MAX_ROUTES]);
	fputs("# HELP pbem_outbox_rows Notifications not yet delivered, by "
	    "channel and status.\n# TYPE pbem_outbox_rows gauge\n", out);
	up = write_depths(st, out);
	fprintf(out, "# HELP pbem_database_up 1 if the database answered "
	    "this scrape.\n# TYPE pbem_database_up gauge\n"
	    "pbem_database_up %d\n", up);
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
