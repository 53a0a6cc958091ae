#!/usr/bin/env bash
# make bench: runs every scripts/bench/NN-*.sh against the generated corpus, Redline and pandoc side by side.
# Usage: scripts/bench.sh PATH/TO/redline   (release build)
# The corpus comes from ../shared/bench/make-bench-docs.py into bench-out/corpus (kept between runs;
# BENCH_CORPUS=DIR uses another). Times are median wall seconds (CPU seconds beside them), memory is peak resident set (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
export REDLINE=$(realpath "${1:-.build/release/redline}")
export BENCH_OUT=$PWD/bench-out
export CORPUS=${BENCH_CORPUS:-$BENCH_OUT/corpus}
mkdir -p "$BENCH_OUT"
gen=../shared/bench/make-bench-docs.py
if [ ! -f "$CORPUS/manuscript.critic.md" ]; then
  [ -f "$gen" ] || { echo "bench: $gen not found (shared/ beside the repository)" >&2; exit 1; }
  echo "bench: generating the corpus in $CORPUS (pandoc and LibreOffice; a few minutes, once)"
  python3 "$gen" "$CORPUS" --small 1000 >"$BENCH_OUT/generate.log" 2>&1 || { tail "$BENCH_OUT/generate.log"; exit 1; }
fi
. scripts/bench/lib.sh
echo "Redline $("$REDLINE" --version) on $(nproc) cores; pandoc: $(command -v pandoc >/dev/null && pandoc --version | head -1 || echo 'not installed')"
for b in scripts/bench/[0-9]*.sh; do
  echo
  echo "== $(basename "$b" .sh)"
  ( . "$b" ) || echo "bench: $(basename "$b") failed"
done
