// list docs, inspect doc|chunk, fetch chunk|doc|span.
#include "app/ask.h"
#include "app/queries.h"
#include "app/render.h"
#include "app/wire.h"
#include "cli/common.h"
#include "core/citation.h"

namespace kebab::cli {
namespace {

// "12" or "3-5" (what --page takes); the range check is the facade's.
bool ParsePageRange(const std::string& spec, int* first, int* last) {
  auto number = [](std::string_view s, int* out) {
    if (s.empty() || s.size() > 6) return false;
    int n = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      n = n * 10 + (c - '0');
    }
    *out = n;
    return true;
  };
  const size_t dash = spec.find('-');
  if (dash == std::string::npos) return number(spec, first) && number(spec, last);
  return number(std::string_view(spec).substr(0, dash), first) &&
         number(std::string_view(spec).substr(dash + 1), last);
}

}  // namespace

int RunListDocs(const Output& out, const Globals& g, const ListArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  store::DocListFilter f;
  if (!args.path_glob.empty()) f.path_glob = args.path_glob;
  if (!args.tag.empty()) f.tag = args.tag;
  if (!args.lang.empty()) f.lang = args.lang;
  f.limit = args.limit;
  auto docs = app::ListDocuments(session, f);
  if (!docs.ok()) return out.Fail(docs.status());
  if (out.json) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& d : *docs) a.push_back(app::wire::DocSummary(d));
    out.Json(a);
  } else {
    for (const auto& d : *docs) {
      out.Line(d.doc_id + "  " + d.doc_path + "  " +
               out.Dim(d.title + "  [" + d.code_lang.value_or(d.lang) + ", " +
                       std::to_string(d.chunk_count) + " chunks]"));
    }
    out.Note(std::to_string(docs->size()) + " documents");
  }
  return kExitOk;
}

int RunInspect(const Output& out, const Globals& g, const std::string& what,
               const std::string& id) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  // inspect always prints JSON: it exists to show exactly what is stored.
  if (what == "doc") {
    auto doc = app::InspectDocument(session, id);
    if (!doc.ok()) return out.Fail(doc.status());
    std::string text = app::wire::DocumentInspection(*doc).dump(out.json ? -1 : 2);
    std::printf("%s\n", text.c_str());
    return kExitOk;
  }
  if (what == "ocr-stats") {
    auto stats = app::InspectOcrStats(session);
    if (!stats.ok()) return out.Fail(stats.status());
    std::printf("%s\n", app::wire::OcrStats(*stats).dump(out.json ? -1 : 2).c_str());
    return kExitOk;
  }
  if (what == "answer") {
    auto answer = app::StoredAnswerJson(session, id);
    if (!answer.ok()) return out.Fail(answer.status());
    std::string text = nlohmann::json::parse(*answer).dump(out.json ? -1 : 2);
    std::printf("%s\n", text.c_str());
    return kExitOk;
  }
  auto chunk = app::InspectChunk(session, id);
  if (!chunk.ok()) return out.Fail(chunk.status());
  std::string text = app::wire::ChunkInspection(*chunk).dump(out.json ? -1 : 2);
  std::printf("%s\n", text.c_str());
  return kExitOk;
}

int RunInspectOcrFailures(const Output& out, const Globals& g, const std::string& doc_id,
                          int limit) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  auto failures = app::InspectOcrFailures(
      session, doc_id.empty() ? std::nullopt : std::optional<std::string>(doc_id), limit);
  if (!failures.ok()) return out.Fail(failures.status());
  std::printf("%s\n", app::wire::OcrFailures(*failures).dump(out.json ? -1 : 2).c_str());
  return kExitOk;
}

int RunFetch(const Output& out, const Globals& g, const FetchArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  Result<app::FetchResult> r = Status(ErrorCode::kInvalidInput, "unknown fetch kind");
  if (args.what == "chunk") {
    r = app::FetchChunk(session, args.id, args.context);
  } else if (args.what == "doc") {
    r = app::FetchDocument(session, args.id, args.max_tokens);
  } else if (!args.time.empty()) {
    const size_t dash = args.time.find('-');
    const auto start = dash == std::string::npos
                           ? std::nullopt
                           : ParseMediaTime(std::string_view(args.time).substr(0, dash));
    const auto end = dash == std::string::npos
                         ? std::nullopt
                         : ParseMediaTime(std::string_view(args.time).substr(dash + 1));
    if (!start || !end) {
      return out.Fail(
          InvalidInput("--time takes START-END in seconds or clock time, not '" + args.time + "'",
                       "e.g. --time 62.5-69 or --time 1:02.5-1:09"));
    }
    r = app::FetchTime(session, args.id, *start, *end, args.max_tokens);
  } else if (!args.pages.empty()) {
    int first = 0, last = 0;
    if (!ParsePageRange(args.pages, &first, &last)) {
      return out.Fail(InvalidInput("--page takes N or A-B (1-based), not '" + args.pages + "'",
                                   "e.g. --page 12 or --page 3-5"));
    }
    r = app::FetchPages(session, args.id, first, last, args.max_tokens);
  } else if (args.line_start > 0 && args.line_end > 0) {
    r = app::FetchSpan(session, args.id, args.line_start, args.line_end, args.max_tokens);
  } else {
    r = InvalidInput("fetch span needs START END lines, --page or --time",
                     "kebab fetch span DOC_ID 10 14, kebab fetch span DOC_ID --page 12, or "
                     "kebab fetch span DOC_ID --time 62.5-69");
  }
  if (!r.ok()) return out.Fail(r.status());
  if (out.json) {
    out.Json(app::wire::FetchResult(*r));
    return kExitOk;
  }
  out.Line(out.Dim(app::render::FetchHeader(*r)));
  for (const auto& c : r->context_before) out.Line(out.Dim(c.chunk.text) + "\n");
  out.Line(r->text);
  for (const auto& c : r->context_after) out.Line("\n" + out.Dim(c.chunk.text));
  if (r->truncated) out.Note("truncated to fit --max-tokens");
  return kExitOk;
}

}  // namespace kebab::cli
