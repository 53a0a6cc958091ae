# Scrivener migration: a generated project of 2,000 documents (scripts/make-scrivener-project.py) migrated
# to one Markdown manuscript and to a tree of Markdown files. No peer reads .scriv, so the figure is
# documents per second, with peak memory (bounded: one document at a time).
SCRIV_DOCS=${SCRIV_DOCS:-2000}
proj=$BENCH_OUT/scrivener/Bench.scriv
if [ ! -f "$proj/Bench.scrivx" ] || ! grep -q "Scene $SCRIV_DOCS<" "$proj/Bench.scrivx"; then
  rm -rf "$BENCH_OUT/scrivener"
  python3 scripts/make-scrivener-project.py "$proj" --docs "$SCRIV_DOCS" >/dev/null
fi
rm -rf "$BENCH_OUT/scrivener/out-tree" "$BENCH_OUT/scrivener/out-single.md"
bench_run scrivener_single_md "$REDLINE" scrivener "$proj" -o "$BENCH_OUT/scrivener/out-single.md" --quiet
bench_run scrivener_tree_md "$REDLINE" scrivener "$proj" -o "$BENCH_OUT/scrivener/out-tree" --layout tree --quiet
for l in scrivener_single_md scrivener_tree_md; do
  s="SECS_$l"
  [ -n "${!s:-}" ] && awk -v s="${!s}" -v n="$SCRIV_DOCS" -v l="$l" \
    'BEGIN{ if (s < 0.005) s = 0.005; printf "  %-36s %7.0f documents/s\n", l, n / s }'
done
bench_mem_target scrivener_single_md 200
bench_mem_target scrivener_tree_md 200
