/*
 * webhook.c -- registrations, the events queued for them, and the signed
 * body of a delivery (webhook.h).  The delivery thread itself is pbemd's
 * (webhook_deliver.c); nothing here talks to the network.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sodium.h>

#include "addrpolicy.h"
#include "protocol.h"
#include "webhook.h"
#include "webhook_chat.h"

/* Set when this thread queued a row; webhook_take_queued() clears it. */
static _Thread_local int queued_rows;

static const char *const event_names[] = {
	"game_created", "move", "game_over", NULL
};

/* ---- Registrations ------------------------------------------------------ */

int
webhook_url_check(const char *url, char *err, size_t errlen)
{
	const unsigned char *p;
	char host[256];
	size_t len = strlen(url);
	int port;

	if (strncasecmp(url, "http://", 7) != 0 &&
	    strncasecmp(url, "https://", 8) != 0) {
		snprintf(err, errlen, "a webhook URL must start with http:// "
		    "or https://");
		return -1;
	}
	if (len >= STORE_URL_MAX) {
		snprintf(err, errlen, "a webhook URL is at most %d bytes, not "
		    "%zu", STORE_URL_MAX - 1, len);
		return -1;
	}
	for (p = (const unsigned char *)url; *p != '\0'; p++)
		if (*p <= ' ' || *p >= 0x7f) {
			snprintf(err, errlen, "a webhook URL may not contain "
			    "spaces, control or non-ASCII characters (byte %zu)",
			    (size_t)(p - (const unsigned char *)url));
			return -1;
		}
	return addrpolicy_url_host(url, host, sizeof(host), &port, err,
	    errlen);
}

int
webhook_address_check(const char *url, const char *allow, char *err,
    size_t errlen)
{
	char host[256];
	int port;

	if (addrpolicy_url_host(url, host, sizeof(host), &port, err,
	    errlen) != 0)
		return -1;
	if (addrpolicy_allowed(allow, host, port))
		return 0;
	return addrpolicy_resolve_check(host, err, errlen);
}

static int
event_index(const char *name, size_t len)
{
	int i;

	for (i = 0; event_names[i] != NULL; i++)
		if (strlen(event_names[i]) == len &&
		    strncmp(event_names[i], name, len) == 0)
			return i;
	return -1;
}

int
webhook_events_parse(const char *text, char *out, size_t outlen, char *err,
    size_t errlen)
{
	int wanted[sizeof(event_names) / sizeof(event_names[0])] = { 0 };
	const char *p = text, *end;
	size_t len, used = 0;
	int i, any = 0;

	while (*p == ' ')
		p++;
	if (*p == '\0' || strcmp(p, "*") == 0) {
		if (outlen > 0)
			out[0] = '\0';
		return 0;
	}
	for (;;) {
		while (*p == ' ')
			p++;
		end = p + strcspn(p, ",");
		len = (size_t)(end - p);
		while (len > 0 && p[len - 1] == ' ')
			len--;
		if ((i = event_index(p, len)) < 0) {
			snprintf(err, errlen, "unknown event \"%.*s\"; the "
			    "events are %s", (int)(len > 40 ? 40 : len), p,
			    WEBHOOK_EVENTS);
			return -1;
		}
		wanted[i] = 1;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	out[0] = '\0';
	for (i = 0; event_names[i] != NULL; i++) {
		if (!wanted[i])
			continue;
		len = strlen(event_names[i]);
		if (used + len + 2 > outlen) {
			snprintf(err, errlen, "event list too long");
			return -1;
		}
		if (any)
			out[used++] = ',';
		memcpy(out + used, event_names[i], len + 1);
		used += len;
		any = 1;
	}
	return 0;
}

int
webhook_events_match(const char *filter, const char *event)
{
	size_t n = strlen(event);
	const char *p = filter;

	if (*filter == '\0')
		return 1;
	while (*p != '\0') {
		if (strncmp(p, event, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Refuse a player's registration over r's caps. */
static int
within_caps(struct store *st, const struct webhook_rules *r,
    int64_t game_id, int64_t player_id, char *err, size_t errlen)
{
	int64_t n;

	if (r->max_per_game > 0 && game_id > 0) {
		if (store_webhook_count(st, game_id, 0, &n) != STORE_OK)
			goto store;
		if (n >= r->max_per_game) {
			snprintf(err, errlen, "game %lld already has %lld "
			    "webhooks registered by its players, the most this "
			    "server allows (webhook_max_per_game); remove one "
			    "first", (long long)game_id, (long long)n);
			return -1;
		}
	}
	if (r->max_per_player > 0) {
		if (store_webhook_count(st, 0, player_id, &n) != STORE_OK)
			goto store;
		if (n >= r->max_per_player) {
			snprintf(err, errlen, "you already have %lld webhooks, "
			    "the most this server allows one player "
			    "(webhook_max_per_player); remove one first",
			    (long long)n);
			return -1;
		}
	}
	return 0;
store:
	snprintf(err, errlen, "store: %s", store_errmsg(st));
	return -1;
}

int
webhook_register(struct store *st, const struct webhook_rules *r,
    int64_t game_id, int64_t player_id, const char *url, const char *events,
    struct store_webhook *w, char *err, size_t errlen)
{
	return webhook_register_as(st, r, game_id, player_id, url, events,
	    NULL, NULL, w, err, errlen);
}

int
webhook_register_as(struct store *st, const struct webhook_rules *r,
    int64_t game_id, int64_t player_id, const char *url, const char *events,
    const char *format, const char *lang, struct store_webhook *w,
    char *err, size_t errlen)
{
	unsigned char raw[32];
	char hex[2 * sizeof(raw) + 1];
	struct store_game g;
	enum store_status rc;
	int own;

	memset(w, 0, sizeof(*w));
	if (webhook_url_check(url, err, errlen) != 0 ||
	    webhook_events_parse(events != NULL ? events : "", w->events,
	    sizeof(w->events), err, errlen) != 0 ||
	    webhook_chat_choice(format, lang, w->format, w->lang, err,
	    errlen) != 0)
		return -1;
	if (game_id != 0) {
		rc = store_game_get(st, game_id, &g);
		store_game_clear(&g);
		if (rc == STORE_NOTFOUND) {
			snprintf(err, errlen, "there is no game %lld",
			    (long long)game_id);
			return -1;
		}
		if (rc != STORE_OK) {
			snprintf(err, errlen, "store: %s", store_errmsg(st));
			return -1;
		}
	}
	if (r->check_address && webhook_address_check(url, r->allow_hosts,
	    err, errlen) != 0)
		return -1;
	w->game_id = game_id;
	w->player_id = player_id;
	snprintf(w->url, sizeof(w->url), "%s", url);
	randombytes_buf(raw, sizeof(raw));
	proto_hex(raw, sizeof(raw), hex);
	snprintf(w->secret, sizeof(w->secret), "whsec_%s", hex);
	sodium_memzero(raw, sizeof(raw));
	/* The count and the insert in one transaction, so that two requests
	 * at once cannot both pass the cap. */
	own = store_begin(st) == STORE_OK;
	if (player_id > 0 && within_caps(st, r, game_id, player_id, err,
	    errlen) != 0) {
		if (own)
			store_rollback(st);
		sodium_memzero(w->secret, sizeof(w->secret));
		return -1;
	}
	if (store_webhook_add(st, w) != STORE_OK ||
	    (own && store_commit(st) != STORE_OK)) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		if (own)
			store_rollback(st);
		sodium_memzero(w->secret, sizeof(w->secret));
		return -1;
	}
	return 0;
}

const char *
webhook_state_name(int state)
{
	switch (state) {
	case STORE_WEBHOOK_ACTIVE:
		return "active";
	case STORE_WEBHOOK_FAILING:
		return "failing";
	case STORE_WEBHOOK_DISABLED:
		return "disabled";
	}
	return "unknown";
}

/* A registration's comma-separated events as a list of names; every
 * event ("" or "*") is ["*"]. */
static json_t *
events_json(const char *events)
{
	json_t *list = json_array();
	const char *start = events[0] != '\0' ? events : "*", *comma;

	while (list != NULL) {
		comma = strchr(start, ',');
		json_array_append_new(list, json_stringn(start, comma != NULL ?
		    (size_t)(comma - start) : strlen(start)));
		if (comma == NULL)
			break;
		start = comma + 1;
	}
	return list;
}

json_t *
webhook_json(const struct store_webhook *w, const char *lang)
{
	const char *error = w->last_error;

	json_t *j;

	j = json_pack("{s:I, s:s, s:o, s:s, s:i, s:I}", "id",
	    (json_int_t)w->id, "url", w->url, "events",
	    events_json(w->events), "state",
	    webhook_state_name(w->state), "failures", w->failures,
	    "created", (json_int_t)w->created);
	if (j == NULL)
		return NULL;
	json_object_set_new(j, "game", w->game_id != 0 ?
	    json_integer(w->game_id) : json_null());
	if (lang != NULL && error[0] != '\0')
		error = strcmp(lang, "fr") == 0 ? "échec de la livraison" :
		    "delivery failed";
	json_object_set_new(j, "last_error", json_string(error));
	json_object_set_new(j, "player", w->player_id != 0 ?
	    json_integer(w->player_id) : json_null());
	json_object_set_new(j, "last_success", w->last_success != 0 ?
	    json_integer(w->last_success) : json_null());
	if (w->pending >= 0)
		json_object_set_new(j, "pending", json_integer(w->pending));
	json_object_set_new(j, "format", json_string(w->format[0] != '\0' ?
	    w->format : "pbem"));
	json_object_set_new(j, "lang", json_string(w->lang[0] != '\0' ?
	    w->lang : "en"));
	return j;
}

/* ---- Events ------------------------------------------------------------- */

/* The registrations listening to one game (not disabled). */
struct listener {
	int64_t	 id;
	char	 events[256];
};

struct listeners {
	struct listener	*all;
	int		 n, cap;
	int		 nomem;
};

static int
collect_one(const struct store_webhook *w, void *arg)
{
	struct listeners *l = arg;
	struct listener *grown;

	if (w->state == STORE_WEBHOOK_DISABLED)
		return 0;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		if ((grown = reallocarray(l->all, l->cap, sizeof(*grown))) ==
		    NULL) {
			l->nomem = 1;
			return 1;
		}
		l->all = grown;
	}
	l->all[l->n].id = w->id;
	memcpy(l->all[l->n].events, w->events, sizeof(w->events));
	l->n++;
	return 0;
}

/* 0, or -1 (store failure or out of memory: the caller rolls back). */
static int
collect(struct store *st, int64_t game_id, struct listeners *l)
{
	memset(l, 0, sizeof(*l));
	if (store_webhook_foreach(st, game_id, collect_one, l) != STORE_OK ||
	    l->nomem)
		return -1;
	return 0;
}

static int
wanted(const struct listeners *l, const char *event)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (webhook_events_match(l->all[i].events, event))
			return 1;
	return 0;
}

static int
queue(struct store *st, const struct listeners *l, int64_t game_id,
    int64_t seq, const char *event, json_t *data)
{
	struct store_outbox o;
	json_t *payload;
	int64_t now = (int64_t)time(NULL);
	int i, rc = 0;

	if (!wanted(l, event))
		return 0;
	payload = json_pack("{s:I, s:O}", "time", (json_int_t)now, "data",
	    data);
	memset(&o, 0, sizeof(o));
	if (payload == NULL || (o.payload = json_dumps(payload,
	    JSON_COMPACT | JSON_SORT_KEYS)) == NULL) {
		json_decref(payload);
		return -1;
	}
	json_decref(payload);
	o.game_id = game_id;
	o.seq = seq;
	snprintf(o.channel, sizeof(o.channel), "%s", WEBHOOK_CHANNEL);
	snprintf(o.event, sizeof(o.event), "%s", event);
	o.status = STORE_OUTBOX_PENDING;
	o.next_attempt = now;
	for (i = 0; i < l->n && rc == 0; i++) {
		if (!webhook_events_match(l->all[i].events, event))
			continue;
		snprintf(o.recipient, sizeof(o.recipient), "%lld",
		    (long long)l->all[i].id);
		if (store_outbox_add(st, &o) != STORE_OK)
			rc = -1;
		else
			queued_rows = 1;
	}
	free(o.payload);
	return rc;
}

int
webhook_enqueue(struct store *st, int64_t game_id, int64_t seq,
    const char *event, json_t *data)
{
	struct listeners l;
	int rc;

	rc = collect(st, game_id, &l);
	if (rc == 0)
		rc = queue(st, &l, game_id, seq, event, data);
	free(l.all);
	return rc;
}

/* The public view after move seq: never a hand, the deck or (unless the
 * game is over) the seed. */
static json_t *
public_view(const struct gamestate *gs, int64_t seq, int over)
{
	json_t *view = gamestate_view(gs, RULES_VIEW_PUBLIC);

	if (view == NULL)
		return NULL;
	json_object_set_new(view, "next_seq", json_integer(seq + 1));
	if (!over)
		json_object_del(view, "seed");
	return view;
}

int
webhook_move(struct store *st, struct gamestate *gs,
    const struct store_entry *e, int over)
{
	int to_act[STORE_MAX_SEATS], nact, i, rc = -1, seat = e->seat;
	int64_t seq = e->seq;
	char hex[2 * STORE_SEED_BYTES + 1];
	const char *names[STORE_MAX_SEATS] = { NULL };
	struct engine_summary sum, end;
	struct listeners ls, *l = &ls;
	json_t *data = NULL, *seats, *view = NULL;

	if (collect(st, gs->game.id, l) != 0)
		goto out;
	rc = 0;
	if (!wanted(l, "move") && !(over && wanted(l, "game_over")))
		goto out;
	rc = -1;
	/* One public view for both events; its result is the engine's
	 * (gamestate_view(): a resigned seat never wins), not the module's
	 * raw one. */
	if ((view = public_view(gs, seq, over)) == NULL)
		goto out;
	gamestate_view_names(st, gs, view);
	gamestate_seat_names(st, gs, names);
	engine_summarize(st, gs, e, over, &sum);
	nact = gs->module->to_act(gs->state, to_act, STORE_MAX_SEATS);
	seats = json_array();
	for (i = 0; i < nact && i < STORE_MAX_SEATS; i++)
		json_array_append_new(seats, json_integer(to_act[i]));
	data = json_pack("{s:i, s:s?, s:I, s:o, s:O, s:b, s:o, s:O}", "seat",
	    seat, "name", seat >= 0 && seat < STORE_MAX_SEATS ? names[seat] :
	    NULL, "next_seq", (json_int_t)(seq + 1), "to_act", seats,
	    "to_act_names", json_object_get(view, "to_act_names"),
	    "game_over", over, "summary", engine_summary_json(&sum), "view",
	    view);
	if (data == NULL || queue(st, l, gs->game.id, seq, "move", data) != 0)
		goto out;
	json_decref(data);
	data = NULL;
	if (over) {
		engine_summary_game_over(st, gs, &end);
		proto_hex(gs->game.seed, STORE_SEED_BYTES, hex);
		data = json_pack("{s:O*, s:s, s:o, s:O}", "result",
		    json_object_get(view, "result"), "seed", hex, "summary",
		    engine_summary_json(&end), "view", view);
		sodium_memzero(hex, sizeof(hex));
		if (data == NULL || queue(st, l, gs->game.id, seq,
		    "game_over", data) != 0)
			goto out;
	}
	rc = 0;
out:
	json_decref(data);
	json_decref(view);
	free(l->all);
	return rc;
}

int
webhook_game_created(struct store *st, const struct store_game *g,
    const struct engine_summary *sum)
{
	char hex[2 * STORE_HASH_BYTES + 1];
	struct store_player p;
	json_t *data, *seats, *options;
	int s, rc;

	seats = json_array();
	for (s = 0; s < g->nseats; s++) {
		if (g->seat_player[s] == 0) {
			json_array_append_new(seats, json_pack("{s:i, s:n}",
			    "seat", s, "player"));
			continue;
		}
		if (store_player_get(st, g->seat_player[s], &p) != STORE_OK) {
			json_decref(seats);
			return -1;
		}
		json_array_append_new(seats, json_pack("{s:i, s:s}", "seat", s,
		    "player", p.name));
	}
	proto_hex(g->commitment, STORE_HASH_BYTES, hex);
	options = g->options != NULL ? json_loads(g->options, 0, NULL) : NULL;
	data = json_pack("{s:s, s:i, s:i, s:o, s:s, s:o, s:o}", "ruleset",
	    g->ruleset, "ruleset_version", g->ruleset_version, "nseats",
	    g->nseats, "seats", seats, "seed_commitment", hex, "options",
	    options != NULL ? options : json_object(), "summary",
	    engine_summary_json(sum));
	if (data == NULL)
		return -1;
	rc = webhook_enqueue(st, g->id, 0, "game_created", data);
	json_decref(data);
	return rc;
}

int
webhook_take_queued(void)
{
	int was = queued_rows;

	queued_rows = 0;
	return was;
}

/* ---- Delivery ------------------------------------------------------------ */

char *
webhook_body(const struct store_outbox *o)
{
	json_t *payload, *body, *data, *t;
	char *text;

	if ((payload = json_loads(o->payload, 0, NULL)) == NULL)
		return NULL;
	data = json_object_get(payload, "data");
	t = json_object_get(payload, "time");
	if (data == NULL || !json_is_integer(t)) {
		json_decref(payload);
		return NULL;
	}
	body = json_pack("{s:I, s:s, s:I, s:I, s:O, s:O}", "delivery",
	    (json_int_t)o->id, "event", o->event, "game",
	    (json_int_t)o->game_id, "seq", (json_int_t)o->seq, "time", t,
	    "data", data);
	json_decref(payload);
	if (body == NULL)
		return NULL;
	text = json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(body);
	return text;
}

void
webhook_sign(const char *secret, int64_t timestamp, const char *body,
    size_t len, char *out)
{
	crypto_auth_hmacsha256_state state;
	unsigned char mac[crypto_auth_hmacsha256_BYTES];
	char stamp[32];
	int n;

	n = snprintf(stamp, sizeof(stamp), "%lld.", (long long)timestamp);
	crypto_auth_hmacsha256_init(&state, (const unsigned char *)secret,
	    strlen(secret));
	crypto_auth_hmacsha256_update(&state, (const unsigned char *)stamp,
	    (unsigned long long)n);
	crypto_auth_hmacsha256_update(&state, (const unsigned char *)body,
	    (unsigned long long)len);
	crypto_auth_hmacsha256_final(&state, mac);
	memcpy(out, "sha256=", 7);
	proto_hex(mac, sizeof(mac), out + 7);
	sodium_memzero(&state, sizeof(state));
}

int64_t
webhook_backoff(int failures, int64_t base, int64_t max, uint32_t random)
{
	int64_t delay = base;
	int i;

	for (i = 1; i < failures && delay < max; i++)
		delay *= 2;
	if (delay > max)
		delay = max;
	/* Jitter downwards, so that max stays the most ever waited and the
	 * delays still grow: 3/4 of 2d is more than d. */
	delay -= (int64_t)(random % (uint64_t)(delay / 4 + 1));
	return delay < 1 ? 1 : delay;
}
