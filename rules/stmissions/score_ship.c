/*
 * score_ship.c -- Unidentified Ship's best declaration for one
 * configuration (score_int.h).
 *
 * Blanking does not depend on the declaration except for Intruder Alert
 * and Space Confrontation, which give nothing to other cards; so the
 * active cards are found once, with the Ship superposed, and each card's
 * score is a function of the few attributes of the Ship it looks at
 * (rel[] in struct hand).  A table per card holds that function,
 * indexed by the classes of values the card tells apart, and is kept
 * across configurations in a cache keyed by what the card's score can
 * depend on (struct table_cache).  The declarations are then tried in
 * nested loops over the dimensions (type, affiliation, specialty,
 * lifeform), each card's score added in the deepest loop it depends on;
 * a loop's best is memoized by what its cards see of the outer loops,
 * and loops that cannot beat the best total found so far, by the
 * tables' maxima, are cut.
 */

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "score_int.h"

static const enum dim loop_dim[NDIMS] = {
	DIM_SPEC, DIM_TYPE, DIM_AFF, DIM_LF
};

static uint64_t
ship_features(const struct ship_space *sp, const int *k)
{
	return features(1u << sp->value[DIM_TYPE][k[DIM_TYPE]],
	    1u << sp->value[DIM_SPEC][k[DIM_SPEC]],
	    1u << sp->value[DIM_LF][k[DIM_LF]],
	    aff_bits(sp->value[DIM_AFF][k[DIM_AFF]]));
}

/* The card's score with the Ship declared as l->k[]. */
static int
ship_entry(struct ship_loop *l, int pos)
{
	const struct rule *r = &stm_score_rules[l->h->card[pos]];
	unsigned givers = l->active & ~(1u << pos);
	int plague_lf;

	stm_scene_set(&l->s, l->h->pos_us, ship_features(l->sp, l->k));
	if (r->blanked_unless && (pred_mask(&l->s, &r->lift) & givers) == 0)
		return 0;
	return stm_score_card(&l->s, l->h->card[pos], givers, &plague_lf);
}

/* Lay out a card's table: which classes of each dimension it tells
 * apart, by projecting each class on the bits it looks at. */
static void
table_layout(struct ship_table *t, int pos, uint64_t rel, unsigned deps,
    const struct ship_space *sp)
{
	uint64_t seen[STM_NSPECIALTIES], proj;
	int i, d, k, j, nseen, size = 1;

	t->pos = pos;
	t->level = 0;
	memset(t->offset, 0, sizeof(t->offset));
	for (i = 0; i < NDIMS; i++) {
		d = loop_dim[i];
		nseen = 0;
		if (!(deps & (1u << d))) {
			t->rep[d][0] = 0;
			t->nidx[d] = 1;
			continue;
		}
		for (k = 0; k < sp->n[d]; k++) {
			proj = stm_value_features(d, sp->value[d][k]) & rel;
			for (j = 0; j < nseen && seen[j] != proj; j++)
				continue;
			if (j == nseen) {
				t->rep[d][nseen] = k;
				seen[nseen++] = proj;
			}
			t->offset[d][k] = j;
		}
		t->nidx[d] = nseen;
		if (nseen > 1)
			t->level = i;
		size *= nseen;
	}
	t->direct = size > SHIP_TABLE;
	if (t->direct)
		return;
	size = 1;
	for (i = NDIMS - 1; i >= 0; i--) {
		d = loop_dim[i];
		t->stride[d] = size;
		for (k = 0; k < sp->n[d]; k++)
			t->offset[d][k] *= size;
		size *= t->nidx[d];
	}
}

/* Score every entry of a table (or bound it, if scored directly). */
static void
table_fill(struct ship_loop *l, struct ship_table *t)
{
	int j[NDIMS], saved[NDIMS], d, e, more, size, block, i, x, best;

	if (t->direct) {
		t->max = 1 << 20;
		return;
	}
	memcpy(saved, l->k, sizeof(saved));
	memset(j, 0, sizeof(j));
	size = 0;
	do {
		e = 0;
		for (d = 0; d < NDIMS; d++) {
			l->k[d] = t->rep[d][j[d]];
			e += j[d] * t->stride[d];
		}
		t->value[e] = ship_entry(l, t->pos);
		size++;
		more = 0;
		for (d = NDIMS - 1; d >= 0 && !more; d--) {
			if (++j[d] < t->nidx[d])
				more = 1;
			else
				j[d] = 0;
		}
	} while (more);
	memcpy(l->k, saved, sizeof(saved));
	/* Loop i's block: the entries of one choice of the loops before. */
	block = size;
	for (i = 0; i < NDIMS; i++) {
		for (e = 0; e < size; e += block) {
			best = 0;
			for (x = e; x < e + block; x++)
				if (t->value[x] > best)
					best = t->value[x];
			t->most[i][e] = best;
		}
		block /= t->nidx[loop_dim[i]];
	}
	t->max = t->most[0][0];
}

static int
table_value(struct ship_loop *l, const struct ship_table *t)
{
	if (t->direct)
		return ship_entry(l, t->pos);
	return t->value[t->offset[DIM_TYPE][l->k[DIM_TYPE]] +
	    t->offset[DIM_LF][l->k[DIM_LF]] +
	    t->offset[DIM_AFF][l->k[DIM_AFF]] +
	    t->offset[DIM_SPEC][l->k[DIM_SPEC]]];
}

static void
table_variant(const struct ship_loop *l, unsigned givers, uint64_t rel,
    struct variant *v)
{
	const struct hand *h = l->h;
	uint64_t f;
	int g, n = 0;

	v->pos[0] = v->pos[1] = -1;
	v->feat[0] = v->feat[1] = 0;
	for (; givers != 0; givers &= givers - 1) {
		g = __builtin_ctz(givers);
		f = l->s.feat[g] & rel;
		if (g == h->pos_us || f == (h->printed[g] & rel))
			continue;
		assert(n < 2);	/* Thought Maker's target and Leah only */
		if (n < 2) {
			v->pos[n] = g;
			v->feat[n++] = f;
		}
	}
}

static int
same_variant(const struct variant *a, const struct variant *b)
{
	return a->pos[0] == b->pos[0] && a->pos[1] == b->pos[1] &&
	    a->feat[0] == b->feat[0] && a->feat[1] == b->feat[1];
}

/* The cards that could give the card at pos a bonus or lift its blank,
 * whatever the Ship's declaration (it is superposed in l->s). */
static unsigned
possible_givers(const struct ship_loop *l, int pos)
{
	const struct rule *r = &stm_score_rules[l->h->card[pos]];
	unsigned m;
	int j;

	m = pred_mask(&l->s, &r->lift);
	for (j = 0; j < r->nper; j++)
		m |= pred_mask(&l->s, &r->per[j].who);
	for (j = 0; j < r->ncand; j++)
		m |= pred_mask(&l->s, &r->cand[j]);
	if (r->special == SP_PLAGUE)
		m |= l->s.pm[FB_HAS_LF];
	return m & l->active & ~(1u << pos);
}

/* Were the classes of the dimensions in `deps` the same for c? */
static int
same_dims(const struct table_cache *tc, const struct cached_table *c,
    unsigned deps)
{
	int d;

	for (d = 0; d < NDIMS; d++)
		if ((deps & (1u << d)) && c->dim_id[d] != tc->dim_id[d])
			return 0;
	return 1;
}

/* The table of the card at pos, from the cache or made now. */
static struct ship_table *
table_for(struct ship_loop *l, struct table_cache *tc, int pos)
{
	const struct hand *h = l->h;
	struct cached_table *c, *spot = NULL;
	unsigned givers = possible_givers(l, pos);
	struct variant variant;
	unsigned hash, i;
	struct ship_table *t;

	table_variant(l, givers, h->rel[pos], &variant);
	hash = (unsigned)(((uint64_t)pos * 0x9e3779b1u) ^ givers * 0x85ebca6bu ^
	    ((variant.feat[0] ^ variant.feat[1]) * 0xc2b2ae35u) ^
	    ((variant.feat[0] ^ variant.feat[1]) >> 32));
	for (i = 0; i < CACHE_PROBES; i++) {
		c = &tc->slot[(hash + i) % TABLE_CACHE];
		if (c->used && c->pos == pos && c->givers == givers &&
		    same_dims(tc, c, h->deps[pos]) &&
		    same_variant(&c->variant, &variant)) {
			c->stamp = tc->stamp;
			return &c->t;
		}
		if (spot == NULL && c->stamp != tc->stamp)
			spot = c;
	}
	if (spot != NULL) {
		spot->used = 1;
		memcpy(spot->dim_id, tc->dim_id, sizeof(spot->dim_id));
		spot->pos = pos;
		spot->givers = givers;
		spot->variant = variant;
		spot->stamp = tc->stamp;
		t = &spot->t;
	} else
		t = &l->spare[pos];
	table_layout(t, pos, h->rel[pos], h->deps[pos], l->sp);
	table_fill(l, t);
	return t;
}

/*
 * Points known once loop `level` has chosen its value: the cards whose
 * tables are complete there, Wesley Crusher's copy if its last
 * copyable card is (max of *wout, the best copyable so far, and those
 * of this level), and Borg Cube's blanked cards.
 */
static int
level_points(struct ship_loop *l, int level, int *wout)
{
	const struct hand *h = l->h;
	const struct ship_table *t;
	int i, v, sum = 0;

	for (i = 0; i < l->nat_level[level]; i++) {
		t = l->tab[l->at_level[level][i]];
		v = table_value(l, t);
		if (v > l->cap[t->pos])
			v = l->cap[t->pos];
		l->cur[t->pos] = v;
		sum += v;
		if ((l->copyable & (1u << t->pos)) && v > *wout)
			*wout = v;
	}
	if (l->wesley_level == level)
		sum += *wout < l->cap[h->pos_wesley] ? *wout :
		    l->cap[h->pos_wesley];
	if (l->borg_level == level)
		sum += l->nborg * l->cur[h->pos_borg];
	return sum;
}

/*
 * What loops level.. depend on from the outer ones, as a memo key: for
 * each card whose table is complete at or below `level`, its table
 * offset so far; and Wesley's best copy so far if his copy is known at
 * or below it.  Returns the most those loops can add, from each table's
 * best entry for the outer choices made.
 */
static int
subtree_look(const struct ship_loop *l, int level, int wout,
    struct ship_key *key)
{
	const struct hand *h = l->h;
	const struct ship_table *t;
	const int *k = l->k;
	int i, e, word = 0, bits = 0, ub = 0, wmax = 0, most;

	key->w[0] = key->w[1] = 0;
	for (i = 0; i < l->ndeep[level]; i++) {
		t = l->deep[level][i];
		if (t->direct) {
			ub += l->cap[t->pos] < t->max ? l->cap[t->pos] : t->max;
			continue;
		}
		e = 0;
		switch (level) {
		case 3:
			e += t->offset[loop_dim[2]][k[loop_dim[2]]];
			/* FALLTHROUGH */
		case 2:
			e += t->offset[loop_dim[1]][k[loop_dim[1]]];
			/* FALLTHROUGH */
		case 1:
			e += t->offset[loop_dim[0]][k[loop_dim[0]]];
			break;
		default:
			break;
		}
		most = t->most[level][e];
		if (most > l->cap[t->pos])
			most = l->cap[t->pos];
		ub += most;
		if (t->pos == h->pos_borg)
			ub += l->nborg * most;
		if ((l->copyable & (1u << t->pos)) && most > wmax)
			wmax = most;
		if (bits + 6 > 64) {
			word++;
			bits = 0;
		}
		key->w[word] |= (uint64_t)e << bits;
		bits += 6;
	}
	if (l->wesley_level >= level) {
		key->w[1] |= (uint64_t)(wout & 0xffff) << 48;
		if (wout > wmax)
			wmax = wout;
		ub += wmax < l->cap[h->pos_wesley] ? wmax :
		    l->cap[h->pos_wesley];
	}
	return ub;
}

/* The memo slot for key at level: its entry, or a free or stale one,
 * or NULL if the memo is full. */
static struct ship_memo *
memo_slot(struct ship_loop *l, int level, const struct ship_key *key)
{
	struct ship_memo *m;
	unsigned i, h;

	h = (unsigned)((key->w[0] * 0x9e3779b97f4a7c15ULL) >> 40 ^ key->w[1] ^
	    key->w[1] >> 48);
	for (i = 0; i < SHIP_MEMO; i++) {
		m = &l->tc->memo[level][(h + i) % SHIP_MEMO];
		if (m->used != l->tc->memo_gen || (m->key.w[0] == key->w[0] &&
		    m->key.w[1] == key->w[1]))
			return m;
	}
	return NULL;
}

/*
 * The most loops level.. can add to the outer choices in l->k[] (wout:
 * Wesley's best copy among the outer cards), if that is more than
 * `need`; the classes reaching it are then written to arg[level..].
 * Otherwise returns something no more than need.  Below the outermost
 * loop results are memoized by subtree_key(), so loops whose cards
 * ignore an outer dimension are not repeated for each of its values.
 * Cards with a direct table (never seen in this card set) make the key
 * incomplete, so then nothing is memoized.
 */
int
stm_ship_subtree(struct ship_loop *l, int level, int wout, int need, int *arg)
{
	enum dim d = loop_dim[level];
	struct ship_key key;
	struct ship_memo *m = NULL;
	int c, v, w, sub, floor, best = -1, subarg[NDIMS], i, ub;

	ub = subtree_look(l, level, wout, &key);
	if (ub <= need)
		return ub;
	if (level > 0 && l->memo_ok) {
		m = memo_slot(l, level, &key);
		if (m != NULL && m->used == l->tc->memo_gen &&
		    (m->exact || m->best <= need)) {
			for (i = level; i < NDIMS; i++)
				arg[i] = m->arg[i];
			return m->best;
		}
	}
	for (c = 0; c < l->sp->n[d]; c++) {
		l->k[d] = c;
		w = wout;
		v = level_points(l, level, &w);
		floor = best > need ? best : need;
		if (level + 1 < NDIMS) {
			sub = stm_ship_subtree(l, level + 1, w, floor - v, subarg);
			if (sub <= floor - v)
				continue;
			v += sub;
		} else if (v <= floor)
			continue;
		best = v;
		arg[level] = c;
		for (i = level + 1; i < NDIMS; i++)
			arg[i] = subarg[i];
	}
	if (m != NULL) {
		m->used = l->tc->memo_gen;
		m->key = key;
		m->exact = best > need;
		m->best = best > need ? best : need;
		for (i = level; i < NDIMS; i++)
			m->arg[i] = arg[i];
	}
	return best > need ? best : need;
}

/* Sets up l->sp, the Ship's classes for this configuration, in the
 * cache; a dimension whose classes changed gets a new id. */
static void
ship_space(struct ship_loop *l, struct table_cache *tc)
{
	const struct hand *h = l->h;
	struct ship_space sp;
	struct variant key;
	int d;

	/* The classes depend only on the cards' features, which differ
	 * from as printed only for Thought Maker's target and Leah. */
	table_variant(l, h->all, ~(uint64_t)0, &key);
	l->sp = &tc->space;
	if (tc->space_known && same_variant(&key, &tc->space_key))
		return;
	tc->space_key = key;
	tc->space_known = 1;
	memset(&sp, 0, sizeof(sp));
	for (d = 0; d < NDIMS; d++)
		sp.n[d] = stm_value_classes(l->h, d, l->s.feat,
		    1u << l->h->pos_us, -1, sp.value[d]);
	for (d = 0; d < NDIMS; d++) {
		if (sp.n[d] != tc->space.n[d] || memcmp(sp.value[d],
		    tc->space.value[d], sizeof(sp.value[d])) != 0) {
			tc->dim_id[d]++;
			tc->space.n[d] = sp.n[d];
			memcpy(tc->space.value[d], sp.value[d],
			    sizeof(sp.value[d]));
		}
	}
}

/* The loops' plan for the tables not excluded: which loop adds each,
 * and where Wesley's copy and Borg Cube's score are known. */
void
stm_ship_layout(struct ship_loop *l)
{
	const struct hand *h = l->h;
	const struct ship_table *t;
	int i, d, lv;

	l->ntab = 0;
	for (i = 0; i < l->nall; i++)
		if (!(l->excluded & (1u << l->all[i]->pos)))
			l->tab[l->ntab++] = l->all[i];
	l->copyable = l->copyable_all & ~l->excluded;
	l->wesley_level = l->borg_level = -1;
	if (h->pos_wesley >= 0 && (l->active & (1u << h->pos_wesley)) &&
	    !(l->excluded & (1u << h->pos_wesley)))
		l->wesley_level = 0;
	memset(l->nat_level, 0, sizeof(l->nat_level));
	l->memo_ok = 1;
	memset(l->ndeep, 0, sizeof(l->ndeep));
	for (i = 0; i < l->ntab; i++) {
		t = l->tab[i];
		d = t->level;
		l->at_level[d][l->nat_level[d]++] = i;
		for (lv = 0; lv <= d; lv++)
			l->deep[lv][l->ndeep[lv]++] = t;
		if ((l->copyable & (1u << t->pos)) &&
		    d > l->wesley_level && l->wesley_level >= 0)
			l->wesley_level = d;
		if (t->pos == h->pos_borg)
			l->borg_level = d;
		if (t->direct)
			l->memo_ok = 0;
	}
	l->tc->memo_gen++;
}

/* Everything but the loops: active cards, the Ship's space, each card's
 * table (from the cache), the layout; returns Thought Maker's points. */
int
stm_ship_prepare(struct ship_loop *l, const struct hand *h,
    const struct config *c, struct table_cache *tc)
{
	unsigned us = 1u << h->pos_us, m;
	int i, d;

	if (!tc->ready) {
		for (i = 0; i < TABLE_CACHE; i++)
			tc->slot[i].used = tc->slot[i].stamp = 0;
		for (d = 0; d < NDIMS; d++)
			for (i = 0; i < SHIP_MEMO; i++)
				tc->memo[d][i].used = 0;
		memset(&tc->space, 0, sizeof(tc->space));
		memset(tc->dim_id, 0, sizeof(tc->dim_id));
		tc->space_known = 0;
		tc->stamp = 0;
		tc->memo_gen = 1;
		tc->ready = 1;
	}
	l->h = h;
	l->tc = tc;
	stm_scene_init(&l->s, h, c->feat);
	l->active = stm_resolve_blanks(&l->s, c->borg);
	stm_set_leah_lifeform(&l->s, l->active, c->leah_either);
	ship_space(l, tc);
	tc->stamp++;
	memset(l->k, 0, sizeof(l->k));
	l->nall = 0;
	for (m = l->active & ~us; m != 0; m &= m - 1) {
		i = __builtin_ctz(m);
		if (i != h->pos_wesley && i != h->pos_tm)
			l->all[l->nall++] = table_for(l, tc, i);
	}
	for (i = 0; i < h->n; i++) {
		l->cap[i] = 1 << 20;
		l->cur[i] = 0;
	}
	l->excluded = 0;
	l->copyable_all = (l->s.pm[FB_TYPE + __builtin_ctz(STM_T_SYSTEM)] |
	    l->s.pm[FB_SPEC + __builtin_ctz(STM_S_ENGINEER)]) & l->active &
	    ~us & ~position_bit(h->pos_wesley);
	l->nborg = bit_count(c->borg);
	stm_ship_layout(l);
	if (h->pos_tm >= 0 && (l->active & (1u << h->pos_tm)) &&
	    (c->tm_changes & l->active))
		return 5;
	return 0;
}

/*
 * The best total over the Ship's declarations for configuration c, if
 * more than `need`; b->exact says whether it was.
 */
void
stm_ship_best(const struct hand *h, const struct config *c,
    struct table_cache *tc, int need, struct ship_best *b)
{
	struct ship_loop l;
	int i, base, arg[NDIMS], best;

	base = stm_ship_prepare(&l, h, c, tc);
	best = stm_ship_subtree(&l, 0, 0, need - base, arg);
	b->total = base + best;
	b->exact = best > need - base;
	for (i = 0; i < NDIMS; i++)
		b->us[loop_dim[i]] = b->exact ?
		    l.sp->value[loop_dim[i]][arg[i]] : -1;
}

