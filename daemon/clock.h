/*
 * clock.h -- the one place the engine reads the time.
 *
 * The engine stamps log entries, outbox rows and game creation with
 * clock_now(); the scheduler (schedule.h) and the seat, press and
 * observer commands take `now' as an argument instead, so that they are
 * pure functions of the database and the time they are given.  Tests
 * install a clock they control with clock_set() and never sleep.
 *
 * clock_set() must be called before any thread that reads the clock
 * starts (it is not synchronised); the daemon never calls it.
 */
#ifndef PBEM_CLOCK_H
#define PBEM_CLOCK_H

#include <stdint.h>

typedef int64_t (*clock_fn)(void *arg);

/* Unix seconds: the installed clock's, else the system's. */
int64_t	clock_now(void);
/* Install fn (with arg) as the clock; NULL restores the system clock. */
void	clock_set(clock_fn fn, void *arg);

#endif /* PBEM_CLOCK_H */
