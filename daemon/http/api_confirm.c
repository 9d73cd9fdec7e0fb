/*
 * api_confirm.c -- GET and POST /confirm/CODE: the link of a sign-up mail
 * (docs/PLAYING.md, docs/API.md).  GET only shows a page with a button,
 * because mail scanners and link previews fetch links on their own; the
 * POST the button sends confirms the address (engine_signup_confirm()).
 * Both answer a small HTML page in English and French.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "conf.h"

/* The code: the path's last segment (the route allows letters and digits
 * only, so it needs no escaping in HTML). */
static const char *
code_of(const struct api_request *req)
{
	const char *slash = strrchr(req->path, '/');

	return slash != NULL ? slash + 1 : "";
}

static enum MHD_Result
page(struct api_request *req, unsigned int status, const char *en,
    const char *fr, const char *form_code)
{
	static const char fmt[] = "<!DOCTYPE html>\n<html><head><meta "
	    "charset=\"utf-8\"><title>pbem</title></head><body>\n<p>%s</p>\n"
	    "<p lang=\"fr\">%s</p>\n%s%s%s</body></html>\n";
	const char *f0 = form_code != NULL ? "<form method=\"post\" "
	    "action=\"/confirm/" : "";
	const char *f2 = form_code != NULL ? "\"><button type=\"submit\">"
	    "Confirm / Confirmer</button></form>\n" : "";
	char *html;
	int n;

	if (form_code == NULL)
		form_code = "";
	n = snprintf(NULL, 0, fmt, en, fr, f0, form_code, f2);
	if (n < 0 || (html = malloc((size_t)n + 1)) == NULL)
		return MHD_NO;
	snprintf(html, (size_t)n + 1, fmt, en, fr, f0, form_code, f2);
	return api_send_text(req, status, "text/html; charset=utf-8", html);
}

enum MHD_Result
api_confirm_page(struct api_request *req)
{
	return page(req, MHD_HTTP_OK, "Confirm that this address is yours, to "
	    "play on pbem by mail:", "Confirmez que cette adresse est la "
	    "vôtre, pour jouer sur pbem par courriel :", code_of(req));
}

enum MHD_Result
api_confirm_post(struct api_request *req)
{
	struct store_player p;
	struct hosted_kek *kek;
	enum engine_status es;
	enum MHD_Result rc = MHD_NO;
	struct store *st;
	const char *file = config_str(req->d->cfg, "hosted_key_file");
	char err[512], path[1024], en[700], fr[700];

	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	snprintf(path, sizeof(path), *file != '\0' ? "%s" : "%s.kek",
	    *file != '\0' ? file : req->d->dbpath);
	if ((kek = hosted_kek_open(path, 1, err, sizeof(err))) == NULL) {
		log_warnx("http: confirm: %s", err);
		return page(req, MHD_HTTP_SERVICE_UNAVAILABLE, "The server "
		    "cannot confirm addresses now; try again later.",
		    "Le serveur ne peut pas confirmer d'adresse pour "
		    "l'instant ; réessayez plus tard.", NULL);
	}
	es = engine_signup_confirm(st, kek, code_of(req), (int64_t)time(NULL),
	    &p, err, sizeof(err));
	hosted_kek_close(kek);
	switch (es) {
	case ENGINE_OK:
		log_info("http: address of player %s confirmed", p.name);
		snprintf(en, sizeof(en), "Your address is confirmed: you are "
		    "the player %s. Watch your mail for your games.", p.name);
		snprintf(fr, sizeof(fr), "Votre adresse est confirmée : vous "
		    "êtes le joueur %s. Vos parties arrivent par courriel.",
		    p.name);
		return page(req, MHD_HTTP_OK, en, fr, NULL);
	case ENGINE_REFUSED:
		return page(req, MHD_HTTP_GONE, "This code has expired or was "
		    "already used.", "Ce code a expiré ou a déjà servi.", NULL);
	case ENGINE_BAD_REQUEST:
		return page(req, MHD_HTTP_NOT_FOUND, "No sign-up has this code.",
		    "Aucune inscription n'a ce code.", NULL);
	default:
		log_warnx("http: confirm: %s", err);
		return page(req, MHD_HTTP_SERVICE_UNAVAILABLE, "The server is "
		    "busy; try again.", "Le serveur est occupé ; réessayez.",
		    NULL);
	}
}
