/*
 * expert.c -- the expert mode's ship tracks, dice and space effects.
 *
 * Every die comes from the turn's random stream, in the order written
 * here, so a replay rolls the same numbers.  Tracks stay within 0..10.
 */
#include "eve.h"

static int
d(struct rules_rng *rng, int sides)
{
	return 1 + (int)rules_rng_below(rng, (uint32_t)sides);
}

static void
gain(struct eve_player *pl, int track, int n)
{
	pl->track[track] += n;
	if (pl->track[track] > EVE_TRACK_MAX)
		pl->track[track] = EVE_TRACK_MAX;
}

void
eve_expert_init(struct eve *g)
{
	int s, t;

	for (s = 0; s < EVE_SEATS; s++)
		for (t = 0; t < T_NTRACKS; t++)
			g->p[s].track[t] = EVE_TRACK_START;
}

/* n points of damage: shields first, then hull; hull 0 destroys. */
void
eve_expert_damage(struct eve_player *pl, int n)
{
	int absorbed = n < pl->track[T_SHIELD] ? n : pl->track[T_SHIELD];

	pl->track[T_SHIELD] -= absorbed;
	n -= absorbed;
	pl->track[T_HULL] -= n;
	if (pl->track[T_HULL] <= 0) {
		pl->track[T_HULL] = 0;
		pl->destroyed = 1;
	}
}

/* Getting past the Klingon: 1d6 torpedoes, then 1d6 shields. */
void
eve_expert_fight(struct eve *g, int seat, struct rules_rng *rng)
{
	struct eve_player *pl = &g->p[seat];
	int torpedoes = d(rng, 6), shields = d(rng, 6);

	if (pl->track[T_TORPEDO] >= torpedoes)
		pl->track[T_TORPEDO] -= torpedoes;
	else {
		eve_expert_damage(pl, torpedoes - pl->track[T_TORPEDO]);
		pl->track[T_TORPEDO] = 0;
	}
	eve_expert_damage(pl, shields);
}

/* The space the ship ended its flight (version 2: its turn) on takes
 * effect. */
void
eve_expert_end_turn(struct eve *g, int seat, int trade_from, int trade_to,
    struct rules_rng *rng)
{
	struct eve_player *pl = &g->p[seat];
	int t;

	if (pl->pos < 0)
		return;
	switch (eve_space(g, pl->pos, seat)) {
	case K_NEBULA:
		gain(pl, T_DILITHIUM, d(rng, 6));
		break;
	case K_ASTEROID:
		eve_expert_damage(pl, d(rng, 2));
		break;
	case K_CLASSM:
		if (trade_from >= 0 && pl->track[trade_from] >= 1) {
			pl->track[trade_from]--;
			gain(pl, trade_to, d(rng, 6));
		}
		break;
	case K_BLACKHOLE:
		for (t = 0; t < T_NTRACKS; t++)
			if (pl->track[t] > 0)
				pl->track[t]--;
		break;
	default:
		break;
	}
	if (pl->track[T_HULL] == 0)	/* black hole, or hull traded away */
		pl->destroyed = 1;
}

/*
 * Whether a ship without dilithium can get some at the end of its own
 * next turn where it stands (version 2): on a nebula, or on a class-M
 * planet with something to trade that does not destroy it.
 */
static int
can_refuel(const struct eve *g, int seat)
{
	const struct eve_player *pl = &g->p[seat];

	if (g->version < 2 || pl->pos < 0)
		return 0;
	switch (eve_space(g, pl->pos, seat)) {
	case K_NEBULA:
		return 1;
	case K_CLASSM:
		return pl->track[T_TORPEDO] > 0 || pl->track[T_SHIELD] > 0 ||
		    pl->track[T_HULL] > 1;
	default:
		return 0;
	}
}

/*
 * After a turn: a destroyed ship loses the game (both destroyed: no
 * winner); two ships without dilithium, neither of which can refuel
 * where it stands (version 2; in version 1 none can), can never finish
 * the stage, and the game ends with no winner.
 */
void
eve_expert_outcome(struct eve *g)
{
	int d0 = g->p[0].destroyed, d1 = g->p[1].destroyed;

	if (d0 || d1) {
		g->over = 1;
		g->winner = d0 && d1 ? -1 : d0 ? 1 : 0;
		return;
	}
	if (g->p[0].track[T_DILITHIUM] == 0 &&
	    g->p[1].track[T_DILITHIUM] == 0 && !can_refuel(g, 0) &&
	    !can_refuel(g, 1)) {
		g->over = 1;
		g->winner = -1;
	}
}
