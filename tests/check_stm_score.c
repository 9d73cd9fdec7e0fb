/*
 * check_stm_score.c -- tests of the Star Trek: Missions card data and
 * hand scorer (rules/stmissions/cards.c, score*.c).
 *
 *  - the catalogue's worked examples, exactly;
 *  - at least one hand per card (74 of them) with its points worked out
 *    by hand in the comment beside it;
 *  - invalid hands, the JSON breakdown, the names;
 *  - a property test: for thousands of seeded random hands the scorer's
 *    total equals a slow reference written here from the catalogue,
 *    which tries every choice (every Borg Cube blank set, every
 *    Unidentified Ship type, lifeform, affiliation and specialty, every
 *    Thought Maker change, every Mysterious Plague lifeform) and every
 *    assignment of giving cards to clauses.  It shares nothing with
 *    score.c but the card attributes.  STM_PROPERTY_HANDS overrides how
 *    many random hands are tried.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cards.h"
#include "score.h"

#define END	(-1)	/* ends a card list */
#define ANY	(-999)	/* a card's points not checked */

/*
 * The slow reference.
 */
struct rc {
	int		card;
	unsigned	types;
	unsigned	specs;
	unsigned	lfs;
	int		aff;
};

static int
has_type(const struct rc *c, unsigned t)
{
	return (c->types & t) != 0;
}

static int
has_spec(const struct rc *c, unsigned s)
{
	return (c->specs & s) != 0;
}

static int
has_lf(const struct rc *c, unsigned l)
{
	return (c->lfs & l) != 0;
}

static int
is_fed(const struct rc *c)
{
	return c->aff == STM_A_FED;
}

static int
is_nonfed(const struct rc *c)
{
	return c->aff != STM_A_NONE && c->aff != STM_A_FED;
}

static int
is_char(const struct rc *c)
{
	return has_type(c, STM_T_PERSONNEL | STM_T_CIVILIAN | STM_T_CAPTAIN);
}

/* Clause kinds of the reference. */
enum rk {
	RK_PER = 1,	/* pays ref_pay() for each card given to it */
	RK_WITH,	/* pays the largest ref_pay() of the cards given, once */
	RK_COUNT,	/* pays tier[n] for n cards given (n capped at 2) */
	RK_DIFF,	/* each card given shows a value; all different; pays
			 * unit each, or `value` if at least `need` */
	RK_ROLE,	/* every RK_ROLE clause given a card: pays `value` */
	RK_LIFTER,	/* must be given one card; pays nothing */
	RK_LEAD		/* Ethical Dilemma: with RK_DIFF (need 2), pays value */
};

struct rshape {
	int	kind[4];
	int	nclauses;
	int	tier[3];
	int	unit;
	int	need;
	int	value;
	int	dim;		/* 0 spec, 1 lifeform, 2 affiliation */
	unsigned banned;	/* values RK_DIFF may not show */
	int	also;		/* nothing at all unless RK_COUNT is given
				 * two cards */
};

enum { D_SPEC, D_LF, D_AFF };

/* The clauses of each card. */
static void
ref_shape(int card, int version, struct rshape *s)
{
	memset(s, 0, sizeof(*s));
	s->nclauses = 1;
	s->kind[0] = RK_PER;
	switch (card) {
	case STM_C_BATLETH:
		s->kind[0] = RK_COUNT;
		s->tier[1] = 6;
		s->tier[2] = 16;
		break;
	case STM_C_QUARTERS:
	case STM_C_TURBOLIFT:
		s->kind[0] = RK_COUNT;
		s->tier[2] = card == STM_C_QUARTERS ? 12 : 16;
		break;
	case STM_C_PICARD:
	case STM_C_HOLODECK_1:
	case STM_C_HOLODECK_2:
	case STM_C_GEORDI:
		s->nclauses = 2;
		s->kind[1] = RK_PER;
		break;
	case STM_C_TOMALAK:
	case STM_C_TRANSPORTER:
		s->kind[0] = RK_DIFF;
		s->need = 3;
		s->value = card == STM_C_TOMALAK ? 13 : 18;
		s->dim = D_SPEC;
		break;
	case STM_C_DEANNA_TROI:
		s->kind[0] = RK_DIFF;
		s->unit = 5;
		s->dim = D_LF;
		break;
	case STM_C_HAND_PHASER:
	case STM_C_MINUET:
	case STM_C_STONE_OF_GOL:
		s->kind[0] = RK_WITH;
		break;
	case STM_C_LEAH_BRAHMS:
	case STM_C_PHOTON_TORPEDOES:
	case STM_C_SHIELDS:
	case STM_C_TRACTOR_BEAM:
		s->nclauses = 2;
		s->kind[1] = RK_WITH;
		break;
	case STM_C_SICKBAY:
		s->nclauses = 3;
		s->kind[0] = s->kind[1] = s->kind[2] = RK_ROLE;
		s->value = 20;
		break;
	case STM_C_ENEMIES_TO_FRIENDS:
	case STM_C_PERSONNEL_ISSUES:
	case STM_C_TRAPPED_HOLODECK:
		s->nclauses = 2;
		s->kind[0] = s->kind[1] = RK_ROLE;
		s->value = card == STM_C_ENEMIES_TO_FRIENDS ? 12 :
		    card == STM_C_PERSONNEL_ISSUES ? 14 : 15;
		break;
	case STM_C_AWAY_TEAM:
	case STM_C_DIPLOMATIC_CONFERENCE:
		s->nclauses = 2;
		s->kind[1] = RK_DIFF;
		s->unit = 5;
		s->dim = card == STM_C_AWAY_TEAM ? D_SPEC : D_AFF;
		break;
	case STM_C_CONFLICTING_ORDERS:
		/* two Command cards sharing an affiliation: a "different"
		 * clause cannot say it; handled in ref_score_card() */
		s->nclauses = 0;
		break;
	case STM_C_ETHICAL_DILEMMA:
		s->nclauses = 2;
		s->kind[0] = RK_LEAD;
		s->kind[1] = RK_DIFF;
		s->need = 2;
		s->value = 15;
		s->dim = D_SPEC;
		/* Version 1 read "different" as also from Command. */
		s->banned = version < STM_SCORE_V2 ? STM_S_COMMAND : 0;
		break;
	case STM_C_BLOSSOMING_ROMANCE:
		s->nclauses = 2;
		s->kind[1] = RK_COUNT;
		s->tier[2] = 8;
		/* Version 2: the 6s are "also", only with the 8. */
		s->also = version >= STM_SCORE_V2;
		break;
	case STM_C_SPACE_CONFRONTATION:
		s->nclauses = 2;
		s->kind[1] = RK_LIFTER;
		break;
	case STM_C_WESLEY:
	case STM_C_DATA:
	case STM_C_THOUGHT_MAKER:
	case STM_C_UNIDENTIFIED_SHIP:
	case STM_C_MEDDLESOME_Q:
	case STM_C_MYSTERIOUS_PLAGUE:	/* ref_plague() */
		s->nclauses = 0;
		break;
	default:
		break;
	}
}

/* What giver g pays `card` through clause j (0: g does not qualify). */
static int
ref_pay(int card, int j, const struct rc *g)
{
	switch (card) {
	case STM_C_KEHLEYR:
	case STM_C_KURN:
		return g->card == STM_C_WORF ? 10 : 0;
	case STM_C_SAREK:
		return has_type(g, STM_T_CAPTAIN) && is_nonfed(g) ? 5 : 0;
	case STM_C_BATLETH:
	case STM_C_GOWRON:
		return has_lf(g, STM_L_KLINGON) || g->aff == STM_A_KE ? 5 : 0;
	case STM_C_BRIDGE:
		return is_fed(g) && has_type(g, STM_T_PERSONNEL |
		    STM_T_SYSTEM) ? 3 : 0;
	case STM_C_PICARD:
		if (j == 0)
			return g->card == STM_C_BRIDGE ? 5 : 0;
		return has_type(g, STM_T_LOCATION) ? 3 : 0;
	case STM_C_MADDOX:
		return has_lf(g, STM_L_ANDROID) || has_lf(g, STM_L_HOLOGRAM) ?
		    5 : 0;
	case STM_C_SELA:
		return g->aff == STM_A_HOS || g->aff == STM_A_KE ? 4 : 0;
	case STM_C_TOMALAK:
		return is_fed(g);
	case STM_C_RIKER:
		return g->card == STM_C_TRANSPORTER ||
		    g->card == STM_C_DEANNA_TROI ||
		    g->card == STM_C_AWAY_TEAM ? 7 : 0;
	case STM_C_COMPUTER:
		return has_spec(g, STM_S_COSMIC) ? 6 : 0;
	case STM_C_DEANNA_TROI:
		return g->lfs != 0;
	case STM_C_CRYSTAL_ENTITY:
		return has_spec(g, STM_S_COMBAT) ? 6 : 0;
	case STM_C_BOK:
		return g->card == STM_C_PICARD ||
		    g->card == STM_C_THOUGHT_MAKER ? 8 : 0;
	case STM_C_TOG:
		return has_lf(g, STM_L_BETAZOID) ? 8 : 0;
	case STM_C_BEVERLY:
		return g->card == STM_C_SICKBAY || g->card == STM_C_WESLEY ?
		    8 : 0;
	case STM_C_ENGINE_ROOM:
		return has_spec(g, STM_S_ENGINEER) ? 6 : 0;
	case STM_C_HAND_PHASER:
		return is_fed(g) && has_spec(g, STM_S_SECURITY |
		    STM_S_COMMAND) ? 9 : 0;
	case STM_C_HOLODECK_1:
	case STM_C_HOLODECK_2:
		if (j == 0)
			return has_lf(g, STM_L_HOLOGRAM) ? 8 : 0;
		return is_fed(g) && has_type(g, STM_T_PERSONNEL |
		    STM_T_CAPTAIN) && !has_lf(g, STM_L_HOLOGRAM) ? 2 : 0;
	case STM_C_MORIARTY:
		return has_spec(g, STM_S_SCIENCE | STM_S_ENGINEER) ? 8 : 0;
	case STM_C_LEAH_BRAHMS:
		if (j == 0)
			return g->card == STM_C_GEORDI ||
			    g->card == STM_C_ENGINE_ROOM ? 9 : 0;
		return g->card == STM_C_HOLODECK_1 ||
		    g->card == STM_C_HOLODECK_2 ||
		    g->card == STM_C_COMPUTER ? 5 : 0;
	case STM_C_GEORDI:
		if (j == 0)
			return has_type(g, STM_T_SYSTEM) ? 4 : 0;
		return g->card == STM_C_ENGINE_ROOM ? 4 : 0;
	case STM_C_WORF:
		return has_spec(g, STM_S_WEAPON | STM_S_COMBAT) ? 4 : 0;
	case STM_C_LORE:
		return g->card == STM_C_DATA ||
		    g->card == STM_C_CRYSTAL_ENTITY ||
		    g->card == STM_C_BORG_CUBE ? 8 : 0;
	case STM_C_LURSA_BETOR:
		return has_lf(g, STM_L_ROMULAN) || g->aff == STM_A_RSE ? 7 : 0;
	case STM_C_LWAXANA:
		return g->card == STM_C_DEANNA_TROI ||
		    g->card == STM_C_PICARD ? 9 : 0;
	case STM_C_MINUET:
		if (g->card == STM_C_RIKER)
			return 20;
		return has_spec(g, STM_S_COMMAND) ? 10 : 0;
	case STM_C_PHOTON_TORPEDOES:
	case STM_C_SHIELDS:
	case STM_C_TRACTOR_BEAM:
		if (j == 0)
			return has_spec(g, STM_S_COMBAT) ? 2 : 0;
		return has_type(g, STM_T_CAPTAIN) && is_nonfed(g) ? 6 : 0;
	case STM_C_QUARTERS:
		return is_fed(g) && is_char(g);
	case STM_C_SICKBAY:
		if (j == 0)
			return has_type(g, STM_T_PERSONNEL);
		if (j == 1)
			return is_nonfed(g);
		return has_spec(g, STM_S_COMBAT | STM_S_WEAPON);
	case STM_C_SOVAK:
		return has_type(g, STM_T_ARTIFACT) ? 8 : 0;
	case STM_C_SPOCK:
		return has_lf(g, STM_L_ROMULAN) || g->card == STM_C_SAREK ||
		    g->card == STM_C_DATA ? 6 : 0;
	case STM_C_STONE_OF_GOL:
		return has_lf(g, STM_L_VULCAN | STM_L_BETAZOID) ? 11 : 0;
	case STM_C_TEN_FORWARD:
		return is_fed(g) && has_type(g, STM_T_PERSONNEL |
		    STM_T_CIVILIAN) ? 4 : 0;
	case STM_C_TRAVELER:
		return g->card == STM_C_WESLEY ||
		    g->card == STM_C_ENGINE_ROOM ? 10 : 0;
	case STM_C_SORAN:
		return g->card == STM_C_TIME_DISTORTION ||
		    g->card == STM_C_BORG_CUBE ? 12 : 0;
	case STM_C_TOX_UTHAT:
		return has_spec(g, STM_S_ARCHAEOLOGIST | STM_S_COSMIC) ? 6 : 0;
	case STM_C_TRANSPORTER:
		return has_type(g, STM_T_PERSONNEL);
	case STM_C_TRICORDER:
		return has_spec(g, STM_S_MEDICAL | STM_S_SCIENCE) ? 9 : 0;
	case STM_C_TURBOLIFT:
		return has_type(g, STM_T_LOCATION);
	case STM_C_VASH:
		return has_spec(g, STM_S_ARCHAEOLOGIST) ||
		    has_type(g, STM_T_ARTIFACT) ||
		    g->card == STM_C_MEDDLESOME_Q ? 7 : 0;
	case STM_C_NAKAMURA:
		return is_fed(g) && has_spec(g, STM_S_COMMAND) ? 7 : 0;
	case STM_C_AWAY_TEAM:
		if (j == 0)
			return g->card == STM_C_TRANSPORTER ||
			    g->card == STM_C_TRICORDER ||
			    g->card == STM_C_HAND_PHASER ? 5 : 0;
		return has_type(g, STM_T_PERSONNEL);
	case STM_C_BORG_CUBE:
		return has_type(g, STM_T_CAPTAIN) ||
		    has_spec(g, STM_S_COMBAT | STM_S_SECURITY) ? 5 : 0;
	case STM_C_COMPUTER_VIRUS:
		return has_type(g, STM_T_SYSTEM) ||
		    has_lf(g, STM_L_HOLOGRAM) ? 7 : 0;
	case STM_C_DIPLOMATIC_CONFERENCE:
		if (j == 0)
			return has_spec(g, STM_S_AMBASSADOR) ? 5 : 0;
		return has_type(g, STM_T_CAPTAIN);
	case STM_C_DISTRESS_CALL:
		return g->card == STM_C_BRIDGE ||
		    g->card == STM_C_TRACTOR_BEAM ||
		    g->card == STM_C_TRANSPORTER ||
		    has_spec(g, STM_S_MEDICAL) ? 9 : 0;
	case STM_C_MACHINES_RIGHTS:
		return has_lf(g, STM_L_HOLOGRAM | STM_L_ANDROID) ||
		    g->card == STM_C_NAKAMURA || g->card == STM_C_MADDOX ?
		    9 : 0;
	case STM_C_ENEMIES_TO_FRIENDS:
		if (j == 0)
			return g->aff == STM_A_RSE || g->aff == STM_A_FA ||
			    g->aff == STM_A_HOS;
		return has_lf(g, STM_L_BETAZOID) ||
		    has_spec(g, STM_S_AMBASSADOR);
	case STM_C_HAYWIRE:
		return has_spec(g, STM_S_ENGINEER) ||
		    has_type(g, STM_T_SYSTEM | STM_T_LOCATION) ? 5 : 0;
	case STM_C_ETHICAL_DILEMMA:
		if (j == 0)
			return is_fed(g) && has_spec(g, STM_S_COMMAND);
		return g->lfs != 0;
	case STM_C_UNDER_SIEGE:
		return is_nonfed(g) ? 6 : 0;
	case STM_C_IMMINENT_DESTRUCTION:
		return has_spec(g, STM_S_ENGINEER) ? 8 : 0;
	case STM_C_INTRUDER_ALERT:
		return has_spec(g, STM_S_SECURITY | STM_S_WEAPON) ? 12 : 0;
	case STM_C_CIVIL_WAR:
		return has_lf(g, STM_L_KLINGON | STM_L_ROMULAN) ||
		    g->aff == STM_A_KE || g->aff == STM_A_RSE ? 8 : 0;
	case STM_C_LANGUAGE_BARRIER:
		return has_lf(g, STM_L_BETAZOID | STM_L_VULCAN) ||
		    g->card == STM_C_COMPUTER ||
		    g->card == STM_C_TRICORDER ? 8 : 0;
	case STM_C_PERSONNEL_ISSUES:
		if (j == 0)
			return has_type(g, STM_T_PERSONNEL);
		return has_spec(g, STM_S_COUNSELOR) ||
		    (is_fed(g) && has_type(g, STM_T_CAPTAIN));
	case STM_C_BLOSSOMING_ROMANCE:
		if (j == 0)
			return has_spec(g, STM_S_COUNSELOR) ||
			    has_lf(g, STM_L_BETAZOID) ||
			    g->card == STM_C_QUARTERS ? 6 : 0;
		return is_char(g);
	case STM_C_SCIENTIFIC_PUZZLE:
		return has_type(g, STM_T_ARTIFACT) ||
		    has_spec(g, STM_S_COSMIC | STM_S_SCIENCE) ? 6 : 0;
	case STM_C_SPACE_CONFRONTATION:
		if (j == 0)
			return has_spec(g, STM_S_COMMAND | STM_S_COMBAT) ?
			    6 : 0;
		return (has_type(g, STM_T_CAPTAIN) && is_nonfed(g)) ||
		    has_type(g, STM_T_ENTITY);
	case STM_C_LURE_OF_PROFIT:
		return g->aff == STM_A_FA || has_type(g, STM_T_ARTIFACT) ||
		    has_spec(g, STM_S_ARCHAEOLOGIST) ? 7 : 0;
	case STM_C_TIME_DISTORTION:
		return g->card == STM_C_TEN_FORWARD ||
		    has_spec(g, STM_S_COSMIC) ? 10 : 0;
	case STM_C_TRAPPED_HOLODECK:
		if (j == 0)
			return g->card == STM_C_HOLODECK_1 ||
			    g->card == STM_C_HOLODECK_2;
		return is_fed(g) && has_type(g, STM_T_PERSONNEL |
		    STM_T_CAPTAIN);
	default:
		return 0;
	}
}

/* Does giver g lift the blank of `card`? */
static int
ref_lifts(int card, const struct rc *g)
{
	switch (card) {
	case STM_C_MORIARTY:
	case STM_C_MINUET:
		return g->card == STM_C_HOLODECK_1 ||
		    g->card == STM_C_HOLODECK_2 || g->card == STM_C_COMPUTER;
	case STM_C_INTRUDER_ALERT:
		return is_nonfed(g);
	case STM_C_SPACE_CONFRONTATION:
		return (has_type(g, STM_T_CAPTAIN) && is_nonfed(g)) ||
		    has_type(g, STM_T_ENTITY);
	default:
		return -1;	/* never blanked */
	}
}

static unsigned
ref_values(const struct rc *g, int dim)
{
	if (dim == D_SPEC)
		return g->specs;
	if (dim == D_LF)
		return g->lfs;
	return g->aff == STM_A_NONE ? 0 : 1u << g->aff;
}

/* Brute force: every giver takes no clause or one clause it qualifies
 * for (and, for RK_DIFF, the value it shows). */
struct ref_try {
	const struct rshape	*s;
	int			 card;
	const struct rc		*g;
	int			 ng;
	int			 clause[STM_HAND_MAX];
	int			 shown[STM_HAND_MAX];
	int			 best;
};

static int
ref_leaf(const struct ref_try *t)
{
	const struct rshape *s = t->s;
	int j, i, k, n, total = 0, v, roles = 0, roles_met = 0, lead = 0;
	int counted = 0;

	for (j = 0; j < s->nclauses; j++) {
		n = 0;
		v = 0;
		for (i = 0; i < t->ng; i++) {
			if (t->clause[i] != j)
				continue;
			n++;
			if (s->kind[j] == RK_PER)
				total += ref_pay(t->card, j, &t->g[i]);
			if (s->kind[j] == RK_WITH &&
			    ref_pay(t->card, j, &t->g[i]) > v)
				v = ref_pay(t->card, j, &t->g[i]);
			if (s->kind[j] == RK_DIFF)
				for (k = 0; k < i; k++)
					if (t->clause[k] == j &&
					    t->shown[k] == t->shown[i])
						return -1;
		}
		switch (s->kind[j]) {
		case RK_WITH:
			total += v;
			break;
		case RK_COUNT:
			total += s->tier[n > 2 ? 2 : n];
			counted = n;
			break;
		case RK_DIFF:
			if (s->need == 0)
				total += s->unit * n;
			else if (n >= s->need && (s->kind[0] != RK_LEAD ||
			    lead))
				total += s->value;
			break;
		case RK_ROLE:
			roles++;
			if (n > 0)
				roles_met++;
			break;
		case RK_LIFTER:
			if (n == 0)
				return -1;
			break;
		case RK_LEAD:
			lead = n > 0;
			break;
		default:
			break;
		}
	}
	if (roles > 0 && roles == roles_met)
		total += s->value;
	if (s->also && counted < 2)
		return 0;
	return total;
}

static void
ref_assign(struct ref_try *t, int i)
{
	const struct rshape *s = t->s;
	unsigned vals;
	int j, v;

	if (i == t->ng) {
		v = ref_leaf(t);
		if (v > t->best)
			t->best = v;
		return;
	}
	t->clause[i] = -1;
	ref_assign(t, i + 1);
	for (j = 0; j < s->nclauses; j++) {
		if (!ref_pay(t->card, j, &t->g[i]))
			continue;
		t->clause[i] = j;
		if (s->kind[j] != RK_DIFF) {
			ref_assign(t, i + 1);
			continue;
		}
		vals = ref_values(&t->g[i], s->dim) & ~s->banned;
		for (v = 0; v < 32; v++) {
			if (!(vals & (1u << v)))
				continue;
			t->shown[i] = v;
			ref_assign(t, i + 1);
		}
	}
	t->clause[i] = -1;
}

static int
ref_plague(const struct rc *g, int ng)
{
	int lf, i, v, best = 0, pay;

	for (lf = 0; lf < STM_NLIFEFORMS; lf++) {
		if ((1u << lf) == STM_L_HOLOGRAM ||
		    (1u << lf) == STM_L_ANDROID)
			continue;
		v = 0;
		for (i = 0; i < ng; i++) {
			pay = has_spec(&g[i], STM_S_MEDICAL) ? 5 : 0;
			if (has_lf(&g[i], 1u << lf)) {
				if ((1u << lf) == STM_L_HUMAN && pay < 5)
					pay = 5;
				if ((1u << lf) != STM_L_HUMAN)
					pay = 8;
			}
			v += pay;
		}
		if (v > best)
			best = v;
	}
	return best;
}

static int
ref_score_card(int version, int card, const struct rc *g, int ng)
{
	struct rshape s;
	struct ref_try t;
	int i, k;

	if (card == STM_C_MYSTERIOUS_PLAGUE)
		return ref_plague(g, ng);
	if (card == STM_C_CONFLICTING_ORDERS) {
		for (i = 0; i < ng; i++)
			for (k = i + 1; k < ng; k++)
				if (has_spec(&g[i], STM_S_COMMAND) &&
				    has_spec(&g[k], STM_S_COMMAND) &&
				    g[i].aff != STM_A_NONE &&
				    g[i].aff == g[k].aff)
					return 14;
		return 0;
	}
	ref_shape(card, version, &s);
	if (s.nclauses == 0)
		return 0;
	memset(&t, 0, sizeof(t));
	t.s = &s;
	t.card = card;
	t.g = g;
	t.ng = ng;
	t.best = 0;
	ref_assign(&t, 0);
	return t.best;
}

/* One complete set of choices, scored. */
static int
ref_total(int version, const struct rc *hand, int n, unsigned borg,
    int tm_target)
{
	struct rc g[STM_HAND_MAX];
	int active[STM_HAND_MAX], next[STM_HAND_MAX], points[STM_HAND_MAX];
	int i, k, ng, changed, lift, sources = 0, total = 0, best;
	int borg_pos = -1, wesley = -1;
	struct rc cards[STM_HAND_MAX];

	memcpy(cards, hand, n * sizeof(*hand));
	for (i = 0; i < n; i++)
		active[i] = !(borg & (1u << i));
	do {
		changed = 0;
		for (i = 0; i < n; i++) {
			next[i] = !(borg & (1u << i));
			if (!next[i] || ref_lifts(cards[i].card, &cards[i]) < 0)
				continue;
			lift = 0;
			for (k = 0; k < n; k++)
				if (k != i && active[k] &&
				    ref_lifts(cards[i].card, &cards[k]))
					lift = 1;
			next[i] = lift;
		}
		for (i = 0; i < n; i++) {
			if (next[i] != active[i])
				changed = 1;
			active[i] = next[i];
		}
	} while (changed);
	for (i = 0; i < n; i++)
		if (active[i] && (cards[i].card == STM_C_HOLODECK_1 ||
		    cards[i].card == STM_C_HOLODECK_2 ||
		    cards[i].card == STM_C_COMPUTER))
			sources = 1;
	for (i = 0; i < n; i++) {
		if (cards[i].card == STM_C_LEAH_BRAHMS && sources)
			cards[i].lfs = STM_L_HOLOGRAM;
		if (cards[i].card == STM_C_BORG_CUBE)
			borg_pos = i;
		if (cards[i].card == STM_C_WESLEY)
			wesley = i;
	}
	for (i = 0; i < n; i++) {
		points[i] = 0;
		if (!active[i])
			continue;
		ng = 0;
		for (k = 0; k < n; k++)
			if (k != i && active[k])
				g[ng++] = cards[k];
		points[i] = ref_score_card(version, cards[i].card, g,
		    ng);
		if (cards[i].card == STM_C_THOUGHT_MAKER && tm_target >= 0 &&
		    active[tm_target])
			points[i] = 5;
	}
	if (wesley >= 0 && active[wesley]) {
		best = 0;
		for (k = 0; k < n; k++)
			if (k != wesley && active[k] &&
			    (has_type(&cards[k], STM_T_SYSTEM) ||
			    has_spec(&cards[k], STM_S_ENGINEER)) &&
			    points[k] > best)
				best = points[k];
		points[wesley] = best;
	}
	for (i = 0; i < n; i++)
		if (borg & (1u << i))
			points[i] = points[borg_pos];
	for (i = 0; i < n; i++)
		total += points[i];
	return total;
}

/* Every Thought Maker choice for fixed blanks and ship. */
static int
ref_thought(int version, struct rc *cards, int n, unsigned borg)
{
	int i, a, old, tm = -1, best, v;

	for (i = 0; i < n; i++)
		if (cards[i].card == STM_C_THOUGHT_MAKER)
			tm = i;
	best = ref_total(version, cards, n, borg, -1);
	if (tm < 0 || (borg & (1u << tm)))
		return best;
	for (i = 0; i < n; i++) {
		if (i == tm || cards[i].lfs == 0)
			continue;
		old = cards[i].aff;
		for (a = STM_A_FED; a <= STM_A_HOS; a++) {
			if (a == old)
				continue;
			cards[i].aff = a;
			v = ref_total(version, cards, n, borg, i);
			if (v > best)
				best = v;
		}
		cards[i].aff = old;
	}
	return best;
}

/* Every Unidentified Ship declaration. */
static int
ref_ship(int version, struct rc *cards, int n, unsigned borg)
{
	static const unsigned types[3] = {
		STM_T_PERSONNEL, STM_T_CIVILIAN, STM_T_CAPTAIN
	};
	int i, t, l, a, s, us = -1, best, v;

	for (i = 0; i < n; i++)
		if (cards[i].card == STM_C_UNIDENTIFIED_SHIP)
			us = i;
	if (us < 0 || (borg & (1u << us)))
		return ref_thought(version, cards, n, borg);
	best = -1;
	for (t = 0; t < 3; t++)
		for (l = 0; l < STM_NLIFEFORMS; l++)
			for (a = STM_A_FED; a <= STM_A_HOS; a++)
				for (s = 0; s < STM_NSPECIALTIES; s++) {
					cards[us].types = types[t];
					cards[us].lfs = 1u << l;
					cards[us].aff = a;
					cards[us].specs = 1u << s;
					v = ref_thought(version, cards, n, borg);
					if (v > best)
						best = v;
				}
	return best;
}

/* The reference score of a hand under a ruleset version's readings: the
 * best over every choice. */
static int
ref_score(int version, const int *hand, int n)
{
	struct rc cards[STM_HAND_MAX];
	int i, k, borg = 0, best, v;

	for (i = 0; i < n; i++) {
		cards[i].card = hand[i];
		cards[i].types = stm_cards[hand[i]].types;
		cards[i].specs = stm_cards[hand[i]].specialties;
		cards[i].lfs = stm_cards[hand[i]].lifeforms;
		cards[i].aff = stm_cards[hand[i]].affiliation;
		if (hand[i] == STM_C_BORG_CUBE)
			borg = 1;
	}
	best = ref_ship(version, cards, n, 0);
	if (!borg)
		return best;
	for (i = 0; i < n; i++) {
		if (STM_IS_MISSION(hand[i]))
			continue;
		v = ref_ship(version, cards, n, 1u << i);
		if (v > best)
			best = v;
		for (k = i + 1; k < n; k++) {
			if (STM_IS_MISSION(hand[k]))
				continue;
			v = ref_ship(version, cards, n, (1u << i) | (1u << k));
			if (v > best)
				best = v;
		}
	}
	return best;
}

/*
 * Hands worked out by hand.
 */
struct hand_case {
	int		subject;	/* the card this case is about */
	int		cards[STM_HAND_MAX + 1];	/* ends with END */
	int		total;
	int		points[STM_HAND_MAX];	/* ANY: not checked */
	int		blanked[STM_HAND_MAX];	/* 1 blanked, 0 not, ANY */
	const char	*choice;	/* in choices_en, or NULL */
};

/* Shorthand card numbers for the table. */
enum {
	KEHLEYR = STM_C_KEHLEYR, SAREK = STM_C_SAREK, BATLETH = STM_C_BATLETH,
	BRIDGE = STM_C_BRIDGE, PICARD = STM_C_PICARD, GOWRON = STM_C_GOWRON,
	MADDOX = STM_C_MADDOX, KURN = STM_C_KURN, SELA = STM_C_SELA,
	TOMALAK = STM_C_TOMALAK, RIKER = STM_C_RIKER,
	COMPUTER = STM_C_COMPUTER, TROI = STM_C_DEANNA_TROI,
	CRYSTAL = STM_C_CRYSTAL_ENTITY, BOK = STM_C_BOK, TOG = STM_C_TOG,
	BEVERLY = STM_C_BEVERLY, ENGINE = STM_C_ENGINE_ROOM,
	WESLEY = STM_C_WESLEY, PHASER = STM_C_HAND_PHASER,
	HOLO1 = STM_C_HOLODECK_1, HOLO2 = STM_C_HOLODECK_2,
	MORIARTY = STM_C_MORIARTY, LEAH = STM_C_LEAH_BRAHMS,
	DATA = STM_C_DATA, GEORDI = STM_C_GEORDI, WORF = STM_C_WORF,
	LORE = STM_C_LORE, LURSA = STM_C_LURSA_BETOR,
	LWAXANA = STM_C_LWAXANA, MINUET = STM_C_MINUET,
	TORPEDOES = STM_C_PHOTON_TORPEDOES, QUARTERS = STM_C_QUARTERS,
	SHIELDS = STM_C_SHIELDS, SICKBAY = STM_C_SICKBAY,
	SOVAK = STM_C_SOVAK, SPOCK = STM_C_SPOCK, STONE = STM_C_STONE_OF_GOL,
	TENFWD = STM_C_TEN_FORWARD, TRAVELER = STM_C_TRAVELER,
	THOUGHT = STM_C_THOUGHT_MAKER, SORAN = STM_C_SORAN,
	TOX = STM_C_TOX_UTHAT, TRACTOR = STM_C_TRACTOR_BEAM,
	TRANSPORTER = STM_C_TRANSPORTER, TRICORDER = STM_C_TRICORDER,
	TURBOLIFT = STM_C_TURBOLIFT, SHIP = STM_C_UNIDENTIFIED_SHIP,
	VASH = STM_C_VASH, NAKAMURA = STM_C_NAKAMURA,
	AWAY = STM_C_AWAY_TEAM, BORG = STM_C_BORG_CUBE,
	VIRUS = STM_C_COMPUTER_VIRUS, CONFLICT = STM_C_CONFLICTING_ORDERS,
	CONFERENCE = STM_C_DIPLOMATIC_CONFERENCE,
	DISTRESS = STM_C_DISTRESS_CALL, MACHINES = STM_C_MACHINES_RIGHTS,
	ENEMIES = STM_C_ENEMIES_TO_FRIENDS, HAYWIRE = STM_C_HAYWIRE,
	ETHICAL = STM_C_ETHICAL_DILEMMA, SIEGE = STM_C_UNDER_SIEGE,
	DESTRUCTION = STM_C_IMMINENT_DESTRUCTION,
	INTRUDER = STM_C_INTRUDER_ALERT, CIVILWAR = STM_C_CIVIL_WAR,
	LANGUAGE = STM_C_LANGUAGE_BARRIER, ISSUES = STM_C_PERSONNEL_ISSUES,
	PLAGUE = STM_C_MYSTERIOUS_PLAGUE, Q = STM_C_MEDDLESOME_Q,
	ROMANCE = STM_C_BLOSSOMING_ROMANCE, PUZZLE = STM_C_SCIENTIFIC_PUZZLE,
	CONFRONT = STM_C_SPACE_CONFRONTATION, PROFIT = STM_C_LURE_OF_PROFIT,
	TIMEDIST = STM_C_TIME_DISTORTION, TRAPPED = STM_C_TRAPPED_HOLODECK
};

#define X	ANY

static const struct hand_case cases[] = {
	/* The rulebook's scoring example: Worf 4+4 (Combat: Bridge,
	 * Torpedoes); Kurn 10 (Worf); K'Ehleyr 10 (Worf); Sela 4 (KE Kurn);
	 * Conference 5*2 (KE Kurn, RSE Sela) + 5 (Ambassador K'Ehleyr);
	 * Torpedoes 6 (non-FED Captain) + 2*2 (Worf, Bridge); Bridge 3*3
	 * (Worf, K'Ehleyr, Torpedoes).  66. */
	{ WORF, { WORF, KURN, KEHLEYR, SELA, CONFERENCE, TORPEDOES, BRIDGE,
	    END }, 66, { 8, 10, 10, 4, 15, 10, 9 }, { 0, 0, 0, 0, 0, 0, 0 },
	    NULL },
	/* Away Team 5: Data is one Personnel, one bonus. */
	{ AWAY, { AWAY, DATA, END }, 5, { 5, 0 }, { 0, 0 }, NULL },
	/* Tomalak 13: Picard (Archaeologist), Riker (Command), Data (any
	 * of his other three). */
	{ TOMALAK, { TOMALAK, PICARD, RIKER, DATA, END }, 13,
	    { 13, 0, 0, 0 }, { 0, 0, 0, 0 }, NULL },
	/* Tomalak 0: Wesley and Engine Room both only Engineer.  Engine
	 * Room 6*2 (Data, Wesley); Wesley copies Engine Room: 12.  24. */
	{ TOMALAK, { TOMALAK, DATA, WESLEY, ENGINE, END }, 24,
	    { 0, 0, 12, 12 }, { 0, 0, 0, 0 }, NULL },
	/* Tox Uthat is Artifact and Cosmic: Scientific Puzzle 6, not 12. */
	{ PUZZLE, { TOX, PUZZLE, END }, 6, { 0, 6 }, { 0, 0 }, NULL },

	/* K'Ehleyr 10 (Worf); Worf 0 (K'Ehleyr is Security, not Combat). */
	{ KEHLEYR, { KEHLEYR, WORF, END }, 10, { 10, 0 }, { X }, NULL },
	/* Sarek 5*2 (non-FED Captains Kurn, Sela; Picard is FED); Kurn 0;
	 * Sela 4 (KE Kurn); Picard 0.  14. */
	{ SAREK, { SAREK, KURN, SELA, PICARD, END }, 14, { 10, 0, 4, 0 },
	    { X }, NULL },
	/* Bat'leth 6: Lursa and B'Etor is one Klingon. */
	{ BATLETH, { BATLETH, LURSA, END }, 6, { 6, 0 }, { X }, NULL },
	/* Bat'leth 16 (Worf, Gowron); Worf 4 (Weapon Bat'leth); Gowron 5
	 * (Klingon Worf).  25. */
	{ BATLETH, { BATLETH, WORF, GOWRON, END }, 25, { 16, 4, 5 }, { X },
	    NULL },
	/* Bridge 3*3 (Worf, Data, Computer; Kurn is KE); Worf 4 (Combat
	 * Bridge); Data 0; Computer 0; Kurn 10 (Worf).  23. */
	{ BRIDGE, { BRIDGE, WORF, DATA, COMPUTER, KURN, END }, 23,
	    { 9, 4, 0, 0, 10 }, { X }, NULL },
	/* Picard 5 (Bridge, not also 3) + 3 (Ten-Forward) + 3
	 * (Transporter); Bridge 3 (System Transporter; Picard is a
	 * Captain); Ten-Forward 0; Transporter 0.  14. */
	{ PICARD, { PICARD, BRIDGE, TENFWD, TRANSPORTER, END }, 14,
	    { 11, 3, 0, 0 }, { X }, NULL },
	/* Gowron 5*3 (Worf, Kurn, Lursa and B'Etor once); Worf 0; Kurn 10
	 * (Worf); Lursa 0.  25. */
	{ GOWRON, { GOWRON, WORF, KURN, LURSA, END }, 25, { 15, 0, 10, 0 },
	    { X }, NULL },
	/* Computer lifts Moriarty.  Maddox 5*3 (Data, Lore, Moriarty);
	 * Lore 8 (Data); Moriarty 8*3 (Maddox, Data once, Computer);
	 * Computer 0.  47. */
	{ MADDOX, { MADDOX, DATA, LORE, MORIARTY, COMPUTER, END }, 47,
	    { 15, 0, 8, 24, 0 }, { 0, 0, 0, 0, 0 }, NULL },
	/* Kurn 10 (Worf). */
	{ KURN, { KURN, WORF, END }, 10, { 10, 0 }, { X }, NULL },
	/* Sela 4*3 (HOS Crystal Entity, KE Gowron, KE Kurn); Crystal 0;
	 * Gowron 5 (Kurn); Kurn 0.  17. */
	{ SELA, { SELA, CRYSTAL, GOWRON, KURN, END }, 17, { 12, 0, 5, 0 },
	    { X }, NULL },
	/* Riker 7*3; Transporter 0 (two Personnel); Troi 5 (Human Riker);
	 * Away Team 5*2 (Command Riker, Counselor Troi) + 5 (Transporter).
	 * 41. */
	{ RIKER, { RIKER, TRANSPORTER, TROI, AWAY, END }, 41,
	    { 21, 0, 5, 15 }, { X }, NULL },
	/* Computer 6*2 (Cosmic Tox Uthat, Crystal Entity); Tox 6 (Crystal);
	 * Crystal 0; Spock 0.  18. */
	{ COMPUTER, { COMPUTER, TOX, CRYSTAL, SPOCK, END }, 18,
	    { 12, 6, 0, 0 }, { X }, NULL },
	/* Troi: K'Ehleyr (Klingon or Human), Worf (Klingon), Picard
	 * (Human), Data (Android): at most three different, 5*3;
	 * K'Ehleyr 10 (Worf).  25. */
	{ TROI, { TROI, KEHLEYR, WORF, PICARD, DATA, END }, 25,
	    { 15, 10, 0, 0, 0 }, { X }, NULL },
	/* Crystal Entity 6*2 (Combat Worf, Bridge); Worf 4+4 (Weapon
	 * Bat'leth, Combat Bridge); Bridge 3 (Worf); Bat'leth 6 (Worf).
	 * 29. */
	{ CRYSTAL, { CRYSTAL, WORF, BRIDGE, BATLETH, END }, 29,
	    { 12, 8, 3, 6 }, { X }, NULL },
	/* Bok 8*2 (Picard, Thought Maker); Picard 0; Thought Maker changes
	 * some card's affiliation: 5.  21. */
	{ BOK, { BOK, PICARD, THOUGHT, END }, 21, { 16, 0, 5 }, { X },
	    "Thought Maker: " },
	/* Tog 8*2 (Betazoid Troi, Lwaxana); Troi 5*2 (Ferengi, Betazoid);
	 * Lwaxana 9 (Troi).  35. */
	{ TOG, { TOG, TROI, LWAXANA, END }, 35, { 16, 10, 9 }, { X }, NULL },
	/* Beverly 8*2 (Sickbay, Wesley); Sickbay 0 (no non-FED card);
	 * Wesley 0 (no System or Engineer).  16. */
	{ BEVERLY, { BEVERLY, SICKBAY, WESLEY, END }, 16, { 16, 0, 0 }, { X },
	    NULL },
	/* Engine Room 6*3 (Geordi, Data, Leah); Geordi 4 (Engine Room);
	 * Leah 9*2 (Geordi, Engine Room).  40. */
	{ ENGINE, { ENGINE, GEORDI, DATA, LEAH, END }, 40, { 18, 4, 0, 18 },
	    { X }, NULL },
	/* Engine Room 6*2 (Wesley, Geordi); Geordi 4+4 (System Computer,
	 * Engine Room); Computer 6 (Cosmic Tox); Tox 0; Wesley copies the
	 * best of 12, 8, 6: 12.  38. */
	{ WESLEY, { WESLEY, ENGINE, GEORDI, COMPUTER, TOX, END }, 38,
	    { 12, 12, 8, 6, 0 }, { X }, NULL },
	/* Hand Phaser 9 once (Data and Riker are both FED Command). */
	{ PHASER, { PHASER, DATA, RIKER, END }, 9, { 9, 0, 0 }, { X }, NULL },
	/* Hand Phaser 0: Kurn is Command but KE. */
	{ PHASER, { PHASER, KURN, END }, 0, { 0, 0 }, { X }, NULL },
	/* Holodeck 1 8*2 (Holograms Moriarty, Minuet) + 2*2 (FED Picard,
	 * Data; Kurn is KE); Moriarty 8 (Data); Minuet 10 (Command, no
	 * Riker); Picard 3 (Location Holodeck 1); Data 0; Kurn 0.  41. */
	{ HOLO1, { HOLO1, MORIARTY, MINUET, PICARD, DATA, KURN, END }, 41,
	    { 20, 8, 10, 3, 0, 0 }, { 0, 0, 0, 0, 0, 0 }, NULL },
	/* Leah is a Hologram with Holodeck 2: Holodeck 2 8 (Leah) + 2
	 * (Riker); Leah 5; Riker 0.  15. */
	{ HOLO2, { HOLO2, LEAH, RIKER, END }, 15, { 10, 5, 0 }, { X }, NULL },
	/* Moriarty BLANKED (no Holodeck or Computer); Intruder Alert
	 * BLANKED too: its only non-FED card is blanked.  0. */
	{ MORIARTY, { MORIARTY, DATA, INTRUDER, END }, 0, { 0, 0, 0 },
	    { 1, 0, 1 }, NULL },
	/* Computer lifts Moriarty, who lifts Intruder Alert: Intruder 12
	 * (Security Worf); Moriarty 8 (Science Computer); Computer 0;
	 * Worf 0.  20. */
	{ INTRUDER, { MORIARTY, COMPUTER, INTRUDER, WORF, END }, 20,
	    { 8, 0, 12, 0 }, { 0, 0, 0, 0 }, NULL },
	/* Leah 9+9+5 (Geordi, Engine Room, Computer); Geordi 4+4 (System
	 * Computer, Engine Room); Engine Room 6*2 (Leah, Geordi); Computer
	 * 0.  43. */
	{ LEAH, { LEAH, GEORDI, ENGINE, COMPUTER, END }, 43,
	    { 23, 8, 12, 0 }, { X }, NULL },
	/* Leah as Hologram counts for Maddox 5 and Do Machines 9 (+9 for
	 * Maddox); Holodeck 1 8 (Leah) + 2 (Maddox); Leah 5.  38. */
	{ MACHINES, { LEAH, HOLO1, MADDOX, MACHINES, END }, 38,
	    { 5, 10, 5, 18 }, { X }, NULL },
	/* Data 0; Spock 6 (Data); Lore 8 (Data).  14. */
	{ DATA, { DATA, SPOCK, LORE, END }, 14, { 0, 6, 8 }, { X }, NULL },
	/* Geordi 4*2 (Systems Transporter, Torpedoes) + 4 (Engine Room);
	 * Transporter 0; Torpedoes 0; Engine Room 6 (Geordi).  18. */
	{ GEORDI, { GEORDI, TRANSPORTER, TORPEDOES, ENGINE, END }, 18,
	    { 12, 0, 0, 6 }, { X }, NULL },
	/* Worf 4*4 (Weapons Bat'leth, Stone; Combat Bridge, Shields);
	 * Bat'leth 6; Stone 0; Bridge 3*2 (Worf, Shields); Shields 2*2
	 * (Worf, Bridge).  32. */
	{ WORF, { WORF, BATLETH, STONE, BRIDGE, SHIELDS, END }, 32,
	    { 16, 6, 0, 6, 4 }, { X }, NULL },
	/* Lore 8*3 (Data, Crystal Entity, Borg Cube); Borg Cube 5 (Security
	 * Data).  No blank helps: blanking Data or Crystal Entity would cost
	 * Lore 8.  29. */
	{ LORE, { LORE, DATA, CRYSTAL, BORG, END }, 29, { 24, 0, 0, 5 },
	    { 0, 0, 0, 0 }, "Borg Cube blanks no card" },
	/* Lursa 7*2 (Sela, Tomalak); Sela 4 (KE Lursa); Tomalak 0; Spock
	 * 6*2 (Romulans).  30. */
	{ LURSA, { LURSA, SELA, TOMALAK, SPOCK, END }, 30,
	    { 14, 4, 0, 12 }, { X }, NULL },
	/* Lwaxana 9*2; Troi 5*2 (Betazoid, Human); Picard 0.  28. */
	{ LWAXANA, { LWAXANA, TROI, PICARD, END }, 28, { 18, 10, 0 }, { X },
	    NULL },
	/* Minuet 20 (Riker; Picard's Command adds nothing); Holodeck 1 8
	 * (Minuet) + 2*2 (Riker, Picard); Riker 0; Picard 3.  35. */
	{ MINUET, { MINUET, HOLO1, RIKER, PICARD, END }, 35,
	    { 20, 12, 0, 3 }, { 0, 0, 0, 0 }, NULL },
	/* Minuet 10 (Command Picard, no Riker); Computer 0; Picard 0. */
	{ MINUET, { MINUET, COMPUTER, PICARD, END }, 10, { 10, 0, 0 }, { X },
	    NULL },
	/* Minuet BLANKED: Riker alone does not lift it. */
	{ MINUET, { MINUET, RIKER, END }, 0, { 0, 0 }, { 1, 0 }, NULL },
	/* Torpedoes 6 (Kurn) + 2 (Worf); Kurn 10; Sela 4; Worf 4. 26. */
	{ TORPEDOES, { TORPEDOES, KURN, SELA, WORF, END }, 26,
	    { 8, 10, 4, 4 }, { X }, NULL },
	/* One card cannot pay both clauses: the Ship as a non-FED Combat
	 * Captain gives Torpedoes 6, not 6+2. */
	{ TORPEDOES, { TORPEDOES, SHIP, END }, 6, { 6, 0 }, { X },
	    "Unidentified Ship: Captain" },
	/* Quarters 12 (FED Riker, Sarek); Sarek 5 (Kurn); Riker, Kurn 0. */
	{ QUARTERS, { QUARTERS, RIKER, SAREK, KURN, END }, 17,
	    { 12, 0, 5, 0 }, { X }, NULL },
	/* Quarters 0: one FED character only. */
	{ QUARTERS, { QUARTERS, RIKER, KURN, END }, 0, { 0, 0, 0 }, { X },
	    NULL },
	/* Shields 6 (Gowron) + 2*2 (Bridge, Tractor); Gowron 0; Bridge 3*2
	 * (Systems Shields, Tractor); Tractor 6 + 2*2.  26. */
	{ SHIELDS, { SHIELDS, GOWRON, BRIDGE, TRACTOR, END }, 26,
	    { 10, 0, 6, 10 }, { X }, NULL },
	/* Sickbay 0: Worf cannot be both the Personnel and the Combat card,
	 * and Kurn is neither.  Kurn 10. */
	{ SICKBAY, { SICKBAY, WORF, KURN, END }, 10, { 0, 0, 10 }, { X },
	    NULL },
	/* Sickbay 20: Worf, Kurn, Bat'leth; Worf 4; Kurn 10; Bat'leth 16. */
	{ SICKBAY, { SICKBAY, WORF, KURN, BATLETH, END }, 50,
	    { 20, 4, 10, 16 }, { X }, NULL },
	/* Sovak 8*3 (Artifacts Tox, Stone, Thought Maker); Tox 6
	 * (Archaeologist Sovak); Stone 0; Thought Maker 5.  35. */
	{ SOVAK, { SOVAK, TOX, STONE, THOUGHT, END }, 35, { 24, 6, 0, 5 },
	    { X }, NULL },
	/* Spock 6*3 (Romulan Sela, Sarek, Data); Sarek 5 (Sela); Data 0;
	 * Sela 0.  23. */
	{ SPOCK, { SPOCK, SAREK, DATA, SELA, END }, 23, { 18, 5, 0, 0 },
	    { X }, NULL },
	/* Stone 11 once (Vulcan Spock, Betazoid Troi); Troi 5 (Vulcan).
	 * 16. */
	{ STONE, { STONE, SPOCK, TROI, END }, 16, { 11, 0, 5 }, { X }, NULL },
	/* Ten-Forward 4*2 (FED Riker, Sarek; Picard is a Captain, Vash has
	 * no affiliation); Picard 3 (Ten-Forward); Vash 7 (Picard).  18. */
	{ TENFWD, { TENFWD, RIKER, SAREK, PICARD, VASH, END }, 18,
	    { 8, 0, 0, 3, 7 }, { X }, NULL },
	/* Traveler 10*2; Engine Room 6*2 (Traveler, Wesley); Wesley copies
	 * the Traveler's 20.  52. */
	{ TRAVELER, { TRAVELER, WESLEY, ENGINE, END }, 52, { 20, 20, 12 },
	    { X }, NULL },
	/* Thought Maker makes Riker non-FED: Federation Under Siege 6*2
	 * (FA Thought Maker, Riker); Thought Maker 5.  17. */
	{ THOUGHT, { THOUGHT, RIKER, SIEGE, END }, 17, { 5, 0, 12 }, { X },
	    "Thought Maker: Commander William Riker becomes " },
	/* Thought Maker makes Sela KE (or HOS) and the Ship is a KE (or HOS)
	 * Romulan Command Captain: Tractor Beam 6 (non-FED Captain) + 2
	 * (Combat Bridge); Sela 4 (the Ship); Thought Maker 5; Bridge 3
	 * (System Tractor Beam); Conflicting Orders 14 (Sela and the Ship
	 * share an affiliation); Plague on Romulans 8*2.  50.  Here KE and
	 * RSE are not alike for Sela's change, as Sela pays for a KE Ship. */
	{ THOUGHT, { TRACTOR, SELA, SHIP, THOUGHT, BRIDGE, CONFLICT, PLAGUE,
	    END }, 50, { 8, 4, 0, 5, 3, 14, 16 }, { X },
	    "Thought Maker: Commander Sela becomes " },
	/* Thought Maker may change the Ship's declared affiliation: 5. */
	{ THOUGHT, { THOUGHT, SHIP, END }, 5, { 5, 0 }, { X },
	    "Thought Maker: Unidentified Ship becomes " },
	/* Soran 12*2; Time Distortion 10 (Cosmic Soran); Borg Cube 0 and
	 * blanks nothing.  34. */
	{ SORAN, { SORAN, TIMEDIST, BORG, END }, 34, { 24, 10, 0 }, { X },
	    "Borg Cube blanks no card" },
	/* Tox 6*2 (Archaeologists Vash, Sovak) + 6 (Cosmic Crystal); Vash
	 * 7*2 (Sovak, Tox); Sovak 8 (Tox); Crystal 0.  40. */
	{ TOX, { TOX, VASH, SOVAK, CRYSTAL, END }, 40, { 18, 14, 8, 0 },
	    { X }, NULL },
	/* Sela gives each of the three 6; each also 2*2 from the other two
	 * Combat Systems.  30. */
	{ TRACTOR, { TRACTOR, SELA, SHIELDS, TORPEDOES, END }, 30,
	    { 10, 0, 10, 10 }, { X }, NULL },
	/* Transporter 18 (Riker Command, Worf Security, Beverly Medical);
	 * Riker 7.  25. */
	{ TRANSPORTER, { TRANSPORTER, RIKER, WORF, BEVERLY, END }, 25,
	    { 18, 7, 0, 0 }, { X }, NULL },
	/* Transporter 0: Data, Wesley, Geordi show two specialties at most.
	 * Geordi 4 (System Transporter); Wesley copies Geordi: 4.  8. */
	{ TRANSPORTER, { TRANSPORTER, DATA, WESLEY, GEORDI, END }, 8,
	    { 0, 0, 4, 4 }, { X }, NULL },
	/* Tricorder 9*3 (Medical Beverly, Science Spock, Computer).  27. */
	{ TRICORDER, { TRICORDER, BEVERLY, SPOCK, COMPUTER, END }, 27,
	    { 27, 0, 0, 0 }, { X }, NULL },
	/* Turbolift 16 (Bridge, Ten-Forward). */
	{ TURBOLIFT, { TURBOLIFT, BRIDGE, TENFWD, END }, 16, { 16, 0, 0 },
	    { X }, NULL },
	/* Turbolift 0 with one other Location. */
	{ TURBOLIFT, { TURBOLIFT, BRIDGE, END }, 0, { 0, 0 }, { X }, NULL },
	/* The Ship as a Combat (or Weapon) Personnel: Transporter 18
	 * (Riker Command, Worf Security, Ship Combat); Riker 7; Worf 4
	 * (Ship).  29. */
	{ SHIP, { SHIP, TRANSPORTER, RIKER, WORF, END }, 29, { 0, 18, 7, 4 },
	    { X }, "Unidentified Ship: Personnel" },
	/* Vash 7*3 (Archaeologist Picard, Artifact Tox, Meddlesome Q); Tox
	 * 6*2 (Archaeologists Vash, Picard).  33. */
	{ VASH, { VASH, PICARD, TOX, Q, END }, 33, { 21, 0, 12, 0 }, { X },
	    NULL },
	/* Nakamura 7*2 (FED Command Picard, Riker; Kurn is KE).  14. */
	{ NAKAMURA, { NAKAMURA, PICARD, RIKER, KURN, END }, 14,
	    { 14, 0, 0, 0 }, { X }, NULL },
	/* Away Team 5*3 (Riker Command, Worf Security, Data Engineer) + 5
	 * (Transporter); Riker 7*2; Transporter 18.  52. */
	{ AWAY, { AWAY, RIKER, WORF, DATA, TRANSPORTER, END }, 52,
	    { 20, 14, 0, 0, 18 }, { X }, NULL },
	/* Borg Cube 5*2 (Captains Kurn, Gowron); Gowron 5; Lore 8.  Borg
	 * blanks Lore (8 -> 10) and Spock (0 -> 10), which give nothing:
	 * 10+0+5+10+10 = 35. */
	{ BORG, { BORG, KURN, GOWRON, LORE, SPOCK, END }, 35,
	    { 10, 0, 5, 10, 10 }, { 0, 0, 0, 1, 1 },
	    "Borg Cube blanks Lore and Spock" },
	/* Computer lifts Moriarty.  Virus 7*3 (Systems Computer, Torpedoes;
	 * Hologram Moriarty); Moriarty 8 (Computer).  29. */
	{ VIRUS, { VIRUS, COMPUTER, TORPEDOES, MORIARTY, END }, 29,
	    { 21, 0, 0, 8 }, { X }, NULL },
	/* Conflicting Orders 14: Picard and Riker, both FED Command. */
	{ CONFLICT, { CONFLICT, PICARD, RIKER, END }, 14, { 14, 0, 0 }, { X },
	    NULL },
	/* Conflicting Orders 0: FED Picard, KE Kurn. */
	{ CONFLICT, { CONFLICT, PICARD, KURN, END }, 0, { 0, 0, 0 }, { X },
	    NULL },
	/* Conference 5*2 (KE, RSE among Kurn, Gowron, Sela) + 5 (Sarek);
	 * Gowron 5; Sela 4*2; Sarek 5*3.  43. */
	{ CONFERENCE, { CONFERENCE, KURN, GOWRON, SELA, SAREK, END }, 43,
	    { 15, 0, 5, 8, 15 }, { X }, NULL },
	/* Distress Call 9*4 (Bridge, Tractor, Transporter, Medical
	 * Beverly); Bridge 3*3 (Tractor, Transporter, Beverly); Tractor 2
	 * (Bridge).  47. */
	{ DISTRESS, { DISTRESS, BRIDGE, TRACTOR, TRANSPORTER, BEVERLY, END },
	    47, { 36, 9, 2, 0, 0 }, { X }, NULL },
	/* Do Machines 9*4 (Android Data, Lore; Nakamura; Maddox); Nakamura
	 * 7 (Data); Maddox 5*2 (Data, Lore); Lore 8.  61. */
	{ MACHINES, { MACHINES, DATA, NAKAMURA, MADDOX, LORE, END }, 61,
	    { 36, 0, 7, 10, 8 }, { X }, NULL },
	/* Enemies to Friends 12 (RSE Sela; Betazoid Lwaxana). */
	{ ENEMIES, { ENEMIES, LWAXANA, SELA, END }, 12, { 12, 0, 0 }, { X },
	    NULL },
	/* Enemies to Friends 0: the Ship alone cannot be both cards. */
	{ ENEMIES, { ENEMIES, SHIP, END }, 0, { 0, 0 }, { X }, NULL },
	/* Haywire 5*3 (Geordi, Transporter once, Bridge); Geordi 4;
	 * Bridge 3*2.  25. */
	{ HAYWIRE, { HAYWIRE, GEORDI, TRANSPORTER, BRIDGE, END }, 25,
	    { 15, 4, 0, 6 }, { X }, NULL },
	/* Ethical Dilemma 15: Picard shows Command, Worf Security, Beverly
	 * Medical. */
	{ ETHICAL, { ETHICAL, PICARD, WORF, BEVERLY, END }, 15,
	    { 15, 0, 0, 0 }, { X }, NULL },
	/* Ethical Dilemma 15: the two other cards need only differ from
	 * each other: Riker (FED Command) leads, Picard shows Archaeologist,
	 * Kurn Command. */
	{ ETHICAL, { ETHICAL, PICARD, RIKER, KURN, END }, 15,
	    { 15, 0, 0, 0 }, { X }, NULL },
	/* The card's own example: Nakamura (FED Command) + Tomalak
	 * (Command) + Leah Brahms (Engineer).  Nakamura 0 (Tomalak is not
	 * FED), Tomalak 0 (two FED cards), Leah 0.  15. */
	{ ETHICAL, { ETHICAL, NAKAMURA, TOMALAK, LEAH, END }, 15,
	    { 15, 0, 0, 0 }, { X }, NULL },
	/* Under Siege 6*2 (Kurn, Sela; Bat'leth has no affiliation; Minuet
	 * is blanked); Sela 4; Bat'leth 6.  22. */
	{ SIEGE, { SIEGE, KURN, SELA, BATLETH, MINUET, END }, 22,
	    { 12, 0, 4, 6, 0 }, { 0, 0, 0, 0, 1 }, NULL },
	/* Imminent Destruction 8*3 (Data, Geordi, Traveler).  24. */
	{ DESTRUCTION, { DESTRUCTION, DATA, GEORDI, TRAVELER, END }, 24,
	    { 24, 0, 0, 0 }, { X }, NULL },
	/* Intruder Alert 12*2 (Security Worf, Weapon Phaser); Kurn 10;
	 * Worf 4 (Phaser); Phaser 9 (FED Security Worf).  47. */
	{ INTRUDER, { INTRUDER, KURN, WORF, PHASER, END }, 47,
	    { 24, 10, 4, 9 }, { 0, 0, 0, 0 }, NULL },
	/* Civil War 8*3 (Worf, Sela, Lursa); Sela 4; Lursa 7; Sarek 5*2.
	 * 45. */
	{ CIVILWAR, { CIVILWAR, WORF, SELA, LURSA, SAREK, END }, 45,
	    { 24, 0, 4, 7, 10 }, { X }, NULL },
	/* Language Barrier 8*4 (Troi, Spock, Computer, Tricorder); Troi 5
	 * (Vulcan); Tricorder 9*2 (Science Spock, Computer).  55. */
	{ LANGUAGE, { LANGUAGE, TROI, SPOCK, COMPUTER, TRICORDER, END }, 55,
	    { 32, 5, 0, 0, 18 }, { X }, NULL },
	/* Personnel Issues 0: Troi alone is one card. */
	{ ISSUES, { ISSUES, TROI, END }, 0, { 0, 0 }, { X }, NULL },
	/* Personnel Issues 14 (Riker Personnel, Troi Counselor); Troi 5;
	 * Riker 7.  26. */
	{ ISSUES, { ISSUES, TROI, RIKER, END }, 26, { 14, 5, 7 }, { X }, NULL },
	/* Plague on Klingons: 8*3 (Worf, Kurn, Gowron) + 5 (Medical
	 * Beverly); Kurn 10; Gowron 5*2.  49. */
	{ PLAGUE, { PLAGUE, WORF, KURN, GOWRON, BEVERLY, END }, 49,
	    { 29, 0, 10, 10, 0 }, { X }, "Mysterious Plague: Klingon" },
	/* Plague on Humans: 5*3 (Picard, Riker, Beverly once).  15. */
	{ PLAGUE, { PLAGUE, PICARD, RIKER, BEVERLY, END }, 15,
	    { 15, 0, 0, 0 }, { X }, "Mysterious Plague: Human" },
	/* Meddlesome Q 0; Vash 7 (Q). */
	{ Q, { Q, VASH, END }, 7, { 0, 7 }, { X }, NULL },
	/* Romance 8 (Troi and Lwaxana are the two characters, so neither
	 * is "additional") + 6 (Quarters): 14; Troi 5 (Betazoid); Lwaxana
	 * 9; Quarters 12.  40. */
	{ ROMANCE, { ROMANCE, TROI, LWAXANA, QUARTERS, END }, 40,
	    { 14, 5, 9, 12 }, { X }, NULL },
	/* Romance with one character: the 6s are "also", so 0, Quarters
	 * included.  Troi 0 (no other lifeform), Quarters 0 (one FED
	 * character).  0. */
	{ ROMANCE, { ROMANCE, TROI, QUARTERS, END }, 0, { 0, 0, 0 }, { X },
	    NULL },
	/* Romance 8 (Riker and Troi, say) + 6 (Lwaxana, the additional
	 * Betazoid) + 6 (Quarters): 20. */
	/* Troi 10 (Betazoid Lwaxana, Human Riker); Lwaxana 9; Riker 7;
	 * Quarters 12.  58. */
	{ ROMANCE, { ROMANCE, TROI, LWAXANA, RIKER, QUARTERS, END }, 58,
	    { 20, 10, 9, 7, 12 }, { X }, NULL },
	/* Romance 8 (Riker, Picard) + 6 (Counselor Troi); Troi 5 (Human);
	 * Riker 7 (Troi).  26. */
	{ ROMANCE, { ROMANCE, TROI, RIKER, PICARD, END }, 26,
	    { 14, 5, 7, 0 }, { X }, NULL },
	/* Puzzle 6*3 (Science Spock, Artifact Stone, Cosmic Traveler);
	 * Stone 11 (Vulcan Spock).  29. */
	{ PUZZLE, { PUZZLE, SPOCK, STONE, TRAVELER, END }, 29,
	    { 18, 0, 11, 0 }, { X }, NULL },
	/* Space Confrontation: Kurn lifts it and is not counted: 6*2
	 * (Riker, Worf); Kurn 10.  22. */
	{ CONFRONT, { CONFRONT, KURN, RIKER, WORF, END }, 22,
	    { 12, 10, 0, 0 }, { 0, 0, 0, 0 }, NULL },
	/* Crystal Entity lifts it, so Kurn counts: 6*2 (Kurn, Riker). */
	{ CONFRONT, { CONFRONT, CRYSTAL, KURN, RIKER, END }, 12,
	    { 12, 0, 0, 0 }, { X }, NULL },
	/* Kurn lifts it, Sela counts: 6; Sela 4.  10. */
	{ CONFRONT, { CONFRONT, KURN, SELA, END }, 10, { 6, 0, 4 }, { X },
	    NULL },
	/* BLANKED: FED Captain only. */
	{ CONFRONT, { CONFRONT, RIKER, PICARD, END }, 0, { 0, 0, 0 },
	    { 1, 0, 0 }, NULL },
	/* Lure 7*4 (FA Sovak, FA Bok, Artifact Tox, Archaeologist Picard);
	 * Sovak 8; Bok 8; Tox 6*2.  56. */
	{ PROFIT, { PROFIT, SOVAK, BOK, TOX, PICARD, END }, 56,
	    { 28, 8, 8, 12, 0 }, { X }, NULL },
	/* Time Distortion 10*3 (Ten-Forward, Cosmic Soran, Tox); Soran 12;
	 * Tox 6 (Soran).  48. */
	{ TIMEDIST, { TIMEDIST, TENFWD, SORAN, TOX, END }, 48,
	    { 30, 0, 12, 6 }, { X }, NULL },
	/* Trapped 15 (Holodeck 1, Riker); Holodeck 1 2 (Riker).  17. */
	{ TRAPPED, { TRAPPED, HOLO1, RIKER, END }, 17, { 15, 2, 0 }, { X },
	    NULL },
	/* Trapped 0: Holodeck 1 alone. */
	{ TRAPPED, { TRAPPED, HOLO1, END }, 0, { 0, 0 }, { X }, NULL },
};

/*
 * Hands scored with the readings of ruleset version 1, which games
 * recorded with it keep: Ethical Dilemma's three different specialties,
 * Blossoming Romance's 6s without the 8.
 */
static const struct hand_case v1_cases[] = {
	/* Ethical Dilemma: three different specialties.  Riker and Kurn
	 * only show Command, which the leader shows: 0. */
	{ ETHICAL, { ETHICAL, PICARD, RIKER, KURN, END }, 0, { 0, 0, 0, 0 },
	    { X }, NULL },
	/* Ethical Dilemma: Tomalak only shows Command: 0. */
	{ ETHICAL, { ETHICAL, NAKAMURA, TOMALAK, LEAH, END }, 0,
	    { 0, 0, 0, 0 }, { X }, NULL },
	/* Romance: 6 each (Troi, Lwaxana, Quarters) beats 8 + 6: 18.
	 * 44. */
	{ ROMANCE, { ROMANCE, TROI, LWAXANA, QUARTERS, END }, 44,
	    { 18, 5, 9, 12 }, { X }, NULL },
	/* Romance: the 6s without the 8: Troi 6 + Quarters 6.  12. */
	{ ROMANCE, { ROMANCE, TROI, QUARTERS, END }, 12, { 12, 0, 0 },
	    { X }, NULL },
};

#undef X

static int
case_size(const struct hand_case *c)
{
	int n = 0;

	while (n < STM_HAND_MAX && c->cards[n] != END)
		n++;
	return n;
}

/* Case i of table `cases`, scored with the readings of `version`. */
static void
check_case(const struct hand_case *c, int version, int i_case)
{
	struct stm_hand_score s;
	int n = case_size(c), i;

	ck_assert_int_eq(stm_score_hand_at(version, c->cards, n, &s), 0);
	ck_assert_msg(s.total == c->total,
	    "case %d (%s, version %d): total %d, want %d", i_case,
	    stm_cards[c->subject].name_en, version, s.total, c->total);
	for (i = 0; i < n; i++) {
		if (c->points[i] != ANY)
			ck_assert_msg(s.points[i] == c->points[i],
			    "case %d: %s scored %d, want %d", i_case,
			    stm_cards[c->cards[i]].name_en, s.points[i],
			    c->points[i]);
		if (c->blanked[0] != ANY)
			ck_assert_msg(!!s.blanked[i] == c->blanked[i],
			    "case %d: %s blanked %d", i_case,
			    stm_cards[c->cards[i]].name_en, s.blanked[i]);
	}
	if (c->choice != NULL)
		ck_assert_msg(strstr(s.choices_en, c->choice) != NULL,
		    "case %d: choices \"%s\" lack \"%s\"", i_case,
		    s.choices_en, c->choice);
	ck_assert_int_eq(ref_score(version, c->cards, n), c->total);
}

START_TEST(test_case)
{
	check_case(&cases[_i], STM_SCORE_NEWEST, _i);
	/* stm_score_hand() is the newest version's. */
	if (_i == 0) {
		struct stm_hand_score a, b;
		int n = case_size(&cases[0]);

		ck_assert_int_eq(stm_score_hand(cases[0].cards, n, &a), 0);
		ck_assert_int_eq(stm_score_hand_at(STM_SCORE_NEWEST,
		    cases[0].cards, n, &b), 0);
		ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
	}
}
END_TEST

START_TEST(test_v1_case)
{
	check_case(&v1_cases[_i], STM_SCORE_V1, _i);
}
END_TEST

/* Every card is the subject of at least one case. */
START_TEST(test_every_card_has_a_case)
{
	int seen[STM_NCARDS] = { 0 };
	size_t i;
	int c;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		seen[cases[i].subject] = 1;
		for (c = 0; c < case_size(&cases[i]); c++)
			if (cases[i].cards[c] == cases[i].subject)
				break;
		ck_assert_msg(c < case_size(&cases[i]),
		    "case %zu does not hold its subject", i);
	}
	for (c = 0; c < STM_NCARDS; c++)
		ck_assert_msg(seen[c], "no case for %s", stm_cards[c].name_en);
}
END_TEST

/*
 * The holder's choices, the breakdown, invalid hands.
 */
START_TEST(test_choice_texts)
{
	/* Everything at once: the report names every choice card, in
	 * both languages. */
	int hand[] = { BORG, SHIP, THOUGHT, PLAGUE, WESLEY, TROI, CONFERENCE,
	    AWAY, TOMALAK, ENGINE, PICARD, KURN };
	struct stm_hand_score s;

	ck_assert_int_eq(stm_score_hand(hand, 12, &s), 0);
	ck_assert_ptr_nonnull(strstr(s.choices_en, "Borg Cube blanks"));
	ck_assert_ptr_nonnull(strstr(s.choices_en, "Mysterious Plague: "));
	ck_assert_ptr_nonnull(strstr(s.choices_fr, "Cube Borg masque"));
	ck_assert_ptr_nonnull(strstr(s.choices_fr, "Peste mystérieuse : "));
	ck_assert_int_eq(s.total, ref_score(STM_SCORE_NEWEST, hand, 12));
}
END_TEST

START_TEST(test_no_choice_no_text)
{
	int hand[] = { WORF, KURN };
	struct stm_hand_score s;

	ck_assert_int_eq(stm_score_hand(hand, 2, &s), 0);
	ck_assert_str_eq(s.choices_en, "");
	ck_assert_str_eq(s.choices_fr, "");
}
END_TEST

START_TEST(test_ship_choice_named)
{
	/* Gowron 5 needs the Ship Klingon or KE; the text says what it
	 * was declared as. */
	int hand[] = { SHIP, GOWRON };
	struct stm_hand_score s;

	ck_assert_int_eq(stm_score_hand(hand, 2, &s), 0);
	ck_assert_int_eq(s.total, 5);
	ck_assert_ptr_nonnull(strstr(s.choices_en, "Unidentified Ship: "));
	ck_assert_ptr_nonnull(strstr(s.choices_fr,
	    "Vaisseau non identifié : "));
	ck_assert_msg(strstr(s.choices_en, "Klingon") != NULL,
	    "choices: %s", s.choices_en);
}
END_TEST

START_TEST(test_borg_blanked_card_scores_as_borg)
{
	/* Borg Cube 5*2 (Captains Kurn, Gowron); Gowron 5 (Kurn); Sovak
	 * and Spock score 0 and give nothing here, so Borg Cube blanks
	 * them and each scores 10.  10+0+5+10+10 = 35. */
	int hand[] = { BORG, KURN, GOWRON, SOVAK, SPOCK };
	struct stm_hand_score s;

	ck_assert_int_eq(stm_score_hand(hand, 5, &s), 0);
	ck_assert_int_eq(s.total, 35);
	ck_assert_int_eq(s.blanked[3], 1);
	ck_assert_int_eq(s.points[3], 10);
	ck_assert_int_eq(s.blanked[4], 1);
	ck_assert_int_eq(s.points[4], 10);
	ck_assert_str_eq(s.choices_en, "Borg Cube blanks Sovak and Spock");
	ck_assert_str_eq(s.choices_fr, "Cube Borg masque Sovak et Spock");
}
END_TEST

START_TEST(test_json)
{
	int hand[] = { MORIARTY, DATA, INTRUDER };
	struct stm_hand_score s;
	json_t *j, *cards, *card;

	ck_assert_int_eq(stm_score_hand(hand, 3, &s), 0);
	j = stm_score_json(&s, 1);
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "total")), 0);
	cards = json_object_get(j, "cards");
	ck_assert_int_eq(json_array_size(cards), 3);
	card = json_array_get(cards, 2);
	ck_assert_str_eq(json_string_value(json_object_get(card, "id")), "M13");
	ck_assert_str_eq(json_string_value(json_object_get(card, "name")),
	    "Alerte intrus");
	ck_assert(json_is_true(json_object_get(card, "blanked")));
	ck_assert_int_eq(json_integer_value(json_object_get(card, "points")),
	    0);
	ck_assert_str_eq(json_string_value(json_object_get(j, "choices")), "");
	json_decref(j);

	j = stm_score_json(&s, 0);
	card = json_array_get(json_object_get(j, "cards"), 1);
	ck_assert_str_eq(json_string_value(json_object_get(card, "name")),
	    "Lieutenant Commander Data");
	ck_assert(json_is_false(json_object_get(card, "blanked")));
	json_decref(j);
}
END_TEST

START_TEST(test_invalid_hands)
{
	int repeated[] = { WORF, KURN, WORF };
	int out_of_range[] = { WORF, STM_NCARDS };
	int negative[] = { -1 };
	int thirteen[13] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	struct stm_hand_score s;

	memset(&s, 0x5a, sizeof(s));
	ck_assert_int_eq(stm_score_hand(repeated, 3, &s), -1);
	ck_assert_int_eq(stm_score_hand(out_of_range, 2, &s), -1);
	ck_assert_int_eq(stm_score_hand(negative, 1, &s), -1);
	ck_assert_int_eq(stm_score_hand(thirteen, 13, &s), -1);
	ck_assert_int_eq(stm_score_hand(thirteen, 0, &s), -1);
	ck_assert_int_eq(stm_score_hand(NULL, 3, &s), -1);
	ck_assert_int_eq(stm_score_hand(thirteen, 3, NULL), -1);
	ck_assert_int_eq(stm_score_hand_at(0, thirteen, 3, &s), -1);
	ck_assert_int_eq(stm_score_hand_at(STM_SCORE_NEWEST + 1, thirteen, 3,
	    &s), -1);
	/* out untouched */
	ck_assert_int_eq(s.total, 0x5a5a5a5a);
	ck_assert_int_eq(stm_score_hand(thirteen, 12, &s), 0);
}
END_TEST

/* The scorer allocates nothing: the heap is the same before and after
 * scoring the hardest hands (glibc 2.33 and later; elsewhere, and under
 * AddressSanitizer, this checks nothing). */
START_TEST(test_no_allocation)
{
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 33)
	int hand[] = { BORG, SHIP, THOUGHT, PLAGUE, WESLEY, LEAH, HOLO2,
	    KEHLEYR, TOG, MADDOX, VASH, LANGUAGE };
	struct stm_hand_score s;
	struct mallinfo2 before, after;
	int i;

	ck_assert_int_eq(stm_score_hand(hand, 12, &s), 0);
	before = mallinfo2();
	for (i = 0; i < 10; i++)
		stm_score_hand(hand, 12, &s);
	after = mallinfo2();
	ck_assert_uint_eq(before.uordblks, after.uordblks);
	ck_assert_uint_eq(before.hblkhd, after.hblkhd);
	ck_assert_uint_eq(before.arena, after.arena);
#endif
}
END_TEST

/*
 * The card data against the catalogue's fixed points.
 */
START_TEST(test_card_data)
{
	int c, nmission = 0;

	for (c = 0; c < STM_NCARDS; c++) {
		ck_assert_ptr_nonnull(stm_cards[c].name_en);
		ck_assert_ptr_nonnull(stm_cards[c].name_fr);
		ck_assert_ptr_nonnull(stm_cards[c].bonus_en);
		ck_assert_ptr_nonnull(stm_cards[c].bonus_fr);
		ck_assert_int_eq(stm_cards[c].id[0], STM_IS_MISSION(c) ?
		    'M' : 'G');
		ck_assert_int_eq(atoi(stm_cards[c].id + 1), STM_IS_MISSION(c) ?
		    c - STM_NGALAXY + 1 : c + 1);
		if (STM_IS_MISSION(c)) {
			nmission++;
			ck_assert_int_eq(stm_cards[c].types, STM_T_MISSION);
			ck_assert_int_eq(stm_cards[c].affiliation, STM_A_NONE);
		}
	}
	ck_assert_int_eq(nmission, 24);
	ck_assert_str_eq(stm_cards[STM_C_LURSA_BETOR].name_fr,
	    "Lursa et B'Etor");
	ck_assert_str_eq(stm_cards[STM_C_MACHINES_RIGHTS].name_fr,
	    "Les machines ont-elles des droits ?");
	ck_assert_int_eq(stm_cards[STM_C_TRANSPORTER].types,
	    STM_T_SYSTEM | STM_T_LOCATION);
	ck_assert_int_eq(stm_cards[STM_C_DATA].specialties, STM_S_COMMAND |
	    STM_S_ENGINEER | STM_S_SECURITY | STM_S_SCIENCE);
	ck_assert_str_eq(stm_specialty_name(0, 1), "Commandement");
	ck_assert_str_eq(stm_lifeform_name(9, 0), "El-Aurian");
	ck_assert_str_eq(stm_affiliation_name(STM_A_RSE, 1),
	    "Empire Stellaire Romulien");
	ck_assert_str_eq(stm_type_name(2, 0), "Civilian");
	ck_assert_ptr_null(stm_type_name(STM_NTYPES, 0));
}
END_TEST

/*
 * The card data against the catalogue itself,
 * $SHARED_DIR/games/stmissions-cards.md: names in both languages, types,
 * specialties, lifeforms, affiliation.
 */
static FILE *
open_catalogue(void)
{
	const char *shared = getenv("SHARED_DIR");
	const char *top = getenv("top_srcdir");
	char path[1024];

	if (shared != NULL && *shared != '\0')
		snprintf(path, sizeof(path), "%s/games/stmissions-cards.md",
		    shared);
	else
		snprintf(path, sizeof(path),
		    "%s/../shared/games/stmissions-cards.md",
		    top != NULL && *top != '\0' ? top : ".");
	return fopen(path, "r");
}

/* Split a table row "| a | b | ... |" into trimmed cells, in place. */
static int
row_cells(char *line, char **cell, int max)
{
	char *p, *end;
	int n = 0;

	if (line[0] != '|')
		return 0;
	for (p = line + 1; n < max && (end = strchr(p, '|')) != NULL;
	    p = end + 1) {
		*end = '\0';
		while (*p == ' ')
			p++;
		cell[n] = p;
		for (p = end - 1; p >= cell[n] && *p == ' '; p--)
			*p = '\0';
		n++;
	}
	return n;
}

/* The bits of a comma-separated list of names (name(bit, 0)); "-" is
 * none; a trailing '*' (a catalogue footnote) is ignored. */
static unsigned
name_bits(const char *list, const char *(*name)(int, int), int nbits)
{
	char buf[256], *tok, *save, *star;
	unsigned bits = 0;
	int b;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		if ((star = strchr(tok, '*')) != NULL)
			*star = '\0';
		if (strcmp(tok, "-") == 0)
			continue;
		for (b = 0; b < nbits; b++)
			if (strcmp(tok, name(b, 0)) == 0)
				break;
		ck_assert_msg(b < nbits, "unknown name \"%s\"", tok);
		bits |= 1u << b;
	}
	return bits;
}

static unsigned
type_bits(const char *list)
{
	static const char *const abbrev[STM_NTYPES] = {
		"Cap", "Pers", "Civ", "Loc", "Sys", "Equip", "Art", "Ent",
		"Wild", "Mission"
	};
	char buf[64], *tok, *save;
	unsigned bits = 0;
	int b;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, "+ ", &save); tok != NULL;
	    tok = strtok_r(NULL, "+ ", &save)) {
		for (b = 0; b < STM_NTYPES; b++)
			if (strcmp(tok, abbrev[b]) == 0)
				break;
		ck_assert_msg(b < STM_NTYPES, "unknown type \"%s\"", tok);
		bits |= 1u << b;
	}
	return bits;
}

static int
affiliation_of(const char *s)
{
	static const char *const abbrev[STM_NAFFILIATIONS] = {
		"-", "FED", "KE", "RSE", "FA", "HOS"
	};
	int a;

	for (a = 0; a < STM_NAFFILIATIONS; a++)
		if (strcmp(s, abbrev[a]) == 0)
			return a;
	ck_abort_msg("unknown affiliation \"%s\"", s);
	return -1;
}

START_TEST(test_cards_match_catalogue)
{
	FILE *f = open_catalogue();
	char line[2048], *cell[10];
	const struct stm_card *c;
	int n, card, seen = 0;

	ck_assert_msg(f != NULL, "the card catalogue is missing: set "
	    "SHARED_DIR to the folder holding games/stmissions-cards.md");
	while (fgets(line, sizeof(line), f) != NULL) {
		n = row_cells(line, cell, 10);
		if (n < 4 || (cell[0][0] != 'G' && cell[0][0] != 'M') ||
		    strlen(cell[0]) != 3)
			continue;
		card = atoi(cell[0] + 1) - 1 +
		    (cell[0][0] == 'M' ? STM_NGALAXY : 0);
		ck_assert(card >= 0 && card < STM_NCARDS);
		c = &stm_cards[card];
		ck_assert_str_eq(c->id, cell[0]);
		ck_assert_str_eq(c->name_en, cell[1]);
		ck_assert_str_eq(c->name_fr, cell[2]);
		if (cell[0][0] == 'G') {
			ck_assert_int_eq(n, 8);
			ck_assert_uint_eq(c->types, type_bits(cell[3]));
			ck_assert_uint_eq(c->specialties, name_bits(cell[4],
			    stm_specialty_name, STM_NSPECIALTIES));
			ck_assert_uint_eq(c->lifeforms, name_bits(cell[5],
			    stm_lifeform_name, STM_NLIFEFORMS));
			ck_assert_int_eq(c->affiliation,
			    affiliation_of(cell[6]));
		}
		seen++;
	}
	fclose(f);
	ck_assert_int_eq(seen, STM_NCARDS);
}
END_TEST

/* Nine Galaxy cards have no affiliation in the catalogue (the rulebook's
 * overview says seven; the catalogue is the source of truth): Bat'leth,
 * Hand Phaser, Minuet, Stone of Gol, The Traveler, Tox Uthat, Tricorder,
 * Unidentified Ship, Vash. */
START_TEST(test_galaxy_without_affiliation)
{
	int c, n = 0;

	for (c = 0; c < STM_NGALAXY; c++)
		if (stm_cards[c].affiliation == STM_A_NONE)
			n++;
	ck_assert_int_eq(n, 9);
}
END_TEST

/*
 * The property test.
 */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t z;

	*state += 0x9e3779b97f4a7c15ULL;
	z = *state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int
random_below(uint64_t *state, int n)
{
	return (int)(next_random(state) % (uint64_t)n);
}

static int
in_hand(const int *hand, int n, int card)
{
	int i;

	for (i = 0; i < n; i++)
		if (hand[i] == card)
			return 1;
	return 0;
}

/* Adds a card not yet in hand, from [lo, hi). */
static void
add_random(uint64_t *state, int *hand, int *n, int lo, int hi)
{
	int c;

	do
		c = lo + random_below(state, hi - lo);
	while (in_hand(hand, *n, c));
	hand[(*n)++] = c;
}

static void
check_version_against_reference(int version, const int *hand, int n)
{
	struct stm_hand_score s;
	int want, i;
	char list[256];
	size_t used = 0;

	ck_assert_int_eq(stm_score_hand_at(version, hand, n, &s), 0);
	want = ref_score(version, hand, n);
	if (s.total == want)
		return;
	for (i = 0; i < n; i++)
		used += snprintf(list + used, sizeof(list) - used, " %s",
		    stm_cards[hand[i]].id);
	ck_abort_msg("hand%s (version %d): scorer %d, reference %d (%s)", list,
	    version, s.total, want, s.choices_en);
}

static void
check_against_reference(const int *hand, int n)
{
	check_version_against_reference(STM_SCORE_NEWEST, hand, n);
}

static int
property_hands(int dflt)
{
	const char *e = getenv("STM_PROPERTY_HANDS");

	return e != NULL && atoi(e) > 0 ? atoi(e) : dflt;
}

/* Dealt like a game: 5 Galaxy and 2 Mission cards. */
START_TEST(test_random_dealt_hands)
{
	uint64_t state = 20240601;
	int hand[STM_HAND_MAX], n, k, count = property_hands(3000);

	for (k = 0; k < count; k++) {
		n = 0;
		while (n < 5)
			add_random(&state, hand, &n, 0, STM_NGALAXY);
		while (n < 7)
			add_random(&state, hand, &n, STM_NGALAXY, STM_NCARDS);
		check_against_reference(hand, n);
	}
}
END_TEST

/* Small hands of any cards, each with one or two of the choice cards. */
START_TEST(test_random_choice_hands)
{
	static const int choosers[] = { BORG, SHIP, THOUGHT, PLAGUE, WESLEY,
	    LEAH };
	uint64_t state = 77;
	int hand[STM_HAND_MAX], n, k, size, count = property_hands(3000) / 10;

	for (k = 0; k < count; k++) {
		n = 0;
		hand[n++] = choosers[random_below(&state, 6)];
		if (random_below(&state, 2) == 0 &&
		    !in_hand(hand, n, choosers[k % 6]))
			hand[n++] = choosers[k % 6];
		size = 3 + random_below(&state, 3);
		while (n < size)
			add_random(&state, hand, &n, 0, STM_NCARDS);
		check_against_reference(hand, n);
	}
}
END_TEST

/* The Ship and Thought Maker together, whose choices interact, with
 * three other cards. */
START_TEST(test_random_ship_thought_hands)
{
	uint64_t state = 1701;
	int hand[STM_HAND_MAX], n, k, count = property_hands(3000) / 75;

	for (k = 0; k < count; k++) {
		n = 0;
		hand[n++] = SHIP;
		hand[n++] = THOUGHT;
		while (n < 5)
			add_random(&state, hand, &n, 0, STM_NCARDS);
		check_against_reference(hand, n);
	}
}
END_TEST

/* Larger hands (Meddlesome Q's), without the Ship so the reference
 * stays quick. */
START_TEST(test_random_large_hands)
{
	uint64_t state = 4242;
	int hand[STM_HAND_MAX], n, k, size, count = property_hands(3000) / 10;

	for (k = 0; k < count; k++) {
		n = 0;
		size = 8 + random_below(&state, 3);
		while (n < size) {
			add_random(&state, hand, &n, 0, STM_NCARDS);
			if (hand[n - 1] == SHIP)
				n--;
		}
		check_against_reference(hand, n);
	}
}
END_TEST

/* Ethical Dilemma or Blossoming Romance, whose readings changed with
 * ruleset version 2, with four to six other cards: every version's
 * scorer against the reference of the same version. */
START_TEST(test_random_versions_hands)
{
	uint64_t state = 1910;
	int hand[STM_HAND_MAX], n, k, size, version;
	int count = property_hands(3000) / 5;

	for (k = 0; k < count; k++) {
		n = 0;
		hand[n++] = k % 2 == 0 ? ETHICAL : ROMANCE;
		if (k % 3 == 0)
			hand[n++] = QUARTERS;
		size = 5 + random_below(&state, 3);
		while (n < size) {
			add_random(&state, hand, &n, 0, STM_NCARDS);
			if (hand[n - 1] == SHIP && k % 7 != 0)
				n--;
		}
		for (version = STM_SCORE_V1; version <= STM_SCORE_NEWEST;
		    version++)
			check_version_against_reference(version, hand, n);
	}
}
END_TEST

static Suite *
stm_score_suite(void)
{
	Suite *s = suite_create("stm_score");
	TCase *tc;

	tc = tcase_create("cases");
	tcase_add_loop_test(tc, test_case, 0,
	    (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_loop_test(tc, test_v1_case, 0,
	    (int)(sizeof(v1_cases) / sizeof(v1_cases[0])));
	tcase_add_test(tc, test_every_card_has_a_case);
	suite_add_tcase(s, tc);

	tc = tcase_create("interface");
	tcase_add_test(tc, test_choice_texts);
	tcase_add_test(tc, test_no_choice_no_text);
	tcase_add_test(tc, test_ship_choice_named);
	tcase_add_test(tc, test_borg_blanked_card_scores_as_borg);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_invalid_hands);
	tcase_add_test(tc, test_no_allocation);
	tcase_add_test(tc, test_card_data);
	tcase_add_test(tc, test_cards_match_catalogue);
	tcase_add_test(tc, test_galaxy_without_affiliation);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("property");
	tcase_add_test(tc, test_random_dealt_hands);
	tcase_add_test(tc, test_random_choice_hands);
	tcase_add_test(tc, test_random_ship_thought_hands);
	tcase_add_test(tc, test_random_large_hands);
	tcase_add_test(tc, test_random_versions_hands);
	tcase_set_timeout(tc, 600);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	sr = srunner_create(stm_score_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
