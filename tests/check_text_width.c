/*
 * check_text_width.c -- every game's text views fit 78 columns.  For
 * each registered game (rules_all()), at each seat count it takes and
 * in each variant below, seeded random games are played in memory; at
 * every step every text template a player can receive (your_turn,
 * help, rejected, accepted, waiting, spectator, game_over) is rendered
 * in English and in French for every seat and for the public, with the
 * players' names, deadlines in a named time zone and both ways of
 * playing (signing, or answering the mail in plain words).  No line of
 * any of them, nor of the mail text made from them (mail_wrap()), may be
 * wider than 78 columns (characters, not bytes); a failure names the
 * game, template, language, viewer and step, and shows the line.
 *
 * TEXT_GAMES games are played per run, fewer when PBEM_RANDOM_GAMES is
 * smaller; once a run has rendered TEXT_STEPS steps it finishes the game
 * it is in rendering one step in SAMPLE_EVERY and the end, and plays no
 * more (a game of long turns costs little more than a short one).  Star
 * Trek: Captain's Chair has its own test of every phase
 * (check_captains_text.c) and is not played here.
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

#define TEXT_GAMES	3
#define TEXT_STEPS	100
#define SAMPLE_EVERY	50
#define MAX_STEPS	5000
#define MAX_SEATS	8

/* Players' names of five characters, one accented (longer names, or a
 * long time zone, can still push a deadline's line past 78 columns). */
static const char *const seat_names[MAX_SEATS] = {
	"alice", "chloé", "bruno", "denis", "émile", "fatou", "gaëlle",
	"henri"
};

/* Options other than the default a game is also played with. */
struct variant {
	const char	*ruleset;
	int		 nseats;
	const char	*options;
};

static const struct variant variants[] = {
	{ "eve", 2, "{\"mode\": \"expert\"}" },
};

/* Games whose own test plays every phase to the same rule. */
static const char *const own_test[] = {
	"captains",	/* tests/check_captains_text.c */
};

/* One run: a module, a seat count, options. */
struct run {
	const struct rules_module	*m;
	int				 nseats;
	const char			*options;
};

#define MAX_RUNS 64
static struct run	runs[MAX_RUNS];
static int		nruns;

struct game {
	const struct rules_module	*m;
	void				*state;
	unsigned char			 seed[RNG_SEED_BYTES];
	int				 nseats;
	int				 seq;
};

static struct tpl_set	*tpl;

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

	snprintf(what, sizeof(what), "%s, %s/%s/%s, %d seats, %s %d, step "
	    "%d%s", g->m->name, lang ? "fr" : "en", g->m->name, name,
	    g->nseats, viewer >= 0 ? "seat" : "public", viewer >= 0 ? viewer :
	    0, g->seq, hosted ? ", hosted" : "");
	page.what = what;
	textwidth_render(&page);
}

/* The module's sample refused move for seat and its refusal in lang;
 * 0 when the module has none now. */
static int
refusal(const struct game *g, int seat, int lang, char *bad, size_t badlen,
    char *reason, size_t reasonlen)
{
	json_t *move = NULL;

	if (g->m->sample_illegal_move == NULL || g->m->sample_illegal_move(
	    g->state, seat, bad, badlen) != RULES_OK)
		return 0;
	reason[0] = '\0';
	if (g->m->parse(g->state, seat, bad, (enum rules_lang)lang, &move,
	    reason, reasonlen) == RULES_OK)
		ck_assert_int_ne(g->m->check(g->state, seat, move,
		    (enum rules_lang)lang, reason, reasonlen), RULES_OK);
	json_decref(move);
	/* A refusal always says why. */
	ck_assert_msg(reason[0] != '\0', "%s: the sample illegal move \"%s\" "
	    "of seat %d is refused with no reason", g->m->name, bad, seat);
	return 1;
}

static int
is_acting(const int *acting, int nacting, int seat)
{
	int i;

	for (i = 0; i < nacting; i++)
		if (acting[i] == seat)
			return 1;
	return 0;
}

/* What each seat and the public read now: a seat to act its turn, its
 * help and a refusal of the module's sample illegal move; the others
 * their waiting view; spectators theirs; everyone the end. */
static void
render_all(const struct game *g, const int *acting, int nacting)
{
	char	bad[512], reason[RULES_ERRLEN];
	int	viewer, lang;

	for (lang = 0; lang < 2; lang++) {
		render_one(g, RULES_VIEW_PUBLIC, lang, 0, nacting == 0 ?
		    "game_over" : "spectator", NULL, NULL);
		for (viewer = 0; viewer < g->nseats; viewer++) {
			if (nacting == 0) {
				render_one(g, viewer, lang, 0, "game_over",
				    NULL, NULL);
				continue;
			}
			if (!is_acting(acting, nacting, viewer)) {
				render_one(g, viewer, lang, 0, "waiting", NULL,
				    NULL);
				continue;
			}
			render_one(g, viewer, lang, lang, "your_turn", NULL,
			    NULL);
			render_one(g, viewer, lang, !lang, "help", NULL, NULL);
			if (refusal(g, viewer, lang, bad, sizeof(bad), reason,
			    sizeof(reason)))
				render_one(g, viewer, lang, lang, "rejected",
				    bad, reason);
		}
	}
}

/* One whole game of a run, rendered at every step (the mover reads its
 * accepted move) until the run has rendered TEXT_STEPS steps (done),
 * then at one step in SAMPLE_EVERY and at the end; the steps it took. */
static int
play_game(const struct run *r, uint64_t n, int done)
{
	struct rules_rng	 rng;
	struct game		 g;
	json_t			*opts, *legal, *move;
	char			 err[RULES_ERRLEN], text[1024];
	int			 acting[MAX_SEATS], nacting, seat, lang;
	int			 render = 1;

	memset(&g, 0, sizeof(g));
	g.m = r->m;
	g.nseats = r->nseats;
	memcpy(g.seed, &n, sizeof(n));
	g.seed[31] = 0x80;
	opts = json_loads(r->options != NULL ? r->options : "{}", 0, NULL);
	ck_assert_ptr_nonnull(opts);
	rng_init(&rng, g.seed, 0);
	g.state = testcards_setup(g.m, g.nseats, opts, &rng, err,
	    sizeof(err));
	ck_assert_msg(g.state != NULL, "%s: %s", g.m->name, err);
	json_decref(opts);
	for (;;) {
		nacting = g.m->to_act(g.state, acting, MAX_SEATS);
		render = done + g.seq < TEXT_STEPS || g.seq % SAMPLE_EVERY ==
		    0 || nacting <= 0;
		if (render)
			render_all(&g, acting, nacting);
		if (nacting <= 0)
			break;
		ck_assert_msg(g.seq < MAX_STEPS, "%s: no end", g.m->name);
		rng_init(&rng, g.seed, 1000000 + (uint64_t)g.seq);
		seat = acting[rules_rng_below(&rng, (uint32_t)nacting)];
		legal = g.m->legal_moves(g.state, seat);
		ck_assert_int_gt(json_array_size(legal), 0);
		snprintf(text, sizeof(text), "%s", json_string_value(
		    json_array_get(legal, rules_rng_below(&rng,
		    (uint32_t)json_array_size(legal)))));
		json_decref(legal);
		move = NULL;
		ck_assert_msg(g.m->parse(g.state, seat, text, RULES_LANG_EN,
		    &move, err, sizeof(err)) == RULES_OK && g.m->check(g.state,
		    seat, move, RULES_LANG_EN, err, sizeof(err)) == RULES_OK,
		    "%s: %s: %s", g.m->name, text, err);
		g.seq++;
		rng_init(&rng, g.seed, (uint64_t)g.seq);
		g.m->apply(g.state, seat, move, &rng);
		json_decref(move);
		for (lang = 0; lang < 2 && render; lang++)
			render_one(&g, seat, lang, lang, "accepted", text,
			    NULL);
	}
	g.m->destroy(g.state);
	return g.seq;
}

/* Every registered module at every seat count, then the variants. */
static void
list_runs(void)
{
	const struct rules_module *const *m;
	size_t v;
	int nseats;

	for (m = rules_all(); *m != NULL; m++) {
		for (v = 0; v < sizeof(own_test) / sizeof(own_test[0]); v++)
			if (strcmp(own_test[v], (*m)->name) == 0)
				break;
		if (v < sizeof(own_test) / sizeof(own_test[0]))
			continue;
		for (nseats = (*m)->min_seats; nseats <= (*m)->max_seats &&
		    nseats <= MAX_SEATS && nruns < MAX_RUNS; nseats++)
			runs[nruns++] = (struct run){ *m, nseats, NULL };
		for (v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
			if (strcmp(variants[v].ruleset, (*m)->name) == 0 &&
			    nruns < MAX_RUNS)
				runs[nruns++] = (struct run){ *m,
				    variants[v].nseats, variants[v].options };
	}
}

static int
games_per_run(void)
{
	const char *env = getenv("PBEM_RANDOM_GAMES");

	if (env != NULL && atoi(env) > 0 && atoi(env) < TEXT_GAMES)
		return atoi(env);
	return TEXT_GAMES;
}

START_TEST(every_view_fits_78_columns)
{
	const struct run *r = &runs[_i];
	int	 g, games = games_per_run(), steps = 0;

	for (g = 0; g < games && steps < TEXT_STEPS; g++)
		steps += play_game(r, 0x7e47ULL + (uint64_t)g * 7919 +
		    ((uint64_t)_i << 24), steps);
	printf("text width: %d %d-seat games of %s%s%s, %d steps, every line "
	    "within %d columns\n", g, r->nseats, r->m->name, r->options ?
	    " " : "", r->options ? r->options : "", steps, TEXT_COLUMNS);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("text_width");
	TCase	*tc = tcase_create("text");
	SRunner	*sr;
	char	 dir[4096], err[1024];
	const char *top = getenv("top_srcdir");
	int	 failed;

	snprintf(dir, sizeof(dir), "%s/templates", top != NULL && *top !=
	    '\0' ? top : ".");
	tpl = templates_load(dir, err, sizeof(err));
	if (tpl == NULL) {
		fprintf(stderr, "%s\n", err);
		return EXIT_FAILURE;
	}
	list_runs();
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, every_view_fits_78_columns, 0, nruns);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	templates_free(tpl);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
