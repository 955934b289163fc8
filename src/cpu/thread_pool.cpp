// A fixed pool of workers that sleep on a condition variable between jobs. A job is a count of
// pieces handed out one at a time under the lock; the caller works through them too and then waits
// for the pieces in flight, so a job finishes even if no worker wakes in time.
#include "cpu/thread_pool.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace xpose::cpu {
namespace {

// Set while this thread runs a piece of a job: a parallel_for called from inside one runs its pieces
// on this thread, since the pool takes one job at a time and waiting for the outer job's lock there
// would never end.
thread_local bool running_a_piece = false;

class Pool {
 public:
  Pool() {
    const unsigned workers = std::max(1u, std::thread::hardware_concurrency()) - 1;
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }

  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
      wake_.notify_all();
    }
    for (auto& t : threads_) t.join();
  }

  void run(std::int64_t pieces, const std::function<void(std::int64_t)>& piece) {
    std::lock_guard<std::mutex> one_job(job_mutex_);
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = &piece;
    next_ = 0;
    count_ = pieces;
    unfinished_ = pieces;
    ++generation_;
    wake_.notify_all();
    take_pieces(lock);
    done_.wait(lock, [this] { return unfinished_ == 0; });
    job_ = nullptr;
  }

 private:
  // Runs pieces of the current job until none is left to hand out; called with the lock held.
  void take_pieces(std::unique_lock<std::mutex>& lock) {
    while (next_ < count_) {
      const std::int64_t i = next_++;
      const auto* job = job_;
      lock.unlock();
      running_a_piece = true;
      (*job)(i);
      running_a_piece = false;
      lock.lock();
      if (--unfinished_ == 0) done_.notify_all();
    }
  }

  void work() {
    std::uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      take_pieces(lock);
    }
  }

  std::mutex job_mutex_;  // one job at a time
  std::mutex mutex_;      // everything below
  std::condition_variable wake_, done_;
  const std::function<void(std::int64_t)>* job_ = nullptr;
  std::int64_t next_ = 0, count_ = 0, unfinished_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

void parallel_for(std::int64_t pieces, const std::function<void(std::int64_t)>& piece) {
  if (pieces <= 0) return;
  if (pieces == 1 || running_a_piece) {
    for (std::int64_t i = 0; i < pieces; ++i) piece(i);
    return;
  }
  static Pool pool;  // started on first use, joined at exit
  pool.run(pieces, piece);
}

}  // namespace xpose::cpu
