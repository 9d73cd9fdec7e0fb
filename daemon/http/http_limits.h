/*
 * http_limits.h -- the per-address and per-key rate limits of the HTTP API
 * (config rate_*; the token buckets are common/ratelimit.h).  Each check
 * returns 1 when the request may go on, or 0 with *retry_after, whole
 * seconds (at least 1) until it would be allowed.
 */
#ifndef PBEM_HTTP_LIMITS_H
#define PBEM_HTTP_LIMITS_H

#include <stddef.h>
#include <sys/socket.h>

#include "daemon.h"
#include "rules.h"

int	limits_init(struct daemon *d);
void	limits_free(struct daemon *d);
/* Takes a token for the client at sa (IPv6 clients by their /64). */
int	ratelimit_allow_address(struct daemon *d, const struct sockaddr *sa,
	    unsigned int *retry_after);
/* Takes a token for a player's key.  Call it once the request's
 * signature has been verified: a forged request must not spend the
 * token of the key it names. */
int	ratelimit_allow_key(struct daemon *d, const unsigned char key[32],
	    unsigned int *retry_after);
/* Would ratelimit_allow_key() allow it?  Takes nothing: for refusing
 * before the work when the signature is checked later (api_moves.c). */
int	ratelimit_check_key(struct daemon *d, const unsigned char key[32],
	    unsigned int *retry_after);
/* Take a token if there is one, after the work was done (the pair of
 * ratelimit_check_key()); not counted as a refusal if there is none. */
void	ratelimit_charge_key(struct daemon *d, const unsigned char key[32]);
/* "50 per second with bursts of 100": the limit, for a refusal, in
 * lang. */
void	limits_describe_address(struct daemon *d, enum rules_lang lang,
	    char *buf, size_t len);
void	limits_describe_key(struct daemon *d, enum rules_lang lang,
	    char *buf, size_t len);

#endif /* PBEM_HTTP_LIMITS_H */
