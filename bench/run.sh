#!/usr/bin/env bash
# Runs every whole-program benchmark and prints the numbers (benchmarks are not tests).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/kebab ] || scripts/setup.sh
bench/lexical_bench.py "$@"
