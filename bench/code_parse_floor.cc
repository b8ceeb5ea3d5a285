// The parse-only floor of code ingest (bench/code_bench.py): reads the files named on stdin, one
// path a line, and parses each with the tree-sitter grammar kebab picks for its extension, on
// --threads workers (kebab ingest runs one extractor per core). Nothing is stored, chunked or
// walked: this is the least any tree-sitter indexer must do with these files, so kebab's cold
// ingest is measured against it. A file whose extension has no grammar is read and counted but
// not parsed. Prints one JSON line: files, bytes, parsed files, files with syntax errors, wall
// seconds (the script times the whole process as well, for the peak RSS).
//
// Usage: kebab_code_parse_floor [--threads N] < list-of-paths
#include <tree_sitter/api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "parse/internal/grammars.h"

namespace {

// The extension → grammar map of src/parse/code.cc (a .h is read as C++ there too).
const TSLanguage* GrammarFor(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view name = path.substr(slash == std::string_view::npos ? 0 : slash + 1);
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return nullptr;
  std::string ext(name.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  struct Entry {
    const char* ext;
    const TSLanguage* (*grammar)();
  };
  static const Entry kMap[] = {
      {"rs", tree_sitter_rust},        {"py", tree_sitter_python},
      {"pyi", tree_sitter_python},     {"ts", tree_sitter_typescript},
      {"mts", tree_sitter_typescript}, {"cts", tree_sitter_typescript},
      {"tsx", tree_sitter_tsx},        {"js", tree_sitter_javascript},
      {"jsx", tree_sitter_javascript}, {"mjs", tree_sitter_javascript},
      {"cjs", tree_sitter_javascript}, {"go", tree_sitter_go},
      {"java", tree_sitter_java},      {"kt", tree_sitter_kotlin},
      {"kts", tree_sitter_kotlin},     {"c", tree_sitter_c},
      {"h", tree_sitter_cpp},          {"cc", tree_sitter_cpp},
      {"cpp", tree_sitter_cpp},        {"cxx", tree_sitter_cpp},
      {"hh", tree_sitter_cpp},         {"hpp", tree_sitter_cpp},
      {"hxx", tree_sitter_cpp},
  };
  for (const Entry& e : kMap) {
    if (ext == e.ext) return e.grammar();
  }
  return nullptr;
}

struct Totals {
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> parsed{0};
  std::atomic<uint64_t> with_errors{0};
  std::atomic<uint64_t> unreadable{0};
};

// Parses files[i] for each i taken from `next` until none is left; one parser per worker, as
// each kebab extractor keeps its own.
void Work(const std::vector<std::string>& files, std::atomic<size_t>* next, Totals* totals) {
  std::unique_ptr<TSParser, void (*)(TSParser*)> parser(ts_parser_new(), ts_parser_delete);
  for (size_t i = next->fetch_add(1); i < files.size(); i = next->fetch_add(1)) {
    std::ifstream in(files[i], std::ios::binary);
    if (!in) {
      totals->unreadable.fetch_add(1);
      continue;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string text = std::move(buffer).str();
    totals->bytes.fetch_add(text.size());
    const TSLanguage* grammar = GrammarFor(files[i]);
    if (grammar == nullptr || !ts_parser_set_language(parser.get(), grammar)) continue;
    TSTree* tree = ts_parser_parse_string(parser.get(), nullptr, text.data(),
                                          static_cast<uint32_t>(text.size()));
    if (tree == nullptr) continue;
    totals->parsed.fetch_add(1);
    if (ts_node_has_error(ts_tree_root_node(tree))) totals->with_errors.fetch_add(1);
    ts_tree_delete(tree);
  }
}

}  // namespace

int main(int argc, char** argv) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    } else {
      std::fprintf(stderr, "usage: %s [--threads N] < list-of-paths\n", argv[0]);
      return 2;
    }
  }
  std::vector<std::string> files;
  for (std::string line; std::getline(std::cin, line);) {
    if (!line.empty()) files.push_back(line);
  }

  const auto t0 = std::chrono::steady_clock::now();
  Totals totals;
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
    workers.emplace_back(Work, std::cref(files), &next, &totals);
  for (std::thread& w : workers) w.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::printf(
      "{\"files\":%zu,\"bytes\":%llu,\"parsed\":%llu,\"with_errors\":%llu,\"unreadable\":%llu,"
      "\"threads\":%u,\"parse_s\":%.3f}\n",
      files.size(), static_cast<unsigned long long>(totals.bytes.load()),
      static_cast<unsigned long long>(totals.parsed.load()),
      static_cast<unsigned long long>(totals.with_errors.load()),
      static_cast<unsigned long long>(totals.unreadable.load()), threads, secs);
  return 0;
}
