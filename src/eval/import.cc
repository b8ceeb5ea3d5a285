#include "eval/import.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/unicode.h"
#include "eval/internal/collection.h"
#include "eval/internal/workspace_files.h"
#include "source/ignore.h"

namespace kebab::eval {
namespace {

namespace fs = std::filesystem;
using internal::Collection;
using internal::Document;
using internal::Judgement;
using internal::Query;

struct SuiteQuery {
  const Query* query = nullptr;
  std::string text;                                   // one line
  std::vector<std::pair<std::string, int>> expected;  // workspace path, grade
};

Result<std::string> SuiteYaml(const std::string& header, const std::string& name,
                              const std::vector<SuiteQuery>& queries) {
  YAML::Emitter out;
  out << YAML::Comment(header);
  out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name;
  out << YAML::Key << "queries" << YAML::Value << YAML::BeginSeq;
  for (const SuiteQuery& q : queries) {
    if (q.expected.empty()) continue;
    // Ids and queries always quoted: "1" must stay a string, and a query may read as anything.
    out << YAML::BeginMap;
    out << YAML::Key << "id" << YAML::Value << YAML::DoubleQuoted << q.query->id;
    out << YAML::Key << "query" << YAML::Value << YAML::DoubleQuoted << q.text;
    out << YAML::Key << "expected_paths" << YAML::Value << YAML::BeginSeq;
    for (const auto& [path, grade] : q.expected) {
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "path" << YAML::Value << path << YAML::Key
          << "grade" << YAML::Value << grade << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
  if (!out.good()) return GenericError("cannot emit the suite as YAML: " + out.GetLastError());
  return std::string(out.c_str()) + "\n";
}

// The collection with its ids checked and cross-referenced: what the files are written from.
struct Plan {
  std::unordered_map<std::string, std::string> file_of;  // document id -> file name
  std::vector<std::pair<const Document*, const std::string*>> documents;  // first of each id
  std::vector<SuiteQuery> suite;  // every query, in file order; those without judgements too
  int judgements = 0;
};

Result<Plan> PlanImport(const Collection& collection, internal::WarningList* warnings) {
  Plan plan;
  plan.file_of.reserve(collection.documents.size());
  for (const Document& doc : collection.documents) {
    if (doc.id.empty()) return InvalidInput(doc.where + ": empty document id");
    const auto [it, added] = plan.file_of.try_emplace(doc.id, internal::DocFileName(doc.id));
    if (!added) {
      warnings->Add(doc.where + ": duplicate document id " + doc.id + " (first kept)");
      continue;
    }
    plan.documents.emplace_back(&doc, &it->second);
  }

  std::unordered_map<std::string, size_t> query_index;  // query id -> index in plan.suite
  for (const Query& query : collection.queries) {
    if (query.id.empty()) return InvalidInput(query.where + ": empty query id");
    std::string text = CollapseWhitespace(query.text);
    if (text.empty()) return InvalidInput(query.where + ": query " + query.id + " has no text");
    if (!query_index.try_emplace(query.id, plan.suite.size()).second) {
      warnings->Add(query.where + ": duplicate query id " + query.id + " (first kept)");
      continue;
    }
    plan.suite.push_back({.query = &query, .text = std::move(text)});
  }

  // Only relevant judgements reach the suite, so only they are checked against the ids. A
  // qrels file often covers more topics than the queries file: one warning per such topic.
  std::unordered_set<std::string> unknown_queries, judged;  // judged: "<query>\n<doc>"
  for (const Judgement& j : collection.judgements) {
    if (j.grade <= 0) continue;
    const auto query = query_index.find(j.query_id);
    if (query == query_index.end()) {
      if (unknown_queries.insert(j.query_id).second) {
        warnings->Add(j.where + ": unknown query id " + j.query_id + " (its judgements skipped)");
      }
      continue;
    }
    const auto doc = plan.file_of.find(j.doc_id);
    if (doc == plan.file_of.end()) {
      warnings->Add(j.where + ": unknown document id " + j.doc_id + " (skipped)");
      continue;
    }
    if (!judged.insert(j.query_id + "\n" + j.doc_id).second) {
      warnings->Add(j.where + ": document " + j.doc_id + " judged again for query " + j.query_id +
                    " (first kept)");
      continue;
    }
    plan.suite[query->second].expected.emplace_back("corpus/" + doc->second, j.grade);
    ++plan.judgements;
  }
  return plan;
}

// Brings `corpus` in line with the plan's documents and counts what it did in `report`.
Status WriteCorpus(const Plan& plan, const fs::path& corpus,
                   const std::function<void(int done, int total)>& progress,
                   internal::WarningList* warnings, ImportReport* report) {
  std::error_code ec;
  fs::create_directories(corpus, ec);
  if (ec) return IoError("cannot create " + corpus.string() + ": " + ec.message());
  std::unordered_set<std::string> keep;
  keep.reserve(plan.documents.size());
  const int total = static_cast<int>(plan.documents.size());
  for (const auto& [doc, name] : plan.documents) {
    keep.insert(*name);
    const std::string markdown = internal::DocMarkdown(doc->title, doc->text);
    if (markdown.empty()) warnings->Add(doc->where + ": document " + doc->id + " is empty");
    KEBAB_ASSIGN_OR_RETURN(const bool written, internal::WriteIfChanged(corpus / *name, markdown));
    ++(written ? report->files_written : report->files_unchanged);
    ++report->documents;
    if (progress) progress(report->documents, total);
  }
  KEBAB_ASSIGN_OR_RETURN(report->files_removed, internal::RemoveStaleMarkdown(corpus, keep));
  return Status::OK();
}

// Absolute, normalized, without a trailing separator (so filename() is the last component).
fs::path CleanPath(const std::string& path) {
  std::error_code ec;
  fs::path clean = fs::absolute(path, ec).lexically_normal();
  return clean.has_filename() ? clean : clean.parent_path();
}

bool IsWithin(const fs::path& path, const fs::path& dir) {
  return std::mismatch(dir.begin(), dir.end(), path.begin(), path.end()).first == dir.end();
}

}  // namespace

std::optional<CollectionFormat> ParseCollectionFormat(std::string_view name) {
  if (name == "beir") return CollectionFormat::kBeir;
  if (name == "trec") return CollectionFormat::kTrec;
  return std::nullopt;
}

Result<ImportReport> ImportCollection(const ImportOptions& options,
                                      const std::function<void(int done, int total)>& progress) {
  if (options.source.empty()) return InvalidInput("no collection directory given");
  if (options.out_dir.empty()) return InvalidInput("no output directory given");
  const fs::path source = CleanPath(options.source);
  const fs::path out_dir = CleanPath(options.out_dir);
  std::error_code ec;
  if (!fs::is_directory(source, ec)) {
    return InvalidInput("collection directory " + source.string() + " does not exist",
                        "pass the directory that holds the collection's files");
  }
  // A TREC import reads every file under its source: its own output would be read back.
  if (IsWithin(out_dir, source)) {
    return InvalidInput(
        "output directory " + out_dir.string() + " is inside the collection " + source.string(),
        "choose an output directory outside the collection");
  }
  KEBAB_ASSIGN_OR_RETURN(Collection collection, options.format == CollectionFormat::kBeir
                                                    ? internal::ReadBeir(source, options.split)
                                                    : internal::ReadTrec(source));
  KEBAB_ASSIGN_OR_RETURN(const Plan plan, PlanImport(collection, &collection.warnings));

  ImportReport report;
  report.name = options.name.empty() ? source.filename().string() : options.name;
  report.corpus_dir = (out_dir / "corpus").string();
  report.suite_path = (out_dir / "suite.yaml").string();
  report.judgements = plan.judgements;
  for (const SuiteQuery& q : plan.suite) {
    ++(q.expected.empty() ? report.queries_without_judgements : report.queries);
  }
  KEBAB_RETURN_IF_ERROR(
      WriteCorpus(plan, report.corpus_dir, progress, &collection.warnings, &report));

  const std::string header = "kebab golden suite imported from " + collection.description + ": " +
                             std::to_string(report.queries) + " queries, " +
                             std::to_string(report.judgements) + " judgements";
  KEBAB_ASSIGN_OR_RETURN(const std::string yaml, SuiteYaml(header, report.name, plan.suite));
  KEBAB_RETURN_IF_ERROR(internal::WriteIfChanged(report.suite_path, yaml).status());
  // suite.yaml is a workspace file too; the queries in it must not become a searchable document.
  KEBAB_RETURN_IF_ERROR(source::EnsureKebabignoreLine(
      out_dir.string(), "/suite.yaml",
      "# Written by kebab's collection import: the golden suite is not part of the corpus."));
  report.warnings = collection.warnings.Take();
  return report;
}

}  // namespace kebab::eval
