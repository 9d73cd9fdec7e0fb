/*
 * verifier.c -- the signatures of a log verified on every core while the
 * audit walks it (verifier.h).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <sodium.h>

#include "engine.h"
#include "protocol.h"
#include "threadname.h"
#include "verifier.h"

/* Entries a worker takes at a time, and the most workers started. */
#define VERIFIER_CHUNK		16
#define VERIFIER_THREADS_MAX	8

/* What the workers found for one entry (bits of verifier.found[i]). */
#define FOUND_DONE		0x01	/* both checks made */
#define FOUND_RECEIPT_OK	0x02
#define FOUND_SIGNED		0x04	/* own signature checked with key */
#define FOUND_SIGNATURE_OK	0x08

/* How an entry's own signature is made. */
enum signed_as {
	SIGNED_UNKNOWN,		/* no key guessed: the walk checks it */
	SIGNED_TEXT,		/* genesis and server records: the text */
	SIGNED_MOVE		/* moves: the canonical block */
};

struct verifier {
	const struct store_entry	*entries;
	size_t				 n;
	const unsigned char		*server_pub;
	unsigned char			(*key)[32];	/* guessed, per entry */
	unsigned char			*how;		/* enum signed_as */
	atomic_uchar			*found;		/* FOUND_* bits */
	atomic_size_t			 next;		/* first entry not taken */
	atomic_int			 stop;
	pthread_mutex_t			 lock;
	pthread_cond_t			 progress;
	pthread_t			 thread[VERIFIER_THREADS_MAX];
	int				 nthreads;
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

int
move_entry_verifies(const struct store_entry *e, const unsigned char *key)
{
	struct proto_move m;

	memset(&m, 0, sizeof(m));
	m.game_id = e->game_id;
	m.seq = e->seq;
	m.seat = e->seat;
	snprintf(m.text, sizeof(m.text), "%s", e->text);
	memcpy(m.signature, e->signature, STORE_SIG_BYTES);
	return proto_move_verify(&m, key) == PROTO_OK;
}

static int
text_verifies(const struct store_entry *e, const unsigned char *key)
{
	return crypto_sign_verify_detached(e->signature,
	    (const unsigned char *)e->text, strlen(e->text), key) == 0;
}

/* The seat keys the genesis record names, into keys; have[i] set for
 * each one that decodes.  A record that does not parse guesses nothing. */
static void
genesis_keys(const struct store_entry *e, unsigned char keys[][32],
    int *have)
{
	json_t *root = json_loads(e->text, 0, NULL), *seat;
	size_t i;

	json_array_foreach(json_object_get(root, "seats"), i, seat) {
		const char *text = json_string_value(json_object_get(seat,
		    "key"));

		if (i < STORE_MAX_SEATS && text != NULL &&
		    proto_pubkey_decode(text, keys[i]) == PROTO_OK)
			have[i] = 1;
	}
	json_decref(root);
}

/* A replacement record hands its seat a new key (unchecked here: the
 * walk checks the record and compares keys). */
static void
replacement_key(const struct store_entry *e, unsigned char keys[][32],
    int *have)
{
	json_t *rec = json_loads(e->text, 0, NULL);
	const char *text = json_string_value(json_object_get(rec, "key"));
	int seat = e->seat;

	if (seat >= 0 && seat < STORE_MAX_SEATS) {
		have[seat] = text != NULL && proto_pubkey_decode(text,
		    keys[seat]) == PROTO_OK;
	}
	json_decref(rec);
}

/* One quick pass in log order: the key each entry should be signed with.
 * Keys are decoded, not checked as curve points: the walk, which checks
 * them, only takes a result for the very key it holds. */
static void
guess_keys(struct verifier *v)
{
	unsigned char seat_keys[STORE_MAX_SEATS][32];
	int have[STORE_MAX_SEATS] = { 0 };
	size_t i;

	for (i = 0; i < v->n; i++) {
		const struct store_entry *e = &v->entries[i];
		int seat_known = e->seat >= 0 && e->seat < STORE_MAX_SEATS &&
		    have[e->seat];

		v->how[i] = SIGNED_UNKNOWN;
		switch (e->kind) {
		case STORE_ENTRY_GENESIS:
		case STORE_ENTRY_SKIP:
		case STORE_ENTRY_RESIGN:
		case STORE_ENTRY_REPLACE:
		case STORE_ENTRY_CALL_OFF:
		case STORE_ENTRY_DELEGATION:
		case STORE_ENTRY_REVOCATION:
			v->how[i] = SIGNED_TEXT;
			memcpy(v->key[i], v->server_pub, 32);
			break;
		case STORE_ENTRY_AUTO:
		case STORE_ENTRY_BOT:
			v->how[i] = SIGNED_MOVE;
			memcpy(v->key[i], v->server_pub, 32);
			break;
		case STORE_ENTRY_MOVE:
		case STORE_ENTRY_HOSTED_MAIL:
		case STORE_ENTRY_HOSTED_WEB:
			if (seat_known) {
				v->how[i] = SIGNED_MOVE;
				memcpy(v->key[i], seat_keys[e->seat], 32);
			}
			break;
		default:
			break;	/* delegated: the certificate's key */
		}
		if (e->text == NULL || (v->how[i] == SIGNED_MOVE &&
		    strlen(e->text) > PROTO_MOVE_MAX))
			v->how[i] = SIGNED_UNKNOWN;
		if (i == 0 && e->kind == STORE_ENTRY_GENESIS && e->text != NULL)
			genesis_keys(e, seat_keys, have);
		else if (e->kind == STORE_ENTRY_REPLACE && e->text != NULL)
			replacement_key(e, seat_keys, have);
	}
}

/* Both checks of entry i, as FOUND_* bits. */
static unsigned char
check_one(const struct verifier *v, size_t i)
{
	const struct store_entry *e = &v->entries[i];
	unsigned char found = FOUND_DONE;
	int ok = 0;

	if (receipt_verifies(e, v->server_pub))
		found |= FOUND_RECEIPT_OK;
	if (v->how[i] == SIGNED_TEXT)
		ok = text_verifies(e, v->key[i]);
	else if (v->how[i] == SIGNED_MOVE)
		ok = move_entry_verifies(e, v->key[i]);
	if (v->how[i] != SIGNED_UNKNOWN)
		found |= FOUND_SIGNED | (ok ? FOUND_SIGNATURE_OK : 0);
	return found;
}

static void
wake(struct verifier *v)
{
	pthread_mutex_lock(&v->lock);
	pthread_cond_broadcast(&v->progress);
	pthread_mutex_unlock(&v->lock);
}

/* A worker: take the next chunk of entries until none is left. */
static void *
work(void *arg)
{
	struct verifier *v = arg;
	size_t first, i, end;

	thread_name_set("pbem-verify");
	while (!atomic_load(&v->stop)) {
		first = atomic_fetch_add(&v->next, VERIFIER_CHUNK);
		if (first >= v->n)
			break;
		end = first + VERIFIER_CHUNK < v->n ? first + VERIFIER_CHUNK :
		    v->n;
		for (i = first; i < end; i++)
			atomic_store(&v->found[i], check_one(v, i));
		wake(v);
	}
	return NULL;
}

static void
verifier_free(struct verifier *v)
{
	free(v->key);
	free(v->how);
	free(v->found);
	free(v);
}

struct verifier *
verifier_start(const struct store_entry *entries, size_t n,
    const unsigned char *server_pub)
{
	struct verifier *v;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i;

	if ((v = calloc(1, sizeof(*v))) == NULL)
		return NULL;
	v->key = calloc(n + 1, sizeof(*v->key));
	v->how = calloc(n + 1, 1);
	v->found = calloc(n + 1, sizeof(*v->found));
	if (v->key == NULL || v->how == NULL || v->found == NULL) {
		verifier_free(v);
		return NULL;
	}
	v->entries = entries;
	v->n = n;
	v->server_pub = server_pub;
	for (i = 0; i < n; i++)
		atomic_init(&v->found[i], 0);
	atomic_init(&v->next, 0);
	atomic_init(&v->stop, 0);
	guess_keys(v);
	pthread_mutex_init(&v->lock, NULL);
	pthread_cond_init(&v->progress, NULL);
	if (cpus < 1)
		cpus = 1;
	if (cpus > VERIFIER_THREADS_MAX)
		cpus = VERIFIER_THREADS_MAX;
	/* No more workers than chunks. */
	while (cpus > 1 && (size_t)(cpus - 1) * VERIFIER_CHUNK >= n)
		cpus--;
	for (v->nthreads = 0; v->nthreads < cpus; v->nthreads++)
		if (pthread_create(&v->thread[v->nthreads], NULL, work, v) !=
		    0)
			break;
	if (v->nthreads == 0) {
		pthread_mutex_destroy(&v->lock);
		pthread_cond_destroy(&v->progress);
		verifier_free(v);
		return NULL;
	}
	return v;
}

/* Entry i's FOUND_* bits, once a worker has checked it. */
static unsigned char
found_of(struct verifier *v, size_t i)
{
	unsigned char found = atomic_load(&v->found[i]);

	if (found & FOUND_DONE)
		return found;
	pthread_mutex_lock(&v->lock);
	while (!((found = atomic_load(&v->found[i])) & FOUND_DONE))
		pthread_cond_wait(&v->progress, &v->lock);
	pthread_mutex_unlock(&v->lock);
	return found;
}

int
verifier_receipt_ok(struct verifier *v, const struct store_entry *entries,
    size_t i, const unsigned char *server_pub)
{
	if (v == NULL || i >= v->n)
		return receipt_verifies(&entries[i], server_pub);
	return (found_of(v, i) & FOUND_RECEIPT_OK) != 0;
}

int
verifier_signature_ok(struct verifier *v, size_t i, const unsigned char *key)
{
	unsigned char found;

	if (v == NULL || i >= v->n || v->how[i] == SIGNED_UNKNOWN ||
	    sodium_memcmp(v->key[i], key, 32) != 0)
		return -1;
	found = found_of(v, i);
	if (!(found & FOUND_SIGNED))
		return -1;
	return (found & FOUND_SIGNATURE_OK) != 0;
}

void
verifier_stop(struct verifier *v)
{
	int t;

	if (v == NULL)
		return;
	atomic_store(&v->stop, 1);
	for (t = 0; t < v->nthreads; t++)
		pthread_join(v->thread[t], NULL);
	pthread_mutex_destroy(&v->lock);
	pthread_cond_destroy(&v->progress);
	verifier_free(v);
}
