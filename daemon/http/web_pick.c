/*
 * web_pick.c -- the move buttons of the seat page (web_pick.h), and
 * which cards each involves, so that play.js can build a move from
 * clicked cards (docs/WEB.md, "Building a move by clicking cards").
 *
 * A card of the page (the seat's hand and the discard area, as drawing.c
 * drew them from the seat's own view) is named by its "ref": its id when
 * it has one (Missions: G12, M03), else the name drawn on it (Ladder's
 * numbers, Enterprise vs Excelsior's travel types).  A move involves a
 * card when the card's ref is a whole word of the move's legal text or
 * of its label in the page's language (legal texts and their
 * translations name cards by id, number or type name).  Only what the
 * page already shows is read: the seat's legal moves and the cards of
 * its own view, so the marks say nothing the page does not.
 */
#include <string.h>

#include "protocol.h"
#include "web_last.h"
#include "web_pick.h"

/* Refs joined in a button's data-cards attribute: names may hold
 * spaces, never this. */
#define PICK_SEP	"|"
#define PICK_MAX	512

/* Is c part of a word?  Letters, digits and every byte of a UTF-8
 * sequence (accented letters). */
static int
wordish(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c >= 0x80;
}

static int
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Is word in text as a whole word, ASCII letters without case? */
static int
has_word(const char *text, const char *word)
{
	size_t n = strlen(word), i, k;

	if (n == 0)
		return 0;
	for (i = 0; text[i] != '\0'; i++) {
		if (i > 0 && wordish((unsigned char)text[i - 1]))
			continue;
		for (k = 0; k < n && text[i + k] != '\0' &&
		    lower((unsigned char)text[i + k]) ==
		    lower((unsigned char)word[k]); k++)
			;
		if (k == n && !wordish((unsigned char)text[i + n]))
			return 1;
	}
	return 0;
}

/* Give each card of list its "ref", and collect the refs, once each. */
static void
mark_cards(json_t *list, json_t *refs)
{
	const char *ref;
	json_t *card, *r;
	size_t i, k;
	int seen;

	json_array_foreach(list, i, card) {
		if ((ref = json_string_value(json_object_get(card, "id"))) ==
		    NULL && (ref = json_string_value(json_object_get(card,
		    "name"))) == NULL)
			continue;
		if (strstr(ref, PICK_SEP) != NULL)
			continue;
		json_object_set_new(card, "ref", json_string(ref));
		seen = 0;
		json_array_foreach(refs, k, r)
			if (strcmp(json_string_value(r), ref) == 0)
				seen = 1;
		if (!seen)
			json_array_append_new(refs, json_string(ref));
	}
}

json_t *
web_move_buttons(const struct gamestate *gs, int seat, const json_t *legal,
    enum rules_lang lang)
{
	const char *text, *label;
	char said[PROTO_MOVE_MAX + 1];
	json_t *out = json_array(), *j;
	size_t i;

	json_array_foreach(legal, i, j) {
		if ((text = json_string_value(j)) == NULL)
			continue;
		label = web_text_in_lang(gs, seat, text, lang, said,
		    sizeof(said));
		json_array_append_new(out, json_pack("{s:s, s:s}", "text",
		    text, "label", label));
	}
	return out;
}

void
web_pick_mark(json_t *data)
{
	json_t *refs = json_array(), *move, *r;
	const char *text, *label, *ref;
	char cards[PICK_MAX];
	size_t i, k;
	int any = 0;

	mark_cards(json_object_get(data, "hand"), refs);
	mark_cards(json_object_get(data, "discard"), refs);
	json_array_foreach(json_object_get(data, "moves"), i, move) {
		text = json_string_value(json_object_get(move, "text"));
		label = json_string_value(json_object_get(move, "label"));
		cards[0] = '\0';
		json_array_foreach(refs, k, r) {
			ref = json_string_value(r);
			if (!has_word(text, ref) && (label == NULL ||
			    !has_word(label, ref)))
				continue;
			if (strlen(cards) + strlen(ref) + 2 > sizeof(cards))
				break;
			if (cards[0] != '\0')
				strcat(cards, PICK_SEP);
			strcat(cards, ref);
		}
		if (cards[0] != '\0') {
			json_object_set_new(move, "cards", json_string(cards));
			any = 1;
		}
	}
	if (any)
		json_object_set_new(data, "can_pick", json_true());
	json_decref(refs);
}
