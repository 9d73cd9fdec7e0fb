/*
 * daemon.h -- the context every stage of pbemd shares (struct daemon),
 * and the index of pbemd's folders.
 *
 *   daemon/server/	the process: start-up, signals, the stage table
 *			(pbemd.c), SIGHUP (reload.c), the pid and lock file,
 *			systemd, the scheduler's thread (server.h)
 *   daemon/runtime/	this context: settings (conf.h), per-thread store
 *			and the template set (context.c), metrics
 *   daemon/http/	ingress over HTTP: the server, its route table and
 *			handlers (http.h, api.h), rate limits, long-polls
 *   daemon/mail/	the mail gateway (mail.h)
 *   daemon/notify/	the webhook delivery thread (notify.h)
 * Below them: daemon/engine/ (engine.h, the path of a move), daemon/render/
 * (views for people), daemon/common/ (utilities); tests/check-layout.sh
 * keeps the dependencies pointing that way (docs/ARCHITECTURE.md).
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
	 * reload could one day swap it (server/reload.c says why not). */
	struct tpl_set		*templates;
	pthread_rwlock_t	 templates_lock;
	pthread_key_t		 store_key;	/* context.c */

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

/* ---- context.c ---------------------------------------------------------- */

int		 daemon_store_init(struct daemon *d);
/* The calling thread's own connection to d->dbpath, opened on first use
 * and closed when the thread ends; NULL (logged) if it cannot be opened. */
struct store	*daemon_store(struct daemon *d);
/* The template set, safe from a reload's swap until released. */
struct tpl_set	*daemon_templates_hold(struct daemon *d);
void		 daemon_templates_release(struct daemon *d);

#endif /* PBEM_DAEMON_H */
