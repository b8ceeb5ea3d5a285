"""Recordings end to end: speech made here by Debian's espeak-ng, stored in every container
FFmpeg writes (wav, flac, mp3, ogg, m4a, webm), decoded by the real kebab-audio worker and
transcribed by pocketsphinx inside `kebab ingest`. What was said is cited by time: each hit's
range lies on the sentence it comes from (within a second), and `fetch span --time` reads it
back. Transcripts are cached (a renamed recording is not transcribed again); broken, empty and
silent files get a clear error or warning while the rest is indexed.

pocketsphinx hears espeak-ng's voice badly (word error rate near 0.8), so the tests check the
plumbing (times, containers, caching, citations) with the words it did hear, not its accuracy.
"""
import json
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import unittest
import wave

from kebab_e2e import (EXIT_INTERRUPTED, EXIT_UNHEALTHY, KebabTestCase, ingest_stream_errors, kebab_bin,
                       read_ndjson_until)

SENTENCES = [
    "Display the current weather conditions in your terminal.",
    "Transfer data between two machines in a local network.",
    "Print statistics on how long users have been connected.",
    "Search the manual pages for names and descriptions.",
    "Execute commands at a later time when the system load levels permit.",
    "Display a calendar with the current day highlighted.",
    "Change the access permissions of a file or directory.",
    "Send and receive files easily and securely over any network.",
]
GAP = 0.8  # seconds of silence between sentences
CONTAINERS = ["wav", "flac", "mp3", "ogg", "m4a", "webm"]
SHARED_AUDIO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                            "shared", "data", "audio")
TOOLS = all(shutil.which(t) for t in ("espeak-ng", "ffmpeg"))
_made = {}


def speech(count):
    """(path of a wav of the first `count` sentences, [(start_s, end_s)] of each), made once."""
    if count in _made:
        return _made[count]
    tmp = tempfile.mkdtemp(prefix="kebab-speech-")
    frames, times, rate = b"", [], None
    for i, text in enumerate(SENTENCES[:count]):
        part = os.path.join(tmp, f"s{i}.wav")
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", part, text], check=True)
        with wave.open(part) as w:
            rate = w.getframerate()
            if frames:
                frames += b"\0\0" * int(GAP * rate)
            start = len(frames) // 2 / rate
            frames += w.readframes(w.getnframes())
            times.append((start, len(frames) // 2 / rate))
    path = os.path.join(tmp, "talk.wav")
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(frames)
    _made[count] = (path, times)
    return _made[count]


def convert(wav, ext, out_dir):
    out = os.path.join(out_dir, "talk." + ext)
    if ext == "wav":
        shutil.copy(wav, out)
    else:
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", wav, out], check=True)
    return out


def worker():
    return os.path.join(os.path.dirname(os.path.realpath(kebab_bin())), "kebab-audio")


def onsets(pcm, threshold=327, min_gap_s=0.4):
    """Seconds where sound starts after at least `min_gap_s` of quiet, in 10 ms frames of 16 kHz
    mono samples: the first frame with a sample above `threshold` (1% of full scale)."""
    samples = struct.unpack(f"<{len(pcm) // 2}h", pcm)
    found, quiet = [], min_gap_s
    for f in range(len(samples) // 160):
        loud = max(abs(s) for s in samples[f * 160:(f + 1) * 160]) > threshold
        if loud and quiet >= min_gap_s:
            found.append(f / 100)
        quiet = 0 if loud else quiet + 0.01
    return found


def decode(path, tmp):
    pcm_path = os.path.join(tmp, os.path.basename(path) + ".raw")
    with open(path, "rb") as f:
        r = subprocess.run([worker(), "--decode-only", "--pcm", pcm_path], stdin=f,
                           capture_output=True, timeout=60)
    lines = [json.loads(l) for l in r.stdout.decode().splitlines()]
    with open(pcm_path, "rb") as f:
        return r.returncode, lines, f.read()


@unittest.skipUnless(TOOLS, "espeak-ng and ffmpeg are needed (scripts/setup.sh installs them)")
class AudioDecodeTest(unittest.TestCase):
    def test_every_container_decodes_to_the_same_speech_at_the_same_times(self):
        wav, times = speech(3)
        tmp = tempfile.mkdtemp(prefix="kebab-decode-")
        self.addCleanup(shutil.rmtree, tmp)
        for ext in CONTAINERS:
            with self.subTest(container=ext):
                rc, lines, pcm = decode(convert(wav, ext, tmp), tmp)
                self.assertEqual(rc, 0, lines)
                self.assertEqual([l["kind"] for l in (lines[0], lines[-1])], ["info", "end"])
                # 16 kHz mono: the length of the speech to within 60 ms (m4a pads its end)...
                self.assertAlmostEqual(len(pcm) / 2 / 16000, times[-1][1], delta=0.06)
                # ...and each sentence starting where it was put, to within 30 ms.
                got = onsets(pcm)
                self.assertEqual(len(got), len(times), got)
                for (start, _), onset in zip(times, got):
                    self.assertAlmostEqual(onset, start, delta=0.03 + 0.3)  # + espeak's lead-in
                self.assertEqual(lines[-1]["done_ms"], len(pcm) // 2 // 16)

    @unittest.skipUnless(os.path.isdir(SHARED_AUDIO), "../shared/data/audio is not here")
    def test_the_shared_recordings_decode_with_their_sentences_on_time(self):
        with open(os.path.join(SHARED_AUDIO, "espeak", "espeak-en.json")) as f:
            truth = json.load(f)["segments"]
        tmp = tempfile.mkdtemp(prefix="kebab-decode-")
        self.addCleanup(shutil.rmtree, tmp)
        for ext in ("wav", "flac", "mp3", "ogg", "m4a"):
            with self.subTest(container=ext):
                rc, _, pcm = decode(os.path.join(SHARED_AUDIO, "espeak", "espeak-en." + ext), tmp)
                self.assertEqual(rc, 0)
                got = onsets(pcm, min_gap_s=0.3)
                self.assertEqual(len(got), len(truth), got)
                for seg, onset in zip(truth, got):
                    self.assertAlmostEqual(onset, seg["speech_start"], delta=0.03)

    def test_what_is_not_audio_is_unsupported(self):
        tmp = tempfile.mkdtemp(prefix="kebab-decode-")
        self.addCleanup(shutil.rmtree, tmp)
        for name, data in (("empty.wav", b""), ("noise.mp3", os.urandom(4096)),
                           ("text.ogg", b"hello\n" * 100)):
            with self.subTest(file=name):
                r = subprocess.run([worker()], input=data, capture_output=True, timeout=30)
                self.assertEqual(r.returncode, 1)
                line = json.loads(r.stdout.decode().splitlines()[-1])
                self.assertEqual((line["kind"], line["code"]), ("error", "unsupported"), line)


@unittest.skipUnless(TOOLS, "espeak-ng and ffmpeg are needed (scripts/setup.sh installs them)")
class AudioIngestTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        self.sb.write_config('[models.embedding]\nprovider = "none"\n')

    def segments(self, doc_id):
        doc = self.kjson("inspect", "doc", doc_id)
        return doc, [(b["source_span"]["start_ms"] / 1000, b["source_span"]["end_ms"] / 1000,
                      b["payload"]["text"]) for b in doc["blocks"] if b["kind"] == "paragraph"]

    def assertOnSentence(self, start, end, sentence, what):
        lo, hi = sentence
        self.assertTrue(start <= hi + 1 and end >= lo - 1,
                        f"{what}: {start}-{end} s is not on the sentence at {lo:.2f}-{hi:.2f} s")

    def test_every_container_is_transcribed_with_sentences_at_their_times(self):
        wav, times = speech(3)
        os.makedirs(self.sb.path("rec"))
        for ext in CONTAINERS:
            convert(wav, ext, self.sb.path("rec"))
        events, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (len(CONTAINERS), 0), report)
        items = {i["doc_path"]: i for i in report["items"]}
        for ext in CONTAINERS:
            with self.subTest(container=ext):
                item = items["rec/talk." + ext]
                self.assertEqual(item["parser_version"],
                                 "audio-v1+asr(pocketsphinx-5prealpha|en-us|seg2)")
                self.assertEqual(item["chunker_version"], "transcript-v1")
                doc, segs = self.segments(item["doc_id"])
                self.assertEqual(len(segs), len(times), segs)
                for (start, end, _), sentence in zip(segs, times):
                    self.assertOnSentence(start, end, sentence, ext)
                meta = doc["metadata"]["user"]
                self.assertAlmostEqual(meta["audio"]["duration_ms"] / 1000, times[-1][1],
                                       delta=0.1)
                self.assertEqual(meta["transcript"]["engine"], "pocketsphinx 5prealpha")
                self.assertEqual(meta["transcript"]["segments"], len(times))
                self.assertEqual(doc["blocks"][0]["kind"], "audio_ref")
                self.assertIn("talk." + ext, doc["blocks"][0]["payload"]["alt"])
        # The recording is found by its name; a hit cites a time range of it.
        hits = self.search("talk", "--k", "20", "--media", "audio")["hits"]
        self.assertEqual({h["citation"]["path"] for h in hits},
                         {"rec/talk." + ext for ext in CONTAINERS})
        for h in hits:
            self.assertEqual(h["citation"]["kind"], "time")
            self.assertRegex(h["citation"]["uri"], r"#t=\d\d:\d\d:\d\d(\.\d+)?,\d\d:\d\d:\d\d")

    def test_a_hit_cites_the_stretch_its_words_were_said_in(self):
        wav, times = speech(len(SENTENCES))
        shutil.copy(wav, self.sb.path("lecture.wav"))
        _, report = self.ingest()
        self.assertEqual(report["errors"], 0, report)
        doc, segs = self.segments(report["items"][0]["doc_id"])
        self.assertEqual(len(segs), len(SENTENCES), segs)
        self.assertGreaterEqual(len(doc["chunk_ids"]), 3)  # windows, not one chunk
        # Each word heard in just one segment: its hit cites a range on that sentence.
        seen = {}
        for i, (_, _, text) in enumerate(segs):
            for word in set(text.split()):
                seen.setdefault(word, set()).add(i)
        unique = [(w, next(iter(s))) for w, s in seen.items() if len(s) == 1 and len(w) >= 5]
        self.assertGreaterEqual(len(unique), 3, seen)
        for word, i in unique:
            hit = self.search(word, "--k", "1")["hits"][0]
            c = hit["citation"]
            self.assertEqual(c["kind"], "time")
            self.assertOnSentence(c["start_ms"] / 1000, c["end_ms"] / 1000, times[i], word)
            self.assertLessEqual(c["end_ms"] - c["start_ms"], 31000)
            # The cited stretch reads back with the word in it, by --time and by its URI.
            start, end = c["start_ms"] / 1000, c["end_ms"] / 1000
            span = self.kjson("fetch", "span", hit["doc_id"], "--time", f"{start}-{end}",
                              schema="fetch_result")
            self.assertIn(word, span["text"].split())
            self.assertEqual(span["citation"]["kind"], "time")
        r = self.sb.run("--json", "fetch", "span", hit["doc_id"], "--time", "500-600")
        self.assertError(r, "invalid_input")
        r = self.sb.run("--json", "fetch", "span", hit["doc_id"], "--time", "ten-twenty")
        self.assertError(r, "invalid_input")

    def test_a_transcript_is_made_once_and_survives_a_rename(self):
        wav, _ = speech(3)
        shutil.copy(wav, self.sb.path("a.wav"))
        _, first = self.ingest()
        doc, segs = self.segments(first["items"][0]["doc_id"])
        self.assertFalse(doc["metadata"]["user"]["transcript"]["cached"])
        os.rename(self.sb.path("a.wav"), self.sb.path("b.wav"))
        _, second = self.ingest()
        new = [i for i in second["items"] if i["kind"] == "new"]
        self.assertEqual(len(new), 1, second)
        doc2, segs2 = self.segments(new[0]["doc_id"])
        self.assertTrue(doc2["metadata"]["user"]["transcript"]["cached"])
        self.assertEqual(segs2, segs)

    @unittest.skipIf("TSAN_OPTIONS" in os.environ,
                     "ThreadSanitizer delays signal handlers (see test_interrupt)")
    def test_ctrl_c_keeps_what_was_transcribed_and_the_next_ingest_goes_on(self):
        wav, _ = speech(len(SENTENCES))
        with wave.open(wav) as w:
            params, frames = w.getparams(), w.readframes(w.getnframes())
        with wave.open(self.sb.path("long.wav"), "wb") as out:  # the talk three times over
            out.setparams(params)
            out.writeframes((frames + b"\0\0" * int(GAP * params.framerate)) * 3)
        proc = self.sb.popen("--json", "ingest")
        lines, rest = read_ndjson_until(
            proc, lambda e: e.get("kind") == "asset_progress" and e.get("unit") == "second"
            and e["done"] >= 30, timeout=120)
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, EXIT_INTERRUPTED, err.decode("utf-8", "replace"))
        stream = (b"\n".join(lines) + b"\n" + rest + out).decode("utf-8")
        self.assertEqual(ingest_stream_errors(stream), [])
        self.assertTrue(json.loads(stream.splitlines()[-1])["aborted"])
        _, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (1, 0), report)
        doc, segs = self.segments(report["items"][0]["doc_id"])
        transcript = doc["metadata"]["user"]["transcript"]
        self.assertGreater(transcript.get("resumed_from_ms", 0), 10000, transcript)
        self.assertEqual(len(segs), 3 * len(SENTENCES), segs)
        starts = [s for s, _, _ in segs]
        self.assertEqual(starts, sorted(starts))  # nothing twice, nothing out of order

    def test_broken_empty_and_silent_recordings_are_told_and_the_rest_is_indexed(self):
        wav, _ = speech(3)
        shutil.copy(wav, self.sb.path("good.wav"))
        self.sb.write("notes.md", "# Notes\n\nThe standup recording is in good.wav.\n")
        with open(self.sb.path("broken.mp3"), "wb") as f:
            f.write(os.urandom(20000))
        open(self.sb.path("empty.wav"), "wb").close()
        with open(wav, "rb") as f:
            data = f.read()
        with open(self.sb.path("cut.m4a"), "wb") as f:
            m4a = convert(wav, "m4a", tempfile.mkdtemp(prefix="kebab-m4a-"))
            with open(m4a, "rb") as src:
                whole = src.read()
            f.write(whole[:len(whole) // 2])  # an m4a written with its index last, cut short
        with wave.open(self.sb.path("silence.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(16000)
            w.writeframes(b"\0\0" * 16000 * 20)
        del data
        _, report = self.ingest()
        items = {i["doc_path"]: i for i in report["items"]}
        self.assertEqual(items["good.wav"]["kind"], "new")
        self.assertEqual(items["notes.md"]["kind"], "new")
        for bad in ("broken.mp3", "empty.wav", "cut.m4a"):
            self.assertEqual(items[bad]["kind"], "error", items[bad])
            self.assertTrue(items[bad]["error"], items[bad])
        self.assertIn("empty", items["empty.wav"]["error"])
        silent = items["silence.wav"]
        self.assertEqual(silent["kind"], "new")
        self.assertTrue(any("no speech" in w for w in silent["warnings"]), silent)
        self.assertEqual(report["errors"], 3)

    def test_a_missing_model_is_an_error_naming_the_fix(self):
        wav, _ = speech(3)
        shutil.copy(wav, self.sb.path("a.wav"))
        self.sb.write_config('[models.embedding]\nprovider = "none"\n'
                             '[ingest.audio]\npocketsphinx_model = "/nonexistent/en-us"\n')
        _, report = self.ingest()
        item = report["items"][0]
        self.assertEqual(item["kind"], "error", item)
        self.assertIn("/nonexistent/en-us", item["error"])
        doctor = self.kjson("doctor", schema="doctor", rc=EXIT_UNHEALTHY)
        [check] = [c for c in doctor["checks"] if c["name"] == "transcription"]
        self.assertFalse(check["ok"], check)
        self.assertIn("pocketsphinx-en-us", check["hint"])
        self.sb.write_config('[models.embedding]\nprovider = "none"\n')
        doctor = self.kjson("doctor", schema="doctor")
        [check] = [c for c in doctor["checks"] if c["name"] == "transcription"]
        self.assertTrue(check["ok"], check)
        self.assertIn("kebab-audio", check["detail"])

    def test_recordings_have_a_size_cap_of_their_own(self):
        wav, _ = speech(3)  # about 480 KB
        shutil.copy(wav, self.sb.path("talk.wav"))
        self.sb.write("big.md", "# Big\n\n" + "word " * 50000)  # 250 KB
        self.sb.write_config('[models.embedding]\nprovider = "none"\n'
                             '[ingest]\nmax_file_bytes = 100000\n')
        _, report = self.ingest()
        self.assertEqual([i["doc_path"] for i in report["items"]], ["talk.wav"], report)
        self.assertEqual(report["skipped_size_exceeded"], 1)
        self.sb.write_config('[models.embedding]\nprovider = "none"\n'
                             '[ingest]\nmax_file_bytes = 100000\n'
                             '[ingest.audio]\nmax_file_bytes = 1048576\n')
        with open(self.sb.path("long.wav"), "wb") as f:  # 2 MB
            with open(wav, "rb") as src:
                f.write(src.read() * 5)
        _, report = self.ingest()
        self.assertEqual(report["skipped_size_exceeded"], 2, report)
        self.assertIn("talk.wav", self.doc_paths())  # kept, unchanged

    def test_transcription_off_indexes_the_name_alone(self):
        wav, _ = speech(3)
        shutil.copy(wav, self.sb.path("standup.wav"))
        self.sb.write_config('[models.embedding]\nprovider = "none"\n'
                             '[ingest.audio]\nenabled = false\n')
        _, report = self.ingest()
        self.assertEqual(report["items"][0]["parser_version"], "audio-v1")
        hits = self.search("standup")["hits"]
        self.assertEqual(hits[0]["citation"]["path"], "standup.wav")


if __name__ == "__main__":
    unittest.main()
