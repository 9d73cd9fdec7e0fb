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

/* Queue a "mail" row whose payload is the JSON text payload_text (the
 * event already checked).  0 or -1. */
static int
outbox_add_mail(struct store *st, int64_t game_id, int64_t seq,
    const char *recipient, const char *event, char *payload_text,
    int64_t when)
{
	struct store_outbox o;

	memset(&o, 0, sizeof(o));
	o.game_id = game_id;
	o.seq = seq;
	snprintf(o.channel, sizeof(o.channel), "mail");
	snprintf(o.recipient, sizeof(o.recipient), "%s", recipient);
	snprintf(o.event, sizeof(o.event), "%s", event);
	o.status = STORE_OUTBOX_PENDING;
	o.next_attempt = when;
	o.payload = payload_text;
	return store_outbox_add(st, &o) == STORE_OK ? 0 : -1;
}

int
engine_outbox_mail(struct store *st, int64_t game_id, int64_t seq,
    const char *recipient, const char *event, json_t *payload, int64_t when)
{
	char *text;
	int rc;

	if (!engine_mail_event_known(event) || payload == NULL) {
		json_decref(payload);
		return -1;
	}
	text = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(payload);
	if (text == NULL)
		return -1;
	rc = outbox_add_mail(st, game_id, seq, recipient, event, text, when);
	free(text);
	return rc;
}

/*
 * A seat's notification: which game, move and seat to render at delivery
 * (never the view itself, so no hidden card is stored in the outbox).
 * Two of these go with every move, so the payload is printed directly
 * rather than built with jansson: the same text json_dumps(JSON_COMPACT |
 * JSON_SORT_KEYS) makes of {game, seq, seat, event, your_turn}, and
 * "forced": true after the outcome of a "gm force" before the deadline
 * (an event name is one of engine_mail_events[], which need no escaping;
 * tests/check_engine compares the two).
 */
static int
queue_notification(struct store *st, int64_t game_id, int64_t seq,
    const char *recipient, int seat, const char *event, int acting,
    int forced)
{
	char text[256];

	if (!engine_mail_event_known(event))
		return -1;
	snprintf(text, sizeof(text), "{\"event\":\"%s\",%s\"game\":%lld,"
	    "\"seat\":%d,\"seq\":%lld,\"your_turn\":%s}", event,
	    forced ? "\"forced\":true," : "", (long long)game_id, seat,
	    (long long)seq, acting ? "true" : "false");
	return outbox_add_mail(st, game_id, seq, recipient, event, text,
	    clock_now());
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
		if (p->bot[0] != '\0')
			continue;	/* a bot reads no mail (bots.c) */
		acting = 0;
		for (i = 0; i < nact && i < STORE_MAX_SEATS; i++)
			if (to_act[i] == s)
				acting = 1;
		if (over && s == mover && mover_event != NULL &&
		    strcmp(mover_event, "accepted") == 0 &&
		    queue_notification(st, gs->game.id, seq, p->email, s,
		    mover_event, 0, gs->forced) != 0)
			return -1;
		event = over ? "game_over" : s == mover && mover_event != NULL ?
		    mover_event : acting ? "your_turn" : idle_event;
		if (queue_notification(st, gs->game.id, seq, p->email, s,
		    event, acting, gs->forced) != 0)
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
