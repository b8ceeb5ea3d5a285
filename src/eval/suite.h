// Golden query suites (spec §10.3): the YAML files `kebab eval run` measures retrieval and
// answers against. A suite is a list of queries, or a map with `name` and `queries`:
//
//   name: notes
//   queries:
//     - id: q1
//       query: how do I extract a tar archive
//       expected_paths: [notes/tar.md#L3-L9, {path: notes/gzip.md, grade: 2}]
//       must_contain: [tar -x]
//     - id: q2
//       query: what is the capital of Mars
//       unanswerable: true
//
// Relevance can be given as chunk ids, doc ids or workspace paths (whole files or line
// ranges); paths survive a re-ingest, ids do not. Every entry may carry a grade (default 1)
// for graded nDCG. Errors name the file and line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab::eval {

struct ExpectedId {
  std::string id;
  int grade = 1;
  int line = 0;  // in the suite file, for errors found later (an id the store lacks)
};

struct ExpectedPath {
  std::string path;                  // relative to the workspace root
  int line_start = 0, line_end = 0;  // 0: the whole file
  int grade = 1;
  int line = 0;
};

struct GoldenQuery {
  std::string id, query, lang, difficulty, group;
  std::vector<ExpectedId> expected_doc_ids, expected_chunk_ids;
  std::vector<ExpectedPath> expected_paths;
  std::vector<std::string> must_contain, forbidden;
  bool unanswerable = false;
  int line = 0;

  bool has_judgements() const {
    return !expected_doc_ids.empty() || !expected_chunk_ids.empty() || !expected_paths.empty();
  }
};

struct Suite {
  std::string name;  // `name:`, else the file name without extension
  std::string path;  // the file it was read from; empty when parsed from text
  std::vector<GoldenQuery> queries;
};

// kInvalidInput "FILE:LINE: what is wrong" for bad YAML, unknown or mistyped fields, missing
// id or query, duplicate ids, judgements on an `unanswerable` query, and paraphrase groups
// whose members expect different documents.
Result<Suite> ParseSuite(std::string_view yaml, std::string_view file_name);
// kIoError when the file cannot be read; else as ParseSuite.
Result<Suite> LoadSuite(const std::string& path);

}  // namespace kebab::eval
