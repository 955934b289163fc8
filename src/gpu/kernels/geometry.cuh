// MatrixGeometry: the batched-matrix layout every kernel receives by value, in 64-bit elements.
#pragma once

#include <cstdint>

// The tile decodes below are integer arithmetic only; the planner's tests compile them for the host
// (defining XPOSE_TILE_DECODE_ON_HOST) to check that every grid visits each tile once.
#if defined(XPOSE_TILE_DECODE_ON_HOST)
#define XPOSE_TILE_DECODE inline
#else
#define XPOSE_TILE_DECODE __device__ __forceinline__
#endif

namespace xpose::gpu {

// in (b, r, c) at b * bs_in + r * ld_in + c; out (b, c, r) at b * bs_out + c * ld_out + r.
// tiles_y: tiles along the grid's y axis, which the kernels walk in steps of gridDim.y, since
// gridDim.y (and z, the batch) stop at 65535.
struct MatrixGeometry {
  std::int64_t rows, cols, batch;
  std::int64_t ld_in, ld_out, bs_in, bs_out;
  std::int64_t tiles_y;
};

// Division of numerators below 2^31 by a fixed divisor d (1 <= d < 2^31) as one wide multiply and a
// shift, with constants from the host (make_fast_div): shift = 31 + ceil(log2 d), magic =
// floor(2^shift / d) + 1, whose error d * magic - 2^shift lies in (0, d], so n * error < 2^shift for
// every n < 2^31. A block decodes its tile this way in a few instructions where division by a
// runtime value costs dozens on the path to the first load, which small, latency-bound transposes
// feel.
struct FastDiv {
  std::uint32_t divisor, magic;
  int shift;
};

inline FastDiv make_fast_div(std::int64_t d) {
  int log2_ceil = 0;
  while ((std::int64_t{1} << log2_ceil) < d) ++log2_ceil;
  const int shift = 31 + log2_ceil;
  return FastDiv{static_cast<std::uint32_t>(d), static_cast<std::uint32_t>((std::uint64_t{1} << shift) / d + 1), shift};
}

XPOSE_TILE_DECODE std::uint32_t fast_div(std::uint32_t n, const FastDiv& f) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(n) * f.magic) >> f.shift);
}

// n / d and n % d.
struct QuotRem {
  std::uint32_t quot, rem;
};
XPOSE_TILE_DECODE QuotRem fast_divmod(std::uint32_t n, const FastDiv& f) {
  const std::uint32_t q = fast_div(n, f);
  return QuotRem{q, n - q * f.divisor};
}

// The tiles of a one-tile-per-block grid, tiles_y x tiles_c per matrix: `inner` divides by the
// count that runs fastest (tile rows when down_first: consecutive blocks then write each output
// row in long runs; else tile columns), `outer` by the other. Grids stop at 2^31 - 1 blocks, so
// every tile number fits fast_div.
struct TileGrid {
  FastDiv inner, outer;
  bool down_first;
};

inline TileGrid make_tile_grid(std::int64_t tiles_y, std::int64_t tiles_c, bool down_first) {
  return down_first ? TileGrid{make_fast_div(tiles_y), make_fast_div(tiles_c), true}
                    : TileGrid{make_fast_div(tiles_c), make_fast_div(tiles_y), false};
}

// Tile row, tile column and batch of tile number `tile`.
struct TileCoord {
  std::int64_t tr, tc, b;
};
XPOSE_TILE_DECODE TileCoord tile_coord(std::uint32_t tile, const TileGrid& grid) {
  const QuotRem in = fast_divmod(tile, grid.inner), out = fast_divmod(in.quot, grid.outer);
  return grid.down_first ? TileCoord{in.rem, out.rem, out.quot} : TileCoord{out.rem, in.rem, out.quot};
}

// Down first in bands: the tile columns split into `bands` equal bands, which consecutive blocks
// take in turn, each band walked down first. The reads in flight then lie a band's width apart in
// the input rows rather than all in one narrow column, which the DRAM needs when the input rows
// are 128 KiB apart (see the planner). bands must divide tiles_c. A type of its own rather than a
// field of TileGrid: with the band decode in every kernel, most plain kernels compiled to other
// register counts; this way only the banded instantiations carry it.
struct BandedTileGrid {
  FastDiv bands, inner, outer;  // outer: the tile columns of one band
};

inline BandedTileGrid make_banded_tile_grid(std::int64_t tiles_y, std::int64_t tiles_c, int bands) {
  return BandedTileGrid{make_fast_div(bands), make_fast_div(tiles_y), make_fast_div(tiles_c / bands)};
}

XPOSE_TILE_DECODE TileCoord tile_coord(std::uint32_t tile, const BandedTileGrid& grid) {
  const QuotRem band = fast_divmod(tile, grid.bands);
  const QuotRem in = fast_divmod(band.quot, grid.inner), out = fast_divmod(in.quot, grid.outer);
  return TileCoord{in.rem, band.rem * grid.outer.divisor + out.rem, out.quot};
}

// Bands on a led grid (tiled_vec's TileLead): a lead of columns may add a tile column at the right,
// nearly empty, whose latency-bound blocks would end the kernel alone if walked last; the first
// `extra_tiles` blocks walk it down (matrix by matrix), the rest walk the other tile columns in
// bands. Where the lead adds none (lead_adds_tile_column), extra_tiles is 0 and the grid is the plain
// banded one.
struct LedBandedTileGrid {
  BandedTileGrid banded;  // over the tile columns but the added one; its `inner` divides by tiles_y
  std::uint32_t extra_tiles;  // tiles of the added column over the batch: tiles_y x batch, or 0
  std::uint32_t extra_col;    // its tile column, the last
};

inline LedBandedTileGrid make_led_banded_tile_grid(std::int64_t tiles_y, std::int64_t tiles_c, int bands,
                                                   std::int64_t batch, bool extra_col) {
  const std::int64_t banded_c = extra_col ? tiles_c - 1 : tiles_c;
  return LedBandedTileGrid{make_banded_tile_grid(tiles_y, banded_c, bands),
                           static_cast<std::uint32_t>(extra_col ? tiles_y * batch : 0),
                           static_cast<std::uint32_t>(banded_c)};
}

XPOSE_TILE_DECODE TileCoord tile_coord(std::uint32_t tile, const LedBandedTileGrid& grid) {
  if (tile < grid.extra_tiles) {
    const QuotRem in = fast_divmod(tile, grid.banded.inner);
    return TileCoord{in.rem, grid.extra_col, in.quot};
  }
  return tile_coord(tile - grid.extra_tiles, grid.banded);
}

}  // namespace xpose::gpu
