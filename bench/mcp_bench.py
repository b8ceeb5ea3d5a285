#!/usr/bin/python3
"""`kebab mcp` as an agent uses it: search latency through the protocol against the same search
timed inside the server, and the server's memory over many calls.

The tldr-pages corpus (../shared/data/markdown) is ingested into a throw-away home; one
`kebab mcp` process then answers lexical `search` tool calls (k 10, trace on) over stdio, sent
by this script as raw JSON-RPC lines (no SDK: its own cost is not kebab's). Per call it records
the round trip seen by the client and the facade's own total_ms from the response's trace: the
floor, measured in the same run on the same calls. Target (issue 22): round-trip p95 within
1.3 x the in-process p95 + 1 ms. Then --calls more searches (the query list over and over)
report the server's RSS after the first pass and at the end (target: no growth).
Numbers are printed, never asserted; --json-out writes them for bench/suite.py.
Usage: bench/mcp_bench.py [--queries N] [--calls N] [--json-out PATH]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lexical_bench  # noqa: E402  (corpus extraction and the query mix)

KEBAB = lexical_bench.KEBAB


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


class Server:
    def __init__(self, config):
        self.proc = subprocess.Popen([KEBAB, "--config", config, "mcp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "mcp_bench", "version": "1"}})
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0",
                                          "method": "notifications/initialized"}) + "\n")

    def request(self, method, params):
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id,
                                          "method": method, "params": params}) + "\n")
        reply = json.loads(self.proc.stdout.readline())
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]

    def search(self, query):
        t0 = time.perf_counter()
        result = self.request("tools/call", {"name": "search", "arguments": {
            "query": query, "mode": "lexical", "k": 10, "trace": True}})
        rtt = (time.perf_counter() - t0) * 1000
        if result.get("isError"):
            return rtt, None
        return rtt, result["structuredContent"]["trace"]["timing"]["total_ms"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def pct(samples, q):
    s = sorted(samples)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--calls", type=int, default=10000)
    ap.add_argument("--json-out")
    args = ap.parse_args()
    if not os.access(KEBAB, os.X_OK):
        print(f"{KEBAB} is missing: run scripts/setup.sh first", file=sys.stderr)
        return 2
    if not os.path.isdir(lexical_bench.DATA):
        print(f"skipped: {lexical_bench.DATA} is absent (../shared/data)", file=sys.stderr)
        return 0
    work = tempfile.mkdtemp(prefix="kebab-mcp-bench-")
    root, files = lexical_bench.extract("tldr", work)
    stats, _ = lexical_bench.index_kebab(root, work)
    config = os.path.join(work, "kebab-home", "config.toml")
    queries = lexical_bench.make_queries(files, args.queries)

    server = Server(config)
    server.search(queries[0])  # the first call opens the store: not what an agent waits for
    rtts, inside, failed = [], [], 0
    for q in queries:
        rtt, total = server.search(q)
        if total is None:
            failed += 1
            continue
        rtts.append(rtt)
        inside.append(total)
    rss_first = rss_mb(server.proc.pid)
    done = 0
    started = time.perf_counter()
    while done < args.calls:
        server.search(queries[done % len(queries)])
        done += 1
    calls_s = time.perf_counter() - started
    rss_end = rss_mb(server.proc.pid)
    server.close()

    p95_rtt, p95_in = pct(rtts, 0.95), pct(inside, 0.95)
    target = 1.3 * p95_in + 1.0
    out = {"docs": stats["new"], "chunks": stats["chunks"], "queries": len(queries),
           "failed_queries": failed, "rtt_p50_ms": pct(rtts, 0.5), "rtt_p95_ms": p95_rtt,
           "inproc_p50_ms": pct(inside, 0.5), "inproc_p95_ms": p95_in, "target_p95_ms": target,
           "rtt_over_target": p95_rtt / target, "calls": done, "calls_per_s": done / calls_s,
           "rss_after_first_pass_mb": rss_first, "rss_after_calls_mb": rss_end}
    print(f"tldr-pages: {stats['new']} docs, {stats['chunks']} chunks; {len(queries)} lexical "
          f"searches through kebab mcp ({failed} with no searchable words)")
    print(f"round trip   p50 {out['rtt_p50_ms']:.2f} ms  p95 {p95_rtt:.2f} ms")
    print(f"in-process   p50 {out['inproc_p50_ms']:.2f} ms  p95 {p95_in:.2f} ms")
    print(f"target       p95 <= 1.3 x {p95_in:.2f} + 1 = {target:.2f} ms: "
          f"{'met' if p95_rtt <= target else 'MISSED'}")
    print(f"{done} more calls at {out['calls_per_s']:.0f}/s; RSS {rss_first:.1f} MB after the "
          f"first pass, {rss_end:.1f} MB after them")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(out, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
