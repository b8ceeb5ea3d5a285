// The image extractor (parse/extractor.h): png, jpeg, webp, tiff (every page), gif (the first
// frame) and bmp. EXIF (libexif) gives the orientation OCR undoes, and the date, camera and
// GPS position kept as metadata; OCR (the OcrPool in ExtractInput) gives paragraph blocks
// cited by region, `photo.jpg#xywh=x,y,w,h` (`scan.tiff#p=2&xywh=...` on a later page). Every
// image also has a description block (file name, size, camera, date), so one without text is
// still found by those. Module-private.
#pragma once

#include <optional>
#include <string>

#include "parse/extractor.h"

namespace kebab::parse::internal {

inline constexpr char kImageParserVersion[] = "image-v1";

struct ExifInfo {
  int orientation = 1;   // 1..8
  std::string taken_at;  // "2024-05-17T14:32:10" (EXIF keeps no time zone)
  std::string make, model;
  std::optional<double> latitude, longitude;  // degrees, south and west negative
};

// What EXIF says in `bytes` (a JPEG, or a TIFF-based file); defaults when it has none.
ExifInfo ReadExif(std::string_view bytes);

// Width and height from the file's header (png, jpeg, gif, bmp, webp), when it says.
std::optional<std::pair<uint32_t, uint32_t>> ImageSize(std::string_view bytes);

class ImageExtractor final : public Extractor {
 public:
  std::string_view version() const override { return kImageParserVersion; }
  // With OCR: "+ocr(ENGINE|LANGS|psmN|mpN)".
  std::string VersionFor(const ExtractServices& services) const override;
  Result<CanonicalDocument> Extract(const ExtractInput& input) const override;
};

}  // namespace kebab::parse::internal
