/*
 * events.c -- waiters of the event long-polls, woken by commits or by
 * their deadline (see events.h).
 *
 * Waiters sit in one doubly linked list (as many as there are long-polls
 * in progress); a commit walks it for its game, the timer thread for
 * expired deadlines.  Deadlines are in milliseconds, so a wait is never
 * cut short by the rounding of whole seconds; the timer looks once a
 * second, so a wait of N seconds ends between N and N + 1 seconds.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include <microhttpd.h>

#include "events.h"
#include "threadname.h"

/* The time in milliseconds on the clock the timer waits on. */
static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct evwait {
	struct evwait		*prev, *next;
	struct evhub		*hub;
	struct MHD_Connection	*conn;
	int64_t			 game_id;
	int64_t			 deadline_ms;	/* CLOCK_REALTIME */
	int			 listed;	/* in hub->waiters */
	int			 suspended;
	int			 woken;		/* by a commit */
};

struct evhub {
	pthread_mutex_t	 lock;
	pthread_cond_t	 tick;
	pthread_t	 timer;
	int		 stopping;	/* shutdown: no more suspensions */
	int		 timer_exit;
	struct evwait	*waiters;
};

static void
unlink_waiter(struct evhub *hub, struct evwait *w)
{
	if (!w->listed)
		return;
	if (w->prev != NULL)
		w->prev->next = w->next;
	else
		hub->waiters = w->next;
	if (w->next != NULL)
		w->next->prev = w->prev;
	w->prev = w->next = NULL;
	w->listed = 0;
}

/* Under the lock: resume w's connection if suspended, and drop it from
 * the list either way once resumed. */
static void
resume(struct evhub *hub, struct evwait *w)
{
	if (w->suspended) {
		w->suspended = 0;
		unlink_waiter(hub, w);
		MHD_resume_connection(w->conn);
	}
}

static void *
timer_main(void *arg)
{
	struct evhub *hub = arg;
	struct evwait *w, *next;
	struct timespec until;
	int64_t now;

	thread_name_set("pbem-events");
	pthread_mutex_lock(&hub->lock);
	while (!hub->timer_exit) {
		now = now_ms();
		for (w = hub->waiters; w != NULL; w = next) {
			next = w->next;
			if (w->suspended && w->deadline_ms <= now)
				resume(hub, w);
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_cond_timedwait(&hub->tick, &hub->lock, &until);
	}
	pthread_mutex_unlock(&hub->lock);
	return NULL;
}

struct evhub *
evhub_new(void)
{
	struct evhub *hub = calloc(1, sizeof(*hub));

	if (hub == NULL)
		return NULL;
	pthread_mutex_init(&hub->lock, NULL);
	pthread_cond_init(&hub->tick, NULL);
	if (pthread_create(&hub->timer, NULL, timer_main, hub) != 0) {
		pthread_cond_destroy(&hub->tick);
		pthread_mutex_destroy(&hub->lock);
		free(hub);
		return NULL;
	}
	return hub;
}

void
evhub_shutdown(struct evhub *hub)
{
	struct evwait *w, *next;

	pthread_mutex_lock(&hub->lock);
	hub->stopping = 1;
	for (w = hub->waiters; w != NULL; w = next) {
		next = w->next;
		resume(hub, w);
	}
	pthread_mutex_unlock(&hub->lock);
}

void
evhub_free(struct evhub *hub)
{
	if (hub == NULL)
		return;
	pthread_mutex_lock(&hub->lock);
	hub->timer_exit = 1;
	pthread_cond_signal(&hub->tick);
	pthread_mutex_unlock(&hub->lock);
	pthread_join(hub->timer, NULL);
	pthread_cond_destroy(&hub->tick);
	pthread_mutex_destroy(&hub->lock);
	free(hub);
}

void
evhub_committed(int64_t game_id, int64_t seq, void *arg)
{
	struct evhub *hub = arg;
	struct evwait *w, *next;

	(void)seq;
	pthread_mutex_lock(&hub->lock);
	for (w = hub->waiters; w != NULL; w = next) {
		next = w->next;
		if (w->game_id == game_id ||
		    w->game_id == EVHUB_ALL_GAMES) {
			w->woken = 1;
			resume(hub, w);
		}
	}
	pthread_mutex_unlock(&hub->lock);
}

/* Under the lock: put w at the head of the list. */
static void
link_waiter(struct evhub *hub, struct evwait *w)
{
	w->prev = NULL;
	w->next = hub->waiters;
	if (w->next != NULL)
		w->next->prev = w;
	hub->waiters = w;
	w->listed = 1;
}

struct evwait *
evhub_register(struct evhub *hub, struct MHD_Connection *conn,
    int64_t game_id, int64_t wait_seconds)
{
	struct evwait *w = calloc(1, sizeof(*w));

	if (w == NULL)
		return NULL;
	w->hub = hub;
	w->conn = conn;
	w->game_id = game_id;
	w->deadline_ms = now_ms() + wait_seconds * 1000;
	pthread_mutex_lock(&hub->lock);
	link_waiter(hub, w);
	pthread_mutex_unlock(&hub->lock);
	return w;
}

void
evhub_rearm(struct evhub *hub, struct evwait *w, int64_t wait_seconds)
{
	pthread_mutex_lock(&hub->lock);
	w->woken = 0;
	w->deadline_ms = now_ms() + wait_seconds * 1000;
	if (!w->listed)
		link_waiter(hub, w);
	pthread_mutex_unlock(&hub->lock);
}

int
evhub_stopping(struct evhub *hub)
{
	int stopping;

	pthread_mutex_lock(&hub->lock);
	stopping = hub->stopping;
	pthread_mutex_unlock(&hub->lock);
	return stopping;
}

int
evhub_suspend(struct evhub *hub, struct evwait *w)
{
	int answer_now;

	pthread_mutex_lock(&hub->lock);
	answer_now = w->woken || hub->stopping || !w->listed;
	if (!answer_now) {
		w->suspended = 1;
		MHD_suspend_connection(w->conn);
		pthread_cond_signal(&hub->tick);
	}
	pthread_mutex_unlock(&hub->lock);
	return answer_now;
}

void
evhub_forget(void *arg)
{
	struct evwait *w = arg;
	struct evhub *hub;

	if (w == NULL)
		return;
	hub = w->hub;
	pthread_mutex_lock(&hub->lock);
	unlink_waiter(hub, w);
	pthread_mutex_unlock(&hub->lock);
	free(w);
}

int
evhub_was_woken(struct evwait *w)
{
	int woken;

	pthread_mutex_lock(&w->hub->lock);
	woken = w->woken;
	pthread_mutex_unlock(&w->hub->lock);
	return woken;
}
