/*
 * eve.h -- Enterprise vs Excelsior, the module's private header.
 *
 * What the module promises (see docs/eve.md for the rules as played):
 *   - A turn is one message: a list of steps.  eve_run_turn() plays the
 *     steps on a state; check() runs it on a copy with no random stream
 *     and apply() runs it on the real state only after check() passed,
 *     so a turn is applied whole or not at all.
 *   - Player cards are numbered 0..32 per player and travel cards 0..39;
 *     every card is always in exactly one place (eve_conserved()).
 *   - Nothing here keeps global mutable state; all randomness comes from
 *     the struct rules_rng given to setup() and apply().
 *
 * Files: cards.c (card data and names), parse.c (text -> steps), turn.c
 * (the steps), stage.c (row dealing, refill, stage end, scoring),
 * expert.c (ship tracks, dice, space effects), state.c (save/load),
 * view.c (views, legal moves, move forms, the last turn described),
 * eve.c (the module table).
 */
#ifndef PBEM_EVE_H
#define PBEM_EVE_H

#include <stdarg.h>

#include "rules.h"

#define EVE_SEATS	2
#define EVE_DECK	33	/* cards in each player's deck */
#define EVE_HAND	5
#define EVE_TRAVEL	40
#define EVE_ROW		9	/* travel cards dealt per stage */
#define EVE_STARFLEET	6
#define EVE_WIN		12
#define EVE_PER_TURN	3	/* cards from hand, and from the reserve */
#define EVE_MAXSTEPS	16
#define EVE_TRACK_START	5
#define EVE_TRACK_MAX	10

/*
 * Rules versions (the "version" key of the saved state; absent = 1).
 * setup() makes EVE_RULES_VERSION games; a game keeps the version it was
 * created with, so a recorded game replays with the rules it was played
 * under.  Version 2 (docs/eve.md, "Rules versions"): a joker only without
 * the matching card, expert space effects whether or not the ship moved,
 * the expert Klingon fight as a choice, Neutral Zone may discard the
 * row's last card.  Version 3 plays as version 2 and adds to the state
 * what the views tell a player by mail: each seat's last turn and how
 * the last stage to end was scored (struct eve_turn, eve_stage_score);
 * older states save without them, so they hash as they always did.
 */
#define EVE_RULES_VERSION 3

/* Travel types (kinds 0..4 are also the flight cards), then Spock cards. */
enum eve_kind {
	K_NEBULA, K_ASTEROID, K_CLASSM, K_BLACKHOLE, K_IONSTORM,
	K_BRIEFING, K_RETREAT, K_NEUTRAL, K_MIRROR,
	K_NKINDS
};
#define EVE_NTYPES	5
#define EVE_SPOCK	5	/* a Starfleet symbol: any Spock card */

/* Ship tracks in expert mode. */
enum eve_track { T_TORPEDO, T_DILITHIUM, T_HULL, T_SHIELD, T_NTRACKS };

enum eve_mode { MODE_BASE, MODE_EXPERT };

/* Where a card in a step comes from. */
enum eve_src { SRC_HAND, SRC_RESERVE };

/* The operations a step can be (their names are the JSON "op"). */
enum eve_op {
	OP_FLY, OP_JOKER, OP_STARFLEET, OP_DISCARD, OP_RESERVE,
	OP_RETREAT_FWD, OP_RETREAT_BACK, OP_NZ_KLINGON, OP_NZ_DISCARD,
	OP_MIRROR_TURN, OP_MIRROR_SWAP, OP_BRIEF_EXTEND, OP_BRIEF_ORDER,
	OP_EXTEND, OP_TRADE, OP_FIGHT, OP_NOPS
};

struct eve_player {
	int	deck[EVE_DECK], ndeck;		/* top is deck[ndeck-1] */
	int	hand[EVE_DECK], nhand;
	int	reserve[EVE_DECK], nreserve;	/* top is reserve[nreserve-1] */
	int	discard[EVE_DECK], ndiscard;
	int	fleet[EVE_DECK], nfleet;	/* played to Starfleet */
	int	pos;				/* -1: before the row */
	int	score;
	int	track[T_NTRACKS];		/* expert mode only */
	int	destroyed;
};

/* One parsed step. */
struct eve_step {
	int	op;
	int	ncards;
	int	kind[2], src[2];
	int	nargs;
	int	arg[EVE_DECK];
};

/* The last turn a seat played, as its steps (version 3 on). */
struct eve_turn {
	int		nsteps;		/* -1: the seat has not played yet */
	struct eve_step	steps[EVE_MAXSTEPS];
};

/* How the last stage to end was scored (version 3 on; eve_end_stage). */
struct eve_stage_score {
	int	stage;			/* 0: no stage has ended yet */
	int	finisher;		/* seat whose ship reached the end */
	int	distance;		/* its points: spaces to the other ship */
	int	fleet[EVE_SEATS];	/* Starfleet cards played, per seat;
					 * more scored 3, a tie nothing */
};

struct eve {
	int	version;		/* rules version, 1 to 3 */
	int	mode;
	int	stage;			/* 1, 2, ... */
	int	current;		/* seat to play */
	int	over;
	int	winner;			/* -1: none (or not over) */
	int	last_finisher;		/* finisher of the last stage, or -1 */
	int	row[EVE_TRAVEL], flip[EVE_TRAVEL], nrow;
	int	tdeck[EVE_TRAVEL], ntdeck;	/* top is tdeck[ntdeck-1] */
	int	tdiscard[EVE_TRAVEL], ntdiscard;
	int	starfleet;		/* revealed Starfleet card, 0..5 */
	int	kl_pos, kl_route;	/* Klingon; kl_pos -1: beside the row */
	struct eve_player p[EVE_SEATS];
	struct eve_turn	last[EVE_SEATS];	/* version 3 on */
	struct eve_stage_score scored;		/* version 3 on */
};

/* eve.c: the module table; bot.c: bot_move (rules.h), the turn that
 * leaves the seat best placed on the public table. */
extern const struct rules_module eve_module;
enum rules_status eve_bot_move(const void *state, int seat, int level,
		    struct rules_rng *rng, char *out, size_t outlen);

/* cards.c */
int		 eve_kind(int card);
const char	*eve_kind_name(int kind, enum rules_lang lang);
int		 eve_travel_half(int tcard, int side);
int		 eve_space(const struct eve *g, int i, int route);
int		 eve_sf_matches(int sfcard, int kind);
const char	*eve_track_name(int track, enum rules_lang lang);
const char	*eve_sf_symbol_name(int sfcard, int which,
		    enum rules_lang lang);
const char	*eve_route_name(int route);
const char	*eve_ship_name(int seat);
int		 eve_match_kind(const char *const *w, int n, int *used);
int		 eve_nearest_kind(const char *const *w, int n);
int		 eve_match_track(const char *word);
void		 eve_err(char *err, size_t errlen, enum rules_lang lang,
		    const char *en, const char *fr, ...)
		    __attribute__((format(printf, 4, 6)));

/* parse.c */
int		 eve_parse_turn(const char *text, struct eve_step *steps,
		    int *nsteps, enum rules_lang lang, char *err,
		    size_t errlen);
json_t		*eve_steps_json(const struct eve_step *steps, int n);
int		 eve_steps_from_json(const json_t *move, struct eve_step *steps,
		    int *n);
const char	*eve_op_name(int op);
int		 eve_steps_text(const struct eve_step *steps, int n,
		    enum rules_lang lang, char *buf, size_t len);
int		 eve_steps_public_text(const struct eve_step *steps, int n,
		    enum rules_lang lang, char *buf, size_t len);

/* turn.c */
enum rules_status eve_run_turn(struct eve *g, int seat,
		    const struct eve_step *steps, int n, struct rules_rng *rng,
		    enum rules_lang lang, char *err, size_t errlen);

/* stage.c */
void		 eve_deal_row(struct eve *g);
void		 eve_refill(struct eve *g, int seat, struct rules_rng *rng);
void		 eve_new_stage(struct eve *g, int first, struct rules_rng *rng);
void		 eve_end_stage(struct eve *g, int finisher,
		    struct rules_rng *rng);
int		 eve_conserved(const struct eve *g);

/* expert.c */
void		 eve_expert_init(struct eve *g);
void		 eve_expert_damage(struct eve_player *pl, int n);
void		 eve_expert_fight(struct eve *g, int seat,
		    struct rules_rng *rng);
void		 eve_expert_end_turn(struct eve *g, int seat, int trade_from,
		    int trade_to, struct rules_rng *rng);
void		 eve_expert_outcome(struct eve *g);

/* state.c */
json_t		*eve_save(const void *state);
void		*eve_load(const json_t *saved, char *err, size_t errlen);

/* view.c */
json_t		*eve_view(const void *state, int viewer);
json_t		*eve_legal_moves(const void *state, int seat);
json_t		*eve_move_forms(const void *state, int seat,
		    enum rules_lang lang);
enum rules_status eve_describe_last(const void *state, int seat,
		    const char *const *names, enum rules_lang lang, char *out,
		    size_t outlen);

#endif /* PBEM_EVE_H */
