#!/usr/bin/env python3
"""What pandoc drops and Redline keeps, counted on one reviewed document.

Usage: scripts/compare-pandoc.py REDLINE SOURCE.md
Writes SOURCE as a Word document with Redline (the reviewed DOCX), then converts that DOCX with both tools,
DOCX -> DOCX and DOCX -> Markdown (pandoc by default, and with --track-changes=all, its most faithful
mode; Redline with CriticMarkup), and counts each kind of review information in every result:
  DOCX: the WordprocessingML elements themselves (w:ins, w:del, w:moveFrom, w:rPrChange, w:pPrChange,
        comments.xml entries, replies and resolved flags in commentsExtended.xml), summed over parts;
  pandoc Markdown: its spans (.insertion, .deletion, .comment-start, .paragraph-insertion); it has no
        syntax for moves, formatting changes, replies or resolved comments;
  Redline Markdown: CriticMarkup marks (insertions/deletions including substitution halves and move
        ends, [move=], [format-change], [style-change], comments, reply and resolved flags).
Prints a Markdown table (the table in docs/manual.md, "Coming from pandoc").
"""
import re
import subprocess
import sys
import tempfile
import zipfile

redline, source = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="redline-vs-pandoc-")
reviewed = f"{work}/reviewed.docx"
subprocess.run([redline, "convert", source, "-o", reviewed, "-q"], check=True)
subprocess.run(["pandoc", "-f", "docx", "-t", "docx", "--track-changes=all", reviewed, "-o", f"{work}/pandoc.docx"], check=True)
subprocess.run([redline, "convert", reviewed, "-o", f"{work}/redline.docx", "-q"], check=True)
pandoc_md = subprocess.run(["pandoc", "-f", "docx", "-t", "markdown", "--track-changes=all", reviewed],
                           check=True, capture_output=True, text=True).stdout
pandoc_default_md = subprocess.run(["pandoc", "-f", "docx", "-t", "markdown", reviewed],
                                   check=True, capture_output=True, text=True).stdout
redline_md = subprocess.run([redline, "convert", reviewed, "--to", "md", "-q"], check=True, capture_output=True, text=True).stdout

ROWS = ["insertions", "deletions", "moves (paired)", "formatting changes", "paragraph format changes",
        "comments", "comment replies (threaded)", "resolved comments", "inserted paragraph breaks"]


def docx_counts(path):
    z = zipfile.ZipFile(path)
    xml = "".join(z.read(n).decode() for n in z.namelist() if n.startswith("word/") and n.endswith(".xml")
                  and not n.startswith("word/comments"))
    comments = z.read("word/comments.xml").decode() if "word/comments.xml" in z.namelist() else ""
    ext = z.read("word/commentsExtended.xml").decode() if "word/commentsExtended.xml" in z.namelist() else ""
    # Run-level changes only (<w:ins> inside <w:rPr> marks an inserted paragraph break, counted apart).
    breaks = len(re.findall(r"<w:pPr>(?:(?!</w:pPr>).)*<w:rPr>(?:(?!</w:rPr>).)*<w:ins ", xml))
    return {
        "insertions": len(re.findall(r"<w:ins ", xml)) - breaks,
        "deletions": len(re.findall(r"<w:del ", xml)),
        "moves (paired)": len(re.findall(r"<w:moveFrom ", xml)),
        "formatting changes": len(re.findall(r"<w:rPrChange", xml)),
        "paragraph format changes": len(re.findall(r"<w:pPrChange", xml)),
        "comments": len(re.findall(r"<w:comment ", comments)),
        "comment replies (threaded)": len(re.findall(r"w15:paraIdParent", ext)),
        "resolved comments": len(re.findall(r'w15:done="1"', ext)),
        "inserted paragraph breaks": breaks,
    }


def pandoc_md_counts(md):
    return {
        "insertions": md.count("{.insertion"),
        "deletions": md.count("{.deletion"),
        "moves (paired)": 0,
        "formatting changes": 0,
        "paragraph format changes": 0,
        "comments": md.count("{.comment-start"),
        "comment replies (threaded)": 0,
        "resolved comments": 0,
        "inserted paragraph breaks": md.count("{.paragraph-insertion"),
    }


def redline_md_counts(md):
    attributions = re.findall(r"\{>>(.*?)<<\}", md, re.S)
    comments = [a for a in attributions if "|" in a]
    subs = md.count("{~~")
    moves = sum("[move=" in a for a in attributions) // 2  # each move: one {--…--} and one {++…++}
    return {
        "insertions": len(re.findall(r"\{\+\+(?!\n\n\+\+\})", md)) + subs - moves,
        "deletions": md.count("{--") + subs - moves,
        "moves (paired)": moves,
        "formatting changes": sum("[format-change" in a for a in attributions),
        "paragraph format changes": sum("[style-change" in a for a in attributions),
        "comments": len(comments),
        "comment replies (threaded)": len(re.findall(r"<<\}\{>>@[^|<]*\|", md)),
        "resolved comments": sum("resolved" in a.split("|")[0] for a in comments),
        "inserted paragraph breaks": md.count("{++\n\n++}"),
    }


cols = [("reviewed DOCX (input)", docx_counts(reviewed)),
        ("pandoc → DOCX (--track-changes=all)", docx_counts(f"{work}/pandoc.docx")),
        ("Redline → DOCX", docx_counts(f"{work}/redline.docx")),
        ("pandoc → Markdown (default)", pandoc_md_counts(pandoc_default_md)),
        ("pandoc → Markdown (--track-changes=all)", pandoc_md_counts(pandoc_md)),
        ("Redline → Markdown", redline_md_counts(redline_md))]
version = subprocess.run(["pandoc", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
print(f"<!-- scripts/compare-pandoc.py on {source} with {version} -->")
print("| in the document | " + " | ".join(c for c, _ in cols) + " |")
print("|---|" + "---:|" * len(cols))
for row in ROWS:
    print(f"| {row} | " + " | ".join(str(counts[row]) for _, counts in cols) + " |")
