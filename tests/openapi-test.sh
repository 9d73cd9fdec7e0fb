#!/bin/sh
# openapi-test.sh -- the API contract (docs/API.md, "The OpenAPI file"):
#   1. docs/openapi.yaml is a well-formed OpenAPI 3.1 document whose routes
#      are exactly those of daemon/http/http.c's table;
#   2. tests/check_http runs with PBEM_API_RECORD set, recording every
#      answer it receives (the JSON API, the /play/ pages and the
#      Server-Sent Events streams), and each recorded answer has a status
#      the spec declares for its route, and a body its schema accepts (each
#      event of a stream, its x-event-data schema); every operation of the
#      spec, the /play/ pages' included, was answered, and each that
#      declares a Server-Sent Events stream answered one (--require-all).
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
grep -q '"content_type":"text/event-stream' "$record" ||
	fail "tests/check_http recorded no Server-Sent Events stream"
grep -q '"path":"/play/games/[0-9]*","status":200,"content_type":"text/html' \
    "$record" || fail "tests/check_http recorded no seat page"
grep -q '"path":"/play/games/[0-9]*/move","status":303,' "$record" ||
	fail "tests/check_http recorded no move played from the web page (303)"
python3 "$top/tests/openapi-check.py" --spec "$top/docs/openapi.yaml" \
    --answers "$record" --require-all ||
	fail "an answer does not match docs/openapi.yaml, or an operation was not answered"

# 3. The check can fail: an undeclared field, an undeclared status, a 405
#    without Allow, a wrong type, a field added to an extended schema (the
#    created game), a hand in an event (long-poll or Server-Sent Events), a
#    stream line that is no SSE field and a page that is not a whole HTML
#    page are each refused; so is a recording without the move form's
#    answers, or without the global stream.
bad=$(mktemp)
trap 'rm -f "$record" "$bad" "$bad.out"' EXIT
for line in \
    '{"method":"POST","path":"/v1/players","status":201,"content_type":"application/json","allow":"","body":"{\"id\":1,\"name\":\"a\",\"email\":\"\",\"lang\":\"en\",\"key\":\"k\",\"email_confirmed\":true,\"secret\":\"x\"}"}' \
    '{"method":"GET","path":"/v1/games/1/seed","status":418,"content_type":"application/json","allow":"","body":"{}"}' \
    '{"method":"PUT","path":"/v1/games/1","status":405,"content_type":"application/json","allow":"","body":"{\"error\":{\"code\":\"method_not_allowed\",\"message\":\"m\"}}"}' \
    '{"method":"GET","path":"/v1/webhooks","status":200,"content_type":"application/json","allow":"","body":"{\"webhooks\":[],\"next\":\"3\"}"}' \
    '{"method":"POST","path":"/v1/games","status":201,"content_type":"application/json","allow":"","body":"{\"id\":1,\"ruleset\":\"x\",\"status\":\"forming\",\"seats\":2,\"players\":[\"a\",null],\"open_seats\":1,\"options\":{},\"seed_commitment\":\"ab\",\"created\":1,\"started\":false,\"bogus\":1}"}' \
    '{"method":"GET","path":"/v1/events","status":200,"content_type":"application/json","allow":"","body":"{\"events\":[{\"seq\":0,\"kind\":0,\"seat\":-1,\"time\":1,\"prev_hash\":\"00\",\"hash\":\"00\",\"receipt\":\"00\",\"text\":null,\"redacted\":true,\"name\":null,\"summary\":{\"en\":\"a\",\"fr\":\"b\"},\"game\":1,\"event_id\":1,\"hand\":[3]}],\"next_after\":1,\"timed_out\":false}"}' \
    '{"method":"GET","path":"/v1/events","status":200,"content_type":"text/event-stream; charset=utf-8","allow":"","body":"retry: 3000\n\nid: 1\nevent: genesis\ndata: {\"seq\":0,\"kind\":0,\"seat\":-1,\"time\":1,\"prev_hash\":\"00\",\"hash\":\"00\",\"receipt\":\"00\",\"text\":null,\"redacted\":true,\"name\":null,\"summary\":{\"en\":\"a\",\"fr\":\"b\"},\"game\":1,\"event_id\":1,\"hand\":[3]}\n\n"}' \
    '{"method":"GET","path":"/v1/games/1/events","status":200,"content_type":"text/event-stream; charset=utf-8","allow":"","body":"retry: 3000\n\nid: 1\nevent: move\nhand: 3\n\n"}' \
    '{"method":"GET","path":"/play/games/1/public","status":200,"content_type":"text/html; charset=utf-8","allow":"","body":"<p>not a page</p>"}'
do
	printf '%s\n' "$line" >"$bad"
	if python3 "$top/tests/openapi-check.py" --spec "$top/docs/openapi.yaml" \
	    --answers "$bad" >/dev/null; then
		fail "openapi-check.py accepted a wrong answer: $line"
	fi
done
# A recording that lacks an operation, or holds an event route's
# long-poll answer but not its stream, is refused by --require-all.
grep -v '"path":"/play/games/[0-9]*/move"' "$record" >"$bad"
python3 "$top/tests/openapi-check.py" --spec "$top/docs/openapi.yaml" \
    --answers "$bad" --require-all >"$bad.out" &&
	fail "openapi-check.py --require-all missed an operation not answered"
grep -q 'POST /play/games/{id}/move: not in the recording' "$bad.out" ||
	fail "openapi-check.py did not name the operation not answered"
grep -v '"path":"/play/games/[0-9]*/move","status":303,' "$record" >"$bad"
python3 "$top/tests/openapi-check.py" --spec "$top/docs/openapi.yaml" \
    --answers "$bad" --require-all >"$bad.out" &&
	fail "openapi-check.py --require-all missed the web move's 303 not answered"
grep -q 'POST /play/games/{id}/move: no 303 answer in the recording' "$bad.out" ||
	fail "openapi-check.py did not name the 303 not answered"
grep -v '"path":"/v1/events","status":200,"content_type":"text/event-stream' \
    "$record" >"$bad"
python3 "$top/tests/openapi-check.py" --spec "$top/docs/openapi.yaml" \
    --answers "$bad" --require-all >"$bad.out" &&
	fail "openapi-check.py --require-all missed a stream not answered"
grep -q 'GET /v1/events: no text/event-stream answer' "$bad.out" ||
	fail "openapi-check.py did not name the stream not answered"
echo "openapi-test: the spec, the routes and every recorded answer agree"

# 4. The spec check can fail: a route left out of the spec, a $ref to
#    nothing, and a schema that is no JSON Schema.
spec=$(mktemp)
trap 'rm -f "$record" "$bad" "$bad.out" "$spec"' EXIT
sed 's|^  /v1/games/{id}/commands:|  /v1/games/{id}/command:|' \
    "$top/docs/openapi.yaml" >"$spec"
python3 "$top/tests/openapi-check.py" --spec "$spec" \
    --routes "$top/daemon/http/http.c" >"$bad" &&
	fail "openapi-check.py missed a route left out of the spec"
grep -q 'POST /v1/games/{}/commands is served but not in the spec' "$bad" ||
	fail "openapi-check.py did not name the missing route"
sed 's|#/components/schemas/MoveResult|#/components/schemas/NoSuch|' \
    "$top/docs/openapi.yaml" >"$spec"
python3 "$top/tests/openapi-check.py" --spec "$spec" >"$bad" &&
	fail "openapi-check.py missed a \$ref to nothing"
grep -q 'does not resolve' "$bad" ||
	fail "openapi-check.py did not name the \$ref to nothing"
sed 's|text/css: {schema: {type: string, minLength: 1}}|text/css: {schema: {type: string, minLength: -1}}|' \
    "$top/docs/openapi.yaml" >"$spec"
python3 "$top/tests/openapi-check.py" --spec "$spec" >"$bad" &&
	fail "openapi-check.py missed a schema that is no JSON Schema"
grep -q 'play.css/get/responses/200/content/text/css/schema: not a valid JSON Schema' "$bad" ||
	fail "openapi-check.py did not name the schema that is no JSON Schema"
echo "openapi-test: the checker refuses a spec missing a route, a \$ref or a valid schema"
