#!/usr/bin/env bash
# Builds each fuzz target's seed corpus from Corpus/, Golden/ and Fuzz/regressions into Fuzz/.corpus/TARGET
# (not committed: libFuzzer adds what it finds there), or into Fuzz/DIR/TARGET. Usage: Fuzz/seeds.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=Fuzz/${1:-.corpus}
mkdir -p "$out"/{markdown,rtf,docx,docx-xml,zip,binder,roundtrip,compare,apply,mcp,tex,omml}
copy() { local dir=$1; shift; for f in "$@"; do [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 1048576 ] && cp -n "$f" "$out/$dir/$(sha1sum "$f" | cut -c1-16)"; done; return 0; }
copy markdown $(find Corpus Golden -name '*.md' -o -name '*.txt' | sort)
copy rtf $(find Corpus Golden -name '*.rtf' | sort)
copy docx $(find Corpus Golden -name '*.docx' | sort)
copy zip $(find Corpus Golden -name '*.docx' | sort)
copy binder $(find Corpus Golden -name '*.scrivx' | sort)
for f in $(find Corpus Golden -name '*.docx' | sort); do
  t=$(mktemp); unzip -p "$f" word/document.xml > "$t" 2>/dev/null && copy docx-xml "$t"; rm -f "$t"
done
# roundtrip: the first byte picks the reader (0 Markdown, 1 RTF, 2 document.xml).
for f in "$out"/markdown/*; do printf '\0' | cat - "$f" > "$out/roundtrip/m-$(basename "$f")"; done
for f in "$out"/rtf/*; do printf '\1' | cat - "$f" > "$out/roundtrip/r-$(basename "$f")"; done
for f in "$out"/docx-xml/*; do printf '\2' | cat - "$f" > "$out/roundtrip/x-$(basename "$f")"; done
# compare: OLD, a NUL byte, NEW: the compare goldens' pairs, and each Markdown seed against the next.
for d in Corpus/compare/*/; do
  [ -f "$d/old.md" ] && [ -f "$d/new.md" ] && { cat "$d/old.md"; printf '\0'; cat "$d/new.md"; } > "$out/compare/c-$(basename "$d")"
done
prev=
for f in "$out"/markdown/*; do
  [ -n "$prev" ] && [ "$(stat -c %s "$f")" -le 65536 ] && [ "$(stat -c %s "$prev")" -le 65536 ] && { cat "$prev"; printf '\0'; cat "$f"; } > "$out/compare/p-$(basename "$f")"
  prev=$f
done
# apply: ORIGINAL, a NUL byte, EDITED: the compare goldens' pairs, and each Markdown seed (without CriticMarkup, which
# apply refuses in ORIGINAL) against itself with a word replaced, a word inserted and a line dropped.
for d in Corpus/compare/*/; do
  [ -f "$d/old.md" ] && [ -f "$d/new.md" ] && { cat "$d/old.md"; printf '\0'; cat "$d/new.md"; } > "$out/apply/c-$(basename "$d")"
done
for f in "$out"/markdown/*; do
  [ "$(stat -c %s "$f")" -le 65536 ] && ! grep -q -e '{++' -e '{--' -e '{~~' -e '{==' -e '{>>' "$f" || continue
  { cat "$f"; printf '\0'; sed -e '0,/ the /s// a /' -e '0,/ and /s// and also /' -e '5d' "$f"; } > "$out/apply/e-$(basename "$f")"
done
# tex: each formula of the math corpus (between its dollars); omml: each equation of the math goldens' DOCX.
if [ -f Corpus/markdown/math.md ]; then
  grep -o '\$[^$]*\$' Corpus/markdown/math.md | sed 's/^\$//; s/\$$//' | while IFS= read -r t; do
    printf '%s' "$t" > "$out/tex/$(printf '%s' "$t" | sha1sum | cut -c1-16)"; done
fi
omml() { printf '%s' "$1" > "$out/omml/$(printf '%s' "$1" | sha1sum | cut -c1-16)"; }
omml '<m:oMath><m:f><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:r><m:t>b</m:t></m:r></m:den></m:f></m:oMath>'
omml '<m:oMathPara><m:oMath><m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub><m:r><m:t>i=1</m:t></m:r></m:sub><m:sup><m:r><m:t>n</m:t></m:r></m:sup><m:e><m:sSub><m:e><m:r><m:t>x</m:t></m:r></m:e><m:sub><m:r><m:t>i</m:t></m:r></m:sub></m:sSub></m:e></m:nary></m:oMath></m:oMathPara>'
omml '<m:oMath><m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr><m:e><m:m><m:mr><m:e><m:r><m:t>1</m:t></m:r></m:e><m:e><m:r><m:t>0</m:t></m:r></m:e></m:mr></m:m></m:e></m:d><m:func><m:fName><m:r><m:rPr><m:sty m:val="p"/></m:rPr><m:t>sin</m:t></m:r></m:fName><m:e><m:r><m:t>θ</m:t></m:r></m:e></m:func></m:oMath>'
omml '<m:oMath><m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e><w:ins w:id="1" w:author="A"><m:r><m:t>x</m:t></m:r></w:ins><w:del w:id="2" w:author="B"><m:r><m:t>y</m:t></m:r></w:del></m:e></m:rad></m:oMath>'
# mcp: JSON-RPC lines, one request per line, on the fuzz root's a.md and a.docx (Fuzz/Sources/fuzz-mcp).
mcp() { printf '%s\n' "$@" > "$out/mcp/$(printf '%s' "$*" | sha1sum | cut -c1-16)"; }
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' '{"jsonrpc":"2.0","id":2,"method":"ping"}'
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_document","arguments":{"path":"a.docx"}}}'
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_changes","arguments":{"path":"a.md"}}}'
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"review","arguments":{"path":"a.docx","output":"o.docx","accept":["kind=insertion"]}}}'
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_comment","arguments":{"path":"a.md","output":"o.md","quote":"fox","text":"t","author":"A"}}}'
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"apply_edits","arguments":{"path":"a.md","output":"o.rtf","author":"A","edits":[{"find":"quick","replace":"slow"}]}}}'
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"apply_markdown","arguments":{"path":"a.docx","output":"o.docx","author":"A","markdown":"# T\n\nNew."}}}'
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"compare","arguments":{"old":"a.md","new":"a.docx","output":"o.md"}}}'
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_document","arguments":{"path":"../etc/passwd"}}}' '{not json' '[]'
for t in markdown rtf docx docx-xml zip binder roundtrip compare apply mcp tex omml; do
  [ -d "Fuzz/regressions/$t" ] && cp -n Fuzz/regressions/$t/* "$out/$t/" 2>/dev/null || true
done
for t in markdown rtf docx docx-xml zip binder roundtrip compare apply mcp tex omml; do echo "$t: $(ls "$out/$t" | wc -l) seeds"; done
