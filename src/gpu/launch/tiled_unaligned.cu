// Launcher for tiled_unaligned: one tile shape per element size, one block per tile.
#include "gpu/kernels/tiled_unaligned.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {
namespace {

// Bytes per input row and per output row of a tile, per element size: 16 KiB of data per tile for 4-
// to 16-byte elements (64 x 64 elements for 4 bytes, 32 x 32 for 16; f32 fastest at 64 x 64 of the
// four shapes tried on an H200, 8191x8193). 1- and 2-byte tiles take 208 bytes of output row (208
// rows of u8, 104 of bf16): the 31-byte halo adds 15%, and the store phase's 16 windows keep its
// eight warps equally busy. Where those would make few blocks, 128 bytes of input row and 80 of
// output row (kSmall), fastest of five (input, output) byte shapes tried on u8 1024^2 and 2048^2
// with odd strides: (64, 48), (128, 48), (64, 80), (128, 80), (64, 112).
template <int E, bool kSmall = false> struct UnalignedShape;
template <> struct UnalignedShape<1> { static constexpr int kIn = 64, kOut = 208; };
template <> struct UnalignedShape<2> { static constexpr int kIn = 128, kOut = 208; };
template <> struct UnalignedShape<4> { static constexpr int kIn = 256, kOut = 256; };
template <> struct UnalignedShape<8> { static constexpr int kIn = 512, kOut = 256; };
template <> struct UnalignedShape<16> { static constexpr int kIn = 512, kOut = 512; };
template <int E> struct UnalignedShape<E, true> {
  static constexpr int kIn = E < 4 ? 128 : UnalignedShape<E>::kIn, kOut = E < 4 ? 80 : UnalignedShape<E>::kOut;
};
// Below this many large tiles a transpose takes the small ones: under two waves of four blocks on a
// 132-SM GPU (u8 1024x1024 ld 1025 on an H200: 80 blocks of 208 x 64 took 6.5 us, 104 of 80 x 128
// 5.5 us; 2048x2048: 10.2 against 8.3 us).
constexpr std::int64_t kFewTiles = 1024;

template <int E, bool kSmall>
using ShapeTile = UnalignedTile<E, UnalignedShape<E, kSmall>::kIn, UnalignedShape<E, kSmall>::kOut>;

template <int E, bool kSmall>
std::int64_t tile_count(const TransposeDesc& d) {
  using Tile = ShapeTile<E, kSmall>;
  return d.batch * ceil_div(d.rows, Tile::kRows) * ceil_div(d.cols, Tile::kCols);
}

// Tile order: down the matrix first unless XPOSE_TILED_UNALIGNED_ACROSS_FIRST=1 (for measuring).
bool unaligned_tiles_down_first() {
  static const bool down_first = !env_starts_with("XPOSE_TILED_UNALIGNED_ACROSS_FIRST", '1');
  return down_first;
}

template <int E, bool kSmall>
Status configure_shape(const TransposeDesc& d, LaunchConfig& c) {
  using Tile = ShapeTile<E, kSmall>;
  c = linear_config(Tile::kRows, Tile::kCols, 16, kUnalignedThreads, tile_count<E, kSmall>(d));
  c.pad = Tile::pad_words();
  return Status::ok_status();
}

template <int E>
Status configure_for_size(const TransposeDesc& d, LaunchConfig& c) {
  if (E < 4 && tile_count<E, false>(d) < kFewTiles) return configure_shape<E, true>(d, c);
  return configure_shape<E, false>(d, c);
}

template <int E, bool kSmall>
Status launch_shape(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  using Tile = ShapeTile<E, kSmall>;
  const auto* in_bytes = static_cast<const unsigned char*>(in);
  const std::int64_t span = input_span_elements(d) * E;
  const std::int64_t tiles_y = ceil_div(d.rows, Tile::kRows);
  const TileGrid grid = make_tile_grid(tiles_y, ceil_div(d.cols, Tile::kCols), unaligned_tiles_down_first());
  tiled_unaligned_kernel<E, Tile::kCols * E, Tile::kRows * E><<<grid_of(c), block_of(c), 0, stream>>>(
      in_bytes, in_bytes + span, static_cast<unsigned char*>(out), make_geometry(d, tiles_y), grid,
      sector_windows(E, d.ld_out * E));
  return check_launch("tiled_unaligned_kernel", c, sizeof(std::uint32_t) * Tile::shared_words(), stream);
}

// The tile shape configure chose, by its rows.
template <int E>
Status launch_for_size(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  if constexpr (E < 4) {
    if (c.tile_rows == ShapeTile<E, true>::kRows) return launch_shape<E, true>(d, c, in, out, stream);
  }
  return launch_shape<E, false>(d, c, in, out, stream);
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
