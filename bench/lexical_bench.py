#!/usr/bin/python3
"""Whole-program benchmark of kebab's lexical pipeline against its floor and its peers.

For each corpus (tldr-pages, astro-docs from ../shared/data/markdown), in one run on the same
files and queries:
  kebab    cold ingest (files/s, MB/s, peak RSS), no-op re-ingest, `kebab search` latency
           (each query a whole process, as a user runs it)
  floor    a bare SQLite FTS5 table (unicode61) bulk-loaded with the same files, queried
           through the sqlite3 CLI
  recoll   recollindex / recollq (Debian recollcmd), the desktop-search peer
  ripgrep  `rg -l -F` over the files
Queries run interleaved (each query through every tool in turn), so machine noise falls on
all tools alike. Numbers are printed, never asserted; --json-out also writes them, units in the
key names, as one JSON object (for bench/suite.py).
Usage: bench/lexical_bench.py [--queries N] [--corpus tldr|astro]... [--json-out PATH]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.normpath(os.path.join(REPO, "..", "shared", "data", "markdown"))
KEBAB = os.path.join(REPO, "build", "kebab")
CORPORA = {"tldr": "tldr-pages.tar.gz", "astro": "astro-docs.tar.gz"}


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def timed(cmd, **kw):
    """Runs cmd under /usr/bin/time; returns (seconds, peak RSS MB, completed process)."""
    t0 = time.perf_counter()
    p = run(["/usr/bin/time", "-f", "%M"] + cmd, **kw)
    secs = time.perf_counter() - t0
    last = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "0"
    return secs, int(last) / 1024.0 if last.isdigit() else 0.0, p


def percentiles(samples):
    s = sorted(samples)
    pick = lambda q: s[min(len(s) - 1, int(round(q * (len(s) - 1))))] * 1000
    return pick(0.5), pick(0.95)


def extract(name, work):
    root = os.path.join(work, name)
    if not os.path.isdir(root):
        os.makedirs(root)
        with tarfile.open(os.path.join(DATA, CORPORA[name])) as t:
            t.extractall(root)
    files = []
    for d, _, fs in os.walk(root):
        files += [os.path.join(d, f) for f in fs if f.endswith((".md", ".mdx"))]
    return root, sorted(files)


def make_queries(files, n):
    """Deterministic mix: file stems (command names), words, two-word phrases, Korean words."""
    rnd = random.Random(42)
    stems = sorted({os.path.splitext(os.path.basename(f))[0] for f in files})
    words, korean = [], []
    for f in rnd.sample(files, min(400, len(files))):
        text = open(f, encoding="utf-8", errors="replace").read()
        words += [w.lower() for w in re.findall(r"[A-Za-z]{5,12}", text)]
        korean += re.findall(r"[가-힣]{2,6}", text)
    words = sorted(set(words))
    qs = []
    for i in range(n):
        kind = i % 4
        if kind == 0 or (kind == 3 and not korean):
            qs.append(rnd.choice(stems).split(".")[0])
        elif kind == 1:
            qs.append(rnd.choice(words))
        elif kind == 2:
            qs.append(rnd.choice(words) + " " + rnd.choice(words))
        else:
            qs.append(rnd.choice(korean))
    return qs


def index_kebab(root, work):
    home = os.path.join(work, "kebab-home")
    shutil.rmtree(home, ignore_errors=True)
    os.makedirs(home)
    cfg = os.path.join(home, "config.toml")
    with open(cfg, "w") as f:
        f.write(f'[workspace]\nroot = "{root}"\n[storage]\ndata_dir = "{home}/data"\n'
                f'cache_dir = "{home}/cache"\nstate_dir = "{home}/state"\n')
    base = [KEBAB, "--config", cfg]
    cold, rss, p = timed(base + ["--json", "ingest", "--summary-only"])
    report = json.loads(p.stdout.strip().splitlines()[-1])
    noop, noop_rss, _ = timed(base + ["ingest", "--summary-only"])
    stats = {"cold_s": cold, "cold_rss_mb": rss, "noop_s": noop, "noop_rss_mb": noop_rss,
             "new": report["new"], "chunks": report["chunks_indexed"]}
    return stats, lambda q: base + ["search", "--k", "10", q]


def index_floor(root, work):
    db = os.path.join(work, "floor.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    sql = ("PRAGMA journal_mode=WAL; CREATE VIRTUAL TABLE t USING fts5(path, body, "
           "tokenize='unicode61 remove_diacritics 2'); BEGIN; INSERT INTO t SELECT name, "
           f"readfile(name) FROM fsdir('{root}') WHERE name LIKE '%.md' OR name LIKE '%.mdx';"
           " COMMIT;")
    t0 = time.perf_counter()
    run(["sqlite3", db, sql])
    load = time.perf_counter() - t0

    def search(q):
        phrase = ('"' + q.replace('"', '""') + '"').replace("'", "''")
        return ["sqlite3", db, f"SELECT path, snippet(t, 1, '', '', '…', 16) FROM t "
                               f"WHERE t MATCH '{phrase}' ORDER BY rank LIMIT 10;"]
    return {"load_s": load}, search


def index_recoll(root, work):
    if not shutil.which("recollindex"):
        return None, None
    conf = os.path.join(work, "recoll-conf")
    shutil.rmtree(conf, ignore_errors=True)
    os.makedirs(conf)
    with open(os.path.join(conf, "recoll.conf"), "w") as f:
        f.write(f"topdirs = {root}\nindexstemminglanguages = english\n")
    cold, rss, _ = timed(["recollindex", "-c", conf])
    noop, _, _ = timed(["recollindex", "-c", conf])
    return ({"cold_s": cold, "peak_rss_mb": rss, "noop_s": noop},
            lambda q: ["recollq", "-c", conf, "-n", "10", q])


def time_queries(queries, tools):
    samples = {name: [] for name in tools}
    for q in queries:
        for name, cmd in tools.items():
            t0 = time.perf_counter()
            run(cmd(q))
            samples[name].append(time.perf_counter() - t0)
    return {name: percentiles(v) for name, v in samples.items()}


def json_report(result, queries, hits):
    """One corpus's numbers for --json-out: kebab and each tool it was measured beside."""
    k, f, r, lat = result["kebab"], result["floor"], result["recoll"], result["search_ms_p50_p95"]
    ms = lambda tool: {"search_p50_ms": lat[tool][0], "search_p95_ms": lat[tool][1]}
    out = {"files": result["files"], "mb": result["mb"], "queries": queries,
           "kebab": {"cold_ingest_s": k["cold_s"], "cold_ingest_rss_mb": k["cold_rss_mb"],
                     "noop_ingest_s": k["noop_s"], "noop_ingest_rss_mb": k["noop_rss_mb"],
                     "chunks": k["chunks"], "queries_with_hits": hits, **ms("kebab")},
           "floor": {"bulk_load_s": f["load_s"], **ms("floor")}}
    if r:
        out["recoll"] = {"cold_index_s": r["cold_s"], "cold_index_rss_mb": r["peak_rss_mb"],
                         "noop_index_s": r["noop_s"], **ms("recoll")}
    if "ripgrep" in lat:
        out["ripgrep"] = ms("ripgrep")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--corpus", choices=sorted(CORPORA), action="append")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "kebab-bench"))
    ap.add_argument("--json-out", metavar="PATH", help="also write the numbers there as JSON")
    args = ap.parse_args()
    if not os.path.isdir(DATA):
        print(f"skipped: {DATA} is absent (the benchmark corpora live in ../shared/data)")
        return 0
    if not os.access(KEBAB, os.X_OK):
        print("build/kebab is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2
    os.makedirs(args.work, exist_ok=True)
    results, report = {}, {}
    for name in args.corpus or ["tldr", "astro"]:
        root, files = extract(name, args.work)
        mb = sum(os.path.getsize(f) for f in files) / 1e6
        queries = make_queries(files, args.queries)
        print(f"== {name}: {len(files)} files, {mb:.1f} MB, {len(queries)} queries", flush=True)
        k, kebab_cmd = index_kebab(root, args.work)
        f, floor_cmd = index_floor(root, args.work)
        r, recoll_cmd = index_recoll(root, args.work)
        tools = {"kebab": kebab_cmd, "floor": floor_cmd}
        if recoll_cmd:
            tools["recoll"] = recoll_cmd
        if shutil.which("rg"):
            tools["ripgrep"] = lambda q, root=root: ["rg", "-l", "-i", "-F", q, root]
        lat = time_queries(queries, tools)
        hits = sum(run(kebab_cmd(q)).returncode == 0 for q in queries)
        print(f"kebab   cold ingest {k['cold_s']:.2f} s ({len(files)/k['cold_s']:.0f} files/s, "
              f"{mb/k['cold_s']:.1f} MB/s), no-op {k['noop_s']:.2f} s, peak RSS "
              f"{max(k['cold_rss_mb'], k['noop_rss_mb']):.0f} MB; search p50 "
              f"{lat['kebab'][0]:.1f} ms p95 {lat['kebab'][1]:.1f} ms "
              f"({hits}/{len(queries)} with hits)")
        print(f"floor   bare FTS5 bulk insert {f['load_s']:.2f} s; sqlite3 CLI search p50 "
              f"{lat['floor'][0]:.1f} ms p95 {lat['floor'][1]:.1f} ms")
        if r:
            print(f"recoll  index {r['cold_s']:.2f} s ({len(files)/r['cold_s']:.0f} files/s), "
                  f"no-op {r['noop_s']:.2f} s, RSS {r['peak_rss_mb']:.0f} MB; recollq p50 "
                  f"{lat['recoll'][0]:.1f} ms p95 {lat['recoll'][1]:.1f} ms")
        if "ripgrep" in lat:
            print(f"ripgrep rg -l p50 {lat['ripgrep'][0]:.1f} ms p95 {lat['ripgrep'][1]:.1f} ms",
                  flush=True)
        results[name] = {"files": len(files), "mb": mb, "kebab": k, "floor": f, "recoll": r,
                         "search_ms_p50_p95": lat}
        report[name] = json_report(results[name], len(queries), hits)
    print(json.dumps(results, indent=1))
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as out:
            json.dump({"corpora": report}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
