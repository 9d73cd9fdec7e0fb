/*
 * clock.c -- see clock.h.
 */
#include <time.h>

#include "clock.h"

static clock_fn	 clock_source;
static void	*clock_arg;

int64_t
clock_now(void)
{
	if (clock_source != NULL)
		return clock_source(clock_arg);
	return (int64_t)time(NULL);
}

void
clock_set(clock_fn fn, void *arg)
{
	clock_source = fn;
	clock_arg = arg;
}
