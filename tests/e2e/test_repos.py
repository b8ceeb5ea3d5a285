"""Code in git repositories end to end: each file carries its repository's name, remote (without
credentials), branch and commit, read from `.git` by the real kebab; search, --bulk and ask keep
only the languages, repositories and symbols asked for; `schema` counts documents and chunks per
language and repository; vendored code and files over [ingest.code]'s caps are skipped and
counted. The repositories are made by Debian's real git."""
import json
import os
import shutil
import subprocess
import unittest

from kebab_e2e import EXIT_ERROR, EXIT_NO_RESULT, EXIT_OK, FakeOllama, KebabTestCase

RETRY_RS = """/// Retries a failed upload with exponential backoff.
pub fn retry_upload(attempts: u32) -> u64 {
    100 * 2u64.pow(attempts)
}
"""

RETRY_PY = '''def retry_upload(attempts):
    """Retries a failed upload, waiting longer each time."""
    return 100 * 2 ** attempts
'''

RETRY_TS = """/** Retries a failed upload from the browser. */
export function retryUpload(attempts: number): number {
  return 100 * 2 ** attempts;
}
"""

RETRY_GO = """package retry

// RetryUpload retries a failed upload (vendored copy).
func RetryUpload(attempts int) int { return 100 << attempts }
"""


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                   cwd=cwd, check=True, capture_output=True)


@unittest.skipUnless(shutil.which("git"), "git is not installed")
class RepositoryTest(KebabTestCase):
    def setUp(self):
        super().setUp()
        self.sb.write_config('[models.embedding]\nprovider = "none"\n')
        self.sb.write("api/src/retry.rs", RETRY_RS)
        self.sb.write("api/tools/retry.py", RETRY_PY)
        self.sb.write("api/vendor/retry/retry.go", RETRY_GO)
        self.sb.write("api/vendor/README.md", "# Vendored\n\nWhy we retry uploads ourselves.\n")
        self.sb.write("web/src/retry.ts", RETRY_TS)
        self.sb.write("notes/retry.md", "# Retry\n\nA failed upload is retried three times.\n")
        api, web = self.sb.path("api"), self.sb.path("web")
        git(api, "init", "-q", "-b", "main")
        git(api, "remote", "add", "origin", "https://alice:s3cret@example.com/team/api.git")
        git(api, "add", ".")
        git(api, "commit", "-q", "-m", "first")
        self.api_commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=api, check=True,
                                         capture_output=True, text=True).stdout.strip()
        git(web, "init", "-q", "-b", "dev")

    def paths(self, *args):
        return sorted({h["citation"]["path"] for h in
                       self.search("retry upload", "--k", "20", *args)["hits"]})

    def test_files_carry_their_repository_and_filters_keep_only_what_is_asked(self):
        _, report = self.ingest()
        self.assertEqual((report["new"], report["errors"]), (5, 0), report)
        self.assertEqual(report["skipped_vendored"], 1, report)

        hits = self.search("retry upload", "--k", "20")["hits"]
        by_path = {h["citation"]["path"]: h for h in hits}
        self.assertEqual(sorted(by_path), ["api/src/retry.rs", "api/tools/retry.py",
                                           "api/vendor/README.md", "notes/retry.md",
                                           "web/src/retry.ts"])
        rs = by_path["api/src/retry.rs"]
        self.assertEqual((rs["repo"], rs["code_lang"]), ("api", "rust"))
        self.assertEqual(by_path["api/vendor/README.md"]["repo"], "api")
        self.assertNotIn("code_lang", by_path["api/vendor/README.md"])
        # A repository without a remote is named by its folder; a file outside any has none.
        self.assertEqual(by_path["web/src/retry.ts"]["repo"], "web")
        self.assertNotIn("repo", by_path["notes/retry.md"])

        doc = self.kjson("inspect", "doc", rs["doc_id"])
        meta = doc["metadata"]
        self.assertEqual((meta["repo"], meta["git_remote"], meta["git_branch"], meta["code_lang"]),
                         ("api", "https://example.com/team/api.git", "main", "rust"))
        self.assertEqual(meta["git_commit"], self.api_commit[:12])
        self.assertNotIn("s3cret", json.dumps(doc))
        web_meta = self.kjson("inspect", "doc", by_path["web/src/retry.ts"]["doc_id"])["metadata"]
        self.assertEqual(web_meta["git_branch"], "dev")
        self.assertNotIn("git_remote", web_meta)
        self.assertNotIn("git_commit", web_meta)  # no commit yet

        self.assertEqual(self.paths("--code-lang", "rs"), ["api/src/retry.rs"])
        self.assertEqual(self.paths("--code-lang", "python,TypeScript"),
                         ["api/tools/retry.py", "web/src/retry.ts"])
        self.assertEqual(self.paths("--code-lang", "py", "--code-lang", "rust"),
                         ["api/src/retry.rs", "api/tools/retry.py"])
        self.assertEqual(self.paths("--media", "code"),
                         ["api/src/retry.rs", "api/tools/retry.py", "web/src/retry.ts"])
        self.assertEqual(self.paths("--repo", "web"), ["web/src/retry.ts"])
        self.assertEqual(self.paths("--repo", "https://example.com/team/api.git"),
                         ["api/src/retry.rs", "api/tools/retry.py", "api/vendor/README.md"])
        self.assertEqual(self.paths("--repo", "api", "--code-lang", "py"),
                         ["api/tools/retry.py"])
        self.assertEqual(self.paths("--symbol", "retry*"), ["api/src/retry.rs"])
        self.assertEqual(self.paths("--symbol", "*.retry_upload"), ["api/tools/retry.py"])
        self.assertEqual(self.paths("--symbol", "*etry*pload"),
                         ["api/src/retry.rs", "api/tools/retry.py", "web/src/retry.ts"])
        self.search("retry upload", "--code-lang", "go", rc=EXIT_NO_RESULT)

        # --bulk applies the command line's filters to every query.
        queries = '{"query": "retry upload"}\n{"query": "failed upload", "k": 5}\n'
        r = self.sb.run("--json", "search", "--bulk", "--repo", "web", stdin=queries)
        self.assertExit(r, EXIT_OK)
        items = [json.loads(line) for line in r.stdout.splitlines()]
        self.assertEqual(len(items), 2)
        for item in items:
            self.assertEqual({h["citation"]["path"] for h in item["response"]["hits"]},
                             {"web/src/retry.ts"}, item)

        stats = self.schema_info()["stats"]
        self.assertEqual(stats["code_lang_breakdown"],
                         {"python": 1, "rust": 1, "typescript": 1})
        self.assertEqual(stats["repo_breakdown"], {"api": 3, "web": 1})
        # One chunk per function, one for the README.
        self.assertEqual(stats["code_lang_chunk_breakdown"],
                         {"python": 1, "rust": 1, "typescript": 1})
        self.assertEqual(stats["repo_chunk_breakdown"], {"api": 3, "web": 1})

    def test_bad_filter_values_are_invalid_input_with_a_hint(self):
        self.ingest()
        err = self.assertError(self.sb.run("--json", "search", "retry", "--code-lang", "r$"),
                               "invalid_input")
        self.assertIn("rust", err["hint"])

    def test_code_over_the_caps_is_skipped_and_the_folders_are_configurable(self):
        lines = "".join(f"x{i} = {i}\n" for i in range(30))
        self.sb.write("api/tools/table.py", lines)
        self.sb.write("api/third_party/lib.py", RETRY_PY)
        self.sb.write_config('[models.embedding]\nprovider = "none"\n'
                             '[ingest.code]\nmax_file_lines = 20\n'
                             'skip_dirs = ["third_party"]\n')
        _, report = self.ingest()
        self.assertEqual(report["errors"], 0, report)
        self.assertEqual(report["skipped_size_exceeded"], 1, report)
        self.assertEqual(report["skipped_vendored"], 1, report)
        docs = self.doc_paths()
        self.assertIn("api/vendor/retry/retry.go", docs)  # vendor/ is no longer skipped
        self.assertNotIn("api/third_party/lib.py", docs)
        self.assertNotIn("api/tools/table.py", docs)


@unittest.skipUnless(shutil.which("git"), "git is not installed")
class RepositoryAskTest(KebabTestCase):
    def test_ask_answers_only_from_the_repository_asked_for(self):
        reply_file = os.path.join(self.sb.tmp, "reply.txt")
        ollama = FakeOllama(reply_file)
        self.addCleanup(ollama.close)
        self.sb.write("api/src/retry.rs", RETRY_RS)
        self.sb.write("web/src/retry.ts", RETRY_TS)
        for repo in ("api", "web"):
            git(self.sb.path(repo), "init", "-q")
        self.sb.write_config(extra='[models.embedding]\nprovider = "none"\n[models.llm]\n'
                                   'provider = "ollama"\nmodel = "qwen2.5:0.5b"\n'
                                   f'endpoint = "{ollama.url}"\n[rag]\nverify = "off"\n')
        self.ingest()
        with open(reply_file, "w", encoding="utf-8") as f:
            f.write("A failed upload is retried with a doubling wait [#1].")
        answer = self.kjson("ask", "how is a failed upload retried?", "--repo", "web",
                            schema="answer")
        self.assertEqual({c["citation"]["path"] for c in answer["citations"]},
                         {"web/src/retry.ts"}, answer)
        answer = self.kjson("ask", "how is a failed upload retried?", "--code-lang", "go",
                            schema="answer", rc=EXIT_NO_RESULT)
        self.assertEqual(answer["refusal_reason"], "no_chunks")


if __name__ == "__main__":
    unittest.main()
