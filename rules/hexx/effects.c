/*
 * effects.c -- the effect vocabulary of Mission to Planet Hexx! cards
 * (docs/hexx-cards.md), and the deck, hand and Mission helpers effects
 * share with turns.  Every effect does what it can and nothing more: a
 * spend takes what is there, a draw from an empty deck shuffles the
 * discard in (seed, "PIOCHE VIDE"), a planet never goes below zero.
 */
#include <stdlib.h>
#include <string.h>

#include "hexx.h"

/* Take the top card of the deck, shuffling the discard in when the deck
 * is empty; -1 when both are empty. */
static int
deck_pop(struct hexx *g, struct rules_rng *rng)
{
	if (g->ndeck == 0 && g->ndiscard > 0) {
		memcpy(g->deck, g->discard, sizeof(int) * (size_t)g->ndiscard);
		g->ndeck = g->ndiscard;
		g->ndiscard = 0;
		rules_rng_shuffle(rng, g->deck, (size_t)g->ndeck);
	}
	if (g->ndeck == 0)
		return -1;
	return g->deck[--g->ndeck];
}

void
hexx_to_discard(struct hexx *g, int card)
{
	g->discard[g->ndiscard++] = card;
}

void
hexx_draw(struct hexx *g, int seat, int n, struct rules_rng *rng)
{
	struct hexx_seat *s = &g->seat[seat];
	int c;

	while (n-- > 0 && (c = deck_pop(g, rng)) >= 0)
		s->hand[s->nhand++] = c;
}

/* Remove card from seat's hand; 0, or -1 if it is not there. */
int
hexx_hand_take(struct hexx *g, int seat, int card)
{
	struct hexx_seat *s = &g->seat[seat];
	int i;

	for (i = 0; i < s->nhand; i++)
		if (s->hand[i] == card) {
			memmove(&s->hand[i], &s->hand[i + 1],
			    sizeof(int) * (size_t)(s->nhand - i - 1));
			s->nhand--;
			return 0;
		}
	return -1;
}

int
hexx_mission_count(const struct hexx *g, int seat)
{
	int i, n = 0;

	for (i = 0; i < HEXX_SLOTS; i++)
		n += g->seat[seat].slot[i] >= 0;
	return n;
}

/* The first free edge of seat's Mission that takes card (transmitted as
 * kind as, or -1 for its own kind; HEXX_ANY: any edge), or -1. */
int
hexx_free_slot(const struct hexx *g, int seat, int card, int as)
{
	const struct hexx_seat *s = &g->seat[seat];
	const struct hexx_mission_side *side;
	int i, kind = as >= 0 ? as : g->cards->card[card].kind;

	if (s->side < 0)
		return -1;
	side = &g->cards->mission[s->mission].side[s->side];
	for (i = 0; i < HEXX_SLOTS; i++)
		if (s->slot[i] < 0 && (kind == HEXX_ANY ||
		    side->icon[i] == kind))
			return i;
	return -1;
}

void
hexx_check_win(struct hexx *g)
{
	int s, mask = 0;

	for (s = 0; s < g->nseats; s++)
		if (hexx_mission_count(g, s) == HEXX_SLOTS)
			mask |= 1 << s;
	if (mask != 0 && g->finish_round) {
		/* The round is played to its end (ruleset 2, seed line
		 * 407): hexx_end_turn() scores it. */
		g->finished = 1;
	} else if (mask != 0) {
		g->winner_mask = mask;
		g->phase = HEXX_PHASE_OVER;
	}
}

int
hexx_list_has(const struct hexx_fxlist *list, int op)
{
	int i;

	for (i = 0; i < list->n; i++)
		if (list->fx[i].step.op == op)
			return 1;
	return 0;
}

int
hexx_list_needs_at(const struct hexx_fxlist *list)
{
	return hexx_list_has(list, HEXX_OP_DISINTEGRATE) ||
	    hexx_list_has(list, HEXX_OP_SHIFT) ||
	    hexx_list_has(list, HEXX_OP_REPLACE);
}

int
hexx_list_needs_with(const struct hexx_fxlist *list)
{
	int i;

	for (i = 0; i < list->n; i++)
		if (list->fx[i].step.op == HEXX_OP_TRANSMIT ||
		    list->fx[i].step.op == HEXX_OP_REPLACE)
			return 1;
	return 0;
}

/* "Utiliser une Action Événement": n actions that could play an Event
 * are lost, the extra Event actions first. */
static void
use_event_actions(struct hexx *g, int n)
{
	for (; n > 0 && g->event_actions > 0; n--)
		g->event_actions--;
	g->actions -= n < g->actions ? n : g->actions;
}

/* Is seat one the target reaches from you? */
static int
targeted(const struct hexx *g, int you, int target, int seat)
{
	switch (target) {
	case HEXX_YOU:
		return seat == you;
	case HEXX_EACH_OPPONENT:
		return seat != you;
	case HEXX_NEXT:
		return seat == (you + 1) % g->nseats;
	default:
		return 1;
	}
}

/* The planet tiles a planet effect touches: the target hex, else the
 * planet under your ship; every planet for target all. */
static int
planet_tiles(const struct hexx *g, int you, int target, int at, int *out)
{
	int n = 0, i, t;

	if (target == HEXX_ALL) {
		for (i = 0; i < g->ntiles; i++)
			if (g->cards->card[g->tile[i].card].kind == HEXX_PLANET)
				out[n++] = i;
		return n;
	}
	t = at >= 0 ? at : hexx_tile_at(g, g->seat[you].q, g->seat[you].r);
	if (t >= 0 && g->cards->card[g->tile[t].card].kind == HEXX_PLANET)
		out[n++] = t;
	return n;
}

static void
disintegrate(struct hexx *g, int at)
{
	int base, s, card;

	if (at < 0 || g->cards->card[g->tile[at].card].start != 0 ||
	    !hexx_connected_without(g, at))
		return;
	card = g->tile[at].card;
	g->supply += g->tile[at].data;
	memmove(&g->tile[at], &g->tile[at + 1],
	    sizeof(g->tile[0]) * (size_t)(g->ntiles - at - 1));
	g->ntiles--;
	hexx_to_discard(g, card);
	base = hexx_base_tile(g);
	for (s = 0; s < g->nseats; s++)
		if (hexx_tile_at(g, g->seat[s].q, g->seat[s].r) < 0) {
			g->seat[s].q = g->tile[base].q;
			g->seat[s].r = g->tile[base].r;
		}
}

/* HEXX_OP_SHIFT: the schema at tile at goes to the pending "to" hex,
 * and the ships on it go with it (seed, RÈGLES DE DÉPLACEMENT V). */
static void
shift(struct hexx *g, int at)
{
	const struct hexx_pending *p = &g->pending;
	int s;

	if (!p->has_to || !hexx_shift_ok(g, at, p->tq, p->tr))
		return;
	for (s = 0; s < g->nseats; s++)
		if (g->seat[s].q == g->tile[at].q &&
		    g->seat[s].r == g->tile[at].r) {
			g->seat[s].q = p->tq;
			g->seat[s].r = p->tr;
		}
	g->tile[at].q = p->tq;
	g->tile[at].r = p->tr;
}

void
hexx_land(struct hexx *g, int seat, int tile, int blue, int nocollect,
    int *with, struct rules_rng *rng)
{
	const struct hexx_card *c = &g->cards->card[g->tile[tile].card];
	struct hexx_seat *s = &g->seat[seat];

	if (c->kind == HEXX_PLANET) {
		s->last_planet = g->tile[tile].card;
		if (nocollect)
			;	/* collecting is optional (seed line 179) */
		else if (c->on[HEXX_ON_COLLECT].n > 0 &&
		    (blue || !c->collect_may)) {
			if (g->tile[tile].data > 0)
				hexx_run(g, seat, &c->on[HEXX_ON_COLLECT], -1,
				    with, rng);
		} else if (g->tile[tile].data > 0) {
			g->tile[tile].data--;
			s->base++;
			g->last.collected++;
		}
	}
	hexx_run(g, seat, &c->on[HEXX_ON_STOP], -1, with, rng);
}

int
hexx_land_target(const struct hexx *g, int seat)
{
	const struct hexx_seat *s = &g->seat[seat];
	int here = hexx_tile_at(g, s->q, s->r), best = -1, d, t;

	for (d = 0; d < 6; d++) {
		t = hexx_tile_at(g, s->q + hexx_dir[d][0], s->r + hexx_dir[d][1]);
		if (t < 0 ||
		    g->cards->card[g->tile[t].card].kind != HEXX_PLANET ||
		    g->tile[t].card == s->last_planet ||
		    !hexx_step_ok(g, here, t))
			continue;
		if (best < 0 || g->tile[t].data > g->tile[best].data ||
		    (g->tile[t].data == g->tile[best].data && t < best))
			best = t;
	}
	return best;
}

/* HEXX_OP_LAND: seat's ship moves to the neighbouring planet and lands:
 * a landing, even in another's turn, collects (seed lines 187-189). */
static void
land(struct hexx *g, int seat, struct rules_rng *rng)
{
	int t = hexx_land_target(g, seat), none = -1;

	if (t < 0)
		return;
	g->seat[seat].q = g->tile[t].q;
	g->seat[seat].r = g->tile[t].r;
	hexx_land(g, seat, t, 0, 0, &none, rng);
}

/* HEXX_OP_REPLACE: the "with" schema takes the place of the one at tile
 * at (seed line 167): the old card goes to the discard and its data to
 * the supply; the new one keeps the orientation (0 if fixed), brings its
 * starting data and comes into play; ships on it stay, now on the new
 * card. */
static void
replace(struct hexx *g, int you, int at, int *with, struct rules_rng *rng)
{
	const struct hexx_card *c;
	struct hexx_tile *t;
	int none = -1;

	if (*with < 0 || !hexx_replace_ok(g, at, *with))
		return;
	c = &g->cards->card[*with];
	t = &g->tile[at];
	hexx_to_discard(g, t->card);
	g->supply += t->data;
	t->card = *with;
	*with = -1;
	if (c->fixed)
		t->rot = 0;
	t->data = c->data < g->supply ? c->data : g->supply;
	g->supply -= t->data;
	hexx_run(g, you, &c->on[HEXX_ON_ENTER], at, &none, rng);
}

/* HEXX_OP_SHOW_HAND: seat shows its hand to you alone (seed line 381;
 * the project's reading: to one seat); you see it until the turn ends. */
static void
show_hand(struct hexx *g, int you, int seat)
{
	struct hexx_shown *sh = &g->shown[you];

	if (seat == you)
		return;
	sh->from = seat;
	sh->ncards = g->seat[seat].nhand;
	memcpy(sh->cards, g->seat[seat].hand,
	    sizeof(int) * (size_t)g->seat[seat].nhand);
}

/* Event actions a seat receives in another's turn (ruleset 2, seed
 * lines 341-343): played at once, in a window of that seat's own. */
static int
bonus_events(struct hexx *g, int you, int n)
{
	if (g->ruleset < HEXX_RULESET || you == g->current ||
	    (g->phase != HEXX_PHASE_WINDOW && g->phase != HEXX_PHASE_BONUS))
		return 0;
	g->bonus[you] += n;
	return 1;
}

static void run_effect(struct hexx *g, int you, const struct hexx_effect *fx,
    int at, int *with, int depth, struct rules_rng *rng);

/* HEXX_OP_COPY: the top event of the discard pile, if you can pay its
 * cost in data (seed, "COPIER DES CARTES" I). */
static void
copy_top(struct hexx *g, int you, int at, int *with, int depth,
    struct rules_rng *rng)
{
	const struct hexx_card *c;
	int i;

	if (g->ndiscard == 0 || depth > 0)
		return;
	c = &g->cards->card[g->discard[g->ndiscard - 1]];
	if (hexx_is_schema(c) || c->cost_data > g->seat[you].base ||
	    c->cost_actions > 0 || c->cost_discard >= 0)
		return;
	for (i = 0; i < c->on[HEXX_ON_PLAY].n; i++)
		if (c->on[HEXX_ON_PLAY].fx[i].step.op == HEXX_OP_COPY)
			return;
	g->seat[you].base -= c->cost_data;
	g->supply += c->cost_data;
	for (i = 0; i < c->on[HEXX_ON_PLAY].n; i++)
		run_effect(g, you, &c->on[HEXX_ON_PLAY].fx[i], at, with,
		    depth + 1, rng);
}

static void
run_step(struct hexx *g, int you, const struct hexx_step *st, int at,
    int *with, int depth, struct rules_rng *rng)
{
	int tiles[HEXX_CARDS_MAX], ntiles, s, i, k, n = st->n, slot;
	struct hexx_seat *p;

	switch (st->op) {
	case HEXX_OP_PLANET_ADD:
	case HEXX_OP_PLANET_REMOVE:
		ntiles = planet_tiles(g, you, st->target, at, tiles);
		for (i = 0; i < ntiles; i++) {
			struct hexx_tile *t = &g->tile[tiles[i]];

			k = st->op == HEXX_OP_PLANET_ADD ?
			    (n < g->supply ? n : g->supply) :
			    (n < t->data ? n : t->data);
			if (st->op == HEXX_OP_PLANET_ADD) {
				t->data += k;
				g->supply -= k;
			} else {
				t->data -= k;
				g->supply += k;
			}
		}
		return;
	case HEXX_OP_COLLECT:
		ntiles = planet_tiles(g, you, HEXX_YOU, at, tiles);
		if (ntiles == 1) {
			struct hexx_tile *t = &g->tile[tiles[0]];

			k = n < t->data ? n : t->data;
			t->data -= k;
			g->seat[you].base += k;
			g->last.collected += k;
		}
		return;
	case HEXX_OP_JUNK:
		while (n-- > 0 && (k = deck_pop(g, rng)) >= 0)
			hexx_to_discard(g, k);
		return;
	case HEXX_OP_SHOW_TOP:
		if ((k = deck_pop(g, rng)) >= 0) {
			g->deck[g->ndeck++] = k;
			g->last.shown = k;
		}
		return;
	case HEXX_OP_DISINTEGRATE:
		disintegrate(g, at);
		return;
	case HEXX_OP_SHIFT:
		shift(g, at);
		return;
	case HEXX_OP_COPY:
		copy_top(g, you, at, with, depth, rng);
		return;
	case HEXX_OP_REPLACE:
		replace(g, you, at, with, rng);
		return;
	case HEXX_OP_CANCEL:
		if (g->phase == HEXX_PHASE_WINDOW)
			g->pending.cancelled = 1;
		return;
	case HEXX_OP_DIE_MOD:
		if (g->phase == HEXX_PHASE_WINDOW)
			g->pending.die_mod += n;
		return;
	case HEXX_OP_ACTIONS:
	case HEXX_OP_EVENT_ACTION:
	case HEXX_OP_MOVE_ACTION:
	case HEXX_OP_TRANSMIT_ACTION:
	case HEXX_OP_USE_ACTIONS:
	case HEXX_OP_USE_EVENT_ACTION:
		if (st->op == HEXX_OP_EVENT_ACTION && st->target == HEXX_YOU &&
		    bonus_events(g, you, n))
			return;
		/* Actions belong to the turn: only the seat playing it. */
		if (!targeted(g, you, st->target, g->current))
			return;
		if (st->op == HEXX_OP_ACTIONS)
			g->actions += n;
		else if (st->op == HEXX_OP_EVENT_ACTION)
			g->event_actions += n;
		else if (st->op == HEXX_OP_MOVE_ACTION)
			g->move_actions += n;
		else if (st->op == HEXX_OP_TRANSMIT_ACTION)
			g->transmit_actions += n;
		else if (st->op == HEXX_OP_USE_EVENT_ACTION)
			use_event_actions(g, n);
		else
			g->actions -= n < g->actions ? n : g->actions;
		return;
	case HEXX_OP_TRANSMIT:
		if (*with < 0)
			return;
		slot = hexx_free_slot(g, you, *with,
		    g->cards->card[*with].transmit_as);
		if (slot < 0)
			slot = hexx_free_slot(g, you, *with, -1);
		if (slot >= 0 && g->seat[you].base >= n) {
			g->seat[you].base -= n;
			g->supply += n;
			g->seat[you].slot[slot] = *with;
			*with = -1;
		}
		return;
	default:
		break;
	}
	/* The rest touch seats. */
	for (s = 0; s < g->nseats; s++) {
		if (!targeted(g, you, st->target, s))
			continue;
		p = &g->seat[s];
		switch (st->op) {
		case HEXX_OP_GAIN:
			k = n < g->supply ? n : g->supply;
			p->base += k;
			g->supply -= k;
			break;
		case HEXX_OP_SPEND:
			k = n < p->base ? n : p->base;
			p->base -= k;
			g->supply += k;
			break;
		case HEXX_OP_DRAW:
			hexx_draw(g, s, n, rng);
			break;
		case HEXX_OP_DISCARD_RANDOM:
			for (i = 0; i < n && p->nhand > 0; i++) {
				k = p->hand[rules_rng_below(rng,
				    (uint32_t)p->nhand)];
				hexx_hand_take(g, s, k);
				hexx_to_discard(g, k);
			}
			break;
		case HEXX_OP_RETURN:
			k = hexx_base_tile(g);
			p->q = g->tile[k].q;
			p->r = g->tile[k].r;
			break;
		case HEXX_OP_NO_MOVE:
			p->no_move += n;
			break;
		case HEXX_OP_NO_TRANSMIT:
			p->no_transmit += n;
			break;
		case HEXX_OP_DELETE:
			for (i = HEXX_SLOTS - 1; i >= 0; i--)
				if (p->slot[i] >= 0) {
					hexx_to_discard(g, p->slot[i]);
					p->slot[i] = -1;
					break;
				}
			break;
		case HEXX_OP_LAND:
			land(g, s, rng);
			break;
		case HEXX_OP_SHOW_HAND:
			show_hand(g, you, s);
			break;
		case HEXX_OP_MUCUS:
			p->mucus += n;
			if (p->mucus > HEXX_MUCUS_MAX)
				p->mucus = HEXX_MUCUS_MAX;
			break;
		default:
			break;
		}
	}
}

static void
run_effect(struct hexx *g, int you, const struct hexx_effect *fx, int at,
    int *with, int depth, struct rules_rng *rng)
{
	int die, tiles[HEXX_CARDS_MAX];

	switch (fx->step.op) {
	case HEXX_OP_ROLL:
		die = 1 + (int)rules_rng_below(rng, 6);
		g->last.roll = die;
		if (die >= fx->at_least)
			run_step(g, you, &fx->then, at, with, depth, rng);
		return;
	case HEXX_OP_IF_BASE:
		/* "X Données dans votre Base de Données". */
		if (g->seat[you].base >= fx->at_least)
			run_step(g, you, &fx->then, at, with, depth, rng);
		return;
	case HEXX_OP_IF_PLANET:
		/* "Une Planète avec X Données": the planet at the target
		 * hex, else the one under your ship; none, no effect. */
		if (planet_tiles(g, you, HEXX_YOU, at, tiles) == 1 &&
		    g->tile[tiles[0]].data >= fx->at_least)
			run_step(g, you, &fx->then, at, with, depth, rng);
		return;
	default:
		run_step(g, you, &fx->step, at, with, depth, rng);
		return;
	}
}

void
hexx_run(struct hexx *g, int seat, const struct hexx_fxlist *list, int at,
    int *with, struct rules_rng *rng)
{
	int i;

	for (i = 0; i < list->n && g->phase != HEXX_PHASE_OVER; i++)
		run_effect(g, seat, &list->fx[i], at, with, 0, rng);
}
