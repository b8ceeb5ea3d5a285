// mcp: the knowledge base as an MCP server (src/mcp), on stdin/stdout or, with --http, over
// Streamable HTTP. Nothing but protocol messages goes to stdout; what it serves is said once
// on stderr.
#include <csignal>
#include <iostream>

#include "app/admin.h"
#include "cli/common.h"
#include "mcp/server.h"

namespace kebab::cli {
namespace {

// Set by SIGINT / SIGTERM while the HTTP server runs (a signal handler can only reach a
// lock-free atomic at namespace scope).
std::atomic<bool> g_stop_http{false};

void OnStopSignal(int) {
  g_stop_http = true;
}

// "[ADDR:]PORT", ADDR possibly "[v6]".
Status ParseListen(const std::string& text, mcp::HttpOptions* options) {
  std::string host = "127.0.0.1";
  std::string port = text;
  if (size_t colon = text.rfind(':'); colon != std::string::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
      host = host.substr(1, host.size() - 2);
    }
  }
  char* end = nullptr;
  const long n = std::strtol(port.c_str(), &end, 10);
  if (host.empty() || port.empty() || *end != '\0' || n < 0 || n > 65535) {
    return InvalidInput("--http " + text + ": expected [ADDR:]PORT, e.g. 8765 or 127.0.0.1:8765",
                        "PORT 0 picks a free port and prints it");
  }
  options->host = host;
  options->port = static_cast<int>(n);
  return Status::OK();
}

int ServeHttp(const Output& out, const Globals& g, const McpArgs& args, app::Session& session) {
  mcp::HttpOptions options;
  if (Status parsed = ParseListen(args.http, &options); !parsed.ok()) return out.Fail(parsed);
  std::optional<std::string> given;
  std::string given_source;
  if (!args.token.empty()) {
    given = args.token;
    given_source = "--token";
  } else if (auto it = g.env.find("KEBAB_MCP_TOKEN"); it != g.env.end()) {
    given = it->second;
    given_source = "KEBAB_MCP_TOKEN";
  }
  Result<app::McpToken> token = app::ResolveMcpToken(session.config(), given, given_source);
  if (!token.ok()) return out.Fail(token.status());
  options.token = token->token;
  if (token->generated) {
    std::cerr << "kebab mcp: new bearer token (kept in " << token->source
              << "; shown only this once): " << token->token << "\n";
  } else {
    std::cerr << "kebab mcp: bearer token from " << token->source << "\n";
  }
  options.on_listening = [](const std::string& url) {
    std::cerr << "kebab mcp: serving " << url
              << " (clients send Authorization: Bearer <token>; Ctrl-C stops)" << std::endl;
  };
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  const Status served = mcp::ServeHttp(session, options, g_stop_http);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (!served.ok()) return out.Fail(served);
  std::cerr << "kebab mcp: stopped\n";
  return kExitOk;
}

}  // namespace

int RunMcp(const Output& out, const Globals& g, const McpArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly, .long_lived = true});
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
  if (!args.http.empty()) return ServeHttp(out, g, args, session);
  mcp::ServeStdio(session, std::cin, std::cout);
  return kExitOk;
}

}  // namespace kebab::cli
