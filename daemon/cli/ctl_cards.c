/*
 * ctl_cards.c -- pbemctl's card files (docs/CARDFILES.md): `pbemctl cards
 * check GAME FILE`, and the FILE of `pbemctl game create ... --cards
 * FILE`, both read and judged here by the game's own cards_parse().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cardsets.h"
#include "cli.h"
#include "pbemctl.h"

/* The module of game, which must be played with a card file. */
static const struct rules_module *
card_module(const char *game)
{
	const struct rules_module *m = rules_find(game);

	if (m == NULL)
		cli_fatal("unknown ruleset \"%s\"; see `pbemctl rulesets`",
		    game);
	if (!rules_has_cards(m))
		cli_fatal("%s is not played with a card file; only card games "
		    "take one", m->name);
	return m;
}

void
ctl_cards_read(const char *game, const char *path, struct cardfile *cf)
{
	const struct rules_module *m = card_module(game);
	char err[RULES_ERRLEN + 600];
	void *set;

	if (cardfile_read(path, cf, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		exit(EX_NOINPUT);
	}
	if ((set = m->cards_parse(cf->bytes, cf->len, path, err,
	    sizeof(err))) == NULL) {
		/* The module's own words: "FILE:LINE: card ID, field F: ..." */
		fprintf(stderr, "%s\n", err);
		exit(EX_DATAERR);
	}
	m->cards_free(set);
}

/* cards check GAME FILE */
int
ctl_cmd_cards(struct ctl *c, int argc, char **argv)
{
	const struct rules_module *m;
	struct cardfile cf;

	(void)c;
	if (argc != 4 || strcmp(argv[1], "check") != 0)
		usage();
	m = card_module(argv[2]);
	ctl_cards_read(m->name, argv[3], &cf);
	printf("%s: a valid card file for %s (%s), %zu bytes, sha256 %s\n",
	    argv[3], m->name, m->title_en, cf.len, cf.hash);
	cardfile_clear(&cf);
	return 0;
}
