/*
 * summary.c -- the one-line summary of a log entry, in English and
 * French, that a chat room can post as is (engine.h; docs/API.md,
 * "Summaries"):
 *
 *   bruno took Commander Tomalak from the discard area, discarded Worf
 *     — alice to play, move 14
 *   bruno a joué le 7 et marque 7 — partie terminée : alice 46, bruno 31
 *     — alice gagne
 *
 * (each on one line).  The first part says what the entry did: the rule
 * module's describe_last() for a move, worded from the public view so it
 * never names a hidden card, or a line of ours for what the server
 * records (a skip, a resignation, a replacement, a game called off) and
 * for a module without describe_last().  The second says what comes
 * next: who is to play and the sequence number they sign, or the end of
 * the game with the scores and the winners.  Players are called by their
 * names alone ("alice"), a seat with no player by its number.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botname.h"
#include "engine.h"
#include "replay.h"

/* One language's words. */
struct words {
	enum rules_lang	 lang;
	const char	*seat;		/* "seat %d" */
	const char	*played;	/* "%s played" */
	const char	*by_server;	/* " (played by the server)" */
	const char	*skipped;	/* "%s's turn was skipped" */
	const char	*resigned;	/* "%s resigned" */
	const char	*new_key;	/* "%s has a new key" */
	const char	*replaced;	/* "%s replaces %s at seat %d" */
	const char	*called_off;	/* "the game was called off" */
	const char	*delegates;	/* "%s lets a bot play for them" */
	const char	*delegates_views; /* "%s lets a bot read their view" */
	const char	*revokes;	/* "%s revoked their bot's delegation" */
	const char	*by_bot;	/* " (by their bot)" */
	const char	*begins;	/* "%s, game %lld, begins: %s" */
	const char	*began;		/* "game %lld began" */
	const char	*to_play;	/* " — %s to play, move %lld" */
	const char	*to_answer;	/* " — %s to answer, move %lld" */
	const char	*over;		/* "game over" */
	const char	*colon;		/* ": " */
	const char	*wins;		/* " — %s wins" */
	const char	*win;		/* " — %s win" */
	const char	*and;		/* " and " */
	const char	*no_winner;	/* " — no winner" */
};

#define DASH	" \xe2\x80\x94 "	/* " — " */

static const struct words english = {
	.lang = RULES_LANG_EN,
	.seat = "seat %d",
	.played = "%s played",
	.by_server = " (played by the server)",
	.skipped = "%s's turn was skipped",
	.resigned = "%s resigned",
	.new_key = "%s has a new key",
	.replaced = "%s replaces %s at seat %d",
	.called_off = "the game was called off",
	.delegates = "%s lets a bot play for them",
	.delegates_views = "%s lets a bot read their seat's view",
	.revokes = "%s revoked a bot's delegation",
	.by_bot = " (by their bot)",
	.begins = "%s, game %lld, begins: %s",
	.began = "game %lld began",
	.to_play = DASH "%s to play, move %lld",
	.to_answer = DASH "%s to answer, move %lld",
	.over = "game over",
	.colon = ": ",
	.wins = DASH "%s wins",
	.win = DASH "%s win",
	.and = " and ",
	.no_winner = DASH "no winner"
};

static const struct words french = {
	.lang = RULES_LANG_FR,
	.seat = "siège %d",
	.played = "%s a joué",
	.by_server = " (joué par le serveur)",
	.skipped = "le tour de %s a été passé",
	.resigned = "%s a abandonné",
	.new_key = "%s a une nouvelle clé",
	.replaced = "%s remplace %s au siège %d",
	.called_off = "la partie est annulée d'un commun accord",
	.delegates = "%s laisse un robot jouer à sa place",
	.delegates_views = "%s laisse un robot lire la vue de son siège",
	.revokes = "%s a révoqué la délégation d'un robot",
	.by_bot = " (par son robot)",
	.begins = "%s, partie %lld, commence : %s",
	.began = "la partie %lld a commencé",
	.to_play = DASH "à %s de jouer, coup %lld",
	.to_answer = DASH "à %s de répondre, coup %lld",
	.over = "partie terminée",
	.colon = " : ",
	.wins = DASH "%s gagne",
	.win = DASH "%s gagnent",
	.and = " et ",
	.no_winner = DASH "aucun gagnant"
};

/* A line being written: text, its size and the bytes used.  A line that
 * would not fit is cut before the first character that does not fit
 * whole, and takes nothing more. */
struct line {
	char	*text;
	size_t	 size;
	size_t	 used;
	int	 full;
};

/* The length of the UTF-8 sequence lead starts (1 for ASCII). */
static size_t
utf8_length(unsigned char lead)
{
	return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

static void
put(struct line *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
put(struct line *l, const char *fmt, ...)
{
	va_list	ap;
	size_t	start;
	int	n;

	if (l->full || l->used + 1 >= l->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->text + l->used, l->size - l->used, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < l->size - l->used) {
		l->used += (size_t)n;
		return;
	}
	/* Cut: drop a last UTF-8 sequence that lost its tail. */
	l->full = 1;
	l->used = l->size - 1;
	start = l->used;
	while (start > 0 &&
	    ((unsigned char)l->text[start - 1] & 0xc0) == 0x80)
		start--;
	if (start > 0 && l->used - (start - 1) <
	    utf8_length((unsigned char)l->text[start - 1]))
		l->used = start - 1;
	l->text[l->used] = '\0';
}

/* What to call each seat: the player's name, or "seat N". */
struct seat_names {
	const char	*name[STORE_MAX_SEATS];
	char		 numbered[STORE_MAX_SEATS][32];
	int		 nseats;
};

static void
call_seats(const char *const players[STORE_MAX_SEATS], int nseats,
    const struct words *w, struct seat_names *sn)
{
	int s;

	sn->nseats = nseats;
	for (s = 0; s < STORE_MAX_SEATS; s++) {
		snprintf(sn->numbered[s], sizeof(sn->numbered[s]), w->seat, s);
		sn->name[s] = s < nseats && players[s] != NULL ? players[s] :
		    sn->numbered[s];
		/* A made-up bot's name reads "bot (seat 1)". */
		if (s < nseats && botname_is_made_up(players[s])) {
			snprintf(sn->numbered[s], sizeof(sn->numbered[s]),
			    "%s (", botname_display(players[s],
			    w->lang == RULES_LANG_FR));
			snprintf(sn->numbered[s] + strlen(sn->numbered[s]),
			    sizeof(sn->numbered[s]) - strlen(sn->numbered[s]),
			    w->seat, s);
			strncat(sn->numbered[s], ")", sizeof(sn->numbered[s]) -
			    strlen(sn->numbered[s]) - 1);
			sn->name[s] = sn->numbered[s];
		}
	}
}

static const char *
seat_called(const struct seat_names *sn, json_int_t s)
{
	return s >= 0 && s < STORE_MAX_SEATS ? sn->name[s] : "?";
}

/* The seats of array a, by name, joined with ", " (the last with
 * last_sep, when given). */
static void
put_seats(struct line *l, const json_t *a, const struct seat_names *sn,
    const char *last_sep)
{
	size_t i, n = json_array_size(a);

	for (i = 0; i < n; i++)
		put(l, "%s%s", i == 0 ? "" : (i + 1 == n && last_sep != NULL ?
		    last_sep : ", "), seat_called(sn, json_integer_value(
		    json_array_get(a, i))));
}

/* "game over: alice 46, bruno 31 — alice wins": the scores (when the
 * game has them) and the winners of the view's result. */
static void
put_end(struct line *l, const json_t *view, const struct seat_names *sn,
    const struct words *w)
{
	const json_t *result = json_object_get(view, "result");
	const json_t *scores = json_object_get(result, "scores");
	const json_t *winners = json_object_get(result, "winners");
	char who[STORE_MAX_SEATS * (STORE_NAME_MAX + 8)];
	struct line names = { who, sizeof(who), 0, 0 };
	size_t i;

	who[0] = '\0';
	put(l, "%s", w->over);
	for (i = 0; i < json_array_size(scores); i++)
		put(l, "%s%s %" JSON_INTEGER_FORMAT, i == 0 ? w->colon : ", ",
		    seat_called(sn, (json_int_t)i), json_integer_value(
		    json_array_get(scores, i)));
	if (json_array_size(winners) == 0) {
		put(l, "%s", w->no_winner);
		return;
	}
	put_seats(&names, winners, sn, w->and);
	put(l, json_array_size(winners) == 1 ? w->wins : w->win, who);
}

/* " — alice to play, move 14" (or "to answer", in a response window),
 * or " — " and the end of the game. */
static void
put_next(struct line *l, const json_t *view, const struct seat_names *sn,
    const struct words *w, int over, int answering)
{
	const json_t *to_act = json_object_get(view, "to_act");
	char who[STORE_MAX_SEATS * (STORE_NAME_MAX + 8)];
	struct line names = { who, sizeof(who), 0, 0 };

	who[0] = '\0';
	if (over) {
		put(l, DASH);
		put_end(l, view, sn, w);
	} else if (json_array_size(to_act) > 0) {
		put_seats(&names, to_act, sn, NULL);
		put(l, answering ? w->to_answer : w->to_play, who,
		    (long long)json_integer_value(json_object_get(view,
		    "next_seq")));
	}
}

/* What a replacement's record says: a new player, or a new key. */
static void
put_replace(struct line *l, const struct store_entry *e,
    const struct seat_names *sn, const struct words *w)
{
	json_t *rec = json_loads(e->text != NULL ? e->text : "", 0, NULL);
	const char *player = json_string_value(json_object_get(rec, "player"));
	const char *before = json_string_value(json_object_get(rec,
	    "previous_player"));

	if (player == NULL)
		player = seat_called(sn, e->seat);
	if (before == NULL || strcmp(before, player) == 0)
		put(l, w->new_key, player);
	else
		put(l, w->replaced, player, before, e->seat);
	json_decref(rec);
}

/* The move's own part: the module's words, or ours. */
static void
put_move(struct line *l, const struct gamestate *gs,
    const struct store_entry *e, const struct seat_names *sn,
    const struct words *w)
{
	const struct rules_module *m = gs->module;
	char said[ENGINE_SUMMARY_MAX];

	if (m->api_version >= 5 && m->describe_last != NULL &&
	    m->describe_last(gs->state, e->seat, sn->name, w->lang, said,
	    sizeof(said)) == RULES_OK)
		put(l, "%s", said);
	else
		put(l, w->played, seat_called(sn, e->seat));
}

static void
summarize_one(const struct gamestate *gs, const struct store_entry *e,
    const char *const players[STORE_MAX_SEATS], const json_t *view,
    int over, const struct words *w, char *out)
{
	struct line l = { out, ENGINE_SUMMARY_MAX, 0, 0 };
	struct seat_names sn;
	char all[STORE_MAX_SEATS * (STORE_NAME_MAX + 8)];
	struct line everyone = { all, sizeof(all), 0, 0 };
	json_t *seats;
	int s;

	out[0] = '\0';
	call_seats(players, gs->game.nseats, w, &sn);
	switch (e->kind) {
	case STORE_ENTRY_GENESIS:
		all[0] = '\0';
		seats = json_array();
		for (s = 0; s < gs->game.nseats; s++)
			json_array_append_new(seats, json_integer(s));
		put_seats(&everyone, seats, &sn, NULL);
		json_decref(seats);
		put(&l, w->begins, w->lang == RULES_LANG_FR ?
		    gs->module->title_fr : gs->module->title_en,
		    (long long)gs->game.id, all);
		break;
	case STORE_ENTRY_AUTO:
	case STORE_ENTRY_BOT:
		put_move(&l, gs, e, &sn, w);
		put(&l, "%s", w->by_server);
		break;
	case STORE_ENTRY_SKIP:
		put(&l, w->skipped, seat_called(&sn, e->seat));
		break;
	case STORE_ENTRY_RESIGN:
		put(&l, w->resigned, seat_called(&sn, e->seat));
		break;
	case STORE_ENTRY_REPLACE:
		put_replace(&l, e, &sn, w);
		break;
	case STORE_ENTRY_CALL_OFF:
		put(&l, "%s", w->called_off);
		break;
	case STORE_ENTRY_DELEGATION:
		put(&l, strstr(e->text, "\"scope\":\"views\"") != NULL ?
		    w->delegates_views : w->delegates,
		    seat_called(&sn, e->seat));
		break;
	case STORE_ENTRY_REVOCATION:
		put(&l, w->revokes, seat_called(&sn, e->seat));
		break;
	case STORE_ENTRY_DELEGATED:
		put_move(&l, gs, e, &sn, w);
		put(&l, "%s", w->by_bot);
		break;
	default:	/* a move, signed or sent by a hosted key */
		put_move(&l, gs, e, &sn, w);
		break;
	}
	put_next(&l, view, &sn, w, over, gs->module->api_version >= 3 &&
	    gs->module->response_window != NULL &&
	    gs->module->response_window(gs->state));
}

/* The summaries of e, players naming the seats. */
static void
summarize_named(struct gamestate *gs, const struct store_entry *e,
    const char *const players[STORE_MAX_SEATS], int over,
    struct engine_summary *sum)
{
	json_t *view;

	view = gamestate_view(gs, RULES_VIEW_PUBLIC);
	summarize_one(gs, e, players, view, over, &english, sum->en);
	summarize_one(gs, e, players, view, over, &french, sum->fr);
	json_decref(view);
}

void
engine_summarize(struct store *st, struct gamestate *gs,
    const struct store_entry *e, int over, struct engine_summary *sum)
{
	const char *players[STORE_MAX_SEATS] = { NULL };

	gamestate_seat_names(st, gs, players);
	summarize_named(gs, e, players, over, sum);
}

/* Who sat where at an entry: a seat replaced after it had the player
 * its first later replacement names as previous_player. */
struct names_then {
	char		 name[STORE_MAX_SEATS][STORE_NAME_MAX];
	unsigned	 known;		/* bit s: name[s] holds seat s's */
};

static int
note_replaced(const struct store_entry *r, void *arg)
{
	struct names_then *then = arg;
	const char *before;
	json_t *rec;

	if (r->seat < 0 || r->seat >= STORE_MAX_SEATS ||
	    (then->known & (1u << r->seat)) != 0)
		return 0;
	rec = json_loads(r->text != NULL ? r->text : "", 0, NULL);
	before = json_string_value(json_object_get(rec, "previous_player"));
	if (before != NULL) {
		snprintf(then->name[r->seat], STORE_NAME_MAX, "%s", before);
		then->known |= 1u << r->seat;
	}
	json_decref(rec);
	return 0;
}

/* The state after e in r: the one r holds, moved on by e if it is the
 * state after the entry before e; else loaded.  0, or -1. */
static int
reader_state(struct store *st, struct engine_summary_reader *r,
    const struct store_entry *e)
{
	char err[512];

	if (r->loaded && r->gs.game.id == e->game_id &&
	    r->gs.seq + 1 == e->seq && replay_entry(r->gs.module,
	    r->gs.state, r->gs.game.seed, e, err, sizeof(err)) == 0) {
		/* As gamestate_load() sets it for its last entry. */
		r->gs.seq = e->seq;
		json_decref(r->gs.ended);
		r->gs.ended = NULL;
		if (e->kind == STORE_ENTRY_CALL_OFF ||
		    e->kind == STORE_ENTRY_RESIGN)
			r->gs.ended = json_loads(e->text, 0, NULL);
		if (r->gs.ended != NULL && e->kind == STORE_ENTRY_RESIGN &&
		    json_object_get(r->gs.ended, "winners") == NULL) {
			json_decref(r->gs.ended);
			r->gs.ended = NULL;
		}
		return 0;
	}
	engine_summary_reader_clear(r);
	if (gamestate_load(st, e->game_id, e->seq, &r->gs, err, sizeof(err)) !=
	    ENGINE_OK)
		return -1;
	r->loaded = 1;
	return 0;
}

void
engine_summary_reader_clear(struct engine_summary_reader *r)
{
	if (r->loaded)
		gamestate_clear(&r->gs);
	memset(r, 0, sizeof(*r));
}

void
engine_summary_read(struct store *st, struct engine_summary_reader *r,
    const struct store_entry *e, const char *name, struct engine_summary *sum)
{
	const char *players[STORE_MAX_SEATS] = { NULL };
	struct names_then then;
	char *en, *fr;
	int one, s;

	/* Entries written under schemas 12 to 14 have their row. */
	if (store_summary_get(st, e->game_id, e->seq, &en, &fr) == STORE_OK) {
		snprintf(sum->en, sizeof(sum->en), "%s", en);
		snprintf(sum->fr, sizeof(sum->fr), "%s", fr);
		free(en);
		free(fr);
		return;
	}
	/* Otherwise the state after e, worded now with the names of then.
	 * The entry ended the game if nobody is to act after it, or if it
	 * ended it outside the rules (ended: called off, resigned). */
	if (reader_state(st, r, e) != 0) {
		engine_summary_plain(e, name, sum);
		return;
	}
	gamestate_seat_names(st, &r->gs, players);
	memset(&then, 0, sizeof(then));
	(void)store_log_kind_after(st, e->game_id, e->seq, STORE_ENTRY_REPLACE,
	    note_replaced, &then);
	for (s = 0; s < STORE_MAX_SEATS; s++)
		if ((then.known & (1u << s)) != 0)
			players[s] = then.name[s];
	summarize_named(&r->gs, e, players, r->gs.ended != NULL ||
	    r->gs.module->to_act(r->gs.state, &one, 1) == 0, sum);
}

void
engine_summary_of(struct store *st, const struct store_entry *e,
    const char *name, struct engine_summary *sum)
{
	struct engine_summary_reader r;

	memset(&r, 0, sizeof(r));
	engine_summary_read(st, &r, e, name, sum);
	engine_summary_reader_clear(&r);
}

void
engine_summary_game_over(struct store *st, struct gamestate *gs,
    struct engine_summary *sum)
{
	const char *players[STORE_MAX_SEATS] = { NULL };
	const struct words *w[2] = { &english, &french };
	char *out[2] = { sum->en, sum->fr };
	struct seat_names sn;
	struct line l;
	json_t *view;
	int i;

	gamestate_seat_names(st, gs, players);
	view = gamestate_view(gs, RULES_VIEW_PUBLIC);
	for (i = 0; i < 2; i++) {
		l.text = out[i];
		l.size = ENGINE_SUMMARY_MAX;
		l.used = 0;
		l.full = 0;
		out[i][0] = '\0';
		call_seats(players, gs->game.nseats, w[i], &sn);
		put_end(&l, view, &sn, w[i]);
	}
	json_decref(view);
}

void
engine_summary_plain(const struct store_entry *e, const char *name,
    struct engine_summary *sum)
{
	const struct words *w[2] = { &english, &french };
	char *out[2] = { sum->en, sum->fr }, numbered[16];
	const char *who;
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(numbered, sizeof(numbered), w[i]->seat, e->seat);
		who = name != NULL ? name : numbered;
		switch (e->kind) {
		case STORE_ENTRY_GENESIS:
			snprintf(out[i], ENGINE_SUMMARY_MAX, w[i]->began,
			    (long long)e->game_id);
			break;
		case STORE_ENTRY_SKIP:
			snprintf(out[i], ENGINE_SUMMARY_MAX, w[i]->skipped,
			    who);
			break;
		case STORE_ENTRY_RESIGN:
			snprintf(out[i], ENGINE_SUMMARY_MAX, w[i]->resigned,
			    who);
			break;
		case STORE_ENTRY_CALL_OFF:
			snprintf(out[i], ENGINE_SUMMARY_MAX, "%s",
			    w[i]->called_off);
			break;
		default:
			snprintf(out[i], ENGINE_SUMMARY_MAX, w[i]->played,
			    who);
			break;
		}
	}
}

json_t *
engine_summary_json(const struct engine_summary *sum)
{
	return json_pack("{s:s, s:s}", "en", sum->en, "fr", sum->fr);
}
