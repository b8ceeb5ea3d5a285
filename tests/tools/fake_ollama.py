#!/usr/bin/env python3
"""A fake Ollama server for kebab's embedder and chat tests (stdlib only).

Usage: fake_ollama.py PORT   (0 = any free port). Prints the port it listens on as its first
line of stdout, then serves on 127.0.0.1 what Ollama serves:
  POST /api/embed      {"model": M, "input": "text" | ["text", ...]}
                       -> {"model": M, "embeddings": [[8 floats], ...]}
  POST /v1/embeddings  (OpenAI-compatible) same request
                       -> {"object": "list", "data": [{"index": i, "embedding": [...]}, ...]}
                       with "data" in reverse order, which the protocol allows, so clients
                       must order by "index".
  POST /api/chat       {"model", "messages", "stream", "options": {"num_predict", "stop", ...}}
                       -> ndjson: {"message": {"content": piece}, "done": false} per piece, then
                       {"done": true, "done_reason": "stop" | "length", "prompt_eval_count",
                       "eval_count"}
  POST /v1/chat/completions  (OpenAI-compatible) the same as server-sent events, with
                       "max_tokens", "stop", "stream_options": {"include_usage": true}
  GET  /api/tags       {"models": [{"name": "llama3.2:latest", ...}, ...]}
  GET  /v1/models      {"object": "list", "data": [{"id": "llama3.2:latest", ...}, ...]}
  GET  /_test/last_chat  (not Ollama's) the body of the last chat request, for tests to check
                       what a client sent
  GET  /_test/stats    (not Ollama's) {"chats": N, "images": M}: chat requests and images
                       received so far
Vision: a user message may carry images, as Ollama takes them ("images": [base64, ...]) or as
OpenAI does (content parts {"type": "image_url", "image_url": {"url": "data:image/...;base64,
..."}}). Only the vision model "llava:7b" accepts them (others answer 400, as Ollama does for
a model without vision); its reply is then a caption of the last image, read from its bytes:
"A kebab-shop photo of W by H pixels." (a JPEG's size from its frame header, a PNG's from IHDR;
anything that is not a JPEG or PNG is a 400).
Each vector is derived from a hash of its text alone (not normalized, so the client's
normalization is tested), so the same text always gets the same vector. A chat reply echoes the
last user message, one piece per word with the space after it (so pieces concatenate to it
exactly), each piece counting as one token: num_predict / max_tokens cut it ("length"), a stop
string cuts it before the stop string ("stop"). prompt_eval_count is the number of words in all
messages. Each ndjson line / event is written in two halves, so clients must join lines that
arrive split. Embedding models are any name; chat models are those /api/tags lists. Special
models, for both:
  missing -> 404 {"error": "model \"missing\" not found, try pulling it first"}
  broken  -> 500 {"error": "llama runner process has terminated"}
  slow    -> answers after 5 s
  short   -> one vector fewer than inputs (embeddings)
  trigrams -> embeddings of 256 floats: a bag of the text's lower-cased letter trigrams, so
             texts that share word pieces are alike (the citation check's semantic fallback)
  garbage -> 200 with a body that is not JSON
  stall   -> chat: sends the first piece, then nothing for 30 s
  crash   -> chat: sends the first piece, then an error message, and ends the stream
With FAKE_OLLAMA_REPLY_FILE set (kebab ask's end-to-end tests), a chat reply is that file's
text instead of the echo, read anew for every request, so a test scripts the model's answer.
"""
import base64
import hashlib
import http.server
import json
import os
import re
import struct
import sys
import threading
import time

DIMS = 8
CHAT_MODELS = ["llama3.2:latest", "qwen2.5:0.5b", "llava:7b"]
VISION_MODELS = ["llava:7b"]
CHAT_SPECIAL = ["broken", "slow", "garbage", "stall", "crash"]
RUNNER_DIED = "llama runner process has terminated"

last_chat = {}  # the body of the last chat request
stats = {"chats": 0, "images": 0}
last_chat_lock = threading.Lock()


def with_tag(name):
    """Ollama's implicit ":latest": a name without a tag after its last "/" gets one."""
    return name if ":" in name.rsplit("/", 1)[-1] else name + ":latest"


def text_of(content):
    """A message's text: the content string, or its text parts (OpenAI's list form)."""
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content
                        if isinstance(p, dict) and p.get("type") == "text")
    return content if isinstance(content, str) else ""


def images_of(message):
    """The base64 images a message carries, in either protocol's form."""
    images = list(message.get("images") or [])
    content = message.get("content")
    if isinstance(content, list):
        for p in content:
            if isinstance(p, dict) and p.get("type") == "image_url":
                url = (p.get("image_url") or {}).get("url", "")
                if not url.startswith("data:image/") or ";base64," not in url:
                    raise ValueError("image_url is not a base64 data URL")
                images.append(url.split(";base64,", 1)[1])
    return images


def caption_of(image_b64):
    """The fake vision model's caption of one image, from its bytes."""
    data = base64.b64decode(image_b64, validate=True)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        width, height = struct.unpack(">II", data[16:24])
    elif data[:2] == b"\xff\xd8":
        i, width, height = 2, 0, 0
        while i + 9 < len(data):
            marker = data[i + 1]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height, width = struct.unpack(">HH", data[i + 5:i + 9])
                break
            i += 2 + struct.unpack(">H", data[i + 2:i + 4])[0]
        if not width:
            raise ValueError("a JPEG without a frame header")
    else:
        raise ValueError("not a JPEG or PNG image")
    return "A kebab-shop photo of %d by %d pixels." % (width, height)


def chat_reply(messages, limit, stops):
    """The pieces of the reply, its done_reason and the prompt's token count."""
    users = [text_of(m.get("content", "")) for m in messages if m.get("role") == "user"]
    last_images = [images_of(m) for m in messages if m.get("role") == "user"][-1:]
    if last_images and last_images[0]:
        users = [caption_of(last_images[0][-1])]
    script = os.environ.get("FAKE_OLLAMA_REPLY_FILE")
    if script and os.path.exists(script):
        with open(script, encoding="utf-8") as f:
            users = [f.read()]
    pieces = re.findall(r"\S+\s*|\s+", users[-1] if users else "")
    reason = "stop"
    if limit is not None and 0 <= limit < len(pieces):
        pieces, reason = pieces[:limit], "length"
    text = "".join(pieces)
    cuts = [text.find(s) for s in stops if s and s in text]
    if cuts:
        text, reason = text[:min(cuts)], "stop"
        pieces = re.findall(r"\S+\s*|\s+", text)
    prompt_tokens = sum(len(text_of(m.get("content", "")).split()) for m in messages)
    return pieces, reason, prompt_tokens


def vector_for(text):
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    # Eight signed 16-bit values in [-1, 1), offset so no vector is zero.
    return [v / 32768.0 + 0.01 for v in struct.unpack("<8h", digest[:16])]


def trigram_vector(text):
    v = [0.0] * 256
    for word in re.findall(r"[a-z]+", text.lower()):
        for i in range(len(word) - 2):
            v[hashlib.sha256(word[i:i + 3].encode()).digest()[0]] += 1.0
    v[0] += 0.01  # never the zero vector
    return v


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

    def error(self, status, message, openai):
        self.reply(status, {"error": {"message": message, "type": "api_error"}} if openai
                   else {"error": message})

    def do_GET(self):
        if self.path == "/":
            body = b"Ollama is running"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/api/tags":
            self.reply(200, {"models": [
                {"name": m, "model": m, "modified_at": "2024-10-01T12:00:00Z", "size": 1,
                 "digest": hashlib.sha256(m.encode()).hexdigest(),
                 "details": {"format": "gguf", "family": "llama"}} for m in CHAT_MODELS]})
        elif self.path == "/v1/models":
            self.reply(200, {"object": "list", "data": [
                {"id": m, "object": "model", "created": 1727784000, "owned_by": "library"}
                for m in CHAT_MODELS]})
        elif self.path == "/_test/last_chat":
            with last_chat_lock:
                self.reply(200, last_chat)
        elif self.path == "/_test/stats":
            with last_chat_lock:
                self.reply(200, stats)
        else:
            self.reply(404, {"error": "404 page not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        embed_paths = ("/api/embed", "/v1/embeddings")
        chat_paths = ("/api/chat", "/v1/chat/completions")
        if self.path not in embed_paths + chat_paths:
            self.reply(404, {"error": "404 page not found"})
            return
        try:
            req = json.loads(raw)
        except ValueError as e:
            self.reply(400, {"error": "invalid request: " + str(e)})
            return
        model = req.get("model", "")
        if not model:
            self.reply(400, {"error": "model is required"})
            return
        openai = self.path.startswith("/v1/")
        chat = self.path in chat_paths
        images = []
        if chat:
            try:
                images = [i for m in req.get("messages", []) for i in images_of(m)]
            except ValueError as e:
                self.error(400, str(e), openai)
                return
            with last_chat_lock:
                last_chat.clear()
                last_chat.update(req)
                stats["chats"] += 1
                stats["images"] += len(images)
        known = not chat or with_tag(model) in CHAT_MODELS or model in CHAT_SPECIAL
        if model == "missing" or not known:
            self.error(404, 'model "%s" not found, try pulling it first' % model, openai)
            return
        if model == "broken":
            self.error(500, RUNNER_DIED, openai)
            return
        if images and with_tag(model) not in VISION_MODELS:
            self.error(400, "this model does not support image input", openai)
            return
        try:
            for image in images:
                caption_of(image)
        except ValueError as e:
            self.error(400, "invalid image input: %s" % e, openai)
            return
        if model == "slow":
            time.sleep(5)
        if model == "garbage":
            body = b"<html>not json</html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if chat:
            self.chat(req, model, openai)
        else:
            self.embed(req, model, openai)

    def embed(self, req, model, openai):
        inputs = req.get("input", [])
        if isinstance(inputs, str):
            inputs = [inputs]
        embed = trigram_vector if model == "trigrams" else vector_for
        embeddings = [embed(t) for t in inputs]
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

    def send_chunk(self, data):
        """One chunk of a chunked body; empty data ends the body."""
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def send_line(self, line):
        """A line in two chunks, a moment apart, so it reaches the client split."""
        data = line.encode("utf-8")
        half = len(data) // 2
        self.send_chunk(data[:half])
        time.sleep(0.002)
        self.send_chunk(data[half:])

    def chat(self, req, model, openai):
        messages = req.get("messages", [])
        if openai:
            limit = req.get("max_tokens")
            stop = req.get("stop") or []
            usage = (req.get("stream_options") or {}).get("include_usage", False)
        else:
            options = req.get("options") or {}
            limit = options.get("num_predict")
            stop = options.get("stop") or []
        if isinstance(stop, str):
            stop = [stop]
        pieces, reason, prompt_tokens = chat_reply(messages, limit, stop)
        created = "2024-10-01T12:00:00Z"

        def ollama_piece(text):
            return json.dumps({"model": model, "created_at": created,
                               "message": {"role": "assistant", "content": text},
                               "done": False}) + "\n"

        def openai_event(delta, finish=None):
            return "data: " + json.dumps({
                "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1727784000,
                "model": model, "system_fingerprint": "fp_ollama",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}) + "\n\n"

        def piece(text):
            return (openai_event({"role": "assistant", "content": text}) if openai
                    else ollama_piece(text))

        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream" if openai
                         else "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for i, text in enumerate(pieces):
                self.send_line(piece(text))
                if i == 0 and model == "stall":
                    time.sleep(30)
                    return
                if i == 0 and model == "crash":
                    self.send_line(("data: " + json.dumps({"error": {"message": RUNNER_DIED}})
                                    + "\n\n") if openai
                                   else json.dumps({"error": RUNNER_DIED}) + "\n")
                    self.send_chunk(b"")
                    return
            if openai:
                self.send_line(openai_event({}, reason))
                if usage:
                    self.send_line("data: " + json.dumps({
                        "id": "chatcmpl-1", "object": "chat.completion.chunk",
                        "created": 1727784000, "model": model, "choices": [],
                        "usage": {"prompt_tokens": prompt_tokens,
                                  "completion_tokens": len(pieces),
                                  "total_tokens": prompt_tokens + len(pieces)}}) + "\n\n")
                self.send_line("data: [DONE]\n\n")
            else:
                self.send_line(json.dumps({
                    "model": model, "created_at": created,
                    "message": {"role": "assistant", "content": ""}, "done": True,
                    "done_reason": reason, "total_duration": 1, "load_duration": 0,
                    "prompt_eval_count": prompt_tokens, "prompt_eval_duration": 1,
                    "eval_count": len(pieces), "eval_duration": 1}) + "\n")
            self.send_chunk(b"")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading (abort and timeout tests)


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
