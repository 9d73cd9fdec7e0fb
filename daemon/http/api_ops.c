/*
 * api_ops.c -- GET /v1/health and GET /v1/metrics, for whoever runs the
 * daemon: a load balancer, a supervisor, Prometheus (see api.h;
 * docs/API.md).
 */
#include <stdlib.h>

#include "config.h"
#include "api.h"
#include "metrics.h"

/*
 * 200 when this thread's database connection answers a query, 503 when
 * it does not or when pbemd is stopping (so that a balancer stops
 * sending work).  The outbox count is the second query: a database that
 * opens but cannot be read is not healthy either.
 */
enum MHD_Result
api_health(struct api_request *req)
{
	struct store *st = daemon_store(req->d);
	int64_t pending = -1;
	int version = -1, healthy;
	const char *problem = NULL;
	json_t *body;

	if (st == NULL)
		problem = "the database cannot be opened (see the daemon log)";
	else if ((version = store_schema_version(st)) < 0 ||
	    store_outbox_pending(st, &pending) != STORE_OK)
		problem = store_errmsg(st);
	healthy = problem == NULL && !atomic_load(&req->d->stopping);
	body = json_pack("{s:s, s:s, s:I, s:i, s:s}", "status", healthy ?
	    "ok" : problem != NULL ? "unavailable" : "stopping", "version",
	    PACKAGE_VERSION, "uptime_seconds", (json_int_t)metrics_uptime(),
	    "schema_latest", store_schema_latest(), "database", problem ==
	    NULL ? "ok" : "unreachable");
	if (problem != NULL)
		json_object_set_new(body, "message", json_string(problem));
	json_object_set_new(body, "schema_version", version >= 0 ?
	    json_integer(version) : json_null());
	json_object_set_new(body, "outbox_pending", pending >= 0 ?
	    json_integer(pending) : json_null());
	return api_send_json(req, healthy ? MHD_HTTP_OK :
	    MHD_HTTP_SERVICE_UNAVAILABLE, body);
}

enum MHD_Result
api_metrics(struct api_request *req)
{
	char *text = metrics_text(daemon_store(req->d));

	if (text == NULL)
		return api_send_error(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "internal_error", "out of memory", NULL);
	return api_send_text(req, MHD_HTTP_OK,
	    "text/plain; version=0.0.4; charset=utf-8", text);
}
