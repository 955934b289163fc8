// tiled_unaligned for 1- and 2-byte elements whose output rows lie on the 16-byte grid (input rows
// anywhere): no halo and no sector windows, since every output chunk of the tile is whole.
//   load:  the packed phases' (tiled_unaligned_packed.cuh: aligned 16-byte chunks, each word
//          funnel-shifted into place so that every input row in shared memory starts on a word
//          boundary), into slots grouped by the row's place in its output chunk, so that the lanes
//          of a store-phase read hit 32 different banks;
//   store: lane (q, w) of a 32-lane group reads word column w (4 / E columns) of the 16 / E input
//          rows of output chunk q, transposes them in registers with byte permutes and writes chunk
//          q of each of its 4 / E output rows: runs of 8 lanes write 128 contiguous bytes of a row.
#pragma once

#include <cstdint>

#include "gpu/kernels/chunk_part.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/tiled_unaligned.cuh"
#include "gpu/kernels/word_block_transpose.cuh"

namespace xpose::gpu {

// Register cap: blocks resident per SM. For 2-byte elements in tiles of 128 x 128 bytes six ran
// faster than four on an H200 (of memcpy: bf16 768x50257 0.85 -> 0.98, 12288x5461 0.76 -> 0.88); the
// launcher's 1-byte tiles (64 x 128 bytes) fit six without spilling.
constexpr int kGridOutBlocksPerSm = 6;

// kRows input rows of kInBytes bytes of E-byte elements.
template <int E, int kInBytes, int kRowsArg>
struct GridOutTile {
  static_assert(E == 1 || E == 2, "grid-output tiles are for 1- and 2-byte elements");
  static constexpr int kElementBytes = E;
  static constexpr int kRows = kRowsArg;
  static constexpr int kPer = 4 / E;          // columns per word
  static constexpr int kChunkRows = 16 / E;   // input rows per output chunk
  static constexpr int kCols = kInBytes / E;
  static constexpr int kInChunks = kInBytes / 16 + 1;  // a row of kInBytes starting anywhere
  static constexpr int kWordCols = kInBytes / 4;
  static constexpr int kOutChunks = kRows / kChunkRows;  // chunks of a tile's output run
  // Slots: row r lies in slot (r % kChunkRows) * kOutChunks + r / kChunkRows.
  // Pitch: a 4-word margin (a row's first chunk starts up to 15 bytes before its data), the
  // chunks, the last chunk's shifted tail word; 4 mod 8 words, so that the 8 chunks of a run (slots
  // 1 apart) start in 8 different bank quads and the 4 word columns beside them fill the quads.
  static constexpr int kPitchWords = (4 * kInChunks + 5 + 3) / 8 * 8 + 4;
  static constexpr int kWords = kRows * kPitchWords;
  static constexpr int pad_words() { return kPitchWords - (4 * kInChunks + 4); }  // shown in the plan
  static_assert(kInBytes % 16 == 0 && kWordCols % 4 == 0, "tile rows: whole chunks, groups of 4 word columns");
  static_assert(kOutChunks % 8 == 0, "tile output runs: groups of 8 chunks");
  static_assert(kPitchWords % 8 == 4 && kPitchWords >= 4 * kInChunks + 5, "pitch");
};

// Slot of input row r: rows of one place in their output chunk together.
template <typename Tile>
struct GridOutSlot {
  __device__ __forceinline__ int operator()(int r) const {
    return (r % Tile::kChunkRows) * Tile::kOutChunks + r / Tile::kChunkRows;
  }
};

// Store phase: items of 4 word columns x 8 output chunks; in one, lane (q, w) = (lane % 8, lane / 8)
// writes chunk q of the output rows of word column w. A chunk cut by the matrix's last row keeps
// only its bytes inside.
template <typename Tile>
__device__ __forceinline__ void store_grid_out(const std::uint32_t* tile, unsigned char* dst, std::int64_t ld_out_bytes,
                                               int cols_valid, int out_bytes) {
  constexpr int E = Tile::kElementBytes, kPer = Tile::kPer;
  constexpr int kColGroups = Tile::kWordCols / 4, kChunkGroups = Tile::kOutChunks / 8;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int item = warp; item < kColGroups * kChunkGroups; item += kUnalignedThreads / 32) {
    const int w = 4 * (item % kColGroups) + lane / 8, q = 8 * (item / kColGroups) + lane % 8;
    if (kPer * w >= cols_valid || 16 * q >= out_bytes) continue;
    std::uint32_t out[kPer][4];
#pragma unroll
    for (int b = 0; b < 4; ++b) {  // word b of the chunk: input rows of block b
      std::uint32_t a[kPer], col[kPer];
#pragma unroll
      for (int i = 0; i < kPer; ++i)
        a[i] = tile[((b * kPer + i) * Tile::kOutChunks + q) * Tile::kPitchWords + 4 + w];
      transpose_word_block<E>(a, col);
#pragma unroll
      for (int i = 0; i < kPer; ++i) out[i][b] = col[i];
    }
#pragma unroll
    for (int i = 0; i < kPer; ++i) {
      const int c = kPer * w + i;
      if (c >= cols_valid) break;
      unsigned char* chunk = dst + c * ld_out_bytes + 16 * q;
      const uint4 v = make_uint4(out[i][0], out[i][1], out[i][2], out[i][3]);
      if (16 * q + 16 <= out_bytes) *reinterpret_cast<uint4*>(chunk) = v;
      else store_chunk_part(chunk, v, 0, out_bytes - 16 * q);
    }
  }
}

// Block (kUnalignedThreads), one tile per block; grid (tiles) in tile_coord's order. in_end is one
// past the input's last byte: chunks never reach past it or before `in`.
template <int E, int kInBytes, int kRows>
__global__ void __launch_bounds__(kUnalignedThreads, kGridOutBlocksPerSm)
    tiled_unaligned_grid_out_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                                    unsigned char* __restrict__ out, MatrixGeometry g, TileGrid grid) {
  using Tile = GridOutTile<E, kInBytes, kRows>;
  alignas(16) __shared__ std::uint32_t tile[Tile::kWords];

  const TileCoord at = tile_coord(blockIdx.x, grid);
  const std::int64_t r0 = at.tr * kRows, c0 = at.tc * Tile::kCols;
  const int rows_valid = static_cast<int>(g.rows - r0 < kRows ? g.rows - r0 : kRows);
  const int cols_valid = static_cast<int>(g.cols - c0 < Tile::kCols ? g.cols - c0 : Tile::kCols);
  const std::int64_t ld_in_bytes = g.ld_in * E, ld_out_bytes = g.ld_out * E;
  const unsigned char* src = in + (at.b * g.bs_in + r0 * g.ld_in + c0) * E;
  unsigned char* dst = out + (at.b * g.bs_out + c0 * g.ld_out + r0) * E;
  const int shift0 = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15);
  const int shift_step = static_cast<int>(ld_in_bytes & 15);

  load_packed<E, kRows, Tile::kInChunks, Tile::kPitchWords, GridOutSlot<Tile>>(
      tile, src, in, in_end, ld_in_bytes, rows_valid, cols_valid * E, shift0, shift_step);
  __syncthreads();
  store_grid_out<Tile>(tile, dst, ld_out_bytes, cols_valid, rows_valid * E);
}

}  // namespace xpose::gpu
