/*
 * notify.h -- pbemd's notifier threads.  The webhook delivery thread
 * (webhook_deliver.c) POSTs the outbox's webhook rows, woken after each
 * commit that queued some, else every "webhook_poll" seconds.  What is
 * delivered is daemon/engine/webhook.h's; how, docs/WEBHOOKS.md.
 */
#ifndef PBEM_NOTIFY_H
#define PBEM_NOTIFY_H

#include "daemon.h"

/* Start the delivery thread; stop it, abandoning the deliveries in
 * flight (they stay pending and are sent again at the next start).  Stop
 * it only once nothing else commits (after http_stop()). */
int	webhook_start(struct daemon *d);
void	webhook_stop(struct daemon *d);

#endif /* PBEM_NOTIFY_H */
