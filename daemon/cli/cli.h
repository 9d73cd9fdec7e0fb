/*
 * cli.h -- small helpers shared by the command-line programs (pbem,
 * pbemctl): fatal errors, reading input files with a size limit, numbers
 * and languages from arguments, printing JSON.
 */
#ifndef PBEM_CLI_H
#define PBEM_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <jansson.h>

#include "rules.h"

#define CLI_INPUT_MAX (16 * 1024 * 1024)	/* largest input file */

/* When arg is "--help" (or "-h"), print_usage(stdout) and exit 0; when
 * it is "--version", print "<program> <version>" and exit 0; otherwise
 * return.  Every program calls it on its first argument. */
void	cli_help_or_version(const char *arg, void (*print_usage)(FILE *out));

/* Print "<program>: message" on stderr and exit 1. */
void	cli_fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
/* The whole of path ("-" for stdin), NUL-terminated, at most max bytes;
 * NULL with the reason in err. */
char   *cli_read_file(const char *path, size_t max, size_t *len, char *err,
	    size_t errlen);
/* arg as an integer in [min, max], or exit with a message naming what. */
int64_t	cli_number(const char *arg, int64_t min, int64_t max,
	    const char *what);
/* "en" or "fr", or exit with a message. */
enum rules_lang cli_lang(const char *arg);
/* Print JSON indented on stdout and drop the reference. */
void	cli_print_json(json_t *value);
/* Refuse to run if any registered rule module is malformed. */
void	cli_check_modules(void);

#endif /* PBEM_CLI_H */
