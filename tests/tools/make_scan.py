#!/usr/bin/python3
"""Scans for the OCR tests, made from text the tests choose: a page of large Helvetica lines
at known positions (a PDF written here) is rasterized by the real kebab-pdf worker, and the
grey pixels become a PNG image or the only content of an image-only PDF page, as a scanner
would make them. So a test knows where every line is on the page it OCRs.

  page_pgm(worker, lines, dpi)    -> (width, height, grey bytes): lines rendered at dpi
  png(width, height, grey)        -> PNG bytes (8-bit grey)
  image_pdf(path, scans, dpi)     -> writes a PDF, one page per (width, height, grey) image
  line_box(i, dpi)                -> (left, top, bottom) in pixels of line i of page_pgm
Lines start at (72, 700) pt from the bottom-left of a US Letter page, 20 pt Helvetica, 40 pt
apart, as in src/parse/ocr_test.cc.
"""
import os
import struct
import subprocess
import tempfile
import zlib


def _text_pdf(lines):
    ops = "BT /F1 20 Tf 40 TL 72 700 Td\n" + "".join(
        "(%s) Tj T*\n" % l.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        for l in lines) + "ET"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
               b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(ops), ops.encode("latin-1"))]
    return _pdf(objects)


def _pdf(objects):
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def page_pgm(worker, lines, dpi):
    """Renders `lines` with the kebab-pdf at `worker`: (width, height, grey bytes)."""
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([worker, "--render", tmp, "--dpi", str(dpi), "--pages", "1"],
                             input=_text_pdf(lines), capture_output=True)
        if run.returncode != 0:
            raise RuntimeError("%s --render ended with %d\nstdout: %s\nstderr: %s" % (
                worker, run.returncode, run.stdout.decode(errors="replace"),
                run.stderr.decode(errors="replace")))
        with open(os.path.join(tmp, "page-1.pgm"), "rb") as f:
            data = f.read()
    magic, dims, maxval, pixels = data.split(b"\n", 3)
    assert magic == b"P5" and maxval == b"255"
    width, height = map(int, dims.split())
    return width, height, pixels


def png(width, height, grey):
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    rows = b"".join(b"\x00" + grey[y * width:(y + 1) * width] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def image_pdf(path, scans, dpi):
    """A PDF whose pages are only the images `scans` [(width, height, grey)], at `dpi`."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    for width, height, grey in scans:
        w_pt, h_pt = width * 72.0 / dpi, height * 72.0 / dpi
        data = zlib.compress(grey, 6)
        objects.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d "
                       b"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode "
                       b"/Length %d >>\nstream\n" % (width, height, len(data)) + data +
                       b"\nendstream")
        image = len(objects)
        ops = b"q %.2f 0 0 %.2f 0 0 cm /Im1 Do Q" % (w_pt, h_pt)
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(ops), ops))
        content = len(objects)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] "
                       b"/Resources << /XObject << /Im1 %d 0 R >> >> /Contents %d 0 R >>"
                       % (w_pt, h_pt, image, content))
        kids.append(len(objects))
    objects[1] = (b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) +
                  b"] /Count %d >>" % len(kids))
    with open(path, "wb") as f:
        f.write(_pdf(objects))


def line_box(i, dpi):
    """Line i of page_pgm in pixels: (left edge, top of its capitals, its baseline)."""
    baseline = (792 - (700 - 40 * i)) * dpi / 72.0
    return 72 * dpi / 72.0, baseline - 14.5 * dpi / 72.0, baseline
