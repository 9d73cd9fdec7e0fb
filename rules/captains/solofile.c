/*
 * solofile.c -- the `solo:` part of a Captain's Chair card file
 * (docs/captains-cards.md, "Playing alone"): cadet training's STARDATEs,
 * the Bot's STARDATEs of each of the five difficulties, and each bot
 * captain's AUTOMATED COMMAND cards, whose rows are short texts such as
 * "gain PERSON > CARGO / ALLY" or "specialty lowest 1".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cardfile.h"
#include "solo.h"

static const char *const level_en[CC_LEVELS] = {
	"ensign", "lieutenant", "commander", "captain", "admiral"
};
static const char *const level_fr[CC_LEVELS] = {
	"enseigne", "lieutenant", "commandant", "capitaine", "amiral"
};
static const char *const level_fr_shown[CC_LEVELS] = {
	"Enseigne", "Lieutenant", "Commandant", "Capitaine", "Amiral"
};
static const char *const level_en_shown[CC_LEVELS] = {
	"Ensign", "Lieutenant", "Commander", "Captain", "Admiral"
};

static const char *const botwords[BW_NWORDS] = {
	"glory", "specialty", "gain", "take", "send_team", "deploy",
	"explore", "engage", "promote", "resolve_deck", "resolve_supplement",
	"junk", "log", "dismiss_officer", "recall_ship", "attack_incident"
};

static const char *const suit_words[CC_NSUITS] = {
	"PERSON", "CARGO", "SHIP", "ALLY", "ENCOUNTER", "INCIDENT",
	"LOCATION", "DIRECTIVE", "CAPTAIN", "STATUS"
};
static const char *const track_words[CC_NTRACKS] = {
	"research", "influence", "military"
};

int
cc_level_by_name(const char *name)
{
	for (int i = 0; i < CC_LEVELS; i++)
		if (strcasecmp(name, level_en[i]) == 0 ||
		    strcasecmp(name, level_fr[i]) == 0)
			return i;
	return -1;
}

const char *
cc_level_name(int level, enum rules_lang lang)
{
	if (level < 0 || level >= CC_LEVELS)
		return "?";
	return lang == RULES_LANG_FR ? level_fr_shown[level] :
	    level_en_shown[level];
}

const char *const cc_level_words[] = {
	"ensign", "lieutenant", "commander", "captain", "admiral",
	"enseigne", "commandant", "capitaine", "amiral", NULL
};

struct sreader {
	const struct rules_cardfile *file;
	struct cc_set	*set;
	char		*err;
	size_t		 errlen;
};

static int
sfail(struct sreader *r, const json_t *node, const char *field,
    const char *what)
{
	return rules_cardfile_error(r->file, node, NULL, field, r->err,
	    r->errlen, "%s", what);
}

static int
word_index(const char *w, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcasecmp(w, names[i]) == 0)
			return i;
	return -1;
}

static int
trait_index(const struct cc_set *set, const char *w)
{
	for (int i = 0; i < set->ntraits; i++)
		if (strcasecmp(set->trait_name[i], w) == 0)
			return i;
	return -1;
}

/* A list of STARDATE mappings into sd; their number into n. */
static int
read_dates(struct sreader *r, const json_t *list, const char *field,
    int need_actions, struct cc_stardate *sd, int *n)
{
	size_t i;

	if (!json_is_array(list) || json_array_size(list) == 0 ||
	    json_array_size(list) > CC_STARDATES_MAX)
		return sfail(r, list, field, "a list of 1 to 8 STARDATE cards");
	for (i = 0; i < json_array_size(list); i++) {
		const json_t *v = json_array_get(list, i), *g, *a;
		struct cc_stardate *d = &sd[i];

		if (!json_is_object(v))
			return sfail(r, list, field, "each STARDATE is a "
			    "mapping");
		g = json_object_get(v, "glory");
		a = json_object_get(v, "bot_actions");
		if (!json_is_integer(g) || json_integer_value(g) < 1 ||
		    json_integer_value(g) > 30)
			return sfail(r, v, "glory", "a whole number from 1 to "
			    "30 is needed");
		d->glory = (int)json_integer_value(g);
		d->wipe_market = json_is_true(json_object_get(v,
		    "wipe_market"));
		d->wipe_neutral = json_is_true(json_object_get(v,
		    "wipe_neutral"));
		if (need_actions && (!json_is_integer(a) ||
		    json_integer_value(a) < 1 || json_integer_value(a) > 6))
			return sfail(r, v, "bot_actions", "a whole number from "
			    "1 to 6 is needed");
		d->bot_actions = a != NULL ? (int)json_integer_value(a) : 0;
	}
	*n = (int)i;
	return 0;
}

/* "A > B / C": groups split by '>', terms of a group by '/'. */
static int
read_expr(struct sreader *r, const json_t *node, char *text,
    struct cc_expr *e)
{
	char *gsave = NULL, *group;

	memset(e, 0, sizeof(*e));
	for (group = strtok_r(text, ">", &gsave); group != NULL;
	    group = strtok_r(NULL, ">", &gsave)) {
		char *tsave = NULL, *term;
		int g = e->ngroups;

		if (g == CC_EXPR_GROUPS)
			return sfail(r, node, "do", "at most 4 groups "
			    "joined by '>'");
		for (term = strtok_r(group, "/ ", &tsave); term != NULL;
		    term = strtok_r(NULL, "/ ", &tsave)) {
			struct cc_term *t = &e->term[g][e->nterms[g]];
			int v;

			if (e->nterms[g] == CC_EXPR_TERMS)
				return sfail(r, node, "do", "at most 4 terms "
				    "joined by '/'");
			if ((v = word_index(term, suit_words, CC_NSUITS)) >=
			    0)
				*t = (struct cc_term){ CC_TERM_SUIT, v };
			else if ((v = word_index(term, track_words,
			    CC_NTRACKS)) >= 0)
				*t = (struct cc_term){ CC_TERM_SKILL, v };
			else if ((v = trait_index(r->set, term)) >= 0)
				*t = (struct cc_term){ CC_TERM_TRAIT, v };
			else
				return sfail(r, node, "do", "a card expression "
				    "names suits, traits of the file's cards "
				    "and research, influence, military");
			e->nterms[g]++;
		}
		if (e->nterms[g] == 0)
			return sfail(r, node, "do", "an empty group in a card "
			    "expression");
		e->ngroups++;
	}
	return e->ngroups == 0 ? sfail(r, node, "do", "gain and take name "
	    "the cards they look for") : 0;
}

/* One effect text: "WORD [ARGS]". */
static int
read_do(struct sreader *r, const json_t *node, const json_t *v,
    struct cc_botdo *d)
{
	char buf[256], *rest, *end;
	long n;

	memset(d, 0, sizeof(*d));
	d->trait = -1;
	if (!json_is_string(v) || json_string_length(v) >= sizeof(buf))
		return sfail(r, node, "do", "each effect is a short text");
	strcpy(buf, json_string_value(v));
	rest = strchr(buf, ' ');
	if (rest != NULL)
		*rest++ = '\0';
	if ((n = word_index(buf, botwords, BW_NWORDS)) < 0)
		return sfail(r, node, "do", "unknown Bot effect; see "
		    "docs/captains-cards.md, \"Playing alone\"");
	d->word = (enum cc_botword)n;
	d->amount = 1;
	switch (d->word) {
	case BW_GLORY:
		if (rest != NULL && ((n = strtol(rest, &end, 10)) < 1 ||
		    n > 9 || *end != '\0'))
			return sfail(r, node, "do", "glory N: N from 1 to 9");
		d->amount = rest != NULL ? (int)n : 1;
		return 0;
	case BW_SPECIALTY: {
		char *amt = rest != NULL ? strchr(rest, ' ') : NULL;
		if (amt != NULL)
			*amt++ = '\0';
		if (rest == NULL)
			return sfail(r, node, "do", "specialty TRACK [N]: "
			    "research, influence, military, lowest or highest");
		if (strcasecmp(rest, "lowest") == 0)
			d->track = -1;
		else if (strcasecmp(rest, "highest") == 0)
			d->track = -2;
		else if ((d->track = word_index(rest, track_words,
		    CC_NTRACKS)) < 0)
			return sfail(r, node, "do", "specialty TRACK [N]: "
			    "research, influence, military, lowest or highest");
		if (amt != NULL && ((n = strtol(amt, &end, 10)) < 1 ||
		    n > 5 || *end != '\0'))
			return sfail(r, node, "do", "specialty TRACK N: N from "
			    "1 to 5");
		d->amount = amt != NULL ? (int)n : 1;
		return 0;
	}
	case BW_GAIN:
	case BW_TAKE:
		if (rest == NULL)
			return sfail(r, node, "do", "gain and take name the "
			    "cards they look for");
		return read_expr(r, node, rest, &d->expr);
	case BW_SEND_TEAM:
		if (rest != NULL && (d->trait = trait_index(r->set, rest)) < 0)
			return sfail(r, node, "do", "send_team [TRAIT]: a "
			    "trait of the file's cards");
		return 0;
	default:
		return rest == NULL ? 0 : sfail(r, node, "do",
		    "this Bot effect takes nothing after it");
	}
}

/* One side of an AUTOMATED COMMAND: rows keyed by "trait" or "suit". */
static int
read_side(struct sreader *r, const json_t *ac, const char *field,
    int by_trait, struct cc_acside *side)
{
	const json_t *rows = json_object_get(ac, field);
	size_t i, j;

	if (!json_is_array(rows) || json_array_size(rows) == 0 ||
	    json_array_size(rows) > CC_AC_ROWS)
		return sfail(r, rows != NULL ? rows : ac, field,
		    "a list of 1 to 8 rows");
	for (i = 0; i < json_array_size(rows); i++) {
		const json_t *row = json_array_get(rows, i), *m, *todo;
		struct cc_acrow *ar = &side->row[side->nrows];

		if (!json_is_object(row))
			return sfail(r, rows, field, "each row is a mapping");
		m = json_object_get(row, by_trait ? "trait" : "suit");
		if (!json_is_string(m) || (ar->match = by_trait ?
		    trait_index(r->set, json_string_value(m)) :
		    word_index(json_string_value(m), suit_words,
		    CC_NSUITS)) < 0)
			return sfail(r, row, by_trait ? "trait" : "suit",
			    by_trait ? "a trait of the file's cards" :
			    "a suit");
		todo = json_object_get(row, "do");
		if (!json_is_array(todo) || json_array_size(todo) == 0 ||
		    json_array_size(todo) > CC_AC_DO)
			return sfail(r, row, "do", "a list of 1 to 4 effects");
		for (j = 0; j < json_array_size(todo); j++)
			if (read_do(r, row, json_array_get(todo, j),
			    &ar->todo[ar->ndo++]) < 0)
				return -1;
		side->nrows++;
	}
	return 0;
}

static int
read_automated(struct sreader *r, const json_t *list)
{
	struct cc_solo *solo = &r->set->solo;
	size_t i;

	if (!json_is_array(list) || json_array_size(list) >
	    CC_CAPTAINS_MAX)
		return sfail(r, list, "automated_command",
		    "a list of at most 4 bot captains");
	for (i = 0; i < json_array_size(list); i++) {
		const json_t *ac = json_array_get(list, i), *cap;
		struct cc_automated *a = &solo->automated[solo->nautomated];
		int k;

		if (!json_is_object(ac))
			return sfail(r, list, "automated_command",
			    "each bot captain is a mapping");
		cap = json_object_get(ac, "captain");
		if (!json_is_string(cap) || (k = cc_find_id(r->set,
		    json_string_value(cap))) < 0 ||
		    r->set->card[k].suit != CC_CAPTAIN)
			return sfail(r, ac, "captain", "the id of a CAPTAIN "
			    "card");
		a->captain = k;
		if (read_side(r, ac, "traits", 1, &a->traits) < 0 ||
		    read_side(r, ac, "suits", 0, &a->suits_without) < 0 ||
		    read_side(r, ac, "suits_with_officer", 0,
		    &a->suits_with) < 0)
			return -1;
		solo->nautomated++;
	}
	return 0;
}

int
cc_solo_read(const struct rules_cardfile *file, struct cc_set *set,
    char *err, size_t errlen)
{
	const json_t *root = rules_cardfile_root(file);
	const json_t *solo = json_object_get(root, "solo"), *levels, *cadet;
	struct sreader r = { file, set, err, errlen };

	if (solo == NULL)
		return 0;
	if (!json_is_object(solo))
		return sfail(&r, root, "solo", "a mapping with cadet, levels "
		    "and automated_command");
	cadet = json_object_get(solo, "cadet");
	if (cadet != NULL && read_dates(&r, cadet, "cadet", 0,
	    set->solo.cadet, &set->solo.ncadet) < 0)
		return -1;
	levels = json_object_get(solo, "levels");
	if (levels != NULL) {
		if (!json_is_object(levels))
			return sfail(&r, solo, "levels", "a mapping from "
			    "ensign, lieutenant, commander, captain, admiral "
			    "to their STARDATEs");
		for (int l = 0; l < CC_LEVELS; l++) {
			const json_t *d = json_object_get(levels, level_en[l]);
			if (d == NULL)
				return sfail(&r, levels, level_en[l],
				    "missing: the five difficulties are "
				    "needed");
			if (read_dates(&r, d, level_en[l], 1,
			    set->solo.level[l], &set->solo.nlevel[l]) < 0)
				return -1;
		}
	}
	if (json_object_get(solo, "automated_command") != NULL &&
	    read_automated(&r, json_object_get(solo,
	    "automated_command")) < 0)
		return -1;
	return 0;
}

const struct cc_automated *
cc_automated_of(const struct cc_set *set, int captain_kind)
{
	for (int i = 0; i < set->solo.nautomated; i++)
		if (set->solo.automated[i].captain == captain_kind)
			return &set->solo.automated[i];
	return NULL;
}
