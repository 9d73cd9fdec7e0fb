/*
 * json.c -- arrays of integers to and from JSON, for every rule module's
 * save() and load().
 *
 * A module's state is mostly piles of card numbers; save() writes each
 * as a JSON array and load() must read it back without trusting it
 * (rules.h): rules_json_read_ints() refuses anything that is not an
 * array of at most max integers, each within lo..hi, and never writes
 * past max items.
 */
#include <stddef.h>

#include "rules.h"

json_t *
rules_json_ints(const int *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

int
rules_json_read_ints(const json_t *a, int *v, int max, int lo, int hi,
    int *n)
{
	size_t i;

	if (!json_is_array(a) || json_array_size(a) > (size_t)max)
		return -1;
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *x = json_array_get(a, i);

		if (!json_is_integer(x) || json_integer_value(x) < lo ||
		    json_integer_value(x) > hi)
			return -1;
		v[i] = (int)json_integer_value(x);
	}
	*n = (int)i;
	return 0;
}
