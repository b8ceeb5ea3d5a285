#!/usr/bin/python3
"""Whole-program benchmark of kebab's recordings (transcription and time citations) against its
floor, Debian's pocketsphinx_continuous.

Data: ../shared/data/audio (read there, never copied into the repository): manifest.jsonl lists
jfk (11 s of real speech, phrase times +-0.2 s), espeak-en (41 s, 10 sentences), espeak-ko
(23 s, 5 Korean sentences) and espeak-en-long (189 s, 27 sentences), espeak-ng voices with exact
sentence times; each as .wav (16 kHz mono), .flac, .mp3 (44.1 kHz stereo), .ogg and .m4a (jfk:
.wav and .mp3), with .json segments (start/end seconds, text) and .txt truth. In one run:
  wer      the English wav files (jfk, espeak-en, espeak-en-long), each through, in turn (the
           order rotating per file and round, so machine noise falls on all alike):
             worker  `kebab-audio < F.wav` (the transcription worker alone, whole process);
             floor   `pocketsphinx_continuous -infile F.wav -hmm M/en-us -lm M/en-us.lm.bin
                     -dict M/cmudict-en-us.dict` (M = /usr/share/pocketsphinx/model/en-us; the
                     same engine and model kebab links; its stdout lines are the transcript);
             ingest  a cold `kebab --json ingest` of a workspace holding that one file (a fresh
                     index each time, so no cached transcript); kebab's transcript is the doc's
                     paragraph blocks' texts joined in order (`kebab --json inspect doc`).
           WER (../shared/data/audio/wer.py: word Levenshtein / truth words, after lowercasing and
           punctuation removal) per file and pooled (sum of errors / sum of truth words).
           Real-time factor = wall seconds / audio seconds, whole processes, per file and pooled
           (sum of the median walls / sum of durations); CPU seconds (user + system, children
           included) / audio seconds beside it, which another job on the machine disturbs less.
  cite     every file of the manifest in every container it has, ingested into one index (one
           workspace, each file named ID.EXT). For each true sentence (the .json segments): its
           content words (wer.py's normalisation, at least 4 letters, not in STOPWORDS) that the
           transcript of that file got right (present among its transcript's words); with at
           least one, `kebab --json search --mode lexical --k 1 --path-glob ID.EXT WORDS`, and a
           success when the top hit's time citation [start_ms, end_ms] overlaps the sentence's
           true [start - 1 s, end + 1 s]. Korean sentences get no words right (pocketsphinx is
           English-only): 0 eligible, not failures. Also shown: the median length of the cited
           ranges, how many top hits cited the whole recording (the name/tag chunk), and
           chance: the share of the file's transcript chunks overlapping the same widened range
           (what a random chunk of the right file would score; chunks are windows of 10-30 s).
           Two readings of "the transcript got right": "local" (local_time_citation_pct, the
           target's) counts only the words heard in an utterance overlapping the sentence's
           widened range, i.e. transcribed where they were said, and so measures the
           citation's time; "anywhere" (time_citation_pct) counts a word heard anywhere in the
           file, so a word misheard at the sentence but heard elsewhere pulls the hit away
           (stricter: it also charges the recognizer's errors to the citation).
Targets (the recordings issue): kebab's pooled WER <= the floor's + 0.01; time citations >= 95%
of the eligible sentences (local). RTF has no target: both are printed. Numbers are printed, never
asserted; --json-out writes them (units in the key names: kebab_wer, floor_wer, kebab_rtf,
floor_rtf, time_citation_pct, ...) for bench/suite.py.
About 8-12 minutes on 2 cores (--quick: jfk and espeak-en, wav and m4a only, about 1.5).
kebab and kebab-audio run from a copy taken at the start (a rebuild cannot mix two builds).
Prerequisites: Debian's pocketsphinx (`apt-get install -y pocketsphinx`: pocketsphinx_continuous;
without it the floor's numbers are left out) and pocketsphinx-en-us (kebab's model too).
Usage: bench/audio_bench.py [--quick] [--runs N] [--kebab PATH] [--work DIR] [--json-out PATH]
                           [--verbose]
"""
import argparse
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.normpath(os.path.join(REPO, "..", "shared", "data", "audio"))
MODEL = "/usr/share/pocketsphinx/model/en-us"
FLOOR_ARGS = ["-hmm", MODEL + "/en-us", "-lm", MODEL + "/en-us.lm.bin",
              "-dict", MODEL + "/cmudict-en-us.dict"]
CONTAINERS = ("wav", "flac", "mp3", "ogg", "m4a")
QUICK_IDS = ("jfk", "espeak-en")
QUICK_CONTAINERS = ("wav", "m4a")
WIDEN_MS = 1000
STOPWORDS = set("""
about above after again against also another because been before being below between both
cannot could does doing down during each every from further have having here hers herself
himself into itself just many more most much must myself only other ours ourselves over same
should some such than that their theirs them themselves then there these they this those
through under until very were what when where which while whom will with would your yours
yourself yourselves""".split())


def load_wer():
    """../shared/data/audio/wer.py as a module (normalize, wer), or None when absent."""
    path = os.path.join(DATA, "wer.py")
    if not os.path.exists(path):
        return None
    spec = importlib.util.spec_from_file_location("audio_wer", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


WER = load_wer()


def loadavg():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(cmd, **kw):
    """Runs cmd to completion: (wall s, CPU s of it and its children, completed process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p


def snapshot(kebab, work):
    """kebab and kebab-audio (where kebab looks for it: beside itself) copied into work/bin."""
    real = os.path.realpath(kebab)
    os.makedirs(os.path.join(work, "bin"), exist_ok=True)
    for name in ("kebab", "kebab-audio"):
        src = real if name == "kebab" else os.path.join(os.path.dirname(kebab), name)
        if not os.path.exists(src):
            src = os.path.join(os.path.dirname(real), name)
        if os.path.exists(src):
            shutil.copy2(os.path.realpath(src), os.path.join(work, "bin", name))
    return os.path.join(work, "bin", "kebab"), os.path.join(work, "bin", "kebab-audio")


class Kebab:
    """A throw-away kebab home: config, index and workspace under `home`."""

    def __init__(self, binary, worker, home):
        shutil.rmtree(home, ignore_errors=True)
        self.root = os.path.join(home, "ws")
        os.makedirs(self.root)
        self.config = os.path.join(home, "config.toml")
        with open(self.config, "w") as f:
            f.write(f'[workspace]\nroot = "{self.root}"\n[storage]\ndata_dir = "{home}/data"\n'
                    f'cache_dir = "{home}/cache"\nstate_dir = "{home}/state"\n'
                    '[models.embedding]\nprovider = "none"\n')
        self.base = [binary, "--config", self.config, "--json"]
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("KEBAB_")}
        self.env.update({"HOME": home, "NO_COLOR": "1", "LC_ALL": "C.UTF-8",
                         "KEBAB_AUDIO_WORKER": worker})

    def add(self, src, name):
        dst = os.path.join(self.root, name)
        shutil.copyfile(src, dst)
        return dst

    def ingest(self):
        """(wall s, CPU s, the ingest_report.v1)."""
        wall, cpu, p = timed(self.base + ["ingest"], env=self.env)
        lines = p.stdout.decode("utf-8", "replace").strip().splitlines()
        if p.returncode != 0 or not lines:
            sys.exit(f"kebab ingest failed ({p.returncode}): "
                     f"{p.stderr.decode('utf-8', 'replace')[-2000:]}")
        return wall, cpu, json.loads(lines[-1])

    def json(self, *args):
        p = subprocess.run(self.base + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=self.env)
        if p.returncode not in (0, 1):
            sys.exit(f"kebab {' '.join(args)} failed ({p.returncode}): "
                     f"{p.stderr.decode('utf-8', 'replace')[-2000:]}")
        return json.loads(p.stdout) if p.stdout.strip() else {}

    def transcript(self, doc_id):
        """The doc's paragraph blocks [(start_ms, end_ms, text)] in order, and its chunk ids."""
        doc = self.json("inspect", "doc", doc_id)
        blocks = sorted((b for b in doc.get("blocks") or [] if b.get("kind") == "paragraph"),
                        key=lambda b: b.get("ordinal", 0))
        return ([((b.get("source_span") or {}).get("start_ms"),
                  (b.get("source_span") or {}).get("end_ms"),
                  (b.get("payload") or {}).get("text", "")) for b in blocks],
                doc.get("chunk_ids") or [])


# ------------------------------------------------------------------------------------ data
def manifest(quick):
    """[{id, lang, duration, dir, segments [(start_s, end_s, text)], truth, files {ext: path}}]."""
    out = []
    with open(os.path.join(DATA, "manifest.jsonl"), encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            e = json.loads(line)
            if quick and e["id"] not in QUICK_IDS:
                continue
            wav = os.path.join(DATA, e["audio"])
            stem = os.path.splitext(wav)[0]
            files = {ext: stem + "." + ext for ext in (QUICK_CONTAINERS if quick else CONTAINERS)
                     if os.path.exists(stem + "." + ext)}
            with open(os.path.join(DATA, e["segments"]), encoding="utf-8") as s:
                segs = [(x["start"], x["end"], x["text"]) for x in json.load(s)["segments"]]
            with open(os.path.join(DATA, e["truth"]), encoding="utf-8") as t:
                truth = t.read()
            out.append({"id": e["id"], "lang": e.get("lang", "en"), "duration": e["duration"],
                        "segments": segs, "truth": truth, "files": files})
    return out


# ------------------------------------------------------------------------------------- WER
def worker_run(worker, wav):
    """`kebab-audio < wav`: (wall s, CPU s, transcript, duration s from its info line)."""
    with open(wav, "rb") as stdin:
        wall, cpu, p = timed([worker], stdin=stdin)
    texts, duration = [], None
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        try:
            j = json.loads(line)
        except ValueError:
            continue
        if j.get("kind") == "segment":
            texts.append(j.get("text", ""))
        elif j.get("kind") == "info":
            duration = j.get("duration_ms", 0) / 1000
        elif j.get("kind") == "error":
            sys.exit(f"kebab-audio failed on {wav}: {j}")
    return wall, cpu, " ".join(t for t in texts if t), duration


def floor_run(wav, work):
    """pocketsphinx_continuous on wav: (wall s, CPU s, transcript)."""
    log = os.path.join(work, "pocketsphinx.log")
    wall, cpu, p = timed(["pocketsphinx_continuous", "-infile", wav, "-logfn", log] + FLOOR_ARGS)
    if p.returncode != 0:
        sys.exit(f"pocketsphinx_continuous failed on {wav} ({p.returncode}): "
                 f"{open(log, errors='replace').read()[-2000:]}")
    hyp = " ".join(x.strip() for x in p.stdout.decode("utf-8", "replace").splitlines()
                   if x.strip())
    return wall, cpu, hyp


def ingest_run(binary, worker, wav, name, work):
    """A cold `kebab ingest` of a workspace holding wav alone: (wall s, CPU s, transcript)."""
    k = Kebab(binary, worker, os.path.join(work, "one"))
    k.add(wav, name)
    wall, cpu, report = k.ingest()
    items = [i for i in report.get("items") or [] if i.get("doc_id")]
    if not items:
        sys.exit(f"kebab ingest indexed nothing of {wav}: {report}")
    blocks, _ = k.transcript(items[0]["doc_id"])
    return wall, cpu, " ".join(t for _, _, t in blocks if t)


def wer_rtf(entries, binary, worker, work, runs, have_floor):
    """Part 1 over the English wav files; the results dict."""
    files = [e for e in entries if e["lang"] == "en" and "wav" in e["files"]]
    tools = ["worker", "ingest"] + (["floor"] if have_floor else [])
    per = {}
    n = 0
    for r in range(runs):
        for e in files:
            wav = e["files"]["wav"]
            p = per.setdefault(e["id"], {t: {"wall": [], "cpu": [], "text": None} for t in tools})
            order = tools[n % len(tools):] + tools[:n % len(tools)]
            n += 1
            for t in order:
                if t == "worker":
                    wall, cpu, text, dur = worker_run(worker, wav)
                    if dur:
                        e["decoded_s"] = dur
                elif t == "floor":
                    wall, cpu, text = floor_run(wav, work)
                else:
                    wall, cpu, text = ingest_run(binary, worker, wav, e["id"] + ".wav", work)
                p[t]["wall"].append(wall)
                p[t]["cpu"].append(cpu)
                if p[t]["text"] is None:
                    p[t]["text"] = text
                elif p[t]["text"] != text:
                    print(f"note: {t} gave {e['id']} a different transcript in round {r + 1}",
                          flush=True)
            line = "  ".join(f"{t} {p[t]['wall'][-1]:6.2f} s" for t in tools)
            print(f"  round {r + 1} {e['id']:<15} {e['duration']:7.2f} s audio: {line}  "
                  f"(load {loadavg()})", flush=True)

    out = {"per_file": {}, "audio_s": sum(e["duration"] for e in files)}
    totals = {t: {"errors": 0, "words": 0, "wall": 0.0, "cpu": 0.0} for t in tools}
    for e in files:
        p, dur = per[e["id"]], e["duration"]
        row = {"audio_s": dur}
        for t in tools:
            w = WER.wer(e["truth"], p[t]["text"] or "")
            wall, cpu = statistics.median(p[t]["wall"]), statistics.median(p[t]["cpu"])
            totals[t]["errors"] += w["errors"]
            totals[t]["words"] += w["ref_words"]
            totals[t]["wall"] += wall
            totals[t]["cpu"] += cpu
            row[t] = {"wer": w["errors"] / w["ref_words"], "errors": w["errors"],
                      "ref_words": w["ref_words"], "hyp_words": w["hyp_words"], "wall_s": wall,
                      "cpu_s": cpu, "rtf": wall / dur, "cpu_rtf": cpu / dur,
                      "transcript": p[t]["text"]}
        row["worker_equals_ingest_transcript"] = p["worker"]["text"] == p["ingest"]["text"]
        out["per_file"][e["id"]] = row
    audio = out["audio_s"]
    out["ref_words"] = totals["ingest"]["words"]
    # kebab's WER is the transcript its index holds (the ingest's); the worker's is the same
    # text unless worker_equals_ingest_transcript says otherwise.
    out["kebab_wer"] = totals["ingest"]["errors"] / totals["ingest"]["words"]
    out["kebab_errors"] = totals["ingest"]["errors"]
    out["kebab_worker_wer"] = totals["worker"]["errors"] / totals["worker"]["words"]
    out["kebab_rtf"] = totals["worker"]["wall"] / audio
    out["kebab_cpu_rtf"] = totals["worker"]["cpu"] / audio
    out["kebab_ingest_rtf"] = totals["ingest"]["wall"] / audio
    out["kebab_ingest_cpu_rtf"] = totals["ingest"]["cpu"] / audio
    if have_floor:
        out["floor_wer"] = totals["floor"]["errors"] / totals["floor"]["words"]
        out["floor_errors"] = totals["floor"]["errors"]
        out["kebab_minus_floor_wer"] = out["kebab_wer"] - out["floor_wer"]
        out["floor_rtf"] = totals["floor"]["wall"] / audio
        out["floor_cpu_rtf"] = totals["floor"]["cpu"] / audio
    return out


def print_wer(res, have_floor, runs):
    print(f"\n== WER and real-time factor: {len(res['per_file'])} English wav files, "
          f"{res['audio_s']:.1f} s of audio, {res['ref_words']} truth words, median of {runs} "
          f"run{'s' * (runs > 1)} per tool")
    print("  WER: kebab = the transcript kebab indexed (ingest); floor = pocketsphinx_continuous")
    hdr = f"  {'file':<15} {'words':>5}  {'kebab WER':>16}  {'floor WER':>16}"
    print(hdr)
    for fid, r in res["per_file"].items():
        k = r["ingest"]
        fl = r.get("floor")
        ftxt = f"{fl['wer']:.3f} ({fl['errors']:>3})" if fl else "–"
        same = "" if r["worker_equals_ingest_transcript"] else "  (worker alone differs)"
        print(f"  {fid:<15} {k['ref_words']:>5}  {k['wer']:.3f} ({k['errors']:>3}){'':>5}  "
              f"{ftxt:>16}{same}")
    fl = f"{res['floor_wer']:.3f} ({res['floor_errors']:>3})" if have_floor else "–"
    print(f"  {'pooled':<15} {res['ref_words']:>5}  {res['kebab_wer']:.3f} "
          f"({res['kebab_errors']:>3}){'':>5}  {fl:>16}")
    if have_floor:
        d = res["kebab_minus_floor_wer"]
        print(f"  kebab - floor: {d:+.4f}  (target <= +0.01: "
              f"{'met' if d <= 0.01 else 'NOT met'})")
    print("  RTF = wall / audio seconds, whole processes (CPU s / audio s in brackets)")
    print(f"  {'file':<15} {'audio s':>8}  {'kebab-audio':>15}  {'kebab ingest':>15}  "
          f"{'floor':>15}")
    cell = lambda r, t: (f"{r[t]['rtf']:.3f} ({r[t]['cpu_rtf']:.3f})" if t in r else "–")
    for fid, r in res["per_file"].items():
        print(f"  {fid:<15} {r['audio_s']:>8.1f}  {cell(r, 'worker'):>15}  "
              f"{cell(r, 'ingest'):>15}  {cell(r, 'floor'):>15}")
    fl = (f"{res['floor_rtf']:.3f} ({res['floor_cpu_rtf']:.3f})" if have_floor else "–")
    kw = f"{res['kebab_rtf']:.3f} ({res['kebab_cpu_rtf']:.3f})"
    ki = f"{res['kebab_ingest_rtf']:.3f} ({res['kebab_ingest_cpu_rtf']:.3f})"
    print(f"  {'pooled':<15} {res['audio_s']:>8.1f}  {kw:>15}  {ki:>15}  {fl:>15}")
    if have_floor:
        print(f"  kebab-audio / floor: {res['kebab_rtf'] / res['floor_rtf']:.2f}x wall, "
              f"{res['kebab_cpu_rtf'] / res['floor_cpu_rtf']:.2f}x CPU; whole ingest / floor: "
              f"{res['kebab_ingest_rtf'] / res['floor_rtf']:.2f}x wall")


# ------------------------------------------------------------------------- time citations
def content_words(text):
    return [w for w in WER.normalize(text)
            if sum(c.isalpha() for c in w) >= 4 and w not in STOPWORDS]


def overlaps(a0, a1, b0, b1):
    return a0 <= b1 and b0 <= a1


def citations(entries, binary, worker, work, verbose):
    """Part 2: every file in every container in one index; the results dict."""
    k = Kebab(binary, worker, os.path.join(work, "all"))
    names = {}
    for e in entries:
        for ext, path in e["files"].items():
            names[f"{e['id']}.{ext}"] = (e, ext)
            k.add(path, f"{e['id']}.{ext}")
    audio = sum(e["duration"] for e, _ in names.values())
    print(f"\n== time citations: {len(names)} files, {audio:.1f} s of audio, one index "
          f"(load {loadavg()})", flush=True)
    wall, cpu, report = k.ingest()
    docs = {i["doc_path"]: i for i in report.get("items") or []}
    print(f"  cold ingest {wall:.1f} s (RTF {wall / audio:.3f}, CPU {cpu:.1f} s), "
          f"{report.get('chunks_indexed')} chunks, {report.get('errors')} errors", flush=True)
    rows, misses, odd = {}, [], []
    for name, (e, ext) in sorted(names.items(), key=lambda x: (x[1][0]["id"],
                                                                CONTAINERS.index(x[1][1]))):
        item = docs.get(name) or {}
        row = {"id": e["id"], "container": ext, "lang": e["lang"],
               "sentences": len(e["segments"]), "eligible": 0, "successes": 0,
               "whole_recording_hits": 0, "chance_sum": 0.0, "cited_s": [],
               "local_eligible": 0, "local_successes": 0}
        rows[name] = row
        if not item.get("doc_id"):
            odd.append(f"{name}: not indexed ({item.get('error')})")
            continue
        for w in item.get("warnings") or []:
            odd.append(f"{name}: warning {w}")
        blocks, chunk_ids = k.transcript(item["doc_id"])
        heard = set(WER.normalize(" ".join(t for _, _, t in blocks)))
        row["transcript_wer"] = WER.wer(e["truth"], " ".join(t for _, _, t in blocks))["wer"]
        spans = []  # the transcript chunks' time ranges, for the chance rate
        for cid in chunk_ids:
            c = (k.json("inspect", "chunk", cid).get("citation")) or {}
            if c.get("kind") == "time":
                spans.append((c["start_ms"], c["end_ms"]))
        dur_ms = round(e["duration"] * 1000)
        transcript_spans = [s for s in spans if not (s[0] == 0 and s[1] >= dur_ms - 100)] or spans
        for start, end, text in e["segments"]:
            words = list(dict.fromkeys(w for w in content_words(text) if w in heard))
            lo, hi = round(start * 1000) - WIDEN_MS, round(end * 1000) + WIDEN_MS
            # Secondary: only the words heard at the sentence (in an utterance overlapping its
            # widened range), which separates the citation's time from the recognizer's errors.
            near = set(WER.normalize(" ".join(t for a, b, t in blocks
                                              if a is not None and overlaps(a, b, lo, hi))))
            local = [w for w in words if w in near]
            if local:
                row["local_eligible"] += 1
                res = k.json("search", "--mode", "lexical", "--k", "1", "--path-glob", name,
                             " ".join(local))
                c = ((res.get("hits") or [{}])[0]).get("citation") or {}
                row["local_successes"] += (c.get("kind") == "time" and
                                           overlaps(c["start_ms"], c["end_ms"], lo, hi))
            if not words:
                continue
            row["eligible"] += 1
            row["chance_sum"] += (sum(overlaps(a, b, lo, hi) for a, b in transcript_spans)
                                  / len(transcript_spans)) if transcript_spans else 0.0
            res = k.json("search", "--mode", "lexical", "--k", "1", "--path-glob", name,
                         " ".join(words))
            hits = res.get("hits") or []
            c = hits[0]["citation"] if hits else {}
            ok = (c.get("kind") == "time" and overlaps(c["start_ms"], c["end_ms"], lo, hi))
            if c.get("kind") == "time":
                row["cited_s"].append((c["end_ms"] - c["start_ms"]) / 1000)
                if c["start_ms"] == 0 and c["end_ms"] >= dur_ms - 100 and len(spans) > 1:
                    row["whole_recording_hits"] += 1
            row["successes"] += ok
            if not ok or verbose:
                got = (f"{c['start_ms'] / 1000:.2f}-{c['end_ms'] / 1000:.2f} s" if c.get("kind")
                       == "time" else (c.get("uri") or "no hit"))
                where = {w: [f"{a / 1000:.1f}" for a, b, t in blocks
                             if w in WER.normalize(t)] for w in words}
                entry = (f"{name}: \"{text}\" ({start:.2f}-{end:.2f} s), query "
                         f"\"{' '.join(words)}\" -> {got}; the words are heard in the "
                         "utterances starting at " + ", ".join(
                             f"{w} {'/'.join(v)} s" for w, v in where.items()))
                (misses if not ok else odd).append(entry)
        row["chance_pct"] = (100 * row["chance_sum"] / row["eligible"]) if row["eligible"] else None
    return summarize(rows, wall, cpu, audio, report), misses, odd


def pct(a, b):
    return 100.0 * a / b if b else None


def summarize(rows, wall, cpu, audio, report):
    def group(rs):
        eligible = sum(r["eligible"] for r in rs)
        cited = [s for r in rs for s in r["cited_s"]]
        return {"files": len(rs), "sentences": sum(r["sentences"] for r in rs),
                "eligible": eligible, "successes": sum(r["successes"] for r in rs),
                "time_citation_pct": pct(sum(r["successes"] for r in rs), eligible),
                "chance_pct": pct(sum(r["chance_sum"] for r in rs), eligible),
                "whole_recording_hits": sum(r["whole_recording_hits"] for r in rs),
                "local_eligible": sum(r["local_eligible"] for r in rs),
                "local_successes": sum(r["local_successes"] for r in rs),
                "local_time_citation_pct": pct(sum(r["local_successes"] for r in rs),
                                               sum(r["local_eligible"] for r in rs)),
                "cited_median_s": statistics.median(cited) if cited else None}
    out = {"per_file": {}, "per_container": {}, "ingest_s": wall, "ingest_cpu_s": cpu,
           "audio_s": audio, "ingest_rtf": wall / audio, "chunks": report.get("chunks_indexed"),
           "errors": report.get("errors")}
    for name, r in rows.items():
        g = group([r])
        g.pop("files")
        g["transcript_wer"] = r.get("transcript_wer")
        out["per_file"][name] = g
    for ext in CONTAINERS:
        rs = [r for r in rows.values() if r["container"] == ext]
        if rs:
            out["per_container"][ext] = group(rs)
    out.update(group(list(rows.values())))
    return out


def print_citations(res, misses, odd):
    print(f"  success: the top hit of `search --k 1 --path-glob FILE` (the sentence's heard "
          f"content words) cites a time range overlapping the sentence's +-{WIDEN_MS / 1000:g} s")
    print("  (local: only the words heard in an utterance overlapping the sentence's +-1 s)")
    print(f"  {'file':<22} {'sentences':>9} {'eligible':>8} {'right':>6} {'%':>6} "
          f"{'chance %':>8} {'cited s':>8} {'local':>5} {'right':>5} {'%':>6} {'WER':>6}")
    f = lambda v, spec: format(v, spec) if v is not None else "–"
    line = lambda label, r, wer: print(
        f"  {label:<22} {r['sentences']:>9} {r['eligible']:>8} {r['successes']:>6} "
        f"{f(r['time_citation_pct'], '6.1f'):>6} {f(r['chance_pct'], '8.1f'):>8} "
        f"{f(r['cited_median_s'], '8.1f'):>8} {r['local_eligible']:>5} "
        f"{r['local_successes']:>5} {f(r['local_time_citation_pct'], '6.1f'):>6} "
        f"{f(wer, '6.3f'):>6}")
    for name, r in res["per_file"].items():
        line(name, r, r["transcript_wer"])
    print("  per container:")
    for ext, r in res["per_container"].items():
        line("." + ext, r, None)
    t = res
    line("total", t, None)
    local = t["local_time_citation_pct"]
    if local is not None:
        print(f"  time citations {local:.1f}% of {t['local_eligible']} sentences whose words were "
              f"heard where they were said (target >= 95%: {'met' if local >= 95 else 'NOT met'})")
    if t["time_citation_pct"] is not None:
        print(f"  with words heard anywhere in the file: {t['time_citation_pct']:.1f}% of "
              f"{t['eligible']} (no target); {t['whole_recording_hits']} top hits cited the whole "
              "recording")
    for m in misses:
        print(f"  miss: {m}")
    for o in odd:
        print(f"  note: {o}")


# ------------------------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="jfk and espeak-en only, wav and m4a only, 1 run")
    ap.add_argument("--runs", type=int, default=1,
                    help="rounds of the WER/RTF part (timings: medians); default 1")
    ap.add_argument("--kebab", default=os.path.join(REPO, "build", "kebab"))
    ap.add_argument("--work", default=None, help="scratch directory (default: a temp one)")
    ap.add_argument("--json-out")
    ap.add_argument("--verbose", action="store_true", help="print every citation query")
    args = ap.parse_args()
    if args.quick:
        args.runs = 1
    if not os.access(args.kebab, os.X_OK):
        print(f"{args.kebab} is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2
    if not os.path.exists(os.path.join(DATA, "manifest.jsonl")) or WER is None:
        print(f"skipped: {DATA} is absent (../shared/data/audio)", file=sys.stderr)
        return 0
    have_floor = shutil.which("pocketsphinx_continuous") is not None
    if not have_floor:
        print("pocketsphinx_continuous missing (apt-get install -y pocketsphinx): the floor's "
              "numbers are left out", file=sys.stderr)
    work = args.work or tempfile.mkdtemp(prefix="kebab-audio-bench-")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    binary, worker = snapshot(args.kebab, work)
    if not os.path.exists(worker):
        print(f"kebab-audio is missing beside {args.kebab}: build it", file=sys.stderr)
        return 2
    built = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.stat(binary).st_mtime))
    version = subprocess.run([binary, "--version"], stdout=subprocess.PIPE,
                             text=True).stdout.strip()
    entries = manifest(args.quick)
    print(f"== {len(entries)} recordings ({', '.join(e['id'] for e in entries)}), "
          f"{sum(len(e['files']) for e in entries)} files; {version} built {built}; "
          f"{os.cpu_count()} cores; load average {loadavg()}", flush=True)
    t0 = time.perf_counter()
    wer = wer_rtf(entries, binary, worker, work, args.runs, have_floor)
    print_wer(wer, have_floor, args.runs)
    cites, misses, odd = citations(entries, binary, worker, work, args.verbose)
    print_citations(cites, misses, odd)
    print(f"\n== {time.perf_counter() - t0:.0f} s in all; load average {loadavg()}")
    if args.json_out:
        out = {"quick": args.quick, "runs": args.runs, "kebab_version": version,
               "kebab_built": built, "floor": "pocketsphinx_continuous" if have_floor else None,
               "kebab_wer": wer["kebab_wer"], "floor_wer": wer.get("floor_wer"),
               "kebab_minus_floor_wer": wer.get("kebab_minus_floor_wer"),
               "kebab_rtf": wer["kebab_rtf"], "floor_rtf": wer.get("floor_rtf"),
               "kebab_ingest_rtf": wer["kebab_ingest_rtf"],
               "time_citation_pct": cites["time_citation_pct"],
               "local_time_citation_pct": cites["local_time_citation_pct"],
               "wer_rtf": wer, "time_citations": cites, "citation_misses": misses,
               "notes": odd}
        with open(args.json_out, "w") as f:
            json.dump(out, f, indent=2, ensure_ascii=False)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
