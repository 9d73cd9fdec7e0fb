#!/bin/sh
# cards-test.sh -- card files end to end (docs/CARDFILES.md), with Parry
# (rules/respond/), the card module of the test games: a game created
# with the game's own set (found in the source tree, then through
# $PBEM_CARDS, and by pbemd for a game created over HTTP) and one with a
# card file of its own (--cards), each played to the end with signed
# moves through the real store; audit,
# export and `pbem verify` pass and play with the game's cards; a bundle
# whose card file was altered or replaced is refused, and so is a card
# file altered in the store; bad card files are refused by `pbemctl game
# create --cards` and `pbemctl cards check` with FILE:LINE and exit 65.
# Run by `make check` (top_builddir is set by the harness).

set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
bin="$(cd "$top_builddir" && pwd)/daemon"
work=$(mktemp -d /tmp/pbem-cards-XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 1

. "$top_srcdir/tests/checks.sh"

ctl() { "$bin/pbemctl" -d "$work/pbem.db" "$@"; }

# play GAME: every move to the end, each signed by its seat's key; in a
# response window the seat passes, so every strike scores its value.
play() {
	moves=0
	while ctl moves "$1" 2>/dev/null | grep -v '^#' >moves.txt; do
		line=$(grep '	pass$' moves.txt | head -n 1)
		[ -n "$line" ] || line=$(head -n 1 moves.txt)
		seat=$(printf '%s' "$line" | cut -f 1)
		seq=$(printf '%s' "$line" | cut -f 2)
		move=$(printf '%s' "$line" | cut -f 3)
		if [ "$seat" = 0 ]; then key=alice.key; else key=bob.key; fi
		"$bin/pbem" sign -k "$key" -g "$1" -n "$seq" -s "$seat" \
		    "$move" >move.txt
		if ! ctl submit move.txt >receipt.txt 2>err.txt; then
			bad "game $1: move $seq ($move) refused"
			cat err.txt >&2
			return
		fi
		moves=$((moves + 1))
		[ $moves -lt 200 ] || { bad "game $1 does not end"; return; }
	done
	[ $moves -gt 2 ] && ok || bad "game $1: only $moves moves played"
}

# total GAME: the sum of the seats' scores.
total() {
	ctl view "$1" --full | tr -d ' \n' | grep -o '"score":[0-9]*' |
	    cut -d: -f2 | awk '{ t += $1 } END { print t + 0 }'
}

# A card file of Parry's own shape whose strikes are worth 90 + id.
{
	echo "# strikes worth 91 to 98"
	echo "cards:"
	for i in 1 2 3 4 5 6 7 8; do
		echo "  - {id: $i, kind: strike, value: $((90 + i))}"
	done
	for i in 9 10 11 12; do
		echo "  - {id: $i, kind: parry}"
	done
} >high.yaml

# --- set-up -----------------------------------------------------------------
expect "init" 0 ctl init
expect "keygen alice" 0 "$bin/pbem" keygen -o alice.key
expect "keygen bob" 0 "$bin/pbem" keygen -o bob.key
expect "add alice" 0 ctl player add alice --key-file alice.key.pub
expect "add bob" 0 ctl player add bob --key-file bob.key.pub

# --- the game's own set, found in the source tree ---------------------------
own_hash=$(sha256sum "$top_srcdir/rules/respond/cards.yaml" | cut -d' ' -f1)
expect "create with the own set" 0 sh -c "cd '$top_srcdir' &&
	'$bin/pbemctl' -d '$work/pbem.db' game create respond alice,bob"
contains "create with the own set" out.txt "game 1 created: respond"
contains "the own set's hash" out.txt "card file of sha256 $own_hash"
play 1
t=$(total 1)
[ "$t" -gt 0 ] && [ "$t" -le 36 ] && ok ||
	bad "game 1 (strikes worth 1 to 8) totals $t"
expect "audit own set" 0 ctl audit 1
contains "audit own set" out.txt "every signature, hash and state checks out"
expect "export own set" 0 ctl export 1 -o own.json
expect "verify own set" 0 "$bin/pbem" verify own.json
contains "verify own set" out.txt "full replay from the revealed seed"
grep -q "\\\\\"cards\\\\\":\\\\\"$own_hash\\\\\"" own.json && ok ||
	bad "the genesis record does not name the card file's hash"

# --- another set: --cards FILE, and $PBEM_CARDS -----------------------------
expect "cards check" 0 ctl cards check respond high.yaml
contains "cards check" out.txt "high.yaml: a valid card file for respond"
high_hash=$(sha256sum high.yaml | cut -d' ' -f1)
contains "cards check: the hash" out.txt "sha256 $high_hash"
expect "create --cards" 0 ctl game create respond alice,bob --cards high.yaml
contains "create --cards" out.txt "game 2 created: respond"
contains "create --cards: the hash" out.txt "card file of sha256 $high_hash"
play 2
t=$(total 2)
[ "$t" -ge 182 ] && ok || bad "game 2 (strikes worth 91 to 98) totals $t"
expect "audit --cards" 0 ctl audit 2
expect "export --cards" 0 ctl export 2 -o high.json
expect "verify --cards" 0 "$bin/pbem" verify high.json
contains "verify --cards" out.txt "full replay from the revealed seed"
mkdir sets && cp high.yaml sets/respond.yaml
expect "create with PBEM_CARDS" 0 env PBEM_CARDS="$work/sets" \
	"$bin/pbemctl" -d "$work/pbem.db" game create respond alice,bob
contains "create with PBEM_CARDS" out.txt "card file of sha256 $high_hash"
if command -v sqlite3 >/dev/null; then
	n=$(sqlite3 pbem.db "SELECT count(*) FROM card_files")
	[ "$n" = 2 ] && ok || bad "card_files holds $n files, not 2 (one each)"
fi

# --- over HTTP: pbemd takes the game's own set ($PBEM_CARDS here) -------------
if command -v curl >/dev/null; then
	port=$((20000 + ($$ + 7) % 20000))
	PBEM_CARDS="$work/sets" "$bin/pbemd" -d "$work/pbem.db" -p "$port" \
	    -t "$top_srcdir/templates" >pbemd.out 2>pbemd.log &
	pid=$!
	up=0
	for _ in $(seq 1 50); do
		curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null &&
		    { up=1; break; }
		sleep 0.1
	done
	[ $up = 1 ] && ok || bad "pbemd did not answer"
	url="http://127.0.0.1:$port"
	echo '{"ruleset": "respond", "seats": 2}' >new.json
	expect "create over HTTP" 0 "$bin/pbem" request -k alice.key -p alice \
	    -u "$url" POST /v1/games new.json
	g=$(ctl game list | sed -n 's/^\([0-9]*\)	respond	.*forming.*/\1/p')
	expect "join over HTTP" 0 "$bin/pbem" request -k bob.key -p bob \
	    -u "$url" POST "/v1/games/$g/join"
	contains "join over HTTP starts the game" out.txt '"started": true'
	kill -TERM "$pid"
	wait "$pid"
	expect "export the HTTP game" 0 ctl export "$g" -o http.json
	grep -q "\\\\\"cards\\\\\":\\\\\"$high_hash\\\\\"" http.json && ok ||
		bad "game $g, created over HTTP, does not play with PBEM_CARDS's set"
else
	bad "curl is not installed"
fi

# --- bundles with another card file -----------------------------------------
# One byte of the file changed (the base64 of "# s" becomes that of "$ s").
sed 's/"base64": "IyBz/"base64": "JCBz/' high.json >altered.json
if cmp -s high.json altered.json; then
	bad "could not alter the bundle's card file"
else
	expect "altered card file" 1 "$bin/pbem" verify altered.json
	contains "altered card file" out.txt "does not hash to the one the genesis entry names"
fi
# The other game's file in its place, whole and well formed.
own_b64=$(base64 -w0 "$top_srcdir/rules/respond/cards.yaml")
own_size=$(wc -c <"$top_srcdir/rules/respond/cards.yaml")
sed "s|\"base64\": \"[^\"]*\"|\"base64\": \"$own_b64\"|
	s|\"size\": [0-9]*|\"size\": $own_size|" high.json >swapped.json
if grep -q "$own_b64" swapped.json; then
	expect "replaced card file" 1 "$bin/pbem" verify swapped.json
	contains "replaced card file" out.txt "its SHA-256 is $own_hash, the genesis names $high_hash"
else
	bad "could not replace the bundle's card file"
fi
# No card file at all.
tr -d '\n' <high.json | sed 's/, "cards": {[^}]*}//; s/"cards": {[^}]*}, //' >none.json
if grep -q '"base64"' none.json; then
	bad "could not take the card file out of the bundle"
else
	expect "no card file" 1 "$bin/pbem" verify none.json
	contains "no card file" out.txt "the log carries no card file"
fi
# A card file altered in the store.
if command -v sqlite3 >/dev/null; then
	sqlite3 pbem.db "UPDATE card_files SET bytes = CAST(replace(CAST(bytes
		AS TEXT), 'value: 98', 'value: 99') AS BLOB) WHERE hash =
		'$high_hash'"
	expect "card file altered in the store" 1 ctl audit 2
	contains "card file altered in the store" out.txt "does not hash"
else
	bad "sqlite3 is not installed"
fi

# --- bad card files -----------------------------------------------------------
sed 's/{id: 3, kind: strike, value: 93}/{id: 3, kind: sword, value: 93}/' \
	high.yaml >bad.yaml
line=$(grep -n "kind: sword" bad.yaml | cut -d: -f1)
expect "cards check refuses" 65 ctl cards check respond bad.yaml
contains "cards check refuses" err.txt "bad.yaml:$line: card 3, field kind:"
ngames=$(ctl game list | wc -l)
expect "create --cards refuses" 65 ctl game create respond alice,bob \
	--cards bad.yaml
contains "create --cards refuses" err.txt "bad.yaml:$line: card 3, field kind:"
[ "$(ctl game list | wc -l)" = "$ngames" ] && ok ||
	bad "a game was created with a refused card file"
printf 'cards: [\n' >broken.yaml
expect "not YAML" 65 ctl cards check respond broken.yaml
contains "not YAML" err.txt "broken.yaml:"
sed 's/value: 95/value: 100/' high.yaml >big.yaml
expect "value out of range" 65 ctl cards check respond big.yaml
contains "value out of range" err.txt "card 5, field value: is not a whole number from 1 to 99"
expect "missing file" 66 ctl cards check respond nowhere.yaml
contains "missing file" err.txt "nowhere.yaml: No such file or directory"
expect "not a card game" 1 ctl cards check stmissions high.yaml
contains "not a card game" err.txt "stmissions is not played with a card file"
expect "--cards for a game without cards" 1 ctl game create stmissions \
	alice,bob --cards high.yaml
contains "--cards for a game without cards" err.txt "not played with a card file"

echo "cards-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
