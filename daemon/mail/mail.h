/*
 * mail.h -- the mail gateway: moves by email in, per-player mail out.
 *
 * What the gateway promises (docs/MAIL.md has the reasons):
 *   - Every way in (a watched Maildir, IMAP polling, `pbemd deliver` on
 *     standard input) hands the raw RFC 5322 bytes to mail_ingest(), the
 *     one inbound path.  It answers with one outcome; the transport only
 *     files the message accordingly (processed, quarantined, or left for
 *     a later try on MAIL_TEMPFAIL).  A message is never dropped: what
 *     cannot be parsed is quarantined with its reason.
 *   - A message is acted on at most once: its Message-ID is remembered,
 *     and a signed block already in the log is never applied again.
 *   - One message costs memory in proportion to its size (the limits
 *     below), and a message the process died on is never read again: it
 *     is noted while processed, and found noted it is quarantined unread.
 *   - Automated mail (RFC 3834: bounces, Auto-Submitted other than "no",
 *     Precedence bulk/list/junk, an empty envelope sender) is never
 *     answered and never taken as a player's action.
 *   - Replies are queued in the outbox, never sent from the inbound path;
 *     anything that shows a seat's view goes to that seat's registered
 *     address only, and only after its signature was checked.  What goes
 *     back to an unverified sender holds no view at all.
 *   - Outbound, one worker delivers the outbox's "mail" rows after commit
 *     (SMTP, or a Maildir outbox by default), rendering each one from the
 *     recipient seat's own view at that sequence number.
 *
 * Files:
 *   mail_settings.c	the settings and their defaults
 *   mail_parse.c	a message -> headers and UTF-8 text (GMime)
 *   mail_block.c	which signed block of a text to play; commands
 *   mail_ingest.c	the inbound path
 *   mail_maildir.c	Maildir reading, writing, quarantine; the watcher
 *   mail_imap.c	the IMAP poller (libcurl)
 *   mail_deliver.c	`pbemd deliver`: one message on stdin, sysexits
 *   mail_render.c	an outbox row -> recipient, subject and body
 *   mail_picture.c	the HTML alternative of your-turn and game-over mail
 *   mail_notice.c	the notices of asynchronous play (reminders, ...)
 *   mail_compose.c	headers and MIME of an outgoing mail (GMime)
 *   mail_send.c	SMTP (libcurl) and the Maildir outbox
 *   mail_sender.c	the outbound worker: retries, backoff, reports
 *
 * Threads: each thread opens its own store connection; a tpl_set and a
 * mail_settings are read-only once the threads start.  mail_init() must
 * be called once, before any thread starts.
 */
#ifndef PBEM_MAIL_H
#define PBEM_MAIL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "serverkey.h"
#include "store.h"

struct gamestate;
struct mustache_buf;
struct tpl_set;

#define MAIL_ADDR_MAX	256
#define MAIL_PATH_MAX	512
#define MAIL_ID_MAX	996	/* a Message-ID with its NUL */

/* ---- mail_thread.c ------------------------------------------------------ */

/* A thread that calls tick(arg) every interval_ms until stopped; the
 * stop wakes it at once and waits for the tick in progress to end.
 * tick gets its own store connection, opened on the thread.  A tick
 * that returns non-zero has more to do at once: it is called again
 * without sleeping, unless a stop came meanwhile (so a backlog never
 * holds up pbemd's exit for longer than one tick). */
struct mail_loop;
typedef int (*mail_tick_fn)(struct store *st, void *arg);
struct mail_loop *mail_loop_start(const char *name, const char *dbpath,
	    int interval_ms, mail_tick_fn tick, void *arg, char *err,
	    size_t errlen);
void	mail_loop_stop(struct mail_loop *l);

/* ---- mail_settings.c ---------------------------------------------------- */

struct mail_settings {
	char	from[MAIL_ADDR_MAX];	/* From: of outgoing mail */
	char	from_name[64];		/* its display name */
	char	domain[128];		/* right side of our Message-IDs */
	char	admin[MAIL_ADDR_MAX];	/* gets reports of permanent
					 * failures; "" for none */
	char	maildir_in[MAIL_PATH_MAX];	/* watched; "" for none */
	char	maildir_out[MAIL_PATH_MAX];	/* outbox when no SMTP */
	char	quarantine[MAIL_PATH_MAX];	/* a Maildir */
	char	smtp_url[MAIL_PATH_MAX];	/* smtp:// or smtps://;
						 * "" for the Maildir */
	char	smtp_user[128];
	char	smtp_password[256];
	int	smtp_starttls;		/* 1: require STARTTLS */
	char	imap_url[MAIL_PATH_MAX];	/* imap(s)://host/MAILBOX;
						 * "" for none */
	char	imap_user[128];
	char	imap_password[256];
	int	imap_starttls;		/* 1: require STARTTLS */
	char	imap_done_folder[128];	/* move processed mail there */
	int	tls_verify;		/* check certificates */
	int	imap_interval;		/* seconds between polls */
	int	maildir_interval_ms;	/* between scans of maildir_in */
	int	send_interval_ms;	/* between outbox scans */
	size_t	max_size;		/* bytes of one inbound message */
	int	rate_max;		/* replies to one address ... */
	int	rate_window;		/* ... per this many seconds */
	int	retry_base;		/* seconds before the first retry */
	int	retry_max;		/* longest wait between retries */
	int	max_attempts;		/* then the failure is permanent */
	int	timeout;		/* seconds for one SMTP/IMAP exchange */
	int	send_per_hour;		/* mails sent to one address an
					 * hour at most; 0: no cap */
	/*
	 * The per-key rate limit of signed blocks, shared with the HTTP API
	 * (pbemd sets these to its one bucket per key; NULL, as in `pbemd
	 * deliver`, which has no memory between messages: no limit).
	 * key_check: may this key act now?  Takes nothing; 0 with
	 * *retry_after seconds if not.  key_charge: take the key's token,
	 * called once the block's signature proved good.  Both are called
	 * from the gateway's threads and must be thread-safe.
	 */
	int	(*key_check)(void *arg, const unsigned char key[32],
		    unsigned int *retry_after);
	void	(*key_charge)(void *arg, const unsigned char key[32]);
	void	*key_arg;
	int	open_registration;	/* sign-up by mail */
	/* Not mail_ options (mail_config.c): the key-encryption key of
	 * hosted keys ("" : no hosted play), the base of the links in
	 * mails (<public_base_url>/play/..., /confirm/...), and how many
	 * forming games a player may sit in, as over HTTP
	 * (forming_games_per_player; 0: no cap), for "new" and "join". */
	char	hosted_key_file[MAIL_PATH_MAX];
	char	public_base_url[MAIL_PATH_MAX];
	int	forming_games_per_player;
};

/* Fill s with the documented defaults (docs/MAIL.md, "Settings"): the
 * defaults of the options mail_NAME of daemon/runtime/conf.c's table, which
 * also gives each setting's type and range. */
void	mail_settings_default(struct mail_settings *s);
/* Set one setting by name ("smtp_url") from text; 0, or -1 with the
 * reason in err and s unchanged. */
int	mail_settings_set(struct mail_settings *s, const char *name,
	    const char *value, char *err, size_t errlen);
/* The same from "name=value". */
int	mail_settings_set_pair(struct mail_settings *s, const char *pair,
	    char *err, size_t errlen);
/* The i-th name mail_settings_set() knows; NULL past the last. */
const char *mail_settings_name(int i);

/* mail_config.c (pbemd only): every setting NAME from the configuration
 * option mail_NAME; 0, or -1 with err. */
struct config;
int	mail_settings_from_config(struct mail_settings *s,
	    const struct config *cfg, char *err, size_t errlen);

/* hosted_key_file (the option, else "<dbpath>.kek") and
 * public_base_url (no trailing '/') from the configuration; 0 or -1. */
int	mail_settings_links(struct mail_settings *s, const struct config *cfg,
	    const char *dbpath, char *err, size_t errlen);

/* GMime's and libcurl's global set-up; once per process, before any
 * thread. */
void	mail_init(void);
void	mail_shutdown(void);
/* A libcurl easy handle (a CURL *) for one SMTP or IMAP server: the
 * connect timeout, total_timeout seconds for a whole transfer, STARTTLS
 * required when starttls, certificates checked unless tls_verify is off,
 * a login when user is not "", libcurl's error text into cerr
 * (CURL_ERROR_SIZE bytes).  NULL if libcurl cannot make one. */
void	*mail_curl_handle(const struct mail_settings *s, const char *user,
	    const char *password, int starttls, long total_timeout,
	    char *cerr);

/* ---- mail_parse.c -------------------------------------------------------- */

/*
 * What a message may cost (docs/MAIL.md, "Limits").  The text searched
 * for a block is at most MAIL_TEXT_RATIO x the message + MAIL_TEXT_SLACK
 * bytes: a message whose text would be longer (an HTML quote bomb) is
 * refused by mail_parse() and so quarantined.  HTML quoting is written
 * MAIL_HTML_QUOTE_MAX levels deep at most.  A message with more than
 * MAIL_STRUCTURE_MAX lines that could be a header ("Name:" at the start)
 * or a MIME boundary ("--") is refused before GMime parses it: each costs
 * GMime's tree a few hundred bytes.
 */
#define MAIL_TEXT_RATIO		8
#define MAIL_TEXT_SLACK		(64 * 1024)
#define MAIL_HTML_QUOTE_MAX	16
#define MAIL_STRUCTURE_MAX	10000

/* What the gateway reads of a message.  Addresses are bare addr-specs;
 * no field holds a control character: an address or Message-ID with one
 * is taken as absent, other headers have them replaced by spaces. */
struct mail_msg {
	char	 message_id[MAIL_ID_MAX];	/* without <>; "" if none */
	char	 from[MAIL_ADDR_MAX];		/* "" if none */
	char	 reply_to[MAIL_ADDR_MAX];
	char	 return_path[MAIL_ADDR_MAX];	/* "" for <> */
	int	 has_return_path;
	char	 subject[512];			/* decoded, UTF-8 */
	char	 auto_submitted[64];		/* "" if absent */
	char	 precedence[32];
	int	 is_report;			/* multipart/report: a DSN */
	char	*text;			/* the text to search, UTF-8; malloc'd */
	size_t	 textlen;
	int	 from_html;		/* text was converted from HTML */
	char	 from_name[128];	/* From:'s display name, UTF-8 */
	char	 threading[2048];	/* In-Reply-To and References */
	char	 language[64];		/* Content-Language, else
					 * Accept-Language, lower case */
};

/* Parse raw (any line ends) with GMime: headers, and every text part
 * (text/plain preferred in multipart/alternative, HTML converted to text
 * otherwise; attached messages are not read) decoded from its transfer
 * encoding and charset into UTF-8, invalid bytes replaced.  0, or -1
 * with the reason in err (then m holds nothing to free): no header could
 * be read, or the text would pass the limit above. */
int	mail_parse(const char *raw, size_t len, struct mail_msg *m, char *err,
	    size_t errlen);
void	mail_msg_clear(struct mail_msg *m);
/* HTML to plain text for finding a block: tags dropped, block elements
 * end lines, <blockquote> quoted with "> " (at most MAIL_HTML_QUOTE_MAX
 * levels written: deeper ones look like the deepest), entities decoded,
 * script and style skipped.  Returns a malloc'd NUL-terminated string of
 * at most max bytes, or NULL when it would be longer (or out of memory):
 * never a truncated text. */
char	*mail_html_to_text(const char *html, size_t len, size_t max,
	    size_t *outlen);
/* Replace every control character of the UTF-8 string s (C0, DEL, C1)
 * with a space, in place: for text from a message that goes into a log
 * line or a header (the parser already does it for what it returns). */
void	mail_clean_text(char *s);

/* ---- mail_flowed.c ------------------------------------------------------- */

/* Lines of outgoing text for an 80-column client: each line longer than
 * width characters broken at spaces, continuations indented like the
 * line (two more under a "- " item); words longer than a line, `pbem
 * sign` commands and armoured blocks are never broken.  Returns a
 * malloc'd string, or NULL when out of memory. */
#define MAIL_WRAP_WIDTH	78
char	*mail_wrap(const char *text, size_t width);
/* The soft line breaks of format=flowed text joined (RFC 3676): with
 * delsp the space before each soft break is deleted; space-stuffing is
 * undone; quoted lines keep their depth ("> " before the joined line).
 * Returns a malloc'd string, or NULL when out of memory. */
char	*mail_unflow(const char *text, int delsp);

/* ---- mail_block.c -------------------------------------------------------- */

/* The offset of the line that opens the signed move block to play: the
 * least-quoted BEGIN line, the first of those if several; -1 if none.
 * A reply that quotes an older block below or above a new one plays the
 * new one. */
long	mail_block_pick(const char *text, size_t len);

enum mail_command {
	MAIL_CMD_NONE = 0,
	MAIL_CMD_HELP,		/* HELP, AIDE, ? */
	MAIL_CMD_STATUS		/* STATUS, ETAT, ÉTAT, STATUT */
};

/* The command a word is, case and accents and a trailing '.' or '!'
 * aside; *fr is set to 1 for a French word. */
enum mail_command mail_command_word(const char *word, int *fr);
/* An unsigned command: the subject, or the first unquoted, non-blank
 * line of the text, being exactly a command word. */
enum mail_command mail_command_find(const char *subject, const char *text,
	    size_t len, int *fr);

/* ---- mail_ingest.c ------------------------------------------------------- */

enum mail_outcome {
	MAIL_ACCEPTED = 0,	/* a move was played; the engine queued mail */
	MAIL_REJECTED,		/* a move or command was refused; answered */
	MAIL_COMMAND,		/* STATUS or HELP answered */
	MAIL_HELP,		/* no command found: a short help answered */
	MAIL_DUPLICATE,		/* seen before, or its move already played */
	MAIL_IGNORED,		/* automated mail: not acted on, no answer */
	MAIL_QUARANTINED,	/* kept aside with the reason; no answer */
	MAIL_TEMPFAIL		/* nothing changed; try again later */
};

const char *mail_outcome_name(enum mail_outcome o);

struct mail_result {
	enum mail_outcome	outcome;
	char			reason[512];	/* for the log, quarantine */
	char			code[32];	/* engine code, if any */
	char			message_id[MAIL_ID_MAX];
	int64_t			game_id;	/* of the move, if any */
	int64_t			seq;
	int			replied;	/* a reply was queued */
};

struct mail_ingest_ctx {
	struct store			*st;
	const struct serverkey		*key;
	const struct mail_settings	*set;
};

/* A reply to queue with the Message-ID record (mail_ingest.c and the
 * files it hands a message to: mail_reply.c, mail_account.c). */
struct mail_answer {
	char		 to[MAIL_ADDR_MAX];
	char		 event[32];
	int64_t		 game_id;
	int64_t		 seq;
	int		 verified;	/* to a seat, after its signature */
	json_t		*payload;	/* owned; NULL: no reply */
};
/* A reply holding no view (mail_help, mail_error, reply_error,
 * mail_account): event, lang, in_reply_to and game if > 0. */
void	mail_answer_plain(struct mail_answer *a, const char *to,
	    const char *event, const char *lang, const char *in_reply_to,
	    int64_t game_id);
/* A reply rendered from seat's view after entry seq, to the seat's
 * registered address to. */
void	mail_answer_seat(struct mail_answer *a, const char *to,
	    const char *event, int64_t game_id, int64_t seq, int seat,
	    const char *in_reply_to);

/*
 * Take one message in: raw is the whole RFC 5322 message (any line
 * ends).  While it runs, the message is noted in the store (mail_attempt,
 * by the hash of raw); a note already there means a process died on
 * these bytes, and the outcome is MAIL_QUARANTINED without parsing.  envelope_sender is the SMTP MAIL FROM when the transport knows
 * it ("" for the null sender <>), or NULL to take it from Return-Path.
 * Never fails: every case is an outcome in r.
 */
void	mail_ingest(struct mail_ingest_ctx *ctx, const char *raw, size_t len,
	    const char *envelope_sender, struct mail_result *r);

/* ---- mail_reply.c: replies to play (hosted players) --------------------- */

/* The reply token after "pbem-reply-" in s (lower-cased): 1, or 0. */
int	mail_reply_token_in(const char *s, size_t len, char *tok);
/* 1 if m looks forwarded (its subject, or a forward's separator). */
int	mail_is_forward(const struct mail_msg *m);
/* The move of a reply into out: the first line not quoted, not blank,
 * not an attribution nor a client's signature; 0, or -1 if none. */
int	mail_reply_move(const char *text, size_t len, char *out,
	    size_t outlen);
/* A reply_error answer for refusal code (reply_forwarded, reply_used,
 * ...) in lang, saying what was wrong and what to do. */
void	mail_reply_refusal(struct mail_answer *a, const char *to,
	    const char *code, const char *lang, const char *in_reply_to,
	    int64_t game_id);
/* If m carries a reply token (threading headers, else body): check it
 * and play the move, or refuse; the outcome in r, the answer in a.
 * Returns 1 if a token was found (m is handled), else 0. */
int	mail_reply_play(struct mail_ingest_ctx *ctx, const struct mail_msg *m,
	    const char *lang, struct mail_result *r, struct mail_answer *a);

/* ---- mail_account.c: sign-up, games, join, new, by mail ----------------- */

/* If the first unquoted line (or the subject) is an account command --
 * register/inscription, confirm/confirmer CODE, games/parties,
 * join/rejoindre N, new/nouvelle RULESET N players/joueurs -- do it and
 * set the answer; returns 1, else 0 (not one). */
int	mail_account(struct mail_ingest_ctx *ctx, const struct mail_msg *m,
	    const char *sender, struct mail_result *r, struct mail_answer *a);

/* ---- mail_delegate.c: a delegation certificate or revocation by mail --- */

/* 1 if text holds the line -----BEGIN PBEM DELEGATION----- or
 * -----BEGIN PBEM REVOCATION----- (docs/MAIL.md "Delegation"). */
int	mail_delegation_found(const char *text, size_t len);
/* Keep the certificate m carries (engine_delegation_submit()), or revoke
 * the one its signed revocation names (engine_delegation_revoke()), and
 * answer: to the sender if it does not read or names no player, else to
 * the player's registered address in their language. */
void	mail_delegation(struct mail_ingest_ctx *ctx, const struct mail_msg *m,
	    const char *reply_to, const char *lang, struct mail_result *r,
	    struct mail_answer *a);

/* ---- mail_maildir.c ------------------------------------------------------ */

/* Create DIR/{tmp,new,cur} as needed; 0 or -1 with err. */
int	maildir_make(const char *dir, char *err, size_t errlen);
/* Write a message into DIR/new (through tmp, fsync, rename).  name_hint
 * makes the file name unique and stable (NULL: a fresh unique name).
 * header, if not NULL, is prepended as is (a header line with CRLF or
 * LF).  0 or -1 with err. */
int	maildir_put(const char *dir, const char *name_hint, const char *header,
	    const char *data, size_t len, char *err, size_t errlen);

/*
 * A batch of outgoing messages into one Maildir, made durable together
 * (the sender's Maildir delivery): each is written into tmp/ unsynced;
 * maildir_batch_commit() then syncs each one's data (fdatasync, all
 * issued after every write), renames each into new/ and fsyncs new/ once.  A message counts as delivered only
 * when commit says so: its data and its name in new/ are on disk.
 */
#define MAILDIR_BATCH_MAX	64
struct maildir_batch {
	char	 dir[MAIL_PATH_MAX];
	int	 n;				/* messages in tmp/ */
	char	 name[MAILDIR_BATCH_MAX][256];
};
/* An empty batch into dir (made if need be).  0 or -1 with err. */
int	maildir_batch_begin(struct maildir_batch *b, const char *dir,
	    char *err, size_t errlen);
/* Write a message into tmp/ under name_hint (as maildir_put() names it):
 * its index in the batch, or -1 with err (the batch is full, or the
 * write failed; nothing is left in tmp/). */
int	maildir_batch_add(struct maildir_batch *b, const char *name_hint,
	    const char *data, size_t len, char *err, size_t errlen);
/* Make the batch's messages durable and visible; moved[i] says whether
 * message i now is (its data synced, renamed, and new/ synced).  0 when all
 * were, else -1 with the first error in err; a message not moved is
 * removed from tmp/.  The batch is empty afterwards. */
int	maildir_batch_commit(struct maildir_batch *b, int *moved, char *err,
	    size_t errlen);
/* Keep a message in the quarantine Maildir with an
 * X-Pbem-Quarantine-Reason: header at the top.  0 or -1. */
int	mail_quarantine(const struct mail_settings *s, const char *raw,
	    size_t len, const char *reason, char *err, size_t errlen);
/* Process every message now in DIR/new: ingest, then move it to cur/
 * with the Seen flag (or leave it on MAIL_TEMPFAIL).  Returns the number
 * of messages handled, or -1 if DIR/new cannot be read. */
int	maildir_scan(struct mail_ingest_ctx *ctx, const char *dir);

/* The watcher thread: scans maildir_in every maildir_interval_ms (stop
 * it with mail_loop_stop()). */
struct mail_loop *mail_watcher_start(const char *dbpath,
	    const struct serverkey *key, const struct mail_settings *s,
	    char *err, size_t errlen);

/* ---- mail_imap.c --------------------------------------------------------- */

/* One poll: every message of the mailbox not yet flagged $PbemDone is
 * fetched, ingested and flagged (and moved, if imap_done_folder is set).
 * Returns the number handled, or -1 with err. */
int	mail_imap_poll(struct mail_ingest_ctx *ctx, char *err, size_t errlen);
/* The poller thread: mail_imap_poll() every imap_interval seconds. */
struct mail_loop *mail_poller_start(const char *dbpath,
	    const struct serverkey *key, const struct mail_settings *s,
	    char *err, size_t errlen);

/* ---- mail_deliver.c ------------------------------------------------------ */

/* `pbemd deliver [-c file] [-d db] [-f sender] [-m name=value]...`: one
 * message from stdin; returns a <sysexits.h> code. */
int	mail_deliver_main(int argc, char **argv);

/* ---- mail_render.c ------------------------------------------------------- */

enum mail_auto {
	MAIL_AUTO_GENERATED = 0,	/* news: your turn, update, game over */
	MAIL_AUTO_REPLIED		/* answers to a player's mail */
};

struct mail_out {
	char		 to[MAIL_ADDR_MAX];
	char		 subject[512];
	char		*body;			/* UTF-8, malloc'd */
	char		*html;			/* the HTML alternative
						 * (UTF-8, malloc'd), or
						 * NULL for text only */
	char		 message_id[MAIL_ID_MAX];	/* without <> */
	char		 in_reply_to[MAIL_ID_MAX];	/* "" for none */
	char		 references[2 * MAIL_ID_MAX + 8];
	enum mail_auto	 autosub;
	int64_t		 game_id;
};

enum mail_render_status {
	MAIL_RENDER_OK = 0,
	MAIL_RENDER_SKIP,	/* nothing to send (no recipient) */
	MAIL_RENDER_RETRY,	/* store busy: try again later */
	MAIL_RENDER_FAIL,	/* can never be rendered */
	MAIL_RENDER_HELD	/* game mail to an unconfirmed address:
				 * never sent, recorded as such */
};

/* How long the sign-in link of a your-turn mail works (docs/PLAYING.md). */
#define MAIL_PLAY_TOKEN_TTL	(3 * 86400)

/* Render an outbox row of channel "mail".  On anything but OK, err says
 * why and out holds nothing to free. */
enum mail_render_status mail_render(struct store *st,
	    const struct tpl_set *tpl, const struct mail_settings *s,
	    const struct store_outbox *o, struct mail_out *out, char *err,
	    size_t errlen);
void	mail_out_clear(struct mail_out *out);
/* 1 if the gateway has a mail (a subject and a renderer) for event. */
int	mail_render_knows(const char *event);

/* Shared with mail_notice.c.  Open the row's game after entry seq (the
 * payload's "game" and "seq") into gs; for a seat's row (seat_row), also
 * the payload's "seat" into *seat and into p the player the row is
 * addressed to (the seat's player, or the one who held it when the row
 * was queued, if the seat has changed hands since).  On
 * MAIL_RENDER_OK the caller clears gs; on anything else err says why
 * and there is nothing to clear. */
enum mail_render_status mail_row_open(struct store *st,
	    const struct store_outbox *o, const json_t *pl, int seat_row,
	    struct gamestate *gs, int *seat, struct store_player *p, char *err,
	    size_t errlen);
/* The headers of a mail about event. */
void	mail_set_headers(const struct mail_settings *s,
	    const struct store_outbox *o, const char *event, const char *lang,
	    const char *title, int64_t game, int64_t seq,
	    const char *in_reply_to, struct mail_out *out);
/* mail_picture.c: the HTML alternative of seat's mail about gs -- the
 * picture the web page draws (players with card counts and scores, the
 * seat's hand and the discard area as cards, Enterprise vs Excelsior's
 * route), from seat's own view only, in lang, with the sign-in link
 * play_url (or NULL) as a button: templates/LANG/mail/picture.html
 * (HTML-escaped).  Tables and inline styles only: no script, no image,
 * no SVG.  A malloc'd string, or NULL with err. */
char	*mail_picture(struct store *st, const struct tpl_set *tpl,
	    struct gamestate *gs, int seat, const char *lang,
	    const char *play_url, char *err, size_t errlen);
/* The game template that shows viewer (a seat, or RULES_VIEW_PUBLIC) the
 * state gs: "your_turn", "waiting", "game_over" or "spectator". */
const char *mail_view_name(const struct gamestate *gs, int viewer);
/* Append template name of gs's game, rendered from viewer's view of gs
 * only (decorated by present_view(), with move forms when the seat acts
 * now, the seats' player names read from st and the deadlines of the
 * seats to act), in lang, times in zone ("" or NULL: UTC); hosted: the
 * reader answers in plain words (examples without `pbem sign`).  0, or
 * -1 with err. */
int	mail_view_body(struct store *st, const struct tpl_set *tpl,
	    struct gamestate *gs, int viewer, const char *lang,
	    const char *zone, int hosted, const char *name, const char *move,
	    const char *reason, struct mustache_buf *out, char *err,
	    size_t errlen);

/* ---- mail_notice.c ------------------------------------------------------- */

/*
 * The notices of asynchronous play (docs/ASYNC.md): game_started,
 * reminder, deadline, late, seat_offered, auto_move, skipped, resigned,
 * seat_taken, call_off_vote, press and the observers' rows.  (A game
 * called off, or ended by a resignation, is a game_over mail to every
 * seat, which says so through mail_notice_entry_note().)
 * Each is templates/LANG/mail/EVENT.txt.mustache, given the few fields
 * of its event and, where it shows the game, the recipient's own view
 * (a seat's, or the public view for an observer) rendered by the game's
 * template as `view'.  A press mail holds the message as recorded in the
 * press table and nothing else about the game.
 */
enum mail_render_status mail_notice_render(struct store *st,
	    const struct tpl_set *tpl, const struct mail_settings *s,
	    const struct store_outbox *o, const json_t *payload,
	    const char *event, struct mail_out *out, char *err, size_t errlen);
/* When entry gs->seq was written by the server (an automatic move, a
 * skipped turn, a resignation, a replacement, a game called off), append
 * what happened, for viewer (a seat or RULES_VIEW_PUBLIC) in lang; a
 * player's move appends nothing.  forced: the row that asks says
 * "forced" (the entry is the outcome of a "gm force" before the seat's
 * deadline, which the note then tells instead of a missed deadline).
 * 0, or -1 with err. */
int	mail_notice_entry_note(struct store *st, const struct tpl_set *tpl,
	    const struct gamestate *gs, int viewer, const char *lang,
	    int forced, struct mustache_buf *out, char *err, size_t errlen);
/* "Wednesday 3 January 2024, 09:00 UTC" / "mercredi 3 janvier 2024,
 * 09:00 UTC"; "2 days 6 hours" / "2 jours 6 heures". */
void	mail_notice_time(int64_t t, const char *lang, char *buf, size_t len);
void	mail_notice_duration(int64_t secs, const char *lang, char *buf,
	    size_t len);

/* ---- mail_policy.c ------------------------------------------------------- */

/* The policy fields in changed (name: new value, as policy_text() writes
 * them) in words, in lang, one clause per field joined by "; " in the
 * order of docs/ASYNC.md: "a turn now lasts 2 days; after a missed
 * deadline, the server plays the late seat's default move". */
void	mail_policy_change_words(const json_t *changed, const char *lang,
	    char *buf, size_t len);

/* ---- mail_compose.c ------------------------------------------------------ */

/* The whole message as bytes (malloc'd, *len set); crlf selects CRLF
 * line ends (SMTP) or LF (Maildir).  NULL only on out of memory. */
char	*mail_compose(const struct mail_settings *s, const struct mail_out *m,
	    int crlf, size_t *len);

/* ---- mail_send.c --------------------------------------------------------- */

enum mail_send_status {
	MAIL_SEND_OK = 0,
	MAIL_SEND_TEMP,		/* try again later */
	MAIL_SEND_PERM		/* the server refused it for good */
};

/* What a run of mail_send() calls keeps between them: the SMTP
 * connection, so that the mails of one batch share it.  Start zeroed;
 * mail_send_close() when the batch is done. */
struct mail_send_conn {
	void	*curl;		/* a CURL *, or NULL */
};

/* Deliver one composed message to rcpt by SMTP (smtp_url), through
 * conn's connection, opened if need be.  (The Maildir outbox is written
 * a batch at a time: maildir_batch_begin() and the rest, mail_maildir.c.) */
enum mail_send_status mail_send(const struct mail_settings *s,
	    struct mail_send_conn *conn, const char *rcpt, const char *data,
	    size_t len, char *err, size_t errlen);
void	mail_send_close(struct mail_send_conn *conn);

/* ---- mail_sender.c ------------------------------------------------------- */

/* Deliver the due "mail" rows once (at most limit); returns how many were
 * handled (sent, failed or skipped), or -1 on a store error. */
int	mail_sender_run_once(struct store *st, const struct tpl_set *tpl,
	    const struct mail_settings *s, int limit);
/* The seconds to wait after `attempts' failed tries. */
int64_t	mail_retry_delay(const struct mail_settings *s, int attempts);

/* The sender thread: mail_sender_run_once() every send_interval_ms. */
struct mail_loop *mail_sender_start(const char *dbpath,
	    const struct tpl_set *tpl, const struct mail_settings *s,
	    char *err, size_t errlen);

/* ---- mail_daemon.c ------------------------------------------------------ */

/* pbemd's part: start the Maildir watcher (when maildir_in is set), the
 * IMAP poller (when imap_url is set) and the sender; 0, or -1 with err
 * (then nothing runs).  mail_daemon_stop() stops whatever runs. */
int	mail_daemon_start(const char *dbpath, const struct serverkey *key,
	    const struct tpl_set *tpl, const struct mail_settings *s,
	    char *err, size_t errlen);
void	mail_daemon_stop(void);

#endif /* PBEM_MAIL_H */
