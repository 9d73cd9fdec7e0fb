/*
 * nopeek.c -- Star Trek: Missions' hider for the hidden-information test
 * (rules/nopeek.h): built into the tests only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cards.h"
#include "nopeek.h"

/* Sort a hand of card ids ("G05" < "G12" < "M01", as the module keeps
 * them). */
static int
cmp_ids(const void *a, const void *b)
{
	return strcmp(json_string_value(*(json_t *const *)a),
	    json_string_value(*(json_t *const *)b));
}

static void
sort_ids(json_t *hand)
{
	json_t	*c[STM_NCARDS];
	size_t	 n = json_array_size(hand), i;

	if (n > STM_NCARDS)	/* not a hand load() takes: leave it */
		return;
	for (i = 0; i < n; i++)
		c[i] = json_incref(json_array_get(hand, i));
	qsort(c, n, sizeof(c[0]), cmp_ids);
	for (i = 0; i < n; i++)
		json_array_set_new(hand, i, c[i]);
}

/* The card v stands for after old -> new (two arrays of n ids), or NULL
 * when v is not one of them. */
static json_t *
mapped(const json_t *v, json_t *const *from, json_t *const *to, int n)
{
	int c;

	if (!json_is_string(v))
		return NULL;
	for (c = 0; c < n; c++)
		if (strcmp(json_string_value(v), json_string_value(from[c])) ==
		    0)
			return to[c];
	return NULL;
}

/* Apply old -> new to every string in j, each once. */
static void
relabel(json_t *j, json_t *const *from, json_t *const *to, int n)
{
	const char	*key;
	json_t		*v, *now;
	size_t		 i;

	if (json_is_array(j))
		json_array_foreach(j, i, v) {
			if ((now = mapped(v, from, to, n)) != NULL)
				json_array_set(j, i, now);
			else
				relabel(v, from, to, n);
		}
	else if (json_is_object(j))
		json_object_foreach(j, key, v) {
			if ((now = mapped(v, from, to, n)) != NULL)
				json_object_set(j, key, now);
			else
				relabel(v, from, to, n);
		}
}

/* What shows: the discard area, what the last turn took and discarded,
 * what a turn sent in two halves took, Meddlesome Q (M18) once its
 * holder makes the final draw. */
static void
stm_note(const json_t *saved, struct nopeek_known *k)
{
	const json_t *last = json_object_get(saved, "last");
	const json_t *pending = json_object_get(saved, "pending");

	nopeek_add_known_all(k, json_object_get(saved, "discard"));
	nopeek_add_known(k, json_object_get(last, "taken"));
	nopeek_add_known_all(k, json_object_get(last, "discarded"));
	nopeek_add_known(k, json_object_get(pending, "taken"));
	/* Meddlesome Q's final draw shows who holds it. */
	if (json_is_integer(json_object_get(saved, "q_seat"))) {
		json_t *q = json_string("M18");

		nopeek_add_known(k, q);
		json_decref(q);
	}
}

static int
stm_kind(const json_t *card)
{
	return json_string_value(card)[0] == 'M';
}

/*
 * Hidden from seat: the order of both decks, and which of the cards
 * never shown lie in another seat's hand or in a deck.  The cards are
 * relabelled (a permutation of the hidden Galaxy cards among themselves,
 * the same for Mission cards) everywhere in the state, so a card another
 * seat drew in the first half of its turn stays in that seat's hand.
 */
static void
stm_hide(json_t *saved, int seat, const struct nopeek_known *k,
    struct rules_rng *rng)
{
	json_t		*slot[8], *hands = json_object_get(saved, "hands");
	json_t		*copy[8], *from[STM_NCARDS], *to[STM_NCARDS];
	int		 nslot = 0, n = 0, s, i;
	size_t		 j;

	slot[nslot++] = json_object_get(saved, "galaxy_deck");
	slot[nslot++] = json_object_get(saved, "mission_deck");
	for (s = 0; s < (int)json_array_size(hands); s++)
		if (s != seat && nslot < 8)
			slot[nslot++] = json_array_get(hands, (size_t)s);
	for (i = 0; i < nslot; i++)
		copy[i] = json_deep_copy(slot[i]);
	nopeek_permute(slot, nslot, k, stm_kind, rng);
	/* The permutation as a relabelling old -> new. */
	for (i = 0; i < nslot; i++)
		for (j = 0; j < json_array_size(slot[i]) &&
		    n < STM_NCARDS; j++) {
			from[n] = json_array_get(copy[i], j);
			to[n] = json_incref(json_array_get(slot[i], j));
			n++;
		}
	/* Undo the in-place change, then relabel the whole state at once. */
	for (i = 0; i < nslot; i++)
		for (j = 0; j < json_array_size(slot[i]); j++)
			json_array_set(slot[i], j, json_array_get(copy[i], j));
	relabel(saved, from, to, n);
	for (i = 0; i < n; i++)
		json_decref(to[i]);
	for (i = 0; i < nslot; i++)
		json_decref(copy[i]);
	for (s = 0; s < (int)json_array_size(hands); s++)
		sort_ids(json_array_get(hands, (size_t)s));
}

static const char *
any_card(struct rules_rng *rng)
{
	return stm_cards[rules_rng_below(rng, STM_NCARDS)].id;
}

/* A word of a card's name, English or French ("Sarek", "Bat'leth"). */
static void
name_word(struct rules_rng *rng, char *out, size_t len)
{
	const struct stm_card *c = &stm_cards[rules_rng_below(rng,
	    STM_NCARDS)];
	const char *name = rules_rng_below(rng, 2) ? c->name_en : c->name_fr;
	const char *sp = strchr(name, ' ');

	if (sp == NULL || rules_rng_below(rng, 2))
		snprintf(out, len, "%s", sp ? sp + 1 : name);
	else
		snprintf(out, len, "%.*s", (int)(sp - name), name);
}

static void
stm_text(const json_t *saved, int seat, struct rules_rng *rng, char *buf,
    size_t len)
{
	static const char *const forms[] = {
		"take %s, discard %s", "draw galaxy, discard %s, %s",
		"draw missions, discard %s, %s", "discard %s, %s",
		"q take %s, discard %s", "draw galaxy, discard %s",
		"draw galaxy, discard drawn, %s", "prendre %s, défausser %s",
		"piocher galaxie, défausser %s, %s",
		"piocher missions, défausser piochée, %s", "take %s",
		"draw galaxy then discard %s and %s"
	};
	const char	*f = forms[rules_rng_below(rng, sizeof(forms) /
	    sizeof(forms[0]))];
	char		 a[64], b[64];

	(void)saved;
	(void)seat;
	if (rules_rng_below(rng, 3) == 0)
		name_word(rng, a, sizeof(a));
	else
		snprintf(a, sizeof(a), "%s", any_card(rng));
	if (rules_rng_below(rng, 3) == 0)
		name_word(rng, b, sizeof(b));
	else
		snprintf(b, sizeof(b), "%s", any_card(rng));
	snprintf(buf, len, f, a, b);
}


const struct nopeek_hider stmissions_nopeek = {
	.ruleset = "stmissions",
	.note = stm_note,
	.hide = stm_hide,
	.text = stm_text,
};
