// A test collection as read from disk, before it becomes a workspace (internal to eval): the
// format readers (beir.cc, trec.cc) fill it, import.cc checks ids and writes files. Also the
// text helpers both readers share.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab::eval::internal {

// `where` is "file:line" of the record, file relative to the collection's directory.
struct Document {
  std::string id, title, text, where;
};
struct Query {
  std::string id, text, where;
};
struct Judgement {
  std::string query_id, doc_id;
  int grade = 0;
  std::string where;
};

// Warnings with a cap: a qrels file judging documents outside the corpus would otherwise
// produce one line per judgement.
class WarningList {
 public:
  void Add(std::string warning);
  // The kept warnings, plus a "... and N more" line when some were dropped.
  std::vector<std::string> Take();

 private:
  static constexpr size_t kMax = 50;
  std::vector<std::string> kept_;
  size_t dropped_ = 0;
};

struct Collection {
  std::string description;  // for the suite's header, e.g. "BEIR collection /abs (split test)"
  std::vector<Document> documents;
  std::vector<Query> queries;
  std::vector<Judgement> judgements;  // every line of the qrels, grades <= 0 included
  WarningList warnings;
};

// `dir` is an existing directory. Errors: kInvalidInput (missing file, malformed line),
// kIoError (unreadable file).
Result<Collection> ReadBeir(const std::filesystem::path& dir, const std::string& split);
Result<Collection> ReadTrec(const std::filesystem::path& dir);

// The whole file; kIoError naming `path` when it cannot be read.
Result<std::string> ReadFile(const std::filesystem::path& path);

// "file:line", where a record or an error is.
std::string Where(std::string_view file, int line);
// kInvalidInput "file:line: message", the shape of every input error.
Status LineError(std::string_view file, int line, std::string_view message);

// Replaces invalid UTF-8 in `text` (U+FFFD) and warns once for the file, naming the first line
// with a bad byte: the index and the suite need valid UTF-8, and one warning per line would
// bury the others.
void SanitizeFile(std::string_view display_name, std::string* text, WarningList* warnings);

// Splits `text` into lines without their "\n" or "\r\n"; numbers start at 1.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool Next(std::string_view* line);
  int number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int number_ = 0;
};

std::string_view Trim(std::string_view s);
// `s` as a whole decimal integer with an optional sign.
bool ParseInt(std::string_view s, int* value);

}  // namespace kebab::eval::internal
