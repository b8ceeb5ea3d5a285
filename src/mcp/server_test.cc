#include "mcp/server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

namespace kebab::mcp {
namespace {

using nlohmann::json;

// The protocol layer against a real (empty) configuration: what a client sends in every
// wrong way, and what it gets back. The tools themselves run end to end in tests/e2e/test_mcp.py.
class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kebab-mcp-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "ws");
    config_.workspace.root = (dir_ / "ws").string();
    config_.storage.data_dir = (dir_ / "data").string();
    config_.storage.sqlite = (dir_ / "data" / "kebab.sqlite").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static json Call(Connection& server, const json& message) {
    std::optional<std::string> reply = server.HandleLine(message.dump());
    EXPECT_TRUE(reply.has_value()) << message.dump();
    return reply ? json::parse(*reply) : json();
  }
  static json Initialize(Connection& server, const std::string& version = "2025-11-25") {
    return Call(server, {{"jsonrpc", "2.0"},
                         {"id", 1},
                         {"method", "initialize"},
                         {"params",
                          {{"protocolVersion", version},
                           {"capabilities", json::object()},
                           {"clientInfo", {{"name", "test"}, {"version", "1"}}}}}});
  }
  static json Request(int id, const std::string& method, json params = json::object()) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
  }

  std::filesystem::path dir_;
  config::Config config_;
};

TEST_F(ServerTest, InitializeAnswersWithTheClientsRevisionWhenKnown) {
  app::Session session(config_);
  for (const char* version : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    Connection server(session);
    const json reply = Initialize(server, version);
    EXPECT_EQ(reply["result"]["protocolVersion"], version);
    EXPECT_EQ(reply["result"]["serverInfo"]["name"], "kebab");
    EXPECT_TRUE(reply["result"]["capabilities"].contains("tools"));
  }
  Connection server(session);
  EXPECT_EQ(Initialize(server, "1999-01-01")["result"]["protocolVersion"], "2025-11-25");
}

TEST_F(ServerTest, MalformedInputGetsTheJsonRpcErrorNotACrash) {
  app::Session session(config_);
  Connection server(session);
  auto code = [&](std::string_view line) {
    std::optional<std::string> reply = server.HandleLine(line);
    EXPECT_TRUE(reply.has_value()) << line;
    return reply ? json::parse(*reply)["error"]["code"].get<int>() : 0;
  };
  EXPECT_EQ(code("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\""), -32700);  // truncated
  EXPECT_EQ(code("\xff\xfe garbage"), -32700);
  EXPECT_EQ(code("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]"), -32600);  // batch
  EXPECT_EQ(code("{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"ping\"}"), -32600);
  EXPECT_EQ(code("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": 7}"), -32600);
  EXPECT_EQ(code("{\"jsonrpc\": \"2.0\", \"id\": {\"a\": 1}, \"method\": \"ping\"}"), -32600);
  // Ping works before initialize; anything else is refused until then.
  EXPECT_TRUE(Call(server, Request(2, "ping")).contains("result"));
  EXPECT_EQ(Call(server, Request(3, "tools/list"))["error"]["code"], -32600);
  Initialize(server);
  EXPECT_EQ(Call(server, Request(4, "resources/templates/nope"))["error"]["code"], -32601);
  // A 5 MB line is read and answered like any other.
  EXPECT_EQ(
      code("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"" + std::string(5 << 20, 'x') + "\"}"),
      -32601);
  // Notifications get no reply, known or not.
  EXPECT_FALSE(server.HandleLine(R"({"jsonrpc": "2.0", "method": "notifications/initialized"})"));
  EXPECT_FALSE(server.HandleLine(R"({"jsonrpc": "2.0", "method": "notifications/whatever"})"));
}

TEST_F(ServerTest, ArgumentsAreCheckedAgainstTheInputSchemaAndNamed) {
  app::Session session(config_);
  Connection server(session);
  Initialize(server);
  auto error = [&](const std::string& tool, json args) {
    return Call(server, Request(5, "tools/call",
                                {{"name", tool}, {"arguments", std::move(args)}}))["error"];
  };
  EXPECT_EQ(error("search", json::object())["message"], "argument 'query' is required");
  EXPECT_EQ(error("search", {{"query", "x"}, {"k", "ten"}})["message"],
            "argument 'k' must be an integer");
  EXPECT_EQ(error("search", {{"query", "x"}, {"k", 0}})["code"], -32602);
  EXPECT_EQ(error("search", {{"query", "x"}, {"mode", "sideways"}})["code"], -32602);
  EXPECT_NE(error("search", {{"query", "x"}, {"qeury", "y"}})["message"].get<std::string>().find(
                "'qeury' is not known"),
            std::string::npos);
  EXPECT_EQ(error("bulk_search", {{"queries", json::array()}})["message"],
            "argument 'queries' needs at least 1 items");
  EXPECT_EQ(error("bulk_search", {{"queries", {{{"k", 2}}}}})["message"],
            "argument 'queries[0].query' is required");
  EXPECT_EQ(error("no_such_tool", json::object())["code"], -32602);
  EXPECT_EQ(
      Call(server, Request(6, "tools/call", {{"arguments", json::object()}}))["error"]["code"],
      -32602);
}

TEST_F(ServerTest, AFailingToolIsAnErrorResultWithItsErrorObject) {
  app::Session session(config_);
  Connection server(session);
  Initialize(server);
  // No index yet: search fails with not_indexed, reported as the tool's error, not the call's.
  const json reply = Call(
      server, Request(7, "tools/call", {{"name", "search"}, {"arguments", {{"query", "wal"}}}}));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_EQ(reply["result"]["isError"], true);
  const json error = reply["result"]["structuredContent"];
  EXPECT_EQ(json::parse(reply["result"]["content"][0]["text"].get<std::string>()), error);
  EXPECT_EQ(error["schema_version"], "error.v1");
  EXPECT_EQ(error["code"], "not_indexed");
  EXPECT_FALSE(error["hint"].get<std::string>().empty());
}

TEST_F(ServerTest, AReadOnlySessionHidesAndRefusesTheWritingTools) {
  app::Session writable(config_);
  Connection server(writable);
  Initialize(server);
  std::set<std::string> names;
  const json listed = Call(server, Request(8, "tools/list"));
  for (const json& t : listed["result"]["tools"]) {
    names.insert(t["name"]);
    EXPECT_EQ(t["inputSchema"]["type"], "object");
    EXPECT_EQ(t["outputSchema"]["type"], "object");
    EXPECT_EQ(t["annotations"]["readOnlyHint"],
              !(t["name"] == "ingest" || t["name"] == "ingest_file" || t["name"] == "ingest_text"));
  }
  EXPECT_EQ(names.size(), 11u);

  app::Session readonly(config_, {.readonly = true});
  Connection guarded(readonly);
  Initialize(guarded);
  names.clear();
  const json guarded_list = Call(guarded, Request(9, "tools/list"));
  for (const json& t : guarded_list["result"]["tools"]) {
    names.insert(t["name"]);
  }
  EXPECT_EQ(names.size(), 8u);
  EXPECT_EQ(names.count("ingest_text"), 0u);
  const json refused = Call(
      guarded, Request(10, "tools/call",
                       {{"name", "ingest_text"}, {"arguments", {{"title", "t"}, {"body", "b"}}}}));
  EXPECT_EQ(refused["error"]["code"], -32602);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "ws" / "_external"));
}

TEST_F(ServerTest, ServeAnswersEveryRequestLineUntilTheEnd) {
  app::Session session(config_);
  std::istringstream in(Request(1, "ping").dump() + "\n\n" +
                        R"({"jsonrpc": "2.0", "method": "notifications/initialized"})" + "\n" +
                        "not json\n" + Request(2, "ping").dump() + "\n");
  std::ostringstream out;
  ServeStdio(session, in, out);
  std::istringstream lines(out.str());
  std::vector<json> replies;
  for (std::string line; std::getline(lines, line);) replies.push_back(json::parse(line));
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(replies[0]["id"], 1);
  EXPECT_EQ(replies[1]["error"]["code"], -32700);
  EXPECT_EQ(replies[2]["id"], 2);
}

// Writes `n` small notes into the workspace.
void WriteNotes(const std::filesystem::path& ws, int n) {
  for (int i = 0; i < n; ++i) {
    std::ofstream(ws / ("note" + std::to_string(1000 + i) + ".md"))
        << "# Note " << i << "\n\nword" << i << " is on the third line.\nAnd the fourth.\n";
  }
}

// Sends one message and collects everything the connection sends about it, up to the last.
std::vector<Outgoing> Exchange(Connection& c, const json& message) {
  std::promise<void> done;
  std::mutex mu;
  std::vector<Outgoing> sent;
  c.Receive(message.dump(), [&](Outgoing out) {
    const bool last = out.last;
    {
      std::lock_guard lock(mu);
      sent.push_back(std::move(out));
    }
    if (last) done.set_value();
  });
  done.get_future().wait();
  std::lock_guard lock(mu);
  return sent;
}

TEST_F(ServerTest, IngestReportsIncreasingProgressThenItsReply) {
  WriteNotes(dir_ / "ws", 300);
  app::Session session(config_);
  Connection server(session);
  Initialize(server);
  const std::vector<Outgoing> sent =
      Exchange(server, Request(11, "tools/call",
                               {{"name", "ingest"},
                                {"arguments", json::object()},
                                {"_meta", {{"progressToken", "tok"}}}}));
  ASSERT_GE(sent.size(), 2u) << "no progress notification";
  double last = 0;
  for (size_t i = 0; i + 1 < sent.size(); ++i) {
    EXPECT_FALSE(sent[i].last);
    const json n = json::parse(sent[i].json);
    EXPECT_EQ(n["method"], "notifications/progress");
    EXPECT_EQ(n["params"]["progressToken"], "tok");
    EXPECT_GT(n["params"]["progress"].get<double>(), last);
    last = n["params"]["progress"];
    EXPECT_LE(last, n["params"]["total"].get<double>());
  }
  const json reply = json::parse(sent.back().json);
  ASSERT_TRUE(sent.back().last);
  EXPECT_EQ(reply["id"], 11);
  EXPECT_EQ(reply["result"]["structuredContent"]["new"], 300) << reply.dump();
}

TEST_F(ServerTest, ACancelledCallStopsAndSendsNoReplyWhileOthersAreServed) {
  WriteNotes(dir_ / "ws", 2000);
  app::Session session(config_);
  Connection server(session);
  Initialize(server);
  std::promise<Outgoing> last;
  server.Receive(
      Request(12, "tools/call", {{"name", "ingest"}, {"arguments", json::object()}}).dump(),
      [&](Outgoing out) {
        if (out.last) last.set_value(std::move(out));
      });
  // The ingest runs on its own thread: a ping is answered meanwhile.
  EXPECT_TRUE(Call(server, Request(13, "ping")).contains("result"));
  EXPECT_FALSE(server.HandleLine(
      R"({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 12}})"));
  const Outgoing final = last.get_future().get();
  EXPECT_EQ(final.json, "") << "a cancelled request must get no reply";
  // The run stopped between documents, and what it wrote is intact: the next ingest finishes
  // the job.
  auto documents = [&] {
    const json r = Call(
        server, Request(14, "tools/call", {{"name", "list_docs"}, {"arguments", json::object()}}));
    return r["result"]["structuredContent"]["documents"].size();
  };
  const size_t after_cancel = documents();
  EXPECT_LT(after_cancel, 2000u);
  const json again =
      Call(server, Request(15, "tools/call", {{"name", "ingest"}, {"arguments", json::object()}}));
  EXPECT_EQ(again["result"]["isError"], false) << again.dump();
  EXPECT_EQ(documents(), 2000u);
}

TEST_F(ServerTest, ResourcesListInPagesAndReadDocumentsAndCitations) {
  WriteNotes(dir_ / "ws", 130);
  app::Session session(config_);
  Connection server(session);
  Initialize(server);
  json reply =
      Call(server, Request(15, "tools/call", {{"name", "ingest"}, {"arguments", json::object()}}));
  ASSERT_EQ(reply["result"]["isError"], false) << reply.dump();

  std::vector<std::string> uris;
  json params = json::object();
  for (int page = 0; page < 5; ++page) {
    const json listed = Call(server, Request(16, "resources/list", params));
    for (const json& r : listed["result"]["resources"]) uris.push_back(r["uri"]);
    if (!listed["result"].contains("nextCursor")) break;
    params["cursor"] = listed["result"]["nextCursor"];
  }
  ASSERT_EQ(uris.size(), 130u);
  EXPECT_EQ(uris.front(), "kebab://doc/note1000.md");
  EXPECT_EQ(std::set<std::string>(uris.begin(), uris.end()).size(), 130u);

  // The whole document, then exactly the cited lines, by either spelling of the citation.
  const json doc =
      Call(server, Request(17, "resources/read", {{"uri", "kebab://doc/note1007.md"}}));
  EXPECT_EQ(doc["result"]["contents"][0]["uri"], "kebab://doc/note1007.md");
  EXPECT_EQ(doc["result"]["contents"][0]["mimeType"], "text/markdown");
  EXPECT_EQ(doc["result"]["contents"][0]["text"],
            "# Note 7\n\nword7 is on the third line.\nAnd the fourth.\n");
  for (const char* uri : {"kebab://doc/note1007.md#L3-L4", "note1007.md#L3-L4"}) {
    const json span = Call(server, Request(18, "resources/read", {{"uri", uri}}));
    EXPECT_EQ(span["result"]["contents"][0]["uri"], uri);
    EXPECT_EQ(span["result"]["contents"][0]["text"],
              "word7 is on the third line.\nAnd the fourth.");
  }

  EXPECT_EQ(Call(server,
                 Request(19, "resources/read", {{"uri", "kebab://doc/nope.md"}}))["error"]["code"],
            -32002);
  EXPECT_EQ(
      Call(server, Request(20, "resources/read", {{"uri", "note1007.md#L9-L2"}}))["error"]["code"],
      -32602);
  EXPECT_EQ(Call(server, Request(21, "resources/list", {{"cursor", "soon"}}))["error"]["code"],
            -32602);
  EXPECT_EQ(Call(server, Request(22, "resources/read", json::object()))["error"]["code"], -32602);
  const json templates = Call(server, Request(23, "resources/templates/list"));
  EXPECT_EQ(templates["result"]["resourceTemplates"][0]["uriTemplate"], "kebab://doc/{+path}");
}

}  // namespace
}  // namespace kebab::mcp
