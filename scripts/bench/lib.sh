# Helpers for scripts/bench/NN-*.sh (sourced). Each benchmark file runs a few `bench_run`s and
# `bench_ratio`s; results also go to bench-out/results.tsv (label, seconds, peak MB).
HAVE_PANDOC=0; command -v pandoc >/dev/null 2>&1 && HAVE_PANDOC=1

# bench_run LABEL CMD...: runs CMD once (stdout to /dev/null), prints wall time and peak memory,
# and remembers them as SECS_<LABEL> and MB_<LABEL>.
bench_run() {
  local label=$1; shift
  local tf; tf=$(mktemp)
  if ! /usr/bin/time -f "%e %M" -o "$tf" "$@" >/dev/null 2>"$BENCH_OUT/$label.stderr"; then
    echo "  $label: FAILED ($(tail -1 "$BENCH_OUT/$label.stderr"))"; rm -f "$tf"; return 0
  fi
  local secs kb; read -r secs kb < <(tail -1 "$tf"); rm -f "$tf"
  local mb; mb=$(awk "BEGIN{printf \"%.1f\", $kb/1024}")
  printf -v "SECS_$label" '%s' "$secs"; printf -v "MB_$label" '%s' "$mb"
  printf "  %-28s %8.2f s %9.1f MB\n" "$label" "$secs" "$mb"
  printf "%s\t%s\t%s\n" "$label" "$secs" "$mb" >> "$BENCH_OUT/results.tsv"
}

# bench_ratio OURS THEIRS [TARGET]: prints how many times faster OURS ran than THEIRS, and the target.
bench_ratio() {
  local a="SECS_$1" b="SECS_$2"
  [ -n "${!a:-}" ] && [ -n "${!b:-}" ] || { echo "  ratio $1 vs $2: n/a"; return 0; }
  awk -v a="${!a}" -v b="${!b}" -v t="${3:-}" -v l="$1 vs $2" 'BEGIN{ if (a < 0.005) a = 0.005;
    r = b / a; printf "  ratio %-34s %7.1fx faster", l, r; if (t != "") printf " (target %sx: %s)", t, (r >= t ? "met" : "NOT met"); printf "\n" }'
}

# bench_mem_target LABEL MB: says whether the peak memory of LABEL stayed under MB.
bench_mem_target() {
  local m="MB_$1"
  [ -n "${!m:-}" ] || return 0
  awk -v m="${!m}" -v t="$2" -v l="$1" 'BEGIN{ printf "  memory %-33s %7.1f MB (target < %s MB: %s)\n", l, m, t, (m < t ? "met" : "NOT met") }'
}

# bench_doubled FILE OUT: writes FILE's content twice into OUT (for Markdown/CriticMarkup inputs).
bench_doubled() { cat "$1" "$1" > "$2"; }
