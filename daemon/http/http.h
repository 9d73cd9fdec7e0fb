/*
 * http.h -- pbemd's HTTP ingress, as the process sees it: start serving
 * on the configured address, stop.  The route table and the handlers are
 * in http.c and api_*.c (api.h); the rate limits in limits.h.
 */
#ifndef PBEM_HTTP_H
#define PBEM_HTTP_H

#include "daemon.h"

/* Serve until http_stop(), which stops accepting, lets the requests in
 * flight finish (up to http_timeout seconds) and returns. */
int	http_start(struct daemon *d);
void	http_stop(struct daemon *d);

#endif /* PBEM_HTTP_H */
