// How many threads the CPU backend spreads a job over.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>

namespace xpose::cpu {

// One per 64 KiB of matrix, up to one per hardware thread and one per work item; but one under 1
// MiB, and under 2 MiB where that makes fewer than four. The pool's threads are started once
// (cpu/thread_pool.hpp), and waking them costs microseconds, which a small matrix on a few threads
// does not repay. On a 16-core Xeon (median of three processes, aligned buffers), against the earlier
// one per MiB: u8 1024^2 111 -> 58 us, 2048^2 385 -> 133, bf16 1024^2 299 -> 75, f32 512^2 119 -> 57,
// 1024^2 356 -> 124, f64 512^2 301 -> 76, c128 256^2 82 -> 53, 512^2 279 -> 105, 16 MiB and up
// level. On the 2-core development VM two threads at 1 MiB were slower than one (u8 1024^2 63 -> 106
// us), hence four (bench/results/xeon16_2026-11-29f_cpu_piece_size.txt). `hw`: the machine's
// hardware threads.
inline std::int64_t threads_for(std::int64_t bytes, std::int64_t work_items, std::int64_t hw) {
  const std::int64_t n = std::max<std::int64_t>(1, std::min({hw, bytes >> 16, work_items}));
  constexpr std::int64_t kMiB = std::int64_t{1} << 20;
  return bytes < kMiB || (bytes < 2 * kMiB && n < 4) ? 1 : n;
}

inline std::int64_t threads_for(std::int64_t bytes, std::int64_t work_items) {
  // Asked once: glibc reads /sys for it, several microseconds, as long as a small transpose takes.
  static const std::int64_t hw = std::max(1u, std::thread::hardware_concurrency());
  return threads_for(bytes, work_items, hw);
}

}  // namespace xpose::cpu
