#include "mcp/internal/resources.h"

#include <charconv>
#include <string_view>

#include "app/queries.h"
#include "core/citation.h"

namespace kebab::mcp::internal {
namespace {

// What resources/read returns for a document of this medium: Markdown as itself, anything
// else as the text kebab extracted from it.
std::string_view MimeType(const std::string& media) {
  return media == "markdown" ? "text/markdown" : "text/plain";
}

}  // namespace

Result<json> ListResources(app::Session& session, const std::string& cursor) {
  int offset = 0;
  if (!cursor.empty()) {
    auto [end, ec] = std::from_chars(cursor.data(), cursor.data() + cursor.size(), offset);
    if (ec != std::errc() || end != cursor.data() + cursor.size() || offset < 0) {
      return InvalidInput("cursor '" + cursor + "' is not one resources/list gave",
                          "pass nextCursor from the previous page, or no cursor");
    }
  }
  // One more than a page tells whether another page follows.
  KEBAB_ASSIGN_OR_RETURN(
      std::vector<store::DocSummary> docs,
      app::ListDocuments(session, {.limit = kResourcePageSize + 1, .offset = offset}));
  json resources = json::array();
  for (size_t i = 0; i < docs.size() && i < static_cast<size_t>(kResourcePageSize); ++i) {
    const store::DocSummary& d = docs[i];
    json r = {{"uri", kDocUriPrefix + CitationPath(d.doc_path)},
              {"name", d.doc_path},
              {"mimeType", MimeType(d.media)},
              {"size", d.byte_len}};
    if (!d.title.empty()) r["title"] = d.title;
    r["description"] = d.media + ", " + std::to_string(d.chunk_count) + " chunks" +
                       (d.lang.empty() ? "" : ", " + d.lang) + ", indexed " + d.ingested_at;
    resources.push_back(std::move(r));
  }
  json result = {{"resources", std::move(resources)}};
  if (docs.size() > static_cast<size_t>(kResourcePageSize)) {
    result["nextCursor"] = std::to_string(offset + kResourcePageSize);
  }
  return result;
}

json ResourceTemplates() {
  return {{"resourceTemplates",
           {{{"uriTemplate", std::string(kDocUriPrefix) + "{+path}"},
             {"name", "document"},
             {"title", "An indexed document, or the lines a citation cites"},
             {"description",
              "path is a workspace path (notes/x.md) for the whole document, or a hit's "
              "citation.uri for exactly what it cites: lines (notes/x.md#L10-L14), a page "
              "(x.pdf#p=3), the text read in a region (scan.pdf#p=2&xywh=120,340,980,210) or "
              "an image's caption (photo.jpg#caption). The bare citation.uri is accepted "
              "too."},
             {"mimeType", "text/plain"}}}}};
}

Result<json> ReadResource(app::Session& session, const std::string& uri) {
  std::string_view cited = uri;
  if (cited.starts_with(kDocUriPrefix)) cited.remove_prefix(std::string_view(kDocUriPrefix).size());
  if (cited.empty()) return InvalidInput("resource URI '" + uri + "' names no document");
  KEBAB_ASSIGN_OR_RETURN(app::FetchResult r, app::FetchCitation(session, cited, 0));
  return json{{"contents",
               {{{"uri", uri},
                 {"mimeType", r.kind == "doc" ? MimeType(r.media) : "text/plain"},
                 {"text", r.text}}}}};
}

}  // namespace kebab::mcp::internal
