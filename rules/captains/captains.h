/*
 * captains.h -- Star Trek: Captain's Chair for two players, the module's
 * parts behind rules/rules.h: the move reader (parse.c) and writer
 * (translate.c), the views and move lists (view.c, moves.c) and the
 * module table (captains.c).
 */
#ifndef CAPTAINS_CAPTAINS_H
#define CAPTAINS_CAPTAINS_H

#include "state.h"

extern const struct rules_module captains_module;

/* parse.c */
int		cc_card_by_name(const struct cc_set *set, const char *text);
enum rules_status cc_parse(const struct cc_set *set, const char *text,
		    enum rules_lang lang, json_t **move, char *err,
		    size_t errlen);
/* The refusal err of a message's step-th step (from 1) as "step 2: ..."
 * / "étape 2 : ...", in place. */
void		cc_step_refusal(char *err, size_t errlen, enum rules_lang lang,
		    size_t step);

/* translate.c: text (English, as legal_moves() lists it) written with
 * lang's move words and card names, reading back to the same steps. */
enum rules_status cc_translate(const struct cc_set *set, const char *text,
		    enum rules_lang lang, char *out, size_t outlen);

/* check on a copy: RULES_OK or the refusal. */
enum rules_status cc_check_text(const struct cc_state *s, int seat,
		    const char *text, enum rules_lang lang, char *err,
		    size_t errlen);

/* view.c */
json_t	       *cc_view(const struct cc_state *s, int viewer);
json_t	       *cc_card_json(const struct cc_state *s, int card);

/* moves.c */
json_t	       *cc_legal_moves(const struct cc_state *s, int seat);
json_t	       *cc_move_forms(const struct cc_state *s, int seat,
		    enum rules_lang lang);

#endif
