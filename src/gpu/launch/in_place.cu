// Launcher for the in-place transpose of square matrices: the plan (src/plan/in_place.cpp) chose the
// kernel and access width; this instantiates the tile for them.
#include <string>

#include "gpu/gpu_backend.hpp"
#include "gpu/kernels/in_place.cuh"
#include "gpu/kernels/in_place_realigned.cuh"
#include "gpu/kernels/in_place_small_squares.cuh"
#include "gpu/launch/launch_common.hpp"

namespace xpose::gpu {
namespace {

LaunchConfig launch_config(const plan::InPlaceConfig& c) {
  LaunchConfig lc = linear_config(c.tile, c.tile, c.vector_bytes, c.threads, c.blocks);
  if (c.kernel == plan::InPlaceKernel::elements) {
    lc.block_x = plan::kInPlaceElementBlockX;
    lc.block_y = plan::kInPlaceElementBlockY;
  }
  return lc;
}

template <int E, int V>
Status launch_pairs(const TransposeDesc& d, const plan::InPlaceConfig& c, void* data, rt::Stream s) {
  constexpr plan::InPlaceShape kShape = plan::in_place_shape(E);
  using Tile = VecTile<E, V, kShape.edge * E, kShape.edge * kShape.edge * E, kShape.threads>;
  if (c.tile != kShape.edge || c.threads != Tile::kThreads)
    return Status(StatusCode::internal, "in_place: the plan's tile does not match the kernel's");
  const LaunchConfig lc = launch_config(c);
  constexpr int kSmem = 2 * Tile::kTileB;
  const auto kernel = in_place_pairs_kernel<Tile, kShape.min_blocks>;
  if (kSmem > rt::kSharedWithoutOptIn) XPOSE_RETURN_IF_ERROR(allow_dynamic_shared_once(kernel, kSmem));
  kernel<<<grid_of(lc), block_of(lc), kSmem, s>>>(static_cast<unsigned char*>(data), make_geometry(d, 1), c.pairs);
  return check_launch("in_place_pairs_kernel", lc, kSmem, s);
}

template <int E>
Status launch_realigned(const TransposeDesc& d, const plan::InPlaceConfig& c, void* data, rt::Stream s) {
  constexpr plan::InPlaceShape kShape = plan::in_place_realigned_shape(E);
  static_assert(kShape.threads == kUnalignedThreads, "the plan's block is the load phases' block");
  if (c.tile != kShape.edge || c.threads != kShape.threads)
    return Status(StatusCode::internal, "in_place: the plan's tile does not match the kernel's");
  auto* bytes = static_cast<unsigned char*>(data);
  const LaunchConfig lc = launch_config(c);
  in_place_realigned_kernel<E, kShape.edge, kShape.min_blocks>
      <<<grid_of(lc), block_of(lc), 0, s>>>(bytes, bytes + input_span_elements(d) * E, make_geometry(d, 1), c.pairs);
  return check_launch("in_place_realigned_kernel", lc, 0, s);
}

template <int E, int kEdge>
Status launch_elements(const TransposeDesc& d, const plan::InPlaceConfig& c, void* data, rt::Stream s) {
  using T = typename ElementStorage<E>::type;
  const LaunchConfig lc = launch_config(c);
  in_place_elements_kernel<T, kEdge>
      <<<grid_of(lc), block_of(lc), 0, s>>>(static_cast<T*>(data), make_geometry(d, 1), c.pairs);
  return check_launch("in_place_elements_kernel", lc, 0, s);
}

template <int E, int W>
Status launch_small_squares(const TransposeDesc& d, const plan::InPlaceConfig& c, void* data, rt::Stream s) {
  const LaunchConfig lc = launch_config(c);
  const int smem = static_cast<int>(c.shared_bytes());
  if (smem > rt::kSharedWithoutOptIn)
    return Status(StatusCode::internal, "in_place: small squares past the shared memory without opt-in");
  in_place_small_squares_kernel<E, W><<<grid_of(lc), block_of(lc), smem, s>>>(
      static_cast<unsigned char*>(data), c.tile, d.ld_in, d.batch_stride_in, c.group_count, c.group_stride, d.batch,
      c.matrices_per_block, c.row_pitch);
  return check_launch("in_place_small_squares_kernel", lc, smem, s);
}

// small_squares at the plan's access width.
template <int E>
Status launch_small_squares_for(const TransposeDesc& d, const plan::InPlaceConfig& c, void* data, rt::Stream s) {
  switch (c.vector_bytes) {
    case 16: return launch_small_squares<E, 16>(d, c, data, s);
    case 8:
      if constexpr (E <= 8) return launch_small_squares<E, 8>(d, c, data, s);
      break;
    case 4:
      if constexpr (E <= 4) return launch_small_squares<E, 4>(d, c, data, s);
      break;
    case 2:
      if constexpr (E <= 2) return launch_small_squares<E, 2>(d, c, data, s);
      break;
    case 1:
      if constexpr (E == 1) return launch_small_squares<E, 1>(d, c, data, s);
      break;
  }
  return Status(StatusCode::internal, "in_place: small squares in " + std::to_string(c.vector_bytes) +
                                          "-byte accesses of " + std::to_string(E) + "-byte elements");
}

template <int E>
Status launch_for_size(const TransposeDesc& d, const plan::InPlaceConfig& c, void* data, rt::Stream s) {
  switch (c.kernel) {
    case plan::InPlaceKernel::vectors:
      if (c.vector_bytes == 16) return launch_pairs<E, 16>(d, c, data, s);
      if constexpr (E <= 8)
        if (c.vector_bytes == 8) return launch_pairs<E, 8>(d, c, data, s);
      break;
    case plan::InPlaceKernel::realigned:
      if constexpr (E <= 4) return launch_realigned<E>(d, c, data, s);
      break;
    case plan::InPlaceKernel::elements: {
      constexpr int kEdge = plan::in_place_tile_edge(E, plan::InPlaceKernel::elements);
      if constexpr (E > 4)
        if (c.tile == kEdge) return launch_elements<E, kEdge>(d, c, data, s);
      break;
    }
    case plan::InPlaceKernel::small_squares: return launch_small_squares_for<E>(d, c, data, s);
  }
  return Status(StatusCode::internal, "in_place: no kernel for " + std::to_string(c.vector_bytes) +
                                          "-byte accesses of " + std::to_string(E) + "-byte elements in tiles of " +
                                          std::to_string(c.tile));
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
