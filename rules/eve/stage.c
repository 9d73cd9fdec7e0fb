/*
 * stage.c -- dealing the row, refilling hands, ending a stage, scoring
 * and the end of the game.
 */
#include <string.h>

#include "eve.h"

/* Would travel card c, turned or not, repeat a neighbour's space? */
static int
repeats(const struct eve *g, int c, int flip)
{
	int r;

	if (g->nrow == 0)
		return 0;
	for (r = 0; r < EVE_SEATS; r++)
		if (eve_travel_half(c, r ^ flip) == eve_space(g, g->nrow - 1, r))
			return 1;
	return 0;
}

/*
 * Lay EVE_ROW cards from the travel deck's top.  A card that repeats its
 * neighbour's space on either route is turned; if it still repeats, it
 * goes under the deck and the next card is drawn.  When no card of the
 * deck fits, the next one is laid as it comes (docs/eve.md).
 */
void
eve_deal_row(struct eve *g)
{
	int c, tries = 0, flip;

	g->nrow = 0;
	while (g->nrow < EVE_ROW && g->ntdeck > 0) {
		c = g->tdeck[--g->ntdeck];
		flip = 0;
		if (repeats(g, c, 0)) {
			flip = 1;
			if (repeats(g, c, 1)) {
				if (tries <= g->ntdeck) {
					memmove(&g->tdeck[1], &g->tdeck[0],
					    sizeof(int) * g->ntdeck);
					g->tdeck[0] = c;
					g->ntdeck++;
					tries++;
					continue;
				}
				flip = 0;
			}
		}
		g->row[g->nrow] = c;
		g->flip[g->nrow] = flip;
		g->nrow++;
		tries = 0;
	}
}

/* Draw to EVE_HAND; an empty deck is rebuilt from the shuffled discard. */
void
eve_refill(struct eve *g, int seat, struct rules_rng *rng)
{
	struct eve_player *pl = &g->p[seat];

	while (pl->nhand < EVE_HAND) {
		if (pl->ndeck == 0) {
			if (pl->ndiscard == 0)
				return;
			memcpy(pl->deck, pl->discard,
			    sizeof(int) * pl->ndiscard);
			pl->ndeck = pl->ndiscard;
			pl->ndiscard = 0;
			rules_rng_shuffle(rng, pl->deck, (size_t)pl->ndeck);
		}
		pl->hand[pl->nhand++] = pl->deck[--pl->ndeck];
	}
}

/*
 * A new stage: the row goes back into the travel deck (the travel
 * discard pile only when fewer than EVE_ROW cards would be left), the
 * deck is shuffled and a row dealt, ships go before the row, the Klingon
 * beside it, and a Starfleet card is revealed.
 */
void
eve_new_stage(struct eve *g, int first, struct rules_rng *rng)
{
	int i, s;

	for (i = 0; i < g->nrow; i++)
		g->tdeck[g->ntdeck++] = g->row[i];
	g->nrow = 0;
	if (g->ntdeck < EVE_ROW) {
		for (i = 0; i < g->ntdiscard; i++)
			g->tdeck[g->ntdeck++] = g->tdiscard[i];
		g->ntdiscard = 0;
	}
	rules_rng_shuffle(rng, g->tdeck, (size_t)g->ntdeck);
	eve_deal_row(g);
	for (s = 0; s < EVE_SEATS; s++)
		g->p[s].pos = -1;
	g->kl_pos = -1;
	g->kl_route = 0;
	g->starfleet = (int)rules_rng_below(rng, EVE_STARFLEET);
	g->current = first;
	g->stage++;
}

/*
 * finisher's ship reached the last space: score the stage, then end the
 * game or start the next stage.
 */
void
eve_end_stage(struct eve *g, int finisher, struct rules_rng *rng)
{
	int other = 1 - finisher, s, i, first;
	struct eve_player *f = &g->p[finisher], *o = &g->p[other];

	if (g->version >= 3) {	/* for the views until the next stage ends */
		g->scored.stage = g->stage;
		g->scored.finisher = finisher;
		g->scored.distance = (g->nrow - 1) - o->pos;
		for (s = 0; s < EVE_SEATS; s++)
			g->scored.fleet[s] = g->p[s].nfleet;
	}
	f->score += (g->nrow - 1) - o->pos;
	if (f->nfleet > o->nfleet)
		f->score += 3;
	else if (o->nfleet > f->nfleet)
		o->score += 3;
	for (s = 0; s < EVE_SEATS; s++) {
		struct eve_player *pl = &g->p[s];

		for (i = 0; i < pl->nfleet; i++)
			pl->discard[pl->ndiscard++] = pl->fleet[i];
		pl->nfleet = 0;
	}
	g->last_finisher = finisher;
	if (f->score >= EVE_WIN || o->score >= EVE_WIN) {
		g->over = 1;
		if (f->score > o->score)
			g->winner = finisher;
		else if (o->score > f->score)
			g->winner = other;
		else
			g->winner = finisher;	/* won the last stage */
		return;
	}
	if (f->score < o->score)
		first = finisher;
	else if (o->score < f->score)
		first = other;
	else
		first = finisher;	/* finished the last stage first */
	eve_new_stage(g, first, rng);
}

/* Each player's 33 cards and the 40 travel cards, each exactly once. */
int
eve_conserved(const struct eve *g)
{
	int seen[EVE_TRAVEL], s, i;
	const struct eve_player *pl;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < g->nrow; i++)
		seen[g->row[i]]++;
	for (i = 0; i < g->ntdeck; i++)
		seen[g->tdeck[i]]++;
	for (i = 0; i < g->ntdiscard; i++)
		seen[g->tdiscard[i]]++;
	for (i = 0; i < EVE_TRAVEL; i++)
		if (seen[i] != 1)
			return 0;
	for (s = 0; s < EVE_SEATS; s++) {
		pl = &g->p[s];
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < pl->ndeck; i++)
			seen[pl->deck[i]]++;
		for (i = 0; i < pl->nhand; i++)
			seen[pl->hand[i]]++;
		for (i = 0; i < pl->nreserve; i++)
			seen[pl->reserve[i]]++;
		for (i = 0; i < pl->ndiscard; i++)
			seen[pl->discard[i]]++;
		for (i = 0; i < pl->nfleet; i++)
			seen[pl->fleet[i]]++;
		for (i = 0; i < EVE_DECK; i++)
			if (seen[i] != 1)
				return 0;
	}
	return 1;
}
