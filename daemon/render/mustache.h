/*
 * mustache.h -- the project's Mustache renderer.
 *
 * What this module promises:
 *   - mustache_compile() turns a template text into a parsed tree, or
 *     refuses it with one message of the form "NAME:LINE: reason" (an
 *     unclosed tag, an unclosed section, a close tag that does not match,
 *     a close tag with nothing open, a bad delimiter change, an empty tag
 *     name, nesting too deep).  Any byte string is safe to compile: a
 *     template is either compiled or refused, never read out of bounds.
 *   - mustache_render() renders a compiled template against a jansson
 *     value.  It implements the official Mustache specification's
 *     required modules (interpolation, sections, inverted sections,
 *     comments, partials, set delimiters), including its standalone-line
 *     and partial-indentation rules.  Lambdas and inheritance are not
 *     supported.  The output grows as needed: nothing is ever truncated.
 *   - Rendering does not change the context or the template, so one
 *     compiled template may be rendered by several threads at once.
 *
 * Truth in sections: false, null, a missing name, an empty array and an
 * empty string are false; everything else (0 and {} included) is true.  An array
 * renders its section once per element; any other true value once, with
 * that value pushed on the context stack.
 *
 * Interpolation: strings as they are, integers in decimal, reals in the
 * shortest form that reads back to the same number, true and false as
 * words; null, missing names, arrays and objects render nothing.
 *
 * Escaping: with MUSTACHE_ESCAPE_HTML, {{name}} escapes & < > " ' and
 * {{{name}}} / {{&name}} do not; with MUSTACHE_ESCAPE_NONE nothing is
 * escaped (for plain-text mail).
 *
 * Errors: a broken template is the administrator's input and gets a
 * message; running out of memory is fatal (abort), as everywhere in the
 * core.  Rendering fails only when partials nest deeper than
 * MUSTACHE_MAX_DEPTH (a partial that includes itself without end).
 */
#ifndef PBEM_MUSTACHE_H
#define PBEM_MUSTACHE_H

#include <stddef.h>
#include <jansson.h>

/* Sections nested in one template, and sections plus partials nested at
 * render time, stop at this depth. */
#define MUSTACHE_MAX_DEPTH 200

enum mustache_escape {
	MUSTACHE_ESCAPE_NONE = 0,	/* text templates */
	MUSTACHE_ESCAPE_HTML = 1	/* HTML templates */
};

/* A growable output buffer.  data is NUL-terminated after every append
 * (when not NULL); len excludes the NUL. */
struct mustache_buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};

/* A compiled template; opaque. */
struct mustache;

/*
 * The partial resolver, called by mustache_render() for each {{>name}}
 * met while rendering (name is NUL-terminated, already trimmed).  Returns
 * the compiled partial, or NULL when there is none: a missing partial
 * renders as nothing, as the specification says.  The returned template
 * must stay valid until mustache_render() returns.
 */
typedef const struct mustache *(*mustache_partial_fn)(void *arg,
    const char *name);

/*
 * Compiling.
 */
/* Compile len bytes of text.  name is used in error messages (a file
 * name).  Returns the template, or NULL with "name:line: reason" in err. */
struct mustache	*mustache_compile(const char *name, const char *text,
		    size_t len, char *err, size_t errlen);
/* Free a compiled template.  NULL is fine. */
void		 mustache_free(struct mustache *tpl);
/* The name given to mustache_compile(). */
const char	*mustache_name(const struct mustache *tpl);

/* Call fn for each {{>name}} tag of tpl, in order, with the tag's line;
 * stops at and returns the first non-zero value fn returns (else 0).
 * Lets a template set check at load time that every partial exists. */
int		 mustache_each_partial(const struct mustache *tpl,
		    int (*fn)(void *arg, const char *name, int line),
		    void *arg);

/*
 * Rendering.
 */
/* Append the rendering of tpl against context to out.  resolve may be
 * NULL (no partials).  Returns 0, or -1 with the reason in err (out then
 * holds a partial rendering, to be discarded). */
int		 mustache_render(const struct mustache *tpl,
		    const json_t *context, mustache_partial_fn resolve,
		    void *arg, enum mustache_escape escape,
		    struct mustache_buf *out, char *err, size_t errlen);

/*
 * The output buffer.
 */
void		 mustache_buf_init(struct mustache_buf *buf);
void		 mustache_buf_append(struct mustache_buf *buf, const char *s,
		    size_t len);
void		 mustache_buf_free(struct mustache_buf *buf);

#endif /* PBEM_MUSTACHE_H */
