// list docs, inspect doc|chunk, fetch chunk|doc|span.
#include <cstdio>

#include "cli/api_client.h"
#include "cli/common.h"
#include "core/citation.h"

namespace kebab::cli {
namespace {

// "12" or "3-5" (what --page takes); the range check is the facade's.
bool ParsePageRange(const std::string& spec, int* first, int* last) {
  auto number = [](std::string_view s, int* out) {
    if (s.empty() || s.size() > 6) return false;
    int n = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      n = n * 10 + (c - '0');
    }
    *out = n;
    return true;
  };
  const size_t dash = spec.find('-');
  if (dash == std::string::npos) return number(spec, first) && number(spec, last);
  return number(std::string_view(spec).substr(0, dash), first) &&
         number(std::string_view(spec).substr(dash + 1), last);
}

}  // namespace

int RunListDocs(const Output& out, const Globals& g, const ListArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  ApiClient api(out, g, *std::move(config));
  nlohmann::json a = nlohmann::json::object();
  if (!args.path_glob.empty()) a["path_glob"] = args.path_glob;
  if (!args.tag.empty()) a["tag"] = args.tag;
  if (!args.lang.empty()) a["lang"] = args.lang;
  if (!args.code_lang.empty()) a["code_lang"] = args.code_lang;
  if (args.limit > 0) a["limit"] = args.limit;
  auto listed = api.Call("list_docs", a);
  if (!listed.ok()) return out.Fail(listed.status());
  const nlohmann::json& docs = (*listed)["documents"];
  if (out.json) {
    out.Json(docs);
    return kExitOk;
  }
  for (const auto& d : docs) {
    // A source file by its programming language, which says more than its prose's `und`.
    const std::string lang = d.value("code_lang", d.value("lang", std::string()));
    out.Line(d.value("doc_id", std::string()) + "  " + d.value("doc_path", std::string()) + "  " +
             out.Dim(d.value("title", std::string()) + "  [" + lang + ", " +
                     std::to_string(d.value("chunk_count", 0)) + " chunks]"));
  }
  out.Note(std::to_string(docs.size()) + " documents");
  return kExitOk;
}

int RunInspect(const Output& out, const Globals& g, const std::string& what,
               const std::string& id) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  ApiClient api(out, g, *std::move(config));
  nlohmann::json a = {{"what", what == "ocr-stats" ? std::string("ocr_stats") : what}};
  if (!id.empty()) a["id"] = id;
  auto inspected = api.Call("inspect", a);
  if (!inspected.ok()) return out.Fail(inspected.status());
  // inspect always prints JSON: it exists to show exactly what is stored.
  std::printf("%s\n", inspected->dump(out.json ? -1 : 2).c_str());
  return kExitOk;
}

int RunInspectOcrFailures(const Output& out, const Globals& g, const std::string& doc_id,
                          int limit) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  ApiClient api(out, g, *std::move(config));
  nlohmann::json a = {{"what", "ocr_failures"}, {"limit", limit}};
  if (!doc_id.empty()) a["id"] = doc_id;
  auto failures = api.Call("inspect", a);
  if (!failures.ok()) return out.Fail(failures.status());
  std::printf("%s\n", failures->dump(out.json ? -1 : 2).c_str());
  return kExitOk;
}

int RunFetch(const Output& out, const Globals& g, const FetchArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  nlohmann::json a = {{"kind", args.what}, {"id", args.id}};
  if (args.max_tokens > 0) a["max_tokens"] = args.max_tokens;
  if (args.what == "chunk") {
    a["context"] = args.context;
  } else if (args.what == "span") {
    if (!args.time.empty()) {
      const size_t dash = args.time.find('-');
      const auto start = dash == std::string::npos
                             ? std::nullopt
                             : ParseMediaTime(std::string_view(args.time).substr(0, dash));
      const auto end = dash == std::string::npos
                           ? std::nullopt
                           : ParseMediaTime(std::string_view(args.time).substr(dash + 1));
      if (!start || !end) {
        return out.Fail(
            InvalidInput("--time takes START-END in seconds or clock time, not '" + args.time + "'",
                         "e.g. --time 62.5-69 or --time 1:02.5-1:09"));
      }
      a["start_ms"] = *start;
      a["end_ms"] = *end;
    } else if (!args.pages.empty()) {
      int first = 0, last = 0;
      if (!ParsePageRange(args.pages, &first, &last)) {
        return out.Fail(InvalidInput("--page takes N or A-B (1-based), not '" + args.pages + "'",
                                     "e.g. --page 12 or --page 3-5"));
      }
      a["page_start"] = first;
      a["page_end"] = last;
    } else if (args.line_start > 0 && args.line_end > 0) {
      a["line_start"] = args.line_start;
      a["line_end"] = args.line_end;
    } else {
      return out.Fail(InvalidInput("fetch span needs START END lines, --page or --time",
                                   "kebab fetch span DOC_ID 10 14, kebab fetch span DOC_ID --page "
                                   "12, or kebab fetch span DOC_ID --time 62.5-69"));
    }
  }
  ApiClient api(out, g, *std::move(config));
  auto fetched = api.Call("fetch", a);
  if (!fetched.ok()) return out.Fail(fetched.status());
  const nlohmann::json& r = *fetched;
  if (out.json) {
    out.Json(r);
    return kExitOk;
  }
  // The citation's URI ("papers/x.pdf#p=12", "notes/x.md#L10-L14"), the pages of a page range
  // ("papers/x.pdf pp. 3-5"), or the document's path.
  std::string header = r.value("doc_path", std::string());
  if (r.contains("citation")) {
    header = r["citation"].value("uri", header);
  } else if (r.contains("page_start")) {
    const nlohmann::json& last =
        r["effective_end"].is_number() ? r["effective_end"] : r["page_end"];
    header += " pp. " + std::to_string(r["page_start"].get<int>()) + "-" +
              std::to_string(last.is_number() ? last.get<int>() : r["page_start"].get<int>());
  }
  out.Line(out.Dim(header));
  for (const auto& c : r.value("context_before", nlohmann::json::array())) {
    out.Line(out.Dim(c.value("text", std::string())) + "\n");
  }
  out.Line(r.value("text", std::string()));
  for (const auto& c : r.value("context_after", nlohmann::json::array())) {
    out.Line("\n" + out.Dim(c.value("text", std::string())));
  }
  if (r.value("truncated", false)) out.Note("truncated to fit --max-tokens");
  return kExitOk;
}

}  // namespace kebab::cli
