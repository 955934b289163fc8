// How many threads the CPU backend spreads a job over.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>

namespace xpose::cpu {

// One per hardware thread from 4 MiB on (below that the spawn costs more than it saves), at most
// one per work item.
inline std::int64_t threads_for(std::int64_t bytes, std::int64_t work_items) {
  // Asked once: glibc reads /sys for it, several microseconds, as long as a small transpose takes.
  static const std::int64_t hw = std::max(1u, std::thread::hardware_concurrency());
  return bytes < (std::int64_t{4} << 20) ? 1 : std::max<std::int64_t>(1, std::min(hw, work_items));
}

}  // namespace xpose::cpu
