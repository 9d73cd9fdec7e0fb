/*
 * audit.h -- re-checking a game's log from first principles.
 *
 * An audit takes a game's entries (from the store, or from an exported
 * bundle), and checks, entry by entry and stopping at the first fault:
 * sequence numbers; each entry's link to the previous hash and its own
 * hash; the server's receipt; the genesis record (server-signed, naming
 * the ruleset, options, seat keys and seed commitment); each move's
 * signature by its seat's key; a card game's card file (it must hash to
 * the genesis record's "cards", and the module must accept it); and -- when the seed is known -- a replay
 * of every move through the rule module from the seed, comparing the state
 * hash after each entry (and the stored snapshot, when there is one).  The
 * report names the first bad entry and why.
 *
 * pbemctl replay uses the same walk with a callback after each entry.
 */
#ifndef PBEM_AUDIT_H
#define PBEM_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "store.h"

struct audit_log {
	int64_t			 game_id;
	unsigned char		 server_pub[32];
	int			 have_seed;
	unsigned char		 seed[STORE_SEED_BYTES];
	/* What the game row says, to compare with the genesis record;
	 * NULL/0 when auditing a bundle (then genesis is the only source). */
	const struct store_game	*row;
	struct store_entry	*entries;	/* entries[i].seq should be i */
	size_t			 nentries;
	char		       **snapshots;	/* per entry, or NULL */
	/* A card game's card file (docs/CARDFILES.md), from the store or
	 * the bundle: malloc'd bytes, or NULL.  The audit checks that it
	 * hashes to the genesis record's "cards" and plays with it. */
	char			*cards;
	size_t			 cards_len;
};

struct audit_report {
	int		ok;
	int64_t		bad_seq;	/* first bad entry, or -1 */
	char		reason[1024];
	size_t		checked;	/* entries checked */
	int		replayed;	/* states recomputed from the seed */
	char		ruleset[STORE_RULESET_MAX];
	int		nseats;
	unsigned char	final_state_hash[STORE_HASH_BYTES];
	/* Moves signed with a seat's hosted key (kinds 7 and 8,
	 * docs/LOG.md): how many, and "SEQ (seat S, mail|web), ..." */
	size_t		nhosted;
	char		hosted[1024];
};

/* "mail reply token" or "web session" for a hosted kind, else NULL. */
const char *audit_hosted_auth(int kind);

/* Called after each entry during a replay: the module, its state after
 * the entry, and the entry. */
typedef void (*audit_step_cb)(const struct store_entry *e,
	    const struct rules_module *m, const void *state, void *arg);

/* Run the audit; returns 0 if every check passed, -1 otherwise (the
 * report says where and why).  step may be NULL. */
int	audit_run(const struct audit_log *log, struct audit_report *report,
	    audit_step_cb step, void *arg);

/* Read a game's log, snapshots and seed from the store into log. */
int	audit_load_store(struct store *st, int64_t game_id,
	    struct audit_log *log, struct store_game *row, char *err,
	    size_t errlen);
void	audit_log_clear(struct audit_log *log);

#endif /* PBEM_AUDIT_H */
