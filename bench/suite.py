#!/usr/bin/python3
"""kebab's benchmark suite: every benchmark in bench/, each beside its floor, with dated results.

Runs each selected benchmark --runs times (default 5; the published table needs at least 5),
every run with --json-out, so the floor is measured in the same run as kebab:
  lexical   bench/lexical_bench.py: ingest and `kebab search` vs bare FTS5 (sqlite3 CLI), Recoll
            and ripgrep
  vector    build/bench/kebab_vector_bench: kebab's vector index vs bare USearch (and FAISS)
  hybrid    bench/hybrid_bench.py: lexical / vector / hybrid `kebab search` processes
  ask       bench/ask_bench.py: `kebab ask`'s pipeline overhead (scripted model server)
  embed     bench/embed_bench.py: the embedder alone vs ingest, and model load per search
  eval      bench/eval_bench.py: Cranfield nDCG@10 / MRR@10 / recall@100 beside plain BM25 and
            the FTS5 OR-of-words floor (also on paragraph-length questions), and the wall time
            of `kebab eval run`
  korean    bench/korean_bench.py: Korean questions (tldr-pages) beside character-bigram and
            word BM25 floors, and English ones built the same way beside the FTS5 floor
  verify    bench/verify_bench.py: `kebab ask`'s citation check on 72 labelled claims
  mcp       bench/mcp_bench.py: lexical and (not with --quick) hybrid search through one
            `kebab mcp` process vs the same searches timed inside it, and its RSS over 10,000
            calls
  pdf       bench/pdf_bench.py: PDF ingest vs pdftotext + a bare FTS5 load and Recoll, page
            accuracy of page citations, a 2,000-page PDF's memory
  passage   bench/passage_bench.py: nine remembered words from a random page of large PDFs
            (a 2,415-page reference manual among them) or a Markdown section find it first?
            beside plain FTS5 page floors (words OR-joined, all words required)
  ocr       bench/ocr_bench.py: OCR time per page and character error rate vs the tesseract
            CLI on the same page images, and the OCR cache across re-ingests and renames
  code      bench/code_bench.py: code ingest vs a tree-sitter parse-only floor and Universal
            Ctags, code search vs bare FTS5 (sqlite3 CLI), symbol lookup vs rg and plain
            paragraphs
  audio     bench/audio_bench.py: recordings' WER and real-time factor vs
            pocketsphinx_continuous on the same files, and time citations of true sentences
  whisper   bench/whisper_bench.py: the whisper path's real-time factor vs whisper.cpp's
            whisper-cli on the same files with a random-weight whisper-base-shaped model
  generate  bench/generate_compare.py: in-process generation vs llama.cpp's llama-bench
  watch     bench/watch_bench.py: `kebab serve` on tldr-pages (38k files): a save to a search
            hit, a burst of rewritten pages vs a cold ingest of them, an idle service's CPU
then takes the median, min and max of every number across the runs and writes
bench/results/YYYY-MM-DD.json (every number with its per-run values, the machine, the load
average before and after each run, the git commit, kebab's version, every command line) and
bench/results/YYYY-MM-DD.md (a table per benchmark: kebab's median beside its floor's, their
ratio, and the issues' targets where one exists). Both are rewritten after each benchmark, so an
interrupted suite keeps what it measured. A second suite on the same day gets -2, -3, ...

--quick runs small sizes and few queries (2 runs unless --runs says otherwise) to check the
plumbing in a few minutes; its files are named YYYY-MM-DD-quick and are never for the README.
--full adds the 1M-vector size (about 30 minutes per run on 2 cores).
--readme FILE.json prints that result's table and puts it into README.md between the
<!-- bench:start --> and <!-- bench:end --> markers. Given several files (oldest first), each
benchmark's rows come from the last file that measured it, so a re-run of some benchmarks
(--only) refreshes their rows and keeps the rest.

Usage: bench/suite.py [--runs 5] [--only lexical,vector,...] [--quick] [--full] [--no-build]
       bench/suite.py --readme bench/results/YYYY-MM-DD.json [LATER.json ...]
"""
import argparse
import collections
import datetime
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

import hybrid_bench  # its tiny test model, for --quick

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(REPO, "bench", "results")
README = os.path.join(REPO, "README.md")
MARKERS = ("<!-- bench:start -->", "<!-- bench:end -->")
MIN_PUBLISHED_RUNS = 5
# --quick's hybrid and ask share a small workspace of their own (astro-docs only).
QUICK_HYBRID_WORK = os.path.join(tempfile.gettempdir(), "kebab-suite-quick-hybrid")

# One benchmark: its command (relative to the repository), the arguments of a published run,
# of --quick and of --full, the CMake targets it needs, a line saying what it measures, and the
# function making its table from the aggregated results.
Bench = collections.namedtuple("Bench", "command args quick full targets about table")

# A target of the issues: `on` "value" (kebab's median) or "ratio" (kebab / floor), `op` "<=" or
# ">=", and whether it applies to this row (else `why_not` says when it does).
Target = collections.namedtuple("Target", "text on op limit applies why_not",
                                defaults=(True, ""))

# One line of a table: kebab's aggregated number, the floor's (or a peer's) and its name.
Row = collections.namedtuple("Row", "metric kebab floor floor_name targets headline",
                             defaults=(None, "", (), False))


# ----------------------------------------------------------------------------------- tables
def at(tree, *path):
    """The node at `path` in an aggregated result tree, or None."""
    for key in path:
        if not isinstance(tree, dict) or key not in tree:
            return None
        tree = tree[key]
    return tree


def median(leaf):
    """An aggregated number's median, or None."""
    return leaf["median"] if isinstance(leaf, dict) and "median" in leaf else None


def lexical_table(res):
    """Per corpus: ingest and search latency vs bare FTS5 (the floor), Recoll and ripgrep."""
    notes, rows = [], []
    for corpus, c in (res.get("corpora") or {}).items():
        notes.append(f"{corpus}: {fmt(median(c['files']))} files, {fmt(median(c['mb']))} MB, "
                     f"{fmt(median(c['queries']))} queries, each a whole process")
        k = lambda key: at(c, "kebab", key)
        rows += [
            Row(f"{corpus}: cold ingest (s)", k("cold_ingest_s"), at(c, "floor", "bulk_load_s"),
                "bare FTS5 bulk load", (Target("≤ 3× floor", "ratio", "<=", 3),), True),
            Row(f"{corpus}: cold ingest (s)", k("cold_ingest_s"),
                at(c, "recoll", "cold_index_s"), "recollindex",
                (Target("< recollindex", "ratio", "<=", 1.0),)),
            Row(f"{corpus}: no-op re-ingest (s)", k("noop_ingest_s"),
                at(c, "recoll", "noop_index_s"), "recollindex, no change",
                (Target("< 1.3 s", "value", "<=", 1.3),)),
            Row(f"{corpus}: cold ingest peak RSS (MB)", k("cold_ingest_rss_mb"),
                at(c, "recoll", "cold_index_rss_mb"), "recollindex",
                (Target("< 300 MB", "value", "<=", 300),)),
        ]
        # Issue 2: p95 within 1.5x of the sqlite3 CLI on the bare table, and below recollq.
        search_targets = {("floor", "p95"): (Target("≤ 1.5× floor", "ratio", "<=", 1.5),),
                          ("recoll", "p95"): (Target("< recollq", "ratio", "<=", 1.0),)}
        for tool, name in (("floor", "bare FTS5, sqlite3 CLI"), ("recoll", "recollq"),
                           ("ripgrep", "rg -l")):
            for q in ("p50", "p95"):
                targets = search_targets.get((tool, q), ())
                rows.append(Row(f"{corpus}: search {q} (ms)", k(f"search_{q}_ms"),
                                at(c, tool, f"search_{q}_ms"), name, targets, tool == "floor"))
    return notes, rows


def vector_table(res):
    """Per size: kebab's HNSW and exact search vs bare USearch of the same kind (the floor)."""
    notes, rows = [], []
    for size, s in (res.get("sizes") or {}).items():
        n = int(size)
        r = lambda row, key: at(s, "rows", row, key)
        recall = f"recall_at_{fmt(median(s['k']))}"
        label = f"{n:,} × {fmt(median(s['dims']))}"
        notes.append(f"{label}: {fmt(median(s['queries']))} queries "
                     f"({fmt(median(s['exact_queries']))} for full scans), one at a time")
        near = Target("≤ 1.3× floor", "ratio", "<=", 1.3, n >= 100_000, "at ≥ 100k")
        for kind, name, floor in (("hnsw", "HNSW", "bare USearch HNSW"),
                                  ("exact", "exact-scan", "bare USearch exact")):
            for q in ("p50", "p95"):
                targets = (near,)
                if kind == "hnsw" and q == "p95":
                    targets += (Target("≤ 2 ms", "value", "<=", 2, n >= 1_000_000, "at 1M"),)
                metric = f"{label}: {name} search {q} (ms)"
                rows.append(Row(metric, r(f"kebab.{kind}.d11", f"{q}_ms"),
                                r(f"usearch.{kind}", f"{q}_ms"), floor, targets, True))
        rows += [
            Row(f"{label}: HNSW recall@10", r("kebab.hnsw.d11", recall),
                r("usearch.hnsw", recall), "bare USearch HNSW",
                (Target("≥ 0.95", "value", ">=", 0.95),), True),
            Row(f"{label}: HNSW build (s)", r("kebab.hnsw.d11", "build_s"),
                r("usearch.hnsw", "build_s"), "bare USearch HNSW",
                (Target("≤ 300 s", "value", "<=", 300),), True),
            Row(f"{label}: HNSW index walk only p95 (ms)", r("kebab.hnsw.walk", "p95_ms"),
                r("usearch.hnsw", "p95_ms"), "bare USearch HNSW"),
            Row(f"{label}: HNSW search depth 50, hybrid's, p95 (ms)",
                r("kebab.hnsw.d50", "p95_ms")),
            Row(f"{label}: HNSW cache re-open (ms)", r("kebab.hnsw.d11", "reopen_ms")),
            Row(f"{label}: HNSW search p95 (ms)", r("kebab.hnsw.d11", "p95_ms"),
                r("usearch.hnsw_mapped", "p95_ms"),
                "bare USearch HNSW, memory-mapped from its file"),
            Row(f"{label}: HNSW search p95 (ms)", r("kebab.hnsw.d11", "p95_ms"),
                r("faiss.hnsw", "p95_ms"), "FAISS IndexHNSWFlat"),
            Row(f"{label}: exact scan p95 (ms)", r("kebab.exact.d11", "p95_ms"),
                r("faiss.flat", "p95_ms"), "FAISS IndexFlatIP"),
        ]
    return notes, rows


def hybrid_table(res):
    """Per search mode: whole `kebab search` processes, with and without the embedding model."""
    model = res.get("model", "?")
    notes = [f"{fmt(median(res.get('chunks')))} chunks, embedding model {model}, "
             f"{fmt(median(res.get('queries')))} queries per mode, each a whole process"]
    shaped = "small-shaped" in str(model)
    rows = []
    for mode in ("lexical", "vector", "hybrid"):
        m = lambda key: at(res, "modes", mode, key)
        hybrid = mode == "hybrid"
        rows += [
            Row(f"{mode}: search p50 (ms)", m("wall_p50_ms")),
            Row(f"{mode}: search p95 (ms)", m("wall_p95_ms"), targets=(
                (Target("≤ 150 ms", "value", "<=", 150, shaped,
                        "with multilingual-e5-small-shaped"),) if hybrid else ()),
                headline=hybrid),
            Row(f"{mode}: search p95 without model load and query embedding (ms)",
                m("wall_without_embedding_p95_ms"),
                targets=(Target("≤ 30 ms", "value", "<=", 30),) if hybrid else (),
                headline=hybrid),
        ]
    return notes, rows


def ask_table(res):
    """`kebab ask`'s own overhead: retrieval + prompt building + citation check."""
    notes = [f"{fmt(median(res.get('chunks')))} chunks, {fmt(median(res.get('queries')))} "
             f"questions, model {res.get('llm', '?')}, each a whole `kebab ask` process"]
    fifty = (Target("≤ 50 ms", "value", "<=", 50),)
    rows = [
        Row("pipeline overhead p50 (ms)", res.get("pipeline_overhead_p50_ms")),
        Row("pipeline overhead p95 (ms)", res.get("pipeline_overhead_p95_ms"), targets=fifty,
            headline=True),
        Row("pipeline overhead without the embedding model p95 (ms)",
            res.get("pipeline_overhead_without_embedding_p95_ms"), targets=fifty, headline=True),
    ]
    for stage in ("retrieval", "prompt", "verify", "first_token", "generation", "process"):
        rows.append(Row(f"{stage.replace('_', ' ')} p95 (ms)", res.get(f"{stage}_p95_ms")))
    return notes, rows


def embed_table(res):
    """The embedder alone (the floor of ingest), ingest with embeddings, model load per search."""
    e, i, s = res.get("embedder") or {}, res.get("ingest") or {}, res.get("search") or {}
    notes = []
    if i:
        notes.append(f"ingest: {fmt(median(i['files']))} astro-docs pages, "
                     f"{fmt(median(e.get('texts')))} texts, model {e.get('model')}, "
                     f"{fmt(median(res.get('threads')))} threads")
    if s:
        notes.append(f"search: `kebab search` processes with {s.get('model')}")
    alone = i.get("embedder_alone_chunks_per_s")
    ninety = (Target("≥ 0.9× floor", "ratio", ">=", 0.9),)
    rows = [
        Row("embedder alone, batched (chunks/s)", e.get("batched_chunks_per_s")),
        Row("embedder alone, one text per call (chunks/s)", e.get("single_chunks_per_s")),
        Row("ingest: embed phase (chunks/s)", i.get("embed_phase_chunks_per_s"), alone,
            "embedder alone", ninety, True),
        Row("ingest: whole run (chunks/s)", i.get("whole_run_chunks_per_s"), alone,
            "embedder alone", ninety, True),
    ]
    for key in sorted(k for k in s if k.startswith("threads_")):
        t = key.removeprefix("threads_")
        threads = "all cores" if t == "0" else f"{t} thread{'s' if t != '1' else ''}"
        rows += [
            Row(f"search, {threads}: whole process (ms)", at(s, key, "process_ms"),
                targets=(Target("≤ 150 ms", "value", "<=", 150),), headline=True),
            Row(f"search, {threads}: model load (ms)", at(s, key, "model_load_ms")),
            Row(f"search, {threads}: query embedding (ms)", at(s, key, "query_embed_ms")),
            Row(f"search, {threads}: peak RSS (MB)", at(s, key, "peak_rss_mb")),
        ]
    return notes, rows


def generate_table(res):
    """In-process generation vs llama-bench on the same GGUF, threads and prompt depth."""
    notes = [f"{res.get('model')}, {fmt(median(res.get('threads')))} threads, prompt "
             f"{fmt(median(res.get('prompt_tokens')))} tokens, "
             f"{fmt(median(res.get('generated_tokens')))} generated; kebab's prompt rate is "
             "prompt tokens over its time to first token"]
    ninety = (Target("≥ 0.9× floor", "ratio", ">=", 0.9),)
    rows = [Row(f"{part} (tokens/s)", at(res, "kebab", f"{part}_tokens_per_s"),
                at(res, "llama_bench", f"{part}_tokens_per_s"), "llama-bench", ninety, True)
            for part in ("prompt", "decode")]
    return notes, rows


def eval_table(res):
    """Cranfield quality beside plain BM25, and the wall time of `kebab eval run`."""
    notes = [f"Cranfield, {fmt(median(res.get('documents')))} documents, "
             f"{fmt(median(res.get('queries')))} queries, `kebab eval run --k 100` processes; "
             "the hybrid row uses a random-weight test model (mechanics only)"]
    ref = res.get("reference") or {}
    rows = []
    for key, setting in (res.get("settings") or {}).items():
        label = setting.get("label")
        plain = key == "lexical_plain"
        rows += [
            Row(f"{label}: nDCG@10", setting.get("ndcg@10"), ref.get("ndcg@10"), "plain BM25",
                (Target("≥ 0.311", "value", ">=", 0.311),) if plain else (), plain),
            Row(f"{label}: MRR@10", setting.get("mrr@10"), ref.get("mrr@10"), "plain BM25"),
            Row(f"{label}: recall@100", setting.get("recall@100"), ref.get("recall@100"),
                "plain BM25"),
            Row(f"{label}: eval run (s)", setting.get("eval_run_s"),
                targets=(Target("< 10 s", "value", "<=", 10),) if plain else (),
                headline=plain),
        ]
    # Issue 20: at least the plain FTS5 OR-of-words BM25 floor, measured in the same run, on
    # Cranfield and on every other collection (cranfield-long: paragraph-length questions).
    at_least_floor = (Target("≥ floor", "ratio", ">=", 1.0),)
    floor = res.get("floor") or {}
    stemmed = (res.get("settings") or {}).get("lexical_stemmed") or {}
    rows.append(Row("Cranfield, lexical stemmed: nDCG@10", stemmed.get("ndcg@10"),
                    floor.get("ndcg@10"), "FTS5 OR of words", at_least_floor, True))
    for name, c in (res.get("collections") or {}).items():
        notes.append(f"{name}: {fmt(median(c.get('documents')))} documents, "
                     f"{fmt(median(c.get('queries')))} queries")
        for m, label, targets in (("ndcg@10", "nDCG@10", at_least_floor),
                                  ("mrr@10", "MRR@10", ())):
            rows.append(Row(f"{name}, lexical stemmed: {label}", at(c, "kebab", m),
                            at(c, "floor", m), "FTS5 OR of words", targets, bool(targets)))
    return notes, rows


def korean_table(res):
    """Korean questions (tldr-pages pages.ko) beside character-bigram and word BM25 floors."""
    notes = [f"tldr-pages Korean: {fmt(median(res.get('ko_documents')))} pages, "
             f"{fmt(median(res.get('ko_queries')))} questions (each page's first description, "
             "left out of the page indexed)"]
    rows = []
    for m, name in (("ndcg@10", "nDCG@10"), ("mrr@10", "MRR@10")):
        rows += [Row(f"Korean questions: {name}", res.get(f"ko_kebab_{m}"),
                     res.get(f"ko_bigram_{m}"), "bigram BM25",
                     (Target("≥ floor", "ratio", ">=", 1.0),), True),
                 Row(f"Korean questions: {name}", res.get(f"ko_kebab_{m}"),
                     res.get(f"ko_word_{m}"), "word BM25")]
    if res.get("en_documents") is not None:
        notes.append(f"English control, the same construction on tldr-pages' pages/: "
                     f"{fmt(median(res.get('en_documents')))} pages, "
                     f"{fmt(median(res.get('en_queries')))} questions")
        rows.append(Row("English tldr questions: nDCG@10", res.get("en_kebab_ndcg@10"),
                        res.get("en_fts5_or_ndcg@10"), "FTS5 OR of words",
                        (Target("≥ floor", "ratio", ">=", 1.0),), True))
    return notes, rows


def verify_table(res):
    """`kebab ask`'s citation check on labelled claims, per rag.verify mode."""
    notes = [f"{fmt(median(res.get('cases')))} notes, {fmt(median(res.get('true_claims')))} true "
             f"and {fmt(median(res.get('false_claims')))} false claims, through the real pipeline "
             "and a scripted Ollama server"]
    rows = []
    for mode, m in (res.get("modes") or {}).items():
        default = mode == "auto"
        rows += [Row(f"rag.verify = {mode}: false claims passing", m.get("false_pass"),
                     targets=(Target("0", "value", "<=", 0),) if default else (),
                     headline=default),
                 Row(f"rag.verify = {mode}: share of true claims passing", m.get("recall"),
                     targets=(Target("≥ 0.8", "value", ">=", 0.8),) if default else (),
                     headline=default)]
    return notes, rows


def mcp_table(res):
    """Searches through one `kebab mcp` process beside the same searches timed inside it."""
    inside = "in-server, trace total_ms"
    notes = [f"lexical: tldr-pages, {fmt(median(res.get('chunks')))} chunks, "
             f"{fmt(median(res.get('queries')))} timed searches, then "
             f"{fmt(median(res.get('calls')))} more for the server's RSS"]
    rows = [
        Row("lexical: round trip p50 (ms)", res.get("rtt_p50_ms"), res.get("inproc_p50_ms"),
            inside),
        Row("lexical: round trip p95 (ms)", res.get("rtt_p95_ms"), res.get("inproc_p95_ms"),
            inside),
        # Issue 22: within 1.3x the in-server p95 + 1 ms, which a ratio alone cannot say.
        Row("lexical: round-trip p95 / (1.3× in-server p95 + 1 ms)", res.get("rtt_over_target"),
            targets=(Target("≤ 1", "value", "<=", 1),), headline=True),
        Row("lexical: RSS growth over the calls (MB)", res.get("rss_growth_over_calls_mb"),
            targets=(Target("none (≤ 2 MB)", "value", "<=", 2),)),
    ]
    h = res.get("hybrid")
    if not h:
        return notes, rows
    model = h.get("model", "?")
    shaped = "small-shaped" in str(model)
    notes.append(f"hybrid: {fmt(median(h.get('chunks')))} chunks, embedding model {model}, "
                 f"{fmt(median(h.get('queries')))} timed searches after an untimed warm-up, "
                 f"{fmt(median(h.get('process_queries')))} whole `kebab search` processes, "
                 f"then {fmt(median(h.get('calls')))} more searches for the server's RSS")
    process = "`kebab search` process, same run"
    tolerance = median(h.get("rss_tolerance_mb")) or 2.0
    rows += [
        Row("hybrid: round trip p50 (ms)", h.get("rtt_p50_ms"), h.get("inproc_p50_ms"), inside),
        Row("hybrid: round trip p95 (ms)", h.get("rtt_p95_ms"), h.get("inproc_p95_ms"), inside,
            (Target("≤ 25 ms", "value", "<=", 25, shaped, "with multilingual-e5-small-shaped"),),
            True),
        Row("hybrid: round trip p95 (ms)", h.get("rtt_p95_ms"), h.get("process_p95_ms"),
            process),
        Row("hybrid: query embedding p95 (ms)", h.get("query_embed_p95_ms")),
        Row("hybrid: round trip p95 over the RSS calls (ms)", h.get("calls_rtt_p95_ms")),
        Row("hybrid: RSS idle after the warm-up (MB)", h.get("rss_idle_after_warmup_mb")),
        Row("hybrid: RSS idle after the timed pass (MB)", h.get("rss_idle_after_timed_pass_mb")),
        Row("hybrid: RSS idle after the calls (MB)", h.get("rss_idle_after_calls_mb")),
        Row("hybrid: of which RssAnon, the heap (MB)", h.get("rss_anon_idle_after_calls_mb")),
        Row("hybrid: RSS growth over the calls (MB)", h.get("rss_growth_over_calls_mb"),
            targets=(Target(f"none (≤ {tolerance:g} MB)", "value", "<=", tolerance),),
            headline=True),
    ]
    return notes, rows


def pdf_table(res):
    """The ten real text PDFs: ingest vs pdftotext + a bare FTS5 load (the floor) and Recoll;
    page accuracy; a generated 2,000-page PDF's memory."""
    notes = [f"{fmt(median(res.get('files')))} PDFs, {fmt(median(res.get('pages')))} pages "
             "(../shared/data/pdf/text); page accuracy over "
             f"{fmt(median(res.get('page_queries')))} sentences, each a whole `kebab search`; "
             f"a generated {fmt(median(at(res, 'big', 'pages')))}-page PDF ingested alone"]
    k = lambda key: at(res, "kebab", key)
    rows = [
        Row("cold ingest (s)", k("cold_ingest_s"), at(res, "floor", "total_s"),
            "pdftotext (cores at once) + bare FTS5 load", (Target("≤ 2× floor", "ratio", "<=", 2),),
            True),
        Row("cold ingest (s)", k("cold_ingest_s"), at(res, "recoll", "cold_s"), "recollindex",
            (Target("< recollindex", "ratio", "<=", 1.0),)),
        Row("cold ingest (pages/s)", k("pages_per_s")),
        Row("cold ingest peak RSS (MB)", k("peak_rss_mb"), at(res, "recoll", "peak_rss_mb"),
            "recollindex", (Target("< 300 MB", "value", "<=", 300),)),
        Row("no-op re-ingest (s)", k("noop_ingest_s"), at(res, "recoll", "noop_s"),
            "recollindex, no change", (Target("< 0.2 s", "value", "<=", 0.2),), True),
        Row("page accuracy (top hit cites the sentence's page)", res.get("page_accuracy"),
            targets=(Target("≥ 0.98", "value", ">=", 0.98),), headline=True),
        Row("2,000-page PDF: ingest (s)", at(res, "big", "ingest_s")),
        Row("2,000-page PDF: peak RSS (MB)", at(res, "big", "peak_rss_mb"),
            targets=(Target("< 300 MB", "value", "<=", 300),)),
    ]
    return notes, rows


def passage_table(res):
    """Nine remembered words from a random page (section): the right page first, beside plain
    FTS5 page floors of the same texts (words OR-joined, all words required)."""
    notes = [f"{fmt(median(res.get('queries_per_corpus')))} queries per corpus, each 9 "
             "consecutive words of 4+ characters (short words and punctuation forgotten) from a "
             "random page or Markdown section, through `kebab search --bulk --mode lexical`; "
             "floors: `fts5(body, tokenize='porter unicode61')`, one row per page (section)"]
    unit = lambda c: "page" if c.get("kind") == "pdf" else "section"
    # Issue 37: top-1 page accuracy at least the all-words FTS5 floor's, and at least 0.95.
    targets = (Target("≥ FTS5 AND", "ratio", ">=", 1.0), Target("≥ 0.95", "value", ">=", 0.95))
    rows = []
    for name, c in (res.get("corpora") or {}).items():
        notes.append(f"{name}: {c.get('source')}, {fmt(median(c.get('units')))} {unit(c)}s, "
                     f"{fmt(median(c.get('queries')))} queries")
        pdf = c.get("kind") == "pdf"
        k = lambda key: at(c, "kebab", key)
        rows += [
            Row(f"{name}: top-1 {unit(c)} accuracy", k("top1_accuracy"),
                at(c, "fts5_and", "top1_accuracy"), "FTS5 AND", targets if pdf else (),
                name == "r-refman"),
            Row(f"{name}: top-1 {unit(c)} accuracy", k("top1_accuracy"),
                at(c, "fts5_or", "top1_accuracy"), "FTS5 OR"),
            Row(f"{name}: top-10 {unit(c)} accuracy", k("top10_accuracy"),
                at(c, "fts5_and", "top10_accuracy"), "FTS5 AND"),
            Row(f"{name}: MRR@10", k("mrr_at_10"), at(c, "fts5_and", "mrr_at_10"), "FTS5 AND"),
        ]
    p = res.get("all_pdfs")
    if p:
        notes.append(f"all PDFs: {fmt(median(p.get('queries')))} queries pooled")
        rows += [Row("all PDFs: top-1 page accuracy", at(p, "kebab", "top1_accuracy"),
                     at(p, "fts5_and", "top1_accuracy"), "FTS5 AND", targets, True),
                 Row("all PDFs: top-1 page accuracy", at(p, "kebab", "top1_accuracy"),
                     at(p, "fts5_or", "top1_accuracy"), "FTS5 OR")]
    return notes, rows


def ocr_table(res):
    """Scanned PDF pages and images: OCR time per page on one thread and CER beside the
    tesseract CLI on the same page images (the floor); the OCR cache across re-ingests."""
    notes = [f"{fmt(median(res.get('scanned_pages')))} scanned PDF pages rendered at 300 dpi "
             f"and {fmt(median(res.get('images')))} images (../shared/data/ocr), kor+eng, psm 3; "
             "the floor is `OMP_THREAD_LIMIT=1 tesseract` per page image, kebab "
             "`[ingest.ocr] workers = 1` on the same pixels"]
    t = lambda key: at(res, "one_thread", key)
    rows = [
        Row("time per page, one thread (ms)", t("kebab_ocr_ms_per_page"),
            t("cli_minus_startup_ms_per_page"), "tesseract CLI, same page, less its start-up",
            (Target("≤ 1.1× floor", "ratio", "<=", 1.1),), True),
        Row("time per page, one thread: ingest wall / pages (ms)", t("kebab_wall_ms_per_page"),
            t("cli_ms_per_page"), "tesseract CLI per page, whole process"),
        Row("all cores: scanned PDFs, cold ingest (OCR pages/s)",
            at(res, "all_cores", "ocr_pages_per_s"), at(res, "all_cores", "cli_ocr_pages_per_s"),
            "tesseract CLI, a page image per core at once"),
    ]
    for key, name in (("scanned_en", "scanned pages, English"), ("scanned_ko",
                      "scanned pages, Korean"), ("images_en", "images, English"),
                      ("images_ko", "images, Korean")):
        g = lambda k: at(res, "cer", key, k)
        rows += [Row(f"{name}: CER", g("kebab"), g("cli"), "tesseract CLI, same images"),
                 Row(f"{name}: CER minus the CLI's", g("kebab_minus_cli"),
                     targets=(Target("≤ +0.005", "value", "<=", 0.005),), headline=True)]
    c = lambda key, k: at(res, "cache", key, k)
    none = (Target("0", "value", "<=", 0),)
    rows += [
        Row("re-ingest right after the cold one: pages read again", c("noop_after_cold",
                                                                      "ocr_read"), targets=none),
        Row("re-ingest without a change: pages read again", c("noop", "ocr_read"), targets=none,
            headline=True),
        Row("a PDF renamed and an image moved: pages read again", c("moved", "ocr_read"),
            targets=none, headline=True),
        Row("a PDF renamed and an image moved: pages from the cache", c("moved", "ocr_cached")),
    ]
    return notes, rows


def code_table(res):
    """A Debian source tree: ingest vs the tree-sitter parse-only floor and Universal Ctags;
    search vs bare FTS5 over the same chunks; symbol lookup vs plain paragraphs and rg."""
    i = lambda *path: at(res, "ingest", *path)
    sym = lambda who, key: at(res, "symbol_lookup", who, key)
    notes = [f"{fmt(median(i('files')))} files, {fmt(median(i('mb')))} MB (Python stdlib + "
             "/usr/include headers), of which kebab indexed "
             f"{fmt(median(i('kebab', 'files_indexed')))}; symbol lookup over "
             f"{fmt(median(at(res, 'symbol_lookup', 'queries')))} docstring questions on the "
             "Python files; search over "
             f"{fmt(median(at(res, 'search', 'queries')))} whole `kebab search` processes"]
    beat = lambda name: (Target(f"> {name}", "ratio", ">=", 1.000001),)
    rows = [
        Row("cold ingest (s)", i("kebab", "cold_ingest_s"), i("floor", "parse_s"),
            "tree-sitter parse of the same files, one thread per core",
            (Target("≤ 3× floor", "ratio", "<=", 3),), True),
        Row("cold ingest (s)", i("kebab", "cold_ingest_s"), i("ctags", "index_s"), "ctags -R",
            (Target("< ctags", "ratio", "<=", 1.0),), True),
        Row("cold ingest (files/s)", i("kebab", "files_per_s"), i("ctags", "files_per_s"),
            "ctags -R"),
        Row("cold ingest peak RSS (MB)", i("kebab", "peak_rss_mb"), i("ctags", "peak_rss_mb"),
            "ctags -R"),
        Row("search p95 (ms)", at(res, "search", "kebab", "search_p95_ms"),
            at(res, "search", "floor", "search_p95_ms"), "bare FTS5, sqlite3 CLI",
            (Target("≤ 1.5× floor", "ratio", "<=", 1.5),), True),
        Row("symbol lookup hit@10", sym("kebab_ast", "hit_at_10"),
            sym("kebab_plain_paragraphs", "hit_at_10"), "plain paragraphs",
            beat("plain paragraphs"), True),
        Row("symbol lookup hit@10", sym("kebab_ast", "hit_at_10"), sym("ripgrep", "hit_at_10"),
            "rg, two rarest words", beat("rg"), True),
        Row("symbol lookup hit@1", sym("kebab_ast", "hit_at_1"),
            sym("kebab_plain_paragraphs", "hit_at_1"), "plain paragraphs"),
        Row("symbol lookup MRR@10", sym("kebab_ast", "mrr_at_10"),
            sym("kebab_plain_paragraphs", "mrr_at_10"), "plain paragraphs"),
        Row("symbol lookup precise hit@10 (cited lines half inside the answer)",
            sym("kebab_ast", "precise_hit_at_10"),
            sym("kebab_plain_paragraphs", "precise_hit_at_10"), "plain paragraphs"),
    ]
    return notes, rows


def audio_table(res):
    """Recordings: kebab's transcripts (WER) and transcription speed beside
    pocketsphinx_continuous on the same wav files; time citations of true sentences."""
    w = lambda *path: at(res, "wer_rtf", *path)
    c = lambda *path: at(res, "time_citations", *path)
    notes = [f"WER and RTF: {fmt(median(w('audio_s')))} s of English speech "
             f"({', '.join(w('per_file') or {})} as wav; ../shared/data/audio), "
             f"{fmt(median(w('ref_words')))} truth "
             "words, pooled; the floor is `pocketsphinx_continuous` (the same engine and model) "
             "on the same files, whole processes",
             f"time citations: {fmt(median(c('files')))} files (every container), "
             f"{fmt(median(c('eligible')))} of {fmt(median(c('sentences')))} true sentences "
             "with content words the transcript got right, each searched by them (`--k 1`, "
             "`--path-glob` its file); a success when the cited range overlaps the sentence "
             "± 1 s"]
    floor = "pocketsphinx_continuous, same files"
    rows = [
        Row("pooled WER", res.get("kebab_wer"), res.get("floor_wer"), floor),
        Row("pooled WER minus the floor's", res.get("kebab_minus_floor_wer"),
            targets=(Target("≤ +0.01", "value", "<=", 0.01),), headline=True),
    ]
    for fid in (w("per_file") or {}):
        rows.append(Row(f"{fid}: WER", w("per_file", fid, "ingest", "wer"),
                        w("per_file", fid, "floor", "wer"), floor))
    rows += [
        Row("real-time factor, kebab-audio alone (wall / audio s)", res.get("kebab_rtf"),
            res.get("floor_rtf"), floor, (), True),
        Row("real-time factor, whole `kebab ingest` of one file", res.get("kebab_ingest_rtf"),
            res.get("floor_rtf"), floor),
        Row("real-time factor, kebab-audio alone (CPU s / audio s)", w("kebab_cpu_rtf"),
            w("floor_cpu_rtf"), floor),
        Row("time citations: share right, words heard where said (%)",
            res.get("local_time_citation_pct"), targets=(Target("≥ 95%", "value", ">=", 95),),
            headline=True),
        Row("time citations, words heard anywhere in the file (%)", res.get("time_citation_pct"),
            c("chance_pct"), "a random transcript chunk of the file"),
    ]
    for ext in (c("per_container") or {}):
        rows.append(Row(f"time citations, .{ext}, words heard where said (%)",
                        c("per_container", ext, "local_time_citation_pct"),
                        targets=(Target("≥ 95%", "value", ">=", 95),)))
    rows.append(Row("one index of every file: cold ingest (wall / audio s)", c("ingest_rtf")))
    return notes, rows


def whisper_table(res):
    """The whisper path: kebab-audio and a whole ingest beside whisper-cli, same model."""
    notes = [f"{fmt(median(res.get('audio_s')))} s of speech (../shared/data/audio's wavs) whose "
             "segments and token counts came out identical in kebab and whisper-cli; a "
             f"random-weight model of whisper-base's shape ({fmt(median(res.get('model_mb')))} MB), "
             f"greedy decoding (`whisper-cli -bs 1`), {fmt(median(res.get('threads')))} threads; "
             "whole processes, model load included"]
    floor = "whisper-cli, same files and model"
    rows = [
        Row("real-time factor, kebab-audio alone (wall / audio s)", res.get("kebab_worker_rtf"),
            res.get("floor_rtf"), floor, (Target("≤ 1.1×", "ratio", "<=", 1.1),), True),
        Row("real-time factor, whole `kebab ingest` of one file", res.get("kebab_ingest_rtf"),
            res.get("floor_rtf"), floor, (Target("≤ 1.1×", "ratio", "<=", 1.1),), True),
    ]
    for fid in (res.get("per_file") or {}):
        rows.append(Row(f"{fid}: real-time factor, kebab-audio",
                        at(res, "per_file", fid, "worker_rtf"),
                        at(res, "per_file", fid, "floor_rtf"), floor))
    return notes, rows


def watch_table(res):
    """`kebab serve`'s watch on tldr-pages: edit to searchable, a burst vs a cold ingest of the
    same pages, the idle service."""
    notes = [f"tldr-pages, {fmt(median(res.get('files')))} files, "
             f"{fmt(median(res.get('folders_watched')))} folders watched; [watch] debounce_ms "
             f"{fmt(median(res.get('debounce_ms')))}; a save appends a line to a random page, "
             "then whole `kebab search` processes (through the service) every 20 ms until it "
             "is the hit"]
    rows = [
        Row("edit to searchable p50 (ms)", at(res, "edit_p50_ms")),
        Row("edit to searchable p95 (ms)", at(res, "edit_p95_ms"), at(res, "noop_ingest_ms"),
            "a no-op `kebab ingest`", (Target("≤ 1 s", "value", "<=", 1000),), True),
        Row("burst of rewritten pages caught up (s)", at(res, "burst_s"), at(res, "burst_floor_s"),
            "cold ingest of those pages", (Target("≤ 1.2× cold ingest", "ratio", "<=", 1.2),)),
        Row("burst of rewritten pages caught up (s)", at(res, "burst_s"),
            at(res, "burst_reingest_s"), "`kebab ingest` of the workspace, no service"),
        Row("idle CPU (share of a core)", at(res, "idle_cpu_share"),
            targets=(Target("≤ 0.5%", "value", "<=", 0.005),)),
        Row("idle RSS (MB)", at(res, "idle_rss_mb")),
    ]
    return notes, rows


BENCHES = {
    "lexical": Bench(["bench/lexical_bench.py"], [], ["--corpus", "astro", "--queries", "20"],
                     [], ["kebab"], "ingest and search latency vs bare FTS5, Recoll, ripgrep",
                     lexical_table),
    "vector": Bench(["build/bench/kebab_vector_bench"], ["--sizes", "10000,100000"],
                    ["--sizes", "10000", "--queries", "200", "--engines", "kebab,usearch"],
                    ["--sizes", "10000,100000,1000000"], ["kebab_vector_bench"],
                    "vector index search vs bare USearch", vector_table),
    "hybrid": Bench(["bench/hybrid_bench.py"], [],
                    ["--corpus", "astro", "--queries", "10", "--work", QUICK_HYBRID_WORK,
                     "--model", hybrid_bench.TINY_MODEL, "--copies", "1", "--threads", "1"], [],
                    ["kebab", "kebab_tiny_models", "kebab_bench_models"],
                    "hybrid `kebab search` latency",
                    hybrid_table),
    "ask": Bench(["bench/ask_bench.py"], [],
                 ["--corpus", "astro", "--queries", "10", "--work", QUICK_HYBRID_WORK], [],
                 ["kebab", "kebab_tiny_models"], "`kebab ask` pipeline overhead", ask_table),
    # The suite's runs are the rounds: one round per run.
    "embed": Bench(["bench/embed_bench.py"], ["--rounds", "1"],
                   ["--files", "8", "--rounds", "1", "--runs", "3", "--skip-single"], [],
                   ["kebab", "kebab_embed_bench", "kebab_bench_models"],
                   "embedding: the embedder alone vs ingest; model load per search", embed_table),
    "eval": Bench(["bench/eval_bench.py"], ["--runs", "1"], ["--runs", "1"], [],
                  ["kebab", "kebab_tiny_models"], "Cranfield retrieval quality and eval speed",
                  eval_table),
    "korean": Bench(["bench/korean_bench.py"], ["--skip-cranfield"],
                    ["--skip-cranfield", "--queries", "100"], [], ["kebab"],
                    "Korean question retrieval beside bigram and word BM25", korean_table),
    "verify": Bench(["bench/verify_bench.py"], [], [], [], ["kebab"],
                    "`kebab ask`'s citation check on labelled claims", verify_table),
    # After hybrid: --hybrid reuses its index (the first ingest takes about an hour).
    "mcp": Bench(["bench/mcp_bench.py"], ["--hybrid"], ["--queries", "50", "--calls", "1000"],
                 [], ["kebab", "kebab_bench_models"],
                 "search through `kebab mcp` vs inside it; the server's RSS", mcp_table),
    "pdf": Bench(["bench/pdf_bench.py"], [], ["--sentences", "50", "--big-pages", "300",
                                              "--no-recoll"], [], ["kebab", "kebab-pdf"],
                 "PDF ingest vs pdftotext + FTS5 and Recoll; page accuracy", pdf_table),
    "passage": Bench(["bench/passage_bench.py"], [], ["--quick"], [], ["kebab", "kebab-pdf"],
                     "a remembered passage: 9 words find their page, vs FTS5 page floors",
                     passage_table),
    "ocr": Bench(["bench/ocr_bench.py"], [], ["--quick"], [], ["kebab", "kebab-pdf", "kebab-ocr"],
                 "OCR time and CER vs the tesseract CLI; the OCR cache", ocr_table),
    "code": Bench(["bench/code_bench.py"], [], ["--quick"], [],
                  ["kebab", "kebab_code_parse_floor"],
                  "code ingest vs a tree-sitter parse floor and ctags; code search; symbols",
                  code_table),
    "audio": Bench(["bench/audio_bench.py"], [], ["--quick"], [], ["kebab", "kebab-audio"],
                   "recordings: WER and speed vs pocketsphinx_continuous; time citations",
                   audio_table),
    "whisper": Bench(["bench/whisper_bench.py"], [], ["--quick", "--runs", "1"], [],
                     ["kebab", "kebab-audio", "kebab_bench_models"],
                     "recordings by whisper.cpp: RTF vs whisper-cli", whisper_table),
    "generate": Bench(["bench/generate_compare.py"], ["--rounds", "1"],
                      ["--rounds", "1", "--prompt", "64", "--tokens", "16"], [],
                      ["kebab_generate_bench", "kebab_bench_models"],
                      "in-process generation vs llama-bench", generate_table),
    "watch": Bench(["bench/watch_bench.py"], [], ["--quick"], [], ["kebab"],
                   "`kebab serve`'s watch: a save to a hit, a burst, idle", watch_table),
}


def bench_table(name, results):
    """A benchmark's notes and rows, without the rows whose numbers this run lacks (a peer
    that is not installed, a size not run)."""
    notes, rows = BENCHES[name].table(results)
    return notes, [r for r in rows
                   if r.kebab is not None and (r.floor is not None or not r.floor_name
                                               or r.targets)]


def ratio(row):
    """The median of the per-run kebab / floor ratios (both were measured in the same run)."""
    if not row.floor or not row.kebab:
        return None
    pairs = zip(row.kebab["runs"], row.floor["runs"])
    ratios = [k / f for k, f in pairs if k is not None and f]
    return statistics.median(ratios) if ratios else None


def verdict(row, target):
    if not target.applies:
        return f"n/a ({target.why_not})"
    x = median(row.kebab) if target.on == "value" else ratio(row)
    if x is None:
        return "?"
    ok = x <= target.limit if target.op == "<=" else x >= target.limit
    return "yes" if ok else "**no**"


def fmt(x):
    """A count in full (grouped), any other number to about three significant digits."""
    if x is None:
        return "–"
    if isinstance(x, int):
        return f"{x:,}"
    if not isinstance(x, float):
        return str(x)
    a = abs(x)
    return (f"{x:.0f}" if a >= 100 else f"{x:.1f}" if a >= 10 else f"{x:.2f}" if a >= 1
            else f"{x:.3f}")


def table(rows, spread=True, benches=None):
    """A Markdown table of rows; `benches` (one name per row) adds a first column."""
    head = (["benchmark"] if benches else []) + ["metric", "kebab", "floor / peer",
                                                 "kebab / floor", "target", "met"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, row in enumerate(rows):
        kebab = fmt(median(row.kebab))
        low, high = fmt(row.kebab["min"]), fmt(row.kebab["max"])
        if spread and low != high:
            kebab += f" ({low}–{high})"
        floor = f"{fmt(median(row.floor))} ({row.floor_name})" if row.floor else "–"
        r = ratio(row)
        cells = ([benches[i]] if benches else []) + [
            row.metric, kebab, floor, f"{r:.2f}×" if r is not None else "–",
            "; ".join(t.text for t in row.targets) or "–",
            "; ".join(verdict(row, t) for t in row.targets) or "–"]
        out.append("| " + " | ".join(cells) + " |")
    return out


# --------------------------------------------------------------------------------- results
def aggregate(values):
    """Merges one value per run (None where a run lacks it) into one: numbers become
    {median, min, max, runs}, objects are merged key by key, and anything else is kept when
    every run agrees (else the list of the runs' values)."""
    present = [v for v in values if v is not None]
    if not present:
        return None
    if all(isinstance(v, dict) for v in present):
        keys = dict.fromkeys(k for v in present for k in v)
        return {k: aggregate([v.get(k) if isinstance(v, dict) else None for v in values])
                for k in keys}
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        mid = statistics.median(present)
        if all(isinstance(v, int) for v in present) and mid == int(mid):
            mid = int(mid)  # counts stay counts
        return {"median": mid, "min": min(present), "max": max(present), "runs": values}
    return present[0] if all(v == present[0] for v in present) else values


def capture(cmd):
    """A command's stripped stdout, or "" when it fails or is missing."""
    try:
        p = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=60)
    except OSError:
        return ""
    return p.stdout.strip() if p.returncode == 0 else ""


def machine():
    """The machine the numbers come from."""
    def first(path, pattern):
        try:
            with open(path, encoding="utf-8") as f:
                m = re.search(pattern, f.read(), re.M)
        except OSError:
            return None
        return m.group(1) if m else None
    mem_kb = first("/proc/meminfo", r"^MemTotal:\s+(\d+)")
    return {"cpu": first("/proc/cpuinfo", r"^model name\s*:\s*(.*)$"), "nproc": os.cpu_count(),
            "ram_gib": round(int(mem_kb) / 2**20, 1) if mem_kb else None,
            "os": first("/etc/os-release", r'^PRETTY_NAME="?([^"\n]*)'),
            "kernel": os.uname().release}


def kebab_info():
    """kebab's version and the commit the numbers belong to."""
    return {"version": capture([os.path.join(REPO, "build", "kebab"), "--version"]),
            "commit": capture(["git", "rev-parse", "HEAD"]),
            "branch": capture(["git", "rev-parse", "--abbrev-ref", "HEAD"]),
            "dirty": bool(capture(["git", "status", "--porcelain", "--untracked-files=no"]))}


def result_paths(quick):
    """bench/results/YYYY-MM-DD[-quick][-N].json and .md, N for a second suite of the day."""
    base = datetime.date.today().isoformat() + ("-quick" if quick else "")
    name, n = base, 1
    while os.path.exists(os.path.join(RESULTS, name + ".json")):
        n += 1
        name = f"{base}-{n}"
    path = os.path.join(RESULTS, name)
    return path + ".json", path + ".md"


def write(path, text):
    """Writes through a .tmp beside it (ignored by git), so a reader never sees half a file."""
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def loadavg():
    return [round(x, 2) for x in os.getloadavg()]


def run_once(name, cmd, i, runs, out):
    """One run of a benchmark, its output going to the terminal; (run record, its JSON)."""
    print(f"\n== suite: {name} run {i}/{runs}: {shlex.join(cmd)}  (load average "
          f"{' '.join(map(str, loadavg()))})", flush=True)
    record = {"run": i, "started": datetime.datetime.now().astimezone().isoformat("T", "seconds"),
              "load_average_before": loadavg()}
    t0 = time.perf_counter()
    code = subprocess.run([os.path.join(REPO, cmd[0])] + cmd[1:] + ["--json-out", out],
                          cwd=REPO).returncode
    record.update({"seconds": round(time.perf_counter() - t0, 1), "exit_code": code,
                   "load_average_after": loadavg()})
    data = None
    if code == 0 and os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            data = json.load(f)
    record["status"] = "ok" if data else "failed" if code else "no results"
    return record, data


def run_bench(name, bench, args, tmp):
    """Runs one benchmark args.runs times; its entry of the results file."""
    extra = bench.quick if args.quick else bench.full if args.full and bench.full else bench.args
    cmd = bench.command + extra
    runs, data = [], []
    for i in range(1, args.runs + 1):
        record, result = run_once(name, cmd, i, args.runs, os.path.join(tmp, f"{name}-{i}.json"))
        runs.append(record)
        if result is not None:
            data.append(result)
        elif record["status"] == "no results":
            break  # the benchmark skipped itself (e.g. the corpora are absent): so would the rest
    return {"command": shlex.join(cmd), "about": bench.about, "runs": runs,
            "results": aggregate(data) if data else None}


def markdown(report):
    """The results file as Markdown: the run, the machine, then a table per benchmark."""
    m, k = report["machine"], report["kebab"]
    lines = [f"# kebab benchmarks, {report['date']}{' (quick)' if report['quick'] else ''}", "",
             f"`{report['command']}`: {report['runs']} runs per benchmark; `{k['version']}` at "
             f"{k['commit'][:12]} on {k['branch']}{', with uncommitted changes' * k['dirty']}. "
             f"Machine: {m['cpu']}, {m['nproc']} CPUs, {m['ram_gib']} GiB RAM, "
             f"{m['os']}, Linux {m['kernel']}.", "",
             "Numbers are medians over the runs (min–max beside kebab's when they differ); "
             "kebab / floor is the median of the per-run ratios, the floor being measured in the "
             "same run. Every number, per run, is in the .json beside this file.", ""]
    if report["quick"]:
        lines += ["**Quick run** (small sizes, few queries): for checking the plumbing, not for "
                  "comparison or the README.", ""]
    for name, entry in report["benchmarks"].items():
        lines += [f"## {name}: {entry['about']}", "", f"`{entry['command']}`", ""]
        runs = entry["runs"]
        lines.append("Runs: " + "; ".join(
            f"{r['run']}: {r['status']}, {r['seconds']:.0f} s, load average "
            f"{r['load_average_before'][0]} → {r['load_average_after'][0]}" for r in runs) + ".")
        if not entry["results"]:
            lines += ["", "No results.", ""]
            continue
        notes, rows = bench_table(name, entry["results"])
        lines += [""] + [f"- {n}" for n in notes] + [""] + table(rows) + [""]
    return "\n".join(lines)


def run_suite(args):
    names = args.only.split(",") if args.only else list(BENCHES)
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        sys.exit(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(BENCHES)}")
    if args.runs is None:
        args.runs = 2 if args.quick else MIN_PUBLISHED_RUNS
    if not args.quick and args.runs < MIN_PUBLISHED_RUNS:
        print(f"suite: {args.runs} runs; a published table needs at least {MIN_PUBLISHED_RUNS}",
              file=sys.stderr)
    if not args.no_build:
        build([n for n in BENCHES if n in names], args.quick)
    if os.getloadavg()[0] > 0.5 * (os.cpu_count() or 1):
        print(f"suite: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs: other work "
              "is running, and it shows in every number", file=sys.stderr)
    os.makedirs(RESULTS, exist_ok=True)
    json_path, md_path = result_paths(args.quick)
    report = {"schema": "kebab-bench-suite.v1", "date": datetime.date.today().isoformat(),
              "started": datetime.datetime.now().astimezone().isoformat("T", "seconds"),
              "finished": None, "command": shlex.join(["bench/suite.py"] + sys.argv[1:]),
              "runs": args.runs, "quick": args.quick, "full": args.full, "machine": machine(),
              "kebab": kebab_info(), "benchmarks": {}}
    with tempfile.TemporaryDirectory(prefix="kebab-suite-") as tmp:
        for name in (n for n in BENCHES if n in names):
            report["benchmarks"][name] = run_bench(name, BENCHES[name], args, tmp)
            write(json_path, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
            write(md_path, markdown(report))
    report["finished"] = datetime.datetime.now().astimezone().isoformat("T", "seconds")
    write(json_path, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    write(md_path, markdown(report))
    print(f"\nsuite: wrote {os.path.relpath(json_path, REPO)} and {os.path.relpath(md_path, REPO)}")
    failed = [n for n, e in report["benchmarks"].items() if not e["results"]]
    if failed:
        print(f"suite: no results from {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def build(names, quick):
    """Builds what the benchmarks run, after scripts/setup.sh has installed what they use beside
    kebab (Recoll, ripgrep, poppler-utils, ...) and configured build/ with the benchmark
    programs, both of which a plain scripts/setup.sh leaves out."""
    subprocess.run([os.path.join(REPO, "scripts", "setup.sh"), "--tests", "--configure-only"],
                   cwd=REPO, check=True)
    if "vector" in names and not quick:
        ensure_faiss()
    targets = list(dict.fromkeys(t for n in names for t in BENCHES[n].targets))
    subprocess.run(["cmake", "--build", "build", "--target"] + targets, cwd=REPO, check=True)


def ensure_faiss():
    """Installs Debian's libfaiss-dev when missing (the vector benchmark's FAISS rows; not part
    of scripts/setup.sh), and re-runs CMake so the benchmark links it."""
    status = capture(["dpkg-query", "-W", "-f=${Status}", "libfaiss-dev"])
    if not status.endswith("install ok installed"):
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(sudo + ["apt-get", "update", "-qq"], env=env)
        if subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends",
                                  "libfaiss-dev"], env=env, stdout=subprocess.DEVNULL).returncode:
            print("suite: libfaiss-dev not installed; the vector benchmark runs without FAISS",
                  file=sys.stderr)
    subprocess.run(["cmake", "-S", ".", "-B", "build"], cwd=REPO, stdout=subprocess.DEVNULL,
                   check=True)


# ---------------------------------------------------------------------------------- README
def readme_block(reports):
    """What goes between the README's markers: where the numbers come from, then the rows that
    have a target or a floor, all benchmarks in one table. `reports` is [(json path, report)];
    each benchmark comes from the last report that measured it, so a partial suite re-run can
    refresh its rows and keep the others."""
    newest = {}
    for path, report in reports:
        for name, entry in report["benchmarks"].items():
            if entry["results"]:
                newest[name] = (path, report)
    rows, benches, sources = [], [], collections.OrderedDict()
    for name in BENCHES:
        if name not in newest:
            continue
        path, report = newest[name]
        headline = [r for r in bench_table(name, report["benchmarks"][name]["results"])[1]
                    if r.headline]
        rows += headline
        benches += [name] * len(headline)
        sources.setdefault(path, (report, []))[1].append(name)
    about = []
    for path, (report, names) in sources.items():
        m, k = report["machine"], report["kebab"]
        md = os.path.relpath(os.path.splitext(path)[0] + ".md", REPO)
        which = "" if len(sources) == 1 else f"{', '.join(names)}: "
        about.append(f"{which}medians of {report['runs']} runs per benchmark, {report['date']}, "
                     f"`{k['version']}` at {k['commit'][:12]}; {m['cpu']}, {m['nproc']} CPUs, "
                     f"{m['ram_gib']} GiB RAM. `{report['command']}` measured it; every number, "
                     f"its spread and the load average of each run are in [{md}]({md}).")
    text = " ".join(a[0].upper() + a[1:] for a in about)
    return [textwrap.fill(text, 100), ""] + table(rows, spread=False, benches=benches)


def update_readme(json_paths):
    reports = []
    for json_path in json_paths:
        with open(json_path, encoding="utf-8") as f:
            report = json.load(f)
        if report["quick"]:
            sys.exit(f"{json_path} is a --quick run: not for the README")
        if report["runs"] < MIN_PUBLISHED_RUNS:
            sys.exit(f"{json_path} has {report['runs']} runs per benchmark; the README's table "
                     f"needs at least {MIN_PUBLISHED_RUNS}")
        reports.append((os.path.abspath(json_path), report))
    block = "\n".join(readme_block(reports))
    with open(README, encoding="utf-8") as f:
        text = f.read()
    start, end = (text.find(m) for m in MARKERS)
    if start < 0 or end < start:
        sys.exit(f"README.md lacks the {MARKERS[0]} ... {MARKERS[1]} markers")
    write(README, text[:start + len(MARKERS[0])] + "\n" + block + "\n" + text[end:])
    print(block)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, help=f"runs per benchmark (default {MIN_PUBLISHED_RUNS}; "
                                             "2 with --quick)")
    ap.add_argument("--only", help=f"comma-separated subset of {','.join(BENCHES)}")
    ap.add_argument("--quick", action="store_true",
                    help="small sizes and few queries, to check the plumbing")
    ap.add_argument("--full", action="store_true",
                    help="also the sizes that take long (vector 1M: ~30 min per run)")
    ap.add_argument("--no-build", action="store_true",
                    help="run what build/ has instead of building the benchmarks first")
    ap.add_argument("--readme", metavar="RESULTS.json", nargs="+",
                    help="put that result's table into README.md (and print it), then stop; "
                         "with several, each benchmark comes from the last file that has it")
    args = ap.parse_args()
    if args.readme:
        return update_readme(args.readme)
    if args.quick and args.full:
        ap.error("--quick and --full exclude each other")
    if args.runs is not None and args.runs < 1:
        ap.error("--runs must be at least 1")
    return run_suite(args)


if __name__ == "__main__":
    sys.exit(main())
