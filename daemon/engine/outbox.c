/*
 * outbox.c -- the one way the engine queues a mail: an outbox row of
 * channel "mail" for one recipient (engine.h, docs/MAIL.md).
 *
 * engine_mail_events[] lists every event the engine writes to that
 * channel.  engine_outbox_mail() refuses any other event, so a new event
 * cannot be queued without being added here -- and tests/check_notices
 * renders every event of this list, in English and in French, so it
 * cannot be added here without a mail that the gateway knows how to send.
 * The gateway's own answers (mail_help, mail_error, status, help,
 * rejected, admin_report) are written by daemon/mail_*.c, not here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

const char *const engine_mail_events[] = {
	/* a move or a server entry (submit.c, serverentry.c) */
	"accepted", "your_turn", "update", "game_over",
	/* a new game (create.c) */
	"game_started",
	/* the scheduler (schedule.c) */
	"reminder", "deadline", "late", "seat_offered",
	/* server entries, to the seat they are about (serverentry.c) */
	"auto_move", "skipped", "resigned", "seat_taken",
	/* seats.c, press.c */
	"call_off_vote", "press",
	/* observers (observe.c: "observer_" + the event) */
	"observer_update", "observer_game_over", "observer_seat_offered",
	NULL
};

int
engine_mail_event_known(const char *event)
{
	const char *const *e;

	for (e = engine_mail_events; *e != NULL; e++)
		if (strcmp(*e, event) == 0)
			return 1;
	return 0;
}

int
engine_outbox_mail(struct store *st, int64_t game_id, int64_t seq,
    const char *recipient, const char *event, json_t *payload, int64_t when)
{
	struct store_outbox o;
	enum store_status rc;

	if (!engine_mail_event_known(event) || payload == NULL) {
		json_decref(payload);
		return -1;
	}
	memset(&o, 0, sizeof(o));
	o.game_id = game_id;
	o.seq = seq;
	snprintf(o.channel, sizeof(o.channel), "mail");
	snprintf(o.recipient, sizeof(o.recipient), "%s", recipient);
	snprintf(o.event, sizeof(o.event), "%s", event);
	o.status = STORE_OUTBOX_PENDING;
	o.next_attempt = when;
	o.payload = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(payload);
	rc = o.payload != NULL ? store_outbox_add(st, &o) : STORE_ERROR;
	free(o.payload);
	return rc == STORE_OK ? 0 : -1;
}
