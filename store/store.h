/*
 * store.h -- pbem's persistent store: players, games, the move log,
 * state snapshots and the outbox.
 *
 * This is a narrow interface on purpose.  store_sqlite.c and its sibling
 * files, one per group of tables (store_sqlite.h, docs/STORE.md), implement
 * it on one SQLite file (WAL mode, numbered migrations run at open); another
 * backend (PostgreSQL with one row lock per game) can implement the same
 * functions later without the rest of pbem changing.
 *
 * What the store promises:
 *   - store_open() brings any older file up to the current schema, in one
 *     transaction per migration, and refuses a file newer than it knows.
 *   - The log is append-only: store_log_append() never overwrites, and
 *     fails with STORE_EXISTS when (game, seq) is already taken.  This is
 *     what makes two racing submissions of one sequence number safe.
 *   - Between store_begin() and store_commit() every write is one atomic
 *     unit: after a crash either all of it is there or none of it.
 *   - It stores bytes; it does not compute hashes or check signatures.
 *     The hash chain is the core's (daemon/engine/chain.c).
 *
 * Every function returns an enum store_status; on STORE_ERROR the
 * reason is available from store_errmsg() until the next call.
 * Functions that hand back text allocate it with malloc(); the caller
 * frees it (store_entry_clear() for entries).
 *
 * Callbacks (the _foreach functions, store_outbox_due) get a struct that
 * is valid only during the call.  They may call other store functions,
 * but not the _foreach that is calling them (STORE_ERROR).  Schema,
 * migrations and the reasons behind them: docs/STORE.md.
 */
#ifndef PBEM_STORE_H
#define PBEM_STORE_H

#include <stddef.h>
#include <stdint.h>

enum store_status {
	STORE_OK = 0,
	STORE_NOTFOUND,		/* no such row */
	STORE_EXISTS,		/* unique key already taken */
	STORE_BUSY,		/* database locked longer than the timeout */
	STORE_ERROR		/* anything else; see store_errmsg() */
};

#define STORE_NAME_MAX		64
#define STORE_EMAIL_MAX		256
#define STORE_RULESET_MAX	32
#define STORE_MAX_SEATS		8
#define STORE_KEY_BYTES		32	/* Ed25519 public key */
#define STORE_SIG_BYTES		64	/* Ed25519 signature */
#define STORE_HASH_BYTES	32	/* BLAKE2b-256 */
#define STORE_SEED_BYTES	32
/* A card file is known by the SHA-256 of its bytes, in lower-case hex. */
#define STORE_CARDS_HASH_HEX	64
/* The largest card file kept (bytes). */
#define STORE_CARDS_MAX		(4 * 1024 * 1024)

struct store;

/* ---- Opening and transactions ---------------------------------------- */

/* Open (creating if needed) the database at path and migrate it.  A
 * connection is for one thread at a time (it has no lock of its own). */
enum store_status store_open(const char *path, struct store **out,
    char *err, size_t errlen);
void		store_close(struct store *st);
const char     *store_errmsg(struct store *st);
/* The schema version this build writes, and the one the file has. */
int		store_schema_latest(void);
int		store_schema_version(struct store *st);

/* BEGIN IMMEDIATE: takes the write lock now, so a transaction that reads
 * and then writes can never fail half-way on a lock. */
enum store_status store_begin(struct store *st);
/* A commit that fails is rolled back: nothing of it stays. */
enum store_status store_commit(struct store *st);
/* Always safe to call, also when no transaction is open. */
void		store_rollback(struct store *st);

/* Savepoints inside the open transaction, for a caller that writes
 * several independent units in one transaction (daemon/engine/writer.c: one
 * per move of a batch).  store_mark() sets the mark; store_mark_release()
 * keeps what was written since; store_mark_undo() undoes it and drops
 * the mark (safe to call when the transaction is already gone).  Marks
 * nest; each store_mark() needs one release or undo. */
enum store_status store_mark(struct store *st);
enum store_status store_mark_release(struct store *st);
void		store_mark_undo(struct store *st);
/* Is a transaction open?  (Some errors -- disk full, I/O -- roll the
 * whole transaction back by themselves.) */
int		store_in_transaction(struct store *st);

/* ---- Server metadata (key/value) -------------------------------------- */

enum store_status store_meta_set(struct store *st, const char *key,
    const char *value);
/* *value is malloc'd. */
enum store_status store_meta_get(struct store *st, const char *key,
    char **value);

/* ---- Players ----------------------------------------------------------- */

struct store_player {
	int64_t		id;
	char		name[STORE_NAME_MAX];
	char		email[STORE_EMAIL_MAX];
	char		lang[8];		/* "en" or "fr" */
	unsigned char	pubkey[STORE_KEY_BYTES];
	/* 1 while the address waits for its owner to confirm it: no game
	 * mail is sent to it (docs/PLAYING.md; migration 9). */
	int		email_pending;
	/* The IANA time zone the player reads times in ("Europe/Paris");
	 * "" for UTC (migration 13). */
	char		tz[64];
	/* The bot level ("random", "normal") of a player the server plays
	 * (docs/SERVER-BOTS.md); "" for a person (migration 17).  Read
	 * only: store_player_add() ignores it, store_player_set_bot() sets
	 * it. */
	char		bot[16];
};

/* Insert p (p->id is set).  STORE_EXISTS if the name or key is taken. */
enum store_status store_player_add(struct store *st, struct store_player *p);
enum store_status store_player_get(struct store *st, int64_t id,
    struct store_player *p);
enum store_status store_player_find(struct store *st, const char *name,
    struct store_player *p);
/* Replace the player's key (the old one stops working at once). */
enum store_status store_player_set_key(struct store *st, int64_t id,
    const unsigned char pubkey[STORE_KEY_BYTES]);
/* The player whose name equals name but for ASCII case (names are unique
 * in that form since schema 6): for saying which name a new one clashes
 * with. */
/* Make player id a bot of level ("random", "normal"; docs/SERVER-BOTS.md). */
enum store_status store_player_set_bot(struct store *st, int64_t id,
    const char *level);
/* Set player id's time zone name ("" for UTC); the caller checked it. */
enum store_status store_player_set_tz(struct store *st, int64_t id,
    const char *tz);
/* Set player id's language ("en" or "fr"; the caller checked it).  Moves
 * store_seats_generation() on: seat caches hold each seat's language. */
enum store_status store_player_set_lang(struct store *st, int64_t id,
    const char *lang);
enum store_status store_player_find_folded(struct store *st, const char *name,
    struct store_player *p);
/* The first registered player with this address (ASCII case ignored),
 * through an index; STORE_NOTFOUND for "" or an unknown address. */
enum store_status store_player_find_email(struct store *st, const char *email,
    struct store_player *p);
typedef int (*store_player_cb)(const struct store_player *p, void *arg);
/* Calls cb for each player by id; stops early if cb returns non-zero. */
enum store_status store_player_foreach(struct store *st, store_player_cb cb,
    void *arg);

/* ---- Games ------------------------------------------------------------- */

enum store_game_status {
	STORE_GAME_RUNNING = 0,
	STORE_GAME_OVER = 1,
	STORE_GAME_FORMING = 2		/* open seats; no log entry yet */
};

struct store_game {
	int64_t		id;
	char		ruleset[STORE_RULESET_MAX];
	int		ruleset_version;
	char	       *options;		/* JSON text, malloc'd */
	int		nseats;
	int64_t		seat_player[STORE_MAX_SEATS];	/* 0: open seat */
	unsigned char	seed[STORE_SEED_BYTES];		/* secret until over */
	unsigned char	commitment[STORE_HASH_BYTES];	/* BLAKE2b(seed) */
	int		status;			/* enum store_game_status */
	int64_t		created;		/* unix seconds */
	/* Each seat's enum store_seat_status, read with the seats; read
	 * only (store_seat_update() writes it; a new game's seats play). */
	int		seat_status[STORE_MAX_SEATS];
	/* The hex SHA-256 of the game's card file (store_card_file_*), or
	 * "" for a game without cards (migration 15). */
	char		cards_hash[STORE_CARDS_HASH_HEX + 1];
};

/* Insert g with its seats (g->id is set). */
enum store_status store_game_add(struct store *st, struct store_game *g);
/* Fills g; g->options is malloc'd: free with store_game_clear(). */
enum store_status store_game_get(struct store *st, int64_t id,
    struct store_game *g);
void		store_game_clear(struct store_game *g);
enum store_status store_game_set_status(struct store *st, int64_t id,
    int status);
/* Give a seat to another player (replacement). */
enum store_status store_game_set_seat(struct store *st, int64_t id, int seat,
    int64_t player_id);
typedef int (*store_game_cb)(const struct store_game *g, void *arg);
/* Every game by id (administration and tests: no bound). */
enum store_status store_game_foreach(struct store *st, store_game_cb cb,
    void *arg);
/* One page of games: ids after `after`, in order, at most limit, with
 * the filters set.  The status and player filters go through indexes, so
 * a page costs its rows, not the number of games. */
struct store_game_query {
	int64_t		 after;		/* ids > after; 0 from the start */
	int		 limit;
	int		 status;	/* enum store_game_status; -1: any */
	const char	*ruleset;	/* NULL: any */
	int64_t		 player;	/* games with a seat of hers; 0: any */
};
enum store_status store_game_page(struct store *st,
    const struct store_game_query *q, store_game_cb cb, void *arg);
/* The forming games in which player_id holds a seat. */
enum store_status store_game_forming_count(struct store *st,
    int64_t player_id, int64_t *count);

/* ---- Card files (migration 15, docs/CARDFILES.md) --------------------- */

/* Keep a card file's bytes under hash (its hex SHA-256, which the caller
 * computed) for game; a file already kept is left as it is (STORE_OK).
 * len is 1..STORE_CARDS_MAX. */
enum store_status store_card_file_put(struct store *st, const char *hash,
    const char *game, const char *bytes, size_t len);
/* The bytes kept under hash (*bytes malloc'd, NUL-terminated after len
 * bytes) and the game they are for; STORE_NOTFOUND if none. */
enum store_status store_card_file_get(struct store *st, const char *hash,
    char game[STORE_RULESET_MAX], char **bytes, size_t *len);

/* ---- The move log ------------------------------------------------------ */

enum store_entry_kind {
	STORE_ENTRY_GENESIS = 0,	/* seq 0: the game's creation record */
	STORE_ENTRY_MOVE = 1,		/* a signed move by a seat */
	/* Entries the server writes and signs (docs/LOG.md, docs/ASYNC.md): */
	STORE_ENTRY_AUTO = 2,		/* a move played for a seat */
	STORE_ENTRY_SKIP = 3,		/* a seat's turn skipped */
	STORE_ENTRY_RESIGN = 4,		/* a seat resigned */
	STORE_ENTRY_REPLACE = 5,	/* a seat's player and key changed */
	STORE_ENTRY_CALL_OFF = 6,	/* the game ended by agreement */
	/* A move signed with the seat's hosted key (docs/PLAYING.md), after
	 * the player was authenticated by a mail reply token, or by a web
	 * session; checked exactly like STORE_ENTRY_MOVE. */
	STORE_ENTRY_HOSTED_MAIL = 7,
	STORE_ENTRY_HOSTED_WEB = 8,
	/* A move a bot chose for a seat the server plays, signed by the
	 * server like an automatic move (docs/SERVER-BOTS.md). */
	STORE_ENTRY_BOT = 9,
	/* Delegation (docs/LOG.md, docs/PROTOCOL.md section 13): the server's
	 * record of a player's certificate and of its revocation, and a move
	 * signed by a bot's key under a certificate recorded before it. */
	STORE_ENTRY_DELEGATION = 10,
	STORE_ENTRY_REVOCATION = 11,
	STORE_ENTRY_DELEGATED = 12
};

struct store_entry {
	int64_t		game_id;
	int64_t		seq;
	int		kind;			/* enum store_entry_kind */
	int		seat;			/* -1 for the genesis entry */
	char	       *text;			/* move text or genesis record */
	unsigned char	signature[STORE_SIG_BYTES];	/* the player's */
	unsigned char	state_hash[STORE_HASH_BYTES];	/* after this entry */
	unsigned char	prev_hash[STORE_HASH_BYTES];
	unsigned char	hash[STORE_HASH_BYTES];
	unsigned char	receipt[STORE_SIG_BYTES];	/* the server's */
	int64_t		time;			/* unix seconds */
	/* Read back only: the global event id, rising in commit order over
	 * all games (store_log_append() numbers the row; GET /v1/events). */
	int64_t		event_id;
};

/* Append e.  STORE_EXISTS if (game_id, seq) is already in the log. */
enum store_status store_log_append(struct store *st,
    const struct store_entry *e);
/* e->text is malloc'd; free it with store_entry_clear(). */
enum store_status store_log_get(struct store *st, int64_t game_id,
    int64_t seq, struct store_entry *e);
enum store_status store_log_last(struct store *st, int64_t game_id,
    struct store_entry *e);
/* Only the newest entry's seq and hash (what a cached state is checked
 * against), without reading its text. */
enum store_status store_log_head(struct store *st, int64_t game_id,
    int64_t *seq, unsigned char hash[STORE_HASH_BYTES]);
void		store_entry_clear(struct store_entry *e);
typedef int (*store_entry_cb)(const struct store_entry *e, void *arg);
/* Entries of one game in sequence order; stops if cb returns non-zero. */
enum store_status store_log_foreach(struct store *st, int64_t game_id,
    store_entry_cb cb, void *arg);

/* Entries of one game with seq > after and the given kind, in order;
 * stops if cb returns non-zero. */
enum store_status store_log_kind_after(struct store *st, int64_t game_id,
    int64_t after, int kind, store_entry_cb cb, void *arg);
/* Entries of one game with seq > after, in order, at most limit of them;
 * stops if cb returns non-zero. */
enum store_status store_log_range(struct store *st, int64_t game_id,
    int64_t after, int limit, store_entry_cb cb, void *arg);

/* Entries of every game with event_id > after_event, in event id order
 * (the order they were committed), at most limit of them; stops if cb
 * returns non-zero. */
enum store_status store_log_since(struct store *st, int64_t after_event,
    int limit, store_entry_cb cb, void *arg);

/* ---- One-line summaries ---------------------------------------------------- */

/* The English and French one-line summaries of entry seq, written with the
 * entry (in its transaction); STORE_EXISTS if it has them already.  get:
 * both malloc'd, or STORE_NOTFOUND (an entry from before schema 12). */
enum store_status store_summary_put(struct store *st, int64_t game_id,
    int64_t seq, const char *en, const char *fr);
enum store_status store_summary_get(struct store *st, int64_t game_id,
    int64_t seq, char **en, char **fr);

/* ---- State snapshots --------------------------------------------------- */

/* The module's saved state (JSON text) after entry seq. */
enum store_status store_snapshot_put(struct store *st, int64_t game_id,
    int64_t seq, const char *state);
/* The newest snapshot: *seq and *state (malloc'd). */
enum store_status store_snapshot_latest(struct store *st, int64_t game_id,
    int64_t *seq, char **state);
enum store_status store_snapshot_get(struct store *st, int64_t game_id,
    int64_t seq, char **state);
/* The newest snapshot at or before seq: *found and *state (malloc'd);
 * STORE_NOTFOUND if there is none. */
enum store_status store_snapshot_before(struct store *st, int64_t game_id,
    int64_t seq, int64_t *found, char **state);
/* Every snapshot of a game in one statement, oldest first: cb gets the
 * entry's seq and the state (malloc'd: the callback owns it); a non-zero
 * return stops the walk.  For a reader of a whole game (the audit). */
typedef int (*store_snapshot_cb)(int64_t seq, char *state, void *arg);
enum store_status store_snapshot_foreach(struct store *st, int64_t game_id,
    store_snapshot_cb cb, void *arg);
/* Remove the snapshot after entry seq, if there is one (a state the log
 * can rebuild from an older snapshot: docs/STORE.md, "Snapshots"). */
enum store_status store_snapshot_drop(struct store *st, int64_t game_id,
    int64_t seq);

/* Drop the snapshots of games that are over except each one's first and
 * newest: a finished game is read, never played on, and replay rebuilds
 * any state between from the first (docs/LOG.md, "Snapshots").  The
 * log is untouched, so an audit passes as before.  *removed: how many. */
enum store_status store_snapshot_prune_ended(struct store *st,
    int64_t *removed);

/* ---- The outbox (notifications delivered after commit) ----------------- */

enum store_outbox_status {
	STORE_OUTBOX_PENDING = 0,
	STORE_OUTBOX_SENT = 1,
	STORE_OUTBOX_FAILED = 2		/* permanent failure, reported */
};

struct store_outbox {
	int64_t		id;
	int64_t		game_id;		/* 0: about no game */
	int64_t		seq;
	char		channel[16];		/* "mail", "webhook", ... */
	char		recipient[STORE_EMAIL_MAX];
	char		event[32];		/* "turn", "accepted", ... */
	char	       *payload;		/* JSON text, malloc'd */
	int		status;			/* enum store_outbox_status */
	int		attempts;
	int64_t		next_attempt;		/* unix seconds */
	char		last_error[256];
};

/* Queue a notification (o->id is set). */
enum store_status store_outbox_add(struct store *st, struct store_outbox *o);
typedef int (*store_outbox_cb)(const struct store_outbox *o, void *arg);
/* Pending rows whose next_attempt <= now, oldest first, at most limit. */
enum store_status store_outbox_due(struct store *st, int64_t now, int limit,
    store_outbox_cb cb, void *arg);
/* The same for one channel only ("mail"), so that one worker's backlog
 * never hides another channel's rows. */
enum store_status store_outbox_due_channel(struct store *st,
    const char *channel, int64_t now, int limit, store_outbox_cb cb,
    void *arg);
enum store_status store_outbox_mark_sent(struct store *st, int64_t id);
/* Count a failed attempt; retry at next_attempt, or give up if permanent. */
enum store_status store_outbox_mark_failed(struct store *st, int64_t id,
    int64_t next_attempt, int permanent, const char *why);
/* Put a pending row off until next_attempt without counting an attempt
 * (a rate cap, not a failure); why is shown as its last_error. */
enum store_status store_outbox_defer(struct store *st, int64_t id,
    int64_t next_attempt, const char *why);
/* Number of pending rows. */
enum store_status store_outbox_pending(struct store *st, int64_t *count);
/* Remove at most limit rows delivered (status sent) and created before
 * `before'; *removed says how many went.  Pending and failed rows stay. */
enum store_status store_outbox_prune(struct store *st, int64_t before,
    int limit, int *removed);
/* The administrator's view of the queue (`pbemctl queue`, like mailq):
 * rows pending or failed for good with an id above after, oldest first,
 * at most limit; cb returning non-zero stops the walk (STORE_ERROR). */
enum store_status store_outbox_queue(struct store *st, int64_t after,
    int limit, store_outbox_cb cb, void *arg);
/* Try row id again now (like postsuper -r): pending, no attempts, due at
 * now, its last error cleared; a row failed for good comes back.
 * STORE_NOTFOUND when no waiting row has that id (already sent). */
enum store_status store_outbox_retry(struct store *st, int64_t id,
    int64_t now);
/* The same for every waiting row; *count: how many. */
enum store_status store_outbox_retry_all(struct store *st, int64_t now,
    int64_t *count);
/* Remove waiting row id without sending it (like postsuper -d);
 * STORE_NOTFOUND when no waiting row has that id. */
enum store_status store_outbox_drop(struct store *st, int64_t id);
/* Rows not yet delivered, by channel and status (STORE_OUTBOX_PENDING or
 * STORE_OUTBOX_FAILED): one call of cb per pair that has rows. */
typedef int (*store_outbox_depth_cb)(const char *channel, int status,
    int64_t count, void *arg);
enum store_status store_outbox_depth(struct store *st,
    store_outbox_depth_cb cb, void *arg);

/* ---- Backup and restore (store_backup.c) --------------------------------- */

/* Copy the database st is open on into a new file at dest with SQLite's
 * online backup, in one read transaction: a consistent copy even while
 * pbemd writes (WAL readers do not block writers).  The copy is written
 * to dest + ".partial" and renamed, so dest is whole or absent; an
 * existing dest is refused.  0600.  STORE_OK, or the reason in err. */
enum store_status store_backup(struct store *st, const char *dest,
    char *err, size_t errlen);
/* Replace the database at dbpath with the backup at src: src must pass
 * SQLite's integrity check and be a pbem database this build can open
 * (not newer); then its pages are copied over dbpath with the backup API
 * (WAL and all).  The caller makes sure no pbemd runs on dbpath. */
enum store_status store_restore(const char *src, const char *dbpath,
    char *err, size_t errlen);

/* ---- Webhook registrations (daemon/engine/webhook.h, docs/WEBHOOKS.md) -------- */

/*
 * A registration's outbox rows have channel "webhook" and the
 * registration's id, in decimal, for recipient.
 */
enum store_webhook_state {
	STORE_WEBHOOK_ACTIVE = 0,
	STORE_WEBHOOK_FAILING = 1,	/* kept failing; still retried */
	STORE_WEBHOOK_DISABLED = 2	/* not delivered to until enabled */
};

#define STORE_URL_MAX		1024
#define STORE_SECRET_MAX	128

struct store_webhook {
	int64_t		id;
	int64_t		game_id;		/* 0: every game */
	char		url[STORE_URL_MAX];
	char		secret[STORE_SECRET_MAX];
	char		events[256];		/* "move,game_over"; "": all */
	int		state;			/* enum store_webhook_state */
	int		failures;		/* consecutive failed attempts */
	char		last_error[256];
	int64_t		last_success;		/* unix seconds; 0: never */
	int64_t		created;		/* unix seconds */
	int64_t		pending;		/* read only: queued rows, or -1
						   where not counted */
	int64_t		player_id;		/* who registered it; 0: the
						   administrator */
	int64_t		retry_at;		/* read only: not tried before
						   (unix seconds); 0: now */
	char		format[16];		/* "pbem", "slack", "discord",
						   "mattermost" */
	char		lang[4];		/* "en", "fr": a chat format's */
};

/* Insert w (w->id and w->created are set; state and counters start at
 * zero whatever w says; w->player_id is kept).  STORE_ERROR if the game
 * or the player does not exist. */
enum store_status store_webhook_add(struct store *st, struct store_webhook *w);
enum store_status store_webhook_get(struct store *st, int64_t id,
    struct store_webhook *w);
typedef int (*store_webhook_cb)(const struct store_webhook *w, void *arg);
/* One page of registrations as GET /v1/webhooks lists them: id above
 * after, at most limit, by id; of one game only (game_id > 0; -1: any,
 * the global ones included) and of one player only (player_id > 0; 0:
 * anyone's, the administrator's included).  pending is counted. */
struct store_webhook_query {
	int64_t		after;
	int64_t		game_id;
	int64_t		player_id;
	int		limit;
};
enum store_status store_webhook_page(struct store *st,
    const struct store_webhook_query *q, store_webhook_cb cb, void *arg);
/* Every registration by id (game_id < 0), or those that apply to one game:
 * the global ones and that game's (game_id > 0; pending is then -1). */
enum store_status store_webhook_foreach(struct store *st, int64_t game_id,
    store_webhook_cb cb, void *arg);
/* Delete the registration and give up its pending rows (marked failed,
 * "webhook removed"), as one unit. */
enum store_status store_webhook_remove(struct store *st, int64_t id);
/* Set the state; ACTIVE also clears the failure count. */
enum store_status store_webhook_set_state(struct store *st, int64_t id,
    int state);
/* A 2xx answer: active again, failures 0, last_success = when, no
 * back-off. */
enum store_status store_webhook_delivered(struct store *st, int64_t id,
    int64_t when);
/* A failed attempt: count it, keep why, tried again no sooner than
 * retry_at (every queue of the registration), and mark the registration
 * failing once failures reaches failing_after.  *state is the state
 * after. */
enum store_status store_webhook_failed(struct store *st, int64_t id,
    int failing_after, const char *why, int64_t retry_at, int *state);
/* How many registrations players made: for one game (game_id > 0,
 * player_id 0), or by one player across every game (player_id > 0,
 * game_id 0).  The administrator's are not counted. */
enum store_status store_webhook_count(struct store *st, int64_t game_id,
    int64_t player_id, int64_t *count);
/* Due webhook rows that are the oldest pending row of their (recipient,
 * game) queue, of registrations neither disabled nor backing off
 * (retry_at after now); those of registrations with no failure in a row
 * first, then oldest first, at most limit.  Read first, then called
 * back, as store_outbox_due(). */
enum store_status store_outbox_webhook_due(struct store *st, int64_t now,
    int limit, store_outbox_cb cb, void *arg);
/* The earliest time a pending head row of an enabled registration is due
 * (its next_attempt, or its registration's retry_at if later);
 * STORE_NOTFOUND when there is none. */
enum store_status store_outbox_webhook_next(struct store *st, int64_t *when);

/* ---- After commit ------------------------------------------------------ */

/*
 * fn(arg) is called on the committing thread after every successful
 * store_commit() of any connection in this process (pbemd uses it to wake
 * its outbox workers).  Set it once, before any thread commits; NULL
 * removes it.
 */
void	store_set_commit_hook(void (*fn)(void *arg), void *arg);
/*
 * A number that grows after every commit in this process that changed
 * which player holds a seat (store_game_set_seat), a player's key
 * (store_player_set_key) or language (store_player_set_lang), and at
 * every store_open() (so that nothing
 * read from one database file answers for another).  A cache of seats and
 * keys reads it before it reads the rows, and keeps what it read only
 * while the number is the same (daemon/engine/seatkeys.c).  Writes by
 * another process are not counted.
 */
uint64_t store_seats_generation(void);
/* ---- Asynchronous play (store_async.c; docs/ASYNC.md) ------------------ */

/*
 * These tables are read and written by the scheduler, the seat, press
 * and observer commands, and (turns, observers) by every move; their
 * statements are prepared once per connection and kept, as the rest of
 * the store's are.  Every write here is meant to run inside the
 * caller's store_begin()/store_commit() together with its effect (a log
 * entry, an outbox row).
 */

/* A game's deadline policy, canonical JSON checked by daemon/engine/policy.c.
 * STORE_NOTFOUND: the game has none (no deadlines). */
enum store_status store_policy_get(struct store *st, int64_t game_id,
    char **policy);
enum store_status store_policy_set(struct store *st, int64_t game_id,
    const char *policy);

enum store_seat_status {
	STORE_SEAT_PLAYING = 0,
	STORE_SEAT_ABSENT = 1,		/* missed a deadline; seat offered */
	STORE_SEAT_RESIGNED = 2,
	/* missed a deadline under the "bot" policy: the bot plays the seat
	 * until its player moves again (docs/ASYNC.md) */
	STORE_SEAT_BOT = 3
};

struct store_seat {
	int64_t		game_id;
	int		seat;
	int64_t		player_id;		/* read only: see set_seat */
	int		status;			/* enum store_seat_status */
	int64_t		away_from;		/* vacation [from, until); 0 */
	int64_t		away_until;
	int64_t		away_used;		/* vacation seconds declared */
	int64_t		command_seq;		/* last signed command taken */
	int		call_off;		/* votes to call the game off */
};

enum store_status store_seat_get(struct store *st, int64_t game_id,
    int seat, struct store_seat *s);
/* Write every field but player_id (store_game_set_seat() changes that). */
enum store_status store_seat_update(struct store *st,
    const struct store_seat *s);

/* The clock of a game's current turn (or response window). */
struct store_turn {
	int64_t		game_id;
	int64_t		turn;		/* log seq that opened the turn */
	int64_t		last_seq;	/* last log seq the clock has seen */
	int64_t		started;	/* unix seconds */
	int		window;		/* 1: a response window */
	unsigned	waiting;	/* bit s: seat s was to act */
};

/* STORE_NOTFOUND before the scheduler first saw the game. */
enum store_status store_turn_get(struct store *st, int64_t game_id,
    struct store_turn *t);
/* Puts the clock and sets the game's due time to 0 (look at it next). */
enum store_status store_turn_put(struct store *st, const struct store_turn *t);

/* A game the scheduler should look at (store_turn_due()). */
struct store_due {
	int64_t		game_id;
	int		status;		/* enum store_game_status */
	char		ruleset[32];
};
#define STORE_DUE_NEVER	INT64_MAX	/* nothing due until a change */

/*
 * The games whose due time (migration 19) is at most now, earliest
 * first, at most limit of them, read through an index: the cost is that
 * of the games returned, however many are stored.  fn returns nonzero to
 * stop.  A game whose turns row does not exist is not listed: one is
 * made when a game starts.
 */
enum store_status store_turn_due(struct store *st, int64_t now, int limit,
    int (*fn)(const struct store_due *d, void *arg), void *arg);
/* Record the earliest time anything can be due in game_id (the
 * scheduler, in the transaction that worked it out); STORE_DUE_NEVER
 * for none until something changes. */
enum store_status store_turn_set_due(struct store *st, int64_t game_id,
    int64_t due);

/* Record that timer `what' (a short name: "reminder:3600", "deadline",
 * "outcome") fired for (game, turn, seat) at time when.  STORE_EXISTS if
 * it had already fired: the caller must then not repeat its effect. */
enum store_status store_timer_fire(struct store *st, int64_t game_id,
    int64_t turn, int seat, const char *what, int64_t when);
/* A game's master and pause (migration 13). */
struct store_master {
	int64_t		game_id;
	int64_t		player_id;	/* 0: no master named */
	int64_t		command_seq;	/* the master's last command number */
	int64_t		paused_at;	/* 0: running; else paused since */
	int64_t		paused_by;	/* the player who paused it; 0: the
					 * administrator (migration 16) */
};
/* STORE_OK with the row, or STORE_OK with a zeroed row (but game_id)
 * when the game has none. */
enum store_status store_master_get(struct store *st, int64_t game_id,
    struct store_master *m);
enum store_status store_master_put(struct store *st,
    const struct store_master *m);

/* The latest time a timer fired, in any game (0 when none has). */
enum store_status store_timer_latest(struct store *st, int64_t *when);

struct store_press {
	int64_t		id;
	int64_t		game_id;
	int		from_seat;
	unsigned	recipients;		/* bit s: seat s */
	char	       *body;			/* malloc'd when read */
	int64_t		created;
};

/* Record a message between players (p->id is set). */
enum store_status store_press_add(struct store *st, struct store_press *p);
typedef int (*store_press_cb)(const struct store_press *p, void *arg);
/* A game's messages, oldest first; stops if cb returns non-zero. */
enum store_status store_press_foreach(struct store *st, int64_t game_id,
    store_press_cb cb, void *arg);

struct store_observer {
	int64_t		game_id;
	char		email[STORE_EMAIL_MAX];
	char		lang[8];
	int64_t		created;
};

/* STORE_EXISTS if that address already watches the game. */
enum store_status store_observer_add(struct store *st,
    const struct store_observer *o);
/* STORE_NOTFOUND if it did not. */
enum store_status store_observer_remove(struct store *st, int64_t game_id,
    const char *email);
typedef int (*store_observer_cb)(const struct store_observer *o, void *arg);
/* Collects first, then calls cb: cb may write to the store. */
enum store_status store_observer_foreach(struct store *st, int64_t game_id,
    store_observer_cb cb, void *arg);
/* ---- The mail gateway's bookkeeping (docs/MAIL.md) --------------------- */

/* Remember an inbound Message-ID with what became of it (a short word:
 * "accepted", "rejected", "quarantined", ...) and, for a played move, its
 * log entry (game_id 0: none).  STORE_EXISTS if the id was seen before. */
enum store_status store_mail_seen_add(struct store *st,
    const char *message_id, int64_t game_id, int64_t seq,
    const char *outcome);
/* STORE_OK with the recorded outcome, or STORE_NOTFOUND. */
enum store_status store_mail_seen_get(struct store *st,
    const char *message_id, char *outcome, size_t outcomelen);
/* The Message-ID of the mail that played (game_id, seq), or
 * STORE_NOTFOUND (the move came another way). */
enum store_status store_mail_seen_move(struct store *st, int64_t game_id,
    int64_t seq, char *message_id, size_t idlen);
/* Count one reply to address in the window of `window' seconds that
 * started last; *allowed is 1 while at most max replies were counted in
 * it.  Replies to a verified sender (verified 1: a seat's registered
 * address, after its signature was checked) and to unverified mail
 * (verified 0) are counted apart.  Atomic across connections. */
enum store_status store_mail_rate_take(struct store *st, const char *address,
    int verified, int64_t when, int64_t window, int max, int *allowed);
/* The same count for every mail the sender sends to address (table
 * mail_send_rate): *allowed while at most max were counted in the
 * window, and *window_end, when the current window ends (the time to
 * put a refused row off to). */
enum store_status store_mail_send_take(struct store *st, const char *address,
    int64_t when, int64_t window, int max, int *allowed, int64_t *window_end);
/* Note that the message whose bytes hash to content_hash (BLAKE2b-256,
 * 64 hex digits) is being processed by process pid, in a transaction of
 * its own.  STORE_EXISTS, with nothing changed, if an earlier attempt is
 * still noted: that one never ended, its process died on the message. */
enum store_status store_mail_attempt_begin(struct store *st,
    const char *content_hash, int64_t pid);
/* The attempt ended, whatever became of the message: forget it. */
enum store_status store_mail_attempt_end(struct store *st,
    const char *content_hash);

/* ---- Playing by plain replies (store_hosted.c; migration 9) ------------ */

/*
 * Hosted keys: the Ed25519 secret key the server keeps for a player who
 * has none of their own, sealed (XChaCha20-Poly1305) with a key that is
 * never in the database.  The store only keeps the sealed bytes.
 */
#define STORE_HOSTED_NONCE	24
#define STORE_HOSTED_SEALED	80	/* 64-byte secret key + 16-byte tag */
enum store_status store_hosted_key_put(struct store *st, int64_t player_id,
    const unsigned char pubkey[STORE_KEY_BYTES],
    const unsigned char nonce[STORE_HOSTED_NONCE],
    const unsigned char sealed[STORE_HOSTED_SEALED]);
/* STORE_NOTFOUND if the player has no hosted key. */
enum store_status store_hosted_key_get(struct store *st, int64_t player_id,
    unsigned char pubkey[STORE_KEY_BYTES],
    unsigned char nonce[STORE_HOSTED_NONCE],
    unsigned char sealed[STORE_HOSTED_SEALED]);
/* Forget the hosted key for good (STORE_OK if there was none). */
enum store_status store_hosted_key_delete(struct store *st,
    int64_t player_id);
/* Mark the player's address confirmed. */
enum store_status store_player_confirm_email(struct store *st,
    int64_t player_id);
/* *pending = 1 if a player has this address (any case) and every player
 * with it still waits for its confirmation; 0 otherwise. */
enum store_status store_email_pending(struct store *st, const char *email,
    int *pending);
/* The first player with this address (any case), or STORE_NOTFOUND. */
enum store_status store_player_by_email(struct store *st, const char *email,
    struct store_player *p);

/* One-time tokens, kept by their hash only.  A reply token is bound to a
 * game, seat and the entry the your-turn mail was about (seq); a play
 * token (the sign-in link of a your-turn mail) to a game, seat and
 * player, with an expiry. */
struct store_token {
	unsigned char	hash[STORE_HASH_BYTES];
	int64_t		game_id;
	int		seat;
	int64_t		seq;		/* reply tokens */
	int64_t		player_id;
	int64_t		expires;	/* play tokens */
	int64_t		used;		/* 0: unused, else when */
};
/* INSERT OR IGNORE: the same token made twice is one row. */
enum store_status store_reply_token_add(struct store *st,
    const struct store_token *t);
enum store_status store_reply_token_get(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], struct store_token *t);
/* Mark used at `when'; STORE_EXISTS if it was used already. */
enum store_status store_reply_token_use(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], int64_t when);
enum store_status store_play_token_add(struct store *st,
    const struct store_token *t);
enum store_status store_play_token_get(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], struct store_token *t);
/* Mark used at `when'; STORE_EXISTS if used already, STORE_NOTFOUND if
 * unknown or expired. */
enum store_status store_play_token_use(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], int64_t when);

/* Sign-ups waiting for their address to be confirmed (code kept hashed).
 * player_id is set for a player registered over HTTP who waits for the
 * confirmation; 0 for a sign-up by mail (the player is made on
 * confirmation). */
struct store_signup {
	unsigned char	code_hash[STORE_HASH_BYTES];
	char		email[STORE_EMAIL_MAX];
	char		name[STORE_NAME_MAX];
	char		lang[8];
	int64_t		player_id;
	int64_t		created;
	int64_t		expires;
	int64_t		confirmed;	/* 0: not yet */
};
enum store_status store_signup_add(struct store *st,
    const struct store_signup *s);
enum store_status store_signup_get(struct store *st,
    const unsigned char code_hash[STORE_HASH_BYTES], struct store_signup *s);
/* Mark confirmed at `when' (with the player made, if any); STORE_EXISTS
 * if it was confirmed already. */
enum store_status store_signup_confirm(struct store *st,
    const unsigned char code_hash[STORE_HASH_BYTES], int64_t player_id,
    int64_t when);

/* ---- The web page's sessions (store_web.c; migration 10) --------------- */

/* A signed-in browser: the hash of its cookie's token, bound to one
 * player, game and seat until expires (unix seconds). */
struct store_web_session {
	unsigned char	hash[STORE_HASH_BYTES];
	int64_t		player_id;
	int64_t		game_id;
	int		seat;
	int64_t		created;
	int64_t		expires;
};
enum store_status store_web_session_add(struct store *st,
    const struct store_web_session *ws);
/* STORE_NOTFOUND if no session has this hash (expired ones are found:
 * the caller compares expires with the time). */
enum store_status store_web_session_get(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], struct store_web_session *ws);
/* Forget the sessions that expired at or before `before'. */
enum store_status store_web_session_prune(struct store *st, int64_t before);

/*
 * Delegation certificates (migration 18; docs/PROTOCOL.md section 13).
 * The engine checks the player's signature before adding one; the store
 * only keeps it.  revoked is the time of revocation, 0 while in force.
 */
#define STORE_DELEGATIONS_MAX	8	/* in force per player (the cap) */
struct store_delegation {
	char		id[17];			/* 16 hex digits */
	int64_t		player_id;
	unsigned char	bot_key[STORE_KEY_BYTES];
	int64_t		game_id;		/* 0: all games */
	int		scope;			/* 1 moves, 2 views */
	int64_t		issued, expires;
	unsigned char	signature[STORE_SIG_BYTES];	/* the player's */
	int64_t		revoked;
};
/* STORE_EXISTS if a certificate with this id is there already. */
enum store_status store_delegation_add(struct store *st,
    const struct store_delegation *dl);
enum store_status store_delegation_get(struct store *st, const char *id,
    struct store_delegation *dl);
/* The player's certificates not revoked and expiring after `now', oldest
 * first, at most max of them into out; *n says how many. */
enum store_status store_delegation_active(struct store *st,
    int64_t player_id, int64_t now, struct store_delegation *out,
    size_t max, size_t *n);
enum store_status store_delegation_revoke(struct store *st, const char *id,
    int64_t now);
/* The game's log records certificate id: add that fact, ask it (STORE_OK
 * or STORE_NOTFOUND), or list the games (at most max). */
enum store_status store_delegation_game_add(struct store *st,
    const char *id, int64_t game_id);
enum store_status store_delegation_game_has(struct store *st,
    const char *id, int64_t game_id);
enum store_status store_delegation_games(struct store *st, const char *id,
    int64_t *games, size_t max, size_t *n);

/*
 * Chat identities (migration 18; docs/API.md "Chat identities"): a code
 * a bot asked for (network, nick), kept as its BLAKE2b-256 hash, and the
 * confirmed links.  Nicks are stored folded (lower-case ASCII) by the
 * caller.
 */
#define STORE_CHAT_CODES_MAX	64	/* pending codes per bot */
enum store_status store_chat_code_add(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], int64_t bot_id,
    const char *network, const char *nick, int64_t expires);
/* Forget the codes that expired at or before now; *pending is how many
 * codes of bot_id remain. */
enum store_status store_chat_code_prune(struct store *st, int64_t bot_id,
    int64_t now, int64_t *pending);
/* Take the code with this hash (it is deleted): its network and nick
 * (buffers of 64 bytes), STORE_NOTFOUND if there is none in force. */
enum store_status store_chat_code_take(struct store *st,
    const unsigned char hash[STORE_HASH_BYTES], int64_t now, char *network,
    char *nick);
/* Link (network, nick) to player_id, replacing any earlier link. */
enum store_status store_chat_link_set(struct store *st, const char *network,
    const char *nick, int64_t player_id, int64_t now);
enum store_status store_chat_link_get(struct store *st, const char *network,
    const char *nick, int64_t *player_id);

/* A durability barrier: when it returns STORE_OK, every transaction
 * committed so far survives a power cut, whatever the synchronous
 * setting.  The mail sender calls it before delivering a batch. */
enum store_status store_sync(struct store *st);

#endif /* PBEM_STORE_H */
