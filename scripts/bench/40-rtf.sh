# RTF → Markdown (the RTF reader, issue 5): redline against `pandoc -f rtf -t markdown` on manuscript.rtf
# (600,000 words written by pandoc) and lo/manuscript.rtf (100,000 words with 7,700 revisions, written by
# LibreOffice). Targets: at least 20x faster than pandoc, peak memory under 100 MB, and nearly flat as the
# document doubles (a doubled RTF is built from the same body written twice).
to=md
if ! "$REDLINE" formats 2>/dev/null | grep -q '^md '; then
  to=rtf
  echo "  (no Markdown writer in this build: measuring RTF → RTF instead)"
fi
for name in manuscript lo/manuscript; do
  in=$CORPUS/$name.rtf
  [ -f "$in" ] || { echo "  $in: missing"; continue; }
  label=rtf_$(echo "$name" | tr '/' '_')
  bench_run "${label}_redline" "$REDLINE" convert "$in" --to "$to" -o "$BENCH_OUT/$(echo "$name" | tr '/' '_').redline.$to"
  if [ "$HAVE_PANDOC" = 1 ]; then
    bench_run "${label}_pandoc" pandoc -f rtf -t markdown "$in" -o "$BENCH_OUT/$(echo "$name" | tr '/' '_').pandoc.md"
  fi
  bench_ratio "${label}_redline" "${label}_pandoc" 20
  bench_mem_target "${label}_redline" 100
done
# Memory as the document doubles: the body of manuscript.rtf twice in one document.
in=$CORPUS/manuscript.rtf
doubled=$BENCH_OUT/manuscript.doubled.rtf
python3 - "$in" "$doubled" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
start = data.index(b'\\pard')              # the body starts at the first paragraph
end = data.rstrip().rindex(b'}')           # the document group closes at the last brace
open(sys.argv[2], 'wb').write(data[:end] + data[start:end] + b'}\n')
PY
bench_run rtf_doubled_redline "$REDLINE" convert "$doubled" --to "$to" -o "$BENCH_OUT/manuscript.doubled.redline.$to"
awk -v a="$(stat -c %s "$in")" -v b="$(stat -c %s "$doubled")" -v m1="${MB_rtf_manuscript_redline:-0}" -v m2="${MB_rtf_doubled_redline:-0}" \
  'BEGIN{ printf "  doubling: %.1f MB → %.1f MB of RTF, peak memory %.1f MB → %.1f MB (%+.0f%%)\n", a/1048576, b/1048576, m1, m2, (m1 > 0 ? (m2 - m1) / m1 * 100 : 0) }'
