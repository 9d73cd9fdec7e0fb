/*
 * rulestest.c -- helpers shared by the rule modules' own tests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rulestest.h"

void
rulestest_rng(struct rules_rng *rng, uint64_t seed, uint64_t step)
{
	unsigned char key[RNG_SEED_BYTES];
	int i;

	memset(key, 0, sizeof(key));
	for (i = 0; i < 8; i++)
		key[i] = (unsigned char)(seed >> (8 * i));
	rng_init(rng, key, step);
}

char *
rulestest_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert(fseek(f, 0, SEEK_END) == 0);
	n = ftell(f);
	ck_assert(n >= 0 && fseek(f, 0, SEEK_SET) == 0);
	buf = malloc((size_t)n + 1);
	ck_assert(buf != NULL);
	ck_assert(fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}
