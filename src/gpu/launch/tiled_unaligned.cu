// Launcher for tiled_unaligned: one tile shape per element size, one block per tile.
#include "gpu/kernels/tiled_unaligned.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {
namespace {

// Bytes per input row and per output row of a tile, per element size: 16 KiB of data per tile for 4-
// to 16-byte elements (64 x 64 elements for 4 bytes, 32 x 32 for 16), 8 KiB for 1- and 2-byte ones,
// whose store phase gathers element by element and so runs best with more, smaller blocks (H200,
// 8191x8193, rows x columns: u8 128 x 64 0.65 of memcpy against 0.61 at 128 x 128, bf16 64 x 64
// 0.69 against 0.66 at 64 x 128; f32 fastest at 64 x 64 of the four shapes tried).
template <int E> struct UnalignedShape;
template <> struct UnalignedShape<1> { static constexpr int kIn = 64, kOut = 128; };
template <> struct UnalignedShape<2> { static constexpr int kIn = 128, kOut = 128; };
template <> struct UnalignedShape<4> { static constexpr int kIn = 256, kOut = 256; };
template <> struct UnalignedShape<8> { static constexpr int kIn = 512, kOut = 256; };
template <> struct UnalignedShape<16> { static constexpr int kIn = 512, kOut = 512; };

template <int E>
using ShapeTile = UnalignedTile<E, UnalignedShape<E>::kIn, UnalignedShape<E>::kOut>;

// Tile order: down the matrix first unless XPOSE_TILED_UNALIGNED_ACROSS_FIRST=1 (for measuring).
bool unaligned_tiles_down_first() {
  static const bool down_first = !env_starts_with("XPOSE_TILED_UNALIGNED_ACROSS_FIRST", '1');
  return down_first;
}

template <int E>
Status configure_for_size(const TransposeDesc& d, LaunchConfig& c) {
  using Tile = ShapeTile<E>;
  c = LaunchConfig{};
  c.tile_rows = Tile::kRows;
  c.tile_cols = Tile::kCols;
  c.pad = 1;  // one word per shared row
  c.vector_bytes = 16;
  c.block_x = kUnalignedThreads;
  c.block_y = 1;
  c.grid_x = d.batch * ceil_div(d.rows, Tile::kRows) * ceil_div(d.cols, Tile::kCols);
  c.grid_y = c.grid_z = 1;
  return Status::ok_status();
}

template <int E>
Status launch_for_size(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  using Tile = ShapeTile<E>;
  const auto* in_bytes = static_cast<const unsigned char*>(in);
  const std::int64_t span = input_span_elements(d) * E;
  const std::int64_t tiles_y = ceil_div(d.rows, Tile::kRows);
  const TileGrid grid = make_tile_grid(tiles_y, ceil_div(d.cols, Tile::kCols), unaligned_tiles_down_first());
  tiled_unaligned_kernel<E, UnalignedShape<E>::kIn, UnalignedShape<E>::kOut><<<grid_of(c), block_of(c), 0, stream>>>(
      in_bytes, in_bytes + span, static_cast<unsigned char*>(out), make_geometry(d, tiles_y), grid);
  return check_launch("tiled_unaligned_kernel", c, sizeof(std::uint32_t) * Tile::kLoadRows * Tile::kPitchWords, stream);
}

}  // namespace

Status configure_tiled_unaligned(const TransposeDesc& d, LaunchConfig& c) {
  return dispatch_element_size(dtype_size(d.dtype),
                               [&](auto tag) { return configure_for_size<sizeof(decltype(tag))>(d, c); });
}

Status launch_tiled_unaligned(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out,
                              rt::Stream stream) {
  // Elements are read and written whole: a 16-byte element needs 16-byte aligned pointers here.
  const std::size_t e = dtype_size(d.dtype);
  if (reinterpret_cast<std::uintptr_t>(in) % e != 0 || reinterpret_cast<std::uintptr_t>(out) % e != 0)
    return Status(StatusCode::invalid_argument, "tiled_unaligned needs pointers aligned to the element size (" +
                                                    std::to_string(e) + " bytes)");
  return dispatch_element_size(e, [&](auto tag) { return launch_for_size<sizeof(decltype(tag))>(d, c, in, out, stream); });
}

}  // namespace xpose::gpu
