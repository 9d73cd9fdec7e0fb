/*
 * score.h -- scoring a Star Trek: Missions hand.
 *
 * stm_score_hand() applies every principle of the card catalogue: each
 * other card gives a card at most one bonus; "different ..." clauses are
 * exact maximum matchings; blanking is resolved to a fixed point; Wesley
 * Crusher copies the best other System/Engineer; and the holder's choices
 * (Borg Cube, Unidentified Ship, Thought Maker, Mysterious Plague) are
 * searched so that the hand's total is the highest possible.  The result
 * names those choices so the breakdown can show them; among equally good
 * choices the first found is named, always the same for the same hand.
 * Pure and deterministic; it allocates nothing (it uses under 80 KB of
 * stack).  docs/stmissions-scoring.md states every reading of a card.
 *
 * Readings follow the module's ruleset version (rules.h: a recorded game
 * keeps the rules it was created with): stm_score_hand_at() scores as a
 * given version did, stm_score_hand() as the newest.  Version 1 read
 * Ethical Dilemma (M10) and Blossoming Romance (M19) as the cards do not
 * say; version 2 reads them as printed (docs/stmissions-scoring.md).
 */
#ifndef STM_SCORE_H
#define STM_SCORE_H

#include <jansson.h>

#define STM_HAND_MAX 12		/* 7 in play; Meddlesome Q may add more */

/* The ruleset versions whose readings the scorer knows, oldest first. */
#define STM_SCORE_V1		1	/* M10, M19 as first read */
#define STM_SCORE_V2		2	/* M10, M19 as printed */
#define STM_SCORE_NEWEST	STM_SCORE_V2

struct stm_hand_score {
	int	total;
	int	ncards;
	int	cards[STM_HAND_MAX];	/* card numbers, in the order given */
	int	points[STM_HAND_MAX];	/* each card's final points */
	int	blanked[STM_HAND_MAX];	/* non-zero if blanked (a card Borg
					 * Cube blanks is, and its points are
					 * Borg Cube's) */
	/* The holder's choices that gave this total, for people, parts
	 * joined by "; " (" ; " in French): e.g. "Borg Cube blanks Lore
	 * and Spock; Unidentified Ship: Captain, Human, Federation,
	 * Command; Thought Maker: Lieutenant Worf becomes Klingon Empire;
	 * Mysterious Plague: Vulcan".  Empty if no choice card was in the
	 * hand. */
	char	choices_en[512];
	char	choices_fr[512];
};

/* Score ncards card numbers (0 < ncards <= STM_HAND_MAX, no repeats)
 * with the readings of ruleset `version` (STM_SCORE_V1 ..
 * STM_SCORE_NEWEST).  Returns 0, or -1 if the hand or the version is not
 * valid (then out is untouched). */
int	stm_score_hand_at(int version, const int *cards, int ncards,
	    struct stm_hand_score *out);

/* The same with the newest readings (STM_SCORE_NEWEST). */
int	stm_score_hand(const int *cards, int ncards, struct stm_hand_score *out);

/* The breakdown as JSON: {"total":N, "cards":[{"id","name","points",
 * "blanked"}...], "choices": "..."} with names in lang (0 en, 1 fr). */
json_t *stm_score_json(const struct stm_hand_score *s, int lang);

#endif /* STM_SCORE_H */
