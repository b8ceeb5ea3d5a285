#!/usr/bin/env bash
# Indexes the bundled sample knowledge base (samples/kb, English and Korean notes) with an
# isolated config under build/demo/, then runs a few searches. Your own ~/.config and
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
k search "write-ahead log checkpoint"
k search 데이터베이스
k search --lang ko --explain 트랜잭션
doc=$("$KEBAB" --config "$DEMO/config.toml" --json search 데이터베이스 \
      | python3 -c 'import json,sys; h=json.load(sys.stdin)["hits"][0]; print(h["doc_id"], h["citation"]["start"], h["citation"]["end"])')
set -- $doc
k fetch span "$1" "$2" "$3"
k doctor
