/*
 * web.h -- the player's web page under /play/ (docs/WEB.md): what its
 * handlers share.
 *
 * Every page is rendered from an HTML template templates/LANG/web/NAME
 * .html.mustache (escaped) and sent with the same security headers: a
 * strict Content-Security-Policy (no inline script or style, forms only
 * to this server, never in a frame), no caching, no referrer.  The
 * session is the cookie pbem_session (websession.c in the engine); a
 * form's fields come url-encoded in the body.
 *
 *   web_page.c		pages, headers, cookies, forms, languages
 *   web_origin.c	is a POST from this server's own page?
 *   web_signin.c	GET and POST /play/TOKEN: the sign-in link
 *   web_seat.c		GET /play/games/N and /play/games/N/public
 *   web_form.c		what every form POST of the seat page checks
 *   web_move.c		POST /play/games/N/move
 *   web_bots.c		the seat page's bots: delegation certificates
 *   web_pick.c		the cards each move button involves (web_pick.h)
 *   web_static.c	/play/static/play.js and play.css
 */
#ifndef PBEM_WEB_H
#define PBEM_WEB_H

#include "api.h"
#include "templates.h"

#define WEB_COOKIE	"pbem_session"

/* The Content-Security-Policy of every /play/ answer. */
extern const char web_csp[];

/* Render templates/LANG/web/name.html with data (taken) and send it
 * with status and the security headers. */
enum MHD_Result	web_send_page(struct api_request *req, unsigned int status,
		    enum rules_lang lang, const char *name, json_t *data);
/* Render templates/lang/web/name in format with data (taken) and send it
 * as content_type with the security headers; 500 if it cannot be. */
enum MHD_Result	web_send_rendered(struct api_request *req, unsigned int status,
		    const char *lang, const char *name, enum tpl_format format,
		    const char *content_type, json_t *data);
/* A short page saying one thing: the notice template with {{#what}}
 * true (the template holds the words). */
enum MHD_Result	web_notice(struct api_request *req, unsigned int status,
		    enum rules_lang lang, const char *what);
/* 303 See Other to location (a path of this server). */
enum MHD_Result	web_redirect(struct api_request *req, const char *location);
/* The security headers, added to the answer being prepared. */
void		web_security_headers(struct api_request *req);

/* The language of a player ("fr" or anything else), and of a request
 * without a player (Accept-Language starting with fr, else English). */
enum rules_lang	web_lang_of(const char *code);
enum rules_lang	web_request_lang(struct api_request *req);
/* The pbem_session cookie's value, or NULL. */
const char	*web_session_cookie(struct api_request *req);
/* Field name of the url-encoded form in the body, decoded into out: 1,
 * or 0 if absent or longer than outlen - 1 bytes, or holding a NUL. */
int		web_form_field(const char *body, const char *name, char *out,
		    size_t outlen);
/* Is the server's public address https (the cookie is then Secure)? */
int		web_public_https(struct api_request *req);
/* Does this POST come from this server's own page (web_origin.h)?  0,
 * or -1 with a 403 page in lang answered into *rc (a cross-site form
 * or script; nothing is done). */
int		web_post_from_own_page(struct api_request *req,
		    enum rules_lang lang, enum MHD_Result *rc);

/* web_signin.c */
enum MHD_Result	web_signin_page(struct api_request *req);
enum MHD_Result	web_signin_post(struct api_request *req);
/* web_seat.c */
enum MHD_Result	web_seat_page(struct api_request *req);
enum MHD_Result	web_public_page(struct api_request *req);
/* The seat page for session ws (already checked) with a refusal text
 * (or NULL) and status: web_move.c answers a refused move with it. */
enum MHD_Result	web_seat_answer(struct api_request *req,
		    const struct store_web_session *ws, const char *session,
		    unsigned int status, const char *refusal);
/* The session of the request's cookie for game_id: 0, or -1 with a page
 * answered (no session, expired, or another game's). */
int		web_session_for(struct api_request *req, struct store *st,
		    int64_t game_id, struct store_web_session *ws,
		    enum MHD_Result *rc);
/* web_seat.c: the seat page with a note of the bots form (done, or
 * refused when failed) instead of a move's refusal. */
enum MHD_Result	web_seat_answer_bots(struct api_request *req,
		    const struct store_web_session *ws, const char *session,
		    unsigned int status, const char *note, int failed);

/* web_form.c */
/* A form POST of the seat page of game_id: from this server's own page
 * (web_post_from_own_page()), with this game's session, whose player
 * still holds its seat, and the session's CSRF token (field "csrf").
 * 0 with *st, *ws and *me filled, or -1 with a page answered into *rc
 * and nothing done. */
int		web_form_session(struct api_request *req, int64_t game_id,
		    struct store **st, struct store_web_session *ws,
		    struct store_player *me, enum MHD_Result *rc);
/* The key-encryption key of hosted keys (hosted_key_file, or the
 * database's path and ".kek"), or NULL (logged). */
struct hosted_kek *web_hosted_kek(struct api_request *req);

/* web_move.c */
enum MHD_Result	web_move_post(struct api_request *req);
/* web_bots.c */
/* The bots part of the seat page's data: the player's certificates in
 * force and the form's defaults, into data. */
void		web_bots_fill(struct store *st, const struct store_player *me,
		    json_t *data);
enum MHD_Result	web_bots_post(struct api_request *req);
enum MHD_Result	web_bots_revoke_post(struct api_request *req);
/* web_static.c */
enum MHD_Result	web_static_js(struct api_request *req);
enum MHD_Result	web_static_css(struct api_request *req);

#endif /* PBEM_WEB_H */
