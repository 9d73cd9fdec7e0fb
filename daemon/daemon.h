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

#include "conf.h"
#include "log.h"
#include "serverkey.h"
#include "store.h"

struct MHD_Daemon;
struct tpl_set;
struct replaycache;
struct evhub;
struct webhook_worker;

struct daemon {
	struct config		*cfg;		/* the settings (conf.h) */
	const char		*dbpath;	/* config "database" */
	const char		*address;	/* config "http_listen" */
	int			 port;		/* config "http_port" */
	struct store		*st;		/* the main thread's connection */
	struct serverkey	*key;
	struct MHD_Daemon	*httpd;
	const char		*template_dir;
	struct tpl_set		*templates;	/* loaded at start-up */
	pthread_key_t		 store_key;	/* threadstore.c */
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

/* http.c */
int	http_start(struct daemon *d);
void	http_stop(struct daemon *d);

/* webhook_deliver.c: start the thread that POSTs the outbox's webhook
 * rows (woken after each commit that queued some, else every
 * "webhook_poll" seconds); stop it, waiting for the batch in flight.
 * Stop it only once nothing else commits (after http_stop()). */
int	webhook_start(struct daemon *d);
void	webhook_stop(struct daemon *d);

#endif /* PBEM_DAEMON_H */
