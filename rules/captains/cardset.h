/*
 * cardset.h -- Captain's Chair's card set: what a card file holds once read
 * and validated (docs/captains-cards.md is the format).
 *
 * Contract: cc_set_from_tree() reads a card file already turned into a
 * JSON tree, checks every field and either returns a complete, immutable
 * set or NULL with one message "FILE:LINE: card ID, field F: what is
 * wrong".  Cards are kinds (a card "type" with its copies); piles in a
 * game hold kind indexes.  Every operation is data: a kind (PLAY,
 * ACTIVATION, ...) and a list of effects, each one glossary keyword with
 * its arguments.  Nothing here changes after parsing.
 */
#ifndef CAPTAINS_CARDS_H
#define CAPTAINS_CARDS_H

#include <stddef.h>
#include <jansson.h>

#define CC_KINDS_MAX	96	/* card kinds in a file */
#define CC_COPIES_MAX	160	/* card instances in a whole game */
#define CC_OPS_MAX	4	/* operations on one card */
#define CC_EFFECTS_MAX	6	/* effects in one operation */
#define CC_TRAITS_MAX	4	/* traits on one card */
#define CC_TRAIT_NAMES	48	/* distinct traits in a file */
#define CC_CAPTAINS_MAX	4
#define CC_STARDATES_MAX 8
#define CC_NAME_LEN	48
#define CC_MISSIONS_MAX	3	/* a captain's missions: one Mission
				 * Completed token each (seed line 20) */
#define CC_GOALS_MAX	4	/* conditions of one mission's goal */
#define CC_TRACK_TOP	15	/* a specialty track's last box */

enum cc_suit {
	CC_PERSON, CC_CARGO, CC_SHIP, CC_ALLY, CC_ENCOUNTER, CC_INCIDENT,
	CC_LOCATION, CC_DIRECTIVE, CC_CAPTAIN, CC_STATUS, CC_NSUITS
};
#define CC_MARKET_SUITS	4	/* PERSON, CARGO, SHIP, ALLY */

enum cc_track { CC_RESEARCH, CC_INFLUENCE, CC_MILITARY, CC_NTRACKS };
enum cc_resource { CC_DILITHIUM, CC_LATINUM, CC_GLORY, CC_NRESOURCES };

enum cc_opkind {
	CC_PLAY, CC_ACTIVATION, CC_PASSIVE, CC_REACTION, CC_RESUPPLY,
	CC_CONTROL, CC_CLEANUP, CC_ENDGAME, CC_SPECIAL, CC_NOPKINDS
};

/* What fires a PASSIVE or REACTION operation. */
enum cc_trigger { CC_ON_NONE, CC_ON_ATTACKED, CC_ON_GAIN_CARD,
	CC_ON_TAKE_CONTROL, CC_NTRIGGERS };

/* The effect keywords (one per glossary entry the engine builds). */
enum cc_keyword {
	KW_GAIN, KW_SPEND, KW_GAIN_ACTION, KW_DRAW, KW_DRAW_FROM_DISCARD,
	KW_DISCARD, KW_GAIN_CARD, KW_SCAN_FOR, KW_JUNK, KW_TAKE,
	KW_RETURN_INCIDENT, KW_LOG, KW_ENLIST_RESERVE, KW_ENLIST_DEVELOPMENT,
	KW_PROMOTE, KW_DEPLOY, KW_WARP, KW_SEND_TEAM, KW_REMOVE_TEAM, KW_BEAM,
	KW_DISMISS, KW_DESTROY, KW_RECALL, KW_EXHAUST, KW_REFRESH, KW_FIND,
	KW_FREE_PLAY, KW_DUPLICATE, KW_STEAL, KW_TAKE_CONTROL,
	KW_TRIGGER_CONTROL, KW_SPECIALTY, KW_UTILIZE, KW_SCORE, KW_SCAN,
	KW_NKEYWORDS
};

/* Where an effect's target is chosen, for the keywords that need one. */
enum cc_target {
	CC_T_NONE, CC_T_HAND, CC_T_OFFER, CC_T_NEUTRAL, CC_T_INPLAY,
	CC_T_LOCATION, CC_T_DISCARD, CC_T_DEVELOPMENT, CC_T_NAME,
	CC_T_DECK,	/* scan: "on deck SUIT" when it lists several */
	CC_T_JUNK	/* gain_card or scan from the Junk */
};

struct cc_effect {
	enum cc_keyword	keyword;
	int		amount;		/* 1 when the file gives none */
	int		resource;	/* enum cc_resource, or -1 */
	int		suits;		/* bit mask of enum cc_suit, 0 = any */
	int		trait;		/* index in the set's trait names, or -1 */
	int		track;		/* enum cc_track, or -1 */
	int		self;		/* log: this card rather than one in hand */
	int		pay;		/* gain_card: pay the card's cost */
	int		junk;		/* gain_card, scan, scan_for: from the
					 * Junk (line 199) */
	int		per_suit;	/* score: per card of this suit, or -1 */
	int		per_trait;	/* score: per card of this trait, or -1 */
};

struct cc_op {
	enum cc_opkind	kind;
	int		action;		/* costs one action token */
	int		attack;		/* an ATTACK: its effects hit the opponent */
	enum cc_trigger	trigger;
	int		requires[CC_NTRACKS];	/* specialty levels needed */
	int		neffects;
	struct cc_effect effect[CC_EFFECTS_MAX];
};

/* One condition of a mission's goal (seed lines 264-266): a specialty
 * level reached, or a number of cards in play of a suit, a trait
 * (WILDCARD counts), a specialty icon, beamed or not. */
enum cc_goal_kind { CC_GOAL_TRACK, CC_GOAL_CARDS };

struct cc_goal {
	enum cc_goal_kind kind;
	int		at_least;	/* the level, or the number of cards */
	int		track;		/* CC_GOAL_TRACK: which track */
	int		suits;		/* CC_GOAL_CARDS: mask, 0 = any */
	int		trait;		/* index in trait names, or -1 */
	int		icon;		/* a SKILL or FOCUS icon of this
					 * track, or -1 */
	int		beamed;		/* only beamed cards count */
};

/* A mission of a captain: its goal (every condition holds) and its
 * reward (effects that choose no target), completed once a game. */
struct cc_mission {
	char		name[CC_NAME_LEN];
	char		name_fr[CC_NAME_LEN];
	int		ngoals;
	struct cc_goal	goal[CC_GOALS_MAX];
	struct cc_op	reward;		/* kind PLAY, never an attack */
};

/* Which pile a kind starts in. */
enum cc_pile_kind {
	CC_P_MARKET, CC_P_ENCOUNTER, CC_P_INCIDENT, CC_P_LOCATION_START,
	CC_P_LOCATION_ADVANCED, CC_P_CAPTAIN, CC_P_DECK, CC_P_RESERVE,
	CC_P_DEVELOPMENT, CC_P_CONTROLLED, CC_P_STATUS
};

struct cc_card {
	char		id[CC_NAME_LEN];
	char		name[CC_NAME_LEN];
	char		name_fr[CC_NAME_LEN];
	char		folded[2][CC_NAME_LEN * 2];	/* names, for parse */
	enum cc_suit	suit;
	int		ntraits;
	int		trait[CC_TRAITS_MAX];	/* indexes in trait names */
	int		wildcard;		/* carries the WILDCARD trait */
	int		ongoing;		/* carries the ONGOING trait */
	int		vp;
	int		cost[2];		/* dilithium, latinum */
	int		skill[CC_NTRACKS];
	int		focus[CC_NTRACKS];	/* FOCUS icons (final score) */
	int		copies;
	enum cc_pile_kind pile;
	int		owner;		/* captain index for crew cards, or -1 */
	int		away_teams;	/* CAPTAIN cards */
	/* CAPTAIN cards: the multiplier a FOCUS icon is worth at each level
	 * of a track (0 below the first box), and the missions. */
	int		multiplier[CC_TRACK_TOP + 1];
	int		nmissions;
	struct cc_mission mission[CC_MISSIONS_MAX];
	int		mission_vp;	/* VP per completed mission: the
					 * board's advanced side (line 309) */
	int		nops;
	struct cc_op	op[CC_OPS_MAX];
};

struct cc_stardate {
	int	glory;
	int	wipe_market;
	int	wipe_neutral;
	int	bot_actions;	/* solo: cards the Bot resolves a turn */
};

/*
 * The solo part of a card file (rules/captains/solofile.c, the `solo:`
 * mapping): cadet training's STARDATEs, the Bot's STARDATEs of each
 * difficulty, and each bot captain's two AUTOMATED COMMAND cards.
 */
#define CC_LEVELS	5	/* ensign lieutenant commander captain admiral */
#define CC_AC_ROWS	8	/* rows on one side of an AUTOMATED COMMAND */
#define CC_AC_DO	4	/* effects in one row */
#define CC_EXPR_GROUPS	4	/* "A > B > C": groups tried in order */
#define CC_EXPR_TERMS	4	/* "A / B": any term of a group */

/* What the Bot does (one word of an AUTOMATED COMMAND row). */
enum cc_botword {
	BW_GLORY, BW_SPECIALTY, BW_GAIN, BW_TAKE, BW_SEND_TEAM, BW_DEPLOY,
	BW_EXPLORE, BW_ENGAGE, BW_PROMOTE, BW_RESOLVE_DECK,
	BW_RESOLVE_SUPPLEMENT, BW_JUNK, BW_LOG, BW_DISMISS_OFFICER,
	BW_RECALL_SHIP, BW_ATTACK_INCIDENT, BW_NWORDS
};

/* A term of a card expression: a suit, a trait or a SKILL icon. */
enum cc_term_kind { CC_TERM_SUIT, CC_TERM_TRAIT, CC_TERM_SKILL };
struct cc_term {
	enum cc_term_kind kind;
	int	value;		/* enum cc_suit, trait index, enum cc_track */
};
struct cc_expr {
	int		ngroups;
	int		nterms[CC_EXPR_GROUPS];
	struct cc_term	term[CC_EXPR_GROUPS][CC_EXPR_TERMS];
};

struct cc_botdo {
	enum cc_botword	word;
	int		amount;		/* glory, specialty */
	int		track;		/* specialty: enum cc_track, or -1
					 * lowest, -2 highest */
	int		trait;		/* send_team: a trait, or -1 */
	struct cc_expr	expr;		/* gain, take */
};

/* One row: a trait (TRAITS card) or a suit (SUITS card) and its effects. */
struct cc_acrow {
	int		match;		/* trait index or enum cc_suit */
	int		ndo;
	struct cc_botdo	todo[CC_AC_DO];
};

struct cc_acside {
	int		nrows;
	struct cc_acrow	row[CC_AC_ROWS];
};

/* A bot captain's AUTOMATED COMMAND cards. */
struct cc_automated {
	int		captain;	/* kind index of its CAPTAIN */
	struct cc_acside traits, suits_without, suits_with;
};

struct cc_solo {
	int		ncadet;
	struct cc_stardate cadet[CC_STARDATES_MAX];
	int		nlevel[CC_LEVELS];
	struct cc_stardate level[CC_LEVELS][CC_STARDATES_MAX];
	int		nautomated;
	struct cc_automated automated[CC_CAPTAINS_MAX];
};

struct cc_set {
	int		ncards;
	struct cc_card	card[CC_KINDS_MAX];
	int		ntraits;
	char		trait_name[CC_TRAIT_NAMES][CC_NAME_LEN];
	int		ncaptains;
	int		captain[CC_CAPTAINS_MAX];	/* kind index of each */
	int		nstardates;
	struct cc_stardate stardate[CC_STARDATES_MAX];
	int		hand_size;
	int		actions;
	struct cc_solo	solo;		/* all zero when the file has none */
};

struct rules_cardfile;

/* Read and check the card file (rules/cardfile.h); NULL and err, as
 * "FILE:LINE: card ID, field F: what is wrong", on any fault. */
struct cc_set  *cc_set_from_file(const struct rules_cardfile *file,
		    char *err, size_t errlen);

/* Names for messages and views. */
const char     *cc_suit_name(enum cc_suit s);
const char     *cc_suit_name_fr(enum cc_suit s);
const char     *cc_keyword_name(enum cc_keyword k);
const char     *cc_opkind_name(enum cc_opkind k);
const char     *cc_track_name(int t);
const char     *cc_resource_name(int r);
/* Where the keyword's target is chosen (CC_T_NONE: it needs none). */
enum cc_target	cc_keyword_target(const struct cc_effect *e);
/* Does op gain a card in its step (gain_card, scan_for, scan from the
 * Junk), which "to deck" may place on the deck? */
int		cc_op_gains_card(const struct cc_op *op);
/* The kind index whose id is id, or -1. */
int		cc_find_id(const struct cc_set *set, const char *id);

#endif
