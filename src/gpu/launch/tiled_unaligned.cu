// Launcher for tiled_unaligned: a tile shape per element size (five for 1- and 2-byte elements: three,
// and tiled_unaligned_grid_out's or tiled_unaligned_grid_in's where the rows allow), one block per
// tile.
#include "gpu/kernels/tiled_unaligned.cuh"
#include "gpu/kernels/tiled_unaligned_grid_in.cuh"
#include "gpu/kernels/tiled_unaligned_grid_out.cuh"
#include "gpu/gpu_backend.hpp"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"
#include "plan/gpu_planner.hpp"

namespace xpose::gpu {
namespace {

// Tile shapes: large tiles by default; for 1- and 2-byte elements also small ones where the large
// would make few blocks, and short ones where they hold a matrix's rows with less empty space.
enum UnalignedVariant : int { kLargeTiles, kSmallTiles, kShortTiles };

// Bytes per input row and per output row of a tile, per element size: 16 KiB of data per tile for 4-
// to 16-byte elements (64 x 64 elements for 4 bytes, 32 x 32 for 16; f32 fastest at 64 x 64 of the
// four shapes tried on an H200, 8191x8193). 1- and 2-byte tiles take 208 bytes of output row (208
// rows of u8, 104 of bf16): the 31-byte halo adds 15%, and the store phase's 16 windows keep its
// eight warps equally busy. Where those would make few blocks, 128 bytes of input row and 80 of
// output row (kSmallTiles), fastest of five (input, output) byte shapes tried on u8 1024^2 and 2048^2
// with odd strides: (64, 48), (128, 48), (64, 80), (128, 80), (64, 112); 1-byte elements take them too
// where they fill a matrix's rows far better (small_tiles_fill_better). kShortTiles: 160 rows of u8
// and 128 of bf16, for matrices whose rows fill them better than the large ones (short_tiles_fill_better).
template <int E, int kVariant = kLargeTiles> struct UnalignedShape;
template <> struct UnalignedShape<1> { static constexpr int kIn = 64, kOut = 208; };
template <> struct UnalignedShape<2> { static constexpr int kIn = 128, kOut = 208; };
template <> struct UnalignedShape<4> { static constexpr int kIn = 256, kOut = 256; };
template <> struct UnalignedShape<8> { static constexpr int kIn = 512, kOut = 256; };
template <> struct UnalignedShape<16> { static constexpr int kIn = 512, kOut = 512; };
template <int E> struct UnalignedShape<E, kSmallTiles> {
  static constexpr int kIn = E < 4 ? 128 : UnalignedShape<E>::kIn, kOut = E < 4 ? 80 : UnalignedShape<E>::kOut;
};
template <int E> struct UnalignedShape<E, kShortTiles> {
  static constexpr int kIn = UnalignedShape<E>::kIn, kOut = E == 1 ? 160 : E == 2 ? 256 : UnalignedShape<E>::kOut;
};
// Below this many large tiles a transpose takes the small ones: about one wave of four blocks on a
// 132-SM GPU for 1-byte elements, half a wave for 2-byte ones, whose small tiles hold 40 rows (u8
// 1024x1024 ld 1025 on an H200: 80 blocks of 208 x 64 took 6.5 us, 104 of 80 x 128 5.5 us; 2048x2048:
// 10.2 against 8.3 us). Measured on an H200 (of memcpy, large / small tiles, one round;
// bench/results/h200_2026-11-25zh_unaligned_tiles.txt): u8 2049x2048 (320 large tiles) 0.89 / 0.94,
// 2500x1999 (416) 0.91 / 0.96, 3001x2999 (705) 0.86 / 0.84; bf16 1025x1024 (160) 1.00 / 1.08,
// 1537x1536 (360) 1.02 / 0.95, 2049x2048 (640) 0.75 / 0.62. Against the previous bound of 1024 for
// both (part 3, two rounds): bf16 2039x2043 0.79 -> 1.03, 1801x1799 0.84 -> 1.00, 1537x1536 0.93 ->
// 1.05, 2049x2048 0.62 -> 0.76; u8 3001x2999 0.83 -> 0.87, 2902x2900 0.76 -> 0.78.
constexpr std::int64_t few_tiles(int element_bytes) { return element_bytes == 1 ? 512 : 256; }

template <int E, int kVariant>
using ShapeTile = UnalignedTile<E, UnalignedShape<E, kVariant>::kIn, UnalignedShape<E, kVariant>::kOut>;

template <typename Tile>
std::int64_t tiles_of(const TransposeDesc& d) {
  return d.batch * ceil_div(d.rows, Tile::kRows) * ceil_div(d.cols, Tile::kCols);
}

// The share of a column of tiles of `tile_rows` rows that a matrix's rows fill, in percent.
int row_fill_percent(std::int64_t rows, int tile_rows) {
  return static_cast<int>(100 * rows / plan::tiles_cover(rows, tile_rows));
}

// A tile costs about as much whatever share of it the matrix fills, so where the large tiles leave
// much of their last row of tiles empty, short ones that fill it better win although a full short
// tile runs less efficiently than a full large one. Measured on an H200 (batches of R x R of about 64
// MiB, of memcpy, large -> short; bench/results/h200_2026-11-25y_unaligned_short_tiles.txt): u8 230
// 0.46 -> 0.48, 255 0.51 -> 0.57, 300 0.60 -> 0.62, 320 0.64 -> 0.66; bf16 230 0.70 -> 0.78, 255
// 0.77 -> 0.79, 350 0.77 -> 0.80, 384 0.75 -> 0.78. Where the large tiles fill as well or less than
// 5 points worse they stay: u8 200 (1 large tile, 0.67 against 0.45 in 2 short ones), bf16 200, 300,
// 500 (0.85 against 0.82).
template <int E>
bool short_tiles_fill_better(const TransposeDesc& d) {
  return row_fill_percent(d.rows, ShapeTile<E, kShortTiles>::kRows) >=
         row_fill_percent(d.rows, ShapeTile<E, kLargeTiles>::kRows) + 5;
}

// 1-byte elements take the small tiles (80 rows) where those fill a matrix's rows 20 points better
// than both others. Measured on an H200 (of memcpy, short -> small tiles, rows filled 70-73% / 93-97%;
// bench/results/h200_2026-11-25zh_unaligned_tiles.txt, part 3, two rounds): u8 batches of 223x333 0.55
// -> 0.61, 230x230 0.48 -> 0.56, 229x2001 0.53 -> 0.60, 235x421 0.51 -> 0.55, and 233x36002 with ld_out
// 257 0.57 -> 0.63 (225x301 0.526 / 0.533 in part 2); where both fill alike the short ones stay (parts
// 1-2: 150x150 0.52 / 0.41, 255x255 0.56 / 0.53, 300x300 0.61 / 0.54). The 40-row small tiles of
// 2-byte elements lost at every fill (bf16 230x230 batches, 96% against 90%: 0.77 short, 0.56 small).
template <int E>
bool small_tiles_fill_better(const TransposeDesc& d) {
  const int best_other = std::max(row_fill_percent(d.rows, ShapeTile<E, kShortTiles>::kRows),
                                  row_fill_percent(d.rows, ShapeTile<E, kLargeTiles>::kRows));
  return E == 1 && row_fill_percent(d.rows, ShapeTile<E, kSmallTiles>::kRows) >= best_other + 20;
}

// Tile order: down the matrix first unless XPOSE_TILED_UNALIGNED_ACROSS_FIRST=1 (for measuring).
bool unaligned_tiles_down_first() {
  static const bool down_first = !core::env_starts_with("XPOSE_TILED_UNALIGNED_ACROSS_FIRST", '1');
  return down_first;
}

// One block of kUnalignedThreads per tile, 16-byte accesses, the tile's padding shown in the plan.
template <typename Tile>
Status configure_tiles(const TransposeDesc& d, LaunchConfig& c) {
  c = linear_config(Tile::kRows, Tile::kCols, 16, kUnalignedThreads, tiles_of<Tile>(d));
  c.pad = Tile::pad_words();
  return Status::ok_status();
}

template <int E, int kVariant>
Status configure_shape(const TransposeDesc& d, LaunchConfig& c) {
  return configure_tiles<ShapeTile<E, kVariant>>(d, c);
}

// What every tiled_unaligned kernel takes besides the output: the input and one past its last byte,
// the geometry and the tile order.
struct TileLaunch {
  const unsigned char* in;
  const unsigned char* in_end;
  MatrixGeometry g;
  TileGrid grid;
};

template <typename Tile>
TileLaunch tile_launch(const TransposeDesc& d, const void* in) {
  const auto* in_bytes = static_cast<const unsigned char*>(in);
  const std::int64_t tiles_y = ceil_div(d.rows, Tile::kRows);
  return TileLaunch{in_bytes, in_bytes + input_span_elements(d) * Tile::kElementBytes, make_geometry(d, tiles_y),
                    make_tile_grid(tiles_y, ceil_div(d.cols, Tile::kCols), unaligned_tiles_down_first())};
}

// XPOSE_TILED_UNALIGNED_TILES=l / s / h forces the large, small or short tiles of 1- and 2-byte
// elements, i / o the line or whole-chunk tiles where that side's rows lie on the 16-byte grid (the
// launch checks its pointer), to measure them against each other.
char forced_tiles() {
  static const char forced = [] {
    for (char c : {'l', 's', 'h', 'i', 'o'})
      if (core::env_starts_with("XPOSE_TILED_UNALIGNED_TILES", c)) return c;
    return '\0';
  }();
  return forced;
}

// 1- and 2-byte elements whose output rows lie on the 16-byte grid, with a 16-byte aligned output
// pointer (plan::unaligned_output_on_grid), take tiled_unaligned_grid_out's tiles: 128 bytes of
// output row (plan::kWholeChunkTileOutBytes: 128 rows of u8, 64 of bf16) by 64 bytes of input row
// for 1-byte elements, 128 for 2-byte ones, each fastest of six shapes tried (input x output bytes
// 128x128, 128x256, 64x256, 256x128 at four blocks per SM, 128x128 and 64x128 at six) on 15 shapes
// of u8 and bf16 on an H200 (bench/results/h200_2026-11-25zj_grid_out_shapes.txt).
template <int E> struct GridOutShape {
  static constexpr int kIn = E == 1 ? 64 : 128, kRows = plan::kWholeChunkTileOutBytes / E;
};
template <int E>
using GridOutShapeTile = GridOutTile<E, GridOutShape<E>::kIn, GridOutShape<E>::kRows>;
// 1- and 2-byte elements whose input rows lie on the 16-byte grid of a 16-byte aligned input, and
// whose output rows do not (plan::unaligned_input_on_grid), take tiled_unaligned_grid_in's tiles,
// the planner's line tile (224 bytes of output row by 64 columns: 224 rows of u8, 112 of bf16).
template <int E> struct GridInShape {
  static constexpr int kIn = plan::kLineTileCols * E, kRows = plan::kLineTileOutBytes / E;
};
template <int E>
using GridInShapeTile = GridInTile<E, GridInShape<E>::kIn, GridInShape<E>::kRows>;
// The launcher tells the tile shapes apart by their rows.
template <int E>
constexpr bool tile_rows_distinct() {
  constexpr int rows[] = {ShapeTile<E, kLargeTiles>::kRows, ShapeTile<E, kSmallTiles>::kRows,
                          ShapeTile<E, kShortTiles>::kRows, GridOutShapeTile<E>::kRows, GridInShapeTile<E>::kRows};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < i; ++j)
      if (rows[i] == rows[j]) return false;
  return true;
}
static_assert(tile_rows_distinct<1>() && tile_rows_distinct<2>(), "tile shapes told apart by rows");

// The whole-chunk and line tiles: `kernel` for Tile. configure chose them for a plan whose pointer on
// that side is 16-byte aligned, which execute checks; gpu::launch is also called directly, so that
// side's pointer (`aligned`) and rows (`rows_on_grid`), whose 16-byte chunks the kernel takes for
// granted, are checked here too.
using GridTileKernel = void (*)(const unsigned char*, const unsigned char*, unsigned char*, MatrixGeometry, TileGrid);
template <typename Tile>
Status launch_grid_tiles(GridTileKernel kernel, const char* name, const void* aligned, bool rows_on_grid,
                         const char* misaligned_message, const TransposeDesc& d, const LaunchConfig& c, const void* in,
                         void* out, rt::Stream stream) {
  if (reinterpret_cast<std::uintptr_t>(aligned) % 16 != 0 || !rows_on_grid)
    return Status(StatusCode::invalid_argument, misaligned_message);
  const TileLaunch t = tile_launch<Tile>(d, in);
  kernel<<<grid_of(c), block_of(c), 0, stream>>>(t.in, t.in_end, static_cast<unsigned char*>(out), t.g, t.grid);
  return check_launch(name, c, sizeof(std::uint32_t) * Tile::kWords, stream);
}

// The windows tiles of 1- and 2-byte elements: large, or small or short where those fill better.
template <int E>
UnalignedVariant windows_variant(const TransposeDesc& d) {
  if (tiles_of<ShapeTile<E, kLargeTiles>>(d) < few_tiles(E)) return kSmallTiles;
  if (small_tiles_fill_better<E>(d)) return kSmallTiles;
  if (short_tiles_fill_better<E>(d)) return kShortTiles;
  return kLargeTiles;
}

template <int E>
int windows_rows(UnalignedVariant v) {
  return v == kSmallTiles   ? ShapeTile<E, kSmallTiles>::kRows
         : v == kShortTiles ? ShapeTile<E, kShortTiles>::kRows
                            : ShapeTile<E, kLargeTiles>::kRows;
}

// Line tiles for an output pointer off the 16-byte grid (with an aligned input on it) give way where
// the windows tiles fill the matrix's rows 30 points better. Measured on an H200 (output one element
// off, of memcpy, windows / line tiles; bench/results/h200_2026-11-30f_one_side_off_grid.txt): bf16
// 128x262144 0.69 / 0.67 (rows filled 100% / 57%); the lines lead at 27 points less, u8 150x447392 0.50
// / 0.61 (93% / 67%), and at 23, u8 256x262144 0.53 / 0.64 (80% / 57%).
template <int E>
bool windows_fill_far_better(const TransposeDesc& d, UnalignedVariant windows) {
  return row_fill_percent(d.rows, windows_rows<E>(windows)) >= row_fill_percent(d.rows, GridInShapeTile<E>::kRows) + 30;
}

// Each side's own pointer alignment decides whether its chunks are whole: the whole-chunk tiles need
// only the output aligned, the line tiles only the input (each realigns the other side row by row).
template <int E>
Status configure_for_size(const TransposeDesc& d, int in_alignment, int out_alignment, LaunchConfig& c) {
  if constexpr (E < 4) {
    switch (forced_tiles()) {
      case 'l': return configure_shape<E, kLargeTiles>(d, c);
      case 's': return configure_shape<E, kSmallTiles>(d, c);
      case 'h': return configure_shape<E, kShortTiles>(d, c);
      case 'i':
        if (plan::unaligned_input_on_grid(d, 16, out_alignment)) return configure_tiles<GridInShapeTile<E>>(d, c);
        break;
      case 'o':
        if (plan::unaligned_output_on_grid(d, 16)) return configure_tiles<GridOutShapeTile<E>>(d, c);
        break;
      default: break;
    }
    if (plan::unaligned_output_on_grid(d, out_alignment)) return configure_tiles<GridOutShapeTile<E>>(d, c);
    const UnalignedVariant windows = windows_variant<E>(d);
    if (plan::unaligned_input_on_grid(d, in_alignment, out_alignment) &&
        (out_alignment >= 16 || !windows_fill_far_better<E>(d, windows)))
      return configure_tiles<GridInShapeTile<E>>(d, c);
    if (windows == kSmallTiles) return configure_shape<E, kSmallTiles>(d, c);
    if (windows == kShortTiles) return configure_shape<E, kShortTiles>(d, c);
  }
  return configure_shape<E, kLargeTiles>(d, c);
}

template <int E, int kVariant>
Status launch_shape(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  using Tile = ShapeTile<E, kVariant>;
  const TileLaunch t = tile_launch<Tile>(d, in);
  tiled_unaligned_kernel<E, Tile::kCols * E, Tile::kRows * E><<<grid_of(c), block_of(c), 0, stream>>>(
      t.in, t.in_end, static_cast<unsigned char*>(out), t.g, t.grid, sector_windows(E, d.ld_out * E));
  return check_launch("tiled_unaligned_kernel", c, sizeof(std::uint32_t) * Tile::shared_words(), stream);
}

// The tile shape configure chose, by its rows.
template <int E>
Status launch_for_size(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  if constexpr (E < 4) {
    if (c.tile_rows == GridOutShapeTile<E>::kRows)
      return launch_grid_tiles<GridOutShapeTile<E>>(
          tiled_unaligned_grid_out_kernel<E, GridOutShape<E>::kIn, GridOutShape<E>::kRows>,
          "tiled_unaligned_grid_out_kernel", out, plan::unaligned_output_on_grid(d, 16),
          "tiled_unaligned's whole-chunk tiles need a 16-byte aligned output, its rows on that grid", d, c, in, out,
          stream);
    if (c.tile_rows == GridInShapeTile<E>::kRows)
      return launch_grid_tiles<GridInShapeTile<E>>(
          tiled_unaligned_grid_in_kernel<E, GridInShape<E>::kIn, GridInShape<E>::kRows>,
          "tiled_unaligned_grid_in_kernel", in, plan::unaligned_input_on_grid(d, 16, 1),
          "tiled_unaligned's line tiles need a 16-byte aligned input, its rows on that grid", d, c, in, out, stream);
    if (c.tile_rows == ShapeTile<E, kSmallTiles>::kRows) return launch_shape<E, kSmallTiles>(d, c, in, out, stream);
    if (c.tile_rows == ShapeTile<E, kShortTiles>::kRows) return launch_shape<E, kShortTiles>(d, c, in, out, stream);
  }
  return launch_shape<E, kLargeTiles>(d, c, in, out, stream);
}

// The side the tiles of `c` take whole: told apart by their rows, as the launcher does.
template <int E>
AlignedSide aligned_side_for_size(const LaunchConfig& c) {
  if (c.tile_rows == GridOutShapeTile<E>::kRows) return AlignedSide::output;
  if (c.tile_rows == GridInShapeTile<E>::kRows) return AlignedSide::input;
  return AlignedSide::none;
}

}  // namespace

Status configure_tiled_unaligned(const TransposeDesc& d, int in_alignment, int out_alignment, LaunchConfig& c) {
  return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) {
    return configure_for_size<sizeof(decltype(tag))>(d, in_alignment, out_alignment, c);
  });
}

AlignedSide tiled_unaligned_aligned_side(const TransposeDesc& d, const LaunchConfig& c) {
  switch (dtype_size(d.dtype)) {
    case 1: return aligned_side_for_size<1>(c);
    case 2: return aligned_side_for_size<2>(c);
    default: return AlignedSide::none;  // one tile shape, any pointer
  }
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
