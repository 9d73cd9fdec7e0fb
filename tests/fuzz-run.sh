#!/bin/sh
# fuzz-run.sh -- build the libFuzzer harnesses (`make fuzz`) and run each
# for a bounded time, seeded from the test corpora; fails on the first
# crash, leak, timeout, failed property or out-of-memory (docs/MAIL.md,
# "Fuzzing").  Run it from a configured build directory:
#
#   sh ../tests/fuzz-run.sh [seconds per harness, default 60]
#
# A failing input is kept as ./fuzz-NAME-crash-... (or leak-, oom-,
# timeout-); replay it with ./tests/fuzz_NAME FILE.
set -eu
seconds=${1:-${PBEM_FUZZ_SECONDS:-60}}
top=$(cd "$(dirname "$0")/.." && pwd)
make fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# run NAME SEEDS... -- one harness over a copy of its seeds (libFuzzer
# adds what it finds to its first corpus folder; the source tree stays
# as it is).
run() {
	name=$1
	shift
	mkdir -p "$work/$name"
	cp "$@" "$work/$name/"
	echo "=== fuzz_$name: $seconds s"
	# 512 MB: far above what any input of 64 KiB may cost (the limits
	# of docs/MAIL.md), so reaching it is a failure to find.  64 KiB
	# inputs: a mail's size class; the other parsers see far less.
	if ! ./tests/fuzz_"$name" -max_total_time="$seconds" -timeout=10 \
	    -rss_limit_mb=512 -max_len=65536 -print_final_stats=1 \
	    -artifact_prefix=./fuzz-"$name"- $dict "$work/$name"; then
		echo "fuzz_$name failed: the input is ./fuzz-$name-*" >&2
		exit 1
	fi
}

dict="-dict=$top/tests/vectors/fuzz_protocol.dict"
run protocol "$top"/tests/vectors/fuzz_corpus/*
dict=
run mail "$top"/tests/mail/*.eml "$top"/tests/vectors/fuzz_corpus/*
# Move texts of every module, their options and deadline policies.
run moves "$top"/tests/vectors/fuzz_moves/*
# pbemd's configuration file and the signed-request header.
run config "$top"/contrib/pbemd.conf "$top"/tests/vectors/fuzz_corpus/*
# The JSON bodies of the HTTP API.
run body "$top"/tests/vectors/fuzz_body/*
# Delegation certificates and revocations.
run delegation "$top"/tests/vectors/fuzz_delegation/*
echo "=== fuzzing: no failure in $seconds s per harness"
