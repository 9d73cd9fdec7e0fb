#!/bin/sh
# fuzz-replay.sh -- every libFuzzer harness, built by its own `make fuzz`
# recipe but with the system compiler and tests/fuzz_replay.c for a
# main(), then run once over its seeds (the corpora tests/fuzz-run.sh
# starts from).  Run by `make check`: a harness whose sources no longer
# link (a parser that calls a new file the recipe does not list) or that
# fails on a seed is caught here, not only in tests/run-all.sh's fuzzing.
set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top=$(cd "$top_srcdir" && pwd)
build=$(cd "$top_builddir" && pwd)
# The source folder as the Makefile names it (-W wants that very name).
srcdir=$(sed -n 's/^srcdir = //p' "$build/Makefile")
work=$(mktemp -d /tmp/pbem-fuzz-replay-XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
fail=0

# replay NAME SEEDS...: build tests/fuzz_NAME's recipe into $work and run
# it on the seeds.
replay() {
	name=$1
	shift
	# make -n prints the recipe (-W: as if the harness had changed);
	# its "-o tests/fuzz_NAME" is pointed into $work.
	if ! (cd "$build" && env -u MAKEFLAGS -u MFLAGS make -s -n -o Makefile -W "$srcdir/tests/fuzz_$name.c" \
	    "tests/fuzz_$name" FUZZ_CC="${CC:-cc}" \
	    FUZZ_CFLAGS="-g -O1 $top/tests/fuzz_replay.c") >"$work/$name.sh" ||
	    ! grep -q -- "-o tests/fuzz_$name\$" "$work/$name.sh"; then
		echo "FAIL: no recipe for tests/fuzz_$name" >&2
		fail=1
		return
	fi
	sed -i "s|-o tests/fuzz_$name\$|-o $work/fuzz_$name|" "$work/$name.sh"
	if ! (cd "$build" && sh "$work/$name.sh") >"$work/$name.log" 2>&1; then
		echo "FAIL: fuzz_$name does not build:" >&2
		sed 's/^/  | /' "$work/$name.log" >&2
		fail=1
		return
	fi
	if ! "$work/fuzz_$name" "$@"; then
		echo "FAIL: fuzz_$name fails on its seeds" >&2
		fail=1
	fi
}

replay protocol "$top"/tests/vectors/fuzz_corpus
replay mail "$top"/tests/mail/*.eml "$top"/tests/vectors/fuzz_corpus
replay moves "$top"/tests/vectors/fuzz_moves
replay config "$top"/contrib/pbemd.conf "$top"/tests/vectors/fuzz_corpus
replay body "$top"/tests/vectors/fuzz_body
replay delegation "$top"/tests/vectors/fuzz_delegation
exit $fail
