"""Shared harness for the kebab end-to-end tests.

Every test gets a Sandbox: a fresh temp dir holding the workspace (ws/), the data, cache and
state dirs, a HOME with XDG_* inside it, and a config.toml pointing at all of them. The
binary comes from $KEBAB_BIN; no KEBAB_* variable of the caller leaks into a run.

JSON output is checked against docs/wire-schema/v1 with tests/wire/validate.py (imported).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
TESTDATA = os.path.join(REPO, "tests", "testdata", "e2e")
VALIDATE_PY = os.path.join(REPO, "tests", "wire", "validate.py")

sys.dont_write_bytecode = True  # leave no __pycache__ in tests/wire
sys.path.insert(0, os.path.join(REPO, "tests", "wire"))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import validate as wire  # noqa: E402  (tests/wire/validate.py)

_SCHEMAS = wire.load_schemas(wire.DEFAULT_SCHEMA_DIR)
_VALIDATORS = {}

EXIT_OK, EXIT_NO_RESULT, EXIT_ERROR, EXIT_UNHEALTHY, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def kebab_bin():
    path = os.environ.get("KEBAB_BIN")
    if not path:
        raise RuntimeError("set KEBAB_BIN to the kebab binary")
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"KEBAB_BIN={path} is not an executable")
    return path


def _validator(name):
    if name not in _VALIDATORS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _VALIDATORS[name] = wire.make_validator(_SCHEMAS, name)
    return _VALIDATORS[name]


def schema_errors(name, value):
    """Messages for every way `value` violates docs/wire-schema/v1/<name>.schema.json."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [wire.describe(e) for e in _validator(name).iter_errors(value)]


def ingest_stream_errors(text):
    """Schema errors plus §2.4a ordering problems of a whole `ingest --json` stdout."""
    docs = wire.parse_documents(text, allow_array=False)
    problems = []
    for label, value in docs:
        if isinstance(value, ValueError):
            problems.append(f"{label}: {value}")
            continue
        target = "ingest_report" if value.get("schema_version") == "ingest_report.v1" \
            else "ingest_progress"
        problems += [f"{label} ({target}): {m}" for m in schema_errors(target, value)]
    problems += wire.check_ingest_stream(docs)
    return problems


def validate_cli(args, text):
    """Run tests/wire/validate.py as a subprocess: (exit code, stderr)."""
    p = subprocess.run(["/usr/bin/python3", VALIDATE_PY] + list(args) + ["-"],
                       input=text.encode("utf-8"), capture_output=True, timeout=60)
    return p.returncode, p.stderr.decode("utf-8", "replace")


class Result:
    def __init__(self, args, rc, stdout, stderr):
        self.args, self.rc, self.stdout_bytes, self.stderr_bytes = args, rc, stdout, stderr
        self.stdout = stdout.decode("utf-8", "replace")
        self.stderr = stderr.decode("utf-8", "replace")

    def __repr__(self):
        return (f"kebab {' '.join(self.args)} -> exit {self.rc}\n--- stdout\n"
                f"{self.stdout[-3000:]}\n--- stderr\n{self.stderr[-3000:]}")


class Sandbox:
    def __init__(self, prefix="kebab-e2e-"):
        self.tmp = tempfile.mkdtemp(prefix=prefix)
        self.ws = os.path.join(self.tmp, "ws")
        self.data_dir = os.path.join(self.tmp, "data")
        self.cache_dir = os.path.join(self.tmp, "cache")
        self.state_dir = os.path.join(self.tmp, "state")
        self.home = os.path.join(self.tmp, "home")
        self.config = os.path.join(self.tmp, "config.toml")
        self.sqlite = os.path.join(self.data_dir, "kebab.sqlite")
        os.makedirs(self.ws)
        os.makedirs(self.home)
        self.write_config()

    def write_config(self, extra="", workspace=""):
        """config.toml for this sandbox; `workspace` adds lines to [workspace], `extra`
        appends sections."""
        with open(self.config, "w", encoding="utf-8") as f:
            f.write(f'[workspace]\nroot = "{self.ws}"\n{workspace}\n'
                    f'[storage]\ndata_dir = "{self.data_dir}"\n'
                    f'cache_dir = "{self.cache_dir}"\nstate_dir = "{self.state_dir}"\n'
                    + extra)

    def cleanup(self):
        # chmod 000 files and dirs would stop rmtree as non-root.
        for dirpath, dirnames, filenames in os.walk(self.tmp):
            for n in dirnames + filenames:
                p = os.path.join(dirpath, n)
                if not os.path.islink(p):
                    try:
                        os.chmod(p, 0o755)
                    except OSError:
                        pass
        shutil.rmtree(self.tmp, ignore_errors=True)

    # ---------------------------------------------------------------- environment

    def env(self, extra=None):
        env = {k: v for k, v in os.environ.items() if not k.startswith("KEBAB_")}
        env.update({
            "HOME": self.home,
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "XDG_STATE_HOME": os.path.join(self.home, ".local", "state"),
            "NO_COLOR": "1",
            "LC_ALL": "C.UTF-8",
        })
        env.update(extra or {})
        return env

    def argv(self, args, config=True):
        argv = [kebab_bin()]
        if config:
            argv += ["--config", self.config]
        return argv + list(args)

    def run(self, *args, stdin=None, env=None, config=True, timeout=120):
        if isinstance(stdin, str):
            stdin = stdin.encode("utf-8")
        p = subprocess.run(self.argv(args, config), input=stdin if stdin is not None else b"",
                           capture_output=True, env=self.env(env), cwd=self.tmp, timeout=timeout)
        return Result(list(args), p.returncode, p.stdout, p.stderr)

    def popen(self, *args, env=None):
        return subprocess.Popen(self.argv(args), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=self.env(env), cwd=self.tmp)

    # ---------------------------------------------------------------- files

    def path(self, rel):
        return os.path.join(self.ws, rel)

    def write(self, rel, content):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(content.encode("utf-8") if isinstance(content, str) else content)
        return p

    def copy_fixture(self, name):
        """Copy tests/testdata/e2e/<name>/ into the workspace."""
        shutil.copytree(os.path.join(TESTDATA, name), self.ws, dirs_exist_ok=True)


class KebabTestCase(unittest.TestCase):
    """A TestCase with a fresh Sandbox per test and JSON/exit-code assertion helpers."""

    maxDiff = 4000

    def setUp(self):
        kebab_bin()
        self.sb = Sandbox()
        self.addCleanup(self.sb.cleanup)

    # ---------------------------------------------------------------- assertions

    def assertValid(self, name, value, what=""):
        errors = schema_errors(name, value)
        self.assertEqual(errors, [], f"{what or name} does not match {name}.schema.json")

    def assertExit(self, result, code):
        self.assertEqual(result.rc, code, f"unexpected exit code:\n{result!r}")

    def assertError(self, result, code, exit_code=EXIT_ERROR):
        """A --json failure: exit code, one error.v1 line on stderr with `code`."""
        self.assertExit(result, exit_code)
        lines = [l for l in result.stderr.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, f"expected one error.v1 line on stderr:\n{result!r}")
        err = json.loads(lines[0])
        self.assertValid("error", err, "stderr error line")
        self.assertEqual(err["code"], code, f"wrong error code:\n{result!r}")
        self.assertNotIn("Segmentation", result.stderr)
        return err

    # ---------------------------------------------------------------- commands

    def kjson(self, *args, schema=None, array=False, rc=EXIT_OK, **kw):
        """Run `kebab --json ARGS`, assert the exit code, parse and validate stdout."""
        r = self.sb.run("--json", *args, **kw)
        self.assertExit(r, rc)
        try:
            value = json.loads(r.stdout)
        except ValueError as e:
            self.fail(f"stdout is not one JSON document ({e}):\n{r!r}")
        if schema:
            if array:
                self.assertIsInstance(value, list)
                for i, v in enumerate(value):
                    self.assertValid(schema, v, f"element {i}")
            else:
                self.assertValid(schema, value)
        return value

    def ingest(self, *args, rc=EXIT_OK, env=None):
        """`kebab --json ingest ARGS`: validated stream -> (events, report)."""
        r = self.sb.run("--json", "ingest", *args, env=env)
        self.assertExit(r, rc)
        problems = ingest_stream_errors(r.stdout)
        self.assertEqual(problems, [], f"ingest --json stream is invalid:\n{r!r}")
        lines = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
        return lines[:-1], lines[-1]

    def search(self, *args, rc=None, env=None):
        """`kebab --json search ARGS` validated as search_response; rc 0 iff hits."""
        r = self.sb.run("--json", "search", *args, env=env)
        try:
            resp = json.loads(r.stdout)
        except ValueError as e:
            self.fail(f"search stdout is not JSON ({e}):\n{r!r}")
        self.assertValid("search_response", resp)
        expected = rc if rc is not None else (EXIT_OK if resp["hits"] else EXIT_NO_RESULT)
        self.assertExit(r, expected)
        return resp

    def hit_paths(self, resp):
        return sorted({h["doc_path"] for h in resp["hits"]})

    def all_hits(self, *args, k=3):
        """Every hit of a search, following next_cursor; asserts no page repeats a chunk."""
        hits, cursor, pages = [], None, 0
        while True:
            extra = ["--cursor", cursor] if cursor else []
            resp = self.search(*args, "--k", str(k), *extra)
            hits += resp["hits"]
            pages += 1
            cursor = resp["next_cursor"]
            if not cursor:
                return hits, pages
            self.assertLess(pages, 1000, "cursor paging does not end")

    def list_docs(self, *args):
        return self.kjson("list", "docs", *args, schema="doc_summary", array=True)

    def doc_paths(self, *args):
        return sorted(d["doc_path"] for d in self.list_docs(*args))

    def schema_info(self):
        return self.kjson("schema", schema="schema")


def normalize(text):
    return " ".join(text.split())


def snippet_words(snippet):
    return normalize(snippet.replace("…", " ")).split()


class CitationChecks:
    """Mixin for KebabTestCase: a hit's citation must point at lines holding its words."""

    def read_lines(self, doc_path):
        with open(self.sb.path(doc_path), encoding="utf-8", errors="replace") as f:
            return f.read().split("\n")

    def check_hit(self, hit, full_chunk=False):
        cit = hit["citation"]
        self.assertEqual(cit["kind"], "line")
        self.assertEqual(cit["path"], hit["doc_path"])
        start, end = cit["start"], cit["end"]
        self.assertTrue(1 <= start <= end, cit)
        expected_uri = hit["doc_path"] + (f"#L{start}-L{end}" if end != start else f"#L{start}")
        self.assertEqual(cit["uri"], expected_uri)
        lines = self.read_lines(hit["doc_path"])
        self.assertLessEqual(end, len(lines), f"citation past the end of {hit['doc_path']}")
        cited = normalize("\n".join(lines[start - 1:end]))
        for word in snippet_words(hit["snippet"]):
            self.assertIn(word, cited, f"snippet word {word!r} of {cit['uri']} is not in the "
                                       f"cited lines {cited!r}")
        if full_chunk:
            # the whole chunk text, not only the snippet window, comes from the cited lines
            text = self.kjson("inspect", "chunk", hit["chunk_id"], schema="chunk_inspection")
            for word in normalize(text["text"]).split():
                self.assertIn(word, cited, f"chunk word {word!r} of {cit['uri']} is not in "
                                           f"the cited lines")
        # fetch span returns exactly those lines.
        span = self.kjson("fetch", "span", hit["doc_id"], str(start), str(end),
                          schema="fetch_result")
        self.assertEqual(span["kind"], "span")
        self.assertEqual((span["line_start"], span["effective_end"]), (start, end))
        self.assertEqual(span["doc_path"], hit["doc_path"])
        self.assertEqual(span["text"].rstrip("\n"),
                         "\n".join(l.rstrip("\r") for l in lines[start - 1:end]).rstrip("\n"))
        self.assertEqual(span["citation"]["uri"], cit["uri"])


def read_ndjson_until(proc, predicate, timeout=60):
    """Read proc.stdout lines until predicate(event) holds; returns the lines read (bytes).
    Fails (AssertionError) if the stream ends first."""
    import select
    import time
    lines = []
    deadline = time.monotonic() + timeout
    buf = b""
    fd = proc.stdout.fileno()
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError("timed out waiting for an ingest event")
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            raise AssertionError("ingest ended before the awaited event: "
                                 + (lines[-1].decode("utf-8", "replace") if lines else "no output"))
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            lines.append(line)
            try:
                if predicate(json.loads(line)):
                    return lines, buf
            except ValueError:
                pass


class FakeOllama:
    """tests/tools/fake_ollama.py on a free port of 127.0.0.1; `url` is its base URL. With
    `reply_file`, chat replies are that file's text (FAKE_OLLAMA_REPLY_FILE)."""

    def __init__(self, reply_file=None):
        env = dict(os.environ)
        if reply_file:
            env["FAKE_OLLAMA_REPLY_FILE"] = reply_file
        self.proc = subprocess.Popen(
            ["/usr/bin/python3", os.path.join(REPO, "tests", "tools", "fake_ollama.py"), "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.url = f"http://127.0.0.1:{int(self.proc.stdout.readline())}"

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())

    def close(self):
        kill_quietly(self.proc)
        self.proc.wait()


def kill_quietly(proc, sig=signal.SIGKILL):
    if proc.poll() is None:
        os.kill(proc.pid, sig)


class ServiceTestCase(KebabTestCase):
    """A KebabTestCase that may start `kebab serve` for its sandbox (XDG_RUNTIME_DIR inside it),
    stopped with Ctrl-C at the end."""

    def setUp(self):
        super().setUp()
        self.run_dir = os.path.join(self.sb.tmp, "run")
        self.env = {"XDG_RUNTIME_DIR": self.run_dir}
        self.service = None
        self.addCleanup(self.stop)

    def stop(self):
        if self.service is None:
            return
        if self.service.poll() is None:
            self.service.send_signal(signal.SIGINT)
            try:
                self.service.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.service.kill()
                self.service.wait()
        self.service.stdout.close()
        self.service.stderr.close()

    def start(self, *args):
        """`kebab serve ARGS` in the background, once `kebab status` sees it answer."""
        self.stop()
        self.service = self.sb.popen("serve", *args, env=self.env)
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.service.poll() is not None:
                self.fail("kebab serve exited: " + self.service.stderr.read().decode())
            status = self.status()
            if status["service"]["running"]:
                return status
            time.sleep(0.05)
        self.fail("kebab serve did not answer within 30 s")

    def status(self):
        return self.kjson("status", schema="status", env=self.env)
