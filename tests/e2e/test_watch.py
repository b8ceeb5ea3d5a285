"""`kebab serve`'s watch: what is saved in the workspace becomes searchable by itself.

The real binary and real files: each test starts the service on a sandbox workspace, changes
files the ways people and their tools do, and waits (a few seconds at most) until a search
through the service sees the change."""

import json
import os
import shutil
import signal
import time
import unittest

from kebab_e2e import EXIT_OK, ServiceTestCase

WAIT_S = 15


class WatchTest(ServiceTestCase):

    def setUp(self):
        super().setUp()
        self.sb.write_config('[models.embedding]\nprovider = "none"\n'
                             '[watch]\ndebounce_ms = 100\n')
        self.sb.write("notes/a.md", "# Alpha\n\nThe quartz lantern glows.\n")
        self.sb.write("notes/b.md", "# Beta\n\nA saffron kite flies.\n")
        self.ingest()

    def paths_for(self, word):
        r = self.sb.run("--json", "search", word, env=self.env)
        return sorted(h["doc_path"] for h in json.loads(r.stdout)["hits"])

    def wait_for(self, word, want, what=""):
        """Waits until searching `word` hits exactly `want` (paths); returns the seconds."""
        start = time.time()
        got = None
        while time.time() - start < WAIT_S:
            got = self.paths_for(word)
            if got == sorted(want):
                return time.time() - start
            time.sleep(0.05)
        self.fail(f"{what or word}: after {WAIT_S} s searching {word!r} hits {got}, not {want}; "
                  f"status {self.status()['service'].get('watch')}")

    def wait_state(self, state):
        start = time.time()
        while time.time() - start < WAIT_S:
            w = self.status()["service"]["watch"]
            if w["state"] == state:
                return w
            time.sleep(0.05)
        self.fail(f"the watch is {w['state']}, not {state}, after {WAIT_S} s: {w}")

    def wait_docs(self, glob, n, timeout=60):
        """Waits until `n` documents under `glob` are indexed."""
        start = time.time()
        while time.time() - start < timeout:
            got = len(self.kjson("list", "docs", "--path-glob", glob, env=self.env))
            if got == n:
                return
            time.sleep(0.2)
        self.fail(f"{got} documents under {glob} after {timeout} s, not {n}")

    def doc_count(self):
        return len(self.kjson("list", "docs", env=dict(self.env, KEBAB_NO_SERVICE="1")))

    def test_create_modify_rename_move_delete(self):
        status = self.start()
        watch = status["service"]["watch"]
        self.assertEqual((watch["root"], watch["notifications"]), (self.sb.ws, True))
        self.sb.write("notes/c.md", "# Gamma\n\nThe obsidian ferry leaves at dawn.\n")
        self.wait_for("obsidian", ["notes/c.md"], "a new file")
        self.sb.write("notes/c.md", "# Gamma\n\nThe cobalt ferry leaves at dawn.\n")
        self.wait_for("cobalt", ["notes/c.md"], "a modified file")
        self.wait_for("obsidian", [], "the old words of a modified file")
        os.rename(self.sb.path("notes/c.md"), self.sb.path("notes/gamma.md"))
        self.wait_for("cobalt", ["notes/gamma.md"], "a renamed file")
        os.makedirs(self.sb.path("archive/2026"))
        os.rename(self.sb.path("notes/gamma.md"), self.sb.path("archive/2026/gamma.md"))
        self.wait_for("cobalt", ["archive/2026/gamma.md"], "a file moved to a new folder")
        os.remove(self.sb.path("archive/2026/gamma.md"))
        self.wait_for("cobalt", [], "a deleted file")
        self.assertEqual(self.doc_count(), 2)
        self.assertGreaterEqual(self.wait_state("watching")["updates"], 6)

    def test_an_editors_save_through_a_temp_file_is_one_update_and_temp_files_stay_out(self):
        self.start()
        before = self.status()["service"]["watch"]["updates"]
        # What vim and many editors do: a swap file while editing, the new text written to a
        # temporary file renamed over the original, lock and backup files beside it.
        self.sb.write("notes/.a.md.swp", b"\x00swap")
        self.sb.write("notes/.#a.md", "lock")
        self.sb.write("notes/4913", "")
        os.remove(self.sb.path("notes/4913"))
        tmp = self.sb.write("notes/.a.md.tmp-8f2", "# Alpha\n\nThe quartz lantern dims.\n")
        shutil.copy(self.sb.path("notes/a.md"), self.sb.path("notes/a.md~"))
        os.rename(tmp, self.sb.path("notes/a.md"))
        self.wait_for("dims", ["notes/a.md"], "an atomic save")
        time.sleep(0.5)  # anything still queued would run now
        docs = sorted(d["doc_path"] for d in self.kjson("list", "docs", env=self.env))
        self.assertEqual(docs, ["notes/a.md", "notes/b.md"])
        self.assertLessEqual(self.status()["service"]["watch"]["updates"] - before, 2)

    def test_a_deep_new_tree_and_a_burst_of_files(self):
        self.start()
        deep = "x/y/z/w/v"
        os.makedirs(self.sb.path(deep))
        self.sb.write(deep + "/deep.md", "# Deep\n\nThe vermilion anchor sinks.\n")
        self.wait_for("vermilion", [deep + "/deep.md"], "mkdir -p and a file at its bottom")
        # A file written into the new folder after it is watched.
        self.sb.write(deep + "/later.md", "# Later\n\nThe vermilion buoy floats.\n")
        self.wait_for("vermilion", [deep + "/deep.md", deep + "/later.md"])
        before = self.status()["service"]["watch"]["updates"]
        for i in range(500):
            self.sb.write(f"burst/{i // 100}/n{i:03d}.md", f"# Note {i}\n\nburstword number {i}.\n")
        self.wait_docs("burst/**", 500)
        # Coalesced: a handful of updates, not one per file.
        self.assertLess(self.status()["service"]["watch"]["updates"] - before, 20)

    def test_a_vanished_root_pauses_purges_nothing_and_resumes(self):
        self.start()
        away = self.sb.ws + ".away"
        os.rename(self.sb.ws, away)
        w = self.wait_state("paused")
        self.assertTrue(any("nothing purged" in x for x in w["warnings"]), w)
        self.assertEqual(self.doc_count(), 2)
        self.assertEqual(self.paths_for("quartz"), ["notes/a.md"])
        # Back, with a change made while it was away.
        with open(os.path.join(away, "notes", "b.md"), "w", encoding="utf-8") as f:
            f.write("# Beta\n\nA teal kite flies.\n")
        os.rename(away, self.sb.ws)
        self.wait_for("teal", ["notes/b.md"], "a change made while the root was away")
        self.wait_state("watching")
        self.assertEqual(self.doc_count(), 2)

    def test_changes_made_while_no_service_ran_are_caught_up_at_start(self):
        self.sb.write("notes/c.md", "# Gamma\n\nThe indigo tram turns.\n")
        os.remove(self.sb.path("notes/b.md"))
        self.start()
        self.wait_for("indigo", ["notes/c.md"], "a file added before the start")
        self.wait_for("saffron", [], "a file deleted before the start")

    def test_killed_mid_update_then_restarted_loses_nothing(self):
        self.start()
        for i in range(300):
            self.sb.write(f"many/n{i:03d}.md", f"# Many {i}\n\nmanyword {i}.\n")
        time.sleep(0.3)
        self.service.send_signal(signal.SIGKILL)
        self.service.wait()
        self.start()
        self.wait_docs("many/**", 300)
        doctor = self.kjson("doctor", env=dict(self.env, KEBAB_NO_SERVICE="1"))
        self.assertTrue(doctor["ok"], doctor)

    def test_no_watch_and_watch_disabled(self):
        status = self.start("--no-watch")
        self.assertEqual(status["service"]["watch"]["state"], "off")
        self.sb.write("notes/c.md", "# Gamma\n\nThe amber crane lifts.\n")
        time.sleep(1)
        self.assertEqual(self.paths_for("amber"), [])
        self.sb.write_config('[models.embedding]\nprovider = "none"\n[watch]\nenabled = false\n')
        self.assertEqual(self.start()["service"]["watch"]["state"], "off")


if __name__ == "__main__":
    unittest.main()
