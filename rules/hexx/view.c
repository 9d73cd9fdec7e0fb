/*
 * view.c -- Mission to Planet Hexx!: what each seat sees, the moves open
 * to it (for people and for bots), the moves the server plays for it,
 * the one-line summary of the last move, and the board's drawing.
 *
 * Hidden: the hands of other seats, the deck's order, and which seats
 * answered a window with a Surprise until the window closes.  The rest
 * (board, Missions, data, the discard pile, hand sizes) is public.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexx.h"

#define HEX_SIZE	40	/* pixels from a hex's centre to a corner */
#define SQRT3		1.7320508075688772

static const char *const phase_names[] = { "mission", "actions", "window",
	"over", "bonus" };
static const char *const verb_names[HEXX_VERBS] = { "side", "schema",
	"move", "transmit", "refresh", "event", "end", "pass", "surprise" };
static const char *const ship_colour[HEXX_SEATS_MAX] = { "#d33", "#36c",
	"#2a2", "#c90" };

static json_t *
card_obj(const struct hexx *g, int card)
{
	const struct hexx_card *c;

	if (card < 0)
		return json_null();
	c = &g->cards->card[card];
	return json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:b}", "id", c->id,
	    "name_en", c->name_en, "name_fr", c->name_fr, "type",
	    hexx_kind_names[c->kind], "kind_en", hexx_kind_en[c->kind],
	    "kind_fr", hexx_kind_fr[c->kind], "text_en", c->text_en,
	    "text_fr", c->text_fr, "surprise", c->surprise);
}

static json_t *
cards_arr(const struct hexx *g, const int *cards, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, card_obj(g, cards[i]));
	return a;
}

/* The names of cards in one language, for text lists. */
static json_t *
card_names(const struct hexx *g, const int *cards, int n,
    enum rules_lang lang)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(lang == RULES_LANG_FR ?
		    g->cards->card[cards[i]].name_fr :
		    g->cards->card[cards[i]].name_en));
	return a;
}

static void
hex_centre(int q, int r, double *x, double *y)
{
	*x = HEX_SIZE * SQRT3 * (q + r / 2.0);
	*y = HEX_SIZE * 1.5 * r;
}

/* Corner c (0..5) of a pointy-top hex: edge d lies between corners d and
 * d + 1, facing direction d (screen angle -60 d degrees). */
static void
hex_corner(double cx, double cy, int c, double *x, double *y)
{
	/* cos and sin of 30 - 60 c degrees. */
	static const double unit[6][2] = {
		{ SQRT3 / 2, 0.5 }, { SQRT3 / 2, -0.5 }, { 0, -1 },
		{ -SQRT3 / 2, -0.5 }, { -SQRT3 / 2, 0.5 }, { 0, 1 }
	};

	*x = cx + HEX_SIZE * unit[c][0];
	*y = cy + HEX_SIZE * unit[c][1];
}

/* One hex of the board, with what a drawing and the text form need. */
static json_t *
hex_obj(const struct hexx *g, int i, double ox, double oy)
{
	const struct hexx_tile *t = &g->tile[i];
	const struct hexx_card *c = &g->cards->card[t->card];
	json_t *h, *near, *borders, *ships;
	char pts[256], buf[32];
	double cx, cy, x, y, x2, y2;
	int d, n, s;

	hex_centre(t->q, t->r, &cx, &cy);
	cx -= ox;
	cy -= oy;
	pts[0] = '\0';
	for (d = 0; d < 6; d++) {
		hex_corner(cx, cy, d, &x, &y);
		snprintf(buf, sizeof(buf), "%s%.1f,%.1f", d ? " " : "", x, y);
		strncat(pts, buf, sizeof(pts) - strlen(pts) - 1);
	}
	near = json_array();
	borders = json_array();
	for (d = 0; d < 6; d++) {
		n = hexx_tile_at(g, t->q + hexx_dir[d][0], t->r + hexx_dir[d][1]);
		if (n >= 0) {
			snprintf(buf, sizeof(buf), "%d,%d", g->tile[n].q,
			    g->tile[n].r);
			json_array_append_new(near, json_string(buf));
		}
		if (hexx_border(g, i, d)) {
			hex_corner(cx, cy, d, &x, &y);
			hex_corner(cx, cy, (d + 1) % 6, &x2, &y2);
			json_array_append_new(borders, json_pack("{s:i,s:f,s:f,"
			    "s:f,s:f}", "dir", d, "x1", x, "y1", y, "x2", x2,
			    "y2", y2));
		}
	}
	for (n = 0; n < g->ntiles; n++)
		if (n != i && hexx_linked(g->cards, t->card, g->tile[n].card)) {
			snprintf(buf, sizeof(buf), "%d,%d", g->tile[n].q,
			    g->tile[n].r);
			json_array_append_new(near, json_string(buf));
		}
	ships = json_array();
	for (s = 0; s < g->nseats; s++)
		if (g->seat[s].q == t->q && g->seat[s].r == t->r)
			json_array_append_new(ships, json_pack("{s:i,s:s,s:f,"
			    "s:f}", "seat", s, "colour", ship_colour[s], "x",
			    cx - 18 + 12 * s, "y", cy + 20));
	snprintf(buf, sizeof(buf), "%d,%d", t->q, t->r);
	h = json_pack("{s:s,s:i,s:i,s:i,s:o,s:s,s:o,s:o,s:o,s:f,s:f,s:s,"
	    "s:b,s:b,s:b,s:b,s:b,s:b}",
	    "hex", buf, "q", t->q, "r", t->r, "rot", t->rot, "card",
	    card_obj(g, t->card), "points", pts, "neighbours", near,
	    "borders", borders, "ships", ships, "x", cx, "y", cy, "fill",
	    c->kind == HEXX_PLANET ? "#f4e3c1" : "#dfe6f7",
	    "planet", c->kind == HEXX_PLANET,
	    "stop", c->on[HEXX_ON_STOP].n > 0,
	    "cross", c->on[HEXX_ON_CROSS].n > 0,
	    "engage", c->on[HEXX_ON_ENGAGE].n > 0,
	    "collect", c->on[HEXX_ON_COLLECT].n > 0,
	    "linked", c->nlinks > 0);
	if (c->kind == HEXX_PLANET)
		json_object_set_new(h, "data", json_integer(t->data));
	return h;
}

static json_t *
board_json(const struct hexx *g, double *w, double *h, double *ox,
    double *oy)
{
	double minx = 1e9, miny = 1e9, maxx = -1e9, maxy = -1e9, x, y;
	json_t *a = json_array();
	int i;

	for (i = 0; i < g->ntiles; i++) {
		hex_centre(g->tile[i].q, g->tile[i].r, &x, &y);
		minx = x < minx ? x : minx;
		miny = y < miny ? y : miny;
		maxx = x > maxx ? x : maxx;
		maxy = y > maxy ? y : maxy;
	}
	*ox = minx - HEX_SIZE * 1.2;
	*oy = miny - HEX_SIZE * 1.2;
	*w = maxx - minx + HEX_SIZE * 2.4;
	*h = maxy - miny + HEX_SIZE * 2.4;
	for (i = 0; i < g->ntiles; i++)
		json_array_append_new(a, hex_obj(g, i, *ox, *oy));
	return a;
}

/* Escape text for XML. */
static void
put_escaped(char **buf, size_t *len, size_t *cap, const char *s)
{
	char one[8];

	for (; *s != '\0'; s++) {
		const char *piece = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" :
		    *s == '>' ? "&gt;" : *s == '"' ? "&quot;" : NULL;
		size_t n;

		if (piece == NULL) {
			one[0] = *s;
			one[1] = '\0';
			piece = one;
		}
		n = strlen(piece);
		if (*len + n + 1 > *cap) {
			*cap = (*cap + n) * 2;
			*buf = realloc(*buf, *cap);
			if (*buf == NULL)
				abort();
		}
		memcpy(*buf + *len, piece, n + 1);
		*len += n;
	}
}

static void put_raw(char **buf, size_t *len, size_t *cap, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static void
put_raw(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	char piece[512];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(piece, sizeof(piece), fmt, ap);
	va_end(ap);
	n = strlen(piece);
	if (*len + n + 1 > *cap) {
		*cap = (*cap + n) * 2;
		*buf = realloc(*buf, *cap);
		if (*buf == NULL)
			abort();
	}
	memcpy(*buf + *len, piece, n + 1);
	*len += n;
}

char *
hexx_board_svg(const struct hexx *g, enum rules_lang lang)
{
	double w, h, ox, oy;
	json_t *board = board_json(g, &w, &h, &ox, &oy), *hx, *v;
	size_t i, j, len = 0, cap = 4096;
	char *buf = malloc(cap);

	if (buf == NULL)
		abort();
	buf[0] = '\0';
	put_raw(&buf, &len, &cap, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "class=\"hexx-board\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
	    "height=\"%.0f\" role=\"img\">", w, h, w, h);
	json_array_foreach(board, i, hx) {
		const json_t *card = json_object_get(hx, "card");
		double x = json_real_value(json_object_get(hx, "x"));
		double y = json_real_value(json_object_get(hx, "y"));

		put_raw(&buf, &len, &cap, "<g><title>");
		put_escaped(&buf, &len, &cap, json_string_value(json_object_get(
		    card, lang == RULES_LANG_FR ? "name_fr" : "name_en")));
		put_raw(&buf, &len, &cap, " (%s)</title><polygon points=\"%s\" "
		    "fill=\"%s\" stroke=\"#334\" stroke-width=\"1.5\"/>",
		    json_string_value(json_object_get(hx, "hex")),
		    json_string_value(json_object_get(hx, "points")),
		    json_string_value(json_object_get(hx, "fill")));
		json_array_foreach(json_object_get(hx, "borders"), j, v)
			put_raw(&buf, &len, &cap, "<line x1=\"%.1f\" y1=\"%.1f\" "
			    "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
			    "stroke-width=\"5\" stroke-dasharray=\"4 3\"/>",
			    json_real_value(json_object_get(v, "x1")),
			    json_real_value(json_object_get(v, "y1")),
			    json_real_value(json_object_get(v, "x2")),
			    json_real_value(json_object_get(v, "y2")));
		put_raw(&buf, &len, &cap, "<text x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\" font-size=\"8\">", x, y - 8);
		put_escaped(&buf, &len, &cap, json_string_value(json_object_get(
		    card, lang == RULES_LANG_FR ? "name_fr" : "name_en")));
		put_raw(&buf, &len, &cap, "</text><text x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\" font-size=\"7\" fill=\"#555\">%s"
		    "</text>", x, y + 2,
		    json_string_value(json_object_get(hx, "hex")));
		if (json_object_get(hx, "data") != NULL)
			put_raw(&buf, &len, &cap, "<rect x=\"%.1f\" y=\"%.1f\" "
			    "width=\"14\" height=\"12\" fill=\"#fff\" "
			    "stroke=\"#888\"/><text x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"middle\" font-size=\"9\">%d</text>",
			    x + 14, y + 4, x + 21, y + 13,
			    (int)json_integer_value(json_object_get(hx,
			    "data")));
		json_array_foreach(json_object_get(hx, "ships"), j, v)
			put_raw(&buf, &len, &cap, "<circle cx=\"%.1f\" "
			    "cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>%d</title>"
			    "</circle>", json_real_value(json_object_get(v,
			    "x")), json_real_value(json_object_get(v, "y")),
			    json_string_value(json_object_get(v, "colour")),
			    (int)json_integer_value(json_object_get(v,
			    "seat")) + 1);
		put_raw(&buf, &len, &cap, "</g>");
	}
	put_raw(&buf, &len, &cap, "</svg>");
	json_decref(board);
	return buf;
}

/* The Mission's conclusion with its blanks {1}..{6} filled with the
 * names of the cards transmitted to its edges (seed, FIN DE PARTIE). */
static json_t *
conclusion(const struct hexx *g, int seat, enum rules_lang lang)
{
	const struct hexx_seat *st = &g->seat[seat];
	const struct hexx_mission_side *side =
	    &g->cards->mission[st->mission].side[st->side < 0 ? 0 : st->side];
	const char *in = lang == RULES_LANG_FR ? side->end_fr : side->end_en;
	char out[HEXX_TEXT_MAX * 4];
	size_t len = 0;
	int k;

	while (*in != '\0' && len + 1 < sizeof(out)) {
		if (in[0] == '{' && in[1] >= '1' && in[1] <= '6' &&
		    in[2] == '}') {
			k = st->slot[in[1] - '1'];
			len += (size_t)snprintf(out + len, sizeof(out) - len,
			    "%s", k < 0 ? "..." : lang == RULES_LANG_FR ?
			    g->cards->card[k].name_fr : g->cards->card[k].name_en);
			if (len >= sizeof(out))
				len = sizeof(out) - 1;
			in += 3;
		} else
			out[len++] = *in++;
	}
	out[len] = '\0';
	return json_string(out);
}

/* The Surprises that answered, once shown for a riposte: [{seat, card}]. */
static json_t *
shown_surprises(const struct hexx *g)
{
	json_t *a = json_array();
	int s;

	for (s = 0; s < g->nseats; s++)
		if (g->pending.surprise[s] >= 0)
			json_array_append_new(a, json_pack("{s:i,s:o}", "seat",
			    s, "card", card_obj(g, g->pending.surprise[s])));
	return a;
}

json_t *
hexx_view(const void *state, int viewer)
{
	const struct hexx *g = state;
	json_t *v, *seats, *to_act, *pend, *board, *slots;
	int acts[HEXX_SEATS_MAX], n, s, i;
	double w, h, ox, oy;
	char *svg;

	to_act = json_array();
	n = hexx_to_act(g, acts, HEXX_SEATS_MAX);
	for (i = 0; i < n; i++)
		json_array_append_new(to_act, json_integer(acts[i]));
	seats = json_array();
	for (s = 0; s < g->nseats; s++) {
		const struct hexx_seat *st = &g->seat[s];
		const struct hexx_mission *m = &g->cards->mission[st->mission];
		int side = st->side < 0 ? 0 : st->side;
		json_t *icons = json_array();
		char ship[32];

		slots = json_array();
		for (i = 0; i < HEXX_SLOTS; i++) {
			json_array_append_new(icons, json_string(
			    hexx_kind_names[m->side[side].icon[i]]));
			json_array_append_new(slots, json_pack("{s:s,s:s,s:s,"
			    "s:o}", "icon_id", hexx_kind_names[m->side[side].icon[i]],
			    "icon_en", hexx_kind_en[m->side[side].icon[i]],
			    "icon_fr", hexx_kind_fr[m->side[side].icon[i]],
			    "card", card_obj(g, st->slot[i])));
		}
		snprintf(ship, sizeof(ship), "%d,%d", st->q, st->r);
		json_array_append_new(seats, json_pack("{s:i,s:s,s:s,s:s,s:i,"
		    "s:o,s:o,s:i,s:i,s:s,s:i,s:i,s:i,s:i,s:b,s:b,s:b}",
		    "seat", s, "mission_id", m->id, "mission_en",
		    m->side[side].title_en, "mission_fr", m->side[side].title_fr,
		    "side", st->side + 1, "icons", icons, "slots", slots,
		    "mission_cards", hexx_mission_count(g, s), "data", st->base,
		    "ship", ship, "cards_in_hand", st->nhand, "mucus", st->mucus,
		    "no_move", st->no_move, "no_transmit", st->no_transmit,
		    "you", s == viewer, "answered", g->phase ==
		    HEXX_PHASE_WINDOW && g->pending.answer[s] &&
		    s != g->current, "to_act", 0));
		/* Flags for templates, where a 0 reads as true. */
		json_object_update_new(json_array_get(seats, (size_t)s),
		    json_pack("{s:b,s:b,s:b}", "has_mucus", st->mucus > 0,
		    "move_forbidden", st->no_move > 0, "transmit_forbidden",
		    st->no_transmit > 0));
		if (g->phase == HEXX_PHASE_OVER &&
		    (g->winner_mask & (1 << s))) {
			json_object_set_new(json_array_get(seats, (size_t)s),
			    "conclusion_en", conclusion(g, s, RULES_LANG_EN));
			json_object_set_new(json_array_get(seats, (size_t)s),
			    "conclusion_fr", conclusion(g, s, RULES_LANG_FR));
		}
		for (i = 0; i < n; i++)
			if (acts[i] == s)
				json_object_set_new(json_array_get(seats,
				    (size_t)s), "to_act", json_true());
	}
	board = board_json(g, &w, &h, &ox, &oy);
	svg = hexx_board_svg(g, RULES_LANG_EN);
	v = json_pack("{s:o,s:b,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:o,s:o,s:o,"
	    "s:f,s:f,s:s}",
	    "to_act", to_act, "over", g->phase == HEXX_PHASE_OVER, "phase",
	    phase_names[g->phase], "current_seat", g->current, "round",
	    g->round + 1, "actions", g->actions, "event_actions",
	    g->event_actions, "deck_count", g->ndeck, "supply", g->supply,
	    "discard", cards_arr(g, g->discard, g->ndiscard), "seats", seats,
	    "board", board, "board_width", w, "board_height", h,
	    "board_svg_en", svg);
	free(svg);
	json_object_set_new(v, "discard_names_en", card_names(g, g->discard,
	    g->ndiscard, RULES_LANG_EN));
	json_object_set_new(v, "discard_names_fr", card_names(g, g->discard,
	    g->ndiscard, RULES_LANG_FR));
	json_object_update_new(v, json_pack("{s:i,s:i,s:b,s:b,s:b}",
	    "move_actions", g->move_actions, "transmit_actions", g->transmit_actions,
	    "has_event_actions", g->event_actions > 0, "has_move_actions",
	    g->move_actions > 0, "has_transmit_actions",
	    g->transmit_actions > 0));
	svg = hexx_board_svg(g, RULES_LANG_FR);
	json_object_set_new(v, "board_svg_fr", json_string(svg));
	free(svg);
	if (viewer >= 0 && viewer < g->nseats)
		json_object_set_new(v, "hand", cards_arr(g,
		    g->seat[viewer].hand, g->seat[viewer].nhand));
	else if (viewer == RULES_VIEW_FULL)
		for (s = 0; s < g->nseats; s++) {
			char key[24];

			snprintf(key, sizeof(key), "hand_%d", s);
			json_object_set_new(v, key, cards_arr(g,
			    g->seat[s].hand, g->seat[s].nhand));
		}
	if (g->phase == HEXX_PHASE_WINDOW || g->phase == HEXX_PHASE_BONUS) {
		const struct hexx_pending *p = &g->pending;
		json_t *path = json_array();

		for (i = 0; i < p->npath; i++) {
			char hex[32];

			snprintf(hex, sizeof(hex), "%d,%d", p->path[i][0],
			    p->path[i][1]);
			json_array_append_new(path, json_string(hex));
		}
		pend = json_pack("{s:s,s:i,s:o,s:o,s:b}", "verb",
		    verb_names[p->verb], "seat", g->current, "card",
		    card_obj(g, p->card), "path", path, "alt", p->alt);
		json_object_set_new(pend, "riposte", json_boolean(p->riposte));
		if (p->riposte)
			json_object_set_new(pend, "surprises",
			    shown_surprises(g));
		if (viewer >= 0 && viewer < g->nseats &&
		    p->surprise[viewer] >= 0)
			json_object_set_new(pend, "your_surprise",
			    card_obj(g, p->surprise[viewer]));
		if (g->phase == HEXX_PHASE_BONUS)
			json_object_set_new(pend, "bonus", json_pack("{s:i,s:i}",
			    "seat", hexx_bonus_seat(g), "events",
			    g->bonus[hexx_bonus_seat(g)]));
		json_object_set_new(v, "pending", pend);
	}
	/* A hand shown to the viewer alone (ruleset 2, seed line 381). */
	if (viewer >= 0 && viewer < g->nseats && g->shown[viewer].from >= 0)
		json_object_set_new(v, "shown_hand", json_pack("{s:i,s:o,s:o,"
		    "s:o}", "seat", g->shown[viewer].from, "cards",
		    cards_arr(g, g->shown[viewer].cards,
		    g->shown[viewer].ncards), "names_en", card_names(g,
		    g->shown[viewer].cards, g->shown[viewer].ncards,
		    RULES_LANG_EN), "names_fr", card_names(g,
		    g->shown[viewer].cards, g->shown[viewer].ncards,
		    RULES_LANG_FR)));
	if (g->last.shown >= 0)
		json_object_set_new(v, "shown", card_obj(g, g->last.shown));
	if (g->last.roll > 0)
		json_object_set_new(v, "die", json_integer(g->last.roll));
	if (g->phase == HEXX_PHASE_OVER)
		json_object_set_new(v, "result", hexx_result(g));
	return v;
}

/* ---- moves for bots and people ---- */

struct lister {
	const struct hexx *g;
	int	seat;
	json_t	*out;
};

/* Add text if move checks. */
static void
offer(struct lister *ls, json_t *move, const char *text)
{
	char err[RULES_ERRLEN];

	if (hexx_check(ls->g, ls->seat, move, RULES_LANG_EN, err,
	    sizeof(err)) == RULES_OK)
		json_array_append_new(ls->out, json_string(text));
	json_decref(move);
}

static void
list_schemas(struct lister *ls, int card)
{
	const struct hexx *g = ls->g;
	const struct hexx_card *c = &g->cards->card[card];
	char text[128];
	int i, d, q, r, rot, nrot = c->fixed || c->borders == 0 ? 1 : 6;
	int done[2 * HEXX_RADIUS + 1][2 * HEXX_RADIUS + 1];

	memset(done, 0, sizeof(done));
	for (i = 0; i < g->ntiles; i++)
		for (d = 0; d < 6; d++) {
			q = g->tile[i].q + hexx_dir[d][0];
			r = g->tile[i].r + hexx_dir[d][1];
			if (abs(q) > HEXX_RADIUS || abs(r) > HEXX_RADIUS ||
			    done[q + HEXX_RADIUS][r + HEXX_RADIUS]++)
				continue;
			for (rot = 0; rot < nrot; rot++) {
				if (!hexx_place_ok(g, card, q, r, rot))
					continue;
				if (rot == 0)
					snprintf(text, sizeof(text), "schema %s "
					    "at %d,%d", c->id, q, r);
				else
					snprintf(text, sizeof(text), "schema %s "
					    "at %d,%d facing %d", c->id, q, r,
					    rot);
				offer(ls, json_pack("{s:s,s:s,s:[i,i],s:i}",
				    "verb", "schema", "card", c->id, "at", q, r,
				    "rot", rot), text);
			}
		}
}

/* The move along path to tile i, with the collect option or not, and
 * with each card of the hand when the schema transmits on arrival. */
static void
offer_move(struct lister *ls, int i, json_t *path, const char *base)
{
	const struct hexx *g = ls->g;
	const struct hexx_card *c = &g->cards->card[g->tile[i].card];
	const struct hexx_seat *s = &g->seat[ls->seat];
	int blue, w, with;
	char text[320];
	json_t *m;

	for (blue = 0; blue < 3; blue++) {
		if (blue == 1 && !c->collect_may)
			continue;
		/* Not collecting (ruleset 2, seed line 179) is offered where
		 * it matters: a planet whose collect option is mandatory. */
		if (blue == 2 && (g->ruleset < HEXX_RULESET ||
		    c->kind != HEXX_PLANET || c->collect_may ||
		    c->on[HEXX_ON_COLLECT].n == 0 || g->tile[i].data == 0))
			continue;
		for (w = -1; w < s->nhand; w++) {
			if (w >= 0 && !hexx_list_needs_with(&c->on[HEXX_ON_STOP])
			    && !hexx_list_needs_with(&c->on[HEXX_ON_COLLECT]))
				break;
			with = w >= 0 ? s->hand[w] : -1;
			m = json_pack("{s:s,s:O}", "verb", "move", "path", path);
			snprintf(text, sizeof(text), "%s%s%s%s", base,
			    blue == 1 ? " blue" : blue == 2 ? " nocollect" : "",
			    with >= 0 ? " with " : "",
			    with >= 0 ? g->cards->card[with].id : "");
			if (blue == 1)
				json_object_set_new(m, "blue", json_true());
			if (blue == 2)
				json_object_set_new(m, "nocollect",
				    json_true());
			if (with >= 0)
				json_object_set_new(m, "with", json_string(
				    g->cards->card[with].id));
			offer(ls, m, text);
		}
	}
}

/* Every hex the ship reaches in 1..6 steps, by one shortest path. */
static void
list_moves(struct lister *ls)
{
	const struct hexx *g = ls->g;
	const struct hexx_seat *s = &g->seat[ls->seat];
	int prev[HEXX_CARDS_MAX], dist[HEXX_CARDS_MAX], queue[HEXX_CARDS_MAX];
	int head = 0, tail = 0, i, j, k, t, start, chain[HEXX_PATH_MAX];
	char text[256], hex[24];
	json_t *path;

	for (i = 0; i < g->ntiles; i++)
		dist[i] = -1;
	start = hexx_tile_at(g, s->q, s->r);
	dist[start] = 0;
	queue[tail++] = start;
	while (head < tail) {
		i = queue[head++];
		if (dist[i] == HEXX_PATH_MAX || (i != start &&
		    g->cards->card[g->tile[i].card].kind == HEXX_PLANET))
			continue;
		for (j = 0; j < g->ntiles; j++)
			if (dist[j] < 0 && hexx_step_ok(g, i, j) &&
			    (hexx_direction(g->tile[i].q, g->tile[i].r,
			    g->tile[j].q, g->tile[j].r) >= 0 ||
			    hexx_linked(g->cards, g->tile[i].card,
			    g->tile[j].card))) {
				dist[j] = dist[i] + 1;
				prev[j] = i;
				queue[tail++] = j;
			}
	}
	for (i = 0; i < g->ntiles; i++) {
		if (dist[i] <= 0)
			continue;
		for (t = i, k = dist[i]; k > 0; k--, t = prev[t])
			chain[k - 1] = t;
		strcpy(text, "move");
		path = json_array();
		for (k = 0; k < dist[i]; k++) {
			snprintf(hex, sizeof(hex), " %d,%d",
			    g->tile[chain[k]].q, g->tile[chain[k]].r);
			strncat(text, hex, sizeof(text) - strlen(text) - 1);
			json_array_append_new(path, json_pack("[i,i]",
			    g->tile[chain[k]].q, g->tile[chain[k]].r));
		}
		offer_move(ls, i, path, text);
		json_decref(path);
	}
}

/* A shift of the schema of tile t: every free hex next to the board
 * as the destination ("to Q,R"); takes m. */
static void
offer_shifts(struct lister *ls, int t, json_t *m, const char *base)
{
	const struct hexx *g = ls->g;
	int seen[2 * HEXX_RADIUS + 1][2 * HEXX_RADIUS + 1];
	char text[200];
	int i, d, q, r;
	json_t *one;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < g->ntiles; i++)
		for (d = 0; d < 6; d++) {
			q = g->tile[i].q + hexx_dir[d][0];
			r = g->tile[i].r + hexx_dir[d][1];
			if (abs(q) > HEXX_RADIUS || abs(r) > HEXX_RADIUS ||
			    seen[q + HEXX_RADIUS][r + HEXX_RADIUS]++ ||
			    !hexx_shift_ok(g, t, q, r))
				continue;
			snprintf(text, sizeof(text), "%s to %d,%d", base, q, r);
			one = json_deep_copy(m);
			json_object_set_new(one, "to", json_pack("[i,i]", q, r));
			offer(ls, one, text);
		}
	json_decref(m);
}

static void
list_events(struct lister *ls, int card)
{
	const struct hexx *g = ls->g;
	const struct hexx_card *c = &g->cards->card[card];
	const struct hexx_seat *s = &g->seat[ls->seat];
	char text[160];
	int alt, w, t;

	for (alt = 0; alt < 2; alt++) {
		const struct hexx_fxlist *list = &c->on[alt ? HEXX_ON_OR :
		    HEXX_ON_PLAY];
		int needs_with = c->cost_discard >= 0 ||
		    hexx_list_needs_with(list);

		if (alt && c->on[HEXX_ON_OR].n == 0)
			break;
		for (w = needs_with ? 0 : -1; w < (needs_with ? s->nhand : 0);
		    w++) {
			int with = w >= 0 ? s->hand[w] : -1;

			for (t = hexx_list_needs_at(list) ? 0 : -1;
			    t < (hexx_list_needs_at(list) ? g->ntiles : 0);
			    t++) {
				json_t *m = json_pack("{s:s,s:s}", "verb",
				    "event", "card", c->id);

				snprintf(text, sizeof(text), "event %s%s",
				    c->id, alt ? " or" : "");
				if (alt)
					json_object_set_new(m, "alt",
					    json_true());
				if (t >= 0) {
					char at[32];

					snprintf(at, sizeof(at), " at %d,%d",
					    g->tile[t].q, g->tile[t].r);
					strncat(text, at, sizeof(text) -
					    strlen(text) - 1);
					json_object_set_new(m, "at", json_pack(
					    "[i,i]", g->tile[t].q,
					    g->tile[t].r));
				}
				if (with >= 0) {
					strncat(text, " with ", sizeof(text) -
					    strlen(text) - 1);
					strncat(text, g->cards->card[with].id,
					    sizeof(text) - strlen(text) - 1);
					json_object_set_new(m, "with",
					    json_string(
					    g->cards->card[with].id));
				}
				if (hexx_list_has(list, HEXX_OP_SHIFT))
					offer_shifts(ls, t, m, text);
				else
					offer(ls, m, text);
			}
		}
	}
}

static void
end_text(const struct hexx *g, int seat, char *out, size_t outlen)
{
	const struct hexx_seat *s = &g->seat[seat];
	int i, extra = s->nhand - HEXX_HAND;

	snprintf(out, outlen, "end");
	if (extra <= 0)
		return;
	strncat(out, " discard", outlen - strlen(out) - 1);
	for (i = s->nhand - extra; i < s->nhand; i++) {
		strncat(out, i > s->nhand - extra ? ", " : " ",
		    outlen - strlen(out) - 1);
		strncat(out, g->cards->card[s->hand[i]].id,
		    outlen - strlen(out) - 1);
	}
}

json_t *
hexx_legal_moves(const void *state, int seat)
{
	const struct hexx *g = state;
	struct lister ls = { g, seat, json_array() };
	const struct hexx_seat *s;
	char text[512];
	int i, c;

	if (seat < 0 || seat >= g->nseats)
		return ls.out;
	s = &g->seat[seat];
	switch (g->phase) {
	case HEXX_PHASE_MISSION:
		offer(&ls, json_pack("{s:s,s:i}", "verb", "side", "side", 0),
		    "side 1");
		offer(&ls, json_pack("{s:s,s:i}", "verb", "side", "side", 1),
		    "side 2");
		break;
	case HEXX_PHASE_WINDOW:
		offer(&ls, json_pack("{s:s}", "verb", "pass"), "pass");
		for (i = 0; i < s->nhand; i++) {
			c = s->hand[i];
			snprintf(text, sizeof(text), "surprise %s",
			    g->cards->card[c].id);
			offer(&ls, json_pack("{s:s,s:s}", "verb", "surprise",
			    "card", g->cards->card[c].id), text);
		}
		break;
	case HEXX_PHASE_BONUS:
		if (seat != hexx_bonus_seat(g))
			break;
		offer(&ls, json_pack("{s:s}", "verb", "pass"), "pass");
		for (i = 0; i < s->nhand; i++)
			if (!hexx_is_schema(&g->cards->card[s->hand[i]]))
				list_events(&ls, s->hand[i]);
		break;
	case HEXX_PHASE_ACTIONS:
		if (seat != g->current)
			break;
		for (i = 0; i < s->nhand; i++) {
			c = s->hand[i];
			if (hexx_is_schema(&g->cards->card[c]))
				list_schemas(&ls, c);
			else
				list_events(&ls, c);
			snprintf(text, sizeof(text), "transmit %s",
			    g->cards->card[c].id);
			offer(&ls, json_pack("{s:s,s:s}", "verb", "transmit",
			    "card", g->cards->card[c].id), text);
			snprintf(text, sizeof(text), "refresh %s",
			    g->cards->card[c].id);
			offer(&ls, json_pack("{s:s,s:s}", "verb", "refresh",
			    "card", g->cards->card[c].id), text);
		}
		list_moves(&ls);
		end_text(g, seat, text, sizeof(text));
		json_array_append_new(ls.out, json_string(text));
		break;
	default:
		break;
	}
	return ls.out;
}

json_t *
hexx_move_forms(const void *state, int seat, enum rules_lang lang)
{
	const struct hexx *g = state;
	json_t *a = json_array();
	int fr = lang == RULES_LANG_FR, acts[HEXX_SEATS_MAX], n, i, mine = 0;

	n = hexx_to_act(g, acts, HEXX_SEATS_MAX);
	for (i = 0; i < n; i++)
		mine |= acts[i] == seat;
	if (!mine)
		return a;
	if (g->phase == HEXX_PHASE_MISSION) {
		json_array_append_new(a, json_string(fr ? "face 1 ou face 2 "
		    "(la face de votre Mission)" : "side 1 or side 2 (the side "
		    "of your Mission)"));
		return a;
	}
	if (g->phase == HEXX_PHASE_WINDOW && g->pending.riposte) {
		json_array_append_new(a, json_string(fr ? "passer" : "pass"));
		json_array_append_new(a, json_string(fr ? "surprise <une "
		    "Surprise de votre main> (riposte : utilise une Action)" :
		    "surprise <a Surprise in your hand> (riposte: uses an "
		    "action)"));
		return a;
	}
	if (g->phase == HEXX_PHASE_WINDOW) {
		json_array_append_new(a, json_string(fr ? "passer" : "pass"));
		json_array_append_new(a, json_string(fr ? "surprise <une "
		    "Surprise de votre main>" : "surprise <a Surprise in your "
		    "hand>"));
		return a;
	}
	if (g->phase == HEXX_PHASE_BONUS) {
		json_array_append_new(a, json_string(fr ? "passer" : "pass"));
		json_array_append_new(a, json_string(fr ? "événement <carte> "
		    "[ou] [en Q,R] [vers Q,R] [avec <carte>] (vos Actions "
		    "Événement reçues, jouées maintenant)" : "event <card> [or] "
		    "[at Q,R] [to Q,R] [with <card>] (the Event actions you "
		    "received, played now)"));
		return a;
	}
	json_array_append_new(a, json_string(fr ? "schema <carte> en Q,R "
	    "[orientation 0-5]" : "schema <card> at Q,R [facing 0-5]"));
	json_array_append_new(a, json_string(fr ? "déplacer Q,R ... (6 cases "
	    "max ; bleu : option de Collecte ; sans-collecte)" : "move "
	    "Q,R ... (up to 6 hexes; blue: collect option; nocollect)"));
	json_array_append_new(a, json_string(fr ? "transmettre <carte> (3 "
	    "Données, depuis un Vide interstellaire)" : "transmit <card> (3 "
	    "data, from an Interstellar Void)"));
	json_array_append_new(a, json_string(fr ? "actualiser <carte>" :
	    "refresh <card>"));
	json_array_append_new(a, json_string(fr ? "événement <carte> [ou] "
	    "[en Q,R] [vers Q,R] [avec <carte>]" : "event <card> [or] [at Q,R] "
	    "[to Q,R] [with <card>]"));
	json_array_append_new(a, json_string(fr ? "fin [défausser <carte>, "
	    "...]" : "end [discard <card>, ...]"));
	return a;
}

enum rules_status
hexx_default_move(const void *state, int seat, char *out, size_t outlen)
{
	const struct hexx *g = state;
	int acts[HEXX_SEATS_MAX], n, i, mine = 0;

	n = hexx_to_act(g, acts, HEXX_SEATS_MAX);
	for (i = 0; i < n; i++)
		mine |= acts[i] == seat;
	if (!mine || outlen < 8)
		return RULES_NOT_YOUR_TURN;
	if (g->phase == HEXX_PHASE_MISSION)
		snprintf(out, outlen, "side 1");
	else if (g->phase == HEXX_PHASE_WINDOW ||
	    g->phase == HEXX_PHASE_BONUS)
		snprintf(out, outlen, "pass");
	else
		end_text(g, seat, out, outlen);
	if (strlen(out) + 1 >= outlen)
		return RULES_ILLEGAL;	/* out may have been too small */
	return RULES_OK;
}

enum rules_status
hexx_sample_illegal(const void *state, int seat, char *out, size_t outlen)
{
	const struct hexx *g = state;
	int acts[HEXX_SEATS_MAX], n, i, mine = 0;

	if (g->phase == HEXX_PHASE_OVER || seat < 0 || seat >= g->nseats)
		return RULES_GAME_OVER;
	n = hexx_to_act(g, acts, HEXX_SEATS_MAX);
	for (i = 0; i < n; i++)
		mine |= acts[i] == seat;
	if (!mine)
		return RULES_NOT_YOUR_TURN;
	/* The Space Base is on the board from the start: never in a hand. */
	if ((size_t)snprintf(out, outlen, "schema %s at 0,1",
	    g->cards->card[g->cards->base].id) >= outlen)
		return RULES_ILLEGAL;	/* out is too small */
	return RULES_OK;
}

static const char *
name_of(const struct hexx *g, int card, enum rules_lang lang)
{
	return lang == RULES_LANG_FR ? g->cards->card[card].name_fr :
	    g->cards->card[card].name_en;
}

static enum rules_status
describe_into(const void *state, int seat, const char *const *names,
    enum rules_lang lang, char *out, size_t outlen)
{
	const struct hexx *g = state;
	const struct hexx_last *l = &g->last;
	int fr = lang == RULES_LANG_FR;
	char tail[256] = "";

	if (l->seat != seat || l->seat < 0)
		return RULES_ILLEGAL;
	switch (l->verb) {
	case HEXX_V_SIDE:
		snprintf(out, outlen, fr ? "%s a choisi la face de sa Mission" :
		    "%s chose the side of their Mission", names[seat]);
		return RULES_OK;
	case HEXX_V_SCHEMA:
		snprintf(out, outlen, fr ? "%s a posé le schéma %s" :
		    "%s placed the schema %s", names[seat],
		    name_of(g, l->card, lang));
		return RULES_OK;
	case HEXX_V_REFRESH:
		snprintf(out, outlen, fr ? "%s a défaussé %s et pioché une "
		    "carte" : "%s discarded %s and drew a card", names[seat],
		    name_of(g, l->card, lang));
		return RULES_OK;
	case HEXX_V_END:
		snprintf(out, outlen, fr ? "%s a fini son tour" :
		    "%s ended their turn", names[seat]);
		return RULES_OK;
	case HEXX_V_MOVE:
	case HEXX_V_TRANSMIT:
	case HEXX_V_EVENT:
		if (l->verb == HEXX_V_MOVE)
			snprintf(out, outlen, fr ? "%s annonce un Déplacement" :
			    "%s declared a Movement", names[seat]);
		else
			snprintf(out, outlen, fr ? "%s annonce %s %s" :
			    "%s declared %s %s", names[seat], l->verb ==
			    HEXX_V_EVENT ? (fr ? "l'Événement" : "the event") :
			    (fr ? "la Transmission de" : "the transmission of"),
			    name_of(g, l->card, lang));
		return RULES_OK;
	default:
		break;
	}
	/* An answer; when it was the last one, what the window closed on. */
	if (l->resolved >= 0) {
		if (l->resolved == HEXX_V_MOVE)
			snprintf(tail, sizeof(tail), fr ? " ; %d Surprise(s) ; "
			    "le dé donne %d, le vaisseau avance de %d case(s) et "
			    "collecte %d Donnée(s)%s" : "; %d surprise(s); the "
			    "die shows %d, the ship moves %d hex(es) and "
			    "collects %d data%s", l->surprises, l->roll,
			    l->steps, l->collected, l->fizzled ? (fr ?
			    " (annulé)" : " (cancelled)") : "");
		else
			snprintf(tail, sizeof(tail), fr ? " ; %d Surprise(s) ; "
			    "%s %s" : "; %d surprise(s); %s %s", l->surprises,
			    name_of(g, l->card, lang), l->fizzled ? (fr ?
			    "est sans effet" : "has no effect") : (fr ?
			    "est résolu" : "resolved"));
	}
	else if (g->phase == HEXX_PHASE_WINDOW && g->pending.riposte)
		snprintf(tail, sizeof(tail), fr ? " ; des Surprises répondent, "
		    "%s peut riposter" : "; Surprises answer, %s may riposte",
		    names[g->current]);
	snprintf(out, outlen, fr ? "%s a répondu%s" : "%s answered%s",
	    names[seat], tail);
	return RULES_OK;
}

/* The phrase of describe_into(), or RULES_ILLEGAL when out cannot hold it
 * whole (a cut phrase could mislead). */
enum rules_status
hexx_describe_last(const void *state, int seat, const char *const *names,
    enum rules_lang lang, char *out, size_t outlen)
{
	char phrase[1024];
	enum rules_status status;

	status = describe_into(state, seat, names, lang, phrase,
	    sizeof(phrase));
	if (status != RULES_OK)
		return status;
	if (strlen(phrase) + 1 >= sizeof(phrase) ||
	    (size_t)snprintf(out, outlen, "%s", phrase) >= outlen)
		return RULES_ILLEGAL;
	return RULES_OK;
}
