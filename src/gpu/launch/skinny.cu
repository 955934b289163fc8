// Launcher for the skinny family: one thread per index of the long side.
#include "gpu/kernels/skinny.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {

Status configure_skinny(const TransposeDesc& d, LaunchConfig& c) {
  c = LaunchConfig{};
  c.vector_bytes = static_cast<int>(dtype_size(d.dtype));
  const std::int64_t long_n = d.cols <= d.rows ? d.rows : d.cols;
  // Enough blocks to fill the GPU many times over; past 2^20 blocks each thread loops instead.
  set_grid(c, kSkinnyThreads, 1, std::min<std::int64_t>(ceil_div(long_n, kSkinnyThreads), 1 << 20), 1, d.batch);
  return Status::ok_status();
}

Status launch_skinny(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  const bool short_cols = d.cols <= d.rows;
  return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) -> Status {
    using T = decltype(tag);
    const MatrixGeometry g = make_geometry(d, 1);
    if (short_cols)
      skinny_kernel<T, true><<<grid_of(c), block_of(c), 0, stream>>>(static_cast<const T*>(in), static_cast<T*>(out), g);
    else
      skinny_kernel<T, false><<<grid_of(c), block_of(c), 0, stream>>>(static_cast<const T*>(in), static_cast<T*>(out), g);
    return check_launch(short_cols ? "skinny_kernel<short_cols>" : "skinny_kernel<short_rows>", c, 0, stream);
  });
}

}  // namespace xpose::gpu
