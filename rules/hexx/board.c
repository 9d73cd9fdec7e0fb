/*
 * board.c -- the board of schemas in axial hex coordinates (q, r).
 *
 * Direction d (0..5) goes to q + hexx_dir[d][0], r + hexx_dir[d][1]:
 * 0 right, then counter-clockwise.  A card's local edge e, placed with
 * orientation rot, faces direction (e + rot) % 6.  A border on either
 * side of an edge stops ships; linked schemas count as neighbours for
 * ships (a wormhole leads to its twin), not for placement.
 */
#include <stdlib.h>

#include "hexx.h"

const int hexx_dir[6][2] = {
	{ 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 }
};

int
hexx_tile_at(const struct hexx *g, int q, int r)
{
	int i;

	for (i = 0; i < g->ntiles; i++)
		if (g->tile[i].q == q && g->tile[i].r == r)
			return i;
	return -1;
}

int
hexx_base_tile(const struct hexx *g)
{
	int i;

	for (i = 0; i < g->ntiles; i++)
		if (g->tile[i].card == g->cards->base)
			return i;
	return -1;
}

/* The direction from one hex to its neighbour, or -1. */
int
hexx_direction(int q0, int r0, int q1, int r1)
{
	int d;

	for (d = 0; d < 6; d++)
		if (q0 + hexx_dir[d][0] == q1 && r0 + hexx_dir[d][1] == r1)
			return d;
	return -1;
}

/* Does tile's card show a border on the edge facing direction dir? */
int
hexx_border(const struct hexx *g, int tile, int dir)
{
	const struct hexx_tile *t = &g->tile[tile];
	int local = ((dir - t->rot) % 6 + 6) % 6;

	return (g->cards->card[t->card].borders >> local) & 1;
}

/* May a ship go from tile to tile in one step? */
int
hexx_step_ok(const struct hexx *g, int from, int to)
{
	const struct hexx_tile *a = &g->tile[from], *b = &g->tile[to];
	int d = hexx_direction(a->q, a->r, b->q, b->r);

	if (d >= 0)
		return !hexx_border(g, from, d) &&
		    !hexx_border(g, to, (d + 3) % 6);
	return hexx_linked(g->cards, a->card, b->card);
}

/* Is either card linked to the other? */
int
hexx_linked(const struct hexx_cards *set, int a, int b)
{
	int i;

	for (i = 0; i < set->card[a].nlinks; i++)
		if (set->card[a].links[i] == b)
			return 1;
	for (i = 0; i < set->card[b].nlinks; i++)
		if (set->card[b].links[i] == a)
			return 1;
	return 0;
}

static int
in_radius(int q, int r)
{
	int s = -q - r;

	return abs(q) <= HEXX_RADIUS && abs(r) <= HEXX_RADIUS &&
	    abs(s) <= HEXX_RADIUS;
}

/* May card be placed at (q, r) turned rot?  Planets touch voids only;
 * voids touch anything; the hex is free and next to the board. */
int
hexx_place_ok(const struct hexx *g, int card, int q, int r, int rot)
{
	const struct hexx_card *c = &g->cards->card[card];
	int d, t, touching = 0;

	if (!in_radius(q, r) || rot < 0 || rot > 5 || (c->fixed && rot != 0))
		return 0;
	if (hexx_tile_at(g, q, r) >= 0)
		return 0;
	for (d = 0; d < 6; d++) {
		t = hexx_tile_at(g, q + hexx_dir[d][0], r + hexx_dir[d][1]);
		if (t < 0)
			continue;
		touching = 1;
		if (c->kind == HEXX_PLANET &&
		    g->cards->card[g->tile[t].card].kind == HEXX_PLANET)
			return 0;
	}
	return touching;
}

/* Are the tiles other than removed (-1: none) one connected board? */
int
hexx_connected_without(const struct hexx *g, int removed)
{
	int seen[HEXX_CARDS_MAX] = { 0 }, stack[HEXX_CARDS_MAX];
	int nstack = 0, nseen = 0, start, i, d, t, total;

	total = g->ntiles - (removed >= 0 ? 1 : 0);
	if (total <= 0)
		return 1;
	start = removed == 0 ? 1 : 0;
	seen[start] = 1;
	stack[nstack++] = start;
	nseen = 1;
	while (nstack > 0) {
		i = stack[--nstack];
		for (d = 0; d < 6; d++) {
			t = hexx_tile_at(g, g->tile[i].q + hexx_dir[d][0],
			    g->tile[i].r + hexx_dir[d][1]);
			if (t < 0 || t == removed || seen[t])
				continue;
			seen[t] = 1;
			nseen++;
			stack[nstack++] = t;
		}
	}
	return nseen == total;
}

/* May the schema of tile move to (q, r)?  Not a start card; the hex is
 * free; there the card could be placed (without counting itself as a
 * neighbour), and the board stays in one piece. */
int
hexx_shift_ok(const struct hexx *g, int tile, int q, int r)
{
	struct hexx *moved;
	int ok;

	if (tile < 0 || g->cards->card[g->tile[tile].card].start ||
	    hexx_tile_at(g, q, r) >= 0)
		return 0;
	moved = malloc(sizeof(*moved));
	if (moved == NULL)
		abort();
	*moved = *g;
	/* Out of the way while the new place is judged. */
	moved->tile[tile].q = 10 * HEXX_RADIUS;
	moved->tile[tile].r = 10 * HEXX_RADIUS;
	ok = hexx_place_ok(moved, g->tile[tile].card, q, r,
	    g->cards->card[g->tile[tile].card].fixed ? 0 : g->tile[tile].rot);
	moved->tile[tile].q = q;
	moved->tile[tile].r = r;
	ok = ok && hexx_connected_without(moved, -1);
	free(moved);
	return ok;
}

int
hexx_path_check(const struct hexx *g, int seat, int npath,
    const int path[][2], int *bad)
{
	const struct hexx_seat *s = &g->seat[seat];
	int here = hexx_tile_at(g, s->q, s->r), i, next;

	*bad = 0;
	if (npath < 1 || npath > HEXX_PATH_MAX)
		return HEXX_PATH_EMPTY;
	for (i = 0; i < npath; i++) {
		*bad = i;
		next = hexx_tile_at(g, path[i][0], path[i][1]);
		if (next < 0)
			return HEXX_PATH_NO_TILE;
		if (hexx_direction(g->tile[here].q, g->tile[here].r,
		    path[i][0], path[i][1]) < 0 &&
		    !hexx_linked(g->cards, g->tile[here].card,
		    g->tile[next].card))
			return HEXX_PATH_NOT_NEXT;
		if (!hexx_step_ok(g, here, next))
			return HEXX_PATH_BORDER;
		if (g->cards->card[g->tile[next].card].kind == HEXX_PLANET) {
			if (i != npath - 1)
				return HEXX_PATH_PLANET_MID;
			if (g->tile[next].card == s->last_planet)
				return HEXX_PATH_SAME_PLANET;
		}
		here = next;
	}
	return HEXX_PATH_OK;
}

/* May card (a schema) replace the schema of tile (seed line 167)?  Not a
 * start card, and card could be placed there, turned as the old one (0
 * if fixed), with the old schema out of the way; the board keeps its
 * shape, so it stays in one piece. */
int
hexx_replace_ok(const struct hexx *g, int tile, int card)
{
	struct hexx *without;
	int q, r, ok;

	if (tile < 0 || tile >= g->ntiles || card < 0 ||
	    !hexx_is_schema(&g->cards->card[card]) ||
	    g->cards->card[card].start ||
	    g->cards->card[g->tile[tile].card].start)
		return 0;
	without = malloc(sizeof(*without));
	if (without == NULL)
		abort();
	*without = *g;
	q = g->tile[tile].q;
	r = g->tile[tile].r;
	without->tile[tile].q = 10 * HEXX_RADIUS;
	without->tile[tile].r = 10 * HEXX_RADIUS;
	ok = hexx_place_ok(without, card, q, r, g->cards->card[card].fixed ?
	    0 : g->tile[tile].rot);
	free(without);
	return ok;
}
