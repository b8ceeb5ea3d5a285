#!/usr/bin/python3
"""Source code end to end: a small mixed repository (notes, Rust, Python, a shell script, a
lock file, minified JavaScript) ingested by the real kebab; hits cite lines with kind code,
the symbol and the language, and the cited lines read back exactly. Identifiers are found by
their words in any spelling, and a query naming one ranks its definitions first. A long
definition is cut into parts, its head (signature and docstring) first."""
import json
import unittest

from kebab_e2e import EXIT_ERROR, EXIT_OK, KebabTestCase

RETRY_RS = """use std::time::Duration;

/// Retries a failed upload with exponential backoff.
pub fn retry_upload(attempts: u32) -> Duration {
    Duration::from_millis(100 * 2u64.pow(attempts))
}

pub struct Backoff {
    ms: u64,
}

impl Backoff {
    /// The next wait before another attempt.
    pub fn next(&mut self) -> u64 {
        self.ms *= 2;
        self.ms
    }
}
"""

CONFIG_PY = '''"""Configuration loading."""
import json


def parse_config(path):
    """Reads the settings file and returns a dict."""
    with open(path) as f:
        return json.load(f)
'''


class CodeTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        self.sb.write_config('[models.embedding]\nprovider = "none"\n')
        self.sb.write("notes/ops.md", "# Ops\n\nUploads go to the archive every night.\n")
        self.sb.write("src/retry.rs", RETRY_RS)
        self.sb.write("app/settings.py", CONFIG_PY)
        self.sb.write("deploy/run.sh", "#!/bin/sh\nset -e\n\nmake release\n")
        self.sb.write("web/package-lock.json", '{"name": "web", "lockfileVersion": 3}\n')
        self.sb.write("web/app.min.js", "function a(){return 1}" * 10 + "\n")

    def test_source_files_are_cited_by_symbol_and_lines(self):
        _, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (4, 0), report)
        self.assertEqual(report["skipped_generated"], 2, report)
        items = {i["doc_path"]: i for i in report["items"]}
        self.assertEqual(items["src/retry.rs"]["chunker_version"], "code-v4")

        hit = self.search("retry failed upload backoff", "--k", "3")["hits"][0]
        c = hit["citation"]
        self.assertEqual((c["kind"], c["path"], c["symbol"], c["lang"]),
                         ("code", "src/retry.rs", "retry::retry_upload", "rust"))
        self.assertEqual((c["line_start"], c["line_end"]), (3, 6))
        self.assertEqual(c["uri"], "src/retry.rs#L3-L6")
        span = self.kjson("fetch", "span", hit["doc_id"], "3", "6", schema="fetch_result")
        self.assertEqual(span["text"].splitlines()[0],
                         "/// Retries a failed upload with exponential backoff.")

        method = self.search("next wait before another attempt")["hits"][0]["citation"]
        self.assertEqual((method["symbol"], method["line_start"], method["line_end"]),
                         ("retry::Backoff::next", 13, 17))
        py = self.search("settings file dict")["hits"][0]["citation"]
        self.assertEqual((py["symbol"], py["lang"]), ("app.settings.parse_config", "python"))
        sh = self.search("make release")["hits"][0]["citation"]
        self.assertEqual((sh["kind"], sh["lang"], sh["line_start"]), ("code", "shell", 1))
        self.assertNotIn("symbol", {k for k, v in sh.items() if v is not None})

        human = self.sb.run("search", "retry failed upload backoff")
        self.assertIn("src/retry.rs#L3-L6", human.stdout)
        self.assertIn("retry::retry_upload", human.stdout)

    def test_a_long_definition_is_found_by_its_head(self):
        # 40 statements after the docstring: well over a quarter of target_tokens, so the
        # function is cut into parts, its head (lines 4-8) first.
        body = "".join(f"    total_{i} = scan(root, {i}) * {i}\n" + ("\n" if i % 8 == 7 else "")
                       for i in range(40))
        source = ("import os\n\n\ndef mirror_tree(src, dst):\n"
                  '    """Copies every changed file from the source folder into the mirror.\n\n'
                  '    Skips those whose size and modification time match.\n    """\n'
                  + body + "    return total_39\n")
        self.sb.write("app/sync.py", source)
        self.ingest()
        hit = self.search("copies changed file source folder mirror")["hits"][0]
        c = hit["citation"]
        self.assertRegex(c["symbol"], r"^app\.sync\.mirror_tree \[part 1/\d+\]$")
        self.assertEqual((c["line_start"], c["line_end"]), (4, 8))
        span = self.kjson("fetch", "span", hit["doc_id"], "4", "8", schema="fetch_result")
        self.assertEqual(span["text"].splitlines(), source.splitlines()[3:8])
        # A statement of the body is cited within its own part's lines.
        c = self.search("total_23")["hits"][0]["citation"]
        line = source.splitlines().index("    total_23 = scan(root, 23) * 23") + 1
        self.assertRegex(c["symbol"], r"^app\.sync\.mirror_tree \[part [2-9]/\d+\]$")
        self.assertLessEqual(c["line_start"], line)
        self.assertGreaterEqual(c["line_end"], line)
        self.assertLess(c["line_end"] - c["line_start"], 20)


LOAD_TS = """import { readFileSync } from "fs";

/** Reads the settings text into an object. */
export function parseConfig(text: string): object {
  return JSON.parse(text);
}
"""

MAIN_TS = """import { parseConfig } from "./load";

export class App {
  /** Starts the app with its settings, then serves until stopped. */
  start(raw: string): void {
    const settings = parseConfig(raw);
    console.log("starting with", settings);
    this.serve(settings);
  }
}
"""

CONFIG_GO = """package config

// ParseConfig reads the settings of a service.
func ParseConfig(data []byte) (*Settings, error) {
	return decode(data)
}

// Reload reads the settings again.
func (s *Settings) Reload() error {
	return nil
}
"""

CACHE_CC = """#include "store/cache.h"

namespace kebab::store {

// Drops every cached page.
void Cache::Clear() {
  pages_.clear();
}

}  // namespace kebab::store
"""

RETRY_JAVA = """package com.example.net;

/** Retries calls. */
public class Retrier {
  /** Waits, doubling each time. */
  public long backoffMillis(int attempt) {
    return 100L << attempt;
  }
}
"""


DOCKERFILE = """# Builds the uploader.
FROM rust:1.80 AS build
RUN cargo build --release

# The runtime image.
FROM debian:12-slim
COPY --from=build /src/target/release/uploader /usr/local/bin/
ENTRYPOINT ["/usr/local/bin/uploader"]
"""

K8S_YAML = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: uploader
  namespace: prod
spec:
  replicas: 3
---
apiVersion: v1
kind: Service
metadata:
  name: uploader-svc
spec:
  ports:
    - port: 80
      targetPort: 8080
"""

CARGO_TOML = """[package]
name = "uploader"
version = "0.4.0"
description = "Sends archives to cold storage"

[dependencies]
tokio = "1"
"""


class CodeTier2Test(KebabTestCase):
    """Build and deployment files: a chunk per build stage, Kubernetes resource and manifest."""

    def test_stages_resources_and_manifests_are_cited_by_name_and_lines(self):
        self.sb.write_config('[models.embedding]\nprovider = "none"\n')
        self.sb.write("up/Dockerfile", DOCKERFILE)
        self.sb.write("up/deploy/k8s.yaml", K8S_YAML)
        self.sb.write("up/Cargo.toml", CARGO_TOML)
        _, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (3, 0), report)
        expect = {
            "cargo build release": ("up/Dockerfile", "build", "dockerfile", 1, 3),
            "runtime image entrypoint": ("up/Dockerfile", "debian:12-slim", "dockerfile", 5, 8),
            "replicas": ("up/deploy/k8s.yaml", "Deployment/prod/uploader", "yaml", 1, 7),
            "targetPort": ("up/deploy/k8s.yaml", "Service/default/uploader-svc", "yaml", 9, 16),
            "archives cold storage": ("up/Cargo.toml", "uploader", "toml", 1, 7),
        }
        for query, (path, symbol, lang, start, end) in expect.items():
            hit = self.search(query, "--k", "3")["hits"][0]
            c = hit["citation"]
            self.assertEqual((c["kind"], c["path"], c["symbol"], c["lang"]),
                             ("code", path, symbol, lang), query)
            self.assertEqual((c["line_start"], c["line_end"]), (start, end), query)
            span = self.kjson("fetch", "span", hit["doc_id"], str(start), str(end),
                              schema="fetch_result")
            source = {"up/Dockerfile": DOCKERFILE, "up/deploy/k8s.yaml": K8S_YAML,
                      "up/Cargo.toml": CARGO_TOML}[path]
            self.assertEqual(span["text"].splitlines(),
                             source.splitlines()[start - 1:end], query)


class CodeLanguagesTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        self.sb.write_config('[models.embedding]\nprovider = "none"\n')
        self.sb.write("app/settings.py", CONFIG_PY)
        self.sb.write("web/load.ts", LOAD_TS)
        self.sb.write("web/main.ts", MAIN_TS)
        self.sb.write("svc/config/config.go", CONFIG_GO)
        self.sb.write("src/store/cache.cc", CACHE_CC)
        self.sb.write("java/com/example/net/Retrier.java", RETRY_JAVA)
        self.sb.write("notes/setup.md", "# Setup\n\nRun parse-config before the first start.\n")
        _, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (7, 0), report)

    def symbols(self, query, k=10):
        return [h["citation"].get("symbol") for h in self.search(query, "--k", str(k))["hits"]]

    def test_each_language_cites_its_own_symbols(self):
        expect = {
            "settings text into an object": ("web/load.parseConfig", "typescript"),
            "starts the app serves until stopped": ("web/main.App.start", "typescript"),
            "reads the settings again": ("config.(*Settings).Reload", "go"),
            "drops every cached page": ("kebab::store::Cache::Clear", "cpp"),
            "waits doubling each time": ("com.example.net.Retrier.backoffMillis", "java"),
        }
        for query, (symbol, lang) in expect.items():
            c = self.search(query)["hits"][0]["citation"]
            self.assertEqual((c["kind"], c["symbol"], c["lang"]), ("code", symbol, lang), query)

    def test_identifier_words_find_every_spelling(self):
        found = set(self.symbols("parse config"))
        for symbol in ("app.settings.parse_config", "web/load.parseConfig",
                       "config.ParseConfig", "web/main.App.start"):
            self.assertIn(symbol, found)
        paths = [h["citation"]["path"] for h in self.search("parse config", "--k", "10")["hits"]]
        self.assertIn("notes/setup.md", paths)

    def test_a_named_identifier_ranks_its_definitions_above_its_callers(self):
        for query in ("parseConfig", "parse_config", "ParseConfig"):
            got = self.symbols(query)
            self.assertIn("web/main.App.start", got, query)
            caller = got.index("web/main.App.start")
            for definition in ("app.settings.parse_config", "web/load.parseConfig",
                               "config.ParseConfig"):
                self.assertLess(got.index(definition), caller, (query, got))


MACROS_C = """#include "db.h"

/* The library's version. */
SQLITE_API const char *db_libversion(void) { return DB_VERSION; }

static SQLITE_NOINLINE int db_open_file(const char * RESTRICT path) {
  KEBAB_ASSIGN_OR_RETURN(int fd, open_file(path));
  return fd;
}
"""

BROKEN_CC = """int fine() { KEBAB_RETURN_IF_ERROR(Check()); return 1; }

int broken() { return (1; }
"""


class CodeMacrosTest(KebabTestCase):
    """C and C++ macros the grammars cannot expand cost neither a warning nor a symbol; a real
    syntax error still warns, once a file. A code document is listed by its language."""

    def setUp(self):
        super().setUp()
        self.sb.write_config('[models.embedding]\nprovider = "none"\n')
        self.sb.write("lib/db.c", MACROS_C)
        self.sb.write("src/broken.cc", BROKEN_CC)
        self.sb.write("notes/db.md", "# Database\n\nThe library opens one file per database.\n")
        _, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (3, 0), report)
        self.items = {i["doc_path"]: i for i in report["items"]}

    def test_macros_are_no_syntax_errors_and_a_real_one_warns(self):
        self.assertEqual(self.items["lib/db.c"]["warnings"], [])
        self.assertEqual(self.items["src/broken.cc"]["warnings"],
                         ["syntax error in broken (lines 3-3); indexed as written"])
        c = self.search("db_open_file", "--media", "code")["hits"][0]["citation"]
        self.assertEqual((c["symbol"], c["line_start"], c["line_end"], c["lang"]),
                         ("db_open_file", 6, 9, "c"))
        c = self.search("library version", "--media", "code")["hits"][0]["citation"]
        self.assertEqual((c["symbol"], c["line_start"], c["line_end"]), ("db_libversion", 3, 4))

    def test_code_documents_are_listed_by_their_language(self):
        docs = {d["doc_path"]: d for d in self.list_docs()}
        self.assertEqual((docs["lib/db.c"]["lang"], docs["lib/db.c"]["code_lang"]), ("und", "c"))
        self.assertEqual(docs["src/broken.cc"]["code_lang"], "cpp")
        self.assertNotIn("code_lang", docs["notes/db.md"])
        human = self.sb.run("list", "docs")
        self.assertExit(human, EXIT_OK)
        lines = {l.split()[1]: l for l in human.stdout.splitlines() if l.strip()}
        self.assertIn("[c, ", lines["lib/db.c"])
        self.assertIn("[cpp, ", lines["src/broken.cc"])
        self.assertIn(f"[{docs['notes/db.md']['lang']}, ", lines["notes/db.md"])
        doc = self.kjson("inspect", "doc", docs["lib/db.c"]["doc_id"],
                         schema="document_inspection")
        self.assertEqual((doc["lang"], doc["metadata"]["code_lang"]), ("und", "c"))

    def test_code_documents_are_filtered_by_their_language(self):
        paths = self.doc_paths
        self.assertEqual(paths("--code-lang", "c++"), ["src/broken.cc"])
        self.assertEqual(paths("--code-lang", "C"), ["lib/db.c"])
        # --lang matches what the listing shows: a code document's programming language.
        self.assertEqual(paths("--lang", "cpp"), ["src/broken.cc"])
        note_lang = {d["doc_path"]: d for d in self.list_docs()}["notes/db.md"]["lang"]
        self.assertEqual(paths("--lang", note_lang), ["notes/db.md"])
        self.assertEqual(paths("--code-lang", "rust"), [])
        bad = self.sb.run("list", "docs", "--code-lang", "c/c")
        self.assertExit(bad, EXIT_ERROR)
        self.assertIn("not a programming language name", bad.stderr)


if __name__ == "__main__":
    unittest.main()
