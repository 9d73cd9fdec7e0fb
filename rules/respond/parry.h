/*
 * parry.h -- Parry's card set (rules/respond/; docs/CARDFILES.md).
 *
 * Parry's twelve cards are data: rules/respond/cards.yaml, or another
 * card file given when a game is created, says for each card id 1..12
 * whether it is a strike (and how many points it scores) or a parry.
 * cards.c reads and checks a file into a struct parry_set, which is
 * immutable from then on and shared by every state that plays with it;
 * respond.c plays with it.
 */
#ifndef PBEM_PARRY_H
#define PBEM_PARRY_H

#include <stddef.h>

#define PARRY_DECK	12	/* card ids 1..12 */
#define PARRY_MAX_VALUE	99	/* the most a strike scores */

enum parry_kind {
	PARRY_KIND_NONE = 0,
	PARRY_KIND_STRIKE = 1,
	PARRY_KIND_PARRY = 2
};

struct parry_set {
	int	kind[PARRY_DECK + 1];	/* enum parry_kind, by card id */
	int	value[PARRY_DECK + 1];	/* a strike's points; 0 for a parry */
	/* The strike ids for messages: "1 to 8" or "2, 4, 6". */
	char	strikes_en[64];
	char	strikes_fr[64];
};

/* The module's cards_parse() and cards_free() (rules.h). */
void	*parry_cards_parse(const char *bytes, size_t len, const char *filename,
	    char *err, size_t errlen);
void	 parry_cards_free(void *cards);

#endif /* PBEM_PARRY_H */
