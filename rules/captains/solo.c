/*
 * solo.c -- what playing alone changes in the shared rules: the STARDATE
 * cards of the mode, the turns left once the last one is empty, attacks
 * on a seat nobody answers for, and the set-up of the Bot's decks and of
 * cadet training (seed lines 317-333, 613-637, 677-685, 789-810).
 */
#include <stdio.h>
#include <string.h>

#include "solo.h"

const struct cc_stardate *
cc_stardates(const struct cc_state *s, int *n)
{
	const struct cc_set *set = s->set;

	switch (s->mode) {
	case CC_MODE_CADET:
		*n = set->solo.ncadet;
		return set->solo.cadet;
	case CC_MODE_BOT:
		*n = set->solo.nlevel[s->level];
		return set->solo.level[s->level];
	default:
		*n = set->nstardates;
		return set->stardate;
	}
}

/* Two players: each plays one more turn (docs/captains.md).  The Bot
 * (line 685): the round in course ends -- the person starts every
 * round -- then each plays one last turn.  Cadet (line 346): one turn. */
int
cc_final_turns(const struct cc_state *s)
{
	if (s->mode == CC_MODE_CADET)
		return 1;
	if (s->mode == CC_MODE_BOT && s->active != s->bot_seat)
		return 3;
	return 2;
}

int
cc_is_bot(const struct cc_state *s, int seat)
{
	return s->mode == CC_MODE_BOT && seat == s->bot_seat;
}

int
cc_no_defender(const struct cc_state *s, int seat)
{
	return s->mode == CC_MODE_CADET || cc_is_bot(s, seat);
}

/* Lines 798-806 (the Bot) and 327-333 (the virtual opponent): attacks on
 * the hand do nothing (the Bot has none, the virtual one is not there);
 * a steal is a success taken from the supply, and from a virtual
 * opponent it takes one at most (it has 1 of each); an INCIDENT the
 * virtual opponent should take is a glory for the player instead, and
 * one the Bot takes lands on its discard. */
void
cc_solo_attack(struct cc_ctx *c, const struct cc_op *op)
{
	struct cc_state *s = c->s;
	int att = s->active, def = 1 - att;

	for (int i = 0; i < op->neffects && !s->over; i++) {
		const struct cc_effect *e = &op->effect[i];
		if (e->keyword == KW_STEAL) {
			int n = s->mode == CC_MODE_CADET && e->amount > 1 ? 1 :
			    e->amount;
			if (e->resource == CC_GLORY) {
				s->glory_from_supply += n;
				s->seat[att].res[CC_GLORY] += n;
			} else
				s->seat[att].res[e->resource] += n;
		} else if (e->keyword == KW_TAKE &&
		    e->suits == (1 << CC_INCIDENT)) {
			if (s->mode == CC_MODE_CADET)
				cc_gain_glory(s, att, 1);
			else if (s->incident.n > 0) {
				pile_push(&s->seat[def].discard,
				    pile_pop(&s->incident));
				if (s->incident.n == 0)
					s->over = s->burn = 1;
			}
		} else if (e->keyword == KW_TAKE && s->mode == CC_MODE_BOT &&
		    s->encounter.n > 0)
			pile_push(&s->seat[def].discard,
			    pile_pop(&s->encounter));
	}
}

/* Every card of pile into the box. */
static void
to_box(struct cc_state *s, struct cc_pile *p)
{
	while (p->n > 0)
		pile_push(&s->box, pile_pop(p));
}

/* Cadet (line 319): no opponent.  Seat 1's captain stays on its table
 * (nobody plays it); its crew goes to the box, its INCIDENT cards out of
 * the INCIDENT deck. */
static void
cadet_setup(struct cc_state *s)
{
	struct cc_seat *v = &s->seat[1];
	struct cc_pile keep = { 0 };
	const int cap = 1;	/* seat 1 holds the file's second captain */
	to_box(s, &v->deck);
	to_box(s, &v->hand);
	to_box(s, &v->reserve);
	to_box(s, &v->development);
	while (v->zone[CC_Z_LOCATIONS].n > 0)
		cc_slot_to_pile(s, 1, CC_Z_LOCATIONS, 0, &s->box);
	for (int i = 0; i < s->incident.n; i++) {
		int card = s->incident.card[i];
		if (s->set->card[card].owner == cap)
			pile_push(&s->box, card);
		else
			pile_push(&keep, card);
	}
	s->incident = keep;
	v->actions = 0;
	s->active = 0;
}

/* The Bot's decks (lines 626-637): its hand goes back and its deck is
 * shuffled, the table's Controlled Locations shuffled onto it (the BOT
 * deck); its developments shuffled, its reserve shuffled on them (the
 * SUPPLEMENT deck, kept as the seat's reserve pile).  No resources, no
 * action tokens; the person starts (line 623). */
static void
bot_setup(struct cc_state *s, struct rules_rng *rng)
{
	struct cc_seat *b = &s->seat[s->bot_seat];
	struct cc_pile on_top = { 0 }, supplement = { 0 };

	while (b->hand.n > 0)
		pile_push(&b->deck, pile_pop(&b->hand));
	pile_shuffle(&b->deck, rng);
	while (b->zone[CC_Z_LOCATIONS].n > 0)
		cc_slot_to_pile(s, s->bot_seat, CC_Z_LOCATIONS, 0, &on_top);
	pile_shuffle(&on_top, rng);
	while (on_top.n > 0)
		pile_push(&b->deck, pile_pop(&on_top));
	while (b->development.n > 0)
		pile_push(&supplement, pile_pop(&b->development));
	pile_shuffle(&supplement, rng);
	pile_shuffle(&b->reserve, rng);
	while (b->reserve.n > 0)
		pile_push(&on_top, pile_pop(&b->reserve));
	for (int i = on_top.n - 1; i >= 0; i--)
		pile_push(&supplement, on_top.card[i]);
	b->reserve = supplement;
	b->actions = 0;
	s->active = 1 - s->bot_seat;
}

void
cc_solo_setup(struct cc_state *s, struct rules_rng *rng)
{
	if (s->mode == CC_MODE_CADET)
		cadet_setup(s);
	else if (s->mode == CC_MODE_BOT)
		bot_setup(s, rng);
}
