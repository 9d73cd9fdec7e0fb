/*
 * state.h -- a Captain's Chair position and the engine that plays it.
 *
 * Contract: a state is plain data (fixed arrays of card kind indexes) plus
 * a pointer to its immutable card set, so it copies with memcpy: check()
 * plays the steps of a message on a copy, apply() on the real state, with
 * the same code (cc_run_steps).  save()/load() write and read the position
 * only; load refuses anything save could not have written.
 */
#ifndef CAPTAINS_STATE_H
#define CAPTAINS_STATE_H

#include "rules.h"
#include "cardset.h"

#define CC_PILE_MAX	CC_COPIES_MAX
#define CC_ZONE_MAX	12	/* cards in a fleet, duty or location zone */
#define CC_BEAM_MAX	6	/* cards beamed under one card */
#define CC_NEUTRAL	3	/* locations in the Neutral Zone */
#define CC_STEPS_MAX	16	/* steps in one message */
#define CC_LAST_LEN	320
#define CC_SCAN_MAX	10	/* cards one SCAN looks at (amount's top) */

struct cc_pile {
	int	n;
	int	card[CC_PILE_MAX];	/* kind indexes, [n-1] is the top */
};

/* A card on the table with a state of its own. */
struct cc_slot {
	int	card;
	int	exhausted;
	int	at;		/* ship token: -1 on the card, else a Neutral slot */
	int	nbeam;
	int	beam[CC_BEAM_MAX];
};

struct cc_zone {
	int		n;
	struct cc_slot	s[CC_ZONE_MAX];
};

/* The zones of play a seat has, for cc_zone_of(). */
enum cc_zone_id { CC_Z_CAPTAIN, CC_Z_DUTY, CC_Z_FLEET, CC_Z_LOCATIONS,
	CC_NZONES };

struct cc_seat {
	struct cc_pile	deck, hand, discard, staging, log, reserve,
			development;
	struct cc_zone	zone[CC_NZONES];
	int		res[CC_NRESOURCES];
	int		actions;
	int		free_plays;
	int		track[CC_NTRACKS];
	int		teams_at[CC_NEUTRAL];
	int		missions_done;	/* bit i: its captain's mission i is
					 * completed (a Mission Completed
					 * token on it) */
	int		nstardates;	/* STARDATE cards handed to this seat */
	int		stardate[CC_STARDATES_MAX];
};

enum cc_phase { CC_PH_CONTROL, CC_PH_ACTION };

/* Who plays: two people, a person against the Bot, or cadet training
 * (one seat; seat 1 is the virtual opponent).  docs/captains.md. */
enum cc_mode { CC_MODE_TWO, CC_MODE_BOT, CC_MODE_CADET };

struct cc_state {
	const struct cc_set *set;
	int		mode;		/* enum cc_mode */
	int		bot_seat;	/* CC_MODE_BOT: the Bot's seat */
	int		level;		/* CC_MODE_BOT: its difficulty, 0-4 */
	int		cadet_wiped;	/* CC_MODE_CADET: wiped this turn */
	int		active;
	int		turn;
	int		phase;
	int		controlled_this_turn;
	int		final_turns;	/* -1, else turns left after this one */
	int		over;
	int		burn;		/* ended by the BURN */
	struct cc_seat	seat[2];
	struct cc_pile	market[CC_MARKET_SUITS];
	int		offer[CC_MARKET_SUITS];		/* kind or -1 */
	int		offer_glory[CC_MARKET_SUITS];
	struct cc_pile	junk, encounter, incident, locations, box;
	int		neutral[CC_NEUTRAL];		/* kind or -1 */
	int		stardate;	/* the STARDATE in play */
	int		stardate_glory;
	int		glory_from_supply;	/* for the glory invariant */
	int		glory_returned;
	/* SCAN # OF SUIT: the cards the active seat looked at, waiting
	 * for its pick (seen by that seat alone), from market deck
	 * scan_suit; -1 when no scan waits. */
	struct cc_pile	scan;
	int		scan_suit;
	/* An ATTACK waiting for the defender's answer. */
	int		pending;
	int		pending_card, pending_op;
	/* What the last move did, public words, for describe_last. */
	char		last_en[CC_LAST_LEN], last_fr[CC_LAST_LEN];
	/* Transient, not saved: set while checking a message when a step
	 * brought cards the player has not seen (draw, shuffle, find). */
	int		unseen;
};

/* A step of a message, as parse() reads it. */
enum cc_verb { V_CONTROL, V_PLAY, V_ACTIVATE, V_END, V_PASS, V_REACT,
	V_DISCARD, V_BOT, V_WIPE, V_PICK };

/* setup, copy, save, load (state.c). */
struct cc_state *cc_new(const struct cc_set *set, struct rules_rng *rng,
		    char *err, size_t errlen);
/* The same for a mode (enum cc_mode); bot_seat and level for the Bot. */
struct cc_state *cc_new_mode(const struct cc_set *set, int mode,
		    int bot_seat, int level, struct rules_rng *rng,
		    char *err, size_t errlen);
json_t	       *cc_save(const struct cc_state *s);
struct cc_state *cc_load(const struct cc_set *set, const json_t *saved,
		    char *err, size_t errlen);

/* Pile helpers (state.c). */
void		pile_push(struct cc_pile *p, int card);
int		pile_pop(struct cc_pile *p);
void		pile_remove_at(struct cc_pile *p, int i);
void		pile_insert_bottom(struct cc_pile *p, int card);
int		pile_find(const struct cc_pile *p, int card);
void		pile_shuffle(struct cc_pile *p, struct rules_rng *rng);
/* Total cards in every place of the game (for the conservation check). */
int		cc_count_cards(const struct cc_state *s);

/* The engine (engine.c).  cc_run_steps plays a parsed message (an array
 * of step objects) for seat; rng NULL means "checking on a copy".
 * Returns RULES_OK or a refusal with err in lang. */
enum rules_status cc_run_steps(struct cc_state *s, int seat,
		    const json_t *steps, struct rules_rng *rng,
		    enum rules_lang lang, char *err, size_t errlen);
/* Start the turn of s->active: refresh nothing, run RESUPPLY. */
void		cc_start_turn(struct cc_state *s, struct rules_rng *rng);
/* Incidents a seat holds (every place but reserve and development). */
int		cc_incidents(const struct cc_state *s, int seat);
/* Final score of seat, and its parts into breakdown (may be NULL). */
int		cc_score(const struct cc_state *s, int seat, json_t *breakdown);
/* Missions seat has completed (its Mission Completed tokens), and the
 * VP its FOCUS icons are worth now, missions or not (score.c). */
int		cc_missions_done(const struct cc_state *s, int seat);
int		cc_focus_points(const struct cc_state *s, int seat);
/* The VP the FOCUS icons of one card are worth to seat now (score.c). */
int		cc_focus_value(const struct cc_state *s, int seat, int card);
/* Is the goal of seat's captain's mission m met now? (missions.c) */
int		cc_goal_met(const struct cc_state *s, int seat, int m);
/* Tokens of seat on Neutral slot k (ships and away teams). */
int		cc_tokens(const struct cc_state *s, int seat, int k);
int		cc_ships_at(const struct cc_state *s, int seat, int k);
/* Away teams of seat still on its captain. */
int		cc_teams_free(const struct cc_state *s, int seat);

/* Card names in a language. */
const char     *cc_name(const struct cc_state *s, int card,
		    enum rules_lang lang);

#endif
