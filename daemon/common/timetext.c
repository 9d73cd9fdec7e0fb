/*
 * timetext.c -- times for people, in a language and a time zone
 * (timetext.h).
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "timetext.h"

static const char *const days_en[] = { "Monday", "Tuesday", "Wednesday",
	"Thursday", "Friday", "Saturday", "Sunday" };
static const char *const days_fr[] = { "lundi", "mardi", "mercredi",
	"jeudi", "vendredi", "samedi", "dimanche" };
static const char *const months_en[] = { "January", "February", "March",
	"April", "May", "June", "July", "August", "September", "October",
	"November", "December" };
static const char *const months_fr[] = { "janvier", "février", "mars",
	"avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
	"novembre", "décembre" };

static int
is_utc(const char *zone)
{
	return zone == NULL || zone[0] == '\0' || strcmp(zone, "UTC") == 0;
}

int
timetext_zone_known(const char *zone)
{
	GTimeZone *tz;

	if (is_utc(zone))
		return 1;
	/* A name, not an offset such as "+01:00" that GLib also reads. */
	if (strlen(zone) >= TIMETEXT_ZONE_MAX || !g_ascii_isalpha(zone[0]) ||
	    strspn(zone, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789/_+-") != strlen(zone))
		return 0;
	if ((tz = g_time_zone_new_identifier(zone)) == NULL)
		return 0;
	g_time_zone_unref(tz);
	return 1;
}

/* t in zone (UTC if the zone is UTC or unknown), or NULL if t is out of
 * GLib's range. */
static GDateTime *
moment(int64_t t, const char *zone)
{
	GDateTime *utc, *local;
	GTimeZone *tz;

	if ((utc = g_date_time_new_from_unix_utc(t)) == NULL)
		return NULL;
	if (is_utc(zone) || (tz = g_time_zone_new_identifier(zone)) == NULL)
		return utc;
	local = g_date_time_to_timezone(utc, tz);
	g_time_zone_unref(tz);
	g_date_time_unref(utc);
	return local;
}

void
timetext_words(int64_t t, const char *lang, const char *zone, char *buf,
    size_t len)
{
	GDateTime *d = moment(t, zone);
	int fr = lang != NULL && strcmp(lang, "fr") == 0, wd, mon;
	char where[TIMETEXT_ZONE_MAX + 4];

	if (d == NULL) {
		snprintf(buf, len, "?");
		return;
	}
	wd = g_date_time_get_day_of_week(d) - 1;	/* 1 is Monday */
	mon = g_date_time_get_month(d) - 1;
	if (is_utc(zone))
		snprintf(where, sizeof(where), " UTC");
	else
		snprintf(where, sizeof(where), " (%s)", zone);
	snprintf(buf, len, "%s %d %s %d, %02d:%02d%s", fr ? days_fr[wd] :
	    days_en[wd], g_date_time_get_day_of_month(d), fr ?
	    months_fr[mon] : months_en[mon], g_date_time_get_year(d),
	    g_date_time_get_hour(d), g_date_time_get_minute(d), where);
	g_date_time_unref(d);
}

void
timetext_iso(int64_t t, const char *zone, char *buf, size_t len)
{
	GDateTime *d = moment(t, zone);
	gchar *text;

	if (d == NULL) {
		snprintf(buf, len, "?");
		return;
	}
	text = g_date_time_format_iso8601(d);
	snprintf(buf, len, "%s", text != NULL ? text : "?");
	g_free(text);
	g_date_time_unref(d);
}
