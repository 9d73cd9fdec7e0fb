/*
 * web_static.c -- GET /play/static/play.js and /play/static/play.css:
 * the page's only script and style sheet (docs/WEB.md).
 *
 * Both are the project's own files, kept with the templates so that
 * they are installed and shipped with them (templates/en/web/
 * script.txt.mustache and style.txt.mustache, rendered with no data: an
 * administrator may change them without recompiling).  The page's
 * Content-Security-Policy allows no other script or style.
 */
#include "web.h"

enum MHD_Result
web_static_js(struct api_request *req)
{
	return web_send_rendered(req, MHD_HTTP_OK, "en", "script", TPL_TEXT,
	    "text/javascript; charset=utf-8", json_object());
}

enum MHD_Result
web_static_css(struct api_request *req)
{
	return web_send_rendered(req, MHD_HTTP_OK, "en", "style", TPL_TEXT,
	    "text/css; charset=utf-8", json_object());
}
