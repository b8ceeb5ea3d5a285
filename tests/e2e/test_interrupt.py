#!/usr/bin/python3
"""Ingest interrupted: kill -9 mid-run (crash safety) and Ctrl-C (SIGINT) mid-run."""
import json
import os
import signal
import sqlite3
import time
import unittest

from kebab_e2e import (EXIT_INTERRUPTED, KebabTestCase, ingest_stream_errors,
                       kill_quietly, read_ndjson_until)

N_FILES = 3000


def make_corpus(sb, n=N_FILES):
    for d in range(30):
        os.makedirs(sb.path(f"d{d:02d}"))
    for i in range(n):
        with open(sb.path(f"d{i % 30:02d}/note{i:04d}.md"), "w", encoding="utf-8") as f:
            f.write(f"# Note {i}\n\nThis is note uniq{i} about topic{i % 17} and crashword.\n\n"
                    f"## Details\n\nMore text, lorem ipsum dolor sit amet {i}.\n")


def finished_at_least(n):
    return lambda e: e.get("kind") == "asset_finished" and e.get("idx", 0) >= n


class InterruptTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        make_corpus(self.sb)

    def start_ingest(self):
        proc = self.sb.popen("--json", "ingest")
        self.addCleanup(lambda: (kill_quietly(proc), proc.wait(),
                                 proc.stdout.close(), proc.stderr.close()))
        return proc

    def committed_docs(self):
        con = sqlite3.connect(f"file:{self.sb.sqlite}?mode=ro", uri=True)
        try:
            return con.execute("SELECT count(*) FROM documents").fetchone()[0]
        finally:
            con.close()

    def integrity(self):
        con = sqlite3.connect(self.sb.sqlite)
        try:
            return con.execute("PRAGMA integrity_check").fetchall()
        finally:
            con.close()

    def assert_complete_and_healthy(self):
        """A follow-up ingest finishes the job: every file indexed exactly once."""
        _, report = self.ingest()
        self.assertFalse(report["aborted"])
        self.assertEqual(report["errors"], 0)
        self.assertEqual(report["new"] + report["unchanged"], N_FILES)
        self.assertEqual(self.schema_info()["stats"]["doc_count"], N_FILES)
        self.assertEqual(len(self.list_docs()), N_FILES)
        self.assertEqual(self.integrity(), [("ok",)])
        resp = self.search("uniq2999")
        self.assertEqual(self.hit_paths(resp), ["d29/note2999.md"])
        self.assertEqual(len(self.search("crashword", "--k", "7")["hits"]), 7)
        doctor = self.kjson("doctor", schema="doctor")
        self.assertTrue(doctor["ok"], doctor)
        return report

    def test_kill_9_mid_ingest_leaves_a_consistent_index(self):
        proc = self.start_ingest()
        # idx > 2048 (kBatchDocs in src/app/ingest.cc) guarantees one committed batch; then
        # kill while the rest is in flight
        # (the unread stdout pipe stalls the writer, so it cannot have finished).
        lines, _ = read_ndjson_until(proc, finished_at_least(2100))
        committed = self.committed_docs()  # what readers see before the kill
        os.kill(proc.pid, signal.SIGKILL)
        self.assertEqual(proc.wait(timeout=30), -signal.SIGKILL)
        self.assertFalse(any(b'"completed"' in l for l in lines))

        self.assertEqual(self.integrity(), [("ok",)])
        after_crash = self.schema_info()["stats"]["doc_count"]
        self.assertGreater(committed, 0)
        self.assertGreaterEqual(after_crash, committed, "a committed batch was lost")
        self.assertLess(after_crash, N_FILES)
        self.assertTrue(self.search("crashword")["hits"], "search fails after a crash")

        report = self.assert_complete_and_healthy()
        self.assertEqual(report["unchanged"], after_crash)

    def test_sigint_aborts_cleanly_and_next_ingest_finishes(self):
        proc = self.start_ingest()
        lines, rest = read_ndjson_until(proc, finished_at_least(50))
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, EXIT_INTERRUPTED, err.decode("utf-8", "replace"))
        stream = (b"\n".join(lines) + b"\n" + rest + out).decode("utf-8")
        self.assertEqual(ingest_stream_errors(stream), [])
        events = [json.loads(l) for l in stream.splitlines() if l.strip()]
        report, terminal = events[-1], events[-2]
        self.assertEqual(terminal["kind"], "aborted")
        self.assertTrue(report["aborted"])
        self.assertLess(report["new"], N_FILES)
        self.assertGreaterEqual(report["new"], 50)
        self.assertEqual(terminal["counts"]["new"], report["new"])
        self.assertEqual(self.schema_info()["stats"]["doc_count"], report["new"])

        second = self.assert_complete_and_healthy()
        self.assertEqual(second["unchanged"], report["new"])
        self.assertEqual(second["new"], N_FILES - report["new"])

    # The harness sets TSAN_OPTIONS only for a ThreadSanitizer build (cmake/Sanitizers.cmake).
    # There the test cannot hold: TSan defers a signal handler until the receiving thread next
    # enters its runtime, and the ingest wrote its report before the second handler's _exit (5
    # of 5 runs; none of 2 under ASan); when the handler did run mid-run (under strace), TSan
    # reported the finished, unjoined std::threads that _exit leaves as a thread leak (exit 88).
    @unittest.skipIf("TSAN_OPTIONS" in os.environ,
                     "ThreadSanitizer delays signal handlers and reports threads _exit leaves")
    def test_second_sigint_quits_at_once(self):
        proc = self.start_ingest()
        lines, rest = read_ndjson_until(proc, finished_at_least(20))
        # Stop reading: the writer soon blocks on the full stdout pipe, mid-run.
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGINT)
        # --json keeps stderr free of human notes; give the handler a moment, then press again.
        time.sleep(0.3)
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, EXIT_INTERRUPTED)
        self.assertNotIn(b"stopping", err, "a human notice leaked into --json stderr")
        self.assertNotIn(b"ingest_report.v1", rest + out, "the second Ctrl-C did not quit at once")
        self.assertEqual(self.integrity(), [("ok",)])
        self.assert_complete_and_healthy()

if __name__ == "__main__":
    unittest.main()
