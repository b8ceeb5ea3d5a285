#include "eval/suite.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace kebab::eval {

namespace {

constexpr std::string_view kQueryFields[] = {"id",
                                             "query",
                                             "lang",
                                             "expected_doc_ids",
                                             "expected_chunk_ids",
                                             "expected_paths",
                                             "must_contain",
                                             "forbidden",
                                             "difficulty",
                                             "group",
                                             "unanswerable"};

// Errors carry the file and the 1-based line of the node they are about.
class Reader {
 public:
  explicit Reader(std::string_view file) : file_(file) {}

  Status Error(const YAML::Node& at, const std::string& message) const {
    return InvalidInput(file_ + ":" + std::to_string(LineOf(at)) + ": " + message,
                        "see `kebab eval run --help` for the suite format");
  }
  static int LineOf(const YAML::Node& node) { return node.Mark().line + 1; }

  Result<std::string> Text(const YAML::Node& node, std::string_view field) const {
    if (!node.IsScalar()) return Error(node, std::string(field) + " must be text");
    return node.Scalar();
  }

  Result<std::vector<std::string>> TextList(const YAML::Node& node, std::string_view field) const {
    std::vector<std::string> out;
    if (node.IsScalar()) return std::vector<std::string>{node.Scalar()};
    if (!node.IsSequence()) return Error(node, std::string(field) + " must be a list of text");
    for (const YAML::Node& item : node) {
      KEBAB_ASSIGN_OR_RETURN(std::string s, Text(item, field));
      out.push_back(std::move(s));
    }
    return out;
  }

  Result<int> Grade(const YAML::Node& node) const {
    int grade = 0;
    const std::string& s = node.IsScalar() ? node.Scalar() : std::string();
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), grade);
    if (ec != std::errc() || end != s.data() + s.size() || grade < 0) {
      return Error(node, "grade must be a whole number >= 0, not `" + s + "`");
    }
    return grade;
  }

  // "12-34" or "12".
  Status Lines(const YAML::Node& at, std::string_view text, ExpectedPath* out) const {
    const size_t dash = text.find('-');
    auto number = [](std::string_view s, int* v) {
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
      return ec == std::errc() && end == s.data() + s.size() && *v > 0;
    };
    const bool ok = dash == std::string_view::npos
                        ? number(text, &out->line_start)
                        : number(text.substr(0, dash), &out->line_start) &&
                              number(text.substr(dash + 1), &out->line_end);
    if (dash == std::string_view::npos) out->line_end = out->line_start;
    if (!ok || out->line_end < out->line_start) {
      return Error(at, "lines must look like 12-34 or 12, not `" + std::string(text) + "`");
    }
    return Status::OK();
  }

  // `path`, `path#L12-L34`, `path#L12`, or {path, lines, grade}.
  Result<ExpectedPath> Path(const YAML::Node& node) const {
    ExpectedPath p;
    p.line = LineOf(node);
    std::string spec;
    if (node.IsScalar()) {
      spec = node.Scalar();
    } else if (node.IsMap()) {
      for (const auto& kv : node) {
        const std::string key = kv.first.Scalar();
        if (key == "path") {
          KEBAB_ASSIGN_OR_RETURN(spec, Text(kv.second, "path"));
        } else if (key == "grade") {
          KEBAB_ASSIGN_OR_RETURN(p.grade, Grade(kv.second));
        } else if (key == "lines") {
          KEBAB_ASSIGN_OR_RETURN(std::string lines, Text(kv.second, "lines"));
          KEBAB_RETURN_IF_ERROR(Lines(kv.second, lines, &p));
        } else {
          return Error(kv.first,
                       "unknown field `" + key + "` in expected_paths (path, lines, grade)");
        }
      }
    } else {
      return Error(node, "an expected path is text or {path, lines, grade}");
    }
    if (const size_t hash = spec.find("#L"); hash != std::string::npos) {
      std::string lines = spec.substr(hash + 2);
      if (const size_t dash = lines.find("-L"); dash != std::string::npos) lines.erase(dash + 1, 1);
      KEBAB_RETURN_IF_ERROR(Lines(node, lines, &p));
      spec.resize(hash);
    }
    if (spec.starts_with("./")) spec.erase(0, 2);
    if (spec.empty()) return Error(node, "an expected path needs `path`");
    p.path = spec;
    return p;
  }

  // `id` or {id, grade}.
  Result<std::vector<ExpectedId>> Ids(const YAML::Node& node, std::string_view field) const {
    if (!node.IsSequence()) return Error(node, std::string(field) + " must be a list");
    std::vector<ExpectedId> out;
    for (const YAML::Node& item : node) {
      ExpectedId e;
      e.line = LineOf(item);
      if (item.IsScalar()) {
        e.id = item.Scalar();
      } else if (item.IsMap() && item["id"]) {
        KEBAB_ASSIGN_OR_RETURN(e.id, Text(item["id"], "id"));
        if (item["grade"]) {
          KEBAB_ASSIGN_OR_RETURN(e.grade, Grade(item["grade"]));
        }
      } else {
        return Error(item, std::string(field) + " entries are ids or {id, grade}");
      }
      out.push_back(std::move(e));
    }
    return out;
  }

  Result<GoldenQuery> Query(const YAML::Node& node) const {
    if (!node.IsMap()) return Error(node, "each query is a map with at least id and query");
    GoldenQuery q;
    q.line = LineOf(node);
    for (const auto& kv : node) {
      const std::string key = kv.first.Scalar();
      const YAML::Node& v = kv.second;
      if (key == "id") {
        KEBAB_ASSIGN_OR_RETURN(q.id, Text(v, key));
      } else if (key == "query") {
        KEBAB_ASSIGN_OR_RETURN(q.query, Text(v, key));
      } else if (key == "lang") {
        KEBAB_ASSIGN_OR_RETURN(q.lang, Text(v, key));
      } else if (key == "difficulty") {
        KEBAB_ASSIGN_OR_RETURN(q.difficulty, Text(v, key));
      } else if (key == "group") {
        KEBAB_ASSIGN_OR_RETURN(q.group, Text(v, key));
      } else if (key == "expected_doc_ids") {
        KEBAB_ASSIGN_OR_RETURN(q.expected_doc_ids, Ids(v, key));
      } else if (key == "expected_chunk_ids") {
        KEBAB_ASSIGN_OR_RETURN(q.expected_chunk_ids, Ids(v, key));
      } else if (key == "expected_paths") {
        if (!v.IsSequence()) return Error(v, "expected_paths must be a list");
        for (const YAML::Node& item : v) {
          KEBAB_ASSIGN_OR_RETURN(ExpectedPath p, Path(item));
          q.expected_paths.push_back(std::move(p));
        }
      } else if (key == "must_contain") {
        KEBAB_ASSIGN_OR_RETURN(q.must_contain, TextList(v, key));
      } else if (key == "forbidden") {
        KEBAB_ASSIGN_OR_RETURN(q.forbidden, TextList(v, key));
      } else if (key == "unanswerable") {
        bool b = false;
        if (!v.IsScalar() || !YAML::convert<bool>::decode(v, b)) {
          return Error(v, "unanswerable must be true or false");
        }
        q.unanswerable = b;
      } else {
        std::string known;
        for (std::string_view f : kQueryFields)
          known += (known.empty() ? "" : ", ") + std::string(f);
        return Error(kv.first, "unknown field `" + key + "` (a query has " + known + ")");
      }
    }
    if (q.id.empty()) return Error(node, "a query needs an `id`");
    if (q.query.empty()) return Error(node, "query `" + q.id + "` needs a `query`");
    if (q.unanswerable && q.has_judgements()) {
      return Error(node, "query `" + q.id + "` is unanswerable but names expected results");
    }
    return q;
  }

 private:
  std::string file_;
};

// What a query expects, without grades: paraphrases of one question must expect the same.
std::set<std::string> ExpectedSet(const GoldenQuery& q) {
  std::set<std::string> out;
  for (const auto& e : q.expected_doc_ids) out.insert("doc:" + e.id);
  for (const auto& e : q.expected_chunk_ids) out.insert("chunk:" + e.id);
  for (const auto& p : q.expected_paths) out.insert("path:" + p.path);
  return out;
}

}  // namespace

Result<Suite> ParseSuite(std::string_view yaml, std::string_view file_name) {
  const Reader reader(file_name);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return InvalidInput(std::string(file_name) + ":" + std::to_string(e.mark.line + 1) +
                            ": not valid YAML: " + e.msg,
                        "check the indentation and quoting around that line");
  }
  Suite suite;
  YAML::Node queries = root;
  if (root.IsMap()) {
    for (const auto& kv : root) {
      const std::string key = kv.first.Scalar();
      if (key == "name") {
        KEBAB_ASSIGN_OR_RETURN(suite.name, reader.Text(kv.second, "name"));
      } else if (key != "queries") {
        return reader.Error(kv.first, "unknown top-level field `" + key + "` (name, queries)");
      }
    }
    queries = root["queries"];
  }
  if (!queries || !queries.IsSequence()) {
    return InvalidInput(std::string(file_name) +
                            ": a suite is a list of queries, or a map with "
                            "`name` and `queries`",
                        "see `kebab eval run --help` for the suite format");
  }
  std::map<std::string, int> first_line;
  std::map<std::string, const GoldenQuery*> group_first;
  for (const YAML::Node& node : queries) {
    KEBAB_ASSIGN_OR_RETURN(GoldenQuery q, reader.Query(node));
    if (auto [it, added] = first_line.emplace(q.id, q.line); !added) {
      return reader.Error(node, "duplicate query id `" + q.id + "` (first on line " +
                                    std::to_string(it->second) + ")");
    }
    suite.queries.push_back(std::move(q));
  }
  for (const GoldenQuery& q : suite.queries) {
    if (q.group.empty()) continue;
    auto [it, added] = group_first.emplace(q.group, &q);
    if (!added && ExpectedSet(q) != ExpectedSet(*it->second)) {
      return InvalidInput(std::string(file_name) + ":" + std::to_string(q.line) + ": query `" +
                              q.id + "` expects other results than `" + it->second->id +
                              "` of the same group `" + q.group + "`",
                          "paraphrases in one group must expect the same documents");
    }
  }
  return suite;
}

Result<Suite> LoadSuite(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status(ErrorCode::kIoError, "cannot read the suite " + path,
                  "pass --suite PATH to a golden YAML file, or the name of an imported "
                  "collection (`kebab eval list`)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  KEBAB_ASSIGN_OR_RETURN(Suite suite,
                         ParseSuite(text.str(), std::filesystem::path(path).filename().string()));
  suite.path = path;
  if (suite.name.empty()) suite.name = std::filesystem::path(path).stem().string();
  return suite;
}

}  // namespace kebab::eval
