/*
 * log.c -- see log.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

enum log_target {
	TARGET_STDERR,
	TARGET_SYSLOG,
	TARGET_FILE
};

static const char *const level_names[] = { "warning", "info", "debug" };

/* The syslog facilities "syslog:NAME" may name. */
static const struct {
	const char	*name;
	int		 facility;
} facilities[] = {
	{ "daemon", LOG_DAEMON }, { "mail", LOG_MAIL },
	{ "local0", LOG_LOCAL0 }, { "local1", LOG_LOCAL1 },
	{ "local2", LOG_LOCAL2 }, { "local3", LOG_LOCAL3 },
	{ "local4", LOG_LOCAL4 }, { "local5", LOG_LOCAL5 },
	{ "local6", LOG_LOCAL6 }, { "local7", LOG_LOCAL7 },
};
#define SYSLOG_PREFIX	"syslog:"

/* The target is changed only under the mutex; the level is read without
 * it, so that a dropped debug line takes no lock. */
static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static const char *log_component = "pbem";
static enum log_target log_target = TARGET_STDERR;
static int log_fd = -1;			/* TARGET_FILE only */
static int log_facility = LOG_DAEMON;		/* TARGET_SYSLOG only */
static int stderr_is_journal;	/* systemd's journal reads our stderr */

static atomic_int log_level = LOG_LEVEL_INFO;

/*
 * Is standard error the journal's stream?  systemd sets JOURNAL_STREAM to
 * "DEVICE:INODE" of the stream it connected; a child whose stderr went
 * elsewhere inherits the variable, hence the comparison
 * (sd_journal_stream_fd(3), systemd.exec(5)).
 */
static int
journal_on_stderr(void)
{
	const char *stream = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat sb;

	if (stream == NULL || sscanf(stream, "%llu:%llu", &dev, &ino) != 2 ||
	    fstat(STDERR_FILENO, &sb) != 0)
		return 0;
	return (unsigned long long)sb.st_dev == dev &&
	    (unsigned long long)sb.st_ino == ino;
}

void
log_init(const char *component, int use_syslog, int verbose)
{
	log_component = component;
	stderr_is_journal = journal_on_stderr();
	if (use_syslog) {
		openlog(component, LOG_PID | LOG_NDELAY, LOG_DAEMON);
		log_target = TARGET_SYSLOG;
	}
	atomic_store(&log_level, verbose ? LOG_LEVEL_DEBUG : LOG_LEVEL_INFO);
}

int
log_level_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++)
		if (strcmp(name, level_names[i]) == 0)
			return (int)i;
	return -1;
}

int
log_syslog_facility(const char *target, char *err, size_t errlen)
{
	const char *name;
	size_t i;

	if (strcmp(target, "syslog") == 0)
		return LOG_DAEMON;
	if (strncmp(target, SYSLOG_PREFIX, strlen(SYSLOG_PREFIX)) != 0)
		return 0;
	name = target + strlen(SYSLOG_PREFIX);
	for (i = 0; i < sizeof(facilities) / sizeof(facilities[0]); i++)
		if (strcmp(name, facilities[i].name) == 0)
			return facilities[i].facility;
	snprintf(err, errlen, "log: syslog facility \"%s\" is not one of "
	    "daemon, mail, local0 to local7", name);
	return -1;
}

int
log_configure(const char *target, const char *level, char *err,
    size_t errlen)
{
	enum log_target kind;
	int fd = -1, old_fd, lvl, facility;

	if ((lvl = log_level_parse(level)) < 0) {
		snprintf(err, errlen, "log_level \"%s\" is not warning, info "
		    "or debug", level);
		return -1;
	}
	if ((facility = log_syslog_facility(target, err, errlen)) < 0)
		return -1;
	if (strcmp(target, "stderr") == 0)
		kind = TARGET_STDERR;
	else if (facility != 0)
		kind = TARGET_SYSLOG;
	else {
		kind = TARGET_FILE;
		if ((fd = open(target, O_WRONLY | O_APPEND | O_CREAT |
		    O_CLOEXEC, 0640)) == -1) {
			snprintf(err, errlen, "log file %s: %s", target,
			    strerror(errno));
			return -1;
		}
	}
	pthread_mutex_lock(&log_mutex);
	old_fd = log_fd;
	if (log_target == TARGET_SYSLOG && (kind != TARGET_SYSLOG ||
	    facility != log_facility))
		closelog();
	if (kind == TARGET_SYSLOG && (log_target != TARGET_SYSLOG ||
	    facility != log_facility)) {
		openlog(log_component, LOG_PID | LOG_NDELAY, facility);
		log_facility = facility;
	}
	log_target = kind;
	log_fd = fd;
	atomic_store(&log_level, lvl);
	pthread_mutex_unlock(&log_mutex);
	if (old_fd != -1)
		close(old_fd);
	return 0;
}

static void
vlog(int priority, int level, const char *fmt, va_list ap, int with_errno)
{
	static const char *const prefix[] = { "warning: ", "", "debug: " };
	char msg[2048], line[2200], stamp[32];
	struct timespec now;
	struct tm tm;
	size_t len;
	int saved = errno;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (with_errno) {
		len = strlen(msg);
		snprintf(msg + len, sizeof(msg) - len, ": %s",
		    strerror(saved));
	}
	pthread_mutex_lock(&log_mutex);
	if (log_target == TARGET_SYSLOG)
		syslog(priority, "%s", msg);
	else if (log_target == TARGET_STDERR && stderr_is_journal) {
		/* The journal stamps each line and reads its priority from
		 * a "<N>" prefix (sd-daemon(3)): journalctl -p warning. */
		len = (size_t)snprintf(line, sizeof(line), "<%d>%s%s\n",
		    priority, priority == LOG_CRIT ? "fatal: " :
		    prefix[level], msg);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		if (write(STDERR_FILENO, line, len) < 0)
			(void)0;
	} else {
		clock_gettime(CLOCK_REALTIME, &now);
		gmtime_r(&now.tv_sec, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
		len = (size_t)snprintf(line, sizeof(line), "%s.%03ldZ %s[%ld]: "
		    "%s%s\n", stamp, now.tv_nsec / 1000000, log_component,
		    (long)getpid(), priority == LOG_CRIT ? "fatal: " :
		    prefix[level], msg);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		/* A failed log write has nowhere to be reported. */
		if (write(log_target == TARGET_FILE ? log_fd : STDERR_FILENO,
		    line, len) < 0)
			(void)0;
	}
	/* Whoever started the daemon also sees why it stopped. */
	if (priority == LOG_CRIT && log_target != TARGET_STDERR)
		fprintf(stderr, "%s: %s\n", log_component, msg);
	pthread_mutex_unlock(&log_mutex);
	errno = saved;
}

/* Is a line of this level wanted now? */
static int
wanted(int level)
{
	return atomic_load_explicit(&log_level, memory_order_relaxed) >=
	    level;
}

void
log_warn(const char *fmt, ...)
{
	va_list ap;

	if (!wanted(LOG_LEVEL_WARNING))
		return;
	va_start(ap, fmt);
	vlog(LOG_WARNING, LOG_LEVEL_WARNING, fmt, ap, 1);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list ap;

	if (!wanted(LOG_LEVEL_WARNING))
		return;
	va_start(ap, fmt);
	vlog(LOG_WARNING, LOG_LEVEL_WARNING, fmt, ap, 0);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list ap;

	if (!wanted(LOG_LEVEL_INFO))
		return;
	va_start(ap, fmt);
	vlog(LOG_INFO, LOG_LEVEL_INFO, fmt, ap, 0);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list ap;

	if (!wanted(LOG_LEVEL_DEBUG))
		return;
	va_start(ap, fmt);
	vlog(LOG_DEBUG, LOG_LEVEL_DEBUG, fmt, ap, 0);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, LOG_LEVEL_WARNING, fmt, ap, 1);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, LOG_LEVEL_WARNING, fmt, ap, 0);
	va_end(ap);
	exit(1);
}
