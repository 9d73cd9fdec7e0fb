/*
 * metrics.h -- the daemon's counters, served by GET /v1/metrics in the
 * Prometheus text format (docs/API.md lists every name).
 *
 * Counting is cheap and safe from any thread at any time: every counter
 * is a C11 atomic, updated with relaxed ordering (a scrape may see one
 * counter a moment ahead of another; each is exact on its own).
 * metrics_init() runs once, on the main thread, before any other
 * thread starts.
 *
 * To count something new: add a value to enum metrics_counter and its
 * row (name, help) to the table in metrics.c, then call metrics_add().
 * Counters that need a label (moves rejected by code, HTTP requests by
 * route and status) have their own function below.
 */
#ifndef PBEM_METRICS_H
#define PBEM_METRICS_H

#include <stdint.h>

struct store;

/* Plain counters (metrics.c names them: pbem_<name>_total). */
enum metrics_counter {
	METRICS_MOVES_ACCEPTED,		/* moves played and stored */
	METRICS_RATE_LIMITED_ADDRESS,	/* requests refused by address */
	METRICS_RATE_LIMITED_KEY,	/* signed requests refused by key */
	METRICS_BODY_TOO_LARGE,		/* requests refused with 413 */
	METRICS_RELOADS,		/* SIGHUP reloads that took effect */
	METRICS_RELOADS_REFUSED,	/* SIGHUP with a bad file */
	METRICS_NCOUNTERS
};

void	metrics_init(void);
void	metrics_add(enum metrics_counter counter, uint64_t n);

/* A move refused with the engine's (or the API's) stable error code,
 * e.g. "stale_sequence"; codes not in metrics.c's list count as
 * "other". */
void	metrics_move_rejected(const char *code);

/*
 * One HTTP request answered: its route class (the route's pattern, a
 * string that lives as long as the program, e.g. "/v1/games/{id}";
 * "unmatched" for paths no route knows), the status sent (0 if none was)
 * and the seconds from its arrival until the answer was sent.
 */
void	metrics_http_request(const char *route, unsigned int status,
	    double seconds);

/* Seconds since metrics_init(). */
double	metrics_uptime(void);

/*
 * Every metric as Prometheus text, malloc'd (NULL if out of memory).
 * With a store, also the outbox gauges and pbem_database_up 1; with
 * NULL, or if the store cannot answer, pbem_database_up 0.
 */
char	*metrics_text(struct store *st);

#endif /* PBEM_METRICS_H */
