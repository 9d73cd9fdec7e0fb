/*
 * stmissions.c -- Star Trek: Missions: the module table, the opening
 * position, who acts, and the final result.
 *
 * The other stages live beside this file (see stmissions.h): parse.c
 * reads moves, turn.c checks and plays them, view.c shows the game,
 * state.c saves and loads it.  docs/stmissions.md states the rules as
 * implemented and every interpretation made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stmissions.h"
#include "score.h"

int
stm_missions_in(const struct stm_pile *p)
{
	int	i, n = 0;

	for (i = 0; i < p->n; i++)
		if (STM_IS_MISSION(p->cards[i]))
			n++;
	return n;
}

/* Is a turn (or Meddlesome Q's draw) half played, discards owed? */
int
stm_mid_turn(const struct stm_state *st)
{
	return st->phase == STM_PHASE_DISCARD ||
	    st->phase == STM_PHASE_Q_DISCARD;
}

/* The seat that must act now, or -1 once the game is over. */
int
stm_acting_seat(const struct stm_state *st)
{
	switch (st->phase) {
	case STM_PHASE_TURN:
	case STM_PHASE_DISCARD:
		return st->current;
	case STM_PHASE_Q_DRAW:
	case STM_PHASE_Q_DISCARD:
		return st->q_seat;
	case STM_PHASE_OVER:
		break;
	}
	return -1;
}

int
stm_seat_must_act(const struct stm_state *st, int seat)
{
	return seat >= 0 && seat == stm_acting_seat(st);
}

static int
stm_to_act(const void *state, int *seats, int max)
{
	int	seat;

	if ((seat = stm_acting_seat(state)) < 0)
		return 0;
	if (max > 0)
		seats[0] = seat;
	return 1;
}

/* Keep a hand in ascending card order. */
static void
deal_card(struct stm_pile *from, struct stm_pile *hand)
{
	int	card, i;

	card = from->cards[0];
	from->n--;
	memmove(from->cards, from->cards + 1, (size_t)from->n * sizeof(int));
	for (i = hand->n; i > 0 && hand->cards[i - 1] > card; i--)
		hand->cards[i] = hand->cards[i - 1];
	hand->cards[i] = card;
	hand->n++;
}

/*
 * Setup, in this order so a replay draws the same numbers: shuffle the
 * Galaxy deck, shuffle the Mission deck, deal each seat in turn five
 * Galaxy then two Mission cards from the tops, draw the first player.
 * The deal is the same for every ruleset version (STM_SCORE_V1 ..
 * STM_RULESET_VERSION); the version is kept in the state and chooses the
 * scoring readings (score.h).
 */
static void *
stm_setup_version(int version, int nseats, const json_t *options,
    struct rules_rng *rng, char *err, size_t errlen)
{
	struct stm_state	*st;
	const char		*key;
	json_t			*value;
	int			 seat, i;

	if (nseats < STM_MIN_SEATS || nseats > STM_MAX_SEATS) {
		snprintf(err, errlen, "Star Trek: Missions is played by 2 to "
		    "4 players, not %d", nseats);
		return NULL;
	}
	if (options != NULL && !json_is_object(options)) {
		snprintf(err, errlen, "options must be a JSON object");
		return NULL;
	}
	json_object_foreach((json_t *)options, key, value) {
		snprintf(err, errlen, "unknown option \"%s\": Star Trek: "
		    "Missions has no options", key);
		return NULL;
	}
	if ((st = calloc(1, sizeof(*st))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	st->ruleset = version;
	st->nseats = nseats;
	st->phase = STM_PHASE_TURN;
	st->q_seat = -1;
	st->pending.taken = -1;
	st->last.seat = -1;
	st->last.taken = -1;
	for (i = 0; i < STM_NGALAXY; i++)
		st->galaxy.cards[st->galaxy.n++] = i;
	for (i = STM_NGALAXY; i < STM_NCARDS; i++)
		st->mission.cards[st->mission.n++] = i;
	rules_rng_shuffle(rng, st->galaxy.cards, (size_t)st->galaxy.n);
	rules_rng_shuffle(rng, st->mission.cards, (size_t)st->mission.n);
	for (seat = 0; seat < nseats; seat++) {
		for (i = 0; i < STM_DEAL_GALAXY; i++)
			deal_card(&st->galaxy, &st->hand[seat]);
		for (i = 0; i < STM_DEAL_MISSION; i++)
			deal_card(&st->mission, &st->hand[seat]);
	}
	st->first = (int)rules_rng_below(rng, (uint32_t)nseats);
	st->current = st->first;
	return st;
}

static void *
stm_setup(int nseats, const json_t *options, struct rules_rng *rng,
    char *err, size_t errlen)
{
	return stm_setup_version(STM_RULESET_VERSION, nseats, options, rng,
	    err, errlen);
}

static void
stm_destroy(void *state)
{
	free(state);
}

/* result: NULL until the game is over. */
json_t *
stm_result(const void *state)
{
	const struct stm_state	*st = state;
	struct stm_hand_score	 score;
	json_t			*scores, *winners, *en, *fr, *res;
	int			 seat, best = 0, total[STM_MAX_SEATS];

	if (st->phase != STM_PHASE_OVER)
		return NULL;
	scores = json_array();
	winners = json_array();
	en = json_array();
	fr = json_array();
	for (seat = 0; seat < st->nseats; seat++) {
		/* load() and apply() keep every hand scorable. */
		if (stm_score_hand_at(st->ruleset, st->hand[seat].cards,
		    st->hand[seat].n, &score) == -1)
			abort();
		total[seat] = score.total;
		if (seat == 0 || score.total > best)
			best = score.total;
		json_array_append_new(scores, json_integer(score.total));
		json_array_append_new(en, stm_score_json(&score,
		    RULES_LANG_EN));
		json_array_append_new(fr, stm_score_json(&score,
		    RULES_LANG_FR));
	}
	for (seat = 0; seat < st->nseats; seat++)
		if (total[seat] == best)
			json_array_append_new(winners, json_integer(seat));
	res = json_object();
	json_object_set_new(res, "scores", scores);
	json_object_set_new(res, "winners", winners);
	json_object_set_new(res, "breakdown", en);
	json_object_set_new(res, "breakdown_fr", fr);
	return res;
}

/* The message for a card that was not found in a list. */
static void
msg_not_found(struct stm_msg *msg, const struct stm_lookup *lk,
    enum rules_lang lang)
{
	if (lk->ncand == 0)
		stm_msg_add(msg, stm_tr(lang, "No card is called \"%s\".",
		    "Aucune carte ne s'appelle « %s »."), lk->query);
	else
		stm_msg_add(msg, stm_tr(lang, "\"%s\" names several cards; "
		    "give more of the name or the id.", "« %s » désigne "
		    "plusieurs cartes ; précisez le nom ou donnez "
		    "l'identifiant."), lk->query);
}

/*
 * "G27, Commander Kurn, Bridge": up to STM_HAND_MAX distinct cards into
 * cards[], their number into *ncards; -1 with the reason in msg.
 */
static int
read_card_list(const struct stm_tokens *t, enum rules_lang lang,
    int *cards, int *ncards, struct stm_msg *msg)
{
	struct stm_context	ctx = { { NULL, NULL } };
	struct stm_lookup	lk;
	int			p = 0, next, i;

	for (*ncards = 0; p < t->n; p = next) {
		if (stm_is_sep(t->tok[p])) {
			next = p + 1;
			continue;
		}
		stm_find_card(t, p, &ctx, &lk, &next);
		if (lk.card < 0) {
			msg_not_found(msg, &lk, lang);
			return -1;
		}
		for (i = 0; i < *ncards; i++)
			if (cards[i] == lk.card) {
				stm_msg_card(msg, lk.card, lang);
				stm_msg_add(msg, "%s", stm_tr(lang, " is named "
				    "twice.", " est nommée deux fois."));
				return -1;
			}
		if (*ncards == STM_HAND_MAX) {
			stm_msg_add(msg, stm_tr(lang, "A hand has at most %d "
			    "cards.", "Une main compte au plus %d cartes."),
			    STM_HAND_MAX);
			return -1;
		}
		cards[(*ncards)++] = lk.card;
		if (next < t->n && !stm_is_sep(t->tok[next])) {
			stm_msg_add(msg, stm_tr(lang, "Separate the cards "
			    "with commas (after \"%s\").", "Séparez les cartes "
			    "par des virgules (après « %s »)."),
			    stm_cards[lk.card].id);
			return -1;
		}
	}
	if (*ncards == 0) {
		stm_msg_add(msg, "%s", stm_tr(lang, "No cards given: list "
		    "ids or names separated by commas.", "Aucune carte : "
		    "donnez des identifiants ou des noms séparés par des "
		    "virgules."));
		return -1;
	}
	return 0;
}

/* score_cards: a list of cards scored as a final hand, with the newest
 * readings (pbemctl score has no game to take a version from). */
json_t *
stm_score_text(const char *text, enum rules_lang lang, char *err,
    size_t errlen)
{
	struct stm_hand_score	 score;
	struct stm_msg		 msg;
	struct stm_tokens	*t;
	json_t			*res = NULL;
	int			 cards[STM_HAND_MAX], ncards;

	stm_msg_init(&msg, err, errlen);
	if ((t = malloc(sizeof(*t))) == NULL) {
		stm_msg_add(&msg, "out of memory");
		return NULL;
	}
	if (stm_tokenize(text, t) == -1)
		stm_msg_add(&msg, "%s", stm_tr(lang, "The list is too long.",
		    "La liste est trop longue."));
	else if (read_card_list(t, lang, cards, &ncards, &msg) == 0) {
		if (stm_score_hand(cards, ncards, &score) == 0)
			res = stm_score_json(&score, lang);
		else
			stm_msg_add(&msg, "%s", stm_tr(lang, "These cards "
			    "cannot be scored as a hand.", "Ces cartes ne "
			    "forment pas une main qui se compte."));
	}
	free(t);
	return res;
}

/* Whether text is a legal move for seat now (parse and check pass). */
static int
stm_text_legal(const void *state, int seat, const char *text)
{
	char err[RULES_ERRLEN];
	json_t *move = NULL;
	int ok;

	ok = stm_parse(state, seat, text, RULES_LANG_EN, &move, err,
	    sizeof(err)) == RULES_OK && stm_check(state, seat, move,
	    RULES_LANG_EN, err, sizeof(err)) == RULES_OK;
	json_decref(move);
	return ok;
}

/*
 * default_move (api_version 3; docs/stmissions.md, "Missed deadlines"):
 * on a turn, draw from the Galaxy deck and discard the drawn card (from
 * the Mission deck when the Galaxy deck cannot be drawn); in any other
 * phase, the first move legal_moves() lists.
 */
static enum rules_status
stm_default_move(const void *state, int seat, char *out, size_t outlen)
{
	static const char *const turn_moves[] = {
		"draw galaxy, discard drawn",
		"draw missions, discard drawn",
	};
	const struct stm_state *st = state;
	const char *text = NULL;
	json_t *moves;
	size_t i;
	int n;

	if (!stm_seat_must_act(st, seat))
		return RULES_NOT_YOUR_TURN;
	if (st->phase == STM_PHASE_TURN)
		for (i = 0; i < 2 && text == NULL; i++)
			if (stm_text_legal(state, seat, turn_moves[i]))
				text = turn_moves[i];
	moves = stm_legal_moves(state, seat);
	if (text == NULL)
		text = json_string_value(json_array_get(moves, 0));
	n = text == NULL ? -1 : snprintf(out, outlen, "%s", text);
	json_decref(moves);
	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}

/*
 * sample_illegal_move (api_version 5): "take C, discard C" for the first
 * card C (in the cards' order) for which check() refuses it -- a card
 * that is not in the discard area, or one the seat cannot discard; in a
 * phase that takes no such move, the first card already.  Which texts
 * are refused depends only on what the seat may see (check() is held to
 * that by tests/check_nopeek.c), so the choice reveals nothing.
 */
static enum rules_status
stm_sample_illegal_move(const void *state, int seat, char *out,
    size_t outlen)
{
	char text[64];
	int c, n;

	if (!stm_seat_must_act(state, seat))
		return RULES_NOT_YOUR_TURN;
	for (c = 0; c < STM_NCARDS; c++) {
		snprintf(text, sizeof(text), "take %s, discard %s",
		    stm_cards[c].id, stm_cards[c].id);
		if (!stm_text_legal(state, seat, text))
			break;
	}
	if (c == STM_NCARDS)	/* every one legal: not in these rules */
		return RULES_ILLEGAL;
	n = snprintf(out, outlen, "%s", text);
	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}

const struct rules_module stmissions_module = {
	.api_version = RULES_API_VERSION,
	.name = "stmissions",
	.ruleset_version = STM_RULESET_VERSION,
	.title_en = "Star Trek: Missions",
	.title_fr = "Star Trek : Missions",
	.summary_en = "Build the best seven-card hand from Galaxy and "
	    "Mission cards.  Each turn take a card from the discard area or "
	    "draw from the Galaxy or Mission deck, then discard; keep one or "
	    "two Missions.  The game ends when the discard area holds eight "
	    "Galaxy or twelve Mission cards; the highest hand wins.",
	.summary_fr = "Formez la meilleure main de sept cartes Galaxie et "
	    "Mission.  À votre tour, prenez une carte de la défausse ou "
	    "piochez dans la pioche Galaxie ou Mission, puis défaussez ; "
	    "gardez une ou deux Missions.  La partie s'arrête quand la "
	    "défausse compte huit cartes Galaxie ou douze cartes Mission ; "
	    "la meilleure main gagne.",
	.min_seats = STM_MIN_SEATS,
	.max_seats = STM_MAX_SEATS,
	.setup = stm_setup,
	.oldest_ruleset_version = STM_SCORE_V1,
	.setup_version = stm_setup_version,
	.destroy = stm_destroy,
	.save = stm_save,
	.load = stm_load,
	.to_act = stm_to_act,
	.parse = stm_parse,
	.check = stm_check,
	.apply = stm_apply,
	.view = stm_view,
	.legal_moves = stm_legal_moves,
	.move_forms = stm_move_forms,
	.result = stm_result,
	.score_cards = stm_score_text,
	.translate = stm_translate,
	.default_move = stm_default_move,
	.skip_check = NULL,
	.skip_apply = NULL,
	.response_window = NULL,
	.describe_last = stm_describe_last,
	.sample_illegal_move = stm_sample_illegal_move,
	.bot_move = stm_bot_move,
	.move_label = stm_move_label,
};
