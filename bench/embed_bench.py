#!/usr/bin/python3
"""Whole-program benchmark of kebab's embedding: the embedder alone, ingest, and model load.

It runs on random-weight models of the real shapes (12 layers, 384 dims, 12 heads, FFN 1536,
512-token context, q8_0 matrices: bge-small-shaped, BERT/WordPiece, and
multilingual-e5-small-shaped, XLM-R/SentencePiece 250k), which it builds when missing
(`cmake --build BUILD --target kebab_bench_models`):
  embedder  kebab_embed_bench on the distinct chunk texts of an astro-docs subset
            (../shared/data/markdown): model load, then chunks/s and tokens/s batched as ingest
            embeds (models.embedding.batch_size texts per Embed call) vs one text at a time
  ingest    `kebab ingest` of the same files lexical-only, then into a fresh index with the
            model configured (--json): the embed phase's chunks/s (texts over the time inside
            the embed batches, from the embed_batch_finished events) and the whole run's,
            against the embedder's standalone batched chunks/s on the same texts (target:
            ingest keeps >= 90% of it)
  search    bench/model_load_bench.py on multilingual-e5-small-shaped: model_load_ms,
            query_embed_ms, wall time and peak RSS of a whole `kebab search` (target: <= 150 ms),
            with models.embedding.threads = 0 (all cores, the default) and 1, interleaved
The machine's load average is printed beside each part: embedding saturates every thread it is
given, so other work on the machine shows in every number. Numbers are printed, never asserted;
--json-out also writes them, units in the key names, as one JSON object (for bench/suite.py).
Usage: bench/embed_bench.py [--build DIR] [--files N] [--threads N] [--rounds N] [--runs N]
                            [--skip-single] [--json-out PATH]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tarfile
import tempfile

import lexical_bench
import model_load_bench

REPO = lexical_bench.REPO
DATA = lexical_bench.DATA
MODELS = ["bge-small-shaped", "multilingual-e5-small-shaped"]
TARGET_INGEST_SHARE = 0.90
BATCH_SIZE = 64  # models.embedding.batch_size's default


def load():
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def ensure_models(build):
    """Paths of the shaped models, generating them when missing."""
    paths = {m: os.path.join(build, "bench", "models", m + ".gguf") for m in MODELS}
    if not all(os.path.exists(p) for p in paths.values()):
        print("generating the benchmark models (cmake --build ... --target kebab_bench_models)",
              flush=True)
        p = lexical_bench.run(["cmake", "--build", build, "--target", "kebab_bench_models"])
        if p.returncode != 0:
            sys.exit(f"cannot build kebab_bench_models:\n{p.stdout}{p.stderr}")
    return paths


def workspace(work, n_files):
    """A workspace of n_files English astro-docs pages (a fixed sample), under `work`."""
    src = os.path.join(work, "astro")
    with tarfile.open(os.path.join(DATA, lexical_bench.CORPORA["astro"])) as t:
        t.extractall(src)
    en = os.path.join(src, "astro-docs", "src", "content", "docs", "en")
    pages = []
    for d, _, fs in os.walk(en):
        pages += [os.path.join(d, f) for f in fs if f.endswith((".md", ".mdx"))]
    pages = sorted(random.Random(42).sample(sorted(pages), min(n_files, len(pages))))
    root = os.path.join(work, "ws")
    for page in pages:
        dest = os.path.join(root, os.path.relpath(page, en))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy(page, dest)
    return root, len(pages), sum(os.path.getsize(p) for p in pages) / 1e6


def config(home, root, model=None, threads=0):
    """A config for an index of its own under `home`, embedding with `model` when given."""
    os.makedirs(home, exist_ok=True)
    path = os.path.join(home, "config.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'[workspace]\nroot = "{root}"\n[storage]\ndata_dir = "{home}/data"\n'
                f'cache_dir = "{home}/cache"\nstate_dir = "{home}/state"\n')
        if model:
            f.write(f'[models.embedding]\nprovider = "llama"\nmodel = "{model}"\n'
                    f'threads = {threads}\nbatch_size = {BATCH_SIZE}\n')
    return path


def ingest(kebab, cfg):
    """`kebab --json ingest`: (seconds, peak RSS MB, report, embed_batch_finished events)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KEBAB_")}
    env.update({"HOME": os.path.dirname(cfg), "NO_COLOR": "1", "LC_ALL": "C.UTF-8"})
    secs, rss, p = lexical_bench.timed([kebab, "--json", "--config", cfg, "ingest"], env=env)
    if p.returncode != 0:
        sys.exit(f"kebab ingest failed:\n{p.stderr}")
    lines = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    batches = [e for e in lines if e.get("kind") == "embed_batch_finished"]
    return secs, rss, lines[-1], batches


def embed_bench(binary, model, index, threads, single):
    cmd = [binary, "--model", model, "--index", index, "--texts", "0", "--threads", str(threads),
           "--batch", str(BATCH_SIZE), "--json"] + ([] if single else ["--no-single"])
    p = lexical_bench.run(cmd)
    if p.returncode != 0:
        sys.exit(f"kebab_embed_bench failed:\n{p.stderr}")
    return json.loads(p.stdout)


def print_embedder(r):
    print(f"embedder  {r['model']}: load {r['load_ms']:.1f} ms, first embed "
          f"{r['first_embed_ms']:.1f} ms; {r['texts']} texts, {r['tokens']} tokens "
          f"({r['tokens'] / r['texts']:.0f} per text, {r['truncated']} cut to {r['max_tokens']})")
    b = r["batched"]
    print(f"          batched ({r['batch']} texts per Embed)  {b['ms'] / 1000:7.2f} s  "
          f"{b['chunks_per_s']:6.1f} chunks/s  {b['tokens_per_s']:7.0f} tokens/s")
    if "single" in r:
        s = r["single"]
        print(f"          single  (1 text per Embed)    {s['ms'] / 1000:7.2f} s  "
              f"{s['chunks_per_s']:6.1f} chunks/s  {s['tokens_per_s']:7.0f} tokens/s  "
              f"p50 {s['p50_ms']:.1f} ms  p95 {s['p95_ms']:.1f} ms  "
              f"(lowest batched-vs-single cosine {r['min_cosine_batched_vs_single']:.6f})")


def compare_round(i, alone, ingested, lex_s):
    """Prints one round: the ingest with embeddings against the embedder alone. Returns its
    chunks/s: the embedder alone's, the ingest's embed phase's and the whole ingest's."""
    secs, rss, report, batches = ingested
    embedded = report["embeddings_indexed"]
    batch_s = sum(b["ms"] for b in batches) / 1000
    phase = sum(b["n_chunks"] for b in batches) / batch_s if batch_s else 0.0
    whole = embedded / secs
    standalone = alone["batched"]["chunks_per_s"]
    print(f"round {i}   embedder alone {standalone:.1f} chunks/s ({alone['texts']} texts); ingest "
          f"{secs:.2f} s (lexical-only {lex_s:.2f} s), peak RSS {rss:.0f} MB, {embedded} texts "
          f"in {len(batches)} batches: embed phase {phase:.1f} chunks/s = "
          f"{phase / standalone:.0%}, whole run {whole:.1f} chunks/s = {whole / standalone:.0%} "
          f"of the embedder alone  ({load()})", flush=True)
    return {"embedder_alone_chunks_per_s": standalone, "embed_phase_chunks_per_s": phase,
            "whole_run_chunks_per_s": whole}


def embedder_json(r):
    """The embedder's numbers (kebab_embed_bench --json) for --json-out, flat."""
    out = {"model": r["model"], "load_ms": r["load_ms"], "first_embed_ms": r["first_embed_ms"],
           "texts": r["texts"], "tokens": r["tokens"],
           "batched_chunks_per_s": r["batched"]["chunks_per_s"],
           "batched_tokens_per_s": r["batched"]["tokens_per_s"]}
    if "single" in r:
        single = r["single"]
        out.update({"single_chunks_per_s": single["chunks_per_s"],
                    "single_tokens_per_s": single["tokens_per_s"],
                    "single_p50_ms": single["p50_ms"], "single_p95_ms": single["p95_ms"]})
    return out


def ingest_json(rounds, lex_s, n_files, chunks):
    """The ingest rounds' medians for --json-out, with the shares of the embedder alone."""
    out = {"files": n_files, "chunks": chunks, "lexical_only_s": lex_s, "rounds": len(rounds)}
    for key in rounds[0]:
        out[key] = statistics.median(r[key] for r in rounds)
    for part in ("embed_phase", "whole_run"):
        out[f"{part}_share"] = statistics.median(
            r[f"{part}_chunks_per_s"] / r["embedder_alone_chunks_per_s"] for r in rounds)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="build directory (default build)")
    ap.add_argument("--files", type=int, default=120,
                    help="astro-docs pages to ingest (default 120, about 2000 chunk texts)")
    ap.add_argument("--threads", type=int, default=2, help="embedding threads (default 2)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="ingest-with-embeddings vs embedder-alone rounds (default 2)")
    ap.add_argument("--runs", type=int, default=15, help="`kebab search` runs (default 15)")
    ap.add_argument("--skip-single", action="store_true",
                    help="skip the embedder's one-text-at-a-time pass")
    ap.add_argument("--json-out", metavar="PATH", help="also write the numbers there as JSON")
    args = ap.parse_args()
    build = os.path.join(REPO, args.build)
    kebab = os.path.join(build, "kebab")
    bench = os.path.join(build, "bench", "kebab_embed_bench")
    for path in (kebab, bench):
        if not os.access(path, os.X_OK):
            sys.exit(f"missing {path}: build kebab and kebab_embed_bench first")
    models = ensure_models(build)
    bge = models["bge-small-shaped"]
    sizes = ", ".join(f"{m} {os.path.getsize(p) / 1e6:.1f} MB" for m, p in models.items())
    print(f"models: {sizes}; {args.threads} threads; {os.cpu_count()} CPUs", flush=True)
    report = {"threads": args.threads}

    if not os.path.isdir(DATA):
        print(f"embedder, ingest: skipped ({DATA} is absent; the corpora live in ../shared/data)")
    else:
        work = tempfile.mkdtemp(prefix="kebab-embed-bench-")
        try:
            root, n_files, mb = workspace(work, args.files)
            lex_s, lex_rss, lex, _ = ingest(kebab, config(os.path.join(work, "lexical"), root))
            print(f"ingest    lexical-only: {n_files} astro-docs pages, {mb:.1f} MB, "
                  f"{lex['chunks_indexed']} chunks in {lex_s:.2f} s, peak RSS {lex_rss:.0f} MB  "
                  f"({load()})", flush=True)
            index = os.path.join(work, "lexical", "data", "kebab.sqlite")
            alone = embed_bench(bench, bge, index, args.threads, not args.skip_single)
            print_embedder(alone)
            print(f"          ({load()})", flush=True)
            report["embedder"] = embedder_json(alone)

            # Each round pairs an ingest into a fresh index with a run of the embedder alone on
            # the same texts (the first round reuses the run above), back to back.
            rounds = []
            for i in range(args.rounds):
                if i > 0:
                    alone = embed_bench(bench, bge, index, args.threads, False)
                home = os.path.join(work, f"embedded-{i}")
                rounds.append(compare_round(i + 1, alone,
                                            ingest(kebab, config(home, root, bge, args.threads)),
                                            lex_s))
                shutil.rmtree(home, ignore_errors=True)
            report["ingest"] = ingest_json(rounds, lex_s, n_files, lex["chunks_indexed"])
            phase = report["ingest"]["embed_phase_share"]
            whole = report["ingest"]["whole_run_share"]
            print(f"ingest    median over {len(rounds)} rounds: embed phase {phase:.0%}, whole run "
                  f"{whole:.0%} of the embedder's standalone chunks/s (target: >= "
                  f"{TARGET_INGEST_SHARE:.0%})", flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    print(f"search    ({load()})", flush=True)
    # kebab's default (threads = 0: all cores) beside one thread, which a one-query embedding
    # needs no more than.
    rows = model_load_bench.report([kebab], [models["multilingual-e5-small-shaped"]], args.runs,
                                   (0, 1))
    report["search"] = {"model": rows[0]["model"], "runs": args.runs,
                        **{f"threads_{r['threads']}": r for r in rows}}
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
