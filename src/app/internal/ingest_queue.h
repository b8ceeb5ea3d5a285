// The ingest pipeline's hand-over between its parse workers and its one writer (ingest.cc):
// what a worker made of one file, and the bounded queue that carries it. Module-private.
// Thread safety: ResultQueue is safe for the workers and the writer at once.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "source/walker.h"
#include "store/store.h"

namespace kebab::app::internal {

// What a worker hands the writer for one file.
struct Processed {
  const source::FoundFile* file = nullptr;
  std::string result;  // new | updated | unchanged | skipped | error | cancelled
  std::string skip_reason;
  std::string error;
  std::optional<store::DocumentWrite> write;
  int64_t ms = 0;
  int ocr_pages = 0;
  int64_t ocr_ms = 0;
  int worker = 0;  // which worker made it, and so frees it

  // The source bytes behind the rows it holds: what it weighs in the queue.
  uint64_t bytes() const { return write ? file->size : 0; }
};

// A bounded queue between the parse workers and the writer, handed over in batches: the
// writer takes everything queued at once and sleeps until a batch has built up, and a worker
// that found the queue full sleeps until the writer has taken it. Handing over one result at
// a time woke a thread per document (90k futex calls for tldr-pages' 38k files).
// It holds up to `capacity` results or `capacity_bytes` of source (always at least one):
// the writer's pace and the workers' drift apart along a corpus, and a queue of 64 results
// left the writer alone on a core whenever it fell behind (tldr-pages cold ingest, median of
// 8 runs: 3.28 s with 64, 2.88 s with 1024).
// Results the writer is done with go back to the worker that made them, so that freeing them
// (thousands of small allocations per document) happens neither on the busy writer nor on
// another worker, whose frees would wait on the lock of the maker's malloc arena.
// Results travel as pointers, so the lock is held for pointer moves only: moving a thousand
// results themselves held it for milliseconds, and the workers queued up on it.
class ResultQueue {
 public:
  ResultQueue(int workers, size_t capacity, uint64_t capacity_bytes, size_t batch)
      : capacity_(capacity),
        capacity_bytes_(capacity_bytes),
        batch_(batch),
        retired_(static_cast<size_t>(workers)) {}
  void Push(std::unique_ptr<Processed> p) {
    std::vector<std::unique_ptr<Processed>> retired;  // freed on return, outside the lock
    const uint64_t bytes = p->bytes();
    const auto worker = static_cast<size_t>(p->worker);
    std::unique_lock lock(mu_);
    not_full_.wait(lock, [&] {
      return q_.empty() || (q_.size() < capacity_ && bytes_ + bytes <= capacity_bytes_);
    });
    retired.swap(retired_[worker]);
    bytes_ += bytes;
    q_.push_back(std::move(p));
    if (q_.size() == 1 || q_.size() == batch_) not_empty_.notify_one();
  }
  // Hands back results the writer has finished with.
  void Retire(std::vector<std::unique_ptr<Processed>> done) {
    std::lock_guard lock(mu_);
    for (auto& p : done) retired_[static_cast<size_t>(p->worker)].push_back(std::move(p));
  }
  // Moves every queued result into `out` (emptied first). Once one is there, it gives a
  // batch a moment to build up, so slow files (a big PDF) still reach the writer promptly.
  // False when every producer has finished and nothing is left.
  bool PopAll(std::vector<std::unique_ptr<Processed>>* out) {
    constexpr auto kGather = std::chrono::milliseconds(20);
    out->clear();
    std::unique_lock lock(mu_);
    not_empty_.wait(lock, [&] { return !q_.empty() || producers_ == 0; });
    not_empty_.wait_for(lock, kGather, [&] { return q_.size() >= batch_ || producers_ == 0; });
    if (q_.empty()) return false;
    out->swap(q_);
    bytes_ = 0;
    not_full_.notify_all();
    return true;
  }
  void SetProducers(int n) {
    std::lock_guard lock(mu_);
    producers_ = n;
  }
  void ProducerDone() {
    std::lock_guard lock(mu_);
    if (--producers_ == 0) not_empty_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::vector<std::unique_ptr<Processed>> q_;
  size_t capacity_;
  uint64_t capacity_bytes_;
  uint64_t bytes_ = 0;  // queued
  size_t batch_;
  std::vector<std::vector<std::unique_ptr<Processed>>> retired_;  // by worker
  int producers_ = 0;
};

}  // namespace kebab::app::internal
