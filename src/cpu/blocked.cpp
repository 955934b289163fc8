// Cache-blocked CPU transpose: tiles of kBlockedTile^2 elements, tile rows shared among threads.
#include "cpu/blocked.hpp"

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace xpose::cpu {
namespace {

struct Bytes16 {
  std::uint64_t lo, hi;
};

// Transposes tile rows [first, last) of the (batch x tiles_r) grid of tile rows.
template <typename T>
void transpose_tile_rows(const TransposeDesc& d, const T* in, T* out, std::int64_t first, std::int64_t last) {
  const std::int64_t tiles_r = (d.rows + kBlockedTile - 1) / kBlockedTile;
  for (std::int64_t t = first; t < last; ++t) {
    const std::int64_t b = t / tiles_r;
    const std::int64_t r0 = (t % tiles_r) * kBlockedTile;
    const std::int64_t r1 = std::min(r0 + kBlockedTile, d.rows);
    const T* src = in + b * d.batch_stride_in;
    T* dst = out + b * d.batch_stride_out;
    for (std::int64_t c0 = 0; c0 < d.cols; c0 += kBlockedTile) {
      const std::int64_t c1 = std::min(c0 + kBlockedTile, d.cols);
      for (std::int64_t c = c0; c < c1; ++c)
        for (std::int64_t r = r0; r < r1; ++r) dst[c * d.ld_out + r] = src[r * d.ld_in + c];
    }
  }
}

template <typename T>
void run(const TransposeDesc& d, const void* in_bytes, void* out_bytes) {
  const T* in = static_cast<const T*>(in_bytes);
  T* out = static_cast<T*>(out_bytes);
  const std::int64_t tiles_r = (d.rows + kBlockedTile - 1) / kBlockedTile;
  const std::int64_t work = d.batch * tiles_r;
  // Threads only pay off past a few MiB; below that the spawn costs more than it saves.
  const std::int64_t bytes = d.batch * d.rows * d.cols * static_cast<std::int64_t>(sizeof(T));
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::int64_t nthreads = bytes < (4 << 20) ? 1 : std::min<std::int64_t>(hw, work);
  if (nthreads <= 1) {
    transpose_tile_rows(d, in, out, 0, work);
    return;
  }
  std::vector<std::thread> threads;
  for (std::int64_t i = 0; i < nthreads; ++i) {
    const std::int64_t first = work * i / nthreads, last = work * (i + 1) / nthreads;
    threads.emplace_back([&, first, last] { transpose_tile_rows(d, in, out, first, last); });
  }
  for (auto& t : threads) t.join();
}

}  // namespace

void blocked_transpose(const TransposeDesc& d, const void* in, void* out) {
  switch (dtype_size(d.dtype)) {
    case 1: run<std::uint8_t>(d, in, out); break;
    case 2: run<std::uint16_t>(d, in, out); break;
    case 4: run<std::uint32_t>(d, in, out); break;
    case 8: run<std::uint64_t>(d, in, out); break;
    case 16: run<Bytes16>(d, in, out); break;
    default: break;  // validate_desc refuses other sizes
  }
}

}  // namespace xpose::cpu
