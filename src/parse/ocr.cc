#include "parse/ocr.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/hash.h"
#include "core/subprocess.h"
#include "parse/internal/ocr_psm.h"

namespace kebab::parse {
namespace {

using nlohmann::json;

constexpr char kCacheKind[] = "ocr";

// The error a worker's reply reports, as a Status; OK for any other reply.
Status WorkerError(const std::string& reply) {
  const json j = json::parse(reply, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Status(ErrorCode::kCorrupt, "the OCR worker answered nonsense");
  if (j.value("kind", "") != "error") return Status::OK();
  const std::string code = j.value("code", "damaged");
  const std::string message = j.value("message", "");
  if (code == "language") {
    return Status(ErrorCode::kConfigInvalid, message,
                  "install the language packs (Debian: apt-get install tesseract-ocr-LANG, "
                  "e.g. tesseract-ocr-kor) or change [ingest.ocr] languages");
  }
  if (code == "too_large") {
    return Status(ErrorCode::kInvalidInput, "too large to read: " + message,
                  "raise [ingest.ocr] max_pixels to read it");
  }
  return Status(code == "unsupported" ? ErrorCode::kInvalidInput : ErrorCode::kCorrupt,
                code + ": " + message);
}

}  // namespace

const char kOcrWorkerHint[] =
    "kebab looks for kebab-ocr beside itself, then in ../libexec/kebab (where cmake --install "
    "puts it): rebuild with scripts/setup.sh or reinstall (it needs Debian's libtesseract5), or "
    "point KEBAB_OCR_WORKER at it";

std::string OcrWorkerPath() {
  return HelperPath("KEBAB_OCR_WORKER", "kebab-ocr");
}

std::string OcrSettings::Languages() const {
  std::string out;
  for (const std::string& l : languages) out += (out.empty() ? "" : "+") + l;
  return out.empty() ? "eng" : out;
}

std::string OcrSettings::CacheVersion(std::string_view engine) const {
  const std::string psm =
      page_segmentation_mode ? std::to_string(*page_segmentation_mode) : internal::kAutoPsmVersion;
  return std::string(engine) + "|" + Languages() + "|psm" + psm + "|mp" +
         std::to_string(max_pixels);
}

std::string OcrPage::ToJson() const {
  json lines_json = json::array();
  for (const OcrLine& l : lines) {
    lines_json.push_back({{"text", l.text},
                          {"x", l.x},
                          {"y", l.y},
                          {"w", l.w},
                          {"h", l.h},
                          {"conf", l.confidence},
                          {"para", l.paragraph}});
  }
  return json({{"width", width},
               {"height", height},
               {"frames", frames},
               {"scale", scale},
               {"mean_conf", mean_confidence},
               {"psm", psm},
               {"ms", ms},
               {"lines", std::move(lines_json)}})
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<OcrPage> OcrPage::FromJson(std::string_view text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("lines") || !j["lines"].is_array()) {
    return Status(ErrorCode::kCorrupt, "not an OCR result");
  }
  OcrPage page;
  page.width = j.value("width", 0u);
  page.height = j.value("height", 0u);
  page.frames = j.value("frames", 1);
  page.scale = j.value("scale", 1.0);
  page.mean_confidence = j.value("mean_conf", 0.0);
  page.psm = j.value("psm", -1);
  page.ms = j.value("ms", int64_t{0});
  for (const json& l : j["lines"]) {
    if (!l.is_object()) continue;
    page.lines.push_back({l.value("text", std::string()), l.value("x", 0u), l.value("y", 0u),
                          l.value("w", 0u), l.value("h", 0u), l.value("conf", 0.0),
                          l.value("para", 0)});
  }
  return page;
}

// One kebab-ocr process, started on its first job and replaced when it dies.
class OcrPool::Worker {
 public:
  explicit Worker(std::string path) : path_(std::move(path)) {}

  Result<std::string> Exchange(const std::string& request, std::chrono::milliseconds timeout) {
    if (child_ == nullptr || !child_->alive()) {
      auto started = ChildProcess::Start({path_});
      if (!started.ok()) {
        return Status(ErrorCode::kIoError,
                      "cannot run the OCR worker: " + started.status().message(), kOcrWorkerHint);
      }
      child_ = std::move(started).value();
    }
    return child_->Exchange(request, timeout);
  }

 private:
  const std::string path_;
  std::unique_ptr<ChildProcess> child_;
};

OcrPool::OcrPool(OcrSettings settings, DerivationCache* cache, std::string worker_path)
    : settings_(std::move(settings)),
      cache_(cache),
      worker_path_(worker_path.empty() ? OcrWorkerPath() : std::move(worker_path)),
      workers_(settings_.workers > 0
                   ? settings_.workers
                   : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))) {}

OcrPool::~OcrPool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void OcrPool::Enqueue(Task task) {
  {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(task));
    if (threads_.empty()) {
      for (int i = 0; i < workers_; ++i) threads_.emplace_back([this, i] { Run(i); });
    }
  }
  wake_.notify_one();
}

std::future<Result<OcrPage>> OcrPool::Submit(OcrJob job) {
  auto done = std::make_shared<std::promise<Result<OcrPage>>>();
  std::future<Result<OcrPage>> future = done->get_future();
  Enqueue([this, job = std::move(job), done](Worker& worker) {
    if (job.on_start) job.on_start();
    Result<OcrPage> page = Read(worker, job);
    if (job.on_done) job.on_done(page);
    done->set_value(std::move(page));
  });
  return future;
}

std::future<Result<Thumbnail>> OcrPool::SubmitThumbnail(std::string bytes, int orientation,
                                                        int long_edge) {
  auto done = std::make_shared<std::promise<Result<Thumbnail>>>();
  std::future<Result<Thumbnail>> future = done->get_future();
  Enqueue([this, bytes = std::move(bytes), orientation, long_edge, done](Worker& worker) {
    done->set_value(MakeThumbnail(worker, bytes, orientation, long_edge));
  });
  return future;
}

void OcrPool::Run(int /*index*/) {
  Worker worker(worker_path_);
  while (true) {
    Task task;
    {
      std::unique_lock lock(mu_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      // Queued jobs still run when stopping: their callers wait on them.
      if (queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task(worker);
  }
}

std::string OcrPool::Signature() const {
  const std::string& engine = EngineVersion();
  return settings_.CacheVersion(engine.empty() ? "unavailable" : engine);
}

const std::string& OcrPool::EngineVersion() const {
  std::call_once(version_once_, [this] {
    (void)RunSubprocess({worker_path_, "--version"}, "", std::chrono::seconds(10),
                        [&](std::string_view line) {
                          const json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
                          if (j.is_object() && j.value("kind", "") == "version") {
                            engine_version_ = "tesseract " + j.value("tesseract", std::string()) +
                                              " " + j.value("leptonica", std::string());
                          }
                          return true;
                        });
  });
  return engine_version_;
}

Result<OcrPage> OcrPool::Read(Worker& worker, const OcrJob& job) {
  KEBAB_ASSIGN_OR_RETURN(const std::string bytes, job.load());
  const std::string& engine = EngineVersion();
  if (engine.empty()) {
    return Status(ErrorCode::kIoError, "cannot run the OCR worker " + worker_path_, kOcrWorkerHint);
  }
  const std::string key =
      Blake3Hex(std::string(kCacheKind) + '\0' + Blake3Hex(bytes) + '\0' +
                settings_.CacheVersion(engine) + "|f" + std::to_string(job.frame) + "|o" +
                std::to_string(job.orientation) + "|d" + std::to_string(job.dpi))
          .substr(0, 32);
  if (cache_ != nullptr) {
    if (std::optional<std::string> hit = cache_->Get(key)) {
      Result<OcrPage> page = OcrPage::FromJson(*hit);
      if (page.ok()) {  // a damaged entry is read again
        page->cached = true;
        // Kept by a kebab that did not record the mode: with a fixed mode (the key says
        // which) it was that one.
        if (page->psm < 0 && settings_.page_segmentation_mode) {
          page->psm = *settings_.page_segmentation_mode;
        }
        return page;
      }
    }
  }
  const json request = {
      {"bytes", bytes.size()},
      {"frame", job.frame},
      {"langs", settings_.Languages()},
      {"psm",
       settings_.page_segmentation_mode ? json(*settings_.page_segmentation_mode) : json("auto")},
      {"dpi", job.dpi},
      {"orientation", job.orientation},
      {"max_pixels", settings_.max_pixels}};
  KEBAB_ASSIGN_OR_RETURN(const std::string reply,
                         worker.Exchange(request.dump() + "\n" + bytes,
                                         std::chrono::seconds(settings_.max_seconds_per_page)));
  KEBAB_RETURN_IF_ERROR(WorkerError(reply));
  KEBAB_ASSIGN_OR_RETURN(OcrPage page, OcrPage::FromJson(reply));
  if (cache_ != nullptr) cache_->Put(key, kCacheKind, page.ToJson());
  return page;
}

Result<Thumbnail> OcrPool::MakeThumbnail(Worker& worker, const std::string& bytes, int orientation,
                                         int long_edge) {
  const json request = {{"op", "thumbnail"},
                        {"bytes", bytes.size()},
                        {"orientation", orientation},
                        {"long_edge", long_edge},
                        {"max_pixels", settings_.max_pixels}};
  KEBAB_ASSIGN_OR_RETURN(const std::string reply,
                         worker.Exchange(request.dump() + "\n" + bytes,
                                         std::chrono::seconds(settings_.max_seconds_per_page)));
  KEBAB_RETURN_IF_ERROR(WorkerError(reply));
  const json j = json::parse(reply, nullptr, /*allow_exceptions=*/false);
  if (j.value("kind", "") != "thumbnail" || !j.contains("jpeg_base64")) {
    return Status(ErrorCode::kCorrupt, "the OCR worker answered no thumbnail");
  }
  return Thumbnail{j["jpeg_base64"].get<std::string>(), j.value("width", 0u),
                   j.value("height", 0u)};
}

Result<std::string> OcrPool::Check() const {
  json version;
  Result<SubprocessResult> run = RunSubprocess(
      {worker_path_, "--version"}, "", std::chrono::seconds(10), [&](std::string_view line) {
        json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (j.is_object() && j.value("kind", "") == "version") version = std::move(j);
        return true;
      });
  if (!run.ok()) {
    return Status(ErrorCode::kIoError, "cannot run the OCR worker: " + run.status().message(),
                  kOcrWorkerHint);
  }
  if (run->exit_code != 0 || version.is_null()) {
    return Status(ErrorCode::kIoError,
                  worker_path_ + " is not a working kebab-ocr (" +
                      (run->timed_out ? std::string("no answer in 10 s")
                                      : "exit " + std::to_string(run->exit_code)) +
                      (run->stderr_tail.empty() ? "" : ": " + run->stderr_tail) + ")",
                  kOcrWorkerHint);
  }
  std::vector<std::string> installed = version.value("languages", std::vector<std::string>());
  std::string missing, have;
  for (const std::string& lang : settings_.languages) {
    if (std::find(installed.begin(), installed.end(), lang) == installed.end()) {
      missing += (missing.empty() ? "" : ", ") + lang;
    }
  }
  for (const std::string& lang : installed) have += (have.empty() ? "" : ", ") + lang;
  if (!missing.empty()) {
    return Status(ErrorCode::kConfigInvalid,
                  "Tesseract has no data for " + missing + " in " +
                      version.value("tessdata", std::string("its data directory")) +
                      " (installed: " + (have.empty() ? "none" : have) + ")",
                  "apt-get install tesseract-ocr-" + missing.substr(0, missing.find(',')) +
                      ", or remove it from [ingest.ocr] languages");
  }
  std::string found = "kebab-ocr at " + worker_path_ + " (tesseract " +
                      version.value("tesseract", "") + ", languages " + settings_.Languages() + ")";
  // "auto" guesses a page's script with Tesseract's osd data before reading it; without them
  // it reads a page of Hangul in one mode to learn what it is and again in the right one.
  const bool hangul =
      std::any_of(settings_.languages.begin(), settings_.languages.end(), internal::ReadsHangul);
  if (!settings_.page_segmentation_mode && hangul &&
      std::find(installed.begin(), installed.end(), "osd") == installed.end()) {
    found +=
        "; without Tesseract's osd data page_segmentation_mode \"auto\" reads each Korean "
        "page twice (apt-get install tesseract-ocr-osd)";
  }
  return found;
}

}  // namespace kebab::parse
