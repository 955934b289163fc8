// How tiled_unaligned's 1- and 2-byte store phase lays out the window of rows one lane reads for
// its 4 / E columns, computed on the host from the output row stride (the same for every lane).
#pragma once

namespace xpose {

// Column i's output row has its 32-byte sector grid (-i * ld_out_bytes) mod 32 bytes after column
// 0's, so the lane's columns want chunks starting at different rows. The window starts on one
// column's grid (the anchor); offset[i] is where column i's chunk starts in it, words the window's
// length in words (4 + ceil(spread / 4), at most 8). Anchored mod 32 (grid 32), the two half-warps'
// windows, 16 bytes apart, hold both halves of every sector, and each store instruction writes
// whole sectors; where that would spread the chunks over more than 16 bytes, they are anchored mod
// 16 and sectors are written in halves.
struct SectorWindows {
  int offset[4];
  int anchor, words, grid;
};

// The anchor (of the first `columns` columns) whose largest offset mod `grid` is smallest.
constexpr void best_window_anchor(int columns, int step, int grid, int& anchor, int& spread) {
  spread = grid;
  for (int j = 0; j < columns; ++j) {
    int s = 0;
    for (int i = 0; i < columns; ++i) {
      const int offset = ((j - i) * step) & (grid - 1);
      if (offset > s) s = offset;
    }
    if (s < spread) spread = s, anchor = j;
  }
}

constexpr SectorWindows sector_windows(int element_bytes, long long ld_out_bytes) {
  const int columns = element_bytes < 4 ? 4 / element_bytes : 1;
  const int step = static_cast<int>(ld_out_bytes & 31);
  SectorWindows w{};
  int spread = 0;
  best_window_anchor(columns, step, 32, w.anchor, spread);
  w.grid = 32;
  if (spread > 16) {
    best_window_anchor(columns, step, 16, w.anchor, spread);
    w.grid = 16;
  }
  for (int i = 0; i < columns; ++i) w.offset[i] = ((w.anchor - i) * step) & (w.grid - 1);
  w.words = 4 + (spread + 3) / 4;
  return w;
}

}  // namespace xpose
