/*
 * mail_account.c -- what a person can do by mail without a key
 * (docs/MAIL.md, "Accounts by mail"; docs/PLAYING.md):
 *
 *   register [NAME] [en|fr]       inscription [NOM] [fr|en]
 *   confirm CODE                  confirmer CODE
 *   games                         parties
 *   join GAME                     rejoindre PARTIE
 *   new RULESET N players         nouvelle RULESET N joueurs
 *     [bots K [LEVEL]]              [robots K [NIVEAU]]  (seats 1..K: bots)
 *
 * The command is the first line of the mail that is not quoted, not
 * blank and not a client's signature, or else the subject.  Sign-up
 * answers with a confirmation code (engine_signup_start()); "confirm"
 * makes the player, with a key the server holds.  games, join and new
 * are for a player whose address is confirmed, recognised by the From:
 * address.  Every answer is an "mail_account" or "reply_error" mail to
 * the sender, in the language of the word used (or of the player).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>

#include "engine.h"
#include "log.h"
#include "mail.h"

enum account_cmd {
	ACC_NONE = 0,
	ACC_REGISTER,
	ACC_CONFIRM,
	ACC_GAMES,
	ACC_JOIN,
	ACC_NEW,
	ACC_LINK
};

static const struct {
	const char		*word;
	enum account_cmd	 cmd;
	int			 fr;
} words[] = {
	{ "register", ACC_REGISTER, 0 }, { "signup", ACC_REGISTER, 0 },
	{ "inscription", ACC_REGISTER, 1 }, { "inscrire", ACC_REGISTER, 1 },
	{ "confirm", ACC_CONFIRM, 0 }, { "confirmer", ACC_CONFIRM, 1 },
	{ "games", ACC_GAMES, 0 }, { "parties", ACC_GAMES, 1 },
	{ "join", ACC_JOIN, 0 }, { "rejoindre", ACC_JOIN, 1 },
	{ "new", ACC_NEW, 0 }, { "nouvelle", ACC_NEW, 1 },
	{ "nouveau", ACC_NEW, 1 },
	{ "link", ACC_LINK, 0 }, { "lier", ACC_LINK, 1 },
	{ NULL, ACC_NONE, 0 }
};

/* Split line into at most max words (in place). */
static int
split(char *line, char **w, int max)
{
	int n = 0;
	char *p = line;

	while (n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		w[n++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
	return n;
}

static enum account_cmd
command_of(char *line, char **w, int *nw, int *fr)
{
	size_t n;
	int i;

	*nw = split(line, w, 8);
	if (*nw == 0)
		return ACC_NONE;
	n = strlen(w[0]);
	while (n > 0 && (w[0][n - 1] == '.' || w[0][n - 1] == '!' ||
	    w[0][n - 1] == ':'))
		w[0][--n] = '\0';
	for (i = 0; words[i].word != NULL; i++)
		if (strcasecmp(w[0], words[i].word) == 0) {
			*fr = words[i].fr;
			return words[i].cmd;
		}
	return ACC_NONE;
}

/* The answer: event mail_account, kind, and the fields given. */
static void
answer(struct mail_answer *a, const char *to, const char *lang,
    const struct mail_result *r, const char *kind, int64_t game_id)
{
	mail_answer_plain(a, to, "mail_account", lang, r->message_id, 0);
	json_object_set_new(a->payload, kind, json_true());
	if (game_id > 0)
		json_object_set_new(a->payload, "game_id",
		    json_integer(game_id));
}

static void
outcome(struct mail_result *r, enum mail_outcome o, const char *code,
    const char *why)
{
	r->outcome = o;
	snprintf(r->code, sizeof(r->code), "%s", code);
	snprintf(r->reason, sizeof(r->reason), "%s", why);
}

/* An answer saying what was wrong (the engine's words, or ours). */
static void
failure(struct mail_answer *a, struct mail_result *r, const char *to,
    const char *lang, const char *code, const char *reason)
{
	outcome(r, MAIL_REJECTED, code, reason);
	mail_answer_plain(a, to, "mail_account", lang, r->message_id, 0);
	json_object_set_new(a->payload, "failed", json_true());
	json_object_set_new(a->payload, "code", json_string(code));
	json_object_set_new(a->payload, "reason", json_string(reason));
}

static void
do_register(struct mail_ingest_ctx *ctx, const struct mail_msg *m,
    const char *to, char **w, int nw, const char *lang,
    struct mail_result *r, struct mail_answer *a)
{
	struct store_player p;
	struct hosted_kek *kek;
	char name[STORE_NAME_MAX], err[512];
	const char *want = lang;
	enum engine_status es;
	int i;

	if (!ctx->set->open_registration) {
		failure(a, r, to, lang, "registration_closed", lang[0] == 'f' ?
		    "Ce serveur n'inscrit pas de joueurs par courriel ; "
		    "demandez à son administrateur." : "This server does not "
		    "sign players up by mail; ask its administrator.");
		return;
	}
	if (store_player_by_email(ctx->st, to, &p) == STORE_OK &&
	    !p.email_pending) {
		outcome(r, MAIL_COMMAND, "already_registered", "already a "
		    "player");
		answer(a, to, strcmp(p.lang, "fr") == 0 ? "fr" : "en", r,
		    "already", 0);
		json_object_set_new(a->payload, "name", json_string(p.name));
		return;
	}
	name[0] = '\0';
	for (i = 1; i < nw; i++) {
		if (strcasecmp(w[i], "en") == 0 || strcasecmp(w[i], "fr") == 0)
			want = strcasecmp(w[i], "fr") == 0 ? "fr" : "en";
		else if (name[0] == '\0')
			engine_name_from(w[i], to, name, sizeof(name));
	}
	if (name[0] == '\0')
		engine_name_from(m->from_name, to, name, sizeof(name));
	if ((kek = hosted_kek_open(ctx->set->hosted_key_file, 1, err,
	    sizeof(err))) == NULL) {
		outcome(r, MAIL_QUARANTINED, "internal_error", err);
		return;
	}
	if (store_begin(ctx->st) != STORE_OK) {
		hosted_kek_close(kek);
		outcome(r, MAIL_TEMPFAIL, "busy", store_errmsg(ctx->st));
		return;
	}
	es = engine_signup_start(ctx->st, kek, to, name, want, 0,
	    (int64_t)time(NULL), err, sizeof(err));
	hosted_kek_close(kek);
	if (es != ENGINE_OK || store_commit(ctx->st) != STORE_OK) {
		store_rollback(ctx->st);
		outcome(r, es == ENGINE_BUSY ? MAIL_TEMPFAIL : MAIL_QUARANTINED,
		    engine_status_code(es), err);
		return;
	}
	/* The code goes out as the engine's "signup" mail; nothing more. */
	outcome(r, MAIL_COMMAND, "signup", "sign-up started; code sent");
}

static void
do_confirm(struct mail_ingest_ctx *ctx, const struct mail_msg *m,
    const char *to, char **w, int nw, const char *lang,
    struct mail_result *r, struct mail_answer *a)
{
	struct store_player p;
	struct store_signup su;
	struct hosted_kek *kek;
	unsigned char hash[STORE_HASH_BYTES];
	char err[512];
	enum engine_status es;

	(void)m;
	if (nw < 2) {
		failure(a, r, to, lang, "no_code", lang[0] == 'f' ?
		    "Écrivez « confirmer » suivi du code reçu." :
		    "Write \"confirm\" followed by the code you received.");
		return;
	}
	/* The code confirms the address it was sent to, and only from
	 * there: a code read by someone else confirms nothing. */
	engine_token_hash(w[1], hash);
	if (store_signup_get(ctx->st, hash, &su) == STORE_OK &&
	    strcasecmp(su.email, to) != 0) {
		failure(a, r, to, lang, "wrong_address", lang[0] == 'f' ?
		    "Ce code confirme une autre adresse que la vôtre." :
		    "This code confirms another address than yours.");
		return;
	}
	if ((kek = hosted_kek_open(ctx->set->hosted_key_file, 1, err,
	    sizeof(err))) == NULL) {
		outcome(r, MAIL_QUARANTINED, "internal_error", err);
		return;
	}
	es = engine_signup_confirm(ctx->st, kek, w[1], (int64_t)time(NULL),
	    &p, err, sizeof(err));
	hosted_kek_close(kek);
	switch (es) {
	case ENGINE_OK:
		outcome(r, MAIL_COMMAND, "confirmed", "address confirmed");
		answer(a, to, strcmp(p.lang, "fr") == 0 ? "fr" : "en", r,
		    "confirmed", 0);
		json_object_set_new(a->payload, "name", json_string(p.name));
		break;
	case ENGINE_BUSY:
		outcome(r, MAIL_TEMPFAIL, "busy", err);
		break;
	case ENGINE_INTERNAL:
		outcome(r, MAIL_QUARANTINED, "internal_error", err);
		break;
	default:
		failure(a, r, to, lang, engine_status_code(es), lang[0] ==
		    'f' ? (es == ENGINE_BAD_REQUEST ? "Ce code ne correspond à "
		    "aucune inscription." : "Ce code a expiré ou a déjà servi.")
		    : err);
		break;
	}
}

/* At most this many open games in one "games" answer: the store reads
 * no more than the answer lists, whatever the number of games stored,
 * and "games N" lists those after game N. */
#define GAMES_LISTED	20

struct forming {
	json_t	*list;
	int	 fr;
	int64_t	 last;	/* the last game listed */
	int64_t	 next;	/* "games N" for the next ones; 0 if none */
};

static int
add_forming(const struct store_game *g, void *arg)
{
	struct forming *f = arg;
	const struct rules_module *mod;
	int s, open = 0;

	if (json_array_size(f->list) == GAMES_LISTED) {
		/* One more than listed: there is a next page. */
		f->next = f->last;
		return 1;
	}
	for (s = 0; s < g->nseats; s++)
		open += g->seat_player[s] == 0;
	mod = rules_find(g->ruleset);
	json_array_append_new(f->list, json_pack("{s:I, s:s, s:s, s:i, s:i}",
	    "id", (json_int_t)g->id, "ruleset", g->ruleset, "title",
	    mod == NULL ? g->ruleset : f->fr ? mod->title_fr : mod->title_en,
	    "open", open, "seats", g->nseats));
	f->last = g->id;
	return 0;
}

/* The confirmed player of the sender's address, or an answer saying to
 * sign up first. */
static int
player_of(struct mail_ingest_ctx *ctx, const char *to, const char *lang,
    struct store_player *p, struct mail_result *r, struct mail_answer *a)
{
	if (store_player_by_email(ctx->st, to, p) == STORE_OK &&
	    !p->email_pending)
		return 0;
	failure(a, r, to, lang, "not_registered", lang[0] == 'f' ?
	    "Votre adresse n'est pas celle d'un joueur inscrit : écrivez "
	    "d'abord « inscription »." : "Your address is not a registered "
	    "player's: send \"register\" first.");
	return -1;
}

static void
do_games(struct mail_ingest_ctx *ctx, const char *to, char **w, int nw,
    const char *lang, struct mail_result *r, struct mail_answer *a)
{
	struct store_game_query q;
	struct forming f;
	long long after = 0;

	memset(&q, 0, sizeof(q));
	if (nw >= 2 && (sscanf(w[1][0] == '#' ? w[1] + 1 : w[1], "%lld",
	    &after) != 1 || after < 0)) {
		failure(a, r, to, lang, "bad_request", lang[0] == 'f' ?
		    "Écrivez « parties », ou « parties N » pour celles qui "
		    "suivent la partie N." : "Write \"games\", or \"games "
		    "N\" for those after game N.");
		return;
	}
	q.after = after;
	q.limit = GAMES_LISTED + 1;
	q.status = STORE_GAME_FORMING;
	f.list = json_array();
	f.fr = lang[0] == 'f';
	f.last = f.next = 0;
	if (store_game_page(ctx->st, &q, add_forming, &f) != STORE_OK) {
		json_decref(f.list);
		outcome(r, MAIL_TEMPFAIL, "busy", store_errmsg(ctx->st));
		return;
	}
	outcome(r, MAIL_COMMAND, "games", "the open games");
	answer(a, to, lang, r, "games", 0);
	json_object_set_new(a->payload, "none", json_boolean(
	    json_array_size(f.list) == 0));
	json_object_set_new(a->payload, "list", f.list);
	if (f.next != 0) {
		json_object_set_new(a->payload, "next", json_integer(f.next));
		json_object_set_new(a->payload, "listed",
		    json_integer(GAMES_LISTED));
	}
}

/* The engine's answer to join or new: busy (try again), a refusal
 * answered with its reason, or done: the answer `kind' about game_id.
 * 0 when done (a->payload is there to add to). */
static int
done(enum engine_status es, struct mail_answer *a, struct mail_result *r,
    const char *to, const char *lang, const char *err, const char *kind,
    int64_t game_id, int started)
{
	if (es == ENGINE_BUSY) {
		outcome(r, MAIL_TEMPFAIL, "busy", err);
		return -1;
	}
	if (es != ENGINE_OK) {
		failure(a, r, to, lang, engine_status_code(es), err);
		return -1;
	}
	outcome(r, MAIL_COMMAND, kind, kind);
	answer(a, to, lang, r, kind, game_id);
	json_object_set_new(a->payload, "started", json_boolean(started));
	return 0;
}

/* Does p sit in as many forming games as a player may (the cap of
 * POST /v1/games)?  Answered, and -1, if so. */
static int
forming_full(struct mail_ingest_ctx *ctx, const struct store_player *p,
    const char *to, const char *lang, struct mail_result *r,
    struct mail_answer *a)
{
	int64_t n, cap = ctx->set->forming_games_per_player;
	char msg[512];

	if (cap <= 0)
		return 0;
	if (store_game_forming_count(ctx->st, p->id, &n) != STORE_OK) {
		outcome(r, MAIL_TEMPFAIL, "busy", "the games cannot be read "
		    "now");
		return -1;
	}
	if (n < cap)
		return 0;
	snprintf(msg, sizeof(msg), lang[0] == 'f' ? "Vous avez déjà une "
	    "place dans %lld parties en formation, le plus qu'un joueur "
	    "puisse avoir (forming_games_per_player = %lld) : quittez-en une "
	    "ou attendez qu'une commence." : "You already have a seat in "
	    "%lld forming games, the most a player may have "
	    "(forming_games_per_player = %lld): leave one or wait until one "
	    "starts.", (long long)n, (long long)cap);
	failure(a, r, to, lang, "too_many_forming_games", msg);
	return -1;
}

static void
do_join(struct mail_ingest_ctx *ctx, const char *to, char **w, int nw,
    const char *lang, struct mail_result *r, struct mail_answer *a)
{
	struct store_player p;
	char err[512];
	long long id;
	int seat = -1, started = 0;
	enum engine_status es;

	if (player_of(ctx, to, lang, &p, r, a) != 0)
		return;
	if (nw < 2 || sscanf(w[1][0] == '#' ? w[1] + 1 : w[1], "%lld",
	    &id) != 1 || id <= 0) {
		failure(a, r, to, lang, "bad_request", lang[0] == 'f' ?
		    "Écrivez « rejoindre » suivi du numéro de la partie "
		    "(« parties » les liste)." : "Write \"join\" followed by "
		    "the game's number (\"games\" lists them).");
		return;
	}
	if (forming_full(ctx, &p, to, lang, r, a) != 0)
		return;
	es = engine_join_game(ctx->st, ctx->key, id, -1, p.id, &seat,
	    &started, err, sizeof(err));
	if (done(es, a, r, to, lang, err, "joined", id, started) == 0)
		json_object_set_new(a->payload, "seat", json_integer(seat));
}

/* "link CODE": the code a chat bot sent the player's nick (docs/API.md
 * "Chat identities"), from the player's confirmed address. */
static void
do_link(struct mail_ingest_ctx *ctx, const char *to, char **w, int nw,
    const char *lang, struct mail_result *r, struct mail_answer *a)
{
	char network[ENGINE_CHAT_NAME_MAX], nick[ENGINE_CHAT_NAME_MAX];
	char err[512];
	struct store_player p;
	enum engine_status es;

	if (player_of(ctx, to, lang, &p, r, a) != 0)
		return;
	if (nw < 2) {
		failure(a, r, to, lang, "bad_request", lang[0] == 'f' ?
		    "Écrivez « lier » suivi du code que le bot de discussion "
		    "vous a envoyé." : "Write \"link\" followed by the code "
		    "the chat bot sent you.");
		return;
	}
	es = engine_chat_link(ctx->st, &p, w[1], (int64_t)time(NULL),
	    lang[0] == 'f' ? RULES_LANG_FR : RULES_LANG_EN, network, nick, err,
	    sizeof(err));
	if (done(es, a, r, to, lang, err, "linked", 0, 0) == 0) {
		json_object_set_new(a->payload, "network", json_string(network));
		json_object_set_new(a->payload, "nick", json_string(nick));
	}
}

static void
do_new(struct mail_ingest_ctx *ctx, const char *to, char **w, int nw,
    const char *lang, struct mail_result *r, struct mail_answer *a)
{
	int64_t players[STORE_MAX_SEATS], game_id = 0;
	const char *bots[STORE_MAX_SEATS] = { NULL };
	struct store_player p;
	char err[512], spec[64];
	int n = 0, i, started = 0, nbots = 0;
	enum engine_status es;

	if (player_of(ctx, to, lang, &p, r, a) != 0)
		return;
	if (nw >= 3)
		n = atoi(w[2]);
	/* "... bots K [LEVEL]" / "... robots K [NIVEAU]": seats 1 to K are
	 * played by the server (docs/SERVER-BOTS.md). */
	if (nw >= 6 && (strcasecmp(w[4], "bots") == 0 ||
	    strcasecmp(w[4], "bot") == 0 || strcasecmp(w[4], "robots") == 0 ||
	    strcasecmp(w[4], "robot") == 0))
		nbots = atoi(w[5]);
	snprintf(spec, sizeof(spec), "@bot:%s", nw >= 7 ? w[6] : "normal");
	if (nw < 3 || rules_find(w[1]) == NULL || n < 1 ||
	    n > STORE_MAX_SEATS || (nw > 4 && (nbots < 1 || nbots >= n ||
	    nw > 7))) {
		failure(a, r, to, lang, "bad_request", lang[0] == 'f' ?
		    "Écrivez « nouvelle JEU N joueurs », par exemple "
		    "« nouvelle stmissions 3 joueurs », ou avec des robots "
		    "« nouvelle eve 2 joueurs robots 1 normal »." :
		    "Write \"new GAME N players\", for example \"new "
		    "stmissions 3 players\", or with bots \"new eve 2 "
		    "players bots 1 normal\".");
		return;
	}
	if (forming_full(ctx, &p, to, lang, r, a) != 0)
		return;
	players[0] = p.id;
	for (i = 1; i < n; i++) {
		players[i] = 0;
		bots[i] = i <= nbots ? spec : NULL;
	}
	es = engine_form_game_with(ctx->st, ctx->key, w[1], NULL, NULL, players,
	    bots, n, &game_id, &started, err, sizeof(err));
	if (done(es, a, r, to, lang, err, "created", game_id, started) == 0)
		json_object_set_new(a->payload, "seats", json_integer(n));
}

int
mail_account(struct mail_ingest_ctx *ctx, const struct mail_msg *m,
    const char *sender, struct mail_result *r, struct mail_answer *a)
{
	struct store_player p;
	char line[512], *w[8];
	const char *lang;
	enum account_cmd cmd = ACC_NONE;
	int nw = 0, fr = 0;

	if (mail_reply_move(m->text, m->textlen, line, sizeof(line)) == 0)
		cmd = command_of(line, w, &nw, &fr);
	if (cmd == ACC_NONE) {
		/* The subject, after any "Re:". */
		const char *s = m->subject;

		while (strncasecmp(s, "re:", 3) == 0 || *s == ' ')
			s += *s == ' ' ? 1 : 3;
		snprintf(line, sizeof(line), "%s", s);
		cmd = command_of(line, w, &nw, &fr);
	}
	if (cmd == ACC_NONE)
		return 0;
	/* The language of the word, unless the player chose one. */
	lang = fr ? "fr" : "en";
	if (cmd != ACC_REGISTER && store_player_by_email(ctx->st, sender,
	    &p) == STORE_OK)
		lang = strcmp(p.lang, "fr") == 0 ? "fr" : "en";
	else if (!fr && strncmp(m->language, "fr", 2) == 0)
		lang = "fr";
	switch (cmd) {
	case ACC_REGISTER:
		do_register(ctx, m, sender, w, nw, lang, r, a);
		break;
	case ACC_CONFIRM:
		do_confirm(ctx, m, sender, w, nw, lang, r, a);
		break;
	case ACC_GAMES:
		do_games(ctx, sender, w, nw, lang, r, a);
		break;
	case ACC_JOIN:
		do_join(ctx, sender, w, nw, lang, r, a);
		break;
	case ACC_NEW:
		do_new(ctx, sender, w, nw, lang, r, a);
		break;
	case ACC_LINK:
		do_link(ctx, sender, w, nw, lang, r, a);
		break;
	case ACC_NONE:
		break;
	}
	return 1;
}
