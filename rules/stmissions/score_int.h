/*
 * score_int.h -- what the pieces of the Star Trek: Missions scorer share.
 *
 * Private to rules/stmissions/score*.c; the scorer's contract is score.h.
 * The scorer is split by concern (docs/stmissions-scoring.md has the
 * map):
 *
 *   score.c          the entry points of score.h: a hand is read
 *                    (struct hand), searched, and one configuration is
 *                    evaluated (blanking to its fixed point, every card,
 *                    Wesley, Borg Cube's blanked cards, Thought Maker);
 *                    the report of the holder's choices and the JSON
 *   score_cards.c    every card's bonus as data (stm_score_rules[]) and
 *                    a card's best score from its givers (stm_score_card)
 *   score_match.c    maximum bipartite matchings: "different ..." values
 *                    and distinct roles
 *   score_classes.c  which values of a dimension the hand tells apart,
 *                    for the Ship and for Thought Maker's target
 *   score_ship.c     Unidentified Ship's best declaration for one
 *                    configuration (tables, cache, memoized loops)
 *   score_choice.c   the branch and bound over Borg Cube's blanks and
 *                    Thought Maker's change (stm_search)
 *
 * Promises between the pieces: a card's score only grows when a giver
 * gains attributes or stops being blanked (the bounds rely on it);
 * nothing allocates; every function is pure given its arguments, and
 * struct table_cache is the only state carried across calls, inside one
 * stm_search().  The small helpers below are static inline so the hot
 * paths stay as fast as in one file.
 */
#ifndef STM_SCORE_INT_H
#define STM_SCORE_INT_H

#include <stdint.h>

#include "cards.h"
#include "score.h"

/*
 * Features: each card in hand is one 64-bit word.
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
static inline int
bit_count(unsigned m)
{
	m = m - ((m >> 1) & 0x55555555u);
	m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
	return (int)((((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* affs: affiliations as bits 0 .. 4 (FED .. HOS); several only while a
 * choice is superposed. */
static inline uint64_t
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

static inline unsigned
aff_bits(int aff)
{
	return aff == STM_A_NONE ? 0 : 1u << (aff - 1);
}

/* The same word with its affiliation replaced by affs. */
static inline uint64_t
with_affiliations(uint64_t f, unsigned affs)
{
	unsigned types, specs, lfs;

	types = (f >> FB_TYPE) & ((1u << STM_NTYPES) - 1);
	specs = (f >> FB_SPEC) & ALL_SPECS;
	lfs = (f >> FB_LF) & ALL_LFS;
	return features(types, specs, lfs, affs);
}

static inline unsigned
position_bit(int pos)
{
	return pos >= 0 ? 1u << pos : 0;
}

/* The values a card shows in a dimension, as bits from 0. */
static inline unsigned
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

/*
 * Rules: every card's bonus as data (score_cards.c).
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
	SP_COPY,		/* Wesley Crusher: set by stm_evaluate() */
	SP_PLAGUE,		/* Mysterious Plague's chosen lifeform */
	SP_THOUGHT		/* Thought Maker: set by stm_evaluate() */
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
	int		also_from;	/* SP_COUNT: from this ruleset version
					 * on, the per clauses pay only "also",
					 * with the top tier, which must be
					 * reached (0: never) */
};

/* Every card's rule, by card number. */
extern const struct rule stm_score_rules[STM_NCARDS];

/*
 * The hand, fixed for a whole search.
 */
#define MAX_MASKS	64	/* distinct attribute masks the rules use */

struct hand {
	int		version;	/* ruleset version: its readings apply */
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
	 * of the Ship's declaration it tells values apart in
	 * (score_classes.c). */
	uint64_t	rel[STM_HAND_MAX];
	unsigned	deps[STM_HAND_MAX];
	/* Thought Maker's changes worth trying per card (score_classes.c): one
	 * affiliation per class every other card sees alike, and one that
	 * changes nothing but its 5 (0: none). */
	int		tm_affs[STM_HAND_MAX][STM_NAFFILIATIONS];
	int		tm_naffs[STM_HAND_MAX];
	int		tm_noop[STM_HAND_MAX];
	/* Which values some card in the hand tells apart (score_classes.c). */
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

static inline unsigned
bits_mask(const struct scene *s, uint64_t bits)
{
	unsigned m = 0;

	while (bits != 0) {
		m |= s->pm[__builtin_ctzll(bits)];
		bits &= bits - 1;
	}
	return m;
}

static inline unsigned
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
static inline unsigned
pred_mask(const struct scene *s, const struct pred *p)
{
	unsigned m;
	int i;

	m = term_mask(s, &p->term[0]) | term_mask(s, &p->term[1]);
	for (i = 0; i < p->nnamed; i++)
		m |= s->h->card_bit[p->named[i]];
	return m;
}

/*
 * One configuration (score.c).
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

/*
 * The holder's choices (score_choice.c).
 */

/* Decisions in the order the search takes them.  Unidentified Ship's
 * declaration is not among them: every node takes the Ship's best
 * declaration for its other choices (stm_ship_best()). */
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

/*
 * Unidentified Ship's declaration (score_ship.c).
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
	int		stamp;		/* last stm_ship_prepare() that used it */
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
	/* The loops' memo (stm_ship_subtree()), by level; entries of earlier
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

struct search {
	const struct hand *h;
	int		best_total;
	struct node	best_node;
	int		best_us[NDIMS];
	int		capped_tries;	/* set_may_beat() calls */
	int		capped_cuts;	/* ... that cut the set */
	struct table_cache cache;
};

/* score.c */
void	stm_scene_set(struct scene *s, int pos, uint64_t f);
void	stm_scene_init(struct scene *s, const struct hand *h,
	    const uint64_t *feat);
unsigned stm_resolve_blanks(const struct scene *s, unsigned borg);
void	stm_set_leah_lifeform(struct scene *s, unsigned active, int either);
void	stm_evaluate(const struct hand *h, const struct config *c,
	    struct result *r);

/* score_cards.c */
int	stm_score_card(const struct scene *s, int card, unsigned givers,
	    int *plague_lf);

/* score_match.c */
int	stm_distinct_values(const struct scene *s, unsigned m, enum dim d,
	    unsigned banned, int enough);
int	stm_roles_filled(const unsigned *role, int nroles);

/* score_classes.c */
uint64_t stm_value_features(enum dim d, int v);
void	stm_hand_signatures(struct hand *h);
int	stm_value_classes(const struct hand *h, enum dim d,
	    const uint64_t *feat, unsigned skip, int avoid, int *out);
void	stm_hand_thought_options(struct hand *h);
int	stm_thought_affiliations(const struct hand *h, int x, int noop_too,
	    int *out);

/* score_ship.c */
void	stm_ship_best(const struct hand *h, const struct config *c,
	    struct table_cache *tc, int need, struct ship_best *b);
int	stm_ship_prepare(struct ship_loop *l, const struct hand *h,
	    const struct config *c, struct table_cache *tc);
void	stm_ship_layout(struct ship_loop *l);
int	stm_ship_subtree(struct ship_loop *l, int level, int wout, int need,
	    int *arg);

/* score_choice.c */
int	stm_ship_active(const struct hand *h, const struct node *nd);
void	stm_search(const struct hand *h, struct search *sr, struct result *r);

#endif /* STM_SCORE_INT_H */
