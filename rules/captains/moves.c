/*
 * moves.c -- the moves open to a seat now: every single step the engine
 * accepts (legal_moves, in English, each checked on a copy), and the
 * forms of move in words (move_forms).  Built from what the seat sees:
 * its hand, its table, the market and the Neutral Zone.
 */
#include <stdio.h>
#include <string.h>

#include "captains.h"
#include "solo.h"

#define MOVE_LEN 200

struct list {
	const struct cc_state	*s;
	int			 seat;
	json_t			*out;
};

static void
try_text(struct list *l, const char *text)
{
	char err[RULES_ERRLEN];
	size_t i;

	for (i = 0; i < json_array_size(l->out); i++)
		if (strcmp(json_string_value(json_array_get(l->out, i)),
		    text) == 0)
			return;
	if (cc_check_text(l->s, l->seat, text, RULES_LANG_EN, err,
	    sizeof(err)) == RULES_OK)
		json_array_append_new(l->out, json_string(text));
}

static void
add_kinds(int *kinds, int *n, const struct cc_pile *p)
{
	for (int i = 0; i < p->n; i++) {
		int j;
		for (j = 0; j < *n && kinds[j] != p->card[i]; j++)
			;
		if (j == *n && *n < CC_KINDS_MAX)
			kinds[(*n)++] = p->card[i];
	}
}

static void
add_zone_kinds(int *kinds, int *n, const struct cc_seat *p, int from)
{
	for (int z = from; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n; i++) {
			struct cc_pile one = { 1, { p->zone[z].s[i].card } };
			add_kinds(kinds, n, &one);
		}
}

static const char *const deck_words[CC_MARKET_SUITS] = {
	"person", "cargo", "ship", "ally"
};

/* The names the step "VERB CARD N" may aim at, for its target kind. */
static void
with_targets(struct list *l, const char *head, const struct cc_op *op)
{
	const struct cc_state *s = l->s;
	const struct cc_seat *p = &s->seat[l->seat];
	char text[MOVE_LEN * 2];
	int kinds[CC_KINDS_MAX], n = 0;
	enum cc_target t = CC_T_NONE;
	const struct cc_effect *e = NULL;

	for (int i = 0; i < op->neffects && !op->attack; i++)
		if (cc_keyword_target(&op->effect[i]) != CC_T_NONE) {
			e = &op->effect[i];
			t = cc_keyword_target(e);
		}
	switch (t) {
	case CC_T_NONE:
		try_text(l, head);
		if (cc_op_gains_card(op)) {
			snprintf(text, sizeof(text), "%s to deck", head);
			try_text(l, text);
		}
		return;
	case CC_T_DECK:		/* scan: the deck, when it lists several */
		try_text(l, head);
		for (int k = 0; k < CC_MARKET_SUITS; k++)
			if (e->suits & (1 << k)) {
				snprintf(text, sizeof(text), "%s on deck %s",
				    head, deck_words[k]);
				try_text(l, text);
			}
		return;
	case CC_T_JUNK: add_kinds(kinds, &n, &s->junk); break;
	case CC_T_HAND: add_kinds(kinds, &n, &p->hand); break;
	case CC_T_DISCARD: add_kinds(kinds, &n, &p->discard); break;
	case CC_T_DEVELOPMENT: add_kinds(kinds, &n, &p->development); break;
	case CC_T_INPLAY: add_zone_kinds(kinds, &n, p, CC_Z_DUTY); break;
	case CC_T_LOCATION: add_zone_kinds(kinds, &n, p, CC_Z_LOCATIONS);
		break;
	case CC_T_NAME:
		add_kinds(kinds, &n, &p->discard);
		add_kinds(kinds, &n, &p->deck);
		add_kinds(kinds, &n, &p->reserve);
		break;
	case CC_T_NEUTRAL:
		for (int k = 0; k < CC_NEUTRAL; k++)
			if (s->neutral[k] >= 0)
				kinds[n++] = s->neutral[k];
		break;
	case CC_T_OFFER:
		for (int k = 0; k < CC_MARKET_SUITS; k++)
			if (s->offer[k] >= 0)
				kinds[n++] = s->offer[k];
		if (e->keyword == KW_GAIN_CARD) {
			for (int k = 0; k < CC_MARKET_SUITS; k++)
				if (e->suits & (1 << k)) {
					snprintf(text, sizeof(text),
					    "%s on deck %s", head,
					    deck_words[k]);
					try_text(l, text);
					snprintf(text, sizeof(text),
					    "%s on deck %s to deck", head,
					    deck_words[k]);
					try_text(l, text);
				}
		}
		break;
	}
	for (int i = 1; i < n; i++)	/* in set order: never a pile's */
		for (int j = i; j > 0 && kinds[j - 1] > kinds[j]; j--) {
			int swap = kinds[j];
			kinds[j] = kinds[j - 1];
			kinds[j - 1] = swap;
		}
	for (int i = 0; i < n; i++) {
		snprintf(text, sizeof(text), "%s on %s", head,
		    s->set->card[kinds[i]].name);
		try_text(l, text);
		if (e->keyword == KW_GAIN_CARD || e->keyword == KW_SCAN) {
			snprintf(text, sizeof(text), "%s on %s to deck", head,
			    s->set->card[kinds[i]].name);
			try_text(l, text);
		}
	}
}

/* Every operation of kind on card, as "VERB NAME [N]" with targets. */
static void
each_op(struct list *l, const char *verb, int card, enum cc_opkind kind)
{
	const struct cc_card *k = &l->s->set->card[card];
	char head[MOVE_LEN];
	int count = 0, n = 0;

	for (int o = 0; o < k->nops; o++)
		count += k->op[o].kind == kind;
	for (int o = 0; o < k->nops; o++) {
		if (k->op[o].kind != kind)
			continue;
		n++;
		if (count > 1)
			snprintf(head, sizeof(head), "%s %s %d", verb, k->name,
			    n);
		else
			snprintf(head, sizeof(head), "%s %s", verb, k->name);
		with_targets(l, head, &k->op[o]);
	}
}

json_t *
cc_legal_moves(const struct cc_state *s, int seat)
{
	struct list l = { s, seat, json_array() };
	const struct cc_seat *p;
	int kinds[CC_KINDS_MAX], n = 0;
	char text[MOVE_LEN];

	if (s->over || seat != (s->pending ? 1 - s->active : s->active))
		return l.out;
	if (cc_is_bot(s, seat)) {
		try_text(&l, "bot");
		return l.out;
	}
	p = &s->seat[seat];
	if (s->scan_suit >= 0) {	/* a scan waits for its pick */
		add_kinds(kinds, &n, &s->scan);
		if (s->offer[s->scan_suit] >= 0 && n < CC_KINDS_MAX)
			kinds[n++] = s->offer[s->scan_suit];
		for (int i = 0; i < n; i++) {
			snprintf(text, sizeof(text), "pick %s",
			    s->set->card[kinds[i]].name);
			try_text(&l, text);
			snprintf(text, sizeof(text), "pick %s to deck",
			    s->set->card[kinds[i]].name);
			try_text(&l, text);
		}
		return l.out;
	}
	if (s->pending) {
		try_text(&l, "pass");
		add_zone_kinds(kinds, &n, p, CC_Z_CAPTAIN);
		for (int i = 0; i < n; i++)
			each_op(&l, "react", kinds[i], CC_REACTION);
		n = 0;
		add_kinds(kinds, &n, &p->hand);
		for (int i = 0; i < n; i++) {
			snprintf(text, sizeof(text), "discard %s",
			    s->set->card[kinds[i]].name);
			try_text(&l, text);
		}
		return l.out;
	}
	for (int k = 0; k < CC_NEUTRAL; k++)
		if (s->neutral[k] >= 0) {
			snprintf(text, sizeof(text), "control %s",
			    s->set->card[s->neutral[k]].name);
			try_text(&l, text);
		}
	add_kinds(kinds, &n, &p->hand);
	for (int i = 0; i < n; i++)
		each_op(&l, "play", kinds[i], CC_PLAY);
	n = 0;
	add_zone_kinds(kinds, &n, p, CC_Z_CAPTAIN);
	for (int i = 0; i < n; i++)
		each_op(&l, "activate", kinds[i], CC_ACTIVATION);
	try_text(&l, "end");
	n = 0;
	add_kinds(kinds, &n, &p->hand);
	for (int i = 0; i < n; i++) {	/* 4.4: a hand card discarded */
		snprintf(text, sizeof(text), "end discard %s",
		    s->set->card[kinds[i]].name);
		try_text(&l, text);
	}
	for (int k = 0; k < CC_MARKET_SUITS; k++)
		if (s->offer[k] >= 0) {
			snprintf(text, sizeof(text), "end %s",
			    s->set->card[s->offer[k]].name);
			try_text(&l, text);
			snprintf(text, sizeof(text), "wipe %s",
			    s->set->card[s->offer[k]].name);
			if (s->mode == CC_MODE_CADET)
				try_text(&l, text);
		}
	return l.out;
}

json_t *
cc_move_forms(const struct cc_state *s, int seat, enum rules_lang lang)
{
	json_t *a = json_array();
	int fr = lang == RULES_LANG_FR;

	if (s->over || seat != (s->pending ? 1 - s->active : s->active))
		return a;
	if (cc_is_bot(s, seat)) {
		json_array_append_new(a, json_string(fr ? "robot (le tour "
		    "entier du Bot)" : "bot (the Bot's whole turn)"));
		return a;
	}
	if (s->mode == CC_MODE_CADET)
		json_array_append_new(a, json_string(fr ?
		    "effacer <offre du Marché que le nettoyage efface>" :
		    "wipe <market offer the clean-up wipes>"));
	if (s->pending) {
		json_array_append_new(a, json_string(fr ?
		    "passer (les défausses forcées prennent vos premières "
		    "cartes)" : "pass (forced discards take your first "
		    "cards)"));
		json_array_append_new(a, json_string(fr ?
		    "réagir <carte de votre table>" :
		    "react <card on your table>"));
		json_array_append_new(a, json_string(fr ?
		    "défausser <carte de votre main>" :
		    "discard <card in your hand>"));
		return a;
	}
	if (s->scan_suit >= 0) {
		json_array_append_new(a, json_string(fr ?
		    "choisir <carte scannée, ou l'offre de sa catégorie> "
		    "[vers pioche]" : "pick <card you scanned, or the offer "
		    "of its suit> [to deck]"));
		return a;
	}
	if (s->phase == CC_PH_CONTROL && !s->controlled_this_turn)
		json_array_append_new(a, json_string(fr ?
		    "contrôler <lieu sécurisé de la Zone Neutre>" :
		    "control <secured Neutral Zone location>"));
	json_array_append_new(a, json_string(fr ?
	    "jouer <carte de votre main> [N] [sur <cible>]" :
	    "play <card in your hand> [N] [on <target>]"));
	json_array_append_new(a, json_string(fr ?
	    "activer <carte de votre table> [N] [sur <cible>]" :
	    "activate <card on your table> [N] [on <target>]"));
	json_array_append_new(a, json_string(fr ?
	    "fin [<offre où poser la gloire>] [défausser <carte>, <carte>...]" :
	    "end [<offer to put the glory on>] [discard <card>, <card>...]"));
	json_array_append_new(a, json_string(fr ?
	    "... vers pioche : la carte gagnée va sur votre pioche, pas en "
	    "défausse" :
	    "... to deck: the gained card goes onto your deck, not into "
	    "your discard"));
	json_array_append_new(a, json_string(fr ?
	    "plusieurs étapes : séparez-les par « ; »" :
	    "several steps: separate them with ';'"));
	return a;
}
