// MCP's Streamable HTTP transport (revision 2025-11-25, §Transports) over cpp-httplib: one
// endpoint, /mcp, where each POST carries one JSON-RPC message. The protocol itself is the
// Connection's; this file is only the transport and its guards (token, Origin, sessions).
#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <list>
#include <mutex>
#include <thread>

#include "core/ids.h"
#include "mcp/server.h"

namespace kebab::mcp {
namespace {

using nlohmann::json;

constexpr char kEndpoint[] = "/mcp";
constexpr std::string_view kVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26"};
// Clients that never send DELETE leave their sessions behind; past this many the oldest idle
// ones go (a client whose session went gets 404 and initializes again, as the spec says).
constexpr size_t kMaxSessions = 64;
constexpr size_t kMaxBody = 64u << 20;

// What a Connection sends about one POSTed request, handed to the thread writing the response.
class Mailbox {
 public:
  void Push(Outgoing out) {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(out));
    ready_.notify_one();
  }
  Outgoing Pop() {
    std::unique_lock lock(mu_);
    ready_.wait(lock, [&] { return !queue_.empty(); });
    Outgoing out = std::move(queue_.front());
    queue_.pop_front();
    return out;
  }

 private:
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<Outgoing> queue_;
};

// Compares without an early exit, so the time taken says nothing about the token.
bool SameSecret(std::string_view a, std::string_view b) {
  unsigned diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) diff |= a[i] ^ (i < b.size() ? b[i] : 0);
  return diff == 0;
}

// An Origin is allowed when its host is a loopback name or the address the server is bound
// to: a web page elsewhere must not reach a local server through the user's browser (DNS
// rebinding; the spec's first security warning).
bool AllowedOrigin(const std::string& origin, const std::string& bound_host) {
  size_t scheme = origin.find("://");
  if (scheme == std::string::npos) return false;
  std::string host = origin.substr(scheme + 3);
  if (host.starts_with("[")) {
    host = host.substr(0, host.find(']') + 1);
  } else {
    host = host.substr(0, host.find(':'));
  }
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host == bound_host;
}

void JsonBody(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

// A transport-level refusal: a JSON-RPC error without an id, as the SDK's server sends.
void Refuse(httplib::Response& res, int status, int code, const std::string& message) {
  JsonBody(
      res, status,
      {{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", code}, {"message", message}}}});
}

class HttpServer {
 public:
  HttpServer(app::Session& session, const HttpOptions& options)
      : session_(session), options_(options) {}

  void Install(httplib::Server& http) {
    http.set_payload_max_length(kMaxBody);
    // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, which would let a second server
    // bind the same port and take half of the first one's clients instead of failing.
    http.set_socket_options([](socket_t sock) {
      int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    });
    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      return Guard(req, res) ? httplib::Server::HandlerResponse::Unhandled
                             : httplib::Server::HandlerResponse::Handled;
    });
    http.Post(kEndpoint,
              [this](const httplib::Request& req, httplib::Response& res) { Post(req, res); });
    http.Get(kEndpoint, [](const httplib::Request&, httplib::Response& res) {
      // No server-initiated stream: kebab sends nothing a client did not ask for.
      res.set_header("Allow", "POST, DELETE");
      Refuse(res, 405, -32000, "kebab mcp sends no server-initiated messages; POST requests");
    });
    http.Delete(kEndpoint,
                [this](const httplib::Request& req, httplib::Response& res) { Delete(req, res); });
  }

 private:
  // The token and the Origin, for every request; false when `res` now holds the refusal.
  bool Guard(const httplib::Request& req, httplib::Response& res) {
    if (req.has_header("Origin") && !AllowedOrigin(req.get_header_value("Origin"), options_.host)) {
      Refuse(res, 403, -32000, "Origin " + req.get_header_value("Origin") + " is not allowed");
      return false;
    }
    const std::string auth = req.get_header_value("Authorization");
    if (!auth.starts_with("Bearer ") ||
        !SameSecret(std::string_view(auth).substr(7), options_.token)) {
      res.set_header("WWW-Authenticate", "Bearer realm=\"kebab\"");
      Refuse(res, 401, -32001,
             auth.empty() ? "missing Authorization: Bearer <token> (kebab mcp --http printed "
                            "where the token is)"
                          : "wrong bearer token");
      return false;
    }
    if (req.has_header("MCP-Protocol-Version")) {
      const std::string v = req.get_header_value("MCP-Protocol-Version");
      bool known = false;
      for (std::string_view k : kVersions) known |= k == v;
      if (!known) {
        Refuse(res, 400, -32600, "unsupported MCP-Protocol-Version " + v);
        return false;
      }
    }
    return true;
  }

  std::shared_ptr<Connection> Find(const std::string& id) {
    std::lock_guard lock(mu_);
    for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
      if (it->first == id) {
        sessions_.splice(sessions_.end(), sessions_, it);  // most recently used last
        return it->second;
      }
    }
    return nullptr;
  }

  std::pair<std::string, std::shared_ptr<Connection>> Open() {
    auto connection = std::make_shared<Connection>(session_);
    std::string id = RandomHex(16);
    std::shared_ptr<Connection> evicted;
    {
      std::lock_guard lock(mu_);
      sessions_.emplace_back(id, connection);
      if (sessions_.size() > kMaxSessions) {
        evicted = std::move(sessions_.front().second);
        sessions_.pop_front();
      }
    }
    return {id, connection};  // `evicted` waits for its calls here, outside the lock
  }

  void Post(const httplib::Request& req, httplib::Response& res) {
    const json message = json::parse(req.body, nullptr, /*allow_exceptions=*/false);
    if (message.is_discarded()) return Refuse(res, 400, -32700, "parse error: not JSON");
    const bool is_request =
        message.is_object() && message.contains("method") && message.contains("id");
    std::shared_ptr<Connection> connection;
    if (is_request && message["method"] == "initialize") {
      auto [id, opened] = Open();
      res.set_header("Mcp-Session-Id", id);
      connection = std::move(opened);
    } else if (!req.has_header("Mcp-Session-Id")) {
      return Refuse(res, 400, -32600, "missing Mcp-Session-Id: initialize first");
    } else if (connection = Find(req.get_header_value("Mcp-Session-Id")); !connection) {
      return Refuse(res, 404, -32001, "unknown or expired session: initialize again");
    }

    auto mailbox = std::make_shared<Mailbox>();
    connection->Receive(req.body, [mailbox](Outgoing out) { mailbox->Push(std::move(out)); });
    if (!is_request) {
      mailbox->Pop();  // a notification or a response: nothing to answer
      res.status = 202;
      return;
    }
    const bool wants_progress = message.contains("params") && message["params"].is_object() &&
                                message["params"].contains("_meta") &&
                                message["params"]["_meta"].is_object() &&
                                message["params"]["_meta"].contains("progressToken");
    if (!wants_progress) {
      Outgoing reply = mailbox->Pop();
      while (!reply.last) reply = mailbox->Pop();
      if (reply.json.empty()) {
        res.status = 202;  // cancelled: no reply
      } else {
        res.status = 200;
        res.set_content(reply.json, "application/json");
      }
      return;
    }
    // Progress notifications, then the reply, as server-sent events on this response.
    res.status = 200;
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream", [connection, mailbox](size_t, httplib::DataSink& sink) {
          const Outgoing out = mailbox->Pop();
          if (!out.json.empty()) {
            const std::string event = "event: message\ndata: " + out.json + "\n\n";
            if (!sink.write(event.data(), event.size())) return false;
          }
          if (out.last) sink.done();
          return true;
        });
  }

  void Delete(const httplib::Request& req, httplib::Response& res) {
    std::shared_ptr<Connection> ended;
    {
      std::lock_guard lock(mu_);
      const std::string id = req.get_header_value("Mcp-Session-Id");
      for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
        if (it->first == id) {
          ended = std::move(it->second);
          sessions_.erase(it);
          break;
        }
      }
    }
    if (!ended) return Refuse(res, 404, -32001, "unknown or expired session");
    res.status = 200;
  }

  app::Session& session_;
  const HttpOptions& options_;
  std::mutex mu_;
  std::list<std::pair<std::string, std::shared_ptr<Connection>>> sessions_;
};

}  // namespace

Status ServeHttp(app::Session& session, const HttpOptions& options, const std::atomic<bool>& stop) {
  HttpServer handlers(session, options);
  httplib::Server http;
  handlers.Install(http);
  const int port = options.port == 0
                       ? http.bind_to_any_port(options.host)
                       : (http.bind_to_port(options.host, options.port) ? options.port : -1);
  if (port <= 0) {
    return IoError("cannot listen on " + options.host + ":" + std::to_string(options.port),
                   "is another server on that port? pick another with --http HOST:PORT");
  }
  std::thread listener([&] { http.listen_after_bind(); });
  if (options.on_listening) {
    const bool v6 = options.host.find(':') != std::string::npos;
    options.on_listening("http://" + (v6 ? "[" + options.host + "]" : options.host) + ":" +
                         std::to_string(port) + kEndpoint);
  }
  while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  http.stop();
  listener.join();
  return Status::OK();
}

}  // namespace kebab::mcp
