/*
 * check_nopeek.c -- the differential no-peek test (issue 14, item 3) of
 * every registered rule module: the list is rules_all(), and each game's
 * knowledge of its own hidden information is its hider,
 * rules/GAME/nopeek.c (rules/nopeek.h), listed by rules/gen-games.sh.  A
 * registered module without a hider fails here.  (Enterprise vs
 * Excelsior also has a test of its own, on its structures, in
 * check_eve.c.)
 *
 * For random positions of random legal play, and a random seat: the
 * state is saved, and a copy of the saved JSON is changed in what that
 * seat cannot see only (the hider's hide(): which hidden card lies where,
 * the order of the decks, other seats' sealed answers).  Both are loaded
 * back, and the seat must get byte-identical answers from both: its
 * view, its move forms in English and French, its legal moves, its
 * default move, the normal bot's move (drawn from the same bot stream;
 * docs/SERVER-BOTS.md), its sample illegal move and skip check, the public
 * description of every seat's last move (describe_last, the summaries of
 * events and webhooks), and -- for every text tried (the legal moves of
 * either state, the sample illegal move, and the hider's random texts)
 * -- the status and the message of parse and check, and translate's and
 * move_label's answers, in both languages.
 *
 * Cards become known to everyone when they show (the discard area, a
 * played pile): those stay where they are, so the pair differs only in
 * what the seat could not know.  A rearrangement that changes who is to
 * act (public: the game's status says it) is drawn again.
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
#include "nopeek.h"
#include "testcards.h"

#define POSITIONS	150	/* random positions per module */
#define MAX_PLIES	5000	/* longer than any game */
#define RANDOM_TEXTS	40	/* random texts tried per position */
#define HIDE_TRIES	20	/* rearrangements drawn before giving up */

/* The note() of the module under test (for play()). */
static void (*h_note)(const json_t *, struct nopeek_known *);

/* ---- The comparison ------------------------------------------------------ */

static void
same_json(json_t *a, json_t *b, const char *what, const char *where)
{
	char *x = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS);
	char *y = json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS);

	ck_assert_msg(x != NULL && y != NULL && strcmp(x, y) == 0,
	    "%s: %s differs with hidden cards moved:\n%s\n%s", where, what,
	    x ? x : "(null)", y ? y : "(null)");
	free(x);
	free(y);
	json_decref(a);
	json_decref(b);
}

/* parse then check, as the core does with a move text. */
static enum rules_status
try_text(const struct rules_module *m, const void *st, int seat,
    const char *text, enum rules_lang lang, char *err)
{
	json_t *move = NULL;
	enum rules_status rs;

	err[0] = '\0';
	rs = m->parse(st, seat, text, lang, &move, err, RULES_ERRLEN);
	if (rs != RULES_OK)
		return rs;
	rs = m->check(st, seat, move, lang, err, RULES_ERRLEN);
	json_decref(move);
	return rs;
}

/* Every answer to text the seat may get, from both states. */
static void
same_answers(const struct rules_module *m, const void *g1, const void *g2,
    int seat, const char *text, const char *where)
{
	char		 a[RULES_ERRLEN], b[RULES_ERRLEN];
	enum rules_lang	 lang;
	enum rules_status r1, r2;

	for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
		r1 = try_text(m, g1, seat, text, lang, a);
		r2 = try_text(m, g2, seat, text, lang, b);
		ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s, \"%s\": the "
		    "answer depends on hidden cards:\n%d %s\n%d %s", where,
		    text, r1, a, r2, b);
		if (m->api_version >= 11 && m->move_label != NULL) {
			a[0] = b[0] = '\0';
			r1 = m->move_label(g1, seat, text, lang, a, sizeof(a));
			r2 = m->move_label(g2, seat, text, lang, b, sizeof(b));
			ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s, "
			    "\"%s\": move_label depends on hidden cards:\n"
			    "%d %s\n%d %s", where, text, r1, a, r2, b);
		}
		if (m->translate == NULL)
			continue;
		a[0] = b[0] = '\0';
		r1 = m->translate(g1, seat, text, lang, a, sizeof(a));
		r2 = m->translate(g2, seat, text, lang, b, sizeof(b));
		ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s, \"%s\": "
		    "translate depends on hidden cards:\n%d %s\n%d %s", where,
		    text, r1, a, r2, b);
	}
}

static void
same_texts(const struct rules_module *m, const void *g1, const void *g2,
    int seat, json_t *texts, const char *where)
{
	size_t i;

	for (i = 0; i < json_array_size(texts); i++)
		same_answers(m, g1, g2, seat, json_string_value(
		    json_array_get(texts, i)), where);
}

/* Everything but move texts: view, forms, legal moves, default, the
 * bot's move, skip. */
static void
same_seat(const struct rules_module *m, const void *g1, const void *g2,
    int seat, const char *where)
{
	char		 a[RULES_ERRLEN], b[RULES_ERRLEN];
	enum rules_lang	 lang;
	enum rules_status r1, r2;

	same_json(m->view(g1, seat), m->view(g2, seat), "view", where);
	for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++)
		same_json(m->move_forms(g1, seat, lang),
		    m->move_forms(g2, seat, lang), "move forms", where);
	same_json(m->legal_moves(g1, seat), m->legal_moves(g2, seat),
	    "legal moves", where);
	if (m->default_move != NULL) {
		a[0] = b[0] = '\0';
		r1 = m->default_move(g1, seat, a, sizeof(a));
		r2 = m->default_move(g2, seat, b, sizeof(b));
		ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s: the default "
		    "move depends on hidden cards: %d %s / %d %s", where, r1, a,
		    r2, b);
	}
	if (m->api_version >= 8 && m->bot_move != NULL) {
		struct rules_rng rng1, rng2;

		/* The same bot stream: the same choice (rules.h, bot_move). */
		rulestest_rng(&rng1, 17, 3);
		rulestest_rng(&rng2, 17, 3);
		a[0] = b[0] = '\0';
		r1 = m->bot_move(g1, seat, RULES_BOT_NORMAL, &rng1, a,
		    sizeof(a));
		r2 = m->bot_move(g2, seat, RULES_BOT_NORMAL, &rng2, b,
		    sizeof(b));
		ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s: the bot's "
		    "move depends on hidden cards: %d %s / %d %s", where, r1,
		    a, r2, b);
	}
	if (m->api_version >= 6) {
		a[0] = b[0] = '\0';
		r1 = m->sample_illegal_move(g1, seat, a, sizeof(a));
		r2 = m->sample_illegal_move(g2, seat, b, sizeof(b));
		ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s: the sample "
		    "illegal move depends on hidden cards: %d %s / %d %s",
		    where, r1, a, r2, b);
	}
	if (m->skip_check != NULL)
		for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
			a[0] = b[0] = '\0';
			r1 = m->skip_check(g1, seat, lang, a, sizeof(a));
			r2 = m->skip_check(g2, seat, lang, b, sizeof(b));
			ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s: skip "
			    "check depends on hidden cards: %d %s / %d %s",
			    where, r1, a, r2, b);
		}
}

/* describe_last is public: for every seat's last move, in both
 * languages, the same status and words whatever the seat cannot see
 * (and so whatever the public cannot see).  *described counts the
 * phrases compared. */
static void
same_descriptions(const struct rules_module *m, const void *g1,
    const void *g2, int nseats, const char *where, int *described)
{
	static const char *const names[] = { "alice", "bruno", "carol",
	    "dora", "emil", "fanny", "gus", "hana" };
	char		 a[RULES_ERRLEN], b[RULES_ERRLEN];
	enum rules_lang	 lang;
	enum rules_status r1, r2;
	int		 s;

	if (m->api_version < 5 || m->describe_last == NULL)
		return;
	for (s = 0; s < nseats; s++)
		for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
			a[0] = b[0] = '\0';
			r1 = m->describe_last(g1, s, names, lang, a, sizeof(a));
			r2 = m->describe_last(g2, s, names, lang, b, sizeof(b));
			ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s: the "
			    "description of seat %d's last move depends on "
			    "hidden cards: %d \"%s\" / %d \"%s\"", where, s,
			    r1, a, r2, b);
			*described += r1 == RULES_OK;
		}
}

static int
same_to_act(const struct rules_module *m, const void *g1, const void *g2)
{
	int a[16], b[16], na, nb;

	na = m->to_act(g1, a, 16);
	nb = m->to_act(g2, b, 16);
	return na == nb && memcmp(a, b, sizeof(int) * (size_t)(na < 16 ?
	    na : 16)) == 0;
}

static void *
load_or_fail(const struct rules_module *m, const json_t *saved,
    const char *where)
{
	char	 err[RULES_ERRLEN];
	void	*st = testcards_load(m, saved, err, sizeof(err));
	char	*text;

	if (st == NULL) {
		text = json_dumps(saved, JSON_COMPACT);
		ck_abort_msg("%s: the rearranged state does not load (%s): %s",
		    where, err, text);
	}
	return st;
}

/* Set up a game from seed and play up to plies random legal moves
 * (chosen by a stream of their own, so the same seed plays the same
 * game); the cards shown on the way go to k when it is not NULL.  The
 * number of moves played is left in *played. */
static void *
play(const struct rules_module *m, uint64_t seed, int nseats, int plies,
    struct nopeek_known *k, int *played)
{
	struct rules_rng rng, choose;
	char		 err[RULES_ERRLEN];
	json_t		*opts = json_object(), *saved;
	void		*st;
	int		 n, seats[16], nact;

	rulestest_rng(&rng, seed, 0);
	rulestest_rng(&choose, seed, 1u << 20);
	st = testcards_setup(m, nseats, opts, &rng, err, sizeof(err));
	json_decref(opts);
	ck_assert_msg(st != NULL, "%s setup: %s", m->name, err);
	for (n = 0; n < plies && (nact = m->to_act(st, seats, 16)) > 0; n++) {
		int seat = seats[rules_rng_below(&choose, (uint32_t)(nact < 16 ?
		    nact : 16))];
		json_t *legal = m->legal_moves(st, seat), *move = NULL;

		ck_assert_uint_gt(json_array_size(legal), 0);
		ck_assert_int_eq(m->parse(st, seat, json_string_value(
		    json_array_get(legal, rules_rng_below(&choose, (uint32_t)
		    json_array_size(legal)))), RULES_LANG_EN, &move, err,
		    sizeof(err)), RULES_OK);
		rulestest_rng(&rng, seed, (uint64_t)n + 1);
		m->apply(st, seat, move, &rng);
		json_decref(move);
		json_decref(legal);
		if (k != NULL) {
			saved = m->save(st);
			h_note(saved, k);
			json_decref(saved);
		}
	}
	*played = n;
	return st;
}

/* A random position of a random game: the whole game is played once to
 * learn its length, then again up to a random point before its end. */
static void *
random_position(const struct rules_module *m, uint64_t seed,
    struct rules_rng *pick, struct nopeek_known *k, int *nseats_out)
{
	void	*st;
	int	 nseats, length;

	nseats = m->min_seats + (int)rules_rng_below(pick,
	    (uint32_t)(m->max_seats - m->min_seats + 1));
	st = play(m, seed, nseats, MAX_PLIES, NULL, &length);
	m->destroy(st);
	ck_assert_int_gt(length, 0);
	*nseats_out = nseats;
	return play(m, seed, nseats, (int)rules_rng_below(pick,
	    (uint32_t)length), k, &length);
}

static void
no_peek(const struct rules_module *m)
{
	const struct nopeek_hider *h = nopeek_find(m->name);
	struct rules_rng pick;
	int		 pos, tested = 0, changed = 0, described = 0;

	ck_assert_msg(h != NULL, "ruleset %s has no no-peek hider: write "
	    "rules/%s/nopeek.c (rules/nopeek.h; copy rules/template/nopeek.c)",
	    m->name, m->name);
	h_note = h->note;
	rulestest_rng(&pick, 14, 3);
	for (pos = 0; pos < POSITIONS; pos++) {
		struct nopeek_known	 k = { 0 };
		void		*st, *g1, *g2 = NULL;
		json_t		*s1, *s2 = NULL, *l1, *l2;
		char		 where[64], text[256];
		int		 seat, nseats, tries, n;

		snprintf(where, sizeof(where), "%s position %d", m->name, pos);
		st = random_position(m, 1400 + (uint64_t)pos, &pick, &k,
		    &nseats);
		s1 = m->save(st);
		h->note(s1, &k);
		seat = (int)rules_rng_below(&pick, (uint32_t)nseats);
		g1 = load_or_fail(m, s1, where);
		/* Over, nothing is hidden any more. */
		tries = m->to_act(g1, &n, 1) == 0 ? HIDE_TRIES : 0;
		for (; tries < HIDE_TRIES; tries++) {
			s2 = json_deep_copy(s1);
			h->hide(s2, seat, &k, &pick);
			g2 = load_or_fail(m, s2, where);
			if (same_to_act(m, g1, g2))
				break;
			m->destroy(g2);
			json_decref(s2);
			g2 = NULL;
		}
		if (g2 != NULL) {
			tested++;
			changed += !json_equal(s1, s2);
			same_seat(m, g1, g2, seat, where);
			same_descriptions(m, g1, g2, nseats, where,
			    &described);
			l1 = m->legal_moves(g1, seat);
			l2 = m->legal_moves(g2, seat);
			same_texts(m, g1, g2, seat, l1, where);
			same_texts(m, g1, g2, seat, l2, where);
			json_decref(l1);
			json_decref(l2);
			if (m->api_version >= 6 && m->sample_illegal_move(g1,
			    seat, text, sizeof(text)) == RULES_OK)
				same_answers(m, g1, g2, seat, text, where);
			for (n = 0; n < RANDOM_TEXTS; n++) {
				h->text(s1, seat, &pick, text, sizeof(text));
				same_answers(m, g1, g2, seat, text, where);
			}
			m->destroy(g2);
			json_decref(s2);
		}
		m->destroy(g1);
		m->destroy(st);
		json_decref(s1);
	}
	/* The test means something only if the states did differ. */
	fprintf(stderr, "%s: %d positions compared, %d with hidden cards "
	    "moved, %d last moves described\n", m->name, tested, changed,
	    described);
	ck_assert_int_ge(tested, POSITIONS * 3 / 4);
	ck_assert_int_ge(described, tested);
	ck_assert_int_ge(changed, tested / 2);
}

/* Every registered module, by its place in rules_all(). */
START_TEST(test_no_peek)
{
	no_peek(rules_all()[_i]);
}
END_TEST

/* A hider names a registered module (its folder's name). */
START_TEST(test_hiders_registered)
{
	const struct nopeek_hider *const *h;

	for (h = nopeek_all(); *h != NULL; h++)
		ck_assert_msg(rules_find((*h)->ruleset) != NULL, "the "
		    "hider for \"%s\" names no registered module",
		    (*h)->ruleset);
}
END_TEST

static int
holds(const json_t *hand, const char *id)
{
	size_t i;

	for (i = 0; i < json_array_size(hand); i++)
		if (strcmp(json_string_value(json_array_get(hand, i)), id) == 0)
			return 1;
	return 0;
}

/* The rearrangement itself: it moves hidden cards, keeps the seat's
 * hand, the discard area and the shown cards where they were, and a card
 * another seat drew in the first half of its turn stays in its hand. */
START_TEST(test_hide_keeps_what_shows)
{
	struct nopeek_known	 k = { 0 };
	struct rules_rng rng;
	json_t		*s = json_pack("{s:[s,s,s], s:[s,s], s:[s], "
	    "s:[[s,s],[s,s,s]], s:{s:[s]}}",
	    "galaxy_deck", "G01", "G02", "G03", "mission_deck", "M01", "M02",
	    "discard", "G09", "hands", "G04", "M03", "G05", "G06", "M04",
	    "pending", "drawn", "G06");
	json_t		*before = json_deep_copy(s), *theirs, *g05;
	const struct nopeek_hider *stm = nopeek_find("stmissions");
	const char	*drawn;
	int		 moved = 0, i;

	ck_assert_ptr_nonnull(stm);
	g05 = json_string("G05");
	nopeek_add_known(&k, g05);
	json_decref(g05);
	rulestest_rng(&rng, 1, 1);
	for (i = 0; i < 20; i++) {
		stm->hide(s, 0, &k, &rng);
		ck_assert(json_equal(json_object_get(s, "discard"),
		    json_object_get(before, "discard")));
		ck_assert(json_equal(json_array_get(json_object_get(s,
		    "hands"), 0), json_array_get(json_object_get(before,
		    "hands"), 0)));
		theirs = json_array_get(json_object_get(s, "hands"), 1);
		/* G05 is known: it stays in seat 1's hand. */
		ck_assert(holds(theirs, "G05"));
		drawn = json_string_value(json_array_get(json_object_get(
		    json_object_get(s, "pending"), "drawn"), 0));
		ck_assert_msg(holds(theirs, drawn), "drawn %s left the hand",
		    drawn);
		/* Missions cards stay among Missions cards. */
		ck_assert_int_eq(json_string_value(json_array_get(
		    json_object_get(s, "mission_deck"), 0))[0], 'M');
		moved += !json_equal(s, before);
	}
	ck_assert_int_gt(moved, 0);
	json_decref(s);
	json_decref(before);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("nopeek");
	TCase	*tc = tcase_create("nopeek");
	SRunner	*sr;
	int	 failed, nmodules;

	for (nmodules = 0; rules_all()[nmodules] != NULL; nmodules++)
		;
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_hiders_registered);
	tcase_add_test(tc, test_hide_keeps_what_shows);
	tcase_add_loop_test(tc, test_no_peek, 0, nmodules);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
