// ask: a grounded answer with inline [n] citations and a footer of sources (spec §1.1), the
// refusals (§1.3, §1.4), --explain (§1.2), --json (answer.v1) and --stream (answer_event.v1).
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/ask.h"
#include "app/queries.h"
#include "app/wire.h"
#include "cli/common.h"

namespace kebab::cli {
namespace {

std::atomic<bool> g_stop{false};

void OnSigint(int) {
  // The first Ctrl-C keeps the partial answer (llm_stream_aborted); a second one quits.
  if (g_stop.exchange(true)) _exit(kExitInterrupted);
}

// Rewrites the model's "[#n]" markers to the display form "[n]" as pieces stream to a
// terminal; a "[" at the end of a piece waits for the next piece.
class MarkerDisplay {
 public:
  std::string Feed(std::string_view piece) {
    std::string out;
    for (char c : piece) {
      if (held_bracket_) {
        held_bracket_ = false;
        out += '[';
        if (c == '#') continue;
      }
      if (c == '[') {
        held_bracket_ = true;
        continue;
      }
      out += c;
    }
    return out;
  }
  std::string Flush() { return std::exchange(held_bracket_, false) ? "[" : ""; }

 private:
  bool held_bracket_ = false;
};

std::string Fixed(double v, int digits = 2) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

// "verified 3/4 claims", or "⚠ 0 of 3 claims verified" when the check found nothing.
std::string VerifiedPart(const Output& out, const rag::Verification& v) {
  const std::string cited = std::to_string(v.cited_claims);
  const std::string verified = std::to_string(v.verified_claims());
  if (v.verified_claims() == 0) return out.Red("⚠ 0 of " + cited + " claims verified");
  const std::string text = "verified " + verified + "/" + cited + " claims";
  return v.all_supported() ? out.Green(text) : out.Red(text);
}

std::string StatusLine(const Output& out, const rag::Answer& a) {
  std::string line = a.grounded ? out.Green("grounded ✓") : out.Red("grounded ✗");
  if (a.verification && a.verification->cited_claims > 0) {
    line += "  " + VerifiedPart(out, *a.verification);
  }
  line += "  " + a.model.id + "  " + a.prompt_template_version + "  ";
  if (a.grounded) {
    line += std::to_string(a.citations.size()) + (a.citations.size() == 1 ? " chunk" : " chunks");
  } else if (a.refusal_reason == rag::RefusalReason::kScoreGate ||
             a.refusal_reason == rag::RefusalReason::kNoChunks) {
    line += "0 chunks used";
  } else if (a.refusal_reason == rag::RefusalReason::kUnsupportedClaims) {
    line += std::to_string(a.citations.size()) + (a.citations.size() == 1 ? " chunk" : " chunks") +
            " cited, refused";
  } else {
    line += std::to_string(a.retrieval.chunks_used) + " chunks searched, 0 grounded";
  }
  return line;
}

void PrintSources(const Output& out, const rag::Answer& a) {
  if (a.citations.empty()) return;
  const bool candidates = !a.citations.front().marker.has_value();
  if (candidates) {
    if (a.refusal_reason == rag::RefusalReason::kScoreGate) {
      out.Line(out.Dim("nearest candidates (all below the gate " + Fixed(a.retrieval.score_gate) +
                       "):"));
    } else {
      out.Line(out.Dim("retrieval found these, but they do not answer the question:"));
    }
    for (const rag::AnswerCitation& c : a.citations) {
      out.Line("· " + c.citation.ToUri() + out.Dim(" (score " + Fixed(c.score) + ")"));
    }
    return;
  }
  out.Line(out.Dim("─────────────────────────────────────────────────────────"));
  for (const rag::AnswerCitation& c : a.citations) {
    out.Line(out.Bold(*c.marker) + " " + c.citation.ToUri());
    if (c.citation.section) out.Line("    " + out.Dim(*c.citation.section));
  }
}

// --explain: each sentence of the answer with the sources it cites and whether they hold it.
void PrintClaims(const Output& out, const rag::Answer& a) {
  if (!a.unknown_markers.empty()) {
    std::string removed;
    for (int n : a.unknown_markers) removed += " [" + std::to_string(n) + "]";
    out.Line(out.Dim("removed citations of sources the prompt did not have:" + removed));
  }
  if (!a.verification) return;
  out.Line("");
  for (const rag::ClaimCheck& c : a.verification->claims) {
    out.Line("▎ " + c.text);
    if (c.status == rag::ClaimStatus::kUncited) {
      out.Line(out.Dim("└ (cites nothing)"));
      continue;
    }
    for (int n : c.cited) {
      std::string where = "[" + std::to_string(n) + "]";
      if (n >= 1 && n <= static_cast<int>(a.packed.size())) {
        where += " " + a.packed[static_cast<size_t>(n - 1)].hit.citation.ToUri();
      } else {
        where += out.Dim(" (no such source)");
      }
      out.Line("└ " + where);
    }
    if (c.status == rag::ClaimStatus::kSupported) {
      std::string how;
      if (c.semantic) {
        how = " (semantic " + Fixed(*c.semantic) + ")";
      } else if (c.overlap) {
        how = " (" + std::to_string(c.matched_words) + "/" + std::to_string(c.content_words) +
              " words)";
      }
      out.Line(out.Green("  ✓ supported") + out.Dim(how));
    } else {
      for (const std::string& why : c.reasons) out.Line(out.Red("  ✗ " + why));
    }
  }
  out.Line("");
}

void PrintTrace(const Output& out, const rag::Answer& a) {
  out.Line("");
  out.Line(out.Bold("retrieval trace"));
  out.Line("query            \"" + a.question + "\"");
  out.Line("mode             " + std::string(SearchModeName(a.retrieval.mode)));
  out.Line("k                " + std::to_string(a.retrieval.k));
  const bool pass = a.retrieval.top_score >= a.retrieval.score_gate;
  out.Line("threshold (gate) " + Fixed(a.retrieval.score_gate) + " → top-1 " +
           Fixed(a.retrieval.top_score) + (pass ? " pass" : " fail"));
  out.Line("chunks (used)    " + std::to_string(a.retrieval.chunks_used) + " / " +
           std::to_string(a.retrieval.chunks_returned) + " returned");
  for (const search::SearchHit& h : a.hits) {
    std::string line =
        "#" + std::to_string(h.rank) + " " + Fixed(h.score) + " " + h.citation.ToUri();
    if (h.retrieval.lexical_score) line += " bm25=" + Fixed(*h.retrieval.lexical_score, 1);
    if (h.retrieval.vector_score) line += " vec=" + Fixed(*h.retrieval.vector_score);
    out.Line(out.Dim(line));
  }
  for (const rag::Hop& hop : a.hops) {
    std::string line = "hop " + std::to_string(hop.iter) + " " + hop.kind;
    for (const std::string& q : hop.sub_queries) line += "  \"" + q + "\"";
    if (hop.chunks_added > 0) line += "  +" + std::to_string(hop.chunks_added) + " chunks";
    if (hop.forced_stop) line += "  (limit reached)";
    out.Line(out.Dim(line));
  }
}

void PrintUsage(const Output& out, const rag::Answer& a) {
  out.Line("prompt " + std::to_string(a.usage.prompt_tokens) + " tokens  completion " +
           std::to_string(a.usage.completion_tokens) + " tokens  latency " +
           std::to_string(static_cast<int64_t>(a.timings.total_ms)) + " ms");
  out.Line(out.Dim("retrieval " + Fixed(a.timings.retrieval_ms, 1) + " ms  prompt " +
                   Fixed(a.timings.prompt_ms, 1) + " ms  first token " +
                   Fixed(a.timings.first_token_ms, 1) + " ms  generation " +
                   Fixed(a.timings.generation_ms, 1) + " ms  verify " +
                   Fixed(a.timings.verify_ms, 1) + " ms"));
  if (a.embedding) out.Line(out.Dim("embedding " + a.embedding->id));
  out.Line(out.Dim("trace " + a.retrieval.trace_id + "  (kebab inspect answer " +
                   a.retrieval.trace_id + ")"));
}

Result<app::AskRequest> BuildRequest(const AskArgs& args) {
  app::AskRequest r;
  for (const std::string& w : args.words) r.question += (r.question.empty() ? "" : " ") + w;
  if (!args.mode.empty()) {
    r.mode = ParseSearchMode(args.mode);
    if (!r.mode)
      return InvalidInput("unknown --mode '" + args.mode + "'", "use lexical, vector or hybrid");
  }
  if (args.k) {
    if (*args.k < 1) return InvalidInput("--k must be at least 1");
    r.k = args.k;
  }
  if (args.temperature) {
    if (*args.temperature < 0 || *args.temperature > 2) {
      return InvalidInput("--temperature must be between 0.0 and 2.0");
    }
    r.temperature = args.temperature;
  }
  if (args.seed) r.seed = static_cast<uint64_t>(*args.seed);
  KEBAB_ASSIGN_OR_RETURN(r.filters, app::ResolveFilters(args.filters));
  r.explain = args.explain;
  r.multi_hop = args.multi_hop;
  return r;
}

}  // namespace

int RunAsk(const Output& out, const Globals& g, const AskArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  auto request = BuildRequest(args);
  if (!request.ok()) return out.Fail(request.status());
  request->cancel = &g_stop;

  const bool stream_events = args.stream;
  const bool live = !out.json && !stream_events && out.stdout_tty;
  MarkerDisplay display;
  bool streamed_any = false;
  app::AskCallbacks callbacks;
  callbacks.on_retrieval = [&](const std::vector<search::SearchHit>& hits) {
    if (!stream_events) return;
    out.Json(app::wire::RetrievalDone(hits));
  };
  callbacks.on_piece = [&](std::string_view piece) {
    if (g_stop.load()) return false;
    if (stream_events) {
      out.Json(app::wire::AnswerEvent("token", {{"delta", std::string(piece)}}));
    } else if (live) {
      const std::string text = display.Feed(piece);
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
      streamed_any = true;
    }
    return true;
  };
  g_stop = false;
  std::signal(SIGINT, OnSigint);
  auto result = app::Ask(session, *request, callbacks);
  std::signal(SIGINT, SIG_DFL);
  if (!result.ok()) {
    if (streamed_any) std::fputc('\n', stdout);
    return out.Fail(result.status());
  }
  const rag::Answer& a = result->answer;
  for (const std::string& w : result->warnings) out.Note("warning: " + w);
  const int code = a.grounded ? kExitOk : kExitNoResult;

  if (stream_events) {
    out.Json(app::wire::AnswerEvent("final", {{"answer", app::wire::Answer(a, args.explain)}}));
    return code;
  }
  if (out.json) {
    out.Json(app::wire::Answer(a, args.explain));
    return code;
  }
  if (streamed_any) {
    const std::string rest = display.Flush();
    std::fwrite(rest.data(), 1, rest.size(), stdout);
    std::fputc('\n', stdout);
  }
  if (!streamed_any || !a.grounded) out.Line(a.answer);
  if (args.explain) PrintClaims(out, a);
  PrintSources(out, a);
  if (a.grounded && a.verification && a.verification->unsupported_claims > 0) {
    out.Line(out.Red("⚠ " + std::to_string(a.verification->unsupported_claims) + " of " +
                     std::to_string(a.verification->cited_claims) +
                     " cited claims are not in their sources") +
             (args.explain ? "" : out.Dim(" (--explain shows which)")));
  }
  if (args.explain) PrintTrace(out, a);
  out.Line(StatusLine(out, a));
  if (args.explain) PrintUsage(out, a);
  if (result->hint) out.Note("hint: " + *result->hint);
  return code;
}

}  // namespace kebab::cli
