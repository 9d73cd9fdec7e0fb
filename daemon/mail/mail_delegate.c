/*
 * mail_delegate.c -- a delegation certificate sent by mail (mail.h;
 * docs/PROTOCOL.md section 13, docs/MAIL.md "Delegation").
 *
 * The certificate is the JSON `pbem delegate -m` prints between the
 * lines -----BEGIN PBEM DELEGATION----- and -----END PBEM DELEGATION-----.
 * A revocation is the JSON `pbem delegate revoke -m ID` prints between
 * -----BEGIN PBEM REVOCATION----- and -----END PBEM REVOCATION-----.
 * Each carries the player's own signature, so the mail's sender need not
 * be anyone in particular: a refusal before the signature is checked
 * goes back to the sender, the answer once it is checked to the player's
 * registered address, in their language.  The engine does the rest
 * (delegate.c), exactly as for POST /v1/delegations and
 * POST /v1/delegations/revoke.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "mail.h"

#define BEGIN_LINE	"-----BEGIN PBEM DELEGATION-----"
#define END_LINE	"-----END PBEM DELEGATION-----"
#define REVOKE_BEGIN_LINE "-----BEGIN PBEM REVOCATION-----"
#define REVOKE_END_LINE	"-----END PBEM REVOCATION-----"
#define CERT_MAX	2048	/* the JSON, joined */

/* The JSON between the lines begin and end, its lines joined without
 * their quoting and blanks (compact JSON holds none, so a client's
 * re-wrapping is undone); 0, or -1 if there is no complete block. */
static int
block_text(const char *text, size_t len, const char *begin,
    const char *end_line, char *out, size_t outlen)
{
	const char *p = NULL, *end = text + len, *line, *eol;
	size_t used = 0;
	int in = 0;

	for (line = text; line < end; line = eol + 1) {
		eol = memchr(line, '\n', (size_t)(end - line));
		if (eol == NULL)
			eol = end;
		for (p = line; p < eol && (*p == '>' || *p == ' ' ||
		    *p == '\t'); p++)
			;
		if (!in) {
			in = (size_t)(eol - p) >= strlen(begin) &&
			    strncmp(p, begin, strlen(begin)) == 0;
			continue;
		}
		if ((size_t)(eol - p) >= strlen(end_line) &&
		    strncmp(p, end_line, strlen(end_line)) == 0) {
			out[used] = '\0';
			return 0;
		}
		for (; p < eol; p++) {
			if (*p == ' ' || *p == '\t' || *p == '\r')
				continue;
			if (used + 1 >= outlen)
				return -1;
			out[used++] = *p;
		}
	}
	return -1;
}

/* 1 if text holds the line begin (anywhere). */
static int
holds_line(const char *text, size_t len, const char *begin)
{
	const char *p = text, *end = text + len;
	size_t n = strlen(begin);

	while ((p = memchr(p, '-', (size_t)(end - p))) != NULL &&
	    (size_t)(end - p) >= n) {
		if (memcmp(p, begin, n) == 0)
			return 1;
		p++;
	}
	return 0;
}

int
mail_delegation_found(const char *text, size_t len)
{
	return holds_line(text, len, BEGIN_LINE) ||
	    holds_line(text, len, REVOKE_BEGIN_LINE);
}

/* The answer to the sender when the block does not read or names no
 * player: nothing was done. */
static void
refuse_to_sender(const char *to, const char *lang, const char *err,
    struct mail_result *r, struct mail_answer *a)
{
	r->outcome = MAIL_REJECTED;
	snprintf(r->code, sizeof(r->code), "bad_request");
	snprintf(r->reason, sizeof(r->reason), "%.500s", err);
	mail_answer_plain(a, to, "mail_account", lang, r->message_id, 0);
	json_object_set_new(a->payload, "failed", json_true());
	json_object_set_new(a->payload, "code", json_string(r->code));
	json_object_set_new(a->payload, "reason", json_string(err));
}

/* The engine's answer es (err when refused) for player p: to p's
 * address once the signature is p's, in p's language; the payload's
 * success fields are the caller's. */
static void
answer_player(const struct store_player *p, enum engine_status es,
    const char *reply_to, const char *err, const char *done,
    struct mail_result *r, struct mail_answer *a)
{
	const char *to = reply_to;

	if (es != ENGINE_BAD_SIGNATURE && p->email[0] != '\0')
		to = p->email;
	snprintf(r->code, sizeof(r->code), "%s", engine_status_code(es));
	snprintf(r->reason, sizeof(r->reason), "%.500s", es == ENGINE_OK ?
	    done : err);
	r->outcome = es == ENGINE_OK ? MAIL_COMMAND : es == ENGINE_BUSY ?
	    MAIL_TEMPFAIL : MAIL_REJECTED;
	mail_answer_plain(a, to, "mail_account", strcmp(p->lang, "fr") == 0 ?
	    "fr" : "en", r->message_id, 0);
	if (es != ENGINE_OK) {
		json_object_set_new(a->payload, "failed", json_true());
		json_object_set_new(a->payload, "code", json_string(r->code));
		json_object_set_new(a->payload, "reason", json_string(err));
	}
}

/* The JSON object between the lines begin and end of m (a new
 * reference), or NULL with why in err, in French if fr. */
static json_t *
block_json(const struct mail_msg *m, const char *begin, const char *end_line,
    int fr, char *err, size_t errlen)
{
	char text[CERT_MAX];
	json_t *root = NULL;

	if (block_text(m->text, m->textlen, begin, end_line, text,
	    sizeof(text)) == 0)
		root = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	if (root == NULL)
		snprintf(err, errlen, fr ? "pas d'objet JSON entre les lignes "
		    "%s et %s" : "no JSON object between the lines %s and %s",
		    begin, end_line);
	return root;
}

/* The player named name into p: 0, or -1 with why in err. */
static int
player_named(struct mail_ingest_ctx *ctx, const char *name, int fr,
    struct store_player *p, char *err, size_t errlen)
{
	if (store_player_find(ctx->st, name, p) == STORE_OK)
		return 0;
	snprintf(err, errlen, fr ? "il n'y a pas de joueur nommé %s" :
	    "there is no player named %s", name);
	return -1;
}

/* A revocation block: check the player's signature, then revoke. */
static void
mail_revocation(struct mail_ingest_ctx *ctx, const struct mail_msg *m,
    const char *reply_to, const char *lang, struct mail_result *r,
    struct mail_answer *a)
{
	struct delegation_revocation rv;
	struct store_player p;
	enum engine_status es;
	json_t *root;
	char err[1024], detail[512];
	int fr = strcmp(lang, "fr") == 0, refused;

	root = block_json(m, REVOKE_BEGIN_LINE, REVOKE_END_LINE, fr, detail,
	    sizeof(detail));
	refused = root == NULL || delegation_revocation_from_json(root, &rv,
	    fr, detail, sizeof(detail)) != PROTO_OK;
	if (refused)
		snprintf(err, sizeof(err), fr ? "la révocation est illisible "
		    "(%s) ; envoyez ce qu'imprime pbem delegate revoke -m ID" :
		    "the revocation does not read (%s); send what pbem "
		    "delegate revoke -m ID prints", detail);
	else
		refused = player_named(ctx, rv.player, fr, &p, err,
		    sizeof(err));
	json_decref(root);
	if (refused) {
		refuse_to_sender(reply_to, lang, err, r, a);
		return;
	}
	fr = strcmp(p.lang, "fr") == 0;
	if (delegation_revocation_verify(&rv, p.pubkey) != PROTO_OK) {
		es = ENGINE_BAD_SIGNATURE;
		snprintf(err, sizeof(err), fr ? "la signature de la révocation "
		    "ne correspond pas à la clé de %s (pbem delegate revoke -m "
		    "la signe)" : "the revocation's signature does not match "
		    "%s's key (pbem delegate revoke -m signs it)", p.name);
	} else
		es = engine_delegation_revoke(ctx->st, ctx->key, &p, rv.id,
		    (int64_t)time(NULL), fr ? RULES_LANG_FR : RULES_LANG_EN,
		    err, sizeof(err));
	answer_player(&p, es, reply_to, err, "delegation certificate "
	    "revoked", r, a);
	if (es == ENGINE_OK) {
		json_object_set_new(a->payload, "revoked", json_true());
		json_object_set_new(a->payload, "certificate",
		    json_string(rv.id));
	}
}

void
mail_delegation(struct mail_ingest_ctx *ctx, const struct mail_msg *m,
    const char *reply_to, const char *lang, struct mail_result *r,
    struct mail_answer *a)
{
	struct engine_delegation_result res;
	struct store_player p;
	struct delegation d;
	enum engine_status es;
	json_t *root, *games;
	char err[1024], detail[512];
	int fr = strcmp(lang, "fr") == 0, refused;
	size_t i;

	if (!holds_line(m->text, m->textlen, BEGIN_LINE)) {
		mail_revocation(ctx, m, reply_to, lang, r, a);
		return;
	}
	root = block_json(m, BEGIN_LINE, END_LINE, fr, detail, sizeof(detail));
	refused = root == NULL || delegation_from_json(root, &d, fr, detail,
	    sizeof(detail)) != PROTO_OK;
	if (refused)
		snprintf(err, sizeof(err), fr ? "le certificat de délégation "
		    "est illisible (%s) ; envoyez ce qu'imprime pbem delegate "
		    "-m" : "the delegation certificate does not read (%s); "
		    "send what pbem delegate -m prints", detail);
	else
		refused = player_named(ctx, d.player, fr, &p, err,
		    sizeof(err));
	json_decref(root);
	if (refused) {
		refuse_to_sender(reply_to, lang, err, r, a);
		return;
	}
	es = engine_delegation_submit(ctx->st, ctx->key, &p, &d,
	    (int64_t)time(NULL), strcmp(p.lang, "fr") == 0 ? RULES_LANG_FR :
	    RULES_LANG_EN, &res, err, sizeof(err));
	answer_player(&p, es, reply_to, err, "delegation certificate kept", r,
	    a);
	if (es != ENGINE_OK)
		return;
	games = json_array();
	for (i = 0; i < res.ngames; i++)
		json_array_append_new(games, json_pack("{s:I}", "game",
		    (json_int_t)res.games[i]));
	json_object_set_new(a->payload, "delegated", json_true());
	json_object_set_new(a->payload, "certificate", json_string(res.id));
	json_object_set_new(a->payload, "recorded_in", games);
}
