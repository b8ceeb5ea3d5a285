#!/usr/bin/python3
"""Writes small, valid PDFs for the tests: pages of text lines in Helvetica, an Info dictionary,
an outline (bookmarks), and nothing else (no fonts embedded, no compression), so what a test
asserts about extraction is exactly what it wrote. Also importable: make_pdf(path, pages, info,
outline), and make_cjk_pdf(path, text): one line of Korean set in a CID font that is not
embedded, which poppler reads only with poppler-data's CMaps.

Usage: make_pdf.py OUT.pdf 'page one line 1|page one line 2' 'page two ...' [--title T]
                   [--outline JSON]
A page is its lines joined by '|'; an empty line ('||') leaves a blank line (a paragraph break).
An outline is a JSON list of entries {"title": T, "page": N (1-based), "named": true|false,
"children": [...]}; a named entry points to its page through the catalog's /Dests by name.
"""
import json
import sys


def _escape(text):
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _add_outline(add, objects, entries, parent, page_ids, dests):
    """Adds the outline items of `entries` under `parent`; (first id, last id, count)."""
    ids = [len(objects) + 1 + i for i in range(len(entries))]
    for _ in entries:
        add(b"")  # reserved; filled in below once the children have ids
    count = len(entries)
    for i, entry in enumerate(entries):
        page_ref = b"%d 0 R" % page_ids[entry["page"] - 1]
        if entry.get("named"):
            name = "d%d" % ids[i]
            dests.append(b"/%s [%s /Fit]" % (name.encode(), page_ref))
            dest = b"/Dest /" + name.encode()
        else:
            dest = b"/Dest [%s /Fit]" % page_ref
        body = b"<< /Title (%s) /Parent %d 0 R %s" % (_escape(entry["title"]).encode("latin-1"),
                                                      parent, dest)
        if i > 0:
            body += b" /Prev %d 0 R" % ids[i - 1]
        if i + 1 < len(entries):
            body += b" /Next %d 0 R" % ids[i + 1]
        children = entry.get("children") or []
        if children:
            first, last, n = _add_outline(add, objects, children, ids[i], page_ids, dests)
            body += b" /First %d 0 R /Last %d 0 R /Count %d" % (first, last, n)
            count += n
        objects[ids[i] - 1] = body + b" >>"
    return ids[0], ids[-1], count


def make_pdf(path, pages, info=None, outline=None):
    """pages: a list of pages, each a list of lines (str, Latin-1). info: {"Title": ...}.
    outline: entries as the usage above says."""
    objects = []  # bodies of objects 1..n

    def add(body):
        objects.append(body)
        return len(objects)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
               b"/Encoding /WinAnsiEncoding >>")
    pages_id = len(objects) + 1 + 2 * len(pages)  # after every page's content and page object
    kids = []
    for lines in pages:
        ops = ["BT", "/F1 11 Tf", "14 TL", "72 750 Td"]
        for line in lines:
            ops.append(f"({_escape(line)}) Tj T*")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] "
                        b"/Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>"
                        % (pages_id, font, content)))
    assert add(b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) +
               b"] /Count %d >>" % len(kids)) == pages_id
    extra = b""
    if outline:
        root = add(b"")
        dests = []
        first, last, count = _add_outline(add, objects, outline, root, kids, dests)
        objects[root - 1] = b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (
            first, last, count)
        extra += b" /Outlines %d 0 R /PageMode /UseOutlines" % root
        if dests:
            extra += b" /Dests << " + b" ".join(dests) + b" >>"
    catalog = add(b"<< /Type /Catalog /Pages %d 0 R%s >>" % (pages_id, extra))
    info_id = None
    if info:
        entries = b" ".join(b"/%s (%s)" % (k.encode(), _escape(v).encode("latin-1"))
                            for k, v in info.items())
        info_id = add(b"<< " + entries + b" >>")

    write_pdf(path, objects, catalog, info_id)


def write_pdf(path, objects, root, info=None):
    """Writes `objects` (the bodies of objects 1..n) as a PDF file with a cross-reference table;
    `root` is the catalog's object number, `info` the Info dictionary's (or None)."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    trailer = b"<< /Size %d /Root %d 0 R" % (len(objects) + 1, root)
    if info:
        trailer += b" /Info %d 0 R" % info
    out += b"trailer\n" + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    with open(path, "wb") as f:
        f.write(out)


def make_cjk_pdf(path, text):
    """A one-page PDF whose `text` (Hangul and ASCII) is set in the non-embedded Korean CID font
    HYSMyeongJo-Medium through the predefined CMap UniKS-UCS2-H (Adobe-Korea1): without
    poppler-data, poppler says "Missing language pack" and drops the text."""
    codes = "".join(f"{ord(c):04X}" for c in text)
    content = f"BT /F1 24 Tf 72 700 Td <{codes}> Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /HYSMyeongJo-Medium "
        b"/Encoding /UniKS-UCS2-H /DescendantFonts [6 0 R] >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HYSMyeongJo-Medium "
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Korea1) /Supplement 2 >> "
        b"/FontDescriptor 7 0 R /DW 1000 >>",
        b"<< /Type /FontDescriptor /FontName /HYSMyeongJo-Medium /Flags 6 "
        b"/FontBBox [0 -148 1001 880] /ItalicAngle 0 /Ascent 880 /Descent -120 "
        b"/CapHeight 880 /StemV 60 >>",
    ]
    write_pdf(path, objects, 1)


def main(argv):
    title = outline = None
    if "--title" in argv:
        i = argv.index("--title")
        title = argv[i + 1]
        del argv[i:i + 2]
    if "--outline" in argv:
        i = argv.index("--outline")
        outline = json.loads(argv[i + 1])
        del argv[i:i + 2]
    out, pages = argv[0], [p.split("|") for p in argv[1:]]
    make_pdf(out, pages, {"Title": title} if title else None, outline)


if __name__ == "__main__":
    main(sys.argv[1:])
