/*
 * policy.h -- a game's deadline policy, and the arithmetic of deadlines.
 *
 * A policy says how long a seat has for a turn, when it is reminded, how
 * much grace follows the deadline, whether weekends count, what happens
 * when the deadline is missed, how much vacation a seat may take, how
 * long a response window stays open and whether players may send each
 * other messages.  It is stored per game as canonical JSON
 * (store_policy_get/set); docs/ASYNC.md describes every field.
 *
 * What this module promises:
 *   - policy_parse() accepts only a policy it can honour: every field
 *     known, every value in range, and an outcome the game's rule module
 *     supports ("skip" needs skip_check/skip_apply).  Anything else is
 *     refused with a message naming the field and what is allowed; the
 *     policy passed in is then unchanged.
 *   - policy_deadline() is a pure function of its arguments: no clock.
 */
#ifndef PBEM_POLICY_H
#define PBEM_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"

#define POLICY_MAX_REMINDERS	4

enum policy_missed {
	POLICY_MISSED_WAIT = 0,		/* keep waiting; the late seat is told */
	POLICY_MISSED_SKIP = 1,		/* the module passes the turn */
	POLICY_MISSED_DEFAULT = 2,	/* the module's default move */
	POLICY_MISSED_ABSENT = 3	/* seat marked absent and offered */
};

struct policy {
	int64_t			turn_time;	/* seconds; 0: no deadlines */
	int64_t			reminders[POLICY_MAX_REMINDERS];
	int			nreminders;	/* seconds before the deadline */
	int64_t			grace;		/* after the deadline */
	int			weekends_pause;	/* Sat and Sun (UTC) stop the clock */
	enum policy_missed	missed;
	int64_t			vacation_max;	/* seconds per seat per game */
	int64_t			response_time;	/* a response window */
	int			press;		/* players may send messages */
	int64_t			late_every;	/* under wait: repeat the late
						 * notice this often; 0: once */
};

/* The policy of a game that never had one set: no deadlines. */
void	policy_default(struct policy *p);

/*
 * Read a policy object (JSON text) over *p: only the fields the text
 * names change.  Durations are seconds or strings "90s", "30m", "12h",
 * "3d".  m is the game's module (for "skip").  0, or -1 with the reason
 * in err and *p unchanged.
 */
int	policy_parse(const char *text, const struct rules_module *m,
	    struct policy *p, char *err, size_t errlen);
/* policy_parse() with the refusal in lang. */
int	policy_parse_in(const char *text, const struct rules_module *m,
	    struct policy *p, enum rules_lang lang, char *err, size_t errlen);
/* A duration as text ("90s", "30m", "12h", "3d" or seconds) into *out;
 * 0, or -1 if it is not one. */
int	policy_read_duration(const char *text, int64_t *out);
/* Set one field from "name=value" text (pbemctl game policy). */
int	policy_set_field(const char *assignment, const struct rules_module *m,
	    struct policy *p, char *err, size_t errlen);
/* policy_set_field() with the refusal in lang (a game master's). */
int	policy_set_field_in(const char *assignment,
	    const struct rules_module *m, struct policy *p,
	    enum rules_lang lang, char *err, size_t errlen);
/* The canonical JSON text (malloc'd) of p, every field present. */
char   *policy_text(const struct policy *p);
/* A policy's outcome as its JSON word ("wait", "skip", ...). */
const char *policy_missed_word(enum policy_missed missed);

/*
 * The moment a seat's time runs out: `duration' seconds of counted time
 * after `start', where time does not count on Saturdays and Sundays (UTC)
 * if weekends_pause, nor during [away_from, away_until) (the seat's
 * vacation; 0, 0 for none).
 */
int64_t	policy_deadline(const struct policy *p, int64_t start,
	    int64_t duration, int64_t away_from, int64_t away_until);

#endif /* PBEM_POLICY_H */
