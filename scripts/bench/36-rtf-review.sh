# RTF reviewed in place (issue 14): `redline convert lo/manuscript.rtf -o clean.rtf --changes accept` rewrites
# the token stream (RTFReviewRewriter: revision words and decided content left out, every other byte copied)
# instead of converting through the model. Inputs: lo/manuscript.rtf (100,000 words, 7,700 revisions and 492
# annotations, written by LibreOffice), the same body twice (memory flat as it doubles), and the 600,000-word
# manuscript.rtf (written by pandoc, no revisions: the rewriter's copying speed).
lo=$CORPUS/lo/manuscript.rtf
if [ -f "$lo" ]; then
  doubled=$BENCH_OUT/lo-manuscript.doubled.rtf
  python3 - "$lo" "$doubled" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
start = data.index(b'\\pard')              # the body starts at the first paragraph
end = data.rstrip().rindex(b'}')           # the document group closes at the last brace
open(sys.argv[2], 'wb').write(data[:end] + data[start:end] + b'}\n')
PY
  bench_run rtf_review_accept "$REDLINE" convert "$lo" -o "$BENCH_OUT/lo-manuscript.accepted.rtf" --changes accept -q
  bench_run rtf_review_reject "$REDLINE" convert "$lo" -o "$BENCH_OUT/lo-manuscript.rejected.rtf" --changes reject -q
  bench_run rtf_review_accept_doubled "$REDLINE" convert "$doubled" -o "$BENCH_OUT/lo-manuscript.doubled.accepted.rtf" --changes accept -q
  bench_mem_target rtf_review_accept 100
  bench_mem_target rtf_review_accept_doubled 100
else
  echo "  $lo: missing"
fi
big=$CORPUS/manuscript.rtf
[ -f "$big" ] && bench_run rtf_review_accept_600k "$REDLINE" convert "$big" -o "$BENCH_OUT/manuscript.accepted.rtf" --changes accept -q
true
