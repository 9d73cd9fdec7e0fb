/*
 * web_pick.h -- the move buttons of the seat page, and which cards each
 * involves (docs/WEB.md, "Building a move by clicking cards").
 *
 * web_move_buttons() makes the "moves" of the page: [{"text", "label"}]
 * for each legal move of seat.  "text" is the legal move text as
 * legal_moves() wrote it -- the one the form posts and play.js signs, so
 * the hosted and own-key paths play exactly the listed move -- and
 * "label" the same move for a person picking it: in the page's language,
 * cards by their names (web_text_in_lang(), as the last moves are shown).
 *
 * The seat page's data, after drawing.c filled in its "hand" and
 * "discard" and web_move_buttons() its "moves", is marked
 * for play.js: each card gets its "ref" (its id, else its name), each
 * move the "cards" it involves (refs joined by '|': a card's ref that is
 * a whole word of the move's text or label), and the page "can_pick"
 * when any move involves a card.  Reads nothing but data: the page
 * already shows all it reads.
 */
#ifndef PBEM_WEB_PICK_H
#define PBEM_WEB_PICK_H

#include <jansson.h>

#include "engine.h"

/* The buttons of legal (NULL: none) for seat of gs, in lang; a new
 * array. */
json_t	*web_move_buttons(const struct gamestate *gs, int seat,
	    const json_t *legal, enum rules_lang lang);
void	 web_pick_mark(json_t *data);

#endif /* PBEM_WEB_PICK_H */
