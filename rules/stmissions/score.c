/*
 * score.c -- scoring a Star Trek: Missions hand (score.h).
 *
 * The contract is in score.h; docs/stmissions-scoring.md explains every
 * reading of an ambiguous card and maps the files.  This file holds the
 * entry points and the overall pass; score_int.h says what the other
 * pieces do.  A score is found in three steps:
 *
 *  1. The hand.  hand_init() checks the card numbers and the ruleset
 *     version (whose readings of the cards apply), and makes each card
 *     one 64-bit word of features: its types, specialties, lifeforms
 *     and affiliation, plus three derived bits (non-Federation, has a
 *     lifeform, has a lifeform other than Hologram).  A "scene" keeps,
 *     for every bit, the set of hand positions that have it, so "which
 *     cards are FED Personnel" is two lookups and an AND.
 *
 *  2. One configuration.  stm_evaluate() takes the features as chosen
 *     (or superposed, see score_choice.c), resolves blanking to its fixed
 *     point, scores every card (stm_score_card(), score_cards.c), then
 *     Wesley Crusher, Borg Cube's blanked cards and Thought Maker.
 *
 *  3. The holder's choices.  stm_search() (score_choice.c) finds the
 *     Borg Cube blanks, Thought Maker change and Ship declaration
 *     (score_ship.c) that give the highest total; describe() reports
 *     them in English and French.
 *
 * The worst hands (12 cards, every choice card) take well under a
 * millisecond; docs/stmissions-scoring.md has the figures.  Nothing here
 * allocates; all state is on the stack (under 80 KB).
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "score_int.h"

static uint64_t
printed_features(int card)
{
	const struct stm_card *c = &stm_cards[card];

	return features(c->types, c->specialties, c->lifeforms,
	    aff_bits(c->affiliation));
}

void
stm_scene_set(struct scene *s, int pos, uint64_t f)
{
	uint64_t old = s->feat[pos], bits;
	unsigned bit = 1u << pos;

	for (bits = old & ~f; bits != 0; bits &= bits - 1)
		s->pm[__builtin_ctzll(bits)] &= ~bit;
	for (bits = f & ~old; bits != 0; bits &= bits - 1)
		s->pm[__builtin_ctzll(bits)] |= bit;
	s->feat[pos] = f;
}

void
stm_scene_init(struct scene *s, const struct hand *h, const uint64_t *feat)
{
	int i;

	s->h = h;
	memset(s->pm, 0, sizeof(s->pm));
	for (i = 0; i < h->n; i++) {
		s->feat[i] = 0;
		stm_scene_set(s, i, feat[i]);
	}
}

/*
 * Blanking to its fixed point.  Start from "only Borg Cube's blanks" and
 * re-stm_evaluate every "BLANKED unless" against the cards active in the
 * previous round until nothing changes.  In this card set the conditions
 * are layered (Holodeck 1, Holodeck 2 and Computer are never blanked by a
 * condition; Moriarty and Minuet need them; Intruder Alert and Space
 * Confrontation may need Moriarty or Minuet; nothing needs those two), so
 * this settles within three rounds on the only fixed point there is.
 */
unsigned
stm_resolve_blanks(const struct scene *s, unsigned borg)
{
	const struct hand *h = s->h;
	unsigned active, next, m;
	int round, pos;

	active = h->all & ~borg;
	for (round = 0; round <= h->n; round++) {
		next = h->all & ~borg;
		for (m = h->selfblank & ~borg; m != 0; m &= m - 1) {
			pos = __builtin_ctz(m);
			if ((pred_mask(s, &stm_score_rules[h->card[pos]].lift) & active &
			    ~(1u << pos)) == 0)
				next &= ~(1u << pos);
		}
		if (next == active)
			return active;
		active = next;
	}
	assert(!"blanking conditions form a circle");
	return active;
}

/* Leah Brahms is a Hologram while Holodeck 1, 2 or Computer is active. */
void
stm_set_leah_lifeform(struct scene *s, unsigned active, int either)
{
	const struct hand *h = s->h;
	uint64_t f;

	if (h->pos_leah < 0 || (h->leah_sources & active) == 0)
		return;
	f = s->feat[h->pos_leah];
	f |= F_LF(STM_L_HOLOGRAM);
	if (!either)
		f &= ~(F_LF(STM_L_HUMAN) | F_NONHOLO);
	stm_scene_set(s, h->pos_leah, f);
}

void
stm_evaluate(const struct hand *h, const struct config *c, struct result *r)
{
	struct scene s;
	unsigned active, copyable, m;
	int i, best;

	stm_scene_init(&s, h, c->feat);
	active = stm_resolve_blanks(&s, c->borg);
	stm_set_leah_lifeform(&s, active, c->leah_either);
	r->active = active;
	r->plague_lf = -1;
	for (i = 0; i < h->n; i++) {
		r->points[i] = 0;
		if ((active & (1u << i)) != 0)
			r->points[i] = stm_score_card(&s, h->card[i],
			    active & ~(1u << i), &r->plague_lf);
	}
	if (h->pos_wesley >= 0 && (active & (1u << h->pos_wesley)) != 0) {
		copyable = (s.pm[FB_TYPE + __builtin_ctz(STM_T_SYSTEM)] |
		    s.pm[FB_SPEC + __builtin_ctz(STM_S_ENGINEER)]) & active &
		    ~(1u << h->pos_wesley);
		best = 0;
		for (m = copyable; m != 0; m &= m - 1)
			if (r->points[__builtin_ctz(m)] > best)
				best = r->points[__builtin_ctz(m)];
		r->points[h->pos_wesley] = best;
	}
	for (m = c->borg; m != 0; m &= m - 1)
		r->points[__builtin_ctz(m)] = r->points[h->pos_borg];
	if (h->pos_tm >= 0 && (active & (1u << h->pos_tm)) != 0 &&
	    (c->tm_changes & active) != 0)
		r->points[h->pos_tm] = 5;
	r->total = 0;
	for (i = 0; i < h->n; i++)
		r->total += r->points[i];
}

static int
hand_init(struct hand *h, int version, const int *cards, int ncards)
{
	int i, c;

	memset(h, 0, sizeof(*h));
	h->version = version;
	h->pos_us = h->pos_tm = h->pos_borg = -1;
	h->pos_leah = h->pos_wesley = h->pos_plague = -1;
	if (cards == NULL || ncards < 1 || ncards > STM_HAND_MAX ||
	    version < STM_SCORE_V1 || version > STM_SCORE_NEWEST)
		return -1;
	h->n = ncards;
	for (i = 0; i < ncards; i++) {
		c = cards[i];
		if (c < 0 || c >= STM_NCARDS || h->card_bit[c] != 0)
			return -1;
		h->card[i] = c;
		h->card_bit[c] = 1u << i;
		h->printed[i] = printed_features(c);
		h->all |= 1u << i;
		if (!STM_IS_MISSION(c))
			h->galaxy |= 1u << i;
		if (stm_score_rules[c].blanked_unless)
			h->selfblank |= 1u << i;
	}
	for (i = 0; i < ncards; i++) {
		switch (h->card[i]) {
		case STM_C_UNIDENTIFIED_SHIP:
			h->pos_us = i;
			break;
		case STM_C_THOUGHT_MAKER:
			h->pos_tm = i;
			break;
		case STM_C_BORG_CUBE:
			h->pos_borg = i;
			break;
		case STM_C_LEAH_BRAHMS:
			h->pos_leah = i;
			break;
		case STM_C_WESLEY:
			h->pos_wesley = i;
			break;
		case STM_C_MYSTERIOUS_PLAGUE:
			h->pos_plague = i;
			break;
		case STM_C_HOLODECK_1:
		case STM_C_HOLODECK_2:
		case STM_C_COMPUTER:
			h->leah_sources |= 1u << i;
			break;
		default:
			break;
		}
		if ((h->printed[i] & F_HAS_LF) && h->card[i] !=
		    STM_C_THOUGHT_MAKER)
			h->tm_targets |= 1u << i;
	}
	if (h->pos_us >= 0)
		stm_hand_signatures(h);
	return 0;
}

/*
 * The report of the holder's choices.
 */
struct text {
	char	*buf;
	size_t	 len;
	size_t	 used;
};

static void
text_add(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->used + n >= t->len)
		n = t->len - t->used - 1;
	memcpy(t->buf + t->used, s, n);
	t->used += n;
	t->buf[t->used] = '\0';
}

/* Parts are separated by "; " (English) or " ; " (French). */
static void
text_part(struct text *t, int lang)
{
	if (t->used > 0)
		text_add(t, lang == 1 ? " ; " : "; ");
}

static const char *
card_name(int card, int lang)
{
	return lang == 1 ? stm_cards[card].name_fr : stm_cards[card].name_en;
}

static void
describe_borg(const struct hand *h, const struct node *nd, int lang,
    struct text *t)
{
	unsigned m;
	int first = 1;

	text_part(t, lang);
	text_add(t, card_name(STM_C_BORG_CUBE, lang));
	if (nd->borg == 0) {
		text_add(t, lang == 1 ? " ne masque aucune carte" :
		    " blanks no card");
		return;
	}
	text_add(t, lang == 1 ? " masque " : " blanks ");
	for (m = nd->borg; m != 0; m &= m - 1) {
		if (!first)
			text_add(t, lang == 1 ? " et " : " and ");
		text_add(t, card_name(h->card[__builtin_ctz(m)], lang));
		first = 0;
	}
}

/* What Unidentified Ship was declared as; if Thought Maker changed it,
 * its affiliation before the change (any other one). */
static void
describe_ship(const int *us, int lang, int changed, struct text *t)
{
	int aff = us[DIM_AFF];

	if (changed)
		aff = aff == STM_A_FED ? STM_A_KE : STM_A_FED;
	text_part(t, lang);
	text_add(t, card_name(STM_C_UNIDENTIFIED_SHIP, lang));
	text_add(t, lang == 1 ? " : " : ": ");
	text_add(t, stm_type_name(us[DIM_TYPE], lang));
	text_add(t, ", ");
	text_add(t, stm_lifeform_name(us[DIM_LF], lang));
	text_add(t, ", ");
	text_add(t, stm_affiliation_name(aff, lang));
	text_add(t, ", ");
	text_add(t, stm_specialty_name(us[DIM_SPEC], lang));
}

static void
describe_thought(const struct hand *h, const struct node *nd, const int *us,
    int lang, struct text *t)
{
	int aff;

	text_part(t, lang);
	text_add(t, card_name(STM_C_THOUGHT_MAKER, lang));
	if (nd->tm_pos < 0) {
		text_add(t, lang == 1 ? " ne change aucune affiliation" :
		    " changes no affiliation");
		return;
	}
	aff = nd->tm_pos == h->pos_us ? us[DIM_AFF] : nd->tm_aff;
	text_add(t, lang == 1 ? " : " : ": ");
	text_add(t, card_name(h->card[nd->tm_pos], lang));
	text_add(t, lang == 1 ? " devient " : " becomes ");
	text_add(t, stm_affiliation_name(aff, lang));
}

static void
describe(const struct hand *h, const struct search *sr, const struct result *r,
    int lang, char *buf, size_t len)
{
	struct text t = { buf, len, 0 };
	const struct node *nd = &sr->best_node;

	buf[0] = '\0';
	if (h->pos_borg >= 0)
		describe_borg(h, nd, lang, &t);
	if (stm_ship_active(h, nd))
		describe_ship(sr->best_us, lang, nd->tm_pos == h->pos_us, &t);
	if (h->pos_tm >= 0 && !(nd->borg & (1u << h->pos_tm)))
		describe_thought(h, nd, sr->best_us, lang, &t);
	if (h->pos_plague >= 0 && r->plague_lf >= 0) {
		text_part(&t, lang);
		text_add(&t, card_name(STM_C_MYSTERIOUS_PLAGUE, lang));
		text_add(&t, lang == 1 ? " : " : ": ");
		text_add(&t, stm_lifeform_name(r->plague_lf, lang));
	}
}

/*
 * The interface (score.h)
 */
int
stm_score_hand_at(int version, const int *cards, int ncards,
    struct stm_hand_score *out)
{
	struct hand h;
	struct search sr;
	struct result r;
	int i;

	if (out == NULL || hand_init(&h, version, cards, ncards) != 0)
		return -1;
	if (h.pos_tm >= 0)
		stm_hand_thought_options(&h);
	stm_search(&h, &sr, &r);
	memset(out, 0, sizeof(*out));
	out->total = r.total;
	out->ncards = h.n;
	for (i = 0; i < h.n; i++) {
		out->cards[i] = h.card[i];
		out->points[i] = r.points[i];
		out->blanked[i] = !(r.active & (1u << i));
	}
	describe(&h, &sr, &r, 0, out->choices_en, sizeof(out->choices_en));
	describe(&h, &sr, &r, 1, out->choices_fr, sizeof(out->choices_fr));
	return 0;
}

int
stm_score_hand(const int *cards, int ncards, struct stm_hand_score *out)
{
	return stm_score_hand_at(STM_SCORE_NEWEST, cards, ncards, out);
}

json_t *
stm_score_json(const struct stm_hand_score *s, int lang)
{
	json_t *root, *cards, *card;
	int i, c;

	if (s == NULL)
		return NULL;
	root = json_object();
	cards = json_array();
	if (root == NULL || cards == NULL)
		goto fail;
	for (i = 0; i < s->ncards && i < STM_HAND_MAX; i++) {
		c = s->cards[i];
		if (c < 0 || c >= STM_NCARDS)
			goto fail;
		card = json_pack("{s:s, s:s, s:i, s:b}",
		    "id", stm_cards[c].id,
		    "name", card_name(c, lang),
		    "points", s->points[i],
		    "blanked", s->blanked[i] != 0);
		if (card == NULL || json_array_append_new(cards, card) != 0)
			goto fail;
	}
	if (json_object_set_new(root, "total", json_integer(s->total)) != 0 ||
	    json_object_set(root, "cards", cards) != 0 ||
	    json_object_set_new(root, "choices", json_string(lang == 1 ?
	    s->choices_fr : s->choices_en)) != 0)
		goto fail;
	json_decref(cards);
	return root;
fail:
	json_decref(cards);
	json_decref(root);
	return NULL;
}

