/*
 * mail_thread.c -- the gateway's background threads (the Maildir
 * watcher, the IMAP poller, the sender) share this loop: open a store
 * connection of their own, tick, sleep until the next tick or the stop.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mail.h"
#include "threadname.h"

struct mail_loop {
	pthread_t	 thread;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 stop;
	char		 name[32];
	int		 interval_ms;
	mail_tick_fn	 tick;
	void		*arg;
	struct store	*st;
};

static void *
loop_main(void *arg)
{
	struct mail_loop *l = arg;
	struct timespec until;
	char thread_name[48];
	int more;

	snprintf(thread_name, sizeof(thread_name), "pbem-%s", l->name);
	thread_name_set(thread_name);
	pthread_mutex_lock(&l->mu);
	while (!l->stop) {
		pthread_mutex_unlock(&l->mu);
		more = l->tick(l->st, l->arg);
		pthread_mutex_lock(&l->mu);
		if (more)
			continue;	/* at once, unless stopped */
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += l->interval_ms / 1000;
		until.tv_nsec += (long)(l->interval_ms % 1000) * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (!l->stop && pthread_cond_timedwait(&l->cv, &l->mu,
		    &until) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&l->mu);
	return NULL;
}

struct mail_loop *
mail_loop_start(const char *name, const char *dbpath, int interval_ms,
    mail_tick_fn tick, void *arg, char *err, size_t errlen)
{
	struct mail_loop *l;
	pthread_condattr_t ca;

	if ((l = calloc(1, sizeof(*l))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->interval_ms = interval_ms;
	l->tick = tick;
	l->arg = arg;
	if (store_open(dbpath, &l->st, err, errlen) != STORE_OK) {
		free(l);
		return NULL;
	}
	pthread_mutex_init(&l->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&l->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&l->thread, NULL, loop_main, l) != 0) {
		snprintf(err, errlen, "%s: cannot start a thread", name);
		store_close(l->st);
		free(l);
		return NULL;
	}
	return l;
}

void
mail_loop_stop(struct mail_loop *l)
{
	if (l == NULL)
		return;
	pthread_mutex_lock(&l->mu);
	l->stop = 1;
	pthread_cond_signal(&l->cv);
	pthread_mutex_unlock(&l->mu);
	pthread_join(l->thread, NULL);
	pthread_mutex_destroy(&l->mu);
	pthread_cond_destroy(&l->cv);
	store_close(l->st);
	free(l);
}
