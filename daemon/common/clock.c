/*
 * clock.c -- see clock.h.
 */
#include <stdio.h>
#include <string.h>
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

int64_t
clock_parse_date(const char *text)
{
	struct tm tm, back;
	time_t t;
	int y, m, d;
	char extra;

	if (sscanf(text, "%4d-%2d-%2d%c", &y, &m, &d, &extra) != 3 ||
	    y < 2000 || y > 2200 || m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	t = timegm(&tm);
	/* timegm() rolls 31 February over into March: refuse such days. */
	if (gmtime_r(&t, &back) == NULL || back.tm_mday != d ||
	    back.tm_mon != m - 1)
		return -1;
	return (int64_t)t;
}

void
clock_format_iso(int64_t t, char *buf, size_t len)
{
	time_t when = (time_t)t;
	struct tm tm;

	if (gmtime_r(&when, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "?");
}

int64_t
clock_parse_iso(const char *text)
{
	struct tm tm;
	char extra;

	memset(&tm, 0, sizeof(tm));
	if (text == NULL || sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2dZ%c",
	    &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
	    &tm.tm_sec, &extra) != 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (int64_t)timegm(&tm);
}
