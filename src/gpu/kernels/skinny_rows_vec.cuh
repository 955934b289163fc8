// A matrix of a few rows whose output rows are packed (ld_out == rows): the output of a slab of
// columns is one contiguous run of bytes, so it is written as aligned 16-byte chunks whatever the
// element size, and read as aligned 16-byte chunks of each input row, shifts undone in shared
// memory as in tiled_unaligned. 1-byte elements take the staged store phases of
// skinny_rows_vec_packed.cuh where they pay (skinny_rows_vec_stage), the rest go element by element.
#pragma once

#include <cstdint>

#include "gpu/kernels/bounded_chunk.cuh"
#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/skinny_rows_vec_packed.cuh"
#include "plan/gpu_planner.hpp"  // kSkinnyRowsVecMaxRows, shared with the planner

namespace xpose::gpu {

constexpr int kSkinnyVecThreads = 256;
constexpr int kSkinnyVecSmemWords = 4096;  // 16 KiB: the raw input rows of one slab
// The tile array: 4 words past the rows, as the staged store phase reads row words in pairs, up to 2
// bytes past a row.
constexpr int kSkinnyVecTileWords = kSkinnyVecSmemWords + 4;
constexpr int kSkinnyVecMaxRows = static_cast<int>(plan::kSkinnyRowsVecMaxRows);

// Slab geometry, computed once on the host: `span` columns per slab; each loads `span + halo`
// columns (the halo: columns an output sector starting in the slab reaches into), as `chunks`
// aligned 16-byte chunks per row at `pitch` words per shared row.
struct SkinnyVecSlab {
  int span, halo, chunks, pitch;
  FastDiv rows;        // q / rows for run_position
  FastDiv chunks_div;  // i / chunks: item i of the load phase is chunk i % chunks of row i / chunks
};

// Slab `block` of a batch cut into slabs of `span` along a long side of `extent`: its matrix, its
// first index, how many indices it owns and how many it loads (up to `halo` more).
struct SlabPos {
  std::uint32_t b;
  std::int64_t first;
  int own, load;
};
__device__ __forceinline__ SlabPos slab_position(std::uint32_t block, const FastDiv& slabs, int span, int halo,
                                                 std::int64_t extent) {
  const QuotRem slab = fast_divmod(block, slabs);
  const std::int64_t first = static_cast<std::int64_t>(slab.rem) * span, left = extent - first;
  return SlabPos{slab.quot, first, static_cast<int>(left < span ? left : span),
                 static_cast<int>(left < span + halo ? left : span + halo)};
}

// Column and row of element q of a slab's output run.
__device__ __forceinline__ void run_position(unsigned q, const FastDiv& rows, int& c, int& r) {
  const QuotRem cr = fast_divmod(q, rows);
  c = static_cast<int>(cr.quot);
  r = static_cast<int>(cr.rem);
}

// Where input row r's first element lies in the tile: byte 4 * r * pitch + shift(r), shift(r) =
// (shift0 + r * shift_step) & 15. kRowsComputed: stepped as a chunk walks down the rows, else read
// from a table in shared memory, one more shared load per element. The table stays for 1- and
// 2-byte elements of up to 32 rows, where computing was 1-4% slower (its reads are broadcasts or
// conflict-free there; past 32 rows they conflict). Measured on an H200, of memcpy, the table for
// every shape -> this rule (bench/results/h200_2026-11-24s_rows_vec_row_offsets.txt): f32 12x1398101
// 0.89 -> 0.94, 16x1048576 0.83 -> 0.86, 33x508400 0.80 -> 0.86; u8 72x932067 0.54 -> 0.60,
// 100x671088 0.45 -> 0.59; bf16 72x466033 0.69 -> 0.74; f64 / c128 16 rows within 1%; and on the
// table, u8 16x4194304 0.60 -> 0.63, 12x5592405 0.66 -> 0.69 (its kernel went from 51 to 46
// registers in the rewrite; bf16 24 rows unchanged).
constexpr bool skinny_rows_vec_computes_rows(int esize, std::int64_t rows) { return esize >= 4 || rows > 32; }

// The staged store phase, 1-byte elements: as the run itself where rows are a multiple of 4 and the
// output's matrices on the 4-byte grid, so that every column's 4-row word lands whole. Measured on an
// H200, of memcpy (bench/results/h200_2026-11-25v_skinny_rows_staged.txt): u8 12x5592405 0.694 -> 0.755, 24x2796202
// 0.682 -> 0.745, 40x1677721 0.626 -> 0.719, 48x1398101 0.621 -> 0.704, 100x671088 0.591 -> 0.667. Other
// row counts from kRowsVecPaddedMinRows (and output off the 4-byte grid) stage columns padded to
// whole words, written out by write_padded_run, where those columns (and the 6 words it reads past a
// chunk's start) fit the stage. Measured on an H200 (of memcpy, element by element -> padded, two
// rounds alike; bench/results/h200_2026-11-25zc_u8_padded_stage.txt): u8 33x2033601 0.671 -> 0.720,
// 41x1636801 0.656 -> 0.707, 50x1342177 0.652 -> 0.694, 66x1016801 0.625 -> 0.660, 99x677891 0.617 ->
// 0.662, 127x528401 0.607 -> 0.633, a batch of 33x2001 0.635 -> 0.681; but 17 / 19 / 23 rows 0.740 /
// 0.764 / 0.748 -> 0.710 / 0.727 / 0.708, so padded columns start at 32 rows (25 to 31 not measured).
// Byte stores into an unpadded stage ran slower (17 rows 0.68 -> 0.61, 33 rows 0.64 -> 0.55), as did
// 2-byte elements in 2 x 2 blocks, then and after the lean load phase (bf16 48 rows 0.859 -> 0.833, 76
// rows 0.843 -> 0.804; bench/results/h200_2026-11-25zc_bf16_staged_experiment.txt).
constexpr std::int64_t kRowsVecPaddedMinRows = 32;  // a chunk then spans at most two columns
// How skinny_rows_vec's store phase runs: element by element, staged as the run itself (on the
// output's 16-byte grid, or from word 0 and written out shifted where the output lies off the 4-byte
// grid), or staged in padded columns. Measured on an H200, output one byte off, padded columns -> the
// shifted run, of memcpy, two rounds alike (bench/results/h200_2026-11-30i_rows_vec_shifted_run.txt):
// u8 128x524288 0.57 -> 0.62, 64x1048576 0.66 -> 0.74, 100x671088 0.65 -> 0.72 (both pointers off 0.65
// -> 0.72); aligned controls level.
enum class RowsVecStage { none, run, shifted_run, padded };
constexpr RowsVecStage skinny_rows_vec_stage(int esize, std::int64_t rows, int load_cols, bool out_on_4_byte_grid) {
  if (esize != 1) return RowsVecStage::none;
  if (rows % 4 == 0) return out_on_4_byte_grid ? RowsVecStage::run : RowsVecStage::shifted_run;
  const std::int64_t padded_bytes = static_cast<std::int64_t>(load_cols) * ((rows + 3) / 4 * 4) + 24;
  return rows >= kRowsVecPaddedMinRows && padded_bytes <= 4 * staged_run_words(kSkinnyVecSmemWords)
             ? RowsVecStage::padded
             : RowsVecStage::none;
}

// Whether every aligned chunk the load phase may read, s.chunks from each row's aligned start, lies
// inside [in, in_end): then the chunks are read without per-chunk bounds (all slabs but the edges).
__device__ __forceinline__ bool slab_inside(const unsigned char* src, int rows, std::int64_t ld_in_bytes, int chunks,
                                            const unsigned char* in, const unsigned char* in_end) {
  const auto aligned = [](const unsigned char* p) { return p - (reinterpret_cast<std::uintptr_t>(p) & 15); };
  return aligned(src) >= in && aligned(src + (rows - 1) * ld_in_bytes) + 16 * chunks <= in_end;
}

// The load phase: item i is aligned chunk i % chunks of input row i / chunks, stored into the tile as it
// lies (row r at word r * pitch). A slab has at most 4 items per thread (rows * pitch fits
// kSkinnyVecSmemWords): thread t takes items t + 256 j, its row and chunk found by one multiply-shift
// division and stepped from there, and issues its loads before its stores. Where a slab lies inside
// the input (kInside) the chunks are read unchecked. Measured on an H200 (u8 24x2796202, ncu): the
// division per item and the checks made the phase about 500 instructions per warp, 56% of the kernel.
template <bool kInside>
__device__ __forceinline__ void load_slab(std::uint32_t* tile, const unsigned char* src, int rows,
                                          std::int64_t ld_in_bytes, int in_bytes, const SkinnyVecSlab& s,
                                          const unsigned char* in, const unsigned char* in_end) {
  static_assert(kSkinnyVecSmemWords / 4 <= 4 * kSkinnyVecThreads, "at most 4 load items per thread");
  const QuotRem first = fast_divmod(threadIdx.x, s.chunks_div);
  const QuotRem step = fast_divmod(kSkinnyVecThreads, s.chunks_div);
  int r = static_cast<int>(first.quot), k = static_cast<int>(first.rem);
  uint4 v[4];
  int word[4], rot[4];
  bool need[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const unsigned char* row = src + r * ld_in_bytes;
    const int shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(row) & 15);
    need[j] = r < rows && 16 * k < shift + in_bytes;
    word[j] = r * s.pitch + 4 * k;
    rot[j] = k / 8;
    if (need[j]) {
      const unsigned char* chunk = row - shift + 16 * k;
      if constexpr (kInside) v[j] = *reinterpret_cast<const uint4*>(chunk);
      else v[j] = load_chunk(chunk, in, in_end, row, row + in_bytes);
    }
    k += static_cast<int>(step.rem), r += static_cast<int>(step.quot);
    if (k >= s.chunks) k -= s.chunks, ++r;
  }
#pragma unroll
  for (int j = 0; j < 4; ++j)
    if (need[j]) store_words_rotated(tile + word[j], v[j], rot[j]);
}

// The load phase for any slab: its chunks read unchecked where the slab lies inside the input.
__device__ __forceinline__ void load_slab_checked(std::uint32_t* tile, const unsigned char* src, int rows,
                                                  std::int64_t ld_in_bytes, int in_bytes, const SkinnyVecSlab& s,
                                                  const unsigned char* in, const unsigned char* in_end) {
  if (slab_inside(src, rows, ld_in_bytes, s.chunks, in, in_end))
    load_slab<true>(tile, src, rows, ld_in_bytes, in_bytes, s, in, in_end);
  else
    load_slab<false>(tile, src, rows, ld_in_bytes, in_bytes, s, in, in_end);
}

// Byte of the tile where input row r's first element lies after load_slab: word r * pitch, plus the
// row's offset in its 16-byte chunk, (shift0 + r * shift_step) & 15 for a slab whose first row starts
// shift0 bytes into its chunk and whose rows lie shift_step (mod 16) bytes apart.
__device__ __forceinline__ int slab_row_first_byte(int r, int pitch, int shift0, int shift_step) {
  return 4 * r * pitch + ((shift0 + r * shift_step) & 15);
}

// kStage: the store phase of skinny_rows_vec_packed.cuh (skinny_rows_vec_stage), or element by element.
template <int E, bool kRowsComputed, RowsVecStage kStage>
__global__ void __launch_bounds__(kSkinnyVecThreads)
    skinny_rows_vec_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                           unsigned char* __restrict__ out, MatrixGeometry g, SkinnyVecSlab s,
                           FastDiv slabs) {
  __shared__ std::uint32_t tile[kSkinnyVecTileWords];
  __shared__ int row_data[kRowsComputed ? 1 : kSkinnyVecMaxRows];  // the table: row r's first byte in tile
  const int tid = threadIdx.x;
  const int rows = static_cast<int>(g.rows);
  const SlabPos slab = slab_position(blockIdx.x, slabs, s.span, s.halo, g.cols);
  const std::uint32_t b = slab.b;
  const std::int64_t c0 = slab.first;
  const int own_cols = slab.own, load_cols = slab.load;
  const std::int64_t ld_in_bytes = g.ld_in * E;
  const unsigned char* src = in + (b * g.bs_in + c0) * E;
  unsigned char* dst = out + (b * g.bs_out + c0 * rows) * E;  // ld_out == rows
  const int in_bytes = load_cols * E;

  const int shift0 = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15);
  const int shift_step = static_cast<int>(ld_in_bytes & 15);
  const auto row_offset = [&](int r) { return slab_row_first_byte(r, s.pitch, shift0, shift_step); };
  const auto row_first_byte = [&](int r) {
    if constexpr (kRowsComputed) return row_offset(r);
    else return row_data[r];
  };
  if (!kRowsComputed && tid < rows) row_data[tid] = row_offset(tid);

  // Load: the aligned chunks of each input row's slab, as they lie.
  load_slab_checked(tile, src, rows, ld_in_bytes, in_bytes, s, in, in_end);
  __syncthreads();

  // Store: the slab's sectors of the output run (from the sector boundary after its first byte, or
  // before it for the first slab), one 16-byte chunk per thread, in order.
  const int own_bytes = own_cols * rows * E, avail_bytes = load_cols * rows * E;
  const int lead = static_cast<int>(reinterpret_cast<std::uintptr_t>(dst) & 31);
  const int start = lead == 0 ? 0 : c0 == 0 ? -lead : 32 - lead;
  const int chunks_out = start < own_bytes ? 2 * ((own_bytes - start + 31) / 32) : 0;
  if constexpr (kStage != RowsVecStage::none) {
    alignas(16) __shared__ std::uint32_t stage[staged_run_words(kSkinnyVecSmemWords)];
    constexpr bool kPadded = kStage == RowsVecStage::padded, kShifted = kStage == RowsVecStage::shifted_run;
    // The run on the output's 16-byte grid (dst is on the 4-byte grid), or from word 0.
    std::uint32_t* run = kPadded || kShifted ? stage : stage + (reinterpret_cast<std::uintptr_t>(dst) & 15) / 4;
    stage_run_packed<kPadded, kSkinnyVecThreads>(tile, run, rows, load_cols, s.pitch, shift0, shift_step);
    __syncthreads();
    if constexpr (kPadded)
      write_padded_run<kSkinnyVecThreads>(run, dst, start, chunks_out, avail_bytes, rows, s.rows);
    else
      write_staged_run<E, kSkinnyVecThreads, kShifted>(reinterpret_cast<const unsigned char*>(run), dst, start,
                                                       chunks_out, avail_bytes);
    return;
  }
  const unsigned char* tile_bytes = reinterpret_cast<const unsigned char*>(tile);
  for (int k = tid; k < chunks_out; k += kSkinnyVecThreads) {
    const int first = start + 16 * k;  // byte of the slab's output run; may be < 0
    if (first + 16 <= 0 || first >= avail_bytes) continue;
    if (first >= 0 && first + 16 <= avail_bytes) {
      // The chunk's elements walk down the rows of a column, then on to the next column.
      int c, r;
      run_position(static_cast<unsigned>(first / E), s.rows, c, r);
      std::uint32_t w[4] = {0, 0, 0, 0};
      if (E == 2 && !kRowsComputed && 16 / E <= rows) {
        // At most two columns: the rest of this one, then the next from its first row, picked with
        // selects rather than a branch per element. Measured on an H200 (of memcpy, branch ->
        // selects; bench/results/h200_2026-11-25y_skinny_rows_two_columns.txt): bf16 12x2796202 0.81 ->
        // 0.84, 17x1973790 0.80 -> 0.82, 24x1398101 0.81 -> 0.83; elsewhere level or slower (f32
        // 33x508400 0.87 -> 0.80, u8 17x3947580 0.68 -> 0.61), so only 2-byte elements on the row
        // table take it.
        const int n1 = rows - r;
#pragma unroll
        for (int m = 0; m < 16 / E; ++m) {
          const bool here = m < n1;
          const int row = here ? r + m : m - n1;
          put_element<E>(w, m, tile_bytes + row_first_byte(row) + (here ? c : c + 1) * E);
        }
        *reinterpret_cast<uint4*>(dst + first) = make_uint4(w[0], w[1], w[2], w[3]);
        continue;
      }
      int row_byte = 4 * r * s.pitch, shift = (shift0 + r * shift_step) & 15;  // kRowsComputed only
#pragma unroll
      for (int m = 0; m < 16 / E; ++m) {
        if constexpr (kRowsComputed) put_element<E>(w, m, tile_bytes + row_byte + shift + c * E);
        else put_element<E>(w, m, tile_bytes + row_data[r] + c * E);
        if (++r == rows) {
          r = 0, row_byte = 0, shift = shift0;
          ++c;
        } else if constexpr (kRowsComputed) {
          row_byte += 4 * s.pitch, shift = (shift + shift_step) & 15;
        }
      }
      *reinterpret_cast<uint4*>(dst + first) = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
      for (int m = 0; m < 16 / E; ++m) {
        const int byte = first + m * E;
        if (byte < 0 || byte >= avail_bytes) continue;
        int c, r;
        run_position(static_cast<unsigned>(byte / E), s.rows, c, r);
        store_element<E>(dst + byte, tile_bytes + row_first_byte(r) + c * E);
      }
    }
  }
}

}  // namespace xpose::gpu
