/*
 * drawing.c -- what the web page (seat and public) and the HTML part of
 * a seat's mail draw, taken from
 * a presented view (present_view()) and nothing else: the view is
 * already cut to what its viewer may see (the module's view()), so
 * nothing drawn here can show another seat's hand.
 *
 * Like present.c it knows no game, only key names the modules use:
 *   players   seats[] objects: "score", and the card count from
 *             "cards_left" or "hand_size";
 *   hand      the top-level "hand" (Missions), else the viewer's
 *             seats[].hand_cards (Enterprise vs Excelsior), else its
 *             seats[].hand (Ladder: numbers);
 *   discard   the top-level "discard" (Missions) or "pile" (Ladder),
 *             else every seat's "discard_cards";
 *   route     "row" of Enterprise vs Excelsior: each card of the route
 *             with both ships and the Klingon, after the start
 *             ("enterprise_at_start", "excelsior_at_start");
 *   board_svg a drawing the module made itself (Mission to Planet
 *             Hexx!'s hex board), and "board"'s hexes for the mail;
 *   a card    its kind from "traits", "kind" or "suit" and its note from
 *             "bonus", "text" or "ops_line", the first a card has.
 * A card becomes {"lines", "name", "kind", "kind_text", "note",
 * "note_text", "id"} for the card partials: the web page's SVG card
 * (templates/LANG/web/card.html.mustache) draws the name, kind and note
 * as lines wrapped to fit ("lines", "kind", "note"); the mail's table
 * cell (templates/LANG/mail/picture_card.html.mustache) shows them
 * whole ("name", "kind_text", "note_text") and lets the client wrap.
 * "id" is the card's id, when it has one (G12, M03).
 */
#include <stdio.h>
#include <string.h>

#include "drawing.h"

/* Characters of one line of a card's name, of its kind (smaller type)
 * and of its note (smaller still), and the lines each may take: the
 * name at the top, the kind below it down to KIND_BOTTOM, the note at
 * the bottom.  What does not fit ends its last line with "…"; the
 * card's <title> holds the whole text. */
#define CARD_LINE	16
#define CARD_KIND_LINE	21
#define CARD_NOTE_LINE	24
#define CARD_NAME_LINES	3
#define CARD_NOTE_LINES	3
#define KIND_BOTTOM	118
#define KIND_STEP	12

/* Where a card object of a view keeps its kind and its note, first key
 * first (present_view() has already put the reader's language in the
 * plain key): Missions' traits and bonus, Planet Hexx!'s kind and text,
 * Captain's Chair's suit and operations. */
static const char *const kind_keys[] = { "traits", "kind", "suit", NULL };
static const char *const note_keys[] = { "bonus", "text", "ops_line", NULL };

/* The bytes of a French high punctuation mark standing alone at w (";",
 * ":", "!", "?", "»", then a space or the end), or 0. */
static size_t
high_punct(const char *w)
{
	size_t n = 0;

	if (*w == ';' || *w == ':' || *w == '!' || *w == '?')
		n = 1;
	else if (strncmp(w, "»", 2) == 0)
		n = 2;
	return n > 0 && (w[n] == ' ' || w[n] == '\0') ? n : 0;
}

/* The bytes of the next piece of w to place on a line, and its width in
 * characters (a UTF-8 sequence counts once): up to a space, or up to
 * and with a hyphen, so that "Lieutenant-Commander" may break after
 * "Lieutenant-".  A piece wider than width is cut at width. French
 * punctuation keeps to its word. */
static size_t
piece(const char *w, size_t width, size_t *chars)
{
	size_t len = 0, plen, more;

	*chars = 0;
	while (w[len] != '\0' && w[len] != ' ') {
		if (((unsigned char)w[len] & 0xc0) != 0x80) {
			if (*chars == width)
				break;
			(*chars)++;
		}
		if (w[len++] == '-' && w[len] != ' ' && w[len] != '\0')
			break;
	}
	/* Whole UTF-8 sequences only. */
	while (((unsigned char)w[len] & 0xc0) == 0x80)
		len++;
	/* French punctuation after a space stays with the word before it
	 * ("carte »", "mot ;"), and "«" with the word after it. */
	if (w[len] == ' ' && (plen = high_punct(w + len + 1)) > 0) {
		len += 1 + plen;
		*chars += 2;
	} else if (len == 2 && memcmp(w, "«", 2) == 0 && w[2] == ' ' &&
	    w[3] != '\0' && w[3] != ' ') {
		len = 3 + piece(w + 3, width, &more);
		*chars += 1 + more;
	}
	return len;
}

/* Append text to lines, wrapped to width characters, in at most
 * max_lines lines; the last line ends with "…" when text goes on. */
static void
wrap(json_t *lines, const char *text, size_t width, size_t max_lines)
{
	char line[160];
	size_t len = 0, chars = 0, plen, pchars, i;
	const char *w = text;
	int glue = 0;	/* the piece follows a hyphen: no space before it */

	line[0] = '\0';
	for (;;) {
		if (!glue)
			while (*w == ' ')
				w++;
		if (*w == '\0')
			break;
		plen = piece(w, width, &pchars);
		if (len > 0 && chars + (glue ? 0 : 1) + pchars > width) {
			if (json_array_size(lines) + 1 == max_lines)
				break;
			json_array_append_new(lines, json_string(line));
			len = chars = 0;
			line[0] = '\0';
			glue = 0;
			continue;
		}
		if (len + plen + 2 >= sizeof(line))
			break;
		if (len > 0 && !glue) {
			line[len++] = ' ';
			chars++;
		}
		for (i = 0; i < plen; i++)
			line[len++] = w[i];
		line[len] = '\0';
		chars += pchars;
		glue = plen > 0 && w[plen - 1] == '-';
		w += plen;
	}
	while (*w == ' ')
		w++;
	if (*w != '\0' && len + sizeof("…") < sizeof(line))
		strcat(line, "…");
	if (len > 0)
		json_array_append_new(lines, json_string(line));
}

void
draw_wrap_lines(json_t *lines, const char *text, size_t width)
{
	wrap(lines, text, width, 0);
}

/* Lines (strings) as [{"text", "y"}] from y on, step apart. */
static json_t *
placed(json_t *lines, int y, int step)
{
	json_t *out = json_array(), *l;
	size_t i;

	json_array_foreach(lines, i, l)
		json_array_append_new(out, json_pack("{s:O, s:i}", "text", l,
		    "y", y + (int)i * step));
	json_decref(lines);
	return out;
}

/* The string value of the first of keys (NULL-terminated) that c has
 * as a string, or NULL. */
static const char *
first_string(const json_t *c, const char *const *keys)
{
	const char *value;

	for (; *keys != NULL; keys++)
		if ((value = json_string_value(json_object_get(c, *keys))) !=
		    NULL)
			return value;
	return NULL;
}

/* A card of the view as the card partial draws it. */
static json_t *
card_of(const json_t *c)
{
	json_t *lines = json_array(), *card;
	int y;
	const char *name, *kind = NULL, *note = NULL, *id = NULL;
	char num[32];

	if (json_is_integer(c)) {
		snprintf(num, sizeof(num), "%lld",
		    (long long)json_integer_value(c));
		name = num;
	} else if (json_is_string(c))
		name = json_string_value(c);
	else {
		name = json_string_value(json_object_get(c, "name"));
		id = json_string_value(json_object_get(c, "id"));
		kind = first_string(c, kind_keys);
		note = first_string(c, note_keys);
		if (json_is_true(json_object_get(c, "spock")))
			note = "Spock";
	}
	wrap(lines, name != NULL ? name : "?", CARD_LINE, CARD_NAME_LINES);
	y = 34 + 16 * (int)json_array_size(lines);
	card = json_pack("{s:o, s:s}", "lines", placed(lines, 30, 16),
	    "name", name != NULL ? name : "?");
	if (kind != NULL) {
		json_t *k = json_array();

		wrap(k, kind, CARD_KIND_LINE, y > KIND_BOTTOM ? 1 :
		    (size_t)(KIND_BOTTOM - y) / KIND_STEP + 1);
		json_object_set_new(card, "kind", placed(k, y, KIND_STEP));
		json_object_set_new(card, "kind_text", json_string(kind));
	}
	if (note != NULL) {
		json_t *n = json_array();

		wrap(n, note, CARD_NOTE_LINE, CARD_NOTE_LINES);
		json_object_set_new(card, "note", placed(n, 128, 11));
		json_object_set_new(card, "note_text", json_string(note));
	}
	/* The id the move buttons and mails name the card by (G12, M03). */
	if (id != NULL)
		json_object_set_new(card, "id", json_string(id));
	return card;
}

static json_t *
cards_of(const json_t *list)
{
	json_t *out = json_array(), *c;
	size_t i;

	json_array_foreach(list, i, c)
		json_array_append_new(out, card_of(c));
	return out;
}

/* The viewer's own object of seats[], or NULL. */
static const json_t *
own_seat(const json_t *seats, int viewer)
{
	const json_t *s;
	size_t i;

	if (viewer < 0)
		return NULL;
	json_array_foreach(seats, i, s)
		if (json_integer_value(json_object_get(s, "seat")) == viewer)
			return s;
	return NULL;
}

static json_t *
players_of(const json_t *shown, int nseats, const char *const *names,
    int viewer)
{
	const json_t *seats = json_object_get(shown, "seats");
	const json_t *to_act = json_object_get(shown, "to_act"), *s, *v;
	json_t *out = json_array(), *p;
	size_t i;
	int seat;

	for (seat = 0; seat < nseats; seat++) {
		p = json_pack("{s:i, s:s, s:b, s:b}", "seat", seat, "name",
		    names[seat], "you", seat == viewer, "to_act", 0);
		json_array_foreach(to_act, i, v)
			if (json_integer_value(v) == seat)
				json_object_set_new(p, "to_act", json_true());
		if ((s = json_array_get(seats, (size_t)seat)) != NULL) {
			/* As text: Mustache hides a section of 0. */
			if (json_is_integer(v = json_object_get(s, "score")))
				json_object_set_new(p, "score", json_sprintf(
				    "%lld", (long long)json_integer_value(v)));
			if (json_is_integer(v = json_object_get(s,
			    "cards_left")) || json_is_integer(v =
			    json_object_get(s, "hand_size")))
				json_object_set_new(p, "cards", json_sprintf(
				    "%lld", (long long)json_integer_value(v)));
		}
		json_array_append_new(out, p);
	}
	return out;
}

/* The route of Enterprise vs Excelsior: one step per card of "row". */
static json_t *
route_of(const json_t *row)
{
	json_t *out = json_array(), *r;
	const json_t *step;
	size_t i;

	json_array_foreach(row, i, step) {
		r = json_pack("{s:i, s:i, s:O?, s:O?, s:b, s:b, s:b, s:b}",
		    "x", (int)(74 + i * 64), "label_x", (int)(104 + i * 64),
		    "enterprise", json_object_get(step, "enterprise_abbr"),
		    "excelsior", json_object_get(step, "excelsior_abbr"),
		    "enterprise_ship", json_is_true(json_object_get(step,
		    "enterprise_ship")),
		    "excelsior_ship", json_is_true(json_object_get(step,
		    "excelsior_ship")),
		    "enterprise_klingon", json_is_true(json_object_get(step,
		    "enterprise_klingon")),
		    "excelsior_klingon", json_is_true(json_object_get(step,
		    "excelsior_klingon")));
		if (r != NULL)
			json_array_append_new(out, r);
	}
	return out;
}

/* A hex board's hexes for the mail's table: where, which schema, its
 * data on a planet, the ships on it (with the players' names). */
static json_t *
hexes_of(const json_t *board)
{
	json_t *out = json_array(), *h;
	const json_t *hex;
	size_t i;

	json_array_foreach(board, i, hex) {
		h = json_pack("{s:O?,s:O?,s:O?,s:O?}", "hex",
		    json_object_get(hex, "hex"), "name", json_object_get(
		    json_object_get(hex, "card"), "name"), "data",
		    json_object_get(hex, "data"), "ships",
		    json_object_get(hex, "ships"));
		json_array_append_new(out, h);
	}
	return out;
}

void
draw_view_fill(json_t *data, const json_t *shown, int nseats,
    const char *const *names, int viewer)
{
	const json_t *seats = json_object_get(shown, "seats");
	const json_t *mine = own_seat(seats, viewer), *hand = NULL, *v, *s;
	json_t *discard, *more;
	size_t i;

	json_object_set_new(data, "players", players_of(shown, nseats, names,
	    viewer));
	if (viewer >= 0) {
		if ((hand = json_object_get(shown, "hand")) == NULL &&
		    mine != NULL && (hand = json_object_get(mine,
		    "hand_cards")) == NULL)
			hand = json_object_get(mine, "hand");
		if (json_is_array(hand) && json_array_size(hand) > 0) {
			json_object_set_new(data, "hand", cards_of(hand));
			json_object_set_new(data, "has_hand", json_true());
		}
	}
	if ((v = json_object_get(shown, "discard")) != NULL ||
	    (v = json_object_get(shown, "pile")) != NULL)
		discard = cards_of(v);
	else {
		discard = json_array();
		json_array_foreach(seats, i, s) {
			more = cards_of(json_object_get(s, "discard_cards"));
			json_array_extend(discard, more);
			json_decref(more);
		}
	}
	if (json_array_size(discard) > 0) {
		json_object_set_new(data, "discard", discard);
		json_object_set_new(data, "has_discard", json_true());
	} else
		json_decref(discard);
	/* A hex board (Mission to Planet Hexx!): the module draws it
	 * ("board_svg", in the reader's language) for the web page; the
	 * mail, whose clients drop SVG, lists its hexes in a table. */
	if (json_is_string(v = json_object_get(shown, "board_svg")))
		json_object_set_new(data, "board_svg",
		    json_string(json_string_value(v)));
	if (json_is_array(v = json_object_get(shown, "board")) &&
	    json_array_size(v) > 0 && json_object_get(json_array_get(v, 0),
	    "hex") != NULL) {
		json_object_set_new(data, "hexes", hexes_of(v));
		json_object_set_new(data, "has_hexes", json_true());
	}
	if (json_is_array(v = json_object_get(shown, "row")) &&
	    json_array_size(v) > 0) {
		json_object_set_new(data, "route", route_of(v));
		json_object_set_new(data, "route_width",
		    json_integer((json_int_t)(84 + json_array_size(v) * 64)));
		/* The start, left of the first card: the ships not yet
		 * on the route. */
		json_object_set_new(data, "route_start", json_pack("{s:b, s:b}",
		    "enterprise_ship", json_is_true(json_object_get(shown,
		    "enterprise_at_start")), "excelsior_ship", json_is_true(
		    json_object_get(shown, "excelsior_at_start"))));
	}
}
