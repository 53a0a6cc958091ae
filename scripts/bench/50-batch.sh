# Batch: 1,000 small DOCX to CriticMarkup with all cores, against pandoc run once per file with the same
# parallelism (xargs -P). Target: at least 25x pandoc's throughput. Also: files per second, peak memory,
# a rerun with --skip-existing over an up-to-date tree, and the same batch on threads (--isolation threads)
# against the default worker processes: the price of crash isolation.
small=$CORPUS/small
n=$(find "$small" -maxdepth 1 -name '*.docx' | wc -l)
if [ "$n" -eq 0 ]; then echo "  no DOCX in $small"; return 0; fi
cores=$(nproc)
out=$BENCH_OUT/batch
rm -rf "$out"; mkdir -p "$out/pandoc"
echo "  $n DOCX from $small, $cores cores"

# The timed batch runs several times, each into a fresh directory (a script makes it: the shell and mktemp
# are in the time, about 2 ms).
runner=$out/run-batch.sh
cat > "$runner" <<RUNNER
#!/bin/sh
exec "$REDLINE" convert "$small" -o "\$(mktemp -d "$out/redline.XXXXXX")" --to md --include '*.docx' -q --report "$out/report.jsonl"
RUNNER
chmod +x "$runner"
bench_run batch_redline "$runner"
sed 's/ -q / -q --isolation threads /' "$runner" > "$out/run-batch-threads.sh"; chmod +x "$out/run-batch-threads.sh"
bench_run batch_redline_threads "$out/run-batch-threads.sh"
first=$(ls -d "$out"/redline.* | head -1)
bench_run batch_redline_uptodate "$REDLINE" convert "$small" -o "$first" --to md --include '*.docx' -q \
  --skip-existing
if [ "$HAVE_PANDOC" = 1 ]; then
  bench_run batch_pandoc sh -c "find '$small' -maxdepth 1 -name '*.docx' -print0 | xargs -0 -P $cores -I{} \
    sh -c 'pandoc --track-changes=all -t markdown \"\$1\" -o \"$out/pandoc/\$(basename \"\$1\" .docx).md\"' _ {}"
fi

for l in batch_redline batch_redline_threads batch_redline_uptodate batch_pandoc; do
  s="SECS_$l"; [ -n "${!s:-}" ] || continue
  awk -v n="$n" -v s="${!s}" -v l="$l" 'BEGIN{ if (s < 0.005) s = 0.005; printf "  %-28s %8.1f files/s\n", l, n / s }'
done
if [ -f "$out/report.jsonl" ]; then
  tail -1 "$out/report.jsonl" | sed 's/^/  summary: /'
fi
bench_ratio batch_redline batch_pandoc 25
