// Launcher for the skinny family: slabs of the whole short side, sized to the shared memory.
#include "gpu/kernels/skinny.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {

namespace {

// Long-side indices per slab: as many as the shared memory holds, at most 1024 so that long
// matrices still give many blocks.
int slab_span(const TransposeDesc& d) {
  const std::int64_t short_n = std::min(d.rows, d.cols);
  const std::int64_t fit = kSkinnySmemBytes / (short_n * static_cast<std::int64_t>(dtype_size(d.dtype)));
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(fit, 1024)));
}

}  // namespace

Status configure_skinny(const TransposeDesc& d, LaunchConfig& c) {
  const std::int64_t short_n = std::min(d.rows, d.cols);
  if (short_n * static_cast<std::int64_t>(dtype_size(d.dtype)) > kSkinnySmemBytes)
    return Status(StatusCode::unsupported, "skinny: the short side must fit a shared-memory slab");
  c = LaunchConfig{};
  c.vector_bytes = static_cast<int>(dtype_size(d.dtype));
  const int span = slab_span(d);
  c.tile_rows = d.cols <= d.rows ? span : static_cast<int>(d.rows);
  c.tile_cols = d.cols <= d.rows ? static_cast<int>(d.cols) : span;
  const std::int64_t long_n = std::max(d.rows, d.cols);
  // Past 2^20 slabs the blocks loop.
  set_grid(c, kSkinnyThreads, 1, std::min<std::int64_t>(ceil_div(long_n, span), 1 << 20), 1, d.batch);
  return Status::ok_status();
}

Status launch_skinny(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  const bool short_cols = d.cols <= d.rows;
  return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) -> Status {
    using T = decltype(tag);
    const MatrixGeometry g = make_geometry(d, 1);
    const int span = slab_span(d);
    if (short_cols)
      skinny_kernel<T, true>
          <<<grid_of(c), block_of(c), 0, stream>>>(static_cast<const T*>(in), static_cast<T*>(out), g, span);
    else
      skinny_kernel<T, false>
          <<<grid_of(c), block_of(c), 0, stream>>>(static_cast<const T*>(in), static_cast<T*>(out), g, span);
    return check_launch(short_cols ? "skinny_kernel<short_cols>" : "skinny_kernel<short_rows>", c,
                        kSkinnySmemBytes, stream);
  });
}

}  // namespace xpose::gpu
