"""`kebab models list|pull|path|rm|gc` against tests/tools/fake_hub.py, a real HTTP server on
127.0.0.1 that answers like the Hugging Face hub (a redirect carrying X-Linked-Etag to a CDN
that honours byte ranges) and serves the tiny generated GGUF models under catalog names, and a
fake whisper.cpp model (.bin) for the speech models."""
import hashlib
import json
import os
import signal
import socket
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.request

from kebab_e2e import (EXIT_ERROR, EXIT_INTERRUPTED, EXIT_NO_RESULT, REPO, KebabTestCase,
                       kill_quietly, read_ndjson_until)

MODELS = os.environ.get("KEBAB_TINY_MODEL_DIR", "")
FAKE_HUB = os.path.join(REPO, "tests", "tools", "fake_hub.py")
E5_TINY = os.path.join(MODELS, "multilingual-e5-tiny.gguf")
BGE_TINY = os.path.join(MODELS, "bge-tiny.gguf")
# Catalog entries whose hub paths the fake hub serves the tiny models under.
E5_KEY = "cstr/multilingual-e5-small-GGUF/multilingual-e5-small-q8_0.gguf"
BGE_PINNED_KEY = "ggml-org/bge-small-en-v1.5-Q8_0-GGUF/bge-small-en-v1.5-q8_0.gguf"
WHISPER_BASE_KEY = "ggerganov/whisper.cpp/ggml-base.bin"
WHISPER_BASE_SHA1 = "465707469ff3a37a2b9b8d8f89f2f99de7299dac"  # the catalog's pin
DEFAULT_BEHAVIOUR = {"drop_after": None, "corrupt": False, "not_found": False,
                     "bytes_per_sec": 0, "ignore_range": False, "hash_header": "linked"}


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sha1_of(path):
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FakeHub:
    def __init__(self, serve):
        argv = ["/usr/bin/python3", FAKE_HUB]
        for key, path in serve.items():
            argv += ["--serve", f"{key}={path}"]
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.port = int(self.proc.stdout.readline())
        self.url = f"http://127.0.0.1:{self.port}"

    def control(self, **change):
        """Sets the behaviour (defaults for keys not given) and resets the stats."""
        body = json.dumps({**DEFAULT_BEHAVIOUR, **change}).encode()
        req = urllib.request.Request(self.url + "/_control", data=body, method="POST")
        with urllib.request.urlopen(req, timeout=10) as r:
            r.read()

    def stats(self):
        with urllib.request.urlopen(self.url + "/_stats", timeout=10) as r:
            return json.loads(r.read())

    def close(self):
        kill_quietly(self.proc)
        self.proc.wait()


@unittest.skipUnless(os.path.isdir(MODELS), "KEBAB_TINY_MODEL_DIR not set (run through ctest)")
class ModelsCliTest(KebabTestCase):
    @classmethod
    def setUpClass(cls):
        # Not a real whisper.cpp model ("lmgg" is the ggml magic), so never the pinned SHA-1.
        cls.tmp = tempfile.mkdtemp(prefix="kebab-models-cli-")
        cls.whisper = os.path.join(cls.tmp, "ggml-fake.bin")
        with open(cls.whisper, "wb") as f:
            f.write(b"lmgg" + bytes(i * 7 % 251 for i in range(400_000)))
        cls.hub = FakeHub({E5_KEY: E5_TINY, BGE_PINNED_KEY: BGE_TINY,
                           "kebab-test/tiny/bge-tiny.gguf": BGE_TINY,
                           WHISPER_BASE_KEY: cls.whisper,
                           "kebab-test/tiny/ggml-fake.bin": cls.whisper})
        cls.e5_sha = sha256_of(E5_TINY)
        cls.e5_size = os.path.getsize(E5_TINY)
        cls.bge_sha = sha256_of(BGE_TINY)
        cls.whisper_sha = sha256_of(cls.whisper)
        cls.whisper_size = os.path.getsize(cls.whisper)

    @classmethod
    def tearDownClass(cls):
        cls.hub.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        super().setUp()
        self.hub.control()
        self.model_dir = os.path.join(self.sb.data_dir, "models")
        self.env = {"HF_ENDPOINT": self.hub.url}

    # ------------------------------------------------------------------ helpers

    def model_file(self, name, suffix=".gguf"):
        return os.path.join(self.model_dir, name + suffix)

    def speech_file(self, name):
        return self.model_file(name, ".bin")

    def bge_url(self, file="bge-tiny.gguf"):
        return f"{self.hub.url}/kebab-test/tiny/resolve/main/{file}"

    def use_model(self, model):
        self.sb.write_config(extra=f'[models.embedding]\nprovider = "llama"\n'
                                   f'model = "{model}"\nthreads = 2\n')

    def pull(self, *args, rc=0):
        """`kebab --json models pull ARGS` -> (events, report); every line validated."""
        r = self.sb.run("--json", "models", "pull", *args, env=self.env)
        self.assertExit(r, rc)
        lines = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
        for event in lines[:-1]:
            self.assertValid("model_pull_progress", event)
        self.assertValid("model_pull_report", lines[-1])
        return lines[:-1], lines[-1]

    def pull_error(self, *args, code, env=None):
        r = self.sb.run("--json", "models", "pull", *args, env=env or self.env)
        err = self.assertError(r, code)
        for line in r.stdout.splitlines():  # events before the failure are still valid
            self.assertValid("model_pull_progress", json.loads(line))
        return err

    def spaces(self):
        return self.schema_info()["stats"]["embedding_spaces"]

    # ------------------------------------------------------------------ list / path

    def test_list_shows_the_catalog_local_files_and_the_model_in_use(self):
        listing = self.kjson("models", "list", schema="model_list", env=self.env)
        self.assertEqual(listing["hub"], self.hub.url)
        self.assertEqual(listing["model_dir"], self.model_dir)
        self.assertIsNone(listing["embedding"])
        names = [m["name"] for m in listing["models"]]
        for required in ("multilingual-e5-small", "multilingual-e5-base", "multilingual-e5-large",
                         "bge-m3", "nomic-embed-text-v1.5", "qwen2.5-0.5b-instruct",
                         "qwen2.5-1.5b-instruct", "qwen2.5-3b-instruct", "whisper-base",
                         "whisper-small", "whisper-large-v3-turbo"):
            self.assertIn(required, names)
        self.assertTrue(all(not m["present"] and m["source"] == "catalog"
                            for m in listing["models"]))
        e5 = next(m for m in listing["models"] if m["name"] == "multilingual-e5-small")
        self.assertEqual(e5["catalog"]["url"],
                         f"{self.hub.url}/cstr/multilingual-e5-small-GGUF/resolve/main/"
                         "multilingual-e5-small-q8_0.gguf")

        os.makedirs(self.model_dir)
        with open(self.model_file("my-local"), "wb") as f:
            f.write(b"GGUF" + b"\0" * 100)
        self.use_model("my-local")
        listing = self.kjson("models", "list", schema="model_list")
        local = listing["models"][-1]
        self.assertEqual((local["name"], local["source"], local["present"], local["in_use"]),
                         ("my-local", "local", True, True))
        self.assertEqual(local["bytes"], 104)
        self.assertEqual(listing["embedding"]["path"], self.model_file("my-local"))
        human = self.sb.run("models", "list")
        self.assertExit(human, 0)
        self.assertIn("* my-local", human.stdout)
        self.assertIn("chat models", human.stdout)

    def test_path_of_a_model_not_downloaded_says_how_to_pull_it(self):
        err = self.assertError(self.sb.run("--json", "models", "path", "multilingual-e5-small"),
                               "model_not_pulled")
        self.assertIn("kebab models pull multilingual-e5-small", err["hint"])
        r = self.sb.run("models", "path", "bge-m3")
        self.assertExit(r, EXIT_ERROR)
        self.assertIn("kebab models pull bge-m3", r.stderr)

    # ------------------------------------------------------------------ pull

    def test_pull_follows_the_hub_verifies_the_sha256_and_places_the_file(self):
        events, report = self.pull("multilingual-e5-small")
        self.assertEqual(events[0]["kind"], "started")
        self.assertEqual(events[0]["url"], f"{self.hub.url}/cstr/multilingual-e5-small-GGUF/"
                                           "resolve/main/multilingual-e5-small-q8_0.gguf")
        self.assertEqual(events[-1]["bytes_done"], self.e5_size)
        self.assertEqual(events[-1]["bytes_total"], self.e5_size)
        self.assertEqual(report["path"], self.model_file("multilingual-e5-small"))
        self.assertEqual((report["sha256"], report["verified_against"]), (self.e5_sha, "server"))
        self.assertEqual((report["bytes"], report["transferred"]), (self.e5_size, self.e5_size))
        self.assertFalse(report["already_present"])
        self.assertEqual(sha256_of(report["path"]), self.e5_sha)
        self.assertEqual(os.listdir(self.model_dir), ["multilingual-e5-small.gguf"])
        requests = self.hub.stats()["requests"]
        self.assertEqual([q["status"] for q in requests], [302, 200])

        # Pulling again downloads nothing.
        self.hub.control()
        _, again = self.pull("multilingual-e5-small")
        self.assertTrue(again["already_present"])
        self.assertEqual(again["transferred"], 0)
        self.assertEqual(self.hub.stats()["requests"], [])

        self.assertEqual(self.sb.run("models", "path", "multilingual-e5-small").stdout.strip(),
                         report["path"])
        info = self.kjson("models", "path", "multilingual-e5-small", schema="model_info")
        self.assertTrue(info["present"])
        self.assertEqual(info["bytes"], self.e5_size)

    def test_an_interrupted_pull_resumes_and_downloads_only_the_rest(self):
        cut = 3_000_000
        self.hub.control(drop_after=cut)
        err = self.pull_error("multilingual-e5-small", code="model_unreachable")
        self.assertIn("resume", err["hint"])
        part = self.model_file("multilingual-e5-small") + ".part"
        self.assertEqual(os.path.getsize(part), cut)
        self.assertFalse(os.path.exists(self.model_file("multilingual-e5-small")))
        self.assertEqual(self.hub.stats()["bytes_served"], cut)
        listing = self.kjson("models", "list", schema="model_list")
        e5 = next(m for m in listing["models"] if m["name"] == "multilingual-e5-small")
        self.assertEqual((e5["present"], e5["partial_bytes"]), (False, cut))

        self.hub.control()
        events, report = self.pull("multilingual-e5-small")
        self.assertEqual(events[0]["resumed_from"], cut)
        self.assertEqual(report["resumed_from"], cut)
        self.assertEqual(report["transferred"], self.e5_size - cut)
        stats = self.hub.stats()
        self.assertEqual(stats["bytes_served"], self.e5_size - cut)
        self.assertEqual(stats["requests"][-1]["range"], f"bytes={cut}-")
        self.assertEqual(stats["requests"][-1]["status"], 206)
        self.assertEqual(sha256_of(report["path"]), self.e5_sha)
        self.assertFalse(os.path.exists(part))

    def test_ctrl_c_keeps_the_partial_download_for_the_next_pull(self):
        self.hub.control(bytes_per_sec=4_000_000)
        p = self.sb.popen("--json", "models", "pull", "multilingual-e5-small", env=self.env)
        try:
            read_ndjson_until(p, lambda e: e.get("kind") == "progress" and e["bytes_done"] > 0)
            p.send_signal(signal.SIGINT)
            _, stderr = p.communicate(timeout=30)
        finally:
            kill_quietly(p)
        self.assertEqual(p.returncode, EXIT_INTERRUPTED)
        self.assertEqual(json.loads(stderr.decode().strip().splitlines()[-1])["code"], "cancelled")
        kept = os.path.getsize(self.model_file("multilingual-e5-small") + ".part")
        self.assertGreater(kept, 0)

        self.hub.control()
        _, report = self.pull("multilingual-e5-small")
        self.assertEqual(report["resumed_from"], kept)
        self.assertEqual(sha256_of(report["path"]), self.e5_sha)

    def test_a_checksum_mismatch_leaves_no_file_and_no_part(self):
        self.hub.control(corrupt=True)
        err = self.pull_error("multilingual-e5-small", code="corrupt")
        self.assertIn("checksum mismatch", err["message"])
        self.assertIn(self.e5_sha, err["message"])
        self.assertEqual(os.listdir(self.model_dir), [])

    def test_a_pinned_sha256_wins_over_the_one_the_hub_reports(self):
        # The catalog pins the real bge-small's hash; the fake hub serves (and vouches for) the
        # tiny model under its name.
        err = self.pull_error("bge-small-en-v1.5", code="corrupt")
        self.assertIn("pinned", err["message"])
        self.assertEqual(os.listdir(self.model_dir), [])
        _, report = self.pull("bge-small-en-v1.5", "--sha256", self.bge_sha.upper())
        self.assertEqual((report["sha256"], report["verified_against"]), (self.bge_sha, "pinned"))

    def test_any_gguf_can_be_pulled_by_url_under_a_name_of_ones_choice(self):
        r = self.sb.run("models", "pull", "tiny-bge", "--url", self.bge_url(), env=self.env)
        self.assertExit(r, 0)
        self.assertIn("pulled tiny-bge -> " + self.model_file("tiny-bge"), r.stdout)
        self.assertIn(f"sha256 {self.bge_sha} (matches what the server reported)", r.stdout)
        self.assertNotIn("\r", r.stderr, "no progress bar without a terminal")
        self.assertIn('model = "tiny-bge"', r.stderr)
        self.assertEqual(sha256_of(self.model_file("tiny-bge")), self.bge_sha)

    def test_bad_names_urls_and_hashes_are_clear_errors(self):
        err = self.pull_error("tiny-bge", "--url", self.bge_url("nope.gguf"), code="invalid_input")
        self.assertIn("HTTP 404", err["message"])
        self.assertFalse(os.path.exists(self.model_file("tiny-bge") + ".part"))
        err = self.pull_error("no-such-model", code="invalid_input")
        self.assertIn("--url", err["hint"])
        self.pull_error("../escape", "--url", self.bge_url(), code="invalid_input")
        self.pull_error("tiny-bge", "--url", self.bge_url(), "--sha256", "abc",
                        code="invalid_input")
        self.hub.control(not_found=True)
        err = self.pull_error("multilingual-e5-small", code="invalid_input")
        self.assertIn("404", err["message"])

    def test_an_unreachable_hub_fails_fast_with_a_hint(self):
        start = time.monotonic()
        err = self.pull_error("multilingual-e5-small", code="model_unreachable",
                              env={"HF_ENDPOINT": f"http://127.0.0.1:{free_port()}"})
        self.assertLess(time.monotonic() - start, 10)
        self.assertIn("HF_ENDPOINT", err["hint"])
        self.assertIn("models.embedding.model", err["hint"])
        self.assertFalse(os.path.exists(self.model_file("multilingual-e5-small") + ".part"))

    # ------------------------------------------------------------------ speech models

    def test_a_speech_model_is_checked_against_its_pinned_sha1_and_a_mismatch_leaves_nothing(self):
        listing = self.kjson("models", "list", schema="model_list", env=self.env)
        base = next(m for m in listing["models"] if m["name"] == "whisper-base")
        self.assertEqual((base["kind"], base["path"]), ("speech", self.speech_file("whisper-base")))
        self.assertEqual(base["catalog"]["sha1"], WHISPER_BASE_SHA1)
        self.assertEqual(base["catalog"]["url"],
                         f"{self.hub.url}/ggerganov/whisper.cpp/resolve/main/ggml-base.bin")

        # An interrupted pull leaves NAME.bin.part, listed as partial.
        self.hub.control(drop_after=100_000)
        self.pull_error("whisper-base", code="model_unreachable")
        self.assertEqual(os.listdir(self.model_dir), ["whisper-base.bin.part"])
        listing = self.kjson("models", "list", schema="model_list")
        base = next(m for m in listing["models"] if m["name"] == "whisper-base")
        self.assertEqual((base["present"], base["partial_bytes"]), (False, 100_000))

        # The resumed file matches the hub's SHA-256 but not whisper.cpp's SHA-1: nothing stays.
        self.hub.control()
        err = self.pull_error("whisper-base", code="corrupt")
        self.assertIn("checksum mismatch", err["message"])
        self.assertIn(f"SHA-1 is {sha1_of(self.whisper)}", err["message"])
        self.assertIn(f"expected {WHISPER_BASE_SHA1} (pinned)", err["message"])
        self.assertEqual(os.listdir(self.model_dir), [])
        self.assertError(self.sb.run("--json", "models", "path", "whisper-base"),
                         "model_not_pulled")

    def test_a_speech_model_by_url_is_a_bin_file_listed_found_and_removed(self):
        # A catalog speech name with --url: the pin is the catalog file's, so only the hub's
        # SHA-256 is checked; the file is still NAME.bin.
        events, report = self.pull("whisper-base", "--url", self.bge_url("ggml-fake.bin"))
        self.assertEqual(events[0]["path"], self.speech_file("whisper-base"))
        self.assertEqual(report["path"], self.speech_file("whisper-base"))
        self.assertEqual((report["sha256"], report["verified_against"], report["sha1"]),
                         (self.whisper_sha, "server", None))
        self.assertEqual(os.listdir(self.model_dir), ["whisper-base.bin"])

        # Any other name is a GGUF unless --kind speech says otherwise.
        r = self.sb.run("models", "pull", "my-whisper", "--kind", "speech", "--url",
                        self.bge_url("ggml-fake.bin"), env=self.env)
        self.assertExit(r, 0)
        self.assertIn("pulled my-whisper -> " + self.speech_file("my-whisper"), r.stdout)
        self.assertIn('whisper_model = "my-whisper"', r.stderr)
        self.assertNotIn("models.embedding", r.stderr)
        self.assertEqual(sha256_of(self.speech_file("my-whisper")), self.whisper_sha)

        listing = self.kjson("models", "list", schema="model_list")
        base = next(m for m in listing["models"] if m["name"] == "whisper-base")
        self.assertEqual((base["kind"], base["present"], base["bytes"]),
                         ("speech", True, self.whisper_size))
        local = listing["models"][-1]
        self.assertEqual((local["name"], local["source"], local["kind"], local["path"]),
                         ("my-whisper", "local", "speech", self.speech_file("my-whisper")))
        human = self.sb.run("models", "list")
        self.assertExit(human, 0)
        self.assertIn("speech models", human.stdout)
        self.assertIn("other speech model files (.bin)", human.stdout)
        self.assertRegex(human.stdout, r"whisper-base +~148 MB +downloaded")

        info = self.kjson("models", "path", "my-whisper", schema="model_info")
        self.assertEqual((info["kind"], info["path"]), ("speech", self.speech_file("my-whisper")))
        self.assertEqual(self.sb.run("models", "path", "whisper-base").stdout.strip(),
                         self.speech_file("whisper-base"))
        for name in ("whisper-base", "my-whisper"):
            report = self.kjson("models", "rm", name, "--yes", schema="model_rm_report")
            self.assertEqual(report["removed_paths"], [self.speech_file(name)])
            self.assertEqual(report["freed_bytes"], self.whisper_size)
        self.assertEqual(os.listdir(self.model_dir), [])

    def test_a_kind_that_contradicts_the_catalog_is_refused(self):
        err = self.pull_error("whisper-base", "--kind", "embedding", code="invalid_input")
        self.assertIn("speech", err["message"])
        err = self.assertError(self.sb.run("--json", "models", "pull", "x", "--kind", "sound",
                                           "--url", self.bge_url()), "invalid_input")
        self.assertIn("embedding,chat,speech", err["message"])
        self.assertFalse(os.path.exists(self.model_dir) and os.listdir(self.model_dir))

    def test_readonly_refuses_what_changes_files_or_the_index(self):
        for args in (["pull", "multilingual-e5-small"], ["rm", "x", "--yes"], ["gc", "--yes"]):
            r = self.sb.run("--json", "--readonly", "models", *args, env=self.env)
            self.assertError(r, "readonly_mode", exit_code=EXIT_NO_RESULT)
        self.kjson("models", "list", "--readonly", schema="model_list")

    # ------------------------------------------------------------------ rm

    def test_rm_deletes_the_model_after_confirmation(self):
        self.pull("tiny-bge", "--url", self.bge_url())
        self.assertError(self.sb.run("--json", "models", "rm", "tiny-bge"), "invalid_input")
        self.assertTrue(os.path.exists(self.model_file("tiny-bge")))
        report = self.kjson("models", "rm", "tiny-bge", "--yes", schema="model_rm_report")
        self.assertEqual(report["removed_paths"], [self.model_file("tiny-bge")])
        self.assertEqual(report["freed_bytes"], os.path.getsize(BGE_TINY))
        self.assertFalse(report["was_in_use"])
        self.assertFalse(os.path.exists(self.model_file("tiny-bge")))
        self.assertError(self.sb.run("--json", "models", "path", "tiny-bge"), "model_not_pulled")
        self.assertError(self.sb.run("--json", "models", "rm", "tiny-bge", "--yes"),
                         "model_not_pulled")

    # ------------------------------------------------------------------ using a pulled model

    def test_a_pulled_model_is_used_by_its_bare_name_for_ingest_and_vector_search(self):
        self.sb.copy_fixture("notes")
        self.use_model("multilingual-e5-small")
        doctor = self.kjson("doctor", schema="doctor", rc=3)
        check = next(c for c in doctor["checks"] if c["name"] == "embedding_model")
        self.assertIn("kebab models pull multilingual-e5-small", check["hint"])

        self.pull("multilingual-e5-small")
        _, report = self.ingest()
        self.assertGreater(report["embeddings_indexed"], 0)
        resp = self.search("--mode", "vector", "--k", "3", "borrow")
        self.assertEqual(len(resp["hits"]), 3)
        self.assertTrue(all(h["embedding_model"] == "multilingual-e5-small" for h in resp["hits"]))
        listing = self.kjson("models", "list", schema="model_list")
        e5 = next(m for m in listing["models"] if m["name"] == "multilingual-e5-small")
        self.assertTrue(e5["in_use"] and e5["present"])
        self.assertTrue(listing["embedding"]["present"])

    # ------------------------------------------------------------------ gc

    def test_gc_drops_the_spaces_of_models_switched_away_from(self):
        self.sb.copy_fixture("notes")
        self.use_model(E5_TINY)
        _, first = self.ingest()
        self.use_model(BGE_TINY)
        _, second = self.ingest()
        self.assertEqual(sorted(s["model"] for s in self.spaces()),
                         ["bge-tiny", "multilingual-e5-tiny"])

        dry = self.kjson("models", "gc", "--dry-run", schema="models_gc_report")
        self.assertTrue(dry["dry_run"])
        self.assertEqual([s["model"] for s in dry["removed"]], ["multilingual-e5-tiny"])
        self.assertEqual(dry["vectors_removed"], first["embeddings_indexed"])
        self.assertEqual(len(self.spaces()), 2)
        self.assertError(self.sb.run("--json", "models", "gc"), "invalid_input")

        done = self.kjson("models", "gc", "--yes", schema="models_gc_report")
        self.assertFalse(done["dry_run"])
        self.assertEqual((done["spaces_removed"], done["vectors_removed"]),
                         (1, first["embeddings_indexed"]))
        self.assertEqual([s["model"] for s in done["kept"]], ["bge-tiny"])
        self.assertEqual([(s["model"], s["vectors"]) for s in self.spaces()],
                         [("bge-tiny", second["embeddings_indexed"])])
        self.assertEqual(len(self.search("--mode", "vector", "--k", "2", "borrow")["hits"]), 2)
        human = self.sb.run("models", "gc", "--yes")
        self.assertExit(human, 0)
        self.assertIn("nothing to remove", human.stdout)

        # Switching back now re-embeds: the old vectors are gone.
        self.use_model(E5_TINY)
        _, again = self.ingest()
        self.assertEqual(again["embeddings_indexed"], first["embeddings_indexed"])

        self.sb.write_config()
        self.assertError(self.sb.run("--json", "models", "gc", "--yes"), "invalid_input")

    def test_help_teaches_with_examples(self):
        for sub in ("list", "pull", "path", "rm", "gc"):
            r = self.sb.run("models", sub, "--help")
            self.assertExit(r, 0)
            self.assertIn("Examples:", r.stdout, sub)
            self.assertIn(f"kebab models {sub}", r.stdout, sub)
        pull = self.sb.run("models", "pull", "--help").stdout
        self.assertIn("--kind", pull)
        self.assertIn("whisper_model", pull)


if __name__ == "__main__":
    unittest.main()
