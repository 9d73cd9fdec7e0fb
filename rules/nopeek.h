/*
 * nopeek.h -- what the hidden-information tests (tests/check_nopeek.c,
 * tests/check_templates.c) need to know of a game: its "hider".
 *
 * Test support, not part of the module contract: nothing here is built
 * into pbemd.  Each game folder holds a rules/GAME/nopeek.c that defines
 *
 *	const struct nopeek_hider GAME_nopeek = { "GAME", note, hide, text };
 *
 * and rules/gen-games.sh lists it for the test, which plays every
 * registered game at random and fails on a game without one.  The test
 * saves a position, lets hide() rearrange in a copy what one seat cannot
 * see, loads both, and requires that seat to get byte-identical answers
 * from both: view, move forms, legal moves, default move, skip check,
 * and parse/check/translate of every text tried (the legal moves, and
 * text()'s random ones); check_templates renders every template from
 * both.  rules/template/nopeek.c is the one to copy.
 */
#ifndef PBEM_NOPEEK_H
#define PBEM_NOPEEK_H

#include <stddef.h>
#include <jansson.h>

#include "rules.h"

/* Cards every seat knows the place of (they were shown), by their text
 * in the saved state: "G05", or "7". */
#define NOPEEK_KNOWN_MAX	128
struct nopeek_known {
	int	n;
	char	card[NOPEEK_KNOWN_MAX][8];
};

struct nopeek_hider {
	/* The module's name, as rules_find() takes it. */
	const char *ruleset;
	/* Add to k the cards that show in saved (called after every move
	 * of the game, and on the position tested). */
	void (*note)(const json_t *saved, struct nopeek_known *k);
	/* Rearrange, in saved, what seat cannot see, and nothing else; the
	 * result must load.  seat may be RULES_VIEW_PUBLIC: then what
	 * spectators cannot see (tests/check_templates.c renders each template
	 * for both states too).  k: the cards that showed on the way. */
	void (*hide)(json_t *saved, int seat, const struct nopeek_known *k,
	    struct rules_rng *rng);
	/* A random move text for seat (any card, any shape, either
	 * language), right or wrong: its answer is compared too. */
	void (*text)(const json_t *saved, int seat, struct rules_rng *rng,
	    char *buf, size_t len);
};

/* Every game's hider (rules/nopeek_list.h, generated), NULL-terminated,
 * in name order; the one for ruleset, or NULL. */
const struct nopeek_hider *const *nopeek_all(void);
const struct nopeek_hider *nopeek_find(const char *ruleset);

/* Helpers for hiders (rules/nopeek.c). */
/* Is card (its saved text) in k? */
int	nopeek_is_known(const struct nopeek_known *k, const char *card);
/* Add a saved card (a string, or a non-zero integer) to k. */
void	nopeek_add_known(struct nopeek_known *k, const json_t *card);
/* nopeek_add_known() of every card of an array (NULL: none). */
void	nopeek_add_known_all(struct nopeek_known *k, const json_t *cards);
/*
 * The cards of the arrays slot[0..nslot-1] (JSON strings or non-zero
 * integers; 0 is an empty place and stays) that are not known, of each
 * kind kind_of() gives (0 or 1; NULL: one kind), get a random
 * permutation among themselves: where each lies changes, the size of
 * every pile and the kinds in it do not.
 */
void	nopeek_permute(json_t **slot, int nslot, const struct nopeek_known *k,
	    int (*kind_of)(const json_t *), struct rules_rng *rng);
/* Into slot (at most max): saved's array deck, then each array of the
 * array hands but the one of seat (all of them for RULES_VIEW_PUBLIC) --
 * the places of the cards hidden from seat in a game of one deck and
 * hidden hands.  Returns how many. */
int	nopeek_deck_and_hands(json_t *saved, const char *deck,
	    const char *hands, int seat, json_t **slot, int max);
/* Shuffle the items of a JSON array in place. */
void	nopeek_shuffle(json_t *a, struct rules_rng *rng);

#endif /* PBEM_NOPEEK_H */
