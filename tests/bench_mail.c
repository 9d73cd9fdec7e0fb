/*
 * bench_mail.c -- how fast the mail gateway is.
 *
 * 1. Ingestion: a Maildir holding one signed move per message (in
 *    plain text, as a mail client sends it) for PBEM_BENCH_GAMES games
 *    of Star Trek: Missions (default 200) and PBEM_BENCH_MOVES moves each
 *    (default 7, so no game ends); maildir_scan() is timed: read the file, parse the
 *    MIME, check the Message-ID, pick and verify the block, play it
 *    (one transaction with its outbox rows), record the Message-ID,
 *    move the file to cur/.  On a real database file (WAL,
 *    synchronous=NORMAL, as in production), the moves written by the
 *    batching writer thread as in pbemd (writer.h; PBEM_BENCH_WRITER=0:
 *    each in a transaction of its own on the ingesting connection).
 * 2. Outbound: every mail row the moves queued is rendered (that seat's
 *    view through the templates) and composed as MIME; timed alone, and
 *    then with delivery into the Maildir outbox (fsync per mail), or by
 *    SMTP to PBEM_BENCH_SMTP_URL when it is set (any server that takes
 *    the mails: `python3 -m smtpd -n -c DebuggingServer 127.0.0.1:2525`
 *    with smtp://127.0.0.1:2525 is enough).
 * Figures on standard output; `make bench` runs it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <sodium.h>

#include "engine.h"
#include "log.h"
#include "mail.h"
#include "templates.h"
#include "writer.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* User and system CPU seconds of the process so far. */
static void
cpu_times(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static int
env_int(const char *name, int def)
{
	const char *v = getenv(name);

	return v != NULL && atoi(v) > 0 ? atoi(v) : def;
}

struct render_ctx {
	struct store			*st;
	const struct tpl_set		*tpl;
	const struct mail_settings	*set;
	long				 n, bytes;
};

static int
render_one(const struct store_outbox *o, void *arg)
{
	struct render_ctx *c = arg;
	struct mail_out m;
	char err[512], *data;
	size_t len;

	if (mail_render(c->st, c->tpl, c->set, o, &m, err, sizeof(err)) !=
	    MAIL_RENDER_OK) {
		fprintf(stderr, "render: %s\n", err);
		exit(1);
	}
	data = mail_compose(c->set, &m, 1, &len);
	c->n++;
	c->bytes += (long)len;
	free(data);
	mail_out_clear(&m);
	return 0;
}

int
main(void)
{
	char dir[] = "/tmp/pbem-bench-mail-XXXXXX", path[600], err[1024];
	char block[PROTO_ARMOUR_MAX], raw[4096], name[64], *keypath;
	unsigned char sk[2][64];
	int64_t players[2], game, *games;
	struct store_player p;
	struct serverkey *key;
	struct store *st;
	struct mail_settings set;
	struct mail_ingest_ctx ctx;
	struct proto_move m;
	struct gamestate gs;
	struct tpl_set *tpl;
	struct render_ctx rc;
	const char *top = getenv("top_srcdir");
	int ngames = env_int("PBEM_BENCH_GAMES", 200);
	int nmoves = env_int("PBEM_BENCH_MOVES", 7);
	int g, i, first, handled, sent, use_writer;
	double t0, t_in, t_render, t_send, u0, s0, u1, s1;
	struct rusage ru;
	int64_t pending;

	log_init("bench_mail", 0, 0);
	if (sodium_init() < 0 || mkdtemp(dir) == NULL)
		return 1;
	mail_init();
	snprintf(path, sizeof(path), "%s/pbem.db", dir);
	if (store_open(path, &st, err, sizeof(err)) != STORE_OK)
		return fprintf(stderr, "%s\n", err), 1;
	keypath = serverkey_path_for(path);
	key = serverkey_open(keypath, 1, err, sizeof(err));
	free(keypath);
	if (key == NULL)
		return fprintf(stderr, "%s\n", err), 1;
	for (i = 0; i < 2; i++) {
		memset(&p, 0, sizeof(p));
		snprintf(p.name, sizeof(p.name), "p%d", i);
		snprintf(p.email, sizeof(p.email), "p%d@example.org", i);
		snprintf(p.lang, sizeof(p.lang), "%s", i ? "fr" : "en");
		crypto_sign_keypair(p.pubkey, sk[i]);
		if (store_player_add(st, &p) != STORE_OK)
			return 1;
		players[i] = p.id;
	}
	mail_settings_default(&set);
	snprintf(set.maildir_in, sizeof(set.maildir_in), "%s/in", dir);
	snprintf(set.maildir_out, sizeof(set.maildir_out), "%s/out", dir);
	snprintf(set.quarantine, sizeof(set.quarantine), "%s/q", dir);
	set.rate_max = 1000000;
	if (getenv("PBEM_BENCH_SMTP_URL") != NULL)
		snprintf(set.smtp_url, sizeof(set.smtp_url), "%s",
		    getenv("PBEM_BENCH_SMTP_URL"));

	/* The Maildir: moves alternate seats from the one the seed chose;
	 * "draw galaxy, discard drawn" is legal for whoever acts. */
	games = calloc((size_t)ngames, sizeof(*games));
	for (g = 0; g < ngames; g++) {
		if (engine_create_game(st, key, "stmissions", NULL, players, 2,
		    &game, err, sizeof(err)) != ENGINE_OK)
			return fprintf(stderr, "%s\n", err), 1;
		games[g] = game;
	}
	for (i = 0; i < nmoves; i++)
		for (g = 0; g < ngames; g++) {
			if (gamestate_load(st, games[g], -1, &gs, err,
			    sizeof(err)) != ENGINE_OK)
				return 1;
			first = 0;
			gs.module->to_act(gs.state, &first, 1);
			gamestate_clear(&gs);
			first = (first + i) % 2;	/* the seat of move i+1 */
			memset(&m, 0, sizeof(m));
			m.game_id = games[g];
			m.seq = i + 1;
			m.seat = first;
			snprintf(m.text, sizeof(m.text),
			    "draw galaxy, discard drawn");
			proto_move_sign(&m, sk[first]);
			proto_move_armour(&m, block, sizeof(block));
			snprintf(raw, sizeof(raw), "From: p%d@example.org\n"
			    "To: pbem@localhost\nSubject: Re: [pbem #%lld] "
			    "your turn\nMessage-ID: <b%d.%d@example.org>\n"
			    "Content-Type: text/plain; charset=utf-8\n\n"
			    "My move:\n\n%s\n> older quoted text\n", first,
			    (long long)games[g], i, g, block);
			snprintf(name, sizeof(name), "%08d", i * ngames + g);
			if (maildir_put(set.maildir_in, name, NULL, raw,
			    strlen(raw), err, sizeof(err)) != 0)
				return fprintf(stderr, "%s\n", err), 1;
		}

	ctx.st = st;
	ctx.key = key;
	ctx.set = &set;
	use_writer = getenv("PBEM_BENCH_WRITER") == NULL ||
	    strcmp(getenv("PBEM_BENCH_WRITER"), "0") != 0;
	if (use_writer && writer_start(path, key, 256, 1024, err,
	    sizeof(err)) != 0)
		return fprintf(stderr, "writer: %s\n", err), 1;
	cpu_times(&u0, &s0);
	t0 = now();
	handled = maildir_scan(&ctx, set.maildir_in);
	t_in = now() - t0;
	cpu_times(&u1, &s1);
	if (use_writer)
		writer_stop();
	if (handled != ngames * nmoves) {
		fprintf(stderr, "handled %d of %d\n", handled, ngames * nmoves);
		return 1;
	}
	printf("mail ingestion%s: %d messages (%d games x %d moves) in %.2f "
	    "s: %.0f messages/s (parse + verify + apply + commit + file)\n",
	    use_writer ? " (through the writer)" : "", handled, ngames, nmoves,
	    t_in, handled / t_in);
	getrusage(RUSAGE_SELF, &ru);
	printf("  CPU per message: %.0f us user + %.0f us system; peak RSS "
	    "%ld KiB\n", 1e6 * (u1 - u0) / handled, 1e6 * (s1 - s0) / handled,
	    ru.ru_maxrss);

	snprintf(path, sizeof(path), "%s/templates", top != NULL ? top : ".");
	if ((tpl = templates_load(path, err, sizeof(err))) == NULL)
		return fprintf(stderr, "%s\n", err), 1;
	memset(&rc, 0, sizeof(rc));
	rc.st = st;
	rc.tpl = tpl;
	rc.set = &set;
	t0 = now();
	store_outbox_due_channel(st, "mail", INT64_MAX / 2, 1 << 30,
	    render_one, &rc);
	t_render = now() - t0;
	printf("mail rendering: %ld mails (%.1f KB each) in %.2f s: %.0f "
	    "mails/s (that seat's view + template + MIME)\n", rc.n,
	    rc.bytes / 1024.0 / (rc.n ? rc.n : 1), t_render,
	    rc.n / t_render);

	t0 = now();
	sent = 0;
	while ((i = mail_sender_run_once(st, tpl, &set, 256)) > 0)
		sent += i;
	t_send = now() - t0;
	store_outbox_pending(st, &pending);
	printf("mail delivery %s: %d mails in %.2f s: %.0f mails/s (render "
	    "+ MIME + %s + mark sent); %lld left\n", set.smtp_url[0] != '\0' ?
	    "by SMTP" : "to the Maildir outbox", sent, t_send, sent / t_send,
	    set.smtp_url[0] != '\0' ? "SMTP" : "fsync'd file",
	    (long long)pending);

	templates_free(tpl);
	serverkey_close(key);
	store_close(st);
	free(games);
	snprintf(raw, sizeof(raw), "rm -rf '%s'", dir);
	if (system(raw) != 0)
		return 1;
	mail_shutdown();
	return 0;
}
