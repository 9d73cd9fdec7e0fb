/*
 * bot.c -- bot_move (rules.h, api_version 8; docs/stmissions.md, "Bots"):
 * the "normal" bot keeps the hand the module's own scorer (score.h) rates
 * highest.
 *
 * On a turn it compares, with one step of look-ahead:
 *   - each take from the discard area with each discard it allows, by the
 *     exact score of the hand it leaves;
 *   - drawing from the Galaxy deck, by the average over up to
 *     BOT_GALAXY_SAMPLES cards it cannot see (drawn with rng from the
 *     Galaxy cards neither in its hand nor in the discard area) of the
 *     best hand that card would allow;
 *   - drawing two Missions, likewise over BOT_MISSION_SAMPLES pairs.
 * A draw is played as the first half of a turn ("draw galaxy"), so the
 * discards are chosen once the drawn card is seen: in a discard phase
 * every legal discard is tried on a copy of the state and the best hand
 * kept.  Ties keep the first move legal_moves() lists.  It never reads a
 * deck or another hand: the guesses come from rng only.
 */
#include <stdio.h>
#include <string.h>

#include "stmissions.h"

#define BOT_GALAXY_SAMPLES	10
#define BOT_MISSION_SAMPLES	6
#define BOT_WORST		(-1000000)

/* The exact score of n cards under st's readings, or BOT_WORST. */
static int
hand_value(const struct stm_state *st, const int *cards, int n)
{
	struct stm_hand_score sc;

	if (n <= 0 || n > STM_HAND_MAX ||
	    stm_score_hand_at(st->ruleset, cards, n, &sc) != 0)
		return BOT_WORST;
	return sc.total;
}

/* The best score of cards less `drop' of them (1 or 2). */
static int
best_after_drop(const struct stm_state *st, const int *cards, int n,
    int drop)
{
	int keep[STM_HAND_MAX], i, j, k, m, v, best = BOT_WORST;

	for (i = 0; i < n; i++)
		for (j = drop == 2 ? i + 1 : i; j < (drop == 2 ? n : i + 1);
		    j++) {
			for (k = 0, m = 0; k < n; k++)
				if (k != i && k != j)
					keep[m++] = cards[k];
			if ((v = hand_value(st, keep, m)) > best)
				best = v;
		}
	return best;
}

static int
in_pile(const struct stm_pile *p, int card)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (p->cards[i] == card)
			return 1;
	return 0;
}

/* The cards of one deck (missions or not) seat cannot see. */
static int
unseen_cards(const struct stm_state *st, int seat, int missions, int *out)
{
	int c, n = 0;

	for (c = 0; c < STM_NCARDS; c++)
		if ((STM_IS_MISSION(c) ? 1 : 0) == missions &&
		    !in_pile(&st->hand[seat], c) && !in_pile(&st->discard, c))
			out[n++] = c;
	return n;
}

/* The average best hand after drawing `draw' unseen cards of a deck and
 * discarding as many, over up to `samples' draws chosen with rng. */
static int
draw_value(const struct stm_state *st, int seat, int missions, int draw,
    int samples, struct rules_rng *rng)
{
	const struct stm_pile *hand = &st->hand[seat];
	int unseen[STM_NCARDS], cards[STM_HAND_MAX], n, i, s, total = 0;

	n = unseen_cards(st, seat, missions, unseen);
	if (n < draw || hand->n + draw > STM_HAND_MAX)
		return BOT_WORST;
	rules_rng_shuffle(rng, unseen, (size_t)n);
	if (samples * draw > n)
		samples = n / draw;
	for (s = 0; s < samples; s++) {
		memcpy(cards, hand->cards, sizeof(int) * (size_t)hand->n);
		for (i = 0; i < draw; i++)
			cards[hand->n + i] = unseen[s * draw + i];
		total += best_after_drop(st, cards, hand->n + draw, draw);
	}
	return samples > 0 ? total / samples : BOT_WORST;
}

/* Whether text is legal for seat; its decoded move in *mv and its JSON
 * in *json (the caller frees it) when it is. */
static int
read_move(const struct stm_state *st, int seat, const char *text,
    struct stm_move *mv, json_t **json)
{
	char err[RULES_ERRLEN];

	*json = NULL;
	if (stm_parse(st, seat, text, RULES_LANG_EN, json, err,
	    sizeof(err)) != RULES_OK || stm_check(st, seat, *json,
	    RULES_LANG_EN, err, sizeof(err)) != RULES_OK ||
	    stm_move_decode(*json, mv) != 0) {
		json_decref(*json);
		*json = NULL;
		return 0;
	}
	return 1;
}

/* The score of seat's hand once move is played on a copy of st.  Only
 * for moves that bring in no unseen card (a take, the discards). */
static int
value_after(const struct stm_state *st, int seat, const json_t *move,
    struct rules_rng *rng)
{
	struct stm_state copy = *st;

	stm_apply(&copy, seat, move, rng);
	return hand_value(st, copy.hand[seat].cards, copy.hand[seat].n);
}

static enum rules_status
put(const char *text, char *out, size_t outlen)
{
	int n = text == NULL ? -1 : snprintf(out, outlen, "%s", text);

	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}

enum rules_status
stm_bot_move(const void *state, int seat, int level, struct rules_rng *rng,
    char *out, size_t outlen)
{
	const struct stm_state *st = state;
	const char *best_text = NULL;
	json_t *moves, *json;
	struct stm_move mv;
	size_t i;
	int value, best = BOT_WORST - 1, galaxy = BOT_WORST - 1;
	int missions = BOT_WORST - 1;
	enum rules_status rc;

	if (level != RULES_BOT_NORMAL)
		return RULES_BAD_OPTIONS;
	if (!stm_seat_must_act(st, seat))
		return RULES_NOT_YOUR_TURN;
	moves = stm_legal_moves(state, seat);
	for (i = 0; i < json_array_size(moves); i++) {
		const char *text = json_string_value(json_array_get(moves, i));

		if (!read_move(st, seat, text, &mv, &json))
			continue;
		value = BOT_WORST - 1;
		if (mv.action == STM_ACT_GALAXY && !mv.has_discards) {
			if (galaxy < BOT_WORST)
				galaxy = draw_value(st, seat, 0, 1,
				    BOT_GALAXY_SAMPLES, rng);
			value = galaxy;
		} else if (mv.action == STM_ACT_MISSIONS && !mv.has_discards) {
			if (missions < BOT_WORST)
				missions = draw_value(st, seat, 1, 2,
				    BOT_MISSION_SAMPLES, rng);
			value = missions;
		} else if (mv.action == STM_ACT_TAKE && mv.has_discards)
			value = value_after(st, seat, json, rng);
		else if (mv.action == STM_ACT_DISCARD)
			value = value_after(st, seat, json, rng);
		else if (mv.action == STM_ACT_Q && !mv.has_discards &&
		    mv.card >= 0) {
			/* Meddlesome Q's draw: judged by the known card. */
			int cards[STM_HAND_MAX], n = st->hand[seat].n;

			if (n < STM_HAND_MAX) {
				memcpy(cards, st->hand[seat].cards,
				    sizeof(int) * (size_t)n);
				cards[n] = mv.card;
				value = best_after_drop(st, cards, n + 1, 1);
			}
		}
		json_decref(json);
		if (value > best) {
			best = value;
			best_text = text;
		}
	}
	if (best_text == NULL)
		best_text = json_string_value(json_array_get(moves, 0));
	rc = put(best_text, out, outlen);
	json_decref(moves);
	return rc;
}
