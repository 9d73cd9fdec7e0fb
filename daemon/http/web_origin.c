/*
 * web_origin.c -- web_origin_check(): is a /play/ POST from this
 * server's own page (web_origin.h)?
 *
 * Origins are compared as RFC 6454 serializes them, "scheme://host" and
 * ":port" only when it is not the scheme's default, case-insensitively.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "web_origin.h"

/* Longest origin compared: anything longer is not ours. */
#define ORIGIN_MAX	300

/*
 * The origin of url ("https://Host:443/path" gives "https://host") in
 * out: 0, or -1 if url is not an http or https URL or is too long.
 */
static int
origin_of_url(const char *url, char *out, size_t outlen)
{
	const char *scheme, *hostpart, *end;
	size_t hostlen, i;

	if (strncasecmp(url, "http://", 7) == 0) {
		scheme = "http";
		hostpart = url + 7;
	} else if (strncasecmp(url, "https://", 8) == 0) {
		scheme = "https";
		hostpart = url + 8;
	} else
		return -1;
	end = hostpart + strcspn(hostpart, "/?#");
	hostlen = (size_t)(end - hostpart);
	if (hostlen == 0 || hostlen + 9 >= outlen)
		return -1;
	/* Drop the scheme's default port: browsers never send it. */
	if (strcmp(scheme, "http") == 0 && hostlen > 3 &&
	    strncmp(end - 3, ":80", 3) == 0)
		hostlen -= 3;
	else if (strcmp(scheme, "https") == 0 && hostlen > 4 &&
	    strncmp(end - 4, ":443", 4) == 0)
		hostlen -= 4;
	snprintf(out, outlen, "%s://%.*s", scheme, (int)hostlen, hostpart);
	for (i = 0; out[i] != '\0'; i++)
		if (out[i] >= 'A' && out[i] <= 'Z')
			out[i] = (char)(out[i] - 'A' + 'a');
	return 0;
}

/* Is origin the origin of url? */
static int
same_origin(const char *origin, const char *url)
{
	char want[ORIGIN_MAX], got[ORIGIN_MAX];

	if (origin_of_url(url, want, sizeof(want)) != 0 ||
	    origin_of_url(origin, got, sizeof(got)) != 0)
		return 0;
	return strcmp(want, got) == 0;
}

enum web_origin_verdict
web_origin_check(const char *fetch_site, const char *origin,
    const char *host, const char *public_base_url)
{
	char url[ORIGIN_MAX];

	if (fetch_site != NULL && (strcasecmp(fetch_site, "cross-site") == 0 ||
	    strcasecmp(fetch_site, "same-site") == 0))
		return WEB_ORIGIN_CROSS_SITE;
	if (origin == NULL)
		return WEB_ORIGIN_OK;
	/* "null" is what our own pages send: with Referrer-Policy
	 * no-referrer a browser posts a form with Origin: null -- and
	 * every browser that does also says Sec-Fetch-Site, checked above.
	 * Without it, "null" may be a sandboxed frame or a data: page of
	 * another site: refused. */
	if (strcmp(origin, "null") == 0)
		return fetch_site != NULL ? WEB_ORIGIN_OK : WEB_ORIGIN_FOREIGN;
	if (public_base_url != NULL && same_origin(origin, public_base_url))
		return WEB_ORIGIN_OK;
	if (host != NULL && *host != '\0' && strlen(host) < ORIGIN_MAX - 9) {
		snprintf(url, sizeof(url), "http://%s", host);
		if (same_origin(origin, url))
			return WEB_ORIGIN_OK;
		snprintf(url, sizeof(url), "https://%s", host);
		if (same_origin(origin, url))
			return WEB_ORIGIN_OK;
	}
	return WEB_ORIGIN_FOREIGN;
}
