/*
 * words.c -- the words of moves: text into tokens, the vocabulary of
 * both languages, and card names into cards.
 *
 * The text is folded (rules_fold: case, accents, typographic apostrophes)
 * and cut into words; , ; : . ! & + become separator tokens (",").
 *
 * Cards are found, in this order: by id (G12, m2); by a full English or
 * French name, the longest that matches first, so "Lursa and B'Etor" is
 * one card and not two separated by "and"; then by part of a name (whole
 * words, the last possibly cut short: "Worf", "borg", "comp") among the
 * cards of a context -- the seat's own hand, the discard area -- and
 * failing that among all 74.  Leading articles ("the", "le", "la", "l'")
 * are skipped when they are not part of a name.
 */
#include <stdlib.h>
#include <string.h>

#include "stmissions.h"

#define NAME_TOKENS	16

static const char *const take_words[] = {
	"take", "prendre", "prends", "prenez", "reprendre", NULL
};
static const char *const draw_words[] = {
	"draw", "piocher", "pioche", "piochez", "tirer", NULL
};
static const char *const discard_words[] = {
	"discard", "defausser", "defausse", "defaussez", NULL
};
static const char *const sep_words[] = {
	"then", "puis", "ensuite", "and", "et", NULL
};
static const char *const galaxy_words[] = { "galaxy", "galaxie", NULL };
static const char *const mission_words[] = { "mission", "missions", NULL };
static const char *const drawn_words[] = {
	"drawn", "piochee", "piochees", "pioche", NULL
};
/* Words that may surround a deck name or a drawn card. */
static const char *const filler_words[] = {
	"the", "a", "top", "card", "cards", "from", "deck", "new", "one",
	"two", "la", "le", "les", "l", "un", "une", "de", "du", "des",
	"dans", "carte", "cartes", "premiere", "premieres", "deux",
	"nouvelle", "sommet", "pioche", "1", "2", NULL
};
/* Words skipped before a card name when they are not part of it. */
static const char *const article_words[] = {
	"the", "a", "card", "le", "la", "les", "un", "une", "carte", NULL
};

static const char *const *const word_lists[] = {
	[STM_W_TAKE] = take_words,
	[STM_W_DRAW] = draw_words,
	[STM_W_DISCARD] = discard_words,
	[STM_W_SEP] = sep_words,
	[STM_W_GALAXY] = galaxy_words,
	[STM_W_MISSION] = mission_words,
	[STM_W_DRAWN] = drawn_words,
	[STM_W_FILLER] = filler_words,
	[STM_W_ARTICLE] = article_words
};

static int
word_in(const char *w, const char *const *list)
{
	int	i;

	for (i = 0; list[i] != NULL; i++)
		if (strcmp(w, list[i]) == 0)
			return 1;
	return 0;
}

int
stm_word_is(const char *w, enum stm_word class)
{
	return word_in(w, word_lists[class]);
}

enum stm_verb
stm_verb_of(const char *w)
{
	if (word_in(w, take_words))
		return STM_VERB_TAKE;
	if (word_in(w, draw_words))
		return STM_VERB_DRAW;
	if (word_in(w, discard_words))
		return STM_VERB_DISCARD;
	return STM_VERB_NONE;
}

int
stm_is_sep(const char *w)
{
	return strcmp(w, STM_SEP) == 0 || word_in(w, sep_words);
}

/* Letters, digits and the apostrophe make words (after folding). */
static int
is_word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '\'';
}

static int
is_sep_char(int c)
{
	return c != '\0' && strchr(",;:.!&+", c) != NULL;
}

/* Copy the word at text[*i] to out without quotes around it; returns
 * its length (0 if it was only quotes). */
static size_t
copy_word(const char *text, size_t *i, char *out)
{
	size_t	len = 0, skip = 0;

	while (is_word_char((unsigned char)text[*i]))
		out[len++] = text[(*i)++];
	while (len > 0 && out[len - 1] == '\'')		/* closing quote */
		len--;
	while (skip < len && out[skip] == '\'')		/* opening quote */
		skip++;
	memmove(out, out + skip, len - skip);
	return len - skip;
}

/*
 * Fold text and cut it into tokens: words, and "," for each of
 * , ; : . ! & +.  Anything else, including what folding left outside
 * ASCII, only separates words.
 */
int
stm_tokenize(const char *text, struct stm_tokens *t)
{
	char	 folded[STM_TEXT_MAX + 1];
	char	*out = t->store;
	size_t	 i = 0, len;
	int	 c;

	t->n = 0;
	if (strlen(text) > STM_TEXT_MAX)
		return -1;
	rules_fold(text, folded, sizeof(folded));
	while ((c = (unsigned char)folded[i]) != '\0') {
		if (!is_sep_char(c) && !is_word_char(c)) {
			i++;
			continue;
		}
		if (is_sep_char(c)) {
			i++;
			len = strlen(STM_SEP);
			memcpy(out, STM_SEP, len);
		} else if ((len = copy_word(folded, &i, out)) == 0)
			continue;
		if (t->n == STM_TOKENS_MAX)
			return -1;
		out[len] = '\0';
		t->tok[t->n++] = out;
		out += len + 1;
	}
	return 0;
}

/* A card name cut into words the same way (punctuation dropped). */
struct name_words {
	int	 n;
	char	*w[NAME_TOKENS];
	char	 store[160];
};

static void
name_words(const char *name, struct name_words *nw)
{
	char	 folded[128];
	char	*out = nw->store;
	size_t	 i = 0, len;

	nw->n = 0;
	rules_fold(name, folded, sizeof(folded));
	while (folded[i] != '\0' && nw->n < NAME_TOKENS) {
		if (!is_word_char((unsigned char)folded[i])) {
			i++;
			continue;
		}
		if ((len = copy_word(folded, &i, out)) == 0)
			continue;
		out[len] = '\0';
		nw->w[nw->n++] = out;
		out += len + 1;
	}
}

/* "g12", "m2": a card id, or -1. */
static int
card_from_word(const char *w)
{
	char	*end;
	long	 num;

	if ((w[0] != 'g' && w[0] != 'm') || w[1] < '0' || w[1] > '9')
		return -1;
	num = strtol(w + 1, &end, 10);
	if (*end != '\0' || end - (w + 1) > 2)
		return -1;
	if (w[0] == 'g' && num >= 1 && num <= STM_NGALAXY)
		return (int)num - 1;
	if (w[0] == 'm' && num >= 1 && num <= STM_NMISSION)
		return STM_NGALAXY + (int)num - 1;
	return -1;
}

/*
 * Matching card names against words.  A query word is compared with a
 * name word; the first query word may carry an elided article ("l'",
 * "d'") that the name lacks.
 */
static const char *
strip_elision(const char *w)
{
	if ((strncmp(w, "l'", 2) == 0 || strncmp(w, "d'", 2) == 0) &&
	    w[2] != '\0')
		return w + 2;
	return w;
}

/* Do tokens [p, p + nw->n) spell the whole name? */
static int
full_name_at(const struct stm_tokens *t, int p,
    const struct name_words *nw, int elide)
{
	const char	*w;
	int		 i;

	if (nw->n == 0 || p + nw->n > t->n)
		return 0;
	for (i = 0; i < nw->n; i++) {
		w = t->tok[p + i];
		if (i == 0 && elide)
			w = strip_elision(w);
		if (strcmp(w, nw->w[i]) != 0)
			return 0;
	}
	return 1;
}

/* Is query word q the name word w, or its start when prefix is set? */
static int
word_matches(const char *q, const char *w, int prefix)
{
	if (prefix)
		return strncmp(q, w, strlen(q)) == 0;
	return strcmp(q, w) == 0;
}

/* Do query words q[0..nq) appear in the name, consecutive, the last one
 * possibly as the start of a name word?  A name word's elided article
 * may be left out ("enterprise" finds "L'Enterprise se dérègle"). */
static int
part_of_name(char *const *q, int nq, const struct name_words *nw)
{
	const char	*w;
	int		 s, i, prefix;

	for (s = 0; s + nq <= nw->n; s++) {
		for (i = 0; i < nq; i++) {
			w = nw->w[s + i];
			prefix = i == nq - 1;
			if (!word_matches(q[i], w, prefix) && (i > 0 ||
			    !word_matches(q[i], strip_elision(w), prefix)))
				break;
		}
		if (i == nq)
			return 1;
	}
	return 0;
}

static int
card_name_has_part(int card, char *const *q, int nq)
{
	struct name_words	nw;

	name_words(stm_cards[card].name_en, &nw);
	if (part_of_name(q, nq, &nw))
		return 1;
	name_words(stm_cards[card].name_fr, &nw);
	return part_of_name(q, nq, &nw);
}

/* Does word w end a card reference?  A separator or a verb does --
 * except "pioche", which inside a discard list is the French "drawn". */
static int
ends_ref(const char *w)
{
	return stm_is_sep(w) || (stm_verb_of(w) != STM_VERB_NONE && strcmp(w,
	    "pioche") != 0);
}

/* Where the card reference starting at p ends. */
int
stm_ref_end(const struct stm_tokens *t, int p)
{
	while (p < t->n && !ends_ref(t->tok[p]))
		p++;
	return p;
}

int
stm_boundary_at(const struct stm_tokens *t, int p)
{
	return p >= t->n || ends_ref(t->tok[p]);
}

/* How many words of the card's name, in either language, are spelled at
 * p and followed by a boundary; 0 if none. */
static int
name_length_at(const struct stm_tokens *t, int p, int card)
{
	struct name_words	nw;
	int			lang, best = 0;

	for (lang = 0; lang < 2; lang++) {
		name_words(lang ? stm_cards[card].name_fr :
		    stm_cards[card].name_en, &nw);
		if (nw.n > best && (full_name_at(t, p, &nw, 0) ||
		    full_name_at(t, p, &nw, 1)) && stm_boundary_at(t, p + nw.n))
			best = nw.n;
	}
	return best;
}

/* The longest full name starting at p, or after one or two articles
 * there; its card, with *next just past it, or -1. */
static int
full_name_match(const struct stm_tokens *t, int p, int *next)
{
	int	best = -1, bestlen = 0, card, len, skip;

	for (skip = 0; skip <= 2 && p + skip < t->n; skip++) {
		if (skip > 0 && !word_in(t->tok[p + skip - 1], article_words))
			break;
		for (card = 0; card < STM_NCARDS; card++)
			if ((len = name_length_at(t, p + skip,
			    card)) > bestlen) {
				best = card;
				bestlen = len;
				*next = p + skip + len;
			}
		if (best >= 0)
			return best;
	}
	return -1;
}


static int
in_context(const struct stm_context *ctx, int card)
{
	int	i, k;

	for (k = 0; k < 2; k++)
		if (ctx->pile[k] != NULL)
			for (i = 0; i < ctx->pile[k]->n; i++)
				if (ctx->pile[k]->cards[i] == card)
					return 1;
	return 0;
}


static void
join_words(char *const *w, int n, char *buf, size_t len)
{
	int	i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			strncat(buf, " ", len - strlen(buf) - 1);
		strncat(buf, w[i], len - strlen(buf) - 1);
	}
}

/* Part of a name, in [p, end): the context first, then every card. */
static void
partial_match(const struct stm_tokens *t, int p, int end,
    const struct stm_context *ctx, struct stm_lookup *lk)
{
	char	*q[STM_TOKENS_MAX] = { NULL };
	int	 nq = 0, i, card, pass;

	for (i = p; i < end; i++)
		q[nq++] = t->tok[i];
	while (nq > 1 && word_in(q[0], article_words)) {
		memmove(q, q + 1, (size_t)(nq - 1) * sizeof(q[0]));
		nq--;
	}
	join_words(q, nq, lk->query, sizeof(lk->query));
	if (nq > 0)
		q[0] = (char *)strip_elision(q[0]);
	for (pass = 0; pass < 2 && nq > 0; pass++) {
		lk->ncand = 0;
		for (card = 0; card < STM_NCARDS; card++)
			if ((pass == 1 || in_context(ctx, card)) &&
			    card_name_has_part(card, q, nq))
				lk->cand[lk->ncand++] = card;
		if (lk->ncand == 1)
			lk->card = lk->cand[0];
		if (lk->ncand > 0)
			return;
	}
}

/*
 * Find the card named at p.  On success *next is just past it.  On
 * failure lk->card is -1 and lk->ncand tells unknown (0) from ambiguous.
 */
void
stm_find_card(const struct stm_tokens *t, int p,
    const struct stm_context *ctx, struct stm_lookup *lk, int *next)
{
	int	end;

	lk->card = -1;
	lk->ncand = 0;
	lk->query[0] = '\0';
	end = stm_ref_end(t, p);
	if (end == p + 1 && (lk->card = card_from_word(t->tok[p])) >= 0) {
		*next = p + 1;
		return;
	}
	if ((lk->card = full_name_match(t, p, next)) >= 0)
		return;
	partial_match(t, p, end, ctx, lk);
	*next = end;
}


/*
 * "Did you mean": the nearest card name or keyword to a misspelt one.
 * Every card name is public (the game has 74 cards, all printed), so the
 * suggestion looks at all of them alike, never at where a card lies.
 */
static int
nearest_in_name(const char *query, int nq, const struct name_words *nw,
    int limit)
{
	char	run[128];
	int	s, d, best = limit + 1;

	join_words(nw->w, nw->n, run, sizeof(run));
	if ((d = rules_edit_distance(query, run, limit)) < best)
		best = d;
	for (s = 0; nq < nw->n && s + nq <= nw->n; s++) {
		join_words(nw->w + s, nq, run, sizeof(run));
		if ((d = rules_edit_distance(query, run, limit)) < best)
			best = d;
	}
	return best;
}

int
stm_nearest_card(const char *query)
{
	struct name_words	nw;
	int			limit, nq, card, lang, d, best, bestd;
	const char		*p;

	limit = rules_typo_limit(query);
	if (limit == 0)
		return -1;
	for (nq = 1, p = query; *p != '\0'; p++)
		nq += *p == ' ';
	best = -1;
	bestd = limit + 1;
	for (card = 0; card < STM_NCARDS; card++)
		for (lang = 0; lang < 2; lang++) {
			name_words(lang == 0 ? stm_cards[card].name_en :
			    stm_cards[card].name_fr, &nw);
			d = nearest_in_name(query, nq, &nw, limit);
			if (d < bestd) {
				bestd = d;
				best = card;
			} else if (d == bestd && best != card && d <= limit)
				best = -2;	/* two cards as near: no guess */
		}
	return best >= 0 ? best : -1;
}

const char *
stm_nearest_word(const char *w, enum stm_word class)
{
	return rules_nearest(w, word_lists[class]);
}

const char *
stm_nearest_verb(const char *w)
{
	static const char *const *const verbs[] = {
		take_words, draw_words, discard_words
	};
	const char	*best = NULL, *c;
	int		 i, d, bestd = rules_typo_limit(w) + 1;

	for (i = 0; i < 3; i++)
		if ((c = rules_nearest(w, verbs[i])) != NULL &&
		    (d = rules_edit_distance(w, c, bestd)) < bestd) {
			bestd = d;
			best = c;
		}
	return best;
}
