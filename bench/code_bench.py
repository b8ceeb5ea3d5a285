#!/usr/bin/python3
"""Whole-program benchmark of kebab's code ingest and code search against floors and peers.

The tree, installed from Debian and copied into --work (nothing goes into the repository): the
.py files of Python's standard library (/usr/lib/python3.11, without __pycache__ and the
third-party dist-packages/site-packages; Debian ships only the regression-test driver of
test/, so there is no test suite to exclude) and the C/C++ headers (.h .hpp .hh .hxx) under
/usr/include, about 8,600 files and 123 MB. --quick keeps the Python files and only
/usr/include/c++ (about 1,200 files, 20 MB). The files are read once before anything is timed,
so every tool starts from a warm page cache.

In one run:
  ingest   cold `kebab ingest` of the tree (whole process: seconds, peak RSS) vs
           floor    build/bench/kebab_code_parse_floor: the same tree-sitter grammars parsing the
                    files kebab indexed (its report skips generated files), as many workers as
                    kebab runs (one per core), nothing stored or chunked (also shown: the same
                    floor over every file of the tree);
           ctags    Universal Ctags `ctags -R` over the same tree (one process, as users run it).
  search   `kebab --json search --k 10` (a whole process per query, as a user runs it) vs
           floor    a bare FTS5 table (unicode61) bulk-loaded with the very chunk texts kebab
                    stored, queried through the sqlite3 CLI with the query's words OR-ed (kebab
                    matches any word of a query too), top 10 by bm25. Queries alternate between
                    the symbol-lookup questions below and symbol names; each query runs through
                    both in turn, so machine noise falls on both alike.
  symbols  symbol-lookup quality on the Python files, built with Python's `ast` (independent of
           kebab): every function, method and class with a docstring gives the query "the
           docstring's first sentence without the symbol's name or its identifier pieces" and
           the answer "its file, lines from the first decorator to end_lineno". A query left with
           fewer than 3 words, or shared by two definitions, is dropped; --symbols of them are
           sampled (seeded). hit@1, hit@10 and MRR@10 of
             kebab    `kebab search --k 10` over a kebab index of the Python files alone (AST
                      chunks): a hit is a citation of the answer's file whose lines overlap the
                      answer's lines;
             plain    the same files renamed *.py.lua, a language kebab has no grammar for, so
                      they are chunked as plain paragraphs (Tier 3, line citations); same rule;
             ripgrep  `rg -i -w -F` for the query's two rarest words (document frequency over the
                      Python files), files ranked by matching lines (then path); the answer's file
                      counts at its rank when one of its matching lines lies in the answer's
                      lines. (rg ranks files where kebab ranks passages: the top 10 files hold
                      more text than the top 10 chunks, which favours rg.)
           Overlap alone rewards long citations (a 50-line paragraph, a class cited whole for
           one of its methods), so each is also scored "precise": the hit's cited lines must
           lie at least half inside the answer's (rg's one line always is).
Targets (issue 25): cold ingest <= 3x the floor and below ctags; search p95 <= 1.5x the floor;
kebab's hit@10 above plain paragraphs' and ripgrep's. Numbers are printed, never asserted;
--json-out writes them (units in the key names) for bench/suite.py.
Prerequisites: Debian's universal-ctags and ripgrep (`apt-get install -y universal-ctags
ripgrep`), and the floor binary (`ninja -C build kebab_code_parse_floor`).
Usage: bench/code_bench.py [--quick] [--symbols N] [--queries N] [--kebab PATH] [--json-out PATH]
                          [--misses N]
"""
import argparse
import ast
import collections
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

from lexical_bench import percentiles, run, timed  # noqa: E402  (bench/ is on the path)
from pdf_bench import Kebab  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOOR = os.path.join(REPO, "build", "bench", "kebab_code_parse_floor")
PYTHON_ROOT = "/usr/lib/python3.11"
INCLUDE_ROOT = "/usr/include"
HEADER_EXTS = (".h", ".hpp", ".hh", ".hxx")
WORD = re.compile(r"[A-Za-z0-9]+")


# ------------------------------------------------------------------------------------ the tree
def source_files(quick):
    """(source path, path in the tree) of every file of the benchmark tree, sorted."""
    pairs = []
    for d, dirs, fs in os.walk(PYTHON_ROOT):
        dirs[:] = sorted(x for x in dirs
                         if x not in ("__pycache__", "dist-packages", "site-packages"))
        pairs += [(os.path.join(d, f), os.path.join("python3.11", os.path.relpath(
            os.path.join(d, f), PYTHON_ROOT))) for f in fs if f.endswith(".py")]
    include = os.path.join(INCLUDE_ROOT, "c++") if quick else INCLUDE_ROOT
    for d, dirs, fs in os.walk(include):
        dirs.sort()
        pairs += [(os.path.join(d, f), os.path.join("include", os.path.relpath(
            os.path.join(d, f), INCLUDE_ROOT))) for f in fs if f.endswith(HEADER_EXTS)
                  and os.path.isfile(os.path.join(d, f))]
    return sorted(pairs, key=lambda p: p[1])


def copy_tree(pairs, root, rename=lambda p: p):
    """Copies the files to root (a fresh directory), each at rename(its tree path)."""
    shutil.rmtree(root, ignore_errors=True)
    for src, rel in pairs:
        dst = os.path.join(root, rename(rel))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
    for d, _, fs in os.walk(root):  # warm the page cache for every tool alike
        for f in fs:
            with open(os.path.join(d, f), "rb") as fh:
                while fh.read(1 << 20):
                    pass


def index_copy(kebab, work):
    """A copy of kebab's index, readable by the system's SQLite while kebab is not running."""
    data = os.path.join(os.path.dirname(kebab.config), "data")
    dst = os.path.join(work, "kebab-copy.sqlite")
    for suffix in ("", "-wal"):
        if os.path.exists(dst + suffix):
            os.remove(dst + suffix)
        if os.path.exists(os.path.join(data, "kebab.sqlite" + suffix)):
            shutil.copyfile(os.path.join(data, "kebab.sqlite" + suffix), dst + suffix)
    return dst


# ---------------------------------------------------------------------------------- ingest
def ingest(args, tree, work, pairs):
    kebab = Kebab(args.kebab, tree, os.path.join(work, "kebab-home"))
    secs, rss, report = kebab.ingest()
    db = index_copy(kebab, work)
    con = sqlite3.connect(db)
    indexed = [os.path.join(tree, p) for (p,) in con.execute(
        "SELECT workspace_path FROM documents ORDER BY workspace_path")]
    con.close()
    mb = lambda files: sum(os.path.getsize(f) for f in files) / 1e6
    all_files = [os.path.join(tree, rel) for _, rel in pairs]
    out = {"files": len(all_files), "mb": mb(all_files)}
    out["kebab"] = {"cold_ingest_s": secs, "peak_rss_mb": rss, "files_indexed": len(indexed),
                    "mb_indexed": mb(indexed), "files_skipped": report["skipped"],
                    "files_skipped_generated": report.get("skipped_generated", 0),
                    "chunks": report["chunks_indexed"], "files_per_s": len(all_files) / secs,
                    "mb_per_s": out["mb"] / secs}

    threads = os.cpu_count() or 1  # kebab: one extractor per core (max_parallel_extractors)

    def floor(files):
        lst = os.path.join(work, "floor.list")
        with open(lst, "w") as f:
            f.write("\n".join(files) + "\n")
        with open(lst) as stdin:
            s, r, p = timed([args.floor, "--threads", str(threads)], stdin=stdin)
        if p.returncode != 0:
            sys.exit(f"{args.floor} failed: {p.stderr[-2000:]}")
        got = json.loads(p.stdout.strip().splitlines()[-1])
        return {"parse_s": s, "peak_rss_mb": r, "files": len(files), "mb": got["bytes"] / 1e6,
                "files_per_s": len(files) / s, "threads": threads,
                "files_with_syntax_errors": got["with_errors"]}
    out["floor"] = floor(indexed)
    out["floor_all_files"] = floor(all_files)
    out["kebab_over_floor"] = secs / out["floor"]["parse_s"]

    if shutil.which("ctags"):
        tags = os.path.join(work, "tags")
        s, r, p = timed(["ctags", "-R", "-f", tags, "."], cwd=tree)
        version = run(["ctags", "--version"]).stdout.splitlines()[0]
        out["ctags"] = {"index_s": s, "peak_rss_mb": r, "files": len(all_files), "mb": out["mb"],
                        "files_per_s": len(all_files) / s, "version": version,
                        "tags": sum(1 for line in open(tags, errors="replace")
                                    if not line.startswith("!_"))}
        out["kebab_over_ctags"] = secs / s
    return kebab, db, out


# ---------------------------------------------------------------------------------- queries
def identifier_pieces(name):
    """parse_config, parseConfig, ParseConfig, HTTPServer2 -> their lowercase words."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", name)]


def first_sentence(doc):
    para = " ".join(doc.strip().split("\n\n")[0].split())
    return re.split(r"(?<=[.!?])\s", para)[0]


def symbol_queries(py_root, n, seed=25):
    """[(query, file relative to py_root, first line, last line)], sampled with `seed`."""
    found = []
    for d, dirs, fs in os.walk(py_root):
        dirs.sort()
        for f in sorted(fs):
            path = os.path.join(d, f)
            try:
                tree = ast.parse(open(path, encoding="utf-8", errors="replace").read())
            except (SyntaxError, ValueError):  # lib2to3's fixtures hold Python 2
                continue
            for node in ast.walk(tree):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue
                doc = ast.get_docstring(node)
                if not doc:
                    continue
                drop = {node.name.lower()} | set(identifier_pieces(node.name))
                words = [w for w in WORD.findall(first_sentence(doc)) if w.lower() not in drop]
                if len(words) < 3:
                    continue
                start = min([node.lineno] + [x.lineno for x in node.decorator_list])
                found.append((" ".join(words), os.path.relpath(path, py_root), start,
                              node.end_lineno, node.name))
    # A query two definitions share ("Return the name.") has no single answer: dropped.
    count = collections.Counter(q[0].lower() for q in found)
    unique = [q for q in found if count[q[0].lower()] == 1]
    return random.Random(seed).sample(unique, min(n, len(unique))), len(found)


def document_frequency(py_root):
    df = collections.Counter()
    for d, _, fs in os.walk(py_root):
        for f in fs:
            if f.endswith(".py"):
                text = open(os.path.join(d, f), encoding="utf-8", errors="replace").read()
                df.update({w.lower() for w in WORD.findall(text)})
    return df


# ---------------------------------------------------------------------------------- scoring
def overlaps(a0, a1, b0, b1):
    return a0 <= b1 and b0 <= a1


def kebab_rank(kebab, query, answer, strip=""):
    """The 1-based ranks of the first hit citing the answer's file with lines overlapping the
    answer's, and of the first whose cited lines lie at least half inside the answer's (a
    citation that points at the definition rather than at a region holding it), None if none;
    and the top 10 citations as `path#Lstart-Lend symbol`."""
    _, rel, start, end = answer
    p = run(kebab.base + ["--json", "search", "--k", "10", query], env=kebab.env)
    if p.returncode not in (0, 1):
        sys.exit(f"kebab search failed ({p.returncode}): {p.stderr[-2000:]}")
    hits = json.loads(p.stdout).get("hits") or []
    rank = precise = None
    cited = []
    for i, hit in enumerate(hits[:10]):
        c = hit["citation"]
        path, a, b = c.get("path", ""), c.get("line_start", 0), c.get("line_end", 0)
        if strip and path.endswith(strip):
            path = path[:-len(strip)]
        cited.append(f"{path}#L{a}-L{b} {c.get('symbol') or ''}".rstrip())
        if path != rel or not overlaps(a, b, start, end):
            continue
        rank = rank or i + 1
        if 2 * (min(b, end) - max(a, start) + 1) >= b - a + 1:
            precise = precise or i + 1
    return rank, precise, cited


def rg_rank(py_root, words, answer):
    """Files ranked by lines matching either word (then path); the answer's file counts at its
    rank when one of its matching lines lies in the answer's lines."""
    _, rel, start, end = answer
    cmd = ["rg", "-i", "-w", "-F", "-n", "--no-heading", "--no-messages"]
    for w in words:
        cmd += ["-e", w]
    p = run(cmd + ["."], cwd=py_root)
    lines = collections.defaultdict(list)
    for line in p.stdout.splitlines():
        m = re.match(r"(?:\./)?(.*?):(\d+):", line)
        if m:
            lines[m.group(1)].append(int(m.group(2)))
    ranked = sorted(lines, key=lambda f: (-len(lines[f]), f))[:10]
    for i, f in enumerate(ranked):
        if f == rel and any(start <= n <= end for n in lines[f]):
            return i + 1
    return None


def scores(ranks, precise=None):
    n = len(ranks) or 1
    out = {"hit_at_1": sum(r == 1 for r in ranks) / n,
           "hit_at_10": sum(r is not None for r in ranks) / n,
           "mrr_at_10": sum(1 / r for r in ranks if r) / n}
    if precise is not None:
        out.update({"precise_" + k: v for k, v in scores(precise).items()})
    return out


def symbol_lookup(args, work, pairs):
    py_pairs = [(s, rel[len("python3.11/"):]) for s, rel in pairs if rel.startswith("python3.11/")]
    ast_root, plain_root = os.path.join(work, "py-ast"), os.path.join(work, "py-plain")
    copy_tree(py_pairs, ast_root)
    copy_tree(py_pairs, plain_root, rename=lambda p: p + ".lua")
    queries, candidates = symbol_queries(ast_root, args.symbols)
    ast_kebab = Kebab(args.kebab, ast_root, os.path.join(work, "kebab-py-ast"))
    ast_kebab.ingest()
    plain_kebab = Kebab(args.kebab, plain_root, os.path.join(work, "kebab-py-plain"))
    plain_kebab.ingest()
    df = document_frequency(ast_root)
    ranks = collections.defaultdict(list)
    misses = []
    for q, rel, start, end, symbol in queries:
        answer = (q, rel, start, end)
        cited = {}
        for name, k, strip in (("kebab", ast_kebab, ""), ("plain", plain_kebab, ".lua")):
            rank, precise, cited[name] = kebab_rank(k, q, answer, strip)
            ranks[name].append(rank)
            ranks[name + "_precise"].append(precise)
        ast, plain = ranks["kebab"][-1], ranks["plain"][-1]
        if ast is None or (plain is not None and plain < ast):
            misses.append((q, f"{rel}#L{start}-L{end} {symbol}", ast, plain, cited))
        rare = sorted({w.lower() for w in WORD.findall(q)}, key=lambda w: (df[w], w))[:2]
        ranks["ripgrep"].append(rg_rank(ast_root, rare, answer))
    out = {"queries": len(queries), "candidates": candidates,
           "kebab_ast": scores(ranks["kebab"], ranks["kebab_precise"]),
           "kebab_plain_paragraphs": scores(ranks["plain"], ranks["plain_precise"])}
    if shutil.which("rg"):
        out["ripgrep"] = scores(ranks["ripgrep"], ranks["ripgrep"])  # one line: always precise
    return queries, out, misses


def print_misses(misses, n):
    """The first n queries AST chunks missed (overlap rule) or ranked below plain paragraphs,
    with both top fives."""
    print(f"== {len(misses)} queries AST chunks missed or ranked below plain paragraphs"
          f"{f' (first {n})' if len(misses) > n else ''}")
    for q, answer, ast, plain, cited in misses[:n]:
        print(f"query   {q!r}\nanswer  {answer}\n  AST rank {ast}, plain rank {plain}")
        for name in ("kebab", "plain"):
            for i, c in enumerate(cited[name][:5]):
                print(f"  {name:5s} {i + 1:2d}. {c}")


# ---------------------------------------------------------------------------------- search
def floor_index(db, work):
    """A bare FTS5 table loaded in one transaction with the chunk texts of kebab's index."""
    floor = os.path.join(work, "floor.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(floor + suffix):
            os.remove(floor + suffix)
    src = sqlite3.connect(db)
    rows = src.execute("SELECT d.workspace_path, c.text FROM chunks c JOIN documents d "
                       "USING (doc_id) ORDER BY c.chunk_rowid").fetchall()
    src.close()
    t0 = time.perf_counter()
    con = sqlite3.connect(floor)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE VIRTUAL TABLE t USING fts5(path, body, "
                "tokenize='unicode61 remove_diacritics 2')")
    with con:
        con.executemany("INSERT INTO t VALUES (?, ?)", rows)
    con.close()
    return floor, {"bulk_load_s": time.perf_counter() - t0, "chunks": len(rows)}


def search_latency(kebab, floor, queries):
    def floor_cmd(q):
        match = " OR ".join('"' + w + '"' for w in WORD.findall(q)) or '""'
        return ["sqlite3", floor, f"SELECT path, snippet(t, 1, '', '', '…', 16) FROM t "
                                  f"WHERE t MATCH '{match}' ORDER BY rank LIMIT 10;"]
    tools = {"kebab": lambda q: kebab.base + ["--json", "search", "--k", "10", q],
             "floor": floor_cmd}
    samples = {name: [] for name in tools}
    for q in queries:
        for name, cmd in tools.items():
            t0 = time.perf_counter()
            run(cmd(q), env=kebab.env if name == "kebab" else None)
            samples[name].append(time.perf_counter() - t0)
    return {name: dict(zip(("search_p50_ms", "search_p95_ms"), percentiles(v)))
            for name, v in samples.items()}


# ---------------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="Python files + /usr/include/c++ only, 60 symbols, 40 queries")
    ap.add_argument("--symbols", type=int, help="symbol-lookup queries (default 300)")
    ap.add_argument("--queries", type=int, help="search latency queries (default 200)")
    ap.add_argument("--kebab", default=os.path.join(REPO, "build", "kebab"))
    ap.add_argument("--floor", default=FLOOR)
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "kebab-code-bench"))
    ap.add_argument("--json-out", metavar="PATH", help="also write the numbers there as JSON")
    ap.add_argument("--misses", type=int, default=0, metavar="N",
                    help="print the first N symbol queries AST chunks missed or ranked below "
                         "plain paragraphs, with both top fives")
    args = ap.parse_args()
    args.symbols = args.symbols or (60 if args.quick else 300)
    args.queries = args.queries or (40 if args.quick else 200)
    for binary, hint in ((args.kebab, "run scripts/setup.sh first"),
                         (args.floor, "ninja -C build kebab_code_parse_floor")):
        if not os.access(binary, os.X_OK):
            print(f"{binary} is missing: {hint}", file=sys.stderr)
            return 2
    for tool, pkg in (("ctags", "universal-ctags"), ("rg", "ripgrep")):
        if not shutil.which(tool):
            print(f"note: {tool} is missing, its rows are left out (apt-get install -y {pkg})")
    os.makedirs(args.work, exist_ok=True)

    pairs = source_files(args.quick)
    tree = os.path.join(args.work, "tree")
    copy_tree(pairs, tree)
    kebab, db, ing = ingest(args, tree, args.work, pairs)
    k, f, fa = ing["kebab"], ing["floor"], ing["floor_all_files"]
    print(f"== tree: {ing['files']} files, {ing['mb']:.1f} MB "
          f"({'quick: Python + /usr/include/c++' if args.quick else 'Python + /usr/include'})")
    print(f"kebab   cold ingest {k['cold_ingest_s']:.2f} s ({k['files_per_s']:.0f} files/s, "
          f"{k['mb_per_s']:.1f} MB/s), peak RSS {k['peak_rss_mb']:.0f} MB; "
          f"{k['files_indexed']} files indexed ({k['mb_indexed']:.1f} MB), "
          f"{k['files_skipped_generated']} skipped as generated, {k['chunks']} chunks")
    print(f"floor   parse {f['files']} indexed files ({f['mb']:.1f} MB) {f['parse_s']:.2f} s "
          f"({f['files_per_s']:.0f} files/s, {f['threads']} threads), peak RSS "
          f"{f['peak_rss_mb']:.0f} MB; all {fa['files']} files {fa['parse_s']:.2f} s; "
          f"kebab / floor {ing['kebab_over_floor']:.2f}x (target <= 3x)")
    if "ctags" in ing:
        c = ing["ctags"]
        print(f"ctags   -R {c['index_s']:.2f} s ({c['files_per_s']:.0f} files/s), peak RSS "
              f"{c['peak_rss_mb']:.0f} MB, {c['tags']} tags ({c['version']}); kebab / ctags "
              f"{ing['kebab_over_ctags']:.2f}x (target < 1)", flush=True)

    queries, sym, misses = symbol_lookup(args, args.work, pairs)
    print(f"== symbol lookup: {sym['queries']} queries (of {sym['candidates']} documented "
          "symbols), Python files only")
    for name in ("kebab_ast", "kebab_plain_paragraphs", "ripgrep"):
        if name in sym:
            s = sym[name]
            print(f"{name:24s} hit@1 {s['hit_at_1']:.3f}  hit@10 {s['hit_at_10']:.3f}  "
                  f"MRR@10 {s['mrr_at_10']:.3f} | precise: hit@1 {s['precise_hit_at_1']:.3f}  "
                  f"hit@10 {s['precise_hit_at_10']:.3f}  MRR@10 {s['precise_mrr_at_10']:.3f}",
                  flush=True)
    if args.misses:
        print_misses(misses, args.misses)

    # Latency queries: the symbol questions and the symbols' names, alternating.
    names = [" ".join(identifier_pieces(q[4])) for q in queries]
    mixed = [x for pair in zip([q[0] for q in queries], names) for x in pair]
    mixed = (mixed * (args.queries // max(1, len(mixed)) + 1))[:args.queries]
    floor_db, fl = floor_index(db, args.work)
    lat = search_latency(kebab, floor_db, mixed)
    ratio = lat["kebab"]["search_p95_ms"] / lat["floor"]["search_p95_ms"]
    print(f"== search: {len(mixed)} queries over the whole tree's index")
    print(f"kebab   search p50 {lat['kebab']['search_p50_ms']:.1f} ms p95 "
          f"{lat['kebab']['search_p95_ms']:.1f} ms")
    print(f"floor   bare FTS5 ({fl['chunks']} chunks, loaded in {fl['bulk_load_s']:.1f} s), "
          f"sqlite3 CLI p50 {lat['floor']['search_p50_ms']:.1f} ms p95 "
          f"{lat['floor']['search_p95_ms']:.1f} ms; kebab / floor p95 {ratio:.2f}x "
          "(target <= 1.5x)")

    result = {"quick": args.quick, "ingest": ing, "symbol_lookup": sym,
              "search": {"queries": len(mixed), "kebab": lat["kebab"],
                         "floor": {**lat["floor"], **fl}, "kebab_over_floor_p95": ratio}}
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
