// search: dense four-line hits (spec §1.5), --explain breakdown (§1.6), --json response.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/queries.h"
#include "app/wire.h"
#include "cli/common.h"
#include "core/time.h"

namespace kebab::cli {
namespace {

app::SearchParams ParamsOf(const SearchArgs& a) {
  app::SearchParams p;
  for (const auto& w : a.words) p.query += (p.query.empty() ? "" : " ") + w;
  p.mode = a.mode;
  p.k = a.k;
  p.max_tokens = a.max_tokens;
  p.snippet_chars = a.snippet_chars;
  p.cursor = a.cursor;
  p.explain = a.explain;
  p.trace = a.trace;
  p.filters = a.filters;
  return p;
}

std::string Highlight(const Output& out, const std::string& snippet) {
  return out.stdout_tty ? app::RenderHighlights(snippet, "\033[1;33m", "\033[0m")
                        : app::RenderHighlights(snippet, "", "");
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
    for (const char* stage :
         {"open_ms", "model_load_ms", "index_open_ms", "query_embed_ms", "lexical_ms",
          "vector_wait_ms", "vector_ms", "fusion_ms", "total_ms"}) {
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

int RunBulk(const Output& out, app::Session& session, const SearchArgs& args) {
  std::vector<std::string> lines;
  for (std::string line; std::getline(std::cin, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    lines.push_back(std::move(line));
  }
  if (lines.size() > app::kMaxBulkQueries) {
    return out.Fail(InvalidInput("--bulk takes at most " + std::to_string(app::kMaxBulkQueries) +
                                     " queries, got " + std::to_string(lines.size()),
                                 "split the queries into several calls"));
  }
  if (lines.empty()) return out.Fail(InvalidInput("--bulk read no queries from stdin"));
  const app::SearchParams base = ParamsOf(args);
  for (size_t i = 0; i < lines.size(); ++i) {
    // A line that is not JSON is an item with its error, like any other bad query.
    const nlohmann::json query =
        nlohmann::json::parse(lines[i], nullptr, /*allow_exceptions=*/false);
    out.Json(app::BulkSearchItem(session, base, query, static_cast<int>(i)));
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
  auto request = app::ResolveSearch(session, ParamsOf(args));
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
