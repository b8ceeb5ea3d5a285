#!/usr/bin/env python3
"""A fake Ollama server for kebab's embedder tests (stdlib only).

Usage: fake_ollama.py PORT   (0 = any free port). Prints the port it listens on as its first
line of stdout, then serves on 127.0.0.1 what Ollama serves:
  POST /api/embed      {"model": M, "input": "text" | ["text", ...]}
                       -> {"model": M, "embeddings": [[8 floats], ...]}
  POST /v1/embeddings  (OpenAI-compatible) same request
                       -> {"object": "list", "data": [{"index": i, "embedding": [...]}, ...]}
                       with "data" in reverse order, which the protocol allows, so clients
                       must order by "index".
Each vector is derived from a hash of its text alone (not normalized, so the client's
normalization is tested), so the same text always gets the same vector. Special models:
  missing -> 404 {"error": "model \"missing\" not found, try pulling it first"}
  broken  -> 500 {"error": "llama runner process has terminated"}
  slow    -> answers after 5 s
  short   -> one vector fewer than inputs
  garbage -> 200 with a body that is not JSON
"""
import hashlib
import http.server
import json
import struct
import sys
import time

DIMS = 8


def vector_for(text):
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    # Eight signed 16-bit values in [-1, 1), offset so no vector is zero.
    return [v / 32768.0 + 0.01 for v in struct.unpack("<8h", digest[:16])]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # keep the test output clean
        pass

    def reply(self, status, obj):
        body = json.dumps(obj).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout test)

    def do_GET(self):
        if self.path == "/":
            body = b"Ollama is running"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.reply(404, {"error": "404 page not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        if self.path not in ("/api/embed", "/v1/embeddings"):
            self.reply(404, {"error": "404 page not found"})
            return
        try:
            req = json.loads(raw)
        except ValueError as e:
            self.reply(400, {"error": "invalid request: " + str(e)})
            return
        model = req.get("model", "")
        inputs = req.get("input", [])
        if isinstance(inputs, str):
            inputs = [inputs]
        if not model:
            self.reply(400, {"error": "model is required"})
            return
        openai = self.path == "/v1/embeddings"
        if model == "missing":
            message = 'model "%s" not found, try pulling it first' % model
            self.reply(404, {"error": {"message": message, "type": "api_error"}} if openai
                       else {"error": message})
            return
        if model == "broken":
            message = "llama runner process has terminated"
            self.reply(500, {"error": {"message": message, "type": "api_error"}} if openai
                       else {"error": message})
            return
        if model == "garbage":
            body = b"<html>not json</html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if model == "slow":
            time.sleep(5)
        embeddings = [vector_for(t) for t in inputs]
        if model == "short":
            embeddings = embeddings[:-1]
        if openai:
            data = [{"object": "embedding", "index": i, "embedding": v}
                    for i, v in enumerate(embeddings)]
            self.reply(200, {"object": "list", "model": model, "data": data[::-1],
                             "usage": {"prompt_tokens": 1, "total_tokens": 1}})
            return
        self.reply(200, {"model": model, "embeddings": embeddings,
                         "total_duration": 1, "load_duration": 0,
                         "prompt_eval_count": len(inputs)})


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
