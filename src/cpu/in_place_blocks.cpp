// In-place transposes of non-square matrices on the CPU whose sides share a large factor g: m = p g,
// n = q g. Each g x g block is transposed in its own place first (the tile pairs of the square
// in-place transpose, the blocks as a batch); then
// the rows' pieces of g elements move to their places along the cycles of plan/piece_cycles.hpp, each
// piece copied once, whole, long cycles cut into segments as on the GPU so that the threads share
// them. Two passes over the matrix that move whole tiles and whole pieces, where
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
// A tall matrix (its columns divide its rows: one column of blocks) takes blocks of 8 elements or
// more, up to plan::kPieceMaxCount pieces (the plan walks each one). On the development VM
// (bench/results/devvm_2026-11-30_cpu_in_place_tall_blocks.txt, best of 5, without the plan's walk):
// g = 16 2-8x faster than the shuffles (u8 4194304 x 16 3.1x, f32 1048576 x 16 5.9x, c128 262144 x 16
// 5.5x), g = 8 1.6-1.8x (u8 4194304 x 8 1.7x, f32 2097152 x 8 1.8x); g = 4 level but for c128 (1.0-1.1x;
// c128 1.9x), g = 2 slower (0.65-0.88x). Wide matrices with blocks under 32 gain little or lose (16:
// 1.1-1.4x, 8: 0.71-0.85x), and keep the rule above.
constexpr std::int64_t kMinTallBlockElements = 8;

// Segments a thread takes, at the least, so that long cycles spread evenly over the threads.
constexpr std::int64_t kSegmentsPerThread = 16;

// Fills the segment's places in turn, each with the piece from the next place of its cycle; the last
// with the piece saved for segment `next`, or for a whole cycle its own first piece, held first.
void move_segment(unsigned char* x, const plan::PieceMap& pieces, std::int64_t bytes, const plan::PieceSegment& s,
                  const unsigned char* saved, unsigned char* held) {
  const auto n = static_cast<std::size_t>(bytes);
  std::int64_t t = s.first;
  if (s.next < 0) std::memcpy(held, x + t * bytes, n);
  for (std::int32_t i = 0; i < s.steps; ++i) {
    const std::int64_t from = pieces.source(t);
    const unsigned char* source = i + 1 < s.steps ? x + from * bytes : s.next >= 0 ? saved + s.next * bytes : held;
    std::memcpy(x + t * bytes, source, n);
    t = from;
  }
}

void transpose_matrix(const TransposeDesc& d, unsigned char* x, const plan::PieceMap& pieces,
                      const plan::PieceSegments& cut, std::int64_t threads) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype)), g = pieces.g, bytes = g * e;
  // The blocks as square matrices: a tall matrix's (q = 1) all at once, g^2 elements apart; otherwise
  // each row of blocks, q matrices g elements apart with rows n apart.
  if (pieces.q == 1) blocked_transpose_in_place({d.dtype, g, g, pieces.p, g, g, g * g, g * g}, x);
  for (std::int64_t i = 0; pieces.q > 1 && i < pieces.p; ++i)
    blocked_transpose_in_place({d.dtype, g, g, pieces.q, d.cols, d.cols, g, g}, x + i * g * d.cols * e);
  // The cut segments' first pieces saved, then every segment moved, both split across the threads.
  std::vector<unsigned char> saved(static_cast<std::size_t>(cut.saved * bytes));
  const auto all = static_cast<std::int64_t>(cut.segments.size());
  parallel_for(threads, [&](std::int64_t k) {
    for (std::int64_t s = cut.saved * k / threads; s < cut.saved * (k + 1) / threads; ++s)
      std::memcpy(saved.data() + s * bytes, x + cut.segments[static_cast<std::size_t>(s)].first * bytes,
                  static_cast<std::size_t>(bytes));
  });
  parallel_for(threads, [&](std::int64_t k) {
    std::vector<unsigned char> held(static_cast<std::size_t>(bytes));
    for (std::int64_t s = all * k / threads; s < all * (k + 1) / threads; ++s)
      move_segment(x, pieces, bytes, cut.segments[static_cast<std::size_t>(s)], saved.data(), held.data());
  });
}

}  // namespace

bool square_blocks_fit(const TransposeDesc& d) {
  const std::int64_t g = std::gcd(d.rows, d.cols);
  if (d.rows == d.cols) return false;
  if (g >= kMinBlockElements || g * static_cast<std::int64_t>(dtype_size(d.dtype)) >= kMinBlockBytes) return true;
  return d.cols == g && g >= kMinTallBlockElements && d.rows / g * d.cols <= plan::kPieceMaxCount;
}

SquareBlocksPlan square_blocks_plan(const TransposeDesc& d) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  SquareBlocksPlan p;
  p.pieces = plan::make_piece_map(d.rows, d.cols);
  // Cycles of up to `steps` pieces whole, longer ones cut, steps enough for kSegmentsPerThread
  // segments a thread (saved pieces: about threads x that many).
  p.threads = threads_for(d.rows * d.cols * e, p.pieces.count());
  const std::int64_t steps = std::max<std::int64_t>(16, p.pieces.count() / (p.threads * kSegmentsPerThread));
  p.segments = plan::piece_segments(plan::piece_cycles(p.pieces), p.pieces, steps, steps);
  return p;
}

void square_blocks_transpose_in_place(const TransposeDesc& d, const SquareBlocksPlan& p, void* data) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  auto* x = static_cast<unsigned char*>(data);
  for (std::int64_t b = 0; b < d.batch; ++b)
    transpose_matrix(d, x + b * d.batch_stride_in * e, p.pieces, p.segments, p.threads);
}

}  // namespace xpose::cpu
