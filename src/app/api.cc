#include "app/api.h"

#include <utility>

#include "app/admin.h"
#include "app/ask.h"
#include "app/ingest.h"
#include "app/json_args.h"
#include "app/wire.h"

namespace kebab::app::api {
namespace {

using nlohmann::json;

std::string String(const json& args, const char* name) {
  return args.value(name, std::string());
}

std::vector<std::string> Strings(const json& args, const char* name) {
  return args.contains(name) ? args[name].get<std::vector<std::string>>()
                             : std::vector<std::string>();
}

Result<json> Search(Session& session, const json& args, const CallContext&) {
  const SearchParams params = SearchParamsOf(args);
  KEBAB_ASSIGN_OR_RETURN(search::SearchRequest request, ResolveSearch(session, params));
  KEBAB_ASSIGN_OR_RETURN(search::SearchResponse response, app::Search(session, std::move(request)));
  return wire::SearchResponse(response, params.explain);
}

Result<json> ListDocs(Session& session, const json& args, const CallContext&) {
  store::DocListFilter f;
  if (args.contains("path_glob")) f.path_glob = String(args, "path_glob");
  if (args.contains("tag")) f.tag = String(args, "tag");
  if (args.contains("lang")) f.lang = String(args, "lang");
  if (args.contains("code_lang")) f.code_langs = {String(args, "code_lang")};
  f.limit = args.value("limit", 0);
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::DocSummary> docs, ListDocuments(session, f));
  json list = json::array();
  for (const store::DocSummary& d : docs) list.push_back(wire::DocSummary(d));
  return json{{"documents", std::move(list)}};
}

Result<json> Fetch(Session& session, const json& args, const CallContext&) {
  KEBAB_ASSIGN_OR_RETURN(FetchResult r, FetchOf(session, args));
  return wire::FetchResult(r);
}

Result<json> Inspect(Session& session, const json& args, const CallContext&) {
  const std::string what = String(args, "what");
  const std::string id = String(args, "id");
  auto need_id = [&]() -> Status {
    return args.contains("id") ? Status::OK()
                               : InvalidInput("argument 'id' is required for what " + what);
  };
  if (what == "doc") {
    KEBAB_RETURN_IF_ERROR(need_id());
    KEBAB_ASSIGN_OR_RETURN(store::StoredDocument doc, InspectDocument(session, id));
    return wire::DocumentInspection(doc);
  }
  if (what == "chunk") {
    KEBAB_RETURN_IF_ERROR(need_id());
    KEBAB_ASSIGN_OR_RETURN(store::StoredChunk chunk, InspectChunk(session, id));
    return wire::ChunkInspection(chunk);
  }
  if (what == "answer") {
    KEBAB_RETURN_IF_ERROR(need_id());
    KEBAB_ASSIGN_OR_RETURN(std::string stored, StoredAnswerJson(session, id));
    json answer = json::parse(stored, nullptr, /*allow_exceptions=*/false);
    if (answer.is_discarded()) return Status(ErrorCode::kCorrupt, "the stored answer is not JSON");
    return answer;
  }
  if (what == "ocr_stats") {
    KEBAB_ASSIGN_OR_RETURN(store::OcrStats stats, InspectOcrStats(session));
    return wire::OcrStats(stats);
  }
  std::optional<std::string> doc_id;
  if (args.contains("id")) doc_id = id;
  KEBAB_ASSIGN_OR_RETURN(OcrFailures failures,
                         InspectOcrFailures(session, doc_id, args.value("limit", 10)));
  return wire::OcrFailures(failures);
}

Result<json> IngestOp(Session& session, const json& args, const CallContext& ctx) {
  const IngestOptions options = IngestOptionsOf(args);
  IngestEventSink sink;
  if (ctx.on_event) {
    sink = [&](const IngestEvent& e) { ctx.on_event(wire::IngestProgress(e)); };
  }
  KEBAB_ASSIGN_OR_RETURN(IngestReport report, Ingest(session, options, sink, ctx.cancel));
  return wire::IngestReport(report);
}

Result<json> SchemaOp(Session& session, const json&, const CallContext&) {
  KEBAB_ASSIGN_OR_RETURN(SchemaInfo info, Schema(session));
  return wire::Schema(info);
}

Result<json> DoctorOp(Session& session, const json&, const CallContext&) {
  return wire::Doctor(Doctor(&session, Status::OK(), session.config().config_path));
}

std::vector<Operation> MakeOperations() {
  json search = SearchArguments();
  search["query"] = Str("What to look for.");
  search["cursor"] = Str("next_cursor of a previous response with the same query.");
  return {
      {"search", Object(search, {"query"}), false, false, Search},
      {"list_docs",
       Object({{"path_glob", Str("Only paths matching this glob.")},
               {"tag", Str("Only documents with this tag.")},
               {"lang", Str("Only documents in this language (for code: its programming one).")},
               {"code_lang", Str("Only source code in this programming language.")},
               {"limit", Int("At most this many.", 0)}}),
       false, false, ListDocs},
      {"fetch",
       Object({{"kind", Enum("What to read.", {"chunk", "doc", "span", "uri"})},
               {"id", Str("chunk_id for kind chunk; doc_id for doc and span.")},
               {"uri", Str("kind uri: a citation URI or a workspace path.")},
               {"context", Int("kind chunk: neighbouring chunks on each side.", 0, 20)},
               {"max_tokens", Int("Cut the text at about this many tokens.", 0)},
               {"line_start", Int("kind span: first line, 1-based.", 1)},
               {"line_end", Int("kind span: last line, inclusive.", 1)},
               {"page_start", Int("kind span of a PDF: first page, 1-based.", 1)},
               {"page_end", Int("kind span of a PDF: last page, inclusive.", 1)},
               {"start_ms", Int("kind span of a recording: start, milliseconds.", 0)},
               {"end_ms", Int("kind span of a recording: end, milliseconds.", 0)}},
              {"kind"}),
       false, false, Fetch},
      {"inspect",
       Object({{"what",
                Enum("What to show.", {"doc", "chunk", "answer", "ocr_stats", "ocr_failures"})},
               {"id", Str("doc_id, chunk_id or trace_id; ocr_failures: only this document's.")},
               {"limit", Int("ocr_failures: at most this many (0 = all).", 0)}},
              {"what"}),
       false, false, Inspect},
      {"schema", Object(json::object()), false, false, SchemaOp},
      {"doctor", Object(json::object()), false, false, DoctorOp},
      {"ingest",
       Object({{"path", Str("An absolute directory to index instead of the workspace root.")},
               {"force_reingest", Bool("Parse every file again, changed or not.")},
               {"purge", Bool("Purge documents whose files are gone even when many are.")},
               {"summary_only", Bool("Leave the per-file items out of the report.")}}),
       true, true, IngestOp},
  };
}

}  // namespace

const std::vector<Operation>& Operations() {
  static const std::vector<Operation> operations = MakeOperations();
  return operations;
}

const Operation* FindOperation(std::string_view name) {
  for (const Operation& op : Operations()) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

Result<nlohmann::json> Call(Session& session, std::string_view operation, const json& args,
                            const CallContext& context) {
  const Operation* op = FindOperation(operation);
  if (op == nullptr) {
    std::string names;
    for (const Operation& o : Operations()) names += (names.empty() ? "" : ", ") + o.name;
    return InvalidInput("unknown operation '" + std::string(operation) + "'",
                        "the operations are: " + names);
  }
  KEBAB_RETURN_IF_ERROR(CheckArguments(op->input_schema, args));
  if (op->writes) KEBAB_RETURN_IF_ERROR(session.CheckWritable(op->name));
  return op->call(session, args, context);
}

json FilterArguments() {
  return {
      {"tags", StrList("Only documents with any of these front-matter tags.")},
      {"media", StrList("Only these media: markdown, pdf, image, audio, code, other.")},
      {"doc_ids", StrList("Only these documents (doc_id from list_docs or a hit).")},
      {"source_types",
       StrList("Only these source types: markdown, note, paper, reference, inbox.")},
      {"lang", Str("Only documents in this language (ISO 639-1, e.g. en, ko).")},
      {"path_glob", Str("Only documents whose workspace path matches this glob, e.g. notes/**.")},
      {"trust_min",
       Enum("Only documents at least this trusted.", {"primary", "secondary", "generated"})},
      {"ingested_after", Str("Only documents indexed after this RFC 3339 date, e.g. 2026-05-01.")},
      {"code_langs", StrList("Only source code in these languages: rust, python, typescript, "
                             "javascript, go, java, kotlin, c, cpp, shell, ... (a hit's "
                             "code_lang).")},
      {"repos", StrList("Only files of these git repositories: a name (a hit's repo) or a "
                        "remote URL.")},
      {"symbol", Str("Only code whose symbol path matches this case-sensitive glob, e.g. "
                     "*Retry* or net::retry::* (a code citation's symbol).")},
  };
}

json SearchArguments() {
  json props = FilterArguments();
  props.update({
      {"mode", Enum("How to match: lexical (words, BM25), vector (meaning, needs an embedding "
                    "model) or hybrid (both, fused). Default: hybrid when an embedding model "
                    "is configured, else lexical.",
                    {"lexical", "vector", "hybrid"})},
      {"k", Int("How many hits to return (default search.default_k, usually 10).", 1, 1000)},
      {"max_tokens",
       Int("Budget for the whole response in tokens (about 4 characters each); hits past it "
           "are cut and next_cursor continues.",
           1)},
      {"snippet_chars", Int("Length of each hit's snippet in characters.", 20, 4000)},
      {"explain", Bool("Add each hit's lexical and vector ranks and how the query was built.")},
      {"trace", Bool("Add the milliseconds each stage took (trace.timing).")},
  });
  return props;
}

IngestOptions IngestOptionsOf(const json& args) {
  IngestOptions options;
  if (args.contains("path")) options.root = String(args, "path");
  options.force_reingest = args.value("force_reingest", false);
  options.purge = args.value("purge", false);
  options.summary_only = args.value("summary_only", false);
  return options;
}

Result<FetchResult> FetchOf(Session& session, const json& args) {
  const std::string kind = String(args, "kind");
  const std::string id = String(args, "id");
  const int max_tokens = args.value("max_tokens", 0);
  if (kind == "uri") {
    if (!args.contains("uri")) return InvalidInput("argument 'uri' is required for kind uri");
    return FetchCitation(session, String(args, "uri"), max_tokens);
  }
  if (!args.contains("id")) return InvalidInput("argument 'id' is required for kind " + kind);
  const bool lines = args.contains("line_start") && args.contains("line_end");
  const bool pages = args.contains("page_start");
  const bool times = args.contains("start_ms") && args.contains("end_ms");
  if (kind == "span" && int{lines} + int{pages} + int{times} != 1) {
    return InvalidInput(
        "kind span needs line_start and line_end, page_start (and page_end), or start_ms and "
        "end_ms",
        "take them from a hit's citation: start and end, page, or start_ms and end_ms");
  }
  if (kind == "chunk") return FetchChunk(session, id, args.value("context", 0));
  if (kind == "doc") return FetchDocument(session, id, max_tokens);
  if (times) {
    return FetchTime(session, id, args["start_ms"].get<uint64_t>(), args["end_ms"].get<uint64_t>(),
                     max_tokens);
  }
  if (pages) {
    return FetchPages(session, id, args["page_start"].get<int>(),
                      args.value("page_end", args["page_start"].get<int>()), max_tokens);
  }
  return FetchSpan(session, id, args["line_start"].get<int>(), args["line_end"].get<int>(),
                   max_tokens);
}

FilterParams FilterParamsOf(const json& args) {
  FilterParams f;
  f.tags = Strings(args, "tags");
  f.media = Strings(args, "media");
  f.doc_ids = Strings(args, "doc_ids");
  f.source_types = Strings(args, "source_types");
  f.code_langs = Strings(args, "code_langs");
  f.repos = Strings(args, "repos");
  f.lang = String(args, "lang");
  f.path_glob = String(args, "path_glob");
  f.trust_min = String(args, "trust_min");
  f.ingested_after = String(args, "ingested_after");
  f.symbol = String(args, "symbol");
  return f;
}

SearchParams SearchParamsOf(const json& args) {
  SearchParams p;
  p.query = String(args, "query");
  p.mode = String(args, "mode");
  if (args.contains("k")) p.k = args["k"].get<int>();
  p.max_tokens = args.value("max_tokens", 0);
  p.snippet_chars = args.value("snippet_chars", 0);
  p.cursor = String(args, "cursor");
  p.explain = args.value("explain", false);
  p.trace = args.value("trace", false);
  p.filters = FilterParamsOf(args);
  return p;
}

}  // namespace kebab::app::api
