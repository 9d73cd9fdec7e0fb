/*
 * testcards.h -- the card sets of the generic tests (docs/CARDFILES.md).
 *
 * Tests that walk rules_all() set every game up through
 * rules_setup_game() and load it through rules_load_game(); a card
 * module's set is then its own card file, read from the source tree
 * ($top_srcdir/rules/GAME/cards.yaml; top_srcdir comes from the test
 * environment, else the build's source folder, else ".").  Each set is
 * parsed once and kept until the program exits.  A set that does not
 * read or parse fails the test (abort with the module's message): the
 * generic tests never skip a game.  Needs only rules.h.
 */
#ifndef PBEM_TESTCARDS_H
#define PBEM_TESTCARDS_H

#include "rules.h"

/* m's own card set, or NULL for a game without cards. */
const void *testcards_default(const struct rules_module *m);
/* rules_setup_game() of the newest version with m's own set. */
void	*testcards_setup(const struct rules_module *m, int nseats,
	    const json_t *options, struct rules_rng *rng, char *err,
	    size_t errlen);
/* rules_load_game() with m's own set. */
void	*testcards_load(const struct rules_module *m, const json_t *saved,
	    char *err, size_t errlen);

#endif /* PBEM_TESTCARDS_H */
