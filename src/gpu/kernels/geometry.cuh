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

}  // namespace xpose::gpu
