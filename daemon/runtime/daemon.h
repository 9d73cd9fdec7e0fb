/*
 * daemon.h -- pbemd's shared state and the index of its stages.
 *
 *   pbemd.c		start-up: settings, database, server key, demo game,
 *			signals, the main loop
 *   conf.c		the settings (conf.h)
 *   threadstore.c	one store connection per thread (daemon_store())
 *   http.c		ingress over HTTP: the server and its route table;
 *			the handlers are in api_*.c (api.h)
 *   log.c		logging (log.h)
 *   pidfile.c		the pid and lock file (pidfile.h)
 *   reload.c		SIGHUP: the settings again, the log reopened
 *   limits.c		the rate limits (ratelimit.h holds the buckets)
 *   metrics.c		counters for GET /v1/metrics (metrics.h)
 *   notify.c		readiness and state to systemd (sd_notify)
 *   events.c		event long-polls waiting for a commit (events.h)
 *   replaycache.c	signatures of signed requests seen (replaycache.h)
 *   webhook_deliver.c	the webhook delivery thread (webhook.h says what
 *			is delivered, docs/WEBHOOKS.md how)
 * The path of a move itself is the engine's (engine.h).
 *
 * Threads: the main thread starts everything and then only waits for
 * signals; libmicrohttpd's threads answer requests.  A `struct store` is
 * never shared between threads: each thread takes its own connection
 * from daemon_store() (SQLite's WAL lets them read at once; BEGIN
 * IMMEDIATE serialises the writers).
 */
#ifndef PBEM_DAEMON_H
#define PBEM_DAEMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>

#include "conf.h"
#include "log.h"
#include "serverkey.h"
#include "store.h"

struct MHD_Daemon;
struct tpl_set;
struct pidfile;
struct ratelimit;
struct retired_config;
struct replaycache;
struct evhub;
struct webhook_worker;

struct daemon {
	/* The settings (conf.h).  A reload swaps in a new one; the old one
	 * is kept until exit (reload.c), so a pointer read from here, or a
	 * string config_str() returned, stays valid for the whole run. */
	struct config *_Atomic	 cfg;
	const char		*dbpath;	/* config "database" */
	const char		*address;	/* config "http_listen" */
	int			 port;		/* config "http_port" */
	struct store		*st;		/* the main thread's connection */
	struct serverkey	*key;
	struct MHD_Daemon	*httpd;
	const char		*template_dir;
	/* Loaded at start-up.  HTTP handlers read it between
	 * daemon_templates_hold() and daemon_templates_release(), so that a
	 * reload could one day swap it (reload.c says why it does not). */
	struct tpl_set		*templates;
	pthread_rwlock_t	 templates_lock;
	pthread_key_t		 store_key;	/* threadstore.c */

	/* Process life (pbemd.c, reload.c, limits.c). */
	const char		*config_file;	/* -c, or NULL */
	char *const		*overrides;	/* command line, "name=value" */
	size_t			 noverrides;
	struct retired_config	*retired;	/* configs replaced by reloads */
	struct pidfile		*pidfile;
	struct ratelimit	*address_limits;
	struct ratelimit	*key_limits;
	atomic_int		 stopping;	/* SIGTERM seen: draining */
	/* api: signed requests and event long-polls */
	int64_t			 started;	/* unix seconds at start */
	struct replaycache	*replay;	/* signatures seen */
	struct evhub		*events;	/* suspended long-polls */
	struct webhook_worker	*webhooks;	/* webhook_deliver.c */
};

/* threadstore.c */
int		 daemon_store_init(struct daemon *d);
/* The calling thread's own connection to d->dbpath, opened on first use
 * and closed when the thread ends; NULL (logged) if it cannot be opened. */
struct store	*daemon_store(struct daemon *d);

/* http.c: serve until http_stop(), which stops accepting, lets the
 * requests in flight finish (up to http_timeout seconds) and returns. */
int	http_start(struct daemon *d);
void	http_stop(struct daemon *d);

/* reload.c */
/* Build the settings: defaults, then the -c file, then the command line.
 * NULL with "file:line: reason" in err if the file is refused. */
struct config	*daemon_settings(struct daemon *d, char *err, size_t errlen);
/* SIGHUP: read the settings again and apply what may change while
 * running; a refused file changes nothing (-1).  Main thread only. */
int		 daemon_reload(struct daemon *d);
/* Free the configs that reloads replaced (at exit, threads stopped). */
void		 daemon_retired_free(struct daemon *d);
/* The template set, safe from a reload's swap until released. */
struct tpl_set	*daemon_templates_hold(struct daemon *d);
void		 daemon_templates_release(struct daemon *d);

/* limits.c: the per-address and per-key rate limits (config rate_*).
 * Each returns 1 when the request may go on, or 0 with *retry_after,
 * whole seconds (at least 1) until it would be allowed. */
int	limits_init(struct daemon *d);
void	limits_free(struct daemon *d);
/* Takes a token for the client at sa (IPv6 clients by their /64). */
int	ratelimit_allow_address(struct daemon *d, const struct sockaddr *sa,
	    unsigned int *retry_after);
/* Takes a token for a player's key.  Call it once the request's
 * signature has been verified: a forged request must not spend the
 * token of the key it names. */
int	ratelimit_allow_key(struct daemon *d, const unsigned char key[32],
	    unsigned int *retry_after);
/* Would ratelimit_allow_key() allow it?  Takes nothing: for refusing
 * before the work when the signature is checked later (api_moves.c). */
int	ratelimit_check_key(struct daemon *d, const unsigned char key[32],
	    unsigned int *retry_after);
/* Take a token if there is one, after the work was done (the pair of
 * ratelimit_check_key()); not counted as a refusal if there is none. */
void	ratelimit_charge_key(struct daemon *d, const unsigned char key[32]);
/* "50 per second with bursts of 100": the limit, for a refusal. */
void	limits_describe_address(struct daemon *d, char *buf, size_t len);
void	limits_describe_key(struct daemon *d, char *buf, size_t len);

/* notify.c: tell systemd (Type=notify) what pbemd is doing; nothing
 * happens when pbemd was not started by systemd or built without it. */
void	notify_ready(void);
void	notify_reloading(void);
void	notify_stopping(void);
/* webhook_deliver.c: start the thread that POSTs the outbox's webhook
 * rows (woken after each commit that queued some, else every
 * "webhook_poll" seconds); stop it, waiting for the batch in flight.
 * Stop it only once nothing else commits (after http_stop()). */
int	webhook_start(struct daemon *d);
void	webhook_stop(struct daemon *d);

#endif /* PBEM_DAEMON_H */
