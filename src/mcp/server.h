// kebab as a Model Context Protocol server (spec §10.2): JSON-RPC 2.0, one message per line,
// over stdin/stdout (MCP's stdio transport). It speaks MCP 2025-11-25 and the older revisions
// clients still send (2025-06-18, 2025-03-26, 2024-11-05), answering initialize with the
// client's revision when it knows it. Every tool is a thin call into one app::Session, which
// keeps the models and the vector index warm for the server's lifetime and sees another
// process's ingest on the next call.
//
// Errors: malformed JSON is -32700, an unknown method -32601, bad tool arguments -32602
// naming the field; a failing tool is a result with isError and the error.v1 object.
// No input makes the server exit except the end of stdin.
// Thread safety: a Server handles one message at a time; HandleLine is not reentrant.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "app/session.h"

namespace kebab::mcp {

class Server {
 public:
  explicit Server(app::Session& session);

  // The reply to one JSON-RPC message (a request, a notification or garbage), or nullopt when
  // it needs none (a notification). The reply is one line of JSON, without the newline.
  std::optional<std::string> HandleLine(std::string_view line);

  // Answers lines of `in` on `out` (flushed after each reply) until `in` ends.
  void Serve(std::istream& in, std::ostream& out);

 private:
  app::Session& session_;
  bool initialized_ = false;
};

}  // namespace kebab::mcp
