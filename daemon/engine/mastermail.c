/*
 * mastermail.c -- the game master's own mails (engine.h; docs/ASYNC.md,
 * "The game master").
 *
 * A game's master hears, by one outbox row "master_notice" to the
 * master's own address, of what a master acts on: being named master of
 * a running game, the game starting, a seat missing its deadline (late
 * under wait, played for by the server, marked absent), the game's end,
 * the answer to each of their signed gm commands, and what the
 * administrator did to the game's clock or policy.  The row is
 * rendered like an observer's, from the public view of the entry it
 * names (a master who holds no seat sees no hand), in the language and
 * time zone of the master when it was queued, which the row records.
 * A game without a master, or whose master has no address, queues
 * nothing.
 */
#include <string.h>

#include "engine.h"

int
engine_queue_master(struct store *st, int64_t game_id, int64_t seq,
    const char *what, json_t *extra, int64_t now)
{
	struct store_master m;
	struct store_player p;
	json_t *payload;

	if (store_master_get(st, game_id, &m) != STORE_OK) {
		json_decref(extra);
		return -1;
	}
	if (m.player_id == 0 || store_player_get(st, m.player_id, &p) !=
	    STORE_OK || p.email[0] == '\0') {
		json_decref(extra);
		return 0;
	}
	payload = json_pack("{s:I, s:I, s:s, s:s, s:s, s:s, s:s}", "game",
	    (json_int_t)game_id, "seq", (json_int_t)seq, "viewer", "public",
	    "event", "master_notice", "what", what, "lang",
	    strcmp(p.lang, "fr") == 0 ? "fr" : "en", "zone", p.tz);
	if (payload != NULL && extra != NULL)
		json_object_update(payload, extra);
	json_decref(extra);
	return engine_outbox_mail(st, game_id, seq, p.email, "master_notice",
	    payload, now);
}
