#!/usr/bin/env python3
"""Writes the hostile and broken inputs in this folder (committed; rerun to regenerate).
Needs python3; the legacy .doc needs LibreOffice (soffice) and the encrypted DOCX msoffcrypto-tool."""
import io, os, shutil, subprocess, sys, tempfile, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
CT = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
      '<Default Extension="xml" ContentType="application/xml"/>'
      '<Override PartName="/word/document.xml" '
      'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
        'Target="word/document.xml"/></Relationships>')


def document(body):
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<w:document xmlns:w="{W}"><w:body>{body}</w:body></w:document>')


GOOD = document('<w:p><w:r><w:t>Hello, world.</w:t></w:r></w:p>')


def docx(name, parts, compression=zipfile.ZIP_DEFLATED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', compression) as z:
        for part, data in parts:
            z.writestr(zipfile.ZipInfo(part, (2024, 1, 1, 0, 0, 0)), data, compress_type=compression)
    data = buf.getvalue()
    if name:
        with open(os.path.join(HERE, name), 'wb') as f:
            f.write(data)
    return data


def base(doc=GOOD, extra=()):
    return [('[Content_Types].xml', CT), ('_rels/.rels', RELS), ('word/document.xml', doc), *extra]


def main():
    good = docx('good.docx', base())
    with open(os.path.join(HERE, 'not-a-zip.docx'), 'w') as f:
        f.write('This is a plain text file that someone renamed to .docx.\n')
    with open(os.path.join(HERE, 'truncated.docx'), 'wb') as f:
        f.write(good[:len(good) * 2 // 3])
    # 300 MB of spaces at about 1000:1: past Limits.ratioCheckedAbove (256 MB), so the ratio refuses it.
    docx('zip-bomb.docx', base(document('<w:p><w:r><w:t>x</w:t></w:r></w:p>' + ' ' * (300 << 20))))
    docx('entry-dotdot.docx', base(extra=[('../../evil.xml', '<x/>')]))
    docx('entry-absolute.docx', base(extra=[('/etc/evil.xml', '<x/>')]))
    docx('missing-document.docx', [('[Content_Types].xml', CT), ('_rels/.rels', RELS)])
    docx('malformed-xml.docx', base(document('<w:p><w:r><w:t>unclosed</w:r></w:p>')))
    docx('xxe.docx', base('<?xml version="1.0" encoding="UTF-8"?>\n'
                          '<!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
                          f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>'))
    lol = ''.join(f'<!ENTITY l{i} "{"&l%d;" % (i - 1) * 10}">' for i in range(1, 10))
    docx('billion-laughs.docx', base('<?xml version="1.0" encoding="UTF-8"?>\n'
                                     f'<!DOCTYPE d [<!ENTITY l0 "lol">{lol}]>\n'
                                     f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>&l9;</w:t></w:r></w:p></w:body></w:document>'))
    docx('invalid-utf8.docx', base(GOOD.encode().replace(b'Hello', b'H\xc3\x28llo\xff')))

    # Legacy Word 97-2003 and an encrypted DOCX: both are OLE compound files (D0 CF 11 E0).
    if shutil.which('soffice'):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, 'legacy.docx')
            with open(src, 'wb') as f:
                f.write(good)
            subprocess.run(['soffice', f'-env:UserInstallation=file://{tmp}/profile', '--headless',
                            '--convert-to', 'doc', '--outdir', tmp, src], check=True, capture_output=True)
            shutil.copy(os.path.join(tmp, 'legacy.doc'), os.path.join(HERE, 'legacy.doc'))
    else:
        print('soffice not found: legacy.doc not regenerated', file=sys.stderr)
    try:
        import msoffcrypto.format.ooxml as ooxml
        out = io.BytesIO()
        ooxml.OOXMLFile(io.BytesIO(good)).encrypt('secret', out)
        with open(os.path.join(HERE, 'encrypted.docx'), 'wb') as f:
            f.write(out.getvalue())
    except ImportError:
        print('msoffcrypto-tool not installed: encrypted.docx not regenerated', file=sys.stderr)


main()
