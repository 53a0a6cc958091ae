# Scrivener migration: a generated project of 2,000 documents (scripts/make-scrivener-project.py) migrated
# to one manuscript and to a tree of files (Markdown; DOCX while no Markdown writer is registered).
# No peer reads .scriv, so the figure is documents per second, with peak memory (bounded: the single
# layout holds one document at a time).
SCRIV_DOCS=${SCRIV_DOCS:-2000}
dir=$BENCH_OUT/scrivener
proj=$dir/Bench.scriv
if [ ! -f "$proj/Bench.scrivx" ] || ! grep -q "Scene $SCRIV_DOCS<" "$proj/Bench.scrivx"; then
  rm -rf "$dir"
  python3 scripts/make-scrivener-project.py "$proj" --docs "$SCRIV_DOCS" >/dev/null
fi
fmt=md
"$REDLINE" formats | grep -q '^md ' || fmt=docx
rm -rf "$dir/out-tree" "$dir/out-single.$fmt"
bench_run scrivener_single "$REDLINE" scrivener "$proj" -o "$dir/out-single.$fmt" --quiet
bench_run scrivener_tree "$REDLINE" scrivener "$proj" -o "$dir/out-tree" --layout tree --to "$fmt" --quiet
for l in scrivener_single scrivener_tree; do
  s="SECS_$l"
  [ -n "${!s:-}" ] && awk -v s="${!s}" -v n="$SCRIV_DOCS" -v l="$l ($fmt)" \
    'BEGIN{ if (s < 0.005) s = 0.005; printf "  %-36s %7.0f documents/s\n", l, n / s }'
done
bench_mem_target scrivener_single 200
bench_mem_target scrivener_tree 200
