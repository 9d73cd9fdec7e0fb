/*
 * solo_value.c -- the value of a card (seed lines 697-710) and every
 * choice the Bot makes with it: which market offer it gains (748-758),
 * which it junks (766) or puts its clean-up glory on (4.3), which
 * location it controls (2.1), where its away teams (770-776) and ships
 * (778-785) go.  Ties always fall to the leftmost card or slot.
 */
#include "solo.h"

static int
has_endgame(const struct cc_card *k)
{
	for (int o = 0; o < k->nops; o++)
		if (k->op[o].kind == CC_ENDGAME)
			return 1;
	return 0;
}

/* VP, +5 for an ENDGAME whatever its text, +1 a glory on it, and its
 * FOCUS icons at seat's multipliers (line 704; line 710: the person's
 * own tracks when the card is valued for the person). */
int
cc_value(const struct cc_state *s, int seat, int card, int glory)
{
	const struct cc_card *k = &s->set->card[card];

	return k->vp + (has_endgame(k) ? 5 : 0) + glory +
	    cc_focus_value(s, seat, card);
}

int
cc_term_on(const struct cc_set *set, const struct cc_term *t, int card)
{
	const struct cc_card *k = &set->card[card];

	switch (t->kind) {
	case CC_TERM_SUIT:
		return (int)k->suit == t->value;
	case CC_TERM_SKILL:
		return k->skill[t->value] > 0;
	default:
		for (int i = 0; i < k->ntraits; i++)
			if (k->trait[i] == t->value)
				return 1;
		return k->wildcard;
	}
}

static int
group_on(const struct cc_set *set, const struct cc_expr *e, int g, int card)
{
	for (int i = 0; i < e->nterms[g]; i++)
		if (cc_term_on(set, &e->term[g][i], card))
			return 1;
	return 0;
}

/* "A > B": the first group any offer carries; "A / B": the most valuable
 * offer with any term; ties: most tokens on it, then the leftmost.  Only
 * face-up offers: the Bot never gains from a market deck (line 758). */
int
cc_bot_offer_for(const struct cc_state *s, const struct cc_expr *e)
{
	for (int g = 0; g < e->ngroups; g++) {
		int best = -1, bv = 0;
		for (int k = 0; k < CC_MARKET_SUITS; k++) {
			int v;
			if (s->offer[k] < 0 || !group_on(s->set, e, g,
			    s->offer[k]))
				continue;
			v = cc_value(s, s->bot_seat, s->offer[k],
			    s->offer_glory[k]);
			if (best < 0 || v > bv || (v == bv &&
			    s->offer_glory[k] > s->offer_glory[best])) {
				best = k;
				bv = v;
			}
		}
		if (best >= 0)
			return best;
	}
	return -1;
}

/* Line 766: the offer of most value for the person (FOCUS at the
 * person's multipliers, line 710), with no token on it. */
int
cc_bot_junk_offer(const struct cc_state *s)
{
	int best = -1, bv = 0;

	for (int k = 0; k < CC_MARKET_SUITS; k++) {
		int v;
		if (s->offer[k] < 0 || s->offer_glory[k] > 0)
			continue;
		v = cc_value(s, 1 - s->bot_seat, s->offer[k], 0);
		if (best < 0 || v > bv) {
			best = k;
			bv = v;
		}
	}
	return best;
}

/* 4.3: the offer of least value for the person; ties: fewest resources
 * on it, then the leftmost. */
int
cc_bot_cleanup_offer(const struct cc_state *s)
{
	int best = -1, bv = 0;

	for (int k = 0; k < CC_MARKET_SUITS; k++) {
		int v;
		if (s->offer[k] < 0)
			continue;
		v = cc_value(s, 1 - s->bot_seat, s->offer[k],
		    s->offer_glory[k]);
		if (best < 0 || v < bv || (v == bv &&
		    s->offer_glory[k] < s->offer_glory[best])) {
			best = k;
			bv = v;
		}
	}
	return best;
}

/* 2.1: of the locations it has secured, the most valuable. */
int
cc_bot_control_slot(const struct cc_state *s)
{
	int best = -1, bv = 0;

	for (int k = 0; k < CC_NEUTRAL; k++) {
		int v;
		if (!cc_secured(s, s->bot_seat, k))
			continue;
		v = cc_value(s, s->bot_seat, s->neutral[k], 0);
		if (best < 0 || v > bv) {
			best = k;
			bv = v;
		}
	}
	return best;
}

/* Line 770: never a slot where it has one token more than it needs
 * (3 at least and 3 more than the person). */
static int
oversecured(const struct cc_state *s, int k)
{
	int mine = cc_tokens(s, s->bot_seat, k);

	return mine >= 3 && mine >= cc_tokens(s, 1 - s->bot_seat, k) + 3;
}

static int
location_has_trait(const struct cc_state *s, int k, int trait)
{
	struct cc_term t = { CC_TERM_TRAIT, trait };

	return cc_term_on(s->set, &t, s->neutral[k]);
}

/* A slot an away team may go to (lines 774-776). */
static int
team_may_go(const struct cc_state *s, int k, int except)
{
	int bot = s->bot_seat;

	return k != except && s->neutral[k] >= 0 && !cc_secured(s, bot, k) &&
	    !oversecured(s, k) && cc_ships_at(s, 1 - bot, k) <=
	    cc_ships_at(s, bot, k);
}

/* The slot with the most of its tokens, then the most valuable, then
 * the leftmost; only slots with trait when one is named and any has it. */
static int
team_destination(const struct cc_state *s, int trait, int except)
{
	int best = -1, bt = 0, bv = 0, want = 0;

	for (int k = 0; trait >= 0 && k < CC_NEUTRAL; k++)
		if (team_may_go(s, k, except) && location_has_trait(s, k,
		    trait))
			want = 1;
	for (int k = 0; k < CC_NEUTRAL; k++) {
		int t, v;
		if (!team_may_go(s, k, except) || (want &&
		    !location_has_trait(s, k, trait)))
			continue;
		t = cc_tokens(s, s->bot_seat, k);
		v = cc_value(s, s->bot_seat, s->neutral[k], 0);
		if (best < 0 || t > bt || (t == bt && v > bv)) {
			best = k;
			bt = t;
			bv = v;
		}
	}
	return best;
}

int
cc_bot_team_slot(const struct cc_state *s, int trait, int *from)
{
	const struct cc_seat *b = &s->seat[s->bot_seat];
	int bt = 0, bv = 0;

	*from = -1;
	if (cc_teams_free(s, s->bot_seat) > 0)
		return team_destination(s, trait, -1);
	/* None left on the captain: the one on the slot where it has the
	 * fewest tokens (ties: the least valuable for it). */
	for (int k = 0; k < CC_NEUTRAL; k++) {
		int t, v;
		if (b->teams_at[k] == 0 || s->neutral[k] < 0)
			continue;
		t = cc_tokens(s, s->bot_seat, k);
		v = cc_value(s, s->bot_seat, s->neutral[k], 0);
		if (*from < 0 || t < bt || (t == bt && v < bv)) {
			*from = k;
			bt = t;
			bv = v;
		}
	}
	return *from < 0 ? -1 : team_destination(s, trait, *from);
}

/* Explore: the fewest tokens in all; engage: the most of the person's;
 * ties: the most valuable, then the leftmost. */
int
cc_bot_ship_slot(const struct cc_state *s, int explore)
{
	int best = -1, bt = 0, bv = 0, human = 1 - s->bot_seat;

	for (int k = 0; k < CC_NEUTRAL; k++) {
		int t, v;
		if (s->neutral[k] < 0 || oversecured(s, k))
			continue;
		t = explore ? -(cc_tokens(s, 0, k) + cc_tokens(s, 1, k)) :
		    cc_tokens(s, human, k);
		v = cc_value(s, s->bot_seat, s->neutral[k], 0);
		if (best < 0 || t > bt || (t == bt && v > bv)) {
			best = k;
			bt = t;
			bv = v;
		}
	}
	return best;
}

static int
endgame_ops(const struct cc_set *set, int card)
{
	int n = 0;

	for (int o = 0; o < set->card[card].nops; o++)
		n += set->card[card].op[o].kind == CC_ENDGAME;
	return n;
}

/* The Bot's final score (lines 687-693): the shared score, but 5 VP for
 * each ENDGAME operation it owns whatever its text and wherever the card
 * lies (its captain's too), and 1 VP for every 2 dilithium and latinum. */
int
cc_bot_score(const struct cc_state *s, int seat, json_t *breakdown)
{
	const struct cc_seat *p = &s->seat[seat];
	const struct cc_pile *piles[5] = { &p->deck, &p->hand, &p->discard,
		&p->staging, &p->log };
	int score = cc_score(s, seat, breakdown), endgame = 0, shared = 0;
	json_t *parts = json_object_get(breakdown, "score");

	if (parts != NULL)
		shared = (int)json_integer_value(json_object_get(parts,
		    "endgame"));
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < piles[i]->n; j++)
			endgame += endgame_ops(s->set, piles[i]->card[j]);
	for (int z = 0; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n; i++) {
			const struct cc_slot *sl = &p->zone[z].s[i];
			endgame += endgame_ops(s->set, sl->card);
			for (int b = 0; b < sl->nbeam; b++)
				endgame += endgame_ops(s->set, sl->beam[b]);
		}
	score += 5 * endgame - shared +
	    (p->res[CC_DILITHIUM] + p->res[CC_LATINUM]) / 2;
	if (parts != NULL)
		json_object_set_new(parts, "endgame", json_integer(5 *
		    endgame));
	return score;
}
