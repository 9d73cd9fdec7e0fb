/*
 * reload.c -- pbemd's settings, built at start-up and again on SIGHUP
 * (see daemon.h; docs/CONFIG.md).
 *
 * A reload reads the -c file again, then the command line's settings
 * (which still win).  A refused file changes nothing.  Options marked
 * reloadable in conf.c take effect; a changed option that is not is
 * logged as needing a restart and keeps its running value.  The log is
 * reopened (what logrotate needs) and the templates are compiled again.
 *
 * Swapping the settings under the HTTP threads: readers call
 * config_int(d->cfg, ...) with no lock, and config_str() hands out
 * pointers into a config with no lifetime of their own.  So the new
 * config is published with one atomic store, and the old one is not
 * freed but kept on a list until exit.  A config is a few hundred bytes
 * and reloads are rare, so this costs less than a lock on every read or
 * a count of references, and readers can never see freed memory.
 *
 * The templates are a different case: a compiled set is large, and
 * logrotate sends SIGHUP every day, so keeping every old set would grow
 * without end.  They sit behind a read-write lock that prefers the
 * writer: a render holds it for reading (daemon_templates_hold()), and
 * the reload waits for the renders under way, swaps, and frees the old
 * set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "metrics.h"
#include "templates.h"

struct retired_config {
	struct retired_config	*next;
	struct config		*cfg;
};

struct config *
daemon_settings(struct daemon *d, char *err, size_t errlen)
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

struct tpl_set *
daemon_templates_hold(struct daemon *d)
{
	pthread_rwlock_rdlock(&d->templates_lock);
	return d->templates;
}

void
daemon_templates_release(struct daemon *d)
{
	pthread_rwlock_unlock(&d->templates_lock);
}

/* Compile the templates again; a broken one keeps the loaded set. */
static void
reload_templates(struct daemon *d)
{
	struct tpl_set *fresh, *old;
	char err[1024];

	if ((fresh = templates_load(d->template_dir, err, sizeof(err))) ==
	    NULL) {
		log_warnx("reload: templates: %s; the loaded templates stay",
		    err);
		return;
	}
	pthread_rwlock_wrlock(&d->templates_lock);
	old = d->templates;
	d->templates = fresh;
	pthread_rwlock_unlock(&d->templates_lock);
	templates_free(old);
	log_info("reload: templates: %zu loaded from %s",
	    templates_count(fresh), d->template_dir);
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
		log_warnx("reload: %s changed from \"%s\" to \"%s\"; that "
		    "needs a restart, so \"%s\" stays until then", o->name,
		    was, now, was);
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
	reload_templates(d);
	metrics_add(METRICS_RELOADS, 1);
	log_info("reload: done; http_max_body %lld, rate_per_address %lld, "
	    "rate_per_key %lld, log_level %s",
	    config_int(next, "http_max_body"),
	    config_int(next, "rate_per_address"),
	    config_int(next, "rate_per_key"), config_str(next, "log_level"));
	notify_ready();
	return 0;
}
