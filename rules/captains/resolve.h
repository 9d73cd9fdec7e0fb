/*
 * resolve.h -- inside the Captain's Chair engine: the context an effect
 * resolves in, shared by effects.c (one entry per keyword), table.c
 * (resources, glory, drawing, control) and turn.c (steps and phases).
 *
 * Contract: every function returning int answers 0 on success or -1 with
 * a refusal written in c->lang into c->err; on a refusal the state may be
 * half changed, which is why check() runs on a copy.
 */
#ifndef CAPTAINS_ENGINE_H
#define CAPTAINS_ENGINE_H

#include "state.h"

struct cc_ctx {
	struct cc_state	*s;
	struct rules_rng *rng;		/* NULL while checking */
	enum rules_lang	 lang;
	char		*err;
	size_t		 errlen;
	int		 in_passive;	/* no passive fires inside another */
};

/* Where "this card" lies while its operation resolves. */
struct cc_src {
	int	seat;
	int	card;
	int	zone;		/* enum cc_zone_id, or -1: the staging area */
	int	slot;		/* index in the zone */
	int	duplicated;	/* resolving a copy: "this card" is ignored */
};

/* The target a step names: a card kind, or a market deck. */
struct cc_aim {
	int	card;		/* kind, or -1 */
	int	deck;		/* market suit for "deck SUIT", -2 none, -1 any */
	int	to_deck;	/* a gained card goes onto the deck (GAIN,
				 * SCAN: "sur votre deck", line 187) */
};

/* Write a refusal in c->lang (en and fr take the same arguments). */
int	cc_refuse(struct cc_ctx *c, const char *en, const char *fr, ...);

/* table.c */
int	cc_pay(struct cc_ctx *c, int seat, int resource, int amount);
int	cc_pay_cost(struct cc_ctx *c, int seat, const int cost[2]);
void	cc_gain_glory(struct cc_state *s, int seat, int n);
void	cc_draw(struct cc_ctx *c, int seat, int n);
void	cc_take(struct cc_ctx *c, int seat, int suit);
int	cc_secured(const struct cc_state *s, int seat, int k);
void	cc_take_control(struct cc_ctx *c, int seat, int k);
int	cc_take_location(struct cc_ctx *c, int seat, int k);
void	cc_glory_to_offer(struct cc_state *s, int k);
void	cc_refill_offer(struct cc_state *s, int k);
void	cc_slot_to_pile(struct cc_state *s, int seat, int zone, int i,
	    struct cc_pile *dest);
int	cc_in_play_count(const struct cc_state *s, int seat, int suit,
	    int trait, int skills);
void	cc_fire(struct cc_ctx *c, int seat, enum cc_trigger on);

/* turn.c: a public phrase added to what the move did (describe_last). */
void	cc_note(struct cc_state *s, const char *en, const char *fr);
/* turn.c: a STARDATE's wipes; the end of a turn (the last turns, the
 * next seat, its RESUPPLY). */
void	cc_wipe(struct cc_state *s, const struct cc_stardate *sd);
void	cc_next_turn(struct cc_ctx *c);

/* effects.c: a gained card into seat's discard, or onto its deck when
 * the step said "to deck" (GAIN, SCAN: the player's choice, line 187);
 * the PASSIVEs on gain_card fire. */
void	cc_gained(struct cc_ctx *c, int seat, int card,
	    const struct cc_aim *aim);

/* scan.c: SCAN # OF SUIT looks at the top cards of a market deck (the
 * seat alone sees them) and waits for the pick; cc_pick takes one of
 * them, or the offer of that suit, and puts the others under the deck. */
int	cc_scan(struct cc_ctx *c, int seat, const struct cc_effect *e,
	    const struct cc_aim *aim);
int	cc_pick(struct cc_ctx *c, int seat, int card, const struct cc_aim *aim);

/* effects.c: resolve operation opi of the source card; aim is the
 * target the step named (for the one effect that takes one). */
int	cc_resolve(struct cc_ctx *c, struct cc_src *src, int opi,
	    const struct cc_aim *aim);
/* The same for an operation that is no card's (a mission's reward). */
int	cc_resolve_op(struct cc_ctx *c, struct cc_src *src,
	    const struct cc_op *op, const struct cc_aim *aim);

/* turn.c: add to what the last move did, in both languages. */
void	cc_say(struct cc_state *s, const char *en, const char *fr,
	    const char *name_en, const char *name_fr);

/* missions.c: complete every mission of seat whose goal is met (seed
 * lines 137-139, 268-272): its reward resolves, the beamed cards that
 * made up the goal are dismissed, a Mission Completed token marks it. */
void	cc_check_missions(struct cc_ctx *c, int seat);
/* The effects of an attack, against the defender, after the window. */
void	cc_resolve_attack(struct cc_ctx *c, int card, int opi,
	    const int *discards, int ndiscards);

#endif
