#!/usr/bin/python3
"""kebab's in-process generation beside llama.cpp's own llama-bench, same model and threads.

Runs llama-bench (built by scripts/build-llama.sh --tools from the same source) for prompt
processing (-p N) and token generation after a prompt of that length (-n M -d N), then
build/bench/kebab_generate_bench --json on the same GGUF, threads and sizes, interleaved for
--rounds rounds so drifting load hits both alike. Prints both rates and kebab's share of
llama-bench's: prompt tokens/s (kebab: prompt tokens / time to first token, which also formats
and tokenizes the prompt and samples once) and decode tokens/s, against the target (within
10%). Numbers are printed, never asserted; --json-out also writes the medians, units in the key
names, as one JSON object (for bench/suite.py).
Usage: bench/generate_compare.py [--model PATH] [--threads 2] [--prompt 512] [--tokens 128]
                                 [--rounds 3] [--json-out PATH]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BUILD = os.path.join(REPO, "build")
DEFAULT_MODEL = os.path.join(BUILD, "bench", "models", "qwen2.5-0.5b-shaped.gguf")


def llama_tools_prefix():
    """bin/ of llama.cpp's programs, made by scripts/build-llama.sh --tools for this build."""
    with open(os.path.join(BUILD, "CMakeCache.txt"), encoding="utf-8") as f:
        m = re.search(r"^KEBAB_LLAMA_TOOLS_PREFIX:\w+=(.*)$", f.read(), re.M)
    return m.group(1) if m else ""


def llama_bench(binary, model, threads, prompt, tokens):
    """(prompt tokens/s, generation tokens/s) as llama-bench reports them (mean of 3 reps).
    Generation runs at depth `prompt` (-d): kebab generates after its prompt, and each token's
    attention costs more with more context before it."""
    out = subprocess.run([binary, "-m", model, "-t", str(threads), "-r", "3", "-o", "json",
                          "-p", f"{prompt},0", "-n", f"0,{tokens}", "-d", f"0,{prompt}"],
                         capture_output=True, text=True, check=True).stdout
    pp = tg = None
    for row in json.loads(out):
        if (row["n_prompt"], row["n_gen"], row.get("n_depth", 0)) == (prompt, 0, 0):
            pp = row["avg_ts"]
        if (row["n_prompt"], row["n_gen"], row.get("n_depth", 0)) == (0, tokens, prompt):
            tg = row["avg_ts"]
    return pp, tg


def kebab_bench(binary, model, threads, prompt, tokens):
    """(prompt tokens/s, decode tokens/s p50) from one kebab_generate_bench --json run."""
    out = subprocess.run([binary, "--model", model, "--threads", str(threads), "--runs", "3",
                          "--tokens", str(tokens), "--prompt-tokens", str(prompt), "--json"],
                         capture_output=True, text=True, check=True).stdout
    j = json.loads(out)
    g = j["generations"][0]
    return j["prompt_tokens"] / (g["ttft_p50_ms"] / 1000), g["decode_tokens_per_s_p50"]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=DEFAULT_MODEL)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--prompt", type=int, default=512)
    ap.add_argument("--tokens", type=int, default=128)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--llama-bench", help="default: bin/llama-bench of the build's llama.cpp")
    ap.add_argument("--json-out", metavar="PATH", help="also write the medians there as JSON")
    args = ap.parse_args()
    llama = args.llama_bench or os.path.join(llama_tools_prefix(), "bin", "llama-bench")
    kebab = os.path.join(BUILD, "bench", "kebab_generate_bench")
    for path, how in ((llama, "scripts/setup.sh --tests (scripts/build-llama.sh --tools builds it)"),
                      (kebab, "cmake --build build --target kebab_generate_bench"),
                      (args.model, "cmake --build build --target kebab_bench_models")):
        if not os.path.exists(path):
            print(f"{path} is missing: {how}", file=sys.stderr)
            return 2
    rates = {"llama": ([], []), "kebab": ([], [])}
    for r in range(args.rounds):
        for name, run, binary in (("llama", llama_bench, llama), ("kebab", kebab_bench, kebab)):
            pp, tg = run(binary, args.model, args.threads, args.prompt, args.tokens)
            rates[name][0].append(pp)
            rates[name][1].append(tg)
        print(f"  .. round {r + 1}/{args.rounds}: llama-bench pp {rates['llama'][0][-1]:.1f} "
              f"tg {rates['llama'][1][-1]:.1f}; kebab pp {rates['kebab'][0][-1]:.1f} "
              f"tg {rates['kebab'][1][-1]:.1f} tokens/s", file=sys.stderr, flush=True)
    med = {k: (statistics.median(v[0]), statistics.median(v[1])) for k, v in rates.items()}
    print(f"== {os.path.basename(args.model)}, {args.threads} threads, prompt {args.prompt}, "
          f"{args.tokens} generated, {args.rounds} rounds (medians); load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'':12} {'prompt tokens/s':>16} {'decode tokens/s':>16}")
    for name in ("llama", "kebab"):
        print(f"{name + ('-bench' if name == 'llama' else ''):12} {med[name][0]:16.1f} "
              f"{med[name][1]:16.1f}")
    pp_share = med["kebab"][0] / med["llama"][0]
    tg_share = med["kebab"][1] / med["llama"][1]
    print(f"kebab / llama-bench: prompt {pp_share:.1%}, decode {tg_share:.1%} "
          f"(target: generation within 10% of llama-bench: "
          f"{'met' if tg_share >= 0.9 else 'MISSED'})")
    if args.json_out:
        rates_json = lambda name: {"prompt_tokens_per_s": med[name][0],
                                   "decode_tokens_per_s": med[name][1]}
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump({"model": os.path.basename(args.model), "threads": args.threads,
                       "prompt_tokens": args.prompt, "generated_tokens": args.tokens,
                       "rounds": args.rounds, "llama_bench": rates_json("llama"),
                       "kebab": rates_json("kebab"), "prompt_share": pp_share,
                       "decode_share": tg_share}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
