/*
 * daemon.h -- pbemd's shared state and the index of its stages.
 *
 *   pbemd.c	start-up: options, database, server key, demo game, signals
 *   http.c	ingress over HTTP (the JSON API under /v1)
 *   log.c	logging (log.h)
 * The path of a move itself is the engine's (engine.h).
 */
#ifndef PBEM_DAEMON_H
#define PBEM_DAEMON_H

#include "log.h"
#include "serverkey.h"
#include "store.h"

struct MHD_Daemon;
struct tpl_set;

struct daemon {
	const char		*dbpath;
	const char		*address;	/* listen address, IPv4 */
	int			 port;
	struct store		*st;
	struct serverkey	*key;
	struct MHD_Daemon	*httpd;
	const char		*template_dir;	/* NULL: the default */
	struct tpl_set		*templates;	/* loaded at start-up */
};

/* http.c */
int	http_start(struct daemon *d);
void	http_stop(struct daemon *d);

#endif /* PBEM_DAEMON_H */
