/*
 * solo.h -- playing Captain's Chair alone (seed 001, lines 317-356 and
 * 613-810; docs/captains.md, "The Bot" and "Cadet training"):
 *   solofile.c   the `solo:` part of the card file;
 *   solo.c       what the modes change in the shared rules (STARDATEs,
 *                the last turns, attacks on a seat nobody answers for,
 *                the set-up of the Bot's decks);
 *   solo_value.c card values and every choice the Bot makes;
 *   solo_bot.c   the Bot's turn and its AUTOMATED COMMAND effects;
 *   cadet.c      cadet training's clean-up and its score.
 *
 * Contract: the Bot chooses by the seed's preferences and tie-breaks
 * only; the one chance in its turn is the shuffle of its deck, drawn from
 * the move's random stream, so a replay is exact.  Nothing here reads a
 * hidden card to choose: the Bot's deck is drawn, never looked through.
 */
#ifndef CAPTAINS_SOLO_H
#define CAPTAINS_SOLO_H

#include "resolve.h"

struct rules_cardfile;

/* solofile.c */
int		cc_solo_read(const struct rules_cardfile *file,
		    struct cc_set *set, char *err, size_t errlen);
/* The difficulty called name (English or French), 0-4, or -1. */
int		cc_level_by_name(const char *name);
const char     *cc_level_name(int level, enum rules_lang lang);
/* NULL-terminated: every name cc_level_by_name() reads, lower case. */
extern const char *const cc_level_words[];
/* The AUTOMATED COMMAND cards of a CAPTAIN kind, or NULL. */
const struct cc_automated *cc_automated_of(const struct cc_set *set,
		    int captain_kind);

/* solo.c */
/* The STARDATE cards of the game's mode, and how many. */
const struct cc_stardate *cc_stardates(const struct cc_state *s, int *n);
/* Turns still to play after this one once the last STARDATE is empty. */
int		cc_final_turns(const struct cc_state *s);
/* Is seat played by the Bot? */
int		cc_is_bot(const struct cc_state *s, int seat);
/* Does nobody answer an attack on seat (the Bot, the virtual opponent)? */
int		cc_no_defender(const struct cc_state *s, int seat);
/* The attack of op resolved at once on such a seat. */
void		cc_solo_attack(struct cc_ctx *c, const struct cc_op *op);
/* Set-up of the mode after the shared one; chooses who starts. */
void		cc_solo_setup(struct cc_state *s, struct rules_rng *rng);

/* solo_value.c */
/* A card's value for seat (seed lines 699-710): VP, +5 an ENDGAME, +
 * glory, + its FOCUS icons at seat's multipliers. */
int		cc_value(const struct cc_state *s, int seat, int card,
		    int glory);
/* Does card carry term? */
int		cc_term_on(const struct cc_set *set, const struct cc_term *t,
		    int card);
/* The market offer the Bot gains for expr (lines 748-758), or -1. */
int		cc_bot_offer_for(const struct cc_state *s,
		    const struct cc_expr *e);
/* The Bot's final score; breakdown as cc_score()'s (must not be NULL). */
int		cc_bot_score(const struct cc_state *s, int seat,
		    json_t *breakdown);
/* The offer "the most valuable for you without tokens" (line 766). */
int		cc_bot_junk_offer(const struct cc_state *s);
/* The offer of least value for you, its clean-up glory (4.3). */
int		cc_bot_cleanup_offer(const struct cc_state *s);
/* The Neutral slot the Bot controls (2.1), or -1. */
int		cc_bot_control_slot(const struct cc_state *s);
/* Where an away team goes (lines 770-776), or -1; from: the slot it is
 * taken from when none is left on the captain, or -1. */
int		cc_bot_team_slot(const struct cc_state *s, int trait,
		    int *from);
/* Where a ship explores (explore set) or engages, or -1 (line 782). */
int		cc_bot_ship_slot(const struct cc_state *s, int explore);

/* solo_bot.c: the move "bot", the Bot's whole turn. */
int		cc_bot_turn(struct cc_ctx *c, int seat);

/* cadet.c */
/* The step "wipe OFFER" of cadet clean-up. */
int		cc_cadet_wipe(struct cc_ctx *c, int seat, int card);
/* The market slot clean-up wipes (the named card, else the first). */
int		cc_cadet_wiped_slot(const struct cc_state *s);
/* Clean-up before the glory: that wipe. */
void		cc_cadet_cleanup(struct cc_state *s);
/* The rank of a cadet score, in lang ("" under 70). */
const char     *cc_cadet_rank(int score, enum rules_lang lang);
/* The view's "cadet" or "bot" object, or NULL in a two-player game. */
json_t	       *cc_solo_view(const struct cc_state *s);

#endif
