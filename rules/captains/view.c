/*
 * view.c -- what a seat sees of Captain's Chair.  Public: the market and
 * its glory, the Junk, deck sizes, the Neutral Zone and its tokens, every
 * table (captain, duty officer, fleet, locations, beamed cards), staging
 * areas, discard piles, developments, resources and tracks.  A seat alone
 * sees its hand and its Captain's Log; nobody sees a deck's order, the
 * reserve's order or the cards under a market deck (only their number).
 */
#include <stdio.h>
#include <string.h>

#include "captains.h"
#include "solo.h"

static const char *const keyword_fr[KW_NKEYWORDS] = {
	"gagner", "dépenser", "gagner une action", "piocher",
	"piocher de la défausse", "défausser", "gagner une carte",
	"scanner pour", "jeter", "prendre", "replacer un incident", "logger",
	"recruter une réserve", "recruter un développement", "promouvoir",
	"déployer", "distorsion", "envoyer une équipe", "retirer une équipe",
	"téléporter", "renvoyer", "détruire", "rappeler", "épuiser",
	"réactiver", "chercher", "jouer gratuitement", "dupliquer", "dérober",
	"contrôler", "déclencher le contrôle", "spécialité", "utiliser",
	"PV", "scanner"
};
static const char *const resource_fr[CC_NRESOURCES] = {
	"dilithium", "latinum", "gloire"
};
static const char *const track_fr[CC_NTRACKS] = {
	"recherche", "influence", "militaire"
};
static const char *const opkind_fr[CC_NOPKINDS] = {
	"JOUER", "ACTIVATION", "PASSIF", "RÉACTION", "RÉAPPRO", "CONTRÔLE",
	"NETTOYAGE", "FIN DE PARTIE", "SPÉCIAL"
};

/* A keyword as English words: "gain action" for gain_action. */
static void
keyword_en(enum cc_keyword k, char *out, size_t len)
{
	snprintf(out, len, "%s", cc_keyword_name(k));
	for (char *c = out; *c != '\0'; c++)
		if (*c == '_')
			*c = ' ';
}

/* An operation's effects in words: "gain 2 latinum, draw 1", from n. */
static void
effects_text(const struct cc_set *set, const struct cc_op *op, int fr,
    char *out, size_t len, size_t n)
{
	for (int i = 0; i < op->neffects && n < len; i++) {
		const struct cc_effect *e = &op->effect[i];
		char arg[96] = "", word[48];
		if (e->resource >= 0)
			snprintf(arg, sizeof(arg), " %d %s", e->amount,
			    fr ? resource_fr[e->resource] :
			    cc_resource_name(e->resource));
		else if (e->track >= 0)
			snprintf(arg, sizeof(arg), " %d %s", e->amount,
			    fr ? track_fr[e->track] : cc_track_name(e->track));
		else if (e->trait >= 0)
			snprintf(arg, sizeof(arg), " %s",
			    set->trait_name[e->trait]);
		else if (e->suits != 0)
			for (int s = 0; s < CC_NSUITS; s++)
				if (e->suits & (1 << s)) {
					size_t a = strlen(arg);
					snprintf(arg + a, sizeof(arg) - a,
					    "%s%s", a ? "/" : " ", fr ?
					    cc_suit_name_fr(s) : cc_suit_name(s));
				}
		if (e->amount != 1 && e->resource < 0 && e->track < 0)
			snprintf(arg + strlen(arg), sizeof(arg) - strlen(arg),
			    " %d", e->amount);
		keyword_en(e->keyword, word, sizeof(word));
		n += (size_t)snprintf(out + n, len - n, "%s%s%s%s",
		    i ? ", " : "", fr ? keyword_fr[e->keyword] : word, arg,
		    e->self ?
		    (fr ? " (cette carte)" : " (this card)") : "");
	}
}

/* Append text to line (NUL-terminated in len), after sep unless first;
 * what does not fit is left out. */
static void
append_line(char *line, size_t len, const char *sep, const char *text)
{
	size_t used = strlen(line);

	snprintf(line + used, len - used, "%s%s", used > 0 ? sep : "", text);
}

/* One operation in words: "PLAY (action): gain 2 latinum, draw 1". */
static void
op_text(const struct cc_set *set, const struct cc_op *op, int fr, char *out,
    size_t len)
{
	size_t n = (size_t)snprintf(out, len, "%s%s%s%s", op->attack ?
	    (fr ? "ATTAQUE " : "ATTACK ") : "", fr ? opkind_fr[op->kind] :
	    cc_opkind_name(op->kind), op->action ? " (action)" : "",
	    fr ? "\u00a0: " : ": ");	/* French: no line break before ':' */

	effects_text(set, op, fr, out, len, n);
}

/* A mission's goal in words: "influence 6+, 2 DIPLOMAT in play". */
static void
goal_text(const struct cc_set *set, const struct cc_mission *m, int fr,
    char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (int i = 0; i < m->ngoals && n < len; i++) {
		const struct cc_goal *g = &m->goal[i];
		char what[96] = "";
		if (g->kind == CC_GOAL_TRACK) {
			n += (size_t)snprintf(out + n, len - n, "%s%s %d+",
			    i ? ", " : "", fr ? track_fr[g->track] :
			    cc_track_name(g->track), g->at_least);
			continue;
		}
		for (int su = 0; su < CC_NSUITS; su++)
			if (g->suits & (1 << su))
				snprintf(what + strlen(what), sizeof(what) -
				    strlen(what), "%s%s", what[0] ? "/" : " ",
				    fr ? cc_suit_name_fr(su) : cc_suit_name(su));
		if (g->trait >= 0)
			snprintf(what + strlen(what), sizeof(what) -
			    strlen(what), " %s", set->trait_name[g->trait]);
		if (what[0] == '\0')	/* neither suit nor trait */
			snprintf(what, sizeof(what), "%s",
			    fr ? " carte(s)" : " card(s)");
		if (g->icon >= 0)
			snprintf(what + strlen(what), sizeof(what) -
			    strlen(what), fr ? " à icône %s" : " with a %s icon",
			    fr ? track_fr[g->icon] : cc_track_name(g->icon));
		n += (size_t)snprintf(out + n, len - n, "%s%d%s%s%s",
		    i ? ", " : "", g->at_least, what, g->beamed ?
		    (fr ? " téléportée(s)" : " beamed") : "",
		    fr ? " en jeu" : " in play");
	}
}

static json_t *
missions_json(const struct cc_state *s, int seat)
{
	const struct cc_card *cap =
	    &s->set->card[s->seat[seat].zone[CC_Z_CAPTAIN].s[0].card];
	json_t *a = json_array();
	char goal_en[256], goal_fr[256], reward_en[256], reward_fr[256];

	for (int m = 0; m < cap->nmissions; m++) {
		const struct cc_mission *mi = &cap->mission[m];
		goal_text(s->set, mi, 0, goal_en, sizeof(goal_en));
		goal_text(s->set, mi, 1, goal_fr, sizeof(goal_fr));
		effects_text(s->set, &mi->reward, 0, reward_en,
		    sizeof(reward_en), 0);
		effects_text(s->set, &mi->reward, 1, reward_fr,
		    sizeof(reward_fr), 0);
		json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,"
		    "s:b}", "name_en", mi->name, "name_fr", mi->name_fr,
		    "goal_en", goal_en, "goal_fr", goal_fr, "reward_en",
		    reward_en, "reward_fr", reward_fr, "done",
		    (s->seat[seat].missions_done >> m) & 1));
	}
	return a;
}

json_t *
cc_card_json(const struct cc_state *s, int card)
{
	const struct cc_card *k = &s->set->card[card];
	json_t *traits = json_array(), *ops_en = json_array(),
	    *ops_fr = json_array(), *card_obj;
	char buf[512], line_en[2048] = "", line_fr[2048] = "";

	for (int t = 0; t < k->ntraits; t++)
		json_array_append_new(traits,
		    json_string(s->set->trait_name[k->trait[t]]));
	if (k->wildcard)
		json_array_append_new(traits, json_string("WILDCARD"));
	if (k->ongoing)
		json_array_append_new(traits, json_string("ONGOING"));
	/* Each operation alone (ops), and all of them on one line
	 * (ops_line, for text: "A; B" / "A ; B"). */
	for (int o = 0; o < k->nops; o++) {
		op_text(s->set, &k->op[o], 0, buf, sizeof(buf));
		json_array_append_new(ops_en, json_string(buf));
		append_line(line_en, sizeof(line_en), "; ", buf);
		op_text(s->set, &k->op[o], 1, buf, sizeof(buf));
		json_array_append_new(ops_fr, json_string(buf));
		append_line(line_fr, sizeof(line_fr), "\u00a0; ", buf);
	}
	card_obj = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:i,s:o,s:o,s:s,s:s}",
	    "id", k->id, "name_en", k->name, "name_fr", k->name_fr, "suit",
	    cc_suit_name(k->suit), "suit_fr", cc_suit_name_fr(k->suit),
	    "traits", traits, "vp", k->vp,
	    "ops_en", ops_en, "ops_fr", ops_fr, "ops_line_en", line_en,
	    "ops_line_fr", line_fr);
	for (int t = 0; t < CC_NTRACKS; t++)
		if (k->focus[t] > 0) {
			char en[64], fr[64];
			snprintf(en, sizeof(en), "FOCUS %s %d",
			    cc_track_name(t), k->focus[t]);
			snprintf(fr, sizeof(fr), "FOCUS %s %d", track_fr[t],
			    k->focus[t]);
			json_object_set_new(card_obj, "focus_en",
			    json_string(en));
			json_object_set_new(card_obj, "focus_fr",
			    json_string(fr));
		}
	return card_obj;
}

static json_t *
cards_of(const struct cc_state *s, const struct cc_pile *p)
{
	json_t *a = json_array();

	for (int i = 0; i < p->n; i++)
		json_array_append_new(a, cc_card_json(s, p->card[i]));
	return a;
}

static json_t *
zone_json(const struct cc_state *s, const struct cc_zone *z)
{
	json_t *a = json_array();

	for (int i = 0; i < z->n; i++) {
		const struct cc_slot *sl = &z->s[i];
		json_t *c = cc_card_json(s, sl->card), *beam = json_array();
		for (int b = 0; b < sl->nbeam; b++)
			json_array_append_new(beam, cc_card_json(s,
			    sl->beam[b]));
		json_object_set_new(c, "exhausted",
		    json_boolean(sl->exhausted));
		json_object_set_new(c, "beamed", beam);
		if (s->set->card[sl->card].suit == CC_SHIP)
			json_object_set_new(c, "ship_at", sl->at >= 0 &&
			    s->neutral[sl->at] >= 0 ? json_string(
			    s->set->card[s->neutral[sl->at]].name) :
			    json_null());
		json_array_append_new(a, c);
	}
	return a;
}

static json_t *
seat_json(const struct cc_state *s, int i, int viewer)
{
	const struct cc_seat *p = &s->seat[i];
	int own = viewer == i || viewer == RULES_VIEW_FULL;
	json_t *o = json_pack("{s:i,s:o,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}",
	    "seat", i, "captain", cc_card_json(s,
	    p->zone[CC_Z_CAPTAIN].s[0].card),
	    "dilithium", p->res[CC_DILITHIUM], "latinum", p->res[CC_LATINUM],
	    "glory", p->res[CC_GLORY], "actions", p->actions,
	    "research", p->track[CC_RESEARCH], "influence",
	    p->track[CC_INFLUENCE], "military", p->track[CC_MILITARY],
	    "away_teams_free", cc_teams_free(s, i));

	json_object_set_new(o, "captain_exhausted",
	    json_boolean(p->zone[CC_Z_CAPTAIN].s[0].exhausted));
	json_object_set_new(o, "free_plays", json_integer(p->free_plays));
	json_object_set_new(o, "hand_count", json_integer(p->hand.n));
	json_object_set_new(o, "deck_count", json_integer(p->deck.n));
	json_object_set_new(o, "reserve_count", json_integer(p->reserve.n));
	json_object_set_new(o, "log_count", json_integer(p->log.n));
	json_object_set_new(o, "discard", cards_of(s, &p->discard));
	json_object_set_new(o, "staging", cards_of(s, &p->staging));
	json_object_set_new(o, "development", cards_of(s, &p->development));
	json_object_set_new(o, "duty", zone_json(s, &p->zone[CC_Z_DUTY]));
	json_object_set_new(o, "fleet", zone_json(s, &p->zone[CC_Z_FLEET]));
	json_object_set_new(o, "locations",
	    zone_json(s, &p->zone[CC_Z_LOCATIONS]));
	json_object_set_new(o, "stardates_held",
	    json_integer(p->nstardates));
	if (p->zone[CC_Z_CAPTAIN].n > 1) {
		json_t *st = cc_card_json(s, p->zone[CC_Z_CAPTAIN].s[1].card);
		json_object_set_new(st, "exhausted",
		    json_boolean(p->zone[CC_Z_CAPTAIN].s[1].exhausted));
		json_object_set_new(o, "status", st);
	} else
		json_object_set_new(o, "status", json_null());
	json_object_set_new(o, "missions", missions_json(s, i));
	json_object_set_new(o, "mission_tokens",
	    json_integer(cc_missions_done(s, i)));
	if (s->set->card[p->zone[CC_Z_CAPTAIN].s[0].card].mission_vp > 0)
		json_object_set_new(o, "mission_vp", json_integer(
		    s->set->card[p->zone[CC_Z_CAPTAIN].s[0].card].mission_vp));
	if (own) {
		json_object_set_new(o, "hand", cards_of(s, &p->hand));
		json_object_set_new(o, "log", cards_of(s, &p->log));
		json_object_set_new(o, "incidents",
		    json_integer(cc_incidents(s, i)));
		/* what its FOCUS icons are worth now (its hand, deck and
		 * log count: its own eyes only) */
		json_object_set_new(o, "focus_points",
		    json_integer(cc_focus_points(s, i)));
	}
	if (viewer == RULES_VIEW_FULL) {
		json_object_set_new(o, "deck", cards_of(s, &p->deck));
		json_object_set_new(o, "reserve", cards_of(s, &p->reserve));
	}
	return o;
}

json_t *
cc_view(const struct cc_state *s, int viewer)
{
	json_t *v = json_object(), *to_act = json_array(), *seats = json_array(),
	    *market = json_array(), *nz = json_array();
	int nsd;

	if (!s->over)
		json_array_append_new(to_act, json_integer(s->pending ?
		    1 - s->active : s->active));
	json_object_set_new(v, "to_act", to_act);
	json_object_set_new(v, "over", json_boolean(s->over));
	json_object_set_new(v, "burn", json_boolean(s->burn));
	json_object_set_new(v, "turn", json_integer(s->turn + 1));
	json_object_set_new(v, "active_seat", json_integer(s->active));
	json_object_set_new(v, "phase", json_string(s->pending ? "answer" :
	    s->phase == CC_PH_CONTROL ? "control" : "action"));
	if (s->pending) {
		json_object_set_new(v, "attack", cc_card_json(s,
		    s->pending_card));
		json_object_set_new(v, "attacker_seat",
		    json_integer(s->active));
	}
	(void)cc_stardates(s, &nsd);
	json_object_set_new(v, "stardate", json_pack("{s:i,s:i,s:i,s:b}",
	    "number", s->stardate + 1, "of", nsd, "glory",
	    s->stardate_glory, "final", s->final_turns >= 0));
	if (s->final_turns >= 0)
		json_object_set_new(v, "final_turns_left",
		    json_integer(s->final_turns));
	for (int k = 0; k < CC_MARKET_SUITS; k++)
		json_array_append_new(market, json_pack("{s:s,s:s,s:o,s:i,s:i}",
		    "suit_en", cc_suit_name(k), "suit_fr", cc_suit_name_fr(k), "card", s->offer[k] >= 0 ?
		    cc_card_json(s, s->offer[k]) : json_null(), "glory",
		    s->offer_glory[k], "deck_count", s->market[k].n));
	json_object_set_new(v, "market", market);
	json_object_set_new(v, "junk", cards_of(s, &s->junk));
	json_object_set_new(v, "encounter_count", json_integer(s->encounter.n));
	json_object_set_new(v, "incident_count", json_integer(s->incident.n));
	json_object_set_new(v, "location_count", json_integer(s->locations.n));
	for (int k = 0; k < CC_NEUTRAL; k++) {
		json_t *e = json_object();
		json_object_set_new(e, "card", s->neutral[k] >= 0 ?
		    cc_card_json(s, s->neutral[k]) : json_null());
		for (int i = 0; i < 2; i++) {
			char key[24];
			snprintf(key, sizeof(key), "ships_%d", i);
			json_object_set_new(e, key,
			    json_integer(cc_ships_at(s, i, k)));
			snprintf(key, sizeof(key), "teams_%d", i);
			json_object_set_new(e, key,
			    json_integer(s->seat[i].teams_at[k]));
		}
		json_array_append_new(nz, e);
	}
	json_object_set_new(v, "neutral_zone", nz);
	if (s->scan_suit >= 0) {	/* the scanned cards: its eyes only */
		json_t *scan = json_pack("{s:s,s:s,s:i}", "suit_en",
		    cc_suit_name(s->scan_suit), "suit_fr",
		    cc_suit_name_fr(s->scan_suit), "count", s->scan.n);
		if (viewer == s->active || viewer == RULES_VIEW_FULL)
			json_object_set_new(scan, "cards",
			    cards_of(s, &s->scan));
		json_object_set_new(v, "scan", scan);
	}
	/* Cadet training has one seat: the virtual opponent is not one. */
	for (int i = 0; i < (s->mode == CC_MODE_CADET ? 1 : 2); i++)
		json_array_append_new(seats, seat_json(s, i, viewer));
	json_object_set_new(v, "seats", seats);
	if (s->mode != CC_MODE_TWO)
		json_object_set_new(v, "solo", cc_solo_view(s));
	json_object_set_new(v, "last_en", json_string(s->last_en));
	json_object_set_new(v, "last_fr", json_string(s->last_fr));
	if (viewer == RULES_VIEW_FULL)
		json_object_set_new(v, "incident_deck",
		    cards_of(s, &s->incident));
	return v;
}
