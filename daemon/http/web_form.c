/*
 * web_form.c -- what every form POST of the seat page checks before it
 * acts (web.h; docs/WEB.md): the request comes from this server's own
 * page, carries this game's session, the session's player still holds
 * its seat, and the form's CSRF token is the session's.  Also the
 * key-encryption key a form opens to sign with a hosted key.
 */
#include <stdio.h>
#include <string.h>

#include "conf.h"
#include "web.h"

int
web_form_session(struct api_request *req, int64_t game_id, struct store **st,
    struct store_web_session *ws, struct store_player *me,
    enum MHD_Result *rc)
{
	char csrf[ENGINE_CSRF_LEN + 8];
	struct store_game g;
	enum rules_lang lang;
	int holds;

	if (web_post_from_own_page(req, web_request_lang(req), rc) != 0)
		return -1;
	if ((*st = api_store(req, rc)) == NULL)
		return -1;
	if (web_session_for(req, *st, game_id, ws, rc) != 0)
		return -1;
	if (store_player_get(*st, ws->player_id, me) != STORE_OK) {
		*rc = web_notice(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    web_request_lang(req), "busy");
		return -1;
	}
	lang = web_lang_of(me->lang);
	if (!web_form_field(req->body, "csrf", csrf, sizeof(csrf)) ||
	    !engine_web_csrf_check(web_session_cookie(req), csrf)) {
		*rc = web_notice(req, MHD_HTTP_FORBIDDEN, lang, "csrf");
		return -1;
	}
	/* The session names a player and a seat: if the seat has changed
	 * hands since, the session acts for nobody. */
	if (store_game_get(*st, ws->game_id, &g) != STORE_OK) {
		*rc = web_notice(req, MHD_HTTP_SERVICE_UNAVAILABLE, lang,
		    "busy");
		return -1;
	}
	holds = ws->seat < g.nseats && g.seat_player[ws->seat] == me->id;
	store_game_clear(&g);
	if (!holds) {
		*rc = web_notice(req, MHD_HTTP_FORBIDDEN, lang, "signin_seat");
		return -1;
	}
	return 0;
}

struct hosted_kek *
web_hosted_kek(struct api_request *req)
{
	const char *file = config_str(req->d->cfg, "hosted_key_file");
	struct hosted_kek *kek;
	char path[1024], err[512];

	snprintf(path, sizeof(path), *file != '\0' ? "%s" : "%s.kek",
	    *file != '\0' ? file : req->d->dbpath);
	if ((kek = hosted_kek_open(path, 0, err, sizeof(err))) == NULL)
		log_warnx("http: web: %s", err);
	return kek;
}
