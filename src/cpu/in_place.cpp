// In-place transposes on the CPU: the oracle (every shape) and the tile pairs of square matrices.
#include "cpu/in_place.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu/blocked.hpp"
#include "cpu/thread_pool.hpp"
#include "cpu/threads.hpp"

namespace xpose::cpu {

void reference_transpose_in_place(const TransposeDesc& d, void* data) {
  const std::size_t esize = dtype_size(d.dtype);
  auto* m = static_cast<unsigned char*>(data);
  if (d.rows != d.cols) {
    const auto bytes = static_cast<std::size_t>(d.rows * d.cols) * esize;
    std::vector<unsigned char> copy(bytes);
    for (std::int64_t b = 0; b < d.batch; ++b) {
      unsigned char* x = m + b * d.batch_stride_in * static_cast<std::int64_t>(esize);
      std::memcpy(copy.data(), x, bytes);
      for (std::int64_t r = 0; r < d.rows; ++r)
        for (std::int64_t c = 0; c < d.cols; ++c)
          std::memcpy(x + (c * d.rows + r) * esize, &copy[(r * d.cols + c) * esize], esize);
    }
    return;
  }
  unsigned char tmp[16];
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t r = 0; r < d.rows; ++r)
      for (std::int64_t c = r + 1; c < d.cols; ++c) {
        unsigned char* x = m + (b * d.batch_stride_in + r * d.ld_in + c) * esize;
        unsigned char* y = m + (b * d.batch_stride_in + c * d.ld_in + r) * esize;
        std::memcpy(tmp, x, esize);
        std::memcpy(x, y, esize);
        std::memcpy(y, tmp, esize);
      }
}

void blocked_transpose_in_place(const TransposeDesc& d, void* data) {
  const std::int64_t E = static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t edge = blocked_tile_edge(static_cast<std::size_t>(E));
  const std::int64_t n = (d.rows + edge - 1) / edge;  // tiles a side
  const std::int64_t pairs = n * (n + 1) / 2, work = pairs * d.batch;
  auto* m = static_cast<unsigned char*>(data);
  const auto at = [&](std::int64_t b, std::int64_t r, std::int64_t c) {
    return m + (b * d.batch_stride_in + r * d.ld_in + c) * E;
  };
  const auto span = [&](std::int64_t t) { return std::min(edge, d.rows - t * edge); };
  const TileTranspose transpose_tile = blocked_tile_transpose(static_cast<std::size_t>(E));
  const auto pitch = static_cast<std::ptrdiff_t>(d.ld_in * E);
  const std::int64_t pieces = threads_for(d.batch * d.rows * d.cols * E, work);
  parallel_for(pieces, [&](std::int64_t p) {
    std::vector<unsigned char> buffer(static_cast<std::size_t>(edge * edge * E));
    // The upper triangle's pairs (i, j), i <= j, by tile row: the piece's first found once, then walked.
    const std::int64_t first = work * p / pieces, last = work * (p + 1) / pieces;
    std::int64_t b = first / pairs, i = 0, j = first % pairs;
    while (j >= n - i) j -= n - i++;
    j += i;
    for (std::int64_t k = first; k < last; ++k) {
      const int hi = static_cast<int>(span(i)), hj = static_cast<int>(span(j));
      // Tile (i, j), hi x hj, transposed into the buffer (hj rows of hi).
      transpose_tile(at(b, i * edge, j * edge), pitch, buffer.data(), hi * E, hi, hj);
      // Tile (j, i), hj x hi, transposed straight into tile (i, j)'s place.
      if (i != j) transpose_tile(at(b, j * edge, i * edge), pitch, at(b, i * edge, j * edge), pitch, hj, hi);
      // The buffer into tile (j, i)'s place, hj rows of hi elements.
      for (int r = 0; r < hj; ++r)
        std::memcpy(at(b, j * edge + r, i * edge), buffer.data() + r * hi * E, static_cast<std::size_t>(hi * E));
      if (++j == n && ++i == n) ++b, i = 0;
      if (j == n) j = i;
    }
  });
}

}  // namespace xpose::cpu
