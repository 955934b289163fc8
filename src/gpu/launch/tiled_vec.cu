// Launcher for the tiled_vec family: the planner chose the tile (src/plan/gpu_planner.cpp); this instantiates it.
#include "gpu/kernels/tiled_vec.cuh"
#include "gpu/kernels/tiled_vec_shifted_output.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {
namespace {

// Tiles run down the matrix first (consecutive blocks take consecutive tile rows, so the output is
// written in long runs and only the input side is strided): H200, 8192^2 and 16384^2, against
// across first: f64 0.95 -> 0.98 and 0.88 -> 0.95 of memcpy, c128 0.90 -> 0.93 and 0.92 -> 0.96,
// f32 16384^2 0.94 -> 0.96, bf16 0.91 -> 0.93, u8 0.85 -> 0.88. XPOSE_TILED_VEC_ACROSS_FIRST=1 gives
// the old order back, to measure the two on another GPU.
bool tiles_down_first() {
  static const bool down_first = !core::env_starts_with("XPOSE_TILED_VEC_ACROSS_FIRST", '1');
  return down_first;
}

template <int E, int V, int kRowBytes, int kTileBytes>
Status launch_one(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  using Tile = VecTile<E, V, kRowBytes, kTileBytes, tiled_vec_threads(E, kTileBytes), true>;
  if (c.block_x != Tile::kThreads || c.block_y != 1)
    return Status(StatusCode::internal, "tiled_vec: the plan's block does not match the kernel's thread count");
  const std::int64_t tiles_y = ceil_div(d.rows + c.lead_rows, Tile::kRows);
  const std::int64_t tiles_c = ceil_div(d.cols + c.lead_cols, Tile::kCols);
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  const bool led = c.lead_rows > 0 || c.lead_cols > 0;
  if (led && (c.lead_rows >= Tile::kRows || c.lead_cols >= Tile::kCols))
    return Status(StatusCode::internal, "tiled_vec: the plan's lead does not fit its tile");
  const TileLead lead{c.lead_rows, c.lead_cols};
  if (c.shifted_output) {
    if constexpr (tiled_vec_shifted_output_built(E, V, kTileBytes, Tile::kRows)) {
      if (d.rows != Tile::kRows || d.ld_out != d.rows || led || c.bands > 1)
        return Status(StatusCode::internal, "tiled_vec: a shifted-output plan needs packed output rows one tile tall");
      tiled_vec_shifted_output_kernel<Tile><<<grid_of(c), block_of(c), 0, stream>>>(
          src, dst, make_geometry(d, tiles_y), make_tile_grid(tiles_y, tiles_c, tiles_down_first()));
      return check_launch("tiled_vec_shifted_output_kernel", c, kTileBytes, stream);
    }
    return Status(StatusCode::internal, "tiled_vec: no shifted-output kernel for this tile");
  }
  // Bands are a down-first order; the across-first measuring switch walks without them.
  if (c.bands > 1 && tiles_down_first()) {
    if constexpr (tiled_vec_bands_built(kTileBytes, kRowBytes, V)) {
      // A tile column added by a lead is walked apart (LedBandedTileGrid); the bands share the others.
      const bool extra_col = lead_adds_tile_column(d.cols, c.lead_cols, Tile::kCols);
      const std::int64_t banded_c = tiles_c - (extra_col ? 1 : 0);
      if (c.bands > kVecMaxBands || banded_c < c.bands || banded_c % c.bands != 0)
        return Status(StatusCode::internal, "tiled_vec: the plan's bands do not divide the tile columns");
      if (led)
        tiled_vec_kernel<Tile, LedBandedTileGrid, true><<<grid_of(c), block_of(c), 0, stream>>>(
            src, dst, make_geometry(d, tiles_y),
            make_led_banded_tile_grid(tiles_y, tiles_c, c.bands, d.batch, extra_col), lead);
      else
        tiled_vec_kernel<Tile, BandedTileGrid><<<grid_of(c), block_of(c), 0, stream>>>(
            src, dst, make_geometry(d, tiles_y), make_banded_tile_grid(tiles_y, tiles_c, c.bands));
      return check_launch("tiled_vec_kernel", c, kTileBytes, stream);
    }
    return Status(StatusCode::internal, "tiled_vec: no banded kernel for this tile");
  }
  const TileGrid grid = make_tile_grid(tiles_y, tiles_c, tiles_down_first());
  if (led)
    tiled_vec_kernel<Tile, TileGrid, true><<<grid_of(c), block_of(c), 0, stream>>>(
        src, dst, make_geometry(d, tiles_y), grid, lead);
  else
    tiled_vec_kernel<Tile><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, make_geometry(d, tiles_y), grid);
  return check_launch("tiled_vec_kernel", c, kTileBytes, stream);
}

template <int E, int V, int kTileBytes>
Status launch_for_tile(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  constexpr int kMax = tiled_vec_max_row_bytes(E, kTileBytes);
  switch (c.tile_cols * E) {
    case 32:
      if constexpr (tiled_vec_min_row_bytes(E, kTileBytes) <= 32)
        return launch_one<E, V, 32, kTileBytes>(d, c, in, out, stream);
      break;
    case 64: return launch_one<E, V, 64, kTileBytes>(d, c, in, out, stream);
    case 128:
      if constexpr (kMax >= 128) return launch_one<E, V, 128, kTileBytes>(d, c, in, out, stream);
      break;
    case 256:
      if constexpr (kMax >= 256) return launch_one<E, V, 256, kTileBytes>(d, c, in, out, stream);
      break;
    case 512:
      if constexpr (kMax >= 512) return launch_one<E, V, 512, kTileBytes>(d, c, in, out, stream);
      break;
    default: break;
  }
  return Status(StatusCode::internal, "tiled_vec: no kernel for this tile width");
}

template <int E, int V>
Status launch_for_size(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  switch (c.tile_rows * c.tile_cols * E) {
    case kVecTileBytesMicro:
      if constexpr (tiled_vec_tile_built(E, kVecTileBytesMicro, V))
        return launch_for_tile<E, V, kVecTileBytesMicro>(d, c, in, out, stream);
      break;
    case kVecTileBytesTiny:
      if constexpr (tiled_vec_tile_built(E, kVecTileBytesTiny, V))
        return launch_for_tile<E, V, kVecTileBytesTiny>(d, c, in, out, stream);
      break;
    case kVecTileBytesSmall: return launch_for_tile<E, V, kVecTileBytesSmall>(d, c, in, out, stream);
    case kVecTileBytes: return launch_for_tile<E, V, kVecTileBytes>(d, c, in, out, stream);
    case kVecTileBytesLarge:
      if constexpr (tiled_vec_tile_built(E, kVecTileBytesLarge, V))
        return launch_for_tile<E, V, kVecTileBytesLarge>(d, c, in, out, stream);
      break;
    default: break;
  }
  return Status(StatusCode::internal, "tiled_vec: no kernel for this tile size");
}

// Vector widths from 16 bytes down to 8 (never narrower than the element).
template <int E>
Status launch_for_vector(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out,
                         rt::Stream stream) {
  switch (c.vector_bytes) {
    case 16: return launch_for_size<E, 16>(d, c, in, out, stream);
    case 8:
      if constexpr (E <= 8) return launch_for_size<E, 8>(d, c, in, out, stream);
      break;
    default: break;
  }
  return Status(StatusCode::internal, "tiled_vec: no kernel for this vector width");
}

}  // namespace

Status launch_tiled_vec(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  // The tile grid's origin (the pointers themselves, or as far before them as the plan's lead) must
  // lie on the access grid.
  const auto v = static_cast<std::uintptr_t>(c.vector_bytes);
  const auto e = static_cast<std::uintptr_t>(dtype_size(d.dtype));
  const std::uintptr_t in_origin =
      reinterpret_cast<std::uintptr_t>(in) - static_cast<std::uintptr_t>(c.lead_cols) * e;
  const std::uintptr_t out_origin =
      reinterpret_cast<std::uintptr_t>(out) - static_cast<std::uintptr_t>(c.lead_rows) * e;
  // A shifted-output plan writes its output in aligned chunks cut to the pointer: an element off the
  // 16-byte grid (its funnel shifts take a shift of 1 to 15 bytes).
  if (c.shifted_output && (out_origin % e != 0 || out_origin % 16 == 0))
    return Status(StatusCode::invalid_argument,
                  "tiled_vec shifted-output plan needs an element-aligned output pointer off the 16-byte grid "
                  "(plan with PlanOptions::out_offset set to the pointer's offset)");
  if (v == 0 || in_origin % v != 0 || (!c.shifted_output && out_origin % v != 0))
    return Status(StatusCode::invalid_argument,
                  "tiled_vec plan needs " + std::to_string(c.vector_bytes) +
                      "-byte aligned input and output pointers (plan with PlanOptions::alignment set to the "
                      "pointers' alignment to get a kernel that fits)");
  switch (dtype_size(d.dtype)) {
    case 1: return launch_for_vector<1>(d, c, in, out, stream);
    case 2: return launch_for_vector<2>(d, c, in, out, stream);
    case 4: return launch_for_vector<4>(d, c, in, out, stream);
    case 8: return launch_for_vector<8>(d, c, in, out, stream);
    case 16: return launch_for_vector<16>(d, c, in, out, stream);
    default: return Status(StatusCode::unsupported, "tiled_vec: unsupported element size");
  }
}

}  // namespace xpose::gpu
