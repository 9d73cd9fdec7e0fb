/*
 * mail_daemon.c -- the gateway's threads inside pbemd: start them in
 * order (sender first, so that mail queued by the first inbound message
 * finds it running), stop them in reverse.
 */
#include <stdio.h>

#include "log.h"
#include "mail.h"

static struct mail_loop *sender, *watcher, *poller;

int
mail_daemon_start(const char *dbpath, const struct serverkey *key,
    const struct tpl_set *tpl, const struct mail_settings *s, char *err,
    size_t errlen)
{
	mail_init();
	if ((sender = mail_sender_start(dbpath, tpl, s, err, errlen)) == NULL)
		goto fail;
	if (s->maildir_in[0] != '\0' && (watcher = mail_watcher_start(dbpath,
	    key, s, err, errlen)) == NULL)
		goto fail;
	if (s->imap_url[0] != '\0' && (poller = mail_poller_start(dbpath, key,
	    s, err, errlen)) == NULL)
		goto fail;
	log_info("mail: out by %s; in from %s%s%s", s->smtp_url[0] != '\0' ?
	    s->smtp_url : s->maildir_out, s->maildir_in[0] != '\0' ?
	    s->maildir_in : "", s->maildir_in[0] != '\0' &&
	    s->imap_url[0] != '\0' ? " and " : "", s->imap_url);
	return 0;
fail:
	mail_daemon_stop();
	return -1;
}

void
mail_daemon_stop(void)
{
	mail_loop_stop(poller);
	mail_loop_stop(watcher);
	mail_loop_stop(sender);
	poller = watcher = sender = NULL;
}
