#!/usr/bin/python3
"""OCR end to end: scanned PDF pages and images read by the kebab-ocr workers (Tesseract).

Scans are made by the tests (tests/tools/make_scan.py: lines of text at known positions,
rasterized by the real kebab-pdf) so a hit's region citation can be checked against where its
words are; real scans and photos from ../shared/data/ocr are searched too (skipped with a
message when ../shared is absent)."""
import json
import os
import shutil
import signal
import sys
import unittest

from kebab_e2e import (EXIT_INTERRUPTED, REPO, KebabTestCase, ingest_stream_errors, kebab_bin,
                       read_ndjson_until)

sys.path.insert(0, os.path.join(REPO, "tests", "tools"))
import make_scan  # noqa: E402
from make_pdf import make_pdf  # noqa: E402

SHARED_OCR = os.path.join(REPO, "..", "shared", "data", "ocr")
DPI = 150
LINES = ["Quokkas sleep in the shade", "Wombats dig long burrows",
         "Numbats eat termites daily"]
# English only and a modest resolution keep the tests quick; the defaults are measured in
# bench/ocr_bench.py.
OCR_CONFIG = ('[ingest.ocr]\nlanguages = ["eng"]\n[ingest.pdf.ocr]\ndpi = %d\n'
              '[models.embedding]\nprovider = "none"\n' % DPI)


def worker(name):
    return os.path.join(os.path.dirname(os.path.realpath(kebab_bin())), name)


class GeneratedScanTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        self.sb.write_config(OCR_CONFIG)
        scan = make_scan.page_pgm(worker("kebab-pdf"), LINES, DPI)
        os.makedirs(self.sb.path("scans"))
        os.makedirs(self.sb.path("photos"))
        make_scan.image_pdf(self.sb.path("scans/letter.pdf"), [scan, scan], DPI)
        with open(self.sb.path("photos/board.png"), "wb") as f:
            f.write(make_scan.png(*scan))

    def ocr_events(self, events):
        return [e for e in events if e["kind"].startswith("pdf_ocr_")]

    def assertCitesLine(self, citation, i):
        """The region cites line i of the scan: it holds the line's left end and its height."""
        left, top, baseline = make_scan.line_box(i, DPI)
        self.assertEqual(citation["kind"], "region")
        self.assertEqual(citation["unit"], "pixel")
        self.assertAlmostEqual(citation["x"], left, delta=6)
        self.assertLessEqual(citation["y"], top + 6)
        self.assertGreaterEqual(citation["y"] + citation["h"], baseline - 6)

    def test_scanned_pages_and_images_are_searched_and_cited_by_region(self):
        events, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (2, 0), report)
        items = {i["doc_path"]: i for i in report["items"]}
        self.assertEqual(items["scans/letter.pdf"]["ocr_pages"], 2)
        self.assertEqual(items["photos/board.png"]["ocr_pages"], 1)
        self.assertEqual(items["scans/letter.pdf"]["warnings"], [])
        self.assertTrue(items["scans/letter.pdf"]["parser_version"].startswith(
            "pdf-poppler-v3+ocr(tesseract 5"), items["scans/letter.pdf"])
        self.assertEqual(items["photos/board.png"]["chunker_version"], "image-region-v1")
        finished = [e for e in self.ocr_events(events) if e["kind"] == "pdf_ocr_finished"]
        self.assertEqual(sorted((e["path"], e["page"]) for e in finished),
                         [("photos/board.png", 1), ("scans/letter.pdf", 1),
                          ("scans/letter.pdf", 2)])
        for e in finished:
            self.assertIsNone(e["failure_reason"])
            self.assertGreater(e["chars"], 60)
            self.assertTrue(e["ocr_engine"].startswith("tesseract 5"))

        hits = {h["citation"]["uri"].split("#")[0]: h
                for h in self.search("wombats dig long burrows", "--k", "5")["hits"]}
        self.assertEqual(set(hits), {"scans/letter.pdf", "photos/board.png"})
        pdf = hits["scans/letter.pdf"]["citation"]
        self.assertIn(pdf["page"], (1, 2))
        self.assertEqual(pdf["dpi"], DPI)
        self.assertRegex(pdf["uri"], r"^scans/letter\.pdf#p=[12]&xywh=\d+,\d+,\d+,\d+$")
        image = hits["photos/board.png"]["citation"]
        self.assertNotIn("page", image)
        self.assertRegex(image["uri"], r"^photos/board\.png#xywh=\d+,\d+,\d+,\d+$")
        for citation in (pdf, image):
            for i in range(len(LINES)):
                self.assertCitesLine(citation, i)
        chunk = self.kjson("fetch", "chunk", hits["photos/board.png"]["chunk_id"],
                           schema="fetch_result")
        self.assertIn("Wombats dig long burrows", chunk["text"])
        human = self.sb.run("search", "numbats termites")
        self.assertIn("#xywh=", human.stdout)
        # Each page and block OCR read keeps its confidence.
        inspected = self.kjson("inspect", "doc", items["scans/letter.pdf"]["doc_id"],
                               schema="document_inspection")
        self.assertEqual(len(inspected["pages"]), 2)
        for page in inspected["pages"]:
            self.assertGreater(page["ocr_confidence"], 80, page)
        confidences = [b["payload"]["confidence"] for b in inspected["blocks"]]
        self.assertTrue(confidences and min(confidences) > 80, confidences)

        # An image is found by its name and what it is, even where it holds no words.
        self.assertEqual(self.hit_paths(self.search("board")), ["photos/board.png"])
        [doc] = [d for d in self.list_docs() if d["doc_path"] == "photos/board.png"]
        self.assertEqual((doc["media"], doc["title"]), ("image", "board"))

    def test_renamed_and_unchanged_files_are_never_read_twice(self):
        self.ingest()
        events, report = self.ingest()
        self.assertEqual(self.ocr_events(events), [])
        self.assertEqual(report["unchanged"], 2)

        shutil.move(self.sb.path("scans"), self.sb.path("archive"))
        os.rename(self.sb.path("photos/board.png"), self.sb.path("photos/whiteboard.png"))
        events, report = self.ingest()
        self.assertEqual(report["new"], 2)
        finished = [e for e in self.ocr_events(events) if e["kind"] == "pdf_ocr_finished"]
        self.assertEqual(len(finished), 3)
        self.assertTrue(all(e["cached"] for e in finished), finished)
        self.assertEqual(self.hit_paths(self.search("quokkas shade")),
                         ["archive/letter.pdf", "photos/whiteboard.png"])

        # Other languages read again: the cache is keyed by them. (The letter's two pages are
        # the same image, so the one read second may come from what the first just read.)
        self.sb.write_config(OCR_CONFIG.replace('["eng"]', '["eng", "osd"]'))
        events, report = self.ingest()
        self.assertEqual(report["updated"], 2)
        finished = [e for e in self.ocr_events(events) if e["kind"] == "pdf_ocr_finished"]
        self.assertEqual(len(finished), 3)
        fresh = [e for e in finished if not e["cached"]]
        self.assertEqual({e["path"] for e in fresh}, {"archive/letter.pdf", "photos/whiteboard.png"},
                         finished)
        self.assertLessEqual(len(finished) - len(fresh), 1, finished)

    def test_bad_images_cost_one_file_each(self):
        with open(self.sb.path("photos/board.png"), "rb") as f:
            good = f.read()
        files = {"photos/empty.png": b"", "photos/truncated.png": good[:len(good) // 3],
                 "photos/text.jpg": b"this is not a jpeg at all\n" * 20,
                 "photos/fake.gif": b"GIF89a" + b"\x00" * 40}
        for rel, data in files.items():
            with open(self.sb.path(rel), "wb") as f:
                f.write(data)
        _, report = self.ingest()
        items = {i["doc_path"]: i for i in report["items"]}
        self.assertEqual(items["photos/board.png"]["kind"], "new")
        self.assertEqual(items["scans/letter.pdf"]["kind"], "new")
        for rel in files:
            self.assertEqual(items[rel]["kind"], "error", items[rel])
        self.assertRegex(items["photos/empty.png"]["error"], "empty")
        self.assertRegex(items["photos/text.jpg"]["error"], "^unsupported")
        self.assertRegex(items["photos/truncated.png"]["error"], "^damaged")
        self.assertEqual(self.hit_paths(self.search("numbats")),
                         ["photos/board.png", "scans/letter.pdf"])

        # The OCR log keeps what failed, and why.
        failures = self.kjson("inspect", "ocr-failures", schema="ocr_failures")
        reasons = {f["doc_path"]: f["reason"] for f in failures["failures"]}
        self.assertEqual(failures["failure_count"], len(failures["failures"]))
        self.assertRegex(reasons["photos/truncated.png"], "^damaged")
        self.assertRegex(reasons["photos/text.jpg"], "^unsupported")
        self.assertNotIn("photos/board.png", reasons)
        [board] = [d for d in self.list_docs() if d["doc_path"] == "photos/board.png"]
        mine = self.kjson("inspect", "ocr-failures", "--doc-id", board["doc_id"],
                          schema="ocr_failures")
        self.assertEqual((mine["doc_id"], mine["failures"]), (board["doc_id"], []))
        stats = self.kjson("inspect", "ocr-stats", schema="ocr_stats")
        self.assertEqual(stats["success_count"], 3)  # two pages of the letter, the board
        self.assertEqual(stats["failure_count"], len(failures["failures"]))
        self.assertGreater(stats["p50_ms"], 0)
        by_doc = {d["doc_path"]: d for d in stats["by_doc"]}
        self.assertEqual(by_doc["scans/letter.pdf"]["pages"], 2)

    def test_doctor_checks_the_engine_and_the_languages(self):
        self.sb.run("ingest")  # doctor is healthy once there is an index
        report = self.kjson("doctor", schema="doctor")
        [ocr] = [c for c in report["checks"] if c["name"] == "ocr"]
        self.assertTrue(ocr["ok"], ocr)
        self.assertRegex(ocr["detail"], r"kebab-ocr at .* \(tesseract 5[^,]*, languages eng\)")
        self.sb.write_config(OCR_CONFIG.replace('["eng"]', '["eng", "tlh"]'))
        report = self.kjson("doctor", schema="doctor", rc=3)
        [ocr] = [c for c in report["checks"] if c["name"] == "ocr"]
        self.assertFalse(ocr["ok"])
        self.assertIn("tlh", ocr["detail"])
        self.assertEqual(ocr["hint"], "apt-get install tesseract-ocr-tlh, or remove it from "
                                      "[ingest.ocr] languages")
        # Ingest goes on: OCR fails with the fix named, the files are still documents.
        _, report = self.ingest()
        items = {i["doc_path"]: i for i in report["items"]}
        self.assertEqual(items["photos/board.png"]["kind"], "updated")
        self.assertRegex(items["photos/board.png"]["warnings"][0], "tesseract-ocr-")
        self.assertEqual(self.hit_paths(self.search("board")), ["photos/board.png"])

    def test_without_ocr_an_image_is_still_found_by_its_name(self):
        self.sb.write_config('[ingest.ocr]\nenabled = false\n'
                             '[models.embedding]\nprovider = "none"\n')
        events, report = self.ingest()
        self.assertEqual(self.ocr_events(events), [])
        items = {i["doc_path"]: i for i in report["items"]}
        self.assertEqual(items["photos/board.png"]["parser_version"], "image-v1")
        self.assertEqual(items["scans/letter.pdf"]["warnings"],
                         ["page 1 has no usable text (needs OCR)",
                          "page 2 has no usable text (needs OCR)"])
        [hit] = self.search("board")["hits"]
        self.assertEqual(hit["citation"]["uri"], "photos/board.png#xywh=0,0,1275,1650")
        self.assertEqual(self.search("wombats", rc=1)["hits"], [])


class InterruptedOcrTest(KebabTestCase):
    def test_ctrl_c_keeps_the_pages_read_and_the_next_ingest_resumes(self):
        self.sb.write_config(OCR_CONFIG)
        pages = 24
        # Each page a little different, so that each is read (and cached) on its own.
        scans = [make_scan.page_pgm(worker("kebab-pdf"), [f"Page {n} of the long scan"] + LINES,
                                    DPI) for n in range(1, pages + 1)]
        make_scan.image_pdf(self.sb.path("long.pdf"), scans, DPI)
        proc = self.sb.popen("--json", "ingest")
        lines, rest = read_ndjson_until(
            proc, lambda e: e["kind"] == "pdf_ocr_finished" and e["page"] >= 3)
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, EXIT_INTERRUPTED, err.decode("utf-8", "replace"))
        stream = (b"\n".join(lines) + b"\n" + rest + out).decode("utf-8")
        self.assertEqual(ingest_stream_errors(stream), [])
        events = [json.loads(l) for l in stream.splitlines() if l.strip()]
        self.assertTrue(events[-1]["aborted"])
        read_before = {e["page"] for e in events if e.get("kind") == "pdf_ocr_finished"}
        self.assertGreaterEqual(len(read_before), 3)
        self.assertLess(len(read_before), pages, "Ctrl-C did not stop the OCR of the file")
        self.assertEqual(self.list_docs(), [])  # the file was not finished, so not written

        events, report = self.ingest()
        self.assertEqual(report["new"], 1)
        finished = {e["page"]: e["cached"] for e in events if e["kind"] == "pdf_ocr_finished"}
        self.assertEqual(sorted(finished), list(range(1, pages + 1)))
        self.assertEqual({p for p, cached in finished.items() if cached}, read_before)
        self.assertEqual(self.hit_paths(self.search("'\"page 17 of the long scan\"'")),
                         ["long.pdf"])


@unittest.skipUnless(os.path.isdir(SHARED_OCR), f"{SHARED_OCR} is absent")
class RealScanTest(KebabTestCase):
    def test_a_sentence_of_a_real_scan_is_cited_on_its_page(self):
        self.sb.write_config('[models.embedding]\nprovider = "none"\n')
        os.makedirs(self.sb.path("scans"))
        shutil.copy(os.path.join(SHARED_OCR, "scanned", "mixed-en.pdf"), self.sb.path("scans"))
        shutil.copy(os.path.join(SHARED_OCR, "images", "ko-tldr-clean.png"),
                    self.sb.path("scans"))
        events, report = self.ingest()
        self.assertEqual(report["errors"], 0, report)
        pages = sorted(e["page"] for e in events
                       if e["kind"] == "pdf_ocr_finished" and e["path"] == "scans/mixed-en.pdf")
        self.assertEqual(pages, [2, 4, 6])  # the image pages; 1, 3, 5 keep their text layer
        for page in (2, 4):
            with open(os.path.join(SHARED_OCR, "scanned", "mixed-en.pages",
                                   "%04d.txt" % page)) as f:
                truth = [l.strip() for l in f if len(l.split()) >= 8]
            query = " ".join(truth[len(truth) // 2].split()[:8])
            hit = self.search(query, "--k", "1")["hits"][0]
            self.assertEqual(hit["citation"]["kind"], "region", query)
            self.assertEqual(hit["citation"]["page"], page, query)
            self.assertEqual(hit["citation"]["dpi"], 300)
        with open(os.path.join(SHARED_OCR, "images", "ko-tldr-clean.txt")) as f:
            korean = [l.strip() for l in f if len(l.split()) >= 4][1]
        hit = self.search(korean, "--k", "1")["hits"][0]
        self.assertEqual(hit["doc_path"], "scans/ko-tldr-clean.png", korean)
        self.assertEqual(hit["citation"]["kind"], "region")


if __name__ == "__main__":
    unittest.main()
