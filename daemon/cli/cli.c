/*
 * cli.c -- helpers for the command-line programs (cli.h).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cli.h"

extern const char *program_invocation_short_name;

void
cli_help_or_version(const char *arg, void (*print_usage)(FILE *out))
{
	if (arg == NULL)
		return;
	if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
		print_usage(stdout);
		exit(EX_OK);
	}
	if (strcmp(arg, "--version") == 0) {
		printf("%s %s\n", program_invocation_short_name,
		    PACKAGE_VERSION);
		exit(EX_OK);
	}
}

void
cli_fatal(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

char *
cli_read_file(const char *path, size_t max, size_t *len, char *err,
    size_t errlen)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf, *grown;

	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if ((buf = malloc(cap)) == NULL) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n > max) {
			snprintf(err, errlen, "%s: larger than %zu bytes",
			    path, max);
			goto fail;
		}
		if (cap - n - 1 == 0) {
			if ((grown = realloc(buf, cap * 2)) == NULL) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			buf = grown;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		goto fail;
	}
	if (f != stdin)
		fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	if (f != stdin)
		fclose(f);
	return NULL;
}

int64_t
cli_number(const char *arg, int64_t min, int64_t max, const char *what)
{
	long long v;
	char *end;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < min || v > max)
		cli_fatal("%s must be a number from %lld to %lld, not \"%s\"",
		    what, (long long)min, (long long)max, arg);
	return v;
}

enum rules_lang
cli_lang(const char *arg)
{
	if (strcmp(arg, "en") == 0)
		return RULES_LANG_EN;
	if (strcmp(arg, "fr") == 0)
		return RULES_LANG_FR;
	cli_fatal("language must be en or fr, not \"%s\"", arg);
}

void
cli_print_json(json_t *value)
{
	json_dumpf(value, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	fputc('\n', stdout);
	json_decref(value);
}

void
cli_check_modules(void)
{
	const struct rules_module *const *m;
	char err[256];

	for (m = rules_all(); *m != NULL; m++)
		if (rules_validate_module(*m, err, sizeof(err)) != 0)
			cli_fatal("rule module refused: %s", err);
}
