#include "models/download.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/libcurl.h"
#include "core/sha1.h"
#include "core/sha256.h"
#include "core/time.h"

namespace kebab::models {
namespace {

constexpr char kMismatchHint[] =
    "the partial download was deleted; run the command again. If it keeps failing, the file "
    "changed upstream or a proxy alters it";
constexpr char kResumeHint[] = "run the same command again to resume where it stopped";
constexpr char kOfflineHint[] =
    "check the network connection; behind a firewall or in a region that blocks the hub, set "
    "HF_ENDPOINT to a mirror (e.g. HF_ENDPOINT=https://hf-mirror.com). Offline, "
    "models.embedding.model can name any GGUF file you already have (a path)";

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int64_t ParseInt(std::string_view s, int64_t fallback = -1) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() ? v : fallback;
}

// A SHA-256 from an ETag-style header value (`"<hex>"`, possibly weak `W/"<hex>"`), or "".
std::string HashFromEtag(std::string_view value) {
  value = Trim(value);
  if (value.starts_with("W/")) value.remove_prefix(2);
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  return IsSha256Hex(value) ? Lower(value) : "";
}

// Content-Range "bytes START-END/TOTAL" or "bytes */TOTAL": START (-1 for "*") and TOTAL (-1
// when "*" or malformed).
std::pair<int64_t, int64_t> ParseContentRange(std::string_view v) {
  v = Trim(v);
  if (!v.starts_with("bytes ")) return {-1, -1};
  v.remove_prefix(6);
  const size_t slash = v.find('/');
  if (slash == std::string_view::npos) return {-1, -1};
  const std::string_view range = v.substr(0, slash);
  const int64_t total = ParseInt(v.substr(slash + 1));
  const size_t dash = range.find('-');
  const int64_t start = dash == std::string_view::npos ? -1 : ParseInt(range.substr(0, dash));
  return {start, total};
}

// The .part file, appended to and hashed; closed on destruction.
class PartFile {
 public:
  explicit PartFile(std::string path) : path_(std::move(path)) {}
  ~PartFile() { Close(); }
  PartFile(const PartFile&) = delete;
  PartFile& operator=(const PartFile&) = delete;

  Status Open() {
    // O_APPEND: a resumed download continues at the end of what is there.
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) return Errno("cannot open");
    return Status::OK();
  }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  Result<int64_t> Size() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) return Errno("cannot stat");
    return static_cast<int64_t>(st.st_size);
  }
  // Feeds the first `len` bytes of the file to `hasher` (and `sha1`, unless null): a resumed
  // download is verified whole.
  Status HashPrefix(int64_t len, Sha256* hasher, Sha1* sha1) const {
    std::string buf(1 << 20, '\0');
    for (int64_t off = 0; off < len;) {
      const size_t want = static_cast<size_t>(std::min<int64_t>(buf.size(), len - off));
      const ssize_t n = ::pread(fd_, buf.data(), want, off);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return Errno("cannot read");
      hasher->Update(buf.data(), static_cast<size_t>(n));
      if (sha1 != nullptr) sha1->Update(buf.data(), static_cast<size_t>(n));
      off += n;
    }
    return Status::OK();
  }
  Status Append(const char* data, size_t len) {
    while (len > 0) {
      const ssize_t n = ::write(fd_, data, len);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Errno("cannot write");
      data += n;
      len -= static_cast<size_t>(n);
    }
    return Status::OK();
  }
  Status Truncate() {
    if (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) != 0) return Errno("cannot truncate");
    return Status::OK();
  }
  Status Sync() {
    if (::fsync(fd_) != 0) return Errno("cannot sync");
    return Status::OK();
  }
  const std::string& path() const { return path_; }

 private:
  Status Errno(const char* what) const {
    return IoError(std::string(what) + " " + path_ + ": " + std::strerror(errno));
  }
  std::string path_;
  int fd_ = -1;
};

// What the libcurl callbacks share with Fetch.
struct Transfer {
  const DownloadRequest* request = nullptr;
  PartFile* file = nullptr;
  Sha256 hasher;
  Sha1 sha1;            // fed only when the request pins a SHA-1
  int64_t offset = 0;   // bytes in the .part before this request (0 again after a restart)
  int64_t written = 0;  // bytes this request appended
  int64_t started_ms = 0;
  // The response being read; a followed redirect chain has several.
  long status = 0;
  int64_t content_length = -1;
  std::string content_range;
  // From any response of the chain: the hub's redirect carries them, its CDN does not.
  std::string linked_sha256, etag_sha256;
  int64_t linked_size = -1;
  bool any_response = false;
  bool body_started = false;
  int64_t total = -1;
  std::string error_body;  // the start of a non-2xx answer, for the message
  Status abort;            // why a callback stopped the transfer

  std::string ServerSha256() const { return linked_sha256.empty() ? etag_sha256 : linked_sha256; }
  bool WantsSha1() const { return !request->sha1.empty(); }
  bool Cancelled() const { return request->cancel != nullptr && request->cancel->load(); }
};

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  const std::string_view line = Trim(std::string_view(data, n));
  if (line.starts_with("HTTP/")) {
    t->any_response = true;
    const size_t space = line.find(' ');
    t->status = space == std::string_view::npos
                    ? 0
                    : static_cast<long>(ParseInt(line.substr(space + 1, 3), 0));
    t->content_length = -1;
    t->content_range.clear();
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  const std::string name = Lower(Trim(line.substr(0, colon)));
  const std::string_view value = Trim(line.substr(colon + 1));
  if (name == "x-linked-etag") {
    if (std::string h = HashFromEtag(value); !h.empty()) t->linked_sha256 = h;
  } else if (name == "etag") {
    // Plain ETags are opaque, but a hub serving a large file directly uses its SHA-256.
    if (std::string h = HashFromEtag(value); !h.empty()) t->etag_sha256 = h;
  } else if (name == "x-linked-size") {
    t->linked_size = ParseInt(value);
  } else if (name == "content-length") {
    t->content_length = ParseInt(value);
  } else if (name == "content-range") {
    t->content_range = std::string(value);
  }
  return n;
}

// Decides, at the first byte of the final answer, where its bytes go.
Status StartBody(Transfer* t) {
  if (t->status == 206) {
    const auto [start, total] = ParseContentRange(t->content_range);
    if (start != t->offset) {
      return GenericError("the server resumed at byte " + std::to_string(start) + ", not at " +
                          std::to_string(t->offset) + " as asked");
    }
    t->total = total;
  } else if (t->status == 200) {
    if (t->offset > 0) {
      // The server ignored the Range header and sends the whole file: start over.
      KEBAB_RETURN_IF_ERROR(t->file->Truncate());
      t->hasher.Reset();
      t->sha1.Reset();
      t->offset = 0;
    }
    t->total = t->content_length;
  } else {
    return Status::OK();  // an error page; OnBody keeps its start for the message
  }
  if (t->total < 0) t->total = t->linked_size;
  const std::string server = t->ServerSha256();
  if (!t->request->sha256.empty() && !server.empty() && server != t->request->sha256) {
    // Known to fail verification: do not spend the bandwidth.
    return Status(
        ErrorCode::kCorrupt,
        "the server now serves a different file than the pinned one: its SHA-256 is " + server +
            ", expected " + t->request->sha256,
        "the file changed upstream; pass --sha256 " + server + " if you trust the new one");
  }
  return Status::OK();
}

void ReportProgress(const Transfer& t) {
  if (!t.request->on_progress) return;
  const double secs = std::max<int64_t>(MonotonicMillis() - t.started_ms, 1) / 1000.0;
  t.request->on_progress({.bytes_done = t.offset + t.written,
                          .bytes_total = t.total,
                          .resumed_from = t.offset,
                          .bytes_per_sec = t.written / secs});
}

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  if (!t->body_started) {
    t->body_started = true;
    t->abort = StartBody(t);
    if (!t->abort.ok()) return 0;
  }
  if (t->status != 200 && t->status != 206) {
    constexpr size_t kKeep = 512;
    if (t->error_body.size() < kKeep)
      t->error_body.append(data, std::min(n, kKeep - t->error_body.size()));
    return n;
  }
  if (t->Cancelled()) {
    t->abort = Status(ErrorCode::kCancelled, "interrupted");
    return 0;
  }
  t->abort = t->file->Append(data, n);
  if (!t->abort.ok()) return 0;
  t->hasher.Update(data, n);
  if (t->WantsSha1()) t->sha1.Update(data, n);
  t->written += static_cast<int64_t>(n);
  ReportProgress(*t);
  return n;
}

// libcurl calls this about once a second even when no data flows, so a Ctrl-C during a stall
// still ends the transfer promptly.
int OnTick(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  if (!t->Cancelled()) return 0;
  t->abort = Status(ErrorCode::kCancelled, "interrupted");
  return 1;
}

std::string Progress(const Transfer& t) {
  std::string s = HumanBytes(t.offset + t.written);
  if (t.total > 0) s += " of " + HumanBytes(t.total);
  return s;
}

Status TransportError(CURLcode rc, const char* detail, const Transfer& t) {
  const DownloadRequest& r = *t.request;
  const std::string why = *detail != '\0' ? detail : LoadCurl().easy_strerror(rc);
  switch (rc) {
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return InvalidInput("bad download URL " + r.url + ": " + why,
                          "give an http:// or https:// URL of a .gguf file");
    case CURLE_OPERATION_TIMEDOUT:
      if (t.any_response) {
        return Status(ErrorCode::kTimeout,
                      "the download of " + r.url + " stalled at " + Progress(t) + " (under " +
                          std::to_string(r.low_speed_bytes_per_sec) + " bytes/s for " +
                          std::to_string(r.low_speed_secs) + " s)",
                      kResumeHint);
      }
      return Status(
          ErrorCode::kModelUnreachable,
          "no answer from " + r.url + " within " + std::to_string(r.connect_timeout_secs) + " s",
          kOfflineHint);
    default:
      break;
  }
  if (!t.any_response) {
    // Refused, unknown host, no route, TLS failure: nothing is there to download from.
    return Status(ErrorCode::kModelUnreachable, "cannot reach " + r.url + ": " + why, kOfflineHint);
  }
  return Status(ErrorCode::kModelUnreachable,
                "the connection to " + r.url + " was lost at " + Progress(t) + ": " + why,
                kResumeHint);
}

Status HttpError(long status, const std::string& url, std::string_view body) {
  std::string detail(Trim(body.substr(0, body.find('\n'))));
  if (detail.size() > 200) detail = detail.substr(0, 200) + "...";
  const std::string said = detail.empty() ? "" : ": " + detail;
  const std::string code = "HTTP " + std::to_string(status);
  if (status == 404) {
    return InvalidInput("no such file at " + url + " (" + code + said + ")",
                        "check the model name with `kebab models list`, or the --url");
  }
  if (status == 401 || status == 403) {
    return InvalidInput(
        "the server refused the download of " + url + " (" + code + said +
            "): the repository may be gated or private",
        "accept the model's licence on its page, download the GGUF yourself and set "
        "models.embedding.model to its path");
  }
  if (status == 429 || status >= 500) {
    return Status(ErrorCode::kModelUnreachable,
                  "the server answered " + code + " for " + url + said,
                  "try again later; the same command resumes what was downloaded");
  }
  return GenericError("unexpected " + code + " for " + url + said);
}

// One GET of request.url into `file`, from its current end.
CURLcode Fetch(const CurlApi& api, Transfer* t, char* errbuf) {
  const DownloadRequest& r = *t->request;
  CurlHandle curl(api.easy_init());
  if (!curl) return CURLE_FAILED_INIT;
  CURL* c = curl.get();
  const std::string range = std::to_string(t->offset) + "-";
  api.easy_setopt(c, CURLOPT_URL, r.url.c_str());
  api.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  api.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  api.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  api.easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
  api.easy_setopt(c, CURLOPT_USERAGENT, "kebab");
  if (t->offset > 0) api.easy_setopt(c, CURLOPT_RANGE, range.c_str());
  api.easy_setopt(c, CURLOPT_HEADERFUNCTION, OnHeader);
  api.easy_setopt(c, CURLOPT_HEADERDATA, t);
  api.easy_setopt(c, CURLOPT_WRITEFUNCTION, OnBody);
  api.easy_setopt(c, CURLOPT_WRITEDATA, t);
  api.easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  api.easy_setopt(c, CURLOPT_XFERINFOFUNCTION, OnTick);
  api.easy_setopt(c, CURLOPT_XFERINFODATA, t);
  api.easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
  api.easy_setopt(c, CURLOPT_CONNECTTIMEOUT, static_cast<long>(r.connect_timeout_secs));
  api.easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, static_cast<long>(r.low_speed_bytes_per_sec));
  api.easy_setopt(c, CURLOPT_LOW_SPEED_TIME, static_cast<long>(r.low_speed_secs));
  // Without this, libcurl's DNS timeout uses SIGALRM, which is unsafe in a threaded process.
  api.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  return api.easy_perform(c);
}

// Leaves the .part as a failure requires: gone when its bytes are wrong or there are none,
// else flushed for the next run to resume.
Status Fail(PartFile* file, Status status) {
  auto size = file->Size();
  if (status.code() == ErrorCode::kCorrupt || (size.ok() && *size == 0)) {
    file->Close();
    ::unlink(file->path().c_str());
  } else {
    (void)file->Sync();
  }
  return status;
}

Status SyncDirectory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open " + dir + ": " + std::strerror(errno));
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return IoError("cannot sync " + dir + ": " + std::strerror(errno));
  return Status::OK();
}

// The whole file is in the .part: check it and move it into place.
Result<DownloadResult> Complete(Transfer* t, int64_t started_ms) {
  const DownloadRequest& r = *t->request;
  PartFile* file = t->file;
  const int64_t size = t->offset + t->written;
  if (t->total >= 0 && size < t->total) {
    return Fail(
        file, Status(ErrorCode::kModelUnreachable,
                     "the download of " + r.url + " ended early at " + Progress(*t), kResumeHint));
  }
  if ((t->total >= 0 && size != t->total) || (t->linked_size >= 0 && size != t->linked_size)) {
    return Fail(file, Status(ErrorCode::kCorrupt,
                             "the download of " + r.url + " has " + std::to_string(size) +
                                 " bytes, but the server announced " +
                                 std::to_string(t->linked_size >= 0 ? t->linked_size : t->total),
                             kResumeHint));
  }
  DownloadResult result;
  result.sha256 = t->hasher.HexDigest();
  result.server_sha256 = t->ServerSha256();
  const std::string& expected = r.sha256.empty() ? result.server_sha256 : r.sha256;
  result.verified_against = !r.sha256.empty()               ? Verification::kPinned
                            : !result.server_sha256.empty() ? Verification::kServer
                                                            : Verification::kNone;
  if (!expected.empty() && result.sha256 != expected) {
    return Fail(file,
                Status(ErrorCode::kCorrupt,
                       "checksum mismatch for " + r.url + ": the downloaded file's SHA-256 is " +
                           result.sha256 + ", expected " + expected +
                           (r.sha256.empty() ? " (reported by the server)" : " (pinned)"),
                       kMismatchHint));
  }
  if (t->WantsSha1()) {
    result.sha1 = t->sha1.HexDigest();
    if (result.sha1 != r.sha1) {
      return Fail(file,
                  Status(ErrorCode::kCorrupt,
                         "checksum mismatch for " + r.url + ": the downloaded file's SHA-1 is " +
                             result.sha1 + ", expected " + r.sha1 + " (pinned)",
                         kMismatchHint));
    }
  }
  KEBAB_RETURN_IF_ERROR(file->Sync());
  file->Close();
  if (std::rename(file->path().c_str(), r.dest.c_str()) != 0) {
    return IoError("cannot rename " + file->path() + " to " + r.dest + ": " + std::strerror(errno));
  }
  KEBAB_RETURN_IF_ERROR(SyncDirectory(std::filesystem::path(r.dest).parent_path().string()));
  result.path = r.dest;
  result.bytes = size;
  result.transferred = t->written;
  result.resumed_from = t->offset;
  result.elapsed_ms = MonotonicMillis() - started_ms;
  return result;
}

}  // namespace

Result<DownloadResult> Download(const DownloadRequest& request) {
  const CurlApi& api = LoadCurl();
  if (!api.load_error.empty()) {
    return GenericError("downloading models needs libcurl: " + api.load_error,
                        "install it: apt install libcurl4");
  }
  const int64_t started_ms = MonotonicMillis();
  // Twice at most: a .part the server says is past the end of the file (416) is stale, and
  // the second round starts it over.
  for (int round = 0;; ++round) {
    PartFile file(request.dest + ".part");
    KEBAB_RETURN_IF_ERROR(file.Open());
    Transfer t;
    t.request = &request;
    t.file = &file;
    KEBAB_ASSIGN_OR_RETURN(t.offset, file.Size());
    KEBAB_RETURN_IF_ERROR(file.HashPrefix(t.offset, &t.hasher, t.WantsSha1() ? &t.sha1 : nullptr));
    t.started_ms = MonotonicMillis();
    char errbuf[CURL_ERROR_SIZE] = {};
    const CURLcode rc = Fetch(api, &t, errbuf);
    if (rc == CURLE_FAILED_INIT) return GenericError("libcurl could not create a handle");
    if (!t.abort.ok()) {
      if (t.abort.code() == ErrorCode::kCancelled) {
        return Fail(&file, Status(ErrorCode::kCancelled,
                                  "download of " + request.url + " interrupted at " + Progress(t) +
                                      "; the partial file is kept",
                                  kResumeHint));
      }
      return Fail(&file, t.abort);
    }
    if (rc != CURLE_OK) return Fail(&file, TransportError(rc, errbuf, t));
    if (t.status == 416 && round == 0) {
      const int64_t total = ParseContentRange(t.content_range).second;
      if (total >= 0 && total == t.offset) {
        // Complete already: an earlier run stopped between the last byte and the rename.
        t.total = total;
        return Complete(&t, started_ms);
      }
      file.Close();
      ::unlink(file.path().c_str());
      continue;
    }
    if (t.status != 200 && t.status != 206) {
      return Fail(&file, HttpError(t.status, request.url, t.error_body));
    }
    return Complete(&t, started_ms);
  }
}

std::string HumanBytes(int64_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  const char* units[] = {"kB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1000 && u < 3) {
    v /= 1000;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
  return buf;
}

}  // namespace kebab::models
