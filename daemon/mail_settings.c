/*
 * mail_settings.c -- the mail gateway's settings: one table of names,
 * types and defaults (docs/MAIL.md, "Settings"), and GMime's set-up.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmime/gmime.h>
#include <curl/curl.h>

#include "mail.h"

enum setting_type { SET_STR, SET_INT, SET_BOOL, SET_SIZE };

struct setting {
	const char		*name;
	enum setting_type	 type;
	size_t			 offset;
	size_t			 size;		/* SET_STR: the array */
	long long		 min, max;	/* SET_INT, SET_SIZE */
	const char		*def;
};

#define STR(f, d)	{ #f, SET_STR, offsetof(struct mail_settings, f), \
			    sizeof(((struct mail_settings *)0)->f), 0, 0, d }
#define INT(f, lo, hi, d) { #f, SET_INT, offsetof(struct mail_settings, f), \
			    0, lo, hi, d }
#define BOOL(f, d)	{ #f, SET_BOOL, offsetof(struct mail_settings, f), \
			    0, 0, 1, d }

static const struct setting settings[] = {
	STR(from, "pbem@localhost"),
	STR(from_name, "pbem"),
	STR(domain, ""),		/* "": the domain of from */
	STR(admin, ""),
	STR(maildir_in, "mail/in"),
	STR(maildir_out, "mail/out"),
	STR(quarantine, "mail/quarantine"),
	STR(smtp_url, ""),
	STR(smtp_user, ""),
	STR(smtp_password, ""),
	BOOL(smtp_starttls, "no"),
	STR(imap_url, ""),
	STR(imap_user, ""),
	STR(imap_password, ""),
	BOOL(imap_starttls, "no"),
	STR(imap_done_folder, ""),
	BOOL(tls_verify, "yes"),
	INT(imap_interval, 1, 86400, "30"),
	INT(maildir_interval_ms, 10, 3600000, "1000"),
	INT(send_interval_ms, 10, 3600000, "1000"),
	{ "max_size", SET_SIZE, offsetof(struct mail_settings, max_size), 0,
	    1024, 1024LL * 1024 * 1024, "4194304" },
	INT(rate_max, 0, 1000000, "20"),
	INT(rate_window, 1, 86400 * 30, "3600"),
	INT(retry_base, 1, 86400, "60"),
	INT(retry_max, 1, 86400 * 7, "21600"),
	INT(max_attempts, 1, 1000, "12"),
	INT(timeout, 1, 3600, "60"),
	{ NULL, SET_STR, 0, 0, 0, 0, NULL }
};

/* The i-th setting's name, NULL past the last. */
const char *
mail_settings_name(int i)
{
	if (i < 0 || (size_t)i >= sizeof(settings) / sizeof(settings[0]))
		return NULL;
	return settings[i].name;
}

static int
parse_bool(const char *v, int *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1", NULL };
	static const char *const no[] = { "no", "false", "off", "0", NULL };
	int i;

	for (i = 0; yes[i] != NULL; i++)
		if (strcasecmp(v, yes[i]) == 0)
			return *out = 1, 0;
	for (i = 0; no[i] != NULL; i++)
		if (strcasecmp(v, no[i]) == 0)
			return *out = 0, 0;
	return -1;
}

static int
apply(struct mail_settings *s, const struct setting *t, const char *value,
    char *err, size_t errlen)
{
	char *p = (char *)s + t->offset, *end;
	long long n;
	int b;

	switch (t->type) {
	case SET_STR:
		if (strlen(value) >= t->size) {
			snprintf(err, errlen, "mail setting %s: longer than %zu "
			    "bytes", t->name, t->size - 1);
			return -1;
		}
		memcpy(p, value, strlen(value) + 1);
		return 0;
	case SET_BOOL:
		if (parse_bool(value, &b) != 0) {
			snprintf(err, errlen, "mail setting %s: \"%s\" is not "
			    "yes or no", t->name, value);
			return -1;
		}
		*(int *)(void *)p = b;
		return 0;
	case SET_INT:
	case SET_SIZE:
		errno = 0;
		n = strtoll(value, &end, 10);
		if (*value == '\0' || *end != '\0' || errno != 0 ||
		    n < t->min || n > t->max) {
			snprintf(err, errlen, "mail setting %s: \"%s\" is not "
			    "a whole number from %lld to %lld", t->name, value,
			    t->min, t->max);
			return -1;
		}
		if (t->type == SET_INT)
			*(int *)(void *)p = (int)n;
		else
			*(size_t *)(void *)p = (size_t)n;
		return 0;
	}
	return -1;
}

int
mail_settings_set(struct mail_settings *s, const char *name,
    const char *value, char *err, size_t errlen)
{
	const struct setting *t;

	for (t = settings; t->name != NULL; t++)
		if (strcmp(t->name, name) == 0)
			return apply(s, t, value, err, errlen);
	snprintf(err, errlen, "unknown mail setting \"%s\"; see docs/MAIL.md",
	    name);
	return -1;
}

int
mail_settings_set_pair(struct mail_settings *s, const char *pair,
    char *err, size_t errlen)
{
	const char *eq = strchr(pair, '=');
	char name[64];

	if (eq == NULL || eq == pair || (size_t)(eq - pair) >= sizeof(name)) {
		snprintf(err, errlen, "\"%s\": expected name=value", pair);
		return -1;
	}
	memcpy(name, pair, eq - pair);
	name[eq - pair] = '\0';
	return mail_settings_set(s, name, eq + 1, err, errlen);
}

void
mail_settings_default(struct mail_settings *s)
{
	const struct setting *t;
	char err[256];

	memset(s, 0, sizeof(*s));
	for (t = settings; t->name != NULL; t++)
		if (apply(s, t, t->def, err, sizeof(err)) != 0)
			abort();	/* a default out of its own range */
}

void
mail_init(void)
{
	g_mime_init();
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

void
mail_shutdown(void)
{
	curl_global_cleanup();
	g_mime_shutdown();
}
