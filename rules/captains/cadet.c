/*
 * cadet.c -- cadet training (seed lines 317-356): the clean-up's wipe of
 * one market card of the player's choice, the cadet score's ranks, and
 * the view's word on the mode (the Bot's difficulty, or the cadet score).
 */
#include <stdio.h>

#include "solo.h"

/* "wipe CARD": the market offer the clean-up will wipe (line 340).  The
 * wipe itself comes with `end`, so no step ever follows a card the
 * player has not seen. */
int
cc_cadet_wipe(struct cc_ctx *c, int seat, int card)
{
	struct cc_state *s = c->s;

	(void)seat;
	if (s->mode != CC_MODE_CADET)
		return cc_refuse(c, "wipe is a step of cadet training only",
		    "effacer est une étape de l'entraînement des cadets "
		    "seulement");
	for (int k = 0; k < CC_MARKET_SUITS; k++)
		if (card >= 0 && s->offer[k] == card) {
			s->cadet_wiped = card + 1;
			cc_note(s, "chose the market card to wipe",
			    "a choisi la carte du Marché à effacer");
			return 0;
		}
	return cc_refuse(c, "%s is not a market offer to wipe",
	    "%s n'est pas une offre du Marché à effacer",
	    card >= 0 ? cc_name(s, card, c->lang) : "?");
}

/* The market slot the clean-up wipes: the card named by "wipe" if it is
 * still offered, else the first offer; -1 if the market is empty. */
int
cc_cadet_wiped_slot(const struct cc_state *s)
{
	int k = -1;

	for (int i = 0; i < CC_MARKET_SUITS; i++)
		if (s->offer[i] >= 0 && s->offer[i] == s->cadet_wiped - 1)
			return i;
	for (int i = 0; k < 0 && i < CC_MARKET_SUITS; i++)
		if (s->offer[i] >= 0)
			k = i;
	return k;
}

/* Line 340: that offer and its tokens to the Junk, replaced from its
 * deck. */
void
cc_cadet_cleanup(struct cc_state *s)
{
	int k = cc_cadet_wiped_slot(s);

	s->cadet_wiped = 0;
	if (k < 0)
		return;
	s->glory_returned += s->offer_glory[k];
	pile_push(&s->junk, s->offer[k]);
	cc_refill_offer(s, k);
}

/* Lines 350-354. */
const char *
cc_cadet_rank(int score, enum rules_lang lang)
{
	int fr = lang == RULES_LANG_FR;

	if (score >= 120)
		return fr ? "vous êtes phénoménal !" : "you are phenomenal!";
	if (score >= 100)
		return fr ? "vous maîtrisez les règles avec l'équipage choisi" :
		    "you master the rules with the chosen deck";
	if (score >= 70)
		return fr ? "vous savez jouer à Star Trek Captain's Chair" :
		    "you know how to play Star Trek Captain's Chair";
	return "";
}

json_t *
cc_solo_view(const struct cc_state *s)
{
	if (s->mode == CC_MODE_CADET) {
		int score = cc_score(s, 0, NULL);
		return json_pack("{s:s,s:b,s:i,s:s,s:s,s:b}", "mode", "cadet",
		    "cadet", 1, "score", score, "rank_en", cc_cadet_rank(score,
		    RULES_LANG_EN), "rank_fr", cc_cadet_rank(score,
		    RULES_LANG_FR), "lost_to_burn", s->burn);
	}
	if (s->mode == CC_MODE_BOT)
		return json_pack("{s:s,s:b,s:i,s:s,s:s,s:i,s:i}", "mode", "bot",
		    "bot", 1, "bot_seat", s->bot_seat, "level_en",
		    cc_level_name(s->level, RULES_LANG_EN), "level_fr",
		    cc_level_name(s->level, RULES_LANG_FR), "bot_deck_count",
		    s->seat[s->bot_seat].deck.n, "supplement_count",
		    s->seat[s->bot_seat].reserve.n);
	return NULL;
}
