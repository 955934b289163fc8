// Launcher for the general permutation kernels: tiles of 2-D slices, or runs gathered into the
// packed output.
#include <limits>
#include <string>
#include <type_traits>

#include "gpu/gpu_backend.hpp"
#include "gpu/kernels/permute.cuh"
#include "gpu/kernels/permute_element_tiles.cuh"
#include "gpu/launch/launch_common.hpp"

namespace xpose::gpu {

namespace {
// Blocks beyond this loop over the rest: enough for every SM many times over.
constexpr std::int64_t kMaxPermuteBlocks = std::int64_t{1} << 20;
// Tile kernels' blocks: each takes a run of consecutive tiles (a few waves of an H200's 132 SMs).
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

// A unit of `kBytes` bytes: the element itself where it is one, else an unsigned type of that size.
template <typename T, int kBytes>
using PermuteUnit = std::conditional_t<
    sizeof(T) == kBytes, T,
    std::conditional_t<kBytes == 2, std::uint16_t,
                       std::conditional_t<kBytes == 4, std::uint32_t, std::conditional_t<kBytes == 8, uint2, uint4>>>>;

// Calls f(PermuteUnit<T, bytes>{}) for bytes in {sizeof(T), ..., 16}.
template <typename T, typename F>
Status with_unit(int bytes, F&& f) {
  switch (bytes) {
    case 1: if constexpr (sizeof(T) <= 1) return f(PermuteUnit<T, 1>{}); break;
    case 2: if constexpr (sizeof(T) <= 2) return f(PermuteUnit<T, 2>{}); break;
    case 4: if constexpr (sizeof(T) <= 4) return f(PermuteUnit<T, 4>{}); break;
    case 8: if constexpr (sizeof(T) <= 8) return f(PermuteUnit<T, 8>{}); break;
    case 16: return f(PermuteUnit<T, 16>{});
    default: break;
  }
  return Status(StatusCode::internal, "no permutation unit of " + std::to_string(bytes) + " bytes for " +
                                          std::to_string(sizeof(T)) + "-byte elements");
}

// Square tiles of single elements (kT x kT), for large slices of 4- to 16-byte elements.
template <typename T, int kT>
Status launch_element_tiles(const T* src, T* dst, const core::PermuteGeometry& g, const core::PermuteTiling& t,
                            rt::Stream s) {
  LaunchConfig c{};
  c.tile_rows = c.tile_cols = kT;
  c.block_x = kPermuteWarp;
  c.block_y = kPermuteBlockRows;
  c.grid_x = std::min(t.tiles, kMaxTileBlocks);
  c.grid_y = c.grid_z = 1;
  permute_tiled_kernel<T, kT><<<grid_of(c), block_of(c), 0, s>>>(src, dst, g, t.tiles_a, t.tiles_b);
  return check_launch("permute_tiled_kernel", c, 0, s);
}

template <typename T>
Status launch_tiles(const T* src, T* dst, const core::PermuteGeometry& g, const core::PermuteTiling& t,
                    rt::Stream s) {
  if constexpr (sizeof(T) >= 4 && sizeof(T) <= 8) {
    if (t.element_tile == 64) return launch_element_tiles<T, 64>(src, dst, g, t, s);
  } else if constexpr (sizeof(T) == 16) {
    if (t.element_tile == 32) return launch_element_tiles<T, 32>(src, dst, g, t, s);
  }
  if (t.element_tile != 0)
    return Status(StatusCode::internal, "no element tiles of " + std::to_string(t.element_tile) + " for " +
                                            std::to_string(sizeof(T)) + "-byte elements");
  PermuteTileArgs p{};
  p.t = t;
  if (!t.wide_index) {
    p.tiles_a = make_fast_div(t.tiles_a);
    p.tiles_b = make_fast_div(t.tiles_b);
    for (int i = 0; i < g.slice_dims; ++i) p.slice_extent[i] = make_fast_div(g.slice_extent[i]);
  }
  p.tile_in_units = make_fast_div(t.tile_a * t.tile_b * g.esize / t.in_unit);
  p.tile_out_units = make_fast_div(t.tile_a * t.tile_b * g.esize / t.out_unit);
  p.tile_a = make_fast_div(t.tile_a);
  p.tile_b = make_fast_div(t.tile_b);
  p.word_gathers = g.esize == 1 && t.out_unit >= 4 && !t.out_span && t.pitch % 4 == 0;
  if (p.word_gathers) {  // outside spans, tile_b holds whole units
    const std::int64_t quads = (t.tile_a + 3) / 4;
    p.tile_quads = make_fast_div(quads);
    p.tile_quad_items = make_fast_div(quads * (t.tile_b / t.out_unit));
  }
  while ((1 << p.lanes_b_log2) < t.lanes_b) ++p.lanes_b_log2;
  p.whole_unit_stores = core::permute_tile_store_bytes(t) == t.in_unit;
  LaunchConfig c = linear_config(static_cast<int>(t.tile_b), static_cast<int>(t.tile_a), t.in_unit,
                                 core::kPermuteTileThreads,
                                 std::min(ceil_div(t.tiles, t.group), kMaxTileBlocks));
  const auto smem = static_cast<std::size_t>(t.shared_bytes());
  return with_unit<T>(t.in_unit, [&](auto in_tag) {
    return with_unit<T>(t.out_unit, [&](auto out_tag) {
      permute_tile_kernel<T, decltype(in_tag), decltype(out_tag)><<<grid_of(c), block_of(c), smem, s>>>(src, dst, g, p);
      return check_launch("permute_tile_kernel", c, smem, s);
    });
  });
}

}  // namespace

Status launch_permute(const core::PermuteGeometry& g, const core::PermuteTiling& tiling, const void* in, void* out,
                      StreamHandle stream) {
  const auto s = static_cast<rt::Stream>(stream);
  // 16-byte elements on 16-byte pointers move as one vector each, else as two 8-byte words.
  if (g.esize == 16 && !g.same_inner && tiling.element_tile == 0 && tiling.alignment >= 16)
    return launch_tiles(static_cast<const uint4*>(in), static_cast<uint4*>(out), g, tiling, s);
  return dispatch_element_size(static_cast<std::size_t>(g.esize), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* src = static_cast<const T*>(in);
    T* dst = static_cast<T*>(out);
    return g.same_inner ? launch_runs(src, dst, g, s) : launch_tiles(src, dst, g, tiling, s);
  });
}

}  // namespace xpose::gpu
