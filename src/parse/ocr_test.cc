// The OCR path with the real workers: pages rendered by kebab-pdf from a PDF the test writes
// (Helvetica lines at known positions) and read by kebab-ocr (Tesseract) on an OcrPool, whose
// boxes must land on those lines; the cache, EXIF orientation and bad input; how "auto" chooses
// a page's segmentation mode, as pure functions and on a Korean image (tests/testdata/ocr).
#include "parse/ocr.h"

#include <gtest/gtest.h>
#include <leptonica/allheaders.h>
#include <stdlib.h>

#include <filesystem>

#include "core/files.h"
#include "core/unicode.h"
#include "parse/extractor.h"
#include "parse/internal/image.h"
#include "parse/internal/ocr_psm.h"
#include "parse/ocr_test_util.h"

namespace kebab::parse {
namespace {

using namespace testing_ocr;  // NOLINT: the helpers are this file's vocabulary
using internal::ChoosePsm;
using internal::HasColumns;
using internal::PageScript;
using internal::ScriptOfOsd;
using internal::ScriptOfText;
using internal::WordBox;

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

TEST(OcrPsmTest, TheScriptOfTextIsItsShareOfHangulLetters) {
  EXPECT_EQ(ScriptOfText("파일과 디렉터리를 복사."), PageScript::kHangul);
  EXPECT_EQ(ScriptOfText("Quokkas sleep in the shade"), PageScript::kOther);
  // A Korean page of LaTeX: 40% of its letters in Hangul is Korean; under 10% (a stray
  // misreading on an English page) is not; between is too little to tell.
  EXPECT_EQ(ScriptOfText("\\label{x} 개요 정리"), PageScript::kHangul);     // 4 of 10
  EXPECT_EQ(ScriptOfText("\\documentclass 가"), PageScript::kOther);        // 1 of 14
  EXPECT_EQ(ScriptOfText("\\usepackage 한글을 써"), PageScript::kUnknown);  // 4 of 14
  // Too few letters to tell, whatever they are; digits and punctuation are not letters.
  EXPECT_EQ(ScriptOfText("복사"), PageScript::kUnknown);
  EXPECT_EQ(ScriptOfText("ab 12345 67890 !?"), PageScript::kUnknown);
  EXPECT_EQ(ScriptOfText(""), PageScript::kUnknown);
  // Compatibility and conjoining jamo are Hangul too.
  EXPECT_EQ(ScriptOfText("ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊ"), PageScript::kHangul);
  EXPECT_EQ(ScriptOfText("\xe1\x84\x80\xe1\x85\xa1\xe1\x84\x82\xe1\x85\xa1\xe1\x84\x83"
                         "\xe1\x85\xa1\xe1\x84\x85\xe1\x85\xa1\xe1\x84\x86\xe1\x85\xa1"),
            PageScript::kHangul);
}

TEST(OcrPsmTest, OsdNamesKoreanOrHangulForAKoreanPage) {
  EXPECT_EQ(ScriptOfOsd("Korean"), PageScript::kHangul);
  EXPECT_EQ(ScriptOfOsd("Hangul"), PageScript::kHangul);
  EXPECT_EQ(ScriptOfOsd("Latin"), PageScript::kOther);
  EXPECT_EQ(ScriptOfOsd("Japanese"), PageScript::kOther);
  EXPECT_EQ(ScriptOfOsd(""), PageScript::kUnknown);
}

// `n` lines 40 px apart from y = `top`, each of words 60 px wide and 15 px apart from x0 to
// about x1.
std::vector<std::vector<WordBox>> Lines(int n, int x0, int x1, int top = 100) {
  std::vector<std::vector<WordBox>> lines(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    for (int x = x0; x + 60 <= x1; x += 75)
      lines[i].push_back({x, top + 40 * i, x + 60, top + 40 * i + 30});
  }
  return lines;
}

// `a` and `b`, line by line: each line of `b` beside the same line of `a`.
std::vector<std::vector<WordBox>> Beside(std::vector<std::vector<WordBox>> a,
                                         const std::vector<std::vector<WordBox>>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    a[i].insert(a[i].begin(), b[i].rbegin(), b[i].rend());  // in any order
  }
  return a;
}

TEST(OcrPsmTest, ColumnsAreTextOnBothSidesOfAGutterFewLinesCross) {
  EXPECT_FALSE(HasColumns(Lines(30, 100, 2300)));
  // The gaps between words do not make columns, even where they line up on every line.
  EXPECT_FALSE(HasColumns(Beside(Lines(30, 100, 1150), Lines(30, 1160, 2300))));
  // Left-aligned lines of every length: one column, however short most are.
  std::vector<std::vector<WordBox>> ragged;
  for (int i = 0; i < 30; ++i)
    ragged.push_back(Lines(1, 100, 400 + (i % 7) * 300, 100 + 40 * i)[0]);
  EXPECT_FALSE(HasColumns(ragged));
  // Two columns, read as lines of each (psm 3) or as lines across both (psm 6).
  std::vector<std::vector<WordBox>> two = Lines(30, 100, 1150);
  for (const auto& line : Lines(30, 1250, 2300)) two.push_back(line);
  EXPECT_TRUE(HasColumns(two));
  EXPECT_TRUE(HasColumns(Beside(Lines(30, 100, 1150), Lines(30, 1250, 2300))));
  // A title across both columns does not join them.
  two.push_back(Lines(1, 100, 2300, 20)[0]);
  EXPECT_TRUE(HasColumns(two));
  // A short note beside a single column is not a second column.
  std::vector<std::vector<WordBox>> note = Lines(30, 100, 1800);
  for (const auto& line : Lines(3, 1900, 2300)) note.push_back(line);
  EXPECT_FALSE(HasColumns(note));
  EXPECT_FALSE(HasColumns(Lines(1, 100, 900)));
  EXPECT_FALSE(HasColumns({}));
}

TEST(OcrPsmTest, OneColumnOfHangulIsReadAsOneBlockAndEverythingElseByLayout) {
  EXPECT_EQ(ChoosePsm(PageScript::kHangul, /*columns=*/false), 6);
  EXPECT_EQ(ChoosePsm(PageScript::kHangul, /*columns=*/true), 3);
  EXPECT_EQ(ChoosePsm(PageScript::kOther, false), 3);
  EXPECT_EQ(ChoosePsm(PageScript::kUnknown, false), 3);
}

// Levenshtein distance over code points, both texts with their whitespace collapsed, divided by
// the truth's length: the character error rate of ../shared/data/ocr/cer.py.
double CharacterErrorRate(std::string_view truth, std::string_view read) {
  auto code_points = [](std::string_view s) {
    const std::string collapsed = CollapseWhitespace(s);
    std::u32string out;
    for (size_t i = 0; i < collapsed.size();) {
      const auto c = static_cast<unsigned char>(collapsed[i]);
      const int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      char32_t cp = len == 1 ? c : c & (0x7F >> len);
      for (int k = 1; k < len && i + k < collapsed.size(); ++k) {
        cp = (cp << 6) | (static_cast<unsigned char>(collapsed[i + k]) & 0x3F);
      }
      out += cp;
      i += static_cast<size_t>(len);
    }
    return out;
  };
  const std::u32string t = code_points(truth), r = code_points(read);
  std::vector<size_t> row(r.size() + 1);
  for (size_t j = 0; j <= r.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= t.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= r.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (t[i - 1] == r[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return static_cast<double>(row[r.size()]) / static_cast<double>(std::max<size_t>(1, t.size()));
}

std::string TextOf(const OcrPage& page) {
  std::string text;
  for (const OcrLine& line : page.lines) text += line.text + "\n";
  return text;
}

std::string Testdata(const std::string& name) {
  Result<std::string> bytes =
      ReadFileUpTo(std::string(KEBAB_TESTDATA_DIR) + "/ocr/" + name, 1 << 20);
  EXPECT_TRUE(bytes.ok()) << name << ": " << bytes.status().ToString();
  return bytes.ok() ? *bytes : "";
}

// The image twice, side by side with a gutter: a page of two columns.
std::string SideBySide(const std::string& png) {
  PIX* one = pixReadMem(reinterpret_cast<const l_uint8*>(png.data()), png.size());
  if (one == nullptr) return "";
  const int w = pixGetWidth(one), h = pixGetHeight(one);
  PIX* two = pixCreate(2 * w, h, pixGetDepth(one));
  pixSetBlackOrWhite(two, L_SET_WHITE);
  pixRasterop(two, 0, 0, w, h, PIX_SRC, one, 0, 0);
  pixRasterop(two, w, 0, w, h, PIX_SRC, one, 0, 0);
  l_uint8* data = nullptr;
  size_t size = 0;
  std::string out;
  if (pixWriteMem(&data, &size, two, IFF_PNG) == 0) out.assign(reinterpret_cast<char*>(data), size);
  lept_free(data);
  pixDestroy(&two);
  pixDestroy(&one);
  return out;
}

OcrSettings KorEng(std::optional<int> psm) {
  OcrSettings s;
  s.languages = {"kor", "eng"};
  s.page_segmentation_mode = psm;
  s.workers = 2;
  return s;
}

TEST(OcrPoolTest, AutoReadsAKoreanImageAsOneBlockAndBetterThanByLayout) {
  const std::string image = Testdata("ko-tldr-cp.png");
  const std::string truth = Testdata("ko-tldr-cp.txt");
  ASSERT_FALSE(image.empty());
  OcrJob job;
  job.load = [image]() -> Result<std::string> { return image; };
  OcrPool automatic(KorEng(std::nullopt), nullptr, KEBAB_OCR_WORKER_PATH);
  OcrPool layout(KorEng(3), nullptr, KEBAB_OCR_WORKER_PATH);
  Result<OcrPage> chosen = automatic.Submit(job).get();
  Result<OcrPage> by_layout = layout.Submit(job).get();
  ASSERT_TRUE(chosen.ok()) << chosen.status().ToString();
  ASSERT_TRUE(by_layout.ok()) << by_layout.status().ToString();
  EXPECT_EQ(chosen->psm, 6);
  EXPECT_EQ(by_layout->psm, 3);
  // psm 3 loses parts of lines (CER 0.26 with Tesseract 5.3 and Debian's kor 4.1.0).
  const double auto_cer = CharacterErrorRate(truth, TextOf(*chosen));
  const double layout_cer = CharacterErrorRate(truth, TextOf(*by_layout));
  EXPECT_LT(auto_cer, 0.1) << TextOf(*chosen);
  EXPECT_LT(auto_cer, layout_cer - 0.1) << TextOf(*by_layout);

  // Two columns of it are read by layout, or the columns would be read across.
  const std::string two = SideBySide(image);
  ASSERT_FALSE(two.empty());
  OcrJob columns;
  columns.load = [two]() -> Result<std::string> { return two; };
  Result<OcrPage> two_read = automatic.Submit(columns).get();
  ASSERT_TRUE(two_read.ok()) << two_read.status().ToString();
  EXPECT_EQ(two_read->psm, 3);
  // An English page is read by layout too, as it was.
  Result<OcrPage> english = automatic.Submit(Job(RenderPage(TextPdf(kLines)))).get();
  ASSERT_TRUE(english.ok()) << english.status().ToString();
  EXPECT_EQ(english->psm, 3);
  ASSERT_EQ(english->lines.size(), kLines.size());
  EXPECT_EQ(english->lines[2].text, kLines[2]);
}

TEST(OcrPoolTest, WithoutOsdDataAutoGoesByTheTextOfAFirstReading) {
  // Tesseract's data as installed, less osd.traineddata (Debian's tesseract-ocr-osd).
  std::string installed;
  const char* prefix = std::getenv("TESSDATA_PREFIX");
  for (const std::string& dir : {std::string(prefix != nullptr ? prefix : ""),
                                 std::string("/usr/share/tesseract-ocr/5/tessdata"),
                                 std::string("/usr/share/tesseract-ocr/4.00/tessdata")}) {
    if (!dir.empty() && std::filesystem::exists(dir + "/kor.traineddata")) {
      installed = dir;
      break;
    }
  }
  if (installed.empty()) GTEST_SKIP() << "no kor.traineddata";
  std::string dir = ::testing::TempDir() + "/tessdata-XXXXXX";
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  for (const char* lang : {"kor", "eng"}) {
    std::filesystem::create_symlink(installed + "/" + lang + ".traineddata",
                                    dir + "/" + lang + ".traineddata");
  }
  ::setenv("TESSDATA_PREFIX", dir.c_str(), 1);  // the workers started below inherit it
  const std::string image = Testdata("ko-tldr-cp.png");
  OcrPool pool(KorEng(std::nullopt), nullptr, KEBAB_OCR_WORKER_PATH);
  Result<OcrPage> read =
      pool.Submit({.load = [image]() -> Result<std::string> { return image; }}).get();
  Result<std::string> checked = pool.Check();  // doctor's: what it costs and what fixes it
  if (prefix != nullptr) {
    ::setenv("TESSDATA_PREFIX", prefix, 1);
  } else {
    ::unsetenv("TESSDATA_PREFIX");
  }
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->psm, 6);
  EXPECT_LT(CharacterErrorRate(Testdata("ko-tldr-cp.txt"), TextOf(*read)), 0.1);
  ASSERT_TRUE(checked.ok()) << checked.status().ToString();
  EXPECT_NE(checked->find("reads each Korean page twice (apt-get install tesseract-ocr-osd)"),
            std::string::npos)
      << *checked;
  if (std::filesystem::exists(installed + "/osd.traineddata")) {
    Result<std::string> with_osd = pool.Check();
    ASSERT_TRUE(with_osd.ok()) << with_osd.status().ToString();
    EXPECT_EQ(with_osd->find("osd"), std::string::npos) << *with_osd;
  }
}

TEST(OcrPoolTest, TheModeIsKeptWithTheImageAndAutoHasACacheKeyOfItsOwn) {
  const std::string image = Testdata("ko-tldr-cp.png");
  MapCache cache;
  OcrPool pool(KorEng(std::nullopt), &cache, KEBAB_OCR_WORKER_PATH);
  ExtractInput in{image, "scans/cp.png", "asset-cp", "2026-12-03T00:00:00Z"};
  in.ocr = &pool;
  for (int pass = 0; pass < 2; ++pass) {  // read, then from the cache
    Result<CanonicalDocument> doc = ExtractorFor(MediaKind::kImage)->Extract(in);
    ASSERT_TRUE(doc.ok()) << doc.status().ToString();
    EXPECT_EQ(doc->metadata.user["ocr_psm"], nlohmann::json::array({6})) << pass;
  }
  EXPECT_EQ(cache.size(), 1u);
  const std::string automatic = KorEng(std::nullopt).CacheVersion("t");
  EXPECT_NE(automatic.find(std::string("|psm") + internal::kAutoPsmVersion + "|"),
            std::string::npos)
      << automatic;
  EXPECT_NE(automatic, KorEng(3).CacheVersion("t"));
  EXPECT_NE(KorEng(3).CacheVersion("t"), KorEng(6).CacheVersion("t"));
}

}  // namespace
}  // namespace kebab::parse
