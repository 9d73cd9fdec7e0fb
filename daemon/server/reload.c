/*
 * reload.c -- pbemd's settings, built at start-up and again on SIGHUP
 * (see daemon.h; docs/CONFIG.md).
 *
 * A reload reads the -c file again, then the command line's settings
 * (which still win).  A refused file changes nothing.  Options marked
 * reloadable in conf.c take effect; a changed option that is not is
 * logged as needing a restart and keeps its running value.  The log is
 * reopened (what logrotate needs).
 *
 * Swapping the settings under the HTTP threads: readers call
 * config_int(d->cfg, ...) with no lock, and config_str() hands out
 * pointers into a config with no lifetime of their own.  So the new
 * config is published with one atomic store, and the old one is not
 * freed but kept on a list until exit.  A config is a few hundred bytes
 * and reloads are rare, so this costs less than a lock on every read or
 * a count of references, and readers can never see freed memory.
 *
 * The templates are not reloaded: the mail gateway is handed the set
 * when it starts and renders with it for as long as it runs, so a reload
 * could not free the old set, and a compiled set is too large to keep one
 * per SIGHUP (logrotate sends one a day).  HTTP handlers already read the
 * set between daemon_templates_hold() and daemon_templates_release(), a
 * read-write lock; once the mail gateway does too, a reload can compile
 * the new set, swap it under the write lock and free the old one.
 * Changed templates need a restart until then.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_secrets.h"
#include "server.h"
#include "metrics.h"

struct retired_config {
	struct retired_config	*next;
	struct config		*cfg;
};

struct config *
daemon_settings_unread(struct daemon *d, char *err, size_t errlen)
{
	struct config *cfg;
	size_t i;

	if ((cfg = config_new()) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (d->config_file != NULL && config_load_file(cfg, d->config_file,
	    err, errlen) != 0) {
		config_free(cfg);
		return NULL;
	}
	for (i = 0; i < d->noverrides; i++)
		if (config_set_pair(cfg, d->overrides[i], err, errlen) != 0) {
			config_free(cfg);
			return NULL;
		}
	if (config_derive(cfg, err, errlen) != 0) {
		config_free(cfg);
		return NULL;
	}
	return cfg;
}

struct config *
daemon_settings(struct daemon *d, char *err, size_t errlen)
{
	struct config *cfg;

	if ((cfg = daemon_settings_unread(d, err, errlen)) == NULL)
		return NULL;
	if (config_read_secret_files(cfg, err, errlen) != 0) {
		config_free(cfg);
		return NULL;
	}
	return cfg;
}

void
daemon_retired_free(struct daemon *d)
{
	struct retired_config *r;

	while ((r = d->retired) != NULL) {
		d->retired = r->next;
		config_free(r->cfg);
		free(r);
	}
}

/* Put back the running value of every option that needs a restart. */
static void
keep_restart_options(struct config *next, const struct config *running)
{
	const struct config_option *o;
	const char *was, *now;
	char err[512];

	for (o = config_options(); o->name != NULL; o++) {
		was = config_str(running, o->name);
		now = config_str(next, o->name);
		if (o->reloadable || strcmp(was, now) == 0)
			continue;
		if (config_is_secret(o->name))
			log_warnx("reload: %s changed; that needs a restart, "
			    "so the running value stays until then", o->name);
		else
			log_warnx("reload: %s changed from \"%s\" to \"%s\"; "
			    "that needs a restart, so \"%s\" stays until "
			    "then", o->name, was, now, was);
		if (config_set(next, o->name, was, err, sizeof(err)) != 0)
			fatalx("reload: %s", err);	/* it was valid */
	}
}

int
daemon_reload(struct daemon *d)
{
	struct config *running = d->cfg, *next;
	struct retired_config *r;
	char err[1024];

	notify_reloading();
	log_info("SIGHUP: reloading %s", d->config_file != NULL ?
	    d->config_file : "(no -c file: the command line and defaults)");
	if ((next = daemon_settings(d, err, sizeof(err))) == NULL) {
		log_warnx("reload refused, nothing changed: %s", err);
		metrics_add(METRICS_RELOADS_REFUSED, 1);
		notify_ready();
		return -1;
	}
	if ((r = calloc(1, sizeof(*r))) == NULL) {
		log_warnx("reload refused, nothing changed: out of memory");
		config_free(next);
		notify_ready();
		return -1;
	}
	/* Reopen the log first, even if nothing changed (logrotate moved
	 * it), so that what this reload says lands in the new file. */
	if (log_configure(config_str(next, "log"), config_str(next,
	    "log_level"), err, sizeof(err)) != 0) {
		log_warnx("reload: %s; logging stays as it was", err);
		if (config_set(next, "log", config_str(running, "log"), err,
		    sizeof(err)) != 0 || config_set(next, "log_level",
		    config_str(running, "log_level"), err, sizeof(err)) != 0)
			fatalx("reload: %s", err);
	}
	keep_restart_options(next, running);
	r->cfg = running;
	r->next = d->retired;
	d->retired = r;
	d->cfg = next;			/* atomic: readers see old or new */
	metrics_add(METRICS_RELOADS, 1);
	log_info("reload: done; http_max_body %lld, rate_per_address %lld, "
	    "rate_per_key %lld, log_level %s",
	    config_int(next, "http_max_body"),
	    config_int(next, "rate_per_address"),
	    config_int(next, "rate_per_key"), config_str(next, "log_level"));
	notify_ready();
	return 0;
}
