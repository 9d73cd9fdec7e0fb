/*
 * log.h -- the daemon's small logging API.
 *
 * Lines go to standard error (or syslog with log_init(..., 1)), each
 * prefixed with the component name set by log_init().  The *x variants
 * do not append strerror(errno); the others do.  log_debug() prints only
 * when verbose logging is on.
 */
#ifndef PBEM_LOG_H
#define PBEM_LOG_H

void	log_init(const char *component, int use_syslog, int verbose);
void	log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif /* PBEM_LOG_H */
