#!/usr/bin/python3
"""Exit codes and error.v1 on stderr."""
import json
import os
import unittest

from kebab_e2e import EXIT_ERROR, EXIT_NO_RESULT, EXIT_OK, KebabTestCase

MALFORMED_RAW_QUERIES = ["'AND ('", "'NEAR('", "'OR'", "'a:b'", "'*'", "'x' 'y'", "'(('"]


class NoIndexTest(KebabTestCase):
    def test_search_before_ingest_is_not_indexed(self):
        err = self.assertError(self.sb.run("--json", "search", "anything"), "not_indexed")
        self.assertIn("ingest", err["hint"])
        self.assertError(self.sb.run("--json", "list", "docs"), "not_indexed")
        self.assertFalse(os.path.exists(self.sb.sqlite), "a read command created the index")
        r = self.sb.run("search", "anything")
        self.assertExit(r, EXIT_ERROR)
        self.assertTrue(r.stderr.startswith("error: "), r)

    def test_bad_config_unknown_key(self):
        with open(self.sb.config, "a") as f:
            f.write("\n[search]\ndefault_kk = 5\n")
        for args in (["search", "x"], ["ingest"], ["list", "docs"], ["schema"]):
            with self.subTest(args=args):
                err = self.assertError(self.sb.run("--json", *args), "config_invalid")
                self.assertIn("default_kk", err["message"])

    def test_bad_config_value_and_syntax(self):
        self.sb.write_config(extra="\n[search]\ndefault_k = 0\n")
        self.assertError(self.sb.run("--json", "search", "x"), "config_invalid")
        self.sb.write_config(extra="\n[search\n")
        self.assertError(self.sb.run("--json", "search", "x"), "config_invalid")
        self.sb.write_config()
        self.assertError(self.sb.run("--json", "search", "x",
                                     env={"KEBAB_SEARCH_DEFAULT_K": "many"}), "config_invalid")

    def test_missing_config_file(self):
        missing = os.path.join(self.sb.tmp, "nonexistent", "config.toml")
        for args in (["search", "x"], ["ingest"], ["list", "docs"]):
            with self.subTest(args=args):
                r = self.sb.run("--json", "--config", missing, *args, config=False)
                self.assertError(r, "config_not_found")
        r = self.sb.run("--json", "--config", "/nonexistent", "search", "x", config=False)
        self.assertError(r, "config_not_found")

    def test_readonly_refuses_mutations(self):
        self.sb.write("a.md", "# A\n\nreadonly words\n")
        err = self.assertError(self.sb.run("--json", "--readonly", "ingest"), "readonly_mode",
                               EXIT_NO_RESULT)
        self.assertIn("readonly", err["message"])
        for value in ("1", "true", "yes", "on"):
            with self.subTest(KEBAB_READONLY=value):
                self.assertError(self.sb.run("--json", "ingest", env={"KEBAB_READONLY": value}),
                                 "readonly_mode", EXIT_NO_RESULT)
        outside = os.path.join(self.sb.tmp, "in.md")
        with open(outside, "w") as f:
            f.write("# x\n\ny\n")
        self.assertError(self.sb.run("--json", "ingest-file", outside,
                                     env={"KEBAB_READONLY": "1"}), "readonly_mode", EXIT_NO_RESULT)
        self.assertError(self.sb.run("--json", "--readonly", "ingest-stdin", "--title", "t",
                                     stdin="body\n"), "readonly_mode", EXIT_NO_RESULT)
        self.assertFalse(os.path.exists(self.sb.sqlite), "readonly ingest wrote an index")
        self.assertFalse(os.path.exists(self.sb.path("_external")))
        # human mode: same exit code, message on stderr
        r = self.sb.run("--readonly", "ingest")
        self.assertExit(r, EXIT_NO_RESULT)
        self.assertIn("readonly", r.stderr)
        # reads still work in readonly mode, and KEBAB_READONLY=0 allows writes
        self.ingest(env={"KEBAB_READONLY": "0"})
        self.assertTrue(self.search("readonly", env={"KEBAB_READONLY": "1"})["hits"])


class IndexedErrorsTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        self.sb.copy_fixture("notes")
        self.ingest()

    def test_zero_hits_exit_1_with_empty_response(self):
        r = self.sb.run("--json", "search", "xylophonequartz")
        self.assertExit(r, EXIT_NO_RESULT)
        resp = json.loads(r.stdout)
        self.assertValid("search_response", resp)
        self.assertEqual(resp["hits"], [])
        self.assertIsNone(resp["next_cursor"])
        self.assertEqual(r.stderr, "")
        r = self.sb.run("search", "xylophonequartz")
        self.assertExit(r, EXIT_NO_RESULT)
        self.assertIn("no hits", r.stderr)

    def test_malformed_raw_fts_queries_are_invalid_input(self):
        for q in MALFORMED_RAW_QUERIES:
            with self.subTest(query=q):
                err = self.assertError(self.sb.run("--json", "search", q), "invalid_input")
                self.assertTrue(err["message"])
        # the binary survived and the index is intact
        self.assertTrue(self.search("borrow")["hits"])

    def test_unterminated_fts_string_is_invalid_input(self):
        """PRODUCT BUG: a raw query with an unterminated FTS5 string fails with code generic
        ("step: unterminated string", hint null) instead of invalid_input."""
        self.assertError(self.sb.run("--json", "search", "'\"unterminated'"), "invalid_input")
        self.assertError(self.sb.run("--json", "search", "'borrow \"check'"), "invalid_input")

    def test_raw_fts_query_works(self):
        resp = self.search("'borrow NOT wheelbarrow'")
        self.assertEqual(self.hit_paths(resp), ["en/rust-ownership.md"])
        resp = self.search("'NEAR(borrow checker, 2)'")
        self.assertEqual(self.hit_paths(resp), ["en/rust-ownership.md"])

    def test_empty_and_wordless_queries(self):
        for q in ("", "   ", "'", "?!"):
            with self.subTest(query=q):
                self.assertError(self.sb.run("--json", "search", q), "invalid_input")

    def test_bad_search_arguments(self):
        for args in (["--k", "-1"], ["--mode", "sideways"], ["--trust-min", "gold"],
                     ["--media", "hologram"], ["--max-tokens", "-5"], ["--cursor", "garbage"]):
            with self.subTest(args=args):
                self.assertError(self.sb.run("--json", "search", "borrow", *args),
                                 "invalid_input")

    def test_k_zero_is_rejected(self):
        """PRODUCT BUG: --k 0 is silently taken as "default" (10 hits) instead of being
        rejected like --k -1 ("--k must be at least 1")."""
        self.assertError(self.sb.run("--json", "search", "the", "--k", "0"), "invalid_input")

    def test_stale_cursor(self):
        first = self.search("borrow", "--k", "1")
        cursor = first["next_cursor"]
        self.assertIsNotNone(cursor)
        second = self.search("borrow", "--k", "1", "--cursor", cursor)
        self.assertNotEqual(second["hits"][0]["chunk_id"], first["hits"][0]["chunk_id"])
        self.sb.write("en/new.md", "# New\n\nanother borrow appears\n")
        _, report = self.ingest()
        self.assertEqual(report["corpus_revision"], first["corpus_revision"] + 1)
        err = self.assertError(self.sb.run("--json", "search", "borrow", "--k", "1",
                                           "--cursor", cursor), "stale_cursor")
        self.assertTrue(err["hint"])
        # a cursor of another query is invalid_input, not a silent wrong page
        cursor = self.search("borrow", "--k", "1")["next_cursor"]
        self.assertError(self.sb.run("--json", "search", "kangaroo", "--cursor", cursor),
                         "invalid_input")

    def test_fetch_span_out_of_range_and_bad_ids(self):
        doc_id = self.list_docs("--path-glob", "ko/cats.md")[0]["doc_id"]
        span = self.kjson("fetch", "span", doc_id, "3", "99", schema="fetch_result")
        self.assertEqual(span["effective_end"], 4)
        self.assertEqual(span["text"].rstrip("\n"), "고양이가 창가에서 잠을 잔다.\n강아지는 마당에서 뛰어논다.")
        for args in (["span", doc_id, "5", "2"], ["span", doc_id, "0", "1"],
                     ["span", doc_id, "50", "60"]):
            with self.subTest(args=args):
                self.assertError(self.sb.run("--json", "fetch", *args), "invalid_input")
        self.assertError(self.sb.run("--json", "inspect", "doc", "0" * 32), "doc_not_found")
        self.assertError(self.sb.run("--json", "fetch", "chunk", "0" * 32), "chunk_not_found")

    def test_malformed_ids_are_invalid_input(self):
        """PRODUCT BUG: a malformed id (not 32 hex chars) gives doc_not_found /
        chunk_not_found; docs/wire-schema/v1/README.md lists "malformed id" under
        invalid_input."""
        for args in (["fetch", "doc", "not-an-id"], ["inspect", "chunk", "xyz"],
                     ["fetch", "span", "ABC", "1", "2"]):
            with self.subTest(args=args):
                self.assertError(self.sb.run("--json", *args), "invalid_input")

    def test_usage_errors_in_json_mode_print_error_v1(self):
        """PRODUCT BUG: command-line usage errors (unknown subcommand, missing argument)
        print CLI11's plain text on stderr even with --json, not an error.v1 line."""
        for args in (["bogus"], ["search"], ["fetch", "span", "x"], ["search", "x", "--k", "many"]):
            with self.subTest(args=args):
                self.assertError(self.sb.run("--json", *args), "invalid_input")

    def test_version_and_help(self):
        r = self.sb.run("--version", config=False)
        self.assertExit(r, EXIT_OK)
        self.assertRegex(r.stdout, r"^kebab \d+\.\d+\.\d+")
        r = self.sb.run("--help", config=False)
        self.assertExit(r, EXIT_OK)
        for cmd in ("init", "ingest", "ingest-file", "ingest-stdin", "search", "fetch", "list",
                    "inspect", "doctor", "schema", "reset"):
            self.assertIn(cmd, r.stdout)


if __name__ == "__main__":
    unittest.main()
