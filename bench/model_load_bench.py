#!/usr/bin/python3
"""Whole-process cost of loading a GGUF embedding model in `kebab search`.

Every hybrid `kebab search` loads the embedding model in-process (llama.cpp), so its load time
and memory are paid on every query. For each model (by default the two tiny test models the
build generates: multilingual-e5-tiny, an XLM-R/SentencePiece 250k-piece vocabulary, and
bge-tiny, a BERT/WordPiece 30k one), this indexes a few Markdown files once, then runs
`kebab search --trace --json` N times and prints the medians of model_load_ms (as kebab's own
trace measures it), query_embed_ms, the whole process's wall time and its peak RSS.
Several --kebab binaries (e.g. before and after a llama.cpp change) run interleaved, query by
query, so machine noise falls on all of them alike. Numbers are printed, never asserted.

Usage: bench/model_load_bench.py [--runs N] [--kebab PATH]... [--model PATH.gguf]...
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
DEFAULT_KEBAB = os.path.join(REPO, "build", "kebab")
DEFAULT_MODELS = os.path.join(REPO, "build", "tests", "models")
TINY_MODELS = ["multilingual-e5-tiny", "bge-tiny"]
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

    def __init__(self, root, kebab, model):
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
                    f'[models.embedding]\nprovider = "llama"\nmodel = "{model}"\n')
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="searches per model and binary")
    ap.add_argument("--kebab", action="append", help=f"binary (repeatable; default {DEFAULT_KEBAB})")
    ap.add_argument("--model", action="append",
                    help=f"GGUF model (repeatable; default the tiny models in {DEFAULT_MODELS})")
    args = ap.parse_args()
    kebabs = [os.path.abspath(k) for k in (args.kebab or [DEFAULT_KEBAB])]
    models = args.model or [os.path.join(DEFAULT_MODELS, m + ".gguf") for m in TINY_MODELS]
    for path in kebabs + models:
        if not os.path.exists(path):
            sys.exit(f"missing {path} (build kebab first: scripts/setup.sh)")

    work = tempfile.mkdtemp(prefix="kebab-model-load-")
    try:
        print(f"{args.runs} runs each; medians (min-max for model load)")
        print(f"{'model':<24} {'kebab':<40} {'model_load ms':>22} {'embed ms':>9} "
              f"{'process ms':>11} {'peak RSS MB':>12}")
        for model in models:
            boxes = {k: Sandbox(work, k, os.path.abspath(model)) for k in kebabs}
            samples = {k: [] for k in kebabs}
            for k in kebabs:  # warm the page cache and the binaries
                boxes[k].search(k)
            for _ in range(args.runs):
                for k in kebabs:
                    samples[k].append(boxes[k].search(k))
            name = os.path.basename(model).removesuffix(".gguf")
            for k in kebabs:
                load, embed, wall, rss = (list(col) for col in zip(*samples[k]))
                label = os.path.relpath(k, REPO) if k.startswith(REPO) else k
                span = f"{statistics.median(load):.1f} ({min(load):.0f}-{max(load):.0f})"
                print(f"{name:<24} {label[-40:]:<40} {span:>22} {statistics.median(embed):>9.1f} "
                      f"{statistics.median(wall):>11.1f} {statistics.median(rss):>12.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
