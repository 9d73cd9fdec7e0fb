#!/bin/sh
# bots-test.sh -- docs/BOTS.md's example bot, run as written against a
# real pbemd: its Python code blocks joined into bot.py (and its Node.js
# blocks into bot.js when `node` is installed), then every command the
# page shows, in each language: the test vectors; a seat view and a
# move signed with version 2 of the request signature (SHA-256 body
# hash); the long-poll and the Server-Sent Events stream of every game;
# a webhook registered by a signed request, received, and its HMAC
# verified.  Run by `make
# check`; skipped (77) without python3's cryptography package.

set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
bin="$(cd "$top_builddir" && pwd)/daemon"
work=$(mktemp -d /tmp/pbem-bots-XXXXXX)
pid=
hook=
cleanup() {
	[ -n "$hook" ] && kill "$hook" 2>/dev/null
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
cd "$work" || exit 1

. "$top_srcdir/tests/checks.sh"

command -v curl >/dev/null || { echo "bots-test: curl is not installed"; exit 1; }
python3 -c 'import cryptography' 2>/dev/null ||
	skip "bots-test: python3's cryptography (python3-cryptography) is not installed"

# code LANG: the ```LANG blocks of docs/BOTS.md, in order, joined.
code() {
	awk -v lang="$1" '
		$0 == "```" lang { on = 1; next }
		on && $0 == "```" { on = 0; print ""; next }
		on { print }' "$top_srcdir/docs/BOTS.md"
}
code python >bot.py
code js >bot.js
[ -s bot.py ] && ok || bad "docs/BOTS.md: no Python code"
[ -s bot.js ] && ok || bad "docs/BOTS.md: no Node.js code"

port=$((20000 + ($$ + 4099) % 20000))
hookport=$((port + 1))
[ $hookport -ge 40000 ] && hookport=$((port - 1))
url=http://127.0.0.1:$port
"$bin/pbemd" -d bots.db -p "$port" -t "$top_srcdir/templates" \
	-o "webhook_allow_hosts=127.0.0.1:$hookport" \
	-o rate_per_address=0 -o rate_per_key=0 2>>pbemd.log &
pid=$!
up=0
for _ in $(seq 1 100); do
	curl -sf "$url/v1/health" >/dev/null && { up=1; break; }
	sleep 0.1
done
[ $up = 1 ] || { cat pbemd.log; echo "bots-test: pbemd did not answer"; exit 1; }

# Two players (BOTS.md section 1), a game between them.
for p in alice bob; do
	"$bin/pbem" keygen -o $p.key >/dev/null
	expect "register $p" 0 curl -sf -X POST "$url/v1/players" \
	    -d "{\"name\": \"$p\", \"key\": \"$(cat $p.key.pub)\"}"
done
echo '{"ruleset": "stmissions", "seats": 2}' >new.json
expect "alice creates a game" 0 "$bin/pbem" request -u "$url" -k alice.key \
    -p alice POST /v1/games new.json
expect "bob joins it" 0 "$bin/pbem" request -u "$url" -k bob.key -p bob \
    POST /v1/games/1/join
contains "the game starts" out.txt '"started": true'

# run LANG COMMAND ARGS...: the example bot in LANG (python3 or node).
run() {
	lang=$1
	shift
	if [ "$lang" = python3 ]; then python3 bot.py "$@"; else node bot.js "$@"; fi
}

langs=python3
if command -v node >/dev/null; then langs="python3 node"; else
	echo "bots-test: node is not installed; the Node.js example is not run"
fi
for lang in $langs; do
	expect "$lang: test vectors" 0 run $lang selftest
	contains "$lang: test vectors" out.txt "test vectors: ok"

	# Each seat takes its turn if it is to act (a signed seat view, then
	# a signed move block); at least one of them is.
	expect "$lang: alice's turn" 0 run $lang turn "$url" alice alice.key 1 0
	cat out.txt >turns.txt
	expect "$lang: bob's turn" 0 run $lang turn "$url" bob bob.key 1 1
	cat out.txt >>turns.txt
	grep -q '^moved seq' turns.txt && ok ||
	    bad "$lang: no seat moved: $(cat turns.txt)"

	# The long-poll of every game: the genesis entry and the moves.
	expect "$lang: events" 0 run $lang events "$url" 0
	contains "$lang: events" out.txt "event 1: game 1 seq 0 kind 0"
	contains "$lang: events" out.txt "event 2: game 1 seq 1 kind 1"
	# The stream, resumed after event 1.
	expect "$lang: stream" 0 run $lang stream "$url" 1 1
	contains "$lang: stream" out.txt "sse 2 move: game 1 seq 1"
done

# A webhook: registered with a signed request whose body is hashed with
# SHA-256, delivered on the next move, its HMAC verified.  One
# registration per language and seat (webhook_max_per_player is 5).
seat=0
for lang in $langs; do
	player=alice
	[ $seat = 1 ] && player=bob
	run $lang hook "$url" $player $player.key 1 "$hookport" >hook.txt 2>&1 &
	hook=$!
	for _ in $(seq 1 50); do
		grep -q "webhook registered" hook.txt && break
		sleep 0.1
	done
	contains "$lang: the webhook is registered" hook.txt "webhook registered"
	run $lang turn "$url" alice alice.key 1 0 >turn.txt 2>&1
	run $lang turn "$url" bob bob.key 1 1 >>turn.txt 2>&1
	contains "$lang: a move after the webhook" turn.txt "moved seq"
	for _ in $(seq 1 150); do
		kill -0 $hook 2>/dev/null || break
		sleep 0.1
	done
	contains "$lang: the webhook's signature checks" hook.txt \
	    "webhook move verified"
	kill $hook 2>/dev/null	# still waiting: no delivery came
	wait $hook 2>/dev/null
	hook=
	seat=$((1 - seat))
done

# Delegation (BOTS.md section 8): alice lets a bot key act for her in game
# 1; the example bot, unchanged, signs alice's seat view and moves with
# its own key under alice's name.  The audit checks the chain; after
# revocation the bot's key is refused again.
"$bin/pbem" keygen -o helper.key >/dev/null
expect "the bot's key alone is refused" 1 python3 bot.py turn "$url" alice \
    helper.key 1 0
expect "alice delegates game 1" 0 "$bin/pbem" delegate -u "$url" -k alice.key \
    -p alice -b helper.key.pub -g 1 -e 2099-12-31
contains "the certificate is new" out.txt '"created": true'
: >dturn.txt
for _ in 1 2 3; do
	python3 bot.py turn "$url" alice helper.key 1 0 >>dturn.txt 2>&1 ||
	    bad "the bot's turn for alice: $(cat dturn.txt)"
	python3 bot.py turn "$url" bob bob.key 1 1 >/dev/null 2>&1
done
contains "the bot moved for alice" dturn.txt "moved seq"
expect "the audit checks the chain" 0 "$bin/pbemctl" -d bots.db audit 1
contains "the audit checks the chain" out.txt "under the player's delegation certificate"
expect "alice lists her certificates" 0 "$bin/pbem" delegate list -u "$url" \
    -k alice.key -p alice
id=$(sed -n 's/.*"id": "\([0-9a-f]*\)".*/\1/p' out.txt | head -1)
expect "alice revokes it" 0 "$bin/pbem" delegate revoke -u "$url" \
    -k alice.key -p alice "$id"
expect "the revoked bot is refused" 1 python3 bot.py turn "$url" alice \
    helper.key 1 0

echo "bots-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
