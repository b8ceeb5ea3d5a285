// Importing a public IR test collection (BEIR or TREC) as a kebab workspace plus a golden
// suite: one Markdown file per document under <out_dir>/corpus/, and <out_dir>/suite.yaml
// holding the queries with their graded relevant documents. `kebab ingest` over out_dir then
// indexes the corpus, and the suite measures retrieval against the collection's judgements.
//
// Input formats:
//   BEIR  a directory with corpus.jsonl ({"_id", "title", "text"} per line), queries.jsonl
//         ({"_id", "text"}) and qrels/<split>.tsv (query-id, corpus-id, score; header line).
//   TREC  a directory searched recursively (hidden entries skipped); each file is recognised
//         by its name or content, in this order: a name starting with "qrels" (any case) is
//         a qrels file (`qid iteration docno rel` per line); a file containing <top> is a
//         topics file (the query is each topic's <title>); a file containing <DOC> holds
//         documents (<DOCNO>, optional <TITLE>/<HEADLINE>/<HEAD>, <TEXT>). Other files are
//         ignored with a warning; compressed files must be unpacked first.
// Judgements with a grade above 0 count as relevant; 0 and below are dropped.
// Thread-safe as long as two imports do not write the same out_dir.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab::eval {

enum class CollectionFormat { kBeir, kTrec };

// "beir" or "trec"; nullopt for anything else.
std::optional<CollectionFormat> ParseCollectionFormat(std::string_view name);

struct ImportOptions {
  CollectionFormat format = CollectionFormat::kBeir;
  std::string source;   // the collection's directory (BEIR) or directory holding the TREC files
  std::string out_dir;  // created; receives corpus/, suite.yaml and .kebabignore; not in source
  std::string name;     // suite name written into suite.yaml; empty = source's directory name
  std::string split = "test";  // BEIR qrels/<split>.tsv
};

struct ImportReport {
  std::string name, corpus_dir, suite_path;        // the suite's name; absolute paths
  int documents = 0, queries = 0, judgements = 0;  // as written: queries and judgements in suite
  int queries_without_judgements = 0;              // left out of the suite
  // Files under corpus/ (suite.yaml not counted): rewritten because new or changed, left alone
  // because identical, deleted because their document is no longer in the collection.
  int files_written = 0, files_unchanged = 0, files_removed = 0;
  // What was skipped or repaired, e.g. "qrels/test.tsv:17: unknown document id 9999 (skipped)".
  // At most 50, then one "... and N more warnings" line.
  std::vector<std::string> warnings;
};

// Writes out_dir/corpus/<doc>.md (one Markdown file per document: "# <title>", then the text)
// and out_dir/suite.yaml, and makes sure out_dir/.kebabignore hides suite.yaml from
// `kebab ingest`.
// Rewrites files whose content changed, leaves identical ones untouched (so a re-import followed
// by an incremental `kebab ingest` does no work), and removes corpus/*.md files no longer in the
// collection. Document file names are the id with every byte outside [A-Za-z0-9._-] (and a
// leading '.') written as %XX. `progress` (optional) is called as each document file is done.
// Errors: kInvalidInput for a missing input file or malformed input (the message names the file
// and line) or an out_dir inside the source, kIoError for a file that cannot be read or written
// (naming the path). Files written before an error stay; the next import finishes the job.
Result<ImportReport> ImportCollection(
    const ImportOptions& options, const std::function<void(int done, int total)>& progress = {});

}  // namespace kebab::eval
