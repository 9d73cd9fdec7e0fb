/*
 * turn.c -- Mission to Planet Hexx!: reading a move (English or French),
 * checking it, and playing it, response windows included.
 *
 * One message is one action (or one answer): an action a Surprise could
 * answer (Movement, Transmission, Event) is declared, its costs paid and
 * its cards set aside; every other seat is then asked alike to answer
 * with a Surprise or to pass; when the last answer is in, the Surprises
 * resolve in seat order from the player's left, then the action (unless
 * cancelled, and only if it is still possible: else it fizzles).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexx.h"

#define TOKENS_MAX	24
#define FOLD_MAX	512

static const char *const verb_en[HEXX_VERBS] = {
	"side", "schema", "move", "transmit", "refresh", "event", "end",
	"pass", "surprise"
};
static const char *const verb_fr[HEXX_VERBS] = {
	"face", "schema", "deplacer", "transmettre", "actualiser",
	"evenement", "fin", "passer", "surprise"
};

#define SAY(lang, en, fr)	((lang) == RULES_LANG_FR ? (fr) : (en))

static enum rules_status
refuse(enum rules_status st, char *err, size_t errlen, enum rules_lang lang,
    const char *en, const char *fr)
{
	snprintf(err, errlen, "%s", SAY(lang, en, fr));
	return st;
}

/* The extra actions that may only play verb (Event, Movement or
 * Transmission actions gained from cards), or NULL. */
static int *
extra_actions(struct hexx *g, int verb)
{
	switch (verb) {
	case HEXX_V_EVENT:
	case HEXX_V_SURPRISE:	/* a riposte is an Event of one's turn */
		return &g->event_actions;
	case HEXX_V_MOVE:
		return &g->move_actions;
	case HEXX_V_TRANSMIT:
		return &g->transmit_actions;
	default:
		return NULL;
	}
}

int
hexx_actions_left(const struct hexx *g)
{
	return g->actions + g->event_actions + g->move_actions +
	    g->transmit_actions;
}

/* Use one action for verb: an extra action of its kind first. */
static void
use_action(struct hexx *g, int verb)
{
	int *extra = extra_actions(g, verb);

	if (extra != NULL && *extra > 0)
		(*extra)--;
	else
		g->actions--;
}

/* The card whose folded id or name is text, or -1. */
static int
card_named(const struct hexx_cards *set, const char *text)
{
	char name[FOLD_MAX];
	int i;

	for (i = 0; i < set->ncards; i++) {
		if (strcmp(set->card[i].id, text) == 0)
			return i;
		rules_fold(set->card[i].name_en, name, sizeof(name));
		if (strcmp(name, text) == 0)
			return i;
		rules_fold(set->card[i].name_fr, name, sizeof(name));
		if (strcmp(name, text) == 0)
			return i;
	}
	return -1;
}

/* The longest run of tokens from *at that names a card; advances *at. */
static int
read_card(const struct hexx_cards *set, char **tok, int ntok, int *at)
{
	char joined[FOLD_MAX];
	int end, i, card;

	for (end = ntok; end > *at; end--) {
		joined[0] = '\0';
		for (i = *at; i < end; i++) {
			if (i > *at)
				strncat(joined, " ", sizeof(joined) -
				    strlen(joined) - 1);
			strncat(joined, tok[i], sizeof(joined) -
			    strlen(joined) - 1);
		}
		if ((card = card_named(set, joined)) >= 0) {
			*at = end;
			return card;
		}
	}
	return -1;
}

static int
read_hex(const char *t, int *q, int *r)
{
	char tail;

	return sscanf(t, "%d,%d%c", q, r, &tail) == 2 &&
	    abs(*q) <= HEXX_RADIUS && abs(*r) <= HEXX_RADIUS;
}

static int
is_word(const char *t, const char *en, const char *fr)
{
	return strcmp(t, en) == 0 || strcmp(t, fr) == 0;
}

static enum rules_status
syntax(const char *word, enum rules_lang lang, char *err, size_t errlen)
{
	if (lang == RULES_LANG_FR)
		snprintf(err, errlen, "« %s » n'est pas compris ici. Formes : "
		    "schema CARTE en Q,R [orientation N], déplacer Q,R Q,R... "
		    "[bleu|sans-collecte], transmettre CARTE, actualiser CARTE, "
		    "événement CARTE [ou] [en Q,R] [vers Q,R] [avec CARTE], fin "
		    "[défausser CARTE, ...], passer, surprise CARTE, face 1|2.",
		    word);
	else
		snprintf(err, errlen, "\"%s\" is not understood here. Forms: "
		    "schema CARD at Q,R [facing N], move Q,R Q,R... "
		    "[blue|nocollect], "
		    "transmit CARD, refresh CARD, event CARD [or] [at Q,R] "
		    "[to Q,R] [with CARD], end [discard CARD, ...], pass, surprise CARD, "
		    "side 1|2.", word);
	return RULES_SYNTAX;
}

static json_t *
card_id(const struct hexx_cards *set, int card)
{
	return json_string(set->card[card].id);
}

/* "end discard A, B": the cards between commas. */
static enum rules_status
read_discards(const struct hexx_cards *set, char **tok, int ntok, int at,
    json_t *move, enum rules_lang lang, char *err, size_t errlen)
{
	json_t *list = json_array();
	char *sub[TOKENS_MAX];
	int nsub, i, card, k;

	json_object_set_new(move, "discards", list);
	while (at < ntok) {
		nsub = 0;
		while (at < ntok) {
			size_t len = strlen(tok[at]);
			int last = len > 0 && tok[at][len - 1] == ',';

			if (last)
				tok[at][len - 1] = '\0';
			if (tok[at][0] != '\0')
				sub[nsub++] = tok[at];
			at++;
			if (last)
				break;
		}
		if (nsub == 0)
			continue;
		k = 0;
		card = read_card(set, sub, nsub, &k);
		if (card < 0 || k != nsub)
			return syntax(sub[0], lang, err, errlen);
		for (i = 0; i < (int)json_array_size(list); i++)
			if (strcmp(json_string_value(json_array_get(list,
			    (size_t)i)), set->card[card].id) == 0)
				return refuse(RULES_SYNTAX, err, errlen, lang,
				    "The same card is named twice.",
				    "La même carte est nommée deux fois.");
		json_array_append_new(list, card_id(set, card));
	}
	return RULES_OK;
}

enum rules_status
hexx_parse(const void *state, int seat, const char *text,
    enum rules_lang lang, json_t **move, char *err, size_t errlen)
{
	const struct hexx *g = state;
	const struct hexx_cards *set = g->cards;
	char folded[FOLD_MAX], *tok[TOKENS_MAX], *save = NULL, *t;
	int ntok = 0, verb, at, card, q, r, n;
	json_t *m;
	enum rules_status st;

	(void)seat;
	*move = NULL;
	if (rules_fold(text, folded, sizeof(folded)) != 0)
		return refuse(RULES_SYNTAX, err, errlen, lang,
		    "The move is too long.", "Le coup est trop long.");
	for (t = strtok_r(folded, " ", &save); t != NULL;
	    t = strtok_r(NULL, " ", &save)) {
		if (ntok == TOKENS_MAX)
			return refuse(RULES_SYNTAX, err, errlen, lang,
			    "The move has too many words.",
			    "Le coup a trop de mots.");
		tok[ntok++] = t;
	}
	if (ntok == 0)
		return syntax("", lang, err, errlen);
	for (verb = 0; verb < HEXX_VERBS; verb++)
		if (is_word(tok[0], verb_en[verb], verb_fr[verb]))
			break;
	if (verb == HEXX_VERBS)
		return syntax(tok[0], lang, err, errlen);
	m = json_pack("{s:s}", "verb", verb_en[verb]);
	at = 1;
	switch (verb) {
	case HEXX_V_SIDE:
		if (ntok != 2 || sscanf(tok[1], "%d", &n) != 1 || n < 1 ||
		    n > 2)
			goto bad;
		json_object_set_new(m, "side", json_integer(n - 1));
		at = 2;
		break;
	case HEXX_V_SCHEMA:
	case HEXX_V_TRANSMIT:
	case HEXX_V_REFRESH:
	case HEXX_V_EVENT:
	case HEXX_V_SURPRISE:
		if ((card = read_card(set, tok, ntok, &at)) < 0)
			goto bad;
		json_object_set_new(m, "card", card_id(set, card));
		break;
	case HEXX_V_MOVE: {
		json_t *path = json_array();

		json_object_set_new(m, "path", path);
		while (at < ntok && read_hex(tok[at], &q, &r)) {
			json_array_append_new(path, json_pack("[i,i]", q, r));
			at++;
		}
		if (json_array_size(path) == 0)
			goto bad;
		if (at < ntok && is_word(tok[at], "blue", "bleu")) {
			json_object_set_new(m, "blue", json_true());
			at++;
		} else if (at < ntok && is_word(tok[at], "nocollect",
		    "sans-collecte")) {
			json_object_set_new(m, "nocollect", json_true());
			at++;
		}
		break;
	}
	case HEXX_V_END:
		if (at < ntok && is_word(tok[at], "discard", "defausser")) {
			st = read_discards(set, tok, ntok, at + 1, m, lang, err,
			    errlen);
			if (st != RULES_OK) {
				json_decref(m);
				return st;
			}
			at = ntok;
		}
		break;
	default:
		break;
	}
	/* Options after a card or a schema. */
	while (at < ntok) {
		if ((verb == HEXX_V_SCHEMA || verb == HEXX_V_EVENT) &&
		    is_word(tok[at], "at", "en") && at + 1 < ntok &&
		    read_hex(tok[at + 1], &q, &r)) {
			json_object_set_new(m, "at", json_pack("[i,i]", q, r));
			at += 2;
		} else if (verb == HEXX_V_EVENT && is_word(tok[at], "to",
		    "vers") && at + 1 < ntok && read_hex(tok[at + 1], &q, &r)) {
			json_object_set_new(m, "to", json_pack("[i,i]", q, r));
			at += 2;
		} else if (verb == HEXX_V_SCHEMA && at + 1 < ntok &&
		    is_word(tok[at], "facing", "orientation") &&
		    sscanf(tok[at + 1], "%d", &n) == 1 && n >= 0 && n <= 5) {
			json_object_set_new(m, "rot", json_integer(n));
			at += 2;
		} else if (verb == HEXX_V_EVENT && is_word(tok[at], "or",
		    "ou")) {
			json_object_set_new(m, "alt", json_true());
			at++;
		} else if ((verb == HEXX_V_EVENT || verb == HEXX_V_MOVE) &&
		    is_word(tok[at], "with", "avec") && at + 1 < ntok) {
			at++;
			if ((card = read_card(set, tok, ntok, &at)) < 0)
				goto bad;
			json_object_set_new(m, "with", card_id(set, card));
		} else
			goto bad;
	}
	if (verb == HEXX_V_SCHEMA && json_object_get(m, "at") == NULL) {
		json_decref(m);
		return refuse(RULES_SYNTAX, err, errlen, lang,
		    "Say where the schema goes: schema CARD at Q,R [facing N].",
		    "Dites où va le schéma : schema CARTE en Q,R "
		    "[orientation N].");
	}
	*move = m;
	return RULES_OK;
bad:
	json_decref(m);
	return syntax(at < ntok ? tok[at] : tok[ntok - 1], lang, err, errlen);
}

/* A keyword of a move text in lang: word itself when it is none (or a
 * verb past the first word, where it means something else). */
static const char *
keyword_in(const char *word, int first, enum rules_lang lang)
{
	static const char *const en[] = { "side", "schema", "move",
		"transmit", "refresh", "event", "end", "pass", "surprise", "at",
		"facing", "or", "with", "to", "blue", "discard", "nocollect",
		NULL };
	static const char *const fr[] = { "face", "schema", "déplacer",
		"transmettre", "actualiser", "événement", "fin", "passer",
		"surprise", "en", "orientation", "ou", "avec", "vers", "bleu",
		"défausser", "sans-collecte", NULL };
	int i;

	for (i = 0; en[i] != NULL; i++)
		if (strcmp(word, en[i]) == 0 && (first || i >= HEXX_VERBS))
			return lang == RULES_LANG_FR ? fr[i] : en[i];
	return word;
}

/*
 * A move text of legal_moves() written again in lang, word by word: its
 * keywords in lang's words; each word that is a card id -- a card of
 * the seat's hand, or one on the board, which the text names -- stays
 * (named 0: translate), or becomes the card's name in lang with the id
 * beside it (named 1: move_label), a list's comma staying after it.  A
 * word that is a card id is never taken for a keyword; coordinates stay.
 */
static enum rules_status
reword(const struct hexx *g, const char *text, enum rules_lang lang,
    int named, char *out, size_t outlen)
{
	const struct hexx_card *k;
	char buf[FOLD_MAX], *tok, *save = NULL;
	const char *word;
	size_t len = 0, n;
	int c, comma, first = 1;

	if (strlen(text) >= sizeof(buf))
		return RULES_SYNTAX;
	memcpy(buf, text, strlen(text) + 1);
	out[0] = '\0';
	for (tok = strtok_r(buf, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save), first = 0) {
		n = strlen(tok);
		comma = n > 1 && tok[n - 1] == ',';
		if (comma)
			tok[n - 1] = '\0';
		c = hexx_card_find(g->cards, tok);
		k = c >= 0 ? &g->cards->card[c] : NULL;
		if (comma && k == NULL)
			tok[n - 1] = ',';	/* not a card: the word as is */
		word = k != NULL || comma ? tok : keyword_in(tok, first, lang);
		if (k != NULL && named && len + strlen(k->name_en) +
		    strlen(k->name_fr) + strlen(tok) + 8 > outlen)
			return RULES_SYNTAX;
		if (len + strlen(word) + 2 > outlen)
			return RULES_SYNTAX;
		if (k != NULL && named)
			len += (size_t)snprintf(out + len, outlen - len,
			    "%s%s (%s)", first ? "" : " ", lang ==
			    RULES_LANG_FR ? k->name_fr : k->name_en, tok);
		else
			len += (size_t)snprintf(out + len, outlen - len,
			    "%s%s", first ? "" : " ", word);
		if (comma && k != NULL)
			len += (size_t)snprintf(out + len, outlen - len, ",");
	}
	return RULES_OK;
}

/* translate (api_version 2): a move text of legal_moves() with lang's
 * keywords (reword()). */
enum rules_status
hexx_translate(const void *state, int seat, const char *text,
    enum rules_lang lang, char *out, size_t outlen)
{
	(void)seat;
	return reword(state, text, lang, 0, out, outlen);
}

/* move_label (api_version 11): translate()'s text with each card the
 * text names by its name in lang and its id: "schema Base spatiale
 * (space-base) en 0,1" (reword()). */
enum rules_status
hexx_move_label(const void *state, int seat, const char *text,
    enum rules_lang lang, char *out, size_t outlen)
{
	(void)seat;
	return reword(state, text, lang, 1, out, outlen);
}

/* ---- check ---- */

/* The move's fields, read back into numbers. */
struct parsed {
	int	verb;
	int	card;
	int	with;
	int	side;
	int	alt, blue, nocollect;
	int	has_at, q, r, rot;
	int	has_to, tq, tr;
	int	npath;
	int	path[HEXX_PATH_MAX][2];
	int	ndiscards;
	int	discards[HEXX_CARDS_MAX];
	int	too_long;
};

static int
move_card(const struct hexx *g, const json_t *v)
{
	return json_is_string(v) ? hexx_card_find(g->cards,
	    json_string_value(v)) : -1;
}

static void
unpack(const struct hexx *g, const json_t *move, struct parsed *p)
{
	const char *verb = json_string_value(json_object_get(move, "verb"));
	const json_t *path = json_object_get(move, "path");
	const json_t *at = json_object_get(move, "at");
	const json_t *to = json_object_get(move, "to");
	const json_t *discards = json_object_get(move, "discards");
	size_t i;

	memset(p, 0, sizeof(*p));
	for (p->verb = 0; p->verb < HEXX_VERBS; p->verb++)
		if (verb != NULL && strcmp(verb, verb_en[p->verb]) == 0)
			break;
	p->card = move_card(g, json_object_get(move, "card"));
	p->with = move_card(g, json_object_get(move, "with"));
	p->side = (int)json_integer_value(json_object_get(move, "side"));
	p->alt = json_is_true(json_object_get(move, "alt"));
	p->blue = json_is_true(json_object_get(move, "blue"));
	p->nocollect = json_is_true(json_object_get(move, "nocollect"));
	p->rot = (int)json_integer_value(json_object_get(move, "rot"));
	if (json_array_size(at) == 2) {
		p->has_at = 1;
		p->q = (int)json_integer_value(json_array_get(at, 0));
		p->r = (int)json_integer_value(json_array_get(at, 1));
	}
	if (json_array_size(to) == 2) {
		p->has_to = 1;
		p->tq = (int)json_integer_value(json_array_get(to, 0));
		p->tr = (int)json_integer_value(json_array_get(to, 1));
	}
	if (json_array_size(path) > HEXX_PATH_MAX)
		p->too_long = 1;
	for (i = 0; i < json_array_size(path) && !p->too_long; i++) {
		p->path[i][0] = (int)json_integer_value(json_array_get(
		    json_array_get(path, i), 0));
		p->path[i][1] = (int)json_integer_value(json_array_get(
		    json_array_get(path, i), 1));
		p->npath++;
	}
	for (i = 0; i < json_array_size(discards) && i < HEXX_CARDS_MAX; i++)
		p->discards[p->ndiscards++] = move_card(g,
		    json_array_get(discards, i));
}

static enum rules_status
not_in_hand(const struct hexx *g, int card, enum rules_lang lang, char *err,
    size_t errlen)
{
	const struct hexx_card *c = &g->cards->card[card];

	snprintf(err, errlen, SAY(lang, "You do not hold %s.",
	    "Vous n'avez pas %s en main."), SAY(lang, c->name_en, c->name_fr));
	return RULES_ILLEGAL;
}

/* Can seat pay card's play cost now (the action itself already paid)? */
static enum rules_status
check_cost(const struct hexx *g, int seat, const struct parsed *p,
    int in_turn, enum rules_lang lang, char *err, size_t errlen)
{
	const struct hexx_card *c = &g->cards->card[p->card];
	const struct hexx_fxlist *list = &c->on[p->alt ? HEXX_ON_OR :
	    HEXX_ON_PLAY];
	int actions_after = g->actions - (g->event_actions > 0 ? 0 : 1);
	int t;

	if (p->alt && c->on[HEXX_ON_OR].n == 0)
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "This event has no OR choice.",
		    "Cet événement n'a pas de choix OU.");
	if (c->cost_data > g->seat[seat].base) {
		snprintf(err, errlen, SAY(lang, "Playing this costs %d data; "
		    "you have %d.", "Jouer ceci coûte %d Données ; vous en "
		    "avez %d."), c->cost_data, g->seat[seat].base);
		return RULES_ILLEGAL;
	}
	if (c->cost_actions > 0 && (!in_turn || actions_after <
	    c->cost_actions)) {
		snprintf(err, errlen, SAY(lang, "Playing this uses %d more "
		    "action(s) of your turn.", "Jouer ceci utilise %d "
		    "Action(s) de plus de votre tour."), c->cost_actions);
		return RULES_ILLEGAL;
	}
	if (c->cost_discard >= 0 || hexx_list_needs_with(list)) {
		if (p->with < 0)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "This event needs a second card: add \"with "
			    "CARD\".", "Cet événement demande une seconde "
			    "carte : ajoutez « avec CARTE ».");
		if (p->with == p->card || !hexx_hand_has(g, seat, p->with))
			return not_in_hand(g, p->with, lang, err, errlen);
		if (c->cost_discard >= 0 && c->cost_discard != HEXX_ANY &&
		    g->cards->card[p->with].kind != c->cost_discard) {
			snprintf(err, errlen, SAY(lang, "The card to discard "
			    "must be: %s.", "La carte à défausser doit être : "
			    "%s."), SAY(lang, hexx_kind_en[c->cost_discard],
			    hexx_kind_fr[c->cost_discard]));
			return RULES_ILLEGAL;
		}
	} else if (p->with >= 0)
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "This event takes no second card.",
		    "Cet événement ne prend pas de seconde carte.");
	if (hexx_list_has(list, HEXX_OP_SHIFT) != p->has_to)
		return refuse(RULES_ILLEGAL, err, errlen, lang, p->has_to ?
		    "This event moves no schema: \"to Q,R\" is not for it." :
		    "Say where the schema goes: add \"to Q,R\".", p->has_to ?
		    "Cet événement ne déplace pas de schéma : « vers Q,R » ne "
		    "le concerne pas." : "Dites où va le schéma : ajoutez "
		    "« vers Q,R ».");
	if (p->has_to) {
		if (!p->has_at)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "Say which schema: add \"at Q,R\".",
			    "Dites quel schéma : ajoutez « en Q,R ».");
		if (!hexx_shift_ok(g, hexx_tile_at(g, p->q, p->r), p->tq,
		    p->tr))
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "That schema cannot go there: not a starting card, "
			    "a free hex where it could be placed, and the board "
			    "stays in one piece.", "Ce schéma ne peut pas aller "
			    "là : pas une carte de départ, une case libre où il "
			    "pourrait être posé, et le plateau reste d'un seul "
			    "tenant.");
	} else if (hexx_list_has(list, HEXX_OP_REPLACE)) {
		if (!p->has_at)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "Say which schema: add \"at Q,R\".",
			    "Dites quel schéma : ajoutez « en Q,R ».");
		if (!hexx_replace_ok(g, hexx_tile_at(g, p->q, p->r), p->with))
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "That schema cannot be replaced by that card: not a "
			    "starting card, a schema from your hand, and it "
			    "could be placed there.", "Ce schéma ne peut pas "
			    "être remplacé par cette carte : pas une carte de "
			    "départ, un schéma de votre main, et il pourrait "
			    "être posé là.");
	} else if (hexx_list_needs_at(list)) {
		if (!p->has_at)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "Say which schema: add \"at Q,R\".",
			    "Dites quel schéma : ajoutez « en Q,R ».");
		t = hexx_tile_at(g, p->q, p->r);
		if (t < 0 || g->cards->card[g->tile[t].card].start ||
		    !hexx_connected_without(g, t))
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "That hex holds no schema that may leave the board "
			    "(not a starting card, and the board stays in one "
			    "piece).", "Cette case ne porte pas de schéma qui "
			    "puisse quitter le plateau (pas une carte de "
			    "départ, et le plateau reste d'un seul tenant).");
	} else if (p->has_at && hexx_tile_at(g, p->q, p->r) < 0)
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "There is no schema at that hex.",
		    "Il n'y a pas de schéma sur cette case.");
	return RULES_OK;
}

static enum rules_status
check_move(const struct hexx *g, int seat, const struct parsed *p,
    enum rules_lang lang, char *err, size_t errlen)
{
	const struct hexx_seat *s = &g->seat[seat];
	int fault, bad, t;

	if (s->no_move > 0)
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "Movement is forbidden to you this turn.",
		    "Le Déplacement vous est interdit ce tour-ci.");
	if (p->too_long)
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "A path has at most 6 hexes: the die shows at most 6.",
		    "Un chemin a au plus 6 cases : le dé montre au plus 6.");
	fault = hexx_path_check(g, seat, p->npath, p->path, &bad);
	if (fault != HEXX_PATH_OK) {
		static const char *const en[] = { "", "no hex given",
			"there is no schema there", "it is not next to the "
			"hex before it", "a border stops the way",
			"a planet ends a move: you cannot fly through it",
			"you may not land twice in a row on the same planet" };
		static const char *const fr[] = { "", "aucune case donnée",
			"il n'y a pas de schéma là", "elle n'est pas voisine "
			"de la case précédente", "une bordure barre le passage",
			"une planète termine le déplacement : on ne la traverse "
			"pas", "vous ne pouvez pas atterrir deux fois de suite "
			"sur la même planète" };

		snprintf(err, errlen, SAY(lang, "Step %d of the path (%d,%d): "
		    "%s.", "Étape %d du chemin (%d,%d) : %s."), bad + 1,
		    p->path[bad][0], p->path[bad][1], SAY(lang, en[fault],
		    fr[fault]));
		return RULES_ILLEGAL;
	}
	t = hexx_tile_at(g, p->path[p->npath - 1][0], p->path[p->npath - 1][1]);
	if (p->with >= 0) {
		const struct hexx_card *c = &g->cards->card[g->tile[t].card];

		if (!hexx_list_needs_with(&c->on[HEXX_ON_STOP]) &&
		    !(hexx_list_needs_with(&c->on[HEXX_ON_COLLECT]) &&
		    (p->blue || !c->collect_may)))
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "Only a schema that transmits on arrival takes "
			    "\"with CARD\" after a move.", "Seul un schéma qui "
			    "transmet à l'arrivée prend « avec CARTE » après un "
			    "déplacement.");
		if (!hexx_hand_has(g, seat, p->with))
			return not_in_hand(g, p->with, lang, err, errlen);
	}
	if (p->nocollect && (g->ruleset < HEXX_RULESET ||
	    g->cards->card[g->tile[t].card].kind != HEXX_PLANET))
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "\"nocollect\" lands on a planet without collecting; the "
		    "path does not end on a planet.",
		    "« sans-collecte » atterrit sur une planète sans collecter ; "
		    "le chemin ne finit pas sur une planète.");
	if (p->blue && (g->cards->card[g->tile[t].card].kind != HEXX_PLANET ||
	    !g->cards->card[g->tile[t].card].collect_may))
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "\"blue\" takes a planet's optional collect effect; the "
		    "path does not end on such a planet.",
		    "« bleu » prend l'option de Collecte d'une planète ; le "
		    "chemin ne finit pas sur une telle planète.");
	return RULES_OK;
}

static enum rules_status
check_transmit(const struct hexx *g, int seat, const struct parsed *p,
    enum rules_lang lang, char *err, size_t errlen)
{
	const struct hexx_seat *s = &g->seat[seat];
	const struct hexx_card *c = &g->cards->card[p->card];
	int t = hexx_tile_at(g, s->q, s->r);
	int cost = c->transmit_cost >= 0 ? c->transmit_cost :
	    HEXX_TRANSMIT_COST;

	if (s->no_transmit > 0)
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "Transmission is forbidden to you this turn.",
		    "La Transmission vous est interdite ce tour-ci.");
	if (g->cards->card[g->tile[t].card].kind != HEXX_VOID)
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "You transmit only from an Interstellar Void; your ship is "
		    "on a planet.", "On ne transmet que depuis un Vide "
		    "interstellaire ; votre vaisseau est sur une planète.");
	if (!hexx_hand_has(g, seat, p->card))
		return not_in_hand(g, p->card, lang, err, errlen);
	if (hexx_free_slot(g, seat, p->card, c->transmit_as) < 0 &&
	    hexx_free_slot(g, seat, p->card, -1) < 0) {
		snprintf(err, errlen, SAY(lang, "Your Mission has no free edge "
		    "for a card of type %s.", "Votre Mission n'a pas de bord "
		    "libre pour une carte de type %s."), SAY(lang,
		    hexx_kind_en[c->kind], hexx_kind_fr[c->kind]));
		return RULES_ILLEGAL;
	}
	if (s->base < cost) {
		snprintf(err, errlen, SAY(lang, "Transmitting costs %d data; "
		    "you have %d.", "Transmettre coûte %d Données ; vous en "
		    "avez %d."), cost, s->base);
		return RULES_ILLEGAL;
	}
	return RULES_OK;
}

/* May verb use one of the extra actions left? */
static int
extra_fits(const struct hexx *g, int verb)
{
	return (verb == HEXX_V_EVENT && g->event_actions > 0) ||
	    (verb == HEXX_V_MOVE && g->move_actions > 0) ||
	    (verb == HEXX_V_TRANSMIT && g->transmit_actions > 0);
}

/* The refusal of an action no extra action left may play. */
static enum rules_status
only_extra(const struct hexx *g, enum rules_lang lang, char *err,
    size_t errlen)
{
	const char *kinds[3];
	int n = 0, i;
	size_t len;

	if (g->event_actions > 0)
		kinds[n++] = SAY(lang, "Events", "Événements");
	if (g->move_actions > 0)
		kinds[n++] = SAY(lang, "Movements", "Déplacements");
	if (g->transmit_actions > 0)
		kinds[n++] = SAY(lang, "Transmissions", "Transmissions");
	len = (size_t)snprintf(err, errlen, "%s", SAY(lang,
	    "Your remaining actions may only play ",
	    "Vos Actions restantes ne peuvent jouer que des "));
	for (i = 0; i < n && len < errlen; i++)
		len += (size_t)snprintf(err + len, errlen - len, "%s%s",
		    i == 0 ? "" : SAY(lang, " or ", " ou "), kinds[i]);
	if (len < errlen)
		snprintf(err + len, errlen - len, ".");
	return RULES_ILLEGAL;
}

static enum rules_status
check_action(const struct hexx *g, int seat, const struct parsed *p,
    enum rules_lang lang, char *err, size_t errlen)
{
	const struct hexx_seat *s = &g->seat[seat];
	int i, j, need;

	if (p->verb == HEXX_V_END) {
		need = s->nhand > HEXX_HAND ? s->nhand - HEXX_HAND : 0;
		if (p->ndiscards != need) {
			snprintf(err, errlen, SAY(lang, "You hold %d cards: end "
			    "your turn discarding exactly %d (end discard CARD, "
			    "...).", "Vous avez %d cartes : finissez en en "
			    "défaussant exactement %d (fin defausser CARTE, "
			    "...)."), s->nhand, need);
			return RULES_ILLEGAL;
		}
		for (i = 0; i < p->ndiscards; i++) {
			if (p->discards[i] < 0)
				return refuse(RULES_ILLEGAL, err, errlen, lang,
				    "Unknown card.", "Carte inconnue.");
			if (!hexx_hand_has(g, seat, p->discards[i]))
				return not_in_hand(g, p->discards[i], lang,
				    err, errlen);
			for (j = 0; j < i; j++)
				if (p->discards[j] == p->discards[i])
					return refuse(RULES_ILLEGAL, err,
					    errlen, lang, "A card is named "
					    "twice.", "Une carte est nommée "
					    "deux fois.");
		}
		return RULES_OK;
	}
	if (p->verb == HEXX_V_SIDE || p->verb == HEXX_V_PASS ||
	    p->verb == HEXX_V_SURPRISE)
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "It is your turn: play an action (schema, move, transmit, "
		    "refresh, event) or end.", "C'est votre tour : jouez une "
		    "Action (schema, deplacer, transmettre, actualiser, "
		    "evenement) ou fin.");
	if (hexx_actions_left(g) == 0)
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "You have no action left: end your turn.",
		    "Il ne vous reste aucune Action : finissez votre tour.");
	if (g->actions == 0 && !extra_fits(g, p->verb))
		return only_extra(g, lang, err, errlen);
	if (p->verb == HEXX_V_MOVE)
		return check_move(g, seat, p, lang, err, errlen);
	if (p->card < 0)
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "Unknown card.", "Carte inconnue.");
	if (p->verb == HEXX_V_TRANSMIT)
		return check_transmit(g, seat, p, lang, err, errlen);
	if (!hexx_hand_has(g, seat, p->card))
		return not_in_hand(g, p->card, lang, err, errlen);
	if (p->verb == HEXX_V_REFRESH)
		return RULES_OK;
	if (p->verb == HEXX_V_SCHEMA) {
		const struct hexx_card *c = &g->cards->card[p->card];

		if (!hexx_is_schema(c))
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "That card is an Event, not a Schema: play it with "
			    "event.", "Cette carte est un Événement, pas un "
			    "Schéma : jouez-la avec evenement.");
		if (c->fixed && p->rot != 0)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "This schema's orientation is fixed: facing 0 only.",
			    "L'orientation de ce schéma est imposée : "
			    "orientation 0 seulement.");
		if (!hexx_place_ok(g, p->card, p->q, p->r, p->rot))
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    c->kind == HEXX_PLANET ? "A planet goes on a free "
			    "hex next to the board and touching no other "
			    "planet." : "A void goes on a free hex next to the "
			    "board.", c->kind == HEXX_PLANET ? "Une planète "
			    "va sur une case libre voisine du plateau et ne "
			    "touchant aucune autre planète." : "Un vide va sur "
			    "une case libre voisine du plateau.");
		return RULES_OK;
	}
	/* HEXX_V_EVENT */
	if (hexx_is_schema(&g->cards->card[p->card]))
		return refuse(RULES_ILLEGAL, err, errlen, lang,
		    "That card is a Schema: place it with schema.",
		    "Cette carte est un Schéma : posez-la avec schema.");
	return check_cost(g, seat, p, 1, lang, err, errlen);
}

enum rules_status
hexx_check(const void *state, int seat, const json_t *move,
    enum rules_lang lang, char *err, size_t errlen)
{
	const struct hexx *g = state;
	struct parsed p;
	int seats[HEXX_SEATS_MAX], n, i, mine = 0;

	if (g->phase == HEXX_PHASE_OVER)
		return refuse(RULES_GAME_OVER, err, errlen, lang,
		    "The game is over.", "La partie est finie.");
	n = hexx_to_act(g, seats, HEXX_SEATS_MAX);
	for (i = 0; i < n; i++)
		mine |= seats[i] == seat;
	if (!mine)
		return refuse(RULES_NOT_YOUR_TURN, err, errlen, lang,
		    "It is not your turn.", "Ce n'est pas votre tour.");
	unpack(g, move, &p);
	if (p.verb == HEXX_VERBS)
		return syntax("?", lang, err, errlen);
	if (g->phase == HEXX_PHASE_MISSION) {
		if (p.verb != HEXX_V_SIDE || p.side < 0 || p.side > 1)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "First choose the side of your Mission: side 1 or "
			    "side 2.", "Choisissez d'abord la face de votre "
			    "Mission : face 1 ou face 2.");
		return RULES_OK;
	}
	if (g->phase == HEXX_PHASE_BONUS) {
		if (p.verb == HEXX_V_PASS)
			return RULES_OK;
		if (p.verb != HEXX_V_EVENT)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "A Surprise gave you Event actions in another "
			    "player's turn: play them now with event CARD, or "
			    "pass.", "Une Surprise vous a donné des Actions "
			    "Événement pendant le tour d'un autre joueur : "
			    "jouez-les maintenant avec événement CARTE, ou "
			    "passer.");
		if (p.card < 0)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "Unknown card.", "Carte inconnue.");
		if (!hexx_hand_has(g, seat, p.card))
			return not_in_hand(g, p.card, lang, err, errlen);
		if (hexx_is_schema(&g->cards->card[p.card]))
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "That card is a Schema: only an Event may be "
			    "played now.", "Cette carte est un Schéma : seul "
			    "un Événement peut être joué maintenant.");
		return check_cost(g, seat, &p, 0, lang, err, errlen);
	}
	if (g->phase == HEXX_PHASE_WINDOW) {
		if (p.verb == HEXX_V_PASS)
			return RULES_OK;
		if (p.verb != HEXX_V_SURPRISE && g->pending.riposte)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "Surprises answer your action: riposte with "
			    "surprise CARD (it uses an action) or pass.",
			    "Des Surprises répondent à votre Action : ripostez "
			    "avec surprise CARTE (cela utilise une Action) ou "
			    "passer.");
		if (p.verb != HEXX_V_SURPRISE)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "An action was declared: answer with surprise CARD "
			    "or pass.", "Une Action a été déclarée : répondez "
			    "surprise CARTE ou passer.");
		if (p.card < 0 || !hexx_hand_has(g, seat, p.card))
			return p.card < 0 ? refuse(RULES_ILLEGAL, err, errlen,
			    lang, "Unknown card.", "Carte inconnue.") :
			    not_in_hand(g, p.card, lang, err, errlen);
		if (!g->cards->card[p.card].surprise)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "That card is not a Surprise.",
			    "Cette carte n'est pas une Surprise.");
		if (g->cards->card[p.card].cost_data > g->seat[seat].base)
			return refuse(RULES_ILLEGAL, err, errlen, lang,
			    "You cannot pay this Surprise's data cost.",
			    "Vous ne pouvez pas payer le coût en Données de "
			    "cette Surprise.");
		return RULES_OK;
	}
	return check_action(g, seat, &p, lang, err, errlen);
}

/* ---- apply ---- */

static void
engage(struct hexx *g, int seat, struct rules_rng *rng)
{
	int t = hexx_tile_at(g, g->seat[seat].q, g->seat[seat].r), none = -1;

	hexx_run(g, seat, &g->cards->card[g->tile[t].card].on[HEXX_ON_ENGAGE],
	    -1, &none, rng);
}

static void
finish_action(struct hexx *g, struct rules_rng *rng)
{
	hexx_check_win(g);
	if (g->phase == HEXX_PHASE_OVER)
		return;
	g->phase = HEXX_PHASE_ACTIONS;
	if (hexx_actions_left(g) == 0 &&
	    g->seat[g->current].nhand <= HEXX_HAND)
		hexx_end_turn(g, rng);
}

static void
resolve_move(struct hexx *g, struct rules_rng *rng)
{
	struct hexx_pending *p = &g->pending;
	struct hexx_seat *s = &g->seat[g->current];
	int roll, steps, i, here, next, in_dir = -1, out_dir, none = -1;

	roll = 1 + (int)rules_rng_below(rng, 6) + p->die_mod;
	roll = roll < 1 ? 1 : roll > 6 ? 6 : roll;
	g->last.roll = roll;
	steps = roll < p->npath ? roll : p->npath;
	here = hexx_tile_at(g, s->q, s->r);
	for (i = 0; i < steps && g->phase != HEXX_PHASE_OVER; i++) {
		next = hexx_tile_at(g, p->path[i][0], p->path[i][1]);
		if (next < 0 || !hexx_step_ok(g, here, next))
			break;	/* the board changed under the path */
		out_dir = hexx_direction(g->tile[here].q, g->tile[here].r,
		    g->tile[next].q, g->tile[next].r);
		/* Crossing: entered by one edge, left by another. */
		if (i > 0 && in_dir >= 0 && out_dir >= 0 && out_dir != in_dir)
			hexx_run(g, g->current,
			    &g->cards->card[g->tile[here].card].on[HEXX_ON_CROSS],
			    -1, &none, rng);
		in_dir = out_dir >= 0 ? (out_dir + 3) % 6 : -1;
		s->q = g->tile[next].q;
		s->r = g->tile[next].r;
		here = next;
		g->last.steps++;
	}
	if (g->last.steps > 0 && g->phase != HEXX_PHASE_OVER)
		hexx_land(g, g->current, here, p->blue, p->nocollect,
		    &g->pending.with, rng);
}

static void
resolve_transmit(struct hexx *g)
{
	struct hexx_pending *p = &g->pending;
	struct hexx_seat *s = &g->seat[g->current];
	const struct hexx_card *c = &g->cards->card[p->card];
	int cost = c->transmit_cost >= 0 ? c->transmit_cost :
	    HEXX_TRANSMIT_COST;
	int t = hexx_tile_at(g, s->q, s->r);
	int slot = hexx_free_slot(g, g->current, p->card, c->transmit_as);

	if (slot < 0)
		slot = hexx_free_slot(g, g->current, p->card, -1);
	if (g->cards->card[g->tile[t].card].kind != HEXX_VOID || slot < 0 ||
	    s->base < cost || s->no_transmit > 0) {
		s->hand[s->nhand++] = p->card;
		g->last.fizzled = 1;
		return;
	}
	s->base -= cost;
	g->supply += cost;
	s->slot[slot] = p->card;
}

static void
resolve_event(struct hexx *g, struct rules_rng *rng)
{
	struct hexx_pending *p = &g->pending;
	const struct hexx_card *c = &g->cards->card[p->card];
	int at = p->has_at ? hexx_tile_at(g, p->q, p->r) : -1;

	hexx_run(g, g->current, &c->on[p->alt ? HEXX_ON_OR : HEXX_ON_PLAY],
	    at, &p->with, rng);
	hexx_to_discard(g, p->card);
}

/* Does any Surprise answering now counter the others? */
static int
countered(const struct hexx *g)
{
	const struct hexx_fxlist *list;
	int s, i;

	for (s = 0; s < g->nseats; s++) {
		if (g->pending.surprise[s] < 0)
			continue;
		list = &g->cards->card[g->pending.surprise[s]].on[HEXX_ON_PLAY];
		for (i = 0; i < list->n; i++)
			if (list->fx[i].step.op == HEXX_OP_COUNTER)
				return s;
	}
	return -1;
}

/* Play seat's Surprise card now: pay its data (no effect if it cannot)
 * and run it, when effective; it goes to the discard pile. */
static void
play_surprise(struct hexx *g, int seat, int card, int effective,
    struct rules_rng *rng)
{
	int none = -1;

	if (hexx_hand_take(g, seat, card) != 0)
		return;
	if (effective && g->cards->card[card].cost_data <= g->seat[seat].base) {
		g->seat[seat].base -= g->cards->card[card].cost_data;
		g->supply += g->cards->card[card].cost_data;
		hexx_run(g, seat, &g->cards->card[card].on[HEXX_ON_PLAY], -1,
		    &none, rng);
	}
	hexx_to_discard(g, card);
	g->last.surprises++;
}

/*
 * The riposte of the seat playing (seed line 345): its Surprise answers
 * the others' Surprises and resolves first.  Its cancel or counter
 * effect stops those Surprises (not its own action); its other effects
 * run as written.  Returns whether the others' Surprises are stopped.
 */
static int
riposte(struct hexx *g, struct rules_rng *rng)
{
	struct hexx_pending *p = &g->pending;
	const struct hexx_fxlist *list;
	int card = p->riposte_card, cancelled = p->cancelled, stops;

	p->riposte_card = -1;
	if (card < 0)
		return 0;
	list = &g->cards->card[card].on[HEXX_ON_PLAY];
	stops = (hexx_list_has(list, HEXX_OP_CANCEL) ||
	    hexx_list_has(list, HEXX_OP_COUNTER)) &&
	    g->cards->card[card].cost_data <= g->seat[g->current].base;
	play_surprise(g, g->current, card, 1, rng);
	p->cancelled = cancelled;
	return stops;
}

/* Did another seat answer with a Surprise, and may the seat playing
 * still riposte (an action, or an Event action, left)? */
static int
riposte_open(const struct hexx *g)
{
	int s;

	if (g->actions + g->event_actions == 0)
		return 0;
	for (s = 0; s < g->nseats; s++)
		if (s != g->current && g->pending.surprise[s] >= 0)
			return 1;
	return 0;
}

static void resolve_pending(struct hexx *g, struct rules_rng *rng);

/* The last answer is in: a riposte, the Surprises, then the action. */
static void
close_window(struct hexx *g, struct rules_rng *rng)
{
	struct hexx_pending *p = &g->pending;
	int i, s, card, stopped, counter = countered(g);

	g->last.resolved = p->verb;
	g->last.card = p->card;
	g->last.surprises = 0;
	stopped = riposte(g, rng);
	p->riposte = 0;
	for (i = 1; i < g->nseats; i++) {
		s = (g->current + i) % g->nseats;
		card = p->surprise[s];
		p->surprise[s] = -1;
		if (card >= 0)
			play_surprise(g, s, card, !stopped && (counter < 0 ||
			    counter == s), rng);
	}
	if (g->phase == HEXX_PHASE_OVER)
		return;
	if (hexx_bonus_seat(g) >= 0) {
		/* A seat received Event actions: it plays them now, before
		 * the action answered resolves (seed line 343). */
		g->phase = HEXX_PHASE_BONUS;
		return;
	}
	resolve_pending(g, rng);
}

/* The window is closed and its Surprises played: the action declared
 * resolves (unless cancelled), then the turn goes on. */
static void
resolve_pending(struct hexx *g, struct rules_rng *rng)
{
	struct hexx_pending *p = &g->pending;
	int s;

	g->phase = HEXX_PHASE_ACTIONS;
	if (p->cancelled) {
		g->last.fizzled = 1;
		if (p->verb == HEXX_V_TRANSMIT)
			g->seat[g->current].hand[g->seat[g->current].nhand++] =
			    p->card;
		else if (p->card >= 0)
			hexx_to_discard(g, p->card);
	} else if (p->verb == HEXX_V_MOVE)
		resolve_move(g, rng);
	else if (p->verb == HEXX_V_TRANSMIT)
		resolve_transmit(g);
	else
		resolve_event(g, rng);
	/* A "with" card no effect used goes back to the hand. */
	if (p->with >= 0)
		g->seat[g->current].hand[g->seat[g->current].nhand++] = p->with;
	p->card = p->with = -1;
	p->npath = 0;
	p->has_at = p->has_to = p->alt = p->blue = p->nocollect = 0;
	p->die_mod = 0;
	p->cancelled = 0;
	for (s = 0; s < g->nseats; s++)
		p->answer[s] = 0;
	finish_action(g, rng);
}

/* The targets a move names (a tile, a destination) become the pending
 * action's. */
static void
pending_aim(struct hexx_pending *p, const struct parsed *mv)
{
	p->has_at = mv->has_at;
	p->q = mv->q;
	p->r = mv->r;
	p->has_to = mv->has_to;
	p->tq = mv->tq;
	p->tr = mv->tr;
}

/* An Event played "with" a second card from the hand: a card paid as its
 * cost goes to the discard, any other waits as the pending action's. */
static void
event_with(struct hexx *g, int seat, const struct hexx_card *c, int with)
{
	if (with < 0)
		return;
	hexx_hand_take(g, seat, with);
	if (c->cost_discard >= 0)
		hexx_to_discard(g, with);
	else
		g->pending.with = with;
}

/* Declare an action a Surprise may answer: pay, set aside, ask. */
static void
declare(struct hexx *g, int seat, const struct parsed *mv)
{
	struct hexx_pending *p = &g->pending;
	struct hexx_seat *s = &g->seat[seat];
	int i;

	p->verb = mv->verb;
	p->card = mv->verb == HEXX_V_MOVE ? -1 : mv->card;
	p->with = -1;
	p->alt = mv->alt;
	p->blue = mv->blue;
	p->nocollect = mv->nocollect;
	pending_aim(p, mv);
	p->npath = mv->npath;
	memcpy(p->path, mv->path, sizeof(p->path));
	p->die_mod = p->cancelled = p->riposte = 0;
	p->riposte_card = -1;
	if (p->card >= 0)
		hexx_hand_take(g, seat, p->card);
	if (mv->verb == HEXX_V_MOVE && mv->with >= 0) {
		hexx_hand_take(g, seat, mv->with);
		p->with = mv->with;
	}
	if (mv->verb == HEXX_V_EVENT) {
		const struct hexx_card *c = &g->cards->card[mv->card];

		s->base -= c->cost_data;
		g->supply += c->cost_data;
		g->actions -= c->cost_actions;
		event_with(g, seat, c, mv->with);
	}
	for (i = 0; i < g->nseats; i++) {
		p->answer[i] = i == seat;
		p->surprise[i] = -1;
	}
	g->phase = HEXX_PHASE_WINDOW;
}

/*
 * An Event action received in another's turn, played at once (ruleset
 * 2, seed lines 341-343): the event's costs are paid and its effects run
 * now, answered by no window; the action declared by the seat playing
 * waits, and resolves when every such Event action is played or passed.
 */
static void
play_bonus(struct hexx *g, int seat, const struct parsed *mv,
    struct rules_rng *rng)
{
	struct hexx_pending waiting = g->pending, *p = &g->pending;
	const struct hexx_card *c;

	if (mv->verb == HEXX_V_EVENT) {
		c = &g->cards->card[mv->card];
		g->last.card = mv->card;
		hexx_hand_take(g, seat, mv->card);
		g->seat[seat].base -= c->cost_data;
		g->supply += c->cost_data;
		p->with = -1;
		pending_aim(p, mv);
		event_with(g, seat, c, mv->with);
		g->bonus[seat]--;
		hexx_run(g, seat, &c->on[mv->alt ? HEXX_ON_OR : HEXX_ON_PLAY],
		    mv->has_at ? hexx_tile_at(g, mv->q, mv->r) : -1, &p->with,
		    rng);
		hexx_to_discard(g, mv->card);
		if (p->with >= 0)
			g->seat[seat].hand[g->seat[seat].nhand++] = p->with;
		*p = waiting;
	} else
		g->bonus[seat] = 0;
	if (g->phase == HEXX_PHASE_OVER)
		return;
	if (hexx_bonus_seat(g) < 0)
		resolve_pending(g, rng);
}

void
hexx_apply(void *state, int seat, const json_t *move, struct rules_rng *rng)
{
	struct hexx *g = state;
	struct parsed p;
	struct hexx_seat *s = &g->seat[seat];
	int i, s2, all = 1, t, none = -1;

	unpack(g, move, &p);
	memset(&g->last, 0, sizeof(g->last));
	g->last.seat = seat;
	g->last.verb = p.verb;
	g->last.card = g->last.shown = g->last.resolved = -1;
	if (g->phase == HEXX_PHASE_BONUS) {
		play_bonus(g, seat, &p, rng);
		return;
	}
	switch (p.verb) {
	case HEXX_V_SIDE:
		s->side = p.side;
		for (s2 = 0; s2 < g->nseats; s2++)
			all &= g->seat[s2].side >= 0;
		if (all)
			hexx_begin_play(g);
		return;
	case HEXX_V_PASS:
	case HEXX_V_SURPRISE:
		if (g->pending.riposte) {
			/* The seat playing ripostes, or not. */
			if (p.verb == HEXX_V_SURPRISE) {
				use_action(g, HEXX_V_SURPRISE);
				g->pending.riposte_card = p.card;
			}
			close_window(g, rng);
			return;
		}
		g->pending.answer[seat] = 1;
		g->pending.surprise[seat] = p.verb == HEXX_V_SURPRISE ?
		    p.card : -1;
		for (s2 = 0; s2 < g->nseats; s2++)
			all &= g->pending.answer[s2];
		if (all && riposte_open(g))
			g->pending.riposte = 1;	/* the Surprises show */
		else if (all)
			close_window(g, rng);
		return;
	case HEXX_V_END:
		for (i = 0; i < p.ndiscards; i++) {
			hexx_hand_take(g, seat, p.discards[i]);
			hexx_to_discard(g, p.discards[i]);
		}
		hexx_end_turn(g, rng);
		return;
	default:
		break;
	}
	/* An action: it uses one action, and engages the ship's schema. */
	use_action(g, p.verb);
	g->last.card = p.verb == HEXX_V_MOVE ? -1 : p.card;
	switch (p.verb) {
	case HEXX_V_SCHEMA:
		hexx_hand_take(g, seat, p.card);
		t = g->ntiles++;
		g->tile[t].card = p.card;
		g->tile[t].q = p.q;
		g->tile[t].r = p.r;
		g->tile[t].rot = p.rot;
		g->tile[t].data = g->cards->card[p.card].data < g->supply ?
		    g->cards->card[p.card].data : g->supply;
		g->supply -= g->tile[t].data;
		hexx_run(g, seat, &g->cards->card[p.card].on[HEXX_ON_ENTER], t,
		    &none, rng);
		engage(g, seat, rng);
		finish_action(g, rng);
		return;
	case HEXX_V_REFRESH:
		hexx_hand_take(g, seat, p.card);
		hexx_to_discard(g, p.card);
		hexx_draw(g, seat, 1, rng);
		engage(g, seat, rng);
		finish_action(g, rng);
		return;
	default:
		/* Costs are paid first, so an engage effect cannot make
		 * them unpayable. */
		declare(g, seat, &p);
		engage(g, seat, rng);
		if (g->phase == HEXX_PHASE_OVER)
			return;
		return;
	}
}
