#!/bin/sh
# man-test.sh -- the manual pages (docs/man/, mdoc) have no error nor
# warning: `mandoc -T lint -W warning` when mandoc is installed
# (contrib/install-deps.sh installs it), else `groff -mdoc -ww -z`; every
# option pbemd knows is in pbemd.conf(5); every pbemctl command is in
# pbemctl(8); each program's exit codes are in its page; every option of
# the IRC bot is in pbem-ircbot(1).
set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
bin="$(cd "$top_builddir" && pwd)/daemon"
man="$top_srcdir/docs/man"
work=$(mktemp -d /tmp/pbem-man-XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
. "$top_srcdir/tests/checks.sh"

for page in pbem.1 pbemd.conf.5 pbemctl.8 pbemd.8 pbem-ircbot.1; do
	if command -v mandoc >/dev/null; then
		mandoc -T lint -W warning "$man/$page" >"$work/lint" 2>&1
	elif command -v groff >/dev/null; then
		groff -mdoc -ww -z "$man/$page" >"$work/lint" 2>&1
	else
		skip "man-test: neither mandoc nor groff is installed"
	fi
	if [ -s "$work/lint" ]; then bad "$page: $(cat "$work/lint")"; else ok; fi
done

# Every option of pbemd's table, as `pbemd -n -v` prints them.
"$bin/pbemd" -n -v -t "$top_srcdir/templates" 2>/dev/null |
    sed -n 's/^\([a-z_]*\) = .*/\1/p' >"$work/options"
[ "$(wc -l <"$work/options")" -gt 50 ] && ok || bad "pbemd -n -v lists too few options"
while read -r option; do
	grep -q "^\.It Cm $option Ar " "$man/pbemd.conf.5" && ok ||
	    bad "pbemd.conf.5 does not describe $option"
done <"$work/options"

# Every pbemctl command of its usage.
"$bin/pbemctl" --help | sed -n 's/^  \([a-z][a-z]*\).*/\1/p' |
    grep -v '^pbemctl$' | sort -u >"$work/commands"
[ "$(wc -l <"$work/commands")" -gt 15 ] && ok || bad "pbemctl --help lists too few commands"
while read -r cmd; do
	grep '^\.It Cm ' "$man/pbemctl.8" | grep -qw -- "$cmd" && ok ||
	    bad "pbemctl.8 does not describe $cmd"
done <"$work/commands"

# Every option each program's --help names (-x, --long) is in its page,
# as Fl x or Fl -long (or after a | in a Fl list: .Fl -help | -version).
for pair in pbemd:pbemd.8 pbemctl:pbemctl.8 pbem:pbem.1; do
	prog=${pair%%:*} page=${pair#*:}
	"$bin/$prog" --help 2>&1 |
	    grep -oE -- '(^|[][ |(])--?[a-zA-Z0-9][a-z0-9-]*([],: |=]|$)' |
	    sed -e 's/^[][ |(]*//' -e 's/[],: |=]*$//' | sort -u >"$work/flags"
	[ "$(wc -l <"$work/flags")" -gt 5 ] && ok ||
	    bad "$prog --help lists too few options"
	while read -r flag; do
		grep -qE -- "(Fl|Fl .* \|) ${flag#-}([^a-zA-Z0-9-]|\$)" "$man/$page" &&
		    ok || bad "$page does not describe $flag"
	done <"$work/flags"
done

# The exit codes each program's --help names are in its page.
for pair in pbemd:pbemd.8 pbemctl:pbemctl.8 pbem:pbem.1; do
	prog=${pair%%:*} page=${pair#*:}
	grep -q "EX_USAGE" "$man/$page" && ok || bad "$page lacks EX_USAGE"
	grep -q "^\.Sh EXIT STATUS" "$man/$page" && ok || bad "$page lacks EXIT STATUS"
done
grep -q "EX_CONFIG" "$man/pbemd.8" && ok || bad "pbemd.8 lacks EX_CONFIG"

# Every option of the IRC bot (contrib/ircbot/pbem-ircbot --help) is in
# pbem-ircbot.1.
if command -v python3 >/dev/null; then
	python3 "$top_srcdir/contrib/ircbot/pbem-ircbot" --help |
	    grep -o -- '--[a-z][a-z-]*' | grep -v -- '--help' | sort -u \
	    >"$work/ircbot"
	[ "$(wc -l <"$work/ircbot")" -gt 8 ] && ok ||
	    bad "pbem-ircbot --help lists too few options"
	while read -r option; do
		grep -q "^\.It Fl -${option#--}" "$man/pbem-ircbot.1" && ok ||
		    bad "pbem-ircbot.1 does not describe $option"
	done <"$work/ircbot"
fi

echo "man-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
