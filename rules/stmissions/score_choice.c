/*
 * score_choice.c -- the holder's choices (score_int.h).
 *
 * A depth-first branch and bound over Borg Cube's blanks and Thought
 * Maker's change (explore()), best bound first.  Undecided choices are
 * "superposed" for bounds: every possible Thought Maker target gets every
 * affiliation, the Ship every attribute, Borg Cube's open blanks their
 * best gain.  Every card's score only grows when a giver gains
 * attributes or a card stops being blanked, so a superposed total is an
 * upper bound.  Unidentified Ship's declaration is not branched on: at
 * each leaf stm_ship_best() (score_ship.c) finds its best exactly.
 * Mysterious Plague's lifeform only affects the Plague and is chosen
 * inside stm_score_card().
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "score_int.h"

int
stm_ship_active(const struct hand *h, const struct node *nd)
{
	return h->pos_us >= 0 && !(nd->borg & (1u << h->pos_us));
}

/* Galaxy cards whose blanking by Borg Cube is still open; never Thought
 * Maker's target (blanking it is the same as no change). */
static unsigned
borg_candidates(const struct hand *h, const struct node *nd)
{
	unsigned m = h->galaxy & ~nd->borg_decided;

	if (nd->tm_pos >= 0)
		m &= ~(1u << nd->tm_pos);
	return m;
}

static int
borg_open(const struct hand *h, const struct node *nd)
{
	return h->pos_borg >= 0 && nd->level <= LV_BORG_REST &&
	    bit_count(nd->borg) < 2 && borg_candidates(h, nd) != 0;
}

/* The configuration a node stands for: decided choices applied, open
 * ones superposed; the Ship as declared in us[], or superposed if NULL. */
static void
node_config(const struct hand *h, const struct node *nd, const int *us,
    struct config *c)
{
	unsigned m;
	int i;

	for (i = 0; i < h->n; i++)
		c->feat[i] = h->printed[i];
	c->borg = nd->borg;
	c->tm_changes = 0;
	c->leah_either = borg_open(h, nd) && h->pos_leah >= 0;
	if (h->pos_us >= 0 && us == NULL)
		c->feat[h->pos_us] = features(CHAR_TYPES, ALL_SPECS, ALL_LFS,
		    ALL_AFFS);
	else if (h->pos_us >= 0)
		c->feat[h->pos_us] = features(1u << us[DIM_TYPE],
		    1u << us[DIM_SPEC], 1u << us[DIM_LF],
		    aff_bits(us[DIM_AFF]));
	if (h->pos_tm < 0)
		return;
	if (nd->tm_pos == TM_OPEN) {
		for (m = h->tm_targets; m != 0; m &= m - 1) {
			i = __builtin_ctz(m);
			c->feat[i] = with_affiliations(c->feat[i], ALL_AFFS);
		}
		c->tm_changes = h->tm_targets | position_bit(h->pos_us);
	} else if (nd->tm_pos >= 0) {
		if (nd->tm_pos != h->pos_us)
			c->feat[nd->tm_pos] = with_affiliations(
			    c->feat[nd->tm_pos], nd->tm_aff == AFF_OPEN ?
			    ALL_AFFS : aff_bits(nd->tm_aff));
		c->tm_changes = 1u << nd->tm_pos;
	}
}

/*
 * Borg Cube's open blanks.  For the sets S of at most `left` more
 * candidates, an upper bound of each card's score in any completion that
 * blanks exactly S: evaluated directly, with the Ship and Thought Maker
 * superposed, for S empty or a single card; for a pair {y, z}, the
 * lesser of its scores with y blanked and with z blanked (blanking more
 * never helps a card).  Leah Brahms is taken as either lifeform while
 * blanks are open (node_config), so these stay bounds.
 */
#define MAX_SETS	72	/* 1 + 11 + 55 */

struct borg_bounds {
	int		n;
	unsigned	set[MAX_SETS];
	int		y[MAX_SETS], z[MAX_SETS];	/* -1: none */
	int		bound[MAX_SETS];	/* sum of the cards' bounds */
	struct result	none;		/* S empty */
	struct result	one[STM_HAND_MAX];	/* S = { y } */
};

/* Card pos's bound in set i; most[] (if not NULL) caps it further.  A
 * card of the set scores as Borg Cube. */
static int
card_bound(const struct hand *h, const struct borg_bounds *bb, int i,
    int pos, const int *most)
{
	int v, w;

	if (pos == bb->y[i] || pos == bb->z[i])
		pos = h->pos_borg;
	if (bb->y[i] < 0)
		v = bb->none.points[pos];
	else if (bb->z[i] < 0)
		v = bb->one[bb->y[i]].points[pos];
	else {
		v = bb->one[bb->y[i]].points[pos];
		w = bb->one[bb->z[i]].points[pos];
		v = v < w ? v : w;
	}
	if (most != NULL && most[pos] < v)
		v = most[pos];
	return v;
}

static int
set_bound(const struct hand *h, const struct borg_bounds *bb, int i,
    const int *most)
{
	int pos, sum = 0;

	for (pos = 0; pos < h->n; pos++)
		sum += card_bound(h, bb, i, pos, most);
	return sum;
}

static void
borg_sets(const struct hand *h, const struct node *nd, struct borg_bounds *bb)
{
	struct config c;
	unsigned cand, m1, m2;
	int y, z, n = 0;

	node_config(h, nd, NULL, &c);
	stm_evaluate(h, &c, &bb->none);
	bb->set[n] = 0;
	bb->y[n] = bb->z[n] = -1;
	bb->bound[n++] = bb->none.total;
	if (borg_open(h, nd)) {
		cand = borg_candidates(h, nd);
		for (m1 = cand; m1 != 0; m1 &= m1 - 1) {
			y = __builtin_ctz(m1);
			c.borg = nd->borg | (1u << y);
			stm_evaluate(h, &c, &bb->one[y]);
			bb->set[n] = 1u << y;
			bb->y[n] = y;
			bb->z[n] = -1;
			bb->bound[n++] = bb->one[y].total;
		}
		for (m1 = cand; nd->borg == 0 && m1 != 0; m1 &= m1 - 1) {
			y = __builtin_ctz(m1);
			for (m2 = m1 & (m1 - 1); m2 != 0; m2 &= m2 - 1) {
				z = __builtin_ctz(m2);
				bb->set[n] = (1u << y) | (1u << z);
				bb->y[n] = y;
				bb->z[n] = z;
				bb->bound[n] = set_bound(h, bb, n, NULL);
				n++;
			}
		}
	}
	bb->n = n;
}

#define MAX_KIDS	60	/* 2 + 11 * 5 Thought Maker changes */

/* A quick upper bound of every completion of nd: one evaluation with
 * the open choices superposed, plus the most Borg Cube's open blanks
 * could add (each blanked card scoring Borg Cube's score there instead
 * of its own, as if it gave nothing to others). */
static int
quick_bound(const struct hand *h, const struct node *nd)
{
	struct config c;
	struct result r;
	unsigned m;
	int g, gain, top1 = 0, top2 = 0;

	node_config(h, nd, NULL, &c);
	stm_evaluate(h, &c, &r);
	if (!borg_open(h, nd))
		return r.total;
	for (m = borg_candidates(h, nd); m != 0; m &= m - 1) {
		g = __builtin_ctz(m);
		gain = r.points[h->pos_borg] - r.points[g];
		if (gain > top1) {
			top2 = top1;
			top1 = gain;
		} else if (gain > top2)
			top2 = gain;
	}
	if (bit_count(nd->borg) == 0)
		top1 += top2;
	return r.total + top1;
}

/* nd's best total (every choice but the Ship's decided), exact if more
 * than `need` (b->exact). */
static void
leaf_value(const struct hand *h, const struct node *nd,
    struct table_cache *tc, int need, struct ship_best *b)
{
	struct config c;
	struct result r;
	int i;

	node_config(h, nd, NULL, &c);
	if (stm_ship_active(h, nd)) {
		stm_ship_best(h, &c, tc, need, b);
		return;
	}
	stm_evaluate(h, &c, &r);
	b->total = r.total;
	b->exact = 1;
	for (i = 0; i < NDIMS; i++)
		b->us[i] = -1;
}

/* Move nd past every decision that has nothing to choose from. */
static void
advance(const struct hand *h, struct node *nd)
{
	int vals[STM_NAFFILIATIONS];
	unsigned us = position_bit(h->pos_us), tm = position_bit(h->pos_tm);

	for (;; nd->level++) {
		switch (nd->level) {
		case LV_BORG_US:
			if (h->pos_borg >= 0 && us != 0)
				return;
			break;
		case LV_BORG_TM:
			if (h->pos_borg >= 0 && tm != 0 &&
			    bit_count(nd->borg) < 2)
				return;
			nd->borg_decided |= tm;
			break;
		case LV_THOUGHT:
			if (tm != 0 && !(nd->borg & tm))
				return;
			nd->tm_pos = TM_NONE;
			break;
		case LV_THOUGHT_AFF:
			if (nd->tm_pos < 0 || nd->tm_pos == h->pos_us ||
			    nd->tm_aff != AFF_OPEN)
				break;
			if (stm_thought_affiliations(h, nd->tm_pos,
			    !stm_ship_active(h, nd), vals) > 1)
				return;
			nd->tm_aff = vals[0];
			break;
		case LV_BORG_REST:
			if (borg_open(h, nd))
				return;
			nd->borg_decided = h->galaxy;
			break;
		case LV_DONE:
			return;
		}
	}
}

/* The children of nd at its level; returns how many. */
static int
children(const struct hand *h, const struct node *nd, struct node *kids)
{
	int vals[STM_NAFFILIATIONS], n = 0, nv, i, x;
	unsigned m;

	switch (nd->level) {
	case LV_BORG_US:
	case LV_BORG_TM:
		x = nd->level == LV_BORG_US ? h->pos_us : h->pos_tm;
		kids[n] = *nd;
		kids[n++].borg_decided |= 1u << x;
		kids[n] = *nd;
		kids[n].borg |= 1u << x;
		kids[n++].borg_decided |= 1u << x;
		break;
	case LV_THOUGHT:
		kids[n] = *nd;
		kids[n++].tm_pos = TM_NONE;
		if (stm_ship_active(h, nd)) {
			kids[n] = *nd;
			kids[n++].tm_pos = h->pos_us;
		}
		for (m = h->tm_targets; m != 0; m &= m - 1) {
			x = __builtin_ctz(m);
			if (stm_thought_affiliations(h, x, !stm_ship_active(h, nd),
			    vals) == 0)
				continue;
			kids[n] = *nd;
			kids[n].tm_pos = x;
			kids[n++].tm_aff = AFF_OPEN;
		}
		break;
	default:	/* LV_THOUGHT_AFF */
		nv = stm_thought_affiliations(h, nd->tm_pos, !stm_ship_active(h, nd),
		    vals);
		for (i = 0; i < nv; i++) {
			kids[n] = *nd;
			kids[n++].tm_aff = vals[i];
		}
		break;
	}
	for (i = 0; i < n; i++)
		kids[i].level++;
	assert(n <= MAX_KIDS);
	return n;
}

static void
record(struct search *sr, const struct node *nd, const struct ship_best *b)
{
	if (b->exact && b->total > sr->best_total) {
		sr->best_total = b->total;
		sr->best_node = *nd;
		memcpy(sr->best_us, b->us, sizeof(sr->best_us));
	}
}

/* Indexes 0..n-1 ordered by decreasing key, ties in index order. */
static void
order_by(const int *key, int n, int *order)
{
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && key[order[j - 1]] < key[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

/*
 * Can blanking set i beat `best`?  An upper bound computed with the
 * tables of the configuration without it (l, prepared by borg_rest()):
 * for every declaration of the Ship, each card scores at most its
 * score there (blanking more never helps a card) and at most its bound
 * in borg_sets() for the set; the cards of the set score as Borg Cube.
 * The best over the declarations is found as in stm_ship_best(), cut at
 * `best`.
 */
static int
set_may_beat(struct ship_loop *l, const struct node *nd,
    const struct borg_bounds *bb, int i, int base, int best)
{
	int pos, arg[NDIMS];

	for (pos = 0; pos < l->h->n; pos++)
		l->cap[pos] = card_bound(l->h, bb, i, pos, NULL);
	l->excluded = bb->set[i];
	l->nborg = bit_count(nd->borg | bb->set[i]);
	stm_ship_layout(l);
	return stm_ship_subtree(l, 0, 0, best - base, arg) > best - base;
}

/* Keep l's tables out of the cache's reach. */
static void
ship_own_tables(struct ship_loop *l)
{
	int i, pos;

	for (i = 0; i < l->nall; i++) {
		pos = l->all[i]->pos;
		if (l->all[i] != &l->spare[pos]) {
			l->spare[pos] = *l->all[i];
			l->all[i] = &l->spare[pos];
		}
	}
}

/*
 * Is set_may_beat() worth its search?  It saves building a set's own
 * tables when it cuts, and is wasted when it does not; in some hands it
 * cuts most sets, in others few.  So it is used while it has cut at
 * least a fifth of the sets it was tried on (after a few tries).  This
 * depends only on the search so far, so it is deterministic.
 */
static int
capped_worth_it(const struct search *sr)
{
	return sr->capped_tries < 8 || 5 * sr->capped_cuts >= sr->capped_tries;
}

/*
 * The last decision: which other Galaxy cards Borg Cube blanks.  Sets
 * are tried best bound first; with the Ship in play a set is searched
 * only if set_may_beat() says it might beat the best total.
 */
/* Not inlined into the recursive explore(): its frame is large. */
static void borg_rest(struct search *, const struct node *)
    __attribute__((noinline));

static void
borg_rest(struct search *sr, const struct node *nd)
{
	const struct hand *h = sr->h;
	struct borg_bounds bb;
	struct ship_loop l;
	struct config c;
	int order[MAX_SETS], i, base = 0, prepared = 0;
	struct node leaf;
	struct ship_best b;

	borg_sets(h, nd, &bb);
	order_by(bb.bound, bb.n, order);
	for (i = 0; i < bb.n && bb.bound[order[i]] > sr->best_total; i++) {
		if (stm_ship_active(h, nd)) {
			if (!prepared) {
				node_config(h, nd, NULL, &c);
				base = stm_ship_prepare(&l, h, &c, &sr->cache);
				ship_own_tables(&l);
				prepared = 1;
			}
			if (capped_worth_it(sr)) {
				sr->capped_tries++;
				if (!set_may_beat(&l, nd, &bb, order[i], base,
				    sr->best_total)) {
					sr->capped_cuts++;
					continue;
				}
			}
		}
		leaf = *nd;
		leaf.borg |= bb.set[order[i]];
		leaf.borg_decided = h->galaxy;
		leaf.level = LV_DONE;
		leaf_value(h, &leaf, &sr->cache, sr->best_total, &b);
		record(sr, &leaf, &b);
	}
}

/* Search below nd (advanced; its bound beat the best so far), best
 * bound first, cutting whatever cannot beat the best total found. */
static void
explore(struct search *sr, const struct node *nd)
{
	struct node kids[MAX_KIDS];
	struct ship_best b;
	int key[MAX_KIDS], order[MAX_KIDS], n, i;

	if (nd->level == LV_DONE) {
		leaf_value(sr->h, nd, &sr->cache, sr->best_total, &b);
		record(sr, nd, &b);
		return;
	}
	if (nd->level == LV_BORG_REST) {
		borg_rest(sr, nd);
		return;
	}
	n = children(sr->h, nd, kids);
	memset(key, 0, sizeof(key));
	for (i = 0; i < n; i++) {
		advance(sr->h, &kids[i]);
		key[i] = quick_bound(sr->h, &kids[i]);
	}
	order_by(key, n, order);
	for (i = 0; i < n && key[order[i]] > sr->best_total; i++)
		explore(sr, &kids[order[i]]);
}

/* The best choices for the hand, and their evaluation in r. */
void
stm_search(const struct hand *h, struct search *sr, struct result *r)
{
	struct node root;
	struct config c;

	sr->h = h;
	sr->best_total = -1;
	sr->capped_tries = sr->capped_cuts = 0;
	memset(&sr->best_node, 0, sizeof(sr->best_node));
	memset(sr->best_us, 0xff, sizeof(sr->best_us));
	sr->cache.ready = 0;	/* cleared on first use (the Ship in hand) */
	memset(&root, 0, sizeof(root));
	root.level = LV_BORG_US;
	root.tm_pos = TM_OPEN;
	advance(h, &root);
	explore(sr, &root);
	assert(sr->best_total >= 0);
	node_config(h, &sr->best_node, sr->best_us[0] >= 0 ? sr->best_us :
	    NULL, &c);
	stm_evaluate(h, &c, r);
	assert(r->total == sr->best_total);
}
