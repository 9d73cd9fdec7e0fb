/*
 * loadlib.c -- see loadlib.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sodium.h>

#include "loadlib.h"
#include "rng.h"

#ifndef LOAD_SRCDIR
#define LOAD_SRCDIR	"."
#endif
#ifndef LOAD_BUILDDIR
#define LOAD_BUILDDIR	"."
#endif

static void
die(const char *fmt, const char *what)
{
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	exit(1);
}

double
load_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint32_t
load_random(uint64_t *s, uint32_t bound)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s % bound);
}

void
loadenv_open(struct loadenv *env, int nplayers)
{
	struct store_player p;
	char err[1024], text[128], *keypath;
	int i;

	memset(env, 0, sizeof(*env));
	if (sodium_init() < 0)
		die("%s", "libsodium failed to initialise");
	snprintf(env->dir, sizeof(env->dir), "/tmp/pbem-load-XXXXXX");
	if (mkdtemp(env->dir) == NULL)
		die("mkdtemp: %s", strerror(errno));
	snprintf(env->dbpath, sizeof(env->dbpath), "%s/pbem.db", env->dir);
	if (store_open(env->dbpath, &env->st, err, sizeof(err)) != STORE_OK)
		die("%s", err);
	keypath = serverkey_path_for(env->dbpath);
	env->key = serverkey_open(keypath, 1, err, sizeof(err));
	free(keypath);
	if (env->key == NULL)
		die("%s", err);
	serverkey_public(env->key, env->server_pub);
	if (engine_bind_server_key(env->st, env->key, text, sizeof(text), err,
	    sizeof(err)) != 0)
		die("%s", err);
	env->nplayers = nplayers < LOAD_MAX_PLAYERS ? nplayers :
	    LOAD_MAX_PLAYERS;
	for (i = 0; i < env->nplayers; i++) {
		memset(&p, 0, sizeof(p));
		snprintf(p.name, sizeof(p.name), "load%d", i);
		snprintf(p.email, sizeof(p.email), "load%d@example.org", i);
		snprintf(p.lang, sizeof(p.lang), "en");
		crypto_sign_keypair(p.pubkey, env->player_sk[i]);
		if (store_player_add(env->st, &p) != STORE_OK)
			die("player: %s", store_errmsg(env->st));
		env->player_id[i] = p.id;
	}
	env->port = 20000 + (int)(getpid() % 20000);
}

void
loadenv_close(struct loadenv *env, int keep)
{
	char cmd[400];

	if (env->pbemd > 0)
		loadenv_stop_pbemd(env, SIGTERM);
	if (env->st != NULL)
		store_close(env->st);
	serverkey_close(env->key);
	if (keep) {
		fprintf(stderr, "kept %s\n", env->dir);
		return;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", env->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", env->dir);
}

/* The seat to act and a move for it, or seat -1 when over. */
static void
choose(struct replica *r, uint64_t *rnd)
{
	json_t *legal;

	if (r->gs.module->to_act(r->gs.state, &r->seat, 1) == 0 ||
	    r->gs.game.status == STORE_GAME_OVER) {
		r->seat = -1;
		return;
	}
	legal = r->gs.module->legal_moves(r->gs.state, r->seat);
	if (json_array_size(legal) == 0)
		die("%s", "a seat to act has no legal move");
	snprintf(r->text, sizeof(r->text), "%s", json_string_value(
	    json_array_get(legal, load_random(rnd,
	    (uint32_t)json_array_size(legal)))));
	json_decref(legal);
}

int64_t
loadenv_game(struct loadenv *env, const char *ruleset, int nseats,
    struct replica *r)
{
	char err[1024];
	int64_t game;

	if (engine_create_game(env->st, env->key, ruleset, NULL,
	    env->player_id, nseats, &game, err, sizeof(err)) != ENGINE_OK)
		die("create: %s", err);
	memset(r, 0, sizeof(*r));
	if (gamestate_load(env->st, game, -1, &r->gs, err, sizeof(err)) !=
	    ENGINE_OK)
		die("load: %s", err);
	r->seq = r->gs.seq + 1;
	r->seat = -2;			/* not chosen yet */
	return game;
}

void
replica_clear(struct replica *r)
{
	gamestate_clear(&r->gs);
}

int
replica_next(struct loadenv *env, struct replica *r, uint64_t *rnd,
    char *out, size_t outlen)
{
	struct proto_move m;

	if (r->seat == -2)
		choose(r, rnd);
	if (r->seat < 0)
		return -1;
	memset(&m, 0, sizeof(m));
	m.game_id = r->gs.game.id;
	m.seq = r->seq;
	m.seat = r->seat;
	snprintf(m.text, sizeof(m.text), "%s", r->text);
	proto_move_sign(&m, env->player_sk[r->seat]);
	if (proto_move_armour(&m, out, outlen) == 0)
		die("%s", "armour: buffer too small");
	return 0;
}

void
replica_advance(struct replica *r)
{
	struct rules_rng rng;
	json_t *move = NULL;
	char err[RULES_ERRLEN];

	if (r->gs.module->parse(r->gs.state, r->seat, r->text, RULES_LANG_EN,
	    &move, err, sizeof(err)) != RULES_OK ||
	    r->gs.module->check(r->gs.state, r->seat, move, RULES_LANG_EN,
	    err, sizeof(err)) != RULES_OK)
		die("replica: %s", err);
	rng_init(&rng, r->gs.game.seed, (uint64_t)r->seq);
	r->gs.module->apply(r->gs.state, r->seat, move, &rng);
	json_decref(move);
	r->gs.seq = r->seq++;
	r->seat = -2;
}

/* GET /v1/health on the loopback port: 1 if it answered 200. */
static int
healthy(int port)
{
	static const char req[] = "GET /v1/health HTTP/1.0\r\n\r\n";
	struct sockaddr_in sin;
	char buf[64];
	ssize_t n;
	int fd, ok = 0;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return 0;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0 &&
	    write(fd, req, sizeof(req) - 1) == (ssize_t)(sizeof(req) - 1) &&
	    (n = read(fd, buf, sizeof(buf) - 1)) > 12) {
		buf[n] = '\0';
		ok = strncmp(buf + 9, "200", 3) == 0;
	}
	close(fd);
	return ok;
}

int
loadenv_start_pbemd(struct loadenv *env, int threads,
    const char *const *options)
{
	static const char *const unlimited[] = { "rate_per_address=0",
	    "rate_per_key=0", "http_max_connections_per_address=0", NULL };
	const char *bin = getenv("PBEM_PBEMD"), *src = getenv("top_srcdir");
	const char *build = getenv("top_builddir");
	char path[512], tpl[512], port[16], thr[64], logpath[320];
	const char *argv[64];
	int argc = 0, i, fd, status;
	double deadline;

	if (env->st != NULL) {
		store_close(env->st);
		env->st = NULL;
	}
	snprintf(path, sizeof(path), "%s/daemon/pbemd", build ? build :
	    LOAD_BUILDDIR);
	snprintf(tpl, sizeof(tpl), "%s/templates", src ? src : LOAD_SRCDIR);
	snprintf(port, sizeof(port), "%d", env->port);
	snprintf(thr, sizeof(thr), "http_threads=%d", threads);
	snprintf(logpath, sizeof(logpath), "%s/pbemd.log", env->dir);
	argv[argc++] = bin ? bin : path;
	argv[argc++] = "-d";
	argv[argc++] = env->dbpath;
	argv[argc++] = "-p";
	argv[argc++] = port;
	argv[argc++] = "-t";
	argv[argc++] = tpl;
	argv[argc++] = "-o";
	argv[argc++] = thr;
	/* Load from one address with a few keys is what this is for: no
	 * rate or connection limits, unless options sets them again. */
	for (i = 0; unlimited[i] != NULL; i++) {
		argv[argc++] = "-o";
		argv[argc++] = unlimited[i];
	}
	for (i = 0; options != NULL && options[i] != NULL && argc < 60; i++) {
		argv[argc++] = "-o";
		argv[argc++] = options[i];
	}
	argv[argc] = NULL;

	if ((env->pbemd = fork()) == -1) {
		perror("fork");
		return -1;
	}
	if (env->pbemd == 0) {
		/* pbemd's relative paths (the mail folders) land in the
		 * temporary directory, never in the build tree. */
		if (chdir(env->dir) != 0)
			_exit(127);
		if ((fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND,
		    0600)) != -1) {
			dup2(fd, 2);
			dup2(fd, 1);
			close(fd);
		}
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	deadline = load_now() + 20;
	while (load_now() < deadline) {
		if (healthy(env->port))
			return 0;
		if (waitpid(env->pbemd, &status, WNOHANG) == env->pbemd) {
			fprintf(stderr, "pbemd exited at start; see %s\n",
			    logpath);
			env->pbemd = 0;
			return -1;
		}
		usleep(20000);
	}
	fprintf(stderr, "pbemd did not answer on port %d; see %s\n",
	    env->port, logpath);
	loadenv_stop_pbemd(env, SIGKILL);
	return -1;
}

int
loadenv_stop_pbemd(struct loadenv *env, int sig)
{
	int status;

	if (env->pbemd <= 0)
		return -1;
	kill(env->pbemd, sig);
	while (waitpid(env->pbemd, &status, 0) == -1 && errno == EINTR)
		;
	env->pbemd = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

long
loadenv_pbemd_peak_rss(const struct loadenv *env)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)env->pbemd);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "VmHWM:", 6) == 0)
			kib = strtol(line + 6, NULL, 10);
	fclose(f);
	return kib;
}

/* The name and CPU seconds (user + system; *sys the system part) in the
 * stat file at path: 0, or -1 if it cannot be read. */
static int
stat_cpu(const char *path, char name[16], double *cpu, double *sys)
{
	char buf[1024], *open_paren, *close_paren;
	unsigned long utime, stime;
	size_t n, namelen;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* Fields 14 and 15, counted after the ")" that ends the name. */
	if ((open_paren = strchr(buf, '(')) == NULL ||
	    (close_paren = strrchr(buf, ')')) == NULL ||
	    close_paren < open_paren || sscanf(close_paren + 2,
	    "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime,
	    &stime) != 2)
		return -1;
	namelen = (size_t)(close_paren - open_paren - 1);
	if (namelen > 15)
		namelen = 15;
	memcpy(name, open_paren + 1, namelen);
	name[namelen] = '\0';
	*cpu = (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
	*sys = (double)stime / (double)sysconf(_SC_CLK_TCK);
	return 0;
}

double
loadenv_pbemd_cpu(const struct loadenv *env, double *sys)
{
	char path[64], name[16];
	double cpu, kernel;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)env->pbemd);
	if (stat_cpu(path, name, &cpu, &kernel) != 0)
		return -1;
	if (sys != NULL)
		*sys = kernel;
	return cpu;
}

void
loadenv_pbemd_threads(const struct loadenv *env, struct load_threads *t)
{
	char path[320], name[16];
	struct dirent *d;
	double cpu, kernel;
	DIR *dir;
	int i;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "/proc/%d/task", (int)env->pbemd);
	if ((dir = opendir(path)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.32s/stat",
		    (int)env->pbemd, d->d_name);
		if (stat_cpu(path, name, &cpu, &kernel) != 0)
			continue;
		for (i = 0; i < t->n && strcmp(t->name[i], name) != 0; i++)
			;
		if (i == t->n) {
			if (t->n == LOAD_MAX_THREAD_NAMES)
				continue;
			memcpy(t->name[t->n++], name, sizeof(name));
		}
		t->count[i]++;
		t->cpu[i] += cpu;
	}
	closedir(dir);
}
