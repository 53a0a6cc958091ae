# Compare: the 600,000-word manuscript's original view against its revised view (target < 1 s, < 200 MB),
# two unrelated documents of the same size (target < 5 s), 1,000 small pairs as a directory batch (target
# >= 500 pairs/s); beside them `git diff --no-index --word-diff` (text only: a floor) and python `redlines`
# (when installed) on the same manuscript pair. Also the marks recovered against the generator's.
out=$BENCH_OUT/compare
rm -rf "$out"; mkdir -p "$out"
src=$CORPUS/manuscript.critic.md
[ -f "$src" ] || { echo "  no $src"; return 0; }
"$REDLINE" convert "$src" --changes reject -o "$out/original.md" -q
"$REDLINE" convert "$src" --changes accept -o "$out/revised.md" -q
# An unrelated document of the same shape: every word replaced by a seeded random word of the vocabulary.
python3 - "$out/original.md" "$out/unrelated.md" <<'PY'
import random, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
words = re.findall(r"[A-Za-z]+", text)
vocab = sorted(set(words))
rng = random.Random(7)
open(sys.argv[2], "w", encoding="utf-8").write(re.sub(r"[A-Za-z]+", lambda m: rng.choice(vocab), text))
PY
echo "  manuscript: $(wc -w < "$out/original.md") words original, $(wc -w < "$out/revised.md") revised"

bench_run compare_manuscript "$REDLINE" compare "$out/original.md" "$out/revised.md" -o "$out/result.md" -q --date 2024-01-01T00:00:00Z
bench_mem_target compare_manuscript 200
bench_run compare_manuscript_docx "$REDLINE" compare "$out/original.md" "$out/revised.md" -o "$out/result.docx" -q --date 2024-01-01T00:00:00Z
bench_run compare_unrelated "$REDLINE" compare "$out/original.md" "$out/unrelated.md" -o "$out/unrelated-result.md" -q --date 2024-01-01T00:00:00Z
bench_mem_target compare_unrelated 400
bench_run git_word_diff sh -c "git diff --no-index --word-diff '$out/original.md' '$out/revised.md' > '$out/git.diff'; test \$? -le 1"
bench_ratio compare_manuscript git_word_diff
if python3 -c 'import redlines' 2>/dev/null; then
  bench_run python_redlines python3 -c "import sys; from redlines import Redlines; a=open(sys.argv[1]).read(); b=open(sys.argv[2]).read(); open(sys.argv[3],'w').write(Redlines(a, b).output_markdown)" "$out/original.md" "$out/revised.md" "$out/redlines.md"
  bench_ratio compare_manuscript python_redlines
else
  echo "  python redlines: not installed (pip install redlines)"
fi
# Targets.
awk -v s="${SECS_compare_manuscript:-99}" 'BEGIN{ printf "  manuscript vs revised: %.3f s (target < 1 s: %s)\n", s, (s < 1 ? "met" : "NOT met") }'
awk -v s="${SECS_compare_unrelated:-99}" 'BEGIN{ printf "  unrelated documents:   %.3f s (target < 5 s: %s)\n", s, (s < 5 ? "met" : "NOT met") }'
# What the comparison recovered against what the generator marked.
"$REDLINE" compare "$out/original.md" "$out/revised.md" -o /dev/null -q --stats > "$out/stats.txt" 2>&1 || true
python3 - "$src" "$out/stats.txt" <<'PY'
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
ins, dele, sub = s.count("{++"), s.count("{--"), s.count("{~~")
st = dict(re.findall(r"^([a-z ]+): (\d+)$", open(sys.argv[2]).read(), re.M))
print(f"  generator marks: {ins} insertions, {dele} deletions, {sub} substitutions ({ins + dele + sub} in all)")
# --stats counts a substitution under insertions and deletions too: the pure ones are the difference.
i, d, u = (int(st.get(k, 0)) for k in ("insertions", "deletions", "substitutions"))
print(f"  compare found:   {i - u} insertions, {d - u} deletions, {u} substitutions ({i + d - u} in all), "
      f"{st.get('moves')} moves, {st.get('words changed')} words changed")
PY

# Batch: 1,000 pairs of small documents in one run on the batch engine (target >= 500 pairs/s). OLD is
# a small DOCX of the corpus, NEW an edited copy made here (words replaced, inserted and deleted in its
# document.xml, everything else as it was); the corpus is reused as many times as needed for 1,000 pairs.
small=$CORPUS/small
n=$(find "$small" -maxdepth 1 -name '*.docx' | wc -l)
if [ "$n" -gt 0 ]; then
  python3 - "$small" "$out/pairs-old" "$out/pairs-new" "$out/pairs-text" 1000 <<'PY'
import os, random, re, shutil, sys, zipfile
src, old, new, text, want = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
files = sorted(f for f in os.listdir(src) if f.endswith(".docx"))
words = ["revised", "clearly", "amended", "notably", "instead", "further"]
def edit(xml, rng):
    def one(m):
        t = m.group(2)
        ws = t.split(" ")
        if len(ws) > 3 and rng.random() < 0.5:
            k = rng.randrange(len(ws))
            r = rng.random()
            if r < 0.4: ws[k] = rng.choice(words)
            elif r < 0.7: ws.insert(k, rng.choice(words))
            else: del ws[k]
        return m.group(1) + " ".join(ws) + m.group(3)
    return re.sub(r"(<w:t(?: [^>]*)?>)([^<]*)(</w:t>)", one, xml)
def text_of(xml):
    return "\n".join("".join(re.findall(r"<w:t(?: [^>]*)?>([^<]*)</w:t>", p)) for p in re.findall(r"<w:p[ >].*?</w:p>", xml, re.S))
count = 0
for c in range((want + len(files) - 1) // len(files)):
    for f in files:
        if count == want: break
        rng = random.Random(f"{c}/{f}")
        for d in (old, new, text):
            os.makedirs(f"{d}/c{c}", exist_ok=True)
        name = f"c{c}/{f}"
        shutil.copyfile(f"{src}/{f}", f"{old}/{name}")
        with zipfile.ZipFile(f"{src}/{f}") as z:
            with zipfile.ZipFile(f"{new}/{name}", "w", zipfile.ZIP_DEFLATED) as n:
                for e in z.infolist():
                    b = z.read(e)
                    if e.filename == "word/document.xml":
                        x = b.decode("utf-8")
                        y = edit(x, rng)
                        b = y.encode("utf-8")
                        open(f"{text}/{name}.old.txt", "w").write(text_of(x))
                        open(f"{text}/{name}.new.txt", "w").write(text_of(y))
                    n.writestr(e.filename, b)
        count += 1
print(f"  batch: {count} pairs of small DOCX (OLD from the corpus, NEW an edited copy)")
PY
  pairs=$(find "$out/pairs-old" -name '*.docx' | wc -l)
  runner=$out/run-compare-batch.sh
  cat > "$runner" <<RUNNER
#!/bin/sh
d=\$(mktemp -d "$out/batch.XXXXXX")
"$REDLINE" compare "$out/pairs-old" "$out/pairs-new" -o "\$d" -q --date 2024-01-01T00:00:00Z --report "\$d.report.jsonl"
RUNNER
  chmod +x "$runner"
  bench_run compare_batch "$runner"
  awk -v n="$pairs" -v s="${SECS_compare_batch:-99}" 'BEGIN{ r = n / s; printf "  batch: %d pairs, %.0f pairs/s (target >= 500: %s)\n", n, r, (r >= 500 ? "met" : "NOT met") }'
  # The same on threads (the default above runs each pair in a worker process).
  sed 's/ --report / --isolation threads --report /' "$runner" > "$runner.threads"
  chmod +x "$runner.threads"
  bench_run compare_batch_threads "$runner.threads"
  awk -v n="$pairs" -v s="${SECS_compare_batch_threads:-99}" 'BEGIN{ printf "  batch on threads: %d pairs, %.0f pairs/s\n", n, n / s }'
  # DOCX results laid into NEW's package (styles, headers, sections).
  cat > "$runner.docx" <<RUNNER
#!/bin/sh
exec "$REDLINE" compare "$out/pairs-old" "$out/pairs-new" -o "\$(mktemp -d "$out/batch.XXXXXX")" -q --date 2024-01-01T00:00:00Z --to docx
RUNNER
  chmod +x "$runner.docx"
  bench_run compare_batch_docx "$runner.docx"
  awk -v n="$pairs" -v s="${SECS_compare_batch_docx:-99}" 'BEGIN{ printf "  batch to DOCX: %d pairs, %.0f pairs/s\n", n, n / s }'
  # The peer on the same pairs' text (it reads plain text only, so it gets the text extracted above).
  if python3 -c 'import redlines' 2>/dev/null; then
    bench_run python_redlines_batch python3 -c "
import glob, sys
from redlines import Redlines
for a in sorted(glob.glob(sys.argv[1] + '/*/*.old.txt')):
    Redlines(open(a).read(), open(a[:-8] + '.new.txt').read()).output_markdown
" "$out/pairs-text"
    bench_ratio compare_batch python_redlines_batch
  fi
  rm -rf "$out"/batch.*
fi
