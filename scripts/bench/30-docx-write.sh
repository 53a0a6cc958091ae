# Markdown/CriticMarkup → DOCX (the DOCX writer, issue 4): redline on manuscript.critic.md against pandoc on
# the same manuscript in pandoc's Markdown. Target: at least 20x faster than pandoc, peak memory under 100 MB.
# Also: the output is byte-identical run to run, and --paragraph-style scrivener costs nothing extra.
in=$CORPUS/manuscript.critic.md
bench_run docx_write_redline "$REDLINE" convert "$in" -o "$BENCH_OUT/manuscript.redline.docx"
bench_run docx_write_scrivener "$REDLINE" convert "$in" -o "$BENCH_OUT/manuscript.scrivener.docx" --paragraph-style scrivener
if [ "$HAVE_PANDOC" = 1 ]; then
  bench_run docx_write_pandoc pandoc "$CORPUS/manuscript.pandoc.md" -o "$BENCH_OUT/manuscript.pandoc.docx"
fi
bench_ratio docx_write_redline docx_write_pandoc 20
bench_mem_target docx_write_redline 100
"$REDLINE" convert "$in" -o "$BENCH_OUT/manuscript.redline.again.docx" 2>/dev/null
if cmp -s "$BENCH_OUT/manuscript.redline.docx" "$BENCH_OUT/manuscript.redline.again.docx"; then
  echo "  deterministic: two runs gave identical bytes"
else
  echo "  deterministic: NOT met (two runs differ)"
fi
