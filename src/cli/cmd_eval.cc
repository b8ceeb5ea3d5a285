// kebab eval run | compare | aggregate | list | import.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdio>

#include "app/eval.h"
#include "app/wire.h"
#include "cli/common.h"

namespace kebab::cli {
namespace {

constexpr char kRunHelp[] =
    "Runs every query of a golden suite through search (and with --with-rag through ask),\n"
    "scores the hits against the suite's judgements and keeps the run: in the store (for\n"
    "compare) and as report.md, report.json and per_query.jsonl under {runs_dir}/RUN_ID/.\n\n"
    "Metrics: hit@k, precision@k, recall@k (documents) at k = 1, 3, 5, 10 and --k, MRR@10,\n"
    "nDCG@10 with graded judgements, the empty-result rate and latency p50/p95. With\n"
    "--with-rag also must_contain / forbidden pass rates, citation coverage and refusal\n"
    "correctness (refused when unanswerable, answered otherwise).\n\n"
    "A suite is YAML, a list of queries (or `name:` and `queries:`):\n"
    "  - id: q1\n"
    "    query: how do I extract a tar archive\n"
    "    expected_paths: [notes/tar.md#L3-L9, {path: notes/gzip.md, grade: 2}]\n"
    "    expected_doc_ids: [...]     expected_chunk_ids: [...]    (ids change on re-ingest)\n"
    "    must_contain: [tar -x]      forbidden: [rm -rf]\n"
    "    lang: en   difficulty: easy   group: tar   (paraphrases share a group)\n"
    "  - id: q2\n"
    "    query: what is the capital of Mars\n"
    "    unanswerable: true\n\n"
    "Examples:\n"
    "  kebab eval run --suite golden.yaml                  lexical, k = 10\n"
    "  kebab eval run --suite golden.yaml --mode hybrid --k 50\n"
    "  kebab eval run --suite cranfield                    a collection from `eval import`\n"
    "  kebab eval run --suite golden.yaml --with-rag --json";
constexpr char kCompareHelp[] =
    "Compares run B against run A: every metric's delta, and per query a win, loss, draw\n"
    "or regression (a query that found something relevant in the top k and no longer does)\n"
    "on --metric. With --max-drop it is a gate: exit 1 when --metric fell by more than that.\n\n"
    "Examples:\n"
    "  kebab eval compare run_A run_B\n"
    "  kebab eval compare run_A run_B --metric mrr@10 --max-drop 0.02     (CI gate)";
constexpr char kListHelp[] =
    "The stored runs, newest first: the configured index's and every imported collection's.";
constexpr char kImportHelp[] =
    "Turns a public IR test collection into a kebab collection: one Markdown file per\n"
    "document, a golden suite from its judgements (graded, for nDCG), and its own index at\n"
    "{data_dir}/eval/NAME/, built with the current config. Then `kebab eval run --suite NAME`\n"
    "measures kebab on it. Re-importing rewrites only what changed.\n\n"
    "Formats:\n"
    "  beir  DIR with corpus.jsonl, queries.jsonl and qrels/<split>.tsv\n"
    "  trec  DIR (searched recursively) with document files (<DOC><DOCNO>..<TEXT>..), a\n"
    "        topics file (<top> .. <title>) and a qrels* file (qid iter docno rel)\n\n"
    "Examples:\n"
    "  kebab eval import --format beir ../shared/data/ir/cranfield\n"
    "  kebab eval run --suite cranfield\n"
    "  kebab eval import --format trec ~/trec/robust04 --name robust04";
constexpr char kAggregateHelp[] =
    "Recomputes a stored run's means from its per-query results, stores and prints them.";

std::atomic<bool> g_stop{false};

void OnSigint(int) {
  if (g_stop.exchange(true)) _exit(kExitInterrupted);
}

std::string Fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string Metric(const std::map<std::string, double>& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? "—" : Fixed(it->second, name.ends_with("_ms") ? 1 : 3);
}

void PrintAggregate(const Output& out, const app::EvalRun& run) {
  const auto& m = run.aggregate;
  out.Line("  " + out.Bold("nDCG@10 " + Metric(m, "ndcg@10")) + "   MRR@10 " + Metric(m, "mrr@10") +
           "   hit@1 " + Metric(m, "hit@1") + "   hit@3 " + Metric(m, "hit@3") + "   hit@10 " +
           Metric(m, "hit@10"));
  std::string recall =
      "  recall@5 " + Metric(m, "recall@5") + "   recall@10 " + Metric(m, "recall@10");
  if (run.k > 10) {
    const std::string at = "@" + std::to_string(run.k);
    recall += "   recall" + at + " " + Metric(m, "recall" + at);
  }
  out.Line(recall + "   precision@10 " + Metric(m, "precision@10"));
  out.Line("  empty " + Metric(m, "empty_result_rate") + "   failed " +
           Fixed(m.count("failed_queries") ? m.at("failed_queries") : 0, 0) + "   latency p50 " +
           Metric(m, "latency_p50_ms") + " ms   p95 " + Metric(m, "latency_p95_ms") + " ms");
  if (run.with_rag) {
    out.Line("  answers: grounded " + Metric(m, "grounded_rate") + "   must_contain " +
             Metric(m, "must_contain_pass_rate") + "   forbidden " +
             Metric(m, "forbidden_pass_rate") + "   citation coverage " +
             Metric(m, "citation_coverage") + "   refusal correctness " +
             Metric(m, "refusal_correctness"));
  }
}

void PrintRunHeader(const Output& out, const app::EvalRun& run) {
  const auto& m = run.aggregate;
  const int total = m.count("total_queries") ? static_cast<int>(m.at("total_queries")) : 0;
  const int judged = m.count("judged_queries") ? static_cast<int>(m.at("judged_queries")) : 0;
  out.Line(out.Bold(run.run_id) + "  suite " + run.suite + " (" + std::to_string(total) +
           " queries, " + std::to_string(judged) + " judged)  " + run.mode +
           ", k=" + std::to_string(run.k) + (run.with_rag ? ", with answers" : ""));
}

int Run(const Output& out, const Globals& g, const EvalArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  app::EvalRunOptions options{.suite = args.suite, .k = args.k, .with_rag = args.with_rag};
  if (!args.mode.empty()) {
    options.mode = ParseSearchMode(args.mode);
    if (!options.mode) return out.Fail(InvalidInput("--mode must be lexical, vector or hybrid"));
  }
  options.temperature = args.temperature;
  if (args.seed) options.seed = static_cast<uint64_t>(*args.seed);
  if (auto it = g.env.find("KEBAB_COMMIT_HASH"); it != g.env.end() && !it->second.empty()) {
    options.commit_hash = it->second;
  }
  options.cancel = &g_stop;
  const bool bar = out.stderr_tty && !out.quiet && !out.json;
  options.progress = [&](int done, int total) {
    if (bar) std::fprintf(stderr, "\r  eval %d/%d", done, total);
  };
  std::signal(SIGINT, OnSigint);
  Result<app::EvalRun> run = app::RunEval(session, options);
  if (bar) std::fputs("\r\033[K", stderr);
  if (!run.ok()) {
    if (run.status().code() == ErrorCode::kCancelled) return kExitInterrupted;
    return out.Fail(run.status());
  }
  if (out.json) {
    out.Json(app::wire::EvalRun(*run, args.verbose_json));
    return kExitOk;
  }
  PrintRunHeader(out, *run);
  PrintAggregate(out, *run);
  if (run->report_dir.empty()) {
    out.Note("not recorded (--readonly)");
  } else {
    out.Line(out.Dim("  report: " + run->report_dir + "/report.md"));
  }
  return kExitOk;
}

int Aggregate(const Output& out, const Globals& g, const EvalArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  auto run = app::AggregateEvalRun(session, args.run_a);
  if (!run.ok()) return out.Fail(run.status());
  if (out.json) {
    out.Json(app::wire::EvalRun(*run, false));
    return kExitOk;
  }
  PrintRunHeader(out, *run);
  PrintAggregate(out, *run);
  return kExitOk;
}

int List(const Output& out, const Globals& g, const EvalArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  auto runs = app::ListEvalRuns(session, args.limit);
  if (!runs.ok()) return out.Fail(runs.status());
  if (out.json) {
    out.Json(app::wire::EvalList(*runs));
    return kExitOk;
  }
  if (runs->empty()) {
    out.Line("no eval runs yet");
    out.Note("hint: kebab eval run --suite golden.yaml, or kebab eval import --format beir DIR");
    return kExitOk;
  }
  for (const auto& r : *runs) {
    out.Line(r.run_id + "  " + r.created_at + "  " + r.suite + "  " + r.mode +
             " k=" + std::to_string(r.k) + "  " + std::to_string(r.queries) + " queries  nDCG@10 " +
             Metric(r.aggregate, "ndcg@10") + "  MRR@10 " + Metric(r.aggregate, "mrr@10"));
  }
  return kExitOk;
}

int Compare(const Output& out, const Globals& g, const EvalArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  auto compared =
      app::CompareEvalRuns(session, args.run_a, args.run_b, args.metric, args.max_drop.value_or(0));
  if (!compared.ok()) return out.Fail(compared.status());
  const app::EvalComparison& c = *compared;
  const bool gate = args.max_drop.has_value();
  const bool failed = gate && c.failed;
  if (out.json) {
    out.Json(app::wire::EvalCompare(c, args.max_drop));
    return failed ? kExitNoResult : kExitOk;
  }
  out.Line(out.Bold("A " + c.a.run_id) + "  " + c.a.suite + " " + c.a.mode +
           " k=" + std::to_string(c.a.k) + "  " + c.a.created_at);
  out.Line(out.Bold("B " + c.b.run_id) + "  " + c.b.suite + " " + c.b.mode +
           " k=" + std::to_string(c.b.k) + "  " + c.b.created_at);
  if (c.suites_differ) out.Note("note: the runs measured different suites");
  for (const auto& d : c.deltas) {
    const double delta = d.b - d.a;
    std::string line = "  " + d.name +
                       std::string(d.name.size() < 22 ? 22 - d.name.size() : 1, ' ') +
                       app::FormatMetric(d.name, d.a) + " → " + app::FormatMetric(d.name, d.b) +
                       "  (" + (delta > 0 ? "+" : "") + app::FormatMetric(d.name, delta) + ")";
    out.Line(d.name == c.metric ? out.Bold(line) : line);
  }
  out.Line("per query on " + c.metric + ": " + std::to_string(c.wins) + " wins, " +
           std::to_string(c.losses) + " losses, " + std::to_string(c.draws) + " draws, " +
           std::to_string(c.regressions) + " regressions");
  for (const auto& q : c.queries) {
    if (q.kind == "draw") continue;
    const std::string mark =
        q.kind == "win" ? out.Green("win ") : out.Red(q.kind == "loss" ? "loss" : "REGRESSION");
    out.Line("  " + mark + "  " + q.id + "  " + Fixed(q.a, 3) + " → " + Fixed(q.b, 3) + "  " +
             out.Dim(q.query.substr(0, 60)));
  }
  if (!c.only_in_a.empty() || !c.only_in_b.empty()) {
    out.Note(std::to_string(c.only_in_a.size()) + " queries only in A, " +
             std::to_string(c.only_in_b.size()) + " only in B (not compared)");
  }
  if (failed) {
    out.Line(out.Red("FAILED: " + c.metric + " dropped by more than " + Fixed(*args.max_drop, 4)));
  }
  return failed ? kExitNoResult : kExitOk;
}

int Import(const Output& out, const Globals& g, const EvalArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  auto format = eval::ParseCollectionFormat(args.format);
  if (!format) return out.Fail(InvalidInput("--format must be beir or trec"));
  eval::ImportOptions options{.format = *format, .source = args.source, .name = args.name};
  if (!args.split.empty()) options.split = args.split;
  const bool bar = out.stderr_tty && !out.quiet && !out.json;
  if (bar) std::fputs("  importing ...", stderr);
  const app::IngestEventSink on_event = [&](const app::IngestEvent& e) {
    if (bar && e.kind == app::IngestEvent::Kind::kAssetFinished && e.idx % 50 == 0) {
      std::fprintf(stderr, "\r  indexing %lld/%lld", static_cast<long long>(e.idx),
                   static_cast<long long>(e.total));
    }
  };
  std::signal(SIGINT, OnSigint);
  auto result = app::ImportEvalCollection(session, options, on_event, &g_stop);
  if (bar) std::fputs("\r\033[K", stderr);
  if (!result.ok()) {
    if (result.status().code() == ErrorCode::kCancelled) {
      out.Note(result.status().message());
      return kExitInterrupted;
    }
    return out.Fail(result.status());
  }
  const eval::ImportReport& r = result->report;
  if (out.json) {
    out.Json(app::wire::EvalImportReport(*result));
    return kExitOk;
  }
  for (const std::string& w : r.warnings) out.Note("warning: " + w);
  out.Line(out.Bold("imported " + r.name) + ": " + std::to_string(r.documents) + " documents, " +
           std::to_string(r.queries) + " queries with " + std::to_string(r.judgements) +
           " judgements (" + Fixed(result->import_ms / 1000, 1) + " s; " +
           std::to_string(r.files_written) + " files written, " +
           std::to_string(r.files_unchanged) + " unchanged, " + std::to_string(r.files_removed) +
           " removed)");
  if (r.queries_without_judgements > 0) {
    out.Line("  " + std::to_string(r.queries_without_judgements) +
             " queries without judgements were left out");
  }
  out.Line("indexed: " + std::to_string(result->ingest.new_docs) + " new, " +
           std::to_string(result->ingest.updated) + " updated, " +
           std::to_string(result->ingest.unchanged) + " unchanged (" +
           Fixed(result->ingest_ms / 1000, 1) + " s)  in " + result->dir);
  out.Line(out.Dim("next: kebab eval run --suite " + r.name));
  return kExitOk;
}

}  // namespace

void AddEvalCommand(CLI::App& app, EvalArgs* args) {
  auto* eval = app.add_subcommand(
      "eval", "Measure retrieval and answers against golden queries; compare runs");
  eval->require_subcommand(1);
  const auto action = [args](const char* name) { return [args, name] { args->action = name; }; };

  auto* run = eval->add_subcommand("run", "Run a golden suite and keep the run");
  run->add_option("--suite", args->suite, "Golden YAML file, or an imported collection's name")
      ->required();
  run->add_option("--mode", args->mode, "lexical (default), vector or hybrid");
  run->add_option("--k", args->k, "Hits per query (default 10); metrics at 1, 3, 5, 10 and k")
      ->check(CLI::Range(1, 1000));
  run->add_flag("--with-rag", args->with_rag, "Also answer every query and score the answers");
  run->add_option("--temperature", args->temperature, "With --with-rag: sampling temperature");
  run->add_option("--seed", args->seed, "With --with-rag: sampling seed");
  run->add_flag("--queries", args->verbose_json, "With --json: include every query's hits");
  run->footer(kRunHelp);
  run->callback(action("run"));

  auto* compare = eval->add_subcommand("compare", "Compare run B against run A");
  compare->add_option("a", args->run_a, "The baseline run id")->required();
  compare->add_option("b", args->run_b, "The run to judge")->required();
  compare->add_option("--metric", args->metric, "Per-query metric (default ndcg@10)");
  compare->add_option("--max-drop", args->max_drop,
                      "Exit 1 when --metric fell by more than this (e.g. 0.02)");
  compare->footer(kCompareHelp);
  compare->callback(action("compare"));

  auto* import = eval->add_subcommand(
      "import", "Import a public test collection (BEIR, TREC) with its golden suite");
  import->add_option("--format", args->format, "beir or trec")->required();
  import->add_option("dir", args->source, "The collection's directory")->required();
  import->add_option("--name", args->name, "Collection name (default: the directory's name)");
  import->add_option("--split", args->split, "BEIR qrels split (default test)");
  import->footer(kImportHelp);
  import->callback(action("import"));

  auto* aggregate = eval->add_subcommand("aggregate", "Recompute and store a run's means");
  aggregate->add_option("run", args->run_a, "Run id")->required();
  aggregate->footer(kAggregateHelp);
  aggregate->callback(action("aggregate"));

  auto* list = eval->add_subcommand("list", "The stored eval runs, newest first");
  list->add_option("--limit", args->limit, "At most this many (default 20; 0 = all)");
  list->footer(kListHelp);
  list->callback(action("list"));
}

int RunEvalCommand(const Output& out, const Globals& g, const EvalArgs& args) {
  if (args.action == "run") return Run(out, g, args);
  if (args.action == "compare") return Compare(out, g, args);
  if (args.action == "aggregate") return Aggregate(out, g, args);
  if (args.action == "list") return List(out, g, args);
  if (args.action == "import") return Import(out, g, args);
  return kExitError;
}

}  // namespace kebab::cli
