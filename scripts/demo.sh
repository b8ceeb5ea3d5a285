#!/usr/bin/env bash
# Indexes the bundled sample knowledge base (samples/kb: English and Korean notes, a PDF, a
# scanned page, a photo, a voice memo and a bit of code) with an isolated config under
# build/demo/, then runs searches that show every kind of citation: lines, a page, a region of
# a scan or a photo, a stretch of a recording, a symbol of code. Your own ~/.config and
# ~/.local/share are not touched.
set -euo pipefail
cd "$(dirname "$0")/.."
KEBAB=build/kebab
[ -x "$KEBAB" ] || { echo "demo: build/kebab is missing; run scripts/setup.sh" >&2; exit 2; }

DEMO="$(pwd)/build/demo"
mkdir -p "$DEMO"
cat > "$DEMO/config.toml" <<TOML
# Demo config written by scripts/demo.sh (see \`kebab init\` for the annotated full file).
[workspace]
root = "$(pwd)/samples/kb"

[storage]
data_dir = "$DEMO/data"
cache_dir = "$DEMO/cache"
state_dir = "$DEMO/state"
TOML
k() { echo; echo "\$ kebab $*"; "$KEBAB" --config "$DEMO/config.toml" "$@"; }

k init
k ingest
k ingest   # again: nothing changed, nothing is re-parsed
k search "write-ahead log checkpoint"               # lines of a note
k search 데이터베이스
k search --lang ko --explain 트랜잭션
k search "posting lists merging"                    # a page of a PDF
k search "nightly backups block readers"            # a region of a scanned page (OCR)
k search "sprint goals latency"                     # a region of a photo
k search --media audio "archive database server"    # a stretch of a recording
k search --media code "retry exponential backoff"   # a function, by its symbol
doc=$("$KEBAB" --config "$DEMO/config.toml" --json search 데이터베이스 \
      | python3 -c 'import json,sys; h=json.load(sys.stdin)["hits"][0]; print(h["doc_id"], h["citation"]["start"], h["citation"]["end"])')
set -- $doc
k fetch span "$1" "$2" "$3"
k doctor
