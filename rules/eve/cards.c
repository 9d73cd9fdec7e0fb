/*
 * cards.c -- the cards of Enterprise vs Excelsior and their names.
 *
 * Player cards 0..32 (the same numbering in both decks): 0..24 are the
 * flight cards, five of each travel type in type order; 25 is Briefing,
 * 26-27 Retreat, 28-29 Neutral Zone, 30-32 Mirror Universe.
 *
 * Travel cards 0..39: 0..9 are the doubles (two of each type), 10..39
 * the mixed cards, three of each unordered pair of different types.  A
 * card's side 0 faces route 0 (the Enterprise) when it is not turned.
 */
#include <stdio.h>
#include <string.h>

#include "eve.h"

int
eve_kind(int card)
{
	if (card < 25)
		return card / 5;
	if (card == 25)
		return K_BRIEFING;
	if (card < 28)
		return K_RETREAT;
	if (card < 30)
		return K_NEUTRAL;
	return K_MIRROR;
}

static const int pairs[10][2] = {
	{ 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 2 },
	{ 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 }
};

int
eve_travel_half(int tcard, int side)
{
	if (tcard < 10)
		return tcard / 2;
	return pairs[(tcard - 10) / 3][side];
}

/* The type of space i of the row on route's side. */
int
eve_space(const struct eve *g, int i, int route)
{
	return eve_travel_half(g->row[i], route ^ g->flip[i]);
}

static const int sf_cards[EVE_STARFLEET][2] = {
	{ K_NEBULA, K_ASTEROID }, { K_CLASSM, K_BLACKHOLE },
	{ K_IONSTORM, K_NEBULA }, { K_ASTEROID, EVE_SPOCK },
	{ K_CLASSM, EVE_SPOCK }, { K_BLACKHOLE, K_IONSTORM }
};

int
eve_sf_matches(int sfcard, int kind)
{
	int want = kind < EVE_NTYPES ? kind : EVE_SPOCK;

	return sf_cards[sfcard][0] == want || sf_cards[sfcard][1] == want;
}

static const char *const names_en[K_NKINDS] = {
	"nebula", "asteroid field", "class-m planet", "black hole",
	"ion storm", "briefing", "retreat", "neutral zone", "mirror universe"
};
static const char *const names_fr[K_NKINDS] = {
	"nébuleuse", "champ d'astéroïdes", "planète de classe M",
	"trou noir", "tempête ionique", "briefing", "repli", "zone neutre",
	"univers miroir"
};

const char *
eve_kind_name(int kind, enum rules_lang lang)
{
	return lang == RULES_LANG_FR ? names_fr[kind] : names_en[kind];
}

static const char *const tracks_en[T_NTRACKS] = {
	"torpedoes", "dilithium", "hull", "shields"
};
static const char *const tracks_fr[T_NTRACKS] = {
	"torpilles", "dilithium", "coque", "boucliers"
};

const char *
eve_track_name(int track, enum rules_lang lang)
{
	return lang == RULES_LANG_FR ? tracks_fr[track] : tracks_en[track];
}

/* The name of symbol which (0 or 1) of Starfleet card sfcard. */
const char *
eve_sf_symbol_name(int sfcard, int which, enum rules_lang lang)
{
	int sym = sf_cards[sfcard][which];

	return sym == EVE_SPOCK ? "Spock" : eve_kind_name(sym, lang);
}

const char *
eve_route_name(int route)
{
	return route == 0 ? "enterprise" : "excelsior";
}

const char *
eve_ship_name(int seat)
{
	return seat == 0 ? "Enterprise" : "Excelsior";
}

/*
 * Every folded phrase that names a kind, English, French and short.
 * Words are separated by single spaces, as rules_fold() leaves them.
 */
static const struct {
	int		 kind;
	const char	*phrase;
} aliases[] = {
	{ K_NEBULA, "nebula" }, { K_NEBULA, "nebuleuse" },
	{ K_NEBULA, "neb" },
	{ K_ASTEROID, "asteroid field" }, { K_ASTEROID, "asteroid fields" },
	{ K_ASTEROID, "asteroid" }, { K_ASTEROID, "asteroids" },
	{ K_ASTEROID, "champ d'asteroides" }, { K_ASTEROID, "champ d asteroides" },
	{ K_ASTEROID, "champ asteroides" }, { K_ASTEROID, "asteroides" },
	{ K_ASTEROID, "asteroide" }, { K_ASTEROID, "ast" },
	{ K_CLASSM, "class-m planet" }, { K_CLASSM, "class m planet" },
	{ K_CLASSM, "class-m" }, { K_CLASSM, "class m" },
	{ K_CLASSM, "planet" }, { K_CLASSM, "planete de classe m" },
	{ K_CLASSM, "planete classe m" }, { K_CLASSM, "classe m" },
	{ K_CLASSM, "classe-m" }, { K_CLASSM, "planete" }, { K_CLASSM, "pcm" },
	{ K_CLASSM, "cm" },
	{ K_BLACKHOLE, "black hole" }, { K_BLACKHOLE, "blackhole" },
	{ K_BLACKHOLE, "trou noir" }, { K_BLACKHOLE, "bh" },
	{ K_BLACKHOLE, "tn" },
	{ K_IONSTORM, "ion storm" }, { K_IONSTORM, "ion" },
	{ K_IONSTORM, "storm" }, { K_IONSTORM, "tempete ionique" },
	{ K_IONSTORM, "tempete" }, { K_IONSTORM, "ti" },
	{ K_BRIEFING, "briefing" }, { K_BRIEFING, "brief" },
	{ K_RETREAT, "retreat" }, { K_RETREAT, "repli" },
	{ K_NEUTRAL, "neutral zone" }, { K_NEUTRAL, "neutral" },
	{ K_NEUTRAL, "zone neutre" }, { K_NEUTRAL, "nz" }, { K_NEUTRAL, "zn" },
	{ K_MIRROR, "mirror universe" }, { K_MIRROR, "mirror" },
	{ K_MIRROR, "univers miroir" }, { K_MIRROR, "miroir" },
	{ K_MIRROR, "mu" }, { K_MIRROR, "um" }
};

/* How many of the words w[0..n) the phrase covers, or 0. */
static int
phrase_covers(const char *phrase, const char *const *w, int n)
{
	char buf[64];
	const char *p = phrase;
	int i = 0;

	while (*p != '\0') {
		size_t len = strcspn(p, " ");

		if (i >= n || len >= sizeof(buf))
			return 0;
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (strcmp(buf, w[i]) != 0)
			return 0;
		i++;
		p += len;
		if (*p == ' ')
			p++;
	}
	return i;
}

/* "Did you mean": the kind whose name (any phrase above of one or two
 * words) is nearest to w[0] (or w[0] w[1]) within rules_typo_limit(),
 * or -1.  Card kinds are public knowledge. */
int
eve_nearest_kind(const char *const *w, int n)
{
	char q[2][128];
	size_t i;
	int k, nq, d, best = -1, bestd;

	if (n <= 0 || rules_typo_limit(w[0]) == 0)
		return -1;
	snprintf(q[0], sizeof(q[0]), "%s", w[0]);
	nq = 1;
	if (n > 1) {
		snprintf(q[1], sizeof(q[1]), "%s %s", w[0], w[1]);
		nq = 2;
	}
	bestd = rules_typo_limit(w[0]) + 1;
	for (k = 0; k < nq; k++)
		for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
			if (strlen(aliases[i].phrase) <= 3)
				continue;	/* short forms: too near anything */
			d = rules_edit_distance(q[k], aliases[i].phrase, bestd - 1);
			if (d == 0)
				return -1;	/* a known name: no typo */
			if (d < bestd) {
				bestd = d;
				best = aliases[i].kind;
			}
		}
	return best;
}

/* The kind named by the longest phrase at the start of w, or -1. */
int
eve_match_kind(const char *const *w, int n, int *used)
{
	size_t i;
	int best = -1, bestlen = 0, len;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (n == 0 || aliases[i].phrase[0] != w[0][0])
			continue;
		len = phrase_covers(aliases[i].phrase, w, n);
		if (len > bestlen) {
			bestlen = len;
			best = aliases[i].kind;
		}
	}
	*used = bestlen;
	return best;
}

int
eve_match_track(const char *word)
{
	static const struct {
		const char *w;
		int t;
	} tw[] = {
		{ "torpedoes", T_TORPEDO }, { "torpedo", T_TORPEDO },
		{ "torpilles", T_TORPEDO }, { "torpille", T_TORPEDO },
		{ "dilithium", T_DILITHIUM }, { "hull", T_HULL },
		{ "coque", T_HULL }, { "shields", T_SHIELD },
		{ "shield", T_SHIELD }, { "boucliers", T_SHIELD },
		{ "bouclier", T_SHIELD }
	};
	size_t i;

	for (i = 0; i < sizeof(tw) / sizeof(tw[0]); i++)
		if (strcmp(word, tw[i].w) == 0)
			return tw[i].t;
	return -1;
}

/* A message in the reader's language; both formats take the same args. */
void
eve_err(char *err, size_t errlen, enum rules_lang lang, const char *en,
    const char *fr, ...)
{
	va_list ap;

	va_start(ap, fr);
	vsnprintf(err, errlen, lang == RULES_LANG_FR ? fr : en, ap);
	va_end(ap);
}
