// The halo tiled_sectors loads past each tile (src/plan/sector_halo.hpp), against sector ownership
// worked out element by element on small matrices: for output strides at every residue mod 32,
// base pointers on and off the 8-byte grid, batches that start anywhere; and its values for the
// strides the suite and the GPU tests use.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "plan/sector_halo.hpp"

namespace {

using xpose::residue_period;
using xpose::sector_halo_bytes;

// The most input rows past its own that any tile needs, found element by element: every element of
// every output row goes to the tile owning its sector (the tile the sector's first byte falls in, or
// the first tile for the part of a sector before the row's first byte), and needs the input row that
// its place in the row names, counted from that tile's first row. Tiles own tile_rows elements of
// each row; the first `tiles` tiles of each row are checked.
long long rows_past_tile(unsigned long long addr, long long ld_bytes, long long cols, long long batch, long long bs,
                         int e, long long tile_rows, long long tiles) {
  const long long piece = tile_rows * e;
  long long past = 0;
  for (long long b = 0; b < batch; ++b)
    for (long long c = 0; c < cols; ++c) {
      const unsigned long long row = addr + static_cast<unsigned long long>(b * bs + c * ld_bytes);
      for (long long i = 0; i < (tiles + 1) * tile_rows; ++i) {
        const unsigned long long sector = (row + static_cast<unsigned long long>(i * e)) / 32 * 32;
        const long long owner = (sector > row ? static_cast<long long>(sector - row) : 0) / piece;
        if (owner < tiles) past = std::max(past, i - owner * tile_rows - tile_rows + 1);
      }
    }
  return past;
}

std::string what(int e, long long ld_bytes, unsigned long long addr, long long batch, long long bs) {
  return "e " + std::to_string(e) + " ld_bytes " + std::to_string(ld_bytes) + " addr " + std::to_string(addr) +
         " batch " + std::to_string(batch) + " bs " + std::to_string(bs);
}

TEST(SectorHalo, MatchesSectorOwnershipElementByElement) {
  int cases = 0;
  for (int e : {1, 2})
    for (long long ld_bytes = 320; ld_bytes < 352; ld_bytes += e)  // every residue mod 32 a stride can have
      for (unsigned long long addr : {0ULL, 2ULL, 8ULL, 14ULL, 16ULL, 24ULL})
        for (long long bs : {0LL, 2560LL, 2568LL + 2 * e}) {
          const long long batch = bs == 0 ? 1 : 3, cols = 37;
          const int halo = sector_halo_bytes(addr, ld_bytes, cols, batch, bs);
          ASSERT_EQ(halo % e, 0) << what(e, ld_bytes, addr, batch, bs) << ": a whole number of rows";
          for (long long tile_rows : {32LL / e, 64LL / e})
            EXPECT_EQ(halo / e, rows_past_tile(addr, ld_bytes, cols, batch, bs, e, tile_rows, 2))
                << what(e, ld_bytes, addr, batch, bs) << " tile_rows " << tile_rows;
          ++cases;
        }
  // Batches whose matrices start 37 rows and one element apart, past the 32 after which residues repeat.
  for (int e : {1, 2})
    for (long long ld_bytes : {328LL, 336LL, 320LL + e}) {
      const long long bs = 37 * ld_bytes + e, batch = 33;
      const int halo = sector_halo_bytes(0, ld_bytes, 5, batch, bs);
      EXPECT_EQ(halo / e, rows_past_tile(0, ld_bytes, 5, batch, bs, e, 64 / e, 2)) << what(e, ld_bytes, 0, batch, bs);
      ++cases;
    }
  // One row per matrix, matrices 32 - e bytes on: the farthest reach (31 or 30 bytes) comes only with the
  // last matrix of a period (32 / e of them), so a batch one matrix short of it reaches less.
  for (int e : {1, 2})
    for (long long batch : {32LL / e - 1, 32LL / e}) {
      const long long bs = 2560 + 32 - e;
      const int halo = sector_halo_bytes(0, 320, 1, batch, bs);
      EXPECT_EQ(halo / e, rows_past_tile(0, 320, 1, batch, bs, e, 64 / e, 2)) << what(e, 320, 0, batch, bs);
      ++cases;
    }
  EXPECT_GT(cases, 800);
}

TEST(SectorHalo, ResiduesRepeat) {
  EXPECT_EQ(residue_period(0), 1);
  EXPECT_EQ(residue_period(8200), 4);       // 8 bytes off the sector grid
  EXPECT_EQ(residue_period(8200 * 2), 2);   // 16 bytes off
  EXPECT_EQ(residue_period(8193), 32);      // an odd stride
  EXPECT_EQ(residue_period(8192 * 3), 1);
}

TEST(SectorHalo, SuiteStrides) {
  // ld 8200 from an aligned pointer: bf16 rows on the 16-byte grid reach 16 bytes (8 rows, not 15),
  // u8 rows on the 8-byte grid 24 (24 rows, not 31).
  EXPECT_EQ(sector_halo_bytes(0, 8200 * 2, 8192, 1, 0), 16);
  EXPECT_EQ(sector_halo_bytes(0, 8200, 8192, 1, 0), 24);
  EXPECT_EQ(sector_halo_bytes(0, 8192 * 2, 8192, 1, 0), 0);  // every row on a sector
  EXPECT_EQ(sector_halo_bytes(8, 8200 * 2, 8192, 1, 0), 24);  // rows at 8 and 24 bytes into a sector
  EXPECT_EQ(sector_halo_bytes(0, 8200 * 2, 8192, 3, 8192 * 8200 * 2 + 2), 30);  // matrices 2 bytes on
  EXPECT_EQ(sector_halo_bytes(0, 8200 * 2, 1, 1, 0), 0);  // one row, on a sector
}

}  // namespace
