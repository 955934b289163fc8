// tiled_unaligned's phases for 1- and 2-byte elements, which cross shared memory as words rather
// than one element per access (one shared load per byte kept the L1 data pipe 87% busy on an H200,
// u8 8191x8193, at 0.65 of memcpy):
//   load:  aligned 16-byte chunks from global memory; each word is funnel-shifted into place as it is
//          stored, so that every input row in shared memory starts on a word boundary;
//   store: a lane reads one word column (4 / E columns) of a window of rows, transposes it in
//          registers with byte permutes, and writes one 16-byte chunk of each of its 4 / E output
//          rows. The rows' sector grids differ from column to column by a fixed step (the output
//          row stride mod 32 bytes), so the lane's columns want chunks starting a few rows apart:
//          the window is 16 bytes of output row plus that spread (SectorWindows), and each column's
//          chunk is funnel-shifted out of it.
#pragma once

#include <cstdint>

#include "gpu/kernels/bounded_chunk.cuh"
#include "gpu/kernels/chunk_part.cuh"
#include "gpu/kernels/element.cuh"
#include "gpu/kernels/word_block_transpose.cuh"
#include "gpu/runtime.hpp"
#include "plan/sector_windows.hpp"

namespace xpose::gpu {

// Shared input rows for a tile of kRows rows (kOutBytes bytes of output row) loading kLoadRows rows
// of kInChunks aligned 16-byte chunks. The store phase's windows start up to 32 bytes of output row
// before the tile and end up to 64 after it: margin rows on both sides (never stored from).
template <int E, int kOutBytes, int kInChunks>
struct PackedBuffers {
  static_assert(E == 1 || E == 2, "the packed phases are for 1- and 2-byte elements");
  static constexpr int kMarginRows = 32 / E;
  static constexpr int kInRows = kMarginRows + (kOutBytes + 64) / E;
  // A row: a 4-word margin (a row's first chunk starts up to 15 bytes before its data), the chunks,
  // and one or two words so that rows 16 / E apart (the two half-warps of the store phase) lie 16
  // banks apart.
  static constexpr int kInPitchWords = 4 * kInChunks + 4 + (E == 1 ? 1 : 2);
  static constexpr int kWords = kInRows * kInPitchWords;
};

// The load phase's work split: groups of 32 lanes take whole input rows (32 / kInChunks rows per
// group, a lane per chunk), so that the chunk before a lane's chunk is in the lane before it.
template <int kLoadRows, int kInChunks>
struct PackedLoad {
  static constexpr int kRowsPerWarp = 32 / kInChunks;
  static constexpr int kGroups = (kLoadRows + kRowsPerWarp - 1) / kRowsPerWarp;
  static constexpr int kPerThread = (kGroups + 7) / 8;  // 8 warps
  using Registers = uint4[kPerThread];  // a thread's chunks between the load phase's halves
  static_assert(kRowsPerWarp >= 1, "a warp holds a whole input row");
};

// Shared slot of input row r: the row itself, unless a store phase wants its rows grouped otherwise
// (tiled_unaligned_grid_out.cuh).
struct SlotIsRow {
  __device__ __forceinline__ int operator()(int r) const { return r; }
};

// The halves of a load phase: global chunks into registers, then registers into shared memory. A
// kernel that runs them apart can have several tiles' chunks in flight before any lands.
enum LoadHalves { kIssueHalf = 1, kCommitHalf = 2, kBothHalves = 3 };

// Load phase: element x of input row r to byte 16 + x * E of shared slot SlotOf()(r), the halves
// kHalves through the registers v. Row r starts shift(r) = (shift0 + r * shift_step) & 15 bytes into
// its first chunk; its chunk-space word i (chunk i / 4, word i % 4) therefore lands across slot words
// i + 4 - shift / 4 and the next, by shift % 4 bytes. The lane of chunk k writes slot words
// 4k - 1 + 4 - shift / 4 ... + 3, each the funnel shift of two chunk-space words, taking word 4k - 1
// from the lane before it; the row's last loaded chunk also writes the word after.
template <int E, int kLoadRows, int kInChunks, int kInPitchWords, typename SlotOf = SlotIsRow,
          int kHalves = kBothHalves>
__device__ __forceinline__ void load_packed_halves(typename PackedLoad<kLoadRows, kInChunks>::Registers& v,
                                                   std::uint32_t* in_tile, const unsigned char* src,
                                                   const unsigned char* in, const unsigned char* in_end,
                                                   std::int64_t ld_in_bytes, int rows_valid, int in_bytes, int shift0,
                                                   int shift_step) {
  using L = PackedLoad<kLoadRows, kInChunks>;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int k = lane % kInChunks;
  // A tile clear of the input's first and last 16 bytes reads every chunk whole, unchecked.
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(src), last = first + (rows_valid - 1) * ld_in_bytes;
  const bool interior = first >= reinterpret_cast<std::uintptr_t>(in) + 16 &&
                        last + 16 * kInChunks <= reinterpret_cast<std::uintptr_t>(in_end);
  // A thread's rows lie kRowStep apart, so its row pointers and shifts step by constants, computed
  // once rather than per row: that keeps the 2-byte kernel within 48 registers, five blocks per SM
  // (55 registers and four blocks before; H200, bf16 8191x8193 0.74 -> 0.79 of memcpy).
  constexpr int kRowStep = 8 * L::kRowsPerWarp;
  const bool lane_used = lane < L::kRowsPerWarp * kInChunks;
  const int r_first = warp * L::kRowsPerWarp + lane / kInChunks;
  const int shift_first = (shift0 + r_first * shift_step) & 15, shift_inc = (kRowStep * shift_step) & 15;
  const unsigned char* row_first = src + r_first * ld_in_bytes;
  const std::int64_t row_step_bytes = kRowStep * ld_in_bytes;
  if constexpr ((kHalves & kIssueHalf) != 0) {
#pragma unroll
    for (int j = 0; j < L::kPerThread; ++j) {
      const int r = r_first + j * kRowStep;
      const int shift = (shift_first + j * shift_inc) & 15;
      v[j] = make_uint4(0, 0, 0, 0);
      if (lane_used && r < rows_valid && 16 * k < shift + in_bytes) {
        const unsigned char* row = row_first + j * row_step_bytes;
        const unsigned char* chunk = row - shift + 16 * k;
        v[j] = interior ? *reinterpret_cast<const uint4*>(chunk) : load_chunk(chunk, in, in_end, row, row + in_bytes);
      }
    }
  }
  if constexpr ((kHalves & kCommitHalf) != 0) {
#pragma unroll
    for (int j = 0; j < L::kPerThread; ++j) {
      const std::uint32_t before = rt::shfl_up_in_32(v[j].w, 1);
      const int r = r_first + j * kRowStep;
      const int shift = (shift_first + j * shift_inc) & 15;
      if (lane_used && r < rows_valid && 16 * k < shift + in_bytes) {
        const unsigned bits = 8 * (shift & 3);
        std::uint32_t* slot = in_tile + SlotOf()(r) * kInPitchWords + 4 * k + 3 - (shift >> 2);
        if (k > 0) slot[0] = __funnelshift_r(before, v[j].x, bits);  // word 4k - 1 (for k = 0: margin)
        slot[1] = __funnelshift_r(v[j].x, v[j].y, bits);
        slot[2] = __funnelshift_r(v[j].y, v[j].z, bits);
        slot[3] = __funnelshift_r(v[j].z, v[j].w, bits);
        if (16 * (k + 1) >= shift + in_bytes) slot[4] = __funnelshift_r(v[j].w, 0u, bits);
      }
    }
  }
}

template <int E, int kLoadRows, int kInChunks, int kInPitchWords, typename SlotOf = SlotIsRow>
__device__ __forceinline__ void load_packed(std::uint32_t* in_tile, const unsigned char* src, const unsigned char* in,
                                            const unsigned char* in_end, std::int64_t ld_in_bytes, int rows_valid,
                                            int in_bytes, int shift0, int shift_step) {
  typename PackedLoad<kLoadRows, kInChunks>::Registers v;
  load_packed_halves<E, kLoadRows, kInChunks, kInPitchWords, SlotOf>(v, in_tile, src, in, in_end, ld_in_bytes,
                                                                     rows_valid, in_bytes, shift0, shift_step);
}

// Output bytes [o, o + 16) of a window of 8 words (4 / E rows each) of one column: words A... of it,
// funnel-shifted by `bits` (A = o / 4, bits = 8 * (o % 4)).
template <int A>
__device__ __forceinline__ uint4 window_chunk(const std::uint32_t (&x)[8], unsigned bits) {
  return make_uint4(__funnelshift_r(x[A], x[A + 1], bits), __funnelshift_r(x[A + 1], x[A + 2], bits),
                    __funnelshift_r(x[A + 2], x[A + 3], bits), __funnelshift_r(x[A + 3], x[A + 4], bits));
}

// The first byte of window 0 (in bytes of the tile's output rows) of the lane whose anchor column's
// output row starts at `anchor_row`: 32 bytes before that row's first grid boundary (a multiple of
// win.grid bytes in memory) at or after the tile's first byte.
__device__ __forceinline__ int window_origin(const unsigned char* anchor_row, const SectorWindows& win) {
  const int lead = static_cast<int>(reinterpret_cast<std::uintptr_t>(anchor_row) & 31);
  return ((-lead) & (win.grid - 1)) - 32;
}

// Store phase. Lane (q, h) of a 32-lane group: word column q of a block of 16 word columns; the two
// half-warps take consecutive windows (n and n + 1, 16 bytes of output row apart). The tile owns, of
// each output row, the 32-byte sectors starting in its kOutBytes (and, for the first tile, the one
// holding the row's start): a chunk is written by the lane whose window it falls in, if its sector
// is owned; whole with one 16-byte store, or element by element at the matrix's edges.
template <int E, int kCols, int kOutBytes, int kInPitchWords, int kMarginRows>
__device__ __forceinline__ void store_packed(const std::uint32_t* in_tile, unsigned char* dst,
                                             std::int64_t ld_out_bytes, int cols_valid, int out_bytes,
                                             bool first_tile_row, const SectorWindows& win) {
  constexpr int kPer = 4 / E;              // columns per word
  constexpr int kBlockCols = 16 * kPer;    // columns of 16 word columns
  constexpr int kColBlocks = kCols / kBlockCols;
  static_assert(kCols % kBlockCols == 0, "whole blocks of 16 word columns");
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int q = lane % 16, h = lane / 16;
  // Windows start up to 32 bytes before the tile, on the anchor's grid mod win.grid, so that each
  // column's first window chunk lies at or before its first owned one (in the first tile, whose
  // rows' first sectors start before it, up to 16 bytes after: the head pass below covers those); they go on
  // until the chunks pass kOutBytes, and with it the last owned chunk (which ends 31 bytes after it
  // at most).
  const int windows = kOutBytes / 16 + 3;
  const int items = kColBlocks * ((windows + 1) / 2);
  std::uint32_t x[kPer][8] = {};
  for (int item = warp; item < items; item += 8) {
    const int cb = item % kColBlocks, n = 2 * (item / kColBlocks) + h;
    const int c_first = cb * kBlockCols + q * kPer;  // the lane's first column
    // Output row of the anchor column: its sector grid fixes the window origin (mod win.grid).
    const int origin = window_origin(dst + (c_first + win.anchor) * ld_out_bytes, win);
    const int base = origin + 16 * n;  // the window's first byte of output row (tile row base / E)
    if (n < windows && c_first < cols_valid) {
      const std::uint32_t* word = in_tile + (kMarginRows + base / E) * kInPitchWords + 4 + cb * 16 + q;
#pragma unroll
      for (int b = 0; b < 8; ++b) {
        if (b < win.words) {
          std::uint32_t a[kPer], col[kPer];
#pragma unroll
          for (int i = 0; i < kPer; ++i) a[i] = word[(b * kPer + i) * kInPitchWords];
          transpose_word_block<E>(a, col);
#pragma unroll
          for (int i = 0; i < kPer; ++i) x[i][b] = col[i];
        }
      }
    }
    if (n >= windows) continue;
#pragma unroll
    for (int i = 0; i < kPer; ++i) {
      const int c = c_first + i;
      if (c >= cols_valid) continue;
      unsigned char* row = dst + c * ld_out_bytes;
      const int lead = static_cast<int>(reinterpret_cast<std::uintptr_t>(row) & 31);
      const int start = lead == 0 ? 0 : first_tile_row ? -lead : 32 - lead;  // the first owned sector
      const int p = base + win.offset[i];  // this column's chunk: bytes [p, p + 16) of the tile's row
      const int sector = p - ((p - start) & 31);
      if (sector < start || sector >= kOutBytes || p + 16 <= 0 || p >= out_bytes) continue;
      const unsigned bits = 8 * (win.offset[i] & 3);
      uint4 v;
      switch (win.offset[i] >> 2) {
        case 0: v = window_chunk<0>(x[i], bits); break;
        case 1: v = window_chunk<1>(x[i], bits); break;
        case 2: v = window_chunk<2>(x[i], bits); break;
        case 3: v = window_chunk<3>(x[i], bits); break;
        default: v = make_uint4(x[i][4], x[i][5], x[i][6], x[i][7]); break;  // offset 16: bits is 0
      }
      // A chunk cut by the row's start (first tile) or the matrix's last row: only its bytes inside.
      if (p >= 0 && p + 16 <= out_bytes) *reinterpret_cast<uint4*>(row + p) = v;
      else store_chunk_part(row + p, v, max(0, -p), min(16, out_bytes - p));
    }
  }
  // The first tile's head bytes: an output row's bytes before its first window chunk (at most 15),
  // the end of the aligned chunk that ends there, one thread per column.
  if (first_tile_row && static_cast<int>(threadIdx.x) < min(cols_valid, kCols)) {
    const int c = threadIdx.x, c_first = c - c % kPer;
    int offset = 0;
#pragma unroll
    for (int i = 0; i < kPer; ++i)
      if (i == c % kPer) offset = win.offset[i];
    const int head_end = window_origin(dst + (c_first + win.anchor) * ld_out_bytes, win) + offset;
    if (head_end > 0) {
      const unsigned char* column =
          reinterpret_cast<const unsigned char*>(in_tile + kMarginRows * kInPitchWords + 4) + c * E;
      const int p = head_end - 16;  // the chunk: bytes [p, head_end) of the row, p < 0
      std::uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
      for (int m = 0; m < 16 / E; ++m) {
        const int byte = p + m * E;
        if (byte >= 0 && byte < out_bytes) put_element<E>(w, m, column + (byte / E) * kInPitchWords * 4);
      }
      store_chunk_part(dst + c * ld_out_bytes + p, make_uint4(w[0], w[1], w[2], w[3]), -p, min(16, out_bytes - p));
    }
  }
}

}  // namespace xpose::gpu
