// The GPU's non-square in-place transpose, on the CPU: its division by multiplication, its passes
// replayed element by element with the maps and in the order the kernels run them (both views), and
// the planner's blocks, which must fit the shared memory it was given.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "plan/in_place_shuffles.hpp"
#include "plan/shuffle_maps.hpp"

namespace {

using xpose::DType;
using xpose::TransposeDesc;
namespace plan = xpose::plan;

TEST(ShuffleMaps, Div64MatchesDivision) {
  std::mt19937_64 rng(20261129);
  std::vector<std::int64_t> divisors = {1, 2, 3, 5, 7, 8, 31, 32, 33, 1000, 65535, 65536, 65537, 1000003,
                                        (std::int64_t{1} << 30) + 1, (std::int64_t{1} << 31) - 1};
  for (int i = 0; i < 200; ++i) divisors.push_back(1 + static_cast<std::int64_t>(rng() % ((std::int64_t{1} << 31) - 1)));
  const std::int64_t top = std::numeric_limits<std::int64_t>::max();
  for (const std::int64_t d : divisors) {
    const plan::Div64 f = plan::make_div64(d);
    std::vector<std::int64_t> xs = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, top, top - 1, top - d};
    for (int i = 0; i < 200; ++i) xs.push_back(static_cast<std::int64_t>(rng() >> 1));
    for (int i = 0; i < 50; ++i) xs.push_back(static_cast<std::int64_t>(rng() % (std::int64_t{1} << 40)));
    // Numerators just below and at multiples of d, where a rounding error would show first.
    for (int i = 0; i < 50; ++i) {
      const std::int64_t q = static_cast<std::int64_t>(rng() >> 1) / d;
      xs.push_back(q * d);
      if (q > 0) xs.push_back(q * d - 1);
    }
    for (const std::int64_t x : xs)
      if (x >= 0) ASSERT_EQ(plan::quot(x, f), x / d) << x << " / " << d;
  }
}

// The kernels' passes on one m x n matrix of distinct values, as shuffle_columns_kernel and
// shuffle_rows_kernel move them (every column or row read whole before it is written).
std::vector<std::int64_t> replay(const plan::ShuffleConfig& c, std::int64_t m, std::int64_t n) {
  std::vector<std::int64_t> x(static_cast<std::size_t>(m * n));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<std::int64_t>(i);
  const plan::ShuffleShape s = plan::make_shuffle_shape(c.view_rows, c.view_cols);
  const std::int64_t rows = c.view_rows, cols = c.view_cols;
  plan::ShufflePass passes[3];
  const int count = plan::shuffle_passes(c, passes);
  for (int p = 0; p < count; ++p) {
    std::vector<std::int64_t> next(x.size());
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t j = 0; j < cols; ++j) {
        const std::int64_t here = r * cols + j;
        std::int64_t there = 0;
        switch (passes[p].map) {
          case plan::ShuffleMap::rotation: there = plan::rotation_source_row(s, r, j) * cols + j; break;
          case plan::ShuffleMap::final_rows: there = plan::final_source_row(s, r, j) * cols + j; break;
          case plan::ShuffleMap::rows: there = r * cols + plan::scatter_column(s, r, j); break;
        }
        // Column passes gather forward and scatter inverted; the row pass the other way round.
        const bool gather = (passes[p].map == plan::ShuffleMap::rows) == passes[p].inverse;
        if (gather)
          next[here] = x[there];
        else
          next[there] = x[here];
      }
    x = next;
  }
  return x;
}

void expect_transposes(std::int64_t m, std::int64_t n, bool transposed_view) {
  plan::ShuffleConfig c;
  c.transposed_view = transposed_view;
  c.view_rows = transposed_view ? n : m;
  c.view_cols = transposed_view ? m : n;
  c.rotate = std::gcd(m, n) > 1;
  const std::vector<std::int64_t> x = replay(c, m, n);
  // Input element (i, j) = i n + j belongs at (j, i) of the n x m output.
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      ASSERT_EQ(x[static_cast<std::size_t>(j * m + i)], i * n + j)
          << m << " x " << n << (transposed_view ? " (transposed view)" : "") << " at input (" << i << ", " << j << ")";
}

TEST(ShuffleMaps, PassesTransposeInBothViews) {
  for (std::int64_t m = 1; m <= 24; ++m)
    for (std::int64_t n = 1; n <= 24; ++n)
      for (const bool transposed_view : {false, true}) expect_transposes(m, n, transposed_view);
  for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {1000, 3}, {3, 1000}, {256, 384}, {384, 256}, {1000, 3000}, {997, 1009}, {64, 4096}, {2048, 1030}})
    for (const bool transposed_view : {false, true}) expect_transposes(m, n, transposed_view);
}

// Where the rows R divide the columns C (b = C / R), the row scatter is a transpose with a rotated short
// index, which shuffle_long_rows_tiled_kernel moves in tiles: element q b + p of row r goes to p R +
// (r - q) mod R.
TEST(ShuffleMaps, RowScatterIsARotatedTransposeWhereRowsDivideColumns) {
  for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {2, 6}, {3, 9}, {4, 4096}, {16, 4096}, {32, 1048576}, {7, 700}})
    for (std::int64_t r = 0; r < rows; ++r) {
      const plan::ShuffleShape s = plan::make_shuffle_shape(rows, cols);
      const std::int64_t b = cols / rows;
      for (std::int64_t q = 0; q < rows; ++q)
        for (std::int64_t p = 0; p < b; p += std::max<std::int64_t>(1, b / 64))
          ASSERT_EQ(plan::scatter_column(s, r, q * b + p), p * rows + (r - q + rows) % rows)
              << rows << " x " << cols << " row " << r << " q " << q << " p " << p;
    }
}

TEST(InPlaceShufflesPlanner, BlocksFitTheSharedMemory) {
  for (const DType t : {DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128})
    for (const std::int64_t limit : {std::int64_t{48} << 10, std::int64_t{64} << 10, std::int64_t{227} << 10})
      for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{
               {2, 3}, {3, 1000}, {1000, 3}, {1000, 3000}, {3000, 1000}, {4096, 8192}, {8192, 100}, {70000, 20},
               {20, 70000}, {12000, 7}, {1048576, 32}, {3, 4194304}, {60000, 60001}}) {
        const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
        const TransposeDesc d{t, m, n, 2, n, m, m * n, m * n};
        plan::ShuffleConfig c;
        const xpose::Status s = plan::choose_in_place_shuffles(d, limit, c);
        const std::string what = std::string(xpose::dtype_name(t)) + " " + std::to_string(m) + " x " +
                                 std::to_string(n) + " limit " + std::to_string(limit);
        const std::int64_t group = plan::shuffle_row_group_elements(static_cast<int>(e));
        const auto row_bytes = [&](std::int64_t rows, std::int64_t cols) {
          return (rows * cols + group - 1) / group * group * e;
        };
        const auto fits = [&](std::int64_t rows, std::int64_t cols) {
          return rows * e <= limit && row_bytes(1, cols) <= limit;
        };
        if (std::min(m, n) * e > limit) {
          EXPECT_EQ(s.code(), xpose::StatusCode::unsupported) << what;
          EXPECT_NE(s.message().find("shared memory"), std::string::npos) << s.message();
          continue;
        }
        ASSERT_TRUE(s.ok()) << what << ": " << s.message();
        EXPECT_EQ(c.long_rows, !fits(m, n) && !fits(n, m)) << what;
        if (c.long_rows) {
          // The view whose columns fit; scratch of whole rows, at least one, within the share.
          EXPECT_LE(c.view_rows * e, limit) << what;
          EXPECT_GE(c.staged_rows, 1) << what;
          EXPECT_LE(c.staged_rows, c.view_rows) << what;
          EXPECT_EQ(c.scratch_bytes, c.staged_rows * c.view_cols * e) << what;
          EXPECT_TRUE(c.staged_rows == 1 ||
                      c.scratch_bytes <= std::min(plan::kShuffleScratchMaxBytes, m * n * e / plan::kShuffleScratchShare))
              << what;
          // Tiles where the short side divides the long one and two of its columns fit the shared memory.
          EXPECT_EQ(c.long_tile > 0, c.view_cols % c.view_rows == 0 && c.view_rows * 2 * e <= limit) << what;
          if (c.long_tile > 0) {
            EXPECT_LE(c.long_tile, c.view_cols / c.view_rows) << what;
            EXPECT_LE(c.view_rows * (c.long_tile + 1) * e, limit) << what;
          }
        }
        EXPECT_EQ(c.view_rows, c.transposed_view ? n : m) << what;
        EXPECT_EQ(c.view_cols, c.transposed_view ? m : n) << what;
        EXPECT_EQ(c.rotate, std::gcd(m, n) > 1) << what;
        EXPECT_GE(c.column_width, 1) << what;
        EXPECT_EQ(c.column_width & (c.column_width - 1), 0) << what;  // a power of two
        // The piece, or more columns for short ones.
        EXPECT_TRUE(c.column_width * e <= plan::shuffle_column_piece_bytes(static_cast<int>(e)) ||
                    c.view_rows * c.column_width <= 2 * plan::kShuffleColumnThreads * plan::kShuffleColumnElementsPerThread)
            << what;
        EXPECT_LE(c.column_width, plan::kShuffleColumnThreads) << what;
        EXPECT_EQ(c.column_smem_bytes, c.view_rows * c.column_width * e) << what;
        EXPECT_LE(c.column_smem_bytes, limit) << what;
        EXPECT_EQ(c.column_blocks * c.column_width >= c.view_cols, true) << what;
        EXPECT_LT((c.column_blocks - 1) * c.column_width, c.view_cols) << what;
        if (c.long_rows) continue;
        EXPECT_GE(c.rows_per_block, 1) << what;
        EXPECT_EQ(c.row_smem_bytes, c.swizzle_rows ? row_bytes(c.rows_per_block, c.view_cols)
                                                   : c.rows_per_block * c.view_cols * e)
            << what;
        EXPECT_LE(c.row_smem_bytes, limit) << what;
        EXPECT_EQ(c.row_blocks, (c.view_rows + c.rows_per_block - 1) / c.rows_per_block) << what;
      }
}

// Every row block index lands on its own slot within the block's whole groups.
TEST(InPlaceShufflesPlanner, RowSlotsAreABijectionOnWholeGroups) {
  for (const int e : {1, 2, 4, 8, 16}) {
    const std::uint32_t group = static_cast<std::uint32_t>(plan::shuffle_row_group_elements(e));
    for (const std::uint32_t groups : {1u, 3u, 33u, 1025u}) {
      std::vector<bool> seen(groups * group, false);
      for (std::uint32_t x = 0; x < groups * group; ++x) {
        const std::uint32_t slot = plan::shuffle_row_slot(x, e);
        ASSERT_LT(slot, groups * group) << e << " " << x;
        ASSERT_EQ(slot / group, x / group) << e << " " << x;  // stays in its group
        ASSERT_FALSE(seen[slot]) << e << " " << x;
        seen[slot] = true;
      }
    }
  }
}

// Lanes whose elements lie a power of two apart (the row pass's scatter when rows mod cols is one)
// reach 32 different banks for 1- to 4-byte elements, or 31 (one 2-way conflict, where the lanes'
// group numbers carry across a digit), against one bank unswizzled.
TEST(InPlaceShufflesPlanner, RowSlotsSpreadPowerOfTwoStridesOverTheBanks) {
  for (const int e : {1, 2, 4})
    for (std::uint32_t stride = 32; stride <= 8192; stride *= 2)
      for (const std::uint32_t first : {0u, 5u, 1000u}) {
        std::set<std::uint32_t> banks;
        for (std::uint32_t lane = 0; lane < 32; ++lane)
          banks.insert(plan::shuffle_row_slot(first + lane * stride, e) * e / 4 % 32);
        EXPECT_GE(banks.size(), 31u) << "element " << e << " stride " << stride << " first " << first;
      }
}

TEST(InPlaceShufflesPlanner, TakesTheViewWithWiderColumnBlocks) {
  plan::ShuffleConfig c;
  // Columns of 20 rows, many to a block (a column a thread: 20 elements each, at least
  // kShuffleColumnElementsPerThread); columns of 70000 rows would be one element wide.
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::u8, 70000, 20}, 227 << 10, c).ok());
  EXPECT_TRUE(c.transposed_view);
  EXPECT_EQ(c.view_rows, 20);
  EXPECT_EQ(c.column_width, plan::kShuffleColumnThreads);
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::u8, 20, 70000}, 227 << 10, c).ok());
  EXPECT_FALSE(c.transposed_view);
  // Columns of 1000 rows fit lines, of 3000 rows half lines.
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::f32, 1000, 3000}, 227 << 10, c).ok());
  EXPECT_FALSE(c.transposed_view);
  EXPECT_EQ(c.column_width, 32);
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::f32, 3000, 1000}, 227 << 10, c).ok());
  EXPECT_TRUE(c.transposed_view);
  // Equal widths: the shorter columns.
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::u8, 1000, 3000}, 227 << 10, c).ok());
  EXPECT_FALSE(c.transposed_view);
  EXPECT_EQ(c.column_width, 32);
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::u8, 3000, 1000}, 227 << 10, c).ok());
  EXPECT_TRUE(c.transposed_view);
  // A forced piece where it fits.
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::f32, 1000, 3000}, 227 << 10, c, 16).ok());
  EXPECT_EQ(c.column_width, 4);
}

// 1- and 2-byte elements move in 4-byte words only where every word a thread takes is aligned: the
// pointer on 4 bytes, the view's rows and the batch stride whole words, and for the column passes
// column blocks of whole words; the row pass not through scratch. Never for wider elements.
TEST(InPlaceShufflesPlanner, WordsOnlyWhereEveryWordIsAligned) {
  struct Case {
    TransposeDesc desc;
    int alignment;
    bool column_words, row_words;
  };
  const std::vector<Case> cases = {
      {{DType::u8, 1000, 3000}, 16, true, true},
      {{DType::u8, 3000, 1000}, 4, true, true},
      {{DType::u8, 1000, 3000}, 2, false, false},     // the pointer off the 4-byte grid
      {{DType::u8, 997, 1009}, 16, false, false},     // rows of odd length
      {{DType::u8, 1002, 3002}, 16, false, false},    // rows of 2 mod 4 bytes
      {{DType::bf16, 1002, 3002}, 16, true, true},    // rows of whole words
      {{DType::bf16, 1001, 3002}, 4, true, true},     // the view's rows of 3002 elements
      {{DType::bf16, 1002, 3002}, 2, false, false},
      {{DType::u8, 60000, 60004}, 16, false, true},   // columns of 60000 rows take 2 bytes a row
      {{DType::u8, 250000, 4}, 16, true, false},      // the 4 x 250000 view's rows through scratch
      {{DType::f32, 1000, 3000}, 16, false, false},   // 4-byte elements are words already
      {{DType::u8, 36, 12, 7, 0, 0, 36 * 12 + 4, 0}, 16, true, true},
      {{DType::u8, 36, 12, 7, 0, 0, 36 * 12 + 2, 0}, 16, false, false},  // a batch stride of 2 mod 4 bytes
      {{DType::u8, 33, 12, 1000, 0, 0, 0, 0}, 16, false, false},         // the 12 x 33 view
  };
  for (const Case& k : cases) {
    plan::ShuffleConfig c;
    ASSERT_TRUE(plan::choose_in_place_shuffles(xpose::resolved(k.desc), 227 << 10, c, 0, k.alignment).ok());
    const std::string what = std::string(xpose::dtype_name(k.desc.dtype)) + " " + std::to_string(k.desc.rows) + " x " +
                             std::to_string(k.desc.cols) + " batch " + std::to_string(k.desc.batch) + " aligned to " +
                             std::to_string(k.alignment);
    EXPECT_EQ(c.column_words, k.column_words) << what;
    EXPECT_EQ(c.row_words, k.row_words) << what;
    // Whatever the flags, a word never straddles what the kernels take as one.
    const int w = plan::shuffle_word_elements(static_cast<int>(xpose::dtype_size(k.desc.dtype)));
    if (c.column_words || c.row_words) {
      EXPECT_GT(w, 1) << what;
      EXPECT_EQ(k.alignment % 4, 0) << what;
      EXPECT_EQ(c.view_cols % w, 0) << what;
    }
    if (c.column_words) EXPECT_EQ(c.column_width % w, 0) << what;
    if (c.row_words) EXPECT_FALSE(c.long_rows) << what;
    EXPECT_EQ(c.column_word_loads, c.column_words ? (2 * c.column_smem_bytes > (227 << 10) ? 8 : 4) : 0) << what;
  }
  // Column blocks of 4096 rows x 32 bytes fill more than half of the shared memory: one block an SM,
  // whose threads keep 8 words in flight.
  plan::ShuffleConfig c;
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::u8, 16384, 4096}, 227 << 10, c, 0, 16).ok());
  EXPECT_EQ(c.column_smem_bytes, 4096 * 32);
  EXPECT_EQ(c.column_word_loads, 8);
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::u8, 65536, 1024}, 227 << 10, c, 0, 16).ok());
  EXPECT_EQ(c.column_word_loads, 4);
}

// One row or one column moves nothing (and allocates no scratch, however long); sides of 2^31 elements
// or more are refused (the kernels' maps are 32-bit), with a message.
TEST(InPlaceShufflesPlanner, OneRowMovesNothingAndLongSidesAreRefused) {
  plan::ShuffleConfig c;
  for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {1, 7}, {7, 1}, {1, std::int64_t{1} << 32}, {std::int64_t{1} << 32, 1}}) {
    ASSERT_TRUE(plan::choose_in_place_shuffles({DType::u8, m, n}, 227 << 10, c).ok()) << m << " x " << n;
    EXPECT_EQ(c.view_rows, m);
    EXPECT_EQ(c.view_cols, n);
    EXPECT_FALSE(c.long_rows);
    EXPECT_EQ(c.scratch_bytes, 0);
  }
  for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {2, std::int64_t{1} << 31}, {std::int64_t{1} << 31, 2}, {2, (std::int64_t{1} << 32) + 2}}) {
    const xpose::Status s = plan::choose_in_place_shuffles({DType::u8, m, n}, 227 << 10, c);
    EXPECT_EQ(s.code(), xpose::StatusCode::unsupported) << m << " x " << n;
    EXPECT_NE(s.message().find("under 2^31"), std::string::npos) << s.message();
  }
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::u8, 2, (std::int64_t{1} << 31) - 2}, 227 << 10, c).ok());
  EXPECT_TRUE(c.long_rows);
}

// The swizzle where the plain scatter conflicts 8 ways or more: u8 65536 x 1024 (a 1024 x 65536 view,
// elements 1024 bytes apart, 32 ways), not u8 16384 x 4096 (4 ways) or coprime extents.
TEST(InPlaceShufflesPlanner, SwizzlesRowsWhoseScatterConflicts) {
  plan::ShuffleConfig c;
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::u8, 65536, 1024}, 227 << 10, c).ok());
  const plan::ShuffleShape wide = plan::make_shuffle_shape(c.view_rows, c.view_cols);
  EXPECT_EQ(plan::row_scatter_ways(wide, c.rows_per_block, 1, false), 32);
  EXPECT_LE(plan::row_scatter_ways(wide, c.rows_per_block, 1, true), 2);
  EXPECT_TRUE(c.swizzle_rows);
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::u8, 16384, 4096}, 227 << 10, c).ok());
  EXPECT_LT(plan::row_scatter_ways(plan::make_shuffle_shape(c.view_rows, c.view_cols), c.rows_per_block, 1, false), 8);
  EXPECT_FALSE(c.swizzle_rows);
  ASSERT_TRUE(plan::choose_in_place_shuffles({DType::f32, 997, 1009}, 227 << 10, c).ok());
  EXPECT_FALSE(c.swizzle_rows);
}

}  // namespace
