"""Plain retrieval floors for kebab's quality benchmarks, with kebab's metrics and loaders.

Imported by eval_bench.py and korean_bench.py; nothing here runs on its own.

- Loaders, reading collections as `kebab eval import` does (src/eval/internal/beir.cc and
  trec.cc): `load_beir(dir)`, `load_trec(dir)` and `load_collection(dir)` (BEIR when
  corpus.jsonl exists, else TREC) each return (docs {id: (title, text)}, queries {id: text},
  qrels {qid: {docid: grade}}). Only grades above 0 are kept, judgements naming an unknown
  query or document are dropped, and only queries left with a judgement are in qrels: those
  are the queries kebab's suite holds and the metrics average over.
- `evaluate(runs, qrels)`: nDCG@10 (linear gains, gain / log2(rank + 1), the ideal ranking
  being the judged grades sorted), MRR@10 and recall@100, as src/eval/metrics.cc computes
  them for document judgements; the mean is over the judged queries, and one without hits
  scores 0 but still counts.
- Floors, each (docs, queries) -> {qid: [docid, best first, at most 100]}:
  `fts5_or_bm25` (an in-memory SQLite FTS5 table, porter + unicode61, the query's words
  double-quoted and OR-joined, SQLite's bm25 with k1 1.2 and b 0.75), `bigram_bm25`
  (Lucene/Anserini BM25, k1 0.9, b 0.4, over NFKC-casefolded words with Hangul/Han/Kana runs
  as overlapping character bigrams) and `word_bm25` (the same BM25 over whitespace-separated,
  lowercased, punctuation-stripped words, no stemming: the reference of
  ../shared/data/README.md).
- `kebab_eval(...)`: `kebab eval import` then `kebab eval run` as whole processes, with the
  aggregate metrics and the wall time.
"""
import json
import math
import os
import re
import shutil
import sqlite3
import string
import subprocess
import tempfile
import time
import unicodedata

METRICS = ["ndcg@10", "mrr@10", "recall@100"]
DEPTH = 100  # hits per query, as `eval run --k 100`


# ----------------------------------------------------------------------------------- loaders
def _jsonl(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def _string_id(value):
    return value if isinstance(value, str) else str(value)


def _collapse(text):
    """kebab's CollapseWhitespace: ASCII whitespace runs become one space, ends trimmed."""
    return " ".join(re.split(r"[ \t\n\r\f\v]+", text.strip(" \t\n\r\f\v")))


def _finish(docs, queries, judgements):
    """Keeps what kebab's import keeps: relevant judgements of known queries and documents, the
    first of each (query, document) pair; queries only when judged (the suite's queries)."""
    qrels = {}
    for qid, docid, grade in judgements:
        if grade <= 0 or qid not in queries or docid not in docs:
            continue
        qrels.setdefault(qid, {}).setdefault(docid, grade)
    return docs, queries, qrels


def load_beir(path, split="test"):
    docs, queries, judgements = {}, {}, []
    for o in _jsonl(os.path.join(path, "corpus.jsonl")):
        docs.setdefault(_string_id(o["_id"]), (o.get("title") or "", o.get("text") or ""))
    for o in _jsonl(os.path.join(path, "queries.jsonl")):
        queries.setdefault(_string_id(o["_id"]), _collapse(o.get("text") or ""))
    with open(os.path.join(path, "qrels", split + ".tsv"), encoding="utf-8",
              errors="replace") as f:
        first = True
        for line in f:
            fields = [x.strip() for x in line.rstrip("\r\n").split("\t")]
            if not line.strip():
                continue
            numeric = len(fields) == 3 and re.fullmatch(r"[+-]?\d+", fields[2])
            if first and not numeric:  # the header line
                first = False
                continue
            first = False
            judgements.append((fields[0], fields[1], int(fields[2])))
    return _finish(docs, queries, judgements)


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_TAG = re.compile(r"<!--.*?-->|<[A-Za-z/!][^>]*>", re.S)


def _plain(sgml):
    """kebab's PlainText: tags and comments become a space; entities stay as written."""
    return _TAG.sub(" ", sgml)


def _element(lower, name, start, stop):
    """(begin, content_begin, content_end, end) of the first <name>..</name> in lower[start:stop],
    an unclosed element running to `stop`; None when absent."""
    begin = lower.find(f"<{name}>", start, stop)
    if begin < 0:
        return None
    content = begin + len(name) + 2
    close = lower.find(f"</{name}>", content, stop)
    if close < 0:
        return begin, content, stop, stop
    return begin, content, close, close + len(name) + 3


def _field(lower, name, start, stop):
    """Content span of the first <name> in lower[start:stop], up to the next tag (topics do not
    close their fields)."""
    begin = lower.find(f"<{name}>", start, stop)
    if begin < 0:
        return None
    content = begin + len(name) + 2
    nxt = lower.find("<", content, stop)
    return content, (stop if nxt < 0 else nxt)


def _strip_prefix(s, prefix):
    s = s.strip(" \t\n\r\f\v")
    if s[:len(prefix)].translate(_ASCII_LOWER) == prefix:
        s = s[len(prefix):]
    return s.strip(" \t\n\r\f\v")


def _trec_documents(text, lower, docs):
    pos = 0
    while True:
        doc = _element(lower, "doc", pos, len(lower))
        if doc is None:
            return
        _, body_begin, body_end, end = doc
        docno = _element(lower, "docno", body_begin, body_end)
        if docno is None:
            raise ValueError("<DOC> without <DOCNO>")
        docid = _plain(text[docno[1]:docno[2]]).strip(" \t\n\r\f\v")
        title_el = None
        for name in ("title", "headline", "head"):
            title_el = title_el or _element(lower, name, body_begin, body_end)
        title = _plain(text[title_el[1]:title_el[2]]) if title_el else ""
        parts, start = [], body_begin
        while (part := _element(lower, "text", start, body_end)) is not None:
            parts.append(_plain(text[part[1]:part[2]]))
            start = part[3]
        body = "\n\n".join(parts)
        if not body:  # no <TEXT>: the whole body less the id and the title
            taken = sorted([docno] + ([title_el] if title_el else []))
            start = body_begin
            for e in taken:
                if e[0] < start:
                    continue
                body += _plain(text[start:e[0]]) + "\n"
                start = e[3]
            body += _plain(text[start:body_end])
        docs.setdefault(docid, (title, body))
        pos = end


def _trec_topics(text, lower, queries):
    pos = 0
    while (begin := lower.find("<top>", pos)) >= 0:
        end = lower.find("</top>", begin)
        if end < 0:
            raise ValueError("<top> without </top>")
        num, title = _field(lower, "num", begin, end), _field(lower, "title", begin, end)
        qid = _strip_prefix(text[num[0]:num[1]], "number:") if num else ""
        query = _strip_prefix(_collapse(_plain(text[title[0]:title[1]])), "topic:") if title \
            else ""
        if qid and query:
            queries.setdefault(qid, query)
        pos = end + 6


def load_trec(path):
    """Files under `path` (hidden ones skipped, sorted by relative path) as kebab reads them:
    a name starting with qrels (any case) is qrels, a file containing <top> topics (query = the
    topic's <title>), one containing <DOC> documents (<DOCNO>, title from the first of
    <TITLE>/<HEADLINE>/<HEAD>, text from every <TEXT>); tags in any case."""
    files = []
    for root, dirs, names in os.walk(path):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        files += [os.path.relpath(os.path.join(root, n), path) for n in names
                  if not n.startswith(".")]
    docs, queries, judgements = {}, {}, []
    for rel in sorted(files):
        with open(os.path.join(path, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        if os.path.basename(rel).lower().startswith("qrels"):
            for line in text.splitlines():
                fields = line.split()
                if len(fields) == 4:
                    judgements.append((fields[0], fields[2], int(fields[3])))
            continue
        lower = text.translate(_ASCII_LOWER)  # ASCII only, so offsets match `text`
        if "<top>" in lower:
            _trec_topics(text, lower, queries)
        elif "<doc>" in lower:
            _trec_documents(text, lower, docs)
    return _finish(docs, queries, judgements)


def collection_format(path):
    """"beir" when `path` holds corpus.jsonl, else "trec"."""
    return "beir" if os.path.isfile(os.path.join(path, "corpus.jsonl")) else "trec"


def load_collection(path):
    return load_beir(path) if collection_format(path) == "beir" else load_trec(path)


# ----------------------------------------------------------------------------------- metrics
def score_query(ranked, judged):
    """(nDCG@10, MRR@10, recall@100) of one ranking against {docid: grade > 0}."""
    gains = [judged.get(d, 0) for d in ranked]
    dcg = lambda g: sum(x / math.log2(i + 2) for i, x in enumerate(g[:10]))
    ideal = dcg(sorted(judged.values(), reverse=True))
    ndcg = dcg(gains) / ideal if ideal > 0 else 0.0
    mrr = next((1.0 / (i + 1) for i, g in enumerate(gains[:10]) if g > 0), 0.0)
    recall = len(set(ranked[:DEPTH]) & judged.keys()) / len(judged)
    return ndcg, mrr, recall


def evaluate(runs, qrels):
    """Means over the judged queries: {"ndcg@10", "mrr@10", "recall@100", "queries"}."""
    sums = [0.0, 0.0, 0.0]
    for qid, judged in qrels.items():
        for i, v in enumerate(score_query(runs.get(qid, []), judged)):
            sums[i] += v
    n = len(qrels)
    return {**{m: (s / n if n else 0.0) for m, s in zip(METRICS, sums)}, "queries": n}


def judged_queries(queries, qrels):
    """The queries the metrics count (floors need not rank the others)."""
    return {q: t for q, t in queries.items() if q in qrels}


# ------------------------------------------------------------------------------ FTS5 floor
_WORD = re.compile(r"\w+")


def fts5_or_bm25(docs, queries, dedupe=False, depth=DEPTH):
    """SQLite FTS5 (porter unicode61, bm25 with both columns weighted 1), each query's words
    quoted and OR-joined, repeated words kept unless `dedupe`."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(title, text, tokenize='porter unicode61')")
    ids = list(docs)
    db.executemany("INSERT INTO t(rowid, title, text) VALUES (?, ?, ?)",
                   ((i + 1, *docs[d]) for i, d in enumerate(ids)))
    runs = {}
    for qid, text in queries.items():
        words = _WORD.findall(text.lower())
        if dedupe:
            words = list(dict.fromkeys(words))
        if not words:
            runs[qid] = []
            continue
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = db.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t, 1.0, 1.0) "
                          "LIMIT ?", (match, depth)).fetchall()
        runs[qid] = [ids[r - 1] for (r,) in rows]
    db.close()
    return runs


# ------------------------------------------------------------------------------ BM25 floors
# Hangul syllables, Hiragana, Katakana (with phonetic extensions) and Han ideographs (with
# extension A, compatibility ideographs and the supplementary planes' extensions).
_CJK = ("\uac00-\ud7a3\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
        "\uf900-\ufaff\U00020000-\U0003134f")
_BIGRAM_TOKEN = re.compile(f"([{_CJK}]+)|([^\\W_{_CJK}]+)")
_PUNCT = string.punctuation + "。、，．：；！？「」『』（）［］｛｝【】〈〉《》〔〕・·…‥〜～“”‘’"


def bigram_terms(text):
    """NFKC + casefold; Hangul/Han/Kana runs as overlapping character bigrams (a one-character
    run as itself), runs of other letters and digits as words, everything else separates."""
    terms = []
    for cjk, word in _BIGRAM_TOKEN.findall(unicodedata.normalize("NFKC", text).casefold()):
        if word:
            terms.append(word)
        elif len(cjk) == 1:
            terms.append(cjk)
        else:
            terms += [cjk[i:i + 2] for i in range(len(cjk) - 1)]
    return terms


def word_terms(text):
    """Whitespace-separated words, lowercased, leading and trailing punctuation stripped."""
    return [w for w in (t.strip(_PUNCT) for t in text.lower().split()) if w]


class Bm25:
    """Lucene/Anserini BM25 over an inverted index: idf = ln(1 + (N - n + 0.5) / (n + 0.5)),
    tf part tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)); a query term counts as often
    as it occurs in the query (Anserini's bag of words)."""

    def __init__(self, docs, analyze, k1=0.9, b=0.4):
        self.ids, self.analyze, self.k1, self.b = list(docs), analyze, k1, b
        self.postings, self.lengths = {}, []
        for i, d in enumerate(self.ids):
            title, text = docs[d]
            counts = {}
            terms = analyze(title + "\n" + text)
            for t in terms:
                counts[t] = counts.get(t, 0) + 1
            for t, tf in counts.items():
                self.postings.setdefault(t, []).append((i, tf))
            self.lengths.append(len(terms))
        self.avgdl = sum(self.lengths) / max(1, len(self.lengths))
        self.weights = {}  # term -> [(doc, idf * tf part)], computed when first asked

    def _weighted(self, term):
        if term not in self.weights:
            plist = self.postings.get(term, [])
            n, N = len(plist), len(self.ids)
            idf = math.log(1 + (N - n + 0.5) / (n + 0.5))
            k1, ls = self.k1, self.lengths
            norm, scale = k1 * (1 - self.b), k1 * self.b / self.avgdl
            self.weights[term] = [(d, idf * tf * (k1 + 1) / (tf + norm + scale * ls[d]))
                                  for d, tf in plist]
        return self.weights[term]

    def search(self, text, depth=DEPTH):
        counts = {}
        for t in self.analyze(text):
            counts[t] = counts.get(t, 0) + 1
        scores = {}
        for t, qtf in counts.items():
            get = scores.get
            for d, w in self._weighted(t):
                scores[d] = get(d, 0.0) + qtf * w
        best = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:depth]
        return [self.ids[d] for d, _ in best]


def bm25_runs(docs, queries, analyze, k1=0.9, b=0.4, depth=DEPTH):
    index = Bm25(docs, analyze, k1, b)
    return {qid: index.search(text, depth) for qid, text in queries.items()}


def bigram_bm25(docs, queries, k1=0.9, b=0.4):
    return bm25_runs(docs, queries, bigram_terms, k1, b)


def word_bm25(docs, queries, k1=0.9, b=0.4):
    return bm25_runs(docs, queries, word_terms, k1, b)


def run_floor(floor, docs, queries, qrels, **kwargs):
    """A floor over the judged queries: its metrics plus `seconds` (index + all queries)."""
    start = time.monotonic()
    runs = floor(docs, judged_queries(queries, qrels), **kwargs)
    seconds = time.monotonic() - start
    return {**evaluate(runs, qrels), "seconds": seconds}


# ------------------------------------------------------------------------------------ kebab
def kebab(binary, home, *args, env=None):
    """One `kebab --json ...` process in `home` (HOME and the XDG dirs under it): (JSON, wall s)."""
    full_env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"),
                    XDG_DATA_HOME=os.path.join(home, "data"),
                    XDG_CACHE_HOME=os.path.join(home, "cache"),
                    XDG_STATE_HOME=os.path.join(home, "state"), **(env or {}))
    start = time.monotonic()
    p = subprocess.run([binary, "--json", *args], capture_output=True, text=True, env=full_env)
    wall = time.monotonic() - start
    if p.returncode != 0:
        raise RuntimeError(f"kebab {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout), wall


def kebab_eval(binary, home, collection_dir, fmt, mode="lexical", env=None, k=DEPTH, name=None):
    """`kebab eval import --format FMT DIR` then one `kebab eval run --suite NAME --k K --mode
    MODE`, in `home` (None: a throw-away one, deleted after). Returns the run's ndcg@10,
    mrr@10, recall@100, queries, latency p50/p95, `eval_run_s` (its wall time) and the import's
    `documents`, `import_s` (wall time, indexing included) and `name`."""
    own = home is None
    home = home or tempfile.mkdtemp(prefix="kebab-ir-floors-")
    try:
        report, import_s = kebab(binary, home, "eval", "import", "--format", fmt,
                                 *(["--name", name] if name else []), collection_dir, env=env)
        run, run_s = kebab(binary, home, "eval", "run", "--suite", report["name"], "--k", str(k),
                           "--mode", mode, env=env)
    finally:
        if own:
            shutil.rmtree(home, ignore_errors=True)
    agg = run["aggregate"]
    return {**{m: agg[m] for m in METRICS}, "queries": int(agg["total_queries"]),
            "latency_p50_ms": agg["latency_p50_ms"], "latency_p95_ms": agg["latency_p95_ms"],
            "eval_run_s": run_s, "documents": report["documents"], "import_s": import_s,
            "name": report["name"], "warnings": len(report.get("warnings") or [])}


def make_beir(out_dir, corpus=None, queries=None, qrels=None):
    """A BEIR directory in `out_dir`: each of corpus/queries/qrels is either a path to an existing
    file (symlinked; qrels: the qrels directory) or data to write (corpus: [(id, title, text)],
    queries: [(id, text)], qrels: [(qid, docid, grade)])."""
    os.makedirs(out_dir, exist_ok=True)

    def put(name, value, write):
        target = os.path.join(out_dir, name)
        if isinstance(value, str):
            os.symlink(os.path.abspath(value), target)
        else:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as f:
                write(f, value)

    put("corpus.jsonl", corpus, lambda f, v: f.writelines(
        json.dumps({"_id": i, "title": t, "text": x}, ensure_ascii=False) + "\n"
        for i, t, x in v))
    put("queries.jsonl", queries, lambda f, v: f.writelines(
        json.dumps({"_id": i, "text": t}, ensure_ascii=False) + "\n" for i, t in v))
    if isinstance(qrels, str):
        os.symlink(os.path.abspath(qrels), os.path.join(out_dir, "qrels"))
    else:
        put(os.path.join("qrels", "test.tsv"), qrels, lambda f, v: f.write(
            "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t{g}\n" for q, d, g in v)))
    return out_dir
