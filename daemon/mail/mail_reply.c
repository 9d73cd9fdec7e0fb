/*
 * mail_reply.c -- a plain reply to a your-turn mail plays the move it
 * carries (docs/MAIL.md, "Replies to play"; docs/PLAYING.md).
 *
 * Each your-turn mail to a player whose key the server holds carries a
 * one-time reply token, in its Message-ID (so a plain Reply brings it
 * back in In-Reply-To and References even when nothing is quoted) and in
 * a line of its body.  The move is the first line of the reply that is
 * not quoted, not blank, not the client's attribution ("On ... wrote:",
 * "Le ... a écrit :") and not a signature ("-- ", "Sent from my iPhone",
 * "Envoyé de mon iPhone") -- above or below the quote.  It is played,
 * signed with the hosted key, only if the token is known, unused and
 * for the game's current turn, the From: address is the confirmed
 * address of the player the token was made for, that player still holds
 * the seat, and the mail is not a forward.  Every other case is answered
 * in the player's language with what was wrong and what to do, and
 * nothing is played.
 */
#define _GNU_SOURCE	/* strcasestr */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>

#include "engine.h"
#include "log.h"
#include "mail.h"

#define TOKEN_MARK	"pbem-reply-"

int
mail_reply_token_in(const char *s, size_t len, char *tok)
{
	const size_t mark = sizeof(TOKEN_MARK) - 1;
	size_t i, j;

	for (i = 0; i + mark + ENGINE_TOKEN_LEN <= len; i++) {
		if (strncasecmp(s + i, TOKEN_MARK, mark) != 0)
			continue;
		for (j = 0; j < ENGINE_TOKEN_LEN; j++)
			if (!isxdigit((unsigned char)s[i + mark + j]))
				break;
		if (j < ENGINE_TOKEN_LEN)
			continue;
		for (j = 0; j < ENGINE_TOKEN_LEN; j++)
			tok[j] = (char)tolower((unsigned char)s[i + mark + j]);
		tok[ENGINE_TOKEN_LEN] = '\0';
		return 1;
	}
	return 0;
}

static int
starts_with_ci(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

int
mail_is_forward(const struct mail_msg *m)
{
	static const char *const subj[] = { "fwd:", "fwd :", "fw:", "fw :",
	    "tr:", "tr :", "wg:", "[fwd", NULL };
	static const char *const marks[] = { "forwarded message",
	    "begin forwarded message", "message transféré",
	    "début du message réexpédié", "message réexpédié", NULL };
	const char *s = m->subject;
	int i;

	while (*s == ' ' || *s == '\t')
		s++;
	for (i = 0; subj[i] != NULL; i++)
		if (starts_with_ci(s, subj[i]))
			return 1;
	for (i = 0; marks[i] != NULL; i++)
		if (m->text != NULL && strcasestr(m->text, marks[i]) != NULL)
			return 1;
	return 0;
}

/* Trim blanks (and UTF-8 no-break spaces) at both ends, in place. */
static char *
trim(char *s)
{
	char *e;

	for (;;) {
		if (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		else if ((unsigned char)s[0] == 0xc2 &&
		    (unsigned char)s[1] == 0xa0)
			s += 2;
		else
			break;
	}
	e = s + strlen(s);
	while (e > s) {
		if (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')
			e--;
		else if (e - s >= 2 && (unsigned char)e[-2] == 0xc2 &&
		    (unsigned char)e[-1] == 0xa0)
			e -= 2;
		else
			break;
	}
	*e = '\0';
	return s;
}

static int
ends_with_ci(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* "On ... wrote:", "Le ... a écrit :", and their halves when a client
 * wraps them. */
static int
attribution_end(const char *line)
{
	return ends_with_ci(line, "wrote:") || ends_with_ci(line, "écrit :") ||
	    ends_with_ci(line, "écrit:") || ends_with_ci(line, "escribió:") ||
	    ends_with_ci(line, "schrieb:");
}

static int
attribution_start(const char *line)
{
	return starts_with_ci(line, "On ") || starts_with_ci(line, "Le ") ||
	    starts_with_ci(line, "El ") || starts_with_ci(line, "Am ");
}

/* The end of what a person wrote: signatures, and the separators
 * clients put before a quote they do not mark with '>'. */
static int
stop_line(const char *raw, const char *line)
{
	return strcmp(raw, "-- ") == 0 || strcmp(raw, "--") == 0 ||
	    strcmp(line, "--") == 0 || starts_with_ci(line, "-----Original") ||
	    starts_with_ci(line, "----- Original") ||
	    starts_with_ci(line, "-------- Message original") ||
	    starts_with_ci(line, "________________") ||
	    starts_with_ci(line, "From: ") || starts_with_ci(line, "De : ") ||
	    starts_with_ci(line, "De: ");
}

/* Lines phone and web clients add on their own. */
static int
client_line(const char *line)
{
	return starts_with_ci(line, "Sent from my ") ||
	    starts_with_ci(line, "Sent from ") ||
	    starts_with_ci(line, "Envoyé de mon ") ||
	    starts_with_ci(line, "Envoyé depuis ") ||
	    starts_with_ci(line, "Envoyé à partir de ") ||
	    starts_with_ci(line, "Get Outlook for ") ||
	    starts_with_ci(line, "Télécharger Outlook pour ") ||
	    strcasestr(line, TOKEN_MARK) != NULL;
}

/* The next line of text at *pos into buf (its line end dropped). */
static int
next_line(const char *text, size_t len, size_t *pos, char *buf,
    size_t size)
{
	size_t start = *pos, n;

	if (start >= len)
		return 0;
	while (*pos < len && text[*pos] != '\n')
		(*pos)++;
	n = *pos - start;
	if (*pos < len)
		(*pos)++;
	if (n >= size)
		n = size - 1;
	memcpy(buf, text + start, n);
	buf[n] = '\0';
	return 1;
}

static int
quoted(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return *line == '>';
}

int
mail_reply_move(const char *text, size_t len, char *out, size_t outlen)
{
	char raw[2048], peek[2048], *line;
	size_t pos = 0, ppos, n;
	int flowed;

	out[0] = '\0';
	while (next_line(text, len, &pos, raw, sizeof(raw))) {
		if (quoted(raw))
			continue;
		n = strlen(raw);
		if (n > 0 && raw[n - 1] == '\r')
			raw[--n] = '\0';
		/* format=flowed (RFC 3676): a line ending in a space goes
		 * on in the next one. */
		flowed = n > 0 && raw[n - 1] == ' ' && strcmp(raw, "-- ") != 0;
		line = trim(raw);
		if (stop_line(raw, line))
			break;
		if (*line == '\0' || client_line(line) || attribution_end(line))
			continue;
		if (attribution_start(line)) {
			/* A wrapped attribution: "wrote:" on the next line. */
			ppos = pos;
			if (next_line(text, len, &ppos, peek, sizeof(peek)) &&
			    attribution_end(trim(peek))) {
				pos = ppos;
				continue;
			}
		}
		snprintf(out, outlen, "%s", line);
		while (flowed && next_line(text, len, &pos, peek,
		    sizeof(peek)) && !quoted(peek)) {
			n = strlen(peek);
			if (n > 0 && peek[n - 1] == '\r')
				peek[--n] = '\0';
			flowed = n > 0 && peek[n - 1] == ' ';
			line = trim(peek);
			if (*line == '\0')
				break;
			n = strlen(out);
			snprintf(out + n, outlen - n, " %s", line);
		}
		return 0;
	}
	return -1;
}

/* ---- Playing a reply ---------------------------------------------------- */

/* Why a reply played nothing, in both languages, with what to do. */
static const struct refusal {
	const char	*code;
	const char	*en, *en_todo;
	const char	*fr, *fr_todo;
} refusals[] = {
	{ "reply_forwarded",
	  "A forwarded mail cannot play a move.",
	  "Use Reply (not Forward) on your newest \"your turn\" mail and write "
	  "your move on the first line.",
	  "Un courriel transféré ne peut pas jouer de coup.",
	  "Utilisez Répondre (et non Transférer) sur votre dernier courriel "
	  "« à vous de jouer » et écrivez votre coup sur la première ligne." },
	{ "reply_unknown_token",
	  "The reply code of your mail is not one this server gave.",
	  "Reply to your newest \"your turn\" mail itself.",
	  "Le code de réponse de votre courriel n'a pas été donné par ce "
	  "serveur.",
	  "Répondez directement à votre dernier courriel « à vous de jouer »." },
	{ "reply_wrong_sender",
	  "This reply did not come from the address of the player the turn "
	  "mail was sent to.",
	  "Only the player can play, from their own registered address.",
	  "Cette réponse ne vient pas de l'adresse du joueur à qui le courriel "
	  "de tour a été envoyé.",
	  "Seul le joueur peut jouer, depuis son adresse enregistrée." },
	{ "reply_other_seat",
	  "This reply answers the turn mail of another seat, not yours.",
	  "Reply to the \"your turn\" mail you received for your own seat.",
	  "Cette réponse répond au courriel de tour d'un autre siège, pas du "
	  "vôtre.",
	  "Répondez au courriel « à vous de jouer » reçu pour votre siège." },
	{ "reply_used",
	  "This turn mail was already answered: its reply code has been used.",
	  "Each turn mail plays one move. Wait for your next \"your turn\" mail "
	  "and reply to it.",
	  "Ce courriel de tour a déjà reçu une réponse : son code a servi.",
	  "Chaque courriel de tour joue un seul coup. Attendez le prochain "
	  "courriel « à vous de jouer » et répondez-y." },
	{ "reply_stale",
	  "This turn mail is about an earlier turn; the game has moved on "
	  "since.",
	  "Reply to your newest \"your turn\" mail (or send STATUS to see the "
	  "game now).",
	  "Ce courriel de tour concerne un tour passé ; la partie a avancé "
	  "depuis.",
	  "Répondez à votre dernier courriel « à vous de jouer »." },
	{ "reply_no_move",
	  "No move was found in your reply.",
	  "Write the move on the first line of your reply, above or below the "
	  "quoted mail, in plain words as the turn mail shows them.",
	  "Aucun coup n'a été trouvé dans votre réponse.",
	  "Écrivez le coup sur la première ligne de votre réponse, au-dessus "
	  "ou au-dessous du courriel cité, en toutes lettres comme le montre "
	  "le courriel de tour." },
	{ "reply_own_key",
	  "You play with a key of your own: the server holds no key for you "
	  "and cannot sign your moves.",
	  "Sign your move with `pbem sign` and paste the block into your mail.",
	  "Vous jouez avec votre propre clé : le serveur n'en détient aucune "
	  "pour vous et ne peut pas signer vos coups.",
	  "Signez votre coup avec `pbem sign` et collez le bloc dans votre "
	  "courriel." },
	{ NULL, NULL, NULL, NULL, NULL }
};

void
mail_reply_refusal(struct mail_answer *a, const char *to, const char *code,
    const char *lang, const char *in_reply_to, int64_t game_id)
{
	const struct refusal *f;
	int fr = strcmp(lang, "fr") == 0;

	for (f = refusals; f->code != NULL; f++)
		if (strcmp(f->code, code) == 0)
			break;
	mail_answer_plain(a, to, "reply_error", lang, in_reply_to, game_id);
	json_object_set_new(a->payload, "code", json_string(code));
	if (f->code != NULL) {
		json_object_set_new(a->payload, "reason", json_string(fr ?
		    f->fr : f->en));
		json_object_set_new(a->payload, "todo", json_string(fr ?
		    f->fr_todo : f->en_todo));
	}
}

static void
refuse(struct mail_result *r, struct mail_answer *a, const char *code,
    const char *to, const char *lang, int64_t game_id, const char *why)
{
	r->outcome = MAIL_REJECTED;
	snprintf(r->code, sizeof(r->code), "%s", code);
	snprintf(r->reason, sizeof(r->reason), "%.400s", why);
	mail_reply_refusal(a, to, code, lang, r->message_id, game_id);
}

/* 1 if player id sits at a seat of g other than seat. */
static int
other_seat_of(const struct store_game *g, int64_t player, int seat)
{
	int s;

	for (s = 0; s < g->nseats; s++)
		if (s != seat && g->seat_player[s] == player)
			return 1;
	return 0;
}

int
mail_reply_play(struct mail_ingest_ctx *ctx, const struct mail_msg *m,
    const char *lang, struct mail_result *r, struct mail_answer *a)
{
	char tok[ENGINE_TOKEN_LEN + 1], move[PROTO_MOVE_MAX + 1], err[512];
	unsigned char hash[STORE_HASH_BYTES], head[STORE_HASH_BYTES];
	struct store_player p, sender;
	struct store_token t;
	struct store_game g;
	struct engine_reply er;
	struct hosted_kek *kek;
	const char *plang;
	enum store_status rc;
	int64_t seq;
	int in_headers;

	in_headers = mail_reply_token_in(m->threading, strlen(m->threading),
	    tok);
	if (!in_headers && !mail_reply_token_in(m->text, m->textlen, tok))
		return 0;
	/* The reply is answered at the player's address once the token
	 * names them; before that, at the From: address, which is what
	 * is checked. */
	if (mail_is_forward(m)) {
		refuse(r, a, "reply_forwarded", m->from, lang, 0, "a forwarded "
		    "mail carrying a reply token: not played");
		return 1;
	}
	engine_token_hash(tok, hash);
	rc = store_reply_token_get(ctx->st, hash, &t);
	if (rc == STORE_NOTFOUND) {
		refuse(r, a, "reply_unknown_token", m->from, lang, 0,
		    "a reply token this server never gave");
		return 1;
	}
	if (rc != STORE_OK || store_player_get(ctx->st, t.player_id, &p) !=
	    STORE_OK || store_game_get(ctx->st, t.game_id, &g) != STORE_OK) {
		r->outcome = MAIL_TEMPFAIL;
		snprintf(r->reason, sizeof(r->reason), "store: %s",
		    store_errmsg(ctx->st));
		return 1;
	}
	plang = strcmp(p.lang, "fr") == 0 ? "fr" : "en";
	if (strcasecmp(m->from, p.email) != 0 || p.email_pending) {
		/* Another player of this game answering a turn mail that
		 * was not theirs is told so; anyone else, that the address
		 * is not the player's.  Neither learns anything else. */
		int other = store_player_by_email(ctx->st, m->from, &sender) ==
		    STORE_OK && !sender.email_pending &&
		    other_seat_of(&g, sender.id, t.seat);
		refuse(r, a, other ? "reply_other_seat" : "reply_wrong_sender",
		    m->from, other ? (strcmp(sender.lang, "fr") == 0 ? "fr" :
		    "en") : lang, t.game_id, other ? "a reply token of another "
		    "seat" : "a reply token from an address that is not the "
		    "player's");
		store_game_clear(&g);
		return 1;
	}
	if (t.seat >= g.nseats || g.seat_player[t.seat] != p.id) {
		refuse(r, a, "reply_other_seat", p.email, plang, t.game_id,
		    "the token's seat is no longer the player's");
		store_game_clear(&g);
		return 1;
	}
	store_game_clear(&g);
	if (t.used != 0) {
		refuse(r, a, "reply_used", p.email, plang, t.game_id,
		    "a reply token already used");
		return 1;
	}
	if (store_log_head(ctx->st, t.game_id, &seq, head) != STORE_OK) {
		r->outcome = MAIL_TEMPFAIL;
		snprintf(r->reason, sizeof(r->reason), "store: %s",
		    store_errmsg(ctx->st));
		return 1;
	}
	if (seq != t.seq) {
		refuse(r, a, "reply_stale", p.email, plang, t.game_id,
		    "a reply token of an earlier turn");
		return 1;
	}
	if (mail_reply_move(m->text, m->textlen, move, sizeof(move)) != 0) {
		refuse(r, a, "reply_no_move", p.email, plang, t.game_id,
		    "a reply with no move line");
		return 1;
	}
	if ((kek = hosted_kek_open(ctx->set->hosted_key_file, 0, err,
	    sizeof(err))) == NULL) {
		r->outcome = MAIL_QUARANTINED;
		snprintf(r->reason, sizeof(r->reason), "hosted keys: %.400s", err);
		return 1;
	}
	engine_submit_hosted(ctx->st, ctx->key, kek, t.game_id, t.seq + 1,
	    t.seat, move, STORE_ENTRY_HOSTED_MAIL, plang[0] == 'f' ?
	    RULES_LANG_FR : RULES_LANG_EN, &er);
	hosted_kek_close(kek);
	r->game_id = t.game_id;
	r->seq = t.seq + 1;
	snprintf(r->code, sizeof(r->code), "%s", engine_status_code(er.status));
	switch (er.status) {
	case ENGINE_OK:
		r->outcome = MAIL_ACCEPTED;
		snprintf(r->reason, sizeof(r->reason), "%.200s (hosted key, by a "
		    "reply from %.200s)", er.message, p.email);
		/* Bound to its turn, the token can play nothing more; marked
		 * so that a second reply hears why. */
		if (store_reply_token_use(ctx->st, hash, (int64_t)time(NULL)) !=
		    STORE_OK)
			log_warnx("mail: <%s>: token not marked used: %s",
			    r->message_id, store_errmsg(ctx->st));
		break;
	case ENGINE_BUSY:
		r->outcome = MAIL_TEMPFAIL;
		snprintf(r->reason, sizeof(r->reason), "%.400s", er.message);
		break;
	case ENGINE_INTERNAL:
		r->outcome = MAIL_QUARANTINED;
		snprintf(r->reason, sizeof(r->reason), "internal error: %.400s",
		    er.message);
		break;
	case ENGINE_STALE_SEQ:
		refuse(r, a, "reply_stale", p.email, plang, t.game_id,
		    er.message);
		break;
	case ENGINE_REFUSED:
		if (!engine_player_hosted(ctx->st, &p)) {
			refuse(r, a, "reply_own_key", p.email, plang,
			    t.game_id, er.message);
			break;
		}
		/* FALLTHROUGH */
	default:
		/* The move itself was refused: the seat hears why, with its
		 * view and the legal forms; the token stays good. */
		r->outcome = MAIL_REJECTED;
		r->seq = 0;
		snprintf(r->reason, sizeof(r->reason), "%.400s", er.message);
		mail_answer_seat(a, p.email, "rejected", t.game_id, t.seq,
		    t.seat, r->message_id);
		json_object_set_new(a->payload, "move", json_string(move));
		json_object_set_new(a->payload, "reason",
		    json_string(er.message));
		json_object_set_new(a->payload, "code", json_string(r->code));
		break;
	}
	engine_reply_clear(&er);
	return 1;
}
