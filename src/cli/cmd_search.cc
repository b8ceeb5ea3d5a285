// search: dense four-line hits (spec §1.5), --explain breakdown (§1.6), --json response.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/queries.h"
#include "app/wire.h"
#include "cli/api_client.h"
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

// The arguments of the search operation (app/api.h) the flags state; unset flags are left out,
// so the configured defaults apply.
nlohmann::json ArgumentsOf(const SearchArgs& a) {
  const app::SearchParams p = ParamsOf(a);
  nlohmann::json j = {{"query", p.query}};
  if (!p.mode.empty()) j["mode"] = p.mode;
  if (p.k) j["k"] = *p.k;
  // 0 is the flags' "unset"; anything else, negative too, is the operation's to judge.
  if (p.max_tokens != 0) j["max_tokens"] = p.max_tokens;
  if (p.snippet_chars != 0) j["snippet_chars"] = p.snippet_chars;
  if (!p.cursor.empty()) j["cursor"] = p.cursor;
  if (p.explain) j["explain"] = true;
  if (p.trace) j["trace"] = true;
  const app::FilterParams& f = p.filters;
  auto list = [&](const char* name, const std::vector<std::string>& v) {
    if (!v.empty()) j[name] = v;
  };
  auto text = [&](const char* name, const std::string& v) {
    if (!v.empty()) j[name] = v;
  };
  list("tags", f.tags);
  list("media", f.media);
  list("doc_ids", f.doc_ids);
  list("source_types", f.source_types);
  list("code_langs", f.code_langs);
  list("repos", f.repos);
  text("lang", f.lang);
  text("path_glob", f.path_glob);
  text("trust_min", f.trust_min);
  text("ingested_after", f.ingested_after);
  text("symbol", f.symbol);
  return j;
}

std::string Str(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

// `snippet` with the [start, end) byte ranges of `highlights` wrapped in the terminal's bold
// yellow (plain on a pipe).
std::string Highlight(const Output& out, const nlohmann::json& hit) {
  const std::string snippet = Str(hit, "snippet");
  if (!out.stdout_tty || !hit.contains("highlights")) return snippet;
  std::string s;
  size_t at = 0;
  for (const auto& range : hit["highlights"]) {
    const size_t start = range[0].get<size_t>(), end = range[1].get<size_t>();
    if (start < at || end > snippet.size() || start > end) continue;
    s += snippet.substr(at, start - at) + "\033[1;33m" + snippet.substr(start, end - start) +
         "\033[0m";
    at = end;
  }
  return s + snippet.substr(at);
}

// search_response.v1 as a person reads it: dense four-line hits (spec §1.5), the --explain
// breakdown (§1.6), a footer with `elapsed_ms` (what the caller waited).
void PrintHuman(const Output& out, const nlohmann::json& r, const SearchArgs& args,
                double elapsed_ms) {
  const bool explain = args.explain;
  char buf[64];
  for (const auto& h : r["hits"]) {
    std::snprintf(buf, sizeof buf, "%2d. %.2f  ", h["rank"].get<int>(), h["score"].get<double>());
    out.Line(out.Bold(buf) + Str(h["citation"], "uri"));
    std::string heading = Str(h, "section_label");
    if (heading.empty()) heading = Str(h, "title");
    if (!heading.empty()) out.Line("    " + out.Dim(heading));
    out.Line("    " + Highlight(out, h));
    if (explain) {
      const nlohmann::json& rt = h["retrieval"];
      auto channel = [&](const char* name, const char* rank, const char* score) {
        if (rt[rank].is_number()) {
          std::snprintf(buf, sizeof buf, "rank %d  score %.3f", rt[rank].get<int>(),
                        rt[score].is_number() ? rt[score].get<double>() : 0.0);
        } else {
          std::snprintf(buf, sizeof buf, "not in this channel's candidates");
        }
        out.Line(std::string("    ├ ") + name + std::string(buf));
      };
      const std::string method = Str(rt, "method");
      if (method != "vector") channel("lexical (bm25)  ", "lexical_rank", "lexical_score");
      if (method != "lexical") channel("vector (cosine) ", "vector_rank", "vector_score");
      std::snprintf(buf, sizeof buf, "%.3f", h["score"].get<double>());
      if (method == "hybrid") {
        out.Line("    └ rrf fusion      (Σ 1/(k+rank)) / (2/(k+1)) = " + std::string(buf));
      } else if (method == "lexical") {
        out.Line("    └ normalized      s/(1+s) = " + std::string(buf));
      } else {
        out.Line("    └ cosine          " + std::string(buf));
      }
      out.Line("    chunker " + Str(h, "chunker_version") + "  chunk_id " + Str(h, "chunk_id"));
    }
  }
  const size_t n = r["hits"].size();
  std::snprintf(buf, sizeof buf, "%.1f ms", elapsed_ms);
  out.Line(out.Dim(std::to_string(n) + (n == 1 ? " hit" : " hits") + "  " + Str(r, "mode") +
                   "  index " + Str(r, "index_version") + "  " + buf));
  const nlohmann::json trace = r.value("trace", nlohmann::json::object());
  if (explain && trace.contains("query_plan")) {
    const nlohmann::json& plan = trace["query_plan"];
    out.Line(out.Dim("match " + Str(trace, "match_expression")));
    if (!Str(plan, "phrase").empty()) {
      out.Line(out.Dim("  whole query as a phrase  " + Str(plan, "phrase")));
    }
    for (const auto& w : plan["words"]) {
      std::string line = "  " + Str(w, "word") + "  →";
      for (const auto& t : w["terms"]) line += "  " + t.get<std::string>();
      if (w["terms"].empty()) line += "  (nothing)";
      for (const auto& note : w["notes"]) line += "  (" + note.get<std::string>() + ")";
      out.Line(out.Dim(line));
    }
    if (plan.value("words_left_out", 0) > 0) {
      out.Line(out.Dim("  (" + std::to_string(plan["words_left_out"].get<int>()) +
                       " words past the 256th were not searched)"));
    }
  }
  if (args.trace && trace.contains("timing")) {
    const nlohmann::json& timing = trace["timing"];
    std::string line = "trace";
    for (const char* stage :
         {"open_ms", "model_load_ms", "index_open_ms", "query_embed_ms", "lexical_ms",
          "vector_wait_ms", "vector_ms", "fusion_ms", "total_ms"}) {
      if (!timing.contains(stage)) continue;
      std::snprintf(buf, sizeof buf, "  %.*s %.1f ms", static_cast<int>(std::strlen(stage) - 3),
                    stage, timing[stage].get<double>());
      line += buf;
    }
    out.Line(out.Dim(line));
  }
  if (r["next_cursor"].is_string()) {
    out.Note(std::string(r.value("truncated", false) ? "truncated to fit --max-tokens; " : "") +
             "more results: --cursor " + r["next_cursor"].get<std::string>());
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
  if (args.bulk) {
    if (!args.words.empty() || !args.cursor.empty()) {
      return out.Fail(InvalidInput("--bulk reads its queries from stdin",
                                   "drop the query words (and --cursor) from the command line"));
    }
    app::Session session(*std::move(config), {.readonly = g.readonly});
    return RunBulk(out, session, args);
  }
  if (args.words.empty()) {
    return out.Fail(InvalidInput("no query given",
                                 "kebab search WORDS..., or --bulk with ndjson queries on stdin"));
  }
  const bool lexical_only = config->embedding.provider == "none";
  ApiClient api(out, g, *std::move(config));
  const auto start = std::chrono::steady_clock::now();
  Result<nlohmann::json> response = api.Call("search", ArgumentsOf(args));
  const double elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!response.ok()) return out.Fail(response.status());
  const bool no_hits = (*response)["hits"].empty();
  if (out.json) {
    // Who answered is part of the trace the caller asked for.
    if (args.trace && response->contains("trace")) {
      (*response)["trace"]["served_by"] = api.by_service() ? "service" : "process";
    }
    out.Json(*response);
  } else {
    PrintHuman(out, *response, args, elapsed_ms);
    if (args.trace) out.Line(out.Dim("served by " + api.served_by()));
    if (no_hits) {
      const std::string hint = Str(*response, "hint");
      out.Note("no hits for \"" + Str(*response, "query") + "\"" +
               (hint.empty() ? std::string() : "\n  hint: " + hint));
    } else if (args.mode.empty() && lexical_only) {
      out.Note(
          out.Dim("lexical only: for search by meaning (hybrid), `kebab models pull "
                  "multilingual-e5-small` and set [models.embedding] (see kebab init)"));
    }
  }
  return no_hits ? kExitNoResult : kExitOk;
}

}  // namespace kebab::cli
