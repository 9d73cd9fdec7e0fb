/*
 * cards.c -- reading and checking a Captain's Chair card file tree
 * (docs/captains-cards.md).  Every fault is reported once, precisely, as
 * "FILE:LINE: card ID, field F: what is wrong"; nothing is trusted.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules.h"
#include "cardfile.h"
#include "cardset.h"
#include "solo.h"

static const char *const suit_names[CC_NSUITS] = {
	"PERSON", "CARGO", "SHIP", "ALLY", "ENCOUNTER", "INCIDENT",
	"LOCATION", "DIRECTIVE", "CAPTAIN", "STATUS"
};
static const char *const suit_names_fr[CC_NSUITS] = {
	"PERSONNE", "CARGAISON", "VAISSEAU", "ALLIÉ", "RENCONTRE", "INCIDENT",
	"LIEU", "DIRECTIVE", "CAPITAINE", "STATUT"
};
static const char *const track_names[CC_NTRACKS] = {
	"research", "influence", "military"
};
static const char *const resource_names[CC_NRESOURCES] = {
	"dilithium", "latinum", "glory"
};
static const char *const opkind_names[CC_NOPKINDS] = {
	"PLAY", "ACTIVATION", "PASSIVE", "REACTION", "RESUPPLY", "CONTROL",
	"CLEAN-UP", "ENDGAME", "SPECIAL"
};
static const char *const trigger_names[CC_NTRIGGERS] = {
	"none", "attacked", "gain_card", "take_control"
};
static const char *const keyword_names[KW_NKEYWORDS] = {
	"gain", "spend", "gain_action", "draw", "draw_from_discard",
	"discard", "gain_card", "scan_for", "junk", "take",
	"return_incident", "log", "enlist_reserve", "enlist_development",
	"promote", "deploy", "warp", "send_team", "remove_team", "beam",
	"dismiss", "destroy", "recall", "exhaust", "refresh", "find",
	"free_play", "duplicate", "steal", "take_control",
	"trigger_control", "specialty", "utilize", "score", "scan"
};
static const char *const pile_names[] = {
	"market", "encounter", "incident", "location-start",
	"location-advanced", "captain", "deck", "reserve", "development",
	"controlled", "status", NULL
};

const char *cc_suit_name(enum cc_suit s) { return suit_names[s]; }
const char *cc_suit_name_fr(enum cc_suit s) { return suit_names_fr[s]; }
const char *cc_keyword_name(enum cc_keyword k) { return keyword_names[k]; }
const char *cc_opkind_name(enum cc_opkind k) { return opkind_names[k]; }
const char *cc_track_name(int t) { return track_names[t]; }
const char *cc_resource_name(int r) { return resource_names[r]; }

enum cc_target
cc_keyword_target(const struct cc_effect *e)
{
	switch (e->keyword) {
	case KW_DISCARD: case KW_BEAM: case KW_DESTROY:
		return CC_T_HAND;
	case KW_RETURN_INCIDENT:
	case KW_LOG:
		return e->self ? CC_T_NONE : CC_T_HAND;
	case KW_GAIN_CARD:
		return e->junk ? CC_T_JUNK : CC_T_OFFER;
	case KW_JUNK: case KW_DUPLICATE:
		return CC_T_OFFER;
	case KW_WARP: case KW_SEND_TEAM: case KW_REMOVE_TEAM:
	case KW_TAKE_CONTROL:
		return CC_T_NEUTRAL;
	case KW_DISMISS: case KW_RECALL: case KW_EXHAUST: case KW_REFRESH:
		return CC_T_INPLAY;
	case KW_TRIGGER_CONTROL:
		return CC_T_LOCATION;
	case KW_DRAW_FROM_DISCARD:
		return CC_T_DISCARD;
	case KW_ENLIST_DEVELOPMENT:
		return CC_T_DEVELOPMENT;
	case KW_FIND:
		return CC_T_NAME;
	case KW_SCAN:
		return e->junk ? CC_T_JUNK : CC_T_DECK;
	default:
		return CC_T_NONE;
	}
}

int
cc_op_gains_card(const struct cc_op *op)
{
	for (int i = 0; i < op->neffects; i++)
		if (op->effect[i].keyword == KW_GAIN_CARD ||
		    op->effect[i].keyword == KW_SCAN_FOR ||
		    (op->effect[i].keyword == KW_SCAN && op->effect[i].junk))
			return 1;
	return 0;
}

int
cc_find_id(const struct cc_set *set, const char *id)
{
	for (int i = 0; i < set->ncards; i++)
		if (strcmp(set->card[i].id, id) == 0)
			return i;
	return -1;
}

/* Where the reading is, for messages. */
struct reader {
	const struct rules_cardfile *file;
	const json_t	*where;	/* the innermost mapping being read */
	const char	*card;	/* id of the card being read, or NULL */
	char		*err;
	size_t		 errlen;
};

/* A refusal at field of node (or of the mapping being read when node is
 * a scalar, which has no line of its own). */
static int
fail(struct reader *r, const json_t *node, const char *field,
    const char *fmt, ...)
{
	char	what[512];
	va_list	ap;
	const json_t *at = json_is_object(node) || json_is_array(node) ?
	    node : r->where;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return rules_cardfile_error(r->file, at, r->card, field, r->err,
	    r->errlen, "%s", what);
}

/* The index of word in the NULL-terminated or n-long list names, read
 * case-insensitively, or -1. */
static int
lookup(const char *word, const char *const *names, int n)
{
	for (int i = 0; i < n && names[i] != NULL; i++)
		if (strcasecmp(word, names[i]) == 0)
			return i;
	return -1;
}

static int
read_int(struct reader *r, const json_t *obj, const char *field, int lo,
    int hi, int dflt, int *out)
{
	const json_t *v = json_object_get(obj, field);

	if (v == NULL) {
		*out = dflt;
		return 0;
	}
	if (!json_is_integer(v))
		return fail(r, v, field, "a whole number is needed");
	if (json_integer_value(v) < lo || json_integer_value(v) > hi)
		return fail(r, v, field, "must be from %d to %d", lo, hi);
	*out = (int)json_integer_value(v);
	return 0;
}

static int
read_bool(struct reader *r, const json_t *obj, const char *field, int *out)
{
	const json_t *v = json_object_get(obj, field);

	*out = 0;
	if (v == NULL)
		return 0;
	if (!json_is_boolean(v))
		return fail(r, v, field, "true or false is needed");
	*out = json_is_true(v);
	return 0;
}

static int
read_word(struct reader *r, const json_t *obj, const char *field,
    const char *const *names, int n, int required, int *out)
{
	const json_t *v = json_object_get(obj, field);

	*out = -1;
	if (v == NULL)
		return required ? fail(r, obj, field, "missing") : 0;
	if (!json_is_string(v) ||
	    (*out = lookup(json_string_value(v), names, n)) < 0)
		return fail(r, v, field, "unknown value");
	return 0;
}

static int
read_text(struct reader *r, const json_t *obj, const char *field,
    int required, char *out)
{
	const json_t *v = json_object_get(obj, field);
	const char *s;

	out[0] = '\0';
	if (v == NULL)
		return required ? fail(r, obj, field, "missing") : 0;
	if (!json_is_string(v))
		return fail(r, v, field, "text is needed");
	s = json_string_value(v);
	if (s[0] == '\0' || strlen(s) >= CC_NAME_LEN)
		return fail(r, v, field, "must have 1 to %d characters",
		    CC_NAME_LEN - 1);
	for (const char *p = s; *p != '\0'; p++)
		if ((unsigned char)*p < ' ' || *p == ';' || *p == ',')
			return fail(r, v, field,
			    "control characters, ';' and ',' are not allowed");
	strcpy(out, s);
	return 0;
}

/* A trait's index, interned. */
static int
intern_trait(struct reader *r, struct cc_set *set, const json_t *v,
    const char *field)
{
	const char *s;
	int i;

	if (!json_is_string(v) || json_string_length(v) == 0 ||
	    json_string_length(v) >= CC_NAME_LEN)
		return fail(r, v, field, "a trait name is needed");
	s = json_string_value(v);
	for (i = 0; i < set->ntraits; i++)
		if (strcasecmp(set->trait_name[i], s) == 0)
			return i;
	if (set->ntraits == CC_TRAIT_NAMES)
		return fail(r, v, field, "more than %d traits in the file",
		    CC_TRAIT_NAMES);
	for (i = 0; s[i] != '\0'; i++)
		set->trait_name[set->ntraits][i] =
		    (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 32 : s[i]);
	set->trait_name[set->ntraits][i] = '\0';
	return set->ntraits++;
}

/* suit: one suit or a list; a mask. */
static int
read_suits(struct reader *r, const json_t *obj, int *mask)
{
	const json_t *v = json_object_get(obj, "suit");
	size_t i;
	int s;

	*mask = 0;
	if (v == NULL)
		return 0;
	if (json_is_string(v)) {
		if ((s = lookup(json_string_value(v), suit_names,
		    CC_NSUITS)) < 0)
			return fail(r, v, "suit", "unknown suit");
		*mask = 1 << s;
		return 0;
	}
	if (!json_is_array(v) || json_array_size(v) == 0)
		return fail(r, v, "suit", "a suit or a list of suits");
	for (i = 0; i < json_array_size(v); i++) {
		const json_t *e = json_array_get(v, i);
		if (!json_is_string(e) || (s = lookup(json_string_value(e),
		    suit_names, CC_NSUITS)) < 0)
			return fail(r, e, "suit", "unknown suit");
		*mask |= 1 << s;
	}
	return 0;
}

static int
read_effect(struct reader *r, struct cc_set *set, const json_t *v,
    const struct cc_op *op, struct cc_effect *e)
{
	int kw, hi;
	const json_t *t;

	memset(e, 0, sizeof(*e));
	if (!json_is_object(v))
		return fail(r, v, "effects", "each effect is a mapping");
	r->where = v;
	if (read_word(r, v, "keyword", keyword_names, KW_NKEYWORDS, 1,
	    &kw) < 0)
		return -1;
	e->keyword = (enum cc_keyword)kw;
	hi = e->keyword == KW_SCORE ? 20 : 10;
	if (read_int(r, v, "amount", e->keyword == KW_SCORE ? -20 : 1, hi,
	    1, &e->amount) < 0 ||
	    read_word(r, v, "resource", resource_names, CC_NRESOURCES, 0,
	    &e->resource) < 0 ||
	    read_word(r, v, "track", track_names, CC_NTRACKS, 0,
	    &e->track) < 0 ||
	    read_suits(r, v, &e->suits) < 0 ||
	    read_bool(r, v, "self", &e->self) < 0 ||
	    read_bool(r, v, "pay", &e->pay) < 0 ||
	    read_bool(r, v, "junk", &e->junk) < 0)
		return -1;
	if (e->junk && e->keyword != KW_GAIN_CARD && e->keyword != KW_SCAN &&
	    e->keyword != KW_SCAN_FOR)
		return fail(r, v, "junk", "only gain_card, scan and scan_for "
		    "take from the Junk");
	e->trait = e->per_trait = e->per_suit = -1;
	if ((t = json_object_get(v, "trait")) != NULL &&
	    (e->trait = intern_trait(r, set, t, "trait")) < 0)
		return -1;
	if ((t = json_object_get(v, "per_trait")) != NULL &&
	    (e->per_trait = intern_trait(r, set, t, "per_trait")) < 0)
		return -1;
	if ((t = json_object_get(v, "per_suit")) != NULL &&
	    (!json_is_string(t) || (e->per_suit = lookup(json_string_value(t),
	    suit_names, CC_NSUITS)) < 0))
		return fail(r, t, "per_suit", "unknown suit");
	switch (e->keyword) {
	case KW_GAIN: case KW_SPEND: case KW_STEAL:
		if (e->resource < 0)
			return fail(r, v, "resource",
			    "%s needs dilithium, latinum or glory",
			    keyword_names[kw]);
		if (e->keyword == KW_STEAL && e->resource == CC_GLORY)
			return fail(r, v, "resource",
			    "steal takes dilithium or latinum");
		break;
	case KW_SPECIALTY:
		if (e->track < 0)
			return fail(r, v, "track",
			    "specialty needs research, influence or military");
		break;
	case KW_SCAN_FOR:
		if (e->trait < 0)
			return fail(r, v, "trait", "scan_for needs a trait");
		break;
	case KW_GAIN_CARD: case KW_DUPLICATE: case KW_SCAN:
		if ((e->suits & ~((1 << CC_MARKET_SUITS) - 1)) != 0 ||
		    e->suits == 0)
			return fail(r, v, "suit",
			    "%s needs one or more market suits (PERSON, "
			    "CARGO, SHIP, ALLY)", keyword_names[kw]);
		break;
	case KW_TAKE:
		if (e->suits != (1 << CC_INCIDENT) &&
		    e->suits != (1 << CC_ENCOUNTER))
			return fail(r, v, "suit",
			    "take needs INCIDENT or ENCOUNTER");
		break;
	default:
		break;
	}
	if (!op->attack && e->keyword == KW_STEAL)
		return fail(r, v, "keyword",
		    "steal is an ATTACK: set attack: true");
	if (op->attack && e->keyword != KW_STEAL &&
	    e->keyword != KW_DISCARD && e->keyword != KW_TAKE)
		return fail(r, v, "keyword", "an ATTACK operation holds only "
		    "steal, discard (the opponent chooses) and take");
	if ((e->keyword == KW_SCORE) !=
	    (op->kind == CC_ENDGAME || op->kind == CC_SPECIAL))
		return fail(r, v, "keyword", "score is the effect of ENDGAME "
		    "and SPECIAL operations, and only theirs");
	return 0;
}

static int
read_op(struct reader *r, struct cc_set *set, const json_t *v,
    struct cc_op *op)
{
	const json_t *effects, *req;
	int kind, trig, targets = 0;
	size_t i;

	memset(op, 0, sizeof(*op));
	if (!json_is_object(v))
		return fail(r, v, "operations", "each operation is a mapping");
	r->where = v;
	if (read_word(r, v, "kind", opkind_names, CC_NOPKINDS, 1, &kind) < 0 ||
	    read_bool(r, v, "action", &op->action) < 0 ||
	    read_bool(r, v, "attack", &op->attack) < 0 ||
	    read_word(r, v, "trigger", trigger_names, CC_NTRIGGERS, 0,
	    &trig) < 0)
		return -1;
	op->kind = (enum cc_opkind)kind;
	op->trigger = trig < 0 ? CC_ON_NONE : (enum cc_trigger)trig;
	if ((op->kind == CC_REACTION || op->kind == CC_PASSIVE) &&
	    op->trigger == CC_ON_NONE)
		return fail(r, v, "trigger", "a %s operation needs a trigger: "
		    "attacked, gain_card or take_control", opkind_names[kind]);
	if (op->kind == CC_REACTION && op->trigger != CC_ON_ATTACKED)
		return fail(r, v, "trigger",
		    "a REACTION answers an attack: trigger attacked");
	if (op->kind == CC_PASSIVE && op->trigger == CC_ON_ATTACKED)
		return fail(r, v, "trigger",
		    "a PASSIVE fires on gain_card or take_control");
	if (op->attack && op->kind != CC_PLAY && op->kind != CC_ACTIVATION)
		return fail(r, v, "attack",
		    "only PLAY and ACTIVATION operations attack");
	if ((req = json_object_get(v, "requires")) != NULL) {
		if (!json_is_object(req))
			return fail(r, req, "requires",
			    "a mapping of specialty levels");
		for (int t = 0; t < CC_NTRACKS; t++)
			if (read_int(r, req, track_names[t], 0, 15, 0,
			    &op->requires[t]) < 0)
				return -1;
	}
	effects = json_object_get(v, "effects");
	if (!json_is_array(effects) || json_array_size(effects) == 0 ||
	    json_array_size(effects) > CC_EFFECTS_MAX)
		return fail(r, effects != NULL ? effects : v, "effects",
		    "a list of 1 to %d effects", CC_EFFECTS_MAX);
	for (i = 0; i < json_array_size(effects); i++) {
		struct cc_effect *e = &op->effect[op->neffects++];
		if (read_effect(r, set, json_array_get(effects, i), op, e) < 0)
			return -1;
		r->where = v;
		if (!op->attack && cc_keyword_target(e) != CC_T_NONE)
			targets++;
	}
	if (targets > 1)
		return fail(r, effects, "effects",
		    "at most one effect of an operation chooses a target");
	if (targets > 0 && op->kind != CC_PLAY && op->kind != CC_ACTIVATION)
		return fail(r, effects, "effects", "a %s operation resolves on "
		    "its own: none of its effects may choose a target",
		    opkind_names[kind]);
	for (int j = 0; j + 1 < op->neffects; j++)
		if (op->effect[j].keyword == KW_SCAN)
			return fail(r, effects, "effects", "scan is the last "
			    "effect of its operation: the player picks a card "
			    "after it, in a new message");
	return 0;
}

/* skills / focus: a mapping of specialty icons, 0 to 3 of each. */
static int
read_icons(struct reader *r, const json_t *card, const char *field,
    int icons[CC_NTRACKS])
{
	const json_t *v = json_object_get(card, field);

	if (v == NULL)
		return 0;
	if (!json_is_object(v))
		return fail(r, v, field, "a mapping of specialty icons "
		    "(research, influence, military)");
	for (int t = 0; t < CC_NTRACKS; t++)
		if (read_int(r, v, track_names[t], 0, 3, 0, &icons[t]) < 0)
			return -1;
	return 0;
}

/* The track's multiplier boxes: [{at: LEVEL, times: N}, ...], levels
 * rising; a FOCUS icon is worth the last box reached (seed line 301). */
static const int default_boxes[][2] = { {4, 1}, {8, 2}, {12, 3}, {15, 4} };

static int
read_multipliers(struct reader *r, const json_t *card,
    int multiplier[CC_TRACK_TOP + 1])
{
	const json_t *v = json_object_get(card, "multipliers");
	int at[CC_TRACK_TOP + 1], times[CC_TRACK_TOP + 1], n = 0, last = 0;

	if (v == NULL)
		for (n = 0; n < 4; n++) {
			at[n] = default_boxes[n][0];
			times[n] = default_boxes[n][1];
		}
	else if (!json_is_array(v) || json_array_size(v) == 0 ||
	    json_array_size(v) > CC_TRACK_TOP)
		return fail(r, v, "multipliers", "a list of 1 to %d boxes "
		    "{at: LEVEL, times: N}", CC_TRACK_TOP);
	for (size_t i = 0; v != NULL && i < json_array_size(v); i++, n++) {
		const json_t *box = json_array_get(v, i);
		if (!json_is_object(box))
			return fail(r, box, "multipliers",
			    "each box is {at: LEVEL, times: N}");
		r->where = box;
		if (read_int(r, box, "at", 1, CC_TRACK_TOP, 0, &at[n]) < 0 ||
		    read_int(r, box, "times", 1, 10, 0, &times[n]) < 0)
			return -1;
		if (at[n] <= last || times[n] == 0)
			return fail(r, box, "multipliers", "each box needs "
			    "times, and an at higher than the box before");
		last = at[n];
	}
	r->where = card;
	for (int level = 0, b = -1; level <= CC_TRACK_TOP; level++) {
		while (b + 1 < n && at[b + 1] <= level)
			b++;
		multiplier[level] = b < 0 ? 0 : times[b];
	}
	return 0;
}

static int
read_goal(struct reader *r, struct cc_set *set, const json_t *v,
    struct cc_goal *g)
{
	const json_t *t;

	memset(g, 0, sizeof(*g));
	g->trait = -1;
	if (!json_is_object(v))
		return fail(r, v, "goal", "each condition is a mapping");
	r->where = v;
	if ((json_object_get(v, "track") != NULL) ==
	    (json_object_get(v, "cards") != NULL))
		return fail(r, v, "goal", "a condition is {track: T, "
		    "at_least: N} or {cards: N, suit/trait/icon/beamed}");
	if (json_object_get(v, "track") != NULL) {
		g->kind = CC_GOAL_TRACK;
		return read_word(r, v, "track", track_names, CC_NTRACKS, 1,
		    &g->track) < 0 || read_int(r, v, "at_least", 1,
		    CC_TRACK_TOP, 1, &g->at_least) < 0 ? -1 : 0;
	}
	g->kind = CC_GOAL_CARDS;
	if (read_int(r, v, "cards", 1, 20, 1, &g->at_least) < 0 ||
	    read_suits(r, v, &g->suits) < 0 ||
	    read_word(r, v, "icon", track_names, CC_NTRACKS, 0, &g->icon) < 0 ||
	    read_bool(r, v, "beamed", &g->beamed) < 0)
		return -1;
	if ((t = json_object_get(v, "trait")) != NULL &&
	    (g->trait = intern_trait(r, set, t, "trait")) < 0)
		return -1;
	return 0;
}

/* A reward is a benefit resolved on its own: no target, no cost, no
 * scan, nothing about "this card" (a mission is not a card). */
static int
reward_keyword(enum cc_keyword k, const struct cc_effect *e)
{
	switch (k) {
	case KW_SPEND: case KW_PROMOTE: case KW_DEPLOY: case KW_WARP:
	case KW_BEAM: case KW_DUPLICATE:
		return 0;
	case KW_LOG: case KW_RETURN_INCIDENT:
		return !e->self && cc_keyword_target(e) == CC_T_NONE;
	default:
		return cc_keyword_target(e) == CC_T_NONE;
	}
}

static int
read_mission(struct reader *r, struct cc_set *set, const json_t *v,
    struct cc_mission *m)
{
	const json_t *goal, *reward;

	memset(m, 0, sizeof(*m));
	if (!json_is_object(v))
		return fail(r, v, "missions", "each mission is a mapping");
	r->where = v;
	if (read_text(r, v, "name", 1, m->name) < 0 ||
	    read_text(r, v, "name_fr", 0, m->name_fr) < 0)
		return -1;
	if (m->name_fr[0] == '\0')
		strcpy(m->name_fr, m->name);
	goal = json_object_get(v, "goal");
	if (!json_is_array(goal) || json_array_size(goal) == 0 ||
	    json_array_size(goal) > CC_GOALS_MAX)
		return fail(r, goal != NULL ? goal : v, "goal",
		    "a list of 1 to %d conditions", CC_GOALS_MAX);
	for (size_t i = 0; i < json_array_size(goal); i++) {
		if (read_goal(r, set, json_array_get(goal, i),
		    &m->goal[m->ngoals++]) < 0)
			return -1;
		r->where = v;
	}
	reward = json_object_get(v, "reward");
	if (!json_is_array(reward) || json_array_size(reward) == 0 ||
	    json_array_size(reward) > CC_EFFECTS_MAX)
		return fail(r, reward != NULL ? reward : v, "reward",
		    "a list of 1 to %d effects", CC_EFFECTS_MAX);
	m->reward.kind = CC_PLAY;
	for (size_t i = 0; i < json_array_size(reward); i++) {
		struct cc_effect *e = &m->reward.effect[m->reward.neffects++];
		if (read_effect(r, set, json_array_get(reward, i), &m->reward,
		    e) < 0)
			return -1;
		if (!reward_keyword(e->keyword, e))
			return fail(r, json_array_get(reward, i), "reward",
			    "%s cannot be a reward: a reward chooses no target, "
			    "costs nothing and is no card",
			    keyword_names[e->keyword]);
		r->where = v;
	}
	return 0;
}

static int
read_missions(struct reader *r, struct cc_set *set, const json_t *card,
    struct cc_card *c)
{
	const json_t *v = json_object_get(card, "missions");

	if (v == NULL)
		return 0;
	if (!json_is_array(v) || json_array_size(v) > CC_MISSIONS_MAX)
		return fail(r, v, "missions", "a list of at most %d missions "
		    "(one Mission Completed token each)", CC_MISSIONS_MAX);
	for (size_t i = 0; i < json_array_size(v); i++) {
		if (read_mission(r, set, json_array_get(v, i),
		    &c->mission[c->nmissions++]) < 0)
			return -1;
		r->where = card;
	}
	return 0;
}

static int
read_card(struct reader *r, struct cc_set *set, const json_t *v,
    struct cc_card *c, const char **captain_ref, const json_t **ref_node)
{
	const json_t *traits, *ops, *cost, *x;
	int suit, pile;
	size_t i;

	memset(c, 0, sizeof(*c));
	r->card = NULL;
	if (!json_is_object(v))
		return fail(r, v, "cards", "each card is a mapping");
	r->where = v;
	if (read_text(r, v, "id", 1, c->id) < 0)
		return -1;
	for (const char *p = c->id; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '-'))
			return fail(r, json_object_get(v, "id"), "id",
			    "ids use a-z, 0-9 and '-'");
	if (cc_find_id(set, c->id) >= 0)
		return fail(r, json_object_get(v, "id"), "id",
		    "the id %s is already used", c->id);
	r->card = c->id;
	if (read_text(r, v, "name", 1, c->name) < 0 ||
	    read_text(r, v, "name_fr", 0, c->name_fr) < 0 ||
	    read_word(r, v, "suit", suit_names, CC_NSUITS, 1, &suit) < 0 ||
	    read_int(r, v, "vp", -10, 20, 0, &c->vp) < 0 ||
	    read_int(r, v, "copies", 1, 20, 1, &c->copies) < 0 ||
	    read_int(r, v, "away_teams", 0, 6, 0, &c->away_teams) < 0 ||
	    read_word(r, v, "pile", pile_names, 99, 0, &pile) < 0)
		return -1;
	if (c->name_fr[0] == '\0')
		strcpy(c->name_fr, c->name);
	rules_fold(c->name, c->folded[0], sizeof(c->folded[0]));
	rules_fold(c->name_fr, c->folded[1], sizeof(c->folded[1]));
	c->suit = (enum cc_suit)suit;
	if (pile < 0) {
		if (suit < CC_MARKET_SUITS)
			pile = CC_P_MARKET;
		else if (suit == CC_ENCOUNTER)
			pile = CC_P_ENCOUNTER;
		else if (suit == CC_INCIDENT)
			pile = CC_P_INCIDENT;
		else if (suit == CC_LOCATION)
			pile = CC_P_LOCATION_ADVANCED;
		else if (suit == CC_CAPTAIN)
			pile = CC_P_CAPTAIN;
		else if (suit == CC_STATUS)
			pile = CC_P_STATUS;
		else
			return fail(r, v, "pile", "a %s card needs its pile "
			    "(deck, reserve, development)", suit_names[suit]);
	}
	c->pile = (enum cc_pile_kind)pile;
	if ((suit == CC_CAPTAIN) != (pile == CC_P_CAPTAIN))
		return fail(r, v, "pile", "CAPTAIN cards, and only they, are "
		    "in the captain pile");
	if ((pile == CC_P_LOCATION_START || pile == CC_P_LOCATION_ADVANCED ||
	    pile == CC_P_CONTROLLED) && suit != CC_LOCATION)
		return fail(r, v, "pile", "only LOCATION cards go there");
	if ((suit == CC_STATUS) != (pile == CC_P_STATUS))
		return fail(r, v, "pile", "STATUS cards, and only they, are "
		    "in the status pile (beside their captain)");
	if (pile == CC_P_MARKET && suit >= CC_MARKET_SUITS)
		return fail(r, v, "pile", "the market holds PERSON, CARGO, "
		    "SHIP and ALLY cards");
	if (suit == CC_CAPTAIN && c->away_teams == 0)
		return fail(r, v, "away_teams", "a captain needs away teams");
	if ((suit == CC_CAPTAIN || suit == CC_STATUS) && c->copies != 1)
		return fail(r, v, "copies", "a captain, and its STATUS card, "
		    "are unique");
	*captain_ref = NULL;
	if ((x = json_object_get(v, "captain")) != NULL) {
		if (!json_is_string(x))
			return fail(r, x, "captain", "a captain's id is needed");
		*captain_ref = json_string_value(x);
		*ref_node = x;
	} else if (pile >= CC_P_DECK)
		return fail(r, v, "captain",
		    "a crew card names its captain's id");
	if ((traits = json_object_get(v, "traits")) != NULL) {
		if (!json_is_array(traits) ||
		    json_array_size(traits) > CC_TRAITS_MAX)
			return fail(r, traits, "traits",
			    "a list of at most %d traits", CC_TRAITS_MAX);
		for (i = 0; i < json_array_size(traits); i++) {
			const json_t *t = json_array_get(traits, i);
			if (json_is_string(t) &&
			    strcasecmp(json_string_value(t), "WILDCARD") == 0) {
				c->wildcard = 1;
				continue;
			}
			if (json_is_string(t) &&
			    strcasecmp(json_string_value(t), "ONGOING") == 0) {
				c->ongoing = 1;
				continue;
			}
			if ((c->trait[c->ntraits] = intern_trait(r, set, t,
			    "traits")) < 0)
				return -1;
			c->ntraits++;
		}
	}
	if ((cost = json_object_get(v, "cost")) != NULL) {
		if (!json_is_object(cost))
			return fail(r, cost, "cost", "a mapping of dilithium "
			    "and latinum");
		if (read_int(r, cost, "dilithium", 0, 20, 0, &c->cost[0]) < 0 ||
		    read_int(r, cost, "latinum", 0, 20, 0, &c->cost[1]) < 0)
			return -1;
	}
	if (read_icons(r, v, "skills", c->skill) < 0)
		return -1;
	if (read_icons(r, v, "focus", c->focus) < 0)
		return -1;
	if (suit == CC_CAPTAIN && (read_multipliers(r, v, c->multiplier) < 0 ||
	    read_missions(r, set, v, c) < 0 ||
	    read_int(r, v, "mission_vp", 0, 10, 0, &c->mission_vp) < 0))
		return -1;
	if (suit != CC_CAPTAIN && (json_object_get(v, "missions") != NULL ||
	    json_object_get(v, "multipliers") != NULL ||
	    json_object_get(v, "mission_vp") != NULL))
		return fail(r, v, "missions", "only a CAPTAIN card has "
		    "missions, mission_vp and track multipliers");
	if ((ops = json_object_get(v, "operations")) != NULL) {
		if (!json_is_array(ops) || json_array_size(ops) > CC_OPS_MAX)
			return fail(r, ops, "operations",
			    "a list of at most %d operations", CC_OPS_MAX);
		for (i = 0; i < json_array_size(ops); i++) {
			if (read_op(r, set, json_array_get(ops, i),
			    &c->op[c->nops++]) < 0)
				return -1;
			r->where = v;
		}
	}
	for (int o = 0; o < c->nops; o++)
		for (int e = 0; e < c->op[o].neffects; e++)
			if (c->op[o].effect[e].keyword == KW_DEPLOY &&
			    suit != CC_SHIP && !c->ongoing)
				return fail(r, v, "operations", "only a SHIP or "
				    "an ONGOING card deploys (seed line 372)");
	return 0;
}

static int
read_stardates(struct reader *r, struct cc_set *set, const json_t *root)
{
	const json_t *sd = json_object_get(root, "stardates");
	size_t i;

	if (!json_is_array(sd) || json_array_size(sd) == 0 ||
	    json_array_size(sd) > CC_STARDATES_MAX)
		return fail(r, sd != NULL ? sd : root, "stardates",
		    "a list of 1 to %d STARDATE cards", CC_STARDATES_MAX);
	for (i = 0; i < json_array_size(sd); i++) {
		const json_t *v = json_array_get(sd, i);
		struct cc_stardate *s = &set->stardate[set->nstardates++];
		if (!json_is_object(v))
			return fail(r, v, "stardates",
			    "each STARDATE is a mapping");
		r->where = v;
		if (read_int(r, v, "glory", 1, 30, 0, &s->glory) < 0 ||
		    read_bool(r, v, "wipe_market", &s->wipe_market) < 0 ||
		    read_bool(r, v, "wipe_neutral", &s->wipe_neutral) < 0)
			return -1;
		if (s->glory == 0)
			return fail(r, v, "glory", "missing");
	}
	return 0;
}

/* After every card is read: crew references, counts and piles. */
static int
check_whole(struct reader *r, struct cc_set *set, const json_t *cards,
    const char *const *ref, const json_t *const *ref_node)
{
	int total = 0, start_locations = 0, incidents = 0;
	int market[CC_MARKET_SUITS] = { 0 };

	for (int i = 0; i < set->ncards; i++) {
		struct cc_card *c = &set->card[i];
		r->card = c->id;
		c->owner = -1;
		if (c->suit == CC_CAPTAIN) {
			if (set->ncaptains == CC_CAPTAINS_MAX)
				return fail(r, json_array_get(cards, i), "suit",
				    "at most %d captains", CC_CAPTAINS_MAX);
			set->captain[set->ncaptains++] = i;
		}
	}
	for (int i = 0; i < set->ncards; i++) {
		struct cc_card *c = &set->card[i];
		r->card = c->id;
		if (ref[i] != NULL) {
			int k = cc_find_id(set, ref[i]);
			if (k < 0 || set->card[k].suit != CC_CAPTAIN)
				return fail(r, ref_node[i], "captain",
				    "no CAPTAIN card has the id %s", ref[i]);
			for (int j = 0; j < set->ncaptains; j++)
				if (set->captain[j] == k)
					c->owner = j;
		}
		if (c->pile == CC_P_STATUS)
			for (int j = 0; j < i; j++)
				if (set->card[j].pile == CC_P_STATUS &&
				    set->card[j].owner == c->owner)
					return fail(r, json_array_get(cards, i),
					    "captain", "this captain has a "
					    "STATUS card already");
		total += c->copies;
		if (c->pile == CC_P_LOCATION_START)
			start_locations += c->copies;
		if (c->suit == CC_INCIDENT)
			incidents += c->copies;
		if (c->pile == CC_P_MARKET)
			market[c->suit] += c->copies;
	}
	r->card = NULL;
	if (total > CC_COPIES_MAX)
		return fail(r, cards, "cards", "%d cards in all; at most %d",
		    total, CC_COPIES_MAX);
	if (set->ncaptains < 2)
		return fail(r, cards, "cards",
		    "two CAPTAIN cards at least are needed");
	if (start_locations < 4)
		return fail(r, cards, "cards",
		    "four location-start cards at least are needed");
	if (incidents < 1)
		return fail(r, cards, "cards", "the INCIDENT deck is empty");
	for (int s = 0; s < CC_MARKET_SUITS; s++)
		if (market[s] == 0)
			return fail(r, cards, "cards",
			    "the %s market deck is empty", suit_names[s]);
	return 0;
}

struct cc_set *
cc_set_from_file(const struct rules_cardfile *file, char *err, size_t errlen)
{
	const json_t *root = rules_cardfile_root(file);
	struct reader r = { file, root, NULL, err, errlen };
	const char *ref[CC_KINDS_MAX];
	const json_t *ref_node[CC_KINDS_MAX];
	const json_t *cards, *game;
	struct cc_set *set;
	size_t i;

	if (!json_is_object(root)) {
		fail(&r, root, "game", "the file is a mapping with game, "
		    "stardates and cards");
		return NULL;
	}
	game = json_object_get(root, "game");
	if (!json_is_string(game) ||
	    strcmp(json_string_value(game), "captains") != 0) {
		fail(&r, game != NULL ? game : root, "game",
		    "must be captains");
		return NULL;
	}
	if ((set = calloc(1, sizeof(*set))) == NULL) {
		snprintf(err, errlen, "%s: out of memory",
		    rules_cardfile_name(file));
		return NULL;
	}
	if (read_int(&r, root, "hand_size", 1, 10, 5, &set->hand_size) < 0 ||
	    read_int(&r, root, "actions", 1, 6, 3, &set->actions) < 0 ||
	    read_stardates(&r, set, root) < 0)
		goto bad;
	cards = json_object_get(root, "cards");
	if (!json_is_array(cards) || json_array_size(cards) > CC_KINDS_MAX) {
		fail(&r, cards != NULL ? cards : root, "cards",
		    "a list of at most %d cards", CC_KINDS_MAX);
		goto bad;
	}
	for (i = 0; i < json_array_size(cards); i++) {
		r.where = cards;
		ref[i] = NULL;
		ref_node[i] = NULL;
		if (read_card(&r, set, json_array_get(cards, i),
		    &set->card[set->ncards], &ref[i], &ref_node[i]) < 0)
			goto bad;
		set->ncards++;
	}
	if (check_whole(&r, set, cards, ref, ref_node) < 0 ||
	    cc_solo_read(file, set, err, errlen) < 0)
		goto bad;
	return set;
bad:
	free(set);
	return NULL;
}
