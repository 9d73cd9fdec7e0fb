/*
 * score.c -- the final score (seed, SCORE FINAL): glory, tokens on
 * Neutral Zone locations, ENDGAME operations of the captain and the
 * controlled locations, every card's VP (log and beamed cards included;
 * reserve and development removed first), SPECIAL operations, and
 * the FOCUS icons when a mission is completed.  WILDCARD traits never
 * count for a score.
 */
#include <string.h>

#include "solo.h"

struct owned {
	int	n;
	int	card[CC_PILE_MAX];
};

static void
add_pile(struct owned *o, const struct cc_pile *p)
{
	for (int i = 0; i < p->n && o->n < CC_PILE_MAX; i++)
		o->card[o->n++] = p->card[i];
}

/* Every card seat owns, reserve and development left out. */
static void
owned_cards(const struct cc_state *s, int seat, struct owned *o)
{
	const struct cc_seat *p = &s->seat[seat];

	o->n = 0;
	add_pile(o, &p->deck);
	add_pile(o, &p->hand);
	add_pile(o, &p->discard);
	add_pile(o, &p->staging);
	add_pile(o, &p->log);
	for (int z = 0; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n; i++) {
			const struct cc_slot *sl = &p->zone[z].s[i];
			if (o->n < CC_PILE_MAX)
				o->card[o->n++] = sl->card;
			for (int b = 0; b < sl->nbeam && o->n < CC_PILE_MAX;
			    b++)
				o->card[o->n++] = sl->beam[b];
		}
}

static int
score_effect(const struct cc_set *set, const struct cc_effect *e,
    const struct owned *o)
{
	int per = 0;

	if (e->per_suit < 0 && e->per_trait < 0)
		return e->amount;
	for (int i = 0; i < o->n; i++) {
		const struct cc_card *k = &set->card[o->card[i]];
		int trait = 0;
		for (int t = 0; t < k->ntraits; t++)
			trait |= k->trait[t] == e->per_trait;
		if ((e->per_suit < 0 || (int)k->suit == e->per_suit) &&
		    (e->per_trait < 0 || trait))
			per++;
	}
	return e->amount * per;
}

static int
ops_score(const struct cc_set *set, int card, enum cc_opkind kind,
    const struct owned *o)
{
	const struct cc_card *k = &set->card[card];
	int n = 0;

	for (int op = 0; op < k->nops; op++)
		if (k->op[op].kind == kind)
			for (int e = 0; e < k->op[op].neffects; e++)
				n += score_effect(set, &k->op[op].effect[e], o);
	return n;
}

int
cc_missions_done(const struct cc_state *s, int seat)
{
	int n = 0;

	for (int m = 0; m < CC_MISSIONS_MAX; m++)
		n += (s->seat[seat].missions_done >> m) & 1;
	return n;
}

/* Each FOCUS icon of a card is worth to seat the multiplier of the last
 * box its track reached on seat's captain (seed lines 224, 301, 704). */
int
cc_focus_value(const struct cc_state *s, int seat, int card)
{
	const struct cc_seat *p = &s->seat[seat];
	const struct cc_card *cap =
	    &s->set->card[p->zone[CC_Z_CAPTAIN].s[0].card];
	int points = 0;

	for (int t = 0; t < CC_NTRACKS; t++)
		points += s->set->card[card].focus[t] *
		    cap->multiplier[p->track[t]];
	return points;
}

/* The FOCUS icons of every card seat owns. */
int
cc_focus_points(const struct cc_state *s, int seat)
{
	struct owned o;
	int points = 0;

	owned_cards(s, seat, &o);
	for (int i = 0; i < o.n; i++)
		points += cc_focus_value(s, seat, o.card[i]);
	return points;
}

int
cc_score(const struct cc_state *s, int seat, json_t *breakdown)
{
	const struct cc_seat *p = &s->seat[seat];
	struct owned o;
	int glory = p->res[CC_GLORY], tokens = 0, endgame = 0, cards = 0,
	    special = 0, missions = cc_missions_done(s, seat);
	/* the captain board's advanced side: VP per mission (line 309) */
	int mission_vp = missions *
	    s->set->card[p->zone[CC_Z_CAPTAIN].s[0].card].mission_vp;
	/* No mission completed: FOCUS is worth nothing (line 274), but
	 * for the Bot, which ignores missions and scores it (line 690). */
	int focus = missions > 0 || cc_is_bot(s, seat) ?
	    cc_focus_points(s, seat) : 0;

	owned_cards(s, seat, &o);
	for (int k = 0; k < CC_NEUTRAL; k++)
		if (s->neutral[k] >= 0)
			tokens += cc_tokens(s, seat, k);
	endgame += ops_score(s->set, p->zone[CC_Z_CAPTAIN].s[0].card,
	    CC_ENDGAME, &o);
	for (int i = 0; i < p->zone[CC_Z_LOCATIONS].n; i++)
		endgame += ops_score(s->set, p->zone[CC_Z_LOCATIONS].s[i].card,
		    CC_ENDGAME, &o);
	for (int i = 0; i < o.n; i++) {
		cards += s->set->card[o.card[i]].vp;
		special += ops_score(s->set, o.card[i], CC_SPECIAL, &o);
	}
	if (breakdown != NULL)
		json_object_set_new(breakdown, "score", json_pack(
		    "{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "glory", glory,
		    "tokens", tokens, "endgame", endgame, "cards", cards,
		    "special", special, "focus", focus, "missions", missions,
		    "incidents", cc_incidents(s, seat)));
	if (breakdown != NULL)
		json_object_set_new(json_object_get(breakdown, "score"),
		    "mission_vp", json_integer(mission_vp));
	return glory + tokens + endgame + cards + special + focus + mission_vp;
}
