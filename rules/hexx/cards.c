/*
 * cards.c -- Mission to Planet Hexx!'s card set: read a card file's tree,
 * validate every field with the file's line in the message, and build
 * the immutable set that states share.  The format is docs/hexx-cards.md.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardfile.h"
#include "hexx.h"

const char *const hexx_kind_names[HEXX_KINDS + 1] = {
	"planet", "void", "alien", "dilemma", "object", "any"
};
const char *const hexx_kind_en[HEXX_KINDS + 1] = {
	"Planet", "Interstellar Void", "Alien", "Dilemma", "Celestial Object",
	"any card"
};
const char *const hexx_kind_fr[HEXX_KINDS + 1] = {
	"Planète", "Vide interstellaire", "Alien", "Dilemme", "Objet céleste",
	"n'importe quelle carte"
};
const char *const hexx_op_names[HEXX_OPS] = {
	"gain", "spend", "draw", "junk", "discard_random", "actions",
	"use_actions", "planet_add", "planet_remove", "collect", "return",
	"no_move", "no_transmit", "delete", "disintegrate", "show_top",
	"roll", "copy", "cancel", "die_mod", "mucus", "transmit",
	"event_action", "counter", "shift", "move_action", "transmit_action",
	"if_base", "if_planet", "use_event_action", "land", "replace",
	"show_hand"
};
const char *const hexx_target_names[HEXX_TARGETS] = {
	"you", "each_opponent", "next", "all"
};
const char *const hexx_list_names[HEXX_LISTS] = {
	"play", "or", "enter", "stop", "cross", "engage", "collect"
};

/* Where the reader is, for messages. */
struct reader {
	const struct rules_cardfile *file;
	char	*err;
	size_t	errlen;
	const char *card;	/* id of the card being read, or NULL */
	const json_t *cur;	/* the map being read */
};

/* The line of field in node (a map), of node (a list), or of field in
 * the map being read (node a scalar). */
static int
line_of(const struct reader *rd, const json_t *node, const char *field)
{
	if (json_is_object(node))
		return rules_cardfile_key_line(rd->file, node, field);
	if (json_is_array(node))
		return rules_cardfile_line(rd->file, node);
	if (rd->cur != NULL)
		return rules_cardfile_key_line(rd->file, rd->cur, field);
	return 0;
}

static int
fail(struct reader *rd, const json_t *node, const char *field,
    const char *fmt, ...)
{
	char what[512];
	va_list ap;
	int line = line_of(rd, node, field);

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s:%d: card %s, field %s: %s",
	    rules_cardfile_name(rd->file), line, rd->card != NULL ? rd->card : "-", field,
	    what);
	return -1;
}

static int
name_index(const char *const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* A string field copied into out; required or not. */
static int
read_string(struct reader *rd, const json_t *obj, const char *key,
    char *out, size_t outlen, int required)
{
	const json_t *v = json_object_get(obj, key);

	out[0] = '\0';
	if (v == NULL)
		return required ? fail(rd, obj, key, "missing") : 0;
	if (!json_is_string(v))
		return fail(rd, v, key, "must be text");
	if (json_string_length(v) >= outlen)
		return fail(rd, v, key, "longer than %zu bytes", outlen - 1);
	memcpy(out, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

/* An {en: ..., fr: ...} pair. */
static int
read_pair(struct reader *rd, const json_t *obj, const char *key, char *en,
    char *fr, size_t len, int required)
{
	const json_t *v = json_object_get(obj, key);

	en[0] = fr[0] = '\0';
	if (v == NULL)
		return required ? fail(rd, obj, key, "missing") : 0;
	if (!json_is_object(v))
		return fail(rd, v, key, "must be a map with en: and fr:");
	if (read_string(rd, v, "en", en, len, 1) != 0 ||
	    read_string(rd, v, "fr", fr, len, 1) != 0)
		return -1;
	return 0;
}

static int
read_int(struct reader *rd, const json_t *obj, const char *key, int lo,
    int hi, int dflt, int *out)
{
	const json_t *v = json_object_get(obj, key);

	*out = dflt;
	if (v == NULL)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi)
		return fail(rd, v, key, "must be a whole number from %d to %d",
		    lo, hi);
	*out = (int)json_integer_value(v);
	return 0;
}

static int
read_bool(struct reader *rd, const json_t *obj, const char *key, int *out)
{
	const json_t *v = json_object_get(obj, key);

	*out = 0;
	if (v == NULL)
		return 0;
	if (!json_is_boolean(v))
		return fail(rd, v, key, "must be true or false");
	*out = json_is_true(v);
	return 0;
}

static int
read_kind(struct reader *rd, const json_t *v, const char *field, int any_ok,
    int *out)
{
	int k;

	if (!json_is_string(v) || (k = name_index(hexx_kind_names,
	    any_ok ? HEXX_KINDS + 1 : HEXX_KINDS, json_string_value(v))) < 0)
		return fail(rd, v, field, "must be one of planet, void, alien, "
		    "dilemma, object%s", any_ok ? ", any" : "");
	*out = k;
	return 0;
}

/* Every key of obj must be one of allowed (NULL-terminated). */
static int
only_keys(struct reader *rd, const json_t *obj, const char *const *allowed)
{
	const char *key;
	json_t *v;
	int i;

	json_object_foreach((json_t *)obj, key, v) {
		for (i = 0; allowed[i] != NULL; i++)
			if (strcmp(allowed[i], key) == 0)
				break;
		if (allowed[i] == NULL)
			return fail(rd, v, key, "unknown field");
	}
	return 0;
}

static int
read_step(struct reader *rd, const json_t *v, const char *field,
    struct hexx_step *st)
{
	static const char *const keys[] = { "do", "n", "target", "at_least",
		"then", NULL };
	const json_t *t;

	if (!json_is_object(v))
		return fail(rd, v, field, "an effect is a map with do:");
	if (only_keys(rd, v, keys) != 0)
		return -1;
	t = json_object_get(v, "do");
	if (t == NULL)
		return fail(rd, v, field, "an effect needs do:");
	if (!json_is_string(t) || (st->op = name_index(hexx_op_names,
	    HEXX_OPS, json_string_value(t))) < 0)
		return fail(rd, t, field, "unknown effect \"%s\" (see "
		    "docs/hexx-cards.md)", json_is_string(t) ?
		    json_string_value(t) : "?");
	if (read_int(rd, v, "n", -6, 20, 1, &st->n) != 0)
		return -1;
	if (st->op != HEXX_OP_DIE_MOD && st->n < 0)
		return fail(rd, v, field, "n is negative only for die_mod");
	st->target = HEXX_YOU;
	t = json_object_get(v, "target");
	if (t != NULL && (!json_is_string(t) || (st->target = name_index(
	    hexx_target_names, HEXX_TARGETS, json_string_value(t))) < 0))
		return fail(rd, t, field, "target must be you, each_opponent, "
		    "next or all");
	return 0;
}

static int
read_effect(struct reader *rd, const json_t *v, const char *field,
    struct hexx_effect *fx)
{
	const json_t *then;
	int conditional;

	memset(fx, 0, sizeof(*fx));
	if (read_step(rd, v, field, &fx->step) != 0)
		return -1;
	then = json_object_get(v, "then");
	conditional = fx->step.op == HEXX_OP_ROLL ||
	    fx->step.op == HEXX_OP_IF_BASE || fx->step.op == HEXX_OP_IF_PLANET;
	if (!conditional) {
		if (then != NULL || json_object_get(v, "at_least") != NULL)
			return fail(rd, v, field, "then: and at_least: belong "
			    "to roll, if_base and if_planet only");
		return 0;
	}
	if (fx->step.op == HEXX_OP_ROLL ? read_int(rd, v, "at_least", 1, 6, 4,
	    &fx->at_least) != 0 : read_int(rd, v, "at_least", 0,
	    HEXX_DATA_TOTAL, 1, &fx->at_least) != 0)
		return -1;
	if (then == NULL)
		return fail(rd, v, field, "%s needs then: (the effect that "
		    "follows when the condition holds)", hexx_op_names[
		    fx->step.op]);
	if (read_step(rd, then, field, &fx->then) != 0)
		return -1;
	if (fx->then.op == HEXX_OP_ROLL || fx->then.op == HEXX_OP_COPY ||
	    fx->then.op == HEXX_OP_IF_BASE || fx->then.op == HEXX_OP_IF_PLANET)
		return fail(rd, then, field, "then: may not roll, test or copy");
	return 0;
}

static int
read_list(struct reader *rd, const json_t *v, const char *field,
    struct hexx_fxlist *list)
{
	size_t i;

	list->n = 0;
	if (v == NULL)
		return 0;
	if (!json_is_array(v) || json_array_size(v) == 0 ||
	    json_array_size(v) > HEXX_FX_MAX)
		return fail(rd, v, field, "must be a list of 1 to %d effects",
		    HEXX_FX_MAX);
	for (i = 0; i < json_array_size(v); i++)
		if (read_effect(rd, json_array_get(v, i), field,
		    &list->fx[list->n++]) != 0)
			return -1;
	return 0;
}

static int
read_card(struct reader *rd, const json_t *v, struct hexx_card *c)
{
	static const char *const keys[] = { "id", "kind", "name", "text",
		"surprise", "start", "data", "borders", "fixed", "link", "cost",
		"transmit", "play", "or", "enter", "stop", "cross", "engage",
		"collect", NULL };
	const json_t *t;
	int l, i;

	memset(c, 0, sizeof(*c));
	c->cost_discard = -1;
	c->transmit_cost = -1;
	c->transmit_as = -1;
	rd->card = NULL;
	rd->cur = v;
	if (!json_is_object(v))
		return fail(rd, v, "-", "a card is a map");
	if (read_string(rd, v, "id", c->id, sizeof(c->id), 1) != 0)
		return -1;
	for (i = 0; c->id[i] != '\0'; i++)
		if (!((c->id[i] >= 'a' && c->id[i] <= 'z') ||
		    (c->id[i] >= '0' && c->id[i] <= '9') || c->id[i] == '-'))
			return fail(rd, v, "id", "lower-case letters, digits "
			    "and '-' only");
	if (c->id[0] == '\0')
		return fail(rd, v, "id", "empty");
	rd->card = c->id;
	if (only_keys(rd, v, keys) != 0)
		return -1;
	if ((t = json_object_get(v, "kind")) == NULL)
		return fail(rd, v, "kind", "missing");
	if (read_kind(rd, t, "kind", 0, &c->kind) != 0)
		return -1;
	if (read_pair(rd, v, "name", c->name_en, c->name_fr,
	    sizeof(c->name_en), 1) != 0 ||
	    read_pair(rd, v, "text", c->text_en, c->text_fr,
	    sizeof(c->text_en), 0) != 0 ||
	    read_bool(rd, v, "surprise", &c->surprise) != 0 ||
	    read_bool(rd, v, "fixed", &c->fixed) != 0 ||
	    read_int(rd, v, "data", 0, 20, 0, &c->data) != 0)
		return -1;
	if ((t = json_object_get(v, "start")) != NULL) {
		if (!json_is_string(t) || (strcmp(json_string_value(t),
		    "base") != 0 && strcmp(json_string_value(t), "colony") != 0))
			return fail(rd, t, "start", "must be base or colony");
		c->start = strcmp(json_string_value(t), "base") == 0 ? 1 : 2;
	}
	if ((t = json_object_get(v, "borders")) != NULL) {
		if (!json_is_array(t) || json_array_size(t) > 6)
			return fail(rd, t, "borders", "a list of edges 0 to 5");
		for (i = 0; i < (int)json_array_size(t); i++) {
			const json_t *e = json_array_get(t, (size_t)i);

			if (!json_is_integer(e) || json_integer_value(e) < 0 ||
			    json_integer_value(e) > 5)
				return fail(rd, e, "borders", "an edge is 0 "
				    "to 5 (0: the edge to the right, counted "
				    "counter-clockwise)");
			c->borders |= 1 << json_integer_value(e);
		}
	}
	if ((t = json_object_get(v, "cost")) != NULL) {
		static const char *const ck[] = { "data", "actions", "discard",
			NULL };

		if (!json_is_object(t) || only_keys(rd, t, ck) != 0)
			return rd->err[0] != '\0' ? -1 : fail(rd, t, "cost",
			    "a map of data:, actions:, discard:");
		if (read_int(rd, t, "data", 0, 10, 0, &c->cost_data) != 0 ||
		    read_int(rd, t, "actions", 0, 2, 0, &c->cost_actions) != 0)
			return -1;
		if (json_object_get(t, "discard") != NULL && read_kind(rd,
		    json_object_get(t, "discard"), "cost", 1,
		    &c->cost_discard) != 0)
			return -1;
	}
	if ((t = json_object_get(v, "transmit")) != NULL) {
		static const char *const tk[] = { "cost", "as", NULL };

		if (!json_is_object(t) || only_keys(rd, t, tk) != 0)
			return rd->err[0] != '\0' ? -1 : fail(rd, t, "transmit",
			    "a map of cost:, as:");
		if (read_int(rd, t, "cost", 0, 6, -1, &c->transmit_cost) != 0)
			return -1;
		if (json_object_get(t, "as") != NULL && read_kind(rd,
		    json_object_get(t, "as"), "transmit", 1,
		    &c->transmit_as) != 0)
			return -1;
	}
	for (l = 0; l < HEXX_LISTS; l++) {
		t = json_object_get(v, hexx_list_names[l]);
		if (l == HEXX_ON_COLLECT && t != NULL) {
			static const char *const bk[] = { "may", "effects",
				NULL };

			if (!json_is_object(t) || only_keys(rd, t, bk) != 0)
				return rd->err[0] != '\0' ? -1 : fail(rd, t,
				    "collect", "a map of may:, effects:");
			if (read_bool(rd, t, "may", &c->collect_may) != 0)
				return -1;
			t = json_object_get(t, "effects");
			if (t == NULL)
				return fail(rd, v, "collect", "needs effects:");
		}
		if (read_list(rd, t, hexx_list_names[l], &c->on[l]) != 0)
			return -1;
	}
	/* What belongs to which kind. */
	if (hexx_is_schema(c)) {
		if (c->on[HEXX_ON_PLAY].n || c->on[HEXX_ON_OR].n ||
		    c->surprise || c->cost_data || c->cost_actions ||
		    c->cost_discard >= 0)
			return fail(rd, v, "kind", "a schema has no play:, or:, "
			    "surprise: or cost: (it is placed, not played)");
		if (c->kind == HEXX_VOID && (c->data || c->on[HEXX_ON_COLLECT].n))
			return fail(rd, v, "data", "only planets carry data or "
			    "a collect option");
	} else {
		if (c->on[HEXX_ON_PLAY].n == 0)
			return fail(rd, v, "play", "an event needs play:");
		if (c->data || c->borders || c->start || c->on[HEXX_ON_ENTER].n ||
		    c->on[HEXX_ON_STOP].n || c->on[HEXX_ON_CROSS].n ||
		    c->on[HEXX_ON_ENGAGE].n || c->on[HEXX_ON_COLLECT].n ||
		    json_object_get(v, "link") != NULL)
			return fail(rd, v, "kind", "only schemas (planet, void) "
			    "carry data, borders, start, link or schema icons");
	}
	for (l = 0; l < HEXX_LISTS; l++) {
		const struct hexx_fxlist *list = &c->on[l];

		if (hexx_list_has(list, HEXX_OP_REPLACE) &&
		    (c->surprise || (l != HEXX_ON_PLAY && l != HEXX_ON_OR)))
			return fail(rd, v, hexx_list_names[l], "replace is "
			    "played as an event that is not a Surprise (it "
			    "needs \"at Q,R\" and \"with CARD\")");
		if (hexx_list_has(list, HEXX_OP_REPLACE) &&
		    (c->cost_discard >= 0 ||
		    hexx_list_has(list, HEXX_OP_TRANSMIT) ||
		    hexx_list_has(list, HEXX_OP_DISINTEGRATE) ||
		    hexx_list_has(list, HEXX_OP_SHIFT)))
			return fail(rd, v, hexx_list_names[l], "replace takes "
			    "the \"with\" card and the \"at\" hex: not in "
			    "one list with transmit, disintegrate, shift or a "
			    "discard cost");
		for (i = 0; i < list->n; i++)
			if (list->fx[i].step.op == HEXX_OP_SHOW_HAND &&
			    list->fx[i].step.target != HEXX_NEXT)
				return fail(rd, v, hexx_list_names[l],
				    "show_hand shows one seat's hand to you: "
				    "its target is next");
	}
	if (c->start == 1 && c->kind != HEXX_VOID)
		return fail(rd, v, "start", "the Space Base is a void");
	if (c->start == 2 && c->kind != HEXX_PLANET)
		return fail(rd, v, "start", "Delta Colony is a planet");
	return 0;
}

static int
read_mission(struct reader *rd, const json_t *v, struct hexx_mission *m)
{
	static const char *const keys[] = { "id", "sides", NULL };
	static const char *const sk[] = { "title", "icons", "conclusion",
		NULL };
	const json_t *sides;
	int s, i;

	memset(m, 0, sizeof(*m));
	rd->card = NULL;
	rd->cur = v;
	if (!json_is_object(v))
		return fail(rd, v, "-", "a mission is a map");
	if (read_string(rd, v, "id", m->id, sizeof(m->id), 1) != 0)
		return -1;
	rd->card = m->id;
	if (only_keys(rd, v, keys) != 0)
		return -1;
	sides = json_object_get(v, "sides");
	if (!json_is_array(sides) || json_array_size(sides) != 2)
		return fail(rd, sides != NULL ? sides : v, "sides", "a mission "
		    "card has exactly two sides");
	for (s = 0; s < 2; s++) {
		const json_t *side = json_array_get(sides, (size_t)s);
		const json_t *icons;

		if (!json_is_object(side) || only_keys(rd, side, sk) != 0)
			return rd->err[0] != '\0' ? -1 : fail(rd, side, "sides",
			    "a side is a map of title:, icons:, conclusion:");
		if (read_pair(rd, side, "title", m->side[s].title_en,
		    m->side[s].title_fr, HEXX_NAME_MAX, 1) != 0 ||
		    read_pair(rd, side, "conclusion", m->side[s].end_en,
		    m->side[s].end_fr, HEXX_TEXT_MAX, 1) != 0)
			return -1;
		icons = json_object_get(side, "icons");
		if (!json_is_array(icons) || json_array_size(icons) != HEXX_SLOTS)
			return fail(rd, icons != NULL ? icons : side, "icons",
			    "a side shows exactly 6 card-type icons");
		for (i = 0; i < HEXX_SLOTS; i++)
			if (read_kind(rd, json_array_get(icons, (size_t)i),
			    "icons", 0, &m->side[s].icon[i]) != 0)
				return -1;
	}
	return 0;
}

int
hexx_is_schema(const struct hexx_card *c)
{
	return c->kind == HEXX_PLANET || c->kind == HEXX_VOID;
}

int
hexx_card_find(const struct hexx_cards *set, const char *id)
{
	int i;

	for (i = 0; i < set->ncards; i++)
		if (strcmp(set->card[i].id, id) == 0)
			return i;
	return -1;
}

static struct hexx_cards *
hexx_cards_from_file(const struct rules_cardfile *file, char *err,
    size_t errlen)
{
	static const char *const keys[] = { "format", "missions", "cards",
		NULL };
	const json_t *root = rules_cardfile_root(file);
	struct reader rd = { file, err, errlen, NULL, root };
	struct hexx_cards *set;
	const json_t *cards, *missions, *fmt;
	size_t i;
	int j, k;

	err[0] = '\0';
	if (!json_is_object(root)) {
		fail(&rd, root, "-", "the file is a map of format:, missions:, "
		    "cards:");
		return NULL;
	}
	if (only_keys(&rd, root, keys) != 0)
		return NULL;
	fmt = json_object_get(root, "format");
	if (!json_is_string(fmt) || strcmp(json_string_value(fmt),
	    "hexx-cards-1") != 0) {
		fail(&rd, fmt != NULL ? fmt : root, "format", "must be "
		    "hexx-cards-1");
		return NULL;
	}
	cards = json_object_get(root, "cards");
	missions = json_object_get(root, "missions");
	if (!json_is_array(cards) || json_array_size(cards) > HEXX_CARDS_MAX) {
		fail(&rd, cards != NULL ? cards : root, "cards", "a list of at "
		    "most %d cards", HEXX_CARDS_MAX);
		return NULL;
	}
	if (!json_is_array(missions) || json_array_size(missions) <
	    HEXX_SEATS_MAX || json_array_size(missions) > HEXX_MISSIONS_MAX) {
		fail(&rd, missions != NULL ? missions : root, "missions", "a "
		    "list of %d to %d mission cards", HEXX_SEATS_MAX,
		    HEXX_MISSIONS_MAX);
		return NULL;
	}
	set = calloc(1, sizeof(*set));
	if (set == NULL) {
		snprintf(err, errlen, "%s: out of memory",
		    rules_cardfile_name(file));
		return NULL;
	}
	set->base = set->colony = -1;
	for (i = 0; i < json_array_size(missions); i++) {
		if (read_mission(&rd, json_array_get(missions, i),
		    &set->mission[set->nmissions]) != 0)
			goto bad;
		for (j = 0; j < set->nmissions; j++)
			if (strcmp(set->mission[j].id,
			    set->mission[set->nmissions].id) == 0) {
				fail(&rd, json_array_get(missions, i), "id",
				    "used twice");
				goto bad;
			}
		set->nmissions++;
	}
	for (i = 0; i < json_array_size(cards); i++) {
		struct hexx_card *c = &set->card[set->ncards];

		if (read_card(&rd, json_array_get(cards, i), c) != 0)
			goto bad;
		if (hexx_card_find(set, c->id) >= 0) {
			fail(&rd, json_array_get(cards, i), "id", "used twice");
			goto bad;
		}
		if (c->start == 1 && set->base >= 0) {
			fail(&rd, json_array_get(cards, i), "start", "a second "
			    "Space Base");
			goto bad;
		}
		if (c->start == 2 && set->colony >= 0) {
			fail(&rd, json_array_get(cards, i), "start", "a second "
			    "Delta Colony");
			goto bad;
		}
		if (c->start == 1)
			set->base = set->ncards;
		if (c->start == 2)
			set->colony = set->ncards;
		set->ncards++;
	}
	/* Links name one or two other schemas of the set. */
	for (i = 0; i < json_array_size(cards); i++) {
		const json_t *v = json_array_get(cards, i);
		const json_t *link = json_object_get(v, "link");
		struct hexx_card *c = &set->card[i];

		if (link == NULL)
			continue;
		rd.card = c->id;
		rd.cur = v;
		if (!json_is_array(link) || json_array_size(link) < 1 ||
		    json_array_size(link) > 2) {
			fail(&rd, v, "link", "a list of one or two schema ids");
			goto bad;
		}
		for (j = 0; j < (int)json_array_size(link); j++) {
			const json_t *one = json_array_get(link, (size_t)j);

			if (!json_is_string(one) || (k = hexx_card_find(set,
			    json_string_value(one))) < 0 || k == (int)i ||
			    !hexx_is_schema(&set->card[k])) {
				fail(&rd, v, "link", "must name another schema "
				    "of this file");
				goto bad;
			}
			c->links[c->nlinks++] = k;
		}
	}
	rd.card = NULL;
	rd.cur = root;
	if (set->base < 0 || set->colony < 0) {
		fail(&rd, cards, "start", "the set needs one card with start: "
		    "base and one with start: colony");
		goto bad;
	}
	if (set->ncards - 2 < HEXX_SEATS_MAX * HEXX_HAND + 6) {
		fail(&rd, cards, "cards", "%d cards besides the start cards: "
		    "at least %d are needed to deal 4 hands", set->ncards - 2,
		    HEXX_SEATS_MAX * HEXX_HAND + 6);
		goto bad;
	}
	return set;
bad:
	free(set);
	return NULL;
}

void *
hexx_cards_parse(const char *bytes, size_t len, const char *filename,
    char *err, size_t errlen)
{
	struct rules_cardfile *file;
	struct hexx_cards *set;

	file = rules_cardfile_read(bytes, len, filename, err, errlen);
	if (file == NULL)
		return NULL;
	set = hexx_cards_from_file(file, err, errlen);
	rules_cardfile_free(file);
	return set;
}

void
hexx_cards_free(void *cards)
{
	free(cards);
}
