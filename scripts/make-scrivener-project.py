#!/usr/bin/env python3
"""Generates a Scrivener 3 project for benchmarks: DOCS text documents in chapter folders (default 2,000
in 40 chapters), each a few paragraphs of Scrivener-style RTF (Palatino 13 pt, \\slmult, \\fi720) with
italics, and every 10th with a linked comment, every 20th with a linked footnote, every 25th with a link to
another document; synopses, notes, labels, statuses and keywords on many. Deterministic.
Usage: make-scrivener-project.py OUT.scriv [--docs N]"""
import argparse
import os
import random

WORDS = ("the lamp keeper island storm light tower stairs window sea night wind rope boat harbour gull salt "
         "stone glass oil wick log book door key bell fog rock shore tide wave current mist dawn dusk").split()

HEADER = (r"{\rtf1\ansi\ansicpg1252\cocoartf2761" "\n"
          r"\cocoatextscaling0\cocoaplatform0{\fonttbl\f0\fnil\fcharset0 Palatino-Roman;\f1\fnil\fcharset0 Palatino-Italic;}" "\n"
          r"{\colortbl;\red255\green255\blue255;}" "\n" r"{\*\expandedcolortbl;;}" "\n"
          r"\pard\tx360\tx720\tx1080\tx1440\tx1800\tx2160\tx2880\tx3600\tx4320\fi720\sl288\slmult1\pardirnatural\partightenfactor0"
          "\n\n" r"\f0\fs26 \cf0 ")


def uuid(n, kind):
    return "%08X-0000-4000-8000-%012X" % (kind, n)


def sentence(rng):
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 16))]
    if rng.random() < 0.3:
        i = rng.randrange(len(words))
        words[i] = r"\f1\i " + words[i] + r"\f0\i0 "
    return " ".join(words).capitalize() + "."


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="ascii") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--docs", type=int, default=2000)
    a = ap.parse_args()
    rng = random.Random(7)
    name = os.path.basename(a.out.rstrip("/"))[:-len(".scriv")] if a.out.endswith(".scriv") else "Bench"
    data = os.path.join(a.out, "Files", "Data")
    chapters = max(1, a.docs // 50)
    items = []
    doc = 0
    for c in range(chapters):
        scenes = []
        per = a.docs // chapters + (1 if c < a.docs % chapters else 0)
        for _ in range(per):
            doc += 1
            u = uuid(doc, 0xD0C)
            paragraphs = [" ".join(sentence(rng) for _ in range(rng.randint(2, 5))) for _ in range(rng.randint(3, 7))]
            if doc % 10 == 0:
                cid = uuid(doc, 0xC0)
                paragraphs[0] += r' {\field{\*\fldinst{HYPERLINK "scrivcmt://' + cid + r'"}}{\fldrslt marked words}}.'
                write(os.path.join(data, u, "content.comments"),
                      '<?xml version="1.0" encoding="UTF-8"?>\n<Comments>\n    <Comment ID="%s" Footnote="No" Color="1 0.95 0.75">'
                      "<![CDATA[%sCheck this passage.}]]></Comment>\n" % (cid, HEADER)
                      + ('    <Comment ID="%s" Footnote="Yes" Color="0.8 0.8 0.8"><![CDATA[%sA source.}]]></Comment>\n'
                         % (uuid(doc, 0xF0), HEADER) if doc % 20 == 0 else "") + "</Comments>\n")
            if doc % 20 == 0:
                paragraphs[-1] += r' {\field{\*\fldinst{HYPERLINK "scrivcmt://' + uuid(doc, 0xF0) + r'"}}{\fldrslt noted}}.'
            if doc % 25 == 0 and doc > 1:
                paragraphs[1] += r' See {\field{\*\fldinst{HYPERLINK "scrivlnk://' + uuid(doc - 1, 0xD0C) + r'"}}{\fldrslt the scene before}}.'
            write(os.path.join(data, u, "content.rtf"), HEADER + "\\\n".join(paragraphs) + "}")
            if doc % 3 == 0:
                write(os.path.join(data, u, "synopsis.txt"), sentence(rng).replace(r"\f1\i ", "").replace(r"\f0\i0 ", ""))
            if doc % 7 == 0:
                write(os.path.join(data, u, "notes.rtf"), HEADER + sentence(rng) + "}")
            meta = "<IncludeInCompile>Yes</IncludeInCompile><LabelID>%d</LabelID><StatusID>%d</StatusID>" % (doc % 3, doc % 4)
            kw = "<Keywords><KeywordID>%d</KeywordID></Keywords>" % (doc % 5) if doc % 4 == 0 else ""
            scenes.append('<BinderItem UUID="%s" Type="Text"><Title>Scene %d</Title><MetaData>%s</MetaData>%s</BinderItem>'
                          % (u, doc, meta, kw))
        items.append('<BinderItem UUID="%s" Type="Folder"><Title>Chapter %d</Title><MetaData><IncludeInCompile>Yes'
                     '</IncludeInCompile></MetaData><Children>%s</Children></BinderItem>' % (uuid(c + 1, 0xF01), c + 1, "\n".join(scenes)))
    binder = ('<?xml version="1.0" encoding="UTF-8"?>\n<ScrivenerProject Template="No" Version="2.0" Creator="SCRMAC-3.3.6-17164">\n'
              '<Binder>\n<BinderItem UUID="%s" Type="DraftFolder"><Title>Draft</Title><MetaData><IncludeInCompile>Yes'
              '</IncludeInCompile></MetaData><Children>\n%s\n</Children></BinderItem>\n'
              '<BinderItem UUID="%s" Type="ResearchFolder"><Title>Research</Title></BinderItem>\n'
              '<BinderItem UUID="%s" Type="TrashFolder"><Title>Trash</Title></BinderItem>\n</Binder>\n'
              '<LabelSettings><Title>Label</Title><Labels><Label ID="-1">No Label</Label><Label ID="0">Red</Label>'
              '<Label ID="1">Green</Label><Label ID="2">Blue</Label></Labels></LabelSettings>\n'
              '<StatusSettings><Title>Status</Title><StatusItems><Status ID="-1">No Status</Status><Status ID="0">To Do</Status>'
              '<Status ID="1">First Draft</Status><Status ID="2">Revised Draft</Status><Status ID="3">Done</Status></StatusItems></StatusSettings>\n'
              '<Keywords>%s</Keywords>\n</ScrivenerProject>\n'
              % (uuid(1, 0xA), "\n".join(items), uuid(2, 0xA), uuid(3, 0xA),
                 "".join('<Keyword ID="%d"><Title>%s</Title></Keyword>' % (k, WORDS[k]) for k in range(5))))
    write(os.path.join(a.out, name + ".scrivx"), binder)
    write(os.path.join(a.out, "Files", "version.txt"), "23")
    print("%s: %d documents in %d chapters" % (a.out, doc, chapters))


if __name__ == "__main__":
    main()
