#!/usr/bin/env python3
"""Writes from-markdown.docx: a Markdown author's file converted by Redline (`redline convert`, so the DOCX keeps
the author's lines in its Markdown sources part), then edited as a co-author in Word would: a tracked insertion
in the second paragraph. Reading it back as Markdown gives the untouched blocks as the author wrote them and the
edited paragraph written anew. Usage: make-from-markdown.py [REDLINE] (default: .build/release/redline)."""
import os, subprocess, sys, tempfile, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = """---
title: "Lamps and tides"
---

# Lamps and tides {#sec-lamps}

Lighthouses were _lit_ by hand and kept
by families for __generations__.

The lamp burned whale oil until
$\\alpha = 0.5$ of them changed.

+ first bullet, wrapped
  onto a second line
+ second bullet

3) three
4) four

| Keeper   | Years |
|----------|------:|
| Ann      |    12 |
"""
INSERTION = ('<w:ins w:id="9001" w:author="Bob Reviewer" w:date="2024-03-02T09:00:00Z">'
             '<w:r><w:t xml:space="preserve">smoky </w:t></w:r></w:ins>')


def main():
    redline = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '../../.build/release/redline')
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, 'source.md'), os.path.join(tmp, 'out.docx')
        with open(src, 'w') as f:
            f.write(SOURCE)
        subprocess.run([redline, 'convert', src, '-o', out, '-q'], check=True)
        with zipfile.ZipFile(out) as z:
            parts = [(i, z.read(i.filename)) for i in z.infolist()]
    target = os.path.join(HERE, 'from-markdown.docx')
    with zipfile.ZipFile(target, 'w') as z:
        for info, data in parts:
            if info.filename == 'word/document.xml':
                xml = data.decode()
                old = '<w:t xml:space="preserve">The lamp burned whale oil until </w:t></w:r>'
                assert old in xml, 'the writer no longer writes the run the edit goes after'
                xml = xml.replace(old, '<w:t xml:space="preserve">The lamp burned </w:t></w:r>' + INSERTION
                                  + '<w:r><w:t xml:space="preserve">whale oil until </w:t></w:r>', 1)
                data = xml.encode()
            z.writestr(info, data)


if __name__ == '__main__':
    main()
