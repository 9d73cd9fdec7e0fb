/*
 * gamemaster.c -- a game's master (engine.h; docs/ASYNC.md, "The game
 * master"): who it is, and what they may do to the game's clock --
 * extend the current turn's deadline, apply the missed-deadline outcome
 * now, pause and resume the game.  The administrator (pbemctl) may do
 * the same; the master signs the same commands (command.c).
 *
 * The clock of a turn is its start (table turns) plus the policy's
 * counted time, so extending a turn moves its start later, and a pause
 * moves it later by the time the game stood paused.  Nothing here writes
 * the log: the game's position does not change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine.h"
#include "gametx.h"
#include "timetext.h"
#include "refusal.h"
#include "schedule.h"
#include "turnclock.h"

/* The longest a master may extend one turn at a time. */
#define EXTEND_MAX	(30LL * 86400)

/* The master's signed command number must be new (cmd NULL: the
 * administrator, no number); it is recorded in m, which record()
 * writes. */
static enum engine_status
claim(struct store_master *m, const struct engine_gm_command *cmd,
    enum rules_lang lang, char *err, size_t errlen)
{
	if (cmd == NULL)
		return ENGINE_OK;
	if (cmd->seq <= m->command_seq)
		return engine_refusal_in(err, errlen, ENGINE_STALE_SEQ, lang,
		    "command number %lld of game %lld's master has already "
		    "been used; sign the command again with a number above "
		    "%lld", "le numéro de commande %lld du maître du jeu de la "
		    "partie %lld a déjà servi ; signez à nouveau la commande "
		    "avec un numéro supérieur à %lld", (long long)cmd->seq,
		    (long long)m->game_id, (long long)m->command_seq);
	m->command_seq = cmd->seq;
	return ENGINE_OK;
}

/* Queue the answer to the master's signed command cmd (a master_notice
 * "answer") at entry seq of game_id; 0, or -1 on a store error. */
static int
queue_answer(struct store *st, int64_t game_id, int64_t seq,
    const struct engine_gm_command *cmd)
{
	return engine_queue_master(st, game_id, seq, "answer",
	    json_pack("{s:s, s:s}", "command", cmd->text, "answer",
	    cmd->answer), clock_now());
}

/* Write the master's row m and, for a master's signed command, queue
 * its answer in the same transaction as the command's effect: a crash
 * cannot keep the one without the other. */
static enum engine_status
record(struct store *st, const struct gamestate *gs,
    const struct store_master *m, const struct engine_gm_command *cmd,
    char *err, size_t errlen)
{
	if (store_master_put(st, m) != STORE_OK || (cmd != NULL &&
	    queue_answer(st, gs->game.id, gs->seq, cmd) != 0))
		return engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	return ENGINE_OK;
}

/* The row's fields for recipient seat (-1: the master): fields, the
 * seat it names -- the recipient's own when it is to act, else the
 * first to act -- and that seat's deadline in turn under pol (0: none,
 * or turn is NULL: the game is paused). */
static json_t *
clock_row(struct store *st, const struct gamestate *gs,
    const struct policy *pol, const struct store_turn *turn,
    const int *seats, int nact, int seat, json_t *fields)
{
	struct store_seat row;
	int64_t deadline = 0;
	int named = seats[0], k;
	json_t *payload;

	for (k = 0; k < nact; k++)
		if (seats[k] == seat)
			named = seat;
	if (turn != NULL && store_seat_get(st, gs->game.id, named, &row) ==
	    STORE_OK)
		deadline = turnclock_deadline(pol, turn, &row);
	payload = json_pack("{s:I, s:I, s:I, s:i}", "game",
	    (json_int_t)gs->game.id, "seq", (json_int_t)gs->seq, "deadline",
	    (json_int_t)deadline, "late_seat", named);
	if (payload != NULL && fields != NULL)
		json_object_update(payload, fields);
	return payload;
}

/*
 * Tell every seat what the master (by_master) or the administrator did
 * to the game's clock or policy: what is "extended" (by seconds),
 * "resumed", "paused" or "policy"; extra holds that action's own fields
 * ("since" for a pause, "change" for a policy; taken, may be NULL).
 * Each row names a seat to act and its deadline (clock_row(): each seat
 * of a response window hears of its own), rendered in each player's
 * language and time zone (clock_changed.txt).  A master who did not act
 * (the administrator did) hears of it too, by a master_notice "clock".
 */
static enum engine_status
tell_seats(struct store *st, struct gamestate *gs,
    const struct store_turn *turn, const char *what, json_t *extra,
    int by_master, char *err, size_t errlen)
{
	const struct store_player *p;
	struct policy pol;
	enum engine_status es = ENGINE_OK;
	int seats[STORE_MAX_SEATS], nact, s;
	unsigned waiting;
	json_t *fields = NULL, *payload;

	(void)turnclock_shape(gs, seats, &nact, &waiting);
	if (nact == 0)
		goto out;
	if ((es = engine_policy_of(st, gs->game.id, gs->module, &pol, err,
	    errlen)) != ENGINE_OK)
		goto out;
	fields = json_pack("{s:s, s:b}", "action", what, "by_master",
	    by_master);
	if (fields != NULL && extra != NULL)
		json_object_update(fields, extra);
	for (s = 0; s < gs->game.nseats && es == ENGINE_OK; s++) {
		payload = clock_row(st, gs, &pol, turn, seats, nact, s, fields);
		json_object_set_new(payload, "seat", json_integer(s));
		json_object_set_new(payload, "event",
		    json_string("clock_changed"));
		if ((p = gamestate_seat_player(st, gs, s)) == NULL)
			json_decref(payload);
		if (p == NULL || engine_outbox_mail(st, gs->game.id, gs->seq,
		    p->email, "clock_changed", payload, clock_now()) != 0)
			es = engine_refusal(err, errlen, ENGINE_INTERNAL,
			    "store: %s", store_errmsg(st));
	}
	if (es == ENGINE_OK && !by_master && engine_queue_master(st,
	    gs->game.id, gs->seq, "clock", clock_row(st, gs, &pol, turn,
	    seats, nact, -1, fields), clock_now()) != 0)
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
out:
	json_decref(fields);
	json_decref(extra);
	return es;
}

/* The clock of gs's current turn, brought up to its last entry. */
static enum engine_status
current_turn(struct store *st, const struct gamestate *gs,
    struct store_turn *turn, char *err, size_t errlen)
{
	int seats[STORE_MAX_SEATS], nact, window;
	unsigned waiting;

	window = turnclock_shape(gs, seats, &nact, &waiting);
	if (turnclock_update(st, gs, window, waiting, -1, turn) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	return ENGINE_OK;
}

/* Move the start of gs's current turn by delta seconds; *turn: the turn
 * after. */
static enum engine_status
shift_turn(struct store *st, const struct gamestate *gs, int64_t delta,
    struct store_turn *turn, char *err, size_t errlen)
{
	enum engine_status es;

	if ((es = current_turn(st, gs, turn, err, errlen)) != ENGINE_OK)
		return es;
	turn->started += delta;
	if (store_turn_put(st, turn) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	return ENGINE_OK;
}

enum engine_status
engine_master_name(struct store *st, int64_t game_id, int64_t player_id,
    char *err, size_t errlen)
{
	struct store_master m;
	struct store_player p;
	struct store_game g;
	struct store_entry last;
	enum store_status rc;
	int named, running;

	memset(&g, 0, sizeof(g));
	if (store_game_get(st, game_id, &g) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_UNKNOWN_GAME,
		    "there is no game %lld", (long long)game_id);
	running = g.status == STORE_GAME_RUNNING;
	store_game_clear(&g);
	if (player_id != 0 && store_player_get(st, player_id, &p) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_BAD_REQUEST,
		    "there is no player with id %lld", (long long)player_id);
	if (store_master_get(st, game_id, &m) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	named = player_id != 0 && m.player_id != player_id;
	if (m.player_id != player_id)
		m.command_seq = 0;	/* a new master numbers from 1 */
	m.player_id = player_id;
	rc = store_master_put(st, &m);
	/* A new master of a running game is told so (a forming game's
	 * hears when it starts). */
	if (rc == STORE_OK && named && running) {
		memset(&last, 0, sizeof(last));
		if ((rc = store_log_last(st, game_id, &last)) == STORE_OK &&
		    engine_queue_master(st, game_id, last.seq, "named", NULL,
		    clock_now()) != 0)
			rc = STORE_ERROR;
		store_entry_clear(&last);
	}
	return rc == STORE_OK ? ENGINE_OK : engine_refusal(err, errlen,
	    ENGINE_INTERNAL,
	    "store: %s", store_errmsg(st));
}

enum engine_status
engine_master_extend(struct store *st, int64_t game_id,
    const struct engine_gm_command *cmd, int64_t seconds,
    enum rules_lang lang, char *err, size_t errlen)
{
	struct gamestate gs;
	struct store_master m;
	struct store_turn turn;
	enum engine_status es;

	if (seconds < 3600 || seconds > EXTEND_MAX)
		return engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "extend a turn by 1 hour to %lld days, not %lld seconds",
		    "prolongez un tour d'une heure à %lld jours, pas de %lld "
		    "secondes", EXTEND_MAX / 86400, (long long)seconds);
	es = engine_game_open(st, game_id, -1, &gs, lang, err, errlen);
	if (es != ENGINE_OK)
		return es;
	if (store_master_get(st, game_id, &m) != STORE_OK)
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	else if (m.paused_at != 0)
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "game %lld is "
		    "paused: its clock does not run; resume it first", "la "
		    "partie %lld est en pause : son horloge ne tourne pas ; "
		    "reprenez-la d'abord", (long long)game_id);
	else if ((es = claim(&m, cmd, lang, err, errlen)) == ENGINE_OK &&
	    (es = shift_turn(st, &gs, seconds, &turn, err, errlen)) ==
	    ENGINE_OK && (es = tell_seats(st, &gs, &turn, "extended",
	    json_pack("{s:I}", "extension", (json_int_t)seconds),
	    cmd != NULL, err, errlen)) == ENGINE_OK)
		es = record(st, &gs, &m, cmd, err, errlen);
	return engine_game_finish(st, &gs, es, err, errlen);
}

/*
 * On resuming at now a game paused at paused_at, whose current turn
 * started at started: make each seat's vacation row count as the pause
 * had never been.  Resuming moves the turn's start later by the pause's
 * length (shift_turn()), so the part of a vacation before the pause
 * moves later by as much, the part inside the pause is dropped (the
 * pause already gave that time back; counted twice it would stretch the
 * deadline again), and the part after it stays.  The parts before and
 * after then meet at now: the row stays one period.  Paused at 10 h into
 * a turn, away from 5 h to 30 h, resumed at 20 h: the row becomes 15 h
 * to 30 h, and the turn, now starting at 10 h, counts 5 hours before the
 * vacation as it did before the pause.  A vacation over before the turn
 * began, or not begun by now, is left as it is.
 */
static enum engine_status
trim_vacations(struct store *st, const struct gamestate *gs,
    int64_t started, int64_t paused_at, int64_t now, char *err,
    size_t errlen)
{
	struct store_seat row;
	int64_t pause = now > paused_at ? now - paused_at : 0, from, until;
	int s;

	for (s = 0; s < gs->game.nseats; s++) {
		if (store_seat_get(st, gs->game.id, s, &row) != STORE_OK)
			return engine_refusal(err, errlen, ENGINE_INTERNAL,
			    "store: %s", store_errmsg(st));
		from = row.away_from;
		until = row.away_until;
		if (until <= from || until <= started || from >= now)
			continue;
		if (from < paused_at) {
			row.away_from = from + pause;
			row.away_until = until <= paused_at ? until + pause :
			    until > now ? until : now;
		} else		/* begun inside the pause */
			row.away_from = until < now ? until : now;
		if (store_seat_update(st, &row) != STORE_OK)
			return engine_refusal(err, errlen, ENGINE_INTERNAL,
			    "store: %s", store_errmsg(st));
	}
	return ENGINE_OK;
}

enum engine_status
engine_master_pause(struct store *st, int64_t game_id,
    const struct engine_gm_command *cmd, int pause, int64_t now,
    enum rules_lang lang, char *err, size_t errlen)
{
	struct gamestate gs;
	struct store_master m;
	struct store_turn turn;
	enum engine_status es;

	es = engine_game_open(st, game_id, -1, &gs, lang, err, errlen);
	if (es != ENGINE_OK)
		return es;
	if (store_master_get(st, game_id, &m) != STORE_OK) {
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
		goto out;
	}
	if ((es = claim(&m, cmd, lang, err, errlen)) != ENGINE_OK)
		;
	else if (pause && m.paused_at != 0)
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "game %lld is "
		    "already paused", "la partie %lld est déjà en pause",
		    (long long)game_id);
	else if (!pause && m.paused_at == 0)
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "game %lld is "
		    "not paused", "la partie %lld n'est pas en pause",
		    (long long)game_id);
	/* Resuming gives the turn back the time it stood paused, and every
	 * seat is told its new deadline; pausing, that no clock runs. */
	else if (!pause && (es = current_turn(st, &gs, &turn, err,
	    errlen)) == ENGINE_OK && (es = trim_vacations(st, &gs,
	    turn.started, m.paused_at, now, err, errlen)) == ENGINE_OK &&
	    (es = shift_turn(st, &gs,
	    now > m.paused_at ? now - m.paused_at : 0, &turn, err,
	    errlen)) == ENGINE_OK)
		es = tell_seats(st, &gs, &turn, "resumed", NULL, cmd != NULL,
		    err, errlen);
	else if (pause)
		es = tell_seats(st, &gs, NULL, "paused", json_pack("{s:I}",
		    "since", (json_int_t)now), cmd != NULL, err, errlen);
	if (es != ENGINE_OK)
		goto out;
	m.paused_at = pause ? now : 0;
	/* Who paused it: the master who signed, or the administrator. */
	m.paused_by = pause && cmd != NULL ? m.player_id : 0;
	es = record(st, &gs, &m, cmd, err, errlen);
out:
	return engine_game_finish(st, &gs, es, err, errlen);
}

/* Queue the answer to the master's command cmd in a transaction of its
 * own, at game_id's last entry (for a command whose effect committed in
 * transactions of its own: gm force). */
static enum engine_status
answer_after(struct store *st, int64_t game_id,
    const struct engine_gm_command *cmd, char *err, size_t errlen)
{
	struct store_entry last;
	int64_t seq = 0;
	int rc = -1;

	if (store_begin(st) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_BUSY,
		    "the store is busy: %s; try again", store_errmsg(st));
	memset(&last, 0, sizeof(last));
	if (store_log_last(st, game_id, &last) == STORE_OK) {
		seq = last.seq;
		rc = queue_answer(st, game_id, seq, cmd);
	}
	store_entry_clear(&last);
	if (rc != 0 || store_commit(st) != STORE_OK) {
		store_rollback(st);
		return engine_refusal(err, errlen, ENGINE_INTERNAL,
		    "store: %s", store_errmsg(st));
	}
	engine_committed(game_id, seq);
	return ENGINE_OK;
}

enum engine_status
engine_master_force(struct store *st, const struct serverkey *key,
    int64_t game_id, const struct engine_gm_command *cmd, int64_t now,
    enum rules_lang lang, char *err, size_t errlen)
{
	struct schedule_stats stats;
	struct store_master m;
	struct gamestate gs;
	enum engine_status es;

	es = engine_game_open(st, game_id, -1, &gs, lang, err, errlen);
	if (es != ENGINE_OK)
		return es;
	if (store_master_get(st, game_id, &m) != STORE_OK)
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	else if (m.paused_at != 0)
		es = engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "game %lld is "
		    "paused; resume it first", "la partie %lld est en pause ; "
		    "reprenez-la d'abord", (long long)game_id);
	else if ((es = claim(&m, cmd, lang, err, errlen)) == ENGINE_OK)
		es = record(st, &gs, &m, NULL, err, errlen);
	/* The command number first: schedule_force() has its own
	 * transactions, one per entry it writes.  The answer comes after
	 * them, so that it is never "applied" for a move that failed and
	 * shows the board as the forced move left it. */
	if ((es = engine_game_finish(st, &gs, es, err, errlen)) != ENGINE_OK)
		return es;
	if (schedule_force(st, key, game_id, now, &stats, err, errlen) != 0)
		return ENGINE_INTERNAL;
	return cmd != NULL ? answer_after(st, game_id, cmd, err, errlen) :
	    ENGINE_OK;
}

/* The new values (as policy_text() writes them: seconds, words,
 * booleans) of the fields the n assignments name, for the mail to say
 * in the reader's language; NULL when out of memory. */
static json_t *
changed_fields(const struct policy *pol, const char *const *assignments,
    int n)
{
	json_t *all, *changed;
	char *text, name[64];
	const char *eq;
	int i;

	if ((text = policy_text(pol)) == NULL)
		return NULL;
	all = json_loads(text, 0, NULL);
	free(text);
	changed = json_object();
	for (i = 0; i < n && all != NULL && changed != NULL; i++) {
		if ((eq = strchr(assignments[i], '=')) == NULL ||
		    (size_t)(eq - assignments[i]) >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s",
		    (int)(eq - assignments[i]), assignments[i]);
		if (json_object_get(all, name) != NULL)
			json_object_set(changed, name, json_object_get(all,
			    name));
	}
	json_decref(all);
	return changed;
}

/* Apply the n assignments ("missed=default") to *pol for module, and
 * write them into change, joined by ", " (as the master wrote them);
 * refused in lang at the first that does not fit, *pol then part
 * changed. */
static enum engine_status
assign(struct policy *pol, const struct rules_module *module,
    const char *const *assignments, int n, enum rules_lang lang,
    char *change, size_t changelen, char *err, size_t errlen)
{
	char perr[512];
	size_t used = 0;
	int i;

	change[0] = '\0';
	for (i = 0; i < n; i++) {
		if (policy_set_field_in(assignments[i], module, pol, lang,
		    perr, sizeof(perr)) != 0)
			return engine_refusal(err, errlen, ENGINE_BAD_REQUEST,
			    "%s", perr);
		if (used < changelen)
			used += (size_t)snprintf(change + used, changelen -
			    used, "%s%s", i > 0 ? ", " : "", assignments[i]);
	}
	return ENGINE_OK;
}

/* Set the n assignments ("missed=default") of the policy of running
 * game_id, in one transaction with the mail that tells every seat the
 * change and its deadline under the new policy (none while the game is
 * paused), and the master's answer (cmd) or notice (the administrator). */
static enum engine_status
change_policy(struct store *st, int64_t game_id,
    const struct engine_gm_command *cmd, const char *const *assignments,
    int n, enum rules_lang lang, char *err, size_t errlen)
{
	struct gamestate gs;
	struct store_master m;
	struct store_turn turn;
	struct policy pol;
	enum engine_status es;
	char change[1024];

	es = engine_game_open(st, game_id, -1, &gs, lang, err, errlen);
	if (es != ENGINE_OK)
		return es;
	if (store_master_get(st, game_id, &m) != STORE_OK)
		es = engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	else if ((es = claim(&m, cmd, lang, err, errlen)) == ENGINE_OK)
		es = engine_policy_of(st, game_id, gs.module, &pol, err,
		    errlen);
	if (es == ENGINE_OK)
		es = assign(&pol, gs.module, assignments, n, lang, change,
		    sizeof(change), err, errlen);
	if (es == ENGINE_OK && (es = engine_policy_set(st, game_id, &pol,
	    err, errlen)) == ENGINE_OK && (es = current_turn(st, &gs, &turn,
	    err, errlen)) == ENGINE_OK && (es = tell_seats(st, &gs,
	    m.paused_at != 0 ? NULL : &turn, "policy", json_pack(
	    "{s:s, s:o*, s:b}", "change", change, "changed",
	    changed_fields(&pol, assignments, n), "paused", m.paused_at != 0),
	    cmd != NULL, err, errlen)) == ENGINE_OK)
		es = record(st, &gs, &m, cmd, err, errlen);
	return engine_game_finish(st, &gs, es, err, errlen);
}

enum engine_status
engine_master_policy(struct store *st, int64_t game_id,
    const struct engine_gm_command *cmd, const char *assignment,
    enum rules_lang lang, char *err, size_t errlen)
{
	return change_policy(st, game_id, cmd, &assignment, 1, lang, err,
	    errlen);
}

enum engine_status
engine_policy_change(struct store *st, int64_t game_id,
    const char *const *assignments, int n, char *err, size_t errlen)
{
	const struct rules_module *module;
	struct store_game g;
	struct policy pol;
	enum engine_status es;
	char change[1024];
	int running;

	memset(&g, 0, sizeof(g));
	if (store_game_get(st, game_id, &g) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_UNKNOWN_GAME,
		    "there is no game %lld", (long long)game_id);
	running = g.status == STORE_GAME_RUNNING;
	module = rules_find(g.ruleset);
	store_game_clear(&g);
	if (running)
		return change_policy(st, game_id, NULL, assignments, n,
		    RULES_LANG_EN, err, errlen);
	/* A forming game has no turn yet, a game over none left: nobody
	 * is told, the policy is only stored. */
	if ((es = engine_policy_get(st, game_id, &pol, err, errlen)) !=
	    ENGINE_OK || (es = assign(&pol, module, assignments, n,
	    RULES_LANG_EN, change, sizeof(change), err, errlen)) != ENGINE_OK)
		return es;
	return engine_policy_set(st, game_id, &pol, err, errlen);
}

enum engine_status
engine_master_paused(struct store *st, int64_t game_id, enum rules_lang lang,
    const char *zone, char *err, size_t errlen)
{
	struct store_master m;
	struct store_player p;
	char when[128], iso[64], who[STORE_NAME_MAX + 64];
	int fr = lang == RULES_LANG_FR;

	if (store_master_get(st, game_id, &m) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_INTERNAL, "store: %s",
		    store_errmsg(st));
	if (m.paused_at == 0)
		return ENGINE_OK;
	timetext_words(m.paused_at, fr ? "fr" : "en", zone, when,
	    sizeof(when));
	timetext_iso(m.paused_at, zone, iso, sizeof(iso));
	if (m.paused_by != 0 && store_player_get(st, m.paused_by, &p) ==
	    STORE_OK)
		snprintf(who, sizeof(who), fr ? "son maître du jeu, %s," :
		    "its game master, %s,", p.name);
	else
		snprintf(who, sizeof(who), fr ? "l'administrateur" :
		    "the administrator");
	return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
	    "game %lld is paused: %s paused it on %s (%s); no move is "
	    "accepted until the game master resumes it (gm resume); nothing "
	    "was changed", "la partie %lld est en pause : %s l'a mise en "
	    "pause le %s (%s) ; aucun coup n'est accepté tant que le maître "
	    "du jeu ne l'a pas reprise (mj reprendre) ; rien n'a été "
	    "modifié", (long long)game_id, who, when, iso);
}
