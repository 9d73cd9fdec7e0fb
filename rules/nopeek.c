/*
 * nopeek.c -- the list of the games' no-peek hiders, and helpers for
 * them (nopeek.h).  Built into tests/check_nopeek and
 * tests/check_templates only.
 */
#include <stdio.h>
#include <string.h>

#include "nopeek.h"
#include "nopeek_list.h"

const struct nopeek_hider *const *
nopeek_all(void)
{
	return hiders;
}

const struct nopeek_hider *
nopeek_find(const char *ruleset)
{
	int i;

	for (i = 0; hiders[i] != NULL; i++)
		if (strcmp(hiders[i]->ruleset, ruleset) == 0)
			return hiders[i];
	return NULL;
}

int
nopeek_is_known(const struct nopeek_known *k, const char *card)
{
	int i;

	for (i = 0; i < k->n; i++)
		if (strcmp(k->card[i], card) == 0)
			return 1;
	return 0;
}

/* The saved text of a card into text; 0, or -1 for an empty place. */
static int
card_text(const json_t *card, char *text, size_t len)
{
	if (json_is_string(card))
		snprintf(text, len, "%s", json_string_value(card));
	else if (json_is_integer(card) && json_integer_value(card) != 0)
		snprintf(text, len, "%lld",
		    (long long)json_integer_value(card));
	else
		return -1;
	return 0;
}

void
nopeek_add_known(struct nopeek_known *k, const json_t *card)
{
	char text[8];

	if (card_text(card, text, sizeof(text)) != 0)
		return;
	if (!nopeek_is_known(k, text) && k->n < NOPEEK_KNOWN_MAX)
		snprintf(k->card[k->n++], sizeof(k->card[0]), "%s", text);
}

void
nopeek_add_known_all(struct nopeek_known *k, const json_t *cards)
{
	size_t i;

	for (i = 0; i < json_array_size(cards); i++)
		nopeek_add_known(k, json_array_get(cards, i));
}

#define PERMUTE_MAX	256	/* cards of one kind permuted at most */

void
nopeek_permute(json_t **slot, int nslot, const struct nopeek_known *k,
    int (*kind_of)(const json_t *), struct rules_rng *rng)
{
	json_t	*card[PERMUTE_MAX], *c, *t;
	size_t	 where_i[PERMUTE_MAX], j;
	int	 where_s[PERMUTE_MAX], n, kind, i, r, s;
	char	 text[8];

	for (kind = 0; kind < 2; kind++) {
		n = 0;
		for (s = 0; s < nslot; s++)
			for (j = 0; j < json_array_size(slot[s]); j++) {
				c = json_array_get(slot[s], j);
				if (card_text(c, text, sizeof(text)) != 0 ||
				    (kind_of ? kind_of(c) : 0) != kind ||
				    nopeek_is_known(k, text) ||
				    n == PERMUTE_MAX)
					continue;
				card[n] = json_incref(c);
				where_s[n] = s;
				where_i[n] = j;
				n++;
			}
		/* Fisher-Yates on the cards, then put them back in place. */
		for (i = n - 1; i > 0; i--) {
			r = (int)rules_rng_below(rng, (uint32_t)i + 1);
			t = card[i];
			card[i] = card[r];
			card[r] = t;
		}
		for (i = 0; i < n; i++)
			json_array_set_new(slot[where_s[i]], where_i[i],
			    card[i]);
	}
}

int
nopeek_deck_and_hands(json_t *saved, const char *deck, const char *hands,
    int seat, json_t **slot, int max)
{
	json_t	*all = json_object_get(saved, hands);
	int	 n = 0, s;

	if (max > 0)
		slot[n++] = json_object_get(saved, deck);
	for (s = 0; s < (int)json_array_size(all) && n < max; s++)
		if (s != seat)
			slot[n++] = json_array_get(all, (size_t)s);
	return n;
}

void
nopeek_shuffle(json_t *a, struct rules_rng *rng)
{
	size_t	 i, j, n = json_array_size(a);
	json_t	*x, *y;

	for (i = n; i > 1; i--) {
		j = rules_rng_below(rng, (uint32_t)i);
		x = json_incref(json_array_get(a, i - 1));
		y = json_incref(json_array_get(a, j));
		json_array_set_new(a, i - 1, y);
		json_array_set_new(a, j, x);
	}
}
