#!/bin/sh
# readme-test.sh -- README.md's examples, run as written: the demo's
# commands over HTTP and by mail, for both seats (the seed draws who
# starts, so the test plays until each seat has used them), the commands
# pbemd's banner prints, `pbemd --demo` again once the demo game is over,
# and "a game from scratch".  The only edits: port 8080 becomes a free
# port, and ./daemon is the build's.  Run by `make check`.

set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
bin="$(cd "$top_builddir" && pwd)/daemon"
work=$(mktemp -d /tmp/pbem-readme-XXXXXX)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
cd "$work" || exit 1

. "$top_srcdir/tests/checks.sh"

command -v curl >/dev/null || { echo "readme-test: curl is not installed"; exit 1; }
port=$((20000 + ($$ + 7919) % 20000))
PBEM_TEMPLATES=$top_srcdir/templates
export PBEM_TEMPLATES

# block HEADING: the indented lines of README.md from the first code
# block after the line starting with HEADING, with this test's port.
block() {
	awk -v h="$1" '
		index($0, h) == 1 { on = 1; next }
		on && /^    / { sub(/^    /, ""); print; got = 1; next }
		on && got { exit }' "$top_srcdir/README.md" |
	sed "s/127\.0\.0\.1:8080/127.0.0.1:$port/g"
}
block "## Playing the demo" >demo.sh
block "### By mail" >mail.sh
block "A game from scratch" >scratch.sh
for f in demo.sh mail.sh scratch.sh; do
	[ -s $f ] && ok || bad "README.md: no example for $f"
done
contains "README: the demo plays for whoever is to play" demo.sh 'eval "$(./daemon/pbemctl turn 1)"'

start() {
	"$bin/pbemd" --demo -p "$port" >banner.txt 2>>pbemd.log &
	pid=$!
	up=0
	for _ in $(seq 1 100); do
		curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null && { up=1; break; }
		sleep 0.1
	done
	[ $up = 1 ] && ok || bad "pbemd did not answer"
}
stop() {
	kill -TERM "$pid"; wait "$pid"; pid=
}
# turn: the seat to play and the next move number, from pbemctl
turn() { eval "$("$bin/pbemctl" turn "${1:-1}")"; }

mkdir play && cd play && ln -s "$bin" daemon
start
contains "banner: foreground" banner.txt "pbemd stays in the foreground"
turn
first=$SEAT
contains "banner: whose turn" banner.txt "It is $PLAYER's turn (seat $SEAT, move 1)"
# The banner's sign-in link opens the web page's Continue form.
link=$(sed -n "s|^    \(http://127.0.0.1:$port/play/[A-Za-z0-9_-]*\)\$|\1|p" banner.txt)
contains "banner: a sign-in link for $PLAYER" banner.txt "open $PLAYER's sign-in link"
if [ -n "$link" ] && curl -sf "$link" >signin.html; then
	contains "the banner's link shows the sign-in form" signin.html 'method="post"'
else
	bad "the banner's sign-in link does not answer: '$link'"
fi
# The banner's own commands, as printed: the one to sign and post move 1.
sed -n '/^  Play move 1 as/,/moves$/p' banner.txt | sed '1d; s/^    //' >banner.sh
contains "banner: signs as the seat to play" banner.sh "-k demo/$PLAYER.key -g 1 -n 1 -s $SEAT "
sh -e banner.sh >out.txt 2>err.txt
contains "banner's command plays move 1" out.txt '"next_seq": 2'

# The README's demo commands, twice: moves 2 and 3 are the two seats'.
for n in 2 3; do
	expect "README demo commands, move $n" 0 sh -e ../demo.sh
	contains "README demo move $n accepted" out.txt "\"next_seq\": $((n + 1))"
	contains "README demo: moves has a header" out.txt "# game 1, move $n: seat "
done
turn
[ "$SEQ" = 4 ] && ok || bad "after the README's moves: next move $SEQ, expected 4"

# By mail, twice (each with its own Message-ID): each seat's mail is read.
for n in 4 5; do
	turn
	mover=$PLAYER
	expect "README mail commands, move $n" 0 sh -e ../mail.sh
	done=0
	for _ in $(seq 1 100); do
		turn
		[ "$SEQ" = $((n + 1)) ] && { done=1; break; }
		sleep 0.1
	done
	[ $done = 1 ] && ok || bad "README mail move $n was not played (next move $SEQ)"
	grep -l "^To: $mover@localhost" mail/out/new/* >/dev/null 2>&1 && ok ||
		bad "no mail for $mover after move $n"
done

# Restarted, the banner gives the commands of whoever is to play now.
stop
start
turn
contains "banner after a restart: the same game" banner.txt "Demo: game 1 of"
contains "banner after a restart" banner.txt "It is $PLAYER's turn (seat $SEAT, move $SEQ)"
# Five moves later the other seat plays: the banner has been run for both.
[ "$SEAT" != "$first" ] && ok || bad "the banner was tried for seat $first only"
sed -n "/^  Play move $SEQ as/,/moves\$/p" banner.txt | sed '1d; s/^    //' >banner.sh
sh -e banner.sh >out.txt 2>err.txt
contains "banner's command after a restart" out.txt "\"next_seq\": $((SEQ + 1))"

# The demo game over (resigned): --demo starts a new one.
"$bin/pbemctl" resign 1 0 >/dev/null 2>&1
"$bin/pbemctl" turn 1 >/dev/null 2>&1 && bad "game 1 not over after a resignation" || ok
stop
start
contains "a new demo game once it is over" banner.txt "Demo: game 2 of"
turn 2
contains "the new game's banner" banner.txt "-g 2 -n 1 -s $SEAT "
stop
cd ..

# A game from scratch, in a folder of its own.
mkdir scratch && cd scratch && ln -s "$bin" daemon
expect "README: a game from scratch" 0 sh -e ../scratch.sh
contains "from scratch: audit" out.txt "every signature, hash and state checks out"
contains "from scratch: verify" out.txt "signatures, hashes and receipts check out"
cd ..

echo "readme-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
