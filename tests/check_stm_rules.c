/*
 * check_stm_rules.c -- the Star Trek: Missions rule module, through its
 * table only: conformance of each method, every turn option and refusal
 * (with the words of the message), the end of the game, Time Distortion
 * and Meddlesome Q, parsing in English and French, the shared text
 * folding, and thousands of random games checked after every move for
 * conservation of the cards, the hand rules, hidden information and
 * exact replay.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>
#include <jansson.h>

#include "rules.h"
#include "rng.h"
#include "rulestest.h"
#include "cards.h"
#include "stmissions.h"

extern const struct rules_module stmissions_module;
static const struct rules_module *M = &stmissions_module;

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

/*
 * Helpers.
 */

static void *
new_game(int nseats, uint64_t seed)
{
	struct rules_rng	 rng;
	json_t			*opts = json_object();
	char			 err[RULES_ERRLEN];
	void			*st;

	rulestest_rng(&rng, seed, 0);
	st = game_setup(nseats, opts, &rng, err, sizeof(err));
	json_decref(opts);
	ck_assert_msg(st != NULL, "setup: %s", err);
	return st;
}

/* save() as canonical text (sorted keys, compact): a new string. */
static char *
dump_state(const void *st)
{
	json_t	*j = M->save(st);
	char	*s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(j);
	return s;
}

static char *
dump_view(const void *st, int viewer)
{
	json_t	*j = M->view(st, viewer);
	char	*s = json_dumps(j, JSON_COMPACT);

	json_decref(j);
	return s;
}

/* The seat that must act (the game is not over). */
static int
actor(const void *st)
{
	int	seats[4];

	ck_assert_int_eq(M->to_act(st, seats, 4), 1);
	return seats[0];
}

/* Parse, check and apply; returns the first status that is not OK, with
 * its message in err. */
static enum rules_status
play_lang(void *st, int seat, const char *text, enum rules_lang lang,
    char *err, size_t errlen)
{
	struct rules_rng	 rng;
	json_t			*mv = NULL;
	enum rules_status	 rc;

	err[0] = '\0';
	rc = M->parse(st, seat, text, lang, &mv, err, errlen);
	if (rc != RULES_OK)
		return rc;
	rc = M->check(st, seat, mv, lang, err, errlen);
	if (rc == RULES_OK) {
		rulestest_rng(&rng, 99, 1);
		M->apply(st, seat, mv, &rng);
	}
	json_decref(mv);
	return rc;
}

static void
play_ok(void *st, int seat, const char *text)
{
	char	err[RULES_ERRLEN];

	ck_assert_msg(play_lang(st, seat, text, RULES_LANG_EN, err,
	    sizeof(err)) == RULES_OK, "\"%s\" refused: %s", text, err);
}

/* The move parses, is refused with status, the message holds each
 * phrase, and the state did not change. */
static void
refused_lang(void *st, int seat, const char *text, enum rules_lang lang,
    enum rules_status status, const char *phrase1, const char *phrase2)
{
	char			 err[RULES_ERRLEN];
	char			*before, *after;
	enum rules_status	 rc;

	before = dump_state(st);
	rc = play_lang(st, seat, text, lang, err, sizeof(err));
	after = dump_state(st);
	ck_assert_msg(rc == status, "\"%s\": status %d, want %d (%s)", text,
	    rc, status, err);
	ck_assert_msg(strstr(err, phrase1) != NULL, "\"%s\": \"%s\" lacks "
	    "\"%s\"", text, err, phrase1);
	ck_assert_msg(phrase2 == NULL || strstr(err, phrase2) != NULL,
	    "\"%s\": \"%s\" lacks \"%s\"", text, err, phrase2);
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
}

static void
refused(void *st, int seat, const char *text, enum rules_status status,
    const char *phrase1, const char *phrase2)
{
	refused_lang(st, seat, text, RULES_LANG_EN, status, phrase1, phrase2);
}

/* The move JSON parse() makes of text, compact with sorted keys. */
static char *
parsed(void *st, int seat, const char *text)
{
	json_t	*mv = NULL;
	char	 err[RULES_ERRLEN], *s;

	ck_assert_msg(M->parse(st, seat, text, RULES_LANG_EN, &mv, err,
	    sizeof(err)) == RULES_OK, "\"%s\" not parsed: %s", text, err);
	s = json_dumps(mv, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(mv);
	return s;
}

static void
parses_to(void *st, int seat, const char *text, const char *want)
{
	char	*got = parsed(st, seat, text);

	ck_assert_msg(strcmp(got, want) == 0, "\"%s\" -> %s, want %s", text,
	    got, want);
	free(got);
}

/* "G12" -> 11, "M01" -> 50 (ids are checked against the table). */
static int
card_of(const char *id)
{
	int	c;

	c = (id[0] == 'G' ? 0 : STM_NGALAXY) + atoi(id + 1) - 1;
	if (c < 0 || c >= STM_NCARDS || strcmp(stm_cards[c].id, id) != 0)
		ck_abort_msg("no card %s", id);
	return c;
}

/* Space-separated ids -> a JSON array, marking each card as placed. */
static json_t *
id_list(const char *ids, int *placed)
{
	json_t	*a = json_array();
	char	 buf[512], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", ids);
	for (tok = strtok_r(buf, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		ck_assert_msg(!placed[card_of(tok)], "%s placed twice", tok);
		placed[card_of(tok)] = 1;
		json_array_append_new(a, json_string(tok));
	}
	return a;
}

/*
 * A crafted position: the given hands (ascending ids), discard area and
 * deck tops; every other card goes to the bottom of its deck in id
 * order.  Turn phase, the given seat to play.
 */
static void *
craft(int nseats, int current, const char *const *hands, const char *discard,
    const char *galaxy_top, const char *mission_top)
{
	json_t	*s, *h, *g, *m;
	int	 placed[STM_NCARDS] = { 0 }, seat, c;
	char	 err[RULES_ERRLEN];
	void	*st;

	h = json_array();
	for (seat = 0; seat < nseats; seat++)
		json_array_append_new(h, id_list(hands[seat], placed));
	s = json_object();
	json_object_set_new(s, "discard", id_list(discard, placed));
	g = id_list(galaxy_top, placed);
	m = id_list(mission_top, placed);
	for (c = 0; c < STM_NCARDS; c++)
		if (!placed[c])
			json_array_append_new(c < STM_NGALAXY ? g : m,
			    json_string(stm_cards[c].id));
	json_object_set_new(s, "ruleset", json_integer(1));
	json_object_set_new(s, "nseats", json_integer(nseats));
	json_object_set_new(s, "phase", json_string("turn"));
	json_object_set_new(s, "first", json_integer(0));
	json_object_set_new(s, "current", json_integer(current));
	json_object_set_new(s, "turns", json_integer(5));
	json_object_set_new(s, "extra_owed", json_false());
	json_object_set_new(s, "extra_now", json_false());
	json_object_set_new(s, "ending", json_false());
	json_object_set_new(s, "end_reasons", json_array());
	json_object_set_new(s, "q_seat", json_null());
	json_object_set_new(s, "galaxy_deck", g);
	json_object_set_new(s, "mission_deck", m);
	json_object_set_new(s, "hands", h);
	json_object_set_new(s, "pending", json_null());
	json_object_set_new(s, "last", json_null());
	st = game_load(s, err, sizeof(err));
	ck_assert_msg(st != NULL, "crafted state refused: %s", err);
	json_decref(s);
	return st;
}

/*
 * The ruleset version a game keeps: a new game saves the newest; a state
 * saved with version 1 loads, saves back as 1 and is scored with version
 * 1's readings (Blossoming Romance's 6s without the 8, here); an unknown
 * version is refused.
 */
START_TEST(test_ruleset_kept)
{
	static const char *const hands[] = {
		"G03 G13 G30 G32 G33 M19 M20",
		"G06 G07 G08 G09 G10 M03 M04"
	};
	static const int v[3] = { 0, STM_SCORE_V1, STM_SCORE_V2 };
	struct stm_hand_score want[3];
	int cards[7] = { STM_C_BATLETH, STM_C_DEANNA_TROI, STM_C_LWAXANA,
	    STM_C_PHOTON_TORPEDOES, STM_C_QUARTERS, STM_C_BLOSSOMING_ROMANCE,
	    STM_C_SCIENTIFIC_PUZZLE };
	char	 err[RULES_ERRLEN];
	json_t	*saved, *again, *res;
	void	*st, *over;
	int	 i;

	st = new_game(2, 7);
	saved = M->save(st);
	ck_assert_int_eq(json_integer_value(json_object_get(saved,
	    "ruleset")), STM_RULESET_VERSION);
	json_decref(saved);
	M->destroy(st);
	st = craft(2, 0, hands, "", "", "");
	saved = M->save(st);
	json_object_set_new(saved, "phase", json_string("over"));
	json_object_set_new(saved, "ending", json_true());
	json_object_set_new(saved, "end_reasons", json_pack("[s]",
	    "galaxy_deck_empty"));
	for (i = 1; i < 3; i++) {
		ck_assert_int_eq(stm_score_hand_at(v[i], cards, 7, &want[i]),
		    0);
		json_object_set_new(saved, "ruleset", json_integer(v[i]));
		over = game_load(saved, err, sizeof(err));
		ck_assert_msg(over != NULL, "refused: %s", err);
		again = M->save(over);
		ck_assert(json_equal(again, saved));
		json_decref(again);
		res = M->result(over);
		ck_assert_ptr_nonnull(res);
		ck_assert_int_eq(json_integer_value(json_array_get(
		    json_object_get(res, "scores"), 0)), want[i].total);
		json_decref(res);
		M->destroy(over);
	}
	ck_assert_int_ne(want[1].total, want[2].total);
	json_object_set_new(saved, "ruleset", json_integer(3));
	ck_assert_ptr_null(game_load(saved, err, sizeof(err)));
	json_object_set_new(saved, "ruleset", json_integer(0));
	ck_assert_ptr_null(game_load(saved, err, sizeof(err)));
	json_decref(saved);
	M->destroy(st);
}
END_TEST

/* A field of the view as an integer. */
static json_int_t
view_int(const void *st, int viewer, const char *key)
{
	json_t		*v = M->view(st, viewer);
	json_int_t	 i = json_integer_value(json_object_get(v, key));

	json_decref(v);
	return i;
}

static int
view_over(const void *st)
{
	json_t	*v = M->view(st, RULES_VIEW_PUBLIC);
	int	 over = json_is_true(json_object_get(v, "over"));

	json_decref(v);
	return over;
}

/* Does the seat's hand (from the full view) hold this card id? */
static int
holds(const void *st, int seat, const char *id)
{
	json_t	*s = M->save(st), *h;
	size_t	 i;
	int	 found = 0;

	h = json_array_get(json_object_get(s, "hands"), (size_t)seat);
	for (i = 0; i < json_array_size(h); i++)
		if (strcmp(json_string_value(json_array_get(h, i)), id) == 0)
			found = 1;
	json_decref(s);
	return found;
}

static size_t
hand_size(const void *st, int seat)
{
	json_t	*s = M->save(st);
	size_t	 n;

	n = json_array_size(json_array_get(json_object_get(s, "hands"),
	    (size_t)seat));
	json_decref(s);
	return n;
}

static const char *const two_hands[] = {
	"G01 G02 G03 G04 G05 M01 M02",
	"G06 G07 G08 G09 G10 M03 M04"
};

/*
 * The module table.
 */
START_TEST(test_table)
{
	char	err[RULES_ERRLEN];

	ck_assert_int_eq(M->api_version, RULES_API_VERSION);
	ck_assert_str_eq(M->name, "stmissions");
	ck_assert_int_eq(M->ruleset_version, 2);
	ck_assert_int_eq(M->ruleset_version, STM_RULESET_VERSION);
	ck_assert_int_eq(M->min_seats, 2);
	ck_assert_int_eq(M->max_seats, 4);
	ck_assert_ptr_nonnull(M->title_en);
	ck_assert_ptr_nonnull(M->title_fr);
	ck_assert_ptr_nonnull(M->summary_en);
	ck_assert_ptr_nonnull(M->summary_fr);
	ck_assert_ptr_nonnull(M->setup);
	ck_assert_ptr_nonnull(M->destroy);
	ck_assert_ptr_nonnull(M->save);
	ck_assert_ptr_nonnull(M->load);
	ck_assert_ptr_nonnull(M->to_act);
	ck_assert_ptr_nonnull(M->parse);
	ck_assert_ptr_nonnull(M->check);
	ck_assert_ptr_nonnull(M->apply);
	ck_assert_ptr_nonnull(M->view);
	ck_assert_ptr_nonnull(M->legal_moves);
	ck_assert_ptr_nonnull(M->move_forms);
	ck_assert_ptr_nonnull(M->result);
	ck_assert_ptr_nonnull(M->score_cards);
	(void)err;
	M->destroy(NULL);
}
END_TEST

/*
 * setup
 */
START_TEST(test_setup_seats)
{
	struct rules_rng	 rng;
	json_t			*opts = json_object(), *s, *hands;
	char			 err[RULES_ERRLEN];
	void			*st;
	int			 n, seat, missions;
	size_t			 i;

	rulestest_rng(&rng, 1, 0);
	ck_assert_ptr_null(game_setup(1, opts, &rng, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "2 to 4 players"));
	ck_assert_ptr_null(game_setup(5, opts, &rng, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "not 5"));
	for (n = 2; n <= 4; n++) {
		rulestest_rng(&rng, (uint64_t)n, 0);
		st = game_setup(n, opts, &rng, err, sizeof(err));
		ck_assert_ptr_nonnull(st);
		s = M->save(st);
		hands = json_object_get(s, "hands");
		ck_assert_int_eq(json_array_size(hands), n);
		for (seat = 0; seat < n; seat++) {
			json_t *h = json_array_get(hands, (size_t)seat);
			ck_assert_int_eq(json_array_size(h), 7);
			missions = 0;
			for (i = 0; i < json_array_size(h); i++)
				missions += json_string_value(
				    json_array_get(h, i))[0] == 'M';
			ck_assert_int_eq(missions, 2);
		}
		ck_assert_int_eq(json_array_size(json_object_get(s,
		    "galaxy_deck")), 50 - 5 * n);
		ck_assert_int_eq(json_array_size(json_object_get(s,
		    "mission_deck")), 24 - 2 * n);
		ck_assert_int_eq(json_array_size(json_object_get(s,
		    "discard")), 0);
		ck_assert_int_eq(json_integer_value(json_object_get(s,
		    "first")), actor(st));
		json_decref(s);
		M->destroy(st);
	}
	json_decref(opts);
}
END_TEST

START_TEST(test_setup_options)
{
	struct rules_rng	 rng;
	json_t			*opts;
	char			 err[RULES_ERRLEN];

	opts = json_pack("{s:i}", "variant", 1);
	rulestest_rng(&rng, 1, 0);
	ck_assert_ptr_null(game_setup(3, opts, &rng, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "unknown option \"variant\""));
	json_decref(opts);
}
END_TEST

START_TEST(test_setup_deterministic)
{
	void	*a, *b, *c;
	char	*sa, *sb, *sc;

	a = new_game(3, 42);
	b = new_game(3, 42);
	c = new_game(3, 43);
	sa = dump_state(a);
	sb = dump_state(b);
	sc = dump_state(c);
	ck_assert_str_eq(sa, sb);
	ck_assert_str_ne(sa, sc);
	free(sa);
	free(sb);
	free(sc);
	M->destroy(a);
	M->destroy(b);
	M->destroy(c);
}
END_TEST

/*
 * save and load
 */
static void
round_trip(const void *st)
{
	json_t	*j = M->save(st);
	char	 err[RULES_ERRLEN], *a, *b;
	void	*copy;

	copy = game_load(j, err, sizeof(err));
	ck_assert_msg(copy != NULL, "load refused save(): %s", err);
	a = dump_state(st);
	b = dump_state(copy);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	json_decref(j);
	M->destroy(copy);
}

START_TEST(test_save_load_round_trip)
{
	void	*st = new_game(4, 7);

	round_trip(st);
	play_ok(st, actor(st), "draw galaxy");		/* half a turn */
	round_trip(st);
	play_ok(st, actor(st), "discard drawn");
	round_trip(st);
	play_ok(st, actor(st), "draw missions, discard drawn 1, drawn 2");
	round_trip(st);
	M->destroy(st);
}
END_TEST

/* load() of save() edited by fn refuses with a message holding phrase. */
static void
load_refuses(void (*fn)(json_t *), const char *phrase)
{
	void	*st = new_game(3, 11);
	json_t	*j;
	char	 err[RULES_ERRLEN];

	play_ok(st, actor(st), "draw galaxy, discard drawn");
	j = M->save(st);
	fn(j);
	err[0] = '\0';
	ck_assert_ptr_null(game_load(j, err, sizeof(err)));
	ck_assert_msg(strstr(err, phrase) != NULL, "\"%s\" lacks \"%s\"",
	    err, phrase);
	json_decref(j);
	M->destroy(st);
}

static void
dup_card(json_t *j)
{
	json_t	*h0 = json_array_get(json_object_get(j, "hands"), 0);
	json_t	*g = json_object_get(j, "galaxy_deck");

	json_array_set(g, 0, json_array_get(h0, 0));
}

static void
drop_card(json_t *j)
{
	json_array_remove(json_object_get(j, "galaxy_deck"), 0);
}

static void
bad_seat(json_t *j)
{
	json_object_set_new(j, "current", json_integer(7));
}

static void
bad_nseats(json_t *j)
{
	json_object_set_new(j, "nseats", json_integer(5));
}

static void
bad_id(json_t *j)
{
	json_array_set_new(json_object_get(j, "galaxy_deck"), 0,
	    json_string("G51"));
}

static void
mission_in_galaxy(json_t *j)
{
	json_t	*g = json_object_get(j, "galaxy_deck");
	json_t	*m = json_object_get(j, "mission_deck");
	json_t	*x = json_incref(json_array_get(g, 0));

	json_array_set(g, 0, json_array_get(m, 0));
	json_array_set_new(m, 0, x);
}

static void
unsorted_hand(json_t *j)
{
	json_t	*h = json_array_get(json_object_get(j, "hands"), 1);
	json_t	*x = json_incref(json_array_get(h, 0));

	json_array_remove(h, 0);
	json_array_append_new(h, x);
}

static int
cmp_ids(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
third_mission(json_t *j)
{
	/* Hand 0 gives a Galaxy card to the Galaxy deck and takes a Mission
	 * from the Mission deck: three Missions, still in card order. */
	json_t		*h = json_array_get(json_object_get(j, "hands"), 0);
	json_t		*m = json_object_get(j, "mission_deck");
	json_t		*g = json_object_get(j, "galaxy_deck");
	const char	*ids[8];
	size_t		 i, n;

	json_array_append(g, json_array_get(h, 0));
	json_array_remove(h, 0);
	json_array_append(h, json_array_get(m, 0));
	json_array_remove(m, 0);
	n = json_array_size(h);
	for (i = 0; i < n; i++)
		ids[i] = json_string_value(json_array_get(h, i));
	qsort(ids, n, sizeof(ids[0]), cmp_ids);
	m = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(m, json_string(ids[i]));
	json_array_clear(h);
	json_array_extend(h, m);
	json_decref(m);
}

static void
extra_key(json_t *j)
{
	json_object_set_new(j, "cheat", json_true());
}

static void
bad_phase(json_t *j)
{
	json_object_set_new(j, "phase", json_string("lunch"));
}

static void
not_object(json_t *j)
{
	json_object_clear(j);
}

START_TEST(test_load_refuses)
{
	char	 err[RULES_ERRLEN];
	json_t	*arr = json_array();

	load_refuses(dup_card, "appears twice");
	load_refuses(drop_card, "is missing");
	load_refuses(bad_seat, "current");
	load_refuses(bad_nseats, "nseats");
	load_refuses(bad_id, "not a card id");
	load_refuses(mission_in_galaxy, "does not belong");
	load_refuses(unsorted_hand, "not in card order");
	load_refuses(third_mission, "1 or 2 Mission");
	load_refuses(extra_key, "unexpected or missing keys");
	load_refuses(bad_phase, "phase");
	load_refuses(not_object, "unexpected or missing keys");
	ck_assert_ptr_null(game_load(arr, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "not a JSON object"));
	json_decref(arr);
}
END_TEST

/*
 * The three turn options.
 */
START_TEST(test_turn_take)
{
	const char *const hands[] = {
		"G01 G02 G03 G04 G05 M01 M02",
		"G06 G07 G08 G09 G10 M03 M04"
	};
	void	*st = craft(2, 0, hands, "G27 G12", "", "");

	play_ok(st, 0, "take Lieutenant Worf, discard G01");
	ck_assert(holds(st, 0, "G27"));
	ck_assert(!holds(st, 0, "G01"));
	ck_assert_int_eq(actor(st), 1);
	ck_assert_int_eq(view_int(st, RULES_VIEW_PUBLIC, "discard_galaxy"), 2);
	/* The discard area keeps its order: the new card goes last. */
	{
		json_t *s = M->save(st), *d = json_object_get(s, "discard");
		ck_assert_str_eq(json_string_value(json_array_get(d, 0)),
		    "G12");
		ck_assert_str_eq(json_string_value(json_array_get(d, 1)),
		    "G01");
		json_decref(s);
	}
	M->destroy(st);
}
END_TEST

START_TEST(test_turn_galaxy)
{
	void	*st = craft(2, 0, two_hands, "", "G30", "");

	play_ok(st, 0, "draw galaxy, discard G01");
	ck_assert(holds(st, 0, "G30"));		/* the top card was drawn */
	ck_assert(!holds(st, 0, "G01"));
	ck_assert_int_eq(hand_size(st, 0), 7);
	ck_assert_int_eq(view_int(st, RULES_VIEW_PUBLIC, "galaxy_deck"), 39);
	M->destroy(st);

	st = craft(2, 0, two_hands, "", "G30", "");
	play_ok(st, 0, "draw galaxy, discard drawn");
	ck_assert(!holds(st, 0, "G30"));
	ck_assert_int_eq(view_int(st, RULES_VIEW_PUBLIC, "discard_galaxy"), 1);
	M->destroy(st);
}
END_TEST

START_TEST(test_turn_missions)
{
	void	*st = craft(2, 0, two_hands, "", "", "M10 M11");

	play_ok(st, 0, "draw missions, discard M01 and drawn 2");
	ck_assert(holds(st, 0, "M10"));
	ck_assert(!holds(st, 0, "M11"));
	ck_assert(!holds(st, 0, "M01"));
	ck_assert(holds(st, 0, "M02"));
	ck_assert_int_eq(hand_size(st, 0), 7);
	ck_assert_int_eq(view_int(st, RULES_VIEW_PUBLIC, "mission_deck"), 18);
	ck_assert_int_eq(view_int(st, RULES_VIEW_PUBLIC, "discard_mission"), 2);
	M->destroy(st);
}
END_TEST

/* A turn sent in two halves: the drawn card is seen before discarding. */
START_TEST(test_turn_in_two_parts)
{
	void	*st = craft(2, 0, two_hands, "", "G30", "");
	json_t	*v;
	char	*pub;

	play_ok(st, 0, "draw galaxy");
	ck_assert_int_eq(actor(st), 0);
	ck_assert_int_eq(hand_size(st, 0), 8);
	v = M->view(st, 0);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(
	    v, "pending"), "action")), "galaxy");
	json_decref(v);
	pub = dump_view(st, 1);
	ck_assert_ptr_null(strstr(pub, "G30"));	/* seat 1 does not see it */
	free(pub);
	refused(st, 0, "draw missions", RULES_ILLEGAL, "already drawn",
	    "discard <a card>");
	refused(st, 0, "discard G30, G01", RULES_ILLEGAL,
	    "Discard exactly one card", NULL);
	play_ok(st, 0, "discard Lwaxana");
	ck_assert(!holds(st, 0, "G30"));
	ck_assert_int_eq(actor(st), 1);
	M->destroy(st);

	st = craft(2, 0, two_hands, "G12", "", "");
	play_ok(st, 0, "take computer");
	refused(st, 0, "discard computer", RULES_ILLEGAL, "different card",
	    NULL);
	play_ok(st, 0, "discard G05");
	ck_assert_int_eq(actor(st), 1);
	M->destroy(st);
}
END_TEST

/*
 * Refusals: the status, the key words of the message, nothing changed.
 */
START_TEST(test_refusals)
{
	const char *const hands[] = {
		"G01 G02 G03 G04 G05 M01 M02",
		"G06 G07 G08 G09 G10 M03 M04"
	};
	void	*st = craft(2, 0, hands, "G27 M05", "G30", "M10 M11");

	refused(st, 1, "draw galaxy, discard G06", RULES_NOT_YOUR_TURN,
	    "It is not your turn", "seat 0");
	refused(st, 0, "draw galaxy, discard Ordinateur", RULES_ILLEGAL,
	    "You do not hold Computer (G12); your hand: Ambassador K'Ehleyr",
	    "Legal now:");
	refused_lang(st, 0, "piocher galaxie, défausser Ordinateur",
	    RULES_LANG_FR, RULES_ILLEGAL, "Vous n'avez pas Ordinateur (G12)",
	    "Possible maintenant");
	refused(st, 0, "take G12, discard G01", RULES_ILLEGAL,
	    "Computer (G12) is not in the discard area; it holds: "
	    "Lieutenant Worf (G27), Diplomatic Conference (M05)", NULL);
	refused(st, 0, "take Worf, discard Worf", RULES_ILLEGAL,
	    "different card", NULL);
	refused(st, 0, "take M05, discard G01", RULES_ILLEGAL,
	    "you would hold 3 Mission cards; you must keep 1 or 2", NULL);
	M->destroy(st);

	st = craft(2, 0, hands, "G27 M05", "G30", "M10 M11");
	play_ok(st, 0, "draw galaxy, discard M01");
	/* Seat 1 now: 2 Missions, so a Mission draw must shed both. */
	refused(st, 1, "draw missions, discard G06, G07", RULES_ILLEGAL,
	    "you would hold 4 Mission cards", NULL);
	refused(st, 1, "draw missions, discard drawn 1, drawn 1",
	    RULES_ILLEGAL, "the first drawn Mission is named twice", NULL);
	refused(st, 1, "draw missions, discard G06", RULES_ILLEGAL,
	    "Discard exactly two cards; you named 1", NULL);
	refused(st, 1, "take G27, discard M03, M04", RULES_ILLEGAL,
	    "Discard exactly one card", NULL);
	refused(st, 1, "take G27, discard drawn", RULES_ILLEGAL,
	    "no such card is drawn", NULL);
	refused(st, 1, "discard G06", RULES_ILLEGAL, "Take a card from the "
	    "discard area or draw before you discard", NULL);
	refused(st, 1, "q take G27, discard G06", RULES_ILLEGAL,
	    "only when the game has ended", NULL);
	/* Naming the hidden top card does not reveal it. */
	refused(st, 1, "draw galaxy, discard G11", RULES_ILLEGAL,
	    "You do not hold Commander William Riker (G11)", NULL);
	M->destroy(st);
}
END_TEST

START_TEST(test_refusal_zero_missions)
{
	const char *const hands[] = {
		"G01 G02 G03 G04 G05 G06 M01",
		"G07 G08 G09 G10 G11 M03 M04"
	};
	void	*st = craft(2, 0, hands, "G27", "", "");

	refused(st, 0, "take G27, discard M01", RULES_ILLEGAL,
	    "you would hold 0 Mission cards", NULL);
	refused(st, 0, "draw galaxy, discard Away Team", RULES_ILLEGAL,
	    "you would hold 0 Mission cards", NULL);
	play_ok(st, 0, "draw missions, discard M01, drawn 2");
	M->destroy(st);
}
END_TEST

/* A message that does not fit is cut, marked, and still valid UTF-8. */
START_TEST(test_message_cut)
{
	void		*st = craft(2, 0, two_hands, "G27 M05", "", "");
	json_t		*mv = NULL, *j;
	char		 err[RULES_ERRLEN];
	size_t		 len;

	ck_assert_int_eq(M->parse(st, 0, "prendre Ordinateur, défausser G01",
	    RULES_LANG_FR, &mv, err, sizeof(err)), RULES_OK);
	for (len = 4; len < 120; len++) {
		memset(err, 'x', sizeof(err));
		ck_assert_int_eq(M->check(st, 0, mv, RULES_LANG_FR, err, len),
		    RULES_ILLEGAL);
		ck_assert_uint_lt(strlen(err), len);
		ck_assert_str_eq(err + strlen(err) - 3, "...");
		j = json_string(err);		/* NULL if not valid UTF-8 */
		ck_assert_ptr_nonnull(j);
		json_decref(j);
	}
	json_decref(mv);
	M->destroy(st);
}
END_TEST

/* Options that cannot be performed are refused and not offered. */
START_TEST(test_unavailable_options)
{
	void	*st = craft(2, 0, two_hands, "", "", "");
	json_t	*legal, *forms;
	size_t	 i;

	refused(st, 0, "take G27, discard G01", RULES_ILLEGAL,
	    "The discard area is empty", NULL);
	legal = M->legal_moves(st, 0);
	for (i = 0; i < json_array_size(legal); i++)
		ck_assert_ptr_null(strstr(json_string_value(
		    json_array_get(legal, i)), "take"));
	json_decref(legal);
	forms = M->move_forms(st, 0, RULES_LANG_EN);
	ck_assert_ptr_null(strstr(json_string_value(json_array_get(forms, 0)),
	    "take"));
	json_decref(forms);
	M->destroy(st);
}
END_TEST

/* An extra turn after the game ended, with empty decks: a position no
 * game reaches with 74 cards, loaded to see each refusal. */
START_TEST(test_empty_decks)
{
	json_t	*s, *g, *m, *d;
	void	*st = craft(2, 0, two_hands, "", "", "");
	char	 err[RULES_ERRLEN];
	json_t	*legal;
	size_t	 i;

	s = M->save(st);
	M->destroy(st);
	g = json_object_get(s, "galaxy_deck");
	m = json_object_get(s, "mission_deck");
	d = json_object_get(s, "discard");
	json_array_extend(d, g);
	json_array_clear(g);
	while (json_array_size(m) > 1) {
		json_array_append(d, json_array_get(m, 0));
		json_array_remove(m, 0);
	}
	json_object_set_new(s, "extra_now", json_true());
	json_object_set_new(s, "ending", json_true());
	json_object_set_new(s, "end_reasons", json_pack("[s,s]",
	    "discard_galaxy", "galaxy_deck_empty"));
	st = game_load(s, err, sizeof(err));
	ck_assert_msg(st != NULL, "%s", err);
	json_decref(s);
	refused(st, 0, "draw galaxy, discard drawn", RULES_ILLEGAL,
	    "The Galaxy deck is empty", NULL);
	refused(st, 0, "draw missions, discard drawn 1, drawn 2",
	    RULES_ILLEGAL, "The Mission deck holds 1 card(s); drawing "
	    "Missions needs two", NULL);
	legal = M->legal_moves(st, 0);
	ck_assert_int_gt(json_array_size(legal), 0);
	for (i = 0; i < json_array_size(legal); i++)
		ck_assert_ptr_nonnull(strstr(json_string_value(
		    json_array_get(legal, i)), "take"));
	json_decref(legal);
	play_ok(st, 0, "take G11, discard G01");	/* the extra turn */
	ck_assert(view_over(st));
	M->destroy(st);
}
END_TEST

/*
 * The end of the game.
 */
START_TEST(test_end_eight_galaxy)
{
	void	*st = craft(2, 1, two_hands,
	    "G11 G12 G13 G14 G15 G16 G17 M05", "G30", "");
	json_t	*r, *v;

	ck_assert_ptr_null(M->result(st));
	play_ok(st, 1, "draw galaxy, discard drawn");
	ck_assert(view_over(st));
	ck_assert_int_eq(M->to_act(st, NULL, 0), 0);
	refused(st, 0, "draw galaxy, discard drawn", RULES_GAME_OVER,
	    "The game is over", NULL);
	r = M->result(st);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(json_array_size(json_object_get(r, "scores")), 2);
	ck_assert_int_ge(json_array_size(json_object_get(r, "winners")), 1);
	ck_assert_int_eq(json_array_size(json_object_get(r, "breakdown")), 2);
	json_decref(r);
	v = M->view(st, RULES_VIEW_PUBLIC);
	ck_assert_int_eq(json_array_size(json_object_get(v, "hands")), 2);
	ck_assert_ptr_nonnull(json_object_get(v, "result"));
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(v,
	    "end_reasons"), 0)), "discard_galaxy");
	json_decref(v);
	M->destroy(st);
}
END_TEST

START_TEST(test_end_twelve_missions)
{
	void	*st = craft(2, 0, two_hands,
	    "M05 M06 M07 M08 M09 M10 M11 M12 M13 M14", "", "M15 M16");
	play_ok(st, 0, "draw missions, discard drawn 1, drawn 2");
	ck_assert(view_over(st));
	M->destroy(st);

	/* Eleven are not enough. */
	st = craft(2, 0, two_hands,
	    "M05 M06 M07 M08 M09 M10 M11 M12 M13", "", "M15 M16");
	play_ok(st, 0, "draw missions, discard drawn 1, drawn 2");
	ck_assert(!view_over(st));
	M->destroy(st);
}
END_TEST

/* The project's rule: an empty Galaxy deck ends the game. */
START_TEST(test_end_galaxy_empty)
{
	json_t	*s, *g, *d, *v, *reasons;
	void	*st = craft(2, 0, two_hands, "", "", "");
	char	 err[RULES_ERRLEN];
	size_t	 i;
	int	 found = 0;

	s = M->save(st);
	M->destroy(st);
	g = json_object_get(s, "galaxy_deck");
	d = json_object_get(s, "discard");
	while (json_array_size(g) > 1) {
		json_array_append(d, json_array_get(g, 0));
		json_array_remove(g, 0);
	}
	st = game_load(s, err, sizeof(err));
	ck_assert_msg(st != NULL, "%s", err);
	json_decref(s);
	play_ok(st, 0, "draw galaxy, discard G01");
	ck_assert(view_over(st));
	v = M->view(st, RULES_VIEW_PUBLIC);
	reasons = json_object_get(v, "end_reasons");
	for (i = 0; i < json_array_size(reasons); i++)
		if (strcmp(json_string_value(json_array_get(reasons, i)),
		    "galaxy_deck_empty") == 0)
			found = 1;
	ck_assert(found);
	ck_assert_int_eq(json_integer_value(json_object_get(v,
	    "galaxy_deck")), 0);
	json_decref(v);
	M->destroy(st);
}
END_TEST

/*
 * Time Distortion.
 */
START_TEST(test_time_distortion)
{
	void	*st = craft(3, 0, (const char *const[]){
	    "G01 G02 G03 G04 G05 M01 M02", "G06 G07 G08 G09 G10 M03 M04",
	    "G11 G12 G13 G14 G15 M05 M06" }, "M23 G20", "", "");
	json_t	*v, *x;

	play_ok(st, 0, "take Time Distortion, discard M01");
	ck_assert_int_eq(actor(st), 0);		/* the extra turn */
	v = M->view(st, 2);
	x = json_object_get(v, "extra_turn");
	ck_assert(json_is_true(json_object_get(x, "now")));
	ck_assert_int_eq(json_integer_value(json_object_get(x, "seat")), 0);
	json_decref(v);
	play_ok(st, 0, "draw galaxy, discard drawn");
	ck_assert_int_eq(actor(st), 1);
	v = M->view(st, 1);
	ck_assert(json_is_null(json_object_get(v, "extra_turn")));
	json_decref(v);
	M->destroy(st);
}
END_TEST

START_TEST(test_time_distortion_at_end)
{
	/* Seven Galaxy cards and Time Distortion in the discard area: the
	 * take-and-discard makes it eight, which ends the game -- after the
	 * extra turn. */
	const char *const hands[] = {
		"G01 G02 G03 G04 G05 G06 M01",
		"G07 G08 G09 G10 G18 M03 M04"
	};
	void	*st = craft(2, 0, hands,
	    "G11 G12 G13 G14 G15 G16 G17 M23", "", "");
	json_t	*v;

	play_ok(st, 0, "take M23, discard G01");
	ck_assert(!view_over(st));
	ck_assert_int_eq(actor(st), 0);
	v = M->view(st, RULES_VIEW_PUBLIC);
	ck_assert(json_is_true(json_object_get(v, "ending")));
	json_decref(v);
	round_trip(st);
	play_ok(st, 0, "take G11, discard M01");  /* back to seven Galaxy */
	ck_assert(view_over(st));
	M->destroy(st);

	/* Split in two halves, the extra turn is still owed. */
	st = craft(2, 1, two_hands, "M23 G20", "", "");
	play_ok(st, 1, "take M23");
	round_trip(st);
	play_ok(st, 1, "discard M03");
	ck_assert_int_eq(actor(st), 1);
	M->destroy(st);
}
END_TEST

/*
 * Meddlesome Q.
 */
static void *
q_game(const char *q_hand, const char *discard, const char *galaxy_top,
    const char *mission_top)
{
	const char *hands[2] = { "G01 G02 G03 G04 G05 M01 M02", q_hand };
	void	*st;

	/* Seat 0 ends the game with the eighth Galaxy discard. */
	st = craft(2, 0, hands, discard, galaxy_top, mission_top);
	play_ok(st, 0, "draw galaxy, discard drawn");
	return st;
}

START_TEST(test_meddlesome_q)
{
	void	*st;
	json_t	*v;
	int	 seats[4];

	st = q_game("G06 G07 G08 G09 G10 M03 M18",
	    "G11 G12 G13 G14 G15 G16 G17", "G30", "M10");
	ck_assert(!view_over(st));
	ck_assert_int_eq(M->to_act(st, seats, 4), 1);
	ck_assert_int_eq(seats[0], 1);
	v = M->view(st, RULES_VIEW_PUBLIC);
	ck_assert_str_eq(json_string_value(json_object_get(v, "phase")),
	    "q_draw");
	ck_assert(json_is_true(json_object_get(v, "ending")));
	ck_assert(json_is_null(json_object_get(v, "extra_turn")));
	json_decref(v);
	refused(st, 0, "draw galaxy, discard drawn", RULES_NOT_YOUR_TURN,
	    "Meddlesome Q", NULL);
	refused(st, 1, "q take G12, discard Meddlesome Q", RULES_ILLEGAL,
	    "You may not discard Meddlesome Q", NULL);
	refused(st, 1, "q take G12, discard G06", RULES_ILLEGAL,
	    "exactly one other Mission card; this would leave 2", NULL);
	refused(st, 1, "q take Bat'leth, discard G06", RULES_ILLEGAL,
	    "Bat'leth (G03) is not in the discard area", NULL);
	round_trip(st);
	play_ok(st, 1, "q take G12, discard M03");
	ck_assert(view_over(st));
	ck_assert_int_eq(hand_size(st, 1), 9);
	ck_assert(holds(st, 1, "G12"));
	ck_assert(holds(st, 1, "G18"));		/* next Galaxy card */
	ck_assert(holds(st, 1, "M10"));
	ck_assert(holds(st, 1, "M18"));
	ck_assert(!holds(st, 1, "M03"));
	v = M->view(st, RULES_VIEW_PUBLIC);
	ck_assert(json_is_false(json_object_get(v, "ending")));
	json_decref(v);
	round_trip(st);
	M->destroy(st);
}
END_TEST

START_TEST(test_meddlesome_q_french_and_halves)
{
	void	*st;

	st = q_game("G06 G07 G08 G09 G10 M03 M18",
	    "G11 G12 G13 G14 G15 G16 G17", "G30", "M10");
	ck_assert_int_eq(play_lang(st, 1, "q prendre Ordinateur, défausser "
	    "la mission piochée", RULES_LANG_FR, (char[RULES_ERRLEN]){ 0 },
	    RULES_ERRLEN), RULES_OK);
	ck_assert(view_over(st));
	ck_assert(!holds(st, 1, "M10"));
	M->destroy(st);

	/* In two halves: the drawn cards are seen, then one is discarded. */
	st = q_game("G06 G07 G08 G09 G10 M03 M18",
	    "G11 G12 G13 G14 G15 G16 G17", "G30", "M10");
	play_ok(st, 1, "take G13");		/* "q" may be left out */
	ck_assert_int_eq(hand_size(st, 1), 10);
	round_trip(st);
	refused(st, 1, "discard G13", RULES_ILLEGAL,
	    "exactly one other Mission", NULL);
	play_ok(st, 1, "discard M10");
	ck_assert(view_over(st));
	ck_assert_int_eq(hand_size(st, 1), 9);
	M->destroy(st);
}
END_TEST

START_TEST(test_meddlesome_q_needs_mission)
{
	void	*st;

	/* Q is the holder's only Mission and the Mission deck is empty. */
	st = q_game("G06 G07 G08 G09 G10 G18 M18",
	    "G11 G12 G13 G14 G15 G16 G17 M03 M04 M05 M06 M07 M08 M09 M10 "
	    "M11 M12 M13 M14 M15 M16 M17 M19 M20 M21 M22 M23 M24",
	    "G30", "");
	refused(st, 1, "q take G12, discard G06", RULES_ILLEGAL,
	    "take a Mission card from the discard area", NULL);
	play_ok(st, 1, "q take M05, discard G06");
	ck_assert(view_over(st));
	ck_assert_int_eq(hand_size(st, 1), 8);	/* no Mission to draw */
	M->destroy(st);
}
END_TEST

START_TEST(test_meddlesome_q_two_discards)
{
	void	*st;
	const char *hands[2] = {
		"G01 G02 G03 G04 G05 M01 M02",
		"G06 G07 G08 G09 G10 M03 M18"
	};
	json_t	*legal;

	/* A Galaxy card is on offer: taking a Mission is refused. */
	st = q_game("G06 G07 G08 G09 G10 M03 M18",
	    "G11 G12 G13 G14 G15 G16 G17 M05", "G30", "M10");
	refused(st, 1, "q take M05, discard M03", RULES_ILLEGAL,
	    "take a Galaxy card", NULL);
	M->destroy(st);

	/* Only Missions in the discard area: two Missions go. Seat 0 ends
	 * the game with the twelfth Mission discard. */
	st = craft(2, 0, hands,
	    "M04 M05 M06 M07 M08 M09 M11 M12 M13 M14", "", "M15 M16 M10");
	play_ok(st, 0, "draw missions, discard drawn 1, drawn 2");
	ck_assert_int_eq(actor(st), 1);
	refused(st, 1, "q take M05, discard M03", RULES_ILLEGAL,
	    "Discard exactly two cards", NULL);
	legal = M->legal_moves(st, 1);
	ck_assert_int_gt(json_array_size(legal), 0);
	json_decref(legal);
	play_ok(st, 1, "q take M05, discard M03, drawn mission");
	ck_assert(view_over(st));
	ck_assert_int_eq(hand_size(st, 1), 8);
	ck_assert(holds(st, 1, "M05"));
	ck_assert(holds(st, 1, "M18"));
	round_trip(st);
	M->destroy(st);
}
END_TEST

/* Meddlesome Q taking Time Distortion gets no extra turn: it is over. */
START_TEST(test_meddlesome_q_time_distortion)
{
	void	*st;

	st = q_game("G06 G07 G08 G09 G10 G18 M18",
	    "G11 G12 G13 G14 G15 G16 G17 M23", "G30", "M10");
	play_ok(st, 1, "q take M23, discard drawn mission");
	ck_assert(view_over(st));
	ck_assert(holds(st, 1, "M23"));
	M->destroy(st);
}
END_TEST

/*
 * Parsing.
 */
START_TEST(test_parse_forms)
{
	const char *const hands[] = {
		"G01 G02 G03 G04 G12 M01 M02",
		"G06 G07 G08 G09 G10 M03 M04"
	};
	void	*st = craft(2, 0, hands, "G27 G29 M05", "", "");

	parses_to(st, 0, "draw galaxy, discard Borg Cube",
	    "{\"action\":\"galaxy\",\"discard\":[\"M02\"]}");
	parses_to(st, 0, "piocher galaxie, défausser Cube Borg",
	    "{\"action\":\"galaxy\",\"discard\":[\"M02\"]}");
	parses_to(st, 0, "take Lieutenant Worf, discard G12",
	    "{\"action\":\"take\",\"card\":\"G27\",\"discard\":[\"G12\"]}");
	parses_to(st, 0, "prendre Lieutenant Worf, défausser Ordinateur",
	    "{\"action\":\"take\",\"card\":\"G27\",\"discard\":[\"G12\"]}");
	parses_to(st, 0, "draw missions, discard M02, discard Computer",
	    "{\"action\":\"missions\",\"discard\":[\"M02\",\"G12\"]}");
	parses_to(st, 0, "draw mission, discard M02 and Computer",
	    "{\"action\":\"missions\",\"discard\":[\"M02\",\"G12\"]}");
	parses_to(st, 0, "piocher missions, défausser M02, Ordinateur",
	    "{\"action\":\"missions\",\"discard\":[\"M02\",\"G12\"]}");
	parses_to(st, 0, "draw galaxy then discard drawn",
	    "{\"action\":\"galaxy\",\"discard\":[\"drawn\"]}");
	parses_to(st, 0, "piocher galaxie puis défausser la carte piochée",
	    "{\"action\":\"galaxy\",\"discard\":[\"drawn\"]}");
	parses_to(st, 0, "draw missions; discard drawn 2; discard drawn",
	    "{\"action\":\"missions\",\"discard\":[\"drawn2\",\"drawn1\"]}");
	parses_to(st, 0, "piocher missions et défausser piochée 1 et "
	    "piochée 2",
	    "{\"action\":\"missions\",\"discard\":[\"drawn1\",\"drawn2\"]}");
	parses_to(st, 0, "draw missions, discard both drawn",
	    "{\"action\":\"missions\",\"discard\":[\"drawn1\",\"drawn2\"]}");
	parses_to(st, 0, "piocher 2 missions, défausser les deux piochées",
	    "{\"action\":\"missions\",\"discard\":[\"drawn1\",\"drawn2\"]}");
	parses_to(st, 0, "DÉFAUSSER cube borg",
	    "{\"action\":\"discard\",\"discard\":[\"M02\"]}");
	parses_to(st, 0, "defausser Cube Borg",
	    "{\"action\":\"discard\",\"discard\":[\"M02\"]}");
	parses_to(st, 0, "  Draw   GALAXY ,discard  g12 ",
	    "{\"action\":\"galaxy\",\"discard\":[\"G12\"]}");
	parses_to(st, 0, "take Lursa and B'Etor, discard K’Ehleyr",
	    "{\"action\":\"take\",\"card\":\"G29\",\"discard\":[\"G01\"]}");
	parses_to(st, 0, "prendre Lursa et B’Etor et défausser "
	    "l'Ambassadeur K'Ehleyr",
	    "{\"action\":\"take\",\"card\":\"G29\",\"discard\":[\"G01\"]}");
	parses_to(st, 0, "take lursa, discard sarek and borg",
	    "{\"action\":\"take\",\"card\":\"G29\",\"discard\":[\"G02\","
	    "\"M02\"]}");
	parses_to(st, 0, "take Worf", "{\"action\":\"take\",\"card\":\"G27\"}");
	parses_to(st, 0, "prendre la pioche Galaxie",
	    "{\"action\":\"galaxy\"}");
	parses_to(st, 0, "draw the top two mission cards",
	    "{\"action\":\"missions\"}");
	parses_to(st, 0, "take Worf, discard the Bridge",
	    "{\"action\":\"take\",\"card\":\"G27\",\"discard\":[\"G04\"]}");
	/* Part of a name: looked for in the hand first. */
	parses_to(st, 0, "draw galaxy, discard Away",
	    "{\"action\":\"galaxy\",\"discard\":[\"M01\"]}");
	M->destroy(st);
}
END_TEST

START_TEST(test_parse_errors)
{
	void	*st = craft(2, 0, two_hands, "G27", "", "");
	json_t	*mv = NULL;
	char	 err[RULES_ERRLEN];

	ck_assert_int_eq(M->parse(st, 0, "fly to Vulcan", RULES_LANG_EN, &mv,
	    err, sizeof(err)), RULES_SYNTAX);
	ck_assert_ptr_nonnull(strstr(err, "\"fly\""));
	ck_assert_ptr_nonnull(strstr(err, "Moves:"));
	ck_assert_int_eq(M->parse(st, 0, "draw galaxy, discard Kirk",
	    RULES_LANG_EN, &mv, err, sizeof(err)), RULES_SYNTAX);
	ck_assert_ptr_nonnull(strstr(err, "No card is called \"kirk\""));
	ck_assert_ptr_null(strstr(err, "Did you mean"));
	/* "Did you mean": the nearest of all 74 names (public), in the
	 * reader's language, and near keywords. */
	ck_assert_int_eq(M->parse(st, 0, "draw galaxy, discard Commander "
	    "Bruce Madox", RULES_LANG_EN, &mv, err, sizeof(err)),
	    RULES_SYNTAX);
	ck_assert_msg(strstr(err, "No card is called \"commander bruce madox"
	    "\". Did you mean Commander Bruce Maddox (G07)?") != NULL, "%s",
	    err);
	ck_assert_int_eq(M->parse(st, 0, "piocher galaxie, défausser "
	    "Commandant Bruce Madox", RULES_LANG_FR, &mv, err, sizeof(err)),
	    RULES_SYNTAX);
	ck_assert_msg(strstr(err, "Vouliez-vous dire Commandant Bruce Maddox "
	    "(G07) ?") != NULL, "%s", err);
	ck_assert_int_eq(M->parse(st, 0, "take Madox", RULES_LANG_EN, &mv,
	    err, sizeof(err)), RULES_SYNTAX);
	ck_assert_msg(strstr(err, "Did you mean Commander Bruce Maddox (G07)?")
	    != NULL, "%s", err);
	ck_assert_int_eq(M->parse(st, 0, "dicard G01", RULES_LANG_EN, &mv,
	    err, sizeof(err)), RULES_SYNTAX);
	ck_assert_msg(strstr(err, "Did you mean \"discard\"?") != NULL, "%s",
	    err);
	ck_assert_int_eq(M->parse(st, 0, "piocher galaxei", RULES_LANG_FR, &mv,
	    err, sizeof(err)), RULES_SYNTAX);
	ck_assert_msg(strstr(err, "Vouliez-vous dire « galaxie » ?") != NULL,
	    "%s", err);
	ck_assert_int_eq(M->parse(st, 0, "draw galaxy, discard Commander",
	    RULES_LANG_EN, &mv, err, sizeof(err)), RULES_SYNTAX);
	ck_assert_ptr_nonnull(strstr(err, "\"commander\" could be "));
	ck_assert_ptr_nonnull(strstr(err, "Commander Kurn (G08)"));
	ck_assert_int_eq(M->parse(st, 0, "draw", RULES_LANG_EN, &mv, err,
	    sizeof(err)), RULES_SYNTAX);
	ck_assert_ptr_nonnull(strstr(err, "which deck"));
	ck_assert_int_eq(M->parse(st, 0, "piocher", RULES_LANG_FR, &mv, err,
	    sizeof(err)), RULES_SYNTAX);
	ck_assert_ptr_nonnull(strstr(err, "quelle pioche"));
	ck_assert_int_eq(M->parse(st, 0, "", RULES_LANG_EN, &mv, err,
	    sizeof(err)), RULES_SYNTAX);
	ck_assert_ptr_nonnull(strstr(err, "empty"));
	ck_assert_int_eq(M->parse(st, 0, "draw galaxy, discard G01, G02, G03",
	    RULES_LANG_EN, &mv, err, sizeof(err)), RULES_SYNTAX);
	ck_assert_ptr_nonnull(strstr(err, "at most two"));
	ck_assert_int_eq(M->parse(st, 0, "discard G01, draw galaxy",
	    RULES_LANG_EN, &mv, err, sizeof(err)), RULES_SYNTAX);
	ck_assert_ptr_nonnull(strstr(err, "must come first"));
	ck_assert_int_eq(M->parse(st, 0, "take worf computer", RULES_LANG_EN,
	    &mv, err, sizeof(err)), RULES_SYNTAX);
	ck_assert_int_eq(M->parse(st, 0, "draw galaxy, discard drawn 2",
	    RULES_LANG_EN, &mv, err, sizeof(err)), RULES_SYNTAX);
	ck_assert_ptr_nonnull(strstr(err, "Only one card"));
	ck_assert_int_eq(M->parse(st, 0, "draw galaxy, discard \xff\xfe",
	    RULES_LANG_EN, &mv, err, sizeof(err)), RULES_SYNTAX);
	ck_assert_ptr_null(mv);
	M->destroy(st);
}
END_TEST

/* Every legal move reads back and is accepted; forms exist for the seat
 * to act only. */
START_TEST(test_legal_moves_and_forms)
{
	void	*st = craft(2, 0, two_hands, "G27 M05", "", "");
	json_t	*legal, *mv, *forms;
	char	 err[RULES_ERRLEN];
	size_t	 i;

	legal = M->legal_moves(st, 0);
	ck_assert_int_gt(json_array_size(legal), 20);
	for (i = 0; i < json_array_size(legal); i++) {
		const char *text = json_string_value(json_array_get(legal, i));
		ck_assert_msg(M->parse(st, 0, text, RULES_LANG_EN, &mv, err,
		    sizeof(err)) == RULES_OK, "%s: %s", text, err);
		ck_assert_msg(M->check(st, 0, mv, RULES_LANG_EN, err,
		    sizeof(err)) == RULES_OK, "%s: %s", text, err);
		json_decref(mv);
	}
	json_decref(legal);
	legal = M->legal_moves(st, 1);
	ck_assert_int_eq(json_array_size(legal), 0);
	json_decref(legal);
	forms = M->move_forms(st, 0, RULES_LANG_EN);
	ck_assert_str_eq(json_string_value(json_array_get(forms, 0)),
	    "take <one of: Lieutenant Worf, Diplomatic Conference>, discard "
	    "<another card>");
	ck_assert_str_eq(json_string_value(json_array_get(forms, 1)),
	    "draw galaxy, discard <a card, or drawn>");
	json_decref(forms);
	forms = M->move_forms(st, 0, RULES_LANG_FR);
	ck_assert_str_eq(json_string_value(json_array_get(forms, 1)),
	    "piocher galaxie, défausser <une carte, ou piochée>");
	json_decref(forms);
	forms = M->move_forms(st, 1, RULES_LANG_EN);
	ck_assert_int_eq(json_array_size(forms), 0);
	json_decref(forms);
	M->destroy(st);
}
END_TEST

/*
 * Views.
 */
START_TEST(test_views)
{
	void	*st = craft(2, 0, two_hands, "G27", "G30", "");
	json_t	*v;
	char	*s;

	v = M->view(st, 0);
	ck_assert_str_eq(json_string_value(json_object_get(v, "game")),
	    "stmissions");
	ck_assert_int_eq(json_integer_value(json_object_get(v, "seat")), 0);
	ck_assert_int_eq(json_array_size(json_object_get(v, "hand")), 7);
	ck_assert_ptr_null(json_object_get(v, "hands"));
	ck_assert_ptr_null(json_object_get(v, "galaxy_order"));
	ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(v,
	    "to_act"), 0)), 0);
	ck_assert(json_is_false(json_object_get(v, "over")));
	ck_assert_ptr_nonnull(json_object_get(json_array_get(json_object_get(v,
	    "hand"), 0), "bonus_fr"));
	json_decref(v);
	s = dump_view(st, 0);
	ck_assert_ptr_null(strstr(s, "G06"));	/* seat 1's hand */
	ck_assert_ptr_null(strstr(s, "G30"));	/* the Galaxy top */
	ck_assert_ptr_nonnull(strstr(s, "G27"));	/* discard: public */
	free(s);
	v = M->view(st, RULES_VIEW_PUBLIC);
	ck_assert(json_is_null(json_object_get(v, "seat")));
	ck_assert_ptr_null(json_object_get(v, "hand"));
	ck_assert_ptr_null(json_object_get(v, "hands"));
	json_decref(v);
	v = M->view(st, RULES_VIEW_FULL);
	ck_assert_int_eq(json_array_size(json_object_get(v, "hands")), 2);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(v,
	    "galaxy_order"), 0)), "G30");
	json_decref(v);
	M->destroy(st);
}
END_TEST

/*
 * score_cards.
 */
START_TEST(test_score_cards)
{
	json_t	*r;
	char	 err[RULES_ERRLEN];

	r = M->score_cards("G27,G08,G01,G09,M05,G32,G04", RULES_LANG_EN, err,
	    sizeof(err));
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "total")), 66);
	json_decref(r);
	r = M->score_cards("Lieutenant Worf, Commander Kurn, Ambassadeur "
	    "K’Ehleyr, Sela, Conférence diplomatique, Photon Torpedoes, "
	    "Passerelle", RULES_LANG_FR, err, sizeof(err));
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "total")), 66);
	json_decref(r);
	ck_assert_ptr_null(M->score_cards("G27, Kirk", RULES_LANG_EN, err,
	    sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "No card is called \"kirk\""));
	ck_assert_ptr_null(M->score_cards("G27, Worf", RULES_LANG_EN, err,
	    sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "Lieutenant Worf (G27) is named "
	    "twice"));
	ck_assert_ptr_null(M->score_cards(" , ", RULES_LANG_EN, err,
	    sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "No cards given"));
	ck_assert_ptr_null(M->score_cards("G01,G02,G03,G04,G05,G06,G07,G08,"
	    "G09,G10,G11,G12,G13", RULES_LANG_EN, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "at most 12"));
	ck_assert_ptr_null(M->score_cards("Commander", RULES_LANG_EN, err,
	    sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "several cards"));
}
END_TEST

/*
 * rules_fold.
 */
static void
folds_to(const char *in, const char *want)
{
	char	out[256];

	ck_assert_int_eq(rules_fold(in, out, sizeof(out)), 0);
	ck_assert_msg(strcmp(out, want) == 0, "fold(\"%s\") = \"%s\", want "
	    "\"%s\"", in, out, want);
}

START_TEST(test_fold)
{
	char	out[8];

	folds_to("DÉFAUSSER Cube Borg", "defausser cube borg");
	folds_to("éèêëàâäîïôöùûüç", "eeeeaaaiioouuuc");
	folds_to("ÉÈÊËÀÂÄÎÏÔÖÙÛÜÇ", "eeeeaaaiioouuuc");
	folds_to("Œuvre cœur Æsir æ", "oeuvre coeur aesir ae");
	folds_to("ÿŸñÑßøØåÅ", "yynnssooaa");
	folds_to("ĀăĆčĎđĘěĞħĪıĲĵĶĹłŃňŌőŔřŚšŢťŨűŴŶŹžſ",
	    "aaccddeeghiiijjklln"
	    "noorrssttuuwyzzs");
	folds_to("K’Ehleyr K‘x Kʼy", "k'ehleyr k'x k'y");
	folds_to("  a \t\n b\xc2\xa0\xc2\xa0"
	    "c\xe2\x80\xaf?  ", "a b c ?");
	folds_to("×÷", "×÷");			/* not letters */
	folds_to("Ωμέγα", "Ωμέγα");		/* not Latin: unchanged */
	folds_to("Jean\xe2\x80\x91Luc", "jean-luc");
	/* Invalid UTF-8 is dropped, never overread. */
	folds_to("ab\xff" "cd", "abcd");
	folds_to("ab\xc3", "ab");
	folds_to("\xe2\x80", "");
	folds_to("\xc0\xaf" "x", "x");		/* overlong */
	folds_to("\xed\xa0\x80y", "y");		/* surrogate */
	/* Too small: truncated, still valid, -1. */
	ck_assert_int_eq(rules_fold("abcdefghij", out, sizeof(out)), -1);
	/* The shared "did you mean" distance (rules/text.c). */
	ck_assert_int_eq(rules_edit_distance("kitten", "sitting", 5), 3);
	ck_assert_int_eq(rules_edit_distance("kitten", "sitting", 2), 3);
	ck_assert_int_eq(rules_edit_distance("dicsard", "discard", 3), 1);
	ck_assert_int_eq(rules_edit_distance("", "abc", 5), 3);
	ck_assert_int_eq(rules_typo_limit("ab"), 0);
	ck_assert_str_eq(rules_nearest("tkae", (const char *const[]){ "take",
	    "draw", NULL }), "take");
	ck_assert_ptr_null(rules_nearest("take", (const char *const[]){
	    "take", "tame", NULL }));
	ck_assert_str_eq(out, "abcdefg");
	ck_assert_int_eq(rules_fold("abcdef\xc5\x93", out, sizeof(out)), -1);
	ck_assert_str_eq(out, "abcdef");
	ck_assert_int_eq(rules_fold("x", out, 0), -1);
	ck_assert_int_eq(rules_fold("", out, 1), 0);
	ck_assert_str_eq(out, "");
}
END_TEST

/*
 * Random play.  ck_assert records every passing check through a file,
 * which would cost more than the games; these loops only call check on
 * a failure.
 */
#define REQUIRE(cond, ...) do {						\
	if (!(cond))							\
		ck_abort_msg(__VA_ARGS__);				\
} while (0)

struct game_log {
	int	 nmoves;
	int	 cap;
	char	**moves;
	int	*seats;
};

static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Every card exactly once in the saved state; hands as the phase says. */
static void
check_invariants(const void *st, int nseats, int *ever_public)
{
	json_t		*s = M->save(st), *h;
	int		 seen[STM_NCARDS] = { 0 }, seat, c, missions, mid_seat;
	const char	*piles[] = { "galaxy_deck", "mission_deck", "discard" };
	const char	*phase;
	size_t		 i, k;

	for (k = 0; k < 3; k++) {
		json_t *p = json_object_get(s, piles[k]);
		for (i = 0; i < json_array_size(p); i++) {
			c = card_of(json_string_value(json_array_get(p, i)));
			REQUIRE(seen[c]++ == 0, "card %s twice",
			    stm_cards[c].id);
			if (k == 2)
				ever_public[c] = 1;
		}
	}
	phase = json_string_value(json_object_get(s, "phase"));
	mid_seat = -1;
	if (strcmp(phase, "discard") == 0 || strcmp(phase, "q_discard") == 0)
		M->to_act(st, &mid_seat, 1);
	for (seat = 0; seat < nseats; seat++) {
		h = json_array_get(json_object_get(s, "hands"), (size_t)seat);
		missions = 0;
		for (i = 0; i < json_array_size(h); i++) {
			c = card_of(json_string_value(json_array_get(h, i)));
			REQUIRE(seen[c]++ == 0, "card %s twice",
			    stm_cards[c].id);
			missions += c >= STM_NGALAXY;
		}
		if (seat == mid_seat)
			continue;	/* half a turn played: 8 to 10 cards */
		if (strcmp(phase, "over") == 0 && holds(st, seat, "M18"))
			REQUIRE(missions == 2 && json_array_size(h) >= 7 &&
			    json_array_size(h) <= 9, "Q's hand");
		else
			REQUIRE(json_array_size(h) == 7 && missions >= 1 &&
			    missions <= 2, "hand of seat %d", seat);
	}
	for (c = 0; c < STM_NCARDS; c++)
		REQUIRE(seen[c] == 1, "card %s lost", stm_cards[c].id);
	json_decref(s);
}

#define ALL_VIEWERS	(-100)

/* Every string in a view that is a card id must be one viewer may know:
 * a card that passed through the discard area (everyone saw it there and
 * saw who took it), or one in the viewer's own hand. */
static void
scan_ids(const json_t *v, int viewer, const int *owner, const int *ever_public)
{
	const char	*s, *key;
	json_t		*x;
	size_t		 i;
	int		 c;

	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			scan_ids(x, viewer, owner, ever_public);
	} else if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, x)
			scan_ids(x, viewer, owner, ever_public);
	} else if (json_is_string(v)) {
		s = json_string_value(v);
		if ((s[0] != 'G' && s[0] != 'M') || s[1] < '0' || s[1] > '9' ||
		    s[2] < '0' || s[2] > '9' || s[3] != '\0')
			return;
		c = card_of(s);
		REQUIRE(ever_public[c] || (viewer >= 0 && owner[c] == viewer),
		    "view of %d shows %s", viewer, s);
	}
}

/* Which seat holds each card (-1: a deck or the discard area); returns
 * 0 once the game is over and every hand is shown. */
static int
owners(const void *st, int nseats, int *owner)
{
	json_t	*s = M->save(st), *h;
	int	 seat, c, playing;
	size_t	 i;

	playing = strcmp(json_string_value(json_object_get(s, "phase")),
	    "over") != 0;
	for (c = 0; c < STM_NCARDS; c++)
		owner[c] = -1;
	for (seat = 0; seat < nseats; seat++) {
		h = json_array_get(json_object_get(s, "hands"), (size_t)seat);
		for (i = 0; i < json_array_size(h); i++)
			owner[card_of(json_string_value(
			    json_array_get(h, i)))] = seat;
	}
	json_decref(s);
	return playing;
}

/* A seat's view names no card id it may not know: not another seat's
 * cards (unless they passed through the discard area), not the decks. */
static void
check_hidden(const void *st, int nseats, const int *ever_public, int only)
{
	json_t	*v;
	int	 owner[STM_NCARDS], viewer;

	if (!owners(st, nseats, owner))
		return;
	for (viewer = RULES_VIEW_PUBLIC; viewer < nseats; viewer++) {
		if (only != ALL_VIEWERS && viewer != only)
			continue;
		v = M->view(st, viewer);
		scan_ids(v, viewer, owner, ever_public);
		json_decref(v);
	}
}

/*
 * Refusals name no card a seat may not know either.  Each seat sends
 * moves naming two random cards; every card id in the answer must be one
 * of those two, in the seat's hand, or public.
 */
static void
check_refusals_hidden(void *st, int nseats, const int *ever_public,
    uint64_t *r)
{
	static const char *const forms[] = {
		"take %s, discard %s", "draw galaxy, discard %s, %s",
		"draw missions, discard %s, %s", "discard %s, %s",
		"q take %s, discard %s", "draw galaxy, discard %s"
	};
	int	 owner[STM_NCARDS], seat, a, b, k, c;
	char	 text[64], err[RULES_ERRLEN], *p;
	json_t	*mv;

	if (!owners(st, nseats, owner))
		return;
	for (seat = 0; seat < nseats; seat++)
		for (k = 0; k < 6; k++) {
			a = (int)(next_rand(r) % STM_NCARDS);
			b = (int)(next_rand(r) % STM_NCARDS);
			snprintf(text, sizeof(text), forms[k],
			    stm_cards[a].id, stm_cards[b].id);
			err[0] = '\0';
			if (M->parse(st, seat, text, k % 2, &mv, err,
			    sizeof(err)) == RULES_OK) {
				M->check(st, seat, mv, k % 2, err, sizeof(err));
				json_decref(mv);
			}
			for (p = err; (p = strpbrk(p, "GM")) != NULL; p++) {
				if (p[1] < '0' || p[1] > '9' || p[2] < '0' ||
				    p[2] > '9' || (p[3] >= '0' && p[3] <= '9'))
					continue;
				c = (p[0] == 'G' ? 0 : STM_NGALAXY) +
				    (p[1] - '0') * 10 + (p[2] - '0') - 1;
				REQUIRE(c < 0 || c >= STM_NCARDS || c == a ||
				    c == b || ever_public[c] ||
				    owner[c] == seat, "\"%s\" for seat %d: %s",
				    text, seat, err);
			}
		}
}

static void
log_move(struct game_log *lg, int seat, const char *text)
{
	if (lg->nmoves == lg->cap) {
		lg->cap = lg->cap ? lg->cap * 2 : 128;
		lg->moves = realloc(lg->moves,
		    (size_t)lg->cap * sizeof(char *));
		lg->seats = realloc(lg->seats, (size_t)lg->cap * sizeof(int));
		REQUIRE(lg->moves != NULL && lg->seats != NULL,
		    "out of memory");
	}
	lg->moves[lg->nmoves] = strdup(text);
	lg->seats[lg->nmoves++] = seat;
}

#define MAX_MOVES	4000

static long total_moves, total_games, longest_game;

/* One random game.  After every move: the cards and hands, and one view
 * (in turn the public view and each seat's), or every view when deep is
 * set; at the end, a replay. */
static void
random_game(int nseats, uint64_t seed, int deep)
{
	struct game_log	 lg = { 0, 0, NULL, NULL };
	struct rules_rng rng;
	uint64_t	 pick = seed * 0x9e3779b97f4a7c15ULL + 1;
	int		 ever_public[STM_NCARDS] = { 0 };
	void		*st, *replay;
	json_t		*legal, *mv;
	char		 err[RULES_ERRLEN], *a, *b;
	int		 seat, n, i;

	st = new_game(nseats, seed);
	for (n = 0; M->to_act(st, &seat, 1) > 0; n++) {
		REQUIRE(n < MAX_MOVES, "game %llu did not end",
		    (unsigned long long)seed);
		if (deep)
			check_refusals_hidden(st, nseats, ever_public, &pick);
		legal = M->legal_moves(st, seat);
		REQUIRE(json_array_size(legal) > 0, "seat %d stuck", seat);
		i = (int)(next_rand(&pick) % json_array_size(legal));
		log_move(&lg, seat, json_string_value(json_array_get(legal,
		    (size_t)i)));
		json_decref(legal);
		REQUIRE(M->parse(st, seat, lg.moves[n], RULES_LANG_EN, &mv,
		    err, sizeof(err)) == RULES_OK, "%s: %s", lg.moves[n], err);
		REQUIRE(M->check(st, seat, mv, RULES_LANG_EN, err,
		    sizeof(err)) == RULES_OK, "%s: %s", lg.moves[n], err);
		rulestest_rng(&rng, seed, (uint64_t)n + 1);
		M->apply(st, seat, mv, &rng);
		json_decref(mv);
		check_invariants(st, nseats, ever_public);
		check_hidden(st, nseats, ever_public, deep ? ALL_VIEWERS :
		    n % (nseats + 1) - 1);
	}
	{
		json_t *r = M->result(st);
		REQUIRE(r != NULL, "no result");
		json_decref(r);
	}
	total_moves += n;
	total_games++;
	if (n > longest_game)
		longest_game = n;

	/* The same moves from the same seed reach the same bytes. */
	replay = new_game(nseats, seed);
	for (i = 0; i < lg.nmoves; i++) {
		REQUIRE(M->parse(replay, lg.seats[i], lg.moves[i],
		    RULES_LANG_EN, &mv, err, sizeof(err)) == RULES_OK, "%s",
		    err);
		REQUIRE(M->check(replay, lg.seats[i], mv,
		    RULES_LANG_EN, err, sizeof(err)) == RULES_OK, "%s", err);
		rulestest_rng(&rng, seed, (uint64_t)i + 1);
		M->apply(replay, lg.seats[i], mv, &rng);
		json_decref(mv);
		free(lg.moves[i]);
	}
	a = dump_state(st);
	b = dump_state(replay);
	REQUIRE(strcmp(a, b) == 0, "replay of game %llu differs",
	    (unsigned long long)seed);
	free(a);
	free(b);
	free(lg.moves);
	free(lg.seats);
	M->destroy(st);
	M->destroy(replay);
}

/*
 * Robustness: random texts never crash parse() or check(), and random
 * damage to a saved state is refused or loads into a state every method
 * can run on.
 */
static const char *const vocabulary[] = {
	"take", "draw", "discard", "prendre", "piocher", "défausser", "q",
	"galaxy", "galaxie", "missions", "drawn", "piochée", "1", "2", "3",
	"and", "et", "then", "puis", ",", ";", ".", "the", "la", "l'",
	"Worf", "Lursa", "B'Etor", "Borg", "Cube", "G12", "M18", "M99",
	"G00", "Commander", "Holodeck", "’", "\xc3", "\xff", "é", "Œ", "?",
	"  ", "carte", "drawn galaxy", "Q l'importun", "Lursa et B'Etor"
};
#define NVOCABULARY (sizeof(vocabulary) / sizeof(vocabulary[0]))

START_TEST(test_parse_random)
{
	void		*st = new_game(3, 5);
	uint64_t	 r = 12345;
	char		 text[300], err[RULES_ERRLEN];
	json_t		*mv;
	int		 i, k, nwords, seat;
	enum rules_status rc;

	for (i = 0; i < 20000; i++) {
		text[0] = '\0';
		nwords = (int)(next_rand(&r) % 12);
		for (k = 0; k < nwords; k++) {
			strcat(text, vocabulary[next_rand(&r) % NVOCABULARY]);
			if (next_rand(&r) % 3)
				strcat(text, " ");
		}
		seat = (int)(next_rand(&r) % 4) - 1;
		mv = NULL;
		rc = M->parse(st, seat, text, i % 2 ? RULES_LANG_FR :
		    RULES_LANG_EN, &mv, err, sizeof(err));
		REQUIRE(rc == RULES_OK || rc == RULES_SYNTAX, "%s", text);
		REQUIRE((rc == RULES_OK) == (mv != NULL), "%s", text);
		REQUIRE(strlen(err) < sizeof(err), "%s", text);
		if (mv != NULL) {
			rc = M->check(st, seat, mv, RULES_LANG_EN, err,
			    sizeof(err));
			REQUIRE(rc != RULES_BAD_STATE && rc !=
			    RULES_BAD_OPTIONS,
			    "%s", text);
			json_decref(mv);
		}
	}
	M->destroy(st);
}
END_TEST

/* Change one value somewhere in j, chosen by r. */
static void
damage(json_t *j, uint64_t *r)
{
	static const char *const keys[] = {
		"nseats", "phase", "first", "current", "turns", "extra_owed",
		"extra_now", "ending", "end_reasons", "q_seat", "galaxy_deck",
		"mission_deck", "discard", "hands", "pending", "last", "ruleset"
	};
	static const char *const words[] = {
		"G01", "M18", "M23", "G50", "turn", "discard", "over", "q_draw",
		"take", "drawn", ""
	};
	const char	*key = keys[next_rand(r) % 17];
	json_t		*v = json_object_get(j, key), *target;
	json_t		*repl;
	size_t		 n;

	switch (next_rand(r) % 6) {
	case 0:
		repl = json_integer((json_int_t)(next_rand(r) % 9) - 2);
		break;
	case 1:
		repl = json_string(words[next_rand(r) % 11]);
		break;
	case 2:
		repl = json_null();
		break;
	case 3:
		repl = next_rand(r) % 2 ? json_true() : json_false();
		break;
	case 4:
		repl = json_array();
		break;
	default:
		json_object_del(j, key);
		return;
	}
	/* Into an array (or an array of arrays) now and then. */
	target = v;
	if (json_is_array(target) && json_array_size(target) > 0 &&
	    next_rand(r) % 2) {
		n = next_rand(r) % json_array_size(target);
		if (json_is_array(json_array_get(target, n)) &&
		    json_array_size(json_array_get(target, n)) > 0) {
			target = json_array_get(target, n);
			n = next_rand(r) % json_array_size(target);
		}
		json_array_set_new(target, n, repl);
		return;
	}
	json_object_set_new(j, key, repl);
}

START_TEST(test_load_damaged)
{
	uint64_t	 r = 777;
	char		 err[RULES_ERRLEN];
	void		*st, *copy;
	json_t		*j, *x;
	int		 i, k, seats[4], accepted = 0;

	for (i = 0; i < 300; i++) {
		st = new_game(2 + i % 3, (uint64_t)i);
		/* Play a few random moves so every phase comes up. */
		for (k = 0; k < (int)(next_rand(&r) % 40) &&
		    M->to_act(st, seats, 4) > 0; k++) {
			json_t *legal = M->legal_moves(st, seats[0]), *mv;
			const char *t = json_string_value(json_array_get(legal,
			    next_rand(&r) % json_array_size(legal)));
			REQUIRE(M->parse(st, seats[0], t, RULES_LANG_EN, &mv,
			    err, sizeof(err)) == RULES_OK, "%s", err);
			REQUIRE(M->check(st, seats[0], mv, RULES_LANG_EN, err,
			    sizeof(err)) == RULES_OK, "%s", err);
			M->apply(st, seats[0], mv, NULL);
			json_decref(mv);
			json_decref(legal);
		}
		j = M->save(st);
		damage(j, &r);
		copy = game_load(j, err, sizeof(err));
		if (copy != NULL) {
			accepted++;
			x = M->view(copy, RULES_VIEW_FULL);
			json_decref(x);
			if (M->to_act(copy, seats, 4) > 0) {
				x = M->legal_moves(copy, seats[0]);
				json_decref(x);
			}
			x = M->save(copy);
			json_decref(x);
			M->destroy(copy);
		} else
			REQUIRE(strncmp(err, "bad saved state: ", 17) == 0,
			    "%s", err);
		json_decref(j);
		M->destroy(st);
	}
	REQUIRE(accepted < 150, "damage mostly accepted (%d)", accepted);
}
END_TEST

START_TEST(test_random_play)
{
	struct timespec	t0, t1;
	int		g, nseats;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	total_moves = total_games = longest_game = 0;
	for (g = 0; g < 3000; g++) {
		nseats = 2 + g % 3;
		random_game(nseats, (uint64_t)g + 1000, g % 10 == 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("random play: %ld games, %ld moves, longest %ld moves, "
	    "%.1f s\n", total_games, total_moves, longest_game,
	    (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}
END_TEST

static Suite *
stm_suite(void)
{
	Suite	*s = suite_create("stmissions");
	TCase	*tc;

	tc = tcase_create("conformance");
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_ruleset_kept);
	tcase_add_test(tc, test_setup_seats);
	tcase_add_test(tc, test_setup_options);
	tcase_add_test(tc, test_setup_deterministic);
	tcase_add_test(tc, test_save_load_round_trip);
	tcase_add_test(tc, test_load_refuses);
	tcase_add_test(tc, test_views);
	tcase_add_test(tc, test_legal_moves_and_forms);
	tcase_add_test(tc, test_score_cards);
	suite_add_tcase(s, tc);

	tc = tcase_create("rules");
	tcase_add_test(tc, test_turn_take);
	tcase_add_test(tc, test_turn_galaxy);
	tcase_add_test(tc, test_turn_missions);
	tcase_add_test(tc, test_turn_in_two_parts);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_refusal_zero_missions);
	tcase_add_test(tc, test_message_cut);
	tcase_add_test(tc, test_unavailable_options);
	tcase_add_test(tc, test_empty_decks);
	tcase_add_test(tc, test_end_eight_galaxy);
	tcase_add_test(tc, test_end_twelve_missions);
	tcase_add_test(tc, test_end_galaxy_empty);
	tcase_add_test(tc, test_time_distortion);
	tcase_add_test(tc, test_time_distortion_at_end);
	tcase_add_test(tc, test_meddlesome_q);
	tcase_add_test(tc, test_meddlesome_q_french_and_halves);
	tcase_add_test(tc, test_meddlesome_q_needs_mission);
	tcase_add_test(tc, test_meddlesome_q_two_discards);
	tcase_add_test(tc, test_meddlesome_q_time_distortion);
	suite_add_tcase(s, tc);

	tc = tcase_create("text");
	tcase_add_test(tc, test_parse_forms);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_fold);
	tcase_add_test(tc, test_parse_random);
	tcase_add_test(tc, test_load_damaged);
	suite_add_tcase(s, tc);

	tc = tcase_create("random");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_random_play);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner	*sr = srunner_create(stm_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
