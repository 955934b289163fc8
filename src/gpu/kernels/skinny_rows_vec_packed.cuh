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

// The slab's output run to `run` (its byte q: element q of the run; `run` on a word boundary and
// `rows` a multiple of 4, so that each column's 4-row word lands whole). Row r of the input tile
// starts at byte 4 * r * pitch + shift(r), shift(r) = (shift0 + r * shift_step) & 15, and its words
// are read in pairs, so up to 2 bytes past a row's slot. A thread keeps one group of 4 rows and
// walks column groups: its row addresses and shifts are set once, and each block costs a shared
// load pair per row, a funnel shift per row, the permutes and a store per column. Consecutive
// threads take consecutive row groups, so that a warp's word stores lie side by side rather than a
// whole column (`rows` words) apart: that would be up to 16-way bank conflicts at 48 rows. The full
// column groups run without per-row or per-column conditions (on an H200, u8 24x2796202, ncu: the
// conditional form cost 58 instructions per block, half of them address and predicate work).
template <int kThreads>
__device__ __forceinline__ void stage_run_packed(const std::uint32_t* tile, std::uint32_t* run, int rows, int load_cols,
                                                 int pitch, int shift0, int shift_step) {
  constexpr int kPer = 4;  // columns per word, rows per block
  const int row_groups = rows / kPer;
  const int threads_per_group = kThreads / row_groups;  // the last kThreads % row_groups threads idle
  const int rg = static_cast<int>(threadIdx.x) % row_groups, cg_first = static_cast<int>(threadIdx.x) / row_groups;
  if (cg_first >= threads_per_group) return;
  // Column group cg of row 4 rg + i: words row[i][cg] and the next, shifted right by bits[i].
  const std::uint32_t* row[kPer];
  unsigned bits[kPer];
#pragma unroll
  for (int i = 0; i < kPer; ++i) {
    const int r = kPer * rg + i;
    const int off = 4 * r * pitch + ((shift0 + r * shift_step) & 15);
    row[i] = tile + (off >> 2);
    bits[i] = 8 * (off & 3);
  }
  const int col_words = rows / kPer;  // one column of the run
  std::uint32_t* first = run + rg;
  const auto block = [&](int cg, std::uint32_t (&col)[kPer]) {
    std::uint32_t a[kPer];
#pragma unroll
    for (int i = 0; i < kPer; ++i) a[i] = __funnelshift_r(row[i][cg], row[i][cg + 1], bits[i]);
    transpose_word_block<1>(a, col);
  };
  const int full_groups = load_cols / kPer;
  int cg = cg_first;
  for (; cg < full_groups; cg += threads_per_group) {
    std::uint32_t col[kPer];
    block(cg, col);
    std::uint32_t* p = first + cg * kPer * col_words;
#pragma unroll
    for (int j = 0; j < kPer; ++j) p[j * col_words] = col[j];
  }
  const int cols_left = load_cols - kPer * full_groups;
  if (cg == full_groups && cols_left > 0) {  // the last, partial column group
    std::uint32_t col[kPer];
    block(cg, col);
    std::uint32_t* p = first + cg * kPer * col_words;
#pragma unroll
    for (int j = 0; j < kPer; ++j)
      if (j < cols_left) p[j * col_words] = col[j];
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
