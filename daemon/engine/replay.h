/*
 * replay.h -- one log entry replayed onto a module's state (engine-
 * internal).  An audit replays a whole log from the seed (audit.c); a
 * game whose newest snapshot is older than the entry asked for is
 * rebuilt from that snapshot (gamestate.c).  Both replay exactly what the
 * game played: a move or an automatic move through parse, check and
 * apply, a skipped turn through skip_check and skip_apply, each with the
 * random stream of the entry's sequence number (docs/PROTOCOL.md); the
 * other entries (resignation, replacement, call-off) leave the state as
 * it was.  Replay never reads the clock or the store.
 */
#ifndef PBEM_REPLAY_H
#define PBEM_REPLAY_H

#include <stddef.h>

#include "rules.h"
#include "store.h"

/* Apply entry e to state (the state after entry e->seq - 1).  0, or -1
 * with the reason in err if the rules refuse it or the kind is unknown
 * (then the state may be half changed: drop it). */
int	replay_entry(const struct rules_module *m, void *state,
	    const unsigned char seed[STORE_SEED_BYTES],
	    const struct store_entry *e, char *err, size_t errlen);

#endif /* PBEM_REPLAY_H */
