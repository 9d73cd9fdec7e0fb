/*
 * check_captains_text.c -- Star Trek: Captain's Chair as a player reads
 * it: every text template (your_turn, waiting, accepted, rejected, help,
 * spectator, game_over), in English and French, rendered at every step of
 * whole games of each mode (two players, against the Bot, cadet
 * training) for each seat and for spectators, with the players' names,
 * deadlines in a named time zone and both ways of playing (signing, or
 * answering the mail in plain words).  No line of any of them, nor of the
 * mail text made from them (mail_wrap()), is wider than 78 columns
 * (characters, not bytes).  The games must go through every phase a
 * player meets: set-up, control, action, an attack's answer, a SCAN's
 * pick, a completed mission, the last turns, both ends (STARDATE and
 * BURN), and a refused move; the test fails if one was never seen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <jansson.h>

#include "rng.h"
#include "rules.h"
#include "templates.h"
#include "testcards.h"
#include "textwidth.h"

#define GAMES_PER_MODE	2
#define MAX_STEPS	3000
#define BURN_SEARCH	3000	/* games played unseen to find a BURN */

static const char *const seat_names[] = { "alice", "chloé" };

/* The phases a player meets; each must be seen once at least. */
enum phase {
	PH_SETUP, PH_CONTROL, PH_ACTION, PH_ANSWER, PH_SCAN, PH_MISSION,
	PH_FINAL, PH_END_STARDATE, PH_END_BURN, PH_REFUSED, PH_BOT, PH_CADET,
	PH_COUNT
};
static const char *const phase_name[PH_COUNT] = {
	"set-up", "control step", "action step", "an attack's answer",
	"a SCAN's pick", "a completed mission", "the last turns",
	"the end by STARDATE", "the end by BURN", "a refused move",
	"against the Bot", "cadet training"
};

struct game {
	const struct rules_module	*m;
	void				*state;
	unsigned char			 seed[RNG_SEED_BYTES];
	int				 nseats;
	int				 seq;
};

static struct tpl_set	*tpl;
static int		 seen[PH_COUNT];

/* Render one template for viewer in lang, signing or hosted, and check
 * it and its mail text. */
static void
render_one(const struct game *g, int viewer, int lang, int hosted,
    const char *name, const char *move, const char *reason)
{
	struct textwidth_page	page = {
		.tpl = tpl, .m = g->m, .state = g->state, .nseats = g->nseats,
		.seq = g->seq, .seat_names = seat_names, .viewer = viewer,
		.lang = lang, .hosted = hosted, .name = name, .move = move,
		.reason = reason
	};
	char			what[256];

	snprintf(what, sizeof(what), "%s/captains/%s, seat %d, move %d%s",
	    lang ? "fr" : "en", name, viewer, g->seq, hosted ? ", hosted" :
	    "");
	page.what = what;
	textwidth_render(&page);
}

/* What each seat and the public read now: the seat to act its turn, its
 * help and a refusal of the module's sample illegal move; the others
 * their waiting view; spectators theirs; everyone the end. */
static void
render_all(const struct game *g, int acting)
{
	char	 bad[512], en[RULES_ERRLEN], fr[RULES_ERRLEN];
	json_t	*move;
	int	 viewer, lang;

	for (lang = 0; lang < 2; lang++) {
		render_one(g, RULES_VIEW_PUBLIC, lang, 0, acting < 0 ?
		    "game_over" : "spectator", NULL, NULL);
		for (viewer = 0; viewer < g->nseats; viewer++) {
			if (acting < 0) {
				render_one(g, viewer, lang, 0, "game_over",
				    NULL, NULL);
				continue;
			}
			if (viewer != acting) {
				render_one(g, viewer, lang, 0, "waiting", NULL,
				    NULL);
				continue;
			}
			render_one(g, viewer, lang, lang, "your_turn", NULL,
			    NULL);
			render_one(g, viewer, lang, 0, "help", NULL, NULL);
			if (g->m->sample_illegal_move(g->state, viewer, bad,
			    sizeof(bad)) != RULES_OK)
				continue;
			move = NULL;
			if (g->m->parse(g->state, viewer, bad, RULES_LANG_EN,
			    &move, en, sizeof(en)) == RULES_OK)
				(void)g->m->check(g->state, viewer, move,
				    RULES_LANG_EN, en, sizeof(en));
			json_decref(move);
			move = NULL;
			if (g->m->parse(g->state, viewer, bad, RULES_LANG_FR,
			    &move, fr, sizeof(fr)) == RULES_OK)
				(void)g->m->check(g->state, viewer, move,
				    RULES_LANG_FR, fr, sizeof(fr));
			json_decref(move);
			render_one(g, viewer, lang, lang, "rejected", bad,
			    lang ? fr : en);
			seen[PH_REFUSED] = 1;
		}
	}
}

/* Note the phases the view at this point shows. */
static void
note_phases(const struct game *g)
{
	json_t		*v = g->m->view(g->state, RULES_VIEW_PUBLIC), *s;
	const char	*phase = json_string_value(json_object_get(v, "phase"));
	size_t		 i;

	if (g->seq == 0)
		seen[PH_SETUP] = 1;
	if (strcmp(phase, "control") == 0)
		seen[PH_CONTROL] = 1;
	if (strcmp(phase, "action") == 0)
		seen[PH_ACTION] = 1;
	if (strcmp(phase, "answer") == 0)
		seen[PH_ANSWER] = 1;
	if (json_object_get(v, "scan") != NULL)
		seen[PH_SCAN] = 1;
	if (json_is_true(json_object_get(json_object_get(v, "stardate"),
	    "final")))
		seen[PH_FINAL] = 1;
	json_array_foreach(json_object_get(v, "seats"), i, s)
		if (json_integer_value(json_object_get(s,
		    "mission_tokens")) > 0)
			seen[PH_MISSION] = 1;
	if (json_is_true(json_object_get(v, "over")))
		seen[json_is_true(json_object_get(v, "burn")) ?
		    PH_END_BURN : PH_END_STARDATE] = 1;
	json_decref(v);
}

static int
acting_seat(const struct game *g)
{
	int seats[4];

	return g->m->to_act(g->state, seats, 4) > 0 ? seats[0] : -1;
}

/* One whole game of a mode, rendered at every step when render is set
 * (the mover reads its accepted move); whether it ended by BURN. */
static int
play_game(int nseats, const char *options, uint64_t n, int render)
{
	struct rules_rng	 rng;
	struct game		 g;
	json_t			*opts, *legal, *move;
	char			 err[RULES_ERRLEN], text[1024];
	int			 seat, lang, burn;

	memset(&g, 0, sizeof(g));
	g.m = rules_find("captains");
	ck_assert_ptr_nonnull(g.m);
	g.nseats = nseats;
	memcpy(g.seed, &n, sizeof(n));
	g.seed[31] = 0x3c;
	opts = json_loads(options, 0, NULL);
	ck_assert_ptr_nonnull(opts);
	rng_init(&rng, g.seed, 0);
	g.state = testcards_setup(g.m, nseats, opts, &rng, err, sizeof(err));
	ck_assert_msg(g.state != NULL, "%s", err);
	json_decref(opts);
	for (;;) {
		seat = acting_seat(&g);
		if (render) {
			note_phases(&g);
			render_all(&g, seat);
		}
		if (seat < 0)
			break;
		ck_assert_int_lt(g.seq, MAX_STEPS);
		legal = g.m->legal_moves(g.state, seat);
		ck_assert_int_gt(json_array_size(legal), 0);
		rng_init(&rng, g.seed, 1000000 + (uint64_t)g.seq);
		snprintf(text, sizeof(text), "%s", json_string_value(
		    json_array_get(legal, rules_rng_below(&rng,
		    (uint32_t)json_array_size(legal)))));
		json_decref(legal);
		move = NULL;
		ck_assert_msg(g.m->parse(g.state, seat, text, RULES_LANG_EN,
		    &move, err, sizeof(err)) == RULES_OK && g.m->check(g.state,
		    seat, move, RULES_LANG_EN, err, sizeof(err)) == RULES_OK,
		    "%s: %s", text, err);
		g.seq++;
		rng_init(&rng, g.seed, (uint64_t)g.seq);
		g.m->apply(g.state, seat, move, &rng);
		json_decref(move);
		for (lang = 0; lang < 2 && render; lang++)
			render_one(&g, seat, lang, lang, "accepted", text,
			    NULL);
	}
	move = g.m->result(g.state);
	burn = strcmp(json_string_value(json_object_get(move, "end")),
	    "burn") == 0;
	json_decref(move);
	g.m->destroy(g.state);
	return burn;
}

START_TEST(every_phase_fits_78_columns)
{
	char	 dir[4096], err[1024];
	const char *top = getenv("top_srcdir");
	uint64_t n;
	int	 p;

	snprintf(dir, sizeof(dir), "%s/templates", top != NULL && *top !=
	    '\0' ? top : ".");
	tpl = templates_load(dir, err, sizeof(err));
	ck_assert_msg(tpl != NULL, "%s", err);
	for (n = 1; n <= GAMES_PER_MODE; n++) {
		play_game(2, "{}", n, 1);
		play_game(2, "{\"bot_seats\": {\"1\": \"normal\"}}", 100 + n,
		    1);
		seen[PH_BOT] = 1;
		play_game(1, "{}", 200 + n, 1);
		seen[PH_CADET] = 1;
	}
	/* A BURN is rare in random play: the first game that ends so. */
	for (n = 1000; n < 1000 + BURN_SEARCH; n++)
		if (play_game(2, "{}", n, 0)) {
			play_game(2, "{}", n, 1);
			break;
		}
	for (p = 0; p < PH_COUNT; p++)
		ck_assert_msg(seen[p], "no game went through %s: play more "
		    "games or other seeds", phase_name[p]);
	templates_free(tpl);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("captains_text");
	TCase *tc = tcase_create("text");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, every_phase_fits_78_columns);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
