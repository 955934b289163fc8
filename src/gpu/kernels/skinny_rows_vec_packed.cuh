// skinny_rows_vec's staged store phase for 1-byte elements. Gathering each 16-byte output chunk
// byte by byte (a shared load, a shift and the row and column stepping per byte) cost about 240
// instructions per chunk and kept the issue slots 87-90% busy on an H200 (u8 24x2796202 at 0.68 of
// memcpy). Here a thread reads a block of 4 columns x 4 rows as one word per row, transposes it in
// registers, and writes each column's word into a shared copy of the slab's output run, laid out on
// the global 16-byte grid; the run then goes out as aligned 16-byte chunks.
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/word_block_transpose.cuh"

namespace xpose::gpu {

// Words of the staged run: the slab's output (no more bytes than the raw rows of the input tile, at
// most `tile_words` words) and up to 15 bytes of lead putting it on the output's 16-byte grid.
constexpr int staged_run_words(int tile_words) { return tile_words + 4; }

// The slab's output run to `run` (its byte q: element q of the run). Row r of the input tile
// starts at byte 4 * r * pitch + shift(r), shift(r) = (shift0 + r * shift_step) & 15, and its words
// are read in pairs, so up to 2 bytes past a row's slot. A thread keeps one group of 4 rows and
// walks column groups: its row addresses and shifts are set once, and each block costs a shared
// load pair per row, the permutes and a store per column. Consecutive threads take consecutive row
// groups, so that a warp's word stores lie side by side rather than a whole column (`rows` words)
// apart: that would be up to 16-way bank conflicts at 48 rows.
template <int kThreads>
__device__ __forceinline__ void stage_run_packed(const std::uint32_t* tile, unsigned char* run, int rows, int load_cols,
                                                 int pitch, int shift0, int shift_step) {
  constexpr int E = 1, kPer = 4;  // columns per word, rows per block
  const int row_groups = (rows + kPer - 1) / kPer;
  const int col_groups = (load_cols + kPer - 1) / kPer;
  const int threads_per_group = kThreads / row_groups;  // the last kThreads % row_groups threads idle
  const int rg = static_cast<int>(threadIdx.x) % row_groups, cg_first = static_cast<int>(threadIdx.x) / row_groups;
  if (cg_first >= threads_per_group) return;
  const int r0 = rg * kPer;
  const int valid_rows = rows - r0 < kPer ? rows - r0 : kPer;
  // Column group cg of row r0 + i: words word[i] + cg and the next, shifted right by bits[i].
  int word[kPer];
  unsigned bits[kPer];
#pragma unroll
  for (int i = 0; i < kPer; ++i) {
    const int r = r0 + i;
    const int off = 4 * r * pitch + ((shift0 + r * shift_step) & 15);
    word[i] = off >> 2;
    bits[i] = 8 * (off & 3);
  }
  const int col_bytes = rows * E;  // one column of the run
  unsigned char* first = run + r0 * E;
  const bool whole_words =
      valid_rows == kPer && (col_bytes & 3) == 0 && (reinterpret_cast<std::uintptr_t>(first) & 3) == 0;
  for (int cg = cg_first; cg < col_groups; cg += threads_per_group) {
    std::uint32_t a[kPer], col[kPer];
#pragma unroll
    for (int i = 0; i < kPer; ++i)
      a[i] = i < valid_rows ? __funnelshift_r(tile[word[i] + cg], tile[word[i] + cg + 1], bits[i]) : 0u;
    transpose_word_block<E>(a, col);
    unsigned char* p = first + cg * kPer * col_bytes;
    const int cols_here = load_cols - cg * kPer < kPer ? load_cols - cg * kPer : kPer;
    if (whole_words && cols_here == kPer) {
#pragma unroll
      for (int j = 0; j < kPer; ++j) *reinterpret_cast<std::uint32_t*>(p + j * col_bytes) = col[j];
    } else {
#pragma unroll
      for (int j = 0; j < kPer; ++j) {
        if (j >= cols_here) break;
        for (int m = 0; m < valid_rows; ++m) take_element<E>(&col[j], m, p + j * col_bytes + m * E);
      }
    }
  }
}

// The staged run's chunks [start + 16 k, + 16) for k < chunks (bytes of the run; `run` and `dst`
// agree mod 16), whole where they lie inside its `avail_bytes`, element by element where not.
template <int E, int kThreads>
__device__ __forceinline__ void write_staged_run(const unsigned char* run, unsigned char* dst, int start, int chunks,
                                                 int avail_bytes) {
  for (int k = threadIdx.x; k < chunks; k += kThreads) {
    const int first = start + 16 * k;
    if (first + 16 <= 0 || first >= avail_bytes) continue;
    if (first >= 0 && first + 16 <= avail_bytes) {
      *reinterpret_cast<uint4*>(dst + first) = *reinterpret_cast<const uint4*>(run + first);
    } else {
      const int end = first + 16 < avail_bytes ? first + 16 : avail_bytes;
      for (int byte = first > 0 ? first : 0; byte < end; byte += E) copy_element<E>(dst + byte, run + byte);
    }
  }
}

}  // namespace xpose::gpu
