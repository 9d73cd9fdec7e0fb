/*
 * templates.h -- the set of mail and text templates, loaded once.
 *
 * What this module promises:
 *   - templates_load() reads every template under a directory laid out as
 *         DIR/LANG/GAME/NAME.txt.mustache     text (never HTML-escaped)
 *         DIR/LANG/GAME/NAME.html.mustache    HTML (escaped)
 *         DIR/LANG/partials/NAME.(txt|html).mustache   shared partials
 *     and compiles all of them at once, so a broken template, an unknown
 *     file kind or a {{>partial}} that names no template is reported
 *     when the daemon starts ("FILE:LINE: reason"), never when a mail is
 *     sent.  Files starting with '.' or ending in '~' are ignored.
 *   - templates_render() renders (lang, game, name, format) from a view.
 *     A {{>p}} in a template of GAME finds DIR/LANG/GAME/p first, then
 *     DIR/LANG/partials/p, in the same format.  Rendering fails only if
 *     the template does not exist (or partials nest without end).
 *   - A loaded set is never changed, so threads may render from it
 *     concurrently.  To pick up edited wording, load a new set.
 *
 * The directory is the installed $(pkgdatadir)/templates unless the
 * configuration names another; the caller passes it in.
 */
#ifndef PBEM_TEMPLATES_H
#define PBEM_TEMPLATES_H

#include <stddef.h>
#include <jansson.h>

#include "mustache.h"

enum tpl_format {
	TPL_TEXT = 0,		/* NAME.txt.mustache, no escaping */
	TPL_HTML = 1		/* NAME.html.mustache, HTML escaping */
};

/* Largest template file accepted. */
#define TPL_MAX_FILE	(1024 * 1024)

struct tpl_set;

/*
 * Loading.
 */
/* Load and compile every template under dir.  Returns the set, or NULL
 * with the first problem in err ("FILE:LINE: reason" or "DIR: reason"). */
/* The folder to load: dir if given, else $PBEM_TEMPLATES, else the
 * installed folder ($(pkgdatadir)/templates, baked in by configure) if it
 * exists, else "templates" if that exists (running from the source
 * tree), else the installed folder again, so that the error of
 * templates_load() names the path an installed pbemd looked at. */
const char	*templates_dir(const char *dir);
/* The installed folder, $(pkgdatadir)/templates. */
const char	*templates_installed_dir(void);
struct tpl_set	*templates_load(const char *dir, char *err, size_t errlen);
void		 templates_free(struct tpl_set *set);

/*
 * Looking up and rendering.
 */
/* 1 if the set holds LANG/GAME/NAME in format, else 0. */
int		 templates_has(const struct tpl_set *set, const char *lang,
		    const char *game, const char *name, enum tpl_format format);
/* The number of templates (partials included) in the set. */
size_t		 templates_count(const struct tpl_set *set);
/* Append the rendering to out.  Returns 0, or -1 with the reason in err
 * ("no template LANG/GAME/NAME.txt", or a render error). */
int		 templates_render(const struct tpl_set *set, const char *lang,
		    const char *game, const char *name, enum tpl_format format,
		    const json_t *view, struct mustache_buf *out, char *err,
		    size_t errlen);

#endif /* PBEM_TEMPLATES_H */
