/*
 * parse.c -- a turn's text becomes a list of steps.
 *
 * The text is split into steps at ';' and line ends, each step is folded
 * (rules_fold: lower case, no accents) and cut into words, and each step
 * is read by the grammar in docs/eve.md.  Parsing judges only the shape
 * of the text: whether a step is legal is turn.c's concern.  The parsed
 * move is {"steps": [{"op", "cards": [[kind, src]...], "args": [...]}]}.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eve.h"

#define MAXWORDS	48

static const char *const op_names[OP_NOPS] = {
	"fly", "joker", "starfleet", "discard", "reserve",
	"retreat-forward", "retreat-back", "nz-klingon", "nz-discard",
	"mirror-turn", "mirror-swap", "briefing-extend", "briefing-order",
	"extend", "trade", "fight"
};

const char *
eve_op_name(int op)
{
	return op_names[op];
}

struct words {
	char	 buf[512];
	const char *w[MAXWORDS];
	int	 n;
	int	 i;		/* next word to read */
};

static int
is_word(const struct words *ws, const char *const *list)
{
	int k;

	if (ws->i >= ws->n)
		return 0;
	for (k = 0; list[k] != NULL; k++)
		if (strcmp(ws->w[ws->i], list[k]) == 0)
			return 1;
	return 0;
}

static int
take_word(struct words *ws, const char *const *list)
{
	if (!is_word(ws, list))
		return 0;
	ws->i++;
	return 1;
}

static const char *const w_fly[] = { "fly", "voler", "vol", "vole",
	"move", "go", "avancer", NULL };
static const char *const w_joker[] = { "joker", NULL };
static const char *const w_fleet[] = { "starfleet", "promote",
	"promotion", "promouvoir", "promu", "sf", NULL };
static const char *const w_discard[] = { "discard", "defausser",
	"defausse", "jeter", NULL };
static const char *const w_reserve[] = { "reserve", "reserver",
	"stack", NULL };
static const char *const w_spock[] = { "spock", NULL };
static const char *const w_extend[] = { "extend", "allonger",
	"rallonger", "prolonger", NULL };
static const char *const w_trade[] = { "trade", "commercer", "troquer",
	"commerce", NULL };
static const char *const w_fight[] = { "fight", "attack", "combattre",
	"combat", "attaquer", NULL };
static const char *const w_pass[] = { "pass", "passer", "passe", "rien",
	"nothing", NULL };
static const char *const w_back[] = { "back", "backward", "backwards",
	"arriere", "reculer", "recule", NULL };
static const char *const w_fwd[] = { "forward", "forwards", "avant",
	"avancer", "avance", NULL };
static const char *const w_from[] = { "from", "de", "depuis", NULL };
static const char *const w_the[] = { "the", "la", "ma", "my", NULL };
static const char *const w_pile[] = { "reserve", "pile", NULL };
static const char *const w_klingon[] = { "klingon", "klingons", NULL };
static const char *const w_turn[] = { "turn", "flip", "rotate",
	"tourner", "retourner", NULL };
static const char *const w_swap[] = { "swap", "exchange", "echanger",
	"echange", "permuter", NULL };
static const char *const w_order[] = { "order", "reorder", "ordonner",
	"ranger", "reordonner", NULL };
static const char *const w_flip[] = { "flip", "flipped", "turned",
	"tourner", "tournee", "retourner", NULL };
static const char *const w_keep[] = { "keep", "kept", "garder",
	"gardee", "normal", NULL };
static const char *const w_for[] = { "for", "to", "into", "contre",
	"pour", "en", NULL };
static const char *const w_and[] = { "and", "et", "with", "avec",
	NULL };
static const char *const w_enterprise[] = { "enterprise", "e", NULL };
static const char *const w_excelsior[] = { "excelsior", "x", NULL };

/* "from reserve", "from the reserve", "de la reserve", "de la pile". */
static int
take_from_reserve(struct words *ws)
{
	int save = ws->i;

	if (take_word(ws, w_from)) {
		take_word(ws, w_the);
		if (take_word(ws, w_pile))
			return 1;
	}
	ws->i = save;
	return 0;
}

/* A card name, optionally followed by "from reserve". */
static int
take_card(struct words *ws, int *kind, int *src)
{
	int used;

	if (ws->i >= ws->n)
		return -1;
	*kind = eve_match_kind(ws->w + ws->i, ws->n - ws->i, &used);
	if (*kind < 0)
		return -1;
	ws->i += used;
	*src = take_from_reserve(ws) ? SRC_RESERVE : SRC_HAND;
	return 0;
}

static int
take_number(struct words *ws, int *v)
{
	char *end;
	long n;

	if (ws->i >= ws->n)
		return -1;
	n = strtol(ws->w[ws->i], &end, 10);
	if (*end != '\0' || end == ws->w[ws->i] || n < 1 || n > 99)
		return -1;
	*v = (int)n - 1;
	ws->i++;
	return 0;
}

/* Orientations for extensions: "flip"/"keep" words, at most max. */
static int
take_orients(struct words *ws, int *args, int max)
{
	int n = 0;

	while (n < max) {
		if (take_word(ws, w_flip))
			args[n++] = 1;
		else if (take_word(ws, w_keep))
			args[n++] = 0;
		else
			break;
	}
	return n;
}

#define FAIL(en, fr) do {						\
	eve_err(err, errlen, lang, "step %d (\"%s\"): " en,		\
	    "étape %d (« %s ») : " fr, sn, raw);			\
	return -1;							\
} while (0)

/* The same, with " Did you mean "hint"?" when hint is not NULL. */
#define FAIL_HINT(en, fr, hint) do {					\
	const char *h_ = (hint);					\
	size_t n_;							\
									\
	eve_err(err, errlen, lang, "step %d (\"%s\"): " en,		\
	    "étape %d (« %s ») : " fr, sn, raw);			\
	n_ = strlen(err);						\
	if (h_ != NULL && n_ < errlen)					\
		eve_err(err + n_, errlen - n_, lang,			\
		    " Did you mean \"%s\"?",				\
		    " Vouliez-vous dire « %s » ?", h_);		\
	return -1;							\
} while (0)

/* The words a step starts with, folded as parse reads them, and as a
 * refusal shows them. */
static const char *const step_words[] = {
	"fly", "voler", "joker", "starfleet", "promouvoir", "discard",
	"defausser", "reserve", "reserver", "spock", "extend", "allonger",
	"fight", "combattre", "trade", "commercer", "pass", "passer", NULL
};
static const char *const step_shown[] = {
	"fly", "voler", "joker", "starfleet", "promouvoir", "discard",
	"défausser", "reserve", "réserver", "spock", "extend", "allonger",
	"fight", "combattre", "trade", "commercer", "pass", "passer", NULL
};

/* A card kind near the word at ws->i, in lang, or NULL (every kind is
 * public; this never looks at a hand). */
static const char *
card_hint(const struct words *ws, enum rules_lang lang)
{
	int kind;

	if (ws->i >= ws->n ||
	    (kind = eve_nearest_kind(ws->w + ws->i, ws->n - ws->i)) < 0)
		return NULL;
	return eve_kind_name(kind, lang);
}

/* A step keyword near the word at ws->i, else a card kind near it. */
static const char *
step_hint(const struct words *ws, enum rules_lang lang)
{
	const char *near;
	int k;

	if (ws->i >= ws->n)
		return NULL;
	if ((near = rules_nearest(ws->w[ws->i], step_words)) != NULL) {
		for (k = 0; step_words[k] != near; k++)
			;
		return step_shown[k];
	}
	return card_hint(ws, lang);
}

/* Read the Spock action after a Spock card. */
static int
spock_action(struct words *ws, struct eve_step *st, int sn, const char *raw,
    enum rules_lang lang, char *err, size_t errlen)
{
	int v;

	switch (st->kind[0]) {
	case K_RETREAT:
		if (take_word(ws, w_fwd))
			st->op = OP_RETREAT_FWD;
		else if (take_word(ws, w_back))
			st->op = OP_RETREAT_BACK;
		else
			FAIL("Retreat needs \"forward\" (your ship) or \"back\" "
			    "(the opponent's ship)",
			    "Repli demande « avant » (votre vaisseau) ou "
			    "« arrière » (le vaisseau adverse)");
		return 0;
	case K_NEUTRAL:
		if (take_word(ws, w_klingon)) {
			st->op = OP_NZ_KLINGON;
			if (take_number(ws, &v) != 0)
				FAIL("write \"klingon <card number> "
				    "<enterprise|excelsior>\"",
				    "écrivez « klingon <numéro de carte> "
				    "<enterprise|excelsior> »");
			st->arg[0] = v;
			st->arg[1] = -1;	/* the opponent's route */
			if (take_word(ws, w_enterprise))
				st->arg[1] = 0;
			else if (take_word(ws, w_excelsior))
				st->arg[1] = 1;
			st->nargs = 2;
		} else if (take_word(ws, w_discard)) {
			st->op = OP_NZ_DISCARD;
			if (take_number(ws, &v) != 0)
				FAIL("write \"discard <card number>\"",
				    "écrivez « défausser <numéro de carte> »");
			st->arg[0] = v;
			st->nargs = 1;
		} else
			FAIL("Neutral Zone needs \"klingon <n> <route>\" or "
			    "\"discard <n>\"",
			    "Zone neutre demande « klingon <n> <itinéraire> » "
			    "ou « défausser <n> »");
		return 0;
	case K_MIRROR:
		if (take_word(ws, w_swap)) {
			st->op = OP_MIRROR_SWAP;
			if (take_number(ws, &st->arg[0]) != 0)
				FAIL("write \"swap <n> <m>\"",
				    "écrivez « échanger <n> <m> »");
			take_word(ws, w_and);
			if (take_number(ws, &st->arg[1]) != 0)
				FAIL("write \"swap <n> <m>\"",
				    "écrivez « échanger <n> <m> »");
			st->nargs = 2;
		} else if (take_word(ws, w_turn)) {
			st->op = OP_MIRROR_TURN;
			if (take_number(ws, &st->arg[0]) != 0)
				FAIL("write \"turn <card number>\"",
				    "écrivez « tourner <numéro de carte> »");
			st->nargs = 1;
		} else
			FAIL("Mirror Universe needs \"turn <n>\" or "
			    "\"swap <n> <m>\"",
			    "Univers miroir demande « tourner <n> » ou "
			    "« échanger <n> <m> »");
		return 0;
	case K_BRIEFING:
		if (take_word(ws, w_extend)) {
			st->op = OP_BRIEF_EXTEND;
			/* "extend" alone lays one card as it comes. */
			st->nargs = take_orients(ws, st->arg, 2);
			if (st->nargs == 0) {
				st->nargs = 1;
				st->arg[0] = 0;
			}
		} else if (take_word(ws, w_order)) {
			st->op = OP_BRIEF_ORDER;
			st->nargs = 0;
			while (ws->i < ws->n && st->nargs < EVE_DECK) {
				int used, k;

				k = eve_match_kind(ws->w + ws->i,
				    ws->n - ws->i, &used);
				if (k < 0)
					FAIL("after \"order\", list the reserve "
					    "pile's cards from the top",
					    "après « ordonner », listez les "
					    "cartes de la réserve depuis le "
					    "dessus");
				st->arg[st->nargs++] = k;
				ws->i += used;
			}
		} else
			FAIL("Briefing needs \"extend [flip|keep] "
			    "[flip|keep]\" or \"order <cards, top first>\"",
			    "Briefing demande « allonger [tourner|garder] "
			    "[tourner|garder] » ou « ordonner <cartes, "
			    "dessus d'abord> »");
		return 0;
	default:
		FAIL("a flight card has no Spock action",
		    "une carte de vol n'a pas d'action Spock");
	}
}

static int
parse_step(struct words *ws, struct eve_step *st, int sn, const char *raw,
    enum rules_lang lang, char *err, size_t errlen)
{
	memset(st, 0, sizeof(*st));
	if (take_word(ws, w_fly)) {
		st->op = OP_FLY;
		st->ncards = 1;
		if (take_card(ws, &st->kind[0], &st->src[0]) != 0)
			FAIL_HINT("name a flight card after \"fly\"",
			    "nommez une carte de vol après « voler »",
			    card_hint(ws, lang));
	} else if (take_word(ws, w_joker)) {
		st->op = OP_JOKER;
		st->ncards = 2;
		if (take_card(ws, &st->kind[0], &st->src[0]) != 0 ||
		    take_card(ws, &st->kind[1], &st->src[1]) != 0)
			FAIL_HINT("a joker is two identical flight cards: "
			    "\"joker "
			    "<card> [from reserve] <card> [from reserve]\"",
			    "un joker est deux cartes de vol identiques : "
			    "« joker <carte> [de la réserve] <carte> [de la "
			    "réserve] »", card_hint(ws, lang));
	} else if (is_word(ws, w_fleet) || is_word(ws, w_discard)) {
		st->op = is_word(ws, w_fleet) ? OP_STARFLEET : OP_DISCARD;
		ws->i++;
		st->ncards = 1;
		if (take_card(ws, &st->kind[0], &st->src[0]) != 0)
			FAIL_HINT("name a card after the verb",
			    "nommez une carte après le verbe",
			    card_hint(ws, lang));
	} else if (take_word(ws, w_reserve)) {
		st->op = OP_RESERVE;
		st->ncards = 1;
		if (take_card(ws, &st->kind[0], &st->src[0]) != 0)
			FAIL_HINT("name a card of your hand after "
			    "\"reserve\"", "nommez une carte de votre main "
			    "après « réserver »", card_hint(ws, lang));
		if (st->src[0] != SRC_HAND)
			FAIL("only hand cards go onto the reserve pile",
			    "seules les cartes de la main vont sur la réserve");
	} else if (take_word(ws, w_extend)) {
		st->op = OP_EXTEND;
		st->nargs = 1;
		if (take_orients(ws, st->arg, 1) == 0)
			st->arg[0] = 0;
	} else if (take_word(ws, w_fight)) {
		st->op = OP_FIGHT;
	} else if (take_word(ws, w_trade)) {
		st->op = OP_TRADE;
		st->nargs = 2;
		if (ws->i >= ws->n ||
		    (st->arg[0] = eve_match_track(ws->w[ws->i++])) < 0 ||
		    (st->arg[1] = (take_word(ws, w_for), ws->i < ws->n ?
		    eve_match_track(ws->w[ws->i++]) : -1)) < 0)
			FAIL("write \"trade <track> <track>\" (torpedoes, "
			    "dilithium, hull, shields)",
			    "écrivez « commercer <piste> <piste> » (torpilles, "
			    "dilithium, coque, boucliers)");
	} else {
		take_word(ws, w_spock);
		st->ncards = 1;
		if (take_card(ws, &st->kind[0], &st->src[0]) != 0 ||
		    st->kind[0] < EVE_NTYPES)
			FAIL_HINT("not understood; a step starts with fly, "
			    "joker, "
			    "starfleet, discard, reserve, spock, extend, "
			    "fight or trade",
			    "non compris ; une étape commence par voler, "
			    "joker, starfleet, défausser, réserver, spock, "
			    "allonger, combattre ou commercer",
			    step_hint(ws, lang));
		if (spock_action(ws, st, sn, raw, lang, err, errlen) != 0)
			return -1;
		if (take_from_reserve(ws))
			st->src[0] = SRC_RESERVE;
	}
	if (st->op == OP_FLY || st->op == OP_JOKER) {
		st->nargs = 1;
		st->arg[0] = 1;
		if (take_word(ws, w_back))
			st->arg[0] = -1;
		else
			take_word(ws, w_fwd);
	}
	if (ws->i < ws->n) {
		eve_err(err, errlen, lang, "step %d (\"%s\"): unexpected word "
		    "\"%s\"", "étape %d (« %s ») : mot inattendu « %s »", sn,
		    raw, ws->w[ws->i]);
		return -1;
	}
	return 0;
}

/* Cut a folded step into words (commas count as blanks).  strtok_r:
 * games run on several threads, and strtok keeps its place in a global. */
static void
split_words(struct words *ws, const char *folded)
{
	char *p, *save = NULL;

	snprintf(ws->buf, sizeof(ws->buf), "%s", folded);
	for (p = ws->buf; *p != '\0'; p++)
		if (*p == ',' || *p == '.' || *p == ':')
			*p = ' ';
	ws->n = ws->i = 0;
	for (p = strtok_r(ws->buf, " ", &save); p != NULL && ws->n < MAXWORDS;
	    p = strtok_r(NULL, " ", &save))
		ws->w[ws->n++] = p;
}

int
eve_parse_turn(const char *text, struct eve_step *steps, int *nsteps,
    enum rules_lang lang, char *err, size_t errlen)
{
	char piece[512], raw[512];
	struct words ws;
	const char *p = text, *q;
	int sn = 0, passed = 0;

	*nsteps = 0;
	while (*p != '\0') {
		size_t len = strcspn(p, ";\n");

		q = p + len;
		if (len >= sizeof(raw))
			len = sizeof(raw) - 1;
		memcpy(raw, p, len);
		raw[len] = '\0';
		p = *q != '\0' ? q + 1 : q;
		if (rules_fold(raw, piece, sizeof(piece)) != 0) {
			eve_err(err, errlen, lang, "a step is too long",
			    "une étape est trop longue");
			return -1;
		}
		split_words(&ws, piece);
		if (ws.n == 0)
			continue;
		sn++;
		if (take_word(&ws, w_pass) && ws.i == ws.n) {
			passed = 1;
			continue;
		}
		ws.i = 0;
		if (*nsteps >= EVE_MAXSTEPS) {
			eve_err(err, errlen, lang, "a turn has at most %d "
			    "steps", "un tour a au plus %d étapes",
			    EVE_MAXSTEPS);
			return -1;
		}
		if (parse_step(&ws, &steps[*nsteps], sn, raw, lang, err,
		    errlen) != 0)
			return -1;
		(*nsteps)++;
	}
	if (sn == 0 || (passed && *nsteps > 0)) {
		eve_err(err, errlen, lang, "write the steps of your turn "
		    "separated by ';', or \"pass\" alone",
		    "écrivez les étapes de votre tour séparées par « ; », "
		    "ou « passer » seul");
		return -1;
	}
	return 0;
}

json_t *
eve_steps_json(const struct eve_step *steps, int n)
{
	json_t *arr = json_array(), *cards, *args;
	int i, k;

	for (i = 0; i < n; i++) {
		cards = json_array();
		for (k = 0; k < steps[i].ncards; k++)
			json_array_append_new(cards, json_pack("[i,i]",
			    steps[i].kind[k], steps[i].src[k]));
		args = json_array();
		for (k = 0; k < steps[i].nargs; k++)
			json_array_append_new(args,
			    json_integer(steps[i].arg[k]));
		json_array_append_new(arr, json_pack("{s:s, s:o, s:o}", "op",
		    op_names[steps[i].op], "cards", cards, "args", args));
	}
	return json_pack("{s:o}", "steps", arr);
}

static int
small_int(const json_t *j, int lo, int hi, int *v)
{
	if (!json_is_integer(j) || json_integer_value(j) < lo ||
	    json_integer_value(j) > hi)
		return -1;
	*v = (int)json_integer_value(j);
	return 0;
}

/* The inverse of eve_steps_json(); -1 if the move is not of that shape. */
int
eve_steps_from_json(const json_t *move, struct eve_step *steps, int *n)
{
	const json_t *arr = json_object_get(move, "steps"), *s, *c, *a;
	size_t i, k;
	int op;

	if (!json_is_array(arr) || json_array_size(arr) > EVE_MAXSTEPS)
		return -1;
	*n = 0;
	json_array_foreach(arr, i, s) {
		struct eve_step *st = &steps[i];
		const char *name = json_string_value(json_object_get(s, "op"));

		memset(st, 0, sizeof(*st));
		if (name == NULL)
			return -1;
		for (op = 0; op < OP_NOPS; op++)
			if (strcmp(name, op_names[op]) == 0)
				break;
		if (op == OP_NOPS)
			return -1;
		st->op = op;
		c = json_object_get(s, "cards");
		a = json_object_get(s, "args");
		if (!json_is_array(c) || json_array_size(c) > 2 ||
		    !json_is_array(a) || json_array_size(a) > EVE_DECK)
			return -1;
		for (k = 0; k < json_array_size(c); k++) {
			const json_t *pair = json_array_get(c, k);

			if (!json_is_array(pair) || json_array_size(pair) != 2 ||
			    small_int(json_array_get(pair, 0), 0, K_NKINDS - 1,
			    &st->kind[k]) != 0 ||
			    small_int(json_array_get(pair, 1), 0, 1,
			    &st->src[k]) != 0)
				return -1;
		}
		st->ncards = (int)k;
		for (k = 0; k < json_array_size(a); k++)
			if (small_int(json_array_get(a, k), -1, 99,
			    &st->arg[k]) != 0)
				return -1;
		st->nargs = (int)k;
		(*n)++;
	}
	return 0;
}

/*
 * Steps back into text, in lang's keywords (docs/eve.md's table): the
 * words below are ones the lists above accept, so the text parses back
 * to the same steps.  Used by translate() for the examples in mail.
 */
static void
put(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t used = strlen(buf);

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static void
put_card(char *buf, size_t len, const struct eve_step *st, int k,
    enum rules_lang lang)
{
	int fr = lang == RULES_LANG_FR;

	put(buf, len, " %s", eve_kind_name(st->kind[k], lang));
	if (st->src[k] == SRC_RESERVE)
		put(buf, len, " %s", fr ? "de la réserve" : "from reserve");
}

/* The text of steps in lang; with hide, what the table saw instead of a
 * card the turn kept face down (docs/eve.md, "Hidden information").
 * -1 if it did not fit in len. */
static int
steps_text(const struct eve_step *steps, int n, enum rules_lang lang,
    int hide, char *buf, size_t len)
{
	const struct eve_step *st;
	int i, k, fr = lang == RULES_LANG_FR;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (n == 0)
		put(buf, len, "%s", fr ? "passer" : "pass");
	for (i = 0; i < n; i++) {
		st = &steps[i];
		if (i > 0)
			put(buf, len, "; ");
		switch (st->op) {
		case OP_FLY:
		case OP_JOKER:
			put(buf, len, "%s", st->op == OP_JOKER ? "joker" :
			    fr ? "voler" : "fly");
			for (k = 0; k < st->ncards; k++)
				put_card(buf, len, st, k, lang);
			if (st->nargs > 0 && st->arg[0] < 0)
				put(buf, len, " %s", fr ? "arrière" : "back");
			break;
		case OP_STARFLEET:
		case OP_DISCARD:
			put(buf, len, "%s", st->op == OP_STARFLEET ?
			    "starfleet" : fr ? "défausser" : "discard");
			put_card(buf, len, st, 0, lang);
			break;
		case OP_RESERVE:
			put(buf, len, "%s", fr ? "réserver" : "reserve");
			if (hide)
				put(buf, len, " %s", fr ? "une carte face "
				    "cachée" : "a card face down");
			else
				put_card(buf, len, st, 0, lang);
			break;
		case OP_EXTEND:
			put(buf, len, "%s", fr ? "allonger" : "extend");
			if (st->nargs > 0 && st->arg[0] == 1)
				put(buf, len, " %s", fr ? "tourner" : "flip");
			break;
		case OP_FIGHT:
			put(buf, len, "%s", fr ? "combattre" : "fight");
			break;
		case OP_TRADE:
			put(buf, len, "%s %s %s", fr ? "commercer" : "trade",
			    eve_track_name(st->arg[0], lang),
			    eve_track_name(st->arg[1], lang));
			break;
		default:	/* a Spock action */
			put(buf, len, "spock");
			put_card(buf, len, st, 0, lang);
			switch (st->op) {
			case OP_RETREAT_FWD:
				put(buf, len, " %s", fr ? "avant" : "forward");
				break;
			case OP_RETREAT_BACK:
				put(buf, len, " %s", fr ? "arrière" : "back");
				break;
			case OP_NZ_KLINGON:
				put(buf, len, " klingon %d", st->arg[0] + 1);
				if (st->arg[1] >= 0)
					put(buf, len, " %s",
					    eve_route_name(st->arg[1]));
				break;
			case OP_NZ_DISCARD:
				put(buf, len, " %s %d", fr ? "défausser" :
				    "discard", st->arg[0] + 1);
				break;
			case OP_MIRROR_TURN:
				put(buf, len, " %s %d", fr ? "tourner" : "turn",
				    st->arg[0] + 1);
				break;
			case OP_MIRROR_SWAP:
				put(buf, len, " %s %d %d", fr ? "échanger" :
				    "swap", st->arg[0] + 1, st->arg[1] + 1);
				break;
			case OP_BRIEF_EXTEND:
				put(buf, len, " %s", fr ? "allonger" :
				    "extend");
				for (k = 0; k < st->nargs; k++)
					put(buf, len, " %s", st->arg[k] ?
					    (fr ? "tourner" : "flip") :
					    (fr ? "garder" : "keep"));
				break;
			case OP_BRIEF_ORDER:
				put(buf, len, " %s", fr ? "ordonner" :
				    "order");
				if (hide) {
					put(buf, len, " %s", fr ? "la réserve "
					    "face cachée" : "the reserve face "
					    "down");
					break;
				}
				for (k = 0; k < st->nargs; k++)
					put(buf, len, "%s %s", k > 0 ? "," : "",
					    eve_kind_name(st->arg[k], lang));
				break;
			default:
				return -1;
			}
			break;
		}
	}
	return strlen(buf) + 1 >= len ? -1 : 0;
}

/* Text that parses back to the same steps: translate()'s examples. */
int
eve_steps_text(const struct eve_step *steps, int n, enum rules_lang lang,
    char *buf, size_t len)
{
	return steps_text(steps, n, lang, 0, buf, len);
}

/* The turn as the other seat saw it played: the card put on the reserve
 * and the reserve's new order stay hidden.  For the views, not parse(). */
int
eve_steps_public_text(const struct eve_step *steps, int n,
    enum rules_lang lang, char *buf, size_t len)
{
	return steps_text(steps, n, lang, 1, buf, len);
}
