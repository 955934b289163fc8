// Launcher for tiled_sectors: one tile shape per element size (two for u8), 8- or 16-byte input loads
// as the input strides allow, one block per tile.
#include "gpu/gpu_backend.hpp"  // multiprocessor_count
#include "gpu/kernels/tiled_sectors.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"
#include "plan/gpu_planner.hpp"
#include "plan/sector_halo.hpp"

namespace xpose::gpu {
namespace {

// Tiles own 256 bytes of each output row and take 64 (u8) or 128 (bf16) bytes of each input row: of
// the three shapes per element size timed on an H200 (u8 ld 8200: 256 x 64 B 1.270 of memcpy's time,
// 128 x 128 B 1.356, 128 x 64 B 1.504; bf16 ld 8200: 128 x 128 B 1.120, 64 x 128 B 1.226, 128 x 64 B
// 1.430; bench/results/h200_2026-11-24m_tiled_sectors.txt) the fastest. Large u8 matrices, and those
// whose wide tiles fit in one wave, take rows of 128 bytes instead (plan::tiled_sectors_wide_rows).
template <int E, bool kWide> struct SectorShape;
template <> struct SectorShape<1, false> { static constexpr int kRowBytes = 64, kRows = 256; };
template <> struct SectorShape<1, true> { static constexpr int kRowBytes = 128, kRows = 256; };
template <> struct SectorShape<2, false> { static constexpr int kRowBytes = 128, kRows = 128; };
// The planner counts the wide tiles and the blocks an SM holds at once.
static_assert(SectorShape<1, true>::kRows == plan::kSectorsWideTileRows &&
                  SectorShape<1, true>::kRowBytes == plan::kSectorsWideTileCols,
              "plan::tiled_sectors_wide_rows counts the wide u8 tiles");
static_assert(kSectorBlocksPerSm == plan::kSectorsBlocksPerSm, "plan::tiled_sectors_wide_rows counts one wave");

template <int E, int Vin, bool kWide = false>
using ShapeTile = SectorTile<E, Vin, SectorShape<E, kWide>::kRowBytes, SectorShape<E, kWide>::kRows>;

template <int E, bool kWide>
Status configure_shape(const TransposeDesc& d, int load_bytes, LaunchConfig& c) {
  using Tile = ShapeTile<E, 16, kWide>;
  const std::int64_t tiles = d.batch * ceil_div(d.rows, Tile::kRows) * ceil_div(d.cols, Tile::kCols);
  if (tiles >= (std::int64_t{1} << 31))
    return Status(StatusCode::unsupported, "tiled_sectors: more tiles than one grid holds");
  c = linear_config(Tile::kRows, Tile::kCols, load_bytes, kSectorThreads, tiles);
  c.swizzled = true;
  return Status::ok_status();
}

// Tile order: down the matrix first, as tiled_vec's. Each tile loads only the halo rows that the
// output rows' sectors reach (sector_halo_bytes): 8 of bf16 rows on the 16-byte grid, not 15. It
// gains little, most likely because the tile below loads the same rows and the halo comes from the
// L2 (not profiled): on an H200, bf16 8192^2 ld 8200 73.77 -> 73.53 us, u8 41.58 -> 41.39, 0-0.2% on
// other strides (bench/results/h200_2026-12-01d_sector_halo_ab.txt).
template <int E, int Vin, bool kWide>
Status launch_tile(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  using Tile = ShapeTile<E, Vin, kWide>;
  const std::int64_t tiles_y = ceil_div(d.rows, Tile::kRows);
  const int halo_bytes = sector_halo_bytes(reinterpret_cast<std::uintptr_t>(out), d.ld_out * E, d.cols, d.batch,
                                           d.batch_stride_out * E);
  const int load_rows = Tile::kRows + (halo_bytes + E - 1) / E;
  if (load_rows > Tile::kLoadRows)
    return Status(StatusCode::internal, "tiled_sectors: the output's sectors reach past the tile's halo");
  tiled_sectors_kernel<Tile><<<grid_of(c), block_of(c), 0, stream>>>(
      static_cast<const unsigned char*>(in), static_cast<unsigned char*>(out), make_geometry(d, tiles_y),
      make_tile_grid(tiles_y, ceil_div(d.cols, Tile::kCols), true), load_rows);
  return check_launch("tiled_sectors_kernel", c, sizeof(std::uint32_t) * Tile::kSmemRows * Tile::kWords, stream);
}

template <int E, bool kWide>
Status launch_for_shape(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  if (c.vector_bytes == 16) return launch_tile<E, 16, kWide>(d, c, in, out, stream);
  return launch_tile<E, 8, kWide>(d, c, in, out, stream);
}

}  // namespace

Status configure_tiled_sectors(const TransposeDesc& d, int alignment, LaunchConfig& c) {
  const int load_bytes = plan::tiled_sectors_load_bytes(d, alignment);
  if (load_bytes == 0)
    return Status(StatusCode::unsupported,
                  "tiled_sectors needs 1- or 2-byte elements, pointers aligned to 8 bytes or more, input rows "
                  "and batches on the 8-byte grid, and output rows on the 8-byte grid");
  // load_bytes != 0: 1- or 2-byte elements.
  if (dtype_size(d.dtype) == 2) return configure_shape<2, false>(d, load_bytes, c);
  return plan::tiled_sectors_wide_rows(d, load_bytes, multiprocessor_count())
             ? configure_shape<1, true>(d, load_bytes, c)
             : configure_shape<1, false>(d, load_bytes, c);
}

Status launch_tiled_sectors(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out,
                            rt::Stream stream) {
  if (c.vector_bytes != 8 && c.vector_bytes != 16)
    return Status(StatusCode::internal, "tiled_sectors: the plan's load width is neither 8 nor 16 bytes");
  const auto in_addr = reinterpret_cast<std::uintptr_t>(in), out_addr = reinterpret_cast<std::uintptr_t>(out);
  if (in_addr % static_cast<std::uintptr_t>(c.vector_bytes) != 0 || out_addr % dtype_size(d.dtype) != 0)
    return Status(StatusCode::invalid_argument,
                  "tiled_sectors plan needs an input pointer aligned to " + std::to_string(c.vector_bytes) +
                      " bytes (plan with PlanOptions::alignment set to the pointers' alignment to get a kernel "
                      "that fits)");
  // The configured tile's columns tell its shape (configure_tiled_sectors).
  switch (dtype_size(d.dtype)) {
    case 1:
      if (c.tile_cols == ShapeTile<1, 16, true>::kCols) return launch_for_shape<1, true>(d, c, in, out, stream);
      return launch_for_shape<1, false>(d, c, in, out, stream);
    case 2: return launch_for_shape<2, false>(d, c, in, out, stream);
    default: return Status(StatusCode::unsupported, "tiled_sectors: 1- and 2-byte elements only");
  }
}

}  // namespace xpose::gpu
