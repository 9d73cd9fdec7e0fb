/*
 * score_cards.c -- every card's bonus, and a card's best score
 * (score_int.h).
 *
 * Every card's bonus is data (struct rule): "per" clauses, where each
 * giving card pays the best clause it meets, and at most one special
 * clause (paid once, a count threshold, a matching of different values,
 * distinct roles, ...).  stm_score_card() computes the card's best score
 * exactly: the special clause is combined with the per clauses by
 * charging each giver it uses the per bonus that giver would have paid,
 * and matchings are exact (score_match.c).  docs/stmissions-scoring.md
 * states every reading of a card.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "score_int.h"

/* Initializer shorthands, nothing more. */
#define WHO(any)		{ .term = { { (any), 0, 0 } } }
#define WHO2(any, req)		{ .term = { { (any), (req), 0 } } }
#define NAMED1(a)		{ .named = { (a) }, .nnamed = 1 }
#define NAMED2(a, b)		{ .named = { (a), (b) }, .nnamed = 2 }
#define NAMED3(a, b, c)		{ .named = { (a), (b), (c) }, .nnamed = 3 }

#define FED		F_AFF(STM_A_FED)
#define CAPTAIN		F_TYPE(STM_T_CAPTAIN)
#define PERSONNEL	F_TYPE(STM_T_PERSONNEL)
#define CIVILIAN	F_TYPE(STM_T_CIVILIAN)
#define LOCATION	F_TYPE(STM_T_LOCATION)
#define SYSTEM		F_TYPE(STM_T_SYSTEM)
#define ARTIFACT	F_TYPE(STM_T_ARTIFACT)
#define ENTITY		F_TYPE(STM_T_ENTITY)

const struct rule stm_score_rules[STM_NCARDS] = {
	[STM_C_KEHLEYR] = { .nper = 1, .per = {
		{ NAMED1(STM_C_WORF), 10 } } },
	[STM_C_SAREK] = { .nper = 1, .per = {
		{ WHO2(CAPTAIN, F_NONFED), 5 } } },
	[STM_C_BATLETH] = { .special = SP_COUNT, .ncand = 1, .cand = {
		WHO(F_LF(STM_L_KLINGON) | F_AFF(STM_A_KE)) },
		.value = { 6, 16 } },
	[STM_C_BRIDGE] = { .nper = 1, .per = {
		{ WHO2(PERSONNEL | SYSTEM, FED), 3 } } },
	[STM_C_PICARD] = { .nper = 2, .per = {
		{ NAMED1(STM_C_BRIDGE), 5 },
		{ WHO(LOCATION), 3 } } },
	[STM_C_GOWRON] = { .nper = 1, .per = {
		{ WHO(F_LF(STM_L_KLINGON) | F_AFF(STM_A_KE)), 5 } } },
	[STM_C_MADDOX] = { .nper = 1, .per = {
		{ WHO(F_LF(STM_L_ANDROID | STM_L_HOLOGRAM)), 5 } } },
	[STM_C_KURN] = { .nper = 1, .per = {
		{ NAMED1(STM_C_WORF), 10 } } },
	[STM_C_SELA] = { .nper = 1, .per = {
		{ WHO(F_AFF(STM_A_HOS) | F_AFF(STM_A_KE)), 4 } } },
	[STM_C_TOMALAK] = { .special = SP_DISTINCT_NEED, .ncand = 1,
		.cand = { WHO2(0, FED) }, .dim = DIM_SPEC, .need = 3,
		.value = { 13 } },
	[STM_C_RIKER] = { .nper = 1, .per = {
		{ NAMED3(STM_C_TRANSPORTER, STM_C_DEANNA_TROI,
		    STM_C_AWAY_TEAM), 7 } } },
	[STM_C_COMPUTER] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COSMIC)), 6 } } },
	[STM_C_DEANNA_TROI] = { .special = SP_DISTINCT, .ncand = 1,
		.cand = { WHO(F_HAS_LF) }, .dim = DIM_LF, .value = { 5 } },
	[STM_C_CRYSTAL_ENTITY] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COMBAT)), 6 } } },
	[STM_C_BOK] = { .nper = 1, .per = {
		{ NAMED2(STM_C_PICARD, STM_C_THOUGHT_MAKER), 8 } } },
	[STM_C_TOG] = { .nper = 1, .per = {
		{ WHO(F_LF(STM_L_BETAZOID)), 8 } } },
	[STM_C_BEVERLY] = { .nper = 1, .per = {
		{ NAMED2(STM_C_SICKBAY, STM_C_WESLEY), 8 } } },
	[STM_C_ENGINE_ROOM] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_ENGINEER)), 6 } } },
	[STM_C_WESLEY] = { .special = SP_COPY },
	[STM_C_HAND_PHASER] = { .special = SP_WITH, .ncand = 1, .cand = {
		WHO2(F_SPEC(STM_S_SECURITY | STM_S_COMMAND), FED) },
		.value = { 9 } },
	[STM_C_HOLODECK_1] = { .nper = 2, .per = {
		{ WHO(F_LF(STM_L_HOLOGRAM)), 8 },
		{ { .term = { { PERSONNEL | CAPTAIN, FED, F_NONHOLO } } },
		    2 } } },
	[STM_C_HOLODECK_2] = { .nper = 2, .per = {
		{ WHO(F_LF(STM_L_HOLOGRAM)), 8 },
		{ { .term = { { PERSONNEL | CAPTAIN, FED, F_NONHOLO } } },
		    2 } } },
	[STM_C_MORIARTY] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_SCIENCE | STM_S_ENGINEER)), 8 } },
		.blanked_unless = 1, .lift = NAMED3(STM_C_HOLODECK_1,
		    STM_C_HOLODECK_2, STM_C_COMPUTER) },
	[STM_C_LEAH_BRAHMS] = { .nper = 1, .per = {
		{ NAMED2(STM_C_GEORDI, STM_C_ENGINE_ROOM), 9 } },
		.special = SP_WITH, .ncand = 1, .cand = {
		NAMED3(STM_C_HOLODECK_1, STM_C_HOLODECK_2, STM_C_COMPUTER) },
		.value = { 5 } },
	[STM_C_DATA] = { .special = SP_NONE },
	[STM_C_GEORDI] = { .nper = 2, .per = {
		{ WHO(SYSTEM), 4 },
		{ NAMED1(STM_C_ENGINE_ROOM), 4 } } },
	[STM_C_WORF] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_WEAPON | STM_S_COMBAT)), 4 } } },
	[STM_C_LORE] = { .nper = 1, .per = {
		{ NAMED3(STM_C_DATA, STM_C_CRYSTAL_ENTITY, STM_C_BORG_CUBE),
		    8 } } },
	[STM_C_LURSA_BETOR] = { .nper = 1, .per = {
		{ WHO(F_LF(STM_L_ROMULAN) | F_AFF(STM_A_RSE)), 7 } } },
	[STM_C_LWAXANA] = { .nper = 1, .per = {
		{ NAMED2(STM_C_DEANNA_TROI, STM_C_PICARD), 9 } } },
	[STM_C_MINUET] = { .special = SP_WITH, .ncand = 2, .cand = {
		NAMED1(STM_C_RIKER), WHO(F_SPEC(STM_S_COMMAND)) },
		.value = { 20, 10 },
		.blanked_unless = 1, .lift = NAMED3(STM_C_HOLODECK_1,
		    STM_C_HOLODECK_2, STM_C_COMPUTER) },
	[STM_C_PHOTON_TORPEDOES] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COMBAT)), 2 } },
		.special = SP_WITH, .ncand = 1, .cand = {
		WHO2(CAPTAIN, F_NONFED) }, .value = { 6 } },
	[STM_C_QUARTERS] = { .special = SP_COUNT, .ncand = 1, .cand = {
		WHO2(CHAR_TYPES, FED) }, .value = { 0, 12 } },
	[STM_C_SHIELDS] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COMBAT)), 2 } },
		.special = SP_WITH, .ncand = 1, .cand = {
		WHO2(CAPTAIN, F_NONFED) }, .value = { 6 } },
	[STM_C_SICKBAY] = { .special = SP_ROLES, .ncand = 3, .cand = {
		WHO(PERSONNEL), WHO(F_NONFED),
		WHO(F_SPEC(STM_S_COMBAT | STM_S_WEAPON)) }, .value = { 20 } },
	[STM_C_SOVAK] = { .nper = 1, .per = {
		{ WHO(ARTIFACT), 8 } } },
	[STM_C_SPOCK] = { .nper = 1, .per = {
		{ { .term = { { F_LF(STM_L_ROMULAN), 0, 0 } },
		    .named = { STM_C_SAREK, STM_C_DATA }, .nnamed = 2 },
		    6 } } },
	[STM_C_STONE_OF_GOL] = { .special = SP_WITH, .ncand = 1, .cand = {
		WHO(F_LF(STM_L_VULCAN | STM_L_BETAZOID)) }, .value = { 11 } },
	[STM_C_TEN_FORWARD] = { .nper = 1, .per = {
		{ WHO2(PERSONNEL | CIVILIAN, FED), 4 } } },
	[STM_C_TRAVELER] = { .nper = 1, .per = {
		{ NAMED2(STM_C_WESLEY, STM_C_ENGINE_ROOM), 10 } } },
	[STM_C_THOUGHT_MAKER] = { .special = SP_THOUGHT },
	[STM_C_SORAN] = { .nper = 1, .per = {
		{ NAMED2(STM_C_TIME_DISTORTION, STM_C_BORG_CUBE), 12 } } },
	[STM_C_TOX_UTHAT] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_ARCHAEOLOGIST | STM_S_COSMIC)), 6 } } },
	[STM_C_TRACTOR_BEAM] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COMBAT)), 2 } },
		.special = SP_WITH, .ncand = 1, .cand = {
		WHO2(CAPTAIN, F_NONFED) }, .value = { 6 } },
	[STM_C_TRANSPORTER] = { .special = SP_DISTINCT_NEED, .ncand = 1,
		.cand = { WHO(PERSONNEL) }, .dim = DIM_SPEC, .need = 3,
		.value = { 18 } },
	[STM_C_TRICORDER] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_MEDICAL | STM_S_SCIENCE)), 9 } } },
	[STM_C_TURBOLIFT] = { .special = SP_COUNT, .ncand = 1, .cand = {
		WHO(LOCATION) }, .value = { 0, 16 } },
	[STM_C_UNIDENTIFIED_SHIP] = { .special = SP_NONE },
	[STM_C_VASH] = { .nper = 1, .per = {
		{ { .term = { { F_SPEC(STM_S_ARCHAEOLOGIST) | ARTIFACT, 0,
		    0 } }, .named = { STM_C_MEDDLESOME_Q }, .nnamed = 1 },
		    7 } } },
	[STM_C_NAKAMURA] = { .nper = 1, .per = {
		{ WHO2(F_SPEC(STM_S_COMMAND), FED), 7 } } },

	[STM_C_AWAY_TEAM] = { .nper = 1, .per = {
		{ NAMED3(STM_C_TRANSPORTER, STM_C_TRICORDER, STM_C_HAND_PHASER),
		    5 } },
		.special = SP_DISTINCT, .ncand = 1, .cand = { WHO(PERSONNEL) },
		.dim = DIM_SPEC, .value = { 5 } },
	[STM_C_BORG_CUBE] = { .nper = 1, .per = {
		{ WHO(CAPTAIN | F_SPEC(STM_S_COMBAT | STM_S_SECURITY)), 5 } } },
	[STM_C_COMPUTER_VIRUS] = { .nper = 1, .per = {
		{ WHO(SYSTEM | F_LF(STM_L_HOLOGRAM)), 7 } } },
	[STM_C_CONFLICTING_ORDERS] = { .special = SP_SHARED_AFF, .ncand = 1,
		.cand = { WHO(F_SPEC(STM_S_COMMAND)) }, .value = { 14 } },
	[STM_C_DIPLOMATIC_CONFERENCE] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_AMBASSADOR)), 5 } },
		.special = SP_DISTINCT, .ncand = 1, .cand = { WHO(CAPTAIN) },
		.dim = DIM_AFF, .value = { 5 } },
	[STM_C_DISTRESS_CALL] = { .nper = 1, .per = {
		{ { .term = { { F_SPEC(STM_S_MEDICAL), 0, 0 } },
		    .named = { STM_C_BRIDGE, STM_C_TRACTOR_BEAM,
		    STM_C_TRANSPORTER }, .nnamed = 3 }, 9 } } },
	[STM_C_MACHINES_RIGHTS] = { .nper = 1, .per = {
		{ { .term = { { F_LF(STM_L_HOLOGRAM | STM_L_ANDROID), 0, 0 } },
		    .named = { STM_C_NAKAMURA, STM_C_MADDOX }, .nnamed = 2 },
		    9 } } },
	[STM_C_ENEMIES_TO_FRIENDS] = { .special = SP_ROLES, .ncand = 2,
		.cand = {
		WHO(F_AFF(STM_A_RSE) | F_AFF(STM_A_FA) | F_AFF(STM_A_HOS)),
		WHO(F_LF(STM_L_BETAZOID) | F_SPEC(STM_S_AMBASSADOR)) },
		.value = { 12 } },
	[STM_C_HAYWIRE] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_ENGINEER) | SYSTEM | LOCATION), 5 } } },
	[STM_C_ETHICAL_DILEMMA] = { .special = SP_ETHICAL, .ncand = 2,
		.cand = { WHO2(F_SPEC(STM_S_COMMAND), FED), WHO(F_HAS_LF) },
		.value = { 15 } },
	[STM_C_UNDER_SIEGE] = { .nper = 1, .per = {
		{ WHO(F_NONFED), 6 } } },
	[STM_C_IMMINENT_DESTRUCTION] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_ENGINEER)), 8 } } },
	[STM_C_INTRUDER_ALERT] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_SECURITY | STM_S_WEAPON)), 12 } },
		.blanked_unless = 1, .lift = WHO(F_NONFED) },
	[STM_C_CIVIL_WAR] = { .nper = 1, .per = {
		{ WHO(F_LF(STM_L_KLINGON | STM_L_ROMULAN) | F_AFF(STM_A_KE) |
		    F_AFF(STM_A_RSE)), 8 } } },
	[STM_C_LANGUAGE_BARRIER] = { .nper = 1, .per = {
		{ { .term = { { F_LF(STM_L_BETAZOID | STM_L_VULCAN), 0, 0 } },
		    .named = { STM_C_COMPUTER, STM_C_TRICORDER }, .nnamed = 2 },
		    8 } } },
	[STM_C_PERSONNEL_ISSUES] = { .special = SP_ROLES, .ncand = 2,
		.cand = { WHO(PERSONNEL),
		{ .term = { { F_SPEC(STM_S_COUNSELOR), 0, 0 },
		    { CAPTAIN, FED, 0 } } } },
		.value = { 14 } },
	[STM_C_MYSTERIOUS_PLAGUE] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_MEDICAL)), 5 } },
		.special = SP_PLAGUE },
	[STM_C_MEDDLESOME_Q] = { .special = SP_NONE },
	[STM_C_BLOSSOMING_ROMANCE] = { .nper = 1, .per = {
		{ { .term = { { F_SPEC(STM_S_COUNSELOR) |
		    F_LF(STM_L_BETAZOID), 0, 0 } },
		    .named = { STM_C_QUARTERS }, .nnamed = 1 }, 6 } },
		.special = SP_COUNT, .ncand = 1, .cand = { WHO(CHAR_TYPES) },
		.value = { 0, 8 }, .also_from = STM_SCORE_V2 },
	[STM_C_SCIENTIFIC_PUZZLE] = { .nper = 1, .per = {
		{ WHO(ARTIFACT | F_SPEC(STM_S_COSMIC | STM_S_SCIENCE)), 6 } } },
	[STM_C_SPACE_CONFRONTATION] = { .nper = 1, .per = {
		{ WHO(F_SPEC(STM_S_COMMAND | STM_S_COMBAT)), 6 } },
		.blanked_unless = 1, .lift = { .term = {
		{ CAPTAIN, F_NONFED, 0 }, { ENTITY, 0, 0 } } },
		.lifter_unpaid = 1 },
	[STM_C_LURE_OF_PROFIT] = { .nper = 1, .per = {
		{ WHO(F_AFF(STM_A_FA) | ARTIFACT |
		    F_SPEC(STM_S_ARCHAEOLOGIST)), 7 } } },
	[STM_C_TIME_DISTORTION] = { .nper = 1, .per = {
		{ { .term = { { F_SPEC(STM_S_COSMIC), 0, 0 } },
		    .named = { STM_C_TEN_FORWARD }, .nnamed = 1 }, 10 } } },
	[STM_C_TRAPPED_HOLODECK] = { .special = SP_ROLES, .ncand = 2,
		.cand = { NAMED2(STM_C_HOLODECK_1, STM_C_HOLODECK_2),
		WHO2(PERSONNEL | CAPTAIN, FED) }, .value = { 15 } },
};

/* What giver g pays through the per clauses (their masks in per[]). */
static int
per_value(const struct rule *r, const unsigned *per, int g)
{
	int i;

	for (i = 0; i < r->nper; i++)
		if (per[i] & (1u << g))
			return r->per[i].value;
	return 0;
}

/* SP_WITH: the best gain of giving the slot to one giver. */
static int
with_gain(const struct scene *s, const struct rule *r, const unsigned *per,
    unsigned givers)
{
	unsigned m;
	int i, g, gain, best = 0;

	for (i = 0; i < r->ncand; i++) {
		m = pred_mask(s, &r->cand[i]) & givers;
		for (; m != 0; m &= m - 1) {
			g = __builtin_ctz(m);
			gain = r->value[i] - per_value(r, per, g);
			if (gain > best)
				best = gain;
		}
	}
	return best;
}

/* The number of givers meeting cand[0], and in *c1 <= *c2 what the two
 * that would pay least through per clauses pay (1 << 20 if missing). */
static int
cheapest_two(const struct scene *s, const struct rule *r, const unsigned *per,
    unsigned givers, int *c1, int *c2)
{
	unsigned m;
	int g, v, n = 0;

	*c1 = *c2 = 1 << 20;
	m = pred_mask(s, &r->cand[0]) & givers;
	for (; m != 0; m &= m - 1) {
		g = __builtin_ctz(m);
		v = per_value(r, per, g);
		if (v < *c1) {
			*c2 = *c1;
			*c1 = v;
		} else if (v < *c2)
			*c2 = v;
		n++;
	}
	return n;
}

/* SP_COUNT: the best gain of giving the threshold one or two givers,
 * the ones that would pay least through per clauses. */
static int
count_gain(const struct scene *s, const struct rule *r, const unsigned *per,
    unsigned givers)
{
	int c1, c2, n, best = 0;

	n = cheapest_two(s, r, per, givers, &c1, &c2);
	if (n >= 1 && r->value[0] - c1 > best)
		best = r->value[0] - c1;
	if (n >= 2 && r->value[1] - c1 - c2 > best)
		best = r->value[1] - c1 - c2;
	return best;
}

/* SP_COUNT read "also" (also_from): the per clauses pay only together
 * with the top tier, which takes two givers of its own, the two that
 * would pay least through per clauses.  Returns what the card scores,
 * given what the per clauses would pay (per_total): 0 without the two. */
static int
count_also(const struct scene *s, const struct rule *r, const unsigned *per,
    unsigned givers, int per_total)
{
	int c1, c2;

	if (cheapest_two(s, r, per, givers, &c1, &c2) < 2)
		return 0;
	return per_total - c1 - c2 + r->value[1];
}

/* SP_ETHICAL: a FED card with Command, and two further cards with a
 * lifeform showing specialties that differ from each other.  Ruleset
 * version 1 read it as three different specialties: the leader showing
 * Command, the two others two other ones. */
static int
ethical_met(const struct scene *s, const struct rule *r, unsigned givers)
{
	unsigned leaders, others, m, banned;
	int a;

	banned = s->h->version < STM_SCORE_V2 ? STM_S_COMMAND : 0;

	leaders = pred_mask(s, &r->cand[0]) & givers;
	others = pred_mask(s, &r->cand[1]) & givers;
	for (m = leaders; m != 0; m &= m - 1) {
		a = __builtin_ctz(m);
		if (stm_distinct_values(s, others & ~(1u << a), DIM_SPEC,
		    banned, 2) == 2)
			return 1;
	}
	return 0;
}

/* SP_SHARED_AFF: do two qualifying givers share an affiliation? */
static int
shared_affiliation(const struct scene *s, const struct rule *r,
    unsigned givers)
{
	unsigned m;
	int a;

	m = pred_mask(s, &r->cand[0]) & givers;
	for (a = 0; a < 5; a++)
		if (bit_count(m & s->pm[FB_AFF + a]) >= 2)
			return 1;
	return 0;
}

/* SP_PLAGUE: the lifeform (bit index) that adds most to the 5 per
 * Medical card already counted in per[0]; its gain in *gain. */
static int
plague_choice(const struct scene *s, unsigned medical, unsigned givers,
    int *gain)
{
	unsigned with;
	int lf, v, best = -1, best_lf = 0;

	for (lf = 0; lf < STM_NLIFEFORMS; lf++) {
		if ((1u << lf) & (STM_L_HOLOGRAM | STM_L_ANDROID))
			continue;
		with = s->pm[FB_LF + lf] & givers;
		if ((1u << lf) == STM_L_HUMAN)
			v = 5 * bit_count(with & ~medical);
		else
			v = 8 * bit_count(with & ~medical) +
			    3 * bit_count(with & medical);
		if (v > best) {
			best = v;
			best_lf = lf;
		}
	}
	*gain = best;
	return best_lf;
}

/*
 * The best score of `card` from the cards in `givers` (active, not
 * itself).  SP_COPY and SP_THOUGHT are left to stm_evaluate().
 */
int
stm_score_card(const struct scene *s, int card, unsigned givers, int *plague_lf)
{
	const struct rule *r = &stm_score_rules[card];
	unsigned per[2], paid = 0, role[3], lifters;
	int i, g, gain, total = 0, cheapest;

	for (i = 0; i < r->nper; i++) {
		per[i] = pred_mask(s, &r->per[i].who) & givers & ~paid;
		total += r->per[i].value * bit_count(per[i]);
		paid |= per[i];
	}
	/* The table's shape, as the specials below rely on it. */
	assert(r->nper < 2 || r->per[0].value >= r->per[1].value);
	assert(r->special != SP_DISTINCT || r->nper == 0 ||
	    r->per[0].value == r->value[0]);
	switch (r->special) {
	case SP_WITH:
		total += with_gain(s, r, per, givers);
		break;
	case SP_COUNT:
		if (r->also_from != 0 && s->h->version >= r->also_from)
			total = count_also(s, r, per, givers, total);
		else
			total += count_gain(s, r, per, givers);
		break;
	case SP_DISTINCT:
		/* Per clauses pay the same as a match, so a giver that pays
		 * through them leaves the values to the others. */
		total += r->value[0] * stm_distinct_values(s,
		    pred_mask(s, &r->cand[0]) & givers & ~paid, r->dim, 0,
		    STM_HAND_MAX);
		break;
	case SP_DISTINCT_NEED:
		if (stm_distinct_values(s, pred_mask(s, &r->cand[0]) & givers,
		    r->dim, 0, r->need) >= r->need)
			total += r->value[0];
		break;
	case SP_ROLES:
		for (i = 0; i < r->ncand; i++)
			role[i] = pred_mask(s, &r->cand[i]) & givers;
		if (stm_roles_filled(role, r->ncand))
			total += r->value[0];
		break;
	case SP_ETHICAL:
		if (ethical_met(s, r, givers))
			total += r->value[0];
		break;
	case SP_SHARED_AFF:
		if (shared_affiliation(s, r, givers))
			total += r->value[0];
		break;
	case SP_PLAGUE:
		*plague_lf = plague_choice(s, paid, givers, &gain);
		total += gain;
		break;
	default:
		break;
	}
	if (r->lifter_unpaid) {
		/* Only called when active, so a lifter exists. */
		cheapest = 1 << 20;
		lifters = pred_mask(s, &r->lift) & givers;
		for (; lifters != 0; lifters &= lifters - 1) {
			g = __builtin_ctz(lifters);
			if (per_value(r, per, g) < cheapest)
				cheapest = per_value(r, per, g);
		}
		if (cheapest < (1 << 20))
			total -= cheapest;
	}
	return total;
}

