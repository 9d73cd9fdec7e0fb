/*
 * missions.c -- a captain's missions (seed lines 137-139, 264-274): each
 * goal is checked against what the seat has in play, and a mission whose
 * goal is met is completed at once: its reward resolves, the beamed cards
 * that made up the goal are dismissed, a Mission Completed token marks it.
 * A mission completes once a game.
 */
#include <stdio.h>
#include <string.h>

#include "solo.h"

/* A card seat has in play (seed "In Play", lines 460-467): the staging
 * area, the table zones, and the cards beamed under table cards. */
struct placed {
	int	card;
	int	zone;		/* enum cc_zone_id, or -1: staging area */
	int	slot;
	int	beam;		/* index under the slot's card, or -1 */
};

static int
in_play(const struct cc_state *s, int seat, struct placed *out)
{
	const struct cc_seat *p = &s->seat[seat];
	int n = 0;

	for (int i = 0; i < p->staging.n; i++)
		out[n++] = (struct placed){ p->staging.card[i], -1, i, -1 };
	for (int z = 0; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n; i++) {
			const struct cc_slot *sl = &p->zone[z].s[i];
			out[n++] = (struct placed){ sl->card, z, i, -1 };
			for (int b = 0; b < sl->nbeam; b++)
				out[n++] = (struct placed){ sl->beam[b], z, i,
				    b };
		}
	return n;
}

static int
fits(const struct cc_set *set, const struct cc_goal *g,
    const struct placed *at)
{
	const struct cc_card *k = &set->card[at->card];
	int trait = g->trait < 0 || k->wildcard;

	for (int t = 0; t < k->ntraits; t++)
		trait |= k->trait[t] == g->trait;
	if (g->beamed && at->beam < 0)
		return 0;
	if (g->suits != 0 && !(g->suits & (1 << k->suit)))
		return 0;
	/* a beamed card shows its FOCUS icon, not its SKILL (line 361) */
	if (g->icon >= 0 && k->focus[g->icon] == 0 &&
	    (at->beam >= 0 || k->skill[g->icon] == 0))
		return 0;
	return trait;
}

/* Does seat meet the goal of mission m?  Marks in used[] the beamed
 * cards that make it up: cards not beamed count first (reading: the
 * seed dismisses only the beamed cards that contributed, line 271). */
static int
goal_met(const struct cc_state *s, int seat, const struct cc_mission *m,
    const struct placed *cards, int n, int *used)
{
	const struct cc_seat *p = &s->seat[seat];

	memset(used, 0, sizeof(int) * (size_t)n);
	for (int gi = 0; gi < m->ngoals; gi++) {
		const struct cc_goal *g = &m->goal[gi];
		int have = 0;

		if (g->kind == CC_GOAL_TRACK) {
			if (p->track[g->track] < g->at_least)
				return 0;
			continue;
		}
		for (int i = 0; i < n && have < g->at_least; i++)
			have += cards[i].beam < 0 && fits(s->set, g, &cards[i]);
		for (int i = 0; i < n && have < g->at_least; i++)
			if (cards[i].beam >= 0 && fits(s->set, g, &cards[i])) {
				used[i] = 1;
				have++;
			}
		if (have < g->at_least)
			return 0;
	}
	return 1;
}

static const struct cc_card *
captain_of(const struct cc_state *s, int seat)
{
	return &s->set->card[s->seat[seat].zone[CC_Z_CAPTAIN].s[0].card];
}

int
cc_goal_met(const struct cc_state *s, int seat, int m)
{
	struct placed cards[CC_COPIES_MAX];
	int used[CC_COPIES_MAX];
	int n = in_play(s, seat, cards);

	return goal_met(s, seat, &captain_of(s, seat)->mission[m], cards, n,
	    used);
}

/* The beamed cards marked in used[] go to seat's discard (dismissed);
 * taken from the last, so the places of the others hold. */
static void
dismiss_used(struct cc_state *s, int seat, const struct placed *cards,
    int n, const int *used)
{
	struct cc_seat *p = &s->seat[seat];

	for (int i = n - 1; i >= 0; i--) {
		struct cc_slot *sl;
		if (!used[i])
			continue;
		sl = &p->zone[cards[i].zone].s[cards[i].slot];
		pile_push(&p->discard, sl->beam[cards[i].beam]);
		memmove(&sl->beam[cards[i].beam], &sl->beam[cards[i].beam + 1],
		    (size_t)(sl->nbeam - cards[i].beam - 1) * sizeof(int));
		sl->nbeam--;
	}
}

/* In the last move's words; the captain is named, as a turn's start
 * completes the missions of a seat that did not send the message. */
static void
said(struct cc_state *s, const struct cc_card *cap,
    const struct cc_mission *mi)
{
	char en[CC_LAST_LEN], fr[CC_LAST_LEN];

	snprintf(en, sizeof(en), "mission %s of %s completed", mi->name,
	    cap->name);
	snprintf(fr, sizeof(fr), "%s : mission %s accomplie", cap->name_fr,
	    mi->name_fr);
	cc_say(s, en, fr, NULL, NULL);
}

void
cc_check_missions(struct cc_ctx *c, int seat)
{
	struct cc_state *s = c->s;
	const struct cc_card *cap = captain_of(s, seat);
	struct placed cards[CC_COPIES_MAX];
	int used[CC_COPIES_MAX], again = 1;

	if (cc_is_bot(s, seat))
		return;		/* the Bot ignores missions (line 690) */
	while (again && !s->over) {
		again = 0;
		for (int m = 0; m < cap->nmissions && !s->over; m++) {
			const struct cc_mission *mi = &cap->mission[m];
			struct cc_src src = { seat,
			    s->seat[seat].zone[CC_Z_CAPTAIN].s[0].card,
			    CC_Z_CAPTAIN, 0, 1 };
			int n;

			if (s->seat[seat].missions_done & (1 << m))
				continue;
			n = in_play(s, seat, cards);
			if (!goal_met(s, seat, mi, cards, n, used))
				continue;
			/* The reward chooses nothing and touches no table
			 * card (cards.c), so the beamed cards may leave
			 * first; the outcome is the seed's order. */
			dismiss_used(s, seat, cards, n, used);
			s->seat[seat].missions_done |= 1 << m;
			said(s, cap, mi);
			(void)cc_resolve_op(c, &src, &mi->reward, NULL);
			again = 1;
		}
	}
}
