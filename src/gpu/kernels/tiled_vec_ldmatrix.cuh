// tiled_vec's store phase for the 8 KiB tiles of 1- and 2-byte elements on NVIDIA (sm_75 and later),
// rows of 128 bytes or more (tiled_vec_ldmatrix_store):
// ldmatrix.trans reads the tile's 2-byte columns straight into output order, where the generic
// store phase reads 32-bit words down the rows and reassembles them with byte permutes. One
// ldmatrix.x4.trans gives each lane one 2-byte column of 8 rows: a whole bf16 output vector, or
// for u8, with a second call and 8 byte permutes, two output vectors of 16 rows (the generic phase
// reads 4 words and permutes 12 times per u8 vector). It needs fewer registers (ptxas: u8 64x128 tiles
// 40 against 64, bf16 32x256 32 against 38), which most likely is what lets it run faster: more blocks
// stay resident (with 128-thread blocks, which fit many either way, the two ran level on u8 8192^2,
// 0.932-0.942 against 0.935-0.946). On the same 8 KiB tiles, of memcpy,
// generic -> ldmatrix (H200, bench/results/h200_2026-12-01h_tiled_vec_probe.txt): u8 64x128 on 4096^2
// 0.85 -> 0.97; bf16 32x256 on 2048^2 0.94-0.95 -> 1.00-1.01. In the library (CLI, the commit before
// -> this one, h200_2026-12-01h_ldmatrix_ab.txt): bf16 3072^2 0.960 -> 0.978, 2048x4096 0.954 -> 0.983,
// 2 x 2048^2 0.974 -> 0.984; u8 through the planner's 64-row tiles (one_byte_matrices_take_ldmatrix_tiles).
// On the plans' own 16 and 32 KiB tiles it measured level or slower (u8 16384^2 0.956 -> 0.949, bf16
// 8192^2 0.958-0.959 -> 0.953-0.955), so those keep the generic phase.
#pragma once

#include <cstdint>

#include "gpu/runtime.hpp"  // rt::ldmatrix_x4_trans
#include "plan/tiled_vec_shape.hpp"

namespace xpose::gpu {

// Shared-memory byte of 16-byte chunk `chunk` of tile row r, in tiles of kRowBytes-byte rows of
// E-byte elements that store through ldmatrix (rows of 128 bytes or more). The 8 rows one ldmatrix
// matrix reads differ in bit 0 and in the two bits above a lane's rows (bits 3-4 for 2-byte elements,
// 4-5 for 1-byte ones); XOR-ing those three bits into the chunk index puts them in 8 different 16-byte
// bank groups. The load phase's 16-byte writes, 8 consecutive chunks of a row per quarter warp, stay
// conflict-free.
template <int E, int kRowBytes>
__device__ __forceinline__ int ldmatrix_tile_offset(int r, int chunk) {
  static_assert(kRowBytes >= 128, "8 chunks a row or more");
  constexpr int kShift = E == 2 ? 2 : 3;
  const int key = (r & 1) | ((r >> kShift) & 6);
  return r * kRowBytes + ((chunk ^ key) << 4);
}

// One output vector of rows [r0, r0 + 16 / E) of an output row at `out`: whole where all lie inside
// the tile's rows_valid, else element by element up to it.
template <int E>
__device__ __forceinline__ void store_column_part(unsigned char* out, const std::uint32_t (&w)[4], int r0,
                                                  int rows_valid) {
  constexpr int kPer = 16 / E;
  const int n = rows_valid - r0;
  if (n >= kPer) {
    *reinterpret_cast<uint4*>(out) = make_uint4(w[0], w[1], w[2], w[3]);
    return;
  }
  for (int i = 0; i < n; ++i) {
    const std::uint32_t word = w[i * E / 4];
    if constexpr (E == 1) out[i] = static_cast<unsigned char>(word >> (8 * (i % 4)));
    else reinterpret_cast<std::uint16_t*>(out)[i] = static_cast<std::uint16_t>(word >> (16 * (i % 2)));
  }
}

// Store phase of a tile in the ldmatrix layout (ldmatrix_tile_offset): the tile's rows [0,
// rows_valid) and bytes [0, bytes_valid) of each row to `out` (the output element of the tile's first
// row and column). Tasks of kTaskRows rows by one 16-byte chunk column; each group of 32 threads
// takes consecutive ones, every row block of a chunk column in turn, so its stores continue the same
// output rows. A lane (col, quarter) writes 16 / E rows of output row col of its chunk (two rows for
// 1-byte elements): 64 contiguous bytes of each of 8 output rows per store instruction.
template <typename Tile>
__device__ void ldmatrix_store_tile(unsigned char* out, std::int64_t ld_out_bytes, int rows_valid, int bytes_valid,
                                    const unsigned char* tile, int tid) {
  constexpr int E = Tile::kE;
  constexpr int kTaskRows = tiled_vec_ldmatrix_task_rows(E);
  constexpr int kRowBlocks = Tile::kRows / kTaskRows;
  constexpr int kTasksPerGroup = kRowBlocks * Tile::kChunksPerRow / (Tile::kThreads / 32);
  const int lane = tid % 32, group = tid / 32;
  const int col = lane / 4, quarter = lane % 4;  // the lane's 2-byte column and its rows
  const int mat = lane / 8, mrow = lane % 8;     // the matrix row whose address this lane gives
#pragma unroll
  for (int k = 0; k < kTasksPerGroup; ++k) {
    const int task = group * kTasksPerGroup + k;
    const int rb = (task % kRowBlocks) * kTaskRows, cc = task / kRowBlocks;
    if constexpr (E == 2) {
      // Matrix m, row j: tile row rb + 8 (j / 2) + 2 m + j % 2, so lane (col, quarter) gets rows
      // rb + 8 quarter .. + 7 of its column in order.
      std::uint32_t w[4];
      const int r = rb + 8 * (mrow / 2) + 2 * mat + mrow % 2;
      rt::ldmatrix_x4_trans(w, tile + ldmatrix_tile_offset<E, Tile::kRowB>(r, cc));
      const int c = cc * 8 + col, r0 = rb + 8 * quarter;
      if (c * E < bytes_valid && r0 < rows_valid)
        store_column_part<E>(out + c * ld_out_bytes + r0 * E, w, r0, rows_valid);
    } else {
      // Two calls, 8 rows apart: call h gives rows rb + 16 quarter + 8 h .. + 7 of byte columns
      // 2 col and 2 col + 1, two rows to a word.
      std::uint32_t a[4], b[4];
      const int r = rb + 16 * (mrow / 2) + 2 * mat + mrow % 2;
      rt::ldmatrix_x4_trans(a, tile + ldmatrix_tile_offset<E, Tile::kRowB>(r, cc));
      rt::ldmatrix_x4_trans(b, tile + ldmatrix_tile_offset<E, Tile::kRowB>(r + 8, cc));
      const int c = cc * 16 + 2 * col, r0 = rb + 16 * quarter;
#pragma unroll
      for (int j = 0; j < 2; ++j) {  // byte columns c (bytes 0 and 2 of each word) and c + 1 (1 and 3)
        const unsigned sel = j == 0 ? 0x6420u : 0x7531u;
        const std::uint32_t v[4] = {__byte_perm(a[0], a[1], sel), __byte_perm(a[2], a[3], sel),
                                    __byte_perm(b[0], b[1], sel), __byte_perm(b[2], b[3], sel)};
        if (r0 < rows_valid && c + j < bytes_valid)
          store_column_part<E>(out + (c + j) * ld_out_bytes + r0, v, r0, rows_valid);
      }
    }
  }
}

}  // namespace xpose::gpu
