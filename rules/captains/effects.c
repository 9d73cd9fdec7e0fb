/*
 * effects.c -- the effect vocabulary: one entry per keyword of the seed's
 * glossary (docs/captains-cards.md), run for any card whose operation
 * names it.  Costs that cannot be paid refuse the operation; a benefit
 * that cannot be had is skipped (seed: "Un effet sans coût qui ne peut
 * pas être résolu peut être ignoré").
 */
#include <stdio.h>
#include <string.h>

#include "resolve.h"

static const char *
nm(struct cc_ctx *c, int card)
{
	return cc_name(c->s, card, c->lang);
}

/* The one target a step names, found where the keyword looks. */
static int
need_aim(struct cc_ctx *c, const struct cc_aim *aim)
{
	if (aim == NULL || aim->card < 0)
		return cc_refuse(c, "this operation needs a target: add "
		    "\"on CARD\"", "cette opération demande une cible : "
		    "ajoutez « sur CARTE »");
	return 0;
}

static int
in_hand(struct cc_ctx *c, int seat, const struct cc_aim *aim, int suits)
{
	int i;

	if (need_aim(c, aim) < 0)
		return -1;
	if ((i = pile_find(&c->s->seat[seat].hand, aim->card)) < 0)
		return cc_refuse(c, "%s is not in your hand",
		    "%s n'est pas dans votre main", nm(c, aim->card));
	if (suits != 0 && !(suits & (1 << c->s->set->card[aim->card].suit)))
		return cc_refuse(c, "%s is not of the suit this effect asks "
		    "for", "%s n'est pas de la catégorie demandée",
		    nm(c, aim->card));
	return i;
}

/* A card of seat's table (duty, fleet, locations), as zone*100+slot. */
static int
on_table(struct cc_ctx *c, int seat, const struct cc_aim *aim)
{
	const struct cc_seat *p = &c->s->seat[seat];

	if (need_aim(c, aim) < 0)
		return -1;
	for (int z = CC_Z_DUTY; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n; i++)
			if (p->zone[z].s[i].card == aim->card)
				return z * 100 + i;
	return cc_refuse(c, "%s is not on your table",
	    "%s n'est pas sur votre table", nm(c, aim->card));
}

static int
neutral(struct cc_ctx *c, const struct cc_aim *aim)
{
	if (need_aim(c, aim) < 0)
		return -1;
	for (int k = 0; k < CC_NEUTRAL; k++)
		if (c->s->neutral[k] == aim->card && aim->card >= 0)
			return k;
	return cc_refuse(c, "%s is not in the Neutral Zone",
	    "%s n'est pas dans la Zone Neutre", nm(c, aim->card));
}

static int
offer(struct cc_ctx *c, const struct cc_aim *aim, int suits)
{
	if (need_aim(c, aim) < 0)
		return -1;
	for (int k = 0; k < CC_MARKET_SUITS; k++)
		if (c->s->offer[k] == aim->card && (suits & (1 << k)))
			return k;
	return cc_refuse(c, "%s is not a market offer this effect may take",
	    "%s n'est pas une offre du Marché que cet effet peut prendre",
	    nm(c, aim->card));
}

void
cc_gained(struct cc_ctx *c, int seat, int card, const struct cc_aim *aim)
{
	struct cc_seat *p = &c->s->seat[seat];

	pile_push(aim != NULL && aim->to_deck ? &p->deck : &p->discard, card);
	cc_fire(c, seat, CC_ON_GAIN_CARD);
}

static int
take_offer(struct cc_ctx *c, int seat, int k, int pay,
    const struct cc_aim *aim)
{
	int card = c->s->offer[k];

	if (pay && cc_pay_cost(c, seat, c->s->set->card[card].cost) < 0)
		return -1;
	c->s->seat[seat].res[CC_GLORY] += c->s->offer_glory[k];
	cc_refill_offer(c->s, k);
	cc_gained(c, seat, card, aim);
	return 0;
}

/* GAIN (or SCAN: the Junk is public, so the look and the pick are one
 * step) a card of the Junk, of the effect's suits (line 199). */
static int
gain_from_junk(struct cc_ctx *c, int seat, const struct cc_effect *e,
    const struct cc_aim *aim)
{
	struct cc_state *s = c->s;
	int i;

	if (need_aim(c, aim) < 0)
		return -1;
	if ((i = pile_find(&s->junk, aim->card)) < 0 || (e->suits != 0 &&
	    !(e->suits & (1 << s->set->card[aim->card].suit))))
		return cc_refuse(c, "%s is not a card of the Junk this effect "
		    "may take", "%s n'est pas une carte de la Poubelle que cet "
		    "effet peut prendre", nm(c, aim->card));
	if (e->pay && cc_pay_cost(c, seat, s->set->card[aim->card].cost) < 0)
		return -1;
	pile_remove_at(&s->junk, i);
	cc_gained(c, seat, aim->card, aim);
	return 0;
}

static int
gain_card(struct cc_ctx *c, int seat, const struct cc_effect *e,
    const struct cc_aim *aim)
{
	int k, card;

	if (e->junk)
		return gain_from_junk(c, seat, e, aim);
	if (aim != NULL && aim->deck != -2) {
		k = aim->deck;
		if (k == -1)
			for (k = 0; k < CC_MARKET_SUITS &&
			    !(e->suits & (1 << k)); k++)
				;
		if (k >= CC_MARKET_SUITS || !(e->suits & (1 << k)))
			return cc_refuse(c, "this effect does not gain from "
			    "that deck", "cet effet ne gagne pas de cette "
			    "pioche");
		if (c->s->market[k].n == 0)
			return 0;
		/* A blind gain from the deck is not paid for: a refusal
		 * would tell the top card's cost (docs/captains.md). */
		card = pile_pop(&c->s->market[k]);
		cc_gained(c, seat, card, aim);
		c->s->unseen = 1;
		return 0;
	}
	if ((k = offer(c, aim, e->suits)) < 0)
		return -1;
	return take_offer(c, seat, k, e->pay, aim);
}

static int
trait_of(const struct cc_card *k, int trait)
{
	for (int t = 0; t < k->ntraits; t++)
		if (k->trait[t] == trait)
			return 1;
	return k->wildcard;
}

/* SCAN FOR a trait: the offers first, then each market deck revealed
 * until one shows, the others shuffled back; nothing: 2 glory. */
static void
scan_for(struct cc_ctx *c, int seat, const struct cc_effect *e,
    const struct cc_aim *aim)
{
	struct cc_state *s = c->s;
	int trait = e->trait;

	/* from the Junk: its cards first, before the market (line 551) */
	for (int i = s->junk.n - 1; e->junk && i >= 0; i--)
		if (trait_of(&s->set->card[s->junk.card[i]], trait)) {
			int card = s->junk.card[i];
			pile_remove_at(&s->junk, i);
			cc_gained(c, seat, card, aim);
			return;
		}
	for (int k = 0; k < CC_MARKET_SUITS; k++)
		if (s->offer[k] >= 0 &&
		    trait_of(&s->set->card[s->offer[k]], trait)) {
			(void)take_offer(c, seat, k, 0, aim);
			return;
		}
	for (int k = 0; k < CC_MARKET_SUITS; k++) {
		struct cc_pile *d = &s->market[k];
		for (int i = d->n - 1; i >= 0; i--)
			if (trait_of(&s->set->card[d->card[i]], trait)) {
				int card = d->card[i];
				pile_remove_at(d, i);
				if (i < d->n)	/* more than one revealed */
					pile_shuffle(d, c->rng);
				cc_gained(c, seat, card, aim);
				s->unseen = 1;
				return;
			}
	}
	cc_gain_glory(s, seat, 2);
}

/* FIND: hand, discard, deck, reserve; the piles searched are shuffled. */
static void
find(struct cc_ctx *c, int seat, const struct cc_effect *e, int card)
{
	struct cc_seat *p = &c->s->seat[seat];
	struct cc_pile *where[3] = { &p->discard, &p->deck, &p->reserve };
	const struct cc_card *k = &c->s->set->card[card];

	if ((e->suits != 0 && !(e->suits & (1 << k->suit))) ||
	    (e->trait >= 0 && !trait_of(k, e->trait)) ||
	    pile_find(&p->hand, card) >= 0)
		return;
	for (int w = 0; w < 3; w++) {
		int i = pile_find(where[w], card);
		if (i < 0)
			continue;
		pile_remove_at(where[w], i);
		pile_push(&p->hand, card);
		break;
	}
	pile_shuffle(&p->deck, c->rng);
	pile_shuffle(&p->reserve, c->rng);
	c->s->unseen = 1;
}

/* Move "this card" from where it lies into dest zone (promote, deploy). */
static int
move_self(struct cc_ctx *c, struct cc_src *src, int zone)
{
	struct cc_seat *p = &c->s->seat[src->seat];
	struct cc_zone *z = &p->zone[zone];
	int limit = zone == CC_Z_DUTY ? 1 : CC_ZONE_MAX;
	int i;

	if (src->zone == zone)
		return 0;
	if (src->zone != -1 ||
	    (i = pile_find(&p->staging, src->card)) < 0)
		return cc_refuse(c, "%s must be played from your hand for "
		    "this", "%s doit être jouée de votre main pour cela",
		    nm(c, src->card));
	while (z->n >= limit)	/* the officer in excess is dismissed */
		cc_slot_to_pile(c->s, src->seat, zone, 0, &p->discard);
	pile_remove_at(&p->staging, i);
	memset(&z->s[z->n], 0, sizeof(z->s[0]));
	z->s[z->n].card = src->card;
	z->s[z->n].at = -1;
	src->zone = zone;
	src->slot = z->n++;
	return 0;
}

static int
log_self(struct cc_ctx *c, struct cc_src *src)
{
	struct cc_seat *p = &c->s->seat[src->seat];
	int i;

	if (src->zone >= 0) {
		cc_slot_to_pile(c->s, src->seat, src->zone, src->slot,
		    &p->log);
		return 0;
	}
	if ((i = pile_find(&p->staging, src->card)) >= 0) {
		pile_remove_at(&p->staging, i);
		pile_push(&p->log, src->card);
	}
	return 0;
}

static int
beam(struct cc_ctx *c, struct cc_src *src, const struct cc_effect *e,
    const struct cc_aim *aim)
{
	struct cc_seat *p = &c->s->seat[src->seat];
	struct cc_slot *host;
	int i;

	if (src->zone != CC_Z_FLEET && src->zone != CC_Z_LOCATIONS)
		return cc_refuse(c, "only a deployed ship or a controlled "
		    "location takes beamed cards", "seul un vaisseau déployé "
		    "ou un lieu contrôlé reçoit des cartes téléportées");
	if ((i = in_hand(c, src->seat, aim, e->suits)) < 0)
		return -1;
	host = &p->zone[src->zone].s[src->slot];
	if (c->s->set->card[aim->card].suit == CC_LOCATION ||
	    host->nbeam == CC_BEAM_MAX)
		return cc_refuse(c, "%s cannot be beamed there",
		    "%s ne peut pas être téléportée là", nm(c, aim->card));
	pile_remove_at(&p->hand, i);
	host->beam[host->nbeam++] = aim->card;
	return 0;
}

/* No team left on the captain: one comes from another location (line
 * 255), the one where seat has the fewest tokens, the first of equals
 * (reading: the seed's Bot rule, line 776); -1 when none has one. */
static int
team_elsewhere(const struct cc_state *s, int seat, int target)
{
	int from = -1;

	for (int k = 0; k < CC_NEUTRAL; k++)
		if (k != target && s->seat[seat].teams_at[k] > 0 &&
		    (from < 0 || cc_tokens(s, seat, k) <
		    cc_tokens(s, seat, from)))
			from = k;
	return from;
}

static int
send_team(struct cc_ctx *c, int seat, int n, const struct cc_aim *aim)
{
	int k = neutral(c, aim);

	if (k < 0)
		return -1;
	if (cc_ships_at(c->s, 1 - seat, k) > cc_ships_at(c->s, seat, k))
		return cc_refuse(c, "your opponent has more ships than you at "
		    "%s", "votre adversaire a plus de vaisseaux que vous à %s",
		    nm(c, aim->card));
	for (int i = 0; i < n; i++) {
		if (cc_teams_free(c->s, seat) == 0) {
			int from = team_elsewhere(c->s, seat, k);
			if (from < 0)
				break;
			c->s->seat[seat].teams_at[from]--;
		}
		c->s->seat[seat].teams_at[k]++;
	}
	return 0;
}

/* The table-card effects: dismiss, recall, exhaust, refresh. */
static int
table_effect(struct cc_ctx *c, int seat, enum cc_keyword kw,
    const struct cc_aim *aim)
{
	struct cc_seat *p = &c->s->seat[seat];
	int where = on_table(c, seat, aim), z, i;
	struct cc_slot *sl;

	if (where < 0)
		return -1;
	z = where / 100;
	i = where % 100;
	sl = &p->zone[z].s[i];
	if (kw == KW_EXHAUST || kw == KW_REFRESH) {
		if (sl->exhausted == (kw == KW_EXHAUST))
			return cc_refuse(c, "%s is already %s",
			    "%s est déjà %s", nm(c, aim->card),
			    kw == KW_EXHAUST ? (c->lang == RULES_LANG_FR ?
			    "épuisée" : "exhausted") :
			    (c->lang == RULES_LANG_FR ? "prête" : "ready"));
		sl->exhausted = kw == KW_EXHAUST;
		return 0;
	}
	if (z == CC_Z_LOCATIONS)
		return cc_refuse(c, "a location cannot be dismissed or "
		    "recalled", "un lieu ne peut être ni renvoyé ni rappelé");
	cc_slot_to_pile(c->s, seat, z, i, kw == KW_RECALL ? &p->hand :
	    &p->discard);
	return 0;
}

static int
resolve_effect(struct cc_ctx *c, struct cc_src *src,
    const struct cc_effect *e, const struct cc_aim *aim)
{
	struct cc_state *s = c->s;
	int seat = src->seat, i, k;
	struct cc_seat *p = &s->seat[seat];

	if (src->duplicated && (e->keyword == KW_PROMOTE ||
	    e->keyword == KW_DEPLOY || e->keyword == KW_WARP ||
	    e->keyword == KW_BEAM || e->keyword == KW_DUPLICATE ||
	    (e->keyword == KW_LOG && e->self) ||
	    (e->keyword == KW_RETURN_INCIDENT && e->self)))
		return 0;
	switch (e->keyword) {
	case KW_GAIN:
		if (e->resource == CC_GLORY)
			cc_gain_glory(s, seat, e->amount);
		else
			p->res[e->resource] += e->amount;
		return 0;
	case KW_SPEND:
		return cc_pay(c, seat, e->resource, e->amount);
	case KW_GAIN_ACTION:
		p->actions += e->amount;
		return 0;
	case KW_DRAW:
		cc_draw(c, seat, e->amount);
		return 0;
	case KW_DRAW_FROM_DISCARD:
		if (need_aim(c, aim) < 0)
			return -1;
		if ((i = pile_find(&p->discard, aim->card)) < 0 ||
		    (e->suits && !(e->suits & (1 << s->set->card[aim->card].suit))))
			return cc_refuse(c, "%s is not a card of your discard "
			    "this effect may draw", "%s n'est pas une carte de "
			    "votre défausse que cet effet peut piocher",
			    nm(c, aim->card));
		pile_remove_at(&p->discard, i);
		pile_push(&p->hand, aim->card);
		return 0;
	case KW_DISCARD:
		if ((i = in_hand(c, seat, aim, e->suits)) < 0)
			return -1;
		pile_remove_at(&p->hand, i);
		pile_push(&p->discard, aim->card);
		return 0;
	case KW_DESTROY:
		if ((i = in_hand(c, seat, aim, e->suits)) < 0)
			return -1;
		pile_remove_at(&p->hand, i);
		pile_push(&s->box, aim->card);
		return 0;
	case KW_GAIN_CARD:
		return gain_card(c, seat, e, aim);
	case KW_SCAN_FOR:
		scan_for(c, seat, e, aim);
		return 0;
	case KW_JUNK:
		if ((k = offer(c, aim, 0xf)) < 0)
			return -1;
		if (s->offer_glory[k] > 0)
			return cc_refuse(c, "%s has glory on it: it cannot be "
			    "junked", "%s porte de la gloire : elle ne peut "
			    "pas être jetée", nm(c, aim->card));
		pile_push(&s->junk, s->offer[k]);
		cc_refill_offer(s, k);
		return 0;
	case KW_TAKE:
		cc_take(c, seat, e->suits == (1 << CC_INCIDENT) ? CC_INCIDENT :
		    CC_ENCOUNTER);
		return 0;
	case KW_RETURN_INCIDENT:
		if (e->self) {
			if ((i = pile_find(&p->staging, src->card)) >= 0 &&
			    s->set->card[src->card].suit == CC_INCIDENT) {
				pile_remove_at(&p->staging, i);
				pile_insert_bottom(&s->incident, src->card);
			}
			return 0;
		}
		if ((i = in_hand(c, seat, aim, 1 << CC_INCIDENT)) < 0)
			return -1;
		pile_remove_at(&p->hand, i);
		pile_insert_bottom(&s->incident, aim->card);
		return 0;
	case KW_LOG:
		if (e->self)
			return log_self(c, src);
		if ((i = in_hand(c, seat, aim, e->suits)) < 0)
			return -1;
		pile_remove_at(&p->hand, i);
		pile_push(&p->log, aim->card);
		return 0;
	case KW_ENLIST_RESERVE:
		if (p->reserve.n > 0)
			pile_push(&p->deck, pile_pop(&p->reserve));
		return 0;
	case KW_ENLIST_DEVELOPMENT:
		if (need_aim(c, aim) < 0)
			return -1;
		if ((i = pile_find(&p->development, aim->card)) < 0)
			return cc_refuse(c, "%s is not among your developments",
			    "%s n'est pas parmi vos développements",
			    nm(c, aim->card));
		if (cc_pay_cost(c, seat, s->set->card[aim->card].cost) < 0)
			return -1;
		pile_remove_at(&p->development, i);
		pile_push(&p->deck, aim->card);
		return 0;
	case KW_PROMOTE:
		if (s->set->card[src->card].suit != CC_PERSON)
			return 0;	/* seed: promote only a PERSON */
		return move_self(c, src, CC_Z_DUTY);
	case KW_DEPLOY:
		return move_self(c, src, CC_Z_FLEET);
	case KW_WARP:
		if ((k = neutral(c, aim)) < 0)
			return -1;
		if (src->zone != CC_Z_FLEET ||
		    s->set->card[src->card].suit != CC_SHIP)
			return cc_refuse(c, "only a deployed ship warps",
			    "seul un vaisseau déployé passe en distorsion");
		p->zone[CC_Z_FLEET].s[src->slot].at = k;
		return 0;
	case KW_SEND_TEAM:
		return send_team(c, seat, e->amount, aim);
	case KW_REMOVE_TEAM:
		if ((k = neutral(c, aim)) < 0)
			return -1;
		for (i = 0; i < e->amount && p->teams_at[k] > 0; i++)
			p->teams_at[k]--;
		return 0;
	case KW_BEAM:
		return beam(c, src, e, aim);
	case KW_DISMISS: case KW_RECALL: case KW_EXHAUST: case KW_REFRESH:
		return table_effect(c, seat, e->keyword, aim);
	case KW_FIND:
		if (need_aim(c, aim) < 0)
			return -1;
		find(c, seat, e, aim->card);
		return 0;
	case KW_FREE_PLAY:
		p->free_plays += e->amount;
		return 0;
	case KW_DUPLICATE: {
		struct cc_src dup = *src;
		const struct cc_card *kc;
		if ((k = offer(c, aim, e->suits)) < 0)
			return -1;
		kc = &s->set->card[s->offer[k]];
		dup.duplicated = 1;
		for (int o = 0; o < kc->nops; o++) {
			int free_of_targets = 1;
			for (int j = 0; j < kc->op[o].neffects; j++)
				if (cc_keyword_target(&kc->op[o].effect[j]) !=
				    CC_T_NONE)
					free_of_targets = 0;
			if (kc->op[o].kind != CC_PLAY || kc->op[o].attack ||
			    !free_of_targets)
				continue;
			dup.card = s->offer[k];
			return cc_resolve(c, &dup, o, NULL);
		}
		return 0;
	}
	case KW_STEAL:
		return 0;	/* only in ATTACK operations */
	case KW_TAKE_CONTROL:
		if ((k = neutral(c, aim)) < 0)
			return -1;
		if (!cc_secured(s, seat, k))
			return cc_refuse(c, "you have not secured %s (3 tokens "
			    "and 2 more than your opponent)", "vous n'avez pas "
			    "sécurisé %s (3 jetons et 2 de plus que "
			    "l'adversaire)", nm(c, aim->card));
		cc_take_control(c, seat, k);
		return 0;
	case KW_TRIGGER_CONTROL: {
		struct cc_zone *z = &p->zone[CC_Z_LOCATIONS];
		if (need_aim(c, aim) < 0)
			return -1;
		for (i = 0; i < z->n && z->s[i].card != aim->card; i++)
			;
		if (i == z->n)
			return cc_refuse(c, "you do not control %s",
			    "vous ne contrôlez pas %s", nm(c, aim->card));
		for (int o = 0; o < s->set->card[aim->card].nops; o++)
			if (s->set->card[aim->card].op[o].kind == CC_CONTROL) {
				struct cc_src ls = { seat, aim->card,
				    CC_Z_LOCATIONS, i, 0 };
				return cc_resolve(c, &ls, o, NULL);
			}
		return 0;
	}
	case KW_SPECIALTY:
		p->track[e->track] += e->amount;
		if (p->track[e->track] > 15)
			p->track[e->track] = 15;
		return 0;
	case KW_UTILIZE:
		for (int t = 0; t < CC_NTRACKS; t++) {
			p->track[t] += cc_in_play_count(s, seat, -1, -1, t + 1);
			if (p->track[t] > 15)
				p->track[t] = 15;
		}
		return 0;
	case KW_SCAN:
		if (e->junk)
			return gain_from_junk(c, seat, e, aim);
		return cc_scan(c, seat, e, aim);
	case KW_SCORE:
	case KW_NKEYWORDS:
		return 0;
	}
	return 0;
}

int
cc_resolve(struct cc_ctx *c, struct cc_src *src, int opi,
    const struct cc_aim *aim)
{
	return cc_resolve_op(c, src, &c->s->set->card[src->card].op[opi],
	    aim);
}

int
cc_resolve_op(struct cc_ctx *c, struct cc_src *src, const struct cc_op *op,
    const struct cc_aim *aim)
{
	const struct cc_seat *p = &c->s->seat[src->seat];

	for (int t = 0; t < CC_NTRACKS; t++)
		if (p->track[t] < op->requires[t])
			return cc_refuse(c, "this operation requires %d %s; you "
			    "have %d", "cette opération demande %d en %s ; vous "
			    "avez %d", op->requires[t], cc_track_name(t),
			    p->track[t]);
	if (op->attack)
		return 0;	/* it waits for the defender: turn.c */
	for (int i = 0; i < op->neffects && !c->s->over; i++)
		if (resolve_effect(c, src, &op->effect[i], aim) < 0)
			return -1;
	return 0;
}

void
cc_resolve_attack(struct cc_ctx *c, int card, int opi, const int *discards,
    int ndiscards)
{
	struct cc_state *s = c->s;
	const struct cc_op *op = &s->set->card[card].op[opi];
	int att = s->active, def = 1 - att, used = 0;
	struct cc_seat *d = &s->seat[def];

	for (int i = 0; i < op->neffects && !s->over; i++) {
		const struct cc_effect *e = &op->effect[i];
		if (e->keyword == KW_STEAL) {
			int n = d->res[e->resource] < e->amount ?
			    d->res[e->resource] : e->amount;
			d->res[e->resource] -= n;
			s->seat[att].res[e->resource] += n;
		} else if (e->keyword == KW_TAKE)
			cc_take(c, def, e->suits == (1 << CC_INCIDENT) ?
			    CC_INCIDENT : CC_ENCOUNTER);
		else if (e->keyword == KW_DISCARD)
			for (int n = 0; n < e->amount && d->hand.n > 0; n++) {
				int at = -1;
				while (used < ndiscards && at < 0)
					at = pile_find(&d->hand,
					    discards[used++]);
				if (at < 0)
					at = 0;	/* the leftmost card */
				pile_push(&d->discard, d->hand.card[at]);
				pile_remove_at(&d->hand, at);
			}
	}
}
