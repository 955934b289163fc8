// Launcher for the skinny family: the direct kernel, or slabs of the whole short side in shared memory.
#include "gpu/kernels/skinny.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {

namespace {

// Columns per staged slab: as many as the shared memory holds, at most 1024 so that long matrices
// still give many blocks.
int slab_span(const TransposeDesc& d) {
  const std::int64_t fit = kSkinnySmemBytes / (d.rows * static_cast<std::int64_t>(dtype_size(d.dtype)));
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(fit, 1024)));
}

// Staging pays for a few rows of 4- to 16-byte elements; a few columns, or 1- and 2-byte elements,
// run faster with one thread per long-side index (measured on an H200, bench/results/).
bool use_staged(const TransposeDesc& d) { return d.rows < d.cols && dtype_size(d.dtype) >= 4; }

}  // namespace

Status configure_skinny(const TransposeDesc& d, LaunchConfig& c) {
  const std::int64_t short_n = std::min(d.rows, d.cols);
  const std::int64_t long_n = std::max(d.rows, d.cols);
  if (!use_staged(d)) {
    c = LaunchConfig{};
    c.vector_bytes = static_cast<int>(dtype_size(d.dtype));
    set_grid(c, kSkinnyThreads, 1, std::min<std::int64_t>(ceil_div(long_n, kSkinnyThreads), 1 << 20), 1, d.batch);
    return Status::ok_status();
  }
  if (short_n * static_cast<std::int64_t>(dtype_size(d.dtype)) > kSkinnySmemBytes)
    return Status(StatusCode::unsupported, "skinny: the short side must fit a shared-memory slab");
  c = LaunchConfig{};
  c.vector_bytes = static_cast<int>(dtype_size(d.dtype));
  const int span = slab_span(d);
  c.tile_rows = static_cast<int>(d.rows);  // staged slabs: all rows x span columns
  c.tile_cols = span;
  // Past 2^20 slabs the blocks loop.
  set_grid(c, kSkinnyThreads, 1, std::min<std::int64_t>(ceil_div(long_n, span), 1 << 20), 1, d.batch);
  return Status::ok_status();
}

Status launch_skinny(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  const bool short_cols = d.cols <= d.rows;
  return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) -> Status {
    using T = decltype(tag);
    const MatrixGeometry g = make_geometry(d, 1);
    const T* src = static_cast<const T*>(in);
    T* dst = static_cast<T*>(out);
    if (c.tile_rows == 0) {  // configure_skinny chose the direct kernel
      if (short_cols)
        skinny_direct_kernel<T, true><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, g);
      else
        skinny_direct_kernel<T, false><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, g);
      return check_launch("skinny_direct_kernel", c, 0, stream);
    }
    skinny_staged_kernel<T><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, g, slab_span(d));
    return check_launch("skinny_staged_kernel", c, kSkinnySmemBytes, stream);
  });
}

}  // namespace xpose::gpu
