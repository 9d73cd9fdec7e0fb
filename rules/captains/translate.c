/*
 * translate.c -- a Captain's Chair message written again in one language,
 * for the examples a mail or page shows (rules API 2, translate()): each
 * step read by cc_parse(), then written with that language's move word
 * and card names.  French words are written with their accents; the
 * reader folds accents away, so the text reads back to the same steps.
 */
#include <stdio.h>
#include <string.h>

#include "captains.h"

/* The move word of each enum cc_verb, in English and in French. */
static const char *const verb_words[2][V_PICK + 1] = {
	{ "control", "play", "activate", "end", "pass", "react", "discard",
	    "bot", "wipe", "pick" },
	{ "contrôler", "jouer", "activer", "fin", "passer", "réagir",
	    "défausser", "robot", "effacer", "choisir" },
};

/* The market decks, as parse.c reads them after "on" / "sur". */
static const char *const deck_words[2][CC_MARKET_SUITS] = {
	{ "deck person", "deck cargo", "deck ship", "deck ally" },
	{ "pioche personne", "pioche cargaison", "pioche vaisseau",
	    "pioche allié" },
};

/* Append one step to out at *used; 0, or -1 when out is too small. */
static int
write_step(const struct cc_set *set, const json_t *step, int fr, char *out,
    size_t outlen, size_t *used)
{
	int verb = (int)json_integer_value(json_object_get(step, "verb"));
	const json_t *card = json_object_get(step, "card");
	const json_t *target = json_object_get(step, "target");
	const json_t *deck = json_object_get(step, "deck");
	int op = (int)json_integer_value(json_object_get(step, "op"));
	const struct cc_card *k;
	const json_t *one;
	char text[512];
	size_t n, i;

	if (verb < 0 || verb > V_PICK)
		return -1;
	n = (size_t)snprintf(text, sizeof(text), "%s", verb_words[fr][verb]);
	if (card != NULL) {
		k = &set->card[json_integer_value(card)];
		n += (size_t)snprintf(text + n, sizeof(text) - n, " %s",
		    fr ? k->name_fr : k->name);
		if (op > 0 && n < sizeof(text))
			n += (size_t)snprintf(text + n, sizeof(text) - n,
			    " %d", op);
	}
	if (deck != NULL && n < sizeof(text)) {
		int suit = (int)json_integer_value(deck);
		n += (size_t)snprintf(text + n, sizeof(text) - n, " %s %s",
		    fr ? "sur" : "on", suit >= 0 && suit < CC_MARKET_SUITS ?
		    deck_words[fr][suit] : fr ? "pioche" : "deck");
	} else if (target != NULL && n < sizeof(text)) {
		const struct cc_card *t =
		    &set->card[json_integer_value(target)];
		/* "control X" and "end X" name their card with no "on". */
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s %s",
		    card != NULL ? " " : "", card != NULL ? (fr ? "sur" :
		    "on") : "", fr ? t->name_fr : t->name);
	}
	/* "end [OFFER] discard A, B": the hand cards discarded at clean-up */
	json_array_foreach(json_object_get(step, "discards"), i, one) {
		if (n >= sizeof(text))
			break;
		k = &set->card[json_integer_value(one)];
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s",
		    i == 0 ? (fr ? " défausser " : " discard ") : ", ",
		    fr ? k->name_fr : k->name);
	}
	if (json_is_true(json_object_get(step, "to_deck")) && n < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s",
		    fr ? " vers pioche" : " to deck");
	if (n >= sizeof(text) ||
	    *used + n + (*used > 0 ? 2 : 0) >= outlen)
		return -1;
	*used += (size_t)snprintf(out + *used, outlen - *used, "%s%s",
	    *used > 0 ? "; " : "", text);
	return 0;
}

enum rules_status
cc_translate(const struct cc_set *set, const char *text,
    enum rules_lang lang, char *out, size_t outlen)
{
	char err[RULES_ERRLEN];
	json_t *move, *step;
	enum rules_status rc;
	size_t i, used = 0;

	if (outlen == 0)
		return RULES_SYNTAX;
	if ((rc = cc_parse(set, text, RULES_LANG_EN, &move, err,
	    sizeof(err))) != RULES_OK)
		return rc;
	out[0] = '\0';
	json_array_foreach(json_object_get(move, "steps"), i, step)
		if (write_step(set, step, lang == RULES_LANG_FR, out, outlen,
		    &used) != 0) {
			rc = RULES_SYNTAX;	/* out too small */
			break;
		}
	json_decref(move);
	return rc;
}
