// kebab-ocr: the OCR worker behind parse's OcrPool (parse/ocr.h). One process holds one
// Tesseract engine and serves requests one at a time, so a pool of them reads pages on every
// core; the engine is built once per language set and kept, because loading eng+kor costs more
// than reading a small image.
//
// Protocol (stdin → stdout, one request at a time):
//   request:  one JSON line {"bytes":N,"frame":F,"langs":"eng+kor","psm":P,"dpi":D,
//             "orientation":O,"max_pixels":M}, then exactly N bytes of image (png, jpeg, tiff,
//             webp, gif, bmp, pnm; F picks a page of a multi-page tiff; O is the EXIF
//             orientation 1..8 to undo before recognition; P is Tesseract's page segmentation
//             mode 0..13, or "auto" to choose it for the page, see internal/ocr_psm.h)
//   reply:    one JSON line
//             {"kind":"result","width":W,"height":H,"frames":N,"scale":S,"ms":T,"psm":P,
//              "mean_conf":C,"lines":[{"text":S,"x":X,"y":Y,"w":W,"h":H,"conf":C,"para":K}]}
//             with boxes in pixels of the image as stored (before orientation and any
//             downscaling) and P the mode the page was read in, or {"kind":"error",
//             "code":"unsupported"|"damaged"|"too_large"|"language","message":S}. The worker
//             stays up after an error.
//   thumbnail: {"op":"thumbnail","bytes":N,"orientation":O,"long_edge":E,"max_pixels":M} and
//             N bytes: the first frame, upright, its longer side at most E pixels, answered
//             {"kind":"thumbnail","width":W,"height":H,"jpeg_base64":S} (what a vision model
//             is sent for a caption; no Tesseract engine is loaded for it)
//   `kebab-ocr --version` writes {"kind":"version","tesseract":S,"leptonica":S,
//             "tessdata":DIR,"languages":[...]} (doctor).
//
// Why a process of its own: Tesseract, Leptonica and the image codecs they load would cost
// `kebab search` their start-up, and a hostile image that crashes a codec then costs one
// worker, which the pool replaces, never the ingest.
//
// Tesseract's OpenMP threads are held to one (OMP_THREAD_LIMIT=1, set by re-executing this
// program before libgomp reads it): the pool already runs one page per core, and OpenMP's
// spinning threads on a busy 2-core machine made each page slower, not faster.
#include <leptonica/allheaders.h>
#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

// By its path from this file: kebab-ocr is built without kebab's include path, as it links
// nothing of kebab's.
#include "internal/ocr_psm.h"

namespace {

using kebab::parse::internal::ChoosePsm;
using kebab::parse::internal::HasColumns;
using kebab::parse::internal::kPsmAuto;
using kebab::parse::internal::PageScript;
using kebab::parse::internal::ReadsHangul;
using kebab::parse::internal::ScriptOfOsd;
using kebab::parse::internal::ScriptOfText;
using kebab::parse::internal::WordBox;

using nlohmann::json;

void Emit(const json& j) {
  std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
  std::cout.flush();
}

json Error(const char* code, const std::string& message) {
  return {{"kind", "error"}, {"code", code}, {"message", message}};
}

struct PixDeleter {
  void operator()(PIX* p) const { pixDestroy(&p); }
};
using PixPtr = std::unique_ptr<PIX, PixDeleter>;

std::string TessdataDir() {
  if (const char* env = std::getenv("TESSDATA_PREFIX"); env != nullptr && *env != '\0') {
    return env;
  }
  for (const char* dir : {"/usr/share/tesseract-ocr/5/tessdata",
                          "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata"}) {
    if (std::filesystem::is_directory(dir)) return dir;
  }
  return "";
}

std::vector<std::string> InstalledLanguages(const std::string& dir) {
  std::vector<std::string> langs;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    constexpr std::string_view kExt = ".traineddata";
    if (name.size() > kExt.size() && name.ends_with(kExt)) {
      langs.push_back(name.substr(0, name.size() - kExt.size()));
    }
  }
  std::sort(langs.begin(), langs.end());
  return langs;
}

// The number of pages of a tiff held in memory.
int TiffFrames(const uint8_t* data, size_t size) {
  FILE* f = fmemopen(const_cast<uint8_t*>(data), size, "rb");
  if (f == nullptr) return 1;
  l_int32 n = 1;
  if (tiffGetCount(f, &n) != 0) n = 1;
  fclose(f);
  return std::max(1, n);
}

// Undoes EXIF orientation `o` (1..8): the image as it should be seen.
PixPtr Orient(PixPtr pix, int o) {
  PIX* p = pix.get();
  switch (o) {
    case 2:
      return PixPtr(pixFlipLR(nullptr, p));
    case 3:
      return PixPtr(pixRotateOrth(p, 2));
    case 4:
      return PixPtr(pixFlipTB(nullptr, p));
    case 5: {
      PixPtr r(pixRotateOrth(p, 1));
      return PixPtr(pixFlipLR(nullptr, r.get()));
    }
    case 6:
      return PixPtr(pixRotateOrth(p, 1));
    case 7: {
      PixPtr r(pixRotateOrth(p, 1));
      return PixPtr(pixFlipTB(nullptr, r.get()));
    }
    case 8:
      return PixPtr(pixRotateOrth(p, 3));
    default:
      return pix;
  }
}

struct Box {
  double x0, y0, x1, y1;
};

// A box in the oriented image back to the stored one (w, h: the stored size).
Box Unorient(Box b, int o, double w, double h) {
  auto map = [&](double ox, double oy, double* sx, double* sy) {
    switch (o) {
      case 2:
        *sx = w - ox, *sy = oy;
        break;
      case 3:
        *sx = w - ox, *sy = h - oy;
        break;
      case 4:
        *sx = ox, *sy = h - oy;
        break;
      case 5:
        *sx = oy, *sy = ox;
        break;
      case 6:
        *sx = oy, *sy = h - ox;
        break;
      case 7:
        *sx = w - oy, *sy = h - ox;
        break;
      case 8:
        *sx = w - oy, *sy = ox;
        break;
      default:
        *sx = ox, *sy = oy;
    }
  };
  double ax, ay, bx, by;
  map(b.x0, b.y0, &ax, &ay);
  map(b.x1, b.y1, &bx, &by);
  return {std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by)};
}

class Engine {
 public:
  ~Engine() { api_.End(); }

  // Builds (or keeps) the engine for `langs`; false with `why` when a language is missing.
  bool Use(const std::string& langs, std::string* why) {
    if (ready_ && langs == langs_) return true;
    if (ready_) api_.End();
    ready_ = false;
    const std::string dir = TessdataDir();
    // Tesseract starts with the languages it could load and only warns about the others: a
    // missing pack must be an error that names it.
    const std::vector<std::string> installed = InstalledLanguages(dir);
    std::string missing;
    bool hangul = false;
    size_t pos = 0;
    while (pos <= langs.size()) {
      const size_t plus = std::min(langs.find('+', pos), langs.size());
      const std::string lang = langs.substr(pos, plus - pos);
      if (std::find(installed.begin(), installed.end(), lang) == installed.end()) {
        missing += (missing.empty() ? "" : ", ") + lang;
      }
      hangul = hangul || ReadsHangul(lang);
      pos = plus + 1;
    }
    if (!missing.empty()) {
      *why = "Tesseract has no data for " + missing + " in " +
             (dir.empty() ? std::string("its data directory") : dir) +
             " (installed: " + Installed(dir) + ")";
      return false;
    }
    if (api_.Init(dir.empty() ? nullptr : dir.c_str(), langs.c_str(), tesseract::OEM_LSTM_ONLY) !=
        0) {
      *why = "Tesseract cannot load the languages '" + langs + "' from " +
             (dir.empty() ? std::string("its data directory") : dir) +
             " (installed: " + Installed(dir) + ")";
      return false;
    }
    langs_ = langs;
    ready_ = true;
    hangul_ = hangul;
    return true;
  }

  // Reads `pix` in page segmentation mode `psm`, or, without one, in the mode ChoosePsm picks
  // for the page: {"lines":[...],"mean_conf":C,"psm":P}.
  json Read(PIX* pix, std::optional<int> psm, int dpi) {
    if (!psm && !hangul_) psm = kPsmAuto;  // only a page of Hangul is read otherwise
    if (psm) {
      Start(pix, *psm, dpi);
      return Finish(*psm, nullptr);
    }
    // Tesseract's guess at the script picks the mode to read in; what is read decides when it
    // says otherwise (or there was no guess), and so do columns in it.
    const PageScript guess = DetectScript(pix, dpi);
    const int mode = ChoosePsm(guess, /*columns=*/false);
    std::vector<std::vector<WordBox>> words;
    Start(pix, mode, dpi);
    json read = Finish(mode, &words);
    std::string text;
    for (const json& line : read["lines"]) text += line["text"].get<std::string>() + "\n";
    const PageScript script = ScriptOfText(text);
    const int wanted =
        ChoosePsm(script == PageScript::kUnknown ? guess : script, HasColumns(words));
    if (wanted != mode) {
      Start(pix, wanted, dpi);
      read = Finish(wanted, nullptr);
    }
    return read;
  }

 private:
  void Start(PIX* pix, int psm, int dpi) {
    api_.SetPageSegMode(static_cast<tesseract::PageSegMode>(psm));
    api_.SetImage(pix);
    if (dpi > 0) api_.SetSourceResolution(dpi);
  }

  // Tesseract's guess at the page's script by orientation-and-script detection, from its osd
  // data (Debian: tesseract-ocr-osd); kUnknown without them.
  PageScript DetectScript(PIX* pix, int dpi) {
    if (!osd_tried_) {
      osd_tried_ = true;
      const std::string dir = TessdataDir();
      const std::vector<std::string> installed = InstalledLanguages(dir);
      if (std::find(installed.begin(), installed.end(), "osd") != installed.end()) {
        osd_ = std::make_unique<tesseract::TessBaseAPI>();
        if (osd_->Init(dir.c_str(), "osd", tesseract::OEM_TESSERACT_ONLY) != 0) {
          osd_.reset();
        } else {
          osd_->SetPageSegMode(tesseract::PSM_OSD_ONLY);
        }
      }
    }
    if (osd_ == nullptr) return PageScript::kUnknown;
    osd_->SetImage(pix);
    if (dpi > 0) osd_->SetSourceResolution(dpi);
    int degrees = 0;
    float orientation_confidence = 0, script_confidence = 0;
    const char* script = nullptr;
    const bool found = osd_->DetectOrientationScript(&degrees, &orientation_confidence, &script,
                                                     &script_confidence);
    osd_->Clear();
    return found && script != nullptr ? ScriptOfOsd(script) : PageScript::kUnknown;
  }

  // Recognizes the started page: its lines, their mean confidence and `psm`, the mode it was
  // read in; with `words`, also the boxes of each line's words.
  json Finish(int psm, std::vector<std::vector<WordBox>>* words) {
    json lines = json::array();
    double conf_sum = 0, conf_weight = 0;
    if (api_.Recognize(nullptr) == 0) {
      std::unique_ptr<tesseract::ResultIterator> it(api_.GetIterator());
      int para = -1;
      if (it != nullptr && !it->Empty(tesseract::RIL_TEXTLINE)) {
        do {
          if (it->IsAtBeginningOf(tesseract::RIL_PARA)) ++para;
          std::unique_ptr<char[]> text(it->GetUTF8Text(tesseract::RIL_TEXTLINE));
          if (text == nullptr) continue;
          std::string s(text.get());
          while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
          if (s.find_first_not_of(' ') == std::string::npos) continue;
          int x0, y0, x1, y1;
          if (!it->BoundingBox(tesseract::RIL_TEXTLINE, &x0, &y0, &x1, &y1)) continue;
          const float conf = it->Confidence(tesseract::RIL_TEXTLINE);
          conf_sum += conf * static_cast<double>(s.size());
          conf_weight += static_cast<double>(s.size());
          lines.push_back({{"text", std::move(s)},
                           {"x", x0},
                           {"y", y0},
                           {"w", x1 - x0},
                           {"h", y1 - y0},
                           {"conf", std::round(static_cast<double>(conf) * 10) / 10},
                           {"para", std::max(para, 0)}});
        } while (it->Next(tesseract::RIL_TEXTLINE));
        if (words != nullptr) {
          it->Begin();
          do {
            if (words->empty() || it->IsAtBeginningOf(tesseract::RIL_TEXTLINE)) {
              words->emplace_back();
            }
            WordBox b;
            if (it->BoundingBox(tesseract::RIL_WORD, &b.x0, &b.y0, &b.x1, &b.y1)) {
              words->back().push_back(b);
            }
          } while (it->Next(tesseract::RIL_WORD));
        }
      }
    }
    api_.Clear();
    return {{"lines", std::move(lines)},
            {"mean_conf", conf_weight > 0 ? std::round(conf_sum / conf_weight * 10) / 10 : 0.0},
            {"psm", psm}};
  }

  static std::string Installed(const std::string& dir) {
    std::string out;
    for (const std::string& l : InstalledLanguages(dir)) out += (out.empty() ? "" : ", ") + l;
    return out.empty() ? "none" : out;
  }

  tesseract::TessBaseAPI api_;
  std::string langs_;
  bool ready_ = false;
  bool hangul_ = false;                          // langs_ read Hangul: "auto" may choose psm 6
  std::unique_ptr<tesseract::TessBaseAPI> osd_;  // loaded for the first page that asks
  bool osd_tried_ = false;
};

// An image decoded for one request: upright, at most max_pixels (and, for a thumbnail, no
// larger than it needs), with what it takes to map boxes back to the stored image.
struct Decoded {
  PixPtr pix;
  int width = 0, height = 0;  // the image as stored
  int frames = 1;
  double scale = 1;  // decoded size / stored size
};

// Decodes `bytes` for a request, or says why not (the error reply). `long_edge` > 0 lets a
// JPEG decode at a reduced size still at least that long.
json Decode(const std::string& bytes, int frame, int orientation, double max_pixels, int long_edge,
            Decoded* out) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  if (bytes.empty()) return Error("damaged", "the file is empty");
  l_int32 format = 0, w = 0, h = 0, bps = 0, spp = 0, cmap = 0;
  if (findFileFormatBuffer(data, &format) != 0 || format == IFF_UNKNOWN) {
    return Error("unsupported", "not an image format Leptonica reads");
  }
  if (pixReadHeaderMem(data, bytes.size(), &format, &w, &h, &bps, &spp, &cmap) != 0 || w <= 0 ||
      h <= 0) {
    return Error("damaged", "the image header cannot be read");
  }
  const double pixels = static_cast<double>(w) * h;
  const bool jpeg = format == IFF_JFIF_JPEG;
  // A JPEG decodes at 1/2, 1/4 or 1/8 size for the asking; anything else is decoded whole, so
  // past a bound it is refused rather than allowed to take the machine's memory.
  int reduction = 1;
  while (jpeg && reduction < 8 && pixels / (reduction * reduction) > max_pixels) reduction *= 2;
  while (jpeg && reduction < 8 && long_edge > 0 && std::max(w, h) / (2 * reduction) >= long_edge) {
    reduction *= 2;
  }
  if (!jpeg && pixels > 4 * max_pixels) {
    return Error("too_large", std::to_string(w) + "x" + std::to_string(h) +
                                  " pixels is over 4x ingest.ocr.max_pixels (" +
                                  std::to_string(static_cast<long long>(max_pixels)) + ")");
  }
  const bool tiff = (format >= IFF_TIFF && format <= IFF_TIFF_ZIP) || format == IFF_TIFF_JPEG;
  const int frames = tiff ? TiffFrames(data, bytes.size()) : 1;
  if (frame < 0 || frame >= frames) return Error("damaged", "no page " + std::to_string(frame + 1));
  PixPtr pix;
  if (jpeg) {
    l_int32 warnings = 0;
    pix.reset(pixReadMemJpeg(data, bytes.size(), 0, reduction, &warnings, 0));
  } else if (tiff) {
    pix.reset(pixReadMemTiff(data, bytes.size(), frame));
  } else {
    pix.reset(pixReadMem(data, bytes.size()));
  }
  if (pix == nullptr) return Error("damaged", "the image data cannot be decoded (truncated?)");
  double scale = 1.0 / reduction;
  const double decoded = static_cast<double>(pixGetWidth(pix.get())) * pixGetHeight(pix.get());
  if (decoded > max_pixels) {
    const double s = std::sqrt(max_pixels / decoded);
    PixPtr small(pixScale(pix.get(), static_cast<float>(s), static_cast<float>(s)));
    if (small == nullptr) return Error("too_large", "the image cannot be scaled down");
    pix = std::move(small);
    scale *= s;
  }
  pix = Orient(std::move(pix), orientation);
  if (pix == nullptr) return Error("damaged", "the image cannot be turned upright");
  *out = {std::move(pix), w, h, frames, scale};
  return nullptr;
}

json Recognize(Engine& engine, const json& req, const std::string& bytes) {
  const int orientation = req.value("orientation", 1);
  std::string why;
  if (!engine.Use(req.value("langs", std::string("eng")), &why)) return Error("language", why);
  Decoded d;
  if (json error =
          Decode(bytes, req.value("frame", 0), orientation, req.value("max_pixels", 40e6), 0, &d);
      !error.is_null()) {
    return error;
  }
  const auto started = std::chrono::steady_clock::now();
  const int dpi = req.value("dpi", 0);
  // "psm": a number forces that mode; "auto" (or none) chooses it for the page.
  const json& psm = req.contains("psm") ? req["psm"] : json();
  json out = engine.Read(
      d.pix.get(), psm.is_number_integer() ? std::optional<int>(psm.get<int>()) : std::nullopt,
      dpi > 0 ? static_cast<int>(dpi * d.scale) : 0);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - started)
                      .count();
  // Boxes go back to the stored image: first undo the turn, in the decoded size, then the
  // scaling.
  const double scale = d.scale, w = d.width, h = d.height;
  for (json& line : out["lines"]) {
    Box b{line["x"].get<double>(), line["y"].get<double>(),
          line["x"].get<double>() + line["w"].get<double>(),
          line["y"].get<double>() + line["h"].get<double>()};
    b = Unorient(b, orientation, w * scale, h * scale);
    const auto x0 = static_cast<int>(std::floor(b.x0 / scale));
    const auto y0 = static_cast<int>(std::floor(b.y0 / scale));
    line["x"] = std::clamp(x0, 0, d.width);
    line["y"] = std::clamp(y0, 0, d.height);
    line["w"] = std::clamp(static_cast<int>(std::ceil(b.x1 / scale)) - x0, 0, d.width);
    line["h"] = std::clamp(static_cast<int>(std::ceil(b.y1 / scale)) - y0, 0, d.height);
  }
  out["kind"] = "result";
  out["width"] = d.width;
  out["height"] = d.height;
  out["frames"] = d.frames;
  out["scale"] = std::round(scale * 1e4) / 1e4;
  out["ms"] = ms;
  return out;
}

std::string Base64(const uint8_t* data, size_t size) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  for (size_t i = 0; i < size; i += 3) {
    const uint32_t n = (uint32_t{data[i]} << 16) | (i + 1 < size ? uint32_t{data[i + 1]} << 8 : 0) |
                       (i + 2 < size ? uint32_t{data[i + 2]} : 0);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < size ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < size ? kAlphabet[n & 63] : '=';
  }
  return out;
}

// The first frame, upright, its longer side at most long_edge, as a base64 JPEG: what a vision
// model is sent for a caption.
json Thumbnail(const json& req, const std::string& bytes) {
  const int long_edge = std::clamp(req.value("long_edge", 768), 16, 4096);
  Decoded d;
  if (json error = Decode(bytes, 0, req.value("orientation", 1), req.value("max_pixels", 40e6),
                          long_edge, &d);
      !error.is_null()) {
    return error;
  }
  // JPEG holds grey or RGB: palettes and 1-bit scans become RGB, transparency white.
  PixPtr rgb(pixConvertTo32(d.pix.get()));
  if (rgb != nullptr && pixGetSpp(d.pix.get()) == 4) {
    rgb.reset(pixAlphaBlendUniform(rgb.get(), 0xffffff00));
  }
  if (rgb == nullptr) return Error("damaged", "the image cannot be converted to RGB");
  const int longer = std::max(pixGetWidth(rgb.get()), pixGetHeight(rgb.get()));
  if (longer > long_edge) {
    const auto s = static_cast<float>(long_edge) / static_cast<float>(longer);
    rgb.reset(pixScale(rgb.get(), s, s));
    if (rgb == nullptr) return Error("too_large", "the image cannot be scaled down");
  }
  l_uint8* jpeg = nullptr;
  size_t size = 0;
  if (pixWriteMemJpeg(&jpeg, &size, rgb.get(), 85, 0) != 0 || jpeg == nullptr) {
    return Error("damaged", "the image cannot be written as JPEG");
  }
  std::string encoded = Base64(jpeg, size);
  lept_free(jpeg);
  return {{"kind", "thumbnail"},
          {"width", pixGetWidth(rgb.get())},
          {"height", pixGetHeight(rgb.get())},
          {"jpeg_base64", std::move(encoded)}};
}

json Serve(Engine& engine, const json& req, const std::string& bytes) {
  if (req.value("op", std::string("ocr")) == "thumbnail") return Thumbnail(req, bytes);
  return Recognize(engine, req, bytes);
}

}  // namespace

int main(int argc, char** argv) {
  // libgomp reads OMP_THREAD_LIMIT once, as it loads: set it and start again.
  if (std::getenv("OMP_THREAD_LIMIT") == nullptr) {
    ::setenv("OMP_THREAD_LIMIT", "1", 1);
    ::execv("/proc/self/exe", argv);
    // Without /proc the engine still works, only with its own thread count.
  }
  std::ios::sync_with_stdio(false);
  setMsgSeverity(std::getenv("KEBAB_OCR_DEBUG") ? L_SEVERITY_INFO : L_SEVERITY_NONE);
  if (argc > 1 && std::string(argv[1]) == "--version") {
    const std::string dir = TessdataDir();
    char* leptonica = getLeptonicaVersion();
    const std::string leptonica_version = leptonica != nullptr ? leptonica : "";
    lept_free(leptonica);
    Emit({{"kind", "version"},
          {"tesseract", tesseract::TessBaseAPI::Version()},
          {"leptonica", leptonica_version},
          {"tessdata", dir},
          {"languages", InstalledLanguages(dir)}});
    return 0;
  }
  Engine engine;
  std::string line;
  while (std::getline(std::cin, line)) {
    const json req = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!req.is_object() || !req.contains("bytes") || !req["bytes"].is_number_unsigned()) {
      Emit(Error("damaged", "bad request line"));
      return 1;  // the stream is out of step: nothing after this can be trusted
    }
    std::string bytes(req["bytes"].get<size_t>(), '\0');
    if (!bytes.empty() &&
        !std::cin.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      return 1;
    }
    Emit(Serve(engine, req, bytes));
  }
  return 0;
}
