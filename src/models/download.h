// One resumable, verified HTTP download of a model file, the way the Hugging Face hub serves
// them: the hub answers a redirect to its CDN and names the file's SHA-256 in X-Linked-Etag;
// the CDN honours byte ranges. Bytes go to DEST.part, which survives a dropped connection or a
// Ctrl-C and is resumed with a Range request by the next call; only a file whose SHA-256 (and
// SHA-1, when one is pinned) matches is fsync'ed and renamed to DEST, so DEST is never partial.
// Blocking; one download per call, any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "core/status.h"

namespace kebab::models {

struct DownloadProgress {
  int64_t bytes_done = 0;    // of the whole file, the resumed prefix included
  int64_t bytes_total = -1;  // -1 until a server states it
  int64_t resumed_from = 0;  // bytes that were already in DEST.part
  double bytes_per_sec = 0;  // this call's transfer rate so far
};

struct DownloadRequest {
  std::string url;
  std::string dest;    // final path; its directory must exist
  std::string sha256;  // expected lowercase hex; empty = the one the server reports
  // Expected SHA-1, lowercase hex, checked in addition to the SHA-256 (whisper.cpp publishes
  // SHA-1s for its models); empty = none. Servers report no SHA-1, so only a pin is checked.
  std::string sha1;
  // Called after every received block (often: throttle any drawing).
  std::function<void(const DownloadProgress&)> on_progress;
  // Set (e.g. by a SIGINT handler) to stop within about a second; DEST.part is kept.
  const std::atomic<bool>* cancel = nullptr;
  int connect_timeout_secs = 10;
  // No overall time limit (a large model on a slow line takes hours), but a transfer slower
  // than this many bytes per second for low_speed_secs is abandoned.
  int low_speed_bytes_per_sec = 1024;
  int low_speed_secs = 30;
};

// What the file's SHA-256 was checked against: a hash the caller pinned, the server's, or
// nothing (a server that reports no SHA-256 and none pinned). A pinned SHA-1 is checked
// besides, whatever this says (DownloadResult::sha1).
enum class Verification { kPinned, kServer, kNone };

struct DownloadResult {
  std::string path;           // DEST
  int64_t bytes = 0;          // size of the file
  int64_t transferred = 0;    // bytes received by this call
  int64_t resumed_from = 0;   // bytes that were already in DEST.part
  std::string sha256;         // of the file, lowercase hex
  std::string server_sha256;  // what the server reported, empty if nothing
  std::string sha1;           // of the file, lowercase hex, when request.sha1 was checked; else
                              // empty (not computed)
  Verification verified_against = Verification::kNone;
  int64_t elapsed_ms = 0;
};

// Downloads `request.url` into `request.dest` (see the file comment). Errors, each with a hint:
// - no route, refused connection, unknown host, no answer within connect_timeout_secs:
//   model_unreachable, at once (no retries);
// - the connection drops mid-transfer, or the server answers 5xx / 429: model_unreachable,
//   DEST.part kept for the next call;
// - slower than the low-speed limit: timeout, DEST.part kept;
// - HTTP 404 / 401 / 403 or a malformed URL: invalid_input;
// - SHA-256, SHA-1 or length mismatch: corrupt ("checksum mismatch"), and DEST.part is
//   deleted (its bytes are wrong);
// - cancelled: cancelled, DEST.part kept;
// - disk errors: io_error; libcurl.so.4 missing: generic.
// A DEST.part left empty by a failure is removed.
Result<DownloadResult> Download(const DownloadRequest& request);

// A byte count for people, in the hub's decimal units: "512 B", "36.7 MB", "1.12 GB".
std::string HumanBytes(int64_t bytes);

}  // namespace kebab::models
