/*
 * cardfile.h -- reading a card file, for rule modules whose cards are data
 * (rules API version 7, docs/CARDFILES.md).
 *
 * A card file is YAML (1.1, the subset below), chosen over JSON because
 * the people who write card files transcribe them by hand: YAML lets
 * them comment, and libyaml tells where every value sits, so a module
 * can refuse a card with "FILE:LINE: card ID, field FIELD: what is
 * wrong".  The reader turns the file into a jansson tree, which the
 * module then checks field by field, and keeps the line of every value.
 *
 * What is read:
 *   - one document, whose root is a mapping or a sequence;
 *   - mappings with scalar keys (no key twice in one mapping),
 *     sequences and scalars;
 *   - a plain (unquoted) scalar that is a decimal integer becomes a JSON
 *     integer, "true"/"false" a boolean, "null", "~" or nothing a null;
 *     every other scalar, and every quoted one, is a string (so "007"
 *     and '12' stay strings, and 1.5 is the string "1.5");
 *   - strings are UTF-8 (libyaml checks); NUL is refused.
 * What is refused: anchors and aliases (a few bytes could otherwise stand
 * for an enormous tree), tags, more than one document, nesting deeper
 * than RULES_CARDFILE_MAX_DEPTH, files over RULES_CARDFILE_MAX_BYTES.
 * What the reader builds is bounded by what it read: every value comes
 * from at least one byte of the file.
 *
 * Pure: no I/O (the caller read the bytes), no global state.  Messages
 * are English, as card files are written by administrators.
 */
#ifndef PBEM_RULES_CARDFILE_H
#define PBEM_RULES_CARDFILE_H

#include <stddef.h>
#include <jansson.h>

#define RULES_CARDFILE_MAX_BYTES	(4 * 1024 * 1024)
#define RULES_CARDFILE_MAX_DEPTH	32

/* A card file read into a tree, with where each value was. */
struct rules_cardfile;

/*
 * Read len bytes of YAML (not NUL-terminated) that came from the file
 * called filename (kept for messages).  Returns the file, or NULL with
 * "FILE:LINE: what is wrong" in err.
 */
struct rules_cardfile *rules_cardfile_read(const char *bytes, size_t len,
    const char *filename, char *err, size_t errlen);

/* Free what rules_cardfile_read() made (NULL is fine). */
void rules_cardfile_free(struct rules_cardfile *file);

/* The root value: a JSON object or array, owned by the file. */
const json_t *rules_cardfile_root(const struct rules_cardfile *file);

/* The name the file was read under. */
const char *rules_cardfile_name(const struct rules_cardfile *file);

/*
 * Lines (from 1) in the file:
 *   rules_cardfile_line: where the object or array node begins;
 *   rules_cardfile_key_line: where the value of key sits in object node
 *     (or node's own line when key is absent from it);
 *   rules_cardfile_index_line: where item i of array node sits (or
 *     node's own line when i is out of range).
 * 0 when node is not a container of this file.
 */
int rules_cardfile_line(const struct rules_cardfile *file,
    const json_t *node);
int rules_cardfile_key_line(const struct rules_cardfile *file,
    const json_t *node, const char *key);
int rules_cardfile_index_line(const struct rules_cardfile *file,
    const json_t *node, size_t i);

/*
 * Write a refusal in the documented form into err:
 *   "FILE:LINE: card CARD, field FIELD: MESSAGE"
 * where LINE is the line of field in the object card_node (of card_node
 * itself when field is NULL or absent), CARD is card_id (the part is left
 * out when NULL) and the field part is left out when field is NULL.
 * Returns -1, so that a check can end with `return rules_cardfile_error(...)`.
 */
int rules_cardfile_error(const struct rules_cardfile *file,
    const json_t *card_node, const char *card_id, const char *field,
    char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

#endif /* PBEM_RULES_CARDFILE_H */
