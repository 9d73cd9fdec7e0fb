/*
 * log.h -- the daemon's small logging API.
 *
 * Lines go to standard error until log_configure() names another target:
 * syslog, or a file that log_configure() (re)opens -- pbemd calls it again
 * on SIGHUP, which is what logrotate needs.  Lines on standard error and
 * in a file carry a UTC timestamp, the component and the level; syslog
 * adds its own.  When standard error is systemd's journal stream
 * ($JOURNAL_STREAM names it), a line starts instead with its syslog
 * priority, "<4>" to "<7>", which the journal keeps as the PRIORITY field
 * (the journal adds the time).  The *x variants do not append strerror(errno); the
 * others do.  Lines below the configured level are dropped (debug lines
 * cost one atomic load then).
 *
 * Every function here may be called from any thread at any time,
 * log_configure() included: a line is written whole with one write(2)
 * under a mutex that log_configure() also takes to swap the target, so a
 * reopen never loses, splits or misdirects a line written concurrently.
 */
#ifndef PBEM_LOG_H
#define PBEM_LOG_H

#include <stddef.h>

enum log_level {
	LOG_LEVEL_WARNING = 0,
	LOG_LEVEL_INFO = 1,
	LOG_LEVEL_DEBUG = 2
};

/* Component name, syslog or stderr, debug or info (the tools' set-up). */
void	log_init(const char *component, int use_syslog, int verbose);
/*
 * Send lines to target ("stderr"; "syslog", facility daemon, or
 * "syslog:FACILITY" with daemon, mail or local0 to local7; or a file path,
 * opened for appending, created 0640) from level ("warning", "info",
 * "debug") up.
 * Called again with the same file, it reopens it (log rotation).  0, or
 * -1 with the reason in err and the previous target and level kept.
 */
int	log_configure(const char *target, const char *level, char *err,
	    size_t errlen);
/* The syslog facility a target names: LOG_DAEMON for "syslog", the one
 * "syslog:FACILITY" names, 0 for a target that is not syslog, or -1 with
 * the reason in err for an unknown facility. */
int	log_syslog_facility(const char *target, char *err, size_t errlen);
/* "warning", "info" or "debug" -> its level; -1 for anything else. */
int	log_level_parse(const char *name);

void	log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif /* PBEM_LOG_H */
