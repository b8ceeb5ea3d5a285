#!/usr/bin/python3
"""Korean question retrieval: kebab's lexical search beside plain BM25 floors, and Cranfield.

The collection is made from tldr-pages' Korean pages (../shared/data/markdown/tldr-pages.tar.gz,
read in place). A page's question is its first description line ("> ...", without the "> " and
a trailing "."), e.g. "파일 및 디렉터리에 대한 링크 생성" for common/ln; the page indexed is the
same page with that one line removed (its "# title" the title, the rest as written the text),
so a question must be answered from the page's title, other description lines and examples.
Pages whose first description is shared with another page (aliases), mentions "별칭" or has
fewer than 2 Hangul syllables are left out; every other page is a document (about 6,000), and
`--queries` of them (default 500, spread evenly over the sorted ids) ask their question, each
with its own page as the one relevant document.

In the same run, on the same BEIR directory (written to a temp dir): kebab (`kebab eval import`
into a throw-away home, then `kebab eval run --mode lexical --k 100`, as whole processes), and
two floors from bench/ir_floors.py: BM25 over character bigrams of Hangul/Han/Kana runs plus
whole other words (k1 0.9, b 0.4: what a plain CJK-aware BM25 gets), and BM25 over
whitespace-separated words (Korean words with their particles attached, no stemming). Prints
nDCG@10, MRR@10 and recall@100 of each, and whether kebab's nDCG@10 and MRR@10 reach the bigram
floor's (the target). Then, as a control, the same on tldr-pages' English pages (`pages/`,
aliases left out likewise), and on Cranfield (../shared/data/ir/cranfield), both with the
SQLite FTS5 OR-query floor as a fourth row. Wall times of kebab's import and run and of each
floor (index + queries) are printed with the load average. Numbers are printed, never asserted.
Usage: bench/korean_bench.py [--queries 500] [--kebab PATH] [--json-out PATH] [--skip-english]
                             [--skip-cranfield]
"""
import argparse
import json
import os
import re
import shutil
import sys
import tarfile
import tempfile
import time

import ir_floors

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.normpath(os.path.join(REPO, "..", "shared", "data"))
TLDR = os.path.join(DATA, "markdown", "tldr-pages.tar.gz")
CRANFIELD = os.path.join(DATA, "ir", "cranfield")
# Per language: the tldr folder, what a question must hold twice at least (Hangul syllables,
# Latin letters), and the word alias pages use.
LANGUAGES = {"ko": ("tldr-pages/pages.ko/", re.compile("[\uac00-\ud7a3]"), "별칭"),
             "en": ("tldr-pages/pages/", re.compile("[A-Za-z]"), "alias")}
METRICS = ir_floors.METRICS
FLOORS = [("bigram", "bigram BM25 (k1 0.9, b 0.4)", ir_floors.bigram_bm25),
          ("word", "word BM25 (k1 0.9, b 0.4)", ir_floors.word_bm25)]


def tldr_pages(lang):
    """{id: (question, title, text)} of the eligible pages of one language; the id is the path
    under its folder without ".md" (e.g. "common/git-commit")."""
    prefix, letters, alias = LANGUAGES[lang]
    pages = {}
    with tarfile.open(TLDR) as tar:
        for m in tar:
            if m.isfile() and m.name.startswith(prefix) and m.name.endswith(".md"):
                pages[m.name[len(prefix):-3]] = tar.extractfile(m).read().decode("utf-8")
    split = {}
    for pid, page in pages.items():
        lines = page.split("\n")
        at = next((i for i, line in enumerate(lines) if line.startswith("> ")), None)
        if at is None:
            continue
        question = lines[at][2:].strip()
        question = question[:-1] if question.endswith(".") else question
        rest = lines[:at] + lines[at + 1:]
        t = next((i for i, line in enumerate(rest) if line.startswith("# ")), None)
        title = rest[t][2:].strip() if t is not None else ""
        text = "\n".join(rest[:t] + rest[t + 1:] if t is not None else rest).strip("\n") + "\n"
        split[pid] = (question, title, text)
    uses = {}
    for question, _, _ in split.values():
        uses[question] = uses.get(question, 0) + 1
    return {pid: v for pid, v in split.items()
            if uses[v[0]] == 1 and len(letters.findall(v[0])) >= 2 and alias not in v[0]}


def sample(ids, n):
    """n of the sorted ids, spread evenly (all when n >= len(ids))."""
    ids = sorted(ids)
    n = min(n, len(ids))
    return [ids[i * len(ids) // n] for i in range(n)]


def tldr_collection(out_dir, n_queries, lang="ko"):
    pages = tldr_pages(lang)
    asked = sample(pages, n_queries)
    return ir_floors.make_beir(
        out_dir, corpus=[(pid, title, text) for pid, (_, title, text) in sorted(pages.items())],
        queries=[(pid, pages[pid][0]) for pid in asked], qrels=[(pid, pid, 1) for pid in asked])


def three_way(binary, collection_dir, extra_floors=()):
    """kebab, then each floor, on one collection: {row key: metrics with times}."""
    print(f"  kebab eval import + run (load average {os.getloadavg()[0]:.1f}) ...", flush=True)
    rows = {"kebab": ir_floors.kebab_eval(binary, None, collection_dir,
                                          ir_floors.collection_format(collection_dir))}
    docs, queries, qrels = ir_floors.load_collection(collection_dir)
    for key, _, floor in [*FLOORS, *extra_floors]:
        print(f"  {key} floor (load average {os.getloadavg()[0]:.1f}) ...", flush=True)
        rows[key] = ir_floors.run_floor(floor, docs, queries, qrels)
    return rows


def print_table(title, rows, labels):
    print(f"\n== {title}")
    print(f"{'':34} {'nDCG@10':>8} {'MRR@10':>8} {'R@100':>8}  time")
    for key, r in rows.items():
        if key == "kebab":
            when = f"import + index {r['import_s']:.1f} s, eval run {r['eval_run_s']:.1f} s"
        else:
            when = f"index + queries {r['seconds']:.1f} s"
        print(f"{labels[key]:34} " + " ".join(f"{r[m]:8.3f}" for m in METRICS) + f"  {when}")


def flatten(prefix, rows, out):
    """Rows into flat keys: <prefix>_<row>_<metric>, and the times with their units."""
    for key, r in rows.items():
        for m in METRICS:
            out[f"{prefix}_{key}_{m}"] = r[m]
        if key == "kebab":
            out[f"{prefix}_kebab_import_s"] = r["import_s"]
            out[f"{prefix}_kebab_eval_run_s"] = r["eval_run_s"]
            out[f"{prefix}_kebab_latency_p95_ms"] = r["latency_p95_ms"]
        else:
            out[f"{prefix}_{key}_s"] = r["seconds"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kebab", default=os.path.join(REPO, "build", "kebab"))
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--json-out", help="also write the numbers to this JSON file")
    ap.add_argument("--skip-cranfield", action="store_true")
    ap.add_argument("--skip-english", action="store_true")
    args = ap.parse_args()
    if not os.path.isfile(TLDR):
        print(f"skipped: {TLDR} is absent (the corpora live in ../shared/data)")
        return 0
    if not os.access(args.kebab, os.X_OK):
        print(f"{args.kebab} is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2

    labels = {"kebab": "kebab, lexical", **{key: label for key, label, _ in FLOORS},
              "fts5_or": "FTS5 OR of words (porter, bm25)"}
    out = {}
    start = time.monotonic()
    work = tempfile.mkdtemp(prefix="kebab-korean-bench-")
    try:
        ko_dir = tldr_collection(os.path.join(work, "tldr-ko"), args.queries)
        docs, queries, _ = ir_floors.load_beir(ko_dir)
        print(f"== Korean tldr questions: {len(docs)} pages, {len(queries)} questions; "
              f"load average {os.getloadavg()[0]:.1f}", flush=True)
        ko = three_way(args.kebab, ko_dir)
        out.update(ko_documents=len(docs), ko_queries=ko["kebab"]["queries"])
        flatten("ko", ko, out)
        en = None
        if not args.skip_english:
            en_dir = tldr_collection(os.path.join(work, "tldr-en"), args.queries, "en")
            en_docs, _, _ = ir_floors.load_beir(en_dir)
            print(f"== English tldr questions (the same construction, a control); load average "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
            en = three_way(args.kebab, en_dir, [("fts5_or", "", ir_floors.fts5_or_bm25)])
            out.update(en_documents=len(en_docs), en_queries=en["kebab"]["queries"])
            flatten("en", en, out)
        cran = None
        if not args.skip_cranfield and os.path.isdir(CRANFIELD):
            print(f"== Cranfield; load average {os.getloadavg()[0]:.1f}", flush=True)
            cran = three_way(args.kebab, CRANFIELD,
                             [("fts5_or", "", ir_floors.fts5_or_bm25)])
            out.update(cranfield_documents=cran["kebab"]["documents"],
                       cranfield_queries=cran["kebab"]["queries"])
            flatten("cranfield", cran, out)
        elif not args.skip_cranfield:
            print(f"skipped Cranfield: {CRANFIELD} is absent")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print_table(f"Korean tldr questions ({out['ko_documents']} pages, {out['ko_queries']} "
                "questions, one relevant page each)", ko, labels)
    k, floor = ko["kebab"], ko["bigram"]
    met = k["ndcg@10"] >= floor["ndcg@10"] and k["mrr@10"] >= floor["mrr@10"]
    out["ko_target_met"] = met
    print(f"\ntarget: kebab >= bigram floor on nDCG@10 ({k['ndcg@10']:.3f} vs "
          f"{floor['ndcg@10']:.3f}) and MRR@10 ({k['mrr@10']:.3f} vs {floor['mrr@10']:.3f}): "
          f"{'met' if met else 'MISSED'}")
    if en:
        print_table(f"English tldr questions ({out['en_documents']} pages, {out['en_queries']} "
                    "questions, one relevant page each)", en, labels)
    if cran:
        print_table(f"Cranfield ({out['cranfield_documents']} documents, "
                    f"{out['cranfield_queries']} queries, graded)", cran, labels)
    out["wall_s"] = time.monotonic() - start
    print(f"\nwall time {out['wall_s']:.1f} s; load average "
          + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
