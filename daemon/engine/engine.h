/*
 * engine.h -- the path of a move, and of a game's creation.
 *
 * Every way in (pbemctl submit, HTTP, mail) hands the engine the text
 * that contains a signed move block; the engine finds the block, checks
 * the seat's signature, the game and the sequence number, and then, in
 * one BEGIN IMMEDIATE transaction: loads the latest snapshot, lets the
 * rule module parse, check and apply the move, appends the hash-chained
 * log entry, the new snapshot and one outbox row per recipient, and
 * commits.  Either all of that is stored or none of it.  The reply is the
 * server's receipt, or a stable error code with a message saying what was
 * wrong and the legal move forms -- and on any error nothing changed.
 *
 * This is the engine's entry header: the front-ends (daemon/http,
 * daemon/mail, daemon/cli, pbemd's threads) include it, and nothing in
 * daemon/engine/ includes theirs (tests/check-layout.sh).
 *
 * Files, in the order a move meets them: submit.c (find and verify the
 * block, hand the move on), writer.c (many moves per transaction, in
 * pbemd), apply.c (a move inside the write transaction), record.c (the
 * one place a log entry is made: hashes, receipt, snapshot and every row
 * an entry brings; record.h), outbox.c (the mails queued, and the list
 * of their events), observe.c (observers), webhook.c (webhook rows and
 * registrations), turnclock.c (when the turn began; turnclock.h).
 * Beside the path: create.c (new games and their genesis entry),
 * players.c (why a player's registration is refused),
 * gamestate.c (loading a game's module, state and players),
 * serverentry.c (entries the server writes), seats.c, press.c,
 * command.c (asynchronous play), schedule.c (deadlines and their
 * outcomes), bots.c (seats the server plays), gamepolicy.c and policy.c (deadline policies), chain.c
 * (hashes), serverkey.c (the signing key), audit.c (re-checking a log),
 * bundle.c (export and offline verification), committed.c (the commit
 * hook), summary.c (the one-line summaries of entries), cardsets.c
 * (card files and the parsed card sets of card games), gamemaster.c
 * (a game's master and its clock) and mastermail.c (the master's mail).
 */
#ifndef PBEM_ENGINE_H
#define PBEM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "delegation.h"
#include "policy.h"
#include "protocol.h"
#include "reqsig.h"
#include "rules.h"
#include "serverkey.h"
#include "store.h"

/* Results with a stable machine code each (engine_status_code()). */
enum engine_status {
	ENGINE_OK = 0,
	ENGINE_NO_BLOCK,	/* "no_block": no signed block in the text */
	ENGINE_MALFORMED,	/* "malformed_block" */
	ENGINE_UNKNOWN_GAME,	/* "unknown_game" */
	ENGINE_BAD_SEAT,	/* "bad_seat": no such seat in that game */
	ENGINE_BAD_SIGNATURE,	/* "bad_signature" */
	ENGINE_STALE_SEQ,	/* "stale_sequence": already played */
	ENGINE_FUTURE_SEQ,	/* "future_sequence" */
	ENGINE_GAME_OVER,	/* "game_over" */
	ENGINE_NOT_YOUR_TURN,	/* "not_your_turn" */
	ENGINE_SYNTAX,		/* "move_not_understood" */
	ENGINE_ILLEGAL,		/* "illegal_move" */
	ENGINE_BAD_REQUEST,	/* "bad_request": creation refused */
	ENGINE_BUSY,		/* "busy": try again */
	ENGINE_INTERNAL,	/* "internal_error": see the daemon log */
	ENGINE_FORMING,		/* "game_forming": seats still open */
	ENGINE_NOT_FORMING,	/* "not_forming": seats are fixed */
	ENGINE_SEAT_TAKEN,	/* "seat_taken": no such open seat for you */
	ENGINE_REFUSED,		/* "refused": the game's policy or the
				 * seat's status does not allow it */
	ENGINE_NOT_COMMAND	/* "not_a_command": no command keyword */
};

const char *engine_status_code(enum engine_status status);

struct engine_reply {
	enum engine_status	status;
	char			message[2048];	/* for people; lang */
	json_t		       *forms;		/* move_forms(), in lang, or NULL */
	json_t		       *legal;		/* legal_moves(): exact texts, or NULL */
	struct proto_receipt	receipt;	/* when status is ENGINE_OK */
	int64_t			game_id;
	int64_t			next_seq;	/* the sequence number to sign next */
	int			game_over;	/* the move ended the game */
};

/* Free what a reply holds (not the reply itself). */
void	engine_reply_clear(struct engine_reply *reply);

/* ---- committed.c: who hears of a commit -------------------------------- */

/*
 * The commit hook: a function the engine calls after every transaction
 * that appended to a game's log has committed (a move, a game's start),
 * with the game and the sequence number of the newest entry.  pbemd sets
 * it once, before any thread submits, to wake the event long-polls; it is
 * called on the committing thread (HTTP, mail, scheduler), so it must be
 * quick and must not call back into the engine.  NULL (the default) calls
 * nothing.
 */
typedef void (*engine_commit_hook)(int64_t game_id, int64_t seq, void *arg);

void	engine_set_commit_hook(engine_commit_hook hook, void *arg);
/* Called by the engine after a commit (create.c, submit.c). */
void	engine_committed(int64_t game_id, int64_t seq);

/* ---- create.c (receipts: record.c) -------------------------------------- */

/*
 * players.c: why store_player_add() answered STORE_EXISTS for p, as a
 * sentence in lang for the person registering: the name is taken (also
 * by a name equal to it but for case, which the sentence names), or the
 * key is another player's.
 */
void	engine_player_exists_reason(struct store *st,
	    const struct store_player *p, enum rules_lang lang, char *why,
	    size_t len);
/* Set the time zone player_id reads times in: an IANA name the system's
 * time zone database knows ("Europe/Paris"), or "UTC".  A name it does
 * not know is refused (ENGINE_BAD_REQUEST, err in lang) and nothing
 * changes. */
enum engine_status engine_player_set_tz(struct store *st, int64_t player_id,
	    const char *zone, enum rules_lang lang, char *err, size_t errlen);
/* Set the language player_id reads in: "en" or "fr" (anything else is
 * refused, ENGINE_BAD_REQUEST, err in lang, nothing changed).  Mails and
 * pages follow it from the commit on, and so do refusals when the change
 * is made in pbemd's own process; a running pbemd's kept seat keys
 * (seatkeys.c) do not see a change made by another process (pbemctl)
 * until it next reloads them. */
enum engine_status engine_player_set_lang(struct store *st, int64_t player_id,
	    const char *code, enum rules_lang lang, char *err, size_t errlen);

/*
 * Form a game of ruleset with nseats seats: players[s] is the player of
 * seat s, or 0 for a seat left open for anyone to join.  The ruleset
 * checks the seat count and the options (its setup() refusal becomes
 * ENGINE_BAD_REQUEST with the module's reason) before anything is
 * stored.  The seed is drawn and its commitment stored now.  If no seat
 * is open the game starts at once (*started = 1): genesis entry and
 * opening snapshot in the same transaction.  Otherwise it is stored with
 * status STORE_GAME_FORMING and starts when the last seat is taken.
 */
enum engine_status engine_form_game(struct store *st,
	    const struct serverkey *key, const char *ruleset,
	    const char *options, const int64_t *players, int nseats,
	    int64_t *game_id, int *started, char *err, size_t errlen);

/*
 * player_id takes seat (or, if seat < 0, the lowest open seat) of a
 * forming game, in one transaction; taking the last open seat starts the
 * game in that transaction (*started = 1).  Refusals: ENGINE_UNKNOWN_GAME,
 * ENGINE_NOT_FORMING, ENGINE_BAD_SEAT (no such seat), ENGINE_SEAT_TAKEN
 * (seat taken, no open seat, or the player already sits there).
 */
enum engine_status engine_join_game(struct store *st,
	    const struct serverkey *key, int64_t game_id, int seat,
	    int64_t player_id, int *seat_taken, int *started, char *err,
	    size_t errlen);
/* player_id gives up their seat of a forming game (it opens again);
 * ENGINE_BAD_SEAT if they hold none. */
enum engine_status engine_leave_game(struct store *st, int64_t game_id,
	    int64_t player_id, int *seat_left, char *err, size_t errlen);

/*
 * The same with the card file a card game plays with and the seats the
 * server plays.  cards (cardsets.h, docs/CARDFILES.md): NULL takes a card
 * game's own set (its default card file).  The module's cards_parse()
 * judges the file first (its message, "FILE:LINE: ...", becomes
 * ENGINE_BAD_REQUEST); the file is kept in the store by its hash, which
 * the game row and the genesis record name.  A card file for a game
 * without cards is refused.  bots[s] (bots NULL: none)
 * "@bot[:LEVEL][=NAME]" makes seat s a seat the server plays (bots.c;
 * players[s] is then 0): its bot player is stored in the game's
 * transaction.
 */
struct cardfile;
enum engine_status engine_form_game_with(struct store *st,
	    const struct serverkey *key, const char *ruleset,
	    const char *options, const struct cardfile *cards,
	    const int64_t *players, const char *const *bots, int nseats,
	    int64_t *game_id, int *started, char *err, size_t errlen);

/*
 * Create a game of ruleset for the given players (one per seat, in seat
 * order), with options as JSON text (NULL for none).  Draws a secret seed,
 * sets the game up, and stores the game, its genesis log entry (signed by
 * the server) and the opening snapshot in one transaction.
 */
enum engine_status engine_create_game(struct store *st,
	    const struct serverkey *key, const char *ruleset,
	    const char *options, const int64_t *players, int nseats,
	    int64_t *game_id, char *err, size_t errlen);

/* The receipt of log entry e (its hash must be set): game, seq, seat and
 * entry hash.  The genesis entry has no seat; its receipt names seat 0
 * (docs/LOG.md). */
void	engine_receipt_of(const struct store_entry *e,
	    struct proto_receipt *r);
/* Sign the receipt of entry e into e->receipt. */
void	engine_sign_receipt(const struct serverkey *key,
	    struct store_entry *e);

/*
 * Record key's public half as the database's server key, or check that
 * the database already names this key.  Writes the key's text form into
 * keytext.  -1 with the reason in err if the database belongs to another
 * key (a server must never sign receipts for a log it did not start).
 */
int	engine_bind_server_key(struct store *st, const struct serverkey *key,
	    char *keytext, size_t keytextlen, char *err, size_t errlen);

/* ---- submit.c ---------------------------------------------------------- */

/*
 * Find, verify and play the signed move in text.  lang is for messages.
 * The block and signature are checked on the calling thread with st; if
 * a writer runs in this process (writer.h) the move is then written by
 * it, with the writer's key and connection, and this call waits for the
 * answer; else it is written here on st with key.  Either way the reply
 * comes after the commit.  Safe to call from many threads at once, each
 * with its own st.
 */
/* What is wrong with a block proto_move_find() refused (ps, its English
 * detail), for people in lang: in French a French sentence with the
 * detail after it. */
void	engine_block_message(enum proto_status ps, const char *detail,
	    enum rules_lang lang, char *out, size_t outlen);
void	engine_submit(struct store *st, const struct serverkey *key,
	    const char *text, size_t len, enum rules_lang lang,
	    struct engine_reply *reply);

/*
 * engine_submit() in three steps, for a caller that must not sleep while
 * the writer works (an HTTP thread serving many connections):
 *   engine_move_check()  checks the found block m (game, seat, signature)
 *			  on the calling thread: 0 with mv filled, or -1 with
 *			  the refusal in reply (reply is reset first);
 *   engine_move_queue()  hands mv to the writer: 0, and done(arg) is called
 *			  on the writer's thread once reply holds the answer
 *			  (after the commit; mv and reply must live until
 *			  then; done must not block).  -1 when no writer runs:
 *   engine_move_write()  then writes it on st, waiting for the answer.
 */
struct engine_move {
	struct proto_move	m;
	int			kind;		/* of the log entry */
	unsigned char		signer[STORE_KEY_BYTES];	/* verified with */
	enum rules_lang		lang;
};
int	engine_move_check(struct store *st, const struct proto_move *m,
	    enum rules_lang lang, struct engine_move *mv,
	    struct engine_reply *reply);
int	engine_move_queue(const struct engine_move *mv,
	    struct engine_reply *reply, void (*done)(void *), void *arg);
void	engine_move_write(struct store *st, const struct serverkey *key,
	    const struct engine_move *mv, struct engine_reply *reply);

/*
 * For per-key rate limits (HTTP and mail): the public key of the player
 * in the seat a block names (of the game's master for a master's
 * command), read before anything is verified -- 0, or
 * -1 if the game or seat is unknown or open (the engine will say so) --
 * and whether a reply's status means the block's signature was checked
 * and good, so that a token is spent only for the key's own blocks.
 */
int	engine_block_seat_key(struct store *st, const struct proto_move *m,
	    unsigned char key[STORE_KEY_BYTES]);
int	engine_signature_checked(enum engine_status status);

/* ---- seatkeys.c -------------------------------------------------------- */

/*
 * A game's seats as the threads that verify moves see them: who holds
 * each seat, with that player's key and language.  engine_seats_get()
 * answers from a table kept in memory, and reads the store only for a
 * game it does not hold or after store_seats_generation() moved (a seat
 * given to another player, a key replaced: in this process, after the
 * commit).  A change made by another process (pbemctl) can leave an
 * entry stale; that never lets a move in: a signature that a kept key
 * does not verify is checked again with engine_seats_reload(), and the
 * writer checks under the write lock that the key a move was verified
 * with is still its seat's (apply.c).  Thread-safe.
 */
struct engine_seats {
	int64_t		game_id;
	int		status;		/* enum store_game_status */
	int		nseats;
	int64_t		player[STORE_MAX_SEATS];	/* 0: open seat */
	/* Of the seat's player; zeros for an open seat. */
	unsigned char	pubkey[STORE_MAX_SEATS][STORE_KEY_BYTES];
	enum rules_lang	lang[STORE_MAX_SEATS];
	int		kept;		/* 1: from the table, 0: read now */
};
/* game_id's seats: STORE_OK, STORE_NOTFOUND, or a store failure (the
 * reason in store_errmsg(st)). */
enum store_status engine_seats_get(struct store *st, int64_t game_id,
	    struct engine_seats *out);
/* The same read from the store now, whatever the table holds (and kept
 * in it). */
enum store_status engine_seats_reload(struct store *st, int64_t game_id,
	    struct engine_seats *out);

/* ---- gamestate.c ------------------------------------------------------- */

struct gamestate {
	struct store_game	    game;
	const struct rules_module  *module;
	/* The card set of a card game (cardsets.h; shared, never freed
	 * here), NULL for other games. */
	const void		   *cards;
	void			   *state;	/* the module's state */
	int64_t			    seq;	/* last entry applied */
	unsigned char		    last_hash[STORE_HASH_BYTES];
	/* The record of the entry that ended the game outside its rules
	 * (a resignation leaving one seat, a game called off), or NULL. */
	json_t			   *ended;
	unsigned		    resigned;	/* bit s: seat s resigned */
	/* The players at the seats, read once each and kept with the state
	 * (gamestate_seat_player()); id 0: not read yet. */
	struct store_player	    seat_players[STORE_MAX_SEATS];
	/* 1 while the writer keeps this state for the game's next move
	 * (writer.c): an entry appended to it then gets a snapshot row
	 * only every ENGINE_SNAPSHOT_EVERY entries (record.h). */
	int			    kept;
	/* 1 when entry seq was appended to a kept state without a snapshot
	 * (record.c): the next entry then has no newest snapshot to remove.
	 * 0 (as loaded): one may be in the store. */
	int			    seq_unsnapshotted;
	/* 1 while the scheduler writes the outcome of a "gm force" applied
	 * before the seat's deadline (schedule.c): the notices of the
	 * entries appended meanwhile carry "forced": true, so that their
	 * mails say the turn was ended early, not missed.  0 as loaded. */
	int			    forced;
};

/* Load a game's newest state (or the one after entry seq, if seq >= 0). */
enum engine_status gamestate_load(struct store *st, int64_t game_id,
	    int64_t seq, struct gamestate *gs, char *err, size_t errlen);
void	gamestate_clear(struct gamestate *gs);
/* Put a freshly read game row (taken: row is emptied) in place of gs's,
 * with what follows from it (the resigned seats); for a kept state whose
 * log has not moved. */
void	gamestate_take_game(struct gamestate *gs, struct store_game *row);
/*
 * The player at seat s (name, address, language; never the key, which a
 * player may change), read from the store the first time and kept with
 * gs, so a kept state does not read its players again for every move.  A
 * player's name, address and language never change; a replacement gives
 * the seat another player id, which comes with the game's row, and that
 * player is read then.  NULL on a store failure (store_errmsg()).
 */
const struct store_player *gamestate_seat_player(struct store *st,
	    struct gamestate *gs, int s);
/* The players' names at the seats of gs, for present_view(): names[s]
 * for each of the game's seats (NULL for an open seat or a store
 * failure), read through gamestate_seat_player() and kept with gs, so
 * they live as long as gs.  Returns the number of seats. */
int	gamestate_seat_names(struct store *st, struct gamestate *gs,
	    const char *names[STORE_MAX_SEATS]);
/* The names of the seats listed in JSON array seats (a new array, in the
 * same order; null for a seat with no name), from names as
 * gamestate_seat_names() fills it for nseats seats. */
json_t *gamestate_names_of(const char *const names[STORE_MAX_SEATS],
	    int nseats, const json_t *seats);
/* Name the seats of a view from gamestate_view(), for the JSON answers
 * (docs/API.md, "Names"): "seat_names" (seat_names[s] is the name of seat
 * s's player, null for an open seat) and "to_act_names" (the names of
 * "to_act", in its order).  Every other seat number of the view is named
 * by seat_names[number]. */
void	gamestate_view_names(struct store *st, struct gamestate *gs,
	    json_t *view);
/* The view of viewer (seat, RULES_VIEW_PUBLIC, RULES_VIEW_FULL), with the
 * game's id, ruleset, next sequence number and, once over, the result
 * (in which a seat that resigned never wins: docs/ASYNC.md)
 * and the revealed seed. */
json_t *gamestate_view(const struct gamestate *gs, int viewer);
/*
 * Whether the player at seat may play a move now in gs: the module waits
 * for the seat, the game has not ended (by its rules, a resignation or a
 * call-off) and the seat has neither resigned nor been marked absent.
 * *over (if not NULL) is set when the game waits for nobody.  Every view
 * for people (mail, HTTP, pbemctl) asks this, so none offers moves to a
 * seat that may not play them.
 */
int	gamestate_seat_acts(const struct gamestate *gs, int seat, int *over);
/*
 * Add to view (additively) "deadlines": for each seat gs waits for whose
 * turn has a deadline under the game's policy, {"seat", "deadline" (ISO
 * 8601, UTC), "late" (the deadline has passed at now), "absent"}; or
 * "paused_since" (ISO 8601) when its master paused the game.  Nothing
 * when the game is over or has no deadlines (turnclock.c).
 */
void	engine_view_deadlines(struct store *st, const struct gamestate *gs,
	    int64_t now, json_t *view);

/* ---- summary.c: one-line summaries (docs/API.md, "Summaries") ---------- */

/*
 * What a chat room can post as is about one log entry, in English and in
 * French: what it did, worded from what is public (the module's
 * describe_last() for a move), then who is to play and the move number
 * they sign, or the end of the game with scores and winners.  Players
 * are called by name.  Each line is at most ENGINE_SUMMARY_MAX - 1 bytes.
 */
#define ENGINE_SUMMARY_MAX	1024

struct engine_summary {
	char	en[ENGINE_SUMMARY_MAX];
	char	fr[ENGINE_SUMMARY_MAX];
};

/* The summaries of entry e just applied to gs (gs is the state after it;
 * over: e ended the game).  Reads the seats' players through gs. */
void	engine_summarize(struct store *st, struct gamestate *gs,
	    const struct store_entry *e, int over, struct engine_summary *sum);
/*
 * The summaries of logged entry e, for a reader: worded from the state
 * after e, rebuilt from the nearest snapshot and the entries since (the
 * summaries are not stored with each entry: they would double the bytes
 * of a move), with the seats' players of that entry's moment (a seat
 * replaced since by its first replacement's previous_player).  Entries
 * that have a
 * stored row (schemas 12 to 14 wrote one) get it; if the state cannot be
 * rebuilt, a plain line (engine_summary_plain(), name as there).
 */
void	engine_summary_of(struct store *st, const struct store_entry *e,
	    const char *name, struct engine_summary *sum);
/* The same for a run of entries: r (zeroed before the first) keeps the
 * state after the last entry read, so that the next entry of the same
 * game is replayed onto it instead of loaded; give it back with
 * engine_summary_reader_clear(). */
struct engine_summary_reader {
	struct gamestate	gs;
	int			loaded;
};
void	engine_summary_read(struct store *st, struct engine_summary_reader *r,
	    const struct store_entry *e, const char *name,
	    struct engine_summary *sum);
void	engine_summary_reader_clear(struct engine_summary_reader *r);
/* The end of a game that is over, alone: "game over: alice 46, bruno
 * 31 — alice wins". */
void	engine_summary_game_over(struct store *st, struct gamestate *gs,
	    struct engine_summary *sum);
/* A plain line for an entry logged without summaries (before schema
 * 11): "bruno played"; name NULL calls the seat by its number. */
void	engine_summary_plain(const struct store_entry *e, const char *name,
	    struct engine_summary *sum);
/* {"en": ..., "fr": ...}, a new object. */
json_t *engine_summary_json(const struct engine_summary *sum);

/* ---- outbox.c, for record.c and create.c ------------------------------- */

/*
 * Queue one outbox row per seat after entry seq (inside the caller's
 * transaction): mover_event ("accepted", "auto_move", ...) for seat
 * mover (-1: none, and mover_event may be NULL), "your_turn" for the
 * seats to act, "update" for the others, or "game_over" for all once
 * over (and, when a player's own move ended the game, its "accepted"
 * receipt first).  Every event must be in engine_mail_events (outbox.c).
 * While gs->forced, each row's payload also says "forced": true.
 */
int	engine_queue_notifications(struct store *st,
	    struct gamestate *gs, int mover, const char *mover_event,
	    int64_t seq, int over);
/*
 * Queue the opening mails of a new game after its genesis entry (inside
 * the caller's transaction): "your_turn" for the seats to act,
 * "game_started" for the others.
 */
int	engine_queue_opening(struct store *st, struct gamestate *gs);

/* ---- outbox.c: the mails the engine queues ----------------------------- */

/*
 * Every event the engine writes to outbox channel "mail", NULL-terminated.
 * The mail gateway has a mail for each (tests/check_notices renders them
 * all in both languages); engine_outbox_mail() queues no other.
 */
extern const char *const engine_mail_events[];
int	engine_mail_event_known(const char *event);
/* Queue one row of channel "mail" (inside the caller's transaction);
 * payload is taken (decref'd).  -1, nothing written, for an event not in
 * engine_mail_events or a store failure. */
int	engine_outbox_mail(struct store *st, int64_t game_id, int64_t seq,
	    const char *recipient, const char *event, json_t *payload,
	    int64_t when);
/* Remove the outbox rows delivered and queued before `before' (mail and
 * webhooks alike; pending and failed rows stay), in batches, each its
 * own transaction.  The number removed, or -1 on a store failure
 * (store_errmsg()). */
int64_t	engine_outbox_prune(struct store *st, int64_t before);

/* ---- Asynchronous play (docs/ASYNC.md) --------------------------------- */

/*
 * Every function below takes the time as `now' (clock.h) and, unless it
 * says otherwise, runs its own BEGIN IMMEDIATE transaction: either all of
 * its effect (log entry, snapshot, seat row, outbox rows) is stored, or
 * nothing is, and a refusal -- ENGINE_BAD_REQUEST, ENGINE_REFUSED,
 * ENGINE_BAD_SEAT, ENGINE_UNKNOWN_GAME, ENGINE_GAME_OVER with a message
 * in err saying what was wrong -- changes nothing.
 */

/* serverentry.c -- entries the server writes and signs.  Runs inside the
 * caller's transaction, on gs (which it updates: state, seq, last hash).
 * kind AUTO: text is a move for seat, parsed, checked and applied; SKIP:
 * the module's skip_apply for seat (text: the record); RESIGN, REPLACE,
 * CALL_OFF: a record, the state unchanged.  ends_game marks the game
 * over whatever the module says.  Queues the players' notifications
 * (mover_event for seat; NULL when seat is -1) and the observers' public
 * updates. */
enum engine_status engine_server_entry(struct store *st,
	    const struct serverkey *key, struct gamestate *gs, int kind,
	    int seat, const char *text, const char *mover_event,
	    int ends_game, int64_t now, char *err, size_t errlen);
/* The canonical record text of a server entry other than AUTO: JSON with
 * sorted keys holding format, event, game and seq plus the fields
 * given (a JSON object, stolen). */
char   *engine_record_text(int64_t game_id, int64_t seq, const char *event,
	    json_t *fields);

/* gamepolicy.c: read and set a game's policy (the default if none is
 * set). */
enum engine_status engine_policy_get(struct store *st, int64_t game_id,
	    struct policy *p, char *err, size_t errlen);
/* The same when the caller has the game's module m (the scheduler, with
 * the game loaded): the game's row is not read again. */
enum engine_status engine_policy_of(struct store *st, int64_t game_id,
	    const struct rules_module *m, struct policy *p, char *err,
	    size_t errlen);
enum engine_status engine_policy_set(struct store *st, int64_t game_id,
	    const struct policy *p, char *err, size_t errlen);

/* seats.c -- resign, replace, vacation, calling a game off.
 * command_seq is the number of the player's signed command (command.c),
 * recorded for the seat in the same transaction so that the command can
 * never be played twice; 0 when the administrator acts.  signed_by
 * describes the player's signed command (a JSON object:
 * command number, text, signature) recorded in the log entry, or NULL
 * when the administrator acts. */
enum engine_status engine_resign(struct store *st,
	    const struct serverkey *key, int64_t game_id, int seat,
	    int64_t command_seq, json_t *signed_by, int64_t now,
	    enum rules_lang lang, char *err, size_t errlen);
/* Give seat to player_id with that player's current key; the old key no
 * longer works for the seat.  Also brings an absent seat back. */
enum engine_status engine_replace(struct store *st,
	    const struct serverkey *key, int64_t game_id, int seat,
	    int64_t player_id, int64_t now, char *err, size_t errlen);
/* The seat's player has a new key (store_player_set_key() done, the old
 * one given): a replace entry naming the same player and the new key, so
 * audits check the seat's later entries with it.  The seat's status,
 * vacation and command numbers are kept.  ENGINE_GAME_OVER for a game
 * that is over (nothing to record). */
enum engine_status engine_rekey(struct store *st,
	    const struct serverkey *key, int64_t game_id, int seat,
	    const unsigned char old_pubkey[STORE_KEY_BYTES], int64_t now,
	    char *err, size_t errlen);
/* ---- delegate.c: delegation certificates (docs/PROTOCOL.md section
 * 13, docs/LOG.md kinds 10-12) ------------------------------------------ */

#define ENGINE_DELEGATION_GAMES_MAX	64	/* games recorded per sending */
struct engine_delegation_result {
	char	id[DELEGATION_ID_TEXT];
	int	created;		/* 0: it was kept already */
	int64_t	games[ENGINE_DELEGATION_GAMES_MAX];	/* recorded now */
	size_t	ngames;
};
/* Keep certificate d sent by player p (its signature checked with p's
 * key, at most STORE_DELEGATIONS_MAX in force, a one-game certificate
 * only for a running game p plays) and record it in the log of every
 * running game it covers where it is not yet recorded (so sending it
 * again records it in games started since).  Refusals in lang. */
enum engine_status engine_delegation_submit(struct store *st,
	    const struct serverkey *key, const struct store_player *p,
	    const struct delegation *d, int64_t now, enum rules_lang lang,
	    struct engine_delegation_result *res, char *err, size_t errlen);
/* Revoke p's certificate id and record that in each running game that
 * recorded it.  Revoking twice is not an error. */
enum engine_status engine_delegation_revoke(struct store *st,
	    const struct serverkey *key, const struct store_player *p,
	    const char *id, int64_t now, enum rules_lang lang, char *err,
	    size_t errlen);
/* 1 if a bot key that p delegated moves to, for m's game, in force at
 * now and recorded in the game's log, signed m; else 0. */
int	engine_delegated_move(struct store *st, const struct store_player *p,
	    const struct proto_move *m, int64_t now);
/* 1 if such a bot key (moves or views) signed the request rs. */
int	engine_delegated_request(struct store *st,
	    const struct store_player *p, int64_t game_id,
	    const struct reqsig *rs, const char *method, const char *target,
	    const void *body, size_t body_len, int64_t now);

/* A game just started: record in its log the certificates in force of
 * its players that cover it (all games, or this one).  Run after the
 * start is committed; 0, or -1 if one could not be recorded (the game
 * runs on without it; sending the certificate again records it). */
int	engine_delegation_game_started(struct store *st,
	    const struct serverkey *key, int64_t game_id, int64_t now);
/* 1 if p has a certificate in force for the bot key bot (any game, any
 * scope), still signed by p's current key. */
int	engine_delegates_to(struct store *st, const struct store_player *p,
	    const unsigned char bot[STORE_KEY_BYTES], int64_t now);

/* ---- chatlink.c: chat identities (docs/API.md "Chat identities") ---- */

#define ENGINE_CHAT_NAME_MAX	64	/* a network or nick with its NUL */
#define ENGINE_CHAT_CODE_LEN	10
/* network and nick checked and folded to lower case: 0, or -1. */
int	engine_chat_name_fold(const char *network, const char *nick,
	    char net_out[ENGINE_CHAT_NAME_MAX],
	    char nick_out[ENGINE_CHAT_NAME_MAX]);
/* A new code for (network, nick), asked by the chat bot `bot` (at most
 * STORE_CHAT_CODES_MAX pending each; ten minutes each). */
enum engine_status engine_chat_code(struct store *st,
	    const struct store_player *bot, const char *network,
	    const char *nick, int64_t now, enum rules_lang lang,
	    char code[ENGINE_CHAT_CODE_LEN + 1], int64_t *expires, char *err,
	    size_t errlen);
/* Player p returns code: (network, nick) is now p's; they are written
 * into network and nick. */
enum engine_status engine_chat_link(struct store *st,
	    const struct store_player *p, const char *code, int64_t now,
	    enum rules_lang lang, char network[ENGINE_CHAT_NAME_MAX],
	    char nick[ENGINE_CHAT_NAME_MAX], char *err, size_t errlen);
/* Who (network, nick) is, for the bot: the linked player, only if that
 * player delegates to the bot's key; otherwise ENGINE_UNKNOWN_GAME. */
enum engine_status engine_chat_whois(struct store *st,
	    const struct store_player *bot, const char *network,
	    const char *nick, int64_t now, enum rules_lang lang,
	    struct store_player *player, char *err, size_t errlen);

/* ---- gamemaster.c: a game's master and its clock (docs/ASYNC.md) ----- */

/* Name player_id (0: nobody) the master of game_id. */
enum engine_status engine_master_name(struct store *st, int64_t game_id,
	    int64_t player_id, char *err, size_t errlen);
/*
 * What a game's master (or the administrator) does to a running game.
 * cmd: the master's signed command -- its number, recorded with the
 * effect so a signed command never acts twice, and the answer queued to
 * the master (master_notice "answer") in the same transaction; NULL:
 * the administrator (pbemctl), whose change the master hears of by a
 * master_notice "clock".  Refusals are worded in lang.
 */
struct engine_gm_command {
	int64_t		 seq;		/* the master's command number */
	const char	*text;		/* the command as signed */
	const char	*answer;	/* what the answer mail says was done */
};
/* Give the current turn `seconds' more (1 h to 30 d). */
enum engine_status engine_master_extend(struct store *st, int64_t game_id,
	    const struct engine_gm_command *cmd, int64_t seconds,
	    enum rules_lang lang, char *err, size_t errlen);
/* Pause (pause 1) or resume (0) a running game's clock: no reminder,
 * deadline or outcome while paused; resuming gives the turn back the
 * time it stood paused (a vacation's part inside the pause is not
 * given twice).  No move is accepted while paused
 * (engine_master_paused()). */
enum engine_status engine_master_pause(struct store *st, int64_t game_id,
	    const struct engine_gm_command *cmd, int pause, int64_t now,
	    enum rules_lang lang, char *err, size_t errlen);
/* mastermail.c: one "master_notice" row to game_id's master, if it has
 * one with an address: what ("named", "game_started", "late",
 * "auto_move", "seat_offered", "game_over", "answer", "clock": what the
 * administrator did to the clock or policy) about entry seq,
 * with the fields of extra (taken; may be NULL).  0, or -1 on a store
 * failure. */
int	engine_queue_master(struct store *st, int64_t game_id, int64_t seq,
	    const char *what, json_t *extra, int64_t now);
/* ENGINE_OK if game_id is not paused; else ENGINE_REFUSED with, in err,
 * who paused it and since when (in lang, times in zone: "" for UTC) and
 * that the master resumes it.  A paused game accepts no move. */
enum engine_status engine_master_paused(struct store *st, int64_t game_id,
	    enum rules_lang lang, const char *zone, char *err, size_t errlen);
/* Apply the missed-deadline outcome of the current turn now. */
enum engine_status engine_master_force(struct store *st,
	    const struct serverkey *key, int64_t game_id,
	    const struct engine_gm_command *cmd, int64_t now,
	    enum rules_lang lang, char *err, size_t errlen);
/* Change one field of the policy ("missed=default"); it applies to the
 * turn already late at the next scheduler pass (docs/ASYNC.md).  Every
 * seat is told (clock_changed), as for extend, pause and resume. */
enum engine_status engine_master_policy(struct store *st, int64_t game_id,
	    const struct engine_gm_command *cmd, const char *assignment,
	    enum rules_lang lang, char *err, size_t errlen);
/* The administrator's `pbemctl game policy': the n assignments, all or
 * none.  For a running game, as engine_master_policy() with no cmd (in
 * one transaction with the mails); a forming or ended game's is only
 * stored. */
enum engine_status engine_policy_change(struct store *st, int64_t game_id,
	    const char *const *assignments, int n, char *err, size_t errlen);

/* How far ahead a vacation may start: a typed year cannot block a seat. */
#define ENGINE_VACATION_AHEAD_MAX	(180LL * 86400)
/* Declare seat away for [from, until), within the game's allowance and
 * starting within ENGINE_VACATION_AHEAD_MAX; every seat is told (outbox
 * "vacation": the seat's confirmation, the others' news).  These seat
 * commands word their refusals in lang. */
enum engine_status engine_vacation(struct store *st, int64_t game_id,
	    int seat, int64_t command_seq, int64_t from, int64_t until,
	    int64_t now, enum rules_lang lang, char *err, size_t errlen);
/* Cancel seat's vacation now or ahead (what is not taken goes back to
 * the allowance); every seat is told.  ENGINE_REFUSED when none. */
enum engine_status engine_vacation_cancel(struct store *st, int64_t game_id,
	    int seat, int64_t command_seq, int64_t now, enum rules_lang lang,
	    char *err, size_t errlen);
/* What a call-off vote left: whether the game ended, and how many of the
 * seats still playing (neither resigned nor absent) have voted. */
struct call_off_tally {
	int	ended;
	int	votes;
	int	needed;
};
/* seat votes to call the game off (vote 1) or takes its vote back (vote
 * 0); the other seats are told, with the tally.  When every seat still
 * playing has voted, the game ends with no winner (a CALL_OFF entry).  A
 * second vote, or taking back a vote never given, is refused. */
enum engine_status engine_call_off(struct store *st,
	    const struct serverkey *key, int64_t game_id, int seat,
	    int64_t command_seq, int vote, int64_t now,
	    struct call_off_tally *tally, enum rules_lang lang, char *err,
	    size_t errlen);
/* Take a player's signed command number for row: ENGINE_STALE_SEQ if
 * it is not above the last one taken, else row->command_seq is set (the
 * caller writes row in its transaction).  0 takes nothing. */
enum engine_status seats_claim_command(struct store_seat *row,
	    int64_t command_seq, enum rules_lang lang, char *err,
	    size_t errlen);
/* Whether seat may send a move now: not resigned, not absent.  Read
 * only; ENGINE_OK or ENGINE_REFUSED with the reason. */
enum engine_status engine_seat_may_move(struct store *st, int64_t game_id,
	    int seat, enum rules_lang lang, char *err, size_t errlen);

/*
 * bots.c -- seats the server plays (docs/SERVER-BOTS.md).
 *
 * engine_is_bot_spec: whether a seat given as text ("alice", "@bot")
 * asks for a bot; engine_bot_spec_read reads "@bot[:LEVEL][=NAME]"
 * (ENGINE_BAD_REQUEST and a message in English and French otherwise).
 * engine_bot_player_add stores the bot's player row (no address, a key
 * nobody holds the secret of, the level) in the caller's transaction.
 * engine_seat_bot_level: the level the server plays seat at, or -1 when
 * a person plays it (a bot's seat, or one the "bot" policy holds).
 * engine_bot_choose: the text the bot of level chooses for the entry of
 * sequence number seq, from the game's bot stream of that step (an audit
 * re-runs it); engine_bot_play records it as a BOT entry.
 */
struct engine_bot_spec {
	int	level;			/* enum rules_bot_level */
	char	level_name[16];		/* as written: a core level, or one
					 * of the game's own (rules.h,
					 * bot_levels), checked at creation */
	char	name[STORE_NAME_MAX];	/* "": a name is made up */
};
int	engine_is_bot_spec(const char *text);
enum engine_status engine_bot_spec_read(const char *text,
	    struct engine_bot_spec *spec, char *err, size_t errlen);
/* Does the game of m know the seat's level (a core level, or one of
 * m's own)?  ENGINE_BAD_REQUEST naming the levels otherwise. */
enum engine_status engine_bot_level_check(const struct rules_module *m,
	    const struct engine_bot_spec *spec, char *err, size_t errlen);
enum engine_status engine_bot_player_add(struct store *st,
	    const struct engine_bot_spec *spec, int64_t *player_id, char *err,
	    size_t errlen);
int	engine_seat_bot_level(struct store *st, struct gamestate *gs,
	    int seat);
enum engine_status engine_bot_choose(const struct gamestate *gs, int seat,
	    int level, int64_t seq, char *out, size_t outlen);
enum engine_status engine_bot_play(struct store *st,
	    const struct serverkey *key, struct gamestate *gs, int seat,
	    int level, int64_t now, char *err, size_t errlen);

/* press.c -- a message from seat to the seats in the recipients mask
 * (bit s: seat s); refused when the game's policy disables press.
 * *press_id is the recorded message's id. */
enum engine_status engine_press(struct store *st, int64_t game_id,
	    int from_seat, int64_t command_seq, unsigned recipients, const char *body, int64_t now,
	    int64_t *press_id, char *err, size_t errlen);
/* engine_press() with its refusals in lang (a player's own command). */
enum engine_status engine_press_in(struct store *st, int64_t game_id,
	    int from_seat, int64_t command_seq, unsigned recipients,
	    const char *body, int64_t now, enum rules_lang lang,
	    int64_t *press_id, char *err, size_t errlen);
/* The messages seat may read (sent by it or to it), as a JSON array of
 * {id, from, to: [seats], text, time}. */
json_t *engine_press_list(struct store *st, int64_t game_id, int seat);

/* observe.c -- mail observers of a game's public view. */
enum engine_status engine_observe(struct store *st, int64_t game_id,
	    const char *email, const char *lang, int64_t now, char *err,
	    size_t errlen);
enum engine_status engine_unobserve(struct store *st, int64_t game_id,
	    const char *email, char *err, size_t errlen);
/* Queue a public update for every observer of the game after entry seq
 * (inside the caller's transaction); forced: it is the outcome of a "gm
 * force" before the deadline (the payload says "forced": true). */
int	engine_queue_observers(struct store *st, int64_t game_id, int64_t seq,
	    const char *event, int forced, int64_t now);

/* command.c -- players' signed commands (docs/PROTOCOL.md, "Commands"):
 * a signed block whose text starts with a command keyword (resign,
 * vacation, press, call off; or in French).  engine_handle() is what the
 * HTTP and mail layers call with any signed block: commands go to
 * engine_command(), everything else to engine_submit(). */
int	engine_is_command(const char *text);
/* 1 if text is a game master's command ("gm ...", "mj ..."): signed with
 * the master's key, never answered with a seat's view. */
int	engine_is_master_command(const char *text);
void	engine_command(struct store *st, const struct serverkey *key,
	    const char *text, size_t len, enum rules_lang lang, int64_t now,
	    struct engine_reply *reply);
void	engine_handle(struct store *st, const struct serverkey *key,
	    const char *text, size_t len, enum rules_lang lang, int64_t now,
	    struct engine_reply *reply);

/* ---- submit.c, hostedkey.c, tokens.c, signup.c: playing by replies ---- */

/*
 * Play the checked move m (its signature already verified, or made by
 * the seat's hosted key) as a log entry of kind (STORE_ENTRY_MOVE, or
 * STORE_ENTRY_HOSTED_MAIL / _WEB): through the writer when one runs in
 * this process, else in a transaction of its own.  signer is the key the
 * signature was verified with (made with, for a hosted key); the move is
 * refused if it is no longer the seat's key when the move is written.
 * It may be NULL only for STORE_ENTRY_DELEGATED, whose certificate is
 * checked again instead.  engine_submit() ends here.
 */
void	engine_submit_move(struct store *st, const struct serverkey *key,
	    const struct proto_move *m, int kind, const unsigned char *signer,
	    enum rules_lang lang, struct engine_reply *reply);

/*
 * Hosted keys (hostedkey.c; docs/PLAYING.md).  The key-encryption key is
 * HOSTED_KEK_BYTES random bytes in its own 0600 file (option
 * hosted_key_file, default "<database>.kek"), never in the database;
 * hosted secret keys are sealed with it.
 */
#define HOSTED_KEK_BYTES	32
struct hosted_kek;
struct hosted_kek *hosted_kek_open(const char *path, int create, char *err,
	    size_t errlen);
void	hosted_kek_close(struct hosted_kek *kek);
char   *hosted_kek_path_for(const char *dbpath);
/* outlen bytes keyed by the KEK for one purpose (a domain string). */
void	hosted_kek_derive(const struct hosted_kek *kek, const char *purpose,
	    const unsigned char *msg, size_t len, unsigned char *out,
	    size_t outlen);
/* Store p (name, email, lang, email_pending as given) with a fresh
 * hosted key as its key, inside the caller's transaction. */
enum engine_status engine_hosted_player_add(struct store *st,
	    const struct hosted_kek *kek, struct store_player *p, char *err,
	    size_t errlen);
/* 1 if the server holds p's active key (a hosted player). */
int	engine_player_hosted(struct store *st, const struct store_player *p);
/* Sign certificate d (its player p's) with p's hosted key: ENGINE_OK,
 * or ENGINE_REFUSED when p plays with a key of their own (the web page's
 * bot form, docs/WEB.md "Bots"). */
enum engine_status engine_hosted_sign_delegation(struct store *st,
	    const struct hosted_kek *kek, const struct store_player *p,
	    struct delegation *d, char *err, size_t errlen);
/*
 * Play text for seat as move seq of game, signed with the hosted key of
 * the seat's player, as a log entry of kind (STORE_ENTRY_HOSTED_MAIL or
 * _WEB: how the caller authenticated the player).  ENGINE_REFUSED if the
 * player has a key of their own (the server cannot sign for them);
 * otherwise as engine_submit().
 */
void	engine_submit_hosted(struct store *st, const struct serverkey *key,
	    const struct hosted_kek *kek, int64_t game_id, int64_t seq,
	    int seat, const char *text, int kind, enum rules_lang lang,
	    struct engine_reply *reply);

/* Tokens (tokens.c): ENGINE_TOKEN_LEN lower-case hex digits; codes
 * ENGINE_CODE_LEN capital letters and digits.  Only hashes are stored. */
#define ENGINE_TOKEN_LEN	32
#define ENGINE_CODE_LEN		10
void	engine_token_hash(const char *token,
	    unsigned char hash[STORE_HASH_BYTES]);
/* The same hash under another domain string (web sessions), for tokens
 * of up to 127 characters. */
void	engine_token_hash_in(const char *domain, const char *token,
	    unsigned char hash[STORE_HASH_BYTES]);
/* The reply token of the your-turn mail of outbox row outbox_id (the same
 * every time), registered (hashed) in the store. */
void	engine_reply_token(const struct hosted_kek *kek, int64_t game_id,
	    int64_t seq, int seat, int64_t player_id, int64_t outbox_id,
	    char out[ENGINE_TOKEN_LEN + 1]);
enum store_status engine_reply_token_issue(struct store *st,
	    const struct hosted_kek *kek, int64_t game_id, int64_t seq,
	    int seat, int64_t player_id, int64_t outbox_id,
	    char out[ENGINE_TOKEN_LEN + 1]);
/* A fresh random play token, stored hashed with its expiry. */
enum store_status engine_play_token_issue(struct store *st, int64_t game_id,
	    int seat, int64_t player_id, int64_t expires,
	    char out[ENGINE_TOKEN_LEN + 1]);
/* The sign-up code of nonce. */
void	engine_signup_code(const struct hosted_kek *kek, const char *nonce,
	    char out[ENGINE_CODE_LEN + 1]);

/*
 * The web page's sessions (websession.c; docs/WEB.md).  A session token
 * is ENGINE_SESSION_BYTES random bytes as lower-case hex, kept by the
 * browser in a cookie and in the store only as its hash.
 */
#define ENGINE_SESSION_BYTES	32
#define ENGINE_SESSION_LEN	(2 * ENGINE_SESSION_BYTES)
#define ENGINE_SESSION_TTL	(12 * 3600)
#define ENGINE_CSRF_LEN		32
/* Why a sign-in link was refused. */
enum engine_signin_refusal {
	ENGINE_SIGNIN_UNKNOWN,	/* malformed, or never given */
	ENGINE_SIGNIN_USED,
	ENGINE_SIGNIN_EXPIRED,
	ENGINE_SIGNIN_SEAT	/* the player no longer holds the seat */
};
/* Spend play_token (single use, before its expiry, while its player
 * holds its seat) and open a session for that player, game and seat, in
 * one transaction: ENGINE_OK with the token in session and the row in
 * *ws; ENGINE_REFUSED with *why; ENGINE_BUSY on a store failure.
 * Nothing changes unless ENGINE_OK. */
enum engine_status engine_web_signin(struct store *st,
	    const char *play_token, int64_t now,
	    char session[ENGINE_SESSION_LEN + 1], struct store_web_session *ws,
	    enum engine_signin_refusal *why, char *err, size_t errlen);
/* The unexpired session of a cookie's token: ENGINE_OK, ENGINE_REFUSED
 * (none, malformed or expired) or ENGINE_BUSY. */
enum engine_status engine_web_session_find(struct store *st,
	    const char *session, int64_t now, struct store_web_session *ws,
	    char *err, size_t errlen);
/* The CSRF token of a session's forms, and its check (1: good). */
void	engine_web_csrf(const char *session, char out[ENGINE_CSRF_LEN + 1]);
int	engine_web_csrf_check(const char *session, const char *csrf);

/* Sign-ups (signup.c).  Start one inside the caller's transaction: a
 * signups row and a "signup" mail to email.  player_id: the player
 * registered over HTTP who waits for it, or 0 (the player is made, with
 * a hosted key, on confirmation). */
enum engine_status engine_signup_start(struct store *st,
	    const struct hosted_kek *kek, const char *email, const char *name,
	    const char *lang, int64_t player_id, int64_t now, char *err,
	    size_t errlen);
/* Confirm a code, in a transaction of its own; *p is the player.
 * ENGINE_BAD_REQUEST: no such code; ENGINE_REFUSED: expired, or already
 * confirmed (then *p is that player). */
enum engine_status engine_signup_confirm(struct store *st,
	    const struct hosted_kek *kek, const char *code, int64_t now,
	    struct store_player *p, char *err, size_t errlen);
/* A player name from a display name (or else an address's local part):
 * lower case, letters, digits, '.', '_' and '-'. */
void	engine_name_from(const char *display, const char *email, char *out,
	    size_t outlen);

#endif /* PBEM_ENGINE_H */
