# Helpers for scripts/bench/NN-*.sh (sourced). Each benchmark file runs a few `bench_run`s and
# `bench_ratio`s; results also go to bench-out/results.tsv (label, wall seconds, peak MB, CPU seconds).
HAVE_PANDOC=0; command -v pandoc >/dev/null 2>&1 && HAVE_PANDOC=1
# The newest pandoc, from PyPI's pypandoc_binary (scripts/setup.sh bench installs it), as a second peer:
# PANDOC_NEW is its path, or empty.
PANDOC_NEW=$(python3 -c 'import pypandoc; print(pypandoc.get_pandoc_path())' 2>/dev/null || true)
[ -n "$PANDOC_NEW" ] && [ -x "$PANDOC_NEW" ] || PANDOC_NEW=""

# bench_run LABEL CMD...: runs CMD (stdout to /dev/null) several times (5 when a run takes under a second,
# 3 under ten seconds, else once) and prints the median wall time, the CPU time (user + system, all
# threads: Redline reads and writes on two threads, so CPU can exceed wall) and the peak memory; remembers
# them as SECS_<LABEL> and MB_<LABEL>. With hyperfine installed, the wall time of repeated runs is its
# median over twice as many runs; else the median of these runs, timed here in nanoseconds.
bench_run() {
  local label=$1; shift
  local tf; tf=$(mktemp)
  local walls=() cpus=() kb=0 runs=1 i=0
  while [ "$i" -lt "$runs" ]; do
    local t0 t1 u s m
    t0=$(date +%s%N)
    if ! /usr/bin/time -f "%U %S %M" -o "$tf" "$@" >/dev/null 2>"$BENCH_OUT/$label.stderr"; then
      echo "  $label: FAILED ($(tail -1 "$BENCH_OUT/$label.stderr"))"; rm -f "$tf"; return 0
    fi
    t1=$(date +%s%N)
    read -r u s m < <(tail -1 "$tf")
    walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", (b - a) / 1e9}')")
    cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u + s}')")
    [ "$m" -gt "$kb" ] && kb=$m
    if [ "$i" -eq 0 ]; then
      runs=$(awk -v w="${walls[0]}" 'BEGIN{print (w < 1 ? 5 : (w < 10 ? 3 : 1))}')
    fi
    i=$((i + 1))
  done
  rm -f "$tf"
  local secs cpu mb
  secs=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR + 1) / 2)]}')
  if [ "$runs" -gt 1 ] && command -v hyperfine >/dev/null 2>&1; then
    # hyperfine times the process alone (no GNU time or date around it): exact for short runs.
    local json; json=$(mktemp)
    if hyperfine -N -w 1 -r "$((runs * 2))" --export-json "$json" --output=null -- "$(printf '%q ' "$@")" >/dev/null 2>&1; then
      secs=$(python3 -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$json")
    fi
    rm -f "$json"
  fi
  cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR + 1) / 2)]}')
  mb=$(awk "BEGIN{printf \"%.1f\", $kb/1024}")
  printf -v "SECS_$label" '%s' "$secs"; printf -v "MB_$label" '%s' "$mb"
  printf "  %-28s %8.3f s wall %7.2f s cpu %9.1f MB  (median of %d)\n" "$label" "$secs" "$cpu" "$mb" "$runs"
  printf "%s\t%s\t%s\t%s\n" "$label" "$secs" "$mb" "$cpu" >> "$BENCH_OUT/results.tsv"
}

# bench_ratio OURS THEIRS [TARGET]: prints how many times faster OURS ran than THEIRS, and the target.
bench_ratio() {
  local a="SECS_$1" b="SECS_$2"
  [ -n "${!a:-}" ] && [ -n "${!b:-}" ] || { echo "  ratio $1 vs $2: n/a"; return 0; }
  awk -v a="${!a}" -v b="${!b}" -v t="${3:-}" -v l="$1 vs $2" 'BEGIN{ if (a < 0.0005) a = 0.0005;
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

# bench_floor: builds scripts/bench/floor.c (libzip + libxml2 SAX2 with empty callbacks: the least any DOCX reader
# does) into $BENCH_OUT/floor once per source change; sets FLOOR to its path, or leaves it empty when no C
# compiler or pkg-config is there.
bench_floor() {
  FLOOR=""
  local src=scripts/bench/floor.c out=$BENCH_OUT/floor
  if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
    command -v cc >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1 || { echo "  floor: no cc or pkg-config"; return 0; }
    # shellcheck disable=SC2046
    cc -O2 "$src" $(pkg-config --cflags --libs libzip libxml-2.0) -o "$out" 2>"$BENCH_OUT/floor.build.log" \
      || { echo "  floor: build failed ($(tail -1 "$BENCH_OUT/floor.build.log"))"; return 0; }
  fi
  FLOOR=$out
}

# bench_floor_ratio OURS FLOOR_LABEL: prints OURS' time as a multiple of the floor program's (lower is better;
# 1.0x would be a reader that does nothing but inflate and parse).
bench_floor_ratio() {
  local a="SECS_$1" b="SECS_$2"
  [ -n "${!a:-}" ] && [ -n "${!b:-}" ] || { echo "  floor ratio $1: n/a"; return 0; }
  awk -v a="${!a}" -v b="${!b}" -v l="$1" 'BEGIN{ if (b < 0.0005) b = 0.0005;
    printf "  floor %-34s %7.2fx the floor (%s s against %s s)\n", l, a / b, a, b }'
}

# bench_edits IN OUT N SEED: a copy of the Markdown IN with N seeded word edits in its prose lines (headings left
# alone): of every five, three words replaced, one inserted, one deleted (the apply and combine rows' EDITED).
bench_edits() {
python3 - "$1" "$2" "$3" "$4" <<'PY'
import random, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
n = int(sys.argv[3])
lines = text.split("\n")
rng = random.Random(int(sys.argv[4]))
words = ["revised", "clearly", "amended", "notably", "instead", "further"]
prose = [i for i, l in enumerate(lines) if l and not l.startswith("#")]
for k, i in enumerate(sorted(rng.sample(prose, min(n, len(prose))))):
    ws = lines[i].split(" ")
    j = rng.randrange(len(ws))
    if not re.fullmatch(r"[A-Za-z'-]+", ws[j]): continue
    r = k % 5
    if r < 3: ws[j] = rng.choice(words)
    elif r == 3: ws.insert(j, rng.choice(words))
    else: del ws[j]
    lines[i] = " ".join(ws)
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(lines))
PY
}
