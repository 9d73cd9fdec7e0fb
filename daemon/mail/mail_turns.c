/*
 * mail_turns.c -- the order two ingesting threads keep (mail.h).
 *
 * A Maildir scan hands its messages out in order, each with a ticket
 * (its rank).  Two threads ingest at once: reading, parsing and checking
 * a signature need no order, but handing a move to the writer does (two
 * moves of one game must reach it in their order), and anything else a
 * message does to the store (a command, an account, a refusal) is done
 * only once every earlier message is finished.  Two rules:
 *   - the gate: the tickets below it have handed their move to the
 *     writer or are finished; a ticket passes it only when it is its
 *     turn (mail_turn_hand_on), and at the latest when it finishes;
 *   - the barrier: a ticket that does more than hand a move on waits
 *     until every earlier ticket is finished (mail_turn_alone).
 * The lowest unfinished ticket never waits on a later one, so the scan
 * always moves on.
 */
#include <limits.h>
#include <pthread.h>

#include "mail.h"

void
mail_turns_init(struct mail_turns *t)
{
	int i;

	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->changed, NULL);
	t->gate = 0;
	t->next = 0;
	for (i = 0; i < MAIL_TURN_WORKERS; i++)
		t->working[i] = LONG_MAX;
}

void
mail_turns_destroy(struct mail_turns *t)
{
	pthread_cond_destroy(&t->changed);
	pthread_mutex_destroy(&t->lock);
}

long
mail_turn_take(struct mail_turns *t, int worker, long count)
{
	long ticket;

	pthread_mutex_lock(&t->lock);
	ticket = t->next < count ? t->next++ : -1;
	t->working[worker] = ticket >= 0 ? ticket : LONG_MAX;
	pthread_mutex_unlock(&t->lock);
	return ticket;
}

/* With the lock held: wait until it is ticket's turn at the gate. */
static void
wait_gate(struct mail_turns *t, long ticket)
{
	while (t->gate < ticket)
		pthread_cond_wait(&t->changed, &t->lock);
}

/* With the lock held: 1 if a ticket below ticket is still being worked. */
static int
earlier_working(const struct mail_turns *t, long ticket)
{
	int i;

	for (i = 0; i < MAIL_TURN_WORKERS; i++)
		if (t->working[i] < ticket)
			return 1;
	return 0;
}

int
mail_turn_hand_on(struct mail_turns *t, long ticket,
    int (*hand)(void *), void *arg)
{
	int rc;

	pthread_mutex_lock(&t->lock);
	wait_gate(t, ticket);
	/* Under the lock: the next ticket cannot hand its move on first. */
	rc = hand(arg);
	if (t->gate == ticket)
		t->gate = ticket + 1;
	pthread_cond_broadcast(&t->changed);
	pthread_mutex_unlock(&t->lock);
	return rc;
}

void
mail_turn_alone(struct mail_turns *t, long ticket)
{
	pthread_mutex_lock(&t->lock);
	wait_gate(t, ticket);
	while (earlier_working(t, ticket))
		pthread_cond_wait(&t->changed, &t->lock);
	if (t->gate == ticket)
		t->gate = ticket + 1;
	pthread_cond_broadcast(&t->changed);
	pthread_mutex_unlock(&t->lock);
}

void
mail_turn_finish(struct mail_turns *t, int worker, long ticket)
{
	pthread_mutex_lock(&t->lock);
	wait_gate(t, ticket);
	if (t->gate == ticket)
		t->gate = ticket + 1;
	t->working[worker] = LONG_MAX;
	pthread_cond_broadcast(&t->changed);
	pthread_mutex_unlock(&t->lock);
}
