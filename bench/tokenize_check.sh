#!/usr/bin/env bash
# Checks that two builds of llama.cpp tokenize byte for byte alike: builds
# bench/llama_tokenize_dump.cc against each install prefix, runs both on every model, and compares
# the outputs (token ids of ~40 varied inputs in all four add_special/parse_special modes, plus
# every token's piece, attributes and score, the special ids and the EOG set). Also prints each
# build's model load time. Exit status 1 when any output differs.
#
# Usage: bench/tokenize_check.sh BASE_PREFIX NEW_PREFIX [MODEL.gguf]...
#   BASE_PREFIX  e.g. the unpatched build: KEBAB_LLAMA_NO_PATCHES=1 scripts/build-llama.sh
#   NEW_PREFIX   e.g. the patched one:     scripts/build-llama.sh
#   MODEL        default: build/tests/models/*.gguf, and every NEW_PREFIX/models/ggml-vocab-*.gguf
#                (vocabulary only)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 2 ]] || { sed -n '2,12p' "$0" >&2; exit 2; }
base=$1 new=$2
shift 2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in base new; do
  prefix=${!side}
  g++ -O2 -std=c++17 -w bench/llama_tokenize_dump.cc -I"$prefix/include" \
    "$prefix/lib/libllama.a" "$prefix/lib/libggml.a" "$prefix/lib/libggml-cpu.a" \
    "$prefix/lib/libggml-base.a" -lpthread -ldl -lm -o "$work/dump-$side"
done

models=("$@")
if [[ ${#models[@]} -eq 0 ]]; then
  models=(build/tests/models/*.gguf "$new"/models/ggml-vocab-*.gguf)
fi

status=0
printf '%-34s %-6s %12s %12s\n' model tokens "base load" "new load"
for model in "${models[@]}"; do
  [[ -f "$model" ]] || continue
  flags=()
  [[ $(basename "$model") == ggml-vocab-* ]] && flags=(--vocab-only)
  name=$(basename "$model" .gguf)
  for side in base new; do
    "$work/dump-$side" "${flags[@]}" "$model" >"$work/$name.$side.out" 2>"$work/$name.$side.err" ||
      { cat "$work/$name.$side.err" >&2; status=1; }
  done
  result=same
  cmp -s "$work/$name.base.out" "$work/$name.new.out" || { result=DIFFER; status=1; }
  load() { sed -n 's/^load_ms //p' "$work/$name.$1.err"; }
  printf '%-34s %-6s %9s ms %9s ms\n' "$name" "$result" "$(load base)" "$(load new)"
  if [[ $result != same ]]; then
    diff "$work/$name.base.out" "$work/$name.new.out" | head -20 >&2 || true
  fi
done
exit $status
