/*
 * observe.c -- observers by mail (engine.h, docs/ASYNC.md).
 *
 * An observer is an address subscribed to a game's public view.  After
 * every log entry each observer gets one outbox row naming the game, the
 * entry and the viewer "public"; the notifier renders the public view
 * (RULES_VIEW_PUBLIC) of that entry's snapshot at delivery, so an
 * observer can never be sent a hand.  Webhook observers belong to the
 * HTTP daemon's webhooks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

enum engine_status
engine_observe(struct store *st, int64_t game_id, const char *email,
    const char *lang, int64_t now, char *err, size_t errlen)
{
	struct store_observer o;
	struct store_game g;
	size_t len = strlen(email);

	if (len < 3 || len >= STORE_EMAIL_MAX || strchr(email, '@') == NULL ||
	    strpbrk(email, " \t\r\n<>,;") != NULL) {
		snprintf(err, errlen, "\"%s\" is not a mail address",
		    email);
		return ENGINE_BAD_REQUEST;
	}
	if (strcmp(lang, "en") != 0 && strcmp(lang, "fr") != 0) {
		snprintf(err, errlen, "language \"%s\": give en or fr", lang);
		return ENGINE_BAD_REQUEST;
	}
	memset(&g, 0, sizeof(g));
	if (store_game_get(st, game_id, &g) != STORE_OK) {
		snprintf(err, errlen, "there is no game %lld",
		    (long long)game_id);
		return ENGINE_UNKNOWN_GAME;
	}
	store_game_clear(&g);
	memset(&o, 0, sizeof(o));
	o.game_id = game_id;
	snprintf(o.email, sizeof(o.email), "%s", email);
	snprintf(o.lang, sizeof(o.lang), "%s", lang);
	o.created = now;
	switch (store_observer_add(st, &o)) {
	case STORE_OK:
		return ENGINE_OK;
	case STORE_EXISTS:
		snprintf(err, errlen, "%s already observes game %lld", email,
		    (long long)game_id);
		return ENGINE_REFUSED;
	default:
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return ENGINE_INTERNAL;
	}
}

enum engine_status
engine_unobserve(struct store *st, int64_t game_id, const char *email,
    char *err, size_t errlen)
{
	switch (store_observer_remove(st, game_id, email)) {
	case STORE_OK:
		return ENGINE_OK;
	case STORE_NOTFOUND:
		snprintf(err, errlen, "%s does not observe game %lld", email,
		    (long long)game_id);
		return ENGINE_BAD_REQUEST;
	default:
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return ENGINE_INTERNAL;
	}
}

struct queue {
	struct store	*st;
	int64_t		 seq;
	const char	*event;
	int		 forced;
	int64_t		 now;
	int		 failed;
};

static int
queue_one(const struct store_observer *ob, void *arg)
{
	struct queue *q = arg;
	char event[32];
	json_t *payload;

	snprintf(event, sizeof(event), "observer_%s", q->event);
	payload = json_pack("{s:I, s:I, s:s, s:s, s:s}", "game",
	    (json_int_t)ob->game_id, "seq", (json_int_t)q->seq, "viewer",
	    "public", "event", q->event, "lang", ob->lang);
	if (payload != NULL && q->forced)
		json_object_set_new(payload, "forced", json_true());
	if (engine_outbox_mail(q->st, ob->game_id, q->seq, ob->email, event,
	    payload, q->now) != 0)
		q->failed = 1;
	return q->failed;
}

int
engine_queue_observers(struct store *st, int64_t game_id, int64_t seq,
    const char *event, int forced, int64_t now)
{
	struct queue q = { st, seq, event, forced, now, 0 };

	if (store_observer_foreach(st, game_id, queue_one, &q) != STORE_OK)
		return -1;
	return q.failed ? -1 : 0;
}
