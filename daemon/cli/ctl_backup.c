/*
 * ctl_backup.c -- `pbemctl backup FILE` and `pbemctl restore FILE`
 * (pbemctl(8), docs/STORE.md, "Backup and restore").
 *
 * A backup is the files that belong together: FILE, the database as of
 * one commit (the store's online backup: consistent while pbemd runs),
 * FILE.key, the server's signing key (<database>.key), FILE.kek, the key
 * of the keys the server holds for players (the configuration's
 * hosted_key_file, else <database>.kek), when there is one, and with -c
 * every other secret file pbemd's configuration names
 * (mail_smtp_password_file, mail_imap_password_file,
 * webhook_admin_token_file) as FILE.<option>.  Without the keys a
 * restored database cannot sign new entries, and hosted players cannot
 * move.
 *
 * A restore refuses while a pbemd holds the database's lock (--pid-file,
 * else the configuration's pid_file, else <database>.pid), holds that
 * lock itself meanwhile, checks the backup (integrity, a pbem schema
 * this build knows), copies it over the database and the keys where the
 * configuration puts them (a secret file is put back only where none is:
 * a password changed since is kept), then audits every game: exit 0 only
 * when each one checks out.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <sodium.h>

#include "cli.h"
#include "pbemctl.h"

/* Key files are small; anything larger is not one of ours. */
#define KEY_FILE_MAX	4096

/* path + suffix into buf, or exit. */
static void
path_with(char *buf, size_t size, const char *path, const char *suffix)
{
	if ((size_t)snprintf(buf, size, "%s%s", path, suffix) >= size)
		cli_fatal("%s: path too long", path);
}

/*
 * Copy the key file from to to, mode 0600, through to.tmp and a rename
 * (to is whole or as it was).  overwrite 0: an existing to is refused.
 * 0 copied, 1 from does not exist, or exit with a message.
 */
static int
copy_key(const char *from, const char *to, int overwrite)
{
	char err[512], tmp[4096];
	size_t len;
	char *data;
	int fd;

	if (access(from, F_OK) != 0 && errno == ENOENT)
		return 1;
	if (!overwrite && access(to, F_OK) == 0)
		cli_fatal("%s: already exists; a backup never overwrites a "
		    "file", to);
	if ((data = cli_read_file(from, KEY_FILE_MAX, &len, err,
	    sizeof(err))) == NULL)
		cli_fatal("%s", err);
	path_with(tmp, sizeof(tmp), to, ".tmp");
	(void)unlink(tmp);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) == -1)
		cli_fatal("%s: %s", tmp, strerror(errno));
	if (write(fd, data, len) != (ssize_t)len || fsync(fd) != 0 ||
	    close(fd) != 0) {
		unlink(tmp);
		cli_fatal("%s: %s", tmp, strerror(errno));
	}
	sodium_memzero(data, len);
	free(data);
	if (rename(tmp, to) != 0) {
		unlink(tmp);
		cli_fatal("%s: %s", to, strerror(errno));
	}
	return 0;
}

/* The secret files besides the keys that pbemd's configuration may name;
 * a backup keeps each as FILE.<option>. */
static const char *const secret_options[] = {
	"mail_smtp_password_file",
	"mail_imap_password_file",
	"webhook_admin_token_file",
};
#define NSECRETS	(sizeof(secret_options) / sizeof(secret_options[0]))

/* The path the configuration gives option, or NULL when it names none. */
static const char *
configured(const struct ctl *c, const char *option)
{
	if (c->cfg == NULL || *config_str(c->cfg, option) == '\0')
		return NULL;
	return config_str(c->cfg, option);
}

int
ctl_cmd_backup(struct ctl *c, int argc, char **argv)
{
	char err[1024], from[4096], to[4096], *kek;
	const char *dest, *secret;
	size_t i;

	if (argc != 2)
		usage();
	dest = argv[1];
	/* Every file the configuration names must be there before the
	 * backup starts: a backup without them cannot be restored whole. */
	for (i = 0; i < NSECRETS; i++)
		if ((secret = configured(c, secret_options[i])) != NULL &&
		    access(secret, R_OK) != 0)
			cli_fatal("%s (%s): %s; the backup needs it", secret,
			    secret_options[i], strerror(errno));
	ctl_open(c, 0);
	if (store_backup(c->st, dest, err, sizeof(err)) != STORE_OK)
		cli_fatal("backup: %s", err);
	ctl_close(c);
	path_with(from, sizeof(from), c->dbpath, ".key");
	path_with(to, sizeof(to), dest, ".key");
	if (copy_key(from, to, 0) != 0)
		cli_fatal("%s: missing; the backup %s has no server key",
		    from, dest);
	printf("backup: %s (the database), %s (the server key)", dest, to);
	if ((kek = ctl_kek_path(c)) == NULL)
		cli_fatal("out of memory");
	path_with(to, sizeof(to), dest, ".kek");
	if (copy_key(kek, to, 0) == 0)
		printf(", %s (the hosted keys' key, from %s)", to, kek);
	free(kek);
	for (i = 0; i < NSECRETS; i++) {
		if ((secret = configured(c, secret_options[i])) == NULL)
			continue;
		path_with(to, sizeof(to), dest, "");
		path_with(from, sizeof(from), to, ".");
		path_with(to, sizeof(to), from, secret_options[i]);
		if (copy_key(secret, to, 0) != 0)
			cli_fatal("%s (%s): vanished during the backup",
			    secret, secret_options[i]);
		printf(", %s (%s)", to, secret_options[i]);
	}
	printf("\nKeep them together, somewhere pbemd's host is not.\n");
	return 0;
}

/* Take pbemd's lock on the database, or exit naming who holds it.  The
 * descriptor, held until exit; *made: we created the file. */
static int
take_lock(const char *path, int *made)
{
	int fd;

	*made = access(path, F_OK) != 0;
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) == -1)
		cli_fatal("%s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EWOULDBLOCK)
			cli_fatal("restore: a pbemd is running on this "
			    "database (%s is locked); stop it first "
			    "(systemctl stop pbemd)", path);
		cli_fatal("%s: %s", path, strerror(errno));
	}
	return fd;
}

int
ctl_cmd_restore(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid-file", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 }
	};
	char err[1024], from[4096], to[4096], lockpath[4096], *kek;
	const char *src, *secret;
	size_t i;
	int ch, lockfd, made, failed;

	if (configured(c, "pid_file") != NULL)
		path_with(lockpath, sizeof(lockpath),
		    configured(c, "pid_file"), "");
	else
		path_with(lockpath, sizeof(lockpath), c->dbpath, ".pid");
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch != 'p')
			usage();
		path_with(lockpath, sizeof(lockpath), optarg, "");
	}
	if (optind != argc - 1)
		usage();
	src = argv[optind];
	path_with(from, sizeof(from), src, ".key");
	if (access(from, R_OK) != 0)
		cli_fatal("%s: %s; a backup is FILE with FILE.key beside it",
		    from, strerror(errno));
	lockfd = take_lock(lockpath, &made);
	if (store_restore(src, c->dbpath, err, sizeof(err)) != STORE_OK) {
		if (made)
			unlink(lockpath);
		cli_fatal("restore: %s (the database is unchanged)", err);
	}
	path_with(to, sizeof(to), c->dbpath, ".key");
	copy_key(from, to, 1);
	path_with(from, sizeof(from), src, ".kek");
	if ((kek = ctl_kek_path(c)) == NULL)
		cli_fatal("out of memory");
	if (copy_key(from, kek, 1) == 0)
		printf("restored %s (the hosted keys' key)\n", kek);
	free(kek);
	for (i = 0; i < NSECRETS; i++) {
		if ((secret = configured(c, secret_options[i])) == NULL)
			continue;
		path_with(to, sizeof(to), src, ".");
		path_with(from, sizeof(from), to, secret_options[i]);
		if (access(secret, F_OK) == 0)
			printf("kept %s (%s): it is there already\n", secret,
			    secret_options[i]);
		else if (copy_key(from, secret, 0) == 0)
			printf("restored %s (%s)\n", secret,
			    secret_options[i]);
		else
			fprintf(stderr, "pbemctl: restore: %s is not in the "
			    "backup; write %s (%s) by hand\n", from, secret,
			    secret_options[i]);
	}
	printf("restored %s from %s; auditing every game\n", c->dbpath, src);
	ctl_open(c, 0);
	failed = ctl_audit_all(c) != 0;
	ctl_close(c);
	if (made)
		unlink(lockpath);
	close(lockfd);
	if (failed) {
		fprintf(stderr, "pbemctl: restore: a game fails its audit "
		    "(above)\n");
		return 1;
	}
	return 0;
}
