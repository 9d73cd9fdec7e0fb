/*
 * bench_load.c -- accepted moves per second end to end: many HTTP clients
 * posting signed moves to the real pbemd.
 *
 * Set-up (not timed): a fresh database with players and games; every
 * game is played out on a local replica (loadlib.h) to prepare its
 * signed moves as ready HTTP requests, so the clients spend no time
 * choosing or signing while the clock runs.  Then pbemd starts on a
 * loopback port of its own, and C clients -- one keep-alive connection
 * each, all driven by one epoll loop in this process -- post those
 * moves.  Each client keeps G/C games in play and moves round-robin
 * between them, one request in flight at a time; a game's next move is
 * sent only after its previous one was accepted (the order a game's
 * players must keep).  The run stops after N moves were sent (or D
 * seconds), and waits for the answers in flight.
 *
 * It reports accepted moves/s, the latency of each request (p50, p90,
 * p99, max), errors by HTTP status and code, pbemd's peak RSS (VmHWM)
 * and CPU time per accepted move (in all, and by thread name: the
 * writer's is the serial ceiling), this program's own CPU time (it shares
 * the machine), and the load average before and after.
 *
 * usage: bench_load [-k] [-c clients] [-g games] [-t http_threads]
 *		     [-n moves] [-d seconds] [-r ruleset] [-s seats]
 *		     [-o name=value]...
 * Defaults: 64 clients, 512 games in play, 8 threads, 40000 moves,
 * stmissions with 2 seats.  -o passes a setting to pbemd (repeatable);
 * -k keeps the temporary directory (database, pbemd.log).
 * PBEM_LOAD_MOVES overrides -n's default (make bench).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "loadlib.h"

#define MAX_OPTIONS	16
#define MAX_ERRKINDS	16

/* One game's prepared requests. */
struct game {
	char	**request;	/* ready HTTP requests, in order */
	size_t	 *reqlen;
	int	  nmoves;
	int	  next;		/* the next one to send */
	int	  dead;		/* refused in a way that stops it */
};

struct client {
	int	  fd;
	int	 *games;	/* indexes into the games array */
	int	  ngames, cap, turn;
	int	  busy;		/* a request is in flight */
	int	  game;		/* ... for this game */
	const char *out;
	size_t	  outlen, sent;
	char	  in[8192];
	size_t	  inlen;
	double	  started;
};

struct errkind {
	int	status;
	char	code[40];
	long	count;
};

static struct game	*games;
static int		 ngames, next_fresh;
static double		*latency;
static long		 nlatency, accepted, sent_total;
static struct errkind	 errkinds[MAX_ERRKINDS];
static int		 nerrkinds;

static void
usage(void)
{
	fprintf(stderr, "usage: bench_load [-k] [-c clients] [-g games] "
	    "[-t http_threads] [-n moves]\n"
	    "                  [-d seconds] [-r ruleset] [-s seats] "
	    "[-o name=value]...\n");
	exit(2);
}

static void
count_error(int status, const char *body)
{
	const char *p = body != NULL ? strstr(body, "\"code\"") : NULL;
	char code[40] = "-";
	int i;

	if (p != NULL && (p = strchr(p + 6, '"')) != NULL)
		sscanf(p + 1, "%39[^\"]", code);
	for (i = 0; i < nerrkinds; i++)
		if (errkinds[i].status == status &&
		    strcmp(errkinds[i].code, code) == 0) {
			errkinds[i].count++;
			return;
		}
	if (nerrkinds < MAX_ERRKINDS) {
		errkinds[nerrkinds].status = status;
		snprintf(errkinds[nerrkinds].code, sizeof(errkinds[0].code),
		    "%s", code);
		errkinds[nerrkinds++].count = 1;
	}
}

static char *
make_request(int64_t game, const char *block, size_t *len)
{
	size_t blen = strlen(block), cap = blen + 256;
	char *req = malloc(cap);
	int n;

	if (req == NULL)
		exit(1);
	n = snprintf(req, cap, "POST /v1/games/%lld/moves HTTP/1.1\r\n"
	    "Host: 127.0.0.1\r\nContent-Type: text/plain\r\n"
	    "Content-Length: %zu\r\n\r\n%s", (long long)game, blen, block);
	*len = (size_t)n;
	return req;
}

/* Create games and prepare their moves until there are at least want. */
static void
prepare(struct loadenv *env, const char *ruleset, int seats, long want,
    int min_games)
{
	struct replica r;
	char block[PROTO_ARMOUR_MAX];
	uint64_t rnd = 0x9e3779b97f4a7c15ULL;
	long total = 0;
	int cap = 0, mcap;
	int64_t id;
	struct game *g;

	while (total < want || ngames < min_games) {
		if (ngames == cap) {
			cap = cap ? 2 * cap : 1024;
			if ((games = realloc(games, (size_t)cap *
			    sizeof(*games))) == NULL)
				exit(1);
		}
		g = &games[ngames];
		memset(g, 0, sizeof(*g));
		id = loadenv_game(env, ruleset, seats, &r);
		mcap = 0;
		while (replica_next(env, &r, &rnd, block, sizeof(block)) == 0) {
			if (g->nmoves == mcap) {
				mcap = mcap ? 2 * mcap : 64;
				g->request = realloc(g->request, (size_t)mcap *
				    sizeof(char *));
				g->reqlen = realloc(g->reqlen, (size_t)mcap *
				    sizeof(size_t));
				if (g->request == NULL || g->reqlen == NULL)
					exit(1);
			}
			g->request[g->nmoves] = make_request(id, block,
			    &g->reqlen[g->nmoves]);
			g->nmoves++;
			replica_advance(&r);
		}
		replica_clear(&r);
		total += g->nmoves;
		ngames++;
	}
}

static int
connect_to(int port)
{
	struct sockaddr_in sin;
	int fd, one = 1;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1) {
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* Give the client a fresh game if one is left. */
static int
take_game(struct client *c)
{
	if (next_fresh >= ngames)
		return -1;
	if (c->ngames == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 8;
		if ((c->games = realloc(c->games, (size_t)c->cap *
		    sizeof(int))) == NULL)
			exit(1);
	}
	c->games[c->ngames++] = next_fresh++;
	return 0;
}

static int
finished(int k)
{
	return games[k].dead || games[k].next >= games[k].nmoves;
}

/* The next game of this client with a move to send, round-robin; games
 * played out are replaced by fresh ones.  -1 when it has none left. */
static int
pick_game(struct client *c)
{
	int k;

	for (k = 0; k < c->ngames; k++)
		while (k < c->ngames && finished(c->games[k])) {
			if (next_fresh < ngames)
				c->games[k] = next_fresh++;
			else
				c->games[k] = c->games[--c->ngames];
		}
	if (c->ngames == 0)
		return -1;
	return c->games[c->turn++ % c->ngames];
}

static void
send_next(struct client *c, long limit, double deadline)
{
	struct game *g;
	ssize_t n;

	if (sent_total >= limit || (deadline > 0 && load_now() >= deadline))
		return;
	if ((c->game = pick_game(c)) < 0)
		return;
	g = &games[c->game];
	c->out = g->request[g->next];
	c->outlen = g->reqlen[g->next];
	c->sent = 0;
	c->inlen = 0;
	c->busy = 1;
	c->started = load_now();
	sent_total++;
	while (c->sent < c->outlen) {
		n = write(c->fd, c->out + c->sent, c->outlen - c->sent);
		if (n <= 0) {
			if (n == -1 && errno == EINTR)
				continue;
			fprintf(stderr, "write: %s\n", strerror(errno));
			exit(1);
		}
		c->sent += (size_t)n;
	}
}

/* A whole response in c->in?  Its status and body. */
static int
response_done(struct client *c, int *status, const char **body)
{
	char *end, *cl;
	size_t head, length = 0;

	c->in[c->inlen] = '\0';
	if ((end = strstr(c->in, "\r\n\r\n")) == NULL)
		return 0;
	head = (size_t)(end - c->in) + 4;
	for (cl = c->in; (cl = strchr(cl, '\n')) != NULL && cl < end; cl++)
		if (strncasecmp(cl + 1, "Content-Length:", 15) == 0)
			length = strtoul(cl + 16, NULL, 10);
	if (c->inlen < head + length)
		return 0;
	*status = atoi(c->in + 9);
	*body = c->in + head;
	return 1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
percentile(double p)
{
	long i = (long)(p * (double)(nlatency - 1) + 0.5);

	return nlatency ? 1e3 * latency[i] : 0;
}

static double
cpu_of(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec /
	    1e6 + (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec /
	    1e6;
}

/*
 * pbemd's CPU per accepted move by thread name, between two readings.
 * The writer's figure is the serial ceiling: one thread writes every
 * move, so 1e6 / (its us per move) is the most moves/s the writer can
 * take however many cores there are, a figure that holds at any load.
 */
static void
print_threads(const struct load_threads *before,
    const struct load_threads *after, long moves)
{
	double us;
	int i, k;

	printf("  pbemd CPU per accepted move, by thread name:\n");
	for (i = 0; i < after->n; i++) {
		us = after->cpu[i];
		for (k = 0; k < before->n; k++)
			if (strcmp(before->name[k], after->name[i]) == 0)
				us -= before->cpu[k];
		us = moves ? 1e6 * us / (double)moves : 0;
		printf("    %-15s x%-2d %6.1f us", after->name[i],
		    after->count[i], us);
		if (strcmp(after->name[i], "pbem-writer") == 0 && us > 0)
			printf("  (serial ceiling %.0f moves/s)", 1e6 / us);
		printf("\n");
	}
}

static void
loadavg(char *out, size_t len)
{
	FILE *f = fopen("/proc/loadavg", "r");

	out[0] = '\0';
	if (f != NULL) {
		if (fgets(out, (int)len, f) != NULL)
			out[strcspn(out, "\n")] = '\0';
		fclose(f);
	}
}

int
main(int argc, char **argv)
{
	const char *options[MAX_OPTIONS + 1], *ruleset = "stmissions";
	const char *env_moves = getenv("PBEM_LOAD_MOVES"), *body;
	int nclients = 64, ngames_live = 512, threads = 8, seats = 2;
	int noptions = 0, keep = 0, ch, i, ep, status, nev, active;
	long limit = env_moves ? atol(env_moves) : 40000, rss;
	double seconds = 0, deadline = 0, t0, t1, cpu0, cpu1, sys0, sys1, prep;
	struct epoll_event ev, events[256];
	char load_before[128], load_after[128];
	struct client *clients, *c;
	struct load_threads threads0, threads1;
	struct loadenv env;
	struct rusage ru0, ru;
	ssize_t n;

	while ((ch = getopt(argc, argv, "c:d:g:kn:o:r:s:t:")) != -1) {
		switch (ch) {
		case 'c': nclients = atoi(optarg); break;
		case 'd': seconds = atof(optarg); break;
		case 'g': ngames_live = atoi(optarg); break;
		case 'k': keep = 1; break;
		case 'n': limit = atol(optarg); break;
		case 'o':
			if (noptions == MAX_OPTIONS)
				usage();
			options[noptions++] = optarg;
			break;
		case 'r': ruleset = optarg; break;
		case 's': seats = atoi(optarg); break;
		case 't': threads = atoi(optarg); break;
		default: usage();
		}
	}
	options[noptions] = NULL;
	if (nclients < 1 || ngames_live < nclients || limit < 1 || seats < 1)
		usage();
	signal(SIGPIPE, SIG_IGN);

	prep = load_now();
	loadenv_open(&env, seats);
	/* Enough prepared moves that no client runs dry before the limit
	 * (or for the duration at up to 40,000 moves/s). */
	prepare(&env, ruleset, seats, (seconds > 0 ? (long)(seconds * 40000) :
	    limit) * 5 / 4 + 1000, ngames_live * 2);
	prep = load_now() - prep;
	if ((latency = calloc((size_t)(seconds > 0 ? seconds * 40000 : limit) +
	    1, sizeof(double))) == NULL || (clients = calloc((size_t)nclients,
	    sizeof(*clients))) == NULL)
		return 1;
	if (seconds > 0)
		limit = (long)(seconds * 40000);
	if (loadenv_start_pbemd(&env, threads, options) != 0) {
		loadenv_close(&env, 1);
		return 1;
	}

	if ((ep = epoll_create1(0)) == -1)
		return perror("epoll"), 1;
	for (i = 0; i < nclients; i++) {
		c = &clients[i];
		if ((c->fd = connect_to(env.port)) == -1)
			return perror("connect"), 1;
		while (c->ngames < ngames_live / nclients && take_game(c) == 0)
			;
		ev.events = EPOLLIN;
		ev.data.ptr = c;
		epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
	}
	loadavg(load_before, sizeof(load_before));
	cpu0 = loadenv_pbemd_cpu(&env, &sys0);
	loadenv_pbemd_threads(&env, &threads0);
	getrusage(RUSAGE_SELF, &ru0);
	t0 = load_now();
	if (seconds > 0)
		deadline = t0 + seconds;
	for (i = 0; i < nclients; i++)
		send_next(&clients[i], limit, deadline);

	for (;;) {
		for (active = 0, i = 0; i < nclients; i++)
			active += clients[i].busy;
		if (active == 0)
			break;
		nev = epoll_wait(ep, events, 256, 10000);
		if (nev <= 0) {
			fprintf(stderr, "no answer from pbemd for 10 s\n");
			loadenv_close(&env, 1);
			return 1;
		}
		for (i = 0; i < nev; i++) {
			c = events[i].data.ptr;
			n = read(c->fd, c->in + c->inlen, sizeof(c->in) - 1 -
			    c->inlen);
			if (n <= 0) {
				c->in[c->inlen] = '\0';
				fprintf(stderr, "pbemd closed a connection "
				    "(read so far: \"%.200s\"); see %s/pbemd.log\n",
				    c->in, env.dir);
				loadenv_close(&env, 1);
				return 1;
			}
			c->inlen += (size_t)n;
			if (!c->busy || !response_done(c, &status, &body))
				continue;
			latency[nlatency++] = load_now() - c->started;
			c->busy = 0;
			if (status == 200) {
				accepted++;
				games[c->game].next++;
			} else {
				count_error(status, body);
				if (status != 503)	/* busy: send again */
					games[c->game].dead = 1;
			}
			send_next(c, limit, deadline);
		}
	}
	t1 = load_now();
	cpu1 = loadenv_pbemd_cpu(&env, &sys1);
	loadenv_pbemd_threads(&env, &threads1);
	rss = loadenv_pbemd_peak_rss(&env);
	loadavg(load_after, sizeof(load_after));
	getrusage(RUSAGE_SELF, &ru);

	qsort(latency, (size_t)nlatency, sizeof(double), cmp_double);
	printf("load: %d clients, %d games in play (%s, %d seats), pbemd "
	    "with %d HTTP threads", nclients, ngames_live, ruleset, seats,
	    threads);
	for (i = 0; i < noptions; i++)
		printf(" -o %s", options[i]);
	printf("\n  prepared %d games in %.1f s (not timed)\n", ngames, prep);
	printf("  accepted %ld of %ld moves in %.2f s: %.0f moves/s\n",
	    accepted, nlatency, t1 - t0, (double)accepted / (t1 - t0));
	printf("  latency ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n",
	    percentile(0.50), percentile(0.90), percentile(0.99),
	    percentile(1.0));
	if (nerrkinds == 0)
		printf("  errors: none\n");
	for (i = 0; i < nerrkinds; i++)
		printf("  errors: %ld x HTTP %d %s\n", errkinds[i].count,
		    errkinds[i].status, errkinds[i].code);
	printf("  pbemd: peak RSS %ld KiB; CPU %.2f s = %.0f us per accepted "
	    "move (%.0f us in the kernel)\n", rss, cpu1 - cpu0, accepted ?
	    1e6 * (cpu1 - cpu0) / (double)accepted : 0, accepted ? 1e6 *
	    (sys1 - sys0) / (double)accepted : 0);
	print_threads(&threads0, &threads1, accepted);
	printf("  bench_load itself (the clients): CPU %.2f s = %.0f us per "
	    "accepted move\n", cpu_of(&ru) - cpu_of(&ru0), accepted ? 1e6 *
	    (cpu_of(&ru) - cpu_of(&ru0)) / (double)accepted : 0);
	printf("  load average before: %s; after: %s\n", load_before,
	    load_after);
	for (i = 0; i < nclients; i++) {
		close(clients[i].fd);
		free(clients[i].games);
	}
	free(clients);
	for (i = 0; i < ngames; i++) {
		while (games[i].nmoves > 0)
			free(games[i].request[--games[i].nmoves]);
		free(games[i].request);
		free(games[i].reqlen);
	}
	free(games);
	free(latency);
	close(ep);
	loadenv_close(&env, keep);
	return nerrkinds == 0 ? 0 : 1;
}
