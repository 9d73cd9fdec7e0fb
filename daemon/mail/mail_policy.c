/*
 * mail_policy.c -- a change of a game's deadline policy, in words.
 *
 * When the master or the administrator changes a running game's policy,
 * every seat is told (clock_changed).  The row holds the new values of
 * the fields that changed, as policy_text() writes them (durations in
 * seconds, "missed" and "weekends" as their words, "press" a boolean);
 * this file says them in the reader's language, one clause per field,
 * in the order docs/ASYNC.md lists the fields: "a turn now lasts 2 days;
 * after a missed deadline, the server plays the late seat's default
 * move".  A field it does not know is said as NAME=VALUE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail.h"

/* The clauses' order: the policy table's in docs/ASYNC.md. */
static const char *const field_order[] = {
	"turn_time", "reminders", "grace", "weekends", "missed",
	"vacation_max", "response_time", "press", "late_every"
};

/* The sentences after a missed deadline, by the policy's word. */
static const struct {
	const char	*word, *en, *fr;
} missed_words[] = {
	{ "wait", "the game waits for the late seat",
	    "la partie attend le siège en retard" },
	{ "skip", "the late seat's turn is passed",
	    "le tour du siège en retard est passé" },
	{ "default", "the server plays the late seat's default move",
	    "le serveur joue le coup par défaut du siège en retard" },
	{ "absent", "the late seat is marked absent and offered to a "
	    "replacement", "le siège en retard est déclaré absent et "
	    "proposé à un remplaçant" },
	{ "bot", "a bot plays for the late seat until its player moves "
	    "again", "un robot joue pour le siège en retard jusqu'à ce que "
	    "son joueur rejoue" },
};

/* secs in words, or "0" words when secs is not a positive integer. */
static void
duration(const json_t *v, int fr, char *buf, size_t len)
{
	mail_notice_duration(json_is_integer(v) && json_integer_value(v) > 0 ?
	    json_integer_value(v) : 0, fr ? "fr" : "en", buf, len);
}

/* "1 day and 1 hour" / "1 jour et 1 heure", from an array of seconds. */
static void
reminder_list(const json_t *list, int fr, char *buf, size_t len)
{
	char one[64];
	size_t i, n = json_array_size(list), used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++) {
		duration(json_array_get(list, i), fr, one, sizeof(one));
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    i == 0 ? "" : i + 1 == n ? (fr ? " et " : " and ") : ", ",
		    one);
	}
}

/* The clause saying that field name now has value v, in buf. */
static void
clause(const char *name, const json_t *v, int fr, char *buf, size_t len)
{
	char words[256], *text;
	int positive = json_is_integer(v) && json_integer_value(v) > 0;
	size_t i;

	buf[0] = '\0';
	duration(v, fr, words, sizeof(words));
	if (strcmp(name, "turn_time") == 0) {
		if (positive)
			snprintf(buf, len, fr ? "un tour dure désormais %s" :
			    "a turn now lasts %s", words);
		else
			snprintf(buf, len, "%s", fr ? "les tours n'ont plus de "
			    "délai" : "turns have no deadline now");
	} else if (strcmp(name, "reminders") == 0) {
		reminder_list(v, fr, words, sizeof(words));
		if (json_array_size(v) > 0)
			snprintf(buf, len, fr ? "un rappel part %s avant un "
			    "délai" : "a reminder goes out %s before a "
			    "deadline", words);
		else
			snprintf(buf, len, "%s", fr ? "plus aucun rappel avant "
			    "un délai" : "no reminders before a deadline now");
	} else if (strcmp(name, "grace") == 0) {
		if (positive)
			snprintf(buf, len, fr ? "un délai manqué laisse %s de "
			    "grâce" : "a missed deadline leaves %s of grace",
			    words);
		else
			snprintf(buf, len, "%s", fr ? "plus de grâce après un "
			    "délai" : "no grace after a deadline now");
	} else if (strcmp(name, "weekends") == 0) {
		if (json_is_string(v) && strcmp(json_string_value(v),
		    "pause") == 0)
			snprintf(buf, len, "%s", fr ? "les week-ends (samedi et "
			    "dimanche, UTC) arrêtent l'horloge" : "weekends "
			    "(Saturday and Sunday, UTC) stop the clock");
		else
			snprintf(buf, len, "%s", fr ? "les week-ends comptent "
			    "comme les autres jours" : "weekends count like "
			    "any other day");
	} else if (strcmp(name, "missed") == 0) {
		for (i = 0; i < sizeof(missed_words) / sizeof(missed_words[0]);
		    i++)
			if (json_is_string(v) && strcmp(json_string_value(v),
			    missed_words[i].word) == 0)
				snprintf(buf, len, fr ? "après un délai manqué, "
				    "%s" : "after a missed deadline, %s", fr ?
				    missed_words[i].fr : missed_words[i].en);
	} else if (strcmp(name, "vacation_max") == 0) {
		if (positive)
			snprintf(buf, len, fr ? "chaque siège peut prendre %s "
			    "de vacances dans la partie" : "each seat may take "
			    "%s of vacation in the game", words);
		else
			snprintf(buf, len, "%s", fr ? "les vacances ne sont "
			    "plus permises" : "no vacation is allowed now");
	} else if (strcmp(name, "response_time") == 0)
		snprintf(buf, len, fr ? "une fenêtre de réponse reste ouverte "
		    "%s" : "a response window stays open %s", words);
	else if (strcmp(name, "press") == 0)
		snprintf(buf, len, "%s", json_is_true(v) ? (fr ? "les joueurs "
		    "peuvent s'écrire" : "players may send each other "
		    "messages") : (fr ? "les joueurs ne peuvent plus s'écrire"
		    : "players may no longer send each other messages"));
	else if (strcmp(name, "late_every") == 0) {
		if (positive)
			snprintf(buf, len, fr ? "l'avis de retard est renvoyé à "
			    "intervalles de %s" : "the late notice is sent "
			    "again at intervals of %s", words);
		else
			snprintf(buf, len, "%s", fr ? "l'avis de retard ne part "
			    "qu'une fois" : "the late notice goes out once");
	}
	if (buf[0] == '\0') {		/* a field or value not known here */
		text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		snprintf(buf, len, "%s=%s", name, text != NULL ? text : "?");
		free(text);
	}
}

/* Append name's clause to buf (used bytes so far), after a separator. */
static void
append(const char *name, const json_t *v, int fr, char *buf, size_t len,
    size_t *used)
{
	char one[512];

	clause(name, v, fr, one, sizeof(one));
	if (*used < len)
		*used += (size_t)snprintf(buf + *used, len - *used, "%s%s",
		    *used == 0 ? "" : fr ? " ; " : "; ", one);
}

/* Whether name is one of field_order's. */
static int
known_field(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(field_order) / sizeof(field_order[0]); i++)
		if (strcmp(name, field_order[i]) == 0)
			return 1;
	return 0;
}

void
mail_policy_change_words(const json_t *changed, const char *lang,
    char *buf, size_t len)
{
	const char *name;
	json_t *v;
	size_t used = 0, i;
	int fr = strcmp(lang, "fr") == 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(field_order) / sizeof(field_order[0]); i++)
		if ((v = json_object_get(changed, field_order[i])) != NULL)
			append(field_order[i], v, fr, buf, len, &used);
	json_object_foreach((json_t *)changed, name, v)
		if (!known_field(name))
			append(name, v, fr, buf, len, &used);
}
