#!/usr/bin/python3
"""Whole-program benchmark of kebab's OCR (scanned PDF pages and images) against its floor.

On ../shared/data/ocr (scanned-en.pdf 10 pages, scanned-ko.pdf 5, mixed-en.pdf 6 of which 2, 4
and 6 are images; 8 images), each with its truth, in one run. kebab runs with its default
[ingest.ocr] page_segmentation_mode = "auto" (each page's mode chosen by kebab-ocr); the floor
is the tesseract CLI in its best mode for the page's language, --psm 3 for English and --psm 6
for Korean (CLI_PSM), which a user would have to know to ask for:
  pages    each image page rendered by `pdftoppm -gray -r 300` into PGM: the pixels kebab-pdf
           renders at dpi 300 (both poppler Splash; compared by SHA-1 with `kebab-pdf --render`)
  time     one thread: `OMP_THREAD_LIMIT=1 tesseract PAGE.pgm out -l kor+eng --psm 3|6 --dpi
           300` per page (the floor; raw and less its time on a blank image: the start-up and
           model load it pays per page), before and after cold `kebab ingest`s of the same
           pixels as grey PNGs with [ingest.ocr] workers = 1: "auto", then the single pass
           "auto" is measured against, the CLI's mode forced (psm 3 on the English pages, 6 on
           the Korean); the `ms` of their pdf_ocr_finished events (recognition inside the
           worker, the mode's choice included) and auto's wall time per page; then workers = 0
           (one per core) on the three PDFs themselves: OCR pages/s, CPU time beside it, and
           the CLI on the page images as many at once as there are cores
  cer      character error rate (../shared/data/ocr/cer.py; pooled = sum of distances / sum of
           truth lengths), English and Korean apart: kebab's text of each PDF page (its own
           render path) and of each image, beside the CLI's on the same images (kor+eng, its
           best mode); for reference kebab on the page PNGs, the CLI at psm 3 on Korean (one
           mode for every page, as kebab before "auto"), the CLI with -l eng on English,
           floor-tesseract.tsv; and the mode kebab chose for each page
  cache    pdf_ocr_finished events read anew (cached=false) by re-ingests without a change and
           after a scanned PDF is renamed and an image moved; each OCR page searched by eight
           of its own words: is the top hit a region citation of that page?
Targets (the OCR issues): time per page on one thread: a single pass (kebab in the CLI's
mode) <= 1.1x the CLI's (less its start-up), "auto" <= 1.3x a single pass; CER <= the CLI's
+ 0.005 per language; no page read again without a change or after a rename/move. Numbers are
printed, never asserted; --json-out writes them (units in the key names) for bench/suite.py.
5-6 minutes on 2 cores (--quick, 3 pages per PDF: about 2).
kebab and its workers run from a copy taken at the start (a rebuild cannot mix two builds).
Usage: bench/ocr_bench.py [--quick] [--kebab PATH] [--work DIR] [--json-out PATH]
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.normpath(os.path.join(REPO, "..", "shared", "data", "ocr"))
import pdf_bench  # noqa: E402  (bench/ is on the path)
from lexical_bench import run  # noqa: E402
sys.path.insert(0, DATA)
try:
    import cer  # noqa: E402  (../shared/data/ocr/cer.py: prep, levenshtein)
except ImportError:
    cer = None

DPI = 300
LANGS = "kor+eng"
CLI_PSM = {"en": 3, "ko": 6}  # the CLI's best mode by language (Korean: issue 37's measurement)


def cli_psm(lang):
    """The CLI's mode for an item's language ("en", "ko", "en+de+fr+it+es+pt")."""
    return CLI_PSM.get(lang[:2], 3)
GROUPS = ("scanned_en", "scanned_ko", "images_en", "images_ko")


class Kebab(pdf_bench.Kebab):
    def __init__(self, binary, root, home, workers, psm="auto"):
        super().__init__(binary, root, home,
                         '[chunking]\noverlap_tokens = 0\n'
                         f'[ingest.ocr]\nworkers = {workers}\nlanguages = ["kor", "eng"]\n'
                         f'page_segmentation_mode = {json.dumps(psm)}\n'
                         f'[ingest.pdf.ocr]\ndpi = {DPI}\n')
        # The workers set their own thread limit (kebab-ocr); an inherited one would mask that.
        self.env.pop("OMP_THREAD_LIMIT", None)
        self.warnings = []

    def ingest(self):
        """One `kebab --json ingest`: a dict of wall_s, rss_mb, cpu_s (user + system, workers
        included), report, ocr (its pdf_ocr_finished events), docs (doc_path -> doc_id)."""
        t0 = time.perf_counter()
        p = run(["/usr/bin/time", "-f", "%M %U %S"] + self.base + ["--json", "ingest"],
                env=self.env)
        wall = time.perf_counter() - t0
        events = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
        if p.returncode != 0 or not events:
            sys.exit(f"kebab ingest failed ({p.returncode}): {p.stderr[-2000:]}")
        last = (p.stderr.strip().splitlines() or [""])[-1].split()
        rss, cpu = (int(last[0]) / 1024, float(last[1]) + float(last[2])) \
            if len(last) == 3 and last[0].isdigit() else (0.0, 0.0)
        report = events[-1]
        self.warnings += report.get("warnings") or []
        return {"wall_s": wall, "rss_mb": rss, "cpu_s": cpu, "report": report,
                "ocr": [e for e in events if e.get("kind") == "pdf_ocr_finished"],
                "docs": {i["doc_path"]: i["doc_id"] for i in report.get("items") or []
                         if i.get("doc_id")}}

    def call(self, *cmd):
        """`kebab --json CMD...`: (its JSON output or None, its stderr)."""
        p = run(self.base + ["--json"] + list(cmd), env=self.env)
        try:
            return (json.loads(p.stdout) if p.returncode == 0 else None), p.stderr.strip()
        except ValueError:
            return None, p.stderr.strip()

    def fetch(self, doc_id):
        """A document's whole text (`fetch doc`): "" when it fails."""
        return (self.call("fetch", "doc", doc_id)[0] or {}).get("text", "")

    def page_text(self, doc_id, page, failures):
        """A PDF page's text: `fetch span DOC --page N`; when that fails (its message noted in
        `failures`), the blocks of that page from `inspect doc`, in order."""
        got, err = self.call("fetch", "span", doc_id, "--page", str(page))
        if got is not None:
            return got.get("text", "")
        failures.append(re.sub(r'.*"message":"([^"]*)".*', r"\1", err)[-200:])
        blocks = (self.call("inspect", "doc", doc_id)[0] or {}).get("blocks", [])
        return "\n".join(b["payload"].get("text", "") for b in blocks
                         if (b.get("source_span") or {}).get("page") == page)

    def psm(self, doc_id):
        """The page segmentation mode OCR read a document's first OCR page in (`inspect doc`),
        or None."""
        modes = ((self.call("inspect", "doc", doc_id)[0] or {}).get("metadata", {})
                 .get("user", {}).get("ocr_psm")) or [None]
        return modes[0]

    def top_citation(self, query):
        hits = (self.call("search", "--k", "1", query)[0] or {}).get("hits") or []
        return hits[0]["citation"] if hits else None


def tsv(path):
    with open(path, encoding="utf-8") as f:
        head, *rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    return [dict(zip(head, r)) for r in rows]


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def read_pgm(path):
    """(width, height, pixel bytes) of an 8-bit binary PGM."""
    with open(path, "rb") as f:
        data = f.read()
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+255\s", data)  # as pdftoppm and kebab-pdf write them
    return int(m.group(1)), int(m.group(2)), data[m.end():]


def write_png(path, width, height, pixels, dpi):
    """A minimal 8-bit greyscale PNG (filter 0 on every row) with its resolution in pHYs."""
    def chunk(tag, body):
        return (struct.pack(">I", len(body)) + tag + body +
                struct.pack(">I", zlib.crc32(tag + body) & 0xffffffff))
    raw = b"".join(b"\0" + pixels[y * width:(y + 1) * width] for y in range(height))
    ppm = round(dpi / 0.0254)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0,
                                                                   0, 0, 0)) +
                chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)) +
                chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def tesseract(image, out_base, langs, psm, dpi=None):
    """One whole `tesseract` process, one thread: (seconds, text)."""
    cmd = ["tesseract", image, out_base, "-l", langs, "--psm", str(psm)] + \
        (["--dpi", str(dpi)] if dpi else [])
    t0 = time.perf_counter()
    p = run(cmd, env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    secs = time.perf_counter() - t0
    if p.returncode != 0:
        print(f"        tesseract failed on {image}: {p.stderr.strip()[-300:]}", flush=True)
        return secs, ""
    return secs, read_text(out_base + ".txt")


def prepare_pdfs(quick, root):
    """The three PDFs in root (with --quick, their first 3 pages, via pdfseparate/pdfunite)."""
    os.makedirs(root)
    for name in ("scanned-en.pdf", "scanned-ko.pdf", "mixed-en.pdf"):
        src, dst = os.path.join(DATA, "scanned", name), os.path.join(root, name)
        if not quick:
            shutil.copy(src, dst)
            continue
        tmp = tempfile.mkdtemp(prefix="split-", dir=os.path.dirname(root))
        run(["pdfseparate", "-f", "1", "-l", "3", src, os.path.join(tmp, "p-%d.pdf")])
        run(["pdfunite"] + [os.path.join(tmp, f"p-{i}.pdf") for i in (1, 2, 3)] + [dst])
        shutil.rmtree(tmp)


def render(items, pdf_root, work, kebab):
    """Each item's page by pdftoppm into work/pgm and by `kebab-pdf --render`: (pages with the
    same pixels, pages the same but for a row more in one, pages compared)."""
    pgm_dir, kebab_dir = os.path.join(work, "pgm"), os.path.join(work, "kebab-render")
    for it in items:
        base = os.path.join(pgm_dir, f"{it['stem']}-p{it['page']:02d}")
        run(["pdftoppm", "-gray", "-r", str(DPI), "-f", str(it["page"]), "-l", str(it["page"]),
             "-singlefile", os.path.join(pdf_root, it["pdf"]), base])
        it["pgm"] = base + ".pgm"
    worker = os.path.join(os.path.dirname(os.path.realpath(kebab)), "kebab-pdf")
    same = cropped = compared = 0
    for pdf in sorted({it["pdf"] for it in items}):
        pages = [it for it in items if it["pdf"] == pdf]
        out = os.path.join(kebab_dir, pdf)
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(pdf_root, pdf), "rb") as f:
            subprocess.run([worker, "--render", out, "--dpi", str(DPI), "--pages",
                            ",".join(str(it["page"]) for it in pages)], stdin=f,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for it in pages:
            w, h, ours = read_pgm(it["pgm"])
            it["size"] = (w, h)
            theirs = os.path.join(out, f"page-{it['page']}.pgm")
            if os.path.exists(theirs):
                tw, th, pixels = read_pgm(theirs)
                compared += 1
                if (tw, th) == (w, h):
                    same += hashlib.sha1(pixels).digest() == hashlib.sha1(ours).digest()
                elif tw == w:  # poppler-cpp and pdftoppm may round the height apart
                    rows = min(th, h) * w
                    cropped += pixels[:rows] == ours[:rows]
    shutil.rmtree(kebab_dir)
    return same, cropped, compared


def snapshot(kebab, work):
    """kebab and the workers beside it (where it looks for them), copied into work/bin: a
    rebuild during the run cannot mix two builds. The copy's path."""
    real = os.path.realpath(kebab)
    os.makedirs(os.path.join(work, "bin"))
    for name in ("kebab", "kebab-ocr", "kebab-pdf"):
        src = real if name == "kebab" else os.path.join(os.path.dirname(real), name)
        if os.path.exists(src):
            shutil.copy2(os.path.realpath(src), os.path.join(work, "bin", name))
    return os.path.join(work, "bin", "kebab")


def pooled(pairs):
    """(CER, distance, truth chars) over (truth, ocr) pairs, as cer.py's TOTAL row."""
    dist = chars = 0
    for truth, ocr in pairs:
        t = cer.prep(truth, False)
        dist += cer.levenshtein(cer.prep(ocr, False), t)
        chars += len(t)
    return (dist / chars if chars else 0.0), dist, chars


def counts(ing, paths=None):
    """What one ingest did: OCR events (for `paths` only when given), read vs cached, docs."""
    ocr = [e for e in ing["ocr"] if paths is None or e["path"] in paths]
    r = ing["report"]
    return {"ingest_s": ing["wall_s"], "ocr_events": len(ocr),
            "ocr_read": sum(1 for e in ocr if not e.get("cached")),
            "ocr_cached": sum(1 for e in ocr if e.get("cached")),
            "ocr_failures": sum(1 for e in ocr if e.get("failure_reason")),
            "ocr_events_all_docs": len(ing["ocr"]), "docs_new": r.get("new", 0),
            "docs_updated": r.get("updated", 0), "docs_unchanged": r.get("unchanged", 0),
            "docs_purged": r.get("purged", 0), "errors": r.get("errors", 0)}


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def one_thread(kebab, items, work):
    """Part 1: the CLI per page image, kebab (workers = 1) on the same pixels as PNG, "auto"
    and then the CLI's mode forced (the single pass), then the CLI again (its time per page is
    the mean of both passes, so a load that drifts during the run weighs on both sides
    alike)."""
    blank, cli_out = os.path.join(work, "blank.pgm"), os.path.join(work, "cli")
    with open(blank, "wb") as f:
        f.write(b"P5\n32 32\n255\n" + b"\xff" * 1024)
    startup = []

    def cli_pass(first):
        startup.extend(tesseract(blank, os.path.join(cli_out, "blank"), LANGS, 3, DPI)[0]
                       for _ in range(3))
        for it in items:
            base = os.path.join(cli_out, f"{it['stem']}-p{it['page']:02d}")
            secs, text = tesseract(it["pgm"], base, LANGS, cli_psm(it["lang"]), DPI)
            it.setdefault("cli_pass_s", []).append(secs)
            if first:
                it["cli"] = text
                if it["lang"] == "ko":
                    it["cli_psm3"] = tesseract(it["pgm"], base + "-psm3", LANGS, 3, DPI)[1]
                else:
                    it["cli_eng"] = tesseract(it["pgm"], base + "-eng", "eng", 3, DPI)[1]
        print(f"floor   tesseract CLI pass done (load average {load()})", flush=True)
    cli_pass(True)
    png_root = os.path.join(work, "pages")
    for it in items:  # and by the CLI's mode, for the single passes
        it["png"] = f"{it['stem']}-p{it['page']:02d}.png"
        for root in (png_root, os.path.join(work, f"pages-psm{cli_psm(it['lang'])}")):
            os.makedirs(root, exist_ok=True)
            write_png(os.path.join(root, it["png"]), *read_pgm(it["pgm"]), DPI)
    one = Kebab(kebab, png_root, os.path.join(work, "home-1"), workers=1)
    a = one.ingest()
    by_path = {e["path"]: e for e in a["ocr"]}
    for it in items:
        e = by_path.get(it["png"])
        it["kebab_ms"] = e["ms"] if e and not e.get("cached") else None
        doc = a["docs"].get(it["png"])
        it["kebab_png"] = one.fetch(doc) if doc else ""
        it["psm"] = one.psm(doc) if doc else None
    print(f"kebab   workers = 1 ingest, auto, done (load average {load()})", flush=True)
    for psm in sorted(set(CLI_PSM.values())):
        root = os.path.join(work, f"pages-psm{psm}")
        if not os.path.isdir(root):
            continue
        single = Kebab(kebab, root, os.path.join(work, f"home-psm{psm}"), workers=1, psm=psm)
        by_path = {e["path"]: e for e in single.ingest()["ocr"]}
        for it in items:
            e = by_path.get(it["png"]) if cli_psm(it["lang"]) == psm else None
            if e and not e.get("cached"):
                it["single_ms"] = e["ms"]
    print(f"kebab   workers = 1 ingests in the CLI's modes done (load average {load()})",
          flush=True)
    cli_pass(False)
    for it in items:
        it["cli_s"] = statistics.mean(it["cli_pass_s"])
    startup = statistics.median(startup)

    def times(sel):
        got = [it for it in items if sel(it)]
        ms = [it["kebab_ms"] for it in got if it["kebab_ms"] is not None]
        both = [it for it in got if it["kebab_ms"] is not None and it.get("single_ms")]
        cli = 1000 * sum(it["cli_s"] for it in got) / len(got) if got else None
        passes = {f"cli_pass{i + 1}_ms_per_page": 1000 * sum(p) / len(got)
                  for i, p in enumerate(zip(*(it["cli_pass_s"] for it in got)))}
        single = sum(it["single_ms"] for it in both) / len(both) if both else None
        return {"pages": len(got), "cli_ms_per_page": cli, **passes,
                "cli_minus_startup_ms_per_page": cli - 1000 * startup if cli else None,
                "kebab_ocr_ms_per_page": sum(ms) / len(ms) if ms else None,
                "kebab_single_pass_ms_per_page": single,
                "auto_over_single_pass": (sum(it["kebab_ms"] for it in both) / len(both) / single
                                          if single else None),
                "pages_psm6": sum(it.get("psm") == 6 for it in got)}
    t = times(lambda it: True)
    t.update({"cli_startup_ms": 1000 * startup, "kebab_ingest_s": a["wall_s"],
              "kebab_wall_ms_per_page": 1000 * a["wall_s"] / len(items),
              "kebab_peak_rss_mb": a["rss_mb"], "kebab_ocr_events": len(a["ocr"]),
              "kebab_cpu_s": a["cpu_s"],
              "en": times(lambda it: it["lang"] != "ko"),
              "ko": times(lambda it: it["lang"] == "ko")})
    if t["kebab_ocr_ms_per_page"] and t["cli_minus_startup_ms_per_page"]:
        t["kebab_over_cli"] = t["kebab_ocr_ms_per_page"] / t["cli_minus_startup_ms_per_page"]
        if t["kebab_single_pass_ms_per_page"]:
            t["single_pass_over_cli"] = (t["kebab_single_pass_ms_per_page"] /
                                         t["cli_minus_startup_ms_per_page"])
        t["kebab_wall_over_cli_raw"] = t["kebab_wall_ms_per_page"] / t["cli_ms_per_page"]
    return t, one.warnings


def cli_all_cores(items, work):
    """The CLI on every page image, as many at once as there are cores: pages/s."""
    t0, procs = time.perf_counter(), []
    for it in items:
        while sum(p.poll() is None for p in procs) >= os.cpu_count():
            time.sleep(0.01)
        procs.append(subprocess.Popen(
            ["tesseract", it["pgm"], os.path.join(work, "cli", "all-cores"), "-l", LANGS,
             "--psm", str(cli_psm(it["lang"])), "--dpi", str(DPI)],
            env=dict(os.environ, OMP_THREAD_LIMIT="1"),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    for p in procs:
        p.wait()
    return len(items) / (time.perf_counter() - t0)


def citations(kebab, items, images):
    """Each OCR page and image searched by eight of kebab's own words from it (not when those
    words are in another one too: phototest's text is in three images): does the top hit cite
    it as a region (a PDF: that page, at the render's dpi, a box inside the page)?"""
    right, checked, wrong = 0, 0, []
    every = items + images
    texts = [" ".join(re.findall(r"\w+", x["kebab"])) for x in every]
    for i, it in enumerate(every):
        words = re.findall(r"\w{3,}", texts[i])
        query = " ".join(words[len(words) // 2:len(words) // 2 + 8])
        if len(words) < 8 or any(query in t for j, t in enumerate(texts) if j != i):
            continue
        checked += 1
        c = kebab.top_citation(query)
        ok = bool(c) and c.get("kind") == "region" and c.get("path") == it["path"]
        if ok and "page" in it:
            w, h = it["size"]
            ok = c.get("page") == it["page"] and c.get("dpi") == DPI and \
                min(c["x"], c["y"]) >= 0 and min(c["w"], c["h"]) > 0 and \
                c["x"] + c["w"] <= w and c["y"] + c["h"] <= h
        right += ok
        if not ok:
            wrong.append(f"{it['id']}: {c.get('uri') if c else None}")
    return right, checked, wrong


def all_cores_and_cache(kebab, items, images, root, work, quick, anomalies):
    """Part 2 and 3: workers = 0 on the PDFs (cold, then no change), the images added, no
    change again, then a PDF renamed and an image moved."""
    multi = Kebab(kebab, root, os.path.join(work, "home-0"), workers=0)
    b = multi.ingest()
    pages = sum(not quick or int(x["page"]) <= 3
                for x in tsv(os.path.join(DATA, "scanned", "index.tsv")))
    n = len(b["ocr"])
    allc = {"workers": 0, "cores": os.cpu_count(), "pdfs": 3, "pages": pages, "ocr_pages": n,
            "cold_ingest_s": b["wall_s"], "ocr_pages_per_s": n / b["wall_s"],
            "peak_rss_mb": b["rss_mb"], "cpu_s": b["cpu_s"],
            "ocr_engine": next((e.get("ocr_engine") for e in b["ocr"]), None),
            "cli_ocr_pages_per_s": cli_all_cores(items, work)}
    allc["kebab_over_cli"] = allc["ocr_pages_per_s"] / allc["cli_ocr_pages_per_s"]
    for it in items:
        os.remove(it["pgm"])
    seen = sorted((e["path"], e["page"]) for e in b["ocr"])
    if seen != sorted((it["path"], it["page"]) for it in items):
        anomalies.append(f"cold PDF ingest: pdf_ocr_finished for {seen}, expected each OCR "
                         "page once")
    failures = []
    for it in items:
        it["kebab"] = multi.page_text(b["docs"].get(it["path"], "-"), it["page"], failures)
    if failures:
        anomalies.append(f"`fetch span DOC --page N` failed on {len(failures)} of {len(items)} "
                         f"OCR pages ({failures[0]}); their text came from `inspect doc`")
    cache = {"noop_after_cold": counts(multi.ingest())}
    os.makedirs(os.path.join(root, "images"))
    for im in images:
        shutil.copy(os.path.join(DATA, "images", im["id"]), os.path.join(root, "images"))
    c = multi.ingest()
    cache["images_added"] = counts(c)
    for im in images:
        doc = c["docs"].get(im["path"])
        im["kebab"] = multi.fetch(doc) if doc else ""
        im["psm"] = multi.psm(doc) if doc else None
    seen = sorted(e["path"] for e in c["ocr"] if e.get("media") == "image")
    if seen != sorted(im["path"] for im in images):
        anomalies.append(f"images added: pdf_ocr_finished for {seen}, expected each image once")
    allc["image_event_pages"] = sorted({e["page"] for e in c["ocr"] if e.get("media") == "image"})
    cache["noop"] = counts(multi.ingest())
    cited = citations(multi, items, images)
    moves = {"pdfs/scanned-ko.pdf": "renamed/scanned-ko-renamed.pdf",
             "images/phototest.tif": "moved/phototest-moved.tif"}
    for old, new in moves.items():
        os.makedirs(os.path.dirname(os.path.join(root, new)), exist_ok=True)
        os.rename(os.path.join(root, old), os.path.join(root, new))
    cache["moved"] = counts(multi.ingest(), set(moves.values()))
    cache["moved"]["ocr_expected"] = 1 + sum(it["pdf"] == "scanned-ko.pdf" for it in items)
    return allc, cache, cited, multi.warnings


def cer_groups(items, images):
    """Pooled CER per group: kebab, the CLI (kor+eng, its best mode), and for reference kebab on
    the page PNGs, the CLI at psm 3 (Korean), with eng (English) and the data's published
    floor-tesseract.tsv."""
    floor_rows = {r["item"]: r for r in tsv(os.path.join(DATA, "floor-tesseract.tsv"))}
    out = {}
    for key in GROUPS:
        sel = [x for x in items + images if x["group"] == key]
        g = {"items": len(sel), "truth_chars": pooled([(x["truth"], "") for x in sel])[2]}
        for k in ("kebab", "kebab_png", "cli", "cli_psm3", "cli_eng"):
            if all(k in x for x in sel):
                g[k] = pooled([(x["truth"], x[k]) for x in sel])[0]
        fl = [floor_rows[x["id"]] for x in sel if x["id"] in floor_rows]
        if fl:
            g["published_floor"] = (sum(int(r["distance"]) for r in fl) /
                                    max(1, sum(int(r["truth_chars"]) for r in fl)))
        g["kebab_minus_cli"] = g["kebab"] - g["cli"]
        g["kebab_psm6_items"] = sum(x.get("psm") == 6 for x in sel)
        out[key] = g
    return out


def report(items, images, t, allc, cers, cache, cited):
    f = lambda x, spec=".0f": "–" if x is None else format(x, spec)
    print(f"\n{'item':<24}{'lang':>5}{'CLI psm':>8}{'CLI ms':>8}{'kebab ms':>9}{'single':>7}"
          f"{'psm':>4}{'CER kebab':>10}{'kebab png':>10}{'CLI':>7}{'CLI psm3':>9}{'CLI eng':>8}")
    for x in items + images:
        cer_of = lambda k: f(pooled([(x["truth"], x[k])])[0], ".3f") if k in x else "–"
        print(f"{x['id']:<24}{x['lang'][:4]:>5}{cli_psm(x['lang']):>8}"
              f"{f(x.get('cli_s') and 1000 * x['cli_s']):>8}{f(x.get('kebab_ms')):>9}"
              f"{f(x.get('single_ms')):>7}{f(x.get('psm'), 'd'):>4}{cer_of('kebab'):>10}"
              f"{cer_of('kebab_png'):>10}{cer_of('cli'):>7}{cer_of('cli_psm3'):>9}"
              f"{cer_of('cli_eng'):>8}")
    print("(CLI ms: whole process, in the CLI's mode for the language; kebab ms: in-worker "
          "recognition, workers = 1,\n \"auto\", of the page PNG; single: the same with the "
          "CLI's mode forced; psm: the mode \"auto\" read it in;\n CER kebab: PDF pages through "
          "kebab's render path, images as files)")
    print(f"\n1. time per page (ms), one thread, {LANGS}, {DPI} dpi, the same "
          f"{len(items)} page images{'all':>17}{'en':>7}{'ko':>7}")
    for label, key in (("tesseract CLI (psm 3 en, 6 ko), whole process", "cli_ms_per_page"),
                       (f"  less its start-up ({t['cli_startup_ms']:.0f} ms, blank image)",
                        "cli_minus_startup_ms_per_page"),
                       ("kebab, the CLI's mode forced: a single pass (event ms)",
                        "kebab_single_pass_ms_per_page"),
                       ("kebab, \"auto\" (event ms)", "kebab_ocr_ms_per_page")):
        print(f"   {label:<78}{f(t[key]):>7}{f(t['en'][key]):>7}{f(t['ko'][key]):>7}")
    ratio = lambda x: f(x["auto_over_single_pass"], ".2f")
    print(f"   {'kebab, auto / single pass (target <= 1.3)':<78}{ratio(t):>7}{ratio(t['en']):>7}"
          f"{ratio(t['ko']):>7}")
    print(f"   {'pages auto read at psm 6':<78}{t['pages_psm6']:>7}{t['en']['pages_psm6']:>7}"
          f"{t['ko']['pages_psm6']:>7}")
    print(f"   {'kebab, cold ingest wall / pages (workers = 1)':<71}"
          f"{f(t['kebab_wall_ms_per_page']):>7}")
    print(f"   (CLI before and after kebab: {f(t['cli_pass1_ms_per_page'])} and "
          f"{f(t['cli_pass2_ms_per_page'])} ms per page; "
          f"kebab's ingest {t['kebab_ingest_s']:.1f} s, CPU {t['kebab_cpu_s']:.1f} s)\n"
          f"   kebab / CLI less start-up: auto {f(t.get('kebab_over_cli'), '.2f')}, a single "
          f"pass {f(t.get('single_pass_over_cli'), '.2f')} (target <= 1.1); "
          f"kebab wall / CLI whole {f(t.get('kebab_wall_over_cli_raw'), '.2f')}; kebab peak RSS "
          f"{t['kebab_peak_rss_mb']:.0f} MB")
    print(f"   workers = 0 ({allc['cores']} cores), cold ingest of the 3 PDFs ({allc['pages']} "
          f"pages, {allc['ocr_pages']} read by OCR): {allc['cold_ingest_s']:.1f} s = "
          f"{allc['ocr_pages_per_s']:.2f} OCR pages/s; peak RSS {allc['peak_rss_mb']:.0f} MB;"
          f"\n   CPU {allc['cpu_s']:.1f} s = "
          f"{allc['cpu_s'] / allc['cold_ingest_s']:.2f} cores busy on average, "
          f"{1000 * allc['cpu_s'] / max(1, allc['ocr_pages']):.0f} ms per OCR page "
          f"(a busy machine shows here; load average now {load()});\n   the CLI on the same "
          f"pages, {allc['cores']} at once: {allc['cli_ocr_pages_per_s']:.2f} pages/s; kebab / "
          f"CLI {allc['kebab_over_cli']:.2f}")
    print(f"\n2. CER, pooled{'kebab':>14}{'kebab png':>11}{'CLI best':>10}{'CLI psm3':>10}"
          f"{'CLI eng':>9}{'published':>11}   kebab-CLI (target <= +0.005)")
    for key, g in cers.items():
        print(f"   {key:<19}{f(g['kebab'], '.4f'):>8}{f(g.get('kebab_png'), '.4f'):>11}"
              f"{f(g['cli'], '.4f'):>10}{f(g.get('cli_psm3'), '.4f'):>10}"
              f"{f(g.get('cli_eng'), '.4f'):>9}"
              f"{f(g.get('published_floor'), '.4f'):>11}{g['kebab_minus_cli']:>+11.4f}  "
              f"({g['items']} items, {g['truth_chars']} chars, {g['kebab_psm6_items']} at psm 6)")
    print("   CLI best: kor+eng, --psm 3 English, --psm 6 Korean; CLI psm3: Korean at --psm 3")
    print("   published: floor-tesseract.tsv (pdfimages originals, -l eng; Korean -l kor+eng "
          "--psm 6)")
    print(f"\n3. OCR cache{'OCR events':>29}{'read anew':>11}{'cached':>8}   docs unchanged/"
          "updated/new/purged      s")
    for key, label in (("noop_after_cold", "re-ingest after cold, PDFs"),
                       ("images_added", "8 images added"), ("noop", "re-ingest, no change"),
                       ("moved", "PDF renamed + image moved")):
        x = cache[key]
        print(f"   {label:<29}{x['ocr_events']:>10}{x['ocr_read']:>11}{x['ocr_cached']:>8}"
              f"{x['docs_unchanged']:>14}/{x['docs_updated']}/{x['docs_new']}/{x['docs_purged']}"
              f"{x['ingest_s']:>14.1f}")
    print(f"   target: read anew 0 without a change and after the rename/move (events of the two "
          f"moved files; {cache['moved']['ocr_expected']} expected, all cached)")
    right, checked, wrong = cited
    print(f"\ncitations: {right} of {checked} OCR pages/images searched by 8 of their own words "
          "got a region citation of that page/image as top hit; lone images' events carry page "
          f"{', '.join(map(str, allc['image_event_pages']))}")
    for w in wrong[:8]:
        print(f"   wrong: {w}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="only the first 3 pages of each PDF")
    ap.add_argument("--kebab", default=os.path.join(REPO, "build", "kebab"))
    ap.add_argument("--work", default=None, help="scratch directory (default: a temp one)")
    ap.add_argument("--json-out")
    args = ap.parse_args()
    if not os.access(args.kebab, os.X_OK):
        print(f"{args.kebab} is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2
    if not os.path.isdir(DATA) or cer is None:
        print(f"skipped: {DATA} is absent (../shared/data)", file=sys.stderr)
        return 0
    missing = [t for t in ("tesseract", "pdftoppm", "pdfunite") if not shutil.which(t)]
    if missing:
        print(f"{', '.join(missing)} missing: apt-get install tesseract-ocr tesseract-ocr-kor "
              "poppler-utils", file=sys.stderr)
        return 2
    work = args.work or tempfile.mkdtemp(prefix="kebab-ocr-bench-")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "cli"))
    kebab = snapshot(args.kebab, work)
    built = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.stat(kebab).st_mtime))
    version = run([kebab, "--version"]).stdout.strip()
    root = os.path.join(work, "scans")  # the workspace of the workers = 0 runs
    prepare_pdfs(args.quick, os.path.join(root, "pdfs"))
    items = []  # the image pages of the PDFs
    for row in tsv(os.path.join(DATA, "scanned", "index.tsv")):
        page = int(row["page"])
        if row["layer"] == "image" and (page <= 3 or not args.quick):
            items.append({"id": f"{row['pdf']} p{page}", "pdf": row["pdf"], "page": page,
                          "path": f"pdfs/{row['pdf']}", "stem": row["pdf"][:-4],
                          "lang": row["lang"], "group": "scanned_" + row["lang"][:2],
                          "truth": read_text(os.path.join(DATA, "scanned", row["truth"]))})
    images = [{"id": r["image"], "path": f"images/{r['image']}", "lang": r["lang"],
               "group": "images_" + r["lang"][:2],
               "truth": read_text(os.path.join(DATA, "images", r["truth"]))}
              for r in tsv(os.path.join(DATA, "images", "index.tsv"))]
    n_en = sum(it["lang"] != "ko" for it in items)
    print(f"== {len(items)} scanned pages ({n_en} English, {len(items) - n_en} Korean) and "
          f"{len(images)} images; {version} built {built}; {os.cpu_count()} cores; load "
          f"average {load()}", flush=True)
    os.makedirs(os.path.join(work, "pgm"))
    same, cropped, compared = render(items, os.path.join(root, "pdfs"), work, kebab)
    print(f"render  pdftoppm -gray -r {DPI} vs kebab-pdf --render --dpi {DPI}: {same} of "
          f"{compared} pages with identical pixels (SHA-1)" +
          (f", {cropped} identical but for a row or column more on one side (page size "
           "rounded apart)" if cropped else ""), flush=True)

    anomalies = []
    t, warnings = one_thread(kebab, items, work)
    allc, cache, cited, more = all_cores_and_cache(kebab, items, images, root, work, args.quick,
                                                   anomalies)
    for im in images:  # the CLI on the images, at their own resolution as kebab reads them
        src, base = os.path.join(DATA, "images", im["id"]), os.path.join(work, "cli", im["id"])
        im["cli_s"], im["cli"] = tesseract(src, base, LANGS, cli_psm(im["lang"]))
        if im["lang"] == "ko":
            im["cli_psm3"] = tesseract(src, base + "-psm3", LANGS, 3)[1]
        else:
            im["cli_eng"] = tesseract(src, base + "-eng", "eng", 3)[1]
    cers = cer_groups(items, images)
    report(items, images, t, allc, cers, cache, cited)
    warnings = list(dict.fromkeys(warnings + more))
    for w in warnings:
        print(f"kebab warning: {w}")
    for a in anomalies:
        print(f"anomaly: {a}")
    if args.json_out:
        cli = run(["tesseract", "--version"]).stdout.splitlines()[:1]
        out = {"quick": args.quick, "scanned_pages": len(items), "images": len(images),
               "kebab_version": version, "kebab_built": built,
               "cli": cli[0] if cli else None, "render_identical_pages": same,
               "render_identical_but_size_pages": cropped, "render_compared_pages": compared,
               "one_thread": t, "all_cores": allc, "cer": cers, "cache": cache,
               "citations_right": cited[0], "citations_checked": cited[1],
               "warnings": warnings, "anomalies": anomalies}
        with open(args.json_out, "w") as f:
            json.dump(out, f, indent=2, ensure_ascii=False)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
