/*
 * check_templates.c -- the shipped templates ($top_srcdir/templates), for
 * every registered game (rules_all(): a new game is covered with no line
 * written here):
 *   - the set loads, and every (language, game, template) exists;
 *   - a broken template is refused at load time with its file and line,
 *     and so is a {{>partial}} naming nothing;
 *   - golden files: each template in each language is rendered from a
 *     fixed view (tests/golden/views/GAME/NAME.json, made by playing the
 *     real module from a fixed seed, with the seats, length and refused
 *     move the module gives) and compared with
 *     tests/golden/LANG/GAME/NAME.txt, so a wording change shows as a diff;
 *     the fixed views are made again each run and compared with the
 *     stored ones, so a change in what a module shows shows too.
 *     PBEM_GOLDEN_UPDATE=1 rewrites the fixed views and the golden files
 *     (making the folders); review the diff, then commit;
 *   - non-interference, every game: 20 random games, at three positions
 *     each, every template in both languages for each seat and the public
 *     view is rendered again after the game's hider (rules/nopeek.h)
 *     rearranged what that viewer may not know: byte-identical;
 *   - hidden cards: 200 random games of stmissions per seat count; at
 *     three positions per game (two varied, and the end) every template in both languages is rendered for
 *     every seat (and the public view) and must not contain the id of a
 *     card another seat holds (or a deck holds) that is not public, nor
 *     its name unless that name is already in the seat's own view (a
 *     card's bonus text may name another card);
 *   - eve (whose hidden cards are kinds that also show publicly): 20
 *     random games per mode, at the same three positions, every template
 *     in both languages for each seat and the public view is rendered
 *     again from a state differing only in what that viewer may not know
 *     (other hands/reserves/decks redealt, deck orders, travel deck
 *     order) and must be byte-identical.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "present.h"
#include "protocol.h"
#include "rng.h"
#include "rules.h"
#include "templates.h"
#include "testcards.h"
#include "nopeek.h"

#define LEAK_GAMES	200	/* per seat count */
#define LEAK_SPREAD	40	/* render at one move in [0, 40), one in
				 * [40, 80) (varied per game) and the end */
#define MAX_MOVES	4000

static const char *const langs[] = { "en", "fr" };
/* The templates every game must have, in every language (docs/TEMPLATES.md,
 * "Layout"); the games are the registered modules (rules_all()). */
static const char *const names[] = {
	"your_turn", "accepted", "rejected", "game_over", "help", "spectator",
	"waiting"
};
#define NLANGS	(sizeof(langs) / sizeof(langs[0]))
#define NNAMES	(sizeof(names) / sizeof(names[0]))

static const char *
srcdir(void)
{
	const char	*top = getenv("top_srcdir");

	return top != NULL && *top != '\0' ? top : ".";
}

static struct tpl_set *
load_shipped(void)
{
	struct tpl_set	*set;
	char		 dir[4096], err[1024];

	snprintf(dir, sizeof(dir), "%s/templates", srcdir());
	set = templates_load(dir, err, sizeof(err));
	ck_assert_msg(set != NULL, "%s", err);
	return set;
}

START_TEST(test_all_present)
{
	struct tpl_set	*set = load_shipped();
	const struct rules_module *const *m;
	size_t		 l, n;

	/* Every registered ruleset, so a new module without its templates
	 * fails here, naming the file to write. */
	for (l = 0; l < NLANGS; l++)
		for (m = rules_all(); *m != NULL; m++)
			for (n = 0; n < NNAMES; n++)
				ck_assert_msg(templates_has(set, langs[l],
				    (*m)->name, names[n], TPL_TEXT),
				    "missing templates/%s/%s/%s.txt.mustache",
				    langs[l], (*m)->name, names[n]);
	templates_free(set);
}
END_TEST

/*
 * Load-time errors, on a scratch folder.
 */
static void
write_text(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
}

static void
expect_load_error(const char *dir, const char *want)
{
	struct tpl_set	*set;
	char		 err[1024], full[1024];

	set = templates_load(dir, err, sizeof(err));
	ck_assert_ptr_null(set);
	snprintf(full, sizeof(full), want, dir);
	ck_assert_str_eq(err, full);
}

START_TEST(test_load_errors)
{
	char	dir[] = "/tmp/pbem-tpl-XXXXXX", p[4096];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/en", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/en/g", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);

	snprintf(p, sizeof(p), "%s/en/g/a.txt.mustache", dir);
	write_text(p, "line 1\n{{#hand}}\n{{name}}\n{{/cards}}\n");
	expect_load_error(dir, "%s/en/g/a.txt.mustache:4: mismatched close "
	    "tag: section \"hand\" opened on line 2 is closed by \"cards\"");

	write_text(p, "ok {{>nothere}}\n");
	expect_load_error(dir, "%s/en/g/a.txt.mustache:1: no partial "
	    "\"nothere\" in en/g/ or en/partials/");

	write_text(p, "ok\n");
	snprintf(p, sizeof(p), "%s/en/g/b.mustache", dir);
	write_text(p, "x");
	expect_load_error(dir, "%s/en/g/b.mustache: not a template: names "
	    "end in .txt.mustache or .html.mustache");
	unlink(p);

	snprintf(p, sizeof(p), "%s/en/g/a.txt.mustache", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/en/g", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/en", dir);
	rmdir(p);
	expect_load_error(dir, "%s: no templates");
	rmdir(dir);
}
END_TEST

/*
 * Playing a game and making the engine's view (daemon/engine/gamestate.c).
 */
struct game {
	const struct rules_module	*m;
	void				*state;
	unsigned char			 seed[RNG_SEED_BYTES];
	int				 seq;	/* moves applied */
	int				 id;
};

static void
game_start_opts(struct game *g, const char *ruleset, int nseats, uint64_t n,
    json_t *opts)
{
	struct rules_rng	 rng;
	char			 err[RULES_ERRLEN];

	memset(g, 0, sizeof(*g));
	g->m = rules_find(ruleset);
	ck_assert_ptr_nonnull(g->m);
	memcpy(g->seed, &n, sizeof(n));
	g->seed[31] = 0x5a;
	g->id = (int)(n % 1000) + 7;
	rng_init(&rng, g->seed, 0);
	g->state = testcards_setup(g->m, nseats, opts, &rng, err, sizeof(err));
	ck_assert_msg(g->state != NULL, "%s", err);
	json_decref(opts);
}

static void
game_start(struct game *g, const char *ruleset, int nseats, uint64_t n)
{
	game_start_opts(g, ruleset, nseats, n, json_object());
}

static void
hex(const unsigned char *b, size_t n, char *out)
{
	size_t	i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/* What gamestate_view() gives a viewer. */
static json_t *
engine_view(const struct game *g, int viewer)
{
	unsigned char	 commit[RNG_HASH_BYTES];
	char		 h[2 * RNG_SEED_BYTES + 1];
	json_t		*v, *result;

	v = g->m->view(g->state, viewer);
	json_object_set_new(v, "game_id", json_integer(g->id));
	json_object_set_new(v, "ruleset", json_string(g->m->name));
	json_object_set_new(v, "next_seq", json_integer(g->seq + 1));
	rng_seed_commit(g->seed, commit);
	hex(commit, sizeof(commit), h);
	json_object_set_new(v, "seed_commitment", json_string(h));
	if (viewer >= 0)
		json_object_set_new(v, "seat", json_integer(viewer));
	if ((result = g->m->result(g->state)) != NULL) {
		json_object_set_new(v, "result", result);
		hex(g->seed, sizeof(g->seed), h);
		json_object_set_new(v, "seed", json_string(h));
	}
	return v;
}

/* The seat to act, or -1 when the game is over. */
static int
acting(const struct game *g)
{
	int	seats[8];

	return g->m->to_act(g->state, seats, 8) > 0 ? seats[0] : -1;
}

/* Apply text for seat (it must be legal). */
static void
game_play(struct game *g, int seat, const char *text)
{
	struct rules_rng	 rng;
	json_t			*move = NULL;
	char			 err[RULES_ERRLEN];

	if (g->m->parse(g->state, seat, text, RULES_LANG_EN, &move, err,
	    sizeof(err)) != RULES_OK || g->m->check(g->state, seat, move,
	    RULES_LANG_EN, err, sizeof(err)) != RULES_OK)
		ck_abort_msg("%s: %s", text, err);
	g->seq++;
	rng_init(&rng, g->seed, (uint64_t)g->seq);
	g->m->apply(g->state, seat, move, &rng);
	json_decref(move);
}

/* A legal move for the acting seat, picked by the game's own stream (so
 * play does not depend on anything but the seed).  Returns the seat. */
static int
game_step(struct game *g, char *played, size_t len)
{
	struct rules_rng	 rng;
	json_t			*moves;
	uint32_t		 pick;
	int			 seat;

	if ((seat = acting(g)) < 0)
		return -1;
	moves = g->m->legal_moves(g->state, seat);
	if (json_array_size(moves) == 0)
		ck_abort_msg("seat %d must act but has no legal move", seat);
	rng_init(&rng, g->seed, 1000000 + (uint64_t)g->seq);
	pick = rules_rng_below(&rng, (uint32_t)json_array_size(moves));
	ck_assert_msg((size_t)snprintf(played, len, "%s",
	    json_string_value(json_array_get(moves, pick))) < len,
	    "legal move longer than the test's buffer: %s",
	    json_string_value(json_array_get(moves, pick)));
	json_decref(moves);
	game_play(g, seat, played);
	return seat;
}

/* The first of texts that seat may not play now, with the refusal in
 * both languages; 0 if every text was accepted. */
static int
refusal(const struct game *g, int seat, const char *const *texts,
    const char **text, char *en, char *fr, size_t len)
{
	json_t	*move;
	int	 i, l;
	char	*msg;

	for (i = 0; texts[i] != NULL; i++)
		for (l = 0; l < 2; l++) {
			msg = l == 0 ? en : fr;
			move = NULL;
			if (g->m->parse(g->state, seat, texts[i],
			    (enum rules_lang)l, &move, msg, len) == RULES_OK &&
			    g->m->check(g->state, seat, move,
			    (enum rules_lang)l, msg, len) == RULES_OK) {
				json_decref(move);
				break;
			}
			json_decref(move);
			if (l == 1) {
				*text = texts[i];
				return 1;
			}
		}
	return 0;
}

static const char *const bad_moves[] = {
	"discard Z99", "take G01, discard M24", "play 99", "draw missions",
	NULL
};

/*
 * Fixed views: {"viewer", "view", "forms_en", "forms_fr", "legal",
 * "move", "reason_en", "reason_fr"} -- everything a notifier passes to
 * present_view() -- for each template of a game.
 */
static json_t *
make_case(const struct game *g, int viewer, const char *move,
    const char *reason_en, const char *reason_fr)
{
	json_t	*c;

	c = json_object();
	json_object_set_new(c, "viewer", json_integer(viewer));
	json_object_set_new(c, "view", engine_view(g, viewer));
	json_object_set_new(c, "forms_en", g->m->move_forms(g->state, viewer,
	    RULES_LANG_EN));
	json_object_set_new(c, "forms_fr", g->m->move_forms(g->state, viewer,
	    RULES_LANG_FR));
	json_object_set_new(c, "legal", viewer >= 0 ?
	    g->m->legal_moves(g->state, viewer) : json_array());
	/* the whole state, for translate() of the examples */
	json_object_set_new(c, "state", g->m->save(g->state));
	if (move != NULL)
		json_object_set_new(c, "move", json_string(move));
	if (reason_en != NULL) {
		json_object_set_new(c, "reason_en", json_string(reason_en));
		json_object_set_new(c, "reason_fr", json_string(reason_fr));
	}
	return c;
}

/*
 * One fixed view: written when updating, else compared with the stored
 * one, so that a module whose view changed shows here (the golden texts
 * below are rendered from the stored views and would not see it).
 */
static void
keep_case(const char *game, const char *name, json_t *c, int updating,
    int *differ)
{
	char		 path[4096];
	json_t		*stored;
	json_error_t	 jerr;

	snprintf(path, sizeof(path), "%s/tests/golden/views/%s/%s.json",
	    srcdir(), game, name);
	if (updating)
		ck_assert_msg(json_dump_file(c, path, JSON_INDENT(1) |
		    JSON_SORT_KEYS) == 0, "cannot write %s", path);
	else if ((stored = json_load_file(path, 0, &jerr)) == NULL ||
	    !json_equal(stored, c)) {
		printf("golden: %s is not the view the module gives now "
		    "(%s)\n", path, stored == NULL ? jerr.text : "differs");
		(*differ)++;
		json_decref(stored);
	} else
		json_decref(stored);
	json_decref(c);
}

/* A folder, made if it is missing (its parent must exist). */
static void
make_folder(const char *path)
{
	ck_assert_msg(mkdir(path, 0755) == 0 || errno == EEXIST, "%s: %s",
	    path, strerror(errno));
}

/* The refused move of a golden "rejected" case: the module's own sample
 * (rules API 5), else the first of bad_moves seat may not play. */
static void
golden_refusal(const struct game *g, int seat, char *text, size_t len,
    char *en, char *fr, size_t msglen)
{
	const char	*one[2] = { text, NULL }, *bad;

	if (g->m->api_version >= 6) {
		ck_assert_msg(g->m->sample_illegal_move(g->state, seat, text,
		    len) == RULES_OK, "%s: no sample illegal move for seat %d",
		    g->m->name, seat);
		ck_assert_msg(refusal(g, seat, one, &bad, en, fr, msglen),
		    "%s: the sample illegal move \"%s\" is accepted",
		    g->m->name, text);
		return;
	}
	ck_assert(refusal(g, seat, bad_moves, &bad, en, fr, msglen));
	snprintf(text, len, "%s", bad);
}

/*
 * Play the fixed game of a module and keep one case per template
 * (keep_case: written when updating, else compared with the stored one;
 * differ counts the cases that differ).  What the game needs comes from
 * the module: the fewest seats it takes (two when it can, so that one
 * seat waits), a point five moves in (earlier in a game too short for
 * that: the whole game is played once to learn its length), and its
 * sample illegal move for "rejected".
 */
static void
fixed_views(const char *game, int updating, int *differ)
{
	const struct rules_module *m = rules_find(game);
	struct game	 g;
	char		 path[4096], played[PROTO_MOVE_MAX + 1];
	char		 en[RULES_ERRLEN], fr[RULES_ERRLEN];
	char		 refused[PROTO_MOVE_MAX + 1];
	int		 i, seat, nseats, length, before;

	ck_assert_ptr_nonnull(m);
	nseats = m->min_seats < 2 && m->max_seats >= 2 ? 2 : m->min_seats;
	if (updating) {
		snprintf(path, sizeof(path), "%s/tests/golden/views",
		    srcdir());
		make_folder(path);
		snprintf(path, sizeof(path), "%s/tests/golden/views/%s",
		    srcdir(), game);
		make_folder(path);
	}

	game_start(&g, game, nseats, 42);
	for (length = 0; acting(&g) >= 0 && length < MAX_MOVES; length++)
		game_step(&g, played, sizeof(played));
	ck_assert_msg(length > 0 && length < MAX_MOVES, "%s: the fixed game "
	    "lasts %d moves", game, length);
	g.m->destroy(g.state);
	before = length > 10 ? 5 : (length - 1) / 2;

	game_start(&g, game, nseats, 42);
	for (i = 0; i < before; i++)
		game_step(&g, played, sizeof(played));
	seat = acting(&g);
	ck_assert_int_ge(seat, 0);
	keep_case(game, "your_turn", make_case(&g, seat, NULL, NULL, NULL),
	    updating, differ);
	keep_case(game, "help", make_case(&g, seat, NULL, NULL, NULL),
	    updating, differ);
	keep_case(game, "spectator", make_case(&g, RULES_VIEW_PUBLIC, NULL,
	    NULL, NULL), updating, differ);
	keep_case(game, "waiting", make_case(&g, (seat + 1) % nseats, NULL,
	    NULL, NULL), updating, differ);
	golden_refusal(&g, seat, refused, sizeof(refused), en, fr,
	    sizeof(en));
	keep_case(game, "rejected", make_case(&g, seat, refused, en, fr),
	    updating, differ);
	seat = game_step(&g, played, sizeof(played));
	keep_case(game, "accepted", make_case(&g, seat, played, NULL, NULL),
	    updating, differ);
	while (acting(&g) >= 0)
		game_step(&g, played, sizeof(played));
	keep_case(game, "game_over", make_case(&g, 0, NULL, NULL, NULL),
	    updating, differ);
	g.m->destroy(g.state);
}

/* The players' names every case is decorated with (as a notifier reads
 * them from the players table); one with an accent, as French players
 * have. */
static const char *const seat_names[] = {
	"alice", "bruno", "chloé", "dmitri", "eun", "farid", "gaia", "hugo"
};

/* A case decorated for one language, as a notifier would. */
static json_t *
present_case(const char *game, size_t lang, const json_t *c)
{
	struct present_info	 info;
	json_t			*pv;
	void			*state = NULL;
	char			 key[32], err[RULES_ERRLEN];

	memset(&info, 0, sizeof(info));
	info.lang = lang == 0 ? RULES_LANG_EN : RULES_LANG_FR;
	info.module = rules_find(game);
	info.viewer = (int)json_integer_value(json_object_get(c, "viewer"));
	info.seat_names = seat_names;
	info.nseats = (int)json_array_size(json_object_get(json_object_get(c,
	    "view"), "seats"));
	snprintf(key, sizeof(key), "forms_%s", langs[lang]);
	info.forms = json_object_get(c, key);
	info.legal = json_object_get(c, "legal");
	info.move = json_string_value(json_object_get(c, "move"));
	snprintf(key, sizeof(key), "reason_%s", langs[lang]);
	info.reason = json_string_value(json_object_get(c, key));
	if (json_object_get(c, "state") != NULL) {
		state = testcards_load(info.module, json_object_get(c,
		    "state"), err, sizeof(err));
		ck_assert_msg(state != NULL, "%s: %s", game, err);
		info.state = state;
	}
	pv = present_view(json_object_get(c, "view"), &info);
	info.module->destroy(state);
	return pv;
}

/* Render one template from a decorated view.  Returns a malloc'ed
 * string.  (Plain ifs, not ck_assert, in code run thousands of times:
 * each ck_assert writes its location to the runner.) */
static char *
render_pv(const struct tpl_set *set, const char *game, const char *name,
    size_t lang, const json_t *pv)
{
	struct mustache_buf	 out;
	char			 err[1024];

	mustache_buf_init(&out);
	if (templates_render(set, langs[lang], game, name, TPL_TEXT, pv, &out,
	    err, sizeof(err)) != 0)
		ck_abort_msg("%s", err);
	return out.data;
}

static char *
render_case(const struct tpl_set *set, const char *game, const char *name,
    size_t lang, const json_t *c)
{
	json_t	*pv;
	char	*s;

	pv = present_case(game, lang, c);
	s = render_pv(set, game, name, lang, pv);
	json_decref(pv);
	return s;
}

static char *
slurp(const char *path)
{
	FILE	*f;
	char	*buf;
	long	 n;

	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

START_TEST(test_golden)
{
	struct tpl_set	*set = load_shipped();
	const char	*update = getenv("PBEM_GOLDEN_UPDATE");
	int		 updating = update != NULL && strcmp(update, "1") == 0;
	char		 path[4096], *got, *want;
	const struct rules_module *const *m;
	const char	*game;
	json_t		*c;
	json_error_t	 jerr;
	size_t		 l, n;
	int		 bad = 0;
	FILE		*f;

	for (m = rules_all(); *m != NULL; m++) {
		game = (*m)->name;
		fixed_views(game, updating, &bad);
		for (l = 0; l < NLANGS && updating; l++) {
			snprintf(path, sizeof(path), "%s/tests/golden/%s/%s",
			    srcdir(), langs[l], game);
			make_folder(path);
		}
		for (n = 0; n < NNAMES; n++) {
			snprintf(path, sizeof(path), "%s/tests/golden/views/"
			    "%s/%s.json", srcdir(), game, names[n]);
			c = json_load_file(path, 0, &jerr);
			ck_assert_msg(c != NULL, "%s: %s (PBEM_GOLDEN_UPDATE=1 "
			    "writes missing views)", path, jerr.text);
			for (l = 0; l < NLANGS; l++) {
				got = render_case(set, game, names[n], l, c);
				snprintf(path, sizeof(path), "%s/tests/golden/"
				    "%s/%s/%s.txt", srcdir(), langs[l],
				    game, names[n]);
				if (updating) {
					f = fopen(path, "w");
					ck_assert_msg(f != NULL, "%s: %s", path,
					    strerror(errno));
					fputs(got, f);
					fclose(f);
				} else if ((want = slurp(path)) == NULL ||
				    strcmp(want, got) != 0) {
					printf("golden: %s differs; got:\n%s\n",
					    path, got);
					bad++;
					free(want);
				} else
					free(want);
				free(got);
			}
			json_decref(c);
		}
	}
	templates_free(set);
	ck_assert_msg(bad == 0, "%d golden file(s) differ (review, then "
	    "PBEM_GOLDEN_UPDATE=1 make check to accept)", bad);
}
END_TEST

/*
 * Meddlesome Q's draw has no extra turn: the text says the game has
 * ended and that Q's holder draws, never "the extra turn is the last";
 * while an extra turn ends the game, it does say so.
 */
/* The seats' names reach the text: the waiting template names the viewer
 * ("you are alice (seat 0)", "vous êtes alice (siège 0)") and whom the
 * game waits for; without names it reads "seat N" as before. */
START_TEST(test_seat_names)
{
	static const char *const word[] = { "seat", "siège" };
	struct tpl_set	*set = load_shipped();
	char		 path[4096], want[256], *got;
	json_t		*c, *pv, *to_act;
	json_error_t	 jerr;
	size_t		 l;
	int		 viewer, waited;
	struct present_info info;
	const struct rules_module *const *m;
	const char	*game;

	for (m = rules_all(); *m != NULL; m++) {
		game = (*m)->name;
		snprintf(path, sizeof(path), "%s/tests/golden/views/%s/"
		    "waiting.json", srcdir(), game);
		c = json_load_file(path, 0, &jerr);
		ck_assert_msg(c != NULL, "%s: %s", path, jerr.text);
		viewer = (int)json_integer_value(json_object_get(c, "viewer"));
		to_act = json_object_get(json_object_get(c, "view"), "to_act");
		waited = (int)json_integer_value(json_array_get(to_act, 0));
		for (l = 0; l < NLANGS; l++) {
			got = render_case(set, game, "waiting", l, c);
			snprintf(want, sizeof(want), "%s (%s %d)",
			    seat_names[viewer], word[l], viewer);
			ck_assert_msg(strstr(got, want) != NULL, "%s/%s/waiting "
			    "lacks \"%s\":\n%s", langs[l], game, want, got);
			snprintf(want, sizeof(want), "%s (%s %d)",
			    seat_names[waited], word[l], waited);
			ck_assert_msg(strstr(got, want) != NULL, "%s/%s/waiting "
			    "lacks \"%s\":\n%s", langs[l], game, want, got);
			free(got);

			/* No names given: bare seat numbers, as before. */
			memset(&info, 0, sizeof(info));
			info.lang = l == 0 ? RULES_LANG_EN : RULES_LANG_FR;
			info.module = rules_find(game);
			info.viewer = viewer;
			pv = present_view(json_object_get(c, "view"), &info);
			got = render_pv(set, game, "waiting", l, pv);
			snprintf(want, sizeof(want), "%s %d", word[l], waited);
			ck_assert_msg(strstr(got, want) != NULL &&
			    strstr(got, seat_names[viewer]) == NULL &&
			    strstr(got, seat_names[waited]) == NULL, "%s/%s/"
			    "waiting without names:\n%s", langs[l], game,
			    got);
			free(got);
			json_decref(pv);
		}
		json_decref(c);
	}
	templates_free(set);
}
END_TEST

/* A game that ended outside its rules (a resignation, a call-off) has
 * winners but no scores: its game_over shows no score section, no
 * "points" line with nothing before it. */
START_TEST(test_game_over_unscored)
{
	static const char *const empty[] = { ":  points", " :  points" };
	static const char *const section[] = { "Score breakdown",
	    "Détail des scores" };
	struct tpl_set	*set = load_shipped();
	char		 path[4096], *got;
	json_t		*c, *result;
	json_error_t	 jerr;
	size_t		 l;
	const struct rules_module *const *m;
	const char	*game;

	for (m = rules_all(); *m != NULL; m++) {
		game = (*m)->name;
		snprintf(path, sizeof(path), "%s/tests/golden/views/%s/"
		    "game_over.json", srcdir(), game);
		if ((c = json_load_file(path, 0, &jerr)) == NULL)
			continue;	/* a game without a game_over case */
		result = json_object_get(json_object_get(c, "view"),
		    "result");
		ck_assert_msg(json_is_object(result), "%s: no result", game);
		json_object_del(result, "scores");
		json_object_del(result, "breakdown");
		json_object_del(result, "breakdown_en");
		json_object_del(result, "breakdown_fr");
		for (l = 0; l < NLANGS; l++) {
			got = render_case(set, game, "game_over", l, c);
			ck_assert_msg(strstr(got, empty[l]) == NULL &&
			    strstr(got, section[l]) == NULL, "%s/%s/game_over "
			    "unscored:\n%s", langs[l], game, got);
			free(got);
		}
		json_decref(c);
	}
	templates_free(set);
}
END_TEST

START_TEST(test_stm_q_draw_lines)
{
	static const char *const last[] = {
		"the extra turn is the last",
		"le tour suppl\xc3\xa9mentaire est le dernier"
	};
	static const char *const q[] = {
		"holder of Meddlesome Q,\nis making the final draw",
		"qui d\xc3\xa9tient Q l'importun,\nfait la pioche finale"
	};
	struct tpl_set	*set = load_shipped();
	char		 path[4096], *got;
	json_t		*c, *v, *extra;
	json_error_t	 jerr;
	size_t		 l;

	snprintf(path, sizeof(path), "%s/tests/golden/views/stmissions/"
	    "spectator.json", srcdir());
	c = json_load_file(path, 0, &jerr);
	ck_assert_msg(c != NULL, "%s: %s", path, jerr.text);
	v = json_object_get(c, "view");
	json_object_set_new(v, "phase", json_string("q_draw"));
	json_object_set_new(v, "ending", json_true());
	json_object_set_new(v, "extra_turn", json_null());
	json_object_set_new(v, "q_seat", json_integer(1));
	for (l = 0; l < NLANGS; l++) {
		got = render_case(set, "stmissions", "spectator", l, c);
		ck_assert_msg(strstr(got, last[l]) == NULL, "%s", got);
		ck_assert_msg(strstr(got, q[l]) != NULL, "%s", got);
		free(got);
	}
	/* An extra turn after the end was reached. */
	json_object_set_new(v, "phase", json_string("turn"));
	json_object_set_new(v, "q_seat", json_null());
	extra = json_pack("{s:i, s:b, s:b}", "seat", 1, "owed", 0, "now", 1);
	json_object_set_new(v, "extra_turn", extra);
	for (l = 0; l < NLANGS; l++) {
		got = render_case(set, "stmissions", "spectator", l, c);
		ck_assert_msg(strstr(got, last[l]) != NULL, "%s", got);
		free(got);
	}
	json_decref(c);
	templates_free(set);
}
END_TEST

/*
 * Hidden cards.
 */

/* Does s contain word, not inside a longer word? */
static int
has_word(const char *s, const char *word)
{
	const char	*p;
	size_t		 n = strlen(word);

	if (n == 0)
		return 0;
	for (p = strstr(s, word); p != NULL; p = strstr(p + 1, word)) {
		int before = p > s ? (unsigned char)p[-1] : ' ';
		int after = (unsigned char)p[n];

		if ((before < 0x80 && (before == '_' || (before >= '0' &&
		    before <= '9') || ((before | 0x20) >= 'a' &&
		    (before | 0x20) <= 'z'))) ||
		    (after < 0x80 && (after == '_' || (after >= '0' &&
		    after <= '9') || ((after | 0x20) >= 'a' &&
		    (after | 0x20) <= 'z'))))
			continue;
		return 1;
	}
	return 0;
}

/* Add each card object of a (possibly NULL) array to secrets unless its
 * id is public.  The holder of Meddlesome Q (M18) is announced once the
 * game has ended (public "q_seat", docs/stmissions.md section 5). */
static void
add_secret_cards(json_t *secrets, const json_t *cards, const char *pub,
    int holds_q)
{
	const json_t	*card;
	const char	*id;
	char		 quoted[32];
	size_t		 i;

	json_array_foreach(cards, i, card) {
		id = json_string_value(json_object_get(card, "id"));
		if (id == NULL)
			continue;
		snprintf(quoted, sizeof(quoted), "\"%s\"", id);
		if (holds_q && strcmp(id, "M18") == 0)
			continue;
		if (strstr(pub, quoted) == NULL)
			json_array_append_new(secrets,
			    json_deep_copy(card));
	}
}

static void
add_secret_ids(json_t *secrets, const json_t *ids)
{
	const json_t	*id;
	size_t		 i;

	json_array_foreach(ids, i, id)
		json_array_append_new(secrets, json_pack("{s:O}", "id", id));
}

/* What viewer must not see: other seats' cards that are not public,
 * other seats' drawn cards, and the decks. */
static json_t *
secrets_for(const struct game *g, int viewer)
{
	json_t		*full, *pub, *secrets, *pending;
	char		*pubtext;
	size_t		 s;

	full = g->m->view(g->state, RULES_VIEW_FULL);
	pub = g->m->view(g->state, RULES_VIEW_PUBLIC);
	pubtext = json_dumps(pub, JSON_COMPACT);
	secrets = json_array();
	for (s = 0; s < json_array_size(json_object_get(full, "hands")); s++)
		if ((int)s != viewer)
			add_secret_cards(secrets, json_array_get(
			    json_object_get(full, "hands"), s), pubtext,
			    json_integer_value(json_object_get(pub, "q_seat")) ==
			    (json_int_t)s);
	pending = json_object_get(full, "pending");
	if (json_is_object(pending) && json_integer_value(json_object_get(
	    pending, "seat")) != viewer)
		add_secret_cards(secrets, json_object_get(pending, "drawn"),
		    pubtext, 0);
	add_secret_ids(secrets, json_object_get(full, "galaxy_order"));
	add_secret_ids(secrets, json_object_get(full, "mission_order"));
	free(pubtext);
	json_decref(pub);
	json_decref(full);
	return secrets;
}

/* Each template rendered from an empty view: its fixed wording (rules
 * text may name a card such as Meddlesome Q without revealing anything). */
static char *fixed_text[NLANGS][NNAMES];

static void
render_fixed_text(const struct tpl_set *set, const char *game)
{
	json_t	*c;
	size_t	 l, n;

	c = json_pack("{s:i, s:{}}", "viewer", 0, "view");
	for (l = 0; l < NLANGS; l++)
		for (n = 0; n < NNAMES; n++)
			fixed_text[l][n] = render_case(set, game, names[n], l,
			    c);
	json_decref(c);
}

static void
check_no_leak(const struct tpl_set *set, const struct game *g, int viewer,
    const char *move)
{
	json_t		*c, *secrets, *card, *pv;
	const char	*bad, *fields[] = { "name_en", "name_fr" };
	char		*out, *viewtext, en[RULES_ERRLEN], fr[RULES_ERRLEN];
	size_t		 l, n, i, f;

	c = make_case(g, viewer, move, NULL, NULL);
	if (viewer >= 0 && refusal(g, viewer, bad_moves, &bad, en, fr,
	    sizeof(en))) {
		json_object_set_new(c, "reason_en", json_string(en));
		json_object_set_new(c, "reason_fr", json_string(fr));
	}
	viewtext = json_dumps(json_object_get(c, "view"), JSON_COMPACT);
	secrets = secrets_for(g, viewer);
	for (l = 0; l < NLANGS; l++) {
		pv = present_case(g->m->name, l, c);
		for (n = 0; n < NNAMES; n++) {
			out = render_pv(set, g->m->name, names[n], l, pv);
			json_array_foreach(secrets, i, card) {
				const char *id = json_string_value(
				    json_object_get(card, "id"));

				if (has_word(fixed_text[l][n], id))
					continue;
				if (has_word(out, id))
					ck_abort_msg("seat %d sees hidden %s in "
					    "%s/%s:\n%s", viewer, id, langs[l],
					    names[n], out);
				for (f = 0; f < 2; f++) {
					const char *nm = json_string_value(
					    json_object_get(card, fields[f]));

					if (nm == NULL || has_word(viewtext, nm) ||
					    has_word(fixed_text[l][n], nm))
						continue;
					if (has_word(out, nm))
						ck_abort_msg("seat %d sees hidden "
						    "%s (%s) in %s/%s:\n%s", viewer,
						    nm, id, langs[l], names[n],
						    out);
				}
			}
			free(out);
		}
		json_decref(pv);
	}
	json_decref(secrets);
	free(viewtext);
	json_decref(c);
}

START_TEST(test_no_hidden_cards)
{
	const struct rules_module	*m = rules_find("stmissions");
	struct tpl_set			*set = load_shipped();
	struct game			 g;
	char				 played[PROTO_MOVE_MAX + 1];
	int				 nseats, n, seat, step, rendered = 0;
	size_t				 l, k;

	render_fixed_text(set, "stmissions");

	for (nseats = m->min_seats; nseats <= m->max_seats; nseats++)
		for (n = 0; n < LEAK_GAMES; n++) {
			game_start(&g, "stmissions", nseats,
			    (uint64_t)(nseats * 1000 + n));
			played[0] = '\0';
			for (step = 0; step < MAX_MOVES; step++) {
				if (step == (n * 7) % LEAK_SPREAD ||
				    step == LEAK_SPREAD + (n * 13) % LEAK_SPREAD ||
				    acting(&g) < 0) {
					for (seat = RULES_VIEW_PUBLIC;
					    seat < nseats; seat++)
						check_no_leak(set, &g, seat,
						    played[0] != '\0' ? played :
						    NULL);
					rendered++;
				}
				if (game_step(&g, played, sizeof(played)) < 0)
					break;
			}
			ck_assert_int_lt(step, MAX_MOVES);
			g.m->destroy(g.state);
		}
	printf("hidden cards: %d positions rendered for every seat, no "
	    "leak\n", rendered);
	for (l = 0; l < NLANGS; l++)
		for (k = 0; k < NNAMES; k++)
			free(fixed_text[l][k]);
	templates_free(set);
}
END_TEST

/*
 * Enterprise vs Excelsior: its hidden cards are kinds ("nebula") that
 * also show publicly, so searching for names proves nothing.  Instead a
 * non-interference check: what a seat is sent must not change when
 * everything it may not know changes.  For each position and viewer the
 * saved state is rewritten -- the cards of the other seat's hand, reserve
 * and deck dealt among those three places anew (same sizes, same 33
 * cards), the viewer's own deck reordered (its order is hidden from its
 * owner too) and the travel deck reordered; for the public view both
 * seats' cards -- then loaded (load() validates it) and every template
 * rendered again in both languages: the text must be byte-identical.
 */
#define EVE_LEAK_GAMES	20	/* per mode */

static const char *const eve_bad_moves[] = {
	"fly nebula; fly nebula; fly nebula; fly nebula", "extend flip",
	"spock briefing extend flip", "joker ion storm ion storm",
	"starfleet black hole", "discard mirror universe", NULL
};

/* A saved state differing from saved only in what viewer may not know
 * (the eve hider: the other seat's hand, reserve and deck dealt anew
 * among themselves, the viewer's own deck order, the travel deck order;
 * for the public view both seats'), and different from it (unless
 * nothing is hidden from viewer at all: then NULL). */
static json_t *
eve_unknowable(const json_t *saved, int viewer, struct rules_rng *rng)
{
	const struct nopeek_hider *h = nopeek_find("eve");
	struct nopeek_known	 none = { 0 };
	json_t			*alt;
	int			 tries;

	ck_assert_ptr_nonnull(h);
	for (tries = 0; tries < 20; tries++) {
		alt = json_deep_copy(saved);
		h->hide(alt, viewer, &none, rng);
		if (!json_equal(alt, saved))
			return alt;
		json_decref(alt);
	}
	return NULL;
}

/* The first line where a and b differ, as a message. */
static void
first_diff(const char *a, const char *b, char *msg, size_t len)
{
	const char	*la = a, *lb = b;
	int		 line = 1;
	size_t		 i;

	for (i = 0; a[i] == b[i] && a[i] != '\0'; i++)
		if (a[i] == '\n') {
			line++;
			la = a + i + 1;
			lb = b + i + 1;
		}
	snprintf(msg, len, "line %d:\n  real:     %.*s\n  permuted: %.*s",
	    line, (int)strcspn(la, "\n"), la, (int)strcspn(lb, "\n"), lb);
}

/* A case as check_no_leak() makes it, with the refusal of the first of
 * texts (NULL: none) viewer may not play. */
static json_t *
refused_case(const struct game *g, int viewer, const char *move,
    const char *const *texts)
{
	json_t		*c;
	const char	*bad;
	char		 en[RULES_ERRLEN], fr[RULES_ERRLEN];

	c = make_case(g, viewer, move, NULL, NULL);
	if (viewer >= 0 && texts != NULL && refusal(g, viewer, texts, &bad,
	    en, fr, sizeof(en))) {
		json_object_set_new(c, "reason_en", json_string(en));
		json_object_set_new(c, "reason_fr", json_string(fr));
	}
	return c;
}

/* Every template of g's game in both languages, rendered from the two
 * cases c[0] (the real state) and c[1] (what viewer may not know
 * rearranged), must be byte-identical. */
static void
same_renders(const struct tpl_set *set, const struct game *g, int viewer,
    json_t *const c[2])
{
	json_t	*pv[2];
	char	*out[2], diff[1024], who[32];
	size_t	 l, n;
	int	 k;

	if (viewer < 0)
		snprintf(who, sizeof(who), "the public view");
	else
		snprintf(who, sizeof(who), "seat %d", viewer);
	for (l = 0; l < NLANGS; l++) {
		for (k = 0; k < 2; k++)
			pv[k] = present_case(g->m->name, l, c[k]);
		for (n = 0; n < NNAMES; n++) {
			for (k = 0; k < 2; k++)
				out[k] = render_pv(set, g->m->name, names[n],
				    l, pv[k]);
			if (strcmp(out[0], out[1]) != 0) {
				first_diff(out[0], out[1], diff, sizeof(diff));
				ck_abort_msg("leak: %s/%s/%s for %s changes "
				    "with what it may not know, %s", langs[l],
				    g->m->name, names[n], who, diff);
			}
			free(out[0]);
			free(out[1]);
		}
		json_decref(pv[0]);
		json_decref(pv[1]);
	}
}

/* Returns 0 if nothing is hidden from viewer (no permuted state), 2 if
 * the full views differ (a hidden card kind changed place), else 1. */
static int
check_eve_interference(const struct tpl_set *set, const struct game *g,
    int viewer, const char *move, struct rules_rng *rng)
{
	struct game	 alt = *g;
	json_t		*saved, *altsaved, *c[2], *full[2];
	char		 err[RULES_ERRLEN];
	int		 changed;

	saved = g->m->save(g->state);
	altsaved = eve_unknowable(saved, viewer, rng);
	json_decref(saved);
	if (altsaved == NULL)
		return 0;
	alt.state = testcards_load(g->m, altsaved, err, sizeof(err));
	if (alt.state == NULL)
		ck_abort_msg("permuted eve state refused: %s", err);
	json_decref(altsaved);
	full[0] = g->m->view(g->state, RULES_VIEW_FULL);
	full[1] = g->m->view(alt.state, RULES_VIEW_FULL);
	changed = json_equal(full[0], full[1]) ? 1 : 2;
	json_decref(full[0]);
	json_decref(full[1]);
	c[0] = refused_case(g, viewer, move, eve_bad_moves);
	c[1] = refused_case(&alt, viewer, move, eve_bad_moves);
	same_renders(set, g, viewer, c);
	json_decref(c[0]);
	json_decref(c[1]);
	g->m->destroy(alt.state);
	return changed;
}

START_TEST(test_eve_no_interference)
{
	static const char *const modes[] = { "base", "expert" };
	struct tpl_set		*set = load_shipped();
	struct game		 g;
	struct rules_rng	 rng;
	char			 played[PROTO_MOVE_MAX + 1];
	int			 mode, n, seat, step, positions = 0;
	int			 compared = 0, skipped = 0, kinds = 0, r;

	for (mode = 0; mode < 2; mode++)
		for (n = 0; n < EVE_LEAK_GAMES; n++) {
			game_start_opts(&g, "eve", 2, (uint64_t)(7000 +
			    mode * 1000 + n), json_pack("{s:s}", "mode",
			    modes[mode]));
			played[0] = '\0';
			for (step = 0; step < MAX_MOVES; step++) {
				if (step == (n * 7) % LEAK_SPREAD ||
				    step == LEAK_SPREAD + (n * 13) % LEAK_SPREAD ||
				    acting(&g) < 0) {
					rng_init(&rng, g.seed,
					    2000000 + (uint64_t)g.seq);
					for (seat = RULES_VIEW_PUBLIC; seat < 2;
					    seat++) {
						r = check_eve_interference(set,
						    &g, seat, played[0] != '\0' ?
						    played : NULL, &rng);
						compared += r > 0;
						skipped += r == 0;
						kinds += r == 2;
					}
					positions++;
				}
				if (game_step(&g, played, sizeof(played)) < 0)
					break;
			}
			ck_assert_int_lt(step, MAX_MOVES);
			g.m->destroy(g.state);
		}
	printf("eve non-interference: %d positions, %d views compared with a "
	    "permuted state (%d with hidden card kinds moved, %d with "
	    "nothing hidden), identical\n", positions, compared, kinds,
	    skipped);
	/* the check must have had something to compare: nearly always a
	 * hidden kind moved, not just card numbers of one kind */
	ck_assert_int_ge(positions, 90);
	ck_assert_int_gt(kinds, 2 * positions);
	templates_free(set);
}
END_TEST

/*
 * Every registered game: the same non-interference check, with what a
 * viewer may not know rearranged by the game's own hider (rules/nopeek.h,
 * rules/GAME/nopeek.c, the one tests/check_nopeek.c uses), so a new game
 * is covered without a line written here.  LEAK_GAMES_EACH games (seat
 * counts in turn, default options), at three positions (two within the
 * game, varied per game, and the end), every
 * template in both languages for each seat and the public view, with the
 * game's sample illegal move refused: byte-identical.
 */
#define LEAK_GAMES_EACH	20

static int
same_to_act(const struct game *a, const struct game *b)
{
	int	x[8], y[8], nx, ny;

	nx = a->m->to_act(a->state, x, 8);
	ny = b->m->to_act(b->state, y, 8);
	return nx == ny && memcmp(x, y, sizeof(int) * (size_t)(nx < 8 ? nx :
	    8)) == 0;
}

/* Returns 0 if the game is over or the hider found nothing hidden from
 * viewer, else 1. */
static int
check_interference(const struct tpl_set *set, const struct game *g,
    const struct nopeek_hider *h, const struct nopeek_known *k,
    int viewer, const char *move, struct rules_rng *rng)
{
	struct game	 alt = *g;
	json_t		*saved, *altsaved = NULL, *c[2];
	char		 err[RULES_ERRLEN], sample[PROTO_MOVE_MAX + 1] = "";
	const char	*texts[2] = { sample, NULL };
	int		 tries;

	/* Over, every game shows what was hidden (tests/check_nopeek.c
	 * skips it too). */
	if (acting(g) < 0)
		return 0;
	saved = g->m->save(g->state);
	alt.state = NULL;
	for (tries = 0; tries < 20 && alt.state == NULL; tries++) {
		altsaved = json_deep_copy(saved);
		h->hide(altsaved, viewer, k, rng);
		if (json_equal(altsaved, saved))
			break;
		alt.state = testcards_load(g->m, altsaved, err, sizeof(err));
		if (alt.state == NULL)
			ck_abort_msg("%s: the rearranged state does not load: "
			    "%s", g->m->name, err);
		if (!same_to_act(g, &alt)) {
			g->m->destroy(alt.state);
			alt.state = NULL;
		}
		json_decref(altsaved);
		altsaved = NULL;
	}
	json_decref(altsaved);
	json_decref(saved);
	if (alt.state == NULL)
		return 0;
	if (viewer >= 0 && g->m->api_version >= 6 &&
	    g->m->sample_illegal_move(g->state, viewer, sample,
	    sizeof(sample)) != RULES_OK)
		sample[0] = '\0';
	c[0] = refused_case(g, viewer, move, sample[0] ? texts : NULL);
	c[1] = refused_case(&alt, viewer, move, sample[0] ? texts : NULL);
	same_renders(set, g, viewer, c);
	json_decref(c[0]);
	json_decref(c[1]);
	g->m->destroy(alt.state);
	return 1;
}

START_TEST(test_no_interference)
{
	const struct rules_module *m = rules_all()[_i];
	const struct nopeek_hider *h = nopeek_find(m->name);
	struct tpl_set		*set = load_shipped();
	struct nopeek_known	 k;
	struct game		 g;
	struct rules_rng	 rng;
	json_t			*saved;
	char			 played[PROTO_MOVE_MAX + 1];
	int			 n, seat, step, nseats, positions = 0;
	int			 compared = 0, length;

	ck_assert_msg(h != NULL, "ruleset %s has no no-peek hider: write "
	    "rules/%s/nopeek.c (copy rules/template/nopeek.c)", m->name,
	    m->name);
	for (n = 0; n < LEAK_GAMES_EACH; n++) {
		nseats = m->min_seats + n % (m->max_seats - m->min_seats + 1);
		/* The game once, to learn its length: the positions checked
		 * are two points within it (varied per game) and the end. */
		game_start(&g, m->name, nseats, (uint64_t)(9000 + n));
		for (length = 0; length < MAX_MOVES; length++)
			if (game_step(&g, played, sizeof(played)) < 0)
				break;
		ck_assert_int_lt(length, MAX_MOVES);
		g.m->destroy(g.state);
		game_start(&g, m->name, nseats, (uint64_t)(9000 + n));
		memset(&k, 0, sizeof(k));
		played[0] = '\0';
		for (step = 0; step <= length; step++) {
			saved = g.m->save(g.state);
			h->note(saved, &k);
			json_decref(saved);
			if (step == (n * 7) % (length + 1) ||
			    step == (length / 2 + n * 13) % (length + 1) ||
			    step == length) {
				rng_init(&rng, g.seed,
				    3000000 + (uint64_t)g.seq);
				for (seat = RULES_VIEW_PUBLIC; seat < nseats;
				    seat++)
					compared += check_interference(set, &g,
					    h, &k, seat, played[0] != '\0' ?
					    played : NULL, &rng);
				positions++;
			}
			if (step < length)
				game_step(&g, played, sizeof(played));
		}
		g.m->destroy(g.state);
	}
	printf("%s non-interference: %d positions, %d views compared with "
	    "hidden information rearranged, identical\n", m->name, positions,
	    compared);
	/* the check must have had something to compare (one position in
	 * three is the end, where nothing is hidden) */
	ck_assert_int_gt(compared, positions / 2);
	templates_free(set);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("templates");
	TCase	*tc = tcase_create("templates");
	SRunner	*sr;
	int	 failed, nmodules;

	for (nmodules = 0; rules_all()[nmodules] != NULL; nmodules++)
		;
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_all_present);
	tcase_add_test(tc, test_load_errors);
	tcase_add_test(tc, test_golden);
	tcase_add_test(tc, test_seat_names);
	tcase_add_test(tc, test_game_over_unscored);
	tcase_add_test(tc, test_stm_q_draw_lines);
	tcase_add_test(tc, test_no_hidden_cards);
	tcase_add_test(tc, test_eve_no_interference);
	tcase_add_loop_test(tc, test_no_interference, 0, nmodules);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
