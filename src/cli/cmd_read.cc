// list docs, inspect doc|chunk, fetch chunk|doc|span.
#include "app/ask.h"
#include "app/queries.h"
#include "app/wire.h"
#include "cli/common.h"

namespace kebab::cli {

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
      out.Line(
          d.doc_id + "  " + d.doc_path + "  " +
          out.Dim(d.title + "  [" + d.lang + ", " + std::to_string(d.chunk_count) + " chunks]"));
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

int RunFetch(const Output& out, const Globals& g, const FetchArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  Result<app::FetchResult> r = Status(ErrorCode::kInvalidInput, "unknown fetch kind");
  if (args.what == "chunk") {
    r = app::FetchChunk(session, args.id, args.context);
  } else if (args.what == "doc") {
    r = app::FetchDocument(session, args.id, args.max_tokens);
  } else {
    r = app::FetchSpan(session, args.id, args.line_start, args.line_end, args.max_tokens);
  }
  if (!r.ok()) return out.Fail(r.status());
  if (out.json) {
    out.Json(app::wire::FetchResult(*r));
    return kExitOk;
  }
  std::string header = r->doc_path;
  if (r->chunk && !r->chunk->chunk.source_spans.empty()) {
    const auto& s = r->chunk->chunk.source_spans[0];
    header += "#L" + std::to_string(s.start) + "-L" + std::to_string(s.end);
  } else if (r->line_start) {
    header += "#L" + std::to_string(*r->line_start) + "-L" + std::to_string(*r->effective_end);
  }
  out.Line(out.Dim(header));
  for (const auto& c : r->context_before) out.Line(out.Dim(c.chunk.text) + "\n");
  out.Line(r->text);
  for (const auto& c : r->context_after) out.Line("\n" + out.Dim(c.chunk.text));
  if (r->truncated) out.Note("truncated to fit --max-tokens");
  return kExitOk;
}

}  // namespace kebab::cli
