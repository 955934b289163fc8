// Launcher for the untiled ladder family: copy, naive_read, naive_write.
#include "gpu/kernels/ladder.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {

Status configure_ladder(const TransposeDesc& d, Algorithm algorithm, LaunchConfig& c) {
  c = LaunchConfig{};
  c.vector_bytes = static_cast<int>(dtype_size(d.dtype));
  switch (algorithm) {
    case Algorithm::copy:
      c.tile_rows = c.tile_cols = kLadderTile;
      set_grid(c, kLadderBlockX, kLadderBlockY, ceil_div(d.cols, kLadderTile), ceil_div(d.rows, kLadderTile), d.batch);
      return Status::ok_status();
    case Algorithm::naive_read:  // x over input columns, y over input rows
      set_grid(c, kLadderBlockX, kLadderBlockY, ceil_div(d.cols, kLadderBlockX), ceil_div(d.rows, kLadderBlockY),
               d.batch);
      return Status::ok_status();
    case Algorithm::naive_write:  // x over output columns (input rows), y over output rows
      set_grid(c, kLadderBlockX, kLadderBlockY, ceil_div(d.rows, kLadderBlockX), ceil_div(d.cols, kLadderBlockY),
               d.batch);
      return Status::ok_status();
    default:
      return Status(StatusCode::internal, "configure_ladder: not a ladder algorithm");
  }
}

Status launch_ladder(const TransposeDesc& d, Algorithm algorithm, const LaunchConfig& c, const void* in,
                     void* out, rt::Stream stream) {
  return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* src = static_cast<const T*>(in);
    T* dst = static_cast<T*>(out);
    // tiles_y follows the kernel's y axis: tile rows for copy, block rows for the naive kernels.
    const std::int64_t y_extent = algorithm == Algorithm::naive_write ? d.cols : d.rows;
    const std::int64_t y_step = algorithm == Algorithm::copy ? kLadderTile : kLadderBlockY;
    const MatrixGeometry g = make_geometry(d, ceil_div(y_extent, y_step));
    switch (algorithm) {
      case Algorithm::copy:
        copy_kernel<T><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, g);
        return check_launch("copy_kernel", c, 0, stream);
      case Algorithm::naive_read:
        naive_read_kernel<T><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, g);
        return check_launch("naive_read_kernel", c, 0, stream);
      case Algorithm::naive_write:
        naive_write_kernel<T><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, g);
        return check_launch("naive_write_kernel", c, 0, stream);
      default:
        return Status(StatusCode::internal, "launch_ladder: not a ladder algorithm");
    }
  });
}

}  // namespace xpose::gpu
