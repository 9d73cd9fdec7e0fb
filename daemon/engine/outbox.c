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

#include "clock.h"
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
	/* signup.c: the code confirming an address */
	"signup",
	/* seats.c, press.c */
	"call_off_vote", "press", "vacation",
	/* observers (observe.c: "observer_" + the event) */
	"observer_update", "observer_game_over", "observer_seat_offered",
	/* the game master's own (mastermail.c), and the players told of
	 * what the master did to the clock (gamemaster.c) */
	"master_notice", "clock_changed",
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

/* The outbox payload: which game, move and seat to render at delivery
 * (never the view itself, so no hidden card is stored in the outbox). */
static json_t *
notification_payload(int64_t game_id, int64_t seq, int seat,
    const char *event, int acting)
{
	return json_pack("{s:I, s:I, s:i, s:s, s:b}", "game",
	    (json_int_t)game_id, "seq", (json_int_t)seq, "seat", seat,
	    "event", event, "your_turn", acting);
}

/* One row per seat after entry seq: mover_event for seat mover (if not
 * NULL), "your turn" for the seats to act, idle_event for the others,
 * "game_over" for all once over.  The move that ends the game is still
 * the mover's own signed move: its receipt ("accepted") goes out before
 * the mover's "game_over". */
static int
queue_seats(struct store *st, struct gamestate *gs, int mover,
    const char *mover_event, const char *idle_event, int64_t seq, int over)
{
	const struct store_player *p;
	int to_act[STORE_MAX_SEATS], nact, s, i, acting;
	const char *event;

	nact = gs->module->to_act(gs->state, to_act, STORE_MAX_SEATS);
	for (s = 0; s < gs->game.nseats; s++) {
		if ((p = gamestate_seat_player(st, gs, s)) == NULL)
			return -1;
		acting = 0;
		for (i = 0; i < nact && i < STORE_MAX_SEATS; i++)
			if (to_act[i] == s)
				acting = 1;
		if (over && s == mover && mover_event != NULL &&
		    strcmp(mover_event, "accepted") == 0 &&
		    engine_outbox_mail(st, gs->game.id, seq, p->email,
		    mover_event, notification_payload(gs->game.id, seq, s,
		    mover_event, 0), clock_now()) != 0)
			return -1;
		event = over ? "game_over" : s == mover && mover_event != NULL ?
		    mover_event : acting ? "your_turn" : idle_event;
		if (engine_outbox_mail(st, gs->game.id, seq, p->email, event,
		    notification_payload(gs->game.id, seq, s, event, acting),
		    clock_now()) != 0)
			return -1;
	}
	return 0;
}

/* Queue one notification per seat: the receipt for the mover, "your
 * turn" for the seats to act, an update for the others (engine.h). */
int
engine_queue_notifications(struct store *st, struct gamestate *gs,
    int mover, const char *mover_event, int64_t seq, int over)
{
	return queue_seats(st, gs, mover, mover_event, "update", seq, over);
}

int
engine_queue_opening(struct store *st, struct gamestate *gs)
{
	if (queue_seats(st, gs, -1, NULL, "game_started", 0, 0) != 0)
		return -1;
	return engine_queue_master(st, gs->game.id, 0, "game_started", NULL,
	    clock_now());
}

/* Rows removed per statement: a pass over a large backlog never holds the
 * write lock for long. */
#define PRUNE_BATCH	1000

int64_t
engine_outbox_prune(struct store *st, int64_t before)
{
	int64_t total = 0;
	int removed;

	do {
		if (store_outbox_prune(st, before, PRUNE_BATCH, &removed) !=
		    STORE_OK)
			return -1;
		total += removed;
	} while (removed == PRUNE_BATCH);
	return total;
}
