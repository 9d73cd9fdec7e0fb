/*
 * check_config.c -- the settings table and its file parser (conf.h):
 * defaults, files, command-line pairs, refusals with file:line that leave
 * the settings as they were, and the documentation naming every option;
 * secrets read from files (conf_secrets.h, secretfile.h): the first line
 * only, modes, both ways refused, never written out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "conf.h"
#include "conf_secrets.h"
#include "secretfile.h"

static char path[64];

static void
write_file(const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/check_config.%ld", (long)getpid());
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

static void
teardown(void)
{
	unlink(path);
}

START_TEST(defaults)
{
	struct config *cfg = config_new();

	ck_assert_str_eq(config_str(cfg, "database"), "pbem.db");
	ck_assert_str_eq(config_str(cfg, "http_listen"), "127.0.0.1");
	ck_assert_int_eq(config_int(cfg, "http_port"), 8080);
	ck_assert_int_eq(config_int(cfg, "http_max_body"), 65536);
	config_free(cfg);
}
END_TEST

START_TEST(file_overrides)
{
	struct config *cfg = config_new();
	char err[512];

	write_file("# a comment\n\n  database = /var/lib/pbem/x.db  \n"
	    "http_port=9090\ntemplates = \"\"\nlog = \"syslog\"\n");
	ck_assert_int_eq(config_load_file(cfg, path, err, sizeof(err)), 0);
	ck_assert_str_eq(config_str(cfg, "database"), "/var/lib/pbem/x.db");
	ck_assert_int_eq(config_int(cfg, "http_port"), 9090);
	ck_assert_str_eq(config_str(cfg, "templates"), "");
	ck_assert_str_eq(config_str(cfg, "log"), "syslog");
	/* Untouched options keep their defaults. */
	ck_assert_str_eq(config_str(cfg, "http_listen"), "127.0.0.1");
	config_free(cfg);
}
END_TEST

/* A bad file names its line and changes nothing, not even the lines
 * before the bad one. */
static void
refused(const char *text, const char *want)
{
	struct config *cfg = config_new();
	char err[512];

	write_file(text);
	ck_assert_int_eq(config_load_file(cfg, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, want) != NULL, "error \"%s\" lacks \"%s\"",
	    err, want);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0,
	    "error \"%s\" does not start with the file name", err);
	ck_assert_str_eq(config_str(cfg, "database"), "pbem.db");
	ck_assert_int_eq(config_int(cfg, "http_port"), 8080);
	config_free(cfg);
}

START_TEST(bad_files)
{
	refused("database = a.db\nhttp_prot = 1\n", ":2: unknown option "
	    "\"http_prot\"");
	refused("database = a.db\nhttp_port = 70000\n", ":2: http_port: "
	    "70000 is out of range; it must be from 0 to 65535");
	refused("http_port = 80x\n", ":1: http_port: \"80x\" is not a whole "
	    "number");
	refused("database = a.db\njust words\n", ":2: expected "
	    "\"name = value\"");
	refused("= value\n", ":1: a line has no option name");
}
END_TEST

START_TEST(missing_file)
{
	struct config *cfg = config_new();
	char err[512];

	ck_assert_int_eq(config_load_file(cfg, "/nonexistent/pbemd.conf", err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/pbemd.conf: "));
	config_free(cfg);
}
END_TEST

START_TEST(pairs)
{
	struct config *cfg = config_new();
	char err[512];

	ck_assert_int_eq(config_set_pair(cfg, "http_threads=8", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(config_int(cfg, "http_threads"), 8);
	ck_assert_int_eq(config_set_pair(cfg, "http_threads=0", err,
	    sizeof(err)), -1);
	ck_assert_int_eq(config_int(cfg, "http_threads"), 8);
	ck_assert_int_eq(config_set_pair(cfg, "novalue", err, sizeof(err)),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "is not name=value"));
	config_free(cfg);
}
END_TEST

/* Every option appears in docs/CONFIG.md and contrib/pbemd.conf. */
static char *
slurp(const char *name)
{
	char file[1024], *text;
	FILE *f;
	long len;

	snprintf(file, sizeof(file), "%s/%s", SRCDIR, name);
	ck_assert_msg((f = fopen(file, "r")) != NULL, "cannot read %s", file);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	ck_assert_int_eq(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return text;
}

START_TEST(documented)
{
	const struct config_option *o;
	char *doc = slurp("docs/CONFIG.md"), *example =
	    slurp("contrib/pbemd.conf"), want[160];

	for (o = config_options(); o->name != NULL; o++) {
		snprintf(want, sizeof(want), "| `%s` |", o->name);
		ck_assert_msg(strstr(doc, want) != NULL, "docs/CONFIG.md "
		    "does not list %s", o->name);
		snprintf(want, sizeof(want), "#%s = ", o->name);
		ck_assert_msg(strstr(example, want) != NULL,
		    "contrib/pbemd.conf does not list %s", o->name);
		ck_assert_ptr_nonnull(o->doc);
	}
	free(doc);
	free(example);
}
END_TEST

/* The example file, uncommented, is itself a valid configuration that
 * restates the defaults. */
START_TEST(example_is_valid)
{
	struct config *cfg = config_new();
	char *example = slurp("contrib/pbemd.conf"), *line, *save, err[512];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/check_config.%ld", (long)getpid());
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	for (line = strtok_r(example, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if (line[0] == '#' && line[1] != ' ' && line[1] != '\0')
			fprintf(f, "%s\n", line + 1);
	fclose(f);
	ck_assert_msg(config_load_file(cfg, path, err, sizeof(err)) == 0,
	    "%s", err);
	ck_assert_str_eq(config_str(cfg, "database"), "pbem.db");
	ck_assert_int_eq(config_int(cfg, "http_port"), 8080);
	free(example);
	config_free(cfg);
}
END_TEST

/* The secret file at path holds text, with mode. */
static void
write_secret(const char *text, size_t len, mode_t mode)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/check_config.%ld", (long)getpid());
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	ck_assert_int_eq(chmod(path, mode), 0);
}

/* An empty public_base_url is the HTTP listener's own address, so the
 * links in mails follow -p; one given stays as it is. */
START_TEST(derived_base_url)
{
	struct config *cfg = config_new();
	char err[256];

	ck_assert_ptr_nonnull(cfg);
	ck_assert_str_eq(config_str(cfg, "public_base_url"), "");
	ck_assert_int_eq(config_set(cfg, "http_port", "18080", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(config_derive(cfg, err, sizeof(err)), 0);
	ck_assert_str_eq(config_str(cfg, "public_base_url"),
	    "http://127.0.0.1:18080");
	config_free(cfg);

	cfg = config_new();
	ck_assert_int_eq(config_set(cfg, "http_listen", "0.0.0.0", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(config_derive(cfg, err, sizeof(err)), 0);
	ck_assert_str_eq(config_str(cfg, "public_base_url"),
	    "http://127.0.0.1:8080");
	config_free(cfg);

	cfg = config_new();
	ck_assert_int_eq(config_set(cfg, "http_listen", "192.0.2.7", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(config_set(cfg, "public_base_url",
	    "https://pbem.example.org", err, sizeof(err)), 0);
	ck_assert_int_eq(config_derive(cfg, err, sizeof(err)), 0);
	ck_assert_str_eq(config_str(cfg, "public_base_url"),
	    "https://pbem.example.org");
	config_free(cfg);
}
END_TEST

START_TEST(secret_files)
{
	char buf[64], err[512];

	/* The first line, without CRLF; what follows it is ignored. */
	write_secret("hunter2\r\nsecond line\n", 21, 0600);
	ck_assert_int_eq(secretfile_read_line(path, buf, sizeof(buf), err,
	    sizeof(err)), 0);
	ck_assert_str_eq(buf, "hunter2");
	write_secret("no line end", 11, 0440);
	ck_assert_int_eq(secretfile_read_line(path, buf, sizeof(buf), err,
	    sizeof(err)), 0);
	ck_assert_str_eq(buf, "no line end");
	/* 0640 is the usual root:pbem file; 0604, 0620, 0660 are not. */
	write_secret("x\n", 2, 0640);
	ck_assert_int_eq(secretfile_read_line(path, buf, sizeof(buf), err,
	    sizeof(err)), 0);
	write_secret("x\n", 2, 0604);
	ck_assert_int_eq(secretfile_read_line(path, buf, sizeof(buf), err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "mode 0604"));
	write_secret("x\n", 2, 0620);
	ck_assert_int_eq(secretfile_read_line(path, buf, sizeof(buf), err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "mode 0620"));
	/* Empty, an empty first line, too long, a NUL: refused, naming it. */
	write_secret("", 0, 0600);
	ck_assert_int_eq(secretfile_read_line(path, buf, sizeof(buf), err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "empty"));
	write_secret("\nsecret on line 2\n", 18, 0600);
	ck_assert_int_eq(secretfile_read_line(path, buf, sizeof(buf), err,
	    sizeof(err)), -1);
	write_secret("0123456789012345678901234567890123456789012345678901234"
	    "567890123456789", 70, 0600);
	ck_assert_int_eq(secretfile_read_line(path, buf, sizeof(buf), err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "longer than 62 bytes"));
	ck_assert_str_eq(buf, "");		/* wiped */
	write_secret("ab\0cd\n", 6, 0600);
	ck_assert_int_eq(secretfile_read_line(path, buf, sizeof(buf), err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "NUL"));
	/* A folder is no secret file. */
	ck_assert_int_eq(secretfile_read_line("/tmp", buf, sizeof(buf), err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "/tmp: "));
}
END_TEST

START_TEST(secrets_in_settings)
{
	struct config *cfg = config_new();
	char err[512], set[128];
	FILE *out;
	char *text = NULL;
	size_t len = 0;

	write_secret("s3cret\n", 7, 0600);
	snprintf(set, sizeof(set), "mail_smtp_password_file=%s", path);
	ck_assert_int_eq(config_set_pair(cfg, set, err, sizeof(err)), 0);
	ck_assert_int_eq(config_read_secret_files(cfg, err, sizeof(err)), 0);
	ck_assert_str_eq(config_str(cfg, "mail_smtp_password"), "s3cret");
	/* Written out, a secret is never shown. */
	ck_assert_ptr_nonnull(out = open_memstream(&text, &len));
	config_write(cfg, out);
	fclose(out);
	ck_assert_ptr_null(strstr(text, "s3cret"));
	ck_assert_ptr_nonnull(strstr(text,
	    "mail_smtp_password = \"" CONFIG_SECRET_SHOWN "\""));
	free(text);
	/* Inline and by file at once: refused. */
	config_free(cfg);
	cfg = config_new();
	ck_assert_int_eq(config_set_pair(cfg, set, err, sizeof(err)), 0);
	ck_assert_int_eq(config_set(cfg, "mail_smtp_password", "inline", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(config_read_secret_files(cfg, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "both set"));
	config_free(cfg);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("config");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, file_overrides);
	tcase_add_test(tc, bad_files);
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, pairs);
	tcase_add_test(tc, documented);
	tcase_add_test(tc, example_is_valid);
	tcase_add_test(tc, secret_files);
	tcase_add_test(tc, secrets_in_settings);
	tcase_add_test(tc, derived_base_url);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
