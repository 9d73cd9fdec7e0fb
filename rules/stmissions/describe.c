/*
 * describe.c -- describe_last (rules.h, api_version 5): the last move of
 * a Star Trek: Missions game in one public phrase, for the summaries of
 * events and webhooks.
 *
 * It says what the table saw, as the table view's "Last move" line does
 * (templates/<lang>/stmissions/table.txt.mustache): a card taken from
 * the discard area and every discarded card by name, since they lie face
 * up; cards drawn from a deck only by their number, since they are drawn
 * face down.
 */
#include <stdio.h>
#include <string.h>

#include "stmissions.h"

/* Append to out (size outlen, used bytes *used); -1 once it is full. */
static int
add(char *out, size_t outlen, size_t *used, const char *fmt, const char *a,
    int n)
{
	int w;

	if (*used >= outlen)
		return -1;
	w = a != NULL ? snprintf(out + *used, outlen - *used, fmt, a) :
	    snprintf(out + *used, outlen - *used, fmt, n);
	if (w < 0 || (size_t)w >= outlen - *used)
		return -1;
	*used += (size_t)w;
	return 0;
}

static const char *
card_name(int card, int fr)
{
	return fr ? stm_cards[card].name_fr : stm_cards[card].name_en;
}

enum rules_status
stm_describe_last(const void *state, int seat, const char *const *names,
    enum rules_lang lang, char *out, size_t outlen)
{
	const struct stm_state *st = state;
	const struct stm_last *l = &st->last;
	int fr = lang == RULES_LANG_FR, i, rc = 0;
	size_t used = 0;

	if (l->seat < 0 || l->seat != seat || outlen == 0)
		return RULES_ILLEGAL;
	out[0] = '\0';
	rc |= add(out, outlen, &used, "%s ", names[seat], 0);
	switch (l->action) {
	case STM_ACT_TAKE:
		rc |= add(out, outlen, &used, fr ? "a pris %s dans la "
		    "défausse" : "took %s from the discard area",
		    card_name(l->taken, fr), 0);
		break;
	case STM_ACT_GALAXY:
		rc |= add(out, outlen, &used, fr ? "a pioché une carte "
		    "Galaxie" : "drew a Galaxy card", "", 0);
		break;
	case STM_ACT_MISSIONS:
		rc |= add(out, outlen, &used, fr ? "a pioché %d cartes "
		    "Mission" : "drew %d Mission cards", NULL,
		    l->drew_mission);
		break;
	case STM_ACT_Q:
		rc |= add(out, outlen, &used, fr ? "a fait la pioche finale "
		    "de Q l'importun" : "made Meddlesome Q's final draw", "",
		    0);
		if (l->taken >= 0)
			rc |= add(out, outlen, &used, fr ? ", en prenant %s" :
			    ", taking %s", card_name(l->taken, fr), 0);
		break;
	default:
		rc |= add(out, outlen, &used, fr ? "a fini son tour" :
		    "finished the turn", "", 0);
		break;
	}
	for (i = 0; i < l->ndiscard; i++)
		rc |= add(out, outlen, &used, i == 0 ? (fr ? ", a défaussé %s" :
		    ", discarded %s") : ", %s", card_name(l->discard[i], fr),
		    0);
	if (!l->complete)
		rc |= add(out, outlen, &used, fr ? " (défausse à venir)" :
		    " (discard to come)", "", 0);
	return rc == 0 ? RULES_OK : RULES_ILLEGAL;
}
