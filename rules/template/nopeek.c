/*
 * nopeek.c -- Ladder's hider for the hidden-information test
 * (rules/nopeek.h): built into the tests only.
 *
 * Copy it with the game (step 5 of template.c): say in note() which
 * cards every seat has seen, in hide() what one seat cannot see (move
 * exactly that in the saved state, nothing else), and in text() what a
 * player might type.
 */
#include <stdio.h>

#include "nopeek.h"

/* Played cards lie in the pile, face up: they never return to a hand. */
static void
ladder_note(const json_t *saved, struct nopeek_known *k)
{
	nopeek_add_known_all(k, json_object_get(saved, "pile"));
}

/* Hidden from seat: the deck's order, and which cards lie in the other
 * hands or the deck (their played places, 0, stay). */
static void
ladder_hide(json_t *saved, int seat, const struct nopeek_known *k,
    struct rules_rng *rng)
{
	json_t	*slot[8];

	nopeek_permute(slot, nopeek_deck_and_hands(saved, "deck", "hands",
	    seat, slot, 8), k, NULL, rng);
}

/* "play N" or "jouer N", N from -1 to 13: cards held, played, unknown. */
static void
ladder_text(const json_t *saved, int seat, struct rules_rng *rng, char *buf,
    size_t len)
{
	(void)saved;
	(void)seat;
	snprintf(buf, len, "%s %d", rules_rng_below(rng, 2) ? "play" :
	    "jouer", (int)rules_rng_below(rng, 15) - 1);
}

const struct nopeek_hider template_nopeek = {
	.ruleset = "template",
	.note = ladder_note,
	.hide = ladder_hide,
	.text = ladder_text,
};
