/*
 * mail_parse.c -- a message -> the headers the gateway reads and the
 * UTF-8 text to search for a signed block.  GMime does the MIME: the
 * structure, transfer encodings, charsets and RFC 2047 headers.  Only
 * the HTML-to-text step is ours (GMime has none): it need only keep the
 * lines of a block and the quoting around them.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>

#include "mail.h"

/* A growing UTF-8 buffer of at most max bytes (without its NUL). */
struct text {
	char	*data;
	size_t	 len, cap;
	size_t	 max;
	int	 failed;	/* out of memory */
	int	 over;		/* would have grown past max */
};

static void
text_add(struct text *t, const char *s, size_t n)
{
	char *grown;
	size_t cap;

	if (t->failed || t->over)
		return;
	if (n > t->max - t->len) {
		t->over = 1;
		return;
	}
	if (t->len + n + 1 > t->cap) {
		cap = t->cap ? t->cap : 1024;
		while (cap < t->len + n + 1)
			cap *= 2;
		if ((grown = realloc(t->data, cap)) == NULL) {
			t->failed = 1;
			return;
		}
		t->data = grown;
		t->cap = cap;
	}
	memcpy(t->data + t->len, s, n);
	t->len += n;
	t->data[t->len] = '\0';
}

static void
text_str(struct text *t, const char *s)
{
	text_add(t, s, strlen(s));
}

/* ---- HTML to text ------------------------------------------------------- */

static const struct {
	const char	*name;
	const char	*utf8;
} entities[] = {
	{ "amp", "&" }, { "lt", "<" }, { "gt", ">" }, { "quot", "\"" },
	{ "apos", "'" }, { "nbsp", " " }, { "eacute", "\xc3\xa9" },
	{ "egrave", "\xc3\xa8" }, { "agrave", "\xc3\xa0" },
	{ "ccedil", "\xc3\xa7" }, { "ecirc", "\xc3\xaa" },
	{ NULL, NULL }
};

/* Append the code point c as UTF-8 (invalid ones as '?'). */
static void
add_codepoint(struct text *t, unsigned long c)
{
	char buf[8];
	int n;

	if (c == 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		c = '?';
	n = g_unichar_to_utf8((gunichar)c, buf);
	text_add(t, buf, (size_t)n);
}

/* Decode the entity at s (after '&'); returns bytes consumed after '&',
 * 0 if it is not one (the '&' is then kept as is). */
static size_t
entity(struct text *t, const char *s, size_t n)
{
	size_t i, k;
	unsigned long c = 0;
	int hex;

	if (n > 0 && s[0] == '#') {
		hex = n > 1 && (s[1] == 'x' || s[1] == 'X');
		for (i = hex ? 2 : 1; i < n && i < 10; i++) {
			int d = g_ascii_xdigit_value(s[i]);
			if (!hex && !g_ascii_isdigit(s[i]))
				break;
			if (d < 0)
				break;
			c = c * (hex ? 16 : 10) + (unsigned long)d;
		}
		if (i == (hex ? 2u : 1u) || i >= n || s[i] != ';')
			return 0;
		add_codepoint(t, c);
		return i + 1;
	}
	for (k = 0; entities[k].name != NULL; k++) {
		size_t l = strlen(entities[k].name);
		if (l < n && strncmp(s, entities[k].name, l) == 0 &&
		    s[l] == ';') {
			text_str(t, entities[k].utf8);
			return l + 1;
		}
	}
	return 0;
}

/* The tag name at s (after '<' and an optional '/'), lower-cased. */
static void
tag_name(const char *s, size_t n, char *name, size_t size)
{
	size_t i;

	for (i = 0; i < n && i + 1 < size && g_ascii_isalnum(s[i]); i++)
		name[i] = g_ascii_tolower(s[i]);
	name[i] = '\0';
}

static int
is_block_tag(const char *name)
{
	static const char *const blocks[] = { "br", "p", "div", "tr", "li",
	    "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol",
	    "blockquote", "hr", NULL };
	int i;

	for (i = 0; blocks[i] != NULL; i++)
		if (strcmp(name, blocks[i]) == 0)
			return 1;
	return 0;
}

/* Start a new line, with the current quoting: at most
 * MAIL_HTML_QUOTE_MAX levels are written, deeper ones look like the
 * deepest kept (a block is never played from inside a quote, so only
 * "quoted or not" matters; see mail_block_pick()). */
static void
new_line(struct text *t, int depth, int *at_start)
{
	int i;

	text_add(t, "\n", 1);
	for (i = 0; i < depth && i < MAIL_HTML_QUOTE_MAX; i++)
		text_add(t, "> ", 2);
	*at_start = 1;
}

char *
mail_html_to_text(const char *html, size_t len, size_t max, size_t *outlen)
{
	struct text t = { NULL, 0, 0, max, 0, 0 };
	char name[16];
	size_t i = 0, used, end;
	int depth = 0, closing, at_start = 1, skip = 0, pre = 0;

	text_add(&t, "", 0);
	while (i < len && !t.failed && !t.over) {
		char c = html[i];

		if (c == '<') {
			if (len - i >= 4 && strncmp(html + i, "<!--", 4) == 0) {
				const char *e = g_strstr_len(html + i + 4,
				    (gssize)(len - i - 4), "-->");
				i = e == NULL ? len : (size_t)(e - html) + 3;
				continue;
			}
			closing = i + 1 < len && html[i + 1] == '/';
			tag_name(html + i + 1 + closing, len - i - 1 - closing,
			    name, sizeof(name));
			for (end = i + 1; end < len && html[end] != '>'; end++)
				;
			i = end < len ? end + 1 : len;
			if (strcmp(name, "script") == 0 ||
			    strcmp(name, "style") == 0) {
				skip = !closing;
				continue;
			}
			if (strcmp(name, "pre") == 0)
				pre = !closing;
			if (strcmp(name, "blockquote") == 0) {
				/* Counted past the cap, so that closing tags
				 * still match; never wraps. */
				if (closing)
					depth -= depth > 0;
				else
					depth += depth < INT_MAX;
				new_line(&t, depth, &at_start);
			} else if (is_block_tag(name))
				new_line(&t, depth, &at_start);
			continue;
		}
		if (skip) {
			i++;
			continue;
		}
		if (c == '&') {
			used = entity(&t, html + i + 1, len - i - 1);
			if (used > 0) {
				i += used + 1;
				at_start = 0;
				continue;
			}
		}
		if ((c == '\n' || c == '\r') && pre) {
			if (c == '\n')
				new_line(&t, depth, &at_start);
			i++;
			continue;
		}
		if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
			/* Whitespace collapses outside <pre>. */
			if (!at_start && t.len > 0 && t.data[t.len - 1] != ' ')
				text_add(&t, " ", 1);
			i++;
			continue;
		}
		text_add(&t, &c, 1);
		at_start = 0;
		i++;
	}
	if (t.failed || t.over) {
		free(t.data);
		return NULL;
	}
	*outlen = t.len;
	return t.data;
}

/* ---- Parts -------------------------------------------------------------- */

/* A part's text as valid UTF-8 (GMime converts from the declared charset;
 * bytes that are still invalid become U+FFFD). */
static char *
part_utf8(GMimeTextPart *part)
{
	char *text, *valid;

	text = g_mime_text_part_get_text(part);
	if (text == NULL)
		return NULL;
	if (g_utf8_validate(text, -1, NULL))
		return text;
	valid = g_utf8_make_valid(text, -1);
	g_free(text);
	return valid;
}

static int
is_type(GMimeObject *o, const char *type, const char *subtype)
{
	GMimeContentType *ct = g_mime_object_get_content_type(o);

	return ct != NULL && g_mime_content_type_is_type(ct, type, subtype);
}

static void collect(GMimeObject *o, struct text *t, int *html);

/* A text/plain part sent with format=flowed, its soft breaks joined
 * (mail_unflow, DelSp honoured); NULL for any other part. */
static char *
flowed_text(GMimeObject *o, const char *s)
{
	GMimeContentType *ct = g_mime_object_get_content_type(o);
	const char *format, *delsp;

	if (ct == NULL || !g_mime_content_type_is_type(ct, "text", "plain") ||
	    (format = g_mime_content_type_get_parameter(ct, "format")) ==
	    NULL || g_ascii_strcasecmp(format, "flowed") != 0)
		return NULL;
	delsp = g_mime_content_type_get_parameter(ct, "delsp");
	return mail_unflow(s, delsp != NULL &&
	    g_ascii_strcasecmp(delsp, "yes") == 0);
}

static void
add_part(GMimeObject *o, struct text *t, int *html)
{
	char *s, *plain;
	size_t n;

	if (t->over || t->failed)
		return;
	if ((s = part_utf8(GMIME_TEXT_PART(o))) == NULL)
		return;
	if (is_type(o, "text", "html")) {
		/* Converted within what is left of the budget. */
		plain = mail_html_to_text(s, strlen(s), t->max - t->len, &n);
		*html = 1;
		if (plain != NULL)
			text_add(t, plain, n);
		else
			t->over = 1;
		free(plain);
	} else if ((plain = flowed_text(o, s)) != NULL) {
		text_str(t, plain);
		free(plain);
	} else
		text_str(t, s);
	text_add(t, "\n", 1);
	g_free(s);
}

/* In multipart/alternative, the first text/plain (searched depth first),
 * else the first text/html. */
static GMimeObject *
pick_alternative(GMimeMultipart *mp, const char *subtype)
{
	GMimeObject *child, *found;
	int i, n = g_mime_multipart_get_count(mp);

	for (i = 0; i < n; i++) {
		child = g_mime_multipart_get_part(mp, i);
		if (GMIME_IS_MULTIPART(child)) {
			found = pick_alternative(GMIME_MULTIPART(child),
			    subtype);
			if (found != NULL)
				return found;
		} else if (GMIME_IS_TEXT_PART(child) &&
		    is_type(child, "text", subtype))
			return child;
	}
	return NULL;
}

static void
collect(GMimeObject *o, struct text *t, int *html)
{
	GMimeMultipart *mp;
	GMimeObject *alt;
	int i, n;

	if (GMIME_IS_MULTIPART(o)) {
		mp = GMIME_MULTIPART(o);
		if (is_type(o, "multipart", "alternative")) {
			if ((alt = pick_alternative(mp, "plain")) == NULL)
				alt = pick_alternative(mp, "html");
			if (alt != NULL)
				add_part(alt, t, html);
			return;
		}
		n = g_mime_multipart_get_count(mp);
		for (i = 0; i < n; i++)
			collect(g_mime_multipart_get_part(mp, i), t, html);
		return;
	}
	/* message/rfc822 (a forwarded or bounced message) is not read:
	 * a block inside it was not sent by this sender. */
	if (GMIME_IS_TEXT_PART(o) && (is_type(o, "text", "plain") ||
	    is_type(o, "text", "html")))
		add_part(o, t, html);
}

/* ---- Headers ------------------------------------------------------------ */

static void
copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src != NULL ? src : "");
}

/* The length of the control character at s (C0, DEL, or C1 written in
 * UTF-8 as C2 80..C2 9F), 0 if s starts with none. */
static size_t
control_at(const char *s)
{
	unsigned char c = (unsigned char)s[0];

	if (c < 0x20 || c == 0x7f)
		return 1;
	if (c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
	    (unsigned char)s[1] <= 0x9f)
		return 2;
	return 0;
}

void
mail_clean_text(char *s)
{
	char *out = s;
	size_t n;

	while (*s != '\0') {
		if ((n = control_at(s)) > 0) {
			*out++ = ' ';
			s += n;
		} else
			*out++ = *s++;
	}
	*out = '\0';
}

/* 1 if s may be copied into a header or a log line as one word: valid
 * UTF-8 with no control character, space, '<' or '>'. */
static int
clean_word(const char *s)
{
	if (!g_utf8_validate(s, -1, NULL))
		return 0;
	for (; *s != '\0'; s++)
		if (control_at(s) > 0 || *s == ' ' || *s == '<' || *s == '>')
			return 0;
	return 1;
}

/* src into dst if it is a clean word, else "". */
static void
copy_word(char *dst, size_t size, const char *src)
{
	copy(dst, size, src);
	if (!clean_word(dst))
		dst[0] = '\0';
}

/* The first mailbox of an address list. */
static void
first_addr(InternetAddressList *list, char *out, size_t size)
{
	InternetAddress *a;
	int i, n;

	out[0] = '\0';
	if (list == NULL)
		return;
	n = internet_address_list_length(list);
	for (i = 0; i < n; i++) {
		a = internet_address_list_get_address(list, i);
		if (INTERNET_ADDRESS_IS_MAILBOX(a)) {
			/* An address with a control character is no
			 * address: nothing is ever sent to it. */
			copy_word(out, size, internet_address_mailbox_get_addr(
			    INTERNET_ADDRESS_MAILBOX(a)));
			return;
		}
	}
}

/* The display name of the first mailbox of From: ("" if none). */
static void
first_name(InternetAddressList *list, char *out, size_t size)
{
	InternetAddress *a;
	const char *name;

	out[0] = '\0';
	if (list == NULL || internet_address_list_length(list) < 1)
		return;
	a = internet_address_list_get_address(list, 0);
	if ((name = internet_address_get_name(a)) != NULL &&
	    g_utf8_validate(name, -1, NULL))
		copy(out, size, name);
}

/* In-Reply-To and References, raw, one after the other: where a reply
 * brings back the Message-ID of the mail it answers. */
static void
threading(GMimeObject *o, struct mail_msg *m)
{
	const char *irt = g_mime_object_get_header(o, "In-Reply-To");
	const char *refs = g_mime_object_get_header(o, "References");

	snprintf(m->threading, sizeof(m->threading), "%s %s",
	    irt != NULL ? irt : "", refs != NULL ? refs : "");
}

/* Return-Path: <addr> or <>. */
static void
return_path(GMimeObject *o, struct mail_msg *m)
{
	const char *v = g_mime_object_get_header(o, "Return-Path");
	const char *lt, *gt;

	if (v == NULL)
		return;
	m->has_return_path = 1;
	while (*v == ' ' || *v == '\t')
		v++;
	lt = strchr(v, '<');
	gt = lt != NULL ? strchr(lt, '>') : NULL;
	if (lt != NULL && gt != NULL)
		snprintf(m->return_path, sizeof(m->return_path), "%.*s",
		    (int)(gt - lt - 1), lt + 1);
	else
		copy(m->return_path, sizeof(m->return_path), v);
	g_strstrip(m->return_path);
	if (!clean_word(m->return_path))
		m->return_path[0] = '\0';
}

/* A header's value, unfolded and trimmed, lower-cased. */
static void
header_word(GMimeObject *o, const char *name, char *out, size_t size)
{
	const char *v = g_mime_object_get_header(o, name);
	size_t i;

	copy(out, size, v);
	mail_clean_text(out);
	for (i = 0; out[i] != '\0'; i++)
		out[i] = g_ascii_tolower(out[i]);
	g_strstrip(out);
}

/* 1 if the line at s (n bytes, without its end) could be a header
 * line: a name of printable characters, then ':'. */
static int
may_be_header(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == ':')
			return i > 0;
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			return 0;
	}
	return 0;
}

/*
 * The lines of raw that could make GMime build an object -- a header
 * (of the message, of a part, of an attached message) or a part (a
 * boundary line starts with "--") -- counted without parsing, so never
 * fewer than GMime would make; stops counting past max.  Each costs
 * GMime a few hundred bytes, a hundred times its own size, so their
 * number is what bounds the memory of the MIME parse.
 */
static size_t
structure_lines(const char *raw, size_t len, size_t max)
{
	const char *p = raw, *end = raw + len, *eol;
	size_t n = 0;

	while (p < end && n <= max) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if ((eol - p >= 2 && p[0] == '-' && p[1] == '-') ||
		    may_be_header(p, (size_t)(eol - p)))
			n++;
		p = eol + 1;
	}
	return n;
}

int
mail_parse(const char *raw, size_t len, struct mail_msg *m, char *err,
    size_t errlen)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	GMimeObject *body;
	struct text t = { NULL, 0, 0, 0, 0, 0 };
	const char *v;
	int html = 0;

	memset(m, 0, sizeof(*m));
	if (structure_lines(raw, len, MAIL_STRUCTURE_MAX) >
	    MAIL_STRUCTURE_MAX) {
		snprintf(err, errlen, "more than %d header or boundary lines "
		    "(lines that start with \"Name:\" or \"--\"): not read",
		    MAIL_STRUCTURE_MAX);
		return -1;
	}
	stream = g_mime_stream_mem_new_with_byte_array(
	    g_byte_array_new());
	g_mime_stream_write(stream, raw, len);
	g_mime_stream_seek(stream, 0, GMIME_STREAM_SEEK_SET);
	parser = g_mime_parser_new_with_stream(stream);
	g_object_unref(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	if (msg == NULL) {
		snprintf(err, errlen, "not a mail message: no header could "
		    "be read");
		return -1;
	}
	/* A Message-ID with a control character is taken as none: the
	 * id made from the content stands for it in logs and replies. */
	copy_word(m->message_id, sizeof(m->message_id),
	    g_mime_message_get_message_id(msg));
	first_addr(g_mime_message_get_from(msg), m->from, sizeof(m->from));
	first_addr(g_mime_message_get_reply_to(msg), m->reply_to,
	    sizeof(m->reply_to));
	return_path(GMIME_OBJECT(msg), m);
	first_name(g_mime_message_get_from(msg), m->from_name,
	    sizeof(m->from_name));
	threading(GMIME_OBJECT(msg), m);
	header_word(GMIME_OBJECT(msg), "Content-Language", m->language,
	    sizeof(m->language));
	if (m->language[0] == '\0')
		header_word(GMIME_OBJECT(msg), "Accept-Language", m->language,
		    sizeof(m->language));
	copy(m->subject, sizeof(m->subject), g_mime_message_get_subject(msg));
	if (!g_utf8_validate(m->subject, -1, NULL)) {
		char *valid = g_utf8_make_valid(m->subject, -1);
		copy(m->subject, sizeof(m->subject), valid);
		g_free(valid);
	}
	mail_clean_text(m->subject);
	header_word(GMIME_OBJECT(msg), "Auto-Submitted", m->auto_submitted,
	    sizeof(m->auto_submitted));
	header_word(GMIME_OBJECT(msg), "Precedence", m->precedence,
	    sizeof(m->precedence));
	body = g_mime_message_get_mime_part(msg);
	if (body != NULL && is_type(body, "multipart", "report"))
		m->is_report = 1;
	v = g_mime_object_get_header(GMIME_OBJECT(msg), "Content-Type");
	if (v != NULL && strcasestr(v, "multipart/report") != NULL)
		m->is_report = 1;
	/* The text searched is at most MAIL_TEXT_RATIO times the message
	 * plus MAIL_TEXT_SLACK: more is an attack (HTML quoting), not a
	 * move, and is refused before it costs more memory. */
	t.max = len > (SIZE_MAX - MAIL_TEXT_SLACK) / MAIL_TEXT_RATIO ?
	    SIZE_MAX - 1 : len * MAIL_TEXT_RATIO + MAIL_TEXT_SLACK;
	text_add(&t, "", 0);
	if (body != NULL)
		collect(body, &t, &html);
	g_object_unref(msg);
	if (t.failed || t.over) {
		free(t.data);
		if (t.failed)
			snprintf(err, errlen, "out of memory reading the "
			    "message");
		else
			snprintf(err, errlen, "the text of the message%s would "
			    "be larger than %zu bytes (%d times its size plus "
			    "%d KiB): not read", html ? ", once its HTML is "
			    "converted," : "", t.max, MAIL_TEXT_RATIO,
			    MAIL_TEXT_SLACK / 1024);
		return -1;
	}
	m->text = t.data;
	m->textlen = t.len;
	m->from_html = html;
	return 0;
}

void
mail_msg_clear(struct mail_msg *m)
{
	free(m->text);
	memset(m, 0, sizeof(*m));
}
