/*
 * addrpolicy.c -- internal addresses, URL hosts and the administrator's
 * allow-list (addrpolicy.h).
 */
#include <ctype.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "addrpolicy.h"

/* IPv4 ranges that are not the public Internet (RFC 6890 and the IANA
 * special-purpose registry). */
static const struct {
	uint32_t	 net;
	int		 bits;
	const char	*what;
} v4_ranges[] = {
	{ 0x00000000, 8, "unspecified" },		/* 0.0.0.0/8 */
	{ 0x0a000000, 8, "private" },			/* 10/8 */
	{ 0x64400000, 10, "shared (CGNAT)" },		/* 100.64/10 */
	{ 0x7f000000, 8, "loopback" },			/* 127/8 */
	{ 0xa9fe0000, 16, "link-local" },		/* 169.254/16 */
	{ 0xac100000, 12, "private" },			/* 172.16/12 */
	{ 0xc0000000, 24, "reserved" },			/* 192.0.0/24 */
	{ 0xc0000200, 24, "documentation" },		/* 192.0.2/24 */
	{ 0xc0586300, 24, "reserved" },			/* 192.88.99/24 */
	{ 0xc0a80000, 16, "private" },			/* 192.168/16 */
	{ 0xc6120000, 15, "benchmarking" },		/* 198.18/15 */
	{ 0xc6336400, 24, "documentation" },		/* 198.51.100/24 */
	{ 0xcb007100, 24, "documentation" },		/* 203.0.113/24 */
	{ 0xe0000000, 4, "multicast" },			/* 224/4 */
	{ 0xf0000000, 4, "reserved" },			/* 240/4, broadcast */
};

static const char *
v4_internal(const unsigned char *b)
{
	uint32_t a = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[2] << 8 | b[3];
	size_t i;

	for (i = 0; i < sizeof(v4_ranges) / sizeof(v4_ranges[0]); i++)
		if ((a >> (32 - v4_ranges[i].bits)) ==
		    (v4_ranges[i].net >> (32 - v4_ranges[i].bits)))
			return v4_ranges[i].what;
	return NULL;
}

static int
zeros(const unsigned char *b, size_t n)
{
	while (n > 0)
		if (b[--n] != 0)
			return 0;
	return 1;
}

static const char *
v6_internal(const unsigned char *b)
{
	static const unsigned char nat64[12] = { 0, 0x64, 0xff, 0x9b };
	static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (zeros(b, 16))
		return "unspecified";
	if (zeros(b, 15) && b[15] == 1)
		return "loopback";
	/* ::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::a.b.c.d: the IPv4 address
	 * inside decides; any other ::/8 address is reserved. */
	if (memcmp(b, mapped, 12) == 0 || zeros(b, 12) ||
	    memcmp(b, nat64, 12) == 0)
		return v4_internal(b + 12);
	if (b[0] == 0)
		return "reserved";
	if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b)
		return "NAT64 (local use)";		/* 64:ff9b:1::/48 */
	if (b[0] == 0x20 && b[1] == 0x02)		/* 6to4, 2002::/16 */
		return v4_internal(b + 2);
	if (b[0] == 0x01 && b[1] == 0x00 && zeros(b + 2, 6))
		return "discard";			/* 100::/64 */
	if (b[0] == 0x20 && b[1] == 0x01 && b[2] < 0x02)
		return "reserved";			/* 2001::/23 */
	if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8)
		return "documentation";			/* 2001:db8::/32 */
	if ((b[0] & 0xfe) == 0xfc)
		return "private (ULA)";			/* fc00::/7 */
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
		return "link-local";			/* fe80::/10 */
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0)
		return "site-local";			/* fec0::/10 */
	if (b[0] == 0xff)
		return "multicast";
	return NULL;
}

const char *
addrpolicy_internal(const struct sockaddr *sa)
{
	const struct sockaddr_in *in4 = (const struct sockaddr_in *)sa;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

	switch (sa->sa_family) {
	case AF_INET:
		return v4_internal((const unsigned char *)&in4->sin_addr);
	case AF_INET6:
		return v6_internal(in6->sin6_addr.s6_addr);
	}
	return "not an IP address";
}

void
addrpolicy_format(const struct sockaddr *sa, char *out, size_t outlen)
{
	const void *a = NULL;

	if (sa->sa_family == AF_INET)
		a = &((const struct sockaddr_in *)sa)->sin_addr;
	else if (sa->sa_family == AF_INET6)
		a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
	if (a == NULL || inet_ntop(sa->sa_family, a, out,
	    (socklen_t)outlen) == NULL)
		snprintf(out, outlen, "?");
}

/* "host[:port]" or "[v6][:port]" of length len into host and *port (0 if
 * none).  0, or -1 with the reason. */
static int
split_hostport(const char *s, size_t len, char *host, size_t hostlen,
    int *port, char *err, size_t errlen)
{
	const char *end = s + len, *colon = NULL, *h = s, *he;
	long p = 0;
	char *stop;
	char digits[8];

	*port = 0;
	if (len > 0 && *s == '[') {
		h = s + 1;
		if ((he = memchr(h, ']', len - 1)) == NULL) {
			snprintf(err, errlen, "\"[\" without \"]\" in "
			    "\"%.*s\"", (int)(len > 80 ? 80 : len), s);
			return -1;
		}
		if (he + 1 < end) {
			if (he[1] != ':') {
				snprintf(err, errlen, "\"%.*s\": only a port "
				    "may follow \"]\"", (int)(len > 80 ? 80 :
				    len), s);
				return -1;
			}
			colon = he + 1;
		}
	} else {
		he = memchr(s, ':', len);
		if (he != NULL && memchr(he + 1, ':', (size_t)(end - he - 1))
		    != NULL)
			he = end;		/* a bare IPv6 literal */
		else if (he != NULL)
			colon = he;
		else
			he = end;
	}
	if (he == h || (size_t)(he - h) >= hostlen) {
		snprintf(err, errlen, "no host, or a host too long, in "
		    "\"%.*s\"", (int)(len > 80 ? 80 : len), s);
		return -1;
	}
	memcpy(host, h, (size_t)(he - h));
	host[he - h] = '\0';
	if (colon != NULL) {
		len = (size_t)(end - colon - 1);
		if (len == 0 || len >= sizeof(digits)) {
			snprintf(err, errlen, "a bad port in \"%.*s\"",
			    (int)((size_t)(end - s) > 80 ? 80 : end - s), s);
			return -1;
		}
		memcpy(digits, colon + 1, len);
		digits[len] = '\0';
		p = strtol(digits, &stop, 10);
		if (*stop != '\0' || !isdigit((unsigned char)digits[0]) ||
		    p < 1 || p > 65535) {
			snprintf(err, errlen, "a bad port in \"%.*s\" (1 to "
			    "65535)", (int)((size_t)(end - s) > 80 ? 80 :
			    end - s), s);
			return -1;
		}
		*port = (int)p;
	}
	return 0;
}

int
addrpolicy_url_host(const char *url, char *host, size_t hostlen, int *port,
    char *err, size_t errlen)
{
	const char *auth;
	size_t len;
	int def;

	if (strncasecmp(url, "http://", 7) == 0) {
		auth = url + 7;
		def = 80;
	} else if (strncasecmp(url, "https://", 8) == 0) {
		auth = url + 8;
		def = 443;
	} else {
		snprintf(err, errlen, "a webhook URL must start with http:// "
		    "or https://");
		return -1;
	}
	len = strcspn(auth, "/?#");
	if (memchr(auth, '@', len) != NULL) {
		snprintf(err, errlen, "a webhook URL may not carry a user name "
		    "or password (\"@\" before the path)");
		return -1;
	}
	if (memchr(auth, '%', len) != NULL || memchr(auth, '\\', len) !=
	    NULL) {
		snprintf(err, errlen, "a webhook URL's host may not contain "
		    "\"%%\" or \"\\\"");
		return -1;
	}
	if (len == 0 || *auth == ':') {
		snprintf(err, errlen, "the webhook URL names no host");
		return -1;
	}
	if (split_hostport(auth, len, host, hostlen, port, err, errlen) != 0)
		return -1;
	if (*port == 0)
		*port = def;
	return 0;
}

/* Call cb for each entry of list; stops at (and returns) a non-zero
 * answer. */
static int
each_entry(const char *list, int (*cb)(const char *, size_t, void *),
    void *arg)
{
	const char *p = list;
	size_t n;
	int rc;

	for (;;) {
		p += strspn(p, ", \t");
		if (*p == '\0')
			return 0;
		n = strcspn(p, ", \t");
		if ((rc = cb(p, n, arg)) != 0)
			return rc;
		p += n;
	}
}

struct match {
	const char	*host;
	int		 port;
};

static int
match_one(const char *entry, size_t len, void *arg)
{
	const struct match *m = arg;
	char host[256], err[160];
	int port;

	if (split_hostport(entry, len, host, sizeof(host), &port, err,
	    sizeof(err)) != 0)
		return 0;
	return strcasecmp(host, m->host) == 0 && (port == 0 ||
	    port == m->port);
}

int
addrpolicy_allowed(const char *list, const char *host, int port)
{
	struct match m = { host, port };

	return list != NULL && each_entry(list, match_one, &m) == 1;
}

struct checking {
	char	*err;
	size_t	 errlen;
};

static int
check_one(const char *entry, size_t len, void *arg)
{
	struct checking *c = arg;
	char host[256];
	int port;

	return split_hostport(entry, len, host, sizeof(host), &port, c->err,
	    c->errlen) != 0 ? -1 : 0;
}

int
addrpolicy_list_check(const char *list, char *err, size_t errlen)
{
	struct checking c = { err, errlen };

	return each_entry(list, check_one, &c) != 0 ? -1 : 0;
}

int
addrpolicy_resolve_check(const char *host, char *err, size_t errlen)
{
	struct addrinfo hints, *res, *ai;
	const char *what;
	char text[INET6_ADDRSTRLEN];
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(host, NULL, &hints, &res)) != 0) {
		snprintf(err, errlen, "the webhook host \"%.80s\" does not "
		    "resolve (%s)", host, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if ((what = addrpolicy_internal(ai->ai_addr)) == NULL)
			continue;
		addrpolicy_format(ai->ai_addr, text, sizeof(text));
		snprintf(err, errlen, "the webhook host \"%.80s\" is %s "
		    "(%s): webhooks may only go to public addresses (the "
		    "administrator may allow a host with "
		    "webhook_allow_hosts)", host, text, what);
		freeaddrinfo(res);
		return -1;
	}
	freeaddrinfo(res);
	return 0;
}
