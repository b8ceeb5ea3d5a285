#!/usr/bin/python3
"""Image captions end to end: `[ingest.image.caption]` sends each image, made small and upright
by the kebab-ocr workers, to a vision model on tests/tools/fake_ollama.py (a real HTTP server
on 127.0.0.1 speaking Ollama's /api/chat and the OpenAI-compatible /v1/chat/completions, whose
vision model "llava:7b" captions an image from its bytes: "A kebab-shop photo of W by H
pixels."), and the caption becomes a block cited as `photo.png#caption`."""
import json
import os
import shutil
import sys
import unittest

from kebab_e2e import EXIT_OK, EXIT_UNHEALTHY, REPO, FakeOllama, KebabTestCase, kebab_bin

sys.path.insert(0, os.path.join(REPO, "tests", "tools"))
import make_scan  # noqa: E402

DPI = 150
LINES = ["Quokkas sleep in the shade", "Wombats dig long burrows"]


def caption_config(url, model="llava:7b", provider="ollama", long_edge=768, ocr=True,
                   parallel=0):
    return ('[ingest]\nmax_parallel_extractors = %d\n' % parallel +
            '[ingest.ocr]\nenabled = %s\nlanguages = ["eng"]\n'
            '[ingest.image.caption]\nenabled = true\nprovider = "%s"\nmodel = "%s"\n'
            'endpoint = "%s"\nlong_edge = %d\nrequest_timeout_secs = 10\n'
            '[models.embedding]\nprovider = "none"\n'
            % ("true" if ocr else "false", provider, model, url, long_edge))


class CaptionTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        self.ollama = FakeOllama()
        self.addCleanup(self.ollama.close)
        worker = os.path.join(os.path.dirname(os.path.realpath(kebab_bin())), "kebab-pdf")
        # A US Letter page at 150 dpi: 1275 x 1650 pixels, so 593 x 768 once made small.
        scan = make_scan.page_pgm(worker, LINES, DPI)
        os.makedirs(self.sb.path("photos"))
        with open(self.sb.path("photos/board.png"), "wb") as f:
            f.write(make_scan.png(*scan))
        self.sb.write("notes/kebab.md", "# Doner\n\nThe shop on the corner sells doner.\n")

    def read_resources(self, *uris):
        """The text `kebab mcp` reads for each kebab://doc/ URI (raw JSON-RPC over stdio)."""
        msgs = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                    "protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "kebab-e2e", "version": "1"}}},
                {"jsonrpc": "2.0", "method": "notifications/initialized"}]
        msgs += [{"jsonrpc": "2.0", "id": i + 1, "method": "resources/read",
                  "params": {"uri": "kebab://doc/" + uri}} for i, uri in enumerate(uris)]
        r = self.sb.run("mcp", stdin="".join(json.dumps(m) + "\n" for m in msgs).encode())
        replies = {m.get("id"): m for m in map(json.loads, r.stdout.splitlines())}
        return [replies[i + 1]["result"]["contents"][0]["text"] if "result" in replies[i + 1]
                else replies[i + 1]["error"]["message"] for i in range(len(uris))]

    def chats(self):
        return self.ollama.get("/_test/stats")["chats"]

    def caption_hit(self, query="kebab-shop photo"):
        hits = [h for h in self.search(query, "--k", "5")["hits"]
                if h["citation"]["kind"] == "caption"]
        self.assertEqual(len(hits), 1, hits)
        return hits[0]

    def test_a_caption_is_found_and_cited_with_its_model(self):
        self.sb.write_config(caption_config(self.ollama.url))
        events, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (2, 0), report)
        item = {i["doc_path"]: i for i in report["items"]}["photos/board.png"]
        self.assertEqual(item["warnings"], [])
        self.assertIn("+caption(ollama|llava:7b|caption-v1|e768|t96)", item["parser_version"])
        [doc] = [d for d in self.list_docs() if d["doc_path"] == "photos/board.png"]
        inspected = self.kjson("inspect", "doc", doc["doc_id"], schema="document_inspection")
        self.assertEqual(inspected["metadata"]["user"]["caption"],
                         {"model": "llava:7b", "prompt": "caption-v1"})

        hit = self.caption_hit()
        self.assertEqual(hit["doc_path"], "photos/board.png")
        self.assertEqual(hit["citation"]["uri"], "photos/board.png#caption")
        self.assertEqual(hit["citation"]["model"], "llava:7b")
        self.assertIn("A kebab-shop photo of 593 by 768 pixels.", hit["snippet"])
        chunk = self.kjson("inspect", "chunk", hit["chunk_id"], schema="chunk_inspection")
        self.assertEqual(chunk["source_spans"], [{"kind": "caption", "model": "llava:7b"}])
        # OCR still reads the same image, cited by region.
        words = self.search("wombats dig long burrows", "--k", "5")["hits"]
        self.assertEqual(words[0]["citation"]["kind"], "region")

        # An agent opens each citation and reads what it cites.
        caption, region = self.read_resources(hit["citation"]["uri"], words[0]["citation"]["uri"])
        self.assertEqual(caption, "A kebab-shop photo of 593 by 768 pixels.")
        self.assertIn("Wombats dig long burrows", region)
        self.assertNotIn("kebab-shop", region)

        sent = self.ollama.get("/_test/last_chat")
        self.assertEqual(sent["model"], "llava:7b")
        user = sent["messages"][-1]
        self.assertEqual(user["role"], "user")
        self.assertEqual(len(user["images"]), 1)
        self.assertIn("Caption this image", user["content"])
        self.assertEqual(sent["options"]["num_predict"], 96)
        self.assertEqual(self.chats(), 1, "one image, one request; Markdown is not captioned")

    def test_a_caption_is_asked_for_once_and_again_when_its_settings_change(self):
        self.sb.write_config(caption_config(self.ollama.url))
        self.ingest()
        self.assertEqual(self.chats(), 1)
        _, report = self.ingest()
        self.assertEqual(report["unchanged"], 2, report)
        os.rename(self.sb.path("photos/board.png"), self.sb.path("photos/whiteboard.png"))
        _, report = self.ingest()
        self.assertEqual(self.chats(), 1, "a renamed image keeps its caption")
        self.assertEqual(self.caption_hit()["doc_path"], "photos/whiteboard.png")

        self.sb.write_config(caption_config(self.ollama.url, long_edge=512))
        _, report = self.ingest()
        self.assertEqual(self.chats(), 2, "a smaller image says something else")
        self.assertEqual(report["updated"], 1, report)
        self.assertIn("396 by 512 pixels", self.caption_hit()["snippet"])

    def test_an_openai_compatible_server_captions_too(self):
        self.sb.write_config(caption_config(self.ollama.url + "/v1", provider="openai"))
        self.ingest()
        hit = self.caption_hit()
        self.assertEqual(hit["citation"]["model"], "llava:7b")
        user = self.ollama.get("/_test/last_chat")["messages"][-1]
        self.assertEqual([p["type"] for p in user["content"]], ["text", "image_url"])
        self.assertTrue(user["content"][1]["image_url"]["url"].startswith(
            "data:image/jpeg;base64,/9j/"))

    def test_without_ocr_an_image_is_still_captioned(self):
        self.sb.write_config(caption_config(self.ollama.url, ocr=False))
        self.ingest()
        self.assertIn("593 by 768", self.caption_hit()["snippet"])
        self.search("wombats dig long burrows", rc=1)

    def test_a_server_that_is_down_costs_the_caption_not_the_image(self):
        closed = FakeOllama()
        url = closed.url
        closed.close()
        self.sb.write_config(caption_config(url))
        _, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (2, 0), report)
        item = {i["doc_path"]: i for i in report["items"]}["photos/board.png"]
        self.assertEqual(len(item["warnings"]), 1, item)
        self.assertIn("no caption", item["warnings"][0])
        self.assertIn("the next ingest tries again", item["warnings"][0])
        self.assertNotIn("+caption(", item["parser_version"])
        self.assertEqual(self.search("wombats dig long burrows")["hits"][0]["doc_path"],
                         "photos/board.png")
        doctor = self.sb.run("--json", "doctor")
        self.assertExit(doctor, EXIT_UNHEALTHY)
        check = [c for c in json.loads(doctor.stdout)["checks"] if c["name"] == "caption_model"]
        self.assertFalse(check[0]["ok"], check)
        self.assertTrue(check[0]["hint"], check)

        # With the server up, the next ingest captions the image (its OCR from the cache).
        self.sb.write_config(caption_config(self.ollama.url))
        events, report = self.ingest()
        self.assertEqual(report["updated"], 1, report)
        self.assertEqual(self.chats(), 1)
        ocr = [e for e in events if e["kind"] == "pdf_ocr_finished"]
        self.assertTrue(ocr and all(e["cached"] for e in ocr), ocr)
        self.caption_hit()
        doctor = self.sb.run("--json", "doctor")
        check = [c for c in json.loads(doctor.stdout)["checks"] if c["name"] == "caption_model"]
        self.assertTrue(check[0]["ok"], check)
        self.assertIn("llava:7b", check[0]["detail"])

    def test_a_model_without_vision_is_named_once_with_the_fix(self):
        shutil.copy(self.sb.path("photos/board.png"), self.sb.path("photos/copy.png"))
        with open(self.sb.path("photos/copy.png"), "ab") as f:
            f.write(b"\0")  # another image's bytes, the same pixels
        # One file at a time, so the first refusal is known before the second image is sent.
        self.sb.write_config(caption_config(self.ollama.url, model="llama3.2", parallel=1))
        _, report = self.ingest()
        self.assertEqual(report["errors"], 0, report)
        for item in report["items"]:
            if item["doc_path"].startswith("photos/"):
                self.assertIn("does not support image input", item["warnings"][0])
                self.assertIn("vision model", item["warnings"][0])
        self.assertEqual(self.chats(), 1, "the second image is not sent to a blind model")

    def test_captions_need_a_model_named(self):
        self.sb.write_config('[ingest.image.caption]\nenabled = true\n')
        r = self.sb.run("--json", "ingest")
        self.assertError(r, "config_invalid")
        self.assertIn("ingest.image.caption.model", r.stderr)


if __name__ == "__main__":
    unittest.main()
