/*
 * parse.c -- reading a move written by a person, in English or French.
 *
 * The text is cut into words (words.c).  A move is
 *
 *	[q] <take card | draw galaxy | draw missions> [, discard ref...]
 *	discard ref [, ref]			(second half of a turn)
 *
 * where words such as "then"/"puis" and "and"/"et" also separate, and a
 * ref is a card or a card the same move draws ("drawn", "drawn 1",
 * "drawn galaxy"; French "piochée", "piochée 1", "galaxie piochée").
 *
 * Cards named in a discard are looked for in the seat's own hand first,
 * a card to take in the discard area (words.c explains the matching).
 * Parse reads text only: whether the move is legal is turn.c's question.
 * It never looks at another seat's hand or at the decks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stmissions.h"

/*
 * The parser proper.
 */
struct parser {
	const struct stm_state	*st;	/* NULL when scoring a list */
	int			 seat;
	enum rules_lang		 lang;
	struct stm_tokens	 t;
	int			 p;
	struct stm_move		 mv;
	struct stm_msg		 msg;
	int			 suggested;	/* a "did you mean" given */
};

static const char *
tr(const struct parser *ps, const char *en, const char *fr)
{
	return stm_tr(ps->lang, en, fr);
}

static enum rules_status
syntax(struct parser *ps)
{
	stm_msg_add(&ps->msg, " %s", tr(ps,
	    "Moves: \"take <card>, discard <card>\"; \"draw galaxy, "
	    "discard <card or drawn>\"; \"draw missions, discard <two cards, "
	    "drawn 1, drawn 2>\"; a turn may also be sent in two parts "
	    "(\"draw galaxy\", then \"discard <card>\").",
	    "Coups : « prendre <carte>, défausser <carte> » ; « piocher "
	    "galaxie, défausser <carte ou piochée> » ; « piocher missions, "
	    "défausser <deux cartes, piochée 1, piochée 2> » ; un tour peut "
	    "aussi s'envoyer en deux fois (« piocher galaxie », puis "
	    "« défausser <carte> »)."));
	if (ps->st != NULL && (ps->st->phase == STM_PHASE_Q_DRAW))
		stm_msg_add(&ps->msg, " %s", tr(ps,
		    "At the end of the game: \"q take <card>, discard "
		    "<card>\".",
		    "En fin de partie : « q prendre <carte>, défausser "
		    "<carte> »."));
	return RULES_SYNTAX;
}

static void
skip_seps(struct parser *ps)
{
	while (ps->p < ps->t.n && stm_is_sep(ps->t.tok[ps->p]))
		ps->p++;
}

static const char *
cur(const struct parser *ps)
{
	return ps->p < ps->t.n ? ps->t.tok[ps->p] : "";
}

/* " Did you mean "word"?" after a word not understood, when a keyword
 * is near it (at most one suggestion per message). */
static void
did_you_mean(struct parser *ps, const char *word)
{
	if (word == NULL || ps->suggested)
		return;
	ps->suggested = 1;
	stm_msg_add(&ps->msg, tr(ps, " Did you mean \"%s\"?",
	    " Vouliez-vous dire « %s » ?"), word);
}

static enum rules_status
unknown_card(struct parser *ps, const struct stm_lookup *lk)
{
	int	i;

	if (lk->ncand == 0) {
		stm_msg_add(&ps->msg, tr(ps, "No card is called \"%s\".",
		    "Aucune carte ne s'appelle « %s »."), lk->query);
		/* Every card name is public: the nearest among all 74. */
		if ((i = stm_nearest_card(lk->query)) >= 0) {
			stm_msg_add(&ps->msg, "%s", tr(ps, " Did you mean ",
			    " Vouliez-vous dire "));
			stm_msg_card(&ps->msg, i, ps->lang);
			stm_msg_add(&ps->msg, "%s", tr(ps, "?", " ?"));
		}
		return syntax(ps);
	}
	stm_msg_add(&ps->msg, tr(ps, "\"%s\" could be ", "« %s » peut "
	    "désigner "), lk->query);
	for (i = 0; i < lk->ncand && i < 8; i++) {
		if (i > 0)
			stm_msg_add(&ps->msg, ", ");
		stm_msg_card(&ps->msg, lk->cand[i], ps->lang);
	}
	if (lk->ncand > 8)
		stm_msg_add(&ps->msg, ", ...");
	stm_msg_add(&ps->msg, "%s", tr(ps, ": give more of the name or the id.",
	    " : précisez le nom ou donnez l'identifiant."));
	return RULES_SYNTAX;
}

/* The piles a card named in this move is looked for in. */
static struct stm_context
context_for(const struct parser *ps, int for_take)
{
	struct stm_context	ctx = { { NULL, NULL } };
	const struct stm_state *st = ps->st;

	if (st == NULL)
		return ctx;
	if (for_take || ps->mv.action == STM_ACT_Q)
		ctx.pile[0] = &st->discard;
	if (!for_take && ps->seat >= 0 && ps->seat < st->nseats)
		ctx.pile[1] = &st->hand[ps->seat];
	return ctx;
}

/* The action a following "drawn" refers to. */
static int
drawn_action(const struct parser *ps)
{
	if (ps->mv.action == STM_ACT_DISCARD && ps->st != NULL &&
	    stm_mid_turn(ps->st))
		return ps->st->pending.action;
	return ps->mv.action;
}

static int
already_named(const struct stm_move *mv, int ref)
{
	int	i;

	for (i = 0; i < mv->ndiscard; i++)
		if (mv->discard[i] == ref)
			return 1;
	return 0;
}

/* What a phrase about drawn cards says. */
struct drawn_phrase {
	int	num;		/* 1 or 2 if numbered, else 0 */
	int	deck;		/* 'G' or 'M' if a deck is named, else 0 */
	int	both;		/* "both", "the two", "les deux" */
};

/* Is [p, end) a phrase about drawn cards: "drawn", "the drawn card 2",
 * "galaxie piochée", "both drawn"? */
static int
read_drawn_phrase(const struct parser *ps, int end, struct drawn_phrase *dp)
{
	const char	*w;
	int		 i, drawn = 0;

	memset(dp, 0, sizeof(*dp));
	for (i = ps->p; i < end; i++) {
		w = ps->t.tok[i];
		if (stm_word_is(w, STM_W_DRAWN))
			drawn = 1;
		else if (strcmp(w, "1") == 0 || strcmp(w, "first") == 0)
			dp->num = 1;
		else if (strcmp(w, "2") == 0 || strcmp(w, "second") == 0 ||
		    strcmp(w, "deuxieme") == 0 || strcmp(w, "seconde") == 0)
			dp->num = 2;
		else if (strcmp(w, "both") == 0 || strcmp(w, "two") == 0 ||
		    strcmp(w, "deux") == 0)
			dp->both = 1;
		else if (stm_word_is(w, STM_W_GALAXY))
			dp->deck = 'G';
		else if (stm_word_is(w, STM_W_MISSION))
			dp->deck = 'M';
		else if (!stm_word_is(w, STM_W_FILLER))
			return 0;
	}
	return drawn;
}

/*
 * The references a drawn phrase stands for in this move, written to refs;
 * returns how many (1 or 2), or -1 with the message written.
 */
static int
drawn_refs(struct parser *ps, const struct drawn_phrase *dp, int *refs)
{
	int	action = drawn_action(ps), num = dp->num;

	if (action == STM_ACT_MISSIONS) {
		if (dp->both) {
			refs[0] = STM_REF_DRAWN1;
			refs[1] = STM_REF_DRAWN2;
			return 2;
		}
		if (num == 0)
			num = already_named(&ps->mv, STM_REF_DRAWN1) ? 2 : 1;
		refs[0] = num == 1 ? STM_REF_DRAWN1 : STM_REF_DRAWN2;
		return 1;
	}
	if (action == STM_ACT_Q) {
		if (dp->deck == 0 || dp->both) {
			stm_msg_add(&ps->msg, "%s", tr(ps,
			    "Meddlesome Q draws one Galaxy and one Mission "
			    "card: say \"drawn galaxy\" or \"drawn mission\".",
			    "Q l'importun pioche une carte Galaxie et une "
			    "carte Mission : dites « galaxie piochée » ou "
			    "« mission piochée »."));
			return -1;
		}
		refs[0] = dp->deck == 'G' ? STM_REF_DRAWN_GALAXY :
		    STM_REF_DRAWN_MISSION;
		return 1;
	}
	if (num == 2 || dp->both) {
		stm_msg_add(&ps->msg, "%s", tr(ps,
		    "Only one card is drawn from the Galaxy deck.",
		    "Une seule carte est piochée dans la pioche Galaxie."));
		return -1;
	}
	refs[0] = STM_REF_DRAWN;
	return 1;
}

/* Add a discard reference to the move. */
static enum rules_status
add_discard(struct parser *ps, int ref)
{
	if (ps->mv.ndiscard == STM_MAX_DISCARDS) {
		stm_msg_add(&ps->msg, "%s", tr(ps,
		    "A move discards at most two cards.",
		    "Un coup défausse au plus deux cartes."));
		return syntax(ps);
	}
	ps->mv.discard[ps->mv.ndiscard++] = ref;
	ps->mv.has_discards = 1;
	return RULES_OK;
}

/* One card reference in a discard list (or two: "both drawn"). */
static enum rules_status
parse_ref(struct parser *ps)
{
	struct drawn_phrase	dp;
	struct stm_context	ctx;
	struct stm_lookup	lk;
	enum rules_status	rc = RULES_OK;
	int			end, next, refs[2], n, i;

	end = stm_ref_end(&ps->t, ps->p);
	if (end == ps->p) {
		stm_msg_add(&ps->msg, "%s", tr(ps, "Discard what? Name a card.",
		    "Défausser quoi ? Nommez une carte."));
		return syntax(ps);
	}
	if (read_drawn_phrase(ps, end, &dp)) {
		if ((n = drawn_refs(ps, &dp, refs)) == -1)
			return syntax(ps);
		ps->p = end;
		for (i = 0; i < n && rc == RULES_OK; i++)
			rc = add_discard(ps, refs[i]);
		return rc;
	}
	ctx = context_for(ps, 0);
	stm_find_card(&ps->t, ps->p, &ctx, &lk, &next);
	if (lk.card < 0)
		return unknown_card(ps, &lk);
	ps->p = next;
	return add_discard(ps, lk.card);
}

/* discard ref [sep [discard] ref]... to the end of the text. */
static enum rules_status
parse_discards(struct parser *ps)
{
	enum rules_status	rc;

	for (;;) {
		if ((rc = parse_ref(ps)) != RULES_OK)
			return rc;
		skip_seps(ps);
		if (ps->p >= ps->t.n)
			return RULES_OK;
		switch (stm_verb_of(cur(ps))) {
		case STM_VERB_DISCARD:
			ps->p++;
			break;
		case STM_VERB_NONE:
			break;
		default:
			stm_msg_add(&ps->msg, tr(ps, "\"%s\" must come first, "
			    "before the discards.", "« %s » doit venir en "
			    "premier, avant les défausses."), cur(ps));
			return syntax(ps);
		}
	}
}

/* After "draw" (or "take" followed by a deck): galaxy or missions. */
static enum rules_status
parse_deck(struct parser *ps)
{
	int	deck = 0;

	while (ps->p < ps->t.n && !stm_boundary_at(&ps->t, ps->p)) {
		if (stm_word_is(cur(ps), STM_W_GALAXY) && deck == 0)
			deck = 'G';
		else if (stm_word_is(cur(ps), STM_W_MISSION) && deck == 0)
			deck = 'M';
		else if (!stm_word_is(cur(ps), STM_W_FILLER)) {
			stm_msg_add(&ps->msg, tr(ps, "I did not understand "
			    "\"%s\" after draw.", "Je n'ai pas compris « %s » "
			    "après piocher."), cur(ps));
			did_you_mean(ps, stm_nearest_word(cur(ps),
			    STM_W_GALAXY));
			did_you_mean(ps, stm_nearest_word(cur(ps),
			    STM_W_MISSION));
			return syntax(ps);
		}
		ps->p++;
	}
	if (deck == 0 && ps->mv.action != STM_ACT_Q) {
		stm_msg_add(&ps->msg, "%s", tr(ps, "Draw from which deck? Say "
		    "\"draw galaxy\" or \"draw missions\".", "Piocher dans "
		    "quelle pioche ? Dites « piocher galaxie » ou « piocher "
		    "missions »."));
		return syntax(ps);
	}
	if (ps->mv.action != STM_ACT_Q)
		ps->mv.action = deck == 'G' ? STM_ACT_GALAXY : STM_ACT_MISSIONS;
	return RULES_OK;
}

/* Is the next word, past fillers, the name of a deck? */
static int
deck_follows(const struct parser *ps)
{
	int	p;

	for (p = ps->p; p < ps->t.n && stm_word_is(ps->t.tok[p],
	    STM_W_FILLER); p++)
		;
	return p < ps->t.n && (stm_word_is(ps->t.tok[p], STM_W_GALAXY) ||
	    stm_word_is(ps->t.tok[p], STM_W_MISSION));
}

static enum rules_status
parse_take(struct parser *ps)
{
	struct stm_context	ctx;
	struct stm_lookup	lk;
	int			next;

	if (deck_follows(ps))		/* "prendre la pioche galaxie" */
		return parse_deck(ps);
	if (stm_boundary_at(&ps->t, ps->p)) {
		stm_msg_add(&ps->msg, "%s", tr(ps, "Take what? Name a card "
		    "from the discard area.", "Prendre quoi ? Nommez une carte "
		    "de la défausse."));
		return syntax(ps);
	}
	ctx = context_for(ps, 1);
	stm_find_card(&ps->t, ps->p, &ctx, &lk, &next);
	if (lk.card < 0)
		return unknown_card(ps, &lk);
	ps->mv.card = lk.card;
	ps->p = next;
	return RULES_OK;
}

/* The first clause: what the move takes or draws. */
static enum rules_status
parse_action(struct parser *ps)
{
	enum stm_verb	v;
	int		q = 0;

	if (strcmp(cur(ps), "q") == 0) {
		q = 1;
		ps->p++;
		skip_seps(ps);
	}
	v = stm_verb_of(cur(ps));
	if (v == STM_VERB_NONE || (q && v == STM_VERB_DISCARD)) {
		if (ps->p >= ps->t.n)
			stm_msg_add(&ps->msg, "%s", tr(ps, "The move is empty.",
			    "Le coup est vide."));
		else
		{
			stm_msg_add(&ps->msg, tr(ps, "I did not understand "
			    "\"%s\": a move starts with take, draw or discard.",
			    "Je n'ai pas compris « %s » : un coup commence par "
			    "prendre, piocher ou défausser."), cur(ps));
			did_you_mean(ps, stm_nearest_verb(cur(ps)));
		}
		return syntax(ps);
	}
	ps->p++;
	if (v == STM_VERB_DISCARD) {
		ps->mv.action = STM_ACT_DISCARD;
		return parse_discards(ps);
	}
	/* At the end of the game, Meddlesome Q's holder takes: the final
	 * draw, whether or not the "q" was written. */
	if (q || (v == STM_VERB_TAKE && ps->st != NULL &&
	    ps->st->phase == STM_PHASE_Q_DRAW))
		ps->mv.action = STM_ACT_Q;
	else
		ps->mv.action = v == STM_VERB_TAKE ? STM_ACT_TAKE
		    : STM_ACT_GALAXY;
	if (v == STM_VERB_TAKE)
		return parse_take(ps);
	return parse_deck(ps);
}

static json_t *
move_json(const struct stm_move *mv)
{
	json_t	*o, *d;
	int	 i;

	o = json_object();
	json_object_set_new(o, "action",
	    json_string(stm_action_name(mv->action)));
	if (mv->card >= 0)
		json_object_set_new(o, "card",
		    json_string(stm_cards[mv->card].id));
	if (mv->has_discards) {
		d = json_array();
		for (i = 0; i < mv->ndiscard; i++)
			json_array_append_new(d, json_string(mv->discard[i] >=
			    0 ?
			    stm_cards[mv->discard[i]].id :
			    stm_ref_text(mv->discard[i])));
		json_object_set_new(o, "discard", d);
	}
	return o;
}

enum rules_status
stm_parse(const void *state, int seat, const char *text,
    enum rules_lang lang, json_t **move, char *err, size_t errlen)
{
	struct parser		 parser;
	struct parser		*ps = &parser;
	enum rules_status	 rc;

	/* On the stack (3.5 KB): a heap block that large, asked for on
	 * every move, makes glibc's malloc gather all its small free
	 * blocks first (docs/PERFORMANCE.md, "Issue 20, stop 30"). */
	*move = NULL;
	memset(ps, 0, sizeof(*ps));
	ps->st = state;
	ps->seat = seat;
	ps->lang = lang;
	ps->mv.card = -1;
	stm_msg_init(&ps->msg, err, errlen);
	if (stm_tokenize(text, &ps->t) == -1) {
		stm_msg_add(&ps->msg, "%s", tr(ps, "The move is too long.",
		    "Le coup est trop long."));
		rc = syntax(ps);
		goto done;
	}
	skip_seps(ps);
	if ((rc = parse_action(ps)) != RULES_OK)
		goto done;
	skip_seps(ps);
	if (ps->mv.action != STM_ACT_DISCARD && ps->p < ps->t.n) {
		if (stm_verb_of(cur(ps)) != STM_VERB_DISCARD) {
			stm_msg_add(&ps->msg, tr(ps, "I did not understand "
			    "\"%s\": after taking or drawing comes "
			    "\"discard\".",
			    "Je n'ai pas compris « %s » : après la prise ou la "
			    "pioche vient « défausser »."), cur(ps));
			rc = syntax(ps);
			goto done;
		}
		ps->p++;
		if ((rc = parse_discards(ps)) != RULES_OK)
			goto done;
	}
	*move = move_json(&ps->mv);
done:
	return rc;
}

/*
 * Card references in move JSON: a card id or one of these words.
 */
static const struct {
	int		 ref;
	const char	*text;
} ref_texts[] = {
	{ STM_REF_DRAWN, "drawn" },
	{ STM_REF_DRAWN1, "drawn1" },
	{ STM_REF_DRAWN2, "drawn2" },
	{ STM_REF_DRAWN_GALAXY, "drawn-galaxy" },
	{ STM_REF_DRAWN_MISSION, "drawn-mission" }
};

const char *
stm_ref_text(int ref)
{
	size_t	i;

	for (i = 0; i < sizeof(ref_texts) / sizeof(ref_texts[0]); i++)
		if (ref_texts[i].ref == ref)
			return ref_texts[i].text;
	return "?";
}

/* A card id ("G12") or a ref word; -100 if neither. */
int
stm_ref_from_text(const char *s)
{
	size_t	i;
	int	c;

	if ((c = stm_card_from_id(s)) >= 0)
		return c;
	for (i = 0; i < sizeof(ref_texts) / sizeof(ref_texts[0]); i++)
		if (strcmp(ref_texts[i].text, s) == 0)
			return ref_texts[i].ref;
	return -100;
}

