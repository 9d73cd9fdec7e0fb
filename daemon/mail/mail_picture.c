/*
 * mail_picture.c -- the HTML alternative of a seat's your-turn and
 * game-over mail: the same picture as the web page (docs/WEB.md), drawn
 * for mail clients.
 *
 * The data is the web page's (draw_view_fill(), daemon/render/drawing.c)
 * from the seat's own view decorated by present_view() -- never the full
 * state -- so the picture shows nothing the text part does not.  The
 * template templates/LANG/mail/picture.html.mustache is rendered with
 * HTML escaping.  Mail clients drop script, external images and inline
 * SVG, and many ignore style sheets: the template draws with tables and
 * inline style attributes only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "botname.h"
#include "drawing.h"
#include "engine.h"
#include "mail.h"
#include "present.h"
#include "templates.h"

char *
mail_picture(struct store *st, const struct tpl_set *tpl,
    struct gamestate *gs, int seat, const char *lang,
    const char *play_url, char *err, size_t errlen)
{
	const char *names[STORE_MAX_SEATS];
	const struct store_player *p;
	struct present_info info;
	struct mustache_buf out;
	json_t *view, *shown, *data;
	int s, nact, to_act[STORE_MAX_SEATS], over;

	memset(&info, 0, sizeof(info));
	info.lang = lang[0] == 'f' ? RULES_LANG_FR : RULES_LANG_EN;
	info.module = gs->module;
	info.viewer = seat;
	view = gamestate_view(gs, seat);
	shown = present_view(view, &info);
	json_decref(view);
	for (s = 0; s < gs->game.nseats && s < STORE_MAX_SEATS; s++)
		names[s] = (p = gamestate_seat_player(st, gs, s)) != NULL ?
		    botname_display(p->name, info.lang == RULES_LANG_FR) : "?";
	nact = gs->ended != NULL ? 0 : gs->module->to_act(gs->state, to_act,
	    STORE_MAX_SEATS);
	over = nact == 0;
	data = json_pack("{s:I, s:O?, s:b, s:s?}", "game_id",
	    (json_int_t)gs->game.id, "title", json_object_get(shown, "title"),
	    "over", over, "play_url", play_url);
	draw_view_fill(data, shown, gs->game.nseats, names, seat);
	json_decref(shown);
	mustache_buf_init(&out);
	if (templates_render(tpl, lang, "mail", "picture", TPL_HTML, data,
	    &out, err, errlen) != 0) {
		mustache_buf_free(&out);
		json_decref(data);
		return NULL;
	}
	json_decref(data);
	return out.data != NULL ? out.data : strdup("");
}
