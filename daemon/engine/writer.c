/*
 * writer.c -- the batching writer thread (writer.h).
 *
 * Submitters append a job to the queue and sleep on the job's own
 * condition variable (writer_play), or leave a callback and go on with
 * other work (writer_queue: an HTTP thread suspends the connection);
 * the writer takes the whole queue (up to the batch size) and writes it
 * in one transaction; the jobs that arrive while it writes join the same
 * transaction, up to the batch size, until none is waiting; then it
 * commits, tells the engine's commit hook and answers each job's
 * submitter.  The busier the server, the larger the batches.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "threadname.h"
#include "writer.h"

struct job {
	const struct proto_move	*m;
	int			 kind;		/* of the log entry */
	const unsigned char	*signer;	/* the key m verified with */
	enum rules_lang		 lang;
	struct engine_reply	*reply;
	/* How the submitter hears the answer: it sleeps on wake until done
	 * (writer_play), or done_cb(done_arg) is called and the job, the
	 * writer's own, is freed (writer_queue). */
	void			(*done_cb)(void *);
	void			*done_arg;
	int			 done;
	pthread_cond_t		 wake;
	struct job		*next;
};

/* One game's newest state; game_id 0 is an empty slot. */
struct slot {
	int64_t			 game_id;
	struct gamestate	 gs;
};

struct writer {
	pthread_t		 thread;
	pthread_mutex_t		 lock;		/* the queue and stats */
	pthread_cond_t		 work;		/* the queue is not empty */
	struct job		*head, **tail;
	int			 stopping;
	struct writer_stats	 stats;

	/* The writer thread's own. */
	struct store		*st;
	const struct serverkey	*key;
	int			 batch_max;
	struct job		**batch;
	int			*written;	/* per job: in the transaction */
	struct slot		*cache;
	size_t			 nslots;
};

static _Atomic(struct writer *) current;

static void
slot_drop(struct slot *s)
{
	if (s->game_id != 0)
		gamestate_clear(&s->gs);
	s->game_id = 0;
}

static void
cache_drop_all(struct writer *w)
{
	size_t i;

	for (i = 0; i < w->nslots; i++)
		slot_drop(&w->cache[i]);
}

/*
 * The game's newest state, inside the open transaction: the kept one if
 * the log's last entry is the one it was built on (with the game's row
 * read again: status and seats may change without a move), else loaded
 * from the store.  NULL with reply set if the game cannot be loaded.
 */
static struct gamestate *
game_state(struct writer *w, int64_t game_id, struct engine_reply *reply)
{
	struct slot *s = &w->cache[(uint64_t)game_id % w->nslots];
	unsigned char hash[STORE_HASH_BYTES];
	struct store_game row;
	enum store_status rc;
	enum engine_status es;
	int64_t seq;
	char err[512];

	if (s->game_id == game_id) {
		rc = store_log_head(w->st, game_id, &seq, hash);
		if (rc == STORE_OK && seq == s->gs.seq &&
		    memcmp(hash, s->gs.last_hash, STORE_HASH_BYTES) == 0 &&
		    (rc = store_game_get(w->st, game_id, &row)) == STORE_OK) {
			gamestate_take_game(&s->gs, &row);
			return &s->gs;
		}
		slot_drop(s);
		if (rc != STORE_OK && rc != STORE_NOTFOUND) {
			engine_refuse(reply, rc == STORE_BUSY ? ENGINE_BUSY :
			    ENGINE_INTERNAL, "store: %s", store_errmsg(w->st));
			return NULL;
		}
	}
	slot_drop(s);
	es = gamestate_load(w->st, game_id, -1, &s->gs, err, sizeof(err));
	if (es != ENGINE_OK) {
		engine_refuse(reply, es, "%s", err);
		return NULL;
	}
	s->game_id = game_id;
	s->gs.kept = 1;
	return &s->gs;
}

/* A move that was written but whose transaction is lost. */
static void
lost(struct engine_reply *reply, const char *why)
{
	engine_refuse(reply, ENGINE_INTERNAL, "store: %s", why);
	memset(&reply->receipt, 0, sizeof(reply->receipt));
	reply->game_over = 0;
}

/* Move the queued jobs after the n already in the batch into it, up to
 * the batch size; the new count.  Called with the lock held. */
static int
take(struct writer *w, int n)
{
	struct job *j;
	int first = n;

	for (; n < w->batch_max && (j = w->head) != NULL; n++) {
		w->batch[n] = j;
		if ((w->head = j->next) == NULL)
			w->tail = &w->head;
	}
	w->stats.moves += n - first;
	return n;
}

/* The jobs queued while the batch's first n were applied join the
 * transaction (up to the batch size): the writer keeps working while
 * the HTTP threads verify the next moves, and one commit serves them
 * all.  The batch's new count. */
static int
take_more(struct writer *w, int n)
{
	pthread_mutex_lock(&w->lock);
	n = take(w, n);
	pthread_mutex_unlock(&w->lock);
	return n;
}

/* Write the batch's n jobs, and those that arrive meanwhile, in one
 * transaction; the number of jobs in the batch, all answered in their
 * replies. */
static int
write_batch(struct writer *w, int n)
{
	struct gamestate *gs;
	struct job *j;
	int i, k, spoilt, nwritten = 0;

	if (store_begin(w->st) != STORE_OK) {
		for (i = 0; i < n; i++)
			engine_refuse(w->batch[i]->reply, ENGINE_BUSY, "the "
			    "store is busy: %s; try again",
			    store_errmsg(w->st));
		return n;
	}
	for (i = 0;; i++) {
		if (i == n && (n = take_more(w, n)) == i)
			break;
		j = w->batch[i];
		w->written[i] = 0;
		if (!store_in_transaction(w->st)) {
			/* An error rolled back everything so far. */
			for (k = 0; k < n; k++)
				if (k >= i || w->written[k])
					lost(w->batch[k]->reply,
					    "the transaction was rolled back; "
					    "try again");
			cache_drop_all(w);
			return n;
		}
		if ((gs = game_state(w, j->m->game_id, j->reply)) == NULL)
			continue;
		if (store_mark(w->st) != STORE_OK) {
			engine_refuse(j->reply, ENGINE_INTERNAL, "store: %s",
			    store_errmsg(w->st));
			continue;
		}
		if (apply_move(w->st, w->key, gs, j->m, j->kind, j->signer,
		    j->lang, j->reply, &spoilt) == ENGINE_OK) {
			if (store_mark_release(w->st) == STORE_OK) {
				w->written[i] = 1;
				nwritten++;
				continue;
			}
			lost(j->reply, store_errmsg(w->st));
			spoilt = 1;
		}
		store_mark_undo(w->st);
		if (spoilt)
			slot_drop(&w->cache[(uint64_t)j->m->game_id %
			    w->nslots]);
	}
	if (nwritten == 0) {
		store_rollback(w->st);
		return n;
	}
	if (store_commit(w->st) != STORE_OK) {
		for (i = 0; i < n; i++)
			if (w->written[i])
				lost(w->batch[i]->reply, store_errmsg(w->st));
		cache_drop_all(w);
	}
	return n;
}

/*
 * The batch is committed (or lost): tell who hears of commits, then each
 * submitter.  A job with a callback is answered first, outside the lock,
 * and freed (the callback may let its submitter free the move and the
 * reply at once); the sleeping submitters are woken under the lock.
 */
static void
answer_batch(struct writer *w, int n)
{
	void (*done_cb)(void *);
	void *done_arg;
	struct job *j;
	int i;

	for (i = 0; i < n; i++)
		if (w->batch[i]->reply->status == ENGINE_OK)
			engine_committed(w->batch[i]->m->game_id,
			    w->batch[i]->m->seq);
	for (i = 0; i < n; i++) {
		if ((j = w->batch[i])->done_cb == NULL)
			continue;
		done_cb = j->done_cb;
		done_arg = j->done_arg;
		free(j);
		w->batch[i] = NULL;
		done_cb(done_arg);
	}
	pthread_mutex_lock(&w->lock);
	for (i = 0; i < n; i++) {
		if ((j = w->batch[i]) == NULL)
			continue;
		j->done = 1;
		pthread_cond_signal(&j->wake);
	}
	pthread_mutex_unlock(&w->lock);
}

static void *
writer_main(void *arg)
{
	struct writer *w = arg;
	int n;

	thread_name_set("pbem-writer");
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->head == NULL && !w->stopping)
			pthread_cond_wait(&w->work, &w->lock);
		if (w->head == NULL)
			break;
		n = take(w, 0);
		w->stats.batches++;
		pthread_mutex_unlock(&w->lock);

		n = write_batch(w, n);
		answer_batch(w, n);
		pthread_mutex_lock(&w->lock);
		if (n > w->stats.largest)
			w->stats.largest = n;
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int
writer_start(const char *dbpath, const struct serverkey *key, int batch,
    int cache, char *err, size_t errlen)
{
	struct writer *w;

	if (atomic_load(&current) != NULL) {
		snprintf(err, errlen, "a writer is already running");
		return -1;
	}
	if (batch < 1 || cache < 1 || (w = calloc(1, sizeof(*w))) == NULL) {
		snprintf(err, errlen, "writer: bad batch or cache size, or "
		    "out of memory");
		return -1;
	}
	w->key = key;
	w->batch_max = batch;
	w->nslots = (size_t)cache;
	w->tail = &w->head;
	w->batch = calloc((size_t)batch, sizeof(*w->batch));
	w->written = calloc((size_t)batch, sizeof(*w->written));
	w->cache = calloc(w->nslots, sizeof(*w->cache));
	if (w->batch == NULL || w->written == NULL || w->cache == NULL) {
		snprintf(err, errlen, "writer: out of memory");
		goto fail;
	}
	if (store_open(dbpath, &w->st, err, errlen) != STORE_OK)
		goto fail;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->work, NULL);
	if (pthread_create(&w->thread, NULL, writer_main, w) != 0) {
		snprintf(err, errlen, "writer: cannot start its thread");
		store_close(w->st);
		goto fail;
	}
	atomic_store(&current, w);
	return 0;

fail:
	free(w->batch);
	free(w->written);
	free(w->cache);
	free(w);
	return -1;
}

void
writer_stop(void)
{
	struct writer *w = atomic_exchange(&current, NULL);

	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	w->stopping = 1;
	pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	cache_drop_all(w);
	store_close(w->st);
	pthread_cond_destroy(&w->work);
	pthread_mutex_destroy(&w->lock);
	free(w->batch);
	free(w->written);
	free(w->cache);
	free(w);
}

void
writer_get_stats(struct writer_stats *stats)
{
	struct writer *w = atomic_load(&current);

	memset(stats, 0, sizeof(*stats));
	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	*stats = w->stats;
	pthread_mutex_unlock(&w->lock);
}

/* Put j on the queue: 0, or -1 when no writer runs or it is stopping.
 * With wait, sleep until the writer has answered. */
static int
enqueue(struct job *j, int wait)
{
	struct writer *w = atomic_load(&current);

	if (w == NULL)
		return -1;
	pthread_mutex_lock(&w->lock);
	if (w->stopping) {
		pthread_mutex_unlock(&w->lock);
		return -1;
	}
	*w->tail = j;
	w->tail = &j->next;
	pthread_cond_signal(&w->work);
	while (wait && !j->done)
		pthread_cond_wait(&j->wake, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

static void
job_init(struct job *j, const struct proto_move *m, int kind,
    const unsigned char *signer, enum rules_lang lang,
    struct engine_reply *reply)
{
	memset(j, 0, sizeof(*j));
	j->m = m;
	j->kind = kind;
	j->signer = signer;
	j->lang = lang;
	j->reply = reply;
}

int
writer_play(const struct proto_move *m, int kind, const unsigned char *signer,
    enum rules_lang lang, struct engine_reply *reply)
{
	struct job j;
	int rc;

	job_init(&j, m, kind, signer, lang, reply);
	pthread_cond_init(&j.wake, NULL);
	rc = enqueue(&j, 1);
	pthread_cond_destroy(&j.wake);
	return rc;
}

int
writer_queue(const struct proto_move *m, int kind, const unsigned char *signer,
    enum rules_lang lang, struct engine_reply *reply, void (*done)(void *),
    void *arg)
{
	struct job *j;

	if (atomic_load(&current) == NULL || (j = malloc(sizeof(*j))) == NULL)
		return -1;
	job_init(j, m, kind, signer, lang, reply);
	j->done_cb = done;
	j->done_arg = arg;
	if (enqueue(j, 0) != 0) {
		free(j);
		return -1;
	}
	return 0;
}
