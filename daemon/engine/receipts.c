/*
 * receipts.c -- the receipts of a log verified on a second thread
 * (receipts.h).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <sodium.h>

#include "engine.h"
#include "receipts.h"

/* The checker wakes a waiting walk at least this often (entries). */
#define RECEIPTS_WAKE_EVERY	32

struct receipt_checker {
	const struct store_entry	*entries;
	size_t				 n;
	const unsigned char		*server_pub;
	unsigned char			*ok;		/* per entry: 0/1 */
	atomic_size_t			 done;		/* entries checked */
	atomic_int			 stop;
	pthread_mutex_t			 lock;
	pthread_cond_t			 progress;
	pthread_t			 thread;
};

int
receipt_verifies(const struct store_entry *e, const unsigned char *server_pub)
{
	unsigned char buf[512];
	struct proto_receipt r;
	size_t len;

	engine_receipt_of(e, &r);
	len = proto_receipt_canonical(&r, buf, sizeof(buf));
	return len != 0 && crypto_sign_verify_detached(r.signature, buf, len,
	    server_pub) == 0;
}

static void
wake(struct receipt_checker *c)
{
	pthread_mutex_lock(&c->lock);
	pthread_cond_broadcast(&c->progress);
	pthread_mutex_unlock(&c->lock);
}

static void *
check_all(void *arg)
{
	struct receipt_checker *c = arg;
	size_t i;

	for (i = 0; i < c->n && !atomic_load(&c->stop); i++) {
		c->ok[i] = (unsigned char)receipt_verifies(&c->entries[i],
		    c->server_pub);
		atomic_store(&c->done, i + 1);
		if ((i + 1) % RECEIPTS_WAKE_EVERY == 0)
			wake(c);
	}
	wake(c);
	return NULL;
}

struct receipt_checker *
receipts_start(const struct store_entry *entries, size_t n,
    const unsigned char *server_pub)
{
	struct receipt_checker *c;

	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->ok = calloc(n + 1, 1)) == NULL) {
		free(c);
		return NULL;
	}
	c->entries = entries;
	c->n = n;
	c->server_pub = server_pub;
	atomic_init(&c->done, 0);
	atomic_init(&c->stop, 0);
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->progress, NULL);
	if (pthread_create(&c->thread, NULL, check_all, c) != 0) {
		pthread_mutex_destroy(&c->lock);
		pthread_cond_destroy(&c->progress);
		free(c->ok);
		free(c);
		return NULL;
	}
	return c;
}

int
receipts_ok(struct receipt_checker *c, const struct store_entry *entries,
    size_t i, const unsigned char *server_pub)
{
	if (c == NULL || i >= c->n)
		return receipt_verifies(&entries[i], server_pub);
	if (atomic_load(&c->done) <= i) {
		pthread_mutex_lock(&c->lock);
		while (atomic_load(&c->done) <= i)
			pthread_cond_wait(&c->progress, &c->lock);
		pthread_mutex_unlock(&c->lock);
	}
	return c->ok[i];
}

void
receipts_stop(struct receipt_checker *c)
{
	if (c == NULL)
		return;
	atomic_store(&c->stop, 1);
	pthread_join(c->thread, NULL);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->progress);
	free(c->ok);
	free(c);
}
