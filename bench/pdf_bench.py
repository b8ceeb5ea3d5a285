#!/usr/bin/python3
"""Whole-program benchmark of kebab's PDF pipeline against its floor and its peer.

On the ten real text PDFs of ../shared/data/pdf/text (1,205 pages), in one run:
  kebab    cold `kebab ingest` (pages/s, peak RSS of the largest process: kebab or one of its
           kebab-pdf workers), then a no-op re-ingest
  floor    `pdftotext` (poppler-utils, the same poppler) over the same files, as many at once
           as there are cores, plus a bare SQLite FTS5 table (unicode61) loaded with its pages
           in one transaction (Python's sqlite3): the least any poppler-based indexer can do
  recoll   recollindex (Debian recollcmd; its PDF filter runs pdftotext), cold and no-op
  pages    page accuracy: sentences from the reference text of random pages (a line found on
           exactly one page of the corpus), each searched as a whole `kebab search --k 1`
           process; the share whose top hit cites that very page (`file.pdf#p=N`)
  big      a generated 2,000-page PDF (tests/tools/make_pdf.py) ingested alone: pages/s and
           peak RSS (pages are streamed from the worker, so memory must not grow with pages)
Targets (issue 23): cold ingest <= 2x the floor and faster than Recoll; peak RSS < 300 MB;
no-op re-ingest < 0.2 s; page accuracy >= 98%. Numbers are printed, never asserted;
--json-out writes them (units in the key names) for bench/suite.py.
Usage: bench/pdf_bench.py [--sentences N] [--big-pages N] [--kebab PATH] [--json-out PATH]
"""
import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.normpath(os.path.join(REPO, "..", "shared", "data", "pdf", "text"))
sys.path.insert(0, os.path.join(REPO, "tests", "tools"))
from make_pdf import make_pdf  # noqa: E402
from lexical_bench import index_recoll, run, timed  # noqa: E402  (bench/ is on the path)


class Kebab:
    def __init__(self, binary, root, home, extra_config=""):
        shutil.rmtree(home, ignore_errors=True)
        os.makedirs(home)
        self.config = os.path.join(home, "config.toml")
        with open(self.config, "w") as f:
            f.write(f'[workspace]\nroot = "{root}"\n[storage]\ndata_dir = "{home}/data"\n'
                    f'cache_dir = "{home}/cache"\nstate_dir = "{home}/state"\n'
                    '[models.embedding]\nprovider = "none"\n' + extra_config)
        self.base = [binary, "--config", self.config]
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("KEBAB_")}
        self.env.update({"HOME": home, "NO_COLOR": "1", "LC_ALL": "C.UTF-8"})

    def ingest(self):
        secs, rss, p = timed(self.base + ["--json", "ingest", "--summary-only"], env=self.env)
        if p.returncode != 0:
            sys.exit(f"kebab ingest failed ({p.returncode}): {p.stderr[-2000:]}")
        return secs, rss, json.loads(p.stdout.strip().splitlines()[-1])

    def top_uri(self, query):
        p = run(self.base + ["--json", "search", "--k", "1", query], env=self.env)
        if p.returncode not in (0, 1):
            return None
        hits = json.loads(p.stdout).get("hits") or []
        return hits[0]["citation"]["uri"] if hits else None


def floor(files, work):
    """pdftotext over `files` (cores at once), then its pages into a bare FTS5 table."""
    out = os.path.join(work, "floor")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    t0 = time.perf_counter()
    procs = []
    for f in files:
        while len([p for p in procs if p.poll() is None]) >= os.cpu_count():
            time.sleep(0.002)
        procs.append(subprocess.Popen(
            ["pdftotext", "-enc", "UTF-8", f, os.path.join(out, os.path.basename(f) + ".txt")]))
    for p in procs:
        p.wait()
    extract = time.perf_counter() - t0
    db = os.path.join(work, "floor.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    # One row per page (pdftotext ends each page with a form feed), in one transaction.
    t1 = time.perf_counter()
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE VIRTUAL TABLE t USING fts5(path, page, body, "
                "tokenize='unicode61 remove_diacritics 2')")
    rows = 0
    with con:
        for name in sorted(os.listdir(out)):
            with open(os.path.join(out, name), encoding="utf-8", errors="replace") as f:
                pages = f.read().split("\f")[:-1]
            con.executemany("INSERT INTO t VALUES (?, ?, ?)",
                            [(name, i + 1, body) for i, body in enumerate(pages)])
            rows += len(pages)
    con.close()
    load = time.perf_counter() - t1
    return {"pdftotext_s": extract, "fts5_load_s": load, "total_s": extract + load, "pages": rows}


def recoll(root, work):
    if not shutil.which("pdftotext"):
        return None
    stats, _ = index_recoll(root, work)  # cold and no-op recollindex, as lexical_bench does
    if stats is None:
        return None
    # How many PDFs it indexed (its PDF filter needs pdftotext and python3).
    p = run(["recollq", "-c", os.path.join(work, "recoll-conf"), "-b", "mime:application/pdf"])
    docs = len([line for line in p.stdout.splitlines() if line.startswith("file://")])
    return {**stats, "pdfs_indexed": docs}


def page_sentences(n, seed=7):
    """(file, page, query) for n random pages: the first ten words of a line of prose on that
    page, words found in that order on no other page of the corpus (a table of contents line
    repeats a heading, a licence repeats itself across manuals: neither says which page is
    right). The reference is `pdftotext -layout`, so a line is cut at runs of 3+ spaces (two
    columns side by side are two pieces), a piece continuing a word hyphenated at the end of
    the line before is skipped, and a word hyphenated at a piece's end is left out."""
    def words(text):
        return [w.lower() for w in re.findall(r"\w+", text)]

    pages = []
    for pages_dir in sorted(d for d in os.listdir(DATA) if d.endswith(".pages")):
        name = pages_dir[:-6] + ".pdf"
        for page_file in sorted(os.listdir(os.path.join(DATA, pages_dir))):
            with open(os.path.join(DATA, pages_dir, page_file), encoding="utf-8") as f:
                lines = f.read().replace("\f", "").splitlines()
            pieces, hyphen_before = [], False
            for line in lines:
                parts = [p for p in re.split(r"\s{3,}", line.strip()) if p]
                for i, piece in enumerate(parts):
                    if i == 0 and hyphen_before:
                        continue
                    pieces.append(piece.rsplit(" ", 1)[0] if piece.endswith("-") else piece)
                hyphen_before = bool(parts) and parts[-1].endswith("-")
            stream = " " + " ".join(" ".join(words(p)) for p in pieces) + " "
            pages.append((name, int(page_file[:4]), pieces, stream))
    rng = random.Random(seed)
    order = list(range(len(pages)))
    rng.shuffle(order)
    cases = []
    for i in order:
        name, page, pieces, _ = pages[i]
        # Eight words or more, mostly letters (Hangul included).
        prose = sorted({p for p in pieces if len(words(p)) >= 8 and
                        sum(c.isalpha() for c in p) > 0.7 * len(p.replace(" ", ""))})
        rng.shuffle(prose)
        for piece in prose:
            query = words(piece)[:10]
            needle = " " + " ".join(query) + " "
            if sum(needle in other[3] for other in pages) == 1:
                cases.append((name, page, " ".join(re.findall(r"\w+", piece)[:10])))
                break
        if len(cases) >= n:
            break
    return cases


def big_pdf(path, pages):
    rng = random.Random(3)
    vocab = ("walrus seal harbour tide ice floe krill clam colony pup moult haul sandbank "
             "current fjord skerry").split()
    make_pdf(path, [[f"Page {i + 1} of the long log."] +
                    [" ".join(rng.choice(vocab) for _ in range(12)) for _ in range(30)]
                    for i in range(pages)])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sentences", type=int, default=200, help="page-accuracy queries")
    ap.add_argument("--big-pages", type=int, default=2000, help="pages of the generated PDF")
    ap.add_argument("--kebab", default=os.path.join(REPO, "build", "kebab"))
    ap.add_argument("--work", default=None, help="scratch directory (default: a temp one)")
    ap.add_argument("--no-recoll", action="store_true", help="skip Recoll (minutes per run)")
    ap.add_argument("--json-out")
    args = ap.parse_args()
    if not os.access(args.kebab, os.X_OK):
        print(f"{args.kebab} is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2
    if not os.path.isdir(DATA):
        print(f"skipped: {DATA} is absent (../shared/data)", file=sys.stderr)
        return 0
    work = args.work or tempfile.mkdtemp(prefix="kebab-pdf-bench-")
    root = os.path.join(work, "pdfs")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    files = []
    for name in sorted(os.listdir(DATA)):
        if name.endswith(".pdf"):
            shutil.copy(os.path.join(DATA, name), root)
            files.append(os.path.join(root, name))
    pages_total = sum(len(os.listdir(os.path.join(DATA, n[:-4] + ".pages")))
                      for n in os.listdir(DATA) if n.endswith(".pdf"))
    print(f"== {len(files)} PDFs, {pages_total} pages, in {root}", flush=True)

    kebab = Kebab(args.kebab, root, os.path.join(work, "kebab-home"))
    cold, rss, report = kebab.ingest()
    noop, noop_rss, again = kebab.ingest()
    print(f"kebab   cold ingest {cold:.2f} s ({pages_total / cold:.0f} pages/s), peak RSS "
          f"{rss:.0f} MB, {report['new']} new, {report['errors']} errors, "
          f"{report['chunks_indexed']} chunks; no-op {noop:.3f} s ({again['unchanged']} "
          "unchanged)", flush=True)
    fl = floor(files, work)
    print(f"floor   pdftotext {fl['pdftotext_s']:.2f} s ({os.cpu_count()} at once) + FTS5 load "
          f"{fl['fts5_load_s']:.2f} s of {fl['pages']} pages = {fl['total_s']:.2f} s; kebab / "
          f"floor {cold / fl['total_s']:.2f}x (target <= 2)", flush=True)
    rc = None if args.no_recoll else recoll(root, work)
    if rc:
        print(f"recoll  cold {rc['cold_s']:.2f} s ({rc['pdfs_indexed']} PDFs indexed), peak RSS "
              f"{rc['peak_rss_mb']:.0f} MB, no-op {rc['noop_s']:.3f} s; kebab / recoll "
              f"{cold / rc['cold_s']:.2f}x (target < 1)", flush=True)
    else:
        print("recoll  skipped" + ("" if args.no_recoll else ": recollindex or pdftotext is "
                                   "missing"), flush=True)

    cases = page_sentences(args.sentences)
    right, wrong = 0, []
    for name, page, query in cases:
        top = kebab.top_uri(query)
        if top == f"{name}#p={page}":
            right += 1
        else:
            wrong.append((f"{name}#p={page}", top, query))
    accuracy = right / len(cases) if cases else 0.0
    print(f"pages   {right} of {len(cases)} sentences found their page: {accuracy:.1%} "
          "(target >= 98%)", flush=True)
    for want, got, query in wrong[:10]:
        print(f"        want {want} got {got}: {query[:70]}", flush=True)

    big_root = os.path.join(work, "big")
    shutil.rmtree(big_root, ignore_errors=True)
    os.makedirs(big_root)
    big_pdf(os.path.join(big_root, "long-log.pdf"), args.big_pages)
    big = Kebab(args.kebab, big_root, os.path.join(work, "big-home"))
    big_s, big_rss, big_report = big.ingest()
    print(f"big     {args.big_pages} pages in one PDF: {big_s:.2f} s "
          f"({args.big_pages / big_s:.0f} pages/s), peak RSS {big_rss:.0f} MB, "
          f"{big_report['chunks_indexed']} chunks", flush=True)

    if args.json_out:
        out = {"files": len(files), "pages": pages_total,
               "kebab": {"cold_ingest_s": cold, "pages_per_s": pages_total / cold,
                         "peak_rss_mb": rss, "noop_ingest_s": noop, "errors": report["errors"],
                         "chunks": report["chunks_indexed"]},
               "floor": fl, "kebab_over_floor": cold / fl["total_s"],
               "page_accuracy": accuracy, "page_queries": len(cases),
               "big": {"pages": args.big_pages, "ingest_s": big_s, "peak_rss_mb": big_rss,
                       "chunks": big_report["chunks_indexed"]}}
        if rc:
            out["recoll"] = rc
            out["kebab_over_recoll"] = cold / rc["cold_s"]
        with open(args.json_out, "w") as f:
            json.dump(out, f, indent=2)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
