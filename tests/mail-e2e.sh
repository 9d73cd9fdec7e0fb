#!/bin/sh
# mail-e2e.sh -- the mail gateway against real mail servers on loopback.
#
# Starts a private Postfix (SMTP on 127.0.0.1, virtual Maildirs) and a
# private Dovecot (IMAP on 127.0.0.1) with their configuration, queue and
# mail under one temporary folder -- the machine's own mail services, if
# any, are not touched -- and pbemd with the gateway: IMAP polling of
# pbem@pbem.test in, SMTP to Postfix out.  Then:
#   1. moves are sent with swaks as quoted-printable, base64, a reply
#      quoting the previous block above the new one, and HTML only;
#   2. each player's mailbox is read over IMAP with curl: the right
#      mails arrived, and no mail to a seat holds the other seat's hand;
#   3. a signed STATUS is answered to the seat's own address;
#   4. Postfix is stopped, a move comes in by `pbemd deliver` (the MTA
#      pipe mode): its mails wait in the outbox, retried; Postfix comes
#      back and they are delivered;
#   5. two players whose keys the server holds play a whole game of
#      Ladder only by replying to their your-turn mails, each move in
#      another client's shape (top-posted with "Sent from my iPhone",
#      bottom-posted with a signature, HTML only, quoted-printable with
#      "Envoyé de mon iPhone", base64, format=flowed); a reply from
#      another address with a valid token and a reused token play
#      nothing and are answered; the audit names the hosted moves;
#   6. a newcomer signs up by mail and confirms by replying;
#   7. alice (English) and bruno (French) send a delegation certificate
#      and then its revocation, each from `pbem delegate -m` and
#      `pbem delegate revoke -m`, by mail from another address: answered
#      at their own address in their language, recorded in game 1's log
#      (kinds 10 and 11); a revocation signed by another key is answered
#      to its sender and changes nothing.
# Needs root and postfix, dovecot-imapd, swaks, curl, sqlite3 (see
# contrib/install-deps.sh).  Without them it skips (exit 77) -- unless
# PBEM_REQUIRE_MAIL_E2E=1, as CI sets, when it fails instead.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
PBEMD=$top_builddir/daemon/pbemd
PBEMCTL=$top_builddir/daemon/pbemctl
PBEM=$top_builddir/daemon/pbem
. "$top_srcdir/tests/checks.sh"
fail() {
	echo "FAIL: $*"
	for f in "$T"/postfix.log "$T"/dovecot.log "$T"/pbemd.log "$T"/r.txt; do
		[ -f "$f" ] && { echo "--- $f"; tail -40 "$f"; }
	done
	exit 1
}

[ "$(id -u)" = 0 ] || skip "needs root to start Postfix and Dovecot"
for p in postfix dovecot swaks curl sqlite3; do
	command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] ||
	    skip "$p is not installed (contrib/install-deps.sh)"
done
PATH=$PATH:/usr/sbin

T=$(mktemp -d /tmp/pbem-mail-e2e.XXXXXX)
chmod 755 "$T"
SMTP=$((20000 + $$ % 20000))
IMAP=$((SMTP + 1))
HTTP=$((SMTP + 2))
VUID=5000
DOM=pbem.test
PFX="$T/postfix"
PBEMD_PID=
cleanup() {
	[ -n "$PBEMD_PID" ] && kill "$PBEMD_PID" 2>/dev/null
	postfix -c "$PFX" stop >/dev/null 2>&1
	[ -f "$T/dovecot-run/master.pid" ] &&
	    kill "$(cat "$T/dovecot-run/master.pid")" 2>/dev/null
	sleep 0.5
	[ "${PBEM_KEEP_E2E:-0}" = 1 ] || rm -rf "$T"
}
trap cleanup EXIT INT TERM

# ---- Postfix: SMTP on loopback, virtual Maildirs under $T/mail ----------
mkdir -p "$PFX" "$T/mail" "$T/pq" "$T/pdata"
chown -R $VUID:$VUID "$T/mail"
chown postfix "$T/pdata"
cat > "$PFX/main.cf" <<EOF
compatibility_level = 3.6
queue_directory = $T/pq
data_directory = $T/pdata
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mx.$DOM
mydomain = $DOM
myorigin = $DOM
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
mynetworks = 127.0.0.0/8
smtpd_recipient_restrictions = permit_mynetworks, reject
virtual_mailbox_domains = $DOM
virtual_mailbox_base = $T/mail
virtual_mailbox_maps = texthash:$PFX/vmailbox
virtual_uid_maps = static:$VUID
virtual_gid_maps = static:$VUID
smtputf8_enable = no
message_size_limit = 20480000
EOF
cat > "$PFX/master.cf" <<EOF
127.0.0.1:$SMTP inet n - n - - smtpd
pickup    unix n - n 60 1 pickup
cleanup   unix n - n - 0 cleanup
qmgr      unix n - n 300 1 qmgr
rewrite   unix - - n - - trivial-rewrite
bounce    unix - - n - 0 bounce
defer     unix - - n - 0 bounce
trace     unix - - n - 0 bounce
verify    unix - - n - 1 verify
flush     unix n - n 1000? 0 flush
proxymap  unix - - n - - proxymap
smtp      unix - - n - - smtp
relay     unix - - n - - smtp
error     unix - - n - - error
retry     unix - - n - - error
discard   unix - - n - - discard
virtual   unix - n n - - virtual
anvil     unix - - n - 1 anvil
scache    unix - - n - 1 scache
showq     unix n - n - - showq
EOF
for u in pbem alice bruno hana hugo mallory zoe; do
	echo "$u@$DOM $DOM/$u/"
done > "$PFX/vmailbox"
postfix -c "$PFX" check >"$T/postfix-check.log" 2>&1 ||
    skip "postfix check failed: $(tail -3 "$T/postfix-check.log")"
# 1 if something listens on 127.0.0.1:PORT (curl exit 7: refused).
port_open() {
	curl -s --max-time 2 "telnet://127.0.0.1:$1" </dev/null >/dev/null 2>&1
	[ $? -ne 7 ]
}
start_postfix_any() {
	postfix -c "$PFX" start >>"$T/postfix-start.log" 2>&1 || return 1
	i=0
	while ! port_open "$SMTP"; do
		i=$((i + 1)); [ $i -gt 50 ] && return 1; sleep 0.1
	done
}
start_postfix_any || skip "Postfix did not start: $(tail -3 "$T/postfix-start.log" 2>/dev/null)"

# ---- Dovecot: IMAP on loopback over the same Maildirs --------------------
for u in pbem alice bruno hana hugo mallory zoe; do
	echo "$u@$DOM:{PLAIN}secret-$u:$VUID:$VUID::$T/mail/$DOM/$u::"
done > "$T/users"
chmod 644 "$T/users"
cat > "$T/dovecot.conf" <<EOF
base_dir = $T/dovecot-run
state_dir = $T/dovecot-state
log_path = $T/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = $VUID
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $T/users
}
userdb {
  driver = passwd-file
  args = username_format=%u $T/users
}
mail_location = maildir:~
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
EOF
dovecot -c "$T/dovecot.conf" >"$T/dovecot-start.log" 2>&1 ||
    skip "Dovecot did not start: $(tail -3 "$T/dovecot-start.log")"
i=0
while ! port_open "$IMAP"; do
	i=$((i + 1)); [ $i -gt 50 ] && skip "Dovecot does not listen"; sleep 0.1
done

imap() {	# imap USER URL-SUFFIX [curl args...]
	u=$1; shift; s=$1; shift
	curl -s --max-time 10 -u "$u@$DOM:secret-$u" \
	    "imap://127.0.0.1:$IMAP/INBOX$s" "$@"
}
count_mail() {	# messages in USER's INBOX
	imap "$1" "" -X "SEARCH ALL" | tr -d '\r' |
	    awk '/^\* SEARCH/ { print NF - 2; found = 1 } END { if (!found) print 0 }'
}
fetch_all() {	# every message of USER, separated by a line =====
	for uid in $(imap "$1" "" -X "UID SEARCH ALL" | tr -d '\r' |
	    sed -n 's/^\* SEARCH//p'); do
		echo "====="
		imap "$1" "/;UID=$uid" | tr -d '\r'
	done
}
wait_mail() {	# wait_mail USER N: until USER has at least N mails
	i=0
	while [ "$(count_mail "$1")" -lt "$2" ]; do
		i=$((i + 1))
		[ $i -gt 150 ] && fail "$1 has $(count_mail "$1") mails, expected $2"
		sleep 0.2
	done
}

# ---- pbem: players, a game, the daemon ----------------------------------
DB=$T/pbem.db
cd "$T" || exit 1
$PBEMCTL -d "$DB" init >/dev/null || fail "pbemctl init"
$PBEM keygen -o alice.key >/dev/null && $PBEM keygen -o bruno.key >/dev/null ||
    fail "keygen"
$PBEMCTL -d "$DB" player add alice --key-file alice.key.pub \
    --email "alice@$DOM" >/dev/null || fail "player alice"
$PBEMCTL -d "$DB" player add bruno --key-file bruno.key.pub \
    --email "bruno@$DOM" --lang fr >/dev/null || fail "player bruno"
$PBEMCTL -d "$DB" game create stmissions alice,bruno >/dev/null ||
    fail "game create"

MAILOPTS="-o mail_from=pbem@$DOM -o mail_smtp_url=smtp://127.0.0.1:$SMTP \
 -o mail_imap_url=imap://127.0.0.1:$IMAP/INBOX -o mail_imap_user=pbem@$DOM \
 -o mail_imap_password=secret-pbem -o mail_imap_interval=1 \
 -o mail_maildir_in=$T/in -o mail_quarantine=$T/quarantine \
 -o mail_send_interval_ms=200 -o mail_retry_base=1 -o mail_retry_max=2 \
 -o mail_max_attempts=100 -o mail_timeout=5"
# shellcheck disable=SC2086
$PBEMD -v -d "$DB" -p "$HTTP" -t "$top_srcdir/templates" $MAILOPTS \
    >"$T/pbemd.out" 2>"$T/pbemd.log" &
PBEMD_PID=$!
sleep 1
kill -0 "$PBEMD_PID" 2>/dev/null || fail "pbemd did not start"

to_act() {
	$PBEMCTL -d "$DB" view 1 | tr -d ' \n' |
	    sed -n 's/.*"to_act":\[\([0-9]*\).*/\1/p'
}
next_seq() {
	$PBEMCTL -d "$DB" view 1 | sed -n 's/.*"next_seq": *\([0-9]*\).*/\1/p'
}
name_of() { [ "$1" = 0 ] && echo alice || echo bruno; }
# The ids of the cards in seat S's hand now.
hand_of() {
	$PBEMCTL -d "$DB" view 1 --seat "$1" | tr -d ' \n' |
	    sed -n 's/.*"hand":\[\([^]]*\)\].*/\1/p' |
	    grep -o '"id":"[GM][0-9]*"' | cut -d'"' -f4
}
sign() {	# sign SEAT SEQ TEXT
	$PBEM sign -k "$(name_of "$1").key" -g 1 -n "$2" -s "$1" "$3"
}
played() {	# wait until the next sequence number is N
	i=0
	while [ "$(next_seq)" != "$1" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && fail "move $(($1 - 1)) was not played"
		sleep 0.2
	done
}
send() {	# send FROM-NAME SUBJECT BODYFILE [swaks header args]
	from=$1; subj=$2; body=$3; shift 3
	swaks -s 127.0.0.1 -p "$SMTP" -f "$from@$DOM" -t "pbem@$DOM" \
	    --header "Subject: $subj" "$@" --body "$body" \
	    >>"$T/swaks.log" 2>&1 || fail "swaks: $(tail -5 "$T/swaks.log")"
}
qp_encode() {	# = as =3D; lines over 70 soft-broken
	sed 's/=/=3D/g' | awk '{ while (length($0) > 70) {
	    print substr($0, 1, 70) "="; $0 = substr($0, 71) } print }'
}

MOVE="draw galaxy, discard drawn"
# Move 1: quoted-printable.
S=$(to_act); N=$(next_seq)
[ -n "$S" ] && [ "$N" = 1 ] || fail "no game to play"
{ printf 'My first move:\n\n'; sign "$S" 1 "$MOVE"; } | qp_encode > m1.txt
sign "$S" 1 "$MOVE" > block1.txt
send "$(name_of "$S")" "move 1" m1.txt \
    --add-header "MIME-Version: 1.0" \
    --add-header "Content-Type: text/plain; charset=utf-8" \
    --add-header "Content-Transfer-Encoding: quoted-printable"
played 2
echo "ok: move 1 (quoted-printable) played"

# Move 2: base64.
S=$(to_act)
{ printf 'Mon coup, sign\303\251 :\n\n'; sign "$S" 2 "$MOVE"; } |
    base64 > m2.txt
send "$(name_of "$S")" "coup 2" m2.txt \
    --add-header "MIME-Version: 1.0" \
    --add-header "Content-Type: text/plain; charset=utf-8" \
    --add-header "Content-Transfer-Encoding: base64"
played 3
echo "ok: move 2 (base64) played"

# Move 3: a reply quoting the previous block above the new one.
S=$(to_act)
{ printf 'On Monday you wrote:\n'; sed 's/^/> /' block1.txt
  printf '\nMy move now:\n\n'; sign "$S" 3 "$MOVE"; } > m3.txt
send "$(name_of "$S")" "Re: [pbem #1] move 3" m3.txt
played 4
echo "ok: move 3 (reply quoting an older block) played"

# Move 4: HTML only.
S=$(to_act)
{ printf '<html><body><p>Move:</p><div>'
  sign "$S" 4 "$MOVE" | sed 's/$/<br>/'
  printf '</div></body></html>\n'; } > m4.txt
send "$(name_of "$S")" "move 4" m4.txt \
    --add-header "MIME-Version: 1.0" \
    --add-header "Content-Type: text/html; charset=utf-8"
played 5
echo "ok: move 4 (HTML only) played"

# A signed STATUS from seat 0, sent from an address that is not alice's:
# the answer goes to alice's registered address only.
sign 0 5 STATUS > status.txt
swaks -s 127.0.0.1 -p "$SMTP" -f "someone@$DOM" -t "pbem@$DOM" \
    --header "Subject: status" --body status.txt >>"$T/swaks.log" 2>&1 ||
    fail "swaks status"

# The game's opening mail (your turn / the game begins), one mail per
# seat for each of the 4 moves, plus the STATUS answer.
wait_mail alice 6
wait_mail bruno 5
fetch_all alice > alice.mbox
fetch_all bruno > bruno.mbox
grep -c '^Auto-Submitted: auto-' alice.mbox >/dev/null || fail "no Auto-Submitted"
grep -q '^Subject: \[pbem #1\]' alice.mbox || fail "no [pbem #1] subject tag"
grep -q '^References: <pbem.game1@' bruno.mbox || fail "no References thread"
grep -q 'BEGIN PBEM RECEIPT' alice.mbox || fail "no receipt in alice's mail"
grep -q 'status after move 4' alice.mbox || fail "no STATUS answer to alice"
cat alice.mbox bruno.mbox | grep -q 'your turn (move 1)\|vous de jouer (coup' ||
    fail "no opening 'your turn' mail"
cat alice.mbox bruno.mbox | grep -q 'the game begins\|la partie commence' ||
    fail "no opening 'the game begins' mail"
grep -q '^To: alice@' alice.mbox && ! grep -q '^To: bruno@' alice.mbox ||
    fail "alice's mailbox holds a mail to bruno"
echo "ok: each player got the opening mail, the mails of moves 1-4 and the STATUS answer"

# No mail to a seat holds the other seat's hand: the newest mails of each
# (after move 4, the state both hands are now in) name none of the other
# seat's cards.
last_mail() { awk '/^=====/ { n++ } { m[n] = m[n] $0 "\n" } END { printf "%s", m[n] }' "$1"; }
for s in 0 1; do
	me=$(name_of "$s"); other=$(name_of $((1 - s)))
	last_mail "$me.mbox" > "$me.last"
	for id in $(hand_of $((1 - s))); do
		grep -q "$id" "$me.last" &&
		    fail "the last mail to $me shows $id from $other's hand"
	done
	for id in $(hand_of "$s"); do
		grep -q "$id" "$me.last" ||
		    fail "the last mail to $me lacks $id of its own hand"
	done
done
# The STATUS answer to alice, whichever came last.
awk '/^=====/ { keep = 0 } /status after move/ { keep = 1 } keep' \
    alice.mbox > alice.status
for id in $(hand_of 1); do
	grep -q "$id" alice.status && fail "alice's STATUS shows bruno's $id"
done
echo "ok: no mail shows the other seat's hand"

# ---- The MTA goes away: mail waits in the outbox, then goes out ----------
postfix -c "$PFX" stop >/dev/null 2>&1
i=0
while port_open "$SMTP"; do
	i=$((i + 1)); [ $i -gt 50 ] && fail "Postfix did not stop"; sleep 0.1
done
A0=$(count_mail alice); B0=$(count_mail bruno)
S=$(to_act)
{ printf 'From: %s@%s\nTo: pbem@%s\nSubject: move 5\nMessage-ID: <m5@%s>\n\n' \
    "$(name_of "$S")" "$DOM" "$DOM" "$DOM"; sign "$S" 5 "$MOVE"; } > m5.eml
$PBEMD deliver -d "$DB" -f "$(name_of "$S")@$DOM" -m quarantine="$T/quarantine" \
    < m5.eml 2>>"$T/deliver.log"
rc=$?
[ $rc = 0 ] || fail "pbemd deliver exited $rc: $(tail -2 "$T/deliver.log")"
# The same message again (an MTA retrying): exit 0, a duplicate.
$PBEMD deliver -d "$DB" < m5.eml 2>>"$T/deliver.log" ||
    fail "pbemd deliver of a duplicate failed"
grep -q "duplicate" "$T/deliver.log" || fail "second delivery not a duplicate"
[ "$(next_seq)" = 6 ] || fail "move 5 (pbemd deliver) was not played"
i=0
while [ "$(sqlite3 "$DB" "SELECT count(*) FROM outbox WHERE channel = 'mail' AND status = 0 AND attempts > 0")" -lt 2 ]; do
	i=$((i + 1)); [ $i -gt 100 ] && fail "no failed attempt recorded"
	sleep 0.2
done
echo "ok: with the MTA down, move 5's mails wait in the outbox (retrying)"
start_postfix_any || fail "Postfix did not restart"
wait_mail alice $((A0 + 1))
wait_mail bruno $((B0 + 1))
i=0
while [ "$(sqlite3 "$DB" "SELECT count(*) FROM outbox WHERE channel = 'mail' AND status = 0")" != 0 ]; do
	i=$((i + 1)); [ $i -gt 100 ] && fail "the outbox did not empty"
	sleep 0.2
done
echo "ok: once the MTA is back, the waiting mails are delivered"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM outbox WHERE status = 2")" = 0 ] ||
    fail "some mail failed for good"

# ---- Playing by plain replies (docs/PLAYING.md) ----------------------------
$PBEMCTL -d "$DB" player add hana --email "hana@$DOM" --hosted >/dev/null ||
    fail "player hana"
$PBEMCTL -d "$DB" player add hugo --email "hugo@$DOM" --hosted --lang fr \
    >/dev/null || fail "player hugo"
$PBEMCTL -d "$DB" game create template hana,hugo >/dev/null ||
    fail "game 2"
g2() { $PBEMCTL -d "$DB" view 2 "$@"; }
to_act2() { g2 | tr -d ' \n' | sed -n 's/.*"to_act":\[\([0-9]*\).*/\1/p'; }
next2() { g2 | sed -n 's/.*"next_seq": *\([0-9]*\).*/\1/p'; }
card2() {	# a card of seat S's hand (0 is a played one)
	g2 --seat "$1" | tr -d ' \n' | sed -n 's/.*"hand":\[\([0-9,]*\)\].*/\1/p' |
	    tr ',' '\n' | grep -v '^0$' | head -1
}
played2() {
	i=0
	while [ "$(next2)" != "$1" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && fail "game 2: move $(($1 - 1)) was not played"
		sleep 0.2
	done
}
# wait_turn USER N: until USER has the your-turn mail of game 2 for move
# N -- the one whose Message-ID carries the reply token of entry N-1 --
# and put it in USER.turn.
wait_turn() {
	i=0
	while :; do
		fetch_all "$1" > "$1.mbox"
		awk -v id="<pbem.2.$(($2 - 1)).o" '/^=====/ { if (keep) last = m;
		    keep = 0; m = "" } { m = m $0 "\n" }
		    tolower($0) ~ /^message-id:/ && index($0, id) &&
		    index($0, "pbem-reply-") { keep = 1 }
		    END { if (keep) last = m; printf "%s", last }' \
		    "$1.mbox" > "$1.turn"
		[ -s "$1.turn" ] && return 0
		i=$((i + 1))
		[ $i -gt 150 ] && fail "$1 has no your-turn mail for move $2"
		sleep 0.2
	done
}
mid_of() { grep -i '^Message-Id:' "$1" | head -1 | sed 's/^[^<]*//'; }
body_of() { awk 'b { print } /^$/ { b = 1 }' "$1"; }
# reply USER SHAPE MOVE [swaks args]: a reply to USER.turn.
reply() {
	ru=$1; rshape=$2; rmv=$3; shift 3
	mid=$(mid_of "$ru.turn")
	body_of "$ru.turn" | sed 's/^/> /' > quote.txt
	set -- --add-header "In-Reply-To: $mid" --add-header "References: $mid" \
	    --add-header "MIME-Version: 1.0" "$@"
	case $rshape in
	top)
		{ printf '%s\n\nSent from my iPhone\n\nOn 1 Jan 2026, at 10:00, ' "$rmv"
		  printf 'pbem <pbem@%s> wrote:\n\n' "$DOM"; cat quote.txt; } > r.txt
		send "$ru" "Re: turn" r.txt "$@" \
		    --add-header "Content-Type: text/plain; charset=utf-8" ;;
	bottom)
		{ printf 'On Mon, 1 Jan 2026 at 10:00, pbem <pbem@%s>\nwrote:\n' "$DOM"
		  cat quote.txt; printf '\n%s\n\n-- \nA player\nplay 99\n' "$rmv"; } > r.txt
		send "$ru" "Re: turn" r.txt "$@" \
		    --add-header "Content-Type: text/plain; charset=utf-8" ;;
	html)
		{ printf '<html><body><div dir="ltr">%s</div><br>' "$rmv"
		  printf '<div class="gmail_quote">On Monday pbem wrote:<br>'
		  printf '<blockquote><pre>'; body_of "$ru.turn" |
		      sed 's/&/\&amp;/g; s/</\&lt;/g'; printf '</pre></blockquote>'
		  printf '</div></body></html>\n'; } > r.txt
		send "$ru" "Re: turn" r.txt "$@" \
		    --add-header "Content-Type: text/html; charset=utf-8" ;;
	qp)
		{ printf '%s\n\nEnvoy\303\251 de mon iPhone\n\nLe 1 janv. 2026 ' "$rmv"
		  printf '\303\240 10:00, pbem a \303\251crit :\n'; cat quote.txt; } |
		    sed 's/=/=3D/g; s/\xc3\xa9/=C3=A9/g; s/\xc3\xa0/=C3=A0/g' |
		    awk '{ while (length($0) > 70) { print substr($0, 1, 70) "=";
		    $0 = substr($0, 71) } print }' > r.txt
		send "$ru" "Re: coup" r.txt "$@" \
		    --add-header "Content-Type: text/plain; charset=utf-8" \
		    --add-header "Content-Transfer-Encoding: quoted-printable" ;;
	base64)
		{ printf '%s\n\n' "$rmv"; cat quote.txt; } | base64 > r.txt
		send "$ru" "Re: turn" r.txt "$@" \
		    --add-header "Content-Type: text/plain; charset=utf-8" \
		    --add-header "Content-Transfer-Encoding: base64" ;;
	flowed)
		{ printf '%s \n%s\n\n' "${rmv%% *}" "${rmv#* }"; cat quote.txt; } > r.txt
		send "$ru" "Re: turn" r.txt "$@" \
		    --add-header "Content-Type: text/plain; charset=utf-8; format=flowed" ;;
	esac
}
rows() { sqlite3 "$DB" "SELECT count(*) FROM log WHERE game_id = 2"; }
k=0
for shape in top bottom html qp base64 flowed; do
	S=$(to_act2); N=$(next2)
	[ -n "$S" ] || fail "game 2 ended after $k moves"
	[ "$S" = 0 ] && pl=hana || pl=hugo
	[ "$S" = 0 ] && w=play || w=jouer
	wait_turn "$pl" "$N"
	if [ $k = 1 ]; then
		# A valid token from another address: nothing played, the
		# sender is told why.
		before=$(rows); M0=$(count_mail mallory)
		mv="$w $(card2 "$S")"
		cp "$pl.turn" mallory.turn
		reply mallory top "$mv"
		wait_mail mallory $((M0 + 1))
		[ "$(rows)" = "$before" ] || fail "a reply from mallory played"
		fetch_all mallory | grep -q "did not come from the address" ||
		    fail "mallory was not told why"
		echo "ok: a reply from another address with a valid token plays nothing"
	fi
	reply "$pl" "$shape" "$w $(card2 "$S")"
	played2 $((N + 1))
	echo "ok: game 2 move $N played by a $shape reply from $pl"
	if [ $k = 0 ]; then
		# The same turn mail answered again: refused, in English.
		before=$(rows); H0=$(count_mail "$pl")
		reply "$pl" top "$w 1"
		i=0
		while ! fetch_all "$pl" | grep -q "already answered\|d\(=C3=A9\|é\)j\(=C3=A0\|à\) re"; do
			i=$((i + 1)); [ $i -gt 150 ] && fail "no answer to a reused token"
			sleep 0.2
		done
		[ "$(rows)" = "$before" ] || fail "a reused token played"
		echo "ok: a reused token plays nothing and is answered"
	fi
	k=$((k + 1))
done
[ -z "$(to_act2)" ] || fail "game 2 is not over after $k replies"
$PBEMCTL -d "$DB" audit 2 > audit2.txt || fail "audit of game 2"
grep -q "6 moves signed with a hosted key" audit2.txt ||
    fail "the audit does not name the hosted moves: $(cat audit2.txt)"
$PBEMCTL -d "$DB" export 2 -o game2.json 2>export2.txt || fail "export 2"
grep -q "moves signed with a hosted key" export2.txt ||
    fail "export does not name the hosted moves"
$PBEM verify game2.json > verify2.txt || fail "verify game 2"
grep -q "hosted" verify2.txt || fail "pbem verify does not name hosted moves"
echo "ok: a whole game played only by replies; audit, export and verify name the hosted moves"

# ---- Sign-up by mail --------------------------------------------------------
printf 'inscription\n' > su.txt
send zoe "pbem" su.txt --add-header "From: Zoe Martin <zoe@$DOM>"
wait_mail zoe 1
CODE=$(fetch_all zoe | sed -n 's/.*confirmer \([A-Z0-9]\{10\}\).*/\1/p' | head -1)
[ -n "$CODE" ] || fail "no code in zoe's sign-up mail"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM players WHERE email = 'zoe@$DOM'")" = 0 ] ||
    fail "zoe is a player before confirming"
printf 'confirmer %s\n' "$CODE" > cf.txt
send zoe "Re: pbem" cf.txt
wait_mail zoe 2
[ "$(sqlite3 "$DB" "SELECT count(*) FROM players p JOIN hosted_keys h ON h.player_id = p.id WHERE email = 'zoe@$DOM' AND email_pending = 0")" = 1 ] ||
    fail "zoe's sign-up was not confirmed"
echo "ok: sign-up by mail, confirmed by a reply"

# ---- Delegation and revocation by mail ----------------------------------------
$PBEM keygen -o bot.key >/dev/null || fail "keygen bot"
log_kind() {	# entries of KIND in game 1's log
	sqlite3 "$DB" "SELECT count(*) FROM log WHERE game_id = 1 AND kind = $1"
}
deleg_of() {	# the certificate ids of PLAYER, revoked or not: "id revoked"
	sqlite3 "$DB" "SELECT d.id || ' ' || d.revoked FROM delegations d
	    JOIN players p ON p.id = d.player_id WHERE p.name = '$1'"
}
# The text/plain parts of USER's newest mail, decoded (quoted-printable
# or base64, any charset).
newest_text() {
	fetch_all "$1" | python3 -c '
import email, email.policy, sys
last = [c for c in sys.stdin.read().split("=====\n") if c.strip()][-1]
msg = email.message_from_string(last, policy=email.policy.default)
for part in msg.walk():
    if part.get_content_type() == "text/plain":
        print(part.get_content())'
}
# mail_answer USER FROM-NAME FILE TEXT: send FILE from FROM-NAME's address
# and wait for a new mail to USER holding TEXT.
mail_answer() {
	n=$(count_mail "$1")
	send "$2" "pbem" "$3"
	wait_mail "$1" $((n + 1))
	newest_text "$1" | tr '\n' ' ' | grep -q "$4" ||
	    fail "$1's answer does not say \"$4\": $(newest_text "$1")"
}
k10=$(log_kind 10); k11=$(log_kind 11)
for p in alice bruno; do
	$PBEM delegate -m -k "$p.key" -p "$p" -b bot.key.pub -e 2099-12-31 \
	    > "dl-$p.txt" || fail "pbem delegate -m for $p"
	if [ "$p" = alice ]; then kept="is kept"; done_="is revoked"
	else kept="est enregistré"; done_="est révoqué"; fi
	mail_answer "$p" mallory "dl-$p.txt" "$kept"
	ID=$(deleg_of "$p" | cut -d' ' -f1)
	[ -n "$ID" ] && [ "$(deleg_of "$p" | cut -d' ' -f2)" = 0 ] ||
	    fail "$p's certificate was not kept: $(deleg_of "$p")"
	# Signed by another key: answered to the sender, nothing changed.
	other=$([ "$p" = alice ] && echo bruno || echo alice)
	$PBEM delegate revoke -m -k "$other.key" -p "$p" "$ID" > "rvx-$p.txt" ||
	    fail "pbem delegate revoke -m (forged)"
	mail_answer mallory mallory "rvx-$p.txt" "bad_signature"
	[ "$(deleg_of "$p" | cut -d' ' -f2)" = 0 ] ||
	    fail "a forged revocation revoked $p's certificate"
	$PBEM delegate revoke -m -k "$p.key" -p "$p" "$ID" > "rv-$p.txt" ||
	    fail "pbem delegate revoke -m for $p"
	grep -q "BEGIN PBEM REVOCATION" "rv-$p.txt" || fail "no revocation block"
	mail_answer "$p" mallory "rv-$p.txt" "$done_"
	[ "$(deleg_of "$p" | cut -d' ' -f2)" != 0 ] ||
	    fail "$p's certificate is not revoked"
done
[ "$(log_kind 10)" -eq $((k10 + 2)) ] && [ "$(log_kind 11)" -eq $((k11 + 2)) ] ||
    fail "game 1's log: $(log_kind 10) delegation and $(log_kind 11) revocation records"
$PBEMCTL -d "$DB" audit 1 >audit-dl.txt 2>&1 ||
    fail "audit of game 1 after delegation: $(tail -5 audit-dl.txt)"
echo "ok: delegation and revocation by mail, answered in each player's language"

kill "$PBEMD_PID"; wait "$PBEMD_PID" 2>/dev/null; PBEMD_PID=
echo "PASS: mail end to end"
exit 0
