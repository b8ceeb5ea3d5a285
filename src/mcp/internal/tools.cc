#include "mcp/internal/tools.h"

#include <map>
#include <string_view>

#include "app/admin.h"
#include "app/api.h"
#include "app/ask.h"
#include "app/ingest.h"
#include "app/json_args.h"
#include "app/queries.h"
#include "app/render.h"
#include "app/wire.h"

namespace kebab::mcp::internal {
namespace {

using app::Bool;
using app::Enum;
using app::Int;
using app::Num;
using app::Object;
using app::Str;
using app::StrList;

// The wire schemas, bundled self-contained at build time (src/mcp/bundle_schemas.py), each as
// "the object or error.v1".
const json& WireSchema(std::string_view name) {
  static const std::map<std::string, json, std::less<>> schemas = [] {
    static constexpr std::pair<const char*, std::string_view> kBundled[] = {
#include "mcp_schemas.inc"
    };
    std::map<std::string, json, std::less<>> parsed;
    for (const auto& [stem, text] : kBundled) parsed[stem] = json::parse(text);
    return parsed;
  }();
  return schemas.find(name)->second;
}

std::string String(const json& args, const char* name) {
  return args.value(name, std::string());
}

json AskProperties() {
  json props = app::api::FilterArguments();
  props.update({
      {"question", Str("The question, in any language; the answer uses the same.")},
      {"mode", Enum("Retrieval mode (default hybrid with an embedding model, else lexical).",
                    {"lexical", "vector", "hybrid"})},
      {"k", Int("Passages to retrieve.", 1, 100)},
      {"explain", Bool("Add the packed passages, the model's raw reply and timings.")},
      {"multi_hop", Bool("Decompose the question and retrieve for each part.")},
      {"temperature", Num("Sampling temperature.", 0, 2)},
      {"seed", Int("Sampling seed, for repeatable answers.", 0)},
  });
  return props;
}

Result<ToolOutput> SearchTool(app::Session& session, const json& args, const CallContext&) {
  const app::SearchParams params = app::api::SearchParamsOf(args);
  KEBAB_ASSIGN_OR_RETURN(search::SearchRequest request, app::ResolveSearch(session, params));
  KEBAB_ASSIGN_OR_RETURN(search::SearchResponse response, app::Search(session, std::move(request)));
  return ToolOutput{app::wire::SearchResponse(response, params.explain),
                    app::render::Search(response)};
}

Result<ToolOutput> BulkSearchTool(app::Session& session, const json& args, const CallContext&) {
  const app::SearchParams base = app::api::SearchParamsOf(args);
  json results = json::array();
  int failed = 0;
  std::string text;
  for (size_t i = 0; i < args["queries"].size(); ++i) {
    json item = app::BulkSearchItem(session, base, args["queries"][i], static_cast<int>(i));
    const json& query = args["queries"][i];
    text += "[" + std::to_string(i) + "] " + query.value("query", std::string()) + ": ";
    if (item["error"].is_null()) {
      text += std::to_string(item["response"]["hits"].size()) + " hits";
      for (const json& hit : item["response"]["hits"]) {
        text += "\n    " + hit["citation"]["uri"].get<std::string>();
      }
    } else {
      ++failed;
      text += "error " + item["error"]["code"].get<std::string>() + ": " +
              item["error"]["message"].get<std::string>();
    }
    text += "\n";
    results.push_back(std::move(item));
  }
  const int total = static_cast<int>(results.size());
  return ToolOutput{
      {{"schema_version", "bulk_search_response.v1"},
       {"results", std::move(results)},
       {"summary", {{"total", total}, {"succeeded", total - failed}, {"failed", failed}}}},
      text};
}

Result<ToolOutput> AskTool(app::Session& session, const json& args, const CallContext& ctx) {
  app::AskRequest request;
  request.question = String(args, "question");
  if (args.contains("mode")) request.mode = ParseSearchMode(String(args, "mode"));
  if (args.contains("k")) request.k = args["k"].get<int>();
  request.explain = args.value("explain", false);
  request.multi_hop = args.value("multi_hop", false);
  if (args.contains("temperature")) request.temperature = args["temperature"].get<double>();
  if (args.contains("seed")) request.seed = args["seed"].get<uint64_t>();
  KEBAB_ASSIGN_OR_RETURN(request.filters, app::ResolveFilters(app::api::FilterParamsOf(args)));
  request.cancel = ctx.cancel;
  // Progress: 1 once the passages are retrieved, then one more per piece of the answer.
  int pieces = 0;
  app::AskCallbacks callbacks;
  callbacks.on_retrieval = [&](const std::vector<search::SearchHit>& hits) {
    ctx.progress(1, 0, "retrieved " + std::to_string(hits.size()) + " passages");
  };
  callbacks.on_piece = [&](std::string_view) {
    ++pieces;
    ctx.progress(1 + pieces, 0, "answering: " + std::to_string(pieces) + " pieces");
    return ctx.cancel == nullptr || !ctx.cancel->load();
  };
  KEBAB_ASSIGN_OR_RETURN(app::AskResult result, app::Ask(session, request, callbacks));
  std::string text = app::render::Answer(result.answer);
  for (const std::string& w : result.warnings) text += "\nwarning: " + w;
  return ToolOutput{app::wire::Answer(result.answer, request.explain), text};
}

Result<ToolOutput> FetchTool(app::Session& session, const json& args, const CallContext&) {
  KEBAB_ASSIGN_OR_RETURN(app::FetchResult r, app::api::FetchOf(session, args));
  return ToolOutput{app::wire::FetchResult(r), app::render::Fetch(r)};
}

Result<ToolOutput> ListDocsTool(app::Session& session, const json& args, const CallContext&) {
  store::DocListFilter f;
  if (args.contains("path_glob")) f.path_glob = String(args, "path_glob");
  if (args.contains("tag")) f.tag = String(args, "tag");
  if (args.contains("lang")) f.lang = String(args, "lang");
  f.limit = args.value("limit", 0);
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::DocSummary> docs, app::ListDocuments(session, f));
  json list = json::array();
  for (const store::DocSummary& d : docs) list.push_back(app::wire::DocSummary(d));
  return ToolOutput{{{"documents", std::move(list)}}, app::render::DocList(docs)};
}

Result<ToolOutput> InspectAnswerTool(app::Session& session, const json& args, const CallContext&) {
  KEBAB_ASSIGN_OR_RETURN(std::string stored,
                         app::StoredAnswerJson(session, String(args, "trace_id")));
  json answer = json::parse(stored, nullptr, /*allow_exceptions=*/false);
  if (answer.is_discarded()) return Status(ErrorCode::kCorrupt, "the stored answer is not JSON");
  std::string text = answer.value("answer", std::string()) + "\n";
  for (const json& c : answer.value("citations", json::array())) {
    text += "\n" + (c["marker"].is_string() ? c["marker"].get<std::string>() + " " : "· ") +
            c["citation"].value("uri", std::string());
  }
  return ToolOutput{std::move(answer), text};
}

Result<ToolOutput> SchemaTool(app::Session& session, const json&, const CallContext&) {
  KEBAB_ASSIGN_OR_RETURN(app::SchemaInfo info, app::Schema(session));
  return ToolOutput{app::wire::Schema(info), app::render::Schema(info)};
}

Result<ToolOutput> DoctorTool(app::Session& session, const json&, const CallContext&) {
  const app::DoctorReport report =
      app::Doctor(&session, Status::OK(), session.config().config_path);
  return ToolOutput{app::wire::Doctor(report), app::render::Doctor(report)};
}

Result<ToolOutput> IngestTool(app::Session& session, const json& args, const CallContext& ctx) {
  app::IngestOptions options;
  options.summary_only = true;
  if (args.contains("path")) options.root = String(args, "path");
  // Progress: files done of the files found.
  const app::IngestEventSink on_event = [&](const app::IngestEvent& e) {
    if (e.kind == app::IngestEvent::Kind::kAssetFinished) {
      ctx.progress(static_cast<double>(e.idx), static_cast<double>(e.total), e.path);
    }
  };
  KEBAB_ASSIGN_OR_RETURN(app::IngestReport report,
                         app::Ingest(session, options, on_event, ctx.cancel));
  return ToolOutput{app::wire::IngestReport(report), app::render::Ingest(report)};
}

Result<ToolOutput> IngestFileTool(app::Session& session, const json& args, const CallContext&) {
  KEBAB_ASSIGN_OR_RETURN(app::IngestReport report, app::IngestFile(session, String(args, "path")));
  return ToolOutput{app::wire::IngestReport(report), app::render::Ingest(report)};
}

Result<ToolOutput> IngestTextTool(app::Session& session, const json& args, const CallContext&) {
  KEBAB_ASSIGN_OR_RETURN(app::IngestReport report,
                         app::IngestText(session, String(args, "title"), String(args, "body")));
  return ToolOutput{app::wire::IngestReport(report), app::render::Ingest(report)};
}

std::vector<Tool> MakeTools() {
  json search_props = app::api::SearchArguments();
  search_props["query"] =
      Str("What to look for: words, a question, or a phrase in \"quotes\". Korean, Chinese and "
          "Japanese work too.");
  search_props["cursor"] =
      Str("next_cursor of a previous response with the same query, for "
          "the next page.");
  json bulk_props = app::api::SearchArguments();
  bulk_props["queries"] = {
      {"type", "array"},
      {"minItems", 1},
      {"maxItems", app::kMaxBulkQueries},
      {"description",
       "The queries, run in order with the shared filters; a query that fails "
       "is reported in its own result and the others still run."},
      {"items", Object({{"query", Str("What to look for.")},
                        {"k", Int("Hits for this query.", 1, 1000)},
                        {"mode", Enum("lexical, vector or hybrid for this query.",
                                      {"lexical", "vector", "hybrid"})},
                        {"id", {{"description", "Any JSON value, echoed in its result."}}}},
                       {"query"})}};
  // {documents: [doc_summary.v1]} or error.v1, over the bundled doc_summary's definitions.
  json doc_list = WireSchema("doc_summary");
  doc_list["description"] = "The documents, or error.v1 when the tool fails.";
  doc_list["anyOf"][0] = {
      {"type", "object"},
      {"properties",
       {{"documents", {{"type", "array"}, {"items", {{"$ref", "#/$defs/doc_summary"}}}}}}},
      {"required", {"documents"}}};
  return {
      {"search", "Search the knowledge base",
       "Finds passages in the user's indexed notes, documents and code by words and by "
       "meaning. Each hit cites its source exactly (path#L12-L34, a page, a region, a time) "
       "with a snippet; pass a hit's doc_id or chunk_id to fetch to read more.",
       Object(search_props, {"query"}), WireSchema("search_response"), false, true, SearchTool},
      {"bulk_search", "Run several searches at once",
       "Runs up to 100 searches in one call (e.g. the sub-questions of a decomposed question) "
       "with shared filters; each result is a full search response or that query's error.",
       Object(bulk_props, {"queries"}), WireSchema("bulk_search_response"), false, true,
       BulkSearchTool},
      {"ask", "Answer from the knowledge base with citations",
       "Answers a question from the indexed sources only, with inline [n] citations whose "
       "claims are checked against the cited text. Refuses (grounded: false, refusal_reason) "
       "when the evidence is weak or the check fails: a refusal is an answer, not an error. "
       "Needs a language model in the config.",
       Object(AskProperties(), {"question"}), WireSchema("answer"), false, false, AskTool},
      {"fetch", "Read a document, a chunk, a line range or PDF pages",
       "Reads what a hit cites: kind chunk (a chunk_id, with `context` neighbouring chunks), "
       "doc (a doc_id: the whole document) or span (a doc_id and line_start..line_end, as a "
       "line citation's start and end; page_start..page_end, as a page citation's page; or "
       "start_ms..end_ms, as a time citation's: what was said then).",
       Object(
           {{"kind", Enum("What to read.", {"chunk", "doc", "span"})},
            {"id", Str("chunk_id for kind chunk; doc_id for doc and span.")},
            {"context", Int("kind chunk: neighbouring chunks on each side.", 0, 20)},
            {"max_tokens", Int("Cut the text at about this many tokens.", 1)},
            {"line_start", Int("kind span: first line, 1-based.", 1)},
            {"line_end", Int("kind span: last line, inclusive.", 1)},
            {"page_start", Int("kind span of a PDF: first page, 1-based.", 1)},
            {"page_end", Int("kind span of a PDF: last page, inclusive (default page_start).", 1)},
            {"start_ms", Int("kind span of a recording: start of the stretch, milliseconds (a time "
                             "citation's start_ms).",
                             0)},
            {"end_ms", Int("kind span of a recording: its end, milliseconds.", 0)}},
           {"kind", "id"}),
       WireSchema("fetch_result"), false, true, FetchTool},
      {"list_docs", "List indexed documents",
       "Lists the indexed documents with their doc_id, path, title, language and chunk count.",
       Object({{"path_glob", Str("Only paths matching this glob, e.g. notes/**.")},
               {"tag", Str("Only documents with this tag.")},
               {"lang", Str("Only documents in this language.")},
               {"limit", Int("At most this many.", 1)}}),
       doc_list, false, true, ListDocsTool},
      {"inspect_answer", "Show a stored answer",
       "Returns an earlier answer of ask (or of `kebab ask`) by its retrieval.trace_id.",
       Object({{"trace_id", Str("retrieval.trace_id of the answer, e.g. ret_4a8b2c1e.")}},
              {"trace_id"}),
       WireSchema("answer"), false, true, InspectAnswerTool},
      {"schema", "What this knowledge base holds and can do",
       "Versions, capabilities, document and chunk counts, languages, media, embedding spaces.",
       Object(json::object()), WireSchema("schema"), false, true, SchemaTool},
      {"doctor", "Check the installation",
       "Checks the config, the data directory, the index and the models; each check says what "
       "to fix. An unhealthy report is a result, not an error.",
       Object(json::object()), WireSchema("doctor"), false, true, DoctorTool},
      {"ingest", "Index the workspace",
       "Indexes new and changed files of the workspace (or of `path`) and drops deleted ones; "
       "unchanged files cost a stat.",
       Object({{"path", Str("A directory to index instead of the configured workspace root.")}}),
       WireSchema("ingest_report"), true, true, IngestTool},
      {"ingest_file", "Index one file",
       "Copies a Markdown file into the workspace's _external/ folder and indexes it.",
       Object({{"path", Str("Absolute path of the file.")}}, {"path"}), WireSchema("ingest_report"),
       true, true, IngestFileTool},
      {"ingest_text", "Save and index a note",
       "Saves a Markdown note (title and body) in the workspace's _external/ folder and "
       "indexes it, so later searches find it.",
       Object({{"title", Str("The note's title.")}, {"body", Str("The note, in Markdown.")}},
              {"title", "body"}),
       WireSchema("ingest_report"), true, true, IngestTextTool},
  };
}

}  // namespace

const std::vector<Tool>& Tools() {
  static const std::vector<Tool> tools = MakeTools();
  return tools;
}

json Describe(const Tool& tool) {
  return {{"name", tool.name},
          {"title", tool.title},
          {"description", tool.description},
          {"inputSchema", tool.input_schema},
          {"outputSchema", tool.output_schema},
          {"annotations",
           {{"title", tool.title},
            {"readOnlyHint", !tool.writes},
            {"destructiveHint", false},
            {"idempotentHint", tool.idempotent},
            {"openWorldHint", false}}}};
}

}  // namespace kebab::mcp::internal
