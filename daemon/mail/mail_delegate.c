/*
 * mail_delegate.c -- a delegation certificate sent by mail (mail.h;
 * docs/PROTOCOL.md section 13, docs/MAIL.md "Delegation").
 *
 * The certificate is the JSON `pbem delegate -m` prints between the
 * lines -----BEGIN PBEM DELEGATION----- and -----END PBEM DELEGATION-----.
 * It carries the player's own signature, so the mail's sender need not
 * be anyone in particular: a refusal before the signature is checked
 * goes back to the sender, the answer once it is checked to the player's
 * registered address.  The engine does the rest (delegate.c), exactly as
 * for POST /v1/delegations.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "mail.h"

#define BEGIN_LINE	"-----BEGIN PBEM DELEGATION-----"
#define END_LINE	"-----END PBEM DELEGATION-----"
#define CERT_MAX	2048	/* the JSON, joined */

/* The JSON between the markers, its lines joined without their quoting
 * and blanks (compact JSON holds none, so a client's re-wrapping is
 * undone); 0, or -1 if there is no complete block. */
static int
certificate_text(const char *text, size_t len, char *out, size_t outlen)
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
			in = (size_t)(eol - p) >= strlen(BEGIN_LINE) &&
			    strncmp(p, BEGIN_LINE, strlen(BEGIN_LINE)) == 0;
			continue;
		}
		if (strncmp(p, END_LINE, strlen(END_LINE)) == 0 &&
		    (size_t)(eol - p) >= strlen(END_LINE)) {
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

int
mail_delegation_found(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	size_t n = strlen(BEGIN_LINE);

	while ((p = memchr(p, '-', (size_t)(end - p))) != NULL &&
	    (size_t)(end - p) >= n) {
		if (memcmp(p, BEGIN_LINE, n) == 0)
			return 1;
		p++;
	}
	return 0;
}

void
mail_delegation(struct mail_ingest_ctx *ctx, const struct mail_msg *m,
    const char *reply_to, const char *lang, struct mail_result *r,
    struct mail_answer *a)
{
	struct engine_delegation_result res;
	enum rules_lang rl;
	struct store_player p;
	struct delegation d;
	enum engine_status es;
	json_t *root, *games;
	char text[CERT_MAX], err[1024], detail[512];
	const char *to = reply_to, *answer_lang = lang;
	size_t i;

	err[0] = '\0';
	root = certificate_text(m->text, m->textlen, text, sizeof(text)) == 0 ?
	    json_loads(text, JSON_REJECT_DUPLICATES, NULL) : NULL;
	if (root == NULL || delegation_from_json(root, &d, detail,
	    sizeof(detail)) != PROTO_OK)
		snprintf(err, sizeof(err), strcmp(lang, "fr") == 0 ? "le "
		    "certificat de délégation est illisible (%s) ; envoyez ce "
		    "qu'imprime pbem delegate -m" : "the delegation certificate "
		    "does not read (%s); send what pbem delegate -m prints",
		    root == NULL ? "no JSON object between the BEGIN and END "
		    "lines" : detail);
	else if (store_player_find(ctx->st, d.player, &p) != STORE_OK)
		snprintf(err, sizeof(err), strcmp(lang, "fr") == 0 ? "il n'y a "
		    "pas de joueur nommé %s" : "there is no player named %s",
		    d.player);
	json_decref(root);
	if (err[0] != '\0') {
		r->outcome = MAIL_REJECTED;
		snprintf(r->code, sizeof(r->code), "bad_request");
		snprintf(r->reason, sizeof(r->reason), "%.500s", err);
		mail_answer_plain(a, to, "mail_account", lang, r->message_id, 0);
		json_object_set_new(a->payload, "failed", json_true());
		json_object_set_new(a->payload, "code", json_string(r->code));
		json_object_set_new(a->payload, "reason", json_string(err));
		return;
	}
	/* The player reads the answer, in their language, at their
	 * address once the signature is theirs. */
	answer_lang = strcmp(p.lang, "fr") == 0 ? "fr" : "en";
	rl = answer_lang[0] == 'f' ? RULES_LANG_FR : RULES_LANG_EN;
	es = engine_delegation_submit(ctx->st, ctx->key, &p, &d,
	    (int64_t)time(NULL), rl, &res, err, sizeof(err));
	if (es != ENGINE_BAD_SIGNATURE && p.email[0] != '\0')
		to = p.email;
	snprintf(r->code, sizeof(r->code), "%s", engine_status_code(es));
	snprintf(r->reason, sizeof(r->reason), "%.500s", es == ENGINE_OK ?
	    "delegation certificate kept" : err);
	r->outcome = es == ENGINE_OK ? MAIL_COMMAND : es == ENGINE_BUSY ?
	    MAIL_TEMPFAIL : MAIL_REJECTED;
	mail_answer_plain(a, to, "mail_account", answer_lang, r->message_id, 0);
	if (es != ENGINE_OK) {
		json_object_set_new(a->payload, "failed", json_true());
		json_object_set_new(a->payload, "code", json_string(r->code));
		json_object_set_new(a->payload, "reason", json_string(err));
		return;
	}
	games = json_array();
	for (i = 0; i < res.ngames; i++)
		json_array_append_new(games, json_pack("{s:I}", "game",
		    (json_int_t)res.games[i]));
	json_object_set_new(a->payload, "delegated", json_true());
	json_object_set_new(a->payload, "certificate", json_string(res.id));
	json_object_set_new(a->payload, "recorded_in", games);
}
