#!/usr/bin/python3
"""init, reset, doctor and schema end to end."""
import hashlib
import json
import os
import unittest

from kebab_e2e import (EXIT_ERROR, EXIT_OK, EXIT_UNHEALTHY, KebabTestCase, validate_cli)


def tree_digest(root):
    """{relative path: sha256} of every file under root."""
    out = {}
    for dirpath, _, filenames in os.walk(root):
        for n in filenames:
            p = os.path.join(dirpath, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, root)] = hashlib.sha256(f.read()).hexdigest()
    return out


class InitTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        os.remove(self.sb.config)
        self.xdg_data = os.path.join(self.sb.home, ".local", "share", "kebab")
        self.xdg_cache = os.path.join(self.sb.home, ".cache", "kebab")
        self.xdg_state = os.path.join(self.sb.home, ".local", "state", "kebab")
        self.kb = os.path.join(self.sb.home, "KnowledgeBase")

    def read_config(self, path=None):
        with open(path or self.sb.config, encoding="utf-8") as f:
            return f.read()

    def test_init_writes_annotated_config_and_dirs(self):
        r = self.sb.run("init")
        self.assertExit(r, EXIT_OK)
        text = self.read_config()
        for needle in ("# kebab configuration", "schema_version = 1", "[workspace]",
                       'root = "~/KnowledgeBase"', "[storage]", "[ingest]", "[chunking]",
                       "[search]", "# env: KEBAB_SEARCH_DEFAULT_K", "default_k = 10",
                       "max_file_bytes = 20971520"):
            self.assertIn(needle, text)
        # every key line is preceded by a comment
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if " = " in line and not line.startswith("#"):
                self.assertTrue(lines[i - 1].startswith("#"), f"unannotated key: {line}")
        for d in (self.xdg_data, self.xdg_cache, self.xdg_state, self.kb):
            self.assertTrue(os.path.isdir(d), d)
            self.assertIn(d, r.stdout)
        self.assertTrue(os.path.isfile(os.path.join(self.xdg_data, "kebab.sqlite")))
        self.assertIn("created", r.stdout)
        # the written config is valid and usable at once
        doctor = self.kjson("doctor", schema="doctor")
        self.assertTrue(doctor["ok"], doctor)

    def test_init_again_keeps_config_and_force_overwrites(self):
        self.assertExit(self.sb.run("init"), EXIT_OK)
        with open(self.sb.config, "a", encoding="utf-8") as f:
            f.write("# my own comment\n")
        r = self.sb.run("init")
        self.assertExit(r, EXIT_OK)
        self.assertRegex(r.stdout, r"kept\s+" + self.sb.config)
        self.assertIn("# my own comment", self.read_config())
        r = self.sb.run("init", "--force")
        self.assertExit(r, EXIT_OK)
        self.assertRegex(r.stdout, r"overwrote\s+" + self.sb.config)
        self.assertNotIn("# my own comment", self.read_config())

    def test_init_json_and_default_config_location(self):
        out = self.kjson("init", config=False)
        default = os.path.join(self.sb.home, ".config", "kebab", "config.toml")
        self.assertEqual(out["config_path"], default)
        self.assertEqual(out["workspace_root"], self.kb)
        self.assertTrue(os.path.isfile(default))
        self.assertIn("created", [a["verb"] for a in out["actions"]])
        out = self.kjson("init", config=False)
        self.assertEqual(out["actions"][0]["verb"], "kept")

    def test_init_refused_in_readonly_mode(self):
        self.assertError(self.sb.run("--json", "--readonly", "init"), "readonly_mode", 1)
        self.assertFalse(os.path.exists(self.sb.config))


class ResetTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        self.sb.copy_fixture("notes")
        self.ingest()
        os.makedirs(self.sb.cache_dir, exist_ok=True)
        os.makedirs(self.sb.state_dir, exist_ok=True)
        # a decoy at the XDG default location: reset must act on the configured dirs only
        self.xdg_data = os.path.join(self.sb.home, ".local", "share", "kebab")
        os.makedirs(self.xdg_data)
        with open(os.path.join(self.xdg_data, "kebab.sqlite"), "w") as f:
            f.write("decoy")
        self.ws_before = tree_digest(self.sb.ws)

    def test_reset_data_only_removes_configured_data_and_keeps_notes(self):
        report = self.kjson("reset", "--data-only", "--yes", schema="reset_report")
        self.assertEqual(report["scope"], "data_only")
        self.assertEqual(sorted(report["removed_paths"]),
                         sorted([self.sb.data_dir, self.sb.cache_dir, self.sb.state_dir]))
        self.assertIn(self.sb.ws, report["kept_paths"])
        self.assertIn(self.sb.config, report["kept_paths"])
        for d in (self.sb.data_dir, self.sb.cache_dir, self.sb.state_dir):
            self.assertFalse(os.path.exists(d), d)
        self.assertTrue(os.path.isfile(os.path.join(self.xdg_data, "kebab.sqlite")),
                        "reset touched the XDG default data dir")
        self.assertTrue(os.path.isfile(self.sb.config))
        self.assertEqual(tree_digest(self.sb.ws), self.ws_before, "reset changed the notes")
        self.assertError(self.sb.run("--json", "search", "borrow"), "not_indexed")
        # and the index can be rebuilt
        _, report = self.ingest()
        self.assertEqual(report["new"], 9)

    def test_reset_without_yes_on_non_tty_fails(self):
        for args in (["--json", "reset"], ["--json", "reset", "--data-only"],
                     ["--json", "reset", "--all"]):
            with self.subTest(args=args):
                self.assertError(self.sb.run(*args), "invalid_input")
        r = self.sb.run("reset", stdin="y\n")  # piped "y" is not a confirmation
        self.assertExit(r, EXIT_ERROR)
        self.assertIn("--yes", r.stderr)
        self.assertTrue(os.path.isfile(self.sb.sqlite))
        self.assertTrue(self.search("borrow")["hits"])

    def test_reset_config_only_and_all(self):
        report = self.kjson("reset", "--config-only", "--yes", schema="reset_report")
        self.assertEqual(report["removed_paths"], [self.sb.config])
        self.assertTrue(os.path.isfile(self.sb.sqlite))
        self.sb.write_config()
        report = self.kjson("reset", "--all", "--yes", schema="reset_report")
        self.assertEqual(report["scope"], "all")
        self.assertIn(self.sb.config, report["removed_paths"])
        self.assertIn(self.sb.data_dir, report["removed_paths"])
        self.assertFalse(os.path.exists(self.sb.config))
        self.assertFalse(os.path.exists(self.sb.data_dir))
        self.assertEqual(tree_digest(self.sb.ws), self.ws_before)

    def test_reset_scopes_are_exclusive_and_readonly_refuses(self):
        self.assertExit(self.sb.run("reset", "--all", "--data-only", "--yes"), EXIT_ERROR)
        self.assertError(self.sb.run("--json", "--readonly", "reset", "--yes"), "readonly_mode", 1)
        self.assertTrue(os.path.isfile(self.sb.sqlite))


class DoctorSchemaTest(KebabTestCase):
    def test_schema_before_and_after_ingest(self):
        info = self.schema_info()
        self.assertEqual(info["stats"]["doc_count"], 0)
        self.assertIn("search_response.v1", info["wire"]["schemas"])
        self.assertTrue(info["capabilities"]["lexical_search"])
        self.sb.copy_fixture("notes")
        _, report = self.ingest()
        info = self.schema_info()
        self.assertEqual(info["stats"]["doc_count"], 9)
        self.assertEqual(info["stats"]["lang_breakdown"].get("ko"), 4)
        self.assertEqual(info["models"]["corpus_revision"], report["corpus_revision"])
        self.assertIsNotNone(info["stats"]["last_ingest_at"])
        # every wire id the binary claims has a schema
        names = {s.rsplit(".", 1)[0] for s in info["wire"]["schemas"]}
        schema_dir = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "wire-schema",
                                  "v1")
        for n in names:
            self.assertTrue(os.path.isfile(os.path.join(schema_dir, n + ".schema.json")), n)

    def test_doctor_healthy_then_corrupted(self):
        self.sb.copy_fixture("notes")
        self.ingest()
        doctor = self.kjson("doctor", schema="doctor")
        self.assertTrue(doctor["ok"])
        self.assertTrue(all(c["ok"] for c in doctor["checks"]))
        r = self.sb.run("doctor")
        self.assertExit(r, EXIT_OK)
        self.assertIn("all checks passed", r.stdout)
        [reader] = [c for c in doctor["checks"] if c["name"] == "reader_pdf"]
        self.assertRegex(reader["detail"], r"^kebab-pdf at .*kebab-pdf \(poppler \d+\.\d+")

        # Without its PDF reader kebab still searches, and doctor says how to get it back.
        gone = {"KEBAB_PDF_WORKER": os.path.join(self.sb.tmp, "no-such-kebab-pdf")}
        doctor = self.kjson("doctor", schema="doctor", rc=EXIT_UNHEALTHY, env=gone)
        [reader] = [c for c in doctor["checks"] if c["name"] == "reader_pdf"]
        self.assertFalse(reader["ok"])
        self.assertIn("KEBAB_PDF_WORKER", reader["hint"])
        self.assertEqual([c["name"] for c in doctor["checks"] if not c["ok"]], ["reader_pdf"])

        size = os.path.getsize(self.sb.sqlite)
        with open(self.sb.sqlite, "wb") as f:
            f.write(b"this is not a database " * (size // 23 + 1))
        doctor = self.kjson("doctor", schema="doctor", rc=EXIT_UNHEALTHY)
        self.assertFalse(doctor["ok"])
        failed = [c["name"] for c in doctor["checks"] if not c["ok"]]
        self.assertIn("sqlite_open", failed)
        self.assertExit(self.sb.run("doctor"), EXIT_UNHEALTHY)
        self.assertError(self.sb.run("--json", "search", "borrow"), "corrupt")
        self.assertError(self.sb.run("--json", "list", "docs"), "corrupt")

    def test_doctor_without_index_or_with_bad_config(self):
        doctor = self.kjson("doctor", schema="doctor", rc=EXIT_UNHEALTHY)
        self.assertFalse(doctor["ok"])
        self.assertIn("sqlite_open", [c["name"] for c in doctor["checks"] if not c["ok"]])
        with open(self.sb.config, "a") as f:
            f.write("\n[search]\nnot_a_key = 3\n")
        doctor = self.kjson("doctor", schema="doctor", rc=EXIT_UNHEALTHY)
        self.assertEqual(doctor["checks"][0]["name"], "config_loaded")
        self.assertFalse(doctor["checks"][0]["ok"])

    def test_validate_py_cli_accepts_real_output(self):
        """The documented pipelines: validate.py as a subprocess on real stdout."""
        self.sb.copy_fixture("notes")
        r = self.sb.run("--json", "ingest")
        self.assertEqual(validate_cli(["--ingest-stream", "ingest_progress"], r.stdout)[0], 0)
        r = self.sb.run("--json", "list", "docs")
        self.assertEqual(validate_cli(["--array", "doc_summary"], r.stdout), (0, ""))
        r = self.sb.run("--json", "search", "borrow")
        self.assertEqual(validate_cli(["search_response"], r.stdout), (0, ""))
        r = self.sb.run("--json", "search", "'AND ('")
        self.assertEqual(validate_cli(["error"], r.stderr), (0, ""))
        # and it does reject a broken object
        broken = json.loads(self.sb.run("--json", "search", "borrow").stdout)
        del broken["hits"][0]["citation"]
        self.assertEqual(validate_cli(["search_response"], json.dumps(broken))[0], 1)


if __name__ == "__main__":
    unittest.main()
