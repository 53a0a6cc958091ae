#!/usr/bin/env python3
"""Makes the small test pictures and the documents that show them (Corpus/media/).

No imaging library: the PNG is written with zlib, the JPEG by a tiny baseline encoder (grey 8x8 blocks of
one value each, so every block is a DC coefficient and an end-of-block). Run from this folder:
    python3 make-pictures.py
Outputs (all deterministic): pictures/red-square.png (24x16, pHYs 150 dpi), pictures/two-greys.jpg
(16x8, JFIF 72 dpi), from-markdown.md, from-rtf.rtf, from-word.docx (python-docx).
"""
import base64
import os
import struct
import zlib


def png(width, height, pixel, dpi=None):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    if dpi:
        ppm = round(dpi / 0.0254)
        out += chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    return out + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def jpeg(blocks_wide, blocks_high, grey, dpi=72):
    """A greyscale baseline JPEG whose 8x8 block (bx, by) is the single value grey(bx, by)."""
    out = bytearray(b"\xff\xd8")
    out += b"\xff\xe0" + struct.pack(">H5sBBBHHBB", 16, b"JFIF\x00", 1, 1, 1, dpi, dpi, 0, 0)
    out += b"\xff\xdb" + struct.pack(">HB", 67, 0) + bytes([1] * 64)          # all-ones quantisation
    out += b"\xff\xc0" + struct.pack(">HBHHBBBB", 11, 8, blocks_high * 8, blocks_wide * 8, 1, 1, 0x11, 0)
    # DC table: categories 0..11, every code 4 bits long. AC table: only end-of-block, code "0".
    out += b"\xff\xc4" + struct.pack(">HB", 2 + 1 + 16 + 12, 0x00) + bytes([0, 0, 0, 12] + [0] * 12) + bytes(range(12))
    out += b"\xff\xc4" + struct.pack(">HB", 2 + 1 + 16 + 1, 0x10) + bytes([1] + [0] * 15) + b"\x00"
    out += b"\xff\xda" + struct.pack(">HBBBBBB", 8, 1, 1, 0x00, 0, 63, 0)
    bits = []
    previous = 0
    for by in range(blocks_high):
        for bx in range(blocks_wide):
            dc = 8 * (grey(bx, by) - 128)
            diff, previous = dc - previous, dc
            cat = abs(diff).bit_length()
            bits += [int(b) for b in format(cat, "04b")]
            if cat:
                v = diff if diff > 0 else diff + (1 << cat) - 1
                bits += [int(b) for b in format(v, "0%db" % cat)]
            bits.append(0)  # end of block
    while len(bits) % 8:
        bits.append(1)
    for i in range(0, len(bits), 8):
        byte = int("".join(map(str, bits[i:i + 8])), 2)
        out.append(byte)
        if byte == 0xFF:
            out.append(0)
    return bytes(out + b"\xff\xd9")


def main():
    os.makedirs("pictures", exist_ok=True)
    red = png(24, 16, lambda x, y: (220, 30, 30) if (x // 4 + y // 4) % 2 else (250, 240, 240), dpi=150)
    grey = jpeg(2, 1, lambda bx, by: 60 if bx == 0 else 200)
    open("pictures/red-square.png", "wb").write(red)
    open("pictures/two-greys.jpg", "wb").write(grey)
    tiny = png(2, 2, lambda x, y: (0, 90, 200))
    uri = "data:image/png;base64," + base64.b64encode(tiny).decode()

    open("from-markdown.md", "w").write(
        "# Figures\n\n"
        "A chequered square: ![A red and white chequer](pictures/red-square.png \"Chequer\") and again "
        "![The same chequer](pictures/red-square.png).\n\n"
        "Two greys at half size: ![Two grey blocks](pictures/two-greys.jpg){width=0.1111in height=0.0556in}\n\n"
        "An inserted picture: {++![Inserted blue](" + uri + ")++} and a deleted one: "
        "{--![Deleted chequer](pictures/red-square.png)--}.\n\n"
        "Not embedded: ![remote](https://example.com/logo.png), ![missing](pictures/none.png), "
        "![outside](../../README.md).\n")

    def hexed(b):
        h = b.hex()
        return "\n".join(h[i:i + 64] for i in range(0, len(h), 64))
    open("from-rtf.rtf", "w").write(
        "{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Times New Roman;}}\n"
        "{\\*\\revtbl{Unknown;}{Ada Reviewer;}}\n"
        "\\pard\\plain A PNG with alt text: {\\*\\shppict{\\pict{\\*\\picprop{\\sp{\\sn wzDescription}{\\sv A red chequer}}}"
        "\\pngblip\\picw24\\pich16\\picwgoal2880\\pichgoal1920\n" + hexed(red) + "}}"
        "{\\nonshppict{\\pict\\wmetafile8 0100}}.\\par\n"
        "\\pard\\plain A JPEG: {\\pict\\jpegblip\\picw16\\pich8\\picwgoal240\\pichgoal120\n" + hexed(grey) + "}\\par\n"
        "\\pard\\plain Inserted: {\\revised\\revauth1\\revdttm1180682240 {\\*\\shppict{\\pict\\pngblip\n" + hexed(red) + "}}}\\par\n"
        "}\n")

    try:
        import docx
        from docx.shared import Inches
    except ImportError:
        print("python-docx not installed: from-word.docx not made")
        return
    d = docx.Document()
    d.core_properties.created = d.core_properties.modified = __import__("datetime").datetime(2024, 1, 1)
    d.add_heading("Figures", 1)
    p = d.add_paragraph("A chequer: ")
    p.add_run().add_picture("pictures/red-square.png", width=Inches(1))
    p.add_run(" and the same picture again: ")
    p.add_run().add_picture("pictures/red-square.png", width=Inches(0.5))
    p = d.add_paragraph("Two greys: ")
    p.add_run().add_picture("pictures/two-greys.jpg")
    for shape in d.inline_shapes:
        shape._inline.docPr.set("descr", "Test picture")
    d.save("from-word.docx")


if __name__ == "__main__":
    main()
