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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eve.h"

#define MAX_LEGAL	50

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

json_t *
eve_view(const void *state, int viewer)
{
	const struct eve *g = state;
	json_t *v, *row = json_array(), *seats = json_array(), *to_act;
	int i, s, full = viewer == RULES_VIEW_FULL;

	to_act = json_array();
	if (!g->over)
		json_array_append_new(to_act, json_integer(g->current));
	for (i = 0; i < g->nrow; i++)
		json_array_append_new(row, json_pack("{s:i, s:s, s:s}",
		    "card", i + 1,
		    "enterprise", eve_kind_name(eve_space(g, i, 0),
		    RULES_LANG_EN),
		    "excelsior", eve_kind_name(eve_space(g, i, 1),
		    RULES_LANG_EN)));
	for (s = 0; s < EVE_SEATS; s++) {
		const struct eve_player *pl = &g->p[s];
		json_t *o = json_pack("{s:i, s:s, s:i, s:i, s:i, s:i, s:i, "
		    "s:o, s:i}", "seat", s, "ship", s == 0 ? "Enterprise" :
		    "Excelsior", "space", pl->pos + 1, "score", pl->score,
		    "hand_size", pl->nhand, "deck_size", pl->ndeck,
		    "reserve_size", pl->nreserve,
		    "discard", kind_names(pl->discard, pl->ndiscard, 1),
		    "starfleet_cards", pl->nfleet);

		json_object_set_new(o, "starfleet", kind_names(pl->fleet,
		    pl->nfleet, 0));
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
	json_object_set_new(v, "starfleet_card", json_pack("[s,s]",
	    eve_sf_symbol(g->starfleet, 0) == EVE_SPOCK ? "Spock" :
	    eve_kind_name(eve_sf_symbol(g->starfleet, 0), RULES_LANG_EN),
	    eve_sf_symbol(g->starfleet, 1) == EVE_SPOCK ? "Spock" :
	    eve_kind_name(eve_sf_symbol(g->starfleet, 1), RULES_LANG_EN)));
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
	int k, t, seen[K_NKINDS] = { 0 };
	struct eve after;

	if (base[0] != '\0')
		offer(gen, base);
	if (base[0] != '\0' && gen->g->mode == MODE_EXPERT &&
	    try_text(gen->g, gen->seat, base, &after) == 0 &&
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
	int opp = 1 - gen->seat, i, j, done;
	char text[128];
	const struct eve_player *pl = &g->p[gen->seat];

	offer(gen, "spock retreat back");
	for (i = g->p[opp].pos + 1; i < g->nrow && i <= g->p[opp].pos + 2;
	    i++) {
		snprintf(text, sizeof(text), "spock neutral zone klingon %d %s",
		    i + 1, eve_route_name(opp));
		offer(gen, text);
	}
	for (i = pl->pos + 1, done = 0; i < g->nrow - 1 && done < 1; i++) {
		snprintf(text, sizeof(text), "spock neutral zone discard %d",
		    i + 1);
		offer(gen, text);
		done = json_array_size(gen->out) > 0;
	}
	for (i = pl->pos + 1; i < g->nrow && i <= pl->pos + 2; i++) {
		snprintf(text, sizeof(text), "spock mirror universe turn %d",
		    i + 1);
		offer(gen, text);
	}
	for (i = pl->pos + 1, j = g->nrow - 1; i < j; i++) {
		snprintf(text, sizeof(text), "spock mirror universe swap %d %d",
		    i + 1, j + 1);
		offer(gen, text);
		break;
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

json_t *
eve_move_forms(const void *state, int seat, enum rules_lang lang)
{
	const struct eve *g = state;
	json_t *f = json_array();
	int fr = lang == RULES_LANG_FR;

#define FORM(en, frs) json_array_append_new(f, json_string(fr ? (frs) : (en)))
	if (g->over || seat != g->current)
		return f;
	FORM("a turn is one message: steps separated by ';' (up to 3 cards "
	    "from your hand and 3 from the top of your reserve pile), or "
	    "\"pass\"",
	    "un tour est un message : des étapes séparées par « ; » (au plus "
	    "3 cartes de la main et 3 du dessus de la réserve), ou « passer »");
	FORM("fly <flight card> [from reserve]" ,
	    "voler <carte de vol> [de la réserve]");
	FORM("joker <card> [from reserve] <same card> [from reserve]",
	    "joker <carte> [de la réserve] <même carte> [de la réserve]");
	FORM("starfleet <card matching the Starfleet card> [from reserve]",
	    "starfleet <carte correspondant à la carte Starfleet> [de la "
	    "réserve]");
	FORM("reserve <hand card>; discard <card> [from reserve]",
	    "réserver <carte de la main> ; défausser <carte> [de la réserve]");
	FORM("spock retreat forward|back; spock neutral zone klingon <n> "
	    "<enterprise|excelsior> | discard <n>",
	    "spock repli avant|arrière ; spock zone neutre klingon <n> "
	    "<enterprise|excelsior> | défausser <n>");
	FORM("spock mirror universe turn <n> | swap <n> <m>; spock briefing "
	    "extend [flip|keep] [flip|keep] | order <reserve cards, top first>",
	    "spock univers miroir tourner <n> | échanger <n> <m> ; spock "
	    "briefing allonger [tourner|garder] [tourner|garder] | ordonner "
	    "<cartes de la réserve, dessus d'abord>");
	FORM("last: extend [flip|keep]", "en dernier : allonger "
	    "[tourner|garder]");
	if (g->mode == MODE_EXPERT) {
		FORM("expert: fly <card> back; after a flight ending on a "
		    "class-M planet: trade <track> <track>",
		    "expert : voler <carte> arrière ; après un vol finissant "
		    "sur une planète de classe M : commercer <piste> <piste>");
	}
#undef FORM
	return f;
}
