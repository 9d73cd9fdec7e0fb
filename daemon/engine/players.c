/*
 * players.c -- what the engine says about registering players (engine.h):
 * why a new player was refused as a duplicate, for HTTP and pbemctl alike.
 *
 * Names are unique once folded to lower case (ASCII: a name is letters,
 * digits, '.', '-' and '_'; reqsig_valid_player()), so "Eve0" cannot
 * register beside "eve0" and pass for her in a game's list of players.
 * The store enforces it (index players_name_folded, docs/STORE.md); this
 * file only words the refusal.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"

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
