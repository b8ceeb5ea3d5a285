// The OCR path with the real workers: pages rendered by kebab-pdf from a PDF the test writes
// (Helvetica lines at known positions) and read by kebab-ocr (Tesseract) on an OcrPool, whose
// boxes must land on those lines; the cache, EXIF orientation and bad input.
#include "parse/ocr.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/subprocess.h"
#include "parse/internal/image.h"

namespace kebab::parse {
namespace {

constexpr int kDpi = 150;

// A one-page US Letter PDF: `lines` in 20 pt Helvetica from (72, 700) down, 40 pt apart.
std::string TextPdf(const std::vector<std::string>& lines) {
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
std::string RenderPage(const std::string& pdf) {
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
std::string TurnCounterClockwise(const std::string& pgm, int* w, int* h) {
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

OcrSettings Eng() {
  OcrSettings s;
  s.languages = {"eng"};
  s.workers = 2;
  return s;
}

OcrJob Job(const std::string& bytes, int orientation = 1) {
  OcrJob job;
  job.dpi = kDpi;
  job.orientation = orientation;
  job.load = [bytes]() -> Result<std::string> { return bytes; };
  return job;
}

const std::vector<std::string> kLines = {"Quokkas sleep in the shade", "Wombats dig long burrows",
                                         "Numbats eat termites daily"};

// Where line i of TextPdf lands at kDpi: x from 72 pt, baseline at 700 - 40 i pt (from the
// bottom of a 792 pt page); capitals rise ~14 pt above it at 20 pt.
int ExpectedLeft() {
  return 72 * kDpi / 72;
}
int ExpectedTop(int i) {
  return static_cast<int>((792 - (700 - 40 * i) - 14.5) * kDpi / 72.0);
}

TEST(OcrPoolTest, LinesLandOnTheTextTheyRead) {
  const std::string page = RenderPage(TextPdf(kLines));
  ASSERT_FALSE(page.empty());
  MapCache cache;
  OcrPool pool(Eng(), &cache, KEBAB_OCR_WORKER_PATH);
  Result<OcrPage> read = pool.Submit(Job(page)).get();
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->width, 612u * kDpi / 72);
  EXPECT_EQ(read->height, 792u * kDpi / 72);
  ASSERT_EQ(read->lines.size(), kLines.size());
  for (size_t i = 0; i < kLines.size(); ++i) {
    const OcrLine& line = read->lines[i];
    EXPECT_EQ(line.text, kLines[i]);
    EXPECT_NEAR(static_cast<int>(line.x), ExpectedLeft(), 4) << line.text;
    EXPECT_NEAR(static_cast<int>(line.y), ExpectedTop(static_cast<int>(i)), 6) << line.text;
    EXPECT_GT(line.confidence, 80) << line.text;
  }
  EXPECT_FALSE(read->cached);
}

TEST(OcrPoolTest, TheSameImageIsReadOnceAndOtherSettingsReadAgain) {
  const std::string page = RenderPage(TextPdf(kLines));
  MapCache cache;
  {
    OcrPool pool(Eng(), &cache, KEBAB_OCR_WORKER_PATH);
    ASSERT_FALSE(pool.Submit(Job(page)).get()->cached);
    Result<OcrPage> again = pool.Submit(Job(page)).get();
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(again->cached);
    EXPECT_EQ(again->lines.size(), kLines.size());
    EXPECT_EQ(again->lines[1].text, kLines[1]);
  }
  EXPECT_EQ(cache.size(), 1u);
  OcrSettings psm6 = Eng();
  psm6.page_segmentation_mode = 6;
  OcrPool other(psm6, &cache, KEBAB_OCR_WORKER_PATH);
  EXPECT_FALSE(other.Submit(Job(page)).get()->cached);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_NE(Eng().CacheVersion("t"), psm6.CacheVersion("t"));
}

TEST(OcrPoolTest, ExifOrientationIsUndoneAndBoxesComeBackToTheStoredImage) {
  int w = 0, h = 0;
  const std::string turned = TurnCounterClockwise(RenderPage(TextPdf(kLines)), &w, &h);
  OcrPool pool(Eng(), nullptr, KEBAB_OCR_WORKER_PATH);
  Result<OcrPage> read = pool.Submit(Job(turned, /*orientation=*/6)).get();
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->width, static_cast<uint32_t>(w));
  ASSERT_EQ(read->lines.size(), kLines.size());
  // Upright (ox, oy) is stored at (oy, width_upright - ox): a line runs down the stored image,
  // its top edge at stored x = upright top, its left end at the bottom of the stored image.
  const int upright_width = h;
  for (size_t i = 0; i < kLines.size(); ++i) {
    const OcrLine& line = read->lines[i];
    EXPECT_EQ(line.text, kLines[i]);
    EXPECT_NEAR(static_cast<int>(line.x), ExpectedTop(static_cast<int>(i)), 6);
    EXPECT_NEAR(static_cast<int>(line.y + line.h), upright_width - ExpectedLeft(), 6);
    EXPECT_GT(line.h, line.w);  // the line runs down the stored image
  }
}

std::string FromBase64(std::string_view text) {
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

TEST(OcrPoolTest, ThumbnailsAreUprightSmallJpegs) {
  int w = 0, h = 0;
  const std::string turned = TurnCounterClockwise(RenderPage(TextPdf(kLines)), &w, &h);
  OcrPool pool(Eng(), nullptr, KEBAB_OCR_WORKER_PATH);
  // Stored w x h lying on its side; upright it is h wide and w tall.
  Result<Thumbnail> small = pool.SubmitThumbnail(turned, /*orientation=*/6, 400).get();
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_EQ(small->height, 400u);
  EXPECT_NEAR(static_cast<double>(small->width), 400.0 * h / w, 1.0);
  const std::string jpeg = FromBase64(small->jpeg_base64);
  ASSERT_TRUE(jpeg.starts_with("\xFF\xD8"));
  EXPECT_EQ(internal::ImageSize(jpeg),
            (std::pair<uint32_t, uint32_t>{small->width, small->height}));
  // Large enough to read: the lines come out in order, so the image is upright.
  Result<Thumbnail> readable = pool.SubmitThumbnail(turned, 6, 1536).get();
  ASSERT_TRUE(readable.ok()) << readable.status().ToString();
  EXPECT_EQ(readable->height, 1536u);
  Result<OcrPage> read = pool.Submit(Job(FromBase64(readable->jpeg_base64))).get();
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->lines.size(), kLines.size());
  EXPECT_EQ(read->lines[0].text, kLines[0]);
  // What cannot be decoded is the image's error, as for OCR.
  Result<Thumbnail> garbage = pool.SubmitThumbnail("not an image", 1, 400).get();
  EXPECT_EQ(garbage.status().code(), ErrorCode::kInvalidInput) << garbage.status().ToString();
}

TEST(OcrPoolTest, BadImagesAreErrorsNamingTheProblem) {
  OcrSettings small = Eng();
  small.max_pixels = 1'000'000;
  OcrPool pool(small, nullptr, KEBAB_OCR_WORKER_PATH);
  Result<OcrPage> garbage = pool.Submit(Job("not an image at all")).get();
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.status().code(), ErrorCode::kInvalidInput);
  EXPECT_TRUE(garbage.status().message().starts_with("unsupported"));
  const std::string page = RenderPage(TextPdf(kLines));
  Result<OcrPage> truncated = pool.Submit(Job(page.substr(0, page.size() / 3))).get();
  EXPECT_EQ(truncated.status().code(), ErrorCode::kCorrupt) << truncated.status().ToString();
  // A header claiming 60000 x 60000 pixels: refused before anything is decoded.
  const std::string bomb = "P5\n60000 60000\n255\n" + std::string(64, '\0');
  Result<OcrPage> big = pool.Submit(Job(bomb)).get();
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), ErrorCode::kInvalidInput);
  EXPECT_NE(big.status().hint().find("max_pixels"), std::string::npos);
  // The page itself is over max_pixels here: it is read scaled down, boxes in full size.
  Result<OcrPage> scaled = pool.Submit(Job(page)).get();
  ASSERT_TRUE(scaled.ok()) << scaled.status().ToString();
  EXPECT_LT(scaled->scale, 1.0);
  ASSERT_FALSE(scaled->lines.empty());
  EXPECT_NEAR(static_cast<int>(scaled->lines[0].x), ExpectedLeft(), 6);
  // The worker lives on after each of these.
  EXPECT_TRUE(pool.Submit(Job(page)).get().ok());
}

TEST(OcrPoolTest, AMissingLanguageOrWorkerSaysHowToFixIt) {
  OcrSettings klingon = Eng();
  klingon.languages = {"tlh"};
  OcrPool pool(klingon, nullptr, KEBAB_OCR_WORKER_PATH);
  Result<OcrPage> read = pool.Submit(Job(RenderPage(TextPdf(kLines)))).get();
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), ErrorCode::kConfigInvalid);
  EXPECT_NE(read.status().hint().find("tesseract-ocr-"), std::string::npos);
  Result<std::string> check = pool.Check();
  ASSERT_FALSE(check.ok());
  EXPECT_NE(check.status().message().find("tlh"), std::string::npos);
  EXPECT_EQ(check.status().hint(),
            "apt-get install tesseract-ocr-tlh, or remove it from "
            "[ingest.ocr] languages");

  OcrPool good(Eng(), nullptr, KEBAB_OCR_WORKER_PATH);
  Result<std::string> ok = good.Check();
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_NE(ok->find("tesseract 5"), std::string::npos);

  OcrPool missing(Eng(), nullptr, "/nonexistent/kebab-ocr");
  Result<OcrPage> none = missing.Submit(Job("x")).get();
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), ErrorCode::kIoError);
  EXPECT_EQ(none.status().hint(), kOcrWorkerHint);
  EXPECT_FALSE(missing.Check().ok());
}

TEST(ImageHeaderTest, SizesFromEachFormatsHeader) {
  using internal::ImageSize;
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x02\x80\0\0\x01\xe0", 24);
  EXPECT_EQ(ImageSize(png), std::make_pair(640u, 480u));
  const std::string gif("GIF89a\x20\x03\x58\x02", 10);
  EXPECT_EQ(ImageSize(gif), std::make_pair(800u, 600u));
  std::string bmp(26, '\0');
  bmp[0] = 'B', bmp[1] = 'M', bmp[18] = 10, bmp[22] = static_cast<char>(0xF6);  // height -10
  for (int i = 23; i < 26; ++i) bmp[i] = static_cast<char>(0xFF);
  EXPECT_EQ(ImageSize(bmp), std::make_pair(10u, 10u));
  // A baseline JPEG: SOI, an APP0 of 16 bytes, then SOF0 with height 300 and width 400.
  std::string jpeg("\xFF\xD8\xFF\xE0\x00\x10", 6);
  jpeg += std::string(14, '\0');
  jpeg += std::string("\xFF\xC0\x00\x11\x08\x01\x2C\x01\x90\x03", 10);
  jpeg += std::string(10, '\0');
  EXPECT_EQ(ImageSize(jpeg), std::make_pair(400u, 300u));
  EXPECT_EQ(ImageSize("plain text"), std::nullopt);
}

TEST(ExifTest, DateCameraAndPositionOfARealPhoto) {
  const std::string path =
      std::string(KEBAB_SOURCE_DIR) + "/../shared/data/ocr/images/en-tldr-photo.jpg";
  std::ifstream in(path, std::ios::binary);
  if (!in) GTEST_SKIP() << "../shared/data is absent: " << path;
  std::stringstream s;
  s << in.rdbuf();
  const internal::ExifInfo exif = internal::ReadExif(s.str());
  EXPECT_EQ(exif.taken_at, "2024-05-17T14:32:10");
  EXPECT_EQ(exif.make, "Samsung");
  EXPECT_EQ(exif.model, "SM-G991N");
  ASSERT_TRUE(exif.latitude && exif.longitude);
  EXPECT_NEAR(*exif.latitude, 37.5665, 1e-4);
  EXPECT_NEAR(*exif.longitude, 126.978, 1e-4);
  EXPECT_EQ(exif.orientation, 1);
  EXPECT_EQ(internal::ReadExif("no exif here").orientation, 1);
}

}  // namespace
}  // namespace kebab::parse
