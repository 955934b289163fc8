// How many threads the CPU backend spreads a job over.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>

namespace xpose::cpu {

// One per 4 MiB of matrix, up to one per hardware thread and one per work item: starting a thread
// costs tens of microseconds (about 45 each on a 16-core Xeon VM, where 16 threads for 4 MiB took
// longer than one), so each should get a millisecond or more of work.
inline std::int64_t threads_for(std::int64_t bytes, std::int64_t work_items) {
  // Asked once: glibc reads /sys for it, several microseconds, as long as a small transpose takes.
  static const std::int64_t hw = std::max(1u, std::thread::hardware_concurrency());
  return std::max<std::int64_t>(1, std::min({hw, bytes >> 22, work_items}));
}

}  // namespace xpose::cpu
