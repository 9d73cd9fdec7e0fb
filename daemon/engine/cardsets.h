/*
 * cardsets.h -- card files and the card sets parsed from them
 * (docs/CARDFILES.md).
 *
 * A card game (rules_has_cards()) plays with a card set that its module
 * parses from a card file.  The core knows a file by the hex SHA-256 of
 * its bytes: the store keeps the bytes once under that hash, the game row
 * and the genesis record name it, the exported bundle carries the bytes.
 *
 * What this file promises:
 *   - cardsets_get() hands out a parsed set shared read-only by every
 *     state and thread that plays with it.  Sets are parsed once per hash
 *     and kept until the process exits (never freed while a state might
 *     use them), at most CARDSETS_MAX of them: the number of distinct
 *     card files in the store bounds it in practice.  A mutex guards the
 *     lookup and the insert; parsing happens outside it.
 *   - A set is only ever made from bytes that hash to its key and that
 *     the module's cards_parse() accepted.
 *   - A game's default card file is the module's own set:
 *     $(pkgdatadir)/cards/GAME.yaml installed, rules/GAME/cards.yaml in
 *     the source tree (cardsets_default_path()).
 */
#ifndef PBEM_CARDSETS_H
#define PBEM_CARDSETS_H

#include <stddef.h>

#include "rules.h"
#include "store.h"

/* Parsed sets the cache keeps at most. */
#define CARDSETS_MAX	256

/* A card file read into memory: bytes (malloc'd, NUL after len), the
 * name it was read from (for messages) and its hash. */
struct cardfile {
	char	*bytes;
	size_t	 len;
	char	 name[512];
	char	 hash[STORE_CARDS_HASH_HEX + 1];
};

/* The hex SHA-256 of len bytes. */
void	cardsets_hash(const char *bytes, size_t len,
	    char hash[STORE_CARDS_HASH_HEX + 1]);

/* Read the file at path into cf (at most STORE_CARDS_MAX bytes) and hash
 * it.  0, or -1 with "PATH: reason" in err. */
int	cardfile_read(const char *path, struct cardfile *cf, char *err,
	    size_t errlen);
/* Take len bytes already in memory (copied) as the file called name. */
int	cardfile_from_bytes(const char *bytes, size_t len, const char *name,
	    struct cardfile *cf, char *err, size_t errlen);
void	cardfile_clear(struct cardfile *cf);

/*
 * Where m's own card file is: $PBEM_CARDS/GAME.yaml if that variable
 * names a folder; else the source tree given to cardsets_use_source_tree()
 * (tests); else the installed $(pkgdatadir)/cards/GAME.yaml if that folder
 * exists; else rules/GAME/cards.yaml if it exists (run from the source
 * tree, as templates_dir() does); else the installed path again, which
 * the error then names.  Written into out.
 */
void	cardsets_default_path(const struct rules_module *m, char *out,
	    size_t outlen);
/* Tests: find every default card file at SRCDIR/rules/GAME/cards.yaml. */
void	cardsets_use_source_tree(const char *srcdir);
/* Read m's default card file into cf.  0, or -1 with err. */
int	cardfile_default(const struct rules_module *m, struct cardfile *cf,
	    char *err, size_t errlen);

/* Parse cf as m's card file and keep the set in the cache (or find it
 * there, parsed already).  The set, or NULL with the module's message
 * ("FILE:LINE: ...") in err. */
const void *cardsets_add(const struct rules_module *m,
	    const struct cardfile *cf, char *err, size_t errlen);
/* The set of m whose file has hash: from the cache, or read from the
 * store (checked to hash to hash and to be m's) and parsed.  NULL with
 * err if the store has no such file or the module refuses it. */
const void *cardsets_get(struct store *st, const struct rules_module *m,
	    const char *hash, char *err, size_t errlen);

/* The card set a game of m plays with, for the engine: NULL and no error
 * for a module without cards, else cardsets_get() of cards_hash.  -1 with
 * err if a card game's set cannot be had. */
int	cardsets_for_game(struct store *st, const struct rules_module *m,
	    const char *cards_hash, const void **cards, char *err,
	    size_t errlen);

#endif /* PBEM_CARDSETS_H */
