// The `kebab` binary: argument parsing and dispatch only; everything else lives in the app
// facade (src/app) and the command handlers beside this file.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/admin.h"
#include "app/queries.h"
#include "cli/commands.h"

namespace kebab::cli {
namespace {

bool EnvTruthy(const config::Environment& env, const char* name, bool* value) {
  auto it = env.find(name);
  if (it == env.end()) return false;
  std::string v = it->second;
  for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (v == "1" || v == "true" || v == "yes" || v == "on") {
    *value = true;
    return true;
  }
  if (v == "0" || v == "false" || v == "no" || v == "off" || v.empty()) {
    *value = false;
    return true;
  }
  return false;
}

// The filters `search` and `ask` share (app::FilterParams).
void AddFilterOptions(CLI::App* cmd, app::FilterParams* f) {
  auto repeatable = [](CLI::Option* o) { o->expected(1)->take_all()->allow_extra_args(false); };
  repeatable(
      cmd->add_option("--tag", f->tags, "Only documents with any of these tags (repeatable)"));
  cmd->add_option("--lang", f->lang, "Only documents in this language (en, ko, ...)");
  cmd->add_option("--path-glob", f->path_glob, "Only paths matching, e.g. 'notes/**/*.md'");
  cmd->add_option("--trust-min", f->trust_min, "primary | secondary | generated");
  repeatable(
      cmd->add_option("--media", f->media, "markdown,pdf,image,audio,code,other (comma list)"));
  repeatable(cmd->add_option("--doc-id", f->doc_ids, "Only these documents (repeatable)"));
  repeatable(cmd->add_option("--source-type", f->source_types,
                             "markdown,note,paper,reference,inbox (comma list)"));
  cmd->add_option("--ingested-after", f->ingested_after,
                  "Only documents indexed after this RFC 3339 time or date");
  repeatable(cmd->add_option("--code-lang", f->code_langs,
                             "Only source code in these languages: rust,python,typescript,go,\n"
                             "java,kotlin,c,cpp,shell,... (comma list or repeated; rs, py, ts,\n"
                             "js, c++ also work; a .h header counts as c)"));
  repeatable(cmd->add_option("--repo", f->repos,
                             "Only files of this git repository: its name (the remote's\n"
                             "basename, else its folder) or its remote URL (repeatable)"));
  cmd->add_option("--symbol", f->symbol,
                  "Only code whose symbol path matches this glob, case-sensitive:\n"
                  "'*Retry*', 'net::retry::*', 'pkg.mod.Class.*', '*.(*Server).Serve'");
}

constexpr const char* kDescription =
    "kebab — a local-first knowledge base: index a folder of Markdown once (and incrementally\n"
    "after), then find passages by words with citations to the exact lines.\n\n"
    "Quick tour:\n"
    "  kebab init                      write ~/.config/kebab/config.toml and the directories\n"
    "  kebab ingest ~/KnowledgeBase    index (re-run any time: only changes are processed)\n"
    "  kebab search \"chunking rules\"   ranked hits as path#L12-L34 citations\n"
    "  kebab ask \"what are the rules?\" an answer citing [1] path#L12-L34, or a refusal\n"
    "  kebab fetch span DOC_ID 12 34   read the cited lines\n"
    "  kebab doctor                    check config, index and models\n"
    "  kebab models pull NAME          download a model: GGUF, or whisper.cpp for speech\n"
    "  kebab mcp                       serve agents (Claude Code, Codex, Cursor) over MCP\n"
    "  kebab serve                     keep models and the index warm for every command\n\n"
    "Every command takes --json for machine-readable output (wire schema v1).\n"
    "Exit codes: 0 ok, 1 no hits / refused / readonly, 2 error, 3 doctor unhealthy,\n"
    "130 interrupted.";

int Main(int argc, char** argv) {
  CLI::App app{kDescription, "kebab"};
  app.require_subcommand(1);
  app.fallthrough();
  app.set_version_flag("--version", std::string("kebab ") + app::kKebabVersion);
  bool json = false, quiet = false, verbose = false, readonly = false;
  Globals g;
  g.env = config::ProcessEnvironment();
  app.add_flag("--json", json, "Machine output: wire schema v1 JSON on stdout, error.v1 on stderr");
  app.add_flag("-q,--quiet", quiet, "No progress or hints on stderr");
  app.add_flag("-v,--verbose", verbose, "More detail on errors");
  app.add_flag("--readonly", readonly,
               "Refuse commands that change the index (also KEBAB_READONLY=1)");
  app.add_flag("--no-service", g.no_service,
               "Run the command in this process even when `kebab serve` runs (also\n"
               "KEBAB_NO_SERVICE=1)");
  app.add_option("--config", g.config_path,
                 "Config file (default ${XDG_CONFIG_HOME:-~/.config}/kebab/config.toml)");

  bool force = false;
  auto* init =
      app.add_subcommand("init", "Write an annotated config, create the directories and the index");
  init->add_flag("--force", force, "Overwrite an existing config file");

  IngestArgs ingest_args;
  auto* ingest = app.add_subcommand(
      "ingest",
      "Index the workspace (or PATH): new and changed files are parsed, unchanged "
      "ones skipped, deleted ones purged");
  ingest->add_option("path", ingest_args.path, "Directory to index (default: workspace.root)");
  ingest->add_option("--root", ingest_args.path, "Same as PATH");
  ingest->add_flag("--force-reingest", ingest_args.force_reingest,
                   "Re-parse every file even when unchanged");
  ingest->add_flag("--summary-only", ingest_args.summary_only,
                   "Leave per-file items out of the report");
  ingest->add_flag("--purge", ingest_args.purge,
                   "Purge documents whose files are gone even when that is most of them or the "
                   "folder is empty (otherwise kept, as an unmounted drive looks the same; see "
                   "[ingest] max_purge_share)");

  std::string file_path;
  auto* ingest_file = app.add_subcommand(
      "ingest-file", "Copy one Markdown file into <root>/_external/ and index it");
  ingest_file->add_option("path", file_path, "The file")->required();

  std::string title;
  auto* ingest_stdin =
      app.add_subcommand("ingest-stdin", "Index Markdown read from standard input");
  ingest_stdin->add_option("--title", title, "Title of the note")->required();

  ListArgs list_args;
  auto* list = app.add_subcommand("list", "List indexed things");
  auto* list_docs = list->add_subcommand("docs", "List indexed documents");
  list->require_subcommand(1);
  list_docs->add_option("--path-glob", list_args.path_glob, "Only paths matching (** crosses /)");
  list_docs->add_option("--tag", list_args.tag, "Only documents with this tag");
  list_docs->add_option("--lang", list_args.lang,
                        "Only documents in this language (en, ko, ...; for code, as listed: cpp, "
                        "python, ...)");
  list_docs->add_option("--code-lang", list_args.code_lang,
                        "Only source code in this programming language (cpp, c++, py, rust, ...)");
  list_docs->add_option("--limit", list_args.limit, "At most N documents");

  std::string inspect_id;
  auto* inspect = app.add_subcommand("inspect", "Show exactly what is stored (JSON)");
  inspect->require_subcommand(1);
  auto* inspect_doc = inspect->add_subcommand("doc", "A document, its blocks and chunk ids");
  inspect_doc->add_option("id", inspect_id, "Document id")->required();
  auto* inspect_chunk = inspect->add_subcommand("chunk", "A chunk with its spans and text");
  inspect_chunk->add_option("id", inspect_id, "Chunk id")->required();
  auto* inspect_answer =
      inspect->add_subcommand("answer", "A recorded `kebab ask` answer (answer.v1)");
  inspect_answer->add_option("trace_id", inspect_id, "Trace id, e.g. ret_4a8b2c1e")->required();
  inspect->add_subcommand("ocr-stats",
                          "What OCR did across ingests: pages read, from the cache, failed, "
                          "time per page, by document (ocr_stats.v1)");
  std::string ocr_doc_id;
  int ocr_limit = 10;
  auto* inspect_ocr_failures = inspect->add_subcommand(
      "ocr-failures", "Pages OCR could not read, newest first, with the reason (ocr_failures.v1)");
  inspect_ocr_failures->add_option("--doc-id", ocr_doc_id, "Only this document's pages");
  inspect_ocr_failures->add_option("--limit", ocr_limit, "At most this many (0 = all)")
      ->capture_default_str();

  FetchArgs fetch_args;
  auto* fetch = app.add_subcommand("fetch", "Read indexed text: a chunk, a document, or lines");
  fetch->require_subcommand(1);
  auto* fetch_chunk = fetch->add_subcommand("chunk", "A chunk, with --context N neighbours");
  fetch_chunk->add_option("id", fetch_args.id, "Chunk id")->required();
  fetch_chunk->add_option("--context", fetch_args.context, "Neighbouring chunks on each side");
  auto* fetch_doc = fetch->add_subcommand("doc", "A whole document");
  fetch_doc->add_option("id", fetch_args.id, "Document id")->required();
  fetch_doc->add_option("--max-tokens", fetch_args.max_tokens, "Cut after about N tokens");
  auto* fetch_span = fetch->add_subcommand(
      "span",
      "Lines START..END (1-based) of a document, pages of a PDF with --page, or what was\n"
      "said in a stretch of a recording with --time");
  fetch_span->add_option("doc_id", fetch_args.id, "Document id")->required();
  auto* span_start = fetch_span->add_option("start", fetch_args.line_start, "First line");
  auto* span_end = fetch_span->add_option("end", fetch_args.line_end, "Last line");
  auto* span_page = fetch_span->add_option(
      "--page", fetch_args.pages,
      "A page (12) or page range (3-5) of a PDF: the text extracted from it");
  span_page->excludes(span_start)->excludes(span_end);
  fetch_span
      ->add_option("--time", fetch_args.time,
                   "A stretch of a recording, START-END in seconds (62.5-69) or clock\n"
                   "time (1:02.5-1:09): the transcript's segments said then")
      ->excludes(span_start)
      ->excludes(span_end)
      ->excludes(span_page);
  fetch_span->add_option("--max-tokens", fetch_args.max_tokens, "Cut after about N tokens");

  SearchArgs s;
  auto* search = app.add_subcommand(
      "search",
      "Find passages by words. Plain words match the whole query as a phrase or any word\n"
      "(BM25-ranked: the phrase and more of the words first). Korean, Chinese and Japanese\n"
      "words match by their character pairs, so part of a word still counts; a Korean\n"
      "particle or ending is left out (회의록을 finds 회의록). In a one- or two-word query the\n"
      "last word is also a prefix (kube finds kubernetes). '…' in single quotes passes raw\n"
      "FTS5 syntax (e.g. 'rust NEAR/5 ownership').");
  search->add_option("query", s.words, "Words to search for (not with --bulk)");
  search->add_option("-k,--k", s.k, "Number of hits (default search.default_k)");
  search->add_option("--mode", s.mode,
                     "lexical, vector or hybrid (default: hybrid when models.embedding is\n"
                     "configured, else lexical)");
  AddFilterOptions(search, &s.filters);
  search->add_option("--max-tokens", s.max_tokens,
                     "Fit the response in about N tokens (shorter snippets, fewer hits)");
  search->add_option("--cursor", s.cursor, "Continue from a previous next_cursor");
  search->add_option("--snippet-chars", s.snippet_chars, "Snippet length (default 220)");
  search->add_flag("--explain", s.explain,
                   "Show how each hit was scored and what each query word searched for");
  search->add_flag("--bulk", s.bulk,
                   "Read up to 100 queries as ndjson on stdin ({\"query\": ..., \"k\": 5,\n"
                   "\"mode\": \"vector\", \"id\": ...}); print one bulk_search_item.v1 line\n"
                   "each. The other flags apply to every query; a failed query does not\n"
                   "stop the rest");
  search->add_flag("--trace", s.trace,
                   "Show per-stage timings (open, model load, query embedding, lexical,\n"
                   "vector, fusion) and each channel's candidates (--json)");

  AskArgs ask_args;
  auto* ask = app.add_subcommand(
      "ask",
      "Answer a question from the knowledge base, citing sources inline as [n] with a\n"
      "footer of path#L12-L34 citations. Every cited sentence is checked against its\n"
      "source (numbers, names, quotes, words; by meaning too with\n"
      "rag.verify_semantic_threshold) and the status line says how many checked out.\n"
      "Refuses (exit 1) when retrieval finds only weak evidence (rag.score_gate, no model\n"
      "call), when the model finds the sources not enough or cites none, and when the\n"
      "check fails: rag.verify = \"auto\" (default) refuses when no cited sentence is in\n"
      "its source and flags the rest, \"refuse\" when any is not, \"warn\" never refuses,\n"
      "\"off\" skips the check. Needs [models.llm]; every answer is kept for `kebab inspect\n"
      "answer`.");
  ask->add_option("question", ask_args.words, "The question")->required();
  ask->add_option("-k,--k", ask_args.k, "Chunks to retrieve (default search.default_k)");
  ask->add_option("--mode", ask_args.mode,
                  "Retrieval: lexical | vector | hybrid (default hybrid with an embedding\n"
                  "model, else lexical)");
  AddFilterOptions(ask, &ask_args.filters);
  ask->add_option("--temperature", ask_args.temperature,
                  "Sampling temperature 0.0..2.0 (default models.llm.temperature)");
  ask->add_option("--seed", ask_args.seed, "Sampling seed (default models.llm.seed)");
  ask->add_flag("--explain", ask_args.explain,
                "Show each cited claim with its source and whether it checks out, the\n"
                "retrieval trace, token usage and stage timings");
  ask->add_flag("--stream", ask_args.stream,
                "Print answer_event.v1 ndjson on stdout: retrieval_done, a token event per\n"
                "piece, then final with the answer.v1");
  ask->add_flag("--multi-hop", ask_args.multi_hop,
                "Split the question into sub-questions, retrieve for each (rag.max_hops\n"
                "rounds), then answer from the pooled chunks");

  app.add_subcommand("doctor", "Check config, data directory, index health and models");
  bool no_watch = false;
  auto* serve = app.add_subcommand(
      "serve",
      "Run the knowledge base as a service in the foreground: one process that keeps the\n"
      "index current as you write (it watches the workspace and indexes what changed a\n"
      "moment after each save; a vanished root pauses it and purges nothing), keeps the\n"
      "models, the vector index and the store open, and answers search, fetch, list,\n"
      "inspect, schema, doctor and ingest for every `kebab` command run with the same config\n"
      "(they use it by themselves: same output, same exit codes). It listens on a Unix\n"
      "socket only you can open ($XDG_RUNTIME_DIR/kebab/); one per data directory. Logs go\n"
      "to stderr and {state_dir}/serve.log; Ctrl-C stops it. `kebab status` shows it");
  serve->add_flag("--no-watch", no_watch,
                  "Do not watch the workspace (also [watch] enabled = false)");
  bool install_unit = false;
  serve->add_flag("--install-unit", install_unit,
                  "Write ~/.config/systemd/user/kebab.service, which runs this kebab serve with\n"
                  "this config at login, and say how to enable it; nothing else runs");
  app.add_subcommand("status",
                     "Whether `kebab serve` runs for this config's data directory: its pid,\n"
                     "uptime, socket, calls answered, memory and what it holds loaded");
  app.add_subcommand("schema", "Capabilities, versions and index statistics");
  McpArgs mcp_args;
  auto* mcp = app.add_subcommand(
      "mcp",
      "Serve the knowledge base to agents over the Model Context Protocol (JSON-RPC on\n"
      "stdin/stdout, or Streamable HTTP with --http). Tools: search, bulk_search, ask,\n"
      "fetch, list_docs, inspect_answer, schema, doctor, ingest, ingest_file, ingest_text\n"
      "(the last three are off with --readonly); resources: every indexed document, and\n"
      "the text of any citation. Models and the index stay loaded between calls. Register\n"
      "it with an agent, e.g. `claude mcp add kebab -- kebab mcp`; pass --config when the\n"
      "agent starts servers without your environment.");
  mcp->add_option("--http", mcp_args.http,
                  "Serve http://ADDR:PORT/mcp (MCP Streamable HTTP) instead of stdio. ADDR\n"
                  "defaults to 127.0.0.1; give 0.0.0.0 or another address only on purpose.\n"
                  "Every request needs the bearer token; browsers' cross-site requests are\n"
                  "refused by their Origin. Stop with Ctrl-C")
      ->type_name("[ADDR:]PORT");
  mcp->add_option("--token", mcp_args.token,
                  "Bearer token HTTP clients must send (at least 16 characters). Default:\n"
                  "KEBAB_MCP_TOKEN, else a random one kept in the state directory's mcp-token\n"
                  "(printed when it is created)");

  std::string reset_scope = "data-only";
  bool yes = false;
  auto* reset =
      app.add_subcommand("reset", "Delete kebab's data (never your notes). Default --data-only");
  auto* scope_group = reset->add_option_group("scope");
  scope_group->add_flag_callback(
      "--all", [&] { reset_scope = "all"; }, "Config, index, cache and state");
  scope_group->add_flag_callback(
      "--data-only", [&] { reset_scope = "data-only"; }, "Index, cache and state (default)");
  scope_group->add_flag_callback(
      "--config-only", [&] { reset_scope = "config-only"; }, "Only the config file");
  scope_group->add_flag_callback(
      "--vector-only", [&] { reset_scope = "vector-only"; },
      "Only the stored vectors (every embedding space); the next ingest re-embeds");
  scope_group->require_option(0, 1);
  reset->add_flag("-y,--yes", yes, "Do not ask for confirmation");

  ModelsArgs models_args;
  AddModelsCommand(app, &models_args);
  EvalArgs eval_args;
  AddEvalCommand(app, &eval_args);

  // Hidden (no group): the build runs it to write the completion files cmake --install puts in
  // place.
  std::string completions_shell;
  auto* completions =
      app.add_subcommand("completions", "Print a completion script for bash or zsh")->group("");
  completions->add_option("shell", completions_shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0 in CLI11.
    if (e.get_exit_code() == 0) return app.exit(e);
    bool wants_json = false;
    for (int i = 1; i < argc; ++i) wants_json = wants_json || std::string_view(argv[i]) == "--json";
    if (!wants_json) {
      app.exit(e);
      return kExitError;
    }
    Output::Detect(true, true, false)
        .Fail(InvalidInput(e.what(), "run `kebab --help` or `kebab <command> --help`"));
    return kExitError;
  }

  // An unrecognized KEBAB_READONLY value errs on the safe side.
  bool env_readonly = false;
  if (!EnvTruthy(g.env, "KEBAB_READONLY", &env_readonly)) {
    env_readonly = g.env.count("KEBAB_READONLY") > 0;
  }
  g.readonly = readonly || env_readonly;
  const Output out = Output::Detect(json, quiet, verbose);

  if (*init) return RunInit(out, g, force);
  if (*ingest) return RunIngest(out, g, ingest_args);
  if (*ingest_file) return RunIngestFile(out, g, file_path);
  if (*ingest_stdin) return RunIngestStdin(out, g, title);
  if (*list_docs) return RunListDocs(out, g, list_args);
  if (*inspect_doc) return RunInspect(out, g, "doc", inspect_id);
  if (*inspect_chunk) return RunInspect(out, g, "chunk", inspect_id);
  if (*inspect_answer) return RunInspect(out, g, "answer", inspect_id);
  if (inspect->got_subcommand("ocr-stats")) return RunInspect(out, g, "ocr-stats", "");
  if (*inspect_ocr_failures) {
    return RunInspectOcrFailures(out, g, ocr_doc_id, ocr_limit);
  }
  if (*fetch_chunk) fetch_args.what = "chunk";
  if (*fetch_doc) fetch_args.what = "doc";
  if (*fetch_span) fetch_args.what = "span";
  if (*fetch) return RunFetch(out, g, fetch_args);
  if (*search) return RunSearch(out, g, s);
  if (*ask) return RunAsk(out, g, ask_args);
  if (app.got_subcommand("doctor")) return RunDoctor(out, g);
  if (app.got_subcommand("schema")) return RunSchema(out, g);
  if (*serve && install_unit) return RunInstallUnit(out, g, !no_watch);
  if (*serve) return RunServe(out, g, !no_watch);
  if (app.got_subcommand("status")) return RunStatus(out, g);
  if (*mcp) return RunMcp(out, g, mcp_args);
  if (*reset) return RunReset(out, g, reset_scope, yes);
  if (!models_args.action.empty()) return RunModels(out, g, models_args);
  if (!eval_args.action.empty()) return RunEvalCommand(out, g, eval_args);
  if (*completions) return RunCompletions(app, completions_shell);
  return kExitError;
}

}  // namespace
}  // namespace kebab::cli

int main(int argc, char** argv) {
  return kebab::cli::Main(argc, argv);
}
