#!/usr/bin/env python3
"""A DOCX with many distinct pictures, for measuring that memory stays flat (not a golden input).
    python3 make-many-pictures.py OUT.docx [COUNT] [KIB]
Each picture is a valid PNG header (so Word-like size parsing works) followed by KIB KiB of filler that
differs per picture; every picture is shown twice (the second time must not be stored again)."""
import random
import struct
import sys
import zlib

import docx
from docx.shared import Inches


def picture(i, kib):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    head = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 48, 8, 2, 0, 0, 0))
    filler = random.Random(i).randbytes(1024 * kib)  # incompressible, like real picture data
    return head + chunk(b"zzZz", filler) + chunk(b"IEND", b"")


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    kib = int(sys.argv[3]) if len(sys.argv) > 3 else 256
    d = docx.Document()
    import io
    for i in range(count):
        p = d.add_paragraph("Figure %d: " % (i + 1))
        data = picture(i, kib)
        p.add_run().add_picture(io.BytesIO(data), width=Inches(1))
        p.add_run(" again: ")
        p.add_run().add_picture(io.BytesIO(data), width=Inches(0.5))
    d.save(out)


if __name__ == "__main__":
    main()
