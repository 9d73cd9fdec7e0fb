/*
 * score_classes.c -- which values of a dimension the hand tells apart
 * (score_int.h).
 *
 * Two values of a dimension are interchangeable when no rule in the hand
 * tells them apart and, where a card compares values across cards, the
 * same other cards hold them.  The search tries one value per class: for
 * Unidentified Ship's declaration (stm_hand_signatures(),
 * stm_value_classes()) and for Thought Maker's change, per target, by
 * what every other card sees (stm_hand_thought_options()).
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "score_int.h"

/* Bits of value v of a dimension, with the derived bits it implies. */
uint64_t
stm_value_features(enum dim d, int v)
{
	switch (d) {
	case DIM_TYPE:
		return F_TYPE(1u << v);
	case DIM_LF:
		return features(0, 0, 1u << v, 0);
	case DIM_AFF:
		return features(0, 0, 0, 1u << (v - 1));
	default:
		return F_SPEC(1u << v);
	}
}

static int
dim_size(enum dim d)
{
	switch (d) {
	case DIM_LF:
		return STM_NLIFEFORMS;
	case DIM_AFF:
		return 5;
	case DIM_SPEC:
		return STM_NSPECIALTIES;
	default:
		return STM_NTYPES;
	}
}

static void
add_mask(uint64_t *masks, int *n, uint64_t m)
{
	int i;

	if (m == 0)
		return;
	for (i = 0; i < *n; i++)
		if (masks[i] == m)
			return;
	assert(*n < MAX_MASKS);
	masks[(*n)++] = m;
}

static void
add_pred_masks(uint64_t *masks, int *n, const struct pred *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		add_mask(masks, n, p->term[i].any);
		add_mask(masks, n, p->term[i].req);
		add_mask(masks, n, p->term[i].req2);
	}
}

/* Every attribute bit a predicate looks at. */
static uint64_t
pred_bits(const struct pred *p)
{
	return p->term[0].any | p->term[0].req | p->term[0].req2 |
	    p->term[1].any | p->term[1].req | p->term[1].req2;
}

/* Every value of a dimension. */
static uint64_t
dim_features(enum dim d)
{
	switch (d) {
	case DIM_SPEC:
		return F_SPEC(ALL_SPECS);
	case DIM_LF:
		return F_LF(ALL_LFS);
	case DIM_AFF:
		return (uint64_t)ALL_AFFS << FB_AFF;
	default:
		return F_TYPE(CHAR_TYPES);
	}
}

/*
 * Which values of each dimension the cards in this hand can tell apart.
 * value_sig[d][v] has bit i set if value v meets the i-th attribute mask
 * some rule in the hand uses; two values with the same signature (and,
 * where a card compares values across cards, the same set of cards
 * holding them) score the same in every configuration.  Also each
 * card's rel[]: the attribute bits its score can depend on.
 */
void
stm_hand_signatures(struct hand *h)
{
	uint64_t masks[MAX_MASKS], fv;
	const struct rule *r;
	int nmasks = 0, i, j, d, v;

	for (i = 0; i < h->n; i++) {
		r = &stm_score_rules[h->card[i]];
		h->rel[i] = pred_bits(&r->lift);
		add_pred_masks(masks, &nmasks, &r->lift);
		for (j = 0; j < r->nper; j++) {
			add_pred_masks(masks, &nmasks, &r->per[j].who);
			h->rel[i] |= pred_bits(&r->per[j].who);
		}
		for (j = 0; j < r->ncand; j++) {
			add_pred_masks(masks, &nmasks, &r->cand[j]);
			h->rel[i] |= pred_bits(&r->cand[j]);
		}
		switch (r->special) {
		case SP_DISTINCT:
		case SP_DISTINCT_NEED:
			h->compares[r->dim] = 1;
			h->rel[i] |= dim_features(r->dim);
			break;
		case SP_ETHICAL:
			h->compares[DIM_SPEC] = 1;
			h->rel[i] |= dim_features(DIM_SPEC);
			add_mask(masks, &nmasks, F_SPEC(STM_S_COMMAND));
			break;
		case SP_SHARED_AFF:
			h->compares[DIM_AFF] = 1;
			h->rel[i] |= dim_features(DIM_AFF);
			break;
		case SP_PLAGUE:
			h->compares[DIM_LF] = 1;
			h->rel[i] |= dim_features(DIM_LF);
			add_mask(masks, &nmasks, F_LF(STM_L_HUMAN));
			add_mask(masks, &nmasks,
			    F_LF(STM_L_HOLOGRAM | STM_L_ANDROID));
			break;
		case SP_COPY:
			add_mask(masks, &nmasks,
			    F_TYPE(STM_T_SYSTEM) | F_SPEC(STM_S_ENGINEER));
			break;
		default:
			break;
		}
	}
	for (d = 0; d < NDIMS; d++) {
		for (v = 0; v < dim_size(d); v++) {
			fv = stm_value_features(d, d == DIM_AFF ? v + 1 : v);
			h->value_sig[d][v] = 0;
			for (i = 0; i < nmasks; i++)
				if (masks[i] & fv)
					h->value_sig[d][v] |= (uint64_t)1 << i;
			for (i = 0; i < h->n; i++)
				if ((fv & h->rel[i]) != (stm_value_features(d,
				    d == DIM_AFF ? 1 : 0) & h->rel[i]))
					h->deps[i] |= 1u << d;
		}
	}
}

/*
 * The classes of values of dimension d, from the signatures and, if a
 * card compares values in d, the positions holding each value (in feat[],
 * ignoring the positions in `skip`).  Writes one value per class to
 * out[] (bit index, or affiliation for DIM_AFF) and returns how many.
 * The value `avoid` (-1: none) is never written: its class is
 * represented by another member, or dropped if it has none.
 */
int
stm_value_classes(const struct hand *h, enum dim d, const uint64_t *feat,
    unsigned skip, int avoid, int *out)
{
	unsigned holders[STM_NSPECIALTIES];
	int vals[STM_NSPECIALTIES], head[STM_NSPECIALTIES];
	int rep[STM_NSPECIALTIES];
	int nvals = 0, v, j, k, i, n = 0, base;

	base = d == DIM_AFF ? 1 : 0;
	for (v = 0; v < dim_size(d); v++)
		if (d != DIM_TYPE || ((1u << v) & CHAR_TYPES))
			vals[nvals++] = v;
	for (k = 0; k < nvals; k++) {
		v = vals[k];
		holders[k] = 0;
		if (h->compares[d])
			for (i = 0; i < h->n; i++)
				if (!(skip & (1u << i)) &&
				    (dim_values(feat[i], d) & (1u << v)))
					holders[k] |= 1u << i;
		head[k] = k;
		for (j = 0; j < k; j++) {
			if (head[j] == j && holders[j] == holders[k] &&
			    h->value_sig[d][vals[j]] == h->value_sig[d][v]) {
				head[k] = j;
				break;
			}
		}
		if (head[k] == k)
			rep[k] = v + base;
		else if (rep[head[k]] == avoid)
			rep[head[k]] = v + base;
	}
	for (k = 0; k < nvals; k++)
		if (head[k] == k && rep[k] != avoid)
			out[n++] = rep[k];
	return n;
}

/* Does a card with features f meet term t? */
static int
term_met(uint64_t f, const struct term *t)
{
	if (t->any == 0 && t->req == 0)
		return 0;
	return (t->any == 0 || (f & t->any)) && (t->req == 0 ||
	    (f & t->req)) && (t->req2 == 0 || (f & t->req2));
}

static int
pred_terms_agree(const struct pred *p, uint64_t fa, uint64_t fb)
{
	return term_met(fa, &p->term[0]) == term_met(fb, &p->term[0]) &&
	    term_met(fa, &p->term[1]) == term_met(fb, &p->term[1]);
}

/* Would every card other than x see x the same with features fa and fb
 * (only its affiliation differing)?  Where a card compares affiliations
 * among cards x qualifies for, the two must also be held by the same
 * other cards (not counting x and the Ship, whose choice is free). */
static int
same_to_others(const struct hand *h, int x, uint64_t fa, uint64_t fb)
{
	const struct rule *r;
	unsigned skip = (1u << x) | position_bit(h->pos_us);
	int i, j, compares;

	for (i = 0; i < h->n; i++) {
		if (i == x)
			continue;
		r = &stm_score_rules[h->card[i]];
		if (!pred_terms_agree(&r->lift, fa, fb))
			return 0;
		for (j = 0; j < r->nper; j++)
			if (!pred_terms_agree(&r->per[j].who, fa, fb))
				return 0;
		for (j = 0; j < r->ncand; j++)
			if (!pred_terms_agree(&r->cand[j], fa, fb))
				return 0;
		compares = (r->special == SP_DISTINCT && r->dim == DIM_AFF) ||
		    r->special == SP_SHARED_AFF;
		if (compares && (term_met(fa, &r->cand[0].term[0]) ||
		    term_met(fb, &r->cand[0].term[0])))
			for (j = 0; j < h->n; j++)
				if (!(skip & (1u << j)) &&
				    ((dim_values(h->printed[j], DIM_AFF) &
				    dim_values(fa, DIM_AFF)) != 0) !=
				    ((dim_values(h->printed[j], DIM_AFF) &
				    dim_values(fb, DIM_AFF)) != 0))
					return 0;
	}
	return 1;
}

/*
 * Is giving card x affiliation a the same as giving it b?  Every other
 * card must see x alike (Leah Brahms checked as either lifeform).  With
 * the Ship in hand that is not enough: the Ship may take a or b too, so
 * a and b must also be alike to every rule in the hand (x's own
 * included) and held by the same other cards, so that swapping them
 * everywhere changes nothing.
 */
static int
same_affiliation_effect(const struct hand *h, int x, int a, int b)
{
	uint64_t f = h->printed[x];
	unsigned skip = (1u << x) | position_bit(h->pos_us), ha, hb;
	int i;

	if (h->pos_us >= 0) {
		if (h->value_sig[DIM_AFF][a - 1] !=
		    h->value_sig[DIM_AFF][b - 1])
			return 0;
		for (i = 0; h->compares[DIM_AFF] && i < h->n; i++) {
			if (skip & (1u << i))
				continue;
			ha = dim_values(h->printed[i], DIM_AFF) & aff_bits(a);
			hb = dim_values(h->printed[i], DIM_AFF) & aff_bits(b);
			if ((ha != 0) != (hb != 0))
				return 0;
		}
	}

	if (x == h->pos_leah && h->leah_sources != 0 &&
	    !same_to_others(h, x, with_affiliations(
	    (f & ~F_LF(ALL_LFS) & ~F_NONHOLO) | F_LF(STM_L_HOLOGRAM),
	    aff_bits(a)), with_affiliations((f & ~F_LF(ALL_LFS) &
	    ~F_NONHOLO) | F_LF(STM_L_HOLOGRAM), aff_bits(b))))
		return 0;
	return same_to_others(h, x, with_affiliations(f, aff_bits(a)),
	    with_affiliations(f, aff_bits(b)));
}

/*
 * The affiliations worth giving card x: one per class of affiliations
 * every other card sees alike.  A class alike to x's own affiliation
 * changes nothing but Thought Maker's 5; it is offered only if
 * `noop_too` (without the Ship, which is the cheapest such target).
 */
int
stm_thought_affiliations(const struct hand *h, int x, int noop_too, int *out)
{
	int i, n = 0;

	if (noop_too && h->tm_noop[x] != 0)
		out[n++] = h->tm_noop[x];
	for (i = 0; i < h->tm_naffs[x]; i++)
		out[n++] = h->tm_affs[x][i];
	return n;
}

/* Fill h->tm_affs[], h->tm_noop[] for every card Thought Maker may
 * change (see stm_thought_affiliations()). */
void
stm_hand_thought_options(struct hand *h)
{
	unsigned m;
	int x, own, a, i, n;

	for (m = h->tm_targets; m != 0; m &= m - 1) {
		x = __builtin_ctz(m);
		own = stm_cards[h->card[x]].affiliation;
		n = 0;
		h->tm_noop[x] = 0;
		for (a = STM_A_FED; a <= STM_A_HOS; a++) {
			if (a == own)
				continue;
			if (own != STM_A_NONE &&
			    same_affiliation_effect(h, x, a, own)) {
				if (h->tm_noop[x] == 0)
					h->tm_noop[x] = a;
				continue;
			}
			for (i = 0; i < n; i++)
				if (same_affiliation_effect(h, x, a,
				    h->tm_affs[x][i]))
					break;
			if (i == n)
				h->tm_affs[x][n++] = a;
		}
		h->tm_naffs[x] = n;
	}
}

