// tiled_unaligned for 1- and 2-byte elements whose input rows lie on the 16-byte grid (output rows
// anywhere): the mirror of tiled_unaligned_grid_out.cuh. Input chunks need no realigning, so the tile
// crosses shared memory as lines, one per output row:
//   load:  a lane reads one aligned 16-byte chunk of each of 4 / E consecutive input rows,
//          transposes its word columns in registers with byte permutes and stores one word per
//          column: 4 / E elements of that column's output row, in line order;
//   store: lane q of a run of 8 writes chunk q of an output row's owned sectors (as in
//          tiled_unaligned: those starting in the tile, and for the first tile the one holding the
//          row's start; the tile loads the rows of the next tile its last sector reaches, a halo), each
//          chunk five line words funnel-shifted by the row's offset from the 16-byte grid. Runs of 8
//          lanes write 128 contiguous bytes of one row, every sector whole, whatever the output stride.
#pragma once

#include <cstdint>

#include "gpu/kernels/bounded_chunk.cuh"
#include "gpu/kernels/chunk_part.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/tiled_unaligned.cuh"
#include "gpu/kernels/word_block_transpose.cuh"

namespace xpose::gpu {

// Register cap: blocks resident per SM.
constexpr int kGridInBlocksPerSm = 6;

// kRows input rows (kRows * E bytes of output row, a multiple of 32) of kInBytes bytes.
template <int E, int kInBytes, int kRowsArg>
struct GridInTile {
  static_assert(E == 1 || E == 2, "grid-input tiles are for 1- and 2-byte elements");
  static constexpr int kElementBytes = E;
  static constexpr int kRows = kRowsArg;
  static constexpr int kPer = 4 / E;  // rows per line word, columns per input word
  static constexpr int kCols = kInBytes / E;
  static constexpr int kInChunks = kInBytes / 16;
  static constexpr int kChunkCols = 16 / E;
  static constexpr int kOutBytes = kRows * E;
  // Rows loaded: the tile's own and the halo a sector starting in its last row reaches.
  static constexpr int kLoadRows = kRows + 32 / E - 1;
  static constexpr int kRowBlocks = (kLoadRows + kPer - 1) / kPer;  // line words holding loaded rows
  static constexpr int kLoadItems = kRowBlocks * kInChunks;         // (row block, chunk) pairs
  static constexpr int kLoadsPerThread = (kLoadItems + kUnalignedThreads - 1) / kUnalignedThreads;
  // A load-phase store instruction: lanes of kInChunks chunks x kBlocksPerWarp row blocks.
  static constexpr int kBlocksPerWarp = 32 / kInChunks;
  // A line: 32 bytes of margin (the first tile's head sector starts up to 31 bytes before the tile),
  // the loaded rows, and the words a store-phase read reaches past them: a chunk starts at most 15
  // bytes past kOutBytes (line byte 32 + kOutBytes + 15) and reads five words from there.
  static constexpr int kMarginWords = 8;
  static constexpr int kLineWords = (kOutBytes + 47) / 4 + 5 > kMarginWords + kRowBlocks
                                        ? (kOutBytes + 47) / 4 + 5
                                        : kMarginWords + kRowBlocks;
  // Pitch: the columns of one load-phase store lie kChunkCols lines apart, which kChunkCols * pitch
  // = 0 mod 32 puts on one bank; line_base adds kBlocksPerWarp words per chunk of columns, so the
  // lanes of each chunk take their own kBlocksPerWarp banks. 1-byte lines 2 mod 4 words apart, so
  // that the four rows of a store-phase read fall in two bank classes at least.
  static constexpr int kPitchAlign = 32 / kChunkCols;
  static constexpr int kPitchWords = E == 1 ? (kLineWords + 1) / 4 * 4 + 2 : (kLineWords + 3) / 4 * 4;
  static constexpr int kWords = kCols * kPitchWords + kBlocksPerWarp * (kInChunks - 1);
  static constexpr int pad_words() { return kPitchWords - kLineWords; }  // shown in the plan
  static_assert(kOutBytes % 32 == 0, "tile output runs: whole sectors");
  static_assert(kInBytes % 16 == 0 && 32 % kInChunks == 0, "tile rows: whole chunks, whole rows per warp");
  static_assert(kUnalignedThreads % kInChunks == 0, "a thread keeps its chunk across passes");
  static_assert(kPitchWords % kPitchAlign == 0 && kPitchWords >= kLineWords, "pitch");
  static_assert(kCols % 4 == 0, "store phase: groups of 4 lines");
};

// First word of the line of tile column `col`.
template <typename Tile>
__device__ __forceinline__ int line_base(int col) {
  return col * Tile::kPitchWords + Tile::kBlocksPerWarp * (col / Tile::kChunkCols);
}

// Load phase: item (row block rb, chunk k) reads chunk k of input rows kPer * rb ... + kPer - 1 and
// stores, per column of the chunk, the word of those rows to word kMarginWords + rb of its line.
template <typename Tile>
__device__ __forceinline__ void load_lines(std::uint32_t* tile, const unsigned char* src, const unsigned char* in_end,
                                           std::int64_t ld_in_bytes, int rows_valid, int in_bytes) {
  constexpr int E = Tile::kElementBytes, kPer = Tile::kPer;
  const int tid = threadIdx.x;
  const int k = tid % Tile::kInChunks;
  // Chunks are aligned (the input rows lie on the grid), so only the input's end can cut one.
  const bool interior = reinterpret_cast<std::uintptr_t>(src + (rows_valid - 1) * ld_in_bytes) + Tile::kInChunks * 16 <=
                        reinterpret_cast<std::uintptr_t>(in_end);
  uint4 v[Tile::kLoadsPerThread][kPer];
#pragma unroll
  for (int j = 0; j < Tile::kLoadsPerThread; ++j) {
    const int rb = (j * kUnalignedThreads + tid) / Tile::kInChunks;
#pragma unroll
    for (int i = 0; i < kPer; ++i) {
      const int r = kPer * rb + i;
      v[j][i] = make_uint4(0, 0, 0, 0);
      if (rb < Tile::kRowBlocks && r < rows_valid && 16 * k < in_bytes) {
        const unsigned char* row = src + r * ld_in_bytes;
        const unsigned char* chunk = row + 16 * k;
        v[j][i] = interior ? *reinterpret_cast<const uint4*>(chunk) : load_chunk(chunk, row, in_end, row, row + in_bytes);
      }
    }
  }
#pragma unroll
  for (int j = 0; j < Tile::kLoadsPerThread; ++j) {
    const int rb = (j * kUnalignedThreads + tid) / Tile::kInChunks;
    if (rb >= Tile::kRowBlocks || kPer * rb >= rows_valid || 16 * k >= in_bytes) continue;
#pragma unroll
    for (int w = 0; w < 4; ++w) {  // word column w of the chunk: columns kPer * w ... of it
      std::uint32_t a[kPer], col[kPer];
#pragma unroll
      for (int i = 0; i < kPer; ++i) a[i] = chunk_word(v[j][i], w);
      transpose_word_block<E>(a, col);
#pragma unroll
      for (int i = 0; i < kPer; ++i)
        tile[line_base<Tile>(k * Tile::kChunkCols + kPer * w + i) + Tile::kMarginWords + rb] = col[i];
    }
  }
}

// Store phase: items of 4 lines x 8 chunk slots; lane (c, q) = (lane / 8, lane % 8) writes slot q
// of the owned chunks of its line's output row: the chunk 16 q bytes past the row's first owned
// sector. A chunk cut by the row's start (first tile) or the matrix's last row keeps its bytes
// inside.
template <typename Tile>
__device__ __forceinline__ void store_lines(const std::uint32_t* tile, unsigned char* dst, std::int64_t ld_out_bytes,
                                            int cols_valid, int out_bytes, bool first_tile_row) {
  constexpr int kLineGroups = Tile::kCols / 4;
  // Chunks of a row's owned sectors (the first tile's rows own one more), in whole items of 8.
  constexpr int kSlots = (2 * (Tile::kOutBytes / 32 + 1) + 7) / 8 * 8;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int item = warp; item < kLineGroups * (kSlots / 8); item += kUnalignedThreads / 32) {
    const int c = 4 * (item % kLineGroups) + lane / 8, slot = 8 * (item / kLineGroups) + lane % 8;
    if (c >= cols_valid) continue;
    unsigned char* row = dst + c * ld_out_bytes;
    const int lead = static_cast<int>(reinterpret_cast<std::uintptr_t>(row) & 31);
    // The first owned sector: the one holding the row's start in the first tile, else the first
    // that starts in the tile (the one before belongs to the tile above).
    const int start = lead == 0 ? 0 : first_tile_row ? -lead : 32 - lead;
    if (start + 32 * (slot / 2) >= Tile::kOutBytes) continue;  // the sector belongs to the tile below
    const int p = start + 16 * slot;                           // byte of the tile's output row; >= -31
    if (p + 16 <= 0 || p >= out_bytes) continue;
    const int b = 4 * Tile::kMarginWords + p;  // byte of the line
    const std::uint32_t* w = tile + line_base<Tile>(c) + (b >> 2);
    const unsigned bits = 8 * (b & 3);
    const std::uint32_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
    const uint4 v = make_uint4(__funnelshift_r(w0, w1, bits), __funnelshift_r(w1, w2, bits),
                               __funnelshift_r(w2, w3, bits), __funnelshift_r(w3, w4, bits));
    if (p >= 0 && p + 16 <= out_bytes) *reinterpret_cast<uint4*>(row + p) = v;
    else store_chunk_part(row + p, v, p < 0 ? -p : 0, out_bytes - p < 16 ? out_bytes - p : 16);
  }
}

// Block (kUnalignedThreads), one tile per block; grid (tiles) in tile_coord's order. in_end is one
// past the input's last byte: chunks never reach past it.
template <int E, int kInBytes, int kRows>
__global__ void __launch_bounds__(kUnalignedThreads, kGridInBlocksPerSm)
    tiled_unaligned_grid_in_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                                   unsigned char* __restrict__ out, MatrixGeometry g, TileGrid grid) {
  using Tile = GridInTile<E, kInBytes, kRows>;
  alignas(16) __shared__ std::uint32_t tile[Tile::kWords];

  const TileCoord at = tile_coord(blockIdx.x, grid);
  const std::int64_t r0 = at.tr * kRows, c0 = at.tc * Tile::kCols;
  const int rows_valid = static_cast<int>(g.rows - r0 < Tile::kLoadRows ? g.rows - r0 : Tile::kLoadRows);
  const int cols_valid = static_cast<int>(g.cols - c0 < Tile::kCols ? g.cols - c0 : Tile::kCols);
  const std::int64_t ld_in_bytes = g.ld_in * E, ld_out_bytes = g.ld_out * E;
  const unsigned char* src = in + (at.b * g.bs_in + r0 * g.ld_in + c0) * E;
  unsigned char* dst = out + (at.b * g.bs_out + c0 * g.ld_out + r0) * E;

  load_lines<Tile>(tile, src, in_end, ld_in_bytes, rows_valid, cols_valid * E);
  __syncthreads();
  store_lines<Tile>(tile, dst, ld_out_bytes, cols_valid, rows_valid * E, at.tr == 0);
}

}  // namespace xpose::gpu
