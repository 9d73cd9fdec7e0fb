/*
 * testcards.c -- each card module's own set for the generic tests
 * (testcards.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testcards.h"

#ifndef TESTCARDS_SRCDIR
#define TESTCARDS_SRCDIR "."
#endif

#define TESTCARDS_MAX_MODULES	64
#define TESTCARDS_MAX_BYTES	(4 * 1024 * 1024)

static const struct rules_module *loaded_module[TESTCARDS_MAX_MODULES];
static void *loaded_set[TESTCARDS_MAX_MODULES];
static int nloaded;

/* The whole file at path (malloc'd) and its length; exits on failure. */
static char *
read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (f == NULL) {
		fprintf(stderr, "testcards: %s: cannot open it\n", path);
		abort();
	}
	if ((buf = malloc(TESTCARDS_MAX_BYTES)) == NULL)
		abort();
	*len = fread(buf, 1, TESTCARDS_MAX_BYTES, f);
	fclose(f);
	return buf;
}

const void *
testcards_default(const struct rules_module *m)
{
	const char *srcdir = getenv("top_srcdir");
	char path[1024], err[RULES_ERRLEN];
	size_t len;
	char *bytes;
	void *set;
	int i;

	if (!rules_has_cards(m))
		return NULL;
	for (i = 0; i < nloaded; i++)
		if (loaded_module[i] == m)
			return loaded_set[i];
	if (srcdir == NULL || *srcdir == '\0')
		srcdir = TESTCARDS_SRCDIR;
	snprintf(path, sizeof(path), "%s/rules/%s/cards.yaml", srcdir,
	    m->name);
	bytes = read_whole(path, &len);
	set = m->cards_parse(bytes, len, path, err, sizeof(err));
	free(bytes);
	if (set == NULL || nloaded == TESTCARDS_MAX_MODULES) {
		fprintf(stderr, "testcards: %s\n", set == NULL ? err :
		    "too many card modules");
		abort();
	}
	loaded_module[nloaded] = m;
	loaded_set[nloaded] = set;
	nloaded++;
	return set;
}

void *
testcards_setup(const struct rules_module *m, int nseats,
    const json_t *options, struct rules_rng *rng, char *err, size_t errlen)
{
	return rules_setup_game(m, testcards_default(m), m->ruleset_version,
	    nseats, options, rng, err, errlen);
}

void *
testcards_load(const struct rules_module *m, const json_t *saved, char *err,
    size_t errlen)
{
	return rules_load_game(m, testcards_default(m), saved, err, errlen);
}
