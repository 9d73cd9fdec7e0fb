/*
 * api_moves.c -- POST /v1/games/{id}/moves: the signed move block, the
 * same one a mail carries (see api.h; docs/API.md).
 *
 * The per-key rate limit: the block names a game and a seat, whose
 * player's key is looked up (in the seats the engine keeps, only when
 * the limit is on).  A key with no token left is refused before any work; a token is
 * taken only once the engine has checked the block's signature, so a
 * forged block naming someone's seat never spends that player's tokens.
 * Requests for one key racing each other may pass the check together
 * and overshoot by at most the number of moves in flight.
 *
 * The block is found once; its game, seat and signature are checked on
 * the HTTP thread (engine_move_check()), then the move goes to the
 * process's writer while its connection is suspended (hand_over()).
 */
#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "http_limits.h"
#include "engine.h"
#include "metrics.h"

unsigned int
api_engine_http_status(enum engine_status es)
{
	switch (es) {
	case ENGINE_UNKNOWN_GAME:
		return MHD_HTTP_NOT_FOUND;
	case ENGINE_BAD_SIGNATURE:
		return MHD_HTTP_FORBIDDEN;
	case ENGINE_STALE_SEQ:
	case ENGINE_FUTURE_SEQ:
	case ENGINE_GAME_OVER:
	case ENGINE_NOT_YOUR_TURN:
	case ENGINE_REFUSED:
		return MHD_HTTP_CONFLICT;
	case ENGINE_SYNTAX:
	case ENGINE_ILLEGAL:
		return MHD_HTTP_UNPROCESSABLE_CONTENT;
	case ENGINE_BUSY:
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	case ENGINE_INTERNAL:
		return MHD_HTTP_INTERNAL_SERVER_ERROR;
	default:
		return MHD_HTTP_BAD_REQUEST;
	}
}

int
api_block_limit(struct api_request *req, struct store *st,
    const struct proto_move *m, unsigned char key[STORE_KEY_BYTES],
    int *keyed, int is_command, enum rules_lang lang,
    enum MHD_Result *answered)
{
	unsigned int retry;
	char limit[256], msg[512];
	int fr = lang == RULES_LANG_FR;
	const char *what = fr ? (is_command ? "commandes signées" :
	    "coups signés") : (is_command ? "commands signed" :
	    "moves signed");

	*keyed = 0;
	if (config_int(req->d->cfg, "rate_per_key") <= 0 ||
	    engine_block_seat_key(st, m, key) != 0)
		return 0;
	*keyed = 1;
	if (ratelimit_check_key(req->d, key, &retry))
		return 0;
	limits_describe_key(req->d, lang, limit, sizeof(limit));
	if (engine_is_master_command(m->text))
		snprintf(msg, sizeof(msg), fr ? "trop de %s avec la clé du "
		    "maître de jeu : la limite est %s ; réessayez dans %u s" :
		    "too many %s with the key of the game's master: the limit "
		    "is %s; try again in %u s", what, limit, retry);
	else
		snprintf(msg, sizeof(msg), fr ? "trop de %s avec la clé du "
		    "siège %d : la limite est %s ; réessayez dans %u s" :
		    "too many %s with the key of seat %d: the limit is %s; "
		    "try again in %u s", what, m->seat, limit, retry);
	*answered = api_send_rate_limited(req, retry, msg);
	return -1;
}

void
api_block_charge(struct api_request *req, const unsigned char *key,
    int keyed, enum engine_status status)
{
	if (keyed && engine_signature_checked(status))
		ratelimit_charge_key(req->d, key);
}

static enum MHD_Result
refuse(struct api_request *req, unsigned int status, const char *code,
    const char *message, json_t *forms, json_t *legal)
{
	metrics_move_rejected(code);
	return api_send_refusal(req, status, code, message, forms, legal);
}

/* The language of the player in the block's seat (en when the game or
 * seat is unknown: the engine will say so), from the seats the engine
 * keeps for verifying moves (engine_seats_get()). */
enum rules_lang
api_seat_lang(struct store *st, const struct proto_move *m)
{
	struct engine_seats seats;

	if (engine_seats_get(st, m->game_id, &seats) != STORE_OK ||
	    m->seat < 0 || m->seat >= seats.nseats ||
	    seats.player[m->seat] == 0)
		return RULES_LANG_EN;
	return seats.lang[m->seat];
}

/* A move in the writer's hands, kept across its connection's suspension
 * (req->state). */
struct move_wait {
	struct engine_move	 mv;
	struct engine_reply	 reply;
	struct MHD_Connection	*conn;
	unsigned char		 key[STORE_KEY_BYTES];	/* rate limit */
	int			 keyed;
	atomic_int		 written;	/* reply holds the answer */
};

static void
move_wait_free(void *arg)
{
	struct move_wait *w = arg;

	if (w == NULL)
		return;
	engine_reply_clear(&w->reply);
	free(w);
}

/* The writer's callback (its thread): the answer is in, wake the
 * connection. */
static void
move_written(void *arg)
{
	struct move_wait *w = arg;

	atomic_store(&w->written, 1);
	MHD_resume_connection(w->conn);
}

/* Answer the engine's reply: 200 with the receipt, or the refusal. */
static enum MHD_Result
answer(struct api_request *req, const unsigned char *key, int keyed,
    struct engine_reply *reply)
{
	char hex[65], block[2048];

	api_block_charge(req, key, keyed, reply->status);
	if (reply->status != ENGINE_OK)
		return refuse(req, api_engine_http_status(reply->status),
		    engine_status_code(reply->status), reply->message,
		    reply->forms, reply->legal);
	metrics_add(METRICS_MOVES_ACCEPTED, 1);
	proto_hex(reply->receipt.entry_hash, 32, hex);
	proto_receipt_armour(&reply->receipt, block, sizeof(block));
	return api_send_json(req, MHD_HTTP_OK, json_pack("{s:I, s:I, s:s, "
	    "s:s, s:I, s:b}", "game", (json_int_t)reply->receipt.game_id,
	    "seq", (json_int_t)reply->receipt.seq, "entry_hash", hex,
	    "receipt", block, "next_seq", (json_int_t)reply->next_seq,
	    "game_over", reply->game_over));
}

/*
 * The checked move goes to the writer and the connection is suspended
 * meanwhile, so that this thread serves other connections instead of
 * sleeping (libmicrohttpd calls the handler again once move_written()
 * resumed it; the answer comes from req->state).  The suspension comes
 * before the hand-over: the writer may answer at once.  Without a writer
 * the move is written here, and the connection resumed at once.
 */
static enum MHD_Result
hand_over(struct api_request *req, struct store *st,
    const struct engine_move *mv, const unsigned char *key, int keyed)
{
	struct move_wait *w;
	struct engine_reply reply;
	enum MHD_Result rc;

	if ((w = calloc(1, sizeof(*w))) == NULL) {
		memset(&reply, 0, sizeof(reply));
		engine_move_write(st, req->d->key, mv, &reply);
		rc = answer(req, key, keyed, &reply);
		engine_reply_clear(&reply);
		return rc;
	}
	w->mv = *mv;
	w->conn = req->conn;
	memcpy(w->key, key, STORE_KEY_BYTES);
	w->keyed = keyed;
	*req->state = w;
	*req->state_free = move_wait_free;
	MHD_suspend_connection(req->conn);
	if (engine_move_queue(&w->mv, &w->reply, move_written, w) != 0) {
		engine_move_write(st, req->d->key, &w->mv, &w->reply);
		move_written(w);
	}
	return MHD_YES;
}

enum MHD_Result
api_move_post(struct api_request *req)
{
	int64_t game_id = req->params[0];
	unsigned char key[STORE_KEY_BYTES];
	enum rules_lang lang = RULES_LANG_EN;
	struct engine_reply reply;
	struct engine_move mv;
	struct move_wait *w;
	struct proto_move m;
	struct store *st;
	enum MHD_Result rc = MHD_NO;
	int found, keyed = 0, langq;
	char block[2048];

	/* Called again once the writer answered (hand_over()). */
	if ((w = *req->state) != NULL) {
		assert(atomic_load(&w->written));
		return answer(req, w->key, w->keyed, &w->reply);
	}
	if ((langq = api_query_lang(req, &lang, &rc)) < 0)
		return rc;

	/* The URL names a game: a block signed for another game is refused
	 * here rather than played in the game it names. */
	found = proto_move_find(req->body, req->body_len, &m, block,
	    sizeof(block)) == PROTO_OK;
	if (found && m.game_id != game_id) {
		snprintf(block, sizeof(block), lang == RULES_LANG_FR ?
		    "le bloc signé est pour la partie %lld ; il a été envoyé "
		    "à la partie %lld" : "the signed block is for game "
		    "%lld; it was posted to game %lld", (long long)m.game_id,
		    (long long)game_id);
		return refuse(req, MHD_HTTP_BAD_REQUEST, "wrong_game", block,
		    NULL, NULL);
	}
	if ((st = daemon_store(req->d)) == NULL)
		return refuse(req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    "the database cannot be opened now; try again", NULL,
		    NULL);
	memset(key, 0, sizeof(key));
	/* Without ?lang=, the language of the seat's player. */
	if (langq == 0 && found)
		lang = api_seat_lang(st, &m);
	if (found && api_block_limit(req, st, &m, key, &keyed, 0, lang,
	    &rc) != 0) {
		metrics_move_rejected("rate_limited");
		return rc;
	}
	/* A block that cannot be read: the engine words the refusal. */
	if (!found)
		engine_submit(st, req->d->key, req->body, req->body_len, lang,
		    &reply);
	else if (engine_move_check(st, &m, lang, &mv, &reply) == 0)
		return hand_over(req, st, &mv, key, keyed);
	rc = answer(req, key, keyed, &reply);
	engine_reply_clear(&reply);
	return rc;
}
