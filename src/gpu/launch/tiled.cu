// Launcher for the shared-memory tiled family: tiled (no padding) and tiled_padded.
#include "gpu/kernels/tiled.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {

Status configure_tiled(const TransposeDesc& d, Algorithm algorithm, LaunchConfig& c) {
  if (algorithm != Algorithm::tiled && algorithm != Algorithm::tiled_padded)
    return Status(StatusCode::internal, "configure_tiled: not a tiled algorithm");
  c = LaunchConfig{};
  c.tile_rows = c.tile_cols = kTiledTile;
  c.pad = algorithm == Algorithm::tiled_padded ? kTiledPad : 0;
  c.vector_bytes = static_cast<int>(dtype_size(d.dtype));
  set_grid(c, kTiledTile, kTiledBlockY, ceil_div(d.cols, kTiledTile), ceil_div(d.rows, kTiledTile), d.batch);
  return Status::ok_status();
}

Status launch_tiled(const TransposeDesc& d, Algorithm algorithm, const LaunchConfig& c, const void* in, void* out,
                    rt::Stream stream) {
  return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* src = static_cast<const T*>(in);
    T* dst = static_cast<T*>(out);
    const MatrixGeometry g = make_geometry(d, ceil_div(d.rows, kTiledTile));
    if (c.pad == 0) {
      tiled_kernel<T, 0><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, g);
      return check_launch("tiled_kernel<pad0>", c, sizeof(T) * kTiledTile * kTiledTile, stream);
    }
    tiled_kernel<T, kTiledPad><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, g);
    return check_launch("tiled_kernel<pad1>", c, sizeof(T) * kTiledTile * (kTiledTile + kTiledPad), stream);
  });
}

}  // namespace xpose::gpu
