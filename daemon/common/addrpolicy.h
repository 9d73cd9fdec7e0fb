/*
 * addrpolicy.h -- which network addresses pbemd may send a webhook to
 * (docs/WEBHOOKS.md, "Addresses").
 *
 * A webhook URL is chosen by whoever registers it, and pbemd POSTs to it
 * from inside the operator's network, so a URL must not reach that
 * network: loopback, link-local, private (RFC 1918, ULA), shared (CGNAT),
 * multicast, unspecified, reserved and documentation ranges are internal,
 * and so is an IPv6 address that embeds an internal IPv4 one (mapped,
 * compatible, NAT64, 6to4).  The administrator may allow named hosts
 * anyway (the "webhook_allow_hosts" list: "127.0.0.1, hooks.internal:8080,
 * [::1]:9000"), matched against the host and port as the URL writes them.
 *
 * These functions are pure, except addrpolicy_resolve_check(), which asks
 * the system's resolver (and so may block for as long as it does).  They
 * keep no state and may be called from any thread.
 */
#ifndef PBEM_ADDRPOLICY_H
#define PBEM_ADDRPOLICY_H

#include <stddef.h>

#include <sys/socket.h>

/* What kind of internal address sa is ("loopback", "private", ...), or
 * NULL for a public one.  A family other than IPv4 and IPv6 is
 * "not an IP address". */
const char	*addrpolicy_internal(const struct sockaddr *sa);
/* sa as text ("127.0.0.1", "::1"); "?" if it cannot be written. */
void		 addrpolicy_format(const struct sockaddr *sa, char *out,
		    size_t outlen);

/* The host (brackets of an IPv6 literal taken off) and the port (80 or
 * 443 if none is written) of an http:// or https:// URL.  A URL with a
 * user name or password, or a host with '%' or '\', is refused.  0, or
 * -1 with the reason in err. */
int	addrpolicy_url_host(const char *url, char *host, size_t hostlen,
	    int *port, char *err, size_t errlen);
/* Is host (as addrpolicy_url_host() gives it) with port named by list?
 * An entry without a port allows every port of its host; host names
 * compare without regard to case. */
int	addrpolicy_allowed(const char *list, const char *host, int port);
/* Is list well formed (entries "host", "host:port", "[v6]", "[v6]:port",
 * separated by commas or spaces)?  0, or -1 with the reason. */
int	addrpolicy_list_check(const char *list, char *err, size_t errlen);
/* Resolve host; 0 if it has addresses and every one is public, else -1
 * with a reason fit for the user in err (the internal address found, or
 * that the name does not resolve). */
int	addrpolicy_resolve_check(const char *host, char *err, size_t errlen);

#endif /* PBEM_ADDRPOLICY_H */
