/*
 * check_web.c -- the web page's sign-in and sessions at the engine
 * (daemon/engine/websession.c; docs/WEB.md): a sign-in link works once
 * and only before it expires, only while its player holds its seat; a
 * session is bound to one player, game and seat and expires; a CSRF
 * token belongs to its session only; a POST from another site (login
 * CSRF and move forms) is told from one of the server's own page
 * (daemon/http/web_origin.c); the seat page's move buttons name the
 * cards of a Missions move by their names in the reader's language, and
 * each is marked with the cards it involves (daemon/http/web_pick.c).  The HTTP side (cookie flags, pages, forms,
 * the 403 page of a cross-site POST) is tests/web-e2e.sh's, against a
 * running pbemd.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "engine.h"
#include "testlib.h"
#include "web_last.h"
#include "web_origin.h"
#include "web_pick.h"

static struct testenv env;
static int64_t game;
static const int64_t now = 1800000000;

static void
setup(void)
{
	testenv_open(&env, 3);
	game = testenv_game(&env, "template", 2);
}

static void
teardown(void)
{
	testenv_close(&env);
}

/* A play token for seat of game, held by player index pl, expiring at
 * expires. */
static void
token(int seat, int pl, int64_t expires, char out[ENGINE_TOKEN_LEN + 1])
{
	ck_assert_int_eq(engine_play_token_issue(env.st, game, seat,
	    env.player_id[pl], expires, out), STORE_OK);
}

/* The rows of web_sessions, read on a connection of its own. */
static int64_t
sessions(void)
{
	sqlite3_stmt *s;
	sqlite3 *db;
	int64_t n;

	ck_assert_int_eq(sqlite3_open(env.dbpath, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM "
	    "web_sessions", -1, &s, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return n;
}

START_TEST(test_link_works_once)
{
	char tok[ENGINE_TOKEN_LEN + 1], s1[ENGINE_SESSION_LEN + 1];
	char s2[ENGINE_SESSION_LEN + 1], err[256];
	enum engine_signin_refusal why;
	struct store_web_session ws, found;

	token(1, 1, now + 3600, tok);
	ck_assert_int_eq(engine_web_signin(env.st, tok, now, s1, &ws, &why,
	    err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(strlen(s1), ENGINE_SESSION_LEN);
	ck_assert_int_eq(ws.game_id, game);
	ck_assert_int_eq(ws.seat, 1);
	ck_assert_int_eq(ws.player_id, env.player_id[1]);
	ck_assert_int_eq(ws.expires, now + ENGINE_SESSION_TTL);
	/* The second use is refused, opens nothing, and says why. */
	ck_assert_int_eq(engine_web_signin(env.st, tok, now + 1, s2, &ws,
	    &why, err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_int_eq(why, ENGINE_SIGNIN_USED);
	ck_assert_str_eq(s2, "");
	ck_assert_int_eq(sessions(), 1);
	/* The session is found by its token, whatever its case. */
	ck_assert_int_eq(engine_web_session_find(env.st, s1, now + 10, &found,
	    err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(found.seat, 1);
	ck_assert_int_eq(found.game_id, game);
	s1[0] = s1[0] >= 'a' ? (char)(s1[0] - 'a' + 'A') : s1[0];
	ck_assert_int_eq(engine_web_session_find(env.st, s1, now + 10, &found,
	    err, sizeof(err)), ENGINE_OK);
}
END_TEST

START_TEST(test_link_refusals)
{
	char tok[ENGINE_TOKEN_LEN + 1], s[ENGINE_SESSION_LEN + 1], err[256];
	enum engine_signin_refusal why;
	struct store_web_session ws;

	/* Expired: refused, and still unused (a fresh one would work). */
	token(0, 0, now + 10, tok);
	ck_assert_int_eq(engine_web_signin(env.st, tok, now + 10, s, &ws, &why,
	    err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_int_eq(why, ENGINE_SIGNIN_EXPIRED);
	/* Unknown and malformed tokens. */
	ck_assert_int_eq(engine_web_signin(env.st,
	    "0123456789abcdef0123456789abcdef", now, s, &ws, &why, err,
	    sizeof(err)), ENGINE_REFUSED);
	ck_assert_int_eq(why, ENGINE_SIGNIN_UNKNOWN);
	ck_assert_int_eq(engine_web_signin(env.st, "games", now, s, &ws, &why,
	    err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_int_eq(why, ENGINE_SIGNIN_UNKNOWN);
	ck_assert_int_eq(engine_web_signin(env.st,
	    "0123456789abcdef0123456789abcdeg", now, s, &ws, &why, err,
	    sizeof(err)), ENGINE_REFUSED);
	/* A link of seat 0 made for player 2, who does not hold it. */
	token(0, 2, now + 3600, tok);
	ck_assert_int_eq(engine_web_signin(env.st, tok, now, s, &ws, &why,
	    err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_int_eq(why, ENGINE_SIGNIN_SEAT);
	ck_assert_int_eq(sessions(), 0);
}
END_TEST

START_TEST(test_session_expires)
{
	char tok[ENGINE_TOKEN_LEN + 1], s[ENGINE_SESSION_LEN + 1], err[256];
	enum engine_signin_refusal why;
	struct store_web_session ws, found;

	token(0, 0, now + 3600, tok);
	ck_assert_int_eq(engine_web_signin(env.st, tok, now, s, &ws, &why,
	    err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(engine_web_session_find(env.st, s, now +
	    ENGINE_SESSION_TTL - 1, &found, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(engine_web_session_find(env.st, s, now +
	    ENGINE_SESSION_TTL, &found, err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_int_eq(engine_web_session_find(env.st, NULL, now, &found,
	    err, sizeof(err)), ENGINE_REFUSED);
	ck_assert_int_eq(engine_web_session_find(env.st, "abc", now, &found,
	    err, sizeof(err)), ENGINE_REFUSED);
	/* Another token of the right shape is no session. */
	s[5] = s[5] == '0' ? '1' : '0';
	ck_assert_int_eq(engine_web_session_find(env.st, s, now, &found, err,
	    sizeof(err)), ENGINE_REFUSED);
	/* The next sign-in forgets the expired sessions. */
	token(1, 1, now + 2 * ENGINE_SESSION_TTL, tok);
	ck_assert_int_eq(engine_web_signin(env.st, tok, now +
	    ENGINE_SESSION_TTL, s, &ws, &why, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(sessions(), 1);
}
END_TEST

START_TEST(test_csrf_bound_to_session)
{
	char t0[ENGINE_TOKEN_LEN + 1], t1[ENGINE_TOKEN_LEN + 1];
	char s0[ENGINE_SESSION_LEN + 1], s1[ENGINE_SESSION_LEN + 1];
	char c0[ENGINE_CSRF_LEN + 1], c1[ENGINE_CSRF_LEN + 1], err[256];
	enum engine_signin_refusal why;
	struct store_web_session ws0, ws1;

	token(0, 0, now + 3600, t0);
	token(1, 1, now + 3600, t1);
	ck_assert_int_eq(engine_web_signin(env.st, t0, now, s0, &ws0, &why,
	    err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(engine_web_signin(env.st, t1, now, s1, &ws1, &why,
	    err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(ws0.seat, 0);
	ck_assert_int_eq(ws1.seat, 1);
	engine_web_csrf(s0, c0);
	engine_web_csrf(s1, c1);
	ck_assert_int_eq(strlen(c0), ENGINE_CSRF_LEN);
	ck_assert_str_ne(c0, c1);
	ck_assert_int_eq(engine_web_csrf_check(s0, c0), 1);
	ck_assert_int_eq(engine_web_csrf_check(s1, c1), 1);
	ck_assert_int_eq(engine_web_csrf_check(s0, c1), 0);
	ck_assert_int_eq(engine_web_csrf_check(s1, c0), 0);
	ck_assert_int_eq(engine_web_csrf_check(s0, ""), 0);
	ck_assert_int_eq(engine_web_csrf_check(s0, NULL), 0);
	c0[3] = c0[3] == 'a' ? 'b' : 'a';
	ck_assert_int_eq(engine_web_csrf_check(s0, c0), 0);
}
END_TEST

/* What a browser sends with a POST, judged against public_base_url. */
START_TEST(test_cross_site_refused)
{
	const char *base = "http://play.example.org:8080";

	/* The page's own form: same-origin, Origin the server's. */
	ck_assert_int_eq(web_origin_check("same-origin",
	    "http://play.example.org:8080", "play.example.org:8080", base),
	    WEB_ORIGIN_OK);
	/* Hostnames compare without case; the Host header counts too (a
	 * server reached at another name than the configured one). */
	ck_assert_int_eq(web_origin_check(NULL, "http://PLAY.Example.org:8080",
	    NULL, base), WEB_ORIGIN_OK);
	ck_assert_int_eq(web_origin_check("same-origin",
	    "http://127.0.0.1:9999", "127.0.0.1:9999", base), WEB_ORIGIN_OK);
	/* A default port is never sent in Origin. */
	ck_assert_int_eq(web_origin_check(NULL, "https://play.example.org",
	    NULL, "https://play.example.org:443/"), WEB_ORIGIN_OK);
	ck_assert_int_eq(web_origin_check(NULL, "http://play.example.org",
	    "play.example.org:80", "https://elsewhere.example/"),
	    WEB_ORIGIN_OK);
	/* Neither header (curl, an old browser): the CSRF token and the
	 * SameSite cookie decide. */
	ck_assert_int_eq(web_origin_check(NULL, NULL, "x", base),
	    WEB_ORIGIN_OK);
	ck_assert_int_eq(web_origin_check("none", NULL, "x", base),
	    WEB_ORIGIN_OK);

	/* Another site's form or script. */
	ck_assert_int_eq(web_origin_check("cross-site",
	    "http://play.example.org:8080", "play.example.org:8080", base),
	    WEB_ORIGIN_CROSS_SITE);
	ck_assert_int_eq(web_origin_check("Cross-Site", NULL, NULL, base),
	    WEB_ORIGIN_CROSS_SITE);
	ck_assert_int_eq(web_origin_check("same-site",
	    "http://evil.example.org:8080", "play.example.org:8080", base),
	    WEB_ORIGIN_CROSS_SITE);
	ck_assert_int_eq(web_origin_check(NULL, "http://evil.example",
	    "play.example.org:8080", base), WEB_ORIGIN_FOREIGN);
	ck_assert_int_eq(web_origin_check("same-origin", "https://evil.example",
	    "play.example.org:8080", base), WEB_ORIGIN_FOREIGN);
	/* Same host, another port or scheme: another origin. */
	ck_assert_int_eq(web_origin_check(NULL, "http://play.example.org:8081",
	    "play.example.org:8080", base), WEB_ORIGIN_FOREIGN);
	ck_assert_int_eq(web_origin_check(NULL, "https://play.example.org:8080",
	    NULL, base), WEB_ORIGIN_FOREIGN);
	/* A name that only starts like ours. */
	ck_assert_int_eq(web_origin_check(NULL,
	    "http://play.example.org:8080.evil.example", NULL, base),
	    WEB_ORIGIN_FOREIGN);
	/* Sandboxed frames and data: pages send "null" -- and so do our
	 * own pages under Referrer-Policy: no-referrer, from browsers
	 * that say Sec-Fetch-Site too. */
	ck_assert_int_eq(web_origin_check(NULL, "null",
	    "play.example.org:8080", base), WEB_ORIGIN_FOREIGN);
	ck_assert_int_eq(web_origin_check("cross-site", "null",
	    "play.example.org:8080", base), WEB_ORIGIN_CROSS_SITE);
	ck_assert_int_eq(web_origin_check("same-origin", "null",
	    "play.example.org:8080", base), WEB_ORIGIN_OK);
	ck_assert_int_eq(web_origin_check(NULL, "", "", ""),
	    WEB_ORIGIN_FOREIGN);
}
END_TEST

/* The cards a move button involves: the refs of the page's cards that
 * are whole words of its text or label. */
START_TEST(test_pick_marks)
{
	json_t *data, *moves;
	const char *texts[][2] = {
		{ "take G12, discard M03", NULL },
		{ "draw galaxy", NULL },
		{ "play 5", "jouer 5" },
		{ "discard G120", NULL },		/* not G12 */
		{ "fly Nebula; extend", "voler n\xc3\xa9" "buleuse ; prolonger" },
		{ "take g12", NULL },			/* any case */
	};
	const char *want[] = { "G12|M03", NULL, "5", NULL,
	    "N\xc3\xa9" "buleuse", "G12" };
	size_t i;

	data = json_pack("{s:[{s:s, s:s}, {s:s, s:s}, {s:s}], "
	    "s:[{s:s}, {s:s}]}", "hand", "id", "G12", "name", "Worf",
	    "id", "M03", "name", "Contact", "name", "N\xc3\xa9" "buleuse",
	    "discard", "name", "5", "name", "a|b");
	moves = json_array();
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		json_t *m = json_pack("{s:s}", "text", texts[i][0]);

		if (texts[i][1] != NULL)
			json_object_set_new(m, "label",
			    json_string(texts[i][1]));
		json_array_append_new(moves, m);
	}
	json_object_set_new(data, "moves", moves);
	web_pick_mark(data);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *got = json_string_value(json_object_get(
		    json_array_get(moves, i), "cards"));

		if (want[i] == NULL)
			ck_assert_msg(got == NULL, "move %zu: %s", i, got);
		else
			ck_assert_msg(got != NULL && strcmp(got, want[i]) == 0,
			    "move %zu: %s, not %s", i, got, want[i]);
	}
	/* Cards are named by id, else by name; a name holding the
	 * separator is not pickable. */
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(
	    json_object_get(data, "hand"), 0), "ref")), "G12");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(
	    json_object_get(data, "discard"), 0), "ref")), "5");
	ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(
	    data, "discard"), 1), "ref"));
	ck_assert(json_is_true(json_object_get(data, "can_pick")));
	json_decref(data);

	/* No move with a card: nothing to pick. */
	data = json_pack("{s:[{s:s}], s:[{s:s}]}", "hand", "id", "G12",
	    "moves", "text", "draw galaxy");
	web_pick_mark(data);
	ck_assert_ptr_null(json_object_get(data, "can_pick"));
	json_decref(data);
}
END_TEST

/* A button of Star Trek: Missions' seat page names each card of its move
 * by its name in the page's language with its id beside it, while the
 * text it posts stays the legal move text with ids. */
START_TEST(test_buttons_name_cards)
{
	const char *langs[] = { "name_en", "name_fr" };
	enum rules_lang lang;
	struct gamestate gs;
	char err[512], want[256];
	json_t *view, *legal, *buttons, *b, *card;
	const char *id, *text, *label;
	int64_t missions;
	int seats[STORE_MAX_SEATS], seat, named = 0;
	size_t i, k;

	missions = testenv_game(&env, "stmissions", 2);
	ck_assert_int_eq(gamestate_load(env.st, missions, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_gt(gs.module->to_act(gs.state, seats, STORE_MAX_SEATS),
	    0);
	seat = seats[0];
	view = gamestate_view(&gs, seat);
	legal = gs.module->legal_moves(gs.state, seat);
	for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
		buttons = web_move_buttons(&gs, seat, legal, lang);
		ck_assert_uint_eq(json_array_size(buttons),
		    json_array_size(legal));
		json_array_foreach(buttons, i, b) {
			text = json_string_value(json_object_get(b, "text"));
			label = json_string_value(json_object_get(b, "label"));
			ck_assert_str_eq(text, json_string_value(
			    json_array_get(legal, i)));
			json_array_foreach(json_object_get(view, "hand"), k,
			    card) {
				id = json_string_value(json_object_get(card,
				    "id"));
				if (strstr(text, id) == NULL)
					continue;
				snprintf(want, sizeof(want), "%s (%s)",
				    json_string_value(json_object_get(card,
				    langs[lang])), id);
				ck_assert_msg(strstr(label, want) != NULL,
				    "button \"%s\" of \"%s\" does not say "
				    "\"%s\"", label, text, want);
				named++;
			}
			if (lang == RULES_LANG_FR)
				ck_assert_msg(strncmp(label, "piocher ", 8) ==
				    0 || strncmp(label, "prendre ", 8) == 0 ||
				    strncmp(label, "d\xc3\xa9" "fausser ", 11)
				    == 0, "French button \"%s\"", label);
		}
		json_decref(buttons);
	}
	ck_assert_int_gt(named, 0);
	json_decref(legal);
	json_decref(view);
	gamestate_clear(&gs);
}
END_TEST

/* "Last moves": another seat's move is the log's public summary in the
 * reader's language (not "bruno played"), without its "to play" tail;
 * the reader's own move is its text. */
START_TEST(test_last_moves_summaries)
{
	struct gamestate gs;
	const char *names[STORE_MAX_SEATS];
	struct engine_summary sum;
	char err[512], *fr, *dash;
	json_t *moves, *m;
	size_t i;
	int other = 0, own = 0;

	ck_assert_int_eq(testenv_play_first(&env, game, -1, now), ENGINE_OK);
	ck_assert_int_eq(testenv_play_first(&env, game, -1, now), ENGINE_OK);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	(void)gamestate_seat_names(env.st, &gs, names);
	moves = web_last_moves(env.st, &gs, 0, names, 0, RULES_LANG_FR);
	ck_assert_ptr_nonnull(moves);
	json_array_foreach(moves, i, m) {
		int64_t seq = json_integer_value(json_object_get(m, "seq"));
		struct store_entry e;

		ck_assert_int_eq(store_log_get(env.st, game, seq, &e),
		    STORE_OK);
		if (e.seat == 0) {
			own++;
			ck_assert_ptr_nonnull(json_object_get(m, "text"));
		} else {
			other++;
			ck_assert_ptr_null(json_object_get(m, "text"));
			engine_summary_of(env.st, &e, NULL, &sum);
			fr = sum.fr;
			dash = strstr(fr, " \xe2\x80\x94 ");
			ck_assert_ptr_nonnull(dash);	/* "— à X de jouer" */
			*dash = '\0';
			ck_assert_str_eq(json_string_value(json_object_get(m,
			    "summary")), fr);
		}
		store_entry_clear(&e);
	}
	ck_assert_int_eq(own, 1);
	ck_assert_int_eq(other, 1);
	json_decref(moves);
	gamestate_clear(&gs);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("web");
	TCase *tc = tcase_create("sessions");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_link_works_once);
	tcase_add_test(tc, test_last_moves_summaries);
	tcase_add_test(tc, test_link_refusals);
	tcase_add_test(tc, test_session_expires);
	tcase_add_test(tc, test_csrf_bound_to_session);
	tcase_add_test(tc, test_cross_site_refused);
	tcase_add_test(tc, test_pick_marks);
	tcase_add_test(tc, test_buttons_name_cards);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
