/*
 * server.h -- the pbemd process: its settings as built at start-up and on
 * SIGHUP (reload.c), and what it tells systemd (sdnotify.c).  pbemd.c's
 * stage table starts the other folders' stages (http.h, notify.h,
 * mail.h, scheduler.h) in order and stops them in reverse.
 */
#ifndef PBEM_SERVER_H
#define PBEM_SERVER_H

#include <stddef.h>
#include <stdio.h>

#include "daemon.h"

/* ---- reload.c ------------------------------------------------------------ */

/* Build the settings: defaults, then the -c file, then the command line,
 * then the secrets from the files they name (conf_secrets.h).  NULL with
 * "file:line: reason" in err if the file is refused. */
struct config	*daemon_settings(struct daemon *d, char *err, size_t errlen);
/* The same without reading the secret files: `pbemd -n`, which tries
 * them with every other file (daemon_check_files). */
struct config	*daemon_settings_unread(struct daemon *d, char *err,
		    size_t errlen);
/* SIGHUP: read the settings again and apply what may change while
 * running; a refused file changes nothing (-1).  Main thread only. */
int		 daemon_reload(struct daemon *d);
/* Free the configs that reloads replaced (at exit, threads stopped). */
void		 daemon_retired_free(struct daemon *d);

/* ---- checkfiles.c -------------------------------------------------------- */

/* `pbemd -n`: load the templates, read each card game's own card file
 * (a warning when it is missing or refused), and check every file and
 * folder cfg names (database, keys, pid file, log file, Maildirs, the
 * secret files: cfg as daemon_settings_unread() builds it) without
 * creating or changing any.  Each problem goes to stderr as "pbemd:
 * WHAT: PATH: why"; notes (templates loaded, a file pbemd will make) go
 * to out.  Returns the number of problems. */
int	daemon_check_files(const struct config *cfg, FILE *out);

/* ---- sdnotify.c ---------------------------------------------------------- */

/* Tell systemd (Type=notify) what pbemd is doing; nothing happens when
 * pbemd was not started by systemd or built without it. */
void	notify_ready(void);
void	notify_reloading(void);
void	notify_stopping(void);

#endif /* PBEM_SERVER_H */
