// The tile decodes of src/gpu/kernels/geometry.cuh, compiled for the host: every grid order the tiled
// kernels take (TileGrid down or across first, BandedTileGrid, LedBandedTileGrid) visits each tile of
// each matrix exactly once; a led banded grid walks a tile column its lead adds first; and with the
// led kernel's tile positions every element lies in exactly one tile. The GPU tests check the
// kernels' results; these run without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#define XPOSE_TILE_DECODE_ON_HOST
#include "gpu/kernels/geometry.cuh"
#include "plan/tiled_vec_shape.hpp"

namespace {

using xpose::gpu::TileCoord;

// Blocks [0, batch x tiles_y x tiles_c) through `grid`: the tiles in the order visited, or an empty
// list where a block decodes outside the grid or a tile comes twice.
template <typename Grid>
std::vector<TileCoord> walk(const Grid& grid, std::int64_t tiles_y, std::int64_t tiles_c, std::int64_t batch) {
  std::vector<TileCoord> order;
  std::vector<char> seen(static_cast<std::size_t>(batch * tiles_y * tiles_c), 0);
  for (std::int64_t block = 0; block < batch * tiles_y * tiles_c; ++block) {
    const TileCoord t = xpose::gpu::tile_coord(static_cast<std::uint32_t>(block), grid);
    if (t.tr < 0 || t.tr >= tiles_y || t.tc < 0 || t.tc >= tiles_c || t.b < 0 || t.b >= batch) return {};
    char& s = seen[static_cast<std::size_t>((t.b * tiles_y + t.tr) * tiles_c + t.tc)];
    if (s) return {};
    s = 1;
    order.push_back(t);
  }
  return order;
}

std::string what(std::int64_t tiles_y, std::int64_t tiles_c, std::int64_t batch, int bands) {
  return std::to_string(batch) + " x " + std::to_string(tiles_y) + "x" + std::to_string(tiles_c) + " tiles, " +
         std::to_string(bands) + " bands";
}

TEST(TileGrids, EveryOrderVisitsEachTileOnce) {
  int banded = 0, led_banded = 0;
  for (std::int64_t tiles_y : {1, 2, 3, 7, 16})
    for (std::int64_t tiles_c : {1, 2, 3, 5, 8, 9, 12, 16, 17})
      for (std::int64_t batch : {1, 3}) {
        const std::size_t n = static_cast<std::size_t>(batch * tiles_y * tiles_c);
        for (bool down_first : {true, false})
          EXPECT_EQ(walk(xpose::gpu::make_tile_grid(tiles_y, tiles_c, down_first), tiles_y, tiles_c, batch).size(), n)
              << what(tiles_y, tiles_c, batch, 1) << (down_first ? ", down first" : ", across first");
        for (int bands = 2; bands <= xpose::kVecMaxBands; bands *= 2) {
          if (tiles_c % bands == 0) {
            ++banded;
            EXPECT_EQ(walk(xpose::gpu::make_banded_tile_grid(tiles_y, tiles_c, bands), tiles_y, tiles_c, batch).size(),
                      n)
                << what(tiles_y, tiles_c, batch, bands);
          }
          for (bool extra_col : {false, true}) {
            const std::int64_t banded_c = tiles_c - (extra_col ? 1 : 0);
            if (banded_c < bands || banded_c % bands != 0) continue;  // refused by the launcher
            ++led_banded;
            const auto grid = xpose::gpu::make_led_banded_tile_grid(tiles_y, tiles_c, bands, batch, extra_col);
            const std::vector<TileCoord> order = walk(grid, tiles_y, tiles_c, batch);
            ASSERT_EQ(order.size(), n) << what(tiles_y, tiles_c, batch, bands) << (extra_col ? ", added column" : "");
            // An added tile column goes first, matrix by matrix, down each.
            if (extra_col)
              for (std::int64_t k = 0; k < batch * tiles_y; ++k) {
                EXPECT_EQ(order[static_cast<std::size_t>(k)].tc, tiles_c - 1) << what(tiles_y, tiles_c, batch, bands);
                EXPECT_EQ(order[static_cast<std::size_t>(k)].tr, k % tiles_y) << what(tiles_y, tiles_c, batch, bands);
                EXPECT_EQ(order[static_cast<std::size_t>(k)].b, k / tiles_y) << what(tiles_y, tiles_c, batch, bands);
              }
          }
        }
      }
  EXPECT_GT(banded, 20);
  EXPECT_GT(led_banded, 40);
}

// Tiles of tile_rows x tile_cols elements on a grid started lead_rows above and lead_cols left of the
// matrix, as vec_tile_position places them (tile row tr starts at tr * tile_rows - lead_rows): with the
// led banded order, every element of every matrix in exactly one tile, whether or not the lead adds a
// tile column (lead_adds_tile_column, as the planner and launcher decide it).
TEST(TileGrids, LedBandedTilesCoverEachElementOnce) {
  int cases = 0, without_added_column = 0;
  for (int tile_cols : {16, 64, 256})
    for (int tile_rows : {16, 32})
      for (int bands : {2, 4})
        for (std::int64_t cols : {std::int64_t{2} * bands * tile_cols - 3, std::int64_t{2} * bands * tile_cols,
                                  std::int64_t{2} * bands * tile_cols - tile_cols + 1})
          for (int lead_cols : {0, 1, tile_cols / 2, tile_cols - 1})
            for (int lead_rows : {0, 1, tile_rows - 1})
              for (std::int64_t batch : {1, 2}) {
                if (lead_rows == 0 && lead_cols == 0) continue;
                const std::int64_t rows = 3 * tile_rows + 5;
                const std::int64_t tiles_y = (rows + lead_rows + tile_rows - 1) / tile_rows;
                const std::int64_t tiles_c = (cols + lead_cols + tile_cols - 1) / tile_cols;
                const bool extra_col = xpose::lead_adds_tile_column(cols, lead_cols, tile_cols);
                const std::int64_t banded_c = tiles_c - (extra_col ? 1 : 0);
                if (banded_c < bands || banded_c % bands != 0) continue;  // the planner keeps no bands there
                ++cases;
                if (lead_cols > 0 && !extra_col) ++without_added_column;
                const auto grid = xpose::gpu::make_led_banded_tile_grid(tiles_y, tiles_c, bands, batch, extra_col);
                std::vector<int> cover(static_cast<std::size_t>(batch * rows * cols), 0);
                std::size_t wrong = 0;
                for (std::int64_t block = 0; block < batch * tiles_y * tiles_c; ++block) {
                  const TileCoord t = xpose::gpu::tile_coord(static_cast<std::uint32_t>(block), grid);
                  if (t.b < 0 || t.b >= batch || t.tr < 0 || t.tr >= tiles_y || t.tc < 0 || t.tc >= tiles_c) {
                    ++wrong;  // a block outside the grid
                    continue;
                  }
                  const std::int64_t r0 = t.tr * tile_rows - lead_rows, c0 = t.tc * tile_cols - lead_cols;
                  for (std::int64_t r = std::max<std::int64_t>(r0, 0); r < std::min(r0 + tile_rows, rows); ++r)
                    for (std::int64_t c = std::max<std::int64_t>(c0, 0); c < std::min(c0 + tile_cols, cols); ++c)
                      ++cover[static_cast<std::size_t>((t.b * rows + r) * cols + c)];
                }
                for (int k : cover) wrong += k != 1 ? 1 : 0;
                EXPECT_EQ(wrong, 0u) << batch << " x " << rows << "x" << cols << ", tiles " << tile_rows << "x"
                                     << tile_cols << ", lead " << lead_rows << "x" << lead_cols << ", " << bands
                                     << " bands";
              }
  EXPECT_GT(cases, 100);
  EXPECT_GT(without_added_column, 20);  // column slices x[:, k:]
}

}  // namespace
