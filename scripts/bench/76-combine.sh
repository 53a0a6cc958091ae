# Combine: five reviewers' copies of the 600,000-word manuscript, each with 2,000 scattered word edits made by a
# seeded script (copies edit different lines, some the same ones), combined onto the manuscript (target < 3 s,
# < 500 MB); then 1 and 3 copies: the ratios of the times say whether it is linear in the number of copies.
out=$BENCH_OUT/combine
rm -rf "$out"; mkdir -p "$out"
src=$CORPUS/manuscript.critic.md
[ -f "$src" ] || { echo "  no $src"; return 0; }
"$REDLINE" convert "$src" --changes reject -o "$out/original.md" -q
for k in 1 2 3 4 5; do bench_edits "$out/original.md" "$out/reviewer$k.md" 2000 $((100 + k)); done
echo "  manuscript: $(wc -w < "$out/original.md") words; five copies of 2,000 edited lines each"
copies() { local n=$1 k=1 s=""; while [ "$k" -le "$n" ]; do s="$s $out/reviewer$k.md"; k=$((k + 1)); done; echo "$s"; }
for n in 1 3 5; do
  # shellcheck disable=SC2046
  bench_run combine_manuscript_$n "$REDLINE" combine "$out/original.md" $(copies $n) -o "$out/combined-$n.md" -q --date 2024-01-01T00:00:00Z
done
bench_mem_target combine_manuscript_5 500
awk -F'\t' '$1 ~ /^combine_manuscript_[135]$/ { w[$1] = $2; c[$1] = $4 } END {
  a = "combine_manuscript_1"; b = "combine_manuscript_3"; f = "combine_manuscript_5"
  if (w[f] > 0) printf "  combine five copies: %.3f s wall, %.2f s cpu (target < 3 s: %s)\n", w[f], c[f], (w[f] < 3 ? "met" : "NOT met")
  if (c[a] > 0 && c[b] > 0)
    printf "  combine scaling: 1 copy %.2f s cpu, 3 copies %.2f s (%.2fx), 5 copies %.2f s (%.2fx) (linear: about 3 and 5)\n",
      c[a], c[b], c[b] / c[a], c[f], c[f] / c[a] }' "$BENCH_OUT/results.tsv"
