#!/bin/sh
# run-all.sh -- the whole test suite, as CI runs it: a normal build with
# `make check`; `make distcheck`, which plays a sample of the random games
# (PBEM_DISTCHECK_RANDOM_GAMES, default 50), of the rules-contract games
# (PBEM_RULES_API_SAMPLE) and of the browser's moves (PBEM_WEB_SAMPLE); a bounded run of the libFuzzer harnesses
# (tests/fuzz-run.sh, PBEM_FUZZ_SECONDS per harness, default 45); then the
# same suite built with AddressSanitizer and UndefinedBehaviorSanitizer,
# with the same samples.  Builds happen in _build/ and _build-asan/ so
# the source tree stays clean.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=$(nproc 2>/dev/null || echo 2)
# CI has root and the mail servers (contrib/install-deps.sh): the mail
# end-to-end test must run there, not skip.
PBEM_REQUIRE_MAIL_E2E=${PBEM_REQUIRE_MAIL_E2E:-1}
export PBEM_REQUIRE_MAIL_E2E

autoreconf -fi
# README's first command builds in the source folder; a build folder
# beside it is refused while the source folder is configured ("source
# directory already configured"), so undo that build first.  The demo's
# database, keys and mail spool are not build products and stay.
if [ -f config.status ]; then
	echo "=== the source folder was configured in place: make distclean"
	make distclean >/dev/null 2>&1 || rm -f config.status config.h
fi

echo "=== build and test (gcc -O2, -Wall -Wextra)"
rm -rf _build && mkdir _build && cd _build
../configure CFLAGS="-O2 -g" --enable-silent-rules
make -j"$jobs"
make -j"$jobs" check || { cat tests/*.log; exit 1; }
echo "=== make distcheck"
# distcheck proves the tarball builds and passes; the full count of
# random games has just been played above, so it plays a sample.
PBEM_RANDOM_GAMES=${PBEM_DISTCHECK_RANDOM_GAMES:-50} PBEM_RANDOM_MOVES=5000 \
PBEM_RULES_API_SAMPLE=1 PBEM_WEB_SAMPLE=1 make -j"$jobs" distcheck
echo "=== fuzzing (clang, libFuzzer): a crash fails the suite"
sh "$top"/tests/fuzz-run.sh "${PBEM_FUZZ_SECONDS:-45}"
cd "$top"

echo "=== build and test under AddressSanitizer + UBSan"
rm -rf _build-asan && mkdir _build-asan && cd _build-asan
../configure --enable-sanitizers CFLAGS="-O1 -g" --enable-silent-rules
make -j"$jobs"
# The normal build already played the full count of random games; here
# fewer suffice to exercise every path under the sanitizers, which run
# code several times slower (hence also the longer check timeouts).
PBEM_RANDOM_GAMES=40 PBEM_RANDOM_MOVES=5000 PBEM_RULES_API_SAMPLE=1 \
PBEM_WEB_SAMPLE=1 \
CK_TIMEOUT_MULTIPLIER=2 \
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	make -j"$jobs" check || { cat tests/*.log; exit 1; }
echo "=== all tests passed (normal, distcheck, fuzzing, ASan+UBSan)"
