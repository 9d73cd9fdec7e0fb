/*
 * text.c -- text folding and "did you mean" distances, shared by every
 * rule module's parser.
 *
 * rules_fold() turns what a person typed into a canonical form that a
 * parser can compare with plain ASCII keywords and card names: ASCII and
 * the Latin letters of U+00C0..U+017F in lower case with their accents
 * stripped ("Défausser" -> "defausser", "Œ" -> "oe"), typographic
 * apostrophes made plain, hyphens of every width made "-", every run of
 * blanks (including the no-break spaces French typography puts before
 * "?" and ":") made one space, and the ends trimmed.  Other code points
 * are copied unchanged (other scripts keep their case); bytes that are
 * not valid UTF-8 are dropped.  It never reads past the terminating NUL
 * and never writes past outlen.
 */
#include <stddef.h>
#include <string.h>

#include "rules.h"

/* A range of Latin code points and the ASCII letters they fold to. */
struct fold_range {
	unsigned	 first;
	unsigned	 last;
	const char	*ascii;
};

/*
 * Latin-1 Supplement (U+00C0..U+00FF) and Latin Extended-A
 * (U+0100..U+017F), upper and lower case alike.  U+00D7 (multiplication
 * sign) and U+00F7 (division sign) are not letters and are left alone.
 */
static const struct fold_range latin_ranges[] = {
	{ 0x00c0, 0x00c5, "a" }, { 0x00c6, 0x00c6, "ae" },
	{ 0x00c7, 0x00c7, "c" }, { 0x00c8, 0x00cb, "e" },
	{ 0x00cc, 0x00cf, "i" }, { 0x00d0, 0x00d0, "d" },
	{ 0x00d1, 0x00d1, "n" }, { 0x00d2, 0x00d6, "o" },
	{ 0x00d8, 0x00d8, "o" }, { 0x00d9, 0x00dc, "u" },
	{ 0x00dd, 0x00dd, "y" }, { 0x00de, 0x00de, "th" },
	{ 0x00df, 0x00df, "ss" },
	{ 0x00e0, 0x00e5, "a" }, { 0x00e6, 0x00e6, "ae" },
	{ 0x00e7, 0x00e7, "c" }, { 0x00e8, 0x00eb, "e" },
	{ 0x00ec, 0x00ef, "i" }, { 0x00f0, 0x00f0, "d" },
	{ 0x00f1, 0x00f1, "n" }, { 0x00f2, 0x00f6, "o" },
	{ 0x00f8, 0x00f8, "o" }, { 0x00f9, 0x00fc, "u" },
	{ 0x00fd, 0x00fd, "y" }, { 0x00fe, 0x00fe, "th" },
	{ 0x00ff, 0x00ff, "y" },
	{ 0x0100, 0x0105, "a" }, { 0x0106, 0x010d, "c" },
	{ 0x010e, 0x0111, "d" }, { 0x0112, 0x011b, "e" },
	{ 0x011c, 0x0123, "g" }, { 0x0124, 0x0127, "h" },
	{ 0x0128, 0x0131, "i" }, { 0x0132, 0x0133, "ij" },
	{ 0x0134, 0x0135, "j" }, { 0x0136, 0x0138, "k" },
	{ 0x0139, 0x0142, "l" }, { 0x0143, 0x014b, "n" },
	{ 0x014c, 0x0151, "o" }, { 0x0152, 0x0153, "oe" },
	{ 0x0154, 0x0159, "r" }, { 0x015a, 0x0161, "s" },
	{ 0x0162, 0x0167, "t" }, { 0x0168, 0x0173, "u" },
	{ 0x0174, 0x0175, "w" }, { 0x0176, 0x0178, "y" },
	{ 0x0179, 0x017e, "z" }, { 0x017f, 0x017f, "s" }
};

/* Code points other than ASCII that stand for something plain. */
enum fold_class {
	FOLD_OTHER,		/* copy unchanged */
	FOLD_BLANK,		/* a space of some width */
	FOLD_APOSTROPHE,	/* becomes ' */
	FOLD_HYPHEN		/* becomes - */
};

static enum fold_class
classify(unsigned cp)
{
	switch (cp) {
	case 0x00a0:		/* no-break space */
	case 0x202f:		/* narrow no-break space */
	case 0x205f:		/* medium mathematical space */
	case 0x3000:		/* ideographic space */
		return FOLD_BLANK;
	case 0x2018:		/* left single quotation mark */
	case 0x2019:		/* right single quotation mark */
	case 0x02bc:		/* modifier letter apostrophe */
	case 0x00b4:		/* acute accent used as apostrophe */
	case 0x2032:		/* prime */
		return FOLD_APOSTROPHE;
	}
	if (cp >= 0x2000 && cp <= 0x200a)
		return FOLD_BLANK;
	if (cp >= 0x2010 && cp <= 0x2015)
		return FOLD_HYPHEN;
	return FOLD_OTHER;
}

static const char *
latin_ascii(unsigned cp)
{
	size_t	i;

	for (i = 0; i < sizeof(latin_ranges) / sizeof(latin_ranges[0]); i++)
		if (cp >= latin_ranges[i].first && cp <= latin_ranges[i].last)
			return latin_ranges[i].ascii;
	return NULL;
}

/*
 * Decode one UTF-8 sequence at s.  Returns its length in bytes and the
 * code point in *cp, or 0 if the bytes at s are not a valid, shortest-form
 * sequence (the caller then skips one byte).  Stops at a NUL: a sequence
 * cut short by the end of the string is invalid.
 */
static size_t
utf8_decode(const unsigned char *s, unsigned *cp)
{
	size_t		 len, i;
	unsigned	 c, min;

	c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2; c &= 0x1f; min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3; c &= 0x0f; min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4; c &= 0x07; min = 0x10000;
	} else
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at NUL */
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* The output being built: a blank is only written before the next
 * non-blank, which both collapses runs and trims the end. */
struct fold_out {
	char	*buf;
	size_t	 cap;		/* bytes available, NUL included */
	size_t	 len;
	int	 blank;		/* a blank is waiting to be written */
	int	 full;		/* something did not fit */
};

static void
out_bytes(struct fold_out *o, const char *s, size_t n)
{
	size_t	need;

	if (o->full)
		return;
	need = n + (o->blank && o->len > 0 ? 1 : 0);
	if (o->len + need + 1 > o->cap) {
		o->full = 1;
		return;
	}
	if (o->blank && o->len > 0)
		o->buf[o->len++] = ' ';
	o->blank = 0;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

int
rules_fold(const char *in, char *out, size_t outlen)
{
	const unsigned char	*s = (const unsigned char *)in;
	struct fold_out		 o = { out, outlen, 0, 0, 0 };
	const char		*ascii;
	unsigned		 cp;
	size_t			 n;
	char			 c;

	if (outlen == 0)
		return -1;
	while (*s != '\0' && !o.full) {
		n = utf8_decode(s, &cp);
		if (n == 0) {			/* invalid byte: drop it */
			s++;
			continue;
		}
		if (cp < 0x80) {
			c = (char)cp;
			if (c == ' ' || (c >= '\t' && c <= '\r'))
				o.blank = 1;
			else {
				if (c >= 'A' && c <= 'Z')
					c = (char)(c - 'A' + 'a');
				out_bytes(&o, &c, 1);
			}
		} else if ((ascii = latin_ascii(cp)) != NULL)
			out_bytes(&o, ascii, strlen(ascii));
		else {
			switch (classify(cp)) {
			case FOLD_BLANK:
				o.blank = 1;
				break;
			case FOLD_APOSTROPHE:
				out_bytes(&o, "'", 1);
				break;
			case FOLD_HYPHEN:
				out_bytes(&o, "-", 1);
				break;
			case FOLD_OTHER:
				out_bytes(&o, (const char *)s, n);
				break;
			}
		}
		s += n;
	}
	out[o.len] = '\0';
	return o.full ? -1 : 0;
}

/*
 * "Did you mean ...": the optimal string alignment distance (Levenshtein
 * with adjacent transpositions), byte by byte on folded text.  Words are
 * short (a card name is under 64 bytes), so one row of 3 x RULES_DIST_MAX
 * ints on the stack is enough; longer strings are never "near".
 */
#define RULES_DIST_MAX	128

int
rules_edit_distance(const char *a, const char *b, int max)
{
	int	rows[3][RULES_DIST_MAX + 1];
	int	*pp, *prev, *row, *tmp;
	size_t	la = strlen(a), lb = strlen(b), i, j;
	int	cost, best, v;

	if (la > RULES_DIST_MAX || lb > RULES_DIST_MAX)
		return max + 1;
	if ((la > lb ? la - lb : lb - la) > (size_t)max)
		return max + 1;
	pp = rows[0];
	prev = rows[1];
	row = rows[2];
	for (j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (i = 1; i <= la; i++) {
		row[0] = (int)i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			cost = a[i - 1] == b[j - 1] ? 0 : 1;
			v = prev[j - 1] + cost;
			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			row[j] = v;
			if (v < best)
				best = v;
		}
		if (best > max)
			return max + 1;
		tmp = pp;
		pp = prev;
		prev = row;
		row = tmp;
	}
	return prev[lb] > max ? max + 1 : prev[lb];
}

int
rules_typo_limit(const char *word)
{
	size_t	n = strlen(word);

	if (n <= 2)
		return 0;
	if (n <= 4)
		return 1;
	if (n <= 8)
		return 2;
	return 3;
}

const char *
rules_nearest(const char *word, const char *const *cands)
{
	const char	*best = NULL;
	int		 limit, bestd, d, i;

	limit = rules_typo_limit(word);
	bestd = limit + 1;
	for (i = 0; cands[i] != NULL; i++) {
		if (strcmp(word, cands[i]) == 0)
			return NULL;	/* a known word is no typo */
		d = rules_edit_distance(word, cands[i], limit);
		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	return best;
}
