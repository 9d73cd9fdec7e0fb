/*
 * conf.h -- pbemd's settings (named conf.h, not config.h, which is
 * autoconf's).
 *
 * Every option is one row of a table in conf.c: its name, its type,
 * its default and one line saying what it does.  A setting comes from,
 * last one winning:
 *   1. the default in the table (pbemd runs with no file at all);
 *   2. the configuration file, lines of `name = value`, `#` comments;
 *   3. the command line (`-o name=value`, and the short flags).
 * A file with an unknown name, a value of the wrong type or out of range,
 * or a line that is not `name = value` is refused as a whole, with
 * "file:line: reason" -- never half applied.  docs/CONFIG.md and
 * contrib/pbemd.conf list every option; `pbemd -n` checks a file.
 *
 * A struct config is read-only once built; a reload (SIGHUP) builds a new
 * one and swaps it in (pbemd.c), so readers never see one half-changed.
 */
#ifndef PBEM_CONF_H
#define PBEM_CONF_H

#include <stddef.h>
#include <stdio.h>

enum config_type {
	CONFIG_STRING,
	CONFIG_INT,		/* a whole number within [min, max] */
	CONFIG_BOOL		/* yes/no, true/false, on/off, 1/0 */
};

struct config_option {
	const char	*name;
	enum config_type type;
	const char	*default_value;
	long long	 min, max;	/* CONFIG_INT only */
	int		 reloadable;	/* SIGHUP applies it without a restart */
	const char	*doc;		/* one line */
};

struct config;

/* The table, ending with a row whose name is NULL. */
const struct config_option *config_options(void);

/* A configuration holding every default.  NULL only if out of memory. */
struct config	*config_new(void);
void		 config_free(struct config *cfg);

/* Apply every line of the file at path; 0, or -1 with "path:line: why"
 * in err and cfg unchanged. */
int	config_load_file(struct config *cfg, const char *path, char *err,
	    size_t errlen);
/* Set one option from text ("name=value" on the command line); 0 or -1
 * with the reason in err and cfg unchanged. */
int	config_set(struct config *cfg, const char *name, const char *value,
	    char *err, size_t errlen);
int	config_set_pair(struct config *cfg, const char *name_equals_value,
	    char *err, size_t errlen);

/* Fill the options whose default comes from others, once every file and
 * override is applied: public_base_url, when empty, is the HTTP
 * listener's own address (http://HTTP_LISTEN:HTTP_PORT, 127.0.0.1 for
 * 0.0.0.0).  0, or -1 with the reason in err. */
int	config_derive(struct config *cfg, char *err, size_t errlen);

/* The value of a known option (asking for an unknown name is a
 * programming error and aborts). */
const char	*config_str(const struct config *cfg, const char *name);
long long	 config_int(const struct config *cfg, const char *name);
int		 config_bool(const struct config *cfg, const char *name);

/* Is the option a secret (a password or a token), whose value is never
 * printed nor logged?  1 or 0. */
int	config_is_secret(const char *name);
#define CONFIG_SECRET_SHOWN	"(secret, not shown)"

/* Write every option with its current value, as a configuration file
 * (what `pbemd -n -v` prints); a secret's value is CONFIG_SECRET_SHOWN. */
void	config_write(const struct config *cfg, FILE *out);

#endif /* PBEM_CONF_H */
