#!/bin/sh
# unit-test.sh -- the systemd files `make` generates from contrib/*.in
# (contrib/local.mk): every placeholder filled in, LimitNOFILE sized to
# the connection limits configure was given, and `systemd-analyze
# verify` finds nothing wrong with the unit.  verify checks that the
# programs it names exist, so the test verifies a copy whose ExecStart
# and ExecStartPre name the pbemd just built (the unit's other lines
# unchanged).  Without systemd-analyze (a container or chroot with no
# systemd package) that last part is skipped, and said so.
set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
work=$(mktemp -d /tmp/pbem-unit-XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
. "$top_srcdir/tests/checks.sh"

unit="$top_builddir/contrib/pbemd.service"
for f in "$unit" "$top_builddir/contrib/pbem.sysusers" \
    "$top_builddir/contrib/pbem.tmpfiles"; do
	[ -s "$f" ] && ok || { bad "$f was not made"; continue; }
	lacks "$f: every placeholder filled" "$f" "@sbindir@"
	if grep -E '@[a-zA-Z_]+@' "$f" | grep -v '@system-service' >"$work/left"; then
		bad "$f keeps placeholders: $(cat "$work/left")"
	else ok; fi
done
contains "the unit starts pbemd with the installed configuration" "$unit" \
	"/pbem/pbemd.conf"
contains "the unit checks the configuration first" "$unit" "pbemd -n -c "
user=$(sed -n 's/^User=//p' "$unit")
contains "sysusers makes the unit's user" "$top_builddir/contrib/pbem.sysusers" "u $user "
dir=$(sed -n 's/^WorkingDirectory=//p' "$unit")
contains "tmpfiles makes the unit's folder" "$top_builddir/contrib/pbem.tmpfiles" "d $dir 0750 $user $user"

# LimitNOFILE holds what pbemd needs with the limits configure was given
# (docs/CONFIG.md, "Limits"): connections + 64 + 128 + 5 x threads.
conns=$(sed -n 's/^# Open files: twice what http_max_connections (\([0-9]*\)).*/\1/p' "$unit")
threads=$(sed -n 's/^# answered 503 + 128 for the rest + 5 per HTTP thread (\([0-9]*\)).*/\1/p' "$unit")
limit=$(sed -n 's/^LimitNOFILE=//p' "$unit")
if [ -n "$conns" ] && [ -n "$threads" ] &&
    [ "${limit:-0}" -ge $((conns + 64 + 128 + 5 * threads)) ]; then ok
else bad "LimitNOFILE=$limit for $conns connections and $threads threads"; fi

if ! command -v systemd-analyze >/dev/null; then
	echo "SKIP: systemd-analyze is not installed; the unit was not verified"
	echo "unit-test: $pass passed, $fail failed"
	[ $fail -eq 0 ] || exit 1
	exit 77
fi
sbin=$(sed -n 's|^ExecStart=\(.*\)/pbemd .*|\1|p' "$unit")
sed "s|$sbin/pbemd|$top_builddir/daemon/pbemd|" "$unit" >"$work/pbemd.service"
# --man=no: the pages are installed by `make install`, not here
# (tests/man-test.sh lints them).
if systemd-analyze verify --man=no "$work/pbemd.service" >"$work/verify" 2>&1 &&
    ! [ -s "$work/verify" ]; then ok
else bad "systemd-analyze verify: $(cat "$work/verify")"; fi

echo "unit-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
