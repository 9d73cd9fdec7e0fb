/*
 * context.c -- what the stages of pbemd borrow from the shared context
 * (daemon.h): their own store connection, and the template set.
 *
 * A connection is opened the first time a thread asks for one and kept
 * in thread-specific data; the key's destructor closes it when the
 * thread exits (libmicrohttpd's pool threads exit in MHD_stop_daemon()).
 * The template set is read under a read-write lock, so that a reload
 * could one day swap it (daemon/server/reload.c says why it does not).
 */
#include <stdlib.h>

#include "daemon.h"

static void
close_store(void *st)
{
	store_close(st);
}

int
daemon_store_init(struct daemon *d)
{
	return pthread_key_create(&d->store_key, close_store) == 0 ? 0 : -1;
}

struct store *
daemon_store(struct daemon *d)
{
	struct store *st = pthread_getspecific(d->store_key);
	char err[512];

	if (st != NULL)
		return st;
	if (store_open(d->dbpath, &st, err, sizeof(err)) != STORE_OK) {
		log_warnx("store: %s", err);
		return NULL;
	}
	if (pthread_setspecific(d->store_key, st) != 0) {
		store_close(st);
		log_warnx("store: cannot keep a connection for this thread");
		return NULL;
	}
	return st;
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
