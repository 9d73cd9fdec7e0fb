/*
 * check_mail_hosted.c -- playing by plain replies, through the Maildir
 * spool (docs/PLAYING.md, docs/MAIL.md "Replies to play"), linked into
 * check_mail: hosted players play whole games only by replying, in every
 * shape real clients produce; each refusal plays nothing and is answered
 * in the player's language; sign-up needs a confirmed address, and an
 * unconfirmed address gets no game mail; games, join and new by mail;
 * audit and bundle verification name the hosted moves.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>
#include <gmime/gmime.h>
#include <sodium.h>

#include "audit.h"
#include "bundle.h"
#include "engine.h"
#include "mail.h"
#include "templates.h"
#include "testlib.h"

TCase	*mail_hosted_tcase(void);

static struct testenv env;
static struct mail_settings set;
static struct mail_ingest_ctx ctx;
static struct tpl_set *tpl;
static struct store_player hana, hugo;	/* hosted: English, French */
static int nmsg;

static void
hosted_player(const char *name, const char *lang, struct store_player *p)
{
	struct hosted_kek *kek;
	char err[512];

	kek = hosted_kek_open(set.hosted_key_file, 1, err, sizeof(err));
	ck_assert_msg(kek != NULL, "%s", err);
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->email, sizeof(p->email), "%s@example.net", name);
	snprintf(p->lang, sizeof(p->lang), "%s", lang);
	ck_assert_int_eq(store_begin(env.st), STORE_OK);
	ck_assert_int_eq(engine_hosted_player_add(env.st, kek, p, err,
	    sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(store_commit(env.st), STORE_OK);
	hosted_kek_close(kek);
}

static void
setup(void)
{
	const char *top = getenv("top_srcdir");
	char err[256], path[600];

	mail_init();
	testenv_open(&env, 1);
	mail_settings_default(&set);
	snprintf(path, sizeof(path), "%s/quarantine", env.dir);
	ck_assert_int_eq(mail_settings_set(&set, "quarantine", path, err,
	    sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/out", env.dir);
	ck_assert_int_eq(mail_settings_set(&set, "maildir_out", path, err,
	    sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/in", env.dir);
	ck_assert_int_eq(mail_settings_set(&set, "maildir_in", path, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(maildir_make(set.maildir_in, err, sizeof(err)), 0);
	snprintf(set.hosted_key_file, sizeof(set.hosted_key_file), "%s.kek",
	    env.dbpath);
	ctx.st = env.st;
	ctx.key = env.key;
	ctx.set = &set;
	snprintf(path, sizeof(path), "%s/templates", top != NULL ? top : ".");
	tpl = templates_load(path, err, sizeof(err));
	ck_assert_msg(tpl != NULL, "%s", err);
	hosted_player("hana", "en", &hana);
	hosted_player("hugo", "fr", &hugo);
	nmsg = 0;
}

static void
teardown(void)
{
	templates_free(tpl);
	testenv_close(&env);
}

/* ---- Mail in and out ----------------------------------------------------- */

/* Drop a message in the spool and let the watcher's scan take it. */
static void
spool(const char *raw)
{
	char err[256], name[32];

	snprintf(name, sizeof(name), "m%d", ++nmsg);
	ck_assert_int_eq(maildir_put(set.maildir_in, name, NULL, raw,
	    strlen(raw), err, sizeof(err)), 0);
	ck_assert_int_eq(maildir_scan(&ctx, set.maildir_in), 1);
}

static void
send_all(void)
{
	int64_t pending;

	mail_sender_run_once(env.st, tpl, &set, 1000);
	ck_assert_int_eq(store_outbox_pending(env.st, &pending), STORE_OK);
	ck_assert_int_eq(pending, 0);
}

/* The newest mail of the outbox Maildir to `to' holding `needle' (by row
 * id in the file name); malloc'd, or NULL. */
static char *
newest(const char *to, const char *needle)
{
	char path[1200], hdr[400], *best = NULL, *data;
	long long id, best_id = -1;
	struct dirent *de;
	DIR *d;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/new", set.maildir_out);
	ck_assert_ptr_nonnull(d = opendir(path));
	snprintf(hdr, sizeof(hdr), "To: %s", to);
	while ((de = readdir(d)) != NULL) {
		if (sscanf(de->d_name, "pbem-out-%lld", &id) != 1 ||
		    id < best_id)
			continue;
		snprintf(path, sizeof(path), "%s/new/%s", set.maildir_out,
		    de->d_name);
		ck_assert_ptr_nonnull(f = fopen(path, "r"));
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		data = calloc(1, (size_t)n + 1);
		ck_assert_int_eq(fread(data, 1, (size_t)n, f), (size_t)n);
		fclose(f);
		if (strstr(data, hdr) != NULL && (needle == NULL ||
		    strstr(data, needle) != NULL)) {
			free(best);
			best = data;
			best_id = id;
		} else
			free(data);
	}
	closedir(d);
	return best;
}

/* A header's value (up to the line end) of a composed mail. */
static void
header(const char *mail, const char *name, char *out, size_t size)
{
	char key[64];
	const char *p;
	size_t n;

	snprintf(key, sizeof(key), "\n%s: ", name);
	p = strstr(mail, key);
	ck_assert_msg(p != NULL, "no %s header", name);
	p += strlen(key);
	n = strcspn(p, "\r\n");
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* The decoded text of our own mail: its text/plain part, the first of a
 * multipart/alternative one (your-turn mails have an HTML picture). */
static char *
body_of(const char *mail)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	GMimeObject *part;
	char *text, *out;

	stream = g_mime_stream_mem_new_with_buffer(mail, strlen(mail));
	parser = g_mime_parser_new_with_stream(stream);
	g_object_unref(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	ck_assert_ptr_nonnull(msg);
	part = g_mime_message_get_mime_part(msg);
	if (GMIME_IS_MULTIPART(part))
		part = g_mime_multipart_get_part(GMIME_MULTIPART(part), 0);
	ck_assert(GMIME_IS_TEXT_PART(part));
	ck_assert(g_mime_content_type_is_type(g_mime_object_get_content_type(
	    part), "text", "plain"));
	text = g_mime_text_part_get_text(GMIME_TEXT_PART(part));
	out = strdup(text);
	g_free(text);
	g_object_unref(msg);
	return out;
}

static int64_t
log_head(int64_t game)
{
	unsigned char h[32];
	int64_t seq = -1;

	ck_assert_int_eq(store_log_head(env.st, game, &seq, h), STORE_OK);
	return seq;
}

/* The first legal move of seat in the player's language. */
static void
legal_move(int64_t game, int seat, const char *lang, char *out, size_t size)
{
	struct gamestate gs;
	json_t *legal;
	char err[256];
	int card;

	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	legal = gs.module->legal_moves(gs.state, seat);
	ck_assert_int_gt(json_array_size(legal), 0);
	ck_assert_int_eq(sscanf(json_string_value(json_array_get(legal, 0)),
	    "play %d", &card), 1);
	snprintf(out, size, strcmp(lang, "fr") == 0 ? "jouer %d" : "play %d",
	    card);
	json_decref(legal);
	gamestate_clear(&gs);
}

/* ---- Replies in the shapes real clients produce -------------------------- */

enum shape {
	TOP_POST, BOTTOM_POST, HTML_ONLY, QP_FRENCH, BASE64, FLOWED,
	NO_QUOTE, OUTLOOK, NSHAPES
};

/* Each line of text prefixed with "> ". */
static void
quote(const char *text, char *out, size_t size)
{
	size_t n = 0;

	n += (size_t)snprintf(out + n, size - n, "> ");
	for (; *text != '\0' && n + 4 < size; text++) {
		out[n++] = *text;
		if (*text == '\n' && text[1] != '\0') {
			out[n++] = '>';
			out[n++] = ' ';
		}
	}
	out[n] = '\0';
}

static void
b64(const char *in, char *out, size_t size)
{
	sodium_bin2base64(out, size, (const unsigned char *)in, strlen(in),
	    sodium_base64_VARIANT_ORIGINAL);
}

/* A reply from `from' to the mail `turn' playing `move' in shape. */
static char *
reply(const char *turn, const char *from, const char *move, enum shape sh,
    const char *extra_headers)
{
	static char raw[65536];
	char mid[400], subj[600], *body, q[30000], enc[60000], tmp[32000];
	static int n;

	header(turn, "Message-Id", mid, sizeof(mid));
	header(turn, "Subject", subj, sizeof(subj));
	body = body_of(turn);
	quote(body, q, sizeof(q));
	n++;
	snprintf(raw, sizeof(raw), "From: Player <%s>\nTo: pbem@localhost\n"
	    "Subject: Re: %s\nMessage-ID: <reply%d.%ld@client.example>\n"
	    "In-Reply-To: %s\nReferences: %s\n%sMIME-Version: 1.0\n", from,
	    subj, n, (long)time(NULL), mid, mid, extra_headers != NULL ?
	    extra_headers : "");
	switch (sh) {
	case TOP_POST:
		snprintf(raw + strlen(raw), sizeof(raw) - strlen(raw),
		    "Content-Type: text/plain; charset=utf-8\n\n%s\n\n"
		    "Sent from my iPhone\n\nOn 1 Jan 2026, at 10:00, pbem "
		    "<pbem@localhost> wrote:\n\n%s\n", move, q);
		break;
	case BOTTOM_POST:
		snprintf(raw + strlen(raw), sizeof(raw) - strlen(raw),
		    "Content-Type: text/plain; charset=utf-8\n\nOn Mon, 1 Jan "
		    "2026 at 10:00, pbem <pbem@localhost>\nwrote:\n%s\n\n%s\n"
		    "\n-- \nA. Player\nplay 99\n", q, move);
		break;
	case HTML_ONLY:
		snprintf(raw + strlen(raw), sizeof(raw) - strlen(raw),
		    "Content-Type: text/html; charset=utf-8\n\n<html><body>"
		    "<div dir=\"ltr\">%s</div><br><div class=\"gmail_quote\">"
		    "<div dir=\"ltr\" class=\"gmail_attr\">On Mon, 1 Jan 2026 "
		    "pbem &lt;pbem@localhost&gt; wrote:<br></div><blockquote "
		    "class=\"gmail_quote\"><pre>%s</pre></blockquote></div>"
		    "</body></html>\n", move, body);
		break;
	case QP_FRENCH:
		snprintf(tmp, sizeof(tmp), "%s\n\nEnvoyé de mon iPhone\n\nLe 1 "
		    "janv. 2026 à 10:00, pbem <pbem@localhost> a écrit :\n%s\n",
		    move, q);
		{
			char *o = enc;
			const unsigned char *s = (const unsigned char *)tmp;
			int col = 0;

			for (; *s != '\0'; s++) {
				if (col > 70 && *s != '\n') {
					o += sprintf(o, "=\n");
					col = 0;
				}
				if (*s == '\n') {
					*o++ = '\n';
					col = 0;
				} else if (*s >= 0x80 || *s == '=') {
					o += sprintf(o, "=%02X", *s);
					col += 3;
				} else {
					*o++ = (char)*s;
					col++;
				}
			}
			*o = '\0';
		}
		snprintf(raw + strlen(raw), sizeof(raw) - strlen(raw),
		    "Content-Type: text/plain; charset=utf-8\n"
		    "Content-Transfer-Encoding: quoted-printable\n\n%s", enc);
		break;
	case BASE64:
		snprintf(tmp, sizeof(tmp), "%s\r\n\r\n%s\r\n", move, q);
		b64(tmp, enc, sizeof(enc));
		snprintf(raw + strlen(raw), sizeof(raw) - strlen(raw),
		    "Content-Type: text/plain; charset=utf-8\n"
		    "Content-Transfer-Encoding: base64\n\n%s\n", enc);
		break;
	case FLOWED: {
		/* The move broken after its first word, RFC 3676 style. */
		const char *sp = strchr(move, ' ');

		snprintf(raw + strlen(raw), sizeof(raw) - strlen(raw),
		    "Content-Type: text/plain; charset=utf-8; format=flowed\n"
		    "\n%.*s \n%s\n\n%s\n", (int)(sp - move + 0), move, sp + 1,
		    q);
		break;
	}
	case NO_QUOTE:
		snprintf(raw + strlen(raw), sizeof(raw) - strlen(raw),
		    "Content-Type: text/plain; charset=utf-8\n\n  %s  \n", move);
		break;
	case OUTLOOK:
		snprintf(raw + strlen(raw), sizeof(raw) - strlen(raw),
		    "Content-Type: text/plain; charset=utf-8\n\n%s\n\nGet "
		    "Outlook for Android\n________________________________\n"
		    "From: pbem <pbem@localhost>\nSent: Monday\nSubject: %s\n\n"
		    "%s\n", move, subj, body);
		break;
	case NSHAPES:
		break;
	}
	free(body);
	return raw;
}

/* The newest your-turn mail of p (it must exist). */
static char *
turn_mail(const struct store_player *p)
{
	char *m = newest(p->email, "pbem-reply-");

	ck_assert_msg(m != NULL, "no your-turn mail with a reply token to %s",
	    p->email);
	return m;
}

/* ---- Tests --------------------------------------------------------------- */

/* Two hosted players play a whole game of Ladder only by replying, each
 * move in another client's shape; then audit and bundle name every move
 * as hosted. */
START_TEST(test_whole_game_by_replies)
{
	const struct store_player *seat[2] = { &hana, &hugo };
	int64_t players[2] = { hana.id, hugo.id }, game, next, before;
	char err[256], move[64], *turn, *b;
	struct audit_report rep;
	struct audit_log log;
	struct store_game row;
	int s, k = 0;
	json_t *bundle;

	ck_assert_int_eq(engine_create_game(env.st, env.key, "template", NULL,
	    players, 2, &game, err, sizeof(err)), ENGINE_OK);
	send_all();
	while ((s = testenv_to_act(&env, game, &next)) >= 0) {
		turn = turn_mail(seat[s]);
		/* The body carries the token line and the sign-in link. */
		b = body_of(turn);
		ck_assert_ptr_nonnull(strstr(b, "pbem-reply-"));
		ck_assert_ptr_nonnull(strstr(b, "http://127.0.0.1:8080/play/"));
		/* Its examples are moves to write, not lines to sign. */
		ck_assert_msg(strstr(b, "pbem sign") == NULL, "a hosted "
		    "player's your-turn mail shows pbem sign:\n%s", b);
		ck_assert_ptr_nonnull(strstr(b, seat[s]->lang[0] == 'f' ?
		    "Par exemple" : "For example"));
		free(b);
		legal_move(game, s, seat[s]->lang, move, sizeof(move));
		before = log_head(game);
		spool(reply(turn, seat[s]->email, move, (enum shape)(k %
		    NSHAPES), NULL));
		ck_assert_msg(log_head(game) == before + 1, "shape %d: move "
		    "\"%s\" not played", k % NSHAPES, move);
		free(turn);
		send_all();
		k++;
	}
	ck_assert_int_ge(k, 6);
	ck_assert_int_eq(audit_load_store(env.st, game, &log, &row, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(audit_run(&log, &rep, NULL, NULL), 0);
	ck_assert_uint_eq(rep.nhosted, (size_t)k);
	ck_assert_ptr_nonnull(strstr(rep.hosted, "(seat 0, mail)"));
	ck_assert_ptr_nonnull(strstr(rep.hosted, "(seat 1, mail)"));
	audit_log_clear(&log);
	store_game_clear(&row);
	bundle = bundle_export(env.st, game, err, sizeof(err));
	ck_assert_ptr_nonnull(bundle);
	ck_assert_int_eq(bundle_read(bundle, &log, err, sizeof(err)), 0);
	ck_assert_int_eq(audit_run(&log, &rep, NULL, NULL), 0);
	ck_assert_int_eq(rep.replayed, 1);
	ck_assert_uint_eq(rep.nhosted, (size_t)k);
	audit_log_clear(&log);
	json_decref(bundle);
}
END_TEST

/* An own-key player (signed blocks) against a hosted one (replies): the
 * audit and the bundle check both kinds and name only the hosted moves. */
START_TEST(test_mixed_game_audit)
{
	int64_t players[2] = { env.player_id[0], hana.id }, game, next;
	char err[256], move[64], block[PROTO_ARMOUR_MAX], raw[4096], *turn;
	struct audit_report rep;
	struct audit_log log;
	struct store_game row;
	json_t *bundle, *e;
	size_t i, hosted = 0, own = 0;
	int s;

	ck_assert_int_eq(engine_create_game(env.st, env.key, "template", NULL,
	    players, 2, &game, err, sizeof(err)), ENGINE_OK);
	send_all();
	while ((s = testenv_to_act(&env, game, &next)) >= 0) {
		legal_move(game, s, "en", move, sizeof(move));
		if (s == 0) {
			/* The own-key player's mail has the link, no token. */
			turn = newest("p0@example.org", "/play/");
			ck_assert_ptr_nonnull(turn);
			ck_assert_ptr_null(strstr(turn, "pbem-reply-"));
			/* It signs its moves: its examples are sign lines. */
			ck_assert_ptr_nonnull(strstr(turn, "pbem sign -g"));
			free(turn);
			testenv_block(&env, 0, game, next, 0, move, block,
			    sizeof(block));
			snprintf(raw, sizeof(raw), "From: p0@example.org\n"
			    "Message-ID: <own%lld@x>\n\n%s", (long long)next,
			    block);
			spool(raw);
			own++;
		} else {
			turn = turn_mail(&hana);
			spool(reply(turn, hana.email, move, TOP_POST, NULL));
			free(turn);
			hosted++;
		}
		ck_assert_int_eq(log_head(game), next);
		send_all();
	}
	ck_assert_int_eq(audit_load_store(env.st, game, &log, &row, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(audit_run(&log, &rep, NULL, NULL), 0);
	ck_assert_uint_eq(rep.nhosted, hosted);
	ck_assert_ptr_nonnull(strstr(rep.hosted, "(seat 1, mail)"));
	ck_assert_ptr_null(strstr(rep.hosted, "(seat 0"));
	audit_log_clear(&log);
	store_game_clear(&row);
	bundle = bundle_export(env.st, game, err, sizeof(err));
	json_array_foreach(json_object_get(bundle, "entries"), i, e)
		if (json_object_get(e, "hosted") != NULL) {
			ck_assert_str_eq(json_string_value(json_object_get(e,
			    "hosted")), "mail reply token");
			ck_assert_int_eq(json_integer_value(json_object_get(e,
			    "seat")), 1);
		}
	ck_assert_int_eq(bundle_read(bundle, &log, err, sizeof(err)), 0);
	ck_assert_int_eq(audit_run(&log, &rep, NULL, NULL), 0);
	ck_assert_uint_eq(rep.nhosted, hosted);
	ck_assert_uint_gt(own, 0);
	audit_log_clear(&log);
	json_decref(bundle);
}
END_TEST

/* The newest reply_error mail to `to' says phrase. */
static void
refused(const char *to, const char *phrase)
{
	char *m, *b;

	send_all();
	m = newest(to, NULL);
	ck_assert_msg(m != NULL, "no mail to %s", to);
	b = body_of(m);
	ck_assert_msg(strstr(b, phrase) != NULL, "mail to %s does not say "
	    "\"%s\":\n%s", to, phrase, b);
	free(b);
	free(m);
}

/* Every way a reply must not play: nothing played, and an answer in the
 * right language saying why.  A is the player to act first, B the other
 * (one English, one French: whoever the game's setup lets begin). */
#define SAYS(p, en, fr)	(strcmp((p)->lang, "fr") == 0 ? (fr) : (en))
START_TEST(test_refusals)
{
	int64_t players[2] = { hana.id, hugo.id }, game, next, before;
	char err[256], move[64], *turn, *b_turn, fwd[70000];
	const struct store_player *A, *B;
	struct engine_reply er;
	struct hosted_kek *kek;
	struct mail_result r;
	int sa;

	ck_assert_int_eq(engine_create_game(env.st, env.key, "template", NULL,
	    players, 2, &game, err, sizeof(err)), ENGINE_OK);
	send_all();
	sa = testenv_to_act(&env, game, &next);
	A = sa == 0 ? &hana : &hugo;
	B = sa == 0 ? &hugo : &hana;
	turn = turn_mail(A);
	legal_move(game, sa, A->lang, move, sizeof(move));
	before = log_head(game);

	/* Another address with A's valid token: told in English (the
	 * address is no player's). */
	spool(reply(turn, "mallory@example.com", move, TOP_POST, NULL));
	ck_assert_int_eq(log_head(game), before);
	refused("mallory@example.com", "did not come from the address");

	/* B (the other seat) answering the turn mail of A's seat. */
	spool(reply(turn, B->email, move, TOP_POST, NULL));
	ck_assert_int_eq(log_head(game), before);
	refused(B->email, SAYS(B, "another seat", "un autre siège"));

	/* A forwarded turn mail: the token only in the body. */
	{
		char *b = body_of(turn);

		snprintf(fwd, sizeof(fwd), "From: %s\nSubject: Fwd: your "
		    "turn\nMessage-ID: <fwd1@client>\n\n%s\n\n---------- "
		    "Forwarded message ---------\nFrom: pbem\n\n%s\n",
		    A->email, move, b);
		free(b);
	}
	spool(fwd);
	ck_assert_int_eq(log_head(game), before);
	refused(A->email, SAYS(A, "A forwarded mail cannot play",
	    "Un courriel transféré ne peut pas"));

	/* An auto-reply quoting the turn mail: ignored, not answered. */
	{
		char *raw = reply(turn, A->email, move, TOP_POST,
		    "Auto-Submitted: auto-replied\n");
		mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
		ck_assert_int_eq(r.outcome, MAIL_IGNORED);
		ck_assert_int_eq(r.replied, 0);
	}
	ck_assert_int_eq(log_head(game), before);

	/* No move in the reply: told so; the token stays good. */
	spool(reply(turn, A->email, "> only a quote", NO_QUOTE, NULL));
	ck_assert_int_eq(log_head(game), before);
	refused(A->email, SAYS(A, "No move was found", "Aucun coup"));

	/* An illegal move: the seat's own "refused" mail; token still good. */
	spool(reply(turn, A->email, SAYS(A, "play 99", "jouer 99"), TOP_POST,
	    NULL));
	ck_assert_int_eq(log_head(game), before);

	/* Played once; the same token again is refused. */
	spool(reply(turn, A->email, move, BOTTOM_POST, NULL));
	ck_assert_int_eq(log_head(game), before + 1);
	send_all();
	spool(reply(turn, A->email, move, TOP_POST, NULL));
	ck_assert_int_eq(log_head(game), before + 1);
	refused(A->email, SAYS(A, "already answered", "déjà reçu"));

	/* B's token of an earlier turn: B's move is played another way (a
	 * web session), and B's old mail's token is unused but stale. */
	b_turn = turn_mail(B);
	legal_move(game, 1 - sa, B->lang, move, sizeof(move));
	kek = hosted_kek_open(set.hosted_key_file, 0, err, sizeof(err));
	ck_assert_ptr_nonnull(kek);
	engine_submit_hosted(env.st, env.key, kek, game, before + 2, 1 - sa,
	    move, STORE_ENTRY_HOSTED_WEB, RULES_LANG_EN, &er);
	ck_assert_msg(er.status == ENGINE_OK, "%s", er.message);
	engine_reply_clear(&er);
	hosted_kek_close(kek);
	send_all();
	spool(reply(b_turn, B->email, move, TOP_POST, NULL));
	ck_assert_int_eq(log_head(game), before + 2);
	refused(B->email, SAYS(B, "earlier turn", "tour passé"));

	/* A token this server never gave. */
	{
		char raw[512];

		snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <u1@c>\n"
		    "In-Reply-To: <pbem.1.1.o1.pbem-reply-%s@localhost>\n\n"
		    "%s\n", A->email, "0123456789abcdef0123456789abcdef",
		    move);
		spool(raw);
	}
	ck_assert_int_eq(log_head(game), before + 2);
	refused(A->email, SAYS(A, "not one this server gave",
	    "n'a pas été donné"));
	free(b_turn);
	free(turn);
}
END_TEST

/* A player who moved to a key of their own: the server cannot sign for
 * them any more, and their old turn mail's token plays nothing. */
START_TEST(test_own_key_after_hosted)
{
	int64_t players[2] = { hana.id, hugo.id }, game, next;
	unsigned char pk[32], sk[64], a[32], b[24], c[80];
	char err[256], move[64], *turn;

	ck_assert_int_eq(engine_create_game(env.st, env.key, "template", NULL,
	    players, 2, &game, err, sizeof(err)), ENGINE_OK);
	send_all();
	if (testenv_to_act(&env, game, &next) != 0) {
		/* Let hugo play first, so that hana's turn comes. */
		turn = turn_mail(&hugo);
		legal_move(game, 1, "fr", move, sizeof(move));
		spool(reply(turn, hugo.email, move, TOP_POST, NULL));
		free(turn);
		send_all();
	}
	ck_assert_int_eq(testenv_to_act(&env, game, &next), 0);
	turn = turn_mail(&hana);
	crypto_sign_keypair(pk, sk);
	ck_assert_int_eq(store_player_set_key(env.st, hana.id, pk), STORE_OK);
	ck_assert_int_eq(store_hosted_key_delete(env.st, hana.id), STORE_OK);
	ck_assert_int_eq(store_hosted_key_get(env.st, hana.id, a, b, c),
	    STORE_NOTFOUND);
	legal_move(game, 0, "en", move, sizeof(move));
	spool(reply(turn, hana.email, move, TOP_POST, NULL));
	ck_assert_int_eq(log_head(game), next - 1);
	refused(hana.email, "key of your own");
	free(turn);
}
END_TEST

/* The code of the newest sign-up mail to addr. */
static void
signup_code(const char *addr, char *code)
{
	char *m = newest(addr, "/confirm/"), *b, *p;

	ck_assert_ptr_nonnull(m);
	b = body_of(m);
	ck_assert_ptr_nonnull(p = strstr(b, "/confirm/"));
	memcpy(code, p + 9, ENGINE_CODE_LEN);
	code[ENGINE_CODE_LEN] = '\0';
	free(b);
	free(m);
}

static void
command(const char *from, const char *text)
{
	char raw[4096];

	ck_assert_int_lt(strlen(from) + strlen(text), 3800);
	snprintf(raw, sizeof(raw), "From: %s\nSubject: pbem\nMessage-ID: "
	    "<cmd%d.%ld@client>\nContent-Type: text/plain; charset=utf-8\n\n"
	    "%s\n\n-- \nsent by a person\n", from, nmsg, (long)time(NULL),
	    text);
	spool(raw);
	send_all();
}

/* A two-seat Ladder made by mail in French from address; its number,
 * read from the answer. */
static int64_t
new_by_mail_fr(const char *address)
{
	long long game = 0;
	char *m, *b;

	command(address, "nouvelle template 2 joueurs");
	m = newest(address, "rejoindre");
	ck_assert_ptr_nonnull(m);
	b = body_of(m);
	ck_assert_int_eq(sscanf(strstr(b, "La partie ") + 10, "%lld", &game),
	    1);
	free(b);
	free(m);
	return (int64_t)game;
}

/* Sign up by mail (French, then English), confirm by reply, list, make
 * and join a game by mail, and play it by replies. */
/* Sign up by mail from `from` (address addr) with the command text,
 * confirm with the code mailed back, and read the new player into p. */
static void
sign_up(const char *from, const char *addr, const char *text,
    struct store_player *p)
{
	char code[ENGINE_CODE_LEN + 1], line[64];

	command(from, text);
	signup_code(addr, code);
	snprintf(line, sizeof(line), "confirm %s", code);
	command(addr, line);
	ck_assert_int_eq(store_player_by_email(env.st, addr, p), STORE_OK);
}

START_TEST(test_signup_join_new)
{
	struct store_player zoe, bob, carl;
	char code[ENGINE_CODE_LEN + 1], line[64], move[64], *turn, *m, *b;
	int64_t game = 0, next;
	int s;

	command("Zoé Martin <zoe@example.net>", "inscription");
	ck_assert_int_eq(store_player_by_email(env.st, "zoe@example.net",
	    &zoe), STORE_NOTFOUND);
	signup_code("zoe@example.net", code);
	m = newest("zoe@example.net", "/confirm/");
	b = body_of(m);
	ck_assert_ptr_nonnull(strstr(b, "confirmer "));
	free(b);
	free(m);
	/* The code read by someone else confirms nothing. */
	snprintf(line, sizeof(line), "confirm %s", code);
	command("eve@example.com", line);
	ck_assert_int_eq(store_player_by_email(env.st, "zoe@example.net",
	    &zoe), STORE_NOTFOUND);
	snprintf(line, sizeof(line), "confirmer %s", code);
	command("zoe@example.net", line);
	ck_assert_int_eq(store_player_by_email(env.st, "zoe@example.net",
	    &zoe), STORE_OK);
	ck_assert_int_eq(zoe.email_pending, 0);
	ck_assert_str_eq(zoe.lang, "fr");
	ck_assert_int_eq(engine_player_hosted(env.st, &zoe), 1);
	/* A second confirmation is told it was done. */
	command("zoe@example.net", line);

	sign_up("Bob <bob@example.net>", "bob@example.net",
	    "register bobby en", &bob);
	ck_assert_str_eq(bob.name, "bobby");
	/* A name taken regardless of case ("Carl", registered by the
	 * administrator or over HTTP): the next free one. */
	memset(&carl, 0, sizeof(carl));
	snprintf(carl.name, sizeof(carl.name), "Carl");
	crypto_sign_keypair(carl.pubkey, (unsigned char[64]){ 0 });
	ck_assert_int_eq(store_player_add(env.st, &carl), STORE_OK);
	sign_up("Carl <carl@example.net>", "carl@example.net",
	    "register carl en", &carl);
	ck_assert_str_eq(carl.name, "carl-2");

	/* Not a player yet: told to register first. */
	command("nobody@example.com", "join 1");
	refused("nobody@example.com", "register");

	game = new_by_mail_fr("zoe@example.net");
	command("bob@example.net", "games");
	m = newest("bob@example.net", "waiting for players");
	ck_assert_ptr_nonnull(m);
	b = body_of(m);
	snprintf(line, sizeof(line), "game %lld:", (long long)game);
	ck_assert_ptr_nonnull(strstr(b, line));
	free(b);
	free(m);
	snprintf(line, sizeof(line), "join %lld", (long long)game);
	command("bob@example.net", line);
	ck_assert_int_ge(testenv_to_act(&env, game, &next), 0);
	while ((s = testenv_to_act(&env, game, &next)) >= 0) {
		const struct store_player *p = s == 0 ? &zoe : &bob;

		turn = turn_mail(p);
		legal_move(game, s, p->lang, move, sizeof(move));
		spool(reply(turn, p->email, move, (enum shape)(next % NSHAPES),
		    NULL));
		ck_assert_int_eq(log_head(game), next);
		free(turn);
		send_all();
	}
	ck_assert_int_gt(next, 5);
}
END_TEST

/* An address not confirmed gets no game mail: the rows are held and
 * recorded; once confirmed, the next mails go. */
START_TEST(test_unconfirmed_gets_no_game_mail)
{
	struct store_player pat;
	struct hosted_kek *kek;
	int64_t players[2], game;
	char err[256], code[ENGINE_CODE_LEN + 1], line[64], *m;

	memset(&pat, 0, sizeof(pat));
	snprintf(pat.name, sizeof(pat.name), "pat");
	snprintf(pat.email, sizeof(pat.email), "pat@example.net");
	crypto_sign_keypair(pat.pubkey, (unsigned char[64]){ 0 });
	pat.email_pending = 1;
	ck_assert_int_eq(store_player_add(env.st, &pat), STORE_OK);
	kek = hosted_kek_open(set.hosted_key_file, 0, err, sizeof(err));
	ck_assert_int_eq(store_begin(env.st), STORE_OK);
	ck_assert_int_eq(engine_signup_start(env.st, kek, pat.email, "pat",
	    "en", pat.id, (int64_t)time(NULL), err, sizeof(err)), ENGINE_OK);
	ck_assert_int_eq(store_commit(env.st), STORE_OK);
	hosted_kek_close(kek);
	players[0] = pat.id;
	players[1] = hana.id;
	ck_assert_int_eq(engine_create_game(env.st, env.key, "template", NULL,
	    players, 2, &game, err, sizeof(err)), ENGINE_OK);
	send_all();
	/* Only the confirmation reached pat. */
	ck_assert_ptr_null(newest(pat.email, "[pbem #"));
	signup_code(pat.email, code);
	ck_assert_int_eq(testenv_sql(&env, "INSERT INTO meta (key, value) "
	    "SELECT 'held', count(*) FROM outbox WHERE recipient = "
	    "'pat@example.net' AND status = 2 AND last_error LIKE "
	    "'held, not sent:%'"), 0);
	{
		char *v = NULL;

		ck_assert_int_eq(store_meta_get(env.st, "held", &v), STORE_OK);
		ck_assert_int_ge(atoi(v), 1);
		free(v);
	}
	snprintf(line, sizeof(line), "confirm %s", code);
	command(pat.email, line);
	ck_assert_int_eq(store_player_get(env.st, pat.id, &pat), STORE_OK);
	ck_assert_int_eq(pat.email_pending, 0);
	m = newest(pat.email, "Your address is confirmed");
	ck_assert_ptr_nonnull(m);
	free(m);
}
END_TEST

/* Sign-up by mail switched off. */
START_TEST(test_registration_closed)
{
	set.open_registration = 0;
	command("carl@example.net", "register");
	refused("carl@example.net", "does not sign players up by mail");
	ck_assert_ptr_null(newest("carl@example.net", "/confirm/"));
}
END_TEST

/* How many forming games p sits in. */
static int64_t
forming(const struct store_player *p)
{
	int64_t n;

	ck_assert_int_eq(store_game_forming_count(env.st, p->id, &n),
	    STORE_OK);
	return n;
}

/* "new" and "join" by mail count against forming_games_per_player as
 * over HTTP (issue 14, item 7): the third forming game is refused, and
 * so is joining another, in the player's language. */
START_TEST(test_forming_cap_by_mail)
{
	char line[64];
	int64_t game;

	set.forming_games_per_player = 2;
	command(hana.email, "new template 2 players");
	command(hana.email, "new template 3 players");
	ck_assert_int_eq(forming(&hana), 2);
	command(hana.email, "new template 2 players");
	refused(hana.email, "You already have a seat in 2 forming games");
	refused(hana.email, "(forming_games_per_player = 2)");
	ck_assert_int_eq(forming(&hana), 2);
	game = new_by_mail_fr(hugo.email);
	snprintf(line, sizeof(line), "join %lld", (long long)game);
	command(hana.email, line);
	refused(hana.email, "forming_games_per_player = 2");
	ck_assert_int_eq(forming(&hana), 2);
	/* Hugo, in one forming game, may make a second, not a third. */
	command(hugo.email, "nouvelle template 2 joueurs");
	ck_assert_int_eq(forming(&hugo), 2);
	command(hugo.email, "nouvelle template 2 joueurs");
	refused(hugo.email, "Vous avez déjà une place dans 2 parties en "
	    "formation");
	ck_assert_int_eq(forming(&hugo), 2);
}
END_TEST

/* The body of the newest mail to `to' containing needle (malloc'd). */
static char *
newest_body(const char *to, const char *needle)
{
	char *m, *b;

	m = newest(to, needle);
	ck_assert_msg(m != NULL, "no mail to %s with \"%s\"", to, needle);
	b = body_of(m);
	free(m);
	return b;
}

/* Whether body lists game id ("game 12:" / "partie 12 :"). */
static int
lists_game(const char *body, int64_t id, int fr)
{
	char line[64];

	snprintf(line, sizeof(line), fr ? "partie %lld :" : "game %lld:",
	    (long long)id);
	return strstr(body, line) != NULL;
}

/* "games" answers one page of open games, however many are stored, and
 * "games N" the next one (the store reads no more than it lists). */
START_TEST(test_games_by_mail_paged)
{
	int64_t players[2] = { 0, 0 }, ids[25];
	char err[256], line[64], *b;
	int i, started;

	players[0] = hana.id;
	for (i = 0; i < 25; i++)
		ck_assert_int_eq(engine_form_game_with(env.st, env.key,
		    "template", NULL, NULL, players, NULL, 2, &ids[i],
		    &started, err, sizeof(err)), ENGINE_OK);
	command(hana.email, "games");
	b = newest_body(hana.email, "waiting for players");
	ck_assert(lists_game(b, ids[0], 0) && lists_game(b, ids[19], 0));
	ck_assert(!lists_game(b, ids[20], 0));
	snprintf(line, sizeof(line), "\"games %lld\"", (long long)ids[19]);
	ck_assert_msg(strstr(b, line) != NULL, "%s", b);
	free(b);

	snprintf(line, sizeof(line), "games %lld", (long long)ids[19]);
	command(hana.email, line);
	b = newest_body(hana.email, "waiting for players");
	ck_assert(lists_game(b, ids[20], 0) && lists_game(b, ids[24], 0));
	ck_assert(!lists_game(b, ids[19], 0));
	ck_assert_ptr_null(strstr(b, "next ones"));
	free(b);

	command(hugo.email, "parties");
	b = newest_body(hugo.email, "attendent des joueurs");
	ck_assert(lists_game(b, ids[0], 1) && !lists_game(b, ids[20], 1));
	snprintf(line, sizeof(line), "« parties %lld »", (long long)ids[19]);
	ck_assert_msg(strstr(b, line) != NULL, "%s", b);
	free(b);

	command(hana.email, "games next");
	refused(hana.email, "for those after game N");
}
END_TEST

/* "new GAME N players bots K [LEVEL]" (docs/SERVER-BOTS.md): seats 1 to
 * K are the server's bots, the game starts when no seat is open; a bad
 * count or level is refused in the sender's language. */
START_TEST(test_new_with_bots_by_mail)
{
	struct store_game g;
	struct store_player p;
	int64_t before = forming(&hana);

	command(hana.email, "new template 2 players bots 1 normal");
	ck_assert_int_eq(forming(&hana), before);	/* it started */
	ck_assert_int_eq(store_game_get(env.st, 1, &g), STORE_OK);
	ck_assert_int_eq(g.status, STORE_GAME_RUNNING);
	ck_assert_int_eq(store_player_get(env.st, g.seat_player[1], &p),
	    STORE_OK);
	ck_assert_str_eq(p.bot, "normal");
	store_game_clear(&g);
	command(hugo.email, "nouvelle template 3 joueurs robots 1 random");
	ck_assert_int_eq(forming(&hugo), 1);	/* seat 2 is open */
	command(hana.email, "new template 2 players bots 2");
	refused(hana.email, "players bots 1 normal");
	command(hugo.email, "nouvelle template 2 joueurs robots 1 malin");
	refused(hugo.email, "il n'y a pas de niveau de robot");
}
END_TEST

/* The move line of replies, alone. */
/* A delegation certificate by mail (docs/MAIL.md "Delegation"): read
 * even quoted and re-wrapped, kept, answered at the player's address;
 * a forged or unreadable one answered to the sender, nothing kept. */
static char *
certificate_json(struct delegation *d)
{
	json_t *j = delegation_to_json(d);
	char *text = json_dumps(j, JSON_COMPACT);

	json_decref(j);
	return text;
}

/* A certificate of player (secret key sk) for bot's key, all games, in
 * force from now for a day, signed, into d. */
static void
signed_certificate(struct delegation *d, const char *player,
    const unsigned char *sk, const unsigned char *bot,
    enum delegation_scope scope)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->player, sizeof(d->player), "%s", player);
	memcpy(d->bot, bot, sizeof(d->bot));
	d->game = DELEGATION_ALL_GAMES;
	d->scope = scope;
	d->issued = (int64_t)time(NULL);
	d->expires = d->issued + 86400;
	ck_assert_int_eq(delegation_sign(d, sk), 0);
}

START_TEST(test_delegation_by_mail)
{
	struct store_delegation rows[STORE_DELEGATIONS_MAX];
	unsigned char bot_pk[32], bot_sk[64];
	struct delegation d;
	char text[900], *json, *m, *b;
	size_t n;

	crypto_sign_keypair(bot_pk, bot_sk);
	signed_certificate(&d, "p0", env.player_sk[0], bot_pk,
	    DELEGATION_MOVES);
	json = certificate_json(&d);
	snprintf(text, sizeof(text), "> -----BEGIN PBEM DELEGATION-----\n> "
	    "%.60s\n> %s\n> -----END PBEM DELEGATION-----", json, json + 60);
	free(json);
	command("someone@example.com", text);
	ck_assert_int_eq(store_delegation_active(env.st, env.player_id[0],
	    (int64_t)time(NULL), rows, STORE_DELEGATIONS_MAX, &n), STORE_OK);
	ck_assert_uint_eq(n, 1);
	m = newest("p0@example.org", NULL);
	ck_assert_ptr_nonnull(m);
	b = body_of(m);
	ck_assert_msg(strstr(b, "delegation certificate") != NULL, "%s", b);
	free(b);
	free(m);

	/* A changed field: the signature fails; the sender hears why. */
	d.expires += 1;
	json = certificate_json(&d);
	snprintf(text, sizeof(text), "-----BEGIN PBEM DELEGATION-----\n%s\n"
	    "-----END PBEM DELEGATION-----", json);
	free(json);
	command("eve@example.com", text);
	m = newest("eve@example.com", NULL);
	ck_assert_ptr_nonnull(m);
	b = body_of(m);
	ck_assert_msg(strstr(b, "bad_signature") != NULL, "%s", b);
	free(b);
	free(m);
	command("eve@example.com", "-----BEGIN PBEM DELEGATION-----\nhello\n"
	    "-----END PBEM DELEGATION-----");
	m = newest("eve@example.com", "does not read");
	ck_assert_ptr_nonnull(m);
	free(m);
	ck_assert_int_eq(store_delegation_active(env.st, env.player_id[0],
	    (int64_t)time(NULL), rows, STORE_DELEGATIONS_MAX, &n), STORE_OK);
	ck_assert_uint_eq(n, 1);
}
END_TEST

/* The revocation of certificate id by player, signed with sk, as the
 * lines pbem delegate revoke -m prints (quoted with "> " if quoted). */
static void
revocation_text(const char *player, const char *id,
    const unsigned char *sk, int quoted, char *out, size_t outlen)
{
	struct delegation_revocation rv;
	json_t *j;
	char *json;

	memset(&rv, 0, sizeof(rv));
	snprintf(rv.player, sizeof(rv.player), "%s", player);
	snprintf(rv.id, sizeof(rv.id), "%s", id);
	ck_assert_int_eq(delegation_revocation_sign(&rv, sk), 0);
	j = delegation_revocation_to_json(&rv);
	json = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	/* Re-wrapped at 50 characters, as a mail client may. */
	snprintf(out, outlen, "%s-----BEGIN PBEM REVOCATION-----\n%s%.50s\n%s"
	    "%s\n%s-----END PBEM REVOCATION-----", quoted ? "> " : "",
	    quoted ? "> " : "", json, quoted ? "> " : "", json + 50,
	    quoted ? "> " : "");
	free(json);
}

/* The newest mail to addr holds needle (checked), freed. */
static void
answered(const char *addr, const char *needle)
{
	char *m = newest(addr, NULL), *b;

	ck_assert_ptr_nonnull(m);
	b = body_of(m);
	ck_assert_msg(strstr(b, needle) != NULL, "no \"%s\" in: %s", needle,
	    b);
	free(b);
	free(m);
}

/* A revocation by mail (docs/MAIL.md "Delegation"): a forged one is
 * answered to the sender and changes nothing; an unknown id is answered
 * to the player; a good one, quoted and re-wrapped, ends the certificate
 * and is answered at the player's address in their language (English
 * for p0, French for a French player with a key of their own). */
START_TEST(test_revocation_by_mail)
{
	struct store_delegation rows[STORE_DELEGATIONS_MAX];
	struct engine_delegation_result res;
	unsigned char bot_pk[32], bot_sk[64], fr_sk[64];
	struct store_player p0, zoe;
	struct delegation d;
	char text[900], err[512];
	size_t n;

	crypto_sign_keypair(bot_pk, bot_sk);
	signed_certificate(&d, "p0", env.player_sk[0], bot_pk,
	    DELEGATION_VIEWS);
	ck_assert_int_eq(store_player_find(env.st, "p0", &p0), STORE_OK);
	ck_assert_int_eq(engine_delegation_submit(env.st, env.key, &p0, &d,
	    d.issued, RULES_LANG_EN, &res, err, sizeof(err)), ENGINE_OK);

	/* Signed by another key: refused, to the sender, nothing changed. */
	revocation_text("p0", res.id, env.player_sk[1], 0, text,
	    sizeof(text));
	command("eve@example.com", text);
	answered("eve@example.com", "bad_signature");
	ck_assert_int_eq(store_delegation_active(env.st, p0.id,
	    (int64_t)time(NULL), rows, STORE_DELEGATIONS_MAX, &n), STORE_OK);
	ck_assert_uint_eq(n, 1);
	/* Not JSON, or not a certificate id. */
	command("eve@example.com", "-----BEGIN PBEM REVOCATION-----\n{}\n"
	    "-----END PBEM REVOCATION-----");
	answered("eve@example.com", "\"player\" is not a player name");
	/* Another certificate of p0's: no such one, said to p0. */
	revocation_text("p0", "0123456789abcdef", env.player_sk[0], 0, text,
	    sizeof(text));
	command("someone@example.com", text);
	answered("p0@example.org", "has no certificate 0123456789abcdef");
	ck_assert_int_eq(store_delegation_active(env.st, p0.id,
	    (int64_t)time(NULL), rows, STORE_DELEGATIONS_MAX, &n), STORE_OK);
	ck_assert_uint_eq(n, 1);

	/* The player's own, quoted and re-wrapped: revoked. */
	revocation_text("p0", res.id, env.player_sk[0], 1, text,
	    sizeof(text));
	command("someone@example.com", text);
	answered("p0@example.org", "is revoked");
	ck_assert_int_eq(store_delegation_active(env.st, p0.id,
	    (int64_t)time(NULL), rows, STORE_DELEGATIONS_MAX, &n), STORE_OK);
	ck_assert_uint_eq(n, 0);
	/* Sent again: nothing more to do, still answered as revoked. */
	command("someone@example.com", text);
	answered("p0@example.org", "is revoked");

	/* A French player with a key of their own hears in French. */
	memset(&zoe, 0, sizeof(zoe));
	snprintf(zoe.name, sizeof(zoe.name), "zoe");
	snprintf(zoe.email, sizeof(zoe.email), "zoe@example.net");
	snprintf(zoe.lang, sizeof(zoe.lang), "fr");
	crypto_sign_keypair(zoe.pubkey, fr_sk);
	ck_assert_int_eq(store_player_add(env.st, &zoe), STORE_OK);
	signed_certificate(&d, "zoe", fr_sk, bot_pk, DELEGATION_MOVES);
	ck_assert_int_eq(engine_delegation_submit(env.st, env.key, &zoe, &d,
	    d.issued, RULES_LANG_FR, &res, err, sizeof(err)), ENGINE_OK);
	revocation_text("zoe", res.id, fr_sk, 0, text, sizeof(text));
	command("zoe@example.net", text);
	answered("zoe@example.net", "est révoqué");
	ck_assert_int_eq(store_delegation_active(env.st, zoe.id,
	    (int64_t)time(NULL), rows, STORE_DELEGATIONS_MAX, &n), STORE_OK);
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* A chat link code returned by mail ("link CODE", docs/API.md "Chat
 * identities"): from the player's confirmed address only. */
START_TEST(test_chat_link_by_mail)
{
	char code[ENGINE_CHAT_CODE_LEN + 1], line[64], err[512], *m, *b;
	int64_t expires, id;

	ck_assert_int_eq(engine_chat_code(env.st, &hana, "testnet", "Pzero",
	    (int64_t)time(NULL), RULES_LANG_EN, code, &expires, err,
	    sizeof(err)), ENGINE_OK);
	snprintf(line, sizeof(line), "link %s", code);
	command("eve@example.com", line);
	ck_assert_int_eq(store_chat_link_get(env.st, "testnet", "pzero", &id),
	    STORE_NOTFOUND);
	command("p0@example.org", line);
	ck_assert_int_eq(store_chat_link_get(env.st, "testnet", "pzero", &id),
	    STORE_OK);
	ck_assert_int_eq(id, env.player_id[0]);
	m = newest("p0@example.org", NULL);
	ck_assert_ptr_nonnull(m);
	b = body_of(m);
	ck_assert_msg(strstr(b, "pzero on testnet is linked") != NULL, "%s", b);
	free(b);
	free(m);
	/* Used once. */
	command("p0@example.org", line);
	m = newest("p0@example.org", "could not be done");
	ck_assert_ptr_nonnull(m);
	free(m);
}
END_TEST

START_TEST(test_reply_move_lines)
{
	static const struct {
		const char *text, *move;
	} cases[] = {
		{ "play 3\n\n> quoted\n", "play 3" },
		{ "On Mon wrote:\n> q\n\nplay 4\n-- \nsig\n", "play 4" },
		{ "On Mon, 1 Jan 2026 at 10:00, x <x@y>\nwrote:\n> q\nplay 5\n",
		  "play 5" },
		{ "Sent from my iPhone\n\nplay 6", "play 6" },
		{ "\xc2\xa0jouer 7\xc2\xa0\r\nEnvoyé de mon iPhone\r\n",
		  "jouer 7" },
		{ "play \n8\n\n> q\n", "play 8" },
		{ "> only quote\n\n-- \nplay 9\n", NULL },
		{ "Le lun. 1 janv. 2026, pbem a écrit :\n> q\n", NULL },
	};
	char out[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = mail_reply_move(cases[i].text, strlen(cases[i].text),
		    out, sizeof(out));
		if (cases[i].move == NULL)
			ck_assert_msg(rc == -1, "case %zu found \"%s\"", i, out);
		else {
			ck_assert_msg(rc == 0, "case %zu: none", i);
			ck_assert_str_eq(out, cases[i].move);
		}
	}
}
END_TEST

TCase *
mail_hosted_tcase(void)
{
	TCase *tc = tcase_create("hosted");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_reply_move_lines);
	tcase_add_test(tc, test_whole_game_by_replies);
	tcase_add_test(tc, test_mixed_game_audit);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_own_key_after_hosted);
	tcase_add_test(tc, test_signup_join_new);
	tcase_add_test(tc, test_unconfirmed_gets_no_game_mail);
	tcase_add_test(tc, test_registration_closed);
	tcase_add_test(tc, test_forming_cap_by_mail);
	tcase_add_test(tc, test_games_by_mail_paged);
	tcase_add_test(tc, test_new_with_bots_by_mail);
	tcase_add_test(tc, test_delegation_by_mail);
	tcase_add_test(tc, test_revocation_by_mail);
	tcase_add_test(tc, test_chat_link_by_mail);
	return tc;
}
