// Launcher for the general permutation kernels: tiles of 2-D slices, or runs copied whole.
#include "gpu/gpu_backend.hpp"
#include "gpu/kernels/permute.cuh"
#include "gpu/launch/launch_common.hpp"

namespace xpose::gpu {

namespace {
// Blocks beyond this loop over the rest: enough for every SM many times over.
constexpr std::int64_t kMaxPermuteBlocks = std::int64_t{1} << 20;
}  // namespace

Status launch_permute(const core::PermuteGeometry& g, const void* in, void* out, StreamHandle stream) {
  const auto s = static_cast<rt::Stream>(stream);
  return dispatch_element_size(static_cast<std::size_t>(g.esize), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* src = static_cast<const T*>(in);
    T* dst = static_cast<T*>(out);
    LaunchConfig c{};
    if (g.same_inner) {
      const std::int64_t pieces = g.slices * ceil_div(g.extent_a, kPermuteRunPiece);
      c.block_x = kPermuteRunBlock;
      c.block_y = 1;
      c.grid_x = std::min(ceil_div(pieces, kPermuteRunBlock / kPermuteRunGroup), kMaxPermuteBlocks);
      c.grid_y = c.grid_z = 1;
      permute_runs_kernel<T><<<grid_of(c), block_of(c), 0, s>>>(src, dst, g);
      return check_launch("permute_runs_kernel", c, 0, s);
    }
    const std::int64_t tiles_a = ceil_div(g.extent_a, kPermuteTile), tiles_b = ceil_div(g.extent_b, kPermuteTile);
    c.block_x = kPermuteTile;
    c.block_y = kPermuteBlockRows;
    c.grid_x = std::min(g.slices * tiles_a * tiles_b, kMaxPermuteBlocks);
    c.grid_y = c.grid_z = 1;
    permute_tiled_kernel<T><<<grid_of(c), block_of(c), 0, s>>>(src, dst, g, tiles_a, tiles_b);
    return check_launch("permute_tiled_kernel", c, 0, s);
  });
}

}  // namespace xpose::gpu
