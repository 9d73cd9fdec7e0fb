/*
 * templates.c -- load a directory of Mustache templates and render them
 * (see templates.h).
 *
 * The set is a flat list of entries (lang, game, name, format, compiled
 * template); a game's folder name "partials" holds the shared partials.
 * A set holds a few dozen templates, so lookups are linear.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "templates.h"
#include "xalloc.h"

#define PARTIALS_DIR	"partials"

struct tpl_entry {
	char		*lang;
	char		*game;		/* "partials" for shared partials */
	char		*name;		/* without .txt.mustache */
	enum tpl_format	 format;
	struct mustache	*tpl;
};

struct tpl_set {
	struct tpl_entry	*e;
	size_t			 n, cap;
};

static const struct {
	const char	*suffix;
	enum tpl_format	 format;
} kinds[] = {
	{ ".txt.mustache", TPL_TEXT },
	{ ".html.mustache", TPL_HTML }
};

static const struct tpl_entry *
find_entry(const struct tpl_set *set, const char *lang, const char *game,
    const char *name, enum tpl_format format)
{
	size_t	i;

	for (i = 0; i < set->n; i++)
		if (set->e[i].format == format &&
		    strcmp(set->e[i].name, name) == 0 &&
		    strcmp(set->e[i].game, game) == 0 &&
		    strcmp(set->e[i].lang, lang) == 0)
			return &set->e[i];
	return NULL;
}

/*
 * Loading.
 */

/* Names of the entries of a folder, sorted, without "." files and
 * editor backups; NULL with err set if it cannot be read. */
static int
skip_entry(const struct dirent *de)
{
	size_t	len = strlen(de->d_name);

	return de->d_name[0] != '.' && de->d_name[len - 1] != '~';
}

static int
list_dir(const char *path, struct dirent ***list, char *err, size_t errlen)
{
	int	n;

	if ((n = scandir(path, list, skip_entry, alphasort)) == -1)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return n;
}

static void
free_list(struct dirent **list, int n)
{
	while (n > 0)
		free(list[--n]);
	free(list);
}

static int
is_dir(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The whole of a template file, NUL-terminated, in *text. */
static int
read_file(const char *path, char **text, size_t *len, char *err,
    size_t errlen)
{
	FILE	*f;
	char	*buf;
	size_t	 n;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = xrealloc(NULL, TPL_MAX_FILE + 1, 1);
	n = fread(buf, 1, TPL_MAX_FILE + 1, f);
	if (ferror(f) || n > TPL_MAX_FILE) {
		snprintf(err, errlen, "%s: %s", path, ferror(f) ?
		    "read error" : "larger than 1 MiB");
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	if (memchr(buf, '\0', n) != NULL) {
		snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
		free(buf);
		return -1;
	}
	*text = buf;
	*len = n;
	return 0;
}

static int
load_file(struct tpl_set *set, const char *dir, const char *lang,
    const char *game, const char *file, char *err, size_t errlen)
{
	struct tpl_entry	*e;
	struct mustache		*t;
	char			 path[4096], *text;
	size_t			 i, len, flen = strlen(file), slen;

	snprintf(path, sizeof(path), "%s/%s/%s/%s", dir, lang, game, file);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		slen = strlen(kinds[i].suffix);
		if (flen > slen &&
		    strcmp(file + flen - slen, kinds[i].suffix) == 0)
			break;
	}
	if (i == sizeof(kinds) / sizeof(kinds[0])) {
		snprintf(err, errlen, "%s: not a template: names end in "
		    ".txt.mustache or .html.mustache", path);
		return -1;
	}
	if (read_file(path, &text, &len, err, errlen) == -1)
		return -1;
	t = mustache_compile(path, text, len, err, errlen);
	free(text);
	if (t == NULL)
		return -1;
	if (set->n == set->cap) {
		set->cap = set->cap == 0 ? 32 : set->cap * 2;
		set->e = xrealloc(set->e, set->cap, sizeof(*set->e));
	}
	e = &set->e[set->n++];
	e->lang = xstrdup(lang);
	e->game = xstrdup(game);
	e->name = xstrdup(file);
	e->name[flen - slen] = '\0';
	e->format = kinds[i].format;
	e->tpl = t;
	return 0;
}

static int
load_game(struct tpl_set *set, const char *dir, const char *lang,
    const char *game, char *err, size_t errlen)
{
	struct dirent	**list;
	char		  path[4096];
	int		  i, n, rc = 0;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, lang, game);
	if ((n = list_dir(path, &list, err, errlen)) == -1)
		return -1;
	for (i = 0; i < n && rc == 0; i++)
		rc = load_file(set, dir, lang, game, list[i]->d_name, err,
		    errlen);
	free_list(list, n);
	return rc;
}

static int
load_lang(struct tpl_set *set, const char *dir, const char *lang, char *err,
    size_t errlen)
{
	struct dirent	**list;
	char		  path[4096];
	int		  i, n, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, lang);
	if ((n = list_dir(path, &list, err, errlen)) == -1)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", dir, lang,
		    list[i]->d_name);
		if (!is_dir(path)) {
			snprintf(err, errlen, "%s: not a folder: templates go "
			    "in LANG/GAME/ or LANG/partials/", path);
			rc = -1;
		} else
			rc = load_game(set, dir, lang, list[i]->d_name, err,
			    errlen);
	}
	free_list(list, n);
	return rc;
}

/* Every {{>p}} must name a template of the same game or a partial. */
struct partial_check {
	const struct tpl_set	*set;
	const struct tpl_entry	*e;
	char			*err;
	size_t			 errlen;
};

static int
check_partial(void *arg, const char *name, int line)
{
	struct partial_check	*pc = arg;
	const struct tpl_entry	*e = pc->e;

	if (find_entry(pc->set, e->lang, e->game, name, e->format) != NULL ||
	    find_entry(pc->set, e->lang, PARTIALS_DIR, name, e->format) !=
	    NULL)
		return 0;
	snprintf(pc->err, pc->errlen, "%s:%d: no partial \"%s\" in %s/%s/ "
	    "or %s/%s/", mustache_name(e->tpl), line, name, e->lang, e->game,
	    e->lang, PARTIALS_DIR);
	return -1;
}

struct tpl_set *
templates_load(const char *dir, char *err, size_t errlen)
{
	struct tpl_set		*set;
	struct dirent		**list;
	struct partial_check	  pc;
	char			  path[4096];
	size_t			  k;
	int			  i, n, rc = 0;

	if ((n = list_dir(dir, &list, err, errlen)) == -1)
		return NULL;
	set = xrealloc(NULL, 1, sizeof(*set));
	memset(set, 0, sizeof(*set));
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		if (is_dir(path))
			rc = load_lang(set, dir, list[i]->d_name, err, errlen);
	}
	free_list(list, n);
	if (rc == 0 && set->n == 0) {
		snprintf(err, errlen, "%s: no templates", dir);
		rc = -1;
	}
	pc.set = set;
	pc.err = err;
	pc.errlen = errlen;
	for (k = 0; rc == 0 && k < set->n; k++) {
		pc.e = &set->e[k];
		rc = mustache_each_partial(set->e[k].tpl, check_partial, &pc);
	}
	if (rc != 0) {
		templates_free(set);
		return NULL;
	}
	return set;
}

void
templates_free(struct tpl_set *set)
{
	size_t	i;

	if (set == NULL)
		return;
	for (i = 0; i < set->n; i++) {
		free(set->e[i].lang);
		free(set->e[i].game);
		free(set->e[i].name);
		mustache_free(set->e[i].tpl);
	}
	free(set->e);
	free(set);
}

/*
 * Looking up and rendering.
 */
int
templates_has(const struct tpl_set *set, const char *lang, const char *game,
    const char *name, enum tpl_format format)
{
	return find_entry(set, lang, game, name, format) != NULL;
}

size_t
templates_count(const struct tpl_set *set)
{
	return set->n;
}

/* The partial resolver: the game's own folder, then partials/. */
struct resolve_ctx {
	const struct tpl_set	*set;
	const char		*lang;
	const char		*game;
	enum tpl_format		 format;
};

static const struct mustache *
resolve(void *arg, const char *name)
{
	struct resolve_ctx	*rc = arg;
	const struct tpl_entry	*e;

	if ((e = find_entry(rc->set, rc->lang, rc->game, name,
	    rc->format)) == NULL)
		e = find_entry(rc->set, rc->lang, PARTIALS_DIR, name,
		    rc->format);
	return e != NULL ? e->tpl : NULL;
}

int
templates_render(const struct tpl_set *set, const char *lang,
    const char *game, const char *name, enum tpl_format format,
    const json_t *view, struct mustache_buf *out, char *err, size_t errlen)
{
	const struct tpl_entry	*e;
	struct resolve_ctx	 rc = { set, lang, game, format };

	if ((e = find_entry(set, lang, game, name, format)) == NULL) {
		snprintf(err, errlen, "no template %s/%s/%s%s", lang, game,
		    name, kinds[format].suffix);
		return -1;
	}
	return mustache_render(e->tpl, view, resolve, &rc,
	    format == TPL_HTML ? MUSTACHE_ESCAPE_HTML : MUSTACHE_ESCAPE_NONE,
	    out, err, errlen);
}

const char *
templates_installed_dir(void)
{
	return PBEM_TEMPLATE_DIR;
}

const char *
templates_dir(const char *dir)
{
	struct stat sb;

	if (dir != NULL)
		return dir;
	if ((dir = getenv("PBEM_TEMPLATES")) != NULL)
		return dir;
	if (stat(PBEM_TEMPLATE_DIR, &sb) == 0 && S_ISDIR(sb.st_mode))
		return PBEM_TEMPLATE_DIR;
	/* Run from the source tree, not installed. */
	if (stat("templates", &sb) == 0 && S_ISDIR(sb.st_mode))
		return "templates";
	/* Neither: the installed path, which the error will name. */
	return PBEM_TEMPLATE_DIR;
}
