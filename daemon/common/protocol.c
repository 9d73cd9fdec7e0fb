/*
 * protocol.c -- signed moves, receipts and keys as text.
 *
 * docs/PROTOCOL.md is the specification; this file follows it section by
 * section: cleaning move text, canonical bytes and signatures, the armour
 * writer, the block reader that both finders share, and keys and hex.
 *
 * Everything that reads text is bounded: the reader walks its input once,
 * line by line, and copies field values into fixed buffers whose overflow
 * is an error, so megabytes of hostile input cost one linear scan.
 */
#include <assert.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "protocol.h"

#define ARMOUR_WIDTH	76	/* armour lines are wrapped to this width */
#define NAME_MAX_LEN	32	/* longest "Name" that reads as a field name */
#define VALUE_MAX_MOVE	(4 * PROTO_MOVE_MAX)	/* raw Move:, before cleaning */
#define VALUE_MAX	256	/* raw value of every other field */
#define BLOCK_FIELDS	6
#define EXCERPT_LEN	40	/* bytes of a bad value quoted in a message */

#define SIG_B64_LEN	(sodium_base64_ENCODED_LEN(PROTO_SIG_BYTES, \
			    sodium_base64_VARIANT_ORIGINAL) - 1)

static const char move_begin[] = "-----BEGIN PBEM MOVE-----";
static const char move_end[] = "-----END PBEM MOVE-----";
static const char receipt_begin[] = "-----BEGIN PBEM RECEIPT-----";
static const char receipt_end[] = "-----END PBEM RECEIPT-----";
static const char pubkey_tag[] = "ed25519:";
static const char seckey_tag[] = "ed25519-secret:";

static enum proto_status	vfail(enum proto_status, char *, size_t,
				    const char *, va_list)
				    __attribute__((format(printf, 4, 0)));
static enum proto_status	fail(enum proto_status, char *, size_t,
				    const char *, ...)
				    __attribute__((format(printf, 4, 5)));

static enum proto_status
vfail(enum proto_status st, char *err, size_t errlen, const char *fmt,
    va_list ap)
{
	if (err != NULL && errlen > 0)
		vsnprintf(err, errlen, fmt, ap);
	return st;
}

/* Write a message into err and return st. */
static enum proto_status
fail(enum proto_status st, char *err, size_t errlen, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vfail(st, err, errlen, fmt, ap);
	va_end(ap);
	return st;
}

/* Copy at most EXCERPT_LEN bytes of s into out for quoting in a message:
 * anything but printable ASCII becomes '?', and "..." marks a cut. */
static const char *
excerpt(const char *s, size_t n, char out[EXCERPT_LEN + 4])
{
	size_t	i;

	for (i = 0; i < n && i < EXCERPT_LEN; i++)
		out[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (n > EXCERPT_LEN) {
		memcpy(out + i, "...", 3);
		i += 3;
	}
	out[i] = '\0';
	return out;
}

/*
 * Move text.
 */

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* C0 controls (except the blanks), DEL and the C1 controls. */
static int
is_control(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f);
}

/* Decode one UTF-8 character from s (n > 0 bytes available) into *cp.
 * Returns its length, or 0 if the bytes are not well-formed UTF-8
 * (overlong forms, surrogates and code points past U+10FFFF included). */
static size_t
utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t	c, min;
	size_t		len, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2, c = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3, c = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4, c = s[0] & 0x07, min = 0x10000;
	} else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Check text and compute the length it will have once cleaned. */
static enum proto_status
text_measure(const char *text, size_t *cleanlen, char *err, size_t errlen)
{
	const unsigned char	*s = (const unsigned char *)text;
	size_t			 i, n, len, out;
	uint32_t		 cp;
	int			 pending;

	n = strlen(text);
	out = 0;
	pending = 0;
	for (i = 0; i < n; i += len) {
		len = utf8_decode(s + i, n - i, &cp);
		if (len == 0)
			return fail(PROTO_MALFORMED, err, errlen,
			    "the move text is not valid UTF-8 (byte 0x%02x "
			    "at offset %zu)", s[i], i);
		if (is_blank((int)cp)) {
			pending = out > 0;
			continue;
		}
		if (is_control(cp))
			return fail(PROTO_MALFORMED, err, errlen,
			    "the move text contains the control character "
			    "U+%04" PRIX32 " at offset %zu; only printable "
			    "text is allowed", cp, i);
		out += pending + len;
		pending = 0;
	}
	if (out == 0)
		return fail(PROTO_MALFORMED, err, errlen,
		    "the move text is empty");
	if (out > PROTO_MOVE_MAX)
		return fail(PROTO_TOO_LONG, err, errlen,
		    "the move text is %zu bytes long after cleaning; at most "
		    "%d bytes are allowed", out, PROTO_MOVE_MAX);
	*cleanlen = out;
	return PROTO_OK;
}

enum proto_status
proto_clean_text(char *text, char *err, size_t errlen)
{
	enum proto_status	 st;
	size_t			 cleanlen, r, w;
	int			 pending;

	if ((st = text_measure(text, &cleanlen, err, errlen)) != PROTO_OK)
		return st;
	w = 0;
	pending = 0;
	for (r = 0; text[r] != '\0'; r++) {
		if (is_blank((unsigned char)text[r])) {
			pending = w > 0;
			continue;
		}
		if (pending)
			text[w++] = ' ';
		text[w++] = text[r];
		pending = 0;
	}
	text[w] = '\0';
	assert(w == cleanlen);
	return PROTO_OK;
}

/* Is text, held in a buffer of cap bytes, already in cleaned form? */
static int
text_is_clean(const char *text, size_t cap)
{
	size_t	len, cleanlen;

	len = strnlen(text, cap);
	if (len == cap || strpbrk(text, "\t\r\n") != NULL)
		return 0;
	if (text_measure(text, &cleanlen, NULL, 0) != PROTO_OK)
		return 0;
	/* Without tabs or line ends, cleaning can only drop spaces. */
	return cleanlen == len;
}

/*
 * Canonical bytes and signatures.
 */

static int
header_is_valid(int64_t game_id, int64_t seq, int seat)
{
	return game_id >= 0 && seq >= 0 && seat >= 0;
}

/* Copy the n bytes of tmp into buf if they fit; the length or 0. */
static size_t
copy_out(const char *tmp, int n, unsigned char *buf, size_t buflen)
{
	if (n < 0 || (size_t)n > buflen)
		return 0;
	memcpy(buf, tmp, (size_t)n);
	return (size_t)n;
}

size_t
proto_move_canonical(const struct proto_move *m, unsigned char *buf,
    size_t buflen)
{
	char	tmp[PROTO_CANONICAL_MAX + 1];
	int	n;

	if (!header_is_valid(m->game_id, m->seq, m->seat) ||
	    !text_is_clean(m->text, sizeof(m->text)))
		return 0;
	n = snprintf(tmp, sizeof(tmp),
	    "pbem-move-v1\ngame: %" PRId64 "\nseq: %" PRId64 "\nseat: %d\n"
	    "move: %s\n", m->game_id, m->seq, m->seat, m->text);
	assert(n > 0 && (size_t)n < sizeof(tmp));
	return copy_out(tmp, n, buf, buflen);
}

void
proto_move_sign(struct proto_move *m,
    const unsigned char seckey[PROTO_SECKEY_BYTES])
{
	unsigned char	buf[PROTO_CANONICAL_MAX];
	size_t		n;

	n = proto_move_canonical(m, buf, sizeof(buf));
	assert(n > 0);		/* the caller cleaned the text */
	crypto_sign_detached(m->signature, NULL, buf, n, seckey);
}

enum proto_status
proto_move_verify(const struct proto_move *m,
    const unsigned char pubkey[PROTO_PUBKEY_BYTES])
{
	unsigned char	buf[PROTO_CANONICAL_MAX];
	size_t		n;

	if ((n = proto_move_canonical(m, buf, sizeof(buf))) == 0)
		return PROTO_MALFORMED;
	if (crypto_sign_verify_detached(m->signature, buf, n, pubkey) != 0)
		return PROTO_BAD_SIGNATURE;
	return PROTO_OK;
}

size_t
proto_receipt_canonical(const struct proto_receipt *r, unsigned char *buf,
    size_t buflen)
{
	char	tmp[PROTO_CANONICAL_MAX + 1];
	char	hex[2 * PROTO_HASH_BYTES + 1];
	int	n;

	if (!header_is_valid(r->game_id, r->seq, r->seat))
		return 0;
	proto_hex(r->entry_hash, sizeof(r->entry_hash), hex);
	n = snprintf(tmp, sizeof(tmp),
	    "pbem-receipt-v1\ngame: %" PRId64 "\nseq: %" PRId64 "\n"
	    "seat: %d\nentry: %s\n", r->game_id, r->seq, r->seat, hex);
	assert(n > 0 && (size_t)n < sizeof(tmp));
	return copy_out(tmp, n, buf, buflen);
}

enum proto_status
proto_receipt_verify(const struct proto_receipt *r,
    const unsigned char server_pubkey[PROTO_PUBKEY_BYTES])
{
	unsigned char	buf[PROTO_CANONICAL_MAX];
	size_t		n;

	if ((n = proto_receipt_canonical(r, buf, sizeof(buf))) == 0)
		return PROTO_MALFORMED;
	if (crypto_sign_verify_detached(r->signature, buf, n,
	    server_pubkey) != 0)
		return PROTO_BAD_SIGNATURE;
	return PROTO_OK;
}

/*
 * The armour writer.
 */

/* Output into a caller's buffer; a write that does not fit sets full. */
struct sink {
	char	*buf;
	size_t	 cap;
	size_t	 len;
	int	 full;
};

static void
sink_add(struct sink *o, const char *s, size_t n)
{
	if (o->full || n >= o->cap - o->len) {
		o->full = 1;
		return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void
sink_str(struct sink *o, const char *s)
{
	sink_add(o, s, strlen(s));
}

/* Length of the "Name" in a line that reads as "Name: value" (letters,
 * digits and '-', starting with a letter, then ':'), or 0. */
static size_t
field_name_len(const char *s, size_t n)
{
	size_t	i;

	if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') ||
	    (s[0] >= 'a' && s[0] <= 'z')))
		return 0;
	for (i = 1; i < n && i <= NAME_MAX_LEN; i++) {
		if (s[i] == ':')
			return i;
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	}
	return 0;
}

/* May a continuation line start with this word?  Not if the reader would
 * take it for quoting, a ----- line or a field. */
static int
word_starts_line(const char *w, size_t n)
{
	return w[0] != '>' && w[0] != '-' && field_name_len(w, n) == 0;
}

/* "Move: <text>\n", broken at spaces into lines of at most ARMOUR_WIDTH
 * columns where a break is allowed; the reader joins them with spaces. */
static void
sink_move(struct sink *o, const char *text)
{
	const char	*p = text;
	size_t		 col, n;

	sink_str(o, "Move: ");
	col = strlen("Move: ");
	for (;;) {
		n = strcspn(p, " ");
		sink_add(o, p, n);
		col += n;
		p += n;
		if (*p == '\0')
			break;
		p++;			/* the single space */
		n = strcspn(p, " ");
		if (col + 1 + n > ARMOUR_WIDTH && word_starts_line(p, n)) {
			sink_str(o, "\n");
			col = 0;
		} else {
			sink_str(o, " ");
			col++;
		}
	}
	sink_str(o, "\n");
}

/* Version, Game, Seq and Seat lines, after the BEGIN line. */
static void
sink_header(struct sink *o, const char *begin, int64_t game_id, int64_t seq,
    int seat)
{
	char	line[128];

	sink_str(o, begin);
	snprintf(line, sizeof(line), "\nVersion: %d\nGame: %" PRId64
	    "\nSeq: %" PRId64 "\nSeat: %d\n", PROTO_VERSION, game_id, seq,
	    seat);
	sink_str(o, line);
}

/* Signature and END lines. */
static void
sink_trailer(struct sink *o, const unsigned char sig[PROTO_SIG_BYTES],
    const char *end)
{
	char	b64[SIG_B64_LEN + 1];

	sodium_bin2base64(b64, sizeof(b64), sig, PROTO_SIG_BYTES,
	    sodium_base64_VARIANT_ORIGINAL);
	sink_str(o, "Signature: ");
	sink_str(o, b64);
	sink_str(o, "\n");
	sink_str(o, end);
	sink_str(o, "\n");
}

size_t
proto_move_armour(const struct proto_move *m, char *out, size_t outlen)
{
	struct sink	o = { out, outlen, 0, 0 };

	if (outlen == 0 || !header_is_valid(m->game_id, m->seq, m->seat) ||
	    !text_is_clean(m->text, sizeof(m->text)))
		return 0;
	out[0] = '\0';
	sink_header(&o, move_begin, m->game_id, m->seq, m->seat);
	sink_move(&o, m->text);
	sink_trailer(&o, m->signature, move_end);
	return o.full ? 0 : o.len;
}

size_t
proto_receipt_armour(const struct proto_receipt *r, char *out,
    size_t outlen)
{
	struct sink	o = { out, outlen, 0, 0 };
	char		hex[2 * PROTO_HASH_BYTES + 1];

	if (outlen == 0 || !header_is_valid(r->game_id, r->seq, r->seat))
		return 0;
	out[0] = '\0';
	sink_header(&o, receipt_begin, r->game_id, r->seq, r->seat);
	proto_hex(r->entry_hash, sizeof(r->entry_hash), hex);
	sink_str(&o, "Entry: ");
	sink_str(&o, hex);
	sink_str(&o, "\n");
	sink_trailer(&o, r->signature, receipt_end);
	return o.full ? 0 : o.len;
}

/*
 * The block reader, shared by proto_move_find and proto_receipt_find.
 *
 * Both blocks have the same six fields in the same places; only the fifth
 * differs (Move or Entry).  The reader finds the first BEGIN line, reads
 * every line up to the END line into raw field values, and reports the
 * first problem it met -- except that a Version other than 1 outranks
 * everything, since a later version may have other fields.
 */

enum field {
	F_VERSION, F_GAME, F_SEQ, F_SEAT, F_BODY, F_SIGNATURE
};

enum join {
	JOIN_NONE,		/* continuation lines are appended as they are */
	JOIN_SPACE		/* ... with one space in between */
};

struct field_spec {
	const char		*name;
	enum join		 join;
	size_t			 max;	/* longest raw value, in bytes */
	enum proto_status	 too_long;	/* the answer past max */
};

struct block_spec {
	const char		*begin;
	const char		*end;
	const char		*what;	/* "move" or "receipt", for messages */
	struct field_spec	 fields[BLOCK_FIELDS];	/* in enum field order */
};

static const struct block_spec move_spec = {
	move_begin, move_end, "move", {
		{ "Version",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
		{ "Game",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
		{ "Seq",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
		{ "Seat",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
		{ "Move",	JOIN_SPACE,	VALUE_MAX_MOVE,	PROTO_TOO_LONG },
		{ "Signature",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
	}
};

static const struct block_spec receipt_spec = {
	receipt_begin, receipt_end, "receipt", {
		{ "Version",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
		{ "Game",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
		{ "Seq",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
		{ "Seat",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
		{ "Entry",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
		{ "Signature",	JOIN_NONE,	VALUE_MAX,	PROTO_MALFORMED },
	}
};

struct value {
	char	*buf;		/* NUL-terminated, in block.arena */
	size_t	 len;
	size_t	 cap;
	size_t	 lineno;	/* where the field's line is; 0 if absent */
};

struct block {
	const struct block_spec	*spec;
	struct value		 v[BLOCK_FIELDS];
	enum proto_status	 st;	/* first problem met, or PROTO_OK */
	char			 arena[VALUE_MAX_MOVE + 1 +
				    (BLOCK_FIELDS - 1) * (VALUE_MAX + 1)];
};

/* A cursor over the input, one line at a time. */
struct lines {
	const char	*text;
	size_t		 len;
	size_t		 pos;
	size_t		 lineno;
};

static void
block_init(struct block *b, const struct block_spec *spec)
{
	size_t	i, off;

	memset(b, 0, sizeof(*b));
	b->spec = spec;
	b->st = PROTO_OK;
	for (i = off = 0; i < BLOCK_FIELDS; i++) {
		b->v[i].buf = b->arena + off;
		b->v[i].cap = spec->fields[i].max;
		off += spec->fields[i].max + 1;
		assert(off <= sizeof(b->arena));
	}
}

/* Note the first problem in the block; later ones are dropped. */
static void
block_problem(struct block *b, char *err, size_t errlen,
    enum proto_status st, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void
block_problem(struct block *b, char *err, size_t errlen,
    enum proto_status st, const char *fmt, ...)
{
	va_list	ap;

	if (b->st != PROTO_OK)
		return;
	va_start(ap, fmt);
	b->st = vfail(st, err, errlen, fmt, ap);
	va_end(ap);
}

/* The next line, without its '\n' and trailing blanks.  0 at the end. */
static int
lines_next(struct lines *ls, const char **line, size_t *n)
{
	const char	*s, *nl;
	size_t		 k;

	if (ls->pos >= ls->len)
		return 0;
	s = ls->text + ls->pos;
	nl = memchr(s, '\n', ls->len - ls->pos);
	k = nl != NULL ? (size_t)(nl - s) : ls->len - ls->pos;
	ls->pos += k + (nl != NULL);
	ls->lineno++;
	while (k > 0 && is_blank((unsigned char)s[k - 1]))
		k--;
	*line = s;
	*n = k;
	return 1;
}

/* Length of a line's quoting: its leading '>', spaces and tabs.  *depth
 * is the number of '>' in it. */
static size_t
quote_prefix(const char *s, size_t n, size_t *depth)
{
	size_t	i;

	*depth = 0;
	for (i = 0; i < n; i++) {
		if (s[i] == '>')
			(*depth)++;
		else if (s[i] != ' ' && s[i] != '\t')
			break;
	}
	return i;
}

static int
line_is(const char *s, size_t n, const char *marker)
{
	return n == strlen(marker) && memcmp(s, marker, n) == 0;
}

/* Skip to just after the first BEGIN line; its quoting depth in *depth. */
static int
find_begin(const struct block_spec *spec, struct lines *ls, size_t *depth)
{
	const char	*line;
	size_t		 n, q;

	while (lines_next(ls, &line, &n)) {
		q = quote_prefix(line, n, depth);
		if (line_is(line + q, n - q, spec->begin))
			return 1;
	}
	return 0;
}

long
proto_move_begin_next(const char *text, size_t len, size_t *from,
    size_t *depth)
{
	struct lines	 ls = { text, len, *from, 0 };
	const char	*line;
	size_t		 n, q, start = *from;

	while (lines_next(&ls, &line, &n)) {
		q = quote_prefix(line, n, depth);
		if (line_is(line + q, n - q, move_begin)) {
			*from = ls.pos;
			return (long)start;
		}
		start = ls.pos;
	}
	*from = len;
	return -1;
}

/* Which field does "Name" (n bytes) name?  -1 if none. */
static int
field_lookup(const struct block_spec *spec, const char *name, size_t n)
{
	int	i;

	for (i = 0; i < BLOCK_FIELDS; i++)
		if (strlen(spec->fields[i].name) == n &&
		    strncasecmp(spec->fields[i].name, name, n) == 0)
			return i;
	return -1;
}

/* Append one line's worth of value to field f. */
static void
value_append(struct block *b, int f, const char *s, size_t n, int first,
    char *err, size_t errlen)
{
	struct value	*v = &b->v[f];
	size_t		 sep;

	sep = !first && b->spec->fields[f].join == JOIN_SPACE;
	if (sep + n > v->cap - v->len) {
		block_problem(b, err, errlen, b->spec->fields[f].too_long,
		    "the %s: value is longer than %zu bytes",
		    b->spec->fields[f].name, v->cap);
		v->len = v->cap;	/* refuse whatever else comes */
		return;
	}
	if (sep)
		v->buf[v->len++] = ' ';
	memcpy(v->buf + v->len, s, n);
	v->len += n;
	v->buf[v->len] = '\0';
}

/* The first control character in a line (tabs excepted), or -1. */
static int
find_control(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t') ||
		    s[i] == 0x7f)
			return (unsigned char)s[i];
	return -1;
}

/* A line that starts with "Name:": a field, or an unknown one.  Returns
 * the field it opens, or -1 if the line is to be skipped. */
static int
read_field_line(struct block *b, const char *s, size_t n, size_t namelen,
    size_t lineno, char *err, size_t errlen)
{
	const struct block_spec	*spec = b->spec;
	int			 f;
	size_t			 i;

	if ((f = field_lookup(spec, s, namelen)) < 0) {
		block_problem(b, err, errlen, PROTO_MALFORMED,
		    "line %zu: unknown field \"%.*s:\"; a %s block has the "
		    "fields Version, Game, Seq, Seat, %s and Signature",
		    lineno, (int)namelen, s, spec->what,
		    spec->fields[F_BODY].name);
		return -1;
	}
	if (b->v[f].lineno != 0) {
		block_problem(b, err, errlen, PROTO_MALFORMED,
		    "line %zu: a second %s: line (the first is line %zu); "
		    "each field may appear only once", lineno,
		    spec->fields[f].name, b->v[f].lineno);
		return -1;
	}
	b->v[f].lineno = lineno;
	for (i = namelen + 1; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	value_append(b, f, s + i, n - i, 1, err, errlen);
	return f;
}

/* Read the lines after the BEGIN line up to the END line.  A broken
 * structure that hides where the block ends stops the reader at once;
 * other problems are noted in b->st and reading goes on. */
static enum proto_status
block_body(struct block *b, struct lines *ls, size_t depth, char *err,
    size_t errlen)
{
	const struct block_spec	*spec = b->spec;
	const char		*line, *s;
	size_t			 n, q, d, namelen, begin_lineno;
	int			 cur, skipping, c;
	char			 ex[EXCERPT_LEN + 4];

	begin_lineno = ls->lineno;
	cur = -1;
	skipping = 0;
	while (lines_next(ls, &line, &n)) {
		q = quote_prefix(line, n, &d);
		s = line + q;
		n -= q;
		if (n == 0)
			continue;	/* blank, however quoted */
		if (d != depth)
			return fail(PROTO_MALFORMED, err, errlen,
			    "line %zu has %zu quote marks ('>') but the BEGIN "
			    "line (line %zu) has %zu; every line up to %s "
			    "must be quoted alike", ls->lineno, d,
			    begin_lineno, depth, spec->end);
		if (n >= 5 && memcmp(s, "-----", 5) == 0) {
			if (line_is(s, n, spec->end))
				return PROTO_OK;
			return fail(PROTO_MALFORMED, err, errlen,
			    "line %zu: found \"%s\" where %s was expected",
			    ls->lineno, excerpt(s, n, ex), spec->end);
		}
		if ((c = find_control(s, n)) >= 0) {
			block_problem(b, err, errlen, PROTO_MALFORMED,
			    "line %zu contains the control byte 0x%02x",
			    ls->lineno, c);
			continue;
		}
		namelen = field_name_len(s, n);
		if (namelen > 0 && (field_lookup(spec, s, namelen) >= 0 ||
		    cur < 0 || spec->fields[cur].join != JOIN_SPACE)) {
			cur = read_field_line(b, s, n, namelen, ls->lineno,
			    err, errlen);
			skipping = cur < 0;
		} else if (cur >= 0)
			value_append(b, cur, s, n, 0, err, errlen);
		else if (!skipping)
			block_problem(b, err, errlen, PROTO_MALFORMED,
			    "line %zu: \"%s\" is not a field; expected a line "
			    "such as \"Version: 1\"", ls->lineno,
			    excerpt(s, n, ex));
	}
	return fail(PROTO_MALFORMED, err, errlen,
	    "the %s block that starts on line %zu has no %s line",
	    spec->what, begin_lineno, spec->end);
}

/* The Version: value, if present, must be 1. */
static enum proto_status
block_version(const struct block *b, char *err, size_t errlen)
{
	const struct value	*v = &b->v[F_VERSION];
	char			 ex[EXCERPT_LEN + 4];

	if (v->lineno == 0 || strcmp(v->buf, "1") == 0)
		return PROTO_OK;
	if (v->len > 0 && v->buf[0] != '0' &&
	    strspn(v->buf, "0123456789") == v->len)
		return fail(PROTO_VERSION_UNKNOWN, err, errlen,
		    "version %s blocks are not understood by this server; "
		    "version %d is", excerpt(v->buf, v->len, ex),
		    PROTO_VERSION);
	return fail(PROTO_MALFORMED, err, errlen,
	    "the Version: value \"%s\" is not a version number; expected "
	    "\"Version: %d\"", excerpt(v->buf, v->len, ex), PROTO_VERSION);
}

/* Find and read the first block of spec's kind in text. */
static enum proto_status
block_read(struct block *b, const struct block_spec *spec, const char *text,
    size_t len, char *err, size_t errlen)
{
	struct lines		ls = { text, len, 0, 0 };
	enum proto_status	st;
	size_t			depth;
	int			f;

	block_init(b, spec);
	if (text == NULL || !find_begin(spec, &ls, &depth))
		return fail(PROTO_NOT_FOUND, err, errlen,
		    "no %s line found; paste the whole signed block, from "
		    "its BEGIN line to its END line", spec->begin);
	if ((st = block_body(b, &ls, depth, err, errlen)) != PROTO_OK)
		return st;
	if ((st = block_version(b, err, errlen)) != PROTO_OK)
		return st;
	if (b->st != PROTO_OK)
		return b->st;
	for (f = 0; f < BLOCK_FIELDS; f++)
		if (b->v[f].lineno == 0)
			return fail(PROTO_MALFORMED, err, errlen,
			    "the block has no %s: line", spec->fields[f].name);
	return PROTO_OK;
}

/* Parse decimal digits without sign or leading zeros, at most max. */
static int
parse_decimal(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t	v, d;
	size_t		i;

	if (s[0] == '\0' || (s[0] == '0' && s[1] != '\0'))
		return -1;
	v = 0;
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		d = (uint64_t)(s[i] - '0');
		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static enum proto_status
value_number(const struct block *b, int f, uint64_t max, uint64_t *out,
    char *err, size_t errlen)
{
	const struct value	*v = &b->v[f];
	char			 ex[EXCERPT_LEN + 4];

	if (parse_decimal(v->buf, max, out) == 0)
		return PROTO_OK;
	return fail(PROTO_MALFORMED, err, errlen,
	    "the %s: value \"%s\" is not a number from 0 to %" PRIu64
	    " (decimal digits, no sign, no leading zeros)",
	    b->spec->fields[f].name, excerpt(v->buf, v->len, ex), max);
}

static enum proto_status
value_signature(const struct block *b, unsigned char sig[PROTO_SIG_BYTES],
    char *err, size_t errlen)
{
	const struct value	*v = &b->v[F_SIGNATURE];
	unsigned char		 bin[VALUE_MAX];
	const char		*end;
	size_t			 n;

	if (sodium_base642bin(bin, sizeof(bin), v->buf, v->len, NULL, &n,
	    &end, sodium_base64_VARIANT_ORIGINAL) != 0 ||
	    end != v->buf + v->len)
		return fail(PROTO_MALFORMED, err, errlen,
		    "the Signature: value is not valid base64 (standard "
		    "alphabet A-Z a-z 0-9 + /, padded with '=' to %zu "
		    "characters)", (size_t)SIG_B64_LEN);
	if (n != PROTO_SIG_BYTES)
		return fail(PROTO_MALFORMED, err, errlen,
		    "the Signature: value decodes to %zu bytes; an Ed25519 "
		    "signature is %d bytes (%zu base64 characters)", n,
		    PROTO_SIG_BYTES, (size_t)SIG_B64_LEN);
	memcpy(sig, bin, PROTO_SIG_BYTES);
	return PROTO_OK;
}

/* The fields both kinds of block share. */
static enum proto_status
block_common(const struct block *b, int64_t *game_id, int64_t *seq,
    int *seat, unsigned char sig[PROTO_SIG_BYTES], char *err, size_t errlen)
{
	enum proto_status	st;
	uint64_t		u;

	st = value_number(b, F_GAME, INT64_MAX, &u, err, errlen);
	if (st != PROTO_OK)
		return st;
	*game_id = (int64_t)u;
	st = value_number(b, F_SEQ, INT64_MAX, &u, err, errlen);
	if (st != PROTO_OK)
		return st;
	*seq = (int64_t)u;
	st = value_number(b, F_SEAT, INT_MAX, &u, err, errlen);
	if (st != PROTO_OK)
		return st;
	*seat = (int)u;
	return value_signature(b, sig, err, errlen);
}

enum proto_status
proto_move_find(const char *text, size_t len, struct proto_move *m,
    char *err, size_t errlen)
{
	struct block		 b;
	struct value		*body = &b.v[F_BODY];
	enum proto_status	 st;

	memset(m, 0, sizeof(*m));
	st = block_read(&b, &move_spec, text, len, err, errlen);
	if (st != PROTO_OK)
		return st;
	st = block_common(&b, &m->game_id, &m->seq, &m->seat, m->signature,
	    err, errlen);
	if (st != PROTO_OK)
		return st;
	if ((st = proto_clean_text(body->buf, err, errlen)) != PROTO_OK)
		return st;
	memcpy(m->text, body->buf, strlen(body->buf) + 1);
	return PROTO_OK;
}

enum proto_status
proto_receipt_find(const char *text, size_t len, struct proto_receipt *r,
    char *err, size_t errlen)
{
	struct block		 b;
	enum proto_status	 st;

	memset(r, 0, sizeof(*r));
	st = block_read(&b, &receipt_spec, text, len, err, errlen);
	if (st != PROTO_OK)
		return st;
	st = block_common(&b, &r->game_id, &r->seq, &r->seat, r->signature,
	    err, errlen);
	if (st != PROTO_OK)
		return st;
	if (proto_unhex(b.v[F_BODY].buf, r->entry_hash,
	    sizeof(r->entry_hash)) != 0)
		return fail(PROTO_MALFORMED, err, errlen,
		    "the Entry: value is not a log entry hash; expected %d "
		    "hexadecimal digits", 2 * PROTO_HASH_BYTES);
	return PROTO_OK;
}

/*
 * Keys and hex.
 */

/* "<tag><base64 of n bytes>" into out; the length, or 0 if too small. */
static size_t
key_format(const char *tag, const unsigned char *key, size_t n, char *out,
    size_t outlen)
{
	size_t	taglen = strlen(tag);
	size_t	need = taglen + sodium_base64_ENCODED_LEN(n,
		    sodium_base64_VARIANT_ORIGINAL);

	if (outlen < need)
		return 0;
	memcpy(out, tag, taglen);
	sodium_bin2base64(out + taglen, outlen - taglen, key, n,
	    sodium_base64_VARIANT_ORIGINAL);
	return need - 1;
}

/* Decode "<tag><base64 of n bytes>", blanks around it ignored. */
static enum proto_status
key_parse(const char *text, const char *tag, const char *what,
    unsigned char *key, size_t n, char *err, size_t errlen)
{
	unsigned char	 bin[128];
	const char	*s, *end;
	size_t		 len, got, taglen = strlen(tag);

	assert(n <= sizeof(bin));
	if (text == NULL)
		text = "";
	for (s = text; is_blank((unsigned char)*s); s++)
		;
	for (len = strlen(s); len > 0 && is_blank((unsigned char)s[len - 1]);
	    len--)
		;
	if (len < taglen || memcmp(s, tag, taglen) != 0)
		return fail(PROTO_MALFORMED, err, errlen,
		    "%s starts with \"%s\"", what, tag);
	s += taglen;
	len -= taglen;
	if (sodium_base642bin(bin, sizeof(bin), s, len, NULL, &got, &end,
	    sodium_base64_VARIANT_ORIGINAL) != 0 || end != s + len) {
		sodium_memzero(bin, sizeof(bin));
		return fail(PROTO_MALFORMED, err, errlen,
		    "the key after \"%s\" is not valid base64 (standard "
		    "alphabet, '=' padding)", tag);
	}
	if (got != n) {
		sodium_memzero(bin, sizeof(bin));
		return fail(PROTO_MALFORMED, err, errlen,
		    "the key after \"%s\" is %zu bytes; %s holds %zu bytes",
		    tag, got, what, n);
	}
	memcpy(key, bin, n);
	sodium_memzero(bin, sizeof(bin));
	return PROTO_OK;
}

size_t
proto_pubkey_format(const unsigned char pk[PROTO_PUBKEY_BYTES], char *out,
    size_t outlen)
{
	return key_format(pubkey_tag, pk, PROTO_PUBKEY_BYTES, out, outlen);
}

enum proto_status
proto_pubkey_parse(const char *text, unsigned char pk[PROTO_PUBKEY_BYTES],
    char *err, size_t errlen)
{
	enum proto_status	st;

	if (text != NULL && strstr(text, seckey_tag) != NULL)
		return fail(PROTO_MALFORMED, err, errlen,
		    "this is a secret key (\"%s\"); give the public key, "
		    "the line that starts with \"%s\", and keep the secret "
		    "one to yourself", seckey_tag, pubkey_tag);
	st = key_parse(text, pubkey_tag, "an Ed25519 public key", pk,
	    PROTO_PUBKEY_BYTES, err, errlen);
	if (st != PROTO_OK)
		return st;
	if (crypto_core_ed25519_is_valid_point(pk) != 1)
		return fail(PROTO_MALFORMED, err, errlen,
		    "the key after \"%s\" is not a valid Ed25519 public key "
		    "(not a point of the curve's prime-order group)",
		    pubkey_tag);
	return PROTO_OK;
}

enum proto_status
proto_pubkey_decode(const char *text, unsigned char pk[PROTO_PUBKEY_BYTES])
{
	char err[256];

	return key_parse(text, pubkey_tag, "an Ed25519 public key", pk,
	    PROTO_PUBKEY_BYTES, err, sizeof(err));
}

size_t
proto_seckey_format(const unsigned char sk[PROTO_SECKEY_BYTES], char *out,
    size_t outlen)
{
	return key_format(seckey_tag, sk, PROTO_SECKEY_BYTES, out, outlen);
}

enum proto_status
proto_seckey_parse(const char *text, unsigned char sk[PROTO_SECKEY_BYTES],
    char *err, size_t errlen)
{
	unsigned char		pk[PROTO_PUBKEY_BYTES];
	unsigned char		sk2[PROTO_SECKEY_BYTES];
	enum proto_status	st;
	int			match;

	st = key_parse(text, seckey_tag, "an Ed25519 secret key", sk,
	    PROTO_SECKEY_BYTES, err, errlen);
	if (st != PROTO_OK)
		return st;
	/* libsodium's secret key is seed || public key: they must agree. */
	crypto_sign_seed_keypair(pk, sk2, sk);
	match = sodium_memcmp(pk, sk + crypto_sign_SEEDBYTES,
	    PROTO_PUBKEY_BYTES) == 0;
	sodium_memzero(sk2, sizeof(sk2));
	if (!match) {
		sodium_memzero(sk, PROTO_SECKEY_BYTES);
		return fail(PROTO_MALFORMED, err, errlen,
		    "the secret key is damaged: its last 32 bytes are not "
		    "the public key of its first 32");
	}
	return PROTO_OK;
}

void
proto_hex(const unsigned char *bytes, size_t n, char *out)
{
	sodium_bin2hex(out, 2 * n + 1, bytes, n);
}

int
proto_unhex(const char *hex, unsigned char *bytes, size_t n)
{
	const char	*end;
	size_t		 len, got;

	if (hex == NULL || (len = strlen(hex)) != 2 * n)
		return -1;
	if (sodium_hex2bin(bytes, n, hex, len, NULL, &got, &end) != 0 ||
	    got != n || end != hex + len)
		return -1;
	return 0;
}
