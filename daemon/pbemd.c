/*
 * pbemd.c -- the pbem daemon: start-up and the main loop.
 *
 * init (options, database, server key) -> optional demo game -> register
 * handlers (HTTP) -> run until SIGTERM or SIGINT, then stop accepting,
 * let in-flight requests finish, close the store and exit 0.
 *
 * Embedded defaults: ./pbem.db, its key ./pbem.db.key, HTTP on
 * 127.0.0.1:8080.  `pbemd --demo` also creates two players with key files
 * in ./demo/ and a Star Trek: Missions game between them, and prints how
 * to play it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "daemon.h"
#include "engine.h"
#include "events.h"
#include "replaycache.h"
#include "mail.h"
#include "protocol.h"
#include "schedule.h"
#include "templates.h"

static void
usage(void)
{
	fprintf(stderr, "usage: pbemd [-nv] [-c file] [-o name=value] "
	    "[-d database] [-l address]\n"
	    "             [-p port] [-t templates] [--demo]\n");
	exit(2);
}

/* A command-line setting: the short flags are names for options. */
static void
set_option(struct config *cfg, const char *name, const char *value)
{
	char err[512];

	if (config_set(cfg, name, value, err, sizeof(err)) != 0) {
		fprintf(stderr, "pbemd: %s\n", err);
		exit(2);
	}
}

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
count_game(const struct store_game *g, void *arg)
{
	(*(int64_t *)arg) = g->id;
	return 0;
}

static void
demo(struct daemon *d)
{
	static const char *const names[2] = { "alice", "bruno" };
	int64_t players[2], game = 0;
	struct gamestate gs;
	char err[1024];
	int seat = 0;

	if (mkdir("demo", 0700) == -1 && errno != EEXIST)
		fatal("mkdir demo");
	players[0] = demo_player(d, names[0], "en");
	players[1] = demo_player(d, names[1], "fr");
	store_game_foreach(d->st, count_game, &game);
	if (game == 0 && engine_create_game(d->st, d->key, "stmissions", NULL,
	    players, 2, &game, err, sizeof(err)) != ENGINE_OK)
		fatalx("demo game: %s", err);
	if (gamestate_load(d->st, game, -1, &gs, err, sizeof(err)) !=
	    ENGINE_OK)
		fatalx("demo game: %s", err);
	if (gs.module->to_act(gs.state, &seat, 1) == 0)
		seat = 0;
	printf(
"Demo: game %lld of Star Trek: Missions, alice (seat 0) against bruno (seat 1).\n"
"  The public table, as JSON or as text (English or French):\n"
"    curl -s http://%s:%d/v1/games/%lld\n"
"    curl -s 'http://%s:%d/v1/games/%lld/text?lang=fr'\n"
"  It is %s's turn (seat %d); that seat's hand and moves, as its mail reads:\n"
"    ./daemon/pbemctl -d %s view %lld --seat %d --text\n"
"  Play move %lld as %s: sign it with the key, post the block:\n"
"    ./daemon/pbem sign -k demo/%s.key -g %lld -n %lld -s %d \"draw galaxy, discard drawn\" \\\n"
"      | curl -s --data-binary @- http://%s:%d/v1/games/%lld/moves\n"
"  Then the other seat plays, with the next move number; French works too:\n"
"    \"piocher galaxie, défausser la carte piochée\"\n",
	    (long long)game, d->address, d->port, (long long)game,
	    d->address, d->port, (long long)game, names[seat], seat,
	    d->dbpath, (long long)game, seat, (long long)gs.seq + 1,
	    names[seat], names[seat], (long long)game, (long long)gs.seq + 1,
	    seat, d->address, d->port, (long long)game);
	fflush(stdout);
	gamestate_clear(&gs);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "demo", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 }
	};
	struct daemon d;
	struct schedule_thread *scheduler;
	struct config *overrides;
	struct mail_settings mail;
	const char *config_file = NULL;
	sigset_t set;
	char err[512], keytext[128], *keypath;
	int ch, sig, want_demo = 0, verbose = 0, check_only = 0;

	/* The MTA pipe mode: one message on stdin (docs/MAIL.md). */
	if (argc > 1 && strcmp(argv[1], "deliver") == 0)
		return mail_deliver_main(argc - 1, argv + 1);

	memset(&d, 0, sizeof(d));
	if ((d.cfg = config_new()) == NULL ||
	    (overrides = config_new()) == NULL)
		fatalx("out of memory");
	/* Command-line settings are kept apart and applied after the file,
	 * so they win over it. */
	while ((ch = getopt_long(argc, argv, "c:d:l:no:p:t:v", opts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c': config_file = optarg; break;
		case 'd': set_option(overrides, "database", optarg); break;
		case 'l': set_option(overrides, "http_listen", optarg); break;
		case 'n': check_only = 1; break;
		case 'o':
			if (config_set_pair(overrides, optarg, err,
			    sizeof(err)) != 0) {
				fprintf(stderr, "pbemd: -o %s\n", err);
				exit(2);
			}
			break;
		case 'p': set_option(overrides, "http_port", optarg); break;
		case 't': set_option(overrides, "templates", optarg); break;
		case 'v': verbose = 1; break;
		case 'D': want_demo = 1; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (config_file != NULL && config_load_file(d.cfg, config_file, err,
	    sizeof(err)) != 0) {
		fprintf(stderr, "pbemd: %s\n", err);
		exit(1);
	}
	/* Replay the command line's settings over the file's. */
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:d:l:no:p:t:v", opts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd': set_option(d.cfg, "database", optarg); break;
		case 'l': set_option(d.cfg, "http_listen", optarg); break;
		case 'o': config_set_pair(d.cfg, optarg, err, sizeof(err));
			break;
		case 'p': set_option(d.cfg, "http_port", optarg); break;
		case 't': set_option(d.cfg, "templates", optarg); break;
		default: break;
		}
	}
	config_free(overrides);
	if (check_only) {
		if (verbose)
			config_write(d.cfg, stdout);
		printf("pbemd: configuration %s is valid\n", config_file ?
		    config_file : "(built-in defaults)");
		return 0;
	}
	d.dbpath = config_str(d.cfg, "database");
	d.address = config_str(d.cfg, "http_listen");
	d.port = (int)config_int(d.cfg, "http_port");
	d.template_dir = *config_str(d.cfg, "templates") != '\0' ?
	    config_str(d.cfg, "templates") : NULL;
	log_init("pbemd", 0, verbose);
	if (sodium_init() < 0)
		fatalx("libsodium failed to initialise");

	/* Every template is compiled now: a broken one stops the start
	 * with its file, line and reason, never a send later. */
	d.template_dir = templates_dir(d.template_dir);
	if ((d.templates = templates_load(d.template_dir, err,
	    sizeof(err))) == NULL)
		fatalx("templates: %s", err);
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

	/* Signals are taken synchronously by this thread only. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (daemon_store_init(&d) != 0)
		fatalx("cannot set up per-thread store connections");
	/* Signed requests: the replay cache is empty now, so requests
	 * signed before this moment are refused (api_auth.c).  Event
	 * long-polls are woken by every commit, from any thread. */
	d.started = (int64_t)time(NULL);
	if ((d.replay = replaycache_new()) == NULL ||
	    (d.events = evhub_new()) == NULL)
		fatalx("out of memory");
	engine_set_commit_hook(evhub_committed, d.events);
	if (webhook_start(&d) != 0)
		exit(1);
	if (d.port != 0 && http_start(&d) != 0)
		exit(1);
	/* The deadline scheduler, on its own store connection. */
	if ((scheduler = schedule_start(d.dbpath, d.key,
	    (int)config_int(d.cfg, "schedule_interval"), err,
	    sizeof(err))) == NULL)
		fatalx("scheduler: %s", err);
	if (mail_settings_from_config(&mail, d.cfg, err, sizeof(err)) != 0 ||
	    mail_daemon_start(d.dbpath, d.key, d.templates, &mail, err,
	    sizeof(err)) != 0)
		fatalx("mail: %s", err);
	for (;;) {
		if (sigwait(&set, &sig) != 0)
			continue;
		if (sig == SIGHUP) {
			log_info("SIGHUP: nothing to reload yet");
			continue;
		}
		log_info("%s: stopping", strsignal(sig));
		break;
	}
	evhub_shutdown(d.events);	/* answers the waiting long-polls */
	http_stop(&d);		/* waits for requests in flight */
	schedule_stop(scheduler);	/* waits for a pass in progress */
	mail_daemon_stop();	/* lets the message in hand finish */
	webhook_stop(&d);	/* after the last commit */
	engine_set_commit_hook(NULL, NULL);
	evhub_free(d.events);
	replaycache_free(d.replay);
	serverkey_close(d.key);
	store_close(d.st);
	templates_free(d.templates);
	config_free(d.cfg);
	return 0;
}
