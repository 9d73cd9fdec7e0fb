/*
 * check_mustache.c -- the Mustache renderer (daemon/render/mustache.c):
 *   - the official specification, driven from its JSON files in
 *     $SHARED_DIR/conformance/mustache-spec/ (every *.json there; the
 *     optional ~lambdas.json and ~inheritance.json are not shipped and
 *     not supported).  Prints "mustache spec: FILE: N/M passed" per file
 *     and the total, and fails on any failure or a missing folder;
 *   - compile errors with file and line; escaping modes; deep nesting;
 *     runaway partial recursion; a huge template and a huge value;
 *     random byte strings and mutated templates compiled and rendered.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "mustache.h"

/*
 * The specification.
 */

/* The partials of one spec test, compiled. */
struct partials {
	const char		**names;
	struct mustache		**tpls;
	size_t			  n;
};

static const struct mustache *
resolve_partial(void *arg, const char *name)
{
	struct partials	*ps = arg;
	size_t		 i;

	for (i = 0; i < ps->n; i++)
		if (strcmp(ps->names[i], name) == 0)
			return ps->tpls[i];
	return NULL;
}

static const char *
spec_dir(char *buf, size_t len)
{
	const char	*shared = getenv("SHARED_DIR");
	const char	*top = getenv("top_srcdir");

	if (shared != NULL && *shared != '\0')
		snprintf(buf, len, "%s/conformance/mustache-spec", shared);
	else
		snprintf(buf, len, "%s/../shared/conformance/mustache-spec",
		    top != NULL && *top != '\0' ? top : ".");
	return buf;
}

/* Run one test object; 1 if it passed. */
static int
run_spec_test(const char *file, const json_t *test)
{
	const char		*name, *tmpl, *expected;
	const json_t		*data, *pj, *pv;
	const char		*pname;
	struct partials		 ps = { NULL, NULL, 0 };
	struct mustache		*t;
	struct mustache_buf	 out;
	char			 err[512], label[256];
	size_t			 i;
	int			 ok = 0;

	name = json_string_value(json_object_get(test, "name"));
	tmpl = json_string_value(json_object_get(test, "template"));
	expected = json_string_value(json_object_get(test, "expected"));
	data = json_object_get(test, "data");
	if (name == NULL || tmpl == NULL || expected == NULL || data == NULL) {
		printf("  %s: malformed test\n", file);
		return 0;
	}
	snprintf(label, sizeof(label), "%s: %s", file, name);

	pj = json_object_get(test, "partials");
	if (json_is_object(pj)) {
		ps.names = calloc(json_object_size(pj) + 1, sizeof(*ps.names));
		ps.tpls = calloc(json_object_size(pj) + 1, sizeof(*ps.tpls));
		json_object_foreach((json_t *)pj, pname, pv) {
			ps.names[ps.n] = pname;
			ps.tpls[ps.n] = mustache_compile(pname,
			    json_string_value(pv), json_string_length(pv),
			    err, sizeof(err));
			if (ps.tpls[ps.n] == NULL) {
				printf("  FAIL %s: partial: %s\n", label, err);
				goto done;
			}
			ps.n++;
		}
	}
	t = mustache_compile(label, tmpl, strlen(tmpl), err, sizeof(err));
	if (t == NULL) {
		printf("  FAIL %s: %s\n", label, err);
		goto done;
	}
	mustache_buf_init(&out);
	if (mustache_render(t, data, resolve_partial, &ps,
	    MUSTACHE_ESCAPE_HTML, &out, err, sizeof(err)) == -1)
		printf("  FAIL %s: %s\n", label, err);
	else if (strcmp(out.data, expected) != 0)
		printf("  FAIL %s:\n    expected: \"%s\"\n    got:      "
		    "\"%s\"\n", label, expected, out.data);
	else
		ok = 1;
	mustache_buf_free(&out);
	mustache_free(t);
done:
	for (i = 0; i < ps.n; i++)
		mustache_free(ps.tpls[i]);
	free(ps.names);
	free(ps.tpls);
	return ok;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

START_TEST(test_spec)
{
	char		 dir[4096], path[8192];
	DIR		*d;
	struct dirent	*de;
	char		*files[64];
	size_t		 nfiles = 0, i, k, len;
	int		 passed = 0, total = 0, fpassed, ftotal;
	json_t		*doc, *tests;
	json_error_t	 jerr;

	spec_dir(dir, sizeof(dir));
	d = opendir(dir);
	ck_assert_msg(d != NULL, "mustache spec folder %s is missing: set "
	    "SHARED_DIR to the folder holding conformance/mustache-spec",
	    dir);
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0 &&
		    nfiles < sizeof(files) / sizeof(files[0]))
			files[nfiles++] = strdup(de->d_name);
	}
	closedir(d);
	ck_assert_msg(nfiles > 0, "no *.json spec file in %s", dir);
	qsort(files, nfiles, sizeof(files[0]), by_name);

	for (i = 0; i < nfiles; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		doc = json_load_file(path, 0, &jerr);
		ck_assert_msg(doc != NULL, "%s:%d: %s", path, jerr.line,
		    jerr.text);
		tests = json_object_get(doc, "tests");
		ck_assert_msg(json_is_array(tests), "%s: no \"tests\" array",
		    path);
		fpassed = ftotal = 0;
		for (k = 0; k < json_array_size(tests); k++) {
			ftotal++;
			fpassed += run_spec_test(files[i],
			    json_array_get(tests, k));
		}
		printf("mustache spec: %s: %d/%d passed\n", files[i], fpassed,
		    ftotal);
		passed += fpassed;
		total += ftotal;
		json_decref(doc);
		free(files[i]);
	}
	printf("mustache spec: %d/%d passed\n", passed, total);
	ck_assert_int_gt(total, 0);
	ck_assert_int_eq(passed, total);
}
END_TEST

/*
 * Unit tests.
 */

/* Render text against JSON text; returns a malloc'ed string, or NULL with
 * the compile or render error in err. */
static char *
render(const char *tmpl, const char *data, enum mustache_escape esc,
    char *err, size_t errlen)
{
	struct mustache		*t;
	struct mustache_buf	 out;
	json_t			*ctx;
	json_error_t		 jerr;
	int			 rc;

	ctx = json_loads(data, JSON_DECODE_ANY, &jerr);
	ck_assert_msg(ctx != NULL, "bad test data: %s", jerr.text);
	t = mustache_compile("t.mustache", tmpl, strlen(tmpl), err, errlen);
	if (t == NULL) {
		json_decref(ctx);
		return NULL;
	}
	mustache_buf_init(&out);
	rc = mustache_render(t, ctx, NULL, NULL, esc, &out, err, errlen);
	mustache_free(t);
	json_decref(ctx);
	if (rc == -1) {
		mustache_buf_free(&out);
		return NULL;
	}
	return out.data;
}

static void
expect_error(const char *tmpl, const char *message)
{
	char	 err[256];
	char	*s;

	s = render(tmpl, "{}", MUSTACHE_ESCAPE_NONE, err, sizeof(err));
	ck_assert_msg(s == NULL, "\"%s\" compiled", tmpl);
	ck_assert_str_eq(err, message);
}

START_TEST(test_compile_errors)
{
	expect_error("a\nb {{name\n", "t.mustache:2: unclosed tag: "
	    "no closing \"}}\"");
	expect_error("{{{x}}", "t.mustache:1: unclosed tag: no closing "
	    "\"}}}\"");
	expect_error("x\n\n{{#a}}\n{{#b}}\n{{/b}}\n", "t.mustache:3: "
	    "unclosed section: \"a\" has no {{/a}}");
	expect_error("{{#a}}\n{{#b}}\n{{/a}}\n{{/b}}", "t.mustache:3: "
	    "mismatched close tag: section \"b\" opened on line 2 is closed "
	    "by \"a\"");
	expect_error("ok\n{{/a}}", "t.mustache:2: close tag with no open "
	    "section: {{/a}}");
	expect_error("\n{{=<%=}}", "t.mustache:2: bad delimiter change: "
	    "expected two delimiters separated by blanks, as in {{=<% %>=}}");
	expect_error("{{=<% %> x=}}", "t.mustache:1: bad delimiter change: "
	    "expected two delimiters separated by blanks, as in {{=<% %>=}}");
	expect_error("{{= =}}", "t.mustache:1: bad delimiter change: "
	    "expected two delimiters separated by blanks, as in {{=<% %>=}}");
	expect_error("{{=<%= %>=}}", "t.mustache:1: bad delimiter change: "
	    "a delimiter may not contain '='");
	expect_error("{{=<% %>=}}\n<%a}}", "t.mustache:2: unclosed tag: "
	    "no closing \"%>\"");
	expect_error("a {{ }} b", "t.mustache:1: empty tag name");
	expect_error("{{#}}{{/}}", "t.mustache:1: empty tag name");
	expect_error("{{a b}}", "t.mustache:1: blank inside tag name");
	expect_error("{{! never\nclosed", "t.mustache:1: unclosed tag: "
	    "no closing \"}}\"");
}
END_TEST

static void
expect(const char *tmpl, const char *data, enum mustache_escape esc,
    const char *want)
{
	char	 err[256];
	char	*s;

	s = render(tmpl, data, esc, err, sizeof(err));
	ck_assert_msg(s != NULL, "\"%s\": %s", tmpl, err);
	ck_assert_str_eq(s, want);
	free(s);
}

START_TEST(test_escaping)
{
	const char *data = "{\"x\": \"<a href='u'>&\\\"</a>\"}";

	expect("{{x}}|{{{x}}}|{{&x}}", data, MUSTACHE_ESCAPE_HTML,
	    "&lt;a href=&#39;u&#39;&gt;&amp;&quot;&lt;/a&gt;|"
	    "<a href='u'>&\"</a>|<a href='u'>&\"</a>");
	expect("{{x}}|{{{x}}}|{{&x}}", data, MUSTACHE_ESCAPE_NONE,
	    "<a href='u'>&\"</a>|<a href='u'>&\"</a>|<a href='u'>&\"</a>");
	/* values are never re-read as templates, escaped or not */
	expect("{{x}}", "{\"x\": \"{{y}}\", \"y\": 1}", MUSTACHE_ESCAPE_NONE,
	    "{{y}}");
}
END_TEST

START_TEST(test_values)
{
	expect("{{a}} {{b}} {{c}} {{d}} {{e}} {{f}} {{g}}.",
	    "{\"a\": 0, \"b\": -12, \"c\": 0.1, \"d\": true, \"e\": false, "
	    "\"f\": null, \"g\": [1]}", MUSTACHE_ESCAPE_NONE,
	    "0 -12 0.1 true false  .");
	/* truth: 0 and {} are true; false, null, [], "" and missing not */
	expect("{{#a}}A{{/a}}{{#b}}B{{/b}}{{#c}}C{{/c}}{{#d}}D{{/d}}"
	    "{{#e}}E{{/e}}{{#f}}F{{/f}}{{#g}}G{{/g}}",
	    "{\"a\": 0, \"b\": \"\", \"c\": {}, \"d\": false, \"e\": null, "
	    "\"f\": []}", MUSTACHE_ESCAPE_NONE, "AC");
	/* UTF-8 and NUL-free text pass through untouched */
	expect("é {{n}} ü", "{\"n\": \"Défausse « ok »\"}",
	    MUSTACHE_ESCAPE_HTML, "é Défausse « ok » ü");
}
END_TEST

START_TEST(test_deep_nesting)
{
	struct mustache_buf	 b, d;
	char			 err[256];
	char			*s;
	int			 i;

	/* as deep as allowed: renders */
	mustache_buf_init(&b);
	mustache_buf_init(&d);
	for (i = 0; i < MUSTACHE_MAX_DEPTH; i++) {
		mustache_buf_append(&b, "{{#a}}", 6);
		mustache_buf_append(&d, "{\"a\":", 5);
	}
	mustache_buf_append(&b, "{{x}}", 5);
	mustache_buf_append(&d, "{\"x\": \"deep\"}", 13);
	for (i = 0; i < MUSTACHE_MAX_DEPTH; i++) {
		mustache_buf_append(&b, "{{/a}}", 6);
		mustache_buf_append(&d, "}", 1);
	}
	s = render(b.data, d.data, MUSTACHE_ESCAPE_NONE, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	ck_assert_str_eq(s, "deep");
	free(s);

	/* one deeper: refused when compiled */
	mustache_buf_free(&b);
	for (i = 0; i <= MUSTACHE_MAX_DEPTH; i++)
		mustache_buf_append(&b, "{{#a}}", 6);
	s = render(b.data, "{}", MUSTACHE_ESCAPE_NONE, err, sizeof(err));
	ck_assert_ptr_null(s);
	ck_assert_str_eq(err, "t.mustache:1: sections nested too deeply");
	mustache_buf_free(&b);
	mustache_buf_free(&d);
}
END_TEST

static const struct mustache *
self_partial(void *arg, const char *name)
{
	(void)name;
	return arg;
}

START_TEST(test_partial_recursion)
{
	struct mustache		*t;
	struct mustache_buf	 out;
	char			 err[256];
	json_t			*ctx = json_object();

	/* a partial that includes itself for ever is stopped, not a crash */
	t = mustache_compile("loop", "x{{>loop}}", 10, err, sizeof(err));
	ck_assert_ptr_nonnull(t);
	mustache_buf_init(&out);
	ck_assert_int_eq(mustache_render(t, ctx, self_partial, t,
	    MUSTACHE_ESCAPE_NONE, &out, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "loop:1: sections and partials nested deeper "
	    "than 200 while rendering");
	mustache_buf_free(&out);
	mustache_free(t);
	json_decref(ctx);
}
END_TEST

START_TEST(test_huge)
{
	struct mustache		*t;
	struct mustache_buf	 tmpl, out;
	json_t			*ctx, *list;
	char			*big, err[256];
	size_t			 n = 4u << 20, i;

	/* a 4 MiB value interpolated 3 times: nothing is truncated */
	big = malloc(n + 1);
	memset(big, 'x', n);
	big[n] = '\0';
	big[n / 2] = '<';
	ctx = json_pack("{s:s}", "v", big);
	t = mustache_compile("t", "{{v}}{{{v}}}{{&v}}", 18, err, sizeof(err));
	mustache_buf_init(&out);
	ck_assert_int_eq(mustache_render(t, ctx, NULL, NULL,
	    MUSTACHE_ESCAPE_HTML, &out, err, sizeof(err)), 0);
	ck_assert_uint_eq(out.len, 3 * n + 3);
	ck_assert(memcmp(out.data + n / 2, "&lt;", 4) == 0);
	mustache_buf_free(&out);
	mustache_free(t);
	json_decref(ctx);
	free(big);

	/* a template of 100,000 tags rendered for a 10-element list */
	mustache_buf_init(&tmpl);
	mustache_buf_append(&tmpl, "{{#l}}", 6);
	for (i = 0; i < 100000; i++)
		mustache_buf_append(&tmpl, "{{.}}\n", 6);
	mustache_buf_append(&tmpl, "{{/l}}", 6);
	t = mustache_compile("t", tmpl.data, tmpl.len, err, sizeof(err));
	ck_assert_msg(t != NULL, "%s", err);
	list = json_array();
	for (i = 0; i < 10; i++)
		json_array_append_new(list, json_integer((json_int_t)i));
	ctx = json_pack("{s:o}", "l", list);
	mustache_buf_init(&out);
	ck_assert_int_eq(mustache_render(t, ctx, NULL, NULL,
	    MUSTACHE_ESCAPE_NONE, &out, err, sizeof(err)), 0);
	ck_assert_uint_eq(out.len, 100000u * 10 * 2);
	mustache_buf_free(&out);
	mustache_buf_free(&tmpl);
	mustache_free(t);
	json_decref(ctx);
}
END_TEST

/*
 * Robustness: random bytes drawn from Mustache's own alphabet, and the
 * spec-like templates below cut and spliced, all compiled and (when they
 * compile) rendered.  A fixed-seed generator keeps runs identical.
 */
static unsigned long
next_rand(unsigned long *s)
{
	*s = *s * 6364136223846793005UL + 1442695040888963407UL;
	return *s >> 33;
}

START_TEST(test_random_templates)
{
	static const char	 alphabet[] = "{}#^/!>=&.ab \t\r\n<%|";
	static const char	*pieces[] = {
		"{{#a}}", "{{/a}}", "{{^b}}", "{{/b}}", "{{a}}", "{{{b}}}",
		"{{&a.b}}", "{{.}}", "{{>p}}", "  {{>p}}\n", "{{=<% %>=}}",
		"<%={{ }}=%>", "{{! c }}", "\n", "  ", "text", "{{", "}}",
		"<%a%>", "<%#a%>", "<%/a%>", "\r\n"
	};
	struct mustache		*t, *p;
	struct mustache_buf	 out;
	json_t			*ctx;
	char			 buf[256], err[256];
	unsigned long		 seed = 1;
	size_t			 len, k;
	int			 round, compiled = 0;

	ctx = json_loads("{\"a\": [{\"b\": \"<x>\"}, {\"b\": true}], "
	    "\"b\": {\"a\": 1}}", 0, NULL);
	p = mustache_compile("p", "[{{a}}{{#b}}{{a}}{{/b}}]\n", 24, err,
	    sizeof(err));
	for (round = 0; round < 40000; round++) {
		len = 0;
		if (round % 2 == 0) {
			for (k = next_rand(&seed) % 64; k > 0; k--)
				buf[len++] = alphabet[next_rand(&seed) %
				    (sizeof(alphabet) - 1)];
		} else {
			for (k = next_rand(&seed) % 12; k > 0; k--) {
				const char *pc = pieces[next_rand(&seed) %
				    (sizeof(pieces) / sizeof(pieces[0]))];

				if (len + strlen(pc) >= sizeof(buf))
					break;
				memcpy(buf + len, pc, strlen(pc));
				len += strlen(pc);
			}
		}
		t = mustache_compile("r", buf, len, err, sizeof(err));
		if (t == NULL) {
			ck_assert(strncmp(err, "r:", 2) == 0);
			continue;
		}
		compiled++;
		mustache_buf_init(&out);
		mustache_render(t, ctx, self_partial, p,
		    MUSTACHE_ESCAPE_HTML, &out, err, sizeof(err));
		mustache_buf_free(&out);
		mustache_free(t);
	}
	ck_assert_int_gt(compiled, 1000);
	mustache_free(p);
	json_decref(ctx);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("mustache");
	TCase	*spec = tcase_create("spec"), *unit = tcase_create("unit");
	SRunner	*sr;
	int	 failed;

	tcase_set_timeout(spec, 120);
	tcase_set_timeout(unit, 120);
	tcase_add_test(spec, test_spec);
	tcase_add_test(unit, test_compile_errors);
	tcase_add_test(unit, test_escaping);
	tcase_add_test(unit, test_values);
	tcase_add_test(unit, test_deep_nesting);
	tcase_add_test(unit, test_partial_recursion);
	tcase_add_test(unit, test_huge);
	tcase_add_test(unit, test_random_templates);
	suite_add_tcase(s, spec);
	suite_add_tcase(s, unit);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
