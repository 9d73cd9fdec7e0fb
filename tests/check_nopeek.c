/*
 * check_nopeek.c -- the differential no-peek test (issue 14, item 3) for
 * Star Trek: Missions, the template game (Ladder) and the response-window
 * game (Parry).  Enterprise vs Excelsior has its own, on its structures,
 * in check_eve.c ("nopeek").
 *
 * For random positions of random legal play, and a random seat: the
 * state is saved, and a copy of the saved JSON is changed in what that
 * seat cannot see only (hide_*: which hidden card lies where, the order
 * of the decks, other seats' sealed answers).  Both are loaded back, and
 * the seat must get byte-identical answers from both: its view, its move
 * forms in English and French, its legal moves, its default move and
 * skip check, the public description of every seat's last move
 * (describe_last, the summaries of events and webhooks), and -- for
 * every text tried (the legal moves of either
 * state, and random texts naming any card, hidden or not) -- the status
 * and the message of parse and check, and translate's answer, in both
 * languages.
 *
 * Cards become known to everyone when they show (the discard area, a
 * played pile): those stay where they are, so the pair differs only in
 * what the seat could not know.  A rearrangement that changes who is to
 * act (public: the game's status says it) is drawn again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <jansson.h>

#include "rules.h"
#include "rng.h"
#include "cards.h"

#define POSITIONS	150	/* random positions per module */
#define MAX_PLIES	5000	/* longer than any game */
#define RANDOM_TEXTS	40	/* random texts tried per position */
#define HIDE_TRIES	20	/* rearrangements drawn before giving up */
#define KNOWN_MAX	128

/* Cards every seat knows the place of (they were shown), by their text
 * in the saved state: "G05", or "7". */
struct known {
	int	n;
	char	card[KNOWN_MAX][8];
};

/* What the test needs to know of one module's saved state. */
struct hider {
	const char	*ruleset;
	/* Mark the cards that show in saved as known. */
	void		(*note)(const json_t *saved, struct known *k);
	/* Rearrange, in saved, what seat cannot see, and nothing else. */
	void		(*hide)(json_t *saved, int seat, const struct known *k,
	    struct rules_rng *rng);
	/* A random move text for seat (any card, any shape). */
	void		(*text)(const json_t *saved, int seat,
	    struct rules_rng *rng, char *buf, size_t len);
};

static void
seeded(struct rules_rng *rng, uint64_t seed, uint64_t step)
{
	unsigned char	key[RNG_SEED_BYTES];
	int		i;

	memset(key, 0, sizeof(key));
	for (i = 0; i < 8; i++)
		key[i] = (unsigned char)(seed >> (8 * i));
	rng_init(rng, key, step);
}

static int
is_known(const struct known *k, const char *card)
{
	int i;

	for (i = 0; i < k->n; i++)
		if (strcmp(k->card[i], card) == 0)
			return 1;
	return 0;
}

static void
add_known(struct known *k, const json_t *card)
{
	char text[8];

	if (json_is_string(card))
		snprintf(text, sizeof(text), "%s", json_string_value(card));
	else if (json_is_integer(card) && json_integer_value(card) != 0)
		snprintf(text, sizeof(text), "%lld",
		    (long long)json_integer_value(card));
	else
		return;
	if (!is_known(k, text) && k->n < KNOWN_MAX)
		snprintf(k->card[k->n++], sizeof(k->card[0]), "%s", text);
}

static void
add_known_all(struct known *k, const json_t *cards)
{
	size_t i;

	for (i = 0; i < json_array_size(cards); i++)
		add_known(k, json_array_get(cards, i));
}

/* ---- Rearranging hidden cards ------------------------------------------- */

/*
 * The cards of the arrays in slot[] (JSON strings or non-zero integers)
 * that are not known, of the kind kind_of() gives, are given a random
 * permutation among themselves: where each lies changes, the size of
 * every pile and the kinds in it do not.  kind_of NULL: one kind.
 */
#define SLOTS_MAX	16

static void
permute_cards(json_t **slot, int nslot, const struct known *k,
    int (*kind_of)(const json_t *), struct rules_rng *rng)
{
	json_t	*card[256];
	size_t	 where_i[256];
	int	 where_s[256], n, kind, i, s;
	size_t	 j;

	for (kind = 0; kind < 2; kind++) {
		n = 0;
		for (s = 0; s < nslot; s++)
			for (j = 0; j < json_array_size(slot[s]); j++) {
				json_t *c = json_array_get(slot[s], j);
				char text[8];

				if (json_is_integer(c) &&
				    json_integer_value(c) == 0)
					continue;	/* an empty place */
				if ((kind_of ? kind_of(c) : 0) != kind)
					continue;
				if (json_is_string(c))
					snprintf(text, sizeof(text), "%s",
					    json_string_value(c));
				else
					snprintf(text, sizeof(text), "%lld",
					    (long long)json_integer_value(c));
				if (is_known(k, text))
					continue;
				ck_assert_int_lt(n, 256);
				card[n] = json_incref(c);
				where_s[n] = s;
				where_i[n] = j;
				n++;
			}
		/* Fisher-Yates on the cards, then put them back in place. */
		for (i = n - 1; i > 0; i--) {
			int r = (int)rules_rng_below(rng, (uint32_t)i + 1);
			json_t *t = card[i];

			card[i] = card[r];
			card[r] = t;
		}
		for (i = 0; i < n; i++)
			json_array_set_new(slot[where_s[i]], where_i[i],
			    card[i]);
	}
}

/* Sort a hand of card ids ("G05" < "G12" < "M01", as the module keeps
 * them). */
static int
cmp_ids(const void *a, const void *b)
{
	return strcmp(json_string_value(*(json_t *const *)a),
	    json_string_value(*(json_t *const *)b));
}

static void
sort_ids(json_t *hand)
{
	json_t	*c[STM_NCARDS];
	size_t	 n = json_array_size(hand), i;

	ck_assert_uint_le(n, STM_NCARDS);
	for (i = 0; i < n; i++)
		c[i] = json_incref(json_array_get(hand, i));
	qsort(c, n, sizeof(c[0]), cmp_ids);
	for (i = 0; i < n; i++)
		json_array_set_new(hand, i, c[i]);
}

/* The card v stands for after old -> new (two arrays of n ids), or NULL
 * when v is not one of them. */
static json_t *
mapped(const json_t *v, json_t *const *from, json_t *const *to, int n)
{
	int c;

	if (!json_is_string(v))
		return NULL;
	for (c = 0; c < n; c++)
		if (strcmp(json_string_value(v), json_string_value(from[c])) ==
		    0)
			return to[c];
	return NULL;
}

/* Apply old -> new to every string in j, each once. */
static void
relabel(json_t *j, json_t *const *from, json_t *const *to, int n)
{
	const char	*key;
	json_t		*v, *now;
	size_t		 i;

	if (json_is_array(j))
		json_array_foreach(j, i, v) {
			if ((now = mapped(v, from, to, n)) != NULL)
				json_array_set(j, i, now);
			else
				relabel(v, from, to, n);
		}
	else if (json_is_object(j))
		json_object_foreach(j, key, v) {
			if ((now = mapped(v, from, to, n)) != NULL)
				json_object_set(j, key, now);
			else
				relabel(v, from, to, n);
		}
}

/* ---- Star Trek: Missions ------------------------------------------------- */

/* What shows: the discard area, what the last turn took and discarded,
 * what a turn sent in two halves took, Meddlesome Q (M18) once its
 * holder makes the final draw. */
static void
stm_note(const json_t *saved, struct known *k)
{
	const json_t *last = json_object_get(saved, "last");
	const json_t *pending = json_object_get(saved, "pending");

	add_known_all(k, json_object_get(saved, "discard"));
	add_known(k, json_object_get(last, "taken"));
	add_known_all(k, json_object_get(last, "discarded"));
	add_known(k, json_object_get(pending, "taken"));
	/* Meddlesome Q's final draw shows who holds it. */
	if (json_is_integer(json_object_get(saved, "q_seat"))) {
		json_t *q = json_string("M18");

		add_known(k, q);
		json_decref(q);
	}
}

static int
stm_kind(const json_t *card)
{
	return json_string_value(card)[0] == 'M';
}

/*
 * Hidden from seat: the order of both decks, and which of the cards
 * never shown lie in another seat's hand or in a deck.  The cards are
 * relabelled (a permutation of the hidden Galaxy cards among themselves,
 * the same for Mission cards) everywhere in the state, so a card another
 * seat drew in the first half of its turn stays in that seat's hand.
 */
static void
stm_hide(json_t *saved, int seat, const struct known *k,
    struct rules_rng *rng)
{
	json_t		*slot[SLOTS_MAX], *hands = json_object_get(saved, "hands");
	json_t		*copy[SLOTS_MAX], *from[STM_NCARDS], *to[STM_NCARDS];
	int		 nslot = 0, n = 0, s, i;
	size_t		 j;

	slot[nslot++] = json_object_get(saved, "galaxy_deck");
	slot[nslot++] = json_object_get(saved, "mission_deck");
	for (s = 0; s < (int)json_array_size(hands); s++)
		if (s != seat)
			slot[nslot++] = json_array_get(hands, (size_t)s);
	for (i = 0; i < nslot; i++)
		copy[i] = json_deep_copy(slot[i]);
	permute_cards(slot, nslot, k, stm_kind, rng);
	/* The permutation as a relabelling old -> new. */
	for (i = 0; i < nslot; i++)
		for (j = 0; j < json_array_size(slot[i]); j++) {
			ck_assert_int_lt(n, STM_NCARDS);
			from[n] = json_array_get(copy[i], j);
			to[n] = json_incref(json_array_get(slot[i], j));
			n++;
		}
	/* Undo the in-place change, then relabel the whole state at once. */
	for (i = 0; i < nslot; i++)
		for (j = 0; j < json_array_size(slot[i]); j++)
			json_array_set(slot[i], j, json_array_get(copy[i], j));
	relabel(saved, from, to, n);
	for (i = 0; i < n; i++)
		json_decref(to[i]);
	for (i = 0; i < nslot; i++)
		json_decref(copy[i]);
	for (s = 0; s < (int)json_array_size(hands); s++)
		sort_ids(json_array_get(hands, (size_t)s));
}

static const char *
any_card(struct rules_rng *rng)
{
	return stm_cards[rules_rng_below(rng, STM_NCARDS)].id;
}

/* A word of a card's name, English or French ("Sarek", "Bat'leth"). */
static void
name_word(struct rules_rng *rng, char *out, size_t len)
{
	const struct stm_card *c = &stm_cards[rules_rng_below(rng,
	    STM_NCARDS)];
	const char *name = rules_rng_below(rng, 2) ? c->name_en : c->name_fr;
	const char *sp = strchr(name, ' ');

	if (sp == NULL || rules_rng_below(rng, 2))
		snprintf(out, len, "%s", sp ? sp + 1 : name);
	else
		snprintf(out, len, "%.*s", (int)(sp - name), name);
}

static void
stm_text(const json_t *saved, int seat, struct rules_rng *rng, char *buf,
    size_t len)
{
	static const char *const forms[] = {
		"take %s, discard %s", "draw galaxy, discard %s, %s",
		"draw missions, discard %s, %s", "discard %s, %s",
		"q take %s, discard %s", "draw galaxy, discard %s",
		"draw galaxy, discard drawn, %s", "prendre %s, défausser %s",
		"piocher galaxie, défausser %s, %s",
		"piocher missions, défausser piochée, %s", "take %s",
		"draw galaxy then discard %s and %s"
	};
	const char	*f = forms[rules_rng_below(rng, sizeof(forms) /
	    sizeof(forms[0]))];
	char		 a[64], b[64];

	(void)saved;
	(void)seat;
	if (rules_rng_below(rng, 3) == 0)
		name_word(rng, a, sizeof(a));
	else
		snprintf(a, sizeof(a), "%s", any_card(rng));
	if (rules_rng_below(rng, 3) == 0)
		name_word(rng, b, sizeof(b));
	else
		snprintf(b, sizeof(b), "%s", any_card(rng));
	snprintf(buf, len, f, a, b);
}

/* ---- Ladder (rules/template) -------------------------------------------- */

/* The "deck" of saved and every hand but seat's, into slot; how many. */
static int
deck_and_others(json_t *saved, int seat, json_t **slot)
{
	json_t	*hands = json_object_get(saved, "hands");
	int	 nslot = 0, s;

	slot[nslot++] = json_object_get(saved, "deck");
	for (s = 0; s < (int)json_array_size(hands); s++)
		if (s != seat && nslot < SLOTS_MAX)
			slot[nslot++] = json_array_get(hands, (size_t)s);
	return nslot;
}

/* Played cards lie in the pile: they never return to a hand. */
static void
ladder_note(const json_t *saved, struct known *k)
{
	add_known_all(k, json_object_get(saved, "pile"));
}

/* Hidden from seat: the deck's order, and which cards lie in the other
 * hands or the deck (their played places, 0, stay). */
static void
ladder_hide(json_t *saved, int seat, const struct known *k,
    struct rules_rng *rng)
{
	json_t *slot[SLOTS_MAX];

	permute_cards(slot, deck_and_others(saved, seat, slot), k, NULL, rng);
}

static void
ladder_text(const json_t *saved, int seat, struct rules_rng *rng, char *buf,
    size_t len)
{
	(void)saved;
	(void)seat;
	snprintf(buf, len, "%s %d", rules_rng_below(rng, 2) ? "play" :
	    "jouer", (int)rules_rng_below(rng, 15) - 1);
}

/* ---- Parry (rules/respond) ----------------------------------------------- */

static void
parry_note(const json_t *saved, struct known *k)
{
	add_known_all(k, json_object_get(saved, "pile"));
	add_known(k, json_object_get(saved, "window"));
	add_known(k, json_object_get(saved, "last_card"));
}

/* A parry card (9..12) in hand? */
static int
holds_parry(const json_t *hand)
{
	size_t i;

	for (i = 0; i < json_array_size(hand); i++)
		if (json_integer_value(json_array_get(hand, i)) > 8)
			return 1;
	return 0;
}

/* Hidden from seat: the deck's order, which cards lie in the other hands
 * or the deck, and, in a window, what each other seat answered (that it
 * answered shows; "parry" only from a seat that holds a parry). */
static void
parry_hide(json_t *saved, int seat, const struct known *k,
    struct rules_rng *rng)
{
	json_t	*slot[SLOTS_MAX], *hands = json_object_get(saved, "hands");
	json_t	*answers = json_object_get(saved, "answers");
	int	 s;

	permute_cards(slot, deck_and_others(saved, seat, slot), k, NULL, rng);
	for (s = 0; s < (int)json_array_size(answers); s++) {
		if (s == seat || json_integer_value(json_array_get(answers,
		    (size_t)s)) == 0)
			continue;
		json_array_set_new(answers, (size_t)s, json_integer(
		    holds_parry(json_array_get(hands, (size_t)s)) &&
		    rules_rng_below(rng, 2) ? 2 : 1));
	}
}

static void
parry_text(const json_t *saved, int seat, struct rules_rng *rng, char *buf,
    size_t len)
{
	static const char *const words[] = { "strike", "frapper", "parry",
	    "parer", "pass", "passer" };
	int w = (int)rules_rng_below(rng, 6);

	(void)saved;
	(void)seat;
	if (w < 2)
		snprintf(buf, len, "%s %d", words[w],
		    1 + (int)rules_rng_below(rng, 12));
	else
		snprintf(buf, len, "%s", words[w]);
}

/* The note() of the module under test (for play()). */
static void (*h_note)(const json_t *, struct known *);

static const struct hider hiders[] = {
	{ "stmissions", stm_note, stm_hide, stm_text },
	{ "template", ladder_note, ladder_hide, ladder_text },
	{ "respond", parry_note, parry_hide, parry_text },
};

/* ---- The comparison ------------------------------------------------------ */

static void
same_json(json_t *a, json_t *b, const char *what, const char *where)
{
	char *x = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS);
	char *y = json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS);

	ck_assert_msg(x != NULL && y != NULL && strcmp(x, y) == 0,
	    "%s: %s differs with hidden cards moved:\n%s\n%s", where, what,
	    x ? x : "(null)", y ? y : "(null)");
	free(x);
	free(y);
	json_decref(a);
	json_decref(b);
}

/* parse then check, as the core does with a move text. */
static enum rules_status
try_text(const struct rules_module *m, const void *st, int seat,
    const char *text, enum rules_lang lang, char *err)
{
	json_t *move = NULL;
	enum rules_status rs;

	err[0] = '\0';
	rs = m->parse(st, seat, text, lang, &move, err, RULES_ERRLEN);
	if (rs != RULES_OK)
		return rs;
	rs = m->check(st, seat, move, lang, err, RULES_ERRLEN);
	json_decref(move);
	return rs;
}

/* Every answer to text the seat may get, from both states. */
static void
same_answers(const struct rules_module *m, const void *g1, const void *g2,
    int seat, const char *text, const char *where)
{
	char		 a[RULES_ERRLEN], b[RULES_ERRLEN];
	enum rules_lang	 lang;
	enum rules_status r1, r2;

	for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
		r1 = try_text(m, g1, seat, text, lang, a);
		r2 = try_text(m, g2, seat, text, lang, b);
		ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s, \"%s\": the "
		    "answer depends on hidden cards:\n%d %s\n%d %s", where,
		    text, r1, a, r2, b);
		if (m->translate == NULL)
			continue;
		a[0] = b[0] = '\0';
		r1 = m->translate(g1, seat, text, lang, a, sizeof(a));
		r2 = m->translate(g2, seat, text, lang, b, sizeof(b));
		ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s, \"%s\": "
		    "translate depends on hidden cards:\n%d %s\n%d %s", where,
		    text, r1, a, r2, b);
	}
}

static void
same_texts(const struct rules_module *m, const void *g1, const void *g2,
    int seat, json_t *texts, const char *where)
{
	size_t i;

	for (i = 0; i < json_array_size(texts); i++)
		same_answers(m, g1, g2, seat, json_string_value(
		    json_array_get(texts, i)), where);
}

/* Everything but move texts: view, forms, legal moves, default, skip. */
static void
same_seat(const struct rules_module *m, const void *g1, const void *g2,
    int seat, const char *where)
{
	char		 a[RULES_ERRLEN], b[RULES_ERRLEN];
	enum rules_lang	 lang;
	enum rules_status r1, r2;

	same_json(m->view(g1, seat), m->view(g2, seat), "view", where);
	for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++)
		same_json(m->move_forms(g1, seat, lang),
		    m->move_forms(g2, seat, lang), "move forms", where);
	same_json(m->legal_moves(g1, seat), m->legal_moves(g2, seat),
	    "legal moves", where);
	if (m->default_move != NULL) {
		a[0] = b[0] = '\0';
		r1 = m->default_move(g1, seat, a, sizeof(a));
		r2 = m->default_move(g2, seat, b, sizeof(b));
		ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s: the default "
		    "move depends on hidden cards: %d %s / %d %s", where, r1, a,
		    r2, b);
	}
	if (m->skip_check != NULL)
		for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
			a[0] = b[0] = '\0';
			r1 = m->skip_check(g1, seat, lang, a, sizeof(a));
			r2 = m->skip_check(g2, seat, lang, b, sizeof(b));
			ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s: skip "
			    "check depends on hidden cards: %d %s / %d %s",
			    where, r1, a, r2, b);
		}
}

/* describe_last is public: for every seat's last move, in both
 * languages, the same status and words whatever the seat cannot see
 * (and so whatever the public cannot see).  *described counts the
 * phrases compared. */
static void
same_descriptions(const struct rules_module *m, const void *g1,
    const void *g2, int nseats, const char *where, int *described)
{
	static const char *const names[] = { "alice", "bruno", "carol",
	    "dora", "emil", "fanny", "gus", "hana" };
	char		 a[RULES_ERRLEN], b[RULES_ERRLEN];
	enum rules_lang	 lang;
	enum rules_status r1, r2;
	int		 s;

	if (m->api_version < 5 || m->describe_last == NULL)
		return;
	for (s = 0; s < nseats; s++)
		for (lang = RULES_LANG_EN; lang <= RULES_LANG_FR; lang++) {
			a[0] = b[0] = '\0';
			r1 = m->describe_last(g1, s, names, lang, a, sizeof(a));
			r2 = m->describe_last(g2, s, names, lang, b, sizeof(b));
			ck_assert_msg(r1 == r2 && strcmp(a, b) == 0, "%s: the "
			    "description of seat %d's last move depends on "
			    "hidden cards: %d \"%s\" / %d \"%s\"", where, s,
			    r1, a, r2, b);
			*described += r1 == RULES_OK;
		}
}

static int
same_to_act(const struct rules_module *m, const void *g1, const void *g2)
{
	int a[16], b[16], na, nb;

	na = m->to_act(g1, a, 16);
	nb = m->to_act(g2, b, 16);
	return na == nb && memcmp(a, b, sizeof(int) * (size_t)(na < 16 ?
	    na : 16)) == 0;
}

static void *
load_or_fail(const struct rules_module *m, const json_t *saved,
    const char *where)
{
	char	 err[RULES_ERRLEN];
	void	*st = m->load(saved, err, sizeof(err));
	char	*text;

	if (st == NULL) {
		text = json_dumps(saved, JSON_COMPACT);
		ck_abort_msg("%s: the rearranged state does not load (%s): %s",
		    where, err, text);
	}
	return st;
}

/* Set up a game from seed and play up to plies random legal moves
 * (chosen by a stream of their own, so the same seed plays the same
 * game); the cards shown on the way go to k when it is not NULL.  The
 * number of moves played is left in *played. */
static void *
play(const struct rules_module *m, uint64_t seed, int nseats, int plies,
    struct known *k, int *played)
{
	struct rules_rng rng, choose;
	char		 err[RULES_ERRLEN];
	json_t		*opts = json_object(), *saved;
	void		*st;
	int		 n, seats[16], nact;

	seeded(&rng, seed, 0);
	seeded(&choose, seed, 1u << 20);
	st = m->setup(nseats, opts, &rng, err, sizeof(err));
	json_decref(opts);
	ck_assert_msg(st != NULL, "%s setup: %s", m->name, err);
	for (n = 0; n < plies && (nact = m->to_act(st, seats, 16)) > 0; n++) {
		int seat = seats[rules_rng_below(&choose, (uint32_t)(nact < 16 ?
		    nact : 16))];
		json_t *legal = m->legal_moves(st, seat), *move = NULL;

		ck_assert_uint_gt(json_array_size(legal), 0);
		ck_assert_int_eq(m->parse(st, seat, json_string_value(
		    json_array_get(legal, rules_rng_below(&choose, (uint32_t)
		    json_array_size(legal)))), RULES_LANG_EN, &move, err,
		    sizeof(err)), RULES_OK);
		seeded(&rng, seed, (uint64_t)n + 1);
		m->apply(st, seat, move, &rng);
		json_decref(move);
		json_decref(legal);
		if (k != NULL) {
			saved = m->save(st);
			h_note(saved, k);
			json_decref(saved);
		}
	}
	*played = n;
	return st;
}

/* A random position of a random game: the whole game is played once to
 * learn its length, then again up to a random point before its end. */
static void *
random_position(const struct rules_module *m, uint64_t seed,
    struct rules_rng *pick, struct known *k)
{
	void	*st;
	int	 nseats, length;

	nseats = m->min_seats + (int)rules_rng_below(pick,
	    (uint32_t)(m->max_seats - m->min_seats + 1));
	st = play(m, seed, nseats, MAX_PLIES, NULL, &length);
	m->destroy(st);
	ck_assert_int_gt(length, 0);
	return play(m, seed, nseats, (int)rules_rng_below(pick,
	    (uint32_t)length), k, &length);
}

static void
no_peek(const struct hider *h)
{
	const struct rules_module *m = rules_find(h->ruleset);
	struct rules_rng pick;
	int		 pos, tested = 0, changed = 0, described = 0;

	ck_assert_msg(m != NULL, "no module %s", h->ruleset);
	h_note = h->note;
	seeded(&pick, 14, 3);
	for (pos = 0; pos < POSITIONS; pos++) {
		struct known	 k = { 0 };
		void		*st, *g1, *g2 = NULL;
		json_t		*s1, *s2 = NULL, *l1, *l2;
		char		 where[64], text[256];
		int		 seat, nseats, tries, n;

		snprintf(where, sizeof(where), "%s position %d", m->name, pos);
		st = random_position(m, 1400 + (uint64_t)pos, &pick, &k);
		s1 = m->save(st);
		h->note(s1, &k);
		nseats = (int)json_integer_value(json_object_get(s1,
		    "nseats"));
		seat = (int)rules_rng_below(&pick, (uint32_t)nseats);
		g1 = load_or_fail(m, s1, where);
		/* Over, nothing is hidden any more. */
		tries = m->to_act(g1, &n, 1) == 0 ? HIDE_TRIES : 0;
		for (; tries < HIDE_TRIES; tries++) {
			s2 = json_deep_copy(s1);
			h->hide(s2, seat, &k, &pick);
			g2 = load_or_fail(m, s2, where);
			if (same_to_act(m, g1, g2))
				break;
			m->destroy(g2);
			json_decref(s2);
			g2 = NULL;
		}
		if (g2 != NULL) {
			tested++;
			changed += !json_equal(s1, s2);
			same_seat(m, g1, g2, seat, where);
			same_descriptions(m, g1, g2, nseats, where,
			    &described);
			l1 = m->legal_moves(g1, seat);
			l2 = m->legal_moves(g2, seat);
			same_texts(m, g1, g2, seat, l1, where);
			same_texts(m, g1, g2, seat, l2, where);
			json_decref(l1);
			json_decref(l2);
			for (n = 0; n < RANDOM_TEXTS; n++) {
				h->text(s1, seat, &pick, text, sizeof(text));
				same_answers(m, g1, g2, seat, text, where);
			}
			m->destroy(g2);
			json_decref(s2);
		}
		m->destroy(g1);
		m->destroy(st);
		json_decref(s1);
	}
	/* The test means something only if the states did differ. */
	fprintf(stderr, "%s: %d positions compared, %d with hidden cards "
	    "moved, %d last moves described\n", m->name, tested, changed,
	    described);
	ck_assert_int_ge(tested, POSITIONS * 3 / 4);
	ck_assert_int_ge(described, tested);
	ck_assert_int_ge(changed, tested / 2);
}

START_TEST(test_no_peek)
{
	no_peek(&hiders[_i]);
}
END_TEST

static int
holds(const json_t *hand, const char *id)
{
	size_t i;

	for (i = 0; i < json_array_size(hand); i++)
		if (strcmp(json_string_value(json_array_get(hand, i)), id) == 0)
			return 1;
	return 0;
}

/* The rearrangement itself: it moves hidden cards, keeps the seat's
 * hand, the discard area and the shown cards where they were, and a card
 * another seat drew in the first half of its turn stays in its hand. */
START_TEST(test_hide_keeps_what_shows)
{
	struct known	 k = { 0 };
	struct rules_rng rng;
	json_t		*s = json_pack("{s:[s,s,s], s:[s,s], s:[s], "
	    "s:[[s,s],[s,s,s]], s:{s:[s]}}",
	    "galaxy_deck", "G01", "G02", "G03", "mission_deck", "M01", "M02",
	    "discard", "G09", "hands", "G04", "M03", "G05", "G06", "M04",
	    "pending", "drawn", "G06");
	json_t		*before = json_deep_copy(s), *theirs, *g05;
	const char	*drawn;
	int		 moved = 0, i;

	g05 = json_string("G05");
	add_known(&k, g05);
	json_decref(g05);
	seeded(&rng, 1, 1);
	for (i = 0; i < 20; i++) {
		stm_hide(s, 0, &k, &rng);
		ck_assert(json_equal(json_object_get(s, "discard"),
		    json_object_get(before, "discard")));
		ck_assert(json_equal(json_array_get(json_object_get(s,
		    "hands"), 0), json_array_get(json_object_get(before,
		    "hands"), 0)));
		theirs = json_array_get(json_object_get(s, "hands"), 1);
		/* G05 is known: it stays in seat 1's hand. */
		ck_assert(holds(theirs, "G05"));
		drawn = json_string_value(json_array_get(json_object_get(
		    json_object_get(s, "pending"), "drawn"), 0));
		ck_assert_msg(holds(theirs, drawn), "drawn %s left the hand",
		    drawn);
		/* Missions cards stay among Missions cards. */
		ck_assert_int_eq(json_string_value(json_array_get(
		    json_object_get(s, "mission_deck"), 0))[0], 'M');
		moved += !json_equal(s, before);
	}
	ck_assert_int_gt(moved, 0);
	json_decref(s);
	json_decref(before);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("nopeek");
	TCase	*tc = tcase_create("nopeek");
	SRunner	*sr;
	int	 failed;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_hide_keeps_what_shows);
	tcase_add_loop_test(tc, test_no_peek, 0,
	    (int)(sizeof(hiders) / sizeof(hiders[0])));
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
