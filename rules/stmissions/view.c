/*
 * view.c -- what each viewer sees, the legal moves, and the move forms
 * shown to people.
 *
 * What is public: the discard area, the sizes of the decks and of each
 * hand, whose turn it is, the last move as the table saw it (a card taken
 * from the discard area is seen by all; a drawn card is not), and, once
 * the game is over, every hand and the scores.  A seat also sees its own
 * hand, including cards it has just drawn.  Nothing else: no other hand,
 * no deck order, not even how many Missions another seat holds.  The full
 * view (RULES_VIEW_FULL) adds every hand and both deck orders.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stmissions.h"

/*
 * Cards as JSON.
 */
typedef const char *(*attr_name_fn)(int, int);

/* The names of the bits set in mask, in one language. */
static json_t *
attr_names(unsigned mask, int nbits, attr_name_fn name, int lang)
{
	json_t	*a;
	int	 bit;

	a = json_array();
	for (bit = 0; bit < nbits; bit++)
		if (mask & (1u << bit))
			json_array_append_new(a, json_string(name(bit, lang)));
	return a;
}

static void
set_attr(json_t *o, const char *key, unsigned mask, int nbits,
    attr_name_fn name)
{
	char	k[32];

	snprintf(k, sizeof(k), "%s_en", key);
	json_object_set_new(o, k, attr_names(mask, nbits, name, RULES_LANG_EN));
	snprintf(k, sizeof(k), "%s_fr", key);
	json_object_set_new(o, k, attr_names(mask, nbits, name, RULES_LANG_FR));
}

/* Append the names of the bits set in mask to buf, each after " · ". */
static void
traits_add(char *buf, size_t len, unsigned mask, int nbits,
    attr_name_fn name, int lang)
{
	size_t	used;
	int	bit;

	for (bit = 0; bit < nbits; bit++) {
		if (!(mask & (1u << bit)))
			continue;
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s",
		    used > 0 ? " \xc2\xb7 " : "", name(bit, lang));
	}
}

/* The card's types, specialties, lifeforms and affiliation on one line:
 * "Personnel · Security · Klingon · Federation" -- public, as the card is. */
static json_t *
traits_json(const struct stm_card *c, int lang)
{
	char	buf[256] = "";
	size_t	used;

	traits_add(buf, sizeof(buf), c->types, STM_NTYPES, stm_type_name,
	    lang);
	traits_add(buf, sizeof(buf), c->specialties, STM_NSPECIALTIES,
	    stm_specialty_name, lang);
	traits_add(buf, sizeof(buf), c->lifeforms, STM_NLIFEFORMS,
	    stm_lifeform_name, lang);
	if (c->affiliation != STM_A_NONE) {
		used = strlen(buf);
		snprintf(buf + used, sizeof(buf) - used, "%s%s",
		    used > 0 ? " \xc2\xb7 " : "",
		    stm_affiliation_name(c->affiliation, lang));
	}
	return json_string(buf);
}

/*
 * A card: {"id", "name_en", "name_fr", "mission", "traits_en",
 * "traits_fr"}; with full set, also its
 * types, specialties, lifeforms and affiliation (names in both languages)
 * and its bonus text -- enough to render a hand.
 */
json_t *
stm_view_card(int card, int full)
{
	const struct stm_card	*c = &stm_cards[card];
	json_t			*o;

	o = json_object();
	json_object_set_new(o, "id", json_string(c->id));
	json_object_set_new(o, "name_en", json_string(c->name_en));
	json_object_set_new(o, "name_fr", json_string(c->name_fr));
	json_object_set_new(o, "mission", json_boolean(STM_IS_MISSION(card)));
	json_object_set_new(o, "traits_en", traits_json(c, RULES_LANG_EN));
	json_object_set_new(o, "traits_fr", traits_json(c, RULES_LANG_FR));
	if (!full)
		return o;
	set_attr(o, "types", c->types, STM_NTYPES, stm_type_name);
	set_attr(o, "specialties", c->specialties, STM_NSPECIALTIES,
	    stm_specialty_name);
	set_attr(o, "lifeforms", c->lifeforms, STM_NLIFEFORMS,
	    stm_lifeform_name);
	json_object_set_new(o, "affiliation_en", c->affiliation == STM_A_NONE ?
	    json_null() : json_string(stm_affiliation_name(c->affiliation,
	    RULES_LANG_EN)));
	json_object_set_new(o, "affiliation_fr", c->affiliation == STM_A_NONE ?
	    json_null() : json_string(stm_affiliation_name(c->affiliation,
	    RULES_LANG_FR)));
	json_object_set_new(o, "bonus_en", json_string(c->bonus_en));
	json_object_set_new(o, "bonus_fr", json_string(c->bonus_fr));
	return o;
}

static json_t *
pile_json(const struct stm_pile *p, int full)
{
	json_t	*a;
	int	 i;

	a = json_array();
	for (i = 0; i < p->n; i++)
		json_array_append_new(a, stm_view_card(p->cards[i], full));
	return a;
}

/*
 * The view.
 */
static int
pending_seat(const struct stm_state *st)
{
	return stm_mid_turn(st) ? stm_acting_seat(st) : -1;
}

/* The half-played turn: public except the drawn cards, which only the
 * seat that drew them (and the full view) sees. */
static json_t *
pending_json(const struct stm_state *st, int viewer)
{
	const struct stm_pending	*p = &st->pending;
	json_t				*o, *drawn;
	int				 seat, i;

	if ((seat = pending_seat(st)) < 0)
		return json_null();
	o = json_object();
	json_object_set_new(o, "seat", json_integer(seat));
	json_object_set_new(o, "action",
	    json_string(stm_action_name(p->action)));
	json_object_set_new(o, "taken", p->taken < 0 ? json_null() :
	    stm_view_card(p->taken, 0));
	json_object_set_new(o, "ndrawn", json_integer(p->ndrawn));
	json_object_set_new(o, "owed", json_integer(p->owed));
	if (viewer == seat || viewer == RULES_VIEW_FULL) {
		drawn = json_array();
		for (i = 0; i < p->ndrawn; i++)
			json_array_append_new(drawn,
			    stm_view_card(p->drawn[i], 0));
		json_object_set_new(o, "drawn", drawn);
	}
	return o;
}

static json_t *
seats_json(const struct stm_state *st)
{
	json_t	*a, *o;
	int	 seat;

	a = json_array();
	for (seat = 0; seat < st->nseats; seat++) {
		o = json_object();
		json_object_set_new(o, "seat", json_integer(seat));
		json_object_set_new(o, "hand_size",
		    json_integer(st->hand[seat].n));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
to_act_json(const struct stm_state *st)
{
	json_t	*a;
	int	 seat;

	a = json_array();
	for (seat = 0; seat < st->nseats; seat++)
		if (stm_seat_must_act(st, seat))
			json_array_append_new(a, json_integer(seat));
	return a;
}

static json_t *
extra_turn_json(const struct stm_state *st)
{
	json_t	*o;

	if (!st->extra_owed && !st->extra_now)
		return json_null();
	o = json_object();
	json_object_set_new(o, "seat", json_integer(st->current));
	/* "owed": this seat plays again after the current turn;
	 * "now": the current turn is the extra one. */
	json_object_set_new(o, "owed", json_boolean(st->extra_owed));
	json_object_set_new(o, "now", json_boolean(st->extra_now));
	return o;
}

json_t *
stm_view(const void *state, int viewer)
{
	const struct stm_state	*st = state;
	json_t			*v, *hands, *result;
	int			 seat, over, missions;

	over = st->phase == STM_PHASE_OVER;
	missions = stm_missions_in(&st->discard);
	v = json_object();
	json_object_set_new(v, "game", json_string("stmissions"));
	json_object_set_new(v, "seat", viewer >= 0 && viewer < st->nseats ?
	    json_integer(viewer) : json_null());
	json_object_set_new(v, "to_act", to_act_json(st));
	json_object_set_new(v, "over", json_boolean(over));
	json_object_set_new(v, "phase", json_string(stm_phase_name(st->phase)));
	json_object_set_new(v, "nseats", json_integer(st->nseats));
	json_object_set_new(v, "first", json_integer(st->first));
	json_object_set_new(v, "current", json_integer(st->current));
	json_object_set_new(v, "turns", json_integer(st->turns));
	json_object_set_new(v, "extra_turn", extra_turn_json(st));
	/* "ending": the end has been reached and a turn or Q's draw is
	 * still to come; false once the game is over. */
	json_object_set_new(v, "ending", json_boolean(st->ending && !over));
	json_object_set_new(v, "end_reasons",
	    stm_end_reasons_json(st->end_reasons));
	json_object_set_new(v, "q_seat", st->q_seat < 0 ? json_null() :
	    json_integer(st->q_seat));
	json_object_set_new(v, "discard", pile_json(&st->discard, 0));
	json_object_set_new(v, "discard_galaxy",
	    json_integer(st->discard.n - missions));
	json_object_set_new(v, "discard_mission", json_integer(missions));
	json_object_set_new(v, "galaxy_deck", json_integer(st->galaxy.n));
	json_object_set_new(v, "mission_deck", json_integer(st->mission.n));
	json_object_set_new(v, "seats", seats_json(st));
	json_object_set_new(v, "pending", pending_json(st, viewer));
	json_object_set_new(v, "last", stm_last_json(&st->last, 1));
	if (viewer >= 0 && viewer < st->nseats)
		json_object_set_new(v, "hand", pile_json(&st->hand[viewer], 1));
	if (over || viewer == RULES_VIEW_FULL) {
		hands = json_array();
		for (seat = 0; seat < st->nseats; seat++)
			json_array_append_new(hands,
			    pile_json(&st->hand[seat], 0));
		json_object_set_new(v, "hands", hands);
	}
	if (viewer == RULES_VIEW_FULL) {
		json_object_set_new(v, "galaxy_order",
		    stm_pile_ids(&st->galaxy));
		json_object_set_new(v, "mission_order",
		    stm_pile_ids(&st->mission));
	}
	if (over && (result = stm_result(st)) != NULL)
		json_object_set_new(v, "result", result);
	return v;
}

/*
 * Legal moves: every candidate is put through stm_plan_move(), the same
 * check a submitted move meets, so the list holds exactly what check()
 * accepts among the candidates.
 */
struct lister {
	const struct stm_state	*st;
	int			 seat;
	json_t			*out;
};

/* Bytes of one card in a label ("Name (M13)") and of a whole label. */
#define STM_LABEL_CARD	160
#define STM_LABEL_MAX	1024

/* A card as a move names it: its id, or, for a label, its name in lang
 * with the id beside it ("Tribble Trouble (M13)"). */
static void
card_words(char *buf, size_t len, int card, enum rules_lang lang, int named)
{
	struct stm_msg m;

	stm_msg_init(&m, buf, len);
	if (named)
		stm_msg_card(&m, card, lang);
	else
		stm_msg_add(&m, "%s", stm_cards[card].id);
}

/* A card reference as parse() reads it, in lang's words; a drawn card
 * stays "drawn" even in a label (the text does not say which it is). */
static void
ref_words(char *buf, size_t len, int ref, enum rules_lang lang, int named)
{
	switch (ref) {
	case STM_REF_DRAWN:
		snprintf(buf, len, "%s", stm_tr(lang, "drawn", "piochée"));
		break;
	case STM_REF_DRAWN1:
		snprintf(buf, len, "%s", stm_tr(lang, "drawn 1", "piochée 1"));
		break;
	case STM_REF_DRAWN2:
		snprintf(buf, len, "%s", stm_tr(lang, "drawn 2", "piochée 2"));
		break;
	case STM_REF_DRAWN_GALAXY:
		snprintf(buf, len, "%s", stm_tr(lang, "drawn galaxy",
		    "galaxie piochée"));
		break;
	case STM_REF_DRAWN_MISSION:
		snprintf(buf, len, "%s", stm_tr(lang, "drawn mission",
		    "mission piochée"));
		break;
	default:
		card_words(buf, len, ref, lang, named);
		break;
	}
}

/* The words of a move in lang: its text (named 0), or its label, with
 * each card the move names by name (named 1). */
static void
move_words(const struct stm_move *mv, enum rules_lang lang, int named,
    char *buf, size_t len)
{
	char	ref[STM_LABEL_CARD];
	int	i;

	switch (mv->action) {
	case STM_ACT_TAKE:
		card_words(ref, sizeof(ref), mv->card, lang, named);
		snprintf(buf, len, "%s %s", stm_tr(lang, "take", "prendre"),
		    ref);
		break;
	case STM_ACT_GALAXY:
		snprintf(buf, len, "%s", stm_tr(lang, "draw galaxy",
		    "piocher galaxie"));
		break;
	case STM_ACT_MISSIONS:
		snprintf(buf, len, "%s", stm_tr(lang, "draw missions",
		    "piocher missions"));
		break;
	case STM_ACT_Q:
		if (mv->card >= 0) {
			card_words(ref, sizeof(ref), mv->card, lang, named);
			snprintf(buf, len, "q %s %s", stm_tr(lang, "take",
			    "prendre"), ref);
		} else
			snprintf(buf, len, "q %s", stm_tr(lang, "draw",
			    "piocher"));
		break;
	default:
		buf[0] = '\0';
		break;
	}
	for (i = 0; i < mv->ndiscard; i++) {
		ref_words(ref, sizeof(ref), mv->discard[i], lang, named);
		if (i > 0 || mv->action != STM_ACT_DISCARD)
			strncat(buf, ", ", len - strlen(buf) - 1);
		if (i == 0)
			strncat(buf, stm_tr(lang, "discard ", "défausser "),
			    len - strlen(buf) - 1);
		strncat(buf, ref, len - strlen(buf) - 1);
	}
}

/* The text of a move in lang's keywords, as parse() reads it; card ids
 * stay ids.  legal_moves() lists the English texts. */
void
stm_move_text(const struct stm_move *mv, enum rules_lang lang, char *buf,
    size_t len)
{
	move_words(mv, lang, 0, buf, len);
}

/* The move of text (parse() in lang) written again in lang into out, as
 * a text (named 0: translate) or a label (named 1: move_label). */
static enum rules_status
reword(const void *state, int seat, const char *text, enum rules_lang lang,
    int named, char *out, size_t outlen)
{
	struct stm_move		 mv;
	json_t			*move;
	char			 err[RULES_ERRLEN], buf[STM_LABEL_MAX];
	enum rules_status	 rc;

	if ((rc = stm_parse(state, seat, text, lang, &move, err,
	    sizeof(err))) != RULES_OK)
		return rc;
	if (stm_move_decode(move, &mv) == -1) {
		json_decref(move);
		return RULES_SYNTAX;
	}
	json_decref(move);
	move_words(&mv, lang, named, buf, sizeof(buf));
	if (strlen(buf) + 1 > outlen || strlen(buf) + 1 >= sizeof(buf))
		return RULES_SYNTAX;
	memcpy(out, buf, strlen(buf) + 1);
	return RULES_OK;
}

/* translate (api_version 2): parse the text, write the move in lang. */
enum rules_status
stm_translate(const void *state, int seat, const char *text,
    enum rules_lang lang, char *out, size_t outlen)
{
	return reword(state, seat, text, lang, 0, out, outlen);
}

/* move_label (api_version 11): the move in lang, each card the text
 * names by its name and id -- only those: a drawn card stays "drawn". */
enum rules_status
stm_move_label(const void *state, int seat, const char *text,
    enum rules_lang lang, char *out, size_t outlen)
{
	return reword(state, seat, text, lang, 1, out, outlen);
}

static void
try_move(struct lister *ls, const struct stm_move *mv)
{
	struct stm_plan	plan;
	struct stm_msg	m;
	char		text[128];

	stm_msg_init(&m, NULL, 0);	/* the reasons are not wanted */
	if (stm_plan_move(ls->st, ls->seat, mv, RULES_LANG_EN, &plan, &m) !=
	    RULES_OK)
		return;
	stm_move_text(mv, RULES_LANG_EN, text, sizeof(text));
	json_array_append_new(ls->out, json_string(text));
}

/* Which sets of discards to try after a take or draw. */
#define TRY_HALF	1	/* the first half alone */
#define TRY_ONE		2	/* one discard */
#define TRY_TWO		4	/* two discards */

/* The move with each set of discards drawn from refs: none, one card,
 * or unordered pairs, as "what" says. */
static void
try_discards(struct lister *ls, struct stm_move *mv, const int *refs,
    int nrefs, int what)
{
	int	i, j;

	if (what & TRY_HALF) {
		mv->has_discards = 0;
		mv->ndiscard = 0;
		try_move(ls, mv);
	}
	mv->has_discards = 1;
	for (i = 0; i < nrefs; i++) {
		mv->discard[0] = refs[i];
		if (what & TRY_ONE) {
			mv->ndiscard = 1;
			try_move(ls, mv);
		}
		if (!(what & TRY_TWO))
			continue;
		for (j = i + 1; j < nrefs; j++) {
			mv->ndiscard = 2;
			mv->discard[1] = refs[j];
			try_move(ls, mv);
		}
	}
}

/* Candidate discards: the hand, extra cards, and the drawn references. */
static int
collect_refs(const struct stm_pile *hand, const int *more, int nmore,
    int *refs)
{
	int	i, n = 0;

	for (i = 0; i < hand->n; i++)
		refs[n++] = hand->cards[i];
	for (i = 0; i < nmore; i++)
		refs[n++] = more[i];
	return n;
}

/* A new turn: each take, the Galaxy draw, the Mission draw. */
static void
list_turn(struct lister *ls, const struct stm_pile *hand)
{
	const struct stm_state	*st = ls->st;
	struct stm_move		 mv = { .card = -1 };
	int			 refs[STM_NCARDS + 2], more[2], n, i;

	mv.action = STM_ACT_TAKE;
	n = collect_refs(hand, NULL, 0, refs);
	for (i = 0; i < st->discard.n; i++) {
		mv.card = st->discard.cards[i];
		try_discards(ls, &mv, refs, n, TRY_HALF | TRY_ONE);
	}
	mv.card = -1;
	mv.action = STM_ACT_GALAXY;
	more[0] = STM_REF_DRAWN;
	n = collect_refs(hand, more, 1, refs);
	try_discards(ls, &mv, refs, n, TRY_HALF | TRY_ONE);
	mv.action = STM_ACT_MISSIONS;
	more[0] = STM_REF_DRAWN1;
	more[1] = STM_REF_DRAWN2;
	n = collect_refs(hand, more, 2, refs);
	try_discards(ls, &mv, refs, n, TRY_HALF | TRY_TWO);
}

/* Meddlesome Q's draw taking card taken (-1: none, the area is empty). */
static void
list_q_take(struct lister *ls, const struct stm_pile *hand, int taken)
{
	struct stm_move	mv = { .action = STM_ACT_Q, .card = taken };
	int		refs[STM_NCARDS + 3], n;
	int		more[3] = {
		STM_REF_DRAWN_GALAXY, STM_REF_DRAWN_MISSION, taken
	};

	n = collect_refs(hand, more, taken >= 0 ? 3 : 2, refs);
	try_discards(ls, &mv, refs, n, TRY_HALF | TRY_ONE | TRY_TWO);
}

json_t *
stm_legal_moves(const void *state, int seat)
{
	const struct stm_state	*st = state;
	struct lister		 ls = { st, seat, json_array() };
	struct stm_move		 mv = { .action = STM_ACT_DISCARD, .card = -1 };
	const struct stm_pile	*hand;
	int			 refs[STM_NCARDS], n, i;

	if (!stm_seat_must_act(st, seat))
		return ls.out;
	hand = &st->hand[seat];
	switch (st->phase) {
	case STM_PHASE_TURN:
		list_turn(&ls, hand);
		break;
	case STM_PHASE_DISCARD:
	case STM_PHASE_Q_DISCARD:
		n = collect_refs(hand, NULL, 0, refs);
		try_discards(&ls, &mv, refs, n, st->pending.owed == 1 ?
		    TRY_ONE : TRY_TWO);
		break;
	case STM_PHASE_Q_DRAW:
		if (st->discard.n == 0)
			list_q_take(&ls, hand, -1);
		for (i = 0; i < st->discard.n; i++)
			list_q_take(&ls, hand, st->discard.cards[i]);
		break;
	case STM_PHASE_OVER:
		break;
	}
	return ls.out;
}

/*
 * Move forms for people.
 */
static void
forms_take(struct stm_msg *m, const struct stm_state *st,
    enum rules_lang lang)
{
	int	i;

	stm_msg_add(m, "%s", stm_tr(lang, "take <one of: ",
	    "prendre <une carte parmi : "));
	for (i = 0; i < st->discard.n; i++) {
		if (i > 0)
			stm_msg_add(m, ", ");
		if (st->discard.n <= 6)
			stm_msg_add(m, "%s", stm_name_in(st->discard.cards[i],
			    lang));
		else
			stm_msg_add(m, "%s",
			    stm_cards[st->discard.cards[i]].id);
	}
	stm_msg_add(m, "%s", stm_tr(lang, ">, discard <another card>",
	    ">, défausser <une autre carte>"));
}

/* Each form is one string; the same strings end every refusal. */
static json_t *
forms(const struct stm_state *st, int seat, enum rules_lang lang)
{
	json_t		*a;
	struct stm_msg	 m;
	char		 buf[RULES_ERRLEN];
	int		 owed;

	a = json_array();
	if (seat < 0 || seat >= st->nseats || !stm_seat_must_act(st, seat))
		return a;
	switch (st->phase) {
	case STM_PHASE_TURN:
		if (st->discard.n > 0) {
			stm_msg_init(&m, buf, sizeof(buf));
			forms_take(&m, st, lang);
			json_array_append_new(a, json_string(buf));
		}
		if (st->galaxy.n > 0)
			json_array_append_new(a, json_string(stm_tr(lang,
			    "draw galaxy, discard <a card, or drawn>",
			    "piocher galaxie, défausser <une carte, ou "
			    "piochée>")));
		if (st->mission.n >= 2)
			json_array_append_new(a, json_string(stm_tr(lang,
			    "draw missions, discard <two cards: from your "
			    "hand, drawn 1, drawn 2>",
			    "piocher missions, défausser <deux cartes : de "
			    "votre main, piochée 1, piochée 2>")));
		json_array_append_new(a, json_string(stm_tr(lang,
		    "keep 1 or 2 Mission cards; you may send the take or draw "
		    "alone and discard once you have seen the card",
		    "garder 1 ou 2 cartes Mission ; envoyer la prise ou la "
		    "pioche seule et défausser après avoir vu la carte est "
		    "permis")));
		break;
	case STM_PHASE_DISCARD:
	case STM_PHASE_Q_DISCARD:
		owed = st->pending.owed;
		stm_msg_init(&m, buf, sizeof(buf));
		stm_msg_add(&m, "%s", owed == 1 ?
		    stm_tr(lang, "discard <a card", "défausser <une carte") :
		    stm_tr(lang, "discard <two cards",
		    "défausser <deux cartes"));
		if (st->pending.action == STM_ACT_TAKE) {
			stm_msg_add(&m, "%s", stm_tr(lang, " other than ",
			    " autre que "));
			stm_msg_add(&m, "%s", stm_name_in(st->pending.taken,
			    lang));
		}
		if (st->phase == STM_PHASE_Q_DISCARD)
			stm_msg_add(&m, "%s", stm_tr(lang,
			    "; keep Meddlesome Q "
			    "and exactly one other Mission", " ; garder Q "
			    "l'importun et exactement une autre Mission"));
		stm_msg_add(&m, ">");
		json_array_append_new(a, json_string(buf));
		break;
	case STM_PHASE_Q_DRAW:
		json_array_append_new(a, json_string(st->discard.n > 0 ?
		    stm_tr(lang, "q take <a card from the discard area>, "
		    "discard <a card other than Meddlesome Q, or drawn galaxy, "
		    "or drawn mission>", "q prendre <une carte de la "
		    "défausse>, défausser <une carte autre que Q l'importun, "
		    "ou galaxie piochée, ou mission piochée>") :
		    stm_tr(lang, "q draw, discard <a card other than "
		    "Meddlesome Q>", "q piocher, défausser <une carte autre "
		    "que Q l'importun>")));
		json_array_append_new(a, json_string(stm_tr(lang,
		    "end with Meddlesome Q and exactly one other Mission; you "
		    "may send \"q take <card>\" alone and discard after seeing "
		    "the cards", "finissez avec Q l'importun et exactement une "
		    "autre Mission ; vous pouvez envoyer « q prendre <carte> » "
		    "seul et défausser après avoir vu les cartes")));
		break;
	case STM_PHASE_OVER:
		break;
	}
	return a;
}

json_t *
stm_move_forms(const void *state, int seat, enum rules_lang lang)
{
	return forms(state, seat, lang);
}

/* " Legal now: form | form." appended to a refusal. */
void
stm_msg_forms(struct stm_msg *m, const struct stm_state *st, int seat,
    enum rules_lang lang)
{
	json_t	*a;
	size_t	 i;

	a = forms(st, seat, lang);
	stm_msg_add(m, "%s", stm_tr(lang, " Legal now: ",
	    " Possible maintenant : "));
	for (i = 0; i < json_array_size(a); i++)
		stm_msg_add(m, "%s%s", i > 0 ? " | " : "",
		    json_string_value(json_array_get(a, i)));
	stm_msg_add(m, ".");
	json_decref(a);
}
