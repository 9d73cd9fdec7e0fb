/*
 * migrations.c -- the store's schema, as an ordered list of migrations.
 *
 * Rules for this file (docs/STORE.md says why):
 *   - Never edit a migration that has shipped; add a new one at the end.
 *   - Each migration is plain SQL run by sqlite3_exec() inside the
 *     runner's transaction; it must not contain BEGIN/COMMIT or touch
 *     user_version itself.
 *   - CHECK constraints guard what is fixed for good (key, hash and
 *     signature sizes, the seat limit of the struct); values that may
 *     grow (entry kinds, game and outbox statuses) only get a lower
 *     bound, because widening a CHECK means rebuilding the table.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "migrations.h"

/* PRAGMA application_id of a pbem store: 'pbem' in ASCII. */
#define PBEM_APPLICATION_ID	0x7062656d

struct migration {
	int		 version;
	const char	*name;
	const char	*sql;
	/* Optional: run in the migration's transaction before sql; refuses
	 * a file the migration cannot take as it is, saying why.  0, or -1
	 * with err set. */
	int		(*check)(sqlite3 *db, char *err, size_t errlen);
};

/* 1: the initial schema. */
static const char migration_1[] =
	"PRAGMA application_id = 1885496685;\n"	/* PBEM_APPLICATION_ID */

	"CREATE TABLE meta (\n"
	"	key	TEXT PRIMARY KEY NOT NULL,\n"
	"	value	TEXT NOT NULL\n"
	");\n"

	"CREATE TABLE players (\n"
	"	id	INTEGER PRIMARY KEY,\n"
	"	name	TEXT NOT NULL UNIQUE CONSTRAINT name_size\n"
	"		    CHECK (length(CAST(name AS BLOB)) BETWEEN 1 AND 63),\n"
	"	email	TEXT NOT NULL CONSTRAINT email_size\n"
	"		    CHECK (length(CAST(email AS BLOB)) <= 255),\n"
	"	created	INTEGER NOT NULL\n"
	");\n"

	/* Every key a player ever had; revoked is NULL for the active one. */
	"CREATE TABLE player_keys (\n"
	"	id	INTEGER PRIMARY KEY,\n"
	"	player_id INTEGER NOT NULL REFERENCES players(id),\n"
	"	pubkey	BLOB NOT NULL UNIQUE CONSTRAINT pubkey_size\n"
	"		    CHECK (typeof(pubkey) = 'blob' AND length(pubkey) = 32),\n"
	"	created	INTEGER NOT NULL,\n"
	"	revoked	INTEGER\n"
	");\n"
	"CREATE UNIQUE INDEX player_keys_active ON player_keys(player_id)\n"
	"	WHERE revoked IS NULL;\n"

	"CREATE TABLE games (\n"
	"	id	INTEGER PRIMARY KEY,\n"
	"	ruleset	TEXT NOT NULL CONSTRAINT ruleset_size\n"
	"		    CHECK (length(CAST(ruleset AS BLOB)) BETWEEN 1 AND 31),\n"
	"	ruleset_version INTEGER NOT NULL,\n"
	"	options	TEXT NOT NULL,\n"
	"	nseats	INTEGER NOT NULL CONSTRAINT nseats_range\n"
	"		    CHECK (nseats BETWEEN 1 AND 8),\n"
	"	seed	BLOB NOT NULL CONSTRAINT seed_size\n"
	"		    CHECK (typeof(seed) = 'blob' AND length(seed) = 32),\n"
	"	commitment BLOB NOT NULL CONSTRAINT commitment_size\n"
	"		    CHECK (typeof(commitment) = 'blob'"
	" AND length(commitment) = 32),\n"
	"	status	INTEGER NOT NULL CONSTRAINT status_range\n"
	"		    CHECK (status >= 0),\n"
	"	created	INTEGER NOT NULL\n"
	");\n"

	/* player_id NULL: the seat is open. */
	"CREATE TABLE seats (\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	seat	INTEGER NOT NULL CONSTRAINT seat_range\n"
	"		    CHECK (seat BETWEEN 0 AND 7),\n"
	"	player_id INTEGER REFERENCES players(id),\n"
	"	PRIMARY KEY (game_id, seat)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX seats_player ON seats(player_id);\n"

	"CREATE TABLE log (\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	seq	INTEGER NOT NULL CONSTRAINT seq_range CHECK (seq >= 0),\n"
	"	kind	INTEGER NOT NULL CONSTRAINT kind_range CHECK (kind >= 0),\n"
	"	seat	INTEGER NOT NULL CONSTRAINT seat_range\n"
	"		    CHECK (seat BETWEEN -1 AND 7),\n"
	"	text	TEXT NOT NULL,\n"
	"	signature BLOB NOT NULL CONSTRAINT signature_size\n"
	"		    CHECK (typeof(signature) = 'blob'"
	" AND length(signature) = 64),\n"
	"	state_hash BLOB NOT NULL CONSTRAINT state_hash_size\n"
	"		    CHECK (typeof(state_hash) = 'blob'"
	" AND length(state_hash) = 32),\n"
	"	prev_hash BLOB NOT NULL CONSTRAINT prev_hash_size\n"
	"		    CHECK (typeof(prev_hash) = 'blob'"
	" AND length(prev_hash) = 32),\n"
	"	hash	BLOB NOT NULL CONSTRAINT hash_size\n"
	"		    CHECK (typeof(hash) = 'blob' AND length(hash) = 32),\n"
	"	receipt	BLOB NOT NULL CONSTRAINT receipt_size\n"
	"		    CHECK (typeof(receipt) = 'blob' AND length(receipt) = 64),\n"
	"	time	INTEGER NOT NULL,\n"
	"	PRIMARY KEY (game_id, seq)\n"
	");\n"
	/*
	 * The API has no way to change the log; these catch a mistake in
	 * hand-written SQL.  They are not a defence against someone with
	 * the file (they can drop them): that is the hash chain's job.
	 */
	"CREATE TRIGGER log_no_update BEFORE UPDATE ON log BEGIN\n"
	"	SELECT RAISE(ABORT, 'log is append-only: UPDATE refused');\n"
	"END;\n"
	"CREATE TRIGGER log_no_delete BEFORE DELETE ON log BEGIN\n"
	"	SELECT RAISE(ABORT, 'log is append-only: DELETE refused');\n"
	"END;\n"

	"CREATE TABLE snapshots (\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	seq	INTEGER NOT NULL CONSTRAINT seq_range CHECK (seq >= 0),\n"
	"	state	TEXT NOT NULL,\n"
	"	PRIMARY KEY (game_id, seq)\n"
	");\n"

	/*
	 * AUTOINCREMENT: an outbox id is never reused, even if sent rows are
	 * pruned one day, so receivers may use it to drop duplicates.
	 * game_id NULL: a notification about no game.
	 */
	"CREATE TABLE outbox (\n"
	"	id	INTEGER PRIMARY KEY AUTOINCREMENT,\n"
	"	game_id	INTEGER REFERENCES games(id),\n"
	"	seq	INTEGER,\n"
	"	channel	TEXT NOT NULL CONSTRAINT channel_size\n"
	"		    CHECK (length(CAST(channel AS BLOB)) BETWEEN 1 AND 15),\n"
	"	recipient TEXT NOT NULL CONSTRAINT recipient_size\n"
	"		    CHECK (length(CAST(recipient AS BLOB)) <= 255),\n"
	"	event	TEXT NOT NULL CONSTRAINT event_size\n"
	"		    CHECK (length(CAST(event AS BLOB)) BETWEEN 1 AND 31),\n"
	"	payload	TEXT NOT NULL,\n"
	"	status	INTEGER NOT NULL DEFAULT 0 CONSTRAINT status_range\n"
	"		    CHECK (status >= 0),\n"
	"	attempts INTEGER NOT NULL DEFAULT 0 CONSTRAINT attempts_range\n"
	"		    CHECK (attempts >= 0),\n"
	"	next_attempt INTEGER NOT NULL,\n"
	"	last_error TEXT NOT NULL DEFAULT '' CONSTRAINT last_error_size\n"
	"		    CHECK (length(CAST(last_error AS BLOB)) <= 255),\n"
	"	created	INTEGER NOT NULL\n"
	");\n";

/*
 * 2: players choose the language of their mail, and the outbox workers
 * find due rows without scanning every row ever sent.
 *
 * The index is partial: sent and failed rows, which pile up for ever, are
 * not in it, so it stays the size of the queue.  It is ordered by id with
 * next_attempt beside it, so "due rows, oldest first, at most N" walks it
 * in order, tests next_attempt without touching the table and stops after
 * N rows -- no sort, however long the backlog.  Queries must say
 * "status = 0" literally for SQLite to use a partial index.
 */
static const char migration_2[] =
	"ALTER TABLE players ADD COLUMN lang TEXT NOT NULL DEFAULT 'en'\n"
	"	CONSTRAINT lang_size\n"
	"	CHECK (length(CAST(lang AS BLOB)) BETWEEN 2 AND 7);\n"
	"CREATE INDEX outbox_pending ON outbox(id, next_attempt)\n"
	"	WHERE status = 0;\n";

/*
 * 3: webhook registrations (daemon/engine/webhook.h, docs/WEBHOOKS.md).
 *
 * A registration is global (game_id NULL) or for one game.  Its outbox
 * rows have channel 'webhook' and the registration's id, as text, for
 * recipient.  Delivery is in order per (registration, game), so the
 * worker asks "is there an earlier pending row of this queue?" for each
 * due row; the partial index webhook_queue answers that from the index
 * alone and holds only pending webhook rows.  state: 0 active, 1 failing
 * (still retried), 2 disabled (not delivered until enabled again).
 */
static const char migration_3[] =
	"CREATE TABLE webhooks (\n"
	"	id	INTEGER PRIMARY KEY AUTOINCREMENT,\n"
	"	game_id	INTEGER REFERENCES games(id),\n"
	"	url	TEXT NOT NULL CONSTRAINT url_size\n"
	"		    CHECK (length(CAST(url AS BLOB)) BETWEEN 1 AND 1023),\n"
	"	secret	TEXT NOT NULL CONSTRAINT secret_size\n"
	"		    CHECK (length(CAST(secret AS BLOB)) BETWEEN 16 AND 127),\n"
	"	events	TEXT NOT NULL DEFAULT '' CONSTRAINT events_size\n"
	"		    CHECK (length(CAST(events AS BLOB)) <= 255),\n"
	"	state	INTEGER NOT NULL DEFAULT 0 CONSTRAINT state_range\n"
	"		    CHECK (state >= 0),\n"
	"	failures INTEGER NOT NULL DEFAULT 0 CONSTRAINT failures_range\n"
	"		    CHECK (failures >= 0),\n"
	"	last_error TEXT NOT NULL DEFAULT '' CONSTRAINT last_error_size\n"
	"		    CHECK (length(CAST(last_error AS BLOB)) <= 255),\n"
	"	last_success INTEGER NOT NULL DEFAULT 0,\n"
	"	created	INTEGER NOT NULL\n"
	");\n"
	"CREATE INDEX webhooks_game ON webhooks(game_id);\n"
	"CREATE INDEX webhook_queue ON outbox(recipient, game_id, id)\n"
	"	WHERE status = 0 AND channel = 'webhook';\n";

/*
 * 4: asynchronous play (docs/ASYNC.md).
 *
 * game_policy holds each game's deadline policy as canonical JSON that
 * the core checks (daemon/engine/policy.c), so a new policy field needs no new
 * migration.  The seat columns say whether a seat plays, is absent
 * (offered to a replacement) or resigned, its declared vacation and the
 * vacation time it has used, the last number of a signed command it
 * sent, and its vote to call the game off.  turns holds the clock of a
 * game's current turn; timers records every reminder, deadline and
 * outcome the scheduler fired, written in the same transaction as its
 * effect, so the primary key is what stops anything firing twice.
 * press and observers are what their names say.
 */
static const char migration_4[] =
	"CREATE TABLE game_policy (\n"
	"	game_id	INTEGER PRIMARY KEY REFERENCES games(id),\n"
	"	policy	TEXT NOT NULL\n"
	");\n"
	"ALTER TABLE seats ADD COLUMN status INTEGER NOT NULL DEFAULT 0\n"
	"	CONSTRAINT seat_status_range CHECK (status >= 0);\n"
	"ALTER TABLE seats ADD COLUMN away_from INTEGER NOT NULL DEFAULT 0;\n"
	"ALTER TABLE seats ADD COLUMN away_until INTEGER NOT NULL DEFAULT 0;\n"
	"ALTER TABLE seats ADD COLUMN away_used INTEGER NOT NULL DEFAULT 0\n"
	"	CONSTRAINT away_used_range CHECK (away_used >= 0);\n"
	"ALTER TABLE seats ADD COLUMN command_seq INTEGER NOT NULL DEFAULT 0\n"
	"	CONSTRAINT command_seq_range CHECK (command_seq >= 0);\n"
	"ALTER TABLE seats ADD COLUMN call_off INTEGER NOT NULL DEFAULT 0\n"
	"	CONSTRAINT call_off_range CHECK (call_off IN (0, 1));\n"
	"CREATE TABLE turns (\n"
	"	game_id	INTEGER PRIMARY KEY REFERENCES games(id),\n"
	"	turn	INTEGER NOT NULL,\n"
	"	last_seq INTEGER NOT NULL,\n"
	"	started	INTEGER NOT NULL,\n"
	"	window	INTEGER NOT NULL,\n"
	"	waiting	INTEGER NOT NULL\n"
	");\n"
	"CREATE TABLE timers (\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	turn	INTEGER NOT NULL,\n"
	"	seat	INTEGER NOT NULL,\n"
	"	what	TEXT NOT NULL CONSTRAINT what_size\n"
	"		    CHECK (length(CAST(what AS BLOB)) BETWEEN 1 AND 31),\n"
	"	fired	INTEGER NOT NULL,\n"
	"	PRIMARY KEY (game_id, turn, seat, what)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE press (\n"
	"	id	INTEGER PRIMARY KEY AUTOINCREMENT,\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	from_seat INTEGER NOT NULL CONSTRAINT from_seat_range\n"
	"		    CHECK (from_seat BETWEEN 0 AND 7),\n"
	"	recipients INTEGER NOT NULL,\n"
	"	body	TEXT NOT NULL CONSTRAINT body_size\n"
	"		    CHECK (length(CAST(body AS BLOB)) BETWEEN 1 AND 1024),\n"
	"	created	INTEGER NOT NULL\n"
	");\n"
	"CREATE INDEX press_game ON press(game_id, id);\n"
	"CREATE TABLE observers (\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	email	TEXT NOT NULL CONSTRAINT email_size\n"
	"		    CHECK (length(CAST(email AS BLOB)) BETWEEN 3 AND 255),\n"
	"	lang	TEXT NOT NULL CONSTRAINT lang_size\n"
	"		    CHECK (length(CAST(lang AS BLOB)) BETWEEN 2 AND 7),\n"
	"	created	INTEGER NOT NULL,\n"
	"	PRIMARY KEY (game_id, email)\n"
	") WITHOUT ROWID;\n";

/*
 * 5: the mail gateway (docs/MAIL.md).  mail_seen remembers every inbound
 * Message-ID, so a message fetched twice (IMAP after a crash, an MTA that
 * retries a pipe delivery) is handled once; for a played move it names
 * the log entry, so the receipt mail can answer the player's own mail
 * (In-Reply-To).  mail_rate counts the replies sent to one address in
 * the current window, shared by every process that takes mail in.
 */
static const char migration_5[] =
	"CREATE TABLE mail_seen (\n"
	"	message_id TEXT PRIMARY KEY NOT NULL CONSTRAINT message_id_size\n"
	"		    CHECK (length(CAST(message_id AS BLOB)) BETWEEN 1 AND 995),\n"
	"	received INTEGER NOT NULL,\n"
	"	outcome	TEXT NOT NULL CONSTRAINT outcome_size\n"
	"		    CHECK (length(CAST(outcome AS BLOB)) BETWEEN 1 AND 63),\n"
	"	game_id	INTEGER REFERENCES games(id),\n"
	"	seq	INTEGER\n"
	");\n"
	"CREATE INDEX mail_seen_move ON mail_seen(game_id, seq)\n"
	"	WHERE game_id IS NOT NULL;\n"
	"CREATE TABLE mail_rate (\n"
	"	address	TEXT PRIMARY KEY NOT NULL CONSTRAINT address_size\n"
	"		    CHECK (length(CAST(address AS BLOB)) BETWEEN 1 AND 255),\n"
	"	window_start INTEGER NOT NULL,\n"
	"	count	INTEGER NOT NULL CONSTRAINT count_range CHECK (count >= 0)\n"
	") WITHOUT ROWID;\n";

/*
 * 6: the security review (issue 14).
 *
 * One player name per case-folded form: "Eve0" may not register beside
 * "eve0" (names are ASCII -- reqsig_valid_player() -- and SQLite's
 * lower() folds ASCII).  A file that already has such a pair is refused
 * by check_names_folded() with the names, and left at version 5 until
 * the administrator renames one (docs/STORE.md).
 * players_email finds the player of an address (mail ingestion) without
 * reading every player; games_status pages the games of one status;
 * mail_send_rate counts the mails sent to one address in the current
 * window (mail_send_per_hour), as mail_rate counts replies.
 */
static const char migration_6[] =
	"CREATE UNIQUE INDEX players_name_folded ON players(lower(name));\n"
	"CREATE INDEX players_email ON players(email COLLATE NOCASE);\n"
	"CREATE INDEX games_status ON games(status, id);\n"
	"CREATE TABLE mail_send_rate (\n"
	"	address	TEXT PRIMARY KEY NOT NULL CONSTRAINT address_size\n"
	"		    CHECK (length(CAST(address AS BLOB)) BETWEEN 1 AND 255),\n"
	"	window_start INTEGER NOT NULL,\n"
	"	count	INTEGER NOT NULL CONSTRAINT count_range CHECK (count >= 0)\n"
	") WITHOUT ROWID;\n";

/* Names equal but for case: refuse the file, naming the first groups
 * (one sort of the players, however many there are). */
static int
check_names_folded(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt	*s;
	size_t		 used;
	int		 rc, n = 0;

	rc = sqlite3_prepare_v2(db, "SELECT group_concat(id || ' \"' || "
	    "name || '\"', ' and ') FROM (SELECT id, name FROM players "
	    "ORDER BY id) GROUP BY lower(name) HAVING count(*) > 1 "
	    "ORDER BY min(id) LIMIT 5", -1, &s, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "migration 6: %s", sqlite3_errmsg(db));
		return -1;
	}
	snprintf(err, errlen, "migration 6 refused: players whose names "
	    "differ only by case (one name per case-folded form from schema "
	    "6 on; rename all but one of each, docs/STORE.md):");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		used = strlen(err);
		snprintf(err + used, errlen - used, "%s %s", n > 0 ? ";" : "",
		    (const char *)sqlite3_column_text(s, 0));
		n++;
	}
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "migration 6: %s", sqlite3_errmsg(db));
		n = 1;
	}
	sqlite3_finalize(s);
	return n > 0 ? -1 : 0;
}

/*
 * 7: who registered a webhook, and its own back-off (docs/WEBHOOKS.md).
 * player_id is the player whose signed request made the registration
 * (NULL: the administrator's); players see and remove only their own,
 * and the per-player cap counts them.  retry_at is when the delivery
 * thread may try the registration again after a failure: while it is in
 * the future none of its queues is due, so a dead receiver holds back
 * none of its other games' rows in a busy loop, nor anybody else's.
 */
static const char migration_7[] =
	"ALTER TABLE webhooks ADD COLUMN player_id INTEGER "
	"REFERENCES players(id);\n"
	"ALTER TABLE webhooks ADD COLUMN retry_at INTEGER NOT NULL DEFAULT 0;\n"
	"CREATE INDEX webhooks_player ON webhooks(player_id)\n"
	"	WHERE player_id IS NOT NULL;\n";

/*
 * 8: the mail gateway's limits (issue 14, docs/MAIL.md "Limits").
 * mail_attempt notes each inbound message (by the BLAKE2b-256 of its
 * bytes, in hex) while it is processed: a row left behind means the
 * process died on it, and the message is quarantined instead of read
 * again.  mail_rate counts replies to verified senders (a seat's
 * registered address after its signature was checked) apart from replies
 * to unverified mail, so that forged mail cannot spend a player's
 * budget; its counters are only the current window, so it is rebuilt
 * empty.
 */
static const char migration_8[] =
	"CREATE TABLE mail_attempt (\n"
	"	content_hash TEXT PRIMARY KEY NOT NULL CONSTRAINT content_hash_size\n"
	"		    CHECK (length(CAST(content_hash AS BLOB)) = 64),\n"
	"	started	INTEGER NOT NULL,\n"
	"	pid	INTEGER NOT NULL\n"
	") WITHOUT ROWID;\n"
	"DROP TABLE mail_rate;\n"
	"CREATE TABLE mail_rate (\n"
	"	address	TEXT NOT NULL CONSTRAINT address_size\n"
	"		    CHECK (length(CAST(address AS BLOB)) BETWEEN 1 AND 255),\n"
	"	sender_verified INTEGER NOT NULL CONSTRAINT sender_verified_bool\n"
	"		    CHECK (sender_verified IN (0, 1)),\n"
	"	window_start INTEGER NOT NULL,\n"
	"	count	INTEGER NOT NULL CONSTRAINT count_range CHECK (count >= 0),\n"
	"	PRIMARY KEY (address, sender_verified)\n"
	") WITHOUT ROWID;\n";

/*
 * Migration 9 (issue 12): playing by plain replies.  players.email_pending
 * marks an address not yet confirmed (game mail is never sent to it);
 * hosted_keys holds the secret key the server keeps for a player without
 * a key of their own, sealed with the key-encryption key of its own file
 * (never in the database); reply_tokens and play_tokens hold only the
 * BLAKE2b hash of each token; signups are the confirmation codes, hashed.
 */
static const char migration_9[] =
	"ALTER TABLE players ADD COLUMN email_pending INTEGER NOT NULL\n"
	"	DEFAULT 0 CONSTRAINT email_pending_flag CHECK (email_pending IN (0, 1));\n"
	"CREATE TABLE hosted_keys (\n"
	"	player_id INTEGER PRIMARY KEY REFERENCES players(id),\n"
	"	pubkey	BLOB NOT NULL CONSTRAINT pubkey_size\n"
	"		    CHECK (length(pubkey) = 32),\n"
	"	nonce	BLOB NOT NULL CONSTRAINT nonce_size CHECK (length(nonce) = 24),\n"
	"	sealed	BLOB NOT NULL CONSTRAINT sealed_size CHECK (length(sealed) = 80),\n"
	"	created	INTEGER NOT NULL\n"
	");\n"
	"CREATE TABLE reply_tokens (\n"
	"	token_hash BLOB PRIMARY KEY NOT NULL CONSTRAINT token_hash_size\n"
	"		    CHECK (length(token_hash) = 32),\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	seat	INTEGER NOT NULL CONSTRAINT seat_range CHECK (seat BETWEEN 0 AND 7),\n"
	"	seq	INTEGER NOT NULL CONSTRAINT seq_range CHECK (seq >= 0),\n"
	"	player_id INTEGER NOT NULL REFERENCES players(id),\n"
	"	created	INTEGER NOT NULL,\n"
	"	used	INTEGER\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE play_tokens (\n"
	"	token_hash BLOB PRIMARY KEY NOT NULL CONSTRAINT token_hash_size\n"
	"		    CHECK (length(token_hash) = 32),\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	seat	INTEGER NOT NULL CONSTRAINT seat_range CHECK (seat BETWEEN 0 AND 7),\n"
	"	player_id INTEGER NOT NULL REFERENCES players(id),\n"
	"	expires	INTEGER NOT NULL,\n"
	"	used	INTEGER\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE signups (\n"
	"	code_hash BLOB PRIMARY KEY NOT NULL CONSTRAINT code_hash_size\n"
	"		    CHECK (length(code_hash) = 32),\n"
	"	email	TEXT NOT NULL CONSTRAINT email_size\n"
	"		    CHECK (length(CAST(email AS BLOB)) BETWEEN 3 AND 255),\n"
	"	name	TEXT NOT NULL CONSTRAINT name_size\n"
	"		    CHECK (length(CAST(name AS BLOB)) BETWEEN 1 AND 63),\n"
	"	lang	TEXT NOT NULL CONSTRAINT lang_size\n"
	"		    CHECK (lang IN ('en', 'fr')),\n"
	"	player_id INTEGER REFERENCES players(id),\n"
	"	created	INTEGER NOT NULL,\n"
	"	expires	INTEGER NOT NULL,\n"
	"	confirmed INTEGER\n"
	") WITHOUT ROWID;\n";

/*
 * Migration 10 (issue 12, item 4): the web page's sessions.  A session
 * is made when a player follows the sign-in link of a your-turn mail
 * (play_tokens) and presses its button; the browser keeps the random
 * session token in a cookie, the database only its BLAKE2b hash, bound
 * to one player, game and seat, with its expiry.
 */
static const char migration_10[] =
	"CREATE TABLE web_sessions (\n"
	"	token_hash BLOB PRIMARY KEY NOT NULL CONSTRAINT token_hash_size\n"
	"		    CHECK (length(token_hash) = 32),\n"
	"	player_id INTEGER NOT NULL REFERENCES players(id),\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	seat	INTEGER NOT NULL CONSTRAINT seat_range CHECK (seat BETWEEN 0 AND 7),\n"
	"	created	INTEGER NOT NULL,\n"
	"	expires	INTEGER NOT NULL\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX web_sessions_expires ON web_sessions(expires);\n";

/*
 * 11: a global event id on every log row (docs/API.md, "Events"): one
 * number, rising in commit order over all games, that GET /v1/events
 * pages by and a Server-Sent Events client resumes from.  Rows already
 * there are numbered in the order they were inserted (their rowid); a
 * new row takes the largest id plus one (store_log.c), and SQLite's one
 * writer at a time makes that the commit order.  The append-only
 * trigger is dropped for the numbering and put back unchanged.
 */
static const char migration_11[] =
	"ALTER TABLE log ADD COLUMN event_id INTEGER;\n"
	"DROP TRIGGER log_no_update;\n"
	"UPDATE log SET event_id = rowid;\n"
	"CREATE TRIGGER log_no_update BEFORE UPDATE ON log BEGIN\n"
	"	SELECT RAISE(ABORT, 'log is append-only: UPDATE refused');\n"
	"END;\n"
	"CREATE UNIQUE INDEX log_event_id ON log(event_id);\n";

/*
 * 12: the one-line summary of each log entry, in English and French
 * (issue 13; docs/API.md "Summaries").  Written with the entry, in its
 * transaction, from what is public at that moment, so a page of events
 * reads it rather than replaying the game.  Not part of the hash chain:
 * an audit does not read it.  Entries recorded before schema 12 have
 * none, and the readers word a plain one.
 */
static const char migration_12[] =
	"CREATE TABLE summaries (\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	seq	INTEGER NOT NULL,\n"
	"	en	TEXT NOT NULL CONSTRAINT en_size\n"
	"		    CHECK (length(CAST(en AS BLOB)) BETWEEN 1 AND 1023),\n"
	"	fr	TEXT NOT NULL CONSTRAINT fr_size\n"
	"		    CHECK (length(CAST(fr AS BLOB)) BETWEEN 1 AND 1023),\n"
	"	PRIMARY KEY (game_id, seq)\n"
	") WITHOUT ROWID;\n";

/*
 * 13 (issue 21): the time zone a player reads times in (an
 * IANA name checked against the system's time zone database by the
 * engine; '' for UTC; times are still stored as UTC), and each game's
 * master and pause (docs/ASYNC.md, "The game master").
 */
static const char migration_13[] =
	"ALTER TABLE players ADD COLUMN tz TEXT NOT NULL DEFAULT ''\n"
	"	CONSTRAINT tz_size CHECK (length(CAST(tz AS BLOB)) <= 63);\n"
	/* A game's master (NULL: none named) with the number of their last
	 * signed command, and when the game was paused (0: running). */
	"CREATE TABLE game_masters (\n"
	"	game_id	INTEGER PRIMARY KEY REFERENCES games(id),\n"
	"	player_id INTEGER REFERENCES players(id),\n"
	"	command_seq INTEGER NOT NULL DEFAULT 0\n"
	"	    CONSTRAINT command_seq_range CHECK (command_seq >= 0),\n"
	"	paused_at INTEGER NOT NULL DEFAULT 0\n"
	");\n";

/*
 * 14: the body shape of a webhook's deliveries (issue 13, item 3;
 * docs/WEBHOOKS.md "Chat formats"): format is "pbem" (the signed JSON
 * event) or the incoming-webhook shape of a chat platform, and lang the
 * language of the summary a chat format posts.
 */
static const char migration_14[] =
	"ALTER TABLE webhooks ADD COLUMN format TEXT NOT NULL DEFAULT 'pbem'\n"
	"	CONSTRAINT format_name CHECK (format IN ('pbem', 'slack',\n"
	"	    'discord', 'mattermost'));\n"
	"ALTER TABLE webhooks ADD COLUMN lang TEXT NOT NULL DEFAULT 'en'\n"
	"	CONSTRAINT lang_name CHECK (lang IN ('en', 'fr'));\n";

/*
 * 15: card files (docs/CARDFILES.md, docs/STORE.md).  A card game plays
 * with a card set read from a card file; the file's bytes are kept once,
 * keyed by the hex SHA-256 of the bytes, with the game they are for and
 * their size, and each game names its file's hash (NULL: a game without
 * cards).  Rows are never changed: a different file is a different hash.
 */
static const char migration_15[] =
	"CREATE TABLE card_files (\n"
	"	hash	TEXT PRIMARY KEY NOT NULL CONSTRAINT hash_form\n"
	"		    CHECK (length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*'),\n"
	"	game	TEXT NOT NULL CONSTRAINT game_size\n"
	"		    CHECK (length(CAST(game AS BLOB)) BETWEEN 1 AND 31),\n"
	"	size	INTEGER NOT NULL CONSTRAINT size_range\n"
	"		    CHECK (size BETWEEN 1 AND 4194304),\n"
	"	bytes	BLOB NOT NULL CONSTRAINT bytes_size\n"
	"		    CHECK (typeof(bytes) = 'blob' AND length(bytes) = size),\n"
	"	created	INTEGER NOT NULL\n"
	") WITHOUT ROWID;\n"
	"ALTER TABLE games ADD COLUMN cards_hash TEXT\n"
	"	REFERENCES card_files(hash);\n";

/*
 * 16: who paused a game (issue 21: a move sent to a paused game is
 * refused naming who paused it and since when): the master's player id,
 * or 0 when the administrator paused it (pbemctl gm GAME pause).
 */
static const char migration_16[] =
	"ALTER TABLE game_masters ADD COLUMN paused_by INTEGER NOT NULL "
	"DEFAULT 0;\n";

/*
 * 17: players the server plays (docs/SERVER-BOTS.md): bot is the level
 * of a bot's player row, NULL for a person.
 */
static const char migration_17[] =
	"ALTER TABLE players ADD COLUMN bot TEXT\n"
	"	CONSTRAINT bot_level CHECK (bot IS NULL OR\n"
	"	    length(CAST(bot AS BLOB)) BETWEEN 1 AND 15);\n";

/*
 * 18: delegation certificates (issue 13, item 5; docs/PROTOCOL.md section
 * 13): a player's signed permission for a bot key to act for them, in
 * one game or all (game_id 0), for moves and views or views only, until
 * it expires or is revoked (revoked: the time, 0 while in force); and
 * the games whose log records it (delegation_games), so a bot's move is
 * accepted only in a game whose audit can check it.  Also the chat
 * identities a player links to their account (docs/API.md "Chat
 * identities").
 */
static const char migration_18[] =
	"CREATE TABLE delegations (\n"
	"	id	TEXT PRIMARY KEY CONSTRAINT id_hex\n"
	"		    CHECK (length(id) = 16),\n"
	"	player_id INTEGER NOT NULL REFERENCES players(id),\n"
	"	bot_key	BLOB NOT NULL CONSTRAINT bot_key_size\n"
	"		    CHECK (length(bot_key) = 32),\n"
	"	game_id	INTEGER NOT NULL CONSTRAINT game_range\n"
	"		    CHECK (game_id >= 0),\n"
	"	scope	INTEGER NOT NULL CONSTRAINT scope_value\n"
	"		    CHECK (scope IN (1, 2)),\n"
	"	issued	INTEGER NOT NULL,\n"
	"	expires	INTEGER NOT NULL,\n"
	"	signature BLOB NOT NULL CONSTRAINT signature_size\n"
	"		    CHECK (length(signature) = 64),\n"
	"	revoked	INTEGER NOT NULL DEFAULT 0\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX delegations_player ON delegations(player_id);\n"
	"CREATE TABLE delegation_games (\n"
	"	delegation_id TEXT NOT NULL REFERENCES delegations(id),\n"
	"	game_id	INTEGER NOT NULL REFERENCES games(id),\n"
	"	PRIMARY KEY (delegation_id, game_id)\n"
	") WITHOUT ROWID;\n"
	/* Chat identities (issue 13): a code a bot asked for a (network,
	 * nick), kept as its hash until it expires; and the confirmed
	 * links, one player per (network, nick as folded). */
	"CREATE TABLE chat_codes (\n"
	"	code_hash BLOB PRIMARY KEY CONSTRAINT code_hash_size\n"
	"		    CHECK (length(code_hash) = 32),\n"
	"	bot_id	INTEGER NOT NULL REFERENCES players(id),\n"
	"	network	TEXT NOT NULL,\n"
	"	nick	TEXT NOT NULL,\n"
	"	expires	INTEGER NOT NULL\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX chat_codes_bot ON chat_codes(bot_id);\n"
	"CREATE TABLE chat_links (\n"
	"	network	TEXT NOT NULL,\n"
	"	nick	TEXT NOT NULL,\n"
	"	player_id INTEGER NOT NULL REFERENCES players(id),\n"
	"	linked	INTEGER NOT NULL,\n"
	"	PRIMARY KEY (network, nick)\n"
	") WITHOUT ROWID;\n";

/*
 * 19 (issue 20): the scheduler looks only at the games that may have
 * something due, not at every running game.  turns.due is the earliest
 * time a game's next reminder, deadline or outcome can come, as the
 * scheduler last worked it out; 0 means "look at it on the next pass".
 * Whatever may bring a game's timers nearer sets it back to 0: a new
 * turn clock (store_turn_put(), after every log entry), and, by the
 * triggers below, a change to the game's seats (status, vacation), its
 * policy, its master's pause or its status -- so no code path can forget
 * to.  A game that starts gets its turns row here (last_seq -1: the
 * clock has not seen it yet), so the scheduler finds it.  turns_due
 * gives the pass the games with due <= now without reading the others.
 */
static const char migration_19[] =
	"ALTER TABLE turns ADD COLUMN due INTEGER NOT NULL DEFAULT 0;\n"
	"CREATE INDEX turns_due ON turns(due);\n"
	"INSERT INTO turns (game_id, turn, last_seq, started, window, waiting)\n"
	"	SELECT id, 0, -1, 0, 0, 0 FROM games WHERE status = 0\n"
	"	AND id NOT IN (SELECT game_id FROM turns);\n"
	"CREATE TRIGGER turns_due_game_insert AFTER INSERT ON games\n"
	"	WHEN NEW.status = 0 BEGIN\n"
	"	INSERT OR IGNORE INTO turns (game_id, turn, last_seq, started,\n"
	"	    window, waiting) VALUES (NEW.id, 0, -1, 0, 0, 0);\n"
	"END;\n"
	"CREATE TRIGGER turns_due_game_status AFTER UPDATE OF status ON games\n"
	"	BEGIN\n"
	"	INSERT OR IGNORE INTO turns (game_id, turn, last_seq, started,\n"
	"	    window, waiting) SELECT NEW.id, 0, -1, 0, 0, 0\n"
	"	    WHERE NEW.status = 0;\n"
	"	UPDATE turns SET due = 0 WHERE game_id = NEW.id;\n"
	"END;\n"
	"CREATE TRIGGER turns_due_seats AFTER UPDATE ON seats BEGIN\n"
	"	UPDATE turns SET due = 0 WHERE game_id = NEW.game_id;\n"
	"END;\n"
	"CREATE TRIGGER turns_due_policy_insert AFTER INSERT ON game_policy\n"
	"	BEGIN\n"
	"	UPDATE turns SET due = 0 WHERE game_id = NEW.game_id;\n"
	"END;\n"
	"CREATE TRIGGER turns_due_policy_update AFTER UPDATE ON game_policy\n"
	"	BEGIN\n"
	"	UPDATE turns SET due = 0 WHERE game_id = NEW.game_id;\n"
	"END;\n"
	"CREATE TRIGGER turns_due_master_insert AFTER INSERT ON game_masters\n"
	"	BEGIN\n"
	"	UPDATE turns SET due = 0 WHERE game_id = NEW.game_id;\n"
	"END;\n"
	"CREATE TRIGGER turns_due_master_update AFTER UPDATE ON game_masters\n"
	"	BEGIN\n"
	"	UPDATE turns SET due = 0 WHERE game_id = NEW.game_id;\n"
	"END;\n";

/*
 * Version 20: the outbox's delivered and failed rows, each in an index of
 * its own.  The retention pass (store_outbox_prune(), after every
 * scheduler pass) looked for delivered rows older than the retention by
 * walking the table in id order from its start, and the queue depth
 * (store_outbox_depth(), on every metrics scrape) counted the failed rows
 * by a scan: each read every row kept, a cost that grew with the mail of
 * the last outbox_keep_days.  With outbox_delivered the retention pass
 * reads only the rows it removes, and with outbox_failed the depth reads
 * only the rows it counts.
 */
static const char migration_20[] =
	"CREATE INDEX outbox_delivered ON outbox(created) WHERE status = 1;\n"
	"CREATE INDEX outbox_failed ON outbox(channel) WHERE status = 2;\n";

static const struct migration migrations[] = {
	{ 1, "initial schema", migration_1, NULL },
	{ 2, "players.lang and outbox_pending index", migration_2, NULL },
	{ 3, "webhooks and the webhook_queue index", migration_3, NULL },
	{ 4, "asynchronous play: policy, seat status, timers, press, "
	    "observers", migration_4, NULL },
	{ 5, "mail gateway: mail_seen and mail_rate", migration_5, NULL },
	{ 6, "security review: case-folded names, lookup indexes, "
	    "mail_send_rate", migration_6, check_names_folded },
	{ 7, "webhooks.player_id and webhooks.retry_at", migration_7, NULL },
	{ 8, "mail limits: mail_attempt, mail_rate by verified sender",
	    migration_8, NULL },
	{ 9, "replies to play: hosted keys, tokens, sign-ups, "
	    "players.email_pending", migration_9, NULL },
	{ 10, "web sessions", migration_10, NULL },
	{ 11, "log.event_id, the global event cursor", migration_11, NULL },
	{ 12, "one-line summaries of log entries", migration_12, NULL },
	{ 13, "players.tz, game_masters", migration_13, NULL },
	{ 14, "webhooks.format and webhooks.lang", migration_14, NULL },
	{ 15, "card files and games.cards_hash", migration_15, NULL },
	{ 16, "game_masters.paused_by", migration_16, NULL },
	{ 17, "players.bot, seats the server plays", migration_17, NULL },
	{ 18, "delegations, delegation_games, chat_codes, chat_links",
	    migration_18, NULL },
	{ 19, "turns.due, the scheduler's index", migration_19, NULL },
	{ 20, "outbox_delivered and outbox_failed indexes", migration_20,
	    NULL },
};

#define NMIGRATIONS	(sizeof(migrations) / sizeof(migrations[0]))

int
migrations_latest(void)
{
	return migrations[NMIGRATIONS - 1].version;
}

static enum store_status
fail(sqlite3 *db, int rc, char *err, size_t errlen, const char *fmt,
    const char *what)
{
	snprintf(err, errlen, fmt, what, sqlite3_errmsg(db));
	rc &= 0xff;
	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return STORE_BUSY;
	return STORE_ERROR;
}

/* Run one pragma or query whose answer is a single integer. */
static int
query_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt	*s;
	int		 rc;

	if ((rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL)) != SQLITE_OK)
		return rc;
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*out = sqlite3_column_int(s, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	return rc;
}

int
migrations_version(sqlite3 *db)
{
	int	 v;

	if (query_int(db, "PRAGMA user_version", &v) != SQLITE_OK)
		return -1;
	return v;
}

/*
 * Refuse files this build must not write: a newer schema, or a database
 * that belongs to another program (tables but no version, or a foreign
 * application_id).
 */
static enum store_status
check_file(sqlite3 *db, int version, char *err, size_t errlen)
{
	int	 appid, ntables, rc;

	if (version > migrations_latest()) {
		snprintf(err, errlen, "database schema version %d is newer "
		    "than this build of pbem knows (%d); refusing to open it "
		    "-- run a newer pbem", version, migrations_latest());
		return STORE_ERROR;
	}
	if ((rc = query_int(db, "PRAGMA application_id", &appid)) !=
	    SQLITE_OK)
		return fail(db, rc, err, errlen, "%s: %s", "application_id");
	if ((rc = query_int(db, "SELECT count(*) FROM sqlite_master",
	    &ntables)) != SQLITE_OK)
		return fail(db, rc, err, errlen, "%s: %s", "reading schema");
	if (version == 0 && ntables > 0) {
		snprintf(err, errlen, "not a pbem database: it has tables "
		    "but no pbem schema version");
		return STORE_ERROR;
	}
	if (version > 0 && appid != PBEM_APPLICATION_ID) {
		snprintf(err, errlen, "not a pbem database: application_id "
		    "is %#x, expected %#x", (unsigned)appid,
		    (unsigned)PBEM_APPLICATION_ID);
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* Fail if the migration left a row pointing at a missing parent. */
static enum store_status
check_foreign_keys(sqlite3 *db, const struct migration *m, char *err,
    size_t errlen)
{
	sqlite3_stmt	*s;
	int		 rc;

	rc = sqlite3_prepare_v2(db, "PRAGMA foreign_key_check", -1, &s, NULL);
	if (rc != SQLITE_OK)
		return fail(db, rc, err, errlen, "%s: %s",
		    "foreign_key_check");
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		snprintf(err, errlen, "migration %d (%s) leaves a row of "
		    "table %s without its parent in %s", m->version, m->name,
		    (const char *)sqlite3_column_text(s, 0),
		    (const char *)sqlite3_column_text(s, 2));
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW)
		return STORE_ERROR;
	if (rc != SQLITE_DONE)
		return fail(db, rc, err, errlen, "%s: %s",
		    "foreign_key_check");
	return STORE_OK;
}

/*
 * The body of one migration, inside its transaction.  Another process
 * may have run it while we waited for the lock, so look again.
 */
static enum store_status
apply(sqlite3 *db, const struct migration *m, char *err, size_t errlen)
{
	enum store_status	 status;
	char			 sql[64];
	int			 rc, version;

	if ((version = migrations_version(db)) < 0)
		return fail(db, SQLITE_ERROR, err, errlen, "%s: %s",
		    "user_version");
	if ((status = check_file(db, version, err, errlen)) != STORE_OK)
		return status;
	if (version >= m->version)
		return STORE_OK;

	if (m->check != NULL && m->check(db, err, errlen) != 0)
		return STORE_ERROR;
	if ((rc = sqlite3_exec(db, m->sql, NULL, NULL, NULL)) != SQLITE_OK) {
		snprintf(err, errlen, "migration %d (%s) failed: %s",
		    m->version, m->name, sqlite3_errmsg(db));
		return STORE_ERROR;
	}
	if ((status = check_foreign_keys(db, m, err, errlen)) != STORE_OK)
		return status;
	/* A pragma takes no parameters; the number is ours, not input. */
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", m->version);
	if ((rc = sqlite3_exec(db, sql, NULL, NULL, NULL)) != SQLITE_OK)
		return fail(db, rc, err, errlen, "%s: %s", "user_version");
	return STORE_OK;
}

/*
 * One migration in one transaction.  Foreign keys are switched off
 * around it (they cannot be toggled inside a transaction) so that a
 * migration may rebuild a table the SQLite way -- create, copy, drop,
 * rename; check_foreign_keys() then verifies the result before commit.
 */
static enum store_status
run_one(sqlite3 *db, const struct migration *m, char *err, size_t errlen)
{
	enum store_status	 status;
	int			 rc;

	if ((rc = sqlite3_exec(db, "PRAGMA foreign_keys = OFF", NULL, NULL,
	    NULL)) != SQLITE_OK)
		return fail(db, rc, err, errlen, "%s: %s", "foreign_keys");
	if ((rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL)) !=
	    SQLITE_OK)
		status = fail(db, rc, err, errlen, "%s: %s", "migration");
	else if ((status = apply(db, m, err, errlen)) != STORE_OK)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	else if ((rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)) !=
	    SQLITE_OK) {
		status = fail(db, rc, err, errlen, "%s: commit: %s", m->name);
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	}

	rc = sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	if (rc != SQLITE_OK && status == STORE_OK)
		status = fail(db, rc, err, errlen, "%s: %s", "foreign_keys");
	return status;
}

enum store_status
migrations_check(sqlite3 *db, char *err, size_t errlen)
{
	int	 version;

	if ((version = migrations_version(db)) < 0)
		return fail(db, SQLITE_ERROR, err, errlen, "%s: %s",
		    "reading user_version");
	return check_file(db, version, err, errlen);
}

enum store_status
migrate(sqlite3 *db, int target, char *err, size_t errlen)
{
	enum store_status	 status;
	size_t			 i;
	int			 version;

	if (target < 1 || target > migrations_latest()) {
		snprintf(err, errlen, "no schema version %d (this build "
		    "knows 1 to %d)", target, migrations_latest());
		return STORE_ERROR;
	}
	if ((version = migrations_version(db)) < 0)
		return fail(db, SQLITE_ERROR, err, errlen, "%s: %s",
		    "reading user_version");
	/* Refuse before taking any lock or writing anything. */
	if ((status = check_file(db, version, err, errlen)) != STORE_OK)
		return status;

	for (i = 0; i < NMIGRATIONS; i++) {
		const struct migration *m = &migrations[i];

		/* The list must be 1, 2, 3, ... with no gap. */
		assert(m->version == (int)i + 1);
		if (m->version <= version || m->version > target)
			continue;
		if ((status = run_one(db, m, err, errlen)) != STORE_OK)
			return status;
	}
	return STORE_OK;
}
