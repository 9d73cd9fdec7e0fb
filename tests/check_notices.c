/*
 * check_notices.c -- every mail the engine queues can be sent: the rows
 * written by the real asynchronous-play functions (the scheduler under a
 * clock the test controls, resign, replace, press, call off, observers)
 * and by game creation are rendered by the mail gateway in English and
 * in French, and each is checked for its subject, the fields a player
 * needs (the deadline in words, the policy's outcome, the automatic
 * move, the press text as written, how to take a seat) and for the
 * hands of other seats, which must never appear.  Every event of
 * engine_mail_events[] must have been rendered from a real row, so an
 * event added to the engine without a mail fails here; and no engine
 * file may queue mail except through engine_outbox_mail().
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <gmime/gmime.h>
#include <sqlite3.h>

#include "clock.h"
#include "engine.h"
#include "mail.h"
#include "schedule.h"
#include "store_test.h"
#include "templates.h"
#include "testlib.h"

#define HOUR	3600
#define DAY	86400
/* Monday 2024-01-01 00:00 UTC. */
#define MONDAY	1704067200

static struct testenv env;
static struct mail_settings set;
static struct tpl_set *tpl;
static int64_t fake_now;
static int64_t last_row;	/* rows up to this id have been checked */

/* Which events were rendered from a real row, per language. */
static char rendered[2][64][32];
static int nrendered[2];

static void
setup(void)
{
	const char *top = getenv("top_srcdir");
	char path[600], err[512];

	fake_now = MONDAY + 9 * HOUR;
	clock_set(testenv_clock, &fake_now);
	mail_init();
	testenv_open(&env, 5);
	mail_settings_default(&set);
	ck_assert_int_eq(mail_settings_set(&set, "admin", "gm@example.org",
	    err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/templates", top != NULL ? top : ".");
	tpl = templates_load(path, err, sizeof(err));
	ck_assert_msg(tpl != NULL, "%s", err);
	last_row = 0;
}

static void
teardown(void)
{
	templates_free(tpl);
	testenv_close(&env);
	clock_set(NULL, NULL);
}

static void
sql(const char *fmt, const char *arg)
{
	char text[512];

	snprintf(text, sizeof(text), fmt, arg);
	ck_assert_int_eq(sqlite3_exec(store_test_db(env.st), text, NULL, NULL,
	    NULL), SQLITE_OK);
}

static void
set_policy(int64_t game, const char *json)
{
	testenv_set_policy(&env, game, json);
}

static void
tick(int64_t now)
{
	fake_now = now;
	(void)testenv_tick(&env, now);
}

/* The seat to act (-1 when over) and the next sequence number. */
static int
to_act(int64_t game, int64_t *next)
{
	return testenv_to_act(&env, game, next);
}

/* A signed command (or move) text for seat from player signer. */
static enum engine_status
command(int signer, int64_t game, int64_t n, int seat, const char *text)
{
	struct engine_reply reply;
	enum engine_status es;
	char block[4096];

	testenv_block(&env, signer, game, n, seat, text, block, sizeof(block));
	engine_handle(env.st, env.key, block, strlen(block), RULES_LANG_EN,
	    fake_now, &reply);
	es = reply.status;
	ck_assert_msg(es == ENGINE_OK, "%s: %s", text, reply.message);
	engine_reply_clear(&reply);
	return es;
}

/* The first legal move of the seat to act, signed by player signer. */
static void
play_first(int64_t game, int signer)
{
	ck_assert_int_eq(testenv_play_first(&env, game, signer, fake_now),
	    ENGINE_OK);
}

/* ---- Checking one mail -------------------------------------------------- */

/* What the test expects of each event, written here independently of
 * the code's subjects table. */
struct expect {
	const char	*event;
	const char	*subject_en, *subject_fr;
	const char	*body_en, *body_fr;	/* fixed words of the body */
};

static const struct expect expects[] = {
	{ "your_turn", "your turn", "à vous de jouer", NULL, NULL },
	{ "accepted", "accepted", "accepté", NULL, NULL },
	{ "update", "played", "joué", NULL, NULL },
	{ "game_over", "game over", "partie terminée", NULL, NULL },
	{ "game_started", "the game begins", "la partie commence",
	    "has begun", "la partie commence" },
	{ "reminder", "reminder: your turn", "rappel : à vous de jouer",
	    "Your deadline:", "Votre délai :" },
	{ "deadline", "deadline passed", "délai dépassé",
	    "You still have until", "Il vous reste jusqu'au" },
	{ "late", "deadline was missed", "délai n'a pas été tenu",
	    "missed", "dépassé" },
	{ "seat_offered", "a seat is offered", "un siège est à prendre",
	    "missed", "dépassé" },
	{ "auto_move", "a move was played for you",
	    "un coup a été joué pour vous", ", seat ",
	    ", siège " },
	{ "skipped", "your turn was skipped", "votre tour a été passé",
	    "passed your turn", "a passé\nvotre tour" },
	{ "resigned", "you resigned", "vous avez abandonné", "resigned from",
	    "avez abandonné" },
	{ "seat_taken", "you now hold a seat",
	    "vous occupez désormais un siège", "now hold seat",
	    "occupez désormais le siège" },
	{ "call_off_vote", "call the game off", "annuler la partie",
	    "\"call off\"", "\"annuler la partie\"" },
	{ "press", "message from another player", "message d'un autre joueur",
	    "Message from seat", "Message du siège" },
	{ "vacation", "a vacation in the game", "des vacances dans la partie",
	    "vacation", "vacances" },
	{ "observer_update", "played", "joué", "public view",
	    "vue publique" },
	{ "observer_game_over", "game over", "partie terminée", "is over",
	    "est terminée" },
	{ "observer_seat_offered", "a seat is offered",
	    "un siège est à prendre", "pbemctl replace", "pbemctl replace" },
	{ "master_notice", "news for the game master",
	    "nouvelles pour le maître du jeu", "This is the game's public view",
	    "Voici la vue publique de la partie" },
	{ "clock_changed", "the deadline has changed", "le délai a changé",
	    ", game ", ", partie " },
	/* A row that says "forced": a "gm force" before the deadline. */
	{ "late/forced", "a turn was forced (gm force)",
	    "un tour a été forcé (mj forcer)", "(gm force)", "(mj forcer)" },
	{ "seat_offered/forced", "a seat is offered",
	    "un siège est à prendre", "(gm force)", "(mj forcer)" },
	{ "skipped/forced", "your turn was skipped", "votre tour a été passé",
	    "passed your turn", "a passé votre tour" },
	{ NULL, NULL, NULL, NULL, NULL }
};

/* The expectations of event, or of "EVENT/forced" for a row that says
 * "forced" when the test has some. */
static const struct expect *
expect_for(const char *event, int forced)
{
	const struct expect *e;
	char name[64];

	snprintf(name, sizeof(name), "%s/forced", event);
	for (e = expects; forced && e->event != NULL; e++)
		if (strcmp(e->event, name) == 0)
			return e;
	for (e = expects; e->event != NULL; e++)
		if (strcmp(e->event, event) == 0)
			return e;
	ck_abort_msg("the test has no expectations for event \"%s\"", event);
	return NULL;
}

static void
note_rendered(int fr, const char *event)
{
	int i;

	for (i = 0; i < nrendered[fr]; i++)
		if (strcmp(rendered[fr][i], event) == 0)
			return;
	ck_assert_int_lt(nrendered[fr], 64);
	snprintf(rendered[fr][nrendered[fr]++], 32, "%s", event);
}

/* Pictures checked: [language][0 your_turn, 1 game_over]. */
static int pictures[2][2];

static void
note_picture(int fr, const char *event)
{
	pictures[fr][strcmp(event, "game_over") == 0]++;
}

static int
was_rendered(int fr, const char *event)
{
	int i;

	for (i = 0; i < nrendered[fr]; i++)
		if (strcmp(rendered[fr][i], event) == 0)
			return 1;
	return 0;
}

/* Card ids in seat's hand after entry seq (stmissions: "id" fields). */
static int
hand_ids(const struct gamestate *gs, int seat, char ids[][16], int max)
{
	json_t *view, *card;
	size_t i;
	int n = 0;

	view = gamestate_view(gs, seat);
	json_array_foreach(json_object_get(view, "hand"), i, card) {
		const char *id = json_string_value(json_object_get(card, "id"));

		if (id != NULL && n < max)
			snprintf(ids[n++], 16, "%s", id);
	}
	json_decref(view);
	return n;
}

/* No card of another hand (the recipient is seat, or -1 for an
 * observer) may be in body, unless the public view shows it too (a card
 * taken from the discard area) or the game is over (every hand is then
 * public). */
static void
check_hands(const struct store_outbox *o, int seat, const char *body)
{
	struct gamestate gs;
	char err[512], ids[32][16], *public, *shown;
	const char *cut;
	json_t *view;
	int s, n, i, over, one;

	/* The armoured receipt of an accepted move is random letters: it
	 * may hold "G12" by chance.  The text before it is what is shown. */
	if ((cut = strstr(body, "-----BEGIN PBEM RECEIPT-----")) != NULL) {
		shown = strndup(body, (size_t)(cut - body));
		check_hands(o, seat, shown);
		free(shown);
		return;
	}
	ck_assert_int_eq(gamestate_load(env.st, o->game_id, o->seq, &gs, err,
	    sizeof(err)), ENGINE_OK);
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	public = json_dumps(view, JSON_COMPACT);
	json_decref(view);
	over = gs.module->to_act(gs.state, &one, 1) == 0 || gs.ended != NULL;
	for (s = 0; s < gs.game.nseats && !over; s++) {
		n = hand_ids(&gs, s, ids, 32);
		for (i = 0; i < n; i++) {
			if (s == seat || strstr(public, ids[i]) != NULL)
				continue;
			ck_assert_msg(strstr(body, ids[i]) == NULL, "%s mail "
			    "(row %lld) to %s shows card %s of seat %d",
			    o->event, (long long)o->id, o->recipient, ids[i],
			    s);
		}
		/* A seat's own mail with its view shows its own hand. */
		if (s == seat && strstr(body, "-- \n") != NULL &&
		    strcmp(o->event, "press") != 0 &&
		    strcmp(o->event, "call_off_vote") != 0)
			for (i = 0; i < n; i++)
				ck_assert_msg(strstr(body, ids[i]) != NULL,
				    "%s mail to seat %d lacks its card %s",
				    o->event, seat, ids[i]);
	}
	free(public);
	gamestate_clear(&gs);
}

/* The template game: the line "Your cards: ..." of another seat (once
 * the game is over no hand is hidden, as in check_hands). */
static void
check_ladder_hands(const struct store_outbox *o, int seat, const char *body)
{
	struct gamestate gs;
	char err[512], line[256];
	json_t *view, *seats, *hand, *card;
	size_t i, k;
	int s, used, one;

	ck_assert_int_eq(gamestate_load(env.st, o->game_id, o->seq, &gs, err,
	    sizeof(err)), ENGINE_OK);
	if (gs.module->to_act(gs.state, &one, 1) == 0 || gs.ended != NULL) {
		gamestate_clear(&gs);
		return;
	}
	for (s = 0; s < gs.game.nseats; s++) {
		if (s == seat)
			continue;
		view = gamestate_view(&gs, s);
		seats = json_object_get(view, "seats");
		json_array_foreach(seats, i, card) {
			if (json_integer_value(json_object_get(card, "seat")) !=
			    s || (hand = json_object_get(card, "hand")) == NULL)
				continue;
			used = snprintf(line, sizeof(line), "Your cards: ");
			for (k = 0; k < json_array_size(hand); k++)
				used += snprintf(line + used, sizeof(line) -
				    (size_t)used, "%lld ", (long long)
				    json_integer_value(json_array_get(hand,
				    k)));
			ck_assert_msg(json_array_size(hand) == 0 ||
			    strstr(body, line) == NULL, "%s mail to seat %d "
			    "shows seat %d's hand", o->event, seat, s);
		}
		json_decref(view);
	}
	gamestate_clear(&gs);
}

/* Every card name ("name", "name_en", "name_fr") in a view's value. */
static void
card_names(const json_t *v, json_t *out)
{
	const char *k;
	json_t *x;
	size_t i;

	if (json_is_object(v))
		json_object_foreach((json_t *)v, k, x) {
			if ((strcmp(k, "name") == 0 || strcmp(k, "name_en") ==
			    0 || strcmp(k, "name_fr") == 0) && json_is_string(x))
				json_array_append(out, x);
			else
				card_names(x, out);
		}
	else if (json_is_array(v))
		json_array_foreach(v, i, x)
			card_names(x, out);
}

/*
 * The picture (HTML part) of a mail to seat: no card name of another
 * seat's view that seat's own view does not hold (while the game runs),
 * and, in a game with named cards, the names of the seat's own hand in
 * its language.
 */
static void
check_picture_cards(const struct store_outbox *o, int seat, int fr,
    const char *html)
{
	struct gamestate gs;
	char err[512], *own;
	json_t *view, *other, *names, *n;
	size_t i;
	int s, over, one;

	ck_assert_int_eq(gamestate_load(env.st, o->game_id, o->seq, &gs, err,
	    sizeof(err)), ENGINE_OK);
	over = gs.module->to_act(gs.state, &one, 1) == 0 || gs.ended != NULL;
	view = gamestate_view(&gs, seat);
	own = json_dumps(view, JSON_COMPACT);
	names = json_array();
	for (s = 0; s < gs.game.nseats && !over; s++) {
		if (s == seat)
			continue;
		/* All that seat s sees (its hand, wherever the game keeps
		 * it); what seat sees too is left out below. */
		other = gamestate_view(&gs, s);
		card_names(other, names);
		json_decref(other);
	}
	json_array_foreach(names, i, n)
		ck_assert_msg(strstr(own, json_string_value(n)) != NULL ||
		    strstr(html, json_string_value(n)) == NULL, "%s picture "
		    "(row %lld) to seat %d shows another seat's card %s",
		    o->event, (long long)o->id, seat, json_string_value(n));
	json_array_foreach(json_object_get(view, "hand"), i, n) {
		n = json_object_get(n, fr ? "name_fr" : "name_en");
		if (json_is_string(n) && strpbrk(json_string_value(n),
		    "&<>'\"") == NULL)
			ck_assert_msg(strstr(html, json_string_value(n)) !=
			    NULL, "%s picture to seat %d lacks its card %s",
			    o->event, seat, json_string_value(n));
	}
	json_decref(view);
	json_decref(names);
	free(own);
	gamestate_clear(&gs);
}

/* A composed mail parsed back by GMime (g_object_unref() it). */
static GMimeMessage *
parse_mail(const char *raw, size_t len)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;

	stream = g_mime_stream_mem_new_with_buffer(raw, len);
	parser = g_mime_parser_new_with_stream(stream);
	g_object_unref(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	ck_assert_ptr_nonnull(msg);
	return msg;
}

/*
 * A your-turn or game-over mail: composed and parsed back, it is
 * multipart/alternative with the text/plain part first -- the same text
 * as the mail without its picture -- and the text/html part second,
 * which has no script, no remote image and no SVG, and no other seat's
 * hidden card.
 */
static void
check_alternative(const struct store_outbox *o, int seat, int fr,
    const struct mail_out *out)
{
	struct mail_out text_only = *out;
	GMimeMessage *msg, *plain_msg;
	GMimeObject *top, *first, *second, *plain;
	char *raw, *raw_plain, *t1, *t0, *html, *lower, *c;
	size_t len, plen;

	text_only.html = NULL;
	raw = mail_compose(&set, out, 0, &len);
	raw_plain = mail_compose(&set, &text_only, 0, &plen);
	ck_assert_ptr_nonnull(raw);
	ck_assert_ptr_nonnull(raw_plain);
	msg = parse_mail(raw, len);
	plain_msg = parse_mail(raw_plain, plen);
	top = g_mime_message_get_mime_part(msg);
	ck_assert_msg(GMIME_IS_MULTIPART(top) && g_mime_content_type_is_type(
	    g_mime_object_get_content_type(top), "multipart", "alternative"),
	    "%s mail is not multipart/alternative", o->event);
	ck_assert_int_eq(g_mime_multipart_get_count(GMIME_MULTIPART(top)), 2);
	first = g_mime_multipart_get_part(GMIME_MULTIPART(top), 0);
	second = g_mime_multipart_get_part(GMIME_MULTIPART(top), 1);
	plain = g_mime_message_get_mime_part(plain_msg);
	ck_assert(g_mime_content_type_is_type(g_mime_object_get_content_type(
	    first), "text", "plain"));
	ck_assert(g_mime_content_type_is_type(g_mime_object_get_content_type(
	    second), "text", "html"));
	ck_assert(g_mime_content_type_is_type(g_mime_object_get_content_type(
	    plain), "text", "plain"));
	t1 = g_mime_text_part_get_text(GMIME_TEXT_PART(first));
	t0 = g_mime_text_part_get_text(GMIME_TEXT_PART(plain));
	ck_assert_str_eq(t1, t0);
	html = g_mime_text_part_get_text(GMIME_TEXT_PART(second));
	ck_assert_str_eq(html, out->html);
	for (lower = strdup(html), c = lower; *c != '\0'; c++)
		*c = (char)tolower((unsigned char)*c);
	ck_assert_msg(strstr(lower, "<script") == NULL &&
	    strstr(lower, "src=\"http") == NULL && strstr(lower, "<svg") ==
	    NULL && strstr(lower, "<img") == NULL, "%s picture has script, "
	    "an image or SVG", o->event);
	free(lower);
	ck_assert_msg(strstr(html, "{{") == NULL, "%s", html);
	ck_assert_ptr_nonnull(strstr(html, "<table"));
	/* The sign-in link, as a button, in a your-turn mail. */
	if (strcmp(o->event, "your_turn") == 0)
		ck_assert_ptr_nonnull(strstr(html, "<a href=\"http"));
	check_picture_cards(o, seat, fr, html);
	check_hands(o, seat, html);
	g_free(t0);
	g_free(t1);
	g_free(html);
	g_object_unref(msg);
	g_object_unref(plain_msg);
	free(raw);
	free(raw_plain);
}

/* The subject's title and words are joined as the language writes a
 * colon: "Star Trek : Missions : la partie commence" in French (a space
 * before every colon), "Star Trek: Missions: the game begins" in
 * English. */
static void
french_colons(const char *subject, int fr)
{
	const char *c;

	for (c = strchr(subject, ':'); c != NULL; c = strchr(c + 1, ':'))
		ck_assert_msg(fr ? c[-1] == ' ' : c[-1] != ' ',
		    "colon in \"%s\"", subject);
	ck_assert_ptr_nonnull(strstr(subject, fr ? " : " : ": "));
}

/* Render o in one language and check it; returns the body (free it). */
static char *
render_in(struct store_outbox *o, int fr)
{
	const struct expect *x;
	struct mail_out out;
	json_t *pl;
	char err[1024], *body, *payload = o->payload;
	int seat = -1, observer;

	pl = json_loads(o->payload, 0, NULL);
	ck_assert_ptr_nonnull(pl);
	x = expect_for(o->event, json_is_true(json_object_get(pl, "forced")));
	observer = json_object_get(pl, "viewer") != NULL;
	if (observer) {
		json_object_set_new(pl, "lang", json_string(fr ? "fr" : "en"));
		o->payload = json_dumps(pl, JSON_COMPACT);
	} else {
		seat = (int)json_integer_value(json_object_get(pl, "seat"));
		sql("UPDATE players SET lang = '%s'", fr ? "fr" : "en");
	}
	ck_assert_msg(mail_render(env.st, tpl, &set, o, &out, err,
	    sizeof(err)) == MAIL_RENDER_OK, "row %lld (%s, %s): %s",
	    (long long)o->id, o->event, fr ? "fr" : "en", err);
	if (observer) {
		free(o->payload);
		o->payload = payload;
	}
	ck_assert_msg(strstr(out.subject, fr ? x->subject_fr : x->subject_en)
	    != NULL, "%s: subject \"%s\"", o->event, out.subject);
	ck_assert_msg(strncmp(out.subject, "[pbem #", 7) == 0, "%s",
	    out.subject);
	french_colons(out.subject, fr);
	ck_assert_str_eq(out.to, o->recipient);
	/* News, not an answer to anyone's mail -- but for the receipt. */
	ck_assert_int_eq(out.autosub, strcmp(o->event, "accepted") == 0 ?
	    MAIL_AUTO_REPLIED : MAIL_AUTO_GENERATED);
	if ((fr ? x->body_fr : x->body_en) != NULL)
		ck_assert_msg(strstr(out.body, fr ? x->body_fr : x->body_en) !=
		    NULL, "%s (%s) body lacks \"%s\":\n%s", o->event, fr ?
		    "fr" : "en", fr ? x->body_fr : x->body_en, out.body);
	/* Nothing left unrendered, no template syntax. */
	ck_assert_msg(strstr(out.body, "{{") == NULL, "%s", out.body);
	/* Your-turn mails that offer moves (not to a seat that has
	 * resigned since) and game-over mails to a seat, and only they,
	 * come with a picture. */
	ck_assert_msg((out.html != NULL) == (!observer &&
	    ((strcmp(o->event, "your_turn") == 0 &&
	    strstr(out.body, "pbem sign -g") != NULL) ||
	    strcmp(o->event, "game_over") == 0)), "%s mail: %s picture",
	    o->event, out.html != NULL ? "a" : "no");
	if (out.html != NULL) {
		check_alternative(o, seat, fr, &out);
		note_picture(fr, o->event);
	}
	body = strdup(out.body);
	mail_out_clear(&out);
	json_decref(pl);
	note_rendered(fr, o->event);
	(void)seat;
	return body;
}

typedef void (*row_check)(struct store_outbox *o, int seat, int fr,
    const char *body, void *arg);

/* Render every new mail row in both languages, checking each body with
 * check (may be NULL) and the hands with hands. */
static int
render_new(row_check check, void *arg, int ladder)
{
	sqlite3_stmt *q;
	struct store_outbox o;
	json_t *pl;
	char *body;
	int fr, seat, n = 0;

	ck_assert_int_eq(sqlite3_prepare_v2(store_test_db(env.st), "SELECT "
	    "id, game_id, seq, recipient, event, payload FROM outbox WHERE "
	    "channel = 'mail' AND id > ? ORDER BY id", -1, &q, NULL),
	    SQLITE_OK);
	sqlite3_bind_int64(q, 1, last_row);
	while (sqlite3_step(q) == SQLITE_ROW) {
		memset(&o, 0, sizeof(o));
		o.id = sqlite3_column_int64(q, 0);
		o.game_id = sqlite3_column_int64(q, 1);
		o.seq = sqlite3_column_int64(q, 2);
		snprintf(o.channel, sizeof(o.channel), "mail");
		snprintf(o.recipient, sizeof(o.recipient), "%s",
		    (const char *)sqlite3_column_text(q, 3));
		snprintf(o.event, sizeof(o.event), "%s",
		    (const char *)sqlite3_column_text(q, 4));
		o.payload = strdup((const char *)sqlite3_column_text(q, 5));
		pl = json_loads(o.payload, 0, NULL);
		seat = json_object_get(pl, "viewer") != NULL ? -1 :
		    (int)json_integer_value(json_object_get(pl, "seat"));
		json_decref(pl);
		for (fr = 0; fr < 2; fr++) {
			body = render_in(&o, fr);
			if (ladder)
				check_ladder_hands(&o, seat, body);
			else
				check_hands(&o, seat, body);
			if (check != NULL)
				check(&o, seat, fr, body, arg);
			free(body);
		}
		free(o.payload);
		last_row = o.id;
		n++;
	}
	sqlite3_finalize(q);
	sql("UPDATE players SET lang = '%s'", "en");
	return n;
}

static int64_t
count_rows(const char *event)
{
	sqlite3_stmt *q;
	int64_t n;

	ck_assert_int_eq(sqlite3_prepare_v2(store_test_db(env.st), "SELECT "
	    "count(*) FROM outbox WHERE event = ? AND id > ?", -1, &q, NULL),
	    SQLITE_OK);
	sqlite3_bind_text(q, 1, event, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, last_row);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return n;
}

/* ---- Per-event checks --------------------------------------------------- */

struct want {
	const char	*event;
	const char	*en, *fr;	/* in the body */
	int		 seat;		/* only for this seat; -2: any */
	int		 every;		/* 1: in every such mail; 0: in one */
	int		 seen;
};

static void
check_want(struct store_outbox *o, int seat, int fr, const char *body,
    void *arg)
{
	struct want *w;

	for (w = arg; w->event != NULL; w++) {
		if (strcmp(w->event, o->event) != 0 || (w->seat != -2 &&
		    w->seat != seat))
			continue;
		if (strstr(body, fr ? w->fr : w->en) != NULL)
			w->seen++;
		else
			ck_assert_msg(!w->every, "%s to seat %d (%s) lacks "
			    "\"%s\":\n%s", o->event, seat, fr ? "fr" : "en",
			    fr ? w->fr : w->en, body);
	}
}

static void
all_seen(const struct want *w)
{
	for (; w->event != NULL; w++)
		ck_assert_msg(w->seen > 0, "no %s mail checked for \"%s\"",
		    w->event, w->en);
}

/* ---- Tests -------------------------------------------------------------- */

/* A new game: the seat to act gets "your turn" with its move forms, the
 * others "the game begins"; nothing else is queued. */
START_TEST(test_opening_mail)
{
	int64_t game;
	int seat;
	struct want want[] = {
		{ "your_turn", "pbem sign -g", "pbem sign -g", -2, 1, 0 },
		{ "game_started", "you will get a mail when it is your turn",
		    "vous recevrez un courriel", -2, 1, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	game = testenv_game(&env, "stmissions", 3);
	seat = to_act(game, NULL);
	ck_assert_int_ge(seat, 0);
	ck_assert_int_eq(count_rows("your_turn"), 1);
	ck_assert_int_eq(count_rows("game_started"), 2);
	ck_assert_int_eq(render_new(check_want, want, 0), 3);
	all_seen(want);
}
END_TEST

/* The your_turn row of a new game goes to the seat to act. */
START_TEST(test_opening_mail_recipient)
{
	sqlite3_stmt *q;
	int64_t game;
	int seat, n = 0;
	char expect[64];

	game = testenv_game(&env, "template", 4);
	seat = to_act(game, NULL);
	snprintf(expect, sizeof(expect), "p%d@example.org", seat);
	ck_assert_int_eq(sqlite3_prepare_v2(store_test_db(env.st), "SELECT "
	    "recipient, seq FROM outbox WHERE event = 'your_turn'", -1, &q,
	    NULL), SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW) {
		ck_assert_str_eq((const char *)sqlite3_column_text(q, 0),
		    expect);
		ck_assert_int_eq(sqlite3_column_int64(q, 1), 0);
		n++;
	}
	sqlite3_finalize(q);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(count_rows("game_started"), 3);
	ck_assert_int_eq(render_new(NULL, NULL, 1), 4);
}
END_TEST

/* Does some entry of game's log have summaries containing en and fr? */
static int
summary_says(int64_t game, int64_t last, const char *en, const char *fr)
{
	struct engine_summary_reader reader;
	struct engine_summary sum, alone;
	struct store_entry e;
	int64_t seq;
	int found = 0;

	/* A reader replays each entry onto the state after the one before;
	 * it must word what a load of that state does. */
	memset(&reader, 0, sizeof(reader));
	for (seq = 0; seq <= last && !found; seq++) {
		if (store_log_get(env.st, game, seq, &e) != STORE_OK)
			ck_abort_msg("entry %lld is not in the log",
			    (long long)seq);
		engine_summary_read(env.st, &reader, &e, NULL, &sum);
		engine_summary_of(env.st, &e, NULL, &alone);
		ck_assert_str_eq(sum.en, alone.en);
		ck_assert_str_eq(sum.fr, alone.fr);
		store_entry_clear(&e);
		found = strstr(sum.en, en) != NULL &&
		    strstr(sum.fr, fr) != NULL;
	}
	engine_summary_reader_clear(&reader);
	return found;
}

/* The summaries of the entries the server wrote say what happened, in
 * both languages, with the players' names (docs/API.md, "Summaries"). */
static void
check_server_summaries(int64_t game)
{
	struct store_entry last;
	static const char *const said[][2] = {
		{ " (played by the server)", " (joué par le serveur)" },
		{ "p2 resigned", "p2 a abandonné" },
		{ "p4 replaces ", "p4 remplace " },
		{ "the game was called off \xe2\x80\x94 game over",
		    "la partie est annulée d'un commun accord \xe2\x80\x94 "
		    "partie terminée" },
		{ "Star Trek: Missions, game ", "Star Trek : Missions, "
		    "partie " },
	};
	size_t i;

	ck_assert_int_eq(store_log_last(env.st, game, &last), STORE_OK);
	for (i = 0; i < sizeof(said) / sizeof(said[0]); i++)
		ck_assert_msg(summary_says(game, last.seq, said[i][0],
		    said[i][1]), "no summary says \"%s\" / \"%s\"",
		    said[i][0], said[i][1]);
	store_entry_clear(&last);
}

/*
 * One game of Star Trek: Missions for three seats through every notice:
 * reminder, deadline (grace), the default move, press, a call-off vote,
 * a resignation, a replacement, a late seat (wait), an absent seat
 * offered, observers in both languages, and the game called off.
 */
START_TEST(test_every_notice)
{
	char err[512], deadline_en[128], deadline_fr[128], grace_en[128],
	    grace_fr[128], text[256];
	int64_t game, t0 = fake_now, next;
	struct store_entry e;
	int seat, late, before;
	struct want want[] = {
		{ "reminder", NULL, NULL, -2, 1, 0 },		/* 0: deadline */
		{ "reminder", "the server plays your default move",
		    "le serveur joue votre coup par défaut", -2, 1, 0 },
		{ "reminder", "A grace period of 6 hours",
		    "Une période de grâce de 6 heures", -2, 1, 0 },
		{ "deadline", NULL, NULL, -2, 1, 0 },		/* 3: grace end */
		{ "auto_move", NULL, NULL, -2, 1, 0 },		/* 4: move */
		{ "press", "Meet me at Rigel VII, d'accord ?",
		    "Meet me at Rigel VII, d'accord ?", -2, 1, 0 },
		{ "press", "seat 0 (p0)", "siège 0 (p0)", -2, 1, 0 },
		{ "call_off_vote", "Seat 1 (p1)", "Le siège 1 (p1)", -2, 0, 0 },
		{ "resigned", "You (p2, seat 2) resigned", "Vous (p2, siège 2) "
		    "avez abandonné", 2, 1, 0 },
		{ "update", "Seat 2 (p2) resigned", "Le siège 2 (p2) a "
		    "abandonné", -2, 0, 0 },
		{ "observer_update", "Seat 2 (p2) resigned", "Le siège 2 (p2) "
		    "a abandonné", -1, 0, 0 },
		{ "seat_taken", "replacing p2", "à la place de p2", 2, 0, 0 },
		{ "seat_taken", "You (p4) now hold seat", "Vous (p4) occupez "
		    "désormais le siège", -2, 0, 0 },
		{ "late", "missed its deadline", "a dépassé son délai", -2, 0,
		    0 },
		{ "late", "missed your deadline", "avez dépassé votre délai",
		    -2, 0, 0 },
		{ "seat_offered", "pbemctl replace", "pbemctl replace", -2, 0,
		    0 },
		{ "seat_offered", "your seat is now marked absent",
		    "votre siège est désormais déclaré\nabsent", -2, 0, 0 },
		{ "seat_offered", "gm@example.org", "gm@example.org", -2, 1, 0 },
		{ "observer_seat_offered", "gm@example.org", "gm@example.org",
		    -1, 1, 0 },
		{ "game_over", "called off", "annulée", -2, 1, 0 },
		{ "observer_game_over", "called off", "annulée", -1, 1, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	game = testenv_game(&env, "stmissions", 3);
	ck_assert_int_eq(engine_observe(env.st, game, "watch-en@example.org",
	    "en", fake_now, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(engine_observe(env.st, game, "watch-fr@example.org",
	    "fr", fake_now, err, sizeof(err)), ENGINE_OK);
	set_policy(game, "{\"turn_time\": \"48h\", \"reminders\": [\"24h\"], "
	    "\"grace\": \"6h\", \"missed\": \"default\"}");
	render_new(NULL, NULL, 0);

	/* Reminder 24 h before the deadline, Wednesday 3 January 09:00. */
	snprintf(deadline_en, sizeof(deadline_en), "Wednesday 3 January 2024, "
	    "09:00 UTC");
	snprintf(deadline_fr, sizeof(deadline_fr), "mercredi 3 janvier 2024, "
	    "09:00 UTC");
	snprintf(grace_en, sizeof(grace_en), "Wednesday 3 January 2024, "
	    "15:00 UTC");
	snprintf(grace_fr, sizeof(grace_fr), "mercredi 3 janvier 2024, "
	    "15:00 UTC");
	want[0].en = deadline_en;
	want[0].fr = deadline_fr;
	want[3].en = grace_en;
	want[3].fr = grace_fr;
	seat = to_act(game, &next);
	tick(t0);
	tick(t0 + 24 * HOUR);
	ck_assert_int_eq(count_rows("reminder"), 1);
	tick(t0 + 48 * HOUR);
	ck_assert_int_eq(count_rows("deadline"), 1);
	render_new(check_want, want, 0);
	tick(t0 + 54 * HOUR);
	ck_assert_int_eq(count_rows("auto_move"), 1);
	/* The automatic move's text, as the log holds it, in its mail. */
	ck_assert_int_eq(store_log_get(env.st, game, next, &e), STORE_OK);
	ck_assert_int_eq(e.kind, STORE_ENTRY_AUTO);
	ck_assert_int_eq(e.seat, seat);
	snprintf(text, sizeof(text), "    %s\n", e.text);
	store_entry_clear(&e);
	want[4].en = want[4].fr = text;
	want[4].seat = seat;
	render_new(check_want, want, 0);

	/* Press and a call-off vote. */
	command(0, game, 1, 0, "press all: Meet me at Rigel VII, d'accord ?");
	ck_assert_int_eq(count_rows("press"), 2);
	command(1, game, 1, 1, "call off");
	ck_assert_int_eq(count_rows("call_off_vote"), 2);
	render_new(check_want, want, 0);

	/* Seat 2 resigns (the game goes on), player 3 takes the seat. */
	command(2, game, 1, 2, "resign");
	ck_assert_int_eq(count_rows("resigned"), 1);
	render_new(check_want, want, 0);
	ck_assert_int_eq(engine_replace(env.st, env.key, game, 2,
	    env.player_id[3], fake_now, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(count_rows("seat_taken"), 1);
	render_new(check_want, want, 0);

	/* A late seat under "wait", then an absent one. */
	set_policy(game, "{\"turn_time\": \"1d\", \"reminders\": [], "
	    "\"missed\": \"wait\"}");
	t0 = fake_now + HOUR;
	tick(t0);
	tick(t0 + 2 * DAY);
	ck_assert_int_eq(count_rows("late"), 3);
	render_new(check_want, want, 0);
	late = to_act(game, NULL);
	play_first(game, late == 2 ? 3 : late);
	set_policy(game, "{\"turn_time\": \"1d\", \"reminders\": [], "
	    "\"missed\": \"absent\"}");
	t0 = fake_now + HOUR;
	tick(t0);
	tick(t0 + 2 * DAY);
	ck_assert_int_eq(count_rows("seat_offered"), 3);
	ck_assert_int_eq(count_rows("observer_seat_offered"), 2);
	render_new(check_want, want, 0);
	late = to_act(game, NULL);
	ck_assert_int_eq(engine_replace(env.st, env.key, game, late,
	    env.player_id[4], fake_now, err, sizeof(err)), ENGINE_OK);
	render_new(check_want, want, 0);

	/* Everybody agrees to call the game off. */
	before = (int)count_rows("game_over");
	for (seat = 0; seat < 3; seat++) {
		struct store_seat row;
		struct store_game g;
		int signer;

		ck_assert_int_eq(store_seat_get(env.st, game, seat, &row),
		    STORE_OK);
		ck_assert_int_eq(store_game_get(env.st, game, &g), STORE_OK);
		for (signer = 0; signer < env.nplayers; signer++)
			if (env.player_id[signer] == g.seat_player[seat])
				break;
		store_game_clear(&g);
		if (row.call_off)
			continue;
		command(signer, game, row.command_seq + 1, seat, "call off");
	}
	ck_assert_int_eq(to_act(game, NULL), -1);
	ck_assert_int_eq(count_rows("game_over") - before, 3);
	render_new(check_want, want, 0);
	all_seen(want);
	check_server_summaries(game);
}
END_TEST

/* The template game skips a missed turn (policy "skip"). */
START_TEST(test_skipped)
{
	int64_t game, t0 = fake_now, next;
	int seat;
	struct want want[] = {
		{ "skipped", "passed your turn (move 1)", "passé\nvotre tour "
		    "(coup 1)", -2, 1, 0 },
		{ "update", "missed its deadline; the server passed its turn",
		    "a dépassé son délai ; le serveur a passé son tour", -2,
		    0, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	game = testenv_game(&env, "template", 3);
	set_policy(game, "{\"turn_time\": \"2h\", \"reminders\": [], "
	    "\"missed\": \"skip\"}");
	seat = to_act(game, &next);
	tick(t0);
	tick(t0 + 2 * HOUR);
	ck_assert_int_eq(count_rows("skipped"), 1);
	ck_assert_int_ne(to_act(game, NULL), seat);
	render_new(check_want, want, 1);
	all_seen(want);
}
END_TEST

/* A two-seat game ended by a resignation: game_over says who resigned. */
START_TEST(test_resign_ends)
{
	int64_t game;
	struct want want[] = {
		{ "game_over", "Seat 0 (p0) resigned", "Le siège 0 (p0) a "
		    "abandonné", -2, 1, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	game = testenv_game(&env, "stmissions", 2);
	command(0, game, 1, 0, "resign");
	ck_assert_int_eq(to_act(game, NULL), -1);
	ck_assert_int_eq(count_rows("game_over"), 2);
	render_new(check_want, want, 0);
	ck_assert_int_eq(want[0].seen, 4);
}
END_TEST

/* A row_check: the mails of events arg[0..] to seat *(int *)arg offer no
 * move to sign (the seat resigned or is absent). */
struct no_moves {
	int64_t		 game;
	int		 seat;
	const char	*events[4];
	int		 checked;
};

static void
check_no_moves(struct store_outbox *o, int seat, int fr, const char *body,
    void *arg)
{
	struct no_moves *nm = arg;
	int i;

	(void)fr;
	for (i = 0; i < 4 && nm->events[i] != NULL; i++) {
		if (o->game_id != nm->game || seat != nm->seat ||
		    strcmp(o->event, nm->events[i]) != 0)
			continue;
		ck_assert_msg(strstr(body, "pbem sign") == NULL, "%s to seat %d "
		    "offers moves:\n%s", o->event, seat, body);
		nm->checked++;
	}
}

/* Bugs 1 and 3: a game ended by a resignation names its winner in the
 * game-over mail (not "No winner.") and every seat's view of it is the
 * game-over one, never "your turn" or "waiting for seat ". */
START_TEST(test_resign_ends_with_winner)
{
	struct gamestate gs;
	char err[512];
	int64_t game;
	struct want want[] = {
		{ "game_over", "Winner(s): p1 (seat 1).", "Gagnant(s) : p1 "
		    "(siège 1).", -2, 1, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	game = testenv_game(&env, "stmissions", 2);
	command(0, game, 1, 0, "resign");
	render_new(check_want, want, 0);
	ck_assert_int_eq(want[0].seen, 4);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_str_eq(mail_view_name(&gs, 0), "game_over");
	ck_assert_str_eq(mail_view_name(&gs, 1), "game_over");
	ck_assert_int_eq(gamestate_seat_acts(&gs, 1, NULL), 0);
	gamestate_clear(&gs);
}
END_TEST

/* Bug 4: the mails to a seat that resigned, or was marked absent, in a
 * game that goes on never show "your turn" with moves to sign. */
START_TEST(test_resigned_and_absent_offer_no_moves)
{
	struct gamestate gs;
	char err[512];
	int64_t game, t0 = fake_now;
	int seat;
	struct no_moves resigned = { 0, 0, { "resigned", "update", "your_turn",
	    NULL }, 0 };
	struct no_moves absent = { 0, 0, { "seat_offered", "update",
	    "your_turn", NULL }, 0 };

	game = testenv_game(&env, "template", 3);
	render_new(NULL, NULL, 1);
	seat = to_act(game, NULL);
	resigned.game = game;
	resigned.seat = seat;
	command(seat, game, 1, seat, "resign");
	ck_assert_int_eq(count_rows("resigned"), 1);
	render_new(check_no_moves, &resigned, 1);
	ck_assert_int_ge(resigned.checked, 2);
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(gamestate_seat_acts(&gs, seat, NULL), 0);
	gamestate_clear(&gs);

	game = testenv_game(&env, "template", 3);
	set_policy(game, "{\"turn_time\": \"2h\", \"reminders\": [], "
	    "\"missed\": \"absent\"}");
	render_new(NULL, NULL, 1);
	absent.game = game;
	absent.seat = to_act(game, NULL);
	tick(t0);
	tick(t0 + 2 * HOUR);
	ck_assert_int_eq(count_rows("seat_offered"), 3);
	render_new(check_no_moves, &absent, 1);
	ck_assert_int_ge(absent.checked, 2);
}
END_TEST

/* Bug 14: a seat given back to its own player does not name the
 * player twice; a message to two seats says "seats 0 and 2". */
START_TEST(test_replace_same_player_and_seat_lists)
{
	char err[512];
	int64_t game, t0 = fake_now;
	int seat;
	struct want want[] = {
		{ "seat_taken", " again.", " de nouveau.", -2, 1, 0 },
		{ "press", "to seats 0 and 2", "aux sièges 0 et 2", -2, 1, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	game = testenv_game(&env, "template", 4);
	set_policy(game, "{\"turn_time\": \"2h\", \"reminders\": [], "
	    "\"missed\": \"absent\"}");
	seat = to_act(game, NULL);
	tick(t0);
	tick(t0 + 2 * HOUR);
	render_new(NULL, NULL, 1);
	ck_assert_int_eq(engine_replace(env.st, env.key, game, seat,
	    env.player_id[seat], fake_now, err, sizeof(err)), ENGINE_OK);
	command(1, game, 1, 1, "press 0,2: hello");
	render_new(check_want, want, 1);
	all_seen(want);
}
END_TEST

/* Bug 16: a mail queued for a seat's player and delivered after the
 * seat changed hands is written in the language of the player it was
 * addressed to, and names that player. */
START_TEST(test_mail_in_addressee_language)
{
	sqlite3_stmt *q;
	struct store_outbox o;
	struct mail_out out;
	char err[1024];
	int64_t game;
	int seat;

	game = testenv_game(&env, "template", 3);
	seat = (to_act(game, NULL) + 1) % 3;
	sql("UPDATE players SET lang = '%s'", "en");
	sql("UPDATE players SET lang = 'fr' WHERE email = '%s'",
	    seat == 0 ? "p0@example.org" : seat == 1 ? "p1@example.org" :
	    "p2@example.org");
	ck_assert_int_eq(engine_replace(env.st, env.key, game, seat,
	    env.player_id[3], fake_now, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(store_test_db(env.st), "SELECT "
	    "id, game_id, seq, recipient, event, payload FROM outbox WHERE "
	    "event = 'game_started' AND payload LIKE ?", -1, &q, NULL),
	    SQLITE_OK);
	snprintf(err, sizeof(err), "%%\"seat\":%d%%", seat);
	sqlite3_bind_text(q, 1, err, -1, SQLITE_TRANSIENT);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	memset(&o, 0, sizeof(o));
	o.id = sqlite3_column_int64(q, 0);
	o.game_id = sqlite3_column_int64(q, 1);
	o.seq = sqlite3_column_int64(q, 2);
	snprintf(o.channel, sizeof(o.channel), "mail");
	snprintf(o.recipient, sizeof(o.recipient), "%s",
	    (const char *)sqlite3_column_text(q, 3));
	snprintf(o.event, sizeof(o.event), "%s",
	    (const char *)sqlite3_column_text(q, 4));
	o.payload = strdup((const char *)sqlite3_column_text(q, 5));
	sqlite3_finalize(q);
	ck_assert_int_eq(mail_render(env.st, tpl, &set, &o, &out, err,
	    sizeof(err)), MAIL_RENDER_OK);
	ck_assert_msg(strstr(out.subject, "la partie commence") != NULL,
	    "%s", out.subject);
	ck_assert_msg(strstr(out.body, "p3") == NULL, "%s", out.body);
	mail_out_clear(&out);
	free(o.payload);
}
END_TEST

/* Bug 5: a vacation is confirmed to its seat (with how to cancel it) and
 * announced to the others; a cancellation too. */
START_TEST(test_vacation_told)
{
	int64_t game;
	struct want want[] = {
		{ "vacation", "Your vacation in", "Vos vacances dans", 0, 1, 0 },
		{ "vacation", "\"vacation cancel\"", "\"vacances annuler\"", 0,
		    0, 0 },
		{ "vacation", "Seat 0 (p0) is on vacation", "Le siège 0 (p0) est "
		    "en vacances", 1, 0, 0 },
		{ "vacation", "Wednesday 10 January 2024, 00:00 UTC",
		    "mercredi 10 janvier 2024, 00:00 UTC", -2, 0, 0 },
		{ "vacation", "Seat 0 (p0) cancelled its vacation", "Le siège 0 "
		    "(p0) a annulé ses vacances", 2, 0, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	game = testenv_game(&env, "template", 3);
	render_new(NULL, NULL, 1);
	command(0, game, 1, 0, "vacation 2024-01-10 2024-01-12");
	ck_assert_int_eq(count_rows("vacation"), 3);
	command(0, game, 2, 0, "Vacation cancel.");
	ck_assert_int_eq(count_rows("vacation"), 6);
	render_new(check_want, want, 1);
	all_seen(want);
}
END_TEST

/* Item 2: every view in a mail shows the deadline of the seats to act in
 * words and ISO 8601, in the reader's time zone once set, and who is
 * late; a zone the tz database does not know is refused. */
START_TEST(test_deadlines_shown)
{
	struct engine_reply reply;
	char block[4096];
	int64_t game, t0 = fake_now;
	int seat;
	struct want want[] = {
		{ "your_turn", "Your deadline: Wednesday 3 January 2024, 09:00 "
		    "UTC\n  (2024-01-03T09:00:00Z)", "Votre délai : mercredi 3 "
		    "janvier 2024, 09:00 UTC\n  (2024-01-03T09:00:00Z)", -2, 1,
		    0 },
		{ "game_started", "(2024-01-03T09:00:00Z)",
		    "(2024-01-03T09:00:00Z)", -2, 1, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};
	struct want late[] = {
		{ "late", "10:00 (Europe/Paris)\n  (2024-01-03T10:00:00+01",
		    "10:00 (Europe/Paris)\n  (2024-01-03T10:00:00+01", -2, 1,
		    0 },
		{ "late", " - late", " - en retard", -2, 1, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"48h\", \"reminders\": [], "
	    "\"missed\": \"wait\"}");
	seat = to_act(game, NULL);
	render_new(check_want, want, 1);
	all_seen(want);
	testenv_block(&env, 0, game, 1, 0, "timezone Mars/Olympus_Mons", block,
	    sizeof(block));
	engine_handle(env.st, env.key, block, strlen(block), RULES_LANG_FR,
	    fake_now, &reply);
	ck_assert_int_eq(reply.status, ENGINE_BAD_REQUEST);
	ck_assert_msg(strstr(reply.message, "n'est pas un fuseau horaire "
	    "connu") != NULL, "%s", reply.message);
	engine_reply_clear(&reply);
	command(0, game, 1, 0, "timezone Europe/Paris");
	command(1, game, 1, 1, "fuseau Europe/Paris");
	tick(t0);
	tick(t0 + 48 * HOUR);
	ck_assert_int_eq(count_rows("late"), 2);
	(void)seat;
	render_new(check_want, late, 1);
	all_seen(late);
}
END_TEST

/* The move that ends a game gets its receipt like every other: the mover
 * has an "accepted" row (with the signed receipt, saying the game is
 * over) before the "game_over" every seat gets. */
START_TEST(test_last_move_receipt)
{
	int64_t game, next = 0, moves = 0;
	int mover = 0, seat;
	struct want want[] = {
		{ "accepted", "-----BEGIN PBEM RECEIPT-----",
		    "-----BEGIN PBEM RECEIPT-----", -2, 1, 0 },
		{ "accepted", "The game is over", "La partie est finie", -2,
		    1, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	game = testenv_game(&env, "template", 2);
	while ((seat = to_act(game, &next)) >= 0) {
		ck_assert_int_lt(++moves, 1000);
		mover = seat;
		play_first(game, -1);
	}
	/* Only the rows of the last move: every row before it has a
	 * smaller seq. */
	sql("DELETE FROM outbox WHERE seq < %s", "(SELECT max(seq) FROM "
	    "outbox)");
	ck_assert_int_eq(count_rows("accepted"), 1);
	ck_assert_int_eq(count_rows("game_over"), 2);
	ck_assert_int_eq(count_rows("your_turn") + count_rows("update"), 0);
	want[0].seat = want[1].seat = mover;
	render_new(check_want, want, 1);
	ck_assert_int_eq(want[0].seen, 2);
	ck_assert_int_eq(want[1].seen, 2);
}
END_TEST

/* A Star Trek: Missions "draw galaxy" sent alone: its receipt names the
 * card drawn (the seat still owes a discard, so it plays again). */
START_TEST(test_draw_receipt_names_card)
{
	struct gamestate gs;
	int64_t game, next;
	char err[512], en[128], fr[128];
	const char *id;
	json_t *view;
	int seat;
	struct want want[] = {
		{ "accepted", en, fr, -2, 1, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	game = testenv_game(&env, "stmissions", 2);
	seat = to_act(game, &next);
	command(seat, game, next, seat, "draw galaxy");
	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	view = gamestate_view(&gs, seat);
	id = json_string_value(json_object_get(json_array_get(json_object_get(
	    json_object_get(view, "pending"), "drawn"), 0), "id"));
	ck_assert_ptr_nonnull(id);
	snprintf(en, sizeof(en), "Just drawn: %s ", id);
	snprintf(fr, sizeof(fr), "Vient d'être piochée : %s ", id);
	json_decref(view);
	gamestate_clear(&gs);
	want[0].seat = seat;
	ck_assert_int_eq(count_rows("accepted"), 1);
	render_new(check_want, want, 0);
	ck_assert_int_eq(want[0].seen, 2);
}
END_TEST

/* In Parry, a strike opens a response window: its reminder says the
 * window closes with the default answer, whatever the "missed" policy. */
/* A clock_changed mail to a seat of a response window (every seat but
 * the striker, *arg) gives that seat's own deadline. */
static void
check_own_deadline(struct store_outbox *o, int seat, int fr,
    const char *body, void *arg)
{
	if (strcmp(o->event, "clock_changed") != 0)
		return;
	ck_assert_msg((strstr(body, fr ? "Votre délai" : "Your deadline") !=
	    NULL) == (seat != *(int *)arg), "clock_changed to seat %d "
	    "(striker %d):\n%s", seat, *(int *)arg, body);
}

START_TEST(test_window_reminder)
{
	struct engine_reply reply;
	struct gamestate gs;
	char err[512], move[32];
	int64_t game, t0 = fake_now, next;
	int striker, round;
	struct want want[] = {
		{ "reminder", "the server plays your default move for you (a "
		    "response window always closes)", "le serveur joue votre "
		    "coup par défaut à votre place (une fenêtre de réponse se "
		    "ferme toujours)", -2, 1, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};

	/* The striker's default move may be a pass, which opens no
	 * window: new games until one strikes (the seeds are random). */
	for (round = 0; round < 40 && want[0].seen == 0; round++) {
		game = testenv_game(&env, "respond", 3);
		set_policy(game, "{\"turn_time\": \"3d\", \"response_time\": "
		    "\"12h\", \"reminders\": [\"1h\"], \"missed\": \"wait\"}");
		striker = to_act(game, &next);
		ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
		    sizeof(err)), ENGINE_OK);
		ck_assert_int_eq(gs.module->default_move(gs.state, striker,
		    move, sizeof(move)), RULES_OK);
		gamestate_clear(&gs);
		if (strcmp(move, "pass") == 0)
			continue;
		fake_now = t0;
		testenv_play(&env, game, next, striker, move, &reply);
		ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
		engine_reply_clear(&reply);
		tick(t0 + 11 * HOUR);
		ck_assert_int_eq(count_rows("reminder"), 2);
		render_new(check_want, want, 1);
		/* Extended: each seat of the window hears of its own
		 * deadline, the striker of the first one's. */
		ck_assert_int_eq(engine_master_extend(env.st, game, NULL, HOUR,
		    RULES_LANG_EN, err, sizeof(err)), ENGINE_OK);
		ck_assert_int_eq(count_rows("clock_changed"), 3);
		ck_assert_int_eq(render_new(check_own_deadline, &striker, 1),
		    3);
		t0 += 4 * DAY;
	}
	all_seen(want);
}
END_TEST

static int
pick_signup(const struct store_outbox *row, void *arg)
{
	struct store_outbox *o = arg;

	if (strcmp(row->event, "signup") != 0)
		return 0;
	*o = *row;
	o->payload = strdup(row->payload);
	return 1;
}

/* The sign-up mail (signup.c): the code, derived at rendering from the
 * row's nonce and the key-encryption key, never stored; the link to
 * confirm it; in both languages; no game. */
START_TEST(test_signup_mail)
{
	struct hosted_kek *kek;
	struct store_outbox o;
	struct mail_out out;
	unsigned char hash[32];
	struct store_signup su;
	char err[512], path[400], code[ENGINE_CODE_LEN + 1], *p;
	int fr;

	snprintf(path, sizeof(path), "%s.kek", env.dbpath);
	snprintf(set.hosted_key_file, sizeof(set.hosted_key_file), "%s", path);
	kek = hosted_kek_open(path, 1, err, sizeof(err));
	ck_assert_msg(kek != NULL, "%s", err);
	ck_assert_int_eq(store_begin(env.st), STORE_OK);
	ck_assert_int_eq(engine_signup_start(env.st, kek, "new@example.org",
	    "newbie", "en", 0, fake_now, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(store_commit(env.st), STORE_OK);
	for (fr = 0; fr < 2; fr++) {
		memset(&o, 0, sizeof(o));
		ck_assert_int_eq(sqlite3_exec(store_test_db(env.st), fr ?
		    "UPDATE outbox SET payload = replace(payload, '\"lang\":"
		    "\"en\"', '\"lang\":\"fr\"') WHERE event = 'signup'" :
		    "SELECT 1", NULL, NULL, NULL), SQLITE_OK);
		ck_assert_int_eq(store_outbox_due_channel(env.st, "mail",
		    fake_now + 10, 100, pick_signup, &o), STORE_OK);
		ck_assert_int_gt(o.id, 0);
		ck_assert_int_eq(mail_render(env.st, tpl, &set, &o, &out, err,
		    sizeof(err)), MAIL_RENDER_OK);
		ck_assert_ptr_nonnull(strstr(out.subject, fr ?
		    "confirmez votre adresse" : "confirm your address"));
		ck_assert_ptr_nonnull(p = strstr(out.body,
		    "http://127.0.0.1:8080/confirm/"));
		snprintf(code, sizeof(code), "%s", p + 30);
		ck_assert_ptr_nonnull(strstr(out.body, fr ? "confirmer " :
		    "confirm "));
		/* The row holds no code; the signups row only its hash. */
		ck_assert_ptr_null(strstr(o.payload, code));
		engine_token_hash(code, hash);
		ck_assert_int_eq(store_signup_get(env.st, hash, &su), STORE_OK);
		ck_assert_str_eq(su.email, "new@example.org");
		mail_out_clear(&out);
		free(o.payload);
		note_rendered(fr, "signup");
	}
	hosted_kek_close(kek);
}
END_TEST

/*
 * Every event the engine can queue was rendered above from a real row,
 * in both languages (this test runs last, in the same process).
 */
START_TEST(test_every_event_has_a_mail)
{
	const char *const *e;
	int fr;

	for (e = engine_mail_events; *e != NULL; e++) {
		ck_assert_msg(mail_render_knows(*e), "the mail gateway has no "
		    "mail for event \"%s\"", *e);
		for (fr = 0; fr < 2; fr++)
			ck_assert_msg(was_rendered(fr, *e), "event \"%s\" was "
			    "never rendered in %s from a real row", *e, fr ?
			    "French" : "English");
	}
	/* And the pictures of your-turn and game-over mails were looked
	 * into (check_alternative()) in both languages. */
	for (fr = 0; fr < 2; fr++)
		ck_assert_msg(pictures[fr][0] > 0 && pictures[fr][1] > 0,
		    "pictures checked in %s: %d your-turn, %d game-over",
		    fr ? "French" : "English", pictures[fr][0],
		    pictures[fr][1]);
}
END_TEST


/* A policy change is told in words, every field, both languages, in the
 * order of docs/ASYNC.md whatever the row's; a field the mail does not
 * know is said as written. */
START_TEST(test_policy_words)
{
	json_t *changed;
	char words[2048];

	changed = json_loads("{\"late_every\": 86400, \"zzz\": 1, "
	    "\"press\": false, \"response_time\": 43200, \"vacation_max\": 0, "
	    "\"missed\": \"bot\", \"weekends\": \"pause\", \"grace\": 7200, "
	    "\"reminders\": [86400, 3600, 600], \"turn_time\": 0}", 0, NULL);
	ck_assert_ptr_nonnull(changed);
	mail_policy_change_words(changed, "en", words, sizeof(words));
	ck_assert_str_eq(words, "turns have no deadline now; a reminder goes "
	    "out 1 day, 1 hour and 10 minutes before a deadline; a missed "
	    "deadline leaves 2 hours of grace; weekends (Saturday and "
	    "Sunday, UTC) stop the clock; after a missed deadline, a bot "
	    "plays for the late seat until its player moves again; no "
	    "vacation is allowed now; a response window stays open 12 "
	    "hours; players may no longer send each other messages; the "
	    "late notice is sent again at intervals of 1 day; zzz=1");
	mail_policy_change_words(changed, "fr", words, sizeof(words));
	ck_assert_str_eq(words, "les tours n'ont plus de délai ; un rappel "
	    "part 1 jour, 1 heure et 10 minutes avant un délai ; un délai "
	    "manqué laisse 2 heures de grâce ; les week-ends (samedi et "
	    "dimanche, UTC) arrêtent l'horloge ; après un délai manqué, un "
	    "robot joue pour le siège en retard jusqu'à ce que son joueur "
	    "rejoue ; les vacances ne sont plus permises ; une fenêtre de "
	    "réponse reste ouverte 12 heures ; les joueurs ne peuvent plus "
	    "s'écrire ; l'avis de retard est renvoyé à intervalles de 1 "
	    "jour ; zzz=1");
	json_decref(changed);
	changed = json_loads("{\"turn_time\": 259200, \"reminders\": [], "
	    "\"missed\": \"default\", \"weekends\": \"count\", \"press\": "
	    "true, \"grace\": 0, \"late_every\": 0, \"vacation_max\": "
	    "604800, \"missed2\": \"x\"}", 0, NULL);
	mail_policy_change_words(changed, "en", words, sizeof(words));
	ck_assert_str_eq(words, "a turn now lasts 3 days; no reminders "
	    "before a deadline now; no grace after a deadline now; weekends "
	    "count like any other day; after a missed deadline, the server "
	    "plays the late seat's default move; each seat may take 7 days "
	    "of vacation in the game; players may send each other messages; "
	    "the late notice goes out once; missed2=\"x\"");
	json_decref(changed);
}
END_TEST

/*
 * The game master's own mails: named, the game starting, a seat late, a
 * move the server played for a seat, the answer to each gm command, the
 * end; and every player told when the master extends the turn, pauses
 * or resumes the game or changes its policy, in their own language and
 * time zone (the deadline in words and ISO 8601); the master told of
 * what the administrator does.
 */
START_TEST(test_master_mail)
{
	struct want want[] = {
		{ "master_notice", "You are now the game master",
		    "Vous êtes désormais le maître du jeu", -1, 0, 0 },
		{ "master_notice", "which you run as its game master, has "
		    "begun", "dont vous êtes le maître du jeu, commence",
		    -1, 0, 0 },
		{ "master_notice", "missed its deadline of Tuesday 2 January "
		    "2024, 10:00 (Europe/Paris)", "a dépassé son délai du "
		    "mardi 2 janvier 2024, 10:00 (Europe/Paris)", -1, 0, 0 },
		{ "master_notice", "your command \"gm extend 24h\" is done:\n"
		    "turn extended by 24h", "votre commande « gm extend 24h » "
		    "est faite :", -1, 0, 0 },
		{ "master_notice", "the server played for it",
		    "le serveur a joué pour lui", -1, 0, 0 },
		{ "master_notice", "which you ran as its game master, is over",
		    "dont vous étiez le maître du jeu, est terminée", -1, 0,
		    0 },
		{ "master_notice", "The game is over. No winner.",
		    "La partie est finie. Pas de gagnant.", -1, 0, 0 },
		{ "clock_changed", "the game master gave the current turn 1 "
		    "day more", "le maître du jeu a prolongé le tour en cours "
		    "de 1 jour", -2, 0, 0 },
		{ "clock_changed", "now has until Wednesday 3 January 2024, "
		    "09:00 UTC", "a désormais jusqu'au mercredi 3 janvier "
		    "2024, 09:00 UTC", -2, 0, 0 },
		{ "clock_changed", "resumed the game", "a repris la partie",
		    -2, 0, 0 },
		{ "clock_changed", "is now Wednesday 3 January 2024, 11:00 UTC "
		    "(2024-01-03T11:00:00Z)", "court désormais jusqu'au "
		    "mercredi 3 janvier 2024, 11:00 UTC (2024-01-03T11:00:00Z)",
		    -2, 0, 0 },
		{ "clock_changed", "game master paused the game on\nTuesday 2 "
		    "January 2024, 09:00 UTC (2024-01-02T09:00:00Z)", "maître "
		    "du jeu a mis la partie en pause le\nmardi 2 janvier 2024, "
		    "09:00 UTC (2024-01-02T09:00:00Z)", -2, 0, 0 },
		{ "clock_changed", "changed the game's policy:\na turn now lasts "
		    "2 days. It applies", "a modifié la politique de la\npartie "
		    ": un tour dure désormais 2 jours. Elle s'applique", -2, 0,
		    0 },
		{ "clock_changed", "is now Thursday 4 January 2024, 11:00 UTC "
		    "(2024-01-04T11:00:00Z)", "court désormais jusqu'au "
		    "jeudi 4 janvier 2024, 11:00 UTC (2024-01-04T11:00:00Z)",
		    -2, 0, 0 },
		{ "clock_changed", "the administrator gave the current turn 1 "
		    "hour more", "l'administrateur a prolongé le tour en cours "
		    "de 1 heure", -2, 0, 0 },
		{ "master_notice", "administrator gave the current turn 1 hour "
		    "more.\nSeat ", "l'administrateur a prolongé le tour en "
		    "cours de 1 heure.\nLe siège ", -1, 0, 0 },
		{ "master_notice", "13:00 (Europe/Paris) "
		    "(2024-01-04T13:00:00+01", "13:00 (Europe/Paris) "
		    "(2024-01-04T13:00:00+01", -1, 0, 0 },
		{ NULL, NULL, NULL, 0, 0, 0 }
	};
	int64_t players[2], game, formed, t0;
	char err[512], zone[128];
	int started, taken;

	snprintf(zone, sizeof(zone), "Europe/Paris' WHERE id = '%lld",
	    (long long)env.player_id[4]);
	sql("UPDATE players SET tz = '%s'", zone);
	/* A forming game whose master is named before it starts. */
	players[0] = env.player_id[2];
	players[1] = 0;
	ck_assert_int_eq(engine_form_game(env.st, env.key, "template", NULL,
	    players, 2, &formed, &started, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(started, 0);
	ck_assert_int_eq(engine_master_name(env.st, formed, env.player_id[4],
	    err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(count_rows("master_notice"), 0);
	ck_assert_int_eq(engine_join_game(env.st, env.key, formed, -1,
	    env.player_id[3], &taken, &started, err, sizeof(err)),
	    ENGINE_OK);
	ck_assert_int_eq(started, 1);
	ck_assert_int_eq(count_rows("master_notice"), 1);
	render_new(check_want, want, 1);

	/* A running game whose master is named. */
	game = testenv_game(&env, "template", 2);
	set_policy(game, "{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"wait\"}");
	ck_assert_int_eq(engine_master_name(env.st, game, env.player_id[4],
	    err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(count_rows("master_notice"), 1);
	t0 = fake_now;
	tick(t0);
	tick(t0 + 24 * HOUR);
	ck_assert_int_eq(count_rows("late"), 2);
	ck_assert_int_eq(count_rows("master_notice"), 2);
	render_new(check_want, want, 1);

	command(4, game, 1, 0, "gm extend 24h");
	ck_assert_int_eq(count_rows("clock_changed"), 2);
	ck_assert_int_eq(count_rows("master_notice"), 1);
	render_new(check_want, want, 1);
	command(4, game, 2, 0, "gm pause");
	fake_now += 2 * HOUR;
	command(4, game, 3, 0, "gm resume");
	ck_assert_int_eq(count_rows("clock_changed"), 4);
	ck_assert_int_eq(count_rows("master_notice"), 2);
	render_new(check_want, want, 1);
	/* A new policy: every seat hears of it and of its deadline. */
	command(4, game, 4, 0, "gm policy turn_time=48h");
	ck_assert_int_eq(count_rows("clock_changed"), 2);
	ck_assert_int_eq(count_rows("master_notice"), 1);
	render_new(check_want, want, 1);
	/* What the administrator does, the master hears of too. */
	ck_assert_int_eq(engine_master_extend(env.st, game, NULL, HOUR,
	    RULES_LANG_EN, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(count_rows("clock_changed"), 2);
	ck_assert_int_eq(count_rows("master_notice"), 1);
	render_new(check_want, want, 1);

	/* The extended turn passes under "default": the server plays. */
	set_policy(game, "{\"turn_time\": \"24h\", \"reminders\": [], "
	    "\"missed\": \"default\"}");
	tick(t0 + 51 * HOUR);	/* 24 h + 24 h + 2 h paused + 1 h */
	ck_assert_int_eq(count_rows("auto_move"), 1);
	ck_assert_int_eq(count_rows("master_notice"), 1);
	render_new(check_want, want, 1);
	command(0, game, 1, 0, "call off");
	command(1, game, 1, 1, "call off");
	ck_assert_int_eq(count_rows("master_notice"), 1);
	render_new(check_want, want, 1);
	all_seen(want);
}
END_TEST

/* ---- gm force ----------------------------------------------------------- */

/* What a seat missing its deadline is said to have done, in either
 * language: none may be said of a turn forced before its deadline. */
static const char *const missed_words[] = { "missed", "ran out", "manqué",
    "dépassé", "écoulé", NULL };

struct forced_mails {
	int	 early;		/* forced before the deadline */
	int	 checked[2];	/* rows checked, per language */
};

/* A row_check: after a "gm force", every mail about the forced turn
 * (all the rows but the master's answer, which names the policy) says
 * that the turn was forced, and nothing of a missed deadline, when it
 * was forced early; the missed deadline, and nothing of a force, when
 * its deadline had passed. */
static void
check_forced(struct store_outbox *o, int seat, int fr, const char *body,
    void *arg)
{
	struct forced_mails *fm = arg;
	const char *told = fr ? "(mj forcer)" : "(gm force)";
	const char *const *w;
	json_t *pl;
	int missed = 0;

	(void)seat;
	if (strstr(o->payload, "\"what\":\"answer\"") != NULL)
		return;
	for (w = missed_words; *w != NULL; w++)
		if (strstr(body, *w) != NULL)
			missed++;
	if (fm->early)
		ck_assert_msg(missed == 0 && strstr(body, told) != NULL,
		    "%s (%s) after a gm force before the deadline:\n%s",
		    o->event, fr ? "fr" : "en", body);
	else
		ck_assert_msg(missed > 0 && strstr(body, told) == NULL,
		    "%s (%s) after a gm force past the deadline:\n%s",
		    o->event, fr ? "fr" : "en", body);
	pl = json_loads(o->payload, 0, NULL);
	ck_assert_int_eq(json_is_true(json_object_get(pl, "forced")),
	    fm->early);
	json_decref(pl);
	fm->checked[fr]++;
}

/* A three-seat Ladder game under policy, with observers in both
 * languages and player 4 as its master; its clock started at t0, and
 * every mail so far checked. */
static int64_t
forced_game(const char *policy, int64_t t0)
{
	char err[512];
	int64_t game;

	game = testenv_mastered_game(&env, 3, policy, 4);
	ck_assert_int_eq(engine_observe(env.st, game, "watch-en@example.org",
	    "en", fake_now, err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(engine_observe(env.st, game, "watch-fr@example.org",
	    "fr", fake_now, err, sizeof(err)), ENGINE_OK);
	tick(t0);
	render_new(NULL, NULL, 1);
	return game;
}

/*
 * "gm force" under each outcome a force can reach (wait, skip, default,
 * bot, absent; and a turn without a deadline): forced an hour into a
 * day's turn, the mails of the late seat, the other seats, the
 * observers and the master, in English and French, say the turn was
 * forced ("gm force" / "mj forcer") and never that a deadline was missed
 * or that time ran out; forced after the deadline passed (no pass of the
 * scheduler in between), they keep saying the deadline was missed.
 */
START_TEST(test_forced_notices)
{
	static const struct {
		const char	*missed;
		int		 turn;	/* 0: no deadline */
		int		 rows;	/* mails about the forced turn */
	} cases[] = {
		{ "wait", 1, 4 },	/* late x 3, the master's */
		{ "skip", 1, 6 },	/* skipped, 2 seats, 2 observers, master */
		{ "default", 1, 6 },	/* auto_move, the same */
		{ "bot", 1, 5 },	/* auto_move, 2 seats, 2 observers */
		{ "absent", 1, 6 },	/* seat_offered x 3, 2 observers, master */
		{ "default", 0, 6 },	/* a turn without a deadline */
	};
	struct forced_mails fm;
	char policy[160];
	int64_t game, t0;
	size_t i;
	int early;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (early = 1; early >= !cases[i].turn; early--) {
			snprintf(policy, sizeof(policy), "{\"turn_time\": "
			    "\"%s\", \"reminders\": [], \"missed\": \"%s\"}",
			    cases[i].turn ? "24h" : "0", cases[i].missed);
			t0 = fake_now;
			game = forced_game(policy, t0);
			fake_now = t0 + (early ? HOUR : 25 * HOUR);
			command(4, game, 1, 0, "gm force");
			memset(&fm, 0, sizeof(fm));
			fm.early = early;
			render_new(check_forced, &fm, 1);
			ck_assert_msg(fm.checked[0] == cases[i].rows &&
			    fm.checked[1] == cases[i].rows, "%s, %s: %d/%d "
			    "mails checked, %d expected", cases[i].missed,
			    early ? "early" : "late", fm.checked[0],
			    fm.checked[1], cases[i].rows);
		}
}
END_TEST

/* An event outside the list is refused and writes nothing. */
START_TEST(test_unknown_event_refused)
{
	int64_t game, before;

	game = testenv_game(&env, "template", 2);
	before = testenv_rows(&env);
	ck_assert_int_eq(store_begin(env.st), STORE_OK);
	ck_assert_int_eq(engine_outbox_mail(env.st, game, 0, "p0@example.org",
	    "surprise", json_pack("{s:I}", "game", (json_int_t)game),
	    fake_now), -1);
	ck_assert_int_eq(store_commit(env.st), STORE_OK);
	ck_assert_int_eq(testenv_rows(&env), before);
	ck_assert_int_eq(engine_mail_event_known("surprise"), 0);
	ck_assert_int_eq(engine_mail_event_known("reminder"), 1);
}
END_TEST

/* A press row whose recipient seat was not sent the message, or whose
 * message does not exist, is never rendered. */
START_TEST(test_press_row_checked)
{
	struct store_outbox o;
	struct mail_out out;
	char err[512], payload[256];
	int64_t game;

	game = testenv_game(&env, "template", 3);
	command(0, game, 1, 0, "press 1: only for one");
	memset(&o, 0, sizeof(o));
	o.id = 999;
	o.game_id = game;
	snprintf(o.channel, sizeof(o.channel), "mail");
	snprintf(o.recipient, sizeof(o.recipient), "p2@example.org");
	snprintf(o.event, sizeof(o.event), "press");
	snprintf(payload, sizeof(payload), "{\"game\":%lld,\"seq\":0,"
	    "\"seat\":2,\"press\":1}", (long long)game);
	o.payload = payload;
	ck_assert_int_eq(mail_render(env.st, tpl, &set, &o, &out, err,
	    sizeof(err)), MAIL_RENDER_FAIL);
	ck_assert_ptr_nonnull(strstr(err, "not sent to seat 2"));
	snprintf(payload, sizeof(payload), "{\"game\":%lld,\"seq\":0,"
	    "\"seat\":1,\"press\":77}", (long long)game);
	ck_assert_int_eq(mail_render(env.st, tpl, &set, &o, &out, err,
	    sizeof(err)), MAIL_RENDER_FAIL);
	ck_assert_ptr_nonnull(strstr(err, "no message 77"));
}
END_TEST

/* Readable times and durations. */
START_TEST(test_times)
{
	char buf[128];

	mail_notice_time(MONDAY + 5 * DAY + 14 * HOUR + 7 * 60, "en", buf,
	    sizeof(buf));
	ck_assert_str_eq(buf, "Saturday 6 January 2024, 14:07 UTC");
	mail_notice_time(MONDAY + 45 * DAY, "fr", buf, sizeof(buf));
	ck_assert_str_eq(buf, "jeudi 15 février 2024, 00:00 UTC");
	mail_notice_duration(DAY + 6 * HOUR, "en", buf, sizeof(buf));
	ck_assert_str_eq(buf, "1 day 6 hours");
	mail_notice_duration(2 * DAY + 60, "fr", buf, sizeof(buf));
	ck_assert_str_eq(buf, "2 jours 1 minute");
}
END_TEST

/* Only outbox.c queues the engine's mail (and the gateway its answers):
 * a file that writes an outbox row itself would escape the list.  The
 * daemon's files are one folder deep (daemon/<stage>/<file>.c). */
static int
scan_folder(const char *dir)
{
	char path[1200];
	struct dirent *de;
	DIR *d;
	FILE *f;
	char *text;
	long len;
	int files = 0;

	if ((d = opendir(dir)) == NULL)
		return 0;		/* a program built in the source tree */
	while ((de = readdir(d)) != NULL) {
		len = (long)strlen(de->d_name);
		if (len < 3 || strcmp(de->d_name + len - 2, ".c") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		ck_assert_ptr_nonnull(f = fopen(path, "r"));
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		text = calloc(1, (size_t)len + 1);
		ck_assert_int_eq(fread(text, 1, (size_t)len, f), (size_t)len);
		fclose(f);
		files++;
		if (strstr(text, "store_outbox_add(") != NULL &&
		    strstr(text, "\"mail\"") != NULL)
			ck_assert_msg(strcmp(de->d_name, "outbox.c") == 0 ||
			    strncmp(de->d_name, "mail_", 5) == 0, "%s queues "
			    "mail without engine_outbox_mail()", de->d_name);
		free(text);
	}
	closedir(d);
	return files;
}

START_TEST(test_one_writer)
{
	const char *top = getenv("top_srcdir");
	char dir[600], sub[900];
	struct dirent *de;
	DIR *d;
	int files = 0;

	snprintf(dir, sizeof(dir), "%s/daemon", top != NULL ? top : ".");
	ck_assert_ptr_nonnull(d = opendir(dir));
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		files += scan_folder(sub);
	}
	closedir(d);
	ck_assert_int_gt(files, 20);
}
END_TEST

static Suite *
notices_suite(void)
{
	Suite *s = suite_create("notices");
	TCase *tc = tcase_create("notices");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_times);
	tcase_add_test(tc, test_opening_mail);
	tcase_add_test(tc, test_opening_mail_recipient);
	tcase_add_test(tc, test_every_notice);
	tcase_add_test(tc, test_skipped);
	tcase_add_test(tc, test_resign_ends);
	tcase_add_test(tc, test_resign_ends_with_winner);
	tcase_add_test(tc, test_deadlines_shown);
	tcase_add_test(tc, test_vacation_told);
	tcase_add_test(tc, test_mail_in_addressee_language);
	tcase_add_test(tc, test_replace_same_player_and_seat_lists);
	tcase_add_test(tc, test_resigned_and_absent_offer_no_moves);
	tcase_add_test(tc, test_last_move_receipt);
	tcase_add_test(tc, test_draw_receipt_names_card);
	tcase_add_test(tc, test_window_reminder);
	tcase_add_test(tc, test_master_mail);
	tcase_add_test(tc, test_forced_notices);
	tcase_add_test(tc, test_unknown_event_refused);
	tcase_add_test(tc, test_press_row_checked);
	tcase_add_test(tc, test_one_writer);
	tcase_add_test(tc, test_signup_mail);
	tcase_add_test(tc, test_policy_words);
	/* Last: it reads what the tests above rendered. */
	tcase_add_test(tc, test_every_event_has_a_mail);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(notices_suite());
	int failed;

	/* test_every_event_has_a_mail reads what the other tests rendered,
	 * so they share one process (each test still gets a fresh store). */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
