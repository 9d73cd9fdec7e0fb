/*
 * score.c -- scoring a Star Trek: Missions hand (score.h).
 *
 * The contract is in score.h; docs/stmissions-scoring.md explains every
 * reading of an ambiguous card.  The file has four parts:
 *
 *  1. Features.  Each card in hand is one 64-bit word: its types,
 *     specialties, lifeforms and affiliation, plus three derived bits
 *     (non-Federation, has a lifeform, has a lifeform other than
 *     Hologram).  A "scene" keeps, for every bit, the set of hand
 *     positions that have it, so "which cards are FED Personnel" is two
 *     lookups and an AND.
 *
 *  2. Rules.  Every card's bonus as data (struct rule): "per" clauses,
 *     where each giving card pays the best clause it meets, and at most
 *     one special clause (paid once, a count threshold, a matching of
 *     different values, distinct roles, ...).  score_card() computes
 *     the card's best score exactly: the special clause is combined with
 *     the per clauses by charging each giver it uses the per bonus that
 *     giver would have paid, and matchings are exact (augmenting paths).
 *
 *  3. One configuration.  evaluate() takes the features as chosen (or
 *     superposed, see below), resolves blanking to its fixed point, scores
 *     every card, then Wesley Crusher, Borg Cube's blanked cards and
 *     Thought Maker.
 *
 *  4. The holder's choices.  A depth-first branch and bound over Borg
 *     Cube's blanks and Thought Maker's change (explore()), best bound
 *     first.  Undecided choices are "superposed" for bounds: every
 *     possible Thought Maker target gets every affiliation, the Ship
 *     every attribute, Borg Cube's open blanks their best gain.  Every
 *     card's score only grows when a giver gains attributes or a card
 *     stops being blanked, so a superposed total is an upper bound.
 *     Unidentified Ship's declaration is not branched on: at each leaf
 *     ship_best() finds its best exactly, with a table per card of its
 *     score as a function of the Ship's type, affiliation, specialty
 *     and lifeform (only the classes of values the hand tells apart),
 *     tables cached across leaves, and memoized, bounded loops over the
 *     four dimensions.  Mysterious Plague's lifeform only affects the
 *     Plague and is chosen inside score_card().
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

#include "cards.h"
#include "score.h"

/*
 * 1. Features
 */
#define FB_TYPE		0	/* enum stm_type bits, 10 */
#define FB_SPEC		10	/* enum stm_specialty bits, 11 */
#define FB_LF		21	/* enum stm_lifeform bits, 10 */
#define FB_AFF		31	/* affiliation a at FB_AFF + a - 1, 5 */
#define FB_NONFED	36	/* has an affiliation other than FED */
#define FB_HAS_LF	37	/* has a lifeform */
#define FB_NONHOLO	38	/* has a lifeform other than Hologram */
#define FB_COUNT	39

#define F_TYPE(t)	((uint64_t)(t) << FB_TYPE)
#define F_SPEC(s)	((uint64_t)(s) << FB_SPEC)
#define F_LF(l)		((uint64_t)(l) << FB_LF)
#define F_AFF(a)	((uint64_t)1 << (FB_AFF + (a) - 1))
#define F_NONFED	((uint64_t)1 << FB_NONFED)
#define F_HAS_LF	((uint64_t)1 << FB_HAS_LF)
#define F_NONHOLO	((uint64_t)1 << FB_NONHOLO)

#define ALL_SPECS	((1u << STM_NSPECIALTIES) - 1)
#define ALL_LFS		((1u << STM_NLIFEFORMS) - 1)
#define ALL_AFFS	0x1fu	/* FED .. HOS as bits 0 .. 4 */
#define CHAR_TYPES	(STM_T_PERSONNEL | STM_T_CIVILIAN | STM_T_CAPTAIN)

/* The dimensions a "different ..." clause compares, and a choice ranges
 * over. */
enum dim { DIM_TYPE, DIM_LF, DIM_AFF, DIM_SPEC, NDIMS };

/* Number of bits set (portable; __builtin_popcount is a library call
 * without -mpopcnt). */
static int
bit_count(unsigned m)
{
	m = m - ((m >> 1) & 0x55555555u);
	m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
	return (int)((((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* affs: affiliations as bits 0 .. 4 (FED .. HOS); several only while a
 * choice is superposed. */
static uint64_t
features(unsigned types, unsigned specs, unsigned lfs, unsigned affs)
{
	uint64_t f;

	f = F_TYPE(types) | F_SPEC(specs) | F_LF(lfs) |
	    ((uint64_t)affs << FB_AFF);
	if (affs & ~1u)
		f |= F_NONFED;
	if (lfs != 0)
		f |= F_HAS_LF;
	if (lfs & ~(unsigned)STM_L_HOLOGRAM)
		f |= F_NONHOLO;
	return f;
}

static unsigned
aff_bits(int aff)
{
	return aff == STM_A_NONE ? 0 : 1u << (aff - 1);
}

static uint64_t
printed_features(int card)
{
	const struct stm_card *c = &stm_cards[card];

	return features(c->types, c->specialties, c->lifeforms,
	    aff_bits(c->affiliation));
}

/* The same word with its affiliation replaced by affs. */
static uint64_t
with_affiliations(uint64_t f, unsigned affs)
{
	unsigned types, specs, lfs;

	types = (f >> FB_TYPE) & ((1u << STM_NTYPES) - 1);
	specs = (f >> FB_SPEC) & ALL_SPECS;
	lfs = (f >> FB_LF) & ALL_LFS;
	return features(types, specs, lfs, affs);
}

/*
 * 2. Rules
 */

/* A card meets a term if it has one of `any` (none asked if 0), one of
 * `req` (if not 0) and one of `req2` (if not 0).  A term with neither any
 * nor req is unused. */
struct term {
	uint64_t	any;
	uint64_t	req;
	uint64_t	req2;
};

/* A card qualifies if it is one of named[] or meets either term. */
struct pred {
	struct term	term[2];
	int		named[3];
	int		nnamed;
};

struct clause {
	struct pred	who;
	int		value;
};

enum special {
	SP_NONE = 0,
	SP_WITH,		/* once: value[i], one giver meeting cand[i] */
	SP_COUNT,		/* value[k-1], k (1 or 2) givers meeting cand[0] */
	SP_DISTINCT,		/* value[0] per cand[0] giver showing its own value
				 * in dim; per[] values must equal value[0] */
	SP_DISTINCT_NEED,	/* value[0] if `need` cand[0] givers show
				 * different values in dim */
	SP_ROLES,		/* value[0] if each cand[i] has its own giver */
	SP_ETHICAL,		/* value[0]: a cand[0] giver showing Command,
				 * two cand[1] givers two other specialties */
	SP_SHARED_AFF,		/* value[0] if two cand[0] givers share an
				 * affiliation */
	SP_COPY,		/* Wesley Crusher: set by evaluate() */
	SP_PLAGUE,		/* Mysterious Plague's chosen lifeform */
	SP_THOUGHT		/* Thought Maker: set by evaluate() */
};

/*
 * A card's bonus.  The per clauses are listed in decreasing value: each
 * giver pays the first one it meets.  Specials other than SP_WITH,
 * SP_COUNT, SP_DISTINCT and SP_PLAGUE have no per clauses, and
 * lifter_unpaid is only used without a special.
 */
struct rule {
	struct clause	per[2];
	int		nper;
	enum special	special;
	struct pred	cand[3];
	int		ncand;
	int		value[3];
	enum dim	dim;
	int		need;
	int		blanked_unless;	/* BLANKED unless a giver meets lift */
	struct pred	lift;
	int		lifter_unpaid;	/* the card that lifts it pays nothing */
};

/* Initializer shorthands, nothing more. */
#define WHO(any)		{ .term = { { (any), 0, 0 } } }
#define WHO2(any, req)		{ .term = { { (any), (req), 0 } } }
#define NAMED1(a)		{ .named = { (a) }, .nnamed = 1 }
#define NAMED2(a, b)		{ .named = { (a), (b) }, .nnamed = 2 }
#define NAMED3(a, b, c)		{ .named = { (a), (b), (c) }, .nnamed = 3 }

#define FED		F_AFF(STM_A_FED)
#define CAPTAIN		F_TYPE(STM_T_CAPTAIN)
#define PERSONNEL	F_TYPE(STM_T_PERSONNEL)
#define CIVILIAN	F_TYPE(STM_T_CIVILIAN)
#define LOCATION	F_TYPE(STM_T_LOCATION)
#define SYSTEM		F_TYPE(STM_T_SYSTEM)
#define ARTIFACT	F_TYPE(STM_T_ARTIFACT)
#define ENTITY		F_TYPE(STM_T_ENTITY)

static const struct rule rules[STM_NCARDS] = {
	[STM_C_KEHLEYR] = { .nper = 1, .per = {
		{ NAMED1(STM_C_WORF), 10 } } },
	[STM_C_SAREK] = { .nper = 1, .per = {
		{ WHO2(CAPTAIN, F_NONFED), 5 } } },
	[STM_C_BATLETH] = { .special = SP_COUNT, .ncand = 1, .cand = {
		WHO(F_LF(STM_L_KLINGON) | F_AFF(STM_A_KE)) },
		.value = { 6, 16 } },
	[STM_C_BRIDGE] = { .nper = 1, .per = {
		{ WHO2(PERSONNEL | SYSTEM, FED), 3 } } },
	[STM_C_PICARD] = { .nper = 2, .per = {
		{ NAMED1(STM_C_BRIDGE), 5 },
		{ WHO(LOCATION), 3 } } },
	[STM_C_GOWRON] = { .nper = 1, .per = {
		{ WHO(F_LF(STM_L_KLINGON) | F_AFF(STM_A_KE)), 5 } } },
	[STM_C_MADDOX] = { .nper = 1, .per = {
		{ WHO(F_LF(STM_L_ANDROID | STM_L_HOLOGRAM)), 5 } } },
	[STM_C_KURN] = { .nper = 1, .per = {
		{ NAMED1(STM_C_WORF), 10 } } },
	[STM_C_SELA] = { .nper = 1, .per = {
		{ WHO(F_AFF(STM_A_HOS) | F_AFF(STM_A_KE)), 4 } } },
	[STM_C_TOMALAK] = { .special = SP_DISTINCT_NEED, .ncand = 1,
		.cand = { WHO2(0, FED) }, .dim = DIM_SPEC, .need = 3,
		.value = { 13 } },
	[STM_C_RIKER] = { .nper = 1, .per = {
		{ NAMED3(STM_C_TRANSPORTER, STM_C_DEANNA_TROI,
		    STM_C_AWAY_TEAM), 7 } } },
	[STM_C_COMPUTER] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COSMIC)), 6 } } },
	[STM_C_DEANNA_TROI] = { .special = SP_DISTINCT, .ncand = 1,
		.cand = { WHO(F_HAS_LF) }, .dim = DIM_LF, .value = { 5 } },
	[STM_C_CRYSTAL_ENTITY] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COMBAT)), 6 } } },
	[STM_C_BOK] = { .nper = 1, .per = {
		{ NAMED2(STM_C_PICARD, STM_C_THOUGHT_MAKER), 8 } } },
	[STM_C_TOG] = { .nper = 1, .per = {
		{ WHO(F_LF(STM_L_BETAZOID)), 8 } } },
	[STM_C_BEVERLY] = { .nper = 1, .per = {
		{ NAMED2(STM_C_SICKBAY, STM_C_WESLEY), 8 } } },
	[STM_C_ENGINE_ROOM] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_ENGINEER)), 6 } } },
	[STM_C_WESLEY] = { .special = SP_COPY },
	[STM_C_HAND_PHASER] = { .special = SP_WITH, .ncand = 1, .cand = {
		WHO2(F_SPEC(STM_S_SECURITY | STM_S_COMMAND), FED) },
		.value = { 9 } },
	[STM_C_HOLODECK_1] = { .nper = 2, .per = {
		{ WHO(F_LF(STM_L_HOLOGRAM)), 8 },
		{ { .term = { { PERSONNEL | CAPTAIN, FED, F_NONHOLO } } },
		    2 } } },
	[STM_C_HOLODECK_2] = { .nper = 2, .per = {
		{ WHO(F_LF(STM_L_HOLOGRAM)), 8 },
		{ { .term = { { PERSONNEL | CAPTAIN, FED, F_NONHOLO } } },
		    2 } } },
	[STM_C_MORIARTY] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_SCIENCE | STM_S_ENGINEER)), 8 } },
		.blanked_unless = 1, .lift = NAMED3(STM_C_HOLODECK_1,
		    STM_C_HOLODECK_2, STM_C_COMPUTER) },
	[STM_C_LEAH_BRAHMS] = { .nper = 1, .per = {
		{ NAMED2(STM_C_GEORDI, STM_C_ENGINE_ROOM), 9 } },
		.special = SP_WITH, .ncand = 1, .cand = {
		NAMED3(STM_C_HOLODECK_1, STM_C_HOLODECK_2, STM_C_COMPUTER) },
		.value = { 5 } },
	[STM_C_DATA] = { .special = SP_NONE },
	[STM_C_GEORDI] = { .nper = 2, .per = {
		{ WHO(SYSTEM), 4 },
		{ NAMED1(STM_C_ENGINE_ROOM), 4 } } },
	[STM_C_WORF] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_WEAPON | STM_S_COMBAT)), 4 } } },
	[STM_C_LORE] = { .nper = 1, .per = {
		{ NAMED3(STM_C_DATA, STM_C_CRYSTAL_ENTITY, STM_C_BORG_CUBE),
		    8 } } },
	[STM_C_LURSA_BETOR] = { .nper = 1, .per = {
		{ WHO(F_LF(STM_L_ROMULAN) | F_AFF(STM_A_RSE)), 7 } } },
	[STM_C_LWAXANA] = { .nper = 1, .per = {
		{ NAMED2(STM_C_DEANNA_TROI, STM_C_PICARD), 9 } } },
	[STM_C_MINUET] = { .special = SP_WITH, .ncand = 2, .cand = {
		NAMED1(STM_C_RIKER), WHO(F_SPEC(STM_S_COMMAND)) },
		.value = { 20, 10 },
		.blanked_unless = 1, .lift = NAMED3(STM_C_HOLODECK_1,
		    STM_C_HOLODECK_2, STM_C_COMPUTER) },
	[STM_C_PHOTON_TORPEDOES] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COMBAT)), 2 } },
		.special = SP_WITH, .ncand = 1, .cand = {
		WHO2(CAPTAIN, F_NONFED) }, .value = { 6 } },
	[STM_C_QUARTERS] = { .special = SP_COUNT, .ncand = 1, .cand = {
		WHO2(CHAR_TYPES, FED) }, .value = { 0, 12 } },
	[STM_C_SHIELDS] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COMBAT)), 2 } },
		.special = SP_WITH, .ncand = 1, .cand = {
		WHO2(CAPTAIN, F_NONFED) }, .value = { 6 } },
	[STM_C_SICKBAY] = { .special = SP_ROLES, .ncand = 3, .cand = {
		WHO(PERSONNEL), WHO(F_NONFED),
		WHO(F_SPEC(STM_S_COMBAT | STM_S_WEAPON)) }, .value = { 20 } },
	[STM_C_SOVAK] = { .nper = 1, .per = {
		{ WHO(ARTIFACT), 8 } } },
	[STM_C_SPOCK] = { .nper = 1, .per = {
		{ { .term = { { F_LF(STM_L_ROMULAN), 0, 0 } },
		    .named = { STM_C_SAREK, STM_C_DATA }, .nnamed = 2 },
		    6 } } },
	[STM_C_STONE_OF_GOL] = { .special = SP_WITH, .ncand = 1, .cand = {
		WHO(F_LF(STM_L_VULCAN | STM_L_BETAZOID)) }, .value = { 11 } },
	[STM_C_TEN_FORWARD] = { .nper = 1, .per = {
		{ WHO2(PERSONNEL | CIVILIAN, FED), 4 } } },
	[STM_C_TRAVELER] = { .nper = 1, .per = {
		{ NAMED2(STM_C_WESLEY, STM_C_ENGINE_ROOM), 10 } } },
	[STM_C_THOUGHT_MAKER] = { .special = SP_THOUGHT },
	[STM_C_SORAN] = { .nper = 1, .per = {
		{ NAMED2(STM_C_TIME_DISTORTION, STM_C_BORG_CUBE), 12 } } },
	[STM_C_TOX_UTHAT] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_ARCHAEOLOGIST | STM_S_COSMIC)), 6 } } },
	[STM_C_TRACTOR_BEAM] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COMBAT)), 2 } },
		.special = SP_WITH, .ncand = 1, .cand = {
		WHO2(CAPTAIN, F_NONFED) }, .value = { 6 } },
	[STM_C_TRANSPORTER] = { .special = SP_DISTINCT_NEED, .ncand = 1,
		.cand = { WHO(PERSONNEL) }, .dim = DIM_SPEC, .need = 3,
		.value = { 18 } },
	[STM_C_TRICORDER] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_MEDICAL | STM_S_SCIENCE)), 9 } } },
	[STM_C_TURBOLIFT] = { .special = SP_COUNT, .ncand = 1, .cand = {
		WHO(LOCATION) }, .value = { 0, 16 } },
	[STM_C_UNIDENTIFIED_SHIP] = { .special = SP_NONE },
	[STM_C_VASH] = { .nper = 1, .per = {
		{ { .term = { { F_SPEC(STM_S_ARCHAEOLOGIST) | ARTIFACT, 0,
		    0 } }, .named = { STM_C_MEDDLESOME_Q }, .nnamed = 1 },
		    7 } } },
	[STM_C_NAKAMURA] = { .nper = 1, .per = {
		{ WHO2(F_SPEC(STM_S_COMMAND), FED), 7 } } },

	[STM_C_AWAY_TEAM] = { .nper = 1, .per = {
		{ NAMED3(STM_C_TRANSPORTER, STM_C_TRICORDER, STM_C_HAND_PHASER),
		    5 } },
		.special = SP_DISTINCT, .ncand = 1, .cand = { WHO(PERSONNEL) },
		.dim = DIM_SPEC, .value = { 5 } },
	[STM_C_BORG_CUBE] = { .nper = 1, .per = {
		{ WHO(CAPTAIN | F_SPEC(STM_S_COMBAT | STM_S_SECURITY)), 5 } } },
	[STM_C_COMPUTER_VIRUS] = { .nper = 1, .per = {
		{ WHO(SYSTEM | F_LF(STM_L_HOLOGRAM)), 7 } } },
	[STM_C_CONFLICTING_ORDERS] = { .special = SP_SHARED_AFF, .ncand = 1,
		.cand = { WHO(F_SPEC(STM_S_COMMAND)) }, .value = { 14 } },
	[STM_C_DIPLOMATIC_CONFERENCE] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_AMBASSADOR)), 5 } },
		.special = SP_DISTINCT, .ncand = 1, .cand = { WHO(CAPTAIN) },
		.dim = DIM_AFF, .value = { 5 } },
	[STM_C_DISTRESS_CALL] = { .nper = 1, .per = {
		{ { .term = { { F_SPEC(STM_S_MEDICAL), 0, 0 } },
		    .named = { STM_C_BRIDGE, STM_C_TRACTOR_BEAM,
		    STM_C_TRANSPORTER }, .nnamed = 3 }, 9 } } },
	[STM_C_MACHINES_RIGHTS] = { .nper = 1, .per = {
		{ { .term = { { F_LF(STM_L_HOLOGRAM | STM_L_ANDROID), 0, 0 } },
		    .named = { STM_C_NAKAMURA, STM_C_MADDOX }, .nnamed = 2 },
		    9 } } },
	[STM_C_ENEMIES_TO_FRIENDS] = { .special = SP_ROLES, .ncand = 2,
		.cand = {
		WHO(F_AFF(STM_A_RSE) | F_AFF(STM_A_FA) | F_AFF(STM_A_HOS)),
		WHO(F_LF(STM_L_BETAZOID) | F_SPEC(STM_S_AMBASSADOR)) },
		.value = { 12 } },
	[STM_C_HAYWIRE] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_ENGINEER) | SYSTEM | LOCATION), 5 } } },
	[STM_C_ETHICAL_DILEMMA] = { .special = SP_ETHICAL, .ncand = 2,
		.cand = { WHO2(F_SPEC(STM_S_COMMAND), FED), WHO(F_HAS_LF) },
		.value = { 15 } },
	[STM_C_UNDER_SIEGE] = { .nper = 1, .per = {
		{ WHO(F_NONFED), 6 } } },
	[STM_C_IMMINENT_DESTRUCTION] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_ENGINEER)), 8 } } },
	[STM_C_INTRUDER_ALERT] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_SECURITY | STM_S_WEAPON)), 12 } },
		.blanked_unless = 1, .lift = WHO(F_NONFED) },
	[STM_C_CIVIL_WAR] = { .nper = 1, .per = {
		{ WHO(F_LF(STM_L_KLINGON | STM_L_ROMULAN) | F_AFF(STM_A_KE) |
		    F_AFF(STM_A_RSE)), 8 } } },
	[STM_C_LANGUAGE_BARRIER] = { .nper = 1, .per = {
		{ { .term = { { F_LF(STM_L_BETAZOID | STM_L_VULCAN), 0, 0 } },
		    .named = { STM_C_COMPUTER, STM_C_TRICORDER }, .nnamed = 2 },
		    8 } } },
	[STM_C_PERSONNEL_ISSUES] = { .special = SP_ROLES, .ncand = 2,
		.cand = { WHO(PERSONNEL),
		{ .term = { { F_SPEC(STM_S_COUNSELOR), 0, 0 },
		    { CAPTAIN, FED, 0 } } } },
		.value = { 14 } },
	[STM_C_MYSTERIOUS_PLAGUE] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_MEDICAL)), 5 } },
		.special = SP_PLAGUE },
	[STM_C_MEDDLESOME_Q] = { .special = SP_NONE },
	[STM_C_BLOSSOMING_ROMANCE] = { .nper = 1, .per = {
		{ { .term = { { F_SPEC(STM_S_COUNSELOR) |
		    F_LF(STM_L_BETAZOID), 0, 0 } },
		    .named = { STM_C_QUARTERS }, .nnamed = 1 }, 6 } },
		.special = SP_COUNT, .ncand = 1, .cand = { WHO(CHAR_TYPES) },
		.value = { 0, 8 } },
	[STM_C_SCIENTIFIC_PUZZLE] = { .nper = 1, .per = {
		{ WHO(ARTIFACT | F_SPEC(STM_S_COSMIC | STM_S_SCIENCE)), 6 } } },
	[STM_C_SPACE_CONFRONTATION] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COMMAND | STM_S_COMBAT)), 6 } },
		.blanked_unless = 1, .lift = { .term = {
		{ CAPTAIN, F_NONFED, 0 }, { ENTITY, 0, 0 } } },
		.lifter_unpaid = 1 },
	[STM_C_LURE_OF_PROFIT] = { .nper = 1, .per = {
		{ WHO(F_AFF(STM_A_FA) | ARTIFACT |
		    F_SPEC(STM_S_ARCHAEOLOGIST)), 7 } } },
	[STM_C_TIME_DISTORTION] = { .nper = 1, .per = {
		{ { .term = { { F_SPEC(STM_S_COSMIC), 0, 0 } },
		    .named = { STM_C_TEN_FORWARD }, .nnamed = 1 }, 10 } } },
	[STM_C_TRAPPED_HOLODECK] = { .special = SP_ROLES, .ncand = 2,
		.cand = { NAMED2(STM_C_HOLODECK_1, STM_C_HOLODECK_2),
		WHO2(PERSONNEL | CAPTAIN, FED) }, .value = { 15 } },
};

/*
 * The hand, fixed for a whole search.
 */
#define MAX_MASKS	64	/* distinct attribute masks the rules use */

struct hand {
	int		n;
	int		card[STM_HAND_MAX];
	unsigned	card_bit[STM_NCARDS];	/* 1 << position, or 0 */
	uint64_t	printed[STM_HAND_MAX];
	unsigned	all;
	unsigned	galaxy;
	unsigned	selfblank;	/* cards BLANKED unless ... */
	unsigned	leah_sources;	/* Holodeck 1, Holodeck 2, Computer */
	unsigned	tm_targets;	/* cards Thought Maker may change */
	int		pos_us;		/* Unidentified Ship, or -1 */
	int		pos_tm;		/* Thought Maker */
	int		pos_borg;	/* Borg Cube */
	int		pos_leah;	/* Leah Brahms */
	int		pos_wesley;	/* Ensign Wesley Crusher */
	int		pos_plague;	/* Mysterious Plague */
	/* The feature bits each card's rule looks at, and the dimensions
	 * of the Ship's declaration it tells values apart in (part 4). */
	uint64_t	rel[STM_HAND_MAX];
	unsigned	deps[STM_HAND_MAX];
	/* Thought Maker's changes worth trying per card (part 4): one
	 * affiliation per class every other card sees alike, and one that
	 * changes nothing but its 5 (0: none). */
	int		tm_affs[STM_HAND_MAX][STM_NAFFILIATIONS];
	int		tm_naffs[STM_HAND_MAX];
	int		tm_noop[STM_HAND_MAX];
	/* Which values some card in the hand tells apart (part 4). */
	uint64_t	value_sig[NDIMS][STM_NSPECIALTIES];
	int		compares[NDIMS];
};

/* The features of one configuration, and for every feature bit the
 * positions that have it. */
struct scene {
	const struct hand *h;
	uint64_t	feat[STM_HAND_MAX];
	unsigned	pm[FB_COUNT];
};

static unsigned
bits_mask(const struct scene *s, uint64_t bits)
{
	unsigned m = 0;

	while (bits != 0) {
		m |= s->pm[__builtin_ctzll(bits)];
		bits &= bits - 1;
	}
	return m;
}

static unsigned
term_mask(const struct scene *s, const struct term *t)
{
	unsigned m;

	if (t->any == 0 && t->req == 0)
		return 0;
	m = t->any != 0 ? bits_mask(s, t->any) : s->h->all;
	if (t->req != 0)
		m &= bits_mask(s, t->req);
	if (t->req2 != 0)
		m &= bits_mask(s, t->req2);
	return m;
}

/* The positions of the cards that meet p (blanked or not). */
static unsigned
pred_mask(const struct scene *s, const struct pred *p)
{
	unsigned m;
	int i;

	m = term_mask(s, &p->term[0]) | term_mask(s, &p->term[1]);
	for (i = 0; i < p->nnamed; i++)
		m |= s->h->card_bit[p->named[i]];
	return m;
}

/* Kuhn's augmenting path: can left node g be matched, moving others? */
static int
augment(int g, const unsigned *adj, unsigned *seen, int *owner)
{
	unsigned a;
	int v;

	for (a = adj[g] & ~*seen; a != 0; a &= a - 1) {
		v = __builtin_ctz(a);
		*seen |= 1u << v;
		if (owner[v] < 0 || augment(owner[v], adj, seen, owner)) {
			owner[v] = g;
			return 1;
		}
	}
	return 0;
}

/* Size of a maximum matching of the left nodes in `left` (adj[i]: the
 * right nodes 0..15 that left node i may take), stopping at `enough`. */
static int
max_matching(const unsigned *adj, unsigned left, int enough)
{
	int owner[16];
	unsigned seen;
	int i, count = 0;

	for (i = 0; i < 16; i++)
		owner[i] = -1;
	for (; left != 0 && count < enough; left &= left - 1) {
		seen = 0;
		if (augment(__builtin_ctz(left), adj, &seen, owner))
			count++;
	}
	return count;
}

/* The values a card shows in a dimension, as bits from 0. */
static unsigned
dim_values(uint64_t f, enum dim d)
{
	switch (d) {
	case DIM_SPEC:
		return (f >> FB_SPEC) & ALL_SPECS;
	case DIM_LF:
		return (f >> FB_LF) & ALL_LFS;
	case DIM_AFF:
		return (f >> FB_AFF) & ALL_AFFS;
	default:
		return (f >> FB_TYPE) & CHAR_TYPES;
	}
}

/* How many of the givers in m can each show a different value in d,
 * never showing one of `banned`; stops counting at `enough`. */
static int
distinct_values(const struct scene *s, unsigned m, enum dim d,
    unsigned banned, int enough)
{
	unsigned adj[STM_HAND_MAX];
	unsigned g;

	for (g = m; g != 0; g &= g - 1) {
		int i = __builtin_ctz(g);

		adj[i] = dim_values(s->feat[i], d) & ~banned;
	}
	return max_matching(adj, m, enough);
}

/* Can every role be given a card of its own? */
static int
roles_filled(const unsigned *role, int nroles)
{
	return max_matching(role, (1u << nroles) - 1, nroles) == nroles;
}

/* What giver g pays through the per clauses (their masks in per[]). */
static int
per_value(const struct rule *r, const unsigned *per, int g)
{
	int i;

	for (i = 0; i < r->nper; i++)
		if (per[i] & (1u << g))
			return r->per[i].value;
	return 0;
}

/* SP_WITH: the best gain of giving the slot to one giver. */
static int
with_gain(const struct scene *s, const struct rule *r, const unsigned *per,
    unsigned givers)
{
	unsigned m;
	int i, g, gain, best = 0;

	for (i = 0; i < r->ncand; i++) {
		m = pred_mask(s, &r->cand[i]) & givers;
		for (; m != 0; m &= m - 1) {
			g = __builtin_ctz(m);
			gain = r->value[i] - per_value(r, per, g);
			if (gain > best)
				best = gain;
		}
	}
	return best;
}

/* SP_COUNT: the best gain of giving the threshold one or two givers,
 * the ones that would pay least through per clauses. */
static int
count_gain(const struct scene *s, const struct rule *r, const unsigned *per,
    unsigned givers)
{
	unsigned m;
	int g, v, c1 = 1 << 20, c2 = 1 << 20, n = 0, best = 0;

	m = pred_mask(s, &r->cand[0]) & givers;
	for (; m != 0; m &= m - 1) {
		g = __builtin_ctz(m);
		v = per_value(r, per, g);
		if (v < c1) {
			c2 = c1;
			c1 = v;
		} else if (v < c2)
			c2 = v;
		n++;
	}
	if (n >= 1 && r->value[0] - c1 > best)
		best = r->value[0] - c1;
	if (n >= 2 && r->value[1] - c1 - c2 > best)
		best = r->value[1] - c1 - c2;
	return best;
}

/* SP_ETHICAL: a FED Command card showing Command, and two further cards
 * with a lifeform showing two other, different specialties. */
static int
ethical_met(const struct scene *s, const struct rule *r, unsigned givers)
{
	unsigned leaders, others, m;
	int a;

	leaders = pred_mask(s, &r->cand[0]) & givers;
	others = pred_mask(s, &r->cand[1]) & givers;
	for (m = leaders; m != 0; m &= m - 1) {
		a = __builtin_ctz(m);
		if (distinct_values(s, others & ~(1u << a), DIM_SPEC,
		    STM_S_COMMAND, 2) == 2)
			return 1;
	}
	return 0;
}

/* SP_SHARED_AFF: do two qualifying givers share an affiliation? */
static int
shared_affiliation(const struct scene *s, const struct rule *r,
    unsigned givers)
{
	unsigned m;
	int a;

	m = pred_mask(s, &r->cand[0]) & givers;
	for (a = 0; a < 5; a++)
		if (bit_count(m & s->pm[FB_AFF + a]) >= 2)
			return 1;
	return 0;
}

/* SP_PLAGUE: the lifeform (bit index) that adds most to the 5 per
 * Medical card already counted in per[0]; its gain in *gain. */
static int
plague_choice(const struct scene *s, unsigned medical, unsigned givers,
    int *gain)
{
	unsigned with;
	int lf, v, best = -1, best_lf = 0;

	for (lf = 0; lf < STM_NLIFEFORMS; lf++) {
		if ((1u << lf) & (STM_L_HOLOGRAM | STM_L_ANDROID))
			continue;
		with = s->pm[FB_LF + lf] & givers;
		if ((1u << lf) == STM_L_HUMAN)
			v = 5 * bit_count(with & ~medical);
		else
			v = 8 * bit_count(with & ~medical) +
			    3 * bit_count(with & medical);
		if (v > best) {
			best = v;
			best_lf = lf;
		}
	}
	*gain = best;
	return best_lf;
}

/*
 * The best score of `card` from the cards in `givers` (active, not
 * itself).  SP_COPY and SP_THOUGHT are left to evaluate().
 */
static int
score_card(const struct scene *s, int card, unsigned givers, int *plague_lf)
{
	const struct rule *r = &rules[card];
	unsigned per[2], paid = 0, role[3], lifters;
	int i, g, gain, total = 0, cheapest;

	for (i = 0; i < r->nper; i++) {
		per[i] = pred_mask(s, &r->per[i].who) & givers & ~paid;
		total += r->per[i].value * bit_count(per[i]);
		paid |= per[i];
	}
	/* The table's shape, as the specials below rely on it. */
	assert(r->nper < 2 || r->per[0].value >= r->per[1].value);
	assert(r->special != SP_DISTINCT || r->nper == 0 ||
	    r->per[0].value == r->value[0]);
	switch (r->special) {
	case SP_WITH:
		total += with_gain(s, r, per, givers);
		break;
	case SP_COUNT:
		total += count_gain(s, r, per, givers);
		break;
	case SP_DISTINCT:
		/* Per clauses pay the same as a match, so a giver that pays
		 * through them leaves the values to the others. */
		total += r->value[0] * distinct_values(s,
		    pred_mask(s, &r->cand[0]) & givers & ~paid, r->dim, 0,
		    STM_HAND_MAX);
		break;
	case SP_DISTINCT_NEED:
		if (distinct_values(s, pred_mask(s, &r->cand[0]) & givers,
		    r->dim, 0, r->need) >= r->need)
			total += r->value[0];
		break;
	case SP_ROLES:
		for (i = 0; i < r->ncand; i++)
			role[i] = pred_mask(s, &r->cand[i]) & givers;
		if (roles_filled(role, r->ncand))
			total += r->value[0];
		break;
	case SP_ETHICAL:
		if (ethical_met(s, r, givers))
			total += r->value[0];
		break;
	case SP_SHARED_AFF:
		if (shared_affiliation(s, r, givers))
			total += r->value[0];
		break;
	case SP_PLAGUE:
		*plague_lf = plague_choice(s, paid, givers, &gain);
		total += gain;
		break;
	default:
		break;
	}
	if (r->lifter_unpaid) {
		/* Only called when active, so a lifter exists. */
		cheapest = 1 << 20;
		lifters = pred_mask(s, &r->lift) & givers;
		for (; lifters != 0; lifters &= lifters - 1) {
			g = __builtin_ctz(lifters);
			if (per_value(r, per, g) < cheapest)
				cheapest = per_value(r, per, g);
		}
		if (cheapest < (1 << 20))
			total -= cheapest;
	}
	return total;
}

/*
 * 3. One configuration
 */
struct config {
	uint64_t	feat[STM_HAND_MAX];	/* as chosen, or superposed */
	unsigned	borg;		/* positions Borg Cube blanks */
	unsigned	tm_changes;	/* Thought Maker earns 5 if one of these
					 * is active */
	int		leah_either;	/* Leah Brahms may be Human or Hologram */
};

struct result {
	int		total;
	int		points[STM_HAND_MAX];
	unsigned	active;
	int		plague_lf;	/* lifeform bit index, or -1 */
};

static void
scene_set(struct scene *s, int pos, uint64_t f)
{
	uint64_t old = s->feat[pos], bits;
	unsigned bit = 1u << pos;

	for (bits = old & ~f; bits != 0; bits &= bits - 1)
		s->pm[__builtin_ctzll(bits)] &= ~bit;
	for (bits = f & ~old; bits != 0; bits &= bits - 1)
		s->pm[__builtin_ctzll(bits)] |= bit;
	s->feat[pos] = f;
}

static void
scene_init(struct scene *s, const struct hand *h, const uint64_t *feat)
{
	int i;

	s->h = h;
	memset(s->pm, 0, sizeof(s->pm));
	for (i = 0; i < h->n; i++) {
		s->feat[i] = 0;
		scene_set(s, i, feat[i]);
	}
}

/*
 * Blanking to its fixed point.  Start from "only Borg Cube's blanks" and
 * re-evaluate every "BLANKED unless" against the cards active in the
 * previous round until nothing changes.  In this card set the conditions
 * are layered (Holodeck 1, Holodeck 2 and Computer are never blanked by a
 * condition; Moriarty and Minuet need them; Intruder Alert and Space
 * Confrontation may need Moriarty or Minuet; nothing needs those two), so
 * this settles within three rounds on the only fixed point there is.
 */
static unsigned
resolve_blanks(const struct scene *s, unsigned borg)
{
	const struct hand *h = s->h;
	unsigned active, next, m;
	int round, pos;

	active = h->all & ~borg;
	for (round = 0; round <= h->n; round++) {
		next = h->all & ~borg;
		for (m = h->selfblank & ~borg; m != 0; m &= m - 1) {
			pos = __builtin_ctz(m);
			if ((pred_mask(s, &rules[h->card[pos]].lift) & active &
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
static void
set_leah_lifeform(struct scene *s, unsigned active, int either)
{
	const struct hand *h = s->h;
	uint64_t f;

	if (h->pos_leah < 0 || (h->leah_sources & active) == 0)
		return;
	f = s->feat[h->pos_leah];
	f |= F_LF(STM_L_HOLOGRAM);
	if (!either)
		f &= ~(F_LF(STM_L_HUMAN) | F_NONHOLO);
	scene_set(s, h->pos_leah, f);
}

static void
evaluate(const struct hand *h, const struct config *c, struct result *r)
{
	struct scene s;
	unsigned active, copyable, m;
	int i, best;

	scene_init(&s, h, c->feat);
	active = resolve_blanks(&s, c->borg);
	set_leah_lifeform(&s, active, c->leah_either);
	r->active = active;
	r->plague_lf = -1;
	for (i = 0; i < h->n; i++) {
		r->points[i] = 0;
		if ((active & (1u << i)) != 0)
			r->points[i] = score_card(&s, h->card[i],
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

/*
 * 4. The holder's choices
 */

/* Decisions in the order the search takes them.  Unidentified Ship's
 * declaration is not among them: every node takes the Ship's best
 * declaration for its other choices (ship_best()). */
enum level {
	LV_BORG_US,	/* does Borg Cube blank Unidentified Ship? */
	LV_BORG_TM,	/* does Borg Cube blank Thought Maker? */
	LV_THOUGHT,	/* Thought Maker: nothing, the Ship, or which card */
	LV_THOUGHT_AFF,	/* ... and that card's new affiliation */
	LV_BORG_REST,	/* Borg Cube's other blanks */
	LV_DONE
};

#define TM_OPEN		(-2)	/* tm_pos: undecided */
#define TM_NONE		(-1)	/* tm_pos: no change */
#define AFF_OPEN	0	/* tm_aff: the target's new one undecided */

struct node {
	enum level	level;
	unsigned	borg;		/* Borg Cube blanks these */
	unsigned	borg_decided;	/* positions whose blank is decided */
	int		tm_pos;		/* TM_OPEN, TM_NONE or a position */
	int		tm_aff;		/* its new affiliation, or AFF_OPEN */
};

/* Bits of value v of a dimension, with the derived bits it implies. */
static uint64_t
value_features(enum dim d, int v)
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
static void
hand_signatures(struct hand *h)
{
	uint64_t masks[MAX_MASKS], fv;
	const struct rule *r;
	int nmasks = 0, i, j, d, v;

	for (i = 0; i < h->n; i++) {
		r = &rules[h->card[i]];
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
			    SYSTEM | F_SPEC(STM_S_ENGINEER));
			break;
		default:
			break;
		}
	}
	for (d = 0; d < NDIMS; d++) {
		for (v = 0; v < dim_size(d); v++) {
			fv = value_features(d, d == DIM_AFF ? v + 1 : v);
			h->value_sig[d][v] = 0;
			for (i = 0; i < nmasks; i++)
				if (masks[i] & fv)
					h->value_sig[d][v] |= (uint64_t)1 << i;
			for (i = 0; i < h->n; i++)
				if ((fv & h->rel[i]) != (value_features(d,
				    d == DIM_AFF ? 1 : 0) & h->rel[i]))
					h->deps[i] |= 1u << d;
		}
	}
}

static int
hand_init(struct hand *h, const int *cards, int ncards)
{
	int i, c;

	memset(h, 0, sizeof(*h));
	h->pos_us = h->pos_tm = h->pos_borg = -1;
	h->pos_leah = h->pos_wesley = h->pos_plague = -1;
	if (cards == NULL || ncards < 1 || ncards > STM_HAND_MAX)
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
		if (rules[c].blanked_unless)
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
		hand_signatures(h);
	return 0;
}

/*
 * The classes of values of dimension d, from the signatures and, if a
 * card compares values in d, the positions holding each value (in feat[],
 * ignoring the positions in `skip`).  Writes one value per class to
 * out[] (bit index, or affiliation for DIM_AFF) and returns how many.
 * The value `avoid` (-1: none) is never written: its class is
 * represented by another member, or dropped if it has none.
 */
static int
value_classes(const struct hand *h, enum dim d, const uint64_t *feat,
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


static unsigned
position_bit(int pos)
{
	return pos >= 0 ? 1u << pos : 0;
}

/*
 * Unidentified Ship's best declaration for one configuration.
 *
 * Blanking does not depend on the declaration except for Intruder Alert
 * and Space Confrontation, which give nothing to other cards; so the
 * active cards are found once, with the Ship superposed, and each card's
 * score is a function of the few attributes of the Ship it looks at
 * (rel[] in struct hand).  A table per card holds that function,
 * indexed by the classes of values the card tells apart, and is kept
 * across configurations in a cache keyed by what the card's score can
 * depend on (struct table_cache).  The declarations are then tried in
 * nested loops over the dimensions (type, affiliation, specialty,
 * lifeform), each card's score added in the deepest loop it depends on;
 * a loop's best is memoized by what its cards see of the outer loops,
 * and loops that cannot beat the best total found so far, by the
 * tables' maxima, are cut.
 */

/* The Ship's values worth trying, per dimension. */
struct ship_space {
	int	n[NDIMS];
	int	value[NDIMS][STM_NSPECIALTIES];
};

#define SHIP_TABLE	64	/* entries in a card's table */
#define SHIP_MEMO	64	/* memoized loops per level */
#define TABLE_CACHE	64	/* cached tables */
#define CACHE_PROBES	8

static const enum dim loop_dim[NDIMS] = {
	DIM_SPEC, DIM_TYPE, DIM_AFF, DIM_LF
};

/* One card's score as a function of the Ship's declaration. */
struct ship_table {
	int		pos;
	int		level;		/* deepest loop it depends on */
	int		direct;		/* too big: scored on each visit */
	int		max;		/* its highest score */
	unsigned char	nidx[NDIMS];	/* values it tells apart, per dim */
	unsigned char	stride[NDIMS];
	unsigned char	offset[NDIMS][STM_NSPECIALTIES];	/* by class */
	unsigned char	rep[NDIMS][STM_NSPECIALTIES];	/* a class per value */
	unsigned char	value[SHIP_TABLE];	/* a card scores under 256 */
	/* most[i][e]: the best entry sharing e's classes in loops < i,
	 * for e the sum of those loops' offsets. */
	unsigned char	most[NDIMS][SHIP_TABLE];
};

/* How a card's possible givers differ from as printed, in the
 * attributes it looks at: at most Thought Maker's target and Leah
 * Brahms (never the Ship, whose attributes are the table's axes). */
struct variant {
	int		pos[2];		/* -1: none */
	uint64_t	feat[2];
};

/* What the loops below a level depend on (subtree_key()). */
struct ship_key {
	uint64_t	w[2];
};

struct ship_memo {
	int		used;		/* == the loop's memo_gen when valid */
	int		exact;		/* else best is only an upper bound */
	struct ship_key	key;
	int		best;
	int		arg[NDIMS];	/* class per loop level */
};

/* A cached table is valid while the classes of the dimensions its card
 * tells apart are unchanged: each dimension's class list has an id. */
struct cached_table {
	int		used;
	int		pos;
	unsigned	givers;		/* its possible givers that are active */
	struct variant	variant;	/* how those differ from as printed */
	int		dim_id[NDIMS];	/* ids of the class lists it used */
	int		stamp;		/* last ship_prepare() that used it */
	struct ship_table t;
};

struct table_cache {
	int		ready;		/* slots and memo cleared */
	struct ship_space space;	/* the current classes */
	int		dim_id[NDIMS];	/* and their ids */
	int		space_known;
	struct variant	space_key;	/* the features they were made for */
	int		stamp;
	struct cached_table slot[TABLE_CACHE];
	/* The loops' memo (ship_subtree()), by level; entries of earlier
	 * searches are stale (used != memo_gen). */
	int		memo_gen;
	struct ship_memo memo[NDIMS][SHIP_MEMO];
};

struct ship_best {
	int	total;		/* the best total, if exact */
	int	exact;		/* 0: total is a bound no better than asked */
	int	us[NDIMS];	/* a declaration reaching it (-1: no Ship) */
};

/* Everything the loops share. */
struct ship_loop {
	const struct hand *h;
	struct scene	 s;
	const struct ship_space *sp;
	unsigned	 active;
	unsigned	 copyable_all;	/* cards Wesley Crusher may copy */
	unsigned	 copyable;	/* ... not excluded */
	int		 nborg;		/* cards Borg Cube blanked */
	struct ship_table *tab[STM_HAND_MAX];
	int		 ntab;
	int		 at_level[NDIMS][STM_HAND_MAX];	/* tables by level */
	int		 nat_level[NDIMS];
	/* tables complete at or below each level (memo key, bound) */
	const struct ship_table *deep[NDIMS][STM_HAND_MAX];
	int		 ndeep[NDIMS];
	int		 wesley_level;	/* where Wesley's copy is known */
	int		 borg_level;	/* where Borg Cube's score is known */
	int		 k[NDIMS];	/* class index per dimension */
	int		 cur[STM_HAND_MAX];	/* points, current declaration */
	struct ship_table spare[STM_HAND_MAX];
	struct ship_table *all[STM_HAND_MAX];	/* every active card's */
	int		 nall;
	unsigned	 excluded;	/* cards left out (capped runs) */
	int		 cap[STM_HAND_MAX];	/* most each card may add */
	int		 memo_ok;	/* no direct tables */
	struct table_cache *tc;		/* the cache, which holds the memo */
};

static uint64_t
ship_features(const struct ship_space *sp, const int *k)
{
	return features(1u << sp->value[DIM_TYPE][k[DIM_TYPE]],
	    1u << sp->value[DIM_SPEC][k[DIM_SPEC]],
	    1u << sp->value[DIM_LF][k[DIM_LF]],
	    aff_bits(sp->value[DIM_AFF][k[DIM_AFF]]));
}

/* The card's score with the Ship declared as l->k[]. */
static int
ship_entry(struct ship_loop *l, int pos)
{
	const struct rule *r = &rules[l->h->card[pos]];
	unsigned givers = l->active & ~(1u << pos);
	int plague_lf;

	scene_set(&l->s, l->h->pos_us, ship_features(l->sp, l->k));
	if (r->blanked_unless && (pred_mask(&l->s, &r->lift) & givers) == 0)
		return 0;
	return score_card(&l->s, l->h->card[pos], givers, &plague_lf);
}

/* Lay out a card's table: which classes of each dimension it tells
 * apart, by projecting each class on the bits it looks at. */
static void
table_layout(struct ship_table *t, int pos, uint64_t rel, unsigned deps,
    const struct ship_space *sp)
{
	uint64_t seen[STM_NSPECIALTIES], proj;
	int i, d, k, j, nseen, size = 1;

	t->pos = pos;
	t->level = 0;
	memset(t->offset, 0, sizeof(t->offset));
	for (i = 0; i < NDIMS; i++) {
		d = loop_dim[i];
		nseen = 0;
		if (!(deps & (1u << d))) {
			t->rep[d][0] = 0;
			t->nidx[d] = 1;
			continue;
		}
		for (k = 0; k < sp->n[d]; k++) {
			proj = value_features(d, sp->value[d][k]) & rel;
			for (j = 0; j < nseen && seen[j] != proj; j++)
				continue;
			if (j == nseen) {
				t->rep[d][nseen] = k;
				seen[nseen++] = proj;
			}
			t->offset[d][k] = j;
		}
		t->nidx[d] = nseen;
		if (nseen > 1)
			t->level = i;
		size *= nseen;
	}
	t->direct = size > SHIP_TABLE;
	if (t->direct)
		return;
	size = 1;
	for (i = NDIMS - 1; i >= 0; i--) {
		d = loop_dim[i];
		t->stride[d] = size;
		for (k = 0; k < sp->n[d]; k++)
			t->offset[d][k] *= size;
		size *= t->nidx[d];
	}
}

/* Score every entry of a table (or bound it, if scored directly). */
static void
table_fill(struct ship_loop *l, struct ship_table *t)
{
	int j[NDIMS], saved[NDIMS], d, e, more, size, block, i, x, best;

	if (t->direct) {
		t->max = 1 << 20;
		return;
	}
	memcpy(saved, l->k, sizeof(saved));
	memset(j, 0, sizeof(j));
	size = 0;
	do {
		e = 0;
		for (d = 0; d < NDIMS; d++) {
			l->k[d] = t->rep[d][j[d]];
			e += j[d] * t->stride[d];
		}
		t->value[e] = ship_entry(l, t->pos);
		size++;
		more = 0;
		for (d = NDIMS - 1; d >= 0 && !more; d--) {
			if (++j[d] < t->nidx[d])
				more = 1;
			else
				j[d] = 0;
		}
	} while (more);
	memcpy(l->k, saved, sizeof(saved));
	/* Loop i's block: the entries of one choice of the loops before. */
	block = size;
	for (i = 0; i < NDIMS; i++) {
		for (e = 0; e < size; e += block) {
			best = 0;
			for (x = e; x < e + block; x++)
				if (t->value[x] > best)
					best = t->value[x];
			t->most[i][e] = best;
		}
		block /= t->nidx[loop_dim[i]];
	}
	t->max = t->most[0][0];
}

static int
table_value(struct ship_loop *l, const struct ship_table *t)
{
	if (t->direct)
		return ship_entry(l, t->pos);
	return t->value[t->offset[DIM_TYPE][l->k[DIM_TYPE]] +
	    t->offset[DIM_LF][l->k[DIM_LF]] +
	    t->offset[DIM_AFF][l->k[DIM_AFF]] +
	    t->offset[DIM_SPEC][l->k[DIM_SPEC]]];
}

static void
table_variant(const struct ship_loop *l, unsigned givers, uint64_t rel,
    struct variant *v)
{
	const struct hand *h = l->h;
	uint64_t f;
	int g, n = 0;

	v->pos[0] = v->pos[1] = -1;
	v->feat[0] = v->feat[1] = 0;
	for (; givers != 0; givers &= givers - 1) {
		g = __builtin_ctz(givers);
		f = l->s.feat[g] & rel;
		if (g == h->pos_us || f == (h->printed[g] & rel))
			continue;
		assert(n < 2);	/* Thought Maker's target and Leah only */
		if (n < 2) {
			v->pos[n] = g;
			v->feat[n++] = f;
		}
	}
}

static int
same_variant(const struct variant *a, const struct variant *b)
{
	return a->pos[0] == b->pos[0] && a->pos[1] == b->pos[1] &&
	    a->feat[0] == b->feat[0] && a->feat[1] == b->feat[1];
}

/* The cards that could give the card at pos a bonus or lift its blank,
 * whatever the Ship's declaration (it is superposed in l->s). */
static unsigned
possible_givers(const struct ship_loop *l, int pos)
{
	const struct rule *r = &rules[l->h->card[pos]];
	unsigned m;
	int j;

	m = pred_mask(&l->s, &r->lift);
	for (j = 0; j < r->nper; j++)
		m |= pred_mask(&l->s, &r->per[j].who);
	for (j = 0; j < r->ncand; j++)
		m |= pred_mask(&l->s, &r->cand[j]);
	if (r->special == SP_PLAGUE)
		m |= l->s.pm[FB_HAS_LF];
	return m & l->active & ~(1u << pos);
}

/* Were the classes of the dimensions in `deps` the same for c? */
static int
same_dims(const struct table_cache *tc, const struct cached_table *c,
    unsigned deps)
{
	int d;

	for (d = 0; d < NDIMS; d++)
		if ((deps & (1u << d)) && c->dim_id[d] != tc->dim_id[d])
			return 0;
	return 1;
}

/* The table of the card at pos, from the cache or made now. */
static struct ship_table *
table_for(struct ship_loop *l, struct table_cache *tc, int pos)
{
	const struct hand *h = l->h;
	struct cached_table *c, *spot = NULL;
	unsigned givers = possible_givers(l, pos);
	struct variant variant;
	unsigned hash, i;
	struct ship_table *t;

	table_variant(l, givers, h->rel[pos], &variant);
	hash = (unsigned)(((uint64_t)pos * 0x9e3779b1u) ^ givers * 0x85ebca6bu ^
	    ((variant.feat[0] ^ variant.feat[1]) * 0xc2b2ae35u) ^
	    ((variant.feat[0] ^ variant.feat[1]) >> 32));
	for (i = 0; i < CACHE_PROBES; i++) {
		c = &tc->slot[(hash + i) % TABLE_CACHE];
		if (c->used && c->pos == pos && c->givers == givers &&
		    same_dims(tc, c, h->deps[pos]) &&
		    same_variant(&c->variant, &variant)) {
			c->stamp = tc->stamp;
			return &c->t;
		}
		if (spot == NULL && c->stamp != tc->stamp)
			spot = c;
	}
	if (spot != NULL) {
		spot->used = 1;
		memcpy(spot->dim_id, tc->dim_id, sizeof(spot->dim_id));
		spot->pos = pos;
		spot->givers = givers;
		spot->variant = variant;
		spot->stamp = tc->stamp;
		t = &spot->t;
	} else
		t = &l->spare[pos];
	table_layout(t, pos, h->rel[pos], h->deps[pos], l->sp);
	table_fill(l, t);
	return t;
}

/*
 * Points known once loop `level` has chosen its value: the cards whose
 * tables are complete there, Wesley Crusher's copy if its last
 * copyable card is (max of *wout, the best copyable so far, and those
 * of this level), and Borg Cube's blanked cards.
 */
static int
level_points(struct ship_loop *l, int level, int *wout)
{
	const struct hand *h = l->h;
	const struct ship_table *t;
	int i, v, sum = 0;

	for (i = 0; i < l->nat_level[level]; i++) {
		t = l->tab[l->at_level[level][i]];
		v = table_value(l, t);
		if (v > l->cap[t->pos])
			v = l->cap[t->pos];
		l->cur[t->pos] = v;
		sum += v;
		if ((l->copyable & (1u << t->pos)) && v > *wout)
			*wout = v;
	}
	if (l->wesley_level == level)
		sum += *wout < l->cap[h->pos_wesley] ? *wout :
		    l->cap[h->pos_wesley];
	if (l->borg_level == level)
		sum += l->nborg * l->cur[h->pos_borg];
	return sum;
}

/*
 * What loops level.. depend on from the outer ones, as a memo key: for
 * each card whose table is complete at or below `level`, its table
 * offset so far; and Wesley's best copy so far if his copy is known at
 * or below it.  Returns the most those loops can add, from each table's
 * best entry for the outer choices made.
 */
static int
subtree_look(const struct ship_loop *l, int level, int wout,
    struct ship_key *key)
{
	const struct hand *h = l->h;
	const struct ship_table *t;
	const int *k = l->k;
	int i, e, word = 0, bits = 0, ub = 0, wmax = 0, most;

	key->w[0] = key->w[1] = 0;
	for (i = 0; i < l->ndeep[level]; i++) {
		t = l->deep[level][i];
		if (t->direct) {
			ub += l->cap[t->pos] < t->max ? l->cap[t->pos] : t->max;
			continue;
		}
		e = 0;
		switch (level) {
		case 3:
			e += t->offset[loop_dim[2]][k[loop_dim[2]]];
			/* FALLTHROUGH */
		case 2:
			e += t->offset[loop_dim[1]][k[loop_dim[1]]];
			/* FALLTHROUGH */
		case 1:
			e += t->offset[loop_dim[0]][k[loop_dim[0]]];
			break;
		default:
			break;
		}
		most = t->most[level][e];
		if (most > l->cap[t->pos])
			most = l->cap[t->pos];
		ub += most;
		if (t->pos == h->pos_borg)
			ub += l->nborg * most;
		if ((l->copyable & (1u << t->pos)) && most > wmax)
			wmax = most;
		if (bits + 6 > 64) {
			word++;
			bits = 0;
		}
		key->w[word] |= (uint64_t)e << bits;
		bits += 6;
	}
	if (l->wesley_level >= level) {
		key->w[1] |= (uint64_t)(wout & 0xffff) << 48;
		if (wout > wmax)
			wmax = wout;
		ub += wmax < l->cap[h->pos_wesley] ? wmax :
		    l->cap[h->pos_wesley];
	}
	return ub;
}

/* The memo slot for key at level: its entry, or a free or stale one,
 * or NULL if the memo is full. */
static struct ship_memo *
memo_slot(struct ship_loop *l, int level, const struct ship_key *key)
{
	struct ship_memo *m;
	unsigned i, h;

	h = (unsigned)((key->w[0] * 0x9e3779b97f4a7c15ULL) >> 40 ^ key->w[1] ^
	    key->w[1] >> 48);
	for (i = 0; i < SHIP_MEMO; i++) {
		m = &l->tc->memo[level][(h + i) % SHIP_MEMO];
		if (m->used != l->tc->memo_gen || (m->key.w[0] == key->w[0] &&
		    m->key.w[1] == key->w[1]))
			return m;
	}
	return NULL;
}

/*
 * The most loops level.. can add to the outer choices in l->k[] (wout:
 * Wesley's best copy among the outer cards), if that is more than
 * `need`; the classes reaching it are then written to arg[level..].
 * Otherwise returns something no more than need.  Below the outermost
 * loop results are memoized by subtree_key(), so loops whose cards
 * ignore an outer dimension are not repeated for each of its values.
 * Cards with a direct table (never seen in this card set) make the key
 * incomplete, so then nothing is memoized.
 */
static int
ship_subtree(struct ship_loop *l, int level, int wout, int need, int *arg)
{
	enum dim d = loop_dim[level];
	struct ship_key key;
	struct ship_memo *m = NULL;
	int c, v, w, sub, floor, best = -1, subarg[NDIMS], i, ub;

	ub = subtree_look(l, level, wout, &key);
	if (ub <= need)
		return ub;
	if (level > 0 && l->memo_ok) {
		m = memo_slot(l, level, &key);
		if (m != NULL && m->used == l->tc->memo_gen &&
		    (m->exact || m->best <= need)) {
			for (i = level; i < NDIMS; i++)
				arg[i] = m->arg[i];
			return m->best;
		}
	}
	for (c = 0; c < l->sp->n[d]; c++) {
		l->k[d] = c;
		w = wout;
		v = level_points(l, level, &w);
		floor = best > need ? best : need;
		if (level + 1 < NDIMS) {
			sub = ship_subtree(l, level + 1, w, floor - v, subarg);
			if (sub <= floor - v)
				continue;
			v += sub;
		} else if (v <= floor)
			continue;
		best = v;
		arg[level] = c;
		for (i = level + 1; i < NDIMS; i++)
			arg[i] = subarg[i];
	}
	if (m != NULL) {
		m->used = l->tc->memo_gen;
		m->key = key;
		m->exact = best > need;
		m->best = best > need ? best : need;
		for (i = level; i < NDIMS; i++)
			m->arg[i] = arg[i];
	}
	return best > need ? best : need;
}

/* Sets up l->sp, the Ship's classes for this configuration, in the
 * cache; a dimension whose classes changed gets a new id. */
static void
ship_space(struct ship_loop *l, struct table_cache *tc)
{
	const struct hand *h = l->h;
	struct ship_space sp;
	struct variant key;
	int d;

	/* The classes depend only on the cards' features, which differ
	 * from as printed only for Thought Maker's target and Leah. */
	table_variant(l, h->all, ~(uint64_t)0, &key);
	l->sp = &tc->space;
	if (tc->space_known && same_variant(&key, &tc->space_key))
		return;
	tc->space_key = key;
	tc->space_known = 1;
	memset(&sp, 0, sizeof(sp));
	for (d = 0; d < NDIMS; d++)
		sp.n[d] = value_classes(l->h, d, l->s.feat,
		    1u << l->h->pos_us, -1, sp.value[d]);
	for (d = 0; d < NDIMS; d++) {
		if (sp.n[d] != tc->space.n[d] || memcmp(sp.value[d],
		    tc->space.value[d], sizeof(sp.value[d])) != 0) {
			tc->dim_id[d]++;
			tc->space.n[d] = sp.n[d];
			memcpy(tc->space.value[d], sp.value[d],
			    sizeof(sp.value[d]));
		}
	}
}

/* The loops' plan for the tables not excluded: which loop adds each,
 * and where Wesley's copy and Borg Cube's score are known. */
static void
ship_layout(struct ship_loop *l)
{
	const struct hand *h = l->h;
	const struct ship_table *t;
	int i, d, lv;

	l->ntab = 0;
	for (i = 0; i < l->nall; i++)
		if (!(l->excluded & (1u << l->all[i]->pos)))
			l->tab[l->ntab++] = l->all[i];
	l->copyable = l->copyable_all & ~l->excluded;
	l->wesley_level = l->borg_level = -1;
	if (h->pos_wesley >= 0 && (l->active & (1u << h->pos_wesley)) &&
	    !(l->excluded & (1u << h->pos_wesley)))
		l->wesley_level = 0;
	memset(l->nat_level, 0, sizeof(l->nat_level));
	l->memo_ok = 1;
	memset(l->ndeep, 0, sizeof(l->ndeep));
	for (i = 0; i < l->ntab; i++) {
		t = l->tab[i];
		d = t->level;
		l->at_level[d][l->nat_level[d]++] = i;
		for (lv = 0; lv <= d; lv++)
			l->deep[lv][l->ndeep[lv]++] = t;
		if ((l->copyable & (1u << t->pos)) &&
		    d > l->wesley_level && l->wesley_level >= 0)
			l->wesley_level = d;
		if (t->pos == h->pos_borg)
			l->borg_level = d;
		if (t->direct)
			l->memo_ok = 0;
	}
	l->tc->memo_gen++;
}

/* Everything but the loops: active cards, the Ship's space, each card's
 * table (from the cache), the layout; returns Thought Maker's points. */
static int
ship_prepare(struct ship_loop *l, const struct hand *h,
    const struct config *c, struct table_cache *tc)
{
	unsigned us = 1u << h->pos_us, m;
	int i, d;

	if (!tc->ready) {
		for (i = 0; i < TABLE_CACHE; i++)
			tc->slot[i].used = tc->slot[i].stamp = 0;
		for (d = 0; d < NDIMS; d++)
			for (i = 0; i < SHIP_MEMO; i++)
				tc->memo[d][i].used = 0;
		memset(&tc->space, 0, sizeof(tc->space));
		memset(tc->dim_id, 0, sizeof(tc->dim_id));
		tc->space_known = 0;
		tc->stamp = 0;
		tc->memo_gen = 1;
		tc->ready = 1;
	}
	l->h = h;
	l->tc = tc;
	scene_init(&l->s, h, c->feat);
	l->active = resolve_blanks(&l->s, c->borg);
	set_leah_lifeform(&l->s, l->active, c->leah_either);
	ship_space(l, tc);
	tc->stamp++;
	memset(l->k, 0, sizeof(l->k));
	l->nall = 0;
	for (m = l->active & ~us; m != 0; m &= m - 1) {
		i = __builtin_ctz(m);
		if (i != h->pos_wesley && i != h->pos_tm)
			l->all[l->nall++] = table_for(l, tc, i);
	}
	for (i = 0; i < h->n; i++) {
		l->cap[i] = 1 << 20;
		l->cur[i] = 0;
	}
	l->excluded = 0;
	l->copyable_all = (l->s.pm[FB_TYPE + __builtin_ctz(STM_T_SYSTEM)] |
	    l->s.pm[FB_SPEC + __builtin_ctz(STM_S_ENGINEER)]) & l->active &
	    ~us & ~position_bit(h->pos_wesley);
	l->nborg = bit_count(c->borg);
	ship_layout(l);
	if (h->pos_tm >= 0 && (l->active & (1u << h->pos_tm)) &&
	    (c->tm_changes & l->active))
		return 5;
	return 0;
}

/*
 * The best total over the Ship's declarations for configuration c, if
 * more than `need`; b->exact says whether it was.
 */
static void
ship_best(const struct hand *h, const struct config *c,
    struct table_cache *tc, int need, struct ship_best *b)
{
	struct ship_loop l;
	int i, base, arg[NDIMS], best;

	base = ship_prepare(&l, h, c, tc);
	best = ship_subtree(&l, 0, 0, need - base, arg);
	b->total = base + best;
	b->exact = best > need - base;
	for (i = 0; i < NDIMS; i++)
		b->us[loop_dim[i]] = b->exact ?
		    l.sp->value[loop_dim[i]][arg[i]] : -1;
}

static int
ship_active(const struct hand *h, const struct node *nd)
{
	return h->pos_us >= 0 && !(nd->borg & (1u << h->pos_us));
}

/* Galaxy cards whose blanking by Borg Cube is still open; never Thought
 * Maker's target (blanking it is the same as no change). */
static unsigned
borg_candidates(const struct hand *h, const struct node *nd)
{
	unsigned m = h->galaxy & ~nd->borg_decided;

	if (nd->tm_pos >= 0)
		m &= ~(1u << nd->tm_pos);
	return m;
}

static int
borg_open(const struct hand *h, const struct node *nd)
{
	return h->pos_borg >= 0 && nd->level <= LV_BORG_REST &&
	    bit_count(nd->borg) < 2 && borg_candidates(h, nd) != 0;
}

/* The configuration a node stands for: decided choices applied, open
 * ones superposed; the Ship as declared in us[], or superposed if NULL. */
static void
node_config(const struct hand *h, const struct node *nd, const int *us,
    struct config *c)
{
	unsigned m;
	int i;

	for (i = 0; i < h->n; i++)
		c->feat[i] = h->printed[i];
	c->borg = nd->borg;
	c->tm_changes = 0;
	c->leah_either = borg_open(h, nd) && h->pos_leah >= 0;
	if (h->pos_us >= 0 && us == NULL)
		c->feat[h->pos_us] = features(CHAR_TYPES, ALL_SPECS, ALL_LFS,
		    ALL_AFFS);
	else if (h->pos_us >= 0)
		c->feat[h->pos_us] = features(1u << us[DIM_TYPE],
		    1u << us[DIM_SPEC], 1u << us[DIM_LF],
		    aff_bits(us[DIM_AFF]));
	if (h->pos_tm < 0)
		return;
	if (nd->tm_pos == TM_OPEN) {
		for (m = h->tm_targets; m != 0; m &= m - 1) {
			i = __builtin_ctz(m);
			c->feat[i] = with_affiliations(c->feat[i], ALL_AFFS);
		}
		c->tm_changes = h->tm_targets | position_bit(h->pos_us);
	} else if (nd->tm_pos >= 0) {
		if (nd->tm_pos != h->pos_us)
			c->feat[nd->tm_pos] = with_affiliations(
			    c->feat[nd->tm_pos], nd->tm_aff == AFF_OPEN ?
			    ALL_AFFS : aff_bits(nd->tm_aff));
		c->tm_changes = 1u << nd->tm_pos;
	}
}

/*
 * Borg Cube's open blanks.  For the sets S of at most `left` more
 * candidates, an upper bound of each card's score in any completion that
 * blanks exactly S: evaluated directly, with the Ship and Thought Maker
 * superposed, for S empty or a single card; for a pair {y, z}, the
 * lesser of its scores with y blanked and with z blanked (blanking more
 * never helps a card).  Leah Brahms is taken as either lifeform while
 * blanks are open (node_config), so these stay bounds.
 */
#define MAX_SETS	72	/* 1 + 11 + 55 */

struct borg_bounds {
	int		n;
	unsigned	set[MAX_SETS];
	int		y[MAX_SETS], z[MAX_SETS];	/* -1: none */
	int		bound[MAX_SETS];	/* sum of the cards' bounds */
	struct result	none;		/* S empty */
	struct result	one[STM_HAND_MAX];	/* S = { y } */
};

/* Card pos's bound in set i; most[] (if not NULL) caps it further.  A
 * card of the set scores as Borg Cube. */
static int
card_bound(const struct hand *h, const struct borg_bounds *bb, int i,
    int pos, const int *most)
{
	int v, w;

	if (pos == bb->y[i] || pos == bb->z[i])
		pos = h->pos_borg;
	if (bb->y[i] < 0)
		v = bb->none.points[pos];
	else if (bb->z[i] < 0)
		v = bb->one[bb->y[i]].points[pos];
	else {
		v = bb->one[bb->y[i]].points[pos];
		w = bb->one[bb->z[i]].points[pos];
		v = v < w ? v : w;
	}
	if (most != NULL && most[pos] < v)
		v = most[pos];
	return v;
}

static int
set_bound(const struct hand *h, const struct borg_bounds *bb, int i,
    const int *most)
{
	int pos, sum = 0;

	for (pos = 0; pos < h->n; pos++)
		sum += card_bound(h, bb, i, pos, most);
	return sum;
}

static void
borg_sets(const struct hand *h, const struct node *nd, struct borg_bounds *bb)
{
	struct config c;
	unsigned cand, m1, m2;
	int y, z, n = 0;

	node_config(h, nd, NULL, &c);
	evaluate(h, &c, &bb->none);
	bb->set[n] = 0;
	bb->y[n] = bb->z[n] = -1;
	bb->bound[n++] = bb->none.total;
	if (borg_open(h, nd)) {
		cand = borg_candidates(h, nd);
		for (m1 = cand; m1 != 0; m1 &= m1 - 1) {
			y = __builtin_ctz(m1);
			c.borg = nd->borg | (1u << y);
			evaluate(h, &c, &bb->one[y]);
			bb->set[n] = 1u << y;
			bb->y[n] = y;
			bb->z[n] = -1;
			bb->bound[n++] = bb->one[y].total;
		}
		for (m1 = cand; nd->borg == 0 && m1 != 0; m1 &= m1 - 1) {
			y = __builtin_ctz(m1);
			for (m2 = m1 & (m1 - 1); m2 != 0; m2 &= m2 - 1) {
				z = __builtin_ctz(m2);
				bb->set[n] = (1u << y) | (1u << z);
				bb->y[n] = y;
				bb->z[n] = z;
				bb->bound[n] = set_bound(h, bb, n, NULL);
				n++;
			}
		}
	}
	bb->n = n;
}

#define MAX_KIDS	60	/* 2 + 11 * 5 Thought Maker changes */

/* A quick upper bound of every completion of nd: one evaluation with
 * the open choices superposed, plus the most Borg Cube's open blanks
 * could add (each blanked card scoring Borg Cube's score there instead
 * of its own, as if it gave nothing to others). */
static int
quick_bound(const struct hand *h, const struct node *nd)
{
	struct config c;
	struct result r;
	unsigned m;
	int g, gain, top1 = 0, top2 = 0;

	node_config(h, nd, NULL, &c);
	evaluate(h, &c, &r);
	if (!borg_open(h, nd))
		return r.total;
	for (m = borg_candidates(h, nd); m != 0; m &= m - 1) {
		g = __builtin_ctz(m);
		gain = r.points[h->pos_borg] - r.points[g];
		if (gain > top1) {
			top2 = top1;
			top1 = gain;
		} else if (gain > top2)
			top2 = gain;
	}
	if (bit_count(nd->borg) == 0)
		top1 += top2;
	return r.total + top1;
}

/* nd's best total (every choice but the Ship's decided), exact if more
 * than `need` (b->exact). */
static void
leaf_value(const struct hand *h, const struct node *nd,
    struct table_cache *tc, int need, struct ship_best *b)
{
	struct config c;
	struct result r;
	int i;

	node_config(h, nd, NULL, &c);
	if (ship_active(h, nd)) {
		ship_best(h, &c, tc, need, b);
		return;
	}
	evaluate(h, &c, &r);
	b->total = r.total;
	b->exact = 1;
	for (i = 0; i < NDIMS; i++)
		b->us[i] = -1;
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
		r = &rules[h->card[i]];
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
static int
thought_affiliations(const struct hand *h, int x, int noop_too, int *out)
{
	int i, n = 0;

	if (noop_too && h->tm_noop[x] != 0)
		out[n++] = h->tm_noop[x];
	for (i = 0; i < h->tm_naffs[x]; i++)
		out[n++] = h->tm_affs[x][i];
	return n;
}

/* Fill h->tm_affs[], h->tm_noop[] for every card Thought Maker may
 * change (see thought_affiliations()). */
static void
hand_thought_options(struct hand *h)
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

/* Move nd past every decision that has nothing to choose from. */
static void
advance(const struct hand *h, struct node *nd)
{
	int vals[STM_NAFFILIATIONS];
	unsigned us = position_bit(h->pos_us), tm = position_bit(h->pos_tm);

	for (;; nd->level++) {
		switch (nd->level) {
		case LV_BORG_US:
			if (h->pos_borg >= 0 && us != 0)
				return;
			break;
		case LV_BORG_TM:
			if (h->pos_borg >= 0 && tm != 0 &&
			    bit_count(nd->borg) < 2)
				return;
			nd->borg_decided |= tm;
			break;
		case LV_THOUGHT:
			if (tm != 0 && !(nd->borg & tm))
				return;
			nd->tm_pos = TM_NONE;
			break;
		case LV_THOUGHT_AFF:
			if (nd->tm_pos < 0 || nd->tm_pos == h->pos_us ||
			    nd->tm_aff != AFF_OPEN)
				break;
			if (thought_affiliations(h, nd->tm_pos,
			    !ship_active(h, nd), vals) > 1)
				return;
			nd->tm_aff = vals[0];
			break;
		case LV_BORG_REST:
			if (borg_open(h, nd))
				return;
			nd->borg_decided = h->galaxy;
			break;
		case LV_DONE:
			return;
		}
	}
}

/* The children of nd at its level; returns how many. */
static int
children(const struct hand *h, const struct node *nd, struct node *kids)
{
	int vals[STM_NAFFILIATIONS], n = 0, nv, i, x;
	unsigned m;

	switch (nd->level) {
	case LV_BORG_US:
	case LV_BORG_TM:
		x = nd->level == LV_BORG_US ? h->pos_us : h->pos_tm;
		kids[n] = *nd;
		kids[n++].borg_decided |= 1u << x;
		kids[n] = *nd;
		kids[n].borg |= 1u << x;
		kids[n++].borg_decided |= 1u << x;
		break;
	case LV_THOUGHT:
		kids[n] = *nd;
		kids[n++].tm_pos = TM_NONE;
		if (ship_active(h, nd)) {
			kids[n] = *nd;
			kids[n++].tm_pos = h->pos_us;
		}
		for (m = h->tm_targets; m != 0; m &= m - 1) {
			x = __builtin_ctz(m);
			if (thought_affiliations(h, x, !ship_active(h, nd),
			    vals) == 0)
				continue;
			kids[n] = *nd;
			kids[n].tm_pos = x;
			kids[n++].tm_aff = AFF_OPEN;
		}
		break;
	default:	/* LV_THOUGHT_AFF */
		nv = thought_affiliations(h, nd->tm_pos, !ship_active(h, nd),
		    vals);
		for (i = 0; i < nv; i++) {
			kids[n] = *nd;
			kids[n++].tm_aff = vals[i];
		}
		break;
	}
	for (i = 0; i < n; i++)
		kids[i].level++;
	assert(n <= MAX_KIDS);
	return n;
}

struct search {
	const struct hand *h;
	int		best_total;
	struct node	best_node;
	int		best_us[NDIMS];
	int		capped_tries;	/* set_may_beat() calls */
	int		capped_cuts;	/* ... that cut the set */
	struct table_cache cache;
};

static void
record(struct search *sr, const struct node *nd, const struct ship_best *b)
{
	if (b->exact && b->total > sr->best_total) {
		sr->best_total = b->total;
		sr->best_node = *nd;
		memcpy(sr->best_us, b->us, sizeof(sr->best_us));
	}
}

/* Indexes 0..n-1 ordered by decreasing key, ties in index order. */
static void
order_by(const int *key, int n, int *order)
{
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && key[order[j - 1]] < key[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

/*
 * Can blanking set i beat `best`?  An upper bound computed with the
 * tables of the configuration without it (l, prepared by borg_rest()):
 * for every declaration of the Ship, each card scores at most its
 * score there (blanking more never helps a card) and at most its bound
 * in borg_sets() for the set; the cards of the set score as Borg Cube.
 * The best over the declarations is found as in ship_best(), cut at
 * `best`.
 */
static int
set_may_beat(struct ship_loop *l, const struct node *nd,
    const struct borg_bounds *bb, int i, int base, int best)
{
	int pos, arg[NDIMS];

	for (pos = 0; pos < l->h->n; pos++)
		l->cap[pos] = card_bound(l->h, bb, i, pos, NULL);
	l->excluded = bb->set[i];
	l->nborg = bit_count(nd->borg | bb->set[i]);
	ship_layout(l);
	return ship_subtree(l, 0, 0, best - base, arg) > best - base;
}

/* Keep l's tables out of the cache's reach. */
static void
ship_own_tables(struct ship_loop *l)
{
	int i, pos;

	for (i = 0; i < l->nall; i++) {
		pos = l->all[i]->pos;
		if (l->all[i] != &l->spare[pos]) {
			l->spare[pos] = *l->all[i];
			l->all[i] = &l->spare[pos];
		}
	}
}

/*
 * Is set_may_beat() worth its search?  It saves building a set's own
 * tables when it cuts, and is wasted when it does not; in some hands it
 * cuts most sets, in others few.  So it is used while it has cut at
 * least a fifth of the sets it was tried on (after a few tries).  This
 * depends only on the search so far, so it is deterministic.
 */
static int
capped_worth_it(const struct search *sr)
{
	return sr->capped_tries < 8 || 5 * sr->capped_cuts >= sr->capped_tries;
}

/*
 * The last decision: which other Galaxy cards Borg Cube blanks.  Sets
 * are tried best bound first; with the Ship in play a set is searched
 * only if set_may_beat() says it might beat the best total.
 */
/* Not inlined into the recursive explore(): its frame is large. */
static void borg_rest(struct search *, const struct node *)
    __attribute__((noinline));

static void
borg_rest(struct search *sr, const struct node *nd)
{
	const struct hand *h = sr->h;
	struct borg_bounds bb;
	struct ship_loop l;
	struct config c;
	int order[MAX_SETS], i, base = 0, prepared = 0;
	struct node leaf;
	struct ship_best b;

	borg_sets(h, nd, &bb);
	order_by(bb.bound, bb.n, order);
	for (i = 0; i < bb.n && bb.bound[order[i]] > sr->best_total; i++) {
		if (ship_active(h, nd)) {
			if (!prepared) {
				node_config(h, nd, NULL, &c);
				base = ship_prepare(&l, h, &c, &sr->cache);
				ship_own_tables(&l);
				prepared = 1;
			}
			if (capped_worth_it(sr)) {
				sr->capped_tries++;
				if (!set_may_beat(&l, nd, &bb, order[i], base,
				    sr->best_total)) {
					sr->capped_cuts++;
					continue;
				}
			}
		}
		leaf = *nd;
		leaf.borg |= bb.set[order[i]];
		leaf.borg_decided = h->galaxy;
		leaf.level = LV_DONE;
		leaf_value(h, &leaf, &sr->cache, sr->best_total, &b);
		record(sr, &leaf, &b);
	}
}

/* Search below nd (advanced; its bound beat the best so far), best
 * bound first, cutting whatever cannot beat the best total found. */
static void
explore(struct search *sr, const struct node *nd)
{
	struct node kids[MAX_KIDS];
	struct ship_best b;
	int key[MAX_KIDS], order[MAX_KIDS], n, i;

	if (nd->level == LV_DONE) {
		leaf_value(sr->h, nd, &sr->cache, sr->best_total, &b);
		record(sr, nd, &b);
		return;
	}
	if (nd->level == LV_BORG_REST) {
		borg_rest(sr, nd);
		return;
	}
	n = children(sr->h, nd, kids);
	memset(key, 0, sizeof(key));
	for (i = 0; i < n; i++) {
		advance(sr->h, &kids[i]);
		key[i] = quick_bound(sr->h, &kids[i]);
	}
	order_by(key, n, order);
	for (i = 0; i < n && key[order[i]] > sr->best_total; i++)
		explore(sr, &kids[order[i]]);
}

/* The best choices for the hand, and their evaluation in r. */
static void
search(const struct hand *h, struct search *sr, struct result *r)
{
	struct node root;
	struct config c;

	sr->h = h;
	sr->best_total = -1;
	sr->capped_tries = sr->capped_cuts = 0;
	memset(&sr->best_node, 0, sizeof(sr->best_node));
	memset(sr->best_us, 0xff, sizeof(sr->best_us));
	sr->cache.ready = 0;	/* cleared on first use (the Ship in hand) */
	memset(&root, 0, sizeof(root));
	root.level = LV_BORG_US;
	root.tm_pos = TM_OPEN;
	advance(h, &root);
	explore(sr, &root);
	assert(sr->best_total >= 0);
	node_config(h, &sr->best_node, sr->best_us[0] >= 0 ? sr->best_us :
	    NULL, &c);
	evaluate(h, &c, r);
	assert(r->total == sr->best_total);
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
	if (ship_active(h, nd))
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
stm_score_hand(const int *cards, int ncards, struct stm_hand_score *out)
{
	struct hand h;
	struct search sr;
	struct result r;
	int i;

	if (out == NULL || hand_init(&h, cards, ncards) != 0)
		return -1;
	if (h.pos_tm >= 0)
		hand_thought_options(&h);
	search(&h, &sr, &r);
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
