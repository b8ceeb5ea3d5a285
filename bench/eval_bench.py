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
Usage: bench/eval_bench.py [--runs 3] [--kebab PATH] [--json-out PATH]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRANFIELD = os.path.normpath(os.path.join(REPO, "..", "shared", "data", "ir", "cranfield"))
TINY_MODEL = os.path.join(REPO, "build", "tests", "models", "bge-tiny.gguf")
REFERENCE = {"ndcg@10": 0.311, "mrr@10": 0.477, "recall@100": 0.686}
METRICS = ["ndcg@10", "mrr@10", "recall@100"]


def kebab(binary, home, *args, env=None):
    full_env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"),
                    XDG_DATA_HOME=os.path.join(home, "data"),
                    XDG_CACHE_HOME=os.path.join(home, "cache"),
                    XDG_STATE_HOME=os.path.join(home, "state"), **(env or {}))
    start = time.monotonic()
    p = subprocess.run([binary, "--json", *args], capture_output=True, text=True, env=full_env)
    wall = time.monotonic() - start
    if p.returncode != 0:
        sys.exit(f"kebab {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout), wall


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--kebab", default=os.path.join(REPO, "build", "kebab"))
    ap.add_argument("--json-out", help="also write the numbers to this JSON file")
    args = ap.parse_args()
    if not os.path.isdir(CRANFIELD):
        print(f"skipped: {CRANFIELD} is absent (the corpora live in ../shared/data)")
        return 0
    if not os.access(args.kebab, os.X_OK):
        print(f"{args.kebab} is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2

    home = tempfile.mkdtemp(prefix="kebab-eval-bench-")
    try:
        report, import_s = kebab(args.kebab, home, "eval", "import", "--format", "beir",
                                 CRANFIELD)
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
    finally:
        shutil.rmtree(home, ignore_errors=True)

    print(f"\n{'setting':44} {'nDCG@10':>8} {'MRR@10':>8} {'R@100':>8} {'eval run s':>11} "
          f"{'p95 ms':>8}")
    print(f"{'plain BM25 reference (no stemming)':44} " +
          " ".join(f"{REFERENCE[m]:8.3f}" for m in METRICS))
    for r in rows.values():
        print(f"{r['label']:44} " + " ".join(f"{r[m]:8.3f}" for m in METRICS) +
              f" {r['eval_run_s']:11.2f} {r['latency_p95_ms']:8.1f}")
    plain, stemmed = rows["lexical_plain"], rows["lexical_stemmed"]
    print(f"\ntargets: nDCG@10 without stemming >= 0.311: {plain['ndcg@10']:.3f} "
          f"({'met' if plain['ndcg@10'] >= 0.311 else 'MISSED'}); higher with stemming: "
          f"{stemmed['ndcg@10']:.3f} ({'met' if stemmed['ndcg@10'] > plain['ndcg@10'] else 'MISSED'}); "
          f"eval run < 10 s: {plain['eval_run_s']:.2f} s "
          f"({'met' if plain['eval_run_s'] < 10 else 'MISSED'})")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump({"documents": report["documents"], "queries": report["queries"],
                       "import_s": import_s, "reference": REFERENCE, "settings": rows}, f,
                      indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
