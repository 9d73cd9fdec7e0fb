/*
 * cards.c -- reading Parry's card file (parry.h).
 *
 * The file (YAML, rules/cardfile.h) is one mapping with one key, cards:
 * a list of the twelve cards, each a mapping of
 *   id     1..12, each id exactly once;
 *   kind   "strike" or "parry";
 *   value  for a strike only: the points it scores, 1..99.
 * At least one card is a strike.  Anything else is refused with
 * "FILE:LINE: card ID, field FIELD: what is wrong".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardfile.h"
#include "parry.h"
#include "rules.h"

/* An integer field of card in lo..hi, or -1 with the refusal in err. */
static int
int_field(const struct rules_cardfile *file, const json_t *card,
    const char *id, const char *field, int lo, int hi, int *out, char *err,
    size_t errlen)
{
	const json_t *v = json_object_get(card, field);

	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi)
		return rules_cardfile_error(file, card, id, field, err, errlen,
		    "%s a whole number from %d to %d", v == NULL ?
		    "missing; give" : "is not", lo, hi);
	*out = (int)json_integer_value(v);
	return 0;
}

/* Read one card of the list into set. */
static int
read_card(const struct rules_cardfile *file, const json_t *card,
    size_t index, struct parry_set *set, char *err, size_t errlen)
{
	const char *kind, *key;
	char id[32];
	json_t *v;
	int n;

	snprintf(id, sizeof(id), "#%zu", index + 1);
	if (!json_is_object(card))
		return rules_cardfile_error(file, card, id, NULL, err, errlen,
		    "a card is a mapping of id, kind and value");
	if (int_field(file, card, id, "id", 1, PARRY_DECK, &n, err,
	    errlen) != 0)
		return -1;
	snprintf(id, sizeof(id), "%d", n);
	if (set->kind[n] != PARRY_KIND_NONE)
		return rules_cardfile_error(file, card, id, "id", err, errlen,
		    "card %d is listed twice; each id 1 to %d once", n,
		    PARRY_DECK);
	json_object_foreach((json_t *)card, key, v)
		if (strcmp(key, "id") != 0 && strcmp(key, "kind") != 0 &&
		    strcmp(key, "value") != 0)
			return rules_cardfile_error(file, card, id, key, err,
			    errlen, "unknown field; a card has id, kind and "
			    "value");
	kind = json_string_value(json_object_get(card, "kind"));
	if (kind != NULL && strcmp(kind, "strike") == 0) {
		set->kind[n] = PARRY_KIND_STRIKE;
		return int_field(file, card, id, "value", 1, PARRY_MAX_VALUE,
		    &set->value[n], err, errlen);
	}
	if (kind != NULL && strcmp(kind, "parry") == 0) {
		set->kind[n] = PARRY_KIND_PARRY;
		if (json_object_get(card, "value") != NULL)
			return rules_cardfile_error(file, card, id, "value",
			    err, errlen, "a parry scores nothing; remove its "
			    "value");
		return 0;
	}
	return rules_cardfile_error(file, card, id, "kind", err, errlen,
	    "is %s; write strike or parry", kind == NULL ? "missing" :
	    "not strike or parry");
}

/* "1 to 8" when the strikes are 1..n, else the ids one by one. */
static void
strike_ids(struct parry_set *set)
{
	char list[64] = "";
	size_t used;
	int c, n = 0, from_one = 1;

	for (c = 1; c <= PARRY_DECK; c++)
		if (set->kind[c] == PARRY_KIND_STRIKE) {
			n++;
			used = strlen(list);
			snprintf(list + used, sizeof(list) - used, "%s%d",
			    used > 0 ? ", " : "", c);
		}
	for (c = 1; c <= n; c++)
		from_one &= set->kind[c] == PARRY_KIND_STRIKE;
	if (from_one && n > 1) {
		snprintf(set->strikes_en, sizeof(set->strikes_en), "1 to %d", n);
		snprintf(set->strikes_fr, sizeof(set->strikes_fr), "1 à %d", n);
	} else {
		snprintf(set->strikes_en, sizeof(set->strikes_en), "%s", list);
		snprintf(set->strikes_fr, sizeof(set->strikes_fr), "%s", list);
	}
}

void *
parry_cards_parse(const char *bytes, size_t len, const char *filename,
    char *err, size_t errlen)
{
	struct rules_cardfile *file;
	struct parry_set *set;
	const json_t *root, *cards;
	const char *key;
	json_t *v;
	size_t i;
	int c, strikes = 0;

	if ((file = rules_cardfile_read(bytes, len, filename, err,
	    errlen)) == NULL)
		return NULL;
	if ((set = calloc(1, sizeof(*set))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", filename);
		rules_cardfile_free(file);
		return NULL;
	}
	root = rules_cardfile_root(file);
	cards = json_object_get(root, "cards");
	if (!json_is_object(root) || !json_is_array(cards) ||
	    json_array_size(cards) != PARRY_DECK) {
		rules_cardfile_error(file, root, NULL, json_is_object(root) ?
		    "cards" : NULL, err, errlen, "a Parry card file is one "
		    "mapping whose \"cards\" lists the %d cards", PARRY_DECK);
		goto bad;
	}
	json_object_foreach((json_t *)root, key, v)
		if (strcmp(key, "cards") != 0) {
			rules_cardfile_error(file, root, NULL, key, err,
			    errlen, "unknown key; the file has only cards");
			goto bad;
		}
	for (i = 0; i < PARRY_DECK; i++)
		if (read_card(file, json_array_get(cards, i), i, set, err,
		    errlen) != 0)
			goto bad;
	for (c = 1; c <= PARRY_DECK; c++)
		strikes += set->kind[c] == PARRY_KIND_STRIKE;
	if (strikes == 0) {
		rules_cardfile_error(file, root, NULL, "cards", err, errlen,
		    "no card is a strike; a game needs at least one");
		goto bad;
	}
	strike_ids(set);
	rules_cardfile_free(file);
	return set;
bad:
	rules_cardfile_free(file);
	free(set);
	return NULL;
}

void
parry_cards_free(void *cards)
{
	free(cards);
}
