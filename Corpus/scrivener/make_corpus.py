#!/usr/bin/env python3
"""Writes the text files of the hand-built Scrivener projects in this folder (the binders, *.scrivx, are
written by hand). RTF is written the way Scrivener for Mac writes it: a Cocoa RTF header, Palatino 13 pt
(\\fs26), line-height multiple 1.2 (\\sl288\\slmult1), first-line indent 0.5 in (\\fi720), paragraphs ended
by a backslash-newline; comments and linked footnotes as HYPERLINK "scrivcmt://ID" fields with their text in
content.comments; links between documents as HYPERLINK "scrivlnk://UUID"; inline footnotes and annotations
as the literal text {\\Scrv_fn=...\\end_Scrv_fn} and {\\Scrv_annot ... \\text=...\\end_Scrv_annot}.
Run from this folder: python3 make_corpus.py"""
import os

HEADER = r"""{\rtf1\ansi\ansicpg1252\cocoartf2761
\cocoatextscaling0\cocoaplatform0{\fonttbl\f0\fnil\fcharset0 Palatino-Roman;\f1\fnil\fcharset0 Palatino-Italic;\f2\fnil\fcharset0 Palatino-Bold;
}
{\colortbl;\red255\green255\blue255;}
{\*\expandedcolortbl;;}
\pard\tx360\tx720\tx1080\tx1440\tx1800\tx2160\tx2880\tx3600\tx4320\fi720\sl288\slmult1\pardirnatural\partightenfactor0

\f0\fs26 \cf0 """

COMMENT_HEADER = r"""{\rtf1\ansi\ansicpg1252\cocoartf2761
\cocoatextscaling0\cocoaplatform0{\fonttbl\f0\fnil\fcharset0 HelveticaNeue;}
{\colortbl;\red255\green255\blue255;}
{\*\expandedcolortbl;;}
\pard\tx560\tx1120\tx1680\tx2240\tx2800\tx3360\tx3920\tx4480\tx5040\tx5600\tx6160\tx6720\pardirnatural\partightenfactor0

\f0\fs22 \cf0 """

CENTERED = r"\pard\tx360\tx720\tx1080\tx1440\tx1800\tx2160\tx2880\tx3600\tx4320\sl288\slmult1\pardirnatural\qc\partightenfactor0" + "\n"
BODY = r"\pard\tx360\tx720\tx1080\tx1440\tx1800\tx2160\tx2880\tx3600\tx4320\fi720\sl288\slmult1\pardirnatural\partightenfactor0" + "\n"


def rtf(*paragraphs):
    """A Scrivener text: paragraphs joined by backslash-newline, as Cocoa writes them."""
    return HEADER + "\\\n".join(paragraphs) + "}"


def comment(text):
    return COMMENT_HEADER + text + "}"


def comments(entries):
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<Comments>"]
    for cid, footnote, text in entries:
        out.append(f'    <Comment ID="{cid}" Footnote="{"Yes" if footnote else "No"}" Color="0.99913 0.954826 0.756384">'
                   f"<![CDATA[{comment(text)}]]></Comment>")
    out.append("</Comments>")
    return "\n".join(out) + "\n"


def field(url, text):
    return '{\\field{\\*\\fldinst{HYPERLINK "' + url + '"}}{\\fldrslt ' + text + "}}"


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(content if isinstance(content, bytes) else content.encode("ascii"))


# ---------------------------------------------------------------- Lighthouse.scriv (Scrivener 3)
P = "Lighthouse.scriv"
U = "8A5C2E10-3B7D-4F21-9E6A-0C1D2E3F4A"
C = "C3E1A7F0-1D2B-4C5D-8E9F-0A1B2C3D4E"
D = f"{P}/Files/Data/"
write(f"{P}/Files/version.txt", "23")

write(D + U + "04/content.rtf", rtf(
    "The lamp had been lit every night for " + field(f"scrivcmt://{C}01", "forty years") + ".",
    "She climbed the stairs slowly, " + field(f"scrivcmt://{C}02", "counting the steps")
    + r" and \f1\i remembering\f0\i0  her father.",
    "The keeper was waiting (see " + field(f"scrivlnk://{U}06", "The Keeper") + r"). The tide was high"
    r"\{\\Scrv_fn=Tide tables for 1923, page 12.\\end_Scrv_fn\} and the wind "
    r"\{\\Scrv_annot \\color=\{\\R=1.0\\G=0.6\\B=0.2\} \\text=Check the wind direction.\\end_Scrv_annot\}rose.",
    CENTERED + r"\cf0 #",
    BODY + r"\cf0 Caf\'e9 au lait \'97 she said \'93enough\'94 and meant it.",
))
write(D + U + "04/synopsis.txt", "Anna reaches the island and meets the keeper.")
write(D + U + "04/notes.rtf", rtf(r"Remember the \f1\i storm\f0\i0  from the opening.", "Second line of notes."))
write(D + U + "04/content.comments", comments([
    (C + "01", False, "Forty or fifty? Check the parish records."),
    (C + "02", True, "There are 127 steps in the tower."),
]))

write(D + U + "05/content.rtf", rtf("This scene was cut and must not appear."))

write(D + U + "06/content.rtf", rtf(
    r"He had \f2\b never\f0\b0  left the island. <$Scr_Ps::0>He kept the log in a green book.<!$Scr_Ps::0>",
    "He said nothing at all."))
write(D + U + "06/content.comments", comments([
    (C + "03", False, "Unanchored: the text this was on was deleted."),
]))

write(D + U + "03/synopsis.txt", "The arrival on the island.\n")

write(D + U + "08/content.rtf", rtf(
    "The storm came in the night, as in " + field(f"scrivlnk://{U}31", "the old opening") + ".",
    "Nobody " + field(f"scrivcmt://{C}99", "slept") + "."))

for n, text in [("11", "Going down."), ("12", "Further."), ("13", "The cellar was dark."),
                ("14", "The well was deeper."), ("15", "At the bottom, a key.")]:
    write(D + U + n + "/content.rtf", rtf(text))

# Epilogue (16) has no files at all: a document nobody typed into.

write(D + U + "21/content.rtf", rtf(
    "The lamp burns paraffin. See " + field(f"scrivlnk://{U}04", "Arrival") + " and "
    + field("https://example.org/lighthouses", "the register") + "."))
write(D + U + "22/content.png", bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8ffff3f0005fe02fea7358184000000"
    "0049454e44ae426082"))

write(D + U + "31/content.rtf", rtf("It was a dark and stormy night."))

S = f"{P}/Snapshots/{U}04.snapshots/"
write(S + "2024-02-01-10-00-00+0100.rtf", rtf("The lamp had been lit every night."))
write(S + "index.xml", """<?xml version="1.0" encoding="UTF-8"?>
<SnapshotIndexes Version="1.0" BinderUUID="%s04">
    <Snapshot Date="2024-02-01 10:00:00 +0100">
        <Title>Before the rewrite</Title>
    </Snapshot>
</SnapshotIndexes>
""" % U)

# ---------------------------------------------------------------- Garden.scriv (Scrivener 2)
G = "Garden.scriv/Files/Docs/"
write(G + "3_synopsis.txt", "Where the garden begins.")
write(G + "4.rtf", rtf(
    "The gate was " + field("scrivcmt://5B0C2D3E-4F50-4A6B-8C7D-9E0F1A2B3C01", "green") + ", once.",
    "Roses grew " + field("scrivcmt://5B0C2D3E-4F50-4A6B-8C7D-9E0F1A2B3C02", "along the wall") + r" and \f1\i nobody\f0\i0  pruned them."))
write(G + "4_notes.rtf", rtf("Ask about the roses."))
write(G + "4_synopsis.txt", "The gate and the roses.")
write(G + "4.comments", comments([
    ("5B0C2D3E-4F50-4A6B-8C7D-9E0F1A2B3C01", False, "Was it green or blue?"),
    ("5B0C2D3E-4F50-4A6B-8C7D-9E0F1A2B3C02", True, "Climbing roses, planted 1950."),
]))
write(G + "5.rtf", rtf("Back to " + field("scrivlnk://4", "the gate") + " at dusk."))
write(G + "6.rtf", rtf("Excluded from compile."))
write(G + "8.rtf", rtf("Deleted text in the trash."))
