/*
 * conf.c -- the option table and the file parser (see conf.h).
 *
 * To add an option: add a row to `options` below, keep the list in
 * docs/CONFIG.md and contrib/pbemd.conf in step (tests/check_config.c
 * checks that both name every option), and read it with config_str(),
 * config_int() or config_bool().
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrpolicy.h"
#include "conf.h"

#define CONFIG_LINE_MAX	4096

static const struct config_option options[] = {
	/* Where things are. */
	{ "database", CONFIG_STRING, "pbem.db", 0, 0, 0,
	    "the SQLite file; its server key is <database>.key" },
	{ "templates", CONFIG_STRING, "", 0, 0, 0,
	    "directory of the Mustache templates; empty: the installed ones" },
	{ "pid_file", CONFIG_STRING, "", 0, 0, 0,
	    "pid and lock file; empty: <database>.pid" },

	/* Logging. */
	{ "log", CONFIG_STRING, "stderr", 0, 0, 1,
	    "where log lines go: stderr, syslog (facility daemon), "
	    "syslog:mail (or daemon, local0..local7), or a file path" },
	{ "log_level", CONFIG_STRING, "info", 0, 0, 1,
	    "the least important level logged: warning, info or debug" },

	/* HTTP. */
	{ "http_listen", CONFIG_STRING, "127.0.0.1", 0, 0, 0,
	    "the address the HTTP API listens on (IPv4)" },
	{ "http_port", CONFIG_INT, "8080", 0, 65535, 0,
	    "the HTTP port; 0 turns the HTTP API off" },
	{ "http_threads", CONFIG_INT, "16", 1, 256, 0,
	    "threads answering HTTP requests" },
	{ "http_max_body", CONFIG_INT, "65536", 1024, 16777216, 1,
	    "the largest request body accepted, in bytes" },
	{ "http_timeout", CONFIG_INT, "30", 1, 3600, 0,
	    "seconds an idle HTTP connection is kept" },
	{ "http_request_timeout", CONFIG_INT, "30", 1, 3600, 1,
	    "seconds a request has to arrive whole (headers and body); then "
	    "its connection is closed" },
	{ "http_max_connections", CONFIG_INT, "1024", 1, 65536, 0,
	    "open HTTP connections served; up to 64 more are answered 503, "
	    "more still closed unanswered" },
	{ "http_max_connections_per_address", CONFIG_INT, "64", 0, 65536, 0,
	    "open HTTP connections at most from one address; 0: no limit" },

	/* Rate limits (token buckets; docs/CONFIG.md). */
	{ "rate_per_address", CONFIG_INT, "50", 0, 1000000, 1,
	    "HTTP requests per second from one client address; 0: no limit" },
	{ "rate_per_address_burst", CONFIG_INT, "100", 1, 1000000, 1,
	    "requests one address may make at once after a quiet spell" },
	{ "rate_per_key", CONFIG_INT, "60", 0, 1000000, 1,
	    "signed requests (moves) per minute per player key; 0: no limit" },
	{ "rate_per_key_burst", CONFIG_INT, "20", 1, 1000000, 1,
	    "signed requests one key may make at once after a quiet spell" },
	{ "schedule_interval", CONFIG_INT, "10", 1, 3600, 0,
	    "seconds between two passes of the deadline scheduler" },
	{ "outbox_keep_days", CONFIG_INT, "7", 1, 3650, 0,
	    "days a delivered mail or webhook row stays in the outbox" },

	/* The writer (daemon/engine/writer.h). */
	{ "writer_batch", CONFIG_INT, "256", 0, 4096, 0,
	    "most moves written in one transaction; 0: no writer thread, "
	    "each request writes its own" },
	{ "writer_cache", CONFIG_INT, "1024", 1, 1048576, 0,
	    "games whose newest state the writer keeps in memory" },
	/* The API: registration, signed requests, events. */
	{ "http_open_registration", CONFIG_BOOL, "yes", 0, 0, 1,
	    "anyone who reaches the API may register a player (POST /v1/players)" },
	{ "http_auth_window", CONFIG_INT, "120", 5, 3600, 1,
	    "seconds a signed request's time may differ from the server's clock" },
	{ "forming_games_per_player", CONFIG_INT, "10", 0, 1000000, 1,
	    "forming games one player may have a seat in; 0: no limit" },
	{ "http_events_max_wait", CONFIG_INT, "60", 1, 3600, 1,
	    "the longest an event long-poll may wait, in seconds" },
	{ "http_stream_max_seconds", CONFIG_INT, "3600", 1, 86400, 1,
	    "the longest one Server-Sent Events stream lasts, in seconds "
	    "(the client reconnects with Last-Event-ID)" },
	/* Webhooks (docs/WEBHOOKS.md). */
	{ "webhook_admin_token", CONFIG_STRING, "", 0, 0, 1,
	    "the administrator's bearer token over HTTP (webhooks, seating "
	    "other players); empty: off" },
	{ "webhook_admin_token_file", CONFIG_STRING, "", 0, 0, 1,
	    "a file whose first line is webhook_admin_token (mode 0600 or "
	    "0640); empty: none" },
	{ "webhook_timeout", CONFIG_INT, "10", 1, 300, 0,
	    "seconds a webhook receiver has to answer one delivery" },
	{ "webhook_retry_base", CONFIG_INT, "10", 1, 86400, 0,
	    "seconds before the first retry of a failed delivery; doubles each time" },
	{ "webhook_retry_max", CONFIG_INT, "3600", 1, 604800, 0,
	    "the longest wait between two attempts of a delivery, in seconds" },
	{ "webhook_failing_after", CONFIG_INT, "5", 1, 1000000, 0,
	    "failed attempts in a row after which a receiver is marked failing" },
	{ "webhook_poll", CONFIG_INT, "30", 1, 3600, 0,
	    "seconds between looks at the outbox when no commit wakes the sender" },
	{ "webhook_allow_hosts", CONFIG_STRING, "", 0, 0, 0,
	    "internal hosts webhooks may reach anyway: \"127.0.0.1, hooks.lan:8080\"" },
	{ "webhook_concurrency", CONFIG_INT, "32", 1, 1024, 0,
	    "webhook deliveries in flight at once" },
	{ "webhook_per_host", CONFIG_INT, "4", 1, 1024, 0,
	    "webhook deliveries in flight at once to one host" },
	{ "webhook_max_per_game", CONFIG_INT, "5", 0, 100000, 1,
	    "webhooks the players of one game may register; 0: no cap" },
	{ "webhook_max_per_player", CONFIG_INT, "10", 0, 100000, 1,
	    "webhooks one player may register across every game; 0: no cap" },
	/* The mail gateway (docs/MAIL.md); read by mail_config.c. */
	{ "mail_from", CONFIG_STRING, "pbem@localhost", 0, 0, 0,
	    "the From: address of outgoing mail" },
	{ "mail_from_name", CONFIG_STRING, "pbem", 0, 0, 0,
	    "the display name beside it" },
	{ "mail_domain", CONFIG_STRING, "", 0, 0, 0,
	    "right side of our Message-IDs; empty: the domain of mail_from" },
	{ "mail_admin", CONFIG_STRING, "", 0, 0, 0,
	    "address told of mail that failed for good; empty: none" },
	{ "mail_maildir_in", CONFIG_STRING, "mail/in", 0, 0, 0,
	    "Maildir watched for incoming moves; empty: no watcher" },
	{ "mail_maildir_out", CONFIG_STRING, "mail/out", 0, 0, 0,
	    "Maildir outbox used when mail_smtp_url is empty" },
	{ "mail_quarantine", CONFIG_STRING, "mail/quarantine", 0, 0, 0,
	    "Maildir keeping mail that cannot be handled, with the reason" },
	{ "mail_smtp_url", CONFIG_STRING, "", 0, 0, 0,
	    "smtp://host:port or smtps://host:port; empty: the Maildir outbox" },
	{ "mail_smtp_user", CONFIG_STRING, "", 0, 0, 0,
	    "SMTP AUTH user; empty: no AUTH" },
	{ "mail_smtp_password", CONFIG_STRING, "", 0, 0, 0,
	    "SMTP AUTH password" },
	{ "mail_smtp_password_file", CONFIG_STRING, "", 0, 0, 0,
	    "a file whose first line is the SMTP AUTH password (mode 0600 or "
	    "0640); empty: none" },
	{ "mail_smtp_starttls", CONFIG_BOOL, "no", 0, 0, 0,
	    "require STARTTLS on smtp://" },
	{ "mail_imap_url", CONFIG_STRING, "", 0, 0, 0,
	    "imap://host/INBOX or imaps://host/INBOX to poll; empty: no IMAP" },
	{ "mail_imap_user", CONFIG_STRING, "", 0, 0, 0,
	    "IMAP login" },
	{ "mail_imap_password", CONFIG_STRING, "", 0, 0, 0,
	    "IMAP password" },
	{ "mail_imap_password_file", CONFIG_STRING, "", 0, 0, 0,
	    "a file whose first line is the IMAP password (mode 0600 or "
	    "0640); empty: none" },
	{ "mail_imap_starttls", CONFIG_BOOL, "no", 0, 0, 0,
	    "require STARTTLS on imap://" },
	{ "mail_imap_done_folder", CONFIG_STRING, "", 0, 0, 0,
	    "IMAP folder processed mail is moved to; empty: left, flagged" },
	{ "mail_tls_verify", CONFIG_BOOL, "yes", 0, 0, 0,
	    "check the SMTP and IMAP servers' certificates" },
	{ "mail_imap_interval", CONFIG_INT, "30", 1, 86400, 0,
	    "seconds between IMAP polls" },
	{ "mail_maildir_interval_ms", CONFIG_INT, "1000", 10, 3600000, 0,
	    "milliseconds between scans of mail_maildir_in" },
	{ "mail_send_interval_ms", CONFIG_INT, "1000", 10, 3600000, 0,
	    "milliseconds between scans of the outbox" },
	{ "mail_max_size", CONFIG_INT, "4194304", 1024, 1073741824, 0,
	    "largest inbound message, in bytes; larger ones are quarantined" },
	{ "mail_rate_max", CONFIG_INT, "20", 0, 1000000, 0,
	    "replies to one address per mail_rate_window at most" },
	{ "mail_rate_window", CONFIG_INT, "3600", 1, 2592000, 0,
	    "seconds of the reply rate window" },
	{ "mail_retry_base", CONFIG_INT, "60", 1, 86400, 0,
	    "seconds before the first retry of a failed mail; doubles each time" },
	{ "mail_retry_max", CONFIG_INT, "21600", 1, 604800, 0,
	    "longest wait between retries, in seconds" },
	{ "mail_max_attempts", CONFIG_INT, "12", 1, 1000, 0,
	    "tries before a mail fails for good" },
	{ "mail_send_per_hour", CONFIG_INT, "30", 0, 1000000, 0,
	    "mails sent to one address per hour at most; more wait, none is "
	    "dropped; 0: no cap" },
	{ "mail_timeout", CONFIG_INT, "60", 1, 3600, 0,
	    "seconds for one SMTP or IMAP exchange" },
	{ "mail_open_registration", CONFIG_BOOL, "yes", 0, 0, 0,
	    "anyone may sign up by mail (\"register\" / \"inscription\")" },

	/* Playing by plain replies (docs/PLAYING.md). */
	{ "hosted_key_file", CONFIG_STRING, "", 0, 0, 0,
	    "key-encryption key of the keys the server holds for players "
	    "(0600); empty: <database>.kek" },
	{ "public_base_url", CONFIG_STRING, "", 0, 0, 0,
	    "the address people reach pbemd's HTTP at, for links in mails "
	    "(/play/..., /confirm/...); empty: http://HTTP_LISTEN:HTTP_PORT" },

	{ NULL, CONFIG_STRING, NULL, 0, 0, 0, NULL }
};

#define NOPTIONS	(sizeof(options) / sizeof(options[0]) - 1)

/* Text options that take one word of a fixed list. */
static const char *const log_levels[] = { "warning", "info", "debug", NULL };

static const struct {
	const char		*option;
	const char *const	*words;
} choices[] = {
	{ "log_level", log_levels },
	{ NULL, NULL }
};

struct config {
	char	*value[NOPTIONS];	/* the text of each option's value */
};

const struct config_option *
config_options(void)
{
	return options;
}

static int
option_index(const char *name)
{
	size_t i;

	for (i = 0; i < NOPTIONS; i++)
		if (strcmp(options[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int
parse_bool(const char *text, int *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(text, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(text, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

static int
parse_int(const char *text, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(text, &end, 10);
	if (end == text || *end != '\0' || errno == ERANGE)
		return -1;
	return 0;
}

/* For an option with a list of words: is text one of them? */
static int
check_choice(const struct config_option *o, const char *text, char *err,
    size_t errlen)
{
	const char *const *w;
	size_t i, len;

	for (i = 0; choices[i].option != NULL; i++) {
		if (strcmp(choices[i].option, o->name) != 0)
			continue;
		for (w = choices[i].words; *w != NULL; w++)
			if (strcmp(*w, text) == 0)
				return 0;
		len = (size_t)snprintf(err, errlen, "%s: \"%s\" is not one of",
		    o->name, text);
		for (w = choices[i].words; *w != NULL && len < errlen; w++)
			len += (size_t)snprintf(err + len, errlen - len, "%s %s",
			    w == choices[i].words ? "" : ",", *w);
		return -1;
	}
	return 0;
}

/* Is text a legal value for option o?  0, or -1 with the reason. */
static int
check_value(const struct config_option *o, const char *text, char *err,
    size_t errlen)
{
	char msg[200];
	long long n;
	int b;

	switch (o->type) {
	case CONFIG_INT:
		if (parse_int(text, &n) != 0) {
			snprintf(err, errlen, "%s: \"%s\" is not a whole "
			    "number", o->name, text);
			return -1;
		}
		if (n < o->min || n > o->max) {
			snprintf(err, errlen, "%s: %lld is out of range; it "
			    "must be from %lld to %lld", o->name, n, o->min,
			    o->max);
			return -1;
		}
		return 0;
	case CONFIG_BOOL:
		if (parse_bool(text, &b) != 0) {
			snprintf(err, errlen, "%s: \"%s\" is not yes or no",
			    o->name, text);
			return -1;
		}
		return 0;
	case CONFIG_STRING:
		if (strcmp(o->name, "webhook_allow_hosts") == 0 &&
		    addrpolicy_list_check(text, msg, sizeof(msg)) != 0) {
			snprintf(err, errlen, "%s: %s", o->name, msg);
			return -1;
		}
		return check_choice(o, text, err, errlen);
	}
	return 0;
}

struct config *
config_new(void)
{
	struct config *cfg;
	size_t i;

	if ((cfg = calloc(1, sizeof(*cfg))) == NULL)
		return NULL;
	for (i = 0; i < NOPTIONS; i++)
		if ((cfg->value[i] = strdup(options[i].default_value)) ==
		    NULL) {
			config_free(cfg);
			return NULL;
		}
	return cfg;
}

void
config_free(struct config *cfg)
{
	size_t i;

	if (cfg == NULL)
		return;
	for (i = 0; i < NOPTIONS; i++)
		free(cfg->value[i]);
	free(cfg);
}

int
config_set(struct config *cfg, const char *name, const char *value,
    char *err, size_t errlen)
{
	char *copy;
	int i;

	if ((i = option_index(name)) < 0) {
		snprintf(err, errlen, "unknown option \"%s\" (docs/CONFIG.md "
		    "lists them all)", name);
		return -1;
	}
	if (check_value(&options[i], value, err, errlen) != 0)
		return -1;
	if ((copy = strdup(value)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	free(cfg->value[i]);
	cfg->value[i] = copy;
	return 0;
}

int
config_derive(struct config *cfg, char *err, size_t errlen)
{
	const char	*host = config_str(cfg, "http_listen");
	char		 url[300];

	if (config_str(cfg, "public_base_url")[0] != '\0')
		return 0;
	if (strcmp(host, "0.0.0.0") == 0 || host[0] == '\0')
		host = "127.0.0.1";	/* every address: this machine's own */
	snprintf(url, sizeof(url), "http://%s:%lld", host,
	    config_int(cfg, "http_port"));
	return config_set(cfg, "public_base_url", url, err, errlen);
}

int
config_set_pair(struct config *cfg, const char *pair, char *err,
    size_t errlen)
{
	const char *eq = strchr(pair, '=');
	char name[128];

	if (eq == NULL || eq == pair || (size_t)(eq - pair) >= sizeof(name)) {
		snprintf(err, errlen, "\"%s\" is not name=value", pair);
		return -1;
	}
	memcpy(name, pair, (size_t)(eq - pair));
	name[eq - pair] = '\0';
	return config_set(cfg, name, eq + 1, err, errlen);
}

/* Strip blanks at both ends, in place. */
static char *
trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* One line of a file into scratch: 0 (also for blank lines and comments)
 * or -1 with the reason. */
static int
apply_line(struct config *scratch, char *line, char *err, size_t errlen)
{
	char *eq, *name, *value;
	size_t len;

	line = trim(line);
	if (*line == '\0' || *line == '#')
		return 0;
	if ((eq = strchr(line, '=')) == NULL) {
		snprintf(err, errlen, "expected \"name = value\"");
		return -1;
	}
	*eq = '\0';
	name = trim(line);
	value = trim(eq + 1);
	len = strlen(value);
	if (len >= 2 && value[0] == '"' && value[len - 1] == '"') {
		value[len - 1] = '\0';
		value++;
	}
	if (*name == '\0') {
		snprintf(err, errlen, "a line has no option name before '='");
		return -1;
	}
	return config_set(scratch, name, value, err, errlen);
}

int
config_load_file(struct config *cfg, const char *path, char *err,
    size_t errlen)
{
	struct config *scratch;
	char line[CONFIG_LINE_MAX], why[512];
	size_t i;
	FILE *f;
	int lineno = 0, rc = 0;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* Work on a copy so a refused file leaves cfg as it was. */
	if ((scratch = config_new()) == NULL) {
		fclose(f);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < NOPTIONS; i++)
		if (config_set(scratch, options[i].name, cfg->value[i], why,
		    sizeof(why)) != 0) {
			rc = -1;
			snprintf(err, errlen, "%s", why);
			break;
		}
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		if (strchr(line, '\n') == NULL && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line longer than %d "
			    "bytes", path, lineno, CONFIG_LINE_MAX - 2);
			rc = -1;
		} else if (apply_line(scratch, line, why, sizeof(why)) != 0) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
			rc = -1;
		}
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	fclose(f);
	if (rc == 0)
		for (i = 0; i < NOPTIONS; i++) {
			free(cfg->value[i]);
			cfg->value[i] = scratch->value[i];
			scratch->value[i] = NULL;
		}
	config_free(scratch);
	return rc;
}

static int
known_index(const char *name)
{
	int i = option_index(name);

	if (i < 0) {
		fprintf(stderr, "config: no option named \"%s\"\n", name);
		abort();
	}
	return i;
}

const char *
config_str(const struct config *cfg, const char *name)
{
	return cfg->value[known_index(name)];
}

long long
config_int(const struct config *cfg, const char *name)
{
	long long n = 0;

	(void)parse_int(cfg->value[known_index(name)], &n);
	return n;
}

int
config_bool(const struct config *cfg, const char *name)
{
	int b = 0;

	(void)parse_bool(cfg->value[known_index(name)], &b);
	return b;
}

int
config_is_secret(const char *name)
{
	static const char *const endings[] = { "_password", "_token", NULL };
	size_t len = strlen(name), elen, i;

	for (i = 0; endings[i] != NULL; i++) {
		elen = strlen(endings[i]);
		if (len > elen && strcmp(name + len - elen, endings[i]) == 0)
			return 1;
	}
	return 0;
}

void
config_write(const struct config *cfg, FILE *out)
{
	size_t i;

	for (i = 0; i < NOPTIONS; i++) {
		fprintf(out, "# %s (default: \"%s\"%s)\n", options[i].doc,
		    options[i].default_value, options[i].reloadable ?
		    "; SIGHUP reloads it" : "");
		fprintf(out, "%s = \"%s\"\n", options[i].name,
		    config_is_secret(options[i].name) && *cfg->value[i] != '\0' ?
		    CONFIG_SECRET_SHOWN : cfg->value[i]);
	}
}
