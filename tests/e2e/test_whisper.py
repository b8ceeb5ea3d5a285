"""Recordings transcribed by whisper.cpp, end to end: the real kebab-audio worker with a
generated random-weight model of whisper's architecture (tests/tools/make_tiny_whisper.cc; no
real weights exist on the test machines). Its words are random, so these tests check the
plumbing: the engine is picked when its model is there, segments carry times inside the
recording and in order, language is recorded, the transcript is cached and the cache is keyed
by the model, a resumed worker starts where it is told, and a missing model is an error that
names `kebab models pull`.
"""
import json
import os
import shutil
import subprocess
import unittest
import wave

from kebab_e2e import EXIT_UNHEALTHY, KebabTestCase
from test_audio import TOOLS, speech, worker

MODEL = os.path.join(os.environ.get("KEBAB_TINY_MODEL_DIR", ""), "whisper-tiny.bin")
HAVE_MODEL = os.path.isfile(MODEL)
COUNT = 5  # sentences of test_audio's speech


def run_worker(path, *args):
    with open(path, "rb") as f:
        r = subprocess.run([worker(), "--engine", "whisper", "--model", MODEL, *args], stdin=f,
                           capture_output=True, timeout=300)
    return r.returncode, [json.loads(l) for l in r.stdout.decode().splitlines()], r.stderr


@unittest.skipUnless(TOOLS, "espeak-ng and ffmpeg are needed (scripts/setup.sh installs them)")
@unittest.skipUnless(HAVE_MODEL, "whisper-tiny.bin is built by the kebab_tiny_models target")
class WhisperWorkerTest(unittest.TestCase):
    def test_segments_are_timed_inside_the_speech_and_in_order(self):
        wav, times = speech(COUNT)
        rc, lines, err = run_worker(wav, "--language", "en")
        self.assertEqual(rc, 0, err)
        kinds = [l["kind"] for l in lines]
        self.assertEqual((kinds[0], kinds[-1]), ("info", "end"))
        segments = [l for l in lines if l["kind"] == "segment"]
        self.assertTrue(segments, lines)
        last = 0
        for s in segments:
            self.assertLessEqual(last, s["start_ms"])
            self.assertLessEqual(s["start_ms"], s["end_ms"])
            self.assertLessEqual(s["end_ms"], times[-1][1] * 1000 + 300)
            self.assertGreater(s["tokens"], 0)
            self.assertTrue(s["text"].strip())
            last = s["start_ms"]
        self.assertIn({"kind": "language", "language": "en"}, lines)
        progress = [l["done_ms"] for l in lines if l["kind"] == "progress"]
        self.assertEqual(progress, sorted(progress))

    def test_a_resumed_run_transcribes_from_where_it_is_told(self):
        wav, times = speech(COUNT)
        from_ms = int(times[2][0] * 1000)
        rc, lines, err = run_worker(wav, "--language", "en", "--from-ms", str(from_ms))
        self.assertEqual(rc, 0, err)
        segments = [l for l in lines if l["kind"] == "segment"]
        self.assertTrue(segments, lines)
        self.assertGreaterEqual(min(s["start_ms"] for s in segments), from_ms)

    def test_a_long_silence_is_skipped_and_the_speech_after_it_transcribed(self):
        wav, times = speech(2)
        with wave.open(wav) as w:
            params, frames = w.getparams(), w.readframes(w.getnframes())
        gap = 20  # seconds: over the 15 s after which a block ends
        path = os.path.join(os.path.dirname(wav), "gap.wav")
        with wave.open(path, "wb") as out:
            out.setparams(params)
            out.writeframes(frames + b"\0\0" * (gap * params.framerate) + frames)
        rc, lines, err = run_worker(path, "--language", "en")
        self.assertEqual(rc, 0, err)
        starts = [l["start_ms"] / 1000 for l in lines if l["kind"] == "segment"]
        first_end, second_start = times[-1][1], times[-1][1] + gap
        self.assertTrue(any(s < first_end for s in starts), starts)
        # whisper was not given the silence: the second block starts at the speech after it
        # (read whole, as whisper-cli reads it, the random model's next window would start at
        # 30 s).
        after = [s for s in starts if s > first_end + 1]
        self.assertTrue(after, starts)
        self.assertAlmostEqual(min(after), second_start, delta=0.5)

    def test_language_detection_names_a_language(self):
        wav, _ = speech(2)
        rc, lines, err = run_worker(wav, "--language", "auto")
        self.assertEqual(rc, 0, err)
        [lang] = {l["language"] for l in lines if l["kind"] == "language"}
        self.assertRegex(lang, r"^[a-z]{2,3}$")

    def test_a_model_that_is_not_whisper_is_refused(self):
        wav, _ = speech(1)
        bad = os.path.join(os.path.dirname(wav), "not-a-model.bin")
        with open(bad, "wb") as f:
            f.write(b"GGUF" + b"\0" * 1000)
        with open(wav, "rb") as f:
            r = subprocess.run([worker(), "--engine", "whisper", "--model", bad], stdin=f,
                               capture_output=True, timeout=60)
        self.assertEqual(r.returncode, 1)
        error = json.loads(r.stdout.decode().splitlines()[-1])
        self.assertEqual(error["code"], "model")
        self.assertIn(bad, error["message"])



@unittest.skipUnless(TOOLS, "espeak-ng and ffmpeg are needed (scripts/setup.sh installs them)")
@unittest.skipUnless(HAVE_MODEL, "whisper-tiny.bin is built by the kebab_tiny_models target")
class WhisperIngestTest(KebabTestCase):
    def config(self, audio):
        self.sb.write_config('[models.embedding]\nprovider = "none"\n[ingest.audio]\n' + audio)

    def doc(self, doc_id):
        doc = self.kjson("inspect", "doc", doc_id)
        return doc, [(b["source_span"]["start_ms"], b["source_span"]["end_ms"], b["payload"]["text"])
                     for b in doc["blocks"] if b["kind"] == "paragraph"]

    def test_a_whisper_model_that_is_there_is_used_and_its_transcript_cited_by_time(self):
        wav, times = speech(COUNT)
        shutil.copy(wav, self.sb.path("talk.wav"))
        self.config(f'whisper_model = "{MODEL}"\nlanguage = "ko"\n')
        _, report = self.ingest()
        self.assertEqual(report["errors"], 0, report)
        item = report["items"][0]
        size = os.path.getsize(MODEL)
        self.assertEqual(item["parser_version"],
                         f"audio-v1+asr(whisper.cpp-1.9.1|whisper-tiny.bin:{size}|ko|seg2)")
        # schema names the parser and chunker the index's documents were made by.
        models = self.kjson("schema", schema="schema")["models"]
        self.assertEqual(models["active_parsers"], [item["parser_version"]])
        self.assertEqual(models["active_chunkers"], ["transcript-v1"])
        doc, segs = self.doc(item["doc_id"])
        transcript = doc["metadata"]["user"]["transcript"]
        self.assertEqual(transcript["engine"], "whisper.cpp 1.9.1")
        self.assertEqual(transcript["model"], MODEL)
        self.assertEqual(transcript["language"], "ko")
        self.assertEqual(transcript["segments"], len(segs))
        self.assertTrue(segs)
        for start, end, text in segs:
            self.assertLessEqual(start, end)
            self.assertLessEqual(end, times[-1][1] * 1000 + 300)
        # A chunk of what it said is found by its words and cited by time.
        word = max(segs[0][2].split(), key=len)
        hits = self.search(word, "--media", "audio")["hits"]
        self.assertTrue(hits, word)
        self.assertEqual(hits[0]["citation"]["kind"], "time")
        self.assertRegex(hits[0]["citation"]["uri"], r"^talk\.wav#t=\d\d:\d\d:\d\d")

        # Renamed: the transcript comes from the cache. Another model: transcribed again.
        os.rename(self.sb.path("talk.wav"), self.sb.path("standup.wav"))
        _, report = self.ingest()
        [new] = [i for i in report["items"] if i["kind"] == "new"]
        doc2, segs2 = self.doc(new["doc_id"])
        self.assertTrue(doc2["metadata"]["user"]["transcript"]["cached"])
        self.assertEqual(segs2, segs)
        self.config('engine = "pocketsphinx"\n')
        _, report = self.ingest()
        [changed] = report["items"]
        self.assertEqual(changed["parser_version"],
                         "audio-v1+asr(pocketsphinx-5prealpha|en-us|seg2)")

    def test_engine_auto_uses_a_pulled_whisper_base_and_pocketsphinx_without_it(self):
        wav, _ = speech(2)
        shutil.copy(wav, self.sb.path("memo.wav"))
        self.config("")
        _, report = self.ingest()
        self.assertIn("pocketsphinx", report["items"][0]["parser_version"])
        doctor = self.kjson("doctor", schema="doctor")
        [check] = [c for c in doctor["checks"] if c["name"] == "transcription"]
        self.assertTrue(check["ok"], check)
        self.assertIn("pocketsphinx", check["detail"])
        self.assertIn("kebab models pull whisper-base", check["hint"])
        # As `kebab models pull whisper-base` leaves it: {model_dir}/whisper-base.bin.
        model_dir = self.kjson("models", "list")["model_dir"]
        os.makedirs(model_dir, exist_ok=True)
        shutil.copy(MODEL, os.path.join(model_dir, "whisper-base.bin"))
        doctor = self.kjson("doctor", schema="doctor")
        [check] = [c for c in doctor["checks"] if c["name"] == "transcription"]
        self.assertTrue(check["ok"], check)
        self.assertIn("whisper.cpp 1.9.1", check["detail"])
        _, report = self.ingest()
        [item] = report["items"]
        self.assertEqual(item["kind"], "updated", item)
        self.assertIn("whisper.cpp-1.9.1|whisper-base.bin:", item["parser_version"])

    def test_a_missing_whisper_model_is_an_error_naming_the_pull(self):
        wav, _ = speech(2)
        shutil.copy(wav, self.sb.path("memo.wav"))
        self.sb.write("notes.md", "# Notes\n\nThe memo is in memo.wav.\n")
        self.config('engine = "whisper"\nwhisper_model = "whisper-small"\n')
        _, report = self.ingest()
        items = {i["doc_path"]: i for i in report["items"]}
        self.assertEqual(items["notes.md"]["kind"], "new")
        self.assertEqual(items["memo.wav"]["kind"], "error", items["memo.wav"])
        self.assertIn("whisper-small.bin", items["memo.wav"]["error"])
        self.assertIn("kebab models pull whisper-small", items["memo.wav"]["error"])
        doctor = self.kjson("doctor", schema="doctor", rc=EXIT_UNHEALTHY)
        [check] = [c for c in doctor["checks"] if c["name"] == "transcription"]
        self.assertFalse(check["ok"], check)
        self.assertIn("kebab models pull whisper-small", check["hint"])

    def test_korean_without_whisper_is_flagged_by_doctor(self):
        self.config('engine = "pocketsphinx"\nlanguage = "ko"\n')
        doctor = self.kjson("doctor", schema="doctor", rc=EXIT_UNHEALTHY)
        [check] = [c for c in doctor["checks"] if c["name"] == "transcription"]
        self.assertFalse(check["ok"], check)
        self.assertIn("whisper-base", check["hint"])

    def test_silence_is_not_given_to_whisper(self):
        with wave.open(self.sb.path("silence.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(16000)
            w.writeframes(b"\0\0" * 16000 * 60)
        self.config(f'whisper_model = "{MODEL}"\n')
        _, report = self.ingest()
        [item] = report["items"]
        self.assertEqual(item["kind"], "new")
        self.assertTrue(any("no speech" in w for w in item["warnings"]), item)


if __name__ == "__main__":
    unittest.main()
