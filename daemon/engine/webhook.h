/*
 * webhook.h -- signed HTTP notifications of public game events
 * (docs/WEBHOOKS.md).
 *
 * A registration (store.h: struct store_webhook) names a URL, a secret
 * and the events it wants, for one game or for every game.  When an
 * event happens, the transaction that makes it happen also queues one
 * outbox row per matching registration (channel "webhook", recipient the
 * registration's id): webhook_move() from submit.c, webhook_game_created()
 * from create.c.  The row holds only public information -- the public
 * view, never a hand, the deck order or the seed before the game is over
 * -- so nothing hidden is ever stored for, or sent to, a webhook.
 *
 * After commit, pbemd's delivery thread (webhook_deliver.c, daemon.h)
 * POSTs each row as the JSON body webhook_body() composes, signed by
 * webhook_sign(), in order per (registration, game), retrying with
 * webhook_backoff().  The body of a row is the same at every attempt, and
 * its delivery id is the outbox row's id, so a receiver can drop repeats.
 *
 * This file's functions run anywhere (pbemctl, pbemd's HTTP threads, the
 * engine); they use only the store connection they are given.
 */
#ifndef PBEM_WEBHOOK_H
#define PBEM_WEBHOOK_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "engine.h"
#include "store.h"

#define WEBHOOK_CHANNEL		"webhook"
/* Every event a registration may ask for, comma-separated. */
#define WEBHOOK_EVENTS		"game_created,move,game_over"
/* "sha256=" and 64 hex digits. */
#define WEBHOOK_SIGNATURE_LEN	(7 + 64)

/* ---- Registrations ------------------------------------------------------ */

/* Is url an http:// or https:// URL with a host, at most 1023 bytes, with
 * no space, control character, user name or password?  0, or -1 with the
 * reason in err.  Says nothing of where the host is (below). */
int	webhook_url_check(const char *url, char *err, size_t errlen);
/* May a webhook go to url's host?  Yes if allow (the "webhook_allow_hosts"
 * list, addrpolicy.h; NULL for none) names it, else only if it resolves
 * to public addresses only.  0, or -1 with the reason in err. */
int	webhook_address_check(const char *url, const char *allow, char *err,
	    size_t errlen);
/* Turn a filter ("move, game_over"; "" or "*" for every event) into its
 * stored form: known names, comma-separated, no repeats, in the order of
 * WEBHOOK_EVENTS; "" means every event.  0, or -1 with the reason. */
int	webhook_events_parse(const char *text, char *out, size_t outlen,
	    char *err, size_t errlen);
/* Does the stored filter take event? */
int	webhook_events_match(const char *filter, const char *event);
/* What a registration must satisfy besides a good URL and events. */
struct webhook_rules {
	const char	*allow_hosts;	/* "webhook_allow_hosts"; NULL: none */
	int		 check_address;	/* refuse internal hosts (0 only for
					   the administrator's pbemctl
					   --internal: pbemd still checks
					   each delivery) */
	int		 max_per_game;	/* a player's: at most this many per
					   game (players' registrations
					   counted); 0: no cap */
	int		 max_per_player; /* and this many by one player; 0: no
					   cap */
};
/* Check url (webhook_url_check(), webhook_address_check() unless
 * r->check_address is 0) and events, and for a player (player_id > 0) the
 * caps of r; make a new secret and store the registration (for game_id,
 * or every game if 0), recorded as player_id's (0: the administrator's).
 * w is filled, secret included (the only time it is shown).  0, or -1
 * with a reason fit for the user in err. */
int	webhook_register(struct store *st, const struct webhook_rules *r,
	    int64_t game_id, int64_t player_id, const char *url,
	    const char *events, struct store_webhook *w, char *err,
	    size_t errlen);
/* The same with a delivery format (webhook_chat.h; NULL: "pbem") and the
 * language of a chat format's summary (NULL: "en"), refused in English
 * and French if unknown. */
int	webhook_register_as(struct store *st, const struct webhook_rules *r,
	    int64_t game_id, int64_t player_id, const char *url,
	    const char *events, const char *format, const char *lang,
	    struct store_webhook *w, char *err, size_t errlen);
/* "active", "failing" or "disabled". */
const char *webhook_state_name(int state);
/* The registration as JSON for people and the API; never the secret;
 * "events" is a list of names, ["*"] for every event.
 * For the administrator (lang NULL) last_error is the full reason; for a
 * player (lang "en", "fr") it only says that delivery failed, in that
 * language, without the network's detail. */
json_t *webhook_json(const struct store_webhook *w, const char *lang);

/* ---- Events (called inside the caller's transaction) -------------------- */

/*
 * Queue one row of event, about (game_id, seq), for every registration
 * that applies to the game, is not disabled and takes the event.  data
 * (borrowed) must hold public information only.  0, or -1 on a store
 * failure (the caller rolls back).  Rows queued by a thread are noted, so
 * that webhook_take_queued() on that thread after commit can wake the
 * delivery thread.
 */
int	webhook_enqueue(struct store *st, int64_t game_id, int64_t seq,
	    const char *event, json_t *data);
/* Entry e was just applied to gs (not yet committed): "move", and
 * "game_over" too if over.  Builds the data, the entry's summary
 * (engine_summarize()) among it, only if someone listens; "game_over"
 * carries the end of the game alone (engine_summary_game_over()). */
int	webhook_move(struct store *st, struct gamestate *gs,
	    const struct store_entry *e, int over);
/* A game was just stored (not yet committed): "game_created", with the
 * genesis entry's summary sum. */
int	webhook_game_created(struct store *st, const struct store_game *g,
	    const struct engine_summary *sum);
/* Did this thread queue webhook rows since the last call?  Clears it. */
int	webhook_take_queued(void);

/* ---- Delivery ------------------------------------------------------------ */

/* The body POSTed for outbox row o (malloc'd JSON text), the same at every
 * attempt: {"delivery","event","game","seq","time","data"}.  NULL if the
 * row's payload is not what webhook_enqueue() wrote. */
char   *webhook_body(const struct store_outbox *o);
/* "sha256=" + hex HMAC-SHA256, keyed with the secret's text, over
 * "<timestamp>." followed by the body.  out holds
 * WEBHOOK_SIGNATURE_LEN + 1 bytes. */
void	webhook_sign(const char *secret, int64_t timestamp, const char *body,
	    size_t len, char *out);
/* Seconds to wait after the failures-th failed attempt in a row:
 * base * 2^(failures-1), at most max, plus a jitter of up to a quarter
 * taken from random (uniform in 0..2^32-1); never more than max. */
int64_t	webhook_backoff(int failures, int64_t base, int64_t max,
	    uint32_t random);

#endif /* PBEM_WEBHOOK_H */
