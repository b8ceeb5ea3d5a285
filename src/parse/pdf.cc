#include "parse/internal/pdf.h"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/ids.h"
#include "core/subprocess.h"
#include "core/time.h"
#include "core/unicode.h"
#include "parse/language.h"
#include "parse/ocr.h"

namespace kebab::parse::internal {
namespace {

using nlohmann::json;

constexpr char kAgent[] = "kebab-pdf";
// A page with fewer visible characters than this has no text layer worth indexing (a scan,
// or a page of figures): it is named as needing OCR instead.
constexpr size_t kMinPageChars = 16;
constexpr size_t kLanguageSampleBytes = 64 * 1024;

bool IsAsciiLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Code points in s[0, byte_offset).
uint32_t CodePointsBefore(std::string_view s, size_t byte_offset) {
  return static_cast<uint32_t>(Utf8Length(s.substr(0, byte_offset)));
}

// A paragraph's lines joined as the index should read them: "informa-" at a line's end and
// "tion" at the next one's start become "information"; other line breaks stay.
std::string JoinHyphenated(std::string_view paragraph) {
  std::string out;
  out.reserve(paragraph.size());
  size_t pos = 0;
  while (pos <= paragraph.size()) {
    size_t nl = paragraph.find('\n', pos);
    std::string_view line =
        paragraph.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    const bool more = nl != std::string_view::npos;
    const char next = more && nl + 1 < paragraph.size() ? paragraph[nl + 1] : '\0';
    if (more && line.size() >= 2 && line.back() == '-' && IsAsciiLetter(line[line.size() - 2]) &&
        next >= 'a' && next <= 'z') {
      out.append(line.substr(0, line.size() - 1));
    } else {
      out.append(line);
      if (more) out += '\n';
    }
    if (!more) break;
    pos = nl + 1;
  }
  return out;
}

size_t VisibleChars(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (c != ' ' && c != '\n' && c != '\t' && c != '\r' && c != '\f') ? 1 : 0;
  return n;
}

std::vector<std::string> SplitKeywords(const std::string& keywords) {
  std::vector<std::string> tags;
  std::string current;
  auto flush = [&] {
    const size_t a = current.find_first_not_of(" \t");
    const size_t b = current.find_last_not_of(" \t");
    if (a != std::string::npos) tags.push_back(current.substr(a, b - a + 1));
    current.clear();
  };
  for (char c : keywords) {
    if (c == ',' || c == ';') {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return tags;
}

std::string FileStem(const std::string& workspace_path) {
  std::string name = workspace_path.substr(workspace_path.rfind('/') + 1);
  const size_t dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

// An outline entry that points to a page, with the titles from the outline's root to it.
struct OutlineMark {
  uint32_t page = 0;
  std::vector<std::string> path;
};

void FlattenOutline(const json& entries, std::vector<std::string>* path,
                    std::vector<OutlineMark>* marks) {
  if (!entries.is_array()) return;
  for (const json& entry : entries) {
    if (!entry.is_object()) continue;
    std::string title = Nfc(SanitizeUtf8(entry.value("title", std::string())));
    for (char& c : title) c = (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    title.erase(0, title.find_first_not_of(' '));
    title.erase(title.find_last_not_of(' ') + 1);
    // An untitled entry adds no level: its children sit under its parent.
    if (!title.empty()) path->push_back(title);
    const json page = entry.value("page", json());
    if (!title.empty() && page.is_number_integer() && page.get<int64_t>() >= 1) {
      marks->push_back({static_cast<uint32_t>(page.get<int64_t>()), *path});
    }
    FlattenOutline(entry.value("children", json()), path, marks);
    if (!title.empty()) path->pop_back();
  }
}

// Each block's heading_path from the outline: that of the last entry (in page order, then
// outline order) pointing at or before the block's page, so a page where a chapter and its
// first section start reads both, and a page before any entry reads none.
void AssignHeadings(const json& outline, CanonicalDocument* doc) {
  std::vector<std::string> path;
  std::vector<OutlineMark> marks;
  FlattenOutline(outline, &path, &marks);
  if (marks.empty()) return;
  std::stable_sort(marks.begin(), marks.end(),
                   [](const OutlineMark& a, const OutlineMark& b) { return a.page < b.page; });
  for (Block& block : doc->blocks) {
    auto after =
        std::upper_bound(marks.begin(), marks.end(), block.span.page,
                         [](uint32_t page, const OutlineMark& mark) { return page < mark.page; });
    if (after != marks.begin()) block.heading_path = std::prev(after)->path;
  }
}

}  // namespace

const char kPdfWorkerHint[] =
    "kebab looks for kebab-pdf beside itself, then in ../libexec/kebab (where cmake --install "
    "puts it): rebuild with scripts/setup.sh or reinstall, or point KEBAB_PDF_WORKER at it";

std::string PdfExtractor::VersionFor(const ExtractServices& services) const {
  const OcrPool* ocr = services.ocr;
  if (ocr == nullptr) return kPdfParserVersion;
  const OcrSettings& s = ocr->settings();
  return std::string(kPdfParserVersion) + "+ocr(" + ocr->Signature() + "|dpi" +
         std::to_string(s.pdf_dpi) + (s.pdf_always ? "|always" : "") + ")";
}

std::string PdfWorkerPath() {
  return HelperPath("KEBAB_PDF_WORKER", "kebab-pdf");
}

bool AppendPageBlocks(uint32_t page, std::string_view raw, CanonicalDocument* doc) {
  std::string repaired;
  if (!IsValidUtf8(raw)) {
    repaired = SanitizeUtf8(raw);
    raw = repaired;
  }
  if (VisibleChars(raw) < kMinPageChars) {
    doc->warnings.push_back(NeedsOcrWarning(page));
    return false;
  }
  // Paragraphs are runs of non-blank lines; a form feed ends the page's text.
  size_t pos = 0;
  while (pos < raw.size()) {
    while (pos < raw.size() && (raw[pos] == '\n' || raw[pos] == '\f' || raw[pos] == ' ')) ++pos;
    if (pos >= raw.size()) break;
    size_t end = raw.find("\n\n", pos);
    if (end == std::string_view::npos) end = raw.size();
    std::string_view paragraph = raw.substr(pos, end - pos);
    while (!paragraph.empty() &&
           (paragraph.back() == '\n' || paragraph.back() == '\f' || paragraph.back() == ' ')) {
      paragraph.remove_suffix(1);
    }
    if (VisibleChars(paragraph) > 0) {
      Block b;
      b.kind = BlockKind::kParagraph;
      b.text = Nfc(JoinHyphenated(paragraph));
      b.ordinal = static_cast<int>(doc->blocks.size());
      b.span.kind = SourceSpan::Kind::kPage;
      b.span.page = page;
      b.span.start = page;
      b.span.end = page;
      b.span.char_start = CodePointsBefore(raw, pos);
      b.span.char_end = CodePointsBefore(raw, pos + paragraph.size());
      doc->blocks.push_back(std::move(b));
    }
    pos = end;
  }
  return true;
}

Result<std::string> PdfExtractor::Check() const {
  const std::string worker = PdfWorkerPath();
  std::string poppler;
  bool cjk_cmaps = false;
  Result<SubprocessResult> run = RunSubprocess(
      {worker, "--version"}, "", std::chrono::seconds(10), [&](std::string_view line) {
        json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (j.is_object() && j.value("kind", "") == "version") {
          poppler = j.value("poppler", "");
          cjk_cmaps = j.value("cjk_cmaps", false);
        }
        return true;
      });
  if (!run.ok()) {
    return Status(ErrorCode::kIoError, "cannot run the PDF reader: " + run.status().message(),
                  kPdfWorkerHint);
  }
  if (run->exit_code != 0 || poppler.empty()) {
    return Status(ErrorCode::kIoError,
                  worker + " is not a working kebab-pdf (" +
                      (run->timed_out ? std::string("no answer in 10 s")
                                      : "exit " + std::to_string(run->exit_code)) +
                      (run->stderr_tail.empty() ? "" : ": " + run->stderr_tail) + ")",
                  kPdfWorkerHint);
  }
  const std::string found = "kebab-pdf at " + worker + " (poppler " + poppler + ")";
  if (!cjk_cmaps) {
    return Status(ErrorCode::kIoError,
                  found +
                      " lacks poppler-data: text set in Chinese, Japanese and Korean fonts "
                      "is lost",
                  "install it (Debian: apt-get install poppler-data; scripts/setup.sh does), "
                  "then `kebab ingest --force-reingest` the affected PDFs");
  }
  return found;
}

Result<CanonicalDocument> PdfExtractor::Extract(const ExtractInput& input) const {
  CanonicalDocument doc;
  doc.asset_id = input.asset_id;
  doc.workspace_path = input.workspace_path;
  doc.parser_version = VersionFor({.ocr = input.ocr});
  doc.doc_id = DocId(input.workspace_path, input.asset_id, kPdfParserVersion);

  json info;
  std::string error_code, error_message;
  int pages_seen = 0;
  json needs_ocr = json::array();
  const std::string worker = PdfWorkerPath();
  Result<SubprocessResult> run = RunSubprocess(
      {worker}, input.bytes, std::chrono::seconds(input.max_seconds), [&](std::string_view line) {
        json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (!j.is_object()) return true;
        const std::string kind = j.value("kind", "");
        if (kind == "info") {
          info = std::move(j);
        } else if (kind == "page") {
          ++pages_seen;
          if (input.on_progress) input.on_progress(pages_seen, info.value("pages", 0));
          const uint32_t page = j.value("page", 0u);
          if (!AppendPageBlocks(page, j.value("text", std::string()), &doc)) {
            needs_ocr.push_back(page);
          }
        } else if (kind == "error") {
          error_code = j.value("code", "damaged");
          error_message = j.value("message", "");
        }
        return true;
      });
  if (!run.ok()) {
    return Status(ErrorCode::kIoError, run.status().message(), kPdfWorkerHint);
  }
  if (!error_code.empty()) {
    return Status(error_code == "encrypted" ? ErrorCode::kInvalidInput : ErrorCode::kCorrupt,
                  error_code + ": " + error_message);
  }
  if (run->timed_out) {
    return Status(ErrorCode::kTimeout,
                  "the PDF worker took over " + std::to_string(input.max_seconds) +
                      " s and was stopped (after " + std::to_string(pages_seen) + " pages)");
  }
  if (run->signal != 0 || run->exit_code != 0 || info.is_null()) {
    return Status(ErrorCode::kCorrupt,
                  "the PDF worker " +
                      (run->signal != 0 ? "crashed (signal " + std::to_string(run->signal) + ")"
                                        : "failed (exit " + std::to_string(run->exit_code) + ")") +
                      " after " + std::to_string(pages_seen) + " pages");
  }

  const int pages = info.value("pages", 0);
  json ocr_pages = json::array();
  if (input.ocr != nullptr) {
    std::vector<uint32_t> wanted;
    if (input.ocr->settings().pdf_always) {
      for (int p = 1; p <= pages; ++p) wanted.push_back(static_cast<uint32_t>(p));
    } else {
      for (const json& p : needs_ocr) wanted.push_back(p.get<uint32_t>());
    }
    if (!wanted.empty()) {
      KEBAB_ASSIGN_OR_RETURN(const std::vector<uint32_t> filled, OcrPdfPages(input, wanted, &doc));
      json still = json::array();
      for (const json& p : needs_ocr) {
        if (std::find(filled.begin(), filled.end(), p.get<uint32_t>()) == filled.end()) {
          still.push_back(p);
        }
      }
      needs_ocr = std::move(still);
      for (uint32_t p : filled) ocr_pages.push_back(p);
    }
  }
  AssignHeadings(info.value("outline", json()), &doc);
  for (Block& block : doc.blocks) {
    block.block_id = BlockId(doc.doc_id, BlockKindName(block.kind), block.heading_path,
                             block.ordinal, block.span);
  }
  std::string title = CollapseWhitespace(info.value("title", std::string()));
  if (title.empty() && !doc.blocks.empty()) title = TitleFromText(doc.blocks.front().text);
  doc.title = title.empty() ? FileStem(input.workspace_path) : Nfc(title);
  std::string sample;
  for (const Block& b : doc.blocks) {
    if (sample.size() > kLanguageSampleBytes) break;
    AppendWithoutUrls(b.text, sample);
    sample += '\n';
  }
  doc.lang = DetectLanguage(sample);

  Metadata& metadata = doc.metadata;
  const std::string default_time = input.discovered_at.empty() ? NowRfc3339() : input.discovered_at;
  const json created = info.value("created", json());
  const json modified = info.value("modified", json());
  metadata.created_at =
      created.is_number_integer() ? FormatRfc3339(created.get<int64_t>()) : default_time;
  metadata.updated_at =
      modified.is_number_integer() ? FormatRfc3339(modified.get<int64_t>()) : metadata.created_at;
  metadata.tags = SplitKeywords(info.value("keywords", std::string()));
  // What the document info says beyond the title, and the pages: kept with the document
  // (inspect doc shows them), never searched.
  for (const char* key : {"author", "subject"}) {
    std::string value = Nfc(SanitizeUtf8(info.value(key, std::string())));
    value.erase(0, value.find_first_not_of(" \t\r\n"));
    value.erase(value.find_last_not_of(" \t\r\n") + 1);
    if (!value.empty()) metadata.user[key] = value;
  }
  metadata.source_type = SourceType::kPaper;
  if (info.value("encrypted", false))
    doc.warnings.emplace_back("encrypted (opened without a password)");
  metadata.user["pages"] = pages;
  metadata.user["pages_needing_ocr"] = std::move(needs_ocr);
  if (!ocr_pages.empty()) {
    metadata.user["ocr"] = {{"pages", std::move(ocr_pages)},
                            {"engine", input.ocr->EngineVersion()},
                            {"languages", input.ocr->settings().Languages()},
                            {"dpi", input.ocr->settings().pdf_dpi}};
  }
  doc.provenance.push_back({NowRfc3339(), kAgent, "parsed",
                            std::string(kPdfParserVersion) + ", " + std::to_string(pages) +
                                " pages, " + std::to_string(doc.blocks.size()) + " blocks"});
  return doc;
}

}  // namespace kebab::parse::internal
