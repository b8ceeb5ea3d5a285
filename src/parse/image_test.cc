// The image extractor with the real workers: every format it reads (each encoded here by
// Leptonica from a page of known text, rendered by kebab-pdf), every page of a multi-page
// tiff, and the citations of what OCR found in them.
#include "parse/internal/image.h"

#include <gtest/gtest.h>
#include <leptonica/allheaders.h>

#include <cstdio>

#include "core/citation.h"
#include "parse/extractor.h"
#include "parse/ocr_test_util.h"

namespace kebab::parse {
namespace {

using namespace testing_ocr;  // NOLINT: the helpers are this file's vocabulary

struct PixDeleter {
  void operator()(PIX* p) const { pixDestroy(&p); }
};
using PixPtr = std::unique_ptr<PIX, PixDeleter>;

PixPtr Decode(const std::string& bytes) {
  return PixPtr(pixReadMem(reinterpret_cast<const l_uint8*>(bytes.data()), bytes.size()));
}

// `pgm` re-encoded by Leptonica in `format` (IFF_PNG, IFF_WEBP, ...).
std::string Encode(const std::string& pgm, int format) {
  PixPtr pix = Decode(pgm);
  l_uint8* data = nullptr;
  size_t size = 0;
  if (pix == nullptr || pixWriteMem(&data, &size, pix.get(), format) != 0) return "";
  std::string out(reinterpret_cast<const char*>(data), size);
  lept_free(data);
  return out;
}

CanonicalDocument Extract(const std::string& bytes, const std::string& path, OcrPool* pool) {
  ExtractInput in{bytes, path, "asset-" + path, "2026-11-28T00:00:00Z"};
  in.ocr = pool;
  Result<CanonicalDocument> doc = ExtractorFor(MediaKind::kImage)->Extract(in);
  EXPECT_TRUE(doc.ok()) << path << ": " << doc.status().ToString();
  return doc.ok() ? *std::move(doc) : CanonicalDocument();
}

// The block whose text holds `text`, or null.
const Block* FindBlock(const CanonicalDocument& doc, const std::string& text) {
  for (const Block& b : doc.blocks) {
    if (b.text.find(text) != std::string::npos) return &b;
  }
  return nullptr;
}

TEST(ImageExtractorTest, EveryFormatIsReadAndItsLinesCitedByRegion) {
  const std::string page = RenderPage(TextPdf(kLines));
  ASSERT_FALSE(page.empty());
  OcrPool pool(Eng(), nullptr, KEBAB_OCR_WORKER_PATH);
  const std::pair<const char*, int> formats[] = {{"png", IFF_PNG},      {"jpg", IFF_JFIF_JPEG},
                                                 {"tif", IFF_TIFF_ZIP}, {"webp", IFF_WEBP},
                                                 {"gif", IFF_GIF},      {"bmp", IFF_BMP}};
  for (const auto& [ext, format] : formats) {
    SCOPED_TRACE(ext);
    const std::string bytes = Encode(page, format);
    ASSERT_FALSE(bytes.empty()) << "Leptonica cannot write " << ext;
    if (format != IFF_TIFF_ZIP) {
      EXPECT_EQ(internal::ImageSize(bytes), std::make_pair(1275u, 1650u));
    }
    const std::string path = std::string("scans/page.") + ext;
    const CanonicalDocument doc = Extract(bytes, path, &pool);
    ASSERT_FALSE(doc.blocks.empty());
    EXPECT_EQ(doc.blocks[0].kind, BlockKind::kImageRef);
    EXPECT_EQ(doc.blocks[0].text, "page." + std::string(ext) + ", image 1275 x 1650 pixels");
    EXPECT_EQ(doc.warnings, std::vector<std::string>{});
    const Block* line = FindBlock(doc, kLines[1]);
    ASSERT_NE(line, nullptr);
    ASSERT_EQ(line->span.kind, SourceSpan::Kind::kRegion);
    EXPECT_NEAR(static_cast<int>(line->span.x), ExpectedLeft(), 6);
    const Citation cited = CitationFromSpan(path, line->span, std::nullopt);
    EXPECT_TRUE(cited.ToUri().starts_with(path + "#xywh=")) << cited.ToUri();
  }
}

TEST(ImageExtractorTest, EveryPageOfATiffIsReadAndCitedOnItsPage) {
  const std::vector<std::string> second = {"Echidnas lay leathery eggs",
                                           "Platypuses hunt by electricity"};
  PixPtr one = Decode(RenderPage(TextPdf(kLines)));
  PixPtr two = Decode(RenderPage(TextPdf(second)));
  ASSERT_TRUE(one && two);
  const std::string path = ::testing::TempDir() + "/two-pages.tif";
  ASSERT_EQ(pixWriteTiff(path.c_str(), one.get(), IFF_TIFF_ZIP, "w"), 0);
  ASSERT_EQ(pixWriteTiff(path.c_str(), two.get(), IFF_TIFF_ZIP, "a"), 0);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::remove(path.c_str());

  OcrPool pool(Eng(), nullptr, KEBAB_OCR_WORKER_PATH);
  const CanonicalDocument doc = Extract(bytes, "scans/two-pages.tif", &pool);
  ASSERT_FALSE(doc.blocks.empty());
  EXPECT_EQ(doc.blocks[0].text, "two-pages.tif, image 1275 x 1650 pixels, 2 pages");
  EXPECT_EQ(doc.metadata.user.value("pages", 0), 2);
  const Block* first = FindBlock(doc, kLines[2]);
  const Block* last = FindBlock(doc, second[1]);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(first->span.page, 1u);
  EXPECT_EQ(last->span.page, 2u);
  const Citation cited = CitationFromSpan("scans/two-pages.tif", last->span, std::nullopt);
  EXPECT_TRUE(cited.ToUri().starts_with("scans/two-pages.tif#p=2&xywh=")) << cited.ToUri();
}

}  // namespace
}  // namespace kebab::parse
