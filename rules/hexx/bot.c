/*
 * bot.c -- Mission to Planet Hexx!'s "normal" bot (rules API 8, docs/hexx.md
 * "Bots").
 *
 * On its turn it tries every legal move on a copy of the game as the seat
 * may picture it -- the deck and the other hands dealt again at random
 * (from rng) out of the cards it cannot see, the other seats' hidden
 * answers forgotten -- lets the others pass every window the move opens,
 * and keeps the move whose outcome scores best for it (Mission cards
 * first, then the data and cards its Mission still needs, less the
 * leader's progress).  In another seat's window it answers with a Surprise
 * that cancels a Transmission, or an Event of a seat close to winning, or
 * that slows a Movement of such a seat; in its own riposte it plays any
 * Surprise that cancels or counters.  It never reads a hidden card.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexx.h"

#define WIN_SCORE	1000000
#define CARD_SCORE	1000	/* a card on the Mission */
#define DATA_SCORE	30	/* a datum the Mission still needs */
#define FIT_SCORE	40	/* a card of the hand that fits a free edge */
#define VOID_SCORE	10	/* the ship on a void: ready to transmit */
#define LEADER_SCORE	600	/* a Mission card of the best opponent */
#define CLOSE_TO_WIN	4	/* Mission cards that make a seat a threat */

/* Is card one of the Surprises the seat saw answering a riposte? */
static int
shown(const struct hexx *g, int card)
{
	int s;

	for (s = 0; g->pending.riposte && s < g->nseats; s++)
		if (g->pending.surprise[s] == card)
			return 1;
	return 0;
}

static int
by_index(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The game as seat may picture it (a new copy, freed by the caller). */
static struct hexx *
guess(const struct hexx *g, int seat, struct rules_rng *rng)
{
	struct hexx *c = malloc(sizeof(*c));
	int pool[HEXX_CARDS_MAX], n = 0, k = 0, s, i;

	if (c == NULL)
		abort();
	memcpy(c, g, sizeof(*c));
	for (i = 0; i < g->ndeck; i++)
		pool[n++] = g->deck[i];
	for (s = 0; s < g->nseats; s++)
		for (i = 0; s != seat && i < g->seat[s].nhand; i++)
			if (!shown(g, g->seat[s].hand[i]))
				pool[n++] = g->seat[s].hand[i];
	/* In card order first, so the guess depends on which cards are
	 * unseen, never on where they lie. */
	qsort(pool, (size_t)n, sizeof(pool[0]), by_index);
	rules_rng_shuffle(rng, pool, (size_t)n);
	for (i = 0; i < c->ndeck; i++)
		c->deck[i] = pool[k++];
	for (s = 0; s < c->nseats; s++)
		for (i = 0; s != seat && i < c->seat[s].nhand; i++)
			if (!shown(g, c->seat[s].hand[i]))
				c->seat[s].hand[i] = pool[k++];
	if (c->phase == HEXX_PHASE_WINDOW && !c->pending.riposte)
		for (s = 0; s < c->nseats; s++)
			if (s != seat)
				c->pending.surprise[s] = -1;
	return c;
}

/* Cards of seat's hand that would fill distinct free edges. */
static int
fitting(const struct hexx *g, int seat)
{
	const struct hexx_seat *st = &g->seat[seat];
	int used[HEXX_SLOTS] = { 0 }, n = 0, i, e;
	const struct hexx_mission_side *side;

	if (st->side < 0)
		return 0;
	side = &g->cards->mission[st->mission].side[st->side];
	for (i = 0; i < st->nhand; i++) {
		const struct hexx_card *c = &g->cards->card[st->hand[i]];

		for (e = 0; e < HEXX_SLOTS; e++)
			if (st->slot[e] < 0 && !used[e] &&
			    (c->transmit_as == HEXX_ANY ||
			    side->icon[e] == c->kind)) {
				used[e] = 1;
				n++;
				break;
			}
	}
	return n;
}

/* How good g is for seat. */
static long
score(const struct hexx *g, int seat)
{
	int s, count = hexx_mission_count(g, seat), best = 0, need, t;
	long v;

	if (g->phase == HEXX_PHASE_OVER)
		return g->winner_mask & (1 << seat) ? WIN_SCORE : -WIN_SCORE;
	need = HEXX_TRANSMIT_COST * (HEXX_SLOTS - count);
	v = (long)CARD_SCORE * count;
	v += (long)DATA_SCORE * (g->seat[seat].base < need ?
	    g->seat[seat].base : need);
	v += (long)FIT_SCORE * fitting(g, seat);
	t = hexx_tile_at(g, g->seat[seat].q, g->seat[seat].r);
	if (t >= 0 && g->cards->card[g->tile[t].card].kind == HEXX_VOID)
		v += VOID_SCORE;
	for (s = 0; s < g->nseats; s++)
		if (s != seat && hexx_mission_count(g, s) > best)
			best = hexx_mission_count(g, s);
	return v - (long)LEADER_SCORE * best;
}

/* Play text on g for seat; 0, or -1 when it is refused. */
static int
try_move(struct hexx *g, int seat, const char *text, struct rules_rng *rng)
{
	char err[RULES_ERRLEN];
	json_t *move;
	int ok;

	if (hexx_parse(g, seat, text, RULES_LANG_EN, &move, err,
	    sizeof(err)) != RULES_OK)
		return -1;
	ok = hexx_check(g, seat, move, RULES_LANG_EN, err, sizeof(err)) ==
	    RULES_OK;
	if (ok)
		hexx_apply(g, seat, move, rng);
	json_decref(move);
	return ok ? 0 : -1;
}

/* Every window the move opened closes with every seat passing (the
 * Event actions received in another's turn too). */
static void
pass_windows(struct hexx *g, struct rules_rng *rng)
{
	int seats[HEXX_SEATS_MAX], n, guard;

	for (guard = 0; (g->phase == HEXX_PHASE_WINDOW ||
	    g->phase == HEXX_PHASE_BONUS) && guard < 16; guard++)
		if ((n = hexx_to_act(g, seats, HEXX_SEATS_MAX)) == 0 ||
		    try_move(g, seats[0], "pass", rng) != 0)
			break;
}

/* The legal move whose outcome scores best (the first of equals). */
static enum rules_status
best_action(const struct hexx *g, int seat, struct rules_rng *rng,
    char *out, size_t outlen)
{
	json_t *legal = hexx_legal_moves(g, seat);
	struct hexx *pictured = guess(g, seat, rng), *trial;
	long best = 0, v;
	const char *text, *chosen = NULL;
	size_t i;

	trial = malloc(sizeof(*trial));
	if (trial == NULL)
		abort();
	for (i = 0; i < json_array_size(legal); i++) {
		text = json_string_value(json_array_get(legal, i));
		memcpy(trial, pictured, sizeof(*trial));
		if (try_move(trial, seat, text, rng) != 0)
			continue;
		pass_windows(trial, rng);
		v = score(trial, seat);
		if (chosen == NULL || v > best) {
			best = v;
			chosen = text;
		}
	}
	if (chosen != NULL)
		snprintf(out, outlen, "%s", chosen);
	free(trial);
	free(pictured);
	json_decref(legal);
	if (chosen == NULL || strlen(out) + 1 >= outlen)
		return RULES_ILLEGAL;
	return RULES_OK;
}

/* A Surprise of seat's hand whose play effects hold op (and, for a die
 * modifier, lower the die), that seat may play now; -1 if none. */
static int
surprise_with(const struct hexx *g, int seat, int op)
{
	const struct hexx_seat *st = &g->seat[seat];
	char text[HEXX_ID_MAX + 16], err[RULES_ERRLEN];
	const struct hexx_fxlist *list;
	int i, f, card, ok;
	json_t *move;

	for (i = 0; i < st->nhand; i++) {
		card = st->hand[i];
		list = &g->cards->card[card].on[HEXX_ON_PLAY];
		for (f = 0; f < list->n; f++)
			if (list->fx[f].step.op == op && (op != HEXX_OP_DIE_MOD ||
			    list->fx[f].step.n < 0))
				break;
		if (f == list->n)
			continue;
		snprintf(text, sizeof(text), "surprise %s",
		    g->cards->card[card].id);
		if (hexx_parse(g, seat, text, RULES_LANG_EN, &move, err,
		    sizeof(err)) != RULES_OK)
			continue;
		ok = hexx_check(g, seat, move, RULES_LANG_EN, err,
		    sizeof(err)) == RULES_OK;
		json_decref(move);
		if (ok)
			return card;
	}
	return -1;
}

/* The answer to a window: a Surprise worth its card, or pass. */
static int
answer(const struct hexx *g, int seat)
{
	const struct hexx_pending *p = &g->pending;
	int threat = hexx_mission_count(g, g->current) >= CLOSE_TO_WIN;
	int card;

	if (p->riposte) {
		if ((card = surprise_with(g, seat, HEXX_OP_COUNTER)) >= 0)
			return card;
		return surprise_with(g, seat, HEXX_OP_CANCEL);
	}
	if (p->verb == HEXX_V_TRANSMIT || (p->verb == HEXX_V_EVENT && threat))
		return surprise_with(g, seat, HEXX_OP_CANCEL);
	if (p->verb == HEXX_V_MOVE && threat)
		return surprise_with(g, seat, HEXX_OP_DIE_MOD);
	return -1;
}

/* The side of the Mission whose edges the hand fills best. */
static int
best_side(const struct hexx *g, int seat)
{
	const struct hexx_seat *st = &g->seat[seat];
	const struct hexx_mission *m = &g->cards->mission[st->mission];
	int fits[2] = { 0, 0 }, side, i, e;

	for (side = 0; side < 2; side++)
		for (i = 0; i < st->nhand; i++)
			for (e = 0; e < HEXX_SLOTS; e++)
				if (m->side[side].icon[e] ==
				    g->cards->card[st->hand[i]].kind) {
					fits[side]++;
					break;
				}
	return fits[1] > fits[0] ? 1 : 0;
}

enum rules_status
hexx_bot_move(const void *state, int seat, int level, struct rules_rng *rng,
    char *out, size_t outlen)
{
	const struct hexx *g = state;
	int seats[HEXX_SEATS_MAX], n, i, mine = 0, card;

	if (level != RULES_BOT_NORMAL || outlen < HEXX_ID_MAX + 16)
		return RULES_ILLEGAL;
	n = hexx_to_act(g, seats, HEXX_SEATS_MAX);
	for (i = 0; i < n; i++)
		mine |= seats[i] == seat;
	if (!mine)
		return RULES_NOT_YOUR_TURN;
	switch (g->phase) {
	case HEXX_PHASE_MISSION:
		snprintf(out, outlen, "side %d", best_side(g, seat) + 1);
		return RULES_OK;
	case HEXX_PHASE_WINDOW:
		if ((card = answer(g, seat)) >= 0)
			snprintf(out, outlen, "surprise %s",
			    g->cards->card[card].id);
		else
			snprintf(out, outlen, "pass");
		return RULES_OK;
	default:
		return best_action(g, seat, rng, out, outlen);
	}
}
