/*
 * ctl_queue.c -- `pbemctl queue`: the outbox rows still waiting, as mailq
 * lists a mail queue, and postsuper's two repairs: try a row again now,
 * or drop it unsent (pbemctl(8)).
 *
 *   queue [--all]          pending rows and rows failed for good, oldest
 *                          first, one a line (the first 1000 unless --all)
 *   queue retry ID...|all  pending again, due now, attempts and error
 *                          cleared (a running pbemd sends it at its next
 *                          scan of the outbox)
 *   queue drop ID...       removed without being sent
 * A line reads: ID STATUS CHANNEL RECIPIENT EVENT game=G attempts=N
 * next=TIME [last error].  Payloads are not shown: a mail's body may
 * hold a player's hand.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "clock.h"
#include "pbemctl.h"

/* The rows listed without --all. */
#define QUEUE_SHOWN	1000

struct queue_walk {
	int64_t	last_id;	/* the last row seen */
	int	rows;
	int	failed;
};

static int
show_row(const struct store_outbox *o, void *arg)
{
	struct queue_walk *w = arg;
	char when[32];
	time_t t = (time_t)o->next_attempt;
	struct tm tm;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	printf("%lld %s %s %s %s game=%lld attempts=%d next=%s%s%s\n",
	    (long long)o->id, o->status == STORE_OUTBOX_FAILED ? "failed" :
	    "pending", o->channel, o->recipient[0] != '\0' ? o->recipient :
	    "-", o->event, (long long)o->game_id, o->attempts, when,
	    o->last_error[0] != '\0' ? " " : "", o->last_error);
	w->last_id = o->id;
	w->rows++;
	w->failed += o->status == STORE_OUTBOX_FAILED;
	return 0;
}

static int
queue_list(struct ctl *c, int all)
{
	struct queue_walk w;
	int before;

	memset(&w, 0, sizeof(w));
	do {
		before = w.rows;
		if (store_outbox_queue(c->st, w.last_id, QUEUE_SHOWN,
		    show_row, &w) != STORE_OK)
			cli_fatal("store: %s", store_errmsg(c->st));
	} while (all && w.rows - before == QUEUE_SHOWN);
	fprintf(stderr, "%d rows waiting (%d failed for good)%s\n", w.rows,
	    w.failed, !all && w.rows == QUEUE_SHOWN ? "; --all lists every "
	    "one" : "");
	return 0;
}

int
ctl_cmd_queue(struct ctl *c, int argc, char **argv)
{
	int i, retry, failed = 0;
	enum store_status status;
	int64_t id;

	if (argc == 1 || (argc == 2 && strcmp(argv[1], "--all") == 0)) {
		ctl_open(c, 0);
		queue_list(c, argc == 2);
		ctl_close(c);
		return 0;
	}
	if (argc < 3 || (strcmp(argv[1], "retry") != 0 &&
	    strcmp(argv[1], "drop") != 0))
		usage();
	retry = strcmp(argv[1], "retry") == 0;
	ctl_open(c, 0);
	if (retry && argc == 3 && strcmp(argv[2], "all") == 0) {
		if (store_outbox_retry_all(c->st, clock_now(), &id) !=
		    STORE_OK)
			cli_fatal("store: %s", store_errmsg(c->st));
		printf("%lld rows to be tried again now\n", (long long)id);
		ctl_close(c);
		return 0;
	}
	for (i = 2; i < argc; i++) {
		id = cli_number(argv[i], 1, INT64_MAX, "outbox row");
		status = retry ? store_outbox_retry(c->st, id, clock_now()) :
		    store_outbox_drop(c->st, id);
		if (status == STORE_OK)
			printf("%lld %s\n", (long long)id, retry ?
			    "to be tried again now" : "dropped, not sent");
		else {
			fprintf(stderr, "pbemctl: queue %s %lld: %s\n",
			    argv[1], (long long)id, store_errmsg(c->st));
			failed = 1;
		}
	}
	ctl_close(c);
	return failed;
}
