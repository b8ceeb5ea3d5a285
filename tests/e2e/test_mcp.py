#!/usr/bin/python3
"""`kebab mcp` end to end, driven by the official MCP TypeScript SDK client.

Most tests run tests/mcp/client.mjs (the SDK's Client + StdioClientTransport, installed by
scripts/fetch-mcp-sdk.sh, found through $KEBAB_MCP_SDK_DIR and $KEBAB_NODE): the SDK checks
every result's shape with its own zod schemas and, because the client lists the tools first,
each tool's structuredContent against the tool's outputSchema with Ajv; these tests then check
structuredContent against docs/wire-schema/v1 too. The server gets a reduced environment, as an
SDK host gives it (HOME and PATH, plus what a test needs), so config discovery is tested as
agents will run it. The Raw* tests speak newline-delimited JSON-RPC from Python without the SDK
(stdout purity, malformed input, EOF) and run without it.

The Http* tests run `kebab mcp --http` on a free loopback port, with the SDK's Streamable
HTTP client and with raw HTTP requests (token, Origin, session and method checks).
"""
import json
import os
import re
import select
import signal
import shutil
import socket
import subprocess
import sys
import threading
import time
import unittest
import urllib.error
import urllib.request

from kebab_e2e import REPO, KebabTestCase, kill_quietly, normalize, snippet_words

SDK_DIR = os.environ.get("KEBAB_MCP_SDK_DIR", "")
NODE = os.environ.get("KEBAB_NODE", "")
if not NODE or NODE.endswith("-NOTFOUND"):
    NODE = shutil.which("node") or ""
CLIENT = os.path.join(REPO, "tests", "mcp", "client.mjs")
FAKE_OLLAMA = os.path.join(REPO, "tests", "tools", "fake_ollama.py")

READ_TOOLS = {"search", "bulk_search", "ask", "fetch", "list_docs", "inspect_answer", "schema",
              "doctor"}
WRITE_TOOLS = {"ingest", "ingest_file", "ingest_text"}
# Argument names of each tool's inputSchema, and which of them are required.
TOOL_ARGS = {
    "search": ({"query", "mode", "k", "cursor", "max_tokens", "snippet_chars", "explain", "tags",
                "media", "doc_ids", "source_types", "lang", "path_glob", "trust_min",
                "ingested_after", "code_langs", "repos", "symbol"}, {"query"}),
    "bulk_search": ({"queries", "tags", "media", "doc_ids", "source_types", "lang", "path_glob",
                     "trust_min", "ingested_after", "code_langs", "repos", "symbol"}, {"queries"}),
    "ask": ({"question", "mode", "k", "explain", "multi_hop", "temperature", "seed", "tags",
             "media", "path_glob", "code_langs", "repos", "symbol"}, {"question"}),
    "fetch": ({"kind", "id", "context", "max_tokens", "line_start", "line_end", "page_start",
               "page_end"}, {"kind", "id"}),
    "list_docs": ({"path_glob", "tag", "lang", "limit"}, set()),
    "inspect_answer": ({"trace_id"}, {"trace_id"}),
    "schema": (set(), set()),
    "doctor": (set(), set()),
    "ingest": ({"path"}, set()),
    "ingest_file": ({"path"}, {"path"}),
    "ingest_text": ({"title", "body"}, {"title", "body"}),
}
# The wire schema of each tool's structuredContent (list_docs: {"documents": [doc_summary]}).
OUTPUT = {"search": "search_response", "bulk_search": "bulk_search_response", "ask": "answer",
          "fetch": "fetch_result", "list_docs": None, "inspect_answer": "answer",
          "schema": "schema", "doctor": "doctor", "ingest": "ingest_report",
          "ingest_file": "ingest_report", "ingest_text": "ingest_report"}
# The sanitizer builds' run-time options (cmake/Sanitizers.cmake) reach the server too.
PASS_THROUGH = ("ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS")
INVALID_PARAMS, METHOD_NOT_FOUND, PARSE_ERROR = -32602, -32601, -32700
MISSING_CHUNK = "f" * 32
COMPOST = "how often should the compost heap be turned?"


def sdk_missing():
    """Why the SDK-based tests cannot run, or None."""
    fix = ("run scripts/fetch-mcp-sdk.sh and configure with -DKEBAB_MCP_SDK_DIR=<its output> "
           "(scripts/setup.sh does both)")
    if not NODE:
        return "node is not installed (Debian's nodejs; scripts/setup.sh installs it)"
    if not SDK_DIR:
        return f"KEBAB_MCP_SDK_DIR is not set: {fix}"
    if not os.path.isfile(os.path.join(SDK_DIR, "node_modules", "@modelcontextprotocol", "sdk",
                                       "package.json")):
        return f"KEBAB_MCP_SDK_DIR={SDK_DIR} holds no @modelcontextprotocol/sdk: {fix}"
    return None


def needs_sdk(cls):
    reason = sdk_missing()
    return unittest.skip(reason)(cls) if reason else cls


def server_env(sb, extra=None):
    """What an SDK host gives a server: HOME and PATH (the SDK adds LOGNAME SHELL TERM USER when
    it has them), no XDG_* and no KEBAB_*."""
    env = {"HOME": sb.home, "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin")}
    env.update({k: os.environ[k] for k in PASS_THROUGH if k in os.environ})
    env.update(extra or {})
    return env


def end_process(proc):
    kill_quietly(proc)
    proc.wait()
    for pipe in (proc.stdin, proc.stdout):
        try:
            if pipe:
                pipe.close()
        except OSError:
            pass


class LineReader:
    """Newline-delimited lines from a pipe, with a deadline per read."""

    def __init__(self, stream):
        self.fd = stream.fileno()
        self.buf = b""
        self.eof = False

    def readline(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            if self.eof:
                line, self.buf = self.buf, b""
                return line if line else None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no line within {timeout} s")
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if ready:
                chunk = os.read(self.fd, 1 << 20)
                if chunk:
                    self.buf += chunk
                else:
                    self.eof = True
        line, self.buf = self.buf.split(b"\n", 1)
        return line


# ------------------------------------------------------------------------------ SDK sessions

class McpSession:
    """One tests/mcp/client.mjs process in interactive mode: the SDK client connected to a
    server; each step() sends one step and returns its result line."""

    def __init__(self, test, script, timeout=120):
        self.test, self.timeout = test, timeout
        self.node_stderr = os.path.join(test.sb.tmp, f"client-{id(self)}.stderr")
        env = {"HOME": test.sb.home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "KEBAB_MCP_SDK_DIR": SDK_DIR}
        with open(self.node_stderr, "wb") as err:
            self.proc = subprocess.Popen([NODE, CLIENT], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=err, env=env,
                                         cwd=test.sb.tmp)
        test.addCleanup(self.kill)
        self.reader = LineReader(self.proc.stdout)
        self._write(dict(script, interactive=True))
        self.connect = self._read()
        self.closed = None

    def _write(self, obj):
        self.proc.stdin.write((json.dumps(obj) + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def _read(self):
        try:
            line = self.reader.readline(self.timeout)
        except TimeoutError:
            self.test.fail(f"client.mjs gave no answer within {self.timeout} s{self.context()}")
        if line is None:
            self.test.fail(f"client.mjs ended early{self.context()}")
        return json.loads(line)

    def context(self):
        try:
            with open(self.node_stderr, encoding="utf-8", errors="replace") as f:
                err = f.read()[-3000:]
        except OSError:
            err = ""
        return f"\n--- client.mjs stderr\n{err}" if err else ""

    def step(self, op, **kw):
        self._write(dict(kw, op=op))
        return self._read()

    def call(self, name, arguments=None, **kw):
        return self.step("callTool", name=name, arguments=arguments or {}, **kw)

    def close(self):
        """EOF to the client: it closes the server's stdin and reports how the server ended."""
        if self.closed is None:
            self.proc.stdin.close()
            self.closed = self._read()
            self.proc.wait(timeout=30)
        return self.closed

    def kill(self):
        end_process(self.proc)


class McpCase(KebabTestCase):
    """The notes fixture ingested; helpers to run `kebab mcp` under the SDK client."""

    ingest_fixture = True

    def setUp(self):
        super().setUp()
        if self.ingest_fixture:
            self.sb.copy_fixture("notes")
            _, report = self.ingest()
            self.assertEqual(report["errors"], 0)

    def session(self, *global_args, env=None, config=True, mcp_args=(), **script):
        """A connected SDK client for `kebab [--config C] GLOBAL_ARGS mcp MCP_ARGS`. As a context
        manager it closes the session at the end and asserts a clean end (assert_clean_close)."""
        argv = self.sb.argv([*global_args, "mcp", *mcp_args], config=config)
        s = McpSession(self, dict(script, command=argv[0], args=argv[1:],
                                  env=server_env(self.sb, env), cwd=self.sb.tmp))
        if not s.connect.get("ok"):
            self.fail(f"the SDK client could not connect: {s.connect}\n"
                      f"server stderr: {self.stderr_of(s)}")
        return _Managed(self, s)

    def stderr_of(self, s):
        if s.closed is None:
            s.close()
        return s.closed.get("stderr", "")

    def assert_clean_close(self, s, allow_transport_errors=None):
        end = s.close()
        errors = [e for e in end["transport_errors"]
                  if not (allow_transport_errors and re.search(allow_transport_errors, e))]
        self.assertEqual(errors, [], "the SDK client saw protocol errors (stdout that is not "
                                     f"JSON-RPC?)\nserver stderr:\n{end['stderr'][-3000:]}")
        self.assertFalse(end["killed"], "kebab mcp did not exit within 5 s of stdin EOF\n"
                                        f"server stderr:\n{end['stderr'][-3000:]}")
        self.assertEqual(end["exit"], {"code": 0, "signal": None},
                         f"kebab mcp did not exit 0 after stdin EOF\n"
                         f"server stderr:\n{end['stderr'][-3000:]}")
        return end

    # ---------------------------------------------------------------- tool results

    def tool(self, s, name, arguments=None, **kw):
        """A tool call that must succeed: its validated structuredContent."""
        r = s.call(name, arguments, **kw)
        self.assertTrue(r["ok"], f"{name} {arguments}: the SDK client rejected the call: "
                                 f"{r.get('error')}")
        res = r["result"]
        self.assertFalse(res.get("isError", False), f"{name} {arguments} failed: {res}")
        self.assert_text_block(res, name)
        self.assertIn("structuredContent", res, f"{name}: no structuredContent")
        sc = res["structuredContent"]
        self.assert_output(name, sc)
        return sc

    def assert_text_block(self, res, name):
        content = res.get("content")
        self.assertIsInstance(content, list, f"{name}: content")
        self.assertEqual(len(content), 1, f"{name}: expected one text block, got {content}")
        self.assertEqual(content[0].get("type"), "text", f"{name}: {content[0]}")
        self.assertTrue(content[0].get("text", "").strip(), f"{name}: empty text block")

    def assert_output(self, name, sc):
        if OUTPUT[name]:
            self.assertValid(OUTPUT[name], sc, f"{name} structuredContent")
        else:  # list_docs
            self.assertIsInstance(sc.get("documents"), list, f"{name}: {sc}")
            for i, d in enumerate(sc["documents"]):
                self.assertValid("doc_summary", d, f"{name} documents[{i}]")

    def tool_error(self, s, name, arguments, code, raw=True):
        """A tool call that fails as a result: isError with an error.v1 structuredContent.
        raw: through a plain tools/call request (the result envelope checked with the SDK's
        CallToolResultSchema, not against the tool's outputSchema; see
        ToolErrorThroughSdkTest)."""
        if raw:
            r = s.step("request", method="tools/call",
                       params={"name": name, "arguments": arguments}, schema="CallToolResult")
        else:
            r = s.call(name, arguments)
        self.assertTrue(r["ok"], f"{name} {arguments}: expected an isError result, got "
                                 f"{r.get('error')}")
        res = r["result"]
        self.assertIs(res.get("isError"), True, f"{name} {arguments}: expected isError: {res}")
        self.assert_text_block(res, name)
        err = res.get("structuredContent")
        if err is None:
            self.fail(f"{name} {arguments}: the isError result has no structuredContent; the "
                      "contract puts the error.v1 object there (content: "
                      f"{res['content'][0].get('text', '')[:300]!r}). For SDK clients to accept "
                      "it, each outputSchema must also admit error.v1, e.g. anyOf [result, "
                      "error.v1] (see ToolErrorThroughSdkTest)")
        self.assertValid("error", err, f"{name} error structuredContent")
        self.assertEqual(err["code"], code, f"{name} {arguments}: {err}")
        return err

    def rpc_error(self, s, name, arguments, code=INVALID_PARAMS):
        """A tool call answered with a JSON-RPC error: its {code, message, data}."""
        r = s.call(name, arguments)
        self.assertFalse(r["ok"], f"{name} {arguments}: expected JSON-RPC error {code}, got a "
                                  f"result: {r.get('result')}")
        self.assertEqual(r["error"]["code"], code, f"{name} {arguments}: {r['error']}")
        return r["error"]

    def cli_json(self, *args):
        r = self.sb.run("--json", *args)
        self.assertIn(r.rc, (0, 1, 3), r)
        return json.loads(r.stdout)


class _Managed:
    """with self.session() as s: ... closes s and asserts a clean end when the body passed."""

    def __init__(self, test, s):
        self.test, self.s = test, s

    def __enter__(self):
        return self.s

    def __exit__(self, exc_type, *_):
        if exc_type is None:
            if self.s.closed is None:
                self.test.assert_clean_close(self.s)
        else:
            self.s.kill()
        return False


# ------------------------------------------------------------------------------ lifecycle

@needs_sdk
class InitializeTest(McpCase):
    def test_initialize_server_info_protocol_and_capabilities(self):
        with self.session() as s:
            c = s.connect
            self.assertEqual(c["serverInfo"]["name"], "kebab")
            self.assertIsInstance(c["serverInfo"].get("version"), str)
            # The SDK asks for its latest version (2025-11-25 for 1.32.2); kebab speaks it.
            self.assertEqual(c["protocolVersion"], c["sdk"]["latest_protocol_version"])
            if c["sdk"]["version"] == "1.32.2":
                self.assertEqual(c["protocolVersion"], "2025-11-25")
            self.assertIsInstance(c["capabilities"].get("tools"), dict, c["capabilities"])
            if "resources" in c["capabilities"]:  # optional for now
                self.assertIsInstance(c["capabilities"]["resources"], dict)
            # The client listed the tools, which compiles each outputSchema with the SDK's Ajv:
            # a schema that does not compile (e.g. a $ref to another file) breaks tools/list.
            self.assertTrue(c["tools_primed"],
                            f"tools/list failed in the SDK client: {c['prime_error']} (each "
                            "outputSchema must be self-contained: inline the wire schemas, "
                            "$refs only to #/$defs)")
            self.assertEqual(s.step("ping"), {"i": 0, "op": "ping", "ok": True, "result": {}})

    def test_stderr_names_the_config_and_exit_on_eof(self):
        with self.session() as s:
            self.tool(s, "search", {"query": "borrow"})
        self.assertIn(self.sb.config, s.closed["stderr"],
                      "kebab mcp should say on stderr which config (and index) it serves")

    def test_config_found_from_home_without_config_flag(self):
        """HOME is all the SDK passes: the default ~/.config/kebab/config.toml is found."""
        home_config = os.path.join(self.sb.home, ".config", "kebab", "config.toml")
        os.makedirs(os.path.dirname(home_config))
        shutil.copy(self.sb.config, home_config)
        with self.session(config=False) as s:
            resp = self.tool(s, "search", {"query": "kangaroo"})
            self.assertEqual(self.hit_paths(resp), ["my notes/회의 메모.md"])
        self.assertIn(home_config, s.closed["stderr"])


# ------------------------------------------------------------------------------ tools/list

@needs_sdk
class ToolsListTest(McpCase):
    def tools(self, s):
        r = s.step("listTools")
        self.assertTrue(r["ok"], r)
        return {t["name"]: t for t in r["result"]["tools"]}

    def test_exactly_the_contract_tools_with_schemas_and_annotations(self):
        with self.session() as s:
            tools = self.tools(s)
        self.assertEqual(set(tools), READ_TOOLS | WRITE_TOOLS)
        for name, t in tools.items():
            with self.subTest(tool=name):
                self.assertEqual(t["inputSchema"].get("type"), "object")
                self.assertEqual(t.get("outputSchema", {}).get("type"), "object",
                                 f"{name} has no object outputSchema")
                self.assertIs(t.get("annotations", {}).get("readOnlyHint"), name in READ_TOOLS)

    def test_input_schemas_name_the_contract_arguments(self):
        with self.session() as s:
            tools = self.tools(s)
        for name, (props, required) in TOOL_ARGS.items():
            with self.subTest(tool=name):
                schema = tools[name]["inputSchema"]
                self.assertLessEqual(props, set(schema.get("properties", {})),
                                     f"{name} inputSchema lacks arguments")
                self.assertEqual(set(schema.get("required", [])), required)
        search = tools["search"]["inputSchema"]["properties"]
        self.assertEqual(set(search["mode"]["enum"]), {"lexical", "vector", "hybrid"})
        self.assertEqual(set(tools["fetch"]["inputSchema"]["properties"]["kind"]["enum"]),
                         {"chunk", "doc", "span"})
        queries = tools["bulk_search"]["inputSchema"]["properties"]["queries"]
        self.assertEqual(queries["type"], "array")
        self.assertEqual((queries.get("minItems"), queries.get("maxItems")), (1, 100))
        self.assertLessEqual({"query", "k", "mode", "id"}, set(queries["items"]["properties"]))
        self.assertEqual(queries["items"].get("required"), ["query"])


# ------------------------------------------------------------------------------ reading tools

@needs_sdk
class SearchTest(McpCase):
    def test_search_matches_the_cli(self):
        with self.session() as s:
            resp = self.tool(s, "search", {"query": "borrow"})
            self.assertEqual(self.hit_paths(resp), ["en/gardening.md", "en/rust-ownership.md"])
            cli = self.search("borrow")
            self.assertEqual([h["chunk_id"] for h in resp["hits"]],
                             [h["chunk_id"] for h in cli["hits"]])
            self.assertEqual(resp["mode"], "lexical")

    def test_filters_and_options(self):
        with self.session() as s:
            def paths(**args):
                return self.hit_paths(self.tool(s, "search", dict(args, query="borrow")))
            self.assertEqual(paths(tags=["rust"]), ["en/rust-ownership.md"])
            self.assertEqual(paths(tags=["garden"]), ["en/gardening.md"])
            self.assertEqual(paths(path_glob="en/rust*"), ["en/rust-ownership.md"])
            self.assertEqual(paths(lang="ko"), [])
            self.assertEqual(paths(mode="lexical", media=["markdown"]),
                             ["en/gardening.md", "en/rust-ownership.md"])
            rust_id = self.tool(s, "search", {"query": "borrow", "tags": ["rust"]})["hits"][0]
            self.assertEqual(paths(doc_ids=[rust_id["doc_id"]]), ["en/rust-ownership.md"])
            ko = self.tool(s, "search", {"query": "데이터베이스", "k": 50})
            self.assertEqual(len(ko["hits"]), 3)
            self.assertTrue(all(h["lang"] == "ko" for h in ko["hits"]))
            short = self.tool(s, "search", {"query": "citation", "snippet_chars": 40})
            self.assertTrue(any("…" in h["snippet"] for h in short["hits"]), short["hits"])
            explained = self.tool(s, "search", {"query": "borrow checker", "explain": True})
            self.assertIn("query_plan", explained.get("trace", {}))
            cut = self.tool(s, "search", {"query": "borrow", "max_tokens": 30})
            self.assertTrue(cut["truncated"])

    def test_code_filters_match_the_cli(self):
        self.sb.write("tools/borrow.py", 'def borrow_book(title):\n    """Borrow a book."""\n')
        self.sb.write("tools/borrow.ts", "export function borrowBook(t: string) {}\n")
        self.ingest()
        with self.session() as s:
            def paths(**args):
                return self.hit_paths(self.tool(s, "search", dict(args, query="borrow")))
            self.assertEqual(paths(code_langs=["py"]), ["tools/borrow.py"])
            self.assertEqual(paths(code_langs=["python", "typescript"]),
                             self.hit_paths(self.search("borrow", "--code-lang", "py,ts")))
            self.assertEqual(paths(symbol="*.borrowBook"), ["tools/borrow.ts"])
            self.assertEqual(paths(repos=["nope"]), [])
            self.tool_error(s, "search", {"query": "borrow", "code_langs": ["r$"]},
                            "invalid_input")

    @unittest.skipUnless(shutil.which("espeak-ng") and shutil.which("ffmpeg"),
                         "espeak-ng and ffmpeg make the recording")
    def test_a_time_citation_reads_back_through_fetch(self):
        from test_audio import speech
        wav, _ = speech(3)
        shutil.copy(wav, self.sb.path("talk.wav"))
        self.ingest()
        with self.session() as s:
            hit = self.tool(s, "search", {"query": "talk", "media": ["audio"]})["hits"][0]
            c = hit["citation"]
            self.assertEqual(c["kind"], "time")
            span = self.tool(s, "fetch", {"kind": "span", "id": hit["doc_id"],
                                          "start_ms": c["start_ms"], "end_ms": c["end_ms"]})
            self.assertTrue(span["text"])
            self.assertEqual(span["citation"]["kind"], "time")
            self.tool_error(s, "fetch", {"kind": "span", "id": hit["doc_id"], "start_ms": 0,
                                         "end_ms": 10, "line_start": 1, "line_end": 2},
                            "invalid_input")

    def test_paging_with_cursor(self):
        with self.session() as s:
            seen, cursor = [], None
            for _ in range(20):
                args = {"query": "데이터베이스", "k": 1}
                if cursor:
                    args["cursor"] = cursor
                page = self.tool(s, "search", args)
                seen += [h["chunk_id"] for h in page["hits"]]
                cursor = page["next_cursor"]
                if not cursor:
                    break
            self.assertEqual(len(seen), 3)
            self.assertEqual(len(set(seen)), 3)

    def test_no_hits_is_a_normal_result(self):
        with self.session() as s:
            resp = self.tool(s, "search", {"query": "zqxjvw"})
            self.assertEqual(resp["hits"], [])

    def test_bad_arguments_are_invalid_params_naming_the_field(self):
        with self.session() as s:
            err = self.rpc_error(s, "search", {})
            self.assertIn("query", err["message"])
            err = self.rpc_error(s, "search", {"query": "borrow", "k": "ten"})
            self.assertRegex(err["message"], r"\bk\b")
            err = self.rpc_error(s, "search", {"query": "borrow", "mode": "telepathy"})
            self.assertIn("mode", err["message"])
            err = self.rpc_error(s, "fetch", {"kind": "page", "id": MISSING_CHUNK})
            self.assertIn("kind", err["message"])
            err = self.rpc_error(s, "fetch", {"kind": "chunk"})
            self.assertRegex(err["message"], r"\bid\b")
            # still serving
            self.tool(s, "search", {"query": "borrow"})

    def test_unknown_tool_is_invalid_params(self):
        with self.session() as s:
            err = self.rpc_error(s, "no_such_tool", {})
            self.assertIn("no_such_tool", err["message"])


@needs_sdk
class BulkSearchTest(McpCase):
    def test_items_in_order_with_a_failed_query_and_a_summary(self):
        queries = [{"query": "borrow", "id": "a"},
                   {"query": "고양이", "k": 1, "id": "b"},
                   {"query": "'wal NEAR('", "mode": "lexical"}]
        with self.session() as s:
            resp = self.tool(s, "bulk_search", {"queries": queries})
            self.assertEqual(resp["schema_version"], "bulk_search_response.v1")
            self.assertEqual(resp["summary"], {"total": 3, "succeeded": 2, "failed": 1})
            items = resp["results"]
            self.assertEqual([i["index"] for i in items], [0, 1, 2])
            self.assertEqual([i["id"] for i in items], ["a", "b", None])
            self.assertEqual(self.hit_paths(items[0]["response"]),
                             ["en/gardening.md", "en/rust-ownership.md"])
            self.assertEqual(self.hit_paths(items[1]["response"]), ["ko/cats.md"])
            self.assertIsNone(items[2]["response"])
            self.assertEqual(items[2]["error"]["code"], "invalid_input")
            # the shared filters apply to every query
            resp = self.tool(s, "bulk_search", {"queries": queries[:1], "tags": ["rust"]})
            self.assertEqual(self.hit_paths(resp["results"][0]["response"]),
                             ["en/rust-ownership.md"])

    def test_ids_of_any_json_type_are_echoed(self):
        """bulk_search_item.v1 echoes the query's id unchanged, whatever JSON value it is (as
        `kebab search --bulk` does)."""
        ids = ["s", 2, 2.5, True, None, ["x"], {"n": 3}]
        with self.session() as s:
            resp = self.tool(s, "bulk_search",
                             {"queries": [{"query": "borrow", "id": i} for i in ids]})
            self.assertEqual([item["id"] for item in resp["results"]], ids)

    def test_query_count_limits(self):
        with self.session() as s:
            self.assertIn("queries", self.rpc_error(s, "bulk_search", {"queries": []})["message"])
            many = [{"query": "borrow"}] * 101
            self.assertIn("queries",
                          self.rpc_error(s, "bulk_search", {"queries": many})["message"])
            resp = self.tool(s, "bulk_search", {"queries": [{"query": "borrow"}] * 100})
            self.assertEqual(resp["summary"]["total"], 100)


@needs_sdk
class FetchTest(McpCase):
    def test_chunk_doc_and_span(self):
        with self.session() as s:
            hit = self.tool(s, "search", {"query": "borrow", "tags": ["rust"]})["hits"][0]
            chunk = self.tool(s, "fetch", {"kind": "chunk", "id": hit["chunk_id"],
                                           "context": 1})
            self.assertEqual(chunk["kind"], "chunk")
            self.assertEqual(chunk["chunk"]["chunk_id"], hit["chunk_id"])
            self.assertIn("borrow checker", chunk["text"])
            self.assertEqual((len(chunk["context_before"]), len(chunk["context_after"])), (1, 1))
            whole = self.tool(s, "fetch", {"kind": "doc", "id": hit["doc_id"]})
            self.assertIn("single owner", whole["text"])
            self.assertFalse(whole["truncated"])
            cut = self.tool(s, "fetch", {"kind": "doc", "id": hit["doc_id"], "max_tokens": 10})
            self.assertTrue(cut["truncated"])
            self.assertLess(len(cut["text"]), len(whole["text"]))
            cit = hit["citation"]
            span = self.tool(s, "fetch", {"kind": "span", "id": hit["doc_id"],
                                          "line_start": cit["start"], "line_end": cit["end"]})
            self.assertEqual((span["line_start"], span["effective_end"]),
                             (cit["start"], cit["end"]))
            self.assertEqual(span["citation"]["uri"], cit["uri"])
            # the CLI returns the same object
            self.assertEqual(span["text"], self.cli_json("fetch", "span", hit["doc_id"],
                                                         str(cit["start"]),
                                                         str(cit["end"]))["text"])

    def test_unknown_ids_are_error_results(self):
        with self.session() as s:
            self.tool_error(s, "fetch", {"kind": "chunk", "id": MISSING_CHUNK}, "chunk_not_found")
            self.tool_error(s, "fetch", {"kind": "doc", "id": "0" * 32}, "doc_not_found")
            self.tool(s, "search", {"query": "borrow"})  # still serving

    def test_citations_round_trip_through_fetch(self):
        """Every hit's cited lines, fetched as a span, hold its snippet's words, as does the
        whole document."""
        checked = 0
        with self.session() as s:
            for q in ["borrow", "kangaroo", "compost", "데이터베이스", "lifetimes", "citation"]:
                for hit in self.tool(s, "search", {"query": q, "k": 5})["hits"]:
                    cit = hit["citation"]
                    with self.subTest(query=q, uri=cit["uri"]):
                        self.assertEqual(cit["path"], hit["doc_path"])
                        span = self.tool(s, "fetch", {"kind": "span", "id": hit["doc_id"],
                                                      "line_start": cit["start"],
                                                      "line_end": cit["end"]})
                        doc = self.tool(s, "fetch", {"kind": "doc", "id": hit["doc_id"]})
                        for word in snippet_words(hit["snippet"]):
                            self.assertIn(word, normalize(span["text"]))
                            self.assertIn(word, normalize(doc["text"]))
                        with open(self.sb.path(hit["doc_path"]), encoding="utf-8") as f:
                            lines = f.read().split("\n")[cit["start"] - 1:cit["end"]]
                        self.assertEqual(normalize(span["text"]), normalize("\n".join(lines)))
                        checked += 1
        self.assertGreater(checked, 8)


@needs_sdk
class ToolErrorThroughSdkTest(McpCase):
    def test_error_result_passes_the_sdks_output_validation(self):
        """client.callTool itself (not a plain request) must hand back a tool error: SDK 1.32.2
        validates structuredContent against the tool's outputSchema even when isError is true
        (modelcontextprotocol/typescript-sdk#1943), so a kebab outputSchema that does not also
        admit error.v1 (e.g. anyOf: [fetch_result, error]) makes every SDK-based client throw
        -32602 "Structured content does not match the tool's output schema" instead of showing
        the error."""
        with self.session() as s:
            self.tool_error(s, "fetch", {"kind": "chunk", "id": MISSING_CHUNK}, "chunk_not_found",
                            raw=False)


@needs_sdk
class ListDocsSchemaDoctorTest(McpCase):
    def test_list_docs_and_filters_match_the_cli(self):
        with self.session() as s:
            def paths(**args):
                return sorted(d["doc_path"] for d in self.tool(s, "list_docs", args)["documents"])
            self.assertEqual(paths(), self.doc_paths())
            self.assertEqual(len(paths()), 9)
            self.assertEqual(paths(tag="rust"), ["en/rust-ownership.md"])
            self.assertEqual(paths(lang="ko"), self.doc_paths("--lang", "ko"))
            self.assertEqual(paths(path_glob="ko/**"), self.doc_paths("--path-glob", "ko/**"))
            self.assertEqual(len(paths(limit=2)), 2)

    def test_schema_says_mcp_server(self):
        with self.session() as s:
            info = self.tool(s, "schema")
            self.assertIs(info["capabilities"]["mcp_server"], True)
            self.assertEqual(info["stats"]["doc_count"], 9)

    def test_doctor_healthy(self):
        with self.session() as s:
            doctor = self.tool(s, "doctor")
            self.assertTrue(doctor["ok"], doctor)


@needs_sdk
class EmptyIndexTest(McpCase):
    """A server started before anything was ingested: doctor reports it, ingest fixes it."""
    ingest_fixture = False

    def test_unhealthy_doctor_is_a_result_and_ingest_bootstraps(self):
        self.sb.copy_fixture("notes")
        with self.session() as s:
            doctor = self.tool(s, "doctor")
            self.assertFalse(doctor["ok"])
            report = self.tool(s, "ingest")
            self.assertEqual(report["new"], 9)
            resp = self.tool(s, "search", {"query": "kangaroo"})
            self.assertEqual(self.hit_paths(resp), ["my notes/회의 메모.md"])
            self.assertTrue(self.tool(s, "doctor")["ok"])


# ------------------------------------------------------------------------------ ask

class FakeOllama:
    """tests/tools/fake_ollama.py: Ollama's chat API, replying with FAKE_OLLAMA_REPLY_FILE."""

    def __init__(self, reply_file):
        env = dict(os.environ, FAKE_OLLAMA_REPLY_FILE=reply_file)
        self.proc = subprocess.Popen(["/usr/bin/python3", FAKE_OLLAMA, "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.url = f"http://127.0.0.1:{int(self.proc.stdout.readline())}"

    def close(self):
        end_process(self.proc)


@needs_sdk
class AskTest(McpCase):
    def use_fake_llm(self, model="qwen2.5:0.5b"):
        self.reply_file = os.path.join(self.sb.tmp, "reply.txt")
        ollama = FakeOllama(self.reply_file)
        self.addCleanup(ollama.close)
        self.sb.write_config(extra=f'[models.llm]\nprovider = "ollama"\nmodel = "{model}"\n'
                                   f'endpoint = "{ollama.url}"\n')

    def script(self, reply):
        with open(self.reply_file, "w", encoding="utf-8") as f:
            f.write(reply)

    def test_grounded_answer_then_inspect_answer(self):
        self.use_fake_llm()
        self.script('A compost heap should be turned "every two weeks" for oxygen [#1].')
        with self.session() as s:
            answer = self.tool(s, "ask", {"question": COMPOST})
            self.assertTrue(answer["grounded"], answer)
            [cited] = answer["citations"]
            self.assertEqual(cited["citation"]["path"], "en/gardening.md")
            stored = self.tool(s, "inspect_answer",
                               {"trace_id": answer["retrieval"]["trace_id"]})
            self.assertEqual(stored["answer"], answer["answer"])
            self.assertEqual(stored["citations"], answer["citations"])

    def test_progress_while_answering(self):
        self.use_fake_llm()
        # One piece per word, each a few ms apart on the fake server: several notifications.
        self.script("A compost heap should be turned " + "and turned " * 60 +
                    '"every two weeks" for oxygen [#1].')
        with self.session() as s:
            r = s.call("ask", {"question": COMPOST}, progress=True)
            self.assertTrue(r["ok"], r)
            self.assert_output("ask", r["result"]["structuredContent"])
        values = [p["progress"] for p in r["progress"]]
        self.assertGreaterEqual(len(values), 2, r["progress"])
        self.assertEqual(values, sorted(set(values)), "progress must increase")
        self.assertEqual(values[0], 1)
        self.assertRegex(r["progress"][0]["message"], r"^retrieved \d+ passages$")
        self.assertRegex(r["progress"][-1]["message"], r"^answering: \d+ pieces$")

    def test_cancelled_ask_stops_generation(self):
        # The model sends one piece, then nothing for 30 s: only cancellation ends the call
        # sooner, and the server must still exit within close_timeout_ms of stdin's end.
        self.use_fake_llm(model="stall")
        self.script("A compost heap should be turned every two weeks [#1].")
        with self.session(close_timeout_ms=10000) as s:
            t0 = time.monotonic()
            r = s.call("ask", {"question": COMPOST}, abort_after_ms=1500)
            self.assertFalse(r["ok"], r)
            self.assertTrue(s.step("ping")["ok"])
            resp = self.tool(s, "search", {"query": "compost"})
            self.assertTrue(resp["hits"])
        self.assertLess(time.monotonic() - t0, 20, "the stalled answer was not stopped")

    def test_refusal_is_a_normal_result(self):
        self.use_fake_llm()
        self.script("The heap must be turned every 3 days [#1]. Rust has a borrow checker [#1].")
        with self.session() as s:
            answer = self.tool(s, "ask", {"question": COMPOST})
            self.assertFalse(answer["grounded"])
            self.assertEqual(answer["refusal_reason"], "unsupported_claims")

    def test_no_llm_configured_is_an_error_result_like_the_cli(self):
        r = self.sb.run("--json", "ask", COMPOST)
        cli_code = json.loads(r.stderr.strip().splitlines()[-1])["code"]
        with self.session() as s:
            self.tool_error(s, "ask", {"question": COMPOST}, cli_code)
            self.assertIn("question", self.rpc_error(s, "ask", {})["message"])


# ------------------------------------------------------------------------------ writing tools

@needs_sdk
class WriteTest(McpCase):
    def test_ingest_text_then_search(self):
        with self.session() as s:
            report = self.tool(s, "ingest_text", {"title": "Quokka memo",
                                                  "body": "The zephyrquokka eats leaves.\n"})
            self.assertEqual(report["errors"], 0)
            resp = self.tool(s, "search", {"query": "zephyrquokka"})
            self.assertEqual(len(resp["hits"]), 1)
            self.assertIn("zephyrquokka", resp["hits"][0]["snippet"])

    def test_ingest_file_outside_the_workspace_then_search(self):
        outside = os.path.join(self.sb.tmp, "outside", "wombat.md")
        os.makedirs(os.path.dirname(outside))
        with open(outside, "w", encoding="utf-8") as f:
            f.write("# Wombats\n\nA wombat leaves cubic droppings named glimmerwomb.\n")
        with self.session() as s:
            report = self.tool(s, "ingest_file", {"path": outside})
            self.assertEqual(report["errors"], 0)
            resp = self.tool(s, "search", {"query": "glimmerwomb"})
            self.assertEqual(len(resp["hits"]), 1)
            self.tool_error(s, "ingest_file", {"path": outside + ".missing"},
                            self.cli_error_code("ingest-file", outside + ".missing"))

    def cli_error_code(self, *args):
        r = self.sb.run("--json", *args)
        return json.loads(r.stderr.strip().splitlines()[-1])["code"]

    def test_ingest_tool_indexes_new_workspace_files(self):
        with self.session() as s:
            self.sb.write("new/platypus.md", "# Platypus\n\nThe platypus lays eggs.\n")
            report = self.tool(s, "ingest", {})
            self.assertEqual(report["new"], 1)
            self.assertEqual(self.hit_paths(self.tool(s, "search", {"query": "platypus"})),
                             ["new/platypus.md"])
            self.sb.write("new/echidna.md", "# Echidna\n\nThe echidna lays eggs too.\n")
            report = self.tool(s, "ingest", {"path": self.sb.path("new")})
            self.assertEqual(report["errors"], 0)
            self.assertIn("new/echidna.md",
                          self.hit_paths(self.tool(s, "search", {"query": "echidna"})))

    def test_cli_ingest_is_seen_by_the_running_server(self):
        with self.session() as s:
            self.assertEqual(self.tool(s, "search", {"query": "narwhal"})["hits"], [])
            self.sb.write("sea/narwhal.md", "# Narwhal\n\nThe narwhal has a long tusk.\n")
            self.ingest()  # another process
            resp = self.tool(s, "search", {"query": "narwhal"})
            self.assertEqual(self.hit_paths(resp), ["sea/narwhal.md"])
            docs = self.tool(s, "list_docs", {})["documents"]
            self.assertIn("sea/narwhal.md", [d["doc_path"] for d in docs])


@needs_sdk
class ReadonlyTest(McpCase):
    def check_readonly(self, *global_args, env=None):
        with self.session(*global_args, env=env) as s:
            r = s.step("listTools")
            self.assertTrue(r["ok"], r)
            self.assertEqual({t["name"] for t in r["result"]["tools"]}, READ_TOOLS)
            for name, args in [("ingest", {}), ("ingest_text", {"title": "t", "body": "b"})]:
                r = s.call(name, args)
                refused = (not r["ok"] and r["error"]["code"] == INVALID_PARAMS) or (
                    r["ok"] and r["result"].get("isError") is True
                    and r["result"].get("structuredContent", {}).get("code") == "readonly_mode")
                self.assertTrue(refused, f"readonly {name}: expected -32602 or an isError "
                                         f"readonly_mode result, got {r}")
            self.tool(s, "search", {"query": "borrow"})
        self.assertEqual(len(self.doc_paths()), 9, "a readonly server changed the index")

    def test_readonly_flag(self):
        self.check_readonly("--readonly")

    def test_readonly_env(self):
        self.check_readonly(env={"KEBAB_READONLY": "1"})


# ------------------------------------------------------------------------------ optional features

@needs_sdk
class ResourcesTest(McpCase):
    def test_list_and_read_resources(self):
        with self.session() as s:
            self.assertIn("resources", s.connect["capabilities"])
            r = s.step("listResources")
            self.assertTrue(r["ok"], r)
            resources = r["result"]["resources"]
            self.assertTrue(resources, "resources advertised but none listed")
            first = resources[0]
            r = s.step("readResource", uri=first["uri"])
            self.assertTrue(r["ok"], r)
            contents = r["result"]["contents"]
            self.assertTrue(contents)
            self.assertEqual(contents[0]["uri"], first["uri"])
            self.assertTrue(contents[0].get("text") or contents[0].get("blob"))

    def test_a_pdf_page_through_fetch_and_resources(self):
        sys.path.insert(0, os.path.join(REPO, "tests", "tools"))
        from make_pdf import make_pdf
        os.makedirs(self.sb.path("papers"), exist_ok=True)
        make_pdf(self.sb.path("papers/seals.pdf"),
                 [["Front matter."], ["Harbour seals rest on sandbanks at low tide."]],
                 {"Title": "Seals"})
        self.ingest()
        with self.session() as s:
            [hit] = self.tool(s, "search", {"query": "sandbanks"})["hits"]
            self.assertEqual(hit["citation"]["uri"], "papers/seals.pdf#p=2")
            page = self.tool(s, "fetch", {"kind": "span", "id": hit["doc_id"], "page_start": 2})
            self.assertEqual((page["page_start"], page["page_end"]), (2, 2))
            self.assertIn("sandbanks", page["text"])
            self.assertEqual(page["citation"]["uri"], hit["citation"]["uri"])
            r = s.step("readResource", uri="kebab://doc/" + hit["citation"]["uri"])
            self.assertTrue(r["ok"], r)
            self.assertEqual(r["result"]["contents"][0]["text"], page["text"])
            self.tool_error(s, "fetch", {"kind": "span", "id": hit["doc_id"], "page_start": 9},
                            "invalid_input")
            self.tool_error(s, "fetch", {"kind": "span", "id": hit["doc_id"]}, "invalid_input")


@needs_sdk
class ProgressCancelTest(McpCase):
    def test_progress_during_ingest(self):
        for i in range(40):
            self.sb.write(f"bulk/n{i}.md", f"# Note {i}\n\nword{i} filler text.\n")
        with self.session() as s:
            r = s.call("ingest", {}, progress=True)
            self.assertTrue(r["ok"], r)
            self.assert_output("ingest", r["result"]["structuredContent"])
            # The SDK (shared/protocol.js) handles a notification in a microtask but a response
            # at once, so the last progress notification, read in the same chunk as the response
            # after it, can find its token gone. The server's order is checked in
            # RawProtocolTest.test_progress_comes_before_the_response.
            self.assert_clean_close(
                s, allow_transport_errors="progress notification for an unknown token")
        self.assertTrue(r["progress"], "no notifications/progress for ingest")
        values = [p["progress"] for p in r["progress"]]
        self.assertEqual(values, sorted(values), "progress must increase")
        for p in r["progress"]:
            if p.get("total") is not None:
                self.assertLessEqual(p["progress"], p["total"])

    def test_cancelled_request_leaves_the_server_serving(self):
        with self.session() as s:
            r = s.call("search", {"query": "borrow"}, abort_after_ms=0)
            self.assertFalse(r["ok"], "the SDK client did not abort the request")
            self.assertEqual(s.step("ping")["ok"], True)
            self.tool(s, "search", {"query": "borrow"})
            # A response that was already on its way is fine (the SDK ignores it).
            self.assert_clean_close(s, allow_transport_errors="unknown message ID")


class HttpServer:
    """`kebab mcp --http 127.0.0.1:0` (a free port) as a process: its URL and stderr."""

    def __init__(self, test, *mcp_args, env=None, listen="127.0.0.1:0"):
        self.test = test
        self.err_path = os.path.join(test.sb.tmp, f"http-{id(self)}.stderr")
        with open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(test.sb.argv(["mcp", "--http", listen, *mcp_args]),
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=err, env=server_env(test.sb, env),
                                         cwd=test.sb.tmp)
        test.addCleanup(end_process, self.proc)
        self.url = None

    def stderr(self):
        with open(self.err_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def wait_listening(self):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            m = re.search(r"serving (http://\S+/mcp)", self.stderr())
            if m:
                self.url = m.group(1)
                return self
            if self.proc.poll() is not None:
                self.test.fail(f"kebab mcp --http exited {self.proc.returncode}: {self.stderr()}")
            time.sleep(0.05)
        self.test.fail(f"kebab mcp --http did not listen within 30 s: {self.stderr()}")

    def wait_exit(self, timeout=30):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.test.fail(f"kebab mcp --http still running: {self.stderr()}")

    def post(self, body, token=None, session=None, headers=None, method="POST"):
        """One raw HTTP request to the endpoint: (status, headers, parsed JSON body or None)."""
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if token:
            h["Authorization"] = f"Bearer {token}"
        if session:
            h["Mcp-Session-Id"] = session
        h.update(headers or {})
        req = urllib.request.Request(self.url, data=data, headers=h, method=method)
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                status, hdrs, raw = resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as e:
            status, hdrs, raw = e.code, e.headers, e.read()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode("utf-8", "replace")
        return status, hdrs, parsed


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "raw-http", "version": "1"}}}


@needs_sdk
class HttpTest(McpCase):
    def start_http(self, *mcp_args, env=None):
        return HttpServer(self, *mcp_args, env=env).wait_listening()

    def new_token(self, server):
        m = re.search(r"new bearer token \(kept in (\S+); shown only this once\): ([0-9a-f]+)",
                      server.stderr())
        self.assertIsNotNone(m, server.stderr())
        return m.group(1), m.group(2)

    def test_streamable_http_with_the_sdk_client(self):
        server = self.start_http()
        token_file, token = self.new_token(server)
        self.assertEqual(os.stat(token_file).st_mode & 0o777, 0o600)
        with open(token_file) as f:
            self.assertEqual(f.read().strip(), token)

        auth = {"Authorization": f"Bearer {token}"}
        s = McpSession(self, {"transport": "http", "url": server.url, "headers": auth})
        self.assertTrue(s.connect.get("ok"), s.connect)
        self.assertEqual(s.connect["serverInfo"]["name"], "kebab")
        r = s.step("listTools")
        self.assertEqual({t["name"] for t in r["result"]["tools"]}, READ_TOOLS | WRITE_TOOLS)
        resp = self.tool(s, "search", {"query": "borrow"})
        self.assertEqual(self.hit_paths(resp), ["en/gardening.md", "en/rust-ownership.md"])
        # What a hit cites, read back as a resource over HTTP too.
        uri = resp["hits"][0]["citation"]["uri"]
        r = s.step("readResource", uri=uri)
        self.assertTrue(r["ok"], r)
        self.assertIn("borrow", r["result"]["contents"][0]["text"].lower())
        # Progress arrives on the call's event stream, then its result.
        for i in range(40):
            self.sb.write(f"bulk/n{i}.md", f"# Note {i}\n\nword{i} filler text.\n")
        r = s.call("ingest", {}, progress=True)
        self.assertTrue(r["ok"], r)
        self.assertEqual(r["result"]["structuredContent"]["new"], 40)
        self.assertTrue(r["progress"], "no progress notification over HTTP")
        self.assertEqual(r["progress"][-1]["progress"], r["progress"][-1]["total"])
        # A cancelled call leaves the session serving.
        r = s.call("search", {"query": "borrow"}, abort_after_ms=0)
        self.assertFalse(r["ok"])
        self.assertTrue(s.step("ping")["ok"])
        end = s.close()
        self.assertEqual([e for e in end["transport_errors"]
                          if not re.search("abort|unknown message ID", e, re.I)], [])
        self.assertIsNone(server.proc.poll(), "the HTTP server should outlive one client")

        # A second client, and a restart: the kept token still works and is not printed again.
        server.proc.send_signal(signal.SIGTERM)
        self.assertEqual(server.wait_exit(), 0, server.stderr())
        again = self.start_http()
        self.assertNotIn(token, again.stderr())
        self.assertIn(f"bearer token from {token_file}", again.stderr())
        s = McpSession(self, {"transport": "http", "url": again.url, "headers": auth})
        self.assertTrue(s.connect.get("ok"), s.connect)
        self.assertTrue(s.step("ping")["ok"])
        s.close()

    def test_token_origin_session_and_method_checks(self):
        token = "t0ken-for-the-raw-http-test"
        server = self.start_http("--token", token)
        self.assertNotIn(token, server.stderr())
        self.assertIn("bearer token from --token", server.stderr())

        status, headers, body = server.post(INIT)
        self.assertEqual(status, 401)
        self.assertIn("Bearer", headers.get("WWW-Authenticate", ""))
        self.assertEqual(body["error"]["code"], -32001)
        self.assertEqual(server.post(INIT, token="wrong-token-of-some-length")[0], 401)
        self.assertEqual(server.post(INIT, token=token,
                                     headers={"Origin": "http://evil.example"})[0], 403)
        self.assertEqual(server.post(INIT, token=token,
                                     headers={"Origin": "http://127.0.0.1.evil.example"})[0], 403)

        status, headers, body = server.post(INIT, token=token,
                                            headers={"Origin": "http://localhost:5173"})
        self.assertEqual(status, 200, body)
        self.assertEqual(body["result"]["protocolVersion"], "2025-11-25")
        sid = headers["Mcp-Session-Id"]
        self.assertRegex(sid, r"^[0-9a-f]{32}$")

        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        self.assertEqual(server.post(ping, token=token, session=sid)[2]["result"], {})
        self.assertEqual(server.post(ping, token=token)[0], 400)  # no session
        self.assertEqual(server.post(ping, token=token, session="0" * 32)[0], 404)
        self.assertEqual(server.post(ping, token=token, session=sid,
                                     headers={"MCP-Protocol-Version": "1999-01-01"})[0], 400)
        status, _, body = server.post(b'{"jsonrpc": "2.0", "id": 3, "meth', token=token,
                                      session=sid)
        self.assertEqual((status, body["error"]["code"]), (400, -32700))
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        self.assertEqual(server.post(note, token=token, session=sid)[0], 202)
        call = {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                "params": {"name": "search", "arguments": {"query": "borrow"}}}
        status, headers, body = server.post(call, token=token, session=sid)
        self.assertEqual(status, 200)
        self.assertEqual(body["result"]["isError"], False)
        self.assertEqual(server.post(None, token=token, session=sid, method="GET")[0], 405)
        self.assertEqual(server.post(None, token=token, session=sid, method="DELETE")[0], 200)
        self.assertEqual(server.post(ping, token=token, session=sid)[0], 404)
        self.assertIsNone(server.proc.poll())

    def test_bad_token_and_busy_port_are_clear_errors(self):
        r = self.sb.run("mcp", "--http", "127.0.0.1:0", "--token", "short")
        self.assertEqual(r.rc, 2, r)
        self.assertIn("at least 16", r.stderr)

        server = self.start_http(env={"KEBAB_MCP_TOKEN": "a-token-from-the-environment"})
        self.assertIn("bearer token from KEBAB_MCP_TOKEN", server.stderr())
        port = server.url.split(":")[2].split("/")[0]
        busy = HttpServer(self, listen=f"127.0.0.1:{port}",
                          env={"KEBAB_MCP_TOKEN": "a-token-from-the-environment"})
        self.assertEqual(busy.wait_exit(), 2)
        self.assertIn(f"cannot listen on 127.0.0.1:{port}", busy.stderr())
        bad = self.sb.run("mcp", "--http", "localhost:99999")
        self.assertEqual(bad.rc, 2, bad)
        self.assertIn("expected [ADDR:]PORT", bad.stderr)


# ------------------------------------------------------------------------------ raw JSON-RPC

class RawServer:
    """`kebab mcp` spoken to directly: newline-delimited JSON-RPC 2.0 on stdin/stdout. Every
    stdout line must be one JSON-RPC message (read() asserts it)."""

    def __init__(self, test, *global_args, env=None):
        self.test = test
        self.stderr_path = os.path.join(test.sb.tmp, f"raw-{id(self)}.stderr")
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(test.sb.argv([*global_args, "mcp"]),
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=err, env=server_env(test.sb, env),
                                         cwd=test.sb.tmp)
        test.addCleanup(self.kill)
        self.reader = LineReader(self.proc.stdout)
        self.lines = []

    def kill(self):
        end_process(self.proc)

    def stderr(self):
        with open(self.stderr_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def send(self, msg):
        data = msg if isinstance(msg, bytes) else json.dumps(msg).encode("utf-8")
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def send_in_background(self, data):
        """Write a big line from a thread (the server may answer before reading all of it)."""
        def write():
            try:
                self.send(data)
            except (BrokenPipeError, OSError):
                pass
        t = threading.Thread(target=write, daemon=True)
        t.start()
        return t

    def read(self, timeout=60):
        try:
            line = self.reader.readline(timeout)
        except TimeoutError:
            self.test.fail(f"kebab mcp sent nothing within {timeout} s\nstderr:\n"
                           f"{self.stderr()[-3000:]}")
        if line is None:
            self.test.fail(f"kebab mcp closed stdout (exit {self.proc.poll()})\nstderr:\n"
                           f"{self.stderr()[-3000:]}")
        self.lines.append(line)
        try:
            msg = json.loads(line)
        except ValueError:
            self.test.fail(f"stdout line is not JSON: {line[:300]!r}")
        self.test.assertIsInstance(msg, dict, line[:300])
        self.test.assertEqual(msg.get("jsonrpc"), "2.0", line[:300])
        return msg

    def response(self, rid, timeout=60):
        """The response to request `rid` (notifications and other responses are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.read(max(0.1, deadline - time.monotonic()))
            if "method" not in msg and msg.get("id") == rid:
                self.test.assertTrue(("result" in msg) != ("error" in msg), msg)
                return msg

    def request(self, rid, method, params=None):
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.response(rid)

    def initialize(self, version="2025-11-25", rid=0):
        r = self.request(rid, "initialize", {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "kebab-e2e-raw", "version": "1"}})
        self.test.assertIn("result", r, r)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return r["result"]

    def eof(self, timeout=5):
        """Close stdin; return (exit code, seconds taken, remaining stdout lines)."""
        self.proc.stdin.close()
        t0 = time.monotonic()
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.test.fail(f"kebab mcp did not exit within {timeout} s of stdin EOF")
        rest = self.proc.stdout.read()
        lines = (self.reader.buf + rest).split(b"\n")
        return rc, time.monotonic() - t0, [l for l in lines if l.strip()]


class RawProtocolTest(McpCase):
    def assert_error(self, msg, code=None):
        self.assertIn("error", msg, msg)
        self.assertIsInstance(msg["error"].get("code"), int, msg)
        self.assertIsInstance(msg["error"].get("message"), str, msg)
        if code is not None:
            self.assertEqual(msg["error"]["code"], code, msg)

    def test_stdout_holds_only_jsonrpc(self):
        srv = RawServer(self)
        info = srv.initialize()
        self.assertEqual(info["protocolVersion"], "2025-11-25")
        self.assertEqual(info["serverInfo"]["name"], "kebab")
        tools = srv.request(1, "tools/list")["result"]["tools"]
        self.assertEqual({t["name"] for t in tools}, READ_TOOLS | WRITE_TOOLS)
        r = srv.request(2, "tools/call", {"name": "search", "arguments": {"query": "borrow"}})
        self.assertValid("search_response", r["result"]["structuredContent"])
        r = srv.request(3, "tools/call", {"name": "fetch",
                                          "arguments": {"kind": "chunk", "id": MISSING_CHUNK}})
        self.assertIs(r["result"]["isError"], True)
        r = srv.request(4, "tools/call", {"name": "ingest", "arguments": {}})
        self.assertValid("ingest_report", r["result"]["structuredContent"])
        rc, _, rest = srv.eof()
        for line in rest:  # anything written after the last response is JSON-RPC too
            self.assertEqual(json.loads(line).get("jsonrpc"), "2.0", line[:300])
        self.assertEqual(rc, 0, srv.stderr())
        self.assertIn(self.sb.config, srv.stderr(),
                      "stderr should say which config (and index) kebab mcp serves")

    def test_progress_comes_before_the_response(self):
        for i in range(40):
            self.sb.write(f"bulk/n{i}.md", f"# Note {i}\n\nword{i} filler text.\n")
        srv = RawServer(self)
        srv.initialize()
        srv.send({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                  "params": {"name": "ingest", "arguments": {}, "_meta": {"progressToken": "p7"}}})
        progress = []
        while True:
            msg = srv.read()
            if msg.get("method") == "notifications/progress":
                self.assertEqual(msg["params"]["progressToken"], "p7")
                progress.append(msg["params"]["progress"])
            elif msg.get("id") == 7:
                break
        self.assertTrue(progress, "no notifications/progress before the response")
        self.assertEqual(progress, sorted(progress))
        rc, _, rest = srv.eof()
        self.assertEqual(rc, 0, srv.stderr())
        self.assertEqual([l for l in rest if b"notifications/progress" in l], [],
                         "a progress notification after the response")

    def test_malformed_json_is_a_parse_error_with_null_id(self):
        srv = RawServer(self)
        srv.initialize()
        srv.send(b'{"jsonrpc": "2.0", "id": 1, "method": ')
        msg = srv.read()
        self.assert_error(msg, PARSE_ERROR)
        self.assertIn("id", msg)
        self.assertIsNone(msg["id"])
        self.assertIn("result", srv.request(2, "ping"))

    def test_unknown_method(self):
        srv = RawServer(self)
        srv.initialize()
        self.assert_error(srv.request(1, "kebab/no_such_method", {}), METHOD_NOT_FOUND)
        self.assertIn("result", srv.request(2, "ping"))

    def test_tools_call_before_initialize_is_an_error_not_a_crash(self):
        srv = RawServer(self)
        r = srv.request(1, "tools/call", {"name": "search", "arguments": {"query": "borrow"}})
        self.assert_error(r)
        self.assertIsNone(srv.proc.poll())
        self.assertIn("result", srv.request(2, "ping"))
        self.assertEqual(srv.initialize(rid=3)["serverInfo"]["name"], "kebab")
        rc, _, _ = srv.eof()
        self.assertEqual(rc, 0, srv.stderr())

    def test_five_megabyte_lines(self):
        srv = RawServer(self)
        srv.initialize()
        pad = "x" * (5 << 20)
        big = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping",
                          "params": {"_meta": {"pad": pad}}}).encode("utf-8")
        srv.send_in_background(big).join(timeout=60)
        srv.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        # The big request gets a result or an error (or nothing); the ping after it an answer.
        r = srv.response(2)
        self.assertIn("result", r, r)
        garbage = b"x" * (5 << 20)
        srv.send_in_background(garbage).join(timeout=60)
        srv.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        self.assertIn("result", srv.response(3))
        rc, _, _ = srv.eof()
        self.assertEqual(rc, 0, srv.stderr())

    def test_eof_exits_zero_within_five_seconds(self):
        srv = RawServer(self)
        srv.initialize()
        rc, took, _ = srv.eof(timeout=5)
        self.assertEqual(rc, 0, srv.stderr())
        self.assertLess(took, 5)
        # and without any message at all
        srv = RawServer(self)
        rc, _, rest = srv.eof(timeout=5)
        self.assertEqual((rc, rest), (0, []), srv.stderr())

    def test_protocol_version_negotiation(self):
        """A version the server supports is echoed; otherwise it answers with one it does
        support (MCP lifecycle), which must be one the SDK knows."""
        known = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
        for version in ["2025-06-18", "1999-01-01"]:
            with self.subTest(version=version):
                srv = RawServer(self)
                got = srv.initialize(version=version)["protocolVersion"]
                self.assertIn(got, known)
                srv.eof()


if __name__ == "__main__":
    unittest.main()
