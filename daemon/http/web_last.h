/*
 * web_last.h -- the "Last moves" list of the seat and public pages
 * (docs/WEB.md), and a move text in the page's language.
 *
 * Every reader sees who moved and, for another seat's move, the log's
 * one-line public summary of it (engine/summary.c, the summaries table)
 * in the reader's language; the move's own text only for the reader's
 * own moves, and for all once the game is over -- as the public log,
 * which withholds move texts until the end (docs/LOG.md).  Nothing here
 * reads a hidden card: a summary is worded from the public view.
 */
#ifndef PBEM_WEB_LAST_H
#define PBEM_WEB_LAST_H

#include <jansson.h>

#include "engine.h"

/* The last moves before gs's present, newest first: [{"seq", "name",
 * "text"?, "summary"?}], or NULL when there is none.  viewer: the
 * reader's seat, or RULES_VIEW_PUBLIC; names: each seat's player; over:
 * the game has ended. */
json_t	*web_last_moves(struct store *st, const struct gamestate *gs,
	    int viewer, const char *const *names, int over,
	    enum rules_lang lang);
/* Put moves (taken; NULL: nothing) into a page's data as "last_moves",
 * with "has_last". */
void	 web_add_last_moves(json_t *data, json_t *moves);
/* A move text of seat as a page in lang shows it, cards by their names
 * (rules_move_label(): the module's move_label(), else translate(), else
 * the text as it is); out holds the label. */
const char *web_text_in_lang(const struct gamestate *gs, int seat,
	    const char *text, enum rules_lang lang, char *out, size_t outlen);

#endif /* PBEM_WEB_LAST_H */
