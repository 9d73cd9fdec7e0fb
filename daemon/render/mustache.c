/*
 * mustache.c -- compile and render Mustache templates (see mustache.h).
 *
 * A compiled template is a flat array of nodes in document order: text,
 * variables, sections, inverted sections and partials.  A section node
 * records the index just past its last child, so rendering a section is
 * rendering a range of the same array.  Comments and delimiter changes
 * leave no node; the standalone-line rule (a line holding only one
 * section, inverted, close, comment, partial or delimiter tag and blanks
 * disappears from the output) is applied while compiling, so rendering
 * never looks at whitespace again -- except for the indentation of a
 * standalone partial, which the partial node keeps and rendering puts in
 * front of every line the partial's own text begins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mustache.h"
#include "xalloc.h"

/* Longest delimiter accepted by {{=<% %>=}}. */
#define DELIM_MAX 32

enum node_type {
	NODE_TEXT,		/* literal text */
	NODE_VAR,		/* {{name}}: escaped in HTML mode */
	NODE_RAW,		/* {{{name}}} and {{&name}}: never escaped */
	NODE_SECTION,		/* {{#name}} ... {{/name}} */
	NODE_INVERTED,		/* {{^name}} ... {{/name}} */
	NODE_PARTIAL		/* {{>name}} */
};

struct node {
	enum node_type	 type;
	int		 line;		/* where the tag or text starts */
	size_t		 off, len;	/* NODE_TEXT: the text in src */
	char		*name;		/* tags: the trimmed name */
	size_t		 ind_off;	/* NODE_PARTIAL standalone: its */
	size_t		 ind_len;	/* indentation in src (else 0) */
	int		 standalone;	/* NODE_PARTIAL: alone on its line */
	size_t		 end;		/* sections: index past the last child */
};

struct mustache {
	char		*name;
	char		*src;		/* a copy of the template text */
	size_t		 srclen;
	struct node	*nodes;
	size_t		 n, cap;
};

/*
 * The output buffer.
 */
void
mustache_buf_init(struct mustache_buf *buf)
{
	buf->data = NULL;
	buf->len = 0;
	buf->cap = 0;
}

void
mustache_buf_append(struct mustache_buf *buf, const char *s, size_t len)
{
	size_t	need;

	if (len > (size_t)-1 - buf->len - 1)
		abort();
	need = buf->len + len + 1;
	if (need > buf->cap) {
		if (buf->cap == 0)
			buf->cap = 256;
		while (buf->cap < need)
			buf->cap = buf->cap > (size_t)-1 / 2 ? need :
			    buf->cap * 2;
		buf->data = xrealloc(buf->data, buf->cap, 1);
	}
	if (len > 0)
		memcpy(buf->data + buf->len, s, len);
	buf->len += len;
	buf->data[buf->len] = '\0';
}

void
mustache_buf_free(struct mustache_buf *buf)
{
	free(buf->data);
	mustache_buf_init(buf);
}

/*
 * Compiling.
 */
struct parser {
	const char	*name;
	const char	*src;
	size_t		 len;
	char		 otag[DELIM_MAX + 1], ctag[DELIM_MAX + 1];
	size_t		 olen, clen;
	size_t		 open[MUSTACHE_MAX_DEPTH];	/* open sections */
	int		 depth;
	size_t		 line_pos;	/* line_at() cache: a position */
	int		 line;		/* and its line number */
	struct mustache	*tpl;
	char		*err;
	size_t		 errlen;
};

/* The line number (from 1) of position pos.  Positions asked for move
 * mostly forward, so counting from the last one keeps compiling linear. */
static int
line_at(struct parser *p, size_t pos)
{
	for (; p->line_pos > pos; p->line_pos--)
		if (p->src[p->line_pos - 1] == '\n')
			p->line--;
	for (; p->line_pos < pos; p->line_pos++)
		if (p->src[p->line_pos] == '\n')
			p->line++;
	return p->line;
}

static int
fail(struct parser *p, int line, const char *reason, const char *detail)
{
	snprintf(p->err, p->errlen, "%s:%d: %s%s", p->name, line, reason,
	    detail != NULL ? detail : "");
	return -1;
}

/* Where needle first occurs in src[from..len), or len if nowhere. */
static size_t
find(const char *src, size_t len, size_t from, const char *needle,
    size_t nlen)
{
	const char	*hit;
	size_t		 i;

	for (i = from; i + nlen <= len; i = (size_t)(hit - src) + 1) {
		hit = memchr(src + i, needle[0], len - i - nlen + 1);
		if (hit == NULL)
			break;
		if (memcmp(hit, needle, nlen) == 0)
			return (size_t)(hit - src);
	}
	return len;
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\v' || c == '\f';
}

static struct node *
add_node(struct parser *p, enum node_type type, int line)
{
	struct mustache	*t = p->tpl;
	struct node	*nd;

	if (t->n == t->cap) {
		t->cap = t->cap == 0 ? 16 : t->cap * 2;
		t->nodes = xrealloc(t->nodes, t->cap, sizeof(*t->nodes));
	}
	nd = &t->nodes[t->n++];
	memset(nd, 0, sizeof(*nd));
	nd->type = type;
	nd->line = line;
	return nd;
}

static void
add_text(struct parser *p, size_t from, size_t to)
{
	struct node	*nd;

	if (to <= from)
		return;
	nd = add_node(p, NODE_TEXT, line_at(p, from));
	nd->off = from;
	nd->len = to - from;
}

/* The tag content src[*from..*to) without surrounding blanks. */
static void
trim(const char *src, size_t *from, size_t *to)
{
	while (*from < *to && is_space(src[*from]))
		(*from)++;
	while (*to > *from && is_space(src[*to - 1]))
		(*to)--;
}

/* {{=<% %>=}}: content is what lies between the two '='. */
static int
set_delimiters(struct parser *p, size_t from, size_t to, int line)
{
	size_t	a, b, c, d;

	trim(p->src, &from, &to);
	for (a = b = from; b < to && !is_space(p->src[b]); b++)
		;
	for (c = b; c < to && is_space(p->src[c]); c++)
		;
	for (d = c; d < to && !is_space(p->src[d]); d++)
		;
	if (b == a || d == c || d != to)
		return fail(p, line, "bad delimiter change: expected two "
		    "delimiters separated by blanks, as in {{=<% %>=}}", NULL);
	if (b - a > DELIM_MAX || d - c > DELIM_MAX)
		return fail(p, line, "bad delimiter change: delimiter too "
		    "long", NULL);
	if (memchr(p->src + a, '=', b - a) != NULL ||
	    memchr(p->src + c, '=', d - c) != NULL)
		return fail(p, line, "bad delimiter change: a delimiter may "
		    "not contain '='", NULL);
	memcpy(p->otag, p->src + a, b - a);
	p->otag[b - a] = '\0';
	p->olen = b - a;
	memcpy(p->ctag, p->src + c, d - c);
	p->ctag[d - c] = '\0';
	p->clen = d - c;
	return 0;
}

/* A tag name: not empty, no blanks inside. */
static int
check_name(struct parser *p, size_t from, size_t to, int line)
{
	size_t	i;

	if (from == to)
		return fail(p, line, "empty tag name", NULL);
	for (i = from; i < to; i++)
		if (is_space(p->src[i]))
			return fail(p, line, "blank inside tag name", NULL);
	return 0;
}

/* Is a tag at src[start..end) alone on its line?  If so, *line_start is
 * where its line begins and *next where the following line begins. */
static int
standalone(struct parser *p, size_t start, size_t end, size_t *line_start,
    size_t *next)
{
	size_t	i;

	for (i = start; i > 0 && is_blank(p->src[i - 1]); i--)
		;
	if (i > 0 && p->src[i - 1] != '\n')
		return 0;
	*line_start = i;
	for (i = end; i < p->len && is_blank(p->src[i]); i++)
		;
	if (i == p->len)
		*next = i;
	else if (p->src[i] == '\n')
		*next = i + 1;
	else if (p->src[i] == '\r' && i + 1 < p->len && p->src[i + 1] == '\n')
		*next = i + 2;
	else
		return 0;
	return 1;
}

/* Add the node for one tag of kind c ('#', '^', '/', '>', '&', '{', or 0
 * for a variable) named src[from..to). */
static int
add_tag(struct parser *p, int c, size_t from, size_t to, int line,
    size_t ind_off, size_t ind_len, int alone)
{
	struct node	*nd, *open;

	trim(p->src, &from, &to);
	if (check_name(p, from, to, line) == -1)
		return -1;
	switch (c) {
	case '#':
	case '^':
		if (p->depth == MUSTACHE_MAX_DEPTH)
			return fail(p, line, "sections nested too deeply", NULL);
		p->open[p->depth++] = p->tpl->n;
		nd = add_node(p, c == '#' ? NODE_SECTION : NODE_INVERTED, line);
		break;
	case '/':
		if (p->depth == 0) {
			char	detail[64];

			snprintf(detail, sizeof(detail), "{{/%.*s}}",
			    (int)(to - from > 40 ? 40 : to - from),
			    p->src + from);
			return fail(p, line, "close tag with no open section: ",
			    detail);
		}
		open = &p->tpl->nodes[p->open[p->depth - 1]];
		if (strlen(open->name) != to - from ||
		    memcmp(open->name, p->src + from, to - from) != 0) {
			char	detail[128];

			snprintf(detail, sizeof(detail), "section \"%.40s\" "
			    "opened on line %d is closed by \"%.*s\"",
			    open->name, open->line,
			    (int)(to - from > 40 ? 40 : to - from),
			    p->src + from);
			return fail(p, line, "mismatched close tag: ", detail);
		}
		open->end = p->tpl->n;
		p->depth--;
		return 0;
	case '>':
		nd = add_node(p, NODE_PARTIAL, line);
		nd->standalone = alone;
		nd->ind_off = ind_off;
		nd->ind_len = ind_len;
		break;
	case '&':
	case '{':
		nd = add_node(p, NODE_RAW, line);
		break;
	default:
		nd = add_node(p, NODE_VAR, line);
		break;
	}
	nd->name = xstrndup(p->src + from, to - from);
	return 0;
}

/* Read the tag whose open delimiter is at start; *pos and *text_start
 * move past it (and past its line, when it stands alone). */
static int
parse_tag(struct parser *p, size_t start, size_t *pos, size_t *text_start)
{
	size_t	 from, close, end, ls, next;
	int	 c, line;
	char	 closer[DELIM_MAX + 2];

	line = line_at(p, start);
	from = start + p->olen;
	c = from < p->len ? (unsigned char)p->src[from] : 0;
	if (strchr("#^/!>=&{", c) != NULL && c != 0)
		from++;
	else
		c = 0;
	/* {{{name}}} and {{=a b=}} end with '}' or '=' before the delimiter */
	if (c == '{' || c == '=') {
		closer[0] = c == '{' ? '}' : '=';
		memcpy(closer + 1, p->ctag, p->clen + 1);
		close = find(p->src, p->len, from, closer, p->clen + 1);
		end = close + p->clen + 1;
	} else {
		close = find(p->src, p->len, from, p->ctag, p->clen);
		end = close + p->clen;
	}
	if (close == p->len) {
		char	detail[64];

		snprintf(detail, sizeof(detail), "no closing \"%s%s\"",
		    c == '{' ? "}" : c == '=' ? "=" : "", p->ctag);
		return fail(p, line, "unclosed tag: ", detail);
	}

	/* A standalone line vanishes; a variable is never standalone. */
	if (c != 0 && c != '&' && c != '{' &&
	    standalone(p, start, end, &ls, &next)) {
		add_text(p, *text_start, ls);
		*pos = *text_start = next;
	} else {
		add_text(p, *text_start, start);
		*pos = *text_start = end;
		ls = start;
		c = c == '>' ? '<' : c;	/* '<': a partial, not standalone */
	}

	switch (c) {
	case '!':
		return 0;
	case '=':
		return set_delimiters(p, from, close, line);
	case '<':
		return add_tag(p, '>', from, close, line, 0, 0, 0);
	case '>':
		return add_tag(p, '>', from, close, line, ls, start - ls, 1);
	default:
		return add_tag(p, c, from, close, line, 0, 0, 0);
	}
}

struct mustache *
mustache_compile(const char *name, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct parser	 p;
	struct mustache	*t;
	size_t		 pos, start, text_start;

	t = xrealloc(NULL, 1, sizeof(*t));
	memset(t, 0, sizeof(*t));
	t->name = xstrndup(name, strlen(name));
	t->src = xrealloc(NULL, len + 1, 1);
	if (len > 0)
		memcpy(t->src, text, len);
	t->src[len] = '\0';
	t->srclen = len;

	memset(&p, 0, sizeof(p));
	p.name = name;
	p.src = t->src;
	p.len = len;
	memcpy(p.otag, "{{", 3);
	memcpy(p.ctag, "}}", 3);
	p.olen = p.clen = 2;
	p.line = 1;
	p.tpl = t;
	p.err = err;
	p.errlen = errlen;

	pos = text_start = 0;
	for (;;) {
		start = find(p.src, len, pos, p.otag, p.olen);
		if (start == len) {
			add_text(&p, text_start, len);
			break;
		}
		if (parse_tag(&p, start, &pos, &text_start) == -1)
			goto bad;
	}
	if (p.depth > 0) {
		struct node	*open = &t->nodes[p.open[p.depth - 1]];
		char		 detail[128];

		snprintf(detail, sizeof(detail), "\"%.40s\" has no {{/%.40s}}",
		    open->name, open->name);
		fail(&p, open->line, "unclosed section: ", detail);
		goto bad;
	}
	return t;
bad:
	mustache_free(t);
	return NULL;
}

void
mustache_free(struct mustache *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		free(t->nodes[i].name);
	free(t->nodes);
	free(t->src);
	free(t->name);
	free(t);
}

const char *
mustache_name(const struct mustache *t)
{
	return t->name;
}

int
mustache_each_partial(const struct mustache *t,
    int (*fn)(void *, const char *, int), void *arg)
{
	size_t	i;
	int	rc;

	for (i = 0; i < t->n; i++)
		if (t->nodes[i].type == NODE_PARTIAL &&
		    (rc = fn(arg, t->nodes[i].name, t->nodes[i].line)) != 0)
			return rc;
	return 0;
}

/*
 * Rendering.
 */

/* The context stack: one frame per open section, innermost first. */
struct frame {
	const json_t		*value;
	const struct frame	*up;
};

struct render {
	mustache_partial_fn	 resolve;
	void			*arg;
	enum mustache_escape	 escape;
	struct mustache_buf	*out;
	const char		*indent;	/* standalone partials' */
	size_t			 indent_len;	/* indentation, outer first */
	int			 bol;		/* at a template line's start */
	int			 depth;
	char			*err;
	size_t			 errlen;
};

/*
 * Look a name up: "." is the innermost value; otherwise the first part of
 * a dotted name is looked for in each frame from the innermost out, and
 * the other parts only inside what the first found.
 */
static const json_t *
lookup(const struct frame *f, const char *name)
{
	const json_t	*v = NULL;
	size_t		 n;

	if (strcmp(name, ".") == 0)
		return f->value;
	n = strcspn(name, ".");
	for (; f != NULL; f = f->up)
		if (json_is_object(f->value) &&
		    (v = json_object_getn(f->value, name, n)) != NULL)
			break;
	while (v != NULL && name[n] == '.') {
		name += n + 1;
		n = strcspn(name, ".");
		v = json_is_object(v) ? json_object_getn(v, name, n) : NULL;
	}
	return v;
}

static int
truthy(const json_t *v)
{
	return v != NULL && !json_is_false(v) && !json_is_null(v) &&
	    !(json_is_array(v) && json_array_size(v) == 0) &&
	    !(json_is_string(v) && json_string_length(v) == 0);
}

static void
put_indent(struct render *r)
{
	if (r->bol) {
		mustache_buf_append(r->out, r->indent, r->indent_len);
		r->bol = 0;
	}
}

/* Template text: indent each line it begins. */
static void
put_text(struct render *r, const char *s, size_t len)
{
	const char	*nl;
	size_t		 n;

	while (len > 0) {
		put_indent(r);
		nl = memchr(s, '\n', len);
		n = nl != NULL ? (size_t)(nl - s) + 1 : len;
		mustache_buf_append(r->out, s, n);
		if (nl != NULL)
			r->bol = 1;
		s += n;
		len -= n;
	}
}

static void
put_escaped(struct render *r, const char *s, size_t len)
{
	const char	*rep;
	size_t		 i, from = 0;

	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&#39;";
			break;
		default:
			continue;
		}
		mustache_buf_append(r->out, s + from, i - from);
		mustache_buf_append(r->out, rep, strlen(rep));
		from = i + 1;
	}
	mustache_buf_append(r->out, s + from, len - from);
}

/* A real in the shortest %g form that reads back to the same value. */
static void
format_real(double d, char *buf, size_t len)
{
	int	prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
	snprintf(buf, len, "%.17g", d);
}

static void
put_value(struct render *r, const json_t *v, int escape)
{
	const char	*s;
	size_t		 len;
	char		 num[64];

	put_indent(r);
	switch (json_typeof(v)) {
	case JSON_STRING:
		s = json_string_value(v);
		len = json_string_length(v);
		break;
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		s = num;
		len = strlen(num);
		break;
	case JSON_REAL:
		format_real(json_real_value(v), num, sizeof(num));
		s = num;
		len = strlen(num);
		break;
	case JSON_TRUE:
		s = "true";
		len = 4;
		break;
	case JSON_FALSE:
		s = "false";
		len = 5;
		break;
	default:
		return;		/* null, arrays, objects: nothing */
	}
	if (escape && r->escape == MUSTACHE_ESCAPE_HTML)
		put_escaped(r, s, len);
	else
		mustache_buf_append(r->out, s, len);
}

static int render_range(struct render *, const struct mustache *, size_t,
    size_t, const struct frame *);

static int
enter(struct render *r, int line, const struct mustache *t)
{
	if (r->depth >= MUSTACHE_MAX_DEPTH) {
		snprintf(r->err, r->errlen, "%s:%d: sections and partials "
		    "nested deeper than %d while rendering", t->name, line,
		    MUSTACHE_MAX_DEPTH);
		return -1;
	}
	r->depth++;
	return 0;
}

static int
render_section(struct render *r, const struct mustache *t, size_t i,
    const struct frame *ctx)
{
	const struct node	*nd = &t->nodes[i];
	const json_t		*v;
	struct frame		 f;
	size_t			 k;
	int			 rc = 0;

	v = lookup(ctx, nd->name);
	if (nd->type == NODE_INVERTED) {
		if (truthy(v))
			return 0;
		if (enter(r, nd->line, t) == -1)
			return -1;
		rc = render_range(r, t, i + 1, nd->end, ctx);
		r->depth--;
		return rc;
	}
	if (!truthy(v))
		return 0;
	if (enter(r, nd->line, t) == -1)
		return -1;
	f.up = ctx;
	if (json_is_array(v)) {
		for (k = 0; rc == 0 && k < json_array_size(v); k++) {
			f.value = json_array_get(v, k);
			rc = render_range(r, t, i + 1, nd->end, &f);
		}
	} else {
		f.value = v;
		rc = render_range(r, t, i + 1, nd->end, &f);
	}
	r->depth--;
	return rc;
}

static int
render_partial(struct render *r, const struct mustache *t,
    const struct node *nd, const struct frame *ctx)
{
	const struct mustache	*p;
	const char		*old_indent = r->indent;
	size_t			 old_len = r->indent_len;
	char			*indent = NULL;
	int			 rc;

	if (r->resolve == NULL || (p = r->resolve(r->arg, nd->name)) == NULL)
		return 0;
	if (enter(r, nd->line, t) == -1)
		return -1;
	if (nd->standalone) {
		indent = xrealloc(NULL, old_len + nd->ind_len + 1, 1);
		memcpy(indent, old_indent, old_len);
		memcpy(indent + old_len, t->src + nd->ind_off, nd->ind_len);
		r->indent = indent;
		r->indent_len = old_len + nd->ind_len;
		r->bol = 1;
	}
	rc = render_range(r, p, 0, p->n, ctx);
	if (nd->standalone) {
		r->indent = old_indent;
		r->indent_len = old_len;
		r->bol = 1;	/* the outer template is at a new line */
		free(indent);
	}
	r->depth--;
	return rc;
}

static int
render_range(struct render *r, const struct mustache *t, size_t from,
    size_t to, const struct frame *ctx)
{
	const struct node	*nd;
	const json_t		*v;
	size_t			 i;

	for (i = from; i < to; i++) {
		nd = &t->nodes[i];
		switch (nd->type) {
		case NODE_TEXT:
			put_text(r, t->src + nd->off, nd->len);
			break;
		case NODE_VAR:
		case NODE_RAW:
			if ((v = lookup(ctx, nd->name)) != NULL)
				put_value(r, v, nd->type == NODE_VAR);
			else
				put_indent(r);
			break;
		case NODE_SECTION:
		case NODE_INVERTED:
			if (render_section(r, t, i, ctx) == -1)
				return -1;
			i = nd->end - 1;	/* skip the children */
			break;
		case NODE_PARTIAL:
			if (render_partial(r, t, nd, ctx) == -1)
				return -1;
			break;
		}
	}
	return 0;
}

int
mustache_render(const struct mustache *tpl, const json_t *context,
    mustache_partial_fn resolve, void *arg, enum mustache_escape escape,
    struct mustache_buf *out, char *err, size_t errlen)
{
	struct render	r;
	struct frame	root;

	memset(&r, 0, sizeof(r));
	r.resolve = resolve;
	r.arg = arg;
	r.escape = escape;
	r.out = out;
	r.indent = "";
	r.bol = 1;
	r.err = err;
	r.errlen = errlen;
	root.value = context;
	root.up = NULL;
	mustache_buf_append(out, "", 0);	/* data is never NULL */
	return render_range(&r, tpl, 0, tpl->n, &root);
}
