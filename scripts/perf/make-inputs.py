#!/usr/bin/env python3
"""Writes the perf-check inputs (scripts/perf/check.sh) into OUTDIR, the same bytes on every run and machine.

usage: make-inputs.py OUTDIR

Everything comes from one fixed vocabulary and a small linear congruential generator of this file's own
(no library random, no system word list, no pandoc or LibreOffice), and the DOCX packages are written with
fixed zip dates, so the inputs depend on this script and the machine's zlib only.

  review.md          Markdown + CriticMarkup, about 6,000 words: headings, emphasis, links, lists, quotes,
                     a table, footnotes, insertions, deletions, substitutions, highlights with comments
  review.docx        WordprocessingML as Word writes it, about 6,000 words: styles, headings, bold/italic
                     runs, w:ins / w:del, comments, a footnote, a list, a table
  review.rtf         RTF as Word writes it, about 6,000 words: \\revised / \\deleted runs, annotations
  old.docx, new.docx a pair for compare, about 1,500 words, NEW edited (words changed, a paragraph
                     deleted, one inserted, one moved)
  batch/NNN.docx     50 small documents of 150-300 words
  tiny.md            a few lines (start-up)
"""
import os, sys, zipfile

WORDS = """the a of and to in that it was for on with as his her at by from they this had not but be are
have one all were when we there can an your which their said if do will each about how up out them then she
many some so these would other into has more two like him see time could no make than first been its who now
people my made over did down only way find use may water long little very after words called just where most
know get through back much before go good new write our used me man too any day same right look think also
around another came come work three word must because does part even place well such here take why things help
put years different away again off went old number great tell men say small every found still between name
should home big give air line set own under read last never us left end along while might next sound below saw
something thought both few those always looked show large often together asked house world going want school
important until form food keep children feet land side without boy once animals life enough took sometimes four
head above kind began almost live page got earth need far hand high year mother light parts country father let
night following picture being study second eyes soon times story boys since white days paper hard near sentence
better best across during today others however sure means knew try told young miles sun ways thing whole hear
example heard several change answer room sea against top turned learn point city play toward five using himself
usually lighthouse harbour lantern keeper storm wick brass copper herring quay tower beam swell whisper""".split()
WORDS += ["café", "naïve", "Chloé", "façade", "déjà", "Zürich", "über", "São"]
AUTHORS = ["Ann Editor", "Bob Reviewer", "Chloé Copy"]


class Rng:
    """A 64-bit linear congruential generator (Knuth's MMIX constants): the same numbers everywhere."""
    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return self.s >> 33

    def below(self, n):
        return self.next() % n

    def chance(self, per_mille):
        return self.below(1000) < per_mille

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def words(self, lo, hi):
        return [self.pick(WORDS) for _ in range(lo + self.below(hi - lo + 1))]


def date(rng):
    return "2024-03-%02dT%02d:%02d:00Z" % (1 + rng.below(28), rng.below(24), rng.below(60))


# ---------------------------------------------------------------- Markdown + CriticMarkup

def critic_paragraph(rng):
    ws = rng.words(40, 120)
    out, i = [], 0
    while i < len(ws):
        r = rng.below(1000)
        if r < 20 and i + 1 < len(ws):
            out.append("{~~%s~>%s~~}" % (ws[i], ws[i + 1])); i += 2
        elif r < 40:
            out.append("{--%s--}" % ws[i]); i += 1
        elif r < 60:
            out.append("{++%s++}" % ws[i]); i += 1
        elif r < 66 and i + 2 < len(ws):
            note = " ".join(rng.words(3, 10))
            out.append("{==%s==}{>>%s<<}" % (" ".join(ws[i:i + 3]), note)); i += 3
        elif r < 80:
            out.append("*%s*" % ws[i]); i += 1
        elif r < 90:
            out.append("**%s**" % ws[i]); i += 1
        elif r < 94:
            out.append("`%s`" % ws[i]); i += 1
        elif r < 97:
            out.append("[%s](https://example.org/%s)" % (ws[i], ws[i].lower())); i += 1
        else:
            out.append(ws[i]); i += 1
    text = " ".join(out)
    return text[0].upper() + text[1:] + "."


def critic_markdown(rng, n_words):
    lines = ["---", 'title: "The Keeper\'s Log"', "author: [Ann Editor]", "date: 2024-03-01", "---", ""]
    count, chapter, note = 0, 0, 0
    while count < n_words:
        if count == 0 or rng.chance(40):
            chapter += 1
            lines += ["# Chapter %d: %s" % (chapter, " ".join(rng.words(2, 4)).title()), ""]
        kind = rng.below(100)
        if kind < 5:
            items = [" ".join(rng.words(3, 9)) for _ in range(2 + rng.below(4))]
            lines += ["- " + it for it in items] + [""]
            count += sum(len(it.split()) for it in items)
        elif kind < 8:
            lines += ["> " + critic_paragraph(rng), ""]
            count += 80
        elif kind < 9:
            lines += ["| %s | %s |" % tuple(rng.words(1, 1) + rng.words(1, 1)), "|---|---|"]
            lines += ["| %s | %s |" % (" ".join(rng.words(1, 3)), " ".join(rng.words(1, 3))) for _ in range(3)]
            lines += [""]
            count += 12
        elif kind < 11:
            note += 1
            p = critic_paragraph(rng)
            lines += [p + "[^n%d]" % note, "", "[^n%d]: %s." % (note, " ".join(rng.words(5, 15))), ""]
            count += len(p.split())
        elif kind < 13:
            lines += ["## " + " ".join(rng.words(2, 5)).title(), ""]
        else:
            p = critic_paragraph(rng)
            lines += [p, ""]
            count += len(p.split())
    return "\n".join(lines)


# ---------------------------------------------------------------- DOCX

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NSDECL = ('xmlns:w="%s" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
          'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
          'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14"' % W)
DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."
STYLES = DECL + '''<w:styles %s><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Calibri" w:cs="Times New Roman"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US" w:eastAsia="en-US" w:bidi="ar-SA"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="9"/><w:qFormat/><w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="240" w:after="0"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:rFonts w:asciiTheme="majorHAnsi" w:hAnsiTheme="majorHAnsi"/><w:color w:val="2F5496"/><w:sz w:val="32"/><w:szCs w:val="32"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Heading1"/><w:next w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:sz w:val="26"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="864" w:right="864"/></w:pPr><w:rPr><w:i/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="720"/></w:pPr></w:style><w:style w:type="character" w:styleId="CommentReference"><w:name w:val="annotation reference"/><w:rPr><w:sz w:val="16"/></w:rPr></w:style><w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style><w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/></w:tblBorders></w:tblPr></w:style></w:styles>''' % NSDECL
NUMBERING = DECL + ('<w:numbering %s><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
                    '<w:numFmt w:val="bullet"/><w:lvlText w:val="\u2022"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl>'
                    '</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>' % NSDECL)
RPR = '<w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:lang w:val="en-GB"/></w:rPr>'


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Docx:
    def __init__(self, marks=True):
        self.marks = marks  # tracked changes, comments and notes
        self.body, self.comments, self.footnotes = [], [], []
        self.change_id = 100

    def cid(self):
        self.change_id += 1
        return self.change_id

    def run(self, text, extra=""):
        return '<w:r w:rsidR="00A1B2C3"><w:rPr>%s<w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:lang w:val="en-GB"/></w:rPr><w:t xml:space="preserve">%s</w:t></w:r>' % (extra, esc(text))

    def paragraph(self, rng, ws, ppr=""):
        parts, i = [], 0
        plain = []
        def flush():
            if plain:
                parts.append(self.run(" ".join(plain) + " "))
                plain.clear()
        while i < len(ws):
            r = rng.below(1000)
            if not self.marks and r < 104:
                r = 1000 - r
            who = 'w:author="%s" w:date="%s"' % (rng.pick(AUTHORS), date(rng))
            if r < 25:
                flush()
                parts.append('<w:ins w:id="%d" %s>%s</w:ins>' % (self.cid(), who, self.run(ws[i] + " ")))
            elif r < 50:
                flush()
                parts.append('<w:del w:id="%d" %s><w:r w:rsidDel="00D4E5F6">%s<w:delText xml:space="preserve">%s </w:delText></w:r></w:del>'
                             % (self.cid(), who, RPR, esc(ws[i])))
            elif r < 57 and i + 2 < len(ws):
                flush()
                n = len(self.comments)
                self.comments.append('<w:comment w:id="%d" %s w:initials="AE"><w:p><w:pPr><w:pStyle w:val="CommentText"/></w:pPr>'
                                     '<w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:annotationRef/></w:r>%s</w:p></w:comment>'
                                     % (n, who, self.run(" ".join(rng.words(3, 10)))))
                parts.append('<w:commentRangeStart w:id="%d"/>%s<w:commentRangeEnd w:id="%d"/>'
                             '<w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="%d"/></w:r>'
                             % (n, self.run(" ".join(ws[i:i + 3]) + " "), n, n))
                i += 2
            elif r < 80:
                flush()
                parts.append(self.run(ws[i] + " ", "<w:b/><w:bCs/>"))
            elif r < 100:
                flush()
                parts.append(self.run(ws[i] + " ", "<w:i/><w:iCs/>"))
            elif r < 104 and not self.footnotes_full():
                flush()
                n = len(self.footnotes) + 1
                self.footnotes.append('<w:footnote w:id="%d"><w:p><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr>'
                                      '<w:footnoteRef/></w:r>%s</w:p></w:footnote>' % (n, self.run(" " + " ".join(rng.words(5, 12)))))
                parts.append('<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="%d"/></w:r>' % n)
                plain.append(ws[i])
            else:
                plain.append(ws[i])
            i += 1
        flush()
        return '<w:p w:rsidR="00A1B2C3" w:rsidRDefault="00A1B2C3">%s%s</w:p>' % (
            "<w:pPr>%s</w:pPr>" % ppr if ppr else "", "".join(parts))

    def footnotes_full(self):
        return len(self.footnotes) >= 20

    def fill(self, rng, n_words, moved=None):
        count, chapter = 0, 0
        while count < n_words:
            if count == 0 or rng.chance(40):
                chapter += 1
                self.body.append(self.paragraph(rng, ("Chapter %d" % chapter).split() + rng.words(1, 3),
                                                '<w:pStyle w:val="Heading1"/>'))
            kind = rng.below(100)
            if kind < 4:
                for _ in range(2 + rng.below(3)):
                    self.body.append(self.paragraph(rng, rng.words(3, 9),
                                                    '<w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'))
                count += 15
            elif kind < 6:
                rows = "".join('<w:tr>%s</w:tr>' % "".join(
                    '<w:tc><w:tcPr><w:tcW w:w="4500" w:type="dxa"/></w:tcPr>%s</w:tc>' % self.paragraph(rng, rng.words(1, 4))
                    for _ in range(2)) for _ in range(3))
                self.body.append('<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
                                 '<w:tblGrid><w:gridCol w:w="4500"/><w:gridCol w:w="4500"/></w:tblGrid>%s</w:tbl>' % rows)
                count += 15
            elif kind < 9:
                self.body.append(self.paragraph(rng, rng.words(20, 60), '<w:pStyle w:val="Quote"/>'))
                count += 40
            else:
                ws = rng.words(40, 120)
                self.body.append(self.paragraph(rng, ws, '<w:spacing w:after="120"/><w:jc w:val="both"/>'))
                count += len(ws)

    def save(self, path, title):
        sect = ('<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" '
                'w:left="1440" w:header="708" w:footer="708" w:gutter="0"/><w:cols w:space="708"/></w:sectPr>')
        parts = {
            "[Content_Types].xml": DECL + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/word/document.xml" ContentType="%sdocument.main+xml"/>'
            '<Override PartName="/word/styles.xml" ContentType="%sstyles+xml"/>'
            '<Override PartName="/word/numbering.xml" ContentType="%snumbering+xml"/>'
            '<Override PartName="/word/comments.xml" ContentType="%scomments+xml"/>'
            '<Override PartName="/word/footnotes.xml" ContentType="%sfootnotes+xml"/>'
            '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
            '</Types>' % (CT, CT, CT, CT, CT),
            "_rels/.rels": DECL + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="%sofficeDocument" Target="word/document.xml"/>'
            '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>'
            '</Relationships>' % REL,
            "docProps/core.xml": DECL + '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>%s</dc:title><dc:creator>Ann Editor</dc:creator>'
            '<dcterms:created xsi:type="dcterms:W3CDTF">2024-03-01T10:00:00Z</dcterms:created></cp:coreProperties>' % esc(title),
            "word/_rels/document.xml.rels": DECL + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="%sstyles" Target="styles.xml"/>'
            '<Relationship Id="rId2" Type="%snumbering" Target="numbering.xml"/>'
            '<Relationship Id="rId3" Type="%scomments" Target="comments.xml"/>'
            '<Relationship Id="rId4" Type="%sfootnotes" Target="footnotes.xml"/>'
            '</Relationships>' % (REL, REL, REL, REL),
            "word/document.xml": DECL + '<w:document %s><w:body>%s%s</w:body></w:document>' % (NSDECL, "".join(self.body), sect),
            "word/styles.xml": STYLES,
            "word/numbering.xml": NUMBERING,
            "word/comments.xml": DECL + '<w:comments %s>%s</w:comments>' % (NSDECL, "".join(self.comments)),
            "word/footnotes.xml": DECL + '<w:footnotes %s><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
            '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>%s</w:footnotes>'
            % (NSDECL, "".join(self.footnotes)),
        }
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for name, text in parts.items():
                info = zipfile.ZipInfo(name, date_time=(2024, 3, 1, 10, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, text.encode("utf-8"), compress_type=zipfile.ZIP_DEFLATED, compresslevel=6)


def docx(path, seed, n_words, title="The Keeper's Log"):
    d = Docx()
    d.fill(Rng(seed), n_words)
    d.save(path, title)
    return d


# ---------------------------------------------------------------- RTF

def rtf_text(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch in "\\{}":
            out.append("\\" + ch)
        elif o < 128:
            out.append(ch)
        else:
            out.append("\\u%d?" % (o if o < 32768 else o - 65536))
    return "".join(out)


def rtf(rng, n_words):
    head = ("{\\rtf1\\ansi\\ansicpg1252\\deff0\\nouicompat\\deflang1033\n"
            "{\\fonttbl{\\f0\\froman\\fprq2\\fcharset0 Times New Roman;}{\\f1\\fswiss\\fprq2\\fcharset0 Calibri;}}\n"
            "{\\colortbl ;\\red0\\green0\\blue0;\\red0\\green0\\blue255;}\n"
            "{\\stylesheet{ Normal;}{\\s1\\outlinelevel0 heading 1;}{\\*\\cs10\\additive Default Paragraph Font;}{\\*\\cs15\\additive annotation reference;}}\n"
            "{\\*\\revtbl {Unknown;}{Ann Editor;}{Bob Reviewer;}{Chlo\\u233? Copy;}}\n"
            "{\\info{\\title The Keeper's Log}{\\author Ann Editor}{\\creatim\\yr2024\\mo3\\dy1\\hr10\\min0}}\n"
            "\\viewkind4\\uc1\n")
    body, count, chapter, ann = [], 0, 0, 0
    while count < n_words:
        if count == 0 or rng.chance(40):
            chapter += 1
            body.append("\\pard\\plain\\s1\\outlinelevel0\\sb240\\sa60\\f1\\fs32\\b Chapter %d %s\\par\n"
                        % (chapter, rtf_text(" ".join(rng.words(1, 3)).title())))
        ws = rng.words(40, 120)
        count += len(ws)
        parts = []
        for i, w in enumerate(ws):
            r = rng.below(1000)
            auth, tm = 1 + rng.below(3), 130120606 + rng.below(500)
            if r < 25:
                parts.append("{\\revised\\revauth%d\\revdttm%d %s }" % (auth, tm, rtf_text(w)))
            elif r < 50:
                parts.append("{\\deleted\\revauthdel%d\\revdttmdel%d %s }" % (auth, tm, rtf_text(w)))
            elif r < 56:
                ann += 1
                parts.append("{\\*\\atrfstart %d}%s{\\*\\atrfend %d}{\\*\\atnid AE}{\\*\\atnauthor Ann Editor}{\\cs15\\chatn}"
                             "{\\*\\annotation{\\*\\atnref %d}{\\*\\atndate %d}\\pard\\plain\\f1\\fs20{\\cs15\\chatn} %s\\par} "
                             % (ann, rtf_text(w), ann, ann, tm, rtf_text(" ".join(rng.words(3, 10)))))
            elif r < 80:
                parts.append("{\\b %s} " % rtf_text(w))
            elif r < 100:
                parts.append("{\\i %s} " % rtf_text(w))
            else:
                parts.append(rtf_text(w) + " ")
        body.append("\\pard\\plain\\sa200\\sl276\\slmult1\\f1\\fs22 %s\\par\n" % "".join(parts).rstrip())
    return head + "".join(body) + "}\n"


# ---------------------------------------------------------------- compare pair

def compare_pair(outdir):
    old = Docx(marks=False)
    old.fill(Rng(7), 1500)
    # NEW: the same paragraphs with every 40th word changed, the fifth paragraph deleted, a new one after the
    # tenth, and the third moved to the end.
    rng = Rng(8)
    body = list(old.body)
    edited = []
    for k, p in enumerate(body):
        if k == 4:
            continue
        pieces = p.split('xml:space="preserve">')
        for j in range(1, len(pieces)):
            if rng.chance(150):
                text, rest = pieces[j].split("<", 1)
                ws = text.split(" ")
                ws[rng.below(len(ws))] = rng.pick(WORDS)
                pieces[j] = " ".join(ws) + "<" + rest
        edited.append('xml:space="preserve">'.join(pieces))
        if k == 10:
            edited.append('<w:p>%s</w:p>' % old.run(" ".join(rng.words(30, 60))))
    edited.append(edited.pop(2))
    new = Docx(marks=False)
    new.body, new.comments, new.footnotes = edited, old.comments, old.footnotes
    old.save(os.path.join(outdir, "old.docx"), "The Keeper's Log")
    new.save(os.path.join(outdir, "new.docx"), "The Keeper's Log")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "batch"), exist_ok=True)
    with open(os.path.join(out, "review.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(critic_markdown(Rng(1), 6000))
    docx(os.path.join(out, "review.docx"), 2, 6000)
    with open(os.path.join(out, "review.rtf"), "w", encoding="ascii", newline="\n") as f:
        f.write(rtf(Rng(3), 6000))
    compare_pair(out)
    for k in range(50):
        docx(os.path.join(out, "batch", "%03d.docx" % (k + 1)), 1000 + k, 150 + Rng(k).below(150), "Note %d" % (k + 1))
    with open(os.path.join(out, "tiny.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# A title\n\nOne {++short++} paragraph with *emphasis*.\n")


if __name__ == "__main__":
    main()
