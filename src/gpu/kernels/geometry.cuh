// MatrixGeometry: the batched-matrix layout every kernel receives by value, in 64-bit elements.
#pragma once

#include <cstdint>

namespace xpose::gpu {

// in (b, r, c) at b * bs_in + r * ld_in + c; out (b, c, r) at b * bs_out + c * ld_out + r.
// tiles_y: tiles along the grid's y axis, which the kernels walk in steps of gridDim.y, since
// gridDim.y (and z, the batch) stop at 65535.
struct MatrixGeometry {
  std::int64_t rows, cols, batch;
  std::int64_t ld_in, ld_out, bs_in, bs_out;
  std::int64_t tiles_y;
};

// Tile row, tile column and batch of tile number `tile` in a grid of tiles_y x tiles_c tiles per
// matrix: tile rows fastest when `down_first` (consecutive blocks write each output row in long
// runs), else tile columns.
struct TileCoord {
  std::int64_t tr, tc, b;
};
__device__ __forceinline__ TileCoord tile_coord(std::int64_t tile, std::int64_t tiles_y, std::int64_t tiles_c,
                                                bool down_first) {
  if (down_first) {
    const std::int64_t rest = tile / tiles_y;
    return {tile % tiles_y, rest % tiles_c, rest / tiles_c};
  }
  const std::int64_t rest = tile / tiles_c;
  return {rest % tiles_y, tile % tiles_c, rest / tiles_y};
}

}  // namespace xpose::gpu
