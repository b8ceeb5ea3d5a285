#!/usr/bin/python3
"""The citation check of `kebab ask`, measured on labelled claims through the real pipeline.

bench/data/verifier/ holds this project's own notes (English and Korean) and, per note, a
question and six or seven scripted answer sentences, each citing [#1] and labelled: right,
paraphrase (true), number, negation, wrong_source, quote, name (false). All notes are ingested into one
throw-away workspace; for each note the sentences are the scripted reply of
tests/tools/fake_ollama.py (a real HTTP server speaking Ollama's chat protocol on 127.0.0.1),
and `kebab --json ask QUESTION` runs once per rag.verify mode (auto, warn, refuse, off) with
rag.score_gate = 0 (the gate is not what is measured). A case whose [#1] is not its own note
(retrieval ranked another note first) is reported and left out.

A claim passes in a mode when the answer is delivered (not a refusal) and the claim is not
flagged: under off every sentence of a delivered answer passes. Per mode it prints how many
true claims (right + paraphrase) pass (recall) and how many false ones pass, precision, and per
label the share the check calls supported. Targets (issue 21): no false claim passes in the
default mode (auto); at least 80% of the true claims pass. Numbers are printed, never asserted.

The semantic fallback (rag.verify_semantic_threshold) needs a real embedding model, which this
machine does not have: `--embedding FILE --semantic 0.85` appends FILE (a [models.embedding]
section, e.g. provider = "ollama" with your endpoint) to every config and sets the threshold,
so the fallback can be calibrated where real weights are.
Usage: bench/verify_bench.py [--kebab PATH] [--json-out PATH] [--embedding FILE --semantic T]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(REPO, "bench", "data", "verifier")
FAKE_OLLAMA = os.path.join(REPO, "tests", "tools", "fake_ollama.py")
MODES = ["auto", "warn", "refuse", "off"]
TRUE_LABELS = {"right", "paraphrase"}
LABELS = ["right", "paraphrase", "number", "negation", "wrong_source", "quote", "name"]


class Home:
    """A workspace of every note, a config per mode and the fake model server."""

    def __init__(self, binary, cases, extra=""):
        self.binary = binary
        self.extra = extra
        self.tmp = tempfile.mkdtemp(prefix="kebab-verify-bench-")
        self.ws = os.path.join(self.tmp, "ws")
        os.makedirs(self.ws)
        for case in cases:
            shutil.copy(os.path.join(DATA, case["note"]), self.ws)
        self.reply = os.path.join(self.tmp, "reply.txt")
        env = dict(os.environ, FAKE_OLLAMA_REPLY_FILE=self.reply)
        self.server = subprocess.Popen([sys.executable, FAKE_OLLAMA, "0"], env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{int(self.server.stdout.readline())}"

    def config(self, mode):
        path = os.path.join(self.tmp, f"config-{mode}.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(f'[workspace]\nroot = "{self.ws}"\n'
                    f'[storage]\ndata_dir = "{self.tmp}/data"\ncache_dir = "{self.tmp}/cache"\n'
                    f'state_dir = "{self.tmp}/state"\n'
                    f'[models.llm]\nprovider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                    f'endpoint = "{self.url}"\n'
                    f'[rag]\nverify = "{mode}"\nscore_gate = 0.0\n{self.extra}')
        return path

    def run(self, mode, *args):
        env = {k: v for k, v in os.environ.items() if not k.startswith("KEBAB_")}
        p = subprocess.run([self.binary, "--json", "--config", self.config(mode), *args],
                           capture_output=True, text=True, env=env)
        if p.returncode not in (0, 1):
            raise RuntimeError(f"kebab {' '.join(args)}: exit {p.returncode}: {p.stderr}")
        return json.loads(p.stdout.splitlines()[-1])

    def close(self):
        self.server.kill()
        self.server.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kebab", default=os.path.join(REPO, "build", "kebab"))
    ap.add_argument("--json-out")
    ap.add_argument("--embedding", help="a TOML file with a [models.embedding] section")
    ap.add_argument("--semantic", type=float, default=0.0,
                    help="rag.verify_semantic_threshold (needs --embedding)")
    args = ap.parse_args()
    if args.semantic > 0 and not args.embedding:
        ap.error("--semantic needs --embedding FILE (a [models.embedding] section)")
    extra = ""
    if args.semantic > 0:
        extra = f"verify_semantic_threshold = {args.semantic}\n"
    if args.embedding:
        with open(args.embedding, encoding="utf-8") as f:
            extra += "\n" + f.read()
    if not os.access(args.kebab, os.X_OK):
        print(f"{args.kebab} is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2
    with open(os.path.join(DATA, "cases.jsonl"), encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]

    home = Home(args.kebab, cases, extra)
    passes = {m: {label: 0 for label in LABELS} for m in MODES}
    supported = {label: 0 for label in LABELS}
    totals = {label: 0 for label in LABELS}
    skipped, failures, verdicts = [], [], []
    try:
        home.run("auto", "ingest")
        for case in cases:
            with open(home.reply, "w", encoding="utf-8") as f:
                f.write(" ".join(c["text"] for c in case["claims"]))
            for mode in MODES:
                answer = home.run(mode, "ask", "--mode", "lexical", case["question"])
                packed = [c["citation"]["path"] for c in answer.get("citations") or []]
                if mode == "auto" and packed and packed[0] != os.path.basename(case["note"]):
                    skipped.append(f"{case['id']}: [#1] was {packed[0]}")
                    break
                checked = (answer.get("verification") or {}).get("claims") or []
                if mode != "off" and len(checked) != len(case["claims"]):
                    skipped.append(f"{case['id']}: {len(checked)} claims checked of "
                                   f"{len(case['claims'])}")
                    break
                for i, claim in enumerate(case["claims"]):
                    label = claim["label"]
                    ok = mode == "off" or checked[i]["status"] == "supported"
                    if mode == "auto":
                        verdicts.append({"case": case["id"], "label": label, "text": claim["text"],
                                         "status": checked[i]["status"],
                                         "semantic": checked[i].get("semantic"),
                                         "reasons": checked[i]["reasons"]})
                        totals[label] += 1
                        supported[label] += ok
                        if ok != (label in TRUE_LABELS):
                            failures.append(f"{case['lang']} {label}: {claim['text']} -> "
                                            f"{checked[i]['status']} "
                                            f"{'; '.join(checked[i]['reasons'])}")
                    passes[mode][label] += bool(answer["grounded"]) and ok
    finally:
        home.close()

    n_true = sum(totals[label] for label in TRUE_LABELS)
    n_false = sum(totals.values()) - n_true
    print(f"verifier benchmark: {len(cases) - len(skipped)} cases, {n_true} true and {n_false} "
          f"false claims")
    for s in skipped:
        print(f"  left out: {s}")
    print(f"\n{'label':14} {'claims':>7} {'supported':>10}")
    for label in LABELS:
        print(f"{label:14} {totals[label]:7d} {supported[label]:10d}")
    print(f"\n{'mode':8} {'true pass':>10} {'false pass':>11} {'recall':>7} {'precision':>10}")
    out = {"cases": len(cases) - len(skipped), "true_claims": n_true, "false_claims": n_false,
           "supported": supported, "modes": {}, "claims": verdicts}
    for mode in MODES:
        t = sum(passes[mode][label] for label in TRUE_LABELS)
        fp = sum(passes[mode].values()) - t
        recall = t / n_true if n_true else 0.0
        precision = t / (t + fp) if t + fp else 0.0
        out["modes"][mode] = {"true_pass": t, "false_pass": fp, "recall": recall,
                              "precision": precision}
        print(f"{mode:8} {t:10d} {fp:11d} {recall:7.2f} {precision:10.2f}")
    auto = out["modes"]["auto"]
    print(f"\ntargets (auto): no false claim passes: {auto['false_pass']} "
          f"({'met' if auto['false_pass'] == 0 else 'MISSED'}); at least 80% of true claims "
          f"pass: {auto['recall']:.2f} ({'met' if auto['recall'] >= 0.8 else 'MISSED'})")
    if failures:
        print("\nmisjudged claims:")
        for f in failures:
            print(f"  {f}")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
