/*
 * view.c -- what each seat may see, the legal turns offered to bots and
 * players, and the forms of step open now.
 *
 * Hidden: hands, deck orders and reserve piles (a seat sees its own hand
 * and reserve, top first; the opponent only their sizes) and the travel
 * deck (only its size).  Everything on the table is public: the row,
 * ships, Klingon, Starfleet card and the cards played to it, discard
 * piles, scores and ship tracks.
 *
 * legal_moves() does not enumerate every turn (there are far too many):
 * it builds a bounded, deterministic set of complete turns, each checked
 * by the same code as check(), the furthest forward flight first.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eve.h"

#define MAX_LEGAL	50
#define STRIP_CARDS	12	/* row cards per line of the text strip */

static json_t *
kind_names(const int *cards, int n, int top_first)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(eve_kind_name(eve_kind(
		    cards[top_first ? n - 1 - i : i]), RULES_LANG_EN)));
	return a;
}

/*
 * Presentation fields for text templates (public data only): short
 * names of travel types, localised card names, the ship and Klingon
 * markers of the row strip.  The short names are ones parse() reads.
 */
static const char *const abbr_en[EVE_NTYPES] = {
	"NEB", "AST", "CM ", "BH ", "ION"
};
static const char *const abbr_fr[EVE_NTYPES] = {
	"NEB", "AST", "PCM", "TN ", "TI "
};

static json_t *
card_objs(const int *cards, int n, int top_first)
{
	json_t *a = json_array();
	int i, k;

	for (i = 0; i < n; i++) {
		k = eve_kind(cards[top_first ? n - 1 - i : i]);
		json_array_append_new(a, json_pack("{s:s, s:s, s:b}",
		    "name_en", eve_kind_name(k, RULES_LANG_EN),
		    "name_fr", eve_kind_name(k, RULES_LANG_FR),
		    "spock", k >= EVE_NTYPES));
	}
	return a;
}

static json_t *
row_cell(const struct eve *g, int i)
{
	json_t *o;
	char label[16];
	int r, t;

	snprintf(label, sizeof(label), "%-3d", i + 1);
	o = json_pack("{s:i, s:s, s:s, s:s}", "card", i + 1, "label", label,
	    "enterprise", eve_kind_name(eve_space(g, i, 0), RULES_LANG_EN),
	    "excelsior", eve_kind_name(eve_space(g, i, 1), RULES_LANG_EN));
	for (r = 0; r < EVE_SEATS; r++) {
		const char *route = eve_route_name(r);
		char key[32];

		t = eve_space(g, i, r);
		snprintf(key, sizeof(key), "%s_abbr_en", route);
		json_object_set_new(o, key, json_string(abbr_en[t]));
		snprintf(key, sizeof(key), "%s_abbr_fr", route);
		json_object_set_new(o, key, json_string(abbr_fr[t]));
		snprintf(key, sizeof(key), "%s_ship", route);
		json_object_set_new(o, key, json_boolean(g->p[r].pos == i));
		snprintf(key, sizeof(key), "%s_klingon", route);
		json_object_set_new(o, key, json_boolean(g->kl_pos == i &&
		    g->kl_route == r));
	}
	return o;
}

/* Seat s's last turn as the table saw it, in both languages (version 3
 * on, once the seat has played): nothing a face-down card hid. */
static void
last_turn(const struct eve *g, int s, json_t *o)
{
	char buf[2048];

	if (g->version < 3 || g->last[s].nsteps < 0)
		return;
	if (eve_steps_public_text(g->last[s].steps, g->last[s].nsteps,
	    RULES_LANG_EN, buf, sizeof(buf)) == 0)
		json_object_set_new(o, "last_turn_en", json_string(buf));
	if (eve_steps_public_text(g->last[s].steps, g->last[s].nsteps,
	    RULES_LANG_FR, buf, sizeof(buf)) == 0)
		json_object_set_new(o, "last_turn_fr", json_string(buf));
}

/* describe_last (api_version 5): seat's turn as the table saw it, the
 * same text as the view's last_turn_<lang>, after the player's name and
 * ship.  Games of version 1 and 2 keep no last turn: the core words a
 * plain line for them. */
enum rules_status
eve_describe_last(const void *state, int seat, const char *const *names,
    enum rules_lang lang, char *out, size_t outlen)
{
	const struct eve *g = state;
	char steps[2048];
	int n;

	if (seat < 0 || seat >= EVE_SEATS || g->version < 3 ||
	    g->last[seat].nsteps < 0 || eve_steps_public_text(
	    g->last[seat].steps, g->last[seat].nsteps, lang, steps,
	    sizeof(steps)) != 0)
		return RULES_ILLEGAL;
	n = snprintf(out, outlen, lang == RULES_LANG_FR ? "%s (%s) : %s" :
	    "%s (%s): %s", names[seat], eve_ship_name(seat), steps);
	return n >= 0 && (size_t)n < outlen ? RULES_OK : RULES_ILLEGAL;
}

/* How the last stage to end was scored (version 3 on), or null: the
 * finisher's distance points and the Starfleet bonus (bonus_ship absent
 * on a tie). */
static json_t *
stage_scored(const struct eve *g)
{
	const struct eve_stage_score *sc = &g->scored;
	int f = sc->finisher, o = 1 - sc->finisher;
	json_t *j;

	if (g->version < 3 || sc->stage == 0)
		return json_null();
	j = json_pack("{s:i, s:i, s:s, s:s, s:i, s:[i,i], s:i, s:i}",
	    "stage", sc->stage, "finisher", f, "finisher_ship",
	    eve_ship_name(f), "other_ship", eve_ship_name(o), "distance",
	    sc->distance, "starfleet", sc->fleet[0], sc->fleet[1],
	    "enterprise_starfleet", sc->fleet[0], "excelsior_starfleet",
	    sc->fleet[1]);
	if (sc->fleet[0] != sc->fleet[1])
		json_object_set_new(j, "bonus_ship", json_string(
		    eve_ship_name(sc->fleet[0] > sc->fleet[1] ? 0 : 1)));
	return j;
}

json_t *
eve_view(const void *state, int viewer)
{
	const struct eve *g = state;
	json_t *v, *row = json_array(), *seats = json_array(), *to_act;
	json_t *strip = json_array();
	int i, s, full = viewer == RULES_VIEW_FULL;

	to_act = json_array();
	if (!g->over)
		json_array_append_new(to_act, json_integer(g->current));
	for (i = 0; i < g->nrow; i++) {
		json_array_append_new(row, row_cell(g, i));
		if (i % STRIP_CARDS == 0)
			json_array_append_new(strip, json_pack("{s:b, s:[]}",
			    "first", i == 0, "cards"));
		json_array_append_new(json_object_get(json_array_get(strip,
		    json_array_size(strip) - 1), "cards"), row_cell(g, i));
	}
	for (s = 0; s < EVE_SEATS; s++) {
		const struct eve_player *pl = &g->p[s];
		json_t *o = json_pack("{s:i, s:s, s:i, s:i, s:i, s:i, s:i, "
		    "s:o, s:i}", "seat", s, "ship", eve_ship_name(s),
		    "space", pl->pos + 1, "score", pl->score,
		    "hand_size", pl->nhand, "deck_size", pl->ndeck,
		    "reserve_size", pl->nreserve,
		    "discard", kind_names(pl->discard, pl->ndiscard, 1),
		    "starfleet_cards", pl->nfleet);

		json_object_set_new(o, "starfleet", kind_names(pl->fleet,
		    pl->nfleet, 0));
		json_object_set_new(o, "at_start", json_boolean(pl->pos < 0));
		last_turn(g, s, o);
		json_object_set_new(o, "discard_size",
		    json_integer(pl->ndiscard));
		json_object_set_new(o, "discard_cards", card_objs(pl->discard,
		    pl->ndiscard, 1));
		if (g->mode == MODE_EXPERT) {
			json_object_set_new(o, "tracks", json_pack(
			    "{s:i, s:i, s:i, s:i}",
			    "torpedoes", pl->track[T_TORPEDO],
			    "dilithium", pl->track[T_DILITHIUM],
			    "hull", pl->track[T_HULL],
			    "shields", pl->track[T_SHIELD]));
			json_object_set_new(o, "destroyed",
			    json_boolean(pl->destroyed));
		}
		if (full || viewer == s) {
			json_object_set_new(o, "hand", kind_names(pl->hand,
			    pl->nhand, 0));
			json_object_set_new(o, "reserve", kind_names(
			    pl->reserve, pl->nreserve, 1));
			json_object_set_new(o, "hand_cards", card_objs(
			    pl->hand, pl->nhand, 0));
			json_object_set_new(o, "reserve_cards", card_objs(
			    pl->reserve, pl->nreserve, 1));
		}
		if (full)
			json_object_set_new(o, "deck", kind_names(pl->deck,
			    pl->ndeck, 1));
		json_array_append_new(seats, o);
	}
	v = json_pack("{s:s, s:s, s:i, s:o, s:b, s:i, s:o, s:i, s:i, s:o}",
	    "game", "eve", "mode", g->mode == MODE_EXPERT ? "expert" : "base",
	    "stage", g->stage, "to_act", to_act, "over", g->over,
	    "current", g->current, "row", row,
	    "travel_deck_size", g->ntdeck, "travel_discard_size",
	    g->ntdiscard, "seats", seats);
	json_object_set_new(v, "strip", strip);
	json_object_set_new(v, "stage_scored", stage_scored(g));
	json_object_set_new(v, "starfleet_card", json_pack("[s,s]",
	    eve_sf_symbol_name(g->starfleet, 0, RULES_LANG_EN),
	    eve_sf_symbol_name(g->starfleet, 1, RULES_LANG_EN)));
	json_object_set_new(v, "starfleet_text_en", json_sprintf("%s and %s",
	    eve_sf_symbol_name(g->starfleet, 0, RULES_LANG_EN),
	    eve_sf_symbol_name(g->starfleet, 1, RULES_LANG_EN)));
	json_object_set_new(v, "starfleet_text_fr", json_sprintf("%s et %s",
	    eve_sf_symbol_name(g->starfleet, 0, RULES_LANG_FR),
	    eve_sf_symbol_name(g->starfleet, 1, RULES_LANG_FR)));
	json_object_set_new(v, "enterprise_at_start",
	    json_boolean(g->p[0].pos < 0));
	json_object_set_new(v, "excelsior_at_start",
	    json_boolean(g->p[1].pos < 0));
	json_object_set_new(v, "current_ship",
	    json_string(eve_ship_name(g->current)));
	json_object_set_new(v, "klingon", g->kl_pos < 0 ? json_null() :
	    json_pack("{s:i, s:s}", "card", g->kl_pos + 1, "route",
	    eve_route_name(g->kl_route)));
	if (g->over)
		json_object_set_new(v, "winner", g->winner < 0 ? json_null() :
		    json_integer(g->winner));
	if (full) {
		json_t *td = json_array();

		for (i = g->ntdeck - 1; i >= 0; i--)
			json_array_append_new(td, json_integer(g->tdeck[i]));
		json_object_set_new(v, "travel_deck", td);
	}
	return v;
}

/*
 * Legal turns.
 */
struct gen {
	const struct eve *g;
	int		 seat;
	json_t		*out;
};

/* The state after text's steps (check mode), or -1 if text is illegal. */
static int
try_text(const struct eve *g, int seat, const char *text, struct eve *after)
{
	struct eve_step steps[EVE_MAXSTEPS];
	char err[RULES_ERRLEN];
	int n;

	if (eve_parse_turn(text, steps, &n, RULES_LANG_EN, err,
	    sizeof(err)) != 0)
		return -1;
	*after = *g;
	return eve_run_turn(after, seat, steps, n, NULL, RULES_LANG_EN, err,
	    sizeof(err)) == RULES_OK ? 0 : -1;
}

static void
offer(struct gen *gen, const char *text)
{
	struct eve after;
	size_t i;

	if (json_array_size(gen->out) >= MAX_LEGAL)
		return;
	for (i = 0; i < json_array_size(gen->out); i++)
		if (strcmp(json_string_value(json_array_get(gen->out, i)),
		    text) == 0)
			return;
	if (try_text(gen->g, gen->seat, text, &after) == 0)
		json_array_append_new(gen->out, json_string(text));
}

static void
join(char *buf, size_t len, const char *prefix, const char *step)
{
	snprintf(buf, len, "%s%s%s", prefix, prefix[0] != '\0' ? "; " : "",
	    step);
}

/* Flight steps worth trying from the position after prefix. */
static int
flight_steps(const struct eve *sim, int seat, char cand[][64], int dir)
{
	const struct eve_player *pl = &sim->p[seat];
	int n = 0, next = pl->pos + dir, k, t;
	const char *back = dir < 0 ? " back" : "";

	if (next < 0 || next >= sim->nrow)
		return 0;
	t = eve_space(sim, next, seat);
	snprintf(cand[n++], 64, "fly %s%s", eve_kind_name(t, RULES_LANG_EN),
	    back);
	snprintf(cand[n++], 64, "fly %s from reserve%s",
	    eve_kind_name(t, RULES_LANG_EN), back);
	if (pl->nreserve > 0 && (k = eve_kind(pl->reserve[pl->nreserve - 1]))
	    < EVE_NTYPES) {
		snprintf(cand[n++], 64, "joker %s from reserve %s%s",
		    eve_kind_name(k, RULES_LANG_EN),
		    eve_kind_name(k, RULES_LANG_EN), back);
		snprintf(cand[n++], 64, "joker %s from reserve %s from "
		    "reserve%s", eve_kind_name(k, RULES_LANG_EN),
		    eve_kind_name(k, RULES_LANG_EN), back);
	}
	for (k = 0; k < EVE_NTYPES; k++)
		snprintf(cand[n++], 64, "joker %s %s%s",
		    eve_kind_name(k, RULES_LANG_EN),
		    eve_kind_name(k, RULES_LANG_EN), back);
	if (sim->mode == MODE_EXPERT && sim->version >= 2)
		snprintf(cand[n++], 64, "fight");
	if (dir > 0) {
		snprintf(cand[n++], 64, "spock retreat forward");
		snprintf(cand[n++], 64, "spock retreat from reserve forward");
	}
	return n;
}

/*
 * The furthest flight in direction dir this turn allows, greedily: each
 * round adds the first flight step (or, before the Klingon, pair of
 * steps) that keeps the turn legal.
 */
static void
greedy_flight(const struct eve *g, int seat, int dir, char *buf, size_t len)
{
	char cand[16][64], cand2[16][64], trial[1200];
	struct eve sim;
	int n, n2, i, j, progressed = 1;

	buf[0] = '\0';
	sim = *g;
	while (progressed) {
		progressed = 0;
		if (sim.p[seat].pos == sim.nrow - 1)
			break;
		n = flight_steps(&sim, seat, cand, dir);
		for (i = 0; i < n && !progressed; i++) {
			struct eve after;

			join(trial, sizeof(trial), buf, cand[i]);
			if (strlen(trial) < len &&
			    try_text(g, seat, trial, &after) == 0) {
				snprintf(buf, len, "%s", trial);
				sim = after;
				progressed = 1;
			}
		}
		if (progressed || sim.kl_pos != sim.p[seat].pos + dir ||
		    sim.kl_route != seat)
			continue;
		/* The Klingon ahead: two payments at once. */
		n2 = flight_steps(&sim, seat, cand2, dir);
		for (i = 0; i < n && !progressed; i++)
			for (j = 0; j < n2 && !progressed; j++) {
				struct eve after;
				char two[160];

				snprintf(two, sizeof(two), "%.63s; %.63s",
				    cand[i], cand2[j]);
				join(trial, sizeof(trial), buf, two);
				if (strlen(trial) < len &&
				    try_text(g, seat, trial, &after) == 0) {
					snprintf(buf, len, "%s", trial);
					sim = after;
					progressed = 1;
				}
			}
	}
}

/* Endings for a turn: extension, a spare card, a trade. */
static void
offer_endings(struct gen *gen, const char *base)
{
	const struct eve_player *pl = &gen->g->p[gen->seat];
	char text[1200];
	int k, t, ok = 0, seen[K_NKINDS] = { 0 };
	struct eve after;

	if (base[0] != '\0')
		offer(gen, base);
	/* The position the ending follows: the base turn's, or (version 2,
	 * where a ship that stayed may trade) the present one. */
	if (base[0] != '\0')
		ok = try_text(gen->g, gen->seat, base, &after) == 0;
	else if ((ok = gen->g->version >= 2))
		after = *gen->g;
	if (ok && gen->g->mode == MODE_EXPERT &&
	    after.p[gen->seat].pos >= 0 &&
	    eve_space(&after, after.p[gen->seat].pos, gen->seat) == K_CLASSM)
		for (t = 0; t < T_NTRACKS; t++) {
			char tr[64];

			snprintf(tr, sizeof(tr), "trade %s %s",
			    eve_track_name(t, RULES_LANG_EN),
			    eve_track_name(t == T_DILITHIUM ? T_SHIELD :
			    T_DILITHIUM, RULES_LANG_EN));
			join(text, sizeof(text), base, tr);
			offer(gen, text);
		}
	join(text, sizeof(text), base, "extend");
	offer(gen, text);
	join(text, sizeof(text), base, "extend flip");
	offer(gen, text);
	for (k = 0; k < pl->nhand; k++) {
		int kind = eve_kind(pl->hand[k]);
		char st[64];

		if (seen[kind]++)
			continue;
		snprintf(st, sizeof(st), "reserve %s",
		    eve_kind_name(kind, RULES_LANG_EN));
		join(text, sizeof(text), base, st);
		offer(gen, text);
		snprintf(st, sizeof(st), "starfleet %s",
		    eve_kind_name(kind, RULES_LANG_EN));
		join(text, sizeof(text), base, st);
		offer(gen, text);
		if (base[0] != '\0')
			continue;	/* bare discards only on their own */
		snprintf(st, sizeof(st), "discard %s",
		    eve_kind_name(kind, RULES_LANG_EN));
		join(text, sizeof(text), base, st);
		offer(gen, text);
	}
}

/* One use of each Spock action, on the first places that suit it. */
static void
offer_spock(struct gen *gen)
{
	const struct eve *g = gen->g;
	int opp = 1 - gen->seat, i;
	size_t before;
	char text[128];
	const struct eve_player *pl = &g->p[gen->seat];

	offer(gen, "spock retreat back");
	for (i = g->p[opp].pos + 1; i < g->nrow && i <= g->p[opp].pos + 2;
	    i++) {
		snprintf(text, sizeof(text), "spock neutral zone klingon %d %s",
		    i + 1, eve_route_name(opp));
		offer(gen, text);
	}
	/* The first Neutral Zone discard that is legal, if any: any free
	 * travel card (but the row's last in version 1; docs/eve.md). */
	before = json_array_size(gen->out);
	for (i = 0; i < g->nrow &&
	    json_array_size(gen->out) == before; i++) {
		snprintf(text, sizeof(text), "spock neutral zone discard %d",
		    i + 1);
		offer(gen, text);
	}
	for (i = pl->pos + 1; i < g->nrow && i <= pl->pos + 2; i++) {
		snprintf(text, sizeof(text), "spock mirror universe turn %d",
		    i + 1);
		offer(gen, text);
	}
	if (pl->pos + 1 < g->nrow - 1) {
		snprintf(text, sizeof(text), "spock mirror universe swap %d %d",
		    pl->pos + 2, g->nrow);
		offer(gen, text);
	}
	offer(gen, "spock briefing extend keep flip");
	offer(gen, "spock briefing extend");
	if (pl->nreserve > 0) {
		char order[700] = "spock briefing order";

		for (i = 0; i < pl->nreserve; i++) {
			strncat(order, " ", sizeof(order) - strlen(order) - 1);
			strncat(order, eve_kind_name(eve_kind(pl->reserve[i]),
			    RULES_LANG_EN), sizeof(order) - strlen(order) - 1);
			if (i + 1 < pl->nreserve)
				strncat(order, ",",
				    sizeof(order) - strlen(order) - 1);
		}
		offer(gen, order);
	}
}

json_t *
eve_legal_moves(const void *state, int seat)
{
	const struct eve *g = state;
	struct gen gen = { g, seat, json_array() };
	char flight[1024];
	const struct eve_player *pl;
	int k;

	if (g->over || seat != g->current)
		return gen.out;
	pl = &g->p[seat];
	greedy_flight(g, seat, 1, flight, sizeof(flight));
	if (flight[0] != '\0')
		offer_endings(&gen, flight);
	if (g->mode == MODE_EXPERT) {
		greedy_flight(g, seat, -1, flight, sizeof(flight));
		if (flight[0] != '\0')
			offer_endings(&gen, flight);
	}
	offer(&gen, "pass");
	offer_spock(&gen);
	for (k = 0; k < pl->nhand; k++) {
		char text[64];

		snprintf(text, sizeof(text), "reserve %s",
		    eve_kind_name(eve_kind(pl->hand[k]), RULES_LANG_EN));
		offer(&gen, text);
	}
	if (pl->nreserve > 0) {
		char text[64];

		snprintf(text, sizeof(text), "discard %s from reserve",
		    eve_kind_name(eve_kind(pl->reserve[pl->nreserve - 1]),
		    RULES_LANG_EN));
		offer(&gen, text);
	}
	offer_endings(&gen, "");
	return gen.out;
}

/*
 * Move forms: the steps open now to the seat to act, each judged by
 * check()'s own code (try_text) on its own, in the reader's language.
 * Only the seat's own hand and reserve top are named.
 */
struct forms {
	const struct eve *g;
	int		 seat, fr;
	json_t		*out;
};

static void
form(struct forms *fm, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
form(struct forms *fm, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(fm->out, json_string(buf));
}

/*
 * Whether the flight step text is legal now: alone, or, when it is the
 * first of the two payments the Klingon's space costs, with some second
 * payment after it.
 */
static int
flight_ok(const struct eve *g, int seat, const char *text, int dir)
{
	char cand[16][64], two[200];
	struct eve after;
	int n, i;

	if (try_text(g, seat, text, &after) == 0)
		return 1;
	if (g->kl_pos != g->p[seat].pos + dir || g->kl_route != seat)
		return 0;
	n = flight_steps(g, seat, cand, dir);
	for (i = 0; i < n; i++) {
		snprintf(two, sizeof(two), "%.96s; %.63s", text, cand[i]);
		if (try_text(g, seat, two, &after) == 0)
			return 1;
	}
	return 0;
}

static int
step_ok(const struct forms *fm, const char *text)
{
	struct eve after;

	return try_text(fm->g, fm->seat, text, &after) == 0;
}

static const char *
fkind(const struct forms *fm, int kind)
{
	return eve_kind_name(kind, fm->fr ? RULES_LANG_FR : RULES_LANG_EN);
}

/* The seat's distinct hand kinds (among those in want) as "a, b, c". */
static int
hand_list(const struct forms *fm, char *buf, size_t len, const int *want)
{
	const struct eve_player *pl = &fm->g->p[fm->seat];
	int seen[K_NKINDS] = { 0 }, i, k, n = 0;

	buf[0] = '\0';
	for (i = 0; i < pl->nhand; i++)
		seen[eve_kind(pl->hand[i])]++;
	for (k = 0; k < K_NKINDS; k++) {
		if (seen[k] == 0 || (want != NULL && !want[k]))
			continue;
		if (seen[k] > 1)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%d %s",
			    n ? ", " : "", seen[k], fkind(fm, k));
		else
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			    n ? ", " : "", fkind(fm, k));
		n++;
	}
	return n;
}

static void
flight_forms(struct forms *fm, int dir)
{
	const struct eve *g = fm->g;
	const struct eve_player *pl = &g->p[fm->seat];
	int next = pl->pos + dir, t, k, i, nh[K_NKINDS] = { 0 }, top = -1;
	int fr = fm->fr;
	const char *back = dir < 0 ? " back" : "";
	const char *fback = dir < 0 ? (fr ? " arrière" : " back") : "";
	const char *kl;
	char text[160];

	if (next < 0 || next >= g->nrow)
		return;
	for (i = 0; i < pl->nhand; i++)
		nh[eve_kind(pl->hand[i])]++;
	if (pl->nreserve > 0)
		top = eve_kind(pl->reserve[pl->nreserve - 1]);
	t = eve_space(g, next, fm->seat);
	kl = g->kl_pos != next || g->kl_route != fm->seat ? "" :
	    g->mode == MODE_EXPERT && g->version >= 2 ? (fr ?
	    " ; le Klingon y est : payez deux fois dans ce tour, ou une "
	    "fois puis « combattre »" : "; the Klingon is there: pay twice "
	    "this turn, or once and then \"fight\"") : (fr ?
	    " ; le Klingon y est : payez deux fois dans ce tour" :
	    "; the Klingon is there: pay twice this turn");
	snprintf(text, sizeof(text), "fly %s%s", eve_kind_name(t,
	    RULES_LANG_EN), back);
	if (flight_ok(g, fm->seat, text, dir))
		form(fm, fr ? "voler %s%s — votre %s case est : %s ; vous "
		    "avez %d carte(s) %s%s" : "fly %s%s — your %s space is "
		    "%s; you hold %d %s card(s)%s", fkind(fm, t), fback,
		    dir < 0 ? (fr ? "précédente" : "previous") :
		    (fr ? "prochaine" : "next"), fkind(fm, t), nh[t],
		    fkind(fm, t), kl);
	snprintf(text, sizeof(text), "fly %s from reserve%s",
	    eve_kind_name(t, RULES_LANG_EN), back);
	if (flight_ok(g, fm->seat, text, dir))
		form(fm, fr ? "voler %s de la réserve%s — le dessus de votre "
		    "réserve est : %s%s" : "fly %s from reserve%s — the top "
		    "of your reserve is %s%s", fkind(fm, t), fback,
		    fkind(fm, t), kl);
	for (k = 0; k < EVE_NTYPES; k++) {
		const char *kn = eve_kind_name(k, RULES_LANG_EN);

		snprintf(text, sizeof(text), "joker %s %s%s", kn, kn, back);
		if (nh[k] >= 2 && flight_ok(g, fm->seat, text, dir))
			form(fm, fr ? "joker %s %s%s — vous avez une paire "
			    "de %s%s" : "joker %s %s%s — you hold a pair of "
			    "%s%s", fkind(fm, k), fkind(fm, k), fback,
			    fkind(fm, k), kl);
		snprintf(text, sizeof(text), "joker %s from reserve %s%s", kn,
		    kn, back);
		if (top == k && nh[k] >= 1 && flight_ok(g, fm->seat, text,
		    dir))
			form(fm, fr ? "joker %s de la réserve %s%s — le "
			    "dessus de votre réserve et une carte de la main "
			    "sont : %s%s" : "joker %s from reserve %s%s — the "
			    "top of your reserve and a hand card are %s%s",
			    fkind(fm, k), fkind(fm, k), fback, fkind(fm, k),
			    kl);
	}
}

static void
starfleet_forms(struct forms *fm)
{
	const struct eve *g = fm->g;
	const struct eve_player *pl = &g->p[fm->seat];
	enum rules_lang lang = fm->fr ? RULES_LANG_FR : RULES_LANG_EN;
	int want[K_NKINDS] = { 0 }, k, top;
	char text[128], list[512], shows[160];

	snprintf(shows, sizeof(shows), fm->fr ? "%s et %s" : "%s and %s",
	    eve_sf_symbol_name(g->starfleet, 0, lang),
	    eve_sf_symbol_name(g->starfleet, 1, lang));
	for (k = 0; k < K_NKINDS; k++) {
		snprintf(text, sizeof(text), "starfleet %s",
		    eve_kind_name(k, RULES_LANG_EN));
		want[k] = eve_sf_matches(g->starfleet, k) && step_ok(fm, text);
	}
	if (hand_list(fm, list, sizeof(list), want) > 0)
		form(fm, fm->fr ? "starfleet <carte> — la carte Starfleet "
		    "montre %s ; vous avez : %s" : "starfleet <card> — the "
		    "Starfleet card shows %s; you hold %s", shows, list);
	if (pl->nreserve == 0)
		return;
	top = eve_kind(pl->reserve[pl->nreserve - 1]);
	snprintf(text, sizeof(text), "starfleet %s from reserve",
	    eve_kind_name(top, RULES_LANG_EN));
	if (eve_sf_matches(g->starfleet, top) && step_ok(fm, text))
		form(fm, fm->fr ? "starfleet %s de la réserve — la carte "
		    "Starfleet montre %s" : "starfleet %s from reserve — the "
		    "Starfleet card shows %s", fkind(fm, top), shows);
}

/* The card numbers n (1..) for which fmt with n is legal, as "1, 3-5". */
static int
numbers_ok(struct forms *fm, const char *fmt, const char *src, char *buf,
    size_t len)
{
	char text[128];
	int i, n = 0, first = -1;

	buf[0] = '\0';
	for (i = 0; i <= fm->g->nrow; i++) {
		int ok = 0;

		if (i < fm->g->nrow) {
			snprintf(text, sizeof(text), fmt, src, i + 1);
			ok = step_ok(fm, text);
		}
		if (ok && first < 0)
			first = i;
		if (ok || first < 0)
			continue;
		if (first == i - 1)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%d",
			    n ? ", " : "", first + 1);
		else
			snprintf(buf + strlen(buf), len - strlen(buf),
			    "%s%d-%d", n ? ", " : "", first + 1, i);
		n += i - first;
		first = -1;
	}
	return n;
}

/* A Spock card's actions open now; src is "" or " from reserve". */
static void
spock_forms(struct forms *fm, int kind, const char *src)
{
	const struct eve *g = fm->g;
	int fr = fm->fr, opp = 1 - fm->seat, a, b;
	const char *fsrc = src[0] == '\0' ? "" : fr ? " de la réserve" :
	    " from reserve";
	char text[128], l1[256], l2[256];

	switch (kind) {
	case K_RETREAT:
		snprintf(text, sizeof(text), "spock retreat%s forward", src);
		a = step_ok(fm, text);
		snprintf(text, sizeof(text), "spock retreat%s back", src);
		b = step_ok(fm, text);
		if (a)
			form(fm, fr ? "spock repli%s avant — votre vaisseau "
			    "avance d'une case" : "spock retreat%s forward — "
			    "your ship 1 space on", fsrc);
		if (b)
			form(fm, fr ? "spock repli%s arrière — l'%s recule "
			    "d'une case" : "spock retreat%s back — the %s 1 "
			    "space back", fsrc, eve_ship_name(opp));
		break;
	case K_NEUTRAL:
		snprintf(text, sizeof(text), "spock neutral zone%%s klingon "
		    "%%d %s", eve_route_name(opp));
		a = numbers_ok(fm, text, src, l1, sizeof(l1));
		b = numbers_ok(fm, "spock neutral zone%s discard %d", src, l2,
		    sizeof(l2));
		if (a > 0)
			form(fm, fr ? "spock zone neutre%s klingon <n> %s — "
			    "n parmi %s" : "spock neutral zone%s klingon <n> "
			    "%s — n among %s", fsrc, eve_route_name(opp), l1);
		if (b > 0)
			form(fm, fr ? "spock zone neutre%s défausser <n> — n "
			    "parmi %s" : "spock neutral zone%s discard <n> — "
			    "n among %s", fsrc, l2);
		break;
	case K_MIRROR:
		a = numbers_ok(fm, "spock mirror universe%s turn %d", src, l1,
		    sizeof(l1));
		if (a > 0) {
			form(fm, fr ? "spock univers miroir%s tourner <n> — n "
			    "parmi %s" : "spock mirror universe%s turn <n> — "
			    "n among %s", fsrc, l1);
			if (a > 1)
				form(fm, fr ? "spock univers miroir%s échanger "
				    "<n> <m> — deux cartes libres parmi %s" :
				    "spock mirror universe%s swap <n> <m> — "
				    "two free cards among %s", fsrc, l1);
		}
		break;
	case K_BRIEFING:
		snprintf(text, sizeof(text), "spock briefing%s extend", src);
		if (step_ok(fm, text))
			form(fm, fr ? "spock briefing%s allonger "
			    "[tourner|garder] [tourner|garder] — la pioche de "
			    "voyage a %d carte(s)" : "spock briefing%s extend "
			    "[flip|keep] [flip|keep] — the travel deck has %d "
			    "card(s)", fsrc, g->ntdeck);
		if (g->p[fm->seat].nreserve > 1)
			form(fm, fr ? "spock briefing%s ordonner <cartes de "
			    "la réserve, dessus d'abord>" : "spock briefing%s "
			    "order <reserve cards, top first>", fsrc);
		break;
	}
}

json_t *
eve_move_forms(const void *state, int seat, enum rules_lang lang)
{
	const struct eve *g = state;
	const struct eve_player *pl;
	struct forms fm = { g, seat, lang == RULES_LANG_FR, json_array() };
	int fr = fm.fr, k, i, has[K_NKINDS] = { 0 }, top = -1;
	char list[512], text[128];

	if (g->over || seat != g->current)
		return fm.out;
	pl = &g->p[seat];
	for (i = 0; i < pl->nhand; i++)
		has[eve_kind(pl->hand[i])] = 1;
	if (pl->nreserve > 0)
		top = eve_kind(pl->reserve[pl->nreserve - 1]);
	form(&fm, "%s", fr ? "un tour, un message : étapes séparées par "
	    "« ; », au plus 3 cartes de la main et 3 de la réserve" :
	    "one turn, one message: steps separated by ';', up to 3 cards "
	    "from your hand and 3 from your reserve");
	flight_forms(&fm, 1);
	if (g->mode == MODE_EXPERT)
		flight_forms(&fm, -1);
	starfleet_forms(&fm);
	for (k = EVE_NTYPES; k < K_NKINDS; k++) {
		if (has[k])
			spock_forms(&fm, k, "");
		if (top == k)
			spock_forms(&fm, k, " from reserve");
	}
	if (hand_list(&fm, list, sizeof(list), NULL) > 0) {
		snprintf(text, sizeof(text), "reserve %s",
		    eve_kind_name(eve_kind(pl->hand[0]), RULES_LANG_EN));
		if (step_ok(&fm, text))
			form(&fm, fr ? "réserver <carte de la main> — vous "
			    "avez : %s" : "reserve <hand card> — you hold %s",
			    list);
		form(&fm, fr ? "défausser <carte de la main> — une carte "
		    "inutile" : "discard <hand card> — an unused card");
	}
	if (top >= 0)
		form(&fm, fr ? "défausser %s de la réserve" : "discard %s from "
		    "reserve", fkind(&fm, top));
	if (step_ok(&fm, "extend"))
		form(&fm, fr ? "allonger [tourner] — en dernier ; la pioche de "
		    "voyage a %d carte(s)" : "extend [flip] — last step; the "
		    "travel deck has %d card(s)", g->ntdeck);
	if (g->mode == MODE_EXPERT && g->version >= 2)
		form(&fm, "%s", fr ? "votre vaisseau finissant le tour sur "
		    "une planète de classe M : commercer <piste> <piste> (en "
		    "dernier)" : "your ship ending the turn on a class-M "
		    "planet: trade <track> <track> (very last)");
	else if (g->mode == MODE_EXPERT)
		form(&fm, "%s", fr ? "après un vol finissant sur une planète "
		    "de classe M : commercer <piste> <piste> (en dernier)" :
		    "after a flight ending on a class-M planet: trade <track> "
		    "<track> (very last)");
	form(&fm, "%s", fr ? "passer" : "pass");
	return fm.out;
}
