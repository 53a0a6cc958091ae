#!/usr/bin/env bash
# make demo: converts the sample chapter (CriticMarkup with attributed changes and a comment thread)
# into its marked, clean and original versions in every format Redline writes, and shows them.
set -euo pipefail
cd "$(dirname "$0")/.."
redline=${1:-.build/release/redline}
in=Corpus/demo/chapter.md
out=demo-out
rm -rf "$out"; mkdir -p "$out"

echo "== redline formats"
"$redline" formats
echo
for v in marked:marked accept:clean reject:original; do
  mode=${v%%:*}; name=${v##*:}
  "$redline" convert "$in" -o "$out/$name.md" --changes "$mode" --quiet
  echo "== $name version ($out/$name.md)"
  cat "$out/$name.md"
  echo
done
for fmt in html docx rtf; do
  if "$redline" formats | grep -q "^$fmt "; then
    "$redline" convert "$in" -o "$out/marked.$fmt" --quiet && echo "wrote $out/marked.$fmt"
  fi
done
echo
echo "== warnings when converting to plain GitHub Markdown (no CriticMarkup)"
"$redline" convert "$in" --to gfm -o "$out/plain.md" || true
echo
echo "== a co-author edits the Word file; redline apply lands the edits in the original source"
sed -e 's/the/THE/' "$out/clean.md" > "$out/coauthor.md"
"$redline" convert "$out/coauthor.md" -o "$out/coauthor.docx" --quiet
"$redline" apply "$out/coauthor.docx" --onto "$out/clean.md" --author "Co Author" --date 2026-01-01 -o "$out/applied.md" --quiet
diff "$out/clean.md" "$out/applied.md" || true
