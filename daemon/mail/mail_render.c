/*
 * mail_render.c -- an outbox row of channel "mail" -> recipient, subject,
 * body and threading headers.
 *
 * A row names a game, a sequence number and a seat (never a view): the
 * body is rendered here, at delivery, from that seat's view of the state
 * after that entry, in the seat's player's language.  Rows about no seat
 * (mail_help, mail_error, admin_report) carry their own few fields and
 * are rendered from templates/LANG/mail/, never from a seat's view.
 * Notices of asynchronous play (reminders, automatic moves, press,
 * observers, ...) are mail_notice.c's.  The subjects table below says,
 * for every event, its subject in each language and which of the three
 * renders it; an event not in it is never mailed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>

#include "clock.h"
#include "engine.h"
#include "mail.h"
#include "present.h"
#include "templates.h"

enum render_kind {
	RENDER_SEAT,		/* the game's template from the seat's view */
	RENDER_PLAIN,		/* templates/LANG/mail/, no view */
	RENDER_NOTICE		/* mail_notice.c */
};

struct subject_words {
	const char	*event;
	const char	*en;
	const char	*fr;
	int		 replied;	/* Auto-Submitted: auto-replied */
	enum render_kind kind;
};

/* %lld is the sequence number of the entry the mail is about, except in
 * "your turn", where it is the number of the move to play (one more). */
static const struct subject_words subjects[] = {
	{ "your_turn", "your turn (move %lld)", "à vous de jouer (coup %lld)",
	    0, RENDER_SEAT },
	{ "accepted", "move %lld accepted", "coup %lld accepté", 1,
	    RENDER_SEAT },
	{ "update", "move %lld played", "coup %lld joué", 0, RENDER_SEAT },
	{ "game_over", "game over", "partie terminée", 0, RENDER_SEAT },
	{ "rejected", "move refused", "coup refusé", 1, RENDER_SEAT },
	{ "command_refused", "command refused", "commande refusée", 1,
	    RENDER_SEAT },
	{ "status", "status after move %lld", "état après le coup %lld", 1,
	    RENDER_SEAT },
	{ "help", "how to play", "comment jouer", 1, RENDER_SEAT },
	{ "mail_help", "how to play by mail", "jouer par courriel", 1,
	    RENDER_PLAIN },
	{ "mail_error", "your mail could not be played",
	    "votre courriel n'a pas pu être joué", 1, RENDER_PLAIN },
	{ "admin_report", "a mail could not be delivered",
	    "un courriel n'a pas pu être remis", 0, RENDER_PLAIN },
	/* Playing by plain replies (mail_reply.c, mail_account.c). */
	{ "signup", "confirm your address", "confirmez votre adresse", 1,
	    RENDER_PLAIN },
	{ "mail_account", "your request", "votre demande", 1, RENDER_PLAIN },
	{ "reply_error", "your reply did not play",
	    "votre réponse n'a pas été jouée", 1, RENDER_PLAIN },
	/* Notices (mail_notice.c): all news, auto-generated. */
	{ "game_started", "the game begins", "la partie commence", 0,
	    RENDER_NOTICE },
	{ "reminder", "reminder: your turn", "rappel : à vous de jouer", 0,
	    RENDER_NOTICE },
	{ "deadline", "deadline passed: grace period",
	    "délai dépassé : période de grâce", 0, RENDER_NOTICE },
	{ "late", "a deadline was missed", "un délai n'a pas été tenu", 0,
	    RENDER_NOTICE },
	/* Not an event: the subject of a "late" row that says "forced" (a
	 * "gm force" before the deadline: nothing was missed). */
	{ "late_forced", "a turn was forced (gm force)",
	    "un tour a été forcé (mj forcer)", 0, RENDER_NOTICE },
	{ "seat_offered", "a seat is offered", "un siège est à prendre", 0,
	    RENDER_NOTICE },
	{ "auto_move", "a move was played for you",
	    "un coup a été joué pour vous", 0, RENDER_NOTICE },
	{ "skipped", "your turn was skipped", "votre tour a été passé", 0,
	    RENDER_NOTICE },
	{ "resigned", "you resigned", "vous avez abandonné", 0,
	    RENDER_NOTICE },
	{ "seat_taken", "you now hold a seat",
	    "vous occupez désormais un siège", 0, RENDER_NOTICE },
	{ "call_off_vote", "proposal to call the game off",
	    "proposition d'annuler la partie", 0, RENDER_NOTICE },
	{ "press", "message from another player",
	    "message d'un autre joueur", 0, RENDER_NOTICE },
	{ "vacation", "a vacation in the game", "des vacances dans la partie",
	    0, RENDER_NOTICE },
	{ "observer_update", "move %lld played", "coup %lld joué", 0,
	    RENDER_NOTICE },
	{ "observer_game_over", "game over", "partie terminée", 0,
	    RENDER_NOTICE },
	{ "observer_seat_offered", "a seat is offered",
	    "un siège est à prendre", 0, RENDER_NOTICE },
	{ "master_notice", "news for the game master",
	    "nouvelles pour le maître du jeu", 0, RENDER_NOTICE },
	{ "clock_changed", "the deadline has changed",
	    "le délai a changé", 0, RENDER_NOTICE },
	{ NULL, NULL, NULL, 0, RENDER_SEAT }
};

static const struct subject_words *
subject_for(const char *event)
{
	const struct subject_words *w;

	for (w = subjects; w->event != NULL; w++)
		if (strcmp(w->event, event) == 0)
			return w;
	return NULL;
}

int
mail_render_knows(const char *event)
{
	return subject_for(event) != NULL;
}

static const char *
domain_of(const struct mail_settings *s)
{
	const char *at;

	if (s->domain[0] != '\0')
		return s->domain;
	at = strchr(s->from, '@');
	return at != NULL && at[1] != '\0' ? at + 1 : "localhost";
}

void
mail_set_headers(const struct mail_settings *s, const struct store_outbox *o,
    const char *event, const char *lang, const char *title, int64_t game,
    int64_t seq, const char *in_reply_to, struct mail_out *out)
{
	const struct subject_words *w = subject_for(event);
	char words[160], root[200];
	int fr = strcmp(lang, "fr") == 0;

	/* In "your turn" the number is the move to play, as the body says. */
	snprintf(words, sizeof(words), fr ? w->fr : w->en, (long long)seq +
	    (strcmp(event, "your_turn") == 0 ? 1 : 0));
	/* French typography puts a space before the colon: "Star Trek :
	 * Missions : la partie commence". */
	if (game > 0)
		snprintf(out->subject, sizeof(out->subject), "[pbem #%lld] "
		    "%s%s%s", (long long)game, title != NULL ? title : "",
		    title == NULL ? "" : fr ? " : " : ": ", words);
	else
		snprintf(out->subject, sizeof(out->subject), "[pbem] %s",
		    words);
	snprintf(out->message_id, sizeof(out->message_id),
	    "pbem.%lld.%lld.o%lld@%s", (long long)game, (long long)seq,
	    (long long)o->id, domain_of(s));
	out->autosub = w->replied ? MAIL_AUTO_REPLIED : MAIL_AUTO_GENERATED;
	out->game_id = game;
	snprintf(out->to, sizeof(out->to), "%s", o->recipient);
	/* Every mail of a game refers to the game's root id, so that mail
	 * clients show the game as one thread; an answer also names the
	 * player's mail it answers. */
	root[0] = '\0';
	if (game > 0)
		snprintf(root, sizeof(root), "pbem.game%lld@%s",
		    (long long)game, domain_of(s));
	if (in_reply_to != NULL && in_reply_to[0] != '\0')
		snprintf(out->in_reply_to, sizeof(out->in_reply_to), "%s",
		    in_reply_to);
	else
		snprintf(out->in_reply_to, sizeof(out->in_reply_to), "%s",
		    root);
	if (root[0] != '\0' && strcmp(root, out->in_reply_to) != 0)
		snprintf(out->references, sizeof(out->references),
		    "<%s> <%s>", root, out->in_reply_to);
	else if (out->in_reply_to[0] != '\0')
		snprintf(out->references, sizeof(out->references), "<%s>",
		    out->in_reply_to);
}

/* The receipt of entry (game, seq), armoured, appended to out. */
static void
append_receipt(struct store *st, int64_t game, int64_t seq,
    struct mustache_buf *out)
{
	struct store_entry e;
	struct proto_receipt r;
	char block[PROTO_ARMOUR_MAX];

	memset(&e, 0, sizeof(e));
	if (store_log_get(st, game, seq, &e) != STORE_OK) {
		store_entry_clear(&e);
		return;
	}
	engine_receipt_of(&e, &r);
	memcpy(r.signature, e.receipt, PROTO_SIG_BYTES);
	if (proto_receipt_armour(&r, block, sizeof(block)) > 0) {
		mustache_buf_append(out, "\n", 1);
		mustache_buf_append(out, block, strlen(block));
	}
	store_entry_clear(&e);
}

/* Game mail goes only to confirmed addresses: a row to an address whose
 * owner has not confirmed it is held (never sent).  The answers to the
 * sender's own mail and the confirmation itself are not game mail. */
static int
held(struct store *st, const struct store_outbox *o, char *err,
    size_t errlen)
{
	static const char *const free_events[] = { "signup", "mail_help",
	    "mail_error", "reply_error", "mail_account", "admin_report",
	    NULL };
	int i, pending = 0;

	for (i = 0; free_events[i] != NULL; i++)
		if (strcmp(o->event, free_events[i]) == 0)
			return 0;
	if (store_email_pending(st, o->recipient, &pending) != STORE_OK ||
	    !pending)
		return 0;
	snprintf(err, errlen, "held, not sent: %s has not confirmed its "
	    "address (outbox row %lld, %s, game %lld)", o->recipient,
	    (long long)o->id, o->event, (long long)o->game_id);
	return 1;
}

/* The size of a sign-in link's buffer. */
#define PLAY_URL_MAX	(MAIL_PATH_MAX + 64)

/* How a your-turn mail is answered: the sign-in link of the seat (every
 * player; also into url, PLAY_URL_MAX bytes, for the HTML part) and, for
 * a player whose key the server holds, the reply token (in the body
 * here, in the Message-ID by the caller).  token is set to "" when there
 * is none. */
static int
append_play(struct store *st, const struct tpl_set *tpl,
    const struct mail_settings *s, const struct store_outbox *o,
    const struct gamestate *gs, int seat, const struct store_player *p,
    const char *lang, struct mustache_buf *buf, char *url, char *token,
    char *err, size_t errlen)
{
	char play[ENGINE_TOKEN_LEN + 1];
	struct hosted_kek *kek;
	json_t *data;
	int rc;

	token[0] = '\0';
	if (engine_play_token_issue(st, gs->game.id, seat, p->id,
	    (int64_t)time(NULL) + MAIL_PLAY_TOKEN_TTL, play) != STORE_OK) {
		snprintf(err, errlen, "play token: %s", store_errmsg(st));
		return -1;
	}
	snprintf(url, PLAY_URL_MAX, "%s/play/%s", s->public_base_url, play);
	data = json_pack("{s:s}", "play_url", url);
	if (s->hosted_key_file[0] != '\0' && engine_player_hosted(st, p)) {
		if ((kek = hosted_kek_open(s->hosted_key_file, 0, err,
		    errlen)) == NULL) {
			json_decref(data);
			return -1;
		}
		rc = engine_reply_token_issue(st, kek, gs->game.id, gs->seq,
		    seat, p->id, o->id, token) != STORE_OK;
		hosted_kek_close(kek);
		if (rc) {
			snprintf(err, errlen, "reply token: %s",
			    store_errmsg(st));
			json_decref(data);
			return -1;
		}
		json_object_set_new(data, "hosted", json_true());
		json_object_set_new(data, "token", json_string(token));
	}
	mustache_buf_append(buf, "\n", 1);
	rc = templates_render(tpl, lang, "mail", "play", TPL_TEXT, data, buf,
	    err, errlen);
	json_decref(data);
	return rc;
}

/* The template for a seat's event, given whether it acts now. */
static const char *
seat_template(const char *event, int over, int acting)
{
	if (strcmp(event, "accepted") == 0 || strcmp(event, "rejected") == 0 ||
	    strcmp(event, "help") == 0)
		return event;
	if (over || strcmp(event, "game_over") == 0)
		return "game_over";
	if (acting)
		return "your_turn";
	return "waiting";
}

const char *
mail_view_name(const struct gamestate *gs, int viewer)
{
	int over, acting;

	if (viewer < 0)
		return "spectator";
	acting = gamestate_seat_acts(gs, viewer, &over);
	return seat_template("update", over, acting);
}

int
mail_view_body(struct store *st, const struct tpl_set *tpl,
    struct gamestate *gs, int viewer, const char *lang, const char *zone,
    int hosted, const char *name, const char *move, const char *reason,
    struct mustache_buf *out, char *err, size_t errlen)
{
	struct present_info info;
	json_t *view, *shown, *forms = NULL, *legal = NULL;
	const char *names[STORE_MAX_SEATS];
	int rc;

	memset(&info, 0, sizeof(info));
	info.lang = lang[0] == 'f' ? RULES_LANG_FR : RULES_LANG_EN;
	info.module = gs->module;
	info.viewer = viewer;
	info.nseats = gamestate_seat_names(st, gs, names);
	info.seat_names = names;
	/* Move forms and examples only for a seat that acts now. */
	if (viewer >= 0 && gamestate_seat_acts(gs, viewer, NULL)) {
		forms = gs->module->move_forms(gs->state, viewer, info.lang);
		legal = gs->module->legal_moves(gs->state, viewer);
		info.forms = forms;
		info.legal = legal;
		info.state = gs->state;
	}
	info.move = move;
	info.move_is_command = move != NULL && engine_is_command(move);
	info.reason = reason;
	info.zone = zone;
	info.hosted = hosted;
	view = gamestate_view(gs, viewer);
	engine_view_deadlines(st, gs, clock_now(), view);
	shown = present_view(view, &info);
	json_decref(view);
	rc = templates_render(tpl, lang, gs->module->name, name, TPL_TEXT,
	    shown, out, err, errlen);
	json_decref(shown);
	json_decref(forms);
	json_decref(legal);
	return rc;
}

enum mail_render_status
mail_row_open(struct store *st, const struct store_outbox *o,
    const json_t *pl, int seat_row, struct gamestate *gs, int *seat,
    struct store_player *p, char *err, size_t errlen)
{
	struct store_player addressee;
	enum engine_status es;
	int64_t game, seq;

	game = json_integer_value(json_object_get(pl, "game"));
	seq = json_integer_value(json_object_get(pl, "seq"));
	if (game <= 0 || seq < 0 || (seat_row && !json_is_integer(
	    json_object_get(pl, "seat")))) {
		snprintf(err, errlen, "outbox row %lld (%s): payload names no "
		    "game, sequence number and %s", (long long)o->id, o->event,
		    seat_row ? "seat" : "viewer");
		return MAIL_RENDER_FAIL;
	}
	es = gamestate_load(st, game, seq, gs, err, errlen);
	if (es == ENGINE_BUSY)
		return MAIL_RENDER_RETRY;
	if (es != ENGINE_OK)
		return MAIL_RENDER_FAIL;
	if (!seat_row)
		return MAIL_RENDER_OK;
	*seat = (int)json_integer_value(json_object_get(pl, "seat"));
	if (*seat < 0 || *seat >= gs->game.nseats || store_player_get(st,
	    gs->game.seat_player[*seat], p) != STORE_OK) {
		snprintf(err, errlen, "outbox row %lld: game %lld has no player "
		    "in seat %d", (long long)o->id, (long long)game, *seat);
		gamestate_clear(gs);
		return MAIL_RENDER_FAIL;
	}
	/* A row queued before the seat changed hands is still read by the
	 * player it was addressed to, in that player's language. */
	if (strcasecmp(p->email, o->recipient) != 0 &&
	    store_player_find_email(st, o->recipient, &addressee) ==
	    STORE_OK) {
		*p = addressee;
		gs->game.seat_player[*seat] = addressee.id;	/* its name */
	}
	return MAIL_RENDER_OK;
}

static enum mail_render_status
render_seat(struct store *st, const struct tpl_set *tpl,
    const struct mail_settings *s, const struct store_outbox *o,
    const json_t *pl, const char *event, struct mail_out *out, char *err,
    size_t errlen)
{
	struct gamestate gs;
	struct store_player p;
	struct store_entry e;
	struct mustache_buf buf;
	enum mail_render_status rs;
	int64_t game, seq;
	int seat, acting, over, hosted;
	const char *name, *lang, *shown_move = NULL, *reason = NULL;
	char move[PROTO_MOVE_MAX + 1], token[ENGINE_TOKEN_LEN + 1];
	char url[PLAY_URL_MAX];

	if ((rs = mail_row_open(st, o, pl, 1, &gs, &seat, &p, err, errlen)) !=
	    MAIL_RENDER_OK)
		return rs;
	game = gs.game.id;
	seq = gs.seq;
	lang = strcmp(p.lang, "fr") == 0 ? "fr" : "en";
	acting = gamestate_seat_acts(&gs, seat, &over);
	name = seat_template(event, over, acting);

	move[0] = '\0';
	if (strcmp(event, "accepted") == 0) {
		memset(&e, 0, sizeof(e));
		if (store_log_get(st, game, seq, &e) == STORE_OK)
			snprintf(move, sizeof(move), "%s", e.text);
		store_entry_clear(&e);
		shown_move = move;
	} else if (strcmp(event, "rejected") == 0) {
		shown_move = json_string_value(json_object_get(pl, "move"));
		reason = json_string_value(json_object_get(pl, "reason"));
	}
	mustache_buf_init(&buf);
	/* News after an entry the server wrote (an automatic move, a
	 * resignation, ...) first says what happened (mail_notice.c). */
	if ((strcmp(event, "update") == 0 || strcmp(event, "your_turn") == 0 ||
	    strcmp(event, "game_over") == 0) && mail_notice_entry_note(st, tpl,
	    &gs, seat, lang, json_is_true(json_object_get(pl, "forced")),
	    &buf, err, errlen) != 0) {
		mustache_buf_free(&buf);
		gamestate_clear(&gs);
		return MAIL_RENDER_FAIL;
	}
	if (buf.len > 0)
		mustache_buf_append(&buf, "\n", 1);
	/* A hosted player answers this mail in plain words. */
	hosted = s->hosted_key_file[0] != '\0' && engine_player_hosted(st, &p);
	if (mail_view_body(st, tpl, &gs, seat, lang, p.tz, hosted, name,
	    shown_move, reason, &buf, err, errlen) != 0) {
		mustache_buf_free(&buf);
		gamestate_clear(&gs);
		return MAIL_RENDER_FAIL;
	}
	if (strcmp(event, "accepted") == 0)
		append_receipt(st, game, seq, &buf);
	token[0] = url[0] = '\0';
	if (strcmp(event, "your_turn") == 0 && acting && append_play(st, tpl,
	    s, o, &gs, seat, &p, lang, &buf, url, token, err, errlen) != 0) {
		mustache_buf_free(&buf);
		gamestate_clear(&gs);
		return MAIL_RENDER_RETRY;
	}
	out->body = buf.data != NULL ? buf.data : strdup("");
	/* Your-turn and game-over mail also come as a picture (HTML). */
	if ((strcmp(event, "your_turn") == 0 && acting) ||
	    strcmp(event, "game_over") == 0) {
		out->html = mail_picture(st, tpl, &gs, seat, lang,
		    url[0] != '\0' ? url : NULL, err, errlen);
		if (out->html == NULL) {
			gamestate_clear(&gs);
			return MAIL_RENDER_FAIL;
		}
	}

	/* An answer names the player's own mail; a receipt finds it by
	 * the move it played. */
	name = json_string_value(json_object_get(pl, "in_reply_to"));
	move[0] = '\0';
	if (name == NULL && strcmp(event, "accepted") == 0 &&
	    store_mail_seen_move(st, game, seq, move, sizeof(move)) ==
	    STORE_OK)
		name = move;
	mail_set_headers(s, o, strcmp(event, "status") == 0 && over ?
	    "game_over" : shown_move != NULL && strcmp(event, "rejected") ==
	    0 && engine_is_command(shown_move) ? "command_refused" : event,
	    lang, lang[0] == 'f' ? gs.module->title_fr :
	    gs.module->title_en, game, seq, name, out);
	/* A plain Reply brings the token back in In-Reply-To. */
	if (token[0] != '\0')
		snprintf(out->message_id, sizeof(out->message_id),
		    "pbem.%lld.%lld.o%lld.pbem-reply-%s@%s", (long long)game,
		    (long long)seq, (long long)o->id, token, domain_of(s));
	gamestate_clear(&gs);
	return MAIL_RENDER_OK;
}

/* The seat of gs whose player is registered at addr (the first that is
 * to act, else the first), or -1. */
static int
seat_of_address(struct store *st, struct gamestate *gs, const char *addr)
{
	const struct store_player *p;
	int s, found = -1;

	for (s = 0; s < gs->game.nseats; s++) {
		if (gs->game.seat_player[s] == 0 ||
		    (p = gamestate_seat_player(st, gs, s)) == NULL ||
		    strcasecmp(p->email, addr) != 0)
			continue;
		if (found < 0 || gamestate_seat_acts(gs, s, NULL))
			found = s;
		if (gamestate_seat_acts(gs, s, NULL))
			break;
	}
	return found;
}

/*
 * The game's help for an unsigned HELP: the public view, so nothing
 * hidden reaches an address no signature vouched for -- but when the
 * address is the one a seat's player registered, that seat's number and
 * the move forms open to it now (rules wording, no card of the hand; no
 * examples, which name the hand's cards).
 */
static int
help_body(struct store *st, const struct tpl_set *tpl, struct gamestate *gs,
    const char *lang, const char *addr, struct mustache_buf *out, char *err,
    size_t errlen)
{
	struct present_info info;
	json_t *view, *shown, *forms = NULL;
	const char *names[STORE_MAX_SEATS];
	int seat, rc;

	seat = seat_of_address(st, gs, addr);
	memset(&info, 0, sizeof(info));
	info.lang = lang[0] == 'f' ? RULES_LANG_FR : RULES_LANG_EN;
	info.module = gs->module;
	info.nseats = gamestate_seat_names(st, gs, names);
	info.seat_names = names;
	info.viewer = seat >= 0 ? seat : RULES_VIEW_PUBLIC;
	if (seat >= 0 && gamestate_seat_acts(gs, seat, NULL))
		info.forms = forms = gs->module->move_forms(gs->state, seat,
		    info.lang);
	view = gamestate_view(gs, RULES_VIEW_PUBLIC);
	if (seat >= 0)
		json_object_set_new(view, "seat", json_integer(seat));
	shown = present_view(view, &info);
	json_decref(view);
	/* No examples: they are made of the hand's cards. */
	json_object_set_new(shown, "examples", json_array());
	json_object_set_new(shown, "your_turn", json_false());
	rc = templates_render(tpl, lang, gs->module->name, "help", TPL_TEXT,
	    shown, out, err, errlen);
	json_decref(shown);
	json_decref(forms);
	return rc;
}

static const char *
plain_template(const char *event)
{
	static const char *const names[][2] = {
		{ "mail_help", "help" }, { "mail_error", "error" },
		{ "admin_report", "admin" }, { "signup", "signup" },
		{ "mail_account", "account" }, { "reply_error", "reply_error" },
		{ NULL, NULL }
	};
	int i;

	for (i = 0; names[i][0] != NULL; i++)
		if (strcmp(names[i][0], event) == 0)
			return names[i][1];
	return "admin";
}

/* A sign-up mail: the code, derived from the row's nonce and the
 * key-encryption key (never stored), and the link that confirms it. */
static int
signup_fields(const struct mail_settings *s, const json_t *pl, json_t *data,
    char *err, size_t errlen)
{
	const char *nonce = json_string_value(json_object_get(pl, "nonce"));
	char code[ENGINE_CODE_LEN + 1], url[MAIL_PATH_MAX + 64];
	struct hosted_kek *kek;

	if (nonce == NULL) {
		snprintf(err, errlen, "sign-up row without a nonce");
		return -1;
	}
	if ((kek = hosted_kek_open(s->hosted_key_file, 1, err, errlen)) ==
	    NULL)
		return -1;
	engine_signup_code(kek, nonce, code);
	hosted_kek_close(kek);
	snprintf(url, sizeof(url), "%s/confirm/%s", s->public_base_url, code);
	json_object_set_new(data, "code", json_string(code));
	json_object_set_new(data, "confirm_url", json_string(url));
	json_object_del(data, "nonce");
	return 0;
}

/* mail_help, mail_error, admin_report, signup, mail_account,
 * reply_error: no seat, no view. */
static enum mail_render_status
render_plain(struct store *st, const struct tpl_set *tpl,
    const struct mail_settings *s, const struct store_outbox *o,
    json_t *pl, const char *event, struct mail_out *out, char *err,
    size_t errlen)
{
	struct gamestate gs;
	struct mustache_buf buf, help;
	json_t *data;
	const char *lang, *title = NULL;
	int64_t game = json_integer_value(json_object_get(pl, "game"));

	lang = json_string_value(json_object_get(pl, "lang"));
	lang = lang != NULL && strcmp(lang, "fr") == 0 ? "fr" : "en";
	data = json_deep_copy(pl);
	mustache_buf_init(&help);
	if (game > 0 && strcmp(event, "mail_help") == 0 &&
	    gamestate_load(st, game, -1, &gs, err, errlen) == ENGINE_OK) {
		/* The game's rules, from the public view only. */
		if (help_body(st, tpl, &gs, lang, o->recipient, &help, err,
		    errlen) == 0 && help.data != NULL)
			json_object_set_new(data, "game_help",
			    json_string(help.data));
		title = lang[0] == 'f' ? gs.module->title_fr :
		    gs.module->title_en;
		gamestate_clear(&gs);
	}
	mustache_buf_free(&help);
	mustache_buf_init(&buf);
	if (strcmp(event, "signup") == 0 && signup_fields(s, pl, data, err,
	    errlen) != 0) {
		json_decref(data);
		return MAIL_RENDER_RETRY;
	}
	if (templates_render(tpl, lang, "mail", plain_template(event),
	    TPL_TEXT, data, &buf, err, errlen) != 0) {
		json_decref(data);
		mustache_buf_free(&buf);
		return MAIL_RENDER_FAIL;
	}
	json_decref(data);
	out->body = buf.data != NULL ? buf.data : strdup("");
	mail_set_headers(s, o, event, lang, title, game > 0 ? game : 0, 0,
	    json_string_value(json_object_get(pl, "in_reply_to")), out);
	return MAIL_RENDER_OK;
}

enum mail_render_status
mail_render(struct store *st, const struct tpl_set *tpl,
    const struct mail_settings *s, const struct store_outbox *o,
    struct mail_out *out, char *err, size_t errlen)
{
	const struct subject_words *w;
	enum mail_render_status rs;
	json_error_t jerr;
	json_t *pl;
	const char *event;

	memset(out, 0, sizeof(*out));
	if (o->recipient[0] == '\0') {
		snprintf(err, errlen, "outbox row %lld (%s, game %lld): the "
		    "player has no mail address", (long long)o->id, o->event,
		    (long long)o->game_id);
		return MAIL_RENDER_SKIP;
	}
	if (held(st, o, err, errlen))
		return MAIL_RENDER_HELD;
	if ((pl = json_loads(o->payload != NULL ? o->payload : "", 0,
	    &jerr)) == NULL || !json_is_object(pl)) {
		snprintf(err, errlen, "outbox row %lld: payload is not a JSON "
		    "object", (long long)o->id);
		json_decref(pl);
		return MAIL_RENDER_FAIL;
	}
	event = o->event;
	if ((w = subject_for(event)) == NULL) {
		snprintf(err, errlen, "outbox row %lld: no mail for event "
		    "\"%s\"", (long long)o->id, event);
		rs = MAIL_RENDER_FAIL;
	} else if (w->kind == RENDER_PLAIN)
		rs = render_plain(st, tpl, s, o, pl, event, out, err, errlen);
	else if (w->kind == RENDER_NOTICE)
		rs = mail_notice_render(st, tpl, s, o, pl, event, out, err,
		    errlen);
	else
		rs = render_seat(st, tpl, s, o, pl, event, out, err, errlen);
	json_decref(pl);
	if (rs != MAIL_RENDER_OK)
		mail_out_clear(out);
	return rs;
}

void
mail_out_clear(struct mail_out *out)
{
	free(out->body);
	free(out->html);
	memset(out, 0, sizeof(*out));
}
