/*
 * bundle.h -- a game's log as one self-contained JSON file.
 *
 * `pbemctl export` writes it; `pbem verify` checks it offline with the
 * same audit as `pbemctl audit` (audit.h): hash chain, receipts, genesis,
 * every move signature, and -- once the game is over and the seed is in
 * the bundle -- a full replay from the seed.  Format (docs/LOG.md):
 *   {"format": "pbem-bundle-v1", "server_key": "ed25519:...",
 *    "game": N, "seed": "<hex>" (only when the game is over),
 *    "entries": [{"seq", "kind", "seat", "time", "text", "signature",
 *                 "state_hash", "prev_hash", "hash", "receipt"}, ...],
 *    "cards": {"game", "sha256", "size", "base64"} (card games only)}
 */
#ifndef PBEM_BUNDLE_H
#define PBEM_BUNDLE_H

#include <jansson.h>

#include "audit.h"
#include "store.h"

/* The bundle for game_id (a new JSON object), or NULL with err. */
json_t *bundle_export(struct store *st, int64_t game_id, char *err,
	    size_t errlen);
/* Read a bundle into log (free with audit_log_clear()); -1 with err if
 * the bundle is not well formed. */
int	bundle_read(const json_t *bundle, struct audit_log *log, char *err,
	    size_t errlen);

#endif /* PBEM_BUNDLE_H */
