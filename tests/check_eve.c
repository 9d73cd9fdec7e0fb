/*
 * check_eve.c -- Enterprise vs Excelsior through its module table: setup
 * and options, every turn rule with the words of its refusal, the
 * Klingon, jokers, Spock cards, stage end and scoring, the tie rule,
 * expert mode, hidden information, save/load, and thousands of random
 * games in each mode checked after every turn (cards conserved, views
 * hiding what they must, exact replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <jansson.h>

#include "rules.h"
#include "rng.h"
#include "rulestest.h"
#include "eve.h"

extern const struct rules_module eve_module;
static const struct rules_module *M = &eve_module;

/* The module is set up and loaded through the registry, as the core does
 * it (rules.h: rules_setup_game(), rules_load_game()); it has no cards. */
static void *
game_setup(int nseats, const json_t *options, struct rules_rng *rng,
    char *err, size_t errlen)
{
	return rules_setup_game(M, NULL, M->ruleset_version, nseats, options,
	    rng, err, errlen);
}

static void *
game_load(const json_t *saved, char *err, size_t errlen)
{
	return rules_load_game(M, NULL, saved, err, errlen);
}

static struct eve *
new_game(const char *opts_text, uint64_t seed)
{
	struct rules_rng rng;
	json_t *opts = json_loads(opts_text, 0, NULL);
	char err[RULES_ERRLEN];
	void *st;

	rulestest_rng(&rng, seed, 0);
	st = game_setup(2, opts, &rng, err, sizeof(err));
	json_decref(opts);
	ck_assert_msg(st != NULL, "setup: %s", err);
	return st;
}

/* Lay out the row: route 0 and route 1 types per card. */
static void
set_row(struct eve *g, const int (*types)[2], int n)
{
	int used[EVE_TRAVEL] = { 0 }, i, c;

	for (i = 0; i < n; i++) {
		for (c = 0; c < EVE_TRAVEL; c++) {
			if (used[c])
				continue;
			if (eve_travel_half(c, 0) == types[i][0] &&
			    eve_travel_half(c, 1) == types[i][1]) {
				g->flip[i] = 0;
				break;
			}
			if (eve_travel_half(c, 1) == types[i][0] &&
			    eve_travel_half(c, 0) == types[i][1]) {
				g->flip[i] = 1;
				break;
			}
		}
		ck_assert_int_lt(c, EVE_TRAVEL);
		used[c] = 1;
		g->row[i] = c;
	}
	g->nrow = n;
	g->ntdeck = g->ntdiscard = 0;
	for (c = 0; c < EVE_TRAVEL; c++)
		if (!used[c])
			g->tdeck[g->ntdeck++] = c;
}

/* Give seat exactly these hand and reserve kinds (reserve: top last). */
static void
set_cards(struct eve *g, int seat, const int *hand, int nh,
    const int *reserve, int nr)
{
	struct eve_player *pl = &g->p[seat];
	int used[EVE_DECK] = { 0 }, i, c;

	pl->nhand = pl->nreserve = pl->ndiscard = pl->nfleet = pl->ndeck = 0;
	for (i = 0; i < nh + nr; i++) {
		int kind = i < nh ? hand[i] : reserve[i - nh];

		for (c = 0; c < EVE_DECK; c++)
			if (!used[c] && eve_kind(c) == kind)
				break;
		ck_assert_int_lt(c, EVE_DECK);
		used[c] = 1;
		if (i < nh)
			pl->hand[pl->nhand++] = c;
		else
			pl->reserve[pl->nreserve++] = c;
	}
	for (c = EVE_DECK - 1; c >= 0; c--)
		if (!used[c])
			pl->deck[pl->ndeck++] = c;
}

/* Parse and check text for seat; the status, message in err. */
static enum rules_status
try(struct eve *g, int seat, const char *text, enum rules_lang lang,
    char *err)
{
	json_t *move = NULL;
	enum rules_status rs;

	rs = M->parse(g, seat, text, lang, &move, err, RULES_ERRLEN);
	if (rs != RULES_OK)
		return rs;
	rs = M->check(g, seat, move, lang, err, RULES_ERRLEN);
	json_decref(move);
	return rs;
}

static void
play(struct eve *g, const char *text)
{
	struct rules_rng rng;
	json_t *move = NULL;
	char err[RULES_ERRLEN];
	int seat = g->current;

	ck_assert_msg(M->parse(g, seat, text, RULES_LANG_EN, &move, err,
	    sizeof(err)) == RULES_OK, "parse \"%s\": %s", text, err);
	ck_assert_msg(M->check(g, seat, move, RULES_LANG_EN, err,
	    sizeof(err)) == RULES_OK, "check \"%s\": %s", text, err);
	rulestest_rng(&rng, 99, 1);
	M->apply(g, seat, move, &rng);
	json_decref(move);
	ck_assert(eve_conserved(g));
}

static void
refused(struct eve *g, const char *text, const char *words)
{
	char err[RULES_ERRLEN];

	ck_assert_int_ne(try(g, g->current, text, RULES_LANG_EN, err),
	    RULES_OK);
	ck_assert_msg(strstr(err, words) != NULL, "\"%s\": got \"%s\", "
	    "wanted \"%s\"", text, err, words);
}

enum { N = K_NEBULA, A = K_ASTEROID, C = K_CLASSM, B = K_BLACKHOLE,
	I = K_IONSTORM };

/* A standard test position: seat 0 to play, row of 9. */
static struct eve *
position(void)
{
	static const int row[9][2] = {
		{ N, A }, { A, C }, { A, B }, { A, I }, { C, N },
		{ B, A }, { I, C }, { N, B }, { C, I }
	};
	static const int h1[5] = { N, A, C, B, I };
	struct eve *g = new_game("{\"first\": 0}", 1);

	set_row(g, row, 9);
	set_cards(g, 0, h1, 5, NULL, 0);
	set_cards(g, 1, h1, 5, NULL, 0);
	g->starfleet = 0;	/* nebula + asteroid */
	ck_assert(eve_conserved(g));
	return g;
}

START_TEST(test_setup)
{
	struct rules_rng rng;
	char err[RULES_ERRLEN];
	json_t *o;
	struct eve *g;
	int i, r;

	rulestest_rng(&rng, 1, 0);
	o = json_object();
	ck_assert_ptr_null(game_setup(3, o, &rng, err, sizeof(err)));
	ck_assert(strstr(err, "exactly 2 players") != NULL);
	json_decref(o);
	o = json_pack("{s:s}", "mode", "hard");
	ck_assert_ptr_null(game_setup(2, o, &rng, err, sizeof(err)));
	ck_assert(strstr(err, "\"base\" or \"expert\"") != NULL);
	json_decref(o);
	o = json_pack("{s:i}", "colour", 1);
	ck_assert_ptr_null(game_setup(2, o, &rng, err, sizeof(err)));
	ck_assert(strstr(err, "unknown option \"colour\"") != NULL);
	json_decref(o);
	o = json_pack("{s:i}", "first", 2);
	ck_assert_ptr_null(game_setup(2, o, &rng, err, sizeof(err)));
	ck_assert(strstr(err, "\"first\" must be") != NULL);
	json_decref(o);
	for (i = 0; i < 200; i++) {
		g = new_game(i % 2 ? "{\"first\": 1}" : "{}", (uint64_t)i);
		ck_assert_int_eq(g->nrow, 9);
		ck_assert_int_eq(g->ntdeck, 31);
		for (r = 1; r < 9; r++) {
			ck_assert_int_ne(eve_space(g, r, 0),
			    eve_space(g, r - 1, 0));
			ck_assert_int_ne(eve_space(g, r, 1),
			    eve_space(g, r - 1, 1));
		}
		ck_assert_int_eq(g->p[0].nhand, 5);
		ck_assert_int_eq(g->p[1].ndeck, 28);
		ck_assert_int_eq(g->p[0].pos, -1);
		ck_assert_int_eq(g->p[1].pos, -1);
		ck_assert_int_eq(g->kl_pos, -1);
		ck_assert_int_eq(g->mode, MODE_BASE);
		if (i % 2)
			ck_assert_int_eq(g->current, 1);
		ck_assert(eve_conserved(g));
		M->destroy(g);
	}
	g = new_game("{\"mode\": \"expert\", \"first\": \"random\"}", 5);
	ck_assert_int_eq(g->mode, MODE_EXPERT);
	ck_assert_int_eq(g->p[1].track[T_DILITHIUM], 5);
	M->destroy(g);
}
END_TEST

START_TEST(test_fly_and_runs)
{
	struct eve *g = position();

	refused(g, "fly asteroid", "next space of your route is nebula");
	play(g, "fly nebula");
	ck_assert_int_eq(g->p[0].pos, 0);
	ck_assert_int_eq(g->current, 1);
	ck_assert_int_eq(g->p[0].nhand, 5);
	ck_assert_int_eq(g->p[0].ndiscard, 1);
	/* Seat 1's route: A C B I N A C B I; now seat 0 again. */
	g->current = 0;
	/* Route 0 from space 1: A A A (a run of three) C. */
	play(g, "fly asteroid field");
	ck_assert_int_eq(g->p[0].pos, 3);
	M->destroy(g);
}
END_TEST

START_TEST(test_klingon_in_run)
{
	struct eve *g = position();
	static const int h[5] = { A, A, A, N, N };

	g->p[0].pos = 0;
	set_cards(g, 0, h, 5, NULL, 0);
	g->kl_pos = 2;		/* inside the run A A A */
	g->kl_route = 0;
	play(g, "fly asteroid");
	ck_assert_int_eq(g->p[0].pos, 1);	/* stopped before it */
	g->current = 0;
	refused(g, "fly asteroid", "second matching card or a joker");
	play(g, "fly asteroid; fly asteroid");
	ck_assert_int_eq(g->kl_pos, -1);	/* beside the row again */
	ck_assert_int_eq(g->p[0].pos, 3);	/* and on to the run's end */
	M->destroy(g);
}
END_TEST

START_TEST(test_klingon_payments)
{
	static const int h[5] = { A, I, I, N, N };
	static const int h2[5] = { I, I, N, N, C };
	struct eve *g = position();

	g->p[0].pos = 0;
	g->kl_pos = 1;
	g->kl_route = 0;
	set_cards(g, 0, h, 5, NULL, 0);
	play(g, "fly asteroid; joker ion storm ion storm");
	ck_assert_int_eq(g->p[0].pos, 3);
	M->destroy(g);
	g = position();
	g->p[0].pos = 0;
	g->kl_pos = 1;
	g->kl_route = 0;
	set_cards(g, 0, h2, 5, NULL, 0);
	refused(g, "joker ion ion; joker nebula nebula", "already used 3");
	set_cards(g, 0, h2, 3, (const int[]){ C, N }, 2);
	g->p[0].nhand = 3;
	play(g, "joker ion ion; joker nebula nebula from reserve");
	ck_assert_int_eq(g->p[0].pos, 3);
	M->destroy(g);
}
END_TEST

START_TEST(test_joker_hand_reserve)
{
	static const int h[5] = { I, B, B, A, A };
	struct eve *g = position();

	set_cards(g, 0, h, 5, (const int[]){ C, I }, 2);
	refused(g, "joker ion storm ion storm", "no ion storm in your hand");
	refused(g, "joker black hole from reserve black hole",
	    "top card of your reserve pile is ion storm");
	refused(g, "joker ion black hole", "two identical flight cards");
	play(g, "joker ion storm from reserve ion storm");
	ck_assert_int_eq(g->p[0].pos, 0);
	ck_assert_int_eq(g->p[0].nreserve, 1);
	M->destroy(g);
}
END_TEST

START_TEST(test_limits_reserve_starfleet)
{
	static const int h[5] = { N, N, A, A, C };
	struct eve *g = position();
	char err[RULES_ERRLEN];

	set_cards(g, 0, h, 5, NULL, 0);
	refused(g, "reserve nebula; reserve nebula; reserve class-m; "
	    "discard asteroid", "already used 3 cards from your hand");
	play(g, "reserve nebula; reserve class-m planet; starfleet asteroid");
	ck_assert_int_eq(g->p[0].nreserve, 2);
	ck_assert_int_eq(eve_kind(g->p[0].reserve[1]), K_CLASSM);
	ck_assert_int_eq(g->p[0].nfleet, 1);
	ck_assert_int_eq(g->p[0].nhand, 5);
	g->current = 0;
	set_cards(g, 0, h, 5, (const int[]){ N, C }, 2);
	refused(g, "starfleet class-m", "does not match the Starfleet card");
	refused(g, "fly nebula from reserve", "top card of your reserve pile "
	    "is class-m planet");
	play(g, "discard class-m from reserve; fly nebula from reserve");
	ck_assert_int_eq(g->p[0].pos, 0);
	ck_assert_int_eq(try(g, 1, "pass", RULES_LANG_EN, err), RULES_OK);
	ck_assert_int_eq(try(g, 0, "pass", RULES_LANG_EN, err),
	    RULES_NOT_YOUR_TURN);
	M->destroy(g);
}
END_TEST

START_TEST(test_spock)
{
	static const int h[5] = { K_RETREAT, K_RETREAT, K_NEUTRAL, K_MIRROR,
	    K_BRIEFING };
	struct eve *g = position();
	int row3, flip3, nrow;

	set_cards(g, 0, h, 5, NULL, 0);
	refused(g, "spock retreat back", "still before the row");
	play(g, "spock retreat forward; spock retreat forward; "
	    "spock neutral zone klingon 1 excelsior");
	ck_assert_int_eq(g->p[0].pos, 1);
	ck_assert_int_eq(g->kl_pos, 0);
	ck_assert_int_eq(g->kl_route, 1);
	g->current = 0;
	g->p[1].pos = 3;
	set_cards(g, 0, h, 5, NULL, 0);
	row3 = g->row[4];
	flip3 = g->flip[4];
	refused(g, "spock mirror universe turn 2", "not free");
	play(g, "spock mirror universe turn 5; spock retreat back");
	ck_assert_int_eq(g->flip[4], !flip3);
	ck_assert_int_eq(g->row[4], row3);
	ck_assert_int_eq(g->p[1].pos, 2);
	g->current = 0;
	set_cards(g, 0, h, 5, NULL, 0);
	nrow = g->nrow;
	g->version = 1;		/* version 1 kept the row's last card */
	refused(g, "spock neutral zone discard 9", "last card");
	g->version = EVE_RULES_VERSION;
	play(g, "spock neutral zone discard 5; spock mirror swap 6 7; "
	    "spock briefing extend keep flip");
	ck_assert_int_eq(g->nrow, nrow - 1 + 2);
	ck_assert_int_eq(g->ntdiscard, 1);
	ck_assert_int_eq(g->flip[g->nrow - 1], 1);
	g->current = 0;
	set_cards(g, 0, h, 3, (const int[]){ N, A, K_BRIEFING }, 3);
	g->p[0].nhand = 3;
	refused(g, "spock briefing from reserve order nebula",
	    "holds 2 cards");
	play(g, "spock briefing from reserve order nebula, asteroid");
	ck_assert_int_eq(eve_kind(g->p[0].reserve[1]), K_NEBULA);
	ck_assert_int_eq(eve_kind(g->p[0].reserve[0]), K_ASTEROID);
	M->destroy(g);
}
END_TEST

START_TEST(test_extend_refill)
{
	struct eve *g = position();
	struct eve_player *pl = &g->p[0];
	int top = g->tdeck[g->ntdeck - 1], i;

	refused(g, "extend; fly nebula", "extension ends the turn");
	play(g, "fly nebula; extend flip");
	ck_assert_int_eq(g->nrow, 10);
	ck_assert_int_eq(g->row[9], top);
	ck_assert_int_eq(g->flip[9], 1);
	/* Refill with reshuffle: an empty deck takes the discard pile. */
	g->current = 0;
	for (i = 0; i < pl->ndeck; i++)
		pl->discard[pl->ndiscard++] = pl->deck[i];
	pl->ndeck = 0;
	play(g, "discard nebula; discard asteroid");
	ck_assert_int_eq(pl->nhand, 5);
	ck_assert_int_eq(pl->ndiscard, 0);
	ck_assert_int_eq(pl->ndeck, EVE_DECK - 5 - 2 + 2);
	M->destroy(g);
}
END_TEST

START_TEST(test_stage_end_mid_turn)
{
	static const int h[5] = { C, C, N, N, A };
	struct eve *g = position();

	g->p[0].pos = 7;
	g->p[1].pos = 2;
	set_cards(g, 0, h, 5, NULL, 0);
	set_cards(g, 1, h, 3, (const int[]){ N }, 1);
	g->p[1].nhand = 5;
	g->p[1].hand[3] = g->p[1].deck[--g->p[1].ndeck];
	g->p[1].hand[4] = g->p[1].deck[--g->p[1].ndeck];
	/* One card to Starfleet each side but two for seat 0. */
	g->p[0].fleet[g->p[0].nfleet++] = g->p[0].deck[--g->p[0].ndeck];
	ck_assert(eve_conserved(g));
	refused(g, "fly class-m; discard nebula", "stage already ended at "
	    "step 1");
	refused(g, "fly class-m; extend", "stage already ended");
	play(g, "starfleet nebula; fly class-m planet");
	/* distance 8 - 2 = 6, Starfleet 2 to 0: +3 */
	ck_assert_int_eq(g->p[0].score, 9);
	ck_assert_int_eq(g->p[1].score, 0);
	ck_assert_int_eq(g->stage, 2);
	ck_assert_int_eq(g->current, 1);	/* fewer points starts */
	ck_assert_int_eq(g->p[0].nfleet, 0);
	ck_assert_int_eq(g->p[0].pos, -1);
	ck_assert_int_eq(g->nrow, 9);
	ck_assert_int_eq(g->last_finisher, 0);
	ck_assert(!g->over);
	M->destroy(g);
}
END_TEST

START_TEST(test_tie_rule)
{
	static const int h[5] = { C, C, N, N, A };
	struct eve *g = position();
	json_t *res;

	g->p[0].pos = 7;
	g->p[1].pos = 6;	/* distance 2 */
	g->p[0].score = 10;
	g->p[1].score = 12 - 0;
	g->p[1].score = 11;
	set_cards(g, 0, h, 5, NULL, 0);
	/* Seat 1 has one Starfleet card: +3 to 14; seat 0 to 12. */
	g->p[1].fleet[g->p[1].nfleet++] = g->p[1].deck[--g->p[1].ndeck];
	g->p[1].score = 9;	/* 9 + 3 = 12 */
	play(g, "fly class-m");
	ck_assert(g->over);
	ck_assert_int_eq(g->p[0].score, 12);
	ck_assert_int_eq(g->p[1].score, 12);
	ck_assert_int_eq(g->winner, 0);		/* won the last stage */
	res = M->result(g);
	ck_assert_int_eq(json_integer_value(json_array_get(
	    json_object_get(res, "winners"), 0)), 0);
	json_decref(res);
	ck_assert_int_eq(M->to_act(g, (int[1]){ 0 }, 1), 0);
	M->destroy(g);
}
END_TEST

/* "Did you mean": keywords and card kinds, in both languages, from the
 * public names only (the same text whatever the hands hold). */
START_TEST(test_did_you_mean)
{
	static const struct {
		const char *text;
		enum rules_lang lang;
		const char *hint;
	} cases[] = {
		{ "flu nebula", RULES_LANG_EN, "Did you mean \"fly\"?" },
		{ "fly nebulla", RULES_LANG_EN, "Did you mean \"nebula\"?" },
		{ "fly astroid", RULES_LANG_EN,
		    "Did you mean \"asteroid field\"?" },
		{ "reserve blak hole", RULES_LANG_EN,
		    "Did you mean \"black hole\"?" },
		{ "defauser nebuleuse", RULES_LANG_FR,
		    "Vouliez-vous dire « défausser » ?" },
		{ "voler nebuleuze", RULES_LANG_FR,
		    "Vouliez-vous dire « nébuleuse » ?" },
		{ "spock retreet forward", RULES_LANG_EN,
		    "Did you mean \"retreat\"?" },
	};
	struct eve *g = position();
	char err[RULES_ERRLEN];
	json_t *mv = NULL;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(M->parse(g, 0, cases[i].text, cases[i].lang,
		    &mv, err, sizeof(err)), RULES_SYNTAX);
		ck_assert_msg(strstr(err, cases[i].hint) != NULL,
		    "\"%s\": \"%s\" lacks \"%s\"", cases[i].text, err,
		    cases[i].hint);
	}
	/* Nothing near: no guess. */
	ck_assert_int_eq(M->parse(g, 0, "voler banane", RULES_LANG_FR, &mv,
	    err, sizeof(err)), RULES_SYNTAX);
	ck_assert(strstr(err, "Vouliez-vous dire") == NULL);
	M->destroy(g);
}
END_TEST

START_TEST(test_parse_fr)
{
	struct eve *g = position();
	char err[RULES_ERRLEN];
	json_t *m1 = NULL, *m2 = NULL;

	ck_assert_int_eq(M->parse(g, 0, "Voler Nébuleuse ; réserver champ "
	    "d'astéroïdes; allonger tourner", RULES_LANG_FR, &m1, err,
	    sizeof(err)), RULES_OK);
	ck_assert_int_eq(M->parse(g, 0, "fly neb; reserve ast; extend flip",
	    RULES_LANG_EN, &m2, err, sizeof(err)), RULES_OK);
	ck_assert(json_equal(m1, m2));
	json_decref(m1);
	json_decref(m2);
	ck_assert_int_eq(M->parse(g, 0, "voler banane", RULES_LANG_FR, &m1,
	    err, sizeof(err)), RULES_SYNTAX);
	ck_assert(strstr(err, "étape 1") != NULL);
	ck_assert_int_eq(try(g, 0, "voler astéroïdes", RULES_LANG_FR, err),
	    RULES_ILLEGAL);
	ck_assert(strstr(err, "prochaine case") != NULL);
	ck_assert_int_eq(try(g, 0, "spock repli de la réserve avant",
	    RULES_LANG_FR, err), RULES_ILLEGAL);
	ck_assert(strstr(err, "réserve est vide") != NULL);
	M->destroy(g);
}
END_TEST

/* True when some form in forms contains every one of the words. */
static int
has_form(const json_t *forms, const char *a, const char *b)
{
	size_t i;

	for (i = 0; i < json_array_size(forms); i++) {
		const char *f = json_string_value(json_array_get(forms, i));

		if (strstr(f, a) != NULL && (b == NULL || strstr(f, b) != NULL))
			return 1;
	}
	return 0;
}

static void
print_forms(const json_t *forms)
{
	size_t i;

	for (i = 0; i < json_array_size(forms); i++)
		fprintf(stderr, "  %s\n",
		    json_string_value(json_array_get(forms, i)));
}

START_TEST(test_move_forms)
{
	static const int h[5] = { N, N, A, A, K_RETREAT };
	static const int r[1] = { K_MIRROR };
	static const int h1[5] = { K_BRIEFING, K_NEUTRAL, K_NEUTRAL, C, C };
	struct eve *g = position();
	json_t *f;

	set_cards(g, 0, h, 5, r, 1);
	set_cards(g, 1, h1, 5, NULL, 0);
	f = M->move_forms(g, 0, RULES_LANG_EN);
	if (getenv("EVE_FORMS") != NULL)
		print_forms(f);
	ck_assert(has_form(f, "one turn, one message", NULL));
	ck_assert(has_form(f, "fly nebula — your next space is nebula",
	    "you hold 2 nebula"));
	/* Holding a nebula for the nebula ahead: no joker (version 2). */
	ck_assert(!has_form(f, "joker", NULL));
	ck_assert(has_form(f, "starfleet <card>", "shows nebula and "
	    "asteroid field; you hold 2 nebula, 2 asteroid field"));
	ck_assert(has_form(f, "spock retreat forward", NULL));
	ck_assert(has_form(f, "spock mirror universe from reserve turn",
	    NULL));
	ck_assert(has_form(f, "reserve <hand card>", NULL));
	ck_assert(has_form(f, "extend [flip]", NULL));
	ck_assert(has_form(f, "pass", NULL));
	/* The opponent's hidden hand is never named. */
	ck_assert(!has_form(f, "briefing", NULL));
	ck_assert(!has_form(f, "neutral zone", NULL));
	ck_assert(!has_form(f, "class-m", NULL));
	json_decref(f);
	f = M->move_forms(g, 0, RULES_LANG_FR);
	if (getenv("EVE_FORMS") != NULL)
		print_forms(f);
	ck_assert(has_form(f, "voler nébuleuse", "2 carte(s) nébuleuse"));
	ck_assert(has_form(f, "spock repli avant", NULL));
	ck_assert(has_form(f, "passer", NULL));
	json_decref(f);
	g->version = 1;		/* version 1 allowed jokers anyway */
	f = M->move_forms(g, 0, RULES_LANG_EN);
	ck_assert(has_form(f, "joker nebula nebula", "pair of nebula"));
	ck_assert(has_form(f, "joker asteroid field asteroid field", NULL));
	json_decref(f);
	g->version = EVE_RULES_VERSION;
	/* Every form's step is one that check() takes. */
	ck_assert_int_eq(try(g, 0, "spock mirror universe from reserve turn "
	    "3", RULES_LANG_EN, (char[RULES_ERRLEN]){ 0 }), RULES_OK);
	/* The Klingon on the next space: the flight still offered. */
	g->kl_pos = 0;
	g->kl_route = 0;
	f = M->move_forms(g, 0, RULES_LANG_EN);
	ck_assert(has_form(f, "fly nebula", "pay twice"));
	json_decref(f);
	/* No form for a seat not to act. */
	f = M->move_forms(g, 1, RULES_LANG_EN);
	ck_assert_int_eq(json_array_size(f), 0);
	json_decref(f);
	M->destroy(g);
}
END_TEST

/* No view for seat (or the public) shows what it must not. */
static void
check_views(const struct eve *g)
{
	int v;

	for (v = -2; v < 2; v++) {
		json_t *view = M->view(g, v), *seats;
		int s;

		ck_assert_ptr_nonnull(json_object_get(view, "to_act"));
		ck_assert_ptr_nonnull(json_object_get(view, "over"));
		seats = json_object_get(view, "seats");
		for (s = 0; s < 2; s++) {
			json_t *o = json_array_get(seats, (size_t)s);
			int mine = v == s || v == RULES_VIEW_FULL;

			ck_assert_int_eq(json_object_get(o, "hand") != NULL,
			    mine);
			ck_assert_int_eq(json_object_get(o, "reserve") != NULL,
			    mine);
			ck_assert_int_eq(json_object_get(o, "hand_cards") !=
			    NULL, mine);
			ck_assert_int_eq(json_object_get(o, "reserve_cards") !=
			    NULL, mine);
			ck_assert_int_eq(json_object_get(o, "deck") != NULL,
			    v == RULES_VIEW_FULL);
		}
		ck_assert_int_eq(json_object_get(view, "travel_deck") != NULL,
		    v == RULES_VIEW_FULL);
		json_decref(view);
	}
}

static char *
dump(const void *st)
{
	json_t *j = M->save(st);
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(j);
	return s;
}

START_TEST(test_save_load)
{
	struct eve *g = position();
	char err[RULES_ERRLEN], *a, *b;
	json_t *j;
	void *copy;

	j = M->save(g);
	copy = game_load(j, err, sizeof(err));
	ck_assert_ptr_nonnull(copy);
	a = dump(g);
	b = dump(copy);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	M->destroy(copy);
	/* A card in two places, a ship off the row, an unknown key. */
	json_array_set_new(json_object_get(json_array_get(json_object_get(j,
	    "players"), 0), "hand"), 0, json_integer(32));
	ck_assert_ptr_null(game_load(j, err, sizeof(err)));
	ck_assert(strstr(err, "not valid") != NULL);
	json_decref(j);
	j = M->save(g);
	json_object_set_new(json_array_get(json_object_get(j, "players"), 1),
	    "pos", json_integer(40));
	ck_assert_ptr_null(game_load(j, err, sizeof(err)));
	json_decref(j);
	j = M->save(g);
	json_object_set_new(j, "extra", json_true());
	ck_assert_ptr_null(game_load(j, err, sizeof(err)));
	json_decref(j);
	ck_assert_ptr_null(game_load(json_null(), err, sizeof(err)));
	M->destroy(g);
}
END_TEST

START_TEST(test_expert)
{
	static const int h[5] = { N, A, A, C, B };
	struct eve *g = new_game("{\"mode\": \"expert\", \"first\": 0}", 3);
	static const int row[9][2] = {
		{ N, A }, { A, C }, { A, B }, { A, I }, { C, N },
		{ B, A }, { I, C }, { N, B }, { C, I }
	};

	set_row(g, row, 9);
	set_cards(g, 0, h, 5, NULL, 0);
	g->starfleet = 0;
	play(g, "fly nebula");
	/* One space entered; the nebula then gave 1d6 dilithium. */
	ck_assert_int_ge(g->p[0].track[T_DILITHIUM], 5);
	g->current = 0;
	g->p[0].track[T_DILITHIUM] = 2;
	set_cards(g, 0, h, 5, NULL, 0);
	play(g, "fly asteroid");
	ck_assert_int_eq(g->p[0].pos, 2);	/* ran out of dilithium */
	ck_assert_int_eq(g->p[0].track[T_DILITHIUM], 0);
	ck_assert_int_le(g->p[0].track[T_SHIELD], 4);	/* asteroid */
	g->current = 0;
	set_cards(g, 0, h, 5, NULL, 0);
	refused(g, "fly asteroid", "no dilithium");
	g->p[0].track[T_DILITHIUM] = 3;
	refused(g, "fly asteroid; trade hull dilithium",
	    "class-M planet");
	play(g, "fly asteroid back");
	ck_assert_int_eq(g->p[0].pos, 1);
	/* The Klingon fight and destruction. */
	g->current = 0;
	set_cards(g, 0, h, 5, NULL, 0);
	g->kl_pos = 2;
	g->kl_route = 0;
	g->p[0].track[T_TORPEDO] = 0;
	g->p[0].track[T_SHIELD] = 0;
	g->p[0].track[T_HULL] = 1;
	refused(g, "fly asteroid", "a joker or \"fight\"");
	play(g, "fly asteroid; fight");
	ck_assert(g->p[0].destroyed);
	ck_assert(g->over);
	ck_assert_int_eq(g->winner, 1);
	M->destroy(g);
	/* No winner: both ships without dilithium. */
	g = new_game("{\"mode\": \"expert\", \"first\": 0}", 4);
	set_row(g, row, 9);
	set_cards(g, 0, h, 5, NULL, 0);
	g->p[0].track[T_DILITHIUM] = 1;
	g->p[1].track[T_DILITHIUM] = 0;
	g->starfleet = 0;
	play(g, "fly nebula; reserve asteroid");
	ck_assert(!g->over);	/* the nebula refilled dilithium */
	g->current = 0;
	g->p[0].track[T_DILITHIUM] = 0;
	play(g, "pass");	/* parked on the nebula: refuels (v2) */
	ck_assert(!g->over);
	ck_assert_int_gt(g->p[0].track[T_DILITHIUM], 0);
	g->current = 0;
	g->p[0].track[T_DILITHIUM] = 0;
	g->p[0].pos = 2;	/* an asteroid field: no refuelling */
	play(g, "pass");
	ck_assert(g->over);
	ck_assert_int_eq(g->winner, -1);
	M->destroy(g);
}
END_TEST

/*
 * Task: no refusal may depend on a travel card nobody has seen.  The
 * cards Briefing lays were hidden when the turn was written: a later
 * step that meets them is refused without naming them.
 */
START_TEST(test_briefing_no_peek)
{
	static const int h[5] = { K_BRIEFING, K_MIRROR, N, A, C };
	struct eve *g = position();
	char err1[RULES_ERRLEN], err2[RULES_ERRLEN];
	const char *text = "spock briefing extend keep; "
	    "spock mirror universe swap 1 10; fly nebula";

	set_cards(g, 0, h, 5, NULL, 0);
	try(g, 0, text, RULES_LANG_EN, err1);
	g->tdeck[g->ntdeck - 1] ^= g->tdeck[0];	/* another top card */
	g->tdeck[0] ^= g->tdeck[g->ntdeck - 1];
	g->tdeck[g->ntdeck - 1] ^= g->tdeck[0];
	try(g, 0, text, RULES_LANG_EN, err2);
	ck_assert_str_eq(err1, err2);
	refused(g, text, "only extend or trade may follow it");
	play(g, "spock briefing extend keep flip; extend");
	ck_assert_int_eq(g->nrow, 12);
	M->destroy(g);
}
END_TEST

/* Seed: a joker only for a player without the matching card (v2). */
START_TEST(test_joker_needs_no_match)
{
	static const int with[5] = { N, A, A, C, B };
	static const int without[5] = { A, A, C, B, I };
	struct eve *g = position();

	set_cards(g, 0, with, 5, NULL, 0);
	refused(g, "joker asteroid asteroid", "you hold a nebula");
	set_cards(g, 0, without, 5, (const int[]){ N }, 1);
	refused(g, "joker asteroid asteroid", "top of your reserve pile is "
	    "nebula");
	set_cards(g, 0, with, 5, NULL, 0);
	g->version = 1;		/* old games keep the old rule */
	play(g, "joker asteroid asteroid");
	ck_assert_int_eq(g->p[0].pos, 0);
	M->destroy(g);
	g = position();
	set_cards(g, 0, without, 5, NULL, 0);
	play(g, "joker asteroid asteroid");
	ck_assert_int_eq(g->p[0].pos, 0);
	M->destroy(g);
}
END_TEST

/* Expert: a ship parked on a nebula refuels (v2), not in v1. */
START_TEST(test_expert_parked)
{
	static const int row[9][2] = {
		{ N, A }, { A, C }, { A, B }, { A, I }, { C, N },
		{ B, A }, { I, C }, { N, B }, { C, I }
	};
	static const int h[5] = { N, A, A, C, B };
	struct eve *g;
	int v;

	for (v = 1; v <= 2; v++) {
		g = new_game("{\"mode\": \"expert\", \"first\": 0}", 5);
		g->version = v;
		set_row(g, row, 9);
		set_cards(g, 0, h, 5, NULL, 0);
		g->p[0].pos = 0;		/* a nebula */
		g->p[0].track[T_DILITHIUM] = 0;
		play(g, "pass");
		if (v == 1)
			ck_assert_int_eq(g->p[0].track[T_DILITHIUM], 0);
		else
			ck_assert_int_gt(g->p[0].track[T_DILITHIUM], 0);
		/* A class-M planet: trade without having flown (v2). */
		g->current = 0;
		g->p[0].pos = 4;
		set_cards(g, 0, h, 5, NULL, 0);
		if (v == 1)
			refused(g, "trade torpedoes dilithium",
			    "ends a flight on a class-M planet");
		else
			play(g, "trade torpedoes dilithium");
		M->destroy(g);
	}
}
END_TEST

/* Expert Klingon (v2): a second payment, or one payment and a fight. */
START_TEST(test_expert_klingon_choice)
{
	static const int row[9][2] = {
		{ N, A }, { A, C }, { A, B }, { A, I }, { C, N },
		{ B, A }, { I, C }, { N, B }, { C, I }
	};
	static const int h[5] = { N, A, A, C, B };
	struct eve *g = new_game("{\"mode\": \"expert\", \"first\": 0}",
	    6);
	int before[T_NTRACKS];

	set_row(g, row, 9);
	set_cards(g, 0, h, 5, NULL, 0);
	g->p[0].pos = 0;
	g->kl_pos = 1;
	g->kl_route = 0;
	refused(g, "fight", "fight follows a flight card");
	memcpy(before, g->p[0].track, sizeof(before));
	play(g, "fly asteroid; fly asteroid");	/* no dice */
	ck_assert_int_eq(g->p[0].pos, 3);
	ck_assert_int_eq(g->p[0].track[T_TORPEDO], before[T_TORPEDO]);
	ck_assert_int_eq(g->kl_pos, -1);
	M->destroy(g);
	g = new_game("{\"mode\": \"expert\", \"first\": 0}", 6);
	set_row(g, row, 9);
	set_cards(g, 0, h, 5, NULL, 0);
	g->p[0].pos = 0;
	g->kl_pos = 1;
	g->kl_route = 0;
	play(g, "fly asteroid; fight");
	ck_assert_int_eq(g->p[0].pos, 3);
	ck_assert_int_lt(g->p[0].track[T_TORPEDO], before[T_TORPEDO]);
	M->destroy(g);
	/* Version 1: one payment fights at once. */
	g = new_game("{\"mode\": \"expert\", \"first\": 0}", 6);
	g->version = 1;
	set_row(g, row, 9);
	set_cards(g, 0, h, 5, NULL, 0);
	g->p[0].pos = 0;
	g->kl_pos = 1;
	g->kl_route = 0;
	refused(g, "fly asteroid; fight", "rules version 2");
	play(g, "fly asteroid");
	ck_assert_int_eq(g->p[0].pos, 3);
	M->destroy(g);
}
END_TEST

/* Neutral Zone may discard the row's last card when it is free (v2). */
START_TEST(test_nz_last_card)
{
	static const int h[5] = { K_NEUTRAL, N, A, C, B };
	struct eve *g = position();

	g->p[0].pos = 7;
	g->p[1].pos = 2;
	set_cards(g, 0, h, 5, NULL, 0);
	refused(g, "spock neutral zone discard 9; discard nebula",
	    "stage already ended at step 1");
	play(g, "spock neutral zone discard 9");
	/* The row closed up: the Enterprise stood on the last space. */
	ck_assert_int_eq(g->last_finisher, 0);
	ck_assert_int_eq(g->p[0].score, 7 - 2);
	ck_assert_int_eq(g->stage, 2);
	M->destroy(g);
	g = position();
	g->version = 1;
	set_cards(g, 0, h, 5, NULL, 0);
	refused(g, "spock neutral zone discard 9", "last card");
	M->destroy(g);
}
END_TEST

/* The version: saved from 2 on, absent = 1, unknown versions refused;
 * version 3 adds last_turns and stage_scored, which older states lack. */
START_TEST(test_rules_version)
{
	struct eve *g = position();
	char err[RULES_ERRLEN];
	json_t *j = M->save(g);
	struct eve *back;

	ck_assert_int_eq(M->ruleset_version, EVE_RULES_VERSION);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "version")),
	    3);
	ck_assert_int_eq(json_object_size(j), 16);
	json_object_set_new(j, "version", json_integer(4));
	ck_assert_ptr_null(game_load(j, err, sizeof(err)));
	/* A version 3 state without its additions is refused; a version 2
	 * one with them too. */
	json_object_set_new(j, "version", json_integer(3));
	json_object_del(j, "stage_scored");
	ck_assert_ptr_null(game_load(j, err, sizeof(err)));
	json_object_set_new(j, "version", json_integer(2));
	ck_assert_ptr_null(game_load(j, err, sizeof(err)));
	json_object_del(j, "last_turns");
	back = game_load(j, err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	ck_assert_int_eq(back->version, 2);
	json_decref(j);
	j = M->save(back);	/* a version 2 state saves as it always did */
	ck_assert_int_eq(json_object_size(j), 14);
	ck_assert_ptr_null(json_object_get(j, "last_turns"));
	M->destroy(back);
	json_object_del(j, "version");
	back = game_load(j, err, sizeof(err));
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(back->version, 1);
	json_decref(j);
	j = M->save(back);	/* a version 1 state saves as it always did */
	ck_assert_ptr_null(json_object_get(j, "version"));
	ck_assert_int_eq(json_object_size(j), 13);
	json_decref(j);
	M->destroy(back);
	M->destroy(g);
}
END_TEST

/* The text of seat's last turn in view (NULL if none). */
static const char *
last_turn_of(json_t *view, int seat, const char *lang)
{
	char key[32];

	snprintf(key, sizeof(key), "last_turn_%s", lang);
	return json_string_value(json_object_get(json_array_get(
	    json_object_get(view, "seats"), (size_t)seat), key));
}

/* What the opponent did on its last turn: every view says it, in both
 * languages, but not the kind of a card put face down on the reserve
 * nor the reserve's new order; it survives save and load; version 2
 * games (recorded without it) show nothing. */
START_TEST(test_last_turn)
{
	static const int hand[5] = { N, A, C, I, K_BRIEFING };
	struct eve *g = position(), *back;
	char err[RULES_ERRLEN];
	json_t *v, *j;
	const char *en, *fr;

	v = M->view(g, 1);
	ck_assert_ptr_null(last_turn_of(v, 0, "en"));
	json_decref(v);
	set_cards(g, 0, hand, 5, NULL, 0);
	play(g, "fly nebula; reserve ion storm; spock briefing order ion");
	play(g, "pass");
	v = M->view(g, 1);
	en = last_turn_of(v, 0, "en");
	fr = last_turn_of(v, 0, "fr");
	ck_assert_ptr_nonnull(en);
	ck_assert_str_eq(en, "fly nebula; reserve a card face down; spock "
	    "briefing order the reserve face down");
	ck_assert_str_eq(fr, "voler nébuleuse; réserver une carte face "
	    "cachée; spock briefing ordonner la réserve face cachée");
	ck_assert_str_eq(last_turn_of(v, 1, "en"), "pass");
	ck_assert_str_eq(last_turn_of(v, 1, "fr"), "passer");
	json_decref(v);

	j = M->save(g);
	back = game_load(j, err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	json_decref(j);
	v = M->view(back, RULES_VIEW_PUBLIC);
	ck_assert_str_eq(last_turn_of(v, 0, "en"), "fly nebula; reserve a "
	    "card face down; spock briefing order the reserve face down");
	json_decref(v);
	M->destroy(back);

	g->version = 2;
	v = M->view(g, 1);
	ck_assert_ptr_null(last_turn_of(v, 0, "en"));
	json_decref(v);
	M->destroy(g);
}
END_TEST

/* When a stage ends, the views say how it was scored: the finisher's
 * distance and the Starfleet bonus, until the next stage ends. */
START_TEST(test_stage_scored)
{
	static const int hand[5] = { N, A, C, B, I };
	struct eve *g = position(), *back;
	char err[RULES_ERRLEN];
	json_t *v, *sc, *j;

	v = M->view(g, RULES_VIEW_PUBLIC);
	ck_assert(json_is_null(json_object_get(v, "stage_scored")));
	json_decref(v);
	set_cards(g, 0, hand, 5, NULL, 0);
	g->p[0].pos = 7;	/* card 9 ahead, class-M on route 0 */
	g->p[1].pos = 2;
	play(g, "starfleet nebula; fly class-m planet");
	ck_assert_int_eq(g->stage, 2);
	ck_assert_int_eq(g->p[0].score, 6 + 3);
	v = M->view(g, 1);
	sc = json_object_get(v, "stage_scored");
	ck_assert_int_eq(json_integer_value(json_object_get(sc, "stage")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(sc, "finisher")),
	    0);
	ck_assert_int_eq(json_integer_value(json_object_get(sc, "distance")),
	    6);
	ck_assert_int_eq(json_integer_value(json_object_get(sc,
	    "enterprise_starfleet")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(sc,
	    "excelsior_starfleet")), 0);
	ck_assert_str_eq(json_string_value(json_object_get(sc,
	    "bonus_ship")), "Enterprise");
	ck_assert_str_eq(json_string_value(json_object_get(sc,
	    "other_ship")), "Excelsior");
	json_decref(v);

	j = M->save(g);
	back = game_load(j, err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	ck_assert_int_eq(back->scored.distance, 6);
	M->destroy(back);
	/* Both ships on the last space (a Neutral Zone discard): the
	 * finisher scored 0 for distance, and that loads. */
	json_object_set_new(json_object_get(j, "stage_scored"), "distance",
	    json_integer(0));
	back = game_load(j, err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	M->destroy(back);
	/* A stage scored that has not ended yet is refused. */
	json_object_set_new(json_object_get(j, "stage_scored"), "stage",
	    json_integer(2));
	ck_assert_ptr_null(game_load(j, err, sizeof(err)));
	json_decref(j);
	M->destroy(g);
}
END_TEST

/*
 * parse() must not use strtok: a caller's own strtok in progress (or
 * another thread's) would lose its place.
 */
START_TEST(test_parse_reentrant)
{
	char buf[] = "alpha beta gamma", err[RULES_ERRLEN];
	struct eve *g = position();
	json_t *move = NULL;
	char *w;

	w = strtok(buf, " ");
	ck_assert_str_eq(w, "alpha");
	ck_assert_int_eq(M->parse(g, 0, "fly nebula; extend flip",
	    RULES_LANG_EN, &move, err, sizeof(err)), RULES_OK);
	json_decref(move);
	w = strtok(NULL, " ");
	ck_assert_ptr_nonnull(w);
	ck_assert_str_eq(w, "beta");
	M->destroy(g);
}
END_TEST

/*
 * If some "spock neutral zone discard N" is legal for seat now, the legal
 * moves offer one (they used to try only the first N, and offered none
 * when that one was refused).  A list cut at its cap proves nothing.
 */
static void
assert_neutral_zone_offered(struct eve *g, int seat, const json_t *moves)
{
	static const char prefix[] = "spock neutral zone discard ";
	char text[64], err[RULES_ERRLEN];
	json_t *move;
	size_t i;
	int n, legal = 0, offered = 0;

	if (json_array_size(moves) >= 50)
		return;
	for (i = 0; i < json_array_size(moves); i++)
		if (strncmp(json_string_value(json_array_get(moves, i)), prefix,
		    sizeof(prefix) - 1) == 0)
			offered = 1;
	for (n = 1; n <= g->nrow && !legal; n++) {
		snprintf(text, sizeof(text), "%s%d", prefix, n);
		move = NULL;
		legal = M->parse(g, seat, text, RULES_LANG_EN, &move, err,
		    sizeof(err)) == RULES_OK && M->check(g, seat, move,
		    RULES_LANG_EN, err, sizeof(err)) == RULES_OK;
		json_decref(move);
	}
	ck_assert_msg(!legal || offered, "\"%s\" is legal but no Neutral "
	    "Zone discard is offered", text);
}

/*
 * Random play: legal moves only, invariants after every turn, replay.
 */
static int
random_game(const char *opts, uint64_t seed, int checks, char **final,
    int *turns)
{
	struct eve *g = new_game(opts, seed);
	struct rules_rng rng;
	char err[RULES_ERRLEN];
	int n, seats[2];
	json_t *moves, *move;

	for (n = 1; M->to_act(g, seats, 2) > 0; n++) {
		uint32_t pick;
		size_t k;

		ck_assert_msg(n < 3000, "game %llu does not end",
		    (unsigned long long)seed);
		moves = M->legal_moves(g, seats[0]);
		ck_assert_uint_gt(json_array_size(moves), 0);
		assert_neutral_zone_offered(g, seats[0], moves);
		move = M->legal_moves(g, 1 - seats[0]);
		ck_assert_uint_eq(json_array_size(move), 0);
		json_decref(move);
		rulestest_rng(&rng, seed, 1000000 + (uint64_t)n);
		/* Prefer the first (furthest) turns 3 times in 4. */
		k = json_array_size(moves);
		pick = rules_rng_below(&rng, 4) ? rules_rng_below(&rng,
		    (uint32_t)(k < 4 ? k : 4)) : rules_rng_below(&rng,
		    (uint32_t)k);
		move = NULL;
		ck_assert_int_eq(M->parse(g, seats[0], json_string_value(
		    json_array_get(moves, pick)), RULES_LANG_EN, &move, err,
		    sizeof(err)), RULES_OK);
		ck_assert_msg(M->check(g, seats[0], move, RULES_LANG_EN, err,
		    sizeof(err)) == RULES_OK, "%s", err);
		rulestest_rng(&rng, seed, (uint64_t)n);
		M->apply(g, seats[0], move, &rng);
		json_decref(move);
		json_decref(moves);
		ck_assert(eve_conserved(g));
		if (checks) {
			char *a = dump(g), *b;
			json_t *j = M->save(g);
			void *copy = game_load(j, err, sizeof(err));

			ck_assert_msg(copy != NULL, "%s", err);
			b = dump(copy);
			ck_assert_str_eq(a, b);
			free(a);
			free(b);
			M->destroy(copy);
			json_decref(j);
			check_views(g);
		}
	}
	*turns = n;
	*final = dump(g);
	n = g->winner;
	M->destroy(g);
	return n;
}

#define GAMES	2000

static void
random_mode(const char *opts, const char *label)
{
	char *first, *again;
	int g, turns, turns2, won[3] = { 0 }, w;
	long total = 0;

	for (g = 0; g < GAMES; g++) {
		w = random_game(opts, (uint64_t)g + 7, g < 20, &first, &turns);
		won[w + 1]++;
		total += turns;
		if (g % 100 == 0) {	/* replay reaches the same state */
			random_game(opts, (uint64_t)g + 7, 0, &again, &turns2);
			ck_assert_str_eq(first, again);
			free(again);
		}
		free(first);
	}
	fprintf(stderr, "%s: %d games, %ld turns, wins %d/%d, no winner "
	    "%d\n", label, GAMES, total, won[1], won[2], won[0]);
	if (strcmp(label, "base") == 0)
		ck_assert_int_eq(won[0], 0);
}

START_TEST(test_random_base)
{
	random_mode("{}", "base");
}
END_TEST

START_TEST(test_random_expert)
{
	random_mode("{\"mode\": \"expert\"}", "expert");
}
END_TEST

/*
 * The differential no-peek test.  Two states that differ only in what
 * seat cannot see must give seat byte-identical answers.
 *
 * What seat cannot see (docs/eve.md, "Hidden information"): the order of
 * the travel deck, the order of its own deck, and which of the
 * opponent's cards lie in its hand, its reserve pile (and in what order)
 * or its deck -- only their sizes are public, and the set of those cards
 * is the opponent's 33 less its public discard and Starfleet piles.
 * hide_shuffle() rearranges exactly that and nothing else.
 */
static void
hide_shuffle(struct eve *g, int seat, struct rules_rng *rng)
{
	struct eve_player *me = &g->p[seat], *op = &g->p[1 - seat];
	int pool[EVE_DECK], n = 0, i;

	rules_rng_shuffle(rng, g->tdeck, (size_t)g->ntdeck);
	rules_rng_shuffle(rng, me->deck, (size_t)me->ndeck);
	for (i = 0; i < op->nhand; i++)
		pool[n++] = op->hand[i];
	for (i = 0; i < op->nreserve; i++)
		pool[n++] = op->reserve[i];
	for (i = 0; i < op->ndeck; i++)
		pool[n++] = op->deck[i];
	rules_rng_shuffle(rng, pool, (size_t)n);
	n = 0;
	for (i = 0; i < op->nhand; i++)
		op->hand[i] = pool[n++];
	for (i = 0; i < op->nreserve; i++)
		op->reserve[i] = pool[n++];
	for (i = 0; i < op->ndeck; i++)
		op->deck[i] = pool[n++];
	ck_assert(eve_conserved(g));
}

/* Put card into seat's hand slot, swapping it with wherever it is among
 * the seat's own piles (so more positions hold Briefing and Mirror). */
static void
to_hand(struct eve_player *pl, int card, int slot)
{
	int *piles[4] = { pl->deck, pl->reserve, pl->discard, pl->hand };
	int sizes[4] = { pl->ndeck, pl->nreserve, pl->ndiscard, pl->nhand };
	int p, i, tmp;

	if (slot >= pl->nhand)
		return;
	for (p = 0; p < 4; p++)
		for (i = 0; i < sizes[p]; i++)
			if (piles[p][i] == card) {
				tmp = pl->hand[slot];
				pl->hand[slot] = card;
				piles[p][i] = tmp;
				return;
			}
}

/* A turn text from the step words, aimed at the row's end. */
static void
random_text(const struct eve *g, int seat, struct rules_rng *rng, char *buf,
    size_t len)
{
	static const char *const kinds[] = { "nebula", "asteroid",
	    "class-m", "black hole", "ion storm", "briefing", "retreat",
	    "neutral zone", "mirror universe" };
	int nsteps = 1 + (int)rules_rng_below(rng, 4), i;
	int far = g->nrow + 1, mine = g->p[seat].pos + 2;

	buf[0] = '\0';
	if (rules_rng_below(rng, 3) == 0) {	/* the reported leak */
		snprintf(buf, len, "spock briefing extend keep; spock mirror "
		    "universe swap %d %d; fly %s", mine, far,
		    kinds[rules_rng_below(rng, 5)]);
		return;
	}
	for (i = 0; i < nsteps; i++) {
		char st[96];
		const char *k = kinds[rules_rng_below(rng, 5)];
		int a = 1 + (int)rules_rng_below(rng, (uint32_t)g->nrow + 2);

		switch (rules_rng_below(rng, 13)) {
		case 0: snprintf(st, sizeof(st), "spock briefing extend %s",
		    rules_rng_below(rng, 2) ? "keep" : "flip keep"); break;
		case 1: snprintf(st, sizeof(st), "spock mirror universe swap "
		    "%d %d", a, far); break;
		case 2: snprintf(st, sizeof(st), "spock mirror universe turn "
		    "%d", a); break;
		case 3: snprintf(st, sizeof(st), "fly %s%s", k,
		    rules_rng_below(rng, 4) ? "" : " back"); break;
		case 4: snprintf(st, sizeof(st), "joker %s %s", k, k); break;
		case 5: snprintf(st, sizeof(st), "spock neutral zone discard "
		    "%d", a); break;
		case 6: snprintf(st, sizeof(st), "spock neutral zone klingon "
		    "%d", a); break;
		case 7: snprintf(st, sizeof(st), "spock retreat %s",
		    rules_rng_below(rng, 2) ? "forward" : "back"); break;
		case 8: snprintf(st, sizeof(st), "extend"); break;
		case 9: snprintf(st, sizeof(st), "fight"); break;
		case 10: snprintf(st, sizeof(st), "%s %s",
		    rules_rng_below(rng, 2) ? "reserve" : "starfleet",
		    kinds[rules_rng_below(rng, 9)]); break;
		case 11: snprintf(st, sizeof(st), "spock briefing from reserve "
		    "extend"); break;
		default: snprintf(st, sizeof(st), "trade hull dilithium");
		}
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
		    i ? "; " : "", st);
	}
}

static void
same_json(json_t *a, json_t *b, const char *what, int pos)
{
	char *x = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS);
	char *y = json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS);

	ck_assert_msg(strcmp(x, y) == 0, "position %d: %s differs with "
	    "hidden cards moved:\n%s\n%s", pos, what, x, y);
	free(x);
	free(y);
	json_decref(a);
	json_decref(b);
}

static void
same_answer(struct eve *g1, struct eve *g2, int seat, const char *text,
    int pos)
{
	char e1[RULES_ERRLEN], e2[RULES_ERRLEN];
	enum rules_lang lang;
	enum rules_status r1, r2;

	for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
		e1[0] = e2[0] = '\0';
		r1 = try(g1, seat, text, lang, e1);
		r2 = try(g2, seat, text, lang, e2);
		ck_assert_msg(r1 == r2 && strcmp(e1, e2) == 0, "position %d, "
		    "\"%s\": the answer depends on hidden cards:\n%d %s\n"
		    "%d %s", pos, text, r1, e1, r2, e2);
	}
}

#define NOPEEK_POSITIONS	200

/* describe_last is public: each seat's last turn reads the same,
 * status and words, whatever the other seat cannot see. */
static void
same_descriptions(const struct eve *g1, const struct eve *g2, int pos)
{
	static const char *const names[] = { "alice", "bruno" };
	char a[RULES_ERRLEN], b[RULES_ERRLEN];
	enum rules_status r1, r2;
	enum rules_lang lang;
	int s;

	for (s = 0; s < 2; s++)
		for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
			a[0] = b[0] = '\0';
			r1 = M->describe_last(g1, s, names, lang, a, sizeof(a));
			r2 = M->describe_last(g2, s, names, lang, b, sizeof(b));
			ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "position "
			    "%d: seat %d's last turn reads \"%s\" / \"%s\"",
			    pos, s, a, b);
		}
}

START_TEST(test_no_peek_differential)
{
	struct rules_rng rng;
	int pos;

	for (pos = 0; pos < NOPEEK_POSITIONS; pos++) {
		struct eve *g = new_game(pos % 2 ? "{\"mode\": \"expert\"}" :
		    "{}", 5000 + (uint64_t)pos), g1, g2;
		int turns, n, seat, seats[2];
		json_t *a, *b;
		size_t i;
		char text[400];

		/* A random position: up to 40 turns of random legal play. */
		rulestest_rng(&rng, 5000 + (uint64_t)pos, 77);
		turns = (int)rules_rng_below(&rng, 40);
		for (n = 0; n < turns && M->to_act(g, seats, 2) > 0; n++) {
			struct rules_rng r2;
			json_t *moves = M->legal_moves(g, seats[0]), *move;

			move = NULL;
			ck_assert_int_eq(M->parse(g, seats[0], json_string_value(
			    json_array_get(moves, rules_rng_below(&rng,
			    (uint32_t)json_array_size(moves)))), RULES_LANG_EN,
			    &move, text, sizeof(text)), RULES_OK);
			rulestest_rng(&r2, 5000 + (uint64_t)pos, 100 + (uint64_t)n);
			M->apply(g, seats[0], move, &r2);
			json_decref(move);
			json_decref(moves);
		}
		seat = rules_rng_below(&rng, 4) ? g->current : 1 - g->current;
		if (rules_rng_below(&rng, 2)) {
			to_hand(&g->p[seat], 25, 0);	/* Briefing */
			to_hand(&g->p[seat], 30, 1);	/* Mirror Universe */
		}
		ck_assert(eve_conserved(g));
		g1 = *g;
		g2 = *g;
		hide_shuffle(&g2, seat, &rng);
		same_json(M->view(&g1, seat), M->view(&g2, seat), "view", pos);
		same_json(M->move_forms(&g1, seat, RULES_LANG_EN),
		    M->move_forms(&g2, seat, RULES_LANG_EN), "move forms", pos);
		same_json(M->move_forms(&g1, seat, RULES_LANG_FR),
		    M->move_forms(&g2, seat, RULES_LANG_FR), "move forms", pos);
		a = M->legal_moves(&g1, seat);
		b = M->legal_moves(&g2, seat);
		for (i = 0; i < json_array_size(a); i++)
			same_answer(&g1, &g2, seat, json_string_value(
			    json_array_get(a, i)), pos);
		for (i = 0; i < json_array_size(b); i++)
			same_answer(&g1, &g2, seat, json_string_value(
			    json_array_get(b, i)), pos);
		same_json(a, b, "legal moves", pos);
		for (n = 0; n < 40; n++) {
			random_text(&g1, seat, &rng, text, sizeof(text));
			same_answer(&g1, &g2, seat, text, pos);
		}
		same_descriptions(&g1, &g2, pos);
		M->destroy(g);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("eve");
	TCase *tc = tcase_create("rules");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_setup);
	tcase_add_test(tc, test_fly_and_runs);
	tcase_add_test(tc, test_klingon_in_run);
	tcase_add_test(tc, test_klingon_payments);
	tcase_add_test(tc, test_joker_hand_reserve);
	tcase_add_test(tc, test_limits_reserve_starfleet);
	tcase_add_test(tc, test_spock);
	tcase_add_test(tc, test_extend_refill);
	tcase_add_test(tc, test_stage_end_mid_turn);
	tcase_add_test(tc, test_tie_rule);
	tcase_add_test(tc, test_parse_fr);
	tcase_add_test(tc, test_did_you_mean);
	tcase_add_test(tc, test_save_load);
	tcase_add_test(tc, test_move_forms);
	tcase_add_test(tc, test_expert);
	tcase_add_test(tc, test_briefing_no_peek);
	tcase_add_test(tc, test_joker_needs_no_match);
	tcase_add_test(tc, test_expert_parked);
	tcase_add_test(tc, test_expert_klingon_choice);
	tcase_add_test(tc, test_nz_last_card);
	tcase_add_test(tc, test_rules_version);
	tcase_add_test(tc, test_last_turn);
	tcase_add_test(tc, test_stage_scored);
	tcase_add_test(tc, test_parse_reentrant);
	tcase_add_test(tc, test_random_base);
	tcase_add_test(tc, test_random_expert);
	suite_add_tcase(s, tc);
	tc = tcase_create("nopeek");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_no_peek_differential);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
