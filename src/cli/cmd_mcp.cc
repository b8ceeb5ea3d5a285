// mcp: the knowledge base as an MCP server on stdin/stdout (src/mcp). Nothing but protocol
// messages goes to stdout; what it serves is said once on stderr.
#include <iostream>

#include "app/admin.h"
#include "cli/common.h"
#include "mcp/server.h"

namespace kebab::cli {

int RunMcp(const Output& out, const Globals& g) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  const config::Config& c = session.config();
  std::string index = c.storage.sqlite;
  if (auto info = app::Schema(session); info.ok()) {
    index += " (" + std::to_string(info->stats.doc_count) + " documents, " +
             std::to_string(info->stats.chunk_count) + " chunks)";
  } else {
    index += " (" + info.status().message() + ")";
  }
  // Clients start servers with little more than HOME and PATH, so which config was found is
  // the first thing to check when the server serves the wrong knowledge base.
  std::cerr << "kebab mcp: config " << c.config_path
            << (c.loaded_from_file ? "" : " (absent: built-in defaults)") << "\n"
            << "kebab mcp: index " << index << "\n"
            << "kebab mcp: workspace " << c.workspace.root
            << (session.readonly() ? "; read-only: ingest tools are off" : "") << "\n";
  mcp::ServeStdio(session, std::cin, std::cout);
  return kExitOk;
}

}  // namespace kebab::cli
