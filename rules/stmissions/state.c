/*
 * state.c -- the state as JSON: save() and load().
 *
 * The saved form names cards by id ("G12") and lists every pile in order:
 * decks top first, the discard area oldest first, hands in ascending card
 * order.  Keys are always written in the same order and there are no
 * hash-ordered sets, so save() of the same state gives the same bytes.
 *
 * load() trusts nothing.  It refuses, with a message naming the fault:
 * a missing, unknown or mistyped key; a card id that does not exist; a
 * card that appears twice or not at all (all 74 must be somewhere); a
 * Mission card in the Galaxy deck or the reverse; a seat number out of
 * range; a hand out of order, of the wrong size or with the wrong number
 * of Mission cards for the phase; a half-played turn that does not match
 * the hand; flags that no sequence of moves could set together.  It does
 * not replay history: a position that is consistent but could not have
 * been reached (say, an oversized discard area) is accepted, and the
 * rules then apply to it as to any other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stmissions.h"

static const char *const phase_names[] = {
	"turn", "discard", "q_draw", "q_discard", "over"
};
static const char *const action_names[] = {
	"take", "galaxy", "missions", "q", "discard"
};
static const char *const end_reason_names[] = {
	"discard_galaxy", "discard_mission", "galaxy_deck_empty"
};
#define NPHASES		5
#define NACTIONS	5
#define NEND_REASONS	3

const char *
stm_phase_name(enum stm_phase phase)
{
	return phase_names[phase];
}

const char *
stm_action_name(int action)
{
	return action_names[action];
}

json_t *
stm_pile_ids(const struct stm_pile *p)
{
	json_t	*a;
	int	 i;

	/* Card ids are ASCII constants ("G01"): no UTF-8 check needed,
	 * and this runs for every card of the state on every move. */
	a = json_array();
	for (i = 0; i < p->n; i++)
		json_array_append_new(a,
		    json_string_nocheck(stm_cards[p->cards[i]].id));
	return a;
}

json_t *
stm_end_reasons_json(int reasons)
{
	json_t	*a;
	int	 i;

	a = json_array();
	for (i = 0; i < NEND_REASONS; i++)
		if (reasons & (1 << i))
			json_array_append_new(a,
			    json_string(end_reason_names[i]));
	return a;
}

static json_t *
card_or_null(int card)
{
	return card < 0 ? json_null() : json_string(stm_cards[card].id);
}

static json_t *
save_pending(const struct stm_state *st)
{
	const struct stm_pending	*p = &st->pending;
	json_t				*o, *drawn;
	int				 i;

	if (!stm_mid_turn(st))
		return json_null();
	drawn = json_array();
	for (i = 0; i < p->ndrawn; i++)
		json_array_append_new(drawn,
		    json_string(stm_cards[p->drawn[i]].id));
	o = json_object();
	json_object_set_new(o, "action", json_string(action_names[p->action]));
	json_object_set_new(o, "taken", card_or_null(p->taken));
	json_object_set_new(o, "drawn", drawn);
	json_object_set_new(o, "owed", json_integer(p->owed));
	return o;
}

/* The last move, as everyone saw it; view.c shows the same object. */
json_t *
stm_last_json(const struct stm_last *l, int with_names)
{
	json_t	*o, *d;
	int	 i;

	if (l->seat < 0)
		return json_null();
	d = json_array();
	for (i = 0; i < l->ndiscard; i++)
		json_array_append_new(d, with_names ?
		    stm_view_card(l->discard[i], 0) :
		    json_string(stm_cards[l->discard[i]].id));
	o = json_object();
	json_object_set_new(o, "seat", json_integer(l->seat));
	json_object_set_new(o, "action", json_string(action_names[l->action]));
	json_object_set_new(o, "taken", l->taken < 0 ? json_null() :
	    with_names ? stm_view_card(l->taken, 0) :
	    json_string(stm_cards[l->taken].id));
	json_object_set_new(o, "drew_galaxy", json_integer(l->drew_galaxy));
	json_object_set_new(o, "drew_mission", json_integer(l->drew_mission));
	json_object_set_new(o, "discarded", d);
	json_object_set_new(o, "complete", json_boolean(l->complete));
	return o;
}

json_t *
stm_save(const void *state)
{
	const struct stm_state	*st = state;
	json_t			*o, *hands;
	int			 seat;

	hands = json_array();
	for (seat = 0; seat < st->nseats; seat++)
		json_array_append_new(hands, stm_pile_ids(&st->hand[seat]));
	o = json_object();
	json_object_set_new(o, "ruleset", json_integer(st->ruleset));
	json_object_set_new(o, "nseats", json_integer(st->nseats));
	json_object_set_new(o, "phase", json_string(phase_names[st->phase]));
	json_object_set_new(o, "first", json_integer(st->first));
	json_object_set_new(o, "current", json_integer(st->current));
	json_object_set_new(o, "turns", json_integer(st->turns));
	json_object_set_new(o, "extra_owed", json_boolean(st->extra_owed));
	json_object_set_new(o, "extra_now", json_boolean(st->extra_now));
	json_object_set_new(o, "ending", json_boolean(st->ending));
	json_object_set_new(o, "end_reasons",
	    stm_end_reasons_json(st->end_reasons));
	json_object_set_new(o, "q_seat", st->q_seat < 0 ? json_null() :
	    json_integer(st->q_seat));
	json_object_set_new(o, "galaxy_deck", stm_pile_ids(&st->galaxy));
	json_object_set_new(o, "mission_deck", stm_pile_ids(&st->mission));
	json_object_set_new(o, "discard", stm_pile_ids(&st->discard));
	json_object_set_new(o, "hands", hands);
	json_object_set_new(o, "pending", save_pending(st));
	json_object_set_new(o, "last", stm_last_json(&st->last, 0));
	return o;
}

/*
 * Loading.  Each helper reads one field, checks it, and on a fault writes
 * the message and returns -1; the caller stops at the first fault.
 */
struct loader {
	char	*err;
	size_t	 errlen;
	int	 seen[STM_NCARDS];	/* where each card was found,
	    0 if not */
};

static int
fail(struct loader *ld, const char *what, const char *detail)
{
	snprintf(ld->err, ld->errlen, "bad saved state: %s: %s", what, detail);
	return -1;
}

/* "G01".."G50", "M01".."M24" exactly: the card number, or -1. */
int
stm_card_from_id(const char *id)
{
	int	num;

	if ((id[0] != 'G' && id[0] != 'M') || id[1] < '0' || id[1] > '9' ||
	    id[2] < '0' || id[2] > '9' || id[3] != '\0')
		return -1;
	num = (id[1] - '0') * 10 + (id[2] - '0');
	if (id[0] == 'G' && num >= 1 && num <= STM_NGALAXY)
		return num - 1;
	if (id[0] == 'M' && num >= 1 && num <= STM_NMISSION)
		return STM_NGALAXY + num - 1;
	return -1;
}

static int
get_int(struct loader *ld, const json_t *o, const char *key, int min,
    int max, int *out)
{
	json_t		*v;
	json_int_t	 i;

	v = json_object_get(o, key);
	if (!json_is_integer(v))
		return fail(ld, key, "missing or not an integer");
	i = json_integer_value(v);
	if (i < min || i > max)
		return fail(ld, key, "out of range");
	*out = (int)i;
	return 0;
}

static int
get_bool(struct loader *ld, const json_t *o, const char *key, int *out)
{
	json_t	*v;

	v = json_object_get(o, key);
	if (!json_is_boolean(v))
		return fail(ld, key, "missing or not true/false");
	*out = json_is_true(v);
	return 0;
}

static int
get_name(struct loader *ld, const json_t *o, const char *key,
    const char *const *names, int nnames, int *out)
{
	const char	*s;
	int		 i;

	s = json_string_value(json_object_get(o, key));
	if (s == NULL)
		return fail(ld, key, "missing or not a string");
	for (i = 0; i < nnames; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return 0;
		}
	return fail(ld, key, "unknown value");
}

/* A card id, or null when allow_null (then *card is -1). */
static int
get_card(struct loader *ld, const json_t *v, const char *what, int allow_null,
    int *card)
{
	if (allow_null && json_is_null(v)) {
		*card = -1;
		return 0;
	}
	*card = json_is_string(v) ? stm_card_from_id(json_string_value(v)) : -1;
	if (*card < 0)
		return fail(ld, what, "not a card id");
	return 0;
}

/*
 * A pile of distinct cards that are nowhere else.  kind: 'G' only Galaxy,
 * 'M' only Mission, 0 either.  sorted: must be in ascending order.
 */
static int
get_pile(struct loader *ld, const json_t *a, const char *what, int kind,
    int sorted, struct stm_pile *p)
{
	char	detail[64];
	size_t	i;
	int	card;

	if (!json_is_array(a))
		return fail(ld, what, "missing or not an array");
	if (json_array_size(a) > STM_NCARDS)
		return fail(ld, what, "too many cards");
	p->n = 0;
	for (i = 0; i < json_array_size(a); i++) {
		if (get_card(ld, json_array_get(a, i), what, 0, &card) == -1)
			return -1;
		if (ld->seen[card]) {
			snprintf(detail, sizeof(detail), "card %s appears "
			    "twice", stm_cards[card].id);
			return fail(ld, what, detail);
		}
		ld->seen[card] = 1;
		if ((kind == 'G' && STM_IS_MISSION(card)) ||
		    (kind == 'M' && !STM_IS_MISSION(card))) {
			snprintf(detail, sizeof(detail), "card %s does not "
			    "belong in this deck", stm_cards[card].id);
			return fail(ld, what, detail);
		}
		if (sorted && p->n > 0 && p->cards[p->n - 1] > card)
			return fail(ld, what, "hand not in card order");
		p->cards[p->n++] = card;
	}
	return 0;
}

static int
load_piles(struct loader *ld, const json_t *o, struct stm_state *st)
{
	const json_t	*hands;
	char		 what[32], detail[64];
	int		 seat, c;

	if (get_pile(ld, json_object_get(o, "galaxy_deck"), "galaxy_deck",
	    'G', 0, &st->galaxy) == -1 ||
	    get_pile(ld, json_object_get(o, "mission_deck"), "mission_deck",
	    'M', 0, &st->mission) == -1 ||
	    get_pile(ld, json_object_get(o, "discard"), "discard", 0, 0,
	    &st->discard) == -1)
		return -1;
	hands = json_object_get(o, "hands");
	if (!json_is_array(hands) || json_array_size(hands) !=
	    (size_t)st->nseats)
		return fail(ld, "hands", "not one array per seat");
	for (seat = 0; seat < st->nseats; seat++) {
		snprintf(what, sizeof(what), "hand of seat %d", seat);
		if (get_pile(ld, json_array_get(hands, (size_t)seat), what, 0,
		    1, &st->hand[seat]) == -1)
			return -1;
		if (st->hand[seat].n > STM_HAND_MAX)
			return fail(ld, what, "too many cards");
	}
	for (c = 0; c < STM_NCARDS; c++)
		if (!ld->seen[c]) {
			snprintf(detail, sizeof(detail), "card %s is missing",
			    stm_cards[c].id);
			return fail(ld, "cards", detail);
		}
	return 0;
}

static int
pile_has(const struct stm_pile *p, int card)
{
	int	i;

	for (i = 0; i < p->n; i++)
		if (p->cards[i] == card)
			return 1;
	return 0;
}

/* A hand between turns: seven cards, one or two of them Missions. */
static int
check_turn_hand(struct loader *ld, const struct stm_state *st, int seat,
    int extra_cards, int extra_missions)
{
	char	what[32];
	int	missions;

	snprintf(what, sizeof(what), "hand of seat %d", seat);
	if (st->hand[seat].n != STM_HAND_CARDS + extra_cards)
		return fail(ld, what, "wrong number of cards");
	missions = stm_missions_in(&st->hand[seat]) - extra_missions;
	if (missions < 1 || missions > 2)
		return fail(ld, what, "must hold 1 or 2 Mission cards");
	return 0;
}

static int
load_pending(struct loader *ld, const json_t *o, struct stm_state *st)
{
	struct stm_pending	*p = &st->pending;
	const json_t		*po, *drawn;
	int			 i, seat;

	po = json_object_get(o, "pending");
	memset(p, 0, sizeof(*p));
	p->taken = -1;
	if (!stm_mid_turn(st)) {
		if (!json_is_null(po))
			return fail(ld, "pending", "must be null now");
		return 0;
	}
	if (!json_is_object(po) || json_object_size(po) != 4)
		return fail(ld, "pending", "not a pending turn");
	if (get_name(ld, po, "action", action_names, NACTIONS,
	    &p->action) == -1 ||
	    get_card(ld, json_object_get(po, "taken"), "pending taken", 1,
	    &p->taken) == -1 ||
	    get_int(ld, po, "owed", 1, STM_MAX_DISCARDS, &p->owed) == -1)
		return -1;
	drawn = json_object_get(po, "drawn");
	if (!json_is_array(drawn) || json_array_size(drawn) > 2)
		return fail(ld, "pending drawn", "not a list of up to 2 cards");
	p->ndrawn = (int)json_array_size(drawn);
	for (i = 0; i < p->ndrawn; i++)
		if (get_card(ld, json_array_get(drawn, (size_t)i),
		    "pending drawn", 0, &p->drawn[i]) == -1)
			return -1;
	seat = st->phase == STM_PHASE_DISCARD ? st->current : st->q_seat;
	if (seat < 0)
		return fail(ld, "pending", "no seat to discard");
	if (p->taken >= 0 && !pile_has(&st->hand[seat], p->taken))
		return fail(ld, "pending taken", "not in the hand");
	for (i = 0; i < p->ndrawn; i++)
		if (!pile_has(&st->hand[seat], p->drawn[i]) ||
		    p->drawn[i] == p->taken ||
		    (i == 1 && p->drawn[0] == p->drawn[1]))
			return fail(ld, "pending drawn", "not in the hand, or "
			    "listed twice");
	return 0;
}

/* The half-played turn matches the action it claims to be. */
static int
check_pending_shape(struct loader *ld, const struct stm_state *st)
{
	const struct stm_pending	*p = &st->pending;
	int				 galaxy = 0, missions = 0, i, ok;

	for (i = 0; i < p->ndrawn; i++) {
		if (STM_IS_MISSION(p->drawn[i]))
			missions++;
		else
			galaxy++;
	}
	if (st->phase == STM_PHASE_Q_DISCARD)
		ok = p->action == STM_ACT_Q && galaxy <= 1 && missions <= 1 &&
		    p->owed == stm_q_owed(st, st->q_seat);
	else if (p->action == STM_ACT_TAKE)
		ok = p->taken >= 0 && p->ndrawn == 0 && p->owed == 1;
	else if (p->action == STM_ACT_GALAXY)
		ok = p->taken < 0 && galaxy == 1 && missions == 0 &&
		    p->owed == 1;
	else if (p->action == STM_ACT_MISSIONS)
		ok = p->taken < 0 && galaxy == 0 && missions == 2 &&
		    p->owed == 2;
	else
		ok = 0;
	if (!ok)
		return fail(ld, "pending", "does not match its action");
	return 0;
}

/* Meddlesome Q's holder after the final draw: Q and one other Mission. */
static int
check_q_final_hand(struct loader *ld, const struct stm_state *st)
{
	const struct stm_pile	*h = &st->hand[st->q_seat];

	if (!pile_has(h, STM_MEDDLESOME_Q) || stm_missions_in(h) != 2 ||
	    h->n < STM_HAND_CARDS - 1 || h->n > STM_HAND_CARDS + 2)
		return fail(ld, "hand of Meddlesome Q's holder",
		    "not a hand the final draw could leave");
	return 0;
}

/* Flags, Meddlesome Q's seat and the pending turn agree with the
 * phase. */
static int
check_phase(struct loader *ld, const struct stm_state *st)
{
	const struct stm_pending	*p = &st->pending;
	int				 seat, holder = -1;

	for (seat = 0; seat < st->nseats; seat++)
		if (pile_has(&st->hand[seat], STM_MEDDLESOME_Q))
			holder = seat;
	switch (st->phase) {
	case STM_PHASE_TURN:
	case STM_PHASE_DISCARD:
		if (st->q_seat >= 0)
			return fail(ld, "q_seat", "must be null during play");
		if (st->ending && !st->extra_now)
			return fail(ld, "ending", "set outside an extra turn");
		break;
	case STM_PHASE_Q_DRAW:
	case STM_PHASE_Q_DISCARD:
		if (st->q_seat < 0 || st->q_seat != holder)
			return fail(ld, "q_seat", "not the holder of "
			    "Meddlesome Q");
		/* FALLTHROUGH */
	case STM_PHASE_OVER:
		if (st->phase == STM_PHASE_OVER && st->q_seat != holder &&
		    st->q_seat >= 0)
			return fail(ld, "q_seat", "not the holder of "
			    "Meddlesome Q");
		if (st->phase == STM_PHASE_OVER && st->q_seat < 0 &&
		    holder >= 0)
			return fail(ld, "q_seat", "Meddlesome Q's final draw "
			    "was not made");
		if (!st->ending || st->extra_owed || st->extra_now)
			return fail(ld, "ending", "flags do not match a "
			    "finished game");
		break;
	}
	if (st->ending != (st->end_reasons != 0))
		return fail(ld, "end_reasons", "do not match ending");
	if (stm_mid_turn(st) && check_pending_shape(ld, st) == -1)
		return -1;
	if (st->extra_owed != (st->phase == STM_PHASE_DISCARD &&
	    p->action == STM_ACT_TAKE && p->taken == STM_TIME_DISTORTION))
		return fail(ld, "extra_owed", "does not match the turn");
	return 0;
}

/* Every hand has the size and Missions its seat and the phase allow. */
static int
check_hands(struct loader *ld, const struct stm_state *st)
{
	const struct stm_pending	*p = &st->pending;
	int				 seat, mid, cards, missions, i;

	mid = stm_mid_turn(st) ? stm_acting_seat(st) : -1;
	for (seat = 0; seat < st->nseats; seat++) {
		if (st->phase == STM_PHASE_OVER && seat == st->q_seat) {
			if (check_q_final_hand(ld, st) == -1)
				return -1;
			continue;
		}
		cards = missions = 0;
		if (seat == mid) {	/* what the first half brought in */
			if (p->taken >= 0) {
				cards++;
				missions += STM_IS_MISSION(p->taken);
			}
			for (i = 0; i < p->ndrawn; i++) {
				cards++;
				missions += STM_IS_MISSION(p->drawn[i]);
			}
		}
		if (check_turn_hand(ld, st, seat, cards, missions) == -1)
			return -1;
	}
	return 0;
}

static int
load_last(struct loader *ld, const json_t *o, struct stm_state *st)
{
	struct stm_last	*l = &st->last;
	const json_t	*lo, *d;
	size_t		 i;

	memset(l, 0, sizeof(*l));
	l->seat = -1;
	l->taken = -1;
	lo = json_object_get(o, "last");
	if (json_is_null(lo))
		return 0;
	if (!json_is_object(lo) || json_object_size(lo) != 7)
		return fail(ld, "last", "not a move record");
	if (get_int(ld, lo, "seat", 0, st->nseats - 1, &l->seat) == -1 ||
	    get_name(ld, lo, "action", action_names, NACTIONS, &l->action) ==
	    -1 ||
	    get_card(ld, json_object_get(lo, "taken"), "last taken", 1,
	    &l->taken) == -1 ||
	    get_int(ld, lo, "drew_galaxy", 0, 1, &l->drew_galaxy) == -1 ||
	    get_int(ld, lo, "drew_mission", 0, 2, &l->drew_mission) == -1 ||
	    get_bool(ld, lo, "complete", &l->complete) == -1)
		return -1;
	d = json_object_get(lo, "discarded");
	if (!json_is_array(d) || json_array_size(d) > STM_MAX_DISCARDS)
		return fail(ld, "last discarded",
		    "not a list of up to 2 cards");
	l->ndiscard = (int)json_array_size(d);
	for (i = 0; i < json_array_size(d); i++)
		if (get_card(ld, json_array_get(d, i), "last discarded", 0,
		    &l->discard[i]) == -1)
			return -1;
	return 0;
}

static int
load_end_reasons(struct loader *ld, const json_t *o, struct stm_state *st)
{
	const json_t	*a;
	size_t		 i;
	int		 j, found;

	a = json_object_get(o, "end_reasons");
	if (!json_is_array(a))
		return fail(ld, "end_reasons", "missing or not an array");
	st->end_reasons = 0;
	for (i = 0; i < json_array_size(a); i++) {
		found = -1;
		for (j = 0; j < NEND_REASONS; j++)
			if (json_is_string(json_array_get(a, i)) &&
			    strcmp(json_string_value(json_array_get(a, i)),
			    end_reason_names[j]) == 0)
				found = j;
		if (found < 0 || (st->end_reasons >> found) != 0)
			return fail(ld, "end_reasons", "unknown, repeated or "
			    "out of order");
		st->end_reasons |= 1 << found;
	}
	return 0;
}

static int
load_fields(struct loader *ld, const json_t *o, struct stm_state *st)
{
	const json_t	*q;
	int		 phase;

	if (!json_is_object(o))
		return fail(ld, "state", "not a JSON object");
	if (json_object_size(o) != 17)
		return fail(ld, "state", "unexpected or missing keys");
	if (get_int(ld, o, "ruleset", STM_SCORE_V1, STM_RULESET_VERSION,
	    &st->ruleset) == -1 ||
	    get_int(ld, o, "nseats", STM_MIN_SEATS, STM_MAX_SEATS,
	    &st->nseats) == -1 ||
	    get_name(ld, o, "phase", phase_names, NPHASES, &phase) == -1 ||
	    get_int(ld, o, "first", 0, st->nseats - 1, &st->first) == -1 ||
	    get_int(ld, o, "current", 0, st->nseats - 1, &st->current) == -1 ||
	    get_int(ld, o, "turns", 0, 1000000000, &st->turns) == -1 ||
	    get_bool(ld, o, "extra_owed", &st->extra_owed) == -1 ||
	    get_bool(ld, o, "extra_now", &st->extra_now) == -1 ||
	    get_bool(ld, o, "ending", &st->ending) == -1 ||
	    load_end_reasons(ld, o, st) == -1)
		return -1;
	st->phase = (enum stm_phase)phase;
	q = json_object_get(o, "q_seat");
	st->q_seat = -1;
	if (!json_is_null(q) && get_int(ld, o, "q_seat", 0, st->nseats - 1,
	    &st->q_seat) == -1)
		return -1;
	if (load_piles(ld, o, st) == -1 || load_pending(ld, o, st) == -1 ||
	    load_last(ld, o, st) == -1)
		return -1;
	if (check_phase(ld, st) == -1)
		return -1;
	return check_hands(ld, st);
}

void *
stm_load(const json_t *saved, char *err, size_t errlen)
{
	struct loader		 ld;
	struct stm_state	*st;

	memset(&ld, 0, sizeof(ld));
	ld.err = err;
	ld.errlen = errlen;
	if ((st = calloc(1, sizeof(*st))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (load_fields(&ld, saved, st) == -1) {
		free(st);
		return NULL;
	}
	return st;
}
