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

namespace {

// The tile pairs with both tiles staged through packed buffers: copied in row by row, transposed
// between buffers, copied out row by row, so that the tile transposes never touch rows far apart.
void staged_tile_pairs(const TransposeDesc& d, void* data, std::int64_t pieces) {
  const std::int64_t E = static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t edge = blocked_tile_edge(static_cast<std::size_t>(E));
  const std::int64_t n = (d.rows + edge - 1) / edge;
  const std::int64_t pairs = n * (n + 1) / 2, work = pairs * d.batch;
  auto* m = static_cast<unsigned char*>(data);
  const auto at = [&](std::int64_t b, std::int64_t r, std::int64_t c) {
    return m + (b * d.batch_stride_in + r * d.ld_in + c) * E;
  };
  const auto span = [&](std::int64_t t) { return std::min(edge, d.rows - t * edge); };
  const TileTranspose transpose_tile = blocked_tile_transpose(static_cast<std::size_t>(E));
  // Copies `rows` rows of `bytes` between a tile of the matrix (rows ld_in apart) and a packed buffer.
  const auto copy_in = [&](unsigned char* buffer, const unsigned char* tile, int rows, std::int64_t bytes) {
    for (int r = 0; r < rows; ++r)
      std::memcpy(buffer + r * bytes, tile + r * d.ld_in * E, static_cast<std::size_t>(bytes));
  };
  const auto copy_out = [&](unsigned char* tile, const unsigned char* buffer, int rows, std::int64_t bytes) {
    for (int r = 0; r < rows; ++r)
      std::memcpy(tile + r * d.ld_in * E, buffer + r * bytes, static_cast<std::size_t>(bytes));
  };
  parallel_for(pieces, [&](std::int64_t p) {
    const auto tile_bytes = static_cast<std::size_t>(edge * edge * E);
    std::vector<unsigned char> a(tile_bytes), b_in(tile_bytes), a_out(tile_bytes), b_out(tile_bytes);
    const std::int64_t first = work * p / pieces, last = work * (p + 1) / pieces;
    std::int64_t b = first / pairs, i = 0, j = first % pairs;
    while (j >= n - i) j -= n - i++;
    j += i;
    for (std::int64_t k = first; k < last; ++k) {
      const int hi = static_cast<int>(span(i)), hj = static_cast<int>(span(j));
      // Tile (i, j), hi rows of hj, into a; its transpose (hj rows of hi) into a_out.
      copy_in(a.data(), at(b, i * edge, j * edge), hi, hj * E);
      transpose_tile(a.data(), hj * E, a_out.data(), hi * E, hi, hj);
      if (i != j) {  // tile (j, i), hj rows of hi, the same way, its transpose into (i, j)'s place
        copy_in(b_in.data(), at(b, j * edge, i * edge), hj, hi * E);
        transpose_tile(b_in.data(), hi * E, b_out.data(), hj * E, hj, hi);
        copy_out(at(b, i * edge, j * edge), b_out.data(), hi, hj * E);
      }
      copy_out(at(b, j * edge, i * edge), a_out.data(), hj, hi * E);
      if (++j == n && ++i == n) ++b, i = 0;
      if (j == n) j = i;
    }
  });
}

}  // namespace

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
  // 1- and 2-byte tiles (256 or 128 rows) whose rows lie a multiple of 4 KiB apart fall into few cache
  // sets: staged, each tile copied row by row into a packed buffer, transposed there, and copied back
  // row by row. On the development VM (bench/results/devvm_2026-11-29_cpu_in_place_staged_tiles.txt)
  // u8 4096^2 2.3 -> 1.4 ms, 8192^2 7.6 -> 5.4 ms, bf16 2048^2 0.60 -> 0.34 ms; the same staging
  // elsewhere lost up to 2.4x (u8 1024^2, rows 1 KiB apart; u8 rows 16400 apart; f32 4096^2 1.4x).
  if (E <= 2 && pitch % 4096 == 0) return staged_tile_pairs(d, data, pieces);
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
