/*
 * web_origin.h -- is a POST to /play/ from this server's own page?
 * (docs/WEB.md, "Cross-site requests").
 *
 * The sign-in POST (which spends a play token and sets the session
 * cookie) and every other /play/ POST are refused when the browser says
 * the request comes from another site: Sec-Fetch-Site "cross-site" or
 * "same-site" (a sibling host is another origin), or an Origin header
 * that is neither the origin of public_base_url nor this request's
 * Host (Origin "null", which our own pages send under Referrer-Policy
 * no-referrer, only with a same-origin Sec-Fetch-Site).  A request without either header (an old browser, curl) is
 * judged by the CSRF token and the SameSite cookie alone.  Pure: it
 * reads only its arguments, so tests call it directly.
 */
#ifndef PBEM_WEB_ORIGIN_H
#define PBEM_WEB_ORIGIN_H

enum web_origin_verdict {
	WEB_ORIGIN_OK = 0,	/* same origin, or nothing says otherwise */
	WEB_ORIGIN_CROSS_SITE,	/* Sec-Fetch-Site names another site */
	WEB_ORIGIN_FOREIGN	/* Origin is not this server's */
};

/* Judge a POST from its Sec-Fetch-Site, Origin and Host headers (each
 * NULL when absent) and the configured public_base_url. */
enum web_origin_verdict	web_origin_check(const char *fetch_site,
			    const char *origin, const char *host,
			    const char *public_base_url);

#endif /* PBEM_WEB_ORIGIN_H */
