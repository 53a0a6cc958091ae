# Compare: the 600,000-word manuscript's original view against its revised view (target < 1 s, < 200 MB),
# two unrelated documents of the same size (target < 5 s), 1,000 small pairs as a directory batch (target
# >= 500 pairs/s); beside them `git diff --no-index --word-diff` (text only: a floor) and python `redlines`
# (when installed) on the same manuscript pair. Also the marks recovered against the generator's.
out=$BENCH_OUT/compare
rm -rf "$out"; mkdir -p "$out"
src=$CORPUS/manuscript.critic.md
[ -f "$src" ] || { echo "  no $src"; return 0; }
"$REDLINE" convert "$src" --changes reject -o "$out/original.md" -q
"$REDLINE" convert "$src" --changes accept -o "$out/revised.md" -q
# An unrelated document of the same shape: every word replaced by a seeded random word of the vocabulary.
python3 - "$out/original.md" "$out/unrelated.md" <<'PY'
import random, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
words = re.findall(r"[A-Za-z]+", text)
vocab = sorted(set(words))
rng = random.Random(7)
open(sys.argv[2], "w", encoding="utf-8").write(re.sub(r"[A-Za-z]+", lambda m: rng.choice(vocab), text))
PY
echo "  manuscript: $(wc -w < "$out/original.md") words original, $(wc -w < "$out/revised.md") revised"

bench_run compare_manuscript "$REDLINE" compare "$out/original.md" "$out/revised.md" -o "$out/result.md" -q --date 2024-01-01T00:00:00Z
bench_mem_target compare_manuscript 200
bench_run compare_manuscript_docx "$REDLINE" compare "$out/original.md" "$out/revised.md" -o "$out/result.docx" -q --date 2024-01-01T00:00:00Z
bench_run compare_unrelated "$REDLINE" compare "$out/original.md" "$out/unrelated.md" -o "$out/unrelated-result.md" -q --date 2024-01-01T00:00:00Z
bench_mem_target compare_unrelated 400
bench_run git_word_diff sh -c "git diff --no-index --word-diff '$out/original.md' '$out/revised.md' > '$out/git.diff'; test \$? -le 1"
bench_ratio compare_manuscript git_word_diff
if python3 -c 'import redlines' 2>/dev/null; then
  bench_run python_redlines python3 -c "import sys; from redlines import Redlines; a=open(sys.argv[1]).read(); b=open(sys.argv[2]).read(); open(sys.argv[3],'w').write(Redlines(a, b).output_markdown)" "$out/original.md" "$out/revised.md" "$out/redlines.md"
  bench_ratio compare_manuscript python_redlines
else
  echo "  python redlines: not installed (pip install redlines)"
fi
# Targets.
awk -v s="${SECS_compare_manuscript:-99}" 'BEGIN{ printf "  manuscript vs revised: %.3f s (target < 1 s: %s)\n", s, (s < 1 ? "met" : "NOT met") }'
awk -v s="${SECS_compare_unrelated:-99}" 'BEGIN{ printf "  unrelated documents:   %.3f s (target < 5 s: %s)\n", s, (s < 5 ? "met" : "NOT met") }'
# What the comparison recovered against what the generator marked.
"$REDLINE" compare "$out/original.md" "$out/revised.md" -o /dev/null -q --stats > "$out/stats.txt" 2>&1 || true
python3 - "$src" "$out/stats.txt" <<'PY'
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
ins, dele, sub = s.count("{++"), s.count("{--"), s.count("{~~")
st = dict(re.findall(r"^([a-z ]+): (\d+)$", open(sys.argv[2]).read(), re.M))
print(f"  generator marks: {ins} insertions, {dele} deletions, {sub} substitutions ({ins + dele + sub} in all)")
# --stats counts a substitution under insertions and deletions too: the pure ones are the difference.
i, d, u = (int(st.get(k, 0)) for k in ("insertions", "deletions", "substitutions"))
print(f"  compare found:   {i - u} insertions, {d - u} deletions, {u} substitutions ({i + d - u} in all), "
      f"{st.get('moves')} moves, {st.get('words changed')} words changed")
PY

# Batch: the small DOCX corpus as original/revised views, five copies each: 1,000 pairs (or as many as there are).
small=$CORPUS/small
n=$(find "$small" -maxdepth 1 -name '*.docx' | wc -l)
if [ "$n" -gt 0 ]; then
  "$REDLINE" convert "$small" -o "$out/views-old" --to md --changes reject -q --include '*.docx' || true
  "$REDLINE" convert "$small" -o "$out/views-new" --to md --changes accept -q --include '*.docx' || true
  copies=$(( (1000 + n - 1) / n ))
  for side in old new; do
    mkdir -p "$out/pairs-$side"
    for c in $(seq 1 "$copies"); do cp -r "$out/views-$side" "$out/pairs-$side/c$c"; done
  done
  pairs=$(find "$out/pairs-old" -name '*.md' | wc -l)
  runner=$out/run-compare-batch.sh
  cat > "$runner" <<RUNNER
#!/bin/sh
exec "$REDLINE" compare "$out/pairs-old" "$out/pairs-new" -o "\$(mktemp -d "$out/batch.XXXXXX")" -q --date 2024-01-01T00:00:00Z
RUNNER
  chmod +x "$runner"
  bench_run compare_batch "$runner"
  awk -v n="$pairs" -v s="${SECS_compare_batch:-99}" 'BEGIN{ r = n / s; printf "  batch: %d pairs, %.0f pairs/s (target >= 500: %s)\n", n, r, (r >= 500 ? "met" : "NOT met") }'
  rm -rf "$out"/batch.*
fi
