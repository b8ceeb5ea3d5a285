#include "parse/internal/image.h"

#include <libexif/exif-data.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <future>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/ids.h"
#include "core/time.h"
#include "core/unicode.h"
#include "parse/internal/ocr_blocks.h"
#include "parse/language.h"
#include "parse/ocr.h"

namespace kebab::parse::internal {
namespace {

using nlohmann::json;

constexpr char kAgent[] = "kebab-image";
// A multi-page tiff past this many pages has the rest left out (named in a warning).
constexpr int kMaxFrames = 1000;

uint32_t Be16(std::string_view b, size_t i) {
  return (static_cast<uint32_t>(static_cast<uint8_t>(b[i])) << 8) | static_cast<uint8_t>(b[i + 1]);
}
uint32_t Be32(std::string_view b, size_t i) {
  return (Be16(b, i) << 16) | Be16(b, i + 2);
}
uint32_t Le16(std::string_view b, size_t i) {
  return static_cast<uint8_t>(b[i]) | (static_cast<uint32_t>(static_cast<uint8_t>(b[i + 1])) << 8);
}
uint32_t Le24(std::string_view b, size_t i) {
  return Le16(b, i) | (static_cast<uint32_t>(static_cast<uint8_t>(b[i + 2])) << 16);
}
uint32_t Le32(std::string_view b, size_t i) {
  return Le16(b, i) | (Le16(b, i + 2) << 16);
}

std::string EntryText(ExifData* data, ExifIfd ifd, ExifTag tag) {
  ExifEntry* e = exif_content_get_entry(data->ifd[ifd], tag);
  if (e == nullptr) return "";
  char buf[256];
  exif_entry_get_value(e, buf, sizeof buf);
  std::string s = SanitizeUtf8(buf);
  s.erase(s.find_last_not_of(" \t\r\n") + 1);
  s.erase(0, s.find_first_not_of(" \t\r\n"));
  return s;
}

// Degrees from an EXIF GPS coordinate (three rationals) and its N/S/E/W reference.
std::optional<double> Degrees(ExifData* data, ExifTag tag, ExifTag ref_tag) {
  ExifEntry* e = exif_content_get_entry(data->ifd[EXIF_IFD_GPS], tag);
  if (e == nullptr || e->format != EXIF_FORMAT_RATIONAL || e->components < 3 || e->size < 24) {
    return std::nullopt;
  }
  const ExifByteOrder order = exif_data_get_byte_order(data);
  double parts[3];
  for (int i = 0; i < 3; ++i) {
    const ExifRational r = exif_get_rational(e->data + 8 * i, order);
    if (r.denominator == 0) return std::nullopt;
    parts[i] = static_cast<double>(r.numerator) / r.denominator;
  }
  double deg = parts[0] + parts[1] / 60 + parts[2] / 3600;
  const std::string ref = EntryText(data, EXIF_IFD_GPS, ref_tag);
  if (ref == "S" || ref == "W") deg = -deg;
  return std::round(deg * 1e6) / 1e6;
}

std::string FileName(const std::string& workspace_path) {
  return workspace_path.substr(workspace_path.rfind('/') + 1);
}

std::string Stem(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

// "photo.jpg, image 4032 x 3024 pixels, taken 2024-05-17 14:32:10, camera Samsung SM-G991N"
std::string Describe(const std::string& name, uint32_t width, uint32_t height, int frames,
                     const ExifInfo& exif) {
  std::string d = name + ", image";
  if (width > 0 && height > 0) {
    d += " " + std::to_string(width) + " x " + std::to_string(height) + " pixels";
  }
  if (frames > 1) d += ", " + std::to_string(frames) + " pages";
  if (!exif.taken_at.empty()) {
    std::string when = exif.taken_at;
    std::replace(when.begin(), when.end(), 'T', ' ');
    d += ", taken " + when;
  }
  const std::string camera = exif.model.starts_with(exif.make)
                                 ? exif.model
                                 : exif.make + (exif.make.empty() ? "" : " ") + exif.model;
  if (!camera.empty()) d += ", camera " + camera;
  if (exif.latitude && exif.longitude) {
    char buf[96];
    std::snprintf(buf, sizeof buf, ", at %.4f %s %.4f %s", std::fabs(*exif.latitude),
                  *exif.latitude < 0 ? "S" : "N", std::fabs(*exif.longitude),
                  *exif.longitude < 0 ? "W" : "E");
    d += buf;
  }
  return d;
}

bool Cancelled(const ExtractInput& input) {
  return input.cancel != nullptr && input.cancel->load(std::memory_order_relaxed);
}

// Whether an OCR failure means the file itself cannot be read (rather than OCR being
// unavailable or the image too big to read whole).
bool FileIsBad(const Status& s) {
  return s.code() == ErrorCode::kCorrupt ||
         (s.code() == ErrorCode::kInvalidInput && s.message().starts_with("unsupported"));
}

}  // namespace

ExifInfo ReadExif(std::string_view bytes) {
  ExifInfo info;
  ExifData* data = exif_data_new_from_data(
      reinterpret_cast<const unsigned char*>(bytes.data()),
      static_cast<unsigned int>(std::min<size_t>(bytes.size(), UINT32_MAX)));
  if (data == nullptr) return info;
  if (ExifEntry* e = exif_content_get_entry(data->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
      e != nullptr && e->format == EXIF_FORMAT_SHORT && e->size >= 2) {
    const int o = exif_get_short(e->data, exif_data_get_byte_order(data));
    if (o >= 1 && o <= 8) info.orientation = o;
  }
  std::string when = EntryText(data, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL);
  if (when.empty()) when = EntryText(data, EXIF_IFD_0, EXIF_TAG_DATE_TIME);
  // "2024:05:17 14:32:10" → "2024-05-17T14:32:10"
  if (when.size() == 19 && when[4] == ':' && when[7] == ':' && when[10] == ' ') {
    when[4] = '-';
    when[7] = '-';
    when[10] = 'T';
    info.taken_at = when;
  }
  info.make = EntryText(data, EXIF_IFD_0, EXIF_TAG_MAKE);
  info.model = EntryText(data, EXIF_IFD_0, EXIF_TAG_MODEL);
  info.latitude = Degrees(data, static_cast<ExifTag>(EXIF_TAG_GPS_LATITUDE),
                          static_cast<ExifTag>(EXIF_TAG_GPS_LATITUDE_REF));
  info.longitude = Degrees(data, static_cast<ExifTag>(EXIF_TAG_GPS_LONGITUDE),
                           static_cast<ExifTag>(EXIF_TAG_GPS_LONGITUDE_REF));
  exif_data_unref(data);
  return info;
}

std::optional<std::pair<uint32_t, uint32_t>> ImageSize(std::string_view b) {
  if (b.size() >= 24 && b.substr(0, 8) == "\x89PNG\r\n\x1a\n") return {{Be32(b, 16), Be32(b, 20)}};
  if (b.size() >= 10 && b.substr(0, 4) == "GIF8") return {{Le16(b, 6), Le16(b, 8)}};
  if (b.size() >= 26 && b.substr(0, 2) == "BM") {
    const auto h = static_cast<int32_t>(Le32(b, 22));
    return {{Le32(b, 18), static_cast<uint32_t>(h < 0 ? -h : h)}};
  }
  if (b.size() >= 30 && b.substr(0, 4) == "RIFF" && b.substr(8, 4) == "WEBP") {
    const std::string_view chunk = b.substr(12, 4);
    if (chunk == "VP8 ") return {{Le16(b, 26) & 0x3fff, Le16(b, 28) & 0x3fff}};
    if (chunk == "VP8L") {
      const uint32_t bits = Le32(b, 21);
      return {{(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1}};
    }
    if (chunk == "VP8X") return {{Le24(b, 24) + 1, Le24(b, 27) + 1}};
    return std::nullopt;
  }
  if (b.size() >= 4 && static_cast<uint8_t>(b[0]) == 0xFF && static_cast<uint8_t>(b[1]) == 0xD8) {
    size_t i = 2;
    while (i + 9 < b.size()) {
      if (static_cast<uint8_t>(b[i]) != 0xFF) return std::nullopt;
      const uint8_t marker = static_cast<uint8_t>(b[i + 1]);
      if (marker == 0xFF) {
        ++i;
        continue;
      }
      const bool sof =
          marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (sof) return {{Be16(b, i + 7), Be16(b, i + 5)}};
      i += 2 + Be16(b, i + 2);
    }
  }
  return std::nullopt;
}

std::string ImageExtractor::VersionFor(const ExtractServices& services) const {
  const OcrPool* ocr = services.ocr;
  const Captioner* captioner = services.captioner;
  std::string version = kImageParserVersion;
  if (ocr != nullptr) version += "+ocr(" + ocr->Signature() + ")";
  if (captioner != nullptr) version += "+caption(" + captioner->Signature() + ")";
  return version;
}

Result<CanonicalDocument> ImageExtractor::Extract(const ExtractInput& input) const {
  if (input.bytes.empty()) return Status(ErrorCode::kCorrupt, "empty file (0 bytes)");
  CanonicalDocument doc;
  doc.asset_id = input.asset_id;
  doc.workspace_path = input.workspace_path;
  doc.doc_id = DocId(input.workspace_path, input.asset_id, kImageParserVersion);
  const std::string name = FileName(input.workspace_path);
  const ExifInfo exif = ReadExif(input.bytes);
  // The caption is written while OCR reads: a vision model takes seconds an image.
  std::future<Result<Caption>> caption;
  if (input.captioner != nullptr) {
    caption = std::async(std::launch::async, [&input, orientation = exif.orientation] {
      return input.captioner->Describe(input.bytes, orientation, input.cancel);
    });
  }
  uint32_t width = 0, height = 0;
  if (auto size = ImageSize(input.bytes)) std::tie(width, height) = *size;
  int frames = 1;
  double confidence_sum = 0;
  int64_t ocr_chars = 0;
  bool read_by_ocr = false;
  json psm_used = json::array();  // the page segmentation mode of each page read

  if (input.ocr != nullptr) {
    // Frames are read as a tiff's pages; the first one tells how many there are.
    auto shared = std::make_shared<const std::string>(input.bytes);
    auto job = [&](int frame) {
      OcrJob j;
      j.frame = frame;
      j.orientation = exif.orientation;
      j.load = [shared]() -> Result<std::string> { return *shared; };
      return j;
    };
    std::map<int, Result<OcrPage>> read;
    {
      OcrBatch first(*input.ocr, input);
      first.Add(1, job(0));
      read = first.Finish();
    }
    Result<OcrPage>& page1 = read.at(1);
    if (!page1.ok()) {
      if (FileIsBad(page1.status())) return page1.status();
      doc.warnings.push_back(
          "OCR could not read it: " + page1.status().message() +
          (page1.status().hint().empty() ? "" : " (" + page1.status().hint() + ")"));
    } else {
      frames = page1->frames;
      width = page1->width;
      height = page1->height;
      if (frames > 1) {
        OcrBatch rest(*input.ocr, input);
        for (int f = 1; f < std::min(frames, kMaxFrames) && !Cancelled(input); ++f) {
          rest.Add(f + 1, job(f));
        }
        read.merge(rest.Finish());
        if (frames > kMaxFrames) {
          doc.warnings.push_back("only the first " + std::to_string(kMaxFrames) + " of " +
                                 std::to_string(frames) + " pages were read");
        }
      }
    }
    if (Cancelled(input)) {
      return Status(ErrorCode::kCancelled,
                    "stopped during OCR; the pages read are kept for the next ingest");
    }
    for (auto& [frame, result] : read) {
      if (!result.ok()) {
        if (frame > 1) {
          doc.warnings.push_back("page " + std::to_string(frame) +
                                 ": OCR failed: " + result.status().message());
        }
        continue;
      }
      read_by_ocr = true;
      psm_used.push_back(result->psm);
      const size_t chars = AppendOcrBlocks(*result, frames > 1 ? static_cast<uint32_t>(frame) : 0,
                                           std::nullopt, &doc);
      ocr_chars += static_cast<int64_t>(chars);
      confidence_sum += result->mean_confidence * static_cast<double>(chars);
      if (!result->lines.empty() &&
          result->mean_confidence < input.ocr->settings().low_confidence) {
        doc.warnings.push_back((frames > 1 ? "page " + std::to_string(frame) + ": " : "") +
                               "low OCR confidence (" +
                               std::to_string(static_cast<int>(result->mean_confidence)) + ")");
      }
    }
  }

  // A caption that could not be written leaves the version without it, so the next ingest
  // tries again (OCR then comes from the cache).
  bool captioned = false;
  if (caption.valid()) {
    Result<Caption> c = caption.get();
    if (c.ok()) {
      Block b;
      b.kind = BlockKind::kParagraph;
      b.text = Nfc(c->text);
      b.span.kind = SourceSpan::Kind::kCaption;
      b.span.model = c->model;
      doc.blocks.insert(doc.blocks.begin(), std::move(b));
      doc.metadata.user["caption"] = {{"model", c->model}, {"prompt", c->prompt_version}};
      captioned = true;
    } else if (c.status().code() != ErrorCode::kCancelled) {
      doc.warnings.push_back("no caption: " + c.status().message() +
                             (c.status().hint().empty() ? "" : " (" + c.status().hint() + ")") +
                             "; the next ingest tries again");
    }
  }
  doc.parser_version =
      VersionFor({.ocr = input.ocr, .captioner = captioned ? input.captioner : nullptr});

  // The description block comes first: it names the file whatever OCR found.
  Block description;
  description.kind = BlockKind::kImageRef;
  description.src = name;
  description.text = Nfc(Describe(name, width, height, frames, exif));
  description.alt = description.text;
  description.span.kind = SourceSpan::Kind::kRegion;
  description.span.w = width;
  description.span.h = height;
  doc.blocks.insert(doc.blocks.begin(), std::move(description));
  for (size_t i = 0; i < doc.blocks.size(); ++i) {
    Block& block = doc.blocks[i];
    block.ordinal = static_cast<int>(i);
    block.block_id = BlockId(doc.doc_id, BlockKindName(block.kind), block.heading_path,
                             block.ordinal, block.span);
  }

  doc.title = Nfc(Stem(name));
  std::string sample;
  for (const Block& b : doc.blocks) {
    if (b.kind == BlockKind::kImageRef) continue;
    sample += b.text;
    sample += '\n';
  }
  doc.lang = DetectLanguage(sample);
  Metadata& metadata = doc.metadata;
  metadata.created_at = input.discovered_at.empty() ? NowRfc3339() : input.discovered_at;
  metadata.updated_at = metadata.created_at;
  metadata.source_type = SourceType::kNote;
  metadata.user["width"] = width;
  metadata.user["height"] = height;
  if (frames > 1) metadata.user["pages"] = frames;
  json exif_json = json::object();
  if (!exif.taken_at.empty()) exif_json["taken_at"] = exif.taken_at;
  if (!exif.make.empty()) exif_json["make"] = exif.make;
  if (!exif.model.empty()) exif_json["model"] = exif.model;
  if (exif.latitude && exif.longitude) {
    exif_json["gps"] = {{"latitude", *exif.latitude}, {"longitude", *exif.longitude}};
  }
  if (exif.orientation != 1) exif_json["orientation"] = exif.orientation;
  if (!exif_json.empty()) metadata.user["exif"] = std::move(exif_json);
  if (read_by_ocr) {
    metadata.user["ocr"] = {
        {"engine", input.ocr->EngineVersion()},
        {"languages", input.ocr->settings().Languages()},
        {"chars", ocr_chars},
        {"mean_confidence",
         ocr_chars > 0 ? std::round(confidence_sum / static_cast<double>(ocr_chars) * 10) / 10
                       : 0.0}};
    metadata.user["ocr_psm"] = std::move(psm_used);
  }
  doc.provenance.push_back(
      {NowRfc3339(), kAgent, "parsed",
       doc.parser_version + ", " + std::to_string(doc.blocks.size()) + " blocks"});
  return doc;
}

}  // namespace kebab::parse::internal
