// The operations a client of kebab calls — the CLI, `kebab mcp`, the socket of `kebab serve` and
// what talks to it — each by name, with JSON arguments (the names MCP's tools take), answering
// with its wire v1 object. `kebab serve` answers these over its socket; a CLI with no service
// runs the same call in-process, so both give the same object, and the CLI renders that object
// whichever ran it.
//
// Thread safety: Call may run on many threads against one Session (app/session.h).
// Errors: invalid_input naming the argument ("argument 'k' must be an integer") for arguments
// that do not fit the operation's schema, readonly_mode for an operation that writes in a
// read-only session; otherwise the operation's own.
#pragma once

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "app/ingest.h"
#include "app/queries.h"
#include "app/session.h"
#include "core/status.h"

namespace kebab::app::api {

struct CallContext {
  // Set when the caller gives up (Ctrl-C, a closed connection). May be null.
  const std::atomic<bool>* cancel = nullptr;
  // Receives the progress of an operation that reports it (ingest: ingest_progress.v1), from
  // whichever thread makes it, one call at a time. May be empty.
  std::function<void(const nlohmann::json& event)> on_event;
};

struct Operation {
  std::string name;
  nlohmann::json input_schema;    // app/json_args.h's subset of JSON Schema
  bool writes = false;            // changes the index: refused in a read-only session
  bool reports_progress = false;  // sends events through CallContext::on_event
  std::function<Result<nlohmann::json>(Session&, const nlohmann::json& args, const CallContext&)>
      call;
};

// Every operation, by name:
//   search      search_response.v1; arguments SearchArguments() and `query`, `cursor`
//   list_docs   {"documents": [doc_summary.v1]}; path_glob, tag, lang, code_lang, limit
//   fetch       fetch_result.v1; kind chunk | doc | span | uri, id (or uri), context,
//               max_tokens, line_start/line_end, page_start/page_end, start_ms/end_ms
//   inspect     document_inspection.v1, chunk_inspection.v1, answer.v1, ocr_stats.v1 or
//               ocr_failures.v1; what doc | chunk | answer | ocr_stats | ocr_failures, id, limit
//   schema      schema.v1
//   doctor      doctor.v1 (an unhealthy report is a result, not an error)
//   ingest      ingest_report.v1, with ingest_progress.v1 events; path (absolute: another root
//               than the workspace's), force_reingest, purge, summary_only
const std::vector<Operation>& Operations();
const Operation* FindOperation(std::string_view name);

// Checks `args` against the operation's schema and the session's read-only policy, then runs
// it. invalid_input for an unknown operation.
Result<nlohmann::json> Call(Session& session, std::string_view operation,
                            const nlohmann::json& args, const CallContext& context = {});

// The argument schemas search, bulk search and ask share: the filters (app::FilterParams), and
// for search how to search as well (mode, k, max_tokens, snippet_chars, explain, trace).
nlohmann::json FilterArguments();
nlohmann::json SearchArguments();

// What fetch arguments (checked against the fetch operation's schema) read: the fetch
// operation's result before it becomes fetch_result.v1 (MCP renders it as text too).
Result<FetchResult> FetchOf(Session& session, const nlohmann::json& args);

// What ingest arguments state (the CLI runs an ingest in its own process from the same ones).
IngestOptions IngestOptionsOf(const nlohmann::json& args);

// The parameters arguments already checked against those schemas state.
FilterParams FilterParamsOf(const nlohmann::json& args);
SearchParams SearchParamsOf(const nlohmann::json& args);

}  // namespace kebab::app::api
