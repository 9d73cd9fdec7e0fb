# checks.sh -- what the shell tests (cli-test.sh, ops-test.sh, the e2e
# tests) share:
# counting checks and the checks themselves.  Sourced, not run; the
# caller ends with
#   echo "NAME: $pass passed, $fail failed"; [ $fail -eq 0 ]

pass=0
fail=0
# skip REASON: exit 77 (skipped) -- or, when PBEM_REQUIRE_MAIL_E2E=1 (as
# CI sets), fail: the end-to-end tests must run there.
skip() {
	if [ "${PBEM_REQUIRE_MAIL_E2E:-0}" = 1 ]; then
		echo "FAIL: $* (PBEM_REQUIRE_MAIL_E2E=1)"
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# expect DESCRIPTION EXIT-CODE COMMAND...: run, compare the exit code
# (output in out.txt and err.txt)
expect() {
	what=$1 want=$2
	shift 2
	"$@" >out.txt 2>err.txt
	got=$?
	if [ "$got" -eq "$want" ]; then ok; else
		bad "$what: exit $got, expected $want"
		sed 's/^/  | /' out.txt err.txt >&2
	fi
}
# contains DESCRIPTION FILE TEXT
contains() {
	if grep -qF -- "$3" "$2"; then ok; else
		bad "$1: \"$3\" not in $2"; sed 's/^/  | /' "$2" >&2
	fi
}
# lacks DESCRIPTION FILE TEXT
lacks() {
	if grep -qF -- "$3" "$2"; then
		bad "$1: \"$3\" should not be in $2"; sed 's/^/  | /' "$2" >&2
	else ok; fi
}
