// Launcher for the gather kernel: one tile shape per element size (word units for 2-byte elements
// where the input strides allow them), one block per tile.
#include "gpu/kernels/gather.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"
#include "plan/gpu_planner.hpp"

namespace xpose::gpu {
namespace {

// Tile shapes: of 40 (threads down the rows, groups per block, row blocks per thread; twice that for
// 1- and 2-byte elements, with element or word units) timed on an H200 at 256^2, 512^2, 1024^2 and
// (2- to 8-byte elements) 2048^2, the one whose worst size was nearest the best shape of that size
// (bench/results/h200_2026-11-24j_gather_shapes.txt; for 8-byte elements over the sizes gather
// serves): within 0.7-3.5% of it, where the library's tiled_vec tiles were 0.3-11% slower than that
// best.
//   1 byte:  elements, 2 threads down the rows (32-byte output runs), 2 x 2 groups (64 x 32 tile);
//            word units were slower at 256^2 (1.09 against 1.07 of memcpy's time);
//   2 bytes: words, 4 down (64-byte runs), 2 x 4 groups (64 x 64); elements where the input strides
//            are not on the 4-byte grid (64 x 32). Matrices of at most kGatherTinyBytes: words, 2
//            down, 2 x 2 groups (32 x 64), the best shape at 256^2 (1.041 of memcpy's time against
//            1.070, no better at 512^2: 1.080 / 1.073);
//   4 bytes: 4 down, 2 x 4 groups (32 x 32);
//   8 bytes: 2 down, 2 x 4 groups, two row blocks a thread (16 x 64): nearest the best at 256^2 to
//            1024^2 (1.037 / 1.028 / 0.967 of memcpy's time; the worst at 2048^2, past gather's limit);
//   16 bytes: 4 down, 2 x 4 groups, two row blocks a thread (16 x 32); four past 8 MiB (32 x 32).
template <int E, bool kWords> struct GatherShape;
template <> struct GatherShape<1, false> { using Tile = GatherTile<1, false, 2, 2, 2, 1>; };
template <> struct GatherShape<2, true> { using Tile = GatherTile<2, true, 4, 2, 4, 1>; };
using TinyWordTile = GatherTile<2, true, 2, 2, 2, 1>;
constexpr std::int64_t kGatherTinyBytes = 256 * 1024;
template <> struct GatherShape<2, false> { using Tile = GatherTile<2, false, 4, 2, 4, 1>; };
template <> struct GatherShape<4, false> { using Tile = GatherTile<4, false, 4, 2, 4, 1>; };
template <> struct GatherShape<8, false> { using Tile = GatherTile<8, false, 2, 2, 4, 2>; };
template <> struct GatherShape<16, false> { using Tile = GatherTile<16, false, 4, 2, 4, 2>; };
// 16-byte elements past kGatherWideTallBytes (for the automatic plan, the matrices of up to
// kGatherWideElementMaxBytes with both sides of 512 or more): four row blocks a thread (32 x 32).
// Measured on an H200 (of memcpy, 16 x 32 / 32 x 32, three rounds alike;
// bench/results/h200_2026-11-25zf_gather_c128_tiles.txt): c128 1024^2 0.989 / 1.021 (geam 0.996),
// 768x1024 0.990 / 1.043, 1024x512 (8 MiB) 1.027 / 1.027, 640^2 (6.25 MiB) 1.026 / 1.016.
using WideElementTallTile = GatherTile<16, false, 4, 2, 4, 4>;
constexpr std::int64_t kGatherWideTallBytes = std::int64_t{8} << 20;

// Calls f(Tile{}) with the tile shape of `d` (the one rule configure and launch share).
template <typename F>
Status with_tile(const TransposeDesc& d, F&& f) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t bytes = plan::matrix_bytes(d);
  switch (e) {
    case 1: return f(GatherShape<1, false>::Tile{});
    case 2:
      if (!plan::gather_reads_words(d)) return f(GatherShape<2, false>::Tile{});
      if (bytes <= kGatherTinyBytes) return f(TinyWordTile{});
      return f(GatherShape<2, true>::Tile{});
    case 4: return f(GatherShape<4, false>::Tile{});
    case 8: return f(GatherShape<8, false>::Tile{});
    case 16:
      if (bytes > kGatherWideTallBytes) return f(WideElementTallTile{});
      return f(GatherShape<16, false>::Tile{});
    default: return Status(StatusCode::unsupported, "gather: no kernel for " + std::to_string(e) + "-byte elements");
  }
}

template <typename Tile>
std::int64_t tile_count(const TransposeDesc& d) {
  return d.batch * ceil_div(d.rows, Tile::kRows) * ceil_div(d.cols, Tile::kTileCols);
}

// Whether the tiles cover the matrix exactly (none cut by its edges), and the kernel may skip the
// check (the launch also asks for a grid of exactly the tiles: a block past them would write outside).
// XPOSE_GATHER_WHOLE_TILES=0 turns that off, to measure against it.
template <typename Tile>
bool tiles_whole(const TransposeDesc& d) {
  static const bool enabled = !core::env_starts_with("XPOSE_GATHER_WHOLE_TILES", '0');
  return enabled && d.rows % Tile::kRows == 0 && d.cols % Tile::kTileCols == 0;
}

template <typename Tile>
Status configure_tile(const TransposeDesc& d, LaunchConfig& c) {
  if (tile_count<Tile>(d) >= (std::int64_t{1} << 31))
    return Status(StatusCode::unsupported, "gather: more tiles than one grid holds");
  c = linear_config(Tile::kRows, Tile::kTileCols, 16, Tile::kThreads, tile_count<Tile>(d));
  return Status::ok_status();
}

template <typename Tile, typename Index>
GatherArgs<Index> gather_args(const TransposeDesc& d) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  GatherArgs<Index> a;
  a.tiles_y = make_fast_div(ceil_div(d.rows, Tile::kRows));
  a.tiles_c = make_fast_div(ceil_div(d.cols, Tile::kTileCols));
  a.rows = static_cast<Index>(d.rows);
  a.cols = static_cast<Index>(d.cols);
  a.ld_in_bytes = static_cast<Index>(d.ld_in * e);
  a.ld_out_bytes = static_cast<Index>(d.ld_out * e);
  a.bs_in_bytes = d.batch > 1 ? static_cast<Index>(d.batch_stride_in * e) : 0;
  a.bs_out_bytes = d.batch > 1 ? static_cast<Index>(d.batch_stride_out * e) : 0;
  return a;
}

template <typename Tile>
Status launch_tile(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  if (c.tile_rows != Tile::kRows || c.tile_cols != Tile::kTileCols || c.block_x != Tile::kThreads)
    return Status(StatusCode::internal, "gather: the plan's tile does not match the kernel's");
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype)), limit = std::int64_t{1} << 31;
  const bool small = input_span_elements(d) * e < limit && output_span_elements(d) * e < limit;
  if (small && d.batch == 1 && tiles_whole<Tile>(d) && c.grid_x == tile_count<Tile>(d))
    gather_kernel<Tile, int, false, true><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, gather_args<Tile, int>(d));
  else if (small && d.batch == 1)
    gather_kernel<Tile, int, false><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, gather_args<Tile, int>(d));
  else if (small)
    gather_kernel<Tile, int, true><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, gather_args<Tile, int>(d));
  else
    gather_kernel<Tile, std::int64_t, true>
        <<<grid_of(c), block_of(c), 0, stream>>>(src, dst, gather_args<Tile, std::int64_t>(d));
  return check_launch("gather_kernel", c, 0, stream);
}

}  // namespace

Status configure_gather(const TransposeDesc& d, int alignment, LaunchConfig& c) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (alignment < 16 || d.ld_out * e % 16 != 0 || (d.batch > 1 && d.batch_stride_out * e % 16 != 0))
    return Status(StatusCode::unsupported,
                  "gather writes 16-byte vectors: it needs 16-byte aligned pointers and output row and batch strides "
                  "that are multiples of 16 bytes");
  return with_tile(d, [&](auto tile) { return configure_tile<decltype(tile)>(d, c); });
}

Status launch_gather(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  if (reinterpret_cast<std::uintptr_t>(in) % 16 != 0 || reinterpret_cast<std::uintptr_t>(out) % 16 != 0)
    return Status(StatusCode::invalid_argument, "gather needs 16-byte aligned pointers");
  return with_tile(d, [&](auto tile) { return launch_tile<decltype(tile)>(d, c, in, out, stream); });
}

}  // namespace xpose::gpu
