/*
 * command.c -- what players sign themselves besides moves: resign,
 * vacation, press, call off (engine.h; docs/PROTOCOL.md "Commands",
 * docs/ASYNC.md).
 *
 * A command is the ordinary signed block (docs/PROTOCOL.md) whose text
 * starts with a command keyword, in English or French:
 *
 *     resign                            abandonner
 *     vacation 2025-07-01 2025-07-14    vacances 2025-07-01 2025-07-14
 *     press all: text                   message tous : texte
 *     press 0,2: text                   message 0,2 : texte
 *     call off                          annuler la partie
 *     keep playing                      continuer la partie
 *     timezone Europe/Paris             fuseau Europe/Paris
 *     language fr                       langue en
 *
 * and the game master's, signed with the master's key whatever the
 * block's seat, numbered by the master's own command numbers:
 *
 *     gm extend 24h                     mj prolonger 24h
 *     gm force                          mj forcer
 *     gm pause / gm resume              mj pause / mj reprendre
 *     gm policy missed=default          mj politique missed=default
 *
 * The block's Seq is not the game's move number but the seat's command
 * number: any number above the last command the seat sent (the view's
 * next_command), so a signed command can never be played twice and a
 * command block can never pass for a move (no game reads these words as
 * a move; they are reserved).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine.h"

enum command {
	CMD_NONE = 0,
	CMD_RESIGN,
	CMD_VACATION,
	CMD_PRESS,
	CMD_CALL_OFF,
	CMD_KEEP_PLAYING,
	CMD_TIMEZONE,
	CMD_LANGUAGE,
	CMD_MASTER
};

static const struct {
	const char	*word;		/* folded: lower case, no accents */
	enum command	 cmd;
} keywords[] = {
	{ "resign", CMD_RESIGN },
	{ "abandonner", CMD_RESIGN },
	{ "vacation", CMD_VACATION },
	{ "vacances", CMD_VACATION },
	{ "press", CMD_PRESS },
	{ "message", CMD_PRESS },
	{ "call off", CMD_CALL_OFF },
	{ "annuler la partie", CMD_CALL_OFF },
	{ "keep playing", CMD_KEEP_PLAYING },
	{ "continuer la partie", CMD_KEEP_PLAYING },
	{ "timezone", CMD_TIMEZONE },
	{ "fuseau", CMD_TIMEZONE },
	{ "language", CMD_LANGUAGE },
	{ "langue", CMD_LANGUAGE },
	{ "gm", CMD_MASTER },
	{ "mj", CMD_MASTER },
};

/* The command text starts with, and the length of its keyword. */
static enum command
command_of(const char *folded, size_t *kwlen)
{
	size_t i, n;

	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		n = strlen(keywords[i].word);
		/* "Resign." and "call off!" are still commands. */
		if (strncmp(folded, keywords[i].word, n) == 0 &&
		    (folded[n] == '\0' || folded[n] == ' ' ||
		    folded[n] == ':' || strspn(folded + n, ".!") ==
		    strlen(folded + n))) {
			*kwlen = n;
			return keywords[i].cmd;
		}
	}
	return CMD_NONE;
}

int
engine_is_command(const char *text)
{
	char folded[PROTO_MOVE_MAX * 2];
	size_t n;

	rules_fold(text, folded, sizeof(folded));
	return command_of(folded, &n) != CMD_NONE;
}

int
engine_is_master_command(const char *text)
{
	char folded[PROTO_MOVE_MAX * 2];
	size_t n;

	rules_fold(text, folded, sizeof(folded));
	return command_of(folded, &n) == CMD_MASTER;
}

static void
refuse(struct engine_reply *reply, enum engine_status status,
    const char *msg)
{
	reply->status = status;
	snprintf(reply->message, sizeof(reply->message), "%s", msg);
}

/* "all"/"tous" or seats "0,2" (before the ':') into a mask. */
static int
read_recipients(const char *folded, unsigned *mask)
{
	char list[128], *item, *save, *end;
	long s;

	*mask = 0;
	if (strlen(folded) >= sizeof(list))
		return -1;		/* no list of seats is that long */
	memcpy(list, folded, strlen(folded) + 1);
	if (strcmp(list, "all") == 0 || strcmp(list, "tous") == 0) {
		*mask = 0xff;
		return 0;
	}
	for (item = strtok_r(list, ", ", &save); item != NULL;
	    item = strtok_r(NULL, ", ", &save)) {
		s = strtol(item, &end, 10);
		if (*end != '\0' || s < 0 || s >= STORE_MAX_SEATS)
			return -1;
		*mask |= 1u << s;
	}
	return *mask != 0 ? 0 : -1;
}

/* The player's signature, kept in the log's resign record. */
static json_t *
signed_record(const struct proto_move *m)
{
	char hex[2 * PROTO_SIG_BYTES + 1];

	proto_hex(m->signature, PROTO_SIG_BYTES, hex);
	return json_pack("{s:I, s:s, s:s}", "command", (json_int_t)m->seq,
	    "text", m->text, "signature", hex);
}

/* How the seat's player reads: engine_player_set_tz() or
 * engine_player_set_lang(). */
typedef enum engine_status (*player_setter)(struct store *, int64_t,
    const char *, enum rules_lang, char *, size_t);

/* "timezone ZONE", "language CODE": set value for the seat's player
 * with set, the seat's command number claimed in the same
 * transaction. */
static enum engine_status
set_own(struct store *st, const struct proto_move *m, player_setter set,
    const char *value, enum rules_lang lang, char *err, size_t errlen)
{
	struct store_game g;
	struct store_seat row;
	enum engine_status es;

	if (store_begin(st) != STORE_OK) {
		snprintf(err, errlen, "the store is busy: %s; try again",
		    store_errmsg(st));
		return ENGINE_BUSY;
	}
	memset(&g, 0, sizeof(g));
	if (store_game_get(st, m->game_id, &g) != STORE_OK ||
	    store_seat_get(st, m->game_id, m->seat, &row) != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		es = ENGINE_INTERNAL;
	} else if ((es = seats_claim_command(&row, m->seq, lang, err,
	    errlen)) == ENGINE_OK && store_seat_update(st, &row) !=
	    STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		es = ENGINE_INTERNAL;
	}
	if (es == ENGINE_OK)
		es = set(st, g.seat_player[m->seat], value, lang, err, errlen);
	store_game_clear(&g);
	if (es == ENGINE_OK && store_commit(st) != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		es = ENGINE_INTERNAL;
	}
	if (es != ENGINE_OK)
		store_rollback(st);
	return es;
}

static void
run_command(struct store *st, const struct serverkey *key,
    const struct proto_move *m, enum command cmd, const char *args,
    enum rules_lang lang, int64_t now, struct engine_reply *reply)
{
	char err[1024], a[64], b[64], extra;
	const char *colon, *body, *zone;
	enum engine_status es = ENGINE_OK;
	int64_t from, until, id;
	struct call_off_tally tally;
	unsigned mask;
	int fr = lang == RULES_LANG_FR;

	err[0] = '\0';
	switch (cmd) {
	case CMD_RESIGN:
		if (*args != '\0') {
			refuse(reply, ENGINE_SYNTAX, fr ? "écrivez seulement "
			    "« abandonner »" : "write just \"resign\"");
			return;
		}
		es = engine_resign(st, key, m->game_id, m->seat, m->seq,
		    signed_record(m), now, lang, err, sizeof(err));
		snprintf(reply->message, sizeof(reply->message), fr ?
		    "siège %d : abandon enregistré" : "seat %d resigned",
		    m->seat);
		break;
	case CMD_VACATION:
		if (strcmp(args, "cancel") == 0 || strcmp(args, "annuler") ==
		    0) {
			es = engine_vacation_cancel(st, m->game_id, m->seat,
			    m->seq, now, lang, err, sizeof(err));
			snprintf(reply->message, sizeof(reply->message), fr ?
			    "vacances annulées ; chaque siège en est informé" :
			    "vacation cancelled; every seat is told");
			break;
		}
		if (sscanf(args, "%63s %63s %c", a, b, &extra) != 2) {
			refuse(reply, ENGINE_SYNTAX, fr ? "écrivez « vacances "
			    "AAAA-MM-JJ AAAA-MM-JJ » (premier et dernier jour, "
			    "UTC) ou « vacances annuler »" : "write \"vacation "
			    "YYYY-MM-DD YYYY-MM-DD\" (first and last day, UTC) "
			    "or \"vacation cancel\"");
			return;
		}
		if ((from = clock_parse_date(a)) < 0 ||
		    (until = clock_parse_date(b)) < 0) {
			reply->status = ENGINE_SYNTAX;
			snprintf(reply->message, sizeof(reply->message), fr ?
			    "« %s » n'est pas une date AAAA-MM-JJ" :
			    "\"%s\" is not a date YYYY-MM-DD", from < 0 ? a : b);
			return;
		}
		es = engine_vacation(st, m->game_id, m->seat, m->seq, from,
		    until + 86400, now, lang, err, sizeof(err));
		snprintf(reply->message, sizeof(reply->message), fr ?
		    "vacances enregistrées du %s au %s (inclus, UTC) ; chaque "
		    "siège en est informé ; pour les annuler : « vacances "
		    "annuler »" : "vacation recorded from %s to %s (both "
		    "included, UTC); every seat is told; to cancel it: "
		    "\"vacation cancel\"", a, b);
		break;
	case CMD_PRESS:
		colon = strchr(m->text, ':');
		if (colon == NULL || (colon - m->text) >= (int)sizeof(a) ||
		    read_recipients(args, &mask) != 0) {
			refuse(reply, ENGINE_SYNTAX, fr ? "écrivez « message "
			    "tous : texte » ou « message 0,2 : texte »" :
			    "write \"press all: text\" or \"press 0,2: text\"");
			return;
		}
		body = colon + 1;
		while (*body == ' ')
			body++;
		es = engine_press_in(st, m->game_id, m->seat, m->seq, mask,
		    body, now, lang, &id, err, sizeof(err));
		snprintf(reply->message, sizeof(reply->message), fr ?
		    "message %lld envoyé" : "message %lld sent",
		    es == ENGINE_OK ? (long long)id : 0LL);
		break;
	case CMD_CALL_OFF:
	case CMD_KEEP_PLAYING:
		if (*args != '\0') {
			refuse(reply, ENGINE_SYNTAX, cmd == CMD_CALL_OFF ? (fr ?
			    "écrivez seulement « annuler la partie »" :
			    "write just \"call off\"") : (fr ? "écrivez "
			    "seulement « continuer la partie »" : "write just "
			    "\"keep playing\""));
			return;
		}
		es = engine_call_off(st, key, m->game_id, m->seat, m->seq,
		    cmd == CMD_CALL_OFF, now, &tally, lang, err, sizeof(err));
		if (tally.ended)
			snprintf(reply->message, sizeof(reply->message), fr ?
			    "tous les joueurs sont d'accord : la partie est "
			    "annulée" : "every player agreed: the game is "
			    "called off");
		else if (cmd == CMD_CALL_OFF)
			snprintf(reply->message, sizeof(reply->message), fr ?
			    "vote enregistré (%d sièges sur %d) ; la partie "
			    "s'arrête quand tous les joueurs l'auront demandé ; "
			    "pour retirer votre vote : « continuer la partie »" :
			    "vote recorded (%d of %d seats); the game ends when "
			    "every player has asked for it; to take your vote "
			    "back: \"keep playing\"", tally.votes, tally.needed);
		else
			snprintf(reply->message, sizeof(reply->message), fr ?
			    "vote retiré (%d sièges sur %d demandent "
			    "l'annulation)" : "vote taken back (%d of %d seats "
			    "ask to call the game off)", tally.votes,
			    tally.needed);
		break;
	case CMD_TIMEZONE:
		/* The zone as written: its case matters ("Europe/Paris"). */
		zone = m->text + strcspn(m->text, " ");
		zone += strspn(zone, " ");
		if (*args == '\0' || strchr(zone, ' ') != NULL) {
			refuse(reply, ENGINE_SYNTAX, fr ? "écrivez « fuseau "
			    "Europe/Paris » (un nom de la base des fuseaux "
			    "horaires, ou UTC)" : "write \"timezone "
			    "Europe/Paris\" (a name from the time zone database, "
			    "or UTC)");
			return;
		}
		es = set_own(st, m, engine_player_set_tz, zone, lang, err,
		    sizeof(err));
		snprintf(reply->message, sizeof(reply->message), fr ?
		    "les heures vous sont désormais données dans le fuseau %s" :
		    "times are now given to you in the time zone %s", zone);
		break;
	case CMD_LANGUAGE:
		if (sscanf(args, "%63s %c", a, &extra) != 1) {
			refuse(reply, ENGINE_SYNTAX, fr ? "écrivez « langue "
			    "fr » ou « langue en »" : "write \"language en\" "
			    "or \"language fr\"");
			return;
		}
		es = set_own(st, m, engine_player_set_lang, a, lang, err,
		    sizeof(err));
		/* Said in the language chosen. */
		snprintf(reply->message, sizeof(reply->message), "%s",
		    strcmp(a, "fr") == 0 ? "vos courriels, pages et réponses "
		    "sont désormais en français" : "your mails, pages and "
		    "answers are now in English");
		break;
	case CMD_NONE:
	case CMD_MASTER:	/* master_command(), before the seat's key */
		break;
	}
	reply->status = es;
	if (es != ENGINE_OK)
		snprintf(reply->message, sizeof(reply->message), "%s", err);
}

/* A signed command of the game's master: verified with the master's
 * key, whatever seat the block names.  words: the folded text after
 * "gm"/"mj"; the policy's assignment is read from the text as written. */
static void
master_command(struct store *st, const struct serverkey *key,
    const struct proto_move *m, const char *words, enum rules_lang lang,
    int64_t now, struct engine_reply *reply)
{
	struct engine_gm_command cmd;
	struct store_master gm;
	struct store_player p;
	char err[1024], verb[32], arg[128], extra;
	const char *raw;
	enum engine_status es;
	int64_t seconds;
	int n, fr = lang == RULES_LANG_FR;

	if (store_master_get(st, m->game_id, &gm) != STORE_OK ||
	    gm.player_id == 0 || store_player_get(st, gm.player_id, &p) !=
	    STORE_OK) {
		reply->status = ENGINE_REFUSED;
		snprintf(reply->message, sizeof(reply->message), fr ? "la "
		    "partie %lld n'a pas de maître du jeu" : "game %lld has no "
		    "game master", (long long)m->game_id);
		return;
	}
	if (proto_move_verify(m, p.pubkey) != PROTO_OK) {
		reply->status = ENGINE_BAD_SIGNATURE;
		snprintf(reply->message, sizeof(reply->message), fr ? "la "
		    "signature ne correspond pas à la clé du maître du jeu (%s)"
		    : "the signature does not match the key of the game "
		    "master (%s)", p.name);
		return;
	}
	n = sscanf(words, "%31s %127s %c", verb, arg, &extra);
	es = ENGINE_SYNTAX;
	err[0] = '\0';
	/* The answer is worded before the command runs: the engine queues
	 * it to the master in the transaction of the command's effect. */
	cmd.seq = m->seq;
	cmd.text = m->text;
	cmd.answer = reply->message;
	if (n == 2 && (strcmp(verb, "extend") == 0 || strcmp(verb,
	    "prolonger") == 0) && policy_read_duration(arg, &seconds) == 0) {
		snprintf(reply->message, sizeof(reply->message), fr ?
		    "tour prolongé de %s" : "turn extended by %s", arg);
		es = engine_master_extend(st, m->game_id, &cmd, seconds, lang,
		    err, sizeof(err));
	} else if (n == 1 && (strcmp(verb, "force") == 0 || strcmp(verb,
	    "forcer") == 0)) {
		snprintf(reply->message, sizeof(reply->message), fr ? "la "
		    "règle du délai manqué est appliquée" : "the missed-"
		    "deadline outcome is applied");
		es = engine_master_force(st, key, m->game_id, &cmd, now, lang,
		    err, sizeof(err));
	} else if (n == 1 && (strcmp(verb, "pause") == 0 || strcmp(verb,
	    "resume") == 0 || strcmp(verb, "reprendre") == 0)) {
		snprintf(reply->message, sizeof(reply->message), "%s",
		    strcmp(verb, "pause") == 0 ? (fr ? "partie en pause" :
		    "game paused") : (fr ? "partie reprise" : "game resumed"));
		es = engine_master_pause(st, m->game_id, &cmd,
		    strcmp(verb, "pause") == 0, now, lang, err, sizeof(err));
	} else if (n == 2 && (strcmp(verb, "policy") == 0 || strcmp(verb,
	    "politique") == 0) && (raw = strchr(m->text, '=')) != NULL) {
		/* NAME=VALUE as written (the name is lower case anyway). */
		while (raw > m->text && raw[-1] != ' ')
			raw--;
		snprintf(reply->message, sizeof(reply->message), fr ?
		    "politique modifiée : %s" : "policy changed: %s", raw);
		es = engine_master_policy(st, m->game_id, &cmd, raw, lang,
		    err, sizeof(err));
	} else
		snprintf(err, sizeof(err), fr ? "écrivez « mj prolonger 24h », "
		    "« mj forcer », « mj pause », « mj reprendre » ou « mj "
		    "politique CHAMP=VALEUR »" : "write \"gm extend 24h\", "
		    "\"gm force\", \"gm pause\", \"gm resume\" or \"gm "
		    "policy FIELD=VALUE\"");
	reply->status = es;
	if (es != ENGINE_OK)
		snprintf(reply->message, sizeof(reply->message), "%s", err);
}

void
engine_command(struct store *st, const struct serverkey *key,
    const char *text, size_t len, enum rules_lang lang, int64_t now,
    struct engine_reply *reply)
{
	struct proto_move m;
	struct store_game g;
	struct store_player p;
	struct store_entry last;
	char perr[512], folded[PROTO_MOVE_MAX * 2], args[PROTO_MOVE_MAX * 2];
	const char *colon;
	enum command cmd;
	size_t kwlen;

	memset(reply, 0, sizeof(*reply));
	memset(&g, 0, sizeof(g));
	switch (proto_move_find(text, len, &m, perr, sizeof(perr))) {
	case PROTO_OK:
		break;
	case PROTO_NOT_FOUND:
		refuse(reply, ENGINE_NO_BLOCK, perr);
		return;
	case PROTO_BAD_SIGNATURE:
		refuse(reply, ENGINE_BAD_SIGNATURE, perr);
		return;
	default:
		refuse(reply, ENGINE_MALFORMED, perr);
		return;
	}
	reply->game_id = m.game_id;
	rules_fold(m.text, folded, sizeof(folded));
	if ((cmd = command_of(folded, &kwlen)) == CMD_NONE) {
		refuse(reply, ENGINE_NOT_COMMAND, lang == RULES_LANG_FR ?
		    "ce bloc n'est pas une commande (abandonner, vacances, "
		    "message, annuler la partie, continuer la partie, "
		    "fuseau, langue)" : "this block is not a command (resign, "
		    "vacation, press, call off, keep playing, timezone, "
		    "language)");
		return;
	}
	if (store_game_get(st, m.game_id, &g) != STORE_OK) {
		snprintf(perr, sizeof(perr), lang == RULES_LANG_FR ? "il n'y a "
		    "pas de partie %lld" : "there is no game %lld",
		    (long long)m.game_id);
		refuse(reply, ENGINE_UNKNOWN_GAME, perr);
		return;
	}
	if (cmd == CMD_MASTER) {
		store_game_clear(&g);
		master_command(st, key, &m, folded + kwlen + strspn(folded +
		    kwlen, " "), lang, now, reply);
		return;
	}
	if (m.seat < 0 || m.seat >= g.nseats ||
	    store_player_get(st, g.seat_player[m.seat], &p) != STORE_OK) {
		snprintf(perr, sizeof(perr), lang == RULES_LANG_FR ? "la "
		    "partie %lld a les sièges 0 à %d ; il n'y a pas de siège "
		    "%d" : "game %lld has seats 0 to %d; there is no seat %d",
		    (long long)g.id, g.nseats - 1, m.seat);
		store_game_clear(&g);
		refuse(reply, ENGINE_BAD_SEAT, perr);
		return;
	}
	store_game_clear(&g);
	/* A refused command is answered with the game as it stands now. */
	memset(&last, 0, sizeof(last));
	if (store_log_last(st, m.game_id, &last) == STORE_OK)
		reply->next_seq = last.seq + 1;
	store_entry_clear(&last);
	if (proto_move_verify(&m, p.pubkey) != PROTO_OK) {
		snprintf(perr, sizeof(perr), lang == RULES_LANG_FR ? "la "
		    "signature ne correspond pas à la clé du siège %d (%s) "
		    "pour cette partie, ce numéro de commande et ce texte" :
		    "the signature does not match the key of seat %d (%s) for "
		    "this game, command number and text", m.seat, p.name);
		refuse(reply, ENGINE_BAD_SIGNATURE, perr);
		return;
	}
	/* The arguments after the keyword, up to a ':' for press. */
	snprintf(args, sizeof(args), "%s", folded + kwlen);
	if (cmd == CMD_PRESS && (colon = strchr(args, ':')) != NULL)
		args[colon - args] = '\0';
	memmove(args, args + strspn(args, " "), strlen(args + strspn(args,
	    " ")) + 1);
	while (strlen(args) > 0 && strchr(" .!", args[strlen(args) - 1]) !=
	    NULL)
		args[strlen(args) - 1] = '\0';
	run_command(st, key, &m, cmd, args, lang, now, reply);
}

void
engine_handle(struct store *st, const struct serverkey *key,
    const char *text, size_t len, enum rules_lang lang, int64_t now,
    struct engine_reply *reply)
{
	struct proto_move m;
	char perr[512];

	if (proto_move_find(text, len, &m, perr, sizeof(perr)) == PROTO_OK &&
	    engine_is_command(m.text))
		engine_command(st, key, text, len, lang, now, reply);
	else
		engine_submit(st, key, text, len, lang, reply);
}
