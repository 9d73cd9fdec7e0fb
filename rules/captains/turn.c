/*
 * turn.c -- a turn of Captain's Chair: RESUPPLY when it starts, the
 * CONTROL step, ACTION steps (play, activate), CLEAN-UP (end), and the
 * defender's answer to an ATTACK (pass, react, discard).  cc_run_steps
 * plays one message of steps; refused at the first illegal step.
 */
#include <stdio.h>
#include <string.h>

#include "captains.h"
#include "solo.h"

/* Append words and name to a last-move line; cut, when it is full, at
 * a character's boundary (the line is UTF-8 text in a saved state). */
static void
append(char *line, const char *words, const char *name)
{
	size_t l = strlen(line);

	if ((size_t)snprintf(line + l, CC_LAST_LEN - l, "%s%s%s",
	    l > 0 ? ", " : "", words, name != NULL ? name : "") <
	    CC_LAST_LEN - l)
		return;
	l = strlen(line);
	while (l > 0 && ((unsigned char)line[l - 1] & 0xc0) == 0x80)
		l--;	/* continuation bytes of a cut character */
	if (l > 0 && (unsigned char)line[l - 1] >= 0xc0)
		l--;	/* and its first byte */
	line[l] = '\0';
}

void
cc_say(struct cc_state *s, const char *en, const char *fr,
    const char *name_en, const char *name_fr)
{
	append(s->last_en, en, name_en);
	append(s->last_fr, fr, name_fr);
}

void
cc_note(struct cc_state *s, const char *en, const char *fr)
{
	cc_say(s, en, fr, NULL, NULL);
}

/* Operations of kind `kind` on the table cards (and staging cards when
 * staging) of seat, resolved in table order. */
static void
resolve_all(struct cc_ctx *c, int seat, enum cc_opkind kind, int staging)
{
	struct cc_seat *p = &c->s->seat[seat];
	const struct cc_set *set = c->s->set;

	for (int z = 0; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n && !c->s->over; i++) {
			int card = p->zone[z].s[i].card;
			for (int o = 0; o < set->card[card].nops; o++) {
				struct cc_src src = { seat, card, z, i, 0 };
				if (set->card[card].op[o].kind == kind &&
				    i < p->zone[z].n &&
				    p->zone[z].s[i].card == card)
					(void)cc_resolve(c, &src, o, NULL);
			}
		}
	for (int i = 0; staging && i < p->staging.n && !c->s->over; i++) {
		int card = p->staging.card[i];
		for (int o = 0; o < set->card[card].nops; o++) {
			struct cc_src src = { seat, card, -1, -1, 0 };
			if (set->card[card].op[o].kind == kind)
				(void)cc_resolve(c, &src, o, NULL);
		}
	}
}

void
cc_start_turn(struct cc_state *s, struct rules_rng *rng)
{
	char err[RULES_ERRLEN];
	struct cc_ctx c = { s, rng, RULES_LANG_EN, err, sizeof(err), 0 };

	s->phase = CC_PH_CONTROL;
	s->controlled_this_turn = 0;
	s->cadet_wiped = 0;
	if (!cc_is_bot(s, s->active))	/* the Bot ignores RESUPPLY */
		resolve_all(&c, s->active, CC_RESUPPLY, 0);
	cc_check_missions(&c, s->active);
}

/* The n-th (1-based; 0: the first) operation of kind on card, or -1. */
static int
pick_op(const struct cc_card *k, enum cc_opkind kind, int n)
{
	int seen = 0;

	for (int o = 0; o < k->nops; o++)
		if (k->op[o].kind == kind && ++seen == (n > 0 ? n : 1))
			return o;
	return -1;
}

/* "to deck" needs an operation that gains a card (GAIN, SCAN); told
 * from the card alone, never from what a deck holds. */
static int
to_deck_fits(struct cc_ctx *c, const struct cc_op *op,
    const struct cc_aim *aim)
{
	if (!aim->to_deck || cc_op_gains_card(op))
		return 0;
	return cc_refuse(c, "\"to deck\" places a gained card: this "
	    "operation gains none", "« vers pioche » place une carte gagnée : "
	    "cette opération n'en gagne pas");
}

static int
spend_action(struct cc_ctx *c, struct cc_seat *p)
{
	if (p->free_plays > 0) {
		p->free_plays--;
		return 0;
	}
	if (p->actions == 0)
		return cc_refuse(c, "you have no action left this turn",
		    "il ne vous reste aucune action ce tour");
	p->actions--;
	return 0;
}

/* An ATTACK waits for the defender's answer; one on the Bot or on the
 * virtual opponent of cadet training resolves at once. */
static void
start_attack(struct cc_ctx *c, int card, int o)
{
	struct cc_state *s = c->s;
	const struct cc_op *op = &s->set->card[card].op[o];

	if (!op->attack || s->over)
		return;
	if (cc_no_defender(s, 1 - s->active)) {
		cc_solo_attack(c, op);
		return;
	}
	s->pending = 1;
	s->pending_card = card;
	s->pending_op = o;
}

static int
step_play(struct cc_ctx *c, int seat, int card, int n,
    const struct cc_aim *aim)
{
	struct cc_state *s = c->s;
	struct cc_seat *p = &s->seat[seat];
	const struct cc_card *k = &s->set->card[card];
	struct cc_src src = { seat, card, -1, -1, 0 };
	int i = pile_find(&p->hand, card), o;

	if (i < 0)
		return cc_refuse(c, "you hold no %s", "vous n'avez pas %s en "
		    "main", cc_name(s, card, c->lang));
	if ((o = pick_op(k, CC_PLAY, n)) < 0)
		return cc_refuse(c, n > 1 ? "%s has no PLAY operation %d" :
		    "%s cannot be played", n > 1 ? "%s n'a pas d'opération "
		    "JOUER %d" : "%s ne peut pas être jouée",
		    cc_name(s, card, c->lang), n);
	if (to_deck_fits(c, &k->op[o], aim) < 0 ||
	    (k->op[o].action && spend_action(c, p) < 0))
		return -1;
	pile_remove_at(&p->hand, i);
	pile_push(&p->staging, card);
	cc_say(s, "played ", "a joué ", k->name, k->name_fr);
	if (cc_resolve(c, &src, o, aim) < 0)
		return -1;
	start_attack(c, card, o);
	return 0;
}

/* A ready card of seat's table whose kind is card, as zone*100+slot. */
static int
ready_on_table(struct cc_ctx *c, int seat, int card)
{
	const struct cc_seat *p = &c->s->seat[seat];
	int found = 0;

	for (int z = 0; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n; i++)
			if (p->zone[z].s[i].card == card) {
				if (!p->zone[z].s[i].exhausted)
					return z * 100 + i;
				found = 1;
			}
	return found ? cc_refuse(c, "%s is exhausted", "%s est épuisée",
	    cc_name(c->s, card, c->lang)) : cc_refuse(c, "%s is not on your "
	    "table (captain, duty officer, fleet, locations)", "%s n'est pas "
	    "sur votre table (capitaine, officier de service, flotte, lieux)",
	    cc_name(c->s, card, c->lang));
}

/* ACTIVATION on the table, or REACTION in answer to an attack. */
static int
step_use(struct cc_ctx *c, int seat, int card, int n,
    const struct cc_aim *aim, enum cc_opkind kind)
{
	struct cc_state *s = c->s;
	const struct cc_card *k = &s->set->card[card];
	int where = ready_on_table(c, seat, card), o;
	struct cc_src src;

	if (where < 0)
		return -1;
	if ((o = pick_op(k, kind, n)) < 0)
		return cc_refuse(c, kind == CC_REACTION ? "%s has no "
		    "REACTION to an attack" : "%s has no ACTIVATION%s",
		    kind == CC_REACTION ? "%s n'a pas de RÉACTION à une "
		    "attaque" : "%s n'a pas d'ACTIVATION%s",
		    cc_name(s, card, c->lang), n > 1 ? " of that number" : "");
	if (to_deck_fits(c, &k->op[o], aim) < 0)
		return -1;
	src = (struct cc_src){ seat, card, where / 100, where % 100, 0 };
	s->seat[seat].zone[src.zone].s[src.slot].exhausted = 1;
	if (k->op[o].action && spend_action(c, &s->seat[seat]) < 0)
		return -1;
	if (kind == CC_ACTIVATION)
		cc_say(s, "used ", "a utilisé ", k->name, k->name_fr);
	if (cc_resolve(c, &src, o, aim) < 0)
		return -1;
	start_attack(c, card, o);
	return 0;
}

static int
step_control(struct cc_ctx *c, int seat, int card)
{
	struct cc_state *s = c->s;
	int k;

	if (s->phase != CC_PH_CONTROL || s->controlled_this_turn)
		return cc_refuse(c, "control comes once, before your first "
		    "action of the turn", "le contrôle se fait une fois, avant "
		    "votre première action du tour");
	for (k = 0; k < CC_NEUTRAL && s->neutral[k] != card; k++)
		;
	if (k == CC_NEUTRAL || card < 0)
		return cc_refuse(c, "%s is not in the Neutral Zone",
		    "%s n'est pas dans la Zone Neutre",
		    card >= 0 ? cc_name(s, card, c->lang) : "?");
	if (!cc_secured(s, seat, k))
		return cc_refuse(c, "you have not secured %s: 3 tokens there "
		    "and 2 more than your opponent", "vous n'avez pas sécurisé "
		    "%s : 3 jetons et 2 de plus que l'adversaire",
		    cc_name(s, card, c->lang));
	cc_say(s, "took control of ", "a pris le contrôle de ",
	    s->set->card[card].name, s->set->card[card].name_fr);
	cc_take_control(c, seat, k);
	s->controlled_this_turn = 1;
	s->phase = CC_PH_ACTION;
	return 0;
}

void
cc_wipe(struct cc_state *s, const struct cc_stardate *sd)
{
	if (sd->wipe_market)
		for (int k = 0; k < CC_MARKET_SUITS; k++) {
			s->glory_returned += s->offer_glory[k];
			if (s->offer[k] >= 0)
				pile_push(&s->junk, s->offer[k]);
			cc_refill_offer(s, k);
		}
	if (sd->wipe_neutral)
		for (int k = 0; k < CC_NEUTRAL; k++)
			if (s->neutral[k] >= 0 && cc_tokens(s, 0, k) == 0 &&
			    cc_tokens(s, 1, k) == 0) {
				pile_push(&s->box, s->neutral[k]);
				s->neutral[k] = pile_pop(&s->locations);
			}
}

/* The hand cards an "end" discards at 4.4, checked against the hand
 * as the step begins (CLEAN-UP operations only add to a hand). */
static int
hand_holds(struct cc_ctx *c, int seat, const json_t *discards)
{
	const struct cc_pile *hand = &c->s->seat[seat].hand;

	for (size_t i = 0; i < json_array_size(discards); i++) {
		int card = (int)json_integer_value(json_array_get(discards, i));
		int have = 0, want = 0;
		for (int j = 0; j < hand->n; j++)
			have += hand->card[j] == card;
		for (size_t j = 0; j <= i; j++)
			want += json_integer_value(json_array_get(discards,
			    j)) == card;
		if (have < want)
			return cc_refuse(c, "you hold no %s to discard at "
			    "clean-up", "vous n'avez pas %s à défausser au "
			    "nettoyage", cc_name(c->s, card, c->lang));
	}
	return 0;
}

/* CLEAN-UP (seed 4.1 to 4.6), then the next seat's turn. */
static int
step_end(struct cc_ctx *c, int seat, int glory_on, const json_t *discards)
{
	struct cc_state *s = c->s;
	struct cc_seat *p = &s->seat[seat];
	const struct cc_stardate *sd;
	int k = -1, n;

	if (hand_holds(c, seat, discards) < 0)
		return -1;

	for (int i = 0; i < CC_MARKET_SUITS; i++)
		if (s->offer[i] >= 0 && (glory_on < 0 ? k < 0 :
		    s->offer[i] == glory_on))
			k = i;
	if (glory_on >= 0 && k < 0)
		return cc_refuse(c, "%s is not a market offer to put glory on",
		    "%s n'est pas une offre du Marché où poser la gloire",
		    cc_name(s, glory_on, c->lang));
	if (s->mode == CC_MODE_CADET && k >= 0 && glory_on >= 0 &&
	    k == cc_cadet_wiped_slot(s))
		return cc_refuse(c, "%s is wiped at this clean-up: put the "
		    "glory on another offer", "%s est effacée à ce "
		    "nettoyage : posez la gloire sur une autre offre",
		    cc_name(s, glory_on, c->lang));
	cc_say(s, "ended the turn", "a fini son tour", NULL, NULL);
	resolve_all(c, seat, CC_CLEANUP, 1);
	cc_check_missions(c, seat);	/* the staging area is still in play */
	if (s->over)
		return 0;
	sd = cc_stardates(s, &n);
	for (int i = 0; i < p->nstardates; i++)
		cc_wipe(s, &sd[p->stardate[i]]);
	p->nstardates = 0;
	if (s->mode == CC_MODE_CADET)
		cc_cadet_cleanup(s);
	/* 4.3: a glory onto an offer */
	if (k >= 0 || s->mode != CC_MODE_TWO)
		cc_glory_to_offer(s, k);
	while (p->staging.n > 0)	/* 4.4, and the chosen hand cards */
		pile_push(&p->discard, pile_pop(&p->staging));
	for (size_t i = 0; i < json_array_size(discards); i++) {
		int card = (int)json_integer_value(json_array_get(discards, i));
		int at = pile_find(&p->hand, card);
		if (at >= 0) {	/* hand_holds() made sure */
			pile_remove_at(&p->hand, at);
			pile_push(&p->discard, card);
		}
	}
	if (p->hand.n < s->set->hand_size)
		cc_draw(c, seat, s->set->hand_size - p->hand.n);
	for (int z = 0; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n; i++)
			p->zone[z].s[i].exhausted = 0;
	p->actions = s->set->actions;
	p->free_plays = 0;
	cc_next_turn(c);
	return 0;
}

/* The end of a turn: the game ends after the last of its last turns;
 * else the next seat (the same one in cadet training) starts. */
void
cc_next_turn(struct cc_ctx *c)
{
	struct cc_state *s = c->s;

	if (s->final_turns == 0) {
		s->over = 1;
		return;
	}
	if (s->final_turns > 0)
		s->final_turns--;
	if (s->mode != CC_MODE_CADET)
		s->active = 1 - s->active;
	s->turn++;
	cc_start_turn(s, c->rng);
}

static int
aim_of(const json_t *step, struct cc_aim *aim)
{
	json_t *t = json_object_get(step, "target"),
	    *d = json_object_get(step, "deck");

	aim->card = t != NULL ? (int)json_integer_value(t) : -1;
	aim->deck = d != NULL ? (int)json_integer_value(d) : -2;
	aim->to_deck = json_is_true(json_object_get(step, "to_deck"));
	return 0;
}

/* The defender's answer: react steps, discards, or pass. */
static enum rules_status
answer(struct cc_ctx *c, int seat, const json_t *steps)
{
	struct cc_state *s = c->s;
	int discards[CC_STEPS_MAX], nd = 0;
	size_t i;

	for (i = 0; i < json_array_size(steps); i++) {
		const json_t *st = json_array_get(steps, i);
		int verb = (int)json_integer_value(json_object_get(st, "verb"));
		int card = (int)json_integer_value(json_object_get(st, "card"));
		struct cc_aim aim;
		size_t le = strlen(c->err);

		aim_of(st, &aim);
		if (verb == V_REACT) {
			if (step_use(c, seat, card, (int)json_integer_value(
			    json_object_get(st, "op")), &aim, CC_REACTION) < 0)
				goto refused;
		} else if (verb == V_DISCARD) {
			int have = 0, want = 1;
			for (int j = 0; j < s->seat[seat].hand.n; j++)
				have += s->seat[seat].hand.card[j] == card;
			for (int j = 0; j < nd; j++)
				want += discards[j] == card;
			if (have < want) {
				cc_refuse(c, "you hold no %s to discard",
				    "vous n'avez pas %s à défausser",
				    cc_name(s, card, c->lang));
				goto refused;
			}
			discards[nd++] = card;
		} else if (verb != V_PASS) {
			cc_refuse(c, "your opponent's attack waits for your "
			    "answer: pass, react CARD or discard CARD",
			    "l'attaque adverse attend votre réponse : passer, "
			    "réagir CARTE ou défausser CARTE");
			goto refused;
		}
		(void)le;
		continue;
refused:
		cc_step_refusal(c->err, c->errlen, c->lang, i + 1);
		return RULES_ILLEGAL;
	}
	s->last_en[0] = s->last_fr[0] = '\0';
	cc_say(s, "answered the attack", "a répondu à l'attaque", NULL, NULL);
	s->pending = 0;
	cc_resolve_attack(c, s->pending_card, s->pending_op, discards, nd);
	return RULES_OK;
}

enum rules_status
cc_run_steps(struct cc_state *s, int seat, const json_t *steps,
    struct rules_rng *rng, enum rules_lang lang, char *err, size_t errlen)
{
	struct cc_ctx c = { s, rng, lang, err, errlen, 0 };
	size_t i, n = json_array_size(steps);
	int turn = s->turn;

	err[0] = '\0';
	s->unseen = 0;
	if (s->over) {
		cc_refuse(&c, "the game is over", "la partie est finie");
		return RULES_GAME_OVER;
	}
	if (s->pending) {
		if (seat != 1 - s->active) {
			cc_refuse(&c, "your opponent is answering your attack",
			    "votre adversaire répond à votre attaque");
			return RULES_NOT_YOUR_TURN;
		}
		return answer(&c, seat, steps);
	}
	if (seat != s->active) {
		cc_refuse(&c, "it is not your turn", "ce n'est pas votre tour");
		return RULES_NOT_YOUR_TURN;
	}
	s->last_en[0] = s->last_fr[0] = '\0';
	for (i = 0; i < n; i++) {
		const json_t *st = json_array_get(steps, i);
		int verb = (int)json_integer_value(json_object_get(st, "verb"));
		int card = (int)json_integer_value(json_object_get(st, "card"));
		int opn = (int)json_integer_value(json_object_get(st, "op"));
		struct cc_aim aim;
		int rc = 0;

		aim_of(st, &aim);
		if (s->over || s->turn != turn)
			rc = cc_refuse(&c, s->over ? "the game ended at the "
			    "step before" : "your turn ended at the step "
			    "before", s->over ? "la partie s'est terminée à "
			    "l'étape précédente" : "votre tour s'est terminé à "
			    "l'étape précédente");
		else if (s->pending)
			rc = cc_refuse(&c, "your attack waits for your "
			    "opponent's answer: send the next steps after it",
			    "votre attaque attend la réponse adverse : envoyez "
			    "les étapes suivantes après elle");
		else if (s->unseen && rng == NULL)
			rc = cc_refuse(&c, "the step before brought cards you "
			    "have not seen yet: send the next steps in a new "
			    "message", "l'étape précédente a amené des cartes "
			    "que vous n'avez pas encore vues : envoyez les "
			    "étapes suivantes dans un nouveau message");
		else if (verb == V_BOT)
			rc = cc_bot_turn(&c, seat);
		else if (cc_is_bot(s, seat))
			rc = cc_refuse(&c, "the Bot's seat plays \"bot\" only",
			    "la place du Bot ne joue que « robot »");
		else if (s->scan_suit >= 0 && verb != V_PICK)
			rc = cc_refuse(&c, "you scanned: first pick one card, "
			    "\"pick CARD [to deck]\"", "vous avez scanné : "
			    "choisissez d'abord une carte, « choisir CARTE "
			    "[vers pioche] »");
		else if (verb == V_PICK)
			rc = cc_pick(&c, seat, card, &aim);
		else if (verb == V_WIPE)
			rc = cc_cadet_wipe(&c, seat, aim.card);
		else if (verb == V_CONTROL)
			rc = step_control(&c, seat, aim.card);
		else if (verb == V_PLAY || verb == V_ACTIVATE) {
			s->phase = CC_PH_ACTION;
			rc = verb == V_PLAY ? step_play(&c, seat, card, opn,
			    &aim) : step_use(&c, seat, card, opn, &aim,
			    CC_ACTIVATION);
		} else if (verb == V_END)
			rc = step_end(&c, seat, aim.card,
			    json_object_get(st, "discards"));
		else
			rc = cc_refuse(&c, "pass, react and discard answer an "
			    "attack; none waits for you", "passer, réagir et "
			    "défausser répondent à une attaque ; aucune ne vous "
			    "attend");
		if (rc == 0 && !s->over && s->turn == turn)
			cc_check_missions(&c, seat);
		if (rc < 0) {
			cc_step_refusal(err, errlen, lang, i + 1);
			return RULES_ILLEGAL;
		}
	}
	return RULES_OK;
}

int
cc_incidents(const struct cc_state *s, int seat)
{
	const struct cc_seat *p = &s->seat[seat];
	const struct cc_pile *piles[5] = { &p->hand, &p->deck, &p->discard,
		&p->staging, &p->log };
	int n = 0;

	for (int i = 0; i < 5; i++)
		for (int j = 0; j < piles[i]->n; j++)
			n += s->set->card[piles[i]->card[j]].suit ==
			    CC_INCIDENT;
	for (int z = 0; z < CC_NZONES; z++)
		for (int i = 0; i < p->zone[z].n; i++) {
			const struct cc_slot *sl = &p->zone[z].s[i];
			n += s->set->card[sl->card].suit == CC_INCIDENT;
			for (int b = 0; b < sl->nbeam; b++)
				n += s->set->card[sl->beam[b]].suit ==
				    CC_INCIDENT;
		}
	return n;
}
