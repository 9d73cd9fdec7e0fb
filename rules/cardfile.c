/*
 * cardfile.c -- YAML card files read into jansson trees with the line of
 * every value (the contract is in cardfile.h).
 *
 * libyaml's event parser drives a small stack: each mapping or sequence
 * start pushes the new JSON container, each end pops it, and every value
 * is attached to the container on top -- as the next item of an array,
 * or, in an object, first as the pending key and then as its value.
 * Alongside, "places" remember the line of every container and of every
 * value inside one, looked up only when a module writes a refusal.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "cardfile.h"

/* Where one value of the file sits. */
enum place_kind {
	PLACE_NODE,	/* the container itself */
	PLACE_KEY,	/* the value of key in the object container */
	PLACE_INDEX	/* item index of the array container */
};

struct place {
	enum place_kind kind;
	const json_t *container;
	char *key;
	size_t index;
	int line;
};

struct rules_cardfile {
	char *name;
	json_t *root;
	struct place *places;
	size_t nplaces;
	size_t places_room;
};

/* One open container while reading, with the key waiting for its value. */
struct frame {
	json_t *container;
	char *pending_key;
};

struct reader {
	struct rules_cardfile *file;
	struct frame stack[RULES_CARDFILE_MAX_DEPTH];
	int depth;
	int documents;
	char *err;
	size_t errlen;
};

static int
fail(struct reader *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct reader *r, int line, const char *fmt, ...)
{
	char message[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s:%d: %s", r->file->name, line,
	    message);
	return -1;
}

static int
add_place(struct rules_cardfile *file, enum place_kind kind,
    const json_t *container, const char *key, size_t index, int line)
{
	struct place *p;

	if (file->nplaces == file->places_room) {
		size_t room = file->places_room ? file->places_room * 2 : 64;
		struct place *bigger = realloc(file->places,
		    room * sizeof(*bigger));

		if (bigger == NULL)
			return -1;
		file->places = bigger;
		file->places_room = room;
	}
	p = &file->places[file->nplaces];
	p->kind = kind;
	p->container = container;
	p->index = index;
	p->line = line;
	p->key = NULL;
	if (key != NULL && (p->key = strdup(key)) == NULL)
		return -1;
	file->nplaces++;
	return 0;
}

/* A plain scalar's JSON value: integer, boolean, null or string. */
static json_t *
plain_scalar(const char *text, size_t len)
{
	const char *digits = text;
	long long number;
	char *end;

	if (len == 0 || strcmp(text, "~") == 0 || strcmp(text, "null") == 0)
		return json_null();
	if (strcmp(text, "true") == 0)
		return json_true();
	if (strcmp(text, "false") == 0)
		return json_false();
	if (*digits == '-' || *digits == '+')
		digits++;
	if (*digits != '\0' && strspn(digits, "0123456789") == strlen(digits)) {
		errno = 0;
		number = strtoll(text, &end, 10);
		if (errno == 0 && *end == '\0')
			return json_integer(number);
	}
	return json_stringn(text, len);
}

/* Attach value (a new reference, taken) read at line to the open container. */
static int
attach(struct reader *r, json_t *value, int line)
{
	struct frame *top;
	int status;

	if (r->depth == 0) {
		if (!json_is_object(value) && !json_is_array(value)) {
			json_decref(value);
			return fail(r, line, "the file must hold a mapping or "
			    "a list, not a single value");
		}
		r->file->root = value;
		return 0;
	}
	top = &r->stack[r->depth - 1];
	if (json_is_array(top->container)) {
		size_t index = json_array_size(top->container);

		if (json_array_append_new(top->container, value) != 0)
			return fail(r, line, "out of memory");
		return add_place(r->file, PLACE_INDEX, top->container, NULL,
		    index, line) == 0 ? 0 : fail(r, line, "out of memory");
	}
	if (json_object_get(top->container, top->pending_key) != NULL) {
		json_decref(value);
		return fail(r, line, "\"%s\" is given twice in one mapping",
		    top->pending_key);
	}
	status = json_object_set_new(top->container, top->pending_key, value);
	if (status == 0)
		status = add_place(r->file, PLACE_KEY, top->container,
		    top->pending_key, 0, line);
	free(top->pending_key);
	top->pending_key = NULL;
	return status == 0 ? 0 : fail(r, line, "out of memory");
}

/* Is the open container an object still waiting for a key? */
static int
expecting_key(const struct reader *r)
{
	const struct frame *top;

	if (r->depth == 0)
		return 0;
	top = &r->stack[r->depth - 1];
	return json_is_object(top->container) && top->pending_key == NULL;
}

static int
read_scalar(struct reader *r, const yaml_event_t *event, int line)
{
	const char *text = (const char *)event->data.scalar.value;
	size_t len = event->data.scalar.length;
	json_t *value;

	if (event->data.scalar.anchor != NULL)
		return fail(r, line, "anchors (&name) are not used in card "
		    "files");
	if (event->data.scalar.tag != NULL &&
	    !event->data.scalar.plain_implicit &&
	    !event->data.scalar.quoted_implicit)
		return fail(r, line, "tags (!name) are not used in card "
		    "files");
	if (strlen(text) != len)
		return fail(r, line, "a value holds a NUL character");
	if (expecting_key(r)) {
		r->stack[r->depth - 1].pending_key = strdup(text);
		return r->stack[r->depth - 1].pending_key != NULL ? 0 :
		    fail(r, line, "out of memory");
	}
	if (event->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
		value = plain_scalar(text, len);
	else
		value = json_stringn(text, len);
	if (value == NULL)
		return fail(r, line, "a value is not valid UTF-8");
	return attach(r, value, line);
}

static int
open_container(struct reader *r, json_t *container, const yaml_char_t *anchor,
    const yaml_char_t *tag, int implicit, int line)
{
	if (container == NULL)
		return fail(r, line, "out of memory");
	if (anchor != NULL || (tag != NULL && !implicit)) {
		json_decref(container);
		return fail(r, line, "anchors (&name) and tags (!name) are not "
		    "used in card files");
	}
	if (expecting_key(r)) {
		json_decref(container);
		return fail(r, line, "a key must be a plain word, not a "
		    "mapping or a list");
	}
	if (r->depth == RULES_CARDFILE_MAX_DEPTH) {
		json_decref(container);
		return fail(r, line, "values are nested more than %d deep",
		    RULES_CARDFILE_MAX_DEPTH);
	}
	/* The parent (or the file) holds the reference from here on. */
	if (attach(r, container, line) != 0)
		return -1;
	if (add_place(r->file, PLACE_NODE, container, NULL, 0, line) != 0)
		return fail(r, line, "out of memory");
	r->stack[r->depth].container = container;
	r->stack[r->depth].pending_key = NULL;
	r->depth++;
	return 0;
}

/* One event of the stream; 1 at the end of the stream, -1 on refusal. */
static int
read_event(struct reader *r, const yaml_event_t *event)
{
	int line = (int)event->start_mark.line + 1;

	switch (event->type) {
	case YAML_STREAM_START_EVENT:
	case YAML_DOCUMENT_END_EVENT:
	case YAML_NO_EVENT:
		return 0;
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_DOCUMENT_START_EVENT:
		if (++r->documents > 1)
			return fail(r, line, "a card file holds one document "
			    "(remove this \"---\")");
		return 0;
	case YAML_ALIAS_EVENT:
		return fail(r, line, "aliases (*name) are not used in card "
		    "files");
	case YAML_SCALAR_EVENT:
		return read_scalar(r, event, line);
	case YAML_MAPPING_START_EVENT:
		return open_container(r, json_object(),
		    event->data.mapping_start.anchor,
		    event->data.mapping_start.tag,
		    event->data.mapping_start.implicit, line);
	case YAML_SEQUENCE_START_EVENT:
		return open_container(r, json_array(),
		    event->data.sequence_start.anchor,
		    event->data.sequence_start.tag,
		    event->data.sequence_start.implicit, line);
	case YAML_MAPPING_END_EVENT:
	case YAML_SEQUENCE_END_EVENT:
		r->depth--;
		return 0;
	}
	return fail(r, line, "unexpected YAML element");
}

struct rules_cardfile *
rules_cardfile_read(const char *bytes, size_t len, const char *filename,
    char *err, size_t errlen)
{
	struct reader r;
	yaml_parser_t parser;
	yaml_event_t event;
	int status = 0;

	memset(&r, 0, sizeof(r));
	r.err = err;
	r.errlen = errlen;
	if ((r.file = calloc(1, sizeof(*r.file))) == NULL ||
	    (r.file->name = strdup(filename)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", filename);
		free(r.file);
		return NULL;
	}
	if (len > RULES_CARDFILE_MAX_BYTES) {
		snprintf(err, errlen, "%s: the file has %zu bytes; a card file "
		    "has at most %d", filename, len, RULES_CARDFILE_MAX_BYTES);
		rules_cardfile_free(r.file);
		return NULL;
	}
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err, errlen, "%s: out of memory", filename);
		rules_cardfile_free(r.file);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)bytes,
	    len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	while (status == 0) {
		if (!yaml_parser_parse(&parser, &event)) {
			status = fail(&r, (int)parser.problem_mark.line + 1,
			    "not YAML: %s%s%s", parser.problem ?
			    parser.problem : "unreadable",
			    parser.context ? " " : "",
			    parser.context ? parser.context : "");
			break;
		}
		status = read_event(&r, &event);
		yaml_event_delete(&event);
	}
	yaml_parser_delete(&parser);
	while (r.depth > 0)
		free(r.stack[--r.depth].pending_key);
	if (status == 1 && r.file->root == NULL) {
		snprintf(err, errlen, "%s:1: the file is empty", filename);
		status = -1;
	}
	if (status != 1) {
		rules_cardfile_free(r.file);
		return NULL;
	}
	return r.file;
}

void
rules_cardfile_free(struct rules_cardfile *file)
{
	size_t i;

	if (file == NULL)
		return;
	for (i = 0; i < file->nplaces; i++)
		free(file->places[i].key);
	free(file->places);
	json_decref(file->root);
	free(file->name);
	free(file);
}

const json_t *
rules_cardfile_root(const struct rules_cardfile *file)
{
	return file->root;
}

const char *
rules_cardfile_name(const struct rules_cardfile *file)
{
	return file->name;
}

int
rules_cardfile_line(const struct rules_cardfile *file, const json_t *node)
{
	size_t i;

	for (i = 0; i < file->nplaces; i++)
		if (file->places[i].kind == PLACE_NODE &&
		    file->places[i].container == node)
			return file->places[i].line;
	return 0;
}

int
rules_cardfile_key_line(const struct rules_cardfile *file, const json_t *node,
    const char *key)
{
	size_t i;

	for (i = 0; key != NULL && i < file->nplaces; i++)
		if (file->places[i].kind == PLACE_KEY &&
		    file->places[i].container == node &&
		    strcmp(file->places[i].key, key) == 0)
			return file->places[i].line;
	return rules_cardfile_line(file, node);
}

int
rules_cardfile_index_line(const struct rules_cardfile *file,
    const json_t *node, size_t index)
{
	size_t i;

	for (i = 0; i < file->nplaces; i++)
		if (file->places[i].kind == PLACE_INDEX &&
		    file->places[i].container == node &&
		    file->places[i].index == index)
			return file->places[i].line;
	return rules_cardfile_line(file, node);
}

int
rules_cardfile_error(const struct rules_cardfile *file,
    const json_t *card_node, const char *card_id, const char *field,
    char *err, size_t errlen, const char *fmt, ...)
{
	char message[512];
	char card_part[160] = "";
	char field_part[96] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	if (card_id != NULL)
		snprintf(card_part, sizeof(card_part), " card %s,", card_id);
	if (field != NULL)
		snprintf(field_part, sizeof(field_part), " field %s,", field);
	/* "card X, field F," then the message after one space; the last
	 * comma becomes a colon. */
	if (field != NULL)
		field_part[strlen(field_part) - 1] = ':';
	else if (card_id != NULL)
		card_part[strlen(card_part) - 1] = ':';
	snprintf(err, errlen, "%s:%d:%s%s %s", file->name,
	    rules_cardfile_key_line(file, card_node, field), card_part,
	    field_part, message);
	return -1;
}
