// How many threads the CPU backend spreads a job over.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>

namespace xpose::cpu {

// One per MiB of matrix, up to one per hardware thread and one per work item: the pool's threads are
// started once (cpu/thread_pool.hpp), and waking one costs microseconds, so a piece of a MiB (a few
// hundred microseconds) pays for it.
inline std::int64_t threads_for(std::int64_t bytes, std::int64_t work_items) {
  // Asked once: glibc reads /sys for it, several microseconds, as long as a small transpose takes.
  static const std::int64_t hw = std::max(1u, std::thread::hardware_concurrency());
  return std::max<std::int64_t>(1, std::min({hw, bytes >> 20, work_items}));
}

}  // namespace xpose::cpu
