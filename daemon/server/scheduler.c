/*
 * scheduler.c -- pbemd's scheduler thread (scheduler.h): one pass of
 * schedule_tick() (daemon/engine/schedule.h) every interval seconds, and
 * after it the outbox's delivered rows past their retention removed.  A
 * commit anywhere nudges it (schedule_nudge()): the next pass then comes
 * NUDGE_GAP_SECONDS after the start of the last one, so a bot seat
 * answers a person's move in about a second rather than an interval, and
 * a game of bots goes on pass after pass -- at most one pass a second,
 * however many moves are committed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "engine.h"
#include "log.h"
#include "schedule.h"
#include "scheduler.h"
#include "threadname.h"

#define NUDGE_GAP_SECONDS	1

struct schedule_thread {
	pthread_t		 thread;
	pthread_mutex_t		 lock;
	pthread_cond_t		 wake;
	int			 stop;
	int			 nudged;	/* a commit since the pass began */
	int			 interval;
	int			 keep_days;	/* outbox_keep_days */
	struct store		*st;
	const struct serverkey	*key;
};

static int
sooner(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec &&
	    a->tv_nsec < b->tv_nsec);
}

/* Wait, with t->lock held, until the interval has passed since the end
 * of the last pass, or a nudge came and NUDGE_GAP_SECONDS have passed
 * since its start, or the thread is stopped. */
static void
wait_for_next_pass(struct schedule_thread *t, const struct timespec *started)
{
	struct timespec until, soonest;
	const struct timespec *deadline;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += t->interval;
	soonest = *started;
	soonest.tv_sec += NUDGE_GAP_SECONDS;
	while (!t->stop) {
		deadline = t->nudged && sooner(&soonest, &until) ? &soonest :
		    &until;
		if (pthread_cond_timedwait(&t->wake, &t->lock, deadline) ==
		    ETIMEDOUT && (deadline == &until || t->nudged))
			break;
	}
}

static void *
run(void *arg)
{
	struct schedule_thread *t = arg;
	struct schedule_stats stats;
	struct timespec started;
	char err[1024];

	thread_name_set("pbem-sched");
	pthread_mutex_lock(&t->lock);
	while (!t->stop) {
		t->nudged = 0;
		pthread_mutex_unlock(&t->lock);
		clock_gettime(CLOCK_REALTIME, &started);
		schedule_tick(t->st, t->key, clock_now(), &stats, err,
		    sizeof(err));
		if (engine_outbox_prune(t->st, clock_now() -
		    (int64_t)t->keep_days * 86400) < 0)
			log_warnx("outbox: %s", store_errmsg(t->st));
		pthread_mutex_lock(&t->lock);
		wait_for_next_pass(t, &started);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

struct schedule_thread *
schedule_start(const char *dbpath, const struct serverkey *key, int interval,
    int keep_days, char *err, size_t errlen)
{
	struct schedule_thread *t;

	if ((t = calloc(1, sizeof(*t))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->interval = interval > 0 ? interval : 10;
	t->keep_days = keep_days > 0 ? keep_days : 7;
	t->key = key;
	if (store_open(dbpath, &t->st, err, errlen) != STORE_OK) {
		free(t);
		return NULL;
	}
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->wake, NULL);
	if (pthread_create(&t->thread, NULL, run, t) != 0) {
		snprintf(err, errlen, "cannot start the scheduler thread");
		store_close(t->st);
		free(t);
		return NULL;
	}
	return t;
}

void
schedule_nudge(struct schedule_thread *t)
{
	if (t == NULL)
		return;
	pthread_mutex_lock(&t->lock);
	t->nudged = 1;
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->lock);
}

void
schedule_stop(struct schedule_thread *t)
{
	if (t == NULL)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop = 1;
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->wake);
	store_close(t->st);
	free(t);
}
