/*
 * policy.c -- deadline policies: defaults, reading, writing, deadlines
 * (policy.h, docs/ASYNC.md).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "policy.h"

#define MINUTE	60
#define HOUR	(60 * MINUTE)
#define DAY	(24 * HOUR)

static const char *const missed_words[] = {
	[POLICY_MISSED_WAIT] = "wait",
	[POLICY_MISSED_SKIP] = "skip",
	[POLICY_MISSED_DEFAULT] = "default",
	[POLICY_MISSED_ABSENT] = "absent",
};

void
policy_default(struct policy *p)
{
	memset(p, 0, sizeof(*p));
	p->turn_time = 0;
	p->reminders[0] = DAY;
	p->reminders[1] = HOUR;
	p->nreminders = 2;
	p->grace = 0;
	p->weekends_pause = 0;
	p->missed = POLICY_MISSED_WAIT;
	p->vacation_max = 14 * DAY;
	p->response_time = DAY;
	p->press = 1;
}

const char *
policy_missed_word(enum policy_missed missed)
{
	if ((unsigned)missed >= sizeof(missed_words) / sizeof(missed_words[0]))
		return "wait";
	return missed_words[missed];
}

/* The refusal in the reader's language: en or fr, the same arguments. */
static int say(enum rules_lang lang, char *err, size_t errlen,
    const char *en, const char *fr, ...)
    __attribute__((format(printf, 4, 6), format(printf, 5, 6)));

static int
say(enum rules_lang lang, char *err, size_t errlen, const char *en,
    const char *fr, ...)
{
	va_list ap;

	va_start(ap, fr);
	vsnprintf(err, errlen, lang == RULES_LANG_FR ? fr : en, ap);
	va_end(ap);
	return -1;
}

/* A duration: an integer of seconds, or "N" followed by s, m, h or d. */
static int
read_duration(const json_t *v, int64_t *out)
{
	const char *text;
	char unit = 's', extra;
	long long n;
	int k;

	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		return *out >= 0 ? 0 : -1;
	}
	if ((text = json_string_value(v)) == NULL)
		return -1;
	k = sscanf(text, "%lld%c%c", &n, &unit, &extra);
	if (k < 1 || k > 2 || n < 0 || n > 10 * 365LL * DAY)
		return -1;
	switch (unit) {
	case 's': *out = n; break;
	case 'm': *out = n * MINUTE; break;
	case 'h': *out = n * HOUR; break;
	case 'd': *out = n * DAY; break;
	default: return -1;
	}
	return 0;
}

int
policy_read_duration(const char *text, int64_t *out)
{
	json_t *v = json_string(text);
	int rc = read_duration(v, out);

	json_decref(v);
	return rc;
}

static int
range(const char *name, int64_t v, int64_t lo, int64_t hi,
    enum rules_lang lang, char *err, size_t errlen)
{
	if (v >= lo && v <= hi)
		return 0;
	return say(lang, err, errlen, "policy field \"%s\": %lld seconds is "
	    "outside %lld to %lld", "champ de politique « %s » : %lld "
	    "secondes est hors de l'intervalle %lld à %lld", name,
	    (long long)v, (long long)lo, (long long)hi);
}

static int
can_skip(const struct rules_module *m)
{
	return m != NULL && m->api_version >= 3 && m->skip_check != NULL;
}

/* One field of the object; q is the policy being built. */
static int
read_field(const char *name, const json_t *v, const struct rules_module *m,
    struct policy *q, enum rules_lang lang, char *err, size_t errlen)
{
	int64_t d;
	size_t i;

	if (strcmp(name, "reminders") == 0) {
		if (!json_is_array(v) ||
		    json_array_size(v) > POLICY_MAX_REMINDERS)
			goto bad;
		q->nreminders = 0;
		for (i = 0; i < json_array_size(v); i++) {
			if (read_duration(json_array_get(v, i), &d) != 0)
				goto bad;
			if (range(name, d, MINUTE, 90LL * DAY, lang, err,
		    errlen))
				return -1;
			q->reminders[q->nreminders++] = d;
		}
		return 0;
	}
	if (strcmp(name, "weekends") == 0 || strcmp(name, "missed") == 0) {
		const char *w = json_string_value(v);

		if (w == NULL)
			goto bad;
		if (strcmp(name, "weekends") == 0) {
			if (strcmp(w, "count") != 0 && strcmp(w, "pause") != 0)
				goto bad;
			q->weekends_pause = strcmp(w, "pause") == 0;
			return 0;
		}
		for (i = 0; i < sizeof(missed_words) / sizeof(*missed_words);
		    i++)
			if (strcmp(w, missed_words[i]) == 0)
				break;
		if (i == sizeof(missed_words) / sizeof(*missed_words))
			goto bad;
		if (i == POLICY_MISSED_SKIP && !can_skip(m)) {
			return say(lang, err, errlen, "policy field \"missed\": "
			    "%s does not allow a turn to be skipped; choose "
			    "wait, default or absent", "champ de politique "
			    "« missed » : %s ne permet pas de passer un tour ; "
			    "choisissez wait, default ou absent", m ? m->name :
			    "this game");
		}
		q->missed = (enum policy_missed)i;
		return 0;
	}
	if (strcmp(name, "press") == 0) {
		if (!json_is_boolean(v))
			goto bad;
		q->press = json_is_true(v);
		return 0;
	}
	if (strcmp(name, "turn_time") != 0 && strcmp(name, "grace") != 0 &&
	    strcmp(name, "vacation_max") != 0 &&
	    strcmp(name, "response_time") != 0 &&
	    strcmp(name, "late_every") != 0) {
		return say(lang, err, errlen, "unknown policy field \"%s\"; "
		    "the fields are turn_time, reminders, grace, weekends, "
		    "missed, vacation_max, response_time, press and late_every",
		    "champ de politique « %s » inconnu ; les champs sont "
		    "turn_time, reminders, grace, weekends, missed, "
		    "vacation_max, response_time, press et late_every", name);
	}
	if (read_duration(v, &d) != 0)
		goto bad;
	if (strcmp(name, "turn_time") == 0) {
		if (d != 0 && range(name, d, MINUTE, 90LL * DAY, lang, err,
		    errlen))
			return -1;
		q->turn_time = d;
	} else if (strcmp(name, "grace") == 0) {
		if (range(name, d, 0, 30LL * DAY, lang, err,
		    errlen))
			return -1;
		q->grace = d;
	} else if (strcmp(name, "vacation_max") == 0) {
		if (range(name, d, 0, 90LL * DAY, lang, err,
		    errlen))
			return -1;
		q->vacation_max = d;
	} else if (strcmp(name, "response_time") == 0) {
		if (range(name, d, MINUTE, 30LL * DAY, lang, err,
		    errlen))
			return -1;
		q->response_time = d;
	} else {
		if (d != 0 && range(name, d, HOUR, 30LL * DAY, lang, err,
		    errlen))
			return -1;
		q->late_every = d;
	}
	return 0;
bad:
	if (strcmp(name, "reminders") == 0)
		return say(lang, err, errlen, "policy field \"%s\" has a bad "
		    "value: give a list of at most 4 durations (\"24h\", "
		    "\"1h\")", "le champ de politique « %s » a une valeur "
		    "incorrecte : donnez une liste d'au plus 4 durées (\"24h\", "
		    "\"1h\")", name);
	if (strcmp(name, "weekends") == 0)
		return say(lang, err, errlen, "policy field \"%s\" has a bad "
		    "value: give \"count\" or \"pause\"", "le champ de "
		    "politique « %s » a une valeur incorrecte : donnez "
		    "\"count\" ou \"pause\"", name);
	if (strcmp(name, "missed") == 0)
		return say(lang, err, errlen, "policy field \"%s\" has a bad "
		    "value: give \"wait\", \"skip\", \"default\" or "
		    "\"absent\"", "le champ de politique « %s » a une valeur "
		    "incorrecte : donnez \"wait\", \"skip\", \"default\" ou "
		    "\"absent\"", name);
	if (strcmp(name, "press") == 0)
		return say(lang, err, errlen, "policy field \"%s\" has a bad "
		    "value: give true or false", "le champ de politique « %s » "
		    "a une valeur incorrecte : donnez true ou false", name);
	return say(lang, err, errlen, "policy field \"%s\" has a bad value: "
	    "give seconds or a duration such as \"90s\", \"30m\", \"12h\", "
	    "\"3d\"", "le champ de politique « %s » a une valeur incorrecte : "
	    "donnez des secondes ou une durée comme \"90s\", \"30m\", "
	    "\"12h\", \"3d\"", name);
}

/* Checks between fields, once all are read. */
static int
coherent(const struct policy *q, enum rules_lang lang, char *err,
    size_t errlen)
{
	int i;

	for (i = 0; i < q->nreminders && q->turn_time > 0; i++)
		if (q->reminders[i] >= q->turn_time)
			return say(lang, err, errlen, "policy: a reminder %lld "
			    "seconds before the deadline is not within the "
			    "turn time (%lld seconds)", "politique : un rappel "
			    "%lld secondes avant l'échéance ne tient pas dans "
			    "le temps du tour (%lld secondes)",
			    (long long)q->reminders[i],
			    (long long)q->turn_time);
	return 0;
}

static void
drop_long_reminders(struct policy *q)
{
	int i, n = 0;

	for (i = 0; i < q->nreminders; i++)
		if (q->turn_time == 0 || q->reminders[i] < q->turn_time)
			q->reminders[n++] = q->reminders[i];
	q->nreminders = n;
}

int
policy_parse(const char *text, const struct rules_module *m,
    struct policy *p, char *err, size_t errlen)
{
	return policy_parse_in(text, m, p, RULES_LANG_EN, err, errlen);
}

int
policy_parse_in(const char *text, const struct rules_module *m,
    struct policy *p, enum rules_lang lang, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *obj, *v;
	const char *name;
	struct policy q = *p;

	obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (obj == NULL || !json_is_object(obj)) {
		say(lang, err, errlen, "a policy is a JSON object such as "
		    "{\"turn_time\": \"3d\", \"missed\": \"default\"}%s%s",
		    "une politique est un objet JSON comme {\"turn_time\": "
		    "\"3d\", \"missed\": \"default\"}%s%s",
		    obj == NULL ? " : " : "", obj == NULL ? jerr.text : "");
		json_decref(obj);
		return -1;
	}
	json_object_foreach(obj, name, v) {
		if (read_field(name, v, m, &q, lang, err, errlen) != 0) {
			json_decref(obj);
			return -1;
		}
	}
	/* Reminders given with the policy must fit in its turn; earlier
	 * ones (the defaults, say) that a shorter turn leaves out go. */
	if (json_object_get(obj, "reminders") != NULL) {
		if (coherent(&q, lang, err, errlen) != 0) {
			json_decref(obj);
			return -1;
		}
	} else
		drop_long_reminders(&q);
	json_decref(obj);
	*p = q;
	return 0;
}

int
policy_set_field(const char *assignment, const struct rules_module *m,
    struct policy *p, char *err, size_t errlen)
{
	return policy_set_field_in(assignment, m, p, RULES_LANG_EN, err,
	    errlen);
}

int
policy_set_field_in(const char *assignment, const struct rules_module *m,
    struct policy *p, enum rules_lang lang, char *err, size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	json_t *obj, *v;
	char name[64], *text;
	int rc;

	if (eq == NULL || eq == assignment ||
	    (size_t)(eq - assignment) >= sizeof(name)) {
		return say(lang, err, errlen, "\"%s\": write NAME=VALUE, such "
		    "as turn_time=3d or missed=default", "« %s » : écrivez "
		    "CHAMP=VALEUR, comme turn_time=3d ou missed=default",
		    assignment);
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - assignment),
	    assignment);
	/* A value is JSON if it reads as JSON, else a string. */
	if ((v = json_loads(eq + 1, JSON_DECODE_ANY, NULL)) == NULL)
		v = json_string(eq + 1);
	if (strcmp(name, "reminders") == 0 && json_is_string(v)) {
		/* reminders=24h,1h */
		char *list = strdup(json_string_value(v)), *item, *save;

		json_decref(v);
		v = json_array();
		for (item = strtok_r(list, ",", &save); item != NULL;
		    item = strtok_r(NULL, ",", &save))
			json_array_append_new(v, json_string(item));
		free(list);
	}
	obj = json_object();
	json_object_set_new(obj, name, v);
	text = json_dumps(obj, JSON_COMPACT);
	json_decref(obj);
	rc = policy_parse_in(text, m, p, lang, err, errlen);
	free(text);
	return rc;
}

char *
policy_text(const struct policy *p)
{
	json_t *obj, *rem = json_array();
	char *text;
	int i;

	for (i = 0; i < p->nreminders; i++)
		json_array_append_new(rem, json_integer(p->reminders[i]));
	obj = json_pack("{s:I, s:o, s:I, s:s, s:s, s:I, s:I, s:b, s:I}",
	    "turn_time", (json_int_t)p->turn_time,
	    "reminders", rem,
	    "grace", (json_int_t)p->grace,
	    "weekends", p->weekends_pause ? "pause" : "count",
	    "missed", policy_missed_word(p->missed),
	    "vacation_max", (json_int_t)p->vacation_max,
	    "response_time", (json_int_t)p->response_time,
	    "press", p->press,
	    "late_every", (json_int_t)p->late_every);
	text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(obj);
	return text;
}

/* 1970-01-01 was a Thursday: day 0 is Thursday, so day % 7 of 2 and 3
 * are Saturday and Sunday. */
static int
is_weekend(int64_t t)
{
	int64_t day = (t >= 0 ? t : t - DAY + 1) / DAY;
	int64_t wd = ((day % 7) + 7) % 7;

	return wd == 2 || wd == 3;
}

int64_t
policy_deadline(const struct policy *p, int64_t start, int64_t duration,
    int64_t away_from, int64_t away_until)
{
	int64_t t = start, left = duration, next, midnight;
	int paused, steps;

	if (away_until <= away_from)
		away_from = away_until = 0;
	/* Each step ends at a midnight or a vacation bound; the policy's
	 * limits (90 days, vacations of at most 90 days) keep this short,
	 * and the bound guards against a corrupt row. */
	for (steps = 0; left > 0 && steps < 4000; steps++) {
		midnight = (t >= 0 ? t / DAY + 1 : (t - DAY + 1) / DAY + 1) *
		    DAY;
		next = midnight;
		if (away_from > t && away_from < next)
			next = away_from;
		if (away_until > t && away_until < next)
			next = away_until;
		paused = (p->weekends_pause && is_weekend(t)) ||
		    (t >= away_from && t < away_until);
		if (!paused) {
			if (next - t >= left)
				return t + left;
			left -= next - t;
		}
		t = next;
	}
	return t + left;
}
