/*
 * loadlib.h -- what the load generator (bench_load.c) and the crash test
 * (check_crash.c) share: a fresh database with players and games, a
 * local replica of each game that picks legal moves and signs them, and
 * the real pbemd started on a loopback port of its own.
 *
 * A replica is the game as the server has it, rebuilt in this process
 * from the same seed and moves (the rule modules are deterministic): the
 * client needs it to know whose turn it is and which moves are legal.
 * The replica only advances when told a move was accepted.
 *
 * Nothing here is timed; the callers time what they measure.
 */
#ifndef PBEM_LOADLIB_H
#define PBEM_LOADLIB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine.h"

#define LOAD_MAX_PLAYERS	8

struct loadenv {
	char			 dir[256];	/* temporary; removed at close */
	char			 dbpath[320];
	struct store		*st;		/* closed while pbemd runs */
	struct serverkey	*key;
	unsigned char		 server_pub[32];
	int			 nplayers;
	int64_t			 player_id[LOAD_MAX_PLAYERS];
	unsigned char		 player_sk[LOAD_MAX_PLAYERS][64];
	int			 port;		/* 20000 + pid % 20000 */
	pid_t			 pbemd;		/* 0: not running */
};

struct replica {
	struct gamestate	 gs;
	int			 seat;		/* to act; -1 once over */
	int64_t			 seq;		/* the next sequence number */
	char			 text[PROTO_MOVE_MAX + 1];	/* chosen move */
};

/* A fresh database with nplayers players (their keys in env); exits
 * with a message on any failure. */
void	loadenv_open(struct loadenv *env, int nplayers);
/* Stop pbemd if it runs, close, remove the directory (unless keep). */
void	loadenv_close(struct loadenv *env, int keep);

/* Create a game of ruleset for players 0..nseats-1 and its replica. */
int64_t	loadenv_game(struct loadenv *env, const char *ruleset, int nseats,
	    struct replica *r);
void	replica_clear(struct replica *r);
/* Choose the next move (a legal move for the seat to act, drawn with the
 * xorshift state rnd) and write its signed block into out.  -1 when the
 * game is over. */
int	replica_next(struct loadenv *env, struct replica *r, uint64_t *rnd,
	    char *out, size_t outlen);
/* The move chosen by replica_next() was accepted: play it here too. */
void	replica_advance(struct replica *r);

/* Start pbemd on env's database (the store must be closed first) with
 * http_threads = threads and extra "-o name=value" settings (NULL-ended,
 * may be NULL, and may set again the limits this turns off: rate_per_address,
 * rate_per_key, http_max_connections_per_address); wait until /v1/health
 * answers.  It runs in env->dir
 * (its mail folders go there) and logs to env->dir/pbemd.log.  0, or -1 with a message on stderr. */
int	loadenv_start_pbemd(struct loadenv *env, int threads,
	    const char *const *options);
/* Send sig to pbemd and reap it; its exit status (-1 if killed). */
int	loadenv_stop_pbemd(struct loadenv *env, int sig);
/* pbemd's peak resident set (VmHWM, KiB) and CPU time (seconds; *sys,
 * if not NULL, gets the part spent in the kernel). */
long	loadenv_pbemd_peak_rss(const struct loadenv *env);
double	loadenv_pbemd_cpu(const struct loadenv *env, double *sys);

/* pbemd's CPU time by thread name (/proc/<pid>/task/<tid>/stat; pbemd
 * names its threads, daemon/common/threadname.h): the threads alive when
 * read, summed per name.  A thread that ended is not counted. */
#define LOAD_MAX_THREAD_NAMES	24
struct load_threads {
	int	 n;
	char	 name[LOAD_MAX_THREAD_NAMES][16];
	int	 count[LOAD_MAX_THREAD_NAMES];		/* threads */
	double	 cpu[LOAD_MAX_THREAD_NAMES];		/* seconds */
};
void	loadenv_pbemd_threads(const struct loadenv *env,
	    struct load_threads *t);

double	load_now(void);
uint32_t load_random(uint64_t *state, uint32_t bound);

#endif /* PBEM_LOADLIB_H */
