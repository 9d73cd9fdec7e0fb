#!/bin/sh
# check-layout.sh -- the dependencies between the source folders point one
# way (docs/ARCHITECTURE.md, "Layout").  Every quoted #include of a file in
# daemon/<folder>/, store/ or rules/ must name a header of its own folder
# or of a folder listed for it below; anything else fails, naming the file,
# the line and the header.  Headers are found by name (names are unique
# across these folders: the script fails on a repeated one, and on one
# named like a system header).
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top"

# folder: the folders it may include from (besides itself).  Front-ends
# (http, mail, cli) and the process (server) call the engine (pbemctl
# reads pbemd's settings file with runtime/conf.c); the engine
# calls the store and the rules; nothing below includes what is above.
allowed() {
	case $1 in
	rules)		echo "" ;;
	store)		echo "" ;;
	daemon/common)	echo "rules" ;;
	daemon/render)	echo "daemon/common rules" ;;
	daemon/engine)	echo "daemon/common store rules" ;;
	daemon/runtime)	echo "daemon/engine daemon/common store rules" ;;
	daemon/notify)	echo "daemon/runtime daemon/engine daemon/common store rules" ;;
	daemon/http)	echo "daemon/runtime daemon/engine daemon/render daemon/common store rules" ;;
	daemon/mail)	echo "daemon/runtime daemon/engine daemon/render daemon/common store rules" ;;
	daemon/cli)	echo "daemon/runtime daemon/engine daemon/render daemon/common store rules" ;;
	daemon/server)	echo "daemon/http daemon/mail daemon/notify daemon/runtime daemon/engine daemon/render daemon/common store rules" ;;
	*)		echo "UNKNOWN" ;;
	esac
}

map=$(mktemp)
trap 'rm -f "$map"' EXIT
find daemon store rules -name '*.h' | while read -r h; do
	d=$(dirname "$h")
	case $d in rules/*) d=rules ;; esac
	printf '%s %s\n' "$(basename "$h")" "$d"
done | sort > "$map"
dups=$(cut -d' ' -f1 "$map" | uniq -d)
if [ -n "$dups" ]; then
	echo "check-layout: header names used twice: $dups" >&2
	exit 1
fi

# A header named like a system one (limits.h, ...) would shadow it for
# every file compiled with that folder on its include path.
bad=0
for h in $(cut -d' ' -f1 "$map"); do
	if [ -e "/usr/include/$h" ]; then
		echo "check-layout: $h shadows the system header <$h>;" \
		    "give it another name" >&2
		bad=1
	fi
done
checked=0
for f in $(find daemon store rules -name '*.[ch]' | sort); do
	d=$(dirname "$f")
	case $d in rules/*) d=rules ;; esac
	ok=$(allowed "$d")
	if [ "$ok" = UNKNOWN ]; then
		echo "check-layout: $f: folder $d is not in the layout" \
		    "(add it to tests/check-layout.sh and docs/ARCHITECTURE.md)" >&2
		bad=1
		continue
	fi
	checked=$((checked + 1))
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
	    sed 's/^\([0-9]*\):.*"\(.*\)".*/\1 \2/' |
	    while read -r line header; do
		hd=$(awk -v h="$(basename "$header")" '$1 == h { print $2 }' "$map")
		[ -z "$hd" ] && continue	# a generated or system header
		[ "$hd" = "$d" ] && continue
		case " $ok " in *" $hd "*) continue ;; esac
		echo "check-layout: $f:$line: includes $header from $hd;" \
		    "$d may include only from: ${ok:-its own folder}"
	done
done > "$map.out" 2>&1 || true
if [ -s "$map.out" ]; then
	cat "$map.out" >&2
	rm -f "$map.out"
	exit 1
fi
rm -f "$map.out"
[ $bad -eq 0 ] || exit 1
echo "check-layout: $checked files, every include points down the layout"
