/*
 * bots.c -- seats the server plays (docs/SERVER-BOTS.md).
 *
 * A bot seat is held by a player row of its own whose "bot" column names
 * its level: it has no address (no mail is ever sent to it), and a key
 * whose secret half was thrown away when it was made, so nobody can sign
 * for it -- only the server plays it, by BOT entries it signs.  The seat
 * form the front-ends share is "@bot[:LEVEL][=NAME]".
 *
 * A seat the missed-deadline policy "bot" handed over (status
 * STORE_SEAT_BOT) is played by the normal bot too, until its player
 * moves again (docs/ASYNC.md).
 *
 * The bot's choice for the entry of sequence number n draws from the
 * game's bot stream of step n (rng_init_bot): a replay applies the
 * recorded text, and an audit holding the seed re-runs the choice.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "botname.h"
#include "engine.h"
#include "reqsig.h"
#include "rng.h"

#define BOT_PREFIX	"@bot"

int
engine_is_bot_spec(const char *text)
{
	return text != NULL && strncmp(text, BOT_PREFIX,
	    strlen(BOT_PREFIX)) == 0;
}

enum engine_status
engine_bot_spec_read(const char *text, struct engine_bot_spec *spec,
    char *err, size_t errlen)
{
	const char *p = text + strlen(BOT_PREFIX), *eq;
	char level[sizeof(spec->level_name)];
	size_t n;

	memset(spec, 0, sizeof(*spec));
	spec->level = RULES_BOT_NORMAL;
	snprintf(spec->level_name, sizeof(spec->level_name), "normal");
	if (!engine_is_bot_spec(text) || (*p != '\0' && *p != ':' &&
	    *p != '='))
		goto bad;
	if (*p == ':') {
		p++;
		eq = strchr(p, '=');
		n = eq != NULL ? (size_t)(eq - p) : strlen(p);
		if (n == 0 || n >= sizeof(level))
			goto bad;
		for (size_t i = 0; i < n; i++) {
			if (!isalpha((unsigned char)p[i]))
				goto bad;
			level[i] = (char)tolower((unsigned char)p[i]);
		}
		level[n] = '\0';
		/* A level of the game's own is checked when the game is
		 * made (engine_bot_level_check): it is played as normal. */
		spec->level = rules_bot_level(level);
		if (spec->level < 0)
			spec->level = RULES_BOT_NORMAL;
		snprintf(spec->level_name, sizeof(spec->level_name), "%s",
		    level);
		p += n;
	}
	if (*p == '=') {
		p++;
		if (strlen(p) >= sizeof(spec->name) ||
		    !reqsig_valid_player(p)) {
			snprintf(err, errlen, "\"%s\": a bot's name is letters, "
			    "digits, '.', '-' and '_' / le nom d'un robot "
			    "s'écrit en lettres, chiffres, « . », « - » et "
			    "« _ »", text);
			return ENGINE_BAD_REQUEST;
		}
		snprintf(spec->name, sizeof(spec->name), "%s", p);
	}
	return ENGINE_OK;
bad:
	snprintf(err, errlen, "\"%s\" is not a bot seat: write @bot, "
	    "@bot:LEVEL or @bot:LEVEL=NAME (levels random, normal and the "
	    "game's own) / « %s » n'est pas une place de robot : écrivez "
	    "@bot, @bot:NIVEAU ou @bot:NIVEAU=NOM (niveaux random, normal et "
	    "ceux du jeu)", text, text);
	return ENGINE_BAD_REQUEST;
}

enum engine_status
engine_bot_level_check(const struct rules_module *m,
    const struct engine_bot_spec *spec, char *err, size_t errlen)
{
	const char *const *own = rules_module_bot_levels(m);
	char list_en[256] = "random and normal", list_fr[256] =
	    "random et normal";
	size_t len;

	if (rules_bot_level_of(m, spec->level_name) >= 0)
		return ENGINE_OK;
	if (own != NULL && own[0] != NULL) {
		snprintf(list_en, sizeof(list_en), "random, normal");
		snprintf(list_fr, sizeof(list_fr), "random, normal");
	}
	for (int i = 0; own != NULL && own[i] != NULL; i++) {
		len = strlen(list_en);
		snprintf(list_en + len, sizeof(list_en) - len, ", %s", own[i]);
		len = strlen(list_fr);
		snprintf(list_fr + len, sizeof(list_fr) - len, ", %s", own[i]);
	}
	snprintf(err, errlen, "there is no bot level \"%s\" for %s; the "
	    "levels are %s / il n'y a pas de niveau de robot « %s » pour %s ; "
	    "les niveaux sont %s", spec->level_name, m->name, list_en,
	    spec->level_name, m->name, list_fr);
	return ENGINE_BAD_REQUEST;
}

enum engine_status
engine_bot_player_add(struct store *st, const struct engine_bot_spec *spec,
    int64_t *player_id, char *err, size_t errlen)
{
	unsigned char secret[crypto_sign_SECRETKEYBYTES];
	unsigned char tag[4];
	struct store_player p;
	char why[256];

	memset(&p, 0, sizeof(p));
	if (spec->name[0] != '\0')
		snprintf(p.name, sizeof(p.name), "%s", spec->name);
	else {
		randombytes_buf(tag, sizeof(tag));
		snprintf(p.name, sizeof(p.name), BOTNAME_PREFIX
		    "%02x%02x%02x%02x",
		    tag[0], tag[1], tag[2], tag[3]);
	}
	snprintf(p.lang, sizeof(p.lang), "en");
	snprintf(p.bot, sizeof(p.bot), "%s", spec->level_name);
	p.email_pending = 1;		/* no address: no mail, ever */
	crypto_sign_keypair(p.pubkey, secret);
	sodium_memzero(secret, sizeof(secret));
	switch (store_player_add(st, &p)) {
	case STORE_OK:
		*player_id = p.id;
		if (store_player_set_bot(st, p.id, p.bot) != STORE_OK) {
			snprintf(err, errlen, "store: %s", store_errmsg(st));
			return ENGINE_INTERNAL;
		}
		return ENGINE_OK;
	case STORE_EXISTS:
		engine_player_exists_reason(st, &p, RULES_LANG_EN, why,
		    sizeof(why));
		snprintf(err, errlen, "bot %s: %s", p.name, why);
		return ENGINE_BAD_REQUEST;
	default:
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return ENGINE_INTERNAL;
	}
}

int
engine_seat_bot_level(struct store *st, struct gamestate *gs, int seat)
{
	const struct store_player *p;
	int level;

	if (seat < 0 || seat >= gs->game.nseats)
		return -1;
	if (gs->game.seat_status[seat] == STORE_SEAT_BOT)
		return RULES_BOT_NORMAL;
	if (gs->game.seat_player[seat] == 0 ||
	    (p = gamestate_seat_player(st, gs, seat)) == NULL ||
	    p->bot[0] == '\0')
		return -1;
	level = rules_bot_level(p->bot);
	return level < 0 ? RULES_BOT_NORMAL : level;
}

enum engine_status
engine_bot_choose(const struct gamestate *gs, int seat, int level,
    int64_t seq, char *out, size_t outlen)
{
	struct rules_rng rng;

	rng_init_bot(&rng, gs->game.seed, (uint64_t)seq);
	if (rules_bot_move(gs->module, gs->state, seat, level, &rng, out,
	    outlen) != RULES_OK)
		return ENGINE_REFUSED;
	return ENGINE_OK;
}

enum engine_status
engine_bot_play(struct store *st, const struct serverkey *key,
    struct gamestate *gs, int seat, int level, int64_t now, char *err,
    size_t errlen)
{
	char move[PROTO_MOVE_MAX + 1];

	if (engine_bot_choose(gs, seat, level, gs->seq + 1, move,
	    sizeof(move)) != ENGINE_OK) {
		snprintf(err, errlen, "the %s bot has no move for seat %d",
		    rules_bot_level_name(level), seat);
		return ENGINE_REFUSED;
	}
	return engine_server_entry(st, key, gs, STORE_ENTRY_BOT, seat, move,
	    "auto_move", 0, now, err, errlen);
}
