// The halo tiled_sectors loads past each tile (src/plan/sector_halo.hpp): against sector ownership
// worked out byte by byte on small matrices, for output strides, base pointers and batch strides on
// and off the 8-byte grid; and its values for the strides the suite and the GPU tests use.
#include <gtest/gtest.h>

#include <string>

#include "plan/sector_halo.hpp"

namespace {

using xpose::sector_halo_bytes;

// How far the sectors a tile owns reach past its piece of each output row, at most, over every row
// and tile of `batch` matrices of `cols` output rows of `tiles` x tile_bytes bytes: a sector belongs
// to the tile its first byte falls in.
int owned_reach(unsigned long long addr, long long ld, long long cols, long long batch, long long bs,
                long long tile_bytes, long long tiles) {
  int reach = 0;
  for (long long b = 0; b < batch; ++b)
    for (long long c = 0; c < cols; ++c)
      for (long long t = 0; t < tiles; ++t) {
        const unsigned long long end = addr + b * bs + c * ld + (t + 1) * tile_bytes;  // the piece's end
        const unsigned long long last_sector = (end - 1) / 32 * 32;  // holds the piece's last byte
        const int r = static_cast<int>(last_sector + 32 - end);
        if (r > reach) reach = r;
      }
  return reach;
}

TEST(SectorHalo, MatchesSectorOwnershipByteByByte) {
  int cases = 0;
  for (int e : {1, 2})
    for (long long ld_bytes = 8 * 40; ld_bytes < 8 * 44; ld_bytes += 2 * e)  // every residue mod 32, on and off 8
      for (unsigned long long addr = 0; addr < 32; addr += static_cast<unsigned long long>(e))
        for (long long bs : {0LL, 40LL * 64, 40LL * 64 + 8, 40LL * 64 + 5 * e}) {
          const long long batch = bs == 0 ? 1 : 5, cols = 37;
          const int halo = sector_halo_bytes(addr, ld_bytes, cols, batch, bs);
          const std::string what = "e " + std::to_string(e) + " ld_bytes " + std::to_string(ld_bytes) + " addr " +
                                   std::to_string(addr) + " bs " + std::to_string(bs);
          ASSERT_GE(halo, 0) << what;
          ASSERT_LT(halo, 32) << what;
          EXPECT_EQ(halo % e, 0) << what << ": a whole number of rows";
          for (long long tile_bytes : {32LL, 64LL, 256LL})
            EXPECT_EQ(halo, owned_reach(addr, ld_bytes, cols, batch, bs, tile_bytes, 3)) << what;
          ++cases;
        }
  EXPECT_GT(cases, 500);
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
