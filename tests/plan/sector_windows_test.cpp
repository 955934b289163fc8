// The window layout of tiled_unaligned's 1- and 2-byte store phase: for every output row stride and
// base address, each column's chunk offset lands on that column's sector grid, the window holds it,
// and whole sectors (grid 32) are used wherever some anchor keeps the chunks within 16 bytes.
#include <gtest/gtest.h>

#include <algorithm>

#include "plan/sector_windows.hpp"

namespace {

using xpose::SectorWindows;
using xpose::sector_windows;

TEST(SectorWindows, ChunksLandOnEachColumnsSectorGrid) {
  for (int e : {1, 2}) {
    const int columns = 4 / e;
    for (long long ld = 1; ld <= 80; ++ld) {
      const long long ld_bytes = ld * e;
      const SectorWindows w = sector_windows(e, ld_bytes);
      ASSERT_TRUE(w.grid == 16 || w.grid == 32) << "e " << e << " ld " << ld;
      ASSERT_GE(w.anchor, 0);
      ASSERT_LT(w.anchor, columns);
      EXPECT_EQ(w.offset[w.anchor], 0);
      int spread = 0;
      for (int i = 0; i < columns; ++i) {
        ASSERT_GE(w.offset[i], 0);
        spread = w.offset[i] > spread ? w.offset[i] : spread;
      }
      EXPECT_LE(spread, 16) << "e " << e << " ld " << ld;
      EXPECT_EQ(w.words, 4 + (spread + 3) / 4);
      EXPECT_LE(w.words, 8);
      // Whole sectors unless no anchor keeps the chunks within 16 bytes mod 32.
      bool whole_possible = false;
      for (int j = 0; j < columns; ++j) {
        int s = 0;
        for (int i = 0; i < columns; ++i) s = std::max(s, static_cast<int>(((j - i) * ld_bytes) & 31));
        whole_possible = whole_possible || s <= 16;
      }
      EXPECT_EQ(w.grid == 32, whole_possible) << "e " << e << " ld " << ld;
      // Column i's output row starts at base + i * ld_bytes; its sectors start where the address is
      // a multiple of 32. The kernel puts the window origin on the anchor's grid (mod w.grid);
      // column i's chunk, offset[i] bytes into the window, must then lie on column i's.
      for (long long base = 0; base < 64; base += e) {
        const long long origin = -(base + w.anchor * ld_bytes);
        for (int i = 0; i < columns; ++i) {
          const long long column_start = base + i * ld_bytes;
          EXPECT_EQ(((column_start + origin + w.offset[i]) % w.grid + w.grid) % w.grid, 0)
              << "e " << e << " ld " << ld << " base " << base << " column " << i;
        }
      }
    }
  }
}

}  // namespace
