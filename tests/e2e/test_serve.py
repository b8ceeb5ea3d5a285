"""`kebab serve`: one process per data dir answering the CLI's calls over a Unix socket.

The real binary on both sides: the service started with `kebab serve`, the CLI finding it by
itself, and the same commands with KEBAB_NO_SERVICE=1 as the in-process baseline."""

import json
import os
import signal
import socket
import stat
import unittest

from kebab_e2e import EXIT_NO_RESULT, EXIT_OK, ServiceTestCase

IN_PROCESS = {"KEBAB_NO_SERVICE": "1"}


def timeless(value):
    """`value` without what differs between two runs of the same call: timings."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k not in ("timing", "elapsed_ms")}
    if isinstance(value, list):
        return [timeless(v) for v in value]
    return value


class ServeTest(ServiceTestCase):

    def setUp(self):
        super().setUp()
        self.sb.write_config('[models.embedding]\nprovider = "none"\n')
        self.sb.copy_fixture("notes")
        self.ingest()

    def run_both(self, *args):
        """The same command through the service and in-process: (served, in_process)."""
        served = self.sb.run(*args, env=self.env)
        alone = self.sb.run(*args, env=dict(self.env, **IN_PROCESS))
        return served, alone

    def test_status_without_a_service(self):
        status = self.status()
        self.assertEqual(status["service"], {"running": False})
        self.assertEqual(status["data_dir"], self.sb.data_dir)
        human = self.sb.run("status", env=self.env)
        self.assertExit(human, EXIT_OK)
        self.assertIn("not running", human.stdout)

    def test_socket_is_private_and_status_says_what_runs(self):
        status = self.start()
        s = status["service"]
        self.assertEqual(s["pid"], self.service.pid)
        self.assertTrue(s["socket"].startswith(os.path.join(self.run_dir, "kebab") + "/"), s)
        self.assertEqual(stat.S_IMODE(os.stat(os.path.dirname(s["socket"])).st_mode), 0o700)
        self.assertTrue(stat.S_ISSOCK(os.stat(s["socket"]).st_mode))
        self.assertEqual(stat.S_IMODE(os.stat(s["socket"]).st_mode), 0o600)
        self.assertGreater(s["rss_bytes"], 0)
        self.assertEqual(s["loaded"], [])
        with open(os.path.join(self.sb.data_dir, "serve.lock"), encoding="utf-8") as f:
            self.assertEqual(json.load(f)["pid"], self.service.pid)

    def test_every_read_command_gives_the_same_json_and_exit_code(self):
        self.start()
        docs = self.kjson("list", "docs", env=self.env)
        doc_id = docs[0]["doc_id"]
        chunk_id = self.kjson("inspect", "doc", doc_id, env=self.env)["chunk_ids"][0]
        commands = [
            ["search", "borrow", "checker"],
            ["search", "borrow", "--explain", "--k", "3"],
            ["search", "데이터베이스", "--lang", "ko"],
            ["search", "zzzznothing"],
            ["search", "borrow", "--mode", "sideways"],
            ["list", "docs"],
            ["list", "docs", "--path-glob", "notes/**", "--limit", "2"],
            ["inspect", "doc", doc_id],
            ["inspect", "chunk", chunk_id],
            ["inspect", "doc", "0" * 32],
            ["inspect", "ocr-stats"],
            ["fetch", "doc", doc_id],
            ["fetch", "chunk", chunk_id, "--context", "1"],
            ["fetch", "span", doc_id, "1", "3"],
            ["schema"],
            ["doctor"],
        ]
        for args in commands:
            with self.subTest(args=args):
                served, alone = self.run_both("--json", *args)
                self.assertEqual(served.rc, alone.rc, f"{served!r}\n{alone!r}")
                self.assertEqual(timeless(json.loads(served.stdout or "null")),
                                 timeless(json.loads(alone.stdout or "null")))
                self.assertEqual(served.stderr, alone.stderr)
        self.assertGreaterEqual(self.status()["service"]["requests"], len(commands))

    def test_human_output_is_the_same(self):
        self.start()
        for args in (["list", "docs"], ["schema"], ["doctor"]):
            with self.subTest(args=args):
                served, alone = self.run_both(*args)
                self.assertEqual((served.rc, served.stdout, served.stderr),
                                 (alone.rc, alone.stdout, alone.stderr))
        # All but the footer's time, which is what each caller waited.
        drop_ms = lambda text: [l.rsplit("  ", 1)[0] if l.endswith(" ms") else l
                                for l in text.splitlines()]
        for args, rc in ((["borrow", "checker", "--explain"], EXIT_OK),
                         (["zzzznothing"], EXIT_NO_RESULT)):
            with self.subTest(args=args):
                served, alone = self.run_both("search", *args)
                self.assertEqual((served.rc, alone.rc), (rc, rc))
                self.assertEqual(drop_ms(served.stdout), drop_ms(alone.stdout))
                self.assertEqual(served.stderr, alone.stderr)

    def test_trace_says_who_answered(self):
        self.start()
        r = self.sb.run("search", "borrow", "--trace", env=self.env)
        self.assertIn(f"served by kebab serve (pid {self.service.pid})", r.stdout)
        r = self.sb.run("search", "borrow", "--trace", env=dict(self.env, **IN_PROCESS))
        self.assertIn("served by this process", r.stdout)
        r = self.sb.run("--no-service", "search", "borrow", "--trace", env=self.env)
        self.assertIn("served by this process", r.stdout)
        served = self.search("borrow", "--trace", env=self.env)
        self.assertEqual(served["trace"]["served_by"], "service")

    def test_a_second_service_is_refused_naming_the_first(self):
        self.start()
        r = self.sb.run("--json", "serve", env=self.env, timeout=30)
        self.assertError(r, "io_error")
        self.assertIn(f"pid {self.service.pid}", r.stderr)
        self.assertEqual(self.status()["service"]["pid"], self.service.pid)

    def test_a_killed_service_leaves_nothing_that_stops_the_cli_or_the_next_one(self):
        first = self.start()
        self.service.kill()
        self.service.wait()
        self.assertTrue(os.path.exists(first["service"]["socket"]))  # left behind
        self.assertFalse(self.status()["service"]["running"])
        r = self.sb.run("search", "borrow", "--trace", env=self.env)
        self.assertExit(r, EXIT_OK)
        self.assertIn("served by this process", r.stdout)
        second = self.start()
        self.assertNotEqual(second["service"]["pid"], first["service"]["pid"])

    def test_ingest_is_run_by_the_service_with_the_same_stream_and_report(self):
        # No watch: it would index the new file before the CLI's ingest does (it did, under
        # AddressSanitizer).
        self.start("--no-watch")
        self.sb.write("notes/new.md", "# New\n\nThe pelican ledger.\n")

        def stream(env):
            r = self.sb.run("--json", "ingest", env=env)
            self.assertExit(r, EXIT_OK)
            lines = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
            for line in lines[:-1]:
                self.assertValid("ingest_progress", line)
            self.assertValid("ingest_report", lines[-1])
            drop = ("ts", "run_id", "duration_ms", "ms", "corpus_revision", "idx")
            kept = [{k: v for k, v in l.items() if k not in drop} for l in lines]
            kept[-1]["items"] = sorted(kept[-1]["items"] or [], key=lambda i: i["doc_path"])
            # Files finish in any order on parallel workers.
            return sorted(kept[:-1], key=lambda l: json.dumps(l, sort_keys=True)) + kept[-1:]

        served = stream(self.env)
        self.assertEqual(served[-1]["new"], 1, served[-1])
        self.assertGreaterEqual(self.status()["service"]["requests"], 1)
        self.assertEqual(self.paths_for_word("pelican"), ["notes/new.md"])
        # Nothing changed since: the same stream and report from the service and in-process.
        self.assertEqual(stream(self.env), stream(dict(self.env, KEBAB_NO_SERVICE="1")))
        human = self.sb.run("ingest", env=self.env)
        self.assertExit(human, EXIT_OK)
        self.assertIn("unchanged", human.stdout)
        refused = self.sb.run("--readonly", "--json", "ingest", env=self.env)
        self.assertError(refused, "readonly_mode", EXIT_NO_RESULT)

    def paths_for_word(self, words):
        r = self.sb.run("--json", "search", *words.split(), env=self.env)
        return sorted({h["doc_path"] for h in json.loads(r.stdout)["hits"]})

    def test_ctrl_c_of_the_cli_stops_the_services_ingest(self):
        self.start("--no-watch")
        for i in range(3000):
            self.sb.write(f"bulk/n{i:04d}.md", f"# Bulk {i}\n\nbulkword {i} " + "text " * 200)
        cli = self.sb.popen("--json", "ingest", env=self.env)
        seen = 0
        for line in cli.stdout:
            if b'"asset_finished"' in line:
                seen += 1
            if seen == 20:
                cli.send_signal(signal.SIGINT)
                break
        out, err = cli.communicate(timeout=60)
        self.assertEqual(cli.returncode, 130, err.decode())
        report = json.loads(out.decode().strip().splitlines()[-1])
        self.assertTrue(report["aborted"])
        self.assertLess(report["new"], 3000)
        # The service is still there, and the next ingest finishes the job.
        _, report = self.ingest(env=self.env)
        self.assertEqual(report["new"] + report["unchanged"], 3000 + 9)

    def test_a_cli_with_another_config_runs_on_its_own(self):
        self.start()
        r = self.sb.run("search", "borrow", "--trace", env=dict(self.env, KEBAB_SEARCH_DEFAULT_K="1"))
        self.assertExit(r, EXIT_OK)
        self.assertIn("served by this process", r.stdout)
        self.assertIn("started with another configuration", r.stderr)

    def test_ctrl_c_stops_the_service_and_removes_its_socket(self):
        sock = self.start()["service"]["socket"]
        self.service.send_signal(signal.SIGINT)
        self.assertEqual(self.service.wait(timeout=20), 0)
        self.assertFalse(os.path.exists(sock))
        with open(os.path.join(self.sb.state_dir, "serve.log"), encoding="utf-8") as f:
            log = f.read()
        self.assertIn("serving " + self.sb.data_dir, log)
        self.assertIn("stopped", log)

    def test_install_unit_writes_a_user_unit_that_runs_this_kebab(self):
        r = self.sb.run("serve", "--install-unit", "--no-watch", env=self.env)
        self.assertExit(r, EXIT_OK)
        unit = os.path.join(self.sb.home, ".config", "systemd", "user", "kebab.service")
        self.assertIn("wrote " + unit, r.stdout)
        with open(unit, encoding="utf-8") as f:
            text = f.read()
        exec_start = [l for l in text.splitlines() if l.startswith("ExecStart=")]
        self.assertEqual(exec_start, [f"ExecStart={os.path.realpath(self.sb.argv([])[0])} "
                                      f"--config {self.sb.config} serve --no-watch"])
        self.assertIn("WantedBy=default.target", text)
        self.assertFalse(self.status()["service"]["running"])  # nothing was started

    def test_another_user_is_refused(self):
        if os.geteuid() != 0:
            self.skipTest("needs root to connect as another user")
        sock = self.start()["service"]["socket"]
        # Open the way on purpose: the service's own peer check must still refuse.
        for d in (self.sb.tmp, self.run_dir, os.path.dirname(sock)):
            os.chmod(d, 0o755)
        os.chmod(sock, 0o666)
        child = os.fork()
        if child == 0:
            code = 1
            try:
                os.setgid(65534)
                os.setuid(65534)
                c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                c.connect(sock)
                c.sendall(b'{"op":"status","args":{}}\n')
                code = 0 if c.recv(4096) == b"" else 3  # closed without an answer
            except (ConnectionResetError, BrokenPipeError):
                code = 0  # closed before reading the request
            except OSError as e:
                os.write(2, f"as uid 65534: {e}\n".encode())
            finally:
                os._exit(code)
        _, status = os.waitpid(child, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        self.service.send_signal(signal.SIGINT)
        self.service.wait(timeout=20)
        self.assertIn("refused a connection from uid 65534", self.service.stderr.read().decode())
        self.assertTrue(self.status()["service"]["running"] is False)


if __name__ == "__main__":
    unittest.main()
