/*
 * nopeek.c -- Parry's hider for the hidden-information test
 * (rules/nopeek.h): built into the tests only.
 */
#include <stdio.h>

#include "nopeek.h"

/* Face up: the pile, the strike in a window, the last card played. */
static void
parry_note(const json_t *saved, struct nopeek_known *k)
{
	nopeek_add_known_all(k, json_object_get(saved, "pile"));
	nopeek_add_known(k, json_object_get(saved, "window"));
	nopeek_add_known(k, json_object_get(saved, "last_card"));
}

/* A parry card (9..12 in Parry's own set, the one the generic tests
 * play with: tests/testcards.h) in hand? */
static int
holds_parry(const json_t *hand)
{
	size_t i;

	for (i = 0; i < json_array_size(hand); i++)
		if (json_integer_value(json_array_get(hand, i)) > 8)
			return 1;
	return 0;
}

/* Hidden from seat: the deck's order, which cards lie in the other hands
 * or the deck, and, in a window, what each other seat answered (that it
 * answered shows; "parry" only from a seat that holds a parry). */
static void
parry_hide(json_t *saved, int seat, const struct nopeek_known *k,
    struct rules_rng *rng)
{
	json_t	*slot[8], *hands = json_object_get(saved, "hands");
	json_t	*answers = json_object_get(saved, "answers");
	int	 s;

	nopeek_permute(slot, nopeek_deck_and_hands(saved, "deck", "hands",
	    seat, slot, 8), k, NULL, rng);
	for (s = 0; s < (int)json_array_size(answers); s++) {
		if (s == seat || json_integer_value(json_array_get(answers,
		    (size_t)s)) == 0)
			continue;
		json_array_set_new(answers, (size_t)s, json_integer(
		    holds_parry(json_array_get(hands, (size_t)s)) &&
		    rules_rng_below(rng, 2) ? 2 : 1));
	}
}

static void
parry_text(const json_t *saved, int seat, struct rules_rng *rng, char *buf,
    size_t len)
{
	static const char *const words[] = { "strike", "frapper", "parry",
	    "parer", "pass", "passer" };
	int w = (int)rules_rng_below(rng, 6);

	(void)saved;
	(void)seat;
	if (w < 2)
		snprintf(buf, len, "%s %d", words[w],
		    1 + (int)rules_rng_below(rng, 12));
	else
		snprintf(buf, len, "%s", words[w]);
}

const struct nopeek_hider respond_nopeek = {
	.ruleset = "respond",
	.note = parry_note,
	.hide = parry_hide,
	.text = parry_text,
};
