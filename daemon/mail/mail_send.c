/*
 * mail_send.c -- one composed message to one recipient: by SMTP with
 * libcurl (smtp:// with optional or required STARTTLS, smtps://, AUTH
 * when a user is set), or into the Maildir outbox when no SMTP server is
 * configured (the embedded default: the mails are files to read).
 *
 * An SMTP reply of 5xx is a permanent refusal (RFC 5321 4.2.1); every
 * other failure -- connection refused, timeout, 4xx -- is temporary.
 */
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "mail.h"

struct upload {
	const char	*data;
	size_t		 len, pos;
};

static size_t
read_cb(char *buf, size_t size, size_t nitems, void *arg)
{
	struct upload *u = arg;
	size_t n = size * nitems;

	if (n > u->len - u->pos)
		n = u->len - u->pos;
	memcpy(buf, u->data + u->pos, n);
	u->pos += n;
	return n;
}

static enum mail_send_status
send_smtp(const struct mail_settings *s, struct mail_send_conn *conn,
    const char *rcpt, const char *data, size_t len, char *err, size_t errlen)
{
	struct curl_slist *rcpts = NULL;
	struct upload u = { data, len, 0 };
	char from[MAIL_ADDR_MAX + 2], to[MAIL_ADDR_MAX + 2];
	char cerr[CURL_ERROR_SIZE];
	long code = 0;
	CURLcode rc;
	CURL *c;

	/* One handle per batch: libcurl keeps its connection open, so the
	 * mails of a batch share one connection, greeting and login. */
	if (conn->curl == NULL && (conn->curl = mail_curl_handle(s,
	    s->smtp_user, s->smtp_password, s->smtp_starttls,
	    (long)s->timeout * 2, cerr)) == NULL) {
		snprintf(err, errlen, "smtp: cannot start libcurl");
		return MAIL_SEND_TEMP;
	}
	c = conn->curl;
	snprintf(from, sizeof(from), "<%s>", s->from);
	snprintf(to, sizeof(to), "<%s>", rcpt);
	rcpts = curl_slist_append(rcpts, to);
	cerr[0] = '\0';
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
	curl_easy_setopt(c, CURLOPT_URL, s->smtp_url);
	curl_easy_setopt(c, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpts);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, read_cb);
	curl_easy_setopt(c, CURLOPT_READDATA, &u);
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	/* Nothing of this mail stays on the handle past this call. */
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, NULL);
	curl_easy_setopt(c, CURLOPT_READDATA, NULL);
	curl_slist_free_all(rcpts);
	if (rc == CURLE_OK)
		return MAIL_SEND_OK;
	snprintf(err, errlen, "smtp %s: %s (%s; last reply %ld)", s->smtp_url,
	    cerr[0] != '\0' ? cerr : curl_easy_strerror(rc),
	    curl_easy_strerror(rc), code);
	return code >= 500 && code < 600 ? MAIL_SEND_PERM : MAIL_SEND_TEMP;
}

enum mail_send_status
mail_send(const struct mail_settings *s, struct mail_send_conn *conn,
    const char *rcpt, const char *data, size_t len, char *err, size_t errlen)
{
	return send_smtp(s, conn, rcpt, data, len, err, errlen);
}

void
mail_send_close(struct mail_send_conn *conn)
{
	if (conn->curl != NULL)
		curl_easy_cleanup(conn->curl);
	conn->curl = NULL;
}
