// In-place transposes on the CPU: the oracle (every shape) and the tile pairs of square matrices,
// moved directly or staged through packed buffers.
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

// The tiles of the square matrices of `d`: tile (i, j) of matrix b covers rows i edge.. and columns
// j edge.., span(i) x span(j) elements.
struct TilePairs {
  const TransposeDesc& d;
  unsigned char* m;
  std::int64_t e, edge, n, pairs;  // n tiles a side, n (n + 1) / 2 pairs (i <= j) a matrix
  unsigned char* at(std::int64_t b, std::int64_t r, std::int64_t c) const {
    return m + (b * d.batch_stride_in + r * d.ld_in + c) * e;
  }
  int span(std::int64_t t) const { return static_cast<int>(std::min(edge, d.rows - t * edge)); }
};

// Runs pair(b, i, j) for the upper triangle's pairs (i <= j) of every matrix, split across `pieces`
// threads, each with its own pair function from make_pair() (which owns its buffers): a piece's first
// pair found once, then walked by tile row.
template <typename MakePair>
void walk_tile_pairs(const TilePairs& t, std::int64_t pieces, const MakePair& make_pair) {
  const std::int64_t work = t.pairs * t.d.batch;
  parallel_for(pieces, [&](std::int64_t p) {
    auto pair = make_pair();
    const std::int64_t first = work * p / pieces, last = work * (p + 1) / pieces;
    std::int64_t b = first / t.pairs, i = 0, j = first % t.pairs;
    while (j >= t.n - i) j -= t.n - i++;
    j += i;
    for (std::int64_t k = first; k < last; ++k) {
      pair(b, i, j);
      if (++j == t.n && ++i == t.n) ++b, i = 0;
      if (j == t.n) j = i;
    }
  });
}

}  // namespace

void blocked_transpose_in_place(const TransposeDesc& d, void* data) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t edge = blocked_tile_edge(static_cast<std::size_t>(e));
  const std::int64_t n = (d.rows + edge - 1) / edge;
  const TilePairs t{d, static_cast<unsigned char*>(data), e, edge, n, n * (n + 1) / 2};
  const TileTranspose transpose_tile = blocked_tile_transpose(static_cast<std::size_t>(e));
  const auto pitch = static_cast<std::ptrdiff_t>(d.ld_in * e);
  const auto tile_bytes = static_cast<std::size_t>(edge * edge * e);
  const std::int64_t pieces = threads_for(d.batch * d.rows * d.cols * e, t.pairs * d.batch);
  // 1- and 2-byte tiles (256 or 128 rows) whose rows lie a multiple of 4 KiB apart fall into few cache
  // sets: staged, each tile copied row by row into a packed buffer, transposed there, and copied back
  // row by row. On the development VM (bench/results/devvm_2026-11-29_cpu_in_place_staged_tiles.txt)
  // u8 4096^2 2.3 -> 1.4 ms, 8192^2 7.6 -> 5.4 ms, bf16 2048^2 0.60 -> 0.34 ms; the same staging
  // elsewhere lost up to 2.4x (u8 1024^2, rows 1 KiB apart; u8 rows 16400 apart; f32 4096^2 1.4x).
  if (e <= 2 && pitch % 4096 == 0) {
    // `rows` rows of `bytes`, `from_pitch` bytes apart at `from`, to rows `to_pitch` apart at `to`.
    const auto copy_rows = [](unsigned char* to, std::ptrdiff_t to_pitch, const unsigned char* from,
                              std::ptrdiff_t from_pitch, int rows, std::int64_t bytes) {
      for (int r = 0; r < rows; ++r)
        std::memcpy(to + r * to_pitch, from + r * from_pitch, static_cast<std::size_t>(bytes));
    };
    return walk_tile_pairs(t, pieces, [&] {
      return [&, a = std::vector<unsigned char>(tile_bytes), a_out = std::vector<unsigned char>(tile_bytes),
              b_in = std::vector<unsigned char>(tile_bytes),
              b_out = std::vector<unsigned char>(tile_bytes)](std::int64_t b, std::int64_t i, std::int64_t j) mutable {
        const int hi = t.span(i), hj = t.span(j);
        // Tile (i, j), hi rows of hj, into a; its transpose (hj rows of hi) into a_out.
        copy_rows(a.data(), hj * e, t.at(b, i * edge, j * edge), pitch, hi, hj * e);
        transpose_tile(a.data(), hj * e, a_out.data(), hi * e, hi, hj);
        if (i != j) {  // tile (j, i), hj rows of hi, the same way, its transpose into (i, j)'s place
          copy_rows(b_in.data(), hi * e, t.at(b, j * edge, i * edge), pitch, hj, hi * e);
          transpose_tile(b_in.data(), hi * e, b_out.data(), hj * e, hj, hi);
          copy_rows(t.at(b, i * edge, j * edge), pitch, b_out.data(), hj * e, hi, hj * e);
        }
        copy_rows(t.at(b, j * edge, i * edge), pitch, a_out.data(), hi * e, hj, hi * e);
      };
    });
  }
  walk_tile_pairs(t, pieces, [&] {
    return [&, buffer = std::vector<unsigned char>(tile_bytes)](std::int64_t b, std::int64_t i,
                                                               std::int64_t j) mutable {
      const int hi = t.span(i), hj = t.span(j);
      // Tile (i, j), hi x hj, transposed into the buffer (hj rows of hi).
      transpose_tile(t.at(b, i * edge, j * edge), pitch, buffer.data(), hi * e, hi, hj);
      // Tile (j, i), hj x hi, transposed straight into tile (i, j)'s place.
      if (i != j) transpose_tile(t.at(b, j * edge, i * edge), pitch, t.at(b, i * edge, j * edge), pitch, hj, hi);
      // The buffer into tile (j, i)'s place, hj rows of hi elements.
      for (int r = 0; r < hj; ++r)
        std::memcpy(t.at(b, j * edge + r, i * edge), buffer.data() + r * hi * e, static_cast<std::size_t>(hi * e));
    };
  });
}

}  // namespace xpose::cpu
