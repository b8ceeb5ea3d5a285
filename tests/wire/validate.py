#!/usr/bin/python3
"""Validate kebab wire output against docs/wire-schema/v1/<name>.schema.json.

Usage:
  validate.py NAME [FILE|-]        validate one JSON document, or ndjson (one object a line)
  validate.py --array NAME [FILE]  the input is one JSON array; validate every element
  validate.py --ingest-stream ingest_progress [FILE]
                                   also check the §2.4a stream contract: scan_started first,
                                   exactly one terminal event (completed|aborted), then one
                                   final ingest_report.v1 line
  validate.py --check-schemas      every schema is a valid Draft 2020-12 schema, has the
                                   right $id/title/description/schema_version const, every
                                   property has a description, every $ref resolves
  validate.py --check-error-codes status.cc
                                   error.v1's code enum equals the names in ErrorCodeName()

NAME is a schema name such as search_hit (".v1" and ".schema.json" suffixes are accepted).
FILE defaults to stdin. With ingest_progress, lines whose schema_version is
"ingest_report.v1" are validated against ingest_report (the last line of `ingest --json`).

Exit status: 0 all valid, 1 invalid (messages on stderr: file, line, JSON path, reason),
2 usage error (unknown schema, unreadable file).

Needs python3-jsonschema (Debian 12: 4.10); formats are asserted, date-time by a built-in
RFC 3339 checker.
"""
import argparse
import datetime
import json
import os
import re
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "docs", "wire-schema", "v1"))
ID_BASE = "https://kebab.dev/wire-schema/v1/"
MAX_ERRORS_PER_DOC = 20

# When validating a stream against NAME, objects carrying one of these schema_versions are
# validated against the mapped schema instead.
DISPATCH = {"ingest_progress": {"ingest_report.v1": "ingest_report"}}


class UsageError(Exception):
    pass


# ------------------------------------------------------------------------- schemas

_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def _is_date_time(value):
    if not isinstance(value, str):
        return True  # format only constrains strings
    m = _RFC3339.match(value)
    if not m:
        return False
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    if hour > 23 or minute > 59 or second > 60:  # 60 = leap second
        return False
    off = m.group(8)
    if off not in ("Z", "z") and (int(off[1:3]) > 23 or int(off[4:6]) > 59):
        return False
    return True


def format_checker():
    checker = jsonschema.FormatChecker()
    checker.checks("date-time")(_is_date_time)
    return checker


def load_schemas(schema_dir):
    """Every *.schema.json in schema_dir, keyed by short name."""
    if not os.path.isdir(schema_dir):
        raise UsageError(f"schema directory not found: {schema_dir}")
    schemas = {}
    for fn in sorted(os.listdir(schema_dir)):
        if not fn.endswith(".schema.json"):
            continue
        path = os.path.join(schema_dir, fn)
        try:
            with open(path, encoding="utf-8") as f:
                schemas[fn[: -len(".schema.json")]] = json.load(f)
        except (OSError, ValueError) as e:
            raise UsageError(f"{path}: cannot load schema: {e}")
    if not schemas:
        raise UsageError(f"no *.schema.json in {schema_dir}")
    return schemas


class LocalResolver(jsonschema.RefResolver):
    """Resolves $refs from the local store only: never fetches a URL."""

    def resolve_remote(self, uri):
        raise jsonschema.exceptions.RefResolutionError(
            f"{uri} is not one of the local schemas (remote $refs are not fetched)")


def make_resolver(schemas, schema):
    store = {s.get("$id", ID_BASE + n + ".schema.json"): s for n, s in schemas.items()}
    return LocalResolver(base_uri=schema.get("$id", ""), referrer=schema, store=store)


def make_validator(schemas, name):
    schema = schemas[name]
    resolver = make_resolver(schemas, schema)
    return jsonschema.Draft202012Validator(schema, resolver=resolver,
                                           format_checker=format_checker())


def schema_name(arg):
    name = os.path.basename(arg)
    for suffix in (".schema.json", ".json", ".v1"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


# ------------------------------------------------------------------------- messages

def json_path(parts):
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p):
            out += "." + p
        else:
            out += "[" + json.dumps(p, ensure_ascii=False) + "]"
    return out


def shorten(text, limit=240):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe(error):
    """'$.path: reason (schema: keyword path)' for the most specific cause of error."""
    # anyOf/oneOf report "not valid under any of the given schemas": descend into the
    # branches, skipping branches that merely reject the instance's type (e.g. the "null"
    # alternative of a nullable object), and show the deepest remaining sub-error.
    while error.context:
        ctx = list(error.context)
        applicable = [e for e in ctx if not (e.validator == "type" and not e.relative_path)]
        error = max(applicable or ctx,
                    key=lambda e: (len(e.absolute_path), e.validator not in ("anyOf", "oneOf")))
    where = json_path(error.absolute_path)
    rule = "/".join(str(p) for p in error.absolute_schema_path)
    return f"{where}: {shorten(error.message)} (schema: #/{rule})"


# ------------------------------------------------------------------------- input

def read_input(path):
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        return e  # reported as a validation failure: wire output must be UTF-8


def parse_documents(text, allow_array):
    """[(label, value | ValueError)]: one whole JSON document, else ndjson lines."""
    if not text.strip():
        return [("input", ValueError("empty input: expected a JSON object or ndjson"))]
    try:
        value = json.loads(text)
    except ValueError:
        value = None
        whole = False
    else:
        whole = True
    if whole:
        if isinstance(value, list):
            if not allow_array:
                return [("document", ValueError(
                    "top-level JSON array (use --array to validate each element)"))]
            return [(f"element {i}", v) for i, v in enumerate(value)]
        # A document that fits on one line is also line 1 of an ndjson stream.
        return [("line 1" if text.strip().count("\n") == 0 else "document", value)]
    docs = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            docs.append((f"line {lineno}", json.loads(line)))
        except ValueError as e:
            docs.append((f"line {lineno}", ValueError(f"not valid JSON: {e}")))
    return docs


# ------------------------------------------------------------------------- commands

def validate_stream(name, path, schemas, allow_array, ingest_stream):
    validators = {}

    def validator_for(n):
        if n not in validators:
            validators[n] = make_validator(schemas, n)
        return validators[n]

    display = "<stdin>" if path == "-" else path
    text = read_input(path)
    if isinstance(text, UnicodeDecodeError):
        print(f"{display}: input is not UTF-8: {text}", file=sys.stderr)
        return 1
    docs = parse_documents(text, allow_array)
    failures = 0
    for label, value in docs:
        if isinstance(value, ValueError):
            print(f"{display}: {label}: {value}", file=sys.stderr)
            failures += 1
            continue
        target = name
        if isinstance(value, dict):
            target = DISPATCH.get(name, {}).get(value.get("schema_version"), name)
        errors = sorted(validator_for(target).iter_errors(value),
                        key=lambda e: (list(map(str, e.absolute_path)), e.message))
        if errors:
            failures += 1
            for e in errors[:MAX_ERRORS_PER_DOC]:
                print(f"{display}: {label} ({target}): {describe(e)}", file=sys.stderr)
            if len(errors) > MAX_ERRORS_PER_DOC:
                print(f"{display}: {label}: ... {len(errors) - MAX_ERRORS_PER_DOC} more "
                      "errors", file=sys.stderr)
    stream_problems = check_ingest_stream(docs) if ingest_stream else []
    for problem in stream_problems:
        print(f"{display}: stream: {problem}", file=sys.stderr)
    if failures or stream_problems:
        summary = f"{failures} of {len(docs)} object(s) failed"
        if stream_problems:
            summary += f", {len(stream_problems)} stream contract problem(s)"
        print(f"{display}: INVALID against {name}.schema.json: {summary}", file=sys.stderr)
        return 1
    return 0


def check_ingest_stream(docs):
    """Ordering contract of spec §2.4a for a whole `kebab ingest --json` stdout."""
    problems = []
    kinds = []
    for label, v in docs:
        if not isinstance(v, dict):
            return problems  # already reported
        kinds.append((label, v.get("schema_version"), v.get("kind")))
    if not kinds:
        return ["empty stream"]
    if kinds[-1][1] != "ingest_report.v1":
        problems.append(f"{kinds[-1][0]}: the last line must be an ingest_report.v1")
    reports = [k for k in kinds if k[1] == "ingest_report.v1"]
    if len(reports) != 1:
        problems.append(f"expected exactly one ingest_report.v1 line, found {len(reports)}")
    events = [k for k in kinds if k[1] == "ingest_progress.v1"]
    if not events or events[0][2] != "scan_started":
        problems.append("the first ingest_progress event must be scan_started")
    terminal = [k for k in events if k[2] in ("completed", "aborted")]
    if len(terminal) != 1:
        problems.append(f"expected exactly one terminal event (completed|aborted), found "
                        f"{len(terminal)}")
    elif events[-1] is not terminal[0]:
        problems.append(f"{terminal[0][0]}: events follow the terminal event")
    scan_done = [i for i, k in enumerate(events) if k[2] == "scan_completed"]
    if len(scan_done) != 1:
        problems.append(f"expected exactly one scan_completed, found {len(scan_done)}")
    else:
        for label, _, kind in events[: scan_done[0]]:
            if kind not in ("scan_started",):
                problems.append(f"{label}: {kind} before scan_completed")
    open_asset = None
    for label, _, kind in events:
        if kind == "asset_started":
            if open_asset:
                problems.append(f"{label}: asset_started before {open_asset} finished")
            open_asset = label
        elif kind == "asset_finished":
            if not open_asset:
                problems.append(f"{label}: asset_finished without asset_started")
            open_asset = None
        elif kind in ("completed", "aborted") and open_asset:
            problems.append(f"{label}: {kind} while the asset of {open_asset} is unfinished")
    if len(terminal) == 1 and reports:
        report = docs[[k[0] for k in kinds].index(reports[-1][0])][1]
        if report.get("aborted") is not (terminal[0][2] == "aborted"):
            problems.append(f"ingest_report.aborted={report.get('aborted')} does not match "
                            f"the {terminal[0][2]} event")
    return problems


def walk_properties(node, where, out):
    """Collect JSON pointers of properties without a description, recursively."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for key, sub in props.items():
                if isinstance(sub, dict) and "description" not in sub and not _is_rule(where):
                    out.append(f"{where}/properties/{key}")
        for key, sub in node.items():
            walk_properties(sub, f"{where}/{key}", out)
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            walk_properties(sub, f"{where}/{i}", out)


def _is_rule(where):
    # Properties inside if/then/else/contains restate constraints on already-described fields.
    return any(seg in ("if", "then", "else", "contains", "allOf") for seg in where.split("/"))


def collect_refs(node, out):
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            out.append(node["$ref"])
        for sub in node.values():
            collect_refs(sub, out)
    elif isinstance(node, list):
        for sub in node:
            collect_refs(sub, out)


def check_schemas(schemas):
    failures = 0

    def fail(name, msg):
        nonlocal failures
        failures += 1
        print(f"{name}.schema.json: {msg}", file=sys.stderr)

    for name, s in schemas.items():
        try:
            jsonschema.Draft202012Validator.check_schema(s)
        except jsonschema.exceptions.SchemaError as e:
            fail(name, f"not a valid Draft 2020-12 schema: {describe(e)}")
            continue
        if s.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
            fail(name, "$schema must be https://json-schema.org/draft/2020-12/schema")
        if s.get("$id") != f"{ID_BASE}{name}.schema.json":
            fail(name, f"$id must be {ID_BASE}{name}.schema.json, got {s.get('$id')!r}")
        for key in ("title", "description"):
            if not isinstance(s.get(key), str) or not s[key].strip():
                fail(name, f"missing {key}")
        sv = s.get("properties", {}).get("schema_version", {})
        if sv.get("const") != f"{name}.v1" or "schema_version" not in s.get("required", []):
            fail(name, f'schema_version must be required with const "{name}.v1"')
        undescribed = []
        walk_properties(s, "#", undescribed)
        for ptr in undescribed:
            fail(name, f"property without a description: {ptr}")
        refs = []
        collect_refs(s, refs)
        resolver = make_resolver(schemas, s)
        for r in refs:
            try:
                resolver.resolve(r)
            except jsonschema.exceptions.RefResolutionError as e:
                fail(name, f"$ref {r!r} does not resolve: {e}")
    print(f"checked {len(schemas)} schema(s): "
          f"{'OK' if not failures else str(failures) + ' problem(s)'}",
          file=sys.stderr if failures else sys.stdout)
    return 1 if failures else 0


def check_error_codes(schemas, source):
    try:
        with open(source, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise UsageError(f"{source}: {e.strerror}")
    emitted = set(re.findall(r'case\s+ErrorCode::k\w+:\s*return\s+"([a-z_]+)"', text))
    emitted.discard("ok")  # ErrorCode::kOk is not an error and never reaches the wire
    if not emitted:
        raise UsageError(f"{source}: no `case ErrorCode::kX: return \"name\"` lines found")
    listed = set(schemas["error"]["properties"]["code"]["enum"])
    ok = True
    for code in sorted(emitted - listed):
        print(f"error.schema.json: code {code!r} is emitted by {source} but missing from "
              "the enum", file=sys.stderr)
        ok = False
    for code in sorted(listed - emitted):
        print(f"error.schema.json: code {code!r} is in the enum but {source} never emits "
              "it", file=sys.stderr)
        ok = False
    if ok:
        print(f"error.v1 code enum matches {os.path.basename(source)} ({len(listed)} codes)")
    return 0 if ok else 1


def main(argv):
    ap = argparse.ArgumentParser(
        description="Validate kebab wire JSON / ndjson against docs/wire-schema/v1.",
        epilog="Exit status: 0 valid, 1 invalid, 2 usage error.")
    ap.add_argument("name", nargs="?", help="schema name, e.g. search_hit")
    ap.add_argument("file", nargs="?", default="-", help="input file, or - for stdin")
    ap.add_argument("--schema-dir",
                    default=os.environ.get("KEBAB_WIRE_SCHEMA_DIR", DEFAULT_SCHEMA_DIR),
                    help="directory holding *.schema.json (default: %(default)s)")
    ap.add_argument("--array", action="store_true",
                    help="input is one JSON array; validate each element")
    ap.add_argument("--ingest-stream", action="store_true",
                    help="also check the ingest --json stream ordering contract")
    ap.add_argument("--check-schemas", action="store_true",
                    help="lint and meta-validate every schema, then exit")
    ap.add_argument("--check-error-codes", metavar="STATUS_CC",
                    help="compare error.v1's code enum with ErrorCodeName() in STATUS_CC")
    args = ap.parse_args(argv)
    try:
        schemas = load_schemas(args.schema_dir)
        if args.check_schemas:
            return check_schemas(schemas)
        if args.check_error_codes:
            return check_error_codes(schemas, args.check_error_codes)
        if not args.name:
            raise UsageError("missing schema NAME (one of: " + ", ".join(schemas) + ")")
        name = schema_name(args.name)
        if name not in schemas:
            raise UsageError(f"unknown schema {args.name!r} (one of: {', '.join(schemas)})")
        if args.ingest_stream and name != "ingest_progress":
            raise UsageError("--ingest-stream only applies to ingest_progress")
        return validate_stream(name, args.file, schemas, args.array, args.ingest_stream)
    except UsageError as e:
        print(f"validate.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
