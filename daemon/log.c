/*
 * log.c -- see log.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "log.h"

static const char *log_component = "pbem";
static int log_syslog;
static int log_verbose;

void
log_init(const char *component, int use_syslog, int verbose)
{
	log_component = component;
	log_syslog = use_syslog;
	log_verbose = verbose;
	if (use_syslog)
		openlog(component, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

static void
vlog(int priority, const char *fmt, va_list ap, int with_errno)
{
	char msg[2048];
	int saved = errno;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (with_errno) {
		size_t len = strlen(msg);
		snprintf(msg + len, sizeof(msg) - len, ": %s",
		    strerror(saved));
	}
	if (log_syslog)
		syslog(priority, "%s", msg);
	else
		fprintf(stderr, "%s: %s\n", log_component, msg);
	errno = saved;
}

void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_WARNING, fmt, ap, 1);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_WARNING, fmt, ap, 0);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_INFO, fmt, ap, 0);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	vlog(LOG_DEBUG, fmt, ap, 0);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, fmt, ap, 1);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, fmt, ap, 0);
	va_end(ap);
	exit(1);
}
