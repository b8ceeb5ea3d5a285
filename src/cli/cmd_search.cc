// search: dense four-line hits (spec §1.5), --explain breakdown (§1.6), --json response.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/queries.h"
#include "app/wire.h"
#include "cli/common.h"
#include "core/time.h"
#include "search/snippet.h"

namespace kebab::cli {
namespace {

template <typename T, typename Parse>
Status ParseList(const std::vector<std::string>& values, const char* flag, Parse parse,
                 const char* allowed, std::vector<T>* out) {
  for (const auto& raw : values) {
    size_t pos = 0;
    while (pos <= raw.size()) {
      size_t comma = raw.find(',', pos);
      std::string v = raw.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (!v.empty()) {
        auto parsed = parse(v);
        if (!parsed) {
          return InvalidInput(std::string("unknown ") + flag + " value '" + v + "'",
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

Result<search::SearchRequest> BuildRequest(const SearchArgs& a, const config::Config& config) {
  search::SearchRequest r;
  for (const auto& w : a.words) r.query += (r.query.empty() ? "" : " ") + w;
  if (a.mode.empty()) {
    r.mode = config.embedding.provider == "none" ? SearchMode::kLexical : SearchMode::kHybrid;
  } else {
    auto mode = ParseSearchMode(a.mode);
    if (!mode) {
      return InvalidInput("unknown --mode '" + a.mode + "'", "use lexical, vector or hybrid");
    }
    r.mode = *mode;
  }
  if (a.k && *a.k < 1) return InvalidInput("--k must be at least 1");
  r.k = a.k.value_or(config.search.default_k);
  r.snippet_chars = a.snippet_chars > 0 ? a.snippet_chars : config.search.snippet_chars;
  if (a.max_tokens < 0) return InvalidInput("--max-tokens must be positive");
  if (a.max_tokens > 0) r.max_tokens = a.max_tokens;
  if (!a.cursor.empty()) r.cursor = a.cursor;
  r.explain = a.explain;
  r.trace = a.trace;
  SearchFilters& f = r.filters;
  for (const auto& t : a.tags) f.tags_any.push_back(t);
  if (!a.lang.empty()) f.lang = a.lang;
  if (!a.path_glob.empty()) f.path_glob = a.path_glob;
  if (!a.trust_min.empty()) {
    f.trust_min = ParseTrustLevel(a.trust_min);
    if (!f.trust_min) {
      return InvalidInput("unknown --trust-min '" + a.trust_min + "'",
                          "use primary, secondary or generated");
    }
  }
  KEBAB_RETURN_IF_ERROR(ParseList(a.media, "--media", ParseMediaKind,
                                  "markdown (md), pdf, image, audio, code, other", &f.media));
  KEBAB_RETURN_IF_ERROR(ParseList(a.source_types, "--source-type", ParseSourceType,
                                  "markdown, note, paper, reference, inbox", &f.source_types));
  for (const auto& id : a.doc_ids) f.doc_ids.push_back(id);
  if (!a.ingested_after.empty()) {
    if (!ParseRfc3339(a.ingested_after)) {
      return InvalidInput("--ingested-after '" + a.ingested_after + "' is not a date",
                          "use RFC 3339, e.g. 2026-05-01 or 2026-05-01T09:00:00+09:00");
    }
    f.ingested_after = a.ingested_after;
  }
  return r;
}

std::string Highlight(const Output& out, const std::string& snippet) {
  if (!out.stdout_tty) return search::StripHighlights(snippet);
  std::string s;
  for (char c : snippet) {
    if (c == search::kHighlightOpen) {
      s += "\033[1;33m";
    } else if (c == search::kHighlightClose) {
      s += "\033[0m";
    } else {
      s += c;
    }
  }
  return s;
}

void PrintHuman(const Output& out, const search::SearchResponse& r, bool explain) {
  char buf[64];
  for (const auto& h : r.hits) {
    std::snprintf(buf, sizeof buf, "%2d. %.2f  ", h.rank, h.score);
    out.Line(out.Bold(buf) + h.citation.ToUri());
    std::string heading = h.chunk.chunk.section_label;
    if (heading.empty() && !h.chunk.title.empty()) heading = h.chunk.title;
    if (!heading.empty()) out.Line("    " + out.Dim(heading));
    out.Line("    " + Highlight(out, h.snippet));
    if (explain) {
      auto channel = [&](const char* name, std::optional<int> rank, std::optional<double> score) {
        if (rank) {
          std::snprintf(buf, sizeof buf, "rank %d  score %.3f", *rank, score.value_or(0));
        } else {
          std::snprintf(buf, sizeof buf, "not in this channel's candidates");
        }
        out.Line(std::string("    ├ ") + name + std::string(buf));
      };
      if (h.retrieval.method != SearchMode::kVector) {
        channel("lexical (bm25)  ", h.retrieval.lexical_rank, h.retrieval.lexical_score);
      }
      if (h.retrieval.method != SearchMode::kLexical) {
        channel("vector (cosine) ", h.retrieval.vector_rank, h.retrieval.vector_score);
      }
      std::snprintf(buf, sizeof buf, "%.3f", h.score);
      if (h.retrieval.method == SearchMode::kHybrid) {
        out.Line("    └ rrf fusion      (Σ 1/(k+rank)) / (2/(k+1)) = " + std::string(buf));
      } else if (h.retrieval.method == SearchMode::kLexical) {
        out.Line("    └ normalized      s/(1+s) = " + std::string(buf));
      } else {
        out.Line("    └ cosine          " + std::string(buf));
      }
      out.Line("    chunker " + h.chunk.chunk.chunker_version + "  chunk_id " +
               h.chunk.chunk.chunk_id);
    }
  }
  std::snprintf(buf, sizeof buf, "%.1f ms", r.elapsed_ms);
  out.Line(out.Dim(std::to_string(r.hits.size()) + (r.hits.size() == 1 ? " hit" : " hits") + "  " +
                   std::string(SearchModeName(r.mode)) + "  index " + r.index_version + "  " +
                   buf));
  if (explain && !r.match.expression.empty()) {
    out.Line(out.Dim("match " + r.match.expression));
    if (!r.match.phrase.empty()) out.Line(out.Dim("  whole query as a phrase  " + r.match.phrase));
    for (const search::QueryWordPlan& w : r.match.words) {
      std::string line = "  " + w.word + "  →";
      for (const std::string& t : w.terms) line += "  " + t;
      if (w.terms.empty()) line += "  (nothing)";
      for (const std::string& n : w.notes) line += "  (" + n + ")";
      out.Line(out.Dim(line));
    }
    if (r.match.words_left_out > 0) {
      out.Line(out.Dim("  (" + std::to_string(r.match.words_left_out) +
                       " words past the 256th were not searched)"));
    }
  }
  if (!r.timing_ms.empty()) {
    std::string line = "trace";
    for (const char* stage : {"open_ms", "model_load_ms", "index_open_ms", "query_embed_ms",
                              "lexical_ms", "vector_ms", "fusion_ms", "total_ms"}) {
      auto it = r.timing_ms.find(stage);
      if (it == r.timing_ms.end()) continue;
      std::snprintf(buf, sizeof buf, "  %.*s %.1f ms", static_cast<int>(std::strlen(stage) - 3),
                    stage, it->second);
      line += buf;
    }
    out.Line(out.Dim(line));
  }
  if (r.next_cursor) {
    out.Note(std::string(r.truncated ? "truncated to fit --max-tokens; " : "") +
             "more results: --cursor " + *r.next_cursor);
  }
}

// One query line of --bulk: {"query": str, "k"?: int, "mode"?: str, "id"?: any}.
Result<SearchArgs> BulkLineArgs(const SearchArgs& base, const nlohmann::json& line, int number) {
  const std::string where = "line " + std::to_string(number) + ": ";
  const char* example = "one query a line, e.g. {\"query\": \"wal checkpoint\", \"k\": 5}";
  if (!line.is_object() || !line.contains("query") || !line["query"].is_string()) {
    return InvalidInput(where + "expected a JSON object with a \"query\" string", example);
  }
  SearchArgs a = base;
  a.words = {line["query"].get<std::string>()};
  if (line.contains("k")) {
    if (!line["k"].is_number_integer()) return InvalidInput(where + "\"k\" must be an integer");
    a.k = line["k"].get<int>();
  }
  if (line.contains("mode")) {
    if (!line["mode"].is_string()) return InvalidInput(where + "\"mode\" must be a string");
    a.mode = line["mode"].get<std::string>();
  }
  return a;
}

int RunBulk(const Output& out, app::Session& session, const SearchArgs& args) {
  constexpr int kMaxQueries = 100;
  std::vector<std::string> lines;
  for (std::string line; std::getline(std::cin, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    lines.push_back(std::move(line));
  }
  if (lines.size() > kMaxQueries) {
    return out.Fail(InvalidInput("--bulk takes at most " + std::to_string(kMaxQueries) +
                                     " queries, got " + std::to_string(lines.size()),
                                 "split the queries into several calls"));
  }
  if (lines.empty()) return out.Fail(InvalidInput("--bulk read no queries from stdin"));
  for (size_t i = 0; i < lines.size(); ++i) {
    nlohmann::json item = {{"schema_version", "bulk_search_item.v1"},
                           {"index", i},
                           {"id", nullptr},
                           {"response", nullptr},
                           {"error", nullptr}};
    nlohmann::json line = nlohmann::json::parse(lines[i], nullptr, /*allow_exceptions=*/false);
    if (line.is_object() && line.contains("id")) item["id"] = line["id"];
    Status failed;
    auto a = BulkLineArgs(args, line, static_cast<int>(i) + 1);
    if (!a.ok()) {
      failed = a.status();
    } else if (auto request = BuildRequest(*a, session.config()); !request.ok()) {
      failed = request.status();
    } else if (auto response = app::Search(session, *request); !response.ok()) {
      failed = response.status();
    } else {
      item["response"] = app::wire::SearchResponse(*response, args.explain);
    }
    if (!failed.ok()) item["error"] = app::wire::Error(failed);
    out.Json(item);
  }
  return kExitOk;
}

}  // namespace

int RunSearch(const Output& out, const Globals& g, const SearchArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  if (args.bulk) {
    if (!args.words.empty() || !args.cursor.empty()) {
      return out.Fail(InvalidInput("--bulk reads its queries from stdin",
                                   "drop the query words (and --cursor) from the command line"));
    }
    return RunBulk(out, session, args);
  }
  if (args.words.empty()) {
    return out.Fail(InvalidInput("no query given",
                                 "kebab search WORDS..., or --bulk with ndjson queries on stdin"));
  }
  auto request = BuildRequest(args, session.config());
  if (!request.ok()) return out.Fail(request.status());
  auto response = app::Search(session, *request);
  if (!response.ok()) return out.Fail(response.status());
  if (out.json) {
    out.Json(app::wire::SearchResponse(*response, args.explain));
  } else {
    PrintHuman(out, *response, args.explain);
    if (response->hits.empty()) {
      out.Note("no hits for \"" + response->query + "\"" +
               (response->hint ? "\n  hint: " + *response->hint : std::string()));
    } else if (args.mode.empty() && session.config().embedding.provider == "none") {
      out.Note(
          out.Dim("lexical only: for search by meaning (hybrid), `kebab models pull "
                  "multilingual-e5-small` and set [models.embedding] (see kebab init)"));
    }
  }
  return response->hits.empty() ? kExitNoResult : kExitOk;
}

}  // namespace kebab::cli
