#!/usr/bin/python3
"""Whole-program benchmark of `kebab ask`'s own overhead at about 100k chunks.

Reuses bench/hybrid_bench.py's workspace (tldr-pages + astro-docs from ../shared/data, ingested
with the tiny embedding model; an index already there is only brought up to date). The language
model is tests/tools/fake_ollama.py with a scripted reply, so generation costs next to nothing
and what is timed is the pipeline: retrieval (hybrid: query embedding, lexical, vector, fusion),
the score gate, packing and prompt building, and the citation check. N deterministic questions
run as whole `kebab ask --json --explain` processes; the p50/p95 of the wall time and of each
stage the answer reports (answer.v1 explain.timings_ms) are printed, and the pipeline overhead
(everything but generation) is compared with the target. Numbers are printed, never asserted.
With --llm PATH.gguf the model is that GGUF run in-process instead (e.g.
build/bench/models/qwen2.5-0.5b-shaped.gguf on --llm-threads 2, answers cut at --max-tokens):
the same split then shows a real time to first token and generation, end to end.
--json-out also writes the numbers, units in the key names, as one JSON object (for
bench/suite.py).
Usage: bench/ask_bench.py [--queries 100] [--llm PATH.gguf] [--kebab PATH] [--corpus tldr|astro]...
                          [--json-out PATH]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import hybrid_bench
import lexical_bench

FAKE_OLLAMA = os.path.join(lexical_bench.REPO, "tests", "tools", "fake_ollama.py")
STAGES = ["retrieval", "prompt", "first_token", "generation", "verify", "total"]
# Retrieval's own stages that load and run the embedding model (the search targets leave
# them out as well).
EMBEDDING_STAGES = ["model_load_ms", "query_embed_ms"]
# --json-out's name for each series of samples (with _p50_ms / _p95_ms after it).
JSON_NAMES = {**{s: s for s in STAGES}, "model_load_ms": "retrieval_model_load",
              "query_embed_ms": "retrieval_query_embed", "overhead": "pipeline_overhead",
              "overhead_no_embed": "pipeline_overhead_without_embedding", "wall": "process",
              "wall_minus_generation": "process_minus_generation"}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--kebab", default=lexical_bench.KEBAB)
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "kebab-hybrid-bench"))
    ap.add_argument("--llm", help="a GGUF chat model to run in-process instead of the script")
    ap.add_argument("--llm-threads", type=int, default=2)
    ap.add_argument("--max-tokens", type=int, default=64)
    ap.add_argument("--corpus", choices=sorted(lexical_bench.CORPORA), action="append",
                    help="as hybrid_bench.py's (default: both)")
    ap.add_argument("--json-out", metavar="PATH", help="also write the numbers there as JSON")
    args = ap.parse_args()
    if not os.path.isdir(lexical_bench.DATA):
        print(f"skipped: {lexical_bench.DATA} is absent (the corpora live in ../shared/data)")
        return 0
    if not os.access(args.kebab, os.X_OK):
        print(f"{args.kebab} is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2

    corpus_root = os.path.join(args.work, "corpus")
    files = []
    for name in args.corpus or ["tldr", "astro"]:
        files += lexical_bench.extract(name, corpus_root)[1]
    kebab = hybrid_bench.Kebab(args.kebab, args.work, corpus_root, hybrid_bench.TINY_MODEL, 1)
    report, _, ingest_s = kebab.ingest()
    chunks = kebab.schema().get("stats", {}).get("chunk_count")
    print(f"== kebab ask overhead: {chunks} chunks (ingest brought up to date in "
          f"{ingest_s:.1f} s), {args.queries} questions; load average "
          f"{os.getloadavg()[0]:.1f}", flush=True)

    work = tempfile.mkdtemp(prefix="kebab-ask-bench-")
    reply = os.path.join(work, "reply.txt")
    with open(reply, "w", encoding="utf-8") as f:
        f.write('Use "tar" to extract an archive [#1]. The command lists files [#2].')
    fake = subprocess.Popen(["/usr/bin/python3", FAKE_OLLAMA, "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL,
                            env=dict(os.environ, FAKE_OLLAMA_REPLY_FILE=reply))
    try:
        port = int(fake.stdout.readline())
        if args.llm:
            llm = (f'provider = "llama"\nmodel = "{os.path.abspath(args.llm)}"\n'
                   f'threads = {args.llm_threads}\nmax_tokens = {args.max_tokens}\n'
                   f'context_tokens = 4096\n')
        else:
            llm = (f'provider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                   f'endpoint = "http://127.0.0.1:{port}"\n')
        with open(kebab.config, "a", encoding="utf-8") as f:
            f.write(f"[models.llm]\n{llm}")
        questions = lexical_bench.make_queries(files, args.queries)
        samples = {s: [] for s in STAGES + ["wall", "overhead", "overhead_no_embed",
                                             "wall_minus_generation"] + EMBEDDING_STAGES}
        outcomes = {}
        for i, q in enumerate(questions):
            cmd = kebab.base + ["ask", "--json", "--explain", "--mode", "hybrid", "--", q]
            t0 = time.perf_counter()
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=kebab.env)
            wall = (time.perf_counter() - t0) * 1000
            if p.returncode not in (0, 1):
                sys.exit(f"kebab ask {q!r} failed: {p.stderr.strip()[-2000:]}")
            answer = json.loads(p.stdout)
            reason = answer["refusal_reason"] or "grounded"
            outcomes[reason] = outcomes.get(reason, 0) + 1
            t = answer.get("explain", {}).get("timings_ms", {})
            stages = answer.get("explain", {}).get("retrieval_stages_ms", {})
            for s in EMBEDDING_STAGES:
                samples[s].append(stages.get(s, 0.0))
            for s in STAGES:
                samples[s].append(t.get(s, 0.0))
            samples["wall"].append(wall)
            samples["overhead"].append(t.get("retrieval", 0) + t.get("prompt", 0) +
                                       t.get("verify", 0))
            samples["overhead_no_embed"].append(samples["overhead"][-1] - sum(
                stages.get(s, 0.0) for s in EMBEDDING_STAGES))
            samples["wall_minus_generation"].append(wall - t.get("generation", 0))
            if (i + 1) % 25 == 0:
                print(f"  .. {i + 1} / {len(questions)}", file=sys.stderr, flush=True)
    finally:
        fake.kill()
        fake.wait()

    print(f"\n{'stage':34} {'p50 ms':>8} {'p95 ms':>8}")
    for s in STAGES + EMBEDDING_STAGES + ["overhead", "overhead_no_embed", "wall",
                                          "wall_minus_generation"]:
        p50, p95 = hybrid_bench.pct(samples[s])
        label = {"overhead": "pipeline (retrieval+prompt+verify)",
                 "overhead_no_embed": "pipeline minus embedding model",
                 "model_load_ms": "  retrieval: embedding model load",
                 "query_embed_ms": "  retrieval: query embedding",
                 "wall": "whole process",
                 "wall_minus_generation": "whole process minus generation"}.get(s, s)
        print(f"{label:34} {p50:8.1f} {p95:8.1f}")
    print(f"outcomes: {outcomes}")
    overhead95 = hybrid_bench.pct(samples["overhead"])[1]
    bare95 = hybrid_bench.pct(samples["overhead_no_embed"])[1]
    print(f"\ntarget: pipeline overhead outside generation <= 50 ms p95 at 100k chunks, at "
          f"{chunks} chunks: {bare95:.1f} ms without the embedding model's load and query "
          f"embedding ({'met' if bare95 <= 50 else 'MISSED'}), {overhead95:.1f} ms with them "
          f"({'met' if overhead95 <= 50 else 'MISSED'})")
    if args.json_out:
        out = {"chunks": chunks, "queries": len(questions), "outcomes": outcomes,
               "llm": os.path.basename(args.llm) if args.llm else "fake_ollama.py"}
        for series, name in JSON_NAMES.items():
            out.update(hybrid_bench.p50_p95(name, hybrid_bench.pct(samples[series])))
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
