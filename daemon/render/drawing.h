/*
 * drawing.h -- the data the pictures of a game are drawn from: the web
 * page's SVG (templates/LANG/web/) and the HTML part of a seat's mail
 * (templates/LANG/mail/picture.html.mustache), both from a presented view
 * (present_view()) and nothing else.  The view is already cut to what
 * its viewer may see, so nothing drawn from it can show another seat's
 * hidden cards.
 */
#ifndef PBEM_DRAWING_H
#define PBEM_DRAWING_H

#include <jansson.h>

/*
 * Add to data what viewer (a seat, or RULES_VIEW_PUBLIC) is shown of the
 * presented view shown, for nseats seats whose players are names[]:
 *   players      [{"seat", "name", "you", "to_act", "score"?, "cards"?}]
 *   hand, has_hand          the viewer's own cards (a seat only)
 *   discard, has_discard    the discard area or pile
 *   route, route_width, route_start   Enterprise vs Excelsior's route
 *   board_svg, hexes        a hex board: the module's SVG drawing, and
 *                           [{"hex", "name", "data"?, "ships"}] for mail
 * Each card is {"lines": [{"text", "y"}], "name", "kind"?, "kind_text"?,
 * "note"?, "note_text"?}: its name, type line and bonus whole (the
 * *_text and "name") and as lines wrapped to fit the web page's SVG card
 * ("lines", "kind", "note": [{"text", "y"}]).  Reads only
 * shown; changes nothing else.
 */
void	draw_view_fill(json_t *data, const json_t *shown, int nseats,
	    const char *const *names, int viewer);

/*
 * Append text to lines (an array) as strings of at most width
 * characters (UTF-8 code points, width < 150), broken at spaces and
 * after hyphens; a word longer than width is cut.  For text templates.
 */
void	draw_wrap_lines(json_t *lines, const char *text, size_t width);

#endif /* PBEM_DRAWING_H */
