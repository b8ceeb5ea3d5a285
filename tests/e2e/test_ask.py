"""`kebab ask` end to end: the real binary answering from an indexed corpus.

The model is either tests/tools/fake_ollama.py (a real HTTP server speaking Ollama's chat
protocol, whose reply a test scripts through FAKE_OLLAMA_REPLY_FILE) or the tiny random-weight
Qwen2 GGUF run in-process by llama.cpp (its words are noise, so only properties that hold for
any reply are checked)."""
import json
import os
import shutil
import signal
import subprocess
import time
import unittest

from kebab_e2e import (EXIT_ERROR, EXIT_NO_RESULT, EXIT_OK, REPO, FakeOllama, KebabTestCase,
                       kill_quietly, schema_errors)

VERIFIER = os.path.join(REPO, "bench", "data", "verifier")
MODELS = os.environ.get("KEBAB_TINY_MODEL_DIR", "")
QWEN2_TINY = os.path.join(MODELS, "qwen2-tiny.gguf")
COMPOST = "how often should the compost heap be turned?"


class AskTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        self.reply_file = os.path.join(self.sb.tmp, "reply.txt")
        self.ollama = FakeOllama(self.reply_file)
        self.addCleanup(self.ollama.close)
        self.sb.copy_fixture("notes")
        self.use_llm('provider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                     f'endpoint = "{self.ollama.url}"\n')
        self.ingest()

    def use_llm(self, llm, rag=""):
        self.sb.write_config(extra=f"[models.llm]\n{llm}\n[rag]\n{rag}\n")

    def script(self, reply):
        with open(self.reply_file, "w", encoding="utf-8") as f:
            f.write(reply)

    def ask(self, *args, rc=EXIT_OK):
        answer = self.kjson("ask", *args, schema="answer", rc=rc)
        return answer

    def test_a_grounded_answer_cites_the_lines_it_comes_from(self):
        self.script('A compost heap should be turned "every two weeks" for oxygen [#1].')
        answer = self.ask(COMPOST)
        self.assertTrue(answer["grounded"], answer)
        self.assertIsNone(answer["refusal_reason"])
        self.assertEqual(answer["answer"],
                         'A compost heap should be turned "every two weeks" for oxygen [1].')
        [cited] = answer["citations"]
        self.assertEqual(cited["marker"], "[1]")
        self.assertEqual(cited["citation"]["path"], "en/gardening.md")
        self.assertRegex(cited["citation"]["uri"], r"^en/gardening\.md#L\d+-L\d+$")
        # The cited lines really hold the quoted words.
        start, end = cited["citation"]["start"], cited["citation"]["end"]
        with open(self.sb.path("en/gardening.md"), encoding="utf-8") as f:
            lines = f.read().splitlines()[start - 1:end]
        self.assertIn("every two weeks", "\n".join(lines))
        self.assertEqual(answer["verification"]["unsupported_claims"], 0)
        self.assertEqual(answer["verification"]["verified_claims"], 1)
        self.assertEqual(answer["verification"]["mode"], "auto")
        self.assertEqual(answer["model"], {"id": "qwen2.5:0.5b", "provider": "ollama"})
        self.assertEqual(answer["prompt_template_version"], "rag-v2")
        self.assertEqual(answer["retrieval"]["mode"], "lexical")

        # Every ask is kept: inspect answer shows the same object.
        stored = self.kjson("inspect", "answer", answer["retrieval"]["trace_id"],
                            schema="answer")
        self.assertEqual(stored["answer"], answer["answer"])
        self.assertEqual(stored["citations"], answer["citations"])

    def test_human_output_has_inline_refs_a_footer_and_a_status_line(self):
        self.script("Turn it every two weeks [#1].")
        r = self.sb.run("ask", COMPOST)
        self.assertExit(r, EXIT_OK)
        self.assertIn("Turn it every two weeks [1].", r.stdout)
        self.assertRegex(r.stdout, r"\[1\] en/gardening\.md#L\d+-L\d+")
        self.assertIn("grounded ✓  verified 1/1 claims", r.stdout)
        self.assertIn("qwen2.5:0.5b", r.stdout)
        self.assertIn("rag-v2", r.stdout)

    def test_explain_shows_each_claim_the_trace_and_usage(self):
        self.script("Turn it every two weeks [#1]. Tomatoes need 42 hours of sun [#1].")
        r = self.sb.run("ask", "--explain", COMPOST)
        self.assertExit(r, EXIT_OK)
        self.assertIn("▎ Turn it every two weeks.", r.stdout)
        self.assertIn("✓ supported", r.stdout)
        self.assertIn('✗ number "42" not in [1]', r.stdout)
        self.assertIn("retrieval trace", r.stdout)
        self.assertRegex(r.stdout, r"threshold \(gate\) 0\.30 → top-1 \d\.\d\d pass")
        self.assertRegex(r.stdout, r"prompt \d+ tokens  completion \d+ tokens  latency \d+ ms")
        self.assertIn("1 of 2 cited claims are not in their sources", r.stdout)
        # Partly supported: kept, and the status line says how much checked out.
        self.assertIn("grounded ✓  verified 1/2 claims", r.stdout)

        answer = self.ask("--explain", COMPOST)
        claims = answer["verification"]["claims"]
        self.assertEqual([c["status"] for c in claims], ["supported", "unsupported"])
        self.assertEqual(claims[1]["missing_numbers"], ["42"])
        self.assertTrue(answer["explain"]["packed_chunks"])
        self.assertIn("[#1]", answer["explain"]["model_text"])

    def test_an_answer_none_of_whose_claims_checks_out_is_refused_by_default(self):
        # A number, a quote and a sentence cited to the wrong source: nothing holds.
        self.script('The heap must be turned every 3 days [#1]. Gardeners say "turn it hourly" '
                    '[#1]. Rust has a borrow checker [#1].')
        answer = self.ask(COMPOST, rc=EXIT_NO_RESULT)
        self.assertFalse(answer["grounded"])
        self.assertEqual(answer["refusal_reason"], "unsupported_claims")
        self.assertEqual(answer["verification"]["mode"], "auto")
        self.assertEqual(answer["verification"]["cited_claims"], 3)
        self.assertEqual(answer["verification"]["verified_claims"], 0)
        r = self.sb.run("ask", COMPOST)
        self.assertExit(r, EXIT_NO_RESULT)
        self.assertIn("grounded ✗  ⚠ 0 of 3 claims verified", r.stdout)
        self.assertNotIn("grounded ✓", r.stdout)

    def test_verify_warn_keeps_the_answer_and_says_nothing_checked_out(self):
        self.use_llm('provider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                     f'endpoint = "{self.ollama.url}"\n', rag='verify = "warn"\n')
        self.script("The compost heap must be turned every 3 days [#1].")
        answer = self.ask(COMPOST)
        self.assertTrue(answer["grounded"])
        self.assertEqual(answer["verification"]["verified_claims"], 0)
        r = self.sb.run("ask", COMPOST)
        self.assertExit(r, EXIT_OK)
        self.assertIn("⚠ 0 of 1 claims verified", r.stdout)

    def test_verify_refuse_turns_an_unsupported_claim_into_a_refusal(self):
        self.use_llm('provider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                     f'endpoint = "{self.ollama.url}"\n', rag='verify = "refuse"\n')
        self.script("The compost heap must be turned every 3 days [#1].")
        answer = self.ask(COMPOST, rc=EXIT_NO_RESULT)
        self.assertFalse(answer["grounded"])
        self.assertEqual(answer["refusal_reason"], "unsupported_claims")
        self.assertEqual(answer["verification"]["claims"][0]["missing_numbers"], ["3"])

    def test_verify_off_skips_the_check(self):
        self.use_llm('provider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                     f'endpoint = "{self.ollama.url}"\n', rag='verify = "off"\n')
        self.script("The compost heap must be turned every 3 days [#1].")
        answer = self.ask(COMPOST)
        self.assertTrue(answer["grounded"])
        self.assertNotIn("verification", answer)
        r = self.sb.run("ask", COMPOST)
        self.assertExit(r, EXIT_OK)
        self.assertIn("grounded ✓", r.stdout)
        self.assertNotIn("verified", r.stdout)

    def test_semantic_fallback_passes_a_paraphrase_and_says_so(self):
        # The "trigrams" embedding model of the fake server makes texts that share word
        # pieces alike: a stand-in for a sentence-embedding model at the HTTP boundary.
        embedding = (f'[models.embedding]\nprovider = "ollama"\nmodel = "trigrams"\n'
                     f'endpoint = "{self.ollama.url}"\ndimensions = 256\n')
        llm = f'provider = "ollama"\nmodel = "qwen2.5:0.5b"\nendpoint = "{self.ollama.url}"\n'
        paraphrase = "Composting kitchen leftovers yields humus; aerate the pile biweekly [#1]."
        unrelated = "Rust programmers rely on ownership semantics and lifetimes everywhere [#1]."
        self.script(f"{paraphrase} {unrelated}")
        self.sb.write_config(extra=f"[models.llm]\n{llm}\n{embedding}\n[rag]\n")
        self.ingest()
        # By words alone neither claim holds, so the default mode refuses the answer.
        lexical = self.ask("--mode", "lexical", COMPOST, rc=EXIT_NO_RESULT)
        self.assertEqual([c["status"] for c in lexical["verification"]["claims"]],
                         ["unsupported", "unsupported"])
        self.assertIsNone(lexical["verification"]["semantic_threshold"])

        self.sb.write_config(extra=f"[models.llm]\n{llm}\n{embedding}\n"
                                   "[rag]\nverify_semantic_threshold = 0.3\n")
        answer = self.ask("--mode", "lexical", COMPOST)
        v = answer["verification"]
        self.assertEqual(v["semantic_threshold"], 0.3)
        self.assertIsNone(v["semantic_error"])
        first, second = v["claims"]
        self.assertEqual(first["status"], "supported", first)
        self.assertGreaterEqual(first["semantic"], 0.3)
        self.assertLess(first["overlap"], 0.5)  # it failed on words alone
        self.assertEqual(second["status"], "unsupported")
        self.assertLess(second["semantic"], 0.3)
        self.assertIn("alike, below 0.30", second["reasons"][-1])
        self.assertEqual(v["verified_claims"], 1)
        r = self.sb.run("ask", "--explain", "--mode", "lexical", COMPOST)
        self.assertExit(r, EXIT_OK)
        self.assertRegex(r.stdout, r"✓ supported \(semantic 0\.\d\d\)")
        self.assertIn("grounded ✓  verified 1/2 claims", r.stdout)

        # An embedding server that is down costs the fallback, not the answer.
        self.sb.write_config(extra=f"[models.llm]\n{llm}\n"
                                   f'[models.embedding]\nprovider = "ollama"\nmodel = "broken"\n'
                                   f'endpoint = "{self.ollama.url}"\ndimensions = 256\n'
                                   "[rag]\nverify_semantic_threshold = 0.3\n")
        r = self.sb.run("--json", "ask", "--mode", "lexical", COMPOST)
        self.assertExit(r, EXIT_NO_RESULT)
        answer = json.loads(r.stdout)
        self.assertIn("llama runner process has terminated",
                      answer["verification"]["semantic_error"])
        r = self.sb.run("ask", "--mode", "lexical", COMPOST)
        self.assertExit(r, EXIT_NO_RESULT)
        self.assertIn("warning: the semantic citation check did not run", r.stderr)

    def test_semantic_threshold_without_an_embedding_model_is_a_config_error(self):
        self.use_llm('provider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                     f'endpoint = "{self.ollama.url}"\n', rag="verify_semantic_threshold = 0.8\n")
        err = self.assertError(self.sb.run("--json", "ask", COMPOST), "config_invalid")
        self.assertIn("needs an embedding model", err["message"])

    def test_the_verifier_benchmark_cases_in_every_mode(self):
        # An English and a Korean case of bench/data/verifier: right, paraphrased and subtly
        # wrong claims (a number, a negation, a swapped source, an invented quote, a name).
        with open(os.path.join(VERIFIER, "cases.jsonl"), encoding="utf-8") as f:
            cases = {c["id"]: c for c in map(json.loads, f)}
        for case_id in ("harbor_tram", "haesol_library"):
            case = cases[case_id]
            with self.subTest(case=case_id):
                sb_note = self.sb.path(os.path.basename(case["note"]))
                shutil.copy(os.path.join(VERIFIER, case["note"]), sb_note)
                self.ingest()
                claims = [c for c in case["claims"]
                          if c["label"] in ("right", "number", "negation", "wrong_source",
                                            "quote", "name")]
                self.script(" ".join(c["text"] for c in claims))
                question = case["question"]
                for mode, rc, grounded in (("auto", EXIT_OK, True), ("warn", EXIT_OK, True),
                                           ("refuse", EXIT_NO_RESULT, False),
                                           ("off", EXIT_OK, True)):
                    self.use_llm('provider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                                 f'endpoint = "{self.ollama.url}"\n',
                                 rag=f'verify = "{mode}"\nscore_gate = 0.0\n')
                    answer = self.ask("--mode", "lexical", question, rc=rc)
                    self.assertEqual(answer["grounded"], grounded, mode)
                    if mode == "off":
                        self.assertNotIn("verification", answer)
                        continue
                    self.assertEqual(answer["citations"][0]["citation"]["path"],
                                     os.path.basename(case["note"]))
                    checked = answer["verification"]["claims"]
                    self.assertEqual(
                        [c["status"] for c in checked],
                        ["supported" if c["label"] == "right" else "unsupported"
                         for c in claims], mode)
                    self.assertEqual(answer["verification"]["verified_claims"], 1)
                    r = self.sb.run("ask", "--mode", "lexical", question)
                    self.assertExit(r, rc)
                    if grounded:
                        self.assertIn(f"grounded ✓  verified 1/{len(claims)} claims", r.stdout)
                    else:
                        self.assertIn("grounded ✗", r.stdout)

    def test_score_gate_refuses_without_calling_the_model(self):
        # The scripted reply would be "grounded"; the gate must stop the ask before it.
        self.script("Revenue was 5 million [#1].")
        answer = self.ask("what was the quarterly revenue of the company?", rc=EXIT_NO_RESULT)
        self.assertFalse(answer["grounded"])
        self.assertIn(answer["refusal_reason"], ("score_gate", "no_chunks"))
        self.assertEqual(answer["usage"]["completion_tokens"], 0)
        for c in answer["citations"]:
            self.assertIsNone(c["marker"])
            self.assertLess(c["score"], answer["retrieval"]["score_gate"])
        r = self.sb.run("ask", "what was the quarterly revenue of the company?")
        self.assertExit(r, EXIT_NO_RESULT)
        self.assertIn("grounded ✗", r.stdout)

    def test_the_models_own_refusal_and_an_uncited_answer_are_self_judge(self):
        self.script("Not enough evidence.")
        answer = self.ask(COMPOST, rc=EXIT_NO_RESULT)
        self.assertEqual(answer["refusal_reason"], "llm_self_judge")
        self.assertTrue(answer["citations"], "what was searched is listed")
        self.script("Turn it whenever you like.")
        answer = self.ask(COMPOST, rc=EXIT_NO_RESULT)
        self.assertEqual(answer["refusal_reason"], "llm_self_judge")

    def test_unknown_markers_are_removed_and_reported(self):
        self.script("Turn it every two weeks [#1][#99].")
        answer = self.ask(COMPOST)
        self.assertEqual(answer["answer"], "Turn it every two weeks [1].")
        self.assertEqual(answer["unknown_markers"], [99])

    def test_stream_prints_answer_events_then_the_answer(self):
        self.script("Turn it every two weeks [#1].")
        r = self.sb.run("ask", "--stream", COMPOST)
        self.assertExit(r, EXIT_OK)
        events = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
        for e in events:
            self.assertEqual(schema_errors("answer_event", e), [], e)
        kinds = [e["kind"] for e in events]
        self.assertEqual(kinds[0], "retrieval_done")
        self.assertEqual(kinds[-1], "final")
        self.assertGreater(kinds.count("token"), 1)
        text = "".join(e["delta"] for e in events if e["kind"] == "token")
        self.assertEqual(text, "Turn it every two weeks [#1].")
        self.assertTrue(events[-1]["answer"]["grounded"])

    def test_errors_map_to_exit_2_with_a_hint(self):
        err = self.assertError(self.sb.run("--json", "ask", "  "), "invalid_input")
        self.use_llm('provider = "ollama"\nmodel = "missing"\n'
                     f'endpoint = "{self.ollama.url}"\n')
        err = self.assertError(self.sb.run("--json", "ask", COMPOST), "model_not_pulled")
        self.assertIn("ollama pull missing", err["hint"])
        self.use_llm('provider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                     'endpoint = "http://127.0.0.1:9"\n')
        self.assertError(self.sb.run("--json", "ask", COMPOST), "model_unreachable")
        self.use_llm('provider = "none"\n')
        err = self.assertError(self.sb.run("--json", "ask", COMPOST), "config_invalid")
        self.assertIn("models.llm", err["hint"])

    def test_doctor_checks_the_llm(self):
        doctor = self.kjson("doctor", schema="doctor")
        check = next(c for c in doctor["checks"] if c["name"] == "llm")
        self.assertTrue(check["ok"], check)
        self.assertIn("ollama:qwen2.5:0.5b", check["detail"])
        self.use_llm('provider = "ollama"\nmodel = "missing"\n'
                     f'endpoint = "{self.ollama.url}"\n')
        doctor = self.kjson("doctor", schema="doctor", rc=3)
        check = next(c for c in doctor["checks"] if c["name"] == "llm")
        self.assertFalse(check["ok"])
        self.assertIn("ollama pull missing", check["hint"])

    def test_ctrl_c_keeps_the_partial_answer(self):
        # "stall" sends the first piece of its reply, then nothing for 30 s.
        self.use_llm('provider = "ollama"\nmodel = "stall"\n'
                     f'endpoint = "{self.ollama.url}"\nrequest_timeout_secs = 60\n')
        self.script("Turn it every two weeks [#1].")
        p = self.sb.popen("--json", "ask", COMPOST)
        time.sleep(1.5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
        self.assertEqual(p.returncode, EXIT_NO_RESULT, err)
        answer = json.loads(out)
        self.assertEqual(schema_errors("answer", answer), [])
        self.assertEqual(answer["refusal_reason"], "llm_stream_aborted")
        self.assertEqual(answer["answer"], "Turn")
        stored = self.kjson("inspect", "answer", answer["retrieval"]["trace_id"])
        self.assertEqual(stored["refusal_reason"], "llm_stream_aborted")

    def test_multi_hop_records_its_hops(self):
        # One scripted reply for every call: not a JSON list, so the decomposition falls back
        # to the question and the first decision ends the gathering.
        self.script("Turn it every two weeks [#1].")
        answer = self.ask("--multi-hop", COMPOST)
        self.assertTrue(answer["grounded"], answer)
        kinds = [h["kind"] for h in answer["hops"]]
        self.assertEqual(kinds[0], "decompose")
        self.assertEqual(kinds[-1], "synthesize")
        self.assertEqual(answer["hops"][0]["sub_queries"], [COMPOST])

    def test_readonly_asks_are_not_recorded(self):
        self.script("Turn it every two weeks [#1].")
        answer = self.kjson("--readonly", "ask", COMPOST, schema="answer")
        self.assertError(self.sb.run("--json", "inspect", "answer",
                                     answer["retrieval"]["trace_id"]), "invalid_input")


@unittest.skipUnless(os.path.isfile(QWEN2_TINY), "KEBAB_TINY_MODEL_DIR not set (run through ctest)")
class AskInProcessTest(KebabTestCase):
    """The llama provider: a real GGUF chat model generating in-process."""

    def test_a_random_weight_model_runs_the_whole_pipeline(self):
        self.sb.copy_fixture("notes")
        self.sb.write_config(extra=f'[models.llm]\nprovider = "llama"\nmodel = "{QWEN2_TINY}"\n'
                                   'threads = 2\nmax_tokens = 24\ncontext_tokens = 2048\n')
        self.ingest()
        r = self.sb.run("--json", "ask", "--stream", COMPOST)
        self.assertIn(r.rc, (EXIT_OK, EXIT_NO_RESULT), r)
        events = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
        for e in events:
            self.assertEqual(schema_errors("answer_event", e), [], e)
        final = events[-1]["answer"]
        self.assertEqual(final["model"]["provider"], "llama")
        self.assertEqual(final["model"]["id"], "qwen2-tiny")
        self.assertGreater(final["usage"]["prompt_tokens"], 0)
        self.assertLessEqual(final["usage"]["completion_tokens"], 24)
        tokens = [e for e in events if e["kind"] == "token"]
        self.assertTrue(tokens, "the model streamed pieces")
        # Noise cites nothing real: whatever it wrote, the answer is never grounded on
        # a marker the prompt did not have.
        if final["grounded"]:
            for c in final["citations"]:
                self.assertRegex(c["marker"], r"^\[\d+\]$")
        doctor = self.kjson("doctor", schema="doctor")
        check = next(c for c in doctor["checks"] if c["name"] == "llm")
        self.assertTrue(check["ok"], check)
        self.assertIn("context 512 tokens", check["detail"])


    def test_the_semantic_fallback_runs_a_real_gguf_embedder(self):
        # Random weights make the similarity meaningless; what is pinned is that a real
        # in-process model embeds the claim and the chunk's windows and the score is reported.
        reply = os.path.join(self.sb.tmp, "reply.txt")
        with open(reply, "w", encoding="utf-8") as f:
            f.write("Composting kitchen leftovers yields humus; aerate the pile biweekly [#1].")
        ollama = FakeOllama(reply)
        self.addCleanup(ollama.close)
        self.sb.copy_fixture("notes")
        self.sb.write_config(extra=f'[models.llm]\nprovider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                                   f'endpoint = "{ollama.url}"\n'
                                   f'[models.embedding]\nprovider = "llama"\n'
                                   f'model = "{os.path.join(MODELS, "bge-tiny.gguf")}"\n'
                                   'threads = 2\n[rag]\nverify = "warn"\n'
                                   'verify_semantic_threshold = 0.5\n')
        self.ingest()
        answer = self.kjson("ask", "--mode", "lexical", COMPOST, schema="answer")
        v = answer["verification"]
        self.assertEqual(v["semantic_threshold"], 0.5)
        self.assertIsNone(v["semantic_error"])
        [claim] = v["claims"]
        self.assertLess(claim["overlap"], 0.5)
        self.assertGreaterEqual(claim["semantic"], -1.0)
        self.assertLessEqual(claim["semantic"], 1.0 + 1e-6)
        self.assertEqual(claim["status"], "supported" if claim["semantic"] >= 0.5 else
                         "unsupported")

if __name__ == "__main__":
    unittest.main()
