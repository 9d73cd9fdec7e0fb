/*
 * textwidth.c -- the 78-column check of the text views (textwidth.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <jansson.h>

#include "mail.h"
#include "present.h"
#include "textwidth.h"

/* Characters of the line at s, up to its newline. */
static size_t
columns(const char *s)
{
	size_t n = 0;

	for (; *s != '\0' && *s != '\n'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Fail, naming what was rendered and showing the line, on a line wider
 * than TEXT_COLUMNS. */
static void
check_width(const char *text, const char *what)
{
	const char	*line = text;
	int		 number = 1;

	for (;;) {
		ck_assert_msg(columns(line) <= TEXT_COLUMNS, "%s, line %d: "
		    "%zu columns:\n%.*s", what, number, columns(line),
		    (int)strcspn(line, "\n"), line);
		if ((line = strchr(line, '\n')) == NULL)
			break;
		line++;
		number++;
	}
}

/* Fail on a line that begins (after its indent) with punctuation that
 * belongs to the word before it: a French "»", ";", ":", "!" or "?"
 * standing alone, left there by a wrap. */
static void
check_punctuation(const char *text, const char *what)
{
	const char	*line = text, *p;
	int		 number = 1;

	for (;;) {
		for (p = line; *p == ' '; p++)
			continue;
		ck_assert_msg(!((strncmp(p, "»", 2) == 0 && (p[2] == ' ' ||
		    p[2] == '\n' || p[2] == '\0')) || ((*p == ';' || *p == ':' ||
		    *p == '!' || *p == '?') && (p[1] == ' ' || p[1] == '\n' ||
		    p[1] == '\0'))), "%s, line %d begins with punctuation:\n%.*s",
		    what, number, (int)strcspn(line, "\n"), line);
		if ((line = strchr(line, '\n')) == NULL)
			break;
		line++;
		number++;
	}
}

/* The view gamestate_view() gives, with a deadline for every seat to
 * act (the first one late) as engine_view_deadlines() adds them. */
static json_t *
engine_view(const struct textwidth_page *p)
{
	json_t *v = p->m->view(p->state, p->viewer), *result, *deadlines, *s;
	size_t i;

	json_object_set_new(v, "game_id", json_integer(1234));
	json_object_set_new(v, "ruleset", json_string(p->m->name));
	json_object_set_new(v, "next_seq", json_integer(p->seq + 1));
	json_object_set_new(v, "seed_commitment", json_string("e7f687f4665f"
	    "33799e5093c53320d85f1ec2586dc3b3fd89780528c7b8284979"));
	if (p->viewer >= 0)
		json_object_set_new(v, "seat", json_integer(p->viewer));
	deadlines = json_array();
	json_array_foreach(json_object_get(v, "to_act"), i, s)
		json_array_append_new(deadlines, json_pack("{s:O, s:s, s:b}",
		    "seat", s, "deadline", "2026-09-30T08:00:00Z", "late",
		    i == 0));
	json_object_set_new(v, "deadlines", deadlines);
	if ((result = p->m->result(p->state)) != NULL) {
		json_object_set_new(v, "result", result);
		json_object_set_new(v, "seed", json_string("0123456789abcdef"
		    "0123456789abcdef0123456789abcdef0123456789abcdef"));
	}
	return v;
}

/* No example move twice. */
static void
check_examples(const json_t *examples, const char *what)
{
	size_t i, j;

	for (i = 0; i < json_array_size(examples); i++)
		for (j = 0; j < i; j++)
			ck_assert_msg(strcmp(json_string_value(json_object_get(
			    json_array_get(examples, i), "text")),
			    json_string_value(json_object_get(
			    json_array_get(examples, j), "text"))) != 0,
			    "%s: example %zu repeats example %zu", what, i, j);
}

void
textwidth_render(const struct textwidth_page *p)
{
	struct present_info	 info;
	struct mustache_buf	 out;
	json_t			*view, *shown, *forms = NULL, *legal = NULL;
	char			 err[1024];
	char			*mail;

	memset(&info, 0, sizeof(info));
	info.lang = (enum rules_lang)p->lang;
	info.module = p->m;
	info.viewer = p->viewer;
	info.seat_names = p->seat_names;
	info.nseats = p->nseats;
	info.zone = "Europe/Paris";
	info.hosted = p->hosted;
	info.move = p->move;
	info.reason = p->reason;
	if (p->viewer >= 0) {
		forms = p->m->move_forms(p->state, p->viewer, info.lang);
		legal = p->m->legal_moves(p->state, p->viewer);
		info.forms = forms;
		info.legal = legal;
		info.state = p->state;
	}
	view = engine_view(p);
	shown = present_view(view, &info);
	check_examples(json_object_get(shown, "examples"), p->what);
	mustache_buf_init(&out);
	ck_assert_msg(templates_render(p->tpl, p->lang ? "fr" : "en",
	    p->m->name, p->name, TPL_TEXT, shown, &out, err, sizeof(err)) == 0,
	    "%s: %s", p->what, err);
	mustache_buf_append(&out, "", 1);
	ck_assert_msg(strstr(out.data, "{{") == NULL, "%s", p->what);
	check_width(out.data, p->what);
	check_punctuation(out.data, p->what);
	mail = mail_wrap(out.data, MAIL_WRAP_WIDTH);
	ck_assert_ptr_nonnull(mail);
	check_width(mail, p->what);
	free(mail);
	mustache_buf_free(&out);
	json_decref(shown);
	json_decref(view);
	json_decref(forms);
	json_decref(legal);
}
