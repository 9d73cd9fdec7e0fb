/*
 * respond.c -- "Parry", a small test game for response windows (rules API
 * version 3, docs/ASYNC.md) whose cards are data (version 7: a card
 * module, docs/CARDFILES.md).
 *
 * It exists to exercise the core's response-window mechanism the way
 * Mission to Planet Hexx's Surprises and Captain's Chair's Reactions will:
 * one seat's action opens a window in which every other seat must answer,
 * and the module asks every eligible seat alike, so nobody learns from
 * the question who holds a response card.
 *
 * The game: cards 1..12, each a strike worth some points or a parry, as
 * the game's card file says (rules API version 7, docs/CARDFILES.md;
 * parry.h, cards.c): its own set, rules/respond/cards.yaml, makes 1..8
 * strikes worth their number and 9..12 parries.  The deck is shuffled and each seat is dealt 3 (hidden).  On
 * its turn a seat plays a strike ("strike N"), or "pass" if it holds
 * none.  A strike opens a window: every other seat answers "parry" (only
 * with a parry card in hand) or "pass".  Answers stay hidden until the
 * last one is in; then, if anyone parried, the strike scores nothing and
 * each parrying seat discards its lowest parry card; otherwise the
 * striker scores the card's value.  The turn passes to the next seat.
 * The game ends when no hand holds a strike; the highest score wins and
 * ties share the victory.
 *
 * Default moves: on a turn, the lowest strike (or pass); in a window,
 * pass.  No turn may be skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parry.h"
#include "rules.h"

#define PARRY_HAND	3
#define PARRY_SEATS	4

enum answer {
	ANSWER_NONE = 0,
	ANSWER_PASS = 1,
	ANSWER_PARRY = 2
};

struct parry {
	const struct parry_set *cards;		/* the game's, shared */
	int	nseats;
	int	deck[PARRY_DECK];		/* undealt, hidden */
	int	ndeck;
	int	hand[PARRY_SEATS][PARRY_HAND];	/* 0 = empty slot */
	int	pile[PARRY_DECK];		/* played, public */
	int	npile;
	int	score[PARRY_SEATS];
	int	current;			/* seat whose turn it is */
	int	window;				/* the strike card, 0: none */
	int	answer[PARRY_SEATS];		/* enum answer, in a window */
	int	last_card;			/* last resolved strike, 0 */
	int	last_striker;
	int	last_parried[PARRY_SEATS];	/* who parried it */
};

static int
is_strike(const struct parry *g, int card)
{
	return card >= 1 && card <= PARRY_DECK &&
	    g->cards->kind[card] == PARRY_KIND_STRIKE;
}

/* The lowest card of seat's hand that is a strike (want 1) or a parry
 * (want 0), or 0. */
static int
lowest(const struct parry *g, int seat, int want_strike)
{
	int i, c, low = 0;

	for (i = 0; i < PARRY_HAND; i++) {
		c = g->hand[seat][i];
		if (c != 0 && is_strike(g, c) == want_strike &&
		    (low == 0 || c < low))
			low = c;
	}
	return low;
}

static int
holds(const struct parry *g, int seat, int card)
{
	int i;

	for (i = 0; i < PARRY_HAND; i++)
		if (card != 0 && g->hand[seat][i] == card)
			return 1;
	return 0;
}

static void
drop(struct parry *g, int seat, int card)
{
	int i;

	for (i = 0; i < PARRY_HAND; i++)
		if (g->hand[seat][i] == card) {
			g->hand[seat][i] = 0;
			break;
		}
	g->pile[g->npile++] = card;
}

static int
game_over(const struct parry *g)
{
	int s;

	if (g->window != 0)
		return 0;
	for (s = 0; s < g->nseats; s++)
		if (lowest(g, s, 1) != 0)
			return 0;
	return 1;
}

static void *
parry_setup(const void *cards, int nseats, const json_t *options,
    struct rules_rng *rng, char *err, size_t errlen)
{
	struct parry *g;
	int i, s;

	if (nseats < 2 || nseats > PARRY_SEATS) {
		snprintf(err, errlen, "Parry is for 2 to 4 players, not %d",
		    nseats);
		return NULL;
	}
	if (json_object_size(options) != 0) {
		snprintf(err, errlen, "Parry has no options; remove \"%s\"",
		    json_object_iter_key(json_object_iter((json_t *)options)));
		return NULL;
	}
	if ((g = calloc(1, sizeof(*g))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	g->cards = cards;
	g->nseats = nseats;
	for (i = 0; i < PARRY_DECK; i++)
		g->deck[i] = i + 1;
	rules_rng_shuffle(rng, g->deck, PARRY_DECK);
	g->ndeck = PARRY_DECK;
	for (s = 0; s < nseats; s++)
		for (i = 0; i < PARRY_HAND; i++)
			g->hand[s][i] = g->deck[--g->ndeck];
	g->current = (int)rules_rng_below(rng, (uint32_t)nseats);
	g->last_striker = -1;
	return g;
}

static void
parry_destroy(void *state)
{
	free(state);
}

/* The cards of a hand, without its empty slots. */
static json_t *
hand_array(const int *hand)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < PARRY_HAND; i++)
		if (hand[i] != 0)
			json_array_append_new(a, json_integer(hand[i]));
	return a;
}

static json_t *
parry_save(const void *state)
{
	const struct parry *g = state;
	json_t *hands = json_array();
	int s;

	for (s = 0; s < g->nseats; s++)
		json_array_append_new(hands,
		    rules_json_ints(g->hand[s], PARRY_HAND));
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:i, s:i, s:o, s:i, s:i,"
	    " s:o}",
	    "nseats", g->nseats,
	    "deck", rules_json_ints(g->deck, g->ndeck),
	    "hands", hands,
	    "pile", rules_json_ints(g->pile, g->npile),
	    "scores", rules_json_ints(g->score, g->nseats),
	    "current", g->current,
	    "window", g->window,
	    "answers", rules_json_ints(g->answer, g->nseats),
	    "last_card", g->last_card,
	    "last_striker", g->last_striker,
	    "last_parried", rules_json_ints(g->last_parried, g->nseats));
}

/* Every card exactly once across deck, hands, pile and the open strike. */
static int
cards_conserved(const struct parry *g)
{
	int seen[PARRY_DECK + 1] = { 0 };
	int i, s;

	for (i = 0; i < g->ndeck; i++)
		seen[g->deck[i]]++;
	for (i = 0; i < g->npile; i++)
		seen[g->pile[i]]++;
	for (s = 0; s < g->nseats; s++)
		for (i = 0; i < PARRY_HAND; i++)
			seen[g->hand[s][i]]++;
	if (g->window != 0)
		seen[g->window]++;
	for (i = 1; i <= PARRY_DECK; i++)
		if (seen[i] != 1)
			return 0;
	return 1;
}

static void *
parry_load(const void *cards, const json_t *saved, char *err, size_t errlen)
{
	struct parry g, *copy;
	json_t *hands;
	int s, n;

	memset(&g, 0, sizeof(g));
	g.cards = cards;
	if (json_unpack((json_t *)saved, "{s:i, s:o, s:i, s:i, s:i, s:i}",
	    "nseats", &g.nseats, "hands", &hands, "current", &g.current,
	    "window", &g.window, "last_card", &g.last_card, "last_striker",
	    &g.last_striker) != 0 || g.nseats < 2 ||
	    g.nseats > PARRY_SEATS || g.current < 0 ||
	    g.current >= g.nseats || !json_is_array(hands) ||
	    json_array_size(hands) != (size_t)g.nseats ||
	    (g.window != 0 && !is_strike(&g, g.window)) ||
	    (g.last_card != 0 && !is_strike(&g, g.last_card)) ||
	    g.last_striker < -1 || g.last_striker >= g.nseats)
		goto bad;
	if (rules_json_read_ints(json_object_get(saved, "deck"), g.deck,
	    PARRY_DECK, 1, PARRY_DECK, &g.ndeck) != 0 ||
	    rules_json_read_ints(json_object_get(saved, "pile"), g.pile,
	    PARRY_DECK, 1, PARRY_DECK, &g.npile) != 0 ||
	    rules_json_read_ints(json_object_get(saved, "scores"), g.score,
	    g.nseats, 0, PARRY_DECK * PARRY_MAX_VALUE, &n) != 0 ||
	    n != g.nseats ||
	    rules_json_read_ints(json_object_get(saved, "answers"), g.answer,
	    g.nseats, ANSWER_NONE, ANSWER_PARRY, &n) != 0 || n != g.nseats ||
	    rules_json_read_ints(json_object_get(saved, "last_parried"),
	    g.last_parried, g.nseats, 0, 1, &n) != 0 || n != g.nseats)
		goto bad;
	for (s = 0; s < g.nseats; s++)
		if (rules_json_read_ints(json_array_get(hands, (size_t)s),
		    g.hand[s], PARRY_HAND, 0, PARRY_DECK, &n) != 0 ||
		    n != PARRY_HAND)
			goto bad;
	/* Answers exist only in a window, and never from the striker. */
	for (s = 0; s < g.nseats; s++)
		if (g.answer[s] != ANSWER_NONE &&
		    (g.window == 0 || s == g.current))
			goto bad;
	if (!cards_conserved(&g))
		goto bad;
	if ((copy = malloc(sizeof(*copy))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	*copy = g;
	return copy;
bad:
	snprintf(err, errlen, "saved Parry state is not valid");
	return NULL;
}

static int
parry_to_act(const void *state, int *seats, int max)
{
	const struct parry *g = state;
	int s, n = 0;

	if (game_over(g))
		return 0;
	if (g->window == 0) {
		if (max > 0)
			seats[0] = g->current;
		return 1;
	}
	/* Every other seat is asked, whether it holds a parry or not. */
	for (s = 0; s < g->nseats; s++)
		if (s != g->current && g->answer[s] == ANSWER_NONE) {
			if (n < max)
				seats[n] = s;
			n++;
		}
	return n;
}

static int
parry_response_window(const void *state)
{
	const struct parry *g = state;

	return g->window != 0;
}

static enum rules_status
parry_parse(const void *state, int seat, const char *text,
    enum rules_lang lang, json_t **move, char *err, size_t errlen)
{
	char folded[128], extra;
	int card;

	(void)state;
	(void)seat;
	if (rules_fold(text, folded, sizeof(folded)) != 0)
		goto bad;
	if (sscanf(folded, "strike %d %c", &card, &extra) == 1 ||
	    sscanf(folded, "frapper %d %c", &card, &extra) == 1) {
		*move = json_pack("{s:s, s:i}", "act", "strike", "card", card);
		return RULES_OK;
	}
	if (strcmp(folded, "parry") == 0 || strcmp(folded, "parer") == 0) {
		*move = json_pack("{s:s}", "act", "parry");
		return RULES_OK;
	}
	if (strcmp(folded, "pass") == 0 || strcmp(folded, "passer") == 0) {
		*move = json_pack("{s:s}", "act", "pass");
		return RULES_OK;
	}
bad:
	snprintf(err, errlen, lang == RULES_LANG_FR ?
	    "coup non compris : \"%s\" ; écrivez « frapper N », « parer » ou "
	    "« passer »" : "move not understood: \"%s\"; write \"strike N\", "
	    "\"parry\" or \"pass\"", text);
	return RULES_SYNTAX;
}

static enum rules_status
parry_translate(const void *state, int seat, const char *text,
    enum rules_lang lang, char *out, size_t outlen)
{
	char err[RULES_ERRLEN];
	const char *act;
	json_t *move;
	enum rules_status rc;
	int n, fr = lang == RULES_LANG_FR;

	if ((rc = parry_parse(state, seat, text, lang, &move, err,
	    sizeof(err))) != RULES_OK)
		return rc;
	act = json_string_value(json_object_get(move, "act"));
	if (strcmp(act, "strike") == 0)
		n = snprintf(out, outlen, "%s %d", fr ? "frapper" : "strike",
		    (int)json_integer_value(json_object_get(move, "card")));
	else if (strcmp(act, "parry") == 0)
		n = snprintf(out, outlen, "%s", fr ? "parer" : "parry");
	else
		n = snprintf(out, outlen, "%s", fr ? "passer" : "pass");
	json_decref(move);
	return n < 0 || (size_t)n >= outlen ? RULES_SYNTAX : RULES_OK;
}

static enum rules_status
parry_check(const void *state, int seat, const json_t *move,
    enum rules_lang lang, char *err, size_t errlen)
{
	const struct parry *g = state;
	const char *act = json_string_value(json_object_get(move, "act"));
	int card = (int)json_integer_value(json_object_get(move, "card"));
	int fr = lang == RULES_LANG_FR, s, asked = 0, n, max = PARRY_SEATS;
	int seats[PARRY_SEATS];

	if (game_over(g)) {
		snprintf(err, errlen, fr ? "la partie est terminée" :
		    "the game is over");
		return RULES_GAME_OVER;
	}
	n = parry_to_act(g, seats, max);
	for (s = 0; s < n && s < max; s++)
		if (seats[s] == seat)
			asked = 1;
	if (!asked) {
		snprintf(err, errlen, fr ? "ce n'est pas votre tour" :
		    "it is not your turn");
		return RULES_NOT_YOUR_TURN;
	}
	if (g->window != 0) {
		if (strcmp(act, "pass") == 0)
			return RULES_OK;
		if (strcmp(act, "parry") == 0 && lowest(g, seat, 0) != 0)
			return RULES_OK;
		snprintf(err, errlen, strcmp(act, "parry") == 0 ? (fr ?
		    "vous n'avez pas de carte de parade ; répondez « passer »" :
		    "you hold no parry card; answer \"pass\"") : (fr ?
		    "une frappe attend votre réponse : « parer » ou « passer »" :
		    "a strike awaits your answer: \"parry\" or \"pass\""));
		return RULES_ILLEGAL;
	}
	if (strcmp(act, "strike") == 0 && is_strike(g, card) &&
	    holds(g, seat, card))
		return RULES_OK;
	if (strcmp(act, "pass") == 0 && lowest(g, seat, 1) == 0)
		return RULES_OK;
	if (lowest(g, seat, 1) == 0)
		snprintf(err, errlen, fr ? "vous n'avez plus de frappe ; "
		    "jouez « passer »" : "you hold no strike; play \"pass\"");
	else
		snprintf(err, errlen, fr ? "jouez « frapper N » avec une "
		    "frappe de votre main (%s)" : "play \"strike N\" with a "
		    "strike card of your hand (%s)", fr ? g->cards->strikes_fr :
		    g->cards->strikes_en);
	return RULES_ILLEGAL;
}

/* The last answer is in: resolve the strike and pass the turn. */
static void
resolve(struct parry *g)
{
	int s, parried = 0;

	for (s = 0; s < g->nseats; s++) {
		g->last_parried[s] = g->answer[s] == ANSWER_PARRY;
		if (g->last_parried[s]) {
			parried = 1;
			drop(g, s, lowest(g, s, 0));
		}
		g->answer[s] = ANSWER_NONE;
	}
	if (!parried)
		g->score[g->current] += g->cards->value[g->window];
	g->pile[g->npile++] = g->window;
	g->last_card = g->window;
	g->last_striker = g->current;
	g->window = 0;
	g->current = (g->current + 1) % g->nseats;
}

static void
parry_apply(void *state, int seat, const json_t *move,
    struct rules_rng *rng)
{
	struct parry *g = state;
	const char *act = json_string_value(json_object_get(move, "act"));
	int card = (int)json_integer_value(json_object_get(move, "card"));
	int seats[PARRY_SEATS];

	(void)rng;
	if (g->window != 0) {
		g->answer[seat] = strcmp(act, "parry") == 0 ? ANSWER_PARRY :
		    ANSWER_PASS;
		if (parry_to_act(g, seats, PARRY_SEATS) == 0)
			resolve(g);
		return;
	}
	if (strcmp(act, "strike") == 0) {
		int i;

		for (i = 0; i < PARRY_HAND; i++)
			if (g->hand[seat][i] == card)
				g->hand[seat][i] = 0;
		g->window = card;
		return;
	}
	g->current = (g->current + 1) % g->nseats;	/* pass */
}

static enum rules_status
parry_default_move(const void *state, int seat, char *out, size_t outlen)
{
	const struct parry *g = state;
	char err[RULES_ERRLEN];
	json_t *pass = json_pack("{s:s}", "act", "pass");
	enum rules_status rc;
	int n, card;

	rc = parry_check(g, seat, pass, RULES_LANG_EN, err, sizeof(err));
	json_decref(pass);
	if (g->window == 0 && rc == RULES_ILLEGAL &&
	    (card = lowest(g, seat, 1)) != 0)
		n = snprintf(out, outlen, "strike %d", card);
	else if (rc == RULES_OK)
		n = snprintf(out, outlen, "pass");
	else
		return rc;
	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}

/* sample_illegal_move (api_version 5): in a window, a strike (only
 * "parry" or "pass" answer one); on a turn, a strike with the lowest
 * strike card the seat does not hold.  From its own hand only. */
static enum rules_status
parry_sample_illegal_move(const void *state, int seat, char *out,
    size_t outlen)
{
	const struct parry *g = state;
	int seats[PARRY_SEATS], nact, s, asked = 0, card, n;

	nact = parry_to_act(g, seats, PARRY_SEATS);
	for (s = 0; s < nact && s < PARRY_SEATS; s++)
		asked |= seats[s] == seat;
	if (game_over(g) || !asked)
		return RULES_NOT_YOUR_TURN;
	for (card = 1; card < PARRY_DECK && g->window == 0 &&
	    (!is_strike(g, card) || holds(g, seat, card)); card++)
		;
	n = snprintf(out, outlen, "strike %d", card);
	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}

static json_t *
parry_view(const void *state, int viewer)
{
	const struct parry *g = state;
	json_t *view, *seats, *to_act = json_array(), *answered = json_array();
	int act[PARRY_SEATS], n, s, full = viewer == RULES_VIEW_FULL;

	n = parry_to_act(g, act, PARRY_SEATS);
	for (s = 0; s < n && s < PARRY_SEATS; s++)
		json_array_append_new(to_act, json_integer(act[s]));
	seats = json_array();
	for (s = 0; s < g->nseats; s++) {
		int left = 0, i;
		json_t *seat;

		for (i = 0; i < PARRY_HAND; i++)
			left += g->hand[s][i] != 0;
		seat = json_pack("{s:i, s:i, s:i}", "seat", s, "cards_left",
		    left, "score", g->score[s]);
		if (viewer == s || full)
			json_object_set_new(seat, "hand",
			    hand_array(g->hand[s]));
		/* An answer is seen by its seat alone until all are in. */
		if (g->window != 0 && g->answer[s] != ANSWER_NONE &&
		    (viewer == s || full))
			json_object_set_new(seat, "answer", json_string(
			    g->answer[s] == ANSWER_PARRY ? "parry" : "pass"));
		if (g->window != 0 && g->answer[s] != ANSWER_NONE)
			json_array_append_new(answered, json_integer(s));
		json_array_append_new(seats, seat);
	}
	view = json_pack("{s:s, s:o, s:b, s:i, s:o, s:o}", "game", "respond",
	    "to_act", to_act, "over", game_over(g), "current", g->current,
	    "pile", rules_json_ints(g->pile, g->npile), "seats", seats);
	if (g->window != 0)
		json_object_set_new(view, "window", json_pack(
		    "{s:i, s:i, s:i, s:o}", "striker", g->current,
		    "striker_seat", g->current, "card", g->window, "answered",
		    answered));
	else
		json_decref(answered);
	if (g->last_card != 0)
		json_object_set_new(view, "last", json_pack(
		    "{s:i, s:i, s:i, s:o}", "striker", g->last_striker,
		    "striker_seat", g->last_striker, "card", g->last_card,
		    "parried_by", rules_json_ints(g->last_parried, g->nseats)));
	if (full)
		json_object_set_new(view, "deck",
		    rules_json_ints(g->deck, g->ndeck));
	return view;
}

static json_t *
parry_legal_moves(const void *state, int seat)
{
	const struct parry *g = state;
	json_t *moves = json_array(), *probe;
	char err[RULES_ERRLEN], text[32];
	int i;

	probe = json_pack("{s:s}", "act", "pass");
	if (parry_check(g, seat, probe, RULES_LANG_EN, err, sizeof(err)) ==
	    RULES_OK)
		json_array_append_new(moves, json_string("pass"));
	json_decref(probe);
	if (g->window != 0) {
		if (json_array_size(moves) > 0 && lowest(g, seat, 0) != 0)
			json_array_append_new(moves, json_string("parry"));
		return moves;
	}
	if (game_over(g) || seat != g->current)
		return moves;
	for (i = 0; i < PARRY_HAND; i++)
		if (is_strike(g, g->hand[seat][i])) {
			snprintf(text, sizeof(text), "strike %d",
			    g->hand[seat][i]);
			json_array_append_new(moves, json_string(text));
		}
	return moves;
}

static json_t *
parry_move_forms(const void *state, int seat, enum rules_lang lang)
{
	json_t *moves = parry_legal_moves(state, seat), *forms = json_array();
	char text[64];
	size_t i;

	for (i = 0; i < json_array_size(moves); i++) {
		if (parry_translate(state, seat, json_string_value(
		    json_array_get(moves, i)), lang, text, sizeof(text)) ==
		    RULES_OK)
			json_array_append_new(forms, json_string(text));
	}
	json_decref(moves);
	return forms;
}

static json_t *
parry_result(const void *state)
{
	const struct parry *g = state;
	json_t *winners;
	int s, best = -1;

	if (!game_over(g))
		return NULL;
	for (s = 0; s < g->nseats; s++)
		if (g->score[s] > best)
			best = g->score[s];
	winners = json_array();
	for (s = 0; s < g->nseats; s++)
		if (g->score[s] == best)
			json_array_append_new(winners, json_integer(s));
	return json_pack("{s:o, s:o}", "scores",
	    rules_json_ints(g->score, g->nseats), "winners", winners);
}

/* The names of the seats that parried the last strike, joined with
 * ", " into out. */
static void
parried_names(const struct parry *g, const char *const *names, char *out,
    size_t outlen)
{
	size_t used = 0;
	int s;

	out[0] = '\0';
	for (s = 0; s < g->nseats && used < outlen; s++)
		if (g->last_parried[s])
			used += (size_t)snprintf(out + used, outlen - used,
			    "%s%s", used > 0 ? ", " : "", names[s]);
}

/*
 * describe_last (api_version 5).  An answer stays hidden until the last
 * one is in, so an answer that leaves the window open is only
 * "answered"; the last one resolves the strike, and the line tells the
 * outcome the view now shows.  A pass on a turn moves the turn to the
 * next seat; a resolution moves it to the striker's next.
 */
static enum rules_status
parry_describe_last(const void *state, int seat, const char *const *names,
    enum rules_lang lang, char *out, size_t outlen)
{
	const struct parry *g = state;
	const char *striker;
	char who[PARRY_SEATS * 72];
	int fr = lang == RULES_LANG_FR, n;

	if (g->window != 0 && seat == g->current)
		n = snprintf(out, outlen, fr ? "%s frappe avec %d ; les "
		    "autres répondent" : "%s strikes with %d; the others "
		    "answer", names[seat], g->window);
	else if (g->window != 0)
		n = snprintf(out, outlen, fr ? "%s a répondu" :
		    "%s answered", names[seat]);
	else if ((seat + 1) % g->nseats == g->current || g->last_card == 0)
		n = snprintf(out, outlen, fr ? "%s passe" : "%s passed",
		    names[seat]);
	else {
		striker = names[g->last_striker];
		parried_names(g, names, who, sizeof(who));
		if (who[0] != '\0' && fr)
			n = snprintf(out, outlen, "%s a répondu ; la frappe "
			    "de %s (%d) est parée par %s", names[seat],
			    striker, g->last_card, who);
		else if (who[0] != '\0')
			n = snprintf(out, outlen, "%s answered; %s's strike "
			    "(%d) was parried by %s", names[seat], striker,
			    g->last_card, who);
		else
			n = snprintf(out, outlen, fr ? "%s a répondu ; "
			    "personne ne pare, %s marque %d" : "%s answered; "
			    "nobody parried, %s scores %d", names[seat],
			    striker, g->last_card);
	}
	return n >= 0 && (size_t)n < outlen ? RULES_OK : RULES_ILLEGAL;
}

const struct rules_module respond_module = {
	.api_version = RULES_API_VERSION,
	.name = "respond",
	.ruleset_version = 2,	/* 2: the cards come from a card file */
	.title_en = "Parry (response-window test game)",
	.title_fr = "Parade (jeu d'essai des fenêtres de réponse)",
	.summary_en = "Strike with a card; every other player answers parry "
	    "or pass, without knowing who holds a parry.",
	.summary_fr = "Frappez avec une carte ; chaque autre joueur répond "
	    "parer ou passer, sans savoir qui tient une parade.",
	.min_seats = 2,
	.max_seats = PARRY_SEATS,
	.setup = NULL,		/* a card module: setup_cards, load_cards */
	.destroy = parry_destroy,
	.save = parry_save,
	.load = NULL,
	.to_act = parry_to_act,
	.parse = parry_parse,
	.check = parry_check,
	.apply = parry_apply,
	.view = parry_view,
	.legal_moves = parry_legal_moves,
	.move_forms = parry_move_forms,
	.result = parry_result,
	.score_cards = NULL,
	.translate = parry_translate,
	.default_move = parry_default_move,
	.skip_check = NULL,
	.skip_apply = NULL,
	.response_window = parry_response_window,
	.describe_last = parry_describe_last,
	.sample_illegal_move = parry_sample_illegal_move,
	.cards_parse = parry_cards_parse,
	.cards_free = parry_cards_free,
	.setup_cards = parry_setup,
	.load_cards = parry_load,
};
