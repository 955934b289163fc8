// The fast path where 16-byte strides are not to be had: odd extents, leading dimensions and batch
// strides of any value, base pointers aligned only to their element. Global memory still moves in
// aligned 16-byte chunks on both sides; the shift of each row against the 16-byte grid is undone in
// shared memory. Each output row's 32-byte sectors belong to the tile their first byte falls in,
// which loads the few input rows of the next tile those sectors reach into (a halo), so every
// sector is written whole by one block: only the matrix's first and last rows go element by element.
// 4- to 16-byte elements cross shared memory element by element, 1- and 2-byte ones as words
// (tiled_unaligned_packed.cuh).
#pragma once

#include <cstdint>

#include "gpu/kernels/bounded_chunk.cuh"
#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/tiled_unaligned_packed.cuh"

namespace xpose::gpu {

constexpr int kUnalignedThreads = 256;
// Register cap: blocks resident per SM. Measured on an H200 (8191x8193): five blocks make 4- and
// 8-byte elements 7% faster (f32 0.76 -> 0.81 of memcpy, f64 0.78 -> 0.83), and 2-byte ones 5-7%
// (bf16 0.74 -> 0.78, 16385x16383 0.71 -> 0.76; their kernel fits 48 registers without spilling). The
// 1-byte phases run best at four (u8 55.5 us against 57.4 at three and 68.7 at five, which spills).
constexpr int unaligned_min_blocks_per_sm(int element_bytes) { return element_bytes >= 2 ? 5 : 4; }
// Store phase: a group of 32 threads writes runs of store_run_lanes(E) 16-byte chunks, one run in
// each of 32 / store_run_lanes(E) output rows: 4 rows x 128 contiguous bytes for 8- and 16-byte
// elements, 8 x 64 for 4-byte ones (whose reads are then conflict-free with the pitch below).
// Measured on an H200 against one 32-byte sector of each of 16 rows per instruction
// (bench/results/h200_2026-11-24i_unaligned_store_runs.txt): f32 8191x8193 0.824 -> 0.902 of
// memcpy, 16385x16383 0.802 -> 0.872, f64 8191x8193 0.905 -> 0.936, c128 0.920 -> 0.931. A mapping
// choice, not the hardware warp width: correct for any width.
constexpr int kStoreGroupLanes = 32;
constexpr int store_run_lanes(int element_bytes) { return element_bytes == 4 ? 4 : 8; }

// A tile of kInBytes bytes per input row (kCols elements) and kOutBytes bytes per output row
// (kRows input rows) for E-byte elements.
template <int E, int kInBytes, int kOutBytes>
struct UnalignedTile {
  static constexpr int kElementBytes = E;
  static constexpr int kRows = kOutBytes / E;
  static constexpr int kCols = kInBytes / E;
  // Rows loaded: the tile's own and the halo a sector starting in its last row reaches.
  static constexpr int kHalo = E < 32 ? 32 / E - 1 : 0;
  static constexpr int kLoadRows = kRows + kHalo;
  // A run of kInBytes starting anywhere touches at most this many aligned 16-byte chunks.
  static constexpr int kInChunks = kInBytes / 16 + 1;
  // Sectors of one output row owned by a tile: those starting in its kOutBytes, one more for the
  // first tile (the sector holding the row's start).
  static constexpr int kOutSectors = kOutBytes / 32 + 1;
  // Words per shared-memory row (4- to 16-byte elements): the 4-word margin of raw_row_words, the
  // raw chunks of one input row, and padding, picked by counting the bank conflicts of both phases
  // over a dozen (ld_in, ld_out) pairs (bench/smem_banks.py): a store-phase read takes one column of
  // rows 16 / E apart for the lanes of a run, and for 4-byte elements 2 words of padding put every
  // lane of a read in its own bank (8 rows x 4 lanes). 8- and 16-byte elements cross shared memory
  // as whole 8- / 16-byte accesses, which need rows aligned to them: no padding. Their reads stay 4-
  // and 2-way conflicted; padding that halves or removes that ran no faster on an H200 (f64
  // 8191x8193 272.2 against 272.4 us with 2 words, c128 541.4 against 541.2 with 4).
  static constexpr int kPitchWords = 4 * kInChunks + 4 + (E == 4 ? 2 : 0);
  // Shared words per block: the raw rows, or for 1- and 2-byte elements the packed phases' two
  // buffers.
  static constexpr int shared_words() {
    if constexpr (E < 4) return PackedBuffers<E, kOutBytes, kInChunks>::kWords;
    else return kLoadRows * kPitchWords;
  }
  // Padding words per shared input row (shown in the plan).
  static constexpr int pad_words() {
    if constexpr (E < 4) return PackedBuffers<E, kOutBytes, kInChunks>::kInPitchWords - (4 * kInChunks + 4);
    else return kPitchWords - (4 * kInChunks + 4);
  }
  static constexpr int kLoadItems = kLoadRows * kInChunks;
  static constexpr int kLoadsPerThread = (kLoadItems + kUnalignedThreads - 1) / kUnalignedThreads;
  static_assert(kCols % 16 == 0 && kInBytes % 16 == 0 && kOutBytes % 16 == 0, "tile edges must be chunk multiples");
};

// Shared-memory rows of raw input chunks (4- to 16-byte elements, whose rows start a multiple of 4
// bytes into their first chunk). A row whose data starts `shift` bytes into its first chunk is
// stored shift / 4 words early, behind a 4-word margin: its element x then lies at byte 16 + x * E
// of the row's slot whatever the shift, so rows of one column stay in step across the banks.
__device__ __forceinline__ std::uint32_t* raw_row_words(std::uint32_t* tile, int pitch_words, int r, int shift) {
  return tile + r * pitch_words + 4 - (shift >> 2);
}
// The row's first element (its data start), as bytes.
__device__ __forceinline__ const unsigned char* raw_row_data(const std::uint32_t* tile, int pitch_words, int r) {
  return reinterpret_cast<const unsigned char*>(tile + r * pitch_words + 4);
}

// Element m (of 16 / E) of an output chunk, for 8- and 16-byte elements at a `p` in shared memory
// aligned to their size: one shared access each (put_element reads them word by word).
template <int E>
__device__ __forceinline__ void gather_whole_element(const unsigned char* p, int m, std::uint32_t (&w)[4]) {
  if constexpr (E == 8) {
    const uint2 v = *reinterpret_cast<const uint2*>(p);
    w[2 * m] = v.x;
    w[2 * m + 1] = v.y;
  } else {
    static_assert(E == 16, "whole shared accesses are for 8- and 16-byte elements");
    const uint4 v = *reinterpret_cast<const uint4*>(p);
    w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
  }
}

// Load phase, 4- to 16-byte elements: each aligned chunk of a row into the row's shared words, the
// halves kHalves (LoadHalves) through the registers v.
template <typename Tile, int kHalves = kBothHalves>
__device__ __forceinline__ void load_wide_halves(uint4 (&v)[Tile::kLoadsPerThread], std::uint32_t* tile,
                                                 const unsigned char* src, const unsigned char* in,
                                                 const unsigned char* in_end, std::int64_t ld_in_bytes, int rows_valid,
                                                 int in_bytes, int shift0, int shift_step) {
  constexpr int E = Tile::kElementBytes;
  const int tid = threadIdx.x;
  if constexpr ((kHalves & kIssueHalf) != 0) {
#pragma unroll
    for (int j = 0; j < Tile::kLoadsPerThread; ++j) {
      const int idx = j * kUnalignedThreads + tid;
      const int r = idx / Tile::kInChunks, k = idx % Tile::kInChunks;
      const int shift = (shift0 + r * shift_step) & 15;
      if (idx < Tile::kLoadItems && r < rows_valid && 16 * k < shift + in_bytes) {
        const unsigned char* row = src + r * ld_in_bytes;
        v[j] = load_chunk(row - shift + 16 * k, in, in_end, row, row + in_bytes);
      }
    }
  }
  if constexpr ((kHalves & kCommitHalf) != 0) {
#pragma unroll
    for (int j = 0; j < Tile::kLoadsPerThread; ++j) {
      const int idx = j * kUnalignedThreads + tid;
      const int r = idx / Tile::kInChunks, k = idx % Tile::kInChunks;
      const int shift = (shift0 + r * shift_step) & 15;
      if (idx < Tile::kLoadItems && r < rows_valid && 16 * k < shift + in_bytes) {
        std::uint32_t* chunk = raw_row_words(tile, Tile::kPitchWords, r, shift) + 4 * k;
        if constexpr (E == 16) {
          *reinterpret_cast<uint4*>(chunk) = v[j];  // shift is 0: rows and chunks 16-byte aligned
        } else if constexpr (E == 8) {
          // Two 8-byte halves (shift is 0 or 8), the first one stored flipped every 8 chunks so that
          // a half-warp's stores cover all banks.
          const bool flip = (k / 8) & 1;
          reinterpret_cast<uint2*>(chunk)[flip] = flip ? make_uint2(v[j].z, v[j].w) : make_uint2(v[j].x, v[j].y);
          reinterpret_cast<uint2*>(chunk)[!flip] = flip ? make_uint2(v[j].x, v[j].y) : make_uint2(v[j].z, v[j].w);
        } else {
          store_words_rotated(chunk, v[j], k / 8);  // the 32 lanes of a row in 32 different banks
        }
      }
    }
  }
}

template <typename Tile>
__device__ __forceinline__ void load_wide(std::uint32_t* tile, const unsigned char* src, const unsigned char* in,
                                          const unsigned char* in_end, std::int64_t ld_in_bytes, int rows_valid,
                                          int in_bytes, int shift0, int shift_step) {
  uint4 v[Tile::kLoadsPerThread];
  load_wide_halves<Tile>(v, tile, src, in, in_end, ld_in_bytes, rows_valid, in_bytes, shift0, shift_step);
}

// Store phase, 4- to 16-byte elements: lane (c, q) of a group writes chunk q of a run of
// store_run_lanes(E) 16-byte chunks of output row c, runs one after another from the tile's first
// owned sector; a row owns kOutSectors - 1 sectors (one more in the first tile row).
template <typename Tile>
__device__ __forceinline__ void store_wide(const std::uint32_t* tile, unsigned char* dst, std::int64_t ld_out_bytes,
                                           int cols_valid, int out_bytes, bool first_tile_row) {
  constexpr int E = Tile::kElementBytes;
  constexpr int kOutBytes = Tile::kRows * E;
  constexpr int kRunLanes = store_run_lanes(E);
  constexpr int kRowsPerGroup = kStoreGroupLanes / kRunLanes;
  constexpr int kRowGroups = Tile::kCols / kRowsPerGroup;
  static_assert(Tile::kCols % kRowsPerGroup == 0, "whole groups of output rows");
  const int owned_chunks = 2 * (first_tile_row ? Tile::kOutSectors : Tile::kOutSectors - 1);
  const int runs = (owned_chunks + kRunLanes - 1) / kRunLanes;
  const int lane = threadIdx.x % kStoreGroupLanes, group = threadIdx.x / kStoreGroupLanes;
  const int c_in_group = lane / kRunLanes, q = lane % kRunLanes;
  for (int item = group; item < kRowGroups * runs; item += kUnalignedThreads / kStoreGroupLanes) {
    const int c = (item % kRowGroups) * kRowsPerGroup + c_in_group;
    const int chunk_index = (item / kRowGroups) * kRunLanes + q;
    if (c >= cols_valid) continue;
    unsigned char* row = dst + c * ld_out_bytes;
    const int lead = static_cast<int>(reinterpret_cast<std::uintptr_t>(row) & 31);
    // The tile's first sector starts at its first byte's sector boundary: the one before it for the
    // first tile of the row, the one after it otherwise (the one before belongs to the tile above).
    const int start = lead == 0 ? 0 : first_tile_row ? -lead : 32 - lead;
    if (start + 32 * (chunk_index / 2) >= kOutBytes) continue;  // the sector belongs to the tile below
    const int first = start + 16 * chunk_index;  // byte of the tile's output row; may be < 0
    if (first + 16 <= 0 || first >= out_bytes) continue;
    unsigned char* chunk = row + first;
    if (first >= 0 && first + 16 <= out_bytes) {
      std::uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
      for (int m = 0; m < 16 / E; ++m) {
        const unsigned char* p = raw_row_data(tile, Tile::kPitchWords, first / E + m) + c * E;
        if constexpr (E >= 8) gather_whole_element<E>(p, m, w);
        else put_element<E>(w, m, p);
      }
      *reinterpret_cast<uint4*>(chunk) = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
      for (int m = 0; m < 16 / E; ++m) {
        const int byte = first + m * E;
        if (byte < 0 || byte >= out_bytes) continue;
        store_element<E>(chunk + m * E, raw_row_data(tile, Tile::kPitchWords, byte / E) + c * E);
      }
    }
  }
}

// Block (kUnalignedThreads), one tile per block; grid (tiles) in tile_coord's order. in_end is one
// past the input's last byte: chunks never reach past it or before `in`, so no byte outside the
// caller's buffers is touched. win: the 1- and 2-byte store phase's windows (sector_windows of the
// output row stride).
template <int E, int kInBytes, int kOutBytes>
__global__ void __launch_bounds__(kUnalignedThreads, unaligned_min_blocks_per_sm(E))
    tiled_unaligned_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                           unsigned char* __restrict__ out, MatrixGeometry g, TileGrid grid, SectorWindows win) {
  using Tile = UnalignedTile<E, kInBytes, kOutBytes>;
  alignas(16) __shared__ std::uint32_t tile[Tile::shared_words()];

  const TileCoord at = tile_coord(blockIdx.x, grid);
  const std::int64_t tr = at.tr, tc = at.tc, b = at.b;
  const std::int64_t r0 = tr * Tile::kRows, c0 = tc * Tile::kCols;
  // Rows loaded (the tile's and its halo, as far as the matrix goes).
  const int rows_valid = static_cast<int>(g.rows - r0 < Tile::kLoadRows ? g.rows - r0 : Tile::kLoadRows);
  const int cols_valid = static_cast<int>(g.cols - c0 < Tile::kCols ? g.cols - c0 : Tile::kCols);
  const std::int64_t ld_in_bytes = g.ld_in * E, ld_out_bytes = g.ld_out * E;
  const unsigned char* src = in + (b * g.bs_in + r0 * g.ld_in + c0) * E;
  unsigned char* dst = out + (b * g.bs_out + c0 * g.ld_out + r0) * E;
  // Input row r of the tile starts `shift(r)` bytes into its first aligned chunk.
  const int shift0 = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15);
  const int shift_step = static_cast<int>(ld_in_bytes & 15);
  const int in_bytes = cols_valid * E;

  if constexpr (E < 4) {
    using Buffers = PackedBuffers<E, kOutBytes, Tile::kInChunks>;
    load_packed<E, Tile::kLoadRows, Tile::kInChunks, Buffers::kInPitchWords>(
        tile + Buffers::kMarginRows * Buffers::kInPitchWords, src, in, in_end, ld_in_bytes, rows_valid, in_bytes,
        shift0, shift_step);
    __syncthreads();
    store_packed<E, Tile::kCols, kOutBytes, Buffers::kInPitchWords, Buffers::kMarginRows>(
        tile, dst, ld_out_bytes, cols_valid, rows_valid * E, tr == 0, win);
  } else {
    load_wide<Tile>(tile, src, in, in_end, ld_in_bytes, rows_valid, in_bytes, shift0, shift_step);
    __syncthreads();
    store_wide<Tile>(tile, dst, ld_out_bytes, cols_valid, rows_valid * E, tr == 0);
  }
}

}  // namespace xpose::gpu
