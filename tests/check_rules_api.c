/*
 * check_rules_api.c -- the rule-module contract, checked on every module
 * in the registry (so a new module is tested the moment it is listed):
 *   - the registry: lookups, unknown names, every table valid;
 *   - registration rules refused: bad version, bad name, bad seat range,
 *     a missing method;
 *   - setup refuses seat counts outside the module's range;
 *   - seeded random play: after every move save/load/save is
 *     byte-identical, every legal move parses and checks, the seats that
 *     must act are real seats, views carry "to_act" and "over", check()
 *     leaves the state untouched, the same seed and moves give the same
 *     final state, and every game ends with a result naming winners;
 *   - translate (api_version >= 2, when the module has it): every legal
 *     move written in French and in English parses back, checks, and
 *     reads as the very same move JSON;
 *   - move_label (api_version >= 11, when the module has it): every legal
 *     move gets, in both languages, one line, the same every time, that
 *     leaves the state untouched, refuses too small a buffer, and is the
 *     same from a position where what the seat cannot see was rearranged
 *     by the game's hider (rules/nopeek.h): it names no hidden card.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "nopeek.h"
#include "rng.h"
#include "rules.h"
#include "testcards.h"

/* Games per module and seat count: GAMES_PER_COUNT, or fewer once
 * MOVES_PER_COUNT moves were played (at least MIN_GAMES_PER_COUNT); the
 * full contract checks run on each move of the first games, until
 * CHECKED_MOVES_PER_COUNT moves were checked (at least 3 games), so a
 * game of long turns costs no more than a short one.  The sanitizer run
 * (tests/run-all.sh) sets PBEM_RULES_API_SAMPLE=1, which divides the
 * three counts by SAMPLE_DIVISOR: the sanitizers need every path, not
 * the full count, which the normal build has just played. */
#define GAMES_PER_COUNT		200
#define MIN_GAMES_PER_COUNT	20
#define MOVES_PER_COUNT		20000L
#define CHECKED_MOVES_PER_COUNT	3000L
#define SAMPLE_DIVISOR		4
#define MAX_MOVES	5000	/* four seats of Planet Hexx play ~1,400 */

static char *
saved_text(const struct rules_module *m, const void *state)
{
	json_t *saved = m->save(state);
	char *text = json_dumps(saved, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(saved);
	return text;
}

START_TEST(test_registry)
{
	const struct rules_module *const *m;
	char err[256];
	int n = 0;

	for (m = rules_all(); *m != NULL; m++, n++) {
		ck_assert_msg(rules_validate_module(*m, err, sizeof(err)) == 0,
		    "%s", err);
		ck_assert_ptr_eq(rules_find((*m)->name), *m);
	}
	ck_assert_int_ge(n, 2);
	ck_assert_ptr_null(rules_find("no-such-game"));
	ck_assert_ptr_null(rules_find(NULL));
	ck_assert_ptr_nonnull(rules_find("stmissions"));
	ck_assert_ptr_nonnull(rules_find("template"));
}
END_TEST

START_TEST(test_registration_rules)
{
	struct rules_module bad = *rules_find("template");
	char err[256];

	bad.api_version = RULES_API_VERSION + 1;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "api_version"));
	bad = *rules_find("template");
	bad.name = "Bad Name";
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "module name"));
	bad = *rules_find("template");
	bad.min_seats = 5;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "seats"));
	bad = *rules_find("template");
	bad.check = NULL;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "method check is missing"));
	bad = *rules_find("template");
	bad.default_move = NULL;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "default_move"));
	bad.api_version = 2;	/* a version 2 table has no such field */
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), 0);
	bad = *rules_find("template");
	bad.sample_illegal_move = NULL;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "sample_illegal_move"));
	bad.api_version = 5;	/* a version 5 table has no such field */
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), 0);
	bad = *rules_find("template");
	bad.skip_apply = NULL;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "skip_check/skip_apply"));
	/* Older rulesets: both fields or neither, and a sensible range. */
	bad = *rules_find("stmissions");
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), 0);
	bad.setup_version = NULL;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "oldest_ruleset_version"));
	bad = *rules_find("stmissions");
	bad.oldest_ruleset_version = bad.ruleset_version;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "oldest_ruleset_version"));
	bad.api_version = 3;	/* a version 3 table has no such fields */
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), 0);
	bad = *rules_find("template");
	bad.ruleset_version = 0;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_int_eq(rules_validate_module(NULL, err, sizeof(err)), -1);
}
END_TEST

/* A card module (Parry, docs/CARDFILES.md): all four methods or none,
 * set up and loaded through the registry with a set, never without one;
 * a bad card file refused with FILE:LINE. */
START_TEST(test_card_module)
{
	const struct rules_module *m = rules_find("respond");
	static const char bad_file[] = "cards:\n  - {id: 1, kind: sword}\n";
	unsigned char seed[32] = { 3 };
	struct rules_module bad;
	struct rules_rng rng;
	json_t *opts = json_object(), *saved;
	char err[RULES_ERRLEN];
	void *state, *copy;

	ck_assert_ptr_nonnull(m);
	ck_assert(rules_has_cards(m));
	ck_assert(!rules_has_cards(rules_find("template")));
	bad = *m;
	bad.cards_free = NULL;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "cards_free"));
	bad.api_version = 6;	/* a version 6 table has no card fields */
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "setup"));
	/* Older rulesets of a card module: setup_cards_version, never
	 * setup_version, and the same range as any module. */
	bad = *rules_find("hexx");
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), 0);
	ck_assert_int_gt(bad.oldest_ruleset_version, 0);
	ck_assert(rules_version_supported(&bad, bad.oldest_ruleset_version));
	bad.setup_cards_version = NULL;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "setup_cards_version"));
	ck_assert(!rules_version_supported(&bad, bad.oldest_ruleset_version));
	bad = *rules_find("hexx");
	bad.setup_version = rules_find("stmissions")->setup_version;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "setup_cards_version"));
	bad = *rules_find("hexx");
	bad.oldest_ruleset_version = bad.ruleset_version;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "oldest_ruleset_version"));
	bad = *rules_find("stmissions");
	bad.setup_cards_version = rules_find("hexx")->setup_cards_version;
	ck_assert_int_eq(rules_validate_module(&bad, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "card modules only"));

	rng_init(&rng, seed, 0);
	ck_assert_ptr_null(rules_setup_game(m, NULL, m->ruleset_version, 2,
	    opts, &rng, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "none was given"));
	state = rules_setup_game(m, testcards_default(m), m->ruleset_version,
	    2, opts, &rng, err, sizeof(err));
	ck_assert_msg(state != NULL, "%s", err);
	saved = m->save(state);
	ck_assert_ptr_null(rules_load_game(m, NULL, saved, err, sizeof(err)));
	copy = rules_load_game(m, testcards_default(m), saved, err,
	    sizeof(err));
	ck_assert_msg(copy != NULL, "%s", err);
	m->destroy(copy);
	m->destroy(state);
	json_decref(saved);

	ck_assert_ptr_null(m->cards_parse(bad_file, sizeof(bad_file) - 1,
	    "mine.yaml", err, sizeof(err)));
	ck_assert_msg(strncmp(err, "mine.yaml:", 10) == 0, "%s", err);
	ck_assert_ptr_null(m->cards_parse("", 0, "empty.yaml", err,
	    sizeof(err)));
	json_decref(opts);
}
END_TEST

/* The versions a module keeps: only its own without setup_version; with
 * it, every version from the oldest, each set up through the right call. */
START_TEST(test_ruleset_versions)
{
	const struct rules_module *m = rules_find("stmissions");
	const struct rules_module *t = rules_find("template");
	struct rules_rng rng;
	json_t *opts = json_object(), *a, *b;
	char err[RULES_ERRLEN];
	void *old, *now;

	ck_assert(rules_version_supported(t, t->ruleset_version));
	ck_assert(!rules_version_supported(t, t->ruleset_version - 1));
	ck_assert(!rules_version_supported(t, t->ruleset_version + 1));
	ck_assert_int_gt(m->oldest_ruleset_version, 0);
	ck_assert(rules_version_supported(m, m->oldest_ruleset_version));
	ck_assert(!rules_version_supported(m, m->oldest_ruleset_version - 1));
	ck_assert(!rules_version_supported(m, m->ruleset_version + 1));
	ck_assert_ptr_null(rules_setup_game(m, NULL, m->ruleset_version + 1, 2,
	    opts, &rng, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "not kept"));

	/* The same seed deals the same opening under each version; only
	 * the version the state records differs. */
	memset(&rng, 0, sizeof(rng));
	rng_init(&rng, (const unsigned char *)
	    "0123456789abcdef0123456789abcdef", 0);
	old = rules_setup_game(m, NULL, m->oldest_ruleset_version, 3, opts,
	    &rng, err, sizeof(err));
	ck_assert_msg(old != NULL, "%s", err);
	rng_init(&rng, (const unsigned char *)
	    "0123456789abcdef0123456789abcdef", 0);
	now = rules_setup_game(m, NULL, m->ruleset_version, 3, opts, &rng, err,
	    sizeof(err));
	ck_assert_msg(now != NULL, "%s", err);
	a = m->save(old);
	b = m->save(now);
	ck_assert_int_eq(json_integer_value(json_object_get(a, "ruleset")),
	    m->oldest_ruleset_version);
	ck_assert_int_eq(json_integer_value(json_object_get(b, "ruleset")),
	    m->ruleset_version);
	json_object_del(a, "ruleset");
	json_object_del(b, "ruleset");
	ck_assert(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	m->destroy(old);
	m->destroy(now);
	json_decref(opts);
}
END_TEST

START_TEST(test_setup_seat_range)
{
	const struct rules_module *const *m;
	unsigned char seed[32] = { 1 };
	struct rules_rng rng;
	json_t *none = json_object();
	char err[RULES_ERRLEN];
	void *state;

	for (m = rules_all(); *m != NULL; m++) {
		rng_init(&rng, seed, 0);
		ck_assert_ptr_null(testcards_setup(*m, (*m)->min_seats - 1,
		    none, &rng, err, sizeof(err)));
		ck_assert_uint_gt(strlen(err), 0);
		ck_assert_ptr_null(testcards_setup(*m, (*m)->max_seats + 1,
		    none, &rng, err, sizeof(err)));
		state = testcards_setup(*m, (*m)->min_seats, none, &rng, err,
		    sizeof(err));
		ck_assert_msg(state != NULL, "%s: %s", (*m)->name, err);
		(*m)->destroy(state);
	}
	json_decref(none);
}
END_TEST

/* translate() of one legal move into lang: the result parses (in lang
 * and in the other language), checks, and is the same move as want. */
static void
check_translation(const struct rules_module *m, const void *state, int seat,
    const char *text, const json_t *want, enum rules_lang lang)
{
	char out[1024], err[RULES_ERRLEN];
	enum rules_lang other;
	json_t *move;

	ck_assert_msg(m->translate(state, seat, text, lang, out,
	    sizeof(out)) == RULES_OK, "%s: legal move \"%s\" not translated",
	    m->name, text);
	for (other = RULES_LANG_EN; other <= RULES_LANG_FR; other++) {
		move = NULL;
		ck_assert_msg(m->parse(state, seat, out, other, &move, err,
		    sizeof(err)) == RULES_OK, "%s: \"%s\" translated to "
		    "\"%s\" does not parse: %s", m->name, text, out, err);
		ck_assert_msg(m->check(state, seat, move, other, err,
		    sizeof(err)) == RULES_OK, "%s: \"%s\" translated to "
		    "\"%s\" is refused: %s", m->name, text, out, err);
		ck_assert_msg(json_equal(move, want), "%s: \"%s\" translated "
		    "to \"%s\" is another move", m->name, text, out);
		json_decref(move);
	}
}

/* default_move (api_version 3): for a seat that must act, a text that
 * parses and checks, the same every time; skip_check, when present,
 * answers without changing the state. */
static void
check_default_move(const struct rules_module *m, const void *state, int seat)
{
	char out[1024], again[1024], err[RULES_ERRLEN];
	json_t *move = NULL;

	ck_assert_msg(m->default_move(state, seat, out, sizeof(out)) ==
	    RULES_OK, "%s: no default move for seat %d", m->name, seat);
	ck_assert_int_eq(m->default_move(state, seat, again, sizeof(again)),
	    RULES_OK);
	ck_assert_str_eq(out, again);
	ck_assert_msg(m->parse(state, seat, out, RULES_LANG_EN, &move, err,
	    sizeof(err)) == RULES_OK, "%s: default move \"%s\" does not "
	    "parse: %s", m->name, out, err);
	ck_assert_msg(m->check(state, seat, move, RULES_LANG_EN, err,
	    sizeof(err)) == RULES_OK, "%s: default move \"%s\" is refused: "
	    "%s", m->name, out, err);
	json_decref(move);
	ck_assert_int_ne(m->default_move(state, seat, out, 2), RULES_OK);
	if (m->skip_check != NULL)
		ck_assert_int_eq(m->skip_check(state, seat, RULES_LANG_EN, err,
		    sizeof(err)), RULES_OK);
}

/* sample_illegal_move (api_version 5): for a seat that must act, a text
 * that parse() or check() refuses, in both languages, the same every
 * time; a buffer too small is an error, not a cut text. */
static void
check_sample_illegal_move(const struct rules_module *m, const void *state,
    int seat)
{
	char out[1024], again[1024], err[RULES_ERRLEN];
	enum rules_lang lang;
	json_t *move;

	ck_assert_msg(m->sample_illegal_move(state, seat, out, sizeof(out)) ==
	    RULES_OK, "%s: no sample illegal move for seat %d", m->name, seat);
	ck_assert_int_eq(m->sample_illegal_move(state, seat, again,
	    sizeof(again)), RULES_OK);
	ck_assert_str_eq(out, again);
	for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
		move = NULL;
		ck_assert_msg(m->parse(state, seat, out, lang, &move, err,
		    sizeof(err)) != RULES_OK || m->check(state, seat, move,
		    lang, err, sizeof(err)) != RULES_OK, "%s: the sample "
		    "illegal move \"%s\" is accepted", m->name, out);
		ck_assert_msg(err[0] != '\0', "%s: \"%s\" refused without a "
		    "message", m->name, out);
		json_decref(move);
	}
	ck_assert_int_ne(m->sample_illegal_move(state, seat, out, 2),
	    RULES_OK);
}

/* One move's worth of contract checks on state, for seat. */
static void
check_step(const struct rules_module *m, void *state, int seat)
{
	char err[RULES_ERRLEN], *before, *after, *reloaded;
	json_t *moves, *move, *saved, *view;
	void *copy;
	size_t i;

	before = saved_text(m, state);
	saved = json_loads(before, 0, NULL);
	copy = testcards_load(m, saved, err, sizeof(err));
	ck_assert_msg(copy != NULL, "%s: load refused its own save: %s",
	    m->name, err);
	reloaded = saved_text(m, copy);
	ck_assert_str_eq(before, reloaded);
	m->destroy(copy);
	json_decref(saved);
	free(reloaded);

	moves = m->legal_moves(state, seat);
	ck_assert_msg(json_array_size(moves) > 0, "%s: seat %d must act but "
	    "has no legal move", m->name, seat);
	for (i = 0; i < json_array_size(moves); i++) {
		const char *text = json_string_value(json_array_get(moves, i));
		move = NULL;
		ck_assert_msg(m->parse(state, seat, text, RULES_LANG_EN, &move,
		    err, sizeof(err)) == RULES_OK, "%s: legal move \"%s\" "
		    "does not parse: %s", m->name, text, err);
		ck_assert_msg(m->check(state, seat, move, RULES_LANG_EN, err,
		    sizeof(err)) == RULES_OK, "%s: legal move \"%s\" is "
		    "refused: %s", m->name, text, err);
		if (m->api_version >= 2 && m->translate != NULL) {
			check_translation(m, state, seat, text, move,
			    RULES_LANG_FR);
			check_translation(m, state, seat, text, move,
			    RULES_LANG_EN);
		}
		json_decref(move);
	}
	json_decref(moves);
	if (m->api_version >= 3)
		check_default_move(m, state, seat);
	if (m->api_version >= 6)
		check_sample_illegal_move(m, state, seat);
	view = m->view(state, seat);
	ck_assert_ptr_nonnull(json_object_get(view, "to_act"));
	ck_assert_ptr_nonnull(json_object_get(view, "over"));
	json_decref(view);
	after = saved_text(m, state);
	ck_assert_msg(strcmp(before, after) == 0, "%s: parse/check/view "
	    "changed the state", m->name);
	free(before);
	free(after);
}

/* The labels of seat's legal moves in lang, one per line (malloc'd), or
 * NULL for a module without move_label. */
static char *
labels_of(const struct rules_module *m, const void *state, int seat,
    const json_t *moves, enum rules_lang lang)
{
	char out[RULES_ERRLEN], again[RULES_ERRLEN], tiny[4], *all = NULL;
	const char *text;
	size_t i, len = 0;

	if (m->api_version < 11 || m->move_label == NULL)
		return NULL;
	for (i = 0; i < json_array_size(moves); i++) {
		text = json_string_value(json_array_get(moves, i));
		ck_assert_msg(m->move_label(state, seat, text, lang, out,
		    sizeof(out)) == RULES_OK, "%s: legal move \"%s\" has no "
		    "label", m->name, text);
		ck_assert_msg(out[0] != '\0' && strchr(out, '\n') == NULL,
		    "%s: label \"%s\" of \"%s\" is not one line", m->name,
		    out, text);
		ck_assert_int_eq(m->move_label(state, seat, text, lang, again,
		    sizeof(again)), RULES_OK);
		ck_assert_str_eq(out, again);
		ck_assert_int_ne(m->move_label(state, seat, text, lang, tiny,
		    sizeof(tiny)), RULES_OK);
		all = realloc(all, len + strlen(out) + 2);
		ck_assert_ptr_nonnull(all);
		len += (size_t)sprintf(all + len, "%s\n", out);
	}
	return all != NULL ? all : strdup("");
}

/* move_label (api_version 11) of every legal move of seat, in both
 * languages: see labels_of(); pure (the state is unchanged); and the
 * same labels from a copy of the position where the game's hider
 * rearranged what seat cannot see (k: the cards shown so far), so a
 * label names no hidden card. */
static void
check_labels(const struct rules_module *m, const void *state, int seat,
    const struct nopeek_known *k, uint64_t game)
{
	const struct nopeek_hider *h = nopeek_find(m->name);
	unsigned char seed[32];
	struct rules_rng rng;
	char err[RULES_ERRLEN], *before, *after, *a, *b;
	enum rules_lang lang;
	json_t *moves, *saved;
	void *hidden;

	if (m->api_version < 11 || m->move_label == NULL)
		return;
	ck_assert_msg(h != NULL, "%s has move_label but no hider", m->name);
	before = saved_text(m, state);
	saved = json_loads(before, 0, NULL);
	memset(seed, 0, sizeof(seed));
	memcpy(seed, &game, sizeof(game));
	rng_init(&rng, seed, 77);
	h->hide(saved, seat, k, &rng);
	hidden = testcards_load(m, saved, err, sizeof(err));
	ck_assert_msg(hidden != NULL, "%s: the hider's position does not "
	    "load: %s", m->name, err);
	moves = m->legal_moves(state, seat);
	for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
		a = labels_of(m, state, seat, moves, lang);
		b = labels_of(m, hidden, seat, moves, lang);
		ck_assert_msg(strcmp(a, b) == 0, "%s: labels depend on hidden "
		    "cards:\n%s\n%s", m->name, a, b);
		free(a);
		free(b);
	}
	after = saved_text(m, state);
	ck_assert_msg(strcmp(before, after) == 0, "%s: move_label changed "
	    "the state", m->name);
	json_decref(moves);
	json_decref(saved);
	m->destroy(hidden);
	free(before);
	free(after);
}

/* describe_last (api_version 5), right after seat moved: one line in
 * each language, naming the seat's player.  What it must not say is
 * check_nopeek.c's concern. */
static void
check_description(const struct rules_module *m, const void *state, int seat)
{
	static const char *const names[] = { "alice", "bruno", "carol",
	    "dora", "emil", "fanny", "gus", "hana" };
	char out[RULES_ERRLEN], tiny[4];
	enum rules_lang lang;

	if (m->api_version < 5 || m->describe_last == NULL)
		return;
	for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
		ck_assert_msg(m->describe_last(state, seat, names, lang, out,
		    sizeof(out)) == RULES_OK, "%s: no description of seat %d's "
		    "move", m->name, seat);
		ck_assert_msg(out[0] != '\0' && strchr(out, '\n') == NULL &&
		    strstr(out, names[seat]) != NULL, "%s: description \"%s\" "
		    "is not one line naming %s", m->name, out, names[seat]);
		/* Too small a buffer is refused, not overrun. */
		ck_assert_int_ne(m->describe_last(state, seat, names, lang,
		    tiny, sizeof(tiny)), RULES_OK);
	}
}

/* Play one game at random; returns the final saved state (malloc'd) and
 * adds the moves played to *played. */
static char *
play(const struct rules_module *m, int nseats, uint64_t game, int checks,
    long *played)
{
	unsigned char seed[32];
	char err[RULES_ERRLEN], *final;
	struct rules_rng rng;
	const struct nopeek_hider *h = nopeek_find(m->name);
	struct nopeek_known known = { 0 };
	json_t *opts = json_object(), *moves, *move, *result, *saved;
	int seats[8], nact, n;
	uint32_t pick;
	void *state;

	memset(seed, 0, sizeof(seed));
	memcpy(seed, &game, sizeof(game));
	rng_init(&rng, seed, 0);
	state = testcards_setup(m, nseats, opts, &rng, err, sizeof(err));
	ck_assert_msg(state != NULL, "%s: %s", m->name, err);
	json_decref(opts);
	for (n = 1; (nact = m->to_act(state, seats, 8)) > 0; n++) {
		ck_assert_msg(n < MAX_MOVES, "%s: game does not end", m->name);
		ck_assert_int_ge(seats[0], 0);
		ck_assert_int_lt(seats[0], nseats);
		if (checks) {
			check_step(m, state, seats[0]);
			check_labels(m, state, seats[0], &known, game);
		}
		moves = m->legal_moves(state, seats[0]);
		rng_init(&rng, seed, 1000000 + (uint64_t)n);
		pick = rules_rng_below(&rng, (uint32_t)json_array_size(moves));
		move = NULL;
		ck_assert_int_eq(m->parse(state, seats[0], json_string_value(
		    json_array_get(moves, pick)), RULES_LANG_EN, &move, err,
		    sizeof(err)), RULES_OK);
		ck_assert_int_eq(m->check(state, seats[0], move, RULES_LANG_EN,
		    err, sizeof(err)), RULES_OK);
		rng_init(&rng, seed, (uint64_t)n);
		m->apply(state, seats[0], move, &rng);
		if (checks)
			check_description(m, state, seats[0]);
		if (checks && h != NULL) {
			saved = m->save(state);
			h->note(saved, &known);
			json_decref(saved);
		}
		json_decref(move);
		json_decref(moves);
	}
	*played += n - 1;
	result = m->result(state);
	ck_assert_ptr_nonnull(result);
	ck_assert_uint_eq(json_array_size(json_object_get(result, "scores")),
	    (size_t)nseats);
	ck_assert_uint_ge(json_array_size(json_object_get(result, "winners")),
	    1);
	json_decref(result);
	final = saved_text(m, state);
	m->destroy(state);
	return final;
}

START_TEST(test_random_play_contract)
{
	const struct rules_module *const *m;
	const char *sample = getenv("PBEM_RULES_API_SAMPLE");
	long moves_per_count = MOVES_PER_COUNT;
	long checked_moves_per_count = CHECKED_MOVES_PER_COUNT;
	int min_games_per_count = MIN_GAMES_PER_COUNT;
	char *a, *b;
	long played, replayed;
	int nseats, g, checks;

	if (sample != NULL && strcmp(sample, "1") == 0) {
		moves_per_count /= SAMPLE_DIVISOR;
		checked_moves_per_count /= SAMPLE_DIVISOR;
		min_games_per_count /= SAMPLE_DIVISOR;
	}
	for (m = rules_all(); *m != NULL; m++)
		for (nseats = (*m)->min_seats; nseats <= (*m)->max_seats;
		    nseats++) {
			played = 0;
			for (g = 0; g < GAMES_PER_COUNT && (g <
			    min_games_per_count || played < moves_per_count);
			    g++) {
				checks = g < 3 || played <
				    checked_moves_per_count;
				replayed = 0;
				a = play(*m, nseats, (uint64_t)g, checks,
				    &played);
				b = play(*m, nseats, (uint64_t)g, 0,
				    &replayed);
				ck_assert_msg(strcmp(a, b) == 0, "%s: same "
				    "seed and moves, different end",
				    (*m)->name);
				free(a);
				free(b);
			}
		}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rules_api");
	TCase *tc = tcase_create("contract");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_registry);
	tcase_add_test(tc, test_registration_rules);
	tcase_add_test(tc, test_card_module);
	tcase_add_test(tc, test_ruleset_versions);
	tcase_add_test(tc, test_setup_seat_range);
	tcase_add_test(tc, test_random_play_contract);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
