/*
 * gametx.h -- the write transaction of a seat or game-master command
 * (seats.c, gamemaster.c): open it on a running game, then finish it.
 *
 * engine_game_open() begins a store transaction and loads game_id into
 * gs; it refuses, in lang, a game that is over and a seat that the game
 * does not have (-1: no seat, for a command about the whole game).  On
 * any refusal the transaction is rolled back and gs is left empty.
 *
 * engine_game_finish() ends what engine_game_open() began: with es
 * ENGINE_OK it commits and wakes the long-polls (engine_committed()),
 * otherwise, or if the commit fails, it rolls back.  It clears gs and
 * returns the final status.
 */
#ifndef PBEM_GAMETX_H
#define PBEM_GAMETX_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

enum engine_status	engine_game_open(struct store *st, int64_t game_id,
			    int seat, struct gamestate *gs,
			    enum rules_lang lang, char *err, size_t errlen);
enum engine_status	engine_game_finish(struct store *st,
			    struct gamestate *gs, enum engine_status es,
			    char *err, size_t errlen);

#endif
