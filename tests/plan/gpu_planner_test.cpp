// The GPU planner's choices, on the CPU: valid tiles, and never a vector width the layout forbids.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "plan/candidates.hpp"
#include "plan/gpu_planner.hpp"
#include "plan/tiled_vec_shape.hpp"
#include "row_layout_cases.hpp"
#include "test_support.hpp"
#include "vector_width_checks.hpp"

namespace {

using xpose::Algorithm;
using xpose::DType;

const DType kTypes[] = {DType::u8, DType::f16, DType::f32, DType::f64, DType::c128};

TEST(GpuPlanner, NeverVectorisesWhatTheAlignmentForbids) {
  std::mt19937_64 rng(0x91a2);
  std::uniform_int_distribution<std::int64_t> extent(1, 5000), pad(0, 40), batch(1, 4);
  for (int i = 0; i < 5000; ++i) {
    const DType t = kTypes[i % 5];
    const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
    xpose::TransposeDesc d{t, extent(rng), extent(rng), batch(rng)};
    d.ld_in = d.cols + pad(rng);
    d.ld_out = d.rows + pad(rng);
    d = xpose::resolved(d);
    for (int alignment : {1, 2, 4, 8, 16, 256}) {
      const Algorithm a = xpose::plan::choose_gpu_algorithm(d, alignment);
      EXPECT_EQ(a == Algorithm::vector_copy, xpose::plan::transpose_is_copy(d)) << "packed vectors, and only they";
      if (a == Algorithm::vector_copy) continue;
      if (xpose::plan::batch_takes_skinny(d)) {
        EXPECT_EQ(a, Algorithm::skinny) << "batches of a short and a long side take skinny";
        continue;
      }
      xpose::LaunchConfig c;
      const xpose::Status s = xpose::plan::configure_tiled_vec(d, alignment, 132, c);
      if (!s.ok()) EXPECT_NE(a, Algorithm::tiled_vec) << "picked a kernel that cannot run";
      // The widest access the layout allows is taken: 16-byte ones wherever they fit (tiled_unaligned
      // only for the mid-sector output rows of 4- to 16-byte elements), narrower ones for 1- and
      // 2-byte elements.
      const bool full_width = s.ok() && c.vector_bytes == 16;
      if (full_width && d.rows > xpose::plan::kSkinnyMaxShort && xpose::plan::gather_suits(d))
        EXPECT_EQ(a, Algorithm::gather) << "small matrices on the 16-byte grid take the gather kernel";
      if (a == Algorithm::gather) {
        EXPECT_TRUE((full_width && (xpose::plan::gather_suits(d) || xpose::plan::gather_fills_short_rows(d) ||
                                    xpose::plan::gather_fills_short_columns(d) ||
                                    xpose::plan::gather_fills_batch_tiles(d))) ||
                    xpose::plan::gather_takes_off_grid_input(d, alignment) ||
                    xpose::plan::gather_takes_few_rows(d, alignment))
            << "gather only for small matrices, batches of short or part-tiled ones, or tall ones of a few "
               "columns on the 16-byte grid, 2-byte elements with input rows off it, and few rows off it";
        EXPECT_GE(alignment, 16) << "gather writes 16-byte vectors";
        EXPECT_TRUE(xpose::plan::gather_runs(d, alignment));
        EXPECT_EQ(d.ld_out * e % 16, 0) << "output rows on the 16-byte grid";
        continue;
      }
      if (a == Algorithm::small_batch) {
        EXPECT_TRUE(xpose::plan::small_batch_suits(d, alignment)) << "small_batch only where its rule holds";
        EXPECT_TRUE(d.batch > 1 && d.rows * d.cols * e <= xpose::plan::kSmallBatchMaxWholeMatrixBytes)
            << "batches of matrices that fit the kernel's tile, or one whole matrix per block";
        if (d.rows * d.cols * e > xpose::plan::kSmallBatchMaxMatrixBytes)
          EXPECT_TRUE(xpose::plan::input_packed(d) && xpose::plan::output_packed(d))
              << "one whole matrix per block only for packed batches";
        continue;
      }
      if (xpose::plan::tiled_vec_takes_wrapping_batch(d, alignment)) {
        EXPECT_EQ(a, Algorithm::tiled_vec) << "8-16 KiB matrices, wrapping vectors read in order: tiled_vec";
        EXPECT_EQ(c.vector_bytes, 8);
      } else if (xpose::plan::small_batch_suits(d, alignment) &&
                 !(full_width && xpose::plan::small_tiles_fill_batch(d))) {
        ADD_FAILURE() << "batches of small matrices take small_batch, got " << xpose::algorithm_name(a);
      }
      const bool wide_registers = xpose::plan::few_rows_take_wide_registers(d, alignment);
      if (wide_registers) {
        EXPECT_EQ(a, Algorithm::skinny) << "9 to 48 rows of 1- and 2-byte elements: skinny's register kernel";
        EXPECT_TRUE(e <= 2 && alignment >= 8 && d.ld_out == d.rows && d.rows >= 9 && d.rows <= 48);
      }
      if (xpose::plan::few_rows_take_tiles(d, alignment) && !wide_registers)
        EXPECT_EQ(a, Algorithm::tiled_vec) << "10 to 16 rows in whole output vectors take 16-row tiles";
      if (a == Algorithm::skinny) {
        EXPECT_TRUE(std::min(d.rows, d.cols) <= xpose::plan::kSkinnyMaxShort ||
                    xpose::plan::short_side_takes_skinny(d, alignment) || wide_registers ||
                    xpose::plan::few_rows_output_off_grid_take_slabs(d, alignment, -1))
            << "skinny only for a short side";
        continue;
      }
      if (xpose::plan::short_side_takes_skinny(d, alignment))
        ADD_FAILURE() << "a short side that skinny serves best, got " << xpose::algorithm_name(a);
      if (a == Algorithm::tiled_sectors) {
        EXPECT_TRUE(xpose::plan::tiled_sectors_suits(d, alignment)) << "tiled_sectors only where its rule holds";
        EXPECT_TRUE(e <= 2 && alignment >= 8 && d.ld_out * e % 8 == 0 && d.ld_in * e % 8 == 0)
            << "packed 1- and 2-byte elements, 8-byte loads, output rows on the 8-byte grid";
        EXPECT_FALSE(xpose::plan::output_rows_sector_aligned(d)) << "output rows that start mid-sector";
        continue;
      }
      if (d.rows > xpose::plan::kSkinnyMaxShort && xpose::plan::tiled_sectors_suits(d, alignment))
        ADD_FAILURE() << "large 1- and 2-byte matrices with output rows mid-sector take tiled_sectors, got "
                      << xpose::algorithm_name(a);
      if (full_width && a != Algorithm::tiled_vec && d.rows > xpose::plan::kSkinnyMaxShort)
        EXPECT_TRUE(a == Algorithm::tiled_unaligned && xpose::plan::mid_sector_takes_unaligned(d))
            << "passed over the fast path where it fits";
      if (a == Algorithm::tiled_unaligned && full_width)
        EXPECT_TRUE(e >= 4 && !xpose::plan::output_rows_sector_aligned(d) && std::min(d.rows, d.cols) >= 2048)
            << "on the 16-byte grid, tiled_unaligned only for large matrices of 4- to 16-byte elements, output "
               "rows mid-sector";
      const bool lines = xpose::plan::lines_take_mid_sector_output(d, alignment);
      if (lines) EXPECT_EQ(a, Algorithm::tiled_unaligned) << "mid-sector output rows with enough tiles take the lines";
      if (s.ok() && !full_width && e <= 2 && d.rows > xpose::plan::kSkinnyMaxShort &&
          d.cols > xpose::plan::kSkinnyMaxShort && !lines)
        EXPECT_EQ(a, Algorithm::tiled_vec) << "1- and 2-byte elements take the narrower accesses";
      if (a == Algorithm::tiled_unaligned)
        EXPECT_GE(alignment, e) << "tiled_unaligned reads whole elements from element-aligned pointers";
      if (a != Algorithm::tiled_vec) continue;
      const int v = c.vector_bytes;
      EXPECT_TRUE(v == 16 || v == 8) << v;
      ASSERT_GE(alignment, v);
      xpose_test::expect_strides_allow_vector(d, v);
      if (v < 16 && alignment >= 2 * v) {
        const auto on_wider_grid = [&](std::int64_t stride) { return stride * e % (2 * v) == 0; };
        EXPECT_FALSE(on_wider_grid(d.ld_in) && on_wider_grid(d.ld_out) &&
                     (d.batch == 1 || (on_wider_grid(d.batch_stride_in) && on_wider_grid(d.batch_stride_out))))
            << "a wider access fits";
      }
      // The tile fills the shared memory and is wide and tall enough for the store phase.
      const std::int64_t tile_bytes = c.tile_rows * c.tile_cols * e;
      const bool small = (xpose::tiled_vec_halves_mid_size_tiles(static_cast<int>(e), d.batch * d.rows * d.cols * e) &&
                          !xpose::plan::two_byte_eight_byte_grid_keeps_tiles(d, v)) ||
                         xpose::plan::one_byte_matrices_take_ldmatrix_tiles(d, v) ||
                         d.batch * d.rows * d.cols * e < xpose::kVecSmallMatrixBytes ||
                         xpose::tiled_vec_halves_narrow_tiles(static_cast<int>(e), static_cast<int>(c.tile_cols * e)) ||
                         xpose::tiled_vec_halves_wide_element_tiles(static_cast<int>(e), d.rows, d.cols, d.ld_in) ||
                         xpose::tiled_vec_halves_short_tiles(d.rows) ||
                         xpose::plan::tiled_vec_sixteen_row_tiles(d, v);
      const bool small_matrix = d.batch * d.rows * d.cols * e < xpose::kVecSmallMatrixBytes;
      if (tile_bytes == xpose::kVecTileBytesTiny && e == 1) {
        EXPECT_TRUE(small_matrix) << "quarter-size tiles only for small matrices";
        EXPECT_LT(c.grid_x, 4 * 132) << "quarter-size tiles only where 8 KiB ones are fewer than the SMs";
      } else if (tile_bytes <= xpose::kVecTileBytesTiny) {
        EXPECT_TRUE(small_matrix && v == 16) << "2 and 4 KiB tiles only for small matrices with 16-byte accesses";
        EXPECT_TRUE(c.tile_rows == 16 || c.tile_cols >= d.cols)
            << "the small tiles of wider elements have 16 rows, more only where a tile row spans the matrix's";
        if (e == 16 && !xpose::plan::small_tiles_fill_batch(d))
          EXPECT_EQ(tile_bytes, xpose::kVecTileBytesMicro) << "16-byte elements skip 4 KiB tiles";
        if (xpose::plan::small_tiles_fill_batch(d))
          EXPECT_EQ(tile_bytes, xpose::kVecTileBytesTiny) << "batches that 4 KiB tiles fill take them";
        if (tile_bytes == xpose::kVecTileBytesMicro)
          EXPECT_LT(c.grid_x, 2 * 2 * 132) << "2 KiB tiles (at most twice as many) where 4 KiB ones are under 2 per SM";
      } else {
        EXPECT_EQ(tile_bytes, small                                                  ? xpose::kVecTileBytesSmall
                              : xpose::plan::two_byte_matrices_take_large_tiles(d, v) ? xpose::kVecTileBytesLarge
                                                                                      : xpose::kVecTileBytes);
        EXPECT_TRUE(!small_matrix || e == 1 || e == 16 || v == 8 || tile_bytes == xpose::kVecTileBytes)
            << "small matrices of 2- to 8-byte elements with 16-byte accesses take the small tiles";
      }
      EXPECT_EQ(c.block_x, xpose::tiled_vec_threads(static_cast<int>(e), static_cast<int>(tile_bytes)));
      EXPECT_GE(c.tile_rows * e, 16) << "one 16-byte output vector spans 16 / e tile rows";
      EXPECT_GE(c.tile_cols * e, xpose::tiled_vec_min_row_bytes(static_cast<int>(e), static_cast<int>(tile_bytes)));
      if (c.tile_cols * e < xpose::kVecMinRowBytes)
        EXPECT_TRUE(e == 1 && d.cols <= 32) << "32-byte tile rows only for matrices of at most 32 one-byte columns";
      EXPECT_LE(c.tile_cols * e, xpose::tiled_vec_max_row_bytes(static_cast<int>(e), static_cast<int>(tile_bytes)));
      // One block per tile.
      const std::int64_t tiles = d.batch * ((d.rows + c.tile_rows - 1) / c.tile_rows) *
                                 ((d.cols + c.tile_cols - 1) / c.tile_cols);
      EXPECT_EQ(c.grid_x, tiles);
      EXPECT_EQ(c.grid_y, 1);
    }
  }
}

// A row or column vector packed on both sides is its own transpose in memory: one device copy. Any
// gap between its elements (or, in a batch, between matrices) leaves it to the transposing kernels.
TEST(GpuPlanner, PackedVectorsAreCopies) {
  const auto choice = [](DType t, std::int64_t r, std::int64_t c, std::int64_t batch = 1, std::int64_t ld_in = 0,
                         std::int64_t ld_out = 0, std::int64_t bs_in = 0, std::int64_t bs_out = 0) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c, batch, ld_in, ld_out, bs_in, bs_out}), 1);
  };
  for (DType t : kTypes) {
    EXPECT_EQ(choice(t, 2920153, 1), Algorithm::vector_copy) << xpose::dtype_name(t) << " column";
    EXPECT_EQ(choice(t, 1, 8388607), Algorithm::vector_copy) << xpose::dtype_name(t) << " row";
    EXPECT_EQ(choice(t, 1, 1), Algorithm::vector_copy) << "one element";
    EXPECT_EQ(choice(t, 1000, 1, 64), Algorithm::vector_copy) << "a packed batch of columns";
    EXPECT_EQ(choice(t, 1, 1000, 64), Algorithm::vector_copy) << "a packed batch of rows";
    EXPECT_EQ(choice(t, 1, 1, 100000), Algorithm::vector_copy) << "a packed batch of single elements";
    EXPECT_EQ(choice(t, 1, 1000, 1, 1024), Algorithm::vector_copy) << "one row: ld_in never steps";
    EXPECT_EQ(choice(t, 1000, 1, 1, 0, 1024), Algorithm::vector_copy) << "one output row: ld_out never steps";
    EXPECT_NE(choice(t, 1000, 1, 1, 2), Algorithm::vector_copy) << "input elements 2 apart";
    EXPECT_NE(choice(t, 1, 1000, 1, 0, 3), Algorithm::vector_copy) << "output elements 3 apart";
    EXPECT_NE(choice(t, 1000, 1, 4, 0, 0, 1001), Algorithm::vector_copy) << "input matrices apart";
    EXPECT_NE(choice(t, 1, 1000, 4, 0, 0, 0, 1008), Algorithm::vector_copy) << "output matrices apart";
    EXPECT_NE(choice(t, 1, 1000, 4, 1024), Algorithm::vector_copy) << "ld_in spaces the batch's rows";
    EXPECT_NE(choice(t, 2, 1000), Algorithm::vector_copy) << "two rows transpose";
  }
}

// Packed batches of a side of at most 8 elements and 32 bytes and one of 1000 or more (1- to 8-byte
// elements, on the 16-byte grid for 1- and 2-byte ones, 2000 for tall 1-byte ones), and of tall
// matrices with 16- or 32-byte rows of 4- or 8-byte elements from 200 rows, take skinny ahead of the
// batch rules; shorter long sides, 16-byte elements and strided batches keep them.
TEST(GpuPlanner, BatchesOfAShortAndALongSideTakeSkinny) {
  const auto desc = [](DType t, std::int64_t r, std::int64_t c, std::int64_t batch, std::int64_t ld_in = 0) {
    return xpose::resolved({t, r, c, batch, ld_in});
  };
  const auto takes = [](const xpose::TransposeDesc& d) {
    const bool rule = xpose::plan::batch_takes_skinny(d);
    if (rule) EXPECT_EQ(xpose::plan::choose_gpu_algorithm(d, 16), Algorithm::skinny) << xpose_test::describe(d);
    return rule;
  };
  for (DType t : {DType::u8, DType::f16, DType::f32, DType::f64}) {
    EXPECT_TRUE(takes(desc(t, 2048, 4, 2097))) << xpose::dtype_name(t);
    EXPECT_TRUE(takes(desc(t, 4, 2000, 2097))) << xpose::dtype_name(t);
    EXPECT_TRUE(takes(desc(t, 32 / std::max<std::int64_t>(4, xpose::dtype_size(t)), 1024, 100)))
        << xpose::dtype_name(t);
    EXPECT_FALSE(takes(desc(t, 2, 577, 7269))) << xpose::dtype_name(t) << ": long side under 1000";
    EXPECT_FALSE(takes(desc(t, 9, 1000, 100))) << xpose::dtype_name(t) << ": short side past 8";
    EXPECT_FALSE(takes(desc(t, 1000, 4, 100, 5))) << xpose::dtype_name(t) << ": strided input rows";
    EXPECT_FALSE(takes(desc(t, 1000, 4, 1))) << xpose::dtype_name(t) << ": one matrix";
  }
  EXPECT_FALSE(takes(desc(DType::u8, 3, 1000, 100))) << "1-byte rows of 1000 bytes: off the 16-byte grid";
  EXPECT_FALSE(takes(desc(DType::u8, 1000, 3, 100))) << "1-byte output rows off the 16-byte grid";
  EXPECT_TRUE(takes(desc(DType::u8, 3, 1008, 100))) << "on the grid";
  EXPECT_FALSE(takes(desc(DType::u8, 1008, 3, 100))) << "tall 1-byte matrices under 2000 rows";
  EXPECT_TRUE(takes(desc(DType::f16, 1008, 3, 100))) << "tall 2-byte ones from 1000";
  EXPECT_FALSE(takes(desc(DType::f64, 1000, 8, 100))) << "short side of 64 bytes";
  EXPECT_TRUE(takes(desc(DType::f64, 1000, 4, 100))) << "short side of 32 bytes";
  EXPECT_FALSE(takes(desc(DType::c128, 2000, 4, 262))) << "16-byte elements keep tiled_vec";
  EXPECT_NE(xpose::plan::choose_gpu_algorithm(desc(DType::c128, 2000, 4, 262), 16), Algorithm::skinny);
  EXPECT_TRUE(takes(desc(DType::f32, 242, 4, 8665))) << "16-byte rows of 4-byte elements";
  EXPECT_TRUE(takes(desc(DType::f32, 242, 8, 4332))) << "32-byte rows";
  EXPECT_TRUE(takes(desc(DType::f64, 200, 2, 100))) << "16-byte rows of 8-byte elements";
  EXPECT_FALSE(takes(desc(DType::f32, 199, 4, 100))) << "under 200 rows";
  EXPECT_FALSE(takes(desc(DType::f32, 242, 3, 100))) << "12-byte rows";
  EXPECT_FALSE(takes(desc(DType::f16, 242, 8, 100))) << "16-byte rows of 2-byte elements";
}

// Batches of small matrices: small_batch where a tile per matrix would be mostly empty, the tiled
// kernels where their tile is at least half full (4 KiB tiles three quarters full for matrices of at
// most 8 KiB).
TEST(GpuPlanner, TakesSmallBatchForBatchesOfSmallMatrices) {
  const auto choice = [](DType t, std::int64_t r, std::int64_t c, std::int64_t batch) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c, batch}), 16);
  };
  for (DType t : kTypes) {
    EXPECT_EQ(choice(t, 4, 4, 100000), Algorithm::small_batch) << xpose::dtype_name(t);
    EXPECT_EQ(choice(t, 17, 17, 1000), Algorithm::small_batch) << xpose::dtype_name(t);
    EXPECT_EQ(choice(t, 4, 4, 2), Algorithm::small_batch) << "any batch of two or more";
    EXPECT_NE(choice(t, 4, 4, 1), Algorithm::small_batch) << "one matrix is not a batch";
    EXPECT_NE(choice(t, 300, 300, 1000), Algorithm::small_batch) << "past one whole matrix per block";
  }
  // On the 16-byte grid with output rows on the sector grid, tiled_vec's 4 KiB tiles where they are
  // at least three quarters full.
  for (auto [t, r, c] : {std::tuple{DType::f32, 32, 32}, {DType::f64, 32, 32}, {DType::f16, 64, 64},
                         {DType::f64, 28, 28}, {DType::c128, 16, 16}, {DType::f32, 32, 48}}) {
    const xpose::TransposeDesc d = xpose::resolved({t, r, c, 8192});
    EXPECT_EQ(xpose::plan::choose_gpu_algorithm(d, 16), Algorithm::tiled_vec) << xpose::dtype_name(t) << " " << r;
    xpose::LaunchConfig config;
    ASSERT_TRUE(xpose::plan::configure_tiled_vec(d, 16, 132, config).ok());
    EXPECT_EQ(config.tile_rows * config.tile_cols * xpose::dtype_size(t), xpose::kVecTileBytesTiny);
  }
  EXPECT_EQ(choice(DType::f64, 20, 20, 8192), Algorithm::small_batch) << "4 KiB tiles 39% full";
  EXPECT_EQ(choice(DType::f16, 48, 48, 8192), Algorithm::small_batch) << "4 KiB tiles 56% full";
  EXPECT_EQ(choice(DType::f64, 30, 30, 8192), Algorithm::small_batch) << "output rows mid-sector";
  EXPECT_EQ(choice(DType::u8, 64, 64, 8192), Algorithm::small_batch) << "1-byte elements";
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::f32, 32, 32, 8192}), 8), Algorithm::small_batch)
      << "8-byte aligned pointers";
  EXPECT_EQ(choice(DType::f32, 64, 64, 4096), Algorithm::tiled_vec) << "16 KiB on the 16-byte grid: a full tile";
  EXPECT_EQ(choice(DType::f64, 31, 31, 8729), Algorithm::small_batch) << "7.5 KiB off the 16-byte grid";
  EXPECT_EQ(choice(DType::f16, 48, 80, 8192), Algorithm::small_batch) << "7.5 KiB of 160-byte rows on the grid";
  EXPECT_EQ(choice(DType::f32, 48, 48, 7281), Algorithm::gather) << "9 KiB on the 16-byte grid, tiles 56% full";
  EXPECT_NE(choice(DType::c128, 31, 31, 4364), Algorithm::small_batch) << "15 KiB of 16-byte elements";
  EXPECT_EQ(choice(DType::u8, 100, 100, 6710), Algorithm::small_batch) << "10 KB off the grid";
  // Past 16 KiB, one whole matrix per block: off the 16-byte grid, and for 1- and 2-byte elements on
  // it where the tiles would be less than three quarters full.
  for (auto [t, r, c] : {std::tuple{DType::u8, 255, 255}, {DType::u8, 129, 129}, {DType::u8, 200, 300},
                         {DType::u8, 200, 200}, {DType::bf16, 127, 127}, {DType::bf16, 180, 180},
                         {DType::f32, 65, 65}, {DType::f32, 127, 127}, {DType::f64, 63, 65}})
    EXPECT_EQ(choice(t, r, c, 1000), Algorithm::small_batch) << xpose::dtype_name(t) << " " << r << "x" << c;
  EXPECT_NE(choice(DType::u8, 256, 200, 1000), Algorithm::small_batch) << "tiles 78% full";
  EXPECT_NE(choice(DType::bf16, 128, 128, 1000), Algorithm::small_batch) << "full tiles";
  EXPECT_NE(choice(DType::f32, 100, 100, 1000), Algorithm::small_batch) << "4-byte elements on the 16-byte grid";
  EXPECT_NE(choice(DType::c128, 40, 40, 1000), Algorithm::small_batch) << "16-byte elements";
  EXPECT_NE(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::u8, 255, 255, 1000, 300}), 16),
            Algorithm::small_batch)
      << "strided input rows: one whole matrix per block only for packed batches";
  EXPECT_NE(choice(DType::u8, 255, 257, 1000), Algorithm::small_batch) << "past 64 KiB";
  // Past 64 KiB, where two blocks of an SM hold the matrix (an H200: 112 KiB), off the grid only.
  const std::int64_t h200 = xpose::plan::small_batch_whole_matrix_bytes_for(232448, 233472, 1024);
  const auto on_h200 = [h200](DType t, std::int64_t r, std::int64_t c) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c, 500}), 16, h200);
  };
  for (auto [t, r, c] : {std::tuple{DType::u8, 300, 300}, {DType::u8, 257, 257}, {DType::u8, 339, 339},
                         {DType::bf16, 201, 203}, {DType::f32, 150, 150}, {DType::f32, 129, 129},
                         {DType::f64, 99, 101}})
    EXPECT_EQ(on_h200(t, r, c), Algorithm::small_batch) << xpose::dtype_name(t) << " " << r << "x" << c;
  EXPECT_NE(on_h200(DType::bf16, 239, 241), Algorithm::small_batch) << "2- to 8-byte elements up to 96 KiB";
  EXPECT_NE(on_h200(DType::f32, 169, 170), Algorithm::small_batch) << "2- to 8-byte elements up to 96 KiB";
  EXPECT_NE(on_h200(DType::f32, 131, 140), Algorithm::small_batch) << "15 bank wavefronts a read step";
  // Short sides skinny serves stay with it for 2- to 8-byte elements, up to 64 elements.
  for (auto [t, r, c] : {std::tuple{DType::f32, 302, 46}, {DType::f32, 937, 19}, {DType::bf16, 641, 16},
                         {DType::bf16, 502, 49}, {DType::f64, 9, 572}})
    EXPECT_EQ(on_h200(t, r, c), Algorithm::skinny) << xpose::dtype_name(t) << " " << r << "x" << c;
  for (auto [t, r, c] : {std::tuple{DType::u8, 785, 22}, {DType::u8, 127, 509}, {DType::bf16, 255, 127}})
    EXPECT_EQ(on_h200(t, r, c), Algorithm::small_batch) << xpose::dtype_name(t) << " " << r << "x" << c;
  EXPECT_NE(choice(DType::u8, 300, 300, 500), Algorithm::small_batch) << "past 64 KiB on any device";
  EXPECT_NE(on_h200(DType::u8, 400, 400), Algorithm::small_batch) << "past 112 KiB";
  EXPECT_NE(on_h200(DType::u8, 312, 312), Algorithm::small_batch) << "1-byte elements on the 8-byte grid";
  EXPECT_NE(on_h200(DType::bf16, 200, 200), Algorithm::small_batch) << "2-byte elements on the grid";
  EXPECT_NE(on_h200(DType::f32, 128, 160), Algorithm::small_batch) << "4-byte elements on the 16-byte grid";
  for (auto [r, c] : {std::pair<std::int64_t, std::int64_t>{120, 256}, {88, 256}, {72, 512}})
    EXPECT_EQ(choice(DType::u8, r, c, 1000), Algorithm::tiled_vec)
        << r << "x" << c << ": wrapping vectors read in order";
}

// The largest whole matrix small_batch takes: what two blocks of an SM hold, less the tile's margin,
// and at least the 64 KiB every device allows.
TEST(GpuPlanner, SmallBatchWholeMatrixBoundFollowsSharedMemory) {
  using xpose::plan::small_batch_whole_matrix_bytes_for;
  EXPECT_EQ(small_batch_whole_matrix_bytes_for(232448, 233472, 1024), 115584)
      << "H100 / H200: 227 KiB a block, 228 an SM";
  EXPECT_EQ(small_batch_whole_matrix_bytes_for(166912, 167936, 1024), 82816) << "A100: 164 KiB an SM";
  EXPECT_EQ(small_batch_whole_matrix_bytes_for(65536, 65536, 0), xpose::plan::kSmallBatchMaxWholeMatrixBytes)
      << "AMD gfx90a: 64 KiB a work-group";
  EXPECT_EQ(small_batch_whole_matrix_bytes_for(0, 0, 0), xpose::plan::kSmallBatchMaxWholeMatrixBytes) << "unknown";
}

// Short sides past kSkinnyMaxShort that skinny serves better than a mostly empty tile.
TEST(GpuPlanner, SkinnyForSomeShortSidesPastSixteen) {
  const auto choice = [](DType t, std::int64_t r, std::int64_t c, std::int64_t ld_in = 0, std::int64_t ld_out = 0) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c, 1, ld_in, ld_out}), 16);
  };
  EXPECT_EQ(choice(DType::u8, 33, 2000001), Algorithm::skinny) << "few rows off the grid, packed output";
  EXPECT_EQ(choice(DType::f16, 24, 1000001), Algorithm::skinny) << "2-byte loads under 64 rows";
  EXPECT_EQ(choice(DType::u8, 33, 2000001, 0, 40), Algorithm::skinny) << "padded output rows off the grid";
  EXPECT_EQ(choice(DType::bf16, 128, 262143, 0, 130), Algorithm::skinny) << "padded output rows: up to 128 rows";
  EXPECT_NE(choice(DType::bf16, 129, 262143, 0, 130), Algorithm::skinny);
  EXPECT_NE(choice(DType::u8, 64, 1048576, 0, 72), Algorithm::skinny) << "padded output rows on tiled_vec's grid";
  EXPECT_EQ(choice(DType::f32, 24, 699049, 0, 25), Algorithm::skinny) << "padded 4-byte rows up to skinny's cap";
  EXPECT_EQ(choice(DType::f32, 48, 699049, 0, 50), Algorithm::skinny) << "past the cap, output rows off the grid: "
                                                                        "few_rows_output_off_grid_take_slabs";
  EXPECT_NE(choice(DType::f32, 100, 699049, 0, 102), Algorithm::skinny) << "past skinny's cap and that rule's";
  EXPECT_EQ(choice(DType::u8, 128, 524287), Algorithm::tiled_unaligned) << "whole output chunks";
  EXPECT_EQ(choice(DType::u8, 64, 1048575), Algorithm::skinny) << "64 bytes of output row";
  EXPECT_EQ(choice(DType::u8, 80, 1677723), Algorithm::skinny) << "80 bytes: 5/8 of a tile row";
  EXPECT_EQ(choice(DType::u8, 96, 699051), Algorithm::tiled_unaligned) << "96 bytes: 3/4 of a tile row";
  EXPECT_NE(choice(DType::u8, 129, 520223), Algorithm::skinny) << "past skinny_rows_vec's rows";
  EXPECT_NE(choice(DType::u8, 48, 1048576), Algorithm::skinny) << "on the 16-byte grid: tiled_vec";
  EXPECT_EQ(choice(DType::f32, 40, 500001), Algorithm::skinny);
  EXPECT_NE(choice(DType::f32, 44, 500001), Algorithm::skinny) << "past 40 rows, output rows on the grid";
  EXPECT_EQ(choice(DType::f32, 41, 500001), Algorithm::skinny) << "output rows off it: FewRowsWithOutputOffTheGrid...";
  EXPECT_EQ(choice(DType::f64, 24, 349525), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f16, 84, 399457), Algorithm::skinny);
  EXPECT_NE(choice(DType::f16, 88, 381301), Algorithm::skinny) << "past 84 rows, output rows on the grid";
  EXPECT_EQ(choice(DType::u8, 559240, 120), Algorithm::skinny) << "full tiles, but output rows mid-sector";
  EXPECT_EQ(choice(DType::bf16, 289260, 116), Algorithm::skinny) << "full tiles, but output rows mid-sector";
  EXPECT_EQ(choice(DType::u8, 70000, 120), Algorithm::skinny) << "the GPU test's case";
  EXPECT_EQ(choice(DType::bf16, 35000, 120), Algorithm::skinny) << "the GPU test's case";
  EXPECT_EQ(choice(DType::u8, 1048576, 120), Algorithm::tiled_vec) << "whole output sectors: the full tiles";
  EXPECT_EQ(choice(DType::bf16, 1048576, 116), Algorithm::tiled_vec) << "whole output sectors: the full tiles";
  EXPECT_EQ(choice(DType::f64, 17, 493447), Algorithm::skinny) << "8-byte elements: up to 33 rows off the grid";
  EXPECT_EQ(choice(DType::f64, 33, 254201), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 33, 254200), Algorithm::skinny) << "input rows on the 16-byte grid, output off it";
  EXPECT_NE(choice(DType::f64, 34, 246723), Algorithm::skinny);
  EXPECT_NE(choice(DType::f64, 20, 419430), Algorithm::skinny) << "on the 16-byte grid";
  EXPECT_NE(choice(DType::c128, 17, 246723), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 4194304, 4), Algorithm::skinny) << "16-byte rows: tall";
  EXPECT_EQ(choice(DType::f64, 4194304, 2), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f16, 2097152, 16), Algorithm::skinny) << "32-byte rows";
  EXPECT_NE(choice(DType::f64, 1048576, 8), Algorithm::skinny) << "64-byte rows: tiled_vec";
  EXPECT_EQ(choice(DType::u8, 4194304, 16), Algorithm::skinny) << "1-byte rows of 16 bytes";
  EXPECT_EQ(choice(DType::u8, 262144, 16), Algorithm::skinny) << "4 MiB";
  EXPECT_NE(choice(DType::u8, 65536, 16), Algorithm::skinny) << "packed 16 columns under 4 MiB: tiled_vec";
  EXPECT_EQ(choice(DType::u8, 65536, 8, 16), Algorithm::skinny) << "fewer columns, input rows padded to 16 bytes";
  EXPECT_NE(choice(DType::u8, 1048576, 32), Algorithm::skinny) << "32-byte rows: tiled_vec";
  EXPECT_NE(choice(DType::c128, 1048576, 2), Algorithm::skinny) << "16-byte elements keep tiled_vec";
  EXPECT_EQ(choice(DType::f32, 699050, 24), Algorithm::skinny) << "24 columns off the 16-byte grid";
  EXPECT_EQ(choice(DType::u8, 2796202, 24), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 493447, 17), Algorithm::skinny);
  // Tall, packed input rows of 17 to 127 columns off tiled_vec's grid: skinny_cols_vec.
  EXPECT_EQ(choice(DType::u8, 2033601, 33), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 419430, 40), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f16, 838860, 40), Algorithm::skinny) << "8-byte grid, output rows mid-sector";
  EXPECT_EQ(choice(DType::u8, 671088, 100), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 1048576, 32, 0, 1048577), Algorithm::skinny) << "odd output stride";
  EXPECT_EQ(choice(DType::f32, 167772, 100), Algorithm::skinny) << "16-byte grid, output rows mid-sector";
  EXPECT_EQ(choice(DType::f64, 83886, 127), Algorithm::skinny) << "slabs of three halos";
  EXPECT_NE(choice(DType::f64, 46336, 181), Algorithm::skinny) << "slabs of fewer rows than three halos";
  EXPECT_NE(choice(DType::u8, 335544, 200), Algorithm::skinny);
  EXPECT_NE(choice(DType::u8, 1048576, 64, 0, 1048579), Algorithm::skinny) << "whole tiled_unaligned tile rows";
  EXPECT_NE(choice(DType::f32, 1048576, 32), Algorithm::skinny) << "on the 16-byte grid: tiled_vec";
  EXPECT_NE(choice(DType::f32, 1048576, 60), Algorithm::skinny) << "on the grid, up to 64 columns: tiled_vec";
  EXPECT_EQ(choice(DType::f32, 1048576, 100), Algorithm::skinny) << "on the grid past 64 columns";
  EXPECT_EQ(choice(DType::f64, 1048576, 100), Algorithm::skinny);
  EXPECT_NE(choice(DType::f64, 1048576, 120), Algorithm::skinny) << "8-byte elements past 100 columns: tiled_vec";
  EXPECT_EQ(choice(DType::f32, 1048576, 36), Algorithm::skinny) << "on the grid, tile columns under 6/10 full";
  EXPECT_NE(choice(DType::f32, 1048576, 40), Algorithm::skinny) << "on the grid, tile columns 5/8 full";
  EXPECT_NE(choice(DType::u8, 1048576, 96), Algorithm::skinny) << "1- and 2-byte elements on the grid: tiled_vec";
  EXPECT_NE(choice(DType::f64, 131072, 64), Algorithm::skinny);
  EXPECT_EQ(choice(DType::u8, 1048576, 40, 0, 1048576), Algorithm::skinny) << "8-byte grid, whole output sectors";
  EXPECT_EQ(choice(DType::bf16, 2097152, 36), Algorithm::skinny) << "8-byte grid";
  EXPECT_NE(choice(DType::u8, 1048576, 120), Algorithm::skinny) << "8-byte grid, tile rows 15/16 full";
  EXPECT_NE(choice(DType::bf16, 1048576, 116), Algorithm::skinny) << "8-byte grid, tile rows 29/32 full";
  EXPECT_NE(choice(DType::c128, 1048576, 17, 0, 1048577), Algorithm::skinny) << "no 16-byte elements";
  EXPECT_NE(choice(DType::f32, 1048576, 40, 100, 1048577), Algorithm::skinny) << "input rows far apart";
  EXPECT_EQ(choice(DType::u8, 2097152, 24, 32), Algorithm::skinny) << "padded input rows: slabs read the gaps";
  EXPECT_EQ(choice(DType::bf16, 2097152, 20, 24), Algorithm::skinny) << "padded input rows: slabs read the gaps";
  EXPECT_NE(choice(DType::f64, 524288, 24, 32), Algorithm::skinny) << "8-byte elements keep tiled_vec";
}

// Where skinny's few-columns kernel runs: tall, packed input rows or rows with small gaps, a slab of
// twice 32 / E rows in its 16 KiB; up to 16 columns for 1- to 4-byte elements, and 8-byte ones from 8
// columns (fewer ran faster element by element).
TEST(GpuPlanner, SkinnyColsVecRunsWhereItsSlabFits) {
  const auto runs = [](DType t, std::int64_t r, std::int64_t c, std::int64_t ld_in = 0) {
    return xpose::plan::skinny_cols_vec_runs(xpose::resolved({t, r, c, 1, ld_in}));
  };
  EXPECT_TRUE(runs(DType::u8, 100000, 3));
  EXPECT_TRUE(runs(DType::f32, 100000, 16));
  EXPECT_TRUE(runs(DType::f64, 100000, 16)) << "8-byte elements from 8 columns";
  EXPECT_TRUE(runs(DType::f64, 100000, 8)) << "8-byte elements from 8 columns";
  EXPECT_FALSE(runs(DType::f64, 100000, 7)) << "8-byte elements: the direct kernel up to 7 columns";
  EXPECT_TRUE(runs(DType::f64, 100000, 17));
  EXPECT_TRUE(runs(DType::u8, 100000, 255)) << "64 rows of 255 bytes and the run's 32 fit 16 KiB";
  EXPECT_FALSE(runs(DType::u8, 100000, 256));
  EXPECT_TRUE(runs(DType::f64, 100000, 255));
  EXPECT_FALSE(runs(DType::c128, 100000, 17));
  EXPECT_TRUE(runs(DType::u8, 100000, 40, 41)) << "padded input rows: the gaps are read";
  EXPECT_TRUE(runs(DType::u8, 100000, 3, 4));
  EXPECT_TRUE(runs(DType::f32, 100000, 3, 16)) << "rows 64 bytes apart";
  EXPECT_FALSE(runs(DType::f32, 100000, 3, 17)) << "rows more than 64 bytes and twice the columns apart";
  EXPECT_FALSE(runs(DType::u8, 100000, 40, 200));
  EXPECT_FALSE(runs(DType::u8, 100000, 200, 256)) << "a slab of rows 256 bytes apart does not fit";
  EXPECT_FALSE(runs(DType::f64, 100000, 3, 4)) << "8-byte elements: the direct kernel up to 7 columns";
  EXPECT_FALSE(runs(DType::u8, 30, 40)) << "not tall";
}

TEST(GpuPlanner, ShapesTheTileToTheMatrix) {
  xpose::LaunchConfig c;
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::f32, 32, 1048576}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows, 32) << "a 32-row matrix gets 32-row tiles";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::c128, 1048576, 3}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols * 16, xpose::kVecMinRowBytes) << "a 3-column matrix gets the narrowest tiles";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 16, 100000}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols, 512) << "a short matrix gets the widest tile rows";
  EXPECT_EQ(c.tile_rows, 16) << "a small matrix gets half-size tiles: 8 KiB, 16 rows of 512 bytes";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::f64, 1048576, 32}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols, 32) << "tiles no wider than the rows";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::bf16, 1048576, 32}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows, 128) << "64-byte tile rows of 2-byte elements: half-size tiles, 128 rows";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::c128, 1048576, 32}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols, 32 * 16) << "16-byte elements: half-size tiles of 256-byte rows";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::c128, 1048576, 24}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols, 32) << "24 columns of 16-byte elements: one 512-byte tile column, none half empty";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::c128, 32, 1048576}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols * 16, xpose::kVecTileBytes) << "a short matrix keeps wide tiles";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 1048576, 64}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows, 256) << "1-byte elements keep 16 KiB tiles";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::c128, 1048576, 3}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows, 256) << "16-byte elements keep 16 KiB tiles";
}

// tiled_vec's tile for `d` (16-byte aligned pointers, 132 SMs) as "ROWSxCOLS".
std::string tile_of(const xpose::TransposeDesc& d) {
  xpose::LaunchConfig c;
  EXPECT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved(d), 16, 132, c).ok());
  return std::to_string(c.tile_rows) + "x" + std::to_string(c.tile_cols);
}

// A few tile columns, the last mostly empty: tile rows halved while the tiles hold fewer empty bytes,
// until the columns fill three quarters of them (fill_tile_columns in gpu_planner.cpp).
TEST(GpuPlanner, FewTileColumnsNarrowTheirTileRows) {
  EXPECT_EQ(tile_of({DType::c128, 62939, 33}), "128x8") << "33 columns: 40 in tiles of 8, not 64 in tiles of 32";
  EXPECT_EQ(tile_of({DType::c128, 15501, 33}), "64x8") << "the same in the half-size tiles of a smaller matrix";
  EXPECT_EQ(tile_of({DType::c128, 104857, 40}), "64x16") << "40 columns: 48 in tiles of 16";
  EXPECT_EQ(tile_of({DType::c128, 55923, 37, 1, 74, 55987}), "64x16") << "padded rows alike";
  EXPECT_EQ(tile_of({DType::c128, 175, 37, 647}), "64x16") << "and batches whose rows fill the taller tiles";
  EXPECT_EQ(tile_of({DType::f64, 62583, 134, 1, 134, 62584}), "64x32") << "8-byte elements: 134 columns in 160";
  EXPECT_EQ(tile_of({DType::c128, 14110, 74}), "32x32") << "74 columns fill three quarters of 96: kept";
  EXPECT_EQ(tile_of({DType::c128, 20, 33, 6355}), "32x32") << "20 rows: taller tiles would leave more empty";
  EXPECT_EQ(tile_of({DType::c128, 1048576, 24}), "32x32") << "one tile column";
  EXPECT_EQ(tile_of({DType::f64, 8192, 8193}), "32x64") << "many tile columns";
}

// Output rows of 8-byte elements that start mid-sector: tile rows of 256 bytes, 128 under 1024 rows
// (mid_sector_wide_rows_narrow in gpu_planner.cpp), beside output rows on the sector grid, 4-byte
// elements and batches, which keep their tiles (matrices of at most 64 rows: the next test).
TEST(GpuPlanner, MidSectorOutputRowsOfEightByteElementsNarrowTheTileRows) {
  EXPECT_EQ(tile_of({DType::f64, 363, 11554, 1, 11554, 726}), "64x16") << "363 rows: 128-byte rows in 8 KiB";
  EXPECT_EQ(tile_of({DType::f64, 65, 129055, 1, 258110, 66}), "128x16") << "65 rows: 128-byte rows in 16 KiB";
  EXPECT_EQ(tile_of({DType::f64, 1710, 2452, 1, 2516, 1810}), "32x32") << "1024 rows or more: 256-byte rows";
  EXPECT_EQ(tile_of({DType::f64, 37638, 222}), "64x32") << "packed rows of an even count off the sector grid";
  EXPECT_EQ(tile_of({DType::f64, 2048, 4096}), "32x64") << "output rows on the sector grid: kept";
  EXPECT_EQ(tile_of({DType::f64, 1446, 1440, 4}), "32x64") << "a batch: kept (not measured)";
  EXPECT_EQ(tile_of({DType::f64, 42, 99864}), "32x32") << "at most 64 rows: 32-row tiles (the next test)";
  EXPECT_EQ(tile_of({DType::f32, 4100, 4096}), "64x64") << "4-byte elements: kept (measured level or slower)";
}

// 17 to 64 rows of 8-byte elements whose output rows start mid-sector: 8 KiB tiles of 32 rows rather than
// 16 (mid_sector_few_rows_take_tall_tiles in gpu_planner.cpp); fewer rows, 16 KiB tiles, 8-byte accesses,
// output rows on the sector grid and batches keep their tiles.
TEST(GpuPlanner, MidSectorFewRowsOfEightByteElementsTakeTallTiles) {
  EXPECT_EQ(tile_of({DType::f64, 29, 144631, 1, 144634, 34}), "32x32") << "padded output rows";
  EXPECT_EQ(tile_of({DType::f64, 18, 233016}), "32x32") << "18 rows";
  EXPECT_EQ(tile_of({DType::f64, 62, 67650}), "32x32") << "62 rows";
  EXPECT_EQ(tile_of({DType::f64, 10, 419430}), "16x64") << "16 rows or fewer: kept";
  EXPECT_EQ(tile_of({DType::f64, 26, 322638}), "32x64") << "16 KiB tiles, 32 rows already: kept";
  EXPECT_EQ(tile_of({DType::f64, 34, 61681}), "16x64") << "8-byte accesses: kept";
  EXPECT_EQ(tile_of({DType::f64, 24, 174762}), "16x64") << "output rows on the sector grid: kept";
  EXPECT_EQ(tile_of({DType::f64, 42, 1000, 200}), "32x64") << "a batch: kept (not measured)";
}

// Tall matrices of 2 to 24 8-byte columns, or 16 to 32 4-byte ones, whose input rows lie far apart take
// tiled_vec rather than skinny's direct kernel (padded_few_columns_take_tiles in gpu_planner.cpp); small
// gaps, one column, other element sizes, batches and small matrices keep their kernels.
TEST(GpuPlanner, PaddedFewColumnsTakeTiles) {
  const auto choice = [](DType t, std::int64_t r, std::int64_t c, std::int64_t ld_in, std::int64_t ld_out = 0) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c, 1, ld_in, ld_out}), 16);
  };
  EXPECT_EQ(choice(DType::f64, 290135, 14, 78), Algorithm::tiled_vec) << "odd rows: tiled_vec's 8-byte path";
  EXPECT_EQ(choice(DType::f64, 497802, 4, 68), Algorithm::tiled_vec) << "32-byte rows on the 16-byte grid";
  EXPECT_EQ(choice(DType::f64, 600001, 6, 16), Algorithm::tiled_vec) << "rows 128 bytes apart";
  EXPECT_EQ(choice(DType::f32, 500002, 16, 40), Algorithm::tiled_vec) << "16 4-byte columns";
  EXPECT_EQ(choice(DType::f64, 2557414, 3, 27), Algorithm::tiled_vec) << "3 columns";
  EXPECT_EQ(choice(DType::f64, 3940378, 2, 66, 3940381), Algorithm::tiled_vec) << "2 columns";
  EXPECT_EQ(choice(DType::f64, 5784055, 1, 9, 5784057), Algorithm::skinny) << "1 column: kept (measured slower)";
  EXPECT_EQ(choice(DType::f64, 1000001, 3, 6), Algorithm::skinny) << "rows 48 bytes apart: kept";
  EXPECT_EQ(choice(DType::f64, 1019569, 2, 3), Algorithm::skinny) << "small gaps: kept";
  EXPECT_EQ(choice(DType::f64, 400001, 8, 16), Algorithm::skinny) << "gaps no wider than the rows: slabs";
  EXPECT_EQ(choice(DType::f32, 1000002, 8, 24), Algorithm::skinny) << "8 4-byte columns: kept (measured slower)";
  EXPECT_EQ(choice(DType::u8, 4000000, 16, 100), Algorithm::skinny) << "1-byte elements: kept";
  EXPECT_EQ(choice(DType::f64, 20001, 14, 78), Algorithm::skinny) << "under 8 MiB: kept";
  EXPECT_EQ(choice(DType::f64, 235271, 17, 81), Algorithm::tiled_vec) << "17 columns off the 16-byte grid";
  EXPECT_EQ(choice(DType::f64, 180000, 23, 77), Algorithm::tiled_vec) << "23 columns";
  EXPECT_EQ(choice(DType::f32, 300000, 24, 70), Algorithm::tiled_vec) << "24 4-byte columns, whole 8-byte vectors";
  EXPECT_EQ(choice(DType::f32, 350000, 28, 90), Algorithm::tiled_vec) << "28 4-byte columns";
  EXPECT_EQ(choice(DType::f32, 500000, 17, 42), Algorithm::skinny) << "rows ending in part of a vector: kept";
  EXPECT_EQ(choice(DType::f32, 262144, 32, 70), Algorithm::tiled_vec) << "32 4-byte columns";
}

// Tall matrices of 17 to 64 1- and 2-byte columns (29 to 33 4-byte ones) with far-apart input rows on
// tiled_vec's 8-byte grid: tiled_unaligned where each row ends in part of an 8-byte vector, tiled_vec where
// the rows hold whole vectors, tiled_sectors never (tall_far_rows_on_eight_byte_grid in gpu_planner.cpp).
TEST(GpuPlanner, TallFarRowsOnTheEightByteGridSkipPartVectors) {
  const auto choice = [](DType t, std::int64_t r, std::int64_t c, std::int64_t ld_in) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c, 1, ld_in}), 16);
  };
  EXPECT_EQ(choice(DType::bf16, 600000, 33, 100), Algorithm::tiled_unaligned) << "a 2-byte tail in every row";
  EXPECT_EQ(choice(DType::bf16, 900000, 17, 44), Algorithm::tiled_unaligned) << "17 columns";
  EXPECT_EQ(choice(DType::bf16, 762600, 22, 52), Algorithm::tiled_unaligned) << "output rows mid-sector";
  EXPECT_EQ(choice(DType::u8, 800000, 33, 104), Algorithm::tiled_unaligned) << "1-byte elements";
  EXPECT_EQ(choice(DType::f32, 250000, 33, 102), Algorithm::tiled_unaligned) << "33 4-byte columns";
  EXPECT_EQ(choice(DType::f32, 289262, 29, 70), Algorithm::tiled_unaligned) << "29 4-byte columns";
  EXPECT_EQ(choice(DType::bf16, 381300, 44, 100), Algorithm::tiled_vec) << "whole vectors: tiled_vec, not sectors";
  EXPECT_EQ(choice(DType::bf16, 700000, 20, 60), Algorithm::tiled_vec) << "whole vectors: kept";
  EXPECT_EQ(choice(DType::f32, 335544, 25, 62), Algorithm::skinny) << "25 4-byte columns: kept (measured slower)";
  EXPECT_EQ(choice(DType::bf16, 233016, 72, 164), Algorithm::tiled_sectors) << "past 64 columns: kept (level)";
  EXPECT_EQ(choice(DType::bf16, 1048576, 33, 36), Algorithm::skinny) << "gaps no wider than the rows: kept";
}

// 2-byte elements on tiled_vec's 8-byte grid only keep 16 KiB tiles under 32 MiB where those cover
// no more than 9/8 of the 8 KiB tiles' bytes (two_byte_eight_byte_grid_keeps_tiles in gpu_planner.cpp).
TEST(GpuPlanner, TwoByteElementsOnTheEightByteGridKeepLargeTiles) {
  xpose::LaunchConfig c;
  const auto tile_bytes = [&c](xpose::TransposeDesc d) {
    const auto r = xpose::resolved(d);
    EXPECT_TRUE(xpose::plan::configure_tiled_vec(r, 16, 132, c).ok());
    EXPECT_EQ(c.vector_bytes, 8) << xpose_test::describe(r);
    return c.tile_rows * c.tile_cols * 2;
  };
  EXPECT_EQ(tile_bytes({DType::bf16, 4000, 4004}), xpose::kVecTileBytes) << "4032 rows covered against 4000";
  EXPECT_EQ(tile_bytes({DType::bf16, 300, 300, 186}), xpose::kVecTileBytes) << "a batch";
  EXPECT_EQ(tile_bytes({DType::bf16, 460, 18236}), xpose::kVecTileBytes);
  EXPECT_EQ(tile_bytes({DType::bf16, 132, 127100}), xpose::kVecTileBytesSmall) << "256 rows covered against 192";
  EXPECT_EQ(tile_bytes({DType::bf16, 1000, 1004}), xpose::kVecTileBytesSmall) << "under 8 MiB: small tiles";
}

// Packed batches of 16-byte matrices of 8 to 16 KiB and at most 24 rows whose rows spill past one
// tiled_vec tile column into a second take small_batch (wide_element_rows_spill_a_tile_column in
// gpu_planner.cpp); rows within one tile column, more rows and matrices past 16 KiB keep their kernels.
TEST(GpuPlanner, WideElementBatchesSpillingATileColumnTakeSmallBatch) {
  const auto choice = [](std::int64_t r, std::int64_t c, std::int64_t batch, std::int64_t ld_in = 0) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::c128, r, c, batch, ld_in}), 16);
  };
  EXPECT_EQ(choice(20, 33, 6355), Algorithm::small_batch) << "33 columns: the second tile column 1/32 full";
  EXPECT_EQ(choice(13, 44, 7332), Algorithm::small_batch) << "in the 16-row tiles of short matrices too";
  EXPECT_EQ(choice(17, 50, 4000), Algorithm::small_batch);
  EXPECT_EQ(choice(25, 25, 6000), Algorithm::tiled_vec) << "one tile column: kept";
  EXPECT_EQ(choice(33, 20, 6355), Algorithm::tiled_vec) << "one tile column: kept";
  EXPECT_EQ(choice(28, 36, 4000), Algorithm::tiled_vec) << "28 rows: kept (measured slower)";
  EXPECT_EQ(choice(30, 36, 3000), Algorithm::tiled_vec) << "past 16 KiB: kept";
  EXPECT_NE(choice(20, 33, 6355, 40), Algorithm::small_batch) << "padded rows: kept (not measured)";
}

// 10 to 12 rows of 16-byte elements take gather rather than tiled_vec's part-empty 16-row tiles
// (wide_element_few_rows_take_gather in gpu_planner.cpp); other row counts, batches and matrices under
// 8 MiB keep their kernels.
TEST(GpuPlanner, WideElementFewRowsTakeGather) {
  const auto choice = [](std::int64_t r, std::int64_t c, std::int64_t batch = 1, std::int64_t ld_in = 0) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::c128, r, c, batch, ld_in}), 16);
  };
  EXPECT_EQ(choice(10, 209715), Algorithm::gather);
  EXPECT_EQ(choice(10, 209715, 1, 209720), Algorithm::gather) << "padded input rows";
  EXPECT_EQ(choice(11, 190650), Algorithm::gather) << "output rows mid-sector";
  EXPECT_EQ(choice(12, 87381), Algorithm::gather);
  EXPECT_EQ(choice(13, 161319), Algorithm::tiled_vec) << "13 rows: kept (measured slower)";
  EXPECT_EQ(choice(9, 233016), Algorithm::skinny) << "9 rows: kept";
  EXPECT_EQ(choice(10, 20000), Algorithm::tiled_vec) << "under 8 MiB: kept (not measured)";
  EXPECT_NE(choice(10, 2000, 30), Algorithm::gather) << "a batch: kept (not measured)";
}

// Batches of 2-row matrices whose rows are 16 or 32 bytes take skinny at any batch (batch_takes_skinny in
// gpu_planner.cpp); other row lengths, more rows and 8-byte elements keep small_batch.
TEST(GpuPlanner, TwoRowBatchesOfSixteenAndThirtyTwoByteRowsTakeSkinny) {
  const auto choice = [](DType t, std::int64_t r, std::int64_t c, std::int64_t batch) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c, batch}), 16);
  };
  EXPECT_EQ(choice(DType::bf16, 2, 8, 1048576), Algorithm::skinny) << "16-byte rows";
  EXPECT_EQ(choice(DType::bf16, 2, 16, 32768), Algorithm::skinny) << "32-byte rows, a smaller batch";
  EXPECT_EQ(choice(DType::u8, 2, 16, 65536), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 2, 4, 2097152), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 2, 4, 131072), Algorithm::small_batch) << "8-byte elements: kept (measured slower)";
  EXPECT_EQ(choice(DType::u8, 2, 8, 2097152), Algorithm::small_batch) << "8-byte rows: kept (measured slower)";
  EXPECT_EQ(choice(DType::bf16, 2, 12, 524288), Algorithm::small_batch) << "24-byte rows: kept";
  EXPECT_EQ(choice(DType::u8, 3, 16, 524288), Algorithm::small_batch) << "3 rows: kept";
}

// Tile rows picked by how the rows lie (measured: gpu_planner.cpp, tiled_vec_shape.hpp): f32 input
// rows that start 32-96 bytes into 128-byte lines take 512-byte tile rows; c128 matrices of 4096
// columns or more with padded input rows keep 16 KiB tiles of 512-byte rows; batches of bf16 matrices
// of 1024 to 2048 columns take 128-byte tile rows. Each next to neighbours that keep the usual tile.
TEST(GpuPlanner, RowLayoutsPickTheirTileRows) {
  xpose::LaunchConfig c;
  const auto row_bytes = [&c](xpose::TransposeDesc d) {
    const auto r = xpose::resolved(d);
    EXPECT_TRUE(xpose::plan::configure_tiled_vec(r, 16, 132, c).ok());
    return c.tile_cols * static_cast<std::int64_t>(xpose::dtype_size(r.dtype));
  };
  const auto tile_bytes = [&c](std::int64_t rb) { return c.tile_rows * rb; };
  EXPECT_EQ(row_bytes({DType::f32, 8192, 8192, 1, 8200, 8200}), 512) << "rows 32 bytes into a line, and on";
  EXPECT_EQ(tile_bytes(512), xpose::kVecTileBytes);
  EXPECT_EQ(row_bytes({DType::f32, 8192, 8192, 1, 8208}), 512) << "rows 64 bytes into a line, and on";
  EXPECT_EQ(row_bytes({DType::f32, 4096, 4096, 4, 4104, 4104}), 512) << "a batch";
  EXPECT_EQ(row_bytes({DType::f32, 8192, 8192, 1, 8192, 8200}), 256) << "output rows padded only";
  EXPECT_EQ(row_bytes({DType::f32, 8192, 8192}), 256) << "packed";
  EXPECT_EQ(row_bytes({DType::f32, 1000, 16384, 1, 16392}), 512) << "1000 rows";
  EXPECT_EQ(tile_bytes(512), xpose::kVecTileBytes);
  EXPECT_EQ(row_bytes({DType::f32, 16384, 1000}), 256) << "1000 columns, rows 32 bytes into a line";
  EXPECT_EQ(row_bytes({DType::f32, 1000, 1000, 64}), 256) << "1000 columns";
  EXPECT_EQ(row_bytes({DType::f32, 8192, 8192, 1, 8196}), 256) << "rows 16 bytes into a line: not measured";
  EXPECT_EQ(row_bytes({DType::c128, 8192, 8192, 1, 8200, 8200}), 512) << "padded input rows, 16-byte elements";
  EXPECT_EQ(tile_bytes(512), xpose::kVecTileBytes);
  EXPECT_EQ(row_bytes({DType::c128, 8192, 8192, 1, 8192, 8200}), 256) << "output rows padded only";
  EXPECT_EQ(tile_bytes(256), xpose::kVecTileBytesSmall);
  EXPECT_EQ(row_bytes({DType::c128, 8192, 8192}), 256) << "packed: half-size tiles";
  EXPECT_EQ(row_bytes({DType::c128, 1048576, 32, 1, 40}), 256) << "a narrow matrix keeps its half-size tiles";
  EXPECT_EQ(tile_bytes(256), xpose::kVecTileBytesSmall);
  EXPECT_EQ(row_bytes({DType::c128, 2048, 2048, 1, 2056}), 256) << "under 4096 columns: half-size tiles";
  EXPECT_EQ(tile_bytes(256), xpose::kVecTileBytesSmall);
  EXPECT_EQ(row_bytes({DType::bf16, 2048, 2048, 64}), 256) << "a batch of 2048-column matrices: 32 KiB tiles";
  EXPECT_EQ(tile_bytes(256), xpose::kVecTileBytesLarge);
  EXPECT_EQ(row_bytes({DType::bf16, 1024, 1024, 256}), 256);
  EXPECT_EQ(row_bytes({DType::bf16, 4096, 4096, 16}), 256) << "longer rows";
  EXPECT_EQ(row_bytes({DType::bf16, 2048, 4096, 16}), 256) << "longer rows";
  EXPECT_EQ(row_bytes({DType::bf16, 4096, 2048, 16}), 256) << "matrices over 8 MiB";
  EXPECT_EQ(row_bytes({DType::bf16, 2048, 2048, 64, 2056}), 256) << "padded rows: not measured";
  EXPECT_EQ(row_bytes({DType::bf16, 8192, 8192}), 256) << "one matrix of longer rows";
  EXPECT_EQ(row_bytes({DType::u8, 2048, 2048, 64}), 256) << "1-byte elements";
  // The GPU test's cases (RowLayoutTilesMatchReference): tiled_vec, and these tile rows.
  for (DType t : {DType::f32, DType::c128, DType::bf16})
    for (const auto& [d, rb] : xpose_test::row_layout_cases(t)) {
      EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved(d), 16), Algorithm::tiled_vec)
          << xpose_test::describe(d);
      EXPECT_EQ(row_bytes(d), rb) << xpose_test::describe(d);
    }
}
// Large matrices of at most 32 one-byte columns fill their tiles with 32-byte rows (16 KiB: 512 rows),
// at either access width; wider, smaller or shorter ones keep 64-byte rows.
TEST(GpuPlanner, NarrowByteMatricesTakeNarrowTileRows) {
  xpose::LaunchConfig c;
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 1048576, 32}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols, 32);
  EXPECT_EQ(c.tile_rows, 512);
  EXPECT_EQ(c.vector_bytes, 16);
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 1048576, 24}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols, 32);
  EXPECT_EQ(c.vector_bytes, 8) << "24-byte rows: 8-byte accesses";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 1024, 32, 512}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols, 32) << "a batch of narrow matrices, each a few tiles tall";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 1048576, 33, 1, 48}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols, 64) << "33 columns: a 32-byte tile row would leave a second tile column nearly empty";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 4096, 32}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols, 64) << "small matrices keep their tiles";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 304, 32, 2000}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols, 64) << "matrices shorter than a 512-row tile keep 64-byte rows";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::bf16, 1048576, 16}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols * 2, xpose::kVecMinRowBytes) << "32-byte rows are for 1-byte elements only";
}

// Large matrices whose input rows lie a multiple of 128 KiB apart walk their tile columns in bands 64
// KiB (or an odd multiple of it) wide, where the tiles span the rows exactly; others in one.
TEST(GpuPlanner, InputRowsOn128KiBGridTakeBands) {
  const auto bands = [](xpose::TransposeDesc d, int alignment = 16) {
    d = xpose::resolved(d);
    xpose::LaunchConfig c;
    EXPECT_TRUE(xpose::plan::configure_tiled_vec(d, alignment, 132, c).ok()) << d.rows;
    if (c.bands > 1) {
      EXPECT_EQ(c.vector_bytes, 16) << "bands only with 16-byte accesses";
      EXPECT_EQ((d.cols + c.tile_cols - 1) / c.tile_cols % c.bands, 0) << "bands must divide the tile columns";
    }
    return c.bands;
  };
  EXPECT_EQ(bands({DType::c128, 8192, 8192}), 2);
  EXPECT_EQ(bands({DType::f64, 16384, 16384}), 2);
  EXPECT_EQ(bands({DType::f32, 8192, 32768}), 2);
  EXPECT_EQ(bands({DType::f16, 8192, 65536}), 2);
  EXPECT_EQ(bands({DType::u8, 8192, 131072}), 2);
  EXPECT_EQ(bands({DType::c128, 1024, 8190, 1, 8192}), 2) << "the last tile column cut";
  EXPECT_EQ(bands({DType::c128, 4096, 8192, 4}), 2) << "batched";
  EXPECT_EQ(bands({DType::c128, 2048, 24576}), 2) << "384 KiB rows: bands of 192 KiB";
  EXPECT_EQ(bands({DType::f32, 8192, 65536}), 4) << "256 KiB rows";
  EXPECT_EQ(bands({DType::f32, 4096, 131072}), 8) << "512 KiB rows";
  EXPECT_EQ(bands({DType::f32, 2048, 262144}), 1) << "1 MiB rows: bands of 64 KiB measured slower";
  EXPECT_EQ(bands({DType::f64, 8192, 8192}), 1) << "64 KiB rows";
  EXPECT_EQ(bands({DType::c128, 8192, 8192, 1, 8200}), 1) << "rows off the 128 KiB grid";
  EXPECT_EQ(bands({DType::c128, 1024, 8000, 1, 8192}), 1) << "tiles short of the stride: bands narrower than 64 KiB";
  EXPECT_EQ(bands({DType::c128, 512, 8192, 8}), 1) << "under 1024 rows";
  EXPECT_EQ(bands({DType::f64, 1024, 16384}, 8), 1) << "8-byte accesses";
  EXPECT_EQ(bands({DType::f64, 1024, 16384}), 2);
}

// Small matrices on the 16-byte grid take gather: up to 1-8 MiB by element size, 16-byte elements up
// to 16 MiB where both sides have 512 or more (shorter ones keep tiled_vec's 16-row tiles).
TEST(GpuPlanner, GatherTakesSmallMatricesAndMidSizeWideElements) {
  using xpose::plan::choose_gpu_algorithm;
  const auto pick = [](xpose::TransposeDesc d) { return choose_gpu_algorithm(xpose::resolved(d), 16); };
  EXPECT_EQ(pick({DType::f64, 1024, 1024}), Algorithm::gather) << "8 MiB";
  EXPECT_NE(pick({DType::f64, 1024, 1025}), Algorithm::gather) << "past 8 MiB of 8-byte elements";
  EXPECT_EQ(pick({DType::c128, 512, 512}), Algorithm::gather) << "4 MiB";
  EXPECT_EQ(pick({DType::c128, 1024, 1024}), Algorithm::gather) << "16 MiB, both sides 512 or more";
  EXPECT_EQ(pick({DType::c128, 1024, 512}), Algorithm::gather);
  EXPECT_EQ(pick({DType::c128, 512, 512, 4}), Algorithm::gather) << "a batch, 16 MiB in all";
  EXPECT_EQ(pick({DType::c128, 72, 3600}), Algorithm::gather) << "4 MiB, a short side";
  EXPECT_EQ(pick({DType::c128, 72, 7283}), Algorithm::tiled_vec) << "8 MiB with a short side: 16-row tiles";
  EXPECT_NE(pick({DType::c128, 1025, 1024}), Algorithm::gather) << "past 16 MiB";
  EXPECT_NE(pick({DType::c128, 2048, 2048}), Algorithm::gather);
}

// With the output pointer inside a 32-byte sector (16 bytes past its start), gather's short output
// runs cut sectors: past 4 MiB the automatic plan takes tiled_vec instead, which configures for it. An
// unknown offset (-1), one on the sector grid, output rows off that grid, 4 MiB or less, batches whose
// tiled_vec tiles would be mostly empty, and inputs tiled_vec cannot read keep gather.
TEST(GpuPlanner, GatherGivesWayToTiledVecWhereTheOutputLiesInsideASector) {
  using xpose::plan::choose_gpu_algorithm;
  const auto pick = [](xpose::TransposeDesc d, int out_offset) {
    const Algorithm a =
        choose_gpu_algorithm(xpose::resolved(d), 16, xpose::plan::kSmallBatchMaxWholeMatrixBytes, out_offset);
    xpose::LaunchConfig config;
    if (a == Algorithm::tiled_vec)
      EXPECT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved(d), 16, 132, config).ok())
          << xpose_test::describe(d);
    return a;
  };
  const xpose::TransposeDesc c128_1024{DType::c128, 1024, 1024};
  EXPECT_EQ(pick(c128_1024, -1), Algorithm::gather);
  EXPECT_EQ(pick(c128_1024, 0), Algorithm::gather);
  EXPECT_EQ(pick(c128_1024, 64), Algorithm::gather) << "on the sector grid";
  EXPECT_EQ(pick(c128_1024, 16), Algorithm::tiled_vec);
  EXPECT_EQ(pick(c128_1024, 240), Algorithm::tiled_vec);
  const xpose::TransposeDesc rows_off_grid{DType::c128, 1024, 1024, 1, 1024, 1025};  // every other row cut
  ASSERT_EQ(pick(rows_off_grid, 0), Algorithm::gather);
  EXPECT_EQ(pick(rows_off_grid, 16), Algorithm::gather) << "output rows off the sector grid: not measured";
  EXPECT_EQ(pick({DType::c128, 256, 256}, 16), Algorithm::gather) << "1 MiB: bound by latency, gather leads";
  EXPECT_EQ(pick({DType::c128, 512, 512}, 16), Algorithm::gather) << "4 MiB: level";
  EXPECT_EQ(pick({DType::c128, 640, 640}, 16), Algorithm::tiled_vec);
  EXPECT_EQ(pick({DType::c128, 40, 40, 2621}, 0), Algorithm::gather) << "a batch of short matrices";
  EXPECT_EQ(pick({DType::c128, 40, 40, 2621}, 16), Algorithm::tiled_vec);
  EXPECT_EQ(pick({DType::c128, 127100, 33}, 16), Algorithm::tiled_vec) << "tall, a short last tile column";
  EXPECT_EQ(pick({DType::f64, 1024, 1024}, 16), Algorithm::tiled_vec) << "8 MiB of 8-byte elements";
  EXPECT_EQ(pick({DType::bf16, 2048, 2048}, 16), Algorithm::tiled_vec) << "8 MiB of 2-byte elements";
  EXPECT_EQ(pick({DType::f64, 40, 40, 5242}, 16), Algorithm::tiled_vec) << "a batch of short 8-byte matrices";
  EXPECT_EQ(pick({DType::f32, 512, 512}, 16), Algorithm::gather) << "1 MiB of 4-byte elements";
  const xpose::TransposeDesc f32_batch{DType::f32, 72, 72, 3236};
  ASSERT_TRUE(xpose::plan::gather_fills_batch_tiles(xpose::resolved(f32_batch)));
  EXPECT_EQ(pick(f32_batch, 16), Algorithm::gather) << "tiled_vec's tiles would be a third full";
  // 2-byte input rows off tiled_vec's grid: gather reads them element by element; tiled_vec cannot.
  const xpose::TransposeDesc bf16_odd{DType::bf16, 1536, 1535, 1, 1535, 1536};
  ASSERT_EQ(pick(bf16_odd, 0), Algorithm::gather);
  EXPECT_EQ(pick(bf16_odd, 16), Algorithm::gather);
  EXPECT_FALSE(xpose::plan::gather_gives_way_off_sector(xpose::resolved(c128_1024), -1));
  EXPECT_TRUE(xpose::plan::gather_gives_way_off_sector(xpose::resolved(c128_1024), 48));
}

// tiled_unaligned's whole-chunk tiles: 1- and 2-byte elements only, a 16-byte aligned output whose
// rows, and in a batch whose matrices, start on that grid; the input may lie anywhere.
TEST(GpuPlanner, UnalignedOutputOnTheGrid) {
  using xpose::plan::unaligned_output_on_grid;
  const auto on_grid = [](xpose::TransposeDesc d, int alignment = 16) {
    return unaligned_output_on_grid(xpose::resolved(d), alignment);
  };
  EXPECT_TRUE(on_grid({DType::u8, 12288, 5461}));
  EXPECT_TRUE(on_grid({DType::bf16, 768, 50257}));
  EXPECT_TRUE(on_grid({DType::i8, 100, 301, 1, 303, 112}));
  EXPECT_TRUE(on_grid({DType::f16, 50, 70, 3, 73, 64, 50 * 73 + 5, 70 * 64 + 16}));
  EXPECT_FALSE(on_grid({DType::u8, 12288, 5461}, 8)) << "an output pointer off the 16-byte grid";
  EXPECT_TRUE(on_grid({DType::u8, 262144, 256})) << "output rows on the grid, whatever the input rows";
  EXPECT_FALSE(on_grid({DType::u8, 8191, 8193})) << "output rows 8191 bytes apart";
  EXPECT_FALSE(on_grid({DType::bf16, 8192, 8192, 1, 8200, 8196})) << "output rows on the 8-byte grid";
  EXPECT_FALSE(on_grid({DType::bf16, 40, 70, 3, 73, 64, 40 * 73, 70 * 64 + 4})) << "matrices off the grid";
  EXPECT_FALSE(on_grid({DType::f32, 12288, 5461})) << "4-byte elements";
}

// A pointer's own alignment from its offset past a 256-byte boundary, up to 16 bytes; the plan's where
// the offset is unknown, never less than it.
TEST(GpuPlanner, PointerAlignmentFromItsOffset) {
  using xpose::plan::pointer_alignment;
  EXPECT_EQ(pointer_alignment(1, -1), 1);
  EXPECT_EQ(pointer_alignment(16, -1), 16);
  EXPECT_EQ(pointer_alignment(1, 0), 16);
  EXPECT_EQ(pointer_alignment(1, 128), 16);
  EXPECT_EQ(pointer_alignment(1, 1), 1);
  EXPECT_EQ(pointer_alignment(2, 6), 2);
  EXPECT_EQ(pointer_alignment(1, 24), 8);
  EXPECT_EQ(pointer_alignment(1, 52), 4);
  EXPECT_EQ(pointer_alignment(8, 24), 8);
  EXPECT_EQ(pointer_alignment(4, 2), 4) << "the plan's alignment is a floor";
}

// tiled_unaligned's line tiles: 1- and 2-byte elements, a 16-byte aligned input, input rows and
// matrices on the 16-byte grid, output rows off it (by their stride, or by the output pointer). Where
// the output rows lie on the 8-byte grid, matrices that tiled_sectors leaves to tiled_vec take them
// with a tile of rows and 512 tiles or more (2-byte elements, and single 1-byte matrices).
TEST(GpuPlanner, UnalignedInputOnTheGrid) {
  using xpose::plan::unaligned_input_on_grid;
  const auto on_grid = [](xpose::TransposeDesc d, int alignment = 16) {
    return unaligned_input_on_grid(xpose::resolved(d), alignment, alignment);
  };
  const auto on_grid_sides = [](xpose::TransposeDesc d, int in_alignment, int out_alignment) {
    return unaligned_input_on_grid(xpose::resolved(d), in_alignment, out_alignment);
  };
  EXPECT_TRUE(on_grid_sides({DType::u8, 256, 262144}, 16, 1)) << "output rows on the grid, the pointer off it";
  EXPECT_TRUE(on_grid_sides({DType::bf16, 2049, 2048}, 16, 2)) << "output rows and pointer off the grid";
  EXPECT_FALSE(on_grid_sides({DType::u8, 256, 262144}, 1, 16)) << "the input pointer off the grid";
  EXPECT_FALSE(on_grid_sides({DType::u8, 256, 262144}, 16, 16)) << "both on the grid: tiled_vec's";
  EXPECT_TRUE(on_grid({DType::u8, 5461, 12288}));
  EXPECT_TRUE(on_grid({DType::bf16, 2049, 2048}));
  EXPECT_TRUE(on_grid({DType::i8, 50, 70, 3, 80, 53, 50 * 80 + 16, 73 * 53 + 1}));
  EXPECT_TRUE(on_grid({DType::f16, 2044, 2048})) << "output rows on the 8-byte grid";
  EXPECT_FALSE(on_grid({DType::u8, 5461, 12288}, 8)) << "a pointer off the 16-byte grid";
  EXPECT_FALSE(on_grid({DType::u8, 8191, 8193})) << "input rows 8193 bytes apart";
  EXPECT_FALSE(on_grid({DType::bf16, 2048, 2048})) << "output rows on the grid too";
  EXPECT_FALSE(on_grid({DType::bf16, 40, 64, 3, 64, 41, 40 * 64 + 4})) << "matrices off the grid";
  EXPECT_FALSE(on_grid({DType::f32, 5461, 12288})) << "4-byte elements";

  using xpose::plan::choose_gpu_algorithm;
  const auto pick = [](xpose::TransposeDesc d, int alignment = 16) {
    return choose_gpu_algorithm(xpose::resolved(d), alignment);
  };
  EXPECT_EQ(pick({DType::u8, 5461, 12288}), Algorithm::tiled_unaligned);
  EXPECT_EQ(pick({DType::bf16, 2044, 2048}), Algorithm::tiled_unaligned) << "608 tiles";
  EXPECT_EQ(pick({DType::u8, 1000, 8192}), Algorithm::tiled_unaligned) << "640 tiles";
  EXPECT_EQ(pick({DType::bf16, 2044, 2048}, 8), Algorithm::tiled_vec) << "8-byte aligned pointers";
  EXPECT_EQ(pick({DType::bf16, 1020, 2048}), Algorithm::tiled_vec) << "320 tiles";
  EXPECT_EQ(pick({DType::u8, 200, 335552}), Algorithm::tiled_vec) << "fewer rows than a tile";
  EXPECT_EQ(pick({DType::bf16, 1004, 1024, 32}), Algorithm::tiled_unaligned) << "a batch of 2-byte matrices";
  EXPECT_EQ(pick({DType::u8, 1000, 1024, 64}), Algorithm::tiled_vec) << "a batch of 1-byte matrices";
  EXPECT_EQ(pick({DType::u8, 8200, 8192}), Algorithm::tiled_sectors) << "large, output rows mid-sector";
}

// Whether tiled_sectors takes its tiles of 128-byte rows for d, loaded load_bytes at a time, on a GPU of
// sm_count SMs (132 as on an H100 or H200).
bool wide_rows(xpose::TransposeDesc d, int load_bytes = 8, int sm_count = 132) {
  return xpose::plan::tiled_sectors_wide_rows(xpose::resolved(d), load_bytes, sm_count);
}

// tiled_sectors' tiles of 128-byte rows: single 1-byte matrices of 128 MiB or more, 4096 or more on
// each side, with 8-byte loads only (what was measured).
TEST(GpuPlanner, SectorTilesWidenOnLargeSingleOneByteMatrices) {
  EXPECT_TRUE(wide_rows({DType::u8, 16384, 16384, 1, 16392, 16392}));
  EXPECT_TRUE(wide_rows({DType::u8, 16384, 8192, 1, 8200, 16392})) << "128 MiB";
  EXPECT_TRUE(wide_rows({DType::u8, 32768, 4096, 1, 4104, 32776})) << "4096 columns";
  EXPECT_FALSE(wide_rows({DType::u8, 16383, 8192, 1, 8200, 16392})) << "under 128 MiB";
  EXPECT_FALSE(wide_rows({DType::u8, 8192, 8192, 1, 8200, 8200})) << "the suite's 64 MiB case";
  EXPECT_FALSE(wide_rows({DType::u8, 8192, 8192, 4, 8200, 8200})) << "batches were not measured";
  EXPECT_FALSE(wide_rows({DType::u8, 16384, 8192, 2, 8200, 16392})) << "nor batches of 128 MiB matrices";
  EXPECT_FALSE(wide_rows({DType::u8, 16384, 16384, 1, 16400, 16392}, 16)) << "nor 16-byte loads";
  EXPECT_FALSE(wide_rows({DType::u8, 1048576, 136, 1, 136, 1048584})) << "nor a side under 4096";
  EXPECT_FALSE(wide_rows({DType::bf16, 16384, 16384, 1, 16388, 16388})) << "2-byte elements keep their tile";
}

// Below that, on a GPU of 132 SMs (one wave: 528 blocks), u8 matrices of whole wide tiles (256 rows of
// 128 bytes) take them where they fit in one wave and the 64-byte rows' tiles do not.
TEST(GpuPlanner, SectorTilesWidenWhereTheyFitOneWave) {
  EXPECT_TRUE(wide_rows({DType::u8, 4096, 4096, 1, 4104, 4104})) << "512 wide tiles";
  EXPECT_TRUE(wide_rows({DType::u8, 4096, 4096, 1, 4112, 4104}, 16)) << "16-byte loads";
  EXPECT_TRUE(wide_rows({DType::u8, 3072, 4096, 1, 4104, 3080})) << "384 wide tiles";
  EXPECT_TRUE(wide_rows({DType::u8, 2048, 2048, 4, 2056, 2056})) << "a batch";
  EXPECT_TRUE(wide_rows({DType::u8, 4352, 3840, 1, 3848, 4360})) << "510 wide tiles";
  EXPECT_FALSE(wide_rows({DType::u8, 4096, 2048, 1, 2056, 4104})) << "256 wide tiles: the narrow ones fit one wave";
  EXPECT_FALSE(wide_rows({DType::u8, 6144, 4096, 1, 4104, 6152})) << "768 wide tiles";
  EXPECT_FALSE(wide_rows({DType::u8, 5000, 3000, 1, 3000, 5000})) << "partial tiles";
  EXPECT_FALSE(wide_rows({DType::u8, 4096, 4000, 1, 4008, 4104})) << "a partial tile column";
  EXPECT_FALSE(wide_rows({DType::u8, 4096, 4096, 1, 4104, 4104}, 8, 0)) << "no device";
  EXPECT_FALSE(wide_rows({DType::u8, 4096, 4096, 1, 4104, 4104}, 8, 100)) << "512 tiles past one wave of 100 SMs";
  EXPECT_TRUE(wide_rows({DType::u8, 4096, 2048, 1, 2056, 4104}, 8, 64)) << "256 tiles, one wave of 64 SMs";
  EXPECT_FALSE(wide_rows({DType::bf16, 4096, 4096, 1, 4100, 4100})) << "2-byte elements keep their tile";
}

// 2-byte elements under 8 MiB with input rows off the 8-byte grid and output rows on the sector grid
// take gather (tiled_unaligned where output rows start mid-sector, for larger matrices, whose output
// rows on the 16-byte grid it writes in whole chunks, and for other element sizes); so do tall
// 16-byte matrices of 33 to 127 columns whose last 32-column tiled_vec tile is at most a quarter
// full, and large batches of 2- and 4-byte matrices that tiled_vec's tiles would fill to less than
// three quarters.
TEST(GpuPlanner, GatherTakesTwoByteInputOffTheGridPartTiledBatchesAndTallWideElements) {
  using xpose::plan::choose_gpu_algorithm;
  const auto pick = [](xpose::TransposeDesc d, int alignment = 16) {
    return choose_gpu_algorithm(xpose::resolved(d), alignment);
  };
  EXPECT_EQ(pick({DType::bf16, 512, 511}), Algorithm::gather);
  EXPECT_EQ(pick({DType::bf16, 208, 333, 5}), Algorithm::gather);
  EXPECT_EQ(pick({DType::f16, 1536, 1535}), Algorithm::gather);
  EXPECT_EQ(pick({DType::bf16, 1024, 1022, 1, 1023}), Algorithm::gather) << "input rows on the 2-byte grid";
  EXPECT_EQ(pick({DType::bf16, 2048, 2047, 2}), Algorithm::tiled_unaligned) << "8 MiB";
  EXPECT_EQ(pick({DType::bf16, 8192, 8191}), Algorithm::tiled_unaligned);
  EXPECT_EQ(pick({DType::f16, 92672, 362}), Algorithm::tiled_unaligned) << "input rows on the 4-byte grid";
  EXPECT_EQ(pick({DType::bf16, 4096, 4095, 4}), Algorithm::tiled_unaligned);
  EXPECT_EQ(pick({DType::bf16, 8192, 8192, 1, 8194}), Algorithm::tiled_unaligned);
  EXPECT_EQ(pick({DType::bf16, 512, 511, 1, 511, 520}), Algorithm::tiled_unaligned) << "mid-sector output rows";
  EXPECT_EQ(pick({DType::bf16, 1000, 1001, 64}), Algorithm::tiled_unaligned) << "mid-sector output rows";
  EXPECT_EQ(pick({DType::bf16, 512, 511}, 8), Algorithm::tiled_unaligned) << "gather needs 16-byte pointers";
  EXPECT_EQ(pick({DType::bf16, 92672, 300}), Algorithm::tiled_vec) << "input rows on the 8-byte grid";
  EXPECT_EQ(pick({DType::u8, 8192, 8191}), Algorithm::tiled_unaligned);
  EXPECT_EQ(pick({DType::f32, 8192, 8191}), Algorithm::tiled_unaligned);
  EXPECT_EQ(pick({DType::bf16, 8191, 8193}), Algorithm::tiled_unaligned) << "output rows off the 16-byte grid";
  for (std::int64_t cols : {33, 34, 36, 40, 65, 72, 97})
    EXPECT_EQ(pick({DType::c128, 127100, cols}), Algorithm::gather) << cols;
  for (std::int64_t cols : {44, 48, 64, 129, 140})
    EXPECT_EQ(pick({DType::c128, 127100, cols}), Algorithm::tiled_vec) << cols;
  EXPECT_NE(pick({DType::c128, 33, 127100}), Algorithm::gather) << "a few rows";
  EXPECT_NE(pick({DType::c128, 2000, 33}), Algorithm::gather) << "under 8 MiB";
  EXPECT_NE(pick({DType::f64, 127100, 33}), Algorithm::gather) << "16-byte elements only";
  EXPECT_EQ(pick({DType::c128, 104857, 36}), Algorithm::tiled_vec) << "mid-sector output rows";
  // Batches of 2- and 4-byte matrices whose tiled_vec tiles would be less than three quarters full.
  const auto batch_of_64_mib = [](DType t, std::int64_t n) {
    return (std::int64_t{64} << 20) / (n * n * static_cast<std::int64_t>(xpose::dtype_size(t)));
  };
  for (std::int64_t n : {48, 80, 96})
    EXPECT_EQ(pick({DType::f32, n, n, batch_of_64_mib(DType::f32, n)}), Algorithm::gather) << n;
  for (std::int64_t n : {56, 64, 128, 100})
    EXPECT_EQ(pick({DType::f32, n, n, batch_of_64_mib(DType::f32, n)}), Algorithm::tiled_vec) << n;
  for (std::int64_t n : {96, 160})
    EXPECT_EQ(pick({DType::bf16, n, n, batch_of_64_mib(DType::bf16, n)}), Algorithm::gather) << n;
  // Up to small_batch's 16 KiB tile its rotated and swizzled reads lead for 1- and 2-byte elements.
  for (std::int64_t n : {72, 80, 88})
    EXPECT_EQ(pick({DType::bf16, n, n, batch_of_64_mib(DType::bf16, n)}), Algorithm::small_batch) << n;
  for (std::int64_t n : {96, 112})
    EXPECT_EQ(pick({DType::u8, n, n, batch_of_64_mib(DType::u8, n)}), Algorithm::small_batch) << n;
  EXPECT_EQ(pick({DType::u8, 128, 128, batch_of_64_mib(DType::u8, 128)}), Algorithm::tiled_vec) << "full tiles";
  // Off the 16-byte grid (tiled_vec at 8 bytes), vectors wrapping into the next column, read in order.
  for (auto [t, r, c] : {std::tuple{DType::u8, 120, 128}, {DType::u8, 88, 128}, {DType::u8, 72, 128},
                         std::tuple{DType::bf16, 60, 128}})
    EXPECT_EQ(pick({t, r, c, 4000}), Algorithm::tiled_vec) << r << "x" << c;
  EXPECT_EQ(pick({DType::u8, 120, 96, 4000}), Algorithm::tiled_vec) << "tall, but not left to skinny";
  for (auto [t, r, c] : {std::tuple{DType::u8, 112, 120}, {DType::u8, 128, 72}, {DType::u8, 120, 120},
                         std::tuple{DType::bf16, 76, 76}, {DType::u8, 56, 128}})
    EXPECT_EQ(pick({t, r, c, 4000}), Algorithm::small_batch) << r << "x" << c << ": rotated, not wrapping or 8 KiB";
  EXPECT_EQ(pick({DType::bf16, 64, 96, 5000}), Algorithm::tiled_vec) << "tiles three quarters full";
  for (std::int64_t n : {64, 128, 192})
    EXPECT_EQ(pick({DType::bf16, n, n, batch_of_64_mib(DType::bf16, n)}), Algorithm::tiled_vec) << n;
  EXPECT_EQ(pick({DType::u8, 160, 160, batch_of_64_mib(DType::u8, 160)}), Algorithm::small_batch)
      << "1-byte elements, tiles 62% full: one whole matrix per block";
  EXPECT_EQ(pick({DType::f32, 80, 80, 100}), Algorithm::tiled_vec) << "under 8 MiB";
  EXPECT_EQ(pick({DType::f32, 1000, 1000, 64}), Algorithm::tiled_vec) << "the suite's batch: tiles 95% full";
  // The GPU test's cases (gpu_fast_path_test.cpp, AutomaticPlanOnShortSidesAndMidSectorOutputRows).
  EXPECT_EQ(pick({DType::c128, 16390, 35}), Algorithm::gather);
  EXPECT_EQ(pick({DType::bf16, 1024, 1001}), Algorithm::gather);
  EXPECT_EQ(pick({DType::bf16, 2000, 515, 1, 518}), Algorithm::gather);
  EXPECT_EQ(pick({DType::bf16, 208, 333, 5}), Algorithm::gather);
}

// Few rows of packed output off the grid. Large matrices: gather only for 2-byte elements whose output
// rows lie on the sector grid, read as words; tiled_unaligned's whole-chunk tiles for rows read 2 bytes
// at a time whose output rows on the 16-byte grid fill three quarters of its 128-byte tile rows;
// skinny elsewhere up to its caps (84 rows of 2-byte elements, past which tiled_unaligned where the output
// rows lie on the 16-byte grid, and skinny's slabs again where they do not, to 128 rows). Under 8
// MiB gather where its output rows lie on the sector grid, or (2-byte elements) where one 64-row tile
// holds them, with 2-byte loads from 32 rows.
TEST(GpuPlanner, FewRowsOffTheGridTakeGatherWhereItWritesWholeSectors) {
  const auto choice = [](DType t, std::int64_t r, std::int64_t c, int alignment = 16, std::int64_t ld_out = 0) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c, 1, 0, ld_out}), alignment);
  };
  const auto words = [](std::int64_t rows) { return 33554432 / rows / 4 * 4 + 2; };  // input rows on the 4-byte grid
  const auto halves = [](std::int64_t rows) { return 33554432 / rows | 1; };         // and off it
  for (std::int64_t rows : {64, 80, 96})
    EXPECT_EQ(choice(DType::bf16, rows, words(rows)), Algorithm::gather) << rows << " rows, words";
  for (std::int64_t rows : {16, 32, 48})  // skinny's wide-rows register kernel
    EXPECT_EQ(choice(DType::bf16, rows, words(rows)), Algorithm::skinny) << rows << " rows, words";
  for (std::int64_t rows : {24, 40, 56, 72})  // output rows mid-sector: skinny
    EXPECT_EQ(choice(DType::bf16, rows, words(rows)), Algorithm::skinny) << rows << " rows, words";
  EXPECT_EQ(choice(DType::bf16, 88, words(88)), Algorithm::tiled_unaligned) << "past skinny's 84 rows";
  for (std::int64_t rows : {48, 56, 64, 96})  // filling 3/4 of the 128-byte tile rows
    EXPECT_EQ(choice(DType::bf16, rows, halves(rows)), Algorithm::tiled_unaligned) << rows << " rows, 2-byte loads";
  EXPECT_EQ(choice(DType::bf16, 80, halves(80)), Algorithm::gather) << "80 rows, 2-byte loads";
  for (std::int64_t rows : {16, 24, 32, 40})
    EXPECT_EQ(choice(DType::bf16, rows, halves(rows)), Algorithm::skinny) << rows << " rows, 2-byte loads";
  // Under 8 MiB (skinny's slabs would make too few blocks).
  EXPECT_EQ(choice(DType::bf16, 32, 8193), Algorithm::gather);
  EXPECT_EQ(choice(DType::bf16, 40, 6002), Algorithm::gather) << "words, one tile row";
  EXPECT_EQ(choice(DType::bf16, 48, 43691), Algorithm::gather);
  EXPECT_EQ(choice(DType::bf16, 24, 8193), Algorithm::skinny) << "2-byte loads under 32 rows";
  EXPECT_EQ(choice(DType::f32, 16, 65537), Algorithm::gather);
  EXPECT_EQ(choice(DType::f32, 24, 8193), Algorithm::skinny) << "4-byte elements: output rows a multiple of 64 bytes";
  EXPECT_EQ(choice(DType::f64, 16, 16385), Algorithm::gather);
  EXPECT_EQ(choice(DType::f64, 18, 16385), Algorithm::skinny) << "output rows mid-sector";
  // Elsewhere skinny.
  EXPECT_EQ(choice(DType::bf16, 48, 699050, 8), Algorithm::skinny) << "gather needs 16-byte pointers";
  EXPECT_EQ(choice(DType::bf16, 48, 699050, 16, 56), Algorithm::skinny) << "padded output rows off the grid";
  EXPECT_EQ(choice(DType::bf16, 99, 84733, 16, 104), Algorithm::skinny) << "padded output rows ending mid-chunk";
  EXPECT_EQ(choice(DType::bf16, 40, 838860), Algorithm::skinny) << "input rows on the 8-byte grid: registers";
  EXPECT_EQ(choice(DType::u8, 48, 1398101), Algorithm::skinny) << "1-byte loads";
  EXPECT_EQ(choice(DType::u8, 32, 2097155), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 16, 1048577), Algorithm::skinny) << "large: 4-byte elements on skinny";
  EXPECT_EQ(choice(DType::f32, 32, 524289), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 16, 262145), Algorithm::skinny) << "large: 8-byte elements on skinny";
  EXPECT_EQ(choice(DType::f64, 20, 209715), Algorithm::skinny);
  EXPECT_NE(choice(DType::bf16, 128, 262145), Algorithm::skinny) << "past 84 rows, output rows on the grid";
  for (std::int64_t rows : {68, 72, 76, 84})
    EXPECT_EQ(choice(DType::bf16, rows, halves(rows) | 2), Algorithm::skinny) << rows;
  EXPECT_EQ(choice(DType::bf16, 88, halves(88) | 2), Algorithm::tiled_unaligned) << "output rows on the 16-byte grid";
  for (std::int64_t rows : {92, 100, 124})  // FewRowsWithOutputOffTheGridTakeSlabs
    EXPECT_EQ(choice(DType::bf16, rows, halves(rows) | 2), Algorithm::skinny) << rows << ": output rows off the grid";
}

// Large batches of matrices of 33 to 128 rows of 8-byte elements (to 48 of 16-byte ones) whose last
// 32-row tiled_vec tile is at most half full take gather's 16-row tiles.
TEST(GpuPlanner, BatchesOfShortMatricesTakeGatherWhereItsTilesFillBetter) {
  using xpose::plan::choose_gpu_algorithm;
  const auto pick = [](DType t, std::int64_t n, std::int64_t batch, int alignment = 16) {
    return choose_gpu_algorithm(xpose::resolved({t, n, n, batch}), alignment);
  };
  const auto batch_of_64_mib = [](std::int64_t n) { return (std::int64_t{64} << 20) / (n * n * 8); };
  for (std::int64_t n : {34, 40, 48, 72, 80, 100, 112})
    EXPECT_EQ(pick(DType::f64, n, batch_of_64_mib(n)), Algorithm::gather) << n;
  for (std::int64_t n : {52, 56, 60, 96, 128})
    EXPECT_EQ(pick(DType::f64, n, batch_of_64_mib(n)), Algorithm::tiled_vec) << n;
  EXPECT_EQ(pick(DType::c128, 40, 2621), Algorithm::gather);
  EXPECT_EQ(pick(DType::c128, 72, 809), Algorithm::tiled_vec) << "16-byte elements: up to 48 rows";
  EXPECT_NE(pick(DType::f64, 40, 5242, 8), Algorithm::gather) << "gather writes 16-byte vectors";
  EXPECT_EQ(pick(DType::f32, 40, 10485), Algorithm::small_batch) << "4-byte elements keep their rule";
  EXPECT_EQ(pick(DType::f64, 24, 14563), Algorithm::small_batch) << "up to 32 rows: small_batch";
  EXPECT_EQ(pick(DType::f64, 40, 100), Algorithm::tiled_vec) << "small batches take tiled_vec's smaller tiles";
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::f64, 40, 1000, 200}), 16), Algorithm::tiled_vec)
      << "up to 128 columns";
  EXPECT_FALSE(xpose::plan::gather_fills_short_rows(xpose::resolved({DType::f64, 40, 40})))
      << "a single matrix";
  // The GPU test's cases (gpu_fast_path_test.cpp, AutomaticPlanOnShortSidesAndMidSectorOutputRows).
  EXPECT_EQ(pick(DType::f64, 40, 2700), Algorithm::gather);
  EXPECT_EQ(pick(DType::f64, 40, 700), Algorithm::tiled_vec) << "under 32 MiB tiled_vec's f64 tiles have 16 rows";
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::c128, 34, 46, 400}), 16), Algorithm::gather);
  for (DType t : {DType::f32, DType::f64, DType::c128}) {
    const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t)), ld = 2048 + 16 / e;
    EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({t, 16 / e + 32 / e * 31, 300, 40}), 16), Algorithm::tiled_vec);
    EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({t, 6000 + 16 / e, 200}), 16), Algorithm::tiled_vec);
    EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({t, 2048, 2048, 1, ld, ld}), 16), Algorithm::tiled_unaligned);
  }
}

// Single large matrices of a few tens of rows whose last 32-row tile would be at most half full take
// tiled_vec's 16-row tiles where their output rows lie on the sector grid, and for 8-byte elements
// on the 8-byte grid only (in place of tiled_unaligned).
TEST(GpuPlanner, ShortMatricesTakeSixteenRowTiles) {
  const auto plan = [](DType t, std::int64_t rows, std::int64_t cols, xpose::Algorithm* a) {
    const xpose::TransposeDesc d = xpose::resolved({t, rows, cols});
    *a = xpose::plan::choose_gpu_algorithm(d, 16);
    xpose::LaunchConfig c;
    EXPECT_TRUE(xpose::plan::configure_tiled_vec(d, 16, 132, c).ok());
    return c;
  };
  Algorithm a;
  EXPECT_EQ(plan(DType::f64, 40, 209714, &a).tile_rows, 16);
  EXPECT_EQ(a, Algorithm::tiled_vec);
  EXPECT_EQ(plan(DType::f32, 40, 419428, &a).tile_rows, 16);
  EXPECT_EQ(plan(DType::c128, 100, 41943, &a).tile_rows, 16);
  EXPECT_EQ(plan(DType::c128, 40, 104857, &a).tile_rows, 32) << "16-byte elements: past 64 rows";
  EXPECT_EQ(plan(DType::f32, 104, 161316, &a).tile_rows, 64) << "4- and 8-byte elements: up to 80 rows";
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::f64, 100, 83887}), 16),
            Algorithm::tiled_unaligned)
      << "8-byte elements off the 16-byte grid: up to 64 rows";
  const xpose::LaunchConfig off_grid = plan(DType::f64, 40, 209715, &a);
  EXPECT_EQ(a, Algorithm::tiled_vec) << "8-byte elements on the 8-byte grid only, past skinny's 33 rows";
  EXPECT_EQ(off_grid.tile_rows, 16);
  EXPECT_EQ(off_grid.vector_bytes, 8);
  EXPECT_EQ(plan(DType::f64, 34, 246722, &a).tile_rows, 32) << "output rows mid-sector";
  EXPECT_EQ(plan(DType::f32, 36, 466032, &a).tile_rows, 64) << "output rows mid-sector";
  EXPECT_EQ(plan(DType::f64, 56, 149796, &a).tile_rows, 32) << "the last 32-row tile more than half full";
  EXPECT_EQ(plan(DType::f64, 100, 83886, &a).tile_rows, 32) << "more than 80 rows";
  // The GPU test's cases (AutomaticPlanOnShortSidesAndMidSectorOutputRows), just past 8 MiB.
  EXPECT_EQ(plan(DType::f32, 40, 52432, &a).tile_rows, 16);
  EXPECT_EQ(plan(DType::f64, 40, 26216, &a).tile_rows, 16);
  EXPECT_EQ(plan(DType::c128, 72, 7282, &a).tile_rows, 16);
  EXPECT_EQ(plan(DType::f64, 40, 26215, &a).tile_rows, 16);
  EXPECT_EQ(a, Algorithm::tiled_vec);
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::f32, 48, 174763}), 16),
            Algorithm::tiled_unaligned)
      << "4-byte elements off the 16-byte grid keep tiled_unaligned";
  EXPECT_FALSE(xpose::plan::tiled_vec_sixteen_row_tiles(xpose::resolved({DType::f64, 40, 2000}), 16))
      << "small matrices keep their tiles";
  EXPECT_FALSE(xpose::plan::tiled_vec_sixteen_row_tiles(xpose::resolved({DType::f64, 40, 2000, 100}), 16))
      << "batches keep their tiles";
}

// Matrices of 512 KiB or more (batches too) of a few tens of rows of 4- and 8-byte elements with output rows
// off the 16-byte grid, by their stride (packed or padded) or by the output pointer: skinny's slabs, up to
// output rows of 384 bytes (96 rows of 4-byte elements, 48 of 8-byte ones), where the tiles would run; the
// measured planner has them as a candidate. So do 85 to 128 rows of 2-byte elements from 8 MiB.
TEST(GpuPlanner, FewRowsWithOutputOffTheGridTakeSlabs) {
  const auto choice = [](DType t, std::int64_t rows, std::int64_t cols, int alignment, int out_offset,
                         std::int64_t batch = 1, std::int64_t ld_out = 0) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, rows, cols, batch, 0, ld_out}), alignment,
                                             xpose::plan::kSmallBatchMaxWholeMatrixBytes, out_offset);
  };
  // The output pointer off the grid, one element or 8 bytes.
  EXPECT_EQ(choice(DType::f64, 48, 174762, 8, 8), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 34, 246723, 8, 8), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 48, 21846, 8, 136), Algorithm::skinny) << "8 MiB";
  EXPECT_EQ(choice(DType::f32, 41, 409200, 4, 4), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 80, 209715, 4, 4), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 96, 174762, 4, 4), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 48, 349525, 8, 8), Algorithm::skinny);
  // Output rows off the grid by their stride, pointers on it.
  EXPECT_EQ(choice(DType::f64, 47, 178481, 16, 0), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 41, 204600, 16, 0), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 45, 372827, 16, 0), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 45, 372827, 16, -1), Algorithm::skinny) << "the strides alone decide";
  // Kept on the tiles: past the caps, below skinny's own caps' reach, output rows and pointer on the
  // grid (input rows or pointer off it), an unknown output pointer, 16-byte elements, small matrices.
  EXPECT_NE(choice(DType::f64, 56, 149796, 8, 8), Algorithm::skinny);
  EXPECT_NE(choice(DType::f64, 64, 131072, 8, 8), Algorithm::skinny);
  EXPECT_NE(choice(DType::f32, 100, 167772, 4, 4), Algorithm::skinny);
  EXPECT_NE(choice(DType::f64, 50, 167772, 8, 8), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 48, 174763, 16, 0), Algorithm::tiled_vec) << "input rows off the grid";
  EXPECT_NE(choice(DType::f64, 48, 174762, 8, 0), Algorithm::skinny) << "the input pointer off the grid";
  EXPECT_NE(choice(DType::f64, 48, 174762, 8, -1), Algorithm::skinny) << "which pointer is off: unknown";
  EXPECT_NE(choice(DType::c128, 48, 87381, 8, 8), Algorithm::skinny) << "16-byte elements";
  EXPECT_NE(choice(DType::f64, 48, 1365, 8, 8), Algorithm::skinny) << "under 512 KiB";
  EXPECT_NE(choice(DType::f64, 48, 174762, 16, 0, 1, 50), Algorithm::skinny) << "padded output rows on the grid";
  // Padded output rows off the grid, batches, matrices from 512 KiB.
  EXPECT_EQ(choice(DType::f64, 48, 174762, 16, 0, 1, 49), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 34, 246723, 16, 0, 1, 35), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 96, 174762, 16, 0, 1, 97), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 48, 349525, 8, 8, 1, 50), Algorithm::skinny) << "padded off the grid, pointer off";
  EXPECT_NE(choice(DType::f64, 48, 174762, 8, 8, 1, 50), Algorithm::skinny) << "padded on the grid, pointer off";
  EXPECT_EQ(choice(DType::f64, 48, 43690, 8, 8, 4), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 47, 22310, 16, 0, 8), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 48, 43690, 4, 4, 8), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f64, 48, 21845, 8, 8), Algorithm::skinny) << "8 MiB less 128 bytes";
  EXPECT_EQ(choice(DType::f32, 96, 10922, 4, 4), Algorithm::skinny) << "4 MiB";
  EXPECT_EQ(choice(DType::f64, 48, 5462, 8, 8), Algorithm::skinny) << "2 MiB";
  EXPECT_EQ(choice(DType::f64, 48, 1366, 8, 8), Algorithm::skinny) << "512 KiB";
  EXPECT_EQ(choice(DType::f32, 64, 2048, 4, 4), Algorithm::skinny) << "512 KiB";
  const auto listed = [](DType t, std::int64_t rows, std::int64_t cols) {
    for (const xpose::plan::Candidate& c : xpose::plan::gpu_candidates(xpose::resolved({t, rows, cols}), 8, 132))
      if (c.algorithm == Algorithm::skinny) return true;
    return false;
  };
  // 85 to 128 rows of 2-byte elements from 8 MiB, packed output off the grid by the pointer or the stride.
  EXPECT_EQ(choice(DType::bf16, 96, 349525, 2, 2), Algorithm::skinny);
  EXPECT_EQ(choice(DType::bf16, 96, 349525, 8, 8), Algorithm::skinny) << "four elements off, input rows off";
  EXPECT_NE(choice(DType::bf16, 100, 335544, 16, 0), Algorithm::skinny) << "tiled_vec's 8-byte accesses run";
  EXPECT_NE(choice(DType::bf16, 96, 349524, 8, 8), Algorithm::skinny) << "tiled_vec's 8-byte accesses run";
  EXPECT_EQ(choice(DType::bf16, 115, 291805, 16, 0), Algorithm::skinny);
  EXPECT_EQ(choice(DType::bf16, 115, 291805, 16, -1), Algorithm::skinny) << "the strides alone decide";
  EXPECT_EQ(choice(DType::bf16, 100, 8388, 2, 2, 40), Algorithm::skinny) << "a batch";
  EXPECT_NE(choice(DType::bf16, 100, 41943, 2, 2), Algorithm::skinny) << "under 8 MiB";
  EXPECT_NE(choice(DType::bf16, 129, 262144, 2, 2), Algorithm::skinny) << "past 128 rows";
  EXPECT_NE(choice(DType::bf16, 96, 349526, 16, 0), Algorithm::skinny) << "output rows and pointer on the grid";
  EXPECT_NE(choice(DType::bf16, 96, 349526, 2, -1), Algorithm::skinny) << "which pointer is off: unknown";
  EXPECT_TRUE(listed(DType::f64, 48, 174762));
  EXPECT_TRUE(listed(DType::f32, 80, 209715));
  EXPECT_FALSE(listed(DType::f64, 56, 149796));
}

// tiled_vec's tile for a descriptor on 16-byte aligned pointers and 132 SMs: its rows, and the bytes of
// one of its rows.
using Shape = std::pair<int, int>;
Shape tile(DType t, std::int64_t rows, std::int64_t cols, std::int64_t batch = 1, std::int64_t ld_in = 0,
           std::int64_t ld_out = 0) {
  xpose::LaunchConfig c;
  const xpose::TransposeDesc d = xpose::resolved({t, rows, cols, batch, ld_in, ld_out});
  EXPECT_TRUE(xpose::plan::configure_tiled_vec(d, 16, 132, c).ok());
  return Shape{c.tile_rows, c.tile_cols * static_cast<int>(xpose::dtype_size(t))};
}

// Single packed matrices of 64 MiB or more of 32 rows of 2- and 4-byte elements with 16-byte accesses take
// 8 KiB tiles of 32 rows of 256 bytes; 1- and 8-byte elements, smaller matrices, padded rows, batches and
// other row counts keep theirs.
TEST(GpuPlanner, ThirtyTwoRowsOfTwoAndFourByteElementsTakeSmallTiles) {
  EXPECT_EQ(tile(DType::f32, 32, 1048576), Shape(32, 256));
  EXPECT_EQ(tile(DType::bf16, 32, 1048576), Shape(32, 256));
  EXPECT_EQ(tile(DType::f32, 32, 4194304), Shape(32, 256));
  EXPECT_EQ(tile(DType::u8, 32, 2097152), Shape(32, 512)) << "1-byte elements";
  EXPECT_EQ(tile(DType::f64, 32, 1048576), Shape(32, 512)) << "8-byte elements";
  EXPECT_EQ(tile(DType::f32, 32, 16384, 64), Shape(32, 512)) << "a batch";
  EXPECT_EQ(tile(DType::f32, 32, 16384), Shape(16, 256)) << "2 MiB: small tiles of its own";
  EXPECT_EQ(tile(DType::f32, 32, 262144), Shape(32, 512)) << "32 MiB";
  EXPECT_EQ(tile(DType::f32, 32, 1048576, 1, 1048580), Shape(32, 512)) << "padded input rows";
  EXPECT_NE(tile(DType::f32, 64, 524288), Shape(32, 256)) << "64 rows";
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::f32, 32, 1048576}), 16), Algorithm::tiled_vec);
}

// Single packed matrices of 32 MiB or more of 1- and 2-byte elements whose rows are 256 bytes long take
// tile rows of 128 bytes (two tile columns) instead of whole rows; smaller matrices, other row lengths,
// element sizes, batches and padded rows keep theirs.
TEST(GpuPlanner, WholeRowTilesOfTwoHundredFiftySixBytesTakeHalfWidth) {
  EXPECT_EQ(tile(DType::bf16, 262144, 128), Shape(128, 128));
  EXPECT_EQ(tile(DType::bf16, 1048576, 128), Shape(128, 128));
  EXPECT_EQ(tile(DType::u8, 262144, 256), Shape(128, 128));
  EXPECT_EQ(tile(DType::bf16, 131072, 128), Shape(128, 128)) << "32 MiB";
  EXPECT_EQ(tile(DType::u8, 131072, 256), Shape(128, 128)) << "32 MiB";
  EXPECT_EQ(tile(DType::bf16, 65536, 128), Shape(32, 256)) << "16 MiB: 8 KiB tiles of whole rows";
  EXPECT_EQ(tile(DType::u8, 65536, 256), Shape(64, 256)) << "16 MiB: whole rows";
  EXPECT_EQ(tile(DType::u8, 131040, 256), Shape(64, 256)) << "8 KiB under 32 MiB";
  // 2-byte elements from 64 MiB that keep whole rows take 32 KiB tiles (TwoByteMatricesTakeLargeTiles).
  EXPECT_EQ(tile(DType::bf16, 131072, 256), Shape(128, 256)) << "512-byte rows, 64 MiB: 32 KiB tiles";
  EXPECT_EQ(tile(DType::bf16, 262144, 120), Shape(64, 256)) << "240-byte rows";
  EXPECT_EQ(tile(DType::u8, 2097152, 128), Shape(128, 128)) << "128-byte rows: whole rows";
  EXPECT_EQ(tile(DType::f32, 131072, 64), Shape(64, 256)) << "4-byte elements";
  EXPECT_EQ(tile(DType::bf16, 2048, 128, 64), Shape(64, 256)) << "a batch";
  EXPECT_EQ(tile(DType::bf16, 262144, 128, 1, 136), Shape(128, 256)) << "padded input rows: 32 KiB tiles";
  EXPECT_EQ(tile(DType::bf16, 262144, 128, 1, 0, 262160), Shape(128, 256)) << "padded output rows: 32 KiB tiles";
  EXPECT_EQ(tile(DType::bf16, 16384, 128), Shape(16, 256)) << "4 MiB, under the large matrices' 8 MiB";
}

// tiled_vec's ldmatrix store phase (tiled_vec_ldmatrix.cuh) takes the 8 KiB tiles of 1- and 2-byte
// elements with 16-byte accesses, rows of 128 bytes or more, that split into its tasks; the planner
// gives 1-byte matrices with 16-byte accesses and output rows on the sector grid, of 2 MiB or more,
// 1024 or more on each side, under 32 MiB in all, such tiles: 64 rows of 128 bytes.
TEST(GpuPlanner, OneAndTwoByteMidSizeMatricesTakeLdmatrixTiles) {
  EXPECT_TRUE(xpose::tiled_vec_ldmatrix_store(1, 16, xpose::kVecTileBytesSmall, 128, 256));
  EXPECT_FALSE(xpose::tiled_vec_ldmatrix_store(1, 16, xpose::kVecTileBytesSmall, 64, 256)) << "64-byte rows";
  EXPECT_FALSE(xpose::tiled_vec_ldmatrix_store(2, 16, xpose::kVecTileBytesSmall, 64, 256)) << "64-byte rows";
  EXPECT_TRUE(xpose::tiled_vec_ldmatrix_store(2, 16, xpose::kVecTileBytesSmall, 128, 256));
  EXPECT_FALSE(xpose::tiled_vec_ldmatrix_store(1, 16, xpose::kVecTileBytesSmall, 256, 256)) << "32 rows of u8";
  EXPECT_TRUE(xpose::tiled_vec_ldmatrix_store(2, 16, xpose::kVecTileBytesSmall, 256, 256));
  EXPECT_FALSE(xpose::tiled_vec_ldmatrix_store(2, 16, xpose::kVecTileBytesSmall, 512, 256)) << "16 rows";
  EXPECT_FALSE(xpose::tiled_vec_ldmatrix_store(2, 8, xpose::kVecTileBytesSmall, 256, 256)) << "8-byte accesses";
  EXPECT_FALSE(xpose::tiled_vec_ldmatrix_store(1, 16, xpose::kVecTileBytes, 256, 256)) << "16 KiB tiles";
  EXPECT_FALSE(xpose::tiled_vec_ldmatrix_store(4, 16, xpose::kVecTileBytesSmall, 256, 256)) << "4-byte elements";
  EXPECT_EQ(tile(DType::u8, 2048, 2048), Shape(64, 128)) << "4 MiB";
  EXPECT_EQ(tile(DType::u8, 1536, 1536), Shape(64, 128));
  EXPECT_EQ(tile(DType::u8, 4096, 4096), Shape(64, 128)) << "16 MiB";
  EXPECT_EQ(tile(DType::u8, 2048, 2048, 2), Shape(64, 128)) << "a batch, 8 MiB";
  EXPECT_EQ(tile(DType::u8, 512, 16384), Shape(64, 256)) << "a side of 512";
  EXPECT_EQ(tile(DType::u8, 16384, 512), Shape(64, 256));
  EXPECT_EQ(tile(DType::u8, 1024, 1024, 8), Shape(64, 256)) << "a batch of 1 MiB matrices";
  EXPECT_EQ(tile(DType::u8, 1024, 2048), Shape(64, 128)) << "2 MiB, both sides 1024 or more";
  EXPECT_EQ(tile(DType::u8, 992, 4096), Shape(32, 256)) << "a side under 1024";
  EXPECT_NE(tile(DType::u8, 2048, 2048, 1, 0, 2064), Shape(64, 128)) << "output rows mid-sector";
  EXPECT_EQ(tile(DType::u8, 4096, 8192), Shape(64, 256)) << "32 MiB: 16 KiB tiles";
  EXPECT_EQ(tile(DType::u8, 8192, 8192), Shape(64, 256)) << "64 MiB";
  EXPECT_EQ(tile(DType::bf16, 2048, 2048), Shape(32, 256)) << "2-byte elements keep 32 rows of 256 bytes";
  xpose::LaunchConfig c;
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 4096, 4096, 1, 4104, 4104}), 8, 132, c)
                  .ok());
  EXPECT_EQ(c.vector_bytes, 8);
  EXPECT_EQ(c.tile_rows * c.tile_cols, xpose::kVecTileBytes) << "8-byte accesses keep 16 KiB tiles";
}

TEST(GpuPlanner, OutputRowsOffTheSectorGridGetWholeSectors) {
  using xpose::plan::choose_gpu_algorithm;
  // 16-byte strides, but output rows starting mid-sector: large matrices of 4- to 16-byte elements
  // whose input rows start mid-sector too, and large 8-byte ones, go to tiled_unaligned.
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::f32, 8192, 8192, 1, 8196, 8196}), 16),
            Algorithm::tiled_unaligned);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::c128, 8191, 8193}), 16), Algorithm::tiled_unaligned);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::f64, 8190, 8192}), 16), Algorithm::tiled_unaligned);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::f64, 8192, 8192, 1, 8200, 8200}), 16), Algorithm::tiled_vec);
  // The rest stay on tiled_vec: input rows on the sector grid (f32), input rows 128 KiB apart (its
  // bands), a short side, small matrices.
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::f32, 8188, 8192}), 16), Algorithm::tiled_vec);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::c128, 8191, 8192}), 16), Algorithm::tiled_vec);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::f64, 8190, 16384}), 16), Algorithm::tiled_vec);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::c128, 104857, 40}), 16), Algorithm::tiled_vec);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::c128, 17, 246723}), 16), Algorithm::tiled_vec);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::f32, 100, 100, 1677}), 16), Algorithm::tiled_vec);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::f64, 1002, 1002, 64}), 16), Algorithm::tiled_vec);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::f32, 2044, 2044, 4}), 16), Algorithm::tiled_vec);
  // 1- and 2-byte elements stay on tiled_vec with narrower tile rows.
  const xpose::TransposeDesc bf16 = xpose::resolved({DType::bf16, 1000, 1000, 64});
  EXPECT_FALSE(xpose::plan::output_rows_sector_aligned(bf16));
  EXPECT_EQ(choose_gpu_algorithm(bf16, 16), Algorithm::tiled_vec);
  xpose::LaunchConfig c;
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(bf16, 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols * 2, 128) << "mid-sector output rows: narrower tile rows";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 1008, 1008, 64}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols, 64) << "mid-sector output rows of 1-byte elements: 64-byte tile rows";
  // On the 8-byte grid (8-byte accesses) large batches take twice those widths.
  struct EightByteGrid {
    xpose::TransposeDesc d;
    std::int64_t row_bytes;
    const char* why;
  };
  for (const EightByteGrid& g : {
           EightByteGrid{{DType::u8, 1000, 1000, 64}, 128, "a large batch: 128-byte tile rows of 1-byte elements"},
           EightByteGrid{{DType::bf16, 100, 100, 3355}, 256, "a large batch: 256-byte tile rows of 2-byte elements"},
           EightByteGrid{{DType::bf16, 500, 65536}, 128, "a single matrix keeps the narrower tile rows"},
           EightByteGrid{{DType::u8, 104, 1000, 8}, 64, "a small batch keeps 64-byte tile rows"}}) {
    ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved(g.d), 16, 132, c).ok()) << g.why;
    EXPECT_EQ(c.vector_bytes, 8) << g.why;
    EXPECT_EQ(c.tile_cols * static_cast<std::int64_t>(xpose::dtype_size(g.d.dtype)), g.row_bytes) << g.why;
  }
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::bf16, 1024, 1024}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_cols * 2, 256) << "output rows on sector boundaries get the wide tile rows";
}

TEST(GpuPlanner, SpreadsSmallByteMatricesOverTheSms) {
  xpose::LaunchConfig c;
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 1024, 1024}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols, xpose::kVecTileBytesTiny) << "128 tiles of 8 KiB for 132 SMs: 4 KiB ones";
  EXPECT_EQ(c.tile_rows, 32) << "a whole sector of each output row";
  EXPECT_EQ(c.grid_x, 256);
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 1024, 1024}), 16, 100, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols, xpose::kVecTileBytesSmall) << "enough 8 KiB tiles for 100 SMs";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 256, 256}), 16, 0, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols, xpose::kVecTileBytesSmall) << "SM count unknown: 8 KiB";
}

TEST(GpuPlanner, SmallMatricesOfWiderElementsTakeSmallBlocks) {
  xpose::LaunchConfig c;
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::f32, 1024, 1024}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols * 4, xpose::kVecTileBytesTiny) << "1024 tiles of 4 KiB: two per SM and more";
  EXPECT_EQ(c.tile_rows, 16);
  EXPECT_EQ(c.block_x, 128);
  EXPECT_EQ(c.grid_x, 1024);
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::bf16, 256, 256}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols * 2, xpose::kVecTileBytesMicro) << "32 tiles of 4 KiB for 132 SMs: 2 KiB ones";
  EXPECT_EQ(c.tile_rows, 16);
  EXPECT_EQ(c.block_x, 128);
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::c128, 512, 512}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols * 16, xpose::kVecTileBytesSmall) << "16-byte elements skip 4 KiB tiles";
  EXPECT_EQ(c.block_x, 256);
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::f64, 1000, 4}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols * 8, xpose::kVecTileBytesMicro);
  EXPECT_EQ(c.tile_cols * 8, xpose::kVecMinRowBytes) << "narrow matrices: narrow tile rows, more of them";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::f32, 1024, 1024, 1, 1026, 1026}), 8, 132, c)
                  .ok());
  EXPECT_EQ(c.vector_bytes, 8);
  EXPECT_EQ(c.tile_rows * c.tile_cols * 4, xpose::kVecTileBytesSmall) << "8-byte accesses keep 8 KiB tiles";
  EXPECT_EQ(c.block_x, 256);
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::f32, 2048, 2048}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols * 4, xpose::kVecTileBytesSmall) << "mid-size matrices: 8 KiB tiles";
  EXPECT_EQ(c.block_x, 256);
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::f64, 2048, 2048}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols * 8, xpose::kVecTileBytes) << "32 MiB and more: 16 KiB tiles";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 4096, 4096}), 16, 132, c).ok());
  EXPECT_EQ(c.tile_rows * c.tile_cols, xpose::kVecTileBytesSmall) << "1-byte elements with 16-byte accesses too";
  EXPECT_EQ(c.tile_rows, 64) << "in 64 rows, for the ldmatrix store phase";
}

// 2-byte elements with 16-byte accesses in 64 MiB or more, 128 rows and columns or more: 32 KiB tiles of
// 256 threads, 128 rows of 256 bytes (256 of 128 bytes where output rows start mid-sector), led plans
// too; not under 64 MiB, with 8-byte accesses, for few rows or columns, where half rows are taken, nor
// for other element sizes.
TEST(GpuPlanner, TwoByteMatricesTakeLargeTiles) {
  // (tile rows, tile columns, threads) of the automatic tiled_vec plan on 16-byte aligned pointers.
  const auto tile = [](xpose::TransposeDesc d) {
    xpose::LaunchConfig c;
    d = xpose::resolved(d);
    EXPECT_TRUE(xpose::plan::configure_tiled_vec(d, 16, 132, c).ok()) << xpose_test::describe(d);
    return std::make_tuple(c.tile_rows * static_cast<int>(xpose::dtype_size(d.dtype)) * c.tile_cols, c.tile_rows,
                           c.block_x);
  };
  const auto large = std::make_tuple(xpose::kVecTileBytesLarge, 128, 256);
  EXPECT_EQ(tile({DType::bf16, 16384, 16384}), large);
  EXPECT_EQ(tile({DType::bf16, 8192, 8192}), large);
  EXPECT_EQ(tile({DType::i16, 8192, 4096}), large) << "64 MiB";
  EXPECT_EQ(tile({DType::bf16, 2048, 2048, 64}), large) << "not the 16 KiB tiles' 128-byte rows for such batches";
  EXPECT_EQ(tile({DType::bf16, 1000, 1000, 64}), std::make_tuple(xpose::kVecTileBytesLarge, 256, 256))
      << "output rows mid-sector: 128-byte tile rows";
  EXPECT_EQ(tile({DType::f16, 128, 262144}), large) << "128 rows";
  const auto other = [&tile](xpose::TransposeDesc d) { return std::get<0>(tile(d)) != xpose::kVecTileBytesLarge; };
  EXPECT_TRUE(other({DType::bf16, 2048, 2048})) << "8 MiB";
  EXPECT_TRUE(other({DType::bf16, 4096, 4096})) << "32 MiB";
  EXPECT_TRUE(other({DType::bf16, 8192, 4088})) << "under 64 MiB";
  // (Rows of 240 bytes on both sides: 16-byte accesses, so only the extent keeps the 16 KiB tiles.)
  EXPECT_TRUE(other({DType::bf16, 120, 300000})) << "under 128 rows (72 MB)";
  EXPECT_TRUE(other({DType::bf16, 300000, 120})) << "under 128 columns";
  EXPECT_EQ(tile({DType::bf16, 1048576, 128}), std::make_tuple(xpose::kVecTileBytes, 128, 256))
      << "half rows of 256-byte rows keep their 16 KiB tiles";
  EXPECT_TRUE(other({DType::bf16, 8192, 8192, 1, 8196, 8196})) << "8-byte accesses (128 MiB)";
  EXPECT_TRUE(other({DType::u8, 16384, 16384}));
  EXPECT_TRUE(other({DType::f32, 8192, 8192}));
  EXPECT_TRUE(other({DType::f64, 8192, 8192}));
  EXPECT_TRUE(other({DType::c128, 8192, 8192}));
  // Led plans too (pointers off the 16-byte grid, strides on it; GpuFastPath.LedTilesMatchReference runs
  // such plans on these matrices): 128 rows of 256 bytes, and 256 of 128 where output rows start mid-sector.
  for (auto [d, tile_rows] : {std::pair<xpose::TransposeDesc, int>{{DType::bf16, 8192, 4112}, 128},
                               {{DType::bf16, 1000, 1000, 34}, 256}})
    for (auto [in_off, out_off] : {std::pair<int, int>{2, 0}, {6, 0}, {114, 80}}) {
      xpose::LaunchConfig c;
      const std::string where = xpose_test::describe(d) + " " + std::to_string(in_off) + " " + std::to_string(out_off);
      ASSERT_TRUE(xpose::plan::configure_led_tiled_vec(xpose::resolved(d), in_off, out_off, 132,
                                                       xpose::plan::kSmallBatchMaxWholeMatrixBytes, c)
                      .ok())
          << where;
      EXPECT_TRUE(c.lead_rows > 0 || c.lead_cols > 0) << where;
      EXPECT_EQ(c.tile_rows * c.tile_cols * 2, xpose::kVecTileBytesLarge) << where;
      EXPECT_EQ(c.tile_rows, tile_rows) << where;
    }
  EXPECT_FALSE(xpose::tiled_vec_tile_built(4, xpose::kVecTileBytesLarge, 16));
  EXPECT_FALSE(xpose::tiled_vec_tile_built(2, xpose::kVecTileBytesLarge, 8));
}

// 10 to 16 rows on the 16-byte grid: tiled_vec's 16-row tiles where the rows fill whole 16-byte output
// vectors; skinny for 8 rows or fewer, off the grid, or rows that leave a vector partly filled.
TEST(GpuPlanner, FewRowsOnTheGridTakeSixteenRowTiles) {
  const auto choice = [](DType t, std::int64_t r, std::int64_t c, int alignment = 16) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c}), alignment);
  };
  EXPECT_EQ(choice(DType::f16, 16, 2097152), Algorithm::tiled_vec);
  EXPECT_EQ(choice(DType::f32, 12, 1398100), Algorithm::tiled_vec);
  EXPECT_EQ(choice(DType::f64, 10, 1000000), Algorithm::tiled_vec);
  EXPECT_EQ(choice(DType::c128, 16, 262144), Algorithm::tiled_vec);
  EXPECT_EQ(choice(DType::c128, 11, 500000), Algorithm::gather) << "10 to 12 16-byte rows: gather (measured)";
  EXPECT_EQ(choice(DType::c128, 9, 500000), Algorithm::skinny) << "7 of 16 tile rows empty";
  EXPECT_EQ(choice(DType::u8, 16, 4194304), Algorithm::skinny) << "16-byte output rows: the register kernel";
  EXPECT_EQ(choice(DType::u8, 12, 4194304), Algorithm::skinny) << "12 one-byte rows fill no 16-byte vector";
  EXPECT_EQ(choice(DType::f16, 12, 2097152), Algorithm::skinny) << "a half-filled second vector";
  EXPECT_EQ(choice(DType::f32, 10, 1048576), Algorithm::skinny);
  EXPECT_EQ(choice(DType::f32, 8, 1048576), Algorithm::skinny) << "up to 8 rows: skinny's register kernel";
  EXPECT_EQ(choice(DType::f32, 12, 1398101), Algorithm::skinny) << "input rows off the 16-byte grid";
  EXPECT_EQ(choice(DType::f32, 12, 1398100, 8), Algorithm::skinny) << "pointers aligned to 8 bytes only";
  for (const auto& [t, r, c] : {std::tuple{DType::f16, 16, 2097152}, std::tuple{DType::f64, 12, 699048},
                                std::tuple{DType::u8, 16, 4194304}, std::tuple{DType::u8, 16, 16000}}) {
    xpose::LaunchConfig config;
    ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({t, r, c}), 16, 132, config).ok());
    EXPECT_EQ(config.tile_rows, 16) << xpose::dtype_name(t) << ": one tile row of 16 rows";
    EXPECT_EQ(config.tile_cols * static_cast<int>(xpose::dtype_size(t)), 512) << xpose::dtype_name(t);
  }
}

// 9 to 48 rows of 1- and 2-byte elements into packed output rows on the 16-byte grid take skinny's
// wide-rows register kernel (8 / E columns per thread up to 16 rows, 4 / E past that), on or off the
// input's grid, from 8 MiB; tiled_vec keeps its 16-byte grid where the output rows are a sector or
// more, and tiled_unaligned the rows its whole-chunk tiles fill.
TEST(GpuPlanner, FewRowsOfSmallElementsTakeWideRegisterKernel) {
  const auto choice = [](DType t, std::int64_t r, std::int64_t c, int alignment = 16, std::int64_t ld_out = 0) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c, 1, 0, ld_out}), alignment);
  };
  for (std::int64_t rows : {9, 12, 16, 17, 24, 31, 32, 33, 40, 48}) {
    EXPECT_EQ(choice(DType::u8, rows, 2000001), Algorithm::skinny) << rows << " rows, input off the grid";
    if (rows < 48)  // (48 rows of 2-byte elements fill tiled_unaligned's whole-chunk tiles)
      EXPECT_EQ(choice(DType::bf16, rows, 1000001), Algorithm::skinny) << rows << " rows, input off the grid";
    EXPECT_TRUE(xpose::plan::few_rows_take_wide_registers(xpose::resolved({DType::u8, rows, 2000001}), 16));
  }
  EXPECT_EQ(choice(DType::u8, 16, 4194304), Algorithm::skinny) << "16-byte output rows";
  EXPECT_EQ(choice(DType::u8, 24, 2796200), Algorithm::skinny) << "tiled_vec's 8-byte grid";
  EXPECT_EQ(choice(DType::u8, 32, 2097152), Algorithm::tiled_vec) << "32-byte output rows on the grid";
  EXPECT_EQ(choice(DType::bf16, 16, 2097152), Algorithm::tiled_vec) << "32-byte output rows on the grid";
  EXPECT_EQ(choice(DType::bf16, 32, 1048576), Algorithm::tiled_vec) << "64-byte output rows on the grid";
  EXPECT_TRUE(xpose::plan::few_rows_take_wide_registers(xpose::resolved({DType::u8, 12, 2000001}), 8))
      << "a pointer on the 8-byte grid, off the 16-byte one";
  EXPECT_EQ(choice(DType::u8, 40, 1677720, 8), Algorithm::skinny) << "rather than tiled_vec's 8-byte accesses";
  EXPECT_EQ(choice(DType::bf16, 40, 838860, 8), Algorithm::skinny) << "rather than tiled_vec's 8-byte accesses";
  EXPECT_FALSE(xpose::plan::few_rows_take_wide_registers(xpose::resolved({DType::u8, 12, 2000001}), 4))
      << "a pointer off the 8-byte grid (the slabs)";
  EXPECT_FALSE(xpose::plan::skinny_rows_regs_wide_runs(xpose::resolved({DType::u8, 49, 2000001}))) << "49 rows";
  EXPECT_EQ(choice(DType::bf16, 48, 699051), Algorithm::tiled_unaligned) << "whole-chunk tiles";
  EXPECT_TRUE(xpose::plan::skinny_rows_regs_wide_runs(xpose::resolved({DType::bf16, 48, 699051})));
  EXPECT_FALSE(xpose::plan::skinny_rows_regs_wide_runs(xpose::resolved({DType::u8, 8, 2000001})))
      << "8 rows: the 16-byte register kernel";
  EXPECT_FALSE(xpose::plan::skinny_rows_regs_wide_runs(xpose::resolved({DType::f32, 12, 2000001}))) << "4 bytes";
  EXPECT_FALSE(xpose::plan::skinny_rows_regs_wide_runs(xpose::resolved({DType::u8, 12, 2000001, 1, 0, 13})))
      << "padded output rows";
  EXPECT_FALSE(xpose::plan::skinny_rows_regs_wide_runs(xpose::resolved({DType::u8, 12, 699050})))
      << "under 8 MiB: too few threads";
  EXPECT_EQ(choice(DType::u8, 12, 4001), Algorithm::skinny) << "small: the slabs";
  EXPECT_EQ(choice(DType::bf16, 32, 8193), Algorithm::gather) << "small: gather";
  EXPECT_EQ(choice(DType::u8, 16, 16016), Algorithm::tiled_vec) << "small: tiled_vec's 16-row tiles";
  EXPECT_TRUE(
      xpose::plan::skinny_rows_regs_wide_runs(xpose::resolved({DType::u8, 12, 400000, 3, 400001, 12, 0, 4800016})));
  EXPECT_FALSE(
      xpose::plan::skinny_rows_regs_wide_runs(xpose::resolved({DType::u8, 12, 400000, 3, 400001, 12, 0, 4800008})))
      << "an output batch stride off the 16-byte grid";
}

// 12 to 24 columns of 1- and 2-byte elements with packed input rows into output rows on the sector
// grid (any 8-byte grid for 8-byte pieces of 1-byte elements), from 8 MiB, take skinny's wide-columns
// register kernel; 9 to 11, 25 to 32 columns and wider elements keep their kernels.
TEST(GpuPlanner, FewColumnsOfSmallElementsTakeWideRegisterKernel) {
  const auto runs = [](DType t, std::int64_t r, std::int64_t c, std::int64_t ld_in = 0) {
    return xpose::plan::skinny_cols_regs_wide_runs(xpose::resolved({t, r, c, 1, ld_in}));
  };
  EXPECT_TRUE(runs(DType::u8, 4194304, 16));
  EXPECT_TRUE(runs(DType::u8, 2097152, 24));
  EXPECT_TRUE(runs(DType::u8, 5592400, 12)) << "8 bytes of 1-byte elements off the sector grid";
  EXPECT_TRUE(runs(DType::bf16, 2097152, 16));
  EXPECT_FALSE(runs(DType::u8, 2796200, 24)) << "4-byte pieces off the sector grid";
  EXPECT_FALSE(runs(DType::bf16, 2796200, 12)) << "2-byte elements off the sector grid";
  EXPECT_FALSE(runs(DType::u8, 5592401, 12)) << "output rows off the 8-byte grid";
  EXPECT_FALSE(runs(DType::u8, 7456544, 9)) << "9 columns: level with the slabs";
  EXPECT_FALSE(runs(DType::u8, 1048576, 32)) << "32 columns: tiled_vec";
  EXPECT_FALSE(runs(DType::f32, 2097152, 16)) << "4-byte elements";
  EXPECT_FALSE(runs(DType::u8, 4194304, 16, 17)) << "padded input rows";
  EXPECT_FALSE(runs(DType::u8, 262144, 16)) << "under 8 MiB";
  const auto choice = [](DType t, std::int64_t r, std::int64_t c, int alignment = 16) {
    return xpose::plan::choose_gpu_algorithm(xpose::resolved({t, r, c}), alignment);
  };
  EXPECT_EQ(choice(DType::u8, 2097152, 24), Algorithm::skinny);
  EXPECT_EQ(choice(DType::bf16, 2097152, 16), Algorithm::skinny);
  EXPECT_TRUE(xpose::plan::few_cols_take_wide_registers(xpose::resolved({DType::u8, 4194304, 16}), 16));
  EXPECT_FALSE(xpose::plan::few_cols_take_wide_registers(xpose::resolved({DType::u8, 4194304, 16}), 8))
      << "a pointer off the 16-byte grid";
  EXPECT_TRUE(xpose::plan::skinny_cols_regs_wide_runs(xpose::resolved({DType::u8, 262144, 16, 16, 16, 262144})));
  EXPECT_FALSE(
      xpose::plan::skinny_cols_regs_wide_runs(xpose::resolved({DType::u8, 262144, 16, 16, 16, 262144, 4194312})))
      << "an input batch stride off the 16-byte grid";
}

TEST(GpuPlanner, SkinnyWhereStridesRuleOutVectors) {
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::f32, 1048576, 3}), 16), Algorithm::skinny);
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::u8, 3, 1048576}), 16), Algorithm::skinny);
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::c128, 3, 1048576}), 16), Algorithm::skinny)
      << "a few rows: skinny even where 16-byte accesses would fit";
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::c128, 1048576, 3}), 16), Algorithm::tiled_vec);
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::f32, 1001, 1003}), 16),
            Algorithm::tiled_unaligned);
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::f32, 1024, 1024}), 8),
            Algorithm::tiled_unaligned);
  EXPECT_EQ(xpose::plan::choose_gpu_algorithm(xpose::resolved({DType::c128, 1024, 1024}), 8), Algorithm::tiled_padded)
      << "a 16-byte element on 8-byte aligned pointers cannot move in whole aligned chunks";
}

// Strides on the 8-byte grid: 1- and 2-byte elements still move packed words through tiled_vec, with
// 8-byte accesses; wider elements and finer grids go to tiled_unaligned.
// Large 1- and 2-byte matrices whose output rows start mid-sector on the 8-byte grid: tiled_sectors,
// with 16-byte loads where the input strides allow them.
TEST(GpuPlanner, MidSectorOutputRowsOnTheEightByteGridTakeTiledSectors) {
  using xpose::plan::choose_gpu_algorithm;
  using xpose::plan::tiled_sectors_load_bytes;
  const xpose::TransposeDesc u8_ld = xpose::resolved({DType::u8, 8192, 8192, 1, 8200, 8200});
  const xpose::TransposeDesc bf16_ld = xpose::resolved({DType::bf16, 8192, 8192, 1, 8200, 8200});
  EXPECT_EQ(choose_gpu_algorithm(u8_ld, 16), Algorithm::tiled_sectors);
  EXPECT_EQ(tiled_sectors_load_bytes(u8_ld, 16), 8) << "input rows 8 bytes off the 16-byte grid";
  EXPECT_EQ(choose_gpu_algorithm(u8_ld, 8), Algorithm::tiled_sectors);
  EXPECT_EQ(choose_gpu_algorithm(bf16_ld, 16), Algorithm::tiled_sectors);
  EXPECT_EQ(tiled_sectors_load_bytes(bf16_ld, 16), 16);
  EXPECT_EQ(tiled_sectors_load_bytes(bf16_ld, 8), 8) << "8-byte aligned pointers: 8-byte loads";
  EXPECT_EQ(tiled_sectors_load_bytes(bf16_ld, 4), 0);
  const xpose::TransposeDesc in_only = xpose::resolved({DType::u8, 8192, 8192, 1, 8200, 8192});
  EXPECT_EQ(choose_gpu_algorithm(in_only, 16), Algorithm::tiled_vec) << "output rows on the sector grid";
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::u8, 1000, 1000, 64}), 16), Algorithm::tiled_vec)
      << "fewer than kSectorsMinRows rows";
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::u8, 2048, 2048, 1, 2056, 2056}), 16), Algorithm::tiled_vec)
      << "under kVecSmallMatrixBytes";
  EXPECT_EQ(tiled_sectors_load_bytes(xpose::resolved({DType::f32, 8192, 8192, 1, 8194, 8194}), 16), 0)
      << "4-byte elements go to tiled_unaligned";
  EXPECT_EQ(tiled_sectors_load_bytes(xpose::resolved({DType::u8, 8192, 8192, 1, 8200, 8196}), 16), 0)
      << "output rows off the 8-byte grid";
  EXPECT_EQ(tiled_sectors_load_bytes(xpose::resolved({DType::u8, 8192, 8192, 1, 8196, 8200}), 16), 0)
      << "input rows off the 8-byte grid";
}

TEST(GpuPlanner, NarrowerAccessesOffTheSixteenByteGrid) {
  using xpose::plan::choose_gpu_algorithm;
  xpose::LaunchConfig c;
  const xpose::TransposeDesc u8_ld = xpose::resolved({DType::u8, 8192, 8192, 1, 8200, 8200});
  EXPECT_EQ(choose_gpu_algorithm(u8_ld, 4), Algorithm::tiled_unaligned) << "4-byte aligned pointers";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(u8_ld, 16, 132, c).ok());
  EXPECT_EQ(c.vector_bytes, 8);
  const xpose::TransposeDesc u8_batched = xpose::resolved({DType::u8, 1000, 1000, 64});
  EXPECT_EQ(choose_gpu_algorithm(u8_batched, 16), Algorithm::tiled_vec);
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(u8_batched, 16, 132, c).ok());
  EXPECT_EQ(c.vector_bytes, 8);
  const xpose::TransposeDesc bf16_ld = xpose::resolved({DType::bf16, 1001, 1003, 1, 1012, 1004});
  EXPECT_EQ(choose_gpu_algorithm(bf16_ld, 16), Algorithm::tiled_vec);
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(bf16_ld, 16, 132, c).ok());
  EXPECT_EQ(c.vector_bytes, 8);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::bf16, 1001, 1003, 1, 1010, 1006}), 16),
            Algorithm::tiled_unaligned)
      << "strides on the 4-byte grid only";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::u8, 1024, 1024}), 8, 132, c).ok());
  EXPECT_EQ(c.vector_bytes, 8) << "8-byte aligned pointers: 8-byte accesses";
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::u8, 1024, 1024}), 2), Algorithm::tiled_unaligned);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::u8, 8191, 8193}), 16), Algorithm::tiled_unaligned);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::bf16, 1001, 1003, 1, 1011, 1005}), 16),
            Algorithm::tiled_unaligned);
  EXPECT_EQ(choose_gpu_algorithm(xpose::resolved({DType::f32, 8191, 8193}), 16), Algorithm::tiled_unaligned);
  EXPECT_FALSE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::bf16, 1001, 1003, 1, 1011, 1005}), 16, 132, c).ok())
      << "strides on a 2-byte grid: no access fits";
  EXPECT_FALSE(xpose::plan::configure_tiled_vec(xpose::resolved({DType::c128, 100, 100}), 8, 132, c).ok())
      << "no access narrower than the element";
}

}  // namespace

namespace {

// Byte offset of a side's tile piece from the pointer's 128-byte boundary, as the led grid places it.
std::int64_t piece_offset(int pointer_offset, std::int64_t first_element, std::int64_t e) {
  return pointer_offset + first_element * e;
}

}  // namespace

// Pointers off the grid their strides keep: the led grid puts every tile but the first row and
// column of tiles on whole accesses (and on 256-byte blocks as far as the strides and tile allow).
TEST(GpuPlanner, LeadsTheTileGridOntoAlignedAccesses) {
  std::mt19937_64 rng(0x1ead);
  std::uniform_int_distribution<std::int64_t> extent(1, 5000), batch(1, 3), spare(0, 3);
  std::uniform_int_distribution<int> offset(0, xpose::kPointerOffsetGrid - 1);
  int led = 0;
  for (int i = 0; i < 4000; ++i) {
    const DType t = kTypes[i % 5];
    const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t)), w = std::max<std::int64_t>(1, 16 / e);
    xpose::TransposeDesc d{t, extent(rng), extent(rng), batch(rng)};
    d.ld_in = (d.cols + w - 1) / w * w + spare(rng) * w;  // strides on the 16-byte grid
    d.ld_out = (d.rows + w - 1) / w * w + spare(rng) * w;
    d = xpose::resolved(d);
    const int in_off = static_cast<int>(offset(rng) / e * e), out_off = static_cast<int>(offset(rng) / e * e);
    xpose::LaunchConfig c;
    if (!xpose::plan::configure_led_tiled_vec(d, in_off, out_off, 132, xpose::plan::kSmallBatchMaxWholeMatrixBytes, c)
             .ok())
      continue;
    ++led;
    const std::string where = ::testing::PrintToString(std::make_tuple(xpose::dtype_name(t), d.rows, d.cols, d.batch,
                                                                       d.ld_in, d.ld_out, in_off, out_off));
    EXPECT_TRUE(c.lead_rows > 0 || c.lead_cols > 0) << where;
    EXPECT_LT(c.lead_rows, c.tile_rows) << where;
    EXPECT_LT(c.lead_cols, c.tile_cols) << where;
    // Leads only on matrices of enough tile columns (rows): elsewhere the extra ones cost more.
    if (c.lead_cols > 0) EXPECT_GE((d.cols + c.tile_cols - 1) / c.tile_cols, 4) << where;
    if (c.lead_rows > 0) EXPECT_GE((d.rows + c.tile_rows - 1) / c.tile_rows, 16) << where;
    const std::int64_t tiles_c = (d.cols + c.lead_cols + c.tile_cols - 1) / c.tile_cols;
    EXPECT_EQ(c.grid_x, d.batch * ((d.rows + c.lead_rows + c.tile_rows - 1) / c.tile_rows) * tiles_c) << where;
    // Bands share the tile columns but one a lead of columns adds.
    EXPECT_EQ((tiles_c - (xpose::lead_adds_tile_column(d.cols, c.lead_cols, c.tile_cols) ? 1 : 0)) % c.bands, 0)
        << where;
    // Tile column 1's first element in rows 0, 1, 7 of every matrix, tile row 1's in output rows 0, 1, 7.
    for (std::int64_t b = 0; b < d.batch; ++b)
      for (std::int64_t k : {0, 1, 7}) {
        const std::int64_t in_at = b * d.batch_stride_in + k * d.ld_in + c.tile_cols - c.lead_cols;
        const std::int64_t out_at = b * d.batch_stride_out + k * d.ld_out + c.tile_rows - c.lead_rows;
        EXPECT_EQ(piece_offset(in_off, in_at, e) % c.vector_bytes, 0) << where;
        EXPECT_EQ(piece_offset(out_off, out_at, e) % c.vector_bytes, 0) << where;
      }
  }
  EXPECT_GT(led, 1000);

  const auto lead_of = [](xpose::TransposeDesc d, int in_off, int out_off) {
    xpose::LaunchConfig c;
    const bool ok = xpose::plan::configure_led_tiled_vec(xpose::resolved(d), in_off, out_off, 132,
                                                         xpose::plan::kSmallBatchMaxWholeMatrixBytes, c)
                        .ok();
    return ok ? std::make_pair(c.lead_rows, c.lead_cols) : std::make_pair(-1, -1);
  };
  using P = std::pair<int, int>;
  EXPECT_EQ(lead_of({DType::u8, 8192, 8192}, 1, 0), P(0, 1));
  EXPECT_EQ(lead_of({DType::u8, 8192, 8192}, 0, 3), P(3, 0));     // u8 output pieces: 64-byte tile columns
  EXPECT_EQ(lead_of({DType::bf16, 8192, 8192}, 2, 6), P(3, 1));
  EXPECT_EQ(lead_of({DType::f64, 8192, 8192}, 16, 0), P(0, 2));   // on 16 bytes, 16 into a line
  EXPECT_EQ(lead_of({DType::c128, 4096, 4096}, 0, 48), P(3, 0));
  EXPECT_EQ(lead_of({DType::c128, 8192, 8192}, 16, 48), P(3, 1));
  EXPECT_EQ(lead_of({DType::c128, 8192, 8192}, 0, 48), P(3, 0));  // led, in the aligned plan's bands
  EXPECT_EQ(lead_of({DType::f32, 8192, 8192}, 0, 0), P(-1, -1));  // nothing to move
  // Half a 256-byte block off: input rows of 256-byte tiles (u8, f32), output pieces of 256 bytes (f64).
  EXPECT_EQ(lead_of({DType::u8, 8192, 8192}, 128, 0), P(0, 128));
  EXPECT_EQ(lead_of({DType::f32, 8192, 8192}, 128, 0), P(0, 32));
  EXPECT_EQ(lead_of({DType::f64, 8192, 8192}, 0, 128), P(16, 0));
  EXPECT_EQ(lead_of({DType::u8, 8192, 8192}, 0, 128), P(-1, -1));    // u8 output pieces of 64 bytes: on their grid
  EXPECT_EQ(lead_of({DType::c128, 8192, 8192}, 128, 0), P(0, 8));
  // Skinny matrices: too few tile columns (rows) for a lead; a pointer on the access grid keeps the
  // other side's lead.
  EXPECT_EQ(lead_of({DType::f32, 1048576, 32}, 4, 0), P(-1, -1));
  EXPECT_EQ(lead_of({DType::u8, 64, 1048576}, 0, 1), P(-1, -1));
  EXPECT_EQ(lead_of({DType::f32, 1048576, 32}, 128, 4), P(1, 0));
  EXPECT_EQ(lead_of({DType::u8, 1024, 1024, 64}, 1, 0), P(0, 1));  // 4 tile columns
  EXPECT_EQ(lead_of({DType::u8, 256, 262144}, 0, 16), P(-1, -1));  // output on the access grid: no lead
  EXPECT_EQ(lead_of({DType::f32, 8192, 8192}, 128 - 4, -1), P(-1, -1));  // offsets not known
  EXPECT_EQ(lead_of({DType::u8, 8191, 8193}, 1, 0), P(-1, -1));   // strides off the grid
  EXPECT_EQ(lead_of({DType::f32, 8192, 8192}, 2, 0), P(-1, -1));  // inside an element

  // Input rows 128 KiB (or a multiple) apart: the led plan keeps the aligned plan's bands over the tile
  // columns but one a lead of columns adds.
  const auto led_bands = [](xpose::TransposeDesc d, int in_off, int out_off) {
    xpose::LaunchConfig aligned, led;
    d = xpose::resolved(d);
    EXPECT_TRUE(xpose::plan::configure_tiled_vec(d, 16, 132, aligned).ok());
    const bool ok =
        xpose::plan::configure_led_tiled_vec(d, in_off, out_off, 132, xpose::plan::kSmallBatchMaxWholeMatrixBytes, led)
            .ok();
    EXPECT_TRUE(ok && led.bands == aligned.bands) << xpose::dtype_name(d.dtype) << " " << d.rows << "x" << d.cols;
    return ok ? led.bands : -1;
  };
  EXPECT_EQ(led_bands({DType::c128, 8192, 8192}, 16, 0), 2);
  EXPECT_EQ(led_bands({DType::c128, 8192, 8192}, 16, 48), 2);
  EXPECT_EQ(led_bands({DType::c128, 16384, 16384}, 16, 0), 4);
  EXPECT_EQ(led_bands({DType::f64, 16384, 16384}, 8, 0), 2);
  EXPECT_EQ(led_bands({DType::f64, 16384, 16384}, 0, 8), 2);  // a lead of rows alone
  EXPECT_EQ(led_bands({DType::f64, 16384, 16384}, 0, 16), 2);  // output on the access grid, off its block
  EXPECT_EQ(led_bands({DType::c128, 8192, 8192}, 0, 16), 2);
  EXPECT_EQ(led_bands({DType::f32, 8192, 32768}, 4, 4), 2);
  // Column slices x[:, k:] of such matrices: the lead adds no tile column, and the bands share them all.
  EXPECT_EQ(led_bands({DType::c128, 8192, 8191, 1, 8192, 8192}, 16, 0), 2);
  EXPECT_EQ(led_bands({DType::f64, 16384, 16383, 1, 16384, 16384}, 8, 8), 2);
  EXPECT_EQ(led_bands({DType::f32, 8192, 32767, 1, 32768, 8192}, 4, 0), 2);
  EXPECT_FALSE(xpose::lead_adds_tile_column(8191, 1, 16));
  EXPECT_TRUE(xpose::lead_adds_tile_column(8192, 1, 16));
  EXPECT_FALSE(xpose::lead_adds_tile_column(8192, 0, 16));
}

// An output pointer alone off the 8-byte grid on packed output rows one tile tall: tiled_vec's
// shifted-output tiles, exactly rows x (16 KiB / rows bytes), no bands, 16-byte input accesses.
TEST(GpuPlanner, ShiftsTheOutputRunsOfFewRowsTiles) {
  const auto shifted = [](xpose::TransposeDesc d, int in_off, int out_off, bool automatic = true) {
    xpose::LaunchConfig c;
    d = xpose::resolved(d);
    const bool ok = xpose::plan::configure_shifted_output_tiled_vec(d, in_off, out_off, automatic,
                                                                    xpose::plan::kSmallBatchMaxWholeMatrixBytes, c)
                        .ok();
    if (!ok) return std::make_pair(-1, -1);
    const std::string where = xpose::dtype_name(d.dtype) + std::string(" ") + std::to_string(d.rows);
    EXPECT_TRUE(c.shifted_output) << where;
    EXPECT_EQ(c.tile_rows, d.rows) << where;
    EXPECT_EQ(c.tile_rows * c.tile_cols * static_cast<int>(xpose::dtype_size(d.dtype)), xpose::kVecTileBytes) << where;
    EXPECT_EQ(c.vector_bytes, 16) << where;
    EXPECT_EQ(c.bands, 1) << where;
    EXPECT_EQ(c.lead_rows + c.lead_cols, 0) << where;
    EXPECT_EQ(c.grid_x, d.batch * ((d.cols + c.tile_cols - 1) / c.tile_cols)) << where;
    return std::make_pair(c.tile_rows, c.tile_cols);
  };
  using P = std::pair<int, int>;
  EXPECT_EQ(shifted({DType::u8, 64, 1048576}, 0, 1), P(64, 256));
  EXPECT_EQ(shifted({DType::u8, 128, 524288}, 0, 15), P(128, 128));
  EXPECT_EQ(shifted({DType::u8, 64, 1048576, 2}, 16, 36), P(64, 256));
  EXPECT_EQ(shifted({DType::u8, 32, 2097152}, 0, 1), P(-1, -1));      // 32 rows: skinny's register kernel
  EXPECT_EQ(shifted({DType::u8, 64, 1048576}, 0, 8), P(-1, -1));      // on the 8-byte grid: tiled_vec's 8 bytes
  EXPECT_EQ(shifted({DType::bf16, 64, 524288}, 0, 2), P(64, 128));
  EXPECT_EQ(shifted({DType::bf16, 128, 262144, 4}, 0, 6), P(128, 64));
  EXPECT_EQ(shifted({DType::u8, 64, 1008}, 0, 1, false), P(64, 256));  // by name: any size
  EXPECT_EQ(shifted({DType::u8, 64, 1008}, 0, 1), P(-1, -1));         // small: aligned would not take tiled_vec
  EXPECT_EQ(shifted({DType::u8, 64, 1048576}, 1, 1), P(-1, -1));      // the input off the grid too
  EXPECT_EQ(shifted({DType::u8, 64, 1048576}, 0, 16), P(-1, -1));     // the output on the grid
  EXPECT_EQ(shifted({DType::u8, 64, 1048576}, 0, -1), P(-1, -1));     // offsets not known
  EXPECT_EQ(shifted({DType::bf16, 64, 524288}, 0, 3), P(-1, -1));     // inside an element
  EXPECT_EQ(shifted({DType::u8, 96, 699050}, 0, 1), P(-1, -1));       // not one tile tall
  EXPECT_EQ(shifted({DType::u8, 64, 1048576, 1, 0, 80}, 0, 1), P(-1, -1));  // padded output rows
  EXPECT_EQ(shifted({DType::f32, 64, 262144}, 0, 4), P(-1, -1));      // 4-byte elements: not built
  // The GPU test's automatic plans (9 MiB and a little more).
  EXPECT_EQ(shifted({DType::u8, 64, 147472}, 0, 1), P(64, 256));
  EXPECT_EQ(shifted({DType::bf16, 64, 73736}, 0, 2), P(64, 128));
  EXPECT_EQ(shifted({DType::u8, 64, 1048577}, 0, 1), P(-1, -1));      // input rows off the grid
  // Batches of matrices of fewer than 4 tile columns (not measured) keep their plans; by name they run.
  EXPECT_EQ(shifted({DType::u8, 128, 128, 4096}, 0, 1), P(-1, -1));
  EXPECT_EQ(shifted({DType::bf16, 64, 64, 8192}, 0, 2), P(-1, -1));
  EXPECT_EQ(shifted({DType::u8, 128, 128, 4096}, 0, 1, false), P(128, 128));
  EXPECT_EQ(shifted({DType::u8, 64, 4 * 256, 64}, 0, 1), P(64, 256));  // 4 tile columns
}
