// Launcher for the general permutation kernels: tiles of 2-D slices, or runs gathered into the
// packed output.
#include <limits>

#include "gpu/gpu_backend.hpp"
#include "gpu/kernels/permute.cuh"
#include "gpu/launch/launch_common.hpp"

namespace xpose::gpu {

namespace {
// Blocks beyond this loop over the rest: enough for every SM many times over.
constexpr std::int64_t kMaxPermuteBlocks = std::int64_t{1} << 20;
// Tile kernels' blocks: each takes a run of consecutive tiles, stepping from one to the next by
// additions, so fewer blocks with longer runs (a few waves of an H200's 132 SMs).
constexpr std::int64_t kMaxTileBlocks = 4096;

template <typename T>
Status launch_runs(const T* src, T* dst, const core::PermuteGeometry& g, rt::Stream s) {
  // The innermost slice dimension in output order: its runs form each contiguous output span.
  const int last = g.slice_dims - 1;
  const std::int64_t n1 = last >= 0 ? g.slice_extent[last] : 1;
  const std::int64_t n1_stride = last >= 0 ? g.slice_in_stride[last] : 0;
  const std::int64_t span = n1 * g.extent_a, outers = g.slices / n1;
  LaunchConfig c{};
  c.block_x = kPermuteRunBlock;
  c.block_y = 1;
  c.grid_x = std::min(ceil_div(span, kPermuteRunBlock * kPermuteRunUnroll), kMaxPermuteBlocks);
  c.grid_y = std::min(outers, kMaxGridYZ);
  c.grid_z = 1;
  if (span < std::numeric_limits<std::int32_t>::max() / 2)
    permute_runs_kernel<T, std::int32_t>
        <<<grid_of(c), block_of(c), 0, s>>>(src, dst, g, outers, static_cast<std::int32_t>(span), n1_stride);
  else
    permute_runs_kernel<T, std::int64_t><<<grid_of(c), block_of(c), 0, s>>>(src, dst, g, outers, span, n1_stride);
  return check_launch("permute_runs_kernel", c, 0, s);
}

// Tiles of 64 x 64 where both slice extents fill them (more bytes in flight per thread, and for 1-
// and 2-byte elements pieces of rows of 64 and 128 bytes), else 32 x 32; 16-byte elements keep 32 x
// 32 (a 64 x 65 tile of them passes the 48 KiB of static shared memory).
template <typename T, int kT>
Status launch_tiles(const T* src, T* dst, const core::PermuteGeometry& g, rt::Stream s) {
  const std::int64_t tiles_a = ceil_div(g.extent_a, kT), tiles_b = ceil_div(g.extent_b, kT);
  LaunchConfig c{};
  c.tile_rows = c.tile_cols = kT;
  c.block_x = kPermuteWarp;
  c.block_y = kPermuteBlockRows;
  c.grid_x = std::min(g.slices * tiles_a * tiles_b, kMaxTileBlocks);
  c.grid_y = c.grid_z = 1;
  permute_tiled_kernel<T, kT><<<grid_of(c), block_of(c), 0, s>>>(src, dst, g, tiles_a, tiles_b);
  return check_launch("permute_tiled_kernel", c, 0, s);
}

// Smallest n with 2^n >= v.
int ceil_log2(std::int64_t v) {
  int n = 0;
  while ((std::int64_t{1} << n) < v) ++n;
  return n;
}

// Slices with a side under 32 elements: tiles the size of the slice, rounded up to powers of two,
// the longer side cut to keep kNarrowTile elements at most.
template <typename T>
Status launch_narrow(const T* src, T* dst, const core::PermuteGeometry& g, rt::Stream s) {
  constexpr int kMaxLog = 10;  // log2(kNarrowTile)
  static_assert((1 << kMaxLog) == kNarrowTile, "kMaxLog names kNarrowTile");
  int la = ceil_log2(g.extent_a), lb = ceil_log2(g.extent_b);
  while (la + lb > kMaxLog) (la > lb ? la : lb) -= 1;
  const std::int64_t tiles_a = ceil_div(g.extent_a, std::int64_t{1} << la);
  const std::int64_t tiles_b = ceil_div(g.extent_b, std::int64_t{1} << lb);
  LaunchConfig c{};
  c.tile_rows = 1 << lb;
  c.tile_cols = 1 << la;
  c.block_x = kPermuteRunBlock;
  c.block_y = 1;
  c.grid_x = std::min(g.slices * tiles_a * tiles_b, kMaxTileBlocks);
  c.grid_y = c.grid_z = 1;
  permute_narrow_kernel<T><<<grid_of(c), block_of(c), 0, s>>>(src, dst, g, la, lb, tiles_a, tiles_b);
  return check_launch("permute_narrow_kernel", c, 0, s);
}

template <typename T>
Status launch_tiles(const T* src, T* dst, const core::PermuteGeometry& g, rt::Stream s) {
  if (g.extent_a < 32 || g.extent_b < 32) return launch_narrow(src, dst, g, s);
  if constexpr (sizeof(T) <= 8)
    if (g.extent_a >= 64 && g.extent_b >= 64) return launch_tiles<T, 64>(src, dst, g, s);
  return launch_tiles<T, 32>(src, dst, g, s);
}

}  // namespace

Status launch_permute(const core::PermuteGeometry& g, const void* in, void* out, StreamHandle stream) {
  const auto s = static_cast<rt::Stream>(stream);
  return dispatch_element_size(static_cast<std::size_t>(g.esize), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* src = static_cast<const T*>(in);
    T* dst = static_cast<T*>(out);
    return g.same_inner ? launch_runs(src, dst, g, s) : launch_tiles(src, dst, g, s);
  });
}

}  // namespace xpose::gpu
