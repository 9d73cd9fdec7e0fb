/*
 * seatkeys.c -- each game's seats and their players' keys, kept in memory
 * for the threads that verify signed moves (engine.h, "seatkeys.c").
 *
 * A direct-mapped table: game id modulo SEATKEYS_SLOTS, one mutex per
 * slot, held only to copy an entry in or out.  An entry carries the
 * store_seats_generation() read before its rows were read; it is used
 * only while that number has not moved, so a seat given to another
 * player or a key replaced in this process is never answered from the
 * table after its commit.  A reader that read the rows while such a
 * change was being committed finds the number moved when it comes to
 * keep them, and does not keep them.
 *
 * The generation counts the changes made in this process only; a change
 * another process commits (`pbemctl player lang', `pbemctl replace'
 * while pbemd runs) is seen when the entry is read again, and an entry
 * is used for at most SEATKEYS_TTL_MS after its rows were read.  A key
 * no longer the seat's is refused anyway by the writer, which checks
 * the signer against the stored key in its transaction (apply.c).
 */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "engine.h"

#define SEATKEYS_SLOTS	1024
#define SEATKEYS_TTL_MS	1000	/* how long another process's change can
				 * go unseen (a refusal's language) */

struct slot {
	pthread_mutex_t		lock;
	int			used;
	uint64_t		generation;	/* when its rows were read */
	int64_t			read_ms;	/* then, on the monotonic clock */
	struct engine_seats	seats;
};

/* Milliseconds on the monotonic clock. */
static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct slot slots[SEATKEYS_SLOTS];
static pthread_once_t slots_once = PTHREAD_ONCE_INIT;

static void
slots_init(void)
{
	size_t i;

	for (i = 0; i < SEATKEYS_SLOTS; i++)
		pthread_mutex_init(&slots[i].lock, NULL);
}

static struct slot *
slot_of(int64_t game_id)
{
	pthread_once(&slots_once, slots_init);
	return &slots[(uint64_t)game_id % SEATKEYS_SLOTS];
}

/* The rows of game_id's seats and their players, from st. */
static enum store_status
read_seats(struct store *st, int64_t game_id, struct engine_seats *out)
{
	struct store_player p;
	struct store_game g;
	enum store_status rc;
	int i;

	memset(out, 0, sizeof(*out));
	if ((rc = store_game_get(st, game_id, &g)) != STORE_OK)
		return rc;
	out->game_id = game_id;
	out->status = g.status;
	out->nseats = g.nseats;
	for (i = 0; i < g.nseats && i < STORE_MAX_SEATS; i++) {
		out->player[i] = g.seat_player[i];
		if (g.seat_player[i] == 0)
			continue;
		if ((rc = store_player_get(st, g.seat_player[i], &p)) !=
		    STORE_OK) {
			store_game_clear(&g);
			return rc == STORE_NOTFOUND ? STORE_ERROR : rc;
		}
		memcpy(out->pubkey[i], p.pubkey, STORE_KEY_BYTES);
		out->lang[i] = strcmp(p.lang, "fr") == 0 ? RULES_LANG_FR :
		    RULES_LANG_EN;
	}
	store_game_clear(&g);
	return STORE_OK;
}

enum store_status
engine_seats_reload(struct store *st, int64_t game_id,
    struct engine_seats *out)
{
	struct slot *s = slot_of(game_id);
	enum store_status rc;
	uint64_t generation = store_seats_generation();
	int64_t read_ms = now_ms();

	if ((rc = read_seats(st, game_id, out)) != STORE_OK)
		return rc;
	/* Kept only for a running or finished game: a forming one's seats
	 * fill up without a generation of their own. */
	if (out->status == STORE_GAME_FORMING)
		return STORE_OK;
	pthread_mutex_lock(&s->lock);
	if (store_seats_generation() == generation) {
		s->used = 1;
		s->generation = generation;
		s->read_ms = read_ms;
		s->seats = *out;
	}
	pthread_mutex_unlock(&s->lock);
	return STORE_OK;
}

enum store_status
engine_seats_get(struct store *st, int64_t game_id, struct engine_seats *out)
{
	struct slot *s = slot_of(game_id);
	int kept;

	pthread_mutex_lock(&s->lock);
	kept = s->used && s->seats.game_id == game_id &&
	    s->generation == store_seats_generation() &&
	    now_ms() - s->read_ms < SEATKEYS_TTL_MS;
	if (kept)
		*out = s->seats;
	pthread_mutex_unlock(&s->lock);
	if (kept) {
		out->kept = 1;
		return STORE_OK;
	}
	return engine_seats_reload(st, game_id, out);
}
