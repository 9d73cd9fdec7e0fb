/*
 * nopeek.c -- Captain's Chair's hider for the hidden-information tests
 * (rules/nopeek.h): built into the tests only.
 *
 * Hidden from every seat: the order of every face-down deck (the four
 * market decks, ENCOUNTER, INCIDENT, LOCATION) and of each seat's deck
 * and reserve.  Hidden from the other seat (and spectators): which of a
 * seat's cards lie in its hand, its deck or its Captain's Log, and which
 * cards of a market deck a scan waiting for its pick has taken.  Cards
 * are saved as kind numbers, so a kind once shown stays in place.
 */
#include <stdio.h>

#include "nopeek.h"

/* Nothing needs keeping in place: cards are kinds, and no answer of the
 * module depends on which of another seat's hidden places holds a kind
 * the table once saw. */
static void
note(const json_t *saved, struct nopeek_known *k)
{
	(void)saved;
	(void)k;
}

static void
permute_one(json_t *a, const struct nopeek_known *k, struct rules_rng *rng)
{
	json_t *slot[1] = { a };

	if (a != NULL)
		nopeek_permute(slot, 1, k, NULL, rng);
}

static void
hide(json_t *saved, int seat, const struct nopeek_known *k,
    struct rules_rng *rng)
{
	json_t *seats = json_object_get(saved, "seats");
	json_t *market = json_object_get(saved, "market");
	static const char *const decks[] = { "encounter", "incident",
		"locations", NULL };
	json_t *st = json_object_get(saved, "state");
	int scan_suit = (int)json_integer_value(json_object_get(saved,
	    "scan_suit"));

	for (size_t m = 0; m < json_array_size(market); m++)
		permute_one(json_array_get(market, m), k, rng);
	if (json_object_get(saved, "scan_suit") != NULL && scan_suit >= 0 &&
	    seat != (int)json_integer_value(json_object_get(st, "active"))) {
		json_t *slot[2] = { json_object_get(saved, "scan"),
			json_array_get(market, (size_t)scan_suit) };
		nopeek_permute(slot, 2, k, NULL, rng);
	}
	for (int d = 0; decks[d] != NULL; d++)
		permute_one(json_object_get(saved, decks[d]), k, rng);
	for (size_t i = 0; i < json_array_size(seats); i++) {
		json_t *p = json_array_get(seats, i);
		permute_one(json_object_get(p, "reserve"), k, rng);
		if ((int)i == seat)
			permute_one(json_object_get(p, "deck"), k, rng);
		else {
			json_t *slot[3] = { json_object_get(p, "hand"),
				json_object_get(p, "deck"),
				json_object_get(p, "log") };
			nopeek_permute(slot, 3, k, NULL, rng);
		}
	}
}

static void
text(const json_t *saved, int seat, struct rules_rng *rng, char *buf,
    size_t len)
{
	static const char *const verbs[] = { "play", "jouer", "activate",
		"discard", "react", "control", "end", "pass", "pick",
		"choisir" };
	static const char *const names[] = { "Ensign Talis", "Warrior Gath",
		"Doctor Yune", "Broker Nix", "Outpost Kessel", "Amber Nebula",
		"Open Channels", "Call to Arms", "Warp Core Breach",
		"Raiding Party", "USS Meridian", "Captain Dace Korrin" };

	(void)saved;
	(void)seat;
	snprintf(buf, len, "%s %s%s%s", verbs[rules_rng_below(rng, 10)],
	    names[rules_rng_below(rng, 12)], rules_rng_below(rng, 2) ?
	    " on " : "", rules_rng_below(rng, 2) ? "" :
	    names[rules_rng_below(rng, 12)]);
}

const struct nopeek_hider captains_nopeek = {
	.ruleset = "captains",
	.note = note,
	.hide = hide,
	.text = text,
};
