/*
 * rulestest.h -- helpers shared by the rule modules' own tests
 * (check_stm_rules, check_eve, check_captains, check_hexx, check_nopeek):
 * a random stream seeded from a number, so every run makes the same
 * draws, and a whole file read into memory.
 */
#ifndef PBEM_RULESTEST_H
#define PBEM_RULESTEST_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

/* rng seeded with seed's eight bytes (the rest of the key zero), at
 * step. */
void	rulestest_rng(struct rules_rng *rng, uint64_t seed, uint64_t step);

/* The bytes of the file at path, NUL-terminated, their count in *len;
 * fails the running test when it cannot be read.  The caller frees. */
char	*rulestest_slurp(const char *path, size_t *len);

#endif
