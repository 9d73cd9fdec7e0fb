/*
 * scheduler.h -- pbemd's scheduler thread: opens its own store on dbpath
 * and runs schedule_tick(clock_now()) (daemon/engine/schedule.h) every
 * interval seconds until stopped; after each pass it removes the outbox
 * rows delivered more than keep_days days ago (engine_outbox_prune()).
 * key is only read (signing), so the daemon's key may be shared.
 */
#ifndef PBEM_SCHEDULER_H
#define PBEM_SCHEDULER_H

#include <stddef.h>

#include "serverkey.h"

struct schedule_thread;

struct schedule_thread *schedule_start(const char *dbpath,
	    const struct serverkey *key, int interval, int keep_days,
	    char *err, size_t errlen);
/* Something was committed: run the next pass about a second after the
 * last one began rather than an interval after it ended (a bot seat may
 * be to act).  Quick, from any thread; NULL does nothing. */
void	schedule_nudge(struct schedule_thread *t);
/* Stop the thread (waking it at once), wait for it and free it. */
void	schedule_stop(struct schedule_thread *t);

#endif /* PBEM_SCHEDULER_H */
