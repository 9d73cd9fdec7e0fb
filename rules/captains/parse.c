/*
 * parse.c -- reading a Captain's Chair message: steps separated by ';' or
 * line ends, each "VERB [CARD] [N] [on TARGET]" in English or French,
 * card names in either language (or card ids), case and accents ignored.
 * Names are public: reading never looks at where a card lies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "captains.h"

struct verb_word {
	const char	*word;
	enum cc_verb	 verb;
};

static const struct verb_word verbs[] = {
	{ "control", V_CONTROL }, { "controler", V_CONTROL },
	{ "play", V_PLAY }, { "jouer", V_PLAY },
	{ "activate", V_ACTIVATE }, { "activer", V_ACTIVATE },
	{ "end", V_END }, { "fin", V_END }, { "finir", V_END },
	{ "pass", V_PASS }, { "passer", V_PASS },
	{ "react", V_REACT }, { "reagir", V_REACT },
	{ "discard", V_DISCARD }, { "defausser", V_DISCARD },
	{ "bot", V_BOT }, { "robot", V_BOT },
	{ "wipe", V_WIPE }, { "effacer", V_WIPE },
	{ "pick", V_PICK }, { "choisir", V_PICK },
};
#define NVERBS (sizeof(verbs) / sizeof(verbs[0]))

static const char *const deck_suits[2][CC_MARKET_SUITS] = {
	{ "person", "cargo", "ship", "ally" },
	{ "personne", "cargaison", "vaisseau", "allie" },
};

/* The kind whose folded name (either language) or id is text, or -1. */
int
cc_card_by_name(const struct cc_set *set, const char *text)
{
	for (int i = 0; i < set->ncards; i++)
		if (strcmp(set->card[i].folded[0], text) == 0 ||
		    strcmp(set->card[i].folded[1], text) == 0 ||
		    strcmp(set->card[i].id, text) == 0)
			return i;
	return -1;
}

static enum rules_status
unknown_card(const struct cc_set *set, const char *text,
    enum rules_lang lang, char *err, size_t errlen)
{
	const char *cands[CC_KINDS_MAX * 2 + 1];
	const char *near;
	int n = 0;

	for (int i = 0; i < set->ncards; i++) {
		cands[n++] = set->card[i].folded[0];
		cands[n++] = set->card[i].folded[1];
	}
	cands[n] = NULL;
	near = rules_nearest(text, cands);
	if (lang == RULES_LANG_FR)
		snprintf(err, errlen, "aucune carte ne s'appelle « %s »%s%s%s",
		    text, near ? " ; vouliez-vous dire « " : "",
		    near ? near : "", near ? " » ?" : "");
	else
		snprintf(err, errlen, "no card is called \"%s\"%s%s%s", text,
		    near ? "; did you mean \"" : "", near ? near : "",
		    near ? "\"?" : "");
	return RULES_SYNTAX;
}

/* "deck [SUIT]" / "pioche [SUIT]": the market suit (-1: the effect's),
 * -2 if text is not a deck. */
static int
deck_word(const char *text)
{
	const char *rest;

	if (strncmp(text, "deck", 4) == 0)
		rest = text + 4;
	else if (strncmp(text, "pioche", 6) == 0)
		rest = text + 6;
	else
		return -2;
	if (*rest == '\0')
		return -1;
	if (*rest++ != ' ')
		return -2;
	for (int l = 0; l < 2; l++)
		for (int k = 0; k < CC_MARKET_SUITS; k++)
			if (strcmp(rest, deck_suits[l][k]) == 0)
				return k;
	return -3;
}

/* Cut a trailing " WORD" (either language's) off text; 1 if cut. */
static int
cut_suffix(char *text, const char *en, const char *fr)
{
	const char *words[2] = { en, fr };

	for (int w = 0; w < 2; w++) {
		size_t lt = strlen(text), lw = strlen(words[w]);
		if (lt > lw && strcmp(text + lt - lw, words[w]) == 0) {
			text[lt - lw] = '\0';
			return 1;
		}
	}
	return 0;
}

/* Split "NAME [N] [on|sur TARGET] [to deck|vers pioche]" into the step
 * object. */
static enum rules_status
read_card_words(const struct cc_set *set, char *rest, json_t *step,
    enum rules_lang lang, char *err, size_t errlen)
{
	char *on, *sur, *target = NULL, *sp;
	int card, n = 0;

	/* a gained card goes onto the deck instead of the discard */
	if (cut_suffix(rest, " to deck", " vers pioche"))
		json_object_set_new(step, "to_deck", json_true());
	on = strstr(rest, " on ");
	sur = strstr(rest, " sur ");

	if (sur != NULL && (on == NULL || sur < on))
		on = sur;
	if (on != NULL) {
		*on = '\0';
		target = on + (on == sur ? 5 : 4);
	}
	if ((card = cc_card_by_name(set, rest)) < 0 &&
	    (sp = strrchr(rest, ' ')) != NULL && sp[1] >= '1' &&
	    sp[1] <= '9' && sp[2] == '\0') {
		n = sp[1] - '0';
		*sp = '\0';
		card = cc_card_by_name(set, rest);
	}
	if (card < 0)
		return unknown_card(set, rest, lang, err, errlen);
	json_object_set_new(step, "card", json_integer(card));
	json_object_set_new(step, "op", json_integer(n));
	if (target != NULL) {
		int deck = deck_word(target), t;
		if (deck == -3) {
			snprintf(err, errlen, lang == RULES_LANG_FR ?
			    "pioche inconnue : « %s » (personne, cargaison, "
			    "vaisseau, allié)" : "unknown deck: \"%s\" (person, "
			    "cargo, ship, ally)", target);
			return RULES_SYNTAX;
		}
		if (deck >= -1)
			json_object_set_new(step, "deck", json_integer(deck));
		else if ((t = cc_card_by_name(set, target)) < 0)
			return unknown_card(set, target, lang, err, errlen);
		else
			json_object_set_new(step, "target", json_integer(t));
	}
	return RULES_OK;
}

/* "end [OFFER] [discard CARD, CARD...]": the glory's offer, and the
 * hand cards discarded at clean-up (4.4). */
static enum rules_status
read_end(const struct cc_set *set, char *rest, json_t *step,
    enum rules_lang lang, char *err, size_t errlen)
{
	static const char *const words[] = { "discard ", "defausser " };
	char *list = NULL, *save = NULL, *name;
	json_t *discards;
	int card;

	if (rest == NULL)
		return RULES_OK;
	for (int w = 0; w < 2 && list == NULL; w++) {
		size_t lw = strlen(words[w]);
		char *at = strncmp(rest, words[w], lw) == 0 ? rest : NULL;
		char *mid;
		if (at == NULL && (mid = strstr(rest, words[w])) != NULL &&
		    mid[-1] == ' ')
			at = mid;
		if (at != NULL) {
			list = at + lw;
			*at = '\0';
			if (at > rest)
				at[-1] = '\0';
		}
	}
	if (list != NULL) {
		discards = json_array();
		json_object_set_new(step, "discards", discards);
		for (name = strtok_r(list, ",", &save); name != NULL;
		    name = strtok_r(NULL, ",", &save)) {
			while (*name == ' ')
				name++;
			for (size_t l = strlen(name); l > 0 &&
			    name[l - 1] == ' '; l--)
				name[l - 1] = '\0';
			if ((card = cc_card_by_name(set, name)) < 0)
				return unknown_card(set, name, lang, err,
				    errlen);
			if (json_array_size(discards) == CC_STEPS_MAX) {
				snprintf(err, errlen, lang == RULES_LANG_FR ?
				    "au plus %d cartes à défausser" :
				    "at most %d cards to discard", CC_STEPS_MAX);
				return RULES_SYNTAX;
			}
			json_array_append_new(discards, json_integer(card));
		}
	}
	if (rest[0] == '\0')
		return RULES_OK;
	if ((card = cc_card_by_name(set, rest)) < 0)
		return unknown_card(set, rest, lang, err, errlen);
	json_object_set_new(step, "target", json_integer(card));
	return RULES_OK;
}

static enum rules_status
read_step(const struct cc_set *set, char *text, json_t *steps,
    enum rules_lang lang, char *err, size_t errlen)
{
	char *rest = strchr(text, ' ');
	json_t *step;
	size_t v;

	if (rest != NULL)
		*rest++ = '\0';
	for (v = 0; v < NVERBS && strcmp(verbs[v].word, text) != 0; v++)
		;
	if (v == NVERBS) {
		snprintf(err, errlen, lang == RULES_LANG_FR ?
		    "« %s » n'est pas un mot de coup : contrôler, jouer, "
		    "activer, fin, choisir, passer, réagir, défausser, effacer, "
		    "robot" : "\"%s\" is not a move word: control, play, "
		    "activate, end, pick, pass, react, discard, wipe, bot", text);
		return RULES_SYNTAX;
	}
	step = json_pack("{s:i}", "verb", verbs[v].verb);
	json_array_append_new(steps, step);
	switch (verbs[v].verb) {
	case V_PASS:
	case V_BOT:
		if (rest != NULL) {
			snprintf(err, errlen, lang == RULES_LANG_FR ?
			    "« %s » se dit seul" :
			    "\"%s\" takes nothing after it", text);
			return RULES_SYNTAX;
		}
		return RULES_OK;
	case V_WIPE:
	case V_END:
		return read_end(set, rest, step, lang, err, errlen);
	case V_CONTROL: {
		int card;
		if (rest == NULL) {
			snprintf(err, errlen, lang == RULES_LANG_FR ?
			    "%s quelle carte ?" : "%s which card?", text);
			return RULES_SYNTAX;
		}
		if ((card = cc_card_by_name(set, rest)) < 0)
			return unknown_card(set, rest, lang, err, errlen);
		json_object_set_new(step, "target", json_integer(card));
		return RULES_OK;
	}
	default:
		if (rest == NULL) {
			snprintf(err, errlen, lang == RULES_LANG_FR ?
			    "« %s » demande une carte" :
			    "\"%s\" needs a card", text);
			return RULES_SYNTAX;
		}
		return read_card_words(set, rest, step, lang, err, errlen);
	}
}

enum rules_status
cc_parse(const struct cc_set *set, const char *text, enum rules_lang lang,
    json_t **move, char *err, size_t errlen)
{
	char buf[2048], *save = NULL, *part;
	json_t *steps = json_array();
	enum rules_status rc = RULES_OK;

	*move = NULL;
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, lang == RULES_LANG_FR ?
		    "message trop long" : "message too long");
		json_decref(steps);
		return RULES_SYNTAX;
	}
	strcpy(buf, text);
	for (part = strtok_r(buf, ";\n", &save); part != NULL;
	    part = strtok_r(NULL, ";\n", &save)) {
		char folded[512];
		if (rules_fold(part, folded, sizeof(folded)) < 0 ||
		    folded[0] == '\0')
			continue;
		if (json_array_size(steps) == CC_STEPS_MAX) {
			snprintf(err, errlen, lang == RULES_LANG_FR ?
			    "au plus %d étapes par message" :
			    "at most %d steps in a message", CC_STEPS_MAX);
			rc = RULES_SYNTAX;
			break;
		}
		if ((rc = read_step(set, folded, steps, lang, err, errlen)) !=
		    RULES_OK) {
			cc_step_refusal(err, errlen, lang,
			    json_array_size(steps));
			break;
		}
	}
	if (rc == RULES_OK && json_array_size(steps) == 0) {
		snprintf(err, errlen, lang == RULES_LANG_FR ?
		    "message vide : écrivez par exemple « jouer CARTE ; fin »" :
		    "empty message: write for example \"play CARD; end\"");
		rc = RULES_SYNTAX;
	}
	if (rc != RULES_OK) {
		json_decref(steps);
		return rc;
	}
	*move = json_pack("{s:o}", "steps", steps);
	return RULES_OK;
}

void
cc_step_refusal(char *err, size_t errlen, enum rules_lang lang, size_t step)
{
	char tmp[RULES_ERRLEN];

	snprintf(tmp, sizeof(tmp), lang == RULES_LANG_FR ? "étape %zu : %s" :
	    "step %zu: %s", step, err);
	snprintf(err, errlen, "%s", tmp);
}
