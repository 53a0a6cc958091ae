#!/usr/bin/env python3
"""Writes the hostile input shapes of issue 15 at a scale: python3 hostile_shapes.py OUTDIR [SCALE].

SCALE 1.0 is the size the issue names; the robustness benchmark (scripts/bench/70-hostile.sh) runs 0.5
and 1.0 to show time and memory grow linearly. Every file is generated: nothing large is committed."""
import os, sys, zipfile

out = sys.argv[1]
scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
os.makedirs(out, exist_ok=True)
n = lambda k: max(1, int(k * scale))

def w(name, data):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())

# Many CriticMarkup marks on one Markdown line (5 MB at scale 1).
w('critic-line.md', 'word {++ins++} more ' * n(262144) + '\n')
# A 50,000-column Markdown table.
cols = n(50000)
w('wide-table.md', '|' + '|'.join('c%d' % i for i in range(cols)) + '|\n|' + '|'.join(['-'] * cols) + '|\n|' + '|'.join('v%d' % i for i in range(cols)) + '|\n')
# 100,000 fenced divs.
w('fenced-divs.md', ''.join('::: {custom-style="S%d"}\npara %d\n:::\n\n' % (i % 7, i) for i in range(n(100000))))
# 1,000,000 alternately bold and italic runs in one paragraph (Markdown and RTF inputs).
w('bold-italic.md', ''.join('**b%d** *i%d* ' % (i, i) for i in range(n(500000))) + '\n')
w('bold-italic.rtf', '{\\rtf1\\ansi{\\fonttbl{\\f0 Times;}}\\pard ' + ''.join('{\\b b%d }{\\i i%d }' % (i, i) for i in range(n(500000))) + '\\par}')
# Found in the last session of 2026-11-25 (hostile shapes not in the issue): 200,000 line breaks leading a
# paragraph, in Markdown and RTF (quadratic: each was removed from the front of the paragraph one by one);
# 1,000,000 one-word paragraphs (quadratic within each 48 KiB group: chunks taken from the front of an array);
# 300,000 CriticMarkup comments on one line (each comment's body parse zeroed a 1 MiB block).
w('leading-breaks.md', '\\\n' * n(200000) + 'x\n')
w('leading-breaks.rtf', '{\\rtf1\\ansi ' + '\\line ' * n(200000) + 'x\\par}')
w('many-paragraphs.md', 'p\n\n' * n(1000000))
w('comments-line.md', 'word {>>c<<} ' * n(300000) + '\n')
# Found in the third session of 2026-11-25: 400,000 lists each closed by a lone tag right after its item (an
# HTML block, no blank line), which the reader parsed as one part (766 MB); and one list of 400,000 items,
# which is one block (memory about 1.1 KB an item: not flat, see docs/reliability.md, "Known limits").
w('lists-closed-by-tags.md', '- a\n<mark>\n\n' * n(400000))
w('long-list.md', '- item\n' * n(400000))
# An RTF table with 100,000 cells (1,000 rows of 100).
rows, per = n(1000), 100
row = '\\trowd ' + ''.join('\\cellx%d' % (100 * (k + 1)) for k in range(per)) + ' ' + ''.join('\\pard\\intbl c%d\\cell ' % k for k in range(per)) + '\\row\n'
w('table-cells.rtf', '{\\rtf1\\ansi{\\fonttbl{\\f0 Times;}}\n' + row * rows + '\\pard\\par}')
# One RTF table row of 200,000 cells, each with its own boundary (was quadratic in the cells of a row).
cells = n(200000)
w('wide-row.rtf', '{\\rtf1\\ansi\\trowd' + ''.join('\\cellx%d' % (10 * (k + 1)) for k in range(cells)) + '\\pard\\intbl ' + 'c\\cell ' * cells + '\\row\\pard\\par}')
# A one-paragraph RTF of 100 MB (memory must not follow the paragraph's size beyond a small multiple).
words = b'lorem ipsum dolor sit amet ' * 1000
w('one-paragraph.rtf', b'{\\rtf1\\ansi{\\fonttbl{\\f0 Times;}}\\pard ' + words * n(3700) + b'\\par}')

# w:ins/w:del nested 9,000 deep in a DOCX.
depth = n(9000)
body = ''.join('<w:ins w:id="%d" w:author="A"><w:del w:id="%d" w:author="B">' % (2 * k, 2 * k + 1) for k in range(depth // 2))
body += '<w:r><w:t>deep</w:t></w:r>' + '</w:del></w:ins>' * (depth // 2)
doc = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
       '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>'
       + body + '</w:p></w:body></w:document>')
def docx(name, document, parts=()):
    """A DOCX of `document` (word/document.xml) and `parts`: (name, relationship type, content type, xml)."""
    ns = 'http://schemas.openxmlformats.org/'
    overrides = ''.join('<Override PartName="/word/%s" ContentType="%s"/>' % (p, ct) for p, _, ct, _ in parts)
    rels = ''.join('<Relationship Id="rId%d" Type="%sofficeDocument/2006/relationships/%s" Target="%s"/>' % (i + 1, ns, t, p)
                   for i, (p, t, _, _) in enumerate(parts))
    with zipfile.ZipFile(os.path.join(out, name), 'w', zipfile.ZIP_DEFLATED) as z:
        z.writestr('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' + overrides + '</Types>')
        z.writestr('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
        if parts:
            z.writestr('word/_rels/document.xml.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' + rels + '</Relationships>')
        z.writestr('word/document.xml', document)
        for p, _, _, xml in parts:
            z.writestr('word/' + p, xml)
docx('nested-changes.docx', doc)
# An ordinary DOCX with 1,000,000 runs (about 25 MB): must not be refused as a zip bomb.
runs = '<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">word </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">word </w:t></w:r>' * n(500000)
docx('million-runs.docx', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>' + runs + '</w:p></w:body></w:document>')

# A comments part of 600,000 comments (138 MB at scale 1), each anchored in its own paragraph; every fourth
# comment a reply to the one before it (commentsExtended.xml), every fifth resolved. Many small pieces: memory
# must stay a small multiple of the part.
count = n(600000)
W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml"'
def comment(i):
    return ('<w:comment w:id="%d" w:author="Reviewer %d" w:date="2024-05-%02dT10:%02d:00Z" w:initials="R%d">'
            '<w:p w14:paraId="%08X"><w:r><w:annotationRef/></w:r>'
            '<w:r><w:t xml:space="preserve">Comment %d: is this the word you mean?</w:t></w:r></w:p></w:comment>'
            % (i, i % 7, 1 + i % 28, i % 60, i % 7, 0x100000 + i, i))
def is_reply(i): return i % 4 == 3
def anchored(i):
    ids = [i, i + 1] if i + 1 < count and is_reply(i + 1) else [i]
    return (''.join('<w:commentRangeStart w:id="%d"/>' % k for k in ids) + '<w:r><w:t xml:space="preserve">Sentence %d of the manuscript, under review. </w:t></w:r>' % i
            + ''.join('<w:commentRangeEnd w:id="%d"/><w:r><w:commentReference w:id="%d"/></w:r>' % (k, k) for k in ids))
body = ''.join('<w:p>' + anchored(i) + '</w:p>' for i in range(count) if not is_reply(i))
comments = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:comments %s>%s</w:comments>' % (W, ''.join(comment(i) for i in range(count)))
extended = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w15:commentsEx %s>%s</w15:commentsEx>' % (W, ''.join(
    '<w15:commentEx w15:paraId="%08X"%s w15:done="%d"/>' % (0x100000 + i, ' w15:paraIdParent="%08X"' % (0x100000 + i - 1) if is_reply(i) else '', 1 if i % 5 == 0 else 0)
    for i in range(count)))
docx('many-comments.docx', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document %s><w:body>%s</w:body></w:document>' % (W, body), [
    ('comments.xml', 'comments', 'application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml', comments),
    ('commentsExtended.xml', 'commentsExtended', 'application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml', extended)])
del body, comments, extended
# The same in CriticMarkup (a highlight and its comment, replies as a second comment) and RTF (annotations).
w('many-comments.md', ''.join('Sentence %d of the manuscript, {==under review==}{>>@Reviewer %d (2024-05-%02dT10:%02d:00Z) | Comment %d: is this the word you mean?<<}%s\n\n'
                              % (i, i % 7, 1 + i % 28, i % 60, i, '{>>@Reviewer 1 (2024-05-02T10:00:00Z) | A reply.<<}' if i % 4 == 2 else '')
                              for i in range(count)))
w('many-comments.rtf', '{\\rtf1\\ansi{\\fonttbl{\\f0 Times;}}\n' + ''.join(
    '\\pard Sentence %d of the manuscript, {\\*\\atrfstart %d}under review{\\*\\atrfend %d}{\\*\\atnid R%d}{\\*\\atnauthor Reviewer %d}\\chatn'
    '{\\*\\annotation{\\*\\atnref %d}{\\*\\atndate 130120606}\\pard\\plain\\chatn Comment %d: is this the word you mean?\\par}.\\par\n'
    % (i, i, i, i % 7, i % 7, i, i) for i in range(count)) + '}')

# Compare on one huge paragraph (found in the last session of 2026-11-24: merging a paragraph's one-run-a-word
# result copied the text so far on every word, 118 s for these): 1,000,000 words against a copy with every
# fiftieth word changed, an empty document against it, and 1,000,000 times the same word against a copy with
# every thousandth replaced (no unique word to anchor on).
import random
rnd = random.Random(1)
vocab = ['alpha', 'beta', 'gamma', 'delta', 'harbour', 'light', 'keeper', 'storm', 'bell', 'water', 'grey', 'morning']
para = [rnd.choice(vocab) for _ in range(n(1000000))]
w('compare-paragraph-old.md', ' '.join(para) + '\n')
w('compare-paragraph-new.md', ' '.join('changed' if k % 50 == 0 else p for k, p in enumerate(para)) + '\n')
w('compare-empty.md', '')
same = n(1000000)
w('compare-same-word-old.md', ' '.join(['a'] * same) + '\n')
w('compare-same-word-new.md', ' '.join('b' if k % 1000 == 0 else 'a' for k in range(same)) + '\n')
del para
# One paragraph of 400,000 soft-broken lines (a hard-wrapped text with no blank line; the DOCX writer's
# run merge copied the text so far for every line: 18 s).
w('soft-broken-lines.md', 'word of a line\n' * n(400000))
# One paragraph of 400,000 insertions of one author and date, each its own `w:ins` as Word records typing
# sessions (the Markdown writer joined each to the one before and made the join readable again: 15 s).
docx('many-insertions.docx', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>'
     + ''.join('<w:ins w:id="%d" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:t xml:space="preserve">w%d </w:t></w:r></w:ins>' % (k, k) for k in range(n(400000)))
     + '</w:p></w:body></w:document>')
