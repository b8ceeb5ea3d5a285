#!/usr/bin/env python3
"""A local stand-in for the Hugging Face hub, for kebab's model download tests (stdlib only).

Usage: fake_hub.py [--port N] --serve REPO/FILE=LOCAL_PATH [--serve ...] [behaviour options]

Prints the port it listens on (127.0.0.1) as the first line of stdout, then serves what the hub
serves for large (LFS) files:
  GET|HEAD /{repo}/resolve/main/{file}
      302 to http://127.0.0.1:PORT/cdn/{sha256}/{file} with X-Linked-Etag: "<sha256>",
      X-Linked-Size and ETag, as huggingface.co does; 404 with X-Error-Code: EntryNotFound
      for a file it does not serve.
  GET|HEAD /cdn/{sha256}/{file}
      the bytes; "Range: bytes=N-" or "bytes=N-M" gives 206 with Content-Range, a start past
      the end 416 with "Content-Range: bytes */SIZE".
  GET /_stats      {"bytes_served": file bytes sent, "requests": [{"path", "range", "status",
                   "bytes"}, ...]} (one entry per /resolve and /cdn request)
  POST /_control   a JSON object of behaviour keys; resets the stats; the reply is the whole
                   new behaviour
Behaviour (options, or /_control keys with "_" for "-"):
  --drop-after N      the next /cdn answer stops after N body bytes and the connection is
                      closed (once; the request after it is served whole)
  --corrupt           /cdn serves the file with one byte flipped (checksum mismatch)
  --not-found         /resolve answers 404 for every file
  --bytes-per-sec N   /cdn sends at most N bytes a second (0 = no limit)
  --ignore-range      /cdn answers 200 with the whole file even when asked for a range
  --hash-header H     linked (default: the redirect carries X-Linked-Etag), etag (no
                      redirect: /resolve serves the bytes with ETag: "<sha256>"), none (no
                      redirect, no hash anywhere)
"""
import argparse
import hashlib
import http.server
import json
import re
import socket
import sys
import threading
import time

LOCK = threading.Lock()
FILES = {}  # "repo/file" -> bytes
BY_SHA = {}  # sha256 -> bytes
STATE = {"drop_after": None, "corrupt": False, "not_found": False, "bytes_per_sec": 0,
         "ignore_range": False, "hash_header": "linked"}
STATS = {"bytes_served": 0, "requests": []}


def record(path, rng, status, nbytes):
    with LOCK:
        STATS["bytes_served"] += nbytes
        STATS["requests"].append({"path": path, "range": rng, "status": status, "bytes": nbytes})


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # keep test output clean
        pass

    def small(self, status, body, headers=()):
        data = body.encode("utf-8")
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/_stats":
            with LOCK:
                body = json.dumps(STATS)
            self.small(200, body)
            return
        m = re.fullmatch(r"/(.+)/resolve/main/([^/]+)", path)
        if m:
            self.resolve(m.group(1) + "/" + m.group(2), m.group(2))
            return
        m = re.fullmatch(r"/cdn/([0-9a-f]{64})/([^/]+)", path)
        if m and m.group(1) in BY_SHA:
            self.send_bytes(BY_SHA[m.group(1)], etag=None)
            return
        self.small(404, "Not Found")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        if self.path != "/_control":
            self.small(404, "Not Found")
            return
        try:
            change = json.loads(raw or b"{}")
            unknown = set(change) - set(STATE)
            if unknown:
                raise ValueError(f"unknown keys {sorted(unknown)}")
        except ValueError as e:
            self.small(400, str(e))
            return
        with LOCK:
            STATE.update(change)
            STATS["bytes_served"] = 0
            STATS["requests"] = []
            body = json.dumps(STATE)
        self.small(200, body)

    def resolve(self, key, name):
        with LOCK:
            data = FILES.get(key)
            mode = STATE["hash_header"]
            not_found = STATE["not_found"]
        if data is None or not_found:
            record(self.path, None, 404, 0)
            self.small(404, "Entry not found", [("X-Error-Code", "EntryNotFound")])
            return
        sha = hashlib.sha256(data).hexdigest()
        if mode == "etag":
            self.send_bytes(data, etag=sha)
            return
        if mode == "none":
            self.send_bytes(data, etag=None)
            return
        host, port = self.server.server_address[:2]
        location = f"http://{host}:{port}/cdn/{sha}/{name}"
        record(self.path, self.headers.get("Range"), 302, 0)
        self.small(302, f"Found. Redirecting to {location}",
                   [("Location", location), ("X-Linked-Etag", f'"{sha}"'),
                    ("X-Linked-Size", str(len(data))), ("ETag", f'"{sha}"')])

    def send_bytes(self, data, etag):
        with LOCK:
            corrupt = STATE["corrupt"]
            ignore_range = STATE["ignore_range"]
            rate = STATE["bytes_per_sec"] or 0
            drop_after = STATE["drop_after"]
            STATE["drop_after"] = None  # one-shot
        if corrupt:
            mid = len(data) // 2
            data = data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1:]
        size = len(data)
        rng = self.headers.get("Range")
        start, end, status = 0, size - 1, 200
        m = re.fullmatch(r"bytes=(\d+)-(\d*)", rng or "")
        if m and not ignore_range:
            start = int(m.group(1))
            if start >= size:
                record(self.path, rng, 416, 0)
                self.small(416, "Range Not Satisfiable", [("Content-Range", f"bytes */{size}")])
                return
            end = min(int(m.group(2)), size - 1) if m.group(2) else size - 1
            status = 206
        body = data[start:end + 1]
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Accept-Ranges", "bytes")
        if etag:
            self.send_header("ETag", f'"{etag}"')
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()
        if self.command == "HEAD":
            record(self.path, rng, status, 0)
            return
        limit = len(body) if drop_after is None else min(len(body), int(drop_after))
        sent = 0
        step = 16384 if not rate else max(1, min(16384, rate // 10))
        try:
            while sent < limit:
                chunk = body[sent:min(limit, sent + step)]
                self.wfile.write(chunk)
                self.wfile.flush()
                sent += len(chunk)
                if rate:
                    time.sleep(len(chunk) / rate)
        except (BrokenPipeError, ConnectionResetError):
            record(self.path, rng, status, sent)
            self.close_connection = True
            return
        record(self.path, rng, status, sent)
        if sent < len(body):
            # Drop the connection mid-body, as a flaky network would.
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def main(argv):
    ap = argparse.ArgumentParser(description="Fake Hugging Face hub for kebab's tests.")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--serve", action="append", default=[], metavar="REPO/FILE=PATH")
    ap.add_argument("--drop-after", type=int)
    ap.add_argument("--corrupt", action="store_true")
    ap.add_argument("--not-found", action="store_true")
    ap.add_argument("--bytes-per-sec", type=int, default=0)
    ap.add_argument("--ignore-range", action="store_true")
    ap.add_argument("--hash-header", choices=["linked", "etag", "none"], default="linked")
    args = ap.parse_args(argv)
    for spec in args.serve:
        key, sep, path = spec.partition("=")
        if not sep or key.count("/") < 2:
            ap.error(f"--serve wants OWNER/REPO/FILE=PATH, got {spec!r}")
        with open(path, "rb") as f:
            data = f.read()
        FILES[key] = data
        BY_SHA[hashlib.sha256(data).hexdigest()] = data
    STATE.update(drop_after=args.drop_after, corrupt=args.corrupt, not_found=args.not_found,
                 bytes_per_sec=args.bytes_per_sec, ignore_range=args.ignore_range,
                 hash_header=args.hash_header)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main(sys.argv[1:])
