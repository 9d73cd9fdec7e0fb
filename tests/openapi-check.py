#!/usr/bin/env python3
"""openapi-check.py -- check docs/openapi.yaml, and answers against it.

  --spec FILE      the OpenAPI 3.1 document (always read and checked):
                   the openapi version, info, every operation has responses
                   with three-digit statuses, every local $ref resolves,
                   every schema is valid for jsonschema's validator class of
                   its dialect (JSON Schema 2020-12);
  --routes FILE    daemon/http/http.c: every route of its table is an
                   operation of the spec, and every operation a route;
  --answers FILE   JSON lines recorded by tests/check_http with
                   PBEM_API_RECORD (method, path, status, content_type,
                   allow, body): each status is declared for its route, each
                   media type too, and each body is valid for the schema
                   of that route, status and media type: a JSON body as
                   JSON, any other as a string (an HTML page, a script);
                   a text/event-stream body is also cut into its frames,
                   each checked (id, event, data) and its data valid for
                   the media type's x-event-data schema.  An answer
                   to a path or method the API does not serve must be the
                   404 or 405 error object, a 405 with an Allow header.
  --require-all    with --answers: every operation of the spec must be in
                   the recording, each that declares a
                   text/event-stream answer must have answered one, and
                   each status an operation lists in x-require-status
                   (the successful web move's 303) must be in it.

Exit 0 when everything holds, 1 with one line per problem otherwise.
Uses python3-yaml and python3-jsonschema (Debian 12 packages).
"""

import argparse
import json
import re
import sys

import jsonschema
import yaml

METHODS = ("get", "put", "post", "delete", "options", "head", "patch",
           "trace")
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def resolve_pointer(doc, ref):
    """The node a local reference "#/a/b" names, or None."""
    if not ref.startswith("#/"):
        return None
    node = doc
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def walk(node, where):
    """Every (where, dict) of a YAML tree, depth first."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from walk(value, where + "/" + str(key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, where + "/" + str(i))


def deref(doc, node):
    """node, or what its $ref names (followed to the end)."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 20:
        node = resolve_pointer(doc, node["$ref"])
        seen += 1
    return node


def rewrite_refs(node):
    """node with references to #/components/schemas/X as #/$defs/X."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                out[key] = value.replace("#/components/schemas/", "#/$defs/")
            else:
                out[key] = rewrite_refs(value)
        return out
    if isinstance(node, list):
        return [rewrite_refs(v) for v in node]
    return node


# The component schemas rewritten once per document (by id), since every
# answer's check needs them.
REWRITTEN_DEFS = {}


def standalone(doc, schema):
    """schema as a document jsonschema can use alone: references to
    #/components/schemas/X become #/$defs/X, with every component schema
    under $defs."""
    whole = rewrite_refs(schema)
    if not isinstance(whole, dict):
        return whole
    if id(doc) not in REWRITTEN_DEFS:
        REWRITTEN_DEFS[id(doc)] = rewrite_refs(
            doc.get("components", {}).get("schemas", {}))
    whole = dict(whole)
    whole["$schema"] = DIALECT
    whole["$defs"] = REWRITTEN_DEFS[id(doc)]
    return whole


def validator_class():
    return jsonschema.validators.validator_for({"$schema": DIALECT})


def check_structure(doc, problems):
    version = str(doc.get("openapi", ""))
    if not re.fullmatch(r"3\.1\.\d+", version):
        problems.append("openapi: %r is not 3.1.x" % version)
    info = doc.get("info")
    if not isinstance(info, dict) or "title" not in info or \
            "version" not in info:
        problems.append("info: needs title and version")
    if not isinstance(doc.get("paths"), dict) or not doc["paths"]:
        problems.append("paths: missing or empty")
        return
    for where, node in walk(doc, "#"):
        ref = node.get("$ref")
        if isinstance(ref, str) and resolve_pointer(doc, ref) is None:
            problems.append("%s: $ref %s does not resolve" % (where, ref))
    for path, item in doc["paths"].items():
        if not path.startswith("/"):
            problems.append("paths: %r does not start with /" % path)
        if not isinstance(item, dict):
            problems.append("%s: not an object" % path)
            continue
        templated = set(re.findall(r"\{([^}]+)\}", path))
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            where = "%s %s" % (method.upper(), path)
            named = set()
            for param in item.get("parameters", []) + \
                    op.get("parameters", []):
                param = deref(doc, param)
                if isinstance(param, dict) and param.get("in") == "path":
                    named.add(param.get("name"))
            if named != templated:
                problems.append("%s: path parameters %s, template names %s"
                                % (where, sorted(named), sorted(templated)))
            responses = op.get("responses")
            if not isinstance(responses, dict) or not responses:
                problems.append("%s: no responses" % where)
                continue
            for status, response in responses.items():
                if not re.fullmatch(r"[1-5][0-9][0-9]", str(status)):
                    problems.append("%s: response %r is not a status"
                                    % (where, status))
                response = deref(doc, response)
                if not isinstance(response, dict) or \
                        "description" not in response:
                    problems.append("%s %s: a response needs a description"
                                    % (where, status))
    schemas = []
    for where, node in walk(doc, "#"):
        if "schema" in node and isinstance(node["schema"], dict):
            schemas.append((where + "/schema", node["schema"]))
    for name, schema in doc.get("components", {}).get("schemas",
                                                       {}).items():
        schemas.append(("#/components/schemas/" + name, schema))
    cls = validator_class()
    # Each schema against the meta-schema alone: a $ref is checked above
    # (it resolves), so the component schemas need not come along.
    for where, schema in schemas:
        alone = rewrite_refs(schema)
        if isinstance(alone, dict):
            alone = dict(alone, **{"$schema": DIALECT})
        try:
            cls.check_schema(alone)
        except jsonschema.exceptions.SchemaError as e:
            problems.append("%s: not a valid JSON Schema: %s"
                            % (where, e.message))


def template_key(path):
    """A path with every {name} as {}: /v1/games/{} ."""
    return re.sub(r"\{[^}]*\}", "{}", path)


def check_routes(doc, c_file, problems):
    text = open(c_file, encoding="utf-8").read()
    table = re.search(r"routes\[\]\s*=\s*\{(.*?)\n\};", text, re.S)
    if table is None:
        problems.append("%s: no routes[] table" % c_file)
        return
    served = set()
    for method, pattern in re.findall(
            r'\{\s*"([A-Z]+)"\s*,\s*"([^"]+)"', table.group(1)):
        served.add((method.lower(), template_key(pattern)))
    if not served:
        problems.append("%s: the routes[] table has no route" % c_file)
    declared = set()
    for path, item in doc.get("paths", {}).items():
        for method in METHODS:
            if isinstance(item, dict) and method in item:
                declared.add((method, template_key(path)))
    for method, path in sorted(served - declared):
        problems.append("route %s %s is served but not in the spec"
                        % (method.upper(), path))
    for method, path in sorted(declared - served):
        problems.append("%s %s is in the spec but not served"
                        % (method.upper(), path))


def find_path(doc, concrete):
    """The spec's path template that concrete matches, or None; a
    literal path wins over a template."""
    best = None
    for path in doc.get("paths", {}):
        pattern = "^" + re.sub(r"\\\{[^}]*\\\}", "[^/]+",
                               re.escape(path)) + "$"
        if re.match(pattern, concrete):
            if best is None or path.count("{") < best.count("{"):
                best = path
    return best


def check_error_body(doc, body, where, problems):
    schema = doc["components"]["schemas"].get("Error")
    validate(doc, schema, body, where, problems)


def validate(doc, schema, body, where, problems):
    try:
        value = json.loads(body)
    except ValueError:
        problems.append("%s: the body is not JSON" % where)
        return
    validate_value(doc, schema, value, where, problems)


# One validator per schema of the spec (by id), reused for every answer.
VALIDATORS = {}


def validate_value(doc, schema, value, where, problems):
    if id(schema) not in VALIDATORS:
        VALIDATORS[id(schema)] = validator_class()(standalone(doc, schema))
    validator = VALIDATORS[id(schema)]
    for error in sorted(validator.iter_errors(value), key=str)[:3]:
        problems.append("%s: at /%s: %s" % (
            where, "/".join(str(p) for p in error.absolute_path),
            error.message[:300]))


SSE_FIELDS = ("id", "event", "data", "retry")


def check_event_stream(doc, media_object, body, where, problems):
    """The frames of a Server-Sent Events body: each line a known field
    or a comment; a frame with data has an integer id and an event type,
    and its data is JSON valid for the x-event-data schema.  A last frame
    no blank line ends (the stream was cut while read) is left out."""
    data_schema = media_object.get("x-event-data")
    if data_schema is None:
        problems.append("%s: text/event-stream declares no x-event-data"
                        % where)
        return
    frames = body.split("\n\n")
    for number, frame in enumerate(frames[:-1], 1):
        fields = {}
        for line in frame.split("\n"):
            if line.startswith(":"):
                continue
            name, sep, value = line.partition(": ")
            if not sep or name not in SSE_FIELDS or name in fields:
                problems.append("%s: frame %d: line %r" % (where, number,
                                                            line[:80]))
                continue
            fields[name] = value
        if "data" not in fields:
            continue
        if not re.fullmatch(r"-?[0-9]+", fields.get("id", "")) or \
                not re.fullmatch(r"[a-z_]+", fields.get("event", "")):
            problems.append("%s: frame %d: data without an id and an "
                            "event type" % (where, number))
        try:
            value = json.loads(fields["data"])
        except ValueError:
            problems.append("%s: frame %d: the data is not JSON"
                            % (where, number))
            continue
        validate_value(doc, data_schema, value, "%s, frame %d"
                       % (where, number), problems)


def check_answers(doc, answers_file, problems, streams, statuses):
    """Every recorded answer against the spec; the (method, path) of
    each operation answered is returned, each whose answer was a
    text/event-stream is added to streams, and (method, path, status) of
    each declared answer to statuses."""
    seen = set()
    for number, line in enumerate(open(answers_file, encoding="utf-8"), 1):
        answer = json.loads(line)
        method = answer["method"].lower()
        status = str(answer["status"])
        media = answer["content_type"].split(";")[0].strip().lower()
        where = "answer %d, %s %s %s" % (number, answer["method"],
                                         answer["path"], status)
        path = find_path(doc, answer["path"])
        item = doc["paths"].get(path) if path is not None else None
        op = item.get(method) if item is not None else None
        if op is None or status == "405":
            if status not in ("404", "405"):
                problems.append("%s: no such operation in the spec" % where)
                continue
            if status == "405" and not answer.get("allow"):
                problems.append("%s: a 405 without Allow" % where)
            check_error_body(doc, answer["body"], where, problems)
            continue
        seen.add((method, path))
        response = deref(doc, op["responses"].get(status))
        if response is None:
            problems.append("%s: status %s is not declared" % (where,
                                                                status))
            continue
        statuses.add((method, path, status))
        content = response.get("content")
        if content is None:
            if answer["body"] != "":
                problems.append("%s: a body, but no content is declared"
                                % where)
            continue
        if media not in content:
            problems.append("%s: media type %r is not declared (%s)"
                            % (where, media, ", ".join(content)))
            continue
        schema = content[media].get("schema")
        if media == "application/json" and schema is not None:
            validate(doc, schema, answer["body"], where, problems)
        elif schema is not None:
            validate_value(doc, schema, answer["body"], where, problems)
        if media == "text/event-stream":
            streams.add((method, path))
            check_event_stream(doc, content[media], answer["body"], where,
                               problems)
    return seen


def declares_stream(op):
    """Does an operation declare a text/event-stream answer?"""
    for response in op.get("responses", {}).values():
        if isinstance(response, dict) and \
                "text/event-stream" in response.get("content", {}):
            return True
    return False


def check_coverage(doc, seen, streams, statuses, problems):
    """--require-all: every operation of the spec was answered in the
    recording, each that declares a stream answered one, and each
    status an operation lists in x-require-status was answered."""
    for path, item in doc["paths"].items():
        for method in METHODS:
            if method not in item:
                continue
            if (method, path) not in seen:
                problems.append("%s %s: not in the recording"
                                % (method.upper(), path))
            elif declares_stream(item[method]) and \
                    (method, path) not in streams:
                problems.append("%s %s: no text/event-stream answer in "
                                "the recording" % (method.upper(), path))
            for status in item[method].get("x-require-status", []):
                if (method, path, str(status)) not in statuses:
                    problems.append("%s %s: no %s answer in the recording"
                                    % (method.upper(), path, status))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", required=True)
    parser.add_argument("--routes")
    parser.add_argument("--answers")
    parser.add_argument("--require-all", action="store_true")
    args = parser.parse_args()
    problems = []
    try:
        doc = yaml.safe_load(open(args.spec, encoding="utf-8"))
    except yaml.YAMLError as e:
        print("%s: not YAML: %s" % (args.spec, e))
        return 1
    if not isinstance(doc, dict):
        print("%s: not a YAML mapping" % args.spec)
        return 1
    check_structure(doc, problems)
    if args.routes:
        check_routes(doc, args.routes, problems)
    if args.answers and not problems:
        streams = set()
        statuses = set()
        seen = check_answers(doc, args.answers, problems, streams, statuses)
        print("openapi-check: %d operations answered in the recording"
              % len(seen))
        if args.require_all:
            check_coverage(doc, seen, streams, statuses, problems)
        else:
            for path, item in doc["paths"].items():
                for method in METHODS:
                    if method in item and (method, path) not in seen:
                        print("openapi-check: not in the recording: %s %s"
                              % (method.upper(), path))
    for problem in problems:
        print(problem)
    if not problems:
        print("openapi-check: %s holds" % args.spec)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
