/*
 * http_limits.c -- the HTTP API's rate limits (http_limits.h; the token buckets
 * are ratelimit.c's).
 *
 * Per address: every HTTP request takes a token from the bucket of its
 * client's address, rate_per_address a second with bursts of
 * rate_per_address_burst.  IPv6 clients are counted by their /64, the
 * block one host is usually given.  Per key: each signed request takes a
 * token from the bucket of the player's public key, rate_per_key a
 * minute with bursts of rate_per_key_burst.  Loopback is not exempt: a
 * benchmark turns the limits off (0) or up.  The settings are read on
 * every call, so a reload applies at once.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <netinet/in.h>

#include "http_limits.h"
#include "metrics.h"
#include "ratelimit.h"

/* Buckets kept per table; see ratelimit.h for what happens beyond. */
#define LIMITS_MAX_NAMES	65536

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned int
whole_seconds(double wait)
{
	unsigned int up;

	if (wait >= 86400)
		return 86400;
	up = (unsigned int)wait;
	if ((double)up < wait)
		up++;
	return up < 1 ? 1 : up;
}

int
limits_init(struct daemon *d)
{
	d->address_limits = ratelimit_new(LIMITS_MAX_NAMES);
	d->key_limits = ratelimit_new(LIMITS_MAX_NAMES);
	return d->address_limits != NULL && d->key_limits != NULL ? 0 : -1;
}

void
limits_free(struct daemon *d)
{
	ratelimit_free(d->address_limits);
	ratelimit_free(d->key_limits);
	d->address_limits = d->key_limits = NULL;
}

int
ratelimit_allow_address(struct daemon *d, const struct sockaddr *sa,
    unsigned int *retry_after)
{
	const struct config *cfg = d->cfg;
	unsigned char name[17];
	size_t len;
	double wait;

	*retry_after = 0;
	if (sa == NULL)
		return 1;
	if (sa->sa_family == AF_INET) {
		name[0] = 4;
		memcpy(name + 1, &((const struct sockaddr_in *)(const void *)
		    sa)->sin_addr, 4);
		len = 5;
	} else if (sa->sa_family == AF_INET6) {
		name[0] = 6;
		memcpy(name + 1, &((const struct sockaddr_in6 *)(const void *)
		    sa)->sin6_addr, 8);
		len = 9;
	} else
		return 1;
	if (ratelimit_take(d->address_limits, name, len,
	    (double)config_int(cfg, "rate_per_address"),
	    (double)config_int(cfg, "rate_per_address_burst"), now_seconds(),
	    &wait))
		return 1;
	*retry_after = whole_seconds(wait);
	metrics_add(METRICS_RATE_LIMITED_ADDRESS, 1);
	return 0;
}

static int
ask_key(struct daemon *d, const unsigned char key[32],
    unsigned int *retry_after, int take, int count_refusal)
{
	const struct config *cfg = d->cfg;
	double rate, burst, wait;
	int allowed;

	*retry_after = 0;
	rate = (double)config_int(cfg, "rate_per_key") / 60.0;
	burst = (double)config_int(cfg, "rate_per_key_burst");
	if (take)
		allowed = ratelimit_take(d->key_limits, key, 32, rate, burst,
		    now_seconds(), &wait);
	else
		allowed = ratelimit_peek(d->key_limits, key, 32, rate, burst,
		    now_seconds(), &wait);
	if (allowed)
		return 1;
	*retry_after = whole_seconds(wait);
	if (count_refusal)
		metrics_add(METRICS_RATE_LIMITED_KEY, 1);
	return 0;
}

int
ratelimit_allow_key(struct daemon *d, const unsigned char key[32],
    unsigned int *retry_after)
{
	return ask_key(d, key, retry_after, 1, 1);
}

int
ratelimit_check_key(struct daemon *d, const unsigned char key[32],
    unsigned int *retry_after)
{
	return ask_key(d, key, retry_after, 0, 1);
}

void
ratelimit_charge_key(struct daemon *d, const unsigned char key[32])
{
	unsigned int retry;

	(void)ask_key(d, key, &retry, 1, 0);
}

void
limits_describe_address(struct daemon *d, enum rules_lang lang, char *buf,
    size_t len)
{
	const struct config *cfg = d->cfg;

	snprintf(buf, len, lang == RULES_LANG_FR ? "%lld par seconde pour "
	    "les requêtes d'une même adresse, par rafales de %lld au plus "
	    "(rate_per_address, rate_per_address_burst)" : "%lld a second "
	    "for the requests from one address, in bursts of up to %lld "
	    "(rate_per_address, rate_per_address_burst)",
	    config_int(cfg, "rate_per_address"),
	    config_int(cfg, "rate_per_address_burst"));
}

void
limits_describe_key(struct daemon *d, enum rules_lang lang, char *buf,
    size_t len)
{
	const struct config *cfg = d->cfg;

	snprintf(buf, len, lang == RULES_LANG_FR ? "%lld par minute pour "
	    "les requêtes signées avec la clé d'un joueur, par rafales de "
	    "%lld au plus (rate_per_key, rate_per_key_burst)" : "%lld a "
	    "minute for the requests signed with one player's key, in "
	    "bursts of up to %lld (rate_per_key, rate_per_key_burst)",
	    config_int(cfg, "rate_per_key"),
	    config_int(cfg, "rate_per_key_burst"));
}
