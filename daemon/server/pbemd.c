/*
 * pbemd.c -- the pbem daemon: start-up and the main loop.
 *
 * init (settings, log, pid/lock file, templates, database, server key)
 * -> optional demo game -> start the stages (the table below) -> tell
 * systemd we are ready -> wait for signals: SIGHUP reloads (reload.c);
 * SIGTERM or SIGINT stop the stages in reverse order (HTTP first: it
 * stops accepting and lets the requests in flight finish), close the
 * store, remove the pid file and exit 0.
 *
 * Embedded defaults: ./pbem.db, its key ./pbem.db.key, HTTP on
 * 127.0.0.1:8080.  `pbemd --demo` also creates two players with key files
 * in ./demo/ and a Star Trek: Missions game between them, and prints how
 * to play it.
 */
#define _GNU_SOURCE		/* pthread_rwlockattr_setkind_np, asprintf */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "conf_secrets.h"
#include "daemon.h"
#include "engine.h"
#include "events.h"
#include "http.h"
#include "http_limits.h"
#include "replaycache.h"
#include "mail.h"
#include "metrics.h"
#include "notify.h"
#include "pidfile.h"
#include "protocol.h"
#include "scheduler.h"
#include "server.h"
#include "templates.h"
#include "writer.h"
#include "xalloc.h"

/* The deadline scheduler, on its own store connection (schedule.h).
 * Commits on any thread nudge it (committed() below), so the pointer
 * is read and changed under scheduler_lock. */
static struct schedule_thread *scheduler;
static pthread_mutex_t scheduler_lock = PTHREAD_MUTEX_INITIALIZER;

static int
scheduler_start(struct daemon *d)
{
	struct schedule_thread *started;
	char err[512];

	if ((started = schedule_start(d->dbpath, d->key,
	    (int)config_int(d->cfg, "schedule_interval"),
	    (int)config_int(d->cfg, "outbox_keep_days"), err,
	    sizeof(err))) == NULL) {
		log_warnx("scheduler: %s", err);
		return -1;
	}
	pthread_mutex_lock(&scheduler_lock);
	scheduler = started;
	pthread_mutex_unlock(&scheduler_lock);
	return 0;
}

static void
scheduler_stop(struct daemon *d)
{
	struct schedule_thread *stopping;

	(void)d;
	pthread_mutex_lock(&scheduler_lock);
	stopping = scheduler;
	scheduler = NULL;
	pthread_mutex_unlock(&scheduler_lock);
	schedule_stop(stopping);	/* waits for a pass in progress */
}

/* The engine's commit hook: wake the event long-polls, and nudge the
 * scheduler (a bot seat may be to act now). */
static void
committed(int64_t game_id, int64_t seq, void *events)
{
	evhub_committed(game_id, seq, events);
	pthread_mutex_lock(&scheduler_lock);
	schedule_nudge(scheduler);
	pthread_mutex_unlock(&scheduler_lock);
}

/* The batching writer (writer.h): every thread that submits moves hands
 * them to it, so it starts before them and stops after them. */
static int
writer_stage_start(struct daemon *d)
{
	char err[512];

	if (config_int(d->cfg, "writer_batch") == 0)
		return 0;		/* each thread writes its own moves */
	if (writer_start(d->dbpath, d->key,
	    (int)config_int(d->cfg, "writer_batch"),
	    (int)config_int(d->cfg, "writer_cache"), err, sizeof(err)) != 0) {
		log_warnx("writer: %s", err);
		return -1;
	}
	log_info("writer: up to %lld moves per transaction, %lld games kept",
	    config_int(d->cfg, "writer_batch"),
	    config_int(d->cfg, "writer_cache"));
	return 0;
}

static void
writer_stage_stop(struct daemon *d)
{
	struct writer_stats ws;

	(void)d;
	writer_get_stats(&ws);
	if (ws.batches > 0)
		log_info("writer: %lld moves in %lld transactions (at most "
		    "%lld in one)", ws.moves, ws.batches, ws.largest);
	writer_stop();		/* writes what is queued */
}

/* The mail gateway (mail.h): its threads read these settings for as
 * long as they run. */
static struct mail_settings mail_settings;

/* Signed mail spends the same per-key tokens as signed HTTP requests
 * (http_limits.h): one bucket per key, whichever way the block came. */
static int
mail_key_check(void *arg, const unsigned char key[32],
    unsigned int *retry_after)
{
	return ratelimit_check_key(arg, key, retry_after);
}

static void
mail_key_charge(void *arg, const unsigned char key[32])
{
	ratelimit_charge_key(arg, key);
}

static int
mail_stage_start(struct daemon *d)
{
	char err[512];

	if (mail_settings_from_config(&mail_settings, d->cfg, err,
	    sizeof(err)) == 0) {
		mail_settings.key_check = mail_key_check;
		mail_settings.key_charge = mail_key_charge;
		mail_settings.key_arg = d;
	}
	if (mail_settings.key_arg == NULL || mail_daemon_start(d->dbpath, d->key,
	    d->templates, &mail_settings, err, sizeof(err)) != 0) {
		log_warnx("mail: %s", err);
		return -1;
	}
	return 0;
}

static void
mail_stage_stop(struct daemon *d)
{
	(void)d;
	mail_daemon_stop();	/* lets the message in hand finish */
}

/* Long-polls are answered first: libmicrohttpd must not find a suspended
 * connection when it stops (events.h). */
static void
http_stage_stop(struct daemon *d)
{
	evhub_shutdown(d->events);
	http_stop(d);		/* waits for requests in flight */
}

/*
 * What runs beside the main thread, in start order; pbemd stops them in
 * the reverse order.  HTTP comes last so that it stops first: no new work
 * comes in while the workers behind it finish theirs.  To add a worker
 * (outbox delivery, mail intake, deadlines): one row, with
 *   start	starts its threads; 0, or -1 after logging why (pbemd then
 *		stops the stages already started and exits 1);
 *   stop	returns once its threads have finished and ended; it must
 *		not lose work that was acknowledged (the outbox keeps it);
 *   reload	NULL, or called on the main thread after a SIGHUP took
 *		effect (d->cfg is the new settings).
 */
static const struct stage {
	const char	*name;
	int		(*start)(struct daemon *d);
	void		(*stop)(struct daemon *d);
	void		(*reload)(struct daemon *d);
} stages[] = {
	{ "webhooks",	webhook_start,	webhook_stop,	NULL },
	{ "writer",	writer_stage_start, writer_stage_stop, NULL },
	{ "mail",	mail_stage_start, mail_stage_stop, NULL },
	{ "scheduler",	scheduler_start, scheduler_stop, NULL },
	{ "http",	http_start,	http_stage_stop, NULL },
	{ NULL,		NULL,		NULL,		NULL }
};

static void
print_usage(FILE *out)
{
	fprintf(out,
"usage: pbemd [-nv] [-c file] [-o name=value] [-d database] [-l address]\n"
"             [-p port] [-t templates] [--demo]\n"
"       pbemd deliver [-c file] [-d database] [-f sender] [-m name=value]\n"
"       pbemd --help | --version\n"
"  -c file        the configuration file (pbemd.conf(5))\n"
"  -n             check the configuration and every file it names, then exit\n"
"  -v             debug logging; with -n, print every setting\n"
"  -o name=value  one setting, over the file's (also -d, -l, -p, -t)\n"
"  --demo         make two players and a game to try, and print how\n"
"Templates: %s unless set.\n"
"Exit status: 0 stopped cleanly or configuration valid, 1 failed to run,\n"
"64 usage error, 78 configuration refused (pbemd(8)).\n",
	    templates_installed_dir());
}

/* A usage error: the usage on stderr, exit EX_USAGE. */
static void
usage(void)
{
	print_usage(stderr);
	exit(EX_USAGE);
}

/* Keep a command-line setting ("name=value") to apply after the file, at
 * start-up and at every reload; a bad one stops pbemd now. */
static void
add_pair(char **list, size_t *n, const char *pair)
{
	struct config *scratch;
	char err[512];

	if ((scratch = config_new()) == NULL)
		fatalx("out of memory");
	if (config_set_pair(scratch, pair, err, sizeof(err)) != 0) {
		fprintf(stderr, "pbemd: %s\n", err);
		exit(EX_USAGE);
	}
	config_free(scratch);
	if ((list[(*n)++] = strdup(pair)) == NULL)
		fatalx("out of memory");
}

/* The same for a short flag, a name for an option. */
static void
add_override(char **list, size_t *n, const char *name, const char *value)
{
	char *pair;

	if (asprintf(&pair, "%s=%s", name, value) == -1)
		fatalx("out of memory");
	add_pair(list, n, pair);
	free(pair);
}

/* How long the banner's sign-in link to the web page stays valid. */
#define DEMO_LINK_TTL	(3 * 86400)

/* A demo player with a key pair in demo/NAME.key(.pub); its id. */
static int64_t
demo_player(struct daemon *d, const char *name, const char *lang)
{
	unsigned char sk[64];
	struct store_player p;
	char path[256], text[256];
	FILE *f;
	int fd;

	if (store_player_find(d->st, name, &p) == STORE_OK)
		return p.id;
	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "%s", name);
	snprintf(p.email, sizeof(p.email), "%s@localhost", name);
	snprintf(p.lang, sizeof(p.lang), "%s", lang);
	crypto_sign_keypair(p.pubkey, sk);
	snprintf(path, sizeof(path), "demo/%s.key", name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1 ||
	    (f = fdopen(fd, "w")) == NULL)
		fatal("%s", path);
	proto_seckey_format(sk, text, sizeof(text));
	fprintf(f, "%s\n", text);
	fclose(f);
	sodium_memzero(sk, sizeof(sk));
	sodium_memzero(text, sizeof(text));
	snprintf(path, sizeof(path), "demo/%s.key.pub", name);
	if ((f = fopen(path, "w")) == NULL)
		fatal("%s", path);
	proto_pubkey_format(p.pubkey, text, sizeof(text));
	fprintf(f, "%s\n", text);
	fclose(f);
	if (store_player_add(d->st, &p) != STORE_OK)
		fatalx("store: %s", store_errmsg(d->st));
	return p.id;
}

static int
last_game(const struct store_game *g, void *arg)
{
	(*(int64_t *)arg) = g->id;
	return 0;
}

/* The move the banner shows: "draw galaxy, discard drawn" when it is
 * legal for seat, else the first legal move; malloc'd. */
static char *
demo_move(const struct gamestate *gs, int seat)
{
	json_t *legal = gs->module->legal_moves(gs->state, seat);
	const char *pick = NULL, *m;
	char *out;
	size_t i;

	for (i = 0; i < json_array_size(legal); i++) {
		m = json_string_value(json_array_get(legal, i));
		if (m != NULL && (pick == NULL ||
		    strcmp(m, "draw galaxy, discard drawn") == 0))
			pick = m;
	}
	out = xstrdup(pick != NULL ? pick : "help");
	json_decref(legal);
	return out;
}

/*
 * The demo: players alice and bruno with their keys in demo/, and a game
 * of Star Trek: Missions between them -- the newest game, or a new one
 * when there is none or the newest is over.  The banner gives the exact
 * commands for the seat the seed made start (or whoever is to play now).
 */
static void
demo(struct daemon *d)
{
	int64_t players[2], game = 0;
	struct gamestate gs;
	char err[1024], *move, link[ENGINE_TOKEN_LEN + 1];
	const char *who;
	int seat = 0;

	if (mkdir("demo", 0700) == -1 && errno != EEXIST)
		fatal("mkdir demo");
	players[0] = demo_player(d, "alice", "en");
	players[1] = demo_player(d, "bruno", "fr");
	store_game_foreach(d->st, last_game, &game);
	if (game != 0) {
		if (gamestate_load(d->st, game, -1, &gs, err, sizeof(err)) !=
		    ENGINE_OK)
			fatalx("demo game: %s", err);
		if (gs.ended != NULL ||
		    gs.module->to_act(gs.state, &seat, 1) < 1) {
			log_info("demo: game %lld is over; starting a new one",
			    (long long)game);
			game = 0;
		}
		gamestate_clear(&gs);
	}
	if (game == 0 && engine_create_game(d->st, d->key, "stmissions", NULL,
	    players, 2, &game, err, sizeof(err)) != ENGINE_OK)
		fatalx("demo game: %s", err);
	if (gamestate_load(d->st, game, -1, &gs, err, sizeof(err)) !=
	    ENGINE_OK)
		fatalx("demo game: %s", err);
	if (gs.module->to_act(gs.state, &seat, 1) < 1)
		fatalx("demo game %lld: nobody is to play", (long long)game);
	who = seat == 0 ? "alice" : "bruno";
	move = demo_move(&gs, seat);
	/* A sign-in link to the web page for that seat, as its mail has. */
	if (engine_play_token_issue(d->st, game, seat, players[seat],
	    (int64_t)time(NULL) + DEMO_LINK_TTL, link) != STORE_OK)
		fatalx("demo game %lld: sign-in link: %s", (long long)game,
		    store_errmsg(d->st));
	printf(
"Demo: game %lld of Star Trek: Missions, alice (seat 0, English) against\n"
"bruno (seat 1, French).  pbemd stays in the foreground: type the commands\n"
"below in another terminal, in this folder; Ctrl-C stops the server.\n"
"  The public table, as JSON or as text (English or French):\n"
"    curl -s http://%s:%d/v1/games/%lld\n"
"    curl -s 'http://%s:%d/v1/games/%lld/text?lang=fr'\n"
"  It is %s's turn (seat %d, move %lld); that seat's hand and moves, as\n"
"  its mail reads:\n"
"    ./daemon/pbemctl -d %s view %lld --seat %d --text\n"
"  Play move %lld as %s: sign it with the key, post the block:\n"
"    ./daemon/pbem sign -k demo/%s.key -g %lld -n %lld -s %d \"%s\" \\\n"
"      | curl -s --data-binary @- http://%s:%d/v1/games/%lld/moves\n"
"  Any later move, for whoever is to play (French works too: \"piocher\n"
"  galaxie, défausser la carte piochée\"):\n"
"    eval \"$(./daemon/pbemctl -d %s turn %lld)\"    # sets PLAYER, SEAT, SEQ\n"
"    ./daemon/pbem sign -k demo/$PLAYER.key -g %lld -n $SEQ -s $SEAT \"draw galaxy, discard drawn\" \\\n"
"      | curl -s --data-binary @- http://%s:%d/v1/games/%lld/moves\n"
"  Or in a browser, with nothing to type: open %s's sign-in link (once,\n"
"  within three days), press Continue, load demo/%s.key into the page\n"
"  (the key stays in the browser) and click a move:\n"
"    http://%s:%d/play/%s\n"
"  Every later your-turn mail in mail/out/new/ has its player's link.\n",
	    (long long)game, d->address, d->port, (long long)game,
	    d->address, d->port, (long long)game, who, seat,
	    (long long)gs.seq + 1, d->dbpath, (long long)game, seat,
	    (long long)gs.seq + 1, who, who, (long long)game,
	    (long long)gs.seq + 1, seat, move, d->address, d->port,
	    (long long)game, d->dbpath, (long long)game, (long long)game,
	    d->address, d->port, (long long)game, who, who, d->address,
	    d->port, link);
	fflush(stdout);
	free(move);
	gamestate_clear(&gs);
}

static void
free_overrides(char **list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/* Start every stage; on a failure stop those started and exit 1. */
static void
start_stages(struct daemon *d)
{
	int i;

	for (i = 0; stages[i].name != NULL; i++) {
		if (stages[i].start(d) == 0)
			continue;
		log_warnx("%s: cannot start; stopping", stages[i].name);
		while (--i >= 0)
			stages[i].stop(d);
		exit(1);
	}
}

static void
stop_stages(struct daemon *d)
{
	int i;

	for (i = 0; stages[i].name != NULL; i++)
		;
	while (--i >= 0) {
		log_debug("%s: stopping", stages[i].name);
		stages[i].stop(d);
	}
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "demo", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct daemon d;
	struct config *cfg;
	pthread_rwlockattr_t rwattr;
	sigset_t set;
	char err[1024], keytext[128], *keypath, *pidpath;
	char **overrides;
	size_t noverrides = 0, i;
	int ch, sig, want_demo = 0, verbose = 0, check_only = 0, problems;

	/* The MTA pipe mode: one message on stdin (docs/MAIL.md). */
	if (argc > 1 && strcmp(argv[1], "deliver") == 0)
		return mail_deliver_main(argc - 1, argv + 1);

	memset(&d, 0, sizeof(d));
	if ((overrides = calloc((size_t)argc + 1, sizeof(*overrides))) ==
	    NULL)
		fatalx("out of memory");
	/* Command-line settings are kept apart and applied after the file,
	 * so they win over it, also at a reload. */
	while ((ch = getopt_long(argc, argv, "c:d:hl:no:p:t:v", opts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c': d.config_file = optarg; break;
		case 'd': add_override(overrides, &noverrides, "database",
			    optarg); break;
		case 'l': add_override(overrides, &noverrides, "http_listen",
			    optarg); break;
		case 'n': check_only = 1; break;
		case 'o':
			add_pair(overrides, &noverrides, optarg);
			break;
		case 'p': add_override(overrides, &noverrides, "http_port",
			    optarg); break;
		case 't': add_override(overrides, &noverrides, "templates",
			    optarg); break;
		case 'v': verbose = 1; break;
		case 'D': want_demo = 1; break;
		case 'h':
			print_usage(stdout);
			exit(EX_OK);
		case 'V':
			printf("pbemd %s\n", PACKAGE_VERSION);
			exit(EX_OK);
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	/* -v means debug logging, whatever the file says (and -n -v prints
	 * every setting). */
	if (verbose && !check_only)
		add_override(overrides, &noverrides, "log_level", "debug");
	d.overrides = overrides;
	d.noverrides = noverrides;
	if ((cfg = check_only ? daemon_settings_unread(&d, err, sizeof(err)) :
	    daemon_settings(&d, err, sizeof(err))) == NULL) {
		fprintf(stderr, "pbemd: %s\n", err);
		exit(EX_CONFIG);
	}
	d.cfg = cfg;
	if (check_only) {
		/* Every file first, the secret files among them, each
		 * problem named; then the secrets read as pbemd would, so
		 * that -v shows which are set (never their values). */
		problems = daemon_check_files(cfg, stdout);
		if (problems == 0 && config_read_secret_files(cfg, err,
		    sizeof(err)) != 0) {
			fprintf(stderr, "pbemd: %s\n", err);
			problems++;
		}
		if (verbose)
			config_write(cfg, stdout);
		if (problems != 0) {
			fprintf(stderr, "pbemd: configuration %s refused: a file "
			    "it names is missing or unusable (above)\n",
			    d.config_file ? d.config_file :
			    "(built-in defaults)");
			config_free(cfg);
			free_overrides(overrides, noverrides);
			return EX_CONFIG;
		}
		printf("pbemd: configuration %s is valid\n", d.config_file ?
		    d.config_file : "(built-in defaults)");
		config_free(cfg);
		free_overrides(overrides, noverrides);
		return EX_OK;
	}

	/* Signals are taken synchronously by the main thread only; every
	 * thread started from here on inherits the mask. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	log_init("pbemd", 0, 0);
	if (log_configure(config_str(cfg, "log"), config_str(cfg,
	    "log_level"), err, sizeof(err)) != 0) {
		fprintf(stderr, "pbemd: %s\n", err);
		exit(1);
	}
	metrics_init();
	d.dbpath = config_str(cfg, "database");
	d.address = config_str(cfg, "http_listen");
	d.port = (int)config_int(cfg, "http_port");
	d.template_dir = *config_str(cfg, "templates") != '\0' ?
	    config_str(cfg, "templates") : NULL;

	/* The lock comes before anything opens the database for writing. */
	if (*config_str(cfg, "pid_file") != '\0')
		pidpath = strdup(config_str(cfg, "pid_file"));
	else if ((pidpath = malloc(strlen(d.dbpath) + 5)) != NULL)
		sprintf(pidpath, "%s.pid", d.dbpath);
	if (pidpath == NULL)
		fatalx("out of memory");
	if ((d.pidfile = pidfile_acquire(pidpath, err, sizeof(err))) == NULL)
		fatalx("%s", err);
	free(pidpath);
	if (sodium_init() < 0)
		fatalx("libsodium failed to initialise");

	/* Every template is compiled now: a broken one stops the start
	 * with its file, line and reason, never a send later. */
	pthread_rwlockattr_init(&rwattr);
	pthread_rwlockattr_setkind_np(&rwattr,
	    PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&d.templates_lock, &rwattr);
	pthread_rwlockattr_destroy(&rwattr);
	d.template_dir = templates_dir(d.template_dir);
	if ((d.templates = templates_load(d.template_dir, err,
	    sizeof(err))) == NULL)
		fatalx("templates: %s (set templates = DIR in the "
		    "configuration, or -t DIR)", err);
	log_info("templates: %zu loaded from %s", templates_count(d.templates),
	    d.template_dir);
	if (store_open(d.dbpath, &d.st, err, sizeof(err)) != STORE_OK)
		fatalx("%s", err);
	keypath = serverkey_path_for(d.dbpath);
	if ((d.key = serverkey_open(keypath, 1, err, sizeof(err))) == NULL)
		fatalx("%s", err);
	free(keypath);
	if (engine_bind_server_key(d.st, d.key, keytext, sizeof(keytext), err,
	    sizeof(err)) != 0)
		fatalx("%s: %s", d.dbpath, err);
	if (want_demo)
		demo(&d);

	if (daemon_store_init(&d) != 0)
		fatalx("cannot set up per-thread store connections");
	/* Signed requests: the replay cache is empty now, so requests
	 * signed before this moment are refused (api_auth.c).  Event
	 * long-polls are woken by every commit, from any thread. */
	d.started = (int64_t)time(NULL);
	if ((d.replay = replaycache_new()) == NULL ||
	    (d.events = evhub_new()) == NULL)
		fatalx("out of memory");
	engine_set_commit_hook(committed, d.events);
	if (limits_init(&d) != 0)
		fatalx("out of memory");
	start_stages(&d);
	notify_ready();
	log_info("pbemd %s ready (pid %ld, database %s)", PACKAGE_VERSION,
	    (long)getpid(), d.dbpath);
	for (;;) {
		if (sigwait(&set, &sig) != 0)
			continue;
		if (sig == SIGHUP) {
			if (daemon_reload(&d) == 0)
				for (i = 0; stages[i].name != NULL; i++)
					if (stages[i].reload != NULL)
						stages[i].reload(&d);
			continue;
		}
		log_info("%s: stopping", strsignal(sig));
		break;
	}
	atomic_store(&d.stopping, 1);
	notify_stopping();
	/* HTTP first (answers the waiting long-polls, then waits for the
	 * requests in flight), then the scheduler (waits for a pass in
	 * progress), mail (lets the message in hand finish), webhooks last
	 * (after the last commit). */
	stop_stages(&d);
	engine_set_commit_hook(NULL, NULL);
	evhub_free(d.events);
	replaycache_free(d.replay);
	limits_free(&d);
	serverkey_close(d.key);
	store_close(d.st);
	templates_free(d.templates);
	pthread_rwlock_destroy(&d.templates_lock);
	log_info("stopped");
	pidfile_release(d.pidfile);
	daemon_retired_free(&d);
	config_free(d.cfg);
	free_overrides(overrides, noverrides);
	return 0;
}
