#!/bin/sh
# backup-test.sh -- an administrator's care of the database while pbemd
# runs (pbemctl(8)): `pbemctl backup` taken again and again while two
# games are played (one over HTTP, one with pbemctl submit), each copy
# whole and restored into a fresh folder where every game passes its
# audit; restore refused while pbemd runs, refused for a file that is no
# backup (nothing changed); `pbemctl queue` lists, retries and drops
# outbox rows; `pbemctl prune` removes delivered rows and the snapshots
# of a finished game, and the audit still passes.  Run by `make check`;
# needs curl and sqlite3.

set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
bin="$(cd "$top_builddir" && pwd)/daemon"
work=$(mktemp -d /tmp/pbem-backup-XXXXXX)
port=$((20000 + ($$ * 13 + 5) % 20000))
pid=
loader=
cleanup() {
	[ -n "$loader" ] && kill "$loader" 2>/dev/null
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	[ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT INT TERM
cd "$work" || exit 1

. "$top_srcdir/tests/checks.sh"

for tool in curl sqlite3; do
	command -v "$tool" >/dev/null || skip "backup-test: $tool is not installed"
done

ctl() { "$bin/pbemctl" -d "$work/pbem.db" "$@"; }

# play GAME HOW KEY0 KEY1: play GAME to its end, each move signed by its
# seat's key; HOW is http (POSTed to pbemd) or ctl (pbemctl submit).
# Prints the number of moves, or "refused" when one was.
play() {
	n=0
	while "$bin/pbemctl" -d "$work/pbem.db" moves "$1" 2>/dev/null |
	    grep -v '^#' >"moves$1.txt"; do
		count=$(wc -l <"moves$1.txt")
		line=$(sed -n "$(( (n * 7919) % count + 1 ))p" "moves$1.txt")
		seat=$(printf '%s' "$line" | cut -f 1)
		seq=$(printf '%s' "$line" | cut -f 2)
		move=$(printf '%s' "$line" | cut -f 3)
		if [ "$seat" = 0 ]; then key=$3; else key=$4; fi
		"$bin/pbem" sign -k "$key" -g "$1" -n "$seq" -s "$seat" "$move" \
			>"block$1.txt"
		if [ "$2" = http ]; then
			code=$(curl -s -o /dev/null -w '%{http_code}' \
			    --data-binary "@block$1.txt" \
			    "http://127.0.0.1:$port/v1/games/$1/moves")
			[ "$code" = 200 ] || { echo refused; return; }
		else
			"$bin/pbemctl" -d "$work/pbem.db" submit "block$1.txt" \
			    >/dev/null 2>&1 || { echo refused; return; }
		fi
		n=$((n + 1))
		[ $n -lt 600 ] || break
	done
	echo "$n"
}

# --- set-up: two players, two games, pbemd running --------------------------
expect "init" 0 ctl init
"$bin/pbem" keygen -o alice.key >/dev/null 2>&1
"$bin/pbem" keygen -o bob.key >/dev/null 2>&1
expect "add alice" 0 ctl player add alice --key-file alice.key.pub \
	--email alice@example.org
expect "add bob" 0 ctl player add bob --key-file bob.key.pub \
	--email bob@example.org
expect "game 1" 0 ctl game create stmissions alice,bob
expect "game 2" 0 ctl game create stmissions bob,alice
# start_pbemd ARGS...: pbemd with ARGS on a free port, in $pid, answering.
start_pbemd() {
	for _ in 1 2 3 4 5; do
		"$bin/pbemd" "$@" -t "$top_srcdir/templates" -p "$port" \
		    -o log="$work/pbemd.log" -o rate_per_address=0 \
		    -o rate_per_key=0 >/dev/null 2>daemon.err &
		pid=$!
		up=0
		for _ in $(seq 1 100); do
			curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null &&
			    { up=1; break; }
			sleep 0.05
		done
		[ $up = 1 ] && return
		kill -9 "$pid" 2>/dev/null
		port=$((20000 + (port + 997) % 20000))
	done
	echo "FAIL: pbemd does not start" >&2
	cat daemon.err >&2
	exit 1
}
start_pbemd -d "$work/pbem.db"

# --- backups under load -------------------------------------------------------
( play 1 http alice.key bob.key >played1.txt
  play 2 ctl bob.key alice.key >played2.txt ) &
loader=$!
i=0
while kill -0 "$loader" 2>/dev/null && [ $i -lt 8 ]; do
	i=$((i + 1))
	expect "backup $i under load" 0 ctl backup "copy$i.db"
	contains "backup $i names its files" out.txt "copy$i.db.key (the server key)"
	sleep 0.3
done
wait "$loader"
loader=
for g in 1 2; do
	ctl moves $g >out.txt 2>&1
	contains "game $g played to its end ($(cat played$g.txt) moves)" out.txt "# game $g is over"
done
[ $i -ge 2 ] && ok || bad "only $i backups taken while the games were played"
i=$((i + 1))
expect "backup after the games" 0 ctl backup "copy$i.db"
expect "a backup never overwrites" 1 ctl backup "copy$i.db"
contains "a backup never overwrites" err.txt "copy$i.db: already exists"
for f in "copy$i.db" "copy$i.db.key"; do
	[ "$(stat -c %a "$f")" = 600 ] && ok || bad "$f is mode $(stat -c %a "$f")"
done

# Every copy is whole, and restores into a fresh folder where every game
# passes its audit.
for n in $(seq 1 $i); do
	[ "$(sqlite3 "copy$n.db" 'PRAGMA integrity_check')" = ok ] && ok ||
	    bad "copy$n.db fails the integrity check"
	mkdir "fresh$n"
	expect "restore copy $n" 0 "$bin/pbemctl" -d "fresh$n/pbem.db" \
	    restore "copy$n.db"
	contains "restore $n audits game 1" out.txt "game 1: ok"
	contains "restore $n audits game 2" out.txt "game 2: ok"
	lacks "restore $n: no game fails" out.txt "FAILED"
done
# The last copy holds both games whole: the same log as the live file.
live=$(sqlite3 pbem.db 'SELECT count(*) FROM log')
[ "$(sqlite3 "fresh$i/pbem.db" 'SELECT count(*) FROM log')" = "$live" ] &&
    ok || bad "the last backup lacks entries"
expect "the restored copy's server key" 0 cmp pbem.db.key "fresh$i/pbem.db.key"

# --- restore refusals -----------------------------------------------------------
expect "restore while pbemd runs" 1 ctl restore "copy$i.db"
contains "restore while pbemd runs" err.txt "a pbemd is running on this database"
kill -TERM "$pid"
wait "$pid"
pid=
head -c 8192 /dev/urandom >junk.db
cp "copy$i.db.key" junk.db.key
expect "restore a file that is no database" 1 ctl restore junk.db
contains "restore junk: the database is unchanged" err.txt "the database is unchanged"
[ -e pbem.db.pid ] && bad "a refused restore left its lock file" || ok
expect "restore junk: the live database still audits" 0 ctl audit
expect "restore a backup without its key" 1 ctl restore "$work/nothing.db"
contains "restore without a key" err.txt "nothing.db.key"
expect "restore with pbemd stopped" 0 ctl restore "copy1.db"
contains "restore with pbemd stopped" out.txt "game 1: ok"

# --- the queue: list, retry, drop ----------------------------------------------
# pbemd is stopped: the mails of a new game wait in the outbox.
ctl restore "copy$i.db" >/dev/null 2>&1
expect "game 3" 0 ctl game create stmissions alice,bob
expect "queue" 0 ctl queue
contains "queue lists a waiting mail" out.txt " pending mail alice@example.org "
contains "queue counts" err.txt "rows waiting"
lacks "queue shows no payload" out.txt "Your hand"
first=$(head -n 1 out.txt | cut -d ' ' -f 1)
second=$(sed -n 2p out.txt | cut -d ' ' -f 1)
waiting=$(wc -l <out.txt)
expect "queue drop" 0 ctl queue drop "$first"
contains "queue drop" out.txt "$first dropped, not sent"
expect "queue drop again" 1 ctl queue drop "$first"
contains "queue drop again" err.txt "outbox row $first is not waiting"
ctl queue >out.txt 2>/dev/null
[ "$(wc -l <out.txt)" = $((waiting - 1)) ] && ok || bad "drop left $(wc -l <out.txt) rows"
sqlite3 pbem.db "UPDATE outbox SET status = 2, attempts = 12, last_error = 'gave up' WHERE id = $second"
expect "queue shows a failed row" 0 ctl queue
contains "queue shows a failed row" out.txt "$second failed mail"
contains "queue shows why" out.txt "gave up"
expect "queue retry" 0 ctl queue retry "$second"
contains "queue retry" out.txt "$second to be tried again now"
[ "$(sqlite3 pbem.db "SELECT status, attempts, last_error FROM outbox WHERE id = $second")" = "0|0|" ] &&
    ok || bad "retry did not make the row pending again"
expect "queue retry all" 0 ctl queue retry all
contains "queue retry all" out.txt "$((waiting - 1)) rows to be tried again now"
expect "queue bad id" 1 ctl queue retry 999999
expect "queue usage" 64 ctl queue frobnicate 1

# --- prune: delivered rows and the snapshots of finished games ------------------
snaps=$(sqlite3 pbem.db 'SELECT count(*) FROM snapshots WHERE game_id = 1')
sent=$(sqlite3 pbem.db 'SELECT count(*) FROM outbox WHERE status = 1')
[ "$snaps" -gt 2 ] && ok || bad "game 1 has only $snaps snapshots to prune"
expect "prune" 0 ctl prune --days 0
contains "prune: outbox" out.txt "$sent delivered outbox rows removed"
contains "prune: snapshots" out.txt "snapshots of finished games removed"
[ "$(sqlite3 pbem.db 'SELECT count(*) FROM snapshots WHERE game_id = 1')" = 2 ] &&
    ok || bad "game 1 keeps more than its first and last snapshots"
[ "$(sqlite3 pbem.db 'SELECT count(*) FROM snapshots WHERE game_id = 3')" -ge 1 ] &&
    ok || bad "prune touched a running game"
expect "audit after prune" 0 ctl audit
lacks "audit after prune" out.txt "FAILED"
expect "an old state after prune" 0 ctl replay 1 --public
expect "prune again: nothing left" 0 ctl prune --days 0
contains "prune again" out.txt "0 snapshots of finished games removed"

# --- with pbemd's configuration (-c): the files it names --------------------
# The hosted keys' key and a password kept outside the database's folder,
# the pid file elsewhere: a backup copies each, a restore honours the
# configured lock and puts back a secret that is missing.
mkdir -p etc run
head -c 32 /dev/urandom >etc/hosted.kek
printf 'smtp-secret\n' >etc/smtp.pass
chmod 600 etc/hosted.kek etc/smtp.pass
cat >pbemd.conf <<EOF
database = $work/pbem.db
hosted_key_file = $work/etc/hosted.kek
pid_file = $work/run/pbemd.pid
mail_smtp_password_file = $work/etc/smtp.pass
EOF
expect "backup with -c" 0 "$bin/pbemctl" -c pbemd.conf backup conf.db
contains "backup -c names the hosted keys' key" out.txt "conf.db.kek (the hosted keys' key, from $work/etc/hosted.kek)"
contains "backup -c names the password" out.txt "conf.db.mail_smtp_password_file (mail_smtp_password_file)"
expect "backup -c: the hosted keys' key" 0 cmp etc/hosted.kek conf.db.kek
expect "backup -c: the SMTP password" 0 cmp etc/smtp.pass conf.db.mail_smtp_password_file
[ "$(stat -c %a conf.db.mail_smtp_password_file)" = 600 ] && ok ||
    bad "conf.db.mail_smtp_password_file is mode $(stat -c %a conf.db.mail_smtp_password_file)"
# pbemd run with the same file holds its lock at the configured
# pid_file, not at <database>.pid: restore finds it there.
start_pbemd -c pbemd.conf
[ -e pbem.db.pid ] && bad "pbemd -c locked pbem.db.pid, not its pid_file" || ok
expect "restore -c while pbemd -c runs" 1 \
    "$bin/pbemctl" -c pbemd.conf restore conf.db
contains "restore -c reads the configured pid file" err.txt "run/pbemd.pid is locked"
expect "restore -c while pbemd -c runs: the database audits" 0 \
    "$bin/pbemctl" -c pbemd.conf audit
kill -TERM "$pid"
wait "$pid"
pid=
rm -f etc/smtp.pass
printf 'changed\n' >etc/hosted.kek
expect "restore with -c" 0 "$bin/pbemctl" -c pbemd.conf restore conf.db
contains "restore -c audits" out.txt "game 1: ok"
expect "restore -c: the hosted keys' key back" 0 cmp conf.db.kek etc/hosted.kek
expect "restore -c: the missing password back" 0 cmp conf.db.mail_smtp_password_file etc/smtp.pass
rm -f etc/smtp.pass
expect "backup -c refuses without a named secret" 1 "$bin/pbemctl" -c pbemd.conf backup conf2.db
contains "backup -c names the missing secret" err.txt "etc/smtp.pass (mail_smtp_password_file)"
[ -e conf2.db ] && bad "a refused backup left conf2.db" || ok

echo "backup-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
