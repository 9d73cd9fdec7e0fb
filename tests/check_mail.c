/*
 * check_mail.c -- the mail gateway: the parser, the block picker, the
 * inbound path over the corpus of tests/mail/ (each message with its
 * documented outcome, docs/MAIL.md), the Maildir transports, rendering
 * (no seat ever reads another seat's hand), and the sender's retries.
 *
 * The corpus files are messages with placeholders (@BLOCK@, @FROM@, ...)
 * that the test fills with blocks signed by this run's keys.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <check.h>
#include <sqlite3.h>
#include <sodium.h>

#include "conf.h"
#include "engine.h"
#include "mail.h"
#include "store_test.h"
#include "templates.h"
#include "testlib.h"

/* check_mail_hosted.c: playing by plain replies. */
TCase	*mail_hosted_tcase(void);

static struct testenv env;
static struct mail_settings set;
static struct mail_ingest_ctx ctx;
static int64_t game;
static char corpus[512];

static void
setup(void)
{
	const char *top = getenv("top_srcdir");
	char err[256], path[600];

	mail_init();
	testenv_open(&env, 2);
	game = testenv_game(&env, "stmissions", 2);
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
	ctx.st = env.st;
	ctx.key = env.key;
	ctx.set = &set;
	snprintf(corpus, sizeof(corpus), "%s/tests/mail", top != NULL ? top :
	    ".");
}

static void
teardown(void)
{
	char cmd[400];

	testenv_close(&env);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", env.dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", env.dir);
}

/* The seat to act now and the next sequence number. */
static int
acting(int64_t *next)
{
	struct gamestate gs;
	char err[256];
	int seat = -1;

	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	gs.module->to_act(gs.state, &seat, 1);
	*next = gs.seq + 1;
	gamestate_clear(&gs);
	return seat;
}

/* ---- Filling the corpus ------------------------------------------------- */

struct sbuf {
	char	*d;
	size_t	 n;
};

static void
sb_add(struct sbuf *b, const char *s, size_t n)
{
	b->d = realloc(b->d, b->n + n + 1);
	ck_assert_ptr_nonnull(b->d);
	memcpy(b->d + b->n, s, n);
	b->n += n;
	b->d[b->n] = '\0';
}

static void
sb_str(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

/* s appended count times, in one allocation (a loop of sb_str would copy
 * the buffer each time under AddressSanitizer). */
static void
sb_repeat(struct sbuf *b, const char *s, size_t count)
{
	size_t n = strlen(s), i;

	b->d = realloc(b->d, b->n + n * count + 1);
	ck_assert_ptr_nonnull(b->d);
	for (i = 0; i < count; i++, b->n += n)
		memcpy(b->d + b->n, s, n);
	b->d[b->n] = '\0';
}

/* Quoted-printable, written by hand so the test does not use the code
 * under test to make its input. */
static void
qp(struct sbuf *b, const char *s)
{
	char hex[4];
	int col = 0;

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n') {
			sb_str(b, "\n");
			col = 0;
			continue;
		}
		if (col >= 70) {
			sb_str(b, "=\n");
			col = 0;
		}
		if (c == '=' || c >= 0x80) {
			snprintf(hex, sizeof(hex), "=%02X", c);
			sb_str(b, hex);
			col += 3;
		} else {
			sb_add(b, (const char *)&c, 1);
			col++;
		}
	}
}

/* format=flowed with DelSp=yes (RFC 3676), written by hand: every line
 * cut every 11 bytes -- inside words too -- each piece but the last
 * followed by the space of a soft break, which DelSp deletes. */
static void
flowed_delsp(struct sbuf *b, const char *s)
{
	const char *nl;
	size_t n, i, k;

	for (; *s != '\0'; s = nl + 1) {
		nl = strchr(s, '\n');
		n = nl != NULL ? (size_t)(nl - s) : strlen(s);
		for (i = 0; i < n; i += k) {
			k = n - i > 11 ? 11 : n - i;
			if (i == 0 && (s[0] == ' ' || s[0] == '>'))
				sb_str(b, " ");		/* space-stuffed */
			sb_add(b, s + i, k);
			if (i + k < n)
				sb_str(b, " \n");
		}
		sb_str(b, "\n");
		if (nl == NULL)
			break;
	}
}

static void
b64(struct sbuf *b, const char *s)
{
	size_t n = strlen(s), elen = sodium_base64_ENCODED_LEN(n,
	    sodium_base64_VARIANT_ORIGINAL), i;
	char *enc = malloc(elen);

	sodium_bin2base64(enc, elen, (const unsigned char *)s, n,
	    sodium_base64_VARIANT_ORIGINAL);
	n = strlen(enc);
	for (i = 0; i < n; i += 76) {
		sb_add(b, enc + i, strnlen(enc + i, 76));
		sb_str(b, "\n");
	}
	free(enc);
}

/* UTF-8 to ISO-8859-1 for the Latin letters of French. */
static void
latin1(struct sbuf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == 0xc3 && s[1] != '\0') {
			c = (unsigned char)(((unsigned char)s[1] & 0x3f) | 0xc0);
			s++;
		}
		sb_add(b, (const char *)&c, 1);
	}
}

struct fill {
	const char	*from;
	const char	*block;		/* the move block */
	const char	*old_block;	/* an older one, quoted */
	const char	*forged;
	const char	*status;
	const char	*tag;
};

static char *
load_corpus(const char *name, const struct fill *f, size_t *len)
{
	char path[700], gamestr[32], line[2048];
	struct sbuf b = { NULL, 0 };
	const char *p, *q;
	FILE *fp;
	char *raw = NULL;
	size_t rawlen = 0, got;

	snprintf(path, sizeof(path), "%s/%s", corpus, name);
	fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	while ((got = fread(line, 1, sizeof(line), fp)) > 0) {
		raw = realloc(raw, rawlen + got + 1);
		memcpy(raw + rawlen, line, got);
		rawlen += got;
	}
	fclose(fp);
	raw = realloc(raw, rawlen + 1);
	raw[rawlen] = '\0';
	snprintf(gamestr, sizeof(gamestr), "%lld", (long long)game);
	sb_str(&b, "");
	for (p = raw; p < raw + rawlen; ) {
		if (*p != '@' || (q = memchr(p + 1, '@', raw + rawlen - p -
		    1)) == NULL || q - p > 20) {
			sb_add(&b, p, 1);
			p++;
			continue;
		}
		snprintf(line, sizeof(line), "%.*s", (int)(q - p - 1), p + 1);
		if (strcmp(line, "FROM") == 0)
			sb_str(&b, f->from);
		else if (strcmp(line, "GAME") == 0)
			sb_str(&b, gamestr);
		else if (strcmp(line, "TAG") == 0)
			sb_str(&b, f->tag);
		else if (strcmp(line, "BLOCK") == 0) {
			if (strstr(name, "latin1") != NULL)
				latin1(&b, f->block);
			else
				sb_str(&b, f->block);
		} else if (strcmp(line, "BLOCK_QP") == 0)
			qp(&b, f->block);
		else if (strcmp(line, "BLOCK_FLOWED") == 0)
			flowed_delsp(&b, f->block);
		else if (strcmp(line, "BODY_B64") == 0) {
			struct sbuf body = { NULL, 0 };
			sb_str(&body, "Mon coup, sign\xc3\xa9 :\n\n");
			sb_str(&body, f->block);
			b64(&b, body.d);
			free(body.d);
		} else if (strcmp(line, "BLOCK_HTML") == 0) {
			for (q = f->block; *q != '\0'; q++)
				if (*q == '\n')
					sb_str(&b, "<br>\n");
				else
					sb_add(&b, q, 1);
		} else if (strcmp(line, "OLD_BLOCK_QUOTED") == 0) {
			sb_str(&b, "> ");
			for (q = f->old_block; *q != '\0'; q++) {
				sb_add(&b, q, 1);
				if (*q == '\n' && q[1] != '\0')
					sb_str(&b, "> ");
			}
		} else if (strcmp(line, "FORGED_BLOCK") == 0)
			sb_str(&b, f->forged);
		else if (strcmp(line, "STATUS_BLOCK") == 0)
			sb_str(&b, f->status);
		else {
			sb_add(&b, p, 1);
			p++;
			continue;
		}
		p = q + 1;
	}
	free(raw);
	*len = b.n;
	return b.d;
}

/* Outbox rows of an event (and recipient, if not NULL) not yet sent. */
struct count {
	const char	*event;
	const char	*to;
	int		 n;
	char		 payload[1024];
};

static int
count_cb(const struct store_outbox *o, void *arg)
{
	struct count *c = arg;

	if ((c->event == NULL || strcmp(o->event, c->event) == 0) &&
	    (c->to == NULL || strcmp(o->recipient, c->to) == 0)) {
		c->n++;
		snprintf(c->payload, sizeof(c->payload), "%s", o->payload);
	}
	return 0;
}

static int
outbox_count(const char *event, const char *to, char *payload, size_t size)
{
	struct count c = { event, to, 0, "" };

	ck_assert_int_eq(store_outbox_due(env.st, INT64_MAX / 2, 100000,
	    count_cb, &c), STORE_OK);
	if (payload != NULL)
		snprintf(payload, size, "%s", c.payload);
	return c.n;
}

static const char *
email(int player)
{
	static char buf[2][64];

	snprintf(buf[player], sizeof(buf[player]), "p%d@example.org",
	    player);
	return buf[player];
}

/* Ingest corpus file name filled for the acting seat. */
static void
ingest_file(const char *name, const char *tag, struct mail_result *r)
{
	char block[PROTO_ARMOUR_MAX], forged[PROTO_ARMOUR_MAX],
	    status[PROTO_ARMOUR_MAX];
	struct fill f;
	int64_t next;
	int seat = acting(&next);
	size_t len;
	char *raw;

	testenv_block(&env, seat, game, next, seat, strstr(name, "latin1") ?
	    "piocher galaxie, d\xc3\xa9" "fausser pioch\xc3\xa9" "e" :
	    "draw galaxy, discard drawn", block, sizeof(block));
	testenv_block(&env, 1 - seat, game, next, seat,
	    "draw galaxy, discard drawn", forged, sizeof(forged));
	testenv_block(&env, seat, game, next, seat, "STATUS", status,
	    sizeof(status));
	memset(&f, 0, sizeof(f));
	f.from = email(seat);
	f.block = block;
	f.old_block = block;
	f.forged = forged;
	f.status = status;
	f.tag = tag;
	raw = load_corpus(name, &f, &len);
	mail_ingest(&ctx, raw, len, NULL, r);
	free(raw);
}

/* ---- The parser --------------------------------------------------------- */

START_TEST(test_html_to_text)
{
	const char *html = "<p>a &amp; b&nbsp;&#233;&#x41;</p><blockquote>"
	    "<div>quoted</div></blockquote><script>x()</script>after&bogus;";
	size_t n;
	char *t = mail_html_to_text(html, strlen(html), 4096, &n);

	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(strstr(t, "a & b \xc3\xa9" "A"));
	ck_assert_ptr_nonnull(strstr(t, "\n> quoted"));
	ck_assert_ptr_null(strstr(t, "x()"));
	ck_assert_ptr_nonnull(strstr(t, "after&bogus;"));
	free(t);
}
END_TEST

START_TEST(test_block_pick)
{
	const char *text = "> -----BEGIN PBEM MOVE-----\n> old\n"
	    "-----BEGIN PBEM MOVE-----  \r\nnew\n"
	    ">> -----BEGIN PBEM MOVE-----\n";
	long off = mail_block_pick(text, strlen(text));

	ck_assert_int_eq(off, (long)(strstr(text, "\n-----BEGIN") - text + 1));
	ck_assert_int_eq(mail_block_pick("> -----BEGIN PBEM MOVE-----", 27),
	    0);
	ck_assert_int_eq(mail_block_pick("no block", 8), -1);
	ck_assert_int_eq(mail_block_pick("-----BEGIN PBEM MOVE----- x", 27),
	    -1);
	/* Of two equally quoted blocks, the first; blanks are not quotes. */
	text = "> -----BEGIN PBEM MOVE-----\n>-----BEGIN PBEM MOVE-----\n";
	ck_assert_int_eq(mail_block_pick(text, strlen(text)), 0);
	text = "> -----BEGIN PBEM MOVE-----\n\t -----BEGIN PBEM MOVE-----\n";
	ck_assert_int_eq(mail_block_pick(text, strlen(text)), 28);
}
END_TEST

START_TEST(test_command_words)
{
	int fr = 0;

	ck_assert_int_eq(mail_command_word("HELP", &fr), MAIL_CMD_HELP);
	ck_assert_int_eq(fr, 0);
	ck_assert_int_eq(mail_command_word(" Aide! ", &fr), MAIL_CMD_HELP);
	ck_assert_int_eq(fr, 1);
	ck_assert_int_eq(mail_command_word("\xc3\x89tat", &fr),
	    MAIL_CMD_STATUS);
	ck_assert_int_eq(mail_command_word("status.", &fr), MAIL_CMD_STATUS);
	ck_assert_int_eq(mail_command_word("help me", &fr), MAIL_CMD_NONE);
	ck_assert_int_eq(mail_command_find("Re: hi", "\n  help\n> x", 11,
	    &fr), MAIL_CMD_HELP);
	ck_assert_int_eq(mail_command_find("Re: hi", "> help\nhelp", 11,
	    &fr), MAIL_CMD_NONE);
}
END_TEST

/* Every line of s at most width characters (UTF-8 code points). */
static int
lines_fit(const char *s, size_t width)
{
	size_t col = 0;

	for (; *s != '\0'; s++) {
		if (*s == '\n')
			col = 0;
		else if (((unsigned char)*s & 0xc0) != 0x80 && ++col > width)
			return 0;
	}
	return 1;
}

START_TEST(test_wrap)
{
	const char *bonus = "       holder chooses its type (Personnel, "
	    "Civilian or Captain), one Lifeform, one Affiliation, one "
	    "Specialty; no bonus of its own\n";
	const char *item = "  - take <one of: Ambassador Sarek, Personnel "
	    "Issues, The Lure of Profit, Do Machines Have Rights?>, discard "
	    "<another card>\n";
	const char *sign = "  pbem sign -g 49 -n 6 -s 2 \"draw missions, "
	    "discard drawn 1, drawn 2, and a long text to pass 78\"\n";
	const char *fr = "       9 pour chacune de ces cartes : Lieutenant "
	    "Geordi La Forge, Salle des machines ; \xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 avec Holodeck\n";
	char *w;

	/* Short lines and the signature separator are left alone. */
	w = mail_wrap("  G20  Hand Phaser \xe2\x80\x94 Equipment\n-- \nx", 78);
	ck_assert_str_eq(w, "  G20  Hand Phaser \xe2\x80\x94 Equipment\n-- \nx");
	free(w);
	/* A bonus line under a hand card: continuations keep its indent. */
	w = mail_wrap(bonus, 78);
	ck_assert_str_eq(w, "       holder chooses its type (Personnel, "
	    "Civilian or Captain), one Lifeform,\n       one Affiliation, one "
	    "Specialty; no bonus of its own\n");
	free(w);
	/* A list item: continuations under its text. */
	w = mail_wrap(item, 78);
	ck_assert(lines_fit(w, 78));
	ck_assert_ptr_nonnull(strstr(w, "\n    "));
	ck_assert_ptr_null(strstr(w, "\n     "));
	free(w);
	/* A command to copy is never broken, nor is an armoured block. */
	w = mail_wrap(sign, 78);
	ck_assert_str_eq(w, sign);
	free(w);
	/* Characters, not bytes: 78 accented letters fit. */
	w = mail_wrap(fr, 78);
	ck_assert(lines_fit(w, 78));
	ck_assert_ptr_nonnull(strstr(w, "Salle des\n       machines ; "
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 avec"));
	free(w);
	/* French punctuation never starts a line: the space before
	 * ; : ! ? and a closing guillemet, and after an opening one, does
	 * not break.  Each text below would break at that space otherwise
	 * (the break would fall at column 20 or 21). */
	w = mail_wrap("aaaa bbbb cccc dddd ; eeee\n", 20);
	ck_assert_str_eq(w, "aaaa bbbb cccc\ndddd ; eeee\n");
	free(w);
	w = mail_wrap("aaaa bbbb cccc dddd : eeee\n", 20);
	ck_assert_str_eq(w, "aaaa bbbb cccc\ndddd : eeee\n");
	free(w);
	w = mail_wrap("aaaa bbbb cccc dddd ! eeee\n", 20);
	ck_assert_str_eq(w, "aaaa bbbb cccc\ndddd ! eeee\n");
	free(w);
	w = mail_wrap("aaaa bbbb cccc dddd ? eeee\n", 20);
	ck_assert_str_eq(w, "aaaa bbbb cccc\ndddd ? eeee\n");
	free(w);
	w = mail_wrap("aaaa bbbb cccc \xc2\xab dd \xc2\xbb eeee\n", 20);
	ck_assert_str_eq(w, "aaaa bbbb cccc\n\xc2\xab dd \xc2\xbb eeee\n");
	free(w);
	/* A run tied together longer than the line stays whole. */
	w = mail_wrap("aa bbbbbbbbbb : c\n", 10);
	ck_assert_str_eq(w, "aa\nbbbbbbbbbb :\nc\n");
	free(w);
	/* A real French mail line: no line of it starts with ; or :. */
	w = mail_wrap("  - prendre <une de : Ambassadeur Sarek, Probl\xc3\xa8mes "
	    "de personnel, L'Appel du profit, Les machines ont-elles des "
	    "droits ?>, d\xc3\xa9" "fausser <une autre carte> ; ou piocher "
	    "galaxie : au choix\n", 78);
	ck_assert(lines_fit(w, 78));
	ck_assert_ptr_null(strstr(w, "\n    ;"));
	ck_assert_ptr_null(strstr(w, "\n    :"));
	ck_assert_ptr_null(strstr(w, "\n    ?"));
	free(w);
	/* A word longer than a line stays whole. */
	w = mail_wrap("a 0123456789012345678901234567890 b\n", 10);
	ck_assert_str_eq(w, "a\n0123456789012345678901234567890\nb\n");
	free(w);
}
END_TEST

START_TEST(test_unflow)
{
	char *u;

	/* DelSp=yes: the space of each soft break goes; words rejoin. */
	u = mail_unflow("take Commander Bru \r\nce Maddox, dis \r\ncard G01"
	    "\r\nnext\r\n", 1);
	ck_assert_str_eq(u, "take Commander Bruce Maddox, discard G01\nnext\n");
	free(u);
	/* Without DelSp the space stays. */
	u = mail_unflow("draw \ngalaxy\n", 0);
	ck_assert_str_eq(u, "draw galaxy\n");
	free(u);
	/* Space-stuffing undone, the signature separator never flowed,
	 * quoted lines joined at their depth only. */
	u = mail_unflow(" From here\n-- \nsig\n> a \n> b\n>> c \nd\n", 1);
	ck_assert_str_eq(u, "From here\n-- \nsig\n> ab\n>> c\nd\n");
	free(u);
}
END_TEST

/* French mail: wrapped on the UTF-8 text, then quoted-printable; decoded
 * again, every line fits in 78 characters and the words are intact. */
START_TEST(test_compose_wrapped_qp)
{
	struct mail_out o;
	struct mail_msg m;
	char err[256], *raw;
	size_t len;

	memset(&o, 0, sizeof(o));
	snprintf(o.to, sizeof(o.to), "p@example.org");
	snprintf(o.subject, sizeof(o.subject), "partie");
	snprintf(o.message_id, sizeof(o.message_id), "wrap@example.org");
	o.body = strdup("Votre main :\n  G24  Leah Brahms \xe2\x80\x94 "
	    "Personnel \xc2\xb7 Ing\xc3\xa9nieur \xc2\xb7 Humain \xc2\xb7 "
	    "F\xc3\xa9" "d\xc3\xa9ration\n       9 pour chacune de ces cartes "
	    ": Lieutenant Geordi La Forge, Salle des machines ; avec "
	    "Holodeck 1, Holodeck 2 ou Ordinateur : +5 et sa forme de vie "
	    "est Hologramme au lieu d'Humain\n-- \nfin\n");
	raw = mail_compose(&set, &o, 0, &len);
	ck_assert_ptr_nonnull(raw);
	ck_assert_ptr_nonnull(strstr(raw, "quoted-printable"));
	ck_assert_int_eq(mail_parse(raw, len, &m, err, sizeof(err)), 0);
	ck_assert(lines_fit(m.text, 78));
	ck_assert_ptr_nonnull(strstr(m.text, "Salle des\n       machines ; "
	    "avec Holodeck 1, Holodeck 2"));
	ck_assert_ptr_nonnull(strstr(m.text, "\n-- \nfin"));
	mail_msg_clear(&m);
	free(raw);
	free(o.body);
}
END_TEST

START_TEST(test_parse_headers)
{
	const char *raw = "From: =?utf-8?q?J=C3=A9r=C3=B4me?= <j@x.org>\n"
	    "Reply-To: other@x.org\nReturn-Path: <bounce@x.org>\n"
	    "Subject: =?iso-8859-1?q?=E0_toi?=\nAuto-Submitted: No\n"
	    "Message-ID: <abc@x>\n\nbody\n";
	struct mail_msg m;
	char err[256];

	ck_assert_int_eq(mail_parse(raw, strlen(raw), &m, err, sizeof(err)),
	    0);
	ck_assert_str_eq(m.from, "j@x.org");
	ck_assert_str_eq(m.reply_to, "other@x.org");
	ck_assert_str_eq(m.return_path, "bounce@x.org");
	ck_assert_str_eq(m.subject, "\xc3\xa0 toi");
	ck_assert_str_eq(m.auto_submitted, "no");
	ck_assert_str_eq(m.message_id, "abc@x");
	ck_assert_ptr_nonnull(strstr(m.text, "body"));
	mail_msg_clear(&m);
}
END_TEST

START_TEST(test_settings)
{
	struct mail_settings s;
	char err[256];

	mail_settings_default(&s);
	ck_assert_str_eq(s.maildir_in, "mail/in");
	ck_assert_int_eq(s.rate_max, 20);
	ck_assert_int_eq(mail_settings_set_pair(&s, "rate_max=5", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(s.rate_max, 5);
	ck_assert_int_eq(mail_settings_set_pair(&s, "rate_max=-1", err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "rate_max"));
	ck_assert_int_eq(mail_settings_set_pair(&s, "tls_verify=maybe", err,
	    sizeof(err)), -1);
	ck_assert_int_eq(mail_settings_set_pair(&s, "nosuch=1", err,
	    sizeof(err)), -1);
	ck_assert_int_eq(mail_settings_set_pair(&s, "novalue", err,
	    sizeof(err)), -1);
	ck_assert_int_eq(s.rate_max, 5);
	ck_assert_ptr_nonnull(mail_settings_name(0));
	ck_assert_int_eq(mail_retry_delay(&s, 1), 60);
	ck_assert_int_eq(mail_retry_delay(&s, 3), 240);
	ck_assert_int_eq(mail_retry_delay(&s, 40), 21600);
}
END_TEST

/* pbemd's option table (mail_NAME) has the same defaults as
 * mail_settings_default(), and knows every mail setting. */
START_TEST(test_config_defaults)
{
	struct mail_settings a, b;
	struct config *cfg = config_new();
	char err[256];

	ck_assert_ptr_nonnull(cfg);
	ck_assert_int_eq(config_derive(cfg, err, sizeof(err)), 0);
	mail_settings_default(&a);
	ck_assert_str_eq(a.public_base_url, "http://127.0.0.1:8080");
	ck_assert_int_eq(mail_settings_from_config(&b, cfg, err, sizeof(err)),
	    0);
	/* The configuration names the hosted keys' KEK beside the database
	 * (hosted_key_file empty: <database>.kek); bare defaults name none. */
	ck_assert_str_eq(b.hosted_key_file, "pbem.db.kek");
	snprintf(a.hosted_key_file, sizeof(a.hosted_key_file), "pbem.db.kek");
	ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
	ck_assert_int_eq(config_set(cfg, "mail_rate_max", "3", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(mail_settings_from_config(&b, cfg, err, sizeof(err)),
	    0);
	ck_assert_int_eq(b.rate_max, 3);
	config_free(cfg);
}
END_TEST

/* ---- The corpus --------------------------------------------------------- */

/* Each file's documented outcome (docs/MAIL.md, "The corpus"). */
static const struct corpus_case {
	const char		*file;
	enum mail_outcome	 outcome;
	int			 played;	/* the log grew by one */
	const char		*reply;		/* event queued, or NULL */
	const char		*reason;	/* in the reason, or NULL */
} cases[] = {
	{ "plain.eml", MAIL_ACCEPTED, 1, "accepted", NULL },
	{ "qp.eml", MAIL_ACCEPTED, 1, "accepted", NULL },
	{ "flowed-delsp.eml", MAIL_ACCEPTED, 1, "accepted", NULL },
	{ "base64.eml", MAIL_ACCEPTED, 1, "accepted", NULL },
	{ "alternative.eml", MAIL_ACCEPTED, 1, "accepted", NULL },
	{ "html-only.eml", MAIL_ACCEPTED, 1, "accepted", NULL },
	{ "mixed-latin1.eml", MAIL_ACCEPTED, 1, "accepted", NULL },
	{ "quoted-reply.eml", MAIL_ACCEPTED, 1, "accepted", NULL },
	{ "broken-boundary.eml", MAIL_HELP, 0, "mail_help", NULL },
	{ "bad-encoding.eml", MAIL_COMMAND, 0, "mail_help", "HELP" },
	{ "forged.eml", MAIL_REJECTED, 0, "mail_error", "signature" },
	{ "bounce.eml", MAIL_QUARANTINED, 0, NULL, "bounce" },
	{ "auto-reply.eml", MAIL_IGNORED, 0, NULL, "Auto-Submitted" },
	{ "bulk.eml", MAIL_IGNORED, 0, NULL, "Precedence" },
	{ "help.eml", MAIL_COMMAND, 0, "mail_help", NULL },
	{ "aide.eml", MAIL_COMMAND, 0, "mail_help", NULL },
	{ "nothing.eml", MAIL_HELP, 0, "mail_help", NULL },
	{ "status-unsigned.eml", MAIL_REJECTED, 0, "mail_error", "sign" },
	{ "status-signed.eml", MAIL_COMMAND, 0, "status", NULL },
	{ "garbage.eml", MAIL_QUARANTINED, 0, NULL, "not a mail" },
};

START_TEST(test_corpus)
{
	const struct corpus_case *c = &cases[_i];
	struct mail_result r;
	struct store_entry last;
	int64_t before, after, next;
	int nreply;

	memset(&last, 0, sizeof(last));
	ck_assert_int_eq(store_log_last(env.st, game, &last), STORE_OK);
	before = last.seq;
	store_entry_clear(&last);
	nreply = c->reply != NULL ? outbox_count(c->reply, NULL, NULL, 0) : 0;
	ingest_file(c->file, "one", &r);
	ck_assert_msg(r.outcome == c->outcome, "%s: outcome %s (%s), expected "
	    "%s", c->file, mail_outcome_name(r.outcome), r.reason,
	    mail_outcome_name(c->outcome));
	if (c->reason != NULL)
		ck_assert_msg(strstr(r.reason, c->reason) != NULL,
		    "%s: reason \"%s\" lacks \"%s\"", c->file, r.reason,
		    c->reason);
	ck_assert_int_eq(store_log_last(env.st, game, &last), STORE_OK);
	after = last.seq;
	store_entry_clear(&last);
	ck_assert_msg(after == before + c->played, "%s: log went from %lld "
	    "to %lld", c->file, (long long)before, (long long)after);
	if (c->reply != NULL)
		ck_assert_msg(outbox_count(c->reply, NULL, NULL, 0) ==
		    nreply + 1, "%s: no %s queued", c->file, c->reply);
	if (c->outcome == MAIL_IGNORED || c->outcome == MAIL_QUARANTINED)
		ck_assert_int_eq(r.replied, 0);

	/* The same message again: a duplicate, nothing more happens. */
	acting(&next);
	before = outbox_count(NULL, NULL, NULL, 0);
	ingest_file(c->file, "one", &r);
	ck_assert_msg(r.outcome == MAIL_DUPLICATE || (c->outcome ==
	    MAIL_QUARANTINED && strstr(c->file, "garbage") != NULL),
	    "%s again: %s", c->file, mail_outcome_name(r.outcome));
	ck_assert_int_eq(outbox_count(NULL, NULL, NULL, 0), before);
}
END_TEST

/* The same signed block under a new Message-ID: not played twice, not
 * answered twice. */
START_TEST(test_replayed_block)
{
	char block[PROTO_ARMOUR_MAX], raw[4096];
	struct mail_result r;
	int64_t next, rows;
	int seat = acting(&next);

	testenv_block(&env, seat, game, next, seat,
	    "draw galaxy, discard drawn", block, sizeof(block));
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <a@x>\n\n%s",
	    email(seat), block);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_int_eq(r.outcome, MAIL_ACCEPTED);
	rows = testenv_rows(&env);
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <b@x>\n\n> quoted\n"
	    "%s", email(seat), block);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_int_eq(r.outcome, MAIL_DUPLICATE);
	ck_assert_int_eq(r.replied, 0);
	ck_assert_int_eq(testenv_rows(&env), rows);
}
END_TEST

/* A stale block that is not the one in the log, and an illegal move:
 * refused, answered to the seat's registered address with the move and
 * the reason; nothing played. */
START_TEST(test_rejected_to_seat)
{
	char block[PROTO_ARMOUR_MAX], raw[4096], payload[1024];
	struct mail_result r;
	int64_t next;
	int seat = acting(&next);

	testenv_block(&env, seat, game, next, seat, "take nothing at all",
	    block, sizeof(block));
	snprintf(raw, sizeof(raw), "From: elsewhere@example.net\n"
	    "Message-ID: <ill@x>\n\n%s", block);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_int_eq(r.outcome, MAIL_REJECTED);
	ck_assert_int_eq(outbox_count("rejected", email(seat), payload,
	    sizeof(payload)), 1);
	ck_assert_ptr_nonnull(strstr(payload, "take nothing at all"));
	ck_assert_int_eq(outbox_count(NULL, "elsewhere@example.net", NULL, 0),
	    0);
}
END_TEST

/* Refusals in the reader's language (issue 15, item 6): a sequence
 * number in the future and another seat's signature, for each seat --
 * seat 0's player reads English, seat 1's French. */
START_TEST(test_refusal_language)
{
	static const char *const want[2][2] = {
		{ "is in the future", "the signature does not match" },
		{ "est dans le futur", "la signature ne correspond pas" },
	};
	char block[PROTO_ARMOUR_MAX], raw[4096];
	struct mail_result r;
	int64_t next;
	int seat, k;

	(void)acting(&next);
	for (seat = 0; seat < 2; seat++)
		for (k = 0; k < 2; k++) {
			testenv_block(&env, k == 0 ? seat : 1 - seat, game,
			    k == 0 ? next + 5 : next, seat,
			    "draw galaxy, discard drawn", block, sizeof(block));
			snprintf(raw, sizeof(raw), "From: %s\n"
			    "Message-ID: <lang%d.%d@x>\n\n%s", email(seat),
			    seat, k, block);
			mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
			ck_assert_int_eq(r.outcome, MAIL_REJECTED);
			ck_assert_msg(strstr(r.reason, want[seat][k]) != NULL,
			    "seat %d: %s", seat, r.reason);
		}
}
END_TEST

/* The engine's signed commands work by mail too: a resignation. */
START_TEST(test_signed_engine_command)
{
	char block[PROTO_ARMOUR_MAX], raw[4096];
	struct mail_result r;
	int64_t next;
	int seat = acting(&next);

	testenv_block(&env, seat, game, 1, seat, "resign", block,
	    sizeof(block));
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <res@x>\n\n%s",
	    email(seat), block);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_msg(r.outcome == MAIL_COMMAND, "%s: %s",
	    mail_outcome_name(r.outcome), r.reason);
	ck_assert_int_eq(r.game_id, 0);
}
END_TEST

/* Bug 2 of issue 21: a refused command is answered with the game as it
 * stands (its last entry), not as it was at move 0. */
START_TEST(test_refused_command_current_view)
{
	char block[PROTO_ARMOUR_MAX], raw[4096], payload[1024];
	struct mail_result r;
	int64_t next;
	int seat = acting(&next), k;

	testenv_block(&env, seat, game, next, seat,
	    "draw galaxy, discard drawn", block, sizeof(block));
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <mv@x>\n\n%s",
	    email(seat), block);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_int_eq(r.outcome, MAIL_ACCEPTED);
	for (k = 1; k <= 2; k++) {
		testenv_block(&env, seat, game, k, seat, "call off", block,
		    sizeof(block));
		snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <co%d@x>\n"
		    "\n%s", email(seat), k, block);
		mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	}
	ck_assert_int_eq(r.outcome, MAIL_REJECTED);
	ck_assert_int_eq(outbox_count("rejected", email(seat), payload,
	    sizeof(payload)), 1);
	snprintf(raw, sizeof(raw), "\"seq\":%lld", (long long)next);
	ck_assert_msg(strstr(payload, raw) != NULL, "%s", payload);
	/* In the seat's player's language. */
	ck_assert_msg(strstr(payload, seat == 1 ? "déjà voté" :
	    "already voted") != NULL, "%s", payload);
}
END_TEST

/* A game master's refused command by mail is answered at the master's
 * address with the reason only -- never a seat's view. */
START_TEST(test_master_command_refused)
{
	char block[PROTO_ARMOUR_MAX], raw[4096], payload[1024], err[256];
	struct mail_result r;
	struct store_player p1;
	int64_t next, after;
	int seat;

	ck_assert_int_eq(store_player_find(env.st, "p1", &p1), STORE_OK);
	ck_assert_int_eq(engine_master_name(env.st, game, p1.id, err,
	    sizeof(err)), ENGINE_OK);
	testenv_block(&env, 1, game, 1, 0, "gm resume", block, sizeof(block));
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <gm@x>\n\n%s",
	    email(1), block);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_int_eq(r.outcome, MAIL_REJECTED);
	/* In the master's language (p1 reads French). */
	ck_assert_msg(strstr(r.reason, "n'est pas en pause") != NULL, "%s",
	    r.reason);
	ck_assert_int_eq(outbox_count("rejected", NULL, NULL, 0), 0);
	ck_assert_int_eq(outbox_count("mail_error", email(1), payload,
	    sizeof(payload)), 1);
	ck_assert_ptr_nonnull(strstr(payload, "n'est pas en pause"));
	testenv_block(&env, 1, game, 2, 0, "gm pause", block, sizeof(block));
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <gm2@x>\n\n%s",
	    email(1), block);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_msg(r.outcome == MAIL_COMMAND, "%s: %s",
	    mail_outcome_name(r.outcome), r.reason);

	/* Paused: a move by mail is refused in its player's language,
	 * naming the master, and changes nothing; a message still goes. */
	seat = acting(&next);
	testenv_block(&env, seat, game, next, seat,
	    "draw galaxy, discard drawn", block, sizeof(block));
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <mvp@x>\n\n%s",
	    email(seat), block);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_int_eq(r.outcome, MAIL_REJECTED);
	ck_assert_int_eq(outbox_count("rejected", email(seat), payload,
	    sizeof(payload)), 1);
	ck_assert_msg(strstr(payload, seat == 1 ? "est en pause : son maître "
	    "du jeu, p1," : "is paused: its game master, p1,") != NULL, "%s",
	    payload);
	ck_assert_int_eq(acting(&after), seat);
	ck_assert_int_eq(after, next);
	testenv_block(&env, seat, game, 1, seat, seat == 1 ? "message tous : "
	    "on attend" : "press all: waiting", block, sizeof(block));
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <prp@x>\n\n%s",
	    email(seat), block);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_msg(r.outcome == MAIL_COMMAND, "%s: %s",
	    mail_outcome_name(r.outcome), r.reason);
}
END_TEST

/* An unsigned STATUS is refused in its sender's language (p1: French). */
START_TEST(test_unsigned_status_in_french)
{
	struct mail_result r;
	char raw[256];

	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <etat@x>\n"
	    "Subject: ETAT\n\nETAT\n", email(1));
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_int_eq(r.outcome, MAIL_REJECTED);
	ck_assert_msg(strstr(r.reason, "un ETAT non signé") != NULL, "%s",
	    r.reason);
}
END_TEST

START_TEST(test_too_large)
{
	size_t n = 10 * 1024 * 1024, hdr;
	struct mail_result r;
	char *raw = malloc(n + 1);
	int64_t rows = testenv_rows(&env);

	hdr = (size_t)snprintf(raw, n, "From: a@b\nMessage-ID: <big@x>\n\n");
	memset(raw + hdr, 'x', n - hdr);
	raw[n] = '\0';
	mail_ingest(&ctx, raw, n, NULL, &r);
	ck_assert_int_eq(r.outcome, MAIL_QUARANTINED);
	ck_assert_ptr_nonnull(strstr(r.reason, "too large"));
	ck_assert_int_eq(testenv_rows(&env), rows);
	free(raw);
}
END_TEST

START_TEST(test_rate_limit)
{
	char err[64], raw[256];
	struct mail_result r;
	int i;

	ck_assert_int_eq(mail_settings_set(&set, "rate_max", "2", err,
	    sizeof(err)), 0);
	for (i = 0; i < 4; i++) {
		snprintf(raw, sizeof(raw), "From: spam@example.net\n"
		    "Message-ID: <r%d@x>\n\nhelp\n", i);
		mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
		ck_assert_int_eq(r.outcome, MAIL_COMMAND);
		ck_assert_int_eq(r.replied, i < 2);
		if (i >= 2)
			ck_assert_ptr_nonnull(strstr(r.reason, "limit"));
	}
	ck_assert_int_eq(outbox_count("mail_help", "spam@example.net", NULL,
	    0), 2);
}
END_TEST

/* ---- Maildir in, quarantine -------------------------------------------- */

static int
count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

START_TEST(test_maildir_scan)
{
	char err[256], path[1000], block[PROTO_ARMOUR_MAX], raw[4096], *q;
	const char *bounce = "Return-Path: <>\nFrom: x@y\nMessage-ID: <q@x>\n\n"
	    "gone\n";
	int64_t next;
	int seat = acting(&next);
	FILE *f;
	DIR *d;
	struct dirent *de;

	testenv_block(&env, seat, game, next, seat,
	    "draw galaxy, discard drawn", block, sizeof(block));
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <in1@x>\n\n%s",
	    email(seat), block);
	ck_assert_int_eq(maildir_put(set.maildir_in, "1", NULL, raw,
	    strlen(raw), err, sizeof(err)), 0);
	ck_assert_int_eq(maildir_put(set.maildir_in, "2", NULL, bounce,
	    strlen(bounce), err, sizeof(err)), 0);
	ck_assert_int_eq(maildir_scan(&ctx, set.maildir_in), 2);
	snprintf(path, sizeof(path), "%s/new", set.maildir_in);
	ck_assert_int_eq(count_files(path), 0);
	snprintf(path, sizeof(path), "%s/cur", set.maildir_in);
	ck_assert_int_eq(count_files(path), 2);
	/* The bounce is kept in quarantine with its reason on top. */
	snprintf(path, sizeof(path), "%s/new", set.quarantine);
	ck_assert_int_eq(count_files(path), 1);
	d = opendir(path);
	while ((de = readdir(d)) != NULL && de->d_name[0] == '.')
		;
	ck_assert_ptr_nonnull(de);
	snprintf(path, sizeof(path), "%s/new/%s", set.quarantine, de->d_name);
	closedir(d);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(raw, sizeof(raw), f));
	fclose(f);
	ck_assert_ptr_nonnull(q = strstr(raw, "X-Pbem-Quarantine-Reason: "
	    "bounce"));
	ck_assert_int_eq(acting(&next) != seat || next > 1, 1);
}
END_TEST

/* ---- Rendering and sending ---------------------------------------------- */

static struct tpl_set *
templates(void)
{
	const char *top = getenv("top_srcdir");
	char dir[600], err[512];
	struct tpl_set *t;

	snprintf(dir, sizeof(dir), "%s/templates", top != NULL ? top : ".");
	t = templates_load(dir, err, sizeof(err));
	ck_assert_msg(t != NULL, "%s", err);
	return t;
}

/* The ids of the cards in seat's hand, from its own view. */
static int
hand_ids(int seat, char ids[][8], int max)
{
	struct gamestate gs;
	json_t *view, *hand, *card;
	char err[256];
	size_t i;
	int n = 0;

	ck_assert_int_eq(gamestate_load(env.st, game, -1, &gs, err,
	    sizeof(err)), ENGINE_OK);
	view = gamestate_view(&gs, seat);
	hand = json_object_get(view, "hand");
	json_array_foreach(hand, i, card) {
		const char *id = json_string_value(json_object_get(card, "id"));
		if (id != NULL && n < max)
			snprintf(ids[n++], 8, "%s", id);
	}
	json_decref(view);
	gamestate_clear(&gs);
	return n;
}

/* Read every file of the Maildir outbox. */
static char *
read_outbox_files(int *count)
{
	char path[1000], line[4096];
	struct sbuf all = { NULL, 0 };
	struct dirent *de;
	DIR *d;
	FILE *f;

	*count = 0;
	snprintf(path, sizeof(path), "%s/new", set.maildir_out);
	ck_assert_ptr_nonnull(d = opendir(path));
	sb_str(&all, "");
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/new/%s", set.maildir_out,
		    de->d_name);
		ck_assert_ptr_nonnull(f = fopen(path, "r"));
		sb_str(&all, "\n=====MAIL=====\n");
		while (fgets(line, sizeof(line), f) != NULL)
			sb_str(&all, line);
		fclose(f);
		(*count)++;
	}
	closedir(d);
	return all.d;
}

/* Every mail goes to one seat and shows no card of the other's hand. */
START_TEST(test_send_no_leak)
{
	struct tpl_set *tpl = templates();
	struct engine_reply reply;
	struct mail_result r;
	char ids[2][16][8], *all, *mailp, *end, raw[256];
	int nids[2], n, seat, s, i, k, handled, checked = 0, named = 0;
	int64_t next, pending;

	/* A few moves by mail and by the engine, a STATUS and a refusal. */
	for (k = 0; k < 3; k++) {
		seat = acting(&next);
		testenv_play(&env, game, next, seat,
		    "draw galaxy, discard drawn", &reply);
		ck_assert_int_eq(reply.status, ENGINE_OK);
		engine_reply_clear(&reply);
	}
	ingest_file("status-signed.eml", "s1", &r);
	ck_assert_int_eq(r.outcome, MAIL_COMMAND);
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <h@x>\n\nhelp\n",
	    email(0));
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	handled = mail_sender_run_once(env.st, tpl, &set, 1000);
	ck_assert_int_ge(handled, 8);
	ck_assert_int_eq(store_outbox_pending(env.st, &pending), STORE_OK);
	ck_assert_int_eq(pending, 0);

	/* Cards held now; earlier mails showed earlier hands, so check
	 * against the hands at each mail's own move instead: every mail
	 * names its seat in the body ("seat N" / "siège N"). */
	for (s = 0; s < 2; s++)
		nids[s] = hand_ids(s, ids[s], 16);
	all = read_outbox_files(&n);
	ck_assert_int_ge(n, 8);
	/* The newest mails (status) use the current hands. */
	mailp = all;
	while ((mailp = strstr(mailp, "=====MAIL=====")) != NULL) {
		mailp += 14;
		end = strstr(mailp, "=====MAIL=====");
		if (end != NULL)
			*end = '\0';
		ck_assert_ptr_nonnull(strstr(mailp, "Auto-Submitted: auto-"));
		ck_assert_ptr_nonnull(strstr(mailp, "Message-Id: <pbem."));
		ck_assert_ptr_nonnull(strstr(mailp, "charset=utf-8"));
		/* A French subject is RFC 2047 encoded: "=?UTF-8?B?w6l0YXQg
		 * YXByw6hz?=" is "état après". */
		if (strstr(mailp, "status after move") != NULL ||
		    strstr(mailp, "=C3=A9tat apr") != NULL ||
		    strstr(mailp, "tat apr") != NULL ||
		    strstr(mailp, "w6l0YXQgYXByw6hz") != NULL) {
			s = strstr(mailp, "To: p0@") != NULL ? 0 : 1;
			for (i = 0; i < nids[1 - s]; i++)
				ck_assert_msg(strstr(mailp, ids[1 - s][i]) ==
				    NULL, "status mail to seat %d shows %s of "
				    "seat %d", s, ids[1 - s][i], 1 - s);
			for (i = 0; i < nids[s]; i++)
				ck_assert_ptr_nonnull(strstr(mailp,
				    ids[s][i]));
			checked++;
		}
		/* An English mail's table names each seat's player. */
		if (strstr(mailp, "To: p0@") != NULL &&
		    strstr(mailp, "Players:") != NULL) {
			ck_assert_msg(strstr(mailp, "p0 (seat 0)") != NULL &&
			    strstr(mailp, "p1 (seat 1)") != NULL, "a table "
			    "without the players' names:\n%s", mailp);
			named++;
		}
		if (end != NULL)
			*end = '=';
		else
			break;
	}
	ck_assert_int_ge(named, 1);
	/* The STATUS answer was among them, so the check above ran. */
	ck_assert_int_ge(checked, 1);
	free(all);
	templates_free(tpl);
}
END_TEST

/* A new game's first mails go out: "your turn" to the seat to act, "the
 * game begins" to the other, each to its own player's address. */
START_TEST(test_opening_mail_sent)
{
	struct tpl_set *tpl = templates();
	char *all, *mailp, *end, to[64];
	int n, seat, turns = 0, begins = 0;
	int64_t next;

	seat = acting(&next);
	ck_assert_int_eq(next, 1);
	ck_assert_int_eq(mail_sender_run_once(env.st, tpl, &set, 100), 2);
	all = read_outbox_files(&n);
	ck_assert_int_eq(n, 2);
	snprintf(to, sizeof(to), "To: %s", email(seat));
	mailp = all;
	while ((mailp = strstr(mailp, "=====MAIL=====")) != NULL) {
		mailp += 14;
		if ((end = strstr(mailp, "=====MAIL=====")) != NULL)
			*end = '\0';
		/* Player 1 reads French: either language's subject. */
		if (strstr(mailp, "your turn (move 1)") != NULL ||
		    strstr(mailp, "vous de jouer (coup") != NULL) {
			ck_assert_ptr_nonnull(strstr(mailp, to));
			ck_assert_ptr_nonnull(strstr(mailp, "-n 1 -s"));
			turns++;
		} else if (strstr(mailp, "the game begins") != NULL ||
		    strstr(mailp, "la partie commence") != NULL) {
			ck_assert_ptr_null(strstr(mailp, to));
			begins++;
		}
		if (end == NULL)
			break;
		*end = '=';
	}
	ck_assert_int_eq(turns, 1);
	ck_assert_int_eq(begins, 1);
	free(all);
	templates_free(tpl);
}
END_TEST

/* Counts the pending mail rows already tried once (for the test below). */
static int
count_retried(const struct store_outbox *o, void *arg)
{
	int *n = arg;

	if (o->attempts == 1 && strstr(o->last_error, "/new") != NULL)
		(*n)++;
	return 0;
}

/* The Maildir batch is made durable before its rows are marked sent: when
 * new/ cannot take the messages, no row is marked, nothing is left in
 * tmp/, and both rows wait for a retry. */
START_TEST(test_maildir_batch_not_durable)
{
	struct tpl_set *tpl = templates();
	char path[700];
	struct dirent *de;
	int retried = 0, left = 0;
	DIR *d;
	FILE *f;

	ck_assert_int_eq(maildir_make(set.maildir_out, path, sizeof(path)),
	    0);
	snprintf(path, sizeof(path), "%s/new", set.maildir_out);
	ck_assert_int_eq(rmdir(path), 0);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));	/* not a folder */
	fclose(f);
	ck_assert_int_eq(mail_sender_run_once(env.st, tpl, &set, 100), 2);
	ck_assert_int_eq(store_outbox_due_channel(env.st, "mail",
	    (int64_t)time(NULL) + 1000000, 100, count_retried, &retried),
	    STORE_OK);
	ck_assert_int_eq(retried, 2);
	snprintf(path, sizeof(path), "%s/tmp", set.maildir_out);
	ck_assert_ptr_nonnull(d = opendir(path));
	while ((de = readdir(d)) != NULL)
		left += de->d_name[0] != '.';
	closedir(d);
	ck_assert_int_eq(left, 0);
	templates_free(tpl);
}
END_TEST

/* An unsigned HELP whose subject names a game gets, after the mail
 * help, the game's own rules from the public view. */
START_TEST(test_help_names_game)
{
	struct tpl_set *tpl = templates();
	struct mail_result r;
	char *all, *mailp, *end, tag[32];
	int n, found = 0;

	ck_assert_int_eq(mail_sender_run_once(env.st, tpl, &set, 100), 2);
	ingest_file("help.eml", "g", &r);
	ck_assert_int_eq(r.outcome, MAIL_COMMAND);
	ck_assert_int_eq(mail_sender_run_once(env.st, tpl, &set, 100), 1);
	all = read_outbox_files(&n);
	ck_assert_int_eq(n, 3);
	snprintf(tag, sizeof(tag), "Subject: [pbem #%lld]", (long long)game);
	mailp = all;
	while ((mailp = strstr(mailp, "=====MAIL=====")) != NULL) {
		mailp += 14;
		if ((end = strstr(mailp, "=====MAIL=====")) != NULL)
			*end = '\0';
		if (strstr(mailp, "how to play by mail") != NULL ||
		    strstr(mailp, "jouer par courriel") != NULL) {
			ck_assert_ptr_nonnull(strstr(mailp, tag));
			ck_assert_msg(strstr(mailp, "how to play (game") !=
			    NULL || strstr(mailp, "comment jouer (partie") !=
			    NULL, "no game rules in the help mail:\n%s", mailp);
			/* From the acting seat's own address: what that seat
			 * may play now, never "waiting for" it (item 7).  The
			 * French body is quoted-printable: no accents sought. */
			ck_assert_msg(strstr(mailp, "  - draw galaxy, discard") !=
			    NULL || strstr(mailp, "  - piocher galaxie, d") !=
			    NULL, "no move forms for the "
			    "sender's seat:\n%s", mailp);
			ck_assert_msg(strstr(mailp, "none now: waiting for") ==
			    NULL &&
			    strstr(mailp, "doit jouer") == NULL, "the sender's "
			    "seat is told to wait for itself:\n%s", mailp);
			found++;
		}
		if (end == NULL)
			break;
		*end = '=';
	}
	ck_assert_int_eq(found, 1);
	free(all);
	templates_free(tpl);
}
END_TEST

/* Rows that can never be rendered fail at once, saying why. */
START_TEST(test_render_bad_rows)
{
	static const struct {
		const char	*event;
		const char	*payload;	/* %lld: the game */
		const char	*why;
	} rows[] = {
		{ "your_turn", "{\"game\": %lld, \"seq\": 0}",
		    "payload names no game, sequence number and seat" },
		{ "update", "{\"game\": %lld, \"seq\": 0, \"seat\": 7}",
		    "has no player in seat 7" },
		{ "reminder", "{\"game\": 0, \"seq\": 0, \"seat\": 0}",
		    "payload names no game, sequence number and seat" },
		{ "observer_update", "{\"game\": %lld, \"seq\": 0, "
		    "\"lang\": \"en\"}", "must name the public viewer" },
		{ "observer_update", "{\"seq\": 0, \"viewer\": "
		    "\"public\"}", "names no game, sequence number and viewer" },
	};
	struct tpl_set *tpl = templates();
	struct store_outbox o;
	struct mail_out m;
	char payload[256], err[512];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&o, 0, sizeof(o));
		o.id = 100 + (int64_t)i;
		snprintf(o.recipient, sizeof(o.recipient), "%s", email(0));
		snprintf(o.event, sizeof(o.event), "%s", rows[i].event);
		snprintf(payload, sizeof(payload), rows[i].payload,
		    (long long)game);
		o.payload = payload;
		err[0] = '\0';
		ck_assert_int_eq(mail_render(env.st, tpl, &set, &o, &m, err,
		    sizeof(err)), MAIL_RENDER_FAIL);
		ck_assert_msg(strstr(err, rows[i].why) != NULL, "%s %s: \"%s\"",
		    rows[i].event, payload, err);
	}
	templates_free(tpl);
}
END_TEST

static int64_t
sql_count(const char *sql)
{
	sqlite3_stmt *s;
	int64_t n = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(store_test_db(env.st), sql, -1, &s,
	    NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* Over mail_send_per_hour, a mail waits for the next hour, and the
 * queue (`pbemctl outbox') says until when as a date, not a count of
 * seconds. */
START_TEST(test_send_cap_deferred)
{
	struct tpl_set *tpl = templates();

	set.send_per_hour = 1;
	ck_assert_int_eq(sqlite3_exec(store_test_db(env.st), "INSERT INTO "
	    "outbox (game_id, seq, channel, recipient, event, payload, "
	    "next_attempt, created) SELECT game_id, seq, channel, recipient, "
	    "event, payload, next_attempt, created FROM outbox ORDER BY id "
	    "LIMIT 1", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(mail_sender_run_once(env.st, tpl, &set, 100), 3);
	ck_assert_int_eq(sql_count("SELECT count(*) FROM outbox WHERE status "
	    "= 0 AND last_error GLOB 'deferred: * already had 1 mails this "
	    "hour (mail_send_per_hour); sent after "
	    "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]"
	    ":[0-9][0-9]Z'"), 1);
	templates_free(tpl);
}
END_TEST

START_TEST(test_send_failures)
{
	struct tpl_set *tpl = templates();
	struct store_outbox o;
	char err[128];

	/* The game's opening mails are not this test's: sent already. */
	ck_assert_int_eq(testenv_sql(&env, "UPDATE outbox SET status = 1"),
	    0);
	/* A row with no recipient: failed at once, never retried. */
	memset(&o, 0, sizeof(o));
	o.game_id = game;
	snprintf(o.channel, sizeof(o.channel), "mail");
	snprintf(o.event, sizeof(o.event), "your_turn");
	o.payload = "{\"game\":1,\"seq\":0,\"seat\":0}";
	ck_assert_int_eq(store_outbox_add(env.st, &o), STORE_OK);
	/* A row for an SMTP server that is not there (port 9). */
	snprintf(o.recipient, sizeof(o.recipient), "%s", email(0));
	ck_assert_int_eq(store_outbox_add(env.st, &o), STORE_OK);
	/* Another channel's row is never touched by the mail sender. */
	snprintf(o.channel, sizeof(o.channel), "webhook");
	ck_assert_int_eq(store_outbox_add(env.st, &o), STORE_OK);
	ck_assert_int_eq(mail_settings_set(&set, "smtp_url",
	    "smtp://127.0.0.1:9", err, sizeof(err)), 0);
	ck_assert_int_eq(mail_settings_set(&set, "max_attempts", "2", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(mail_settings_set(&set, "admin", "admin@example.org",
	    err, sizeof(err)), 0);
	ck_assert_int_eq(mail_settings_set(&set, "timeout", "2", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(mail_sender_run_once(env.st, tpl, &set, 10), 2);
	ck_assert_int_eq(sql_count("SELECT count(*) FROM outbox WHERE "
	    "recipient = '' AND status = 2 AND attempts = 1 AND last_error "
	    "LIKE '%no mail address%'"), 1);
	ck_assert_int_eq(sql_count("SELECT count(*) FROM outbox WHERE "
	    "channel = 'mail' AND recipient = 'p0@example.org' AND status = 0 "
	    "AND attempts = 1 AND next_attempt > strftime('%s','now') + 30"),
	    1);
	ck_assert_int_eq(sql_count("SELECT count(*) FROM outbox WHERE "
	    "event = 'admin_report' AND recipient = 'admin@example.org'"), 1);
	/* The report is due now and fails like the rest; the retried row
	 * is not due before its backoff. */
	ck_assert_int_eq(mail_sender_run_once(env.st, tpl, &set, 10), 1);
	ck_assert_int_eq(testenv_sql(&env, "UPDATE outbox SET next_attempt "
	    "= 0 WHERE status = 0"), 0);
	/* Second failures: max_attempts reached, failed for good; the row
	 * is reported, the report itself is not. */
	ck_assert_int_eq(mail_sender_run_once(env.st, tpl, &set, 10), 2);
	ck_assert_int_eq(sql_count("SELECT count(*) FROM outbox WHERE "
	    "event = 'admin_report' AND payload LIKE '%127.0.0.1:9%'"), 1);
	ck_assert_int_eq(sql_count("SELECT count(*) FROM outbox WHERE "
	    "channel = 'mail' AND status = 2"), 3);
	ck_assert_int_eq(sql_count("SELECT count(*) FROM outbox WHERE "
	    "channel = 'webhook' AND status = 0 AND attempts = 0"), 1);
	templates_free(tpl);
}
END_TEST


/* ---- Limits: what hostile mail may cost (issue 14) ------------------------ */

/* The peak resident size of this process so far, in KiB. */
static long
peak_rss_kib(void)
{
	struct rusage ru;

	ck_assert_int_eq(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_maxrss;
}

/* The first line of the one message in the quarantine (its reason), or
 * "" when the quarantine is empty; *size gets the file's size. */
static void
quarantined_first_line(char *line, size_t size, off_t *filesize)
{
	char path[1000];
	struct dirent *de;
	struct stat sb;
	DIR *d;
	FILE *f;

	line[0] = '\0';
	snprintf(path, sizeof(path), "%s/new", set.quarantine);
	if ((d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && de->d_name[0] == '.')
		;
	if (de != NULL) {
		snprintf(path, sizeof(path), "%s/new/%s", set.quarantine,
		    de->d_name);
		ck_assert_int_eq(stat(path, &sb), 0);
		if (filesize != NULL)
			*filesize = sb.st_size;
		ck_assert_ptr_nonnull(f = fopen(path, "r"));
		if (fgets(line, (int)size, f) == NULL)
			line[0] = '\0';
		fclose(f);
	}
	closedir(d);
}

START_TEST(test_html_quote_depth)
{
	struct sbuf html = { NULL, 0 }, want = { NULL, 0 };
	size_t n;
	char *t;
	int i;

	sb_str(&html, "");
	sb_repeat(&html, "<blockquote>", 40);
	sb_str(&html, "deep<br>line");
	sb_str(&want, "\n");
	for (i = 0; i < MAIL_HTML_QUOTE_MAX; i++)
		sb_str(&want, "> ");
	sb_str(&want, "line");
	t = mail_html_to_text(html.d, html.n, 1 << 20, &n);
	ck_assert_ptr_nonnull(t);
	/* Deeper levels are shown as the deepest one kept. */
	ck_assert_msg(strstr(t, want.d) != NULL, "%s", t);
	ck_assert_ptr_null(strstr(t, "> > > > > > > > > > > > > > > > > "));
	free(t);
	/* Over the limit: no text at all, not a truncated one. */
	ck_assert_ptr_null(mail_html_to_text(html.d, html.n, 64, &n));
	free(html.d);
	free(want.d);
}
END_TEST

/*
 * The quote bomb of issue 14: an HTML-only mail of 2,000 nested
 * <blockquote> inside <pre>, then 100,000 line breaks, each of which
 * used to write the whole quoting again (400 MB of text).  Through the
 * Maildir watcher's path: quarantined with its reason, nobody answered,
 * in memory proportional to the message.
 */
START_TEST(test_html_quote_bomb)
{
	struct sbuf raw = { NULL, 0 };
	char err[256], line[1024];
	long before, after;
	int64_t replies;

	sb_str(&raw, "From: stranger@example.net\nMessage-ID: <bomb@x>\n"
	    "MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n"
	    "<pre>");
	sb_repeat(&raw, "<blockquote>", 2000);
	sb_repeat(&raw, "\n", 100000);
	sb_str(&raw, "</pre>\n");
	ck_assert_int_eq(maildir_put(set.maildir_in, "bomb", NULL, raw.d,
	    raw.n, err, sizeof(err)), 0);
	replies = outbox_count(NULL, NULL, NULL, 0);
	before = peak_rss_kib();
	ck_assert_int_eq(maildir_scan(&ctx, set.maildir_in), 1);
	after = peak_rss_kib();
	ck_assert_msg(after - before < 64 * 1024, "peak RSS grew by %ld KiB "
	    "for a message of %zu bytes", after - before, raw.n);
	quarantined_first_line(line, sizeof(line), NULL);
	ck_assert_msg(strstr(line, "X-Pbem-Quarantine-Reason: ") == line &&
	    strstr(line, "HTML") != NULL, "quarantine: \"%s\"", line);
	ck_assert_int_eq(outbox_count(NULL, NULL, NULL, 0), replies);
	free(raw.d);
}
END_TEST

/* Many tiny MIME parts or header lines cost GMime a hundred times their
 * bytes (a 4 MB message of empty parts took 1 GB): refused before the
 * MIME parse, in memory proportional to the message. */
START_TEST(test_mime_structure_bomb)
{
	struct sbuf raw = { NULL, 0 };
	struct mail_result r;
	long before, after;
	int kind;

	for (kind = 0; kind < 2; kind++) {
		raw.n = 0;
		sb_str(&raw, kind == 0 ? "From: stranger@example.net\n"
		    "Content-Type: multipart/mixed; boundary=b\n\n" :
		    "From: stranger@example.net\n");
		sb_repeat(&raw, kind == 0 ? "--b\n\n" : "X-A: b\n", 200000);
		sb_str(&raw, "\nhelp\n");
		before = peak_rss_kib();
		mail_ingest(&ctx, raw.d, raw.n, NULL, &r);
		after = peak_rss_kib();
		ck_assert_msg(after - before < 64 * 1024, "%s: peak RSS grew "
		    "by %ld KiB for a message of %zu bytes", kind == 0 ?
		    "parts" : "headers", after - before, raw.n);
		ck_assert_msg(r.outcome == MAIL_QUARANTINED && strstr(r.reason,
		    "header or boundary lines") != NULL, "%s: %s",
		    mail_outcome_name(r.outcome), r.reason);
		ck_assert_int_eq(r.replied, 0);
	}
	free(raw.d);
}
END_TEST

/*
 * A message whose processing was interrupted (pbemd killed by the OOM
 * killer, a crash) is not read again: on the next start it goes to the
 * quarantine, unparsed.  Here the row a first reading leaves in
 * mail_attempt (keyed by the BLAKE2b-256 of the bytes) stands for the
 * killed daemon.
 */
START_TEST(test_interrupted_quarantined)
{
	const char *raw = "From: stranger@example.net\nMessage-ID: <killed@x>"
	    "\n\nhelp\n";
	unsigned char hash[32];
	char err[256], hex[65], sql[256], line[1024], *msg = NULL;
	int64_t replies;

	ck_assert_int_eq(maildir_put(set.maildir_in, "killed", NULL, raw,
	    strlen(raw), err, sizeof(err)), 0);
	crypto_generichash(hash, sizeof(hash), (const void *)raw, strlen(raw),
	    NULL, 0);
	proto_hex(hash, sizeof(hash), hex);
	snprintf(sql, sizeof(sql), "INSERT INTO mail_attempt (content_hash, "
	    "started, pid) VALUES ('%s', 1700000000, 4242)", hex);
	ck_assert_msg(sqlite3_exec(store_test_db(env.st), sql, NULL, NULL,
	    &msg) == SQLITE_OK, "%s", msg != NULL ? msg : "");
	replies = outbox_count(NULL, NULL, NULL, 0);
	ck_assert_int_eq(maildir_scan(&ctx, set.maildir_in), 1);
	quarantined_first_line(line, sizeof(line), NULL);
	ck_assert_msg(strstr(line, "interrupted") != NULL, "quarantine: "
	    "\"%s\"", line);
	ck_assert_int_eq(outbox_count(NULL, NULL, NULL, 0), replies);
	ck_assert_int_eq(sql_count("SELECT count(*) FROM mail_attempt"), 0);
	/* Filed: the next scan finds nothing more to do. */
	ck_assert_int_eq(maildir_scan(&ctx, set.maildir_in), 0);
	/* The same bytes delivered again later are handled normally. */
	ck_assert_int_eq(maildir_put(set.maildir_in, "again", NULL, raw,
	    strlen(raw), err, sizeof(err)), 0);
	ck_assert_int_eq(maildir_scan(&ctx, set.maildir_in), 1);
	ck_assert_int_eq(outbox_count("mail_help", "stranger@example.net",
	    NULL, 0), 1);
}
END_TEST

/* Forged From: mails spend their own budget, not the real player's: a
 * signed STATUS is still answered after many forged mails. */
START_TEST(test_forged_from_budget)
{
	char err[64], raw[4096], status[PROTO_ARMOUR_MAX];
	struct mail_result r;
	int64_t next;
	int seat = acting(&next), i;

	ck_assert_int_eq(mail_settings_set(&set, "rate_max", "3", err,
	    sizeof(err)), 0);
	for (i = 0; i < 5; i++) {
		snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <forged%d@x>"
		    "\n\nhelp\n", email(seat), i);
		mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
		ck_assert_int_eq(r.outcome, MAIL_COMMAND);
		ck_assert_int_eq(r.replied, i < 3);
	}
	testenv_block(&env, seat, game, next, seat, "STATUS", status,
	    sizeof(status));
	snprintf(raw, sizeof(raw), "From: %s\nMessage-ID: <real@x>\n\n%s",
	    email(seat), status);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_msg(r.outcome == MAIL_COMMAND && r.replied, "%s: %s",
	    mail_outcome_name(r.outcome), r.reason);
	ck_assert_int_eq(outbox_count("status", email(seat), NULL, 0), 1);
}
END_TEST

/* A file in the Maildir over max_size is moved to the quarantine
 * without being read (a sparse 300 MB file: no disk, and reading it
 * would show in the peak RSS); its reason is written beside it. */
START_TEST(test_oversized_unread)
{
	char err[256], path[1000], line[1024];
	off_t size = 0, big = (off_t)300 << 20;
	struct dirent *de;
	long before, after;
	FILE *f;
	DIR *d;
	int fd;

	ck_assert_int_eq(maildir_make(set.maildir_in, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/new/1.huge.host", set.maildir_in);
	ck_assert_int_ge(fd = open(path, O_WRONLY | O_CREAT, 0600), 0);
	ck_assert_int_eq(ftruncate(fd, big), 0);
	close(fd);
	before = peak_rss_kib();
	ck_assert_int_eq(maildir_scan(&ctx, set.maildir_in), 1);
	after = peak_rss_kib();
	ck_assert_msg(after - before < 64 * 1024, "peak RSS grew by %ld KiB",
	    after - before);
	snprintf(path, sizeof(path), "%s/new", set.maildir_in);
	ck_assert_int_eq(count_files(path), 0);
	quarantined_first_line(line, sizeof(line), &size);
	ck_assert_msg(size == big, "quarantined %lld bytes", (long long)size);
	/* The reason, beside it under the same name. */
	snprintf(path, sizeof(path), "%s/reasons", set.quarantine);
	ck_assert_int_eq(count_files(path), 1);
	ck_assert_ptr_nonnull(d = opendir(path));
	while ((de = readdir(d)) != NULL && de->d_name[0] == '.')
		;
	ck_assert_ptr_nonnull(de);
	snprintf(path, sizeof(path), "%s/new/%s", set.quarantine, de->d_name);
	ck_assert_int_eq(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/reasons/%s", set.quarantine,
	    de->d_name);
	closedir(d);
	ck_assert_ptr_nonnull(f = fopen(path, "r"));
	ck_assert_int_eq(fread(line, 1, sizeof(line) - 1, f) > 0, 1);
	line[sizeof(line) - 1] = '\0';
	fclose(f);
	ck_assert_msg(strstr(line, "X-Pbem-Quarantine-Reason: message too "
	    "large") == line, "%s", line);
	ck_assert_ptr_nonnull(strstr(line, "X-Pbem-Original-Name: "
	    "1.huge.host\n"));
}
END_TEST

/* No control character of an incoming header reaches the log, the
 * store or an outgoing mail's headers. */
static int
has_control(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\r' &&
		    *s != '\t')
			return 1;
		else if (*s == 0x7f)
			return 1;
	return 0;
}

START_TEST(test_control_characters)
{
	const char *raw = "From: \"Eve\x1b[2J\" <eve@example.net>\n"
	    "Subject: help\x07\x1b[31m\nMessage-ID: <a\x01\x1b[31mb@x>\n"
	    "\nhelp\n";
	struct tpl_set *tpl = templates();
	char payload[1024], err[256], *all;
	struct mail_result r;
	struct mail_msg m;
	int n;

	ck_assert_int_eq(mail_parse(raw, strlen(raw), &m, err, sizeof(err)),
	    0);
	ck_assert_msg(!has_control(m.subject), "subject \"%s\"", m.subject);
	ck_assert_msg(!has_control(m.message_id), "id \"%s\"", m.message_id);
	ck_assert_str_eq(m.from, "eve@example.net");
	mail_msg_clear(&m);
	mail_ingest(&ctx, raw, strlen(raw), NULL, &r);
	ck_assert_msg(r.outcome == MAIL_COMMAND, "%s: %s",
	    mail_outcome_name(r.outcome), r.reason);
	ck_assert_msg(!has_control(r.message_id), "id \"%s\"", r.message_id);
	ck_assert_msg(!has_control(r.reason), "reason \"%s\"", r.reason);
	ck_assert_int_eq(outbox_count("mail_help", "eve@example.net", payload,
	    sizeof(payload)), 1);
	ck_assert_msg(strstr(payload, "\\u001b") == NULL && strstr(payload,
	    "\\u0001") == NULL, "payload %s", payload);
	ck_assert_int_ge(mail_sender_run_once(env.st, tpl, &set, 100), 1);
	all = read_outbox_files(&n);
	ck_assert_ptr_nonnull(strstr(all, "To: eve@example.net"));
	ck_assert_msg(strchr(all, '\x1b') == NULL && strchr(all, '\x01') ==
	    NULL, "%s", all);
	free(all);
	templates_free(tpl);
}
END_TEST

static Suite *
mail_suite(void)
{
	Suite *s = suite_create("mail");
	TCase *tc = tcase_create("mail");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_html_to_text);
	tcase_add_test(tc, test_block_pick);
	tcase_add_test(tc, test_command_words);
	tcase_add_test(tc, test_parse_headers);
	tcase_add_test(tc, test_wrap);
	tcase_add_test(tc, test_unflow);
	tcase_add_test(tc, test_compose_wrapped_qp);
	tcase_add_test(tc, test_settings);
	tcase_add_test(tc, test_config_defaults);
	tcase_add_loop_test(tc, test_corpus, 0,
	    (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_replayed_block);
	tcase_add_test(tc, test_rejected_to_seat);
	tcase_add_test(tc, test_refusal_language);
	tcase_add_test(tc, test_signed_engine_command);
	tcase_add_test(tc, test_refused_command_current_view);
	tcase_add_test(tc, test_master_command_refused);
	tcase_add_test(tc, test_unsigned_status_in_french);
	tcase_add_test(tc, test_too_large);
	tcase_add_test(tc, test_rate_limit);
	tcase_add_test(tc, test_maildir_scan);
	tcase_add_test(tc, test_send_no_leak);
	tcase_add_test(tc, test_opening_mail_sent);
	tcase_add_test(tc, test_send_cap_deferred);
	tcase_add_test(tc, test_maildir_batch_not_durable);
	tcase_add_test(tc, test_help_names_game);
	tcase_add_test(tc, test_render_bad_rows);
	tcase_add_test(tc, test_send_failures);
	tcase_add_test(tc, test_html_quote_depth);
	tcase_add_test(tc, test_html_quote_bomb);
	tcase_add_test(tc, test_mime_structure_bomb);
	tcase_add_test(tc, test_interrupted_quarantined);
	tcase_add_test(tc, test_forged_from_budget);
	tcase_add_test(tc, test_oversized_unread);
	tcase_add_test(tc, test_control_characters);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, mail_hosted_tcase());
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(mail_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
