/*
 * state.c -- Captain's Chair: the opening position (the seed's general
 * set-up, two players), piles, and save/load.  Cards are saved as their
 * kind index + 1, so 0 never names a card.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solo.h"

void
pile_push(struct cc_pile *p, int card)
{
	if (p->n < CC_PILE_MAX)
		p->card[p->n++] = card;
}

int
pile_pop(struct cc_pile *p)
{
	return p->n > 0 ? p->card[--p->n] : -1;
}

void
pile_remove_at(struct cc_pile *p, int i)
{
	memmove(&p->card[i], &p->card[i + 1],
	    (size_t)(p->n - i - 1) * sizeof(int));
	p->n--;
}

void
pile_insert_bottom(struct cc_pile *p, int card)
{
	if (p->n >= CC_PILE_MAX)
		return;
	memmove(&p->card[1], &p->card[0], (size_t)p->n * sizeof(int));
	p->card[0] = card;
	p->n++;
}

int
pile_find(const struct cc_pile *p, int card)
{
	for (int i = p->n - 1; i >= 0; i--)
		if (p->card[i] == card)
			return i;
	return -1;
}

void
pile_shuffle(struct cc_pile *p, struct rules_rng *rng)
{
	if (rng != NULL && p->n > 1)
		rules_rng_shuffle(rng, p->card, (size_t)p->n);
}

const char *
cc_name(const struct cc_state *s, int card, enum rules_lang lang)
{
	return lang == RULES_LANG_FR ? s->set->card[card].name_fr :
	    s->set->card[card].name;
}

static int
zone_cards(const struct cc_zone *z)
{
	int n = z->n;

	for (int i = 0; i < z->n; i++)
		n += z->s[i].nbeam;
	return n;
}

int
cc_count_cards(const struct cc_state *s)
{
	int n = s->junk.n + s->encounter.n + s->incident.n +
	    s->locations.n + s->box.n + s->scan.n;

	for (int k = 0; k < CC_MARKET_SUITS; k++)
		n += s->market[k].n + (s->offer[k] >= 0);
	for (int k = 0; k < CC_NEUTRAL; k++)
		n += s->neutral[k] >= 0;
	for (int i = 0; i < 2; i++) {
		const struct cc_seat *p = &s->seat[i];
		n += p->deck.n + p->hand.n + p->discard.n + p->staging.n +
		    p->log.n + p->reserve.n + p->development.n;
		for (int z = 0; z < CC_NZONES; z++)
			n += zone_cards(&p->zone[z]);
	}
	return n;
}

static void
reveal_offer(struct cc_state *s, int k)
{
	s->offer[k] = pile_pop(&s->market[k]);
	s->offer_glory[k] = 0;
}

static void
deal_seat(struct cc_state *s, int seat, int cap, struct rules_rng *rng)
{
	const struct cc_set *set = s->set;
	struct cc_seat *p = &s->seat[seat];
	struct cc_slot *slot;

	slot = &p->zone[CC_Z_CAPTAIN].s[p->zone[CC_Z_CAPTAIN].n++];
	slot->card = set->captain[cap];
	slot->at = -1;
	for (int i = 0; i < set->ncards; i++) {
		const struct cc_card *c = &set->card[i];
		if (c->owner != cap || c->pile == CC_P_INCIDENT)
			continue;
		for (int k = 0; k < c->copies; k++) {
			struct cc_zone *z = &p->zone[CC_Z_LOCATIONS];
			switch (c->pile) {
			case CC_P_DECK: pile_push(&p->deck, i); break;
			case CC_P_RESERVE: pile_push(&p->reserve, i); break;
			case CC_P_DEVELOPMENT:
				pile_push(&p->development, i);
				break;
			case CC_P_STATUS:	/* beside its captain */
				z = &p->zone[CC_Z_CAPTAIN];
				/* fall through */
			case CC_P_CONTROLLED:
				if (z->n < CC_ZONE_MAX) {
					z->s[z->n].card = i;
					z->s[z->n++].at = -1;
				} else
					pile_push(&s->box, i);
				break;
			default: pile_push(&s->box, i); break;
			}
		}
	}
	pile_shuffle(&p->deck, rng);
	pile_shuffle(&p->reserve, rng);
	p->actions = set->actions;
	for (int i = 0; i < set->hand_size && p->deck.n > 0; i++)
		pile_push(&p->hand, pile_pop(&p->deck));
}

struct cc_state *
cc_new(const struct cc_set *set, struct rules_rng *rng, char *err,
    size_t errlen)
{
	return cc_new_mode(set, CC_MODE_TWO, 0, 0, rng, err, errlen);
}

struct cc_state *
cc_new_mode(const struct cc_set *set, int mode, int bot_seat, int level,
    struct rules_rng *rng, char *err, size_t errlen)
{
	struct cc_state *s = calloc(1, sizeof(*s));
	struct cc_pile start = { 0 };
	int nsd;

	if (s == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->set = set;
	s->mode = mode;
	s->bot_seat = bot_seat;
	s->level = level;
	s->final_turns = -1;
	s->scan_suit = -1;
	for (int i = 0; i < set->ncards; i++) {
		const struct cc_card *c = &set->card[i];
		for (int k = 0; k < c->copies; k++) {
			if (c->pile == CC_P_MARKET)
				pile_push(&s->market[c->suit], i);
			else if (c->pile == CC_P_ENCOUNTER)
				pile_push(&s->encounter, i);
			else if (c->pile == CC_P_INCIDENT && c->owner < 2)
				pile_push(&s->incident, i);
			else if (c->pile == CC_P_LOCATION_START)
				pile_push(&start, i);
			else if (c->pile == CC_P_LOCATION_ADVANCED)
				pile_push(&s->locations, i);
			else if (c->pile == CC_P_CAPTAIN ? i != set->captain[0]
			    && i != set->captain[1] : c->owner >= 2)
				pile_push(&s->box, i);
		}
	}
	for (int k = 0; k < CC_MARKET_SUITS; k++) {
		pile_shuffle(&s->market[k], rng);
		reveal_offer(s, k);
	}
	pile_shuffle(&s->encounter, rng);
	pile_shuffle(&s->incident, rng);
	pile_shuffle(&s->locations, rng);
	pile_shuffle(&start, rng);
	pile_push(&s->locations, pile_pop(&start));
	for (int k = 0; k < CC_NEUTRAL; k++)
		s->neutral[k] = pile_pop(&start);
	while (start.n > 0)
		pile_push(&s->box, pile_pop(&start));
	s->stardate_glory = cc_stardates(s, &nsd)[0].glory;
	for (int i = 0; i < 2; i++)
		deal_seat(s, i, i, rng);
	if (mode == CC_MODE_TWO)
		s->active = (int)rules_rng_below(rng, 2);
	else
		cc_solo_setup(s, rng);
	cc_start_turn(s, rng);
	return s;
}

/* ---- save ---- */

static json_t *
save_pile(const struct cc_pile *p)
{
	json_t *a = json_array();

	for (int i = 0; i < p->n; i++)
		json_array_append_new(a, json_integer(p->card[i] + 1));
	return a;
}

static json_t *
save_zone(const struct cc_zone *z)
{
	json_t *a = json_array();

	for (int i = 0; i < z->n; i++) {
		const struct cc_slot *sl = &z->s[i];
		json_t *beam = json_array();
		for (int b = 0; b < sl->nbeam; b++)
			json_array_append_new(beam,
			    json_integer(sl->beam[b] + 1));
		json_array_append_new(a, json_pack("{s:i,s:b,s:i,s:o}",
		    "card", sl->card + 1, "exhausted", sl->exhausted, "at",
		    sl->at, "beamed", beam));
	}
	return a;
}

static const char *const zone_keys[CC_NZONES] = {
	"captain", "duty", "fleet", "locations"
};

json_t *
cc_save(const struct cc_state *s)
{
	json_t *o = json_object(), *seats = json_array(), *m = json_array(),
	    *offer = json_array(), *og = json_array();

	for (int i = 0; i < 2; i++) {
		const struct cc_seat *p = &s->seat[i];
		json_t *so = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
		    "deck", save_pile(&p->deck), "hand", save_pile(&p->hand),
		    "discard", save_pile(&p->discard),
		    "staging", save_pile(&p->staging),
		    "log", save_pile(&p->log),
		    "reserve", save_pile(&p->reserve),
		    "development", save_pile(&p->development));
		for (int z = 0; z < CC_NZONES; z++)
			json_object_set_new(so, zone_keys[z],
			    save_zone(&p->zone[z]));
		json_object_set_new(so, "resources",
		    rules_json_ints(p->res, CC_NRESOURCES));
		json_object_set_new(so, "tracks",
		    rules_json_ints(p->track, CC_NTRACKS));
		json_object_set_new(so, "teams_at",
		    rules_json_ints(p->teams_at, CC_NEUTRAL));
		json_object_set_new(so, "stardates",
		    rules_json_ints(p->stardate, p->nstardates));
		json_object_set_new(so, "actions", json_integer(p->actions));
		json_object_set_new(so, "free_plays",
		    json_integer(p->free_plays));
		json_object_set_new(so, "missions_done",
		    json_integer(p->missions_done));
		json_array_append_new(seats, so);
	}
	for (int k = 0; k < CC_MARKET_SUITS; k++) {
		json_array_append_new(m, save_pile(&s->market[k]));
		json_array_append_new(offer, json_integer(s->offer[k] + 1));
		json_array_append_new(og, json_integer(s->offer_glory[k]));
	}
	json_object_set_new(o, "seats", seats);
	json_object_set_new(o, "market", m);
	json_object_set_new(o, "offer", offer);
	json_object_set_new(o, "offer_glory", og);
	json_object_set_new(o, "junk", save_pile(&s->junk));
	json_object_set_new(o, "encounter", save_pile(&s->encounter));
	json_object_set_new(o, "incident", save_pile(&s->incident));
	json_object_set_new(o, "locations", save_pile(&s->locations));
	json_object_set_new(o, "box", save_pile(&s->box));
	json_object_set_new(o, "scan", save_pile(&s->scan));
	json_object_set_new(o, "scan_suit", json_integer(s->scan_suit));
	{
		int nz[CC_NEUTRAL];
		for (int k = 0; k < CC_NEUTRAL; k++)
			nz[k] = s->neutral[k] + 1;
		json_object_set_new(o, "neutral", rules_json_ints(nz,
		    CC_NEUTRAL));
	}
	json_object_set_new(o, "state", json_pack(
	    "{s:i,s:i,s:i,s:i,s:i,s:b,s:b,s:i,s:i,s:i,s:i,s:b,s:i,s:i}",
	    "active", s->active, "turn", s->turn, "phase", s->phase,
	    "controlled", s->controlled_this_turn, "final_turns",
	    s->final_turns, "over", s->over, "burn", s->burn, "stardate",
	    s->stardate, "stardate_glory", s->stardate_glory,
	    "glory_from_supply", s->glory_from_supply, "glory_returned",
	    s->glory_returned, "pending", s->pending, "pending_card",
	    s->pending_card, "pending_op", s->pending_op));
	json_object_set_new(o, "last_en", json_string(s->last_en));
	json_object_set_new(o, "last_fr", json_string(s->last_fr));
	if (s->mode != CC_MODE_TWO)
		json_object_set_new(o, "solo", json_pack("{s:i,s:i,s:i,s:i}",
		    "mode", s->mode, "bot_seat", s->bot_seat, "level",
		    s->level, "wiped", s->cadet_wiped));
	return o;
}

/* ---- load ---- */

static int
load_pile(const struct cc_set *set, const json_t *a, struct cc_pile *p)
{
	int v[CC_PILE_MAX];

	if (rules_json_read_ints(a, v, CC_PILE_MAX, 1, set->ncards,
	    &p->n) < 0)
		return -1;
	for (int i = 0; i < p->n; i++)
		p->card[i] = v[i] - 1;
	return 0;
}

static int
load_zone(const struct cc_set *set, const json_t *a, struct cc_zone *z)
{
	size_t i;

	if (!json_is_array(a) || json_array_size(a) > CC_ZONE_MAX)
		return -1;
	z->n = 0;
	for (i = 0; i < json_array_size(a); i++) {
		struct cc_slot *sl = &z->s[z->n++];
		json_t *e = json_array_get(a, i), *beam;
		int card, ex, at, v[CC_BEAM_MAX];
		if (json_unpack((json_t *)e, "{s:i,s:b,s:i,s:o}", "card", &card,
		    "exhausted", &ex, "at", &at, "beamed", &beam) < 0 ||
		    card < 1 || card > set->ncards || at < -1 ||
		    at >= CC_NEUTRAL ||
		    rules_json_read_ints(beam, v, CC_BEAM_MAX, 1, set->ncards,
		    &sl->nbeam) < 0)
			return -1;
		sl->card = card - 1;
		sl->exhausted = ex;
		sl->at = at;
		for (int b = 0; b < sl->nbeam; b++)
			sl->beam[b] = v[b] - 1;
	}
	return 0;
}

static int
load_seat(const struct cc_set *set, const json_t *o, struct cc_seat *p)
{
	int n;

	if (!json_is_object(o) ||
	    load_pile(set, json_object_get(o, "deck"), &p->deck) < 0 ||
	    load_pile(set, json_object_get(o, "hand"), &p->hand) < 0 ||
	    load_pile(set, json_object_get(o, "discard"), &p->discard) < 0 ||
	    load_pile(set, json_object_get(o, "staging"), &p->staging) < 0 ||
	    load_pile(set, json_object_get(o, "log"), &p->log) < 0 ||
	    load_pile(set, json_object_get(o, "reserve"), &p->reserve) < 0 ||
	    load_pile(set, json_object_get(o, "development"),
	    &p->development) < 0)
		return -1;
	for (int z = 0; z < CC_NZONES; z++)
		if (load_zone(set, json_object_get(o, zone_keys[z]),
		    &p->zone[z]) < 0)
			return -1;
	if (rules_json_read_ints(json_object_get(o, "resources"), p->res,
	    CC_NRESOURCES, 0, 100000, &n) < 0 || n != CC_NRESOURCES ||
	    rules_json_read_ints(json_object_get(o, "tracks"), p->track,
	    CC_NTRACKS, 0, 15, &n) < 0 || n != CC_NTRACKS ||
	    rules_json_read_ints(json_object_get(o, "teams_at"), p->teams_at,
	    CC_NEUTRAL, 0, 6, &n) < 0 || n != CC_NEUTRAL ||
	    rules_json_read_ints(json_object_get(o, "stardates"), p->stardate,
	    CC_STARDATES_MAX, 0, CC_STARDATES_MAX - 1, &p->nstardates) < 0 ||
	    json_unpack((json_t *)o, "{s:i,s:i}", "actions", &p->actions, "free_plays",
	    &p->free_plays) < 0 || p->actions < 0 || p->actions > 10000 ||
	    p->free_plays < 0 || p->free_plays > 10000)
		return -1;
	/* missions_done: absent from positions saved before missions */
	if (json_object_get(o, "missions_done") != NULL &&
	    (json_unpack((json_t *)o, "{s:i}", "missions_done",
	    &p->missions_done) < 0 || p->missions_done < 0 ||
	    p->missions_done >= 1 << CC_MISSIONS_MAX))
		return -1;
	if (p->zone[CC_Z_CAPTAIN].n < 1 || p->zone[CC_Z_CAPTAIN].n > 2 ||
	    set->card[p->zone[CC_Z_CAPTAIN].s[0].card].suit != CC_CAPTAIN ||
	    (p->zone[CC_Z_CAPTAIN].n == 2 &&
	    set->card[p->zone[CC_Z_CAPTAIN].s[1].card].suit != CC_STATUS))
		return -1;
	if (p->missions_done >= 1 << set->card[p->zone[CC_Z_CAPTAIN].s[0].card]
	    .nmissions)
		return -1;
	n = set->card[p->zone[CC_Z_CAPTAIN].s[0].card].away_teams;
	for (int k = 0; k < CC_NEUTRAL; k++)
		n -= p->teams_at[k];
	if (n < 0)
		return -1;
	return 0;
}

/* Every kind appears exactly as many times as the set has copies of it. */
static int
conserved(const struct cc_state *s)
{
	static const int zero;
	int count[CC_KINDS_MAX];
	const struct cc_pile *piles[40];
	int np = 0;

	memset(count, zero, sizeof(count));
	for (int k = 0; k < CC_MARKET_SUITS; k++) {
		piles[np++] = &s->market[k];
		if (s->offer[k] >= 0)
			count[s->offer[k]]++;
	}
	piles[np++] = &s->junk;
	piles[np++] = &s->encounter;
	piles[np++] = &s->incident;
	piles[np++] = &s->locations;
	piles[np++] = &s->box;
	piles[np++] = &s->scan;
	for (int k = 0; k < CC_NEUTRAL; k++)
		if (s->neutral[k] >= 0)
			count[s->neutral[k]]++;
	for (int i = 0; i < 2; i++) {
		const struct cc_seat *p = &s->seat[i];
		piles[np++] = &p->deck;
		piles[np++] = &p->hand;
		piles[np++] = &p->discard;
		piles[np++] = &p->staging;
		piles[np++] = &p->log;
		piles[np++] = &p->reserve;
		piles[np++] = &p->development;
		for (int z = 0; z < CC_NZONES; z++)
			for (int j = 0; j < p->zone[z].n; j++) {
				const struct cc_slot *sl = &p->zone[z].s[j];
				count[sl->card]++;
				for (int b = 0; b < sl->nbeam; b++)
					count[sl->beam[b]]++;
			}
	}
	for (int i = 0; i < np; i++)
		for (int j = 0; j < piles[i]->n; j++)
			count[piles[i]->card[j]]++;
	for (int i = 0; i < s->set->ncards; i++)
		if (count[i] != s->set->card[i].copies)
			return -1;
	return 0;
}

struct cc_state *
cc_load(const struct cc_set *set, const json_t *saved, char *err,
    size_t errlen)
{
	struct cc_state *s = calloc(1, sizeof(*s));
	const json_t *seats, *st;
	int v[CC_NEUTRAL + CC_MARKET_SUITS], n, nsd;
	const char *le, *lf;

	if (s == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->set = set;
	if (json_object_get(saved, "solo") != NULL && (json_unpack(
	    json_object_get(saved, "solo"), "{s:i,s:i,s:i,s:i}", "mode",
	    &s->mode, "bot_seat", &s->bot_seat, "level", &s->level, "wiped",
	    &s->cadet_wiped) < 0 || s->mode < CC_MODE_BOT ||
	    s->mode > CC_MODE_CADET || s->bot_seat < 0 || s->bot_seat > 1 ||
	    s->level < 0 || s->level >= CC_LEVELS || s->cadet_wiped < 0 ||
	    s->cadet_wiped > set->ncards))
		goto bad;
	(void)cc_stardates(s, &nsd);
	if (nsd == 0)
		goto bad;
	seats = json_object_get(saved, "seats");
	st = json_object_get(saved, "state");
	if (!json_is_array(seats) || json_array_size(seats) != 2 ||
	    load_seat(set, json_array_get(seats, 0), &s->seat[0]) < 0 ||
	    load_seat(set, json_array_get(seats, 1), &s->seat[1]) < 0)
		goto bad;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < s->seat[i].nstardates; j++)
			if (s->seat[i].stardate[j] >= nsd)
				goto bad;
	if (!json_is_array(json_object_get(saved, "market")) ||
	    json_array_size(json_object_get(saved, "market")) !=
	    CC_MARKET_SUITS)
		goto bad;
	for (int k = 0; k < CC_MARKET_SUITS; k++)
		if (load_pile(set, json_array_get(json_object_get(saved,
		    "market"), (size_t)k), &s->market[k]) < 0)
			goto bad;
	if (rules_json_read_ints(json_object_get(saved, "offer"), v,
	    CC_MARKET_SUITS, 0, set->ncards, &n) < 0 || n != CC_MARKET_SUITS)
		goto bad;
	for (int k = 0; k < CC_MARKET_SUITS; k++) {
		s->offer[k] = v[k] - 1;
		if (s->offer[k] >= 0 && (int)set->card[s->offer[k]].suit != k)
			goto bad;
	}
	if (rules_json_read_ints(json_object_get(saved, "offer_glory"),
	    s->offer_glory, CC_MARKET_SUITS, 0, 1000, &n) < 0 ||
	    n != CC_MARKET_SUITS ||
	    load_pile(set, json_object_get(saved, "junk"), &s->junk) < 0 ||
	    load_pile(set, json_object_get(saved, "encounter"),
	    &s->encounter) < 0 ||
	    load_pile(set, json_object_get(saved, "incident"),
	    &s->incident) < 0 ||
	    load_pile(set, json_object_get(saved, "locations"),
	    &s->locations) < 0 ||
	    load_pile(set, json_object_get(saved, "box"), &s->box) < 0 ||
	    rules_json_read_ints(json_object_get(saved, "neutral"), v,
	    CC_NEUTRAL, 0, set->ncards, &n) < 0 || n != CC_NEUTRAL)
		goto bad;
	for (int k = 0; k < CC_NEUTRAL; k++) {
		s->neutral[k] = v[k] - 1;
		if (s->neutral[k] >= 0 &&
		    set->card[s->neutral[k]].suit != CC_LOCATION)
			goto bad;
	}
	if (json_unpack((json_t *)st,
	    "{s:i,s:i,s:i,s:i,s:i,s:b,s:b,s:i,s:i,s:i,s:i,s:b,s:i,s:i}",
	    "active", &s->active, "turn", &s->turn, "phase", &s->phase,
	    "controlled", &s->controlled_this_turn, "final_turns",
	    &s->final_turns, "over", &s->over, "burn", &s->burn, "stardate",
	    &s->stardate, "stardate_glory", &s->stardate_glory,
	    "glory_from_supply", &s->glory_from_supply, "glory_returned",
	    &s->glory_returned, "pending", &s->pending, "pending_card",
	    &s->pending_card, "pending_op", &s->pending_op) < 0 ||
	    s->active < 0 || s->active > 1 || s->turn < 0 ||
	    s->phase < 0 || s->phase > CC_PH_ACTION ||
	    s->final_turns < -1 || s->final_turns > 3 || s->stardate < 0 ||
	    s->stardate >= nsd || s->stardate_glory < 0 ||
	    s->stardate_glory > 30 || s->glory_from_supply < 0 ||
	    s->glory_returned < 0 || s->pending_card < 0 ||
	    s->pending_card >= set->ncards || s->pending_op < 0 ||
	    s->pending_op >= CC_OPS_MAX ||
	    (s->pending && (s->pending_op >= set->card[s->pending_card].nops ||
	    !set->card[s->pending_card].op[s->pending_op].attack)))
		goto bad;
	if (json_unpack((json_t *)saved, "{s:s,s:s}", "last_en", &le,
	    "last_fr", &lf) < 0 || strlen(le) >= CC_LAST_LEN ||
	    strlen(lf) >= CC_LAST_LEN)
		goto bad;
	strcpy(s->last_en, le);
	strcpy(s->last_fr, lf);
	/* a scan waiting for its pick (absent from positions saved before
	 * SCAN was built: none waits) */
	s->scan_suit = -1;
	if (json_object_get(saved, "scan_suit") != NULL &&
	    (json_unpack((json_t *)saved, "{s:i}", "scan_suit",
	    &s->scan_suit) < 0 || s->scan_suit < -1 ||
	    s->scan_suit >= CC_MARKET_SUITS ||
	    load_pile(set, json_object_get(saved, "scan"), &s->scan) < 0 ||
	    (s->scan_suit < 0 && s->scan.n > 0) ||
	    (s->scan_suit >= 0 && s->pending) ||
	    s->scan.n > CC_SCAN_MAX))
		goto bad;
	for (int i = 0; i < s->scan.n; i++)
		if ((int)set->card[s->scan.card[i]].suit != s->scan_suit)
			goto bad;
	if (conserved(s) < 0) {
		snprintf(err, errlen, "saved state: the cards do not match "
		    "the game's card set");
		free(s);
		return NULL;
	}
	return s;
bad:
	snprintf(err, errlen, "saved state is not a Captain's Chair position");
	free(s);
	return NULL;
}
