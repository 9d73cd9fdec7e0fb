/*
 * mail_ingest.c -- the one inbound path: size -> parse -> Message-ID ->
 * RFC 3834 -> the block or command -> engine -> reply through the outbox.
 *
 * Who gets what (docs/MAIL.md, "Replies"):
 *   - a verified signed block: the engine's own rows (receipt, your turn,
 *     updates) or a "rejected"/"status"/"help" row to the seat's
 *     registered address, rendered later from that seat's view;
 *   - anything not verified (no block, bad block, unknown game or seat,
 *     bad signature, HELP): a "mail_error"/"mail_help" row to the sender,
 *     which carries no view of any seat.
 * Every reply queued here counts against the recipient's rate limit,
 * verified and unverified senders apart; the Message-ID is recorded in
 * the same transaction as the reply.  While a message is processed, a
 * row of mail_attempt names its bytes: a row found at the start is a
 * message an earlier process died on, quarantined unread.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sodium.h>

#include "engine.h"
#include "log.h"
#include "mail.h"

const char *
mail_outcome_name(enum mail_outcome o)
{
	static const char *const names[] = {
		"accepted", "rejected", "command", "help", "duplicate",
		"ignored", "quarantined", "tempfail"
	};

	if ((unsigned)o < sizeof(names) / sizeof(names[0]))
		return names[o];
	return "unknown";
}

static void
set_reason(struct mail_result *r, enum mail_outcome o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
set_reason(struct mail_result *r, enum mail_outcome o, const char *fmt, ...)
{
	va_list ap;

	r->outcome = o;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
}


/* The language of a registered address (found through the store's
 * address index, not by reading every player), else "fr" if asked in
 * French, else "en". */
static void
sender_lang(struct store *st, const char *addr, int fr, char *lang,
    size_t size)
{
	struct store_player p;

	if (!fr && addr[0] != '\0' && store_player_find_email(st, addr, &p) ==
	    STORE_OK && p.lang[0] != '\0')
		snprintf(lang, size, "%s", p.lang);
	else
		snprintf(lang, size, "%s", fr ? "fr" : "en");
}

/*
 * The per-key rate limit (mail_settings.key_check): 0 if the key of the
 * seat the block names may act now (or is unknown, or no limit is set),
 * else -1 with r a MAIL_TEMPFAIL -- the message stays where it is and is
 * taken again later, so a move is delayed, never lost.
 */
static int
key_limited(struct mail_ingest_ctx *ctx, const struct proto_move *pm,
    const unsigned char key[32], struct mail_result *r)
{
	unsigned int retry;

	if (ctx->set->key_check == NULL ||
	    ctx->set->key_check(ctx->set->key_arg, key, &retry))
		return 0;
	r->game_id = pm->game_id;
	set_reason(r, MAIL_TEMPFAIL, "too many signed blocks with the key of "
	    "seat %d of game %lld (rate_per_key, shared with the HTTP API); "
	    "kept, taken again in %u s or later", pm->seat,
	    (long long)pm->game_id, retry);
	snprintf(r->code, sizeof(r->code), "rate_limited");
	return -1;
}

static void
key_charge(struct mail_ingest_ctx *ctx, const unsigned char key[32])
{
	if (ctx->set->key_charge != NULL)
		ctx->set->key_charge(ctx->set->key_arg, key);
}

/*
 * Record the Message-ID (and the move, for a played one), queue the
 * reply and end the message's attempt (mail_attempt, named by the
 * content hash), in one transaction: one commit fewer per message than
 * ending the attempt apart, and the attempt row goes exactly when the
 * message's outcome is stored.  The reply is dropped, not queued, when
 * the recipient is over the rate limit.  1 if the attempt was ended
 * here; else the caller ends it.
 */
static int
record(struct mail_ingest_ctx *ctx, struct mail_result *r,
    struct mail_answer *rep, const char *attempt)
{
	struct store *st = ctx->st;
	struct store_outbox o;
	enum store_status rc;
	int allowed = 1, ended = 0;
	char *text = NULL;

	if ((rc = store_begin(st)) != STORE_OK)
		goto fail;
	rc = store_mail_seen_add(st, r->message_id, r->outcome ==
	    MAIL_ACCEPTED ? r->game_id : 0, r->seq, mail_outcome_name(
	    r->outcome));
	if (rc == STORE_EXISTS) {
		store_rollback(st);
		set_reason(r, MAIL_DUPLICATE, "Message-ID <%s> was handled "
		    "meanwhile by another process", r->message_id);
		goto out;
	}
	if (rc != STORE_OK)
		goto fail;
	if (rep != NULL && rep->to[0] != '\0') {
		rc = store_mail_rate_take(st, rep->to, rep->verified,
		    (int64_t)time(NULL), ctx->set->rate_window,
		    ctx->set->rate_max, &allowed);
		if (rc != STORE_OK)
			goto fail;
		if (allowed) {
			if ((text = json_dumps(rep->payload, JSON_COMPACT |
			    JSON_SORT_KEYS)) == NULL) {
				rc = STORE_ERROR;
				goto fail;
			}
			memset(&o, 0, sizeof(o));
			o.game_id = rep->game_id;
			o.seq = rep->seq;
			snprintf(o.channel, sizeof(o.channel), "mail");
			snprintf(o.recipient, sizeof(o.recipient), "%s",
			    rep->to);
			snprintf(o.event, sizeof(o.event), "%s", rep->event);
			o.payload = text;
			o.next_attempt = (int64_t)time(NULL);
			if ((rc = store_outbox_add(st, &o)) != STORE_OK)
				goto fail;
			r->replied = 1;
		} else {
			size_t n = strlen(r->reason);
			snprintf(r->reason + n, sizeof(r->reason) - n,
			    "%sno reply: %s is over its limit of %d replies "
			    "in %d s", n > 0 ? "; " : "", rep->to,
			    ctx->set->rate_max, ctx->set->rate_window);
		}
	}
	if ((rc = store_mail_attempt_end(st, attempt)) != STORE_OK)
		goto fail;
	if ((rc = store_commit(st)) != STORE_OK)
		goto fail;
	ended = 1;
	goto out;
fail:
	store_rollback(st);
	if (r->outcome == MAIL_ACCEPTED) {
		/* The move is committed; the record only saves a second
		 * look, which the log's (game, seq) check then settles. */
		log_warnx("mail: <%s>: move played, but its Message-ID was not "
		    "recorded: %s", r->message_id, store_errmsg(st));
	} else
		set_reason(r, MAIL_TEMPFAIL, "store %s: %s; will try again",
		    rc == STORE_BUSY ? "busy" : "error", store_errmsg(st));
out:
	free(text);
	if (rep != NULL)
		json_decref(rep->payload);
	return ended;
}

/* A reply to the sender that holds no view: an error or the help. */
void
mail_answer_plain(struct mail_answer *rep, const char *to, const char *event,
    const char *lang, const char *in_reply_to, int64_t game_id)
{
	memset(rep, 0, sizeof(*rep));
	snprintf(rep->to, sizeof(rep->to), "%s", to);
	snprintf(rep->event, sizeof(rep->event), "%s", event);
	rep->game_id = game_id;
	rep->payload = json_pack("{s:s, s:s, s:s}", "event", event, "lang",
	    lang, "in_reply_to", in_reply_to);
	if (game_id > 0)
		json_object_set_new(rep->payload, "game",
		    json_integer(game_id));
}

/* A refusal of an unverified mail, to the sender: r's code and reason,
 * and no view. */
static void
error_reply(struct mail_answer *rep, const char *to, const char *lang,
    const struct mail_result *r, int64_t game_id)
{
	mail_answer_plain(rep, to, "mail_error", lang, r->message_id, game_id);
	json_object_set_new(rep->payload, "code", json_string(r->code));
	json_object_set_new(rep->payload, "reason", json_string(r->reason));
}

/* A reply to a verified seat, rendered later from its view. */
void
mail_answer_seat(struct mail_answer *rep, const char *to, const char *event,
    int64_t game_id, int64_t seq, int seat, const char *in_reply_to)
{
	memset(rep, 0, sizeof(*rep));
	snprintf(rep->to, sizeof(rep->to), "%s", to);
	snprintf(rep->event, sizeof(rep->event), "%s", event);
	rep->game_id = game_id;
	rep->seq = seq;
	rep->verified = 1;
	rep->payload = json_pack("{s:s, s:I, s:I, s:i, s:s}", "event", event,
	    "game", (json_int_t)game_id, "seq", (json_int_t)seq, "seat", seat,
	    "in_reply_to", in_reply_to);
}

/* "[pbem #12]" in a subject names game 12 (0 if none). */
static int64_t
subject_game(const char *subject)
{
	const char *p = strstr(subject, "[pbem #");
	long long id;

	if (p == NULL || sscanf(p + 7, "%lld", &id) != 1 || id <= 0)
		return 0;
	return id;
}

/* 0 if the game exists (or is 0), else 0 is returned as "no game". */
static int64_t
existing_game(struct store *st, int64_t id)
{
	struct store_game g;
	enum store_status rc;

	if (id <= 0)
		return 0;
	rc = store_game_get(st, id, &g);
	store_game_clear(&g);
	return rc == STORE_OK ? id : 0;
}

/* The seat's player of a game, for a block that names them. */
static int
seat_player(struct store *st, int64_t game_id, int seat,
    struct store_player *p)
{
	struct store_game g;
	int ok;

	if (store_game_get(st, game_id, &g) != STORE_OK) {
		store_game_clear(&g);
		return -1;
	}
	ok = seat >= 0 && seat < g.nseats &&
	    store_player_get(st, g.seat_player[seat], p) == STORE_OK;
	store_game_clear(&g);
	return ok ? 0 : -1;
}

/* The master of a game, for a block that is a master's command. */
static int
master_player(struct store *st, int64_t game_id, struct store_player *p)
{
	struct store_master gm;

	if (store_master_get(st, game_id, &gm) != STORE_OK ||
	    gm.player_id == 0)
		return -1;
	return store_player_get(st, gm.player_id, p) == STORE_OK ? 0 : -1;
}

/* A signed command (STATUS, HELP): the block must verify like a move,
 * and its Seq may be any number up to the next move's. */
static void
signed_command(struct mail_ingest_ctx *ctx, const struct proto_move *pm,
    enum mail_command cmd, const char *reply_to, const char *lang,
    struct mail_result *r, struct mail_answer *rep)
{
	struct store_player p;
	struct store_entry last;
	int64_t next;

	int fr = strcmp(lang, "fr") == 0;

	r->game_id = pm->game_id;
	if (seat_player(ctx->st, pm->game_id, pm->seat, &p) != 0) {
		set_reason(r, MAIL_REJECTED, fr ? "pas de siège %d dans la "
		    "partie %lld" : "no seat %d in game %lld",
		    pm->seat, (long long)pm->game_id);
		snprintf(r->code, sizeof(r->code), "%s",
		    existing_game(ctx->st, pm->game_id) ? "bad_seat" :
		    "unknown_game");
		goto to_sender;
	}
	if (key_limited(ctx, pm, p.pubkey, r) != 0)
		return;
	/* Verified or not, the seat's player reads the answer. */
	fr = strcmp(p.lang, "fr") == 0;
	if (proto_move_verify(pm, p.pubkey) != PROTO_OK) {
		set_reason(r, MAIL_REJECTED, fr ? "la signature de la commande "
		    "%s ne correspond pas à la clé du siège %d (%s)" :
		    "the signature of the %s command "
		    "does not match the key of seat %d (%s)", cmd ==
		    MAIL_CMD_STATUS ? "STATUS" : "HELP", pm->seat, p.name);
		snprintf(r->code, sizeof(r->code), "bad_signature");
		goto to_sender;
	}
	key_charge(ctx, p.pubkey);
	memset(&last, 0, sizeof(last));
	if (store_log_last(ctx->st, pm->game_id, &last) != STORE_OK) {
		store_entry_clear(&last);
		set_reason(r, MAIL_TEMPFAIL, "store: %s",
		    store_errmsg(ctx->st));
		return;
	}
	next = last.seq + 1;
	store_entry_clear(&last);
	if (pm->seq > next) {
		set_reason(r, MAIL_REJECTED, fr ? "le numéro de coup %lld est "
		    "dans le futur : le prochain coup de la partie %lld porte "
		    "le numéro %lld" : "sequence number %lld is in the "
		    "future: the next move of game %lld is number %lld",
		    (long long)pm->seq, (long long)pm->game_id,
		    (long long)next);
		snprintf(r->code, sizeof(r->code), "future_sequence");
		goto to_sender;
	}
	set_reason(r, MAIL_COMMAND, "%s for seat %d of game %lld",
	    cmd == MAIL_CMD_STATUS ? "STATUS" : "HELP", pm->seat,
	    (long long)pm->game_id);
	mail_answer_seat(rep, p.email, cmd == MAIL_CMD_STATUS ? "status" : "help",
	    pm->game_id, next - 1, pm->seat, r->message_id);
	return;
to_sender:
	error_reply(rep, reply_to, fr ? "fr" : "en", r,
	    existing_game(ctx->st, pm->game_id));
}

/* The block at text (its BEGIN line first): a signed command or a move. */
static void
signed_block(struct mail_ingest_ctx *ctx, const char *text, size_t len,
    const char *reply_to, const char *lang, struct mail_result *r,
    struct mail_answer *rep)
{
	struct engine_reply er;
	struct store_player p;
	struct store_entry e;
	struct proto_move pm;
	enum proto_status ps;
	enum mail_command cmd;
	char perr[512];
	int fr = 0, dup, is_command, keyed = 0, master;

	ps = proto_move_find(text, len, &pm, perr, sizeof(perr));
	if (ps != PROTO_OK) {
		engine_block_message(ps, perr, strcmp(lang, "fr") == 0 ?
		    RULES_LANG_FR : RULES_LANG_EN, er.message,
		    sizeof(er.message));
		set_reason(r, MAIL_REJECTED, "%s", er.message);
		snprintf(r->code, sizeof(r->code), "%s", ps ==
		    PROTO_BAD_SIGNATURE ? "bad_signature" : "malformed_block");
		error_reply(rep, reply_to, lang, r, 0);
		return;
	}
	if ((cmd = mail_command_word(pm.text, &fr)) != MAIL_CMD_NONE) {
		signed_command(ctx, &pm, cmd, reply_to, lang, r, rep);
		return;
	}

	/* A move.  Messages in the seat's language when the block names
	 * a seat we know; a game master's command in the master's. */
	memset(&p, 0, sizeof(p));
	master = engine_is_master_command(pm.text);
	if (master ? master_player(ctx->st, pm.game_id, &p) != 0 :
	    seat_player(ctx->st, pm.game_id, pm.seat, &p) != 0)
		snprintf(p.lang, sizeof(p.lang), "%s", lang);
	else if (key_limited(ctx, &pm, p.pubkey, r) != 0)
		return;
	else
		keyed = 1;
	/* engine_handle(): a move, or one of the engine's signed commands
	 * (resign, vacation, press, call off -- docs/ASYNC.md), whose Seq
	 * is the seat's command number, not a move number. */
	is_command = engine_is_command(pm.text);
	engine_handle(ctx->st, ctx->key, text, len, strcmp(p.lang, "fr") == 0 ?
	    RULES_LANG_FR : RULES_LANG_EN, (int64_t)time(NULL), &er);
	if (keyed && engine_signature_checked(er.status))
		key_charge(ctx, p.pubkey);
	r->game_id = pm.game_id;
	r->seq = is_command ? 0 : pm.seq;
	snprintf(r->code, sizeof(r->code), "%s", engine_status_code(er.status));
	switch (er.status) {
	case ENGINE_OK:
		if (is_command) {
			set_reason(r, MAIL_COMMAND, "%s", er.message);
			r->game_id = 0;
		} else
			set_reason(r, MAIL_ACCEPTED, "%s", er.message);
		break;
	case ENGINE_BUSY:
		set_reason(r, MAIL_TEMPFAIL, "%s", er.message);
		break;
	case ENGINE_INTERNAL:
		set_reason(r, MAIL_QUARANTINED, "internal error: %s",
		    er.message);
		break;
	case ENGINE_NO_BLOCK:
	case ENGINE_MALFORMED:
	case ENGINE_UNKNOWN_GAME:
	case ENGINE_BAD_SEAT:
	case ENGINE_BAD_SIGNATURE:
	case ENGINE_BAD_REQUEST:
		/* Not verified: the answer goes to the sender, no view, in
		 * the language the engine wrote it in. */
		set_reason(r, MAIL_REJECTED, "%s", er.message);
		error_reply(rep, reply_to, p.lang, r, existing_game(ctx->st,
		    pm.game_id));
		break;
	case ENGINE_STALE_SEQ:
		/* The very block already in the log: played once, by this
		 * mail's twin; no second application and no second answer. */
		memset(&e, 0, sizeof(e));
		dup = !is_command && store_log_get(ctx->st, pm.game_id, pm.seq, &e) ==
		    STORE_OK && e.seat == pm.seat && sodium_memcmp(
		    e.signature, pm.signature, STORE_SIG_BYTES) == 0;
		store_entry_clear(&e);
		if (dup) {
			set_reason(r, MAIL_DUPLICATE, "move %lld of game %lld "
			    "is this very block, already played",
			    (long long)pm.seq, (long long)pm.game_id);
			break;
		}
		/* FALLTHROUGH */
	default:
		set_reason(r, MAIL_REJECTED, "%s", er.message);
		/* The master need not hold a seat: no seat's view for them,
		 * the reason only, at the master's registered address. */
		if (master) {
			error_reply(rep, p.email[0] != '\0' ? p.email :
			    reply_to, p.lang, r, pm.game_id);
			break;
		}
		/* Verified, then refused: the seat hears why, with its view
		 * and the legal forms, at its registered address. */
		mail_answer_seat(rep, p.email, "rejected", pm.game_id,
		    er.next_seq > 0 ? er.next_seq - 1 : 0, pm.seat,
		    r->message_id);
		json_object_set_new(rep->payload, "move", json_string(pm.text));
		json_object_set_new(rep->payload, "reason",
		    json_string(er.message));
		json_object_set_new(rep->payload, "code", json_string(r->code));
		break;
	}
	engine_reply_clear(&er);
}

/* RFC 3834 and bounces: 1 if the message is automated. */
static int
automated(const struct mail_msg *m, const char *sender, int sender_known,
    struct mail_result *r)
{
	char token[64];
	const char *at;
	size_t n;

	if (sender_known && sender[0] == '\0') {
		set_reason(r, MAIL_QUARANTINED, "bounce: the envelope sender "
		    "is empty (<>); kept for the administrator, not answered");
		return 1;
	}
	if (m->is_report) {
		set_reason(r, MAIL_QUARANTINED, "bounce: a delivery report "
		    "(multipart/report); kept for the administrator, not "
		    "answered");
		return 1;
	}
	at = strchr(m->from, '@');
	if (at != NULL && (size_t)(at - m->from) == 13 &&
	    strncasecmp(m->from, "mailer-daemon", 13) == 0) {
		set_reason(r, MAIL_QUARANTINED, "bounce: from %s; kept for the "
		    "administrator, not answered", m->from);
		return 1;
	}
	snprintf(token, sizeof(token), "%s", m->auto_submitted);
	n = strcspn(token, "; ");
	token[n] = '\0';
	if (token[0] != '\0' && strcmp(token, "no") != 0) {
		set_reason(r, MAIL_IGNORED, "Auto-Submitted: %s (RFC 3834): "
		    "not acted on, not answered", m->auto_submitted);
		return 1;
	}
	if (strcmp(m->precedence, "bulk") == 0 ||
	    strcmp(m->precedence, "list") == 0 ||
	    strcmp(m->precedence, "junk") == 0) {
		set_reason(r, MAIL_IGNORED, "Precedence: %s: not acted on, "
		    "not answered", m->precedence);
		return 1;
	}
	return 0;
}

/* The part of mail_ingest() between its attempt's begin and end: 1 if
 * it ended the attempt itself (record()). */
static int
ingest_parsed(struct mail_ingest_ctx *ctx, const char *raw, size_t len,
    const char *content_hash, const char *envelope_sender,
    struct mail_result *r)
{
	char err[512], outcome[64], lang[8];
	const char *sender, *reply_to;
	struct mail_msg m;
	struct mail_answer rep, *reply = NULL;
	enum mail_command cmd;
	int sender_known, fr = 0, ended = 0;
	long off;

	memset(&rep, 0, sizeof(rep));
	/* Without a (clean) Message-ID the same bytes are the same
	 * message; so are they in the log of a message not parsed. */
	snprintf(r->message_id, sizeof(r->message_id),
	    "content.%s@pbem.invalid", content_hash);
	if (mail_parse(raw, len, &m, err, sizeof(err)) != 0) {
		set_reason(r, MAIL_QUARANTINED, "%s", err);
		return 0;
	}
	if (m.message_id[0] != '\0')
		snprintf(r->message_id, sizeof(r->message_id), "%s",
		    m.message_id);
	switch (store_mail_seen_get(ctx->st, r->message_id, outcome,
	    sizeof(outcome))) {
	case STORE_OK:
		set_reason(r, MAIL_DUPLICATE, "Message-ID <%s> was already "
		    "handled (%s)", r->message_id, outcome);
		goto done;
	case STORE_NOTFOUND:
		break;
	default:
		set_reason(r, MAIL_TEMPFAIL, "store: %s", store_errmsg(ctx->st));
		goto done;
	}

	sender_known = envelope_sender != NULL || m.has_return_path;
	sender = envelope_sender != NULL ? envelope_sender :
	    m.has_return_path ? m.return_path : m.from;
	if (automated(&m, sender, sender_known, r)) {
		ended = record(ctx, r, NULL, content_hash);
		goto done;
	}
	if (m.from[0] == '\0' && m.reply_to[0] == '\0') {
		/* Not a mail from a person (or not a mail at all). */
		set_reason(r, MAIL_QUARANTINED, "no From: address: not a mail "
		    "a player sent; kept, not answered");
		ended = record(ctx, r, NULL, content_hash);
		goto done;
	}
	reply_to = m.reply_to[0] != '\0' ? m.reply_to : m.from;

	off = mail_block_pick(m.text, m.textlen);
	if (off < 0)
		cmd = mail_command_find(m.subject, m.text, m.textlen, &fr);
	else
		cmd = MAIL_CMD_NONE;
	sender_lang(ctx->st, reply_to, fr, lang, sizeof(lang));
	if (off < 0 && ctx->set->hosted_key_file[0] != '\0' &&
	    mail_reply_play(ctx, &m, lang, r, &rep)) {
		/* A reply to a your-turn mail (mail_reply.c). */
	} else if (off < 0 && m.from[0] != '\0' &&
	    mail_account(ctx, &m, m.from, r, &rep)) {
		/* register, confirm, games, join, new (mail_account.c). */
	} else if (off < 0 && mail_delegation_found(m.text, m.textlen)) {
		/* A delegation certificate (mail_delegate.c). */
		mail_delegation(ctx, &m, reply_to, lang, r, &rep);
	} else if (off >= 0) {
		signed_block(ctx, m.text + off, m.textlen - (size_t)off,
		    reply_to, lang, r, &rep);
	} else if (cmd == MAIL_CMD_HELP) {
		set_reason(r, MAIL_COMMAND, "HELP");
		mail_answer_plain(&rep, reply_to, "mail_help", lang, r->message_id,
		    existing_game(ctx->st, subject_game(m.subject)));
	} else if (cmd == MAIL_CMD_STATUS) {
		set_reason(r, MAIL_REJECTED, strcmp(lang, "fr") == 0 ?
		    "un ETAT non signé : la vue d'un siège n'est envoyée que "
		    "pour un bloc ETAT signé" : "an unsigned STATUS: a seat's "
		    "view is only sent for a signed STATUS block");
		snprintf(r->code, sizeof(r->code), "unsigned_command");
		error_reply(&rep, reply_to, lang, r, existing_game(ctx->st,
		    subject_game(m.subject)));
	} else {
		set_reason(r, MAIL_HELP, "no signed block and no command");
		mail_answer_plain(&rep, reply_to, "mail_help", lang, r->message_id,
		    existing_game(ctx->st, subject_game(m.subject)));
		json_object_set_new(rep.payload, "no_command", json_true());
	}
	if (rep.payload != NULL)
		reply = &rep;
	if (r->outcome == MAIL_TEMPFAIL || r->outcome == MAIL_QUARANTINED ||
	    r->outcome == MAIL_DUPLICATE) {
		/* Nothing to record for a retry; a quarantined message is
		 * recorded so that a second copy is not quarantined again;
		 * a duplicate block is recorded under its own id. */
		if (r->outcome != MAIL_TEMPFAIL)
			ended = record(ctx, r, NULL, content_hash);
		json_decref(rep.payload);
		goto done;
	}
	ended = record(ctx, r, reply, content_hash);
done:
	mail_msg_clear(&m);
	return ended;
}

void
mail_ingest(struct mail_ingest_ctx *ctx, const char *raw, size_t len,
    const char *envelope_sender, struct mail_result *r)
{
	unsigned char hash[32];
	char content_hash[65];

	memset(r, 0, sizeof(*r));
	if (len > ctx->set->max_size) {
		set_reason(r, MAIL_QUARANTINED, "message too large: %zu bytes; "
		    "the limit (max_size) is %zu", len, ctx->set->max_size);
		return;
	}
	crypto_generichash(hash, sizeof(hash), (const void *)raw, len, NULL,
	    0);
	proto_hex(hash, sizeof(hash), content_hash);
	switch (store_mail_attempt_begin(ctx->st, content_hash,
	    (int64_t)getpid())) {
	case STORE_OK:
		break;
	case STORE_EXISTS:
		/* A process died on these bytes (killed when out of memory,
		 * a crash): they are not parsed again. */
		set_reason(r, MAIL_QUARANTINED, "processing of this message "
		    "was interrupted before (the process handling it died: a "
		    "crash, or killed when out of memory); kept unread, not "
		    "answered");
		snprintf(r->message_id, sizeof(r->message_id),
		    "content.%s@pbem.invalid", content_hash);
		goto end;
	default:
		set_reason(r, MAIL_TEMPFAIL, "store: %s; will try again",
		    store_errmsg(ctx->st));
		return;
	}
	if (ingest_parsed(ctx, raw, len, content_hash, envelope_sender, r))
		goto clean;
end:
	if (store_mail_attempt_end(ctx->st, content_hash) != STORE_OK)
		log_warnx("mail: <%s>: the end of its processing was not "
		    "noted (%s): the same bytes will be quarantined if they "
		    "come again", r->message_id, store_errmsg(ctx->st));
clean:
	/* The reason goes to the log and into a header: one clean line. */
	mail_clean_text(r->reason);
}
