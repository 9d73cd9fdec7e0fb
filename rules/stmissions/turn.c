/*
 * turn.c -- check() and apply(): is a move legal, and playing it.
 *
 * Check before apply.  stm_plan_move() turns a parsed move into a plan --
 * which card leaves the discard area, which cards come off the decks,
 * which cards are discarded -- and refuses it, changing nothing, at the
 * first rule it breaks.  check() is stm_plan_move(); apply() makes the
 * plan again, aborts if it is refused (the core calls apply() only after
 * check() passed on the same state), and carries it out.
 *
 * Hidden cards.  A move written in one piece ("draw galaxy, discard
 * drawn") discards before its writer has seen the drawn card.  Such a
 * move may name drawn cards only by "drawn" words, and a named card id
 * must already be in the hand: so whether a move is accepted never
 * depends on what the decks hold, and no refusal names a hidden card.
 */
#include <stdlib.h>
#include <string.h>

#include "stmissions.h"

/*
 * Decoding the move JSON written by parse.c.  Anything else is refused:
 * check() may be handed a move from another source.
 */
int
stm_move_decode(const json_t *json, struct stm_move *mv)
{
	const json_t	*d, *v;
	const char	*action;
	size_t		 i, keys = 1;
	int		 ref;

	memset(mv, 0, sizeof(*mv));
	mv->card = -1;
	if (!json_is_object(json) ||
	    (action = json_string_value(json_object_get(json, "action"))) ==
	    NULL)
		return -1;
	for (mv->action = 0; mv->action <= STM_ACT_DISCARD; mv->action++)
		if (strcmp(action, stm_action_name(mv->action)) == 0)
			break;
	if (mv->action > STM_ACT_DISCARD)
		return -1;
	if ((v = json_object_get(json, "card")) != NULL) {
		if (!json_is_string(v) ||
		    (mv->card = stm_ref_from_text(json_string_value(v))) < 0 ||
		    (mv->action != STM_ACT_TAKE && mv->action != STM_ACT_Q))
			return -1;
		keys++;
	}
	if ((d = json_object_get(json, "discard")) != NULL) {
		if (!json_is_array(d) || json_array_size(d) == 0 ||
		    json_array_size(d) > STM_MAX_DISCARDS)
			return -1;
		for (i = 0; i < json_array_size(d); i++) {
			v = json_array_get(d, i);
			if (!json_is_string(v) ||
			    (ref = stm_ref_from_text(json_string_value(v))) ==
			    -100)
				return -1;
			mv->discard[mv->ndiscard++] = ref;
		}
		mv->has_discards = 1;
		keys++;
	} else if (mv->action == STM_ACT_DISCARD)
		return -1;
	if (json_object_size(json) != keys)
		return -1;
	return 0;
}

static int
pile_find(const struct stm_pile *p, int card)
{
	int	i;

	for (i = 0; i < p->n; i++)
		if (p->cards[i] == card)
			return i;
	return -1;
}

static int
pile_has_galaxy(const struct stm_pile *p)
{
	return stm_missions_in(p) < p->n;
}

/*
 * Messages.
 */
static const char *
tr(enum rules_lang lang, const char *en, const char *fr)
{
	return stm_tr(lang, en, fr);
}

/* A discard reference as a person reads it. */
static void
msg_ref(struct stm_msg *m, int ref, enum rules_lang lang)
{
	switch (ref) {
	case STM_REF_DRAWN:
		stm_msg_add(m, "%s", tr(lang, "the drawn card",
		    "la carte piochée"));
		break;
	case STM_REF_DRAWN1:
		stm_msg_add(m, "%s", tr(lang, "the first drawn Mission",
		    "la première Mission piochée"));
		break;
	case STM_REF_DRAWN2:
		stm_msg_add(m, "%s", tr(lang, "the second drawn Mission",
		    "la seconde Mission piochée"));
		break;
	case STM_REF_DRAWN_GALAXY:
		stm_msg_add(m, "%s", tr(lang, "the drawn Galaxy card",
		    "la carte Galaxie piochée"));
		break;
	case STM_REF_DRAWN_MISSION:
		stm_msg_add(m, "%s", tr(lang, "the drawn Mission card",
		    "la carte Mission piochée"));
		break;
	default:
		stm_msg_card(m, ref, lang);
		break;
	}
}

static enum rules_status
illegal(struct stm_msg *m, enum rules_lang lang, const char *en,
    const char *fr)
{
	stm_msg_add(m, "%s", tr(lang, en, fr));
	return RULES_ILLEGAL;
}

static enum rules_status
not_held(struct stm_msg *m, const struct stm_pile *hand, int card,
    enum rules_lang lang)
{
	stm_msg_add(m, "%s", tr(lang, "You do not hold ", "Vous n'avez pas "));
	stm_msg_card(m, card, lang);
	stm_msg_add(m, "%s", tr(lang, "; your hand: ", " ; votre main : "));
	stm_msg_pile(m, hand, lang);
	stm_msg_add(m, ".");
	return RULES_ILLEGAL;
}

static enum rules_status
not_in_discard(struct stm_msg *m, const struct stm_pile *discard, int card,
    enum rules_lang lang)
{
	stm_msg_card(m, card, lang);
	stm_msg_add(m, "%s", tr(lang, " is not in the discard area; it holds: ",
	    " n'est pas dans la défausse ; elle contient : "));
	stm_msg_pile(m, discard, lang);
	stm_msg_add(m, ".");
	return RULES_ILLEGAL;
}

/* The card a drawn reference stands for in this plan, or -1. */
static int
drawn_card(const struct stm_plan *plan, int kind, int ref)
{
	int	i;

	switch (ref) {
	case STM_REF_DRAWN:
		return kind == STM_ACT_GALAXY ? plan->drawn[0] : -1;
	case STM_REF_DRAWN1:
	case STM_REF_DRAWN2:
		if (kind != STM_ACT_MISSIONS)
			return -1;
		return plan->drawn[ref == STM_REF_DRAWN1 ? 0 : 1];
	case STM_REF_DRAWN_GALAXY:
	case STM_REF_DRAWN_MISSION:
		if (kind != STM_ACT_Q)
			return -1;
		for (i = 0; i < plan->ndrawn; i++)
			if (STM_IS_MISSION(plan->drawn[i]) ==
			    (ref == STM_REF_DRAWN_MISSION))
				return plan->drawn[i];
		return -1;
	}
	return -1;
}

/*
 * One discard reference resolved to a card that may go, or -1 with the
 * reason in m.  hand is the hand before the move (the whole hand in a
 * second half); kind is the action the turn began with.
 */
static int
discard_card(const struct stm_plan *plan, const struct stm_move *mv,
    const struct stm_pile *hand, int kind, int ref, enum rules_lang lang,
    struct stm_msg *m)
{
	int	card, one_piece = mv->action != STM_ACT_DISCARD;

	if (ref < 0) {
		if ((card = drawn_card(plan, kind, ref)) < 0) {
			msg_ref(m, ref, lang);
			stm_msg_add(m, "%s", tr(lang, ": no such card is drawn "
			    "by this move.", " : ce coup ne pioche pas cette "
			    "carte."));
		}
		return card;
	}
	if (ref == plan->taken && kind == STM_ACT_TAKE) {
		stm_msg_add(m, "%s", tr(lang, "You must discard a different "
		    "card from the one you take (", "Vous devez défausser une "
		    "autre carte que celle que vous prenez ("));
		stm_msg_card(m, ref, lang);
		stm_msg_add(m, ").");
		return -1;
	}
	/* Meddlesome Q may discard the card it takes. */
	if (pile_find(hand, ref) >= 0 ||
	    (kind == STM_ACT_Q && one_piece && ref == plan->taken))
		return ref;
	not_held(m, hand, ref, lang);
	return -1;
}

/* Missions in the hand once the move's cards have come in. */
static int
missions_after_draw(const struct stm_state *st, const struct stm_move *mv,
    const struct stm_plan *plan)
{
	int	missions, i;

	missions = stm_missions_in(&st->hand[plan->seat]);
	if (mv->action == STM_ACT_DISCARD)	/* already in the hand */
		return missions;
	if (plan->taken >= 0)
		missions += STM_IS_MISSION(plan->taken);
	for (i = 0; i < plan->ndrawn; i++)
		missions += STM_IS_MISSION(plan->drawn[i]);
	return missions;
}

/*
 * The discards of a plan whose taken and drawn cards are known: exactly
 * need of them, each a card that may go, none twice, leaving 1 or 2
 * Missions -- or, for Meddlesome Q, Q and exactly one other.
 */
static enum rules_status
plan_discards(const struct stm_state *st, const struct stm_move *mv,
    int kind, int need, enum rules_lang lang, struct stm_plan *plan,
    struct stm_msg *m)
{
	const struct stm_pile	*hand = &st->hand[plan->seat];
	int			 i, j, card, missions;

	if (mv->ndiscard != need) {
		stm_msg_add(m, "%s", need == 1 ?
		    tr(lang, "Discard exactly one card", "Défaussez exactement "
		    "une carte") :
		    tr(lang, "Discard exactly two cards", "Défaussez "
		    "exactement deux cartes"));
		stm_msg_add(m, tr(lang, "; you named %d.", " ; vous en "
		    "nommez %d."), mv->ndiscard);
		return RULES_ILLEGAL;
	}
	missions = missions_after_draw(st, mv, plan);
	for (i = 0; i < need; i++) {
		card = discard_card(plan, mv, hand, kind, mv->discard[i], lang,
		    m);
		if (card < 0)
			return RULES_ILLEGAL;
		for (j = 0; j < i; j++)
			if (plan->discard[j] == card) {
				msg_ref(m, mv->discard[i], lang);
				stm_msg_add(m, "%s", tr(lang, " is named "
				    "twice.", " est nommée deux fois."));
				return RULES_ILLEGAL;
			}
		if (kind == STM_ACT_Q && card == STM_MEDDLESOME_Q)
			return illegal(m, lang, "You may not discard "
			    "Meddlesome Q.", "Vous ne pouvez pas défausser "
			    "Q l'importun.");
		plan->discard[i] = card;
		missions -= STM_IS_MISSION(card);
	}
	plan->ndiscard = need;
	if (kind == STM_ACT_Q && missions != 2) {
		stm_msg_add(m, tr(lang, "You must end holding Meddlesome Q and "
		    "exactly one other Mission card; this would leave %d "
		    "other Missions.", "Vous devez finir avec Q l'importun et "
		    "exactement une autre carte Mission ; ce coup en "
		    "laisserait %d autres."), missions - 1);
		return RULES_ILLEGAL;
	}
	if (kind != STM_ACT_Q && (missions < 1 || missions > 2)) {
		stm_msg_add(m, tr(lang, "After your turn you would hold %d "
		    "Mission cards; you must keep 1 or 2.", "Après votre tour "
		    "vous auriez %d cartes Mission ; il faut en garder 1 ou "
		    "2."), missions);
		return RULES_ILLEGAL;
	}
	return RULES_OK;
}

/* A move that stops after the first half owes its discards later. */
static enum rules_status
plan_rest(const struct stm_state *st, const struct stm_move *mv, int need,
    enum rules_lang lang, struct stm_plan *plan, struct stm_msg *m)
{
	plan->owed = need;
	if (!mv->has_discards)
		return RULES_OK;
	return plan_discards(st, mv, mv->action, need, lang, plan, m);
}

static enum rules_status
plan_take(const struct stm_state *st, const struct stm_move *mv,
    enum rules_lang lang, struct stm_plan *plan, struct stm_msg *m)
{
	if (st->discard.n == 0)
		return illegal(m, lang, "The discard area is empty: there is "
		    "nothing to take.", "La défausse est vide : il n'y a rien "
		    "à prendre.");
	if (pile_find(&st->discard, mv->card) < 0)
		return not_in_discard(m, &st->discard, mv->card, lang);
	plan->taken = mv->card;
	return plan_rest(st, mv, 1, lang, plan, m);
}

static enum rules_status
plan_galaxy(const struct stm_state *st, const struct stm_move *mv,
    enum rules_lang lang, struct stm_plan *plan, struct stm_msg *m)
{
	if (st->galaxy.n == 0)
		return illegal(m, lang, "The Galaxy deck is empty.",
		    "La pioche Galaxie est vide.");
	plan->ndrawn = 1;
	plan->drawn[0] = st->galaxy.cards[0];
	return plan_rest(st, mv, 1, lang, plan, m);
}

static enum rules_status
plan_missions(const struct stm_state *st, const struct stm_move *mv,
    enum rules_lang lang, struct stm_plan *plan, struct stm_msg *m)
{
	if (st->mission.n < 2) {
		stm_msg_add(m, tr(lang, "The Mission deck holds %d card(s); "
		    "drawing Missions needs two.", "La pioche Mission contient "
		    "%d carte(s) ; il en faut deux pour piocher des Missions."),
		    st->mission.n);
		return RULES_ILLEGAL;
	}
	plan->ndrawn = 2;
	plan->drawn[0] = st->mission.cards[0];
	plan->drawn[1] = st->mission.cards[1];
	return plan_rest(st, mv, 2, lang, plan, m);
}

/*
 * How many discards Meddlesome Q's final draw owes, given the number of
 * Mission cards other than Q the hand holds after the draw and whether
 * the discard area offered a Galaxy card: one; two when three other
 * Missions are held and taking a Galaxy card was impossible; 0 when the
 * draw must be refused (see docs/stmissions.md).
 */
static int
q_owed(int others, int discard_had_galaxy)
{
	if (others == 1 || others == 2)
		return 1;
	if (others == 3 && !discard_had_galaxy)
		return 2;
	return 0;
}

/* For load(): the discards owed by a half-made final draw. */
int
stm_q_owed(const struct stm_state *st, int seat)
{
	const struct stm_pending	*p = &st->pending;
	int				 had_galaxy;

	had_galaxy = pile_has_galaxy(&st->discard) ||
	    (p->taken >= 0 && !STM_IS_MISSION(p->taken));
	return q_owed(stm_missions_in(&st->hand[seat]) - 1, had_galaxy);
}

static enum rules_status
plan_q(const struct stm_state *st, const struct stm_move *mv,
    enum rules_lang lang, struct stm_plan *plan, struct stm_msg *m)
{
	const struct stm_pile	*hand = &st->hand[plan->seat];
	int			 others, need;

	if (st->discard.n > 0 && mv->card < 0)
		return illegal(m, lang, "Name the card you take from the "
		    "discard area: \"q take <card>, discard <card>\".",
		    "Nommez la carte que vous prenez dans la défausse : "
		    "« q prendre <carte>, défausser <carte> ».");
	if (st->discard.n == 0 && mv->card >= 0)
		return illegal(m, lang, "The discard area is empty: write "
		    "\"q draw, discard <card>\".", "La défausse est vide : "
		    "écrivez « q piocher, défausser <carte> ».");
	if (mv->card >= 0 && pile_find(&st->discard, mv->card) < 0)
		return not_in_discard(m, &st->discard, mv->card, lang);
	plan->taken = mv->card;
	if (st->galaxy.n > 0)
		plan->drawn[plan->ndrawn++] = st->galaxy.cards[0];
	if (st->mission.n > 0)
		plan->drawn[plan->ndrawn++] = st->mission.cards[0];
	others = stm_missions_in(hand) - 1 + (st->mission.n > 0) +
	    (mv->card >= 0 && STM_IS_MISSION(mv->card));
	need = q_owed(others, pile_has_galaxy(&st->discard));
	if (need == 0 && others == 0)
		return illegal(m, lang, "You would hold no Mission card "
		    "besides Meddlesome Q: take a Mission card from the "
		    "discard area.", "Vous n'auriez aucune carte Mission à "
		    "part Q l'importun : prenez une carte Mission dans la "
		    "défausse.");
	if (need == 0)
		return illegal(m, lang, "Taking a Mission card would leave you "
		    "three Missions besides Meddlesome Q, and one discard "
		    "cannot bring that back to one: take a Galaxy card from "
		    "the discard area.", "Prendre une carte Mission vous "
		    "laisserait trois Missions en plus de Q l'importun, et une "
		    "seule défausse ne peut pas revenir à une : prenez une "
		    "carte Galaxie dans la défausse.");
	return plan_rest(st, mv, need, lang, plan, m);
}

/* The second half of a turn sent in two: the discards owed. */
static enum rules_status
plan_second_half(const struct stm_state *st, const struct stm_move *mv,
    enum rules_lang lang, struct stm_plan *plan, struct stm_msg *m)
{
	const struct stm_pending	*p = &st->pending;

	plan->taken = p->taken;
	plan->ndrawn = p->ndrawn;
	memcpy(plan->drawn, p->drawn, sizeof(plan->drawn));
	return plan_discards(st, mv, p->action, p->owed, lang, plan, m);
}

static const char *
action_done(int action, enum rules_lang lang)
{
	switch (action) {
	case STM_ACT_TAKE:
		return tr(lang, "taken a card", "pris une carte");
	case STM_ACT_Q:
		return tr(lang, "made Meddlesome Q's draw",
		    "fait la pioche de Q l'importun");
	default:
		return tr(lang, "drawn", "pioché");
	}
}

enum rules_status
stm_plan_move(const struct stm_state *st, int seat,
    const struct stm_move *mv, enum rules_lang lang, struct stm_plan *plan,
    struct stm_msg *m)
{
	memset(plan, 0, sizeof(*plan));
	plan->seat = seat;
	plan->action = mv->action;
	plan->taken = -1;
	if (st->phase == STM_PHASE_OVER) {
		stm_msg_add(m, "%s", tr(lang, "The game is over.",
		    "La partie est terminée."));
		return RULES_GAME_OVER;
	}
	if (seat < 0 || seat >= st->nseats || !stm_seat_must_act(st, seat)) {
		if (st->phase == STM_PHASE_Q_DRAW ||
		    st->phase == STM_PHASE_Q_DISCARD)
			stm_msg_add(m, tr(lang, "The game has ended; seat %d, "
			    "holder of Meddlesome Q, is making the final draw.",
			    "La partie est finie ; le siège %d, qui a Q "
			    "l'importun, fait la dernière pioche."),
			    st->q_seat);
		else
			stm_msg_add(m, tr(lang, "It is not your turn: seat %d "
			    "is playing.", "Ce n'est pas votre tour : le siège "
			    "%d joue."), st->current);
		return RULES_NOT_YOUR_TURN;
	}
	switch (st->phase) {
	case STM_PHASE_TURN:
		if (mv->action == STM_ACT_TAKE)
			return plan_take(st, mv, lang, plan, m);
		if (mv->action == STM_ACT_GALAXY)
			return plan_galaxy(st, mv, lang, plan, m);
		if (mv->action == STM_ACT_MISSIONS)
			return plan_missions(st, mv, lang, plan, m);
		if (mv->action == STM_ACT_Q)
			return illegal(m, lang, "Meddlesome Q's draw is made "
			    "only when the game has ended.", "La pioche de Q "
			    "l'importun ne se fait qu'à la fin de la partie.");
		return illegal(m, lang, "Take a card from the discard area or "
		    "draw before you discard.", "Prenez une carte dans la "
		    "défausse ou piochez avant de défausser.");
	case STM_PHASE_DISCARD:
	case STM_PHASE_Q_DISCARD:
		if (mv->action == STM_ACT_DISCARD)
			return plan_second_half(st, mv, lang, plan, m);
		stm_msg_add(m, tr(lang, "You have already %s; now discard %d "
		    "card(s).", "Vous avez déjà %s ; défaussez maintenant %d "
		    "carte(s)."), action_done(st->pending.action, lang),
		    st->pending.owed);
		return RULES_ILLEGAL;
	case STM_PHASE_Q_DRAW:
		if (mv->action == STM_ACT_Q)
			return plan_q(st, mv, lang, plan, m);
		return illegal(m, lang, "The game has ended: as holder of "
		    "Meddlesome Q you make the final draw.", "La partie est "
		    "finie : vous avez Q l'importun et faites la dernière "
		    "pioche.");
	case STM_PHASE_OVER:
		break;
	}
	abort();
}

enum rules_status
stm_check(const void *state, int seat, const json_t *move,
    enum rules_lang lang, char *err, size_t errlen)
{
	const struct stm_state	*st = state;
	struct stm_move		 mv;
	struct stm_plan		 plan;
	struct stm_msg		 m;
	enum rules_status	 rc;

	stm_msg_init(&m, err, errlen);
	if (stm_move_decode(move, &mv) == -1) {
		stm_msg_add(&m, "%s", tr(lang, "This is not a Star Trek: "
		    "Missions move.", "Ce n'est pas un coup de Star Trek : "
		    "Missions."));
		return RULES_SYNTAX;
	}
	rc = stm_plan_move(st, seat, &mv, lang, &plan, &m);
	if (rc == RULES_ILLEGAL)
		stm_msg_forms(&m, st, seat, lang);
	return rc;
}

/*
 * Playing a plan.
 */
static void
hand_add(struct stm_pile *hand, int card)
{
	int	i;

	for (i = hand->n; i > 0 && hand->cards[i - 1] > card; i--)
		hand->cards[i] = hand->cards[i - 1];
	hand->cards[i] = card;
	hand->n++;
}

static void
pile_remove(struct stm_pile *p, int card)
{
	int	i;

	if ((i = pile_find(p, card)) < 0)
		abort();	/* the plan was checked against this state */
	p->n--;
	memmove(p->cards + i, p->cards + i + 1, (size_t)(p->n
	    - i) * sizeof(int));
}

static int
end_conditions(const struct stm_state *st)
{
	int	missions, reasons = 0;

	missions = stm_missions_in(&st->discard);
	if (st->discard.n - missions >= STM_END_GALAXY)
		reasons |= STM_END_DISCARD_GALAXY;
	if (missions >= STM_END_MISSION)
		reasons |= STM_END_DISCARD_MISSION;
	if (st->galaxy.n == 0)
		reasons |= STM_END_GALAXY_EMPTY;
	return reasons;
}

/* The game has ended: Meddlesome Q's holder draws, or it is scored. */
static void
game_end(struct stm_state *st)
{
	int	seat;

	st->extra_owed = st->extra_now = 0;
	st->q_seat = -1;
	st->phase = STM_PHASE_OVER;
	for (seat = 0; seat < st->nseats; seat++)
		if (pile_find(&st->hand[seat], STM_MEDDLESOME_Q) >= 0) {
			st->q_seat = seat;
			st->phase = STM_PHASE_Q_DRAW;
		}
}

/*
 * A turn is complete.  A seat owed an extra turn (Time Distortion) plays
 * again at once, even when this turn met an end condition; otherwise the
 * game ends if an end condition was met in this turn or before the extra
 * turn that just finished, and the next seat plays if not.
 */
static void
turn_end(struct stm_state *st)
{
	int	reasons;

	st->turns++;
	st->phase = STM_PHASE_TURN;
	if ((reasons = end_conditions(st)) != 0) {
		st->ending = 1;
		st->end_reasons |= reasons;
	}
	if (st->extra_owed) {
		st->extra_owed = 0;
		st->extra_now = 1;
		return;
	}
	st->extra_now = 0;
	if (st->ending) {
		game_end(st);
		return;
	}
	st->current = (st->current + 1) % st->nseats;
}

/* The first half: cards come into the hand. */
static void
play_first_half(struct stm_state *st, const struct stm_plan *plan)
{
	struct stm_pile	*hand = &st->hand[plan->seat];
	struct stm_last	*l = &st->last;
	int		 i, card;

	memset(l, 0, sizeof(*l));
	l->seat = plan->seat;
	l->action = plan->action;
	l->taken = plan->taken;
	if (plan->taken >= 0) {
		pile_remove(&st->discard, plan->taken);
		hand_add(hand, plan->taken);
		if (plan->action == STM_ACT_TAKE &&
		    plan->taken == STM_TIME_DISTORTION)
			st->extra_owed = 1;
	}
	for (i = 0; i < plan->ndrawn; i++) {
		card = plan->drawn[i];
		if (STM_IS_MISSION(card)) {
			pile_remove(&st->mission, card);
			l->drew_mission++;
		} else {
			pile_remove(&st->galaxy, card);
			l->drew_galaxy++;
		}
		hand_add(hand, card);
	}
}

static void
play(struct stm_state *st, const struct stm_plan *plan)
{
	struct stm_pile	*hand = &st->hand[plan->seat];
	int		 i, kind;

	if (plan->action != STM_ACT_DISCARD) {
		play_first_half(st, plan);
		if (plan->ndiscard == 0) {
			st->phase = plan->action == STM_ACT_Q ?
			    STM_PHASE_Q_DISCARD : STM_PHASE_DISCARD;
			st->pending.action = plan->action;
			st->pending.taken = plan->taken;
			st->pending.ndrawn = plan->ndrawn;
			memcpy(st->pending.drawn, plan->drawn,
			    sizeof(st->pending.drawn));
			st->pending.owed = plan->owed;
			return;
		}
	}
	kind = plan->action == STM_ACT_DISCARD ? st->pending.action :
	    plan->action;
	for (i = 0; i < plan->ndiscard; i++) {
		pile_remove(hand, plan->discard[i]);
		st->discard.cards[st->discard.n++] = plan->discard[i];
		st->last.discard[i] = plan->discard[i];
	}
	st->last.ndiscard = plan->ndiscard;
	st->last.complete = 1;
	memset(&st->pending, 0, sizeof(st->pending));
	st->pending.taken = -1;
	if (kind == STM_ACT_Q)
		st->phase = STM_PHASE_OVER;
	else
		turn_end(st);
}

void
stm_apply(void *state, int seat, const json_t *move, struct rules_rng *rng)
{
	struct stm_state	*st = state;
	struct stm_move		 mv;
	struct stm_plan		 plan;
	struct stm_msg		 m;
	char			 err[RULES_ERRLEN];

	(void)rng;		/* no randomness after setup */
	stm_msg_init(&m, err, sizeof(err));
	if (stm_move_decode(move, &mv) == -1 ||
	    stm_plan_move(st, seat, &mv, RULES_LANG_EN, &plan, &m) != RULES_OK)
		abort();	/* apply() without a passing check() */
	play(st, &plan);
}
