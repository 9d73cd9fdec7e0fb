/*
 * solo_bot.c -- the Bot's turn (seed lines 639-679): RESUPPLY ignored,
 * CONTROL of the location it secured, ACTION (it draws the STARDATE's
 * number of cards and resolves them left to right by its AUTOMATED
 * COMMAND cards, lines 712-745), CLEAN-UP.  The whole turn is the one
 * move "bot" of its seat; the only chance in it is the shuffle of its
 * deck, drawn from the move's stream.
 */
#include <stdio.h>
#include <string.h>

#include "solo.h"

#define BOT_DEPTH	8	/* cards resolving other cards, nested */
#define BOT_NAMED	8	/* cards named in the turn's summary */

/* A Bot turn in course: what it resolved, for the summary. */
struct botturn {
	struct cc_ctx	*c;
	int		 seat;
	int		 named[BOT_NAMED];
	int		 nnamed;
};

/* Line 677: an empty BOT deck takes the shuffled discard, then the top
 * card of the SUPPLEMENT on it.  The drawn card, or -1 if none is left. */
static int
bot_draw(struct botturn *t)
{
	struct cc_seat *b = &t->c->s->seat[t->seat];

	if (b->deck.n == 0) {
		while (b->discard.n > 0)
			pile_push(&b->deck, pile_pop(&b->discard));
		pile_shuffle(&b->deck, t->c->rng);
		if (b->reserve.n > 0)
			pile_push(&b->deck, pile_pop(&b->reserve));
	}
	return pile_pop(&b->deck);
}

/* The row of the AUTOMATED COMMAND a card resolves by (lines 716-724):
 * the first TRAITS row whose trait the card has (a WILDCARD: the first
 * row), else the first row of the SUITS card's side up -- "with duty
 * officer" while the Bot has one -- with the card's suit. */
static const struct cc_acrow *
row_for(const struct cc_state *s, int seat, int card)
{
	const struct cc_automated *ac = cc_automated_of(s->set,
	    s->seat[seat].zone[CC_Z_CAPTAIN].s[0].card);
	const struct cc_card *k = &s->set->card[card];
	const struct cc_acside *side;

	if (ac == NULL)
		return NULL;
	if (k->wildcard)
		return &ac->traits.row[0];
	for (int r = 0; r < ac->traits.nrows; r++)
		for (int i = 0; i < k->ntraits; i++)
			if (k->trait[i] == ac->traits.row[r].match)
				return &ac->traits.row[r];
	side = s->seat[seat].zone[CC_Z_DUTY].n > 0 ? &ac->suits_with :
	    &ac->suits_without;
	for (int r = 0; r < side->nrows; r++)
		if ((int)k->suit == side->row[r].match)
			return &side->row[r];
	return NULL;
}

/* A market offer to the Bot: its glory with it (line 758); gained to
 * the discard (GAIN) or taken onto the BOT deck (TAKE, line 762). */
static void
bot_gain(struct botturn *t, const struct cc_expr *e, int take)
{
	struct cc_state *s = t->c->s;
	struct cc_seat *b = &s->seat[t->seat];
	int k = cc_bot_offer_for(s, e);

	if (k < 0)
		return;
	b->res[CC_GLORY] += s->offer_glory[k];
	pile_push(take ? &b->deck : &b->discard, s->offer[k]);
	cc_refill_offer(s, k);
}

/* Line 728: the lowest (or highest) track; ties go to research, then
 * influence, then military. */
static void
bot_specialty(struct cc_seat *b, int track, int amount)
{
	int t = track;

	if (track < 0) {
		t = 0;
		for (int i = 1; i < CC_NTRACKS; i++)
			if (track == -1 ? b->track[i] < b->track[t] :
			    b->track[i] > b->track[t])
				t = i;
	}
	b->track[t] = b->track[t] + amount > 15 ? 15 : b->track[t] + amount;
}

static void
bot_team(struct botturn *t, int trait)
{
	struct cc_seat *b = &t->c->s->seat[t->seat];
	int from, to = cc_bot_team_slot(t->c->s, trait, &from);

	if (to < 0)
		return;
	if (from >= 0)
		b->teams_at[from]--;
	b->teams_at[to]++;
}

/* This card, from the staging area into zone z of the Bot's table. */
static int
staging_to_zone(struct botturn *t, int card, int z)
{
	struct cc_seat *b = &t->c->s->seat[t->seat];
	struct cc_zone *zone = &b->zone[z];
	int i = pile_find(&b->staging, card);

	if (i < 0 || zone->n == CC_ZONE_MAX)
		return -1;
	pile_remove_at(&b->staging, i);
	memset(&zone->s[zone->n], 0, sizeof(zone->s[0]));
	zone->s[zone->n].card = card;
	zone->s[zone->n].at = -1;
	zone->n++;
	return 0;
}

/* Line 742: a new duty officer dismisses the one before. */
static void
bot_promote(struct botturn *t, int card)
{
	struct cc_state *s = t->c->s;
	struct cc_seat *b = &s->seat[t->seat];

	if (s->set->card[card].suit != CC_PERSON ||
	    pile_find(&b->staging, card) < 0)
		return;
	while (b->zone[CC_Z_DUTY].n > 0)
		cc_slot_to_pile(s, t->seat, CC_Z_DUTY, 0, &b->discard);
	(void)staging_to_zone(t, card, CC_Z_DUTY);
}

/* Lines 736, 659: this card to the Log; an INCIDENT goes under the
 * INCIDENT deck instead.  A controlled location resolving leaves its
 * zone. */
static void
bot_log(struct botturn *t, int card, int zone_slot)
{
	struct cc_state *s = t->c->s;
	struct cc_seat *b = &s->seat[t->seat];
	struct cc_pile *dest = s->set->card[card].suit == CC_INCIDENT ?
	    NULL : &b->log;
	int i;

	if (zone_slot >= 0) {
		if (zone_slot < b->zone[CC_Z_LOCATIONS].n &&
		    b->zone[CC_Z_LOCATIONS].s[zone_slot].card == card)
			cc_slot_to_pile(s, t->seat, CC_Z_LOCATIONS, zone_slot,
			    &b->log);
		return;
	}
	if ((i = pile_find(&b->staging, card)) < 0)
		return;
	pile_remove_at(&b->staging, i);
	if (dest != NULL)
		pile_push(dest, card);
	else
		pile_insert_bottom(&s->incident, card);
}

/* Line 787: the ship deployed last. */
static int
last_ship(const struct cc_seat *b)
{
	return b->zone[CC_Z_FLEET].n - 1;
}

static void bot_resolve(struct botturn *t, int card, int zone_slot,
    int depth);

/* Lines 735: a card from the top of the BOT deck or the SUPPLEMENT,
 * resolved in the staging area (not one of the turn's actions). */
static void
bot_resolve_top(struct botturn *t, int supplement, int depth)
{
	struct cc_seat *b = &t->c->s->seat[t->seat];
	int card = supplement ? pile_pop(&b->reserve) : bot_draw(t);

	if (card < 0)
		return;
	pile_push(&b->staging, card);
	bot_resolve(t, card, -1, depth + 1);
}

static void
bot_do(struct botturn *t, const struct cc_botdo *d, int card, int zone_slot,
    int depth)
{
	struct cc_state *s = t->c->s;
	struct cc_seat *b = &s->seat[t->seat];
	int k;

	switch (d->word) {
	case BW_GLORY:
		cc_gain_glory(s, t->seat, d->amount);
		break;
	case BW_SPECIALTY:
		bot_specialty(b, d->track, d->amount);
		break;
	case BW_GAIN:
	case BW_TAKE:
		bot_gain(t, &d->expr, d->word == BW_TAKE);
		break;
	case BW_SEND_TEAM:
		bot_team(t, d->trait);
		break;
	case BW_DEPLOY:
		if (s->set->card[card].suit == CC_SHIP && zone_slot < 0)
			(void)staging_to_zone(t, card, CC_Z_FLEET);
		break;
	case BW_EXPLORE:
	case BW_ENGAGE:
		if ((k = last_ship(b)) >= 0) {
			int to = cc_bot_ship_slot(s, d->word == BW_EXPLORE);
			if (to >= 0)
				b->zone[CC_Z_FLEET].s[k].at = to;
		}
		break;
	case BW_PROMOTE:
		if (zone_slot < 0)
			bot_promote(t, card);
		break;
	case BW_RESOLVE_DECK:
	case BW_RESOLVE_SUPPLEMENT:
		if (depth < BOT_DEPTH)
			bot_resolve_top(t, d->word == BW_RESOLVE_SUPPLEMENT,
			    depth);
		break;
	case BW_JUNK:
		if ((k = cc_bot_junk_offer(s)) >= 0) {
			pile_push(&s->junk, s->offer[k]);
			cc_refill_offer(s, k);
		}
		break;
	case BW_LOG:
		bot_log(t, card, zone_slot);
		break;
	case BW_DISMISS_OFFICER:
		while (b->zone[CC_Z_DUTY].n > 0)
			cc_slot_to_pile(s, t->seat, CC_Z_DUTY, 0, &b->discard);
		break;
	case BW_RECALL_SHIP:
		if ((k = last_ship(b)) >= 0)
			cc_slot_to_pile(s, t->seat, CC_Z_FLEET, k, &b->discard);
		break;
	case BW_ATTACK_INCIDENT:
		cc_take(t->c, 1 - t->seat, CC_INCIDENT);
		break;
	default:
		break;
	}
}

/* Resolve one card by its row (line 722: one row only); a LOCATION still
 * in the staging area afterwards joins the Bot's locations (line 731).
 * zone_slot: the card's slot among its locations (CONTROL), or -1 when
 * it lies in the staging area. */
static void
bot_resolve(struct botturn *t, int card, int zone_slot, int depth)
{
	struct cc_state *s = t->c->s;
	const struct cc_acrow *row = row_for(s, t->seat, card);

	if (t->nnamed < BOT_NAMED)
		t->named[t->nnamed++] = card;
	for (int i = 0; row != NULL && i < row->ndo && !s->over; i++)
		bot_do(t, &row->todo[i], card, zone_slot, depth);
	if (zone_slot < 0 && s->set->card[card].suit == CC_LOCATION)
		(void)staging_to_zone(t, card, CC_Z_LOCATIONS);
}

/* "resolved A, B" in both languages. */
static void
summary(struct botturn *t)
{
	struct cc_state *s = t->c->s;
	size_t le, lf;

	snprintf(s->last_en, CC_LAST_LEN, "played its turn");
	snprintf(s->last_fr, CC_LAST_LEN, "a joué son tour");
	for (int i = 0; i < t->nnamed; i++) {
		le = strlen(s->last_en);
		lf = strlen(s->last_fr);
		snprintf(s->last_en + le, CC_LAST_LEN - le, "%s%s",
		    i == 0 ? ": resolved " : ", ",
		    cc_name(s, t->named[i], RULES_LANG_EN));
		snprintf(s->last_fr + lf, CC_LAST_LEN - lf, "%s%s",
		    i == 0 ? " : a résolu " : ", ",
		    cc_name(s, t->named[i], RULES_LANG_FR));
	}
}

int
cc_bot_turn(struct cc_ctx *c, int seat)
{
	struct cc_state *s = c->s;
	struct cc_seat *b = &s->seat[seat];
	struct botturn t = { c, seat, { 0 }, 0 };
	const struct cc_stardate *sd;
	int n, k, drawn[CC_PILE_MAX], ndrawn = 0;

	if (!cc_is_bot(s, seat))
		return cc_refuse(c, "\"bot\" is the move of the Bot's seat "
		    "only", "« robot » est le coup de la place du Bot "
		    "seulement");
	if (c->rng == NULL)
		return 0;	/* checking: the turn needs nothing chosen */
	/* 2. CONTROL */
	if ((k = cc_bot_control_slot(s)) >= 0) {
		int at = cc_take_location(c, seat, k);
		if (at >= 0)
			bot_resolve(&t, b->zone[CC_Z_LOCATIONS].s[at].card,
			    at, 0);
	}
	/* 3. ACTION: the cards drawn face down, then each revealed and
	 * resolved from left to right. */
	sd = cc_stardates(s, &n);
	for (int i = 0; i < sd[s->stardate].bot_actions && !s->over; i++) {
		int card = bot_draw(&t);
		if (card < 0)
			break;
		drawn[ndrawn++] = card;
	}
	for (int i = 0; i < ndrawn && !s->over; i++) {
		pile_push(&b->staging, drawn[i]);
		bot_resolve(&t, drawn[i], -1, 0);
		/* a BURN: the cards not revealed yet stay hidden */
		if (s->over)
			while (ndrawn > i + 1)
				pile_push(&b->deck, drawn[--ndrawn]);
	}
	summary(&t);
	if (s->over)
		return 0;
	/* 4. CLEAN-UP: the STARDATEs you handed it, the staging area to
	 * the discard, a glory on the offer of least value for you. */
	for (int i = 0; i < b->nstardates; i++)
		cc_wipe(s, &sd[b->stardate[i]]);
	b->nstardates = 0;
	while (b->staging.n > 0) {
		int card = pile_pop(&b->staging);
		if (s->set->card[card].suit == CC_LOCATION) {
			pile_push(&b->staging, card);
			if (staging_to_zone(&t, card, CC_Z_LOCATIONS) == 0)
				continue;
			pile_pop(&b->staging);
		}
		pile_push(&b->discard, card);
	}
	cc_glory_to_offer(s, cc_bot_cleanup_offer(s));
	cc_next_turn(c);
	return 0;
}
