/*
 * mail_imap.c -- IMAP polling with libcurl.
 *
 * One poll: UID SEARCH UNKEYWORD $PbemDone in the configured mailbox,
 * then for each message: fetch it (by UID), hand it to mail_ingest(),
 * and only once that is done flag it $PbemDone and \Seen (or move it to
 * imap_done_folder).  The keyword, not \Seen, marks what is done: a
 * person reading the mailbox, or the fetch itself, may set \Seen, and a
 * crash between the fetch and the flag must not lose the message.  If
 * the daemon stops between ingesting and flagging, the next poll fetches
 * the message again and its Message-ID (mail_seen) makes it a duplicate:
 * none is lost and none is acted on twice.  A message that kills the
 * daemon is fetched once more after the restart, and mail_ingest() finds
 * its attempt noted and quarantines it: it is not fetched forever.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "log.h"
#include "mail.h"

#define IMAP_BATCH	200	/* messages per poll at most */

struct buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
	size_t	 max;
	int	 over;
};

static size_t
write_cb(char *p, size_t size, size_t nmemb, void *arg)
{
	struct buf *b = arg;
	size_t n = size * nmemb, cap;
	char *grown;

	if (b->len + n > b->max) {
		b->over = 1;
		return 0;	/* stops the transfer */
	}
	if (b->len + n + 1 > b->cap) {
		cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		if ((grown = realloc(b->data, cap)) == NULL)
			return 0;
		b->data = grown;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return n;
}

static CURL *
imap_handle(const struct mail_settings *s, char *cerr)
{
	CURL *c = mail_curl_handle(s, s->imap_user, s->imap_password,
	    s->imap_starttls, (long)s->timeout * 4, cerr);

	if (c != NULL)
		curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, write_cb);
	return c;
}

/* Run one IMAP command (custom request) on the mailbox; its untagged
 * answer in out (may be NULL). */
static int
imap_command(CURL *c, const char *url, const char *cmd, struct buf *out,
    char *cerr, char *err, size_t errlen)
{
	struct buf sink = { NULL, 0, 0, 1 << 20, 0 };
	CURLcode rc;

	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, cmd);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, out != NULL ? out : &sink);
	cerr[0] = '\0';
	rc = curl_easy_perform(c);
	free(sink.data);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, NULL);
	if (rc != CURLE_OK) {
		snprintf(err, errlen, "imap %s: %s: %s", url, cmd,
		    cerr[0] != '\0' ? cerr : curl_easy_strerror(rc));
		return -1;
	}
	return 0;
}

/* The UIDs of "* SEARCH 3 7 9". */
static int
parse_search(const char *text, unsigned long *uids, int max)
{
	const char *p = text != NULL ? strstr(text, "* SEARCH") : NULL;
	char *end;
	int n = 0;

	if (p == NULL)
		return 0;
	p += 8;
	while (n < max) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		uids[n++] = strtoul(p, &end, 10);
		p = end;
	}
	return n;
}

int
mail_imap_poll(struct mail_ingest_ctx *ctx, char *err, size_t errlen)
{
	const struct mail_settings *s = ctx->set;
	unsigned long uids[IMAP_BATCH];
	struct buf search = { NULL, 0, 0, 1 << 20, 0 };
	struct buf msg;
	struct mail_result r;
	char cerr[CURL_ERROR_SIZE], url[MAIL_PATH_MAX + 64], cmd[256],
	    qerr[512];
	const char *base = s->imap_url;
	size_t blen = strlen(base);
	CURLcode rc;
	CURL *c;
	int i, n, handled = 0;

	if ((c = imap_handle(s, cerr)) == NULL) {
		snprintf(err, errlen, "imap: cannot start libcurl");
		return -1;
	}
	if (imap_command(c, base, "UID SEARCH UNKEYWORD $PbemDone", &search,
	    cerr, err, errlen) != 0) {
		curl_easy_cleanup(c);
		free(search.data);
		return -1;
	}
	n = parse_search(search.data, uids, IMAP_BATCH);
	free(search.data);
	for (i = 0; i < n; i++) {
		memset(&msg, 0, sizeof(msg));
		msg.max = s->max_size * 8;
		snprintf(url, sizeof(url), "%s%s;UID=%lu", base,
		    blen > 0 && base[blen - 1] == '/' ? "" : "/", uids[i]);
		curl_easy_setopt(c, CURLOPT_URL, url);
		curl_easy_setopt(c, CURLOPT_WRITEDATA, &msg);
		cerr[0] = '\0';
		rc = curl_easy_perform(c);
		if (rc != CURLE_OK && !msg.over) {
			snprintf(err, errlen, "imap fetch %s: %s", url,
			    cerr[0] != '\0' ? cerr : curl_easy_strerror(rc));
			free(msg.data);
			curl_easy_cleanup(c);
			return -1;
		}
		if (msg.over) {
			/* Too big even to keep: quarantine its beginning. */
			r.outcome = MAIL_QUARANTINED;
			snprintf(r.reason, sizeof(r.reason), "message larger "
			    "than %zu bytes on the IMAP server (UID %lu); only "
			    "its first part is kept here", msg.max, uids[i]);
			r.message_id[0] = '\0';
		} else
			mail_ingest(ctx, msg.data != NULL ? msg.data : "",
			    msg.len, NULL, &r);
		if (r.outcome == MAIL_TEMPFAIL ||
		    (r.outcome == MAIL_QUARANTINED && mail_quarantine(s,
		    msg.data != NULL ? msg.data : "", msg.len, r.reason, qerr,
		    sizeof(qerr)) != 0)) {
			/* Left unflagged: the next poll tries again. */
			log_info("mail: imap UID %lu: %s", uids[i],
			    r.outcome == MAIL_TEMPFAIL ? r.reason : qerr);
			free(msg.data);
			continue;
		}
		free(msg.data);
		log_info("mail: imap UID %lu <%s>: %s: %s", uids[i],
		    r.message_id, mail_outcome_name(r.outcome), r.reason);
		snprintf(cmd, sizeof(cmd), "UID STORE %lu +FLAGS ($PbemDone "
		    "\\Seen%s)", uids[i], r.outcome == MAIL_QUARANTINED ?
		    " \\Flagged" : "");
		if (imap_command(c, base, cmd, NULL, cerr, err, errlen) != 0) {
			curl_easy_cleanup(c);
			return -1;
		}
		if (s->imap_done_folder[0] != '\0') {
			snprintf(cmd, sizeof(cmd), "UID MOVE %lu \"%s\"",
			    uids[i], s->imap_done_folder);
			if (imap_command(c, base, cmd, NULL, cerr, err,
			    errlen) != 0)
				log_warnx("mail: %s", err);
		}
		handled++;
	}
	curl_easy_cleanup(c);
	return handled;
}

/* ---- The poller thread -------------------------------------------------- */

struct poller {
	const struct serverkey		*key;
	const struct mail_settings	*set;
};

static int
poll_tick(struct store *st, void *arg)
{
	struct poller *p = arg;
	struct mail_ingest_ctx ctx = { st, p->key, p->set };
	char err[1024];

	if (mail_imap_poll(&ctx, err, sizeof(err)) < 0)
		log_warnx("mail: %s", err);
	return 0;
}

struct mail_loop *
mail_poller_start(const char *dbpath, const struct serverkey *key,
    const struct mail_settings *s, char *err, size_t errlen)
{
	static struct poller p;		/* one poller per process */

	if (maildir_make(s->quarantine, err, errlen) != 0)
		return NULL;
	p.key = key;
	p.set = s;
	return mail_loop_start("imap", dbpath, s->imap_interval * 1000,
	    poll_tick, &p, err, errlen);
}
