/*
 * http_conns.h -- the open HTTP connections of pbemd: how many there
 * are, and a watchdog that closes a connection whose request has not
 * come in whole within http_request_timeout seconds.
 *
 * Why: libmicrohttpd's own timeout (http_timeout) is an idle timeout; a
 * client that sends one byte now and then keeps a half-sent request open
 * for ever, and enough of them take every connection slot (and file
 * descriptor) of the server.  So each connection carries the time its
 * current request began -- the connection's start, or the end of the
 * answer before -- until the request's headers and body are all in; the
 * watchdog thread shuts down (shutdown(2), so libmicrohttpd sees the end
 * of the stream and closes it itself) any connection still receiving
 * after the timeout.  libmicrohttpd 0.9.75 cannot queue an answer while
 * it is still reading a request's headers or body, so such a client gets
 * no 408: its connection is closed.  Once a request is in, the handler,
 * a suspended long-poll and the answer are not timed here.
 *
 * http.c registers conns_notify() as MHD_OPTION_NOTIFY_CONNECTION and
 * tells this module when a request is in and when it is answered.  One
 * set of connections per process (pbemd runs one HTTP server).
 */
#ifndef PBEM_HTTP_CONNS_H
#define PBEM_HTTP_CONNS_H

#include <microhttpd.h>

#include "daemon.h"

/* Start the watchdog (reads http_request_timeout on every pass, so a
 * reload applies); 0 or -1. */
int	conns_start(struct daemon *d);
/* Stop it; call after MHD_stop_daemon(). */
void	conns_stop(void);
/* libmicrohttpd's callback: a connection opens or closes. */
void	conns_notify(void *cls, struct MHD_Connection *conn,
	    void **socket_context, enum MHD_ConnectionNotificationCode code);
/* The request on conn is in, headers and body: stop timing it. */
void	conns_request_in(struct MHD_Connection *conn);
/* Its answer has gone: the next request on conn starts its clock now. */
void	conns_request_done(struct MHD_Connection *conn);
/* Connections open now. */
int	conns_open(void);
/* Connections closed by the watchdog since start (tests, the log). */
long	conns_reaped(void);

#endif /* PBEM_HTTP_CONNS_H */
