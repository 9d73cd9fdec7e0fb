/*
 * score_match.c -- maximum bipartite matchings for the scorer
 * (score_int.h).
 *
 * "Different Specialty/Lifeform/Affiliation" and "three different cards
 * for these roles" are exact maximum matchings between givers and values
 * (or roles), found with Kuhn's augmenting paths on bit masks: at most
 * 12 givers by 11 values.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "score_int.h"

/* Kuhn's augmenting path: can left node g be matched, moving others? */
static int
augment(int g, const unsigned *adj, unsigned *seen, int *owner)
{
	unsigned a;
	int v;

	for (a = adj[g] & ~*seen; a != 0; a &= a - 1) {
		v = __builtin_ctz(a);
		*seen |= 1u << v;
		if (owner[v] < 0 || augment(owner[v], adj, seen, owner)) {
			owner[v] = g;
			return 1;
		}
	}
	return 0;
}

/* Size of a maximum matching of the left nodes in `left` (adj[i]: the
 * right nodes 0..15 that left node i may take), stopping at `enough`. */
static int
max_matching(const unsigned *adj, unsigned left, int enough)
{
	int owner[16];
	unsigned seen;
	int i, count = 0;

	for (i = 0; i < 16; i++)
		owner[i] = -1;
	for (; left != 0 && count < enough; left &= left - 1) {
		seen = 0;
		if (augment(__builtin_ctz(left), adj, &seen, owner))
			count++;
	}
	return count;
}

/* How many of the givers in m can each show a different value in d,
 * never showing one of `banned`; stops counting at `enough`. */
int
stm_distinct_values(const struct scene *s, unsigned m, enum dim d,
    unsigned banned, int enough)
{
	unsigned adj[STM_HAND_MAX];
	unsigned g;

	for (g = m; g != 0; g &= g - 1) {
		int i = __builtin_ctz(g);

		adj[i] = dim_values(s->feat[i], d) & ~banned;
	}
	return max_matching(adj, m, enough);
}

/* Can every role be given a card of its own? */
int
stm_roles_filled(const unsigned *role, int nroles)
{
	return max_matching(role, (1u << nroles) - 1, nroles) == nroles;
}

