#!/usr/bin/python3
"""Retrieval quality and eval speed on Cranfield (../shared/data/ir/cranfield, BEIR layout).

In a throw-away home: `kebab eval import --format beir` once, then `kebab eval run --suite
cranfield --k 100` as whole processes for lexical search without stemming, with the English
Snowball stemmer, and (when the tiny test embedding model is built) hybrid with that
random-weight model — its numbers test the mechanics only, not a model's quality. For each it
prints nDCG@10, MRR@10 and recall@100 beside the plain BM25 reference of
../shared/data/README.md (nDCG@10 0.311, MRR@10 0.477, recall@100 0.686; no stemming, k1=0.9,
b=0.4) and the wall time of the `eval run` process (target: < 10 s for 225 lexical queries on
2 cores). Each stemmer setting re-indexes the collection once before its first timed run;
that ingest is timed apart. Numbers are printed, never asserted.

In the same run, the floor of bench/ir_floors.py on the same queries: a bare SQLite FTS5 table
(porter + unicode61) queried with the query's words OR-joined, ranked by SQLite's bm25. Each
`--collection DIR` (BEIR, or TREC when DIR has no corpus.jsonl) is imported into a home of its
own and run with `--mode lexical` (the default English stemmer) beside that floor, and whether
kebab's nDCG@10 reaches the floor's is printed; so is bench/data/cranfield-long (paragraph-length
rewrites of 60 Cranfield questions, judged by Cranfield's qrels) when its queries.jsonl is
there. `--queries FILE` replaces Cranfield's queries with another queries.jsonl using the same
ids (the plain BM25 reference and the targets are then about other queries).
Usage: bench/eval_bench.py [--runs 3] [--kebab PATH] [--json-out PATH] [--queries FILE]
                           [--collection DIR ...]
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile

import ir_floors

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRANFIELD = os.path.normpath(os.path.join(REPO, "..", "shared", "data", "ir", "cranfield"))
TINY_MODEL = os.path.join(REPO, "build", "tests", "models", "bge-tiny.gguf")
REFERENCE = {"ndcg@10": 0.311, "mrr@10": 0.477, "recall@100": 0.686}
METRICS = ["ndcg@10", "mrr@10", "recall@100"]
CRANFIELD_LONG = os.path.join(REPO, "bench", "data", "cranfield-long", "queries.jsonl")
FLOOR_LABEL = "floor: FTS5 OR of words, bm25"


def kebab(binary, home, *args, env=None):
    """One `kebab --json ...` process in `home`: (JSON, wall s); a failure ends the benchmark."""
    try:
        return ir_floors.kebab(binary, home, *args, env=env)
    except RuntimeError as e:
        sys.exit(str(e))


def measure(binary, home, label, mode, env, runs):
    """One untimed run brings the index up to date for this setting; then `runs` timed ones."""
    _, ingest_s = kebab(binary, home, "eval", "run", "--suite", "cranfield", "--k", "100",
                        "--mode", mode, env=env)
    walls, run = [], None
    for _ in range(runs):
        run, wall = kebab(binary, home, "eval", "run", "--suite", "cranfield", "--k", "100",
                          "--mode", mode, env=env)
        walls.append(wall)
    agg = run["aggregate"]
    return {"label": label, "mode": mode, "queries": agg["total_queries"],
            "first_run_with_reindex_s": ingest_s, "eval_run_s": statistics.median(walls),
            "latency_p50_ms": agg["latency_p50_ms"],
            "latency_p95_ms": agg["latency_p95_ms"],
            **{m: agg[m] for m in METRICS}}


def floor(collection_dir):
    """The FTS5 OR-query floor on a collection: its metrics and seconds (index + queries)."""
    docs, queries, qrels = ir_floors.load_collection(collection_dir)
    return {"label": FLOOR_LABEL, **ir_floors.run_floor(ir_floors.fts5_or_bm25, docs, queries,
                                                         qrels)}


def with_cranfield_judgements(work, name, queries_file):
    """A BEIR directory `work/name` (its name is the suite's): `queries_file` as queries.jsonl
    beside Cranfield's corpus.jsonl and qrels/, linked."""
    return ir_floors.make_beir(os.path.join(work, name),
                               corpus=os.path.join(CRANFIELD, "corpus.jsonl"),
                               queries=queries_file, qrels=os.path.join(CRANFIELD, "qrels"))


def collection_rows(binary, name, path):
    """kebab (lexical, default stemmer, a home of its own) and the floor on one collection."""
    fmt = ir_floors.collection_format(path)
    print(f"== {name} ({fmt}, {path}); load average {os.getloadavg()[0]:.1f}", flush=True)
    try:
        k = ir_floors.kebab_eval(binary, None, path, fmt, name=name)
    except RuntimeError as e:
        sys.exit(str(e))
    return {"dir": path, "format": fmt, "documents": k["documents"], "queries": k["queries"],
            "kebab": {"label": f"{name}: lexical, stemmed", **k},
            "floor": {**floor(path), "label": f"{name}: FTS5 OR floor"}}


def print_row(r, seconds, p95=None):
    """One table line: the label (cut to 44 characters), metrics, seconds, p95."""
    label = r["label"] if len(r["label"]) <= 44 else r["label"][:43] + "…"
    print(f"{label:44} " + " ".join(f"{r[m]:8.3f}" for m in METRICS) +
          f" {seconds:11.2f}" + (f" {p95:8.1f}" if p95 is not None else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--kebab", default=os.path.join(REPO, "build", "kebab"))
    ap.add_argument("--json-out", help="also write the numbers to this JSON file")
    ap.add_argument("--queries", help="a queries.jsonl to use instead of Cranfield's (same ids)")
    ap.add_argument("--collection", action="append", default=[],
                    help="also a BEIR or TREC collection directory, beside the floor (repeatable)")
    args = ap.parse_args()
    if not os.path.isdir(CRANFIELD):
        print(f"skipped: {CRANFIELD} is absent (the corpora live in ../shared/data)")
        return 0
    if not os.access(args.kebab, os.X_OK):
        print(f"{args.kebab} is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2

    home = tempfile.mkdtemp(prefix="kebab-eval-bench-")
    work = tempfile.mkdtemp(prefix="kebab-eval-bench-collections-")
    cranfield = CRANFIELD
    if args.queries:  # the directory's name, cranfield, stays the suite's
        cranfield = with_cranfield_judgements(work, "cranfield", args.queries)
    extra = [(os.path.basename(os.path.normpath(d)), os.path.abspath(d)) for d in args.collection]
    if os.path.isfile(CRANFIELD_LONG):
        extra.append(("cranfield-long",
                      with_cranfield_judgements(work, "cranfield-long", CRANFIELD_LONG)))
    try:
        report, import_s = kebab(args.kebab, home, "eval", "import", "--format", "beir",
                                 cranfield)
        print(f"== Cranfield: {report['documents']} documents, {report['queries']} queries, "
              f"{report['judgements']} judgements; import + index {import_s:.2f} s; "
              f"load average {os.getloadavg()[0]:.1f}", flush=True)
        settings = [("lexical_plain", "lexical, no stemming", "lexical",
                     {"KEBAB_SEARCH_STEMMER": "none"}),
                    ("lexical_stemmed", "lexical, English stemmer", "lexical",
                     {"KEBAB_SEARCH_STEMMER": "english"})]
        if os.path.exists(TINY_MODEL):
            settings.append(("hybrid_tiny", "hybrid, random tiny model (mechanics only)", "hybrid",
                             {"KEBAB_SEARCH_STEMMER": "english",
                              "KEBAB_MODELS_EMBEDDING_PROVIDER": "llama",
                              "KEBAB_MODELS_EMBEDDING_MODEL": TINY_MODEL}))
        rows = {key: measure(args.kebab, home, label, mode, env, args.runs)
                for key, label, mode, env in settings}
        floor_row = floor(cranfield)
        collections = {name: collection_rows(args.kebab, name, path) for name, path in extra}
    finally:
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)

    print(f"\n{'setting':44} {'nDCG@10':>8} {'MRR@10':>8} {'R@100':>8} {'eval run s':>11} "
          f"{'p95 ms':>8}")
    print(f"{'plain BM25 reference (no stemming)':44} " +
          " ".join(f"{REFERENCE[m]:8.3f}" for m in METRICS))
    for r in rows.values():
        print_row(r, r["eval_run_s"], r["latency_p95_ms"])
    print_row(floor_row, floor_row["seconds"])
    for c in collections.values():
        print_row(c["kebab"], c["kebab"]["eval_run_s"], c["kebab"]["latency_p95_ms"])
        print_row(c["floor"], c["floor"]["seconds"])
    print("(a floor's time is its index build and all its queries, in this process)")
    if args.queries:
        print(f"queries from {args.queries}: the reference and the targets below are about "
              "Cranfield's own queries")
    plain, stemmed = rows["lexical_plain"], rows["lexical_stemmed"]
    print(f"\ntargets: nDCG@10 without stemming >= 0.311: {plain['ndcg@10']:.3f} "
          f"({'met' if plain['ndcg@10'] >= 0.311 else 'MISSED'}); higher with stemming: "
          f"{stemmed['ndcg@10']:.3f} ({'met' if stemmed['ndcg@10'] > plain['ndcg@10'] else 'MISSED'}); "
          f"eval run < 10 s: {plain['eval_run_s']:.2f} s "
          f"({'met' if plain['eval_run_s'] < 10 else 'MISSED'})")
    ours, floors = stemmed["ndcg@10"], floor_row["ndcg@10"]
    print(f"Cranfield: stemmed nDCG@10 {ours:.3f} >= FTS5 OR floor {floors:.3f}: "
          f"{'met' if ours >= floors else 'MISSED'}")
    for name, c in collections.items():
        ours, floors = c["kebab"]["ndcg@10"], c["floor"]["ndcg@10"]
        c["kebab_ge_floor_ndcg@10"] = ours >= floors
        print(f"{name} ({c['documents']} documents, {c['queries']} queries): kebab nDCG@10 "
              f"{ours:.3f} >= floor {floors:.3f}: {'met' if ours >= floors else 'MISSED'}")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump({"documents": report["documents"], "queries": report["queries"],
                       "import_s": import_s, "reference": REFERENCE, "settings": rows,
                       "queries_file": args.queries, "floor": floor_row,
                       "collections": collections}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
