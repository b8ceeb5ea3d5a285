#!/usr/bin/python3
"""Writes the PDF, scan, photo and recording of samples/kb, so that the demo (scripts/demo.sh)
shows every kind of citation kebab makes: a page, a region of a scan and of a photo, a time
(code/upload.py, the source code sample, is written by hand). Everything here is made from text
written for kebab, so it may be redistributed with it (the same terms as the repository).

The outputs are committed; run this again only to change them. It needs what the maintainers
have, not what a user needs: Python 3, poppler-utils (pdftoppm), ImageMagick (convert) with
DejaVu fonts, exiftool (libimage-exiftool-perl), flite and ffmpeg.
Usage: samples/make-samples.py
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KB = os.path.join(HERE, "kb")
sys.path.insert(0, os.path.join(HERE, "..", "tests", "tools"))
from make_pdf import make_pdf, write_pdf  # noqa: E402

PRIMER = [
    ["A primer on full-text search",
     "",
     "1 Tokens",
     "A search engine first cuts text into tokens: words, numbers, and for Korean",
     "or Chinese text, overlapping pairs of characters. Case and accents are folded",
     "so that Resume and resume meet in the same token."],
    ["2 The inverted index",
     "For every token the index keeps a posting list: the documents that hold it,",
     "and where. Answering a query means walking the posting lists of its words",
     "and merging them, which is why a search over millions of pages takes",
     "milliseconds instead of a scan of every file."],
    ["3 Ranking with BM25",
     "BM25 scores a document higher when it holds the query's rare words often,",
     "and lower when it is long. Words that appear everywhere count for little.",
     "Hybrid search adds a second ranking by meaning and fuses the two lists",
     "with reciprocal rank fusion."],
]

SCAN = [
    "Storage meeting, minutes",
    "",
    "Present: Mina, Jonas, Priya",
    "",
    "The archive database will run in write-ahead log mode from",
    "next week, so that nightly backups no longer block readers.",
    "Jonas checks the checkpoint interval before the change.",
    "",
    "Next review: the fourteenth of March.",
]

WHITEBOARD = "Sprint goals\n- migrate archive to WAL\n- search latency under 50 ms\n- Korean OCR check"

RECORDING = ("Good morning everyone. Today we move the archive database to the new server. "
             "Please finish your backups before noon.")



def run(*argv):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)


def jpeg_pdf(jpeg_path, pdf_path, dpi):
    """An image-only PDF page holding the JPEG as it is (DCTDecode), sized for `dpi`."""
    with open(jpeg_path, "rb") as f:
        data = f.read()
    # Width and height from the JPEG's start-of-frame marker.
    i = 2
    while True:
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            height = int.from_bytes(data[i + 5:i + 7], "big")
            width = int.from_bytes(data[i + 7:i + 9], "big")
            break
        i += 2 + length
    w_pt, h_pt = width * 72 / dpi, height * 72 / dpi
    content = b"q %.2f 0 0 %.2f 0 0 cm /Im1 Do Q" % (w_pt, h_pt)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] "
        b"/Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>" % (w_pt, h_pt),
        b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
        b"/BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n%s\nendstream"
        % (width, height, len(data), data),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
    ]
    write_pdf(pdf_path, objects, 1)


def main():
    for d in ("papers", "scans", "photos", "recordings"):
        os.makedirs(os.path.join(KB, d), exist_ok=True)
    make_pdf(os.path.join(KB, "papers", "search-primer.pdf"), PRIMER,
             {"Title": "A primer on full-text search", "Keywords": "search, bm25"},
             [{"title": "1 Tokens", "page": 1}, {"title": "2 The inverted index", "page": 2},
              {"title": "3 Ranking with BM25", "page": 3}])
    with tempfile.TemporaryDirectory() as tmp:
        # A scanned page: the text printed, then photographed as grey JPEG at 200 dpi, turned
        # a little as a page on a scanner glass is.
        page_pdf = os.path.join(tmp, "page.pdf")
        make_pdf(page_pdf, [SCAN])
        run("pdftoppm", "-r", "200", "-gray", "-png", "-singlefile", page_pdf,
            os.path.join(tmp, "page"))
        scan_jpg = os.path.join(tmp, "scan.jpg")
        run("convert", os.path.join(tmp, "page.png"), "-crop", "1700x600+0+0", "+repage",
            "-background", "white", "-rotate", "0.4", "-attenuate", "0.2", "+noise",
            "Gaussian", "-colorspace", "Gray", "-quality", "70", scan_jpg)
        jpeg_pdf(scan_jpg, os.path.join(KB, "scans", "storage-meeting.pdf"), 200)

        # A phone photo of a whiteboard, with the camera, time and place in its EXIF.
        photo = os.path.join(KB, "photos", "whiteboard.jpg")
        run("convert", "-size", "1200x700", "xc:#f4f4ef", "-font", "DejaVu-Sans",
            "-pointsize", "56", "-fill", "#1a2a6c", "-annotate", "+70+130", WHITEBOARD,
            "-rotate", "1.5", "-gravity", "center", "-crop", "1160x660+0+0", "+repage",
            "-blur", "0x0.6", "-attenuate", "0.3", "+noise", "Gaussian", "-quality", "72",
            photo)
        run("exiftool", "-q", "-overwrite_original", "-Make=Kebab", "-Model=Sample Phone",
            "-DateTimeOriginal=2026:03:09 10:15:00", "-GPSLatitude=37.5665",
            "-GPSLatitudeRef=N", "-GPSLongitude=126.9780", "-GPSLongitudeRef=E", photo)

        # A voice memo in flite's rms voice (pocketsphinx hears it word for word; espeak-ng's
        # it mostly does not), kept as a phone would keep it (Ogg Vorbis, mono).
        wav = os.path.join(tmp, "memo.wav")
        run("flite", "-voice", "rms", "-t", RECORDING, "-o", wav)
        run("ffmpeg", "-y", "-loglevel", "error", "-i", wav, "-ac", "1", "-ar", "16000",
            "-c:a", "libvorbis", "-q:a", "2",
            os.path.join(KB, "recordings", "standup.ogg"))


if __name__ == "__main__":
    main()
