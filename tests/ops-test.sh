#!/bin/sh
# ops-test.sh -- pbemd as an administrator runs it: configuration files
# refused with file:line, `pbemd -n`, the pid/lock file (a second daemon
# refused, a restart after SIGKILL allowed), SIGHUP (a changed
# http_max_body applies, a broken file changes nothing, the log file is
# reopened), the 413 and 429 answers with their headers, health and
# metrics, SIGTERM while a request is in flight, `pbemd deliver` of an
# interrupted message and of the HTML quote bomb (quarantined, exit 0),
# and the open files limit (the unit's LimitNOFILE, a low soft limit
# raised, a low hard one warned).  Run by `make check` (top_builddir is set by the harness);
# needs curl.

set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
bin="$(cd "$top_builddir" && pwd)/daemon"
work=$(mktemp -d /tmp/pbem-ops-XXXXXX)
port=$((20000 + ($$ * 7 + 3) % 20000))
url="http://127.0.0.1:$port/v1"
pids=
cleanup() {
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT INT TERM
cd "$work" || exit 1

. "$top_srcdir/tests/checks.sh"
# status DESCRIPTION WANT CURL-ARGS...: the HTTP status of one request
# (headers in hdr.txt, body in body.txt)
status() {
	what=$1 want=$2
	shift 2
	got=$(curl -s -D hdr.txt -o body.txt -w '%{http_code}' "$@")
	if [ "$got" = "$want" ]; then ok; else
		bad "$what: HTTP $got, expected $want"
		sed 's/^/  | /' hdr.txt body.txt >&2
	fi
}
# wait_up PORT: until GET /v1/health answers (5 s at most)
wait_up() {
	for _ in $(seq 1 100); do
		curl -sf "http://127.0.0.1:$1/v1/health" >/dev/null && return 0
		sleep 0.05
	done
	return 1
}
# wait_log TEXT COUNT: until the log has at least COUNT lines with TEXT
wait_log() {
	for _ in $(seq 1 100); do
		[ "$(grep -cF -- "$1" pbemd.log 2>/dev/null)" -ge "$2" ] && return 0
		sleep 0.05
	done
	return 1
}
metric() { curl -s "$url/metrics" | grep "^$1 " | awk '{print $2}'; }
bytes() { head -c "$1" /dev/zero | tr '\0' x; }

if ! command -v curl >/dev/null; then
	echo "ops-test: curl is not installed" >&2
	exit 1
fi

# --- configuration files -------------------------------------------------
cat >good.conf <<EOF
# the test's daemon
database = $work/pbem.db
templates = $top_srcdir/templates
http_port = $port
log = $work/pbemd.log
log_level = debug
http_max_body = 4096
rate_per_address = 0
rate_per_key = 0
EOF
printf 'http_port = %s\n# fine so far\nhttp_max_body = lots\n' "$port" >bad.conf
printf 'log_level = loud\n' >badlevel.conf
expect "pbemd -n on a good file" 0 "$bin/pbemd" -n -c good.conf
contains "pbemd -n" out.txt "configuration good.conf is valid"
expect "pbemd -n -v" 0 "$bin/pbemd" -n -v -c good.conf
contains "pbemd -n -v prints every option" out.txt "rate_per_key_burst = \"20\""
contains "pbemd -n -v prints the file's values" out.txt "http_max_body = \"4096\""
expect "pbemd -n on a bad file" 78 "$bin/pbemd" -n -c bad.conf
contains "bad file names file:line" err.txt "bad.conf:3: http_max_body"
expect "pbemd refuses to start on a bad file" 78 "$bin/pbemd" -c bad.conf
contains "start refused with file:line" err.txt "bad.conf:3:"
expect "a bad log level" 78 "$bin/pbemd" -n -c badlevel.conf
contains "log level choices" err.txt "badlevel.conf:1: log_level: \"loud\" is not one of warning, info, debug"
expect "a bad -o" 64 "$bin/pbemd" -n -o http_port=seventy
contains "a bad -o" err.txt "http_port"

# --help and --version on every program: exit 0, text on stdout; a usage
# error is EX_USAGE (64), the usage on stderr.
for prog in pbemd pbemctl pbem; do
	expect "$prog --help" 0 "$bin/$prog" --help
	contains "$prog --help on stdout" out.txt "usage: $prog"
	contains "$prog --help: exit codes" out.txt "64 usage error"
	expect "$prog --version" 0 "$bin/$prog" --version
	contains "$prog --version" out.txt "$prog $(sed -n 's/^AC_INIT(\[pbem\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")"
	expect "$prog with a bad option" 64 "$bin/$prog" --no-such-option
	contains "$prog usage on stderr" err.txt "usage: $prog"
done

# pbemd -n loads the templates and checks every file the settings name,
# naming the path it tried.
expect "pbemd -n: templates loaded" 0 "$bin/pbemd" -n -c good.conf
contains "pbemd -n counts the templates" out.txt "templates: $(find "$top_srcdir/templates" -name "*.mustache" | wc -l) loaded from $top_srcdir/templates"
expect "pbemd -n: templates missing" 78 "$bin/pbemd" -n -c good.conf -t "$work/no-templates"
contains "the missing templates' path is named" err.txt "templates: $work/no-templates: No such file or directory"
expect "pbemd: templates missing at start" 1 "$bin/pbemd" -c good.conf -t "$work/no-templates" -p 0 -o log=stderr
contains "start names the path" err.txt "$work/no-templates: No such file or directory"
expect "pbemd -n: a database folder that is missing" 78 "$bin/pbemd" -n -c good.conf -d "$work/nowhere/pbem.db"
contains "the database path is named" err.txt "database: $work/nowhere/pbem.db: its folder does not exist"
mkdir -p "$work/notadir"
: >"$work/maildir-file"
expect "pbemd -n: a Maildir that is a file" 78 "$bin/pbemd" -n -c good.conf -o mail_quarantine="$work/maildir-file"
contains "the Maildir is named" err.txt "mail_quarantine: $work/maildir-file: not a folder"

# Under systemd, stderr is the journal's stream ($JOURNAL_STREAM names its
# device and inode): lines carry their priority for the journal.
: >journal.err
JOURNAL_STREAM=$(stat -c '%d:%i' journal.err) "$bin/pbemd" -c good.conf \
    -t "$work/no-templates" -p 0 -o log=stderr 2>>journal.err
contains "a fatal line with its priority" journal.err "<2>fatal: templates: $work/no-templates"
JOURNAL_STREAM=1:1 "$bin/pbemd" -c good.conf -t "$work/no-templates" -p 0 \
    -o log=stderr 2>plain.err
lacks "no priority when stderr is not the journal" plain.err "<2>"
contains "no priority when stderr is not the journal" plain.err "Z pbemd["

# The syslog facility: mail, or a refusal naming the choices.
expect "log to the mail facility" 0 "$bin/pbemd" -n -c good.conf -o log=syslog:mail
expect "an unknown syslog facility" 78 "$bin/pbemd" -n -c good.conf -o log=syslog:mial
contains "the facilities are named" err.txt "syslog facility \"mial\" is not one of daemon, mail, local0 to local7"

# Secrets from files (docs/CONFIG.md, "Secrets"): loose modes refused,
# never printed, not both inline and by file.
printf 's3cret-token\n' >token
chmod 0644 token
expect "a world-readable token file" 78 "$bin/pbemd" -n -c good.conf -o webhook_admin_token_file=token
contains "the mode is named with its fix" err.txt "token: mode 0644 lets other users read or change a secret; refused (run \`chmod 0640 token\`, or 0600)"
chmod 0660 token
expect "a group-writable token file" 78 "$bin/pbemd" -n -c good.conf -o webhook_admin_token_file=token
chmod 0640 token
expect "a 0640 token file" 0 "$bin/pbemd" -n -v -c good.conf -o webhook_admin_token_file=token
contains "the token is not shown" out.txt 'webhook_admin_token = "(secret, not shown)"'
lacks "the token is never printed" out.txt "s3cret-token"
expect "token inline and by file" 78 "$bin/pbemd" -n -c good.conf -o webhook_admin_token_file=token -o webhook_admin_token=x
contains "both ways refused" err.txt "webhook_admin_token and webhook_admin_token_file are both set"
expect "a missing password file" 78 "$bin/pbemd" -n -c good.conf -o mail_smtp_password_file="$work/nope"
contains "the missing file is named" err.txt "mail_smtp_password_file: $work/nope: No such file or directory"
: >empty-secret
chmod 0600 empty-secret
expect "an empty password file" 78 "$bin/pbemd" -n -c good.conf -o mail_imap_password_file=empty-secret
contains "empty refused" err.txt "empty-secret: empty"
head -c 2000 /dev/zero | tr '\0' x >long-secret
chmod 0600 long-secret
expect "a password longer than 1024 bytes" 78 "$bin/pbemd" -n -c good.conf -o mail_smtp_password_file=long-secret
contains "too long refused" err.txt "long-secret: longer than 1024 bytes"
printf 'ab\0cd\n' >nul-secret
chmod 0600 nul-secret
expect "a password with a NUL byte" 78 "$bin/pbemd" -n -c good.conf -o mail_smtp_password_file=nul-secret
contains "NUL refused" err.txt "nul-secret: holds a NUL byte"
head -c 32 /dev/urandom >loose.kek
chmod 0644 loose.kek
expect "a world-readable hosted key" 78 "$bin/pbemd" -n -c good.conf -o hosted_key_file=loose.kek
contains "the hosted key's mode is refused" err.txt "loose.kek: mode 0644"
# One run names every problem, the secret files' too, not only the first.
chmod 0644 token
expect "pbemd -n: several problems" 78 "$bin/pbemd" -n -c good.conf \
    -t "$work/no-templates" -o mail_smtp_password_file="$work/nope" \
    -o webhook_admin_token_file=token -o hosted_key_file=loose.kek
contains "several: the templates" err.txt "templates: $work/no-templates: No such file or directory"
contains "several: the password file" err.txt "mail_smtp_password_file: $work/nope: No such file or directory"
contains "several: the token file" err.txt "webhook_admin_token_file: token: mode 0644"
contains "several: the hosted key" err.txt "loose.kek: mode 0644"
contains "several: refused" err.txt "configuration good.conf refused"
lacks "several: no secret printed" err.txt "s3cret-token"
chmod 0640 token

# --- start, and the lock -------------------------------------------------
# start_pbemd ARGS...: start pbemd -c good.conf on $port and wait until it
# answers; if the port is taken (other tests run beside this one), move
# to another.  Sets pid; exits the test if pbemd cannot start.
start_pbemd() {
	for _ in 1 2 3 4 5; do
		"$bin/pbemd" -c good.conf -p "$port" "$@" >>demo.txt 2>>daemon.err &
		pid=$!
		pids="$pids $pid"
		wait_up "$port" && return 0
		if kill -0 "$pid" 2>/dev/null ||
		    ! tail -n 3 daemon.err | grep -q "cannot listen"; then
			break
		fi
		port=$((20000 + (port + 997) % 20000))
		url="http://127.0.0.1:$port/v1"
	done
	echo "FAIL: pbemd does not start" >&2
	sed 's/^/  | /' daemon.err >&2
	exit 1
}
start_pbemd --demo -o webhook_admin_token_file=token
ok
[ "$(cat pbem.db.pid 2>/dev/null)" = "$pid" ] && ok ||
	bad "pid file holds $(cat pbem.db.pid 2>/dev/null), expected $pid"
expect "a second pbemd on the same database" 1 timeout 20 "$bin/pbemd" \
	-c good.conf -p $((port + 1))
contains "second pbemd names the first" err.txt "another pbemd (pid $pid) is running on this database"
[ "$(cat pbem.db.pid)" = "$pid" ] && ok || bad "the refused daemon changed the pid file"
contains "timestamps in the log file" pbemd.log "Z pbemd[$pid]: http: listening"

# The administrator token read from its file works, and only it.
status "the token from its file" 200 -H "Authorization: Bearer s3cret-token" "$url/webhooks"
status "another token" 401 -H "Authorization: Bearer s3cret-tokenX" "$url/webhooks"
# Rotating it: a new file, a SIGHUP; the old token stops working.
printf 'n3w-token\n' >token.new
chmod 0640 token.new
mv token.new token
kill -HUP "$pid"
wait_log "reload: done" 1 || bad "no reload after SIGHUP"
status "the rotated token" 200 -H "Authorization: Bearer n3w-token" "$url/webhooks"
status "the old token after rotation" 401 -H "Authorization: Bearer s3cret-token" "$url/webhooks"
lacks "no token in the log" pbemd.log "n3w-token"

# --- health --------------------------------------------------------------
status "health" 200 "$url/health"
contains "health status" body.txt '"status": "ok"'
contains "health database" body.txt '"database": "ok"'
contains "health schema" body.txt '"schema_version": '
# The demo game's opening mails are queued at start; the Maildir sender
# delivers them within a moment, and then nothing is pending.
for _ in $(seq 1 50); do
	curl -s -o body.txt "$url/health"
	grep -q '"outbox_pending": 0' body.txt && break
	sleep 0.1
done
contains "health outbox" body.txt '"outbox_pending": 0'
contains "health version" body.txt '"version": "'

# --- body size: 413 over the limit, not at it ----------------------------
bytes 4096 >at.txt
bytes 4097 >over.txt
bytes 6000 >over6k.txt
status "body at the limit" 400 --data-binary @at.txt "$url/games/1/moves"
contains "body at the limit reaches the engine" body.txt '"no_block"'
status "body over the limit" 413 --data-binary @over.txt "$url/games/1/moves"
contains "413 code" body.txt '"code": "too_large"'
contains "413 says the limit" body.txt "at most 4096 bytes (http_max_body)"
status "chunked body at the limit" 400 -H 'Transfer-Encoding: chunked' \
	--data-binary @at.txt "$url/games/1/moves"
status "chunked body over the limit" 413 -H 'Transfer-Encoding: chunked' \
	--data-binary @over.txt "$url/games/1/moves"
contains "chunked 413 code" body.txt '"code": "too_large"'

# --- SIGHUP: a changed http_max_body applies; a broken file does not ------
# http_port in the file changes too, but -p on the command line still wins.
sed 's/^http_max_body = 4096$/http_max_body = 8192/; s/^http_port = .*/http_port = 1/' \
	good.conf >new.conf &&
	echo "http_threads = 2" >>new.conf && cp new.conf good.conf
mv pbemd.log pbemd.log.1
kill -HUP "$pid"
wait_log "reload: done" 1 && ok || bad "no reload in a reopened pbemd.log"
contains "restart-only option kept" pbemd.log "http_threads changed from \"16\" to \"2\"; that needs a restart"
lacks "the command line wins at a reload" pbemd.log "http_port changed"
status "body now under the reloaded limit" 400 --data-binary @over6k.txt "$url/games/1/moves"
contains "reloaded limit in the 413 text" body.txt '"no_block"'
cp good.conf saved.conf
printf 'http_max_body = 2048\nno such line\n' >>good.conf
kill -HUP "$pid"
wait_log "reload refused" 1 && ok || bad "broken file not reported"
contains "broken file with file:line" pbemd.log "good.conf:$(grep -c '' good.conf): expected \"name = value\""
status "a refused reload changes nothing" 400 --data-binary @over6k.txt "$url/games/1/moves"
status "health after the reloads" 200 "$url/health"

# --- moves, per-key limit and metrics ------------------------------------
cp saved.conf good.conf
sed -i 's/^rate_per_key = 0$/rate_per_key = 1/' good.conf
echo "rate_per_key_burst = 1" >>good.conf
kill -HUP "$pid"
wait_log "reload: done" 2 && ok || bad "second reload"
# "draw galaxy, discard drawn" is a whole turn: the other seat plays next.
"$bin/pbemctl" -d pbem.db moves 1 2>/dev/null | grep -v '^#' >moves.txt
seat=$(head -n 1 moves.txt | cut -f 1)
if [ "$seat" = 0 ]; then key=demo/alice.key; else key=demo/bruno.key; fi
"$bin/pbem" sign -k "$key" -g 1 -n 1 -s "$seat" "draw galaxy, discard drawn" >move1.txt
status "a move" 200 --data-binary @move1.txt "$url/games/1/moves"
# ?lang=en: the refusal is in the seat's player's language otherwise,
# and which demo player moves first depends on the seed.
status "the same key again, over its limit" 429 --data-binary @move1.txt "$url/games/1/moves?lang=en"
contains "429 code" body.txt '"code": "rate_limited"'
contains "429 names the limit" body.txt "1 a minute for the requests signed with one player's key, in bursts of up to 1 (rate_per_key, rate_per_key_burst)"
contains "429 Retry-After" hdr.txt "Retry-After: "
retry=$(tr -d '\r' <hdr.txt | sed -n 's/^Retry-After: //p')
[ "$retry" -ge 1 ] && [ "$retry" -le 60 ] && ok || bad "Retry-After $retry"
# A block forged with the first key for the other seat spends none of
# that seat's tokens: it still moves.
"$bin/pbemctl" -d pbem.db moves 1 2>/dev/null | grep -v '^#' >moves.txt
other=$(head -n 1 moves.txt | cut -f 1)
[ "$other" != "$seat" ] && ok || bad "seat $seat plays twice in a row"
if [ "$other" = 0 ]; then okey=demo/alice.key; else okey=demo/bruno.key; fi
"$bin/pbem" sign -k "$key" -g 1 -n 2 -s "$other" "draw galaxy, discard drawn" >forged.txt
status "a forged block" 403 --data-binary @forged.txt "$url/games/1/moves"
"$bin/pbem" sign -k "$okey" -g 1 -n 2 -s "$other" "draw galaxy, discard drawn" >move2.txt
status "the forged-for seat still moves" 200 --data-binary @move2.txt "$url/games/1/moves"
"$bin/pbem" sign -k demo/alice.key -g 1 -n 3 -s 0 "draw galaxy, discard drawn" >wrong.txt
status "wrong game" 400 --data-binary @wrong.txt "$url/games/7/moves"
curl -s "$url/metrics" >metrics.txt
contains "metrics: accepted" metrics.txt "pbem_moves_accepted_total 2"
contains "metrics: rate limited" metrics.txt 'pbem_moves_rejected_total{code="rate_limited"} 1'
contains "metrics: bad signature" metrics.txt 'pbem_moves_rejected_total{code="bad_signature"} 1'
contains "metrics: wrong game" metrics.txt 'pbem_moves_rejected_total{code="wrong_game"} 1'
contains "metrics: no block" metrics.txt 'pbem_moves_rejected_total{code="no_block"} 4'
contains "metrics: key limit" metrics.txt 'pbem_rate_limited_key_total 1'
contains "metrics: 413s" metrics.txt 'pbem_http_body_too_large_total 2'
contains "metrics: reloads" metrics.txt 'pbem_reloads_total 3'
contains "metrics: refused reloads" metrics.txt 'pbem_reloads_refused_total 1'
contains "metrics: requests by route" metrics.txt 'pbem_http_requests_total{route="/v1/games/{id}/moves",status="2xx"} 2'
contains "metrics: 4xx by route" metrics.txt 'pbem_http_requests_total{route="/v1/games/{id}/moves",status="4xx"} 9'
contains "metrics: histogram" metrics.txt 'pbem_http_request_duration_seconds_bucket{route="/v1/games/{id}/moves",le="+Inf"} 11'
contains "metrics: histogram count" metrics.txt 'pbem_http_request_duration_seconds_count{route="/v1/games/{id}/moves"} 11'
contains "metrics: outbox" metrics.txt 'pbem_outbox_rows{channel="mail",status="pending"}'
contains "metrics: outbox, webhook series even when empty" metrics.txt 'pbem_outbox_rows{channel="webhook",status="failed"} 0'
contains "metrics: database" metrics.txt 'pbem_database_up 1'
contains "metrics: uptime" metrics.txt 'pbem_uptime_seconds '
before=$(metric 'pbem_moves_accepted_total')
[ "$before" = 2 ] && ok || bad "accepted counter reads $before"

# --- per-address limit ---------------------------------------------------
sed -i 's/^rate_per_address = 0$/rate_per_address = 1/' good.conf
echo "rate_per_address_burst = 3" >>good.conf
kill -HUP "$pid"
wait_log "reload: done" 3 && ok || bad "third reload"
limited=0
for _ in $(seq 1 10); do
	code=$(curl -s -D hdr.txt -o body.txt -w '%{http_code}' "$url/health")
	[ "$code" = 429 ] && { limited=1; break; }
done
[ $limited = 1 ] && ok || bad "no 429 after 10 requests at 1/s with bursts of 3"
contains "address 429 code" body.txt '"code": "rate_limited"'
contains "address 429 names the limit" body.txt "1 a second for the requests from one address, in bursts of up to 3"
contains "address 429 Retry-After" hdr.txt "Retry-After: 1"
sed -i 's/^rate_per_address = 1$/rate_per_address = 0/' good.conf
kill -HUP "$pid"
wait_log "reload: done" 4 && ok || bad "fourth reload"

# --- SIGTERM while a request is in flight --------------------------------
# A body sent slowly (3000 bytes at 1000 a second) is in flight once its
# headers are logged; pbemd must still answer it, then exit 0.
bytes 3000 >slow.txt
n=$(grep -cF "debug: http: 127.0.0.1 POST" pbemd.log)
curl -s -o slow.json -w '%{http_code}' -H 'Expect:' --limit-rate 1000 \
	--data-binary @slow.txt "$url/games/1/moves" >slow.code &
cpid=$!
wait_log "debug: http: 127.0.0.1 POST" $((n + 1)) && ok || bad "slow request not seen"
kill -TERM "$pid"
wait "$cpid"
[ "$(cat slow.code)" = 400 ] && ok || bad "request in flight at SIGTERM: HTTP $(cat slow.code)"
contains "request in flight answered" slow.json '"no_block"'
wait "$pid"
rc=$?
[ $rc = 0 ] && ok || bad "pbemd exit $rc after SIGTERM"
[ -e pbem.db.pid ] && bad "pid file left after a clean exit" || ok
contains "stopped cleanly" pbemd.log "pbemd[$pid]: stopped"

# --- a stale pid file from a SIGKILLed daemon does not block a restart ---
start_pbemd
ok
kill -9 "$pid"
wait "$pid" 2>/dev/null
[ -e pbem.db.pid ] && ok || bad "no pid file left by SIGKILL"
start_pbemd
ok
[ "$(cat pbem.db.pid 2>/dev/null)" = "$pid" ] && ok || bad "pid file not taken over"
status "game kept across the kill" 200 "$url/games/1"
kill -INT "$pid"
wait "$pid"
rc=$?
[ $rc = 0 ] && ok || bad "pbemd exit $rc after SIGINT"

# --- pbemd deliver: what must not come back ------------------------------
# The MTA retries a delivery that did not exit 0.  A message that once
# killed the process (its attempt left in mail_attempt, keyed by the
# BLAKE2b-256 of its bytes) and the HTML quote bomb of issue 14 are both
# quarantined with their reason, and exit 0: no retry loop.
"$bin/pbemctl" -d "$work/deliver.db" init >/dev/null
mkdir -p quarantine
printf 'From: stranger@example.net\nMessage-ID: <killed@x>\n\nhelp\n' >killed.eml
if command -v sqlite3 >/dev/null && command -v b2sum >/dev/null; then
	sqlite3 deliver.db "INSERT INTO mail_attempt (content_hash, started,
	    pid) VALUES ('$(b2sum -l 256 killed.eml | cut -c1-64)', 1, 1)"
	expect "deliver: an interrupted message" 0 "$bin/pbemd" deliver \
	    -d deliver.db -m quarantine="$work/quarantine" <killed.eml
	contains "deliver: quarantined as interrupted" err.txt \
	    "processing of this message was interrupted before"
	[ "$(sqlite3 deliver.db 'SELECT count(*) FROM mail_attempt')" = 0 ] &&
		ok || bad "deliver: the attempt is still noted"
else
	bad "sqlite3 or b2sum is not installed"
fi
{
	printf 'From: stranger@example.net\nMessage-ID: <bomb@x>\n'
	printf 'Content-Type: text/html; charset=utf-8\n\n<pre>'
	i=0
	while [ $i -lt 2000 ]; do printf '<blockquote>'; i=$((i + 1)); done
	head -c 100000 /dev/zero | tr '\0' '\n'
	printf '</pre>\n'
} >bomb.eml
expect "deliver: the HTML quote bomb" 0 timeout 60 "$bin/pbemd" deliver \
    -d deliver.db -m quarantine="$work/quarantine" <bomb.eml
contains "deliver: the bomb quarantined" err.txt "once its HTML is converted"
# pbemd deliver reads the same secret files, by the same rule.
printf 'mail_smtp_password_file = %s/token\n' "$work" >deliver-secret.conf
chmod 0644 token
expect "deliver: a loose secret file" 78 "$bin/pbemd" deliver \
    -c deliver-secret.conf -d deliver.db </dev/null
contains "deliver: the secret file is named" err.txt "$work/token: mode 0644"
chmod 0640 token

# --- open files ----------------------------------------------------------
# The generated unit's LimitNOFILE holds what the default limits need
# (docs/CONFIG.md: http_max_connections + 64 + 128 + 5 x http_threads);
# started by hand under a soft limit below that, pbemd raises it as far
# as the hard limit goes, and warns when the hard limit is too low.
# need CONFIG: the descriptors pbemd needs with that file's settings
need() {
	"$bin/pbemd" -n -v -c "$1" >settings.txt 2>&1
	setting() { sed -n "s/^$1 = \"\([0-9]*\)\"$/\1/p" settings.txt; }
	echo $(( $(setting http_max_connections) + 64 + 128 + \
	    5 * $(setting http_threads) ))
}
need=$(need /dev/null)
unit=$(sed -n 's/^LimitNOFILE=//p' "$(dirname "$bin")/contrib/pbemd.service")
[ "$need" -gt 1024 ] && [ "${unit:-0}" -ge "$need" ] && ok ||
	bad "contrib/pbemd.service (made by make): LimitNOFILE=$unit, the defaults need $need"
need=$(need good.conf)
# nofile PID: the soft "Max open files" of a process
nofile() { awk '/^Max open files/ {print $4}' "/proc/$1/limits"; }
if [ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge "$need" ]; then
	(ulimit -Sn 512 && exec "$bin/pbemd" -c good.conf -p "$port") \
	    2>>daemon.err &
	pid=$!
	pids="$pids $pid"
	wait_up "$port" && ok || bad "pbemd under ulimit -Sn 512 did not start"
	[ "$(nofile "$pid")" -ge "$need" ] && ok ||
		bad "soft open files limit $(nofile "$pid"), below $need"
	contains "the raise is logged" pbemd.log "open files limit raised to $need"
	kill -TERM "$pid"
	wait "$pid"
else
	echo "ops-test: hard open files limit below $need, raise not checked"
fi
(ulimit -n 400 && exec "$bin/pbemd" -c good.conf -p "$port") 2>>daemon.err &
pid=$!
pids="$pids $pid"
wait_up "$port" && ok || bad "pbemd under ulimit -n 400 did not start"
contains "a hard limit too low is a warning" pbemd.log \
    "the open files limit is 400, but http_max_connections = "
kill -TERM "$pid"
wait "$pid"

# --- health says 503 when the database cannot be read ---------------------
# One HTTP thread, which opens its connection at its first request that
# needs one; /v1/nothing (404) needs none.  A directory then takes the
# database's name, so that connection cannot be opened.
mkdir broken && cd broken
cp ../good.conf good.conf
sed -i "s|^database = .*|database = $work/broken/pbem.db|; s|^log = .*|log = $work/broken/pbemd.log|" good.conf
echo "http_threads = 1" >>good.conf
"$bin/pbemd" -c good.conf -p "$port" 2>daemon.err &
pid=$!
pids="$pids $pid"
up=0
for _ in $(seq 1 100); do
	[ "$(curl -s -o /dev/null -w '%{http_code}' "$url/nothing")" = 404 ] && { up=1; break; }
	sleep 0.05
done
[ $up = 1 ] && ok || bad "pbemd on the database to break did not start"
mv pbem.db pbem.db.moved && mkdir pbem.db
status "health with a broken database" 503 "$url/health"
contains "health: unavailable" body.txt '"status": "unavailable"'
contains "health: unreachable" body.txt '"database": "unreachable"'
curl -s "$url/metrics" >metrics.txt
contains "metrics: database down" metrics.txt "pbem_database_up 0"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ $rc = 0 ] && ok || bad "pbemd exit $rc after SIGTERM (broken database)"
cd ..

echo "ops-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
