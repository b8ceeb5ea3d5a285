// kebab-pdf: the PDF text worker behind parse's PDF extractor (parse/pdf.cc). It reads one PDF
// on stdin and writes what poppler-cpp finds in it on stdout, one JSON object per line:
//   {"kind":"info","pages":N,"encrypted":B,"title":S,"author":S,"subject":S,"keywords":S,
//    "created":EPOCH|null,"modified":EPOCH|null,"outline":[{"title":S,"children":[...]}]}
//   {"kind":"page","page":N,"text":S}           one per page, in order, text in reading order
//   {"kind":"end"}
// or, for a file it cannot read, {"kind":"error","code":"encrypted"|"damaged","message":S}
// and exit status 1.
//
// Why a process of its own: poppler and the libraries it loads (fontconfig, NSS, image
// codecs) cost every process that links them tens of milliseconds at start-up, which
// `kebab search` must not pay; and a hostile PDF that crashes or hangs poppler then costs one
// worker, which the extractor kills at its time budget, never the ingest.
#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>
#include <poppler-toc.h>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using nlohmann::json;

std::string Utf8(const poppler::ustring& s) {
  const poppler::byte_array bytes = s.to_utf8();
  return std::string(bytes.begin(), bytes.end());
}

json Outline(const poppler::toc_item* item, int depth) {
  json children = json::array();
  if (depth > 16) return children;  // a cyclic or absurd outline stops here
  for (const poppler::toc_item* child : item->children()) {
    children.push_back({{"title", Utf8(child->title())}, {"children", Outline(child, depth + 1)}});
  }
  return children;
}

json Epoch(time_t t) {
  return t == static_cast<time_t>(-1) || t == 0 ? json(nullptr) : json(static_cast<int64_t>(t));
}

void Emit(const json& j) {
  std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
}

// poppler's own complaints about the file, kept for the error a damaged file reports.
std::string g_last_error;

void KeepError(const std::string& message, void*) {
  g_last_error = message;
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  poppler::set_debug_error_function(KeepError, nullptr);
  const std::string bytes((std::istreambuf_iterator<char>(std::cin)), {});
  std::unique_ptr<poppler::document> doc(
      poppler::document::load_from_raw_data(bytes.data(), static_cast<int>(bytes.size())));
  if (doc == nullptr) {
    Emit({{"kind", "error"},
          {"code", "damaged"},
          {"message", g_last_error.empty() ? "poppler cannot open it as a PDF" : g_last_error}});
    return 1;
  }
  if (doc->is_locked()) {
    Emit({{"kind", "error"},
          {"code", "encrypted"},
          {"message", "encrypted, and it needs a password to open"}});
    return 1;
  }
  json outline = json::array();
  if (std::unique_ptr<poppler::toc> toc(doc->create_toc()); toc != nullptr && toc->root()) {
    outline = Outline(toc->root(), 0);
  }
  const int pages = doc->pages();
  Emit({{"kind", "info"},
        {"pages", pages},
        {"encrypted", doc->is_encrypted()},
        {"title", Utf8(doc->get_title())},
        {"author", Utf8(doc->get_author())},
        {"subject", Utf8(doc->get_subject())},
        {"keywords", Utf8(doc->get_keywords())},
        {"created", Epoch(doc->get_creation_date_t())},
        {"modified", Epoch(doc->get_modification_date_t())},
        {"outline", std::move(outline)}});
  for (int i = 0; i < pages; ++i) {
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    std::string text;
    if (page != nullptr) {
      text = Utf8(page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout));
    }
    Emit({{"kind", "page"}, {"page", i + 1}, {"text", std::move(text)}});
    std::cout.flush();  // the extractor reports progress per page
  }
  Emit({{"kind", "end"}});
  std::cout.flush();
  return 0;
}
