/*
 * nopeek.c -- Enterprise vs Excelsior's hider for the hidden-information
 * test (rules/nopeek.h): built into the tests only.
 * (check_eve.c has a differential test of its own on the module's
 * structures, with Briefing and Mirror Universe dealt on purpose.)
 *
 * What a seat cannot see (docs/eve.md, "Hidden information"): the order
 * of the travel deck, the order of its own deck, and which of the
 * opponent's cards lie in its hand, its reserve pile (in what order) or
 * its deck -- only their sizes are public.
 */
#include <stdio.h>
#include <string.h>

#include "nopeek.h"

/* Nothing to note: the hidden places are whole piles (their cards are
 * dealt anew among them), and shown cards leave them. */
static void
eve_note(const json_t *saved, struct nopeek_known *k)
{
	(void)saved;
	(void)k;
}

/* Deal the cards of a saved player's hand, reserve and deck anew among
 * those three places, keeping each one's size. */
static void
redeal_player(json_t *pl, struct rules_rng *rng)
{
	static const char *const keys[] = { "hand", "reserve", "deck" };
	json_t	*pool = json_array(), *a;
	size_t	 k, i, at = 0;

	for (k = 0; k < 3; k++)
		json_array_extend(pool, json_object_get(pl, keys[k]));
	nopeek_shuffle(pool, rng);
	for (k = 0; k < 3; k++) {
		a = json_object_get(pl, keys[k]);
		for (i = 0; i < json_array_size(a); i++)
			json_array_set(a, i, json_array_get(pool, at++));
	}
	json_decref(pool);
}

static void
eve_hide(json_t *saved, int seat, const struct nopeek_known *k,
    struct rules_rng *rng)
{
	json_t	*players = json_object_get(saved, "players");

	int	 s;

	(void)k;
	nopeek_shuffle(json_object_get(saved, "travel_deck"), rng);
	for (s = 0; s < 2; s++)
		if (s == seat)	/* its own deck's order only */
			nopeek_shuffle(json_object_get(json_array_get(players,
			    (size_t)s), "deck"), rng);
		else		/* the opponent's, or both for spectators */
			redeal_player(json_array_get(players, (size_t)s), rng);
}

/* A turn of one to four steps from the step words, aimed at the row. */
static void
eve_text(const json_t *saved, int seat, struct rules_rng *rng, char *buf,
    size_t len)
{
	static const char *const kinds[] = { "nebula", "asteroid",
	    "class-m", "black hole", "ion storm", "briefing", "retreat",
	    "neutral zone", "mirror universe" };
	int nrow = (int)json_array_size(json_object_get(saved, "row"));
	int nsteps = 1 + (int)rules_rng_below(rng, 4), i, a;
	char st[96];
	const char *kind;

	(void)seat;
	buf[0] = '\0';
	for (i = 0; i < nsteps; i++) {
		kind = kinds[rules_rng_below(rng, 5)];
		a = 1 + (int)rules_rng_below(rng, (uint32_t)nrow + 2);
		switch (rules_rng_below(rng, 12)) {
		case 0: snprintf(st, sizeof(st), "spock briefing extend %s",
		    rules_rng_below(rng, 2) ? "keep" : "flip keep"); break;
		case 1: snprintf(st, sizeof(st), "spock mirror universe swap "
		    "%d %d", a, nrow + 1); break;
		case 2: snprintf(st, sizeof(st), "spock mirror universe turn "
		    "%d", a); break;
		case 3: snprintf(st, sizeof(st), "fly %s%s", kind,
		    rules_rng_below(rng, 4) ? "" : " back"); break;
		case 4: snprintf(st, sizeof(st), "joker %s %s", kind, kind);
		    break;
		case 5: snprintf(st, sizeof(st), "spock neutral zone discard "
		    "%d", a); break;
		case 6: snprintf(st, sizeof(st), "spock retreat %s",
		    rules_rng_below(rng, 2) ? "forward" : "back"); break;
		case 7: snprintf(st, sizeof(st), "extend"); break;
		case 8: snprintf(st, sizeof(st), "fight"); break;
		case 9: snprintf(st, sizeof(st), "%s %s",
		    rules_rng_below(rng, 2) ? "reserve" : "starfleet",
		    kinds[rules_rng_below(rng, 9)]); break;
		case 10: snprintf(st, sizeof(st), "voler %s", kind); break;
		default: snprintf(st, sizeof(st), "pass");
		}
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
		    i ? "; " : "", st);
	}
}

const struct nopeek_hider eve_nopeek = {
	.ruleset = "eve",
	.note = eve_note,
	.hide = eve_hide,
	.text = eve_text,
};
