// The OCR path with the real workers: pages rendered by kebab-pdf from a PDF the test writes
// (Helvetica lines at known positions) and read by kebab-ocr (Tesseract) on an OcrPool, whose
// boxes must land on those lines; the cache, EXIF orientation and bad input.
#include "parse/ocr.h"

#include <gtest/gtest.h>

#include "parse/internal/image.h"
#include "parse/ocr_test_util.h"

namespace kebab::parse {
namespace {

using namespace testing_ocr;  // NOLINT: the helpers are this file's vocabulary

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
