/*
 * rules.h -- the contract between pbem's core and a game's rule module.
 *
 * This is the only header a rule module includes.  A module is a table of
 * functions (struct rules_module) that the core calls; the core's own types
 * (store, protocol, daemon) are invisible from here, and rules/ is compiled
 * with include paths that reach only rules/, so a module cannot reach past
 * this contract.
 *
 * What a module promises:
 *   - It is pure and deterministic.  The same state, seat, move text and
 *     random stream give the same new state, byte for byte, on every
 *     machine.  It keeps no global mutable state, reads no clock, does no
 *     I/O, and draws randomness only from the struct rules_rng it is given.
 *   - Its state round-trips through save() and load() exactly: the core
 *     stores save()'s JSON as the snapshot and hashes it (with sorted keys,
 *     compact form) to prove a replay reached the same position.
 *   - It never trusts a move: check() rejects anything illegal with a
 *     specific message saying what was wrong and what is legal now, and
 *     apply() is only called after check() passed on the same state.
 *   - view() for a seat contains nothing that seat may not know; the public
 *     view contains nothing hidden from every seat.
 *
 * What the core promises a module:
 *   - Calls happen on one thread per state; a state is never shared.
 *   - apply() is called only after parse() and check() succeeded on the
 *     very same state, seat and move.
 *   - The random stream passed to setup() and apply() is keyed by the
 *     game's secret seed and the move's sequence number (docs/PROTOCOL.md),
 *     so a replay sees exactly the same numbers.
 *
 * Versioning: the table starts with api_version.  Fields are only ever
 * added at the end, with RULES_API_VERSION bumped; the core reads only the
 * fields the module's api_version has.  ruleset_version is the module's
 * own version: bump it whenever a change could alter how a recorded game
 * replays, and keep the old behaviour reachable for games created with it.
 *
 * Version history of the table:
 *   1  everything up to score_cards.
 *   2  translate (optional): a move text rewritten with one language's
 *      keywords, for the examples shown to people.
 *   3  asynchronous play (docs/ASYNC.md): default_move (required from
 *      version 3), skip_check and skip_apply (optional, together),
 *      response_window (optional).
 *   4  older rulesets kept playable: oldest_ruleset_version and
 *      setup_version (optional, together).
 *   5  describe_last (optional): the last move, worded for the whole
 *      table, for the one-line summaries of events and webhooks.
 *   6  sample_illegal_move (required from version 6): a refused move,
 *      so the generic tests need nothing written for a game by hand.
 *   7  cards as data (optional): cards_parse, cards_free, setup_cards
 *      and load_cards, for games whose cards come from a card file.
 *   8  bot_move (optional): the move a server-played seat chooses.
 *   9  bot_levels (optional): bot levels of the module's own, and the
 *      server-played seats passed to setup in the options.
 *  10  setup_cards_version (optional): older rulesets kept playable by a
 *      card module (with oldest_ruleset_version).
 *  11  move_label (optional): a legal move worded for a person picking
 *      it (a web button, a chat bot's list), cards by their names.
 */
#ifndef PBEM_RULES_H
#define PBEM_RULES_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#define RULES_API_VERSION 11

/* Every error message a module writes fits in this many bytes. */
#define RULES_ERRLEN 1024

/* Result of parse(), check() and load(): one enum for every method. */
enum rules_status {
	RULES_OK = 0,
	RULES_SYNTAX,		/* the text is not a move of this game */
	RULES_ILLEGAL,		/* a move, but not a legal one now */
	RULES_NOT_YOUR_TURN,	/* the seat may not act now */
	RULES_GAME_OVER,	/* the game has ended; nothing more to play */
	RULES_BAD_OPTIONS,	/* setup(): options refused */
	RULES_BAD_STATE		/* load(): saved state is not valid */
};

/* Languages for messages and help text.  Parsing accepts both always. */
enum rules_lang {
	RULES_LANG_EN = 0,
	RULES_LANG_FR = 1
};

/* Special viewers for view(); seats are numbered 0 .. nseats-1. */
#define RULES_VIEW_PUBLIC (-1)	/* spectators: only what is public */
#define RULES_VIEW_FULL   (-2)	/* administrators and audits: everything */

/*
 * The deterministic random stream.  Opaque; the core owns it.
 */
struct rules_rng;

/* A uniform integer in [0, bound).  bound must be at least 1. */
uint32_t	rules_rng_below(struct rules_rng *rng, uint32_t bound);
/* Fisher-Yates shuffle of n ints, drawing from rng. */
void		rules_rng_shuffle(struct rules_rng *rng, int *items, size_t n);

/*
 * Text helpers shared by every module's parser (rules/text.c).
 */
/* Lower-case, strip accents from Latin letters (UTF-8), map typographic
 * apostrophes to ', collapse runs of blanks to one space and trim.  The
 * result is written to out (always NUL-terminated).  Returns 0, or -1 if
 * out was too small (out then holds a truncated, still valid string). */
int		rules_fold(const char *in, char *out, size_t outlen);
/* "Did you mean ...", for refusals.  Suggest only from what is public
 * knowledge (keywords, every card name of the game), never from where a
 * hidden card lies.  Compare folded text.
 *
 * rules_edit_distance: the edit distance of a and b (insertions,
 * deletions, substitutions and swaps of two neighbours, each 1), or
 * max + 1 as soon as it is known to exceed max.
 * rules_typo_limit: the largest distance at which a word is taken for a
 * misspelling of another: 0 up to 2 bytes, 1 up to 4, 2 up to 8, else 3.
 * rules_nearest: the entry of the NULL-terminated cands nearest to word
 * within rules_typo_limit(word) (the first on a tie), or NULL -- also
 * NULL when word is itself one of cands. */
int		rules_edit_distance(const char *a, const char *b, int max);
int		rules_typo_limit(const char *word);
const char     *rules_nearest(const char *word, const char *const *cands);

/*
 * JSON helpers for save() and load() (rules/json.c).
 */
/* A new JSON array of the n integers of v. */
json_t	       *rules_json_ints(const int *v, int n);
/* Read a JSON array of at most max integers, each in lo..hi, into v and
 * their number into *n.  Returns 0, or -1 (v and *n then unspecified)
 * for anything else: load() refuses the state. */
int		rules_json_read_ints(const json_t *a, int *v, int max, int lo,
		    int hi, int *n);

/*
 * The module table.  Filled in with designated initializers by each
 * module, listed in rules/registry.c.
 */
struct rules_module {
	/* Set to RULES_API_VERSION when the module was written. */
	int api_version;

	/* Short machine name, as stored with each game ("stmissions"). */
	const char *name;

	/* The module's own version; see the note at the top. */
	int ruleset_version;

	/* Human titles and one-paragraph summaries, English and French. */
	const char *title_en;
	const char *title_fr;
	const char *summary_en;
	const char *summary_fr;

	/* Seats the game can be created with. */
	int min_seats;
	int max_seats;

	/*
	 * setup -- build the opening position.
	 * Called by the core once, when a game is created.  options is a JSON
	 * object (possibly empty, never NULL) of game options.  Returns a new
	 * state, or NULL with RULES_BAD_OPTIONS' message in err when nseats or
	 * options are refused.  Shuffles and first-player draws use rng only.
	 */
	void *(*setup)(int nseats, const json_t *options, struct rules_rng *rng,
	    char *err, size_t errlen);

	/* destroy -- free a state made by setup() or load(). NULL is fine. */
	void (*destroy)(void *state);

	/*
	 * save -- the whole state as JSON (a new reference).  load -- the
	 * inverse.  load() must refuse (NULL, message in err) anything save()
	 * could not have produced rather than crash on it: snapshots are
	 * checked, but a module must still never trust bytes from disk.
	 */
	json_t *(*save)(const void *state);
	void *(*load)(const json_t *saved, char *err, size_t errlen);

	/*
	 * to_act -- which seats must act now.  Writes up to max seat numbers
	 * into seats and returns how many must act (which may exceed max);
	 * 0 means the game is over.
	 */
	int (*to_act)(const void *state, int *seats, int max);

	/*
	 * parse -- read a move written by a person, in English or French
	 * keywords, card names or ids, case- and accent-insensitively.  On
	 * success *move is a new JSON value in the module's own form.  Parse
	 * may look at the state (to resolve "discard Worf" to the card in the
	 * hand) but must not judge legality beyond what it needs to read the
	 * text.  On failure, RULES_SYNTAX and a message in lang saying which
	 * word was not understood and what forms are accepted.
	 */
	enum rules_status (*parse)(const void *state, int seat,
	    const char *text, enum rules_lang lang, json_t **move,
	    char *err, size_t errlen);

	/*
	 * check -- is this parsed move legal for seat now?  Pure: it must not
	 * change the state.  On refusal, the status and a message in lang that
	 * names what was wrong and what is legal now.  A refusal message must
	 * not reveal anything seat may not see.
	 */
	enum rules_status (*check)(const void *state, int seat,
	    const json_t *move, enum rules_lang lang, char *err, size_t errlen);

	/*
	 * apply -- play a move that check() accepted.  Must not fail; a broken
	 * invariant here is a bug and may abort.
	 */
	void (*apply)(void *state, int seat, const json_t *move,
	    struct rules_rng *rng);

	/*
	 * view -- what viewer may see: a seat number, RULES_VIEW_PUBLIC or
	 * RULES_VIEW_FULL.  A new JSON object.  Every view holds at least
	 * "to_act" (array of seats) and "over" (bool).
	 */
	json_t *(*view)(const void *state, int viewer);

	/*
	 * legal_moves -- every legal move for seat now, as an array of move
	 * texts in English that parse() reads back to that move.  Empty when
	 * the seat may not act.  Used by bots, random-play tests and help.
	 */
	json_t *(*legal_moves)(const void *state, int seat);

	/*
	 * move_forms -- the forms of move open to seat now, for people: an
	 * array of short strings in lang such as "draw galaxy, discard <card
	 * in your hand>".  Shown with every refusal and in help.
	 */
	json_t *(*move_forms)(const void *state, int seat, enum rules_lang lang);

	/*
	 * result -- NULL while the game runs; afterwards a new JSON object with
	 * "scores" (array, one number per seat), "winners" (array of seats;
	 * ties share victory) and any per-seat "breakdown" the game has.
	 */
	json_t *(*result)(const void *state);

	/*
	 * score_cards -- optional (NULL if the game has no such notion).
	 * Score a set of cards given as text (ids or names, separated by
	 * commas) as if it were a final hand, for `pbemctl score`.  Returns a
	 * new JSON object {"total": N, "cards": [{"id", "name", "points",
	 * "blanked"}...], "choices": "..."} with names in lang, or NULL with
	 * the reason in err (unknown card, repeated card, wrong count).
	 */
	json_t *(*score_cards)(const char *cards, enum rules_lang lang,
	    char *err, size_t errlen);

	/* ---- api_version 2 and later ---- */

	/*
	 * translate -- optional (NULL if the module has none); read only when
	 * api_version >= 2.  Rewrite a move text that parse() reads (as a
	 * rule, one of legal_moves()' English texts) into the same move
	 * written with lang's keywords, for the examples shown to people:
	 * the core calls it when it renders a mail or page in lang, with the
	 * state and seat the text was listed for.  Pure, like parse(): it
	 * must not change the state.  Card ids and numbers stay as they are.
	 * The result, NUL-terminated in out, must parse back (in either
	 * language setting) to the same move JSON as text.  Returns RULES_OK,
	 * or any error status (text not understood, out too small); callers
	 * then show the text as it was, so a failure only costs the
	 * translation.
	 */
	enum rules_status (*translate)(const void *state, int seat,
	    const char *text, enum rules_lang lang, char *out, size_t outlen);

	/* ---- api_version 3 and later ---- */

	/*
	 * default_move -- required when api_version >= 3.  The documented
	 * move the server plays for seat when it misses a deadline (and for
	 * a seat that resigned from a game that goes on, and for every seat
	 * that has not answered when a response window closes).  Called by
	 * the core's scheduler with a seat that to_act() lists.  Writes an
	 * English move text into out that parse() and check() accept for
	 * that seat on that state, and returns RULES_OK; any other status
	 * (the seat may not act, out too small) means there is no default
	 * move now and the core leaves the seat waiting.  Pure: it must not
	 * change the state, and must choose the same text every time for
	 * the same state (the text is what the log records and replays).
	 * Document the choice in the module's docs: players rely on it.
	 */
	enum rules_status (*default_move)(const void *state, int seat,
	    char *out, size_t outlen);

	/*
	 * skip_check, skip_apply -- optional, both or neither (NULL: the
	 * game never lets a turn be skipped, and the core refuses the
	 * "skip" missed-deadline policy for it).  skip_check says, without
	 * changing the state, whether seat's turn may pass with nothing
	 * played now (RULES_OK) or why not (a status and a message in
	 * lang).  skip_apply passes the turn; it is called only after
	 * skip_check accepted on the same state and seat, and must not fail.
	 * Like apply(), it draws randomness only from rng, so a replay of
	 * the log's skip entry reaches the same state.
	 */
	enum rules_status (*skip_check)(const void *state, int seat,
	    enum rules_lang lang, char *err, size_t errlen);
	void (*skip_apply)(void *state, int seat, struct rules_rng *rng);

	/*
	 * response_window -- optional (NULL: the game never has one).
	 * Non-zero when the seats to_act() lists are being asked whether
	 * they respond to an action (a reaction, a surprise, a
	 * simultaneous decision) rather than playing a turn.  The core then
	 * gives them the game's response time instead of the turn time,
	 * sends every one of them the same "your turn" notice, and when the
	 * window's deadline passes plays default_move() for each seat that
	 * has not answered.  To leak nothing about who holds a response
	 * card, the module must list in to_act() every seat that could
	 * respond under the rules, not only the seats that hold a response
	 * now, and must give each of them a move that declines (a "pass")
	 * -- which is then also its default_move().
	 */
	int (*response_window)(const void *state);

	/* ---- api_version 4 and later ---- */

	/*
	 * oldest_ruleset_version, setup_version -- optional, both or neither
	 * (0 and NULL: only games of ruleset_version load).  A module whose
	 * rules changed keeps its older readings reachable: games recorded
	 * under any version from oldest_ruleset_version to ruleset_version
	 * load, play on, audit and replay with their own version's rules
	 * (the state carries its version; load() accepts each of them).
	 * setup_version builds the opening position of such a game exactly
	 * as setup() did while that version was the newest; the core calls it
	 * when it replays a game of an older version from its genesis
	 * (audit, pbem verify).  New games always get ruleset_version through
	 * setup().
	 */
	int oldest_ruleset_version;
	void *(*setup_version)(int version, int nseats, const json_t *options,
	    struct rules_rng *rng, char *err, size_t errlen);

	/* ---- api_version 5 and later ---- */

	/*
	 * describe_last -- optional (NULL: the core words a plain "bruno
	 * played"); read only when api_version >= 5.  What seat's last move
	 * did, as the whole table saw it, in one short phrase in lang with
	 * no final stop: "bruno took Commander Tomalak from the discard
	 * area, discarded Worf", "bruno a pioché une carte".  The core calls
	 * it right after the move (or the default move played for seat) was
	 * applied, with state the state after it, and puts the phrase in the
	 * one-line summary every event and webhook carries (docs/API.md).
	 * names[s] is what to call seat s's player (never NULL).  The phrase
	 * is public: it may name only what the public view shows after the
	 * move -- a card drawn face down is "a card", an answer in a
	 * response window that the view hides is "answered".  Pure; must not
	 * change the state.  Returns RULES_OK with the phrase, NUL-terminated,
	 * in out, or any other status (nothing to describe, out too small)
	 * and the core words the plain line instead.
	 */
	enum rules_status (*describe_last)(const void *state, int seat,
	    const char *const *names, enum rules_lang lang, char *out,
	    size_t outlen);

	/* ---- api_version 6 and later ---- */

	/*
	 * sample_illegal_move -- required when api_version >= 6.  A move
	 * text, in English, that seat could send now and that the module
	 * refuses (parse() or check() does not answer RULES_OK): the
	 * generic tests use it, for every registered game, as the refused
	 * move of the golden "rejected" mail and of the leak checks
	 * (tests/check_templates.c).  Prefer a well-formed move that the
	 * rules forbid now (a card the seat does not hold) to gibberish.
	 * Choose it from what seat may see only (its own cards, public
	 * ones, keywords), never from where a hidden card lies, so that
	 * neither the text nor its refusal leaks anything.  Pure, and the
	 * same text every time for the same state.  Returns RULES_OK, or
	 * another status when there is none (the seat may not act now, the
	 * game is over, out is too small).
	 */
	enum rules_status (*sample_illegal_move)(const void *state, int seat,
	    char *out, size_t outlen);

	/* ---- api_version 7 and later ---- */

	/*
	 * Cards as data -- optional: cards_parse, cards_free, setup_cards
	 * and load_cards together, or none of them.  A game whose cards are
	 * data (docs/CARDFILES.md) is played with a card set read from a
	 * card file: the project's own set (rules/GAME/cards.yaml, installed
	 * as $(pkgdatadir)/cards/GAME.yaml) unless the game was created with
	 * another one (pbemctl game create GAME ... --cards FILE).  The core
	 * keeps each card file once, by the SHA-256 of its bytes; the game's
	 * genesis record carries that hash and the exported bundle carries
	 * the file, so a replay plays with exactly the game's cards.
	 *
	 * cards_parse -- read and validate a card file: len bytes (not
	 * NUL-terminated) read from the file called filename (used in
	 * messages only).  Returns a new card set, immutable from then on
	 * and shared read-only by every state and thread that plays with
	 * it; or NULL with one message in err saying where and what is
	 * wrong, as "FILE:LINE: card ID, field FIELD: what is wrong"
	 * (English: card files are written by administrators).  Pure like
	 * the rest of the module.  Must refuse, never crash on, any bytes,
	 * and bound what it builds by what it read.
	 *
	 * cards_free -- free a card set (NULL is fine).  The core calls it
	 * only after every state made with the set is destroyed.
	 *
	 * setup_cards, load_cards -- setup() and load() given the game's
	 * card set; the core calls them instead of setup() and load(),
	 * which a card module leaves NULL.  A state may keep a pointer to
	 * the set, but save() writes the position only, never the cards
	 * themselves (the set is known by the game's hash), and load_cards
	 * refuses a saved state that names a card the set does not have.
	 * A card module keeps its older ruleset versions through
	 * setup_cards_version (api_version 10), never setup_version.
	 */
	void *(*cards_parse)(const char *bytes, size_t len,
	    const char *filename, char *err, size_t errlen);
	void (*cards_free)(void *cards);
	void *(*setup_cards)(const void *cards, int nseats,
	    const json_t *options, struct rules_rng *rng, char *err,
	    size_t errlen);
	void *(*load_cards)(const void *cards, const json_t *saved, char *err,
	    size_t errlen);

	/* ---- api_version 8 and later ---- */

	/*
	 * bot_move -- optional (NULL: the core plays a uniformly random
	 * move of legal_moves() for every level).  The move the server
	 * plays for seat, a seat to_act() lists, when a bot holds it:
	 * level is an enum rules_bot_level other than RULES_BOT_RANDOM
	 * (the core plays that one itself).  Writes an English move text
	 * into out that parse() and check() accept for seat on state, and
	 * returns RULES_OK; any other status (the seat may not act, out too
	 * small, a level the module does not know) and the core plays the
	 * random move instead.  Pure and deterministic like the rest: it
	 * must not change the state, and draws randomness only from rng
	 * (the game's stream under a label of its own, docs/PROTOCOL.md),
	 * so anyone holding the revealed seed re-runs the same choice.  It
	 * decides from what seat may see only: its own hand, public cards,
	 * the sizes of hidden piles -- never where a hidden card lies (a
	 * guess at a hidden card draws from the cards the seat cannot see,
	 * with rng).  Document each level's play in the module's docs.
	 */
	enum rules_status (*bot_move)(const void *state, int seat, int level,
	    struct rules_rng *rng, char *out, size_t outlen);

	/* ---- api_version 9 and later ---- */

	/*
	 * bot_levels -- optional (NULL: the core's levels only).  The
	 * module's own bot levels, a NULL-terminated list of lower-case
	 * names (with any other language's words for them), which "@bot:
	 * LEVEL" then accepts beside random and normal.  A module that has
	 * the list is told its server-played seats at setup: the core adds
	 * "bot_seats": {"SEAT": "LEVEL", ...} to the options of a game
	 * created with @bot seats (LEVEL as the seat was written, "normal"
	 * for a bare @bot), so the genesis record holds it and every replay
	 * sets up the same game; a creator may not give bot_seats.  The
	 * core asks bot_move() for a seat of such a level with
	 * RULES_BOT_NORMAL: what the level changes is the module's to set
	 * up.  docs/SERVER-BOTS.md.
	 */
	const char *const *bot_levels;

	/* ---- api_version 10 and later ---- */

	/*
	 * setup_cards_version -- optional; a card module's setup_version:
	 * with oldest_ruleset_version (both or neither), games recorded
	 * under any version from oldest_ruleset_version to ruleset_version
	 * load, play and replay with their own version's rules, and this
	 * builds the opening position of such a game from its card set
	 * exactly as setup_cards() did while that version was the newest.
	 */
	void *(*setup_cards_version)(int version, const void *cards,
	    int nseats, const json_t *options, struct rules_rng *rng,
	    char *err, size_t errlen);

	/* ---- api_version 11 and later ---- */

	/*
	 * move_label -- optional (NULL: people see the move text itself,
	 * with lang's keywords by translate()).  A move text that parse()
	 * reads (as a rule, one of legal_moves()' English texts) worded
	 * for a person who picks it rather than types it -- a button of
	 * the web page, an entry of a chat bot's list: lang's keywords,
	 * and each card the text names by an id given by its name in lang
	 * with the id beside it, "take Tribble Trouble (M13), discard Red
	 * Alert (M03)" / "prendre Problèmes de tribules (M13), ...".  A
	 * module whose move texts already name cards by name needs none.
	 * It is a label, not a move: it need not parse back, and the core
	 * still posts and signs the text.  It may name only the cards the
	 * text itself names (which the seat already knows): never another
	 * card, and never what a reference to a hidden card stands for
	 * ("drawn" stays "drawn"), so the same text gets the same label
	 * whatever seat cannot see.  Pure and deterministic, like parse().
	 * Returns RULES_OK with the label, one line, NUL-terminated, in out,
	 * or any other status (text not understood, out too small); callers
	 * then show translate()'s text, or the text as it is.
	 */
	enum rules_status (*move_label)(const void *state, int seat,
	    const char *text, enum rules_lang lang, char *out, size_t outlen);
};

/*
 * Bot levels: how well a seat the server plays chooses (docs/SERVER-BOTS.md).
 * RULES_BOT_RANDOM is a uniformly random legal move for every game (the
 * core's, rules_bot_move() below); RULES_BOT_NORMAL is the module's own
 * bot_move(), or the random one for a module without it.
 */
enum rules_bot_level {
	RULES_BOT_RANDOM = 0,
	RULES_BOT_NORMAL = 1
};
#define RULES_BOT_LEVELS 2

/*
 * The registry (rules/registry.c): every module the build knows.
 */
/* The module called name, or NULL if there is none. */
const struct rules_module *rules_find(const char *name);
/* The NULL-terminated list of all modules, in a stable order. */
const struct rules_module *const *rules_all(void);
/* Does m load, play and replay games recorded under version? */
int rules_version_supported(const struct rules_module *m, int version);
/* The opening position of a game recorded under version: setup() for the
 * newest, setup_version() for an older one the module still keeps.  NULL
 * with the reason in err if the version is not kept or setup refuses. */
void *rules_setup_version(const struct rules_module *m, int version,
    int nseats, const json_t *options, struct rules_rng *rng, char *err,
    size_t errlen);
/* Does m play with a card set read from a card file (api_version 7)? */
int rules_has_cards(const struct rules_module *m);
/* setup_version()/setup() or load() for any module: cards is the game's
 * card set (from m->cards_parse) for a card module, and ignored (pass
 * NULL) for any other.  The core calls the module through these only. */
void *rules_setup_game(const struct rules_module *m, const void *cards,
    int version, int nseats, const json_t *options, struct rules_rng *rng,
    char *err, size_t errlen);
void *rules_load_game(const struct rules_module *m, const void *cards,
    const json_t *saved, char *err, size_t errlen);
/* The move a bot of level (enum rules_bot_level) plays for seat: the
 * module's bot_move() for a level above RULES_BOT_RANDOM when it has one
 * and it answers, else a uniformly random entry of legal_moves() drawn
 * from rng.  RULES_OK with the text in out, or RULES_NOT_YOUR_TURN when
 * the seat has no legal move (rules/bot.c). */
enum rules_status rules_bot_move(const struct rules_module *m,
    const void *state, int seat, int level, struct rules_rng *rng,
    char *out, size_t outlen);
/* The level called name ("random", "normal"), or -1; and its name. */
int rules_bot_level(const char *name);
/* The same for a game of m: a name in m's bot_levels (api_version 9) is
 * RULES_BOT_NORMAL; -1 for a name neither knows. */
int rules_bot_level_of(const struct rules_module *m, const char *name);
/* m's own bot levels (api_version 9), or NULL. */
const char *const *rules_module_bot_levels(const struct rules_module *m);
const char *rules_bot_level_name(int level);
/* How a person picking among moves sees the move text of seat, in lang:
 * m's move_label() (api_version 11) when it has one and it answers, else
 * m's translate() (api_version 2) for a language other than English,
 * else text itself.  Returns out or text; out holds outlen bytes. */
const char *rules_move_label(const struct rules_module *m, const void *state,
    int seat, const char *text, enum rules_lang lang, char *out,
    size_t outlen);
/* 0 if the table is well formed, else -1 with the reason in err.  The core
 * checks each module once at start-up and refuses to run a bad one. */
int rules_validate_module(const struct rules_module *m, char *err,
    size_t errlen);

#endif /* PBEM_RULES_H */
