/*
 * pbemctl.c -- the administrator's command line.
 *
 * Every command opens the database (-d, $PBEM_DB, or ./pbem.db), does one
 * thing, and exits 0 on success, 1 when the thing asked for failed (a
 * refused move, an audit that found a fault), EX_USAGE (64) on a usage
 * error (pbemctl(8) lists them).
 * Messages for people go to standard error; results to standard output.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>

#include <sodium.h>

#include "audit.h"
#include "bundle.h"
#include "cardsets.h"
#include "cli.h"
#include "pbemctl.h"
#include "clock.h"
#include "engine.h"
#include "present.h"
#include "protocol.h"
#include "reqsig.h"
#include "schedule.h"
#include "templates.h"
#include "timetext.h"
#include "webhook.h"

static void
print_usage(FILE *out)
{
	fprintf(out,
"usage: pbemctl [-c pbemd.conf] [-d database] command [arguments]\n"
"  -c FILE: read the database and the files it names (keys, secrets, pid\n"
"           file) from pbemd's configuration file; -d overrides it\n"
"  init                              create the database and server key\n"
"  rulesets                          list the games this server runs\n"
"  player add NAME (--key KEY | --key-file FILE) [--email ADDR] [--lang en|fr]\n"
"  player add NAME --email ADDR --hosted [--kek-file FILE] [--lang en|fr]\n"
"                                    a player whose key the server holds\n"
"  player key NAME (--key KEY | --key-file FILE)   replace a player's key\n"
"  player list\n"
"  gm GAME master PLAYER|nobody     name the game's master (signs \"gm ...\")\n"
"  gm GAME extend DURATION          give the current turn more time (1h-30d)\n"
"  gm GAME force | pause | resume   missed-deadline outcome now; stop/restart\n"
"                                    the game's clock\n"
"  gm GAME policy NAME=VALUE        change the policy, the late turn too\n"
"  player tz NAME ZONE               the time zone NAME reads times in\n"
"  player lang NAME en|fr            the language NAME reads in\n"
"                                    (Europe/Paris, America/New_York, UTC)\n"
"  game create RULESET PLAYER,PLAYER,... [--options JSON] [--policy JSON]\n"
"              [--seats N]           '-' for an open seat; --seats N opens\n"
"                                    the seats after the players named;\n"
"                                    @bot[:LEVEL][=NAME] a seat the server\n"
"                                    plays (levels random, normal and\n"
"                                    the game's own, as admiral)\n"
"              [--cards FILE]        a card game played with FILE's cards\n"
"  cards check RULESET FILE          check a card file for a card game\n"
"  game join GAME PLAYER [--seat N]  take an open seat (the last starts it)\n"
"  game leave GAME PLAYER            give up a seat of a forming game\n"
"  game list\n"
"  game policy GAME [NAME=VALUE ...]  show or change the deadline policy\n"
"  tick [--at UNIXTIME]              run the deadline scheduler once\n"
"  prune [--days N]                  remove outbox rows delivered more than\n"
"                                    N days ago (default 7), and the\n"
"                                    snapshots of finished games but their\n"
"                                    first and last\n"
"  replace GAME SEAT PLAYER          give a seat to another player\n"
"  resign GAME SEAT                  resign a seat for its player\n"
"  vacation GAME SEAT FIRST LAST     a vacation, days as YYYY-MM-DD (UTC)\n"
"  vacation GAME SEAT cancel         cancel the seat's vacation now or ahead\n"
"  press GAME [--seat N]             the messages between players\n"
"  observe GAME EMAIL [--lang en|fr] [--remove]   observers by mail\n"
"  seats GAME                        each seat's player and status\n"
"  view GAME [--seat N | --public | --full] [--lang en|fr] [--text]\n"
"  moves GAME [--lang en|fr]         who must act, and their legal moves\n"
"  turn GAME                         PLAYER=.. SEAT=.. SEQ=.. of who is to play\n"
"  submit [FILE] [--lang en|fr]      play the signed move in FILE or stdin\n"
"  replay GAME [--seat N | --public | --full] [--lang en|fr] [--text]\n"
"    --text renders the view with the templates (--templates DIR)\n"
"  audit [GAME]                      check every signature, hash and state\n"
"  export GAME [-o FILE]             write a bundle `pbem verify` checks\n"
"  score RULESET CARD,CARD,... [--explain] [--lang en|fr]\n"
"  webhook add [--game ID] [--events EVENT,...] [--internal]\n"
"              [--format pbem|slack|discord|mattermost] [--lang en|fr] URL\n"
"                 prints the secret once; --internal: the host may be an\n"
"                 internal address (pbemd delivers only if webhook_allow_hosts\n"
"                 names it)\n"
"  webhook list [--game ID]\n"
"  webhook remove|enable|disable ID   enable re-arms a failing one\n"
"  outbox [N]                        the first N (100) rows not yet sent,\n"
"                                    with why each waits (deferred, failed)\n"
"  queue [--all]                     the waiting outbox rows, like mailq\n"
"  queue retry ID...|all             try rows again now (postsuper -r)\n"
"  queue drop ID...                  remove rows unsent (postsuper -d)\n"
"  backup FILE                       a consistent copy while pbemd runs,\n"
"                                    with FILE.key (and FILE.kek, and each\n"
"                                    secret file -c's configuration names)\n"
"  restore FILE [--pid-file PATH]    replace the database with a backup\n"
"                                    (pbemd stopped), then audit every game\n"
"  pbemctl --help | --version\n"
"Exit status: 0 done, 1 failed, 64 usage error, 65 a card file refused,\n"
"66 a file that cannot be read (pbemctl(8)).\n");
}

/* A usage error: the usage on stderr, exit EX_USAGE. */
void
usage(void)
{
	print_usage(stderr);
	exit(EX_USAGE);
}

char *
ctl_kek_path(const struct ctl *c)
{
	if (c->cfg != NULL && *config_str(c->cfg, "hosted_key_file") != '\0')
		return strdup(config_str(c->cfg, "hosted_key_file"));
	return hosted_kek_path_for(c->dbpath);
}

void
ctl_open(struct ctl *c, int create)
{
	char err[512], *keypath;

	if (store_open(c->dbpath, &c->st, err, sizeof(err)) != STORE_OK)
		cli_fatal("%s", err);
	keypath = serverkey_path_for(c->dbpath);
	c->key = serverkey_open(keypath, create, err, sizeof(err));
	free(keypath);
	if (c->key == NULL)
		cli_fatal("%s%s", err, create ? "" :
		    " (run `pbemctl init` first)");
}

void
ctl_close(struct ctl *c)
{
	serverkey_close(c->key);
	store_close(c->st);
}

/* Arguments naming a game, a seat or a player: exit with a message
 * when they do not. */
static int64_t
game_arg(const char *arg)
{
	return cli_number(arg, 1, INT64_MAX, "game");
}

static int
seat_arg(const char *arg)
{
	return (int)cli_number(arg, 0, STORE_MAX_SEATS - 1, "seat");
}

/* The id of the player called name; the store must be open. */
static int64_t
player_arg(struct ctl *c, const char *name)
{
	struct store_player p;

	if (store_player_find(c->st, name, &p) != STORE_OK)
		cli_fatal("no player named %s (see `pbemctl player list`)",
		    name);
	return p.id;
}

static int
cmd_init(struct ctl *c, int argc, char **argv)
{
	char text[128], err[512];

	ctl_open(c, 1);
	if (engine_bind_server_key(c->st, c->key, text, sizeof(text), err,
	    sizeof(err)) != 0)
		cli_fatal("%s: %s", c->dbpath, err);
	printf("database %s ready (schema %d)\nserver key %s\n", c->dbpath,
	    store_schema_version(c->st), text);
	ctl_close(c);
	return 0;
}

static int
cmd_rulesets(struct ctl *c, int argc, char **argv)
{
	const struct rules_module *const *m;

	for (m = rules_all(); *m != NULL; m++)
		printf("%-12s %d-%d players  %s\n", (*m)->name,
		    (*m)->min_seats, (*m)->max_seats, (*m)->title_en);
	return 0;
}

/* --key KEY or --key-file FILE into pk. */
static void
read_key_option(const char *key, const char *file, unsigned char pk[32])
{
	char err[256], *text = NULL;
	size_t len;

	if ((key == NULL) == (file == NULL))
		cli_fatal("give the player's public key with --key KEY or "
		    "--key-file FILE (from `pbem keygen`)");
	if (file != NULL) {
		if ((text = cli_read_file(file, 4096, &len, err,
		    sizeof(err))) == NULL)
			cli_fatal("%s", err);
		text[strcspn(text, "\r\n")] = '\0';
		key = text;
	}
	if (proto_pubkey_parse(key, pk, err, sizeof(err)) != PROTO_OK)
		cli_fatal("%s", err);
	free(text);
}

/* A player whose key the server holds (docs/PLAYING.md); the address an
 * administrator gives is taken as confirmed. */
static int
player_add_hosted(struct ctl *c, struct store_player *p, const char *kekfile)
{
	struct hosted_kek *kek;
	char err[512], *path;
	enum engine_status es;

	ctl_open(c, 0);
	path = kekfile != NULL ? strdup(kekfile) : ctl_kek_path(c);
	if (path == NULL || (kek = hosted_kek_open(path, 1, err,
	    sizeof(err))) == NULL)
		cli_fatal("%s", path == NULL ? "out of memory" : err);
	free(path);
	if (store_begin(c->st) != STORE_OK)
		cli_fatal("store: %s", store_errmsg(c->st));
	es = engine_hosted_player_add(c->st, kek, p, err, sizeof(err));
	hosted_kek_close(kek);
	if (es != ENGINE_OK || store_commit(c->st) != STORE_OK) {
		store_rollback(c->st);
		cli_fatal("%s", es == ENGINE_BAD_REQUEST ? "a player of that "
		    "name already exists" : es != ENGINE_OK ? err :
		    store_errmsg(c->st));
	}
	printf("player %lld %s (hosted key)\n", (long long)p->id, p->name);
	ctl_close(c);
	return 0;
}

static int
player_add(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "key-file", required_argument, NULL, 'K' },
		{ "email", required_argument, NULL, 'e' },
		{ "lang", required_argument, NULL, 'l' },
		{ "hosted", no_argument, NULL, 'H' },
		{ "kek-file", required_argument, NULL, 'E' },
		{ NULL, 0, NULL, 0 }
	};
	const char *key = NULL, *keyfile = NULL, *email = "", *lang = "en",
	    *kekfile = NULL;
	struct store_player p;
	enum store_status rc;
	char why[512], why_fr[512];
	int ch, hosted = 0;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'k': key = optarg; break;
		case 'K': keyfile = optarg; break;
		case 'e': email = optarg; break;
		case 'l': lang = optarg; break;
		case 'H': hosted = 1; break;
		case 'E': kekfile = optarg; break;
		default: usage();
		}
	}
	if (optind + 1 != argc)
		usage();
	if (hosted && (key != NULL || keyfile != NULL))
		cli_fatal("--hosted makes a key the server holds: give no "
		    "--key or --key-file");
	if (hosted && *email == '\0')
		cli_fatal("a hosted player plays by mail: give --email ADDR");
	if (strcmp(lang, "en") != 0 && strcmp(lang, "fr") != 0)
		cli_fatal("--lang must be en or fr, not %s", lang);
	if (!reqsig_valid_player(argv[optind]))
		cli_fatal("a player name is 1-63 letters, digits, '.', '-' or "
		    "'_': \"%s\" is not", argv[optind]);
	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "%s", argv[optind]);
	snprintf(p.email, sizeof(p.email), "%s", email);
	snprintf(p.lang, sizeof(p.lang), "%s", lang);
	if (hosted)
		return player_add_hosted(c, &p, kekfile);
	read_key_option(key, keyfile, p.pubkey);
	ctl_open(c, 0);
	rc = store_player_add(c->st, &p);
	if (rc == STORE_EXISTS) {
		/* For the administrator and the player both: in English,
		 * then in French. */
		engine_player_exists_reason(c->st, &p, RULES_LANG_EN, why,
		    sizeof(why));
		engine_player_exists_reason(c->st, &p, RULES_LANG_FR, why_fr,
		    sizeof(why_fr));
		cli_fatal("%s\n%s", why, why_fr);
	}
	if (rc != STORE_OK)
		cli_fatal("store: %s", store_errmsg(c->st));
	printf("player %lld %s\n", (long long)p.id, p.name);
	ctl_close(c);
	return 0;
}

/* The running games' seats of one player, gathered before any is
 * written to (a _foreach callback may not write to the store). */
struct rekey {
	struct ctl		*c;
	const struct store_player *player;
	unsigned char		 old_pubkey[32];
	int64_t			*game;
	int			*seat;
	size_t			 n;
};

static int
collect_seats(const struct store_game *g, void *arg)
{
	struct rekey *rk = arg;
	int s;

	if (g->status != STORE_GAME_RUNNING)
		return 0;
	for (s = 0; s < g->nseats; s++) {
		if (g->seat_player[s] != rk->player->id)
			continue;
		rk->game = realloc(rk->game, (rk->n + 1) * sizeof(*rk->game));
		rk->seat = realloc(rk->seat, (rk->n + 1) * sizeof(*rk->seat));
		if (rk->game == NULL || rk->seat == NULL)
			cli_fatal("out of memory");
		rk->game[rk->n] = g->id;
		rk->seat[rk->n++] = s;
	}
	return 0;
}

static int
player_key(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "key-file", required_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 }
	};
	const char *key = NULL, *keyfile = NULL;
	struct store_player p;
	struct rekey rk;
	enum engine_status es;
	unsigned char pk[32];
	char err[1024];
	size_t i;
	int ch, hosted;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'k': key = optarg; break;
		case 'K': keyfile = optarg; break;
		default: usage();
		}
	}
	if (optind + 1 != argc)
		usage();
	read_key_option(key, keyfile, pk);
	ctl_open(c, 0);
	if (store_player_find(c->st, argv[optind], &p) != STORE_OK)
		cli_fatal("no player named %s", argv[optind]);
	memset(&rk, 0, sizeof(rk));
	rk.c = c;
	rk.player = &p;
	memcpy(rk.old_pubkey, p.pubkey, sizeof(rk.old_pubkey));
	hosted = engine_player_hosted(c->st, &p);
	if (store_player_set_key(c->st, p.id, pk) != STORE_OK)
		cli_fatal("store: %s", store_errmsg(c->st));
	printf("player %s has a new key\n", p.name);
	/* From now on the server can no longer move for them. */
	if (store_hosted_key_delete(c->st, p.id) != STORE_OK)
		cli_fatal("store: %s", store_errmsg(c->st));
	if (hosted)
		printf("player %s: the key the server held is destroyed\n",
		    p.name);
	/* Each running game the player sits in records the new key, so its
	 * audit checks the player's later moves with it. */
	if (store_game_foreach(c->st, collect_seats, &rk) != STORE_OK)
		cli_fatal("store: %s", store_errmsg(c->st));
	for (i = 0; i < rk.n; i++) {
		es = engine_rekey(c->st, c->key, rk.game[i], rk.seat[i],
		    rk.old_pubkey, clock_now(), err, sizeof(err));
		if (es == ENGINE_OK)
			printf("game %lld, seat %d: the new key is in the log\n",
			    (long long)rk.game[i], rk.seat[i]);
		else if (es != ENGINE_GAME_OVER && es != ENGINE_FORMING)
			cli_fatal("game %lld: %s", (long long)rk.game[i], err);
	}
	free(rk.game);
	free(rk.seat);
	ctl_close(c);
	return 0;
}

static int
print_player(const struct store_player *p, void *arg)
{
	char key[128];

	proto_pubkey_format(p->pubkey, key, sizeof(key));
	printf("%lld\t%s\t%s\t%s\t%s\n", (long long)p->id, p->name, p->lang,
	    p->email, key);
	return 0;
}

/* pbemctl player tz NAME ZONE */
static int
player_tz(struct ctl *c, const char *name, const char *zone)
{
	struct store_player p;
	char err[512];

	ctl_open(c, 0);
	if (store_player_find(c->st, name, &p) != STORE_OK)
		cli_fatal("there is no player %s", name);
	if (engine_player_set_tz(c->st, p.id, zone, RULES_LANG_EN, err,
	    sizeof(err)) != ENGINE_OK)
		cli_fatal("%s", err);
	printf("%s now reads times in %s\n", p.name, zone);
	ctl_close(c);
	return 0;
}

/* pbemctl player lang NAME en|fr */
static int
player_lang(struct ctl *c, const char *name, const char *code)
{
	struct store_player p;
	char err[512];

	ctl_open(c, 0);
	if (store_player_find(c->st, name, &p) != STORE_OK)
		cli_fatal("there is no player %s", name);
	if (engine_player_set_lang(c->st, p.id, code, RULES_LANG_EN, err,
	    sizeof(err)) != ENGINE_OK)
		cli_fatal("%s", err);
	printf("%s now reads in %s\n", p.name, strcmp(code, "fr") == 0 ?
	    "French" : "English");
	ctl_close(c);
	return 0;
}

static int
cmd_player(struct ctl *c, int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (strcmp(argv[1], "add") == 0)
		return player_add(c, argc - 1, argv + 1);
	if (strcmp(argv[1], "key") == 0)
		return player_key(c, argc - 1, argv + 1);
	if (strcmp(argv[1], "tz") == 0 && argc == 4)
		return player_tz(c, argv[2], argv[3]);
	if (strcmp(argv[1], "lang") == 0 && argc == 4)
		return player_lang(c, argv[2], argv[3]);
	if (strcmp(argv[1], "list") == 0 && argc == 2) {
		ctl_open(c, 0);
		if (store_player_foreach(c->st, print_player, NULL) != STORE_OK)
			cli_fatal("store: %s", store_errmsg(c->st));
		ctl_close(c);
		return 0;
	}
	usage();
	return EX_USAGE;
}

static int
game_create(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "options", required_argument, NULL, 'o' },
		{ "seats", required_argument, NULL, 's' },
		{ "policy", required_argument, NULL, 'P' },
		{ "cards", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	int64_t players[STORE_MAX_SEATS], game_id;
	const char *bots[STORE_MAX_SEATS] = { NULL };
	const char *options = NULL, *policy_json = NULL, *cards_path = NULL;
	struct cardfile cards;
	struct policy pol;
	char err[1024], *names, *name, *save = NULL, hex[65];
	struct store_game g;
	int ch, nseats = 0, want_seats = 0, started = 0, open = 0;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'o': options = optarg; break;
		case 'P': policy_json = optarg; break;
		case 'c': cards_path = optarg; break;
		case 's': want_seats = (int)cli_number(optarg, 1,
		    STORE_MAX_SEATS, "--seats"); break;
		default: usage();
		}
	}
	if (optind + 2 != argc)
		usage();
	/* The policy is checked before the game is created. */
	policy_default(&pol);
	if (policy_json != NULL && policy_parse(policy_json,
	    rules_find(argv[optind]), &pol, err, sizeof(err)) != 0)
		cli_fatal("%s", err);
	/* A card file is judged before anything is opened or stored. */
	memset(&cards, 0, sizeof(cards));
	if (cards_path != NULL)
		ctl_cards_read(argv[optind], cards_path, &cards);
	ctl_open(c, 0);
	names = strdup(argv[optind + 1]);
	for (name = strtok_r(names, ",", &save); name != NULL;
	    name = strtok_r(NULL, ",", &save)) {
		if (nseats == STORE_MAX_SEATS)
			cli_fatal("at most %d seats", STORE_MAX_SEATS);
		if (strcmp(name, "-") == 0) {
			players[nseats++] = 0;
			continue;
		}
		/* @bot...: a seat the server plays (docs/SERVER-BOTS.md). */
		if (engine_is_bot_spec(name)) {
			bots[nseats] = name;
			players[nseats++] = 0;
			continue;
		}
		players[nseats++] = player_arg(c, name);
	}
	if (want_seats > 0 && want_seats < nseats)
		cli_fatal("--seats %d, but %d seats are named", want_seats,
		    nseats);
	while (nseats < want_seats)
		players[nseats++] = 0;
	if (engine_form_game_with(c->st, c->key, argv[optind], options,
	    cards_path != NULL ? &cards : NULL, players, bots, nseats,
	    &game_id, &started, err, sizeof(err)) != ENGINE_OK)
		cli_fatal("%s", err);
	cardfile_clear(&cards);
	free(names);		/* bots[] pointed into it */
	if (policy_json != NULL && engine_policy_set(c->st, game_id, &pol,
	    err, sizeof(err)) != ENGINE_OK)
		cli_fatal("game %lld created, but its policy was not set: %s",
		    (long long)game_id, err);
	if (store_game_get(c->st, game_id, &g) != STORE_OK)
		cli_fatal("store: %s", store_errmsg(c->st));
	proto_hex(g.commitment, STORE_HASH_BYTES, hex);
	for (ch = 0; ch < g.nseats; ch++)
		open += g.seat_player[ch] == 0;
	printf("game %lld created: %s, %d seats, seed commitment %s\n",
	    (long long)game_id, g.ruleset, g.nseats, hex);
	if (g.cards_hash[0] != '\0')
		printf("game %lld plays with the card file of sha256 %s\n",
		    (long long)game_id, g.cards_hash);
	if (!started)
		printf("game %lld is forming: %d open seat%s; it starts when "
		    "the last is taken (pbemctl game join)\n",
		    (long long)game_id, open, open == 1 ? "" : "s");
	store_game_clear(&g);
	ctl_close(c);
	return 0;
}

static int
print_game(const struct store_game *g, void *arg)
{
	int s, open = 0;

	for (s = 0; s < g->nseats; s++)
		open += g->seat_player[s] == 0;
	printf("%lld\t%s\t%d seats\t%s", (long long)g->id, g->ruleset,
	    g->nseats, g->status == STORE_GAME_OVER ? "over" :
	    g->status == STORE_GAME_FORMING ? "forming" : "running");
	if (open > 0)
		printf("\t%d open", open);
	printf("\n");
	return 0;
}

/* game join GAME PLAYER [--seat N] / game leave GAME PLAYER */
static int
game_seat(struct ctl *c, int argc, char **argv, int join)
{
	static const struct option opts[] = {
		{ "seat", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct store_player p;
	enum engine_status es;
	int64_t game_id;
	char err[1024];
	int ch, seat = -1, taken = -1, started = 0;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch != 's' || !join)
			usage();
		seat = (int)cli_number(optarg, 0, STORE_MAX_SEATS - 1,
		    "--seat");
	}
	if (optind + 2 != argc)
		usage();
	game_id = game_arg(argv[optind]);
	ctl_open(c, 0);
	if (store_player_find(c->st, argv[optind + 1], &p) != STORE_OK)
		cli_fatal("no player named %s (see `pbemctl player list`)",
		    argv[optind + 1]);
	es = join ? engine_join_game(c->st, c->key, game_id, seat, p.id,
	    &taken, &started, err, sizeof(err)) : engine_leave_game(c->st,
	    game_id, p.id, &taken, err, sizeof(err));
	if (es != ENGINE_OK)
		cli_fatal("%s (%s)", err, engine_status_code(es));
	printf("%s %s seat %d of game %lld%s\n", p.name, join ? "takes" :
	    "leaves", taken, (long long)game_id, started ? "; the game "
	    "starts" : "");
	ctl_close(c);
	return 0;
}

/* ---- Asynchronous play (docs/ASYNC.md) ---------------------------------- */

/* pbemctl game policy GAME [NAME=VALUE ...]: show the policy, or change
 * it and, in a running game, tell every seat and the master (the same
 * clock_changed mails as `gm policy'). */
static int
game_policy(struct ctl *c, int argc, char **argv)
{
	struct store_game g;
	struct policy pol;
	char err[1024], *text;
	int64_t game_id;

	if (argc < 2)
		usage();
	game_id = game_arg(argv[1]);
	ctl_open(c, 0);
	memset(&g, 0, sizeof(g));
	if (store_game_get(c->st, game_id, &g) != STORE_OK)
		cli_fatal("there is no game %lld", (long long)game_id);
	store_game_clear(&g);
	if (argc > 2 && engine_policy_change(c->st, game_id,
	    (const char *const *)argv + 2, argc - 2, err, sizeof(err)) !=
	    ENGINE_OK)
		cli_fatal("%s", err);
	if (engine_policy_get(c->st, game_id, &pol, err, sizeof(err)) !=
	    ENGINE_OK)
		cli_fatal("%s", err);
	text = policy_text(&pol);
	printf("%s\n", text);
	free(text);
	ctl_close(c);
	return 0;
}

/* The outbox rows delivered before the retention, as pbemd's scheduler
 * removes them after each pass (outbox_keep_days). */
static int
cmd_prune(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "days", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 }
	};
	int64_t days = 7, removed;
	int ch;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch != 'd')
			usage();
		days = cli_number(optarg, 0, 3650, "--days");
	}
	if (optind != argc)
		usage();
	ctl_open(c, 0);
	removed = engine_outbox_prune(c->st, clock_now() - days * 86400);
	if (removed < 0) {
		fprintf(stderr, "pbemctl: prune: %s\n", store_errmsg(c->st));
		ctl_close(c);
		return 1;
	}
	printf("%lld delivered outbox rows removed (older than %lld days)\n",
	    (long long)removed, (long long)days);
	if (store_snapshot_prune_ended(c->st, &removed) != STORE_OK) {
		fprintf(stderr, "pbemctl: prune: %s\n", store_errmsg(c->st));
		ctl_close(c);
		return 1;
	}
	printf("%lld snapshots of finished games removed (each keeps its "
	    "first and last)\n", (long long)removed);
	ctl_close(c);
	return 0;
}

static int
cmd_tick(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "at", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 }
	};
	struct schedule_stats s;
	int64_t now = clock_now();
	char err[1024];
	int ch, rc, at = 0;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch != 'a')
			usage();
		now = cli_number(optarg, 0, INT64_MAX / 2, "--at");
		at = 1;
	}
	if (optind != argc)
		usage();
	ctl_open(c, 0);
	if (at && schedule_check_time(c->st, now, clock_now(), err,
	    sizeof(err)) != 0)
		cli_fatal("tick --at refused: %s", err);
	rc = schedule_tick(c->st, c->key, now, &s, err, sizeof(err));
	printf("%d games: %d reminders, %d deadline notices, %d late "
	    "notices, %d automatic moves, %d skipped turns, %d seats absent"
	    ", %d bot moves%s\n", s.games, s.reminders, s.deadlines, s.late,
	    s.auto_moves, s.skips, s.absent, s.bot_moves, s.stalled ?
	    ", some seats without a default move" : "");
	if (rc != 0)
		fprintf(stderr, "pbemctl: %d games failed: %s\n", s.failures,
		    err);
	ctl_close(c);
	return rc != 0;
}

static int
seat_command_result(enum engine_status es, const char *err, const char *ok)
{
	if (es != ENGINE_OK) {
		fprintf(stderr, "pbemctl: refused (%s): %s\n",
		    engine_status_code(es), err);
		return 1;
	}
	printf("%s\n", ok);
	return 0;
}

static int
cmd_replace(struct ctl *c, int argc, char **argv)
{
	char err[1024];
	int64_t game_id;
	int seat, rc;

	if (argc != 4)
		usage();
	game_id = game_arg(argv[1]);
	seat = seat_arg(argv[2]);
	ctl_open(c, 0);
	rc = seat_command_result(engine_replace(c->st, c->key, game_id, seat,
	    player_arg(c, argv[3]), clock_now(), err, sizeof(err)), err,
	    "seat replaced; the previous key no longer works for it");
	ctl_close(c);
	return rc;
}

static int
cmd_resign(struct ctl *c, int argc, char **argv)
{
	char err[1024];
	int64_t game_id;
	int seat, rc;

	if (argc != 3)
		usage();
	game_id = game_arg(argv[1]);
	seat = seat_arg(argv[2]);
	ctl_open(c, 0);
	rc = seat_command_result(engine_resign(c->st, c->key, game_id, seat,
	    0, NULL, clock_now(), RULES_LANG_EN, err, sizeof(err)), err,
	    "seat resigned");
	ctl_close(c);
	return rc;
}

static int64_t
date_arg(const char *text)
{
	int64_t t = clock_parse_date(text);

	if (t < 0)
		cli_fatal("\"%s\" is not a date YYYY-MM-DD", text);
	return t;
}

static int
cmd_vacation(struct ctl *c, int argc, char **argv)
{
	char err[1024];
	int64_t game_id, from, until;
	int seat, rc;

	if (argc == 4 && strcmp(argv[3], "cancel") == 0) {
		game_id = game_arg(argv[1]);
		seat = seat_arg(argv[2]);
		ctl_open(c, 0);
		rc = seat_command_result(engine_vacation_cancel(c->st, game_id,
		    seat, 0, clock_now(), RULES_LANG_EN, err, sizeof(err)), err,
		    "vacation cancelled; every seat is told");
		ctl_close(c);
		return rc;
	}
	if (argc != 5)
		usage();
	game_id = game_arg(argv[1]);
	seat = seat_arg(argv[2]);
	from = date_arg(argv[3]);
	until = date_arg(argv[4]) + 86400;	/* the last day included */
	ctl_open(c, 0);
	rc = seat_command_result(engine_vacation(c->st, game_id, seat, 0,
	    from, until, clock_now(), RULES_LANG_EN, err, sizeof(err)), err,
	    "vacation recorded; every seat is told");
	ctl_close(c);
	return rc;
}

static int
print_press(const struct store_press *p, void *arg)
{
	int *seat = arg, s;
	char sent[32];

	if (*seat >= 0 && p->from_seat != *seat &&
	    !(p->recipients & (1u << *seat)))
		return 0;
	clock_format_iso(p->created, sent, sizeof(sent));
	printf("%lld\t%s\tfrom %d to", (long long)p->id, sent, p->from_seat);
	for (s = 0; s < STORE_MAX_SEATS; s++)
		if (p->recipients & (1u << s))
			printf(" %d", s);
	printf("\t%s\n", p->body);
	return 0;
}

static int
cmd_press(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seat", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	int64_t game_id;
	int ch, seat = -1;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch != 's')
			usage();
		seat = seat_arg(optarg);
	}
	if (optind + 1 != argc)
		usage();
	game_id = game_arg(argv[optind]);
	ctl_open(c, 0);
	if (store_press_foreach(c->st, game_id, print_press, &seat) !=
	    STORE_OK)
		cli_fatal("store: %s", store_errmsg(c->st));
	ctl_close(c);
	return 0;
}

static int
cmd_observe(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "lang", required_argument, NULL, 'l' },
		{ "remove", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	const char *lang = "en";
	char err[1024];
	int64_t game_id;
	int ch, remove = 0, rc;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch == 'l')
			lang = optarg;
		else if (ch == 'r')
			remove = 1;
		else
			usage();
	}
	if (optind + 2 != argc)
		usage();
	game_id = game_arg(argv[optind]);
	ctl_open(c, 0);
	if (remove)
		rc = seat_command_result(engine_unobserve(c->st, game_id,
		    argv[optind + 1], err, sizeof(err)), err,
		    "observer removed");
	else
		rc = seat_command_result(engine_observe(c->st, game_id,
		    argv[optind + 1], lang, clock_now(), err, sizeof(err)),
		    err, "observer added: the public view after every entry");
	ctl_close(c);
	return rc;
}

/* The deadline of seat in deadlines (engine_view_deadlines()), as
 * "deadline WORDS (ISO)[, late]", or "no deadline". */
static void
seat_deadline_text(const json_t *deadlines, int seat, char *buf, size_t len)
{
	const json_t *d;
	char words[160];
	int64_t t;
	size_t i;

	snprintf(buf, len, "no deadline");
	json_array_foreach(deadlines, i, d) {
		if (json_integer_value(json_object_get(d, "seat")) != seat ||
		    (t = clock_parse_iso(json_string_value(json_object_get(d,
		    "deadline")))) < 0)
			continue;
		timetext_words(t, "en", NULL, words, sizeof(words));
		snprintf(buf, len, "deadline %s (%s)%s", words,
		    json_string_value(json_object_get(d, "deadline")),
		    json_is_true(json_object_get(d, "late")) ? ", late" : "");
	}
}

static int
cmd_seats(struct ctl *c, int argc, char **argv)
{
	static const char *const status[] = { "playing", "absent",
	    "resigned" };
	struct gamestate gs;
	struct store_seat row;
	struct store_player p;
	json_t *view;
	char err[1024], deadline[256], from[32], until[32], away[80];
	int64_t game_id;
	int s;

	if (argc != 2)
		usage();
	game_id = game_arg(argv[1]);
	ctl_open(c, 0);
	if (gamestate_load(c->st, game_id, -1, &gs, err, sizeof(err)) !=
	    ENGINE_OK)
		cli_fatal("%s", err);
	view = json_object();
	engine_view_deadlines(c->st, &gs, clock_now(), view);
	for (s = 0; s < gs.game.nseats; s++) {
		if (store_seat_get(c->st, game_id, s, &row) != STORE_OK ||
		    store_player_get(c->st, gs.game.seat_player[s], &p) !=
		    STORE_OK)
			cli_fatal("store: %s", store_errmsg(c->st));
		seat_deadline_text(json_object_get(view, "deadlines"), s,
		    deadline, sizeof(deadline));
		clock_format_iso(row.away_from, from, sizeof(from));
		clock_format_iso(row.away_until, until, sizeof(until));
		if (row.away_until > row.away_from)
			snprintf(away, sizeof(away), "vacation %s to %s", from,
			    until);
		else
			snprintf(away, sizeof(away), "no vacation");
		printf("%d\t%s\t%s\t%s\t%s\tused %lld h\tnext command > "
		    "%lld%s\n", s, p.name, status[row.status], deadline, away,
		    (long long)(row.away_used / 3600),
		    (long long)row.command_seq, row.call_off ?
		    "\tvotes to call off" : "");
	}
	json_decref(view);
	gamestate_clear(&gs);
	ctl_close(c);
	return 0;
}

/* pbemctl gm GAME (master PLAYER|nobody | extend DURATION | force |
 * pause | resume | policy NAME=VALUE): the game master's powers, used by
 * the administrator. */
static int
cmd_gm(struct ctl *c, int argc, char **argv)
{
	struct store_player p;
	enum engine_status es;
	char err[1024];
	int64_t game_id, seconds;
	const char *what;

	if (argc < 3)
		usage();
	game_id = game_arg(argv[1]);
	what = argv[2];
	ctl_open(c, 0);
	if (strcmp(what, "master") == 0 && argc == 4) {
		p.id = 0;
		if (strcmp(argv[3], "nobody") != 0 &&
		    store_player_find(c->st, argv[3], &p) != STORE_OK)
			cli_fatal("there is no player %s", argv[3]);
		es = engine_master_name(c->st, game_id, p.id, err,
		    sizeof(err));
	} else if (strcmp(what, "extend") == 0 && argc == 4) {
		if (policy_read_duration(argv[3], &seconds) != 0)
			cli_fatal("\"%s\" is not a duration (90m, 12h, 3d)",
			    argv[3]);
		es = engine_master_extend(c->st, game_id, NULL, seconds,
		    RULES_LANG_EN, err, sizeof(err));
	} else if (strcmp(what, "force") == 0 && argc == 3)
		es = engine_master_force(c->st, c->key, game_id, NULL,
		    clock_now(), RULES_LANG_EN, err, sizeof(err));
	else if ((strcmp(what, "pause") == 0 || strcmp(what, "resume") ==
	    0) && argc == 3)
		es = engine_master_pause(c->st, game_id, NULL,
		    strcmp(what, "pause") == 0, clock_now(), RULES_LANG_EN, err,
		    sizeof(err));
	else if (strcmp(what, "policy") == 0 && argc == 4)
		es = engine_master_policy(c->st, game_id, NULL, argv[3],
		    RULES_LANG_EN, err, sizeof(err));
	else {
		usage();
		return 2;
	}
	if (es != ENGINE_OK)
		cli_fatal("refused (%s): %s", engine_status_code(es), err);
	printf("game %lld: %s done\n", (long long)game_id, what);
	ctl_close(c);
	return 0;
}

static int
cmd_game(struct ctl *c, int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (strcmp(argv[1], "create") == 0)
		return game_create(c, argc - 1, argv + 1);
	if (strcmp(argv[1], "join") == 0)
		return game_seat(c, argc - 1, argv + 1, 1);
	if (strcmp(argv[1], "leave") == 0)
		return game_seat(c, argc - 1, argv + 1, 0);
	if (strcmp(argv[1], "policy") == 0)
		return game_policy(c, argc - 1, argv + 1);
	if (strcmp(argv[1], "list") == 0 && argc == 2) {
		ctl_open(c, 0);
		if (store_game_foreach(c->st, print_game, NULL) != STORE_OK)
			cli_fatal("store: %s", store_errmsg(c->st));
		ctl_close(c);
		return 0;
	}
	usage();
	return 2;
}

/* How view, replay and moves show a game. */
struct view_opts {
	int		 viewer;	/* seat, RULES_VIEW_PUBLIC or _FULL */
	enum rules_lang	 lang;
	int		 lang_given;	/* --lang: else a seat's player's */
	struct tpl_set	*templates;	/* --text: render, else JSON */
	const struct store_game *game;	/* replay: the game's row */
	/* The players' names by seat, for --text (NULL: open seat). */
	const char	*names[STORE_MAX_SEATS];
	int		 nseats;
};

/* Where templates are: --templates, $PBEM_TEMPLATES, the installed
 * folder, or ./templates when running from the source tree. */
static struct tpl_set *
load_templates(const char *dir)
{
	struct tpl_set *set;
	char err[1024];

	if ((set = templates_load(templates_dir(dir), err,
	    sizeof(err))) == NULL)
		cli_fatal("%s", err);
	return set;
}

/* Parse --seat N / --public / --full / --lang / --text [--templates DIR]
 * for view, replay and moves. */
static void
viewer_options(int argc, char **argv, struct view_opts *vo)
{
	static const struct option opts[] = {
		{ "seat", required_argument, NULL, 's' },
		{ "public", no_argument, NULL, 'p' },
		{ "full", no_argument, NULL, 'f' },
		{ "lang", required_argument, NULL, 'l' },
		{ "text", no_argument, NULL, 't' },
		{ "templates", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = NULL;
	int ch, text = 0;

	memset(vo, 0, sizeof(*vo));
	vo->viewer = RULES_VIEW_PUBLIC;
	vo->lang = RULES_LANG_EN;
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 's':
			vo->viewer = (int)cli_number(optarg, 0, 7, "--seat");
			break;
		case 'p': vo->viewer = RULES_VIEW_PUBLIC; break;
		case 'f': vo->viewer = RULES_VIEW_FULL; break;
		case 'l':
			vo->lang = cli_lang(optarg);
			vo->lang_given = 1;
			break;
		case 't': text = 1; break;
		case 'T': dir = optarg; text = 1; break;
		default: usage();
		}
	}
	if (text && vo->viewer == RULES_VIEW_FULL)
		cli_fatal("--text shows a seat or the public; --full is JSON "
		    "only");
	if (text)
		vo->templates = load_templates(dir);
}

/* Print what vo->viewer sees of a game: the view as JSON, or rendered
 * with the viewer's template (your_turn, waiting, spectator, game_over).
 * gs: the game as it stands now (whose seats may have resigned or the
 * game ended outside its rules), or NULL for a state being replayed. */
static void
show(const struct view_opts *vo, const struct rules_module *m,
    const void *state, const struct gamestate *gs, json_t *view)
{
	int seats[STORE_MAX_SEATS], nact, i;
	struct present_info info;
	struct mustache_buf out;
	const char *name;
	json_t *shown;
	char err[1024];
	int acting, over;

	if (vo->templates == NULL) {
		/* The players' names, as the HTTP API's views have them
		 * (docs/API.md, "Names"). */
		shown = json_array();
		for (i = 0; i < vo->nseats; i++)
			json_array_append_new(shown, vo->names[i] != NULL ?
			    json_string(vo->names[i]) : json_null());
		json_object_set_new(view, "seat_names", shown);
		json_object_set_new(view, "to_act_names", gamestate_names_of(
		    vo->names, vo->nseats, json_object_get(view, "to_act")));
		cli_print_json(view);
		return;
	}
	if (gs != NULL)
		acting = gamestate_seat_acts(gs, vo->viewer, &over);
	else {
		nact = m->to_act(state, seats, STORE_MAX_SEATS);
		for (i = 0, acting = 0; i < nact && i < STORE_MAX_SEATS; i++)
			acting |= seats[i] == vo->viewer;
		over = nact == 0;
	}
	name = over ? "game_over" : vo->viewer < 0 ? "spectator" :
	    acting ? "your_turn" : "waiting";
	memset(&info, 0, sizeof(info));
	info.lang = vo->lang;
	info.module = m;
	info.viewer = vo->viewer;
	info.seat_names = vo->names;
	info.nseats = vo->nseats;
	if (acting) {
		info.forms = m->move_forms(state, vo->viewer, vo->lang);
		info.legal = m->legal_moves(state, vo->viewer);
		info.state = state;
	}
	shown = present_view(view, &info);
	mustache_buf_init(&out);
	if (templates_render(vo->templates, present_lang_code(vo->lang),
	    m->name, name, TPL_TEXT, shown, &out, err, sizeof(err)) != 0)
		cli_fatal("%s", err);
	fputs(out.data != NULL ? out.data : "", stdout);
	mustache_buf_free(&out);
	json_decref(shown);
	json_decref((json_t *)info.forms);
	json_decref((json_t *)info.legal);
	json_decref(view);
}

/* A seat's view is written, unless --lang says otherwise, in the
 * language of the player at that seat, as their mail reads. */
static void
seat_lang(struct ctl *c, struct gamestate *gs, struct view_opts *vo)
{
	const struct store_player *p;

	if (vo->lang_given || vo->viewer < 0 ||
	    (p = gamestate_seat_player(c->st, gs, vo->viewer)) == NULL)
		return;
	vo->lang = strcmp(p->lang, "fr") == 0 ? RULES_LANG_FR :
	    RULES_LANG_EN;
}

static int
cmd_view(struct ctl *c, int argc, char **argv)
{
	struct view_opts vo;
	struct gamestate gs;
	json_t *view;
	int64_t game_id;
	char err[1024];

	viewer_options(argc, argv, &vo);
	if (optind + 1 != argc)
		usage();
	game_id = game_arg(argv[optind]);
	ctl_open(c, 0);
	if (gamestate_load(c->st, game_id, -1, &gs, err, sizeof(err)) !=
	    ENGINE_OK)
		cli_fatal("%s", err);
	if (vo.viewer >= gs.game.nseats)
		cli_fatal("game %lld has seats 0 to %d", (long long)game_id,
		    gs.game.nseats - 1);
	vo.nseats = gamestate_seat_names(c->st, &gs, vo.names);
	seat_lang(c, &gs, &vo);
	view = gamestate_view(&gs, vo.viewer);
	engine_view_deadlines(c->st, &gs, clock_now(), view);
	show(&vo, gs.module, gs.state, &gs, view);
	templates_free(vo.templates);
	gamestate_clear(&gs);
	ctl_close(c);
	return 0;
}

/* The name of the player at seat s, or "open seat". */
static const char *
seat_name(struct ctl *c, struct gamestate *gs, int s)
{
	const struct store_player *p;

	if (gs->game.seat_player[s] == 0 ||
	    (p = gamestate_seat_player(c->st, gs, s)) == NULL)
		return "open seat";
	return p->name;
}

/* Everything on standard output: a header line, one line per legal move
 * (seat, sequence number, move text, tab-separated), then each acting
 * seat's move forms.  Lines other than the moves start with "#", so
 * `grep -v '^#'` leaves the moves. */
static int
cmd_moves(struct ctl *c, int argc, char **argv)
{
	int seats[STORE_MAX_SEATS], nact, i;
	struct view_opts vo;
	struct gamestate gs;
	json_t *moves, *forms;
	char err[1024];
	size_t j;

	viewer_options(argc, argv, &vo);
	if (optind + 1 != argc)
		usage();
	ctl_open(c, 0);
	if (gamestate_load(c->st, game_arg(argv[optind]), -1, &gs, err,
	    sizeof(err)) != ENGINE_OK)
		cli_fatal("%s", err);
	nact = gs.ended != NULL ? 0 :
	    gs.module->to_act(gs.state, seats, STORE_MAX_SEATS);
	if (nact == 0)
		printf("# game %lld is over: no moves\n", (long long)gs.game.id);
	for (i = 0; i < nact && i < STORE_MAX_SEATS; i++)
		printf("# game %lld, move %lld: seat %d (%s) to play\n",
		    (long long)gs.game.id, (long long)gs.seq + 1, seats[i],
		    seat_name(c, &gs, seats[i]));
	if (nact > 0)
		printf("# seat\tseq\tmove\n");
	for (i = 0; i < nact && i < STORE_MAX_SEATS; i++) {
		moves = gs.module->legal_moves(gs.state, seats[i]);
		for (j = 0; j < json_array_size(moves); j++)
			printf("%d\t%lld\t%s\n", seats[i], (long long)gs.seq + 1,
			    json_string_value(json_array_get(moves, j)));
		json_decref(moves);
	}
	for (i = 0; i < nact && i < STORE_MAX_SEATS; i++) {
		forms = gs.module->move_forms(gs.state, seats[i], vo.lang);
		printf("# move forms for %s (seat %d):\n", seat_name(c, &gs,
		    seats[i]), seats[i]);
		for (j = 0; j < json_array_size(forms); j++)
			printf("#   %s\n", json_string_value(
			    json_array_get(forms, j)));
		json_decref(forms);
	}
	gamestate_clear(&gs);
	ctl_close(c);
	return 0;
}

/* Who is to play, as shell assignments: PLAYER=NAME SEAT=N SEQ=N (the
 * first seat to_act() lists), for `eval "$(pbemctl turn 1)"`.  Exit 1,
 * with a message, once the game is over. */
static int
cmd_turn(struct ctl *c, int argc, char **argv)
{
	struct gamestate gs;
	const char *name;
	char err[1024];
	int seat;

	if (argc != 2)
		usage();
	ctl_open(c, 0);
	if (gamestate_load(c->st, game_arg(argv[1]), -1, &gs, err,
	    sizeof(err)) != ENGINE_OK)
		cli_fatal("%s", err);
	if (gs.ended != NULL || gs.module->to_act(gs.state, &seat, 1) < 1)
		cli_fatal("game %lld is over: nobody is to play",
		    (long long)gs.game.id);
	/* Quoted for the shell whatever the name holds: safe to eval. */
	fputs("PLAYER='", stdout);
	for (name = seat_name(c, &gs, seat); *name != '\0'; name++)
		if (*name == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*name);
	printf("' SEAT=%d SEQ=%lld\n", seat, (long long)gs.seq + 1);
	gamestate_clear(&gs);
	ctl_close(c);
	return 0;
}

static int
cmd_submit(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "lang", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	enum rules_lang lang = RULES_LANG_EN;
	struct engine_reply reply;
	char err[512], *text, block[2048];
	size_t len;
	int ch;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch != 'l')
			usage();
		lang = cli_lang(optarg);
	}
	if (optind + 1 < argc)
		usage();
	text = cli_read_file(optind < argc ? argv[optind] : "-",
	    CLI_INPUT_MAX, &len, err, sizeof(err));
	if (text == NULL)
		cli_fatal("%s", err);
	ctl_open(c, 0);
	/* A signed command (resign, vacation, press, call off) or a move. */
	engine_handle(c->st, c->key, text, len, lang, clock_now(), &reply);
	free(text);
	if (reply.status != ENGINE_OK) {
		fprintf(stderr, "pbemctl: refused (%s): %s\n",
		    engine_status_code(reply.status), reply.message);
		engine_reply_clear(&reply);
		ctl_close(c);
		return 1;
	}
	if (reply.receipt.seq == 0) {		/* a command: no receipt */
		printf("%s\n", reply.message);
		engine_reply_clear(&reply);
		ctl_close(c);
		return 0;
	}
	proto_receipt_armour(&reply.receipt, block, sizeof(block));
	printf("%s\n%s", reply.message, block);
	if (reply.game_over)
		printf("game %lld is over\n", (long long)reply.game_id);
	engine_reply_clear(&reply);
	ctl_close(c);
	return 0;
}

static void
replay_step(const struct store_entry *e, const struct rules_module *m,
    const void *state, void *arg)
{
	const struct view_opts *vo = arg;
	const struct store_game *g = vo->game;
	json_t *view, *result;
	char hex[2 * STORE_HASH_BYTES + 1], who[STORE_NAME_MAX + 16];

	if (e->seat >= 0 && e->seat < vo->nseats && vo->names[e->seat] != NULL)
		snprintf(who, sizeof(who), "%s (seat %d)", vo->names[e->seat],
		    e->seat);
	else
		snprintf(who, sizeof(who), "seat %d", e->seat);
	if (e->kind == STORE_ENTRY_GENESIS)
		printf("== %lld: game created\n", (long long)e->seq);
	else if (audit_hosted_auth(e->kind) != NULL)
		printf("== %lld: %s: %s (hosted key, %s)\n",
		    (long long)e->seq, who, e->text,
		    audit_hosted_auth(e->kind));
	else
		printf("== %lld: %s: %s\n", (long long)e->seq, who, e->text);
	/* What gamestate_view() adds, as the game stood after e: the game
	 * number and the seed commitment, and the seed once it is over. */
	view = m->view(state, vo->viewer);
	json_object_set_new(view, "game_id", json_integer(g->id));
	json_object_set_new(view, "ruleset", json_string(g->ruleset));
	json_object_set_new(view, "next_seq", json_integer(e->seq + 1));
	proto_hex(g->commitment, STORE_HASH_BYTES, hex);
	json_object_set_new(view, "seed_commitment", json_string(hex));
	if (vo->viewer >= 0)
		json_object_set_new(view, "seat", json_integer(vo->viewer));
	if ((result = m->result(state)) != NULL) {
		json_object_set_new(view, "result", result);
		proto_hex(g->seed, STORE_SEED_BYTES, hex);
		json_object_set_new(view, "seed", json_string(hex));
	}
	show(vo, m, state, NULL, view);
}

/* Audit one game; prints a line; 0 if it checks out. */
static int
audit_one(struct ctl *c, int64_t game_id, audit_step_cb step, void *arg)
{
	struct audit_report report;
	struct audit_log log;
	struct store_game row;
	char err[512];
	int rc;

	if (audit_load_store(c->st, game_id, &log, &row, err,
	    sizeof(err)) != 0) {
		fprintf(stderr, "pbemctl: %s\n", err);
		return -1;
	}
	rc = audit_run(&log, &report, step, arg);
	if (rc == 0 && step == NULL)
		printf("game %lld: ok, %zu entries, every signature, hash and "
		    "state checks out\n", (long long)game_id, report.checked);
	if (rc == 0 && step == NULL && report.nhosted > 0)
		printf("game %lld: %zu moves signed with a hosted key: %s\n",
		    (long long)game_id, report.nhosted, report.hosted);
	if (rc == 0 && step == NULL && report.ndelegated > 0)
		printf("game %lld: %zu moves signed by a bot's key under the "
		    "player's delegation certificate: %s\n", (long long)game_id,
		    report.ndelegated, report.delegated);
	if (rc != 0)
		printf("game %lld: FAILED at entry %lld: %s\n",
		    (long long)game_id, (long long)report.bad_seq,
		    report.reason);
	audit_log_clear(&log);
	store_game_clear(&row);
	return rc;
}

static int
cmd_replay(struct ctl *c, int argc, char **argv)
{
	struct store_player players[STORE_MAX_SEATS];
	struct store_game row;
	struct view_opts vo;
	int64_t game_id;
	int s;

	viewer_options(argc, argv, &vo);
	if (optind + 1 != argc)
		usage();
	game_id = game_arg(argv[optind]);
	ctl_open(c, 0);
	if (store_game_get(c->st, game_id, &row) != STORE_OK)
		cli_fatal("there is no game %lld", (long long)game_id);
	vo.game = &row;
	/* The names of the players who hold the seats now. */
	memset(players, 0, sizeof(players));
	for (s = 0; s < row.nseats && s < STORE_MAX_SEATS; s++)
		vo.names[s] = row.seat_player[s] != 0 && store_player_get(c->st,
		    row.seat_player[s], &players[s]) == STORE_OK ?
		    players[s].name : NULL;
	vo.nseats = s;
	if (audit_one(c, game_id, replay_step, &vo) != 0) {
		store_game_clear(&row);
		return 1;
	}
	store_game_clear(&row);
	templates_free(vo.templates);
	ctl_close(c);
	return 0;
}

static int
collect_game(const struct store_game *g, void *arg)
{
	struct { int64_t *ids; size_t n, cap; } *list = arg;

	if (g->status == STORE_GAME_FORMING) {	/* no log yet */
		printf("game %lld: forming, nothing to audit yet\n",
		    (long long)g->id);
		return 0;
	}
	if (list->n == list->cap) {
		list->cap = list->cap ? list->cap * 2 : 16;
		list->ids = realloc(list->ids, list->cap * sizeof(int64_t));
		if (list->ids == NULL)
			cli_fatal("out of memory");
	}
	list->ids[list->n++] = g->id;
	return 0;
}

int
ctl_audit_all(struct ctl *c)
{
	struct { int64_t *ids; size_t n, cap; } list = { NULL, 0, 0 };
	size_t i;
	int failed = 0;

	if (store_game_foreach(c->st, collect_game, &list) != STORE_OK)
		cli_fatal("store: %s", store_errmsg(c->st));
	for (i = 0; i < list.n; i++)
		failed |= audit_one(c, list.ids[i], NULL, NULL) != 0;
	free(list.ids);
	return failed ? -1 : 0;
}

static int
cmd_audit(struct ctl *c, int argc, char **argv)
{
	int failed = 0;

	if (argc > 2)
		usage();
	ctl_open(c, 0);
	if (argc == 2)
		failed = audit_one(c, game_arg(argv[1]), NULL, NULL) != 0;
	else
		failed = ctl_audit_all(c) != 0;
	ctl_close(c);
	return failed ? 1 : 0;
}

/* Name, on stderr, the moves of a bundle signed with a hosted key. */
static void
report_hosted(const json_t *bundle)
{
	json_t *entries = json_object_get(bundle, "entries"), *e;
	size_t i, n = 0;

	json_array_foreach(entries, i, e) {
		if (json_object_get(e, "hosted") == NULL)
			continue;
		fprintf(stderr, "%sentry %lld, seat %lld (%s)", n++ == 0 ?
		    "pbemctl: moves signed with a hosted key: " : "; ",
		    (long long)json_integer_value(json_object_get(e, "seq")),
		    (long long)json_integer_value(json_object_get(e, "seat")),
		    json_string_value(json_object_get(e, "hosted")));
	}
	if (n > 0)
		fputc('\n', stderr);
}

static int
cmd_export(struct ctl *c, int argc, char **argv)
{
	const char *out = NULL;
	json_t *bundle;
	char err[512];
	int ch;

	while ((ch = getopt(argc, argv, "o:")) != -1) {
		if (ch != 'o')
			usage();
		out = optarg;
	}
	if (optind + 1 != argc)
		usage();
	ctl_open(c, 0);
	bundle = bundle_export(c->st, game_arg(argv[optind]), err,
	    sizeof(err));
	if (bundle == NULL)
		cli_fatal("%s", err);
	report_hosted(bundle);
	if (out == NULL)
		cli_print_json(bundle);
	else if (json_dump_file(bundle, out, JSON_INDENT(1) |
	    JSON_SORT_KEYS) != 0)
		cli_fatal("cannot write %s", out);
	else
		json_decref(bundle);
	ctl_close(c);
	return 0;
}

static int
cmd_score(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "explain", no_argument, NULL, 'x' },
		{ "lang", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	const struct rules_module *m;
	enum rules_lang lang = RULES_LANG_EN;
	json_t *score, *card;
	const char *choices;
	char err[RULES_ERRLEN];
	int ch, explain = 0;
	size_t i;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'x': explain = 1; break;
		case 'l': lang = cli_lang(optarg); break;
		default: usage();
		}
	}
	if (optind + 2 != argc)
		usage();
	if ((m = rules_find(argv[optind])) == NULL)
		cli_fatal("unknown ruleset %s", argv[optind]);
	if (m->score_cards == NULL)
		cli_fatal("%s has no hand scoring", m->name);
	if ((score = m->score_cards(argv[optind + 1], lang, err,
	    sizeof(err))) == NULL)
		cli_fatal("%s", err);
	if (explain) {
		json_array_foreach(json_object_get(score, "cards"), i, card)
			printf("%-4s %-36s %4lld%s\n",
			    json_string_value(json_object_get(card, "id")),
			    json_string_value(json_object_get(card, "name")),
			    (long long)json_integer_value(json_object_get(card,
			    "points")), json_is_true(json_object_get(card,
			    "blanked")) ? (lang == RULES_LANG_FR ? " (masquée)" :
			    " (blanked)") : "");
		choices = json_string_value(json_object_get(score, "choices"));
		if (choices != NULL && *choices != '\0')
			printf("%s: %s\n", lang == RULES_LANG_FR ? "choix" :
			    "choices", choices);
	}
	printf("%lld\n", (long long)json_integer_value(json_object_get(score,
	    "total")));
	json_decref(score);
	return 0;
}

/* ---- webhook (webhook.h, docs/WEBHOOKS.md) ---- */

static int
webhook_add(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "game", required_argument, NULL, 'g' },
		{ "events", required_argument, NULL, 'e' },
		{ "internal", no_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ "lang", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	struct webhook_rules rules = { .check_address = 1 };
	struct store_webhook w;
	const char *events = "", *format = NULL, *lang = NULL;
	int64_t game_id = 0;
	char err[512];
	int ch;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'g':
			game_id = game_arg(optarg);
			break;
		case 'e':
			events = optarg;
			break;
		case 'i':
			rules.check_address = 0;
			break;
		case 'f':
			format = optarg;
			break;
		case 'l':
			lang = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind + 1 != argc)
		usage();
	ctl_open(c, 0);
	if (webhook_register_as(c->st, &rules, game_id, 0, argv[optind],
	    events, format, lang, &w, err, sizeof(err)) != 0)
		cli_fatal("%s", err);
	fprintf(stderr, "webhook %lld added for %s, events %s, format %s; "
	    "the secret is shown this once: give it to the receiver\n",
	    (long long)w.id, game_id != 0 ? "one game" : "every game",
	    w.events[0] != '\0' ? w.events : "*", w.format);
	printf("id %lld\nsecret %s\n", (long long)w.id, w.secret);
	sodium_memzero(w.secret, sizeof(w.secret));
	ctl_close(c);
	return 0;
}

static int
print_webhook(const struct store_webhook *w, void *arg)
{
	const int64_t *game_id = arg;

	if (*game_id != 0 && w->game_id != *game_id)
		return 0;
	if (w->game_id != 0)
		printf("%lld\tgame %lld", (long long)w->id,
		    (long long)w->game_id);
	else
		printf("%lld\tevery game", (long long)w->id);
	printf("\t%s\t%d failures\t%lld pending\t%s\t%s",
	    webhook_state_name(w->state), w->failures, (long long)w->pending,
	    w->events[0] != '\0' ? w->events : "*", w->url);
	if (w->player_id != 0)
		printf("\tby player %lld", (long long)w->player_id);
	if (strcmp(w->format, "pbem") != 0)
		printf("\tformat %s (%s)", w->format, w->lang);
	if (w->last_error[0] != '\0')
		printf("\tlast error: %s", w->last_error);
	printf("\n");
	return 0;
}

static int
cmd_webhook(struct ctl *c, int argc, char **argv)
{
	enum store_status rc;
	int64_t id = 0;

	if (argc < 2)
		usage();
	if (strcmp(argv[1], "add") == 0)
		return webhook_add(c, argc - 1, argv + 1);
	if (strcmp(argv[1], "list") == 0) {
		if (argc == 4 && strcmp(argv[2], "--game") == 0)
			id = game_arg(argv[3]);
		else if (argc != 2)
			usage();
		ctl_open(c, 0);
		if (store_webhook_foreach(c->st, -1, print_webhook, &id) !=
		    STORE_OK)
			cli_fatal("store: %s", store_errmsg(c->st));
		ctl_close(c);
		return 0;
	}
	if (argc != 3)
		usage();
	id = cli_number(argv[2], 1, INT64_MAX, "webhook id");
	ctl_open(c, 0);
	if (strcmp(argv[1], "remove") == 0)
		rc = store_webhook_remove(c->st, id);
	else if (strcmp(argv[1], "enable") == 0)
		rc = store_webhook_set_state(c->st, id, STORE_WEBHOOK_ACTIVE);
	else if (strcmp(argv[1], "disable") == 0)
		rc = store_webhook_set_state(c->st, id,
		    STORE_WEBHOOK_DISABLED);
	else
		usage();
	if (rc != STORE_OK)
		cli_fatal("%s", store_errmsg(c->st));
	fprintf(stderr, "webhook %lld %s\n", (long long)id,
	    strcmp(argv[1], "remove") == 0 ? "removed; its pending "
	    "deliveries are given up" : strcmp(argv[1], "enable") == 0 ?
	    "enabled" : "disabled; its deliveries wait until it is enabled");
	ctl_close(c);
	return 0;
}

/* One pending outbox row, as `pbemctl outbox` shows it. */
static int
show_pending(const struct store_outbox *o, void *arg)
{
	int *n = arg;
	char next[32];

	clock_format_iso(o->next_attempt, next, sizeof(next));
	printf("%lld %s %s %s attempts=%d next=%s%s%s\n", (long long)o->id,
	    o->channel, o->recipient[0] != '\0' ? o->recipient : "-",
	    o->event, o->attempts, next, o->last_error[0] != '\0' ? " " : "",
	    o->last_error);
	(*n)++;
	return 0;
}

/* The pending outbox rows, oldest first: what is still to be sent,
 * with why a row waits (a failed attempt, or a per-address cap). */
static int
cmd_outbox(struct ctl *c, int argc, char **argv)
{
	long long limit = 100;
	char *end;
	int n = 0;

	if (argc > 2 || (argc == 2 && ((limit = strtoll(argv[1], &end, 10)) < 1 ||
	    *end != '\0')))
		usage();
	ctl_open(c, 0);
	if (store_outbox_due(c->st, INT64_MAX, (int)(limit > 100000 ? 100000 :
	    limit), show_pending, &n) != STORE_OK)
		cli_fatal("store: %s", store_errmsg(c->st));
	fprintf(stderr, "%d pending rows shown\n", n);
	ctl_close(c);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(struct ctl *, int, char **);
} commands[] = {
	{ "init", cmd_init },
	{ "rulesets", cmd_rulesets },
	{ "player", cmd_player },
	{ "game", cmd_game },
	{ "view", cmd_view },
	{ "moves", cmd_moves },
	{ "turn", cmd_turn },
	{ "submit", cmd_submit },
	{ "replay", cmd_replay },
	{ "audit", cmd_audit },
	{ "export", cmd_export },
	{ "score", cmd_score },
	{ "webhook", cmd_webhook },
	{ "tick", cmd_tick },
	{ "prune", cmd_prune },
	{ "replace", cmd_replace },
	{ "resign", cmd_resign },
	{ "vacation", cmd_vacation },
	{ "press", cmd_press },
	{ "observe", cmd_observe },
	{ "seats", cmd_seats },
	{ "gm", cmd_gm },
	{ "outbox", cmd_outbox },
	{ "queue", ctl_cmd_queue },
	{ "cards", ctl_cmd_cards },
	{ "backup", ctl_cmd_backup },
	{ "restore", ctl_cmd_restore },
};

int
main(int argc, char **argv)
{
	struct ctl c;
	const char *config_file = NULL, *dbpath = NULL;
	char err[1024];
	size_t i;
	int ch, rc;

	memset(&c, 0, sizeof(c));
	cli_help_or_version(argc > 1 ? argv[1] : NULL, print_usage);
	while ((ch = getopt(argc, argv, "+c:d:h")) != -1) {
		switch (ch) {
		case 'c': config_file = optarg; break;
		case 'd': dbpath = optarg; break;
		case 'h': print_usage(stdout); exit(EX_OK);
		default: usage();
		}
	}
	if (config_file != NULL) {
		if ((c.cfg = config_new()) == NULL)
			cli_fatal("out of memory");
		if (config_load_file(c.cfg, config_file, err, sizeof(err)) != 0)
			cli_fatal("%s", err);
	}
	c.dbpath = dbpath != NULL ? dbpath : c.cfg != NULL ?
	    config_str(c.cfg, "database") : getenv("PBEM_DB") != NULL ?
	    getenv("PBEM_DB") : "pbem.db";
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	if (sodium_init() < 0)
		cli_fatal("libsodium failed to initialise");
	cli_check_modules();
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[0], commands[i].name) == 0) {
			optind = 0;	/* glibc: re-initialise for the command */
			rc = commands[i].run(&c, argc, argv);
			config_free(c.cfg);	/* c.dbpath may point into it */
			return rc;
		}
	fprintf(stderr, "pbemctl: unknown command \"%s\"\n", argv[0]);
	usage();
	return 2;
}
