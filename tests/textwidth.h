/*
 * textwidth.h -- the 78-column check of the text views, shared by
 * check_text_width (every game) and check_captains_text (Captain's
 * Chair, phase by phase).
 *
 * textwidth_render() renders one text template of a game in memory as
 * the engine would for one reader -- the view with a deadline for each
 * seat to act (the first one late), the players' names, a named time
 * zone, the move forms and legal moves of a seat -- and fails the
 * running test when the text or the mail made from it (mail_wrap())
 * has a line wider than TEXT_COLUMNS characters (not bytes), a line
 * that begins with a French "»", ";", ":", "!" or "?" left alone by a
 * wrap, an unrendered "{{", or an example move twice.
 */
#ifndef PBEM_TEXTWIDTH_H
#define PBEM_TEXTWIDTH_H

#include "rules.h"
#include "templates.h"

#define TEXT_COLUMNS	78

/* One reader's page of a game in memory. */
struct textwidth_page {
	struct tpl_set			*tpl;
	const struct rules_module	*m;
	const void			*state;
	int				 nseats;
	int				 seq;		/* entries so far */
	const char *const		*seat_names;	/* nseats of them */
	int				 viewer;	/* or RULES_VIEW_PUBLIC */
	int				 lang;		/* 0 English, 1 French */
	int				 hosted;	/* plays in plain words */
	const char			*name;		/* "your_turn", ... */
	const char			*move, *reason;	/* or NULL */
	const char			*what;		/* named in a failure */
};

void	textwidth_render(const struct textwidth_page *page);

#endif
