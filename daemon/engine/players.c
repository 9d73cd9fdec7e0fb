/*
 * players.c -- what the engine says about registering players (engine.h):
 * why a new player was refused as a duplicate, for HTTP and pbemctl alike.
 *
 * Names are unique once folded to lower case (ASCII: a name is letters,
 * digits, '.', '-' and '_'; reqsig_valid_player()), so "Eve0" cannot
 * register beside "eve0" and pass for her in a game's list of players.
 * The store enforces it (index players_name_folded, docs/STORE.md); this
 * file only words the refusal.
 *
 * It also sets the language a player reads in (en or fr) and the time
 * zone a player reads times in, once the system's
 * time zone database knows the name (timetext.h).
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "timetext.h"

void
engine_player_exists_reason(struct store *st, const struct store_player *p,
    enum rules_lang lang, char *why, size_t len)
{
	struct store_player other;
	int fr = lang == RULES_LANG_FR;

	if (store_player_find_folded(st, p->name, &other) != STORE_OK) {
		snprintf(why, len, fr ? "cette clé est déjà celle d'un autre "
		    "joueur ; faites une nouvelle clé pour %s (pbem keygen)" :
		    "that key is already registered to another player; make "
		    "a new key for %s (pbem keygen)", p->name);
		return;
	}
	if (strcmp(other.name, p->name) == 0)
		snprintf(why, len, fr ? "un joueur nommé %s existe déjà ; "
		    "choisissez un autre nom" : "a player named %s already "
		    "exists; choose another name", p->name);
	else
		snprintf(why, len, fr ? "le nom %s est pris : le joueur %s "
		    "existe, et deux noms qui ne diffèrent que par les "
		    "majuscules sont le même nom ; choisissez un autre nom" :
		    "the name %s is taken: player %s exists, and names that "
		    "differ only by case are the same name; choose another "
		    "name", p->name, other.name);
}

enum engine_status
engine_player_set_tz(struct store *st, int64_t player_id, const char *zone,
    enum rules_lang lang, char *err, size_t errlen)
{
	int fr = lang == RULES_LANG_FR;

	if (zone == NULL || !timetext_zone_known(zone)) {
		snprintf(err, errlen, fr ? "« %.63s » n'est pas un fuseau "
		    "horaire connu ; donnez un nom de la base des fuseaux, "
		    "comme Europe/Paris, America/Montreal ou UTC" : "\"%.63s\" "
		    "is not a known time zone; give a name from the time zone "
		    "database, such as Europe/Paris, America/New_York or UTC",
		    zone != NULL ? zone : "");
		return ENGINE_BAD_REQUEST;
	}
	if (store_player_set_tz(st, player_id, strcmp(zone, "UTC") == 0 ?
	    "" : zone) != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return ENGINE_INTERNAL;
	}
	return ENGINE_OK;
}

enum engine_status
engine_player_set_lang(struct store *st, int64_t player_id, const char *code,
    enum rules_lang lang, char *err, size_t errlen)
{
	if (code == NULL || (strcmp(code, "en") != 0 && strcmp(code, "fr") !=
	    0)) {
		snprintf(err, errlen, lang == RULES_LANG_FR ? "« %.31s » "
		    "n'est pas une langue de ce serveur : en (anglais) ou fr "
		    "(français)" : "\"%.31s\" is not a language of this "
		    "server: en (English) or fr (French)", code != NULL ? code :
		    "");
		return ENGINE_BAD_REQUEST;
	}
	if (store_player_set_lang(st, player_id, code) != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return ENGINE_INTERNAL;
	}
	return ENGINE_OK;
}
