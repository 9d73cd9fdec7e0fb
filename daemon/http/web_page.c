/*
 * web_page.c -- what every page under /play/ shares (web.h): rendering
 * a page from its HTML template, the security headers, redirects, the
 * session cookie, url-encoded forms and the reader's language.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf.h"
#include "present.h"
#include "templates.h"
#include "web.h"
#include "web_origin.h"

/* No inline script or style anywhere: play.js and play.css are files
 * of this server; images only as data: URIs (none yet); forms post
 * only here; never in another site's frame. */
const char web_csp[] = "default-src 'none'; script-src 'self'; "
    "style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

void
web_security_headers(struct api_request *req)
{
	api_add_header(req, "Content-Security-Policy", web_csp);
	api_add_header(req, "X-Content-Type-Options", "nosniff");
	api_add_header(req, "Referrer-Policy", "no-referrer");
	api_add_header(req, "Cache-Control", "no-store");
}

enum MHD_Result
web_send_rendered(struct api_request *req, unsigned int status,
    const char *lang, const char *name, enum tpl_format format,
    const char *content_type, json_t *data)
{
	struct mustache_buf out;
	char err[1024];
	int rendered;

	mustache_buf_init(&out);
	rendered = templates_render(daemon_templates_hold(req->d), lang, "web",
	    name, format, data, &out, err, sizeof(err));
	daemon_templates_release(req->d);
	json_decref(data);
	if (rendered != 0) {
		mustache_buf_free(&out);
		log_warnx("http: web: %s", err);
		return api_send_text(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "text/plain; charset=utf-8", strdup("The page cannot be "
		    "shown; the server's log says why.\nLa page ne peut pas "
		    "être affichée ; le journal du serveur dit pourquoi.\n"));
	}
	web_security_headers(req);
	return api_send_text(req, status, content_type, out.data != NULL ?
	    out.data : strdup(""));
}

enum MHD_Result
web_send_page(struct api_request *req, unsigned int status,
    enum rules_lang lang, const char *name, json_t *data)
{
	json_object_set_new(data, "lang", json_string(present_lang_code(lang)));
	return web_send_rendered(req, status, present_lang_code(lang), name,
	    TPL_HTML, "text/html; charset=utf-8", data);
}

enum MHD_Result
web_notice(struct api_request *req, unsigned int status, enum rules_lang lang,
    const char *what)
{
	return web_send_page(req, status, lang, "notice",
	    json_pack("{s:b}", what, 1));
}

enum MHD_Result
web_redirect(struct api_request *req, const char *location)
{
	api_add_header(req, "Location", location);
	web_security_headers(req);
	return api_send_text(req, MHD_HTTP_SEE_OTHER,
	    "text/plain; charset=utf-8", strdup("See Other\n"));
}

enum rules_lang
web_lang_of(const char *code)
{
	return code != NULL && strcmp(code, "fr") == 0 ? RULES_LANG_FR :
	    RULES_LANG_EN;
}

enum rules_lang
web_request_lang(struct api_request *req)
{
	const char *al = MHD_lookup_connection_value(req->conn,
	    MHD_HEADER_KIND, "Accept-Language");

	return al != NULL && strncasecmp(al, "fr", 2) == 0 ? RULES_LANG_FR :
	    RULES_LANG_EN;
}

const char *
web_session_cookie(struct api_request *req)
{
	return MHD_lookup_connection_value(req->conn, MHD_COOKIE_KIND,
	    WEB_COOKIE);
}

int
web_public_https(struct api_request *req)
{
	return strncasecmp(config_str(req->d->cfg, "public_base_url"),
	    "https:", 6) == 0;
}

int
web_post_from_own_page(struct api_request *req, enum rules_lang lang,
    enum MHD_Result *rc)
{
	const char *site, *origin, *host;
	enum web_origin_verdict v;

	site = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
	    "Sec-Fetch-Site");
	origin = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
	    "Origin");
	host = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
	    "Host");
	v = web_origin_check(site, origin, host,
	    config_str(req->d->cfg, "public_base_url"));
	if (v == WEB_ORIGIN_OK)
		return 0;
	log_info("http: web: %s POST to %s refused (Sec-Fetch-Site %s, "
	    "Origin %.100s)", v == WEB_ORIGIN_CROSS_SITE ? "cross-site" :
	    "foreign-origin", req->path, site != NULL ? site : "-",
	    origin != NULL ? origin : "-");
	*rc = web_notice(req, MHD_HTTP_FORBIDDEN, lang, "cross_site");
	return -1;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
web_form_field(const char *body, const char *name, char *out, size_t outlen)
{
	size_t nlen = strlen(name), n;
	const char *p = body;
	int hi, lo;

	while (*p != '\0') {
		if (strncmp(p, name, nlen) == 0 && p[nlen] == '=') {
			p += nlen + 1;
			for (n = 0; *p != '\0' && *p != '&'; p++) {
				char c = *p;

				if (c == '+')
					c = ' ';
				else if (c == '%') {
					if ((hi = hexval(p[1])) < 0 ||
					    (lo = hexval(p[2])) < 0)
						return 0;
					c = (char)(hi * 16 + lo);
					p += 2;
				}
				if (c == '\0' || n + 1 >= outlen)
					return 0;
				out[n++] = c;
			}
			out[n] = '\0';
			return 1;
		}
		if ((p = strchr(p, '&')) == NULL)
			break;
		p++;
	}
	return 0;
}
