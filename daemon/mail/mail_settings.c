/*
 * mail_settings.c -- the mail gateway's settings, and GMime's and
 * libcurl's set-up.
 *
 * Every setting NAME is pbemd's option mail_NAME: its type, range and
 * default are that row of daemon/runtime/conf.c's table (docs/CONFIG.md), the one
 * place they are written.  The table here only says where each one is
 * kept in struct mail_settings.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>
#include <curl/curl.h>

#include "conf.h"
#include "mail.h"

struct setting {
	const char	*name;		/* NAME of option mail_NAME */
	size_t		 offset;	/* in struct mail_settings */
	size_t		 size;		/* of that field */
};

#define FIELD(f)	{ #f, offsetof(struct mail_settings, f), \
			    sizeof(((struct mail_settings *)0)->f) }

static const struct setting settings[] = {
	FIELD(from),
	FIELD(from_name),
	FIELD(domain),
	FIELD(admin),
	FIELD(maildir_in),
	FIELD(maildir_out),
	FIELD(quarantine),
	FIELD(smtp_url),
	FIELD(smtp_user),
	FIELD(smtp_password),
	FIELD(smtp_starttls),
	FIELD(imap_url),
	FIELD(imap_user),
	FIELD(imap_password),
	FIELD(imap_starttls),
	FIELD(imap_done_folder),
	FIELD(tls_verify),
	FIELD(imap_interval),
	FIELD(maildir_interval_ms),
	FIELD(send_interval_ms),
	FIELD(max_size),
	FIELD(rate_max),
	FIELD(rate_window),
	FIELD(retry_base),
	FIELD(retry_max),
	FIELD(max_attempts),
	FIELD(timeout),
	FIELD(send_per_hour),
	FIELD(open_registration),
	{ NULL, 0, 0 }
};

/* The i-th setting's name, NULL past the last. */
const char *
mail_settings_name(int i)
{
	if (i < 0 || (size_t)i >= sizeof(settings) / sizeof(settings[0]))
		return NULL;
	return settings[i].name;
}

/* The row of pbemd's option table for setting t: mail_NAME.  Every
 * setting has one (check_mail checks it); a missing row is a bug. */
static const struct config_option *
option_of(const struct setting *t)
{
	const struct config_option *o;
	char name[64];

	snprintf(name, sizeof(name), "mail_%s", t->name);
	for (o = config_options(); o->name != NULL; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	abort();
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
	const struct config_option *o = option_of(t);
	char *p = (char *)s + t->offset, *end;
	long long n;
	int b;

	switch (o->type) {
	case CONFIG_STRING:
		if (strlen(value) >= t->size) {
			snprintf(err, errlen, "mail setting %s: longer than %zu "
			    "bytes", t->name, t->size - 1);
			return -1;
		}
		memcpy(p, value, strlen(value) + 1);
		return 0;
	case CONFIG_BOOL:
		if (parse_bool(value, &b) != 0) {
			snprintf(err, errlen, "mail setting %s: \"%s\" is not "
			    "yes or no", t->name, value);
			return -1;
		}
		*(int *)(void *)p = b;
		return 0;
	case CONFIG_INT:
		errno = 0;
		n = strtoll(value, &end, 10);
		if (*value == '\0' || *end != '\0' || errno != 0 ||
		    n < o->min || n > o->max) {
			snprintf(err, errlen, "mail setting %s: \"%s\" is not "
			    "a whole number from %lld to %lld", t->name, value,
			    o->min, o->max);
			return -1;
		}
		/* max_size is a size_t, the others are ints. */
		if (t->size == sizeof(size_t))
			*(size_t *)(void *)p = (size_t)n;
		else
			*(int *)(void *)p = (int)n;
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
	const struct config_option *o;
	const struct setting *t;
	struct config *defaults;
	char err[256];

	memset(s, 0, sizeof(*s));
	for (t = settings; t->name != NULL; t++)
		if (apply(s, t, option_of(t)->default_value, err,
		    sizeof(err)) != 0)
			abort();	/* a default out of its own range */
	for (o = config_options(); o->name != NULL; o++)
		if (strcmp(o->name, "forming_games_per_player") == 0)
			s->forming_games_per_player = atoi(o->default_value);
	/* The links' base as a default configuration derives it. */
	if ((defaults = config_new()) == NULL || config_derive(defaults, err,
	    sizeof(err)) != 0)
		abort();	/* out of memory at start-up */
	snprintf(s->public_base_url, sizeof(s->public_base_url), "%s",
	    config_str(defaults, "public_base_url"));
	config_free(defaults);
}

void
mail_init(void)
{
	g_mime_init();
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

void *
mail_curl_handle(const struct mail_settings *s, const char *user,
    const char *password, int starttls, long total_timeout, char *cerr)
{
	CURL *c = curl_easy_init();

	if (c == NULL)
		return NULL;
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long)s->timeout);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, total_timeout);
	curl_easy_setopt(c, CURLOPT_USE_SSL, starttls ? (long)CURLUSESSL_ALL :
	    (long)CURLUSESSL_NONE);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, s->tls_verify ? 1L : 0L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, s->tls_verify ? 2L : 0L);
	if (user[0] != '\0') {
		curl_easy_setopt(c, CURLOPT_USERNAME, user);
		curl_easy_setopt(c, CURLOPT_PASSWORD, password);
	}
	return c;
}

void
mail_shutdown(void)
{
	curl_global_cleanup();
	g_mime_shutdown();
}
