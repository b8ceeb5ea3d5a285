// The BEIR layout (https://github.com/beir-cellar/beir): corpus.jsonl, queries.jsonl and
// qrels/<split>.tsv in one directory.
#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

#include "eval/internal/collection.h"

namespace kebab::eval::internal {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::string_view kLayout =
    "a BEIR collection directory holds corpus.jsonl, queries.jsonl and qrels/<split>.tsv";

// The splits present, for the hint when the asked one is missing.
std::string AvailableSplits(const fs::path& dir) {
  std::vector<std::string> splits;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir / "qrels", ec)) {
    if (entry.path().extension() == ".tsv") splits.push_back(entry.path().stem().string());
  }
  if (splits.empty()) return {};
  std::sort(splits.begin(), splits.end());
  std::string out = "; splits here:";
  for (const std::string& split : splits) out += " " + split;
  return out;
}

Status CheckPresent(const fs::path& dir, const std::string& relative,
                    const std::string& more_hint = {}) {
  std::error_code ec;
  if (fs::is_regular_file(dir / relative, ec)) return Status::OK();
  return InvalidInput("BEIR collection " + dir.string() + " has no " + relative,
                      std::string(kLayout) + more_hint);
}

// A string field; "" when absent or null. Ids may be written as numbers.
Result<std::string> StringField(const json& object, const char* key, bool required, bool number_ok,
                                const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) return InvalidInput(where + ": missing \"" + key + "\"");
    return std::string();
  }
  if (it->is_string()) return it->get<std::string>();
  if (number_ok && it->is_number_integer()) return it->dump();
  return InvalidInput(where + ": \"" + key + "\" is not a string");
}

// Calls `record(object, line)` for every non-blank line of a JSON Lines file.
Status ForEachJsonLine(const fs::path& dir, const std::string& name, WarningList* warnings,
                       const std::function<Status(const json&, int line)>& record) {
  KEBAB_ASSIGN_OR_RETURN(std::string text, ReadFile(dir / name));
  SanitizeFile(name, &text, warnings);
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(&line)) {
    if (Trim(line).empty()) continue;
    json object;
    try {
      object = json::parse(line);
    } catch (const json::parse_error& e) {
      // Drop nlohmann's "[json.exception.parse_error.101] " prefix: the rest says what and where.
      std::string_view what = e.what();
      if (const size_t close = what.find("] "); close != std::string_view::npos) {
        what.remove_prefix(close + 2);
      }
      return LineError(name, lines.number(), "not JSON: " + std::string(what));
    }
    if (!object.is_object()) return LineError(name, lines.number(), "not a JSON object");
    KEBAB_RETURN_IF_ERROR(record(object, lines.number()));
  }
  return Status::OK();
}

Status ReadQrels(const fs::path& dir, const std::string& name, Collection* collection) {
  KEBAB_ASSIGN_OR_RETURN(std::string text, ReadFile(dir / name));
  SanitizeFile(name, &text, &collection->warnings);
  LineReader lines(text);
  std::string_view line;
  bool first = true;
  while (lines.Next(&line)) {
    if (Trim(line).empty()) continue;
    std::vector<std::string_view> fields;
    for (size_t pos = 0;;) {
      const size_t tab = line.find('\t', pos);
      fields.push_back(Trim(line.substr(pos, tab - pos)));
      if (tab == std::string_view::npos) break;
      pos = tab + 1;
    }
    int grade = 0;
    const bool has_grade = fields.size() == 3 && ParseInt(fields[2], &grade);
    // The header ("query-id\tcorpus-id\tscore") is the one first line without a numeric score.
    if (first && !has_grade && fields.size() == 3) {
      first = false;
      continue;
    }
    first = false;
    if (fields.size() != 3) {
      return LineError(name, lines.number(),
                       "expected 3 tab-separated fields (query-id, corpus-id, score), got " +
                           std::to_string(fields.size()));
    }
    if (!has_grade) {
      return LineError(name, lines.number(),
                       "score \"" + std::string(fields[2]) + "\" is not an integer");
    }
    collection->judgements.push_back(
        {std::string(fields[0]), std::string(fields[1]), grade, Where(name, lines.number())});
  }
  return Status::OK();
}

}  // namespace

Result<Collection> ReadBeir(const fs::path& dir, const std::string& split) {
  const std::string qrels = "qrels/" + split + ".tsv";
  KEBAB_RETURN_IF_ERROR(CheckPresent(dir, "corpus.jsonl"));
  KEBAB_RETURN_IF_ERROR(CheckPresent(dir, "queries.jsonl"));
  KEBAB_RETURN_IF_ERROR(CheckPresent(dir, qrels, AvailableSplits(dir)));

  Collection collection;
  collection.description = "BEIR collection " + dir.string() + " (split " + split + ")";
  KEBAB_RETURN_IF_ERROR(ForEachJsonLine(
      dir, "corpus.jsonl", &collection.warnings, [&](const json& object, int line) -> Status {
        Document doc;
        doc.where = Where("corpus.jsonl", line);
        KEBAB_ASSIGN_OR_RETURN(doc.id, StringField(object, "_id", /*required=*/true,
                                                   /*number_ok=*/true, doc.where));
        KEBAB_ASSIGN_OR_RETURN(doc.title, StringField(object, "title", /*required=*/false,
                                                      /*number_ok=*/false, doc.where));
        KEBAB_ASSIGN_OR_RETURN(doc.text, StringField(object, "text", /*required=*/true,
                                                     /*number_ok=*/false, doc.where));
        collection.documents.push_back(std::move(doc));
        return Status::OK();
      }));
  KEBAB_RETURN_IF_ERROR(ForEachJsonLine(
      dir, "queries.jsonl", &collection.warnings, [&](const json& object, int line) -> Status {
        Query query;
        query.where = Where("queries.jsonl", line);
        KEBAB_ASSIGN_OR_RETURN(query.id, StringField(object, "_id", /*required=*/true,
                                                     /*number_ok=*/true, query.where));
        KEBAB_ASSIGN_OR_RETURN(query.text, StringField(object, "text", /*required=*/true,
                                                       /*number_ok=*/false, query.where));
        collection.queries.push_back(std::move(query));
        return Status::OK();
      }));
  KEBAB_RETURN_IF_ERROR(ReadQrels(dir, qrels, &collection));
  return collection;
}

}  // namespace kebab::eval::internal
