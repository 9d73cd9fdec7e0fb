/*
 * chatlink.c -- chat identities (engine.h; docs/API.md "Chat
 * identities"): a player links a (network, nick) to their account.
 *
 * A chat bot (a registered player with its own key) asks for a code for
 * the nick it sees; it sends the code to that nick privately; the player
 * returns it with a request signed by their own key, which proves the
 * person behind the nick holds the account.  The bot can then ask who a
 * (network, nick) is -- answered only when that player delegates to the
 * bot's key (delegate.c), so links are never a public directory.
 * Codes are random, kept as their hash, expire after ten minutes, and a
 * bot has at most STORE_CHAT_CODES_MAX pending.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "engine.h"
#include "refusal.h"

#define CHAT_CODE_LIFE	600	/* seconds */

/* Letters and digits that cannot be misread (no 0/o, 1/l/i). */
static const char code_alphabet[] = "abcdefghjkmnpqrstuvwxyz23456789";

static void
code_hash(const char *code, unsigned char hash[STORE_HASH_BYTES])
{
	crypto_generichash(hash, STORE_HASH_BYTES, (const unsigned char *)code,
	    strlen(code), NULL, 0);
}

int
engine_chat_name_fold(const char *network, const char *nick,
    char net_out[ENGINE_CHAT_NAME_MAX], char nick_out[ENGINE_CHAT_NAME_MAX])
{
	size_t i, nlen = strlen(network), klen = strlen(nick);

	if (nlen < 1 || nlen >= ENGINE_CHAT_NAME_MAX || klen < 1 ||
	    klen >= ENGINE_CHAT_NAME_MAX)
		return -1;
	for (i = 0; i < nlen; i++)
		if (!isalnum((unsigned char)network[i]) &&
		    strchr("._-", network[i]) == NULL)
			return -1;
	for (i = 0; i < klen; i++)
		if ((unsigned char)nick[i] <= 0x20 ||
		    (unsigned char)nick[i] >= 0x7f)
			return -1;
	for (i = 0; i <= nlen; i++)
		net_out[i] = (char)tolower((unsigned char)network[i]);
	for (i = 0; i <= klen; i++)
		nick_out[i] = (char)tolower((unsigned char)nick[i]);
	return 0;
}

static enum engine_status
bad_name(char *err, size_t errlen, enum rules_lang lang)
{
	return engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
	    "network must be 1-63 letters, digits, '.', '-' or '_' and nick "
	    "1-63 printable ASCII characters without spaces", "le réseau doit "
	    "faire 1 à 63 lettres, chiffres, '.', '-' ou '_', et le pseudo 1 "
	    "à 63 caractères ASCII imprimables sans espace");
}

enum engine_status
engine_chat_code(struct store *st, const struct store_player *bot,
    const char *network, const char *nick, int64_t now, enum rules_lang lang,
    char code[ENGINE_CHAT_CODE_LEN + 1], int64_t *expires, char *err,
    size_t errlen)
{
	unsigned char hash[STORE_HASH_BYTES];
	char net[ENGINE_CHAT_NAME_MAX], folded[ENGINE_CHAT_NAME_MAX];
	int64_t pending;
	int i;

	if (engine_chat_name_fold(network, nick, net, folded) != 0)
		return bad_name(err, errlen, lang);
	if (store_chat_code_prune(st, bot->id, now, &pending) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_BUSY, "store: %s",
		    store_errmsg(st));
	if (pending >= STORE_CHAT_CODES_MAX)
		return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "%s already has %d codes waiting; each expires %d minutes "
		    "after it was made", "%s a déjà %d codes en attente ; "
		    "chacun expire %d minutes après sa création", bot->name,
		    STORE_CHAT_CODES_MAX, CHAT_CODE_LIFE / 60);
	for (i = 0; i < ENGINE_CHAT_CODE_LEN; i++)
		code[i] = code_alphabet[randombytes_uniform(
		    sizeof(code_alphabet) - 1)];
	code[ENGINE_CHAT_CODE_LEN] = '\0';
	code_hash(code, hash);
	*expires = now + CHAT_CODE_LIFE;
	if (store_chat_code_add(st, hash, bot->id, net, folded, *expires) !=
	    STORE_OK)
		return engine_refusal(err, errlen, ENGINE_BUSY, "store: %s",
		    store_errmsg(st));
	return ENGINE_OK;
}

enum engine_status
engine_chat_link(struct store *st, const struct store_player *p,
    const char *code, int64_t now, enum rules_lang lang,
    char network[ENGINE_CHAT_NAME_MAX], char nick[ENGINE_CHAT_NAME_MAX],
    char *err, size_t errlen)
{
	unsigned char hash[STORE_HASH_BYTES];
	enum store_status sr;

	if (strlen(code) != ENGINE_CHAT_CODE_LEN ||
	    strspn(code, code_alphabet) != ENGINE_CHAT_CODE_LEN)
		return engine_refusal_in(err, errlen, ENGINE_BAD_REQUEST, lang,
		    "a link code is %d letters and digits, as the chat bot "
		    "sent it", "un code de liaison fait %d lettres et chiffres, "
		    "tel que le bot de discussion l'a envoyé",
		    ENGINE_CHAT_CODE_LEN);
	code_hash(code, hash);
	sr = store_chat_code_take(st, hash, now, network, nick);
	if (sr == STORE_NOTFOUND)
		return engine_refusal_in(err, errlen, ENGINE_REFUSED, lang,
		    "this code is unknown, used or expired (a code lasts %d "
		    "minutes); ask the chat bot for a new one", "ce code est "
		    "inconnu, déjà utilisé ou expiré (un code dure %d minutes) ; "
		    "demandez-en un nouveau au bot", CHAT_CODE_LIFE / 60);
	if (sr != STORE_OK || store_chat_link_set(st, network, nick, p->id,
	    now) != STORE_OK)
		return engine_refusal(err, errlen, ENGINE_BUSY, "store: %s",
		    store_errmsg(st));
	return ENGINE_OK;
}

enum engine_status
engine_chat_whois(struct store *st, const struct store_player *bot,
    const char *network, const char *nick, int64_t now, enum rules_lang lang,
    struct store_player *player, char *err, size_t errlen)
{
	char net[ENGINE_CHAT_NAME_MAX], folded[ENGINE_CHAT_NAME_MAX];
	int64_t id;

	if (engine_chat_name_fold(network, nick, net, folded) != 0)
		return bad_name(err, errlen, lang);
	/* One answer for "not linked" and "linked but not delegating to
	 * you": a bot learns nothing about players who did not choose it. */
	if (store_chat_link_get(st, net, folded, &id) != STORE_OK ||
	    store_player_get(st, id, player) != STORE_OK ||
	    !engine_delegates_to(st, player, bot->pubkey, now))
		return engine_refusal_in(err, errlen, ENGINE_UNKNOWN_GAME, lang,
		    "%s on %s is not linked to a player who delegates to %s",
		    "%s sur %s n'est pas lié à un joueur qui délègue à %s",
		    nick, network, bot->name);
	return ENGINE_OK;
}
