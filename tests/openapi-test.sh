#!/bin/sh
# openapi-test.sh -- the API contract (docs/API.md, "The OpenAPI file"):
#   1. docs/openapi.yaml is a well-formed OpenAPI 3.1 document whose routes
#      are exactly those of daemon/http/http.c's table;
#   2. tests/check_http runs with PBEM_API_RECORD set, recording every
#      answer it receives, and each recorded answer has a status the spec
#      declares for its route, and a JSON body its schema accepts.
# One script, so that the check of the answers always follows the run.
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
build=${top_builddir:-.}
fail() { echo "openapi-test: $*" >&2; exit 1; }

python3 -c 'import yaml, jsonschema' 2>/dev/null ||
	fail "python3-yaml and python3-jsonschema are needed" \
	    "(contrib/install-deps.sh)"

python3 "$top/tests/openapi-check.py" --spec "$top/docs/openapi.yaml" \
    --routes "$top/daemon/http/http.c" || fail "docs/openapi.yaml is not valid"

record=$(mktemp)
trap 'rm -f "$record"' EXIT
PBEM_API_RECORD=$record "$build/tests/check_http" ||
	fail "tests/check_http failed"
[ -s "$record" ] || fail "tests/check_http recorded no answer"
python3 "$top/tests/openapi-check.py" --spec "$top/docs/openapi.yaml" \
    --answers "$record" || fail "an answer does not match docs/openapi.yaml"

# 3. The check can fail: an undeclared field, an undeclared status, a 405
#    without Allow and a wrong type are each refused.
bad=$(mktemp)
trap 'rm -f "$record" "$bad"' EXIT
for line in \
    '{"method":"POST","path":"/v1/players","status":201,"content_type":"application/json","allow":"","body":"{\"id\":1,\"name\":\"a\",\"email\":\"\",\"lang\":\"en\",\"key\":\"k\",\"email_confirmed\":true,\"secret\":\"x\"}"}' \
    '{"method":"GET","path":"/v1/games/1/seed","status":418,"content_type":"application/json","allow":"","body":"{}"}' \
    '{"method":"PUT","path":"/v1/games/1","status":405,"content_type":"application/json","allow":"","body":"{\"error\":{\"code\":\"method_not_allowed\",\"message\":\"m\"}}"}' \
    '{"method":"GET","path":"/v1/webhooks","status":200,"content_type":"application/json","allow":"","body":"{\"webhooks\":[],\"next\":\"3\"}"}'
do
	printf '%s\n' "$line" >"$bad"
	if python3 "$top/tests/openapi-check.py" --spec "$top/docs/openapi.yaml" \
	    --answers "$bad" >/dev/null; then
		fail "openapi-check.py accepted a wrong answer: $line"
	fi
done
echo "openapi-test: the spec, the routes and every recorded answer agree"
