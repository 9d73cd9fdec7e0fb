/*
 * events.h -- the event long-polls waiting for a game's next commit.
 *
 * A request for a game's events after sequence number N that finds none
 * waits here without holding an HTTP thread: it registers a waiter, then
 * suspends its connection (libmicrohttpd's MHD_suspend_connection).  The
 * engine's commit hook (evhub_committed) resumes every suspended waiter
 * of that game; a timer thread resumes those whose time is up.  Resumed,
 * the handler runs again and answers with what the log holds then.
 *
 * No wake-up is lost: a waiter is registered before the handler reads the
 * log, and a commit between that read and the suspension marks the
 * waiter woken, so evhub_suspend() refuses to suspend it and the handler
 * answers at once.  A long-poll's connection is resumed at most once.
 *
 * A waiter registered for EVHUB_ALL_GAMES is woken by a commit in any
 * game (GET /v1/events).  A Server-Sent Events stream (sse.h) keeps one
 * waiter for its whole life and re-arms it with evhub_rearm() before each
 * read of the log, so it is suspended and resumed many times.
 *
 * Thread-safe; one mutex.  Lock order: the hub's mutex, then
 * libmicrohttpd's (MHD_suspend/resume_connection are called under the
 * hub's mutex, never the other way round).
 */
#ifndef PBEM_EVENTS_H
#define PBEM_EVENTS_H

#include <stdint.h>

/* The game id a waiter of every game's commits registers for (game ids
 * start at 1). */
#define EVHUB_ALL_GAMES	0

struct MHD_Connection;
struct evhub;
struct evwait;

/* A hub with its timer thread; NULL if it cannot be made. */
struct evhub	*evhub_new(void);
/* Resume every suspended waiter and refuse to suspend new ones (before
 * MHD_stop_daemon, which must not find suspended connections). */
void		 evhub_shutdown(struct evhub *hub);
/* Stop the timer thread and free the hub (after MHD_stop_daemon). */
void		 evhub_free(struct evhub *hub);

/* The engine's commit hook (engine_set_commit_hook(evhub_committed,
 * hub)): wake the waiters of game_id. */
void		 evhub_committed(int64_t game_id, int64_t seq, void *hub);

/* Register conn as waiting for game_id for wait_seconds from now (never
 * less; the timer may resume it up to a second later).  NULL if out of
 * memory. */
struct evwait	*evhub_register(struct evhub *hub, struct MHD_Connection *conn,
		    int64_t game_id, int64_t wait_seconds);
/* Suspend the waiter's connection: 0 if suspended (return MHD_YES and
 * wait to be called again), 1 if it was woken since it registered or the
 * hub is shutting down (answer now instead). */
int		 evhub_suspend(struct evhub *hub, struct evwait *w);
/* The waiter's connection is finished: forget it (the connection's
 * state-free function; never while it is suspended). */
void		 evhub_forget(void *w);
/* Put a waiter that was resumed back on the list, not woken, to wait
 * wait_seconds from now (a stream's next wait; call before reading). */
void		 evhub_rearm(struct evhub *hub, struct evwait *w,
		    int64_t wait_seconds);
/* Is the hub shutting down (a stream must end)? */
int		 evhub_stopping(struct evhub *hub);
/* Was the waiter woken by a commit (1) or not (0: time up, shutdown)? */
int		 evhub_was_woken(struct evwait *w);

#endif /* PBEM_EVENTS_H */
