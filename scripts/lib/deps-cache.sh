# Sourced by the scripts that build or fetch a dependency once into a cache outside the
# repository (build-sqlite.sh, build-llama.sh, fetch-usearch.sh). Each keys its directory by
# version and options, prints it on stdout, and writes .complete last, so an interrupted run
# leaves nothing that looks finished.
#
# Env: KEBAB_DEPS_CACHE  cache root (default ${XDG_CACHE_HOME:-~/.cache}/kebab-deps)

DEPS_CACHE_ROOT=${KEBAB_DEPS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kebab-deps}

# Prints directory $1 and ends the script when an earlier run finished it.
deps_reuse() {
  if [[ -f "$1/.complete" ]]; then
    echo "$1"
    exit 0
  fi
}

# Ends the script with a hint unless every tool named after $1 (the script's name) is on PATH.
deps_require() {
  local script=$1 tool
  shift
  for tool in "$@"; do
    command -v "$tool" >/dev/null ||
      { echo "$script: needs $tool (scripts/setup.sh installs it)" >&2; exit 1; }
  done
}

# Sets WORK to a new scratch directory in the cache, removed when the script exits. (It sets a
# variable rather than printing: the trap must belong to the script, not to a subshell.)
deps_workdir() {
  mkdir -p "$DEPS_CACHE_ROOT"
  WORK=$(mktemp -d "$DEPS_CACHE_ROOT/.$1-XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
}

# Marks directory $1 finished, moves it to $2 (replacing what was there) and prints $2.
deps_install() {
  touch "$1/.complete"
  rm -rf "$2"
  mv "$1" "$2"
  echo "$2"
}
