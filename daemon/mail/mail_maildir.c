/*
 * mail_maildir.c -- Maildir in, out and quarantine, and the watcher.
 *
 * Writing follows the Maildir convention: the message goes to tmp/,
 * is fsync'd, then renamed into new/, so a reader never sees half a
 * message; the sender's batches (maildir_batch_*) write all their
 * messages into tmp/ first, then sync each one's data, rename them, and
 * fsync new/ once.  Reading takes every file of new/, hands it to mail_ingest()
 * and renames it to cur/NAME:2,S (":2,FS" when it was quarantined, so
 * it stands out); on MAIL_TEMPFAIL it stays in new/ for the next scan.
 * A file over max_size, or that is not a regular file, is never read:
 * it is renamed into the quarantine as it is, and its reason written
 * beside it in QUARANTINE/reasons/NAME (a header cannot be added to a
 * message without reading it).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "mail.h"

/* mkdir -p for one path. */
static int
mkdirs(const char *path, char *err, size_t errlen)
{
	char buf[MAIL_PATH_MAX + 8], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0700) == -1 && errno != EEXIST) {
			snprintf(err, errlen, "mkdir %s: %s", buf,
			    strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(buf, 0700) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "mkdir %s: %s", buf, strerror(errno));
		return -1;
	}
	return 0;
}

int
maildir_make(const char *dir, char *err, size_t errlen)
{
	static const char *const subs[] = { "tmp", "new", "cur" };
	char path[MAIL_PATH_MAX + 8];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, subs[i]);
		if (mkdirs(path, err, errlen) != 0)
			return -1;
	}
	return 0;
}

static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* A Maildir file name: HINT.HOST, or a fresh unique TIME.MusPpidQn.HOST. */
static void
maildir_name(const char *name_hint, char *name, size_t size)
{
	static unsigned long counter;
	char host[128];
	struct timespec ts;

	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	host[strcspn(host, "/:")] = '\0';
	clock_gettime(CLOCK_REALTIME, &ts);
	if (name_hint != NULL)
		snprintf(name, size, "%s.%s", name_hint, host);
	else
		snprintf(name, size, "%lld.M%ldP%dQ%lu.%s",
		    (long long)ts.tv_sec, ts.tv_nsec / 1000, (int)getpid(),
		    __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED), host);
}

int
maildir_put(const char *dir, const char *name_hint, const char *header,
    const char *data, size_t len, char *err, size_t errlen)
{
	char name[256], tmp[MAIL_PATH_MAX + 300], dst[MAIL_PATH_MAX + 300];
	int fd;

	if (maildir_make(dir, err, errlen) != 0)
		return -1;
	maildir_name(name_hint, name, sizeof(name));
	snprintf(tmp, sizeof(tmp), "%s/tmp/%s", dir, name);
	snprintf(dst, sizeof(dst), "%s/new/%s", dir, name);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if ((header != NULL && write_all(fd, header, strlen(header)) != 0) ||
	    write_all(fd, data, len) != 0 || fsync(fd) != 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	if (rename(tmp, dst) != 0) {
		snprintf(err, errlen, "rename %s: %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int
maildir_batch_begin(struct maildir_batch *b, const char *dir, char *err,
    size_t errlen)
{
	b->n = 0;
	if (snprintf(b->dir, sizeof(b->dir), "%s", dir) >=
	    (int)sizeof(b->dir)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -1;
	}
	return maildir_make(dir, err, errlen);
}

int
maildir_batch_add(struct maildir_batch *b, const char *name_hint,
    const char *data, size_t len, char *err, size_t errlen)
{
	char tmp[MAIL_PATH_MAX + 300];
	int fd;

	if (b->n == MAILDIR_BATCH_MAX) {
		snprintf(err, errlen, "%s: the batch is full", b->dir);
		return -1;
	}
	maildir_name(name_hint, b->name[b->n], sizeof(b->name[b->n]));
	snprintf(tmp, sizeof(tmp), "%s/tmp/%s", b->dir, b->name[b->n]);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (write_all(fd, data, len) != 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd) != 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return b->n++;
}

/* Remove the messages of b from i on from tmp/ (not delivered). */
static void
batch_unlink_from(const struct maildir_batch *b, int i, int *moved)
{
	char tmp[MAIL_PATH_MAX + 300];

	for (; i < b->n; i++) {
		moved[i] = 0;
		snprintf(tmp, sizeof(tmp), "%s/tmp/%s", b->dir, b->name[i]);
		unlink(tmp);
	}
}

int
maildir_batch_commit(struct maildir_batch *b, int *moved, char *err,
    size_t errlen)
{
	char tmp[MAIL_PATH_MAX + 300], dst[MAIL_PATH_MAX + 300];
	int fd, dfd, i, rc = 0, any = 0;

	if (b->n == 0)
		return 0;
	snprintf(tmp, sizeof(tmp), "%s/new", b->dir);
	if ((fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		batch_unlink_from(b, 0, moved);
		b->n = 0;
		return -1;
	}
	/* Every message's data on disk.  The writes were all issued first,
	 * so one journal commit can carry several files' metadata.  (One
	 * syncfs() for the batch was tried: on a file system shared with
	 * other work it flushes their data too, and cost more.) */
	for (i = 0; i < b->n; i++) {
		snprintf(tmp, sizeof(tmp), "%s/tmp/%s", b->dir, b->name[i]);
		if ((dfd = open(tmp, O_RDONLY | O_CLOEXEC)) == -1 ||
		    fdatasync(dfd) != 0) {
			snprintf(err, errlen, "fdatasync %s: %s", tmp,
			    strerror(errno));
			if (dfd != -1)
				close(dfd);
			batch_unlink_from(b, 0, moved);
			close(fd);
			b->n = 0;
			return -1;
		}
		close(dfd);
	}
	for (i = 0; i < b->n; i++) {
		snprintf(tmp, sizeof(tmp), "%s/tmp/%s", b->dir, b->name[i]);
		snprintf(dst, sizeof(dst), "%s/new/%s", b->dir, b->name[i]);
		moved[i] = rename(tmp, dst) == 0;
		if (!moved[i]) {
			if (rc == 0)
				snprintf(err, errlen, "rename %s: %s", tmp,
				    strerror(errno));
			unlink(tmp);
			rc = -1;
		} else
			any = 1;
	}
	/* The names in new/ on disk: only then is a message delivered. */
	if (any && fsync(fd) != 0) {
		snprintf(err, errlen, "fsync %s/new: %s", b->dir,
		    strerror(errno));
		for (i = 0; i < b->n; i++)
			moved[i] = 0;
		rc = -1;
	}
	close(fd);
	b->n = 0;
	return rc;
}

int
mail_quarantine(const struct mail_settings *s, const char *raw, size_t len,
    const char *reason, char *err, size_t errlen)
{
	char header[700];
	size_t i;

	/* One header line: the reason without line breaks. */
	snprintf(header, sizeof(header), "X-Pbem-Quarantine-Reason: %s\n",
	    reason);
	for (i = 0; header[i] != '\0' && header[i + 1] != '\0'; i++)
		if (header[i] == '\n' || header[i] == '\r')
			header[i] = ' ';
	return maildir_put(s->quarantine, NULL, header, raw, len, err, errlen);
}

/* The whole of the regular file open on fd, of size bytes at most
 * (malloc'd, NUL-terminated); NULL on a read error. */
static char *
read_message(int fd, size_t size, size_t *len)
{
	char *buf;
	ssize_t r;
	size_t got = 0;

	if ((buf = malloc(size + 1)) == NULL)
		return NULL;
	while (got < size) {
		r = read(fd, buf + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* A copy of a file name fit for a log line. */
static void
log_name(const char *name, char *out, size_t size)
{
	snprintf(out, size, "%s", name);
	mail_clean_text(out);
}

/*
 * Move DIR/new/NAME into the quarantine without reading it, under a
 * fresh name, its reason written first to QUARANTINE/reasons/NEWNAME.
 * When the quarantine is on another file system, the file is filed in
 * DIR/cur flagged instead.  1 if moved, 0 if it stays.
 */
static int
set_aside(const struct mail_settings *s, const char *dir, const char *name,
    const char *reason)
{
	char src[MAIL_PATH_MAX + 300], dst[MAIL_PATH_MAX + 300],
	    note[MAIL_PATH_MAX + 300], fresh[256], shown[256], err[512];
	int fd, noted = 0;

	log_name(name, shown, sizeof(shown));
	snprintf(src, sizeof(src), "%s/new/%s", dir, name);
	maildir_name(NULL, fresh, sizeof(fresh));
	snprintf(note, sizeof(note), "%s/reasons", s->quarantine);
	if (maildir_make(s->quarantine, err, sizeof(err)) != 0 ||
	    mkdirs(note, err, sizeof(err)) != 0)
		log_warnx("mail: %s", err);
	else {
		snprintf(note, sizeof(note), "%s/reasons/%s", s->quarantine,
		    fresh);
		fd = open(note, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd != -1) {
			dprintf(fd, "X-Pbem-Quarantine-Reason: %s\n"
			    "X-Pbem-Original-Name: %s\n", reason, shown);
			noted = fsync(fd) == 0;
			close(fd);
		}
		if (!noted)
			log_warn("mail: %s", note);
	}
	snprintf(dst, sizeof(dst), "%s/new/%s", s->quarantine, fresh);
	if (rename(src, dst) == 0) {
		log_info("mail: %s: quarantined unread as %s: %s", shown, dst,
		    reason);
		return 1;
	}
	if (errno != EXDEV) {
		log_warn("mail: %s: cannot quarantine: rename to %s", shown,
		    dst);
		return 0;
	}
	snprintf(dst, sizeof(dst), "%s/cur/%s:2,FS", dir, fresh);
	if (rename(src, dst) != 0) {
		log_warn("mail: %s: cannot set aside: rename to %s", shown, dst);
		return 0;
	}
	log_info("mail: %s: set aside unread as %s (the quarantine is on "
	    "another file system): %s", shown, dst, reason);
	return 1;
}

/* One message of DIR/new: 1 if handled (moved), 0 if left for later. */
static int
scan_one(struct mail_ingest_ctx *ctx, const char *dir, const char *name)
{
	struct mail_result r;
	struct stat sb;
	char src[MAIL_PATH_MAX + 300], dst[MAIL_PATH_MAX + 300], err[512],
	    shown[256], why[256];
	char *raw;
	size_t len, base;
	int fd;

	log_name(name, shown, sizeof(shown));
	snprintf(src, sizeof(src), "%s/new/%s", dir, name);
	/* Never follow a link out of the Maildir, never wait on a FIFO. */
	fd = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd == -1 && errno == ELOOP)
		return set_aside(ctx->set, dir, name, "a symbolic link, not a "
		    "message; moved unread");
	if (fd == -1) {
		log_warn("mail: %s/new/%s", dir, shown);
		return 0;
	}
	if (fstat(fd, &sb) != 0) {
		log_warn("mail: %s/new/%s", dir, shown);
		close(fd);
		return 0;
	}
	if (!S_ISREG(sb.st_mode) || (uintmax_t)sb.st_size >
	    (uintmax_t)ctx->set->max_size) {
		close(fd);
		if (S_ISREG(sb.st_mode))
			snprintf(why, sizeof(why), "message too large: %lld "
			    "bytes; the limit (max_size) is %zu; moved unread",
			    (long long)sb.st_size, ctx->set->max_size);
		else
			snprintf(why, sizeof(why), "not a regular file; moved "
			    "unread");
		return set_aside(ctx->set, dir, name, why);
	}
	raw = read_message(fd, (size_t)sb.st_size, &len);
	close(fd);
	if (raw == NULL) {
		log_warn("mail: %s/new/%s", dir, shown);
		return 0;
	}
	mail_ingest(ctx, raw, len, NULL, &r);
	if (r.outcome == MAIL_TEMPFAIL) {
		log_info("mail: %s: %s", shown, r.reason);
		free(raw);
		return 0;
	}
	if (r.outcome == MAIL_QUARANTINED && mail_quarantine(ctx->set, raw,
	    len, r.reason, err, sizeof(err)) != 0) {
		/* Not kept anywhere else yet: leave it where it is. */
		log_warnx("mail: %s: cannot quarantine: %s", shown, err);
		free(raw);
		return 0;
	}
	free(raw);
	base = strcspn(name, ":");
	snprintf(dst, sizeof(dst), "%s/cur/%.*s:2,%s", dir, (int)base, name,
	    r.outcome == MAIL_QUARANTINED ? "FS" : "S");
	if (rename(src, dst) != 0)
		log_warn("mail: rename %s/new/%s", dir, shown);
	log_info("mail: %s <%s>: %s: %s", shown, r.message_id,
	    mail_outcome_name(r.outcome), r.reason);
	return 1;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
maildir_scan(struct mail_ingest_ctx *ctx, const char *dir)
{
	char path[MAIL_PATH_MAX + 8], **names = NULL, **grown;
	struct dirent *de;
	size_t n = 0, cap = 0, i;
	DIR *dp;
	int handled = 0;

	snprintf(path, sizeof(path), "%s/new", dir);
	if ((dp = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			if ((grown = realloc(names, cap * sizeof(*names))) ==
			    NULL)
				break;
			names = grown;
		}
		if ((names[n] = strdup(de->d_name)) == NULL)
			break;
		n++;
	}
	closedir(dp);
	/* Oldest first: Maildir names start with the delivery time. */
	if (n > 1)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		handled += scan_one(ctx, dir, names[i]);
		free(names[i]);
	}
	free(names);
	return handled;
}

/* ---- The watcher thread ------------------------------------------------- */

struct watcher {
	const struct serverkey		*key;
	const struct mail_settings	*set;
	int				 warned;
};

static int
watch_tick(struct store *st, void *arg)
{
	struct watcher *w = arg;
	struct mail_ingest_ctx ctx = { st, w->key, w->set };

	if (maildir_scan(&ctx, w->set->maildir_in) < 0 && !w->warned) {
		log_warn("mail: %s/new", w->set->maildir_in);
		w->warned = 1;
	}
	return 0;
}

struct mail_loop *
mail_watcher_start(const char *dbpath, const struct serverkey *key,
    const struct mail_settings *s, char *err, size_t errlen)
{
	static struct watcher w;	/* one watcher per process */

	if (maildir_make(s->maildir_in, err, errlen) != 0 ||
	    maildir_make(s->quarantine, err, errlen) != 0)
		return NULL;
	w.key = key;
	w.set = s;
	w.warned = 0;
	return mail_loop_start("maildir", dbpath, s->maildir_interval_ms,
	    watch_tick, &w, err, errlen);
}
