/*
 * stmissions.h -- private to the Star Trek: Missions rule module.
 *
 * The module is split by stage, each file one concern:
 *
 *   stmissions.c	the module table, setup, to_act, result, score_cards
 *   state.c		save() and load(): the state as JSON, and every check
 *			load() makes before it trusts a saved state
 *   words.c		move text -> words; card names -> card numbers
 *   parse.c		words (English or French) -> move JSON
 *   turn.c		check() and apply(): a move becomes a plan, which is
 *			checked in full before anything is changed
 *   view.c		view(), legal_moves() and move_forms()
 *   msg.c		bounded message buffers and card names in messages
 *
 * Card numbers are indexes into stm_cards[] (cards.h).  The state below is
 * the whole game: nothing is cached elsewhere, so save() and load() are
 * exact inverses.  See docs/stmissions.md for the rules as implemented.
 */
#ifndef STM_STMISSIONS_H
#define STM_STMISSIONS_H

#include <stddef.h>
#include <jansson.h>

#include "rules.h"
#include "cards.h"
#include "score.h"

/* The ruleset version (rules.h) new games are set up with.  A game keeps
 * the version it was set up with in its state (struct stm_state's
 * ruleset, saved as "ruleset"), and is scored with that version's
 * readings of the cards (score.h): 1 before Ethical Dilemma and
 * Blossoming Romance were read as printed. */
#define STM_RULESET_VERSION	STM_SCORE_NEWEST

#define STM_MIN_SEATS	2
#define STM_MAX_SEATS	4
#define STM_DEAL_GALAXY	5
#define STM_DEAL_MISSION 2
#define STM_HAND_CARDS	7	/* after every complete turn */
/* The game ends when the discard area holds this many Galaxy cards, or
 * this many Mission cards. */
#define STM_END_GALAXY	8
#define STM_END_MISSION	12
#define STM_MAX_DISCARDS 2	/* discards one move may name */

/* The two cards that change the flow of the game. */
#define STM_MEDDLESOME_Q	STM_C_MEDDLESOME_Q	/* M18 */
#define STM_TIME_DISTORTION	STM_C_TIME_DISTORTION	/* M23 */

/* Where the game stands.  "turn": the current seat starts a turn;
 * "discard": it sent the first half of a turn and owes discards; "q_draw"
 * and "q_discard": the game has ended and the holder of Meddlesome Q makes
 * the final draw; "over": scored. */
enum stm_phase {
	STM_PHASE_TURN,
	STM_PHASE_DISCARD,
	STM_PHASE_Q_DRAW,
	STM_PHASE_Q_DISCARD,
	STM_PHASE_OVER
};

/* What a move does. */
enum stm_action {
	STM_ACT_TAKE,		/* take from the discard area */
	STM_ACT_GALAXY,		/* draw the Galaxy top card */
	STM_ACT_MISSIONS,	/* draw the two top Mission cards */
	STM_ACT_Q,		/* Meddlesome Q's end-of-game draw */
	STM_ACT_DISCARD		/* the second half of a turn sent in two */
};

/* Why the game ended (bits; several may hold at once). */
enum stm_end_reason {
	STM_END_DISCARD_GALAXY	= 1 << 0,
	STM_END_DISCARD_MISSION	= 1 << 1,
	STM_END_GALAXY_EMPTY	= 1 << 2
};

/*
 * A card reference in a move's discards: a card number (>= 0), or one of
 * the cards a draw in the same move brings in, unknown to the player when
 * writing the move.
 */
enum stm_ref {
	STM_REF_DRAWN = -1,		/* the drawn Galaxy card */
	STM_REF_DRAWN1 = -2,		/* the first drawn Mission card */
	STM_REF_DRAWN2 = -3,		/* the second drawn Mission card */
	STM_REF_DRAWN_GALAXY = -4,	/* Meddlesome Q's drawn Galaxy card */
	STM_REF_DRAWN_MISSION = -5	/* Meddlesome Q's drawn Mission card */
};

/* An ordered set of card numbers: a deck (top first), the discard area
 * (oldest first) or a hand (ascending card numbers). */
struct stm_pile {
	int	n;
	int	cards[STM_NCARDS];
};

/* The first half of a turn, sent alone: what came in, what is owed. */
struct stm_pending {
	int	action;			/* enum stm_action, not DISCARD */
	int	taken;			/* from the discard area, or -1 */
	int	ndrawn;
	int	drawn[2];		/* from the decks, in drawing order */
	int	owed;			/* discards still to make */
};

/* The last move, as every seat saw it played (public). */
struct stm_last {
	int	seat;			/* -1 before the first move */
	int	action;			/* enum stm_action of the turn */
	int	taken;			/* from the discard area, or -1 */
	int	drew_galaxy;		/* cards drawn, face down */
	int	drew_mission;
	int	ndiscard;
	int	discard[STM_MAX_DISCARDS];
	int	complete;		/* 0 if only the first half so far */
};

struct stm_state {
	int			ruleset;	/* version set up with */
	int			nseats;
	enum stm_phase		phase;
	int			first;		/* seat drawn to start */
	int			current;	/* seat playing a turn */
	int			turns;		/* complete turns so far */
	int			extra_owed;	/* current seat plays again */
	int			extra_now;	/* this turn is an extra turn */
	int			ending;		/* end condition met */
	int			end_reasons;	/* enum stm_end_reason bits */
	int			q_seat;		/* Meddlesome Q's holder,
	    or -1 */
	struct stm_pile		galaxy;
	struct stm_pile		mission;
	struct stm_pile		discard;
	struct stm_pile		hand[STM_MAX_SEATS];
	struct stm_pending	pending;
	struct stm_last		last;
};

/*
 * A parsed move, decoded from its JSON form (parse.c writes the JSON,
 * turn.c reads it back through stm_move_decode()).
 */
struct stm_move {
	int	action;			/* enum stm_action */
	int	card;			/* card to take, or -1 */
	int	has_discards;		/* 0: only the first half of a turn */
	int	ndiscard;
	int	discard[STM_MAX_DISCARDS];	/* cards or stm_ref */
};

/* What a legal move does, every card resolved (turn.c). */
struct stm_plan {
	int	seat;
	int	action;
	int	taken;			/* from the discard area, or -1 */
	int	ndrawn;
	int	drawn[2];		/* from the decks */
	int	ndiscard;		/* 0 when the discards come later */
	int	discard[STM_MAX_DISCARDS];
	int	owed;			/* discards the second half must make */
};

/* A message being written into a caller's fixed buffer; anything that
 * does not fit is cut and marked with "...". */
struct stm_msg {
	char	*buf;
	size_t	 cap;
	size_t	 len;
	int	 cut;
};

/*
 * Words (words.c).  A move text is folded and cut into tokens: words, and
 * STM_SEP for each punctuation mark that separates.
 */
#define STM_TEXT_MAX	1024		/* longest move text, in bytes */
#define STM_TOKENS_MAX	160
#define STM_SEP		","

struct stm_tokens {
	int	 n;
	char	*tok[STM_TOKENS_MAX];
	char	 store[2 * STM_TEXT_MAX + STM_TOKENS_MAX];
};

/* Classes of words, English and French ("prendre", "piochée"...). */
enum stm_word {
	STM_W_TAKE, STM_W_DRAW, STM_W_DISCARD, STM_W_SEP, STM_W_GALAXY,
	STM_W_MISSION, STM_W_DRAWN, STM_W_FILLER, STM_W_ARTICLE
};

enum stm_verb { STM_VERB_NONE, STM_VERB_TAKE, STM_VERB_DRAW, STM_VERB_DISCARD };

/* Piles a partly named card is looked for in before all 74 cards. */
struct stm_context {
	const struct stm_pile	*pile[2];
};

/* The result of looking for a card. */
struct stm_lookup {
	int	card;		/* >= 0 when found */
	int	ncand;		/* when not found: 0 unknown, else candidates */
	int	cand[STM_NCARDS];
	char	query[128];	/* the words looked for, for messages */
};

/* stmissions.c */
extern const struct rules_module stmissions_module;
int	 stm_acting_seat(const struct stm_state *);
int	 stm_seat_must_act(const struct stm_state *, int seat);
int	 stm_mid_turn(const struct stm_state *);
int	 stm_missions_in(const struct stm_pile *);
json_t	*stm_result(const void *state);
json_t	*stm_score_text(const char *cards, enum rules_lang lang, char *err,
	    size_t errlen);

/* state.c */
json_t	*stm_save(const void *state);
void	*stm_load(const json_t *saved, char *err, size_t errlen);
int	 stm_card_from_id(const char *id);
json_t	*stm_pile_ids(const struct stm_pile *);
json_t	*stm_end_reasons_json(int reasons);
json_t	*stm_last_json(const struct stm_last *, int with_names);
const char *stm_phase_name(enum stm_phase);
const char *stm_action_name(int action);

/* parse.c */
enum rules_status stm_parse(const void *state, int seat, const char *text,
	    enum rules_lang lang, json_t **move, char *err, size_t errlen);
int	 stm_ref_from_text(const char *word);
const char *stm_ref_text(int ref);

/* turn.c */
int	 stm_move_decode(const json_t *json, struct stm_move *move);
enum rules_status stm_plan_move(const struct stm_state *, int seat,
	    const struct stm_move *, enum rules_lang, struct stm_plan *,
	    struct stm_msg *);
int	 stm_q_owed(const struct stm_state *, int seat);
enum rules_status stm_check(const void *state, int seat, const json_t *move,
	    enum rules_lang lang, char *err, size_t errlen);
void	 stm_apply(void *state, int seat, const json_t *move,
	    struct rules_rng *rng);

/* bot.c: bot_move (rules.h), the hand the scorer rates highest. */
enum rules_status stm_bot_move(const void *state, int seat, int level,
	    struct rules_rng *rng, char *out, size_t outlen);

/* view.c */
json_t	*stm_view(const void *state, int viewer);
json_t	*stm_legal_moves(const void *state, int seat);
void	 stm_move_text(const struct stm_move *, enum rules_lang, char *buf,
	    size_t len);
/* describe.c: describe_last (rules.h), the last move as the table saw it. */
enum rules_status stm_describe_last(const void *state, int seat,
	    const char *const *names, enum rules_lang lang, char *out,
	    size_t outlen);
enum rules_status stm_translate(const void *state, int seat,
	    const char *text, enum rules_lang lang, char *out, size_t outlen);
enum rules_status stm_move_label(const void *state, int seat,
	    const char *text, enum rules_lang lang, char *out, size_t outlen);
json_t	*stm_move_forms(const void *state, int seat, enum rules_lang lang);
json_t	*stm_view_card(int card, int full);
void	 stm_msg_forms(struct stm_msg *, const struct stm_state *, int seat,
	    enum rules_lang lang);

/* words.c */
int	 stm_tokenize(const char *text, struct stm_tokens *);
int	 stm_word_is(const char *w, enum stm_word);
enum stm_verb stm_verb_of(const char *w);
int	 stm_is_sep(const char *w);
int	 stm_boundary_at(const struct stm_tokens *, int p);
int	 stm_ref_end(const struct stm_tokens *, int p);
void	 stm_find_card(const struct stm_tokens *, int p,
	    const struct stm_context *, struct stm_lookup *, int *next);
/* "Did you mean": the card whose name, in either language (whole, or a
 * run of as many words as the query), is nearest to the folded query
 * within rules_typo_limit(), -1 if none or two cards are as near; the
 * keyword of a class, or the verb, nearest to a word, or NULL. */
int	 stm_nearest_card(const char *query);
const char *stm_nearest_word(const char *w, enum stm_word);
const char *stm_nearest_verb(const char *w);

/* msg.c */
void	 stm_msg_init(struct stm_msg *, char *buf, size_t cap);
void	 stm_msg_add(struct stm_msg *, const char *fmt, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
void	 stm_msg_card(struct stm_msg *, int card, enum rules_lang);
void	 stm_msg_pile(struct stm_msg *, const struct stm_pile *,
	    enum rules_lang);
const char *stm_name_in(int card, enum rules_lang);
const char *stm_tr(enum rules_lang, const char *en, const char *fr);

#endif /* STM_STMISSIONS_H */
