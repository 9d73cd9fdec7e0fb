/*
 * mail_sender.c -- the outbound worker: due "mail" rows of the outbox ->
 * render -> compose -> send -> mark.
 *
 * By SMTP each row is marked when the server took it.  Into the Maildir
 * outbox the batch's messages are written unsynced, then made durable
 * together (their data synced one after another, then renamed, then one
 * fsync of new/: mail.h, maildir_batch_commit()), and only then are
 * their rows marked sent.
 *
 * Before it delivers a batch it makes every commit durable
 * (store_sync()): with synchronous=NORMAL a power cut could otherwise
 * take back a move whose mail, and receipt, already went out.
 * A temporary failure is retried after retry_base * 2^(attempts-1)
 * seconds, at most retry_max; after max_attempts, or at once on a
 * permanent refusal (SMTP 5xx, a row that can never be rendered), the
 * row is marked failed with its reason and, when an administrator
 * address is set, an "admin_report" row is queued for it -- unless the
 * failed row was itself a report, which is only logged.
 * A row with no recipient is marked failed ("no address") at once,
 * never retried.
 *
 * No address gets more than send_per_hour mails an hour (table
 * mail_send_rate, counted across processes; the address folded to lower
 * case): a row over the cap is put off, pending, until the hour ends --
 * deferred, never dropped, with the reason in its last_error and a log
 * line, so the administrator sees it (pbemctl outbox).  The cap is what
 * stops anyone who can make the server mail (a game's seats, press,
 * observers) from turning it on one mailbox.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "clock.h"
#include "log.h"
#include "mail.h"

int64_t
mail_retry_delay(const struct mail_settings *s, int attempts)
{
	int64_t d = s->retry_base;
	int i;

	for (i = 1; i < attempts && d < s->retry_max; i++)
		d *= 2;
	return d < s->retry_max ? d : s->retry_max;
}

struct batch {
	struct store			*st;
	const struct tpl_set		*tpl;
	const struct mail_settings	*set;
	struct mail_send_conn		 conn;	/* one SMTP connection */
	/* Maildir delivery: the messages written into tmp/ and their rows,
	 * marked sent once the batch is durable (flush_maildir()). */
	struct maildir_batch		 maildir;
	int				 maildir_ready;
	struct store_outbox		 pending[MAILDIR_BATCH_MAX];
	int				 synced;
	int				 handled;
	int				 store_failed;
};

/* Queue a report of a permanent failure for the administrator. */
static void
report(struct batch *b, const struct store_outbox *o, const char *why)
{
	struct store_outbox r;
	json_t *pl;

	if (b->set->admin[0] == '\0' || strcmp(o->event, "admin_report") == 0)
		return;
	pl = json_pack("{s:s, s:s, s:I, s:I, s:s, s:s, s:i, s:I}", "event",
	    "admin_report", "lang", "en", "game", (json_int_t)o->game_id,
	    "seq", (json_int_t)o->seq, "recipient", o->recipient, "error", why,
	    "attempts", o->attempts + 1, "id", (json_int_t)o->id);
	memset(&r, 0, sizeof(r));
	r.game_id = o->game_id;
	r.seq = o->seq;
	snprintf(r.channel, sizeof(r.channel), "mail");
	snprintf(r.recipient, sizeof(r.recipient), "%s", b->set->admin);
	snprintf(r.event, sizeof(r.event), "admin_report");
	r.payload = json_dumps(pl, JSON_COMPACT | JSON_SORT_KEYS);
	r.next_attempt = (int64_t)time(NULL);
	json_decref(pl);
	if (r.payload == NULL || store_outbox_add(b->st, &r) != STORE_OK)
		log_warnx("mail: cannot queue the report of row %lld: %s",
		    (long long)o->id, store_errmsg(b->st));
	free(r.payload);
}

static void
failed(struct batch *b, const struct store_outbox *o, int permanent,
    const char *why)
{
	int64_t next;

	if (!permanent && o->attempts + 1 >= b->set->max_attempts)
		permanent = 1;
	next = (int64_t)time(NULL) + mail_retry_delay(b->set, o->attempts + 1);
	if (store_outbox_mark_failed(b->st, o->id, next, permanent, why) !=
	    STORE_OK) {
		b->store_failed = 1;
		return;
	}
	if (permanent) {
		log_warnx("mail: row %lld to %s (%s) failed for good: %s",
		    (long long)o->id, o->recipient, o->event, why);
		report(b, o, why);
	} else
		log_info("mail: row %lld to %s: %s; retry in %lld s",
		    (long long)o->id, o->recipient, why,
		    (long long)(next - time(NULL)));
}

/* Is o's recipient over the hourly cap?  Then put o off to the end of
 * the hour and return 1. */
static int
over_cap(struct batch *b, const struct store_outbox *o)
{
	char addr[STORE_EMAIL_MAX], why[512], when[32];
	int64_t now = (int64_t)time(NULL), until;
	int allowed;
	size_t i;

	if (b->set->send_per_hour <= 0 || o->recipient[0] == '\0')
		return 0;
	for (i = 0; o->recipient[i] != '\0' && i + 1 < sizeof(addr); i++)
		addr[i] = (o->recipient[i] >= 'A' && o->recipient[i] <= 'Z') ?
		    (char)(o->recipient[i] - 'A' + 'a') : o->recipient[i];
	addr[i] = '\0';
	if (store_mail_send_take(b->st, addr, now, 3600,
	    b->set->send_per_hour, &allowed, &until) != STORE_OK) {
		log_warnx("mail: send rate of %s: %s", addr,
		    store_errmsg(b->st));
		b->store_failed = 1;
		return 1;
	}
	if (allowed)
		return 0;
	clock_format_iso(until, when, sizeof(when));
	snprintf(why, sizeof(why), "deferred: %s already had %d mails this "
	    "hour (mail_send_per_hour); sent after %s", o->recipient,
	    b->set->send_per_hour, when);
	if (store_outbox_defer(b->st, o->id, until, why) != STORE_OK) {
		log_warnx("mail: row %lld: %s", (long long)o->id,
		    store_errmsg(b->st));
		b->store_failed = 1;
		return 1;
	}
	log_info("mail: row %lld to %s (%s) %s", (long long)o->id,
	    o->recipient, o->event, why);
	return 1;
}

/* Make the Maildir batch durable, then mark its rows sent (or failed,
 * to be tried again: the same file name makes a retry idempotent). */
static void
flush_maildir(struct batch *b)
{
	int moved[MAILDIR_BATCH_MAX], i, n = b->maildir.n;
	char err[1024];

	if (n == 0)
		return;
	err[0] = '\0';
	if (maildir_batch_commit(&b->maildir, moved, err, sizeof(err)) != 0)
		log_warnx("mail: Maildir %s: %s", b->set->maildir_out, err);
	/* One transaction for the batch's marks: a row left unmarked by a
	 * failed commit is written again under the same name, harmlessly. */
	if (store_begin(b->st) != STORE_OK) {
		log_warnx("mail: cannot mark the Maildir batch sent: %s",
		    store_errmsg(b->st));
		b->store_failed = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		if (!moved[i])
			failed(b, &b->pending[i], 0, err);
		else if (store_outbox_mark_sent(b->st, b->pending[i].id) !=
		    STORE_OK) {
			log_warnx("mail: row %lld sent but not marked: %s",
			    (long long)b->pending[i].id, store_errmsg(b->st));
			b->store_failed = 1;
		} else
			log_debug("mail: row %lld (%s) put in the Maildir "
			    "for %s", (long long)b->pending[i].id,
			    b->pending[i].event, b->pending[i].recipient);
	}
	if (store_commit(b->st) != STORE_OK) {
		log_warnx("mail: cannot mark the Maildir batch sent: %s",
		    store_errmsg(b->st));
		b->store_failed = 1;	/* rolled back: written again later */
	}
}

/* Write a composed message into the Maildir batch; its row is marked
 * when the batch is flushed. */
static void
queue_maildir(struct batch *b, const struct store_outbox *o,
    const char *data, size_t len)
{
	char err[1024], hint[64];
	int i;

	if (!b->maildir_ready) {
		if (maildir_batch_begin(&b->maildir, b->set->maildir_out, err,
		    sizeof(err)) != 0) {
			failed(b, o, 0, err);
			return;
		}
		b->maildir_ready = 1;
	}
	if (b->maildir.n == MAILDIR_BATCH_MAX)
		flush_maildir(b);
	snprintf(hint, sizeof(hint), "pbem-out-%lld", (long long)o->id);
	if ((i = maildir_batch_add(&b->maildir, hint, data, len, err,
	    sizeof(err))) < 0) {
		failed(b, o, 0, err);
		return;
	}
	b->pending[i] = *o;
	b->pending[i].payload = NULL;
}

static int
deliver(const struct store_outbox *o, void *arg)
{
	struct batch *b = arg;
	struct mail_out m;
	enum mail_render_status rs;
	enum mail_send_status ss;
	char err[1024], *data;
	size_t len;

	if (!b->synced) {
		if (store_sync(b->st) != STORE_OK) {
			log_warnx("mail: sync: %s", store_errmsg(b->st));
			b->store_failed = 1;
			return 1;
		}
		b->synced = 1;
	}
	b->handled++;
	if (over_cap(b, o))
		return b->store_failed;
	rs = mail_render(b->st, b->tpl, b->set, o, &m, err, sizeof(err));
	switch (rs) {
	case MAIL_RENDER_OK:
		break;
	case MAIL_RENDER_SKIP:
		failed(b, o, 1, err);
		return b->store_failed;
	case MAIL_RENDER_HELD:
		/* Not a failure to report: the address is not confirmed. */
		if (store_outbox_mark_failed(b->st, o->id, (int64_t)time(NULL),
		    1, err) != STORE_OK)
			b->store_failed = 1;
		else
			log_info("mail: row %lld: %s", (long long)o->id, err);
		return b->store_failed;
	case MAIL_RENDER_RETRY:
		failed(b, o, 0, err);
		return b->store_failed;
	case MAIL_RENDER_FAIL:
		failed(b, o, 1, err);
		return b->store_failed;
	}
	data = mail_compose(b->set, &m, b->set->smtp_url[0] != '\0', &len);
	if (data == NULL) {
		mail_out_clear(&m);
		failed(b, o, 0, "out of memory composing the mail");
		return b->store_failed;
	}
	if (b->set->smtp_url[0] == '\0') {
		queue_maildir(b, o, data, len);
		free(data);
		mail_out_clear(&m);
		return b->store_failed;
	}
	ss = mail_send(b->set, &b->conn, m.to, data, len, err, sizeof(err));
	free(data);
	if (ss == MAIL_SEND_OK) {
		if (store_outbox_mark_sent(b->st, o->id) != STORE_OK) {
			log_warnx("mail: row %lld sent but not marked: %s",
			    (long long)o->id, store_errmsg(b->st));
			b->store_failed = 1;
		} else
			log_debug("mail: row %lld sent to %s: %s",
			    (long long)o->id, m.to, m.subject);
	} else
		failed(b, o, ss == MAIL_SEND_PERM, err);
	mail_out_clear(&m);
	return b->store_failed;
}

int
mail_sender_run_once(struct store *st, const struct tpl_set *tpl,
    const struct mail_settings *s, int limit)
{
	struct batch b;

	memset(&b, 0, sizeof(b));
	b.st = st;
	b.tpl = tpl;
	b.set = s;
	if (store_outbox_due_channel(st, "mail", (int64_t)time(NULL), limit,
	    deliver, &b) != STORE_OK) {
		flush_maildir(&b);
		mail_send_close(&b.conn);
		log_warnx("mail: outbox: %s", store_errmsg(st));
		return -1;
	}
	flush_maildir(&b);
	mail_send_close(&b.conn);
	return b.store_failed ? -1 : b.handled;
}

struct sender {
	const struct tpl_set		*tpl;
	const struct mail_settings	*set;
};

static int
send_tick(struct store *st, void *arg)
{
	struct sender *s = arg;

	/* A whole batch came back: there may be more, go on at once. */
	return mail_sender_run_once(st, s->tpl, s->set, 64) == 64;
}

struct mail_loop *
mail_sender_start(const char *dbpath, const struct tpl_set *tpl,
    const struct mail_settings *s, char *err, size_t errlen)
{
	static struct sender snd;	/* one sender per process */

	if (s->smtp_url[0] == '\0' && maildir_make(s->maildir_out, err,
	    errlen) != 0)
		return NULL;
	snd.tpl = tpl;
	snd.set = s;
	return mail_loop_start("sender", dbpath, s->send_interval_ms,
	    send_tick, &snd, err, errlen);
}
