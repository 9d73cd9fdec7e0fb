#!/bin/sh
# server-bots-test.sh -- a person plays by mail against a seat the server
# plays (docs/SERVER-BOTS.md), through the real pbemd, to the end:
#   - pbemctl makes a Ladder game alice,@bot:normal, a Parry game with
#     a named bot, a Captain's Chair game against its solo Bot at the
#     level "amiral" (its level in the view, EN and FR) and a cadet
#     training game (its score in the view); a bad level, bot_seats
#     written by hand and a name that is taken are refused and change
#     nothing;
#   - alice plays Captain's Chair by mail too, ending each turn, and the
#     Bot plays its turns (the move "bot") to the end, audited and
#     verified like the Ladder game;
#   - alice sends each move as a signed block in a mail dropped into the
#     daemon's Maildir; the daemon's scheduler plays the bot's turns (BOT
#     entries, kind 9) in its own passes, until the game is over;
#   - her view names the bot "bot (seat 1)" / "robot (siège 1)", and so
#     do her mails (Maildir outbox); no mail ever goes to the bot, which
#     has no address;
#   - with pbemd stopped, `pbemctl audit` re-runs every bot choice from
#     the revealed seed and `pbem verify` checks the exported bundle
#     (a bot move that is not the bot's choice: tests/check_bots.c).
# Needs sqlite3; skipped (77) without it.

set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
bin="$(cd "$top_builddir" && pwd)/daemon"
work=$(mktemp -d /tmp/pbem-server-bots-XXXXXX)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
cd "$work" || exit 1

. "$top_srcdir/tests/checks.sh"
command -v sqlite3 >/dev/null || skip "sqlite3 is not installed"

ctl() { "$bin/pbemctl" -d "$work/pbem.db" "$@"; }
port=$((20000 + $$ % 20000))

expect "init" 0 ctl init
expect "keygen alice" 0 "$bin/pbem" keygen -o alice.key
expect "add alice" 0 ctl player add alice --key-file alice.key.pub \
	--email alice@example.org
expect "a bot level that does not exist" 1 ctl game create template \
	alice,@bot:genius
contains "the levels are named" err.txt "the levels are random and normal"
contains "in French too" err.txt "les niveaux sont random et normal"
expect "a bot named as a player" 1 ctl game create template \
	alice,@bot:normal=alice
contains "the name is taken" err.txt "a player named alice already exists"
[ "$(sqlite3 pbem.db 'SELECT count(*) FROM players')" = 1 ] && ok ||
	bad "a refused game left players behind"
[ "$(sqlite3 pbem.db 'SELECT count(*) FROM games')" = 0 ] && ok ||
	bad "a refused game was stored"
expect "create Ladder against the bot" 0 ctl game create template \
	alice,@bot:normal
contains "game 1 created" out.txt "game 1 created: template, 2 seats"
expect "the seat's view names the bot" 0 ctl view 1 --text --seat 0 \
	--templates "$top_srcdir/templates"
contains "in English" out.txt "bot (seat 1)"
expect "in French" 0 ctl view 1 --text --seat 0 --lang fr \
	--templates "$top_srcdir/templates"
contains "in French" out.txt "robot (siège 1)"
expect "create Parry against a named bot" 0 ctl game create respond \
	alice,@bot:random=Worf
[ "$(sqlite3 pbem.db "SELECT bot FROM players WHERE name = 'Worf'")" = \
    random ] && ok || bad "the named bot has not its level"
# Captain's Chair against its solo Bot (game 3), a level in French.
expect "a Bot level Captain's Chair does not have" 1 ctl game create \
	captains alice,@bot:genius
contains "the levels named" err.txt "ensign, lieutenant, commander"
expect "create Captain's Chair against the Bot" 0 ctl game create captains \
	alice,@bot:amiral
contains "game 3 created" out.txt "game 3 created: captains, 2 seats"
expect "the Bot's level in the view" 0 ctl view 3 --text --seat 0 \
	--templates "$top_srcdir/templates"
contains "in English" out.txt "Against the Bot, Admiral level"
expect "in French" 0 ctl view 3 --text --seat 0 --lang fr \
	--templates "$top_srcdir/templates"
contains "in French" out.txt "Contre le Bot, niveau Amiral"
# Cadet training (game 4): one seat, its score in the view.
expect "create cadet training" 0 ctl game create captains alice
contains "game 4 created" out.txt "game 4 created: captains, 1 seat"
expect "the cadet score in English" 0 ctl view 4 --text --seat 0 \
	--templates "$top_srcdir/templates"
contains "in English" out.txt "Cadet training: your cadet score is"
expect "in French" 0 ctl view 4 --text --seat 0 --lang fr \
	--templates "$top_srcdir/templates"
contains "in French" out.txt "Entraînement des cadets : votre score de cadet"
expect "the creator may not write bot_seats" 1 ctl game create captains \
	alice,@bot --options '{"bot_seats": {"1": "admiral"}}'
contains "refused" err.txt "bot_seats is the server's"

# An hour between the scheduler's own passes: the bot answers each of
# alice's moves only because her commit nudges the scheduler (a pass a
# second after the last began, daemon/server/scheduler.c).
cat >pbemd.conf <<EOF
database = $work/pbem.db
templates = $top_srcdir/templates
http_port = $port
log = $work/pbemd.log
log_level = debug
schedule_interval = 3600
mail_maildir_in = $work/mail/in
mail_maildir_out = $work/mail/out
mail_quarantine = $work/mail/quarantine
mail_from = pbem@example.org
mail_maildir_interval_ms = 100
mail_send_interval_ms = 100
EOF
mkdir -p mail/in/new mail/in/cur mail/in/tmp mail/out/new mail/out/cur \
	mail/out/tmp mail/quarantine/new mail/quarantine/cur mail/quarantine/tmp
"$bin/pbemd" -c pbemd.conf -p "$port" >daemon.out 2>daemon.err &
pid=$!

# mail_move GAME SEQ SEAT MOVE: alice's signed block, mailed in.
n=0
mail_move() {
	n=$((n + 1))
	{
		printf 'From: alice@example.org\nTo: pbem@example.org\n'
		printf 'Subject: move\nMessage-ID: <move%d@example.org>\n\n' "$n"
		"$bin/pbem" sign -k alice.key -g "$1" -n "$2" -s "$3" "$4"
	} >mail/in/tmp/m$n
	mv mail/in/tmp/m$n mail/in/new/m$n
}
# The view of seat 0 of game $1 (pbemctl reads beside the daemon).
view() { ctl view "$1" --seat 0 >view.json 2>/dev/null; }
field() { python3 -c "import json,sys; v=json.load(open('view.json')); print($1)"; }

# play GAME [MOVE]: alice plays MOVE (else the first legal move) until
# the game is over.
play() {
	game=$1 want=${2:-} sent=-1
	for _ in $(seq 1 300); do
		view "$game" || { sleep 0.2; continue; }
		[ "$(field "v['over']")" = True ] && return 0
		seq=$(field "v['next_seq']")
		if [ "$(field "0 in v['to_act']")" = True ] && [ "$seq" != "$sent" ]; then
			move=$want
			[ -n "$move" ] || move=$(ctl moves "$game" 2>/dev/null |
			    awk -F '\t' '$1 == "0" { print $3; exit }')
			mail_move "$game" "$seq" 0 "$move"
			sent=$seq
		fi
		sleep 0.2
	done
	return 1
}
if command -v python3 >/dev/null; then
	play 1 && ok || bad "Ladder against the bot did not end"
	play 3 end && ok || bad "Captain's Chair against the Bot did not end"
	kill "$pid"; wait "$pid" 2>/dev/null; pid=
	cbots=$(sqlite3 pbem.db "SELECT count(*) FROM log WHERE game_id = 3 AND kind = 9")
	[ "$cbots" -ge 2 ] && ok || bad "the Bot played $cbots turns, not 2"
	[ "$(sqlite3 pbem.db "SELECT count(*) FROM log WHERE game_id = 3 AND kind = 9 AND text != 'bot'")" = 0 ] &&
		ok || bad "a Bot entry is not its move \"bot\""
	expect "audit re-runs the Bot" 0 ctl audit 3
	contains "audit" out.txt "game 3: ok"
	expect "export the Bot's game" 0 ctl export 3 -o game3.bundle
	expect "pbem verify the Bot's game" 0 "$bin/pbem" verify game3.bundle
	bots=$(sqlite3 pbem.db "SELECT count(*) FROM log WHERE game_id = 1 AND kind = 9")
	[ "$bots" -ge 3 ] && ok || bad "the bot made $bots moves, not 3"
	mine=$(sqlite3 pbem.db "SELECT count(*) FROM log WHERE game_id = 1 AND kind = 1")
	[ "$mine" -ge 3 ] && ok || bad "alice made $mine moves by mail, not 3"
	grep -l "bot (seat 1)" mail/out/new/* >/dev/null 2>&1 && ok ||
		bad "no mail names the bot \"bot (seat 1)\""
	if grep -l "^To:.*@bot" mail/out/new/* >/dev/null 2>&1; then
		bad "a mail went to the bot"
	else ok; fi
	expect "audit re-runs the bot" 0 ctl audit 1
	contains "audit" out.txt "game 1: ok"
	expect "export" 0 ctl export 1 -o game1.bundle
	expect "pbem verify" 0 "$bin/pbem" verify game1.bundle
else
	echo "server-bots-test: python3 is not installed; the mail game is skipped"
fi

echo "server-bots-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
