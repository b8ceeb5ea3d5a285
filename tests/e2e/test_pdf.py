#!/usr/bin/python3
"""PDFs end to end: `kebab ingest` runs the kebab-pdf worker (poppler) on PDFs the tests write
themselves (tests/tools/make_pdf.py) and on real ones from ../shared/data/pdf/text (skipped
with a message when ../shared is absent); hits cite `file.pdf#p=N` and what they cite is on
that page."""
import json
import os
import random
import re
import shutil
import sys
import unittest

from kebab_e2e import REPO, KebabTestCase

sys.path.insert(0, os.path.join(REPO, "tests", "tools"))
from make_pdf import make_cjk_pdf, make_pdf  # noqa: E402

SHARED_PDF = os.path.join(REPO, "..", "shared", "data", "pdf", "text")


class GeneratedPdfTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        os.makedirs(self.sb.path("papers"), exist_ok=True)
        make_pdf(self.sb.path("papers/gen.pdf"),
                 [["Compost heaps need oxygen, so turn them every fortnight.",
                   "The zebrafinch nests near the heap."],
                  ["Page two speaks of quokkas and their leaves."],
                  []],
                 {"Title": "Garden findings", "Keywords": "garden, birds"})
        self.sb.write("notes/plain.md", "# Plain\n\nA Markdown note about compost too.\n")

    def test_pages_are_cited_and_empty_pages_need_ocr(self):
        _, report = self.ingest("--summary-only")
        self.assertEqual((report["new"], report["errors"]), (2, 0), report)
        _, full = self.ingest("--force-reingest")
        [item] = [i for i in full["items"] if i["doc_path"] == "papers/gen.pdf"]
        self.assertEqual(item["warnings"], ["page 3 has no usable text (needs OCR)"])
        # With OCR on (the default), the version names its engine and settings too.
        self.assertTrue(item["parser_version"].startswith("pdf-poppler-v3+ocr(tesseract "),
                        item["parser_version"])
        self.assertEqual(item["chunker_version"], "pdf-page-v1")

        for query, page in (("zebrafinch", 1), ("quokkas", 2)):
            resp = self.search(query)
            [hit] = resp["hits"]
            self.assertEqual(hit["citation"]["uri"], f"papers/gen.pdf#p={page}")
            self.assertEqual(hit["citation"]["kind"], "page")
            self.assertEqual(hit["citation"]["page"], page)
            self.assertIn(query, hit["snippet"])
            chunk = self.kjson("fetch", "chunk", hit["chunk_id"], schema="fetch_result")
            self.assertIn(query, chunk["text"])

        [doc] = [d for d in self.list_docs() if d["doc_path"] == "papers/gen.pdf"]
        self.assertEqual((doc["media"], doc["title"]), ("pdf", "Garden findings"))
        self.assertEqual(doc["tags"], ["garden", "birds"])
        whole = self.kjson("fetch", "doc", doc["doc_id"], schema="fetch_result")
        self.assertIn("quokkas", whole["text"])
        self.assertNotIn("%PDF", whole["text"])

        self.assertEqual(self.hit_paths(self.search("compost", "--media", "pdf")),
                         ["papers/gen.pdf"])
        self.assertEqual(self.hit_paths(self.search("compost", "--media", "markdown")),
                         ["notes/plain.md"])
        self.assertEqual(self.schema_info()["stats"]["media_breakdown"],
                         {"markdown": 1, "pdf": 1})

        _, again = self.ingest()
        self.assertEqual((again["unchanged"], again["new"], again["updated"]), (2, 0, 0))

    def test_outline_headings_pages_and_page_spans(self):
        make_pdf(self.sb.path("papers/manual.pdf"),
                 [["Front matter, before any chapter."],
                  ["The walrus chapter opens here.", "Walruses haul out on the ice."],
                  ["Diet: the walrus eats clams in winter."]],
                 {"Title": "Manual", "Author": "A. Writer", "Subject": "Walruses"},
                 [{"title": "1 Walrus", "page": 2,
                   "children": [{"title": "1.1 Diet", "page": 3, "named": True}]}])
        self.ingest()
        [hit] = self.search("clams")["hits"]
        citation = hit["citation"]
        self.assertEqual((citation["uri"], citation["section"]), ("papers/manual.pdf#p=3", "1.1 Diet"))
        self.assertEqual(citation["char_start"], 0)
        self.assertEqual(citation["char_end"], len("Diet: the walrus eats clams in winter."))
        self.assertEqual(hit["heading_path"], ["1 Walrus", "1.1 Diet"])
        [hit] = self.search("haul")["hits"]
        self.assertEqual(hit["citation"]["section"], "1 Walrus")

        [doc] = [d for d in self.list_docs() if d["doc_path"] == "papers/manual.pdf"]
        one = self.kjson("fetch", "span", doc["doc_id"], "--page", "2", schema="fetch_result")
        self.assertEqual((one["page_start"], one["page_end"], one["effective_end"]), (2, 2, 2))
        self.assertEqual(one["text"], "The walrus chapter opens here.\nWalruses haul out on the ice.")
        self.assertEqual(one["citation"]["uri"], "papers/manual.pdf#p=2")
        both = self.kjson("fetch", "span", doc["doc_id"], "--page", "2-3", schema="fetch_result")
        self.assertIn("haul out", both["text"])
        self.assertIn("clams", both["text"])
        self.assertNotIn("citation", both)  # one citation cannot cover two pages
        human = self.sb.run("fetch", "span", doc["doc_id"], "--page", "3")
        self.assertEqual(human.rc, 0, human)
        self.assertIn("papers/manual.pdf#p=3", human.stdout)
        for bad, code in (("4", "invalid_input"), ("3-2", "invalid_input"), ("x", "invalid_input")):
            r = self.sb.run("--json", "fetch", "span", doc["doc_id"], "--page", bad)
            self.assertEqual(r.rc, 2, r)
            self.assertIn(code, r.stdout + r.stderr)
        [md] = [d for d in self.list_docs() if d["doc_path"] == "notes/plain.md"]
        r = self.sb.run("--json", "fetch", "span", md["doc_id"], "--page", "1")
        self.assertEqual(r.rc, 2, r)
        self.assertIn("span_not_supported", r.stdout + r.stderr)

        inspected = self.kjson("inspect", "doc", doc["doc_id"], schema="document_inspection")
        self.assertEqual([(p["page"], p["heading_path"], p["blocks"], p["has_text"])
                          for p in inspected["pages"]],
                         [(1, [], 1, True), (2, ["1 Walrus"], 1, True),
                          (3, ["1 Walrus", "1.1 Diet"], 1, True)])
        self.assertEqual(inspected["metadata"]["user"]["author"], "A. Writer")
        self.assertEqual(inspected["metadata"]["user"]["subject"], "Walruses")
        self.assertEqual(inspected["metadata"]["user"]["pages"], 3)
        gen = [d for d in self.list_docs() if d["doc_path"] == "papers/gen.pdf"][0]
        pages = self.kjson("inspect", "doc", gen["doc_id"], schema="document_inspection")["pages"]
        self.assertEqual([p["has_text"] for p in pages], [True, True, False])

    def test_a_long_pdf_reports_its_pages_while_it_is_read(self):
        pages = 3000  # about 1.5 s to read (bench/pdf_bench.py): reports at one per 250 ms
        line = "a walrus hauls out on the floe and a seal slips into the lead of open water"
        make_pdf(self.sb.path("papers/long.pdf"),
                 [[f"Page {i + 1} of the long log."] + [line] * 25 for i in range(pages)])
        events, report = self.ingest()  # the stream is validated, asset_progress included
        self.assertEqual(report["errors"], 0, report)
        # Any file read for over 250 ms reports (under a sanitizer even the 3-page one may).
        progress = [e for e in events
                    if e["kind"] == "asset_progress" and e["path"] == "papers/long.pdf"]
        self.assertTrue(progress, "no asset_progress for a 3,000-page PDF")
        self.assertEqual({(e["path"], e["media"], e["unit"], e["of"]) for e in progress},
                         {("papers/long.pdf", "pdf", "page", pages)})
        done = [e["done"] for e in progress]
        self.assertEqual(done, sorted(done))
        self.assertTrue(all(1 <= d <= pages for d in done), done)
        # Read ahead of its turn to be written: the pages come before its asset_started.
        started = [i for i, e in enumerate(events)
                   if e["kind"] == "asset_started" and e["path"] == "papers/long.pdf"]
        self.assertLess(events.index(progress[-1]), started[0])

    def test_broken_pdfs_cost_one_file_each(self):
        with open(self.sb.path("papers/garbage.pdf"), "wb") as f:
            f.write(b"%PDF-1.4\nthis is not a PDF body at all\n" * 10)
        with open(self.sb.path("papers/gen.pdf"), "rb") as f:
            good = f.read()
        with open(self.sb.path("papers/truncated.pdf"), "wb") as f:
            f.write(good[: len(good) // 3])
        _, report = self.ingest()  # per-file errors are items, not a failed run
        items = {i["doc_path"]: i for i in report["items"]}
        self.assertEqual(items["papers/gen.pdf"]["kind"], "new")
        self.assertEqual(items["notes/plain.md"]["kind"], "new")
        self.assertEqual(items["papers/garbage.pdf"]["kind"], "error")
        self.assertRegex(items["papers/garbage.pdf"]["error"], r"^damaged: ")
        # Truncated: poppler either recovers some text or reports it damaged; never a crash.
        self.assertIn(items["papers/truncated.pdf"]["kind"], ("new", "error"))
        self.assertEqual(self.hit_paths(self.search("quokkas")), ["papers/gen.pdf"])

    def test_ingest_file_takes_a_pdf(self):
        outside = os.path.join(self.sb.tmp, "outside.pdf")
        make_pdf(outside, [["The glimmerwomb sleeps all day."]])
        r = self.sb.run("--json", "ingest-file", outside)
        self.assertEqual(r.rc, 0, r)
        [hit] = self.search("glimmerwomb")["hits"]
        self.assertRegex(hit["citation"]["uri"], r"^_external/[0-9a-f]{12}\.pdf#p=1$")


class CjkPdfTest(KebabTestCase):
    """Text in a Korean font that is not embedded needs poppler-data's CMaps (scripts/setup.sh
    installs it; libpoppler only recommends it)."""

    def test_korean_text_in_a_predefined_cmap_font_is_found(self):
        os.makedirs(self.sb.path("ko"))
        make_cjk_pdf(self.sb.path("ko/cmap.pdf"), "데이터베이스 색인 우주선")
        _, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (1, 0), report)
        self.assertEqual(report["items"][0]["warnings"], [],
                         "poppler read no text: is poppler-data installed?")
        [hit] = self.search("우주선")["hits"]
        self.assertEqual(hit["citation"]["uri"], "ko/cmap.pdf#p=1")
        self.assertIn("우주선", hit["snippet"])
        r = self.sb.run("--json", "doctor")
        doctor = json.loads(r.stdout)
        self.assertValid("doctor", doctor)
        [pdf] = [c for c in doctor["checks"] if c["name"] == "reader_pdf"]
        self.assertTrue(pdf["ok"], pdf)


@unittest.skipUnless(os.path.isdir(SHARED_PDF),
                     f"{SHARED_PDF} is absent (the real PDFs live in ../shared/data/pdf)")
class RealPdfTest(KebabTestCase):
    FILES = ["r-intro.pdf", "acmart-sample-sigconf.pdf", "lshort-ko.pdf", "mpich-user.pdf"]

    def test_a_sentence_from_a_page_finds_that_page(self):
        for name in self.FILES:
            shutil.copy(os.path.join(SHARED_PDF, name), self.sb.path(name))
        _, report = self.ingest("--summary-only")
        self.assertEqual((report["new"], report["errors"]), (4, 0), report)

        rng = random.Random(7)
        cases = []
        for name in ("r-intro.pdf", "acmart-sample-sigconf.pdf"):
            pages_dir = os.path.join(SHARED_PDF, name[:-4] + ".pages")
            pages = sorted(os.listdir(pages_dir))
            for page_file in rng.sample(pages, min(10, len(pages))):
                with open(os.path.join(pages_dir, page_file), encoding="utf-8") as f:
                    lines = [re.sub(r"\s+", " ", l).strip() for l in f]
                # A line of prose: eight words or more, letters mostly.
                prose = [l for l in lines if len(l.split()) >= 8 and
                         sum(c.isalpha() for c in l) > 0.7 * len(l.replace(" ", ""))]
                if prose:
                    cases.append((name, int(page_file[:4]), rng.choice(prose)))
        self.assertGreaterEqual(len(cases), 15)
        right = []
        for name, page, sentence in cases:
            words = re.findall(r"[A-Za-z]{3,}", sentence)[:10]
            resp = self.search(" ".join(words), "--k", "1", rc=None)
            top = resp["hits"][0]["citation"]["uri"] if resp["hits"] else None
            right.append(top == f"{name}#p={page}")
        self.assertGreaterEqual(sum(right) / len(right), 0.9,
                                f"{sum(right)} of {len(right)} sentences found their page")

        # mpich-user.pdf's text layer spells "specified" with the ligature U+FB01: the index
        # folds it, the stored text keeps it.
        resp = self.search("specified", "--path-glob", "mpich-user.pdf", "--k", "3")
        self.assertTrue(resp["hits"])
        self.assertTrue(any("speci\ufb01ed" in h["snippet"] for h in resp["hits"]), resp["hits"])

        # Titles read as written: r-intro.pdf has no Title in its info, and its first page
        # opens with it.
        titles = {d["doc_path"]: d["title"] for d in self.list_docs()}
        self.assertEqual(titles["r-intro.pdf"], "An Introduction to R")
        self.assertEqual(titles["mpich-user.pdf"], "MPICH User’s Guide")

        # Korean: the book's pages are cited too.
        resp = self.search("문서", "--k", "3")
        self.assertTrue(all(h["citation"]["uri"].startswith("lshort-ko.pdf#p=")
                            for h in resp["hits"]))


if __name__ == "__main__":
    unittest.main()
