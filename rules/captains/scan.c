/*
 * scan.c -- SCAN # OF SUIT (seed lines 185, 545-547): look at the top #
 * cards of a market deck (of the suit the step names when the effect
 * lists several), then pick one of them or that suit's face-up offer;
 * it goes onto the deck or into the discard ("to deck"), the others go
 * back under their deck.  The scanned cards wait in the state, seen by
 * the scanning seat alone, until its pick, which comes in a later
 * message (the scan brought cards it had not seen).
 */
#include <stdio.h>
#include <string.h>

#include "resolve.h"

int
cc_scan(struct cc_ctx *c, int seat, const struct cc_effect *e,
    const struct cc_aim *aim)
{
	struct cc_state *s = c->s;
	int k = aim != NULL && aim->deck >= 0 ? aim->deck : -1;

	(void)seat;	/* always the active seat: PLAY or ACTIVATION */
	if (k < 0) {
		for (int i = 0; i < CC_MARKET_SUITS; i++)
			if (e->suits == (1 << i))
				k = i;
		if (k < 0)
			return cc_refuse(c, "name the deck to scan: \"on deck "
			    "SUIT\"", "nommez la pioche à scanner : « sur "
			    "pioche CATÉGORIE »");
	}
	if (!(e->suits & (1 << k)))
		return cc_refuse(c, "this effect does not scan that deck",
		    "cet effet ne scanne pas cette pioche");
	/* fewer cards than # in the deck: as many as there are (line 547) */
	for (int i = 0; i < e->amount && i < CC_SCAN_MAX &&
	    s->market[k].n > 0; i++)
		pile_push(&s->scan, pile_pop(&s->market[k]));
	if (s->scan.n == 0 && s->offer[k] < 0)
		return 0;	/* nothing to look at, nothing to pick */
	s->scan_suit = k;
	s->unseen = 1;
	return 0;
}

int
cc_pick(struct cc_ctx *c, int seat, int card, const struct cc_aim *aim)
{
	struct cc_state *s = c->s;
	int k = s->scan_suit, at = pile_find(&s->scan, card), offer = 0;

	if (k < 0)
		return cc_refuse(c, "no scan waits for a pick",
		    "aucun scan n'attend de choix");
	/* a scanned card of the offer's kind: the face-up one is taken, as
	 * its tokens come with it */
	if (card >= 0 && s->offer[k] == card) {
		offer = 1;
		s->seat[seat].res[CC_GLORY] += s->offer_glory[k];
		s->offer_glory[k] = 0;
		s->offer[k] = -1;
	} else if (at >= 0)
		pile_remove_at(&s->scan, at);
	else
		return cc_refuse(c, "%s is neither a card you scanned nor the "
		    "%s offer", "%s n'est ni une carte scannée ni l'offre %s",
		    card >= 0 ? cc_name(s, card, c->lang) : "?",
		    c->lang == RULES_LANG_FR ? cc_suit_name_fr((enum cc_suit)k) :
		    cc_suit_name((enum cc_suit)k));
	/* the others go under their deck (reading: the seed lets the
	 * player order them, line 546; here the last seen goes lowest) */
	while (s->scan.n > 0)
		pile_insert_bottom(&s->market[k], pile_pop(&s->scan));
	if (offer)
		cc_refill_offer(s, k);
	s->scan_suit = -1;
	if (aim->to_deck && !offer)
		cc_say(s, "put a scanned card onto the deck", "a mis une carte "
		    "scannée sur sa pioche", NULL, NULL);
	else
		cc_say(s, "gained ", "a gagné ", s->set->card[card].name,
		    s->set->card[card].name_fr);
	cc_gained(c, seat, card, aim);
	return 0;
}
