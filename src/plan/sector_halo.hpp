// How far past its own rows a tiled_sectors tile has to load, computed on the host from where the
// output rows start against the 32-byte sector grid.
#pragma once

namespace xpose {

// Steps of `stride_bytes` after which an address is back where it was modulo 32: 1 to 32.
constexpr long long residue_period(long long stride_bytes) {
  long long p = 1;
  while (p < 32 && p * (stride_bytes % 32) % 32 != 0) p *= 2;
  return p;
}

// Each output row's sectors belong to the tile their first byte falls in, so a tile's piece of a row
// ends at the row's first sector boundary past the tile: (32 - start mod 32) mod 32 bytes past it,
// start being where the tile's piece begins. Tiles own a multiple of 32 bytes of each row, so every
// piece of a row starts where the row does, modulo 32, and the residues repeat every residue_period
// rows (at most 4 on the 8-byte grid) and matrices. Returns the largest such reach over the output
// rows of every matrix, in bytes: 0 where every row starts on a sector, 16 where rows start on the
// 16-byte grid (from an aligned pointer), 24 on the 8-byte grid, up to 31 where matrices start
// anywhere.
constexpr int sector_halo_bytes(unsigned long long out_addr, long long ld_out_bytes, long long cols, long long batch,
                                long long batch_stride_out_bytes) {
  int reach = 0;
  const long long rows_period = residue_period(ld_out_bytes);
  const long long batch_period = residue_period(batch_stride_out_bytes);
  for (long long b = 0; b < batch && b < batch_period; ++b)
    for (long long c = 0; c < cols && c < rows_period; ++c) {
      const unsigned long long start = out_addr + static_cast<unsigned long long>(b * batch_stride_out_bytes) +
                                       static_cast<unsigned long long>(c * ld_out_bytes);
      const int r = static_cast<int>((32 - (start & 31)) & 31);
      if (r > reach) reach = r;
    }
  return reach;
}

}  // namespace xpose
