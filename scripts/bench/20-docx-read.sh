# DOCX → CriticMarkup (the DOCX reader, issue 3): redline against `pandoc --track-changes=all -t markdown`
# on manuscript.docx (600,000 words, Word-style XML) and lo/manuscript.docx (100,000 words as LibreOffice
# writes them). Targets: at least 40x faster than pandoc, peak memory under 100 MB, and peak memory nearly
# flat when the document doubles (the body is streamed). Also one small document, process start to output.
# The floor (scripts/bench/floor.c: libzip inflates word/document.xml into libxml2's SAX2 parser, empty callbacks)
# reads the same files; Redline's times are printed as multiples of it.
double_docx() {  # double_docx IN OUT: the same DOCX with the body's content written twice
  python3 - "$1" "$2" <<'PY'
import sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED) as zout:
    for info in zin.infolist():
        data = zin.read(info.filename)
        if info.filename == 'word/document.xml':
            xml = data.decode('utf-8')
            start = xml.index('>', xml.index('<w:body')) + 1
            end = xml.rindex('<w:sectPr')
            xml = xml[:start] + xml[start:end] * 2 + xml[end:]
            data = xml.encode('utf-8')
        zout.writestr(info, data)
PY
}

big=$CORPUS/manuscript.docx
lo=$CORPUS/lo/manuscript.docx
doubled=$BENCH_OUT/manuscript-doubled.docx
[ -f "$doubled" ] && [ "$doubled" -nt "$big" ] || double_docx "$big" "$doubled"
echo "  sizes: manuscript.docx $(du -k "$big" | cut -f1) KB, doubled $(du -k "$doubled" | cut -f1) KB" \
     "(document.xml $(unzip -l "$big" word/document.xml | awk 'NR==4{print int($1/1048576)}') MB," \
     "doubled $(unzip -l "$doubled" word/document.xml | awk 'NR==4{print int($1/1048576)}') MB)"

bench_run docx_read_redline "$REDLINE" convert "$big" --to md -o "$BENCH_OUT/manuscript.from-docx.md" -q
bench_run docx_read_redline_doubled "$REDLINE" convert "$doubled" --to md -o "$BENCH_OUT/manuscript-doubled.from-docx.md" -q
bench_run docx_read_redline_lo "$REDLINE" convert "$lo" --to md -o "$BENCH_OUT/lo-manuscript.from-docx.md" -q
small=$(ls "$CORPUS"/small/*.docx 2>/dev/null | head -1)
[ -n "$small" ] && bench_run docx_read_redline_small "$REDLINE" convert "$small" --to md -o "$BENCH_OUT/small.from-docx.md" -q
bench_floor
if [ -n "$FLOOR" ]; then
  bench_run docx_read_floor "$FLOOR" "$big"
  bench_run docx_read_floor_lo "$FLOOR" "$lo"
  [ -n "$small" ] && bench_run docx_read_floor_small "$FLOOR" "$small"
  bench_floor_ratio docx_read_redline docx_read_floor
  bench_floor_ratio docx_read_redline_lo docx_read_floor_lo
  bench_floor_ratio docx_read_redline_small docx_read_floor_small
fi
if [ "$HAVE_PANDOC" = 1 ]; then
  bench_run docx_read_pandoc pandoc "$big" --track-changes=all -t markdown -o "$BENCH_OUT/manuscript.pandoc-from-docx.md"
  bench_run docx_read_pandoc_lo pandoc "$lo" --track-changes=all -t markdown -o "$BENCH_OUT/lo-manuscript.pandoc-from-docx.md"
  [ -n "$small" ] && bench_run docx_read_pandoc_small pandoc "$small" --track-changes=all -t markdown -o "$BENCH_OUT/small.pandoc-from-docx.md"
fi
if [ -n "$PANDOC_NEW" ]; then
  echo "  newest pandoc: $("$PANDOC_NEW" --version | head -1)"
  bench_run docx_read_pandoc_new "$PANDOC_NEW" "$big" --track-changes=all -t markdown -o "$BENCH_OUT/manuscript.pandoc-new-from-docx.md"
  [ -n "$small" ] && bench_run docx_read_pandoc_new_small "$PANDOC_NEW" "$small" --track-changes=all -t markdown -o "$BENCH_OUT/small.pandoc-new-from-docx.md"
  bench_ratio docx_read_redline docx_read_pandoc_new 100
  bench_ratio docx_read_redline_small docx_read_pandoc_new_small
fi
bench_ratio docx_read_redline docx_read_pandoc 40
bench_ratio docx_read_redline_lo docx_read_pandoc_lo 40
bench_ratio docx_read_redline_small docx_read_pandoc_small
bench_mem_target docx_read_redline 100
bench_mem_target docx_read_redline_doubled 100
awk -v a="${MB_docx_read_redline:-0}" -v b="${MB_docx_read_redline_doubled:-0}" 'BEGIN{ if (a > 0 && b > 0)
  printf "  memory when the document doubles: %.1f MB -> %.1f MB (x%.2f; nearly flat: %s)\n", a, b, b / a, (b / a < 1.3 ? "met" : "NOT met") }'
