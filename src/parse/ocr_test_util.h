// Helpers of the OCR tests (ocr_test.cc, image_test.cc): pages of text at known positions,
// made by a PDF the test writes and rendered by the real kebab-pdf, and an in-memory cache.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "core/subprocess.h"
#include "parse/ocr.h"

namespace kebab::parse::testing_ocr {

inline constexpr int kDpi = 150;

// A one-page US Letter PDF: `lines` in 20 pt Helvetica from (72, 700) down, 40 pt apart.
inline std::string TextPdf(const std::vector<std::string>& lines) {
  std::string stream = "BT /F1 20 Tf 40 TL 72 700 Td\n";
  for (const std::string& l : lines) stream += "(" + l + ") Tj T*\n";
  stream += "ET";
  std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R "
      ">> >> /Contents 5 0 R >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      "<< /Length " + std::to_string(stream.size()) + " >>\nstream\n" + stream + "\nendstream"};
  std::string pdf = "%PDF-1.4\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (size_t off : offsets) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%010zu 00000 n \n", off);
    pdf += buf;
  }
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

// The page rendered by the real kebab-pdf, as PGM bytes, in a directory of this call's own
// (tests may run at once).
inline std::string RenderPage(const std::string& pdf) {
  std::string dir = ::testing::TempDir() + "/ocr-render-XXXXXX";
  EXPECT_NE(::mkdtemp(dir.data()), nullptr);
  std::string said;
  auto run = RunSubprocess(
      {KEBAB_PDF_WORKER_PATH, "--render", dir, "--dpi", std::to_string(kDpi), "--pages", "1"}, pdf,
      std::chrono::seconds(30), [&](std::string_view line) {
        said += std::string(line) + "\n";
        return true;
      });
  EXPECT_TRUE(run.ok() && run->exit_code == 0)
      << (run.ok() ? "exit " + std::to_string(run->exit_code) + ", signal " +
                         std::to_string(run->signal) + ", stderr: " + run->stderr_tail
                   : run.status().message())
      << "\nstdout: " << said;
  std::ifstream in(dir + "/page-1.pgm", std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  std::filesystem::remove_all(dir);
  return s.str();
}

// A PGM turned a quarter counter-clockwise: a viewer shows it upright after EXIF orientation 6.
inline std::string TurnCounterClockwise(const std::string& pgm, int* w, int* h) {
  std::istringstream in(pgm);
  std::string magic;
  int width, height, max;
  in >> magic >> width >> height >> max;
  in.get();
  std::string pixels(static_cast<size_t>(width) * height, '\0');
  in.read(pixels.data(), static_cast<std::streamsize>(pixels.size()));
  std::string out(pixels.size(), '\0');
  // Stored (sx, sy) of the turned image shows upright pixel (ox, oy) = (h' - 1 - sy, sx)... so
  // turned(x = oy, y = width - 1 - ox) = upright(ox, oy).
  for (int oy = 0; oy < height; ++oy) {
    for (int ox = 0; ox < width; ++ox) {
      const int sx = oy, sy = width - 1 - ox;
      out[static_cast<size_t>(sy) * height + sx] = pixels[static_cast<size_t>(oy) * width + ox];
    }
  }
  *w = height;
  *h = width;
  return "P5\n" + std::to_string(height) + " " + std::to_string(width) + "\n255\n" + out;
}

class MapCache final : public DerivationCache {
 public:
  std::optional<std::string> Get(const std::string& key) override {
    std::lock_guard lock(mu_);
    auto it = rows_.find(key);
    if (it == rows_.end()) return std::nullopt;
    return it->second;
  }
  void Put(const std::string& key, std::string_view, std::string payload) override {
    std::lock_guard lock(mu_);
    rows_[key] = std::move(payload);
  }
  size_t size() {
    std::lock_guard lock(mu_);
    return rows_.size();
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::string> rows_;
};

inline OcrSettings Eng() {
  OcrSettings s;
  s.languages = {"eng"};
  s.workers = 2;
  return s;
}

inline OcrJob Job(const std::string& bytes, int orientation = 1) {
  OcrJob job;
  job.dpi = kDpi;
  job.orientation = orientation;
  job.load = [bytes]() -> Result<std::string> { return bytes; };
  return job;
}

inline const std::vector<std::string> kLines = {
    "Quokkas sleep in the shade", "Wombats dig long burrows", "Numbats eat termites daily"};

// Where line i of TextPdf lands at kDpi: x from 72 pt, baseline at 700 - 40 i pt (from the
// bottom of a 792 pt page); capitals rise ~14 pt above it at 20 pt.
inline int ExpectedLeft() {
  return 72 * kDpi / 72;
}
inline int ExpectedTop(int i) {
  return static_cast<int>((792 - (700 - 40 * i) - 14.5) * kDpi / 72.0);
}

inline std::string FromBase64(std::string_view text) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const size_t v = kAlphabet.find(c);
    if (v == std::string::npos) continue;  // '=' padding
    bits = (bits << 6) | static_cast<uint32_t>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += static_cast<char>((bits >> count) & 0xFF);
    }
  }
  return out;
}

}  // namespace kebab::parse::testing_ocr
