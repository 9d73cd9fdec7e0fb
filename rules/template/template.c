/*
 * template.c -- "Ladder", the smallest complete rule module, meant to be
 * copied.  It builds, registers and passes the rule-module conformance
 * tests unmodified, and shows every part of the contract in rules.h:
 * shuffling from the seeded stream, hidden hands, moves in English and
 * French, check before apply, views per seat, save/load that refuses bad
 * input, and a result with shared victory.
 *
 * The game: a deck of cards 1..12 is shuffled and each seat is dealt 3
 * (hidden).  Seats take turns in order; on a turn a seat plays one card
 * from its hand face up onto the pile.  A card higher than the card it
 * covers scores its value; a lower one scores nothing (the first card
 * always scores).  When every hand is empty the highest score wins; ties
 * share the victory.
 *
 * To start a new game module from this file (docs/ARCHITECTURE.md,
 * "Adding a game"; nothing outside the game's folders is edited):
 *  1. Copy rules/template/ to rules/<game>/ and templates/en/template/,
 *     templates/fr/template/ to templates/en/<game>/, templates/fr/<game>/.
 *     <game> is a lower-case letter, then letters and digits: it is the
 *     module's name (stored with each game, in URLs), its C prefix and
 *     its templates' folder.  Rename template.c; every .c and .h of the
 *     folder is built into the rules library, except nopeek.c (step 5).
 *  2. Rename template_module to <game>_module (the generated registry
 *     looks for that name) and set name to "<game>", the titles and the
 *     summaries in English and French; start ruleset_version at 1.
 *  3. Replace struct ladder with your game's state; keep it free of
 *     pointers into shared data so save/load stay simple, and make
 *     load() refuse anything save() could not have written.
 *  4. Rewrite setup, the move reader (parse, English and French
 *     keywords), check and apply; keep check pure and make apply assume
 *     check passed.  No strtok, rand or other call that keeps state
 *     between calls: games run on several threads (strtok_r, the rng).
 *  5. Rewrite view so that a seat sees only what it may know.  Name its
 *     fields for the templates' decorator (daemon/render/present.h,
 *     docs/TEMPLATES.md "The view each template receives"): text in both
 *     languages as K_en/K_fr pairs, seat numbers as "seat" or K_seat,
 *     keyword values in lower case ("phase": "draw" gives phase_draw),
 *     "seats" as an array of objects with "seat", and "to_act", "over".
 *     Then rewrite nopeek.c, the game's hider (rules/nopeek.h): which
 *     cards show, what a seat cannot see (moved about in the saved
 *     state), random move texts; rename template_nopeek to
 *     <game>_nopeek.  tests/check_nopeek.c and tests/check_templates.c
 *     use it to prove that no view, move form, legal move, refusal,
 *     default move, sample illegal move or rendered template depends on
 *     what the seat cannot see.
 *  6. Write default_move (the move played for a seat that misses its
 *     deadline) and document it in docs/<game>.md under "Missed
 *     deadlines", as docs/stmissions.md and docs/eve.md do: players rely
 *     on it.  If your rules let a turn pass, skip_check/skip_apply;
 *     response_window if the game has reactions (rules/respond/ shows
 *     one).  sample_illegal_move: a refused move the generic tests use.
 *     describe_last: the move just applied, worded for the whole table
 *     from what the public view shows -- it goes into every event and
 *     webhook as the chat-sized summary (tests/check_nopeek.c checks it
 *     does not depend on hidden cards).  If your move texts name cards
 *     by ids a newcomer cannot read (Missions' "take M13"), move_label:
 *     the move with the cards' names, for the web page's buttons and a
 *     chat bot's list (Ladder's numbers need none).
 *  7. Write the templates, in templates/en/<game>/ and templates/fr/<game>/:
 *     the seven every game needs -- your_turn, accepted, rejected,
 *     game_over, help, spectator, waiting (.txt.mustache) -- and any
 *     partials of the game beside them (docs/TEMPLATES.md).  Print seats
 *     with {{>seat_name}}; never write a card's id or name as fixed text.
 *  8. Write docs/<game>.md: the rules as played, what is hidden from
 *     whom, the move texts in both languages, the default move.
 *  9. Build: `autoreconf -fi`, ./configure, make (or just make in a
 *     configured tree): rules/gen-games.sh registers the module and
 *     lists its sources, hider and templates (`make games-lists` after
 *     adding a file to the game's folders later).  Then
 *     `PBEM_GOLDEN_UPDATE=1 tests/check_templates` writes the game's
 *     golden files (tests/golden/views/<game>/, tests/golden/LANG/<game>/;
 *     the game's seats, length and refused move come from the module):
 *     review and commit them.  `make check` then covers the game with
 *     no test edited, each walking the registry: check_rules_api (the
 *     contract, at random), check_nopeek (hidden information),
 *     check_templates (templates present, golden, no leak),
 *     check_random_play (whole games through the store, audit, replay).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

#define LADDER_DECK	12
#define LADDER_HAND	3
#define LADDER_SEATS	4

struct ladder {
	int	nseats;
	int	deck[LADDER_DECK];	/* undealt cards, in order (hidden) */
	int	ndeck;
	int	hand[LADDER_SEATS][LADDER_HAND];	/* 0 = played */
	int	pile[LADDER_SEATS * LADDER_HAND];	/* played, in order */
	int	npile;
	int	score[LADDER_SEATS];
	int	current;		/* seat to play */
};

static int
cards_left(const struct ladder *g, int seat)
{
	int i, n = 0;

	for (i = 0; i < LADDER_HAND; i++)
		if (g->hand[seat][i] != 0)
			n++;
	return n;
}

static int
game_over(const struct ladder *g)
{
	return g->npile == g->nseats * LADDER_HAND;
}

static void *
ladder_setup(int nseats, const json_t *options, struct rules_rng *rng,
    char *err, size_t errlen)
{
	struct ladder *g;
	int i, s;

	if (nseats < 2 || nseats > LADDER_SEATS) {
		snprintf(err, errlen, "Ladder is for 2 to 4 players, not %d",
		    nseats);
		return NULL;
	}
	if (json_object_size(options) != 0) {
		snprintf(err, errlen, "Ladder has no options; remove \"%s\"",
		    json_object_iter_key(json_object_iter((json_t *)options)));
		return NULL;
	}
	if ((g = calloc(1, sizeof(*g))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	g->nseats = nseats;
	for (i = 0; i < LADDER_DECK; i++)
		g->deck[i] = i + 1;
	rules_rng_shuffle(rng, g->deck, LADDER_DECK);
	g->ndeck = LADDER_DECK;
	for (s = 0; s < nseats; s++)
		for (i = 0; i < LADDER_HAND; i++)
			g->hand[s][i] = g->deck[--g->ndeck];
	g->current = (int)rules_rng_below(rng, (uint32_t)nseats);
	return g;
}

static void
ladder_destroy(void *state)
{
	free(state);
}

static json_t *
ladder_save(const void *state)
{
	const struct ladder *g = state;
	json_t *hands = json_array();
	int s;

	for (s = 0; s < g->nseats; s++)
		json_array_append_new(hands,
		    rules_json_ints(g->hand[s], LADDER_HAND));
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:i}",
	    "nseats", g->nseats,
	    "deck", rules_json_ints(g->deck, g->ndeck),
	    "hands", hands,
	    "pile", rules_json_ints(g->pile, g->npile),
	    "scores", rules_json_ints(g->score, g->nseats),
	    "current", g->current);
}

/* Every card 1..12 exactly once across deck, hands and pile. */
static int
cards_conserved(const struct ladder *g)
{
	int seen[LADDER_DECK + 1] = { 0 };
	int i, s, c;

	for (i = 0; i < g->ndeck; i++)
		seen[g->deck[i]]++;
	for (i = 0; i < g->npile; i++)
		seen[g->pile[i]]++;
	for (s = 0; s < g->nseats; s++)
		for (i = 0; i < LADDER_HAND; i++)
			if ((c = g->hand[s][i]) != 0)
				seen[c]++;
	for (i = 1; i <= LADDER_DECK; i++)
		if (seen[i] != 1)
			return 0;
	return seen[0] == 0;
}

static void *
ladder_load(const json_t *saved, char *err, size_t errlen)
{
	struct ladder g, *copy;
	json_t *hands;
	int s, n, nseats, current;

	memset(&g, 0, sizeof(g));
	if (json_unpack((json_t *)saved, "{s:i, s:o, s:i}", "nseats", &nseats,
	    "hands", &hands, "current", &current) != 0 ||
	    nseats < 2 || nseats > LADDER_SEATS || current < 0 ||
	    current >= nseats || !json_is_array(hands) ||
	    json_array_size(hands) != (size_t)nseats)
		goto bad;
	g.nseats = nseats;
	g.current = current;
	if (rules_json_read_ints(json_object_get(saved, "deck"), g.deck,
	    LADDER_DECK, 0, LADDER_DECK, &g.ndeck) != 0 ||
	    rules_json_read_ints(json_object_get(saved, "pile"), g.pile,
	    LADDER_SEATS * LADDER_HAND, 0, LADDER_DECK, &g.npile) != 0 ||
	    rules_json_read_ints(json_object_get(saved, "scores"), g.score,
	    LADDER_SEATS, 0, LADDER_DECK * LADDER_HAND, &n) != 0 || n != nseats)
		goto bad;
	for (s = 0; s < nseats; s++)
		if (rules_json_read_ints(json_array_get(hands, (size_t)s),
		    g.hand[s], LADDER_HAND, 0, LADDER_DECK, &n) != 0 ||
		    n != LADDER_HAND)
			goto bad;
	if (g.ndeck + g.npile + nseats * LADDER_HAND < LADDER_DECK ||
	    !cards_conserved(&g))
		goto bad;
	if ((copy = malloc(sizeof(*copy))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	*copy = g;
	return copy;
bad:
	snprintf(err, errlen, "saved Ladder state is not valid");
	return NULL;
}

static int
ladder_to_act(const void *state, int *seats, int max)
{
	const struct ladder *g = state;

	if (game_over(g))
		return 0;
	if (max > 0)
		seats[0] = g->current;
	return 1;
}

static enum rules_status
ladder_parse(const void *state, int seat, const char *text,
    enum rules_lang lang, json_t **move, char *err, size_t errlen)
{
	char folded[128], extra;
	int card;

	if (rules_fold(text, folded, sizeof(folded)) != 0 ||
	    (sscanf(folded, "play %d %c", &card, &extra) != 1 &&
	    sscanf(folded, "jouer %d %c", &card, &extra) != 1)) {
		snprintf(err, errlen, lang == RULES_LANG_FR ?
		    "coup non compris : \"%s\" ; écrivez « jouer N »" :
		    "move not understood: \"%s\"; write \"play N\"", text);
		return RULES_SYNTAX;
	}
	*move = json_pack("{s:i}", "play", card);
	return RULES_OK;
}

/* translate (api_version 2): read the text as parse() does, write it in
 * lang.  A module with a real grammar parses into its move and writes
 * that move with lang's words (see rules/stmissions). */
static enum rules_status
ladder_translate(const void *state, int seat, const char *text,
    enum rules_lang lang, char *out, size_t outlen)
{
	json_t *move;
	char err[RULES_ERRLEN];
	enum rules_status rc;
	int n;

	if ((rc = ladder_parse(state, seat, text, lang, &move, err,
	    sizeof(err))) != RULES_OK)
		return rc;
	n = snprintf(out, outlen, "%s %d", lang == RULES_LANG_FR ? "jouer" :
	    "play", (int)json_integer_value(json_object_get(move, "play")));
	json_decref(move);
	return n < 0 || (size_t)n >= outlen ? RULES_SYNTAX : RULES_OK;
}

static enum rules_status
ladder_check(const void *state, int seat, const json_t *move,
    enum rules_lang lang, char *err, size_t errlen)
{
	const struct ladder *g = state;
	int card = (int)json_integer_value(json_object_get(move, "play"));
	int i, n;

	if (game_over(g)) {
		snprintf(err, errlen, lang == RULES_LANG_FR ?
		    "la partie est terminée" : "the game is over");
		return RULES_GAME_OVER;
	}
	if (seat != g->current) {
		snprintf(err, errlen, lang == RULES_LANG_FR ?
		    "ce n'est pas votre tour ; c'est au siège %d de jouer" :
		    "it is not your turn; seat %d is to play", g->current);
		return RULES_NOT_YOUR_TURN;
	}
	for (i = 0; i < LADDER_HAND; i++)
		if (card != 0 && g->hand[seat][i] == card)
			return RULES_OK;
	/* Say what is legal: the cards the seat holds (its own). */
	n = snprintf(err, errlen, lang == RULES_LANG_FR ?
	    "vous n'avez pas le %d en main ; jouez une de vos cartes :" :
	    "you do not hold a %d; play one of your cards:", card);
	for (i = 0; i < LADDER_HAND && n > 0 && (size_t)n < errlen; i++)
		if (g->hand[seat][i] != 0)
			n += snprintf(err + n, errlen - (size_t)n, " %d",
			    g->hand[seat][i]);
	return RULES_ILLEGAL;
}

static void
ladder_apply(void *state, int seat, const json_t *move,
    struct rules_rng *rng)
{
	struct ladder *g = state;
	int card = (int)json_integer_value(json_object_get(move, "play"));
	int i;

	for (i = 0; i < LADDER_HAND; i++)
		if (g->hand[seat][i] == card)
			g->hand[seat][i] = 0;
	if (g->npile == 0 || card > g->pile[g->npile - 1])
		g->score[seat] += card;
	g->pile[g->npile++] = card;
	g->current = (g->current + 1) % g->nseats;
}

/*
 * bot_move (api_version 8; docs/template.md, "Bots").  The "normal" bot
 * tries each card of its hand in BOT_SAMPLES imagined games: the other
 * hands are dealt at random (rng) from the cards it cannot see -- never
 * read from the state -- and the game is played out, the other seats
 * playing at random and itself by the rule of thumb below.  It plays the
 * card that wins most often (a shared win counts half), the lowest on a
 * tie.  Rule of thumb: the highest card that beats the pile's top, else
 * the lowest card.
 */
#define BOT_SAMPLES	48

/* The rule of thumb for seat in g. */
static int
thumb_card(const struct ladder *g, int seat)
{
	int top = g->npile > 0 ? g->pile[g->npile - 1] : 0;
	int i, c, beat = 0, low = 0;

	for (i = 0; i < LADDER_HAND; i++) {
		if ((c = g->hand[seat][i]) == 0)
			continue;
		if (c > top && c > beat)
			beat = c;
		if (low == 0 || c < low)
			low = c;
	}
	return beat != 0 ? beat : low;
}

/* Play card for g's current seat (it holds it). */
static void
bot_play(struct ladder *g, int card)
{
	int seat = g->current, i;

	for (i = 0; i < LADDER_HAND; i++)
		if (g->hand[seat][i] == card) {
			g->hand[seat][i] = 0;
			break;
		}
	if (g->npile == 0 || card > g->pile[g->npile - 1])
		g->score[seat] += card;
	g->pile[g->npile++] = card;
	g->current = (g->current + 1) % g->nseats;
}

/* The other seats' hands dealt from the cards seat cannot see. */
static void
deal_unseen(struct ladder *g, int seat, struct rules_rng *rng)
{
	int seen[LADDER_DECK + 1] = { 0 }, unseen[LADDER_DECK], n = 0;
	int s, i, c, k = 0;

	for (i = 0; i < LADDER_HAND; i++)
		seen[g->hand[seat][i]] = 1;
	for (i = 0; i < g->npile; i++)
		seen[g->pile[i]] = 1;
	for (c = 1; c <= LADDER_DECK; c++)
		if (!seen[c])
			unseen[n++] = c;
	rules_rng_shuffle(rng, unseen, (size_t)n);
	for (s = 0; s < g->nseats; s++)
		for (i = 0; s != seat && i < LADDER_HAND; i++)
			if (g->hand[s][i] != 0)
				g->hand[s][i] = unseen[k++];
}

/* 2 if seat alone has the best score of the ended g, 1 if it shares it. */
static int
bot_outcome(const struct ladder *g, int seat)
{
	int s, best = 0, nbest = 0;

	for (s = 0; s < g->nseats; s++)
		if (g->score[s] > best)
			best = g->score[s];
	for (s = 0; s < g->nseats; s++)
		nbest += g->score[s] == best;
	if (g->score[seat] != best)
		return 0;
	return nbest == 1 ? 2 : 1;
}

/* One imagined game after seat plays card; its outcome for seat. */
static int
bot_rollout(const struct ladder *g, int seat, int card,
    struct rules_rng *rng)
{
	struct ladder copy = *g;
	int cards[LADDER_HAND], n, i;

	deal_unseen(&copy, seat, rng);
	bot_play(&copy, card);
	while (!game_over(&copy)) {
		if (copy.current == seat) {
			bot_play(&copy, thumb_card(&copy, seat));
			continue;
		}
		for (i = 0, n = 0; i < LADDER_HAND; i++)
			if (copy.hand[copy.current][i] != 0)
				cards[n++] = copy.hand[copy.current][i];
		bot_play(&copy, cards[rules_rng_below(rng, (uint32_t)n)]);
	}
	return bot_outcome(&copy, seat);
}

static enum rules_status
ladder_bot_move(const void *state, int seat, int level,
    struct rules_rng *rng, char *out, size_t outlen)
{
	const struct ladder *g = state;
	int i, k, c, wins, best = -1, pick = 0, n;

	if (level != RULES_BOT_NORMAL)
		return RULES_BAD_OPTIONS;
	if (game_over(g) || seat != g->current)
		return RULES_NOT_YOUR_TURN;
	for (i = 0; i < LADDER_HAND; i++) {
		if ((c = g->hand[seat][i]) == 0)
			continue;
		for (k = 0, wins = 0; k < BOT_SAMPLES; k++)
			wins += bot_rollout(g, seat, c, rng);
		if (wins > best || (wins == best && c < pick)) {
			best = wins;
			pick = c;
		}
	}
	n = snprintf(out, outlen, "play %d", pick);
	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}

/* default_move (api_version 3): play the lowest card in the hand. */
static enum rules_status
ladder_default_move(const void *state, int seat, char *out, size_t outlen)
{
	const struct ladder *g = state;
	int i, low = 0, n;

	if (game_over(g) || seat != g->current)
		return RULES_NOT_YOUR_TURN;
	for (i = 0; i < LADDER_HAND; i++)
		if (g->hand[seat][i] != 0 && (low == 0 ||
		    g->hand[seat][i] < low))
			low = g->hand[seat][i];
	if (low == 0)
		return RULES_ILLEGAL;
	n = snprintf(out, outlen, "play %d", low);
	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}

/* sample_illegal_move (api_version 5): play the lowest card the seat does
 * not hold -- chosen from its own hand only, so it tells nothing of where
 * the other cards lie. */
static enum rules_status
ladder_sample_illegal_move(const void *state, int seat, char *out,
    size_t outlen)
{
	const struct ladder *g = state;
	int card, i, held, n;

	if (game_over(g) || seat != g->current)
		return RULES_NOT_YOUR_TURN;
	for (card = 1; card <= LADDER_DECK; card++) {
		held = 0;
		for (i = 0; i < LADDER_HAND; i++)
			held |= g->hand[seat][i] == card;
		if (!held)
			break;
	}
	n = snprintf(out, outlen, "play %d", card);
	return n < 0 || (size_t)n >= outlen ? RULES_ILLEGAL : RULES_OK;
}

/* skip_check, skip_apply (api_version 3): the seat to play may let its
 * turn pass; it keeps its cards. */
static enum rules_status
ladder_skip_check(const void *state, int seat, enum rules_lang lang,
    char *err, size_t errlen)
{
	const struct ladder *g = state;

	if (game_over(g)) {
		snprintf(err, errlen, lang == RULES_LANG_FR ?
		    "la partie est terminée" : "the game is over");
		return RULES_GAME_OVER;
	}
	if (seat != g->current) {
		snprintf(err, errlen, lang == RULES_LANG_FR ?
		    "ce n'est pas le tour du siège %d" :
		    "it is not seat %d's turn", seat);
		return RULES_NOT_YOUR_TURN;
	}
	return RULES_OK;
}

static void
ladder_skip_apply(void *state, int seat, struct rules_rng *rng)
{
	struct ladder *g = state;

	(void)seat;
	(void)rng;
	g->current = (g->current + 1) % g->nseats;
}

static json_t *
ladder_view(const void *state, int viewer)
{
	const struct ladder *g = state;
	json_t *view, *seats, *to_act = json_array();
	int s;

	if (!game_over(g))
		json_array_append_new(to_act, json_integer(g->current));
	seats = json_array();
	for (s = 0; s < g->nseats; s++) {
		json_t *seat = json_pack("{s:i, s:i, s:i}", "seat", s,
		    "cards_left", cards_left(g, s), "score", g->score[s]);
		if (viewer == s || viewer == RULES_VIEW_FULL)
			json_object_set_new(seat, "hand",
			    rules_json_ints(g->hand[s], LADDER_HAND));
		json_array_append_new(seats, seat);
	}
	view = json_pack("{s:s, s:o, s:b, s:o, s:o}", "game", "template",
	    "to_act", to_act, "over", game_over(g),
	    "pile", rules_json_ints(g->pile, g->npile), "seats", seats);
	if (viewer == RULES_VIEW_FULL)
		json_object_set_new(view, "deck",
		    rules_json_ints(g->deck, g->ndeck));
	return view;
}

static json_t *
ladder_legal_moves(const void *state, int seat)
{
	const struct ladder *g = state;
	json_t *moves = json_array();
	char text[32];
	int i;

	if (game_over(g) || seat != g->current)
		return moves;
	for (i = 0; i < LADDER_HAND; i++) {
		if (g->hand[seat][i] == 0)
			continue;
		snprintf(text, sizeof(text), "play %d", g->hand[seat][i]);
		json_array_append_new(moves, json_string(text));
	}
	return moves;
}

static json_t *
ladder_move_forms(const void *state, int seat, enum rules_lang lang)
{
	const struct ladder *g = state;
	json_t *forms = json_array();

	if (!game_over(g) && seat == g->current)
		json_array_append_new(forms, json_string(lang == RULES_LANG_FR ?
		    "jouer <une carte de votre main>" :
		    "play <a card in your hand>"));
	return forms;
}

static json_t *
ladder_result(const void *state)
{
	const struct ladder *g = state;
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

/* describe_last (api_version 5): the card just played is the pile's top,
 * face up for everyone; it scored when it beat the card under it. */
static enum rules_status
ladder_describe_last(const void *state, int seat, const char *const *names,
    enum rules_lang lang, char *out, size_t outlen)
{
	const struct ladder *g = state;
	int card, scored, n;

	if (g->npile == 0)
		return RULES_ILLEGAL;
	card = g->pile[g->npile - 1];
	scored = g->npile == 1 || card > g->pile[g->npile - 2];
	if (lang == RULES_LANG_FR)
		n = scored ? snprintf(out, outlen, "%s a joué le %d et marque "
		    "%d", names[seat], card, card) : snprintf(out, outlen,
		    "%s a joué le %d, sans marquer", names[seat], card);
	else
		n = scored ? snprintf(out, outlen, "%s played %d and scored "
		    "%d", names[seat], card, card) : snprintf(out, outlen,
		    "%s played %d, no score", names[seat], card);
	return n >= 0 && (size_t)n < outlen ? RULES_OK : RULES_ILLEGAL;
}

const struct rules_module template_module = {
	.api_version = RULES_API_VERSION,
	.name = "template",
	.ruleset_version = 1,
	.title_en = "Ladder (template game)",
	.title_fr = "Échelle (jeu modèle)",
	.summary_en = "Play your three hidden cards one at a time; a card "
	    "higher than the one it covers scores its value.",
	.summary_fr = "Jouez vos trois cartes cachées une à une ; une carte "
	    "plus haute que celle qu'elle recouvre marque sa valeur.",
	.min_seats = 2,
	.max_seats = LADDER_SEATS,
	.setup = ladder_setup,
	.destroy = ladder_destroy,
	.save = ladder_save,
	.load = ladder_load,
	.to_act = ladder_to_act,
	.parse = ladder_parse,
	.check = ladder_check,
	.apply = ladder_apply,
	.view = ladder_view,
	.legal_moves = ladder_legal_moves,
	.move_forms = ladder_move_forms,
	.result = ladder_result,
	.score_cards = NULL,
	.translate = ladder_translate,
	.default_move = ladder_default_move,
	.skip_check = ladder_skip_check,
	.skip_apply = ladder_skip_apply,
	.response_window = NULL,
	.describe_last = ladder_describe_last,
	.bot_move = ladder_bot_move,
	.sample_illegal_move = ladder_sample_illegal_move,
};
