// From what a caller states (CLI flags, MCP arguments, a --bulk line) to a search request.
#include <algorithm>
#include <cctype>

#include "app/internal/code_lang.h"
#include "app/queries.h"
#include "app/wire.h"
#include "core/time.h"
#include "search/snippet.h"

namespace kebab::app {
namespace {

// Each value may be a comma-separated list; every item must parse.
template <typename T, typename Parse>
Status ParseList(const std::vector<std::string>& values, const char* field, Parse parse,
                 const char* allowed, std::vector<T>* out) {
  for (const auto& raw : values) {
    size_t pos = 0;
    while (pos <= raw.size()) {
      const size_t comma = raw.find(',', pos);
      const std::string v =
          raw.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (!v.empty()) {
        auto parsed = parse(v);
        if (!parsed) {
          return InvalidInput(std::string("unknown ") + field + " '" + v + "'",
                              std::string("use one of: ") + allowed);
        }
        out->push_back(*parsed);
      }
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  return Status::OK();
}

}  // namespace

Result<SearchFilters> ResolveFilters(const FilterParams& p) {
  SearchFilters f;
  f.tags_any = p.tags;
  if (!p.lang.empty()) f.lang = p.lang;
  if (!p.path_glob.empty()) f.path_glob = p.path_glob;
  if (!p.trust_min.empty()) {
    f.trust_min = ParseTrustLevel(p.trust_min);
    if (!f.trust_min) {
      return InvalidInput("unknown trust_min '" + p.trust_min + "'",
                          "use primary, secondary or generated");
    }
  }
  KEBAB_RETURN_IF_ERROR(ParseList(p.media, "media", ParseMediaKind,
                                  "markdown (md), pdf, image, audio, code, other", &f.media));
  KEBAB_RETURN_IF_ERROR(ParseList(p.source_types, "source_type", ParseSourceType,
                                  "markdown, note, paper, reference, inbox", &f.source_types));
  KEBAB_RETURN_IF_ERROR(ParseList(p.code_langs, "code_lang", internal::CanonicalCodeLanguage,
                                  "a language name such as rust, python, typescript, go, cpp",
                                  &f.code_langs));
  // TSX is TypeScript with markup: asking for TypeScript means both.
  if (std::find(f.code_langs.begin(), f.code_langs.end(), "typescript") != f.code_langs.end() &&
      std::find(f.code_langs.begin(), f.code_langs.end(), "tsx") == f.code_langs.end()) {
    f.code_langs.emplace_back("tsx");
  }
  f.doc_ids = p.doc_ids;
  for (const std::string& repo : p.repos) {
    if (!repo.empty()) f.repos.push_back(repo);
  }
  if (!p.symbol.empty()) f.symbol_glob = p.symbol;
  if (!p.ingested_after.empty()) {
    if (!ParseRfc3339(p.ingested_after)) {
      return InvalidInput("ingested_after '" + p.ingested_after + "' is not a date",
                          "use RFC 3339, e.g. 2026-05-01 or 2026-05-01T09:00:00+09:00");
    }
    f.ingested_after = p.ingested_after;
  }
  return f;
}

Result<search::SearchRequest> ResolveSearch(const Session& session, const SearchParams& p) {
  const config::Config& config = session.config();
  search::SearchRequest r;
  r.query = p.query;
  if (p.mode.empty()) {
    r.mode = config.embedding.provider == "none" ? SearchMode::kLexical : SearchMode::kHybrid;
  } else {
    auto mode = ParseSearchMode(p.mode);
    if (!mode)
      return InvalidInput("unknown mode '" + p.mode + "'", "use lexical, vector or hybrid");
    r.mode = *mode;
  }
  if (p.k && *p.k < 1) return InvalidInput("k must be at least 1");
  r.k = p.k.value_or(config.search.default_k);
  if (p.snippet_chars < 0) return InvalidInput("snippet_chars must not be negative");
  r.snippet_chars = p.snippet_chars > 0 ? p.snippet_chars : config.search.snippet_chars;
  if (p.max_tokens < 0) return InvalidInput("max_tokens must be positive");
  if (p.max_tokens > 0) r.max_tokens = p.max_tokens;
  if (!p.cursor.empty()) r.cursor = p.cursor;
  r.explain = p.explain;
  r.trace = p.trace;
  KEBAB_ASSIGN_OR_RETURN(r.filters, ResolveFilters(p.filters));
  return r;
}

nlohmann::json BulkSearchItem(Session& session, const SearchParams& base,
                              const nlohmann::json& query, int index) {
  nlohmann::json item = {{"schema_version", "bulk_search_item.v1"},
                         {"index", index},
                         {"id", nullptr},
                         {"response", nullptr},
                         {"error", nullptr}};
  if (query.is_object() && query.contains("id")) item["id"] = query["id"];
  auto run = [&]() -> Result<search::SearchResponse> {
    const std::string where = "query " + std::to_string(index + 1) + ": ";
    if (!query.is_object() || !query.contains("query") || !query["query"].is_string()) {
      return InvalidInput(where + "expected a JSON object with a \"query\" string",
                          "one query each, e.g. {\"query\": \"wal checkpoint\", \"k\": 5}");
    }
    SearchParams p = base;
    p.query = query["query"].get<std::string>();
    if (query.contains("k")) {
      if (!query["k"].is_number_integer()) return InvalidInput(where + "\"k\" must be an integer");
      p.k = query["k"].get<int>();
    }
    if (query.contains("mode")) {
      if (!query["mode"].is_string()) return InvalidInput(where + "\"mode\" must be a string");
      p.mode = query["mode"].get<std::string>();
    }
    KEBAB_ASSIGN_OR_RETURN(search::SearchRequest request, ResolveSearch(session, p));
    return Search(session, std::move(request));
  };
  Result<search::SearchResponse> response = run();
  if (response.ok()) {
    item["response"] = wire::SearchResponse(*response, base.explain);
  } else {
    item["error"] = wire::Error(response.status());
  }
  return item;
}

std::string RenderHighlights(std::string_view snippet, std::string_view open,
                             std::string_view close) {
  std::string s;
  s.reserve(snippet.size());
  for (char c : snippet) {
    if (c == search::kHighlightOpen) {
      s += open;
    } else if (c == search::kHighlightClose) {
      s += close;
    } else {
      s += c;
    }
  }
  return s;
}

}  // namespace kebab::app

namespace kebab::app::internal {

std::optional<std::string> CanonicalCodeLanguage(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
      {"rs", "rust"},        {"py", "python"}, {"ts", "typescript"},     {"js", "javascript"},
      {"jsx", "javascript"}, {"golang", "go"}, {"kt", "kotlin"},         {"c++", "cpp"},
      {"cxx", "cpp"},        {"cc", "cpp"},    {"sh", "shell"},          {"bash", "shell"},
      {"zsh", "shell"},      {"yml", "yaml"},  {"docker", "dockerfile"}, {"makefile", "make"},
  };
  for (const auto& [alias, canonical] : kAliases) {
    if (lower == alias) return std::string(canonical);
  }
  const bool plain =
      !lower.empty() &&
      lower.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789+#-_") == std::string::npos;
  if (!plain) return std::nullopt;
  return lower;
}

}  // namespace kebab::app::internal
