#!/usr/bin/env bash
# Installs the Debian packages of a set that are missing, quietly (apt-get update runs only when
# something is missing), or with --dry-run prints them and installs nothing.
#   scripts/lib/packages.sh [--dry-run] build   what building and running kebab need
#                                               (scripts/setup.sh)
#   scripts/lib/packages.sh [--dry-run] test    that, and what only the tests, the benchmarks
#                                               and development use (scripts/setup.sh --tests,
#                                               which scripts/test.sh and bench/suite.py run)
set -euo pipefail

# Building kebab: the toolchain, the libraries (their -dev packages bring the shared libraries
# kebab and its workers load), git and npm, which fetch the sources scripts/build-*.sh and
# fetch-*.sh build from npm packages, and python3, which bundles the wire schemas.
BUILD=(
  build-essential cmake ninja-build pkg-config git python3
  libcmark-gfm-dev libcmark-gfm-extensions-dev
  libyaml-cpp-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev
  libutf8proc-dev libstemmer-dev libcld2-dev libmimalloc-dev
  librust-blake3-dev
  libcurl4-openssl-dev libfmt-dev
  libpoppler-cpp-dev libpoppler-private-dev
  libtesseract-dev libleptonica-dev libexif-dev
  libtree-sitter-dev
  libavformat-dev libavcodec-dev libswresample-dev libavutil-dev
  libpocketsphinx-dev
)
# Running kebab: the data those libraries read. Tesseract's English and Korean models (the
# default [ingest.ocr] languages), pocketsphinx's English model, poppler's CMaps for Chinese,
# Japanese and Korean text (libpoppler only recommends poppler-data, and recommendations are not
# installed), and the URW base 35 fonts poppler draws a PDF's standard 14 fonts with when the
# PDF does not embed them, as it renders a page for OCR. Tesseract's orientation and script
# detection data (osd), with which [ingest.ocr] page_segmentation_mode = "auto" tells a Korean
# page from others before reading it (without it, Korean pages are read twice).
RUNTIME=(
  tesseract-ocr-eng tesseract-ocr-kor tesseract-ocr-osd pocketsphinx-en-us poppler-data
  fonts-urw-base35
)
# Only the tests, the benchmarks and development: GoogleTest; jsonschema for the wire schema
# checks; espeak-ng and ffmpeg, which make the recordings the audio tests and benchmarks
# transcribe; the floors and peers the benchmarks measure kebab against (the sqlite3 CLI, Recoll,
# ripgrep, pdftotext, the tesseract CLI); clang-format for the code style.
TEST=(
  libgtest-dev libgmock-dev
  python3-jsonschema
  espeak-ng ffmpeg
  sqlite3 recollcmd ripgrep poppler-utils tesseract-ocr
  clang-format
)

DRY_RUN=0
if [ "${1:-}" = --dry-run ]; then
  DRY_RUN=1
  shift
fi
case "${1:-}" in
  build) PACKAGES=("${BUILD[@]}" "${RUNTIME[@]}") ;;
  test) PACKAGES=("${BUILD[@]}" "${RUNTIME[@]}" "${TEST[@]}") ;;
  *)
    echo "usage: scripts/lib/packages.sh [--dry-run] build|test" >&2
    exit 2
    ;;
esac

# One dpkg-query for all of them (it exits 1 when a name is no package it knows: || true).
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${PACKAGES[@]}" 2>/dev/null |
  awk '/ install ok installed$/ { print $1 }') || true
missing=()
for p in "${PACKAGES[@]}"; do
  [[ $'\n'$installed$'\n' == *$'\n'"$p"$'\n'* ]] || missing+=("$p")
done
# Any npm and node on PATH will do, Debian's or not.
command -v npm >/dev/null || missing+=(npm)
if [ "$1" = test ]; then
  command -v node >/dev/null || missing+=(nodejs) # the MCP SDK test client (tests/mcp)
fi

if [ "$DRY_RUN" = 1 ]; then
  [ ${#missing[@]} -eq 0 ] || printf '%s\n' "${missing[@]}"
  exit 0
fi
[ ${#missing[@]} -gt 0 ] || exit 0
echo "packages: installing ${missing[*]}" >&2
SUDO=()
[ "$(id -u)" -eq 0 ] || SUDO=(sudo)
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
