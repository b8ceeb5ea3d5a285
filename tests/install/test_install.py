#!/usr/bin/python3
"""The installed layout end to end: `cmake --install` of this build into a temporary prefix,
then the kebab in PREFIX/bin (never this build tree's) reads a text PDF and a scan through the
workers in PREFIX/libexec/kebab and cites the page and the region; the man page and the bash
and zsh completions are installed and sound. No KEBAB_*_WORKER variable reaches kebab (the
harness passes none), and nothing of the build tree is beside the installed binary.

Env: KEBAB_BUILD_DIR (the build to install), KEBAB_CMAKE (the cmake that built it)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from kebab_e2e import REPO, KebabTestCase

sys.path.insert(0, os.path.join(REPO, "tests", "tools"))
import make_scan  # noqa: E402

WORKERS = ("kebab-pdf", "kebab-ocr", "kebab-audio")
DPI = 150
LINES = ["Quokkas sleep in the shade", "Wombats dig long burrows"]
PREFIX = ""
# cmake --install lists what it installed in the build's install_manifest.txt, which a user's
# own install may have written (the README uninstalls with it): it is put back afterwards.
MANIFEST = os.path.join(os.environ.get("KEBAB_BUILD_DIR", ""), "install_manifest.txt")
SAVED_MANIFEST = None


def setUpModule():
    global PREFIX, SAVED_MANIFEST
    if os.path.exists(MANIFEST):
        with open(MANIFEST, "rb") as f:
            SAVED_MANIFEST = f.read()
    PREFIX = tempfile.mkdtemp(prefix="kebab-install-")
    run = subprocess.run([os.environ["KEBAB_CMAKE"], "--install", os.environ["KEBAB_BUILD_DIR"],
                          "--prefix", PREFIX], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"cmake --install failed ({run.returncode}):\n{run.stdout}{run.stderr}")
    os.environ["KEBAB_BIN"] = os.path.join(PREFIX, "bin", "kebab")


def tearDownModule():
    shutil.rmtree(PREFIX, ignore_errors=True)
    if SAVED_MANIFEST is None:
        if os.path.exists(MANIFEST):
            os.remove(MANIFEST)
    else:
        with open(MANIFEST, "wb") as f:
            f.write(SAVED_MANIFEST)


def installed(*parts):
    return os.path.join(PREFIX, *parts)


class InstalledKebabTest(KebabTestCase):
    def test_kebab_is_alone_in_bin_and_its_workers_are_in_libexec(self):
        self.assertEqual(os.listdir(installed("bin")), ["kebab"])
        self.assertFalse(os.path.islink(installed("bin", "kebab")))
        self.assertEqual(sorted(os.listdir(installed("libexec", "kebab"))), sorted(WORKERS))
        for worker in WORKERS:
            self.assertTrue(os.access(installed("libexec", "kebab", worker), os.X_OK), worker)

    def test_doctor_finds_the_installed_workers(self):
        self.ingest()  # an index, so that only the workers can make doctor unhappy
        report = self.kjson("doctor", schema="doctor")
        details = {c["name"]: c["detail"] for c in report["checks"]}
        for check, worker in (("reader_pdf", "kebab-pdf"), ("ocr", "kebab-ocr"),
                              ("transcription", "kebab-audio")):
            self.assertIn(f"{worker} at {installed('libexec', 'kebab', worker)} ", details[check])

    def test_a_text_pdf_and_a_scan_are_cited_by_page_and_region(self):
        self.sb.write_config('[ingest.ocr]\nlanguages = ["eng"]\n[ingest.pdf.ocr]\ndpi = %d\n'
                             '[models.embedding]\nprovider = "none"\n' % DPI)
        os.makedirs(self.sb.path("papers"))
        os.makedirs(self.sb.path("scans"))
        shutil.copy(os.path.join(REPO, "tests", "testdata", "parse", "pdf", "two-pages.pdf"),
                    self.sb.path("papers/garden.pdf"))
        scan = make_scan.page_pgm(installed("libexec", "kebab", "kebab-pdf"), LINES, DPI)
        make_scan.image_pdf(self.sb.path("scans/letter.pdf"), [scan], DPI)

        _, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (2, 0), report)
        items = {i["doc_path"]: i for i in report["items"]}
        self.assertEqual(items["scans/letter.pdf"]["ocr_pages"], 1)

        for query, page in (("zebrafinch", 1), ("quokkas", 2)):
            [hit] = self.search(query, "--path-glob", "papers/**")["hits"]
            self.assertEqual(hit["citation"]["kind"], "page")
            self.assertEqual(hit["citation"]["uri"], f"papers/garden.pdf#p={page}")

        [hit] = self.search("wombats dig long burrows")["hits"]
        citation = hit["citation"]
        self.assertEqual(citation["kind"], "region")
        self.assertRegex(citation["uri"], r"^scans/letter\.pdf#p=1&xywh=\d+,\d+,\d+,\d+$")
        left, top, baseline = make_scan.line_box(1, DPI)
        self.assertAlmostEqual(citation["x"], left, delta=6)
        self.assertLessEqual(citation["y"], top + 6)
        self.assertGreaterEqual(citation["y"] + citation["h"], baseline - 6)

    def test_the_man_page_says_what_help_says(self):
        with open(installed("share", "man", "man1", "kebab.1"), encoding="utf-8") as f:
            page = f.read()
        self.assertIn('.TH KEBAB 1 ""', page)
        for command in ("init", "search", "list docs", "models pull"):
            self.assertIn(f'.SS "kebab {command}"', page)
        self.assertIn("\\fB\\-\\-path\\-glob\\fR", page)
        self.assertNotIn("completions", page)  # hidden

    def test_the_completions_are_sound_scripts_that_complete(self):
        bash = installed("share", "bash-completion", "completions", "kebab")
        zsh = installed("share", "zsh", "site-functions", "_kebab")
        for path in (bash, zsh):
            self.assertGreater(os.path.getsize(path), 0, path)
        check = subprocess.run(["bash", "-n", bash], capture_output=True, text=True)
        self.assertEqual(check.returncode, 0, check.stderr)
        with open(zsh, encoding="utf-8") as f:
            self.assertEqual(f.readline(), "#compdef kebab\n")
        if shutil.which("zsh"):
            check = subprocess.run(["zsh", "-n", zsh], capture_output=True, text=True)
            self.assertEqual(check.returncode, 0, check.stderr)

        def complete(*words):
            """What bash offers for the last of `words` after `kebab`."""
            line = " ".join(["kebab", *words])
            script = (f'source "{bash}"\nCOMP_WORDS=(kebab {" ".join(map(repr, words))})\n'
                      f"COMP_CWORD={len(words)}\nCOMP_LINE={line!r}\nCOMP_POINT={len(line)}\n"
                      '_kebab\nprintf "%s\\n" "${COMPREPLY[@]}"\n')
            run = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            return run.stdout.split()

        self.assertEqual(complete("sea"), ["search"])
        self.assertEqual(complete("se"), ["search", "serve"])
        self.assertEqual(complete("list", ""), ["docs"])
        self.assertEqual(complete("search", "--path-g"), ["--path-glob"])
        self.assertIn("--json", complete("--config", "x.toml", "models", "pull", "--"))
        self.assertEqual(complete("--config", ""), [])  # a value: file names, readline's default
        self.assertEqual(complete("reset", "--data"), ["--data-only"])


if __name__ == "__main__":
    unittest.main()
