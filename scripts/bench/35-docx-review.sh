# DOCX reviewed in place (issue 14): `redline convert manuscript.docx -o clean.docx --changes accept` rewrites
# the original package (story parts streamed through libxml2 and written back event by event, other parts
# copied raw) instead of converting through the model. Target: the 600,000-word manuscript accepted in under
# 0.5 s; peak memory flat when the document doubles. Uses the doubled DOCX of 20-docx-read.sh.
big=$CORPUS/manuscript.docx
doubled=$BENCH_OUT/manuscript-doubled.docx
bench_run docx_review_accept "$REDLINE" convert "$big" -o "$BENCH_OUT/manuscript.accepted.docx" --changes accept -q
bench_run docx_review_reject "$REDLINE" convert "$big" -o "$BENCH_OUT/manuscript.rejected.docx" --changes reject -q
[ -f "$doubled" ] && bench_run docx_review_accept_doubled "$REDLINE" convert "$doubled" -o "$BENCH_OUT/manuscript-doubled.accepted.docx" --changes accept -q
awk -v s="${SECS_docx_review_accept:-}" 'BEGIN{ if (s != "") printf "  time   %-33s %7.3f s (target < 0.5 s: %s)\n", "docx_review_accept", s, (s < 0.5 ? "met" : "NOT met") }'
bench_mem_target docx_review_accept 100
bench_mem_target docx_review_accept_doubled 100
