#!/usr/bin/python3
"""A remembered passage: nine words from a page, typed as a person would, find that page?

Issue 37: "A remembered passage in a 2,400-page manual. Nine words remembered from a page
(short words and punctuation forgotten)" should find that page first. Pages of a reference
manual share most of their vocabulary, so what decides is that the words stand *together* on
the right page.

Corpora (each its own kebab index and its own floor table):
  shared-pdf  the 10 text PDFs of ../shared/data/pdf/text (1,205 pages; skipped with a message
              when ../shared is absent), pooled, with a line per PDF
  r-refman    refman.pdf, "The R Reference Index" (2,415 pages), and
  octave      octave.pdf, the GNU Octave manual (1,158 pages): from Debian's r-doc-pdf and
              octave-doc, fetched with `apt-get download` and unpacked with `dpkg -x` into
              ${KEBAB_BENCH_CACHE:-~/.cache/kebab-bench}/<package>_<version>/ once (nothing is
              installed into the system)
  astro-en    sections of astro-docs' en/ .mdx files (../shared/data/markdown/astro-docs.tar.gz,
  astro-ko    unpacked into the same cache), and of ko/ as a line of its own
A page's text is `pdftotext` (poppler-utils, reading order) of the whole file split at its form
feeds (the same text as `pdftotext -f N -l N`, checked), cached by the PDF's SHA-1. A Markdown
section runs from a heading (outside code fences) to the line before the next heading; the
text before the first heading is a section too.

Queries: for each sampled page or section (seeded; --queries per corpus, spread uniformly over
the shared PDFs' pooled pages) the words a person remembers and types: the text NFKC-folded and
lowercased, cut into words at anything that is not a letter or digit (punctuation forgotten),
words of fewer than 4 characters and words without a letter left out (short words forgotten;
a Hangul word is kept from 2 characters), then 9 consecutive remembered words from a random
start, joined by spaces. Markdown words come from the section's prose: code fences, import and
export lines, HTML/JSX tags and link targets are left out. A page or section with fewer than
--min-words remembered words is never sampled. A query is right on any page (section) whose
remembered words hold the same 9 in a row, so a passage printed twice is not charged to
anyone; the number of such queries is printed.

  kebab       `kebab ingest` (lexical only, `[models.embedding] provider = "none"`), then every
              query through `kebab --json search --bulk` (k 10, mode lexical; 100 queries per
              process, the most one takes). A hit counts for its page (citation.page) or, in
              Markdown, for every section of its file its cited lines overlap; a hit on a page
              (section) already ranked takes no rank of its own, so the 10 hits give at most
              10 ranks.
  floors      in the same run, a plain SQLite FTS5 table `fts5(body, tokenize='porter
              unicode61')`, one row per page (section: its raw lines), of the same text, queried
              with each word quoted ("word"), ORDER BY bm25 LIMIT 10 (the table holds the
              text as pdftotext gave it, so mpich-user.pdf's U+FB0x ligatures stay unfolded):
                FTS5 OR      the words OR-joined
                FTS5 AND     all words required (implicit AND)
                AND, else OR AND, and OR when AND finds nothing
Metrics: top-1 and top-10 accuracy (the right page first / among the first 10) and MRR@10; for
Markdown, also top-1 by file alone (any file of a right section). Pooled lines: shared-pdf per
PDF, and every PDF query of the run ("all PDFs"). kebab's misses on the big manuals are
printed with the page kebab put first, whether FTS5 AND got it, and how many of the 9 words
each page holds (and how many of the misses put first a page holding fewer of the words than
the right one).

Targets (issue 37): kebab's top-1 page accuracy >= the FTS5 AND floor's, and >= 0.95. Numbers
are printed, never asserted; --json-out writes them (units in the key names) for
bench/suite.py (as `passage`); --dump-queries writes every query as a JSONL line that
`kebab search --bulk` reads as it is, 100 lines per call (extra keys say the corpus, the
right pages and each system's rank of them).
--work DIR keeps the indexes there, so a re-run only re-ingests what changed (a no-op when
nothing did): the quick way to replay the queries while tuning the ranking.

Usage: bench/passage_bench.py [--quick] [--queries N] [--corpus NAME[,NAME...]] [--seed S]
           [--kebab PATH] [--work DIR] [--json-out PATH] [--dump-queries PATH] [--misses N]
Runtime on 2 shared cores (load average 3-4): about 1 minute for 500 queries per corpus (2,500
in all), of it 35 s ingesting; the first run adds ~40 s to fetch the packages and run pdftotext
once. --quick (50 queries per corpus) about 40 s, 6 s again with the same --work.
"""
import argparse
import glob
import hashlib
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
import unicodedata

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared", "data"))
PDF_DIR = os.path.join(SHARED, "pdf", "text")
ASTRO_TAR = os.path.join(SHARED, "markdown", "astro-docs.tar.gz")
CACHE = os.path.expanduser(os.environ.get("KEBAB_BENCH_CACHE") or "~/.cache/kebab-bench")

WORDS = 9          # words per query, as in the issue
MIN_CHARS = 4      # a remembered word has at least this many characters ...
MIN_HANGUL = 2     # ... or this many when it is Hangul
K = 10
BULK_MAX = 100     # app::kMaxBulkQueries

# Debian documentation packages holding a reference manual of 1,000+ pages.
MANUALS = {
    "r-refman": ("r-doc-pdf", "usr/share/R/doc/manual/refman.pdf"),
    "octave": ("octave-doc", "usr/share/doc/octave/octave.pdf"),
}
CORPORA = ("shared-pdf", "r-refman", "octave", "astro-en", "astro-ko")

WORD_RE = re.compile(r"[^\W_]+")
HANGUL_RE = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")


def log(msg):
    print(msg, flush=True)


# ------------------------------------------------------------------------------ words
def remembered(text):
    """The words a person remembers of `text`, in order: letters and digits only, lowercased,
    NFKC-folded (ligatures become letters), short words and pure numbers left out."""
    out = []
    for w in WORD_RE.findall(unicodedata.normalize("NFKC", text).lower()):
        if HANGUL_RE.search(w):
            if len(w) >= MIN_HANGUL:
                out.append(w)
        elif len(w) >= MIN_CHARS and any(c.isalpha() for c in w):
            out.append(w)
    return out


def markdown_prose(lines):
    """What a reader sees of Markdown lines: no code fences, imports, tags or link targets."""
    out, fence = [], None
    for line in lines:
        s = line.lstrip()
        m = re.match(r"(`{3,}|~{3,})", s)
        if fence:
            if m and s.startswith(fence) and not s[len(m.group(1)):].strip():
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        if re.match(r"(import|export)\s", s):
            continue
        s = re.sub(r"\]\([^)]*\)", "]", s)     # [text](target) -> [text]
        s = re.sub(r"<[^>]*>", " ", s)          # HTML / JSX tags
        out.append(s)
    return "\n".join(out)


# ------------------------------------------------------------------------------ corpora
class Unit:
    """A page or a section: what a query comes from and what a hit must point at."""
    __slots__ = ("path", "page", "start", "end", "label", "body", "words", "stream")

    def __init__(self, path, body, words, page=None, start=None, end=None, label=""):
        self.path, self.page, self.start, self.end = path, page, start, end
        self.label, self.body, self.words = label, body, words
        self.stream = " " + " ".join(words) + " "

    def where(self):
        if self.page:
            return f"{self.path}#p={self.page}"
        return f"{self.path}#L{self.start}-L{self.end}"


def sha1(path):
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def pdf_pages(pdf):
    """Each page's `pdftotext` text (reading order), cached by the PDF's SHA-1."""
    cache = os.path.join(CACHE, "pdftotext", sha1(pdf) + ".json")
    if os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            return json.load(f)
    p = subprocess.run(["pdftotext", "-enc", "UTF-8", pdf, "-"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    if p.returncode != 0:
        raise RuntimeError(f"pdftotext {pdf} failed ({p.returncode})")
    pages = p.stdout.decode("utf-8", errors="replace").split("\f")[:-1]
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache + ".tmp", "w", encoding="utf-8") as f:
        json.dump(pages, f, ensure_ascii=False)
    os.replace(cache + ".tmp", cache)
    return pages


def fetch_package(pkg):
    """CACHE/<pkg>_<version>/, the package unpacked by `dpkg -x` (fetched once by
    `apt-get download`); None when it cannot be had."""
    done = sorted(glob.glob(os.path.join(CACHE, f"{pkg}_*", ".unpacked")))
    if done:
        return os.path.dirname(done[-1])
    if not shutil.which("apt-get") or not shutil.which("dpkg"):
        log(f"  {pkg}: apt-get or dpkg is missing")
        return None
    os.makedirs(CACHE, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kebab-passage-deb-") as tmp:
        log(f"  apt-get download {pkg} (once; cached under {CACHE})")
        p = subprocess.run(["apt-get", "download", "-q", pkg], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        debs = glob.glob(os.path.join(tmp, "*.deb"))
        if p.returncode != 0 or not debs:
            log(f"  {pkg}: apt-get download failed: {p.stderr.strip()[-300:]} "
                "(an `apt-get update` may help)")
            return None
        version = subprocess.run(["dpkg-deb", "-f", debs[0], "Version"], stdout=subprocess.PIPE,
                                 text=True, check=True).stdout.strip().replace(":", "%3a")
        dest = os.path.join(CACHE, f"{pkg}_{version}")
        shutil.rmtree(dest, ignore_errors=True)
        subprocess.run(["dpkg", "-x", debs[0], dest], check=True)
        open(os.path.join(dest, ".unpacked"), "w").close()
        return dest


def pdf_corpus(name, pdfs):
    """Units (one per page) of the given PDFs {workspace name: source path}."""
    units = []
    for base, src in sorted(pdfs.items()):
        for i, text in enumerate(pdf_pages(src)):
            units.append(Unit(base, text, remembered(text), page=i + 1))
    return units


def astro_root(lang):
    """CACHE/astro-docs/.../docs/<lang>, unpacked once from the shared tarball."""
    dest = os.path.join(CACHE, "astro-docs-" + sha1(ASTRO_TAR)[:12])
    if not os.path.exists(os.path.join(dest, ".unpacked")):
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        with tarfile.open(ASTRO_TAR) as t:
            t.extractall(dest)
        open(os.path.join(dest, ".unpacked"), "w").close()
    return os.path.join(dest, "astro-docs", "src", "content", "docs", lang)


def markdown_corpus(root):
    """Units (one per section) of every .md/.mdx file under root."""
    units = []
    for d, _, files in sorted(os.walk(root)):
        for fname in sorted(files):
            if not fname.endswith((".md", ".mdx")):
                continue
            path = os.path.join(d, fname)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            first = 0
            if lines and lines[0].strip() == "---":  # front matter: part of no section
                for j in range(1, len(lines)):
                    if lines[j].strip() == "---":
                        first = j + 1
                        break
            heads, fence = [first], None
            for j in range(first, len(lines)):
                s = lines[j].lstrip()
                m = re.match(r"(`{3,}|~{3,})", s)
                if fence:
                    if m and s.startswith(fence) and not s[len(m.group(1)):].strip():
                        fence = None
                elif m:
                    fence = m.group(1)
                elif re.match(r" {0,3}#{1,6}(\s|$)", lines[j]) and j > first:
                    heads.append(j)
            heads.append(len(lines))
            for a, b in zip(heads, heads[1:]):
                if b <= a:
                    continue
                body = "\n".join(lines[a:b])
                words = remembered(markdown_prose(lines[a:b]))
                label = lines[a].strip() if lines[a].lstrip().startswith("#") else "(top)"
                units.append(Unit(rel, body, words, start=a + 1, end=b, label=label))
    return units


# ------------------------------------------------------------------------------ queries
def make_queries(units, n, rng, min_words):
    """n queries: 9 consecutive remembered words of a random eligible unit each, with every
    unit whose remembered words hold the same run (the accepted answers)."""
    eligible = [i for i, u in enumerate(units) if len(u.words) >= max(min_words, WORDS)]
    picks = rng.sample(eligible, min(n, len(eligible)))
    queries = []
    for i in picks:
        words = units[i].words
        start = rng.randrange(len(words) - WORDS + 1)
        run = words[start:start + WORDS]
        needle = " " + " ".join(run) + " "
        accept = {j for j, u in enumerate(units) if needle in u.stream}
        accept.add(i)
        queries.append({"unit": i, "text": " ".join(run), "words": run, "accept": accept})
    return queries


# ------------------------------------------------------------------------------ scoring
def score(ranked_lists, queries):
    """ranked_lists[q]: the ranks' unit-id sets, best first (at most 10). Top-1, top-10, MRR@10."""
    top1 = top10 = rr = 0.0
    for ranks, q in zip(ranked_lists, queries):
        for r, ids in enumerate(ranks[:K]):
            if ids & q["accept"]:
                top1 += r == 0
                top10 += 1
                rr += 1.0 / (r + 1)
                break
    n = len(queries) or 1
    return {"top1_accuracy": top1 / n, "top10_accuracy": top10 / n, "mrr_at_10": rr / n}


def first_rank(ranks, accept):
    for r, ids in enumerate(ranks[:K]):
        if ids & accept:
            return r + 1
    return None


# ------------------------------------------------------------------------------ floors
def fts5_floor(units, queries):
    """The three FTS5 rankings per query over one row per unit (rowid = unit id)."""
    con = sqlite3.connect(":memory:")
    con.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61')")
    t0 = time.perf_counter()
    with con:
        con.executemany("INSERT INTO t(rowid, body) VALUES (?, ?)",
                        ((i, u.body) for i, u in enumerate(units)))
    load_s = time.perf_counter() - t0

    def top(expr):
        sql = "SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?"
        return [{r[0]} for r in con.execute(sql, (expr, K))]

    out = {"or": [], "and": [], "and_else_or": []}
    t0 = time.perf_counter()
    for q in queries:
        quoted = ['"' + w.replace('"', '""') + '"' for w in q["words"]]
        any_word, all_words = top(" OR ".join(quoted)), top(" ".join(quoted))
        out["or"].append(any_word)
        out["and"].append(all_words)
        out["and_else_or"].append(all_words or any_word)
    query_ms = (time.perf_counter() - t0) * 1000 / max(1, len(queries))
    con.close()
    return out, load_s, query_ms


# ------------------------------------------------------------------------------ kebab
class Kebab:
    """An isolated kebab: its own config, data and HOME under `home` (kept when it exists,
    so a re-run re-ingests only what changed)."""

    def __init__(self, binary, root, home):
        os.makedirs(home, exist_ok=True)
        self.config = os.path.join(home, "config.toml")
        with open(self.config, "w") as f:
            f.write(f'[workspace]\nroot = "{root}"\n[storage]\ndata_dir = "{home}/data"\n'
                    f'cache_dir = "{home}/cache"\nstate_dir = "{home}/state"\n'
                    '[models.embedding]\nprovider = "none"\n')
        self.base = [binary, "--config", self.config]
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("KEBAB_")}
        self.env.update({"HOME": home, "NO_COLOR": "1", "LC_ALL": "C.UTF-8"})

    def ingest(self):
        t0 = time.perf_counter()
        p = subprocess.run(self.base + ["--json", "ingest", "--summary-only"], env=self.env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        secs = time.perf_counter() - t0
        if p.returncode != 0:
            raise RuntimeError(f"kebab ingest failed ({p.returncode}): {p.stderr[-2000:]}")
        return secs, json.loads(p.stdout.strip().splitlines()[-1])

    def bulk(self, texts):
        """Every query through `kebab --json search --bulk`, 100 per process: hits per query."""
        out = []
        for at in range(0, len(texts), BULK_MAX):
            batch = texts[at:at + BULK_MAX]
            stdin = "".join(json.dumps({"query": t, "k": K, "mode": "lexical", "id": at + j}) + "\n"
                            for j, t in enumerate(batch))
            p = subprocess.run(self.base + ["--json", "search", "--bulk"], input=stdin,
                               env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            if p.returncode != 0:
                raise RuntimeError(f"kebab search --bulk failed ({p.returncode}): "
                                   f"{p.stderr[-2000:]}")
            items = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
            if len(items) != len(batch):
                raise RuntimeError(f"kebab search --bulk gave {len(items)} items for "
                                   f"{len(batch)} queries")
            for item in sorted(items, key=lambda it: it["index"]):
                if item.get("error"):
                    log(f"  kebab: query {item['id']} failed: {item['error'].get('message')}")
                out.append(((item.get("response") or {}).get("hits")) or [])
        return out


def kebab_ranks(hits, units):
    """A query's hits as ranks of unit-id sets: a hit counts for its page (PDF) or for the
    sections of its file its lines overlap; a hit adding no new unit takes no rank."""
    by_page, by_path = {}, {}
    for i, u in enumerate(units):
        if u.page:
            by_page[(u.path, u.page)] = i
        else:
            by_path.setdefault(u.path, []).append(i)
    ranks, seen = [], set()
    for h in hits:
        c = h.get("citation") or {}
        path = c.get("path") or h.get("doc_path")
        if c.get("page") is not None:
            ids = {by_page[(path, c["page"])]} if (path, c["page"]) in by_page else set()
        elif c.get("start") is not None:
            lo, hi = c["start"], c.get("end") or c["start"]
            ids = {i for i in by_path.get(path, ()) if units[i].start <= hi and lo <= units[i].end}
        else:
            ids = set(by_path.get(path, ()))
        ids = ids or {("other", path, c.get("page"), c.get("start"))}
        if ids <= seen:
            continue
        seen |= ids
        ranks.append(ids)
    return ranks


# ------------------------------------------------------------------------------ report
SYSTEMS = (("kebab", "kebab (lexical)"), ("fts5_or", "FTS5 OR"), ("fts5_and", "FTS5 AND"),
           ("fts5_and_else_or", "FTS5 AND, else OR"))


def print_table(title, res):
    log(f"  {title}")
    log(f"    {'':20} {'top-1':>7} {'top-10':>7} {'MRR@10':>7}" +
        (f" {'file top-1':>10}" if "file_top1_accuracy" in res["kebab"] else ""))
    for key, label in SYSTEMS:
        r = res[key]
        extra = f" {r['file_top1_accuracy']:>10.3f}" if "file_top1_accuracy" in r else ""
        log(f"    {label:20} {r['top1_accuracy']:>7.3f} {r['top10_accuracy']:>7.3f} "
            f"{r['mrr_at_10']:>7.3f}{extra}")


def verdict(res):
    k, floor = res["kebab"]["top1_accuracy"], res["fts5_and"]["top1_accuracy"]
    ok = k >= floor and k >= 0.95
    return (f"    target top-1 >= FTS5 AND ({floor:.3f}) and >= 0.95: kebab {k:.3f}, "
            f"{'met' if ok else 'NOT met'}")


def results_for(queries, ranked):
    """{system: metrics} for a list of queries, each with its rankings per system."""
    out = {}
    for key, _ in SYSTEMS:
        out[key] = score([ranked[key][i] for i in range(len(queries))], queries)
    return out


def word_count(unit, words):
    have = set(unit.words)
    return sum(w in have for w in words)


def run_corpus(name, args, work, rng):
    """Builds the corpus, its queries, kebab's index and the floors; returns its record."""
    t_start = time.perf_counter()
    meta = {}
    if name == "shared-pdf":
        if not os.path.isdir(PDF_DIR):
            log(f"== {name}: skipped, {PDF_DIR} is absent (../shared/data)")
            return None
        pdfs = {f: os.path.join(PDF_DIR, f) for f in sorted(os.listdir(PDF_DIR))
                if f.endswith(".pdf")}
        kind = "pdf"
        meta["source"] = "../shared/data/pdf/text"
    elif name in MANUALS:
        pkg, inner = MANUALS[name]
        dest = fetch_package(pkg)
        if not dest or not os.path.exists(os.path.join(dest, inner)):
            log(f"== {name}: skipped, {pkg} could not be fetched")
            return None
        pdfs = {os.path.basename(inner): os.path.join(dest, inner)}
        kind = "pdf"
        meta["source"] = f"{os.path.basename(dest)}:/{inner}"
    else:
        if not os.path.exists(ASTRO_TAR):
            log(f"== {name}: skipped, {ASTRO_TAR} is absent (../shared/data)")
            return None
        root = astro_root(name.split("-")[1])
        kind = "markdown"
        meta["source"] = f"astro-docs.tar.gz: src/content/docs/{name.split('-')[1]}"

    t0 = time.perf_counter()
    if kind == "pdf":
        root = os.path.join(work, name, "files")
        os.makedirs(root, exist_ok=True)
        for base, src in pdfs.items():
            dst = os.path.join(root, base)
            if not os.path.exists(dst) or os.path.getsize(dst) != os.path.getsize(src):
                shutil.copy2(src, dst)
        units = pdf_corpus(name, pdfs)
    else:
        units = markdown_corpus(root)
    text_s = time.perf_counter() - t0
    files = len({u.path for u in units})
    queries = make_queries(units, args.queries, rng, args.min_words)
    unit_name = "pages" if kind == "pdf" else "sections"
    ambiguous = sum(len(q["accept"]) > 1 for q in queries)
    log(f"== {name}: {meta['source']}: {files} files, {len(units):,} {unit_name} "
        f"({text_s:.1f} s to read), {len(queries)} queries"
        f"{f', {ambiguous} with more than one right {unit_name[:-1]}' if ambiguous else ''}")

    kebab = Kebab(args.kebab, root, os.path.join(work, name, "home"))
    ingest_s, report = kebab.ingest()
    log(f"  kebab ingest {ingest_s:.1f} s: {report.get('new', 0)} new, "
        f"{report.get('unchanged', 0)} unchanged, {report.get('errors', 0)} errors, "
        f"{report.get('chunks_indexed', 0)} chunks")
    t0 = time.perf_counter()
    hits = kebab.bulk([q["text"] for q in queries])
    search_ms = (time.perf_counter() - t0) * 1000 / max(1, len(queries))
    floors, load_s, floor_ms = fts5_floor(units, queries)
    ranked = {"kebab": [kebab_ranks(h, units) for h in hits], "fts5_or": floors["or"],
              "fts5_and": floors["and"], "fts5_and_else_or": floors["and_else_or"]}
    log(f"  kebab search {search_ms:.1f} ms/query (bulk, whole processes); FTS5 load "
        f"{load_s:.1f} s, {floor_ms:.1f} ms/query for its three rankings")

    res = results_for(queries, ranked)
    if kind == "markdown":  # the right file, sections aside
        for key, _ in SYSTEMS:
            right = 0
            for i, q in enumerate(queries):
                top = ranked[key][i][0] if ranked[key][i] else set()
                paths = {units[j].path for j in top if isinstance(j, int)}
                right += bool(paths & {units[j].path for j in q["accept"]})
            res[key]["file_top1_accuracy"] = right / max(1, len(queries))
    print_table(f"{name}: all {len(queries)} queries", res)
    if kind == "pdf":
        log(verdict(res))
    record = {"kind": kind, "source": meta["source"], "files": files, "units": len(units),
              "queries": len(queries), "ambiguous_queries": ambiguous,
              "kebab_ingest_s": ingest_s, "kebab_search_ms_per_query": search_ms,
              "kebab_chunks": report.get("chunks_indexed"), "fts5_load_s": load_s, **res}

    if name == "shared-pdf":  # per PDF
        per = {}
        for path in sorted({units[q["unit"]].path for q in queries}):
            idx = [i for i, q in enumerate(queries) if units[q["unit"]].path == path]
            sub = [queries[i] for i in idx]
            per[path] = {"queries": len(sub), **results_for(
                sub, {k: [ranked[k][i] for i in idx] for k, _ in SYSTEMS})}
        log(f"    per PDF, top-1 {'kebab':>6} {'OR':>6} {'AND':>6} {'queries':>8}")
        for path, r in per.items():
            log(f"    {path:27} {r['kebab']['top1_accuracy']:>6.2f} "
                f"{r['fts5_or']['top1_accuracy']:>6.2f} {r['fts5_and']['top1_accuracy']:>6.2f} "
                f"{r['queries']:>8}")
        record["per_file"] = per

    if name in MANUALS:
        misses = [i for i, _ in enumerate(queries)
                  if first_rank(ranked["kebab"][i], queries[i]["accept"]) != 1]
        fewer = and_first = 0
        for i in misses:
            q, top = queries[i], ranked["kebab"][i][0] if ranked["kebab"][i] else set()
            top_u = units[min(top)] if top and all(isinstance(j, int) for j in top) else None
            fewer += (word_count(top_u, q["words"]) if top_u else 0) < word_count(
                units[q["unit"]], q["words"])
            and_first += first_rank(ranked["fts5_and"][i], q["accept"]) == 1
        log(f"  kebab's misses on {name}: {len(misses)} of {len(queries)}; in {fewer} kebab's "
            f"first page holds fewer of the 9 words than the right page; FTS5 AND put the right "
            f"page first in {and_first}. The first {min(args.misses, len(misses))}:")
        record_misses = {"kebab_misses": len(misses), "misses_first_page_fewer_words": fewer,
                         "misses_fts5_and_right": and_first}
        for i in misses[:args.misses]:
            q = queries[i]
            want = units[q["unit"]]
            top = ranked["kebab"][i][0] if ranked["kebab"][i] else set()
            top_u = units[min(top)] if top and all(isinstance(j, int) for j in top) else None
            rank = first_rank(ranked["kebab"][i], q["accept"])
            and_rank = first_rank(ranked["fts5_and"][i], q["accept"])
            log(f"    \"{q['text']}\"")
            log(f"      want p.{want.page} ({word_count(want, q['words'])}/9 words); kebab: "
                f"p.{top_u.page if top_u else '-'} first "
                f"({word_count(top_u, q['words']) if top_u else 0}/9 words), right page at "
                f"{rank or '>10'}; FTS5 AND: {'first' if and_rank == 1 else and_rank or 'no'}; "
                f"pages holding all 9: {sum(word_count(u, q['words']) == WORDS for u in units)}")
        record.update(record_misses)
    record["_dump"] = [{"query": q["text"], "k": K, "mode": "lexical",
                        "id": f"{name}:{n}", "corpus": name,
                        "expect": units[q["unit"]].where(),
                        "accept": sorted(units[j].where() for j in q["accept"]),
                        "kebab_rank": first_rank(ranked["kebab"][n], q["accept"]),
                        "fts5_and_rank": first_rank(ranked["fts5_and"][n], q["accept"]),
                        "fts5_or_rank": first_rank(ranked["fts5_or"][n], q["accept"])}
                       for n, q in enumerate(queries)]
    record["_ranked"] = ranked
    record["_queries"] = queries
    record["seconds"] = time.perf_counter() - t_start
    log(f"  ({record['seconds']:.0f} s)")
    return record


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="50 queries per corpus")
    ap.add_argument("--queries", type=int, help="queries per corpus (default 500; 50 --quick)")
    ap.add_argument("--corpus", help=f"comma-separated subset of {','.join(CORPORA)}")
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--min-words", type=int, default=15,
                    help="remembered words a page or section needs to be sampled (default 15)")
    ap.add_argument("--kebab", default=os.path.join(REPO, "build", "kebab"))
    ap.add_argument("--work", help="keep the indexes here (default: a temp dir, deleted)")
    ap.add_argument("--misses", type=int, default=8,
                    help="kebab's misses to print per big manual (default 8)")
    ap.add_argument("--json-out")
    ap.add_argument("--dump-queries", metavar="PATH",
                    help="write every query (JSONL, readable by `kebab search --bulk`)")
    args = ap.parse_args()
    if args.queries is None:
        args.queries = 50 if args.quick else 500
    names = args.corpus.split(",") if args.corpus else list(CORPORA)
    unknown = [n for n in names if n not in CORPORA]
    if unknown:
        ap.error(f"unknown corpus {', '.join(unknown)}; choose from {', '.join(CORPORA)}")
    if not os.access(args.kebab, os.X_OK):
        print(f"{args.kebab} is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2
    if not shutil.which("pdftotext"):
        print("pdftotext is missing: apt-get install poppler-utils", file=sys.stderr)
        return 2
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(
        prefix="kebab-passage-bench-")
    t0 = time.perf_counter()
    log(f"passage benchmark: {WORDS} remembered words per query (>= {MIN_CHARS} characters, "
        f"Hangul >= {MIN_HANGUL}), {args.queries} queries per corpus, seed {args.seed}; "
        f"cache {CACHE}; work {work}")
    records = {}
    try:
        for name in names:
            rec = run_corpus(name, args, work, random.Random(f"{args.seed}:{name}"))
            if rec:
                records[name] = rec
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    if not records:
        log("nothing measured")
        return 0

    pdf = [r for r in records.values() if r["kind"] == "pdf"]
    pooled = None
    if len(pdf) > 1:
        qs = [q for r in pdf for q in r["_queries"]]
        # Unit ids are per corpus: tag them so pooled scoring cannot mix corpora up.
        tagged, tq = {k: [] for k, _ in SYSTEMS}, []
        for n, r in ((n, r) for n, r in records.items() if r["kind"] == "pdf"):
            for i, q in enumerate(r["_queries"]):
                tq.append({**q, "accept": {(n, j) for j in q["accept"]}})
                for k, _ in SYSTEMS:
                    tagged[k].append([{(n, j) for j in ids} for ids in r["_ranked"][k][i]])
        pooled = {"queries": len(qs), "corpora": [n for n, r in records.items()
                                                  if r["kind"] == "pdf"],
                  **results_for(tq, tagged)}
        log("== all PDFs pooled (" + ", ".join(pooled["corpora"]) + ")")
        print_table(f"{len(qs)} queries", pooled)
        log(verdict(pooled))

    total_s = time.perf_counter() - t0
    log(f"== summary, top-1 (top-10) accuracy; {total_s:.0f} s in all")
    log(f"  {'corpus':12} {'queries':>7}  {'kebab':>13} {'FTS5 OR':>13} {'FTS5 AND':>13} "
        f"{'AND else OR':>13}")
    rows = list(records.items()) + ([("all PDFs", pooled)] if pooled else [])
    for name, r in rows:
        cells = "".join(f" {r[k]['top1_accuracy']:>6.3f} ({r[k]['top10_accuracy']:.3f})"
                        for k, _ in SYSTEMS)
        log(f"  {name:12} {r['queries']:>7} {cells}")

    if args.dump_queries:
        with open(args.dump_queries, "w", encoding="utf-8") as f:
            for r in records.values():
                for line in r["_dump"]:
                    f.write(json.dumps(line, ensure_ascii=False) + "\n")
        log(f"wrote {sum(len(r['_dump']) for r in records.values())} queries to "
            f"{args.dump_queries}")
    if args.json_out:
        out = {"words_per_query": WORDS, "min_word_chars": MIN_CHARS, "seed": args.seed,
               "queries_per_corpus": args.queries, "total_s": total_s,
               "corpora": {n: {k: v for k, v in r.items() if not k.startswith("_")}
                           for n, r in records.items()}}
        if pooled:
            out["all_pdfs"] = pooled
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
