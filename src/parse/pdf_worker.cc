// kebab-pdf: the PDF text worker behind parse's PDF extractor (parse/pdf.cc). It reads one PDF
// on stdin and writes what poppler-cpp finds in it on stdout, one JSON object per line:
//   {"kind":"info","pages":N,"encrypted":B,"title":S,"author":S,"subject":S,"keywords":S,
//    "created":EPOCH|null,"modified":EPOCH|null,
//    "outline":[{"title":S,"page":N|null,"children":[...]}]}   page: where the entry points
//   {"kind":"page","page":N,"text":S}           one per page, in order, text in reading order
//   {"kind":"end"}
// or, for a file it cannot read, {"kind":"error","code":"encrypted"|"damaged","message":S}
// and exit status 1. `kebab-pdf --version` writes {"kind":"version","poppler":S,"cjk_cmaps":B}
// (doctor;
//   cjk_cmaps: poppler-data is there).
//
// `kebab-pdf --render DIR --dpi D --pages 2,4,6` renders those pages instead, for OCR: each
// as an 8-bit grey PGM in DIR, announced once written as
//   {"kind":"rendered","page":N,"path":S,"width":W,"height":H}
// then {"kind":"end"}. Pages go out one at a time and the caller reads them as they come, so
// a long scan never sits on disk whole when the caller keeps up (it stops reading when not).
//
// Why a process of its own: poppler and the libraries it loads (fontconfig, NSS, image
// codecs) cost every process that links them tens of milliseconds at start-up, which
// `kebab search` must not pay; and a hostile PDF that crashes or hangs poppler then costs one
// worker, which the extractor kills at its time budget, never the ingest.
//
// Text comes from poppler-cpp. The outline comes from poppler's core (the private headers of
// the same library): poppler-cpp's toc has titles but not the pages they point to.
#include <GlobalParams.h>
#include <Link.h>
#include <Outline.h>
#include <PDFDoc.h>
#include <Stream.h>
#include <goo/GooString.h>
#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-image.h>
#include <poppler-page-renderer.h>
#include <poppler-page.h>
#include <poppler-version.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
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

// UCS-4 (an outline title as poppler decodes it) to UTF-8; invalid code points are dropped.
std::string Utf8(const Unicode* text, int length) {
  std::string out;
  for (int i = 0; i < length; ++i) {
    const uint32_t c = text[i];
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      if (c >= 0xD800 && c <= 0xDFFF) continue;
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x110000) {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

// The 1-based page an outline entry goes to, or null (a link elsewhere, or a broken one).
json TargetPage(PDFDoc& doc, const LinkAction* action) {
  if (action == nullptr || action->getKind() != actionGoTo) return nullptr;
  const auto* go_to = static_cast<const LinkGoTo*>(action);
  std::unique_ptr<LinkDest> named;
  const LinkDest* dest = go_to->getDest();
  if (dest == nullptr && go_to->getNamedDest() != nullptr) {
    named = doc.findDest(go_to->getNamedDest());
    dest = named.get();
  }
  if (dest == nullptr || !dest->isOk()) return nullptr;
  const int page = dest->isPageRef() ? doc.findPage(dest->getPageRef()) : dest->getPageNum();
  if (page < 1 || page > doc.getNumPages()) return nullptr;
  return page;
}

json OutlineEntries(PDFDoc& doc, const std::vector<OutlineItem*>* items, int depth) {
  json entries = json::array();
  if (items == nullptr || depth > 16) return entries;  // a cyclic or absurd outline stops here
  for (OutlineItem* item : *items) {
    json entry = {{"title", Utf8(item->getTitle(), item->getTitleLength())},
                  {"page", TargetPage(doc, item->getAction())}};
    item->open();
    entry["children"] = OutlineEntries(doc, item->getKids(), depth + 1);
    entries.push_back(std::move(entry));
  }
  return entries;
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

// Writes `image` (gray8) as a binary PGM; false when the file cannot be written.
bool WritePgm(const poppler::image& image, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  out << "P5\n" << image.width() << ' ' << image.height() << "\n255\n";
  const char* data = image.const_data();
  for (int y = 0; y < image.height(); ++y) {
    out.write(data + static_cast<size_t>(y) * static_cast<size_t>(image.bytes_per_row()),
              image.width());
  }
  return static_cast<bool>(out.flush());
}

// --render: the listed pages as grey images for OCR.
int Render(poppler::document& doc, const std::string& dir, int dpi, const std::string& pages) {
  poppler::page_renderer renderer;
  renderer.set_image_format(poppler::image::format_gray8);
  renderer.set_render_hints(poppler::page_renderer::antialiasing |
                            poppler::page_renderer::text_antialiasing);
  size_t pos = 0;
  while (pos < pages.size()) {
    size_t comma = pages.find(',', pos);
    if (comma == std::string::npos) comma = pages.size();
    const int number = std::atoi(pages.substr(pos, comma - pos).c_str());
    pos = comma + 1;
    if (number < 1 || number > doc.pages()) continue;
    std::unique_ptr<poppler::page> page(doc.create_page(number - 1));
    if (page == nullptr) continue;
    const poppler::image image = renderer.render_page(page.get(), dpi, dpi);
    if (!image.is_valid()) {
      Emit({{"kind", "render_failed"}, {"page", number}});
      continue;
    }
    const std::string path = dir + "/page-" + std::to_string(number) + ".pgm";
    if (!WritePgm(image, path)) {
      Emit({{"kind", "error"},
            {"code", "io"},
            {"message", "cannot write " + path + ": " + std::strerror(errno)}});
      return 1;
    }
    Emit({{"kind", "rendered"},
          {"page", number},
          {"path", path},
          {"width", image.width()},
          {"height", image.height()}});
    std::cout.flush();
  }
  Emit({{"kind", "end"}});
  std::cout.flush();
  // Everything is said and written: leave without tearing down poppler's renderer and font
  // state, whose destructors have nothing to give back and are where a worker could still fail.
  std::_Exit(std::cout ? 0 : 1);
}

// Whether poppler finds the predefined CMaps of Chinese, Japanese and Korean fonts (Debian's
// poppler-data, which libpoppler only recommends): without them it drops the text set in such
// fonts, saying no more than "Missing language pack" on stderr.
bool HasCjkCMaps() {
  if (!globalParams) globalParams = std::make_unique<GlobalParams>();
  const GooString collection("Adobe-Korea1");
  const GooString name("UniKS-UCS2-H");
  FILE* file = globalParams->findCMapFile(&collection, &name);
  if (file == nullptr) return false;
  std::fclose(file);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  if (argc > 1 && std::string(argv[1]) == "--version") {
    Emit({{"kind", "version"},
          {"poppler", poppler::version_string()},
          {"cjk_cmaps", HasCjkCMaps()}});
    return 0;
  }
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
  if (argc > 1 && std::string(argv[1]) == "--render") {
    std::string dir, pages;
    int dpi = 300;
    for (int i = 1; i + 1 < argc; i += 2) {
      const std::string flag = argv[i];
      if (flag == "--render") dir = argv[i + 1];
      if (flag == "--dpi") dpi = std::atoi(argv[i + 1]);
      if (flag == "--pages") pages = argv[i + 1];
    }
    return Render(*doc, dir, dpi > 0 && dpi <= 1200 ? dpi : 300, pages);
  }
  json outline = json::array();
  {
    // poppler-cpp's document keeps poppler's global parameters alive for this one.
    PDFDoc core(
        new MemStream(bytes.data(), 0, static_cast<Goffset>(bytes.size()), Object(objNull)));
    if (core.isOk() && core.getOutline() != nullptr) {
      outline = OutlineEntries(core, core.getOutline()->getItems(), 0);
    }
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
  // Everything is said and written: leave without tearing down poppler's renderer and font
  // state, whose destructors have nothing to give back and are where a worker could still fail.
  std::_Exit(std::cout ? 0 : 1);
}
