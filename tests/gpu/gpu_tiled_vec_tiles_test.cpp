// Every tiled_vec kernel that is built - each tile size, tile row width and access width, with the
// block size that goes with it - forced onto odd shapes against the CPU reference: tiles cut by
// every edge, leading dimensions, batches with gaps; and onto matrices its tiles cover exactly. The
// planner reaches most of them only for some matrix sizes; this reaches all of them on small matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "gpu_test_support.hpp"
#include "plan/gpu_planner.hpp"
#include "plan/plan_state.hpp"
#include "plan/tiled_vec_shape.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using namespace xpose_test;

std::vector<xpose::TransposeDesc> cases_on_grid(DType t, std::int64_t grid) {
  std::vector<xpose::TransposeDesc> v;
  for (auto [r, c] : {std::pair<std::int64_t, std::int64_t>{129, 67}, {33, 515}, {300, 17}, {1000, 999}})
    v.push_back({t, r, c, 1, ld_on_grid(t, c, grid), ld_on_grid(t, r, grid)});
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  const std::int64_t ld_in = ld_on_grid(t, 70, grid), ld_out = ld_on_grid(t, 40, grid);
  v.push_back({t, 40, 70, 3, ld_in, ld_out, 40 * ld_in + grid / std::min(grid, e) * 2,
               70 * ld_out + grid / std::min(grid, e) * 3});  // batches with gaps on the grid
  return v;
}

// Matrices of 2 x tiles_across tiles of tile_rows x tile_cols, every tile whole: one with leading
// dimensions past its rows, and a batch of them with gaps between the matrices.
std::vector<xpose::TransposeDesc> whole_tile_cases(DType t, std::int64_t grid, std::int64_t tile_rows,
                                                   std::int64_t tile_cols, std::int64_t tiles_across) {
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  const std::int64_t rows = 2 * tile_rows, cols = tiles_across * tile_cols;
  const std::int64_t ld_in = ld_on_grid(t, cols + 1, grid), ld_out = ld_on_grid(t, rows + 1, grid);
  const std::int64_t gap = grid / std::min(grid, e);
  return {{t, rows, cols, 1, ld_in, ld_out},
          {t, rows, cols, 2, ld_in, ld_out, rows * ld_in + 2 * gap, cols * ld_out + 3 * gap}};
}

// The tiles built with bands (BandedTileGrid, LedBandedTileGrid) for e-byte elements, as (tile bytes,
// row bytes).
std::vector<std::pair<int, int>> banded_tiles(int e) {
  std::vector<std::pair<int, int>> tiles;
  for (int tile_bytes : {xpose::kVecTileBytesSmall, xpose::kVecTileBytes, xpose::kVecTileBytesLarge})
    for (int row_bytes = 256; row_bytes <= xpose::tiled_vec_max_row_bytes(e, tile_bytes); row_bytes *= 2)
      if (xpose::tiled_vec_tile_built(e, tile_bytes, xpose::kVecBytes) &&
          xpose::tiled_vec_bands_built(tile_bytes, row_bytes, xpose::kVecBytes))
        tiles.emplace_back(tile_bytes, row_bytes);
  return tiles;
}

class TiledVecTiles : public ::testing::TestWithParam<DType> {};

TEST_P(TiledVecTiles, EveryBuiltTileMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const int e = static_cast<int>(xpose::dtype_size(t));
  int kernels = 0;
  for (int v : {16, 8}) {
    if (v < e) continue;
    for (int tile_bytes : {xpose::kVecTileBytesMicro, xpose::kVecTileBytesTiny, xpose::kVecTileBytesSmall,
                           xpose::kVecTileBytes, xpose::kVecTileBytesLarge}) {
      if (!xpose::tiled_vec_tile_built(e, tile_bytes, v)) continue;
      for (int row_bytes = xpose::tiled_vec_min_row_bytes(e, tile_bytes);
           row_bytes <= xpose::tiled_vec_max_row_bytes(e, tile_bytes); row_bytes *= 2) {
        ++kernels;
        std::vector<xpose::TransposeDesc> cases = cases_on_grid(t, v);
        for (const xpose::TransposeDesc& d : whole_tile_cases(t, v, tile_bytes / row_bytes, row_bytes / e, 3))
          cases.push_back(d);
        for (const xpose::TransposeDesc& d : cases) {
          const std::string what = describe(d) + " with " + std::to_string(tile_bytes) + "-byte tiles of " +
                                   std::to_string(row_bytes) + "-byte rows, " + std::to_string(v) + "-byte accesses";
          xpose::Plan plan;
          ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::tiled_vec, v}).ok()) << what;
          ASSERT_TRUE(
              xpose::plan::configure_tiled_vec_tile(plan.desc(), v, tile_bytes, row_bytes, plan.state()->config).ok())
              << what;
          ASSERT_EQ(plan.config().vector_bytes, v) << what;
          ASSERT_EQ(plan.config().block_x, xpose::tiled_vec_threads(e, tile_bytes)) << what;
          const CaseData& data = case_data(d);
          std::vector<unsigned char> got;
          // 8-byte accesses also run on pointers 8 bytes past 16-byte alignment.
          const std::size_t shift = v == 8 ? 8 : 0;
          const xpose::Status s = run_plan_on_gpu(plan, data.input, got, data.expected_transpose.size(), shift);
          ASSERT_TRUE(s.ok()) << what << ": " << s.message();
          EXPECT_EQ(first_mismatch(got, data.expected_transpose, static_cast<std::size_t>(e)), -1) << what;
        }
      }
    }
  }
  EXPECT_GE(kernels, 10) << "tile shapes tried";
}

// The banded walk (BandedTileGrid) of every tile it is built for, forced onto matrices whose tile
// columns the bands divide: the last tile column and tile row cut, leading dimensions, a batch with
// gaps.
TEST_P(TiledVecTiles, EveryBandedTileMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const int e = static_cast<int>(xpose::dtype_size(t));
  const int v = xpose::kVecBytes;
  const std::vector<std::pair<int, int>> tiles = banded_tiles(e);
  for (auto [tile_bytes, row_bytes] : tiles) {
    const std::int64_t tile_cols = row_bytes / e;
    for (int bands = 2; bands <= xpose::kVecMaxBands; bands *= 2) {
      const std::int64_t cols = 2 * bands * tile_cols - 3, ld_in = ld_on_grid(t, cols + 5, v);
      const std::int64_t rows = 129, ld_out = ld_on_grid(t, rows, v);
      const std::int64_t bs_in = rows * ld_in + 2 * v / e, bs_out = cols * ld_out + 3 * v / e;  // gaps
      std::vector<xpose::TransposeDesc> cases = {xpose::TransposeDesc{t, rows, cols, 1, ld_in, ld_out},
                                                 xpose::TransposeDesc{t, rows, cols, 3, ld_in, ld_out, bs_in, bs_out}};
      // And tiles that cover the matrices exactly (2 x bands tile columns, 2 tile rows).
      for (const xpose::TransposeDesc& d : whole_tile_cases(t, v, tile_bytes / row_bytes, tile_cols, 2 * bands))
        cases.push_back(d);
      for (const xpose::TransposeDesc& d : cases) {
        const std::string what = describe(d) + " in " + std::to_string(bands) + " bands of " +
                                 std::to_string(tile_bytes) + "-byte tiles of " + std::to_string(row_bytes) +
                                 "-byte rows";
        xpose::Plan plan;
        ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::tiled_vec, v}).ok()) << what;
        ASSERT_TRUE(
            xpose::plan::configure_tiled_vec_tile(plan.desc(), v, tile_bytes, row_bytes, plan.state()->config).ok())
            << what;
        plan.state()->config.bands = bands;
        ASSERT_NE(plan.to_string().find("bands" + std::to_string(bands)), std::string::npos) << plan.to_string();
        const CaseData& data = case_data(d);
        std::vector<unsigned char> got;
        const xpose::Status s = run_plan_on_gpu(plan, data.input, got, data.expected_transpose.size(), 0);
        ASSERT_TRUE(s.ok()) << what << ": " << s.message();
        EXPECT_EQ(first_mismatch(got, data.expected_transpose, static_cast<std::size_t>(e)), -1) << what;
      }
    }
  }
  EXPECT_GE(tiles.size(), 2u) << "banded tile shapes tried";
}

// The banded walk on a led grid (LedBandedTileGrid) of every tile it is built for: pointers off the
// 16-byte grid by each lead, the tile grid started that far before them, and the bands sharing all
// tile columns but one a lead of columns adds (or all, where it adds none, as in a slice x[:, k:]).
// Every element checked, the output poisoned first and untouched outside its span.
TEST_P(TiledVecTiles, EveryBandedTileLedMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const int e = static_cast<int>(xpose::dtype_size(t));
  const int v = xpose::kVecBytes;
  const std::vector<std::pair<int, int>> tiles = banded_tiles(e);
  for (auto [tile_bytes, row_bytes] : tiles) {
    const int tile_cols = row_bytes / e, tile_rows = tile_bytes / row_bytes;
    for (auto [lead_rows, lead_cols, adds] :
         {std::tuple<int, int, bool>{0, 1, true}, {0, 1, false}, {1, 0, false}, {tile_rows - 1, tile_cols - 1, true},
          {tile_rows - 1, 2, false}}) {
      for (int bands : {2, 4, xpose::kVecMaxBands}) {
        // Led tile columns: 2 x bands, plus one lead_cols wide where the lead adds it (the matrix spans
        // 2 x bands tile columns exactly); else the last one 3 columns short.
        const std::int64_t cols = 2 * bands * tile_cols + (adds ? 0 : -lead_cols - 3);
        const std::int64_t rows = 3 * tile_rows - 7 - lead_rows;
        const std::int64_t ld_in = ld_on_grid(t, cols + 5, v), ld_out = ld_on_grid(t, rows, v);
        const std::int64_t bs_in = rows * ld_in + 2 * v / e, bs_out = cols * ld_out + 3 * v / e;  // gaps
        for (const xpose::TransposeDesc& d : {xpose::TransposeDesc{t, rows, cols, 1, ld_in, ld_out},
                                              xpose::TransposeDesc{t, rows, cols, 3, ld_in, ld_out, bs_in, bs_out}}) {
          const std::string what = describe(d) + " lead " + std::to_string(lead_rows) + "x" +
                                   std::to_string(lead_cols) + " in " + std::to_string(bands) + " bands of " +
                                   std::to_string(tile_bytes) + "-byte tiles of " + std::to_string(row_bytes) +
                                   "-byte rows";
          xpose::Plan plan;
          ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::tiled_vec, v}).ok()) << what;
          xpose::LaunchConfig& c = plan.state()->config;
          ASSERT_TRUE(xpose::plan::configure_tiled_vec_tile(plan.desc(), v, tile_bytes, row_bytes, c).ok()) << what;
          const std::int64_t tiles_c = (cols + lead_cols + tile_cols - 1) / tile_cols;
          ASSERT_EQ(xpose::lead_adds_tile_column(cols, lead_cols, tile_cols), adds) << what;
          ASSERT_EQ(tiles_c - (adds ? 1 : 0), 2 * bands) << what;
          c.lead_rows = lead_rows;
          c.lead_cols = lead_cols;
          c.bands = bands;
          c.grid_x = d.batch * ((rows + lead_rows + tile_rows - 1) / tile_rows) * tiles_c;
          plan.state()->alignment = std::min(e, 16);  // the pointers lie a lead past the 16-byte grid
          ASSERT_NE(plan.to_string().find("bands" + std::to_string(bands)), std::string::npos) << plan.to_string();
          const CaseData& data = case_data(d);
          const std::size_t in_bytes = data.input.size(), out_bytes = data.expected_transpose.size();
          // Buffers from the tile grid's origin, the pointers a lead into them, 256 bytes spare.
          const std::size_t in_at = static_cast<std::size_t>(lead_cols * e);
          const std::size_t at = static_cast<std::size_t>(lead_rows * e);
          xpose::DeviceBuffer in, out;
          ASSERT_TRUE(in.allocate(in_at + in_bytes + 256).ok());
          ASSERT_TRUE(out.allocate(at + out_bytes + 256).ok());
          auto* in_ptr = static_cast<unsigned char*>(in.data()) + in_at;
          auto* out_ptr = static_cast<unsigned char*>(out.data()) + at;
          ASSERT_TRUE(xpose::copy_host_to_device(in_ptr, data.input.data(), in_bytes).ok());
          ASSERT_TRUE(xpose::fill_device_bytes(out.data(), kPoison, at + out_bytes + 256).ok());
          const xpose::Status s = xpose::execute(plan, in_ptr, out_ptr);
          ASSERT_TRUE(s.ok()) << what << ": " << s.message();
          std::vector<unsigned char> whole(at + out_bytes + 256);
          ASSERT_TRUE(xpose::synchronize_device().ok());
          ASSERT_TRUE(xpose::copy_device_to_host(whole.data(), out.data(), whole.size()).ok());
          const std::vector<unsigned char> got(whole.begin() + static_cast<std::ptrdiff_t>(at),
                                               whole.begin() + static_cast<std::ptrdiff_t>(at + out_bytes));
          EXPECT_EQ(first_mismatch(got, data.expected_transpose, static_cast<std::size_t>(e)), -1) << what;
          for (std::size_t i = 0; i < whole.size(); ++i)
            if (i < at || i >= at + out_bytes) {
              ASSERT_EQ(whole[i], kPoison) << what << ": byte " << i << " outside the output was written";
            }
        }
      }
    }
  }
  EXPECT_GE(tiles.size(), 2u) << "banded tile shapes tried";
}

INSTANTIATE_TEST_SUITE_P(ElementSizes, TiledVecTiles,
                         ::testing::Values(DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128),
                         [](const ::testing::TestParamInfo<DType>& info) {
                           return std::string(xpose::dtype_name(info.param));
                         });

}  // namespace
