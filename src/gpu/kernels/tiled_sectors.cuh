// 1- and 2-byte elements whose output rows start inside 32-byte sectors but on the 8-byte grid (u8
// with ld 8200, bf16 with ld 8196; where the planner takes it: gpu_planner.cpp): every output sector
// is written whole, by one store instruction. A sector that two instructions write in parts costs the GPU far more than a
// whole one: on an H200, a copy whose 8-byte stores cover runs of 128 bytes starting 8 bytes into a
// sector ran at 0.71 of memcpy against 0.90 for the same runs on the sector grid, while loads that
// start mid-sector cost nothing (bench/results/h200_2026-11-24m_partial_sectors.txt).
//
// So each output row's sectors belong to the tile their first byte falls in, as in tiled_unaligned:
// a tile loads the input rows of the next tile that its last sectors reach (a halo of max s_c / E
// rows, at most 32 / E - 1), and output row c takes its whole sectors from input row s_c / E on,
// where s_c is how far the first sector boundary lies into the tile's piece of that row. On the
// 8-byte grid, s_c depends on c mod 4 only; the load phase therefore stores each input row with its
// columns sorted by c mod 4 (a byte or halfword permute of each 16-byte chunk), so that a 32-bit
// word of shared memory holds 4 / E columns that share one s_c, and the store phase reads them as
// tiled_vec does, each word column from its own first row. Output vectors are 16 bytes; input loads
// 8 or 16.
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/tiled_vec.cuh"  // VecWords, load_vec, store_vec, gather_column

namespace xpose::gpu {

constexpr int kSectorThreads = 256;
// Blocks an SM holds at once (the launch bounds; 18-37 KiB of shared memory each).
constexpr int kSectorBlocksPerSm = 4;
// Store phase: 8 threads down the rows write 128 contiguous bytes (four whole sectors) of each of
// four output rows per instruction.
constexpr int kSectorRowThreads = 8;

// A tile of kRows input rows of kRowBytes bytes, for E-byte elements loaded kVin bytes at a time.
template <int E, int kVin, int kRowBytes, int kRowCount>
struct SectorTile {
  static_assert(E == 1 || E == 2, "packed words of 1- and 2-byte elements");
  static_assert(kVin == 8 || kVin == 16, "8- or 16-byte loads");
  static constexpr int kE = E;
  static constexpr int kVinBytes = kVin;
  static constexpr int kRows = kRowCount;                    // rows whose sectors the tile owns
  static constexpr int kCols = kRowBytes / E;
  static constexpr int kV = 16 / E;                          // input rows per output vector
  static constexpr int kHalo = 32 / E - 1;                   // rows a sector starting in the last row reaches
  static constexpr int kLoadRows = kRows + kHalo;            // the most a tile loads (see tiled_sectors_kernel)
  static constexpr int kSmemRows = (kLoadRows + 1) / 2 * 2;  // whole row pairs (sector_word swaps pairs)
  static constexpr int kChunks = kRowBytes / 16;             // 16-byte chunks per row
  static constexpr int kWords = kRowBytes / 4;               // words per row: units, 4 / E columns each
  static constexpr int kUnitThreads = 32 / kSectorRowThreads;
  static constexpr int kRowGroups = kRows / (kV * kSectorRowThreads);
  static constexpr int kUnitGroups = kWords / kUnitThreads;
  static constexpr int kLoadItems = kLoadRows * kChunks;
  static constexpr int kLoadsPerThread = (kLoadItems + kSectorThreads - 1) / kSectorThreads;
  // Chunks a thread holds in registers at once: the load phase goes in batches of at most 5, which
  // keeps u8's 32 KiB tiles (9 chunks a thread) in 64 registers without spilling.
  static constexpr int kLoadBatches = (kLoadsPerThread + 4) / 5;
  static constexpr int kLoadBatch = (kLoadsPerThread + kLoadBatches - 1) / kLoadBatches;
  static_assert(kLoadBatch <= 5, "batches of at most 5 chunks a thread");
  static_assert(kRowGroups * kV * kSectorRowThreads == kRows, "whole row groups");
  static_assert(kRows * E % 32 == 0, "tiles own whole sectors of each output row");
};

// Word u of row r in shared memory. Unit u = class k (column mod 4) x chunk q, at k * kChunks + q.
// The XOR patterns make both phases conflict-free (one wavefront per warp-wide access; checked by a
// replay of the index arithmetic, bench/smem_banks_sectors.py): the load phase stores one class word
// of 32 consecutive chunks (8 rows x 4 chunks for u8 rows of 64 bytes, 4 x 8 for rows of 128), the
// store phase reads one word column of 4 units at rows 16 / E apart for 8 lanes. u8 rows of 16 words:
// rows 16 apart would share one half of the banks, so pairs of rows swap places every 16 rows. u8 rows
// of 32 words: the 4 rows of a load share no group of 8 words, the 8 rows 16 apart of a store no
// group of 4.
template <typename Tile>
__device__ __forceinline__ int sector_word(int r, int u) {
  if constexpr (Tile::kE == 1 && Tile::kWords == 16) {
    return (r ^ ((r >> 4) & 1)) * 16 + (u ^ (4 * (((r >> 1) ^ (r >> 5)) & 3)));
  } else if constexpr (Tile::kE == 1 && Tile::kWords == 32) {
    return r * 32 + (u ^ (4 * (((r >> 4) ^ (2 * (r & 3))) & 7)));
  } else if constexpr (Tile::kE == 2 && Tile::kWords == 32) {
    return r * 32 + (u ^ (8 * ((r ^ (r >> 3)) & 3) + 4 * ((r >> 5) & 1)));
  } else {
    return r * Tile::kWords + u;
  }
}

// The 16 bytes of a chunk (columns in order) as four class words: word k holds the chunk's columns
// with index mod 4 == k, in order.
template <int E>
__device__ __forceinline__ std::uint32_t class_word(const std::uint32_t (&w)[4], int k) {
  if constexpr (E == 1) {
    const unsigned sel = static_cast<unsigned>(k) | (static_cast<unsigned>(k + 4) << 4);
    return __byte_perm(__byte_perm(w[0], w[1], sel), __byte_perm(w[2], w[3], sel), 0x5410);
  } else {
    return __byte_perm(w[k >> 1], w[2 + (k >> 1)], (k & 1) ? 0x7632u : 0x5410u);
  }
}

// Load phase: every chunk of the tile's rows and halo, each stored as its four class words; the
// chunks of a batch (kLoadBatch a thread) are all loaded before any is stored. Chunks cut by the
// matrix edge go element by element (zeros past it).
template <typename Tile>
__device__ __forceinline__ void sector_load(std::uint32_t* tile, const unsigned char* src, std::int64_t ld_in_bytes,
                                            int rows_valid, int bytes_valid, int tid) {
  constexpr int E = Tile::kE, kBatch = Tile::kLoadBatch;
#pragma unroll
  for (int j0 = 0; j0 < Tile::kLoadsPerThread; j0 += kBatch) {
    std::uint32_t v[kBatch][4];
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const int idx = (j0 + j) * kSectorThreads + tid;
      const int r = idx / Tile::kChunks, cb = (idx % Tile::kChunks) * 16;
      if (j0 + j >= Tile::kLoadsPerThread || idx >= Tile::kLoadItems || r >= rows_valid || cb + 16 > bytes_valid)
        continue;
      const unsigned char* p = src + r * ld_in_bytes + cb;
      if constexpr (Tile::kVinBytes == 16) {
        const VecWords<16> x = load_vec<16>(p);
#pragma unroll
        for (int i = 0; i < 4; ++i) v[j][i] = x.w[i];
      } else {
        const VecWords<8> a = load_vec<8>(p), b = load_vec<8>(p + 8);
        v[j][0] = a.w[0], v[j][1] = a.w[1], v[j][2] = b.w[0], v[j][3] = b.w[1];
      }
    }
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const int idx = (j0 + j) * kSectorThreads + tid;
      const int r = idx / Tile::kChunks, q = idx % Tile::kChunks, cb = q * 16;
      if (j0 + j >= Tile::kLoadsPerThread || idx >= Tile::kLoadItems || r >= rows_valid || cb >= bytes_valid)
        continue;
      if (cb + 16 > bytes_valid) {
        v[j][0] = v[j][1] = v[j][2] = v[j][3] = 0;
#pragma unroll
        for (int m = 0; m < 16 / E; ++m)
          if (cb + m * E < bytes_valid) put_element<E>(v[j], m, src + r * ld_in_bytes + cb + m * E);
      }
#pragma unroll
      for (int k = 0; k < 4; ++k) tile[sector_word<Tile>(r, k * Tile::kChunks + q)] = class_word<E>(v[j], k);
    }
  }
}

// Unit u's columns within the tile: the first, and then every 4th (4 / E of them).
template <typename Tile>
__device__ __forceinline__ int unit_first_col(int u) {
  return (u % Tile::kChunks) * (16 / Tile::kE) + u / Tile::kChunks;
}

// Input row (within the tile) where unit u's owned sectors start: the first sector boundary at or
// after the tile's first byte of the unit's output rows, which share it (their starts differ by
// multiples of 4 x ld_out bytes, a multiple of 32).
template <typename Tile>
__device__ __forceinline__ int unit_first_row(const unsigned char* dst, std::int64_t ld_out_bytes, int u) {
  const unsigned char* row = dst + unit_first_col<Tile>(u) * ld_out_bytes;
  return ((32 - static_cast<int>(reinterpret_cast<std::uintptr_t>(row) & 31)) & 31) / Tile::kE;
}

// Rows [first, end) of unit u to the unit's output rows inside the matrix, where a vector would not
// fit (the partial sectors each output row starts and ends with): 8-byte pieces where whole and
// aligned, the rest element by element.
template <typename Tile>
__device__ void store_unit_rows(const std::uint32_t* tile, unsigned char* dst, std::int64_t ld_out_bytes, int u,
                                int first, int end, int col0, int cols_valid) {
  constexpr int E = Tile::kE, kPieceRows = 8 / E;
  int i = first;
  if (i + kPieceRows <= end &&
      (reinterpret_cast<std::uintptr_t>(dst + col0 * ld_out_bytes + i * E) & 7) == 0) {
    std::uint32_t w[kPieceRows];
#pragma unroll
    for (int m = 0; m < kPieceRows; ++m) w[m] = tile[sector_word<Tile>(i + m, u)];
#pragma unroll
    for (int j = 0; j < 4 / E; ++j)
      if (col0 + 4 * j < cols_valid)
        store_vec<8>(dst + (col0 + 4 * j) * ld_out_bytes + i * E, gather_column<E, 8>(w, j));
    i += kPieceRows;
  }
  for (; i < end; ++i) {
    const std::uint32_t word[1] = {tile[sector_word<Tile>(i, u)]};
#pragma unroll
    for (int j = 0; j < 4 / E; ++j)
      if (col0 + 4 * j < cols_valid) take_element<E>(word, j, dst + (col0 + 4 * j) * ld_out_bytes + i * E);
  }
}

// Store phase: lane (tr, tu) of each group of 32 takes unit u and the kV rows of one output vector
// from the unit's first owned row on; writes one 16-byte vector to each of the unit's output rows.
// A vector cut by the matrix's last row goes through store_unit_rows, and so do, in the first tile
// row, the rows before the first owned one (the partial sector each output row starts with).
template <typename Tile>
__device__ __forceinline__ void sector_store(const std::uint32_t* tile, unsigned char* dst, std::int64_t ld_out_bytes,
                                             int rows_valid, int cols_valid, bool first_tile_row, int tid) {
  constexpr int E = Tile::kE, kV = Tile::kV, kColsPerUnit = 4 / E;
  const int lane = tid % 32, group = tid / 32;
  const int tr = lane % kSectorRowThreads, tu = lane / kSectorRowThreads;
  for (int s = group; s < Tile::kRowGroups * Tile::kUnitGroups; s += kSectorThreads / 32) {
    const int u = (s / Tile::kRowGroups) * Tile::kUnitThreads + tu;
    const int col0 = unit_first_col<Tile>(u);
    const int rb = unit_first_row<Tile>(dst, ld_out_bytes, u) + ((s % Tile::kRowGroups) * kSectorRowThreads + tr) * kV;
    if (rb >= rows_valid || col0 >= cols_valid) continue;
    unsigned char* out0 = dst + col0 * ld_out_bytes + rb * E;
    if (rb + kV <= rows_valid) {
      std::uint32_t w[kV];
#pragma unroll
      for (int i = 0; i < kV; ++i) w[i] = tile[sector_word<Tile>(rb + i, u)];
#pragma unroll
      for (int j = 0; j < kColsPerUnit; ++j)
        if (col0 + 4 * j < cols_valid) store_vec<16>(out0 + 4 * j * ld_out_bytes, gather_column<E, 16>(w, j));
    } else {
      store_unit_rows<Tile>(tile, dst, ld_out_bytes, u, rb, rows_valid, col0, cols_valid);
    }
  }
  if (!first_tile_row) return;
  // Rows [p * 8 / E, (p + 1) * 8 / E) of each unit, for the 8-byte pieces p of the first partial sector.
  constexpr int kPieceRows = 8 / E;
  for (int item = tid; item < Tile::kWords * 4; item += kSectorThreads) {
    const int u = item % Tile::kWords, first = item / Tile::kWords * kPieceRows;
    const int col0 = unit_first_col<Tile>(u);
    const int end = min(min(unit_first_row<Tile>(dst, ld_out_bytes, u), rows_valid), first + kPieceRows);
    if (first < end && col0 < cols_valid)
      store_unit_rows<Tile>(tile, dst, ld_out_bytes, u, first, end, col0, cols_valid);
  }
}

// Block (kSectorThreads), one tile per block; grid (tiles) in tile_coord's order. Needs kVin-byte
// aligned input rows and base pointer, output pointers aligned to E and output rows (and batches)
// on the 8-byte grid. load_rows: the tile's rows and its halo, kRows + max s_c / E over the output
// rows (src/plan/sector_halo.hpp), at most kLoadRows: where every output row starts on the 16-byte
// grid, say, no sector reaches more than 16 bytes past a tile.
template <typename Tile>
__global__ void __launch_bounds__(kSectorThreads, kSectorBlocksPerSm)
    tiled_sectors_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, MatrixGeometry g,
                         TileGrid grid, int load_rows) {
  constexpr int E = Tile::kE;
  alignas(16) __shared__ std::uint32_t tile[Tile::kSmemRows * Tile::kWords];
  const TileCoord t = tile_coord(blockIdx.x, grid);
  const std::int64_t r0 = t.tr * Tile::kRows, c0 = t.tc * Tile::kCols;
  const int rows_valid = static_cast<int>(g.rows - r0 < load_rows ? g.rows - r0 : load_rows);
  const int cols_valid = static_cast<int>(g.cols - c0 < Tile::kCols ? g.cols - c0 : Tile::kCols);
  const unsigned char* src = in + (t.b * g.bs_in + r0 * g.ld_in + c0) * E;
  unsigned char* dst = out + (t.b * g.bs_out + c0 * g.ld_out + r0) * E;
  sector_load<Tile>(tile, src, g.ld_in * E, rows_valid, cols_valid * E, threadIdx.x);
  __syncthreads();
  sector_store<Tile>(tile, dst, g.ld_out * E, rows_valid, cols_valid, t.tr == 0, threadIdx.x);
}

}  // namespace xpose::gpu
