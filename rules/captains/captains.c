/*
 * captains.c -- the module table of Star Trek: Captain's Chair (two
 * players), a card module (rules API 7): its cards come from a card file
 * (rules/captains/cards.yaml, docs/captains-cards.md).  docs/captains.md
 * states every rule as built.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardfile.h"
#include "captains.h"

static void *
cp_cards_parse(const char *bytes, size_t len, const char *filename,
    char *err, size_t errlen)
{
	struct rules_cardfile *file = rules_cardfile_read(bytes, len,
	    filename, err, errlen);
	struct cc_set *set;

	if (file == NULL)
		return NULL;
	set = cc_set_from_file(file, err, errlen);
	rules_cardfile_free(file);
	return set;
}

static void
cp_cards_free(void *cards)
{
	free(cards);
}

static void *
cp_setup_cards(const void *cards, int nseats, const json_t *options,
    struct rules_rng *rng, char *err, size_t errlen)
{
	if (nseats != 2) {
		snprintf(err, errlen, "Captain's Chair is played by 2 seats "
		    "here (the solo Bot is not built yet)");
		return NULL;
	}
	if (json_object_size(options) != 0) {
		snprintf(err, errlen, "Captain's Chair takes no options");
		return NULL;
	}
	return cc_new(cards, rng, err, errlen);
}

static void *
cp_load_cards(const void *cards, const json_t *saved, char *err,
    size_t errlen)
{
	return cc_load(cards, saved, err, errlen);
}

static void
cp_destroy(void *state)
{
	free(state);
}

static json_t *
cp_save(const void *state)
{
	return cc_save(state);
}

static int
cp_to_act(const void *state, int *seats, int max)
{
	const struct cc_state *s = state;

	if (s->over)
		return 0;
	if (max > 0)
		seats[0] = s->pending ? 1 - s->active : s->active;
	return 1;
}

static enum rules_status
cp_parse(const void *state, int seat, const char *text, enum rules_lang lang,
    json_t **move, char *err, size_t errlen)
{
	const struct cc_state *s = state;

	(void)seat;
	return cc_parse(s->set, text, lang, move, err, errlen);
}

static enum rules_status
cp_check(const void *state, int seat, const json_t *move,
    enum rules_lang lang, char *err, size_t errlen)
{
	struct cc_state *copy = malloc(sizeof(*copy));
	enum rules_status rc;

	if (copy == NULL) {
		snprintf(err, errlen, "out of memory");
		return RULES_ILLEGAL;
	}
	memcpy(copy, state, sizeof(*copy));
	rc = cc_run_steps(copy, seat, json_object_get(move, "steps"), NULL,
	    lang, err, errlen);
	free(copy);
	return rc;
}

enum rules_status
cc_check_text(const struct cc_state *s, int seat, const char *text,
    enum rules_lang lang, char *err, size_t errlen)
{
	json_t *move;
	enum rules_status rc = cc_parse(s->set, text, lang, &move, err,
	    errlen);

	if (rc != RULES_OK)
		return rc;
	rc = cp_check(s, seat, move, lang, err, errlen);
	json_decref(move);
	return rc;
}

static void
cp_apply(void *state, int seat, const json_t *move, struct rules_rng *rng)
{
	char err[RULES_ERRLEN];

	if (cc_run_steps(state, seat, json_object_get(move, "steps"), rng,
	    RULES_LANG_EN, err, sizeof(err)) != RULES_OK)
		abort();	/* check() accepted this very move */
}

static json_t *
cp_view(const void *state, int viewer)
{
	return cc_view(state, viewer);
}

static json_t *
cp_legal_moves(const void *state, int seat)
{
	return cc_legal_moves(state, seat);
}

static json_t *
cp_move_forms(const void *state, int seat, enum rules_lang lang)
{
	return cc_move_forms(state, seat, lang);
}

/* The BURN: fewest incidents wins, a tie goes to the final score.
 * Otherwise the most VP; ties share the victory. */
static json_t *
cp_result(const void *state)
{
	const struct cc_state *s = state;
	json_t *scores, *winners, *breakdown, *r;
	int score[2], inc[2];

	if (!s->over)
		return NULL;
	scores = json_array();
	winners = json_array();
	breakdown = json_array();
	for (int i = 0; i < 2; i++) {
		json_t *b = json_object();
		score[i] = cc_score(s, i, b);
		inc[i] = cc_incidents(s, i);
		json_array_append_new(scores, json_integer(score[i]));
		json_array_append_new(breakdown, b);
	}
	for (int i = 0; i < 2; i++)
		if (s->burn && inc[0] != inc[1] ? inc[i] < inc[1 - i] :
		    score[i] >= score[1 - i])
			json_array_append_new(winners, json_integer(i));
	r = json_pack("{s:o,s:o,s:o,s:s}", "scores", scores, "winners",
	    winners, "breakdown", breakdown, "end",
	    s->burn ? "burn" : "stardate");
	return r;
}

static enum rules_status
cp_default_move(const void *state, int seat, char *out, size_t outlen)
{
	const struct cc_state *s = state;
	int who;

	if (cp_to_act(s, &who, 1) == 0 || who != seat)
		return RULES_NOT_YOUR_TURN;
	if (s->scan_suit >= 0) {	/* the offer, else the first seen */
		int card = s->offer[s->scan_suit] >= 0 ?
		    s->offer[s->scan_suit] : s->scan.card[0];
		if ((size_t)snprintf(out, outlen, "pick %s",
		    s->set->card[card].name) >= outlen)
			return RULES_ILLEGAL;	/* out too small */
		return RULES_OK;
	}
	if ((size_t)snprintf(out, outlen, "%s", s->pending ? "pass" : "end") >=
	    outlen)
		return RULES_ILLEGAL;	/* out too small */
	return RULES_OK;
}

static int
cp_response_window(const void *state)
{
	const struct cc_state *s = state;

	return s->pending && !s->over;
}

static enum rules_status
cp_describe_last(const void *state, int seat, const char *const *names,
    enum rules_lang lang, char *out, size_t outlen)
{
	const struct cc_state *s = state;
	const char *what = lang == RULES_LANG_FR ? s->last_fr : s->last_en;

	if (what[0] == '\0' || seat < 0 || seat > 1)
		return RULES_ILLEGAL;
	if ((size_t)snprintf(out, outlen, "%s %s", names[seat], what) >=
	    outlen)
		return RULES_ILLEGAL;
	return RULES_OK;
}

/* "play CARD" for the first card of the set the seat does not hold (its
 * own hand only decides), or "discard" of it in a window. */
static enum rules_status
cp_sample_illegal_move(const void *state, int seat, char *out,
    size_t outlen)
{
	const struct cc_state *s = state;
	int who;

	if (cp_to_act(s, &who, 1) == 0 || who != seat)
		return RULES_NOT_YOUR_TURN;
	for (int i = 0; i < s->set->ncards; i++)
		if (pile_find(&s->seat[seat].hand, i) < 0) {
			if ((size_t)snprintf(out, outlen, "%s %s", s->pending ?
			    "discard" : "play", s->set->card[i].name) >= outlen)
				return RULES_ILLEGAL;	/* out too small */
			return RULES_OK;
		}
	return RULES_ILLEGAL;
}

const struct rules_module captains_module = {
	.api_version = 7,
	.name = "captains",
	.ruleset_version = 1,
	.title_en = "Star Trek: Captain's Chair",
	.title_fr = "Star Trek : Captain's Chair",
	.summary_en = "Two captains build their crews from a shared market, "
	    "send ships and away teams to the Neutral Zone to control its "
	    "locations, and race for glory until the last STARDATE -- or "
	    "until the INCIDENT deck runs out and the BURN ends it all.",
	.summary_fr = "Deux capitaines bâtissent leur équipage depuis un "
	    "marché commun, envoient vaisseaux et équipes d'exploration dans "
	    "la Zone Neutre pour en contrôler les lieux, et courent après la "
	    "gloire jusqu'à la dernière STARDATE -- ou jusqu'à ce que le deck "
	    "INCIDENT s'épuise et que la Combustion finisse tout.",
	.min_seats = 2,
	.max_seats = 2,
	.setup = NULL,
	.destroy = cp_destroy,
	.save = cp_save,
	.load = NULL,
	.to_act = cp_to_act,
	.parse = cp_parse,
	.check = cp_check,
	.apply = cp_apply,
	.view = cp_view,
	.legal_moves = cp_legal_moves,
	.move_forms = cp_move_forms,
	.result = cp_result,
	.score_cards = NULL,
	.translate = NULL,
	.default_move = cp_default_move,
	.skip_check = NULL,
	.skip_apply = NULL,
	.response_window = cp_response_window,
	.describe_last = cp_describe_last,
	.sample_illegal_move = cp_sample_illegal_move,
	.cards_parse = cp_cards_parse,
	.cards_free = cp_cards_free,
	.setup_cards = cp_setup_cards,
	.load_cards = cp_load_cards,
};
