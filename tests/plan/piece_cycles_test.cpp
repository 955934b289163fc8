// The pieces' permutation of the square-blocks in-place transpose, replayed on matrices of numbers:
// blocks transposed by plain loops, then the pieces moved along whole cycles (the CPU's way) or along
// segments run in any order after their first pieces were saved (the GPU's way); both must give the
// transpose.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "plan/in_place_pieces.hpp"
#include "plan/piece_cycles.hpp"

namespace {

namespace plan = xpose::plan;
using Matrix = std::vector<std::int64_t>;

// m x n numbered 0, 1, ...: its transpose holds r n + c at (c, r).
Matrix numbered(std::int64_t m, std::int64_t n) {
  Matrix a(static_cast<std::size_t>(m * n));
  std::iota(a.begin(), a.end(), std::int64_t{0});
  return a;
}

Matrix transposed(const Matrix& a, std::int64_t m, std::int64_t n) {
  Matrix t(a.size());
  for (std::int64_t r = 0; r < m; ++r)
    for (std::int64_t c = 0; c < n; ++c)
      t[static_cast<std::size_t>(c * m + r)] = a[static_cast<std::size_t>(r * n + c)];
  return t;
}

// Every g x g block of the m x n matrix transposed in its own place.
void transpose_blocks(Matrix& a, std::int64_t n, std::int64_t g) {
  const std::int64_t m = static_cast<std::int64_t>(a.size()) / n;
  for (std::int64_t bi = 0; bi < m; bi += g)
    for (std::int64_t bj = 0; bj < n; bj += g)
      for (std::int64_t y = 0; y < g; ++y)
        for (std::int64_t x = y + 1; x < g; ++x)
          std::swap(a[static_cast<std::size_t>((bi + y) * n + bj + x)],
                    a[static_cast<std::size_t>((bi + x) * n + bj + y)]);
}

void copy_piece(Matrix& a, std::int64_t to, const std::int64_t* from, std::int64_t g) {
  std::copy(from, from + g, a.begin() + to * g);
}

const std::vector<std::pair<std::int64_t, std::int64_t>> kShapes = {
    {2, 4}, {4, 2}, {3, 9}, {9, 3}, {6, 4}, {4, 6}, {12, 18}, {18, 12}, {20, 8}, {8, 20},
    {5, 35}, {35, 5}, {30, 42}, {42, 30}, {64, 96}, {96, 64}, {7, 7 * 13}, {11 * 6, 11 * 4}};

TEST(PieceCycles, WholeCyclesGiveTheTranspose) {
  for (const auto& [m, n] : kShapes) {
    const plan::PieceMap map = plan::make_piece_map(m, n);
    ASSERT_EQ(map.g, std::gcd(m, n));
    Matrix a = numbered(m, n);
    const Matrix want = transposed(a, m, n);
    transpose_blocks(a, n, map.g);
    std::int64_t moved = 0;
    for (const plan::PieceCycle& c : plan::piece_cycles(map)) {
      ASSERT_GT(c.length, 1);
      const Matrix held(a.begin() + c.first * map.g, a.begin() + (c.first + 1) * map.g);
      std::int64_t t = c.first;
      for (std::int64_t s = map.source(t); s != c.first; t = s, s = map.source(t), ++moved)
        copy_piece(a, t, Matrix(a.begin() + s * map.g, a.begin() + (s + 1) * map.g).data(), map.g);
      copy_piece(a, t, held.data(), map.g);
      ++moved;
    }
    EXPECT_EQ(a, want) << m << " x " << n;
    // The cycles cover every place that moves, once.
    std::int64_t fixed = 0;
    for (std::int64_t t = 0; t < map.count(); ++t) fixed += map.source(t) == t;
    EXPECT_EQ(moved + fixed, map.count()) << m << " x " << n;
  }
}

// Segments of 1, 2, 3 and 16 places, cycles one place longer held whole or cut like the others, run in a
// shuffled order after every cut segment's first piece was saved, as the GPU's blocks may run.
TEST(PieceCycles, SegmentsInAnyOrderGiveTheTranspose) {
  std::mt19937 random(7);
  for (const auto& [m, n] : kShapes)
    for (const std::int64_t max_steps : {1, 2, 3, 16})
      for (const bool hold : {false, true}) {
        const plan::PieceMap map = plan::make_piece_map(m, n);
        const std::vector<plan::PieceCycle> cycles = plan::piece_cycles(map);
        const plan::PieceSegments cut = plan::piece_segments(cycles, map, max_steps, hold ? max_steps + 1 : 0);
        const std::vector<plan::PieceSegment>& segments = cut.segments;
        std::int64_t places = 0, in_cycles = 0;
        for (std::size_t k = 0; k < segments.size(); ++k) {
          const plan::PieceSegment& s = segments[k];
          EXPECT_GE(s.steps, 1);
          EXPECT_LE(s.steps, static_cast<std::int64_t>(k) < cut.saved ? max_steps : max_steps + 1);
          // Saved segments first, pointing at saved ones; held cycles after, pointing nowhere.
          if (static_cast<std::int64_t>(k) < cut.saved)
            EXPECT_TRUE(s.next >= 0 && s.next < cut.saved);
          else
            EXPECT_EQ(s.next, -1);
          places += s.steps;
        }
        for (const plan::PieceCycle& c : cycles) in_cycles += c.length;
        EXPECT_EQ(places, in_cycles) << m << " x " << n;
        if (!hold) EXPECT_EQ(cut.saved, static_cast<std::int64_t>(segments.size()));
        Matrix a = numbered(m, n);
        const Matrix want = transposed(a, m, n);
        transpose_blocks(a, n, map.g);
        const auto g = static_cast<std::size_t>(map.g);
        Matrix saved(static_cast<std::size_t>(cut.saved) * g);
        for (std::int64_t k = 0; k < cut.saved; ++k) {
          const auto at = a.begin() + segments[static_cast<std::size_t>(k)].first * map.g;
          std::copy(at, at + map.g, saved.begin() + k * map.g);
        }
        std::vector<std::size_t> order(segments.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::shuffle(order.begin(), order.end(), random);
        for (const std::size_t k : order) {
          const plan::PieceSegment& s = segments[k];
          const Matrix held(a.begin() + s.first * map.g, a.begin() + (s.first + 1) * map.g);
          std::int64_t t = s.first;
          for (std::int32_t i = 0; i < s.steps; ++i) {
            const std::int64_t from = map.source(t);
            if (i + 1 < s.steps)
              copy_piece(a, t, Matrix(a.begin() + from * map.g, a.begin() + (from + 1) * map.g).data(), map.g);
            else if (s.next >= 0)
              copy_piece(a, t, saved.data() + static_cast<std::size_t>(s.next) * g, map.g);
            else
              copy_piece(a, t, held.data(), map.g);
            t = from;
          }
        }
        EXPECT_EQ(a, want) << m << " x " << n << ", segments of " << max_steps << (hold ? ", short cycles held" : "");
      }
}

// The GPU's plan: pieces of 16 bytes or more in a tall or wide matrix, 32 where small blocks go in
// groups of a row of blocks, 256 where the blocks take a launch a row of blocks; accesses no wider
// than the pointer, the pieces and the batch stride allow; pieces of fewer than 32 units in
// power-of-two groups of threads; blocks that tile the matrix (a tall one's in one batch); the move's
// shared memory one piece a group where cycles are held whole.
TEST(PieceCycles, GpuPlanKeepsToTheAlignment) {
  using xpose::DType;
  using xpose::TransposeDesc;
  plan::PiecesConfig c;
  const std::int64_t smem = 227 << 10;
  EXPECT_FALSE(plan::choose_in_place_pieces(xpose::resolved({DType::f32, 997, 1009}), 16, smem, c));  // coprime
  // u8 blocks of 128 take the tile pairs, a launch a row of blocks: not for 128-byte pieces.
  EXPECT_FALSE(plan::choose_in_place_pieces(xpose::resolved({DType::u8, 256, 384}), 16, smem, c));
  plan::PiecesChoice any_size;
  any_size.any_size = true;
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::u8, 256, 384}), 16, smem, c, any_size));
  EXPECT_EQ(c.block_launches, 2);
  // Blocks of 2: 2 x 2 small squares, tall, with pieces of 16 bytes and more.
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::c128, 4096, 2}), 16, smem, c));
  EXPECT_EQ(c.block_config.kernel, plan::InPlaceKernel::small_squares);
  EXPECT_EQ(c.blocks.batch, 2048);
  EXPECT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::f64, 4096, 2}), 16, smem, c));
  EXPECT_FALSE(plan::choose_in_place_pieces(xpose::resolved({DType::f32, 4096, 2}), 16, smem, c));  // 8 bytes
  // In groups: 32 bytes and more.
  EXPECT_FALSE(plan::choose_in_place_pieces(xpose::resolved({DType::f64, 4094, 2046}), 16, smem, c));  // 16 bytes
  EXPECT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::c128, 2046, 1022}), 16, smem, c));
  // Small blocks of a matrix neither tall nor wide: one launch, a group of 3 blocks a row of blocks.
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::u8, 128, 192}), 16, smem, c));
  EXPECT_EQ(c.block_launches, 1);
  EXPECT_EQ(c.blocks.batch, 6);
  EXPECT_EQ(c.blocks.batch_stride_in, 64);
  EXPECT_EQ(c.blocks.ld_in, 192);
  EXPECT_EQ(c.block_config.kernel, plan::InPlaceKernel::small_squares);
  EXPECT_EQ(c.block_config.group_count, 3);
  EXPECT_EQ(c.block_config.group_stride, 64 * 192);
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::u8, 64, 4096}), 16, smem, c));     // 64-byte pieces
  EXPECT_EQ(c.block_launches, 1);
  EXPECT_EQ(c.unit_bytes, 16);
  EXPECT_EQ(c.group_threads, 4);
  EXPECT_EQ(c.threads, plan::kPieceGroupedThreads);
  EXPECT_EQ(c.held_bytes, 64 * plan::kPieceGroupedThreads / 4);  // cycles of 2 pieces, held whole
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::f64, 262144, 16}), 8, smem, c));  // 16, 128 bytes
  EXPECT_EQ(c.unit_bytes, 8);
  EXPECT_EQ(c.group_threads, 16);
  plan::PiecesChoice ungrouped;
  ungrouped.grouped = false;
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::f64, 262144, 16}), 8, smem, c, ungrouped));
  EXPECT_EQ(c.group_threads, 32);  // not grouped: one segment a block
  EXPECT_EQ(c.threads, 32);
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::f32, 64, 4096}), 16, smem, c));   // 256-byte pieces
  EXPECT_EQ(c.unit_bytes, 16);
  EXPECT_EQ(c.group_threads, 16);
  EXPECT_EQ(c.threads, plan::kPieceGroupedThreads);
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::f32, 128, 4096}), 16, smem, c));  // 512-byte pieces
  EXPECT_EQ(c.group_threads, 32);
  EXPECT_EQ(c.threads, 32);
  // Tall: one launch.
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::u8, 3000, 1000}), 16, smem, c));
  EXPECT_EQ(c.block_launches, 1);
  EXPECT_EQ(c.blocks.batch, 3);
  EXPECT_EQ(c.blocks.batch_stride_in, 1000 * 1000);
  EXPECT_EQ(c.unit_bytes, 8);  // 1000-byte pieces
  EXPECT_GT(c.segments.saved, 0);  // cycles of 1499 pieces, cut in 4s (3 MB: too little for 16s to fill the GPU)
  EXPECT_EQ(c.segments.saved, 2 * ((1499 + 3) / 4));
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::c128, 3000, 1000}), 16, smem, c));
  EXPECT_EQ(c.segments.saved, 2 * ((1499 + 10) / 11));  // 48 MB in 11s
  // Wide, the pointer on 2 bytes.
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::u8, 1000, 3000}), 2, smem, c));
  EXPECT_EQ(c.block_launches, 1);
  EXPECT_EQ(c.blocks.batch, 3);
  EXPECT_EQ(c.blocks.ld_in, 3000);
  EXPECT_EQ(c.blocks.batch_stride_in, 1000);
  EXPECT_EQ(c.unit_bytes, 2);
  // 2 x 3 blocks of 300.
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::bf16, 600, 900}), 16, smem, c));
  EXPECT_EQ(c.block_launches, 2);
  EXPECT_EQ(c.blocks.batch, 3);
  EXPECT_EQ(c.unit_bytes, 8);  // 600-byte pieces
  // Matrices 4 bytes off the 16-byte grid.
  const TransposeDesc gaps{DType::f32, 4096, 2048, 3, 0, 0, 4096 * 2048 + 1, 0};
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved(gaps), 16, smem, c));
  EXPECT_EQ(c.unit_bytes, 4);
  // Pieces past shared memory: every cycle cut and saved, no piece held.
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::f32, 2048, 1024}), 16, 2048, c));
  EXPECT_EQ(c.segments.saved, static_cast<std::int64_t>(c.segments.segments.size()));
  EXPECT_EQ(c.held_bytes, 0);
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::f32, 2048, 1024}), 16, smem, c));
  EXPECT_EQ(c.held_bytes, 4096);
  EXPECT_LE(c.saved_bytes(), 2048 * 1024 * 4 / 4);
  // Sides both past the shuffles' shared memory, sharing 60000: pieces of 240000 bytes, none held.
  ASSERT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::f32, 60000, 120000}), 16, smem, c));
  EXPECT_EQ(c.held_bytes, 0);
  EXPECT_EQ(c.threads, plan::kPieceMaxThreads);
  EXPECT_LE(c.saved_bytes(), plan::kPieceSavedMaxBytes);  // 28.8 GB of matrix, 64 MiB of saved pieces
  // A one-call transpose where the shuffles can run: pieces of 8 KiB or more only.
  plan::PiecesChoice one_call;
  one_call.min_piece_bytes = plan::kOneCallMinPieceBytes;
  EXPECT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::u8, 1048576, 32}), 16, smem, c));
  EXPECT_FALSE(plan::choose_in_place_pieces(xpose::resolved({DType::u8, 1048576, 32}), 16, smem, c, one_call));
  EXPECT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::c128, 4096, 512}), 16, smem, c, one_call));
  EXPECT_FALSE(plan::choose_in_place_pieces(xpose::resolved({DType::f32, 2047, 2 * 2047}), 16, smem, c, one_call));
  // At most 2^25 pieces: f64 2^26 x 2 has twice that (refused before any cycle is walked).
  EXPECT_FALSE(plan::choose_in_place_pieces(xpose::resolved({DType::f64, std::int64_t{1} << 26, 2}), 16, smem, c));
  // Batches of small matrices take the shuffles (four launches a matrix here); of large ones, not.
  EXPECT_FALSE(plan::choose_in_place_pieces(xpose::resolved({DType::c128, 32, 48, 100000}), 16, smem, c));
  EXPECT_TRUE(plan::choose_in_place_pieces(xpose::resolved({DType::f32, 2048, 4096, 3}), 16, smem, c));
}

}  // namespace
