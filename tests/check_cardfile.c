/*
 * check_cardfile.c -- the card-file reader (rules/cardfile.h): what YAML
 * becomes in JSON, the lines it keeps for refusals, and what it refuses
 * (aliases, tags, two documents, duplicate keys, deep nesting, a single
 * value, broken YAML), each with FILE:LINE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "cardfile.h"

static struct rules_cardfile *
read_text(const char *text, char *err, size_t errlen)
{
	return rules_cardfile_read(text, strlen(text), "test.yaml", err,
	    errlen);
}

/* The reader refuses text with a message that starts with prefix. */
static void
assert_refused(const char *text, const char *prefix, const char *words)
{
	char err[512] = "";
	struct rules_cardfile *file = read_text(text, err, sizeof(err));

	ck_assert_msg(file == NULL, "accepted: %s", text);
	ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0,
	    "\"%s\" does not start with \"%s\"", err, prefix);
	ck_assert_msg(strstr(err, words) != NULL, "\"%s\" lacks \"%s\"", err,
	    words);
}

static const char cards_text[] =
    "# two cards\n"
    "cards:\n"
    "  - id: worf\n"
    "    cost: 3\n"
    "    traits: [security, klingon]\n"
    "    quoted: \"12\"\n"
    "    text: >\n"
    "      Draw a card.\n"
    "  - id: data\n"
    "    cost: -2\n"
    "    wild: true\n"
    "    nothing:\n"
    "    ratio: 1.5\n"
    "    big: 99999999999999999999\n";

START_TEST(test_values_and_lines)
{
	char err[512];
	struct rules_cardfile *file = read_text(cards_text, err, sizeof(err));
	const json_t *root, *cards, *worf, *data;

	ck_assert_msg(file != NULL, "%s", err);
	root = rules_cardfile_root(file);
	cards = json_object_get(root, "cards");
	ck_assert_int_eq(json_array_size(cards), 2);
	worf = json_array_get(cards, 0);
	data = json_array_get(cards, 1);
	ck_assert_str_eq(json_string_value(json_object_get(worf, "id")),
	    "worf");
	ck_assert_int_eq(json_integer_value(json_object_get(worf, "cost")), 3);
	ck_assert_str_eq(json_string_value(json_array_get(
	    json_object_get(worf, "traits"), 1)), "klingon");
	ck_assert(json_is_string(json_object_get(worf, "quoted")));
	ck_assert_str_eq(json_string_value(json_object_get(worf, "text")),
	    "Draw a card.\n");
	ck_assert_int_eq(json_integer_value(json_object_get(data, "cost")),
	    -2);
	ck_assert(json_is_true(json_object_get(data, "wild")));
	ck_assert(json_is_null(json_object_get(data, "nothing")));
	ck_assert_str_eq(json_string_value(json_object_get(data, "ratio")),
	    "1.5");
	/* Too big for an integer: kept as text, for the module to refuse. */
	ck_assert(json_is_string(json_object_get(data, "big")));

	ck_assert_int_eq(rules_cardfile_line(file, root), 2);
	ck_assert_int_eq(rules_cardfile_line(file, cards), 3);
	ck_assert_int_eq(rules_cardfile_line(file, worf), 3);
	ck_assert_int_eq(rules_cardfile_key_line(file, worf, "cost"), 4);
	ck_assert_int_eq(rules_cardfile_key_line(file, data, "ratio"), 13);
	ck_assert_int_eq(rules_cardfile_key_line(file, data, "absent"), 9);
	ck_assert_int_eq(rules_cardfile_index_line(file, cards, 1), 9);
	ck_assert_int_eq(rules_cardfile_index_line(file,
	    json_object_get(worf, "traits"), 1), 5);
	ck_assert_int_eq(rules_cardfile_line(file, NULL), 0);
	ck_assert_str_eq(rules_cardfile_name(file), "test.yaml");

	ck_assert_int_eq(rules_cardfile_error(file, data, "data", "ratio", err,
	    sizeof(err), "expected a whole number, not \"%s\"", "1.5"), -1);
	ck_assert_str_eq(err, "test.yaml:13: card data, field ratio: "
	    "expected a whole number, not \"1.5\"");
	rules_cardfile_error(file, worf, "worf", NULL, err, sizeof(err),
	    "no kind");
	ck_assert_str_eq(err, "test.yaml:3: card worf: no kind");
	rules_cardfile_error(file, root, NULL, NULL, err, sizeof(err),
	    "no cards");
	ck_assert_str_eq(err, "test.yaml:2: no cards");
	rules_cardfile_free(file);
	rules_cardfile_free(NULL);
}
END_TEST

START_TEST(test_refusals)
{
	char deep[4 * (RULES_CARDFILE_MAX_DEPTH + 2)] = "";
	int i;

	assert_refused("a: &x 1\nb: *x\n", "test.yaml:1:", "anchors");
	assert_refused("a: [1]\nb: *x\n", "test.yaml:2:", "aliases");
	assert_refused("a: !!str 1\n", "test.yaml:1:", "tags");
	assert_refused("a: 1\n---\nb: 2\n", "test.yaml:2:", "one document");
	assert_refused("a: 1\nb: 2\na: 3\n", "test.yaml:3:", "\"a\" is given "
	    "twice");
	assert_refused("just a word\n", "test.yaml:1:", "a mapping or a list");
	assert_refused("", "test.yaml:1:", "empty");
	assert_refused("# only a comment\n", "test.yaml:1:", "empty");
	assert_refused("a: [1, 2\n", "test.yaml:", "not YAML");
	assert_refused("? [1]\n: 2\n", "test.yaml:1:", "plain word");
	assert_refused("a: \"\\0\"\n", "test.yaml:1:", "NUL");
	for (i = 0; i < RULES_CARDFILE_MAX_DEPTH + 1; i++)
		strcat(deep, "[");
	assert_refused(deep, "test.yaml:1:", "nested more than");
}
END_TEST

START_TEST(test_size_bound)
{
	size_t len = RULES_CARDFILE_MAX_BYTES + 1;
	char *big = malloc(len);
	char err[256];

	ck_assert_ptr_nonnull(big);
	memset(big, '#', len);
	ck_assert_ptr_null(rules_cardfile_read(big, len, "big.yaml", err,
	    sizeof(err)));
	ck_assert_msg(strstr(err, "big.yaml: the file has") == err, "%s", err);
	free(big);
}
END_TEST

/* Every prefix of a valid file is read or refused, never crashes. */
START_TEST(test_every_prefix)
{
	size_t len = strlen(cards_text), n;
	char err[512];

	for (n = 0; n <= len; n++) {
		struct rules_cardfile *file = rules_cardfile_read(cards_text,
		    n, "p.yaml", err, sizeof(err));

		if (file == NULL)
			ck_assert_msg(strncmp(err, "p.yaml:", 7) == 0, "%s",
			    err);
		rules_cardfile_free(file);
	}
}
END_TEST

int
main(void)
{
	Suite *suite = suite_create("cardfile");
	TCase *tc = tcase_create("reader");
	SRunner *runner;
	int failed;

	tcase_add_test(tc, test_values_and_lines);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_size_bound);
	tcase_add_test(tc, test_every_prefix);
	suite_add_tcase(suite, tc);
	runner = srunner_create(suite);
	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
