#!/usr/bin/python3
"""Whole-process cost of loading a GGUF embedding model in `kebab search`.

Every hybrid `kebab search` loads the embedding model in-process (llama.cpp), so its load time
and memory are paid on every query. For each model (by default the benchmark models of the
real shapes when `cmake --build build --target kebab_bench_models` has generated them:
multilingual-e5-small-shaped, an XLM-R/SentencePiece 250k-piece vocabulary, and
bge-small-shaped, a BERT/WordPiece 30k one, both 12 layers, 384 dims, q8_0; else the tiny test
models multilingual-e5-tiny and bge-tiny), this indexes a few Markdown files once, then runs
`kebab search --trace --json` N times and prints the medians of model_load_ms (as kebab's own
trace measures it), query_embed_ms, the whole process's wall time and its peak RSS, beside the
target for a whole search. Several --kebab binaries (e.g. before and after a llama.cpp change)
and --threads settings run interleaved, query by query, so machine noise falls on all of them
alike. Numbers are printed, never asserted; --json-out also writes them, units in the key
names, as one JSON object.

Usage: bench/model_load_bench.py [--runs N] [--build DIR] [--kebab PATH]... [--threads N]...
                                 [--model PATH.gguf]... [--json-out PATH]
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
SHAPED_MODELS = ["multilingual-e5-small-shaped", "bge-small-shaped"]  # build/bench/models
TINY_MODELS = ["multilingual-e5-tiny", "bge-tiny"]  # build/tests/models
TARGET_MS = 150  # a whole `kebab search`, model load and query embedding included
QUERY = "write-ahead log checkpoint"
DOCS = {
    "sqlite.md": "# SQLite\n\nThe write-ahead log keeps readers and the writer apart; a checkpoint "
                 "copies pages back into the database file.\n",
    "korean.md": "# 데이터베이스\n\n데이터베이스는 트랜잭션을 지원합니다. 한국어 검색도 됩니다.\n",
    "japanese.md": "# 日本語\n\n東京タワーの近くでラーメンを食べました。\n",
    "notes.md": "# Notes\n\nEmbeddings map text to vectors; cosine similarity ranks them. 😀\n",
}


def run(cmd, env):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


class Sandbox:
    """A workspace, index and config of its own for one model."""

    def __init__(self, root, kebab, model, threads=0):
        self.dir = tempfile.mkdtemp(prefix="model-load-", dir=root)
        self.config = os.path.join(self.dir, "config.toml")
        ws = os.path.join(self.dir, "ws")
        os.makedirs(ws)
        for name, text in DOCS.items():
            with open(os.path.join(ws, name), "w", encoding="utf-8") as f:
                f.write(text)
        with open(self.config, "w", encoding="utf-8") as f:
            f.write(f'[workspace]\nroot = "{ws}"\n'
                    f'[storage]\ndata_dir = "{self.dir}/data"\ncache_dir = "{self.dir}/cache"\n'
                    f'state_dir = "{self.dir}/state"\n'
                    f'[models.embedding]\nprovider = "llama"\nmodel = "{model}"\n'
                    f'threads = {threads}\n')
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("KEBAB_")}
        self.env.update({"HOME": self.dir, "NO_COLOR": "1", "LC_ALL": "C.UTF-8"})
        for args in (["init"], ["ingest"]):
            p = run([kebab, "--config", self.config] + args, self.env)
            if p.returncode != 0:
                sys.exit(f"kebab {' '.join(args)} failed for {model}:\n{p.stderr}")

    def search(self, kebab):
        """One `kebab search` process: (model_load_ms, query_embed_ms, wall ms, peak RSS MB)."""
        t0 = time.perf_counter()
        p = run(["/usr/bin/time", "-f", "%M", kebab, "--json", "--config", self.config,
                 "search", QUERY, "--trace"], self.env)
        wall = (time.perf_counter() - t0) * 1000
        if p.returncode not in (0, 1):
            sys.exit(f"kebab search failed:\n{p.stderr}")
        timing = json.loads(p.stdout)["trace"]["timing"]
        rss = int(p.stderr.strip().splitlines()[-1]) / 1024.0
        return timing["model_load_ms"], timing.get("query_embed_ms", 0.0), wall, rss


def default_models(build):
    """The shaped benchmark models when the build has them, else the tiny test models."""
    shaped = [os.path.join(build, "bench", "models", m + ".gguf") for m in SHAPED_MODELS]
    if all(os.path.exists(m) for m in shaped):
        return shaped
    return [os.path.join(build, "tests", "models", m + ".gguf") for m in TINY_MODELS]


def report(kebabs, models, runs, threads=(0,)):
    """Prints one row per model, binary and models.embedding.threads setting (0 = kebab's
    default, all cores): the medians of `runs` searches each, all of a model's interleaved.
    Returns the rows as dicts (model, kebab, threads and the printed numbers)."""
    rows = []
    work = tempfile.mkdtemp(prefix="kebab-model-load-")
    try:
        print(f"{runs} runs each; medians (min-max for model load); target: a whole search "
              f"<= {TARGET_MS} ms (process ms)")
        print(f"{'model':<30} {'kebab':<34} {'model_load ms':>22} {'embed ms':>9} "
              f"{'process ms':>11} {'peak RSS MB':>12}")
        variants = [(k, t) for k in kebabs for t in threads]
        for model in models:
            boxes = {v: Sandbox(work, v[0], os.path.abspath(model), v[1]) for v in variants}
            samples = {v: [] for v in variants}
            for v in variants:  # warm the page cache and the binaries
                boxes[v].search(v[0])
            for _ in range(runs):
                for v in variants:
                    samples[v].append(boxes[v].search(v[0]))
            name = os.path.basename(model).removesuffix(".gguf")
            for v in variants:
                k, t = v
                load, embed, wall, rss = (list(col) for col in zip(*samples[v]))
                label = os.path.relpath(k, REPO) if k.startswith(REPO) else k
                label += f" threads={t}" if t else ""
                span = f"{statistics.median(load):.1f} ({min(load):.0f}-{max(load):.0f})"
                wall_ms = statistics.median(wall)
                verdict = "within" if wall_ms <= TARGET_MS else f"{wall_ms / TARGET_MS:.1f}x"
                print(f"{name:<30} {label[-34:]:<34} {span:>22} {statistics.median(embed):>9.1f} "
                      f"{wall_ms:>11.1f} {statistics.median(rss):>12.1f}  ({verdict} target)")
                rows.append({"model": name, "kebab": k, "threads": t,
                             "model_load_ms": statistics.median(load),
                             "model_load_min_ms": min(load), "model_load_max_ms": max(load),
                             "query_embed_ms": statistics.median(embed), "process_ms": wall_ms,
                             "peak_rss_mb": statistics.median(rss)})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="searches per model and binary")
    ap.add_argument("--build", default="build", help="build directory (default build)")
    ap.add_argument("--kebab", action="append", help="binary (repeatable; default BUILD/kebab)")
    ap.add_argument("--threads", type=int, action="append",
                    help="models.embedding.threads (repeatable; default 0 = all cores)")
    ap.add_argument("--model", action="append",
                    help="GGUF model (repeatable; default BUILD/bench/models' shaped models when "
                         "generated, else BUILD/tests/models' tiny ones)")
    ap.add_argument("--json-out", metavar="PATH", help="also write the numbers there as JSON")
    args = ap.parse_args()
    build = os.path.join(REPO, args.build)
    kebabs = [os.path.abspath(k) for k in (args.kebab or [os.path.join(build, "kebab")])]
    models = args.model or default_models(build)
    for path in kebabs + models:
        if not os.path.exists(path):
            sys.exit(f"missing {path} (build kebab first: scripts/setup.sh)")
    rows = report(kebabs, models, args.runs, args.threads or [0])
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump({"runs": args.runs, "target_process_ms": TARGET_MS,
                       "rows": {f"{r['model']} {r['kebab']} threads={r['threads']}": r
                                for r in rows}}, f, indent=1)


if __name__ == "__main__":
    main()
