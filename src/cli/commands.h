// One handler per `kebab` subcommand. Handlers only parse-free glue: call the app facade,
// render the result (human or --json), and return the exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/queries.h"
#include "cli/output.h"
#include "config/config.h"

namespace CLI {
class App;
}

namespace kebab::cli {

struct Globals {
  std::string config_path;  // --config; empty = XDG default
  bool readonly = false;    // --readonly or KEBAB_READONLY
  bool no_service = false;  // --no-service: never through `kebab serve` (also KEBAB_NO_SERVICE)
  config::Environment env;
};

struct IngestArgs {
  std::string path;  // positional PATH or --root
  bool force_reingest = false;
  bool purge = false;
  bool summary_only = false;
};

struct SearchArgs {
  std::vector<std::string> words;
  std::optional<int> k;
  std::string mode;  // empty: hybrid with an embedding model configured, else lexical
  app::FilterParams filters;
  std::string cursor;
  int max_tokens = 0;
  int snippet_chars = 0;
  bool explain = false;
  bool trace = false;
  bool bulk = false;  // queries as ndjson on stdin, one bulk_search_item.v1 line each
};

struct AskArgs {
  std::vector<std::string> words;
  std::optional<int> k;
  std::string mode;  // empty: hybrid with an embedding model configured, else lexical
  app::FilterParams filters;
  std::optional<double> temperature;
  std::optional<long long> seed;
  bool explain = false;
  bool stream = false;  // answer_event.v1 ndjson on stdout
  bool multi_hop = false;
};

struct ListArgs {
  std::string path_glob, tag, lang, code_lang;
  int limit = 0;
};

struct FetchArgs {
  std::string what;  // chunk | doc | span
  std::string id;
  int context = 0;
  int max_tokens = 0;
  int line_start = 0, line_end = 0;
  std::string pages;  // span: --page N or A-B
  std::string time;   // span: --time START-END (seconds or clock time)
};

int RunInit(const Output& out, const Globals& g, bool force);
int RunServe(const Output& out, const Globals& g, bool watch);
int RunStatus(const Output& out, const Globals& g);
// Writes the systemd user unit that runs `kebab serve` with this config.
int RunInstallUnit(const Output& out, const Globals& g, bool watch);
int RunIngest(const Output& out, const Globals& g, const IngestArgs& args);
int RunIngestFile(const Output& out, const Globals& g, const std::string& path);
int RunIngestStdin(const Output& out, const Globals& g, const std::string& title);
int RunListDocs(const Output& out, const Globals& g, const ListArgs& args);
int RunInspect(const Output& out, const Globals& g, const std::string& what, const std::string& id);
int RunInspectOcrFailures(const Output& out, const Globals& g, const std::string& doc_id,
                          int limit);
int RunFetch(const Output& out, const Globals& g, const FetchArgs& args);
int RunSearch(const Output& out, const Globals& g, const SearchArgs& args);
int RunAsk(const Output& out, const Globals& g, const AskArgs& args);
int RunDoctor(const Output& out, const Globals& g);
int RunSchema(const Output& out, const Globals& g);
struct McpArgs {
  std::string http;   // --http [ADDR:]PORT; empty: stdio
  std::string token;  // --token; empty: KEBAB_MCP_TOKEN, else the state dir's
};
int RunMcp(const Output& out, const Globals& g, const McpArgs& args);
int RunReset(const Output& out, const Globals& g, const std::string& scope, bool yes);

// `kebab models list|pull|path|rm|gc` (cmd_models.cc). AddModelsCommand registers the
// subcommands and their flags; after parsing, args->action names the one given (empty: none).
struct ModelsArgs {
  std::string action;                   // list | pull | path | rm | gc
  std::string name, url, sha256, kind;  // kind: pull --kind, "" when not given
  bool force = false, yes = false, dry_run = false;
};
void AddModelsCommand(CLI::App& app, ModelsArgs* args);
int RunModels(const Output& out, const Globals& g, const ModelsArgs& args);

// `kebab eval run|compare|aggregate|list|import` (cmd_eval.cc), registered like `models`.
struct EvalArgs {
  std::string action;  // run | compare | aggregate | list | import
  std::string suite, mode;
  int k = 10;
  bool with_rag = false;
  bool verbose_json = false;  // --queries: every query's hits in the --json output
  std::optional<double> temperature;
  std::optional<long long> seed;
  std::string run_a, run_b;
  std::string metric = "ndcg@10";
  std::optional<double> max_drop;
  int limit = 20;
  std::string format, source, name, split;  // import
};
void AddEvalCommand(CLI::App& app, EvalArgs* args);
int RunEvalCommand(const Output& out, const Globals& g, const EvalArgs& args);

// `kebab completions bash|zsh` (cmd_completions.cc): prints the shell's completion script for
// every command and flag registered on `app`.
int RunCompletions(const CLI::App& app, const std::string& shell);

}  // namespace kebab::cli
