#!/usr/bin/python3
"""Whole-program benchmark of kebab's whisper path against its floor, whisper.cpp's own
`whisper-cli`, on the same files and the same model.

Model: a generated random-weight model of whisper-base's shape (tests/tools/make_tiny_whisper.cc
--shape base: 6+6 layers, 512 dims, 8 heads, 51,865 tokens, f16 matrices like ggml-base.bin;
`cmake --build build --target kebab_bench_models` writes build/bench/models/whisper-base-shaped.bin).
No real weights exist on the test machines, so its words are random: the benchmark times, it does
not score. How the two are made to do the same work:
  - the same whisper.cpp (1.9.1, one build: scripts/build-llama.sh --tools builds whisper-cli in
    the same pass as the libwhisper.a kebab-audio links) and the same ggml;
  - the same decoding: kebab's settings (greedy, best of 5, temperature fallback +0.2, flash
    attention, no GPU) are whisper-cli's defaults except its beam search, so whisper-cli runs
    with `-bs 1`; the same language (-l) and threads (-t);
  - the same samples: the files are 16 kHz mono wavs, which whisper-cli reads as s16 / 32768 and
    kebab's FFmpeg decoder hands over unchanged (kebab-audio divides by 32768 too), and a
    recording without 15 s of silence is one block for kebab, the whole file, as for whisper-cli;
  - checked, not assumed: each file's segments (times and text) from kebab-audio must equal
    whisper-cli's, and their token counts (whisper-cli -ojf, an untimed run) must match. A
    file where they differ is reported as such and left out of the ratio.
In one run, per file, in turn (the order rotating per file and round, so machine noise falls on
all alike):
  floor   `whisper-cli -m M -f F.wav -l L -t T -bs 1` (whole process: model load included);
  worker  `kebab-audio --engine whisper --model M --language L --threads T < F.wav`;
  ingest  a cold `kebab --json ingest` of a workspace holding that one file, [ingest.audio]
          whisper_model = M, language = L, threads = T (a fresh index each time: no cache).
Real-time factor = wall seconds / audio seconds, per file (median of the runs) and pooled (sum
of the medians / sum of durations). Target (the recordings issue): kebab's RTF within 1.1x of
whisper-cli's. Numbers are printed, never asserted; --json-out writes them for bench/suite.py.
Data: ../shared/data/audio's 16 kHz wavs (jfk 11 s, espeak-en 41 s, espeak-ko 23 s,
espeak-en-long 189 s; --quick: jfk and espeak-ko).
Usage: bench/whisper_bench.py [--quick] [--runs N] [--threads T] [--kebab PATH] [--model PATH]
                             [--whisper-cli PATH] [--work DIR] [--json-out PATH]
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from audio_bench import DATA, Kebab, loadavg, manifest, snapshot, timed  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUICK_IDS = ("jfk", "espeak-ko")
CLI_LINE = re.compile(r"^\[(\d+):(\d+):(\d+\.\d+) --> (\d+):(\d+):(\d+\.\d+)\]\s*(.*)$")


def default_whisper_cli():
    """whisper-cli of the llama.cpp tools prefix the build uses (CMakeCache), else the newest in
    the deps cache."""
    cache = os.path.join(REPO, "build", "CMakeCache.txt")
    if os.path.exists(cache):
        for line in open(cache, encoding="utf-8"):
            if line.startswith("KEBAB_LLAMA_TOOLS_PREFIX:"):
                path = os.path.join(line.split("=", 1)[1].strip(), "bin", "whisper-cli")
                if os.path.exists(path):
                    return path
    root = os.environ.get("KEBAB_DEPS_CACHE",
                          os.path.join(os.path.expanduser("~"), ".cache", "kebab-deps"))
    found = sorted(glob.glob(os.path.join(root, "llama-tools-*", "bin", "whisper-cli")),
                   key=os.path.getmtime)
    return found[-1] if found else None


def files(quick):
    """[(id, language, wav path, duration s)] of the manifest's 16 kHz wavs."""
    return [(e["id"], e["lang"], e["files"]["wav"], e["duration"]) for e in manifest(False)
            if "wav" in e["files"] and (not quick or e["id"] in QUICK_IDS)]


def ms(h, m, s):
    return round((int(h) * 3600 + int(m) * 60 + float(s)) * 1000)


def floor_run(cli, model, wav, lang, threads):
    """whisper-cli: (wall s, [(start_ms, end_ms, text)])."""
    wall, _, p = timed([cli, "-m", model, "-f", wav, "-l", lang, "-t", str(threads), "-bs", "1",
                        "-np"])
    if p.returncode != 0:
        sys.exit(f"whisper-cli failed on {wav}: {p.stderr.decode('utf-8', 'replace')[-2000:]}")
    segs = []
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        m = CLI_LINE.match(line.strip())
        if m and m.group(7).strip():
            segs.append((ms(*m.group(1, 2, 3)), ms(*m.group(4, 5, 6)), m.group(7).strip()))
    return wall, segs


def floor_tokens(cli, model, wav, lang, threads, work):
    """Tokens whisper-cli decodes (its -ojf JSON, special tokens included), untimed."""
    out = os.path.join(work, "cli")
    timed([cli, "-m", model, "-f", wav, "-l", lang, "-t", str(threads), "-bs", "1", "-np",
           "-ojf", "-of", out])
    with open(out + ".json", encoding="utf-8") as f:
        doc = json.load(f)
    return sum(len(s.get("tokens") or []) for s in doc.get("transcription") or [])


def worker_run(worker, model, wav, lang, threads):
    """kebab-audio with whisper: (wall s, [(start_ms, end_ms, text)], tokens)."""
    with open(wav, "rb") as stdin:
        wall, _, p = timed([worker, "--engine", "whisper", "--model", model, "--language", lang,
                            "--threads", str(threads)], stdin=stdin)
    segs, tokens = [], 0
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        j = json.loads(line)
        if j.get("kind") == "segment":
            segs.append((j["start_ms"], j["end_ms"], j["text"].strip()))
            tokens += j.get("tokens", 0)
        elif j.get("kind") == "error":
            sys.exit(f"kebab-audio failed on {wav}: {j}")
    return wall, segs, tokens


def ingest_run(binary, worker, model, wav, lang, threads, work):
    """A cold `kebab ingest` of wav alone, transcribed by whisper: (wall s, segment count)."""
    k = Kebab(binary, worker, os.path.join(work, "one"))
    with open(k.config, "a") as f:
        f.write(f'[ingest.audio]\nwhisper_model = "{model}"\nlanguage = "{lang}"\n'
                f"threads = {threads}\n")
    k.add(wav, os.path.basename(wav))
    wall, _, report = k.ingest()
    items = [i for i in report.get("items") or [] if i.get("doc_id")]
    if not items or "whisper" not in items[0].get("parser_version", ""):
        sys.exit(f"kebab ingest did not transcribe {wav} with whisper: {report}")
    blocks, _ = k.transcript(items[0]["doc_id"])
    return wall, len(blocks)


def same(a, b):
    """Segments equal in text, and in times to within whisper's 10 ms step."""
    return len(a) == len(b) and all(
        x[2] == y[2] and abs(x[0] - y[0]) <= 10 and abs(x[1] - y[1]) <= 10 for x, y in zip(a, b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--kebab", default=os.path.join(REPO, "build", "kebab"))
    ap.add_argument("--model",
                    default=os.path.join(REPO, "build", "bench", "models", "whisper-base-shaped.bin"))
    ap.add_argument("--whisper-cli", default=None)
    ap.add_argument("--work", default=None)
    ap.add_argument("--json-out", default=None)
    args = ap.parse_args()
    if not os.path.isdir(DATA):
        print(f"skipped: {DATA} is absent (../shared/data/audio)")
        return
    cli = args.whisper_cli or default_whisper_cli()
    if not cli or not os.path.exists(cli):
        sys.exit("whisper-cli not found: scripts/build-llama.sh --tools builds it (or pass --whisper-cli)")
    if not os.path.exists(args.model):
        sys.exit(f"{args.model} is missing: cmake --build build --target kebab_bench_models")
    work = args.work or tempfile.mkdtemp(prefix="kebab-whisper-bench-")
    binary, worker = snapshot(args.kebab, work)
    print(f"whisper-cli {cli}\nmodel {args.model} ({os.path.getsize(args.model) / 1e6:.0f} MB), "
          f"threads {args.threads}, runs {args.runs}, load {loadavg()}")

    entries = files(args.quick)
    walls = {e[0]: {"floor": [], "worker": [], "ingest": []} for e in entries}
    equal, tokens = {}, {}
    n = 0
    for r in range(args.runs):
        for fid, lang, wav, dur in entries:
            tools = ["floor", "worker", "ingest"]
            order = tools[n % 3:] + tools[:n % 3]
            n += 1
            for t in order:
                if t == "floor":
                    wall, cli_segs = floor_run(cli, args.model, wav, lang, args.threads)
                elif t == "worker":
                    wall, segs, tok = worker_run(worker, args.model, wav, lang, args.threads)
                else:
                    wall, _ = ingest_run(binary, worker, args.model, wav, lang, args.threads, work)
                walls[fid][t].append(wall)
            if r == 0:
                equal[fid] = same(segs, cli_segs)
                tokens[fid] = (tok, floor_tokens(cli, args.model, wav, lang, args.threads, work))
                if not equal[fid]:
                    print(f"  {fid}: segments differ: kebab {segs[:3]}... whisper-cli "
                          f"{cli_segs[:3]}...")
            print(f"  round {r + 1} {fid}: " + ", ".join(
                f"{t} {walls[fid][t][-1]:.2f} s" for t in tools), flush=True)

    res = {"per_file": {}, "audio_s": 0.0, "threads": args.threads,
           "model_mb": round(os.path.getsize(args.model) / 1e6)}
    sums = {"floor": 0.0, "worker": 0.0, "ingest": 0.0}
    print(f"\n{'file':16} {'audio s':>8} {'tokens k/cli':>13} {'same':>5} "
          f"{'cli RTF':>8} {'worker':>8} {'ingest':>8}")
    for fid, lang, wav, dur in entries:
        med = {t: statistics.median(v) for t, v in walls[fid].items()}
        row = {"audio_s": dur, "tokens_kebab": tokens[fid][0], "tokens_cli": tokens[fid][1],
               "same_segments": equal[fid]}
        row.update({f"{t}_rtf": med[t] / dur for t in med})
        res["per_file"][fid] = row
        print(f"{fid:16} {dur:8.1f} {tokens[fid][0]:>6}/{tokens[fid][1]:<6} "
              f"{'yes' if equal[fid] else 'NO':>5} {row['floor_rtf']:8.3f} "
              f"{row['worker_rtf']:8.3f} {row['ingest_rtf']:8.3f}")
        if equal[fid] and tokens[fid][0] == tokens[fid][1]:
            res["audio_s"] += dur
            for t in sums:
                sums[t] += med[t]
    if res["audio_s"] > 0:
        for t in sums:
            res[f"{'kebab_' if t != 'floor' else ''}{t}_rtf"] = sums[t] / res["audio_s"]
        res["worker_vs_floor"] = sums["worker"] / sums["floor"]
        res["ingest_vs_floor"] = sums["ingest"] / sums["floor"]
        print(f"\npooled over {res['audio_s']:.0f} s of audio decoded alike: whisper-cli RTF "
              f"{res['floor_rtf']:.3f}, kebab-audio {res['kebab_worker_rtf']:.3f} "
              f"({res['worker_vs_floor']:.2f}x), kebab ingest {res['kebab_ingest_rtf']:.3f} "
              f"({res['ingest_vs_floor']:.2f}x; target <= 1.1x)")
    else:
        print("\nno file decoded alike: no ratio")
    print(f"load after: {loadavg()}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(res, f, indent=1)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
