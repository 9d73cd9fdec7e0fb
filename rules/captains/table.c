/*
 * table.c -- the table rules the keywords share: paying (with the glory
 * conversion), gaining glory from the STARDATE, drawing with deck cycling
 * and enlisting, taking from the INCIDENT deck (and the BURN), securing
 * and controlling Neutral Zone locations, passive triggers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "solo.h"

int
cc_refuse(struct cc_ctx *c, const char *en, const char *fr, ...)
{
	va_list ap;

	va_start(ap, fr);
	vsnprintf(c->err, c->errlen, c->lang == RULES_LANG_FR ? fr : en, ap);
	va_end(ap);
	return -1;
}

/* Pay amount of resource, glory making up a shortfall (seed: 1 glory =
 * 1 latinum = 2 dilithium; what is overpaid is lost). */
int
cc_pay(struct cc_ctx *c, int seat, int resource, int amount)
{
	struct cc_seat *p = &c->s->seat[seat];
	int have = p->res[resource], glory = 0;

	if (resource != CC_GLORY && have < amount)
		glory = resource == CC_LATINUM ? amount - have :
		    (amount - have + 1) / 2;
	if (resource == CC_GLORY)
		glory = amount;
	if (glory > p->res[CC_GLORY])
		return cc_refuse(c, "you cannot pay %d %s (you have %d, and "
		    "%d glory)", "vous ne pouvez pas payer %d %s (vous en "
		    "avez %d, et %d gloire)", amount,
		    cc_resource_name(resource), resource == CC_GLORY ? 0 :
		    have, p->res[CC_GLORY]);
	if (resource != CC_GLORY)
		p->res[resource] = have >= amount ? have - amount : 0;
	p->res[CC_GLORY] -= glory;
	c->s->glory_returned += glory;
	return 0;
}

int
cc_pay_cost(struct cc_ctx *c, int seat, const int cost[2])
{
	struct cc_seat *p = &c->s->seat[seat];
	int dil = cost[0] - p->res[CC_DILITHIUM];
	int lat = cost[1] - p->res[CC_LATINUM];
	int glory = (dil > 0 ? (dil + 1) / 2 : 0) + (lat > 0 ? lat : 0);

	if (glory > p->res[CC_GLORY])
		return cc_refuse(c, "the cost, %d dilithium and %d latinum, "
		    "is more than you have", "le coût, %d dilithium et %d "
		    "latinum, dépasse ce que vous avez", cost[0], cost[1]);
	p->res[CC_DILITHIUM] = dil > 0 ? 0 : -dil;
	p->res[CC_LATINUM] = lat > 0 ? 0 : -lat;
	p->res[CC_GLORY] -= glory;
	c->s->glory_returned += glory;
	return 0;
}

/* One glory leaves the STARDATE in play: an emptied STARDATE goes to
 * the inactive seat (to the player in cadet training) and the next one
 * comes into play; after the last, the game's resolution is under way. */
static void
stardate_out(struct cc_state *s)
{
	const struct cc_stardate *sd;
	int n;

	if (--s->stardate_glory > 0)
		return;
	sd = cc_stardates(s, &n);
	if (s->stardate + 1 < n) {
		struct cc_seat *idle = &s->seat[s->mode == CC_MODE_CADET ?
		    s->active : 1 - s->active];
		idle->stardate[idle->nstardates++] = s->stardate;
		s->stardate++;
		s->stardate_glory = sd[s->stardate].glory;
	} else
		s->final_turns = cc_final_turns(s);
}

/* Glory comes from the STARDATE in play, or from the supply once the
 * resolution is under way -- and always in cadet training (line 325),
 * where the virtual opponent gains nothing. */
void
cc_gain_glory(struct cc_state *s, int seat, int n)
{
	for (int i = 0; i < n; i++) {
		if (s->mode == CC_MODE_CADET && seat == 1)
			return;
		s->seat[seat].res[CC_GLORY]++;
		if (s->final_turns >= 0 || s->mode == CC_MODE_CADET) {
			s->glory_from_supply++;
			continue;
		}
		stardate_out(s);
	}
}

/* Clean-up 4.3: a glory from the STARDATE (the supply once the
 * resolution is under way) onto market offer k; with no offer (k -1) it
 * still leaves the STARDATE, so a game alone always ends. */
void
cc_glory_to_offer(struct cc_state *s, int k)
{
	if (k < 0) {	/* an empty market: the glory leaves the game */
		if (s->final_turns < 0) {
			stardate_out(s);
			s->glory_returned++;
		}
		return;
	}
	if (s->final_turns >= 0)
		s->glory_from_supply++;
	else
		stardate_out(s);
	s->offer_glory[k]++;
}

/* Shuffle the discard into the deck, then enlist a RESERVE card. */
static int
cycle(struct cc_ctx *c, int seat)
{
	struct cc_seat *p = &c->s->seat[seat];

	if (p->discard.n == 0)
		return -1;
	while (p->discard.n > 0)
		pile_push(&p->deck, pile_pop(&p->discard));
	pile_shuffle(&p->deck, c->rng);
	if (p->reserve.n > 0)
		pile_push(&p->deck, pile_pop(&p->reserve));
	c->s->unseen = 1;
	return 0;
}

void
cc_draw(struct cc_ctx *c, int seat, int n)
{
	struct cc_seat *p = &c->s->seat[seat];

	for (int i = 0; i < n; i++) {
		if (p->deck.n == 0 && cycle(c, seat) < 0)
			return;
		pile_push(&p->hand, pile_pop(&p->deck));
		c->s->unseen = 1;
	}
}

void
cc_take(struct cc_ctx *c, int seat, int suit)
{
	struct cc_pile *from = suit == CC_INCIDENT ? &c->s->incident :
	    &c->s->encounter;

	if (from->n == 0)
		return;
	pile_push(&c->s->seat[seat].hand, pile_pop(from));
	c->s->unseen = 1;
	if (suit == CC_INCIDENT && c->s->incident.n == 0) {
		c->s->over = 1;		/* the BURN */
		c->s->burn = 1;
	}
}

int
cc_ships_at(const struct cc_state *s, int seat, int k)
{
	const struct cc_zone *z = &s->seat[seat].zone[CC_Z_FLEET];
	int n = 0;

	for (int i = 0; i < z->n; i++)
		n += z->s[i].at == k;
	return n;
}

int
cc_tokens(const struct cc_state *s, int seat, int k)
{
	return cc_ships_at(s, seat, k) + s->seat[seat].teams_at[k];
}

int
cc_secured(const struct cc_state *s, int seat, int k)
{
	int mine = cc_tokens(s, seat, k);

	return s->neutral[k] >= 0 && mine >= 3 &&
	    mine >= cc_tokens(s, 1 - seat, k) + 2;
}

int
cc_teams_free(const struct cc_state *s, int seat)
{
	const struct cc_seat *p = &s->seat[seat];
	int n = s->set->card[p->zone[CC_Z_CAPTAIN].s[0].card].away_teams;

	for (int k = 0; k < CC_NEUTRAL; k++)
		n -= p->teams_at[k];
	return n;
}

/* Move slot i of a zone, with its beamed cards, onto dest. */
void
cc_slot_to_pile(struct cc_state *s, int seat, int zone, int i,
    struct cc_pile *dest)
{
	struct cc_zone *z = &s->seat[seat].zone[zone];
	struct cc_slot *sl = &z->s[i];

	for (int b = 0; b < sl->nbeam; b++)
		pile_push(dest, sl->beam[b]);
	pile_push(dest, sl->card);
	memmove(&z->s[i], &z->s[i + 1],
	    (size_t)(z->n - i - 1) * sizeof(z->s[0]));
	z->n--;
}

void
cc_refill_offer(struct cc_state *s, int k)
{
	s->offer[k] = pile_pop(&s->market[k]);
	s->offer_glory[k] = 0;
}

/* The opponent gains a glory per token of theirs; every token leaves
 * (teams to their captain, ships dismissed); the location comes to
 * seat's table and the Neutral Zone is refilled.  The location's slot
 * among seat's locations, or -1 when the zone is full (it goes to the
 * box). */
int
cc_take_location(struct cc_ctx *c, int seat, int k)
{
	struct cc_state *s = c->s;
	int loc = s->neutral[k];
	struct cc_zone *z = &s->seat[seat].zone[CC_Z_LOCATIONS];

	cc_gain_glory(s, 1 - seat, cc_tokens(s, 1 - seat, k));
	for (int w = 0; w < 2; w++) {
		struct cc_zone *fleet = &s->seat[w].zone[CC_Z_FLEET];
		s->seat[w].teams_at[k] = 0;
		for (int i = fleet->n - 1; i >= 0; i--)
			if (fleet->s[i].at == k)
				cc_slot_to_pile(s, w, CC_Z_FLEET, i,
				    &s->seat[w].discard);
	}
	s->neutral[k] = pile_pop(&s->locations);
	if (z->n == CC_ZONE_MAX) {
		pile_push(&s->box, loc);
		return -1;
	}
	memset(&z->s[z->n], 0, sizeof(z->s[0]));
	z->s[z->n].card = loc;
	z->s[z->n].at = -1;
	return z->n++;
}

/* cc_take_location(), then the location's CONTROL operations and the
 * PASSIVE take_control ones. */
void
cc_take_control(struct cc_ctx *c, int seat, int k)
{
	struct cc_state *s = c->s;
	int loc = s->neutral[k], at = cc_take_location(c, seat, k);
	struct cc_src src = { seat, loc, CC_Z_LOCATIONS, at, 0 };

	if (at < 0)
		return;
	for (int o = 0; o < s->set->card[loc].nops; o++)
		if (s->set->card[loc].op[o].kind == CC_CONTROL && !s->over)
			(void)cc_resolve(c, &src, o, NULL);
	cc_fire(c, seat, CC_ON_TAKE_CONTROL);
}

static int
has_trait(const struct cc_card *k, int trait, int wild)
{
	for (int t = 0; t < k->ntraits; t++)
		if (k->trait[t] == trait)
			return 1;
	return wild && k->wildcard;
}

/* What one card adds to cc_in_play_count(). */
static int
counts(const struct cc_card *k, int beamed, int suit, int trait,
    int skills)
{
	if (skills)
		return beamed ? 0 : k->skill[skills - 1];
	return (suit < 0 || (int)k->suit == suit) &&
	    (trait < 0 || has_trait(k, trait, 1));
}

/* Cards of seat in play (staging, zones and beamed cards) of suit (-1:
 * any) and trait (-1: any; WILDCARD counts); with skills set, the sum
 * of skill icons of track skills-1 instead (beamed cards have none). */
int
cc_in_play_count(const struct cc_state *s, int seat, int suit, int trait,
    int skills)
{
	const struct cc_seat *p = &s->seat[seat];
	const struct cc_card *k = s->set->card;
	int n = 0;

	for (int i = 0; i < p->staging.n; i++)
		n += counts(&k[p->staging.card[i]], 0, suit, trait, skills);
	for (int z = 0; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n; i++) {
			const struct cc_slot *sl = &p->zone[z].s[i];
			n += counts(&k[sl->card], 0, suit, trait, skills);
			for (int b = 0; b < sl->nbeam; b++)
				n += counts(&k[sl->beam[b]], 1, suit, trait,
				    skills);
		}
	return n;
}

/* PASSIVE operations of seat's table cards that fire on `on`. */
void
cc_fire(struct cc_ctx *c, int seat, enum cc_trigger on)
{
	struct cc_seat *p = &c->s->seat[seat];

	if (c->in_passive)
		return;
	c->in_passive = 1;
	for (int z = 0; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n; i++) {
			int card = p->zone[z].s[i].card;
			const struct cc_card *k = &c->s->set->card[card];
			for (int o = 0; o < k->nops; o++) {
				struct cc_src src = { seat, card, z, i, 0 };
				if (k->op[o].kind == CC_PASSIVE &&
				    k->op[o].trigger == on && !c->s->over)
					(void)cc_resolve(c, &src, o, NULL);
			}
		}
	c->in_passive = 0;
}
