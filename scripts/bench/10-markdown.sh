# CriticMarkup → model → Markdown (issue 2): redline on manuscript.critic.md (about 4 MB) written back
# marked (CriticMarkup kept) and clean (--changes accept), against `pandoc -f markdown -t markdown` on
# manuscript.pandoc.md. Targets: at least 20x faster than pandoc, peak memory under 100 MB. The floors are
# cmark-gfm's own command on the same file (C, no review marks, no model): writing it back as CommonMark (the
# same job as the marked row) and as HTML (its cheapest output, nearly its parse alone); Redline's marked and
# HTML rows are printed as multiples of them. The doubled
# manuscript shows that memory does not grow with the document (chunks stream; only the source and the
# CriticMarkup side table are held).
critic=$CORPUS/manuscript.critic.md
doubled=$BENCH_OUT/manuscript-doubled.critic.md
[ -f "$doubled" ] && [ "$doubled" -nt "$critic" ] || bench_doubled "$critic" "$doubled"
echo "  sizes: manuscript.critic.md $(du -k "$critic" | cut -f1) KB, doubled $(du -k "$doubled" | cut -f1) KB"

bench_run md_marked "$REDLINE" convert "$critic" --to md -o "$BENCH_OUT/manuscript.marked.md" -q
bench_run md_clean "$REDLINE" convert "$critic" --to md --changes accept -o "$BENCH_OUT/manuscript.clean.md" -q
bench_run md_marked_doubled "$REDLINE" convert "$doubled" --to md -o "$BENCH_OUT/manuscript-doubled.marked.md" -q
bench_run md_html "$REDLINE" convert "$critic" --to html -o "$BENCH_OUT/manuscript.html" -q
if command -v cmark-gfm >/dev/null 2>&1; then
  bench_run md_cmark_gfm cmark-gfm -e table -e strikethrough -t commonmark "$critic"
  bench_run md_cmark_gfm_html cmark-gfm -e table -e strikethrough "$critic"
  bench_floor_ratio md_marked md_cmark_gfm
  bench_floor_ratio md_marked md_cmark_gfm_html
  bench_floor_ratio md_html md_cmark_gfm_html
fi
if [ "$HAVE_PANDOC" = 1 ]; then
  bench_run md_pandoc pandoc -f markdown -t markdown "$CORPUS/manuscript.pandoc.md" -o "$BENCH_OUT/manuscript.pandoc-out.md"
  bench_ratio md_marked md_pandoc 20
  bench_ratio md_clean md_pandoc 20
fi
if [ -n "$PANDOC_NEW" ]; then
  bench_run md_pandoc_new "$PANDOC_NEW" -f markdown -t markdown "$CORPUS/manuscript.pandoc.md" -o "$BENCH_OUT/manuscript.pandoc-new-out.md"
  bench_ratio md_marked md_pandoc_new
fi
bench_mem_target md_marked 100
bench_mem_target md_clean 100
bench_mem_target md_marked_doubled 100
