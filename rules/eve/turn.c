/*
 * turn.c -- the steps of a turn, checked and played in order.
 *
 * eve_run_turn() is the one place the rules of a turn live.  check()
 * calls it on a copy of the state with rng == NULL: every step is judged
 * in the position the steps before it left, and the first illegal one is
 * named with the reason.  apply() calls it again on the real state with
 * the random stream, after check() passed, and then ends the turn (space
 * effects, refill, stage end).  Dice rolled by expert mode change only
 * ship tracks, never which later step is legal, except that a destroyed
 * ship plays no further step.
 */
#include <stdio.h>
#include <string.h>

#include "eve.h"

struct turn {
	struct eve	*g;
	int		 seat;
	int		 sn;		/* step number, from 1 */
	int		 from_hand;	/* cards used from the hand */
	int		 from_reserve;	/* cards used from the reserve */
	int		 pending;	/* one card paid toward the Klingon */
	int		 pending_dir;	/* ... flying in this direction */
	int		 moved;		/* the ship entered a space */
	int		 ended;		/* step that ended the stage, or 0 */
	int		 finisher;	/* seat whose ship ended it */
	int		 extended;	/* step of the route extension, or 0 */
	int		 revealed;	/* step that laid hidden travel cards */
	int		 traded;
	int		 trade_from, trade_to;
	struct rules_rng *rng;
	enum rules_lang	 lang;
	char		*err;
	size_t		 errlen;
};

#define REFUSE(t, en, fr, ...) do {					\
	eve_err((t)->err, (t)->errlen, (t)->lang, "step %d: " en,	\
	    "étape %d : " fr, (t)->sn, __VA_ARGS__);			\
	return -1;							\
} while (0)

static const char *
kname(const struct turn *t, int kind)
{
	return eve_kind_name(kind, t->lang);
}

static int
kl_at(const struct eve *g, int pos, int route)
{
	return g->kl_pos == pos && g->kl_route == route;
}

/* Take a card of kind from the hand or the reserve top, within limits. */
static int
take_card(struct turn *t, int kind, int src, int *card)
{
	struct eve_player *pl = &t->g->p[t->seat];
	int i, best = -1;

	if (src == SRC_HAND) {
		if (t->from_hand >= EVE_PER_TURN)
			REFUSE(t, "you have already used %d cards from your "
			    "hand this turn", "vous avez déjà utilisé %d "
			    "cartes de votre main ce tour-ci", EVE_PER_TURN);
		for (i = 0; i < pl->nhand; i++)
			if (eve_kind(pl->hand[i]) == kind &&
			    (best < 0 || pl->hand[i] < pl->hand[best]))
				best = i;
		if (best < 0)
			REFUSE(t, "you have no %s in your hand",
			    "vous n'avez pas de %s en main", kname(t, kind));
		*card = pl->hand[best];
		pl->hand[best] = pl->hand[--pl->nhand];
		t->from_hand++;
		return 0;
	}
	if (t->from_reserve >= EVE_PER_TURN)
		REFUSE(t, "you have already used %d cards from your reserve "
		    "pile this turn", "vous avez déjà utilisé %d cartes de "
		    "votre réserve ce tour-ci", EVE_PER_TURN);
	if (pl->nreserve == 0)
		REFUSE(t, "your reserve pile is empty%s",
		    "votre réserve est vide%s", "");
	if (eve_kind(pl->reserve[pl->nreserve - 1]) != kind)
		REFUSE(t, "the top card of your reserve pile is %s, not %s",
		    "la carte du dessus de votre réserve est %s, pas %s",
		    kname(t, eve_kind(pl->reserve[pl->nreserve - 1])),
		    kname(t, kind));
	*card = pl->reserve[--pl->nreserve];
	t->from_reserve++;
	return 0;
}

static void
to_discard(struct turn *t, int card)
{
	struct eve_player *pl = &t->g->p[t->seat];

	pl->discard[pl->ndiscard++] = card;
}

/* The ship enters space pos; 0, or -1 when it has no dilithium. */
static void
enter(struct turn *t, int pos)
{
	struct eve_player *pl = &t->g->p[t->seat];

	pl->pos = pos;
	t->moved = 1;
	if (t->g->mode == MODE_EXPERT)
		pl->track[T_DILITHIUM]--;
	if (pos == t->g->nrow - 1 && t->ended == 0) {
		t->ended = t->sn;
		t->finisher = t->seat;
	}
}

static int
can_pay_dilithium(const struct turn *t)
{
	return t->g->mode != MODE_EXPERT ||
	    t->g->p[t->seat].track[T_DILITHIUM] > 0;
}

/* Enter space next and cross the run of identical spaces after it. */
static void
cross(struct turn *t, int next, int dir)
{
	struct eve *g = t->g;
	int run = eve_space(g, next, t->seat);

	enter(t, next);
	while (!t->ended && next + dir >= 0 && next + dir < g->nrow &&
	    eve_space(g, next + dir, t->seat) == run &&
	    !kl_at(g, next + dir, t->seat) && can_pay_dilithium(t)) {
		next += dir;
		enter(t, next);
	}
}

/* The Klingon is beaten: back beside the row. */
static void
klingon_beaten(struct eve *g)
{
	g->kl_pos = -1;
	g->kl_route = 0;
}

/*
 * Version 2 (seed: "Si un joueur ne possède pas de carte correspondant
 * au type de voyage se trouvant devant son vaisseau, il peut jouer deux
 * cartes de vol identiques comme joker"): a joker only when the hand and
 * the reserve top hold no card of the next space's type.  Judged before
 * the joker's own cards are taken.
 */
static int
joker_allowed(struct turn *t, int dir)
{
	struct eve *g = t->g;
	struct eve_player *pl = &g->p[t->seat];
	int next = pl->pos + dir, need, i;

	if (g->version < 2 || next < 0 || next >= g->nrow)
		return 0;	/* fly() names what is wrong */
	need = eve_space(g, next, t->seat);
	for (i = 0; i < pl->nhand; i++)
		if (eve_kind(pl->hand[i]) == need)
			REFUSE(t, "you hold a %s, the type of the next space: "
			    "a joker is only for a player without the "
			    "matching card", "vous avez une carte %s, le type "
			    "de la prochaine case : le joker est pour qui n'a "
			    "pas la carte correspondante", kname(t, need));
	if (pl->nreserve > 0 &&
	    eve_kind(pl->reserve[pl->nreserve - 1]) == need)
		REFUSE(t, "the top of your reserve pile is %s, the type of the "
		    "next space: a joker is only for a player without the "
		    "matching card", "le dessus de votre réserve est %s, le "
		    "type de la prochaine case : le joker est pour qui n'a "
		    "pas la carte correspondante", kname(t, need));
	return 0;
}

/*
 * One flight payment (a matching card, or a joker when type is -1) in
 * direction dir.  Crosses the run of identical spaces ahead, stopping
 * before the Klingon; the Klingon's own space costs a second payment
 * (base, and expert from version 2), a second payment or a fight step
 * (expert, version 2), or the fight at once (expert, version 1).
 */
static int
fly(struct turn *t, int type, int dir)
{
	struct eve *g = t->g;
	struct eve_player *pl = &g->p[t->seat];
	int next = pl->pos + dir, run;

	if (dir < 0 && g->mode != MODE_EXPERT)
		REFUSE(t, "ships fly only forward in base mode%s",
		    "les vaisseaux ne volent qu'en avant en mode de base%s",
		    "");
	if (next < 0 || next >= g->nrow)
		REFUSE(t, "there is no space %s your ship",
		    "il n'y a pas de case %s votre vaisseau",
		    dir > 0 ? (t->lang == RULES_LANG_FR ? "devant" : "ahead of")
		    : (t->lang == RULES_LANG_FR ? "derrière" : "behind"));
	run = eve_space(g, next, t->seat);
	if (type >= 0 && type != run)
		REFUSE(t, "the next space of your route is %s, not %s",
		    "la prochaine case de votre itinéraire est %s, pas %s",
		    kname(t, run), kname(t, type));
	if (!can_pay_dilithium(t))
		REFUSE(t, "your ship has no dilithium left%s",
		    "votre vaisseau n'a plus de dilithium%s", "");
	if (kl_at(g, next, t->seat)) {
		if ((g->mode == MODE_BASE || g->version >= 2) &&
		    (!t->pending || t->pending_dir != dir)) {
			t->pending = t->sn;
			t->pending_dir = dir;
			return 0;
		}
		t->pending = 0;
		if (g->mode == MODE_EXPERT && g->version < 2 && t->rng != NULL)
			eve_expert_fight(g, t->seat, t->rng);
		klingon_beaten(g);
		if (pl->destroyed)
			return 0;
	}
	cross(t, next, dir);
	return 0;
}

/*
 * Expert mode, version 2: the fight instead of the second payment
 * (seed: "En cas de blocage par un Klingon, dépensez 1D6 Torpilles et
 * 1D6 Boucliers ... pour pouvoir le vaincre et poursuivre votre
 * voyage").  It follows a first payment toward the Klingon; the dice
 * are rolled in apply only.
 */
static int
fight(struct turn *t)
{
	struct eve *g = t->g;
	struct eve_player *pl = &g->p[t->seat];
	int next = pl->pos + t->pending_dir;

	if (g->mode != MODE_EXPERT)
		REFUSE(t, "the Klingon is fought only in expert mode%s",
		    "on ne combat le Klingon qu'en mode expert%s", "");
	if (g->version < 2)
		REFUSE(t, "\"fight\" is a step of games with rules version 2 "
		    "or later; here one payment fights at once%s",
		    "« combattre » est une étape des parties en version 2 des "
		    "règles ou plus ; ici un paiement combat aussi tôt%s", "");
	if (!t->pending || !kl_at(g, next, t->seat))
		REFUSE(t, "fight follows a flight card (or joker) paid toward "
		    "the Klingon on the next space of your route%s",
		    "combattre suit une carte de vol (ou un joker) payée vers "
		    "le Klingon sur la prochaine case de votre itinéraire%s",
		    "");
	if (!can_pay_dilithium(t))
		REFUSE(t, "your ship has no dilithium left%s",
		    "votre vaisseau n'a plus de dilithium%s", "");
	t->pending = 0;
	if (t->rng != NULL)
		eve_expert_fight(g, t->seat, t->rng);
	klingon_beaten(g);
	if (pl->destroyed)
		return 0;
	cross(t, next, t->pending_dir);
	return 0;
}

/* A travel card is free when no ship and no Klingon is on it. */
static int
card_free(const struct eve *g, int i)
{
	return g->p[0].pos != i && g->p[1].pos != i && g->kl_pos != i;
}

static int
free_card_at(struct turn *t, int i)
{
	if (i < 0 || i >= t->g->nrow)
		REFUSE(t, "the row has cards 1 to %d, not %d",
		    "la rangée a les cartes 1 à %d, pas %d", t->g->nrow,
		    i + 1);
	if (!card_free(t->g, i))
		REFUSE(t, "travel card %d is not free (a ship or the Klingon "
		    "is on it)%s", "la carte de voyage %d n'est pas libre (un "
		    "vaisseau ou le Klingon s'y trouve)%s", i + 1, "");
	return 0;
}

static void
extend_row(struct eve *g, int flip)
{
	g->row[g->nrow] = g->tdeck[--g->ntdeck];
	g->flip[g->nrow] = flip ? 1 : 0;
	g->nrow++;
}

static int
retreat_forward(struct turn *t)
{
	struct eve *g = t->g;
	int next = g->p[t->seat].pos + 1;

	if (next >= g->nrow)
		REFUSE(t, "there is no space ahead of your ship%s",
		    "il n'y a pas de case devant votre vaisseau%s", "");
	if (kl_at(g, next, t->seat))
		REFUSE(t, "Retreat cannot move your ship onto the Klingon%s",
		    "Repli ne peut pas mettre votre vaisseau sur le "
		    "Klingon%s", "");
	if (!can_pay_dilithium(t))
		REFUSE(t, "your ship has no dilithium left%s",
		    "votre vaisseau n'a plus de dilithium%s", "");
	t->pending = 0;
	enter(t, next);
	return 0;
}

static int
retreat_back(struct turn *t)
{
	struct eve *g = t->g;
	int opp = 1 - t->seat, back = g->p[opp].pos - 1;

	if (g->p[opp].pos < 0)
		REFUSE(t, "the opponent's ship is still before the row%s",
		    "le vaisseau adverse est encore devant la rangée%s", "");
	if (back >= 0 && kl_at(g, back, opp))
		REFUSE(t, "Retreat cannot move the opponent's ship onto the "
		    "Klingon%s", "Repli ne peut pas mettre le vaisseau "
		    "adverse sur le Klingon%s", "");
	g->p[opp].pos = back;
	return 0;
}

static int
nz_klingon(struct turn *t, int pos, int route)
{
	struct eve *g = t->g;

	if (route < 0)
		route = 1 - t->seat;
	if (route > 1 || pos < 0 || pos >= g->nrow)
		REFUSE(t, "the row has spaces 1 to %d on each route",
		    "la rangée a les cases 1 à %d sur chaque itinéraire",
		    g->nrow);
	if (g->p[route].pos == pos || kl_at(g, pos, route))
		REFUSE(t, "space %d of the %s route is not free",
		    "la case %d de l'itinéraire %s n'est pas libre", pos + 1,
		    eve_route_name(route));
	g->kl_pos = pos;
	g->kl_route = route;
	t->pending = 0;
	return 0;
}

static int
nz_discard(struct turn *t, int i)
{
	struct eve *g = t->g;
	int s;

	if (free_card_at(t, i) != 0)
		return -1;
	if (i == g->nrow - 1 && g->version < 2)
		REFUSE(t, "the last card of the row cannot be discarded%s",
		    "la dernière carte de la rangée ne peut pas être "
		    "défaussée%s", "");
	if (g->nrow == 1)
		REFUSE(t, "the row's only card cannot be discarded%s",
		    "la seule carte de la rangée ne peut pas être "
		    "défaussée%s", "");
	g->tdiscard[g->ntdiscard++] = g->row[i];
	memmove(&g->row[i], &g->row[i + 1], sizeof(int) * (g->nrow - i - 1));
	memmove(&g->flip[i], &g->flip[i + 1],
	    sizeof(int) * (g->nrow - i - 1));
	g->nrow--;
	for (s = 0; s < EVE_SEATS; s++)
		if (g->p[s].pos > i)
			g->p[s].pos--;
	if (g->kl_pos > i)
		g->kl_pos--;
	/* Version 2: a ship now on the last space has reached it and the
	 * stage ends; the player of the card first if both have. */
	for (s = 0; s < EVE_SEATS && t->ended == 0; s++) {
		int who = s == 0 ? t->seat : 1 - t->seat;

		if (g->p[who].pos == g->nrow - 1) {
			t->ended = t->sn;
			t->finisher = who;
		}
	}
	return 0;
}

static int
mirror_swap(struct turn *t, int a, int b)
{
	struct eve *g = t->g;
	int tmp;

	if (free_card_at(t, a) != 0 || free_card_at(t, b) != 0)
		return -1;
	if (a == b)
		REFUSE(t, "name two different travel cards to swap%s",
		    "nommez deux cartes de voyage différentes%s", "");
	tmp = g->row[a], g->row[a] = g->row[b], g->row[b] = tmp;
	tmp = g->flip[a], g->flip[a] = g->flip[b], g->flip[b] = tmp;
	return 0;
}

static int
brief_order(struct turn *t, const int *kinds, int n)
{
	struct eve_player *pl = &t->g->p[t->seat];
	int used[EVE_DECK] = { 0 }, neworder[EVE_DECK];
	int i, j, found;

	if (n != pl->nreserve)
		REFUSE(t, "your reserve pile holds %d cards; list all of them, "
		    "top first", "votre réserve a %d cartes ; listez-les "
		    "toutes, dessus d'abord", pl->nreserve);
	for (i = 0; i < n; i++) {
		found = -1;
		for (j = 0; j < pl->nreserve; j++)
			if (!used[j] && eve_kind(pl->reserve[j]) == kinds[i] &&
			    (found < 0 || pl->reserve[j] < pl->reserve[found]))
				found = j;
		if (found < 0)
			REFUSE(t, "your reserve pile has no more %s",
			    "votre réserve n'a plus de %s", kname(t, kinds[i]));
		used[found] = 1;
		neworder[n - 1 - i] = pl->reserve[found];
	}
	memcpy(pl->reserve, neworder, sizeof(int) * n);
	return 0;
}

static int
trade(struct turn *t, int from, int to)
{
	struct eve *g = t->g;
	struct eve_player *pl = &g->p[t->seat];

	if (g->mode != MODE_EXPERT)
		REFUSE(t, "trading exists only in expert mode%s",
		    "le commerce n'existe qu'en mode expert%s", "");
	if (g->version >= 2 && (pl->pos < 0 ||
	    eve_space(g, pl->pos, t->seat) != K_CLASSM || t->ended))
		REFUSE(t, "you trade only when your ship ends the turn on a "
		    "class-M planet%s", "on ne commerce que si le vaisseau "
		    "termine le tour sur une planète de classe M%s", "");
	if (g->version < 2 && (!t->moved || pl->pos < 0 ||
	    eve_space(g, pl->pos, t->seat) != K_CLASSM || t->ended))
		REFUSE(t, "you trade only when your ship ends a flight on a "
		    "class-M planet%s", "on ne commerce que si le vaisseau "
		    "termine son vol sur une planète de classe M%s", "");
	if (from < 0 || from >= T_NTRACKS || to < 0 || to >= T_NTRACKS ||
	    from == to)
		REFUSE(t, "trade one track for a different one%s",
		    "échangez une piste contre une autre%s", "");
	/* Dice rolled during apply may have emptied the track: the trade
	 * then does nothing (expert.c), but check() judged it with the
	 * tracks as they stood. */
	if (pl->track[from] < 1 && t->rng == NULL)
		REFUSE(t, "you have no %s to trade",
		    "vous n'avez pas de %s à échanger",
		    eve_track_name(from, t->lang));
	t->traded = 1;
	t->trade_from = from;
	t->trade_to = to;
	return 0;
}

/* The Spock kind each Spock operation needs. */
static int
spock_kind(int op)
{
	switch (op) {
	case OP_RETREAT_FWD:
	case OP_RETREAT_BACK:
		return K_RETREAT;
	case OP_NZ_KLINGON:
	case OP_NZ_DISCARD:
		return K_NEUTRAL;
	case OP_MIRROR_TURN:
	case OP_MIRROR_SWAP:
		return K_MIRROR;
	case OP_BRIEF_EXTEND:
	case OP_BRIEF_ORDER:
		return K_BRIEFING;
	default:
		return -1;
	}
}

static int
check_shape(struct turn *t, const struct eve_step *st)
{
	int want = st->op == OP_EXTEND || st->op == OP_TRADE ||
	    st->op == OP_FIGHT ? 0 :
	    st->op == OP_JOKER ? 2 : 1;

	if (st->ncards != want)
		REFUSE(t, "%s takes %d card(s)", "%s prend %d carte(s)",
		    eve_op_name(st->op), want);
	if ((st->op == OP_FLY || st->op == OP_JOKER) &&
	    (st->kind[0] >= EVE_NTYPES || st->nargs != 1 ||
	    (st->arg[0] != 1 && st->arg[0] != -1)))
		REFUSE(t, "only flight cards fly (not %s)",
		    "seules les cartes de vol font voler (pas %s)",
		    kname(t, st->kind[0]));
	if (st->op == OP_JOKER && st->kind[1] != st->kind[0])
		REFUSE(t, "a joker is two identical flight cards, not %s and %s",
		    "un joker est deux cartes de vol identiques, pas %s et %s",
		    kname(t, st->kind[0]), kname(t, st->kind[1]));
	if (spock_kind(st->op) >= 0 && st->kind[0] != spock_kind(st->op))
		REFUSE(t, "that action belongs to the %s card",
		    "cette action est celle de la carte %s",
		    kname(t, spock_kind(st->op)));
	if (st->op == OP_RESERVE && st->src[0] != SRC_HAND)
		REFUSE(t, "only hand cards go onto the reserve pile%s",
		    "seules les cartes de la main vont sur la réserve%s", "");
	if ((st->op == OP_EXTEND && st->nargs != 1) ||
	    (st->op == OP_BRIEF_EXTEND && (st->nargs < 1 || st->nargs > 2)) ||
	    (st->op == OP_TRADE && st->nargs != 2) ||
	    (st->op == OP_NZ_KLINGON && st->nargs != 2) ||
	    ((st->op == OP_NZ_DISCARD || st->op == OP_MIRROR_TURN) &&
	    st->nargs != 1) || (st->op == OP_MIRROR_SWAP && st->nargs != 2) ||
	    (st->op == OP_FIGHT && st->nargs != 0))
		REFUSE(t, "%s is incomplete", "%s est incomplet",
		    eve_op_name(st->op));
	return 0;
}

static int
run_step(struct turn *t, const struct eve_step *st)
{
	struct eve *g = t->g;
	struct eve_player *pl = &g->p[t->seat];
	int card[2], k;

	if (t->ended)
		REFUSE(t, "the stage already ended at step %d, when a ship "
		    "reached the last space; remove the steps after it",
		    "l'étape de vol s'est terminée à l'étape %d (un vaisseau "
		    "a atteint la dernière case) ; retirez les étapes "
		    "suivantes", t->ended);
	if (t->traded)
		REFUSE(t, "trade is the last step of a turn%s",
		    "le commerce est la dernière étape du tour%s", "");
	if (t->extended && st->op != OP_TRADE)
		REFUSE(t, "the route extension ends the turn (only trade may "
		    "follow it)%s", "l'allongement de l'itinéraire termine le "
		    "tour (seul le commerce peut suivre)%s", "");
	/* No peeking: the travel cards Briefing laid were hidden when the
	 * turn was written, so nothing that could depend on them may
	 * follow (docs/eve.md, "Hidden information").  Version 1 games
	 * keep their rule, so that their recorded turns still replay. */
	if (g->version >= 2 && t->revealed && st->op != OP_EXTEND &&
	    st->op != OP_TRADE)
		REFUSE(t, "Briefing's extension at step %d lays travel cards "
		    "you had not seen when you wrote the turn; only extend or "
		    "trade may follow it", "l'allongement de Briefing à "
		    "l'étape %d pose des cartes de voyage que vous n'aviez pas "
		    "vues en écrivant le tour ; seuls allonger ou commercer "
		    "peuvent suivre", t->revealed);
	if (check_shape(t, st) != 0)
		return -1;
	if (st->op == OP_JOKER && joker_allowed(t, st->arg[0]) != 0)
		return -1;
	if (st->op == OP_STARFLEET && !eve_sf_matches(g->starfleet,
	    st->kind[0]))
		REFUSE(t, "%s does not match the Starfleet card (%s and %s)",
		    "%s ne correspond pas à la carte Starfleet (%s et %s)",
		    kname(t, st->kind[0]),
		    eve_sf_symbol_name(g->starfleet, 0, t->lang),
		    eve_sf_symbol_name(g->starfleet, 1, t->lang));
	for (k = 0; k < st->ncards; k++)
		if (take_card(t, st->kind[k], st->src[k], &card[k]) != 0)
			return -1;
	switch (st->op) {
	case OP_FLY:
	case OP_JOKER:
		if (fly(t, st->op == OP_FLY ? st->kind[0] : -1, st->arg[0]) != 0)
			return -1;
		break;
	case OP_STARFLEET:
		pl->fleet[pl->nfleet++] = card[0];
		return 0;
	case OP_DISCARD:
		break;
	case OP_RESERVE:
		pl->reserve[pl->nreserve++] = card[0];
		return 0;
	case OP_RETREAT_FWD:
		if (retreat_forward(t) != 0)
			return -1;
		break;
	case OP_RETREAT_BACK:
		if (retreat_back(t) != 0)
			return -1;
		break;
	case OP_NZ_KLINGON:
		if (nz_klingon(t, st->arg[0], st->arg[1]) != 0)
			return -1;
		break;
	case OP_NZ_DISCARD:
		if (nz_discard(t, st->arg[0]) != 0)
			return -1;
		break;
	case OP_MIRROR_TURN:
		if (free_card_at(t, st->arg[0]) != 0)
			return -1;
		g->flip[st->arg[0]] ^= 1;
		break;
	case OP_MIRROR_SWAP:
		if (mirror_swap(t, st->arg[0], st->arg[1]) != 0)
			return -1;
		break;
	case OP_BRIEF_EXTEND:
		if (g->ntdeck < st->nargs)
			REFUSE(t, "the travel deck has only %d card(s) left",
			    "la pioche de voyage n'a plus que %d carte(s)",
			    g->ntdeck);
		for (k = 0; k < st->nargs; k++)
			extend_row(g, st->arg[k]);
		t->revealed = t->sn;
		break;
	case OP_BRIEF_ORDER:
		if (brief_order(t, st->arg, st->nargs) != 0)
			return -1;
		break;
	case OP_EXTEND:
		if (g->ntdeck == 0)
			REFUSE(t, "the travel deck is empty%s",
			    "la pioche de voyage est vide%s", "");
		extend_row(g, st->arg[0]);
		t->extended = t->sn;
		return 0;
	case OP_TRADE:
		return trade(t, st->arg[0], st->arg[1]);
	case OP_FIGHT:
		return fight(t);
	}
	for (k = 0; k < st->ncards; k++)
		to_discard(t, card[k]);
	return 0;
}

enum rules_status
eve_run_turn(struct eve *g, int seat, const struct eve_step *steps, int n,
    struct rules_rng *rng, enum rules_lang lang, char *err, size_t errlen)
{
	struct turn t;
	int i;

	if (g->over) {
		eve_err(err, errlen, lang, "the game is over",
		    "la partie est terminée");
		return RULES_GAME_OVER;
	}
	if (seat != g->current) {
		eve_err(err, errlen, lang, "it is not your turn; the %s (seat "
		    "%d) is to play", "ce n'est pas votre tour ; c'est à "
		    "l'%s (siège %d) de jouer",
		    eve_ship_name(g->current), g->current);
		return RULES_NOT_YOUR_TURN;
	}
	memset(&t, 0, sizeof(t));
	t.g = g;
	t.seat = seat;
	t.rng = rng;
	t.lang = lang;
	t.err = err;
	t.errlen = errlen;
	t.trade_from = t.trade_to = -1;
	for (i = 0; i < n; i++) {
		t.sn = i + 1;
		if (run_step(&t, &steps[i]) != 0)
			return RULES_ILLEGAL;
		if (g->p[seat].destroyed)
			break;	/* only with dice: apply after check */
	}
	if (t.pending && !g->p[seat].destroyed) {
		if (g->mode == MODE_EXPERT)
			eve_err(err, errlen, lang, "step %d: the Klingon blocks "
			    "the next space; entering it needs a second "
			    "matching card, a joker or \"fight\" in the same "
			    "turn", "étape %d : le Klingon bloque la case "
			    "suivante ; y entrer demande une deuxième carte "
			    "correspondante, un joker ou « combattre » dans "
			    "le même tour", t.pending);
		else
			eve_err(err, errlen, lang, "step %d: the Klingon blocks "
			    "the next space; entering it needs a second "
			    "matching card or a joker in the same turn",
			    "étape %d : le Klingon bloque la case suivante ; "
			    "y entrer demande une deuxième carte "
			    "correspondante ou un joker dans le même tour",
			    t.pending);
		return RULES_ILLEGAL;
	}
	if (rng == NULL)
		return RULES_OK;

	/* apply: the end of the turn. */
	/* Version 2: the space takes effect whether or not the ship moved
	 * this turn (seed: "Si vous terminez votre tour dessus"). */
	if (g->mode == MODE_EXPERT && (t.moved || g->version >= 2) &&
	    !t.ended && !g->p[seat].destroyed)
		eve_expert_end_turn(g, seat, t.trade_from, t.trade_to, rng);
	eve_refill(g, seat, rng);
	if (t.ended && !g->p[seat].destroyed)
		eve_end_stage(g, t.finisher, rng);
	else
		g->current = 1 - seat;
	if (g->mode == MODE_EXPERT && !g->over)
		eve_expert_outcome(g);
	return RULES_OK;
}
