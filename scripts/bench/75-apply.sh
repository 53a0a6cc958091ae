# Apply: a few hundred scattered word edits (EDITED, made by a seeded script from the manuscript's original view)
# written into the 600,000-word manuscript (ORIGINAL) as CriticMarkup (target < 1 s, < 250 MB), and into the same
# manuscript as a Redline-written DOCX; beside them `git diff --no-index --word-diff` on the same pair (text only:
# a floor). Then apply at 1/4, 1/2 and the full manuscript: the ratios of the times say whether it stays linear.
out=$BENCH_OUT/apply
rm -rf "$out"; mkdir -p "$out"
src=$CORPUS/manuscript.critic.md
[ -f "$src" ] || { echo "  no $src"; return 0; }
"$REDLINE" convert "$src" --changes reject -o "$out/original.md" -q
# EDITED: 300 words replaced, 100 inserted, 100 deleted, at seeded places in the prose (headings left alone).
bench_edits "$out/original.md" "$out/edited.md" 500 11
echo "  manuscript: $(wc -w < "$out/original.md") words; EDITED: $(git diff --no-index --word-diff=porcelain "$out/original.md" "$out/edited.md" | grep -c '^[-+][^-+]') word-diff runs changed"
bench_run apply_manuscript "$REDLINE" apply "$out/edited.md" --onto "$out/original.md" -o "$out/result.md" -q --date 2024-01-01T00:00:00Z
bench_mem_target apply_manuscript 250
# DOCX ORIGINAL: the same manuscript written by Redline (the DOCX applier reads its result back before writing it).
"$REDLINE" convert "$out/original.md" -o "$out/original.docx" -q
bench_run apply_manuscript_docx "$REDLINE" apply "$out/edited.md" --onto "$out/original.docx" -o "$out/result.docx" -q --date 2024-01-01T00:00:00Z
bench_mem_target apply_manuscript_docx 250
bench_run apply_git_word_diff sh -c "git diff --no-index --word-diff '$out/original.md' '$out/edited.md' > '$out/git.diff'; test \$? -le 1"
bench_ratio apply_manuscript apply_git_word_diff
awk -v s="${SECS_apply_manuscript:-99}" -v d="${SECS_apply_manuscript_docx:-99}" 'BEGIN{
  printf "  apply onto the manuscript: Markdown %.3f s, DOCX %.3f s (target < 1 s: %s, %s)\n", s, d, (s < 1 ? "met" : "NOT met"), (d < 1 ? "met" : "NOT met") }'
# Linearity: the first quarter and half of the manuscript's lines (edits scattered as densely).
total=$(wc -l < "$out/original.md")
for part in 4 2; do
  head -n $((total / part)) "$out/original.md" > "$out/original-$part.md"
  bench_edits "$out/original-$part.md" "$out/edited-$part.md" $((500 / part)) 11
  bench_run apply_manuscript_1_$part "$REDLINE" apply "$out/edited-$part.md" --onto "$out/original-$part.md" -o "$out/result-$part.md" -q --date 2024-01-01T00:00:00Z
done
# Wall and CPU seconds (CPU means more on a loaded machine), from results.tsv.
awk -F'\t' '$1 ~ /^apply_manuscript(_1_4|_1_2)?$/ { w[$1] = $2; c[$1] = $4 } END {
  q = "apply_manuscript_1_4"; h = "apply_manuscript_1_2"; f = "apply_manuscript"
  if (w[q] > 0 && w[h] > 0 && c[q] > 0 && c[h] > 0)
    printf "  apply scaling: 1/4 %.3f s (%.2f cpu), 1/2 %.3f s (%.2f), full %.3f s (%.2f): half/quarter %.2fx (cpu %.2fx), full/half %.2fx (cpu %.2fx) (linear: about 2)\n",
      w[q], c[q], w[h], c[h], w[f], c[f], w[h] / w[q], c[h] / c[q], w[f] / w[h], c[f] / c[h] }' "$BENCH_OUT/results.tsv"
