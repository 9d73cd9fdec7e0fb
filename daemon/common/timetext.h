/*
 * timetext.h -- a moment (unix seconds, UTC) as people read it: in words
 * in English or French, and as ISO 8601, in a player's time zone.
 *
 * Times are stored as UTC everywhere; only what a person reads is in
 * their zone.  A zone is an IANA name ("Europe/Paris") from the system's
 * time zone database (GLib's GTimeZone reads it, thread-safely); "" or
 * NULL is UTC.  A name the database does not know is refused by
 * timetext_zone_known(), so none is ever stored.
 */
#ifndef PBEM_TIMETEXT_H
#define PBEM_TIMETEXT_H

#include <stddef.h>
#include <stdint.h>

/* The longest zone name kept (the players table's limit, with the NUL). */
#define TIMETEXT_ZONE_MAX	64

/* 1 if zone is "" or "UTC" or a name of the system's tz database. */
int	timetext_zone_known(const char *zone);
/* "Monday 1 January 2024, 10:00 (Europe/Paris)" / "lundi 1 janvier
 * 2024, 10:00 (Europe/Paris)"; "..., 09:00 UTC" in UTC.  lang: "en" or
 * "fr". */
void	timetext_words(int64_t t, const char *lang, const char *zone,
	    char *buf, size_t len);
/* ISO 8601 with the zone's offset: "2024-01-01T10:00:00+01:00", or
 * "2024-01-01T09:00:00Z" in UTC. */
void	timetext_iso(int64_t t, const char *zone, char *buf, size_t len);

#endif /* PBEM_TIMETEXT_H */
