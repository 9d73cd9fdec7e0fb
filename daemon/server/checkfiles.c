/*
 * checkfiles.c -- what `pbemd -n` checks beyond the settings' syntax: the
 * templates load, and every file or folder the configuration names
 * exists and can be used, or can be made, the secret files included;
 * every problem is named, not only the first (see server.h).
 *
 * Nothing is created or changed: the database is not opened (opening it
 * would migrate it), a missing database, server key or hosted key is
 * fine when its folder is writable, since pbemd makes them at start-up.
 */
#define _GNU_SOURCE		/* asprintf */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cardsets.h"
#include "conf_secrets.h"
#include "secretfile.h"
#include "server.h"
#include "serverkey.h"
#include "templates.h"

/* Report one problem with what, path and why; counts it. */
static void
problem(int *problems, const char *what, const char *path, const char *why)
{
	fprintf(stderr, "pbemd: %s: %s: %s\n", what, path, why);
	(*problems)++;
}

/* The folder path is in can take a new file. */
static void
check_folder_of(int *problems, const char *what, const char *path)
{
	char *copy, *dir;

	if ((copy = strdup(path)) == NULL)
		fatalx("out of memory");
	dir = dirname(copy);
	if (access(dir, W_OK | X_OK) != 0)
		problem(problems, what, path, errno == ENOENT ?
		    "its folder does not exist" :
		    "its folder is not writable by this user");
	free(copy);
}

/* A file pbemd reads and writes, or makes when it is missing. */
static void
check_file(int *problems, FILE *out, const char *what, const char *path)
{
	struct stat sb;

	if (stat(path, &sb) != 0) {
		if (errno != ENOENT) {
			problem(problems, what, path, strerror(errno));
			return;
		}
		check_folder_of(problems, what, path);
		fprintf(out, "pbemd: %s: %s does not exist yet; pbemd makes "
		    "it\n", what, path);
		return;
	}
	if (!S_ISREG(sb.st_mode))
		problem(problems, what, path, "not a regular file");
	else if (access(path, R_OK | W_OK) != 0)
		problem(problems, what, path, strerror(errno));
}

/* A key file: as check_file(), and its mode keeps it secret. */
static void
check_key_file(int *problems, FILE *out, const char *what, const char *path)
{
	char why[512];
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			check_file(problems, out, what, path);
		else
			problem(problems, what, path, strerror(errno));
		return;
	}
	if (secretfile_check_mode(fd, path, why, sizeof(why)) != 0) {
		fprintf(stderr, "pbemd: %s: %s\n", what, why);
		(*problems)++;
	}
	close(fd);
}

/* A Maildir pbemd makes when missing: if it is there, a folder. */
static void
check_maildir(int *problems, const char *option, const char *path)
{
	struct stat sb;

	if (*path == '\0')
		return;
	if (stat(path, &sb) == 0 && !S_ISDIR(sb.st_mode))
		problem(problems, option, path, "not a folder");
	else if (stat(path, &sb) == 0 && access(path, W_OK | X_OK) != 0)
		problem(problems, option, path, "not writable by this user");
}

/*
 * Each card game's own card file (docs/CARDFILES.md), read and parsed as
 * a game created over HTTP would.  A warning, not a problem: games of
 * other modules run without it, and only new games of that one need it.
 */
static void
check_card_files(FILE *out)
{
	const struct rules_module *const *m;
	struct cardfile cf;
	char err[RULES_ERRLEN + 600];
	void *set;

	for (m = rules_all(); *m != NULL; m++) {
		if (!rules_has_cards(*m))
			continue;
		if (cardfile_default(*m, &cf, err, sizeof(err)) != 0) {
			fprintf(stderr, "pbemd: warning: cards of %s: %s (no "
			    "game of %s can be created without it)\n",
			    (*m)->name, err, (*m)->name);
			continue;
		}
		if ((set = (*m)->cards_parse(cf.bytes, cf.len, cf.name, err,
		    sizeof(err))) == NULL)
			fprintf(stderr, "pbemd: warning: cards of %s: %s\n",
			    (*m)->name, err);
		else
			fprintf(out, "pbemd: cards: %s from %s (sha256 %s)\n",
			    (*m)->name, cf.name, cf.hash);
		(*m)->cards_free(set);
		cardfile_clear(&cf);
	}
}

int
daemon_check_files(const struct config *cfg, FILE *out)
{
	const char *dbpath = config_str(cfg, "database");
	const char *option_dir = config_str(cfg, "templates");
	const char *log = config_str(cfg, "log");
	const char *dir;
	struct tpl_set *set;
	char err[1024], *path;
	int problems = 0, facility;

	dir = templates_dir(*option_dir != '\0' ? option_dir : NULL);
	if ((set = templates_load(dir, err, sizeof(err))) == NULL) {
		fprintf(stderr, "pbemd: templates: %s (set templates = DIR, "
		    "or -t DIR)\n", err);
		problems++;
	} else {
		fprintf(out, "pbemd: templates: %zu loaded from %s\n",
		    templates_count(set), dir);
		templates_free(set);
	}
	check_card_files(out);
	check_file(&problems, out, "database", dbpath);
	path = serverkey_path_for(dbpath);
	check_key_file(&problems, out, "server key", path);
	free(path);
	if (*config_str(cfg, "hosted_key_file") != '\0')
		check_key_file(&problems, out, "hosted_key_file",
		    config_str(cfg, "hosted_key_file"));
	else {
		if (asprintf(&path, "%s.kek", dbpath) == -1)
			fatalx("out of memory");
		check_key_file(&problems, out, "hosted_key_file", path);
		free(path);
	}
	if (*config_str(cfg, "pid_file") != '\0')
		check_folder_of(&problems, "pid_file",
		    config_str(cfg, "pid_file"));
	else
		check_folder_of(&problems, "pid_file", dbpath);
	if ((facility = log_syslog_facility(log, err, sizeof(err))) < 0) {
		fprintf(stderr, "pbemd: %s\n", err);
		problems++;
	} else if (facility == 0 && strcmp(log, "stderr") != 0)
		check_file(&problems, out, "log", log);
	check_maildir(&problems, "mail_maildir_in",
	    config_str(cfg, "mail_maildir_in"));
	check_maildir(&problems, "mail_maildir_out",
	    config_str(cfg, "mail_maildir_out"));
	check_maildir(&problems, "mail_quarantine",
	    config_str(cfg, "mail_quarantine"));
	problems += config_check_secret_files(cfg, stderr);
	return problems;
}
