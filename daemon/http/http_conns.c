/*
 * http_conns.c -- the open connections and the request watchdog (see
 * http_conns.h).
 *
 * Every connection is on one list under one mutex.  The watchdog walks
 * it once a second.  It may call shutdown() on a connection's socket
 * only while holding the mutex, and libmicrohttpd calls conns_notify()
 * (which takes the mutex to unlink the connection) before it closes the
 * socket: so the descriptor the watchdog shuts down is always the
 * connection's own, never a number already reused by another file.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include <sys/socket.h>

#include "http_conns.h"
#include "log.h"
#include "threadname.h"

struct conn {
	struct conn	*prev, *next;
	MHD_socket	 fd;
	struct timespec	 since;		/* the current request's start */
	int		 receiving;	/* its request is not all in yet */
	int		 reaped;	/* shut down by the watchdog */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static struct conn *head;
static atomic_int nopen;
static atomic_long nreaped;
static struct daemon *daemon_of;
static pthread_t watchdog;
static int running, stopping;

static struct conn *
conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info;

	info = MHD_get_connection_info(conn,
	    MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return info != NULL ? info->socket_context : NULL;
}

void
conns_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
    enum MHD_ConnectionNotificationCode code)
{
	const union MHD_ConnectionInfo *info;
	struct conn *c;

	(void)cls;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		if ((c = calloc(1, sizeof(*c))) == NULL) {
			*socket_context = NULL;	/* untimed, still served */
			return;
		}
		info = MHD_get_connection_info(conn,
		    MHD_CONNECTION_INFO_CONNECTION_FD);
		c->fd = info != NULL ? info->connect_fd : MHD_INVALID_SOCKET;
		clock_gettime(CLOCK_MONOTONIC, &c->since);
		c->receiving = 1;
		pthread_mutex_lock(&lock);
		c->next = head;
		if (head != NULL)
			head->prev = c;
		head = c;
		pthread_mutex_unlock(&lock);
		atomic_fetch_add(&nopen, 1);
		*socket_context = c;
		return;
	}
	if ((c = *socket_context) == NULL)
		return;
	pthread_mutex_lock(&lock);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		head = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	pthread_mutex_unlock(&lock);
	atomic_fetch_sub(&nopen, 1);
	free(c);
	*socket_context = NULL;
}

void
conns_request_in(struct MHD_Connection *conn)
{
	struct conn *c = conn_of(conn);

	if (c == NULL)
		return;
	pthread_mutex_lock(&lock);
	c->receiving = 0;
	pthread_mutex_unlock(&lock);
}

void
conns_request_done(struct MHD_Connection *conn)
{
	struct conn *c = conn_of(conn);

	if (c == NULL)
		return;
	pthread_mutex_lock(&lock);
	clock_gettime(CLOCK_MONOTONIC, &c->since);
	c->receiving = 1;
	pthread_mutex_unlock(&lock);
}

int
conns_open(void)
{
	return atomic_load(&nopen);
}

long
conns_reaped(void)
{
	return atomic_load(&nreaped);
}

/* One pass: shut down every connection receiving for longer than
 * limit seconds. */
static void
reap(long long limit)
{
	struct timespec now;
	struct conn *c;
	int n = 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&lock);
	for (c = head; c != NULL; c = c->next) {
		if (!c->receiving || c->reaped || c->fd == MHD_INVALID_SOCKET ||
		    now.tv_sec - c->since.tv_sec < limit)
			continue;
		c->reaped = 1;
		(void)shutdown(c->fd, SHUT_RDWR);
		n++;
	}
	pthread_mutex_unlock(&lock);
	if (n > 0) {
		atomic_fetch_add(&nreaped, n);
		log_info("http: closed %d connections whose request was not "
		    "in within %lld s (http_request_timeout)", n, limit);
	}
}

static void *
watchdog_main(void *arg)
{
	struct timespec until;

	thread_name_set("pbem-watchdog");
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!stopping) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_cond_timedwait(&wake, &lock, &until);
		if (stopping)
			break;
		pthread_mutex_unlock(&lock);
		reap(config_int(daemon_of->cfg, "http_request_timeout"));
		pthread_mutex_lock(&lock);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

int
conns_start(struct daemon *d)
{
	daemon_of = d;
	stopping = 0;
	if (pthread_create(&watchdog, NULL, watchdog_main, NULL) != 0)
		return -1;
	running = 1;
	return 0;
}

void
conns_stop(void)
{
	if (!running)
		return;
	pthread_mutex_lock(&lock);
	stopping = 1;
	pthread_cond_signal(&wake);
	pthread_mutex_unlock(&lock);
	pthread_join(watchdog, NULL);
	running = 0;
}
