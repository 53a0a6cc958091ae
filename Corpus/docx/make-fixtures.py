#!/usr/bin/env python3
"""Writes the DOCX fixtures in this folder (committed; rerun to regenerate), as Word writes
WordprocessingML: tracked changes, comments, moves, formatting changes, lists, tables, notes.
With LibreOffice installed it also saves one of them through LibreOffice (libreoffice-*.docx)."""
import io, os, shutil, subprocess, tempfile, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
NSDECL = (f'xmlns:w="{W}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
          'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
          'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml" '
          'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14 w15"')
DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
CT_MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.'

STYLES = DECL + f'''<w:styles {NSDECL}>
<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault>
<w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/>
<w:pPr><w:keepNext/><w:spacing w:before="240" w:after="0"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:sz w:val="32"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Heading1"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="864" w:right="864"/><w:jc w:val="center"/></w:pPr><w:rPr><w:i/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="720"/></w:pPr></w:style>
<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>
</w:styles>'''

NUMBERING = DECL + f'''<w:numbering {NSDECL}>
<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl></w:abstractNum>
<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="\u2022"/></w:lvl>
<w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/></w:lvl></w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride></w:num>
</w:numbering>'''

A1 = 'w:author="Ann Editor" w:date="2024-03-01T10:00:00Z"'
B1 = 'w:author="Bob Writer" w:date="2024-03-02T11:30:00Z"'


def t(s):
    return f'<w:t xml:space="preserve">{s}</w:t>'


def r(s, rpr=''):
    return f'<w:r>{"<w:rPr>" + rpr + "</w:rPr>" if rpr else ""}{t(s)}</w:r>'


def dr(s):
    return f'<w:r><w:delText xml:space="preserve">{s}</w:delText></w:r>'


def p(body, ppr=''):
    return f'<w:p>{"<w:pPr>" + ppr + "</w:pPr>" if ppr else ""}{body}</w:p>'


def ins(i, body, who=A1):
    return f'<w:ins w:id="{i}" {who}>{body}</w:ins>'


def dele(i, body, who=A1):
    return f'<w:del w:id="{i}" {who}>{dr(body) if isinstance(body, str) and not body.startswith("<") else body}</w:del>'


def write(name, body, comments=None, comments_ext=None, footnotes=None, rels_extra=(), core_title=None):
    parts = {}
    ct = ['<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
          '<Default Extension="xml" ContentType="application/xml"/>',
          f'<Override PartName="/word/document.xml" ContentType="{CT_MAIN}document.main+xml"/>',
          f'<Override PartName="/word/styles.xml" ContentType="{CT_MAIN}styles+xml"/>',
          f'<Override PartName="/word/numbering.xml" ContentType="{CT_MAIN}numbering+xml"/>',
          '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>']
    rels = [f'<Relationship Id="rId1" Type="{REL}styles" Target="styles.xml"/>',
            f'<Relationship Id="rId2" Type="{REL}numbering" Target="numbering.xml"/>', *rels_extra]
    if comments:
        parts['word/comments.xml'] = DECL + f'<w:comments {NSDECL}>{comments}</w:comments>'
        ct.append(f'<Override PartName="/word/comments.xml" ContentType="{CT_MAIN}comments+xml"/>')
        rels.append(f'<Relationship Id="rId3" Type="{REL}comments" Target="comments.xml"/>')
    if comments_ext:
        parts['word/commentsExtended.xml'] = DECL + f'<w15:commentsEx {NSDECL}>{comments_ext}</w15:commentsEx>'
        ct.append(f'<Override PartName="/word/commentsExtended.xml" ContentType="{CT_MAIN}commentsExtended+xml"/>')
        rels.append('<Relationship Id="rId4" Type="http://schemas.microsoft.com/office/2011/relationships/commentsExtended" '
                    'Target="commentsExtended.xml"/>')
    if footnotes:
        sep = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
               '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>')
        parts['word/footnotes.xml'] = DECL + f'<w:footnotes {NSDECL}>{sep}{footnotes}</w:footnotes>'
        ct.append(f'<Override PartName="/word/footnotes.xml" ContentType="{CT_MAIN}footnotes+xml"/>')
        rels.append(f'<Relationship Id="rId5" Type="{REL}footnotes" Target="footnotes.xml"/>')
    parts['[Content_Types].xml'] = DECL + ('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                                          + ''.join(ct) + '</Types>')
    parts['_rels/.rels'] = DECL + ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                                  f'<Relationship Id="rId1" Type="{REL}officeDocument" Target="word/document.xml"/>'
                                  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>'
                                  '</Relationships>')
    parts['word/_rels/document.xml.rels'] = DECL + ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                                                   + ''.join(rels) + '</Relationships>')
    parts['word/document.xml'] = DECL + f'<w:document {NSDECL}><w:body>{body}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:body></w:document>'
    parts['word/styles.xml'] = STYLES
    parts['word/numbering.xml'] = NUMBERING
    parts['docProps/core.xml'] = DECL + ('<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
                                        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
                                        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
                                        f'<dc:title>{core_title or name}</dc:title><dc:creator>Redline fixtures</dc:creator>'
                                        '</cp:coreProperties>')
    order = ['[Content_Types].xml', '_rels/.rels', 'word/document.xml', 'word/_rels/document.xml.rels']
    order += sorted(k for k in parts if k not in order)
    with zipfile.ZipFile(os.path.join(HERE, name), 'w', zipfile.ZIP_DEFLATED) as z:
        for k in order:
            z.writestr(zipfile.ZipInfo(k, (2024, 3, 1, 0, 0, 0)), parts[k], compress_type=zipfile.ZIP_DEFLATED)


def tracked_changes():
    body = (p(r('Tracked changes'), '<w:pStyle w:val="Heading1"/>')
            + p(r('The editor ') + ins(1, r('quickly ')) + r('fixed the ') + dele(2, 'old') + ins(3, r('new')) + r(' wording.'))
            + p(r('A deletion ') + dele(4, 'that Bob made ', B1) + r('and an insertion') + ins(5, r(' by Bob'), B1) + r('.'))
            # Paragraph split (inserted mark) and merge (deleted mark).
            + p(r('This paragraph was split '), f'<w:rPr><w:ins w:id="6" {A1}/></w:rPr>')
            + p(r('here, and this one '), f'<w:rPr><w:del w:id="7" {A1}/></w:rPr>')
            + p(r('was merged with the one before.'))
            # Text Ann inserted and Bob deleted again.
            + p(r('Inserted then deleted: ') + ins(8, r('kept') + dele(9, ' gone', B1)) + r('.'))
            # Anonymous (scrubbed) change.
            + p(r('Scrubbed:') + ins(10, r(' anonymous'), 'w:author="Author"') + r('.'))
            + p(r('Formatted insertion:') + ins(11, r(' ') + r('bold', '<w:b/>') + r(' and ') + r('italic', '<w:i/>')) + r('.')))
    write('tracked-changes.docx', body)


def comments():
    def comment(i, who, text, para_id, extra=''):
        initials = 'AE' if who == A1 else 'BW'
        return (f'<w:comment w:id="{i}" {who} w:initials="{initials}">'
                f'<w:p w14:paraId="{para_id}"><w:r><w:annotationRef/></w:r>{r(text)}{extra}</w:p></w:comment>')
    body = (p(r('Comments'), '<w:pStyle w:val="Heading1"/>')
            + p(r('One ') + '<w:commentRangeStart w:id="0"/>' + r('range that crosses')
                + '<w:commentRangeStart w:id="1"/>' + r(' into'))
            + p(r('the next paragraph') + '<w:commentRangeEnd w:id="0"/>'
                + '<w:r><w:commentReference w:id="0"/></w:r>' + r(' and overlaps another') + '<w:commentRangeEnd w:id="1"/>'
                + '<w:r><w:commentReference w:id="1"/></w:r>' + r('.'))
            + p(r('A point comment here') + '<w:r><w:commentReference w:id="2"/></w:r>' + r(' and a thread on ')
                + '<w:commentRangeStart w:id="3"/><w:commentRangeStart w:id="4"/>' + r('this phrase')
                + '<w:commentRangeEnd w:id="3"/><w:r><w:commentReference w:id="3"/></w:r>'
                + '<w:commentRangeEnd w:id="4"/><w:r><w:commentReference w:id="4"/></w:r>' + r('.'))
            + p(r('A comment on ') + '<w:commentRangeStart w:id="5"/>' + ins(20, r('inserted text'), B1)
                + '<w:commentRangeEnd w:id="5"/><w:r><w:commentReference w:id="5"/></w:r>' + r('.')))
    cs = (comment(0, A1, 'Crosses a paragraph break.', '10000001')
          + comment(1, B1, 'Overlaps the first one.', '10000002')
          + comment(2, A1, 'A point comment, no range.', '10000003')
          + f'<w:comment w:id="3" {A1} w:initials="AE"><w:p w14:paraId="10000004"><w:r><w:annotationRef/></w:r>{r("Is this ")}{r("right", "<w:b/>")}{r("?")}</w:p>'
            f'<w:p w14:paraId="10000005">{r("Second paragraph of the comment.")}</w:p></w:comment>'
          + comment(4, B1, 'Yes, it is. (a reply)', '10000006')
          + comment(5, B1, 'Resolved comment on an insertion.', '10000007'))
    ext = ('<w15:commentEx w15:paraId="10000001" w15:done="0"/><w15:commentEx w15:paraId="10000002" w15:done="0"/>'
           '<w15:commentEx w15:paraId="10000003" w15:done="0"/><w15:commentEx w15:paraId="10000005" w15:done="0"/>'
           '<w15:commentEx w15:paraId="10000006" w15:paraIdParent="10000005" w15:done="0"/>'
           '<w15:commentEx w15:paraId="10000007" w15:done="1"/>')
    write('comments.docx', body, comments=cs, comments_ext=ext)


def moves_and_formatting():
    body = (p(r('Moves and formatting'), '<w:pStyle w:val="Heading1"/>')
            + p(r('First paragraph stays.'))
            + f'<w:moveFromRangeStart w:id="1" {A1} w:name="move1"/>'
            + p(f'<w:moveFrom w:id="2" {A1}>' + r('This sentence moves down.') + '</w:moveFrom>',
                f'<w:rPr><w:moveFrom w:id="3" {A1}/></w:rPr>')
            + '<w:moveFromRangeEnd w:id="1"/>'
            + p(r('Middle paragraph stays.'))
            + f'<w:moveToRangeStart w:id="4" {A1} w:name="move1"/>'
            + p(f'<w:moveTo w:id="5" {A1}>' + r('This sentence moves down.') + '</w:moveTo>',
                f'<w:rPr><w:moveTo w:id="6" {A1}/></w:rPr>')
            + '<w:moveToRangeEnd w:id="4"/>'
            + p(r('Some ') + f'<w:r><w:rPr><w:b/><w:rPrChange w:id="7" {B1}><w:rPr/></w:rPrChange></w:rPr>{t("bold was applied")}</w:r>'
                + r(' and ') + f'<w:r><w:rPr><w:rPrChange w:id="8" {B1}><w:rPr><w:i/></w:rPr></w:rPrChange></w:rPr>{t("italic removed")}</w:r>' + r('.'))
            + p(r('This paragraph was centred and indented.'),
                f'<w:ind w:left="720" w:hanging="360"/><w:jc w:val="center"/><w:pPrChange w:id="9" {B1}><w:pPr><w:jc w:val="left"/></w:pPr></w:pPrChange>')
            + p(r('Restyled as a quote.'), f'<w:pStyle w:val="Quote"/><w:pPrChange w:id="10" {B1}><w:pPr/></w:pPrChange>'))
    write('moves-and-formatting.docx', body)


def lists_tables_notes():
    def item(text, num, lvl=0):
        return p(r(text), f'<w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="{lvl}"/><w:numId w:val="{num}"/></w:numPr>')

    def cell(text, tcpr=''):
        return f'<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/>{tcpr}</w:tcPr>{p(text)}</w:tc>'
    table = ('<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>'
             '<w:tr><w:trPr><w:tblHeader/></w:trPr>' + cell(r('Name', '<w:b/>')) + cell(r('Role', '<w:b/>')) + cell(r('Notes', '<w:b/>')) + '</w:tr>'
             '<w:tr>' + cell(r('Ann'), '<w:vMerge w:val="restart"/>') + cell(r('Editor')) + cell(r('Tracks ') + ins(30, r('all'))) + '</w:tr>'
             '<w:tr>' + cell('', '<w:vMerge/>') + cell(r('Reviewer')) + cell(r('Comments')) + '</w:tr>'
             f'<w:tr><w:trPr><w:ins w:id="31" {B1}/></w:trPr>' + cell(ins(32, r('Bob'), B1)) + cell(ins(33, r('Writer'), B1), '<w:gridSpan w:val="2"/>') + '</w:tr>'
             f'<w:tr><w:trPr><w:del w:id="34" {A1}/></w:trPr>' + cell(dele(35, 'Cy')) + cell(dele(36, 'Intern')) + cell(dele(37, 'Left')) + '</w:tr>'
             '</w:tbl>')
    body = (p(r('Lists, tables and notes'), '<w:pStyle w:val="Heading1"/>')
            + item('First step', 1) + item('Second step', 1) + item('a nested point', 1, 1) + item('another nested point', 1, 1)
            + item('Third step', 1)
            + p(r('An interruption.'))
            + item('Fourth step continues the numbering', 1)
            + item('A bullet', 2) + item('A nested bullet', 2, 1) + item('Another bullet', 2)
            + item('Restarted at five', 3) + item('Six', 3) + item('Seven, from another instance of the same numbering', 1)
            + p(r('See the table') + '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r>'
                + r(' and the ') + '<w:hyperlink r:id="rId9" w:history="1">' + r('website', '<w:rStyle w:val="Hyperlink"/>') + '</w:hyperlink>'
                + r(' or the ') + '<w:hyperlink w:anchor="details">' + r('details') + '</w:hyperlink>' + r('.'))
            + table
            + p('<w:bookmarkStart w:id="0" w:name="details"/>' + r('Details') + '<w:bookmarkEnd w:id="0"/>', '<w:pStyle w:val="Heading2"/>')
            + p(r('Field result: ') + '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "https://example.org/field" </w:instrText></w:r>'
                '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + r('a field link') + '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
                + r(', a tab') + '<w:r><w:tab/></w:r>' + r('and a break') + '<w:r><w:br/></w:r>' + r('then more.')))
    notes = f'<w:footnote w:id="1"><w:p><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r>{r(" A footnote with ")}{ins(40, r("an insertion"), B1)}{r(".")}</w:p></w:footnote>'
    write('lists-tables-notes.docx', body, footnotes=notes,
          rels_extra=[f'<Relationship Id="rId9" Type="{REL}hyperlink" Target="https://example.org/" TargetMode="External"/>'])


def main():
    tracked_changes()
    comments()
    moves_and_formatting()
    lists_tables_notes()
    if shutil.which('soffice'):
        with tempfile.TemporaryDirectory() as tmp:
            for name in ['tracked-changes', 'comments']:
                src = os.path.join(tmp, name + '.docx')
                shutil.copy(os.path.join(HERE, name + '.docx'), src)
                out = os.path.join(tmp, 'out')
                subprocess.run(['soffice', f'-env:UserInstallation=file://{tmp}/profile', '--headless',
                                '--convert-to', 'docx:MS Word 2007 XML', '--outdir', out, src], check=True, capture_output=True)
                shutil.copy(os.path.join(out, name + '.docx'), os.path.join(HERE, f'libreoffice-{name}.docx'))


main()
