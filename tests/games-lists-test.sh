#!/bin/sh
# games-lists-test.sh -- adding a game touches only its folders
# (docs/ARCHITECTURE.md, "Adding a game"):
#   - the generated lists (rules/games.mk, rules/registry_list.h,
#     rules/nopeek_list.h) are what rules/gen-games.sh makes from the game
#     folders now: a file added without remaking them fails here;
#   - a game made by copying rules/template/ and templates/*/template/
#     under a new name, and nothing else, is registered, built into the
#     rules library with its hider and templates, and plays a whole game
#     (rules/ and templates/ copied to a scratch folder; the rules
#     sources compiled there with a small main);
#   - rules/ calls no C library function that keeps state between calls
#     (strtok, rand, localtime, ...): games run on several threads.
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
CC=${CC:-cc}
fail() { echo "games-lists-test: $*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The lists in the tree are current.
mkdir -p "$tmp/now/rules"
sh "$top/rules/gen-games.sh" "$top" "$tmp/now" 2>/dev/null
for f in games.mk registry_list.h nopeek_list.h; do
	cmp -s "$tmp/now/rules/$f" "$top/rules/$f" ||
	    fail "rules/$f is not what the game folders make: run" \
	    "\`make games-lists\` (or autoreconf -fi) and build again"
done
echo "games-lists-test: the generated lists match the game folders"

# 2. A new game by copying the template's folders only.
new="$tmp/tree"
mkdir -p "$new"
cp -R "$top/rules" "$top/templates" "$new/"
rm -f "$new/rules/games.mk" "$new/rules/registry_list.h" \
    "$new/rules/nopeek_list.h"
cp -R "$new/rules/template" "$new/rules/zzcopy"
mv "$new/rules/zzcopy/template.c" "$new/rules/zzcopy/zzcopy.c"
sed -i -e 's/template_module/zzcopy_module/' -e 's/\.name = "template"/.name = "zzcopy"/' \
    "$new/rules/zzcopy/zzcopy.c"
sed -i -e 's/template_nopeek/zzcopy_nopeek/' -e 's/"template"/"zzcopy"/' \
    "$new/rules/zzcopy/nopeek.c"
for lang in en fr; do
	cp -R "$new/templates/$lang/template" "$new/templates/$lang/zzcopy"
done
sh "$top/rules/gen-games.sh" "$new" 2>/dev/null
grep -q '&zzcopy_module,' "$new/rules/registry_list.h" ||
    fail "the new game is not in registry_list.h"
grep -q '&zzcopy_nopeek,' "$new/rules/nopeek_list.h" ||
    fail "the new game's hider is not in nopeek_list.h"
for f in rules/zzcopy/zzcopy.c templates/en/zzcopy/your_turn.txt.mustache \
    templates/fr/zzcopy/waiting.txt.mustache; do
	grep -q "	$f" "$new/rules/games.mk" ||
	    fail "$f is not in games.mk"
done

# Build the rules library's sources as games.mk lists them (plus the
# core's random stream) with a main that plays the new game to its end.
cat > "$tmp/play.c" <<'CEOF'
#include <stdio.h>
#include <string.h>
#include "rng.h"
#include "rules.h"

int
main(void)
{
	const struct rules_module *m = rules_find("zzcopy");
	unsigned char seed[RNG_SEED_BYTES] = { 7 };
	struct rules_rng rng;
	char err[RULES_ERRLEN];
	json_t *opts = json_object(), *legal, *move;
	void *st;
	int seat, n;

	if (m == NULL || rules_validate_module(m, err, sizeof(err)) != 0) {
		fprintf(stderr, "zzcopy: %s\n", m ? err : "not registered");
		return 1;
	}
	rng_init(&rng, seed, 0);
	st = rules_setup_game(m, NULL, m->ruleset_version, m->min_seats,
	    opts, &rng, err, sizeof(err));
	for (n = 0; st != NULL && m->to_act(st, &seat, 1) > 0 && n < 1000;
	    n++) {
		legal = m->legal_moves(st, seat);
		move = NULL;
		if (m->parse(st, seat, json_string_value(json_array_get(legal,
		    0)), RULES_LANG_EN, &move, err, sizeof(err)) != RULES_OK ||
		    m->check(st, seat, move, RULES_LANG_EN, err,
		    sizeof(err)) != RULES_OK)
			return 1;
		rng_init(&rng, seed, (uint64_t)n + 1);
		m->apply(st, seat, move, &rng);
		json_decref(move);
		json_decref(legal);
	}
	if (st == NULL || m->result(st) == NULL)
		return 1;
	printf("zzcopy: registered, %d moves to the end\n", n);
	return 0;
}
CEOF
srcs=$(sed -n 's/^	\(rules\/[^ ]*\.c\).*/\1/p' "$new/rules/games.mk" |
    grep -v '/nopeek\.c$')
(cd "$new" && $CC -std=gnu11 -w -O0 -I rules -I "$top/daemon/common" \
    $(pkg-config --cflags jansson libsodium yaml-0.1) -o "$tmp/play" \
    "$tmp/play.c" rules/registry.c rules/text.c rules/json.c \
    rules/cardfile.c $srcs "$top/daemon/common/rng.c" \
    $(pkg-config --libs jansson libsodium yaml-0.1)) ||
    fail "the rules sources with the new game do not build"
"$tmp/play" || fail "the new game does not play to its end"

# 3. No C library call that keeps state between calls, in rules/.
if grep -rnE '\b(strtok|rand|srand|random|drand48|localtime|gmtime|ctime|asctime|strerror|getenv|setlocale|tmpnam)[[:space:]]*\(' \
    "$top/rules" --include='*.c' --include='*.h' | grep -v '^[^:]*:[0-9]*:[[:space:]]*\*'; then
	fail "rules/ calls a function that is not re-entrant (above):" \
	    "use strtok_r, the rules_rng stream, ..."
fi
echo "games-lists-test: no non-re-entrant C library call in rules/"
