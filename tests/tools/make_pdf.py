#!/usr/bin/python3
"""Writes small, valid PDFs for the tests: pages of text lines in Helvetica, an Info dictionary,
and nothing else (no fonts embedded, no compression), so what a test asserts about extraction
is exactly what it wrote. Also importable: make_pdf(path, pages, info).

Usage: make_pdf.py OUT.pdf 'page one line 1|page one line 2' 'page two ...' [--title T]
A page is its lines joined by '|'; an empty line ('||') leaves a blank line (a paragraph break).
"""
import sys


def _escape(text):
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(path, pages, info=None):
    """pages: a list of pages, each a list of lines (str, Latin-1). info: {"Title": ...}."""
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
    catalog = add(b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id)
    info_id = None
    if info:
        entries = b" ".join(b"/%s (%s)" % (k.encode(), _escape(v).encode("latin-1"))
                            for k, v in info.items())
        info_id = add(b"<< " + entries + b" >>")

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    trailer = b"<< /Size %d /Root %d 0 R" % (len(objects) + 1, catalog)
    if info_id:
        trailer += b" /Info %d 0 R" % info_id
    out += b"trailer\n" + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    with open(path, "wb") as f:
        f.write(out)


def main(argv):
    title = None
    if "--title" in argv:
        i = argv.index("--title")
        title = argv[i + 1]
        del argv[i:i + 2]
    out, pages = argv[0], [p.split("|") for p in argv[1:]]
    make_pdf(out, pages, {"Title": title} if title else None)


if __name__ == "__main__":
    main(sys.argv[1:])
