/*
 * captains.c -- the module table of Star Trek: Captain's Chair (two
 * players, a person against the solo Bot, or cadet training alone), a
 * card module (rules API 7) with bot levels of its own (API 9, the
 * Bot's five difficulties): its cards come from a card file
 * (rules/captains/cards.yaml, docs/captains-cards.md).  docs/captains.md
 * states every rule as built.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardfile.h"
#include "captains.h"
#include "solo.h"

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

/* The seats the server plays, from the "bot_seats" option the core
 * writes (rules.h, bot_levels): one of them against a person is the
 * Bot, at the level named (normal and random: commander).  Every seat
 * a bot: the two-player game, played by the core's bots. */
static int
read_bot_seats(const json_t *bots, int nseats, int *bot_seat, int *level,
    char *err, size_t errlen)
{
	const char *key;
	json_t *v;
	int n = 0;

	*bot_seat = -1;
	if (bots == NULL)
		return 0;
	if (!json_is_object(bots))
		goto bad;
	json_object_foreach((json_t *)bots, key, v) {
		const char *name = json_string_value(v);
		int seat = key[0] >= '0' && key[0] <= '1' && key[1] == '\0' ?
		    key[0] - '0' : -1;
		if (name == NULL || seat < 0 || seat >= nseats)
			goto bad;
		*level = strcmp(name, "normal") == 0 ||
		    strcmp(name, "random") == 0 ? 2 : cc_level_by_name(name);
		if (*level < 0) {
			snprintf(err, errlen, "Captain's Chair's Bot has no level "
			    "\"%s\": ensign, lieutenant, commander, captain, "
			    "admiral (or enseigne, lieutenant, commandant, "
			    "capitaine, amiral)", name);
			return -1;
		}
		*bot_seat = seat;
		n++;
	}
	if (n == nseats)
		*bot_seat = -1;	/* bots only: the two-player game */
	return 0;
bad:
	snprintf(err, errlen, "bot_seats is written by the server from the "
	    "@bot seats; it cannot be given as an option");
	return -1;
}

static void *
cp_setup_cards(const void *cards, int nseats, const json_t *options,
    struct rules_rng *rng, char *err, size_t errlen)
{
	const struct cc_set *set = cards;
	const json_t *mode = json_object_get(options, "mode");
	const char *key;
	json_t *v;
	int bot_seat, level = 0, cadet;

	json_object_foreach((json_t *)options, key, v)
		if (strcmp(key, "mode") != 0 && strcmp(key, "bot_seats") != 0) {
			snprintf(err, errlen, "unknown option \"%s\": Captain's "
			    "Chair takes {\"mode\": \"cadet\"} for cadet "
			    "training (one seat)", key);
			return NULL;
		}
	if (mode != NULL && (!json_is_string(mode) ||
	    (strcmp(json_string_value(mode), "cadet") != 0 &&
	    strcmp(json_string_value(mode), "cadets") != 0))) {
		snprintf(err, errlen, "the option mode is \"cadet\" (cadet "
		    "training, one seat); a game against the Bot is made with "
		    "a seat @bot:LEVEL");
		return NULL;
	}
	if (nseats < 1 || nseats > 2) {
		snprintf(err, errlen, "Captain's Chair is for 1 seat (cadet "
		    "training) or 2, not %d", nseats);
		return NULL;
	}
	cadet = mode != NULL || nseats == 1;
	if (cadet != (nseats == 1)) {
		snprintf(err, errlen, "cadet training is played by one seat, "
		    "not %d", nseats);
		return NULL;
	}
	if (read_bot_seats(json_object_get(options, "bot_seats"), nseats,
	    &bot_seat, &level, err, errlen) < 0)
		return NULL;
	if (cadet && set->solo.ncadet == 0) {
		snprintf(err, errlen, "this card file has no cadet training "
		    "STARDATEs (solo: cadet:)");
		return NULL;
	}
	if (cadet)
		return cc_new_mode(set, CC_MODE_CADET, 0, 0, rng, err, errlen);
	if (bot_seat < 0)
		return cc_new(set, rng, err, errlen);
	if (set->solo.nlevel[level] == 0 || cc_automated_of(set,
	    set->captain[bot_seat]) == NULL) {
		snprintf(err, errlen, "this card file has no Bot for seat %d "
		    "(solo: levels: and an automated_command for its "
		    "captain)", bot_seat);
		return NULL;
	}
	return cc_new_mode(set, CC_MODE_BOT, bot_seat, level, rng, err,
	    errlen);
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
cp_translate(const void *state, int seat, const char *text,
    enum rules_lang lang, char *out, size_t outlen)
{
	const struct cc_state *s = state;

	(void)seat;
	return cc_translate(s->set, text, lang, out, outlen);
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
 * Otherwise the most VP; ties share the victory.  Against the Bot
 * (lines 683-695): a BURN is the Bot's win, its score is the Bot's own,
 * and the person wins only with more VP.  Cadet training: the cadet
 * score; a BURN loses (line 336). */
static json_t *
cp_result(const void *state)
{
	const struct cc_state *s = state;
	json_t *scores, *winners, *breakdown, *r;
	int score[2], inc[2], nseats = s->mode == CC_MODE_CADET ? 1 : 2;

	if (!s->over)
		return NULL;
	scores = json_array();
	winners = json_array();
	breakdown = json_array();
	for (int i = 0; i < nseats; i++) {
		json_t *b = json_object();
		score[i] = cc_is_bot(s, i) ? cc_bot_score(s, i, b) :
		    cc_score(s, i, b);
		inc[i] = cc_incidents(s, i);
		json_array_append_new(scores, json_integer(score[i]));
		json_array_append_new(breakdown, b);
	}
	for (int i = 0; i < nseats; i++)
		if (s->mode == CC_MODE_CADET ? !s->burn :
		    s->mode == CC_MODE_BOT ? (cc_is_bot(s, i) ? s->burn ||
		    score[i] >= score[1 - i] : !s->burn &&
		    score[i] > score[1 - i]) :
		    s->burn && inc[0] != inc[1] ? inc[i] < inc[1 - i] :
		    score[i] >= score[1 - i])
			json_array_append_new(winners, json_integer(i));
	r = json_pack("{s:o,s:o,s:o,s:s}", "scores", scores, "winners",
	    winners, "breakdown", breakdown, "end",
	    s->burn ? "burn" : "stardate");
	if (s->mode == CC_MODE_CADET)
		json_object_set_new(r, "cadet", cc_solo_view(s));
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
	if ((size_t)snprintf(out, outlen, "%s", s->pending ? "pass" :
	    cc_is_bot(s, seat) ? "bot" : "end") >= outlen)
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

	if (what[0] == '\0' || seat < 0 || seat > (s->mode == CC_MODE_CADET ?
	    0 : 1))
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

/* The Bot's seat has one move, its whole turn: "bot" (solo_bot.c). */
static enum rules_status
cp_bot_move(const void *state, int seat, int level, struct rules_rng *rng,
    char *out, size_t outlen)
{
	const struct cc_state *s = state;
	int who;

	(void)level;	/* the Bot's level is the game's (its STARDATEs) */
	(void)rng;	/* it chooses nothing by chance */
	if (!cc_is_bot(s, seat) || cp_to_act(s, &who, 1) == 0 || who != seat)
		return RULES_ILLEGAL;
	if ((size_t)snprintf(out, outlen, "bot") >= outlen)
		return RULES_ILLEGAL;
	return RULES_OK;
}

const struct rules_module captains_module = {
	.api_version = 9,
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
	    "gloire jusqu'à la dernière STARDATE -- ou jusqu'à ce que la "
	    "pioche INCIDENT s'épuise et que la Combustion finisse tout.",
	.min_seats = 1,
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
	.translate = cp_translate,
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
	.bot_move = cp_bot_move,
	.bot_levels = cc_level_words,
};
