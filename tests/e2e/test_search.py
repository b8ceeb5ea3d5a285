#!/usr/bin/python3
"""Search end to end: Korean particles, citation round trips, filters, paging, determinism."""
import json
import unittest

from kebab_e2e import EXIT_OK, CitationChecks, KebabTestCase, Sandbox

KOREAN_FORMS = {"ko/db-intro.md": "데이터베이스는", "ko/db-usage.md": "데이터베이스를",
                "ko/db-query.md": "데이터베이스에서"}


class NotesCase(CitationChecks, KebabTestCase):
    """The tests/testdata/e2e/notes corpus, ingested."""

    def setUp(self):
        super().setUp()
        self.sb.copy_fixture("notes")
        _, report = self.ingest()
        self.assertEqual(report["errors"], 0)
        self.assertEqual(report["new"], 9)
        self.docs = {d["doc_path"]: d for d in self.list_docs()}


class KoreanTest(NotesCase):
    def test_korean_stem_finds_every_particle_form(self):
        resp = self.search("데이터베이스", "--k", "50")
        self.assertEqual(self.hit_paths(resp), sorted(KOREAN_FORMS))
        for hit in resp["hits"]:
            self.assertIn(KOREAN_FORMS[hit["doc_path"]], hit["snippet"])
            self.assertEqual(hit["lang"], "ko")
        self.assertNotIn("ko/cats.md", self.hit_paths(resp))

    def test_each_inflected_form_finds_its_file(self):
        for path, form in KOREAN_FORMS.items():
            with self.subTest(form=form):
                resp = self.search(form)
                self.assertIn(path, self.hit_paths(resp))

    def test_unrelated_korean_file_is_searchable_on_its_own_words(self):
        resp = self.search("고양이")
        self.assertEqual(self.hit_paths(resp), ["ko/cats.md"])


class KoreanQuestionTest(KebabTestCase):
    """Questions carry particles and endings that passages lack, and the other way round."""

    def setUp(self):
        super().setUp()
        self.sb.write("minutes.md", "# 회의록\n\n회의록 작성 날짜: 3월 4일\n")
        self.sb.write("budget.md", "# 예산\n\n예산안을 검토하였다. 다음 회의에서 결정한다.\n")
        self.sb.write("server.md", "# 서버\n\n서버를 재시작하였다.\n")
        self.sb.write("cats.md", "# 고양이\n\n고양이는 귀엽다.\n")
        self.ingest()

    def ranked(self, query):
        return [h["doc_path"] for h in self.search(query, "--k", "10")["hits"]]

    def test_particle_question_finds_the_bare_noun_passage(self):
        # All of the question's words are in the minutes; the budget note shares only 회의.
        self.assertEqual(self.ranked("회의록을 작성한 날짜는?"), ["minutes.md", "budget.md"])

    def test_bare_noun_question_finds_the_inflected_passage(self):
        self.assertEqual(self.ranked("서버 재시작"), ["server.md"])
        self.assertEqual(self.ranked("예산안 검토"), ["budget.md"])

    def test_explain_shows_what_ran_per_word(self):
        resp = self.search("회의록을 작성한", "--explain")
        plan = resp["trace"]["query_plan"]
        self.assertEqual(plan["phrase"], '"회의록을 작성한"')
        self.assertEqual([w["word"] for w in plan["words"]], ["회의록을", "작성한"])
        self.assertEqual(plan["words"][0]["terms"], ['"회의"', '"의록"'])
        self.assertEqual(plan["words"][0]["notes"], ["particle 을 left out"])
        self.assertEqual(plan["words"][1]["notes"], ["ending 한 left out"])
        human = self.sb.run("search", "--explain", "회의록을 작성한")
        self.assertEqual(human.rc, EXIT_OK, human)
        self.assertIn('회의록을  →  "회의"  "의록"  (particle 을 left out)', human.stdout)


class CitationTest(NotesCase):
    QUERIES = ["데이터베이스", "borrow", "kangaroo", "elision", "compost", "heading-aware chunking",
               "archipelago", "citation", "lifetimes", "예산", "rust ownership"]

    def test_every_hit_cites_lines_containing_its_snippet(self):
        checked = 0
        for q in self.QUERIES:
            resp = self.search(q, "--k", "20")
            self.assertTrue(resp["hits"], f"no hits for {q!r}")
            for hit in resp["hits"]:
                with self.subTest(query=q, uri=hit["citation"]["uri"]):
                    self.check_hit(hit, full_chunk=True)
                    checked += 1
        self.assertGreater(checked, 15)

    def test_short_snippets_still_inside_citation(self):
        resp = self.search("citation", "--snippet-chars", "40")
        self.assertTrue(any("…" in h["snippet"] for h in resp["hits"]), resp["hits"])
        for hit in resp["hits"]:
            self.assertFalse(hit["snippet_full_text"] and "…" in hit["snippet"])
            self.check_hit(hit)

    def test_path_with_spaces_and_hangul_is_cited(self):
        resp = self.search("kangaroo")
        self.assertEqual(self.hit_paths(resp), ["my notes/회의 메모.md"])
        hit = resp["hits"][0]
        self.assertEqual(hit["citation"]["start"], 5)
        self.assertEqual(hit["citation"]["end"], 7)
        self.check_hit(hit)

    def test_chunk_and_doc_fetch_and_inspect(self):
        hit = self.search("borrow", "--tag", "rust")["hits"][0]
        chunk = self.kjson("fetch", "chunk", hit["chunk_id"], "--context", "1",
                           schema="fetch_result")
        self.assertEqual(chunk["chunk"]["chunk_id"], hit["chunk_id"])
        self.assertIn("borrow checker", chunk["text"])
        self.assertEqual(len(chunk["context_before"]), 1)
        self.assertEqual(len(chunk["context_after"]), 1)
        self.assertEqual(chunk["citation"]["uri"], hit["citation"]["uri"])
        ins = self.kjson("inspect", "chunk", hit["chunk_id"], schema="chunk_inspection")
        self.assertEqual(ins["text"], chunk["chunk"]["text"])
        self.assertEqual(ins["source_spans"][0]["start"], hit["citation"]["start"])
        doc = self.kjson("inspect", "doc", hit["doc_id"], schema="document_inspection")
        self.assertIn(hit["chunk_id"], doc["chunk_ids"])
        self.assertEqual(doc["doc_path"], "en/rust-ownership.md")
        self.assertEqual(doc["metadata"]["tags"], ["rust", "memory"])
        whole = self.kjson("fetch", "doc", hit["doc_id"], schema="fetch_result")
        self.assertIn("single owner", whole["text"])
        self.assertFalse(whole["truncated"])
        cut = self.kjson("fetch", "doc", hit["doc_id"], "--max-tokens", "10",
                         schema="fetch_result")
        self.assertTrue(cut["truncated"])
        self.assertLess(len(cut["text"]), len(whole["text"]))

    def test_fetch_unknown_ids(self):
        r = self.sb.run("--json", "fetch", "doc", "0" * 32)
        self.assertError(r, "doc_not_found")
        r = self.sb.run("--json", "inspect", "chunk", "f" * 32)
        self.assertError(r, "chunk_not_found")


class FormatsCitationTest(CitationChecks, KebabTestCase):
    """Citations in CRLF files, tables, code, lists, quotes, a last line without a newline,
    and long sections split into overlapping chunks."""

    def setUp(self):
        super().setUp()
        self.sb.write("crlf.md", "---\r\ntitle: CR\r\n---\r\n# Crlf doc\r\n\r\n"
                                 "first paragraph crlfword here\r\n\r\n## Second\r\n\r\n"
                                 "second para crlfword two\r\n")
        self.sb.write("mixed.md", "# T\n\n| col | val |\n|---|---|\n| tableword | 1 |\n\n"
                                  "```python\ncodeword = 1\n```\n\n- listword item\n- other\n\n"
                                  "> quoteword here\n\nlast line no newline lastword")
        words = ["river", "stone", "cloud", "maple", "ember", "quartz", "lantern", "harbor"]
        out = ["# Long section", ""]
        for p in range(40):
            out.append(" ".join(f"{words[(p * 7 + i) % 8]}{p}" for i in range(12))
                       + " overlapword")
            out.append(" ".join(words[(p + i) % 8] for i in range(14)))
            out.append("")
        self.sb.write("long.md", "\n".join(out))
        self.ingest()

    def test_citations_across_formats(self):
        expected = {"crlfword": 2, "tableword": 1, "codeword": 1, "listword": 1,
                    "quoteword": 1, "lastword": 1}
        for q, n in expected.items():
            with self.subTest(query=q):
                hits = self.search(q)["hits"]
                self.assertEqual(len(hits), n)
                for hit in hits:
                    self.check_hit(hit, full_chunk=True)
        hit = self.search("second para")["hits"][0]
        self.assertEqual(hit["citation"]["uri"], "crlf.md#L8-L10")

    def test_overlapping_chunks_of_a_long_section(self):
        hits = self.search("overlapword", "--k", "50")["hits"]
        self.assertGreater(len(hits), 2, "the long section was not split")
        for hit in hits:
            with self.subTest(uri=hit["citation"]["uri"]):
                self.check_hit(hit, full_chunk=True)
        # together the chunks cover every line of the section
        covered = set()
        for hit in hits:
            covered.update(range(hit["citation"]["start"], hit["citation"]["end"] + 1))
        self.assertTrue(set(range(3, 120, 3)) <= covered)


class FilterTest(NotesCase):
    def test_tag(self):
        self.assertEqual(self.hit_paths(self.search("borrow")),
                         ["en/gardening.md", "en/rust-ownership.md"])
        self.assertEqual(self.hit_paths(self.search("borrow", "--tag", "rust")),
                         ["en/rust-ownership.md"])
        self.assertEqual(self.hit_paths(self.search("borrow", "--tag", "garden")),
                         ["en/gardening.md"])
        self.assertEqual(self.search("borrow", "--tag", "nosuchtag")["hits"], [])
        self.assertEqual(self.doc_paths("--tag", "rust"), ["en/rust-ownership.md"])

    def test_filters_before_the_query_and_repeated(self):
        # each repeatable flag takes one value, so the query may follow it
        self.assertEqual(self.hit_paths(self.search("--tag", "rust", "borrow")),
                         ["en/rust-ownership.md"])
        self.assertEqual(self.hit_paths(self.search("--tag", "rust", "--tag", "garden", "borrow")),
                         ["en/gardening.md", "en/rust-ownership.md"])

    def test_lang(self):
        self.assertEqual(self.hit_paths(self.search("데이터베이스", "--lang", "ko")),
                         sorted(KOREAN_FORMS))
        self.assertEqual(self.search("데이터베이스", "--lang", "en")["hits"], [])
        self.assertEqual(self.search("borrow", "--lang", "ko")["hits"], [])
        for hit in self.search("borrow", "--lang", "en")["hits"]:
            self.assertEqual(hit["lang"], "en")
        ko_docs = self.doc_paths("--lang", "ko")
        self.assertEqual(ko_docs, sorted(list(KOREAN_FORMS) + ["ko/cats.md"]))

    def test_path_glob(self):
        self.assertEqual(self.hit_paths(self.search("borrow", "--path-glob", "en/garden*")),
                         ["en/gardening.md"])
        self.assertEqual(self.hit_paths(self.search("kangaroo", "--path-glob", "my notes/**")),
                         ["my notes/회의 메모.md"])
        self.assertEqual(self.search("kangaroo", "--path-glob", "ko/**")["hits"], [])
        self.assertEqual(self.doc_paths("--path-glob", "ko/**"),
                         sorted(list(KOREAN_FORMS) + ["ko/cats.md"]))

    def test_doc_id(self):
        garden = self.docs["en/gardening.md"]["doc_id"]
        rust = self.docs["en/rust-ownership.md"]["doc_id"]
        resp = self.search("borrow", "--doc-id", garden)
        self.assertEqual({h["doc_id"] for h in resp["hits"]}, {garden})
        resp = self.search("borrow", "--doc-id", garden, "--doc-id", rust)
        self.assertEqual({h["doc_id"] for h in resp["hits"]}, {garden, rust})
        self.assertEqual(self.search("kangaroo", "--doc-id", garden)["hits"], [])

    def test_source_type(self):
        self.assertEqual(self.docs["en/gardening.md"]["source_type"], "note")
        self.assertEqual(self.docs["en/paper.md"]["source_type"], "paper")
        self.assertEqual(self.hit_paths(self.search("borrow", "--source-type", "note")),
                         ["en/gardening.md"])
        self.assertEqual(self.hit_paths(self.search("borrow", "--source-type", "markdown")),
                         ["en/rust-ownership.md"])
        self.assertEqual(self.hit_paths(self.search("chunking", "--source-type", "paper,note")),
                         ["en/paper.md"])
        r = self.sb.run("--json", "search", "borrow", "--source-type", "bogus")
        self.assertError(r, "invalid_input")

    def test_ingested_after(self):
        self.assertEqual(self.search("borrow", "--ingested-after", "2999-01-01")["hits"], [])
        self.assertEqual(len(self.search("borrow", "--ingested-after", "2000-01-01")["hits"]), 2)
        self.assertEqual(
            len(self.search("borrow", "--ingested-after", "2000-01-01T00:00:00+09:00")["hits"]), 2)
        r = self.sb.run("--json", "search", "borrow", "--ingested-after", "yesterday")
        self.assertError(r, "invalid_input")

    def test_k(self):
        resp = self.search("rust ownership", "--k", "1")
        self.assertEqual(len(resp["hits"]), 1)
        self.assertEqual(resp["k"], 1)
        self.assertIsNotNone(resp["next_cursor"])
        resp = self.search("rust ownership", "--k", "2")
        self.assertEqual(len(resp["hits"]), 2)


    def test_explain_and_list_limit(self):
        resp = self.search("borrow", "--explain")
        self.assertIn("match_expression", resp["trace"])
        for hit in resp["hits"]:
            self.assertEqual(hit["explain"]["lexical"]["rank"], hit["rank"])
        self.assertEqual(len(self.list_docs("--limit", "2")), 2)
        self.assertEqual(len(self.list_docs()), 9)


class PagingTest(KebabTestCase):
    N = 23

    def setUp(self):
        super().setUp()
        for i in range(1, self.N + 1):
            body = " ".join(f"pagingword filler{j}" for j in range(i))
            self.sb.write(f"p/p{i:02d}.md", f"# Page {i}\n\n{body}\n")
        self.sb.write("other.md", "# Other\n\nnothing to see here\n")
        self.ingest()

    def test_cursor_pages_through_all_hits_without_duplicates(self):
        everything = self.search("pagingword", "--k", "100")
        self.assertEqual(len(everything["hits"]), self.N)
        self.assertIsNone(everything["next_cursor"])
        hits, pages = self.all_hits("pagingword", k=4)
        ids = [h["chunk_id"] for h in hits]
        self.assertEqual(len(ids), len(set(ids)), "a chunk appears on two pages")
        self.assertEqual(ids, [h["chunk_id"] for h in everything["hits"]])
        self.assertEqual(pages, (self.N + 3) // 4)
        self.assertEqual([h["rank"] for h in hits], list(range(1, self.N + 1)))

    def test_max_tokens_truncates(self):
        full = self.search("pagingword", "--k", "20")
        self.assertFalse(full["truncated"])
        cut = self.search("pagingword", "--k", "20", "--max-tokens", "60")
        self.assertTrue(cut["truncated"])
        self.assertLess(len(cut["hits"]), len(full["hits"]))
        self.assertGreaterEqual(len(cut["hits"]), 1)
        self.assertIsNotNone(cut["next_cursor"])
        # the rest is reachable through the cursor
        rest = self.search("pagingword", "--k", "100", "--cursor", cut["next_cursor"])
        seen = [h["chunk_id"] for h in cut["hits"] + rest["hits"]]
        self.assertEqual(len(seen), len(set(seen)))
        self.assertEqual(len(seen), self.N)

    def test_human_output_has_citations(self):
        r = self.sb.run("search", "pagingword", "--k", "2")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertRegex(r.stdout, r"p/p\d\d\.md#L\d+-L\d+")
        self.assertIn("more results: --cursor", r.stderr)
        # With no embedding model, search is lexical and says once how to get hybrid.
        self.assertIn("lexical only", r.stderr)
        self.assertIn("kebab models pull", r.stderr)
        chosen = self.sb.run("search", "--mode", "lexical", "pagingword", "--k", "2")
        self.assertNotIn("lexical only", chosen.stderr)
        quiet = self.sb.run("--quiet", "search", "pagingword", "--k", "2")
        self.assertNotIn("lexical only", quiet.stderr)


class DeterminismTest(KebabTestCase):
    QUERIES = ["데이터베이스", "borrow", "rust ownership", "citation", "the"]

    def test_same_search_twice_is_identical(self):
        self.sb.copy_fixture("notes")
        self.ingest()
        for q in self.QUERIES:
            with self.subTest(query=q):
                a = self.search(q, "--k", "50")
                b = self.search(q, "--k", "50")
                self.assertEqual(json.dumps(a["hits"], sort_keys=True),
                                 json.dumps(b["hits"], sort_keys=True))
                self.assertEqual(a["next_cursor"], b["next_cursor"])

    def test_independent_indexes_rank_identically(self):
        self.sb.copy_fixture("notes")
        self.ingest()
        other = Sandbox()
        self.addCleanup(other.cleanup)
        other.copy_fixture("notes")
        mine = self.sb
        try:
            self.sb = other
            self.ingest()
            theirs = {q: self.search(q, "--k", "50")["hits"] for q in self.QUERIES}
        finally:
            self.sb = mine
        strip = lambda hits: [(h["chunk_id"], h["doc_id"], h["rank"], h["score"],
                               h["citation"]["uri"], h["snippet"]) for h in hits]
        for q in self.QUERIES:
            with self.subTest(query=q):
                self.assertEqual(strip(self.search(q, "--k", "50")["hits"]), strip(theirs[q]))


if __name__ == "__main__":
    unittest.main()
