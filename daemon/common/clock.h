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

#include <stddef.h>
#include <stdint.h>

typedef int64_t (*clock_fn)(void *arg);

/* Unix seconds: the installed clock's, else the system's. */
int64_t	clock_now(void);
/* Install fn (with arg) as the clock; NULL restores the system clock. */
void	clock_set(clock_fn fn, void *arg);
/* "YYYY-MM-DD" (a real calendar day, years 2000-2200) as unix seconds at
 * 00:00 UTC, or -1: the one date reader of vacations, by mail and CLI. */
int64_t	clock_parse_date(const char *text);
/* t as ISO 8601 in UTC, "2024-01-01T09:00:00Z", into buf (len >= 32). */
void	clock_format_iso(int64_t t, char *buf, size_t len);
/* What clock_format_iso() wrote, back to unix seconds; -1 if it is not. */
int64_t	clock_parse_iso(const char *text);

#endif /* PBEM_CLOCK_H */
