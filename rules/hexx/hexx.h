/*
 * hexx.h -- Mission to Planet Hexx! (issue 18): the module's own types,
 * shared by its files and by tests/check_hexx.c.
 *
 * Contract of the module's parts:
 *   cards.c   reads a card set from a card file (YAML, through the core's
 *             card reader, or the same tree as JSON) and validates it; the
 *             set is immutable afterwards and shared read-only.
 *   board.c   the hex board in axial coordinates: neighbours, borders with
 *             the card's orientation, placement legality, paths, links,
 *             connectivity.  Pure functions of a state.
 *   effects.c the effect vocabulary (docs/hexx-cards.md): runs one card
 *             effect list for a seat; draws randomness only from the rng.
 *   state.c   setup, save/load, to_act, result, hands and the deck.
 *   turn.c    move reading (EN/FR), check, apply, response windows.
 *   view.c    views, move forms, legal moves, default and sample moves,
 *             describe_last, and the board drawing (SVG).
 *   bot.c     the "normal" bot (bot_move): the best-scoring legal move on
 *             a copy of the game with the hidden cards dealt at random.
 * Every state keeps a pointer to its card set and writes card ids only.
 */
#ifndef PBEM_HEXX_H
#define PBEM_HEXX_H

#include <stddef.h>
#include <jansson.h>

#include "rules.h"

#define HEXX_SEATS_MAX		4
#define HEXX_CARDS_MAX		200	/* cards of one set, missions aside */
#define HEXX_MISSIONS_MAX	16
#define HEXX_SLOTS		6	/* cards a Mission needs */
#define HEXX_HAND		6	/* hand size at the end of a turn */
#define HEXX_ACTIONS		3	/* actions a turn */
#define HEXX_TRANSMIT_COST	3	/* data a Transmission spends */
#define HEXX_PATH_MAX		6	/* a die shows at most 6 */
#define HEXX_FX_MAX		4	/* effects in one list of a card */
#define HEXX_ID_MAX		32
#define HEXX_NAME_MAX		64
#define HEXX_TEXT_MAX		400
#define HEXX_RADIUS		12	/* the board fits in this hex radius */
#define HEXX_DATA_TOTAL		150	/* data value of every cube in the box */
#define HEXX_ROUND_LIMIT	40	/* rounds before the game is scored */
#define HEXX_MUCUS_MAX		3	/* Mucus counters one seat may hold */
/* Ruleset versions (rules.h): 1 is the first release; 2 adds not
 * collecting, Event actions played in another's turn, landings by card,
 * replaced schemas, shown hands and finishing the round (docs/hexx.md).
 * A game keeps the version it was set up with. */
#define HEXX_RULESET_1		1
#define HEXX_RULESET		2

/* Card kinds: the five types of the seed's card icons. */
enum hexx_kind {
	HEXX_PLANET = 0,
	HEXX_VOID,
	HEXX_ALIEN,
	HEXX_DILEMMA,
	HEXX_OBJECT,
	HEXX_KINDS,
	HEXX_ANY = HEXX_KINDS	/* "any type of card", in filters only */
};

/* Effect operations: one per keyword or icon of the seed's iconography. */
enum hexx_op {
	HEXX_OP_GAIN = 0,	/* add N to your data base */
	HEXX_OP_SPEND,		/* spend N (all you have if fewer) */
	HEXX_OP_DRAW,		/* draw N cards */
	HEXX_OP_JUNK,		/* top N cards of the deck to the discard */
	HEXX_OP_DISCARD_RANDOM,	/* discard N cards at random */
	HEXX_OP_ACTIONS,	/* gain N actions of any kind */
	HEXX_OP_USE_ACTIONS,	/* lose N of your remaining actions */
	HEXX_OP_PLANET_ADD,	/* add N data to a planet */
	HEXX_OP_PLANET_REMOVE,	/* remove N data from a planet */
	HEXX_OP_COLLECT,	/* collect N data from a planet */
	HEXX_OP_RETURN,		/* reposition the ship on the Space Base */
	HEXX_OP_NO_MOVE,	/* Movement action forbidden next turn */
	HEXX_OP_NO_TRANSMIT,	/* Transmission forbidden next turn */
	HEXX_OP_DELETE,		/* delete the last card of a Mission */
	HEXX_OP_DISINTEGRATE,	/* remove the schema at the target hex */
	HEXX_OP_SHOW_TOP,	/* show the top card of the deck */
	HEXX_OP_ROLL,		/* roll the die; "then" if it shows >= at_least */
	HEXX_OP_COPY,		/* play the top event of the discard again */
	HEXX_OP_CANCEL,		/* cancel the action being answered */
	HEXX_OP_DIE_MOD,	/* add N to the answered Movement's die */
	HEXX_OP_MUCUS,		/* give N Mucus counters */
	HEXX_OP_TRANSMIT,	/* immediate transmission of the "with" card */
	HEXX_OP_EVENT_ACTION,	/* gain N actions that must be Events */
	HEXX_OP_COUNTER,	/* cancel the other Surprises answering */
	HEXX_OP_SHIFT,		/* move the schema at the target hex, with its
				   ships, to the "to" hex */
	HEXX_OP_MOVE_ACTION,	/* gain N actions that must be Movements */
	HEXX_OP_TRANSMIT_ACTION,	/* gain N actions that must be
				   Transmissions */
	HEXX_OP_IF_BASE,	/* "then" if your data base holds >= at_least */
	HEXX_OP_IF_PLANET,	/* "then" if the planet holds >= at_least */
	HEXX_OP_USE_EVENT_ACTION,	/* lose N Event actions (extra Event
				   actions first, then any action) */
	HEXX_OP_LAND,		/* move the ship to a neighbouring planet and
				   land there: it collects (ruleset 2) */
	HEXX_OP_REPLACE,	/* the "with" schema replaces the one at the
				   target hex (ruleset 2) */
	HEXX_OP_SHOW_HAND,	/* the target shows its hand to you
				   (ruleset 2) */
	HEXX_OPS
};

/* Whom an effect touches. */
enum hexx_target {
	HEXX_YOU = 0,
	HEXX_EACH_OPPONENT,	/* every other seat */
	HEXX_NEXT,		/* the seat after you */
	HEXX_ALL,		/* every seat; every planet for planet ops */
	HEXX_TARGETS
};

/* The lists of effects a card may carry (docs/hexx-cards.md). */
enum hexx_list {
	HEXX_ON_PLAY = 0,	/* an event played: its effect */
	HEXX_ON_OR,		/* the alternative after OR */
	HEXX_ON_ENTER,		/* a schema coming into play */
	HEXX_ON_STOP,		/* red: stopping here after moving */
	HEXX_ON_CROSS,		/* orange: crossing edge to other edge */
	HEXX_ON_ENGAGE,		/* green: starting an action here */
	HEXX_ON_COLLECT,	/* blue: the collect option */
	HEXX_LISTS
};

struct hexx_step {
	int	op;		/* enum hexx_op */
	int	n;
	int	target;		/* enum hexx_target */
};

struct hexx_effect {
	struct hexx_step step;
	int	at_least;	/* HEXX_OP_ROLL: the die face needed;
				   HEXX_OP_IF_*: the data needed */
	struct hexx_step then;	/* HEXX_OP_ROLL, _IF_*: what follows */
};

struct hexx_fxlist {
	int	n;
	struct hexx_effect fx[HEXX_FX_MAX];
};

struct hexx_card {
	char	id[HEXX_ID_MAX];
	char	name_en[HEXX_NAME_MAX];
	char	name_fr[HEXX_NAME_MAX];
	char	text_en[HEXX_TEXT_MAX];
	char	text_fr[HEXX_TEXT_MAX];
	int	kind;		/* enum hexx_kind */
	int	surprise;	/* an event playable in others' turns */
	int	start;		/* 1: the Space Base, 2: Delta Colony */
	int	data;		/* a planet's starting data */
	int	borders;	/* bit e: local edge e is a border */
	int	fixed;		/* orientation may not be chosen */
	int	nlinks;		/* linked schemas (both ways) */
	int	links[2];
	int	cost_data;	/* pay to play: data */
	int	cost_actions;	/* pay to play: actions */
	int	cost_discard;	/* pay to play: discard a card of this kind,
				   or -1 */
	int	transmit_cost;	/* optional transmission cost, or -1 */
	int	transmit_as;	/* transmitted as this kind (HEXX_ANY), -1 */
	int	collect_may;	/* blue option is a choice ("you may") */
	struct hexx_fxlist on[HEXX_LISTS];
};

struct hexx_mission_side {
	char	title_en[HEXX_NAME_MAX];
	char	title_fr[HEXX_NAME_MAX];
	int	icon[HEXX_SLOTS];	/* enum hexx_kind, one per edge */
	char	end_en[HEXX_TEXT_MAX];	/* conclusion, {1}..{6} blanks */
	char	end_fr[HEXX_TEXT_MAX];
};

struct hexx_mission {
	char	id[HEXX_ID_MAX];
	struct hexx_mission_side side[2];
};

struct hexx_cards {
	int	ncards;
	struct hexx_card card[HEXX_CARDS_MAX];
	int	nmissions;
	struct hexx_mission mission[HEXX_MISSIONS_MAX];
	int	base;		/* the Space Base's index */
	int	colony;		/* Delta Colony's index */
};

/* One schema on the board. */
struct hexx_tile {
	int	card;
	int	q, r;		/* axial coordinates */
	int	rot;		/* orientation, 0..5 sixths of a turn */
	int	data;		/* data cubes on it (planets) */
};

struct hexx_seat {
	int	mission;	/* index in the set's missions */
	int	side;		/* 0 or 1; -1 while still to choose */
	int	slot[HEXX_SLOTS];	/* transmitted card, or -1 */
	int	base;		/* data in the seat's data base */
	int	q, r;		/* the ship */
	int	last_planet;	/* card of the planet landed on last, -1 */
	int	mucus;
	int	no_move;	/* turns with Movement forbidden */
	int	no_transmit;	/* turns with Transmission forbidden */
	int	nhand;
	int	hand[HEXX_CARDS_MAX];
};

enum hexx_phase {
	HEXX_PHASE_MISSION = 0,	/* every seat picks its Mission's side */
	HEXX_PHASE_ACTIONS,	/* the seat to play declares an action */
	HEXX_PHASE_WINDOW,	/* the others answer with a Surprise or pass */
	HEXX_PHASE_OVER,
	HEXX_PHASE_BONUS	/* ruleset 2: a seat plays the Event actions a
				   Surprise gave it in another's turn */
};

/* Actions and answers, as parse() reads them. */
enum hexx_verb {
	HEXX_V_SIDE = 0,
	HEXX_V_SCHEMA,
	HEXX_V_MOVE,
	HEXX_V_TRANSMIT,
	HEXX_V_REFRESH,
	HEXX_V_EVENT,
	HEXX_V_END,
	HEXX_V_PASS,
	HEXX_V_SURPRISE,
	HEXX_VERBS
};

/* A declared action waiting for the window to close. */
struct hexx_pending {
	int	verb;		/* HEXX_V_MOVE, _TRANSMIT or _EVENT */
	int	card;		/* the event or transmitted card, or -1 */
	int	with;		/* the "with" card taken from the hand, -1 */
	int	alt;		/* OR: the second effect */
	int	blue;		/* take the blue collect option */
	int	nocollect;	/* land without collecting (ruleset 2) */
	int	has_at, q, r;	/* the target hex */
	int	has_to, tq, tr;	/* where a shifted schema goes */
	int	npath;
	int	path[HEXX_PATH_MAX][2];
	int	die_mod;	/* Surprises' changes to the die */
	int	cancelled;
	int	answer[HEXX_SEATS_MAX];	/* 0 none, 1 answered */
	int	surprise[HEXX_SEATS_MAX];	/* the surprise card, or -1 */
	int	riposte;	/* 1: the others' Surprises are shown and the
				   seat playing may riposte (seed line 345) */
	int	riposte_card;	/* its riposting Surprise while it resolves,
				   else -1 (never saved) */
};

/* What the last move did, for describe_last and the views. */
struct hexx_last {
	int	seat;		/* -1: nothing yet */
	int	verb;
	int	card;		/* public card, or -1 */
	int	roll;		/* die after modifiers, 0 if none */
	int	steps;		/* hexes moved */
	int	collected;
	int	fizzled;	/* the action could not resolve */
	int	shown;		/* card shown by "show", or -1 */
	int	resolved;	/* verb of the action a window closed on, -1 */
	int	surprises;	/* how many Surprises answered it */
};

/* A hand shown to one seat (ruleset 2, seed line 381): what the viewer
 * saw, as it was when shown. */
struct hexx_shown {
	int	from;		/* the seat that showed, -1: nothing shown */
	int	ncards;
	int	cards[HEXX_CARDS_MAX];
};

struct hexx {
	const struct hexx_cards *cards;
	int	ruleset;	/* HEXX_RULESET_1 or HEXX_RULESET */
	int	finish_round;	/* option: a finished Mission lets the round
				   end (ruleset 2, seed line 407) */
	int	finished;	/* a Mission is finished: the round ends */
	int	bonus[HEXX_SEATS_MAX];	/* Event actions a seat received
				   in another's turn, to play at once */
	struct hexx_shown shown[HEXX_SEATS_MAX];	/* per viewer */
	int	nseats;
	int	phase;
	int	current;	/* seat whose turn it is */
	int	first;		/* first player */
	int	round;
	int	actions;	/* actions left this turn */
	int	event_actions;	/* extra actions that must be Events */
	int	move_actions;	/* extra actions that must be Movements */
	int	transmit_actions;	/* extra actions that must be
				   Transmissions */
	int	supply;		/* data left in the box */
	int	winner_mask;	/* seats that won, when over */
	int	ndeck;
	int	deck[HEXX_CARDS_MAX];	/* top is deck[ndeck - 1] */
	int	ndiscard;
	int	discard[HEXX_CARDS_MAX];	/* top is the last */
	int	ntiles;
	struct hexx_tile tile[HEXX_CARDS_MAX];
	struct hexx_seat seat[HEXX_SEATS_MAX];
	struct hexx_pending pending;
	struct hexx_last last;
};

/* Names of kinds, ops, targets and lists, as the card file writes them. */
extern const char *const hexx_kind_names[HEXX_KINDS + 1];
extern const char *const hexx_op_names[HEXX_OPS];
extern const char *const hexx_target_names[HEXX_TARGETS];
extern const char *const hexx_list_names[HEXX_LISTS];
extern const char *const hexx_kind_en[HEXX_KINDS + 1];
extern const char *const hexx_kind_fr[HEXX_KINDS + 1];

/* cards.c */
/* cards_parse: a card set from a card file's bytes (YAML, read by
 * rules/cardfile.h), or NULL and "FILE:LINE: card ID, field F: what"
 * in err. */
void	*hexx_cards_parse(const char *bytes, size_t len, const char *filename,
	    char *err, size_t errlen);
void	 hexx_cards_free(void *cards);
int	 hexx_card_find(const struct hexx_cards *set, const char *id);
int	 hexx_is_schema(const struct hexx_card *c);

/* board.c */
extern const int hexx_dir[6][2];
int	hexx_tile_at(const struct hexx *g, int q, int r);
int	hexx_direction(int q0, int r0, int q1, int r1);
int	hexx_border(const struct hexx *g, int tile, int dir);
int	hexx_step_ok(const struct hexx *g, int from, int to);
int	hexx_linked(const struct hexx_cards *set, int a, int b);
int	hexx_place_ok(const struct hexx *g, int card, int q, int r, int rot);
int	hexx_connected_without(const struct hexx *g, int removed);
int	hexx_shift_ok(const struct hexx *g, int tile, int q, int r);
int	hexx_base_tile(const struct hexx *g);
/* Is path (npath hexes after the ship) a legal move for seat?  0, or a
 * reason code (HEXX_PATH_*) and the index of the faulty step. */
enum hexx_path_fault {
	HEXX_PATH_OK = 0,
	HEXX_PATH_EMPTY,
	HEXX_PATH_NO_TILE,
	HEXX_PATH_NOT_NEXT,
	HEXX_PATH_BORDER,
	HEXX_PATH_PLANET_MID,
	HEXX_PATH_SAME_PLANET
};
int	hexx_path_check(const struct hexx *g, int seat, int npath,
	    const int path[][2], int *bad);

/* effects.c */
/* Run list for seat; at: the target tile or -1; with: the "with" card
 * (already out of the hand) or -1, consumed if used. */
void	hexx_run(struct hexx *g, int seat, const struct hexx_fxlist *list,
	    int at, int *with, struct rules_rng *rng);
int	hexx_list_needs_at(const struct hexx_fxlist *list);
int	hexx_list_needs_with(const struct hexx_fxlist *list);
int	hexx_list_has(const struct hexx_fxlist *list, int op);
int	hexx_free_slot(const struct hexx *g, int seat, int card, int as);
/* Land seat's ship on planet tile (a Movement or an effect that moves
 * it): collect unless nocollect, run the stop icon. */
void	hexx_land(struct hexx *g, int seat, int tile, int blue, int nocollect,
	    int *with, struct rules_rng *rng);
/* The neighbouring planet tile seat's ship may land on by an effect
 * (the one with most data, first on the board on a tie), or -1. */
int	hexx_land_target(const struct hexx *g, int seat);
/* May card (a schema) replace the schema of tile? */
int	hexx_replace_ok(const struct hexx *g, int tile, int card);
/* HEXX_PHASE_BONUS: the seat playing its Event actions, or -1. */
int	hexx_bonus_seat(const struct hexx *g);
void	hexx_draw(struct hexx *g, int seat, int n, struct rules_rng *rng);
void	hexx_to_discard(struct hexx *g, int card);
int	hexx_hand_take(struct hexx *g, int seat, int card);
int	hexx_mission_count(const struct hexx *g, int seat);
void	hexx_check_win(struct hexx *g);

/* state.c */
void	*hexx_setup(const void *cards, int nseats, const json_t *options,
	    struct rules_rng *rng, char *err, size_t errlen);
/* The opening position of a game of an older ruleset version. */
void	*hexx_setup_version(int version, const void *cards, int nseats,
	    const json_t *options, struct rules_rng *rng, char *err,
	    size_t errlen);
void	 hexx_destroy(void *state);
json_t	*hexx_save(const void *state);
void	*hexx_load(const void *cards, const json_t *saved, char *err,
	    size_t errlen);
int	 hexx_to_act(const void *state, int *seats, int max);
json_t	*hexx_result(const void *state);
int	 hexx_response_window(const void *state);
int	 hexx_hand_has(const struct hexx *g, int seat, int card);
void	 hexx_end_turn(struct hexx *g, struct rules_rng *rng);
void	 hexx_begin_play(struct hexx *g);

/* turn.c */
enum rules_status hexx_parse(const void *state, int seat, const char *text,
	    enum rules_lang lang, json_t **move, char *err, size_t errlen);
enum rules_status hexx_translate(const void *state, int seat,
	    const char *text, enum rules_lang lang, char *out, size_t outlen);
enum rules_status hexx_move_label(const void *state, int seat,
	    const char *text, enum rules_lang lang, char *out, size_t outlen);
enum rules_status hexx_check(const void *state, int seat, const json_t *move,
	    enum rules_lang lang, char *err, size_t errlen);
void	hexx_apply(void *state, int seat, const json_t *move,
	    struct rules_rng *rng);
/* Actions left this turn, the extra Event, Movement and Transmission
 * actions included. */
int	hexx_actions_left(const struct hexx *g);

/* view.c */
json_t	*hexx_view(const void *state, int viewer);
json_t	*hexx_legal_moves(const void *state, int seat);
json_t	*hexx_move_forms(const void *state, int seat, enum rules_lang lang);
enum rules_status hexx_default_move(const void *state, int seat, char *out,
	    size_t outlen);
enum rules_status hexx_sample_illegal(const void *state, int seat,
	    char *out, size_t outlen);
enum rules_status hexx_describe_last(const void *state, int seat,
	    const char *const *names, enum rules_lang lang, char *out,
	    size_t outlen);
/* bot.c: the move of a "normal" bot (rules.h, bot_move). */
enum rules_status hexx_bot_move(const void *state, int seat, int level,
	    struct rules_rng *rng, char *out, size_t outlen);
/* The board as an SVG document (a new string, freed by the caller). */
char	*hexx_board_svg(const struct hexx *g, enum rules_lang lang);

#endif /* PBEM_HEXX_H */
