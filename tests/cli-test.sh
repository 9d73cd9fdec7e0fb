#!/bin/sh
# cli-test.sh -- the command-line tools end to end, as an administrator
# and two players would use them: keys, registration, a whole game of
# Star Trek: Missions played with signed blocks, refusals with their
# codes, audit, export and offline verification, tampering caught by the
# audit, the fixed `pbemctl score` interface, and pbemd's HTTP API with
# its demo game.  Run by `make check` (top_builddir is set by the harness).

set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
bin="$(cd "$top_builddir" && pwd)/daemon"
work=$(mktemp -d /tmp/pbem-cli-XXXXXX)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
cd "$work" || exit 1

. "$top_srcdir/tests/checks.sh"

ctl() { "$bin/pbemctl" -d "$work/pbem.db" "$@"; }

# --- set-up -----------------------------------------------------------------
expect "init" 0 ctl init
contains "init" out.txt "server key ed25519:"
expect "rulesets" 0 ctl rulesets
contains "rulesets" out.txt "stmissions"
expect "keygen alice" 0 "$bin/pbem" keygen -o alice.key
expect "keygen bob" 0 "$bin/pbem" keygen -o bob.key
expect "keygen refuses to overwrite" 1 "$bin/pbem" keygen -o bob.key
contains "keygen refuses" err.txt "refusing to overwrite"
expect "add alice" 0 ctl player add alice --key-file alice.key.pub \
	--email alice@example.org
expect "add bob" 0 ctl player add bob --key-file bob.key.pub --lang fr
expect "duplicate player" 1 ctl player add alice --key-file bob.key.pub
contains "duplicate player" err.txt "already exists"
expect "keygen carol" 0 "$bin/pbem" keygen -o carol.key
expect "a name equal but for case" 1 ctl player add ALICE --key-file carol.key.pub
contains "a name equal but for case" err.txt "the name ALICE is taken: player alice exists, and names that differ only by case are the same name; choose another name"
contains "a name equal but for case, in French" err.txt "le nom ALICE est pris : le joueur alice existe, et deux noms qui ne diffèrent que par les majuscules sont le même nom"
expect "a taken key" 1 ctl player add dave --key-file alice.key.pub
contains "a taken key" err.txt "that key is already registered to another player"
expect "bad key" 1 ctl player add carol --key ed25519:nonsense
# Started by hand with umask 022 (issue 14, item 12): the database and
# the server key pbemctl init makes are readable by their owner only
# (check_store's test_file_modes sees the -wal and -shm of an open one).
(umask 022 && "$bin/pbemctl" -d "$work/umask.db" init >/dev/null) ||
	bad "init under umask 022"
for f in umask.db umask.db.key; do
	if [ "$(stat -c %a "$f" 2>/dev/null)" = 600 ]; then ok
	else bad "$f has mode $(stat -c %a "$f" 2>/dev/null) under umask 022"; fi
done
# A player whose key the server holds (docs/PLAYING.md): the key-encryption
# key is made beside the database, mode 0600; moving to a key of one's own
# destroys the hosted key.
expect "add hosted" 0 ctl player add hana --email hana@example.org --hosted
contains "add hosted" out.txt "(hosted key)"
if [ "$(stat -c %a pbem.db.kek 2>/dev/null)" = 600 ]; then ok
else bad "pbem.db.kek is not a 0600 file"; fi
expect "hosted needs an address" 1 ctl player add hugo --hosted
contains "hosted needs an address" err.txt "--email"
expect "hosted takes no key" 1 ctl player add hugo --email h@x --hosted \
	--key-file bob.key.pub
expect "keygen hana" 0 "$bin/pbem" keygen -o hana.key
expect "own key for hana" 0 ctl player key hana --key-file hana.key.pub
contains "own key for hana" out.txt "the key the server held is destroyed"
expect "too few seats" 1 ctl game create stmissions alice
contains "too few seats" err.txt "2 to 4 players"
expect "create" 0 ctl game create stmissions alice,bob
contains "create" out.txt "game 1 created"
contains "create" out.txt "seed commitment"
expect "outbox" 0 ctl outbox
contains "outbox" out.txt "mail alice@example.org"
lacks "outbox: no unix time" out.txt "next=1"
# deadlines, time zones and the game master (issue 21)
expect "policy" 0 ctl game policy 1 turn_time=3d
# Every seat of the running game hears of the change, as with `gm policy'.
expect "policy: outbox" 0 ctl outbox
contains "policy: every seat is told" out.txt "clock_changed"
expect "policy: one refused assignment changes nothing" 1 ctl game policy 1 \
	turn_time=2d missed=never
expect "policy: still 3 days" 0 ctl game policy 1
contains "policy: still 3 days" out.txt '"turn_time":259200'
expect "seats" 0 ctl seats 1
contains "seats: a deadline in words and ISO 8601" out.txt " UTC (20"
contains "seats: no vacation" out.txt "no vacation"
expect "text view: the deadline" 0 ctl view 1 --seat 0 --text \
    --templates "$top_srcdir/templates"
contains "text view: the deadline" out.txt "eadline"
expect "time zone" 0 ctl player tz bob Europe/Paris
expect "language" 0 ctl player lang alice fr
contains "language" out.txt "alice now reads in French"
expect "unknown language" 1 ctl player lang alice de
contains "unknown language" err.txt "is not a language of this server"
expect "language back" 0 ctl player lang alice en
expect "unknown time zone" 1 ctl player tz bob Mars/Olympus
contains "unknown time zone" err.txt "is not a known time zone"
expect "tick too far ahead" 1 ctl tick --at 99999999999
contains "tick too far ahead" err.txt "days ahead of now"
expect "gm extend" 0 ctl gm 1 extend 2h
expect "gm pause" 0 ctl gm 1 pause
expect "gm pause twice" 1 ctl gm 1 pause
contains "gm pause twice" err.txt "already paused"
expect "gm resume" 0 ctl gm 1 resume
expect "gm master" 0 ctl gm 1 master bob
expect "text view" 0 ctl view 1 --seat 0 --text --templates "$top_srcdir/templates"
contains "text view" out.txt "Your hand:"
contains "text view names the players" out.txt "alice (seat 0): 7 cards (you)"
contains "text view names the players" out.txt "bob (seat 1): 7 cards"
expect "text view in French" 0 ctl view 1 --seat 1 --text --lang fr \
	--templates "$top_srcdir/templates"
contains "text view in French" out.txt "Votre main"
contains "text view in French names the players" out.txt "bob (siège 1) : 7 cartes (vous)"
# Without --lang, a seat's view is in its player's language (bob: fr).
expect "text view in the seat's language" 0 ctl view 1 --seat 1 --text \
	--templates "$top_srcdir/templates"
contains "text view in the seat's language" out.txt "Votre main"

# --- refusals, each with its own code, and nothing stored --------------------
expect "moves" 0 ctl moves 1
contains "moves: a header" out.txt "# game 1, move 1: seat "
contains "moves: the columns" out.txt "# seat	seq	move"
contains "moves: the forms on stdout" out.txt "# move forms for "
contains "moves: the forms name the player" out.txt " (seat "
[ -s err.txt ] && bad "moves: standard error not empty" || ok
grep -v '^#' out.txt >moves.txt
seat=$(head -n 1 moves.txt | cut -f 1)
seq=$(head -n 1 moves.txt | cut -f 2)
move=$(head -n 1 moves.txt | cut -f 3)
if [ "$seat" = 0 ]; then key=alice.key other=bob.key; else key=bob.key other=alice.key; fi
"$bin/pbem" sign -k "$other" -g 1 -n "$seq" -s "$seat" "$move" >wrongkey.txt
expect "wrong key" 1 ctl submit wrongkey.txt
contains "wrong key" err.txt "bad_signature"
"$bin/pbem" sign -k "$key" -g 1 -n 9 -s "$seat" "$move" >future.txt
expect "future seq" 1 ctl submit future.txt
contains "future seq" err.txt "future_sequence"
"$bin/pbem" sign -k "$key" -g 1 -n "$seq" -s "$seat" "draw galaxy, discard Picard Ier" >unknown.txt
expect "unknown card" 1 ctl submit unknown.txt
contains "unknown card" err.txt "move_not_understood"
contains "unknown card lists legal forms" err.txt "draw galaxy, discard"
printf 'Hello,\n> -----BEGIN PBEM MOVE-----\n> Version: 1\n> -----END PBEM MOVE-----\n' >broken.txt
expect "malformed block" 1 ctl submit broken.txt
contains "malformed block" err.txt "malformed_block"
# A paused game takes no move by pbemctl submit either (the administrator
# paused it): why, in the language asked for (--lang), nothing stored.
"$bin/pbem" sign -k "$key" -g 1 -n "$seq" -s "$seat" "$move" >paused.txt
expect "pause for the refusal" 0 ctl gm 1 pause
expect "move to a paused game" 1 ctl submit paused.txt
contains "move to a paused game" err.txt "refused"
contains "paused: who and since when" err.txt "the administrator paused it on"
expect "move to a paused game (fr)" 1 ctl submit --lang fr paused.txt
contains "paused: who and since when (fr)" err.txt "l'administrateur l'a mise en pause le"
expect "resume after the refusal" 0 ctl gm 1 resume
expect "nothing stored" 0 ctl audit 1
contains "nothing stored" out.txt "ok, 1 entries"

# --- a whole game, each move signed by its seat and pasted as a reply --------
moves=0
while ctl moves 1 2>/dev/null | grep -v '^#' >moves.txt; do
	n=$(wc -l <moves.txt)
	pick=$(( (moves * 7919) % n + 1 ))
	line=$(sed -n "${pick}p" moves.txt)
	seat=$(printf '%s' "$line" | cut -f 1)
	seq=$(printf '%s' "$line" | cut -f 2)
	move=$(printf '%s' "$line" | cut -f 3)
	if [ "$seat" = 0 ]; then key=alice.key; else key=bob.key; fi
	# The block quoted by a mail client, with CRLF line ends.
	{ printf 'Re: your turn\r\n\r\nMy move:\r\n\r\n'
	  "$bin/pbem" sign -k "$key" -g 1 -n "$seq" -s "$seat" "$move" |
		sed 's/^/> /; s/$/\r/'; } >move.txt
	if ! ctl submit move.txt >receipt.txt 2>err.txt; then
		bad "move $seq ($move) refused"; cat err.txt >&2; break
	fi
	moves=$((moves + 1))
	[ $moves -lt 400 ] || { bad "game does not end"; break; }
done
[ $moves -gt 5 ] && ok || bad "only $moves moves played"
contains "receipt" receipt.txt "BEGIN PBEM RECEIPT"
contains "game over" receipt.txt "is over"
expect "replay the stale block" 1 ctl submit move.txt
contains "stale" err.txt "stale_sequence"
expect "moves once over" 0 ctl moves 1
contains "moves once over" out.txt "# game 1 is over"
expect "turn once over" 1 ctl turn 1
contains "turn once over" err.txt "game 1 is over"
expect "game over text" 0 ctl view 1 --seat 1 --text --lang fr \
	--templates "$top_srcdir/templates"
contains "game over text" out.txt "la partie est finie"
expect "view seat 1" 0 ctl view 1 --seat 1
contains "result revealed" out.txt "\"seed\""
contains "view: the players' names" out.txt "\"seat_names\""
tr -d ' \n' <out.txt | grep -q '"seat_names":\["alice","bob"\]' && ok ||
	bad "view: seat_names is not [alice, bob]"
expect "audit" 0 ctl audit 1
contains "audit" out.txt "every signature, hash and state checks out"
expect "replay" 0 ctl replay 1 --seat 0
grep -Eq '^== 1: (alice \(seat 0\)|bob \(seat 1\)): ' out.txt && ok ||
	bad "replay: the header of move 1 does not name its player"
expect "public text replay" 0 ctl replay 1 --public --text \
	--templates "$top_srcdir/templates"
contains "public text replay names the players" out.txt "alice (seat 0)"
contains "public text replay: the game number" out.txt "Star Trek: Missions, game 1. Seed commitment:"
grep -A1 "Seed commitment:$" out.txt | grep -q "^[0-9a-f]\{64\}$" && ok ||
	bad "public text replay: no seed commitment in the footer"
expect "export" 0 ctl export 1 -o bundle.json
expect "verify" 0 "$bin/pbem" verify bundle.json
contains "verify" out.txt "full replay from the revealed seed"
# A game recorded under Star Trek: Missions ruleset 1 (before the M10/M19
# readings changed, docs/stmissions-scoring.md) still verifies and replays
# exactly: its states record version 1, so a replay that set it up as the
# newest version would break every state hash.
expect "verify ruleset 1" 0 "$bin/pbem" verify \
	"$top_srcdir/tests/vectors/stmissions-ruleset1-game.json"
contains "verify ruleset 1" out.txt "full replay from the revealed seed"
# The same for Enterprise vs Excelsior rules version 1 (expert mode).
expect "verify eve 1" 0 "$bin/pbem" verify \
	"$top_srcdir/tests/vectors/eve-ruleset1-expert-game.json"
contains "verify eve 1" out.txt "full replay from the revealed seed"
# And rules version 2 (expert mode, a stage scored, ended with no winner),
# recorded before version 3 added the last turns and stage scores to the
# state.
expect "verify eve 2" 0 "$bin/pbem" verify \
	"$top_srcdir/tests/vectors/eve-ruleset2-expert-game.json"
contains "verify eve 2" out.txt "full replay from the revealed seed"
# And Mission to Planet Hexx! ruleset 1 (three seats of bots, a Robotic
# Union among its Surprises), recorded before ruleset 2 (docs/hexx.md).
expect "verify hexx 1" 0 "$bin/pbem" verify \
	"$top_srcdir/tests/vectors/hexx-ruleset1-game.json"
contains "verify hexx 1" out.txt "full replay from the revealed seed"

# --- a player's new key in a running game: the log records it -------------
expect "second game" 0 ctl game create stmissions alice,bob
g2=$(sed -n 's/^game \([0-9]*\) created.*/\1/p' out.txt)
ctl moves "$g2" 2>/dev/null | grep -v '^#' >moves.txt
seat=$(head -n 1 moves.txt | cut -f 1)
seq=$(head -n 1 moves.txt | cut -f 2)
move=$(head -n 1 moves.txt | cut -f 3)
if [ "$seat" = 0 ]; then who=alice; else who=bob; fi
expect "new key" 0 "$bin/pbem" keygen -o new.key
expect "player key" 0 ctl player key "$who" --key-file new.key.pub
contains "player key" out.txt "game $g2, seat $seat: the new key is in the log"
"$bin/pbem" sign -k "$who.key" -g "$g2" -n $((seq + 1)) -s "$seat" "$move" >old.txt
expect "old key refused" 1 ctl submit old.txt
contains "old key refused" err.txt "bad_signature"
"$bin/pbem" sign -k new.key -g "$g2" -n $((seq + 1)) -s "$seat" "$move" >new.txt
expect "new key plays" 0 ctl submit new.txt
expect "audit after a new key" 0 ctl audit "$g2"
expect "export after a new key" 0 ctl export "$g2" -o bundle2.json
expect "bundle names the new key" 0 grep -q "previous_key" bundle2.json

# --- tampering ---------------------------------------------------------------
if command -v sqlite3 >/dev/null; then
	sqlite3 pbem.db "DROP TRIGGER IF EXISTS log_no_update;
		UPDATE log SET text = text || ' ' WHERE game_id = 1 AND seq = 3;"
	expect "tampered log" 1 ctl audit 1
	contains "tampered log" out.txt "FAILED at entry 3"
	sed 's/"text": "draw/"text": "DRAW/' bundle.json >tampered.json
	if ! cmp -s bundle.json tampered.json; then
		expect "tampered bundle" 1 "$bin/pbem" verify tampered.json
		contains "tampered bundle" out.txt "FAILED at entry"
	fi
else
	bad "sqlite3 is not installed"
fi

# --- the fixed scoring interface ----------------------------------------------
expect "score 66" 0 ctl score stmissions G27,G08,G01,G09,M05,G32,G04
[ "$(tail -n 1 out.txt)" = 66 ] && ok || bad "score: $(tail -n 1 out.txt), expected 66"
expect "score explain" 0 ctl score stmissions \
	"Lieutenant Worf,Commander Kurn,G01,G09,M05,Torpilles à photons,G04" --explain
[ "$(tail -n 1 out.txt)" = 66 ] && ok || bad "score --explain last line"
contains "score explain" out.txt "Lieutenant Worf"
expect "score 5" 0 ctl score stmissions M01,G25
[ "$(tail -n 1 out.txt)" = 5 ] && ok || bad "Away Team + Data"
expect "score unknown card" 1 ctl score stmissions G27,X99

# --- the daemon: demo game over HTTP, clean stop on SIGTERM -------------------
if command -v curl >/dev/null; then
	mkdir d && cd d
	port=$((20000 + $$ % 20000))
	# A broken template stops the start, naming file and line.
	mkdir -p badtpl/en/stmissions
	printf 'Hello {{#hand}}\n' >badtpl/en/stmissions/help.txt.mustache
	expect "broken template" 1 "$bin/pbemd" -t badtpl -p "$port"
	contains "broken template" err.txt "help.txt.mustache:1"
	"$bin/pbemd" --demo -p "$port" -t "$top_srcdir/templates" >demo.txt 2>pbemd.log &
	pid=$!
	up=0
	for _ in $(seq 1 50); do
		curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null && { up=1; break; }
		sleep 0.1
	done
	[ $up = 1 ] && ok || bad "pbemd did not answer"
	contains "demo instructions" demo.txt "./daemon/pbem sign -k demo/"
	curl -s "http://127.0.0.1:$port/v1/games/1" >view.json
	contains "public view" view.json '"to_act"'
	curl -s "http://127.0.0.1:$port/v1/games/1/text?lang=fr" >view.txt
	contains "text view over HTTP" view.txt "Défausse"
	"$bin/pbemctl" moves 1 2>/dev/null | grep -v '^#' >moves.txt
	seat=$(head -n 1 moves.txt | cut -f 1)
	move=$(head -n 1 moves.txt | cut -f 3)
	if [ "$seat" = 0 ]; then key=demo/alice.key; else key=demo/bruno.key; fi
	"$bin/pbem" sign -k "$key" -g 1 -n 1 -s "$seat" "$move" |
		curl -s --data-binary @- "http://127.0.0.1:$port/v1/games/1/moves" >posted.json
	contains "move over HTTP" posted.json '"next_seq": 2'
	"$bin/pbem" sign -k "$key" -g 1 -n 1 -s "$seat" "$move" |
		curl -s --data-binary @- "http://127.0.0.1:$port/v1/games/1/moves" >stale.json
	contains "stale over HTTP" stale.json '"code": "stale_sequence"'
	"$bin/pbem" sign -k "$key" -g 1 -n 2 -s "$seat" "$move" |
		curl -s --data-binary @- "http://127.0.0.1:$port/v1/games/7/moves" >wrong.json
	contains "block for another game" wrong.json '"code": "wrong_game"'
	curl -s "http://127.0.0.1:$port/v1/nothing" >nf.json
	contains "404" nf.json '"not_found"'
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	pid=
	[ $rc = 0 ] && ok || bad "pbemd exit code $rc after SIGTERM"
	cd ..
else
	bad "curl is not installed"
fi

# pbem delegate (docs/PROTOCOL.md section 13): the certificate printed,
# for HTTP (-n) and for a mail (-m); its refusals.
expect "delegate -n" 0 "$bin/pbem" delegate -n -k alice.key -p alice \
    -b carol.key.pub -g 1 -V -e 2030-01-01
contains "delegate -n: a certificate" out.txt '"scope":"views"'
contains "delegate -n: signed" out.txt '"signature":"'
contains "delegate -n: through that day" out.txt '"expires":1893542400'
expect "delegate -m" 0 "$bin/pbem" delegate -m -k alice.key -p alice \
    -b "$(cat carol.key.pub)" -e 2030-01-01T12:00:00Z
contains "delegate -m: for a mail" out.txt "-----BEGIN PBEM DELEGATION-----"
contains "delegate -m: all games" out.txt '"game":"all"'
expect "delegate: a bad date" 1 "$bin/pbem" delegate -n -k alice.key \
    -p alice -b carol.key.pub -e 2030-02-30
contains "delegate: a bad date" err.txt "YYYY-MM-DD"
expect "delegate: a bad bot key" 1 "$bin/pbem" delegate -n -k alice.key \
    -p alice -b nonsense -e 2030-01-01
expect "delegate: no bot key" 64 "$bin/pbem" delegate -n -k alice.key \
    -p alice -e 2030-01-01
expect "delegate revoke: a bad id" 1 "$bin/pbem" delegate revoke \
    -k alice.key -p alice xyz
expect "request -2 -H" 0 "$bin/pbem" request -2 -H -k alice.key -p alice \
    GET /v1/players/me
contains "request -2: version 2" out.txt "version=2"

echo "cli-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
