/*
 * mail_deliver.c -- `pbemd deliver`: the MTA pipe mode.  Reads one
 * RFC 5322 message on standard input (from a .forward, an alias
 * "|/usr/bin/pbemd deliver -d /var/lib/pbem/pbem.db", or a pipe
 * transport), runs it through mail_ingest() and exits with a
 * <sysexits.h> code the MTA understands:
 *
 *   EX_OK        handled: played, answered, ignored, duplicate, or kept
 *                in quarantine with its reason
 *   EX_TEMPFAIL  nothing changed (store busy or not reachable, the
 *                quarantine not writable): the MTA keeps the message
 *                and tries again later
 *   EX_DATAERR   larger than 8 x max_size: refused, so the MTA bounces
 *                it to its sender rather than anyone storing it
 *   EX_IOERR     standard input could not be read
 *   EX_USAGE     bad arguments or settings
 *   EX_NOINPUT   the server key is missing (pbemd never started here)
 *
 * The envelope sender comes from -f, else $SENDER (set by Postfix's
 * local(8) and Exim for pipes), else the message's Return-Path.
 *
 * Memory is bounded: at most 8 x max_size is read, and mail_ingest()'s
 * limits bound the parse.  If this process dies on a message (killed by
 * a signal, which the MTA takes as "try again"), the retry finds the
 * attempt noted in the store and quarantines it: EX_OK, no retry loop.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include <sodium.h>

#include "conf.h"
#include "conf_secrets.h"
#include "engine.h"
#include "log.h"
#include "mail.h"

static int
usage(void)
{
	fprintf(stderr, "usage: pbemd deliver [-c file] [-d database] "
	    "[-f sender] [-m name=value]...\n");
	return EX_USAGE;
}

/* All of stdin, at most cap bytes; -1 on a read error, 1 if over cap. */
static int
read_stdin(size_t cap, char **out, size_t *len)
{
	char *buf = NULL, *grown;
	size_t n = 0, size = 0;
	ssize_t r;

	for (;;) {
		if (n == size) {
			size = size ? size * 2 : 65536;
			if (size > cap + 1)
				size = cap + 1;
			if (n == size) {
				free(buf);
				return 1;
			}
			if ((grown = realloc(buf, size)) == NULL) {
				free(buf);
				return -1;
			}
			buf = grown;
		}
		r = read(STDIN_FILENO, buf + n, size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*out = buf;
	*len = n;
	return 0;
}

int
mail_deliver_main(int argc, char **argv)
{
	struct mail_settings set;
	struct mail_ingest_ctx ctx;
	struct mail_result r;
	struct serverkey *key;
	struct store *st;
	const char *dbpath = NULL, *sender = NULL, *file = NULL;
	struct config *cfg;
	char err[1024], keytext[128], *keypath, *raw = NULL;
	size_t len = 0;
	int ch, rc;

	/* The same configuration file as pbemd's (-c), then -m NAME=VALUE
	 * for single mail settings. */
	optind = 1;
	while ((ch = getopt(argc, argv, "c:d:f:m:")) != -1)
		if (ch == 'c')
			file = optarg;
	if ((cfg = config_new()) == NULL)
		return EX_OSERR;
	if ((file != NULL && config_load_file(cfg, file, err,
	    sizeof(err)) != 0) || config_read_secret_files(cfg, err,
	    sizeof(err)) != 0 || config_derive(cfg, err, sizeof(err)) != 0 ||
	    mail_settings_from_config(&set, cfg, err,
	    sizeof(err)) != 0) {
		fprintf(stderr, "pbemd deliver: %s\n", err);
		config_free(cfg);
		return EX_CONFIG;
	}
	optind = 1;
	while ((ch = getopt(argc, argv, "c:d:f:m:")) != -1) {
		switch (ch) {
		case 'c':
			break;
		case 'd':
			dbpath = optarg;
			break;
		case 'f':
			sender = optarg;
			break;
		case 'm':
			if (mail_settings_set_pair(&set, optarg, err,
			    sizeof(err)) != 0) {
				fprintf(stderr, "pbemd deliver: %s\n", err);
				config_free(cfg);
				return EX_USAGE;
			}
			break;
		default:
			config_free(cfg);
			return usage();
		}
	}
	if (optind != argc) {
		config_free(cfg);
		return usage();
	}
	if (dbpath == NULL)
		dbpath = config_str(cfg, "database");
	else if (*config_str(cfg, "hosted_key_file") == '\0' &&
	    mail_settings_links(&set, cfg, dbpath, err, sizeof(err)) != 0) {
		fprintf(stderr, "pbemd deliver: %s\n", err);
		config_free(cfg);
		return EX_CONFIG;
	}
	if (sender == NULL)
		sender = getenv("SENDER");
	log_init("pbemd deliver", 0, 0);
	if (sodium_init() < 0) {
		fprintf(stderr, "pbemd deliver: libsodium failed\n");
		config_free(cfg);
		return EX_SOFTWARE;
	}

	switch (read_stdin(set.max_size * 8, &raw, &len)) {
	case -1:
		fprintf(stderr, "pbemd deliver: reading the message: %s\n",
		    strerror(errno));
		config_free(cfg);
		return EX_IOERR;
	case 1:
		fprintf(stderr, "pbemd deliver: message larger than %zu bytes "
		    "refused\n", set.max_size * 8);
		config_free(cfg);
		return EX_DATAERR;
	}

	if (store_open(dbpath, &st, err, sizeof(err)) != STORE_OK) {
		fprintf(stderr, "pbemd deliver: %s\n", err);
		free(raw);
		config_free(cfg);
		return EX_TEMPFAIL;
	}
	keypath = serverkey_path_for(dbpath);
	key = serverkey_open(keypath, 0, err, sizeof(err));
	free(keypath);
	if (key == NULL || engine_bind_server_key(st, key, keytext,
	    sizeof(keytext), err, sizeof(err)) != 0) {
		fprintf(stderr, "pbemd deliver: %s\n", err);
		serverkey_close(key);
		store_close(st);
		free(raw);
		config_free(cfg);
		return EX_NOINPUT;
	}
	mail_init();
	ctx.st = st;
	ctx.key = key;
	ctx.set = &set;
	mail_ingest(&ctx, raw, len, sender, &r);
	rc = EX_OK;
	if (r.outcome == MAIL_TEMPFAIL)
		rc = EX_TEMPFAIL;
	else if (r.outcome == MAIL_QUARANTINED && mail_quarantine(&set, raw,
	    len, r.reason, err, sizeof(err)) != 0) {
		fprintf(stderr, "pbemd deliver: cannot quarantine: %s\n", err);
		rc = EX_TEMPFAIL;
	}
	fprintf(stderr, "pbemd deliver: <%s>: %s: %s\n", r.message_id,
	    mail_outcome_name(r.outcome), r.reason);
	free(raw);
	serverkey_close(key);
	store_close(st);
	mail_shutdown();
	config_free(cfg);
	return rc;
}
