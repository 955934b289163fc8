// Launcher for the in-place transpose of square matrices: the plan (src/plan/in_place.cpp) chose the
// access width; this instantiates the tile for it.
#include <string>

#include "gpu/gpu_backend.hpp"
#include "gpu/kernels/in_place.cuh"
#include "gpu/launch/launch_common.hpp"

namespace xpose::gpu {
namespace {

LaunchConfig launch_config(const plan::InPlaceConfig& c) {
  LaunchConfig lc = linear_config(c.tile, c.tile, c.vector_bytes, c.threads, c.blocks);
  if (c.vector_bytes == 0) {
    lc.block_x = plan::kInPlaceElementBlockX;
    lc.block_y = plan::kInPlaceElementBlockY;
  }
  return lc;
}

template <int E, int V>
Status launch_pairs(const TransposeDesc& d, const plan::InPlaceConfig& c, void* data, rt::Stream s) {
  constexpr int kEdge = plan::in_place_tile_edge(E, V);
  using Tile = VecTile<E, V, kEdge * E, plan::in_place_tile_bytes(E, V)>;
  static_assert(Tile::kThreads == plan::in_place_threads(E, V), "the planner's thread count is the tile's");
  if (c.tile != kEdge || c.threads != Tile::kThreads)
    return Status(StatusCode::internal, "in_place: the plan's tile does not match the kernel's");
  const LaunchConfig lc = launch_config(c);
  in_place_pairs_kernel<Tile>
      <<<grid_of(lc), block_of(lc), 0, s>>>(static_cast<unsigned char*>(data), make_geometry(d, 1), c.pairs);
  return check_launch("in_place_pairs_kernel", lc, 0, s);
}

template <int E>
Status launch_for_size(const TransposeDesc& d, const plan::InPlaceConfig& c, void* data, rt::Stream s) {
  switch (c.vector_bytes) {
    case 16: return launch_pairs<E, 16>(d, c, data, s);
    case 8:
      if constexpr (E <= 8) return launch_pairs<E, 8>(d, c, data, s);
      break;
    case 0: {
      using T = typename ElementStorage<E>::type;
      const LaunchConfig lc = launch_config(c);
      in_place_elements_kernel<T>
          <<<grid_of(lc), block_of(lc), 0, s>>>(static_cast<T*>(data), make_geometry(d, 1), c.pairs);
      return check_launch("in_place_elements_kernel", lc, 0, s);
    }
    default: break;
  }
  return Status(StatusCode::internal, "in_place: no kernel for " + std::to_string(c.vector_bytes) + "-byte accesses of " +
                                          std::to_string(E) + "-byte elements");
}

}  // namespace

Status launch_in_place(const TransposeDesc& d, const plan::InPlaceConfig& c, void* data, StreamHandle stream) {
  const auto s = static_cast<rt::Stream>(stream);
  switch (dtype_size(d.dtype)) {
    case 1: return launch_for_size<1>(d, c, data, s);
    case 2: return launch_for_size<2>(d, c, data, s);
    case 4: return launch_for_size<4>(d, c, data, s);
    case 8: return launch_for_size<8>(d, c, data, s);
    case 16: return launch_for_size<16>(d, c, data, s);
    default: return Status(StatusCode::unsupported, "in_place: unsupported element size");
  }
}

}  // namespace xpose::gpu
