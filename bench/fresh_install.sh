#!/usr/bin/env bash
# Fresh-clone install time: `git clone` of this repository's HEAD, then `make install-dev`
# (what `make test` installs), RUNS times with a cold cache (empty uv and pip caches)
# and RUNS times with a warm one (the caches of a previous install). Prints seconds.
#
#   bash bench/fresh_install.sh [RUNS]
set -euo pipefail
runs=${1:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

one() {  # one() LABEL UV_CACHE_DIR PIP_CACHE_DIR
    rm -rf "$work/clone"
    git clone --quiet "$repo" "$work/clone"
    local start end
    start=$(date +%s.%N)
    UV_CACHE_DIR=$2 PIP_CACHE_DIR=$3 make -C "$work/clone" --quiet install-dev >/dev/null
    end=$(date +%s.%N)
    printf '%s %.1f s\n' "$1" "$(echo "$end - $start" | bc)"
}

for i in $(seq "$runs"); do
    rm -rf "$work/cold"
    one "cold $i" "$work/cold/uv" "$work/cold/pip"
done
for i in $(seq "$runs"); do
    one "warm $i" "$work/cold/uv" "$work/cold/pip"
done
