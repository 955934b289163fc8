// In-place transposes of non-square matrices on the CPU whose sides share a large factor g: m = p g,
// n = q g. Each g x g block is transposed in its own place first (the tile pairs of the square
// in-place transpose, the blocks as a batch); then
// the rows' pieces of g elements move to their places along the cycles of plan/piece_cycles.hpp, each
// piece copied once, whole. Two passes over the matrix that move whole tiles and whole pieces, where
// the shuffles (in_place_shuffles.cpp) step a map per element three times.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "cpu/in_place.hpp"
#include "cpu/thread_pool.hpp"
#include "cpu/threads.hpp"
#include "plan/piece_cycles.hpp"

namespace xpose::cpu {
namespace {

// Blocks of at least 32 elements a side or 256 bytes a row. Against the shuffles on the development
// VM (bench/results/devvm_2026-11-29_cpu_in_place_blocks.txt): 32-element blocks 1.3-6x faster (u8
// 4096 x 4128 1.5x, f32 4096 x 4128 1.4x, f64 2048 x 2080 1.3x), c128's of 256 bytes 1.2x, blocks of
// 1000 or more 2-26x; smaller ones are level or slower (c128 1024 x 1032, 128 bytes, 0.85x; f32 4096
// x 4112, 16 elements, 1.1x; u8 2048 x 1030, 2, 0.13x): a cycle's copies and the tiles are too small.
constexpr std::int64_t kMinBlockElements = 32, kMinBlockBytes = 256;

// Every place of the cycle takes the piece that belongs there, the first one's own piece held aside.
void follow(unsigned char* x, const plan::PieceMap& pieces, std::int64_t bytes, const plan::PieceCycle& c,
            unsigned char* held) {
  std::memcpy(held, x + c.first * bytes, static_cast<std::size_t>(bytes));
  std::int64_t t = c.first;
  for (std::int64_t s = pieces.source(t); s != c.first; t = s, s = pieces.source(t))
    std::memcpy(x + t * bytes, x + s * bytes, static_cast<std::size_t>(bytes));
  std::memcpy(x + t * bytes, held, static_cast<std::size_t>(bytes));
}

void transpose_matrix(const TransposeDesc& d, unsigned char* x, const plan::PieceMap& pieces,
                      const std::vector<plan::PieceCycle>& cycles) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype)), g = pieces.g;
  // The blocks as square matrices: a tall matrix's (q = 1) all at once, g^2 elements apart; otherwise
  // each row of blocks, q matrices g elements apart with rows n apart.
  if (pieces.q == 1) blocked_transpose_in_place({d.dtype, g, g, pieces.p, g, g, g * g, g * g}, x);
  for (std::int64_t i = 0; pieces.q > 1 && i < pieces.p; ++i)
    blocked_transpose_in_place({d.dtype, g, g, pieces.q, d.cols, d.cols, g, g}, x + i * g * d.cols * e);
  // The cycles split across the threads by their pieces.
  std::int64_t total = 0;
  for (const plan::PieceCycle& c : cycles) total += c.length;
  const std::int64_t bytes = g * e;
  const std::int64_t threads = threads_for(d.rows * d.cols * e, static_cast<std::int64_t>(cycles.size()));
  parallel_for(threads, [&](std::int64_t k) {
    std::vector<unsigned char> held(static_cast<std::size_t>(bytes));
    const std::int64_t from = total * k / threads, to = total * (k + 1) / threads;
    std::int64_t at = 0;  // pieces in the cycles before this one
    for (const plan::PieceCycle& c : cycles) {
      if (at >= from && at < to) follow(x, pieces, bytes, c, held.data());
      at += c.length;
    }
  });
}

}  // namespace

bool square_blocks_fit(const TransposeDesc& d) {
  const std::int64_t g = std::gcd(d.rows, d.cols);
  return d.rows != d.cols &&
         (g >= kMinBlockElements || g * static_cast<std::int64_t>(dtype_size(d.dtype)) >= kMinBlockBytes);
}

void square_blocks_transpose_in_place(const TransposeDesc& d, void* data) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const plan::PieceMap pieces = plan::make_piece_map(d.rows, d.cols);
  const std::vector<plan::PieceCycle> cycles = plan::piece_cycles(pieces);  // the same for every matrix
  auto* x = static_cast<unsigned char*>(data);
  for (std::int64_t b = 0; b < d.batch; ++b) transpose_matrix(d, x + b * d.batch_stride_in * e, pieces, cycles);
}

}  // namespace xpose::cpu
