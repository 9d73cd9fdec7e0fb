/*
 * nopeek.c -- Mission to Planet Hexx!'s hider for the hidden-information
 * tests (rules/nopeek.h): built into the tests only.
 *
 * What a seat cannot see (docs/hexx.md, "Hidden information"): the deck's
 * order and the cards of the other hands (only their sizes are public),
 * and, while a window is open, which other seats answered with a
 * Surprise (until they are shown for a riposte), and a hand shown to
 * another seat (ruleset 2).  A card shown from the deck's top is known
 * to all.
 */
#include <stdio.h>

#include "nopeek.h"

static void
hexx_note(const json_t *saved, struct nopeek_known *k)
{
	const json_t *shown = json_object_get(json_object_get(saved, "last"),
	    "shown");

	const json_t *pending = json_object_get(saved, "pending");
	const json_t *card;
	size_t s;

	if (json_is_string(shown))
		nopeek_add_known(k, shown);
	/* Surprises shown to the seat that may riposte are public. */
	if (json_integer_value(json_object_get(pending, "riposte")) == 1)
		json_array_foreach(json_object_get(pending, "surprises"), s,
		    card)
			if (json_is_string(card))
				nopeek_add_known(k, card);
}

static void
hexx_hide(json_t *saved, int seat, const struct nopeek_known *k,
    struct rules_rng *rng)
{
	json_t *slot[8], *surprises, *shown;
	size_t s;

	nopeek_permute(slot, nopeek_deck_and_hands(saved, "deck", "hands",
	    seat, slot, 8), k, NULL, rng);
	/* A hand shown to another seat (ruleset 2) is that seat's alone. */
	shown = json_object_get(saved, "shown");
	for (s = 0; s < json_array_size(shown); s++)
		if ((int)s != seat)
			json_array_set_new(shown, s, json_null());
	/* Answers stay secret until the window closes, or until they are
	 * shown to the seat that may riposte. */
	surprises = json_object_get(json_object_get(saved, "pending"),
	    "surprises");
	if (json_integer_value(json_object_get(json_object_get(saved,
	    "pending"), "riposte")) == 1)
		return;
	for (s = 0; s < json_array_size(surprises); s++)
		if ((int)s != seat)
			json_array_set_new(surprises, s, json_null());
}

/* A verb of either language with a card id of the saved state (own
 * hand, deck or board) and a hex near the centre. */
static void
hexx_text(const json_t *saved, int seat, struct rules_rng *rng, char *buf,
    size_t len)
{
	static const char *const verbs[] = { "event", "événement", "transmit",
		"transmettre", "refresh", "actualiser", "surprise", "schema",
		"move", "déplacer", "pass", "passer", "end", "fin", "side" };
	const json_t *pool = json_object_get(saved, "deck");
	const json_t *hand = json_array_get(json_object_get(saved, "hands"),
	    (size_t)(seat < 0 ? 0 : seat));
	const char *verb = verbs[rules_rng_below(rng, 15)];
	const char *card = "space-base";
	int q = (int)rules_rng_below(rng, 7) - 3;
	int r = (int)rules_rng_below(rng, 7) - 3;

	if (rules_rng_below(rng, 2) && json_array_size(hand) > 0)
		pool = hand;
	if (json_array_size(pool) > 0)
		card = json_string_value(json_array_get(pool,
		    rules_rng_below(rng, (uint32_t)json_array_size(pool))));
	if (verb[0] == 'm' || verb[0] == 'd')
		snprintf(buf, len, "%s %d,%d", verb, q, r);
	else if (verb[0] == 's' && verb[1] == 'c')
		snprintf(buf, len, "%s %s at %d,%d", verb, card, q, r);
	else
		snprintf(buf, len, "%s %s", verb, card);
}

const struct nopeek_hider hexx_nopeek = {
	.ruleset = "hexx",
	.note = hexx_note,
	.hide = hexx_hide,
	.text = hexx_text,
};
