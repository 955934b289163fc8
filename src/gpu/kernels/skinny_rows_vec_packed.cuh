// skinny_rows_vec's staged store phase for 1-byte elements. Gathering each 16-byte output chunk
// byte by byte (a shared load, a shift and the row and column stepping per byte) cost about 240
// instructions per chunk and kept the issue slots 87-90% busy on an H200 (u8 24x2796202 at 0.68 of
// memcpy). Here a thread reads a block of 4 columns x 4 rows as one word per row, transposes it in
// registers, and writes each column's word into a shared copy of the slab's output run: laid out on
// the global 16-byte grid where columns are whole words there, the run then going out as aligned
// 16-byte chunks; otherwise in columns padded to whole words, each output chunk spliced out of them.
#pragma once

#include <cstdint>

#include "gpu/kernels/byte_window.cuh"
#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/word_block_transpose.cuh"

namespace xpose::gpu {

// Words of the staged run: the slab's output (no more bytes than the raw rows of the input tile, at
// most `tile_words` words) and 16 bytes more: up to 15 of lead putting it on the output's 16-byte grid,
// or the last chunk a shifted run's write reads past it.
constexpr int staged_run_words(int tile_words) { return tile_words + 4; }

// The slab's output run to `run`, each column at word c * ceil(rows / 4), so that each column's 4-row
// word lands whole: without kPadded rows are a multiple of 4 and byte q of `run` is element q of the
// run; with it the last word of a column ends in pad bytes (write_padded_run). Row r of the input tile
// starts at byte 4 * r * pitch + shift(r), shift(r) = (shift0 + r * shift_step) & 15, and its words
// are read in pairs, so up to 2 bytes past a row's slot. A thread keeps one group of 4 rows and
// walks column groups: its row addresses and shifts are set once, and each block costs a shared
// load pair per row, a funnel shift per row, the permutes and a store per column. Consecutive
// threads take consecutive row groups, so that a warp's word stores lie side by side rather than a
// whole column (`rows` words) apart: that would be up to 16-way bank conflicts at 48 rows. The full
// column groups run without per-row or per-column conditions (on an H200, u8 24x2796202, ncu: the
// conditional form cost 58 instructions per block, half of them address and predicate work).
template <bool kPadded, int kThreads>
__device__ __forceinline__ void stage_run_packed(const std::uint32_t* tile, std::uint32_t* run, int rows, int load_cols,
                                                 int pitch, int shift0, int shift_step) {
  constexpr int kPer = 4;  // columns per word, rows per block
  const int row_groups = (rows + kPer - 1) / kPer;
  const int threads_per_group = kThreads / row_groups;  // the last kThreads % row_groups threads idle
  const int rg = static_cast<int>(threadIdx.x) % row_groups, cg_first = static_cast<int>(threadIdx.x) / row_groups;
  if (cg_first >= threads_per_group) return;
  // Column group cg of row 4 rg + i: words row[i][cg] and the next, shifted right by bits[i].
  const std::uint32_t* row[kPer];
  unsigned bits[kPer];
#pragma unroll
  for (int i = 0; i < kPer; ++i) {
    // Rows past the last (a padded column's last bytes, never written out) read the last row.
    const int r = !kPadded || kPer * rg + i < rows ? kPer * rg + i : rows - 1;
    const int off = 4 * r * pitch + ((shift0 + r * shift_step) & 15);
    row[i] = tile + (off >> 2);
    bits[i] = 8 * (off & 3);
  }
  const int col_words = row_groups;  // one column of the run
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

// The staged run's chunks [start + 16 k, + 16) for k < chunks (bytes of the run), whole where they lie
// inside its `avail_bytes`, element by element where not. `run` and `dst` agree mod 16, or with
// kShifted the run is staged from word 0 where `dst` lies off the 4-byte grid and cannot share its place
// on the 16-byte grid: each whole chunk is then cut out of the two aligned stage chunks around it, at an
// offset the same for every chunk (-dst mod 16). By selects on the word offset: a branch on it
// (with_word_offset) took the kernel from 48 to 60 registers, 5 to 4 blocks per SM. The second stage
// chunk may reach 15 bytes past the run (staged_run_words' slack).
template <int E, int kThreads, bool kShifted = false>
__device__ __forceinline__ void write_staged_run(const unsigned char* run, unsigned char* dst, int start, int chunks,
                                                 int avail_bytes) {
  const int shift = start & 15;  // first & 15 for every chunk; dst + first is on the grid
  for (int k = threadIdx.x; k < chunks; k += kThreads) {
    const int first = start + 16 * k;
    if (first + 16 <= 0 || first >= avail_bytes) continue;
    if (first >= 0 && first + 16 <= avail_bytes) {
      if constexpr (kShifted) {
        const uint4* pair = reinterpret_cast<const uint4*>(run + (first - shift));
        *reinterpret_cast<uint4*>(dst + first) = byte_window(pair[0], pair[1], shift);
      } else {
        *reinterpret_cast<uint4*>(dst + first) = *reinterpret_cast<const uint4*>(run + first);
      }
    } else {
      const int end = first + 16 < avail_bytes ? first + 16 : avail_bytes;
      for (int byte = first > 0 ? first : 0; byte < end; byte += E) copy_element<E>(dst + byte, run + byte);
    }
  }
}

// The run's chunks [start + 16 k, + 16) for k < chunks (bytes of the run, `dst` its first byte) from a
// stage of padded columns (stage_run_packed with rows not a multiple of 4): run byte q = c * rows + r
// lies at stage byte c * pitch + r, pitch = 4 * ceil(rows / 4). A chunk of at least 17 rows spans at
// most two columns, so it is the stage's bytes from its first one with the column's pad bytes cut
// out after n1 = rows - r of them: per word, the stage read at the chunk's offset and at that offset
// plus the pad, merged by a byte mask. Edge chunks go element by element.
template <int kThreads>
__device__ __forceinline__ void write_padded_run(const std::uint32_t* stage, unsigned char* dst, int start, int chunks,
                                                 int avail_bytes, int rows, const FastDiv& rows_div) {
  const int pitch = (rows + 3) & ~3, pad = pitch - rows;
  const unsigned char* stage_bytes = reinterpret_cast<const unsigned char*>(stage);
  for (int k = threadIdx.x; k < chunks; k += kThreads) {
    const int first = start + 16 * k;
    if (first + 16 <= 0 || first >= avail_bytes) continue;
    if (first >= 0 && first + 16 <= avail_bytes) {
      const QuotRem cr = fast_divmod(static_cast<unsigned>(first), rows_div);
      const int x = static_cast<int>(cr.quot) * pitch + static_cast<int>(cr.rem), n1 = rows - static_cast<int>(cr.rem);
      const std::uint32_t* w = stage + (x >> 2);
      std::uint32_t v[6];
#pragma unroll
      for (int i = 0; i < 6; ++i) v[i] = w[i];
      const int s = x & 3, s2 = s + pad;  // s2: the offset past the pad, up to 6 bytes
      const unsigned bits = 8 * s, bits2 = 8 * (s2 & 3);
      std::uint32_t o[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const std::uint32_t lo = __funnelshift_r(v[i], v[i + 1], bits);
        const std::uint32_t hi =
            s2 >= 4 ? __funnelshift_r(v[i + 1], v[i + 2], bits2) : __funnelshift_r(v[i], v[i + 1], bits2);
        const int keep = n1 - 4 * i;  // bytes of this word still in the first column
        const std::uint32_t mask = keep >= 4 ? ~0u : keep <= 0 ? 0u : (1u << (8 * keep)) - 1;
        o[i] = (lo & mask) | (hi & ~mask);
      }
      *reinterpret_cast<uint4*>(dst + first) = make_uint4(o[0], o[1], o[2], o[3]);
    } else {
      const int end = first + 16 < avail_bytes ? first + 16 : avail_bytes;
      for (int byte = first > 0 ? first : 0; byte < end; ++byte) {
        const QuotRem cr = fast_divmod(static_cast<unsigned>(byte), rows_div);
        dst[byte] = stage_bytes[cr.quot * pitch + cr.rem];
      }
    }
  }
}

}  // namespace xpose::gpu
