/*
 * mail_flowed.c -- text lines for an 80-column mail client, both ways.
 *
 * Out: mail_wrap() breaks the lines of a rendered body longer than a
 * width (78 characters, RFC 5322's advice) at spaces, each continuation
 * with a hanging indent -- the line's own leading blanks, plus two under
 * a "- " item -- so the columns of a hand table stay columns.  A word
 * longer than the line is never cut, and the lines a player copies
 * exactly are never broken: a `pbem sign ...` command and armoured
 * blocks (between "-----BEGIN" and "-----END" lines).  French spaces
 * around ; : ! ? « » never break a line (breakable()).  It runs on the
 * UTF-8 text, before GMime picks a transfer encoding, so French mail is
 * wrapped by characters and then quoted-printable encoded.
 *
 * In: mail_unflow() joins the soft line breaks of a text/plain part sent
 * with format=flowed (RFC 3676): a line ending in a space continues on
 * the next line of the same quote depth; with DelSp=yes that space is
 * deleted (so a word broken by the sender's client is made whole again);
 * a space-stuffed line loses its first space; the signature separator
 * "-- " is never flowed.  GMime 3 has no format=flowed filter (its
 * filters: basic, best, charset, checksum, dos2unix, enriched, from,
 * gzip, html, openpgp, smtp-data, strip, unix2dos, windows, yenc), hence
 * this file.
 */
#include <stdlib.h>
#include <string.h>

#include "mail.h"

/* A growing string; aborts nowhere, reports failure by NULL data. */
struct buf {
	char	*data;
	size_t	 len, cap;
};

static void
buf_add(struct buf *b, const char *s, size_t n)
{
	char	*grown;
	size_t	 cap;

	if (b->data == NULL && b->cap != 0)
		return;				/* failed before */
	if (b->len + n + 1 > b->cap) {
		cap = b->cap == 0 ? 256 : b->cap;
		while (b->len + n + 1 > cap)
			cap *= 2;
		if ((grown = realloc(b->data, cap)) == NULL) {
			free(b->data);
			b->data = NULL;
			b->cap = 1;
			return;
		}
		b->data = grown;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static char *
buf_take(struct buf *b)
{
	if (b->data == NULL && b->cap == 0)
		return strdup("");
	return b->data;
}

/* Characters (UTF-8 code points) in s[0..n). */
static size_t
columns(const char *s, size_t n)
{
	size_t	i, c = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

/* Lines that must reach the reader exactly as rendered. */
static int
keep_whole(const char *line, size_t n, int in_block)
{
	size_t	i = 0;

	if (in_block)
		return 1;
	while (i < n && line[i] == ' ')
		i++;
	return n - i >= 10 && strncmp(line + i, "pbem sign ", 10) == 0;
}

/*
 * May the line break at the space line[i]?  Not when French typography
 * ties it to its neighbour: the space before ; : ! ? and a closing
 * guillemet, and the space after an opening one, are non-breaking, so
 * no line starts with "; ...", ": ..." or "» ...", and none ends with
 * "«".
 */
static int
breakable(const char *line, size_t n, size_t i)
{
	if (i + 1 < n && strchr(";:!?", line[i + 1]) != NULL)
		return 0;
	if (i + 2 < n && strncmp(line + i + 1, "\xc2\xbb", 2) == 0)
		return 0;				/* » */
	if (i >= 2 && strncmp(line + i - 2, "\xc2\xab", 2) == 0)
		return 0;				/* « */
	return 1;
}

/* One line (without its newline) wrapped into b. */
static void
wrap_line(struct buf *b, const char *line, size_t n, size_t width)
{
	size_t	indent = 0, hang, start, end, brk, i, col;

	while (indent < n && line[indent] == ' ')
		indent++;
	hang = indent;
	if (n - indent >= 2 && (line[indent] == '-' || line[indent] == '*') &&
	    line[indent + 1] == ' ')
		hang += 2;
	if (hang * 2 > width)
		hang = width / 2;
	start = 0;
	for (;;) {
		/* From start, the most that fits in the width. */
		col = start == 0 ? 0 : hang;
		brk = 0;
		for (i = start; i < n; i++) {
			if (line[i] == ' ' && i > start &&
			    (start != 0 || i > indent) &&
			    breakable(line, n, i))
				brk = i;
			if (((unsigned char)line[i] & 0xc0) != 0x80)
				col++;
			if (col > width)
				break;
		}
		if (i >= n || brk == 0) {
			if (i < n) {
				/* A word longer than the line: keep it whole,
				 * break at the next space after it. */
				while (i < n && (line[i] != ' ' ||
				    !breakable(line, n, i)))
					i++;
				brk = i;
				if (brk >= n) {
					buf_add(b, line + start, n - start);
					return;
				}
			} else {
				buf_add(b, line + start, n - start);
				return;
			}
		}
		end = brk;
		while (end > start && line[end - 1] == ' ')
			end--;
		buf_add(b, line + start, end - start);
		buf_add(b, "\n", 1);
		start = brk;
		while (start < n && line[start] == ' ')
			start++;
		if (start >= n)
			return;
		for (i = 0; i < hang; i++)
			buf_add(b, " ", 1);
	}
}

char *
mail_wrap(const char *text, size_t width)
{
	struct buf	 b = { NULL, 0, 0 };
	const char	*line, *nl;
	size_t		 n;
	int		 in_block = 0;

	for (line = text; *line != '\0'; line = nl + 1) {
		nl = strchr(line, '\n');
		n = nl != NULL ? (size_t)(nl - line) : strlen(line);
		if (n >= 10 && strncmp(line, "-----BEGIN", 10) == 0)
			in_block = 1;
		if (columns(line, n) <= width || keep_whole(line, n, in_block))
			buf_add(&b, line, n);
		else
			wrap_line(&b, line, n, width);
		if (n >= 8 && strncmp(line, "-----END", 8) == 0)
			in_block = 0;
		if (nl == NULL)
			break;
		buf_add(&b, "\n", 1);
	}
	return buf_take(&b);
}

/* The quote depth of a line: how many '>' it starts with (RFC 3676
 * 4.5: no spaces between them in a flowed message). */
static size_t
quote_depth(const char *line, size_t n)
{
	size_t	d = 0;

	while (d < n && line[d] == '>')
		d++;
	return d;
}

char *
mail_unflow(const char *text, int delsp)
{
	struct buf	 b = { NULL, 0, 0 };
	const char	*line, *nl, *body;
	size_t		 n, depth, blen, i;
	int		 open = 0, flowed;
	size_t		 open_depth = 0;

	for (line = text; *line != '\0'; line = nl + 1) {
		nl = strchr(line, '\n');
		n = nl != NULL ? (size_t)(nl - line) : strlen(line);
		if (n > 0 && line[n - 1] == '\r')
			n--;
		depth = quote_depth(line, n);
		body = line + depth;
		blen = n - depth;
		if (blen > 0 && body[0] == ' ') {	/* space-stuffed */
			body++;
			blen--;
		}
		/* A paragraph open at another depth ends here. */
		if (open && depth != open_depth) {
			buf_add(&b, "\n", 1);
			open = 0;
		}
		if (!open) {
			for (i = 0; i < depth; i++)
				buf_add(&b, ">", 1);
			if (depth > 0)
				buf_add(&b, " ", 1);
		}
		flowed = blen > 0 && body[blen - 1] == ' ' &&
		    !(blen == 3 && strncmp(body, "-- ", 3) == 0);
		if (flowed && delsp)
			blen--;
		buf_add(&b, body, blen);
		if (flowed) {
			open = 1;
			open_depth = depth;
		} else {
			open = 0;
			if (nl != NULL)
				buf_add(&b, "\n", 1);
		}
		if (nl == NULL)
			break;
	}
	if (open)
		buf_add(&b, "\n", 1);
	return buf_take(&b);
}
