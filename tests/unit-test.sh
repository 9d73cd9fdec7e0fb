#!/bin/sh
# unit-test.sh -- the systemd files `make` generates from contrib/*.in
# (contrib/local.mk), checked as made and then as installed:
#   1. every placeholder filled in, LimitNOFILE sized to the connection
#      limits configure was given, sysusers and tmpfiles naming the unit's
#      user and folder;
#   2. `make install DESTDIR=ROOT` (a fresh folder) puts the programs,
#      the unit, sysusers.d, tmpfiles.d, the example configuration, the
#      templates and the man pages where configure said; the installed
#      pbemd runs, finds its templates at the path built into it (under
#      ROOT), and `pbemd -n` accepts the installed example configuration;
#      and `make install prefix=OTHER` after the build installs a unit
#      naming OTHER's programs and configuration (made again at install
#      time, contrib/local.mk), and a plain make after it makes the unit
#      with configure's paths again;
#   3. `systemd-analyze verify --root=ROOT` passes on the installed unit:
#      with --root, verify reads the unit from ROOT's unit folders and
#      checks that ExecStart, ExecStartPre and ExecReload name programs
#      that exist under ROOT, so the installed unit is checked with its
#      installed ExecStart (the pbemd `make install` put there), not a
#      copy edited to point elsewhere.  The unit's dependencies
#      (multi-user.target, network-online.target, ...) and /bin/kill
#      (ExecReload) belong to the system, not to pbem: the test copies
#      the host's target units and kill into ROOT, as on a real server.
#      When the unit folder configure chose is not one systemd searches
#      (a --prefix such as `make distcheck`'s), the installed unit is
#      copied, unchanged, into ROOT/etc/systemd/system, where an
#      administrator would put it;
#   4. the check can fail: with the installed pbemd removed, verify
#      names the missing program.
# Without systemd-analyze (a container or chroot with no systemd
# package) parts 3 and 4 are skipped, and said so.
set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
work=$(mktemp -d /tmp/pbem-unit-XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
. "$top_srcdir/tests/checks.sh"

# --- 1. as made -----------------------------------------------------------------
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

# --- 2. as installed ------------------------------------------------------------
root="$work/root"
# A make of its own: the outer make's jobserver is not this one's.
if env -u MAKEFLAGS -u MFLAGS "${MAKE:-make}" -C "$top_builddir" install \
    DESTDIR="$root" >"$work/install.log" 2>&1; then ok
else
	bad "make install DESTDIR=$root failed"
	sed 's/^/  | /' "$work/install.log" >&2
	echo "unit-test: $pass passed, $fail failed"
	exit 1
fi
# The installed unit: one file, and the same as the one made.
find "$root" -path '*/systemd/system/pbemd.service' >"$work/units"
if [ "$(wc -l <"$work/units")" = 1 ]; then ok
else bad "installed units: $(cat "$work/units")"; fi
installed=$(head -n 1 "$work/units")
cmp -s "$unit" "$installed" && ok ||
    bad "the installed unit $installed differs from $unit"
unitdir=$(dirname "${installed#"$root"}")
sbin=$(sed -n 's|^ExecStart=\(.*\)/pbemd .*|\1|p' "$installed")
conf=$(sed -n 's|^ExecStart=.*/pbemd -c \(.*\)$|\1|p' "$installed")
for f in "$sbin/pbemd" "$conf" "$(dirname "$conf")/pbemd.conf.example"; do
	[ -s "$root$f" ] && ok || bad "make install did not put $f under $root"
done
for d in sysusers.d tmpfiles.d; do
	find "$root" -path "*/$d/pbem.conf" -type f | grep -q . && ok ||
	    bad "make install did not put $d/pbem.conf"
done
[ -x "$root$sbin/pbemd" ] && ok || bad "$root$sbin/pbemd is not executable"
for f in pbem pbemctl; do
	find "$root" -path "*/bin/$f" -type f -perm -u+x | grep -q . && ok ||
	    bad "make install did not put $f in a bin folder"
done
for page in man1/pbem.1 man5/pbemd.conf.5 man8/pbemctl.8 man8/pbemd.8; do
	find "$root" -path "*/man/$page" | grep -q . && ok ||
	    bad "make install did not put the page $page"
done

# The installed pbemd runs, and the templates path built into it is
# where `make install` put them (under $root, since DESTDIR is not in
# the path): -n names the path it tried.
cd "$work" || exit 1
expect "the installed pbemd --version" 0 "$root$sbin/pbemd" --version
contains "the installed pbemd --version" out.txt "pbemd "
"$root$sbin/pbemd" -n -c "$root$conf" -d "$work/pbem.db" >out.txt 2>err.txt
tpl=$(sed -n -e 's|^pbemd: templates: \(/[^:]*\): .*|\1|p' \
    -e 's|^pbemd: templates: [0-9]* loaded from \(/.*\)$|\1|p' out.txt err.txt)
if [ -n "$tpl" ] && ls "$root$tpl"/*/*/*.mustache >/dev/null 2>&1; then ok
else bad "pbemd looks for its templates in \"$tpl\", not where make install put them"
	sed 's/^/  | /' out.txt err.txt >&2
fi
cards=$(find "$root" -type d -path '*/pbem/cards' | head -n 1)
expect "pbemd -n accepts the installed example configuration" 0 \
    env PBEM_CARDS="$cards" "$root$sbin/pbemd" -n -c "$root$conf" \
    -t "$root$tpl" -d "$work/pbem.db"
contains "pbemd -n loads the installed templates" out.txt \
    "loaded from $root$tpl"
lacks "pbemd -n finds the installed cards" err.txt "warning"

# `make install prefix=/x` after the build: the unit is made again at
# install time, naming /x (contrib/paths.stamp), and a plain make after it
# makes it again with configure's paths.
before=$(sed -n 's/^ExecStart=//p' "$unit")
other="$work/prefix"
if env -u MAKEFLAGS -u MFLAGS "${MAKE:-make}" -C "$top_builddir" install \
    prefix="$other" DESTDIR="$work/root2" >"$work/install2.log" 2>&1; then ok
else bad "make install prefix=$other failed"
	sed 's/^/  | /' "$work/install2.log" >&2
fi
find "$work/root2" -path '*/systemd/system/pbemd.service' >"$work/units2"
if [ "$(wc -l <"$work/units2")" = 1 ]; then
	contains "make install prefix=: the unit starts the pbemd it installed" \
	    "$(head -n 1 "$work/units2")" \
	    "ExecStart=$other/sbin/pbemd -c $other/etc/pbem/pbemd.conf"
	contains "make install prefix=: the unit's checks the same" \
	    "$(head -n 1 "$work/units2")" "$other/sbin/pbemd -n -c "
else bad "make install prefix=$other installed units: $(cat "$work/units2")"; fi
[ -x "$work/root2$other/sbin/pbemd" ] && ok ||
    bad "make install prefix=$other did not put pbemd in $other/sbin"
env -u MAKEFLAGS -u MFLAGS "${MAKE:-make}" -C "$top_builddir" \
    contrib/pbemd.service >/dev/null 2>&1
if [ "$(sed -n 's/^ExecStart=//p' "$unit")" = "$before" ]; then ok
else bad "a plain make after make install prefix= left $(grep ^ExecStart= "$unit")"; fi

# --- 3. systemd-analyze verify on the installed unit ----------------------------
if ! command -v systemd-analyze >/dev/null; then
	echo "SKIP: systemd-analyze is not installed; the unit was not verified"
	echo "unit-test: $pass passed, $fail failed"
	[ $fail -eq 0 ] || exit 1
	exit 77
fi
# The system's part: the target units the unit is ordered after or
# wanted by, and the programs it names that pbem does not install
# (/bin/kill); copies, since verify --root does not follow a link out
# of the root.
systemunits=/usr/lib/systemd/system
[ -d "$systemunits" ] || systemunits=/lib/systemd/system
mkdir -p "$root/usr/lib/systemd/system" "$root/etc/systemd/system"
for t in "$systemunits"/*.target; do
	[ -e "$root/usr/lib/systemd/system/${t##*/}" ] ||
	    cp -L "$t" "$root/usr/lib/systemd/system/"
done
for prog in $(sed -n 's/^Exec[A-Za-z]*=[-@:+!]*\([^ ]*\).*/\1/p' "$installed" |
    sort -u); do
	[ -e "$root$prog" ] && continue
	mkdir -p "$root$(dirname "$prog")"
	cp -L "$prog" "$root$prog" || bad "$prog (from the unit) is not on this system"
done
case $unitdir in
/etc/systemd/system | /usr/local/lib/systemd/system | /usr/lib/systemd/system | \
    /lib/systemd/system) ;;
*)	cp "$installed" "$root/etc/systemd/system/pbemd.service" ;;
esac
# --man=no: man:pbemd(8) and the others are installed under $root, not
# where man looks (tests/man-test.sh lints them).
if systemd-analyze verify --man=no --root="$root" pbemd.service \
    >"$work/verify" 2>&1 && ! [ -s "$work/verify" ]; then ok
else bad "systemd-analyze verify --root=$root pbemd.service: $(cat "$work/verify")"; fi

# --- 4. the check can fail -------------------------------------------------------
mv "$root$sbin/pbemd" "$root$sbin/pbemd.moved"
if systemd-analyze verify --man=no --root="$root" pbemd.service \
    >"$work/verify" 2>&1 && ! [ -s "$work/verify" ]; then
	bad "systemd-analyze verify passed with $sbin/pbemd missing"
else contains "verify names the missing pbemd" "$work/verify" "$sbin/pbemd"; fi
mv "$root$sbin/pbemd.moved" "$root$sbin/pbemd"

echo "unit-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
