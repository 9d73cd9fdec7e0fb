/*
 * web_pick.h -- which cards of the seat page each move button involves
 * (docs/WEB.md, "Building a move by clicking cards").
 *
 * The seat page's data, after drawing.c filled in its "hand" and
 * "discard" and web_seat.c its "moves" ({"text", "label"}), is marked
 * for play.js: each card gets its "ref" (its id, else its name), each
 * move the "cards" it involves (refs joined by '|': a card's ref that is
 * a whole word of the move's text or label), and the page "can_pick"
 * when any move involves a card.  Reads nothing but data: the page
 * already shows all it reads.
 */
#ifndef PBEM_WEB_PICK_H
#define PBEM_WEB_PICK_H

#include <jansson.h>

void	web_pick_mark(json_t *data);

#endif /* PBEM_WEB_PICK_H */
